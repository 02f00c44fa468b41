//! The lecture notes' tic-tac-toe minimax (seed 004): win 1, draw 0, loss −1.

use games_small::{TicTacToe, TicTacToeEval};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Game, OutcomeOnly};

#[test]
fn minimax_values_the_empty_board_a_draw_over_the_full_tree() {
    let r = Search::new(Minimax, OutcomeOnly::new(1.0), Options::full_width())
        .unwrap()
        .run(&TicTacToe::default(), &Limits::full_tree())
        .unwrap();
    assert_eq!(r.value, Some(0.0));
    assert_eq!(r.stats.nodes, 549_946, "the full game tree, counting the root");
    assert_eq!(r.stats.leaves, 255_168, "every complete game");
    assert_eq!(r.best_moves.len(), 9, "every first move draws");
}

#[test]
fn alpha_beta_agrees_and_prunes() {
    let full = Search::new(Minimax, OutcomeOnly::new(1.0), Options::full_width())
        .unwrap()
        .run(&TicTacToe::default(), &Limits::full_tree())
        .unwrap();
    for options in [Options::plain_alpha_beta(), Options::default()] {
        let r = Search::new(Minimax, OutcomeOnly::new(1.0), options)
            .unwrap()
            .run(&TicTacToe::default(), &Limits::full_tree())
            .unwrap();
        assert_eq!(r.value, Some(0.0));
        assert!(r.stats.nodes < full.stats.nodes / 10);
    }
}

#[test]
fn a_won_position_is_found_with_the_heuristic_too() {
    // X: a1 b2, O: a2 — X to move wins with c3.
    let g = TicTacToe::from_moves("a1 a2 b2 b1").unwrap();
    let r =
        Search::new(Minimax, TicTacToeEval::default(), Options::default()).unwrap().run(&g, &Limits::depth(3)).unwrap();
    assert_eq!(r.best.map(|m| g.move_string(m)), Some("c3".to_string()));
    assert!(r.value.unwrap() > 1e5, "a win scores like a win");
}
