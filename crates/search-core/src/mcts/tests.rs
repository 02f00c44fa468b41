//! MCTS against exact values on random and literal trees; parameters,
//! determinism, threads and tree reuse.

use crate::backup::Minimax;
use crate::eval::OutcomeOnly;
use crate::game::Game;
use crate::mcts::{FinalMove, MaxBackup, Mcts, MctsBackup, MctsConfig, Mean, Playouts, Selection, Soft};
use crate::search::{Limits, Options, Search};
use crate::tree::{ChanceWeights, LeafModel, LiteralTree, RandomTree, RandomTreeEval};
use crate::{GameError, ParamError};

/// The exact (expecti)minimax value of every root move, from the mover's view.
fn exact_scores<G: Game>(g: &G, eval: RandomTreeEval) -> Vec<(G::Move, f64)>
where
    RandomTreeEval: crate::Evaluator<G>,
{
    let mut s = Search::new(Minimax, eval, Options::full_width()).unwrap();
    let r = s.run(g, &Limits::full_tree()).unwrap();
    r.root_moves.iter().map(|m| (m.mv, m.score)).collect()
}

fn tree(seed: u64) -> RandomTree {
    RandomTree::new(seed, 3, 4, LeafModel::Uniform { min: -20, max: 20 }).unwrap()
}

/// The chosen move is optimal on `trees`, for `backup`.
fn converges<B: MctsBackup + Sync>(backup: B, config: MctsConfig, trees: &[RandomTree], iterations: u64) {
    for t in trees {
        let eval = RandomTreeEval::for_tree(t);
        let scores = exact_scores(t, eval);
        let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let mut mcts = Mcts::new(&backup, eval, config.clone().with_value_scale(10.0).unwrap()).unwrap();
        let r = mcts.run(t, &Limits::iterations(iterations)).unwrap();
        let chosen = scores.iter().find(|s| Some(s.0) == r.best).unwrap().1;
        assert_eq!(chosen, best, "{} on {t:?}: {:?} vs {scores:?}", backup.name(), r.root_moves);
    }
}

fn distinct_trees() -> Vec<RandomTree> {
    // Trees whose best root move is better than the second by at least 2.
    (0..40)
        .map(tree)
        .filter(|t| {
            let mut s: Vec<f64> = exact_scores(t, RandomTreeEval::for_tree(t)).iter().map(|x| x.1).collect();
            s.sort_by(|a, b| b.total_cmp(a));
            s[0] - s[1] >= 2.0
        })
        .take(6)
        .collect()
}

#[test]
fn mean_converges_on_random_trees() {
    converges(Mean, MctsConfig::default(), &distinct_trees(), 20_000);
}

#[test]
fn max_converges_on_random_trees() {
    converges(MaxBackup::PURE, MctsConfig::default(), &distinct_trees(), 20_000);
}

#[test]
fn soft_converges_on_random_trees() {
    converges(Soft::new(0.02).unwrap(), MctsConfig::ments(0.5).unwrap(), &distinct_trees(), 20_000);
    converges(Soft::new(0.02).unwrap(), MctsConfig::default(), &distinct_trees(), 20_000);
}

#[test]
fn max_backup_value_tends_to_minimax() {
    // On a small tree every leaf is visited: the max backup is exact.
    for seed in 0..5 {
        let t = RandomTree::new(seed, 3, 3, LeafModel::Uniform { min: -20, max: 20 }).unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let exact = exact_scores(&t, eval).iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        let cfg = MctsConfig::default().with_value_scale(10.0).unwrap();
        let r = Mcts::new(MaxBackup::PURE, eval, cfg).unwrap().run(&t, &Limits::iterations(5_000)).unwrap();
        assert!((r.value - (exact / 10.0).tanh()).abs() < 1e-9, "{} vs {exact}", r.value);
    }
}

