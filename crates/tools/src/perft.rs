//! `cargo xtask perft GAME DEPTH`.
//!
//! The depth is bounded for every game, so that no depth a user can ask for
//! recurses without end ([`search_core::perft`] recurses once per ply and
//! keeps one move buffer per ply): a small game's depth is at most its
//! longest game (deeper leaves do not exist), chess's at most
//! [`MAX_CHESS_DEPTH`].

use crate::TaskResult;

/// The deepest chess perft accepted, in plies. Perft 20 of any position
/// would take far longer than anyone waits; without the draw rules a chess
/// game has no length limit, so the bound is what keeps the recursion (one
/// stack frame and one move buffer per ply) small.
pub const MAX_CHESS_DEPTH: u32 = 20;

/// A game of `cargo xtask perft`, with its depth and its own options
/// (`perft connect4 5 --fen ...` is refused).
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum Game {
    /// Tic-tac-toe.
    #[command(name = "tictactoe")]
    TicTacToe {
        /// Depth in plies (at most 9).
        depth: u32,
    },
    /// Connect-4.
    #[command(name = "connect4")]
    Connect4 {
        /// Depth in plies (at most the cells of the board).
        depth: u32,
        /// Columns of the board.
        #[arg(long, default_value_t = 7)]
        width: usize,
        /// Rows of the board.
        #[arg(long, default_value_t = 6)]
        height: usize,
    },
    /// Gobang.
    #[command(name = "gobang")]
    Gobang {
        /// Depth in plies (at most the points of the board).
        depth: u32,
        /// Points per side of the board.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Candidate moves lie within this distance of a stone.
        #[arg(long, default_value_t = 2)]
        radius: u8,
    },
    /// Chess, without the optional draw rules (the published counts).
    #[command(name = "chess")]
    Chess {
        /// Depth in plies (at most 20).
        depth: u32,
        /// The root position as a FEN (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
    },
}

impl Game {
    /// The depth asked for, in plies.
    pub fn depth(&self) -> u32 {
        match *self {
            Game::TicTacToe { depth }
            | Game::Connect4 { depth, .. }
            | Game::Gobang { depth, .. }
            | Game::Chess { depth, .. } => depth,
        }
    }
}

/// Arguments of `cargo xtask perft`: `perft GAME DEPTH [OPTIONS]`, each
/// game with only its own options.
#[derive(Debug, Clone, clap::Args)]
#[command(subcommand_value_name = "GAME", subcommand_help_heading = "Games")]
pub struct Args {
    /// The game, its depth and its settings.
    #[command(subcommand)]
    pub game: Game,
}

/// The deepest perft accepted for `game` (whatever depth it asks for): the
/// longest game of a small game (9 plies for tic-tac-toe, the cells of the
/// board for connect-4 and gobang), [`MAX_CHESS_DEPTH`] for chess.
pub fn max_depth(game: &Game) -> u32 {
    let cells = |a: usize, b: usize| u32::try_from(a.saturating_mul(b)).unwrap_or(u32::MAX);
    match game {
        Game::TicTacToe { .. } => 9,
        Game::Connect4 { width, height, .. } => cells(*width, *height),
        Game::Gobang { size, .. } => cells(*size, *size),
        Game::Chess { .. } => MAX_CHESS_DEPTH,
    }
}

/// Errors unless `depth` is at most [`max_depth`] of `game` (`name` names
/// the game in the message).
fn check_depth(game: &Game, name: &str, depth: u32) -> TaskResult {
    let max = max_depth(game);
    if depth > max {
        let why = match game {
            Game::Chess { .. } => "the most this tool accepts",
            _ => "the longest game",
        };
        return Err(format!("depth {depth} is too deep for {name}: at most {max} plies ({why})").into());
    }
    Ok(())
}

