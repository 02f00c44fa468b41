//! The max (Bellman) backup.

use crate::mcts::backup::{ChildStats, MctsBackup, NodeKind, NodeStats, chance_expectation};

/// The best visited child's value at decision nodes and the probability-
/// weighted mean of the visited children at chance nodes (a Bellman
/// backup, as in MaxUCT and in Boltzmann tree search, BTS); a node none of
/// whose children has been visited yet is worth its mean return.
///
/// It converges to the minimax value faster than the mean when the
/// best child is found early, but is noisier with few visits.
///
/// ```
/// use search_core::mcts::{ChildStats, MaxBackup, MctsBackup, NodeKind, NodeStats};
/// let node = NodeStats { kind: NodeKind::Decision, visits: 3, mean: 0.0 };
/// let kids = [ChildStats { visits: 1, value: -0.5, probability: 1.0 },
///             ChildStats { visits: 1, value: 0.5, probability: 1.0 },
///             ChildStats { visits: 0, value: 0.0, probability: 1.0 }];
/// assert_eq!(MaxBackup.value(&node, &kids), 0.5);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MaxBackup;

impl MctsBackup for MaxBackup {
    fn name(&self) -> String {
        "max".into()
    }

    fn value(&self, node: &NodeStats, children: &[ChildStats]) -> f64 {
        match node.kind {
            NodeKind::Chance => chance_expectation(children).unwrap_or(node.mean),
            NodeKind::Decision => {
                let best = children.iter().filter(|c| c.visits > 0).map(|c| c.value).fold(f64::NEG_INFINITY, f64::max);
                if best == f64::NEG_INFINITY { node.mean } else { best }
            }
        }
    }
}
