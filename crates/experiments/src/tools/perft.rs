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

/// A game and its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Game {
    /// Tic-tac-toe.
    TicTacToe,
    /// Connect-4 on a `width × height` board.
    Connect4 {
        /// Columns of the board.
        width: usize,
        /// Rows of the board.
        height: usize,
    },
    /// Gobang.
    Gobang {
        /// Points per side of the board.
        size: usize,
        /// Candidate moves lie within this distance of a stone.
        radius: u8,
    },
    /// Chess, without the optional draw rules.
    Chess {
        /// The root position as a FEN (default: the initial position).
        fen: Option<String>,
    },
}

/// Arguments of `cargo xtask perft`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game and its settings.
    pub game: Game,
    /// Depth in plies (at most [`max_depth`] of the game).
    pub depth: u32,
}

/// The deepest perft accepted for `game`: the longest game of a small game
/// (9 plies for tic-tac-toe, the cells of the board for connect-4 and
/// gobang), [`MAX_CHESS_DEPTH`] for chess.
pub fn max_depth(game: &Game) -> u32 {
    let cells = |a: usize, b: usize| u32::try_from(a.saturating_mul(b)).unwrap_or(u32::MAX);
    match game {
        Game::TicTacToe => 9,
        Game::Connect4 { width, height } => cells(*width, *height),
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
    let depth = args.depth;
    match &args.game {
        Game::TicTacToe => {
            check_depth(&args.game, "tic-tac-toe", depth)?;
            small_game(&games_small::TicTacToe::new(), "tic-tac-toe", depth)
        }
        &Game::Connect4 { width, height } => {
            let board = games_small::Connect4::new(width, height)?;
            let name = format!("connect-4 {width}x{height}");
            check_depth(&args.game, &name, depth)?;
            small_game(&board, &name, depth)
        }
        &Game::Gobang { size, radius } => {
            let options = games_small::gobang::GobangOptions { size, radius, ..Default::default() };
            let board = games_small::Gobang::with_options(options)?;
            let name = format!("gobang {size}x{size} radius {radius}");
            check_depth(&args.game, &name, depth)?;
            small_game(&board, &name, depth)
        }
        Game::Chess { fen } => {
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

    fn perft(game: Game, depth: u32) -> Result<(), String> {
        run(Args { game, depth }).map_err(|e| e.to_string())
    }

    #[test]
    fn depths_beyond_the_maximum_are_errors() {
        // Used to recurse 20,000 plies deep and overflow the stack.
        let e = perft(Game::Chess { fen: None }, 20_000).unwrap_err();
        assert!(e.contains("at most 20 plies"), "{e}");
        let e = perft(Game::Chess { fen: None }, u32::MAX).unwrap_err();
        assert!(e.contains("at most 20 plies"), "{e}");
        let e = perft(Game::TicTacToe, 10).unwrap_err();
        assert!(e.contains("at most 9 plies"), "{e}");
        let e = perft(Game::Connect4 { width: 7, height: 6 }, 43).unwrap_err();
        assert!(e.contains("at most 42 plies"), "{e}");
        let e = perft(Game::Connect4 { width: 4, height: 4 }, 17).unwrap_err();
        assert!(e.contains("at most 16 plies"), "{e}");
        let e = perft(Game::Gobang { size: 5, radius: 1 }, 26).unwrap_err();
        assert!(e.contains("at most 25 plies"), "{e}");
        // A bad board is reported as such, not as a depth problem.
        let e = perft(Game::Connect4 { width: 100, height: 100 }, 3).unwrap_err();
        assert!(e.contains("width/height"), "{e}");
    }

    #[test]
    fn depths_up_to_the_maximum_run() {
        assert_eq!(max_depth(&Game::Chess { fen: None }), MAX_CHESS_DEPTH);
        perft(Game::TicTacToe, 9).unwrap();
        // 3 × 2 connect-4: the whole tree, 6 plies.
        perft(Game::Connect4 { width: 3, height: 2 }, 6).unwrap();
        perft(Game::Chess { fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()) }, 2).unwrap();
        perft(Game::Chess { fen: None }, 0).unwrap();
    }
}
