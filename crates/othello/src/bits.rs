//! Bitboard operations on the 36-bit board (bit `rank × 6 + file`).
//!
//! A step in one of the eight directions is a shift by 1 (along a rank),
//! 6 (along a file) or 5 / 7 (diagonals). Before a shift that moves along a
//! rank, the discs on the edge file it would leave through are masked off, so
//! that no line wraps from one rank into the next; bits shifted above bit 35
//! are masked off after a left shift.

use crate::{FILES, FULL};

/// The `a` file.
const FILE_A: u64 = {
    let mut m = 0;
    let mut r = 0;
    while r < crate::RANKS {
        m |= 1 << (r * FILES);
        r += 1;
    }
    m
};
/// The `f` file.
const FILE_F: u64 = FILE_A << (FILES - 1);
const NOT_A: u64 = FULL & !FILE_A;
const NOT_F: u64 = FULL & !FILE_F;

/// The four directions towards higher indices, as (shift, mask applied
/// before shifting): east, south (next rank), south-east, south-west.
const UP: [(u32, u64); 4] = [(1, NOT_F), (FILES as u32, FULL), (FILES as u32 + 1, NOT_F), (FILES as u32 - 1, NOT_A)];
/// The four directions towards lower indices: west, north, north-west,
/// north-east.
const DOWN: [(u32, u64); 4] = [(1, NOT_A), (FILES as u32, FULL), (FILES as u32 + 1, NOT_A), (FILES as u32 - 1, NOT_F)];

/// The four corners.
pub(crate) const CORNERS: u64 = sq(0, 0) | sq(5, 0) | sq(0, 5) | sq(5, 5);

/// For each corner: (the corner, its diagonal neighbour, the "X-square",
/// its two neighbours on the edges, the "C-squares").
pub(crate) const CORNER_NEIGHBOURS: [(u64, u64, u64); 4] = [
    (sq(0, 0), sq(1, 1), sq(1, 0) | sq(0, 1)),
    (sq(5, 0), sq(4, 1), sq(4, 0) | sq(5, 1)),
    (sq(0, 5), sq(1, 4), sq(1, 5) | sq(0, 4)),
    (sq(5, 5), sq(4, 4), sq(4, 5) | sq(5, 4)),
];

/// Every X-square (diagonal neighbour of a corner).
pub(crate) const X_SQUARES: u64 =
    CORNER_NEIGHBOURS[0].1 | CORNER_NEIGHBOURS[1].1 | CORNER_NEIGHBOURS[2].1 | CORNER_NEIGHBOURS[3].1;
/// Every C-square (edge neighbour of a corner).
pub(crate) const C_SQUARES: u64 =
    CORNER_NEIGHBOURS[0].2 | CORNER_NEIGHBOURS[1].2 | CORNER_NEIGHBOURS[2].2 | CORNER_NEIGHBOURS[3].2;

const fn sq(file: usize, rank: usize) -> u64 {
    1 << (rank * FILES + file)
}

/// The squares where the player owning `own` may place a disc against
/// `opp`: empty squares from which a line of one or more `opp` discs ends
/// in an `own` disc.
#[inline]
pub(crate) fn placements(own: u64, opp: u64) -> u64 {
    let empty = !(own | opp) & FULL;
    let mut moves = 0;
    // A line of opponent discs between an own disc and an empty square is
    // at most FILES - 2 = 4 long: one step to reach it, three to extend it.
    for &(s, m) in &UP {
        let mut run = ((own & m) << s) & opp;
        for _ in 0..FILES - 3 {
            run |= ((run & m) << s) & opp;
        }
        moves |= ((run & m) << s) & empty;
    }
    for &(s, m) in &DOWN {
        let mut run = ((own & m) >> s) & opp;
        for _ in 0..FILES - 3 {
            run |= ((run & m) >> s) & opp;
        }
        moves |= ((run & m) >> s) & empty;
    }
    moves
}

/// The `opp` discs that a disc placed on `bit` (an empty square) flips.
#[inline]
pub(crate) fn flips(own: u64, opp: u64, bit: u64) -> u64 {
    let mut flipped = 0;
    for &(s, m) in &UP {
        let mut line = 0;
        let mut x = ((bit & m) << s) & FULL;
        while x & opp != 0 {
            line |= x;
            x = ((x & m) << s) & FULL;
        }
        if x & own != 0 {
            flipped |= line;
        }
    }
    for &(s, m) in &DOWN {
        let mut line = 0;
        let mut x = (bit & m) >> s;
        while x & opp != 0 {
            line |= x;
            x = (x & m) >> s;
        }
        if x & own != 0 {
            flipped |= line;
        }
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(FILE_A.count_ones(), 6);
        assert_eq!(FILE_F, FILE_A << 5);
        assert_eq!(CORNERS, 1 | 1 << 5 | 1 << 30 | 1 << 35);
        assert_eq!(X_SQUARES.count_ones(), 4);
        assert_eq!(C_SQUARES.count_ones(), 8);
        assert_eq!(X_SQUARES & C_SQUARES, 0);
        assert_eq!((X_SQUARES | C_SQUARES) & CORNERS, 0);
    }

    #[test]
    fn no_wrap_along_ranks() {
        // Own disc on f1 (bit 5), opponent on a2 (bit 6), a3 empty: a1..f6
        // index order would make f1, a2 "adjacent" without the masks.
        let own = 1 << 5;
        let opp = 1 << 6;
        assert_eq!(placements(own, opp), 0);
        assert_eq!(flips(own, opp, 1 << 7), 0);
    }
}
