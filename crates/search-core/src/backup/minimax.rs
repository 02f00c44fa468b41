//! Minimax in negamax form, with expectation at chance nodes
//! (expectiminimax).

use crate::backup::{Backup, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::game::Turn;

/// The minimax backup in negamax form: a player node is worth the maximum of
/// its children's values, each from the mover's point of view; a chance node
/// is worth the probability-weighted mean (expectiminimax).
///
/// Every pruning technique is sound for it ([`Pruning::Negamax`]).
///
/// ```
/// use search_core::backup::Minimax;
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralTree, LiteralEval};
/// let t: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), chance(0.5: 2, 0.5: 6))".parse()?;
/// let r = Search::new(Minimax, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
/// assert_eq!(r.value, Some(4.0));
/// assert_eq!(r.best_moves, vec![2]);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Minimax;

impl Backup for Minimax {
    type Value = f64;
    type Acc = f64;

    const PRUNING: Pruning = Pruning::Negamax;
    const IS_MINIMAX: bool = true;

    #[inline]
    fn leaf(&self, _node: &NodeInfo, leaf: Leaf) -> f64 {
        leaf.value()
    }

    #[inline]
    fn open(&self, node: &NodeInfo) -> f64 {
        match node.turn {
            Turn::Chance => 0.0,
            Turn::Player(_) => f64::NEG_INFINITY,
        }
    }

    #[inline]
    fn add(&self, node: &NodeInfo, acc: &mut f64, child: &ChildInfo, value: f64) {
        let v = child.to_parent(value);
        match node.turn {
            Turn::Chance => *acc += child.probability * v,
            // `acc.max(v)` as one comparison: `acc` starts at −∞ and never
            // becomes NaN, so a NaN `v` is skipped here as `max` skips it.
            Turn::Player(_) => {
                if v > *acc {
                    *acc = v;
                }
            }
        }
    }

    #[inline]
    fn close(&self, _node: &NodeInfo, acc: f64) -> f64 {
        acc
    }

    fn name(&self) -> String {
        "minimax".into()
    }
}
