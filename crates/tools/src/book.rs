//! `cargo xtask book GAME ...`: an opening book.
//!
//! - `book chess --from-pgn FILE [--out book.bin] [--max-plies N]
//!   [--min-games N]`: a Polyglot `.bin` book made from games (a PGN file,
//!   or a gzip-compressed one whose name ends in `.gz`).
//! - `book connect4 [--plies N] [--quick] [--width W --height H]
//!   [--table-mib M] [--threads T] [--checkpoint FILE] [--out FILE]`: the
//!   exact score of every connect-4 position with at most N discs, mirror
//!   images merged, made by the solver ([`games_small::solver::BookBuild`])
//!   in the format of [`games_small::connect4::Book`]
//!   (docs/connect4-book.md). `--quick` makes a small book (6 × 4, 2 plies)
//!   in seconds, for CI. With `--checkpoint`, each position of the deepest
//!   ply is appended to FILE as it is solved, and a rerun reads FILE and
//!   solves only the rest: a build of hours survives interruptions.
//!
//! Other games are refused by name.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use games_chess::ChessGame;
use games_chess::polyglot::{Book, BookBuilder};
use games_small::solver::BookBuild;

use crate::TaskResult;
use crate::solve::MAX_TABLE_MIB;
use taskkit::parsers::table_mib;

/// Arguments of `cargo xtask book`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: `chess` (a Polyglot book made from games) or `connect4` (exact scores of every position up
    /// to --plies discs, made by the solver).
    pub game: String,
    /// Chess: the games, as a PGN file (gzip-compressed if its name ends in `.gz`).
    #[arg(long, value_name = "FILE")]
    pub from_pgn: Option<PathBuf>,
    /// Where the book is written [default: book.bin for chess, connect4-WxH-pN.c4book for connect4].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Chess: plies of each game that enter the book.
    #[arg(long, default_value_t = 16)]
    pub max_plies: usize,
    /// Chess: leave out moves played in fewer games than this.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    /// Connect-4: every position with at most this many discs [default: 4; 2 with --quick].
    #[arg(long)]
    pub plies: Option<u32>,
    /// Connect-4: a small book that builds in seconds (the 6 × 4 board unless --width/--height are given,
    /// plies 2), for CI.
    #[arg(long)]
    pub quick: bool,
    /// Connect-4: columns of the board [default: 7; 6 with --quick].
    #[arg(long)]
    pub width: Option<usize>,
    /// Connect-4: rows of the board [default: 6; 4 with --quick].
    #[arg(long)]
    pub height: Option<usize>,
    /// Connect-4: the solver's transposition-table size in MiB, 1 to 1048576 [default: 1024; 16 with
    /// --quick].
    #[arg(long, value_parser = table_mib(MAX_TABLE_MIB))]
    pub table_mib: Option<usize>,
    /// Connect-4: solving threads, each with its own table of --table-mib (the book is the same whatever
    /// their number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Connect-4: a file of the deepest ply's solved scores (`KEY SCORE` lines, the key in hex), appended to as
    /// positions are solved and read first: a rerun solves only the positions it lacks.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
}

/// Builds and writes the book; prints what went in.
pub fn run(args: Args) -> TaskResult {
    match args.game.as_str() {
        "chess" => chess(args),
        "connect4" => connect4(args),
        other => Err(format!("book: unknown game {other:?}: `chess` (Polyglot books) or `connect4`").into()),
    }
}

