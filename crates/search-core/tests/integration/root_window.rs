//! `Search::run_with_window`: a root window from the caller is not widened
//! (as aspiration windows are): a value outside it comes back as the
//! fail-soft bound, which is what null-window drivers (MTD(f), the connect-4
//! solver's binary search) rely on.

use search_core::backup::Minimax;
use search_core::search::{Bound, Limits, Options, Search, Window};
use search_core::tree::{LiteralEval, LiteralTree};

fn search() -> Search<LiteralTree, Minimax, LiteralEval> {
    Search::new(Minimax, LiteralEval, Options::plain_alpha_beta()).unwrap()
}

fn run_with_window(s: &mut Search<LiteralTree, Minimax, LiteralEval>, t: &LiteralTree, w: Window) -> f64 {
    s.run_with_window(t, &Limits::full_tree(), w).unwrap().value.unwrap()
}

#[test]
fn fail_high_returns_a_lower_bound() {
    let t: LiteralTree = "max(min(4, 9), min(7, 8))".parse().unwrap();
    assert_eq!(search().run(&t, &Limits::full_tree()).unwrap().value, Some(7.0));
    let r = search().run_with_window(&t, &Limits::full_tree(), Window::null_above(3.0)).unwrap();
    // The first child (worth 4) already refutes "value <= 3": the root stops
    // there, with 4 as a lower bound, instead of searching again for 7.
    assert_eq!(r.value, Some(4.0));
    assert_eq!(r.root_moves.len(), 1);
    assert_eq!(r.root_moves[0].bound, Bound::Lower);
    assert!(r.complete);
}

#[test]
fn fail_low_returns_an_upper_bound() {
    let t: LiteralTree = "max(min(1, 9), min(3, 0))".parse().unwrap();
    assert_eq!(search().run(&t, &Limits::full_tree()).unwrap().value, Some(1.0));
    let r = search().run_with_window(&t, &Limits::full_tree(), Window::null_above(5.0)).unwrap();
    // Both children fail low: 1 (exact) and at most 3 (cut after its first
    // leaf); the root's fail-soft value 3 bounds the exact value 1 from above.
    assert_eq!(r.value, Some(3.0));
    assert!(r.root_moves.iter().all(|m| m.bound == Bound::Upper));
}

#[test]
fn bisection_on_null_windows_finds_the_value() {
    let t: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse().unwrap();
    let mut s = search();
    let (mut lo, mut hi) = (0.0_f64, 20.0_f64);
    while lo < hi {
        let pivot = ((lo + hi) / 2.0).floor();
        let v = run_with_window(&mut s, &t, Window::new(pivot, pivot + 1.0));
        if v <= pivot { hi = v } else { lo = v }
    }
    assert_eq!(lo, 3.0);
}

/// `Options::exact_root`: with alpha-beta, every root move's score is exact
/// and equals full-width minimax's, on random trees with many ties (leaves
/// drawn from 0..=3), with and without a table, PVS and deepening.
#[test]
fn exact_root_scores_equal_full_width_scores() {
    use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
    let configs = [
        Options::plain_alpha_beta().with_exact_root(true),
        Options::default().with_quiescence(false).with_exact_root(true),
        Options::default().with_quiescence(false).with_iterative_deepening(false).with_exact_root(true),
    ];
    let mut checked = 0;
    for seed in 0..150 {
        let t =
            RandomTree::new(seed, 2 + (seed % 4) as u8, 3 + (seed % 4) as u8, LeafModel::Uniform { min: 0, max: 3 })
                .unwrap();
        let mut full = Search::new(Minimax, RandomTreeEval::default(), Options::full_width()).unwrap();
        let want = full.run(&t, &Limits::full_tree()).unwrap();
        for opts in &configs {
            let mut s = Search::new(Minimax, RandomTreeEval::default(), opts.clone()).unwrap();
            let got = s.run(&t, &Limits::full_tree()).unwrap();
            assert!(got.complete);
            assert_eq!(got.value, want.value, "seed {seed}");
            let mut a: Vec<_> = got.root_moves.iter().map(|m| (m.mv, m.score, m.bound)).collect();
            let mut b: Vec<_> = want.root_moves.iter().map(|m| (m.mv, m.score, m.bound)).collect();
            a.sort_by_key(|m| m.0);
            b.sort_by_key(|m| m.0);
            assert_eq!(a, b, "seed {seed}, {opts:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 450);
    // Without it, alpha-beta's later root moves are bounds on some trees.
    let inexact = (0..150).any(|seed| {
        let t = RandomTree::new(seed, 4, 4, LeafModel::Uniform { min: 0, max: 3 }).unwrap();
        let mut s = Search::new(Minimax, RandomTreeEval::default(), Options::plain_alpha_beta()).unwrap();
        s.run(&t, &Limits::full_tree()).unwrap().root_moves.iter().any(|m| m.bound != Bound::Exact)
    });
    assert!(inexact);
}

#[test]
fn exact_root_is_refused_where_it_would_be_ignored() {
    let e = Search::new(Minimax, LiteralEval, Options::full_width().with_exact_root(true)).unwrap_err();
    assert_eq!(e.name, "exact_root");
    let e = Search::new(
        Minimax,
        LiteralEval,
        Options::default().with_table_mib(0).with_aspiration(Some(1.0)).with_exact_root(true),
    )
    .unwrap_err();
    assert_eq!(e.name, "aspiration");
}