#[test]
fn chance_nodes_expectimax() {
    // Random chance weights; the backups average the outcomes.
    let mut checked = 0;
    for seed in 0..30 {
        let t = RandomTree::new(seed, 3, 4, LeafModel::Uniform { min: -20, max: 20 })
            .unwrap()
            .with_chance(1, ChanceWeights::Random)
            .unwrap();
        let eval = RandomTreeEval::for_tree(&t);
        let scores = exact_scores(&t, eval);
        let mut sorted: Vec<f64> = scores.iter().map(|s| s.1).collect();
        sorted.sort_by(|a, b| b.total_cmp(a));
        if sorted[0] - sorted[1] < 2.0 {
            continue;
        }
        checked += 1;
        for backup in [&MaxBackup::PURE as &(dyn MctsBackup + Sync), &Mean] {
            let cfg = MctsConfig::default().with_value_scale(10.0).unwrap().with_seed(seed);
            let r = Mcts::new(backup, eval, cfg).unwrap().run(&t, &Limits::iterations(20_000)).unwrap();
            let chosen = scores.iter().find(|s| Some(s.0) == r.best).unwrap().1;
            assert_eq!(chosen, sorted[0], "{} seed {seed}", backup.name());
        }
        if checked == 4 {
            break;
        }
    }
    assert_eq!(checked, 4);
}

#[test]
fn bad_parameters_are_typed_errors() {
    let e = |r: Result<Mcts<LiteralTree, Mean, OutcomeOnly>, ParamError>| r.unwrap_err().name;
    assert_eq!(
        e(Mcts::new(Mean, OutcomeOnly::default(), MctsConfig::default().with_selection(Selection::Ucb1 { c: 0.0 }))),
        "c"
    );
    assert_eq!(
        e(Mcts::new(
            Mean,
            OutcomeOnly::default(),
            MctsConfig::default().with_selection(Selection::Ucb1 { c: f64::NAN })
        )),
        "c"
    );
    assert_eq!(e(Mcts::new(Mean, OutcomeOnly::default(), MctsConfig::ments(1.0).unwrap())), "selection");
    assert_eq!(
        e(Mcts::new(Mean, OutcomeOnly::default(), MctsConfig::default().with_final_move(FinalMove::Sample))),
        "final_move"
    );
    assert!(Soft::new(-1.0).is_err() && Soft::new(f64::INFINITY).is_err());
    assert!(MctsConfig::ments(0.0).is_err());
    assert!(MctsConfig::default().with_value_scale(f64::NAN).is_err());
    let t: LiteralTree = "max(1, 2)".parse().unwrap();
    let mut m = Mcts::new(Mean, OutcomeOnly::default(), MctsConfig::default()).unwrap();
    let param = |r: Result<_, GameError>| match r {
        Err(GameError::Param(p)) => p.name,
        other => panic!("{other:?}"),
    };
    assert_eq!(param(m.run(&t, &Limits::iterations(0))), "iterations");
    assert_eq!(param(m.run(&t, &Limits::depth(3))), "depth");
    assert_eq!(param(m.run(&t, &Limits::full_tree())), "limits");
    let over: LiteralTree = "5".parse().unwrap();
    assert_eq!(m.run(&over, &Limits::iterations(10)), Err(GameError::GameOver));
    // Alpha-beta refuses an iteration limit.
    let mut ab = Search::new(Minimax, crate::tree::LiteralEval, Options::default()).unwrap();
    assert!(ab.run(&t, &Limits::iterations(10)).is_err());
}

#[test]
fn one_thread_is_deterministic() {
    let t = tree(3);
    let eval = RandomTreeEval::for_tree(&t);
    for playouts in [Playouts::Random, Playouts::Eval] {
        let run = || {
            let cfg = MctsConfig::default().with_seed(9).with_playouts(playouts).with_value_scale(10.0).unwrap();
            Mcts::new(Mean, eval, cfg).unwrap().run(&t, &Limits::iterations(3_000)).unwrap()
        };
        let (a, b) = (run(), run());
        assert_eq!(a.root_moves, b.root_moves);
        assert_eq!(a.stats.nodes, b.stats.nodes);
        assert_eq!(a.iterations, 3_000);
    }
}

