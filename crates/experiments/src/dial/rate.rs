//! `cargo xtask rate GAME SPEC...`: agents rated on a game's committed
//! ladder.
//!
//! Each agent plays paired games against every rung of the game's committed
//! calibration except external engines' (`uci:` rungs: their games are timed,
//! so they would not replay the same on another machine). The rungs keep
//! their calibrated ratings (anchors), the draw parameter is the
//! calibration's, and the agent's rating is the maximum-likelihood one. Its
//! interval has two parts: the curvature of the agent's own games, and the
//! rungs' own uncertainty, carried through the sensitivity of the estimate
//! to each rung's rating (a refit with that rung moved by one Elo; the
//! rungs' errors are taken as independent, an approximation, since they come
//! from one fit). The calibration's model error τ (how far its one rating
//! per setting misses its own matchups, [`strength::misfit`]) is carried the
//! same way: each pairing's true difference is taken to stray from the
//! ratings' by an independent τ. The games live in the [`reproduce`](crate::reproduce) cell
//! store like every match: seeded, resumable, shardable, the same for any
//! thread count.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use strength::pairing::PairOutcome;
use strength::rating::{Direction, FitOptions, RatingError, Results, davidson};

use tournament::matches::{MatchJob, Openings};
use tournament::runner::Job;
use tournament::summary::trinomial;

use super::arena::{arena_of, load_calibration};
use crate::TaskResult;
use crate::reproduce::{RunConfig, RunKey, Scale, Shard, fnv, open_out, run_jobs, write_atomic};

/// Arguments of `cargo xtask rate`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// The agents rated (specs, as in `match`).
    pub specs: Vec<String>,
    /// Play only the rungs rated at least this (all rungs when `None`).
    pub rungs_from: Option<f64>,
    /// The games and where they are kept.
    pub run: RunSettings,
}

/// The games of a rating run and where they are kept (`rate` and `human rate`).
#[derive(Debug, Clone)]
pub struct RunSettings {
    /// Games per pairing of an agent with a rung (rounded up to whole pairs).
    pub games: usize,
    /// Master seed (the openings and every game's draws).
    pub seed: u64,
    /// Worker threads (results do not depend on it; no more than the cores
    /// when an engine moves on a clock, see `pool`).
    pub threads: Option<usize>,
    /// Output directory (default per command); rerun to resume.
    pub out: Option<PathBuf>,
    /// Play only a share of the cells.
    pub shard: Option<Shard>,
    /// Print one JSON object instead of the tables.
    pub json: bool,
}

/// One rung played against: its spec, calibrated rating and standard error.
#[derive(Debug, Clone)]
struct Opponent {
    spec: String,
    rating: f64,
    std_error: f64,
}

/// An agent's rating against anchored rungs ([`rate_against`]).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rated {
    /// The maximum-likelihood rating, the standard error of the agent's own
    /// games, the part of the calibration's model error, and the total
    /// standard error with the rungs' uncertainty and the model error.
    Estimate { rating: f64, own_se: f64, model_se: f64, total_se: f64 },
    /// The agent won (`Up`) or lost (`Down`) every game, so the likelihood
    /// grows without end that way: only the other side is bounded. `bound`
    /// is the 95% bound from the profile likelihood of its games, moved
    /// further by 1.96 times the rungs' uncertainty and the model error
    /// carried through (a conservative sum of the two).
    Bound { direction: Direction, bound: f64 },
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

/// [`rate_against`] on a calibration's scale, `stretch` Elo of it per Elo
/// of the rating model (`Calibration::scale_stretch`: chess's scale is
/// mapped onto Stockfish's): the rungs' ratings, errors and the model error
/// are taken into the model's units for the fit, the result back out.
fn rate_on_scale(
    opponents: &[Opponent],
    results: &[Vec<PairOutcome>],
    nu: f64,
    tau: f64,
    stretch: f64,
) -> Result<Rated, String> {
    let in_model: Vec<Opponent> = opponents
        .iter()
        .map(|o| Opponent { spec: o.spec.clone(), rating: o.rating / stretch, std_error: o.std_error / stretch })
        .collect();
    Ok(match rate_against(&in_model, results, nu, tau / stretch)? {
        Rated::Estimate { rating, own_se, model_se, total_se } => Rated::Estimate {
            rating: rating * stretch,
            own_se: own_se * stretch,
            model_se: model_se * stretch,
            total_se: total_se * stretch,
        },
        Rated::Bound { direction, bound } => Rated::Bound { direction, bound: bound * stretch },
    })
}

