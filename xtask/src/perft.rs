//! `cargo xtask perft GAME DEPTH`.

use crate::TaskResult;

/// Arguments of `cargo xtask perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    game: String,
    /// Depth in plies.
    depth: u32,
}

pub(crate) fn run(args: Args) -> TaskResult {
    Err(format!("perft for {} (depth {}) is not available yet", args.game, args.depth).into())
}
