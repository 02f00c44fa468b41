//! The perfect connect-4 player: [`PerfectPlayer`], the solver as an agent,
//! and [`MoveMemo`], the moves it found, shared between players.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use search_core::search::Stats;
use search_core::{Agent, Choice, GameError, ParamError, RngCore, Thought};

use super::Solver;
use crate::connect4::{Column, Connect4};

/// An agent that plays perfectly: at every move, [`Solver::best_move`]
/// (the fastest win, the slowest loss, the first such column in the
/// centre-first order). It is deterministic and draws nothing from the
/// random generator.
///
/// Given a position of another board size, it replaces its solver with
/// one for that size (the same table size) and plays on.
///
/// Its table is kept between moves and games: a solver's bounds stay exact
/// whatever the root, so what one search proved speeds up the next, and
/// the moves never depend on it. The first moves of a game are the
/// expensive ones (seconds each a few plies from the start of a 7 × 6
/// game); they get cheaper as the board fills.
///
/// ```
/// use games_small::connect4::Connect4;
/// use games_small::solver::PerfectPlayer;
/// use search_core::{Agent, rng};
/// let mut player = PerfectPlayer::new(5, 4, 1)?;
/// let pos = Connect4::from_moves(5, 4, "12121")?;
/// // It blocks the vertical three in column `1` (index 0).
/// assert_eq!(player.choose(&pos, &mut rng::seeded(1))?, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PerfectPlayer {
    solver: Solver,
    table_mib: usize,
    memo: Option<MoveMemo>,
}

/// The costliest perfect moves found so far, shared by every
/// [`PerfectPlayer`] given it ([`PerfectPlayer::with_memo`]): a position's
/// perfect move is a function of the position alone, so a player that meets
/// a position another has solved plays the remembered move without search,
/// and its play is the same as without the memo.
///
/// The first moves after an opening cost seconds each, and many games of a
/// match start from the same few openings: in a match, the memo pays for
/// each such position once. It keeps only moves whose search visited at
/// least [`MoveMemo::MIN_NODES`] nodes (the later, cheap moves would only
/// fill it), at most [`MoveMemo::CAPACITY`] of them. Cloning shares it.
///
/// ```
/// use games_small::connect4::Connect4;
/// use games_small::solver::{MoveMemo, PerfectPlayer};
/// use search_core::{Agent, rng};
/// // Keep every move, however cheap (5 × 4 solves are).
/// let memo = MoveMemo::with_min_nodes(0);
/// let mut a = PerfectPlayer::new(5, 4, 1)?.with_memo(memo.clone());
/// let pos = Connect4::from_moves(5, 4, "3")?;
/// let column = a.choose(&pos, &mut rng::seeded(1))?;
/// assert_eq!(memo.len(), 1);
/// // Another player sharing the memo plays the move without search.
/// let mut b = PerfectPlayer::new(5, 4, 1)?.with_memo(memo.clone());
/// assert_eq!(b.choose(&pos, &mut rng::seeded(1))?, column);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct MoveMemo {
    moves: Arc<Mutex<HashMap<MemoKey, Column>>>,
    min_nodes: u64,
}

/// A position in a [`MoveMemo`]: its board's width and height and its
/// perfect key ([`Connect4::key`]).
type MemoKey = (u8, u8, u64);

impl Default for MoveMemo {
    /// An empty memo keeping the moves whose search visited at least
    /// [`MoveMemo::MIN_NODES`] nodes.
    fn default() -> Self {
        Self::with_min_nodes(Self::MIN_NODES)
    }
}

impl MoveMemo {
    /// The fewest nodes a move's search visits for the default memo to keep
    /// it (about 10 ms of search).
    pub const MIN_NODES: u64 = 100_000;
    /// The most moves a memo keeps (about 32 MiB); later ones are not
    /// kept.
    pub const CAPACITY: usize = 1 << 20;

    /// An empty memo keeping the moves whose search visited at least
    /// `min_nodes` nodes.
    pub fn with_min_nodes(min_nodes: u64) -> Self {
        MoveMemo { moves: Arc::default(), min_nodes }
    }

    /// The moves it holds.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether it holds no move.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MemoKey, Column>> {
        // A player that panicked while holding the lock left the map
        // consistent (each operation is a single get or insert).
        self.moves.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn key(state: &Connect4) -> MemoKey {
        (state.width() as u8, state.height() as u8, state.key())
    }

    fn get(&self, state: &Connect4) -> Option<Column> {
        self.lock().get(&Self::key(state)).copied()
    }

    fn remember(&self, state: &Connect4, best: &super::BestMove) {
        if best.nodes >= self.min_nodes {
            let mut moves = self.lock();
            if moves.len() < Self::CAPACITY {
                moves.insert(Self::key(state), best.column);
            }
        }
    }
}

impl PerfectPlayer {
    /// A perfect player of `width × height` connect-4 with a table of
    /// `table_mib` MiB.
    ///
    /// Errors: as [`Solver::with_table_mib`].
    pub fn new(width: usize, height: usize, table_mib: usize) -> Result<Self, ParamError> {
        Ok(PerfectPlayer { solver: Solver::with_table_mib(width, height, table_mib)?, table_mib, memo: None })
    }

    /// The same player, remembering its costly moves in `memo` and playing
    /// those that other players sharing it remembered.
    #[must_use]
    pub fn with_memo(mut self, memo: MoveMemo) -> Self {
        self.memo = Some(memo);
        self
    }

