//! `cargo xtask book GAME ...`: an opening book.
//!
//! - `book chess --from-pgn FILE [--out book.bin] [--max-plies N]
//!   [--min-games N]`: a Polyglot `.bin` book made from games (a PGN file,
//!   or a gzip-compressed one whose name ends in `.gz`).
//! - `book connect4 [--plies N] [--quick] [--width W --height H]
//!   [--table-mib M] [--out FILE]`: the exact score of every connect-4
//!   position with at most N discs, mirror images merged, made by the solver
//!   ([`games_small::solver::build_book`]) in the format of
//!   [`games_small::connect4::Book`] (docs/connect4-book.md). `--quick` makes
//!   a small book (6 × 4, 2 plies) in seconds, for CI.
//!
//! Other games are refused by name.

use std::path::PathBuf;
use std::time::Instant;

use games_chess::ChessGame;
use games_chess::polyglot::{Book, BookBuilder};

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
    let start = Instant::now();
    let mut last = Instant::now();
    let book = games_small::solver::build_book(width, height, plies, table_mib, |p| {
        if p.done == p.total || last.elapsed().as_secs() >= 10 {
            last = Instant::now();
            eprintln!(
                "book: ply {}: {}/{} positions, {} nodes, {:.1} s",
                p.ply,
                p.done,
                p.total,
                p.nodes,
                start.elapsed().as_secs_f64()
            );
        }
    })?;
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

/// `book chess`: a Polyglot book from the games of a PGN file.
fn chess(args: Args) -> TaskResult {
    if args.min_games == 0 {
        return Err("--min-games must be at least 1".into());
    }
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1 (0 would make an empty book)".into());
    }
    if args.quick || args.plies.is_some() || args.width.is_some() || args.height.is_some() {
        return Err(
            "book chess: --quick, --plies, --width and --height are for connect4 (chess uses --max-plies)".into()
        );
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
