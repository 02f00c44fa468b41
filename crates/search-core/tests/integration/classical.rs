//! Classical search: minimax, alpha-beta with every enhancement, and
//! expectiminimax with Star pruning, checked against an independent brute
//! force on thousands of seeded random trees.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use search_core::backup::{Backup, ChildInfo, Leaf, Minimax, NodeInfo, Pruning};
use search_core::search::{
    Bound, Control, Incomplete, Iteration, Limits, Observer, Options, ProbCut, Search, SearchResult, Star, TtDepth,
};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Evaluator, Game, GameError, Outcome, OutcomeOnly, Perspective, Player, Status, Turn, rng};

/// Independent reference: naive (expecti)minimax from `First`'s view, with
/// the static value at `depth` 0.
fn reference<G: Game>(state: &G, depth: u32, eval: &impl Evaluator<G>) -> f64 {
    let mut moves = Vec::new();
    match state.generate(&mut moves) {
        Status::Over(Outcome::Payoff(v)) => v,
        Status::Over(o) => o.value_for(Player::First, 1.0),
        Status::Ongoing if depth == 0 => eval.evaluate_for(state, Player::First),
        Status::Ongoing => {
            let values: Vec<f64> = moves
                .iter()
                .map(|&m| {
                    let mut c = state.clone();
                    c.play(m);
                    reference(&c, depth - 1, eval)
                })
                .collect();
            match state.turn() {
                Turn::Player(Player::First) => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                Turn::Player(Player::Second) => values.iter().copied().fold(f64::INFINITY, f64::min),
                Turn::Chance => {
                    let mut probs = Vec::new();
                    state.chance_probabilities(&moves, &mut probs);
                    values.iter().zip(&probs).map(|(v, p)| v * p).sum()
                }
            }
        }
    }
}

/// The reference value of every root move, from the root mover's view.
fn reference_moves<G: Game>(state: &G, depth: u32, eval: &impl Evaluator<G>) -> Vec<(G::Move, f64)> {
    let mut moves = Vec::new();
    state.generate(&mut moves);
    let sign = state.turn().player().unwrap_or(Player::First).sign();
    moves
        .iter()
        .map(|&m| {
            let mut c = state.clone();
            c.play(m);
            (m, sign * reference(&c, depth - 1, eval))
        })
        .collect()
}

/// A random tree for case `i`: branching 2..=6 (uniform per tree, or drawn
/// per node), depth 1..=7, leaves in 0..=3 (many ties).
fn random_case(i: u64) -> (RandomTree, u32) {
    let seed = rng::derive_seed(0x0C1A_551C, i);
    let b = 2 + (seed % 5) as u8;
    let d = 1 + ((seed >> 8) % 7) as u8;
    let t = RandomTree::new(seed, b, d, LeafModel::Uniform { min: 0, max: 3 }).unwrap();
    let t = if (seed >> 16).is_multiple_of(2) { t } else { t.with_branching(2, 6).unwrap() };
    // Half the trees are searched to a depth limit short of the leaves, so
    // static values at the horizon are exercised too.
    let limit = if (seed >> 20).is_multiple_of(2) || d == 1 { u32::from(d) } else { u32::from(d) - 1 };
    (t, limit)
}

#[test]
fn full_width_minimax_equals_the_reference_with_every_root_move() {
    for i in 0..300 {
        let (t, depth) = random_case(i);
        let eval = RandomTreeEval::default();
        let r = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&t, &Limits::depth(depth)).unwrap();
        let expected = reference_moves(&t, depth, &eval);
        assert_eq!(r.root_moves.len(), expected.len());
        for (rm, (mv, v)) in r.root_moves.iter().zip(&expected) {
            assert_eq!((rm.mv, rm.score, rm.bound), (*mv, *v, Bound::Exact), "tree {i}");
        }
        let best = expected.iter().map(|e| e.1).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(r.value, Some(best));
        let ties: Vec<u8> = expected.iter().filter(|e| e.1 == best).map(|e| e.0).collect();
        assert_eq!(r.best_moves, ties, "every tied best move is reported");
        assert_eq!(r.pv.first(), ties.first());
    }
}

