//! The perfect connect-4 player: [`PerfectPlayer`], the solver as an agent.

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
}

impl PerfectPlayer {
    /// A perfect player of `width × height` connect-4 with a table of
    /// `table_mib` MiB.
    ///
    /// Errors: as [`Solver::with_table_mib`].
    pub fn new(width: usize, height: usize, table_mib: usize) -> Result<Self, ParamError> {
        Ok(PerfectPlayer { solver: Solver::with_table_mib(width, height, table_mib)?, table_mib })
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
        Ok(self.best_move(state)?.column)
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
