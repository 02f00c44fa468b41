//! The opponent predicted from its own values (`aware:...,opp_depth=K`,
//! `PredictingAgent`): a gain over minimax where its model is exact, and the
//! spec.

use games_small::{TicTacToe, TicTacToeEval};
use search_core::backup::predicting::PredictingAgent;
use search_core::backup::{Modelled, OpponentModel};
use search_core::{Agent, Game};
use strength::agents::{Roster, StandardAgents};
use strength::pairing::play_pair;

/// Against a Boltzmann player whose values it predicts exactly (tic-tac-toe
/// searched to the end by both), the agent maximises its expected score, so
/// over paired games from every opening it scores at least what minimax
/// scores, and never loses (its utilities value a loss far below a draw).
#[test]
fn an_exact_prediction_scores_at_least_minimax() {
    let r = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
    let opponent = "boltzmann:depth=9,cap=1,theta=2";
    let total = |spec: &str| -> (f64, usize) {
        let mut me = r.build(spec).unwrap();
        let mut them = r.build(opponent).unwrap();
        let (mut score, mut losses) = (0.0, 0);
        for first in 0..9u8 {
            let mut start = TicTacToe::default();
            start.play(first);
            for seed in 0..2u64 {
                let pair = play_pair(&start, &mut me, &mut them, 100 * u64::from(first) + seed, None).unwrap();
                score += pair.score();
                losses += [pair.a_first.score, pair.b_first.score].iter().filter(|&&s| s == 0.0).count();
            }
        }
        (score, losses)
    };
    let (predicting, predicting_losses) = total("aware:depth=8,theta=2,cap=1,opp_depth=9");
    let (minimax, minimax_losses) = total("alphabeta:depth=9");
    eprintln!(
        "36 games: predicting {predicting} ({predicting_losses} lost), alphabeta {minimax} ({minimax_losses} lost)"
    );
    assert_eq!((predicting_losses, minimax_losses), (0, 0));
    assert!(predicting >= minimax, "predicting {predicting} < alphabeta {minimax}");
}

/// The spec: `opp_depth` must be a depth; the agent is named by its spec.
#[test]
fn opp_depth_is_checked() {
    let r = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
    assert!(r.build("aware:depth=2,theta=1,cap=1,opp_depth=0").is_err());
    assert!(r.build("aware:depth=2,theta=1,cap=1,opp_depth=x").is_err());
    let a = r.build("aware:depth=2,theta=1,cap=1,opp_depth=3").unwrap();
    assert_eq!(a.name(), "aware:depth=2,theta=1,cap=1,opp_depth=3");
    assert!(
        PredictingAgent::new(Modelled::new(OpponentModel::boltzmann(1.0).unwrap()), TicTacToeEval::default(), 0, 1)
            .is_err()
    );
}

/// `online:...,opp_depth=K` (θ learnt as `online` learns it, the opponent
/// predicted from its own values) checks its spec, keeps its name, and
/// never loses a tic-tac-toe game to random play.
#[test]
fn online_with_opp_depth_learns_and_plays() {
    let r = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
    assert!(r.build("online:depth=4,cap=1,opp_depth=0").is_err());
    let mut me = r.build("online:depth=9,cap=1,opp_depth=9").unwrap();
    assert_eq!(me.name(), "online:depth=9,cap=1,opp_depth=9");
    let mut random = search_core::RandomAgent;
    let start = TicTacToe::default();
    let mut lost = 0;
    for seed in 0..6u64 {
        let pair = play_pair(&start, &mut me, &mut random, seed, None).unwrap();
        lost += [pair.a_first.score, pair.b_first.score].iter().filter(|&&s| s == 0.0).count();
    }
    assert_eq!(lost, 0);
}
