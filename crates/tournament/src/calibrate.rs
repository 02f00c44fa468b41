//! Calibrating a game's strength dial: every matchup of a [`Ladder`] played
//! on the cell store, the ratings fitted, mapped onto the reference
//! players' scale where the ladder has some, and checked on held-out
//! matches between dial values the ladder never played.
//!
//! Settings are depths, θ and caps, not wall time, so a calibration holds
//! on any machine. Every matchup plays the same openings with the same
//! per-cell seeds (common random numbers: matchups differ only by their
//! players, which lowers the variance of rating differences). Cells are
//! saved as they finish: an interrupted calibration resumes, a calibration
//! grown to more pairs plays only the new games (a smaller run's openings
//! and cells are a prefix of a larger one's), and the result is the same
//! on any number of threads.

use std::path::PathBuf;
use std::sync::Arc;

use search_core::rng::derive_seed;
use strength::dial::{Calibration, Dial, DialError, HeldOut, Rung, SelfPlay};
use strength::pairing::PairOutcome;
use strength::scale_map::ScaleMap;

use crate::TournamentError;
use crate::ladder::{HeldOutDesign, Ladder};
use crate::ladder_fit::{LadderFit, LadderFitError, RatedRung, fit_ladder};
use crate::matches::{AnySetup, MatchJob, Openings};
use crate::runner::{Job, RunConfig, RunError, RunObserver, Shard, fnv, run_cells};
use crate::store::{RunKey, Scale, StoreError, open_out};

/// The version of how a ladder's matchups are played and fitted, recorded
/// in every calibration (a change makes earlier calibrations stale).
pub const LADDER_VERSION: u32 = 1;

/// Held-out matches per calibration.
pub const HELD_OUT_MATCHES: usize = 10;

/// The anchor of a ladder fitted on its own: random play at Elo 0.
pub const RANDOM_ANCHOR: &str = "random = 0";

/// Where and how a calibration runs.
#[derive(Debug, Clone)]
pub struct CalibrateConfig {
    /// The master seed: openings and every cell's seed derive from it.
    pub seed: u64,
    /// The scale recorded with the cells and the calibration (a quick run's
    /// cells are never mixed with a default run's).
    pub scale: Scale,
    /// The cell store's directory.
    pub out: PathBuf,
    /// Only this share of the cells (the others left to other processes);
    /// the calibration is fitted once every cell is there.
    pub shard: Option<Shard>,
}

impl CalibrateConfig {
    /// A calibration at the default scale with `seed`, its cells in `out`.
    pub fn new(seed: u64, out: impl Into<PathBuf>) -> Self {
        CalibrateConfig { seed, scale: Scale::Default, out: out.into(), shard: None }
    }

    fn run(&self) -> RunConfig {
        RunConfig { key: RunKey { seed: self.seed, scale: self.scale }, out: self.out.clone(), shard: self.shard }
    }
}

