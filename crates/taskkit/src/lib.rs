//! What the command-line tasks share. Unpublished: `cargo xtask` reaches the
//! tasks in `dial`, `tools` and `experiments`, and each builds on this.
//!
//! - [`run`]: a run's settings ([`RunConfig`]), its terminal progress bar
//!   ([`Terminal`], a [`tournament::runner::RunObserver`]) and
//!   [`run_jobs`], which runs jobs on the library's cell store with it.
//! - [`plot`]: SVG line plots and heat maps.
//! - [`stats`]: means, intervals and the Wilson score interval.
//! - [`threads`]: the `--threads N` flag's parser.
//! - [`parsers`]: the other value parsers several tasks' flags share.
//!
//! The tasks print; the published crates under them do not.

pub mod parsers;
pub mod plot;
pub mod run;
pub mod stats;
pub mod threads;

pub use run::{RunConfig, Terminal, open_out, run_jobs};
pub use tournament::runner::{Shard, fnv};
pub use tournament::store::{Loaded, Row, RunKey, Scale, write_atomic};

/// The error type of every task: a message for the user.
pub type TaskResult = Result<(), Box<dyn std::error::Error>>;

/// Builds a [`Row`] from `key => value` pairs.
#[macro_export]
macro_rules! row {
    ($($key:expr => $value:expr),* $(,)?) => {{
        let mut r = $crate::Row::new();
        $( r.insert($key.to_string(), serde_json::json!($value)); )*
        r
    }};
}

/// Cargo's target directory for the workspace at `root`: `CARGO_TARGET_DIR`
/// when it is set, `root/target` otherwise.
pub fn target_dir(root: &std::path::Path) -> std::path::PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), std::path::PathBuf::from)
}

/// The text of the file at `path`, decompressed if its name ends in `.gz`
/// (as the games of `data/human/` are stored).
pub fn read_text(path: &std::path::Path) -> std::io::Result<String> {
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(std::fs::File::open(path)?), &mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}
