//! The `ms=M` (time per move) and alpha-beta `threads=T` keys, and every
//! search kind on every small game: built,
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

/// Every search kind of the agent table plays whole games on every small
/// game, with values of both signs at its leaves (the Rminimax kinds once
/// failed there: a leaf the mover wins cost less than zero).
#[test]
fn every_search_kind_plays_whole_games_on_every_small_game() {
    use games_small::gobang::{Gobang, GobangEval, GobangOptions};
    let specs = |depth: u32| {
        [
            format!("alphabeta:depth={depth}"),
            format!("boltzmann:depth={depth},theta=0.5"),
            format!("boltzmann:depth={depth},theta=0.01,softcap=1000"),
            format!("rminimax:depth={depth},theta=0.5"),
            format!("epsilon:depth={depth},eps=0.1"),
            format!("iom:depth={depth}"),
        ]
    };
    fn play_all<G: Game>(roster: &Roster<G>, start: &G, specs: &[String]) {
        for spec in specs {
            let mut ai = roster.build(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for seed in 0..2 {
                let game = play_match(start, &mut *ai, &mut RandomAgent, seed, None)
                    .unwrap_or_else(|e| panic!("{spec}, seed {seed}: {e}"));
                assert!(game.outcome.is_some(), "{spec}: the game ended");
            }
        }
    }
    play_all(&tictactoe(), &TicTacToe::new(), &specs(9));
    let c4 = Roster::new().with(StandardAgents::new(Connect4Eval::default()).with_table_mib(1));
    play_all(&c4, &Connect4::standard(), &specs(2));
    let small = GobangOptions { size: 9, ..GobangOptions::default() };
    let gobang = Roster::new().with(StandardAgents::new(GobangEval::default()).with_table_mib(1));
    play_all(&gobang, &Gobang::with_options(small).unwrap(), &specs(1));
}