/// Why a calibration did not come out.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CalibrateError {
    /// A ladder whose matchups or held-out matches play no games.
    #[error("the ladder plays no games per {0}: set at least one pair")]
    NoPairs(&'static str),
    /// A ladder without curves.
    #[error("the ladder has no curve")]
    NoCurves,
    /// A held-out design whose predicted scores are not in (0, 0.5).
    #[error("the held-out design's predicted scores must lie strictly between 0 and 0.5, not {first} and {last}")]
    HeldOutDesign {
        /// The first match's score.
        first: f64,
        /// The last match's score.
        last: f64,
    },
    /// A rung the setup's roster refuses, or no openings.
    #[error(transparent)]
    Setup(#[from] TournamentError),
    /// The cell store could not be opened (another run's directory, in use).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Cells that could not be played or saved.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The ratings could not be fitted.
    #[error(transparent)]
    Fit(#[from] LadderFitError),
    /// The fitted ratings do not make a dial.
    #[error(transparent)]
    Dial(#[from] DialError),
    /// Cells missing after this run: the other shards' share.
    #[error(
        "{missing} cells are missing from {} (other shards' share?): run the other shards into it, then once more without a shard, to fit",
        out.display()
    )]
    Incomplete {
        /// Cells not there.
        missing: usize,
        /// The cell store.
        out: PathBuf,
    },
}

/// The matches of a ladder: its schedule's rungs, the openings every
/// matchup shares, and one [`MatchJob`] per matchup.
#[derive(Debug)]
pub struct LadderMatches {
    /// Every rung's spec (random play first).
    pub rungs: Vec<String>,
    /// The matchups, as indices into `rungs`, in the order of `jobs`.
    pub matchups: Vec<(usize, usize)>,
    /// The openings every matchup plays.
    pub openings: Openings,
    /// One match per matchup.
    pub jobs: Vec<MatchJob>,
}

impl LadderMatches {
    /// The matches of `ladder` on `setup` with master seed `seed`: checks
    /// every rung against the setup's roster and draws the shared openings.
    pub fn new(setup: &Arc<dyn AnySetup>, ladder: &Ladder, seed: u64) -> Result<Self, CalibrateError> {
        if ladder.curves.is_empty() {
            return Err(CalibrateError::NoCurves);
        }
        if ladder.pairs == 0 {
            return Err(CalibrateError::NoPairs("matchup"));
        }
        let schedule = ladder.schedule();
        for r in &schedule.rungs {
            setup.check_spec(r)?;
        }
        let opening_seed = derive_seed(seed, fnv("calibrate openings"));
        let openings = Openings {
            list: setup.random_openings(ladder.pairs, opening_seed)?,
            source: format!("random, seed {opening_seed}"),
        };
        let jobs = schedule
            .matchups
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (&schedule.rungs[a], &schedule.rungs[b]);
                // One directory per matchup, named by its two settings, so
                // that a ladder that gains or loses rungs keeps the games of
                // the matchups it still has.
                let name = format!("{}-{:016x}", setup.name(), fnv(&format!("{a} vs {b}")));
                MatchJob::new(setup.clone(), name, a, b, openings.clone(), ladder.pairs)
            })
            .collect();
        Ok(LadderMatches { rungs: schedule.rungs, matchups: schedule.matchups, openings, jobs })
    }

    /// The jobs' names (the store's directories).
    pub fn names(&self) -> Vec<String> {
        self.jobs.iter().map(|j| j.name().to_string()).collect()
    }

    /// Each matchup's pairs saved in `out` for run `key`: `(a, b, pairs)`,
    /// and how many cells are missing.
    pub fn results(&self, out: &std::path::Path, key: RunKey) -> (Vec<(usize, usize, Vec<PairOutcome>)>, usize) {
        let mut missing = 0;
        let mut results = Vec::new();
        for (job, &(a, b)) in self.jobs.iter().zip(&self.matchups) {
            let cells = job.load(out, key);
            missing += cells.iter().filter(|c| c.is_none()).count();
            results.push((a, b, cells.into_iter().flatten().flatten().collect()));
        }
        (results, missing)
    }
}

/// Calibrates the dial of `setup`'s game on `ladder`: plays every matchup
/// (the cells `config.out` does not already hold), fits the ratings, maps
/// them onto the ladder's reference scale if it has references, and plays
/// the [held-out check](held_out). Progress goes to `observer`.
///
/// The calibration's loss profiles are left empty: they need a judge of
/// the game's ground truth, which only the caller has
/// ([`loss_profiles`](crate::losses::loss_profiles) makes them).
///
/// ```
/// use std::sync::Arc;
///
/// use games_small::{TicTacToe, TicTacToeEval};
/// use strength::dial::Dial;
/// use tournament::calibrate::{CalibrateConfig, calibrate};
/// use tournament::ladder::Ladder;
/// use tournament::{Setup, matches::AnySetup};
///
/// let setup: Arc<dyn AnySetup> = Arc::new(
///     Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
///         .with_opening_plies(1)
///         .with_max_plies(9)
///         .with_pairs_per_cell(10),
/// );
/// let ladder = Ladder::boltzmann(&[9], &[0.5, 2.0, 8.0], "cap=1").with_pairs(10).with_held_out_pairs(5);
/// let dir = std::env::temp_dir().join(format!("tournament-doc-calibrate-{}", std::process::id()));
/// let calibration = calibrate(&setup, &ladder, &CalibrateConfig::new(7, &dir), &())?;
/// assert_eq!(calibration.rungs.len(), 5);
/// assert_eq!(calibration.held_out.len(), 10);
/// let dial = Dial::new(calibration)?;
/// assert!(dial.range().1 > 0.0);
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn calibrate(
    setup: &Arc<dyn AnySetup>,
    ladder: &Ladder,
    config: &CalibrateConfig,
    observer: &dyn RunObserver,
) -> Result<Calibration, CalibrateError> {
    if ladder.held_out_pairs == 0 {
        return Err(CalibrateError::NoPairs("held-out match"));
    }
    check_design(ladder.held_out_design)?;
    let matches = LadderMatches::new(setup, ladder, config.seed)?;
    let run = config.run();
    let share = config.shard.map_or("all".to_string(), |s| s.to_string());
    let lock = open_out(&run.out, run.key, &matches.names(), &[share])?;
    if let Some(warning) = lock.warning() {
        observer.note(warning);
    }
    let jobs: Vec<&dyn Job> = matches.jobs.iter().map(|j| j as &dyn Job).collect();
    run_cells(&jobs, &run, observer)?;
    let mut calibration = fit_matches(setup.name(), ladder, &matches, config)?;
    observer.note(&format!("{}: held-out check, {HELD_OUT_MATCHES} matches", setup.name()));
    calibration.held_out = held_out(setup, &calibration, &run, ladder, &matches.openings.list, observer)?;
    Ok(calibration)
}

