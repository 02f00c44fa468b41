//! `cargo xtask solve connect4 [FILE]`: exact scores of connect-4 positions.
//!
//! Reads lines `MOVES [EXPECTED]` (a move sequence from the empty board, in
//! the connect-4 notation, and optionally the expected score) from FILE or
//! standard input, prints `MOVES SCORE` per line on standard output, and a
//! summary on standard error: positions solved, malformed lines, mismatches
//! against EXPECTED, mean time and mean nodes per position. Exits nonzero if a
//! score differs from its expected value or a line is malformed.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;

use games_small::connect4::Connect4;
/// The default transposition-table size of `cargo xtask solve`, in MiB.
pub use games_small::solver::DEFAULT_TABLE_MIB;
use games_small::solver::{Solved, Solver};

use crate::TaskResult;

/// Arguments of `cargo xtask solve`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game to solve (connect4).
    pub game: String,
    /// The positions, one `MOVES [EXPECTED]` per line (default: standard input).
    pub file: Option<PathBuf>,
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// Only win (1), draw (0) or loss (-1); EXPECTED is compared by sign.
    pub weak: bool,
    /// Transposition-table size in MiB.
    pub table_mib: usize,
    /// Keep the table between positions (by default it is emptied before
    /// each one, outside the timing, so node counts do not depend on the
    /// order of the lines).
    pub keep_table: bool,
}

/// Totals over the input.
#[derive(Debug, Default)]
struct Summary {
    positions: u64,
    malformed: u64,
    checked: u64,
    mismatches: u64,
    nodes: u64,
    micros: u64,
    max_micros: u64,
}

pub fn run(args: Args) -> TaskResult {
    if args.game != "connect4" {
        return Err(format!("no solver for {:?}: expected connect4", args.game).into());
    }
    let mut solver = Solver::with_table_mib(args.width, args.height, args.table_mib)?;
    let input: Box<dyn BufRead> = match &args.file {
        Some(path) => {
            Box::new(BufReader::new(File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?))
        }
        None => Box::new(io::stdin().lock()),
    };
    let mut out = io::stdout().lock();
    let mut sum = Summary::default();
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let bytes = line?;
        let Ok(text) = std::str::from_utf8(&bytes) else {
            eprintln!("line {number}: not UTF-8 text");
            sum.malformed += 1;
            continue;
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let (pos, expected) = match parse_line(text, args.width, args.height) {
            Ok(parsed) => parsed,
            Err(e) => {
                eprintln!("line {number}: {e}");
                sum.malformed += 1;
                continue;
            }
        };
        if !args.keep_table {
            solver.reset();
        }
        let solved = if args.weak { solver.weak_solve(&pos) } else { solver.solve(&pos) };
        let Solved { score, nodes, micros, .. } = match solved {
            Ok(s) => s,
            Err(e) => {
                eprintln!("line {number}: {e}");
                sum.malformed += 1;
                continue;
            }
        };
        let moves = text.split_whitespace().next().unwrap_or("");
        writeln!(out, "{moves} {score}")?;
        sum.positions += 1;
        sum.nodes += nodes;
        sum.micros += micros;
        sum.max_micros = sum.max_micros.max(micros);
        if let Some(want) = expected {
            let want = if args.weak { want.signum() } else { want };
            sum.checked += 1;
            if want != score {
                sum.mismatches += 1;
                eprintln!("line {number}: {moves}: score {score}, expected {want}");
            }
        }
    }
    out.flush()?;
    report(&sum);
    if sum.mismatches > 0 || sum.malformed > 0 {
        return Err(format!("{} mismatched score(s), {} malformed line(s)", sum.mismatches, sum.malformed).into());
    }
    Ok(())
}

/// `MOVES [EXPECTED]` as a position and the optional expected score.
fn parse_line(text: &str, width: usize, height: usize) -> Result<(Connect4, Option<i32>), String> {
    let mut fields = text.split_whitespace();
    let moves = fields.next().unwrap_or("");
    let expected = match fields.next() {
        None => None,
        Some(s) => Some(s.parse::<i32>().map_err(|_| format!("expected score {s:?} is not an integer"))?),
    };
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected {extra:?} after the expected score"));
    }
    let pos = Connect4::from_moves(width, height, moves).map_err(|e| e.to_string())?;
    Ok((pos, expected))
}

fn report(sum: &Summary) {
    let n = sum.positions.max(1) as f64;
    eprintln!(
        "positions: {}  malformed: {}  mismatches: {} of {} checked",
        sum.positions, sum.malformed, sum.mismatches, sum.checked
    );
    eprintln!(
        "mean time: {:.1} µs  max: {} µs  mean nodes: {:.1}  ({:.2} M nodes/s)",
        sum.micros as f64 / n,
        sum.max_micros,
        sum.nodes as f64 / n,
        sum.nodes as f64 / (sum.micros.max(1) as f64),
    );
}
