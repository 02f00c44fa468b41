//! Rminimax (García Díez, Laforge and Saerens, IEEE Trans. SMC-B 43(1),
//! 2013): minimax randomized by the randomized-shortest-path (RSP) model.
//!
//! The AI player (the player to move at the search root) pays a
//! non-negative cost `c_kk'` on every arc ([`CostModel`]) and minimises the
//! expected cost of the whole path to the end of the game under an entropy
//! budget; the opponent maximises it. With `V_k = −(1/θ) ln z_k` (the soft
//! cost-to-go, [docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md)):
//!
//! ```text
//! V_k = 0                                                 k a leaf (its arc carries its cost)
//! V_k = −(1/θ) ln Σ_k' exp(−θ (c_kk' + V_k'))             AI player to move (soft minimum)
//! V_k = max_k' (c_kk' + V_k')                             opponent to move
//! V_k = Σ_k' p_k' (c_kk' + V_k')                          chance node (expectation)
//! p_kk' = exp(−θ (c_kk' + V_k' − V_k))                    the AI's policy, eq. (10)
//! ```
//!
//! θ = +∞ is minimax on the costs (exactly: [`SoftMin`] takes the minimum),
//! θ → 0 plays uniformly. The rule runs on the shared search core with
//! [`Pruning::None`]: every child contributes to the soft minimum, so no
//! alpha-beta bound can discard one (see [docs/backup-rules.md](https://github.com/game-search/backup-rules/blob/main/docs/backup-rules.md)). To sample
//! moves, use [`crate::policy::rminimax_agent`]; for the entropy and the
//! expected cost of the whole-tree policy, [`crate::policy::PathAnalysis`].
//!
//! ```
//! use search_core::backup::rminimax::{Rminimax, UtilityCosts};
//! use search_core::search::{Limits, Options, Search};
//! use search_core::tree::{LiteralEval, LiteralTree};
//!
//! // The AI is `min`: it minimises the printed utilities, used as costs.
//! let t: LiteralTree = "min(1, max(2, 5))".parse()?;
//! let rule = Rminimax::with_costs(0.5, UtilityCosts::default())?;
//! let r = Search::new(rule, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
//! // Costs to go: 1 and 1 + 5 = 6.
//! let v = -(((-0.5f64).exp() + (-3.0f64).exp()).ln()) / 0.5;
//! assert!((-r.value.unwrap() - v).abs() < 1e-12);
//! let p = rule.transition_probabilities(r.value.unwrap(), &r.scores())?;
//! assert!((p[0] - 1.0 / (1.0 + (-2.5f64).exp())).abs() < 1e-12);
//! # Ok::<(), search_core::GameError>(())
//! ```

mod costs;
mod softmin;

pub use costs::{CostModel, OutcomeCosts, UtilityCosts};
pub use softmin::{SoftMin, soft_min};

pub(crate) use costs::{checked, leaf_cost};

use crate::backup::{Backup, BackupValue, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::ParamError;
use crate::game::Turn;

/// Checks an inverse temperature: `θ > 0`, possibly `+∞` (minimax); NaN,
/// zero and negative values are errors.
///
/// ```
/// use search_core::backup::rminimax::check_theta;
/// assert!(check_theta(0.5).is_ok());
/// assert!(check_theta(f64::INFINITY).is_ok());
/// assert!(check_theta(0.0).is_err());
/// assert!(check_theta(f64::NAN).is_err());
/// ```
pub fn check_theta(theta: f64) -> Result<f64, ParamError> {
    // Subnormal temperatures are refused: 1/θ overflows and every soft
    // value would be ±∞ or NaN.
    if theta >= f64::MIN_POSITIVE {
        Ok(theta)
    } else {
        Err(ParamError::new("theta", format!("must be a normal number > 0 (or +inf), got {theta}")))
    }
}

/// Who decides at a node, for the asymmetric Rminimax model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The AI player (the root mover): randomized.
    Ai,
    /// The opponent: plays the maximum cost.
    Opponent,
    /// Nature.
    Chance,
}

impl Role {
    #[inline]
    pub(crate) fn of(node: &NodeInfo) -> Role {
        match node.turn {
            Turn::Chance => Role::Chance,
            Turn::Player(p) if p == node.root_player => Role::Ai,
            Turn::Player(_) => Role::Opponent,
        }
    }
}

