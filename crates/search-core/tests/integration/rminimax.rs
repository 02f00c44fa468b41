//! Rminimax and the policy module: minimax at θ = ∞, the log domain against
//! the paper's product form, the policy's normalisation, and the entropy and
//! expected cost against brute-force path enumeration. (The paper's Tables
//! I–III are checked in `crates/experiments/tests/paper/`.)

use search_core::arena::play_match;
use search_core::backup::rminimax::{CostModel, Rminimax, UtilityCosts};
use search_core::backup::{BackupValue, Minimax};
use search_core::policy::{
    PathAnalysis, PolicyFamily, TIE_TOLERANCE, TreePolicy, boltzmann_agent, epsilon_greedy_agent, rminimax_agent,
};
use search_core::search::{Limits, Options, Search, SearchResult};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Game, GameError, Outcome, Player, Status, Turn, rng};

// ---------------------------------------------------------------------------
// Helpers written for the tests only (independent of the library's code).

/// Seeded random trees with ties (narrow leaf range), varying branching and
/// depth; every fourth has chance levels.
fn random_tree(seed: u64, max_depth: u8, leaf_max: i32) -> RandomTree {
    let depth = 1 + (seed % u64::from(max_depth)) as u8;
    let t = RandomTree::new(seed, 2, depth, LeafModel::Uniform { min: 0, max: leaf_max }).unwrap();
    let t = t.with_branching(1 + (seed % 2) as u8, 3 + (seed % 2) as u8).unwrap();
    if seed % 4 == 3 { t.with_chance(2, ChanceWeights::Random).unwrap() } else { t }
}

/// The tree of the paper's Fig. 6 (utilities 1, 2, 3, 4, 5).
const FIG6_TREE: &str = "min(1, max(2), max(min(1)), max(3, 4, 5))";

fn fig6_analysis() -> PathAnalysis<LiteralTree, LiteralEval, UtilityCosts> {
    PathAnalysis::new(FIG6_TREE.parse().unwrap(), LiteralEval, UtilityCosts::default())
}

fn children<G: Game>(state: &G) -> Result<Vec<(f64, G)>, Outcome> {
    let mut moves = Vec::new();
    match state.generate(&mut moves) {
        Status::Over(o) => Err(o),
        Status::Ongoing => {
            let mut probs = Vec::new();
            if state.turn() == Turn::Chance {
                state.chance_probabilities(&moves, &mut probs);
            } else {
                probs = vec![1.0; moves.len()];
            }
            Ok(moves
                .iter()
                .zip(probs)
                .map(|(&mv, p)| {
                    let mut c = state.clone();
                    c.play(mv);
                    (p, c)
                })
                .collect())
        }
    }
}

/// Test-side costs: an interior arc costs `interior`; the arc into a leaf
/// costs `offset − payoff` (the AI is the first player).
#[derive(Clone, Copy)]
struct TestCosts {
    interior: f64,
    offset: f64,
}

impl TestCosts {
    fn arc(&self, state: &RandomTree) -> f64 {
        match state.status() {
            Status::Over(Outcome::Payoff(v)) => self.offset - v,
            Status::Over(_) => unreachable!("random trees end with payoffs"),
            Status::Ongoing => self.interior,
        }
    }
    fn model(&self) -> UtilityCosts {
        UtilityCosts::new(self.interior, self.offset).unwrap()
    }
}

/// The paper's product form, eq. (11): z = 1 at leaves, Σ exp(−θc) z at the
/// AI's nodes, min at the opponent's, and (our extension) the expectation
/// of the cost at chance nodes, taken through V. Returns V = −ln(z)/θ, or
/// the hard minimax cost when `theta` is None.
fn naive_value(state: &RandomTree, theta: Option<f64>, c: TestCosts) -> f64 {
    let Ok(kids) = children(state) else {
        return 0.0;
    };
    let xs: Vec<(f64, f64)> = kids.iter().map(|(p, k)| (*p, c.arc(k) + naive_value(k, theta, c))).collect();
    match state.turn() {
        Turn::Chance => xs.iter().map(|(p, x)| p * x).sum(),
        Turn::Player(Player::First) => match theta {
            Some(t) => -(xs.iter().map(|(_, x)| (-t * x).exp()).sum::<f64>()).ln() / t,
            None => xs.iter().map(|x| x.1).fold(f64::INFINITY, f64::min),
        },
        Turn::Player(Player::Second) => xs.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max),
    }
}

