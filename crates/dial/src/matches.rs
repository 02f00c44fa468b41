//! `cargo xtask match GAME A B`: paired games between two agents.
//!
//! Pairs of games (same opening, colours swapped) are grouped into cells of
//! the library's cell store ([`tournament::store`]): each cell's seed comes
//! from the master seed and its id, so the results do not depend on the
//! thread count; finished cells are saved as they complete (an interrupted
//! match resumes, a longer one reuses the games already played), and
//! `--shard I/N` plays a share. With `--sprt`, cells run in waves and the
//! match stops at the first cell, in cell order, at which the test decides:
//! the verdict is the same for any thread count too.

use std::path::PathBuf;

use serde_json::json;
use strength::dial::{Dial, DialPrediction};
use strength::pairing::PairOutcome;
use strength::spec::AgentSpec;
use tournament::matches::{AnySetup, MatchJob, Openings};
use tournament::runner::Job;
use tournament::summary::{MatchSummary, SprtSettings, sprt_stop};

use crate::TaskResult;
use taskkit::threads::parse_threads;
use taskkit::{RunConfig, RunKey, Scale, Shard, fnv, open_out, run_jobs, write_atomic};

/// Arguments of `cargo xtask match`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// Agent A, e.g. `alphabeta:depth=6`, `boltzmann:depth=3,theta=2`, `elo:1500`, `random`
    /// (chess also `uci:PATH[,nodes=N|depth=D|movetime=MS][,Option=value...]`).
    pub a: String,
    /// Agent B.
    pub b: String,
    /// Games to play (rounded up to whole pairs: same opening, colours swapped).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Openings, one per line: a move line in the game's notation (chess: UCI moves or a FEN).
    /// Default: balanced random openings drawn from the seed.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Sequential probability ratio test `elo0,elo1` (logistic Elo of A over B); stops when it decides.
    #[arg(long, value_parser = parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// The SPRT's false-positive rate α.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,
    /// The SPRT's false-negative rate β.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,
    /// Master seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads, 1 to 4 per available core (default: one per core). Results do not depend on it;
    /// with a `uci:` engine on a clock (movetime), at most one per core.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Output directory of the saved games (default: target/match/GAME-HASH, HASH of the setup); rerun to resume.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play only a deterministic share `I/N` of the cells.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// A second agent that also plays B, on the same openings and seeds: A is compared with it
    /// pair by pair (score and Elo difference with 95% intervals, LOS).
    #[arg(long, conflicts_with = "sprt")]
    pub baseline: Option<String>,
}

impl Args {
    /// The SPRT of `--sprt elo0,elo1` with `--alpha` and `--beta` (none
    /// without `--sprt`).
    pub fn sprt_settings(&self) -> Option<SprtSettings> {
        self.sprt.map(|(elo0, elo1)| SprtSettings { elo0, elo1, alpha: self.alpha, beta: self.beta })
    }
}

/// The value parser of `--sprt elo0,elo1`: two finite Elo values, the
/// first below the second.
fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected elo0,elo1, e.g. 0,10")?;
    let a: f64 = a.trim().parse().map_err(|_| format!("bad elo0 {a:?}"))?;
    let b: f64 = b.trim().parse().map_err(|_| format!("bad elo1 {b:?}"))?;
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(format!("need finite elo0 < elo1, got {a},{b}"));
    }
    Ok((a, b))
}

/// The default master seed of `match`.
pub const DEFAULT_SEED: u64 = 1;

/// The openings of a match: from the file, or balanced random ones.
fn openings(arena: &dyn AnySetup, file: Option<&PathBuf>, count: usize, seed: u64) -> Result<Openings, String> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let list = arena.parse_openings(&text).map_err(|(line, e)| format!("{}:{line}: {e}", path.display()))?;
            if list.is_empty() {
                return Err(format!("{}: no openings (one per line)", path.display()));
            }
            let source = format!("file {:016x}", fnv(&list.join("\n")));
            Ok(Openings { list, source })
        }
        None => {
            let seed = search_core::rng::derive_seed(seed, fnv("openings"));
            let list = arena.random_openings(count, seed).map_err(|e| e.to_string())?;
            Ok(Openings { list, source: format!("random, seed {seed}") })
        }
    }
}

