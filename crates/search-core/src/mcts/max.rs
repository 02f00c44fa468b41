//! The max (Bellman) backup.

use crate::mcts::backup::{ChildStats, MctsBackup, NodeKind, NodeStats, chance_expectation};

/// The best visited child's value at decision nodes and the probability-
/// weighted mean of the visited children at chance nodes (a Bellman
/// backup, as in MaxUCT and in Boltzmann tree search, BTS); a node none of
/// whose children has been visited yet is worth its mean return.
///
/// It converges to the minimax value faster than the mean when the
/// best child is found early, but the max of noisy estimates is biased:
/// with random playouts, a child valued by a handful of simulations can
/// look best (or worst) by luck. [`with_min_visits`](MaxBackup::with_min_visits)
/// lets only children with at least `k` visits count (the node's mean
/// stands in until one has); the default, 1, is the pure max.
///
/// ```
/// use search_core::mcts::{ChildStats, MaxBackup, MctsBackup, NodeKind, NodeStats};
/// let node = NodeStats { kind: NodeKind::Decision, visits: 3, mean: 0.0 };
/// let kids = [ChildStats { visits: 1, value: -0.5, probability: 1.0 },
///             ChildStats { visits: 1, value: 0.5, probability: 1.0 },
///             ChildStats { visits: 0, value: 0.0, probability: 1.0 }];
/// assert_eq!(MaxBackup::PURE.value(&node, &kids), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxBackup {
    min_visits: u64,
}

impl Default for MaxBackup {
    fn default() -> Self {
        MaxBackup::PURE
    }
}

impl MaxBackup {
    /// The pure max: every visited child counts.
    pub const PURE: MaxBackup = MaxBackup { min_visits: 1 };

    /// Only children with at least `k` visits (≥ 1) count.
    ///
    /// ```
    /// use search_core::mcts::{ChildStats, MaxBackup, MctsBackup, NodeKind, NodeStats};
    /// let node = NodeStats { kind: NodeKind::Decision, visits: 12, mean: 0.1 };
    /// let kids = [ChildStats { visits: 1, value: 1.0, probability: 1.0 },
    ///             ChildStats { visits: 10, value: 0.2, probability: 1.0 }];
    /// assert_eq!(MaxBackup::PURE.value(&node, &kids), 1.0);
    /// assert_eq!(MaxBackup::with_min_visits(5)?.value(&node, &kids), 0.2);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_min_visits(k: u64) -> Result<Self, crate::ParamError> {
        if k == 0 {
            return Err(crate::ParamError::new("min_visits", "must be >= 1"));
        }
        Ok(MaxBackup { min_visits: k })
    }

    /// The visits a child needs to count.
    pub fn min_visits(&self) -> u64 {
        self.min_visits
    }
}

impl MctsBackup for MaxBackup {
    fn name(&self) -> String {
        if self.min_visits == 1 { "max".into() } else { format!("max k={}", self.min_visits) }
    }

    fn value(&self, node: &NodeStats, children: &[ChildStats]) -> f64 {
        match node.kind {
            NodeKind::Chance => chance_expectation(children).unwrap_or(node.mean),
            NodeKind::Decision => {
                let best = children
                    .iter()
                    .filter(|c| c.visits >= self.min_visits)
                    .map(|c| c.value)
                    .fold(f64::NEG_INFINITY, f64::max);
                if best == f64::NEG_INFINITY { node.mean } else { best }
            }
        }
    }
}