fn rminimax_run<C: CostModel>(t: &RandomTree, theta: f64, costs: C, limits: Limits) -> SearchResult<u8> {
    let rule = Rminimax::with_costs(theta, costs).unwrap();
    let r = Search::new(rule, RandomTreeEval::default(), Options::full_width()).unwrap().run(t, &limits).unwrap();
    r.map_rule_value(|v| v.scalar())
}

fn minimax_run(t: &RandomTree, limits: Limits) -> SearchResult<u8> {
    Search::new(Minimax, RandomTreeEval::default(), Options::full_width()).unwrap().run(t, &limits).unwrap()
}

fn sorted(mut v: Vec<u8>) -> Vec<u8> {
    v.sort_unstable();
    v
}

/// The moves whose score is within `tol` of the best.
fn near_best(r: &SearchResult<u8>, tol: f64) -> Vec<u8> {
    let best = r.root_moves.iter().map(|m| m.score).fold(f64::NEG_INFINITY, f64::max);
    sorted(r.root_moves.iter().filter(|m| m.score >= best - tol).map(|m| m.mv).collect())
}

// ---------------------------------------------------------------------------
// θ → ∞ is minimax.

#[test]
fn infinite_theta_is_minimax_on_random_trees() {
    let mut ties = 0;
    let mut chance = 0;
    for seed in 0..240u64 {
        let t = random_tree(seed, 6, 3);
        // Complete trees: every path has the same number of interior arcs,
        // so V = (depth − 1)·1 + offset − minimax exactly.
        let c = TestCosts { interior: 1.0, offset: 3.0 };
        let mm = minimax_run(&t, Limits::full_tree());
        let rm = rminimax_run(&t, f64::INFINITY, c.model(), Limits::full_tree());
        let shift = f64::from(t.depth() - 1) + c.offset;
        let has_chance = seed % 4 == 3;
        chance += usize::from(has_chance);
        if has_chance {
            assert!((-rm.value.unwrap() - (shift - mm.value.unwrap())).abs() < 1e-9, "seed {seed}");
            assert_eq!(near_best(&rm, 1e-9), near_best(&mm, 1e-9), "seed {seed}");
        } else {
            assert_eq!(-rm.value.unwrap(), shift - mm.value.unwrap(), "seed {seed}");
            assert_eq!(sorted(rm.best_moves.clone()), sorted(mm.best_moves.clone()), "seed {seed}");
            for (a, b) in rm.root_moves.iter().zip(&mm.root_moves) {
                assert_eq!(a.mv, b.mv);
                assert_eq!(a.score, b.score - shift, "seed {seed}");
            }
        }
        ties += usize::from(mm.best_moves.len() > 1);
        // θ = 10⁶: values within the soft margin, same optimal move set
        // (distinct minimax values differ by more than 10⁻³ here, soft values
        // by less than 10⁻⁵ from them).
        let big = rminimax_run(&t, 1e6, c.model(), Limits::full_tree());
        assert!((-big.value.unwrap() - (shift - mm.value.unwrap())).abs() < 1e-4, "seed {seed}");
        assert!(-big.value.unwrap() <= shift - mm.value.unwrap() + 1e-9, "soft ≤ hard, seed {seed}");
        assert_eq!(near_best(&big, 1e-4), near_best(&mm, 1e-9), "seed {seed}");
    }
    assert!(ties >= 40, "the trees must exercise ties ({ties})");
    assert!(chance >= 50);
}

