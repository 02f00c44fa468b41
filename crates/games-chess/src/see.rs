//! Static exchange evaluation (SEE): what a capture wins or loses on its
//! destination square once both sides have recaptured there as well as they
//! can.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Move, Rank, Role, Square};

/// The piece values of the exchange, in centipawns, indexed by role
/// (pawn ... king). The king's value is larger than any material it could
/// win back, so a sequence never trades the king.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// The SEE value of `role`.
#[inline]
fn value(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

/// The longest exchange on one square: every piece of both sides once.
const MAX_EXCHANGE: usize = 33;

/// The static exchange value of `mv` on `board`, in centipawns, for the side
/// that plays it: the material it wins (positive), trades evenly (0) or
/// loses (negative) when, after it, the two sides take turns recapturing on
/// its destination square, each time with their least valuable attacker,
/// and each side may stop recapturing whenever going on would lose.
///
/// * Attackers behind other attackers on the same line (x-rays: a rook
///   behind a rook or queen, a bishop or queen behind a pawn or bishop)
///   join in once the piece in front of them has captured.
/// * En passant captures a pawn that is not on the destination square.
/// * A promotion, by the move itself or by a pawn recapturing on the last
///   rank, counts the new piece's value less the pawn's, and the new piece
///   is what stands on the square afterwards.
/// * The king recaptures only if the other side has no attacker left on
///   the square.
/// * Pins are ignored: a pinned piece recaptures as if it were free, so the
///   value can be wrong where a pin or a discovered check matters.
/// * A move that captures nothing and does not promote is worth what the
///   opponent can win by taking the moved piece (0 if it is safe there, a
///   negative value if it is hanging); castling is 0.
///
/// No allocation: the swap list is a fixed array on the stack.
///
/// ```
/// use games_chess::see::see;
/// use games_chess::ChessGame;
/// use search_core::Game;
/// use shakmaty::Position;
///
/// // A pawn takes a knight that a pawn defends: a knight for a pawn.
/// let g = ChessGame::from_fen("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1")?;
/// let mv = g.parse_move("e4d5")?;
/// assert_eq!(see(g.position().board(), mv), 320 - 100);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn see(board: &Board, mv: Move) -> i32 {
    let (from, to, role, captured, promotion, ep_victim) = match mv {
        Move::Normal { role, from, capture, to, promotion } => (from, to, role, capture, promotion, None),
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            (from, to, Role::Pawn, Some(Role::Pawn), None, Some(victim))
        }
        Move::Castle { .. } | Move::Put { .. } => return 0,
    };
    let Some(mover) = board.color_at(from) else {
        return 0;
    };
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    if let Some(victim) = ep_victim {
        occupied ^= Bitboard::from(victim);
    }
    // A move to an occupied square that names no capture cannot happen in a
    // legal position; value it by what it names.
    let mut gain = [0i32; MAX_EXCHANGE];
    gain[0] = captured.map_or(0, value);
    // The value of the piece now standing on `to`.
    let mut on_square = match promotion {
        Some(p) => {
            gain[0] += value(p) - value(Role::Pawn);
            value(p)
        }
        None => value(role),
    };
    let promotes_on_to = matches!(to.rank(), Rank::First | Rank::Eighth);
    let mut side = !mover;
    let mut depth = 0;
    while depth + 1 < MAX_EXCHANGE {
        let attackers = attackers_to(board, to, side, occupied);
        let Some((sq, role)) = least_valuable(board, attackers) else {
            break;
        };
        if role == Role::King && !attackers_to(board, to, !side, occupied ^ Bitboard::from(sq)).is_empty() {
            // The king cannot capture into the other side's attack.
            break;
        }
        depth += 1;
        // Speculative: what `side` has if it takes and the exchange stops.
        gain[depth] = on_square - gain[depth - 1];
        on_square = value(role);
        if role == Role::Pawn && promotes_on_to {
            gain[depth] += value(Role::Queen) - value(Role::Pawn);
            on_square = value(Role::Queen);
        }
        occupied ^= Bitboard::from(sq);
        side = !side;
    }
    // Each side chooses between stopping (the negated gain before its
    // capture) and capturing.
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// Whether `mv`'s static exchange value is at least `threshold` ([`see`]).
///
/// A capture that is not a promotion is worth at least the victim less the
/// capturing piece (its side can always stop after the first recapture), so
/// when that reaches `threshold` the answer is known without the exchange
/// (a pawn or a minor piece taking a piece of at least its value, for
/// `threshold = 0`).
///
/// ```
/// use games_chess::see::see_at_least;
/// use games_chess::ChessGame;
/// use search_core::Game;
/// use shakmaty::Position;
///
/// // The queen takes a pawn that a pawn defends: a losing capture.
/// let g = ChessGame::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")?;
/// let mv = g.parse_move("d2d5")?;
/// assert!(!see_at_least(g.position().board(), mv, 0));
/// # Ok::<(), search_core::GameError>(())
/// ```
#[inline]
pub fn see_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    let floor = match mv {
        Move::Normal { role, capture: Some(victim), promotion: None, .. } => value(victim) - value(role),
        Move::EnPassant { .. } => 0,
        _ => i32::MIN,
    };
    floor >= threshold || see(board, mv) >= threshold
}

/// The pieces of `side` still in `occupied` that attack `sq` through it.
#[inline]
fn attackers_to(board: &Board, sq: Square, side: Color, occupied: Bitboard) -> Bitboard {
    let sliders = (attacks::rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(sq, occupied) & board.bishops_and_queens());
    let steppers = (attacks::knight_attacks(sq) & board.knights())
        | (attacks::king_attacks(sq) & board.kings())
        | (attacks::pawn_attacks(!side, sq) & board.pawns());
    (sliders | steppers) & board.by_color(side) & occupied
}

