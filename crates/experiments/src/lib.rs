//! The seed papers' experiments and the project's tools, kept out of the
//! published library crates. Unpublished; `cargo xtask` parses the command
//! line and calls in here.
//!
//! - [`reproduce`]: `cargo xtask reproduce`, every table and figure of the
//!   seed papers beside the papers' numbers (cell store, outputs, plots,
//!   statistics and the experiments themselves).
//! - [`paper`]: the Rminimax paper's worked examples (Tables I, II and III):
//!   the paper's trees, its printed numbers and its bisection.
//! - [`dial`]: `cargo xtask match` and `cargo xtask calibrate` (playing
//!   strength: paired matches, ratings, the dial's ladder).
//! - [`tools`]: `cargo xtask bench`, `demo`, `nash`, `perft`, `solve` and `wac`.
//!
//! GPL-3.0-or-later because it depends on `games-chess`; nothing but `xtask`
//! depends on this crate (`cargo xtask layering` checks it).

pub mod dial;
pub mod human;
pub mod paper;
pub mod reproduce;
pub mod tools;

/// The error type of every task: a message for the user.
pub type TaskResult = Result<(), Box<dyn std::error::Error>>;

/// Cargo's target directory for the workspace at `root`: `CARGO_TARGET_DIR`
/// when it is set, `root/target` otherwise.
pub(crate) fn target_dir(root: &std::path::Path) -> std::path::PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), std::path::PathBuf::from)
}

/// The text of the file at `path`, decompressed if its name ends in `.gz`
/// (as the games of `data/human/` are stored).
pub(crate) fn read_text(path: &std::path::Path) -> std::io::Result<String> {
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(std::fs::File::open(path)?), &mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}
