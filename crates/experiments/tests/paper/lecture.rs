//! The alpha-beta lecture (moved from `reproduce::experiments::lecture`).

use experiments::reproduce::experiments::lecture::{Ordering, Reorder, count_nodes};
use games_small::{Connect4, TicTacToe};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree};
use search_core::{Game, OutcomeOnly};

#[test]
fn game_ordering_by_the_observer_is_the_cores() {
    // The observer's stable sort on the hint visits the nodes the core's
    // own game ordering does.
    fn both<G: Game>(root: &G) -> (u64, u64) {
        let eval = OutcomeOnly::default();
        let core = Options::plain_alpha_beta().with_game_ordering(true);
        let a = Search::new(Minimax, eval, core).unwrap().run(root, &Limits::full_tree()).unwrap();
        let mut reorder = Reorder(Ordering::Game);
        let b = Search::new(Minimax, eval, Options::plain_alpha_beta())
            .unwrap()
            .run_observed(root, &Limits::full_tree(), &mut reorder)
            .unwrap();
        assert_eq!(a.value, b.value);
        assert_eq!(a.stats.leaves, b.stats.leaves);
        (a.stats.nodes, b.stats.nodes)
    }
    let (a, b) = both(&TicTacToe::default());
    assert_eq!(a, b);
    let (a, b) = both(&Connect4::new(4, 3).unwrap());
    assert_eq!(a, b);
}

#[test]
fn perfect_ordering_of_a_random_tree_hits_the_minimum() {
    let t = RandomTree::new(3, 3, 4, LeafModel::Uniform { min: 0, max: 1_000_000 }).unwrap();
    let counts = count_nodes(&t, 1, false);
    let perfect = counts.iter().find(|c| c.1 == "perfect").unwrap();
    assert_eq!(perfect.3, 3u64.pow(2) + 3u64.pow(2) - 1);
    let minimax = counts.iter().find(|c| c.0 == "minimax").unwrap();
    assert_eq!(minimax.3, 81);
}