/// The least valuable piece among `attackers`, with its square.
#[inline]
fn least_valuable(board: &Board, attackers: Bitboard) -> Option<(Square, Role)> {
    Role::ALL.into_iter().find_map(|role| (attackers & board.by_role(role)).first().map(|sq| (sq, role)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ChessGame;
    use search_core::Game;
    use shakmaty::Position;

    /// The SEE of the UCI move `uci` in `fen`.
    fn see_of(fen: &str, uci: &str) -> i32 {
        let g = ChessGame::from_fen(fen).unwrap();
        let mv = g.parse_move(uci).unwrap();
        see(g.position().board(), mv)
    }

    const P: i32 = 100;
    const N: i32 = 320;
    const B: i32 = 330;
    const R: i32 = 500;
    const Q: i32 = 900;

    #[test]
    fn undefended_and_defended_captures() {
        // Rook takes an undefended pawn.
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), P);
        // Knight takes a pawn defended by a pawn: loses the knight for it.
        assert_eq!(see_of("4k3/8/5p2/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5"), P - N);
        // Equal trade: knight takes a knight that a pawn defends.
        assert_eq!(see_of("4k3/8/5p2/4n3/8/3N4/8/4K3 w - - 0 1", "d3e5"), 0);
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // Doubled rooks against one defending rook: Rxd7 Rxd7 Rxd7 wins the
        // pawn and a rook for a rook.
        assert_eq!(see_of("3r2k1/3p4/8/8/8/8/3R4/3R2K1 w - - 0 1", "d2d7"), P);
        // Without the second rook, the rook is lost for the pawn.
        assert_eq!(see_of("3r2k1/3p4/8/8/8/8/3R4/6K1 w - - 0 1", "d2d7"), P - R);
        // A queen behind a bishop on the long diagonal: Bxf6 gxf6 Qxf6
        // (the king on g8 does not reach f6): knight and pawn for the bishop.
        assert_eq!(see_of("6k1/6p1/5n2/8/8/8/1B6/Q5K1 w - - 0 1", "b2f6"), N - B + P);
        // Two black rooks on the d-file hold d5 against two white rooks;
        // with one white rook the exchange wins the pawn.
        assert_eq!(see_of("3r2k1/3r4/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5"), P - R);
        assert_eq!(see_of("6k1/3r4/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5"), P);
    }

    #[test]
    fn king_recaptures_only_when_safe() {
        // The king defends the pawn alone: Rxe7 Kxe7.
        assert_eq!(see_of("8/4pk2/8/8/8/8/8/K3R3 w - - 0 1", "e1e7"), P - R);
        // A second rook behind covers e7: the king may not recapture.
        assert_eq!(see_of("8/4pk2/8/8/8/8/4R3/K3R3 w - - 0 1", "e2e7"), P);
    }

    #[test]
    fn en_passant() {
        // exd6 e.p., the d6 square defended by the c7 pawn: pawn for pawn.
        assert_eq!(see_of("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 0);
        // Undefended: a clean pawn.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), P);
        // The rook on d8 recaptures: pawn for pawn.
        assert_eq!(see_of("3rk3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 0);
        // The captured pawn leaves d5, so the rook on d1 now covers d6
        // through it: exd6 Rxd6 Rxd6 wins a pawn.
        assert_eq!(see_of("3rk3/8/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6"), P);
    }

    #[test]
    fn promotions() {
        // A quiet promotion to an undefended square: a queen for a pawn.
        assert_eq!(see_of("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), Q - P);
        // The rook on h8 takes the new queen: the pawn is lost.
        assert_eq!(see_of("7r/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), -P);
        // bxa8=Q, and the knight on b6 takes the queen: a rook for the pawn.
        assert_eq!(see_of("r3k3/1P6/1n6/8/8/8/8/4K3 w - - 0 1", "b7a8q"), R - P);
        // axb1=Q, Rxb1: a knight for the pawn.
        assert_eq!(see_of("4k3/8/8/8/8/8/p5K1/1N5R b - - 0 1", "a2b1q"), N - P);
        // Rxb1 taking a knight, and the a2 pawn recaptures, promoting.
        assert_eq!(see_of("4k3/8/8/8/8/8/p5K1/1n5R w - - 0 1", "h1b1"), N - R - (Q - P));
    }

    #[test]
    fn see_at_least_agrees_with_see() {
        for (fen, uci) in [
            ("4k3/8/5p2/4n3/8/3N4/8/4K3 w - - 0 1", "d3e5"),
            ("4k3/8/5p2/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5"),
            ("3r2k1/3r4/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5"),
            ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
            ("7r/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"),
        ] {
            let g = ChessGame::from_fen(fen).unwrap();
            let mv = g.parse_move(uci).unwrap();
            let v = see(g.position().board(), mv);
            for t in [-500, -100, 0, 1, 100, 500] {
                assert_eq!(see_at_least(g.position().board(), mv, t), v >= t, "{fen} {uci} {t}");
            }
        }
    }

    #[test]
    fn quiet_moves_and_castling() {
        // A safe quiet move is 0; a knight moved onto a pawn-attacked square
        // loses the knight.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "b1c3"), 0);
        assert_eq!(see_of("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1c3"), -N);
        assert_eq!(see_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
    }
}
