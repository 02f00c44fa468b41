//! A search as a player.

use rand::RngCore;

use crate::agent::{Agent, Choice, Thought};
use crate::error::GameError;
use crate::game::{Game, Turn};
use crate::search::{DynSearch, Limits, SearchResult};

/// Plays the best move of a search within fixed limits; exact ties among
/// the best moves are broken uniformly at random with the agent's RNG (or
/// by search order). Holds any [`DynSearch`]: a [`Search`](crate::search::Search)
/// or a boxed one chosen at run time.
///
/// ```
/// use search_core::{Agent, arena::play_match, RandomAgent};
/// use search_core::backup::Minimax;
/// use search_core::search::{Limits, Search, SearchAgent};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "max(min(1, 5), min(4, 6))".parse()?;
/// let mut player = SearchAgent::new(Search::recommended(Minimax, LiteralEval)?, Limits::full_tree());
/// let record = play_match(&t, &mut player, &mut RandomAgent, 1, None)?;
/// assert_eq!(record.moves[0], 1); // max picks the right min node (worth 4)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SearchAgent<S> {
    search: S,
    limits: Limits,
    random_ties: bool,
    name: Option<String>,
}

impl<S> SearchAgent<S> {
    /// An agent that searches within `limits` and breaks ties at random.
    pub fn new(search: S, limits: Limits) -> Self {
        SearchAgent { search, limits, random_ties: true, name: None }
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
    pub fn search(&mut self) -> &mut S {
        &mut self.search
    }

    /// The limits of each move's search.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Replaces the limits of later moves.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The search of `state` within the agent's limits.
    fn run<G: Game>(&mut self, state: &G) -> Result<SearchResult<G::Move>, GameError>
    where
        S: DynSearch<G>,
    {
        if state.turn() == Turn::Chance {
            return Err(GameError::ChanceNode);
        }
        self.search.run(state, &self.limits)
    }
}

/// The move a search agent plays from `result`: the best move, ties at
/// random if `random_ties`.
fn move_of<M: Copy>(result: &SearchResult<M>, random_ties: bool, rng: &mut dyn RngCore) -> Result<M, GameError> {
    let k = result.best_moves.len();
    if random_ties && k > 1 {
        Ok(result.best_moves[rand::Rng::random_range(rng, 0..k)])
    } else {
        result.best.ok_or(GameError::GameOver)
    }
}

/// [`move_of`] with the search's thought: shared by [`SearchAgent`] and
/// agents that sometimes play a plain search.
pub(crate) fn choice_of<M: Copy>(
    result: SearchResult<M>,
    random_ties: bool,
    rng: &mut dyn RngCore,
) -> Result<Choice<M>, GameError> {
    let mv = move_of(&result, random_ties, rng)?;
    let ties = if random_ties && result.best_moves.len() > 1 { result.best_moves.clone() } else { vec![mv] };
    let p = 1.0 / ties.len() as f64;
    let thought = Thought {
        distribution: ties.into_iter().map(|m| (m, p)).collect(),
        scores: result.root_moves.iter().map(|m| (m.mv, m.score)).collect(),
        value: result.value,
        pv: result.pv,
        stats: result.stats,
    };
    Ok(Choice { mv, thought: Some(thought) })
}

impl<G: Game, S: DynSearch<G>> Agent<G> for SearchAgent<S> {
    fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            let depth = self.limits.depth.map_or("full".into(), |d| format!("d{d}"));
            format!("{} {depth}", self.search.name())
        })
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        let result = self.run(state)?;
        move_of(&result, self.random_ties, rng)
    }

    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        let result = self.run(state)?;
        choice_of(result, self.random_ties, rng)
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}
