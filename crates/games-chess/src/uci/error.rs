//! Why a command was refused: the engine answers `info string error: …`
//! and carries on.

use std::fmt;

use search_core::GameError;

use super::command::ParseError;

/// Why a command was refused. The engine replies
/// `info string error: <this error>` and carries on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// The line is not a well-formed command.
    Parse(ParseError),
    /// The FEN of a `position` command is invalid.
    Fen(GameError),
    /// A move of a `position` command is malformed or illegal.
    Move {
        /// Its index in the move list (0 first).
        index: usize,
        /// The move as sent.
        mv: String,
        /// Why it was refused.
        error: GameError,
    },
    /// A `setoption` names an unknown option or gives an invalid value.
    Option {
        /// The option's name as sent.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The command cannot run while a search is going on.
    Busy(&'static str),
    /// An input line longer than the engine reads
    /// ([`MAX_LINE_BYTES`](super::MAX_LINE_BYTES)): skipped.
    LineTooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// Something went wrong inside the engine (a search thread could not
    /// start or died); the engine rebuilt its state.
    Internal(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Parse(e) => write!(f, "{e}"),
            UciError::Fen(e) => write!(f, "bad FEN, position unchanged: {e}"),
            UciError::Move { index, mv, error } => {
                write!(f, "move {} ({mv:?}) refused, position unchanged: {error}", index + 1)
            }
            UciError::Option { name, reason } => write!(f, "option {name:?}: {reason}"),
            UciError::Busy(what) => write!(f, "cannot {what} while searching (send stop first)"),
            UciError::LineTooLong { limit } => write!(f, "line longer than {limit} bytes skipped"),
            UciError::Internal(what) => write!(f, "internal: {what}"),
        }
    }
}

impl std::error::Error for UciError {}

impl From<ParseError> for UciError {
    fn from(e: ParseError) -> Self {
        UciError::Parse(e)
    }
}
