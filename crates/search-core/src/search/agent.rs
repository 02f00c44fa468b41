//! A search as a player.

use rand::RngCore;

use crate::agent::Agent;
use crate::backup::Backup;
use crate::error::GameError;
use crate::eval::Evaluator;
use crate::game::Game;
use crate::search::Search;

/// Plays the best move of a [`Search`]; exact ties among the best moves are
/// broken uniformly at random with the agent's RNG (or by search order).
///
/// ```
/// use search_core::{Agent, arena::play_match, RandomAgent};
/// use search_core::backup::Minimax;
/// use search_core::search::{Options, Search, SearchAgent};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "max(min(1, 5), min(4, 6))".parse()?;
/// let mut player = SearchAgent::new(Search::new(Minimax, LiteralEval, Options::default()));
/// let record = play_match(&t, &mut player, &mut RandomAgent, 1, None)?;
/// assert_eq!(record.moves[0], 1); // max picks the right min node (worth 4)
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug)]
pub struct SearchAgent<G: Game, E: Evaluator<G>, R: Backup<G>> {
    search: Search<G, E, R>,
    random_ties: bool,
    name: Option<String>,
}

impl<G: Game, E: Evaluator<G>, R: Backup<G>> SearchAgent<G, E, R> {
    /// An agent that breaks ties at random.
    pub fn new(search: Search<G, E, R>) -> Self {
        SearchAgent { search, random_ties: true, name: None }
    }

    /// Breaks ties by search order (the first best move) instead.
    pub fn first_best(mut self) -> Self {
        self.random_ties = false;
        self
    }

    /// Sets the name used in reports.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The underlying search.
    pub fn search(&mut self) -> &mut Search<G, E, R> {
        &mut self.search
    }
}

impl<G: Game, E: Evaluator<G>, R: Backup<G>> Agent<G> for SearchAgent<G, E, R> {
    fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            let depth = self.search.current_limits().depth.map_or("full".into(), |d| format!("d{d}"));
            format!("{} {depth}", self.search.rule().name())
        })
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        let result = self.search.run(state)?;
        if self.random_ties && result.best_moves.len() > 1 {
            let i = rand::Rng::random_range(rng, 0..result.best_moves.len());
            return Ok(result.best_moves[i]);
        }
        result.best.ok_or(GameError::GameOver)
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}
