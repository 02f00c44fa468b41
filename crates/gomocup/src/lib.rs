//! A Gomocup brain: gobang (five in a row) in engine tournaments.
//!
//! The [Gomocup](https://gomocup.org) and the Piskvork manager talk to a
//! *brain* over its standard input and output, one command a line. This
//! crate implements that protocol for `games-small`'s [`Gobang`], played by
//! `search-core`'s iterative-deepening alpha-beta with the gobang evaluator
//! under the time the manager gives, or by any agent of the `strength`
//! crate (`elo:1200`, `alphabeta:depth=4`, …). The binary
//! `pbrain-backup-rules` is [`brain::run`] over standard input and output.
//!
//! - [`protocol`]: the text of commands and replies, pure functions;
//! - [`brain`]: the state machine ([`Brain::handle`], one line in, reply
//!   lines out) and the loop over a reader and a writer;
//! - [`position`]: the board, its coordinates, and the checks of `BOARD`;
//! - [`clock`]: the time of each move;
//! - [`player`]: the thinking, on a worker thread with a deadline and a
//!   fallback move.
//!
//! The protocol, the rules played and the time management are described in
//! the workspace's `docs/gomocup.md`.
//!
//! ```
//! use gomocup::{Brain, BrainConfig};
//! let mut brain = Brain::new(BrainConfig { messages: false, ..BrainConfig::default() })?;
//! let mut out = Vec::new();
//! gomocup::brain::run(&mut brain, "START 15\nINFO timeout_turn 100\nTURN 7,7\nEND\n".as_bytes(), &mut out)?;
//! let text = String::from_utf8(out)?;
//! let mut lines = text.lines();
//! assert_eq!(lines.next(), Some("OK"));
//! let (x, y) = lines.next().unwrap().split_once(',').unwrap();
//! assert!(x.parse::<u32>()? < 15 && y.parse::<u32>()? < 15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Gobang`]: games_small::gobang::Gobang

#![deny(missing_docs)]

pub mod brain;
pub mod clock;
pub mod error;
pub mod player;
pub mod position;
pub mod protocol;

pub use brain::{Brain, BrainConfig, Response};
pub use error::BrainError;
pub use player::Strategy;
