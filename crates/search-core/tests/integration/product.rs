//! Product propagation (Kaindl, Horacek and Scheucher 2017): hand-computed
//! trees, terminal outcomes, log-space precision where plain products
//! underflow, and a naive probability-space version on random trees.

use crate::common_rules::{Decisive, DecisiveEval};
use search_core::backup::{Product, ProductValue};
use search_core::search::{DepthUnit, Limits, Options, Search, SearchAgent};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, Evaluator, Game, Player, Status, Turn, rng};

/// The win probability of log-odds `x`.
fn p(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Log-odds of `p`, as a leaf payoff (T = 1).
fn lo(p: f64) -> String {
    format!("{:?}", (p / (1.0 - p)).ln())
}

#[test]
fn hand_computed_tree_with_a_chance_node() {
    // Leaves, as max's win probabilities: a = ½, b = ¾, c = ¼, d = 0.9,
    // e = ½. Chance node: ½·0.9 + ½·½ = 0.7 for max.
    // Left min: 1 − ½·¾ = 5/8 for min (3/8 for max).
    // Right min: 1 − ¼·0.7 = 0.825 for min (0.175 for max).
    // Root: 1 − (5/8)·0.825 = 0.484375.
    let tree =
        format!("max(min({}, {}), min({}, chance(0.5: {}, 0.5: {})))", lo(0.5), lo(0.75), lo(0.25), lo(0.9), lo(0.5));
    let t: LiteralTree = tree.parse().unwrap();
    let r = Search::new(Product::new(1.0).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    let v = p(r.value.unwrap());
    assert!((v - 0.484375).abs() < 1e-12, "{v}");
    assert!((p(r.root_moves[0].score) - 0.375).abs() < 1e-12);
    assert!((p(r.root_moves[1].score) - 0.175).abs() < 1e-12);
    assert_eq!(r.best, Some(0));
    let mut agent = SearchAgent::new(
        Search::new(Product::new(1.0).unwrap(), LiteralEval, Options::full_width()).unwrap(),
        Limits::full_tree(),
    );
    assert_eq!(agent.choose(&t, &mut rng::seeded(2)).unwrap(), 0);
}

#[test]
fn temperature_scales_the_heuristic() {
    // One min node below max, searched one ply: its static value 6 (max's
    // view) is P = σ(6/T) for max.
    let t: LiteralTree = "max(min[6](0), min[-2](0))".parse().unwrap();
    for temp in [0.5, 3.0, 40.0] {
        let r = Search::new(Product::new(temp).unwrap(), LiteralEval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::depth(1))
            .unwrap();
        assert!((p(r.root_moves[0].score) - p(6.0 / temp)).abs() < 1e-12);
        assert!((p(r.root_moves[1].score) - p(-2.0 / temp)).abs() < 1e-12);
        // Root: 1 − (1 − σ(6/T))(1 − σ(−2/T)).
        let expected = 1.0 - (1.0 - p(6.0 / temp)) * (1.0 - p(-2.0 / temp));
        assert!((p(r.value.unwrap()) - expected).abs() < 1e-12);
    }
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(Product::new(bad).is_err());
    }
}

#[test]
fn terminal_outcomes() {
    let eval = DecisiveEval { win: 1.0 };
    let run = |tree: &str| {
        let t = Decisive::parse(tree);
        Search::new(Product::new(1.0).unwrap(), eval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::full_tree())
            .unwrap()
    };
    // A won terminal makes the node a certain win (log-odds +∞); a lost
    // one contributes nothing; a draw is ½.
    assert_eq!(run("max(-1000, 1000)").value, Some(f64::INFINITY));
    assert_eq!(run("max(-1000, -1000)").value, Some(f64::NEG_INFINITY));
    let r = run("max(500, -1000)");
    assert!((p(r.value.unwrap()) - 0.5).abs() < 1e-15);
    // Min's node with a draw and a min win is a certain min win.
    let r = run("max(min(500, -1000), 500)");
    assert_eq!(r.root_moves[0].score, f64::NEG_INFINITY);
    assert_eq!(r.best, Some(1));
}

#[test]
fn log_space_keeps_what_plain_products_lose() {
    // Max nodes with 2000 and 2100 even leaves: max loses only if every
    // leaf loses, with probability 2⁻²⁰⁰⁰ or 2⁻²¹⁰⁰: both underflow to 0 in
    // a plain product, so both nodes would look like certain max wins.
    let wide = |n: usize| format!("max({})", vec!["0"; n].join(", "));
    let t: LiteralTree = format!("min({}, {})", wide(2000), wide(2100)).parse().unwrap();
    assert_eq!(0.5f64.powi(2000), 0.0);
    let r = Search::new(Product::new(1.0).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    let ln2 = std::f64::consts::LN_2;
    // Scores are min's log-odds: −(max's), max's ≈ n·ln 2.
    assert!((r.root_moves[0].score + 2000.0 * ln2).abs() < 1e-8);
    assert!((r.root_moves[1].score + 2100.0 * ln2).abs() < 1e-8);
    assert_eq!(r.best, Some(0));
    // The value type keeps both tails.
    let v = ProductValue::from_log_odds(-1000.0);
    assert_eq!(v.win_probability(), 0.0);
    assert!((v.ln_win() + 1000.0).abs() < 1e-12);
    assert!((v.flipped().ln_loss() + 1000.0).abs() < 1e-12);
    assert!(ProductValue::from_probability(1.5).is_err());
}

/// Naive product propagation in probability space: the mover's win
/// probability (chance nodes: the first player's).
fn naive<G: Game>(s: &G, depth: u32, eval: &impl Evaluator<G>, temp: f64) -> f64 {
    let me = s.turn().player().unwrap_or(Player::First);
    let mut moves = Vec::new();
    match s.generate(&mut moves) {
        Status::Over(o) => p(eval.terminal_value(o, me, 0) / temp),
        Status::Ongoing if depth == 0 => p(eval.evaluate_for(s, me) / temp),
        Status::Ongoing => {
            let kids: Vec<f64> = moves
                .iter()
                .map(|&m| {
                    let mut c = s.clone();
                    c.play(m);
                    let v = naive(&c, depth - 1, eval, temp);
                    if c.turn().player().unwrap_or(Player::First) == me { v } else { 1.0 - v }
                })
                .collect();
            match s.turn() {
                Turn::Chance => {
                    let mut probs = Vec::new();
                    s.chance_probabilities(&moves, &mut probs);
                    kids.iter().zip(&probs).map(|(v, p)| v * p).sum()
                }
                Turn::Player(_) => 1.0 - kids.iter().map(|v| 1.0 - v).product::<f64>(),
            }
        }
    }
}

#[test]
fn product_equals_a_naive_version_on_random_trees() {
    for i in 0..300 {
        let seed = rng::derive_seed(0x960D, i);
        let b = 2 + (seed % 3) as u8;
        let d = 1 + ((seed >> 8) % 5) as u8;
        let mut t = RandomTree::new(seed, b, d, LeafModel::Uniform { min: -8, max: 8 }).unwrap();
        if (seed >> 12).is_multiple_of(3) {
            t = t.with_chance(2, ChanceWeights::Random).unwrap();
        }
        let limit = if (seed >> 16).is_multiple_of(2) { u32::from(d) } else { u32::from(d).max(2) - 1 };
        let temp = [0.5, 2.0, 10.0][((seed >> 20) % 3) as usize];
        let eval = RandomTreeEval::default();
        // The naive version counts chance nodes as plies.
        let options = Options::full_width().with_depth_unit(DepthUnit::Plies);
        let r =
            Search::new(Product::new(temp).unwrap(), eval, options).unwrap().run(&t, &Limits::depth(limit)).unwrap();
        let expected = naive(&t, limit, &eval, temp);
        let v = p(r.value.unwrap());
        assert!((v - expected).abs() < 1e-12, "tree {i}: {v} vs {expected}");
    }
}
