//! The `ms=M` (time per move) and alpha-beta `threads=T` keys: built,
//! checked, and playing legal games. No assertion depends on timing.

use games_small::{Connect4, Connect4Eval, TicTacToe, TicTacToeEval};
use search_core::arena::play_match;
use search_core::{Game, RandomAgent};
use strength::agents::{Roster, StandardAgents};

fn tictactoe() -> Roster<TicTacToe> {
    Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1))
}

#[test]
fn timed_and_threaded_specs_play_legal_games() {
    let r = tictactoe();
    for spec in [
        "alphabeta:ms=5",
        "alphabeta:ms=5,depth=4",
        "alphabeta:depth=9,threads=2",
        "alphabeta:ms=5,threads=2",
        "mcts:ms=5",
        "mcts:ms=5,iters=200,threads=2",
        "ments:ms=5,tau=0.1",
    ] {
        let mut ai = r.build(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let game = play_match(&TicTacToe::new(), &mut *ai, &mut RandomAgent, 3, None).unwrap();
        assert!(game.outcome.is_some(), "{spec}: the game ended");
    }
}

#[test]
fn a_timed_search_on_a_bigger_game_returns_a_legal_move() {
    let r = Roster::new().with(StandardAgents::new(Connect4Eval::default()).with_table_mib(1));
    let start = Connect4::standard();
    for spec in ["alphabeta:ms=20,threads=2", "mcts:ms=20"] {
        let mut ai = r.build(spec).unwrap();
        let mv = ai.choose(&start, &mut search_core::rng::seeded(1)).unwrap();
        let mut legal = Vec::new();
        start.generate(&mut legal);
        assert!(legal.contains(&mv), "{spec}");
    }
}

#[test]
fn bad_timed_specs_are_errors() {
    let r = tictactoe();
    for spec in [
        "alphabeta:ms=0",
        "alphabeta:ms=-5",
        "alphabeta:nodes=100",
        "alphabeta:depth=3,threads=0",
        "boltzmann:ms=10,theta=1",
        "iom:ms=10",
        "mcts:ms=0",
        "mcts:c=1.4",
        "ments:ms=10",
    ] {
        assert!(r.build(spec).is_err(), "{spec}");
    }
}
