//! `cargo xtask human rate`: `human:X` rated on the chess dial's ladder.
//!
//! Each `human:X` (one per rating band's middle, with `pick=sample` and
//! `pick=mode`) is rated by [`rate`](crate::rate) against the
//! committed chess ladder; the result is the mapping from the Lichess rating
//! imitated to the dial's Elo (a measurement, not an assumption), with a
//! least-squares line through it.

use std::path::PathBuf;

use serde_json::{Value, json};

use search_core::rng::derive_seed;
use strength::pairing::PairOutcome;
use tournament::matches::{MatchJob, Openings};
use tournament::runner::Job;

use crate::TaskResult;
use crate::rate::{RunSettings, rate_specs};
use taskkit::{RunConfig, RunKey, Scale, fnv, open_out, run_jobs, write_atomic};

/// Arguments of `cargo xtask human rate`.
#[derive(Debug, Clone, clap::Args)]
pub struct RateArgs {
    /// The ratings imitated (repeat or separate by commas; default the bands' middles, 900 to 2100).
    #[arg(long = "rating", value_delimiter = ',')]
    pub ratings: Vec<u32>,
    /// The picks rated: sample, mode (repeat or separate by commas; default both).
    #[arg(long = "pick", value_delimiter = ',')]
    pub picks: Vec<String>,
    /// The games and where they are kept (default `target/human-rate/MODEL`, MODEL the embedded
    /// human model's fingerprint: another model's games are not reused).
    #[command(flatten)]
    pub run: RunSettings,
}

impl RateArgs {
    /// The ratings imitated: `--rating`, else [`DEFAULT_RATINGS`].
    pub fn ratings(&self) -> Vec<u32> {
        if self.ratings.is_empty() { DEFAULT_RATINGS.to_vec() } else { self.ratings.clone() }
    }

    /// The picks rated: `--pick`, else both `sample` and `mode`.
    pub fn picks(&self) -> Vec<String> {
        if self.picks.is_empty() { vec!["sample".into(), "mode".into()] } else { self.picks.clone() }
    }
}

/// The default ratings: the middles of the bands 800–999 … 2000–2199.
pub const DEFAULT_RATINGS: [u32; 7] = [900, 1100, 1300, 1500, 1700, 1900, 2100];

/// The embedded human model's fingerprint (16 hex digits of FNV-1a over its
/// JSON): games of `human:X` are kept apart by model, since the same spec
/// plays differently under another model.
fn model_tag() -> String {
    format!("{:016x}", games_chess::human::fnv1a(games_chess::human::MODEL_JSON.as_bytes()))
}

/// The spec of `human:rating` with `pick`.
fn human_spec(rating: u32, pick: &str) -> String {
    if pick == "sample" { format!("human:{rating}") } else { format!("human:{rating},pick={pick}") }
}

/// The least-squares line `dial = a + b·(rating − 1500)` through the points.
fn line(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| {
        let b = sxy / sxx;
        (my + b * (1500.0 - mx), b)
    })
}

/// Runs `cargo xtask human rate`.
pub fn rate(args: RateArgs) -> TaskResult {
    let (ratings, picks) = (args.ratings(), args.picks());
    for p in &picks {
        if p != "sample" && p != "mode" {
            return Err(format!("--pick {p:?}: expected sample or mode").into());
        }
    }
    let players: Vec<(u32, &str)> = picks.iter().flat_map(|p| ratings.iter().map(move |&x| (x, p.as_str()))).collect();
    let specs: Vec<String> = players.iter().map(|&(x, p)| human_spec(x, p)).collect();
    let out = args.run.out.clone().unwrap_or_else(|| PathBuf::from("target/human-rate").join(model_tag()));
    let Some(rated) = rate_specs("chess", &specs, None, &args.run, &out)? else {
        return Ok(());
    };
    let mut mapping = Vec::new();
    for (&(x, pick), a) in players.iter().zip(&rated.agents) {
        mapping.push(json!({
            "rating": x,
            "pick": pick,
            "dial_elo": a.rating,
            "ci95": a.ci95,
            "std_error_games": a.std_error_games,
            "games": a.games,
        }));
    }
    let lines: Vec<Value> = picks
        .iter()
        .filter_map(|pick| {
            let pts: Vec<(f64, f64)> = mapping
                .iter()
                .filter(|m| m["pick"] == pick.as_str())
                .filter_map(|m| Some((m["rating"].as_f64()?, m["dial_elo"].as_f64()?)))
                .collect();
            line(&pts).map(|(a, b)| json!({"pick": pick, "dial_at_1500": a, "slope": b}))
        })
        .collect();
    let mut report = serde_json::to_value(&rated)?;
    report["mapping"] = Value::from(mapping);
    report["lines"] = Value::from(lines);
    write_atomic(&out.join("human-rate.json"), &serde_json::to_string_pretty(&report)?)?;
    if args.run.json {
        println!("{report}");
    } else {
        println!("{}\n{}", markdown_rate(&report), rated.scores_table());
    }
    Ok(())
}

