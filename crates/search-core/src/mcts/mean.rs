//! The mean backup: plain UCT.

use crate::mcts::backup::{ChildStats, MctsBackup, NodeStats};

/// The mean of the returns through the node: UCT (Kocsis and Szepesvári,
/// 2006) with [UCB1](crate::mcts::Selection::Ucb1) selection. At chance
/// nodes, where outcomes are sampled by their probabilities, the mean is an
/// unbiased estimate of the expectation.
///
/// ```
/// use search_core::mcts::{Mean, MctsBackup, NodeKind, NodeStats};
/// let node = NodeStats { kind: NodeKind::Decision, visits: 4, mean: 0.25 };
/// assert_eq!(Mean.value(&node, &[]), 0.25);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mean;

impl MctsBackup for Mean {
    fn name(&self) -> String {
        "mean".into()
    }

    #[inline]
    fn value(&self, node: &NodeStats, _children: &[ChildStats]) -> f64 {
        node.mean
    }

    fn uses_children(&self) -> bool {
        false
    }
}