/// How good a child is for the player deciding at `node`, given the cost
/// `total = c_kk' + V_k'` (for the AI player: `−total`; for the opponent,
/// who maximises the AI's cost: `total`). Chance nodes use their
/// perspective (the first player's).
#[inline]
pub(crate) fn score_of(node: &NodeInfo, total: f64) -> f64 {
    if node.perspective == node.root_player { -total } else { total }
}

/// The maximum of two costs, NaN if either is NaN.
#[inline]
pub(crate) fn max_or_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) }
}

/// The Rminimax backup rule. See the [module documentation](self).
///
/// The AI player is the player to move at the search root; the opponent is
/// assumed rational (hard maximum of the AI's cost). In play, each player
/// runs its own Rminimax with its own θ and costs (both randomized, as in the
/// paper's experiments): see [`crate::policy::rminimax_agent`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rminimax<C = OutcomeCosts> {
    theta: f64,
    costs: C,
}

impl Rminimax<OutcomeCosts> {
    /// Rminimax with inverse temperature `theta` and the section III costs
    /// ([`OutcomeCosts::default`]).
    ///
    /// Errors: `theta` is NaN or `≤ 0` (`+∞` is minimax and allowed).
    pub fn new(theta: f64) -> Result<Self, ParamError> {
        Self::with_costs(theta, OutcomeCosts::default())
    }
}

impl<C: CostModel> Rminimax<C> {
    /// Rminimax with inverse temperature `theta` and the cost model `costs`.
    ///
    /// Errors: `theta` is NaN or `≤ 0`.
    pub fn with_costs(theta: f64, costs: C) -> Result<Self, ParamError> {
        Ok(Rminimax { theta: check_theta(theta)?, costs })
    }

    /// The inverse temperature θ.
    pub fn theta(&self) -> f64 {
        self.theta
    }

    /// The cost model.
    pub fn costs(&self) -> &C {
        &self.costs
    }

    /// The AI's transition probabilities at a root whose value is
    /// `root_value` and whose moves have `scores` (a search with this rule,
    /// rooted at a player node: [`SearchResult::value`] and
    /// [`SearchResult::scores`]): eq. (10),
    /// `p_i = exp(−θ (c_i + V_i − V_root))` (not renormalised; they sum to
    /// one up to rounding). At θ = +∞ the optimal moves share the
    /// probability equally.
    ///
    /// [`SearchResult::value`]: crate::search::SearchResult::value
    /// [`SearchResult::scores`]: crate::search::SearchResult::scores
    ///
    /// Errors: a cost was negative or not finite (`"costs"`).
    pub fn transition_probabilities(&self, root_value: f64, scores: &[f64]) -> Result<Vec<f64>, ParamError> {
        // Root values are the AI's: value = −V_root, score_i = −(c_i + V_i).
        if root_value.is_nan() || scores.iter().any(|s| s.is_nan()) {
            return Err(invalid_costs());
        }
        if self.theta == f64::INFINITY {
            let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let n = scores.iter().filter(|&&s| s == best).count() as f64;
            return Ok(scores.iter().map(|&s| if s == best { 1.0 / n } else { 0.0 }).collect());
        }
        Ok(scores.iter().map(|&s| (self.theta * (s - root_value)).exp()).collect())
    }
}

/// The error for a cost model that produced a negative or non-finite cost.
pub(crate) fn invalid_costs() -> ParamError {
    ParamError::new("costs", "an arc cost is negative or not finite (the RSP model needs c >= 0)")
}

/// A node's Rminimax value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RminimaxValue {
    /// `V_k`, the soft cost-to-go below this node (AI player's cost: lower
    /// is better for the AI). NaN if a cost below was invalid.
    pub cost_to_go: f64,
    /// `c_kk'`, the cost of the arc into this node.
    pub arc: f64,
    /// True if this node's point of view is the AI player's.
    pub ai_view: bool,
}

impl RminimaxValue {
    /// `c_kk' + V_k'`: what the node costs its parent.
    #[inline]
    pub fn total(&self) -> f64 {
        self.arc + self.cost_to_go
    }
}

/// What [`Rminimax`] accumulates at a node.
#[derive(Debug, Clone, Copy)]
pub enum RminimaxAcc {
    /// The AI player's soft minimum.
    Soft(SoftMin),
    /// The opponent's maximum.
    Max(f64),
    /// A chance node's expectation.
    Mean(f64),
}