/// The principal variation starts with the best move, is legal, and every
/// position along it has the root's value; if `complete`, it reaches the
/// horizon or the end of the game (else a table hit may end it early).
fn assert_principal_variation<G: Game>(
    root: &G,
    depth: u32,
    eval: &impl Evaluator<G>,
    value: f64,
    pv: &[G::Move],
    best: G::Move,
    complete: bool,
) {
    assert_eq!(pv.first(), Some(&best), "the principal variation starts with the best move");
    assert!(pv.len() <= depth as usize);
    let sign = root.turn().player().unwrap_or(Player::First).sign();
    let mut state = root.clone();
    for (k, &mv) in pv.iter().enumerate() {
        state.try_play(mv).expect("the principal variation is legal");
        let remaining = depth - 1 - k as u32;
        assert_eq!(sign * reference(&state, remaining, eval), value, "position {} of the principal variation", k + 1);
    }
    if complete && pv.len() < depth as usize {
        assert!(matches!(state.generate(&mut Vec::new()), Status::Over(_)), "the principal variation stops early");
    }
}

#[test]
fn alpha_beta_equals_minimax_for_every_combination_of_enhancements() {
    let mut total_nodes = [0u64; 64];
    let mut minimax_nodes = 0u64;
    for i in 0..1000 {
        let (t, depth) = random_case(i);
        let eval = RandomTreeEval::default();
        let full = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&t, &Limits::depth(depth)).unwrap();
        minimax_nodes += full.stats.nodes;
        let expected = reference_moves(&t, depth, &eval);
        let value = expected.iter().map(|e| e.1).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(full.value, Some(value), "minimax, tree {i}");
        for combo in 0..64u32 {
            let bit = |k: u32| combo & (1 << k) != 0;
            let options = Options::default()
                .with_table_mib(if bit(0) { 1 } else { 0 })
                .with_iterative_deepening(bit(1))
                .with_pvs(bit(2))
                .with_aspiration(bit(3).then_some(0.5))
                .with_killers(bit(4))
                .with_history(bit(5))
                // Every other tree: the history's malus where history is on.
                .with_history_malus(bit(5) && i % 2 == 1);
            if bit(3) && !bit(1) {
                // Aspiration needs a previous iteration: refused, not ignored.
                assert_eq!(Search::new(Minimax, eval, options).unwrap_err().name, "aspiration");
                continue;
            }
            let r = Search::new(Minimax, eval, options).unwrap().run(&t, &Limits::depth(depth)).unwrap();
            assert_eq!(r.value, Some(value), "tree {i}, combination {combo:06b}");
            let best = r.best.unwrap();
            let chosen = expected.iter().find(|e| e.0 == best).unwrap().1;
            assert_eq!(chosen, value, "tree {i}, combination {combo:06b}: move {best} is not a best move");
            // Without a table nothing cuts a principal variation short.
            assert_principal_variation(&t, depth, &eval, value, &r.pv, best, !bit(0));
            total_nodes[combo as usize] += r.stats.nodes;
        }
    }
    let plain = total_nodes[0];
    assert!(plain < minimax_nodes, "alpha-beta visits fewer nodes than minimax");
    eprintln!("nodes: minimax {minimax_nodes}, alpha-beta {plain}, all enhancements {}", total_nodes[63]);
}

/// Minimax without [`Backup::IS_MINIMAX`]: the search backs it up through
/// the rule's calls, as any other rule (the generic node).
#[derive(Debug, Clone, Copy)]
struct ThroughTheRule;

impl Backup for ThroughTheRule {
    type Value = f64;
    type Acc = f64;
    const PRUNING: Pruning = Pruning::Negamax;
    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> f64 {
        Minimax.leaf(node, leaf)
    }
    fn open(&self, node: &NodeInfo) -> f64 {
        Minimax.open(node)
    }
    fn add(&self, node: &NodeInfo, acc: &mut f64, child: &ChildInfo, value: f64) {
        Minimax.add(node, acc, child, value);
    }
    fn close(&self, node: &NodeInfo, acc: f64) -> f64 {
        Minimax.close(node, acc)
    }
}