/// The mapping of `human rate`: the Lichess rating imitated → the dial's Elo.
pub fn markdown_rate(report: &Value) -> String {
    let num = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let mut s = format!(
        "Lichess rating imitated → the chess dial's Elo ({}), {} games per pairing with every rung\n\n\
         | human:X | pick | dial Elo | 95% interval | ± its games only | games |\n| ---: | --- | ---: | --- | ---: | ---: |\n",
        report["anchor"].as_str().unwrap_or("?"),
        report["games_per_pairing"]
    );
    for m in report["mapping"].as_array().into_iter().flatten() {
        s += &format!(
            "| {} | {} | {:.0} | {:.0} … {:.0} | {:.0} | {} |\n",
            m["rating"],
            m["pick"].as_str().unwrap_or(""),
            num(&m["dial_elo"]),
            num(&m["ci95"][0]),
            num(&m["ci95"][1]),
            1.96 * num(&m["std_error_games"]),
            m["games"]
        );
    }
    for l in report["lines"].as_array().into_iter().flatten() {
        s += &format!(
            "\npick={}: dial Elo ≈ {:.0} + {:.3} × (Lichess rating − 1500)",
            l["pick"].as_str().unwrap_or(""),
            num(&l["dial_at_1500"]),
            num(&l["slope"])
        );
    }
    s.push('\n');
    s
}

/// Arguments of `cargo xtask human round-robin`.
#[derive(Debug, Clone, clap::Args)]
pub struct RoundRobinArgs {
    /// The ratings imitated (repeat or separate by commas; default 900,1200,1500,1800,2100).
    #[arg(long = "rating", value_delimiter = ',')]
    pub ratings: Vec<u32>,
    /// How each player picks its move: sample or mode.
    #[arg(long, default_value = "sample")]
    pub pick: String,
    /// The games and where they are kept (default `target/human-round-robin`; each pairing's games
    /// under a name with the embedded model's fingerprint, so another model's are not reused); the
    /// goal's measurement plays `--games 200`.
    #[command(flatten)]
    pub run: RunSettings,
}

impl RoundRobinArgs {
    /// The ratings, sorted: `--rating`, else the temper anchors' defaults.
    pub fn ratings(&self) -> Vec<u32> {
        let mut r =
            if self.ratings.is_empty() { crate::human_temper::DEFAULT_ANCHORS.to_vec() } else { self.ratings.clone() };
        r.sort_unstable();
        r.dedup();
        r
    }
}

