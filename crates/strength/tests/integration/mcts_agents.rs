//! The MCTS agent specs: built, checked, and playing tic-tac-toe without
//! losing to a random player; deterministic per match seed.

use games_small::{TicTacToe, TicTacToeEval};
use search_core::arena::play_match;
use search_core::{Outcome, Player, RandomAgent};
use strength::agents::{Roster, StandardAgents};

fn roster() -> Roster<TicTacToe> {
    Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1))
}

#[test]
fn mcts_specs_play_and_never_lose_to_random() {
    let r = roster();
    for spec in [
        "mcts:iters=3000,c=1.4",
        "mcts:iters=3000,backup=max,min_visits=10,threads=2",
        "mcts:iters=3000,playouts=eval,scale=8,final=value",
        "ments:iters=3000,tau=0.05",
        "ments:iters=3000,tau=0.05,eps=0.5,final=sample",
    ] {
        for seed in 0..4 {
            let mut ai = r.build(spec).unwrap();
            let (first, second): (&mut dyn search_core::Agent<TicTacToe>, _) = if seed % 2 == 0 {
                (&mut *ai, &mut RandomAgent as &mut dyn search_core::Agent<TicTacToe>)
            } else {
                (&mut RandomAgent as &mut dyn search_core::Agent<TicTacToe>, &mut *ai)
            };
            let game = play_match(&TicTacToe::new(), first, second, seed, None).unwrap();
            let ai_player = if seed % 2 == 0 { Player::First } else { Player::Second };
            assert_ne!(game.outcome, Some(Outcome::Win(ai_player.opponent())), "{spec} lost (seed {seed})");
            // The same seed replays the same game.
            let mut again = r.build(spec).unwrap();
            let replay = if seed % 2 == 0 {
                play_match(&TicTacToe::new(), &mut *again, &mut RandomAgent, seed, None).unwrap()
            } else {
                play_match(&TicTacToe::new(), &mut RandomAgent, &mut *again, seed, None).unwrap()
            };
            assert_eq!(game, replay, "{spec}");
        }
    }
}

#[test]
fn bad_mcts_specs_are_errors() {
    let r = roster();
    for spec in [
        "mcts:c=1.4",
        "mcts:iters=0",
        "mcts:iters=10,c=0",
        "mcts:iters=10,c=nan",
        "mcts:iters=10,backup=soft",
        "mcts:iters=10,playouts=smart",
        "mcts:iters=10,threads=0",
        "mcts:iters=10,tau=1",
        "ments:iters=10",
        "ments:iters=10,tau=0",
        "ments:iters=10,tau=-1",
        "ments:iters=10,tau=1,eps=0",
        "mcts:iters=10,final=sample",
        "mcts:iters=10,min_visits=3",
        "mcts:iters=10,backup=max,min_visits=0",
    ] {
        assert!(r.build(spec).is_err(), "{spec}");
    }
}