/// The search's own node for minimax (below the root, lean options) and the
/// generic node give the same result, bit for bit: value, moves, principal
/// variation, root moves and every count, for every combination of the
/// options it serves, on trees with ties, horizons and chance nodes.
#[test]
fn the_minimax_node_equals_the_generic_node() {
    let mut compared = 0;
    for i in 0..150u64 {
        let (t, depth) = random_case(i);
        let t = if i % 4 == 3 { t.with_chance(1, ChanceWeights::Random).unwrap() } else { t };
        let eval = RandomTreeEval::for_tree(&t);
        for combo in 0..256u32 {
            let bit = |k: u32| combo & (1 << k) != 0;
            if (bit(3) && !bit(1)) || (bit(7) && !bit(0)) {
                continue; // aspiration needs iterative deepening; `AtLeast`, a table
            }
            let options = Options::default()
                .with_quiescence(false)
                .with_table_mib(if bit(0) { 1 } else { 0 })
                .with_iterative_deepening(bit(1))
                .with_pvs(bit(2))
                .with_aspiration(bit(3).then_some(0.5))
                .with_killers(bit(4))
                .with_history(bit(5))
                .with_stop_at_win(bit(6))
                .with_tt_depth(if bit(7) { TtDepth::AtLeast } else { TtDepth::Exact });
            let run = |r: Result<SearchResult<u8>, GameError>| {
                let mut r = r.unwrap();
                r.stats.micros = 0;
                r
            };
            let ours = run(Search::new(Minimax, eval, options.clone()).unwrap().run(&t, &Limits::depth(depth)));
            let generic = run(Search::new(ThroughTheRule, eval, options).unwrap().run(&t, &Limits::depth(depth)));
            assert_eq!(ours, generic, "tree {i}, combination {combo:08b}");
            compared += 1;
        }
    }
    assert!(compared > 15_000);
}

#[test]
fn transposition_table_at_least_depth_keeps_full_depth_values() {
    // Searched to the leaves, deeper entries cannot differ: AtLeast must agree.
    for i in 0..300 {
        let (t, _) = random_case(i);
        let depth = u32::from(t.depth());
        let eval = RandomTreeEval::default();
        let value = reference(&t, depth, &eval);
        let options = Options::default().with_tt_depth(TtDepth::AtLeast);
        let r = Search::new(Minimax, eval, options).unwrap().run(&t, &Limits::depth(depth)).unwrap();
        assert_eq!(r.value, Some(value), "tree {i}");
    }
}

#[test]
fn star1_and_star2_equal_plain_expectiminimax() {
    let mut nodes = [0u64; 3];
    for i in 0..1000u64 {
        let seed = rng::derive_seed(0x57A2, i);
        let b = 2 + (seed % 3) as u8;
        let d = 2 + ((seed >> 8) % 5) as u8;
        let weights = if (seed >> 12).is_multiple_of(2) { ChanceWeights::Uniform } else { ChanceWeights::Random };
        let t = RandomTree::new(seed, b, d, LeafModel::Uniform { min: -5, max: 5 })
            .unwrap()
            .with_chance(1 + ((seed >> 16) % 2) as u8, weights)
            .unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let expected = reference(&t, u32::from(d), &eval);
        for (k, star) in [Star::Off, Star::Star1, Star::Star2].into_iter().enumerate() {
            let options = Options::plain_alpha_beta().with_star(star).with_table_mib(0);
            let r = Search::new(Minimax, eval, options).unwrap().run(&t, &Limits::full_tree()).unwrap();
            let v = r.value.unwrap();
            assert!((v - expected).abs() < 1e-9, "tree {i} {star:?}: {v} vs {expected}");
            nodes[k] += r.stats.nodes;
        }
    }
    eprintln!("chance-tree nodes: plain {}, Star1 {}, Star2 {}", nodes[0], nodes[1], nodes[2]);
    assert!(nodes[1] < nodes[0], "Star1 prunes");
}

