//! `cargo xtask book GAME --from-pgn FILE --out book.bin [--max-plies N]
//! [--min-games N]`: an opening book made from games. Chess only for now
//! (a Polyglot `.bin` book); other games are refused by name.

use std::path::PathBuf;

use games_chess::ChessGame;
use games_chess::polyglot::{Book, BookBuilder};

use crate::TaskResult;

/// Arguments of `cargo xtask book`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game (`chess`).
    pub game: String,
    /// The PGN file of games.
    pub from_pgn: PathBuf,
    /// Where the book is written.
    pub out: PathBuf,
    /// Plies of each game that enter the book.
    pub max_plies: usize,
    /// Moves played in fewer games are left out.
    pub min_games: u32,
}

/// Builds and writes the book; prints what went in.
pub fn run(args: Args) -> TaskResult {
    if args.game != "chess" {
        return Err(format!("book: unknown game {:?}: only `chess` (Polyglot books) is supported", args.game).into());
    }
    if args.min_games == 0 {
        return Err("--min-games must be at least 1".into());
    }
    let path = args.from_pgn.display().to_string();
    let text = std::fs::read_to_string(&args.from_pgn).map_err(|e| format!("{path}: {e}"))?;
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
    let mut w = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    book.write_to(&mut w)?;
    std::io::Write::flush(&mut w)?;
    println!(
        "{}: {} entries from {} games ({} without a result), first {} plies, moves played in at least {} games",
        args.out.display(),
        book.len(),
        games.len(),
        unscored,
        args.max_plies,
        args.min_games
    );
    Ok(())
}
