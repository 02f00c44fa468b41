//! `cargo xtask human temper` (and the last step of `human train`): the
//! temperature of `human:X` fitted so that its strength matches its label.
//!
//! The fitted model gives a player of rating X a distribution over the
//! legal moves; drawn from as it is, every `human:X` plays far weaker than
//! a player of X and the gaps between ratings shrink (docs/human.md).
//! Drawing from `p ∝ exp(u/τ)` instead, a lower τ plays the model's
//! favourite moves more often and is stronger. This fits τ at a few anchor
//! ratings so that each anchor scores against its neighbour what Elo
//! predicts for their gap: the middle anchor keeps a given τ (1 by default,
//! the fitted distribution itself), and the fit works outwards, one anchor
//! at a time, against the neighbour already fitted.
//!
//! For each anchor the score's Elo is close to linear in `ln τ`: a trial
//! plays `--games` games at one τ, a line through the trials so far
//! (slope from a prior until two trials disagree) proposes the next, and
//! after `--trials` trials the line's solution is the anchor's τ. Every
//! game is seeded from `--seed`, the anchor and the trial, so the fit
//! replays exactly on any machine and any number of threads.
//!
//! A temperature can make a player no stronger than the model's most
//! likely move, which it nearly always plays below
//! [`SATURATED_TEMPERATURE`]. An anchor above the middle whose line asks
//! for less keeps that temperature, and its remaining strength comes from
//! the gap weight ([`TemperAnchor::gap_weight`]: logits taken off a move
//! per pawn it loses by the model's short search), fitted the same way in
//! `ln` of the weight, with as many trials again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use games_chess::human::{GAP_WEIGHT_RANGE, HumanAgents, HumanModel, MODEL_PATH, TEMPERATURE_RANGE, TemperAnchor};
use rayon::prelude::*;
use search_core::rng::derive_seed;
use serde_json::json;
use strength::agents::Roster;
use strength::elo::score_to_elo;
use strength::pairing::PairOutcome;
use tournament::matches::AnySetup;
use tournament::runner::fnv;

use crate::TaskResult;
use taskkit::threads::parse_threads;

/// The default anchors: 900 to 2100 in steps of 300.
pub const DEFAULT_ANCHORS: [u32; 5] = [900, 1200, 1500, 1800, 2100];

/// The slope assumed before the trials measure it: Elo per unit of `ln τ`
/// (negative: a lower temperature is stronger).
pub const PRIOR_SLOPE: f64 = -500.0;

/// The slope assumed for the gap weight before its trials measure it: Elo
/// per unit of `ln w` (positive: a larger weight is stronger).
pub const GAP_PRIOR_SLOPE: f64 = 100.0;

/// The first gap weight tried where the temperature saturates.
pub const FIRST_GAP_WEIGHT: f64 = 1.0;

/// The temperature below which the draw is nearly always the model's most
/// likely move and a lower one gains no strength (docs/human.md: `human:2100`
/// scored +207, +196 and +205 Elo at τ 0.198, 0.123 and 0.066).
pub const SATURATED_TEMPERATURE: f64 = 0.2;

/// The largest change of `ln τ` (or `ln w`) one trial may propose.
pub const MAX_STEP: f64 = 1.5;

/// Arguments of `cargo xtask human temper`.
#[derive(Debug, Clone, clap::Args)]
pub struct TemperArgs {
    /// The model to temper, rewritten with its temperature curve (default: the model `human train` writes,
    /// crates/games-chess/calibration/human-chess.json).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// The anchor ratings (repeat or separate by commas; default 900,1200,1500,1800,2100).
    #[arg(long = "anchor", value_delimiter = ',')]
    pub anchors: Vec<u32>,
    /// The temperature of the middle anchor, which the others are fitted against.
    #[arg(long, default_value_t = 1.0)]
    pub center_temperature: f64,
    /// Games per trial (rounded up to whole pairs).
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    /// Trials per anchor.
    #[arg(long, default_value_t = 5)]
    pub trials: usize,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl TemperArgs {
    /// The defaults of the command line (what `human train` runs).
    pub fn standard() -> TemperArgs {
        TemperArgs {
            model: None,
            anchors: Vec::new(),
            center_temperature: 1.0,
            games: 400,
            trials: 5,
            seed: 1,
            threads: None,
        }
    }

    /// The anchors, sorted: `--anchor`, else [`DEFAULT_ANCHORS`].
    pub fn anchors(&self) -> Vec<u32> {
        let mut a = if self.anchors.is_empty() { DEFAULT_ANCHORS.to_vec() } else { self.anchors.clone() };
        a.sort_unstable();
        a.dedup();
        a
    }
}

/// The Elo difference of score `s` over `games` games (a perfect score
/// counted as half a game short of it).
pub fn score_elo(s: f64, games: usize) -> f64 {
    let edge = 0.5 / games.max(1) as f64;
    score_to_elo(s.clamp(edge, 1.0 - edge))
}

/// One trial: the anchor's `ln τ` (or `ln w`) and the Elo its score gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trial {
    /// `ln` of the parameter tried: the temperature, or the gap weight.
    pub log_value: f64,
    /// The anchor's score against its neighbour.
    pub score: f64,
    /// That score as an Elo difference.
    pub elo: f64,
}