/// A random tree with (almost surely) distinct leaf values and an oracle
/// move ordering: children sorted by their true minimax value.
#[derive(Clone, Copy, Debug)]
struct Oracle(RandomTree);

impl Oracle {
    fn value(&self) -> f64 {
        reference(self, u32::MAX, &OutcomeOnly::default())
    }
}

impl Game for Oracle {
    type Move = u8;
    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        match self.0.generate(moves) {
            Status::Over(_) => Status::Over(Outcome::Payoff((self.0.node_id() >> 11) as f64)),
            s => s,
        }
    }
    fn play(&mut self, mv: u8) {
        self.0.play(mv);
    }
    fn write_move(&self, mv: u8, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.write_move(mv, f)
    }
    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        self.0.parse_move(text)
    }
    fn order_hint(&self, mv: u8) -> i32 {
        let sign = self.turn().player().unwrap().sign();
        let value_of = |m: u8| {
            let mut c = *self;
            c.play(m);
            sign * c.value()
        };
        let mine = value_of(mv);
        let better = (0..self.0.branching()).filter(|&m| value_of(m) > mine).count();
        -(better as i32)
    }
}

#[test]
fn perfect_ordering_visits_the_knuth_moore_minimum() {
    for (b, d) in [(2u64, 1u32), (2, 2), (2, 5), (3, 3), (3, 4), (4, 4), (2, 7), (5, 3), (3, 6)] {
        let t = Oracle(
            RandomTree::new(b * 100 + u64::from(d), b as u8, d as u8, LeafModel::Uniform { min: 0, max: 0 }).unwrap(),
        );
        let options = Options::plain_alpha_beta().with_game_ordering(true);
        let r = Search::new(Minimax, OutcomeOnly::default(), options).unwrap().run(&t, &Limits::full_tree()).unwrap();
        let minimum = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
        assert_eq!(r.stats.leaves, minimum, "b = {b}, d = {d}");
        assert_eq!(r.value, Some(t.value()));
    }
}

