//! Agents rated on a calibrated ladder.
//!
//! Each agent plays paired games against every rung of a game's
//! [`Calibration`] except external engines' (`uci:` rungs: their games are
//! timed, so they would not replay the same on another machine). The rungs
//! keep their calibrated ratings (anchors), the draw parameter is the
//! calibration's, and the agent's rating is the maximum-likelihood one. Its
//! interval has two parts: the curvature of the agent's own games, and the
//! rungs' own uncertainty, carried through the sensitivity of the estimate
//! to each rung's rating (a refit with that rung moved by one Elo; the
//! rungs' errors are taken as independent, an approximation, since they come
//! from one fit). The calibration's model error τ (how far its one rating
//! per setting misses its own matchups, [`strength::misfit`]) is carried the
//! same way: each pairing's true difference is taken to stray from the
//! ratings' by an independent τ. An agent that won (or lost) every game has
//! no estimate, only a one-sided 95% bound ([`Rated::Bound`]).
//!
//! The games live in the [cell store](crate::store) like every match:
//! seeded, resumable, shardable, the same for any thread count. Every
//! pairing of an agent with a rung is one directory, named by the two specs,
//! so that a rerun with more agents, or on a recalibrated ladder that kept
//! some rungs, plays only the new pairings.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use search_core::rng::derive_seed;
use serde::{Serialize, Serializer};
use strength::dial::{Calibration, DialError};
use strength::pairing::PairOutcome;
use strength::rating::{Direction, FitOptions, RatingError, Results, davidson};
use strength::scale_map::ScaleMap;

use crate::TournamentError;
use crate::matches::{AnySetup, MatchJob, Openings};
use crate::runner::{Job, RunConfig, RunError, RunObserver, Shard, fnv, run_cells};
use crate::store::{RunKey, Scale, StoreError, open_out};
use crate::summary::trinomial;

/// Where and how a rating run plays.
#[derive(Debug, Clone)]
pub struct RateConfig {
    /// The master seed: openings and every cell's seed derive from it.
    pub seed: u64,
    /// Games per pairing of an agent with a rung (rounded up to whole
    /// pairs).
    pub games: usize,
    /// The cell store's directory.
    pub out: PathBuf,
    /// Only this share of the cells (the others left to other processes);
    /// the agents are rated once every cell is there.
    pub shard: Option<Shard>,
    /// Play only the rungs rated at least this (all rungs when `None`).
    pub rungs_from: Option<f64>,
}

impl RateConfig {
    /// `games` games per pairing with seed `seed`, every rung played, the
    /// cells in `out`.
    pub fn new(seed: u64, games: usize, out: impl Into<PathBuf>) -> Self {
        RateConfig { seed, games, out: out.into(), shard: None, rungs_from: None }
    }

    fn run(&self) -> RunConfig {
        RunConfig { key: RunKey { seed: self.seed, scale: Scale::Default }, out: self.out.clone(), shard: self.shard }
    }
}

/// Why agents could not be rated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RateError {
    /// No games per pairing.
    #[error("games per pairing must be at least 1")]
    NoGames,
    /// No agent to rate.
    #[error("no agent to rate")]
    NoAgents,
    /// The calibration is another game's than the setup's.
    #[error("the calibration is of {calibration}, not {setup}")]
    WrongGame {
        /// The setup's game.
        setup: String,
        /// The calibration's game.
        calibration: String,
    },
    /// No rung left to play: every rung is an external engine's, or rated
    /// below `rungs_from`.
    #[error("{}", match rungs_from {
        Some(from) => format!("no rung of the {game} ladder is rated at least {from}"),
        None => format!("the {game} ladder has no rung to play (only external engines')"),
    })]
    NoRung {
        /// The game.
        game: String,
        /// The lowest rating played, if one was set.
        rungs_from: Option<f64>,
    },
    /// A calibration without a draw parameter (made before it was fitted).
    #[error("the {game} calibration has no draw parameter")]
    NoDrawParameter {
        /// The game.
        game: String,
    },
    /// A calibration whose map onto its scale is invalid (a stretch that
    /// is not a positive number, knots that do not increase).
    #[error("the {game} calibration: {source}")]
    Stretch {
        /// The game.
        game: String,
        /// What is wrong with it.
        source: DialError,
    },
    /// An agent the setup's roster refuses, or no openings.
    #[error(transparent)]
    Setup(#[from] TournamentError),
    /// The cell store could not be opened (another run's directory, in use).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Cells that could not be played or saved.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The rating fit failed.
    #[error(transparent)]
    Rating(#[from] RatingError),
    /// The agent's rating has an estimate, but none once a rung's rating is
    /// moved by one Elo (so its sensitivity to the rungs is unknown).
    #[error("the rating became unbounded ({direction}) when a rung moved")]
    UnboundedWhenRungMoved {
        /// Which way.
        direction: Direction,
    },
    /// Cells missing after this run: the other shards' share.
    #[error(
        "{missing} cells are missing from {} (other shards' share?): run the other shards into it, then once more without a shard, to rate",
        out.display()
    )]
    Incomplete {
        /// Cells not there.
        missing: usize,
        /// The cell store.
        out: PathBuf,
    },
}