/// Runs `cargo xtask match`.
pub fn run(args: Args) -> TaskResult {
    let sprt = args.sprt_settings();
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let arena = registry::game(&args.game)?.setup()?;
    if args.baseline.is_some() && sprt.is_some() {
        return Err("--baseline and --sprt do not go together (the SPRT stops A's match alone)".into());
    }
    let agents: Vec<String> =
        [Some(&args.a), Some(&args.b), args.baseline.as_ref()].into_iter().flatten().cloned().collect();
    for spec in &agents {
        arena.check_spec(spec).map_err(|e| format!("{e}\nagent kinds for {}:\n{}", args.game, kinds_help(&*arena)))?;
    }
    super::pool::start_workers(args.threads, &agents)?;
    let pairs = args.games.div_ceil(2);
    let openings = openings(&*arena, args.openings.as_ref(), pairs, args.seed)?;
    let baseline = args
        .baseline
        .as_ref()
        .map(|spec| MatchJob::new(arena.clone(), "baseline", spec, &args.b, openings.clone(), pairs));
    let job = MatchJob::new(arena.clone(), "match", &args.a, &args.b, openings, pairs);
    let key = RunKey { seed: args.seed, scale: Scale::Default };
    let out = args.out.clone().unwrap_or_else(|| {
        let setup = format!("{} {}", job.params(Scale::Default), args.seed);
        PathBuf::from("target/match").join(format!("{}-{:016x}", args.game, fnv(&setup)))
    });
    let share = args.shard.map_or("all".to_string(), |s| s.to_string());
    let names: Vec<String> = std::iter::once(&job).chain(&baseline).map(|j| j.name().to_string()).collect();
    let _lock = open_out(&out, key, &names, &[share])?;
    let config = RunConfig { label: "match", key, out: out.clone(), shard: args.shard };
    let total = job.cell_count();
    eprintln!("match: {} vs {} on {}, {} pairs, cells in {}", args.a, args.b, args.game, pairs, out.display());
    if let Some(b) = &baseline {
        eprintln!("match: baseline {} vs {} on the same openings and seeds", b.a(), args.b);
    }
    // Without SPRT every cell at once; with it, waves of a few cells per
    // thread, stopping once a prefix of the cells decides.
    let wave = if sprt.is_some() { (rayon::current_num_threads() * 2).max(2) } else { total };
    let mut decided_at = None;
    job.offer(0);
    // The baseline (never with SPRT) has every cell offered from the start.
    let jobs: Vec<&dyn Job> = std::iter::once(&job).chain(&baseline).map(|j| j as &dyn Job).collect();
    while job.offered() < total {
        job.offer((job.offered() + wave).min(total));
        run_jobs(&jobs, &config)?;
        if let Some(sprt) = &sprt {
            let cells = job.load(&out, key);
            if let Some(i) = sprt_stop(&cells, sprt) {
                decided_at = Some(i);
                break;
            }
        }
    }
    let cells = job.load(&out, key);
    let used = decided_at.map_or(cells.len(), |i| i + 1);
    let missing = cells[..used].iter().filter(|c| c.is_none()).count();
    let results: Vec<PairOutcome> = cells[..used].iter().flatten().flatten().copied().collect();
    let summary = MatchSummary::new(&results, sprt.as_ref());
    let mut report = summary.report(&args.game, &args.a, &args.b);
    let mut json = summary.json(&args.game, &args.a, &args.b, args.seed, missing);
    let games = 2 * results.len() as u64;
    let observed = results.iter().map(PairOutcome::score).sum::<f64>() / games.max(1) as f64;
    if let Some(p) = dial_prediction(&args.game, &args.a, &args.b, games)? {
        let inside = p.low <= observed && observed <= p.high;
        report.push_str(&format!(
            "\ndial prediction for A: {:.3} (95% over {games} games: {:.3} .. {:.3}, model error included); \
             observed {observed:.3}, {}\n",
            p.score,
            p.low,
            p.high,
            if inside { "inside" } else { "outside" }
        ));
        json["dial_prediction"] = json!({
            "score": p.score,
            "ci95": [p.low, p.high],
            "ci95_without_model_error": [p.without_model_error.0, p.without_model_error.1],
            "observed": observed,
            "inside": inside,
        });
    }
    if let Some(b) = &baseline {
        let base_cells = b.load(&out, key);
        let base: Vec<PairOutcome> = base_cells.iter().flatten().flatten().copied().collect();
        let base_summary = MatchSummary::new(&base, None);
        report.push_str(&format!("\nbaseline\n{}", base_summary.report(&args.game, b.a(), &args.b)));
        json["baseline"] =
            base_summary.json(&args.game, b.a(), &args.b, args.seed, base_cells.iter().filter(|c| c.is_none()).count());
        // Only the cells both matches hold, pair by pair.
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for (x, y) in cells.iter().zip(&base_cells) {
            if let (Some(x), Some(y)) = (x, y) {
                ours.extend(x.iter().map(PairOutcome::score));
                theirs.extend(y.iter().map(PairOutcome::score));
            }
        }
        let c = strength::paired::PairedComparison::new(&ours, &theirs).map_err(|e| e.to_string())?;
        report.push_str(&format!(
            "\nA − baseline   {} pairs, {} differ: score {:+.4} (95% {:+.4} .. {:+.4}), Elo {:+.1} (95% {:+.1} .. {:+.1}), LOS {}\n",
            c.pairs,
            c.differing,
            c.score.value,
            c.score.low,
            c.score.high,
            c.elo.value,
            c.elo.low,
            c.elo.high,
            c.los.map_or("unknown".to_string(), |l| format!("{:.1}%", 100.0 * l)),
        ));
        json["versus_baseline"] = json!({
            "pairs": c.pairs,
            "differing_pairs": c.differing,
            "score": {"value": c.score.value, "low": c.score.low, "high": c.score.high},
            "elo": {"value": c.elo.value, "low": c.elo.low, "high": c.elo.high},
            "los": c.los,
        });
    }
    write_atomic(&out.join("match.json"), &serde_json::to_string_pretty(&json)?)?;
    if args.json {
        println!("{json}");
    } else {
        println!("{report}");
    }
    if missing > 0 {
        eprintln!(
            "match: {missing} of {used} cells are not in {} (another shard's share, or a failed cell): the summary covers the rest",
            out.display()
        );
    }
    Ok(())
}