#[test]
fn infinite_theta_is_minimax_at_a_depth_limit() {
    // Horizon nodes cost offset − h with h their static value.
    for seed in 0..100u64 {
        let t = RandomTree::new(seed, 3, 6, LeafModel::Uniform { min: 0, max: 5 }).unwrap();
        let c = TestCosts { interior: 1.0, offset: 5.0 };
        for depth in [1, 2, 3] {
            let mm = minimax_run(&t, Limits::depth(depth));
            let rm = rminimax_run(&t, f64::INFINITY, c.model(), Limits::depth(depth));
            assert_eq!(-rm.value.unwrap(), f64::from(depth - 1) + 5.0 - mm.value.unwrap(), "seed {seed} depth {depth}");
            assert_eq!(sorted(rm.best_moves), sorted(mm.best_moves), "seed {seed} depth {depth}");
        }
    }
}

// ---------------------------------------------------------------------------
// Numerics.

#[test]
fn log_domain_equals_naive_product_form() {
    let mut compared = 0;
    for seed in 0..120u64 {
        let t = random_tree(seed, 5, 9);
        let c = TestCosts { interior: 1.0, offset: 9.0 };
        for theta in [0.05, 0.5, 2.0, 7.0] {
            let naive = naive_value(&t, Some(theta), c);
            if !naive.is_finite() {
                continue; // the product form under- or overflowed
            }
            let rm = rminimax_run(&t, theta, c.model(), Limits::full_tree());
            let v = -rm.value.unwrap();
            assert!((v - naive).abs() <= 1e-9 * naive.abs().max(1.0), "seed {seed} θ {theta}: {v} vs {naive}");
            compared += 1;
        }
    }
    assert!(compared > 400);
}

#[test]
fn extreme_theta_and_costs_stay_finite() {
    for seed in 0..40u64 {
        let t = RandomTree::new(seed, 3, 5, LeafModel::Uniform { min: 0, max: 1_000_000 }).unwrap();
        let c = TestCosts { interior: 1.0, offset: 1e6 };
        let hard = naive_value(&t, None, c);
        for theta in [1e-6, 1e6] {
            let r = rminimax_run(&t, theta, c.model(), Limits::full_tree());
            let v = -r.value.unwrap();
            assert!(v.is_finite(), "seed {seed} θ {theta}");
            // Soft minima lie within ln(b)/θ below the hard ones: three AI
            // levels of branching 3 on the way down.
            assert!(
                v <= hard + 1e-6 && v >= hard - 3.0 * 3f64.ln() / theta - 1e-6,
                "seed {seed} θ {theta}: {v} vs {hard}"
            );
            let rule = Rminimax::with_costs(theta, c.model()).unwrap();
            let p = rule.transition_probabilities(r.value.unwrap(), &r.scores()).unwrap();
            assert!(p.iter().all(|x| x.is_finite() && *x >= 0.0));
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "seed {seed} θ {theta}: {p:?}");
            let s = PathAnalysis::new(t, RandomTreeEval::default(), c.model())
                .stats(TreePolicy::Rminimax { theta })
                .unwrap();
            assert!(s.entropy.is_finite() && s.expected_cost.is_finite());
        }
    }
}

// ---------------------------------------------------------------------------
// The policy.

/// Visits every node of `t` where the first player (the AI of searches
/// rooted there) moves.
fn for_each_ai_node(t: &RandomTree, f: &mut impl FnMut(&RandomTree)) {
    if let Ok(kids) = children(t) {
        if t.turn() == Turn::Player(Player::First) {
            f(t);
        }
        for (_, k) in &kids {
            for_each_ai_node(k, f);
        }
    }
}

