//! `cargo xtask perft GAME DEPTH`.

use crate::TaskResult;

/// Arguments of `cargo xtask perft`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// Depth in plies.
    pub depth: u32,
    /// Chess only: the root position as a FEN (default: the initial position).
    pub fen: Option<String>,
    /// Connect-4 only: columns of the board.
    pub width: usize,
    /// Connect-4 only: rows of the board.
    pub height: usize,
    /// Gobang only: points per side of the board.
    pub size: usize,
    /// Gobang only: candidate moves lie within this distance of a stone.
    pub radius: u8,
}

pub fn run(args: Args) -> TaskResult {
    if args.game == "chess" {
        return chess(&args);
    }
    // Small games (games-small); the chess arm is above.
    match args.game.as_str() {
        "tictactoe" => small_game(&games_small::TicTacToe::new(), "tic-tac-toe", args.depth),
        "connect4" => {
            let board = games_small::Connect4::new(args.width, args.height)?;
            small_game(&board, &format!("connect-4 {}x{}", args.width, args.height), args.depth)
        }
        "gobang" => {
            let options =
                games_small::gobang::GobangOptions { size: args.size, radius: args.radius, ..Default::default() };
            let board = games_small::Gobang::with_options(options)?;
            let name = format!("gobang {0}x{0} radius {1}", args.size, args.radius);
            small_game(&board, &name, args.depth)
        }
        other => Err(format!("unknown game {other:?}: expected tictactoe, connect4, gobang or chess").into()),
    }
}

/// Perft of a small game from `start`: a line of information, then the leaf
/// count alone as the last line.
fn small_game<G: search_core::Game>(start: &G, name: &str, depth: u32) -> TaskResult {
    let t = std::time::Instant::now();
    let leaves = search_core::perft(start, depth);
    let secs = t.elapsed().as_secs_f64();
    println!("{name}, depth {depth}: {secs:.3} s, {:.1} M leaves/s", leaves as f64 / secs.max(1e-9) / 1e6);
    println!("{leaves}");
    Ok(())
}

/// Chess perft without the optional draw rules (`Rules::PERFT`: repetition,
/// fifty-move and insufficient-material draws would cut the tree), so the
/// count is the published one. Prints the count as the last line.
fn chess(args: &Args) -> TaskResult {
    use games_chess::{ChessGame, Rules};
    let game = match &args.fen {
        Some(fen) => ChessGame::from_fen(fen)?,
        None => ChessGame::startpos(),
    };
    let game = game.with_rules(Rules::PERFT);
    println!("{}", search_core::perft(&game, args.depth));
    Ok(())
}
