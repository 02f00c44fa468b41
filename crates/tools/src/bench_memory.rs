//! `cargo xtask bench`'s memory section: the peak resident memory of the
//! connect-4 solver and of the chess engine, each in a process of its own
//! (a figure for the bench process would mix every section's).

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};

use super::bench::{Counted, Report};
use super::memory::peak_rss_of;
use crate::TaskResult;

/// The ceiling for the solver's default table, in MiB.
const SOLVER_CEILING_MIB: f64 = 64.0;

/// The engine's transposition table for the measurement (its default).
const ENGINE_HASH_MIB: f64 = 16.0;

/// Runs the section: the solver through `xtask solve` (this executable),
/// the engine through the `kibitz` binary.
pub(crate) fn peak_memory(root: &Path, quick: bool, report: &mut Report) -> TaskResult {
    let set = if quick { "end-easy" } else { "begin-easy" };
    let path = test_data::path("connect4").unwrap_or_default().join(set);
    if path.is_file() {
        let out = Command::new(std::env::current_exe()?)
            .args(["solve", "connect4"])
            .arg(&path)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()?;
        let err = String::from_utf8_lossy(&out.stderr);
        let peak = err.lines().find_map(|l| l.strip_prefix("peak memory: ")?.split(' ').next()?.parse::<f64>().ok());
        match (out.status.success(), peak) {
            (true, Some(mib)) => report.counted.push(Counted {
                name: format!("connect-4 solver, Pons' {set} set, default 8 MiB table: peak resident MiB ÷ 64 MiB"),
                ours: mib,
                reference: SOLVER_CEILING_MIB,
                note: "`xtask solve connect4 FILE` in its own process (VmHWM); the whole process, not only the table"
                    .into(),
                goal: Some(1.0),
            }),
            (ok, _) => report.notes.push(format!(
                "Solver peak memory: not measured (solve {}; no peak line: /proc missing?).",
                if ok { "succeeded" } else { "failed" }
            )),
        }
    } else {
        report.notes.push(format!("Solver peak memory: skipped, {} not found.", path.display()));
    }

    let kibitz = super::bench::build_helpers(root, quick)?.join("kibitz");
    let movetime = if quick { 200 } else { 2000 };
    let mib = engine_peak(&kibitz, movetime)?;
    match mib {
        Some(mib) => report.counted.push(Counted {
            name: format!(
                "chess engine (kibitz), {movetime} ms search from the start, Hash 16: peak resident MiB ÷ Hash"
            ),
            ours: mib,
            reference: ENGINE_HASH_MIB,
            note: "VmHWM read while the engine is alive, after `bestmove`; the rest above Hash is the binary, the \
                   evaluation tables and the thread stacks"
                .into(),
            goal: None,
        }),
        None => report.notes.push("Engine peak memory: not measured (no /proc).".into()),
    }
    Ok(())
}

/// Drives the engine at `exe` through one search of `movetime` ms from the
/// start and reads its peak resident memory before it quits.
fn engine_peak(exe: &Path, movetime: u64) -> Result<Option<f64>, Box<dyn std::error::Error>> {
    let mut child = Command::new(exe).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
    let mut stdin = child.stdin.take().ok_or("no engine stdin")?;
    let stdout = child.stdout.take().ok_or("no engine stdout")?;
    writeln!(stdin, "uci\nsetoption name Hash value {ENGINE_HASH_MIB}\nisready")?;
    writeln!(stdin, "position startpos\ngo movetime {movetime}")?;
    stdin.flush()?;
    let mut lines = BufReader::new(stdout).lines();
    loop {
        match lines.next() {
            Some(line) if line.as_ref().is_ok_and(|l| l.starts_with("bestmove")) => break,
            Some(line) => drop(line?),
            None => return Err("the engine ended before its bestmove".into()),
        }
    }
    let peak = peak_rss_of(child.id());
    writeln!(stdin, "quit")?;
    drop(stdin);
    child.wait()?;
    Ok(peak)
}
