//! IOM and PIOM (Liu et al. 2020): the paper's worked examples (Figs. 6 and
//! 7), the leaf rules, decisive terminals, and PIOM = IOM on thousands of
//! seeded random trees, checked against an independent naive IOM.

use crate::common_rules::{Decisive, DecisiveEval};
use search_core::backup::{Iom, IomLeafRule};
use search_core::search::{Bound, DepthUnit, Limits, Options, Search, SearchAgent};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, Evaluator, Game, Player, Status, Turn, rng};

/// Fig. 6, with the leaves chosen to match every number the text gives
/// (`e_B = −9`, B's smallest child 7, `b_C = −22`, `e_A = 7`) and Fig. 2's
/// minimax result (A worth 9 via C). Static values in brackets are from
/// max's point of view, so `B=min[9]` is `e_B = −9` for min.
const FIG6: &str = "A=max[7](B=min[9](D=8, E=7), C=min[4](F=9, G=10))";

fn fig6(f: f64) -> LiteralTree {
    FIG6.replace("F=9", &format!("F={f}")).parse().unwrap()
}

/// The IOM value of the node after `label`, from its mover's view.
fn child_value(t: &LiteralTree, label: &str, depth: u32, options: Options) -> f64 {
    let mut c = t.clone();
    c.play(t.move_to(label).unwrap());
    Search::new(Iom::new(), LiteralEval, options).unwrap().run(&c, &Limits::depth(depth)).unwrap().value.unwrap()
}

