//! Whole-tree policies: the exact entropy and expected cost of the paths a
//! randomized player follows, by one bottom-up recursion on the search core.
//!
//! A [`TreePolicy`] says how the AI player (the root mover) chooses at each
//! of its nodes; the opponent always plays the child of largest cost-to-go
//! (rational, as in the Rminimax paper) and nature follows the chance
//! probabilities. [`PathEval`] is a backup rule whose value carries, for the
//! subtree below a node, the cost-to-go `V` the policy backs up, the path
//! entropy `H` and the expected path cost `E[C]`:
//!
//! ```text
//! AI node:       pᵢ = policy(c₁ + V₁, …, c_n + V_n)
//!                H  = Σ pᵢ (−ln pᵢ + Hᵢ)          E = Σ pᵢ (cᵢ + Eᵢ)
//! opponent node: j  = first child of largest cᵢ + Vᵢ
//!                H  = H_j                          E = c_j + E_j
//! chance node:   H  = Σ qᵢ Hᵢ                      E = Σ qᵢ (cᵢ + Eᵢ)
//! leaf:          H  = 0                            E = 0
//! ```
//!
//! so `H = Σ over AI nodes of P(reach)·(local entropy)` and
//! `E[C] = Σ_paths P(path)·C(path)`, in one pass, never enumerating paths.
//! Entropies are in nats. Only the AI player's choices carry entropy: the
//! opponent is deterministic (among exactly tied maxima it plays the first in
//! move order, so it adds none; values within [`TIE_TOLERANCE`] count as
//! tied; a different tie-break can change `E[C]`,
//! never `V`), and chance nodes add none (`H` is the entropy of the AI's
//! strategy given nature's draws; on trees without chance nodes it is the
//! Shannon entropy of the path distribution, the paper's eq. (1)).
//!
//! The recursion runs on the shared search core ([`crate::search`]) with
//! [`Options::full_width`]; the arc costs and roles are the ones of
//! [`Rminimax`](crate::backup::rminimax::Rminimax), from the same code.

use std::cell::Cell;

use smallvec::SmallVec;

use crate::backup::rminimax::{CostModel, Role, check_theta, checked, leaf_cost, score_of, soft_min};
use crate::backup::{Backup, BackupValue, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::policy::distribution::{EpsilonGreedy, Greedy, MoveDistribution, Softmax};
use crate::search::{Limits, Options, Search};

/// Two opponent costs-to-go closer than this (relative to their size, at
/// least 1) count as tied: the opponent then plays the first. Soft values
/// computed in different orders differ by rounding; this keeps the tie-break
/// independent of it.
pub const TIE_TOLERANCE: f64 = 1e-12;

/// How the AI player chooses at each of its nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TreePolicy {
    /// Rminimax: soft cost-to-go with inverse temperature θ, and the policy
    /// eq. (10), `p ∝ exp(−θ (c + V_soft))`: the optimal path distribution
    /// for its entropy.
    Rminimax {
        /// θ > 0 (+∞: minimax).
        theta: f64,
    },
    /// ε-greedy (the paper's footnote 2) over the minimax cost-to-go `c + V`
    /// under the same costs: the optimal moves share ε, the others `1 − ε`.
    EpsilonGreedy {
        /// Probability of the optimal moves, in `[0, 1]`.
        epsilon: f64,
    },
    /// Boltzmann exploration over the one-step backed-up minimax costs:
    /// `p ∝ exp(−θ (c + V_minimax))`. Local: it assumes optimal play below,
    /// where Rminimax accounts for its own future randomization.
    Boltzmann {
        /// θ > 0 (+∞: greedy).
        theta: f64,
    },
    /// Minimax: the optimal moves share the probability equally.
    Greedy,
}

impl TreePolicy {
    /// The soft θ of the backup, or `None` for the minimax backup.
    fn soft_theta(self) -> Option<f64> {
        match self {
            TreePolicy::Rminimax { theta } if theta != f64::INFINITY => Some(theta),
            _ => None,
        }
    }

    fn local(self) -> Result<Local, ParamError> {
        Ok(match self {
            TreePolicy::Rminimax { theta } | TreePolicy::Boltzmann { theta } => {
                Local::Softmax(Softmax::new(check_theta(theta)?)?)
            }
            TreePolicy::EpsilonGreedy { epsilon } => Local::Epsilon(EpsilonGreedy::new(epsilon)?),
            TreePolicy::Greedy => Local::Greedy(Greedy),
        })
    }
}

#[derive(Debug, Clone, Copy)]
enum Local {
    Softmax(Softmax),
    Epsilon(EpsilonGreedy),
    Greedy(Greedy),
}

