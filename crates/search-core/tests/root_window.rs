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
