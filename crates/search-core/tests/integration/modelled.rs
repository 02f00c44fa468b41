//! Opponent-aware search (`backup::Modelled`, `backup::modelled`): the
//! pruned search against full width and the core's rule on random trees
//! with many ties, the limits θ → ∞ (minimax) and θ → 0 (the uniform
//! average), and parameter errors.

use search_core::backup::modelled::{ModelledResult, ModelledSearch};
use search_core::backup::{Minimax, Modelled, OpponentModel};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{ChanceWeights, LeafModel, RandomTree, RandomTreeEval};
use search_core::{Game, Player, Status, Turn};

fn trees() -> Vec<RandomTree> {
    let mut out = Vec::new();
    for seed in 0..150u64 {
        let b = 2 + (seed % 4) as u8;
        let depth = 3 + (seed % 4) as u8;
        // A narrow range: many exact ties.
        let t = RandomTree::new(1000 + seed, b, depth, LeafModel::Uniform { min: -3, max: 3 })
            .unwrap()
            .with_branching(1, b)
            .unwrap();
        out.push(t);
        if seed % 4 == 0 {
            out.push(t.with_chance(2, ChanceWeights::Random).unwrap());
        }
        if seed % 5 == 0 {
            // The second player at the root.
            let mut c = t;
            let mut m = Vec::new();
            if c.generate(&mut m) == Status::Ongoing && c.turn() == Turn::Player(Player::First) {
                c.play(m[0]);
                if c.generate(&mut Vec::new()) == Status::Ongoing && c.turn() != Turn::Chance {
                    out.push(c);
                }
            }
        }
    }
    out
}

fn rules() -> Vec<Modelled> {
    let mut out = Vec::new();
    for theta in [0.005, 0.05, 0.5, 2.0, 5.0, 20.0, f64::INFINITY] {
        let m = OpponentModel::boltzmann(theta).unwrap();
        out.push(Modelled::new(m));
        out.push(Modelled::new(m).with_cap(2.0).unwrap());
    }
    out.push(Modelled::new(OpponentModel::epsilon_greedy(0.7).unwrap()));
    out.push(Modelled::new(OpponentModel::epsilon_greedy(0.1).unwrap()).with_cap(1.0).unwrap());
    out
}

fn run(rule: &Modelled, t: &RandomTree, prune: bool, order: bool) -> ModelledResult<u8> {
    ModelledSearch::new(rule.clone(), RandomTreeEval::for_tree(t))
        .with_pruning(prune)
        .with_ordering(order)
        .run(t, u32::from(t.depth()))
        .unwrap()
}

fn sorted(mut v: Vec<u8>) -> Vec<u8> {
    v.sort_unstable();
    v
}

#[test]
fn pruned_equals_full_width_and_the_core() {
    let (mut full_nodes, mut pruned_nodes) = (0u64, 0u64);
    for t in trees() {
        for rule in rules() {
            let core = Search::new(rule.clone(), RandomTreeEval::for_tree(&t), Options::full_width())
                .unwrap()
                .run(&t, &Limits::depth(u32::from(t.depth())))
                .unwrap();
            let full = run(&rule, &t, false, false);
            assert_eq!(Some(full.value), core.value, "{rule:?} {t:?}");
            assert_eq!(sorted(full.best_moves.clone()), sorted(core.best_moves.clone()), "{rule:?} {t:?}");
            for order in [false, true] {
                let reference = run(&rule, &t, false, order);
                let pruned = run(&rule, &t, true, order);
                assert_eq!(pruned.value, reference.value, "{rule:?} order={order} {t:?}");
                assert_eq!(sorted(pruned.best_moves.clone()), sorted(reference.best_moves), "{rule:?} {t:?}");
                // Every exact root value of the pruned search is the
                // full-width value; every bound is at least it.
                for (p, f) in pruned.root_moves.iter().zip(&reference.root_moves) {
                    assert_eq!(p.mv, f.mv);
                    if p.exact {
                        assert_eq!(p.value, f.value);
                    } else {
                        assert!(f.value <= p.value && p.value < pruned.value);
                    }
                }
                // Without the evaluator's bounds (only the cap's, if any).
                let unbounded = ModelledSearch::new(rule.clone(), RandomTreeEval::default())
                    .with_ordering(order)
                    .run(&t, u32::from(t.depth()))
                    .unwrap();
                assert_eq!(unbounded.value, reference.value, "{rule:?} unbounded {t:?}");
                full_nodes += reference.nodes;
                pruned_nodes += pruned.nodes;
            }
        }
    }
    // Pruning must save something overall.
    assert!(pruned_nodes < full_nodes, "{pruned_nodes} vs {full_nodes}");
    eprintln!("nodes: full width {full_nodes}, pruned {pruned_nodes}");
}

