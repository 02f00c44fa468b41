//! Bad command lines and inputs end in a clear error, never a crash: the
//! tools' robustness issue (items 8–12), through the binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `xtask args` with `stdin` as standard input.
fn xtask(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xtask runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A task's own error: exit code 1 with an `error:` line (not a panic, an
/// abort or a signal).
fn assert_task_error(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {err}", out.status);
    assert!(err.contains("error: ") && err.contains(needle), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A command-line error of clap: exit code 2 with an `error:` line.
fn assert_usage_error(out: &Output, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{:?}: {err}", out.status);
    assert!(err.contains("error: ") && err.contains(needle), "{err}");
}

#[test]
fn perft_deeper_than_the_maximum_is_an_error_not_a_stack_overflow() {
    // Item 8: used to recurse 20,000 plies deep and overflow the stack.
    assert_task_error(&xtask(&["perft", "chess", "20000"], ""), "at most 20 plies");
    assert_task_error(&xtask(&["perft", "connect4", "43"], ""), "at most 42 plies");
    assert_task_error(&xtask(&["perft", "tictactoe", "4294967295"], ""), "at most 9 plies");
    let out = xtask(&["perft", "connect4", "4", "--width", "4", "--height", "4"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("256"));
}

#[test]
fn table_sizes_out_of_range_are_usage_errors() {
    // Item 9: huge sizes used to panic ("capacity overflow"), abort, or
    // silently give a one-bucket table (2^44).
    for mib in ["18446744073709551615", "17592186044416", "1048577", "0"] {
        assert_usage_error(&xtask(&["solve", "connect4", "--table-mib", mib], ""), "1..=1048576");
    }
    assert_usage_error(&xtask(&["wac", "--hash", "100000"], ""), "1..=1024");
}

/// Item 9: a size in range that cannot be allocated is the library's error,
/// reported cleanly (the address space is limited to 2 GiB, so 100,000 MiB
/// fails whatever the machine and its overcommit setting).
#[cfg(target_os = "linux")]
#[test]
fn a_table_that_cannot_be_allocated_is_a_clean_error() {
    let script =
        format!("ulimit -v 2097152 && exec '{}' solve connect4 --table-mib 100000", env!("CARGO_BIN_EXE_xtask"));
    let out = Command::new("sh").args(["-c", &script]).stdin(Stdio::null()).output().expect("sh runs");
    assert_task_error(&out, "cannot allocate a table of 100000 MiB");
}

#[test]
fn options_of_other_games_are_refused() {
    // Item 10: --fen, --width, ... used to be accepted and ignored.
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_usage_error(&xtask(&["perft", "connect4", "3", "--fen", fen], ""), "--fen");
    assert_usage_error(&xtask(&["perft", "chess", "3", "--width", "5"], ""), "--width");
    assert_usage_error(&xtask(&["perft", "tictactoe", "3", "--height", "5"], ""), "--height");
    assert_usage_error(&xtask(&["perft", "gobang", "1", "--fen", fen], ""), "--fen");
    let out = xtask(&["perft", "chess", "2", "--fen", fen], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("25"));
}

#[test]
fn thread_counts_are_validated() {
    // Item 11: 0 silently meant one thread; 100000 spawned 100,000 threads.
    assert_usage_error(&xtask(&["reproduce", "--list", "--threads", "0"], ""), "leave --threads out");
    assert_usage_error(&xtask(&["reproduce", "--list", "--threads", "100000"], ""), "too many");
    assert!(xtask(&["reproduce", "--list", "--threads", "1"], "").status.success());
}

#[test]
fn a_solver_line_with_only_a_score_is_the_empty_board() {
    // Item 12: " 0" was "unparseable", " 1" the position after column 1.
    let out = xtask(&["solve", "connect4", "--width", "4", "--height", "4", "--table-mib", "1"], " 0\n4 0\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), " 0\n4 0\n");
    assert!(stderr(&out).contains("malformed: 0  mismatches: 0 of 2 checked"), "{}", stderr(&out));
    let out = xtask(&["solve", "connect4", "--width", "4", "--height", "4", "--table-mib", "1"], " 1\n");
    assert_task_error(&out, "1 mismatched score(s), 0 malformed line(s)");
    assert_eq!(stdout(&out), " 0\n");
}