pub fn run(args: Args) -> TaskResult {
    let depth = args.game.depth();
    match &args.game {
        Game::TicTacToe { .. } => {
            check_depth(&args.game, "tic-tac-toe", depth)?;
            small_game(&games_small::TicTacToe::new(), "tic-tac-toe", depth)
        }
        &Game::Connect4 { width, height, .. } => {
            let board = games_small::Connect4::new(width, height)?;
            let name = format!("connect-4 {width}x{height}");
            check_depth(&args.game, &name, depth)?;
            small_game(&board, &name, depth)
        }
        &Game::Gobang { size, radius, .. } => {
            let options = games_small::gobang::GobangOptions { size, radius, ..Default::default() };
            let board = games_small::Gobang::with_options(options)?;
            let name = format!("gobang {size}x{size} radius {radius}");
            check_depth(&args.game, &name, depth)?;
            small_game(&board, &name, depth)
        }
        Game::Chess { fen, .. } => {
            check_depth(&args.game, "chess", depth)?;
            chess(fen.as_deref(), depth)
        }
    }
}

/// Perft of a small game from `start`: a line of information, then the leaf
/// count alone as the last line.
fn small_game<G: search_core::Game>(start: &G, name: &str, depth: u32) -> TaskResult {
    let t = std::time::Instant::now();
    let leaves = search_core::perft(start, depth).map_err(|e| e.to_string())?;
    let secs = t.elapsed().as_secs_f64();
    println!("{name}, depth {depth}: {secs:.3} s, {:.1} M leaves/s", leaves as f64 / secs.max(1e-9) / 1e6);
    println!("{leaves}");
    Ok(())
}

/// Chess perft without the optional draw rules (`Rules::PERFT`: repetition,
/// fifty-move and insufficient-material draws would cut the tree), so the
/// count is the published one. Prints the count as the last line.
fn chess(fen: Option<&str>, depth: u32) -> TaskResult {
    use games_chess::{ChessGame, Rules};
    let game = match fen {
        Some(fen) => ChessGame::from_fen(fen)?,
        None => ChessGame::startpos(),
    };
    let game = game.with_rules(Rules::PERFT);
    println!("{}", search_core::perft(&game, depth).map_err(|e| e.to_string())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perft(game: Game) -> Result<(), String> {
        run(Args { game }).map_err(|e| e.to_string())
    }

    #[test]
    fn depths_beyond_the_maximum_are_errors() {
        // Used to recurse 20,000 plies deep and overflow the stack.
        let e = perft(Game::Chess { depth: 20_000, fen: None }).unwrap_err();
        assert!(e.contains("at most 20 plies"), "{e}");
        let e = perft(Game::Chess { depth: u32::MAX, fen: None }).unwrap_err();
        assert!(e.contains("at most 20 plies"), "{e}");
        let e = perft(Game::TicTacToe { depth: 10 }).unwrap_err();
        assert!(e.contains("at most 9 plies"), "{e}");
        let e = perft(Game::Connect4 { depth: 43, width: 7, height: 6 }).unwrap_err();
        assert!(e.contains("at most 42 plies"), "{e}");
        let e = perft(Game::Connect4 { depth: 17, width: 4, height: 4 }).unwrap_err();
        assert!(e.contains("at most 16 plies"), "{e}");
        let e = perft(Game::Gobang { depth: 26, size: 5, radius: 1 }).unwrap_err();
        assert!(e.contains("at most 25 plies"), "{e}");
        // A bad board is reported as such, not as a depth problem.
        let e = perft(Game::Connect4 { depth: 3, width: 100, height: 100 }).unwrap_err();
        assert!(e.contains("width/height"), "{e}");
    }

    #[test]
    fn depths_up_to_the_maximum_run() {
        assert_eq!(max_depth(&Game::Chess { depth: 0, fen: None }), MAX_CHESS_DEPTH);
        perft(Game::TicTacToe { depth: 9 }).unwrap();
        // 3 × 2 connect-4: the whole tree, 6 plies.
        perft(Game::Connect4 { depth: 6, width: 3, height: 2 }).unwrap();
        perft(Game::Chess { depth: 2, fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()) }).unwrap();
        perft(Game::Chess { depth: 0, fen: None }).unwrap();
    }
}
