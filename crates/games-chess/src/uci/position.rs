//! The `position` command: a starting position and the moves played from
//! it, checked move by move.

use search_core::{Game, GameError};

use super::command::PositionBase;
use super::error::UciError;
use crate::{ChessGame, notation};

/// The position of a `position` command, or the first error: a bad FEN, or
/// a move that is malformed or illegal where it is played. On an error the
/// engine keeps its previous position.
///
/// Moves must be in strict UCI notation, exactly as the protocol writes
/// them (`e2e4`, `e7e8q`, castling as `e1g1`; see Stockfish's `to_move`):
/// SAN, the Chess960 castling form `e1h1` and null moves are refused. Moves
/// are checked on the board only: a GUI may play on after a draw by
/// repetition or the fifty-move rule that nobody claimed.
///
/// ```
/// use games_chess::uci::{PositionBase, UciError, build_position};
/// let g = build_position(&PositionBase::Startpos, &["e2e4".into(), "e7e5".into()])?;
/// assert_eq!(g.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
/// assert!(matches!(build_position(&PositionBase::Startpos, &["Nf3".into()]), Err(UciError::Move { .. })));
/// # Ok::<(), UciError>(())
/// ```
pub fn build_position(base: &PositionBase, moves: &[String]) -> Result<ChessGame, UciError> {
    let mut g = match base {
        PositionBase::Startpos => ChessGame::startpos(),
        PositionBase::Fen(fen) => ChessGame::from_fen(fen).map_err(UciError::Fen)?,
    };
    for (index, text) in moves.iter().enumerate() {
        let refuse = |error| UciError::Move { index, mv: GameError::shorten(text), error };
        let mv = notation::parse_uci_strict(g.position(), text).map_err(|e| refuse(shorten_error(e)))?;
        g.play(mv);
    }
    Ok(g)
}

/// `e` with the input it quotes shortened (an illegal "move" may be a
/// whole 50 MB line).
fn shorten_error(e: GameError) -> GameError {
    match e {
        GameError::IllegalMove { mv, reason } => GameError::IllegalMove { mv: GameError::shorten(&mv), reason },
        other => other,
    }
}