/// When both agents are dial values (`elo:X`) of a calibrated game and
/// games were played: the dial's prediction of A's score over them
/// ([`Dial::predict`](strength::dial::Dial::predict)).
fn dial_prediction(game: &str, a: &str, b: &str, games: u64) -> Result<Option<DialPrediction>, String> {
    let value = |text: &str| -> Option<f64> {
        let spec: AgentSpec = text.parse().ok()?;
        if spec.kind() != "elo" {
            return None;
        }
        spec.argument()?.parse().ok()
    };
    let (Some(x), Some(y)) = (value(a), value(b)) else { return Ok(None) };
    let calibration = registry::game(game).and_then(|g| g.calibration()).map_err(|e| e.to_string())?;
    if games == 0 {
        return Ok(None);
    }
    // The specs were built by the same dial, so both values are in range.
    let dial = Dial::new(calibration).map_err(|e| e.to_string())?;
    dial.predict(x, y, games).map(Some).map_err(|e| e.to_string())
}

/// The agent kinds of a game, one per line.
pub(crate) fn kinds_help(arena: &dyn AnySetup) -> String {
    arena.kinds().iter().map(|(a, b)| format!("  {a:<48} {b}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dial_values_get_the_dials_prediction_and_nothing_else_does() {
        // Tic-tac-toe's committed calibration: elo:300 against elo:700
        // scores below half, inside [0, 1], the interval around it.
        let p = dial_prediction("tictactoe", "elo:300", "elo:700", 200).unwrap().unwrap();
        assert!(0.0 < p.low && p.low < p.score && p.score < 0.5 && p.score < p.high && p.high < 1.0, "{p:?}");
        let mirrored = dial_prediction("tictactoe", "elo:700", "elo:300", 200).unwrap().unwrap();
        assert!((p.score + mirrored.score - 1.0).abs() < 1e-12);
        for (a, b) in [("elo:300", "random"), ("alphabeta:depth=2", "elo:300"), ("elo", "elo:300")] {
            assert!(dial_prediction("tictactoe", a, b, 200).unwrap().is_none(), "{a} {b}");
        }
        assert!(dial_prediction("tictactoe", "elo:300", "elo:700", 0).unwrap().is_none());
    }
}