#[test]
fn lecture_alpha_beta_example_prunes_the_max_nodes_remaining_leaves() {
    // Lecture notes §1.3: a min node whose first leaf is 0.3 and whose second
    // child is a max node whose first leaf is 0.7.
    let t: LiteralTree = "min(0.3, max(0.7, 0.2, 0.9, 0.1))".parse().unwrap();
    for options in [Options::plain_alpha_beta(), Options::default()] {
        let r = Search::new(Minimax, LiteralEval, options).unwrap().run(&t, &Limits::full_tree()).unwrap();
        assert_eq!(r.value, Some(-0.3), "value from min's point of view");
        assert_eq!(r.stats.leaves, 2, "only 0.3 and 0.7 are visited");
    }
    let full = Search::new(Minimax, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
    assert_eq!(full.stats.leaves, 5);
}

#[test]
fn simple_pruning_stops_at_a_proven_win() {
    let t: LiteralTree = "max(min(1, 1), min(0, 1), min(-1, 1))".parse().unwrap();
    let eval = OutcomeOnly::new(1.0);
    let plain = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
    let simple = Search::new(Minimax, eval, Options::full_width().with_stop_at_win(true))
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    assert_eq!(plain.value, Some(1.0));
    assert_eq!(simple.value, Some(1.0));
    assert_eq!(simple.stats.nodes, 4, "root, the first min node and its two leaves");
    assert!(plain.stats.nodes > simple.stats.nodes);
}

/// Every move is noisy: quiescence follows them beyond the horizon.
struct AllNoisy;
impl Evaluator<LiteralTree> for AllNoisy {
    const PERSPECTIVE: Perspective = Perspective::First;
    fn evaluate(&self, state: &LiteralTree) -> f64 {
        LiteralEval.evaluate(state)
    }
    fn noisy_moves(&self, state: &LiteralTree, out: &mut Vec<u32>) {
        out.extend(state.children());
    }
}

#[test]
fn quiescence_search_sees_past_the_horizon() {
    // Statically A looks worth 5, but min's noisy reply leads to 1.
    let t: LiteralTree = "max(A=min[5](1, 9), B=3)".parse().unwrap();
    let without = Search::new(Minimax, AllNoisy, Options::default().with_quiescence(false))
        .unwrap()
        .run(&t, &Limits::depth(1))
        .unwrap();
    assert_eq!((without.value, without.best), (Some(5.0), Some(0)));
    let with = Search::new(Minimax, AllNoisy, Options::default()).unwrap().run(&t, &Limits::depth(1)).unwrap();
    assert_eq!((with.value, with.best), (Some(3.0), Some(1)));
    assert!(with.stats.qnodes > 0);
}

#[test]
fn beam_search_keeps_the_k_best_children() {
    let t = RandomTree::new(5, 4, 4, LeafModel::ArcSum { max_arc: 9 }).unwrap();
    let eval = RandomTreeEval::default();
    let exact = reference(&t, 4, &eval);
    let beam = |k| {
        Search::new(Minimax, eval, Options::plain_alpha_beta().with_beam(Some(k)))
            .unwrap()
            .run(&t, &Limits::full_tree())
            .unwrap()
    };
    let wide = beam(4);
    assert_eq!(wide.value, Some(exact), "a beam as wide as the tree changes nothing");
    let narrow = beam(1);
    assert_eq!(narrow.stats.leaves, 1, "a beam of one follows a single line");
    assert_eq!(narrow.pv.len(), 4);
}

#[test]
fn probcut_with_an_unreachable_margin_changes_nothing() {
    for i in 0..100 {
        let (t, depth) = random_case(i);
        let eval = RandomTreeEval::default();
        let value = reference(&t, depth, &eval);
        let probcut = Some(ProbCut { min_depth: 3, reduction: 2, margin: 1e9 });
        let r = Search::new(Minimax, eval, Options::default().with_probcut(probcut))
            .unwrap()
            .run(&t, &Limits::depth(depth))
            .unwrap();
        assert_eq!(r.value, Some(value));
    }
}
/// Evaluates a random tree's nodes at their exact minimax value (first
/// player's view) plus a noise of at most [`NOISE`]: a search of any depth
/// is then within `NOISE` of the exact value, so searches of two depths
/// differ by at most `2·NOISE`. A ProbCut margin of `2·NOISE` is sound.
#[derive(Clone)]
struct NearExact(std::rc::Rc<HashMap<u64, f64>>);

const NOISE: f64 = 0.5;

impl NearExact {
    fn new(t: &RandomTree) -> Self {
        fn fill(t: &RandomTree, values: &mut HashMap<u64, f64>) -> f64 {
            let mut moves = Vec::new();
            let v = match t.generate(&mut moves) {
                Status::Over(o) => o.value_for(Player::First, 1.0),
                Status::Ongoing => {
                    let kids = moves.iter().map(|&m| {
                        let mut c = *t;
                        c.play(m);
                        fill(&c, values)
                    });
                    match t.turn() {
                        Turn::Player(Player::First) => kids.fold(f64::NEG_INFINITY, f64::max),
                        Turn::Player(Player::Second) => kids.fold(f64::INFINITY, f64::min),
                        Turn::Chance => unreachable!("no chance nodes here"),
                    }
                }
            };
            values.insert(t.node_id(), v);
            v
        }
        let mut values = HashMap::new();
        fill(t, &mut values);
        NearExact(std::rc::Rc::new(values))
    }
}

impl Evaluator<RandomTree> for NearExact {
    const PERSPECTIVE: Perspective = Perspective::First;
    fn evaluate(&self, state: &RandomTree) -> f64 {
        let u = (rng::splitmix64(state.node_id()) % 2001) as f64 / 1000.0 - 1.0;
        self.0[&state.node_id()] + NOISE * u
    }
}

#[test]
fn probcut_with_a_sound_margin_cuts_and_keeps_the_value() {
    // The margin covers the largest difference between the shallow and the
    // deep search (2·NOISE): every cut is a true fail high, so the value is
    // exactly the one of the search without ProbCut.
    let probcut = ProbCut { min_depth: 3, reduction: 2, margin: 2.0 * NOISE };
    let mut nodes = [0u64; 2];
    for i in 0..40 {
        let seed = rng::derive_seed(0x9C07, i);
        let t = RandomTree::new(seed, 4, 7, LeafModel::Uniform { min: -100, max: 100 }).unwrap();
        let eval = NearExact::new(&t);
        for depth in [5, 7] {
            let expected = reference_moves(&t, depth, &eval);
            let value = expected.iter().map(|e| e.1).fold(f64::NEG_INFINITY, f64::max);
            for (k, probcut) in [None, Some(probcut)].into_iter().enumerate() {
                let options = Options::plain_alpha_beta().with_probcut(probcut);
                let r = Search::new(Minimax, eval.clone(), options).unwrap().run(&t, &Limits::depth(depth)).unwrap();
                assert_eq!(r.value, Some(value), "tree {i}, depth {depth}, {probcut:?}");
                let best = r.best.unwrap();
                assert_eq!(expected.iter().find(|e| e.0 == best).unwrap().1, value, "tree {i}: {best} is a best move");
                nodes[k] += r.stats.nodes;
            }
        }
    }
    eprintln!("nodes: alpha-beta {}, with ProbCut {}", nodes[0], nodes[1]);
    assert!(nodes[1] < nodes[0], "ProbCut cuts: {nodes:?}");
}

/// A random tree in which the side to move may pass.
#[derive(Clone, Copy, Debug)]
struct Passable {
    tree: RandomTree,
    passed: bool,
}

impl Game for Passable {
    type Move = u8;
    fn turn(&self) -> Turn {
        match self.tree.turn() {
            Turn::Player(p) if self.passed => Turn::Player(p.opponent()),
            t => t,
        }
    }
    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        self.tree.generate(moves)
    }
    fn play(&mut self, mv: u8) {
        self.tree.play(mv);
    }
    fn play_null(&mut self) -> bool {
        self.passed = !self.passed;
        true
    }
    fn write_move(&self, mv: u8, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.tree.write_move(mv, f)
    }
    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        self.tree.parse_move(text)
    }
}

