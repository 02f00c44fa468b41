//! Game-tree search with pluggable backup rules.
//!
//! `search-core` defines what a game is ([`Game`]), how a state is valued
//! ([`Evaluator`]), who plays ([`Agent`], [`arena`]), and the search drivers
//! and backup rules that run on any game. A crate that implements its own
//! game depends on this crate alone.
//!
//! ```
//! use search_core::{Game, Status};
//! use search_core::tree::LiteralTree;
//!
//! // A textbook tree: max to move, two min nodes below.
//! let root: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6))".parse()?;
//! let mut moves = Vec::new();
//! assert_eq!(root.generate(&mut moves), Status::Ongoing);
//! assert_eq!(moves.len(), 2);
//! # Ok::<(), search_core::GameError>(())
//! ```
//!
//! See `docs/design.md` in the repository for the architecture.

#![deny(missing_docs)]

pub mod agent;
pub mod arena;
pub mod backup;
mod error;
mod eval;
mod game;
pub mod opponent;
pub mod policy;
pub mod rng;
pub mod search;
pub mod tree;
mod window;

pub use agent::{Agent, RandomAgent};
pub use error::{GameError, ParamError};
pub use eval::{Evaluator, MAX_PLY, OutcomeOnly, Perspective, WIN_SCORE};
pub use game::{Game, MoveDisplay, Outcome, Player, Status, Turn, perft};
pub use rng::{RngCore, RngExt};