#[test]
fn pruning_saves_on_wider_trees() {
    // Arc-sum trees (values correlated along paths), branching 6, depth 6.
    for (theta, most) in [(f64::INFINITY, 0.25), (1.0, 0.9)] {
        let (mut full, mut pruned) = (0u64, 0u64);
        for seed in 0..5 {
            let t = RandomTree::new(seed, 6, 6, LeafModel::ArcSum { max_arc: 10 }).unwrap();
            let rule = Modelled::new(OpponentModel::boltzmann(theta).unwrap());
            let f = run(&rule, &t, false, false);
            let p = run(&rule, &t, true, false);
            assert_eq!(f.value, p.value);
            full += f.nodes;
            pruned += p.nodes;
        }
        eprintln!("θ = {theta}: full width {full}, pruned {pruned}");
        assert!((pruned as f64) < most * full as f64, "θ = {theta}: {pruned} of {full}");
    }
}

/// Max at the root player's nodes, the plain average at the opponent's,
/// expectation at chance nodes: the uniform-opponent value.
fn uniform_value(t: &RandomTree, root: Player) -> f64 {
    let mut moves = Vec::new();
    match t.generate(&mut moves) {
        Status::Over(o) => o.value_for(root, 1.0),
        Status::Ongoing => {
            let vals: Vec<f64> = moves
                .iter()
                .map(|&m| {
                    let mut c = *t;
                    c.play(m);
                    uniform_value(&c, root)
                })
                .collect();
            match t.turn() {
                Turn::Player(p) if p == root => vals.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                Turn::Player(_) => vals.iter().sum::<f64>() / vals.len() as f64,
                Turn::Chance => {
                    let mut probs = Vec::new();
                    t.chance_probabilities(&moves, &mut probs);
                    probs.iter().zip(&vals).map(|(p, v)| p * v).sum()
                }
            }
        }
    }
}

#[test]
fn limits_minimax_and_uniform_average() {
    for t in trees() {
        let depth = u32::from(t.depth());
        let root = t.turn().player().unwrap();
        let minimax = Search::new(Minimax, RandomTreeEval::for_tree(&t), Options::full_width())
            .unwrap()
            .run(&t, &Limits::depth(depth))
            .unwrap()
            .value
            .unwrap();
        let greedy = Modelled::new(OpponentModel::boltzmann(f64::INFINITY).unwrap());
        assert_eq!(run(&greedy, &t, true, true).value, minimax, "{t:?}");
        // A large finite θ comes close (values are integers, gaps ≥ 1).
        let sharp = Modelled::new(OpponentModel::boltzmann(60.0).unwrap());
        assert!((run(&sharp, &t, true, true).value - minimax).abs() < 1e-12 * 1e3, "{t:?}");
        // θ → 0: the uniform average.
        let flat = Modelled::new(OpponentModel::boltzmann(1e-9).unwrap());
        let u = uniform_value(&t, root);
        assert!((run(&flat, &t, true, true).value - u).abs() < 1e-6, "{t:?}");
        // ε = 1 − (share of the non-best) ... ε-greedy with ε equal to the
        // best moves' uniform share is not a limit; ε = 1 is minimax.
        let eps1 = Modelled::new(OpponentModel::epsilon_greedy(1.0).unwrap());
        assert_eq!(run(&eps1, &t, true, true).value, minimax, "{t:?}");
    }
}

#[test]
fn bad_parameters_are_errors() {
    for theta in [0.0, -1.0, f64::NAN, f64::MIN_POSITIVE / 4.0, f64::NEG_INFINITY] {
        assert!(OpponentModel::boltzmann(theta).is_err(), "{theta}");
    }
    for eps in [-0.1, 1.1, f64::NAN] {
        assert!(OpponentModel::epsilon_greedy(eps).is_err(), "{eps}");
    }
    let m = OpponentModel::boltzmann(1.0).unwrap();
    for cap in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(Modelled::new(m).with_cap(cap).is_err(), "{cap}");
    }
    // A value outside the evaluator's declared bounds is an error, not a
    // silently unsound cut.
    let t = RandomTree::new(1, 3, 3, LeafModel::Uniform { min: -5, max: 5 }).unwrap();
    let narrow = RandomTree::new(1, 3, 3, LeafModel::Uniform { min: -1, max: 1 }).unwrap();
    let r = ModelledSearch::new(Modelled::new(m), RandomTreeEval::for_tree(&narrow)).run(&t, 3);
    assert!(r.is_err());
}
