//! Where the optional shared test data is: one place for every test and tool.
//!
//! Some tests check the library against published data sets (Pons' connect-4
//! benchmark sets, the chess perft suite, Win At Chess) that do not ship with
//! the repository. They look for them in one folder:
//!
//! - the folder named by the environment variable [`ENV`] when it is set (an
//!   empty value, or a folder that does not exist, means "no shared data":
//!   this is how CI runs the test suite as a fresh clone has it);
//! - otherwise `shared/` beside the workspace's folder.
//!
//! A test that finds no data must still check something real (positions of
//! its own) or say, through [`skip`], that it skips and why; it never passes
//! silently on an empty set.
//!
//! ```
//! // `None` when the data is absent; the note goes to standard error.
//! if let Some(text) = test_data::read("connect4/end-easy", "the solver's end-game set") {
//!     assert!(text.lines().count() > 0);
//! }
//! ```

use std::path::{Path, PathBuf};

/// The environment variable that names the shared test-data folder.
pub const ENV: &str = "BACKUP_RULES_SHARED";

/// The shared test-data folder, if it exists (see the crate's documentation
/// for where it is looked for).
pub fn dir() -> Option<PathBuf> {
    root().filter(|d| d.is_dir())
}

/// The folder [`ENV`] names (`None` when it is set but empty), or the
/// default beside the workspace when it is unset; whether or not it exists.
fn root() -> Option<PathBuf> {
    match std::env::var_os(ENV) {
        Some(value) if value.is_empty() => None,
        Some(value) => Some(PathBuf::from(value)),
        None => Some(default_dir()),
    }
}

/// `shared/` beside the workspace's folder: where it is when `ENV` is unset.
fn default_dir() -> PathBuf {
    // This crate sits at `<workspace>/crates/test-data`.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The path of `relative` inside the shared folder, whether or not it exists
/// (for messages and defaults of command-line tools); `None` only when the
/// folder itself is switched off by an empty [`ENV`].
pub fn path(relative: &str) -> Option<PathBuf> {
    root().map(|d| d.join(relative))
}

/// The text of `relative` in the shared folder, or `None` after noting on
/// standard error that `what` is skipped because the file is absent.
pub fn read(relative: &str, what: &str) -> Option<String> {
    let file = dir().map(|d| d.join(relative));
    match file.as_deref().map(std::fs::read_to_string) {
        Some(Ok(text)) => Some(text),
        _ => {
            skip(&format!("shared test data `{relative}` is absent"), what);
            None
        }
    }
}

/// Notes on standard error that `what` is skipped, and why.
pub fn skip(why: &str, what: &str) {
    eprintln!("note: {why} ({ENV} or shared/ beside the workspace): skipping {what}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_reads_as_none() {
        assert_eq!(read("no/such/file-of-ours", "nothing"), None);
    }

    #[test]
    fn paths_are_inside_the_folder() {
        if let Some(p) = path("connect4/end-easy") {
            assert!(p.ends_with("connect4/end-easy"));
        }
    }
}
