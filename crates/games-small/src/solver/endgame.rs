//! [`EndgamePlayer`]: another agent early in the game, perfect play once few
//! cells are empty.

use search_core::{Agent, Choice, GameError, ParamError, RngCore};

use super::{MoveMemo, PerfectPlayer};
use crate::connect4::{Column, Connect4};

/// A connect-4 agent that can move to another thread.
pub type SendAgent = Box<dyn Agent<Connect4> + Send>;

/// The player of the `solver` agent kind (`solver[:mib=M][,depth=D,empties=E]`),
/// for the rosters that offer it: a [`PerfectPlayer`] of `width × height`
/// with a `table_mib`-MiB table sharing `memo`; given `depth` and
/// `empties`, an [`EndgamePlayer`] whose early agent `early(depth)` builds
/// (alpha-beta at that depth, as the roster builds it; `None`: it builds
/// none).
///
/// Errors: `depth` without `empties` or the reverse; the errors of
/// [`PerfectPlayer::new`] and of `early`, and an `early` that builds none.
///
/// ```
/// use games_small::solver::{MoveMemo, SendAgent, solver_agent};
/// use search_core::{Agent, RandomAgent};
/// let memo = MoveMemo::default();
/// let random = |_depth| Ok::<_, String>(Some(Box::new(RandomAgent) as SendAgent));
/// let endgame = solver_agent(7, 6, 1, &memo, Some(8), Some(30), random)?;
/// assert!(endgame.name().contains("at 30 empty cells"));
/// assert!(solver_agent(7, 6, 1, &memo, Some(8), None, random).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
pub fn solver_agent<E: std::fmt::Display>(
    width: usize,
    height: usize,
    table_mib: usize,
    memo: &MoveMemo,
    depth: Option<u32>,
    empties: Option<u32>,
    early: impl FnOnce(u32) -> Result<Option<SendAgent>, E>,
) -> Result<SendAgent, ParamError> {
    let perfect = PerfectPlayer::new(width, height, table_mib)?.with_memo(memo.clone());
    match (depth, empties) {
        (None, None) => Ok(Box::new(perfect)),
        (Some(depth), Some(empties)) => {
            let early = early(depth)
                .map_err(|e| ParamError::new("depth", e.to_string()))?
                .ok_or_else(|| ParamError::new("depth", "the roster builds no alpha-beta player"))?;
            Ok(Box::new(EndgamePlayer::new(early, perfect, empties)))
        }
        _ => Err(ParamError::new(
            "depth, empties",
            "depth=D and empties=E go together: alpha-beta at depth D plays while more than E cells are empty",
        )),
    }
}

/// Plays `early`'s moves while more than `empties` cells are empty, and
/// [`PerfectPlayer`]'s from then on. The cost of perfect play falls steeply
/// with the cells left (a solve takes seconds a few discs from the start,
/// milliseconds twenty discs in), so `empties` sets both how much of the game
/// is played perfectly and what it costs: a strength dial between `early`
/// and perfect play. With `empties` at least the board's cells it is a
/// perfect player.
///
/// ```
/// use games_small::connect4::Connect4;
/// use games_small::solver::{EndgamePlayer, PerfectPlayer};
/// use search_core::{Agent, RandomAgent, rng};
/// let mut player = EndgamePlayer::new(RandomAgent, PerfectPlayer::new(5, 4, 1)?, 14);
/// // 15 empty cells: a random move.
/// let early = Connect4::from_moves(5, 4, "12345")?;
/// assert!(player.choose(&early, &mut rng::seeded(1)).is_ok());
/// // 14 empty cells: the perfect move, blocking the vertical three in
/// // column `1` (index 0).
/// let late = Connect4::from_moves(5, 4, "121213")?;
/// assert_eq!(player.choose(&late, &mut rng::seeded(1))?, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct EndgamePlayer<A> {
    early: A,
    perfect: PerfectPlayer,
    empties: u32,
}

impl<A: Agent<Connect4>> EndgamePlayer<A> {
    /// `early` while more than `empties` cells are empty, `perfect` after.
    pub fn new(early: A, perfect: PerfectPlayer, empties: u32) -> Self {
        EndgamePlayer { early, perfect, empties }
    }

    /// Whether `state` is for the perfect player.
    fn is_late(&self, state: &Connect4) -> bool {
        let cells = (state.width() * state.height()) as u32;
        cells.saturating_sub(state.moves_played()) <= self.empties
    }
}

impl<A: Agent<Connect4>> Agent<Connect4> for EndgamePlayer<A> {
    fn name(&self) -> String {
        format!("{}, then {} at {} empty cells", self.early.name(), self.perfect.name(), self.empties)
    }

    fn choose(&mut self, state: &Connect4, rng: &mut dyn RngCore) -> Result<Column, GameError> {
        if self.is_late(state) { self.perfect.choose(state, rng) } else { self.early.choose(state, rng) }
    }

    fn choose_explained(&mut self, state: &Connect4, rng: &mut dyn RngCore) -> Result<Choice<Column>, GameError> {
        if self.is_late(state) {
            self.perfect.choose_explained(state, rng)
        } else {
            self.early.choose_explained(state, rng)
        }
    }

    fn reset(&mut self) {
        self.early.reset();
        self.perfect.reset();
    }

    fn game_over(&mut self, last: &Connect4) {
        self.early.game_over(last);
        self.perfect.game_over(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::{Game, rng};

    /// Plays the leftmost open column and counts the moves it was asked for.
    struct Leftmost(usize);

    impl Agent<Connect4> for Leftmost {
        fn name(&self) -> String {
            "leftmost".into()
        }

        fn choose(&mut self, state: &Connect4, _rng: &mut dyn RngCore) -> Result<Column, GameError> {
            self.0 += 1;
            (0..state.width() as Column).find(|&c| state.can_play(c)).ok_or(GameError::GameOver)
        }
    }

    /// The early agent moves exactly while more than `empties` cells are
    /// empty, the perfect player from then on; at the board's cell count it
    /// is the perfect player throughout.
    #[test]
    fn the_switch_is_at_the_empty_cell_count() {
        let mut judge = PerfectPlayer::new(5, 4, 1).unwrap();
        let mut rng = rng::seeded(1);
        for empties in [0, 10, 14, 20] {
            let mut player = EndgamePlayer::new(Leftmost(0), PerfectPlayer::new(5, 4, 1).unwrap(), empties);
            let mut pos = Connect4::from_moves(5, 4, "3").unwrap();
            let mut early_moves = 0;
            while pos.winner().is_none() && !pos.is_full() {
                let col = player.choose(&pos, &mut rng).unwrap();
                let left = 20 - pos.moves_played();
                if left > empties {
                    early_moves += 1;
                    assert_eq!(player.early.0, early_moves, "{empties}: {pos:?}");
                } else {
                    assert_eq!(col, judge.choose(&pos, &mut rng).unwrap(), "{empties}: {pos:?}");
                    assert_eq!(player.early.0, early_moves, "{empties}: the early agent moved at {left} empty cells");
                }
                pos.play(col);
            }
            if empties == 20 {
                assert_eq!(early_moves, 0);
            }
        }
    }
}
