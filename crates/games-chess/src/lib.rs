//! Chess for `search-core`, on [`shakmaty`].
//!
//! * [`ChessGame`]: a position with its Zobrist key and repetition history,
//!   implementing [`search_core::Game`] (copy-make, one legal-move
//!   generation per node, the draw rules `shakmaty` leaves to the caller).
//! * [`Rules`]: which draw rules are in force ([`Rules::PERFT`] for perft).
//! * [`ChessEval`]: material and tapered piece-square tables, with
//!   captures and promotions as the noisy moves for quiescence.
//! * [`EngineEval`]: the UCI engine's full-strength evaluator (the
//!   strength dial and the human model keep [`ChessEval`]).
//! * [`see`]: static exchange evaluation, for the engine's move ordering
//!   and quiescence.
//!
//! ```
//! use games_chess::{ChessGame, Rules};
//! use search_core::perft;
//!
//! let g = ChessGame::startpos().with_rules(Rules::PERFT);
//! assert_eq!(perft(&g, 3)?, 8902);
//! # Ok::<(), search_core::ParamError>(())
//! ```

#![deny(missing_docs)]

pub mod engine_eval;
mod eval;
pub mod external;
mod game;
mod history;
pub mod human;
pub mod kibitz;
mod notation;
mod ordering;
pub mod pgn;
pub mod polyglot;
mod pst;
mod rules;
pub mod see;
pub mod tablebase;
pub mod uci;
mod zobrist;

pub use engine_eval::EngineEval;
pub use eval::ChessEval;
pub use external::{EngineLimit, ExternalError, UciEngineAgent};
pub use game::ChessGame;
pub use history::HISTORY_CAPACITY;
pub use rules::Rules;
pub use shakmaty;
