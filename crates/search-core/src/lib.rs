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
//! A search is a rule, an evaluator and options, checked when built; the
//! limits come with each call:
//!
//! ```
//! use search_core::backup::Minimax;
//! use search_core::search::{Limits, Search};
//! use search_core::tree::{LiteralEval, LiteralTree};
//!
//! // Any `Game` works; here a textbook tree written as a literal.
//! let tree: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse()?;
//! // Alpha-beta with everything this rule, game and evaluator allow.
//! let mut search = Search::recommended(Minimax, LiteralEval)?;
//! let result = search.run(&tree, &Limits::full_tree())?;
//! assert_eq!(result.value, Some(3.0));
//! assert_eq!(result.best, Some(0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! See [docs/design.md](https://github.com/game-search/backup-rules/blob/main/docs/design.md) in the repository for the architecture (the API on
//! one page) and `docs/migration-0.2.md` for the changes since 0.1.

#![deny(missing_docs)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod agent;
pub mod arena;
pub mod backup;
mod error;
mod eval;
mod game;
pub mod mcts;
pub mod opponent;
pub mod policy;
pub mod rng;
pub mod search;
pub mod tree;
mod window;

pub use agent::{Agent, Choice, RandomAgent, Thought};
pub use error::{GameError, ParamError};
pub use eval::{Evaluator, MAX_PLY, OutcomeOnly, Perspective, WIN_SCORE};
pub use game::{Game, MoveDisplay, Outcome, Player, Status, Turn, perft};
pub use rng::{RngCore, RngExt};
