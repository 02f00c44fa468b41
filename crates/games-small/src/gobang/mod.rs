//! Gobang (five in a row) on boards up to 15 × 15, on bitboards.
//!
//! # Rules
//!
//! Players alternately put a stone on an empty point; the first to make five
//! in a row (horizontally, vertically or diagonally) wins. Under
//! [`FiveRule::Freestyle`] (the default) five *or more* wins; under
//! [`FiveRule::Exact`] only exactly five wins (an overline of six or more
//! does not). The game is drawn when the board is full.
//!
//! # Moves generated
//!
//! [`generate`] writes the *candidate* moves only: the empty
//! points within `radius` (Chebyshev distance, default 2) of a stone, in
//! index order. On the empty board it writes the centre alone
//! ([`Opening::Centre`], the default) or every point ([`Opening::Anywhere`]).
//! [`try_play`] accepts any empty point, as the rules do.
//!
//! [`generate`]: search_core::Game::generate
//! [`try_play`]: search_core::Game::try_play
//!
//! # Notation
//!
//! A point is written as its column letter and its row number: columns `a`,
//! `b`, … from the left (no letter is skipped: `i` is the ninth column), rows
//! `1`, `2`, … from the bottom. `h8` is the centre of the 15 × 15 board.
//!
//! # Representation
//!
//! One 256-bit set per player; point (`col`, `row`) is bit `row × 16 + col`
//! (a [`Point`]). Column 15 is never on the board, so it pads every row and
//! lines shifted by 1, 15, 16 or 17 bits never wrap from one row into another.
//! The hash is an incremental Zobrist hash with fixed keys.
//!
//! ```
//! use games_small::gobang::Gobang;
//! use search_core::{Game, Outcome, Player, Status};
//!
//! let g: Gobang = "h8 a1 i8 a2 j8 a3 k8 a4 l8".parse()?;
//! assert_eq!(g.status(), Status::Over(Outcome::Win(Player::First)));
//! assert_eq!(g.move_string(g.point(7, 7).unwrap()), "h8");
//! # Ok::<(), search_core::GameError>(())
//! ```

mod board;
mod eval;
mod threat;

pub use board::{FiveRule, Gobang, GobangOptions, MAX_SIZE, MIN_SIZE, Opening, Point};
pub use eval::{GobangEval, PatternCounts, PatternWeights};
pub use threat::{GobangThreatEval, Threats};
