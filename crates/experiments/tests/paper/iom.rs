//! The IOM paper's experiments (moved from `reproduce::experiments::iom`).

use experiments::reproduce::experiments::iom::{
    Algo, GameResult, MatchGame, Mover, Searcher, match_game, pruned, simulate_types, type_formula,
};
use search_core::backup::Minimax;
use search_core::rng;
use taskkit::stats::wilson;

#[test]
fn type_formulas_at_spot_values() {
    assert!((type_formula(1, 0.1) - 0.01).abs() < 1e-15);
    assert!((type_formula(2, 0.1) - 0.09).abs() < 1e-15);
    assert!((type_formula(3, 0.1) - 0.19).abs() < 1e-15);
    assert_eq!(type_formula(3, 0.5), 0.75);
}

#[test]
fn simulation_matches_formulas() {
    let c = simulate_types(0.3, 40_000, 5);
    for (t, &(n, k)) in c.iter().enumerate() {
        let p = k as f64 / n as f64;
        let se = (type_formula(t + 1, 0.3) * (1.0 - type_formula(t + 1, 0.3)) / n as f64).sqrt();
        assert!((p - type_formula(t + 1, 0.3)).abs() < 5.0 * se, "type {} got {p}", t + 1);
    }
}

#[test]
fn root_shuffle_breaks_ties_uniformly_under_pruning() {
    use search_core::tree::{LiteralEval, LiteralTree};
    // Three tied best moves (value 1) and a worse one.
    let t: LiteralTree = "max(min(1, 2), min(0, 5), min(1, 1), min(3, 1))".parse().unwrap();
    let mut m = Searcher::new(Minimax, LiteralEval, pruned(), 2, true).unwrap();
    let mut r = rng::seeded(3);
    let mut counts = [0u32; 4];
    for _ in 0..600 {
        counts[m.decide(&t, &mut r).unwrap() as usize] += 1;
    }
    assert_eq!(counts[1], 0);
    for &c in &[counts[0], counts[2], counts[3]] {
        assert!((140..260).contains(&c), "{counts:?}");
    }
}

#[test]
fn a_match_is_reproducible_from_its_seed() {
    let a = match_game(MatchGame::Gobang, Algo::AlphaBeta, 1, 42).unwrap();
    let b = match_game(MatchGame::Gobang, Algo::AlphaBeta, 1, 42).unwrap();
    assert_eq!(a.0, b.0);
    assert_eq!(a.1.nodes, b.1.nodes);
    let c = match_game(MatchGame::Chess, Algo::Emm, 1, 7).unwrap();
    let d = match_game(MatchGame::Chess, Algo::Emm, 1, 7).unwrap();
    assert_eq!(c.0, d.0);
}

#[test]
fn draws_count_against_the_first_mover() {
    let draw_iom_first = GameResult { iom_first: true, winner: None, capped: true, plies: 9 };
    assert!(!draw_iom_first.iom_scores() && !draw_iom_first.iom_won() && !draw_iom_first.opponent_won());
    let draw_opp_first = GameResult { iom_first: false, ..draw_iom_first };
    assert!(draw_opp_first.iom_scores());
    let (lo, hi) = wilson(30.0, 50.0);
    assert!(lo < 0.6 && hi > 0.6 && lo > 0.45);
}
