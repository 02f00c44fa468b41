//! A rule deepened to the depth limit whatever the transposition table
//! says (a workaround for the search core's early end of iterative
//! deepening).
//!
//! The core ends iterative deepening before the depth limit when an
//! iteration reached no horizon node: the tree ended first, so deeper
//! iterations would repeat it. But a table cut also reaches no horizon node
//! while hiding the ones below it. The engine keeps its table between moves,
//! so the first iterations of a search often cut on every child of the root
//! with the previous search's deeper entries, and deepening ended at depth 2
//! or 3 (`go depth 4` answered at depth 2). A rule whose leaf values depend
//! on the depth is always deepened to the limit; declaring it here restores
//! what the engine did when it ran each depth itself, and the engine's
//! observer still stops deepening on time, mates and forced moves.
//!
//! To be removed once the core counts a cut on a depth-limited table entry
//! as reaching the horizon.

use search_core::backup::{Affine, Backup, ChildInfo, Leaf, NodeInfo, Pruning};

/// Rule `R`, with [`LEAF_DEPENDS_ON_DEPTH`](Backup::LEAF_DEPENDS_ON_DEPTH)
/// set so that iterative deepening always runs to the depth limit;
/// everything else is `R`'s.
#[derive(Debug, Clone, Copy)]
pub(super) struct ToDepthLimit<R>(pub R);

impl<R: Backup> Backup for ToDepthLimit<R> {
    type Value = R::Value;
    type Acc = R::Acc;

    const PRUNING: Pruning = R::PRUNING;
    const NEEDS_STATIC: bool = R::NEEDS_STATIC;
    const LEAF_DEPENDS_ON_DEPTH: bool = true;

    #[inline]
    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> R::Value {
        self.0.leaf(node, leaf)
    }

    #[inline]
    fn open(&self, node: &NodeInfo) -> R::Acc {
        self.0.open(node)
    }

    #[inline]
    fn add(&self, node: &NodeInfo, acc: &mut R::Acc, child: &ChildInfo, value: R::Value) {
        self.0.add(node, acc, child, value);
    }

    #[inline]
    fn close(&self, node: &NodeInfo, acc: R::Acc) -> R::Value {
        self.0.close(node, acc)
    }

    #[inline]
    fn child_score(&self, node: &NodeInfo, child: &ChildInfo, value: &R::Value) -> f64 {
        self.0.child_score(node, child, value)
    }

    #[inline]
    fn affine(&self, node: &NodeInfo) -> Affine {
        self.0.affine(node)
    }

    fn name(&self) -> String {
        self.0.name()
    }
}
