//! `cargo xtask solve connect4 [FILE]`: exact scores of connect-4 positions.
//!
//! Reads lines `MOVES [EXPECTED]` (a move sequence from the empty board, in
//! the connect-4 notation, and optionally the expected score) from FILE or
//! standard input, prints `MOVES SCORE` per line on standard output, and a
//! summary on standard error: positions solved, malformed lines, mismatches
//! against EXPECTED, mean time and mean nodes per position, and (on Linux)
//! the peak resident memory. Exits nonzero if a score differs from its
//! expected value or a line is malformed.
//!
//! With `--book FILE`, positions the opening book has are answered from it.
//!
//! MOVES is the text before the first whitespace character of the line (the
//! start is not trimmed): a line holding only a score, such as ` 0`, is the
//! empty board (see [`games_small::solver::parse_test_line`]). Lines of
//! whitespace only are skipped.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;

use games_small::connect4::Book;
/// The default transposition-table size of `cargo xtask solve`, in MiB.
pub use games_small::solver::DEFAULT_TABLE_MIB;
use games_small::solver::{MAX_SOLVER_THREADS, Solved, Solver, TestLine, parse_test_line};
/// The largest table `cargo xtask solve` accepts, in MiB (the library's limit).
pub use search_core::search::MAX_TABLE_MIB;

use crate::TaskResult;
use taskkit::parsers::table_mib;

/// Arguments of `cargo xtask solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game to solve (connect4).
    pub game: String,
    /// The positions, one `MOVES [EXPECTED]` per line (default: standard input).
    pub file: Option<PathBuf>,
    /// Columns of the board.
    #[arg(long, default_value_t = 7)]
    pub width: usize,
    /// Rows of the board.
    #[arg(long, default_value_t = 6)]
    pub height: usize,
    /// Only win (1), draw (0) or loss (-1); EXPECTED is compared by sign.
    #[arg(long)]
    pub weak: bool,
    /// Transposition-table size in MiB, 1 to 1048576 (search_core's MAX_TABLE_MIB).
    #[arg(long, default_value_t = DEFAULT_TABLE_MIB, value_parser = table_mib(MAX_TABLE_MIB))]
    pub table_mib: usize,
    /// Threads searching each position, sharing one table of --table-mib (eight bytes a slot when
    /// above 1, against five alone); the scores are the same, the node counts vary from run to run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_SOLVER_THREADS as i64))]
    pub threads: u16,
    /// Keep the table between positions (by default it is emptied before
    /// each one, outside the timing, so node counts do not depend on the
    /// order of the lines).
    #[arg(long)]
    pub keep_table: bool,
    /// An opening book (`cargo xtask book connect4`): positions it has are answered from it, without search.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

/// Totals over the input.
#[derive(Debug, Default, PartialEq, Eq)]
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
    let mut solver = Solver::with_threads(args.width, args.height, args.table_mib, usize::from(args.threads))?;
    if let Some(path) = &args.book {
        let book = Book::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("book: {} entries, positions up to {} plies", book.len(), book.plies());
        solver.set_book(Some(book)).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let input: Box<dyn BufRead> = match &args.file {
        Some(path) => {
            Box::new(BufReader::new(File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?))
        }
        None => Box::new(io::stdin().lock()),
    };
    let mut out = io::stdout().lock();
    let sum = solve_lines(&args, &mut solver, input, &mut out)?;
    report(&sum);
    if sum.mismatches > 0 || sum.malformed > 0 {
        return Err(format!("{} mismatched score(s), {} malformed line(s)", sum.mismatches, sum.malformed).into());
    }
    Ok(())
}