/// Runs `cargo xtask human round-robin`: every pairing of `human:X` for the
/// ratings given, the games saved as cells (resumable), the players rated
/// by maximum likelihood with the middle one anchored at its label, and
/// the fitted gaps set against the labels' gaps.
pub fn round_robin(args: RoundRobinArgs) -> TaskResult {
    if args.pick != "sample" && args.pick != "mode" {
        return Err(format!("--pick {:?}: expected sample or mode", args.pick).into());
    }
    let ratings = args.ratings();
    let RunSettings { games, seed: master, threads, shard, json: as_json, .. } = args.run;
    if ratings.len() < 2 || games == 0 {
        return Err("a round robin needs at least two ratings and one game".into());
    }
    let specs: Vec<String> = ratings.iter().map(|&x| human_spec(x, &args.pick)).collect();
    super::pool::start_workers(threads, &specs)?;
    let arena = registry::game("chess")?.setup()?;
    let pairs = games.div_ceil(2);
    let seed = derive_seed(master, fnv("openings"));
    let openings = Openings { list: arena.random_openings(pairs, seed)?, source: format!("random, seed {seed}") };
    let mut pairings = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            pairings.push((i, j));
        }
    }
    let tag = model_tag();
    let jobs: Vec<MatchJob> = pairings
        .iter()
        .map(|&(i, j)| {
            let name = format!("{}-{}-model-{tag}", ratings[j], ratings[i]);
            MatchJob::new(arena.clone(), name, &specs[j], &specs[i], openings.clone(), pairs)
        })
        .collect();
    let key = RunKey { seed: master, scale: Scale::Default };
    let out = args.run.out.clone().unwrap_or_else(|| PathBuf::from("target/human-round-robin"));
    let names: Vec<String> = jobs.iter().map(|j| j.name().to_string()).collect();
    let share = shard.map_or("all".to_string(), |s| s.to_string());
    let _lock = open_out(&out, key, &names, &[share])?;
    let config = RunConfig { label: "round-robin", key, out: out.clone(), shard };
    run_jobs(&jobs.iter().map(|j| j as &dyn Job).collect::<Vec<_>>(), &config)?;
    // Ratings on the labels' scale: Elo's expected score, a draw counted
    // as half a win and half a loss (Bradley–Terry on scores; the ladder's
    // draw model would widen the gaps, see `strength::rating`), the middle
    // player anchored at its label.
    let mid = ratings.len() / 2;
    let mut counts = Vec::new();
    let mut scores = Vec::new();
    for (job, &(i, j)) in jobs.iter().zip(&pairings) {
        let played: Vec<PairOutcome> = job.load(&out, key).into_iter().flatten().flatten().collect();
        if played.len() < pairs {
            if shard.is_some() {
                eprintln!(
                    "round-robin: {} of {pairs} pairs of {} saved (other shards' share)",
                    played.len(),
                    job.name()
                );
                return Ok(());
            }
            return Err(format!("{}: {} of {pairs} pairs saved", job.name(), played.len()).into());
        }
        let t = tournament::summary::trinomial(&played);
        let (w, d, l) = (t.wins() as f64, t.draws() as f64, t.losses() as f64);
        let gap = f64::from(ratings[j]) - f64::from(ratings[i]);
        scores.push(json!({"a": specs[j], "b": specs[i], "games": t.games(), "wins": w, "draws": d,
            "losses": l, "score": (w + d / 2.0) / (w + d + l), "elo_expected": strength::elo::elo_to_score(gap)}));
        counts.push(strength::rating::PairResult::new(j, i, w + d / 2.0, 0.0, l + d / 2.0));
    }
    let options = strength::rating::FitOptions::new().anchor(mid, f64::from(ratings[mid]));
    let (fitted, virtual_draws) = tournament::ladder_fit::fit_bounded(specs.len(), &counts, &options)?;
    let players: Vec<Value> = (0..specs.len())
        .map(|i| {
            let p = fitted.player(i);
            json!({"spec": specs[i], "label": ratings[i], "rating": p.rating,
                "ci95": [p.interval.0, p.interval.1]})
        })
        .collect();
    let last = specs.len() - 1;
    let span_labels = f64::from(ratings[last] - ratings[0]);
    let span_fitted = fitted.rating(last) - fitted.rating(0);
    let report = json!({
        "pick": args.pick, "games_per_pairing": 2 * pairs, "seed": master, "openings": openings.source,
        "players": players, "pairings": scores, "gap_ratio": span_fitted / span_labels,
        "virtual_draws": virtual_draws,
    });
    write_atomic(&out.join("round-robin.json"), &serde_json::to_string_pretty(&report)?)?;
    if as_json {
        println!("{report}");
    } else {
        println!("{}", markdown_round_robin(&report));
    }
    Ok(())
}

