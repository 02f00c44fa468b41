//! Lazy SMP on real games: every thread count (1, 2, 4) returns a legal
//! move and a value within what the solver proves; one thread is the
//! single-threaded search, node for node.

use games_small::solver::{TestLine, parse_test_line};
use games_small::{Connect4, Connect4Eval, TicTacToe, TicTacToeEval};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Game, Outcome, Status};

/// The first `n` end-game positions of Pons' end-easy set with their scores.
fn end_easy(n: usize) -> Vec<(Connect4, i32)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/connect4/end-easy");
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("{path} not found: using positions of our own");
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| parse_test_line(l, 7, 6).unwrap())
        .filter_map(|TestLine { position, expected, .. }| expected.map(|e| (position, e)))
        .take(n)
        .collect()
}

/// A few positions the solver needs no file for: random openings.
fn openings() -> Vec<Connect4> {
    (0..8)
        .filter_map(|i| {
            let moves: String = (0..24).map(|k| char::from(b'1' + ((i * 7 + k * 3 + k * k) % 7) as u8)).collect();
            Connect4::from_moves(7, 6, &moves).ok()
        })
        .filter(|g| g.status() == Status::Ongoing)
        .collect()
}

/// −1, 0 or 1 (`f64::signum` gives 1 for +0).
fn sign(x: f64) -> i32 {
    i32::from(x > 0.0) - i32::from(x < 0.0)
}

#[test]
fn connect4_values_within_the_proven_bounds() {
    let mut set = end_easy(30);
    if set.is_empty() {
        let mut solver = games_small::solver::Solver::new(7, 6).unwrap();
        set = openings().into_iter().map(|g| (g, solver.solve(&g).unwrap().score)).collect();
    }
    assert!(!set.is_empty());
    for threads in [1, 2, 4] {
        let mut s =
            Search::parallel(Minimax, Connect4Eval::default(), Options::default().with_threads(threads)).unwrap();
        for (pos, score) in &set {
            let r = s.run(pos, &Limits::full_tree()).unwrap();
            let v = r.value.unwrap();
            assert_eq!(sign(v), score.signum(), "{threads} threads: {pos:?} value {v} score {score}");
            let mut moves = Vec::new();
            pos.generate(&mut moves);
            let best = r.best.unwrap();
            assert!(moves.contains(&best));
            // The move keeps the proven value.
            let mut child = *pos;
            child.play(best);
            let kept = match child.status() {
                Status::Over(Outcome::Win(_)) => 1,
                Status::Over(_) => 0,
                Status::Ongoing => {
                    let mut s = Search::new(Minimax, Connect4Eval::default(), Options::default()).unwrap();
                    -sign(s.run(&child, &Limits::full_tree()).unwrap().value.unwrap())
                }
            };
            assert_eq!(kept, score.signum(), "{threads} threads: {pos:?} move {best}");
        }
    }
}

#[test]
fn one_thread_is_the_single_threaded_search() {
    for pos in openings() {
        let mut a = Search::new(Minimax, Connect4Eval::default(), Options::default()).unwrap();
        let mut b = Search::parallel(Minimax, Connect4Eval::default(), Options::default().with_threads(1)).unwrap();
        for depth in [4, 8] {
            let (x, y) = (a.run(&pos, &Limits::depth(depth)).unwrap(), b.run(&pos, &Limits::depth(depth)).unwrap());
            assert_eq!((x.value, x.stats.nodes, &x.pv), (y.value, y.stats.nodes, &y.pv));
        }
    }
}

#[test]
fn tictactoe_full_tree_is_a_draw_on_every_thread_count() {
    for threads in [1, 2, 4] {
        let options = Options::default().with_threads(threads).with_table_mib(1);
        let mut s = Search::parallel(Minimax, TicTacToeEval::default(), options).unwrap();
        for _ in 0..3 {
            let r = s.run(&TicTacToe::new(), &Limits::full_tree()).unwrap();
            assert_eq!(r.value, Some(0.0));
            assert!(r.best.is_some_and(|m| m < 9));
            s.clear();
        }
    }
}