struct PassableEval;
impl Evaluator<Passable> for PassableEval {
    const PERSPECTIVE: Perspective = Perspective::First;
    fn evaluate(&self, state: &Passable) -> f64 {
        state.tree.static_value()
    }
}

#[test]
fn null_move_pruning_prunes_and_returns_a_legal_move() {
    let mut nodes = [0u64; 2];
    for i in 0..50 {
        let tree = RandomTree::new(i, 5, 7, LeafModel::ArcSum { max_arc: 10 }).unwrap();
        let g = Passable { tree, passed: false };
        for (k, null_move) in [None, Some(2)].into_iter().enumerate() {
            // `Passable` has no hash keys: no table.
            let options = Options::default().with_table_mib(0).with_null_move(null_move);
            let r = Search::new(Minimax, PassableEval, options).unwrap().run(&g, &Limits::depth(6)).unwrap();
            assert!(r.best.is_some_and(|m| m < 5));
            nodes[k] += r.stats.nodes;
        }
    }
    assert!(nodes[1] < nodes[0], "null-move pruning cuts nodes: {nodes:?}");
}

#[test]
fn monte_carlo_chance_sampling_converges_to_the_exact_value() {
    // A chance root over 12 equally likely min-max subtrees.
    let mut r = rng::seeded(99);
    let leaf = |r: &mut rng::Rng| rand::Rng::random_range(r, -20..=20);
    let subtrees: Vec<String> = (0..12)
        .map(|_| format!("max(min({}, {}), min({}, {}))", leaf(&mut r), leaf(&mut r), leaf(&mut r), leaf(&mut r)))
        .collect();
    let t: LiteralTree = format!("chance({})", subtrees.join(", ")).parse().unwrap();
    let exact =
        Search::new(Minimax, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
    let values: Vec<f64> = exact.scores();
    let mean = values.iter().sum::<f64>() / 12.0;
    assert!((exact.value.unwrap() - mean).abs() < 1e-12);
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 12.0;
    assert!(variance > 0.0);
    let estimate = |n: u32, seed: u64| {
        let options = Options::full_width().with_chance_samples(Some(n)).with_seed(seed);
        Search::new(Minimax, LiteralEval, options).unwrap().run(&t, &Limits::full_tree()).unwrap().value.unwrap()
    };
    // Each estimate within 5 standard errors (a false alarm has p < 1e-6).
    for n in [16u32, 256, 4096, 65536] {
        let sd = (variance / f64::from(n)).sqrt();
        let e = estimate(n, u64::from(n));
        assert!((e - mean).abs() <= 5.0 * sd, "N = {n}: {e} vs {mean} (sd {sd})");
    }
    // The squared z-scores of 50 runs average about 1 (chi-square, 50 dof:
    // P(mean > 2) < 1e-4), so the spread shrinks like 1/sqrt(N).
    let n = 64u32;
    let sd = (variance / f64::from(n)).sqrt();
    let mean_z2 = (0..50).map(|s| ((estimate(n, 1000 + s) - mean) / sd).powi(2)).sum::<f64>() / 50.0;
    assert!(mean_z2 < 2.0 && mean_z2 > 0.3, "mean z² = {mean_z2}");
}

#[test]
fn time_limit_returns_a_legal_move_of_the_last_completed_iteration() {
    // Far too big to finish: only the time limit can end the search.
    let t = RandomTree::new(3, 8, 30, LeafModel::Uniform { min: -100, max: 100 }).unwrap();
    let limit = Duration::from_millis(100);
    let mut completed: Vec<(u32, Option<u8>)> = Vec::new();
    let mut record = |it: &Iteration<'_, u8>| {
        completed.push((it.depth, it.best));
        Control::Continue
    };
    let r = Search::new(Minimax, RandomTreeEval::default(), Options::default())
        .unwrap()
        .run_observed(&t, &Limits::time(limit), &mut record)
        .unwrap();
    assert!(!r.complete);
    assert_eq!(r.incomplete, Some(Incomplete::Stopped));
    // The answer is the last completed iteration's.
    let &(depth, best) = completed.last().expect("depth 1 completes within the limit");
    assert!((1..30).contains(&depth));
    assert_eq!(r.stats.depth, depth);
    assert_eq!(r.best, best);
    assert!(r.value.is_some());
    assert!(r.best.is_some_and(|m| m < 8), "a legal move");
}

