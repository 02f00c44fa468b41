//! `backup::predicting::PredictingAgent` (the opponent predicted from its
//! own values) against minimax where the two must agree.

use search_core::backup::predicting::PredictingAgent;
use search_core::backup::{Minimax, Modelled, OpponentModel};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
use search_core::{Agent, rng};

/// With a greedy opponent (θ = +∞, no cap) whose horizon ends where ours
/// does (`opp_depth = depth − 1`, one modelled reply), the prediction is the
/// opponent's best reply by our own values: the root value is minimax's and
/// so are the exactly tied best moves. Leaves in −3..3 make many ties.
#[test]
fn a_greedy_opponent_with_our_horizon_is_minimax() {
    let greedy = || Modelled::new(OpponentModel::boltzmann(f64::INFINITY).unwrap());
    let mut checked = 0;
    for seed in 0..120u64 {
        let branching = 1 + (seed % 5) as u8;
        let t = RandomTree::new(7000 + seed, branching, 4, LeafModel::Uniform { min: -3, max: 3 }).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        for depth in [2u32, 3] {
            let mut me = PredictingAgent::new(greedy(), eval, depth, depth - 1).unwrap();
            let thought = me.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
            let mut reference = Search::new(Minimax, eval, Options::full_width()).unwrap();
            let r = reference.run(&t, &Limits::depth(depth)).unwrap();
            assert_eq!(thought.value, r.value, "seed {seed}, depth {depth}");
            let mut ours: Vec<_> = thought.distribution.iter().map(|d| d.0).collect();
            let mut theirs = r.best_moves.clone();
            ours.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(ours, theirs, "seed {seed}, depth {depth}");
            checked += 1;
        }
    }
    assert_eq!(checked, 240);
}

/// The pruned search (Star1 at the opponent's nodes, alpha-beta at ours)
/// gives exactly the full-width root value and the same tied best moves,
/// for greedy to near-random opponents, with and without a cap, without and
/// with safety (the worst reply blended in), on trees with many ties
/// (leaves in −3..3) and on arc-sum trees; and it visits fewer nodes in all,
/// at every safety.
#[test]
fn pruning_changes_nothing_but_the_node_count() {
    let rules = || {
        let mut v = Vec::new();
        for theta in [0.05, 0.5, 2.0, 20.0, f64::INFINITY] {
            let m = Modelled::new(OpponentModel::boltzmann(theta).unwrap());
            v.push(m.clone());
            v.push(m.with_cap(2.0).unwrap());
        }
        v
    };
    const SAFETY: [f64; 3] = [0.0, 0.3, 0.9];
    let (mut full_nodes, mut pruned_nodes, mut checked) = ([0u64; 3], [0u64; 3], 0);
    for seed in 0..24u64 {
        let model =
            if seed % 3 == 0 { LeafModel::ArcSum { max_arc: 10 } } else { LeafModel::Uniform { min: -3, max: 3 } };
        let t = RandomTree::new(9100 + seed, 2 + (seed % 4) as u8, 5, model).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        for rule in rules() {
            for ((depth, opp_depth), (k, &kappa)) in [(2, 1), (3, 2), (4, 2), (4, 3), (5, 1)]
                .into_iter()
                .flat_map(|d| std::iter::repeat(d).zip(SAFETY.iter().enumerate()))
            {
                let agent =
                    || PredictingAgent::new(rule.clone(), eval, depth, opp_depth).unwrap().with_safety(kappa).unwrap();
                let mut full = agent().with_pruning(false);
                let mut pruned = agent();
                let a = full.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
                let b = pruned.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
                let at = |x: &search_core::Thought<u8>| {
                    let mut m: Vec<u8> = x.distribution.iter().map(|d| d.0).collect();
                    m.sort_unstable();
                    m
                };
                let what = format!("seed {seed}, {rule:?}, depth {depth}, opp_depth {opp_depth}, safety {kappa}");
                assert_eq!(a.value, b.value, "{what}");
                assert_eq!(at(&a), at(&b), "{what}");
                full_nodes[k] += a.stats.nodes;
                pruned_nodes[k] += b.stats.nodes;
                checked += 1;
            }
        }
    }
    eprintln!("{checked} searches, safety {SAFETY:?}: pruned {pruned_nodes:?} nodes, full width {full_nodes:?}");
    assert_eq!(checked, 24 * 10 * 5 * 3);
    assert!((0..3).all(|k| pruned_nodes[k] < full_nodes[k]));
}

/// Safety only lowers an opponent's node (the worst reply is at most the
/// expectation) and never below the worst reply, and every other node is a
/// maximum or a blend of its children: so the root value falls as κ rises
/// and stays at or above minimax's (the same horizon for both sides).
#[test]
fn safety_lowers_the_value_towards_minimax() {
    let mut checked = 0;
    for seed in 0..60u64 {
        let t = RandomTree::new(5300 + seed, 2 + (seed % 4) as u8, 4, LeafModel::Uniform { min: -5, max: 5 }).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let minimax = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&t, &Limits::depth(4)).unwrap();
        let mut last = f64::INFINITY;
        for kappa in [0.0, 0.2, 0.5, 0.8, 0.99] {
            let rule = Modelled::new(OpponentModel::boltzmann(0.7).unwrap());
            let mut me = PredictingAgent::new(rule, eval, 4, 3).unwrap().with_safety(kappa).unwrap();
            let v = me.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap().value.unwrap();
            let floor = minimax.value.unwrap();
            assert!(
                v <= last + 1e-9 && v >= floor - 1e-9,
                "seed {seed}, safety {kappa}: {v} (before {last}, minimax {floor})"
            );
            last = v;
            checked += 1;
        }
    }
    assert_eq!(checked, 300);
}