/// Fits the calibration of `ladder` from the games saved in `config.out`,
/// playing none: the ratings, the self-play scale of its
/// [self-play curves](crate::ladder::Curve::self_play), and the map onto
/// its reference players' scale. The held-out check and the loss profiles
/// are left empty. For trying another fit, or reading a ladder before its
/// held-out matches are played.
///
/// ```
/// use std::sync::Arc;
///
/// use games_small::{TicTacToe, TicTacToeEval};
/// use tournament::calibrate::{CalibrateConfig, CalibrateError, calibrate, fit_saved};
/// use tournament::ladder::Ladder;
/// use tournament::{Setup, matches::AnySetup};
///
/// let setup: Arc<dyn AnySetup> = Arc::new(
///     Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
///         .with_opening_plies(1)
///         .with_max_plies(9)
///         .with_pairs_per_cell(10),
/// );
/// let ladder = Ladder::boltzmann(&[9], &[0.5, 2.0, 8.0], "cap=1").with_pairs(10).with_held_out_pairs(5);
/// let dir = std::env::temp_dir().join(format!("tournament-doc-fit-saved-{}", std::process::id()));
/// let config = CalibrateConfig::new(7, &dir);
/// // Nothing saved yet: every cell is missing.
/// assert!(matches!(fit_saved(&setup, &ladder, &config), Err(CalibrateError::Incomplete { .. })));
/// let played = calibrate(&setup, &ladder, &config, &())?;
/// let refitted = fit_saved(&setup, &ladder, &config)?;
/// assert_eq!(refitted.rungs, played.rungs);
/// assert!(refitted.held_out.is_empty());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fit_saved(
    setup: &Arc<dyn AnySetup>,
    ladder: &Ladder,
    config: &CalibrateConfig,
) -> Result<Calibration, CalibrateError> {
    let matches = LadderMatches::new(setup, ladder, config.seed)?;
    fit_matches(setup.name(), ladder, &matches, config)
}

/// The calibration of `matches`' saved games (see [`fit_saved`]).
fn fit_matches(
    game: &str,
    ladder: &Ladder,
    matches: &LadderMatches,
    config: &CalibrateConfig,
) -> Result<Calibration, CalibrateError> {
    let (results, missing) = matches.results(&config.out, config.run().key);
    if missing > 0 {
        return Err(CalibrateError::Incomplete { missing, out: config.out.clone() });
    }
    let LadderFit { mut rated, nu, mut misfit, residuals, virtual_draws, self_play } =
        fit_ladder(&matches.rungs, &results, ladder.self_play_groups(&matches.rungs))?;
    let mapping = map_onto_references(ladder, &mut rated);
    let mut calibration = calibration_of(game, ladder, &rated, &results, config);
    if let Some(k) = self_play {
        calibration.notes.push(format!(
            "Games between two settings of {} were fitted with a self-play scale: their rating difference counts \
             {:.2} times (95% interval {:.2} .. {:.2}), so that the ratings are those the games against every other \
             player show.",
            ladder.self_play_curves().join(", "),
            k.scale,
            k.interval.0,
            k.interval.1
        ));
        calibration.self_play =
            Some(SelfPlay { curves: ladder.self_play_curves(), scale: k.scale, interval: k.interval });
    }
    if let Some(v) = virtual_draws {
        calibration.notes.push(format!(
            "A rung won or lost every game it played, so its rating was unbounded: the fit added {v} virtual \
             draws to every matchup (too few games for a calibration)."
        ));
    }
    if let Some((note, map)) = mapping {
        // The model error is a spread of rating differences: it stretches
        // with the scale (its slope beyond the knots, which
        // `Dial::predict` divides by again).
        let stretch = map.slope();
        if let Some(m) = misfit.as_mut() {
            m.model_error *= stretch;
        }
        calibration.scale_stretch = Some(stretch);
        calibration.scale_knots = map.knots().to_vec();
        calibration.anchor = ladder.reference_scale.clone().unwrap_or_else(|| "reference players".into());
        calibration.notes.push(note);
    }
    calibration.draw_nu = Some(nu);
    calibration.misfit = misfit;
    calibration.residuals = residuals;
    Ok(calibration)
}