impl BackupValue for RminimaxValue {
    /// `−V_k` from the AI's point of view, `V_k` from the opponent's.
    #[inline]
    fn scalar(&self) -> f64 {
        if self.ai_view { -self.cost_to_go } else { self.cost_to_go }
    }
}

impl<C: CostModel> Backup for Rminimax<C> {
    type Value = RminimaxValue;
    type Acc = RminimaxAcc;

    /// [`Pruning::None`]: a soft minimum depends on every child.
    const PRUNING: Pruning = Pruning::None;

    #[inline]
    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> RminimaxValue {
        let arc = leaf_cost(&self.costs, node, leaf);
        let ai_view = node.perspective == node.root_player;
        RminimaxValue { cost_to_go: if arc.is_nan() { f64::NAN } else { 0.0 }, arc, ai_view }
    }

    #[inline]
    fn open(&self, node: &NodeInfo) -> RminimaxAcc {
        match Role::of(node) {
            Role::Ai => RminimaxAcc::Soft(SoftMin::new(self.theta)),
            Role::Opponent => RminimaxAcc::Max(f64::NEG_INFINITY),
            Role::Chance => RminimaxAcc::Mean(0.0),
        }
    }

    #[inline]
    fn add(&self, _node: &NodeInfo, acc: &mut RminimaxAcc, child: &ChildInfo, value: RminimaxValue) {
        let x = value.total();
        match acc {
            RminimaxAcc::Soft(s) => s.add(x),
            RminimaxAcc::Max(m) => *m = max_or_nan(*m, x),
            RminimaxAcc::Mean(m) => *m += child.probability * x,
        }
    }

    #[inline]
    fn close(&self, node: &NodeInfo, acc: RminimaxAcc) -> RminimaxValue {
        let cost_to_go = match acc {
            RminimaxAcc::Soft(s) => s.value(),
            RminimaxAcc::Max(m) | RminimaxAcc::Mean(m) => m,
        };
        let arc = checked(self.costs.interior());
        RminimaxValue { cost_to_go, arc, ai_view: node.perspective == node.root_player }
    }

    /// `−(c_kk' + V_k')` where the AI decides (higher is better for it);
    /// `c_kk' + V_k'` where the opponent does.
    #[inline]
    fn child_score(&self, node: &NodeInfo, _child: &ChildInfo, value: &RminimaxValue) -> f64 {
        score_of(node, value.total())
    }

    fn name(&self) -> String {
        format!("rminimax θ={}", self.theta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, Options, Search, SearchResult};
    use crate::tree::{LiteralEval, LiteralTree};

    fn run<C: CostModel>(tree: &str, rule: Rminimax<C>) -> SearchResult<u32, RminimaxValue> {
        let t: LiteralTree = tree.parse().unwrap();
        Search::new(rule, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap()
    }

    #[test]
    fn theta_is_validated() {
        for bad in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY, -0.0, 1e-310, 5e-324] {
            assert!(Rminimax::new(bad).is_err(), "{bad}");
        }
        assert!(Rminimax::new(f64::INFINITY).is_ok());
        assert!(Rminimax::new(1e-300).is_ok());
    }

    #[test]
    fn opponent_maximises_and_chance_averages() {
        // AI = max (first). Leaves: +1 win (cost 0), -1 loss (cost 2).
        let rule = Rminimax::new(f64::INFINITY).unwrap();
        let r = run("max(min(1, -1), min(1, 1), chance(0.25: -1, 0.75: 1))", rule);
        // min(1,-1): opponent picks the loss: 1 + 2 = 3; min(1,1): 1 + 0 = 1;
        // chance: 1 + 0.25·2 = 1.5.
        let scores: Vec<f64> = r.root_moves.iter().map(|m| m.score).collect();
        assert_eq!(scores, vec![-3.0, -1.0, -1.5]);
        assert_eq!(r.value, Some(-1.0));
        assert_eq!(r.best_moves, vec![1]);
    }

    #[test]
    fn negative_cost_poisons_and_is_reported() {
        let rule = Rminimax::with_costs(1.0, UtilityCosts::default()).unwrap();
        let r = run("min(1, max(-3, 2))", rule);
        assert!(r.value.unwrap().is_nan());
        assert_eq!(rule.transition_probabilities(r.value.unwrap(), &r.scores()).unwrap_err().name, "costs");
    }
}