#[test]
fn node_limit_and_stop_flag_stop_the_search() {
    let t = RandomTree::new(4, 8, 30, LeafModel::Uniform { min: -100, max: 100 }).unwrap();
    let r = Search::new(Minimax, RandomTreeEval::default(), Options::default())
        .unwrap()
        .run(&t, &Limits::nodes(50_000))
        .unwrap();
    assert!(r.stats.nodes <= 50_000);
    assert!(r.best.is_some());
    assert_eq!((r.complete, r.incomplete), (false, Some(Incomplete::Stopped)));

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
    });
    let start = Instant::now();
    let r = Search::new(Minimax, RandomTreeEval::default(), Options::default())
        .unwrap()
        .run(&t, &Limits::until_stopped(stop))
        .unwrap();
    setter.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(!r.complete && r.best.is_some());
    assert_eq!(r.incomplete, Some(Incomplete::Stopped));
}

#[test]
fn bad_input_gives_typed_errors() {
    let t = RandomTree::new(1, 2, 2, LeafModel::Uniform { min: 0, max: 1 }).unwrap();
    let mut s = Search::new(Minimax, RandomTreeEval::default(), Options::default()).unwrap();
    assert!(matches!(s.run(&t, &Limits::depth(0)), Err(GameError::Param(p)) if p.name == "depth"));
    let e = Search::<RandomTree, _, _>::new(
        Minimax,
        RandomTreeEval::default(),
        Options::default().with_aspiration(Some(f64::NAN)),
    )
    .unwrap_err();
    assert_eq!(e.name, "aspiration");
    let leaf: LiteralTree = "4".parse().unwrap();
    let mut s = Search::new(Minimax, LiteralEval, Options::default()).unwrap();
    assert_eq!(s.run(&leaf, &Limits::full_tree()), Err(GameError::GameOver));
}