    /// [`Solver::best_move`] on `state`, with a solver of its board size.
    fn best_move(&mut self, state: &Connect4) -> Result<super::BestMove, GameError> {
        if (state.width(), state.height()) != (self.solver.width(), self.solver.height()) {
            self.solver = Solver::with_table_mib(state.width(), state.height(), self.table_mib)?;
        }
        self.solver.best_move(state)
    }

    /// The solver it plays with (to give it a book, for instance; a
    /// position of another board size replaces the solver, book included).
    pub fn solver_mut(&mut self) -> &mut Solver {
        &mut self.solver
    }
}

impl Agent<Connect4> for PerfectPlayer {
    fn name(&self) -> String {
        "solver".into()
    }

    fn choose(&mut self, state: &Connect4, _rng: &mut dyn RngCore) -> Result<Column, GameError> {
        if let Some(column) = self.memo.as_ref().and_then(|m| m.get(state)) {
            return Ok(column);
        }
        let best = self.best_move(state)?;
        if let Some(memo) = &self.memo {
            memo.remember(state, &best);
        }
        Ok(best.column)
    }

    fn choose_explained(&mut self, state: &Connect4, _rng: &mut dyn RngCore) -> Result<Choice<Column>, GameError> {
        let start = Instant::now();
        let best = self.best_move(state)?;
        let mut stats = Stats::default();
        stats.nodes = best.nodes;
        stats.depth = (state.width() * state.height()) as u32 - state.moves_played();
        stats.micros = start.elapsed().as_micros() as u64;
        let thought = Thought {
            distribution: vec![(best.column, 1.0)],
            scores: Vec::new(),
            value: Some(f64::from(best.score)),
            pv: vec![best.column],
            stats,
        };
        Ok(Choice { mv: best.column, thought: Some(thought) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::Game;

    /// Every move of a game between two perfect players keeps the score,
    /// checked by solving each child exactly; and the game ends as the
    /// score of its start says (on a small board, solved quickly).
    #[test]
    fn perfect_play_keeps_the_exact_score() {
        let mut player = PerfectPlayer::new(5, 4, 4).unwrap();
        let mut judge = Solver::with_table_mib(5, 4, 4).unwrap();
        for opening in ["", "1", "3", "23", "5512"] {
            let mut pos = Connect4::from_moves(5, 4, opening).unwrap();
            let start = judge.solve(&pos).unwrap().score;
            let mut sign = 1;
            while pos.winner().is_none() && !pos.is_full() {
                let want = judge.solve(&pos).unwrap().score;
                assert_eq!(want * sign, start, "{opening}: the score changed");
                let col = player.choose(&pos, &mut search_core::rng::seeded(0)).unwrap();
                let mut child = pos;
                child.play(col);
                let got = if child.winner().is_some() || child.is_full() {
                    crate::solver::SolverView::new(child).score_bounds().0
                } else {
                    judge.solve(&child).unwrap().score
                };
                assert_eq!(-got, want, "{opening}: column {col} does not keep the score at {pos:?}");
                pos = child;
                sign = -sign;
            }
            let result = match pos.winner() {
                None => 0,
                Some(p) if p == Connect4::from_moves(5, 4, opening).unwrap().to_move() => 1,
                Some(_) => -1,
            };
            assert_eq!(result, start.signum(), "{opening}: the game did not end as solved");
        }
    }

    /// Players sharing a memo that keeps every move play as a player
    /// without one, in every position of games between them; the memo
    /// holds each position once, its perfect move.
    #[test]
    fn a_shared_memo_changes_no_move() {
        let memo = MoveMemo::with_min_nodes(0);
        let mut plain = PerfectPlayer::new(5, 4, 1).unwrap();
        let mut rng = search_core::rng::seeded(3);
        let mut positions = std::collections::HashSet::new();
        for opening in ["", "3", "22", "15", "3"] {
            // Two fresh players a game: only the memo carries over.
            let mut players = [0, 1].map(|_| PerfectPlayer::new(5, 4, 1).unwrap().with_memo(memo.clone()));
            let mut pos = Connect4::from_moves(5, 4, opening).unwrap();
            let mut turn = 0;
            while pos.winner().is_none() && !pos.is_full() {
                let col = players[turn].choose(&pos, &mut rng).unwrap();
                assert_eq!(col, plain.choose(&pos, &mut rng).unwrap(), "{opening}: {pos:?}");
                positions.insert(pos.key());
                pos.play(col);
                turn = 1 - turn;
            }
        }
        // The opening "3" twice: its positions are remembered once.
        assert_eq!(memo.len(), positions.len());
        // The default keeps costly moves only: 5 × 4 has none.
        let cheap = MoveMemo::default();
        let mut player = PerfectPlayer::new(5, 4, 1).unwrap().with_memo(cheap.clone());
        player.choose(&Connect4::new(5, 4).unwrap(), &mut rng).unwrap();
        assert!(cheap.is_empty());
    }

    #[test]
    fn a_finished_game_is_an_error_and_another_board_is_played() {
        let mut player = PerfectPlayer::new(5, 4, 1).unwrap();
        let over = Connect4::from_moves(5, 4, "1212121").unwrap();
        assert!(matches!(player.choose(&over, &mut search_core::rng::seeded(0)), Err(GameError::GameOver)));
        // 4 × 4, the first player's three in the bottom row: the second
        // player blocks at its end (index 3).
        let small = Connect4::from_moves(4, 4, "11223").unwrap();
        let mut rng = search_core::rng::seeded(0);
        assert_eq!(player.choose(&small, &mut rng).unwrap(), 3);
        // Back on 5 × 4: it blocks the vertical three (index 0).
        let back = Connect4::from_moves(5, 4, "12121").unwrap();
        assert_eq!(player.choose(&back, &mut rng).unwrap(), 0);
    }
}
