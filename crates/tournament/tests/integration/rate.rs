//! Rating through the library: agents on a small tic-tac-toe ladder,
//! rerun without replaying, sharded, and refused when they cannot be rated.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use strength::dial::Calibration;
use tournament::calibrate::{CalibrateConfig, calibrate};
use tournament::ladder::Ladder;
use tournament::matches::AnySetup;
use tournament::rate::{RateConfig, RateError, rate};
use tournament::runner::{RunObserver, Shard};

fn setup() -> Arc<dyn AnySetup> {
    common::tictactoe()
}

fn fresh(name: &str) -> PathBuf {
    common::fresh("rate", name)
}

/// A small ladder: random play, three Boltzmann rungs at depth 9 and
/// perfect play on top.
fn calibration(dir: &std::path::Path) -> Calibration {
    let ladder = Ladder::boltzmann(&[9], &[0.5, 2.0, 8.0], "cap=1").with_pairs(40).with_held_out_pairs(5);
    calibrate(&setup(), &ladder, &CalibrateConfig::new(11, dir), &()).unwrap()
}

/// Counts the cells each run plays.
#[derive(Default)]
struct Count(AtomicUsize);

impl RunObserver for Count {
    fn cell_finished(&self, _job: &str, _cell: &str, _summary: Option<&str>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

fn specs(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn perfect_play_rates_at_the_top_and_random_play_at_zero_and_a_rerun_plays_nothing() {
    let dir = fresh("ladder");
    let calibration = calibration(&dir.join("ladder"));
    let agents = specs(&["alphabeta:depth=9", "random"]);
    let config = RateConfig::new(3, 60, dir.join("rate"));
    let count = Count::default();
    let report = rate(&setup(), &calibration, &agents, &config, &count).unwrap();
    let rungs = calibration.rungs.len();
    // Six cells of five pairs per pairing.
    assert_eq!(count.0.into_inner(), 2 * 6 * rungs);
    assert_eq!(report.opponents.len(), rungs);
    assert_eq!(report.games_per_pairing, 60);
    assert_eq!(report.game, "tictactoe");

    let top = calibration.rungs.iter().max_by(|a, b| a.rating.total_cmp(&b.rating)).unwrap();
    let perfect = &report.agents[0];
    assert_eq!(perfect.spec, "alphabeta:depth=9");
    assert_eq!(perfect.games, 60 * rungs);
    // Perfect play never loses: at least half against every rung, and
    // rated (or bounded) at or above the top rung's interval's low end.
    assert!(perfect.against.iter().all(|g| g.score.unwrap() >= 0.5), "{perfect:?}");
    let at_least = perfect.rating.or(perfect.ci95[0]).unwrap();
    assert!(at_least >= top.low, "{perfect:?} below {top:?}");

    // Random play against the ladder whose anchor it is: near 0, and 0 in
    // its interval.
    let random = &report.agents[1];
    let (rating, [low, high]) = (random.rating.unwrap(), random.ci95.map(Option::unwrap));
    assert!(rating.abs() < 150.0 && low <= 0.0 && 0.0 <= high, "{random:?}");
    assert!(random.std_error.unwrap() >= random.std_error_games.unwrap());

    let again = Count::default();
    assert_eq!(rate(&setup(), &calibration, &agents, &config, &again).unwrap(), report);
    assert_eq!(again.0.into_inner(), 0, "a rerun replays nothing");

    // An agent added later plays only its own pairings; the others' games
    // are reused.
    let more = Count::default();
    let grown = specs(&["alphabeta:depth=9", "random", "boltzmann:depth=9,cap=1,theta=1"]);
    let bigger = rate(&setup(), &calibration, &grown, &config, &more).unwrap();
    assert_eq!(more.0.into_inner(), 6 * rungs);
    assert_eq!(bigger.agents[..2], report.agents[..]);

    // Only the rungs rated at least 100: random play is left out.
    let high = RateConfig { rungs_from: Some(100.0), ..config.clone() };
    let upper = rate(&setup(), &calibration, &agents[..1], &high, &()).unwrap();
    assert!(upper.opponents.len() < rungs && upper.opponents.iter().all(|o| o.rating >= 100.0));
    assert!(report.ratings_table().contains("| alphabeta:depth=9 |"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shards_rate_once_every_cell_is_there() {
    let dir = fresh("shards");
    let calibration = calibration(&dir.join("ladder"));
    let agents = specs(&["boltzmann:depth=9,cap=1,theta=1"]);
    let shard = |i| RateConfig { shard: Some(Shard::new(i, 2).unwrap()), ..RateConfig::new(5, 20, dir.join("rate")) };
    match rate(&setup(), &calibration, &agents, &shard(0), &()) {
        Err(RateError::Incomplete { missing, .. }) => assert!(missing > 0),
        other => panic!("expected missing cells, got {other:?}"),
    }
    let whole = rate(&setup(), &calibration, &agents, &shard(1), &()).unwrap();
    let direct = rate(&setup(), &calibration, &agents, &RateConfig::new(5, 20, dir.join("direct")), &()).unwrap();
    assert_eq!(whole, direct);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn agents_that_cannot_be_rated_are_typed_errors() {
    let dir = fresh("bad");
    let calibration = calibration(&dir.join("ladder"));
    let config = RateConfig::new(1, 10, dir.join("rate"));
    let setup = setup();
    let one = specs(&["random"]);
    assert!(matches!(rate(&setup, &calibration, &[], &config, &()), Err(RateError::NoAgents)));
    let no_games = RateConfig { games: 0, ..config.clone() };
    assert!(matches!(rate(&setup, &calibration, &one, &no_games, &()), Err(RateError::NoGames)));
    let err = rate(&setup, &calibration, &specs(&["minimaxx:depth=2"]), &config, &()).unwrap_err();
    assert!(matches!(err, RateError::Setup(_)) && err.to_string().contains("minimaxx"), "{err}");
    let too_high = RateConfig { rungs_from: Some(1e6), ..config.clone() };
    let err = rate(&setup, &calibration, &one, &too_high, &()).unwrap_err();
    assert!(matches!(err, RateError::NoRung { rungs_from: Some(_), .. }), "{err}");
    let mut engines = calibration.clone();
    engines.rungs.retain(|r| r.spec == "random");
    engines.rungs[0].spec = "uci:/usr/games/stockfish".into();
    let err = rate(&setup, &engines, &one, &config, &()).unwrap_err();
    assert!(matches!(err, RateError::NoRung { rungs_from: None, .. }), "{err}");
    let mut no_nu = calibration.clone();
    no_nu.draw_nu = None;
    assert!(matches!(rate(&setup, &no_nu, &one, &config, &()), Err(RateError::NoDrawParameter { .. })));
    let mut bad_stretch = calibration.clone();
    bad_stretch.scale_stretch = Some(-1.0);
    assert!(matches!(rate(&setup, &bad_stretch, &one, &config, &()), Err(RateError::Stretch { .. })));
    let mut other_game = calibration.clone();
    other_game.game = "connect4".into();
    assert!(matches!(rate(&setup, &other_game, &one, &config, &()), Err(RateError::WrongGame { .. })));
    // Nothing was played: the store was never opened.
    assert!(!dir.join("rate").exists());
    // A directory of another seed's run is refused, not mixed.
    rate(&setup, &calibration, &one, &config, &()).unwrap();
    let other = rate(&setup, &calibration, &one, &RateConfig::new(2, 10, dir.join("rate")), &());
    assert!(matches!(other, Err(RateError::Store(_))), "{other:?}");
    std::fs::remove_dir_all(&dir).ok();
}
