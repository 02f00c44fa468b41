//! Small games for `search-core`: tic-tac-toe, connect-4 (any size) and
//! gobang, on bitboards, each with a heuristic evaluator.
//!
//! Every state is a small `Copy` value that searches copy and play on
//! (copy-make); move generation writes into the caller's buffer and never
//! allocates. Each game has a conventional move notation, parses positions
//! from move lists, prints its board with `Display`, keeps a 64-bit hash, and
//! reports bad input as a typed [`search_core::GameError`].
//!
//! ```
//! use games_small::connect4::{Connect4, Connect4Eval};
//! use search_core::{perft, Evaluator};
//!
//! let start = Connect4::standard();
//! assert_eq!(perft(&start, 4)?, 2401);
//! assert_eq!(Connect4Eval::default().evaluate(&start), 0.0);
//! # Ok::<(), search_core::ParamError>(())
//! ```

#![deny(missing_docs)]

mod bits;
mod board_text;
pub mod calibrations;
pub mod connect4;
pub mod gobang;
pub mod pig;
pub mod solver;
pub mod tictactoe;
mod zobrist;

pub use connect4::{Connect4, Connect4Eval, Connect4LinesEval};
pub use gobang::{Gobang, GobangEval, GobangThreatEval};
pub use tictactoe::{TicTacToe, TicTacToeEval};
