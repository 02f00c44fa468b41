//! Arbitrary strings never make a parser panic: they parse or give a typed error.

use games_small::{Connect4, Gobang, TicTacToe};
use rand::Rng as _;
use search_core::{Game, rng};

const ALPHABET: &[&str] =
    &["a", "b", "c", "h", "o", "p", "z", "1", "3", "8", "9", "0", "15", "16", " ", ",", "é", "∞", "-", "A"];

fn random_string(r: &mut search_core::rng::Rng) -> String {
    (0..r.random_range(0..12)).map(|_| ALPHABET[r.random_range(0..ALPHABET.len())]).collect()
}

#[test]
fn random_strings_give_results_not_panics() {
    let mut r = rng::seeded(1);
    for _ in 0..20_000 {
        let s = random_string(&mut r);
        let _ = s.parse::<TicTacToe>();
        let _ = s.parse::<Gobang>();
        let _ = Connect4::from_moves(7, 6, &s);
        let _ = Connect4::from_moves(16, 3, &s);
        let _ = TicTacToe::new().parse_move(&s);
        let _ = Gobang::default().parse_move(&s);
        let _ = Connect4::standard().parse_move(&s);
    }
    // Moves out of range given straight to try_play are typed errors too.
    for mv in 0..=255u8 {
        let _ = TicTacToe::new().try_play(mv);
        let _ = Gobang::new(9).unwrap().try_play(mv);
        let _ = Connect4::standard().try_play(mv);
    }
}