/// The round robin's report as Markdown: the fitted ratings, then each
/// pairing's score against Elo's prediction.
pub fn markdown_round_robin(report: &Value) -> String {
    let num = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let mut s = format!(
        "human:X round robin (pick={}), {} games per pairing; ratings by maximum likelihood, the middle player \
         anchored at its label (Elo's expected score, a draw half a win)\n\n| human:X | fitted | 95% interval | fitted − label |\n| ---: | ---: | --- | ---: |\n",
        report["pick"].as_str().unwrap_or("?"),
        report["games_per_pairing"]
    );
    for p in report["players"].as_array().into_iter().flatten() {
        s += &format!(
            "| {} | {:.0} | {:.0} … {:.0} | {:+.0} |\n",
            p["label"],
            num(&p["rating"]),
            num(&p["ci95"][0]),
            num(&p["ci95"][1]),
            num(&p["rating"]) - num(&p["label"])
        );
    }
    s += &format!(
        "\nfitted span / labels' span: {:.2} (goal 0.75 to 1.25)\n\n| pairing | games | score | Elo predicts |\n| --- | ---: | ---: | ---: |\n",
        num(&report["gap_ratio"])
    );
    for p in report["pairings"].as_array().into_iter().flatten() {
        s += &format!(
            "| {} vs {} | {} | {:.1}% | {:.1}% |\n",
            p["a"].as_str().unwrap_or(""),
            p["b"].as_str().unwrap_or(""),
            p["games"],
            100.0 * num(&p["score"]),
            100.0 * num(&p["elo_expected"])
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_robin_saves_its_games_and_rates_its_players() {
        let dir = std::env::temp_dir().join(format!("human-round-robin-test-{}", std::process::id()));
        let run = RunSettings { games: 2, seed: 4, threads: None, out: Some(dir.clone()), shard: None, json: true };
        let args = RoundRobinArgs { ratings: vec![1800, 1200], pick: "sample".into(), run };
        round_robin(args.clone()).unwrap();
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("round-robin.json")).unwrap()).unwrap();
        let players = report["players"].as_array().unwrap();
        assert_eq!(players.len(), 2);
        // The first player (the middle of two) is the anchor, at its label.
        assert_eq!((players[1]["label"].as_u64(), players[1]["rating"].as_f64()), (Some(1800), Some(1800.0)));
        assert_eq!(report["pairings"][0]["games"].as_u64(), Some(2));
        assert!(report["gap_ratio"].as_f64().unwrap().is_finite());
        // A second run loads the saved games: the same report.
        round_robin(args).unwrap();
        let again: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("round-robin.json")).unwrap()).unwrap();
        assert_eq!(report, again);
        let _ = std::fs::remove_dir_all(&dir);
        // A pick that is neither sample nor mode, or one rating: refused
        // before any game.
        let bad = RoundRobinArgs { pick: "best".into(), ..bad_base() };
        assert!(round_robin(bad).is_err());
        assert!(round_robin(RoundRobinArgs { ratings: vec![1500], ..bad_base() }).is_err());
    }

    fn bad_base() -> RoundRobinArgs {
        let run = RunSettings { games: 2, seed: 1, threads: None, out: None, shard: None, json: true };
        RoundRobinArgs { ratings: vec![1500, 1800], pick: "sample".into(), run }
    }

    #[test]
    fn the_line_through_the_points() {
        let (a, b) = line(&[(900.0, 100.0), (2100.0, 400.0)]).unwrap();
        assert!((a - 250.0).abs() < 1e-9 && (b - 0.25).abs() < 1e-12);
        assert!(line(&[(900.0, 1.0)]).is_none());
    }

    #[test]
    fn specs_name_the_pick_only_when_it_is_not_the_default() {
        assert_eq!(human_spec(1500, "sample"), "human:1500");
        assert_eq!(human_spec(900, "mode"), "human:900,pick=mode");
    }
}