#[test]
fn policy_sums_to_one_at_every_ai_node() {
    let c = TestCosts { interior: 1.0, offset: 4.0 };
    let mut nodes = 0;
    for seed in 0..30u64 {
        let t = random_tree(seed, 5, 4);
        for theta in [0.01, 1.0, 50.0, f64::INFINITY] {
            let rule = Rminimax::with_costs(theta, c.model()).unwrap();
            let mut agent = rminimax_agent(theta, c.model(), RandomTreeEval::default(), Limits::full_tree()).unwrap();
            for_each_ai_node(&t, &mut |node| {
                let r = Search::new(rule, RandomTreeEval::default(), Options::full_width())
                    .unwrap()
                    .run(node, &Limits::full_tree())
                    .unwrap();
                // Eq. (10), not renormalised.
                let p = rule.transition_probabilities(r.value.unwrap(), &r.scores()).unwrap();
                assert!(p.iter().all(|&x| (0.0..=1.0 + 1e-12).contains(&x)));
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12, "θ {theta}: {p:?}");
                // The agent's distribution is the same policy.
                let d = agent.distribution(node).unwrap();
                for ((mv, q), (m, pi)) in d.iter().zip(r.root_moves.iter().zip(&p)) {
                    assert_eq!(*mv, m.mv);
                    assert!((q - pi).abs() < 1e-12);
                }
                nodes += 1;
            });
        }
    }
    assert!(nodes > 200);
}

#[test]
fn other_agents_sum_to_one_and_follow_the_footnote() {
    // The tree of the paper's Fig. 5.
    let t: LiteralTree = "min(1, max(2), max(min(1)), max(98, 99, 100))".parse().unwrap();
    let mut eg = epsilon_greedy_agent(0.7, UtilityCosts::default(), LiteralEval, Limits::full_tree()).unwrap();
    let d: Vec<f64> = eg.distribution(&t).unwrap().iter().map(|x| x.1).collect();
    // Costs 1, 3, 3, 101: one optimal move gets ε, three others share 1 − ε.
    let expected = [0.7, 0.1, 0.1, 0.1];
    for (a, b) in d.iter().zip(expected) {
        assert!((a - b).abs() < 1e-12, "{d:?}");
    }
    let mut bz = boltzmann_agent(0.5, UtilityCosts::default(), LiteralEval, Limits::full_tree()).unwrap();
    let d: Vec<f64> = bz.distribution(&t).unwrap().iter().map(|x| x.1).collect();
    let w: Vec<f64> = [1.0f64, 3.0, 3.0, 101.0].iter().map(|x| (-0.5 * x).exp()).collect();
    let z: f64 = w.iter().sum();
    for (a, b) in d.iter().zip(&w) {
        assert!((a - b / z).abs() < 1e-12);
    }
}

#[test]
fn sampling_follows_the_policy_and_is_seeded() {
    // The tree of the paper's Fig. 6.
    let t: LiteralTree = FIG6_TREE.parse().unwrap();
    let mut ai = rminimax_agent(0.7, UtilityCosts::default(), LiteralEval, Limits::full_tree()).unwrap();
    let p: Vec<f64> = ai.distribution(&t).unwrap().iter().map(|x| x.1).collect();
    let mut counts = [0usize; 4];
    let mut r = rng::seeded(11);
    let n = 20_000;
    for _ in 0..n {
        counts[search_core::Agent::choose(&mut ai, &t, &mut r).unwrap() as usize] += 1;
    }
    for (c, pi) in counts.iter().zip(&p) {
        let sd = (pi * (1.0 - pi) / n as f64).sqrt();
        assert!((*c as f64 / n as f64 - pi).abs() < 5.0 * sd + 1e-9, "{counts:?} vs {p:?}");
    }
    // Both players randomized, each with its own θ; the seed fixes the game.
    let g = RandomTree::new(5, 3, 6, LeafModel::Uniform { min: -3, max: 3 }).unwrap();
    let costs = search_core::backup::rminimax::OutcomeCosts::default().with_horizon_range(3.0).unwrap();
    let mut a = rminimax_agent(0.3, costs, RandomTreeEval::default(), Limits::full_tree()).unwrap();
    let mut b = rminimax_agent(5.0, costs, RandomTreeEval::default(), Limits::full_tree()).unwrap();
    let m1 = play_match(&g, &mut a, &mut b, 99, None).unwrap();
    let m2 = play_match(&g, &mut a, &mut b, 99, None).unwrap();
    assert_eq!(m1, m2);
    assert_eq!(m1.moves.len(), 6);
    let games: Vec<_> = (0..20).map(|s| play_match(&g, &mut a, &mut b, s, None).unwrap().moves).collect();
    assert!(games.iter().any(|m| m != &games[0]), "a randomized player must vary");
}