/// One rung played against: its spec, calibrated rating and standard error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Opponent {
    /// The rung's spec.
    pub spec: String,
    /// Its calibrated rating.
    pub rating: f64,
    /// Its standard error (its 95% interval's half-width over 1.96).
    pub std_error: f64,
}

/// An agent's rating against anchored rungs ([`rate_on_scale`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rated {
    /// The maximum-likelihood rating, the standard error of the agent's own
    /// games, the part of the calibration's model error, and the total
    /// standard error with the rungs' uncertainty and the model error.
    Estimate {
        /// The rating.
        rating: f64,
        /// The standard error of the agent's own games.
        own_se: f64,
        /// The model error's part.
        model_se: f64,
        /// The total standard error.
        total_se: f64,
    },
    /// The agent won (`Up`) or lost (`Down`) every game, so the likelihood
    /// grows without end that way: only the other side is bounded. `bound`
    /// is the 95% bound from the profile likelihood of its games, moved
    /// further by 1.96 times the rungs' uncertainty and the model error
    /// carried through (a conservative sum of the two).
    Bound {
        /// Which way the rating is unbounded.
        direction: Direction,
        /// The bounded end of its 95% interval.
        bound: f64,
    },
}

/// An agent's score against one rung.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairingScore {
    /// The rung's spec.
    pub opponent: String,
    /// The rung's calibrated rating.
    pub opponent_rating: f64,
    /// Games played.
    pub games: usize,
    /// The agent's mean score per game (`None` without games).
    pub score: Option<f64>,
}

/// One agent's rating. An agent that won or lost every game has no
/// estimate: `rating` and the standard errors are `None`, `unbounded` says
/// which way, and `ci95` has only its other end.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatedAgent {
    /// The agent's spec.
    pub spec: String,
    /// Its maximum-likelihood rating.
    pub rating: Option<f64>,
    /// Which way the rating is unbounded (`"up"`: won every game,
    /// `"down"`: lost every game); absent from the JSON for an estimate.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "direction_name")]
    pub unbounded: Option<Direction>,
    /// The standard error of its own games.
    pub std_error_games: Option<f64>,
    /// The part of the calibration's model error.
    pub std_error_model: Option<f64>,
    /// The total standard error (its games, the rungs' uncertainty and the
    /// model error).
    pub std_error: Option<f64>,
    /// The 95% interval (an end `None` where it is unbounded).
    pub ci95: [Option<f64>; 2],
    /// Games played in all.
    pub games: usize,
    /// Its score against each rung, in the order of
    /// [`RateReport::opponents`].
    pub against: Vec<PairingScore>,
}

impl RatedAgent {
    fn new(spec: &str, rated: Rated, games: usize, against: Vec<PairingScore>) -> Self {
        let spec = spec.to_string();
        match rated {
            Rated::Estimate { rating, own_se, model_se, total_se } => RatedAgent {
                spec,
                rating: Some(rating),
                unbounded: None,
                std_error_games: Some(own_se),
                std_error_model: Some(model_se),
                std_error: Some(total_se),
                ci95: [Some(rating - 1.96 * total_se), Some(rating + 1.96 * total_se)],
                games,
                against,
            },
            // Won or lost every game: no estimate, one end of the interval.
            Rated::Bound { direction, bound } => RatedAgent {
                spec,
                rating: None,
                unbounded: Some(direction),
                std_error_games: None,
                std_error_model: None,
                std_error: None,
                ci95: match direction {
                    Direction::Up => [Some(bound), None],
                    Direction::Down => [None, Some(bound)],
                },
                games,
                against,
            },
        }
    }
}

fn direction_name<S: Serializer>(direction: &Option<Direction>, s: S) -> Result<S::Ok, S::Error> {
    match direction {
        Some(Direction::Up) => s.serialize_str("up"),
        Some(Direction::Down) => s.serialize_str("down"),
        None => s.serialize_none(),
    }
}

/// What [`rate`] found: the ladder played and every agent's rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateReport {
    /// The game.
    pub game: String,
    /// The calibration's anchor (the scale the ratings are on).
    pub anchor: String,
    /// The calibration's code version.
    pub calibration: String,
    /// The calibration's draw parameter ν.
    pub draw_nu: f64,
    /// The calibration's model error τ (0 without one).
    pub model_error: f64,
    /// The master seed.
    pub seed: u64,
    /// Games per pairing (whole pairs).
    pub games_per_pairing: usize,
    /// The rungs played.
    pub opponents: Vec<Opponent>,
    /// The agents, in the order asked for.
    pub agents: Vec<RatedAgent>,
}

