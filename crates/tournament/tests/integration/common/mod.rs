//! Fixtures of the integration tests: tic-tac-toe as a tournament sees it,
//! and fresh directories for cell stores.

use std::path::PathBuf;
use std::sync::Arc;

use games_small::{TicTacToe, TicTacToeEval};
use tournament::Setup;
use tournament::matches::AnySetup;

/// Tic-tac-toe with the standard agents: one random opening ply, five
/// pairs per cell.
pub(crate) fn tictactoe() -> Arc<dyn AnySetup> {
    Arc::new(
        Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
            .with_opening_plies(1)
            .with_max_plies(9)
            .with_pairs_per_cell(5),
    )
}

/// A fresh directory under the system's temporary folder, named by the
/// test file, `name` and the process.
pub(crate) fn fresh(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tournament-{file}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
