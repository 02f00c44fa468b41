//! Test trees that ship with the library: textbook trees written as literals
//! and seeded random trees, for testing search drivers and backup rules.

mod literal;
mod random;

pub use literal::{LiteralEval, LiteralTree, NodeKind};
pub use random::{ChanceWeights, LeafModel, RandomTree, RandomTreeEval};
