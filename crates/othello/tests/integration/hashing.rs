//! Hash keys: equal for equal positions whatever the move order, different
//! for the side to move, and practically collision-free on random games.

use std::collections::HashMap;

use othello::{BLACK, Othello, WHITE};
use search_core::rng::{self, RngExt as _};
use search_core::{Game, Status};

fn key(g: &Othello) -> u64 {
    g.hash_key().expect("Othello has hash keys")
}

#[test]
fn transpositions_share_a_key() {
    const { assert!(<Othello as Game>::HASHED) };
    // Two move orders to the same position.
    let a = Othello::from_moves("c2 b2 b3").unwrap();
    let b = Othello::from_moves("b3 b2 c2").unwrap();
    assert_eq!(a, b);
    assert_eq!(key(&a), key(&b));
    let a = Othello::from_moves("e4 e5 d5").unwrap();
    let b = Othello::from_moves("d5 e5 e4").unwrap();
    assert_eq!(a, b);
    assert_eq!(key(&a), key(&b));
    // The same position built from a picture.
    let c = Othello::from_board(&format!("{:?}", a).split('"').nth(1).unwrap().replace('/', ""), a.to_move()).unwrap();
    assert_eq!(key(&c), key(&a));
}

#[test]
fn the_side_to_move_changes_the_key() {
    let mut r = rng::seeded(0x0e11_4a54);
    let mut moves = Vec::new();
    for _ in 0..300 {
        let mut g = Othello::new();
        loop {
            let other = Othello::from_discs(g.discs(BLACK), g.discs(WHITE), g.to_move().opponent()).unwrap();
            assert_ne!(key(&g), key(&other), "{g}");
            moves.clear();
            if let Status::Over(_) = g.generate(&mut moves) {
                break;
            }
            let mv = moves[r.random_range(0..moves.len())];
            let before = g;
            g.play(mv);
            if mv.is_pass() {
                // A pass changes only the side to move: and so the key.
                assert_eq!(g.discs(BLACK), before.discs(BLACK));
                assert_ne!(key(&g), key(&before));
            }
        }
    }
}

#[test]
fn random_games_give_no_collisions() {
    let mut r = rng::seeded(0x0e11_4a55);
    let mut seen: HashMap<u64, Othello> = HashMap::new();
    let mut moves = Vec::new();
    for _ in 0..3000 {
        let mut g = Othello::new();
        loop {
            if let Some(prev) = seen.insert(key(&g), g) {
                assert_eq!(prev, g, "two positions share a key");
            }
            moves.clear();
            if let Status::Over(_) = g.generate(&mut moves) {
                break;
            }
            g.play(moves[r.random_range(0..moves.len())]);
        }
    }
    assert!(seen.len() > 50_000, "{} positions", seen.len());
}
