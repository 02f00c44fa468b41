//! `cargo xtask reproduce`: the same numbers for any thread count, resumable
//! after an interruption, and shards that merge to the single-run result.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Experiments cheap enough to run several times in a test.
const EXPERIMENTS: &[&str] =
    &["rminimax-table2", "rminimax-fig2-tictactoe", "reibman-fig1", "iom-fig4-error", "lecture-alphabeta"];

fn xtask(args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_xtask")).arg("reproduce").args(args).status().expect("xtask runs");
    assert!(status.success(), "xtask reproduce {args:?} failed");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-reproduce-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(out: &Path, extra: &[&str]) {
    let mut args = vec!["--quick", "--seed", "7", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.extend_from_slice(EXPERIMENTS);
    xtask(&args);
}

/// The outputs that must not depend on how the run was scheduled.
fn outputs(out: &Path) -> Vec<(String, String)> {
    EXPERIMENTS
        .iter()
        .flat_map(|e| [format!("{e}.json"), format!("{e}.csv")])
        .chain(["report.md".to_string()])
        .map(|f| {
            let text = std::fs::read_to_string(out.join(&f)).unwrap_or_else(|_| panic!("{f} written"));
            (f, text)
        })
        .collect()
}

#[test]
fn one_and_two_threads_give_the_same_numbers() {
    let (a, b) = (scratch("t1"), scratch("t2"));
    run(&a, &["--threads", "1"]);
    run(&b, &["--threads", "2"]);
    assert_eq!(outputs(&a), outputs(&b));
}

#[test]
fn shards_merge_to_the_single_run_result() {
    let (single, s0, s1, merged) = (scratch("single"), scratch("s0"), scratch("s1"), scratch("merged"));
    run(&single, &[]);
    run(&s0, &["--shard", "0/2"]);
    run(&s1, &["--shard", "1/2"]);
    xtask(&[
        "merge",
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
        "--quick",
        "--seed",
        "7",
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(outputs(&single), outputs(&merged));
}

#[test]
fn an_interrupted_run_resumes_without_losing_finished_cells() {
    let (full, resumed) = (scratch("full"), scratch("resumed"));
    run(&full, &[]);
    // Kill a run partway, then run again into the same directory.
    let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["reproduce", "--quick", "--seed", "7", "--out", resumed.to_str().unwrap()])
        .args(EXPERIMENTS)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(150));
    let _ = child.kill();
    let _ = child.wait();
    let saved = count_cells(&resumed);
    run(&resumed, &[]);
    assert_eq!(outputs(&full), outputs(&resumed));
    // Cells saved before the kill were kept, not recomputed.
    let cell_dir = resumed.join("cells");
    assert!(count_cells(&resumed) >= saved);
    assert!(cell_dir.exists());
}

fn count_cells(out: &Path) -> usize {
    let Ok(dirs) = std::fs::read_dir(out.join("cells")) else { return 0 };
    dirs.flatten().map(|d| std::fs::read_dir(d.path()).map(|f| f.count()).unwrap_or(0)).sum()
}
