//! `cargo xtask fit-validation` on a fixed seed: tic-tac-toe's synthetic
//! players, exact values.

use dial::fit_validation::{Config, Report, setup, validate};
use strength::fit::Model;

fn config(players: usize, games: Vec<u32>, threads: usize) -> Config {
    Config {
        setup: setup("tictactoe").expect("a game"),
        models: vec![Model::Boltzmann, Model::EpsilonGreedy],
        players,
        games,
        seed: 11,
        threads: Some(threads),
    }
}

fn cell(r: &Report, model: Model, n: u32) -> &dial::fit_validation::Cell {
    r.cells.iter().find(|c| c.model == model && c.n == n).expect("a cell")
}

/// 100 players of each model, 30 games: the 95% intervals cover the truth
/// within a binomial band around 95% from 10 games on, the error shrinks
/// from 1 to 30 games, and AIC tells the models apart.
#[test]
fn tictactoe_coverage_bias_and_model_choice() {
    let r = validate(&config(100, vec![1, 3, 10, 30], 2)).expect("runs");
    for model in [Model::Boltzmann, Model::EpsilonGreedy] {
        for n in [10, 30] {
            let c = cell(&r, model, n);
            assert!(c.fitted >= 95, "{model:?} at {n}: {} fitted", c.fitted);
            // Three binomial standard deviations around 95%.
            let sd = (0.95 * 0.05 / c.fitted as f64).sqrt();
            assert!(
                (c.coverage - 0.95).abs() <= 3.0 * sd,
                "{model:?} at {n} games: coverage {} outside 95% ± {}",
                c.coverage,
                3.0 * sd
            );
        }
        let (one, thirty) = (cell(&r, model, 1), cell(&r, model, 30));
        assert!(thirty.bias.abs() < one.bias.abs(), "{model:?}: |bias| {} at 1 game, {} at 30", one.bias, thirty.bias);
        assert!(thirty.rmse < 0.5 * one.rmse, "{model:?}: RMSE {} at 1 game, {} at 30", one.rmse, thirty.rmse);
    }
    let choice = r.choice.as_ref().expect("both models");
    assert_eq!(choice.n, 30);
    assert!(choice.epsilon.0 * 10 >= choice.epsilon.1 * 9, "ε-greedy as ε-greedy: {:?}", choice.epsilon);
    assert!(choice.boltzmann.0 * 10 >= choice.boltzmann.1 * 9, "Boltzmann as Boltzmann: {:?}", choice.boltzmann);
}

/// The same players on one thread and on two.
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let a = validate(&config(6, vec![1, 4], 1)).expect("runs");
    let b = validate(&config(6, vec![1, 4], 2)).expect("runs");
    assert_eq!(a.players, b.players);
    assert_eq!(a.cells, b.cells);
}

/// Bad input is an error, not a panic.
#[test]
fn bad_input() {
    assert!(setup("go").unwrap_err().contains("unknown game"));
    assert!(validate(&config(0, vec![1], 1)).unwrap_err().contains("players"));
    assert!(validate(&config(2, vec![], 1)).unwrap_err().contains("no game counts"));
    assert!(validate(&config(2, vec![0, 3], 1)).unwrap_err().contains("at least 1"));
    assert!(validate(&config(2, vec![3, 1], 1)).unwrap_err().contains("increase"));
    let mut c = config(2, vec![1], 1);
    c.models.clear();
    assert!(validate(&c).unwrap_err().contains("model"));
}
