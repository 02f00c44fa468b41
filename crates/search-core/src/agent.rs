//! Agents: anything that picks a move in a state, given an explicit RNG.
//!
//! Deterministic search players and stochastic opponent models implement the
//! same trait, so the [match runner](crate::arena) can play any against any.

use rand::{Rng as _, RngCore};

use crate::error::GameError;
use crate::game::{Game, Status, Turn};
use crate::search::Stats;

/// Picks moves. Implemented by search players (`search::SearchAgent`), by
/// policies that sample (Rminimax, ε-greedy) and by opponent models.
///
/// ```
/// use search_core::{Agent, RandomAgent, rng};
/// use search_core::tree::LiteralTree;
/// let t: LiteralTree = "max(1, 2, 3)".parse().unwrap();
/// let mut rng = rng::seeded(1);
/// let mv = RandomAgent.choose(&t, &mut rng).unwrap();
/// assert!(t.children().contains(&mv));
/// ```
pub trait Agent<G: Game> {
    /// A short name for reports ("alphabeta d4", "rminimax θ=0.5").
    fn name(&self) -> String;

    /// Picks a move for the player to move in `state` (a player node, not
    /// finished). All randomness must come from `rng`.
    ///
    /// Returns [`GameError::GameOver`] if the game is over and
    /// [`GameError::ChanceNode`] at a chance node.
    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError>;

    /// Like [`choose`](Agent::choose), and also says what the agent saw:
    /// the distribution it drew the move from, the root moves' scores, its
    /// value, principal variation and search counters (for a "what it
    /// thinks" display or a log). The same move as `choose` for the same
    /// state and RNG state.
    ///
    /// The default calls `choose` and reports no [`Thought`]; the library's
    /// search and policy agents report one.
    ///
    /// ```
    /// use search_core::{Agent, rng};
    /// use search_core::backup::Minimax;
    /// use search_core::search::{Limits, Search, SearchAgent};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    ///
    /// let t: LiteralTree = "max(min(1, 5), min(4, 6))".parse()?;
    /// let mut player = SearchAgent::new(Search::recommended(Minimax, LiteralEval)?, Limits::full_tree());
    /// let choice = player.choose_explained(&t, &mut rng::seeded(1))?;
    /// let thought = choice.thought.unwrap();
    /// assert_eq!(choice.mv, 1);
    /// assert_eq!(thought.value, Some(4.0));
    /// assert_eq!(thought.distribution, vec![(1, 1.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        self.choose(state, rng).map(|mv| Choice { mv, thought: None })
    }

    /// Forgets everything learnt during a game (transposition tables, move
    /// history), before a new game starts. The default does nothing.
    fn reset(&mut self) {}

    /// Tells the agent that the game it was playing has stopped, in
    /// `last`: finished, or cut off by a ply limit. An agent that learns
    /// from its opponent's moves (seen only through the states it is asked
    /// to move in) sees here the move that ended the game, which it is
    /// never asked to answer; leaving such moves out would bias what it
    /// learns (an opponent's winning moves would all go unseen).
    /// [`play_match`](crate::arena::play_match) calls it for both agents.
    /// The default does nothing.
    fn game_over(&mut self, last: &G) {
        let _ = last;
    }
}

/// A move with, when the agent reports it, what it saw
/// ([`Agent::choose_explained`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Choice<M> {
    /// The move played.
    pub mv: M,
    /// What the agent saw, if it says.
    pub thought: Option<Thought<M>>,
}

/// What an agent saw when it chose a move.
///
/// ```
/// use search_core::Thought;
/// use search_core::search::Stats;
/// let t = Thought { distribution: vec![(3u8, 1.0)], scores: vec![(3, 0.5)], value: Some(0.5), pv: vec![3], stats: Stats::default() };
/// assert_eq!(t.probability(&3), 1.0);
/// assert_eq!(t.probability(&4), 0.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Thought<M> {
    /// The moves the agent could have played with their probabilities (the
    /// distribution it sampled from; a deterministic player gives its move
    /// probability one, or its exactly tied best moves equal shares). Moves
    /// left out had probability zero.
    pub distribution: Vec<(M, f64)>,
    /// Every searched root move with its score (larger is better for the
    /// mover; in the search's units), in search order; empty if the agent
    /// does not search.
    pub scores: Vec<(M, f64)>,
    /// The root's value for the mover, if a search completed an iteration.
    pub value: Option<f64>,
    /// The principal variation, starting with the best move found.
    pub pv: Vec<M>,
    /// The search's counters (nodes, depth reached, time).
    pub stats: Stats,
}

impl<M: PartialEq> Thought<M> {
    /// The probability the agent gave `mv` (zero if absent).
    pub fn probability(&self, mv: &M) -> f64 {
        self.distribution.iter().filter(|(m, _)| m == mv).map(|(_, p)| p).sum()
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        (**self).choose(state, rng)
    }
    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        (**self).choose_explained(state, rng)
    }
    fn reset(&mut self) {
        (**self).reset()
    }
    fn game_over(&mut self, last: &G) {
        (**self).game_over(last)
    }
}

/// Plays a uniformly random legal move.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        if state.turn() == Turn::Chance {
            return Err(GameError::ChanceNode);
        }
        let mut moves = Vec::new();
        match state.generate(&mut moves) {
            Status::Over(_) => Err(GameError::GameOver),
            Status::Ongoing => Ok(moves[rng.random_range(0..moves.len())]),
        }
    }

    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        let mv = self.choose(state, rng)?;
        let mut moves = Vec::new();
        state.generate(&mut moves);
        let p = 1.0 / moves.len() as f64;
        let distribution = moves.into_iter().map(|m| (m, p)).collect();
        let thought =
            Thought { distribution, scores: Vec::new(), value: None, pv: Vec::new(), stats: Stats::default() };
        Ok(Choice { mv, thought: Some(thought) })
    }
}
