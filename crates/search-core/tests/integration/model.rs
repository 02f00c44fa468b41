//! The game model: literal trees, random trees, the match runner.

use search_core::arena::play_match;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, NodeKind, RandomTree};
use search_core::{Agent, Game, GameError, Outcome, ParamError, Player, RandomAgent, Status, Turn, perft, rng};

#[test]
fn literal_trees_round_trip() {
    for text in [
        "3",
        "max(1, 2)",
        "min(0.3, max(0.7, 0.2))",
        "A=max[7](B=min[-9](1, 2), C=min(-4, 5))",
        "max(chance(0.25: 1, 0.75: min(2, -3)), chance(4, 5, 6))",
        "chance(0.5: max(1, 2), 0.5: -1.5)",
    ] {
        let t: LiteralTree = text.parse().unwrap();
        assert_eq!(t.to_string(), text);
        let again: LiteralTree = t.to_string().parse().unwrap();
        assert_eq!(again.to_string(), text);
    }
    // Whitespace is free.
    let t: LiteralTree = " max ( 1 ,\n min(2,3) ) ".parse().unwrap();
    assert_eq!(t.to_string(), "max(1, min(2, 3))");
}

#[test]
fn literal_tree_errors_point_at_the_problem() {
    let cases = [
        ("max(1, ", 7, "expected a node"),
        ("max(1 2)", 6, "expected `,` or `)`"),
        ("mux(1)", 0, "expected `max`"),
        ("max(1))", 6, "after the tree"),
        ("max[x](1)", 4, "expected a number"),
        ("max(0.5: 1)", 7, "under `chance` only"),
        ("chance(0.5: 1, 2)", 0, "every chance child or for none"),
        ("chance(0.5: 1, 0.6: 2)", 0, "sum to"),
        ("3=max(1)", 0, "label must start with a letter"),
        ("", 0, "expected a node"),
    ];
    for (text, position, reason) in cases {
        match text.parse::<LiteralTree>() {
            Err(GameError::Parse { position: p, reason: r, .. }) => {
                assert_eq!(p, position, "{text:?}: {r}");
                assert!(r.contains(reason), "{text:?}: {r:?} lacks {reason:?}");
            }
            other => panic!("{text:?} parsed: {other:?}"),
        }
    }
}

#[test]
fn literal_trees_play_as_games() {
    let mut t: LiteralTree = "max(A=min(1, 2), B=chance(0.25: 3, 0.75: 4))".parse().unwrap();
    assert_eq!(t.kind(), NodeKind::Max);
    assert_eq!(t.turn(), Turn::Player(Player::First));
    assert_eq!(t.move_to("B"), Some(1));
    assert_eq!(t.parse_move("B"), Ok(1));
    assert_eq!(t.move_string(0), "A");
    t.play_str("B").unwrap();
    assert_eq!(t.turn(), Turn::Chance);
    let mut moves = Vec::new();
    t.generate(&mut moves);
    let mut probs = Vec::new();
    t.chance_probabilities(&moves, &mut probs);
    assert_eq!(probs, [0.25, 0.75]);
    t.play(1);
    assert_eq!(t.status(), Status::Over(Outcome::Payoff(4.0)));
    assert_eq!(t.try_play(0), Err(GameError::GameOver));
}

#[test]
fn random_trees_are_a_function_of_the_seed() {
    let model = LeafModel::Uniform { min: -50, max: 50 };
    let a = RandomTree::new(11, 3, 6, model).unwrap();
    let b = RandomTree::new(11, 3, 6, model).unwrap();
    let c = RandomTree::new(12, 3, 6, model).unwrap();
    let leaves = |t: &RandomTree| {
        let mut out = Vec::new();
        collect_leaves(t, &mut out);
        out
    };
    assert_eq!(leaves(&a), leaves(&b));
    assert_ne!(leaves(&a), leaves(&c));
    assert_eq!(leaves(&a).len(), 729);
    // Variable branching stays within its range and is reproducible.
    let v = RandomTree::new(5, 2, 4, model).unwrap().with_branching(2, 6).unwrap();
    assert_eq!(perft(&v, 4).unwrap(), perft(&v.clone(), 4).unwrap());
    let mut moves = Vec::new();
    v.generate(&mut moves);
    assert!((2..=6).contains(&moves.len()));
}

fn collect_leaves(t: &RandomTree, out: &mut Vec<f64>) {
    let mut moves = Vec::new();
    match t.generate(&mut moves) {
        Status::Over(Outcome::Payoff(v)) => out.push(v),
        Status::Over(_) => unreachable!(),
        Status::Ongoing => {
            for m in moves {
                let mut c = *t;
                c.play(m);
                collect_leaves(&c, out);
            }
        }
    }
}

