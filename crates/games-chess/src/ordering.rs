//! Move-ordering hints: MVV-LVA for captures, promotions high; and the
//! engine's variant, which moves the captures that static exchange
//! evaluation says lose material behind the quiet moves.

use shakmaty::{Board, Move, Role};

use crate::see;

/// Ordering value of a role for MVV-LVA: pawn 1 ... king 6.
#[inline]
fn rank_of(role: Role) -> i32 {
    role as i32
}

/// The ordering hint of `mv` (larger first):
///
/// * queen promotions: 3000 (+ the capture score below if they capture);
/// * captures: 1000 + 10 × victim − attacker (pawn 1 ... king 6), so the
///   most valuable victim comes first and, among equal victims, the least
///   valuable attacker; en passant is pawn takes pawn;
/// * knight promotions: 500; quiet moves and castling: 0;
/// * rook and bishop under-promotions: −100 (almost never better than the
///   queen).
#[inline]
pub(crate) fn hint(mv: Move) -> i32 {
    let capture = match mv {
        Move::Normal { role, capture: Some(victim), .. } => 1000 + 10 * rank_of(victim) - rank_of(role),
        Move::EnPassant { .. } => 1000 + 10 * rank_of(Role::Pawn) - rank_of(Role::Pawn),
        _ => 0,
    };
    let promotion = match mv.promotion() {
        Some(Role::Queen) => 3000,
        Some(Role::Knight) => 500,
        Some(_) => -100,
        None => 0,
    };
    capture + promotion
}

/// The hint of a capture or promotion that loses material by static
/// exchange evaluation, before its MVV-LVA part: below every quiet move
/// (hint 0, which killers and history order among themselves) and below the
/// under-promotions.
const LOSING: i32 = -2000;

/// The engine's ordering hint of `mv` on `board` (larger first): as
/// [`hint`], except that a capture or promotion whose static exchange value
/// ([`see::see`]) is negative gets `−2000 + 10 × victim − attacker`, so it
/// is tried after the quiet moves and killers; captures that win or trade
/// evenly keep their MVV-LVA place. Quiet moves cost nothing extra.
#[inline]
pub(crate) fn see_hint(board: &Board, mv: Move) -> i32 {
    let h = hint(mv);
    if h <= 0 || see::see_at_least(board, mv, 0) {
        return h;
    }
    let mvv_lva = match mv {
        Move::Normal { role, capture: Some(victim), .. } => 10 * rank_of(victim) - rank_of(role),
        _ => 0,
    };
    LOSING + mvv_lva
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn normal(role: Role, capture: Option<Role>, promotion: Option<Role>) -> Move {
        Move::Normal { role, from: Square::E2, capture, to: Square::E4, promotion }
    }

    #[test]
    fn mvv_lva_order() {
        let pxq = hint(normal(Role::Pawn, Some(Role::Queen), None));
        let qxq = hint(normal(Role::Queen, Some(Role::Queen), None));
        let pxr = hint(normal(Role::Pawn, Some(Role::Rook), None));
        let qxp = hint(normal(Role::Queen, Some(Role::Pawn), None));
        let quiet = hint(normal(Role::Knight, None, None));
        let promo = hint(normal(Role::Pawn, None, Some(Role::Queen)));
        let under = hint(normal(Role::Pawn, None, Some(Role::Rook)));
        assert!(promo > pxq && pxq > qxq && qxq > pxr && pxr > qxp && qxp > quiet);
        assert!(quiet > under);
        let ep = hint(Move::EnPassant { from: Square::E5, to: Square::D6 });
        assert_eq!(ep, hint(normal(Role::Pawn, Some(Role::Pawn), None)));
    }

    #[test]
    fn losing_captures_go_after_quiet_moves() {
        use crate::ChessGame;
        use search_core::Game;
        use shakmaty::Position;
        // White: Qxd5 loses the queen for a pawn (c6 defends); exd5 wins it.
        let g = ChessGame::from_fen("4k3/8/2p5/3p4/4P3/8/3Q4/4K3 w - - 0 1").unwrap();
        let board = g.position().board();
        let h = |uci: &str| see_hint(board, g.parse_move(uci).unwrap());
        assert!(h("e4d5") > 1000);
        assert_eq!(h("e4d5"), hint(g.parse_move("e4d5").unwrap()));
        assert!(h("d2d5") < h("d2d3") && h("d2d3") == 0);
        assert!(h("d2d5") < -1000);
    }
}