/// A design whose predicted scores lie strictly between 0 and 0.5 (the
/// weaker side's), or [`CalibrateError::HeldOutDesign`]; checked by
/// [`calibrate`] before any game and by [`held_out_values`].
fn check_design(design: HeldOutDesign) -> Result<(), CalibrateError> {
    match design {
        HeldOutDesign::PredictedScore { first, last } if ![first, last].iter().all(|s| *s > 0.0 && *s < 0.5) => {
            Err(CalibrateError::HeldOutDesign { first, last })
        }
        _ => Ok(()),
    }
}

/// `elo`, or, where it falls in a [gap](Dial::gaps) between two curves, the
/// first whole rating plus a half above the gap.
fn served(dial: &Dial, elo: f64) -> f64 {
    dial.gaps().into_iter().find(|g| g.0 < elo && elo < g.1).map_or(elo, |g| g.1.ceil() + 0.5)
}

/// The dial values of the `k`-th held-out match of [`HELD_OUT_MATCHES`]
/// on `dial` by `design` (see [`HeldOutDesign`]), with `games` games:
/// values on the half (so that they do not land on the rungs' ratings),
/// moved above a gap between curves where one falls inside (see
/// [`Dial::gaps`]).
///
/// ```
/// use strength::dial::{Calibration, Dial};
/// use tournament::calibrate::{HELD_OUT_MATCHES, held_out_values};
/// use tournament::ladder::HeldOutDesign;
///
/// let dial = Dial::new(Calibration::from_json(games_small::calibrations::CONNECT4)?)?;
/// let design = HeldOutDesign::PredictedScore { first: 0.1, last: 0.35 };
/// for k in 0..HELD_OUT_MATCHES {
///     let (a, b) = held_out_values(&dial, design, k, 400)?;
///     let target = 0.1 + 0.25 * k as f64 / 9.0;
///     assert!(a < b && (dial.predict(a, b, 400)?.score - target).abs() < 0.01);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn held_out_values(dial: &Dial, design: HeldOutDesign, k: usize, games: u64) -> Result<(f64, f64), CalibrateError> {
    check_design(design)?;
    let (lo, hi) = dial.range();
    let span = hi - lo;
    let top = hi - span * 0.02;
    let a = served(dial, (lo + span * (0.03 + 0.07 * k as f64)).round() + 0.5);
    let b = match design {
        HeldOutDesign::RangeFraction => (a + span * (0.12 + 0.03 * k as f64)).min(top),
        HeldOutDesign::PredictedScore { first, last } => {
            let target = first + (last - first) * k as f64 / (HELD_OUT_MATCHES - 1) as f64;
            if dial.predict(a, top, games)?.score >= target {
                top
            } else {
                // A's predicted score falls as B rises: bisect for the target.
                let (mut below, mut above) = (a, top);
                for _ in 0..60 {
                    let mid = 0.5 * (below + above);
                    if dial.predict(a, mid, games)?.score > target {
                        below = mid;
                    } else {
                        above = mid;
                    }
                }
                0.5 * (below + above)
            }
        }
    };
    Ok((a, served(dial, b.round() + 0.5)))
}

