//! Lazy SMP on real games: every thread count (1, 2, 4) returns a legal
//! move and a value within what the solver proves; one thread is the
//! single-threaded search, node for node.

use games_small::solver::{TestLine, parse_test_line};
use games_small::{Connect4, Connect4Eval, TicTacToe, TicTacToeEval};
use rand::Rng as _;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Game, Outcome, Status, rng};

/// The first `n` end-game positions of Pons' end-easy set with their scores,
/// or, without the shared data, `n` end-game positions of our own (seeded
/// random play) scored by the solver.
fn end_games(n: usize) -> Vec<(Connect4, i32)> {
    let Some(text) = test_data::read("connect4/end-easy", "Pons' end-easy set (using end games of our own)") else {
        let mut solver = games_small::solver::Solver::new(7, 6).unwrap();
        return random_positions(n, 32).into_iter().map(|g| (g, solver.solve(&g).unwrap().score)).collect();
    };
    text.lines()
        .filter_map(|l| parse_test_line(l, 7, 6).unwrap())
        .filter_map(|TestLine { position, expected, .. }| expected.map(|e| (position, e)))
        .take(n)
        .collect()
}

/// `n` distinct unfinished 7×6 positions after `plies` random moves
/// (seeded, so the same on every machine).
fn random_positions(n: usize, plies: usize) -> Vec<Connect4> {
    let mut r = rng::seeded(57);
    let mut out: Vec<Connect4> = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut g = Connect4::standard();
        for _ in 0..plies {
            moves.clear();
            if g.generate(&mut moves) != Status::Ongoing {
                break;
            }
            g.play(moves[r.random_range(0..moves.len())]);
        }
        if g.status() == Status::Ongoing && g.moves_played() as usize == plies && !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// A few middle-game positions the solver needs no file for.
fn openings() -> Vec<Connect4> {
    random_positions(8, 16)
}

/// −1, 0 or 1 (`f64::signum` gives 1 for +0).
fn sign(x: f64) -> i32 {
    i32::from(x > 0.0) - i32::from(x < 0.0)
}

#[test]
fn connect4_values_within_the_proven_bounds() {
    let set = end_games(30);
    assert_eq!(set.len(), 30);
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
    let positions = openings();
    assert_eq!(positions.len(), 8);
    for pos in positions {
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