impl RateReport {
    /// The report as pretty-printed JSON, keys sorted (the `rate.json` of
    /// `cargo xtask rate`).
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).expect("a report serializes");
        serde_json::to_string_pretty(&value).expect("a value serializes")
    }

    /// The agents' ratings: a Markdown table.
    pub fn ratings_table(&self) -> String {
        let num = |x: Option<f64>| x.unwrap_or(f64::NAN);
        let mut s = format!(
            "{} on the dial's scale ({}), {} games per pairing with every rung\n\n\
             | agent | rating | 95% interval | ± its games only | ± model error | games |\n| --- | ---: | --- | ---: | ---: | ---: |\n",
            self.game, self.anchor, self.games_per_pairing
        );
        for a in &self.agents {
            let spec = &a.spec;
            let (low, high) = (num(a.ci95[0]), num(a.ci95[1]));
            let _ = match a.unbounded {
                // Won every game: a lower bound only.
                Some(Direction::Up) => writeln!(s, "| {spec} | ≥ {low:.0} | {low:.0} … ∞ | – | – | {} |", a.games),
                Some(Direction::Down) => {
                    writeln!(s, "| {spec} | ≤ {high:.0} | −∞ … {high:.0} | – | – | {} |", a.games)
                }
                None => writeln!(
                    s,
                    "| {spec} | {:.0} | {low:.0} … {high:.0} | {:.0} | {:.0} | {} |",
                    num(a.rating),
                    1.96 * num(a.std_error_games),
                    1.96 * a.std_error_model.unwrap_or(0.0),
                    a.games
                ),
            };
        }
        s
    }

    /// Each agent's score against each rung: a Markdown table, rungs as
    /// rows.
    pub fn scores_table(&self) -> String {
        let heads: Vec<&str> = self.agents.iter().map(|a| a.spec.as_str()).collect();
        let mut s = format!(
            "Scores against each rung (its calibrated rating in brackets)\n\n| rung | {} |\n| --- |{}\n",
            heads.join(" | "),
            " ---: |".repeat(heads.len())
        );
        for (i, o) in self.opponents.iter().enumerate() {
            let cells: Vec<String> = self
                .agents
                .iter()
                .map(|a| match a.against.get(i).and_then(|g| g.score) {
                    Some(x) => format!("{:.1}%", 100.0 * x),
                    None => "–".into(),
                })
                .collect();
            let _ = writeln!(s, "| {} ({:.0}) | {} |", o.spec, o.rating, cells.join(" | "));
        }
        s
    }
}

/// Rates the agents `specs` on `calibration`'s ladder of `setup`'s game:
/// each plays `config.games` games (whole pairs) against every rung but
/// external engines' (and those rated below `config.rungs_from`), from
/// shared balanced random openings, on the cell store in `config.out` (the
/// cells already there are not replayed). Progress goes to `observer`.
///
/// ```
/// use std::sync::Arc;
///
/// use games_small::{TicTacToe, TicTacToeEval};
/// use tournament::calibrate::{CalibrateConfig, calibrate};
/// use tournament::ladder::Ladder;
/// use tournament::rate::{RateConfig, rate};
/// use tournament::{Setup, matches::AnySetup};
///
/// let setup: Arc<dyn AnySetup> = Arc::new(
///     Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
///         .with_opening_plies(1)
///         .with_max_plies(9)
///         .with_pairs_per_cell(10),
/// );
/// let ladder = Ladder::boltzmann(&[9], &[0.5, 2.0, 8.0], "cap=1").with_pairs(10).with_held_out_pairs(5);
/// let dir = std::env::temp_dir().join(format!("tournament-doc-rate-{}", std::process::id()));
/// let calibration = calibrate(&setup, &ladder, &CalibrateConfig::new(7, dir.join("ladder")), &())?;
/// let specs = ["boltzmann:depth=9,cap=1,theta=4".to_string()];
/// let report = rate(&setup, &calibration, &specs, &RateConfig::new(1, 20, dir.join("rate")), &())?;
/// assert_eq!(report.opponents.len(), calibration.rungs.len());
/// assert_eq!(report.agents[0].games, 20 * calibration.rungs.len());
/// assert!(report.ratings_table().starts_with("tictactoe on the dial's scale"));
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rate(
    setup: &Arc<dyn AnySetup>,
    calibration: &Calibration,
    specs: &[String],
    config: &RateConfig,
    observer: &dyn RunObserver,
) -> Result<RateReport, RateError> {
    if config.games == 0 {
        return Err(RateError::NoGames);
    }
    if specs.is_empty() {
        return Err(RateError::NoAgents);
    }
    let game = setup.name();
    if calibration.game != game {
        return Err(RateError::WrongGame { setup: game.to_string(), calibration: calibration.game.clone() });
    }
    let nu = calibration.draw_nu.ok_or_else(|| RateError::NoDrawParameter { game: game.to_string() })?;
    let tau = calibration.misfit.map_or(0.0, |m| m.model_error);
    let map = calibration.scale_map().map_err(|source| RateError::Stretch { game: game.to_string(), source })?;
    let opponents: Vec<Opponent> = calibration
        .rungs
        .iter()
        .filter(|r| !r.spec.starts_with("uci:") && config.rungs_from.is_none_or(|from| r.rating >= from))
        .map(|r| Opponent { spec: r.spec.clone(), rating: r.rating, std_error: (r.high - r.low) / 2.0 / 1.96 })
        .collect();
    if opponents.is_empty() {
        return Err(RateError::NoRung { game: game.to_string(), rungs_from: config.rungs_from });
    }
    for spec in specs {
        setup.check_spec(spec)?;
    }
    let pairs = config.games.div_ceil(2);
    let opening_seed = derive_seed(config.seed, fnv("rate openings"));
    let openings =
        Openings { list: setup.random_openings(pairs, opening_seed)?, source: format!("random, seed {opening_seed}") };
    let mut jobs = Vec::new();
    for spec in specs {
        for o in &opponents {
            // One cell directory per pairing, named by its two specs.
            let name = format!("{game}-{:016x}", fnv(&format!("{spec} vs {}", o.spec)));
            jobs.push(MatchJob::new(setup.clone(), name, spec, &o.spec, openings.clone(), pairs));
        }
    }
    let run = config.run();
    let names: Vec<String> = jobs.iter().map(|j| j.name().to_string()).collect();
    let share = config.shard.map_or("all".to_string(), |s| s.to_string());
    let lock = open_out(&run.out, run.key, &names, &[share])?;
    if let Some(warning) = lock.warning() {
        observer.note(warning);
    }
    observer.note(&format!(
        "{game}: {} agents against {} rungs, {pairs} pairs each, cells in {}",
        specs.len(),
        opponents.len(),
        run.out.display()
    ));
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    run_cells(&selected, &run, observer)?;

    let mut missing = 0;
    let mut played = Vec::new();
    for jobs in jobs.chunks(opponents.len()) {
        let mut results = Vec::new();
        for job in jobs {
            let cells = job.load(&run.out, run.key);
            missing += cells.iter().filter(|c| c.is_none()).count();
            results.push(cells.into_iter().flatten().flatten().collect::<Vec<PairOutcome>>());
        }
        played.push(results);
    }
    if missing > 0 {
        return Err(RateError::Incomplete { missing, out: run.out });
    }
    let mut agents = Vec::new();
    for (spec, results) in specs.iter().zip(&played) {
        let against = opponents
            .iter()
            .zip(results)
            .map(|(o, outcomes)| {
                let games = outcomes.len() * 2;
                let points: f64 = outcomes.iter().map(PairOutcome::score).sum();
                PairingScore {
                    opponent: o.spec.clone(),
                    opponent_rating: o.rating,
                    games,
                    score: (games > 0).then(|| points / games as f64),
                }
            })
            .collect();
        let games = results.iter().map(|r| r.len() * 2).sum::<usize>();
        let rated = rate_on_scale(&opponents, results, nu, tau, &map)?;
        agents.push(RatedAgent::new(spec, rated, games, against));
    }
    Ok(RateReport {
        game: game.to_string(),
        anchor: calibration.anchor.clone(),
        calibration: calibration.code_version.clone(),
        draw_nu: nu,
        model_error: tau,
        seed: config.seed,
        games_per_pairing: pairs * 2,
        opponents,
        agents,
    })
}

