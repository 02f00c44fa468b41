//! Calibration through the library: a small tic-tac-toe ladder, grown
//! without replaying, sharded, and refused when it cannot be played.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use strength::dial::{Calibration, Dial};
use tournament::calibrate::{CalibrateConfig, CalibrateError, HELD_OUT_MATCHES, calibrate, fit_saved, held_out_values};
use tournament::ladder::{HeldOutDesign, Ladder};
use tournament::matches::AnySetup;
use tournament::runner::{RunObserver, Shard};

fn setup() -> Arc<dyn AnySetup> {
    common::tictactoe()
}

fn ladder(pairs: usize) -> Ladder {
    Ladder::boltzmann(&[9], &[0.5, 2.0, 8.0], "cap=1").with_pairs(pairs).with_held_out_pairs(5)
}

fn fresh(name: &str) -> PathBuf {
    common::fresh("calibrate", name)
}

/// Counts the cells each run plays: the ladder's matchups', and the
/// held-out matches'.
#[derive(Default)]
struct Count {
    played: AtomicUsize,
    held_out: AtomicUsize,
}

impl RunObserver for Count {
    fn cell_finished(&self, job: &str, _cell: &str, _summary: Option<&str>) {
        let counter = if job.contains("heldout") { &self.held_out } else { &self.played };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

fn cells_on_disk(dir: &Path) -> usize {
    walk(&dir.join("cells"))
}

fn walk(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    if e.path().is_dir() {
                        walk(&e.path())
                    } else {
                        usize::from(e.path().extension().is_some_and(|x| x == "json"))
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn a_grown_calibration_plays_only_the_new_games_and_a_rerun_plays_none() {
    let dir = fresh("grow");
    let config = CalibrateConfig::new(11, &dir);
    let small = Count::default();
    let first = calibrate(&setup(), &ladder(10), &config, &small).unwrap();
    let matchups = ladder(10).schedule().matchups.len();
    // Two cells of five pairs per matchup, one per held-out match.
    assert_eq!(small.played.into_inner(), 2 * matchups);
    assert_eq!(small.held_out.into_inner(), HELD_OUT_MATCHES);
    assert_eq!(first.games, 2 * 10 * matchups as u64);

    let again = Count::default();
    assert_eq!(calibrate(&setup(), &ladder(10), &config, &again).unwrap(), first);
    assert_eq!(again.played.into_inner() + again.held_out.into_inner(), 0, "a rerun replays nothing");

    let grown = Count::default();
    let bigger = calibrate(&setup(), &ladder(20), &config, &grown).unwrap();
    // The matchups' two new cells each; a held-out match is played again
    // only where the grown ladder's dial serves other settings.
    assert_eq!(grown.played.into_inner(), 2 * matchups);
    assert!(grown.held_out.into_inner() <= HELD_OUT_MATCHES);
    assert_eq!(bigger.games, 2 * 20 * matchups as u64);
    let dial = Dial::new(bigger.clone()).unwrap();
    assert_eq!(dial.range().0, 0.0);
    assert!(bigger.rungs.iter().find(|r| r.spec == "alphabeta:depth=9").unwrap().rating > 300.0);
    assert_eq!(bigger.held_out.len(), HELD_OUT_MATCHES);
    std::fs::remove_dir_all(&dir).ok();
}

/// With the predicted-score design every held-out match is set where the
/// weaker side's predicted score is its target (from `first` to `last`),
/// or at the dial's top where even the top is predicted to score less
/// against it.
#[test]
fn the_predicted_score_design_sets_each_held_out_match_at_its_target() {
    let dir = fresh("design");
    let (first, last) = (0.2, 0.4);
    let design = HeldOutDesign::PredictedScore { first, last };
    let c = calibrate(&setup(), &ladder(20).with_held_out_design(design), &CalibrateConfig::new(5, &dir), &()).unwrap();
    let dial = Dial::new(c.clone()).unwrap();
    let (lo, hi) = dial.range();
    let top = hi - 0.02 * (hi - lo);
    assert_eq!(c.held_out.len(), HELD_OUT_MATCHES);
    let mut on_target = 0;
    for (k, h) in c.held_out.iter().enumerate() {
        let target = first + (last - first) * k as f64 / (HELD_OUT_MATCHES - 1) as f64;
        assert!(h.a_elo < h.b_elo, "{h:?}");
        if (h.b_elo - top).abs() > 1.0 {
            assert!((h.predicted - target).abs() < 0.02, "match {k}: predicted {} for {target}", h.predicted);
            on_target += 1;
        } else {
            assert!(h.predicted >= target - 0.02, "match {k}: the top is predicted {} for {target}", h.predicted);
        }
    }
    assert!(on_target >= HELD_OUT_MATCHES / 2, "{on_target} matches on their targets");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_same_seed_gives_the_same_calibration_on_any_number_of_threads() {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (a, b) = (fresh("threads-1"), fresh("threads-n"));
    let single = one.install(|| calibrate(&setup(), &ladder(10), &CalibrateConfig::new(3, &a), &()).unwrap());
    let many = calibrate(&setup(), &ladder(10), &CalibrateConfig::new(3, &b), &()).unwrap();
    assert_eq!(single, many);
    let other = calibrate(&setup(), &ladder(10), &CalibrateConfig::new(4, fresh("threads-seed")), &()).unwrap();
    assert_ne!(single.rungs, other.rungs, "another seed plays other games");
    for d in [a, b, fresh("threads-seed")] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn shards_fit_once_every_cell_is_there() {
    let dir = fresh("shards");
    let shard = |i| CalibrateConfig { shard: Some(Shard::new(i, 2).unwrap()), ..CalibrateConfig::new(5, &dir) };
    match calibrate(&setup(), &ladder(10), &shard(0), &()) {
        Err(CalibrateError::Incomplete { missing, .. }) => assert!(missing > 0),
        other => panic!("expected missing cells, got {other:?}"),
    }
    let after_one = cells_on_disk(&dir);
    assert!(after_one > 0);
    // The second shard completes the ladder's matchups; the held-out check
    // runs on whichever shard finds them complete.
    let second = calibrate(&setup(), &ladder(10), &shard(1), &());
    assert!(matches!(second, Err(CalibrateError::Incomplete { .. })), "{second:?}");
    let whole = calibrate(&setup(), &ladder(10), &CalibrateConfig::new(5, &dir), &()).unwrap();
    let direct = calibrate(&setup(), &ladder(10), &CalibrateConfig::new(5, fresh("shards-direct")), &()).unwrap();
    assert_eq!(whole, direct);
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(fresh("shards-direct")).ok();
}

#[test]
fn a_ladder_that_cannot_be_played_is_a_typed_error() {
    let dir = fresh("bad");
    let config = CalibrateConfig::new(1, &dir);
    let no_pairs = calibrate(&setup(), &ladder(0), &config, &());
    assert!(matches!(no_pairs, Err(CalibrateError::NoPairs(_))), "{no_pairs:?}");
    let no_held_out = calibrate(&setup(), &ladder(10).with_held_out_pairs(0), &config, &());
    assert!(matches!(no_held_out, Err(CalibrateError::NoPairs(_))), "{no_held_out:?}");
    let mut empty = ladder(10);
    empty.curves.clear();
    assert!(matches!(calibrate(&setup(), &empty, &config, &()), Err(CalibrateError::NoCurves)));
    let dial = Dial::new(Calibration::from_json(games_small::calibrations::CONNECT4).unwrap()).unwrap();
    for (first, last) in [(0.6, 0.3), (0.1, 0.5), (0.0, 0.3), (f64::NAN, 0.3)] {
        let design = HeldOutDesign::PredictedScore { first, last };
        let bad = calibrate(&setup(), &ladder(10).with_held_out_design(design), &config, &());
        assert!(matches!(bad, Err(CalibrateError::HeldOutDesign { .. })), "{bad:?}");
        let values = held_out_values(&dial, design, 0, 400);
        assert!(matches!(values, Err(CalibrateError::HeldOutDesign { .. })), "{values:?}");
    }
    let unknown = Ladder::boltzmann(&[2], &[0.1], "cap=1").with_pairs(2);
    let mut unknown = unknown;
    unknown.curves[0].top = Some("minimaxx:depth=2".into());
    let err = calibrate(&setup(), &unknown, &config, &()).unwrap_err();
    assert!(matches!(err, CalibrateError::Setup(_)) && err.to_string().contains("minimaxx"), "{err}");
    // A directory of another seed's run is refused, not mixed.
    let ok = fresh("bad-seed");
    calibrate(&setup(), &ladder(5), &CalibrateConfig::new(1, &ok), &()).unwrap();
    let other = calibrate(&setup(), &ladder(5), &CalibrateConfig::new(2, &ok), &());
    assert!(matches!(other, Err(CalibrateError::Store(_))), "{other:?}");
    std::fs::remove_dir_all(&ok).ok();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_self_play_curve_is_refitted_with_a_scale_of_its_own() {
    let dir = fresh("self-play");
    let config = CalibrateConfig::new(5, &dir);
    let plain = Ladder::boltzmann(&[1, 9], &[0.5, 2.0, 8.0], "cap=1").with_pairs(10).with_held_out_pairs(2);
    let played = calibrate(&setup(), &plain, &config, &()).unwrap();
    assert_eq!(played.self_play, None);
    // The saved games refitted as they were: the same ratings.
    assert_eq!(fit_saved(&setup(), &plain, &config).unwrap().rungs, played.rungs);
    // The same games with the depth-9 curve marked: its games among
    // themselves get a scale, fitted inside its interval, and said.
    let mut marked = plain.clone();
    marked.curves[1] = marked.curves[1].clone().self_play();
    let refit = fit_saved(&setup(), &marked, &config).unwrap();
    let k = refit.self_play.clone().expect("a self-play scale");
    assert_eq!(k.curves, vec![marked.curves[1].base.clone()]);
    assert!(k.scale > 0.0 && k.interval.0 <= k.scale && k.scale <= k.interval.1, "{k:?}");
    assert!(refit.notes.iter().any(|n| n.contains("self-play scale")));
    assert_eq!(refit.games, played.games);
    Dial::new(refit).unwrap();
}
