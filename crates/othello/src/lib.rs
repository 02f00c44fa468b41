//! Othello (Reversi) on a 6×6 board, for `search-core`.
//!
//! # Rules
//!
//! Two players, Black and White, place discs of their colour on the empty
//! squares of a 6×6 board. A placement must *bracket* at least one straight
//! line (along a rank, a file or a diagonal) of one or more opponent discs
//! between the new disc and another disc of the mover; every such line, in
//! all eight directions, is flipped to the mover's colour. A player with no
//! such placement must pass, which is legal only then; when neither player
//! can place a disc (in particular when the board is full) the game is over,
//! and the player with more discs wins (equal counts: a draw; empty squares
//! count for nobody).
//!
//! # Conventions
//!
//! * **Players.** Black moves first and is [`Player::First`]
//!   ([`BLACK`]); White is [`Player::Second`] ([`WHITE`]). A finished game's
//!   [`Outcome`](search_core::Outcome) is [`Win`](search_core::Outcome::Win)
//!   of the colour with more discs, or [`Draw`](search_core::Outcome::Draw).
//! * **Board.** Files `a`–`f` run left to right, ranks `1`–`6` top to bottom,
//!   as in Othello transcripts (rank 1 is the *top* row of
//!   [`Display`](std::fmt::Display)). Square `a1` is bit 0 of a bitboard,
//!   `f1` bit 5, `a2` bit 6, `f6` bit 35: bit `rank × 6 + file`
//!   ([`Square::index`]).
//! * **Start.** The 8×8 start scaled to the 6×6 centre: White on `c3` and
//!   `d4`, Black on `d3` and `c4`, Black to move. Black's first moves are
//!   `c2`, `b3`, `e4` and `d5`.
//! * **Moves.** A [`Move`] is a placement, written as its square (`c2`), or
//!   a pass, written `pass`. Parsing ignores case. A position is built from
//!   its move list ([`Othello::from_moves`], also [`str::parse`]), from a
//!   picture of the board ([`Othello::from_board`]) or from bitboards
//!   ([`Othello::from_discs`]).
//! * **Hash.** [`Othello::key`] mixes both bitboards and the side to move
//!   with SplitMix64; it is a pure function of the position, so positions
//!   reached by different move orders share it, and the same discs with the
//!   other side to move never do.
//! * **Evaluation.** [`OthelloEval`] values a position for the side to move:
//!   within ±100 for unfinished positions, ±(1000 + disc margin) for
//!   finished ones.
//!
//! # Example
//!
//! ```
//! use othello::{Othello, OthelloEval, BLACK};
//! use search_core::backup::Minimax;
//! use search_core::search::{Limits, Search};
//! use search_core::{perft, Game, Status};
//!
//! let start = Othello::new();
//! assert_eq!(perft(&start, 3)?, 56);
//!
//! let mut g = Othello::from_moves("c2 b2")?;
//! assert_eq!(g.to_move(), BLACK);
//! let mut search = Search::recommended(Minimax, OthelloEval)?;
//! let result = search.run(&g, &Limits::depth(4))?;
//! let best = result.best.expect("the game is not over");
//! g.try_play(best)?;
//! assert_eq!(g.status(), Status::Ongoing);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The state is a small `Copy` value: searches copy it and play on the copy;
//! generating moves writes into the caller's buffer and allocates nothing.
//!
//! # The strength dial
//!
//! [`dial`] calibrates and serves `elo:X` for this game through the
//! published `strength` and `tournament` crates alone: the proof that a
//! game the workspace does not ship gets the whole dial (the walk-through is
//! `docs/your-game.md` in the repository).

#![deny(missing_docs)]

mod bits;
mod board;
pub mod dial;
mod eval;
mod square;

use search_core::Player;

pub use board::Othello;
pub use eval::OthelloEval;
pub use square::{Move, Square};

/// Black: the player who moves first ([`Player::First`]).
///
/// ```
/// assert_eq!(othello::BLACK, search_core::Player::First);
/// ```
pub const BLACK: Player = Player::First;

/// White: the player who moves second ([`Player::Second`]).
///
/// ```
/// assert_eq!(othello::WHITE, othello::BLACK.opponent());
/// ```
pub const WHITE: Player = Player::Second;

/// The number of files (columns), `a` to `f`.
///
/// ```
/// assert_eq!(othello::FILES, 6);
/// ```
pub const FILES: usize = 6;

/// The number of ranks (rows), `1` to `6`.
///
/// ```
/// assert_eq!(othello::RANKS, 6);
/// ```
pub const RANKS: usize = 6;

/// The number of squares.
///
/// ```
/// assert_eq!(othello::SQUARES, othello::FILES * othello::RANKS);
/// ```
pub const SQUARES: usize = FILES * RANKS;

/// Every square of the board, as a bitboard (bits 0 to 35).
///
/// ```
/// assert_eq!(othello::FULL.count_ones(), 36);
/// ```
pub const FULL: u64 = (1 << SQUARES) - 1;
