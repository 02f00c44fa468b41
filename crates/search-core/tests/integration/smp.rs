//! Lazy SMP on random trees: one thread is the single-threaded search node
//! for node; several threads return a legal move and, for a complete
//! search to a fixed depth, the same value; thread sweeps never crash.

use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
use search_core::{Game, GameError};

fn trees() -> Vec<RandomTree> {
    (0..6)
        .map(|seed| {
            RandomTree::new(seed, 4, 9, LeafModel::Uniform { min: -100, max: 100 })
                .unwrap()
                .with_branching(2, 6)
                .unwrap()
        })
        .collect()
}

#[test]
fn one_thread_reproduces_the_single_threaded_search() {
    for t in trees() {
        let eval = RandomTreeEval::for_tree(&t);
        let mut a = Search::new(Minimax, eval, Options::default()).unwrap();
        let mut b = Search::parallel(Minimax, eval, Options::default().with_threads(1)).unwrap();
        for depth in [3, 6, 9] {
            let (x, y) = (a.run(&t, &Limits::depth(depth)).unwrap(), b.run(&t, &Limits::depth(depth)).unwrap());
            assert_eq!(x.value, y.value);
            assert_eq!(x.stats.nodes, y.stats.nodes);
            assert_eq!(x.stats.cutoffs, y.stats.cutoffs);
            assert_eq!(x.root_moves, y.root_moves);
            assert_eq!(x.pv, y.pv);
        }
    }
}

#[test]
fn thread_sweep_values_and_moves() {
    for t in trees() {
        let eval = RandomTreeEval::for_tree(&t);
        let mut moves = Vec::new();
        t.generate(&mut moves);
        let reference = Search::new(Minimax, eval, Options::default()).unwrap().run(&t, &Limits::depth(9)).unwrap();
        for threads in [1, 2, 4] {
            let mut s = Search::parallel(Minimax, eval, Options::default().with_threads(threads)).unwrap();
            for _ in 0..3 {
                let r = s.run(&t, &Limits::depth(9)).unwrap();
                assert!(r.complete);
                assert_eq!(r.value, reference.value, "{threads} threads");
                assert!(moves.contains(&r.best.unwrap()));
            }
            // Node and time limits end the helpers too.
            let r = s.run(&t, &Limits::nodes(5_000)).unwrap();
            assert!(moves.contains(&r.best.unwrap()));
            let r = s.run(&t, &Limits::time(std::time::Duration::from_millis(5))).unwrap();
            assert!(moves.contains(&r.best.unwrap()));
            s.clear();
        }
    }
}

#[test]
fn thread_options_are_checked() {
    let t = RandomTree::new(1, 3, 3, LeafModel::Uniform { min: 0, max: 9 }).unwrap();
    let eval = RandomTreeEval::for_tree(&t);
    let name = |r: Result<Search<RandomTree, Minimax, RandomTreeEval>, search_core::ParamError>| r.unwrap_err().name;
    assert_eq!(name(Search::new(Minimax, eval, Options::default().with_threads(2))), "threads");
    assert_eq!(name(Search::parallel(Minimax, eval, Options::default().with_threads(0))), "threads");
    assert_eq!(name(Search::parallel(Minimax, eval, Options::default().with_threads(2).with_table_mib(0))), "threads");
    let mut s = Search::parallel(Minimax, eval, Options::default().with_threads(2)).unwrap();
    assert!(matches!(s.run(&t, &Limits::iterations(5)), Err(GameError::Param(_))));
    s.set_table_mib(1).unwrap();
    assert!(s.run(&t, &Limits::depth(3)).unwrap().complete);
}