// ---------------------------------------------------------------------------
// Entropy and expected cost against brute-force path enumeration.

/// Test-side local policy at an AI node with child costs `xs` (c + V, V as
/// the family backs it up) and the node's own V.
fn test_local(policy: TreePolicy, xs: &[f64], v: f64) -> Vec<f64> {
    let best = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let n = xs.iter().filter(|&&x| x == best).count() as f64;
    match policy {
        TreePolicy::Rminimax { theta } => xs.iter().map(|x| (-theta * (x - v)).exp()).collect(),
        TreePolicy::Boltzmann { theta } => {
            let z: f64 = xs.iter().map(|x| (-theta * x).exp()).sum();
            xs.iter().map(|x| (-theta * x).exp() / z).collect()
        }
        TreePolicy::EpsilonGreedy { epsilon } => {
            let m = xs.len() as f64 - n;
            xs.iter()
                .map(|&x| match (x == best, m == 0.0) {
                    (_, true) => 1.0 / n,
                    (true, false) => epsilon / n,
                    (false, false) => (1.0 - epsilon) / m,
                })
                .collect()
        }
        TreePolicy::Greedy => xs.iter().map(|&x| if x == best { 1.0 / n } else { 0.0 }).collect(),
    }
}

/// Every complete path: (probability, ln of the AI's share of it, cost).
fn enumerate(
    state: &RandomTree,
    policy: TreePolicy,
    c: TestCosts,
    acc: (f64, f64, f64),
    out: &mut Vec<(f64, f64, f64)>,
) {
    let Ok(kids) = children(state) else {
        out.push(acc);
        return;
    };
    let theta = match policy {
        TreePolicy::Rminimax { theta } => Some(theta),
        _ => None,
    };
    let xs: Vec<f64> = kids.iter().map(|(_, k)| c.arc(k) + naive_value(k, theta, c)).collect();
    let (p, lp, cost) = acc;
    match state.turn() {
        Turn::Chance => {
            for ((q, k), _) in kids.iter().zip(&xs) {
                enumerate(k, policy, c, (p * q, lp, cost + c.arc(k)), out);
            }
        }
        Turn::Player(Player::First) => {
            let probs = test_local(policy, &xs, naive_value(state, theta, c));
            for ((_, k), q) in kids.iter().zip(probs) {
                if q > 0.0 {
                    enumerate(k, policy, c, (p * q, lp + q.ln(), cost + c.arc(k)), out);
                }
            }
        }
        Turn::Player(Player::Second) => {
            let mut j = 0;
            for (i, &x) in xs.iter().enumerate() {
                if x > xs[j] + TIE_TOLERANCE * xs[j].abs().max(1.0) {
                    j = i;
                }
            }
            let k = &kids[j].1;
            enumerate(k, policy, c, (p, lp, cost + c.arc(k)), out);
        }
    }
}

