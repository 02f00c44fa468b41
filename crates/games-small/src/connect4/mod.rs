//! Connect-4 on any board with `(height + 1) × width ≤ 64`, on bitboards.
//!
//! # Representation
//!
//! The standard "position + mask" bitboard: bit `col × (H + 1) + row` is the
//! cell in column `col` (0 = left) and row `row` (0 = bottom). Each column has
//! one spare *sentinel* bit above its top row, always empty, so that shifted
//! lines never wrap from one column into the next. `current` holds the discs
//! of the side to move, `mask` every disc. Alignments are found with four
//! shift-and-mask steps (one per direction: 1 vertical, `H + 1` horizontal,
//! `H` and `H + 2` diagonal).
//!
//! # Moves and notation
//!
//! A move is a column index `0..width` ([`Column`]). Its notation is the
//! 1-based column as one character: `1`–`9`, then `a`, `b`, … for columns
//! 10 and up on boards wider than nine. A game is a string of such characters
//! from the empty board: `"4453"`.
//!
//! # Hash
//!
//! [`hash_key`] is SplitMix64's bijective mixer applied to
//! the *perfect key* [`Connect4::key`] = `current + mask`, which is unique for
//! every position of a given board size (the disc count fixes the side to
//! move). So there are no collisions at all, and the hash is a pure function
//! of the position: it always equals the value computed from scratch.
//!
//! [`hash_key`]: search_core::Game::hash_key
//!
//! ```
//! use games_small::connect4::Connect4;
//! use search_core::{Game, Outcome, Player, Status};
//!
//! let g = Connect4::from_moves(7, 6, "4455667")?;
//! assert_eq!(g.status(), Status::Over(Outcome::Win(Player::First)));
//! let mut g = Connect4::standard();
//! g.play_str("4")?;
//! assert_eq!(g.moves_string().as_deref(), Some("4"));
//! # Ok::<(), search_core::GameError>(())
//! ```

mod board;
pub(crate) mod book;
mod eval;
mod threats;

pub use board::{Column, Connect4};
pub use book::{BOOK_MAGIC, BOOK_VERSION, Book, BookError};
pub use eval::{Connect4Eval, Connect4LinesEval};
