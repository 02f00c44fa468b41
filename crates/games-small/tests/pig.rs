//! Pig (games_small::pig) under expectiminimax: values worked out by hand on
//! tiny games, and a brute-force expectimax of its own against the search
//! (full width, and alpha-beta with its table and chance-node pruning).

use std::collections::HashMap;

use games_small::pig::Pig;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Game, Outcome, OutcomeOnly, Player, Status, Turn};

/// The first player's expected result (win 1, draw 0, loss −1) by plain
/// recursion with memoisation, independent of search-core's searches.
fn brute(g: &Pig, memo: &mut HashMap<Pig, f64>) -> f64 {
    if let Some(&v) = memo.get(g) {
        return v;
    }
    let mut moves = Vec::new();
    let v = match g.generate(&mut moves) {
        Status::Over(Outcome::Win(Player::First)) => 1.0,
        Status::Over(Outcome::Win(Player::Second)) => -1.0,
        Status::Over(_) => 0.0,
        Status::Ongoing => {
            let values = moves.iter().map(|&m| {
                let mut c = *g;
                c.play(m);
                brute(&c, memo)
            });
            match g.turn() {
                Turn::Chance => values.sum::<f64>() / moves.len() as f64,
                Turn::Player(Player::First) => values.fold(f64::NEG_INFINITY, f64::max),
                Turn::Player(Player::Second) => values.fold(f64::INFINITY, f64::min),
            }
        }
    };
    memo.insert(*g, v);
    v
}

fn searched(g: &Pig, options: Options) -> (f64, u64) {
    let r = Search::new(Minimax, OutcomeOnly::new(1.0), options).unwrap().run(g, &Limits::full_tree()).unwrap();
    assert!(r.complete);
    (r.value.unwrap(), r.stats.nodes)
}

#[test]
fn tiny_games_by_hand() {
    // A two-faced die and a target of 2: a roll of 2 wins, a 1 passes the turn.
    // One turn: the first player wins half the time, else a draw.
    assert_eq!(searched(&Pig::new(2, 2, 1).unwrap(), Options::full_width()).0, 0.5);
    // Two turns: then the second player wins half of the rest.
    assert_eq!(searched(&Pig::new(2, 2, 2).unwrap(), Options::full_width()).0, 0.25);
    // Three turns: 1/2 − 1/4 + 1/8.
    assert_eq!(searched(&Pig::new(2, 2, 3).unwrap(), Options::full_width()).0, 0.375);
}

#[test]
fn expectiminimax_equals_brute_force() {
    for (target, die, turns) in [(4, 3, 4), (6, 6, 3), (8, 4, 4), (10, 6, 3)] {
        let g = Pig::new(target, die, turns).unwrap();
        let expected = brute(&g, &mut HashMap::new());
        let (full, full_nodes) = searched(&g, Options::full_width());
        assert!((full - expected).abs() < 1e-12, "{g}: full width {full}, brute force {expected}");
        let (pruned, nodes) = searched(&g, Options::default());
        assert!((pruned - expected).abs() < 1e-9, "{g}: alpha-beta {pruned}, brute force {expected}");
        assert!(nodes <= full_nodes, "{g}: alpha-beta visited more nodes ({nodes} > {full_nodes})");
        // Positions inside the game too: after a first turn banked at 3.
        let mut h = g;
        for m in ["roll", "3", "hold"] {
            let mv = h.parse_move(m).unwrap();
            h.try_play(mv).unwrap();
        }
        if h.status() == Status::Ongoing {
            let expected = brute(&h, &mut HashMap::new());
            assert!((searched(&h, Options::full_width()).0 - -expected).abs() < 1e-12, "{h}");
        }
    }
}