/// The held-out check of `calibration`: [`HELD_OUT_MATCHES`] matches of
/// `ladder`'s held-out pairs between dial values chosen by its
/// [design](HeldOutDesign) ([`held_out_values`]), at settings the
/// calibration never played, each compared with the score the ratings
/// predict (the interval: the two values' rating uncertainty, the ladder's
/// model error and the games' sampling noise, see [`Dial::predict`]).
/// Played on `run`'s cell store from `openings`.
pub fn held_out(
    setup: &Arc<dyn AnySetup>,
    calibration: &Calibration,
    run: &RunConfig,
    ladder: &Ladder,
    openings: &[String],
    observer: &dyn RunObserver,
) -> Result<Vec<HeldOut>, CalibrateError> {
    let dial = Dial::new(calibration.clone())?;
    let pairs = ladder.held_out_pairs;
    let mut checks = Vec::new();
    let mut jobs = Vec::new();
    for k in 0..HELD_OUT_MATCHES {
        let (a, b) = held_out_values(&dial, ladder.held_out_design, k, 2 * pairs as u64)?;
        let a_spec = dial.setting(a)?.to_string();
        let b_spec = dial.setting(b)?.to_string();
        jobs.push(MatchJob::new(
            setup.clone(),
            format!("{}-heldout{k:02}", setup.name()),
            &a_spec,
            &b_spec,
            Openings { list: openings.to_vec(), source: "calibration openings".into() },
            pairs,
        ));
        checks.push((a, b, a_spec, b_spec));
    }
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    run_cells(&selected, run, observer)?;
    let mut out = Vec::new();
    for (job, (a, b, a_spec, b_spec)) in jobs.iter().zip(checks) {
        let cells = job.load(&run.out, run.key);
        let missing = cells.iter().filter(|c| c.is_none()).count();
        if missing > 0 {
            return Err(CalibrateError::Incomplete { missing, out: run.out.clone() });
        }
        let results: Vec<PairOutcome> = cells.into_iter().flatten().flatten().collect();
        let games = 2 * results.len() as u64;
        let observed = results.iter().map(PairOutcome::score).sum::<f64>() / games as f64;
        let predicted = dial.predict(a, b, games)?;
        out.push(HeldOut {
            a_elo: a,
            b_elo: b,
            a_spec,
            b_spec,
            games,
            predicted: predicted.score,
            low: predicted.low,
            high: predicted.high,
            without_model_error: Some(predicted.without_model_error),
            observed,
        });
    }
    Ok(out)
}

/// Maps the fitted ratings onto the reference players' published scale,
/// applied to every rung: through each reference at its published rating
/// (linear between them, see [`ScaleMap`]), and beyond the outer ones
/// along the slope `b` of the least-squares line `published = a + b ·
/// fitted` through them (an offset alone, `b` = 1, with fewer than three).
/// Returns a note saying what was done and the map, or `None` without
/// references.
fn map_onto_references(ladder: &Ladder, rated: &mut [RatedRung]) -> Option<(String, ScaleMap)> {
    let pts: Vec<(f64, f64)> = ladder
        .references
        .iter()
        .filter_map(|r| rated.iter().find(|x| x.spec == r.spec).map(|x| (x.rating, r.elo)))
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    let (mx, my) = (pts.iter().map(|p| p.0).sum::<f64>() / n, pts.iter().map(|p| p.1).sum::<f64>() / n);
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let b = if pts.len() >= 3 && sxx > 0.0 && sxy > 0.0 { sxy / sxx } else { 1.0 };
    let a = my - b * mx;
    // One reference: the line (an offset) is the map.
    let knots = if pts.len() >= 2 { ScaleMap::monotone_knots(&pts) } else { vec![(mx, my)] };
    let map = ScaleMap::through(knots, b).expect("pooled knots increase, and the slope is positive");
    for r in rated.iter_mut() {
        r.rating = map.to_published(r.rating);
        r.low = map.to_published(r.low);
        r.high = map.to_published(r.high);
    }
    let residuals: Vec<String> = pts.iter().map(|&(x, y)| format!("{y:.0}: {:+.0}", a + b * x - y)).collect();
    let scale = ladder.reference_scale.as_deref().unwrap_or("the reference players' scale");
    let note = format!(
        "Anchored to {scale}: the fitted scale (random = 0) mapped through each reference level (its fitted rating \
         onto its published one, linearly between levels), and beyond the outer levels along the least-squares \
         line through them, Elo = {a:.1} + {b:.3} × fitted; that line's residuals at each level (line − nominal): {}.",
        residuals.join(", ")
    );
    Some((note, map))
}

