//! The `position` command: a starting position and the moves played from
//! it, checked move by move.

use search_core::{Game, GameError};
use shakmaty::Position;

use super::command::PositionBase;
use super::error::UciError;
use crate::ChessGame;

/// The position of a `position` command, or the first error: a bad FEN, or
/// a move that is malformed or illegal where it is played.
///
/// Moves are checked on the board only: a GUI may play on after a draw by
/// repetition or the fifty-move rule that nobody claimed.
pub fn build_position(base: &PositionBase, moves: &[String]) -> Result<ChessGame, UciError> {
    let mut g = match base {
        PositionBase::Startpos => ChessGame::startpos(),
        PositionBase::Fen(fen) => ChessGame::from_fen(fen).map_err(UciError::Fen)?,
    };
    for (index, text) in moves.iter().enumerate() {
        let refuse = |error| UciError::Move { index, mv: text.clone(), error };
        let mv = g.parse_move(text).map_err(refuse)?;
        if !g.position().is_legal(mv) {
            return Err(refuse(GameError::illegal(text.clone(), "not a legal move in this position")));
        }
        g.play(mv);
    }
    Ok(g)
}