#[test]
fn entropy_and_cost_match_path_enumeration() {
    let policies = [
        TreePolicy::Rminimax { theta: 0.3 },
        TreePolicy::Rminimax { theta: 2.0 },
        TreePolicy::EpsilonGreedy { epsilon: 0.6 },
        TreePolicy::EpsilonGreedy { epsilon: 0.05 },
        TreePolicy::Boltzmann { theta: 0.8 },
        TreePolicy::Greedy,
    ];
    let mut checked = 0;
    for seed in 0..60u64 {
        let t = random_tree(seed, 5, 4);
        let c = TestCosts { interior: 1.0, offset: 4.0 };
        let a = PathAnalysis::new(t, RandomTreeEval::default(), c.model());
        let no_chance = seed % 4 != 3;
        for policy in policies {
            let s = a.stats(policy).unwrap();
            let mut paths = Vec::new();
            enumerate(&t, policy, c, (1.0, 0.0, 0.0), &mut paths);
            let total: f64 = paths.iter().map(|p| p.0).sum();
            assert!((total - 1.0).abs() < 1e-9, "path probabilities sum to {total}");
            let h: f64 = -paths.iter().map(|p| p.0 * p.1).sum::<f64>();
            let e: f64 = paths.iter().map(|p| p.0 * p.2).sum();
            assert!((s.entropy - h).abs() < 1e-9, "seed {seed} {policy:?}: H {} vs {h}", s.entropy);
            assert!((s.expected_cost - e).abs() < 1e-9, "seed {seed} {policy:?}: E {} vs {e}", s.expected_cost);
            if no_chance {
                // Without chance nodes H is the Shannon entropy of the paths.
                let shannon: f64 = -paths.iter().map(|p| p.0 * p.0.ln()).sum::<f64>();
                assert!((s.entropy - shannon).abs() < 1e-9);
            }
            let theta = if let TreePolicy::Rminimax { theta } = policy { Some(theta) } else { None };
            assert!((s.cost_to_go - naive_value(&t, theta, c)).abs() < 1e-9);
            checked += 1;
        }
    }
    assert_eq!(checked, 360);
}

// ---------------------------------------------------------------------------
// Errors.

/// A cost model with a negative interior cost.
#[derive(Debug, Clone, Copy)]
struct Negative;
impl CostModel for Negative {
    fn interior(&self) -> f64 {
        -1.0
    }
    fn terminal(&self, _: Outcome, _: Player, _: f64) -> f64 {
        0.0
    }
    fn horizon(&self, _: f64) -> f64 {
        0.0
    }
}

fn is_param(e: &GameError, name: &str) -> bool {
    matches!(e, GameError::Param(p) if p.name == name)
}

#[test]
fn bad_parameters_are_typed_errors() {
    for theta in [0.0, -0.5, f64::NAN, f64::NEG_INFINITY] {
        assert_eq!(Rminimax::new(theta).unwrap_err().name, "theta");
        assert!(
            rminimax_agent::<LiteralTree, _, _>(theta, UtilityCosts::default(), LiteralEval, Limits::full_tree())
                .is_err()
        );
        assert!(
            boltzmann_agent::<LiteralTree, _, _>(theta, UtilityCosts::default(), LiteralEval, Limits::full_tree())
                .is_err()
        );
        let a = fig6_analysis();
        assert!(is_param(&a.stats(TreePolicy::Rminimax { theta }).unwrap_err(), "theta"));
    }
    for eps in [-0.1, 1.1, f64::NAN] {
        let a = fig6_analysis();
        assert!(is_param(&a.stats(TreePolicy::EpsilonGreedy { epsilon: eps }).unwrap_err(), "epsilon"));
        assert!(
            epsilon_greedy_agent::<LiteralTree, _, _>(eps, UtilityCosts::default(), LiteralEval, Limits::full_tree())
                .is_err()
        );
    }
    // Negative leaf costs (utilities below zero) and negative arc costs.
    let neg: LiteralTree = "min(1, max(-2, 0))".parse().unwrap();
    let a = PathAnalysis::new(neg.clone(), LiteralEval, UtilityCosts::default());
    assert!(is_param(&a.stats(TreePolicy::Rminimax { theta: 1.0 }).unwrap_err(), "costs"));
    assert!(is_param(&a.stats(TreePolicy::Greedy).unwrap_err(), "costs"));
    let mut agent = rminimax_agent(1.0, UtilityCosts::default(), LiteralEval, Limits::full_tree()).unwrap();
    assert!(is_param(&agent.distribution(&neg).unwrap_err(), "costs"));
    let mut r = rng::seeded(1);
    assert!(search_core::Agent::choose(&mut agent, &neg, &mut r).is_err());
    let deep: LiteralTree = "max(min(max(1)), 2)".parse().unwrap();
    let b = PathAnalysis::new(deep.clone(), LiteralEval, Negative);
    assert!(is_param(&b.stats(TreePolicy::Rminimax { theta: 1.0 }).unwrap_err(), "costs"));
    let mut agent = rminimax_agent(1.0, Negative, LiteralEval, Limits::full_tree()).unwrap();
    assert!(is_param(&agent.distribution(&deep).unwrap_err(), "costs"));
    // Cost-model parameters.
    assert!(UtilityCosts::new(-1.0, 0.0).is_err());
    // Solvers: unreachable targets and bad brackets.
    let a = fig6_analysis();
    assert!(a.solve_exact(PolicyFamily::Rminimax, 0.5, 3.0, 1.0).is_err());
    assert!(a.solve_exact(PolicyFamily::Rminimax, 5.0, 0.001, 10.0).is_err());
    // A finished game.
    let leaf: LiteralTree = "3".parse().unwrap();
    let a = PathAnalysis::new(leaf, LiteralEval, UtilityCosts::default());
    assert_eq!(a.stats(TreePolicy::Greedy).unwrap_err(), GameError::GameOver);
}

