//! The brain's errors: every one becomes an `ERROR …` (or `UNKNOWN …`)
//! line, and none stops the brain.

use games_small::gobang::{MAX_SIZE, MIN_SIZE};

/// What went wrong with a command. Its text (`Display`) is what follows
/// `ERROR` (or `UNKNOWN`) in the reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BrainError {
    /// A command word the brain does not implement (answered `UNKNOWN`).
    #[error("command {0} is not supported")]
    UnknownCommand(String),
    /// A line that is not a command at all.
    #[error("unreadable line {0:?}")]
    Unreadable(String),
    /// A known command with a missing or malformed argument.
    #[error("{command}: {reason}")]
    BadArgument {
        /// The command, upper case.
        command: &'static str,
        /// What is wrong with its argument.
        reason: String,
    },
    /// A move or board before `START`.
    #[error("no board: send START first")]
    NotStarted,
    /// A board size the brain cannot play.
    #[error("unsupported board size {width}x{height}: this brain plays square boards of {MIN_SIZE} to {MAX_SIZE}")]
    UnsupportedSize {
        /// Columns asked for.
        width: u64,
        /// Rows asked for.
        height: u64,
    },
    /// Coordinates outside the board.
    #[error("{x},{y} is off the {size}x{size} board")]
    OffBoard {
        /// Column (0-based).
        x: u64,
        /// Row (0-based, from the top).
        y: u64,
        /// Points per side.
        size: usize,
    },
    /// A move on an occupied point.
    #[error("{x},{y} is occupied")]
    Occupied {
        /// Column (0-based).
        x: usize,
        /// Row (0-based, from the top).
        y: usize,
    },
    /// A move, or a request to move, in a finished game.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// `BEGIN` on a board that already holds stones.
    #[error("BEGIN needs an empty board (send RESTART first)")]
    NotEmpty,
    /// A `BOARD` … `DONE` block that is malformed or not a legal position.
    #[error("BOARD: {0}")]
    InvalidBoard(String),
    /// `TAKEBACK` of anything but the last stone played.
    #[error("TAKEBACK {x},{y}: {reason}")]
    Takeback {
        /// Column (0-based).
        x: usize,
        /// Row (0-based, from the top).
        y: usize,
        /// Why it cannot be taken back.
        reason: String,
    },
    /// The agent spec given on the command line cannot be built.
    #[error("{0}")]
    Agent(String),
}

/// At most `max` characters of `text`, with `…` when cut: user input
/// quoted in a reply stays short.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_shortened() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdef", 3), "abc…");
        assert_eq!(shorten("ééé", 2), "éé…");
    }
}
