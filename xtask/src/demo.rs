//! `cargo xtask demo`: a short game between two search players.

use crate::TaskResult;

/// Arguments of `cargo xtask demo`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Seed of the game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub(crate) fn run(_args: Args) -> TaskResult {
    Ok(())
}
