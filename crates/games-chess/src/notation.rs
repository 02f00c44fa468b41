//! Text formats: FEN for positions, UCI (and SAN on input) for moves, all
//! with typed errors.

use std::fmt;

use search_core::GameError;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, PositionError};

/// Parses a FEN into a standard-chess position. Positions that cannot arise
/// in a game but are well defined for move generation (impossibly many or
/// aligned checkers, too much material: some perft-suite positions) are
/// accepted; broken ones (missing king, side not to move in check, pawns on
/// the back rank, impossible castling rights or en passant square) are not.
///
/// Errors are [`GameError::Parse`] with `what = "FEN"` and, for a malformed
/// field, the byte offset of that field.
pub(crate) fn parse_fen(text: &str) -> Result<Chess, GameError> {
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| {
        let (field, reason) = match e {
            ParseFenError::InvalidFen => (0, "malformed FEN"),
            ParseFenError::InvalidBoard | ParseFenError::InvalidPocket => (0, "invalid piece placement"),
            ParseFenError::InvalidTurn => (1, "side to move must be `w` or `b`"),
            ParseFenError::InvalidCastling => (2, "invalid castling rights"),
            ParseFenError::InvalidEpSquare => (3, "invalid en passant square"),
            ParseFenError::InvalidRemainingChecks => (4, "remaining checks are not standard chess"),
            ParseFenError::InvalidHalfmoveClock => (4, "invalid halfmove clock"),
            ParseFenError::InvalidFullmoves => (5, "invalid fullmove number"),
        };
        GameError::parse("FEN", text, field_offset(text, field), reason)
    })?;
    fen.into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .map_err(|e| GameError::parse("FEN", text, 0, e.to_string()))
}

/// Byte offset of the `index`-th whitespace-separated field of `text` (the
/// end of the text if there are fewer fields).
fn field_offset(text: &str, index: usize) -> usize {
    let mut in_field = false;
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if c.is_ascii_whitespace() {
            in_field = false;
        } else if !in_field {
            if seen == index {
                return i;
            }
            seen += 1;
            in_field = true;
        }
    }
    text.len()
}

/// Parses `text` as a legal move of `pos`: UCI first (`e2e4`, `e7e8q`,
/// castling as the king's move `e1g1`), then SAN (`Nf3`, `exd5`, `O-O`,
/// `e8=Q+`).
pub(crate) fn parse_move(pos: &Chess, text: &str) -> Result<Move, GameError> {
    let t = text.trim();
    if let Ok(uci) = UciMove::from_ascii(t.as_bytes()) {
        return uci.to_move(pos).map_err(|_| GameError::illegal(t, "not a legal move in this position"));
    }
    match SanPlus::from_ascii(t.as_bytes()) {
        Ok(san) => san.san.to_move(pos).map_err(|e| GameError::illegal(t, e.to_string())),
        Err(_) => Err(GameError::parse("move", t, 0, "expected UCI (e2e4, e7e8q) or SAN (Nf3, exd5, O-O)")),
    }
}

/// Writes `mv` in UCI notation (standard castling: `e1g1`).
pub(crate) fn write_uci(mv: Move, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    fmt::Display::fmt(&mv.to_uci(CastlingMode::Standard), f)
}

/// The FEN of `pos` (en passant square only when a capture is legal).
pub(crate) fn fen(pos: &Chess) -> Fen {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
}

/// An 8 × 8 diagram of `pos`, rank 8 on top, `.` for an empty square.
pub(crate) fn write_diagram(pos: &Chess, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    use shakmaty::{File, Rank, Square};
    for rank in Rank::ALL.into_iter().rev() {
        for file in File::ALL {
            let c = pos.board().piece_at(Square::from_coords(file, rank)).map_or('.', |p| p.char());
            write!(f, "{c}")?;
            if file != File::H {
                f.write_str(" ")?;
            }
        }
        writeln!(f)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_errors_point_at_the_field() {
        let bad_turn = "8/8/8/8/8/8/8/k6K x - - 0 1";
        match parse_fen(bad_turn) {
            Err(GameError::Parse { what: "FEN", position, .. }) => assert_eq!(position, 18),
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(parse_fen("banana"), Err(GameError::Parse { .. })));
        // Syntactically fine, but both kings missing.
        assert!(matches!(parse_fen("8/8/8/8/8/8/8/8 w - - 0 1"), Err(GameError::Parse { .. })));
    }

    #[test]
    fn field_offsets() {
        assert_eq!(field_offset("ab  cd e", 0), 0);
        assert_eq!(field_offset("ab  cd e", 1), 4);
        assert_eq!(field_offset("ab  cd e", 2), 7);
        assert_eq!(field_offset("ab", 3), 2);
    }
}
