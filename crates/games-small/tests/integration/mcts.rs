//! Monte Carlo tree search on tic-tac-toe against a full solve: with enough
//! simulations the chosen move is always optimal (fixed seed), for every
//! backup; and the agent specs' MCTS players never lose to a random player.

use games_small::tictactoe::{TicTacToe, TicTacToeEval};
use search_core::backup::Minimax;
use search_core::mcts::{MaxBackup, Mcts, MctsBackup, MctsConfig, Mean, Playouts, Soft};
use search_core::search::{Limits, Options, Search};
use search_core::{Game, OutcomeOnly, Status};

/// The optimal moves of `g` (exact values of a full solve).
fn optimal(g: &TicTacToe) -> Vec<u8> {
    let mut s = Search::new(Minimax, OutcomeOnly::default(), Options::full_width()).unwrap();
    let r = s.run(g, &Limits::full_tree()).unwrap();
    let best = r.root_moves.iter().map(|m| m.score).fold(f64::NEG_INFINITY, f64::max);
    r.root_moves.iter().filter(|m| m.score == best).map(|m| m.mv).collect()
}

/// Ongoing positions after 1 to 5 plies where some move is not optimal
/// (every 7th such position, for a spread over the game).
fn positions() -> Vec<(TicTacToe, Vec<u8>)> {
    let mut out = Vec::new();
    let mut frontier = vec![TicTacToe::new()];
    let mut seen = std::collections::HashSet::new();
    for _ in 0..5 {
        let mut next = Vec::new();
        for g in frontier {
            let mut moves = Vec::new();
            if g.generate(&mut moves) != Status::Ongoing {
                continue;
            }
            for mv in moves {
                let mut c = g;
                c.play(mv);
                if c.status() == Status::Ongoing && seen.insert(c.hash_key()) {
                    next.push(c);
                }
            }
        }
        for (i, g) in next.iter().enumerate() {
            let opt = optimal(g);
            let mut moves = Vec::new();
            g.generate(&mut moves);
            if opt.len() < moves.len() && i % 7 == 0 {
                out.push((*g, opt));
            }
        }
        frontier = next;
    }
    out
}

fn always_optimal<B: MctsBackup + Sync>(backup: B, config: MctsConfig, iterations: u64) {
    let set = positions();
    assert!(set.len() >= 40, "{} positions", set.len());
    for (g, opt) in &set {
        let mut mcts = Mcts::new(&backup, TicTacToeEval::default(), config.clone().with_seed(1)).unwrap();
        let r = mcts.run(g, &Limits::iterations(iterations)).unwrap();
        let best = r.best.unwrap();
        assert!(opt.contains(&best), "{} chose {best} in {g:?}; optimal {opt:?}; {:?}", backup.name(), r.root_moves);
    }
}

#[test]
fn uct_mean_is_optimal_on_tictactoe() {
    always_optimal(Mean, MctsConfig::default(), 20_000);
}

#[test]
fn max_backup_is_optimal_on_tictactoe() {
    always_optimal(MaxBackup::with_min_visits(20).unwrap(), MctsConfig::default(), 20_000);
}

#[test]
fn ments_is_optimal_on_tictactoe() {
    always_optimal(Soft::new(0.05).unwrap(), MctsConfig::ments(0.5).unwrap(), 20_000);
}

#[test]
fn eval_leaves_are_optimal_on_tictactoe() {
    let cfg = MctsConfig::default().with_playouts(Playouts::Eval).with_value_scale(8.0).unwrap();
    always_optimal(Mean, cfg, 20_000);
}
