//! Zobrist keys: `shakmaty`'s 64-bit keys (en passant counted only when an en
//! passant capture is legal, as the repetition rule wants), updated
//! incrementally for every kind of move.
//!
//! `shakmaty`'s own `update_zobrist_hash` declines king moves, castling-right
//! changes, double pawn pushes and every move after a double push; this
//! module uses the same key tables (`ZobristValue`) and handles them all, so
//! a full hash is needed only when a state is created.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, EnPassantMode, File, Move, Position, Rank, Role, Square};

/// The key of `pos` computed from scratch.
pub(crate) fn full_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The file of a legal en passant capture in `pos`, as `1 + file index`,
/// or 0 if there is none (one byte of state instead of a key).
#[inline]
pub(crate) fn ep_part(pos: &Chess) -> u8 {
    // `maybe_ep_square` is set only after a double push: the legal test
    // (which generates en passant moves) runs only then.
    if pos.maybe_ep_square().is_none() {
        return 0;
    }
    pos.legal_ep_square().map_or(0, |sq| 1 + sq.file() as u8)
}

/// The key of an en passant part from [`ep_part`] (0 for none).
#[inline]
pub(crate) fn ep_key(ep: u8) -> u64 {
    match ep {
        0 => 0,
        f => Zobrist64::zobrist_for_en_passant_file(File::new(u32::from(f - 1))).0,
    }
}

/// The castling-rights part of a key, from the rights as `shakmaty` keeps
/// them: the squares of the rooks that may still castle. In standard chess
/// they are corner squares: the first rank is White's, the a-file the queen
/// side.
#[inline]
fn castling_part(rights: Bitboard) -> u64 {
    let mut k = 0;
    for rook in rights {
        let color = if rook.rank() == Rank::First { Color::White } else { Color::Black };
        let side = CastlingSide::from_queen_side(rook.file() < File::E);
        k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
    }
    k
}

#[inline]
fn piece(sq: Square, role: Role, color: Color) -> u64 {
    Zobrist64::zobrist_for_piece(sq, role.of(color)).0
}

/// The key change of the pieces and the side to move for `mv` played by
/// `us` (castling rights and en passant are handled by [`play_keyed`]).
#[inline]
fn move_delta(mv: Move, us: Color) -> u64 {
    let them = !us;
    let mut k = Zobrist64::zobrist_for_white_turn().0;
    match mv {
        Move::Normal { role, from, capture, to, promotion } => {
            k ^= piece(from, role, us) ^ piece(to, promotion.unwrap_or(role), us);
            if let Some(victim) = capture {
                k ^= piece(to, victim, them);
            }
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            k ^= piece(from, Role::Pawn, us) ^ piece(to, Role::Pawn, us);
            k ^= piece(victim, Role::Pawn, them);
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            let rank = king.rank();
            k ^= piece(king, Role::King, us) ^ piece(rook, Role::Rook, us);
            k ^= piece(Square::from_coords(side.king_to_file(), rank), Role::King, us);
            k ^= piece(Square::from_coords(side.rook_to_file(), rank), Role::Rook, us);
        }
        // Drops do not exist in standard chess; the key is recomputed.
        Move::Put { .. } => {}
    }
    k
}

/// Plays the legal move `mv` on `pos` and returns the new key, given the
/// current `key` and its en passant part `ep` (from [`ep_part`]). Returns
/// `(new key, new en passant part)`.
#[inline]
pub(crate) fn play_keyed(pos: &mut Chess, key: u64, ep: u8, mv: Move) -> (u64, u8) {
    if let Move::Put { .. } = mv {
        pos.play_unchecked(mv);
        let new_ep = ep_part(pos);
        return (full_key(pos), new_ep);
    }
    let rights_before = pos.castles().castling_rights();
    let mut k = key ^ ep_key(ep) ^ move_delta(mv, pos.turn());
    pos.play_unchecked(mv);
    let rights_after = pos.castles().castling_rights();
    if rights_after != rights_before {
        k ^= castling_part(rights_before) ^ castling_part(rights_after);
    }
    let new_ep = ep_part(pos);
    (k ^ ep_key(new_ep), new_ep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_matches_full_on_special_moves() {
        // Castling both ways, a double push that allows en passant, the en
        // passant capture, a rook capture that removes a castling right, and
        // a promotion with capture.
        let cases: &[(&str, &[&str])] = &[
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["e1g1", "e8c8", "a1a8"]),
            ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", &["e2e4", "d4e3"]),
            ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a7b8q"]),
        ];
        for (fen, moves) in cases {
            let mut pos: Chess =
                fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
            let mut key = full_key(&pos);
            let mut ep = ep_part(&pos);
            for uci in *moves {
                let mv = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
                (key, ep) = play_keyed(&mut pos, key, ep, mv);
                assert_eq!(key, full_key(&pos), "{fen} after {uci}");
                assert_eq!(ep, ep_part(&pos));
            }
        }
    }
}
