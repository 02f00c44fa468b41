//! What the binary-level tests of `cargo xtask` share: running the binary,
//! scratch files, and reading its JSON report or its error.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `xtask` binary with `args`, capturing its output.
pub(crate) fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

/// Writes `text` into `name` under the scratch directory `dir` of the tests'
/// temporary folder, and returns the file's path.
pub(crate) fn file(dir: &str, name: &str, text: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The one JSON object a successful run printed.
pub(crate) fn json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// An error: exit status 1, no panic, the message on standard error.
pub(crate) fn error(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}