/// The calibration of the fitted `rated` rungs, without its fit statistics
/// and held-out check.
fn calibration_of(
    game: &str,
    ladder: &Ladder,
    rated: &[RatedRung],
    results: &[(usize, usize, Vec<PairOutcome>)],
    config: &CalibrateConfig,
) -> Calibration {
    let rungs = rated
        .iter()
        .map(|r| {
            let (curve, theta) = ladder.place_of(&r.spec);
            Rung {
                spec: r.spec.clone(),
                curve,
                theta: if r.spec == "random" { None } else { theta },
                rating: r.rating,
                low: r.low,
                high: r.high,
                games: r.games,
            }
        })
        .collect();
    Calibration {
        game: game.to_string(),
        anchor: RANDOM_ANCHOR.into(),
        rungs,
        partial_curves: ladder.curves.iter().filter(|c| !c.from_random).map(|c| c.base.clone()).collect(),
        curve_knobs: ladder.knobs().into_iter().collect(),
        games: results.iter().map(|r| r.2.len() as u64 * 2).sum(),
        seed: config.seed,
        scale: match config.scale {
            Scale::Quick => "quick".into(),
            _ => "default".into(),
        },
        code_version: format!("calibrate ladder v{LADDER_VERSION}, strength {}", env!("CARGO_PKG_VERSION")),
        draw_nu: None,
        scale_stretch: None,
        scale_knots: Vec::new(),
        self_play: None,
        misfit: None,
        residuals: Vec::new(),
        held_out: Vec::new(),
        losses: Vec::new(),
        notes: vec![
            "Ratings: maximum likelihood over every matchup's games, draws modelled; intervals 95%.".into(),
            "Each matchup: paired games from shared balanced random openings, colours swapped.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::Reference;

    fn rung(spec: &str, rating: f64) -> RatedRung {
        RatedRung { spec: spec.into(), rating, low: rating - 30.0, high: rating + 30.0, games: 100 }
    }

    #[test]
    fn the_map_passes_through_every_reference_level() {
        let mut ladder = Ladder::boltzmann(&[1], &[0.1], "");
        ladder.references = [("sf1350", 1350.0), ("sf1500", 1500.0), ("sf1700", 1700.0), ("sf2000", 2000.0)]
            .iter()
            .map(|&(spec, elo)| Reference { spec: spec.into(), elo, links: Vec::new() })
            .collect();
        // Fitted ratings (random = 0) whose steps differ from the levels'.
        let mut rated = vec![
            rung("random", 0.0),
            rung("sf1350", 2000.0),
            rung("x", 2100.0),
            rung("sf1500", 2200.0),
            rung("sf1700", 2800.0),
            rung("sf2000", 3300.0),
            rung("top", 3500.0),
        ];
        let (note, map) = map_onto_references(&ladder, &mut rated).unwrap();
        for (spec, elo) in [("sf1350", 1350.0), ("sf1500", 1500.0), ("sf1700", 1700.0), ("sf2000", 2000.0)] {
            let r = rated.iter().find(|r| r.spec == spec).unwrap();
            assert!((r.rating - elo).abs() < 1e-9, "{spec}: {}", r.rating);
        }
        // Between two levels, linearly; beyond them, the least-squares slope.
        assert!((rated[2].rating - 1425.0).abs() < 1e-9);
        let slope = map.slope();
        assert!((rated[6].rating - (2000.0 + 200.0 * slope)).abs() < 1e-9);
        assert!((rated[0].rating - (1350.0 - 2000.0 * slope)).abs() < 1e-9);
        // Intervals map through the same line.
        assert!((rated[2].high - rated[2].low - 60.0 * 0.75).abs() < 1e-9);
        assert!(note.contains("least-squares"), "{note}");
        assert_eq!(map.knots().len(), 4);
    }

    #[test]
    fn one_reference_shifts_the_scale() {
        let mut ladder = Ladder::boltzmann(&[1], &[0.1], "");
        ladder.references = vec![Reference { spec: "sf".into(), elo: 1500.0, links: Vec::new() }];
        let mut rated = vec![rung("random", 0.0), rung("sf", 1200.0), rung("x", 1300.0)];
        let (_, map) = map_onto_references(&ladder, &mut rated).unwrap();
        assert_eq!(map.slope(), 1.0);
        assert_eq!((rated[0].rating, rated[1].rating, rated[2].rating), (300.0, 1500.0, 1600.0));
        let mut none = vec![rung("random", 0.0)];
        assert!(map_onto_references(&Ladder::boltzmann(&[1], &[0.1], ""), &mut none).is_none());
    }
}
