//! What the tablebase tests share: random placements of a few pieces, as
//! FEN.

use search_core::RngExt;

/// A FEN with `letters` (upper case white) on distinct random squares and
/// a random side to move, drawn from `rng`; not checked for legality.
pub(crate) fn random_fen(rng: &mut search_core::rng::Rng, letters: &str) -> String {
    let mut board = [['.'; 8]; 8];
    for c in letters.chars() {
        loop {
            let s = rng.random_range(0..64usize);
            if board[s / 8][s % 8] == '.' {
                board[s / 8][s % 8] = c;
                break;
            }
        }
    }
    let stm = if rng.random_bool(0.5) { "w" } else { "b" };
    format!("{} {stm} - - 0 1", placement(&board))
}

/// The FEN placement field of `board` (`board[rank][file]`, rank 0 first,
/// `'.'` for an empty square).
pub(crate) fn placement(board: &[[char; 8]; 8]) -> String {
    let mut out = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for &c in &board[r] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    out
}