/// The outcome counts `(wins, draws, losses)` of one agent against each
/// rung, from its pairs.
fn counts(results: &[Vec<PairOutcome>]) -> Vec<(f64, f64, f64)> {
    results
        .iter()
        .map(|pairs| {
            let t = trinomial(pairs);
            (t.wins() as f64, t.draws() as f64, t.losses() as f64)
        })
        .collect()
}

/// The 95% bound on an agent's rating that won (`Up`) or lost (`Down`)
/// every one of `games[i]` games against rungs rated `ratings[i]`: where
/// the log-likelihood falls 1.92 (χ²₁'s 95% point, halved) below its
/// supremum, 0, which it approaches at ±∞.
fn profile_bound(ratings: &[f64], games: &[f64], nu: f64, direction: Direction) -> f64 {
    let loglik = |r: f64| -> f64 {
        ratings
            .iter()
            .zip(games)
            .filter(|(_, n)| **n > 0.0)
            .map(|(o, n)| {
                let p = davidson(r - o, nu);
                n * match direction {
                    Direction::Up => p.win.ln(),
                    Direction::Down => p.loss.ln(),
                }
            })
            .sum()
    };
    let (min, max) = ratings.iter().fold((f64::MAX, f64::MIN), |(a, b), &r| (a.min(r), b.max(r)));
    // `low` and `high` bracket the crossing: far below the rungs every game
    // won is wildly unlikely, far above it is nearly certain.
    let (mut low, mut high) = (min - 5000.0, max + 5000.0);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        let above = loglik(mid) > -1.92;
        // Up: the log-likelihood rises with the rating; Down: it falls.
        if above == (direction == Direction::Up) {
            high = mid;
        } else {
            low = mid;
        }
    }
    0.5 * (low + high)
}

/// An agent's rating from its results against anchored opponents
/// (`results[i]`: its pairs against `opponents[i]`, the agent first in
/// each), with draw parameter `nu` and model error `tau`, on a
/// calibration's scale: `map` takes it to the rating model's units and
/// back ([`Calibration::scale_map`]; chess's scale is mapped onto
/// Stockfish's). The rungs' ratings and errors, and the model error (by the
/// map's outer slope, as the calibration stretched it), are taken into the
/// model's units for the fit, the result back out.
///
/// The estimate with its standard errors, or, when the agent won or lost
/// every game, a one-sided 95% bound. The rungs' uncertainty and the model
/// error are carried through the sensitivity of the estimate (or bound) to
/// each rung's rating.
pub fn rate_on_scale(
    opponents: &[Opponent],
    results: &[Vec<PairOutcome>],
    nu: f64,
    tau: f64,
    map: &ScaleMap,
) -> Result<Rated, RateError> {
    let in_model: Vec<Opponent> = opponents
        .iter()
        .map(|o| Opponent {
            spec: o.spec.clone(),
            rating: map.to_model(o.rating),
            std_error: o.std_error / map.slope_at(o.rating),
        })
        .collect();
    Ok(match rate_against(&in_model, results, nu, tau / map.slope())? {
        Rated::Estimate { rating, own_se, model_se, total_se } => {
            let rating = map.to_published(rating);
            let slope = map.slope_at(rating);
            Rated::Estimate { rating, own_se: own_se * slope, model_se: model_se * slope, total_se: total_se * slope }
        }
        Rated::Bound { direction, bound } => Rated::Bound { direction, bound: map.to_published(bound) },
    })
}