/// Solves each line of `input` (problems with a line go to standard error),
/// writes `MOVES SCORE` lines to `out` and returns the totals.
fn solve_lines(args: &Args, solver: &mut Solver, input: impl BufRead, out: &mut impl Write) -> io::Result<Summary> {
    let mut sum = Summary::default();
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let bytes = line?;
        let Ok(text) = std::str::from_utf8(&bytes) else {
            eprintln!("line {number}: not UTF-8 text");
            sum.malformed += 1;
            continue;
        };
        let TestLine { moves, position: pos, expected } = match parse_test_line(text, args.width, args.height) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => continue,
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
    Ok(sum)
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
    if let Some(mib) = super::memory::peak_rss_mib() {
        eprintln!("peak memory: {mib:.1} MiB resident");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(width: usize, height: usize) -> Args {
        Args {
            game: "connect4".into(),
            file: None,
            width,
            height,
            weak: false,
            table_mib: 1,
            threads: 1,
            keep_table: false,
            book: None,
        }
    }

    /// Solves `input` on a `width × height` board: the output text and the totals.
    fn solve_text(input: &str, width: usize, height: usize) -> (String, Summary) {
        let args = args(width, height);
        let mut solver = Solver::with_table_mib(width, height, 1).unwrap();
        let mut out = Vec::new();
        let sum = solve_lines(&args, &mut solver, input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), sum)
    }

    #[test]
    fn a_line_with_only_a_score_is_the_empty_board() {
        // 4 × 4 connect-4 is a draw: the empty board scores 0.
        let (out, sum) = solve_text(" 0\n", 4, 4);
        assert_eq!(out, " 0\n");
        assert_eq!((sum.positions, sum.malformed, sum.checked, sum.mismatches), (1, 0, 1, 0));
        // " 1" is the empty board with a wrong expected score, not the
        // position after column 1.
        let (out, sum) = solve_text(" 1\r\n", 4, 4);
        assert_eq!(out, " 0\n");
        assert_eq!((sum.positions, sum.malformed, sum.checked, sum.mismatches), (1, 0, 1, 1));
    }

    #[test]
    fn lines_parse_as_moves_then_score() {
        let (out, sum) = solve_text("44556 -18\n\n   \n44556\n", 7, 6);
        assert_eq!(out, "44556 -18\n44556 -18\n");
        assert_eq!((sum.positions, sum.malformed, sum.checked, sum.mismatches), (2, 0, 1, 0));
        // A score that is not a number, a third field, a bad column: malformed.
        let (out, sum) = solve_text("1 x\n1 2 3\n9 0\n  1 2\n", 4, 4);
        assert_eq!(out, "");
        assert_eq!((sum.positions, sum.malformed), (0, 4));
    }

    /// The shared line parser (`solve` and `bench` read test sets with it).
    #[test]
    fn the_shared_line_parser_takes_moves_up_to_the_first_whitespace() {
        use games_small::Connect4;
        let empty = Connect4::new(7, 6).unwrap();
        let line = parse_test_line(" 1", 7, 6).unwrap().unwrap();
        assert_eq!((line.moves, line.position, line.expected), ("", empty, Some(1)));
        let line = parse_test_line(" -3\r", 7, 6).unwrap().unwrap();
        assert_eq!((line.moves, line.position, line.expected), ("", empty, Some(-3)));
        let line = parse_test_line("4\t2", 7, 6).unwrap().unwrap();
        assert_eq!((line.moves, line.expected), ("4", Some(2)));
        assert_eq!(line.position, Connect4::from_moves(7, 6, "4").unwrap());
        let line = parse_test_line("4453", 7, 6).unwrap().unwrap();
        assert_eq!((line.moves, line.expected), ("4453", None));
        for blank in ["", " ", "\t\r"] {
            assert_eq!(parse_test_line(blank, 7, 6).unwrap(), None, "{blank:?}");
        }
        for bad in ["4 x", "4 1 2", " 1 2", "8 0", "0"] {
            assert!(parse_test_line(bad, 7, 6).is_err(), "{bad:?}");
        }
        let long = format!("4 1 {}", "9".repeat(100_000));
        let message = parse_test_line(&long, 7, 6).unwrap_err().to_string();
        assert!(message.len() < 1000, "{message}");
    }
}