// ---------------------------------------------------------------------------
// Cost per node, for docs/backup-rules.md. Run in release:
// cargo test --release -p search-core --test integration rminimax:: -- --ignored --nocapture

fn time_per_node<F: FnMut() -> u64>(mut f: F) -> f64 {
    let _ = f();
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        let nodes = f();
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / nodes as f64);
    }
    best
}

#[test]
#[ignore = "timing; run in release with --ignored --nocapture"]
fn cost_per_node_relative_to_minimax() {
    let trees = [
        (
            "random b=4 d=9 (349,525 nodes)",
            RandomTree::new(2024, 4, 9, LeafModel::Uniform { min: -50, max: 50 }).unwrap(),
        ),
        (
            "tic-tac-toe-sized: b=2..6 d=9, leaves -1..=1",
            RandomTree::new(7, 4, 9, LeafModel::Uniform { min: -1, max: 1 }).unwrap().with_branching(2, 6).unwrap(),
        ),
    ];
    for (name, t) in trees {
        let eval = RandomTreeEval::default();
        let mm = time_per_node(|| {
            Search::new(Minimax, eval, Options::full_width())
                .unwrap()
                .run(&t, &Limits::full_tree())
                .unwrap()
                .stats
                .nodes
        });
        let costs = UtilityCosts::new(1.0, 50.0).unwrap();
        let rm = time_per_node(|| {
            let rule = Rminimax::with_costs(0.5, costs).unwrap();
            Search::new(rule, eval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap().stats.nodes
        });
        let hard = time_per_node(|| {
            let rule = Rminimax::with_costs(f64::INFINITY, costs).unwrap();
            Search::new(rule, eval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap().stats.nodes
        });
        let pa = PathAnalysis::new(t, eval, costs);
        let nodes = Search::new(Minimax, eval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::full_tree())
            .unwrap()
            .stats
            .nodes;
        let path = time_per_node(|| {
            pa.stats(TreePolicy::Rminimax { theta: 0.5 }).unwrap();
            nodes
        });
        println!(
            "{name}: {nodes} nodes; minimax {mm:.1} ns/node; rminimax θ=0.5 {rm:.1} ({:.2}×); θ=∞ {hard:.1} ({:.2}×); \
             PathAnalysis {path:.1} ({:.2}×)",
            rm / mm,
            hard / mm,
            path / mm
        );
    }
}