#[test]
fn figure_6_values_and_decision() {
    let t = fig6(9.0);
    assert_eq!(child_value(&t, "B", 1, Options::full_width()), -23.0);
    assert_eq!(child_value(&t, "C", 1, Options::full_width()), -22.0);
    let r = Search::new(Iom::new(), LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::depth(2)).unwrap();
    assert_eq!(r.value, Some(53.0));
    assert_eq!(r.best_moves, vec![t.move_to("B").unwrap()]);
    // The root move scores are the candidates e_A − 2·b(child).
    let scores: Vec<f64> = r.root_moves.iter().map(|m| m.score).collect();
    assert_eq!(scores, vec![7.0 + 46.0, 7.0 + 44.0]);
    assert_eq!(r.stats.nodes, 7);
    // Minimax on the same tree (Fig. 2) plays C: IOM changes the decision.
    let mm = Search::new(search_core::backup::Minimax, LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    assert_eq!((mm.value, mm.best), (Some(9.0), t.move_to("C")));
}

#[test]
fn figure_7_cuts_c_when_its_temporary_value_reaches_its_beta() {
    // PIOM: C is searched with the window (−∞, (7 − 53)/2) = (−∞, −23).
    // After F its temporary value is −4 − 2·9 = −22 ≥ −23: G is cut off.
    let t = fig6(9.0);
    let r =
        Search::new(Iom::new(), LiteralEval, Options::plain_alpha_beta()).unwrap().run(&t, &Limits::depth(2)).unwrap();
    assert_eq!(r.value, Some(53.0));
    assert_eq!(r.best, t.move_to("B"));
    assert_eq!(r.stats.nodes, 6, "A, B, D, E, C, F: G is pruned");
    assert_eq!(r.stats.cutoffs, 1);
    let c = r.root_moves[1];
    // C fails low at the root with its temporary value −22 (candidate 51).
    assert_eq!((c.score, c.bound), (7.0 + 44.0, Bound::Upper));

    // The window's upper end is exactly −23: a temporary value of exactly
    // −23 (F = 9.5) still cuts, one just below (F slightly above 9.5) does not.
    let at_beta = Search::new(Iom::new(), LiteralEval, Options::plain_alpha_beta())
        .unwrap()
        .run(&fig6(9.5), &Limits::depth(2))
        .unwrap();
    assert_eq!(at_beta.stats.nodes, 6);
    let f = 9.5 + 1e-9;
    let below = Search::new(Iom::new(), LiteralEval, Options::plain_alpha_beta())
        .unwrap()
        .run(&fig6(f), &Limits::depth(2))
        .unwrap();
    assert_eq!(below.stats.nodes, 7);
    let full =
        Search::new(Iom::new(), LiteralEval, Options::full_width()).unwrap().run(&fig6(f), &Limits::depth(2)).unwrap();
    assert_eq!(below.value, full.value);

    // Every enhancement on (PVS, table, ordering, deepening): same result.
    // (Quiescence search is for plain negamax rules only.)
    let options = Options::default().with_quiescence(false);
    let r = Search::new(Iom::new(), LiteralEval, options).unwrap().run(&t, &Limits::depth(2)).unwrap();
    assert_eq!((r.value, r.best), (Some(53.0), t.move_to("B")));
}

#[test]
fn terminal_leaf_rules_before_the_horizon() {
    // Searched 4 plies deep, the leaves (2 plies down) have d = 2 left.
    let t = fig6(9.0);
    let run = |rule| {
        Search::new(Iom::with_leaf_rule(rule), LiteralEval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::depth(4))
            .unwrap()
    };
    // Literal: leaves ×5. b_B = −9 − 2·35 = −79, b_C = −4 − 2·45 = −94,
    // b_A = 7 + 2·94 = 195 (C).
    let lit = run(IomLeafRule::Literal);
    assert_eq!((lit.value, lit.best), (Some(195.0), t.move_to("C")));
    // Geometric: leaves ×7. b_B = −9 − 98 = −107, b_C = −4 − 126 = −130,
    // b_A = 7 + 260 = 267 (C).
    let geo = run(IomLeafRule::Geometric);
    assert_eq!((geo.value, geo.best), (Some(267.0), t.move_to("C")));
    // At d = 1 both rules give ×3.
    let d3 = |rule| {
        Search::new(Iom::with_leaf_rule(rule), LiteralEval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::depth(3))
            .unwrap()
            .value
            .unwrap()
    };
    assert_eq!(d3(IomLeafRule::Literal), d3(IomLeafRule::Geometric));
    // b_B = −9 − 2·21 = −51, b_C = −4 − 2·27 = −58: b_A = 7 + 2·58 (C).
    assert_eq!(d3(IomLeafRule::Literal), 7.0 + 2.0 * 58.0);
}

/// A heuristic path of six plies whose static values all favour `First` by
/// `h` (so its IOM value is `h·(2⁷ − 1)`), beside a decisive leaf.
fn decisive_vs_path(leaf: &str, h: f64) -> Decisive {
    let p = format!("{h}");
    let path = format!("B=min[{p}](max[{p}](min[{p}](max[{p}](min[{p}]({p})))))");
    Decisive::parse(&format!("max[100](A={leaf}, {path})"))
}

#[test]
fn decisive_terminals_dominate_heuristic_paths() {
    // Static values within ±H = 100; the win value W = 3H + 1.
    let eval = DecisiveEval { win: 301.0 };
    for rule in [IomLeafRule::Literal, IomLeafRule::Geometric] {
        // An immediate win (5 plies left) beats the best heuristic path
        // (100·127 = 12700); with the literal factor 11 it would not
        // (100 + 2·301·11 = 6722).
        let t = decisive_vs_path("1000", 100.0);
        let r = Search::new(Iom::with_leaf_rule(rule), eval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::depth(6))
            .unwrap();
        assert_eq!(r.best, Some(0), "{rule:?}");
        assert_eq!(r.value, Some(100.0 + 2.0 * 301.0 * 63.0));
        // An immediate loss is worse than the worst heuristic path.
        let t = decisive_vs_path("-1000", -100.0);
        let r = Search::new(Iom::with_leaf_rule(rule), eval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::depth(6))
            .unwrap();
        assert_eq!(r.best, Some(1), "{rule:?}");
        assert_eq!(r.value, Some(100.0 - 2.0 * 100.0 * 63.0));
        // PIOM agrees.
        let p = Search::new(Iom::with_leaf_rule(rule), eval, Options::plain_alpha_beta())
            .unwrap()
            .run(&t, &Limits::depth(6))
            .unwrap();
        assert_eq!((p.value, p.best), (r.value, r.best));
    }
}

#[test]
fn a_quicker_win_is_preferred() {
    // Two wins for max: after one ply, or after three.
    let t = Decisive::parse("max[0](min[0](max[0](1000)), 1000)");
    let r = Search::new(Iom::new(), DecisiveEval { win: 10.0 }, Options::full_width())
        .unwrap()
        .run(&t, &Limits::depth(5))
        .unwrap();
    assert_eq!(r.best, Some(1));
    let slow = r.root_moves[0].score;
    let quick = r.root_moves[1].score;
    assert!(quick > slow && slow > 0.0, "{quick} {slow}");
}

/// Independent naive IOM from the node's mover's view (chance nodes: the
/// first player's), with `e(s)` at every node.
fn naive_iom<G: Game>(s: &G, depth: i32, eval: &impl Evaluator<G>, rule: IomLeafRule) -> f64 {
    let view = s.turn().player().unwrap_or(Player::First);
    let mut moves = Vec::new();
    match s.generate(&mut moves) {
        Status::Over(o) => {
            let d = depth.max(0) as u32;
            eval.terminal_value(o, view, 0) * rule.factor(d)
        }
        Status::Ongoing if depth <= 0 => eval.evaluate_for(s, view),
        Status::Ongoing => {
            let kids: Vec<f64> = moves
                .iter()
                .map(|&m| {
                    let mut c = s.clone();
                    c.play(m);
                    let v = naive_iom(&c, depth - 1, eval, rule);
                    if c.turn().player().unwrap_or(Player::First) == view { v } else { -v }
                })
                .collect();
            match s.turn() {
                Turn::Chance => {
                    let mut probs = Vec::new();
                    s.chance_probabilities(&moves, &mut probs);
                    kids.iter().zip(&probs).map(|(v, p)| p * v).sum()
                }
                Turn::Player(_) => {
                    let e = eval.evaluate_for(s, view);
                    kids.iter().map(|v| e + 2.0 * v).fold(f64::NEG_INFINITY, f64::max)
                }
            }
        }
    }
}

/// Case `i`: branching 2..=5, depth 2..=6, arc-sum or narrow uniform
/// leaves, a quarter with chance levels; the depth limit is the tree's
/// depth, one less (horizon) or one or two more (terminals with plies left).
fn case(i: u64) -> (RandomTree, u32, IomLeafRule) {
    let seed = rng::derive_seed(0x0010_3EED, i);
    let b = 2 + (seed % 4) as u8;
    let d = 2 + ((seed >> 8) % 5) as u8;
    let model = if (seed >> 12).is_multiple_of(3) {
        LeafModel::Uniform { min: -5, max: 5 }
    } else {
        LeafModel::ArcSum { max_arc: 10 }
    };
    let mut t = RandomTree::new(seed, b, d, model).unwrap();
    if (seed >> 16).is_multiple_of(4) {
        t = t.with_chance(2, ChanceWeights::Random).unwrap();
    }
    let limit = match (seed >> 20) % 3 {
        0 => u32::from(d) - 1,
        1 => u32::from(d),
        _ => u32::from(d) + 1 + ((seed >> 28) % 2) as u32,
    };
    let rule = if (seed >> 24).is_multiple_of(2) { IomLeafRule::Literal } else { IomLeafRule::Geometric };
    (t, limit, rule)
}

#[test]
fn piom_equals_iom_on_random_trees_and_visits_fewer_nodes() {
    const TREES: u64 = 1200;
    let (mut iom_nodes, mut piom_nodes, mut engine_nodes) = (0u64, 0u64, 0u64);
    for i in 0..TREES {
        let (t, depth, rule) = case(i);
        let eval = RandomTreeEval::for_tree(&t);
        // The naive reference counts chance nodes as plies, and so does the
        // depth limit here.
        let limits = Limits::depth(depth);
        let full_width = Options::full_width().with_depth_unit(DepthUnit::Plies);
        let iom = Search::new(Iom::with_leaf_rule(rule), eval, full_width).unwrap().run(&t, &limits).unwrap();

        // IOM against the naive reference, move by move.
        let expected = naive_iom(&t, depth as i32, &eval, rule);
        assert_eq!(iom.value, Some(expected), "tree {i}");
        assert_eq!(iom.root_moves.iter().map(|m| m.score).fold(f64::NEG_INFINITY, f64::max), expected);

        // PIOM, plain alpha-beta in the game's order: same value, same first
        // best move, same exact root-move values.
        let plain = Options::plain_alpha_beta().with_depth_unit(DepthUnit::Plies);
        let piom = Search::new(Iom::with_leaf_rule(rule), eval, plain).unwrap().run(&t, &limits).unwrap();
        assert_eq!(piom.value, iom.value, "tree {i}");
        assert_eq!(piom.best, iom.best, "tree {i}");
        for (p, f) in piom.root_moves.iter().zip(&iom.root_moves) {
            match p.bound {
                Bound::Exact => assert_eq!(p.score, f.score, "tree {i}"),
                Bound::Upper => assert!(p.score >= f.score, "tree {i}: fail-soft upper bound"),
                Bound::Lower => assert!(p.score <= f.score, "tree {i}: fail-soft lower bound"),
            }
        }

        // PIOM with every enhancement (iterative deepening, PVS, exact-depth
        // table, killers, history): same value, a best move of IOM's. IOM's
        // terminal factor depends on the depth limit, so deepening runs to
        // the limit even past the tree's end.
        let options = Options::default().with_quiescence(false).with_depth_unit(DepthUnit::Plies);
        let engine = Search::new(Iom::with_leaf_rule(rule), eval, options).unwrap().run(&t, &limits).unwrap();
        assert_eq!(engine.value, iom.value, "tree {i}");
        assert!(iom.best_moves.contains(&engine.best.unwrap()), "tree {i}");

        iom_nodes += iom.stats.nodes;
        piom_nodes += piom.stats.nodes;
        engine_nodes += engine.stats.nodes;
    }
    let ratio = piom_nodes as f64 / iom_nodes as f64;
    println!(
        "{TREES} trees: IOM {iom_nodes} nodes, PIOM {piom_nodes} ({ratio:.3} of IOM), \
         PIOM + enhancements {engine_nodes} ({:.3}, iterative deepening included)",
        engine_nodes as f64 / iom_nodes as f64
    );
    assert!(piom_nodes < iom_nodes);
}

#[test]
fn iom_plays_as_an_agent() {
    let t = fig6(9.0);
    let mut agent =
        SearchAgent::new(Search::new(Iom::new(), LiteralEval, Options::plain_alpha_beta()).unwrap(), Limits::depth(2));
    assert_eq!(agent.choose(&t, &mut rng::seeded(5)).unwrap(), t.move_to("B").unwrap());
    assert_eq!(agent.name(), "iom d2");
}