#[test]
fn thread_sweep() {
    let t = tree(5);
    let eval = RandomTreeEval::for_tree(&t);
    let scores = exact_scores(&t, eval);
    let best = scores.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
    for threads in [1, 2, 4] {
        let run = || {
            let cfg = MctsConfig::default().with_seed(1).with_threads(threads).unwrap().with_value_scale(10.0).unwrap();
            Mcts::new(MaxBackup::PURE, eval, cfg).unwrap().run(&t, &Limits::iterations(8_000)).unwrap()
        };
        let (a, b) = (run(), run());
        // Deterministic per seed and thread count (iteration limits).
        assert_eq!(a.root_moves, b.root_moves, "{threads} threads");
        assert_eq!(a.iterations, 8_000);
        assert_eq!(a.root_moves.iter().map(|m| m.visits).sum::<u64>(), 8_000);
        let chosen = scores.iter().find(|s| Some(s.0) == a.best).unwrap().1;
        assert_eq!(chosen, best, "{threads} threads");
    }
    // A time limit with several threads ends too.
    let cfg = MctsConfig::default().with_threads(2).unwrap();
    let r = Mcts::new(Mean, eval, cfg).unwrap().run(&t, &Limits::time(std::time::Duration::from_millis(20))).unwrap();
    assert!(r.iterations >= 2 && !r.complete);
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    let t = RandomTree::new(2, 3, 6, LeafModel::Uniform { min: -20, max: 20 }).unwrap();
    let eval = RandomTreeEval::for_tree(&t);
    let cfg = MctsConfig::default().with_seed(4).with_value_scale(10.0).unwrap();
    let mut m = Mcts::new(Mean, eval, cfg.clone()).unwrap();
    let r = m.run(&t, &Limits::iterations(2_000)).unwrap();
    assert_eq!(r.reused, 0);
    // Two plies later: the grandchild's statistics carry over.
    let (a, b) = (r.pv[0], r.pv[1]);
    let mut next = t;
    next.play(a);
    next.play(b);
    let kept = {
        let w = &m.workers[0].tree;
        let c = w.child(0, a).unwrap();
        w.nodes[w.child(c, b).unwrap()].visits
    };
    assert!(kept > 0);
    let r2 = m.run(&next, &Limits::iterations(500)).unwrap();
    assert_eq!(r2.reused, u64::from(kept));
    assert_eq!(r2.root_moves.iter().map(|m| m.visits).sum::<u64>(), u64::from(kept) - 1 + 500);
    // Same seeds and the same calls: the same results, reused or not twice.
    let mut m2 = Mcts::new(Mean, eval, cfg.clone()).unwrap();
    m2.run(&t, &Limits::iterations(2_000)).unwrap();
    assert_eq!(m2.run(&next, &Limits::iterations(500)).unwrap().root_moves, r2.root_moves);
    // Without reuse the second search starts afresh.
    let mut m3 = Mcts::new(Mean, eval, cfg.with_reuse(false)).unwrap();
    m3.run(&t, &Limits::iterations(2_000)).unwrap();
    assert_eq!(m3.run(&next, &Limits::iterations(500)).unwrap().reused, 0);
    // advance() re-roots explicitly.
    let mut m4 = Mcts::new(Mean, eval, MctsConfig::default()).unwrap();
    m4.run(&t, &Limits::iterations(100)).unwrap();
    assert!(m4.advance(r.pv[0]));
    assert!(!m4.advance(200));
}

#[test]
fn final_move_rules() {
    let t: LiteralTree = "max(min(1, -1), min(1, 1), min(-1, -1))".parse().unwrap();
    for fm in [FinalMove::Visits, FinalMove::Value, FinalMove::Sample] {
        let cfg = MctsConfig::default().with_final_move(fm);
        let r = Mcts::new(Soft::new(0.05).unwrap(), OutcomeOnly::default(), cfg)
            .unwrap()
            .run(&t, &Limits::iterations(2_000))
            .unwrap();
        assert_eq!(r.best, Some(1), "{fm:?}");
        let total: f64 = r.root_moves.iter().map(|m| m.policy).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
}

#[test]
fn node_and_stop_limits() {
    let t = tree(1);
    let eval = RandomTreeEval::for_tree(&t);
    let mut m = Mcts::new(Mean, eval, MctsConfig::default()).unwrap();
    let r = m.run(&t, &Limits::nodes(1_000)).unwrap();
    assert!(r.stats.nodes >= 1_000 && r.stats.nodes < 1_100 && r.complete);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let r = m.run(&t, &Limits::until_stopped(stop)).unwrap();
    assert!(r.iterations >= 1 && r.iterations <= 16 && !r.complete);
    // A tiny tree cap stops the search.
    let cfg = MctsConfig::default().with_max_tree_nodes(10).unwrap();
    let r = Mcts::new(Mean, eval, cfg).unwrap().run(&t, &Limits::iterations(1_000)).unwrap();
    assert!(!r.complete && r.iterations < 1_000);
}