#[test]
fn arc_sum_values_are_the_sum_of_their_arcs() {
    let t = RandomTree::new(3, 4, 5, LeafModel::ArcSum { max_arc: 10 }).unwrap();
    fn walk(t: &RandomTree, sum: i64, seen: &mut [bool; 11]) {
        assert_eq!(t.static_value(), sum as f64);
        let mut moves = Vec::new();
        match t.generate(&mut moves) {
            Status::Over(o) => assert_eq!(o, Outcome::Payoff(sum as f64)),
            Status::Ongoing => {
                for m in moves {
                    let arc = t.arc_value(m);
                    assert!((0..=10).contains(&arc));
                    seen[arc as usize] = true;
                    let mut c = *t;
                    c.play(m);
                    walk(&c, sum + arc, seen);
                }
            }
        }
    }
    let mut seen = [false; 11];
    walk(&t, 0, &mut seen);
    assert!(seen.iter().all(|&s| s), "every arc value 0..=10 occurs");
}

#[test]
fn random_trees_cost_no_memory() {
    // 4^8 leaves, yet the state is a few words.
    let t = RandomTree::new(1, 4, 8, LeafModel::ArcSum { max_arc: 5 }).unwrap();
    assert!(std::mem::size_of_val(&t) <= 48);
    assert_eq!(perft(&t, 8).unwrap(), 65536);
}

#[test]
fn random_chance_trees_have_valid_distributions() {
    let t = RandomTree::new(8, 3, 4, LeafModel::Uniform { min: 0, max: 9 })
        .unwrap()
        .with_chance(1, ChanceWeights::Random)
        .unwrap();
    let turns: Vec<Turn> = {
        let mut s = t;
        let mut out = vec![s.turn()];
        for _ in 0..3 {
            s.play(0);
            out.push(s.turn());
        }
        out
    };
    assert_eq!(turns, [Turn::Player(Player::First), Turn::Chance, Turn::Player(Player::Second), Turn::Chance]);
    let mut c = t;
    c.play(0);
    let mut moves = Vec::new();
    c.generate(&mut moves);
    let mut probs = Vec::new();
    c.chance_probabilities(&moves, &mut probs);
    ParamError::distribution("p", &probs).unwrap();
    assert!(probs.iter().any(|&p| (p - 1.0 / 3.0).abs() > 1e-9), "weights are not uniform");
}

#[test]
fn bad_tree_parameters_are_typed_errors() {
    assert!(RandomTree::new(1, 0, 3, LeafModel::ArcSum { max_arc: 1 }).is_err());
    assert!(RandomTree::new(1, 2, 0, LeafModel::ArcSum { max_arc: 1 }).is_err());
    assert!(RandomTree::new(1, 2, 3, LeafModel::Uniform { min: 5, max: 4 }).is_err());
    let t = RandomTree::new(1, 2, 3, LeafModel::ArcSum { max_arc: 1 }).unwrap();
    assert!(t.with_branching(3, 2).is_err());
    assert!(t.with_chance(0, ChanceWeights::Uniform).is_err());
}

#[test]
fn the_match_runner_is_reproducible() {
    let t = RandomTree::new(21, 3, 8, LeafModel::Uniform { min: -3, max: 3 })
        .unwrap()
        .with_chance(2, ChanceWeights::Random)
        .unwrap();
    let a = play_match(&t, &mut RandomAgent, &mut RandomAgent, 5, None).unwrap();
    let b = play_match(&t, &mut RandomAgent, &mut RandomAgent, 5, None).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.moves.len(), 8);
    let differ = (6..30).any(|s| play_match(&t, &mut RandomAgent, &mut RandomAgent, s, None).unwrap() != a);
    assert!(differ, "other seeds give other games");
    // A ply limit stops the game without an outcome.
    let cut = play_match(&t, &mut RandomAgent, &mut RandomAgent, 5, Some(3)).unwrap();
    assert_eq!((cut.outcome, cut.moves.len()), (None, 3));
}

#[test]
fn search_agents_play_full_matches() {
    let t = RandomTree::new(2, 3, 6, LeafModel::Uniform { min: -1, max: 1 }).unwrap();
    let make = || {
        SearchAgent::new(
            Search::new(Minimax, search_core::tree::RandomTreeEval::default(), Options::default()).unwrap(),
            Limits::depth(6),
        )
    };
    let (mut a, mut b) = (make(), make());
    assert_eq!(a.name(), "minimax d6");
    let record = play_match(&t, &mut a, &mut b, 9, None).unwrap();
    // Two perfect players reach the minimax value.
    let value = Search::new(Minimax, search_core::tree::RandomTreeEval::default(), Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap()
        .value
        .unwrap();
    assert_eq!(record.outcome, Some(Outcome::Payoff(value)));
    let _ = LiteralEval;
}

#[test]
fn seeds_derive_independent_streams() {
    use rand::Rng as _;
    let x: u64 = rng::seeded(rng::derive_seed(7, 0)).random();
    let y: u64 = rng::seeded(rng::derive_seed(7, 1)).random();
    assert_ne!(x, y);
    // Fixed by the specification of PCG-64 and SplitMix64: the same on any machine.
    assert_eq!(rng::splitmix64(0), 0xE220_A839_7B1D_CDAF);
}
