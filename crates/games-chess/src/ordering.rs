//! Move-ordering hints: MVV-LVA for captures, promotions high.

use shakmaty::{Move, Role};

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
}
