//! `cargo xtask bench`, section `solver`: the connect-4 solver on Pons' six
//! benchmark sets against bitbully and connect-four-ai (side by side,
//! interleaved), its node counts against Pons' published ones, and the
//! book-backed empty board.
//!
//! bitbully is a Python package (`pip install bitbully`) over a C++ core; it
//! runs here through `python3` when it can be imported, and the report says
//! so when it cannot. connect-four-ai is a Rust crate (its Python package is
//! a binding to it, published for Python ≥ 3.13 only): it runs in this
//! process, compiled with the same compiler and profile as ours, so it is
//! always present. Every side starts each position from an empty table
//! (reset outside the timing) and without a book.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use games_small::connect4::{Book, Connect4};
use games_small::solver::{Solver, TestLine, parse_test_line};

use super::bench::{Counted, Report, Timed};
use crate::TaskResult;

/// Where the bench looks for the 7 × 6 book (`cargo xtask book connect4
/// --out target/connect4-7x6.c4book`), relative to the workspace root.
const BOOK_PATH: &str = "target/connect4-7x6.c4book";

/// Pons' six sets: name, Pons' published mean nodes per position where the
/// project has them ("Solving Connect 4", part 12), and how many positions
/// the bench takes (full run, `--quick`).
const SETS: [(&str, Option<f64>, usize, usize); 6] = [
    ("end-easy", Some(51.3), 1000, 50),
    ("middle-easy", Some(450.0), 1000, 50),
    ("middle-medium", None, 200, 20),
    ("begin-easy", Some(3298.0), 200, 20),
    ("begin-medium", None, 50, 5),
    ("begin-hard", None, 10, 2),
];

/// The peer's side: reads `MOVES` lines on standard input, solves each from
/// an empty table with `BitBullyCore.mtdf` (the reset outside the timing),
/// prints `positions wrong mean_seconds mean_nodes`.
const BITBULLY: &str = r#"
import sys, time
import bitbully.bitbully_core as bbc
solver = bbc.BitBullyCore()
n = wrong = nodes = 0
total = 0.0
for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    board = bbc.BoardCore()
    assert board.setBoard("".join(str(int(c) - 1) for c in parts[0]))
    solver.resetTranspositionTable()
    solver.resetNodeCounter()
    t = time.perf_counter()
    score = solver.mtdf(board, 0)
    total += time.perf_counter() - t
    nodes += solver.getNodeCounter()
    n += 1
    wrong += len(parts) > 1 and score != int(parts[1])
print(n, wrong, total / max(n, 1), nodes / max(n, 1))
"#;

/// One side's figures over a set.
#[derive(Debug, Clone, Copy)]
struct Run {
    positions: usize,
    wrong: usize,
    /// Mean seconds per position.
    seconds: f64,
    nodes: f64,
}

