//! Piece-square tables, material included, for the middlegame and the
//! endgame, built at compile time from a few simple rules (centralisation,
//! pawn advancement, king shelter) rather than hand-typed numbers.
//!
//! Tables are from White's point of view, indexed by square (a1 = 0, b1 = 1,
//! ..., h8 = 63); a black piece on `sq` reads entry `sq ^ 56` (the square
//! mirrored to White's side) and counts negatively.

/// Material in centipawns, middlegame and endgame, by role (pawn ... king).
const MATERIAL: [(i32, i32); 6] = [(100, 115), (310, 290), (330, 315), (480, 530), (930, 970), (0, 0)];

/// Distance from the nearest edge along one axis: 0 (edge) to 3 (centre).
const fn edge_distance(x: i32) -> i32 {
    if x < 4 { x } else { 7 - x }
}

/// Positional bonus of `role` (0 = pawn ... 5 = king) on the square at
/// `file`, `rank` (0-based, White's view), as (middlegame, endgame).
const fn bonus(role: usize, file: i32, rank: i32) -> (i32, i32) {
    // 0 (corner) ..= 6 (the four centre squares).
    let centre = edge_distance(file) + edge_distance(rank);
    match role {
        // Pawns: worth more as they advance, more so in the endgame; central
        // pawns on ranks 3-5 control the centre.
        0 => {
            let advance = [0, 0, 4, 10, 20, 34, 55, 0][rank as usize];
            let central = if rank >= 2 && rank <= 4 {
                match file {
                    3 | 4 => 14,
                    2 | 5 => 5,
                    _ => 0,
                }
            } else {
                0
            };
            (advance + central, 2 * advance)
        }
        // Knights: strongly prefer the centre, dislike the rim.
        1 => (6 * centre - 20, 5 * centre - 16),
        // Bishops: mildly central, with a small bonus on the long diagonals.
        2 => {
            let long = if file == rank || file + rank == 7 { 6 } else { 0 };
            (3 * centre - 8 + long, 3 * centre - 9)
        }
        // Rooks: the seventh rank and the central files.
        3 => {
            let seventh = if rank == 6 { 16 } else { 0 };
            let central = if file == 3 || file == 4 { 5 } else { 0 };
            (seventh + central, if rank == 6 { 10 } else { 0 })
        }
        // Queens: slightly central, more so in the endgame.
        4 => (2 * centre - 6, 4 * centre - 12),
        // King: sheltered on the back rank (corners after castling) in the
        // middlegame, central and active in the endgame.
        _ => {
            let mg = if rank == 0 {
                [20, 28, 16, -2, -2, 16, 28, 20][file as usize]
            } else if rank == 1 {
                -8
            } else {
                -25 - 6 * rank
            };
            (mg, 9 * centre - 27)
        }
    }
}

/// Middlegame or endgame table: `[role][square]`, material included.
const fn build(endgame: bool) -> [[i32; 64]; 6] {
    let mut t = [[0; 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let (mg, eg) = bonus(role, (sq % 8) as i32, (sq / 8) as i32);
            let (mat_mg, mat_eg) = MATERIAL[role];
            t[role][sq] = if endgame { mat_eg + eg } else { mat_mg + mg };
            sq += 1;
        }
        role += 1;
    }
    t
}

/// Middlegame values, `[role - 1][square]` from White's view.
pub(crate) const MIDGAME: [[i32; 64]; 6] = build(false);
/// Endgame values, `[role - 1][square]` from White's view.
pub(crate) const ENDGAME: [[i32; 64]; 6] = build(true);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_left_right_symmetric_and_sensible() {
        for role in 0..6 {
            for sq in 0..64 {
                let mirrored = sq ^ 7;
                assert_eq!(MIDGAME[role][sq], MIDGAME[role][mirrored], "role {role} sq {sq}");
                assert_eq!(ENDGAME[role][sq], ENDGAME[role][mirrored]);
            }
        }
        // A knight on e4 beats a knight on a1; a pawn on e7 beats one on e2.
        assert!(MIDGAME[1][28] > MIDGAME[1][0]);
        assert!(ENDGAME[0][52] > ENDGAME[0][12]);
        // A castled king beats a wandering one in the middlegame only.
        assert!(MIDGAME[5][6] > MIDGAME[5][28]);
        assert!(ENDGAME[5][28] > ENDGAME[5][6]);
    }
}
