//! The M & N procedure (Slagle and Dixon 1970) on hand-computed trees, and
//! M = N = 1 against minimax on random trees.

use search_core::backup::{LinearBonus, MAndN, Minimax};
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, rng};

fn run<B: search_core::backup::Bonus>(rule: MAndN<B>, tree: &str) -> search_core::search::SearchResult<u32> {
    let t: LiteralTree = tree.parse().unwrap();
    Search::new(rule, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap()
}

#[test]
fn hand_computed_two_and_two() {
    // β = 1, δ = 4. Left min node: min's values −5, −6 (max's 5, 6), gap 1:
    // bonus 1 − 1/4 = 0.75, worth 5 − 0.75 = 4.25 to max. Right: 4.5 and
    // 20, gap 15.5: no bonus, 4.5. Root (M = 2): best 4.5, runner-up 4.25,
    // gap 0.25: bonus 1 − 0.25/4 = 0.9375, worth 5.4375.
    let rule = MAndN::new(2, 2, LinearBonus::new(1.0, 4.0).unwrap()).unwrap();
    let tree = "max(min(5, 6), min(4.5, 20))";
    let r = run(rule, tree);
    assert_eq!(r.root_moves.iter().map(|m| m.score).collect::<Vec<_>>(), vec![4.25, 4.5]);
    assert_eq!((r.value, r.best), (Some(5.4375), Some(1)));
    // Minimax prefers the left node (5 against 4.5).
    let t: LiteralTree = tree.parse().unwrap();
    let mm = Search::new(Minimax, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
    assert_eq!((mm.value, mm.best), (Some(5.0), Some(0)));
    // As an agent, M & N plays the right node.
    let mut agent =
        SearchAgent::new(Search::new(rule, LiteralEval, Options::full_width()).unwrap(), Limits::full_tree());
    assert_eq!(agent.choose(&t, &mut rng::seeded(1)).unwrap(), 1);
}

#[test]
fn m_and_n_count_separately() {
    let b = LinearBonus::new(1.0, 4.0).unwrap();
    // M = 3 at max nodes: best 4, gaps 1, 2 (the third best, 2, counts; 1
    // does not): bonus 0.75 + 0.5.
    assert_eq!(run(MAndN::new(3, 1, b).unwrap(), "max(1, 4, 2, 3)").value, Some(4.0 + 0.75 + 0.5));
    // N = 1 at min nodes: plain minimum; M = 1 at max nodes: plain maximum.
    assert_eq!(run(MAndN::new(3, 1, b).unwrap(), "max(min(3, 3.5))").value, Some(3.0));
    assert_eq!(run(MAndN::new(1, 3, b).unwrap(), "max(3, 3.5)").value, Some(3.5));
    // N = 3 at a min node with two children uses both: min's values −3 and
    // −3.5, gap 0.5: 3 − 0.875 for max (min at the root: its own view).
    let r = run(MAndN::new(1, 3, b).unwrap(), "min(3, 3.5)");
    assert_eq!(r.value, Some(-3.0 + 0.875));
    // A user bonus: one point per counted runner-up.
    let count = |gaps: &[f64]| gaps.len() as f64;
    assert_eq!(run(MAndN::new(3, 2, count).unwrap(), "max(1, 4, 2, 3)").value, Some(6.0));
    assert_eq!(run(MAndN::new(3, 2, count).unwrap(), "max(min(1, 4, 2, 3))").value, Some(1.0 - 1.0));
}

#[test]
fn chance_nodes_and_horizons() {
    let b = LinearBonus::new(1.0, 4.0).unwrap();
    // The chance node is worth 3; the root's best is 3, runner-up 2.5
    // (gap 0.5): 3 + 0.875.
    let r = run(MAndN::new(2, 2, b).unwrap(), "max(chance(0.5: 2, 0.5: 4), 2.5)");
    assert_eq!(r.value, Some(3.875));
    // Searched one ply deep the min nodes are horizon nodes valued at their
    // static values (7 and 6.5 for max), not their children.
    let t: LiteralTree = "max(min[7](0, 1), min[6.5](9))".parse().unwrap();
    let r = Search::new(MAndN::new(2, 2, b).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::depth(1))
        .unwrap();
    assert_eq!(r.value, Some(7.0 + 0.875));
}

#[test]
fn invalid_parameters_are_errors() {
    let b = LinearBonus::new(1.0, 1.0).unwrap();
    assert!(MAndN::new(0, 1, b).is_err());
    assert!(MAndN::new(1, 0, b).is_err());
    for (beta, delta) in [(-1.0, 1.0), (f64::NAN, 1.0), (f64::INFINITY, 1.0), (1.0, 0.0), (1.0, -2.0), (1.0, f64::NAN)]
    {
        assert!(LinearBonus::new(beta, delta).is_err(), "{beta} {delta}");
    }
    assert!(LinearBonus::new(0.0, 1.0).is_ok());
}

#[test]
fn one_and_one_is_minimax_on_random_trees() {
    let b = LinearBonus::new(3.0, 5.0).unwrap();
    for i in 0..300 {
        let seed = rng::derive_seed(0x3A4D, i);
        let d = 1 + (seed % 5) as u8;
        let mut t = RandomTree::new(seed, 3, d, LeafModel::ArcSum { max_arc: 10 }).unwrap();
        if (seed >> 8).is_multiple_of(3) {
            t = t.with_chance(1, ChanceWeights::Random).unwrap();
        }
        let eval = RandomTreeEval::default();
        let r = Search::new(MAndN::new(1, 1, b).unwrap(), eval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::full_tree())
            .unwrap();
        let mm = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
        assert!(mm.value.is_some());
        assert_eq!(r.value, mm.value, "tree {i}");
        assert_eq!(r.best_moves, mm.best_moves, "tree {i}");
        // One ply deep, a non-negative bonus only adds to the best leaf.
        if d == 1 {
            let mn = Search::new(MAndN::new(2, 2, b).unwrap(), eval, Options::full_width())
                .unwrap()
                .run(&t, &Limits::full_tree())
                .unwrap();
            assert!(mn.value.unwrap() >= mm.value.unwrap(), "tree {i}");
        }
    }
}