/// The `ln τ` at which the line through `trials` gives `target` Elo (the
/// slope fitted when the trials span at least 0.05 in `ln τ` and it is
/// negative, [`PRIOR_SLOPE`] otherwise), at most [`MAX_STEP`] from the mean
/// of the trials.
///
/// ```
/// use dial::human_temper::{Trial, next_log_temperature};
/// // Two trials on the line elo = −400·lnτ: 300 Elo is at lnτ = −0.75.
/// let t = [
///     Trial { log_value: 0.0, score: 0.5, elo: 0.0 },
///     Trial { log_value: -0.5, score: 0.76, elo: 200.0 },
/// ];
/// assert!((next_log_temperature(&t, 300.0) + 0.75).abs() < 1e-9);
/// ```
pub fn next_log_temperature(trials: &[Trial], target: f64) -> f64 {
    next_log_value(trials, target, PRIOR_SLOPE, TEMPERATURE_RANGE)
}

/// The `ln w` of the gap weight at which the line through `trials` gives
/// `target` Elo: as [`next_log_temperature`], with a positive slope
/// ([`GAP_PRIOR_SLOPE`] until the trials measure one) and within the gap
/// weights a model accepts (above 0: at least a thousandth).
pub fn next_log_gap_weight(trials: &[Trial], target: f64) -> f64 {
    next_log_value(trials, target, GAP_PRIOR_SLOPE, (1e-3, GAP_WEIGHT_RANGE.1))
}

/// The line search of [`next_log_temperature`]: a fitted slope is used
/// only if it has the sign of `prior_slope`.
fn next_log_value(trials: &[Trial], target: f64, prior_slope: f64, range: (f64, f64)) -> f64 {
    let n = trials.len().max(1) as f64;
    let mx = trials.iter().map(|t| t.log_value).sum::<f64>() / n;
    let my = trials.iter().map(|t| t.elo).sum::<f64>() / n;
    let sxx: f64 = trials.iter().map(|t| (t.log_value - mx).powi(2)).sum();
    let sxy: f64 = trials.iter().map(|t| (t.log_value - mx) * (t.elo - my)).sum();
    let spread = trials.iter().map(|t| t.log_value).fold(f64::NEG_INFINITY, f64::max)
        - trials.iter().map(|t| t.log_value).fold(f64::INFINITY, f64::min);
    let fitted = sxy / sxx;
    let slope = if spread >= 0.05 && fitted * prior_slope > 0.0 { fitted } else { prior_slope };
    let step = ((target - my) / slope).clamp(-MAX_STEP, MAX_STEP);
    (mx + step).clamp(range.0.ln(), range.1.ln())
}

/// The spec of `human:X` drawing at temperature `t` with gap weight `w`.
fn spec(rating: u32, t: f64, w: f64) -> String {
    if w == 0.0 { format!("human:{rating},temper={t:.5}") } else { format!("human:{rating},temper={t:.5},gap={w:.5}") }
}

