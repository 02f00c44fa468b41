//! Monte Carlo tree search as a player.

use rand::RngCore;

use crate::agent::{Agent, Choice, Thought};
use crate::error::GameError;
use crate::eval::Evaluator;
use crate::game::{Game, Turn};
use crate::mcts::{FinalMove, Mcts, MctsBackup};
use crate::search::Limits;

/// Plays the move of a [`Mcts`] search within fixed limits. Each move's
/// search is seeded from the agent's RNG (so a match is a pure function of
/// its seed), and the tree is kept between moves (if
/// [`reuse`](crate::mcts::MctsConfig::reuse) is on): the next search
/// re-roots it on the position it is given.
///
/// ```
/// use search_core::{Agent, arena::play_match, RandomAgent, OutcomeOnly};
/// use search_core::mcts::{Mcts, MctsAgent, MctsConfig, Mean};
/// use search_core::search::Limits;
/// use search_core::tree::LiteralTree;
///
/// let t: LiteralTree = "max(min(1, 5), min(4, 6))".parse()?;
/// let mcts = Mcts::new(Mean, OutcomeOnly::default(), MctsConfig::default().with_value_scale(5.0)?)?;
/// let mut player = MctsAgent::new(mcts, Limits::iterations(200));
/// let record = play_match(&t, &mut player, &mut RandomAgent, 1, None)?;
/// assert_eq!(record.moves[0], 1); // max picks the right min node (worth 4)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MctsAgent<G: Game, B, E> {
    mcts: Mcts<G, B, E>,
    limits: Limits,
    name: Option<String>,
}

impl<G: Game, B, E> MctsAgent<G, B, E> {
    /// An agent that searches within `limits`.
    pub fn new(mcts: Mcts<G, B, E>, limits: Limits) -> Self {
        MctsAgent { mcts, limits, name: None }
    }

    /// Sets the name used in reports.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The search.
    pub fn search(&mut self) -> &mut Mcts<G, B, E> {
        &mut self.mcts
    }
}

impl<G, B, E> Agent<G> for MctsAgent<G, B, E>
where
    G: Game + Sync,
    G::Move: Send,
    B: MctsBackup + Sync,
    E: Evaluator<G> + Sync,
{
    fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| format!("mcts {}", self.mcts.backup().name()))
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        if state.turn() == Turn::Chance {
            return Err(GameError::ChanceNode);
        }
        self.mcts.reseed(rng.next_u64());
        let result = self.mcts.run(state, &self.limits)?;
        result.best.ok_or(GameError::GameOver)
    }

    /// The thought's distribution is the soft policy the move was sampled
    /// from when the final move is [sampled](FinalMove::Sample), else the
    /// chosen move with probability one; the scores are the root moves'
    /// backed-up values (in `[-1, 1]` for the mover).
    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        if state.turn() == Turn::Chance {
            return Err(GameError::ChanceNode);
        }
        self.mcts.reseed(rng.next_u64());
        let result = self.mcts.run(state, &self.limits)?;
        let mv = result.best.ok_or(GameError::GameOver)?;
        let distribution = match self.mcts.config().final_move {
            FinalMove::Sample => result.root_moves.iter().map(|m| (m.mv, m.policy)).collect(),
            _ => vec![(mv, 1.0)],
        };
        let thought = Thought {
            distribution,
            scores: result.root_moves.iter().map(|m| (m.mv, m.value)).collect(),
            value: Some(result.value),
            pv: result.pv,
            stats: result.stats,
        };
        Ok(Choice { mv, thought: Some(thought) })
    }

    fn reset(&mut self) {
        self.mcts.clear();
    }
}
