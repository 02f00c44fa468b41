//! The pluggable part of Monte Carlo tree search: how a node's value is
//! made from its own returns and its children's values.

use std::fmt;

/// What kind of node a backup combines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A player chooses among the children.
    Decision,
    /// Chance picks a child with its probability.
    Chance,
}

/// A node's own statistics, handed to [`MctsBackup::value`].
///
/// Values are on the MCTS scale, `[-1, 1]` (a loss −1, a draw 0, a win 1),
/// from the point of view of the player who acts at the node (at a chance
/// node: the first player).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeStats {
    /// Decision or chance.
    pub kind: NodeKind,
    /// Simulations that went through the node (this one included).
    pub visits: u64,
    /// The mean return of those simulations.
    pub mean: f64,
}

/// One child's statistics, handed to [`MctsBackup::value`] and
/// [`MctsBackup::soft_policy`], in the parent's point of view (see
/// [`NodeStats`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChildStats {
    /// Simulations through the child (0: never tried).
    pub visits: u64,
    /// The child's backed-up value (meaningless when `visits` is 0).
    pub value: f64,
    /// The child's probability at a chance node, 1 at a decision node.
    pub probability: f64,
}

/// How MCTS backs a simulation's return up the tree: the node's value from
/// its own returns and its children's values.
///
/// The tree code calls [`value`](MctsBackup::value) for every node on the
/// path of a simulation, leaf first, after adding the return to the node's
/// visit count and sum. Selection (UCB1 or Boltzmann sampling) reads the
/// values it returns. The rules shipped are [`Mean`](crate::mcts::Mean)
/// (UCT), [`MaxBackup`](crate::mcts::MaxBackup) and
/// [`Soft`](crate::mcts::Soft) (MENTS).
///
/// A new backup is one type; the tree code does not change. Here a backup
/// that mixes the mean and the max of the children, as in mix-max UCT:
///
/// ```
/// use search_core::mcts::{ChildStats, Mcts, MctsBackup, MctsConfig, NodeKind, NodeStats};
/// use search_core::search::Limits;
/// use search_core::OutcomeOnly;
/// use search_core::tree::LiteralTree;
///
/// /// `(1 − w)·mean + w·max` at decision nodes; the mean at chance nodes.
/// #[derive(Debug, Clone, Copy)]
/// struct MixMax { w: f64 }
///
/// impl MctsBackup for MixMax {
///     fn name(&self) -> String { format!("mixmax w={}", self.w) }
///     fn value(&self, node: &NodeStats, children: &[ChildStats]) -> f64 {
///         let max = children.iter().filter(|c| c.visits > 0).map(|c| c.value).fold(f64::NEG_INFINITY, f64::max);
///         if node.kind == NodeKind::Chance || max == f64::NEG_INFINITY {
///             return node.mean;
///         }
///         (1.0 - self.w) * node.mean + self.w * max
///     }
/// }
///
/// let t: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse()?;
/// let config = MctsConfig::default().with_value_scale(10.0)?;
/// let mut mcts = Mcts::new(MixMax { w: 0.5 }, OutcomeOnly::default(), config)?;
/// let r = mcts.run(&t, &Limits::iterations(2000))?;
/// assert_eq!(r.best, Some(0)); // the left min node (worth 3) is the best
/// # Ok::<(), search_core::GameError>(())
/// ```
pub trait MctsBackup: fmt::Debug {
    /// A short name for reports ("mean", "soft τ=0.1").
    fn name(&self) -> String;

    /// The node's value from its own statistics and its children's
    /// (empty when the node has no children yet, or when
    /// [`uses_children`](MctsBackup::uses_children) is false), on the
    /// `[-1, 1]` scale from the node's point of view.
    fn value(&self, node: &NodeStats, children: &[ChildStats]) -> f64;

    /// Whether [`value`](MctsBackup::value) reads the children (false for
    /// the mean, which saves building the slice on every backup). The
    /// default is true.
    fn uses_children(&self) -> bool {
        true
    }

    /// The rule's soft policy over the children of a decision node, written
    /// into `out` (cleared by the caller; one probability per child), for
    /// Boltzmann selection and a final move sampled from it. Returns false
    /// (the default) if the rule has none.
    fn soft_policy(&self, _children: &[ChildStats], _out: &mut Vec<f64>) -> bool {
        false
    }

    /// Whether [`soft_policy`](MctsBackup::soft_policy) gives a policy
    /// (checked when a search that needs one is built). The default is
    /// false.
    fn has_soft_policy(&self) -> bool {
        false
    }
}

impl<B: MctsBackup + ?Sized> MctsBackup for &B {
    fn name(&self) -> String {
        (**self).name()
    }
    fn value(&self, node: &NodeStats, children: &[ChildStats]) -> f64 {
        (**self).value(node, children)
    }
    fn uses_children(&self) -> bool {
        (**self).uses_children()
    }
    fn soft_policy(&self, children: &[ChildStats], out: &mut Vec<f64>) -> bool {
        (**self).soft_policy(children, out)
    }
    fn has_soft_policy(&self) -> bool {
        (**self).has_soft_policy()
    }
}

/// The probability-weighted mean of the visited children of a chance node
/// (renormalised over the visited ones), or `None` if none was visited.
///
/// ```
/// use search_core::mcts::{chance_expectation, ChildStats};
/// let c = |visits, value, probability| ChildStats { visits, value, probability };
/// assert_eq!(chance_expectation(&[c(1, 1.0, 0.25), c(0, 0.0, 0.5), c(2, -1.0, 0.25)]), Some(0.0));
/// assert_eq!(chance_expectation(&[c(0, 1.0, 1.0)]), None);
/// ```
pub fn chance_expectation(children: &[ChildStats]) -> Option<f64> {
    let (mut mass, mut sum) = (0.0, 0.0);
    for c in children.iter().filter(|c| c.visits > 0) {
        mass += c.probability;
        sum += c.probability * c.value;
    }
    (mass > 0.0).then(|| sum / mass)
}