/// Plays `pairs` pairs of `a` against `b` on `setup` (random openings), in
/// parallel; A's score.
fn score(setup: &Arc<dyn AnySetup>, a: &str, b: &str, pairs: usize, seed: u64) -> Result<f64, String> {
    let openings = setup.random_openings(pairs, derive_seed(seed, fnv("openings"))).map_err(|e| e.to_string())?;
    let work: Vec<(String, u64)> =
        openings.into_iter().enumerate().map(|(i, o)| (o, derive_seed(seed, i as u64))).collect();
    let outcomes: Vec<PairOutcome> = work
        .par_chunks(1)
        .map(|chunk| setup.play_pairs(a, b, chunk).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, String>>()?
        .into_iter()
        .flatten()
        .collect();
    Ok(outcomes.iter().map(PairOutcome::score).sum::<f64>() / (2 * outcomes.len()).max(1) as f64)
}

/// The chess setup whose `human:X` agents play `model`.
fn setup_of(model: Arc<HumanModel>) -> Result<Arc<dyn AnySetup>, String> {
    let setup = registry::chess_setup()
        .map_err(|e| e.to_string())?
        .with_roster(Arc::new(move || Roster::new().with(HumanAgents::with_model(model.clone()))));
    Ok(Arc::new(setup))
}

/// Fits the temperature of each anchor of `args` for `model` (see the
/// module): the anchors and the trials behind each.
pub fn fit_temper(
    model: &HumanModel,
    args: &TemperArgs,
    mut progress: impl FnMut(&str),
) -> Result<(Vec<TemperAnchor>, serde_json::Value), String> {
    let anchors = args.anchors();
    if anchors.is_empty() || args.trials == 0 || args.games == 0 {
        return Err("temper: at least one anchor, one trial and one game".into());
    }
    let mut bare = model.clone();
    bare.temper.clear();
    let setup = setup_of(Arc::new(bare))?;
    let pairs = args.games.div_ceil(2);
    let centre = anchors.len() / 2;
    let mut t = vec![f64::NAN; anchors.len()];
    t[centre] = args.center_temperature.ln();
    let mut w = vec![0.0; anchors.len()];
    let order: Vec<(usize, usize)> =
        (centre + 1..anchors.len()).map(|i| (i, i - 1)).chain((0..centre).rev().map(|i| (i, i + 1))).collect();
    let mut report = Vec::new();
    for (i, j) in order {
        let (x, y) = (anchors[i], anchors[j]);
        let target = f64::from(x) - f64::from(y);
        let opponent = spec(y, t[j].exp(), w[j]);
        let mut trial = |tag: &str, k: usize, candidate: &str| -> Result<(f64, f64), String> {
            let seed = derive_seed(args.seed, fnv(&format!("{tag} {x} {y} {k}")));
            let s = score(&setup, candidate, &opponent, pairs, seed)?;
            let elo = score_elo(s, 2 * pairs);
            progress(&format!("{candidate} vs {opponent}: {:.1}% ({elo:+.0} Elo, target {target:+.0})", 100.0 * s));
            Ok((s, elo))
        };
        let mut trials: Vec<Trial> = Vec::new();
        let mut lt = t[j];
        for k in 0..args.trials {
            let (score, elo) = trial("temper", k, &spec(x, lt.exp(), 0.0))?;
            trials.push(Trial { log_value: lt, score, elo });
            lt = next_log_temperature(&trials, target);
        }
        let mut gap_trials: Vec<Trial> = Vec::new();
        if i > centre && lt < SATURATED_TEMPERATURE.ln() {
            lt = SATURATED_TEMPERATURE.ln();
            let mut lw = FIRST_GAP_WEIGHT.ln();
            for k in 0..args.trials {
                let (score, elo) = trial("gap", k, &spec(x, lt.exp(), lw.exp()))?;
                gap_trials.push(Trial { log_value: lw, score, elo });
                lw = next_log_gap_weight(&gap_trials, target);
            }
            w[i] = lw.exp();
        }
        t[i] = lt;
        let listed = |trials: &[Trial], name: &str| -> Vec<serde_json::Value> {
            trials.iter().map(|r| json!({name: r.log_value.exp(), "score": r.score, "elo": r.elo})).collect()
        };
        report.push(json!({"rating": x, "against": y, "target_elo": target, "temperature": lt.exp(),
            "gap_weight": w[i], "trials": listed(&trials, "temperature"),
            "gap_trials": listed(&gap_trials, "gap_weight")}));
    }
    let fitted = anchors
        .iter()
        .zip(t.iter().zip(&w))
        .map(|(&rating, (lt, &gap_weight))| TemperAnchor {
            rating: f64::from(rating),
            temperature: lt.exp(),
            gap_weight,
        })
        .collect();
    Ok((fitted, json!({"games_per_trial": 2 * pairs, "seed": args.seed, "anchors": report})))
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `cargo xtask human temper`: fits the curve and writes it into the
/// model file.
pub fn temper(args: TemperArgs) -> TaskResult {
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global()?;
    }
    let path = args.model.clone().unwrap_or_else(|| workspace_root().join(MODEL_PATH));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut model = HumanModel::from_json(&text)?;
    let (anchors, report) = fit_temper(&model, &args, |line| eprintln!("temper: {line}"))?;
    model.temper = anchors;
    taskkit::write_atomic(&path, &model.to_json())?;
    let out = taskkit::target_dir(&workspace_root()).join("human-cache/temper-report.json");
    taskkit::write_atomic(&out, &serde_json::to_string_pretty(&report)?)?;
    for a in &model.temper {
        println!("human:{:.0}: temperature {:.3}, gap weight {:.3}", a.rating, a.temperature, a.gap_weight);
    }
    eprintln!("wrote {} (the engine embeds it: rebuild to play it); report {}", path.display(), out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_fit_replays_exactly_and_keeps_the_middle_anchor() {
        let model = HumanModel::embedded().unwrap();
        let args = TemperArgs {
            anchors: vec![1700, 1300, 1500],
            games: 4,
            trials: 2,
            seed: 5,
            center_temperature: 0.8,
            ..TemperArgs::standard()
        };
        let mut lines = 0;
        let (a, report) = fit_temper(&model, &args, |_| lines += 1).unwrap();
        let with_gap = a.iter().filter(|t| t.gap_weight > 0.0).count();
        assert_eq!(lines, 4 + 2 * with_gap, "two trials for each of the two outer anchors, two more for a gap weight");
        assert!(a[0].gap_weight == 0.0 && a[1].gap_weight == 0.0, "only a stronger anchor gets a gap weight");
        assert!(a[2].gap_weight == 0.0 || a[2].temperature == SATURATED_TEMPERATURE);
        let ratings: Vec<f64> = a.iter().map(|t| t.rating).collect();
        assert_eq!(ratings, [1300.0, 1500.0, 1700.0]);
        assert_eq!(a[1].temperature, 0.8);
        assert!(a.iter().all(|t| (TEMPERATURE_RANGE.0..=TEMPERATURE_RANGE.1).contains(&t.temperature)));
        assert_eq!(report["anchors"].as_array().unwrap().len(), 2);
        let (again, _) = fit_temper(&model, &args, |_| {}).unwrap();
        assert_eq!(a, again);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for d in [-600.0, -150.0, 0.0, 300.0] {
            assert!((score_elo(strength::elo::elo_to_score(d), 1_000_000) - d).abs() < 1e-6);
        }
        // A perfect score is finite.
        assert!(score_elo(1.0, 400).is_finite());
    }

    #[test]
    fn the_next_trial_follows_the_prior_slope_until_the_trials_measure_one() {
        let one = [Trial { log_value: 0.0, score: 0.5, elo: 0.0 }];
        assert!((next_log_temperature(&one, 250.0) - 250.0 / PRIOR_SLOPE).abs() < 1e-12);
        // A rising line (noise) is not trusted: the prior slope again.
        let rising = [one[0], Trial { log_value: -0.5, score: 0.45, elo: -35.0 }];
        let t = next_log_temperature(&rising, 100.0);
        assert!((t - (-0.25 + (100.0 + 17.5) / PRIOR_SLOPE)).abs() < 1e-12, "{t}");
        // Steps are bounded, and so is the temperature.
        assert!(next_log_temperature(&one, 5000.0) >= -MAX_STEP);
        assert!(next_log_temperature(&one, -50_000.0) <= TEMPERATURE_RANGE.1.ln());
        // The gap weight's line rises: more Elo asks for a larger weight,
        // and a falling line (noise) is not trusted.
        assert!((next_log_gap_weight(&one, 50.0) - 50.0 / GAP_PRIOR_SLOPE).abs() < 1e-12);
        let falling = [one[0], Trial { log_value: 0.5, score: 0.45, elo: -35.0 }];
        let g = next_log_gap_weight(&falling, 100.0);
        assert!((g - (0.25 + (100.0 + 17.5) / GAP_PRIOR_SLOPE)).abs() < 1e-12, "{g}");
        let on_line = [one[0], Trial { log_value: 1.0, score: 0.64, elo: 100.0 }];
        assert!((next_log_gap_weight(&on_line, 150.0) - 1.5).abs() < 1e-12);
        assert!(next_log_gap_weight(&one, -50_000.0) >= 1e-3f64.ln());
    }
}
