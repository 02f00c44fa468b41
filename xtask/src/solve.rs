//! `cargo xtask solve connect4`.

use crate::TaskResult;

/// Arguments of `cargo xtask solve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game to solve (connect4).
    game: String,
}

pub(crate) fn run(args: Args) -> TaskResult {
    Err(format!("no solver for {} yet", args.game).into())
}