/// An agent's rating from its results against anchored opponents, in the
/// rating model's units ([`rate_on_scale`] with no stretch).
fn rate_against(opponents: &[Opponent], results: &[Vec<PairOutcome>], nu: f64, tau: f64) -> Result<Rated, RateError> {
    let counts = counts(results);
    let fit = |shift: Option<usize>| -> Result<Result<(f64, f64), Direction>, RateError> {
        let n = opponents.len();
        let mut r = Results::new(n + 1);
        let mut options = FitOptions::new().fixed_draw_nu(nu);
        for (i, (o, &(w, d, l))) in opponents.iter().zip(&counts).enumerate() {
            r.add_counts(n, i, w, d, l)?;
            let moved = if shift == Some(i) { 1.0 } else { 0.0 };
            options = options.anchor(i, o.rating + moved);
        }
        match r.fit(&options) {
            Ok(ratings) => {
                let p = ratings.player(n);
                Ok(Ok((p.rating, p.std_error)))
            }
            Err(RatingError::Unbounded { player, direction }) if player == n => Ok(Err(direction)),
            Err(e) => Err(e.into()),
        }
    };
    // The standard deviations the rungs' errors and the model error give
    // the value, from its sensitivity to each rung's rating.
    let carried = |value: &dyn Fn(Option<usize>) -> Result<f64, RateError>| -> Result<(f64, f64), RateError> {
        let base = value(None)?;
        let (mut rungs, mut model) = (0.0, 0.0);
        for (i, o) in opponents.iter().enumerate() {
            let sensitivity = value(Some(i))? - base;
            rungs += (sensitivity * o.std_error).powi(2);
            model += (sensitivity * tau).powi(2);
        }
        Ok((rungs.sqrt(), model.sqrt()))
    };
    match fit(None)? {
        Ok((rating, own_se)) => {
            let value = |shift: Option<usize>| match fit(shift)? {
                Ok((r, _)) => Ok(r),
                Err(direction) => Err(RateError::UnboundedWhenRungMoved { direction }),
            };
            let (rungs, model_se) = carried(&value)?;
            let total_se = (own_se * own_se + rungs * rungs + model_se * model_se).sqrt();
            Ok(Rated::Estimate { rating, own_se, model_se, total_se })
        }
        Err(direction) => {
            let games: Vec<f64> = counts.iter().map(|(w, d, l)| w + d + l).collect();
            let bound_at = |shift: Option<usize>| -> Result<f64, RateError> {
                let ratings: Vec<f64> = opponents
                    .iter()
                    .enumerate()
                    .map(|(i, o)| o.rating + if shift == Some(i) { 1.0 } else { 0.0 })
                    .collect();
                Ok(profile_bound(&ratings, &games, nu, direction))
            };
            let own = bound_at(None)?;
            let (rungs, model) = carried(&bound_at)?;
            let rungs = 1.96 * rungs.hypot(model);
            let bound = match direction {
                Direction::Up => own - rungs,
                Direction::Down => own + rungs,
            };
            Ok(Rated::Bound { direction, bound })
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;
    use strength::pairing::GameScore;

    use super::*;

    fn pairs(score_a: f64, n: usize) -> Vec<PairOutcome> {
        let g = GameScore { score: score_a, plies: 40, adjudicated: false };
        vec![PairOutcome { a_first: g, b_first: g }; n]
    }

    #[test]
    fn an_agent_even_with_a_weak_rung_and_drawing_a_strong_one_lies_between() {
        let opponents = vec![
            Opponent { spec: "a".into(), rating: 0.0, std_error: 50.0 },
            Opponent { spec: "b".into(), rating: 400.0, std_error: 50.0 },
        ];
        let mut weak = pairs(1.0, 10);
        weak.extend(pairs(0.0, 10));
        let Rated::Estimate { rating: r, own_se: own, total_se: total, .. } =
            rate_against(&opponents, &[weak, pairs(0.5, 20)], 1.0, 0.0).unwrap()
        else {
            panic!("no estimate")
        };
        assert!(r > 0.0 && r < 400.0, "{r}");
        assert!(own > 0.0 && total > own, "{own} {total}");
    }

    fn line(slope: f64) -> ScaleMap {
        ScaleMap::linear(slope).unwrap()
    }

    #[test]
    fn a_scale_through_knots_rates_with_the_local_stretch() {
        // Published 1000..1400 is model 0..800 (half a published Elo per
        // model Elo), from 1400 on two published Elo per model Elo.
        let map = ScaleMap::through(vec![(0.0, 1000.0), (800.0, 1400.0), (1000.0, 1800.0)], 2.0).unwrap();
        let low = vec![Opponent { spec: "a".into(), rating: 1200.0, std_error: 10.0 }];
        let high = vec![Opponent { spec: "b".into(), rating: 1600.0, std_error: 10.0 }];
        // 75% against each: the same model gap above each rung, a four
        // times larger published gap above the steep one.
        let mut won = pairs(1.0, 15);
        won.extend(pairs(0.5, 15));
        let gap =
            |rungs: &[Opponent], map: &ScaleMap| match rate_on_scale(rungs, std::slice::from_ref(&won), 0.4, 0.0, map)
                .unwrap()
            {
                Rated::Estimate { rating, .. } => rating - rungs[0].rating,
                Rated::Bound { .. } => panic!("no estimate"),
            };
        // The model's own gap, on a scale that is the model's.
        let model = gap(&low, &line(1.0));
        let (g_low, g_high) = (gap(&low, &map), gap(&high, &map));
        assert!(model > 50.0, "{model}");
        assert!((g_low - model / 2.0).abs() < 1e-6 * model, "{model} {g_low}");
        assert!((g_high - model * 2.0).abs() < 1e-6 * model, "{model} {g_high}");
    }

    #[test]
    fn a_stretched_scale_rates_in_the_models_units() {
        // The same rungs on a scale stretched twice over (ratings, errors
        // and τ doubled): the same agent, twice the rating and errors. Fitted
        // naively on the stretched numbers it would come out elsewhere.
        let rungs = |k: f64| {
            vec![
                Opponent { spec: "a".into(), rating: 100.0 * k, std_error: 30.0 * k },
                Opponent { spec: "b".into(), rating: 500.0 * k, std_error: 40.0 * k },
            ]
        };
        let mut weak = pairs(1.0, 14);
        weak.extend(pairs(0.5, 6));
        let results = [weak, pairs(0.0, 12).into_iter().chain(pairs(0.5, 8)).collect()];
        let Rated::Estimate { rating, own_se, model_se, total_se } =
            rate_on_scale(&rungs(1.0), &results, 0.4, 50.0, &line(1.0)).unwrap()
        else {
            panic!("no estimate")
        };
        let Rated::Estimate { rating: r2, own_se: o2, model_se: m2, total_se: t2 } =
            rate_on_scale(&rungs(2.0), &results, 0.4, 100.0, &line(2.0)).unwrap()
        else {
            panic!("no estimate")
        };
        for (x, y) in [(rating, r2), (own_se, o2), (model_se, m2), (total_se, t2)] {
            assert!((2.0 * x - y).abs() < 1e-6 * y.abs().max(1.0), "{x} {y}");
        }
        // Against one rung, the gap doubles with the scale; read naively, it
        // would not.
        let one = |k: f64| vec![Opponent { spec: "a".into(), rating: 500.0 * k, std_error: 30.0 * k }];
        let strong = [pairs(1.0, 10).into_iter().chain(pairs(0.5, 10)).collect::<Vec<_>>()];
        let gap = |k: f64, stretch: f64| match rate_on_scale(&one(k), &strong, 0.4, 0.0, &line(stretch)).unwrap() {
            Rated::Estimate { rating, .. } => rating - 500.0 * k,
            Rated::Bound { .. } => panic!("no estimate"),
        };
        let (g1, g2, naive) = (gap(1.0, 1.0), gap(2.0, 2.0), gap(2.0, 1.0));
        assert!(g1 > 50.0 && (2.0 * g1 - g2).abs() < 1e-6 * g2, "{g1} {g2}");
        assert!((naive - g1).abs() < 1e-6 * g1, "{naive} {g1}");
        // A bound scales the same way.
        let (Rated::Bound { bound: b1, .. }, Rated::Bound { bound: b2, .. }) = (
            rate_on_scale(&rungs(1.0), &[pairs(1.0, 10), pairs(1.0, 10)], 0.4, 0.0, &line(1.0)).unwrap(),
            rate_on_scale(&rungs(2.0), &[pairs(1.0, 10), pairs(1.0, 10)], 0.4, 0.0, &line(2.0)).unwrap(),
        ) else {
            panic!("no bound")
        };
        assert!((2.0 * b1 - b2).abs() < 1e-6 * b2.abs(), "{b1} {b2}");
    }

    #[test]
    fn an_even_score_against_one_rung_gives_its_rating_and_adds_its_uncertainty() {
        let opponents = vec![Opponent { spec: "a".into(), rating: 700.0, std_error: 80.0 }];
        let mut even = pairs(1.0, 15);
        even.extend(pairs(0.0, 15));
        let Rated::Estimate { rating: r, own_se: own, model_se, total_se: total } =
            rate_against(&opponents, std::slice::from_ref(&even), 1.0, 0.0).unwrap()
        else {
            panic!("no estimate")
        };
        assert!((r - 700.0).abs() < 1e-6, "{r}");
        assert_eq!(model_se, 0.0);
        // Moving the only rung moves the estimate one for one.
        assert!((total * total - own * own - 80.0 * 80.0).abs() < 1e-3 * total * total, "{own} {total}");
        // A model error τ is carried the same way: one for one with the only
        // rung, added in quadrature.
        let Rated::Estimate { model_se, total_se: wider, .. } = rate_against(&opponents, &[even], 1.0, 60.0).unwrap()
        else {
            panic!("no estimate")
        };
        assert!((model_se - 60.0).abs() < 0.1, "{model_se}");
        assert!((wider * wider - total * total - 60.0 * 60.0).abs() < 1e-3 * wider * wider, "{total} {wider}");
    }

    #[test]
    fn the_model_error_shrinks_as_an_agent_meets_more_rungs() {
        // Even against each of four rungs at the same rating: each pairing
        // strays by its own τ, so the estimate's share is about τ/√4.
        let opponents: Vec<Opponent> =
            (0..4).map(|i| Opponent { spec: format!("r{i}"), rating: 500.0, std_error: 0.0 }).collect();
        let mut even = pairs(1.0, 15);
        even.extend(pairs(0.0, 15));
        let Rated::Estimate { model_se, .. } = rate_against(&opponents, &vec![even; 4], 1.0, 80.0).unwrap() else {
            panic!("no estimate")
        };
        assert!((model_se - 40.0).abs() < 0.5, "{model_se}");
    }

    #[test]
    fn winning_every_game_gives_a_lower_bound_where_the_likelihood_falls_by_1_92() {
        let nu = 0.2;
        let one = |se: f64, n: usize| {
            let opponents = vec![Opponent { spec: "a".into(), rating: 1000.0, std_error: se }];
            rate_against(&opponents, &[pairs(1.0, n)], nu, 0.0).unwrap()
        };
        let Rated::Bound { direction: Direction::Up, bound } = one(0.0, 20) else { panic!("not a lower bound") };
        // 40 games won: the likelihood 40·ln P(win) is 1.92 below 0 at the bound.
        let p = davidson(bound - 1000.0, nu).win;
        assert!((40.0 * p.ln() + 1.92).abs() < 1e-6, "{bound} {p}");
        assert!(bound > 1000.0, "{bound}");
        // More games won: a higher bound; an uncertain rung: lower by 1.96 σ
        // (the bound moves one for one with the only rung).
        let Rated::Bound { bound: more, .. } = one(0.0, 80) else { panic!() };
        assert!(more > bound, "{more} {bound}");
        let Rated::Bound { bound: loose, .. } = one(50.0, 20) else { panic!() };
        assert!((bound - loose - 1.96 * 50.0).abs() < 0.5, "{bound} {loose}");
        // Losing every game mirrors it: an upper bound as far below.
        let opponents = vec![Opponent { spec: "a".into(), rating: 1000.0, std_error: 0.0 }];
        let Rated::Bound { direction: Direction::Down, bound: upper } =
            rate_against(&opponents, &[pairs(0.0, 20)], nu, 0.0).unwrap()
        else {
            panic!("not an upper bound")
        };
        assert!((upper - (2000.0 - bound)).abs() < 1e-6, "{upper} {bound}");
    }

    fn report() -> RateReport {
        let opponents = vec![
            Opponent { spec: "random".into(), rating: 0.0, std_error: 0.0 },
            Opponent { spec: "alphabeta:depth=9".into(), rating: 600.0, std_error: 20.0 },
        ];
        let against = |score: [Option<f64>; 2]| -> Vec<PairingScore> {
            opponents
                .iter()
                .zip(score)
                .map(|(o, score)| PairingScore {
                    opponent: o.spec.clone(),
                    opponent_rating: o.rating,
                    games: if score.is_some() { 20 } else { 0 },
                    score,
                })
                .collect()
        };
        let estimate = Rated::Estimate { rating: 300.0, own_se: 40.0, model_se: 10.0, total_se: 50.0 };
        let up = Rated::Bound { direction: Direction::Up, bound: 650.0 };
        let down = Rated::Bound { direction: Direction::Down, bound: -200.0 };
        RateReport {
            game: "tictactoe".into(),
            anchor: "random = 0".into(),
            calibration: "calibrate ladder v1, strength 0.2.0".into(),
            draw_nu: 2.3,
            model_error: 12.0,
            seed: 3,
            games_per_pairing: 20,
            agents: vec![
                RatedAgent::new("boltzmann:depth=9,cap=1,theta=2", estimate, 40, against([Some(0.8), Some(0.3)])),
                RatedAgent::new("perfect", up, 20, against([Some(1.0), None])),
                RatedAgent::new("hopeless", down, 40, against([Some(0.0), Some(0.0)])),
            ],
            opponents,
        }
    }

    fn keys(v: &Value) -> BTreeSet<&str> {
        v.as_object().expect("an object").keys().map(String::as_str).collect()
    }

    /// The JSON is what `cargo xtask rate` wrote before the library had a
    /// type for it: the same fields, `unbounded` only where there is no
    /// estimate, `null` where there is no number.
    #[test]
    fn a_report_serializes_to_the_fields_of_rate_json() {
        let v = serde_json::to_value(report()).unwrap();
        let set = |names: &[&'static str]| names.iter().copied().collect::<BTreeSet<&str>>();
        assert_eq!(
            keys(&v),
            set(&[
                "game",
                "anchor",
                "calibration",
                "draw_nu",
                "model_error",
                "seed",
                "games_per_pairing",
                "opponents",
                "agents"
            ])
        );
        assert_eq!(keys(&v["opponents"][0]), set(&["spec", "rating", "std_error"]));
        let agent = ["spec", "rating", "std_error_games", "std_error_model", "std_error", "ci95", "games", "against"];
        assert_eq!(keys(&v["agents"][0]), set(&agent));
        let mut unbounded = set(&agent);
        unbounded.insert("unbounded");
        assert_eq!(keys(&v["agents"][1]), unbounded);
        assert_eq!(keys(&v["agents"][0]["against"][0]), set(&["opponent", "opponent_rating", "games", "score"]));

        let estimate = &v["agents"][0];
        assert_eq!(estimate["rating"], 300.0);
        assert_eq!(estimate["std_error_games"], 40.0);
        assert_eq!(estimate["std_error_model"], 10.0);
        assert_eq!(estimate["std_error"], 50.0);
        assert_eq!(estimate["ci95"], serde_json::json!([300.0 - 98.0, 300.0 + 98.0]));
        assert_eq!(estimate["games"], 40);
        assert_eq!(estimate["against"][1]["score"], 0.3);
        let (up, down) = (&v["agents"][1], &v["agents"][2]);
        assert_eq!(up["unbounded"], "up");
        assert_eq!(down["unbounded"], "down");
        for key in ["rating", "std_error_games", "std_error_model", "std_error"] {
            assert!(up[key].is_null() && down[key].is_null(), "{key}");
        }
        assert_eq!(up["ci95"], serde_json::json!([650.0, null]));
        assert_eq!(down["ci95"], serde_json::json!([null, -200.0]));
        assert!(up["against"][1]["score"].is_null());
        assert_eq!(v["games_per_pairing"], 20);
        assert_eq!(v["seed"], 3);
        // `to_json` is the same value, keys sorted.
        let text = report().to_json();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        assert!(text.find("\"agents\"").unwrap() < text.find("\"anchor\"").unwrap());
    }

    /// `to_json` writes, byte for byte, the `rate.json` that `cargo xtask
    /// rate` built field by field before the library had a type for it.
    #[test]
    fn to_json_is_the_text_rate_json_always_had() {
        use serde_json::json;
        let r = report();
        let agent = |a: &RatedAgent| {
            let against: Vec<Value> = a
                .against
                .iter()
                .map(|g| {
                    json!({"opponent": g.opponent, "opponent_rating": g.opponent_rating, "games": g.games, "score": g.score})
                })
                .collect();
            match a.unbounded {
                None => json!({
                    "spec": a.spec,
                    "rating": a.rating.unwrap(),
                    "std_error_games": a.std_error_games.unwrap(),
                    "std_error_model": a.std_error_model.unwrap(),
                    "std_error": a.std_error.unwrap(),
                    "ci95": [a.ci95[0].unwrap(), a.ci95[1].unwrap()],
                    "games": a.games,
                    "against": against,
                }),
                Some(direction) => json!({
                    "spec": a.spec,
                    "rating": null,
                    "unbounded": match direction { Direction::Up => "up", Direction::Down => "down" },
                    "std_error_games": null,
                    "std_error_model": null,
                    "std_error": null,
                    "ci95": match direction {
                        Direction::Up => json!([a.ci95[0].unwrap(), null]),
                        Direction::Down => json!([null, a.ci95[1].unwrap()]),
                    },
                    "games": a.games,
                    "against": against,
                }),
            }
        };
        let old = json!({
            "game": r.game,
            "anchor": r.anchor,
            "calibration": r.calibration,
            "draw_nu": r.draw_nu,
            "model_error": r.model_error,
            "seed": r.seed,
            "games_per_pairing": r.games_per_pairing,
            "opponents": r.opponents.iter().map(|o| json!({"spec": o.spec, "rating": o.rating, "std_error": o.std_error})).collect::<Vec<_>>(),
            "agents": r.agents.iter().map(agent).collect::<Vec<_>>(),
        });
        assert_eq!(r.to_json(), serde_json::to_string_pretty(&old).unwrap());
    }

    #[test]
    fn the_tables_show_estimates_bounds_and_scores() {
        let report = report();
        let ratings = report.ratings_table();
        assert!(ratings.starts_with("tictactoe on the dial's scale (random = 0), 20 games per pairing"), "{ratings}");
        assert!(ratings.contains("| boltzmann:depth=9,cap=1,theta=2 | 300 | 202 … 398 | 78 | 20 | 40 |"), "{ratings}");
        assert!(ratings.contains("| perfect | ≥ 650 | 650 … ∞ | – | – | 20 |"), "{ratings}");
        assert!(ratings.contains("| hopeless | ≤ -200 | −∞ … -200 | – | – | 40 |"), "{ratings}");
        let scores = report.scores_table();
        assert!(scores.contains("| rung | boltzmann:depth=9,cap=1,theta=2 | perfect | hopeless |"), "{scores}");
        assert!(scores.contains("| random (0) | 80.0% | 100.0% | 0.0% |"), "{scores}");
        assert!(scores.contains("| alphabeta:depth=9 (600) | 30.0% | – | 0.0% |"), "{scores}");
    }
}