/// `book connect4`: solves and writes the book, with progress on standard
/// error and a summary (entries, bytes, seconds, nodes) on standard output.
fn connect4(args: Args) -> TaskResult {
    if args.from_pgn.is_some() {
        return Err("book connect4: --from-pgn is for chess (the connect-4 book is solved, not learned)".into());
    }
    let (width, height) = match (args.width, args.height, args.quick) {
        (w, h, true) => (w.unwrap_or(6), h.unwrap_or(4)),
        (w, h, false) => (w.unwrap_or(7), h.unwrap_or(6)),
    };
    let plies = args.plies.unwrap_or(if args.quick { 2 } else { 4 });
    let table_mib = args.table_mib.unwrap_or(if args.quick { 16 } else { 1024 });
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from(format!("connect4-{width}x{height}-p{plies}.c4book")));
    let known = match &args.checkpoint {
        Some(path) if path.exists() => read_checkpoint(path)?,
        _ => HashMap::new(),
    };
    let resumed = known.len();
    let mut checkpoint = match &args.checkpoint {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut write_error: Option<std::io::Error> = None;
    let start = Instant::now();
    let mut last = Instant::now();
    let build =
        BookBuild::new(width, height, plies).table_mib(table_mib).threads(usize::from(args.threads)).resume(known);
    let book = build.run(
        |p| {
            if p.done == p.total || last.elapsed().as_secs() >= 10 {
                last = Instant::now();
                eprintln!(
                    "book: ply {}: {}/{} positions ({resumed} from the checkpoint), {} nodes, {:.1} s",
                    p.ply,
                    p.done,
                    p.total,
                    p.nodes,
                    start.elapsed().as_secs_f64()
                );
            }
        },
        |key, score| {
            if let Some(file) = checkpoint.as_mut()
                && write_error.is_none()
                && let Err(e) = writeln!(file, "{key:x} {score}")
            {
                write_error = Some(e);
            }
        },
    )?;
    if let (Some(e), Some(path)) = (write_error, &args.checkpoint) {
        return Err(format!("{}: {e} (the book was built; the checkpoint is incomplete)", path.display()).into());
    }
    let seconds = start.elapsed().as_secs_f64();
    book.save(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{}: {width}×{height} book, positions up to {plies} plies: {} entries (mirror images merged), {} bytes, \
         built in {seconds:.1} s with a {}-MiB solver table",
        out.display(),
        book.len(),
        book.file_bytes(),
        table_mib
    );
    Ok(())
}

/// The scores a checkpoint file holds: `KEY SCORE` lines (the key in hex).
/// A last line without its newline (a run stopped while writing it) is
/// cut from the file, so that the next line appended starts clean; any
/// other malformed line is an error that names it.
fn read_checkpoint(path: &std::path::Path) -> Result<HashMap<u64, i32>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    if complete.len() < text.len() {
        let file =
            std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(complete.len() as u64).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut known = HashMap::new();
    for (i, line) in complete.lines().enumerate() {
        let bad = || format!("{}:{}: not `KEY SCORE` (hex key, integer score): {line:?}", path.display(), i + 1);
        let (key, score) = line.split_once(' ').ok_or_else(bad)?;
        let key = u64::from_str_radix(key, 16).map_err(|_| bad())?;
        let score: i32 = score.trim().parse().map_err(|_| bad())?;
        known.insert(key, score);
    }
    Ok(known)
}

/// `book chess`: a Polyglot book from the games of a PGN file.
fn chess(args: Args) -> TaskResult {
    if args.min_games == 0 {
        return Err("--min-games must be at least 1".into());
    }
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1 (0 would make an empty book)".into());
    }
    if args.quick
        || args.plies.is_some()
        || args.width.is_some()
        || args.height.is_some()
        || args.checkpoint.is_some()
        || args.threads != 1
    {
        return Err("book chess: --quick, --plies, --width, --height, --threads and --checkpoint are for connect4 \
                    (chess uses --max-plies)"
            .into());
    }
    let Some(pgn) = &args.from_pgn else {
        return Err("book chess: --from-pgn FILE is required".into());
    };
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("book.bin"));
    let path = pgn.display().to_string();
    let text = taskkit::read_text(pgn).map_err(|e| format!("{path}: {e}"))?;
    let games = games_chess::pgn::parse(&text).map_err(|e| format!("{path}:{e}"))?;
    if games.is_empty() {
        return Err(format!("{path}: no games").into());
    }
    let mut builder = BookBuilder::new(args.max_plies);
    let mut unscored = 0;
    for (k, game) in games.iter().enumerate() {
        let (fen, moves) = game.replay().map_err(|e| format!("{path}:{e} (game {})", k + 1))?;
        let result = game.result.as_deref().or(game.tag("Result"));
        let score = match result {
            Some("1-0") => Some(1.0),
            Some("0-1") => Some(0.0),
            Some("1/2-1/2") => Some(0.5),
            _ => None,
        };
        unscored += usize::from(score.is_none());
        let start = ChessGame::from_fen(&fen)?;
        builder.add_game(start.position(), &moves, score);
    }
    let book = Book::from_entries(builder.entries(args.min_games));
    let write = || -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&out)?);
        book.write_to(&mut w)?;
        std::io::Write::flush(&mut w)?;
        Ok(())
    };
    write().map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{}: {} entries from {} games ({} without a result), first {} plies, moves played in at least {} games",
        out.display(),
        book.len(),
        games.len(),
        unscored,
        args.max_plies,
        args.min_games
    );
    Ok(())
}
