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
//! from one fit). The games live in the [`reproduce`](crate::reproduce) cell
//! store like every match: seeded, resumable, shardable, the same for any
//! thread count.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use strength::pairing::PairOutcome;
use strength::rating::{FitOptions, Results};

use super::arena::{arena_of, load_calibration};
use super::matches::MatchJob;
use super::report::trinomial;
use crate::TaskResult;
use crate::reproduce::{Experiment, RunConfig, RunKey, Scale, Shard, fnv, open_out, run_cells, write_atomic};

/// Arguments of `cargo xtask rate`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// The agents rated (specs, as in `match`).
    pub specs: Vec<String>,
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
    /// Worker threads (results do not depend on it).
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

/// An agent's rating from its results against anchored opponents: the
/// estimate, the standard error of its own games, and the total standard
/// error with the opponents' uncertainty carried through.
fn rate_against(opponents: &[Opponent], results: &[Vec<PairOutcome>], nu: f64) -> Result<(f64, f64, f64), String> {
    let fit = |shift: Option<usize>| -> Result<(f64, f64), String> {
        let n = opponents.len();
        let mut r = Results::new(n + 1);
        let mut options = FitOptions::new().fixed_draw_nu(nu);
        for (i, (o, pairs)) in opponents.iter().zip(results).enumerate() {
            let t = trinomial(pairs);
            r.add_counts(n, i, t.wins() as f64, t.draws() as f64, t.losses() as f64).map_err(|e| e.to_string())?;
            let moved = if shift == Some(i) { 1.0 } else { 0.0 };
            options = options.anchor(i, o.rating + moved);
        }
        let ratings = r.fit(&options).map_err(|e| e.to_string())?;
        let p = ratings.player(n);
        Ok((p.rating, p.std_error))
    };
    let (rating, own_se) = fit(None)?;
    let mut var = own_se * own_se;
    for (i, o) in opponents.iter().enumerate() {
        let d = fit(Some(i))?.0 - rating;
        var += (d * o.std_error).powi(2);
    }
    Ok((rating, own_se, var.sqrt()))
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
    settings: &RunSettings,
    out: &Path,
) -> Result<Option<Value>, String> {
    let RunSettings { games, seed, shard, threads, .. } = *settings;
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global().map_err(|e| e.to_string())?;
    }
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    if specs.is_empty() {
        return Err("no agent to rate".into());
    }
    let calibration = load_calibration(game)?
        .ok_or_else(|| format!("no calibration of {game}: run `cargo xtask calibrate {game}`"))?;
    let nu = calibration.draw_nu.ok_or_else(|| format!("the {game} calibration has no draw parameter"))?;
    let opponents: Vec<Opponent> = calibration
        .rungs
        .iter()
        .filter(|r| !r.spec.starts_with("uci:"))
        .map(|r| Opponent { spec: r.spec.clone(), rating: r.rating, std_error: (r.high - r.low) / 2.0 / 1.96 })
        .collect();
    let probe = arena_of(game)?;
    for spec in specs {
        probe.check_spec(spec)?;
    }
    let pairs = games.div_ceil(2);
    let opening_seed = search_core::rng::derive_seed(seed, fnv("rate openings"));
    let openings = probe.random_openings(pairs, opening_seed)?;
    let mut jobs = Vec::new();
    for spec in specs {
        for o in &opponents {
            // One cell directory per pairing, named by its two specs (a few
            // dozen names for the life of the process).
            let name = format!("{game}-{:016x}", fnv(&format!("{spec} vs {}", o.spec)));
            jobs.push(MatchJob::new(
                game,
                Box::leak(name.into_boxed_str()),
                spec.clone(),
                o.spec.clone(),
                openings.clone(),
                format!("random, seed {opening_seed}"),
                pairs,
            )?);
        }
    }
    let key = RunKey { seed, scale: Scale::Default };
    let names: Vec<String> = jobs.iter().map(|j| j.name().to_string()).collect();
    let share = shard.map_or("all".to_string(), |s| s.to_string());
    let _lock = open_out(out, key, &names, &[share])?;
    let config = RunConfig { label: "rate", key, out: out.to_path_buf(), shard };
    eprintln!(
        "rate {game}: {} agents against {} rungs, {} pairs each, cells in {}",
        specs.len(),
        opponents.len(),
        pairs,
        out.display()
    );
    let selected: Vec<&dyn Experiment> = jobs.iter().map(|j| j as &dyn Experiment).collect();
    run_cells(&selected, &config).map_err(|e| e.to_string())?;

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
        let (rating, own_se, total_se) = rate_against(&opponents, &results, nu)?;
        rows.push(json!({
            "spec": spec,
            "rating": rating,
            "std_error_games": own_se,
            "std_error": total_se,
            "ci95": [rating - 1.96 * total_se, rating + 1.96 * total_se],
            "games": results.iter().map(|r| r.len() * 2).sum::<usize>(),
            "against": against,
        }));
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
        "seed": seed,
        "games_per_pairing": pairs * 2,
        "opponents": opponents.iter().map(|o| json!({"spec": o.spec, "rating": o.rating, "std_error": o.std_error})).collect::<Vec<_>>(),
        "agents": rows,
    })))
}