#[test]
fn win_scores_prefer_the_quickest_win() {
    // Both moves win for max, one immediately and one two plies later.
    #[derive(Clone, Copy, Debug)]
    struct Race(u8);
    impl Game for Race {
        type Move = u8;
        fn turn(&self) -> Turn {
            Turn::Player(if self.0.is_multiple_of(2) { Player::First } else { Player::Second })
        }
        fn generate(&self, moves: &mut Vec<u8>) -> Status {
            match self.0 {
                0 => moves.extend([1, 2]),
                2 => moves.push(3),
                3 => moves.push(4),
                _ => return Status::Over(Outcome::Win(Player::First)),
            }
            Status::Ongoing
        }
        fn play(&mut self, mv: u8) {
            self.0 = if self.0 == 0 && mv == 1 { 9 } else { mv };
        }
        fn write_move(&self, mv: u8, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{mv}")
        }
        fn parse_move(&self, text: &str) -> Result<u8, GameError> {
            text.parse().map_err(|_| GameError::parse("move", text, 0, "digit"))
        }
    }
    struct Zero;
    impl Evaluator<Race> for Zero {
        const PERSPECTIVE: Perspective = Perspective::SideToMove;
        fn evaluate(&self, _: &Race) -> f64 {
            0.0
        }
    }
    // `Race` has no hash keys: no table.
    for options in [Options::full_width(), Options::default().with_table_mib(0)] {
        let r = Search::new(Minimax, Zero, options).unwrap().run(&Race(0), &Limits::full_tree()).unwrap();
        assert_eq!(r.best, Some(1));
        assert_eq!(r.value, Some(search_core::WIN_SCORE - 1.0));
    }
}

/// `Iteration::solved`: an iteration is solved exactly when it reaches
/// every leaf of the tree (with or without a table, whose entries carry
/// whether a horizon lay below them), and iterative deepening stops there
/// with the exact value.
#[test]
fn an_iteration_is_solved_exactly_when_it_reaches_every_leaf() {
    struct Record(Vec<(u32, bool, f64)>);
    impl Observer<RandomTree> for Record {
        fn iteration(&mut self, it: &Iteration<'_, u8>) -> Control {
            self.0.push((it.depth, it.solved, it.value));
            Control::Continue
        }
    }
    for seed in 0..60u64 {
        let height = 2 + (seed % 4) as u8;
        let t =
            RandomTree::new(4400 + seed, 1 + (seed % 4) as u8, height, LeafModel::Uniform { min: -3, max: 3 }).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let exact = reference(&t, u32::from(height), &eval);
        for table in [0, 1] {
            let opts = Options::recommended::<RandomTree, Minimax, RandomTreeEval>(&eval).with_table_mib(table);
            let mut rec = Record(Vec::new());
            Search::new(Minimax, eval, opts).unwrap().run_observed(&t, &Limits::depth(64), &mut rec).unwrap();
            let depths: Vec<u32> = rec.0.iter().map(|r| r.0).collect();
            assert_eq!(depths, (1..=u32::from(height)).collect::<Vec<_>>(), "seed {seed}, table {table}");
            for &(depth, solved, value) in &rec.0 {
                assert_eq!(solved, depth == u32::from(height), "seed {seed}, table {table}, depth {depth}");
                if solved {
                    assert_eq!(value, exact, "seed {seed}, table {table}");
                }
            }
        }
    }
}