/// Runs the section on the sets in `dir`, the book from under `root`.
pub(crate) fn solver_vs_peers(root: &Path, dir: &Path, pairs: usize, quick: bool, report: &mut Report) -> TaskResult {
    let bitbully = python_peer("python3", "bitbully");
    if let Err(why) = &bitbully {
        report.notes.push(format!("Solver vs bitbully: not run, {why} (`pip install bitbully`)."));
    }
    let mut solver = Solver::new(7, 6)?;
    let mut ai = connect_four_ai::Solver::empty();
    for (set, pons, full, small) in SETS {
        let path = dir.join(set);
        let Ok(text) = std::fs::read_to_string(&path) else {
            report.notes.push(format!("Solver on {set}: skipped, {} not found.", path.display()));
            continue;
        };
        let limit = if quick { small } else { full };
        let mut all = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let parsed = parse_test_line(line, 7, 6).map_err(|e| format!("{}:{}: {e}", path.display(), index + 1))?;
            if let Some(t) = parsed {
                all.push((t, line.trim().to_string()));
            }
        }
        let lines = &all[..limit.min(all.len())];
        let input: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
        let (mut ours, mut theirs, mut ai_seconds) = (Vec::new(), Vec::new(), Vec::new());
        let (mut last_ours, mut last_theirs, mut last_ai) = (None, None, None);
        for _ in 0..pairs {
            let run = solve_all(&mut solver, lines)?;
            ours.push(run.seconds);
            last_ours = Some(run);
            let run = solve_all_ai(&mut ai, lines)?;
            ai_seconds.push(run.seconds);
            last_ai = Some(run);
            if bitbully.is_ok() {
                let run = run_python("python3", BITBULLY, &input)?;
                theirs.push(run.seconds);
                last_theirs = Some(run);
            }
        }
        let o = last_ours.expect("at least one pair");
        if let Some(pons) = pons {
            // Pons' mean is over the whole set: so is ours, except in a
            // quick run (the note says over how many).
            let counted = if quick || lines.len() == all.len() { o } else { solve_all(&mut solver, &all)? };
            report.counted.push(Counted {
                name: format!("connect-4 solver, {set}: mean nodes ÷ Pons"),
                ours: counted.nodes,
                reference: pons,
                note: format!(
                    "{} of the set's {} positions, {} wrong scores, from an empty table each",
                    counted.positions,
                    all.len(),
                    counted.wrong
                ),
                goal: Some(1.0),
            });
        }
        let a = last_ai.expect("at least one pair");
        report.timed.push(Timed {
            name: format!("connect-4 solver, {set} ({} positions): time per position ÷ connect-four-ai", o.positions),
            ours: ours.clone(),
            theirs: ai_seconds,
            work: format!("nodes/position {:.0} vs {:.0}; wrong scores {} vs {}", o.nodes, a.nodes, o.wrong, a.wrong),
            goal: Some(1.0),
        });
        if let Some(t) = last_theirs {
            report.timed.push(Timed {
                name: format!("connect-4 solver, {set} ({} positions): time per position ÷ bitbully", o.positions),
                ours,
                theirs,
                work: format!(
                    "nodes/position {:.0} vs {:.0}; wrong scores {} vs {}",
                    o.nodes, t.nodes, o.wrong, t.wrong
                ),
                goal: Some(1.0),
            });
        } else {
            report.notes.push(format!(
                "Solver on {set} ({} positions): {:.1} µs and {:.0} nodes per position, {} wrong scores (no peer).",
                o.positions,
                o.seconds * 1e6,
                o.nodes,
                o.wrong
            ));
        }
    }
    if !quick {
        empty_board_without_book(report)?;
    }
    empty_board_with_book(root, report)
}

/// The table and threads of the bench's book-less empty-board row.
const EMPTY_BOARD_MIB: usize = 1024;
const EMPTY_BOARD_THREADS: usize = 2;

/// The empty 7 × 6 board solved without a book, exact score, on
/// [`EMPTY_BOARD_THREADS`] threads sharing an [`EMPTY_BOARD_MIB`]-MiB table,
/// against the goal of 60 s (full runs only: it takes minutes).
fn empty_board_without_book(report: &mut Report) -> TaskResult {
    let mut solver = Solver::with_threads(7, 6, EMPTY_BOARD_MIB, EMPTY_BOARD_THREADS)?;
    let solved = solver.solve(&Connect4::standard())?;
    let seconds = solved.micros as f64 / 1e6;
    report.counted.push(Counted {
        name: format!(
            "connect-4 solver, empty 7×6 board without a book ({EMPTY_BOARD_THREADS} threads, {EMPTY_BOARD_MIB} MiB table): seconds ÷ 60 s"
        ),
        ours: seconds,
        reference: 60.0,
        note: format!("score {}, {} nodes, {} probes", solved.score, solved.nodes, solved.probes),
        goal: Some(1.0),
    });
    Ok(())
}

