//! `backup::predicting::PredictingAgent` (the opponent predicted from its
//! own values) against minimax where the two must agree.

use search_core::backup::predicting::PredictingAgent;
use search_core::backup::{Minimax, Modelled, OpponentModel};
use search_core::policy::ScoreCap;
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
use search_core::{Agent, Evaluator, Game, Player, Status, rng};

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

/// The opponent's depth-`d` minimax value of `state` from its own side
/// (`state` is the opponent's child after one of its moves: our turn).
fn negamax(t: &RandomTree, eval: &RandomTreeEval, d: u32, ply: u32) -> f64 {
    let mover = t.turn().player().unwrap();
    let mut moves = Vec::new();
    match t.generate(&mut moves) {
        Status::Over(o) => eval.terminal_value(o, mover, ply),
        Status::Ongoing if d == 0 => eval.evaluate_for(t, mover),
        Status::Ongoing => moves
            .iter()
            .map(|&m| {
                let mut c = *t;
                c.play(m);
                -negamax(&c, eval, d - 1, ply + 1)
            })
            .fold(f64::NEG_INFINITY, f64::max),
    }
}

/// Brute force of the opponent modelled at its first `plies` moves only:
/// at those nodes the expectation under `rule`'s model of the opponent's
/// depth-`opp` values (`κ` blends in the worst reply), at ours the maximum,
/// at the deeper opponent nodes the minimum; utilities throughout. The
/// opponent's values are bounded by `opp_cap`, or else by the rule's cap.
#[allow(clippy::too_many_arguments)]
fn reference(
    t: &RandomTree,
    eval: &RandomTreeEval,
    rule: &Modelled,
    opp_cap: Option<ScoreCap>,
    left: u32,
    ply: u32,
    seen: u32,
    plies: u32,
    opp: u32,
    kappa: f64,
    me: Player,
) -> f64 {
    let mut moves = Vec::new();
    match t.generate(&mut moves) {
        Status::Over(o) => return rule.utility(eval.terminal_value(o, me, ply)),
        Status::Ongoing if left == 0 => return rule.utility(eval.evaluate_for(t, me)),
        Status::Ongoing => {}
    }
    let ours = t.turn().player() == Some(me);
    let children: Vec<RandomTree> = moves
        .iter()
        .map(|&m| {
            let mut c = *t;
            c.play(m);
            c
        })
        .collect();
    let next = if ours { seen } else { seen + 1 };
    let values: Vec<f64> = children
        .iter()
        .map(|c| reference(c, eval, rule, opp_cap, left - 1, ply + 1, next, plies, opp, kappa, me))
        .collect();
    let (max, min) = values.iter().fold((f64::NEG_INFINITY, f64::INFINITY), |(a, b), &v| (a.max(v), b.min(v)));
    if ours {
        return max;
    }
    if seen >= plies {
        return min;
    }
    let mut theirs: Vec<f64> = children.iter().map(|c| -negamax(c, eval, opp - 1, 1)).collect();
    let mut p = Vec::new();
    match opp_cap {
        Some(c) => {
            theirs.iter_mut().for_each(|v| *v = c.apply(*v));
            rule.model().probabilities(&theirs, None, &mut p);
        }
        None => rule.model().probabilities(&theirs, rule.cap(), &mut p),
    }
    let e: f64 = p.iter().zip(&values).map(|(q, v)| q * v).sum();
    (1.0 - kappa) * e + kappa * min
}