impl Local {
    fn dist(&self) -> &dyn MoveDistribution {
        match self {
            Local::Softmax(d) => d,
            Local::Epsilon(d) => d,
            Local::Greedy(d) => d,
        }
    }
}

/// A node's value under [`PathEval`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathValue {
    /// The cost-to-go the policy backs up (soft for Rminimax, minimax
    /// otherwise), AI player's cost. NaN if a cost below was invalid.
    pub cost_to_go: f64,
    /// The entropy (nats) of the AI's choices in the subtree.
    pub entropy: f64,
    /// The expected cost of the path from this node to the end.
    pub expected_cost: f64,
    /// The cost of the arc into this node.
    pub arc: f64,
    /// True if this node's point of view is the AI player's.
    pub ai_view: bool,
}

/// One child as [`PathEval`] accumulates it.
#[derive(Debug, Clone, Copy)]
pub struct PathChild {
    total: f64,
    entropy: f64,
    cost: f64,
    prob: f64,
}

/// The backup rule behind [`PathAnalysis`]: a [`TreePolicy`] evaluated over
/// the whole tree. See the [module documentation](crate::policy).
///
/// The search core reports only the root's scalar value; the rule keeps the
/// root's full [`PathValue`] for [`root_value`](PathEval::root_value).
#[derive(Debug, Clone)]
pub struct PathEval<C> {
    local: Local,
    soft: Option<f64>,
    costs: C,
    root: Cell<Option<PathValue>>,
}

impl<C: CostModel> PathEval<C> {
    /// The rule for `policy` with arc costs `costs`.
    ///
    /// Errors: an invalid θ or ε.
    pub fn new(policy: TreePolicy, costs: C) -> Result<Self, ParamError> {
        Ok(PathEval { local: policy.local()?, soft: policy.soft_theta(), costs, root: Cell::new(None) })
    }

    /// The full value of the root of the last search run with this rule.
    pub fn root_value(&self) -> Option<PathValue> {
        self.root.get()
    }
}

fn poisoned(arc: f64, ai_view: bool) -> PathValue {
    PathValue { cost_to_go: f64::NAN, entropy: f64::NAN, expected_cost: f64::NAN, arc, ai_view }
}

impl BackupValue for PathValue {
    #[inline]
    fn scalar(&self) -> f64 {
        if self.ai_view { -self.cost_to_go } else { self.cost_to_go }
    }
}

impl<C: CostModel> Backup for PathEval<C> {
    type Value = PathValue;
    type Acc = SmallVec<[PathChild; 8]>;

    const PRUNING: Pruning = Pruning::None;

    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> PathValue {
        let arc = leaf_cost(&self.costs, node, leaf);
        let ai_view = node.perspective == node.root_player;
        if arc.is_nan() {
            return poisoned(arc, ai_view);
        }
        PathValue { cost_to_go: 0.0, entropy: 0.0, expected_cost: 0.0, arc, ai_view }
    }

    fn open(&self, _node: &NodeInfo) -> Self::Acc {
        SmallVec::new()
    }

    fn add(&self, _node: &NodeInfo, acc: &mut Self::Acc, child: &ChildInfo, v: PathValue) {
        acc.push(PathChild {
            total: v.arc + v.cost_to_go,
            entropy: v.entropy,
            cost: v.arc + v.expected_cost,
            prob: child.probability,
        });
    }

    fn close(&self, node: &NodeInfo, acc: Self::Acc) -> PathValue {
        let arc = checked(self.costs.interior());
        let ai_view = node.perspective == node.root_player;
        if acc.iter().any(|c| c.total.is_nan() || c.cost.is_nan()) {
            if node.ply == 0 {
                self.root.set(None);
            }
            return poisoned(arc, ai_view);
        }
        let (cost_to_go, entropy, expected_cost) = match Role::of(node) {
            Role::Ai => {
                let totals: SmallVec<[f64; 8]> = acc.iter().map(|c| c.total).collect();
                let scores: SmallVec<[f64; 8]> = totals.iter().map(|t| -t).collect();
                let mut p = Vec::with_capacity(acc.len());
                if self.local.dist().distribution(&scores, &mut p).is_err() {
                    if node.ply == 0 {
                        self.root.set(None);
                    }
                    return poisoned(arc, ai_view);
                }
                let v = match self.soft {
                    Some(theta) => soft_min(&totals, theta),
                    None => totals.iter().copied().fold(f64::INFINITY, f64::min),
                };
                let (mut h, mut e) = (0.0, 0.0);
                for (c, &pi) in acc.iter().zip(&p) {
                    if pi > 0.0 {
                        h += pi * (c.entropy - pi.ln());
                        e += pi * c.cost;
                    }
                }
                (v, h, e)
            }
            Role::Opponent => {
                let mut j = 0;
                for (i, c) in acc.iter().enumerate() {
                    if c.total > acc[j].total + TIE_TOLERANCE * acc[j].total.abs().max(1.0) {
                        j = i;
                    }
                }
                (acc[j].total, acc[j].entropy, acc[j].cost)
            }
            Role::Chance => acc.iter().fold((0.0, 0.0, 0.0), |(v, h, e), c| {
                (v + c.prob * c.total, h + c.prob * c.entropy, e + c.prob * c.cost)
            }),
        };
        let value = PathValue { cost_to_go, entropy, expected_cost, arc, ai_view };
        if node.ply == 0 {
            self.root.set(Some(value));
        }
        value
    }