/// Solves every line from an empty table (reset outside the timing).
fn solve_all(solver: &mut Solver, lines: &[(TestLine<'_>, String)]) -> Result<Run, Box<dyn std::error::Error>> {
    measure(lines, |t| {
        solver.reset();
        let start = Instant::now();
        let solved = solver.solve(&t.position)?;
        Ok((solved.score, solved.nodes, start.elapsed().as_secs_f64()))
    })
}

/// connect-four-ai's side of [`solve_all`]: the same lines, its solver's
/// table reset outside the timing, its node counter (`explored_positions`,
/// which it sets back to zero at each solve).
fn solve_all_ai(
    solver: &mut connect_four_ai::Solver,
    lines: &[(TestLine<'_>, String)],
) -> Result<Run, Box<dyn std::error::Error>> {
    measure(lines, |t| {
        let moves = t.moves;
        let position =
            connect_four_ai::Position::from_moves(moves).map_err(|e| format!("connect-four-ai: {moves}: {e:?}"))?;
        solver.reset();
        let start = Instant::now();
        let score = solver.solve(&position);
        let seconds = start.elapsed().as_secs_f64();
        Ok((i32::from(score), solver.explored_positions as u64, seconds))
    })
}

/// One side's [`Run`] over `lines`: `solve` gives a line's score, nodes and
/// timed seconds; the score is checked against the line's.
fn measure(
    lines: &[(TestLine<'_>, String)],
    mut solve: impl FnMut(&TestLine<'_>) -> Result<(i32, u64, f64), Box<dyn std::error::Error>>,
) -> Result<Run, Box<dyn std::error::Error>> {
    let (mut seconds, mut nodes, mut wrong) = (0.0, 0u64, 0);
    for (t, _) in lines {
        let (score, n, s) = solve(t)?;
        seconds += s;
        nodes += n;
        wrong += usize::from(t.expected.is_some_and(|e| e != score));
    }
    let n = lines.len().max(1);
    Ok(Run { positions: lines.len(), wrong, seconds: seconds / n as f64, nodes: nodes as f64 / n as f64 })
}

/// Whether `module` imports in `python`; the reason if not.
fn python_peer(python: &str, module: &str) -> Result<(), String> {
    match Command::new(python).args(["-c", &format!("import {module}")]).output() {
        Err(e) => Err(format!("no `{python}` ({e})")),
        Ok(out) if out.status.success() => Ok(()),
        Ok(_) => Err(format!("`{python}` cannot import {module}")),
    }
}

/// Runs `script` in `python` with `input` on standard input and parses its
/// `positions wrong mean_seconds mean_nodes` line.
fn run_python(python: &str, script: &str, input: &str) -> Result<Run, Box<dyn std::error::Error>> {
    let mut child = Command::new(python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child.stdin.take().ok_or("no stdin")?.write_all(input.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        return Err(format!("{python} failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let text = String::from_utf8(out.stdout)?;
    let f: Vec<&str> = text.split_whitespace().collect();
    let bad = || format!("unexpected peer output {text:?}");
    if f.len() != 4 {
        return Err(bad().into());
    }
    Ok(Run {
        positions: f[0].parse().map_err(|_| bad())?,
        wrong: f[1].parse().map_err(|_| bad())?,
        seconds: f[2].parse().map_err(|_| bad())?,
        nodes: f[3].parse().map_err(|_| bad())?,
    })
}

/// The empty 7 × 6 board answered from the book (loading it included), if
/// the book has been built.
fn empty_board_with_book(root: &Path, report: &mut Report) -> TaskResult {
    let path: PathBuf = root.join(BOOK_PATH);
    if !path.is_file() {
        report.notes.push(format!(
            "Empty 7×6 board with the book: skipped, no book at {BOOK_PATH} (`cargo xtask book connect4 --out {BOOK_PATH}`)."
        ));
        return Ok(());
    }
    let start = Instant::now();
    let book = Book::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut solver = Solver::with_table_mib(7, 6, 1)?;
    solver.set_book(Some(book))?;
    let solved = solver.solve(&Connect4::standard())?;
    let seconds = start.elapsed().as_secs_f64();
    report.counted.push(Counted {
        name: "connect-4 solver, empty 7×6 board with the book: seconds (book loading included) ÷ 1 s".into(),
        ours: seconds,
        reference: 1.0,
        note: format!("score {}, {} nodes", solved.score, solved.nodes),
        goal: Some(1.0),
    });
    Ok(())
}