/// Runs `cargo xtask rate`.
pub fn run(args: Args) -> TaskResult {
    let out = args.run.out.clone().unwrap_or_else(|| PathBuf::from("target/rate").join(&args.game));
    let Some(report) = rate_specs(&args.game, &args.specs, &args.run, &out)? else {
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
         | agent | rating | 95% interval | ± its games only | games |\n| --- | ---: | --- | ---: | ---: |\n",
        report["game"].as_str().unwrap_or("?"),
        report["anchor"].as_str().unwrap_or("?"),
        report["games_per_pairing"]
    );
    for a in report["agents"].as_array().into_iter().flatten() {
        s += &format!(
            "| {} | {:.0} | {:.0} … {:.0} | {:.0} | {} |\n",
            a["spec"].as_str().unwrap_or(""),
            num(&a["rating"]),
            num(&a["ci95"][0]),
            num(&a["ci95"][1]),
            1.96 * num(&a["std_error_games"]),
            a["games"]
        );
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
        let (r, own, total) = rate_against(&opponents, &[weak, pairs(0.5, 20)], 1.0).unwrap();
        assert!(r > 0.0 && r < 400.0, "{r}");
        assert!(own > 0.0 && total > own, "{own} {total}");
    }

    #[test]
    fn an_even_score_against_one_rung_gives_its_rating_and_adds_its_uncertainty() {
        let opponents = vec![Opponent { spec: "a".into(), rating: 700.0, std_error: 80.0 }];
        let mut even = pairs(1.0, 15);
        even.extend(pairs(0.0, 15));
        let (r, own, total) = rate_against(&opponents, &[even], 1.0).unwrap();
        assert!((r - 700.0).abs() < 1e-6, "{r}");
        // Moving the only rung moves the estimate one for one.
        assert!((total * total - own * own - 80.0 * 80.0).abs() < 1e-3 * total * total, "{own} {total}");
    }

    #[test]
    fn perfect_tictactoe_play_rates_at_the_top_of_the_ladder() {
        let dir = std::env::temp_dir().join(format!("rate-test-{}", std::process::id()));
        let settings = RunSettings { games: 20, seed: 3, threads: None, out: None, shard: None, json: false };
        let report = rate_specs("tictactoe", &["alphabeta:depth=9".to_string()], &settings, &dir).unwrap().unwrap();
        let a = &report["agents"][0];
        let top = report["opponents"].as_array().unwrap().iter().map(|o| num(&o["rating"])).fold(f64::MIN, f64::max);
        // Perfect play is the ladder's top rung: it rates near it and scores
        // at least half against every rung (it never loses).
        assert!((num(&a["rating"]) - top).abs() < 200.0, "{a}");
        assert!(a["against"].as_array().unwrap().iter().all(|g| num(&g["score"]) >= 0.5), "{a}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
