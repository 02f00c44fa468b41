//! `Agent::choose_explained`: the same move as `choose`, and a thought that
//! describes the distribution actually sampled.

use search_core::backup::Minimax;
use search_core::backup::rminimax::UtilityCosts;
use search_core::policy::{MoveDistribution, Softmax, boltzmann_agent};
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::tree::{LiteralEval, LiteralTree};
use search_core::{Agent, RandomAgent, rng};

const TREE: &str = "max(min(3, 7), min(6, 8), min(6, 11), min(0, 2))";

#[test]
fn policy_thought_is_the_sampled_distribution() {
    let t: LiteralTree = TREE.parse().unwrap();
    let mut agent =
        boltzmann_agent(0.7, UtilityCosts::new(0.0, 20.0).unwrap(), LiteralEval, Limits::full_tree()).unwrap();
    for seed in 0..50 {
        let plain = agent.choose(&t, &mut rng::seeded(seed)).unwrap();
        let choice = agent.choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        assert_eq!(plain, choice.mv, "seed {seed}");
        let thought = choice.thought.expect("a policy agent explains");
        let total: f64 = thought.distribution.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
        // Root values 3, 6, 6, 0 as scores −(cost) = value − 20: a Boltzmann
        // distribution over them.
        let scores: Vec<f64> = thought.scores.iter().map(|(_, s)| *s).collect();
        assert_eq!(scores, [-17.0, -14.0, -14.0, -20.0]);
        let mut expected = Vec::new();
        Softmax::new(0.7).unwrap().distribution(&scores, &mut expected).unwrap();
        for ((m, p), q) in thought.distribution.iter().zip(&expected) {
            assert!((p - q).abs() < 1e-12, "move {m}");
        }
        assert!(thought.value.is_some());
        assert!(thought.stats.nodes > 0);
    }
}

#[test]
fn search_thought_shares_ties() {
    // Full width, so that the tie between moves 1 and 2 is proved exact.
    let t: LiteralTree = TREE.parse().unwrap();
    let mut agent =
        SearchAgent::new(Search::new(Minimax, LiteralEval, Options::full_width()).unwrap(), Limits::full_tree());
    let choice = agent.choose_explained(&t, &mut rng::seeded(3)).unwrap();
    let thought = choice.thought.unwrap();
    assert_eq!(thought.probability(&1), 0.5);
    assert_eq!(thought.probability(&2), 0.5);
    assert_eq!(thought.probability(&0), 0.0);
    assert!(choice.mv == 1 || choice.mv == 2);
    assert!(thought.pv.first().is_some_and(|m| *m == 1 || *m == 2));
}

#[test]
fn random_thought_is_uniform() {
    let t: LiteralTree = TREE.parse().unwrap();
    let choice = RandomAgent.choose_explained(&t, &mut rng::seeded(9)).unwrap();
    let thought = choice.thought.unwrap();
    assert_eq!(thought.distribution.len(), 4);
    assert!(thought.distribution.iter().all(|(_, p)| *p == 0.25));
}

#[test]
fn mcts_thought_is_its_soft_policy_when_sampled() {
    use search_core::OutcomeOnly;
    use search_core::mcts::{FinalMove, Mcts, MctsAgent, MctsConfig, Soft};
    let t: LiteralTree = "max(min(1, 5), min(4, 6))".parse().unwrap();
    let config = MctsConfig::default().with_value_scale(5.0).unwrap().with_final_move(FinalMove::Sample);
    let make = || {
        MctsAgent::new(
            Mcts::new(Soft::new(0.5).unwrap(), OutcomeOnly::default(), config.clone()).unwrap(),
            Limits::iterations(300),
        )
    };
    for seed in 0..10 {
        let plain = make().choose(&t, &mut rng::seeded(seed)).unwrap();
        let choice = make().choose_explained(&t, &mut rng::seeded(seed)).unwrap();
        assert_eq!(plain, choice.mv, "seed {seed}");
        let thought = choice.thought.unwrap();
        let total: f64 = thought.distribution.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9 && thought.distribution.len() == 2);
        assert_eq!(thought.scores.len(), 2);
        assert!(thought.stats.nodes > 0 || thought.value.is_some());
    }
}
