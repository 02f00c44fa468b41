//! The accumulator of rules that need every child's value at once (sorted
//! and bonus rules): the children's values from the node's point of view, and
//! their probability-weighted mean for chance nodes.

use smallvec::SmallVec;

use crate::backup::ChildInfo;

/// What rules that need every child's value at once ([`Predictive`],
/// [`MAndN`]) accumulate: the children's values from the node's point of
/// view (player nodes) or their expectation (chance nodes). Opaque.
///
/// [`Predictive`]: crate::backup::Predictive
/// [`MAndN`]: crate::backup::MAndN
#[derive(Debug, Clone, Default)]
pub struct Children {
    /// Every child's value (player nodes only), in search order until
    /// [`sort_descending`](Children::sort_descending).
    values: SmallVec<[f64; 8]>,
    /// The probability-weighted sum (the expectation at a chance node).
    mean: f64,
}

impl Children {
    /// Records a child's value `v` (from the child's point of view). At chance
    /// nodes only the weighted sum is kept.
    #[inline]
    pub(crate) fn add(&mut self, chance: bool, child: &ChildInfo, v: f64) {
        let x = child.to_parent(v);
        if chance {
            self.mean += child.probability * x;
        } else {
            self.values.push(x);
        }
    }

    /// The expectation of the values added at a chance node.
    #[inline]
    pub(crate) fn mean(&self) -> f64 {
        self.mean
    }

    /// The values, best (largest) first.
    #[inline]
    pub(crate) fn sort_descending(&mut self) -> &[f64] {
        self.values.sort_unstable_by(|a, b| b.total_cmp(a));
        &self.values
    }
}