    fn child_score(&self, node: &NodeInfo, _child: &ChildInfo, v: &PathValue) -> f64 {
        score_of(node, v.arc + v.cost_to_go)
    }

    fn name(&self) -> String {
        "path-eval".into()
    }
}

/// What a policy does over the whole tree, from the root.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathStats {
    /// The cost-to-go the policy backs up at the root (soft for Rminimax).
    pub cost_to_go: f64,
    /// The path entropy `H` (nats).
    pub entropy: f64,
    /// The expected path cost `E[C]`.
    pub expected_cost: f64,
}

/// The entropy and expected cost of policies on one game tree, and the
/// parameters that reach a target entropy ([`PathAnalysis::solve_exact`]).
///
/// The AI player is the player to move at `root`. The tree is searched to
/// the end, or to a depth limit ([`depth`](PathAnalysis::depth)) where the
/// cost model's horizon cost applies.
///
/// ```
/// use search_core::backup::rminimax::UtilityCosts;
/// use search_core::policy::{PathAnalysis, TreePolicy};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "min(1, max(3), 2)".parse()?;
/// let a = PathAnalysis::new(t, LiteralEval, UtilityCosts::default());
/// let s = a.stats(TreePolicy::EpsilonGreedy { epsilon: 0.5 })?;
/// // Costs 1 (optimal), 1 + 3 = 4, 2: probabilities 0.5, 0.25, 0.25.
/// assert!((s.expected_cost - (0.5 + 0.25 * 4.0 + 0.25 * 2.0)).abs() < 1e-12);
/// assert!((s.entropy - 1.5 * 2f64.ln()).abs() < 1e-12);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PathAnalysis<G, E, C> {
    root: G,
    eval: E,
    costs: C,
    limits: Limits,
}

impl<G: Game, E: Evaluator<G> + Clone, C: CostModel + Clone> PathAnalysis<G, E, C> {
    /// Policies played from `root`, valued by `eval` at the leaves, with arc
    /// costs `costs`; the whole tree (no depth limit).
    pub fn new(root: G, eval: E, costs: C) -> Self {
        PathAnalysis { root, eval, costs, limits: Limits::full_tree() }
    }

    /// Limits the tree to `depth` plies (horizon costs below).
    pub fn depth(mut self, depth: u32) -> Self {
        self.limits = Limits::depth(depth);
        self
    }

    /// The root state.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// `V`, `H` and `E[C]` of `policy`.
    ///
    /// Errors: an invalid θ or ε, a negative or non-finite arc cost
    /// (`"costs"`), a finished root, a zero depth.
    pub fn stats(&self, policy: TreePolicy) -> Result<PathStats, GameError> {
        let rule = PathEval::new(policy, self.costs.clone())?;
        let mut search = Search::new(rule, self.eval.clone(), Options::full_width())?;
        search.run(&self.root, &self.limits)?;
        let root = search.rule().root.get().filter(|v| !v.cost_to_go.is_nan() && !v.expected_cost.is_nan());
        let root = root.ok_or_else(crate::backup::rminimax::invalid_costs)?;
        Ok(PathStats { cost_to_go: root.cost_to_go, entropy: root.entropy, expected_cost: root.expected_cost })
    }

    /// The path entropy `H` (nats) of `policy` (see [`stats`](Self::stats)).
    pub fn entropy(&self, policy: TreePolicy) -> Result<f64, GameError> {
        Ok(self.stats(policy)?.entropy)
    }

    /// The expected path cost `E[C]` of `policy` (see [`stats`](Self::stats)).
    pub fn expected_cost(&self, policy: TreePolicy) -> Result<f64, GameError> {
        Ok(self.stats(policy)?.expected_cost)
    }
}
