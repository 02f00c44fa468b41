//! Agents: anything that picks a move in a state, given an explicit RNG.
//!
//! Deterministic search players and stochastic opponent models implement the
//! same trait, so the [match runner](crate::arena) can play any against any.

use rand::{Rng as _, RngCore};

use crate::error::GameError;
use crate::game::{Game, Status, Turn};

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

    /// Forgets everything learnt during a game (transposition tables, move
    /// history), before a new game starts. The default does nothing.
    fn reset(&mut self) {}
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        (**self).choose(state, rng)
    }
    fn reset(&mut self) {
        (**self).reset()
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
}