/// With the opponent modelled at its first `K` moves and the alpha-beta
/// engine below ([`PredictingAgent::with_model_plies`]), the agent's root
/// value is the brute force's (up to rounding in the expectation's order
/// of summation) and its tied best moves are the brute force's, for
/// greedy to near-random opponents, without a cap, with a hard one (the
/// rule's, or given as the opponent's) and with a soft one for the
/// opponent ([`PredictingAgent::with_opponent_cap`]), with and without safety.
#[test]
fn model_plies_match_a_brute_force() {
    let mut checked = 0;
    for seed in 0..30u64 {
        let model =
            if seed % 3 == 0 { LeafModel::ArcSum { max_arc: 10 } } else { LeafModel::Uniform { min: -3, max: 3 } };
        let t = RandomTree::new(4400 + seed, 2 + (seed % 3) as u8, 8, model).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let me = t.turn().player().unwrap();
        for theta in [0.1, 1.0, 20.0] {
            for cap in [None, Some(ScoreCap::Hard(2.0)), Some(ScoreCap::Soft(2.0))] {
                let mut rule = Modelled::new(OpponentModel::boltzmann(theta).unwrap());
                if let Some(c) = cap {
                    rule = rule.with_cap(c.bound()).unwrap();
                }
                // A hard cap is the rule's own on even seeds, the
                // opponent's given alike on odd ones.
                let opp_cap = cap.filter(|c| matches!(c, ScoreCap::Soft(_)) || seed % 2 == 1);
                for (depth, plies, opp, kappa) in [(3, 1, 2, 0.0), (4, 1, 3, 0.3), (5, 1, 2, 0.0), (5, 2, 2, 0.5)] {
                    let mut agent = PredictingAgent::new(rule.clone(), eval, depth, opp).unwrap();
                    if let Some(c) = opp_cap {
                        agent = agent.with_opponent_cap(c);
                    }
                    let mut agent = agent.with_safety(kappa).unwrap().with_model_plies(plies, 0).unwrap();
                    let thought = agent.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
                    let mut moves = Vec::new();
                    t.generate(&mut moves);
                    let root: Vec<f64> = moves
                        .iter()
                        .map(|&m| {
                            let mut c = t;
                            c.play(m);
                            reference(&c, &eval, &rule, opp_cap, depth - 1, 1, 0, plies, opp, kappa, me)
                        })
                        .collect();
                    let best = root.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let what = format!("seed {seed}, θ {theta}, cap {cap:?}, depth {depth}, plies {plies}, κ {kappa}");
                    let v = thought.value.unwrap();
                    assert!((v - best).abs() <= 1e-9 * best.abs().max(1.0), "{what}: {v} vs {best}");
                    // Moves the brute force ties with the best (within
                    // rounding) come back within rounding of it; the others
                    // below it (exact or as an upper bound).
                    let close = |x: f64| (x - best).abs() <= 1e-9 * best.abs().max(1.0);
                    for (m, r) in moves.iter().zip(&root) {
                        let ours = thought.scores.iter().find(|s| s.0 == *m).unwrap().1;
                        if close(*r) {
                            assert!(close(ours), "{what}: move {m} {ours} vs {r}");
                        } else {
                            assert!(ours < best && !close(ours), "{what}: move {m} {ours} vs {r} (best {best})");
                        }
                    }
                    assert!(
                        thought.distribution.iter().all(|d| close(root[moves.iter().position(|m| *m == d.0).unwrap()]))
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 30 * 3 * 3 * 4);
}

/// With a node budget ([`PredictingAgent::with_node_budget`]) the agent
/// deepens iteratively, reports the deepest completed iteration, and
/// returns what a fixed-depth search to that depth returns: larger budgets
/// reach at least as deep.
#[test]
fn a_node_budget_deepens_iteratively() {
    let mut deeper = 0;
    for seed in 0..20u64 {
        let t = RandomTree::new(6600 + seed, 3, 9, LeafModel::Uniform { min: -9, max: 9 }).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let rule = Modelled::new(OpponentModel::boltzmann(0.5).unwrap());
        let agent = || PredictingAgent::new(rule.clone(), eval, 9, 2).unwrap().with_model_plies(1, 0).unwrap();
        let mut last = 0;
        for budget in [50u64, 400, 3000, 20_000] {
            let mut a = agent().with_node_budget(budget).unwrap();
            let thought = a.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
            let d = thought.stats.depth;
            assert!(d >= last && d >= 1, "seed {seed}, budget {budget}: depth {d} after {last}");
            if d > 1 {
                assert!(thought.stats.nodes <= budget + 1, "seed {seed}: {} nodes of {budget}", thought.stats.nodes);
            }
            deeper += u32::from(d > last && last > 0);
            last = d;
            let mut fixed = PredictingAgent::new(rule.clone(), eval, d, 2).unwrap().with_model_plies(1, 0).unwrap();
            let reference = fixed.choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
            assert_eq!(thought.value, reference.value, "seed {seed}, budget {budget}, depth {d}");
        }
    }
    assert!(deeper > 20, "larger budgets reached deeper only {deeper} times");
    assert!(
        PredictingAgent::new(Modelled::new(OpponentModel::boltzmann(0.5).unwrap()), RandomTreeEval::default(), 3, 2)
            .unwrap()
            .with_node_budget(0)
            .is_err()
    );
}

/// [`RandomTreeEval`] with decisive leaves: a payoff of 2 or more is a win
/// for the first player, −2 or less one for the second, scored as games
/// score them (`WIN_SCORE` less the distance), so that searches prove wins
/// and losses.
#[derive(Clone, Copy)]
struct Decisive(RandomTreeEval);

impl Evaluator<RandomTree> for Decisive {
    const PERSPECTIVE: search_core::Perspective = search_core::Perspective::First;

    fn evaluate(&self, state: &RandomTree) -> f64 {
        self.0.evaluate(state)
    }

    fn terminal_value(&self, outcome: search_core::Outcome, player: Player, ply: u32) -> f64 {
        use search_core::Outcome;
        match outcome {
            Outcome::Payoff(v) if v.abs() >= 2.0 => {
                let winner = if v > 0.0 { Player::First } else { Player::Second };
                Outcome::Win(winner).value_for(player, search_core::WIN_SCORE - f64::from(ply))
            }
            o => self.0.terminal_value(o, player, ply),
        }
    }
}

/// `when_lost`: where plain alpha-beta (the same engine, the same depth)
/// does not prove the game lost, the agent is that alpha-beta agent, move
/// for move with the same random tie-break, and the same value; where it
/// does, the agent is the predicting search (the same value, its move one
/// of that search's best). Both cases occur often on these trees.
#[test]
fn when_lost_is_alpha_beta_until_the_game_is_lost() {
    use search_core::search::SearchAgent;
    let lost = |v: f64| v < -(search_core::WIN_SCORE - f64::from(search_core::MAX_PLY));
    let (mut plain, mut modelled) = (0, 0);
    for seed in 0..200u64 {
        let t = RandomTree::new(8200 + seed, 2 + (seed % 3) as u8, 6, LeafModel::Uniform { min: -3, max: 3 }).unwrap();
        let eval = Decisive(RandomTreeEval::for_tree(&t));
        let rule = || Modelled::new(OpponentModel::boltzmann(0.7).unwrap()).with_cap(3.0).unwrap();
        let depth = 4 + (seed % 3) as u32;
        let agent = || PredictingAgent::new(rule(), eval, depth, 2).unwrap().with_model_plies(1, 0).unwrap();
        let mut hybrid = agent().when_lost().unwrap();
        let mine = hybrid.choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        let mine_thought = mine.thought.unwrap();
        let opts = Options::recommended::<RandomTree, Minimax, Decisive>(&eval).with_table_mib(0);
        let mut ab = SearchAgent::new(Search::new(Minimax, eval, opts).unwrap(), Limits::full_tree().with_depth(depth));
        let theirs = ab.choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        let ab_value = theirs.thought.unwrap().value.unwrap();
        let what = format!("seed {seed}, depth {depth}");
        if lost(ab_value) {
            let reference = agent().choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
            assert_eq!(mine_thought.value, reference.value, "{what}");
            assert!(reference.distribution.iter().any(|d| d.0 == mine.mv), "{what}");
            modelled += 1;
        } else {
            assert_eq!((mine.mv, mine_thought.value), (theirs.mv, Some(ab_value)), "{what}");
            plain += 1;
        }
    }
    eprintln!("{plain} positions played by alpha-beta, {modelled} lost ones by the model");
    assert!(plain >= 20 && modelled >= 20, "{plain} plain, {modelled} lost");
}

/// Records whether the last iteration of a search solved the root.
struct Solved(bool);

impl<G: Game> search_core::search::Observer<G> for Solved {
    fn iteration(&mut self, it: &search_core::search::Iteration<'_, G::Move>) -> search_core::search::Control {
        self.0 = it.solved;
        search_core::search::Control::Continue
    }
}

/// `when_drawn`: where plain alpha-beta neither proves a loss nor solves
/// the root, the agent is that alpha-beta agent, move for move; where it
/// proves a loss, the predicting search over every move; where it solves
/// the root with a value short of a win, the predicting search over exactly
/// the moves whose brute-force minimax value keeps the root's (its value
/// the best of a full-width predicting search's over those moves, its move
/// one that reaches it). Leaves in −3..3 (±2 and ±3 decisive, −1..1 not)
/// make many tied, kept values; each case occurs often.
#[test]
fn when_drawn_keeps_the_solved_value_and_lets_the_model_choose() {
    use search_core::search::SearchAgent;
    let decisive = search_core::WIN_SCORE - f64::from(search_core::MAX_PLY);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    let (mut plain, mut lost, mut held, mut chosen) = (0, 0, 0, 0);
    for seed in 0..300u64 {
        let height = 4 + (seed % 2) as u8;
        let t =
            RandomTree::new(9100 + seed, 2 + (seed % 3) as u8, height, LeafModel::Uniform { min: -3, max: 3 }).unwrap();
        let eval = Decisive(RandomTreeEval::for_tree(&t));
        let rule = || Modelled::new(OpponentModel::boltzmann(0.7).unwrap()).with_cap(3.0).unwrap();
        let depth = 3 + (seed % 3) as u32;
        let agent = || PredictingAgent::new(rule(), eval, depth, 2).unwrap().with_model_plies(1, 0).unwrap();
        let mine = agent().when_drawn().unwrap().choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        let mine_thought = mine.thought.unwrap();
        let opts = || Options::recommended::<RandomTree, Minimax, Decisive>(&eval).with_table_mib(0);
        let limits = Limits::full_tree().with_depth(depth);
        let mut ab = SearchAgent::new(Search::new(Minimax, eval, opts()).unwrap(), limits.clone());
        let theirs = ab.choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        let ab_value = theirs.thought.unwrap().value.unwrap();
        let mut watch = Solved(false);
        Search::new(Minimax, eval, opts()).unwrap().run_observed(&t, &limits, &mut watch).unwrap();
        let what = format!("seed {seed}, depth {depth}, height {height}");
        // Brute force: every root move's exact minimax value.
        let mut exact = Search::new(Minimax, eval, Options::full_width()).unwrap();
        let mut moves = Vec::new();
        t.generate(&mut moves);
        let value_after = |exact: &mut Search<RandomTree, Minimax, Decisive>, m: u8| {
            let mut child = t;
            child.play(m);
            match child.status() {
                Status::Over(o) => eval.terminal_value(o, Player::First, 1),
                Status::Ongoing => -exact.run(&child, &Limits::full_tree()).unwrap().value.unwrap(),
            }
        };
        let values: Vec<f64> = moves.iter().map(|&m| value_after(&mut exact, m)).collect();
        let root = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if ab_value < -decisive {
            let reference = agent().choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
            assert_eq!(mine_thought.value, reference.value, "{what}");
            lost += 1;
        } else if watch.0 && ab_value <= decisive {
            assert!(close(ab_value, root), "{what}: alpha-beta solved {ab_value}, brute force {root}");
            let keep: Vec<u8> = moves.iter().zip(&values).filter(|(_, v)| close(**v, root)).map(|(m, _)| *m).collect();
            assert!(keep.contains(&mine.mv), "{what}: {} gives the value away ({keep:?})", mine.mv);
            if keep.len() == 1 {
                assert_eq!(mine.mv, theirs.mv, "{what}");
            } else {
                let reference =
                    agent().with_pruning(false).choose_explained(&t, &mut rng::seeded(seed)).unwrap().thought.unwrap();
                let score = |m: u8| reference.scores.iter().find(|s| s.0 == m).unwrap().1;
                let best = keep.iter().map(|&m| score(m)).fold(f64::NEG_INFINITY, f64::max);
                assert!(close(mine_thought.value.unwrap(), best), "{what}: {:?} vs {best}", mine_thought.value);
                assert!(close(score(mine.mv), best), "{what}");
                let mut searched: Vec<u8> = mine_thought.scores.iter().map(|s| s.0).collect();
                searched.sort_unstable();
                assert_eq!(searched, keep, "{what}");
                chosen += 1;
            }
            held += 1;
        } else {
            assert_eq!((mine.mv, mine_thought.value), (theirs.mv, Some(ab_value)), "{what}");
            plain += 1;
        }
    }
    eprintln!("{plain} plain, {lost} lost, {held} solved short of a win ({chosen} with a choice)");
    assert!(plain >= 20 && lost >= 20 && chosen >= 20, "{plain} plain, {lost} lost, {held} held ({chosen} chosen)");
}

/// The `when_near` tests' tree (leaves and static values in −3..3) and
/// agent: θ = 0.7, values capped at 3, the opponent predicted from its
/// depth-2 values at its first reply, alpha-beta below.
fn near_setup(
    tree_seed: u64,
    branching: u8,
    height: u8,
    depth: u32,
) -> (RandomTree, RandomTreeEval, PredictingAgent<RandomTree, RandomTreeEval>) {
    let t = RandomTree::new(tree_seed, branching, height, LeafModel::Uniform { min: -3, max: 3 }).unwrap();
    let eval = RandomTreeEval::for_tree(&t);
    let rule = Modelled::new(OpponentModel::boltzmann(0.7).unwrap()).with_cap(3.0).unwrap();
    let agent = PredictingAgent::new(rule, eval, depth, 2).unwrap().with_model_plies(1, 0).unwrap();
    (t, eval, agent)
}

/// Every completed iteration of a plain alpha-beta search: its depth,
/// value, whether it solved the root, the root moves its scores prove
/// within `delta` of the best, and the nodes searched so far.
struct Iterations {
    delta: f64,
    seen: Vec<(u32, f64, bool, Vec<u8>, u64)>,
}

impl search_core::search::Observer<RandomTree> for Iterations {
    fn iteration(&mut self, it: &search_core::search::Iteration<'_, u8>) -> search_core::search::Control {
        let floor = it.value - self.delta - 1e-9 * it.value.abs().max(1.0);
        let near = it
            .root_moves
            .iter()
            .filter(|m| m.bound != search_core::search::Bound::Upper && m.score >= floor)
            .map(|m| m.mv)
            .collect();
        self.seen.push((it.depth, it.value, it.solved, near, it.stats.nodes));
        search_core::search::Control::Continue
    }
}

/// `when_near`, with a node budget: plain alpha-beta (the same engine)
/// deepens until an iteration that leaves two or more root moves proven
/// within `delta` of the best and whose successor, by the documented
/// growth rule, would overrun the budget. There the predicting search
/// chooses among exactly those moves, each of which a brute-force minimax
/// search to that iteration's depth values at least the best minus `delta`
/// (nothing worse is ever played). Where no iteration qualifies, the agent
/// is that alpha-beta agent with the whole budget, move for move. Both cases
/// occur often on these trees (leaves and static values in −3..3).
#[test]
fn when_near_chooses_among_the_moves_near_the_best() {
    use search_core::search::SearchAgent;
    let (mut plain, mut near) = (0, 0);
    for seed in 0..300u64 {
        let (depth, budget, delta) = (7, 40 + 37 * (seed % 20), [0.5, 1.0, 2.0][(seed % 3) as usize]);
        let (t, eval, agent) = near_setup(5300 + seed, 2 + (seed % 3) as u8, 7, depth);
        let mine = agent
            .with_node_budget(budget)
            .unwrap()
            .when_near(delta)
            .unwrap()
            .choose_explained(&t, &mut rng::seeded(seed))
            .unwrap();
        let thought = mine.thought.unwrap();
        let opts = || Options::recommended::<RandomTree, Minimax, RandomTreeEval>(&eval).with_table_mib(0);
        let limits = Limits::full_tree().with_depth(depth).with_nodes(budget);
        let mut record = Iterations { delta, seen: Vec::new() };
        Search::new(Minimax, eval, opts()).unwrap().run_observed(&t, &limits, &mut record).unwrap();
        // The documented stop: the first iteration with two or more near
        // moves whose successor's predicted cost overruns the budget.
        let (mut after, mut previous, mut stop) = (0u64, 0u64, None);
        for (d, v, solved, moves, nodes) in &record.seen {
            let this = nodes - after;
            let growth = if previous > 0 { (this as f64 / previous as f64).clamp(1.5, 10.0) } else { 4.0 };
            if moves.len() >= 2 && !solved && (*nodes as f64 + this as f64 * growth) > budget as f64 {
                stop = Some((*d, *v, moves.clone()));
                break;
            }
            (after, previous) = (*nodes, this);
        }
        let what = format!("seed {seed}, budget {budget}, delta {delta}");
        match stop {
            Some((d, v, moves)) => {
                let mut searched: Vec<u8> = thought.scores.iter().map(|s| s.0).collect();
                let mut expected = moves.clone();
                searched.sort_unstable();
                expected.sort_unstable();
                assert_eq!(searched, expected, "{what}");
                assert!(moves.contains(&mine.mv), "{what}");
                let best = thought.scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(thought.value, Some(best), "{what}");
                // Brute force: every candidate is within delta of the best
                // at that iteration's depth.
                for &m in &moves {
                    let mut child = t;
                    child.play(m);
                    let value = -negamax(&child, &eval, d - 1, 1);
                    assert!(value >= v - delta - 1e-9, "{what}: move {m} is worth {value}, the best {v}");
                }
                near += 1;
            }
            None => {
                let mut ab = SearchAgent::new(Search::new(Minimax, eval, opts()).unwrap(), limits.clone());
                let theirs = ab.choose_explained(&t, &mut rng::seeded(seed)).unwrap();
                assert_eq!((mine.mv, thought.value), (theirs.mv, theirs.thought.unwrap().value), "{what}");
                plain += 1;
            }
        }
    }
    eprintln!("{plain} positions played by alpha-beta, {near} chosen among the near-best moves");
    assert!(plain >= 30 && near >= 30, "{plain} plain, {near} near");
}

/// `when_near` without a node budget (equal depth): the predicting search
/// chooses, at the agent's depth, among exactly the root moves that a
/// brute-force minimax search to that depth values at least the root's
/// value minus `delta`, when there are two or more; else the agent plays
/// alpha-beta's move. Both cases occur often on these trees.
#[test]
fn when_near_at_a_fixed_depth_keeps_to_the_moves_near_the_best() {
    use search_core::search::SearchAgent;
    let (mut plain, mut near) = (0, 0);
    for seed in 0..300u64 {
        let (depth, delta) = (3 + (seed % 3) as u32, [0.5, 1.0, 2.0][(seed / 3 % 3) as usize]);
        let (t, eval, agent) = near_setup(6400 + seed, 2 + (seed % 3) as u8, 5, depth);
        let mine = agent.when_near(delta).unwrap().choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        let thought = mine.thought.unwrap();
        let mut moves = Vec::new();
        t.generate(&mut moves);
        let values: Vec<f64> = moves
            .iter()
            .map(|&m| {
                let mut child = t;
                child.play(m);
                -negamax(&child, &eval, depth - 1, 1)
            })
            .collect();
        let root = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let keep: Vec<u8> =
            moves.iter().zip(&values).filter(|(_, v)| **v >= root - delta - 1e-9).map(|(m, _)| *m).collect();
        let what = format!("seed {seed}, depth {depth}, delta {delta}");
        if keep.len() >= 2 {
            let mut searched: Vec<u8> = thought.scores.iter().map(|s| s.0).collect();
            searched.sort_unstable();
            assert_eq!(searched, keep, "{what}");
            let best = thought.scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(thought.value, Some(best), "{what}");
            assert!(thought.distribution.iter().all(|d| keep.contains(&d.0)), "{what}");
            near += 1;
        } else {
            let opts = Options::recommended::<RandomTree, Minimax, RandomTreeEval>(&eval).with_table_mib(0);
            let limits = Limits::full_tree().with_depth(depth);
            let mut ab = SearchAgent::new(Search::new(Minimax, eval, opts).unwrap(), limits);
            let theirs = ab.choose_explained(&t, &mut rng::seeded(seed)).unwrap();
            assert_eq!((mine.mv, thought.value), (theirs.mv, theirs.thought.unwrap().value), "{what}");
            plain += 1;
        }
    }
    eprintln!("{plain} positions played by alpha-beta, {near} chosen among the near-best moves");
    assert!(plain >= 30 && near >= 30, "{plain} plain, {near} near");
}
