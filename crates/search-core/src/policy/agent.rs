//! Policy agents: a search for root move scores, a distribution over them,
//! and a draw from the agent's RNG.

use rand::RngCore;

use crate::agent::{Agent, Choice, Thought};
use crate::backup::rminimax::{CostModel, Rminimax, invalid_costs};
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::{Game, Turn};
use crate::policy::distribution::{EpsilonGreedy, MoveDistribution, Softmax};
use crate::rng::sample_index;
use crate::search::{Bound, DynSearch, Limits, Options, Search, SearchResult};

/// Plays by sampling a [`MoveDistribution`] over the root move scores of a
/// search within fixed limits. All randomness comes from the RNG passed to
/// [`choose`](Agent::choose).
///
/// The scores must be exact: search full width ([`Options::full_width`]) or
/// with a rule that never prunes; a root move with only a bound is an error.
///
/// ```
/// use search_core::{Agent, rng};
/// use search_core::backup::rminimax::UtilityCosts;
/// use search_core::policy::rminimax_agent;
/// use search_core::search::Limits;
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "min(1, max(2), max(98, 99, 100))".parse()?;
/// let mut ai = rminimax_agent(1.0, UtilityCosts::default(), LiteralEval, Limits::full_tree())?;
/// let p = ai.distribution(&t)?;
/// assert!((p.iter().map(|m| m.1).sum::<f64>() - 1.0).abs() < 1e-12);
/// assert!(p[0].1 > p[1].1 && p[1].1 > p[2].1);
/// let mv = ai.choose(&t, &mut rng::seeded(7))?;
/// assert!(mv < 3);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug)]
pub struct PolicyAgent<S, D: MoveDistribution> {
    search: S,
    limits: Limits,
    dist: D,
    probs: Vec<f64>,
}

impl<S, D: MoveDistribution> PolicyAgent<S, D> {
    /// An agent sampling `dist` over the root scores of `search` within
    /// `limits`.
    pub fn new(search: S, limits: Limits, dist: D) -> Self {
        PolicyAgent { search, limits, dist, probs: Vec::new() }
    }

    /// The underlying search.
    pub fn search(&mut self) -> &mut S {
        &mut self.search
    }

    /// The distribution.
    pub fn dist(&self) -> &D {
        &self.dist
    }

    /// Every root move of `state` with its probability (summing to one).
    ///
    /// Errors: the game is over; a search error; NaN scores (an invalid
    /// arc cost); inexact (pruned) root scores.
    pub fn distribution<G: Game>(&mut self, state: &G) -> Result<Vec<(G::Move, f64)>, GameError>
    where
        S: DynSearch<G>,
    {
        self.fill(state).map(|result| result.root_moves.iter().map(|m| m.mv).zip(self.probs.iter().copied()).collect())
    }

    /// Searches `state` and fills `probs` with the root moves' probabilities.
    fn fill<G: Game>(&mut self, state: &G) -> Result<SearchResult<G::Move>, GameError>
    where
        S: DynSearch<G>,
    {
        if state.turn() == Turn::Chance {
            return Err(GameError::ChanceNode);
        }
        let result = self.search.run(state, &self.limits)?;
        if result.root_moves.iter().any(|m| m.score.is_nan()) {
            return Err(invalid_costs().into());
        }
        if result.root_moves.iter().any(|m| m.bound != Bound::Exact) || !result.complete {
            return Err(ParamError::new("options", "a policy needs exact root scores: search full width").into());
        }
        if result.root_moves.is_empty() {
            return Err(GameError::GameOver);
        }
        let scores: Vec<f64> = result.root_moves.iter().map(|m| m.score).collect();
        self.dist.distribution(&scores, &mut self.probs)?;
        Ok(result)
    }
}

impl<G: Game, S: DynSearch<G>, D: MoveDistribution> Agent<G> for PolicyAgent<S, D> {
    fn name(&self) -> String {
        format!("{} / {}", self.search.name(), self.dist.name())
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        let result = self.fill(state)?;
        Ok(result.root_moves[sample_index(&self.probs, rng)].mv)
    }

    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        let result = self.fill(state)?;
        let mv = result.root_moves[sample_index(&self.probs, rng)].mv;
        let thought = Thought {
            distribution: result.root_moves.iter().map(|m| m.mv).zip(self.probs.iter().copied()).collect(),
            scores: result.root_moves.iter().map(|m| (m.mv, m.score)).collect(),
            value: result.value,
            pv: result.pv,
            stats: result.stats,
        };
        Ok(Choice { mv, thought: Some(thought) })
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}

/// The Rminimax player: [`Rminimax`] with θ and `costs` (full width, within
/// `limits`), sampling eq. (10) (a [`Softmax`] with the same θ over the
/// root scores `−(c + V)`).
pub type RminimaxAgent<G, E, C> = PolicyAgent<Search<G, Rminimax<C>, E>, Softmax>;

/// The ε-greedy player of [`epsilon_greedy_agent`].
pub type EpsilonGreedyAgent<G, E, C> = PolicyAgent<Search<G, Rminimax<C>, E>, EpsilonGreedy>;

/// The Boltzmann player of [`boltzmann_agent`] (same type as an
/// [`RminimaxAgent`], at θ = +∞ in the search).
pub type BoltzmannAgent<G, E, C> = PolicyAgent<Search<G, Rminimax<C>, E>, Softmax>;

/// An [`RminimaxAgent`]. Each player of a match can have its own, with its
/// own θ (the paper's experiments randomize both players).
///
/// Errors: θ NaN, `≤ 0` or subnormal.
pub fn rminimax_agent<G, E, C>(
    theta: f64,
    costs: C,
    eval: E,
    limits: Limits,
) -> Result<RminimaxAgent<G, E, C>, ParamError>
where
    G: Game,
    E: Evaluator<G>,
    C: CostModel,
{
    let rule = Rminimax::with_costs(theta, costs)?;
    Ok(PolicyAgent::new(Search::new(rule, eval, Options::full_width())?, limits, Softmax::new(theta)?))
}

/// ε-greedy as in the paper's footnote 2 over the minimax cost-to-go under
/// `costs` (Rminimax at θ = +∞): the optimal moves share ε.
///
/// Errors: ε outside `[0, 1]`.
pub fn epsilon_greedy_agent<G, E, C>(
    epsilon: f64,
    costs: C,
    eval: E,
    limits: Limits,
) -> Result<EpsilonGreedyAgent<G, E, C>, ParamError>
where
    G: Game,
    E: Evaluator<G>,
    C: CostModel,
{
    let rule = Rminimax::with_costs(f64::INFINITY, costs)?;
    Ok(PolicyAgent::new(Search::new(rule, eval, Options::full_width())?, limits, EpsilonGreedy::new(epsilon)?))
}

/// Boltzmann exploration over the one-step backed-up minimax costs
/// (`p ∝ exp(−θ (c + V_minimax))`).
///
/// Errors: θ NaN, `≤ 0` or subnormal.
pub fn boltzmann_agent<G, E, C>(
    theta: f64,
    costs: C,
    eval: E,
    limits: Limits,
) -> Result<BoltzmannAgent<G, E, C>, ParamError>
where
    G: Game,
    E: Evaluator<G>,
    C: CostModel,
{
    let rule = Rminimax::with_costs(f64::INFINITY, costs)?;
    Ok(PolicyAgent::new(Search::new(rule, eval, Options::full_width())?, limits, Softmax::new(theta)?))
}