/// An agent's rating from its results against anchored opponents: the
/// estimate with its standard errors, or, when it won or lost every game,
/// a one-sided 95% bound. The rungs' uncertainty and the model error `tau`
/// are carried through the sensitivity of the estimate (or bound) to each
/// rung's rating.
fn rate_against(opponents: &[Opponent], results: &[Vec<PairOutcome>], nu: f64, tau: f64) -> Result<Rated, String> {
    let counts = counts(results);
    let fit = |shift: Option<usize>| -> Result<Result<(f64, f64), Direction>, String> {
        let n = opponents.len();
        let mut r = Results::new(n + 1);
        let mut options = FitOptions::new().fixed_draw_nu(nu);
        for (i, (o, &(w, d, l))) in opponents.iter().zip(&counts).enumerate() {
            r.add_counts(n, i, w, d, l).map_err(|e| e.to_string())?;
            let moved = if shift == Some(i) { 1.0 } else { 0.0 };
            options = options.anchor(i, o.rating + moved);
        }
        match r.fit(&options) {
            Ok(ratings) => {
                let p = ratings.player(n);
                Ok(Ok((p.rating, p.std_error)))
            }
            Err(RatingError::Unbounded { player, direction }) if player == n => Ok(Err(direction)),
            Err(e) => Err(e.to_string()),
        }
    };
    // The standard deviations the rungs' errors and the model error give
    // the value, from its sensitivity to each rung's rating.
    let carried = |value: &dyn Fn(Option<usize>) -> Result<f64, String>| -> Result<(f64, f64), String> {
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
                Err(d) => Err(format!("the rating became unbounded ({d}) when a rung moved")),
            };
            let (rungs, model_se) = carried(&value)?;
            let total_se = (own_se * own_se + rungs * rungs + model_se * model_se).sqrt();
            Ok(Rated::Estimate { rating, own_se, model_se, total_se })
        }
        Err(direction) => {
            let games: Vec<f64> = counts.iter().map(|(w, d, l)| w + d + l).collect();
            let bound_at = |shift: Option<usize>| -> Result<f64, String> {
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

/// Plays `specs` against `game`'s ladder (games in `out`) and rates them:
/// the report as JSON (`anchor`, `draw_nu`, `games_per_pairing`,
/// `opponents`, and per agent `spec`, `rating`, `std_error_games`,
/// `std_error`, `ci95`, `games`, `against`), or `None` when cells are
/// missing (another shard's share). `settings.threads` sizes the global
/// rayon pool.
pub(crate) fn rate_specs(
    game: &str,
    specs: &[String],
    rungs_from: Option<f64>,
    settings: &RunSettings,
    out: &Path,
) -> Result<Option<Value>, String> {
    let RunSettings { games, seed, shard, threads, .. } = *settings;
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    if specs.is_empty() {
        return Err("no agent to rate".into());
    }
    super::pool::start_workers(threads, specs)?;
    let calibration = load_calibration(game)?
        .ok_or_else(|| format!("no calibration of {game}: run `cargo xtask calibrate {game}`"))?;
    let nu = calibration.draw_nu.ok_or_else(|| format!("the {game} calibration has no draw parameter"))?;
    let tau = calibration.misfit.map_or(0.0, |m| m.model_error);
    let stretch = calibration.stretch().map_err(|e| format!("the {game} calibration: {e}"))?;
    let opponents: Vec<Opponent> = calibration
        .rungs
        .iter()
        .filter(|r| !r.spec.starts_with("uci:") && rungs_from.is_none_or(|from| r.rating >= from))
        .map(|r| Opponent { spec: r.spec.clone(), rating: r.rating, std_error: (r.high - r.low) / 2.0 / 1.96 })
        .collect();
    if opponents.is_empty() {
        return Err(match rungs_from {
            Some(from) => format!("no rung of the {game} ladder is rated at least {from}"),
            None => format!("the {game} ladder has no rung to play (only external engines')"),
        });
    }
    let probe = arena_of(game)?;
    for spec in specs {
        probe.check_spec(spec).map_err(|e| e.to_string())?;
    }
    let pairs = games.div_ceil(2);
    let opening_seed = search_core::rng::derive_seed(seed, fnv("rate openings"));
    let openings = Openings {
        list: probe.random_openings(pairs, opening_seed).map_err(|e| e.to_string())?,
        source: format!("random, seed {opening_seed}"),
    };
    let mut jobs = Vec::new();
    for spec in specs {
        for o in &opponents {
            // One cell directory per pairing, named by its two specs.
            let name = format!("{game}-{:016x}", fnv(&format!("{spec} vs {}", o.spec)));
            jobs.push(MatchJob::new(probe.clone(), name, spec, &o.spec, openings.clone(), pairs));
        }
    }
    let key = RunKey { seed, scale: Scale::Default };
    let names: Vec<String> = jobs.iter().map(|j| j.name().to_string()).collect();
    let share = shard.map_or("all".to_string(), |s| s.to_string());
    let _lock = open_out(out, key, &names, &[share]).map_err(|e| e.to_string())?;
    let config = RunConfig { label: "rate", key, out: out.to_path_buf(), shard };
    eprintln!(
        "rate {game}: {} agents against {} rungs, {} pairs each, cells in {}",
        specs.len(),
        opponents.len(),
        pairs,
        out.display()
    );
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    run_jobs(&selected, &config).map_err(|e| e.to_string())?;

    let mut rows = Vec::new();
    let mut missing = 0;
    for (spec, jobs) in specs.iter().zip(jobs.chunks(opponents.len())) {
        let mut results = Vec::new();
        let mut against = Vec::new();
        for (o, job) in opponents.iter().zip(jobs) {
            let cells = job.load(out, key);
            missing += cells.iter().filter(|c| c.is_none()).count();
            let outcomes: Vec<PairOutcome> = cells.into_iter().flatten().flatten().collect();
            let played = outcomes.len() * 2;
            let points: f64 = outcomes.iter().map(PairOutcome::score).sum();
            against.push(json!({
                "opponent": o.spec,
                "opponent_rating": o.rating,
                "games": played,
                "score": if played > 0 { Some(points / played as f64) } else { None },
            }));
            results.push(outcomes);
        }
        if missing > 0 {
            continue;
        }
        let games = results.iter().map(|r| r.len() * 2).sum::<usize>();
        rows.push(match rate_on_scale(&opponents, &results, nu, tau, stretch)? {
            Rated::Estimate { rating, own_se, model_se, total_se } => json!({
                "spec": spec,
                "rating": rating,
                "std_error_games": own_se,
                "std_error_model": model_se,
                "std_error": total_se,
                "ci95": [rating - 1.96 * total_se, rating + 1.96 * total_se],
                "games": games,
                "against": against,
            }),
            // Won or lost every game: no estimate, one end of the interval.
            Rated::Bound { direction, bound } => json!({
                "spec": spec,
                "rating": null,
                "unbounded": match direction { Direction::Up => "up", Direction::Down => "down" },
                "std_error_games": null,
                "std_error_model": null,
                "std_error": null,
                "ci95": match direction { Direction::Up => json!([bound, null]), Direction::Down => json!([null, bound]) },
                "games": games,
                "against": against,
            }),
        });
    }
    if missing > 0 {
        eprintln!(
            "rate {game}: {missing} cells are missing from {} (other shards' share?): rerun without --shard to fit",
            out.display()
        );
        return Ok(None);
    }
    Ok(Some(json!({
        "game": game,
        "anchor": calibration.anchor,
        "calibration": calibration.code_version,
        "draw_nu": nu,
        "model_error": tau,
        "seed": seed,
        "games_per_pairing": pairs * 2,
        "opponents": opponents.iter().map(|o| json!({"spec": o.spec, "rating": o.rating, "std_error": o.std_error})).collect::<Vec<_>>(),
        "agents": rows,
    })))
}

/// Runs `cargo xtask rate`.
pub fn run(args: Args) -> TaskResult {
    let out = args.run.out.clone().unwrap_or_else(|| PathBuf::from("target/rate").join(&args.game));
    let Some(report) = rate_specs(&args.game, &args.specs, args.rungs_from, &args.run, &out)? else {
        return Ok(());
    };
    write_atomic(&out.join("rate.json"), &serde_json::to_string_pretty(&report)?)?;
    if args.run.json {
        println!("{report}");
    } else {
        println!("{}", ratings_table(&report));
        println!("{}", scores_table(&report));
    }
    Ok(())
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// The agents' ratings: a markdown table.
pub(crate) fn ratings_table(report: &Value) -> String {
    let mut s = format!(
        "{} on the dial's scale ({}), {} games per pairing with every rung\n\n\
         | agent | rating | 95% interval | ± its games only | ± model error | games |\n| --- | ---: | --- | ---: | ---: | ---: |\n",
        report["game"].as_str().unwrap_or("?"),
        report["anchor"].as_str().unwrap_or("?"),
        report["games_per_pairing"]
    );
    for a in report["agents"].as_array().into_iter().flatten() {
        let spec = a["spec"].as_str().unwrap_or("");
        let (low, high) = (&a["ci95"][0], &a["ci95"][1]);
        s += &match a["unbounded"].as_str() {
            // Won every game: a lower bound only.
            Some("up") => format!("| {spec} | ≥ {:.0} | {:.0} … ∞ | – | – | {} |\n", num(low), num(low), a["games"]),
            Some(_) => format!("| {spec} | ≤ {:.0} | −∞ … {:.0} | – | – | {} |\n", num(high), num(high), a["games"]),
            None => format!(
                "| {spec} | {:.0} | {:.0} … {:.0} | {:.0} | {:.0} | {} |\n",
                num(&a["rating"]),
                num(low),
                num(high),
                1.96 * num(&a["std_error_games"]),
                // Reports written before the model error was carried.
                1.96 * a["std_error_model"].as_f64().unwrap_or(0.0),
                a["games"]
            ),
        };
    }
    s
}

/// Each agent's score against each rung: a markdown table, rungs as rows.
pub(crate) fn scores_table(report: &Value) -> String {
    let agents: Vec<&Value> = report["agents"].as_array().map(|v| v.iter().collect()).unwrap_or_default();
    let heads: Vec<&str> = agents.iter().map(|a| a["spec"].as_str().unwrap_or("")).collect();
    let mut s = format!(
        "Scores against each rung (its calibrated rating in brackets)\n\n| rung | {} |\n| --- |{}\n",
        heads.join(" | "),
        " ---: |".repeat(heads.len())
    );
    for (i, o) in report["opponents"].as_array().into_iter().flatten().enumerate() {
        let cells: Vec<String> = agents
            .iter()
            .map(|a| match a["against"][i]["score"].as_f64() {
                Some(x) => format!("{:.1}%", 100.0 * x),
                None => "–".into(),
            })
            .collect();
        s += &format!("| {} ({:.0}) | {} |\n", o["spec"].as_str().unwrap_or(""), num(&o["rating"]), cells.join(" | "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use strength::pairing::GameScore;

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
            rate_on_scale(&rungs(1.0), &results, 0.4, 50.0, 1.0).unwrap()
        else {
            panic!("no estimate")
        };
        let Rated::Estimate { rating: r2, own_se: o2, model_se: m2, total_se: t2 } =
            rate_on_scale(&rungs(2.0), &results, 0.4, 100.0, 2.0).unwrap()
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
        let gap = |k: f64, stretch: f64| match rate_on_scale(&one(k), &strong, 0.4, 0.0, stretch).unwrap() {
            Rated::Estimate { rating, .. } => rating - 500.0 * k,
            Rated::Bound { .. } => panic!("no estimate"),
        };
        let (g1, g2, naive) = (gap(1.0, 1.0), gap(2.0, 2.0), gap(2.0, 1.0));
        assert!(g1 > 50.0 && (2.0 * g1 - g2).abs() < 1e-6 * g2, "{g1} {g2}");
        assert!((naive - g1).abs() < 1e-6 * g1, "{naive} {g1}");
        // A bound scales the same way.
        let (Rated::Bound { bound: b1, .. }, Rated::Bound { bound: b2, .. }) = (
            rate_on_scale(&rungs(1.0), &[pairs(1.0, 10), pairs(1.0, 10)], 0.4, 0.0, 1.0).unwrap(),
            rate_on_scale(&rungs(2.0), &[pairs(1.0, 10), pairs(1.0, 10)], 0.4, 0.0, 2.0).unwrap(),
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
            rate_against(&opponents, &[even.clone()], 1.0, 0.0).unwrap()
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

    #[test]
    fn perfect_tictactoe_play_rates_at_the_top_of_the_ladder() {
        let dir = std::env::temp_dir().join(format!("rate-test-{}", std::process::id()));
        let settings = RunSettings { games: 20, seed: 3, threads: None, out: None, shard: None, json: false };
        let report =
            rate_specs("tictactoe", &["alphabeta:depth=9".to_string()], None, &settings, &dir).unwrap().unwrap();
        let a = &report["agents"][0];
        let top = report["opponents"].as_array().unwrap().iter().map(|o| num(&o["rating"])).fold(f64::MIN, f64::max);
        // Perfect play is the ladder's top rung: it rates near it and scores
        // at least half against every rung (it never loses).
        assert!((num(&a["rating"]) - top).abs() < 200.0, "{a}");
        assert!(a["against"].as_array().unwrap().iter().all(|g| num(&g["score"]) >= 0.5), "{a}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
