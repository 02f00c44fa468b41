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
/// The syntax is checked strictly first ([`check_fen_syntax`]), because
/// `shakmaty`'s own parser is lenient (it reads `215` as a rank of eight
/// squares, `KQkqq` as castling rights, `_` as a separator, and variant
/// fields such as pockets and remaining checks).
///
/// Errors are [`GameError::Parse`] with `what = "FEN"` and the byte offset
/// of the offending field (or character); the input is quoted
/// [shortened](GameError::shorten).
pub(crate) fn parse_fen(text: &str) -> Result<Chess, GameError> {
    check_fen_syntax(text).map_err(|(at, reason)| GameError::parse("FEN", text, at, reason))?;
    // The fields, joined by single spaces: the syntax check splits on any
    // ASCII whitespace, `shakmaty` only on spaces.
    let normal = text.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    let fen = Fen::from_ascii(normal.as_bytes()).map_err(|e| {
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

/// Checks the syntax of a standard-chess FEN, field by field, and returns
/// the byte offset and the reason of the first error:
///
/// * 4 to 6 fields separated by whitespace: the piece placement, the side
///   to move, the castling rights, the en passant square, then optionally
///   the halfmove clock and the fullmove number (EPD-style FENs without the
///   clocks are accepted, as by most engines);
/// * the placement: exactly 8 ranks separated by `/`, each of exactly 8
///   squares written with the letters `PNBRQK` / `pnbrqk` and the digits
///   `1`–`8`, never two digits in a row (`215` is not a rank);
/// * the side to move: `w` or `b`;
/// * castling: `-`, or one to four distinct letters among `KQkq` (no
///   repetition such as `KQkqq`, no Shredder/X-FEN file letters);
/// * en passant: `-` or a square on the third or sixth rank;
/// * the clocks: decimal digits only, each fitting in 32 bits (a fullmove
///   number of 0, which some tools write, reads as 1).
///
/// Whether the position itself is legal (kings, checks, castling rooks, en
/// passant pawn) is left to `shakmaty`.
pub(crate) fn check_fen_syntax(text: &str) -> Result<(), (usize, &'static str)> {
    let mut fields = Vec::with_capacity(6);
    for (index, field) in text.split_ascii_whitespace().enumerate() {
        if index == 6 {
            return Err((field_offset(text, 6), "unexpected text after the fullmove number"));
        }
        fields.push(field);
    }
    if fields.len() < 4 {
        return Err((text.len(), "expected at least 4 fields: placement, side to move, castling, en passant"));
    }
    let at = |i: usize| field_offset(text, i);
    check_placement(fields[0]).map_err(|(i, reason)| (at(0) + i, reason))?;
    if !matches!(fields[1], "w" | "b") {
        return Err((at(1), "side to move must be `w` or `b`"));
    }
    let castling = fields[2];
    if castling != "-" {
        let bytes = castling.as_bytes();
        if bytes.len() > 4 || !bytes.iter().all(|c| b"KQkq".contains(c)) {
            return Err((at(2), "castling rights must be `-` or letters among `KQkq`"));
        }
        if (1..bytes.len()).any(|i| bytes[..i].contains(&bytes[i])) {
            return Err((at(2), "a castling right is repeated"));
        }
    }
    let ep = fields[3].as_bytes();
    if fields[3] != "-" && !(ep.len() == 2 && (b'a'..=b'h').contains(&ep[0]) && matches!(ep[1], b'3' | b'6')) {
        return Err((at(3), "en passant square must be `-` or a square on rank 3 or 6"));
    }
    for (i, what) in [(4, "halfmove clock must be a number"), (5, "fullmove number must be a number")] {
        if let Some(field) = fields.get(i)
            && !(field.bytes().all(|c| c.is_ascii_digit()) && field.parse::<u32>().is_ok())
        {
            return Err((at(i), what));
        }
    }
    Ok(())
}

/// The piece placement field: 8 ranks of 8 squares. Returns the offset of
/// the first bad character within the field.
fn check_placement(board: &str) -> Result<(), (usize, &'static str)> {
    let (mut ranks, mut squares, mut after_digit) = (1, 0u32, false);
    for (i, c) in board.bytes().enumerate() {
        match c {
            b'/' => {
                if squares != 8 {
                    return Err((i, "a rank must have exactly 8 squares"));
                }
                ranks += 1;
                if ranks > 8 {
                    return Err((i, "more than 8 ranks"));
                }
                squares = 0;
                after_digit = false;
            }
            b'1'..=b'8' => {
                if after_digit {
                    return Err((i, "two digits in a row in a rank"));
                }
                squares += u32::from(c - b'0');
                after_digit = true;
            }
            b'P' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'p' | b'n' | b'b' | b'r' | b'q' | b'k' => {
                squares += 1;
                after_digit = false;
            }
            _ => return Err((i, "unexpected character in the piece placement")),
        }
        if squares > 8 {
            return Err((i, "a rank must have exactly 8 squares"));
        }
    }
    if ranks != 8 || squares != 8 {
        return Err((board.len(), "expected 8 ranks of 8 squares"));
    }
    Ok(())
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
        return uci
            .to_move(pos)
            .map_err(|_| GameError::illegal(GameError::shorten(t), "not a legal move in this position"));
    }
    match SanPlus::from_ascii(t.as_bytes()) {
        Ok(san) => san.san.to_move(pos).map_err(|e| GameError::illegal(GameError::shorten(t), e.to_string())),
        Err(_) => Err(GameError::parse("move", t, 0, "expected UCI (e2e4, e7e8q) or SAN (Nf3, exd5, O-O)")),
    }
}

/// Parses `text` as a legal move of `pos` in strict UCI notation, as the
/// protocol's `position … moves` list has it: the move must be exactly the
/// UCI form of one of the legal moves (`e2e4`, `e7e8q`, castling as the
/// king's two-square move `e1g1`), as Stockfish checks it. Only the
/// promotion letter may be upper case (`e7e8Q`). SAN (`Nf3`), the king
/// taking its own rook (`e1h1`, Chess960 notation), null moves (`0000`) and
/// drops are refused.
///
/// Errors: [`GameError::Parse`] for text that is not UCI notation at all,
/// [`GameError::IllegalMove`] for a well-formed move that is not legal here
/// (or a game that has no legal move left).
pub(crate) fn parse_uci_strict(pos: &Chess, text: &str) -> Result<Move, GameError> {
    let b = text.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    let shaped = matches!(b.len(), 4 | 5)
        && file(b[0])
        && rank(b[1])
        && file(b[2])
        && rank(b[3])
        && b.get(4).is_none_or(|c| b"nbrqNBRQ".contains(c));
    if !shaped {
        return Err(GameError::parse("move", text, 0, "expected a move in UCI notation (e2e4, e7e8q)"));
    }
    let lower = text.to_ascii_lowercase();
    let wanted = UciMove::from_ascii(lower.as_bytes())
        .map_err(|_| GameError::parse("move", text, 0, "expected a move in UCI notation (e2e4, e7e8q)"))?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(GameError::illegal(text, "the game is over: no legal move"));
    }
    legal
        .iter()
        .find(|m| m.to_uci(CastlingMode::Standard) == wanted)
        .copied()
        .ok_or_else(|| GameError::illegal(text, "not a legal move in this position"))
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
