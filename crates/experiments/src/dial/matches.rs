//! `cargo xtask match GAME A B`: paired games between two agents.
//!
//! Pairs of games (same opening, colours swapped) are grouped into cells of
//! the [`reproduce`](crate::reproduce) cell store: each cell's seed comes
//! from the master seed and its id, so the results do not depend on the
//! thread count; finished cells are saved as they complete (an interrupted
//! match resumes, a longer one reuses the games already played), and
//! `--shard I/N` plays a share. With `--sprt`, cells run in waves and the
//! match stops at the first cell, in cell order, at which the test decides:
//! the verdict is the same for any thread count too.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use strength::pairing::PairOutcome;

use strength::dial::{Dial, DialPrediction};
use strength::spec::AgentSpec;

use super::arena::{Arena, arena_of, load_calibration, pair_seed};
use super::report::{MatchSummary, SprtSettings};
use crate::TaskResult;
use crate::reproduce::{
    Experiment, Finished, Loaded, Row, RunConfig, RunKey, Scale, Shard, fnv, load_cell, open_out, row, run_cells,
    write_atomic,
};

/// Arguments of `cargo xtask match`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// Agent A's spec.
    pub a: String,
    /// Agent B's spec.
    pub b: String,
    /// Games to play (rounded up to whole pairs).
    pub games: usize,
    /// Openings, one per line (a move line in the game's notation; for
    /// chess UCI moves or a FEN). Default: balanced random openings.
    pub openings: Option<PathBuf>,
    /// SPRT bounds (elo0, elo1) and error rates.
    pub sprt: Option<SprtSettings>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (results do not depend on it; no more than the cores
    /// when an engine moves on a clock, see `pool`).
    pub threads: Option<usize>,
    /// Output directory (default: `target/match/<game>-<hash of the setup>`).
    pub out: Option<PathBuf>,
    /// Play only a share of the cells.
    pub shard: Option<Shard>,
    /// Print the summary as one JSON object.
    pub json: bool,
    /// A second agent played against B on the same openings and seeds: A
    /// is then compared with it pair by pair ([`strength::paired`]).
    pub baseline: Option<String>,
}

/// The default master seed of `match`.
pub const DEFAULT_SEED: u64 = 1;

/// Pairs per cell: small enough that an interrupted match loses little,
/// large enough that the agents' tables are not rebuilt every game.
fn pairs_per_cell(game: &str) -> usize {
    match game {
        "tictactoe" => 50,
        "connect4" => 10,
        _ => 2,
    }
}

/// A match as an experiment of the cell store.
pub(crate) struct MatchJob {
    pub(crate) arena: Box<dyn Arena>,
    pub(crate) name: &'static str,
    pub(crate) a: String,
    pub(crate) b: String,
    pub(crate) openings: Vec<String>,
    /// Where the openings come from (part of the parameters).
    pub(crate) opening_source: String,
    pub(crate) pairs: usize,
    pub(crate) per_cell: usize,
    /// Cells offered to the runner (all, or a prefix for SPRT waves).
    pub(crate) offered: AtomicUsize,
}

impl MatchJob {
    /// `pairs` pairs of `a` against `b` on `game`, pair `i` from opening
    /// `i` (cycling), with every cell offered; `name` is the cell
    /// directory (unique per matchup in one output directory).
    pub(crate) fn new(
        game: &str,
        name: &'static str,
        a: String,
        b: String,
        openings: Vec<String>,
        opening_source: String,
        pairs: usize,
    ) -> Result<Self, String> {
        Ok(MatchJob {
            arena: arena_of(game)?,
            name,
            a,
            b,
            openings,
            opening_source,
            pairs,
            per_cell: pairs_per_cell(game),
            offered: AtomicUsize::new(usize::MAX),
        })
    }

    pub(crate) fn cell_count(&self) -> usize {
        self.pairs.div_ceil(self.per_cell)
    }

    fn cell_id(&self, i: usize) -> String {
        let lo = i * self.per_cell;
        let hi = ((i + 1) * self.per_cell).min(self.pairs);
        format!("pairs-{lo:06}-{hi:06}")
    }

    fn cell_range(cell: &str) -> Result<(usize, usize), String> {
        let parts: Vec<&str> = cell.split('-').collect();
        match parts.as_slice() {
            ["pairs", lo, hi] => Ok((
                lo.parse().map_err(|_| format!("bad cell {cell}"))?,
                hi.parse().map_err(|_| format!("bad cell {cell}"))?,
            )),
            _ => Err(format!("bad cell {cell}")),
        }
    }

    /// The pairs of every cell held intact in `out`, in cell order (`None`
    /// for a cell not there).
    pub(crate) fn load(&self, out: &std::path::Path, key: RunKey) -> Vec<Option<Vec<PairOutcome>>> {
        let params = self.params(key.scale);
        (0..self.cell_count())
            .map(|i| match load_cell(out, self, key, &params, &self.cell_id(i)) {
                Loaded::Valid { rows, .. } => rows.iter().map(pair_of_row).collect(),
                _ => None,
            })
            .collect()
    }
}

fn game_row(p: &strength::pairing::GameScore) -> Value {
    json!([p.score, p.plies, p.adjudicated])
}

fn game_of(v: &Value) -> Option<strength::pairing::GameScore> {
    let a = v.as_array()?;
    Some(strength::pairing::GameScore {
        score: a.first()?.as_f64()?,
        plies: a.get(1)?.as_u64()? as usize,
        adjudicated: a.get(2)?.as_bool()?,
    })
}

pub(crate) fn pair_of_row(r: &Row) -> Option<PairOutcome> {
    Some(PairOutcome { a_first: game_of(r.get("a_first")?)?, b_first: game_of(r.get("b_first")?)? })
}

impl Experiment for MatchJob {
    fn name(&self) -> &'static str {
        self.name
    }
    fn source(&self) -> &'static str {
        "cargo xtask match"
    }
    fn description(&self) -> &'static str {
        "paired games between two agents"
    }
    fn version(&self) -> u32 {
        1
    }
    fn params(&self, _scale: Scale) -> Value {
        json!({
            "game": self.arena.name(),
            "a": self.a,
            "b": self.b,
            "openings": self.opening_source,
            "pairs_per_cell": self.per_cell,
            "max_plies": self.arena.max_plies(),
        })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        (0..self.offered.load(Ordering::Relaxed).min(self.cell_count())).map(|i| self.cell_id(i)).collect()
    }
    fn run_cell(&self, _scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let (lo, hi) = Self::cell_range(cell)?;
        let pairs: Vec<(String, u64)> =
            (lo..hi).map(|i| (self.openings[i % self.openings.len()].clone(), pair_seed(seed, i as u64))).collect();
        let results = self.arena.play_pairs(&self.a, &self.b, &pairs)?;
        Ok(results
            .iter()
            .zip(lo..hi)
            .map(|(p, i)| {
                row! {
                    "pair" => i,
                    "opening" => self.openings[i % self.openings.len()],
                    "a_first" => game_row(&p.a_first),
                    "b_first" => game_row(&p.b_first),
                }
            })
            .collect())
    }
    fn finish(&self, _scale: Scale, _cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        Err("a match writes its own summary".into())
    }
    fn seed_group(&self) -> &'static str {
        "match"
    }
    fn progress(&self, rows: &[Row]) -> Option<String> {
        let pairs: Vec<PairOutcome> = rows.iter().filter_map(pair_of_row).collect();
        Some(MatchSummary::new(&pairs, None).progress_line())
    }
}

/// The openings of a match: from the file, or balanced random ones.
fn openings(
    arena: &dyn Arena,
    file: Option<&PathBuf>,
    count: usize,
    seed: u64,
) -> Result<(Vec<String>, String), String> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let lines: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect();
            if lines.is_empty() {
                return Err(format!("{}: no openings (one per line)", path.display()));
            }
            for (i, l) in lines.iter().enumerate() {
                arena.check_opening(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            }
            let source = format!("file {:016x}", fnv(&lines.join("\n")));
            Ok((lines, source))
        }
        None => {
            let seed = search_core::rng::derive_seed(seed, fnv("openings"));
            Ok((arena.random_openings(count, seed)?, format!("random, seed {seed}")))
        }
    }
}

/// Runs `cargo xtask match`.
pub fn run(args: Args) -> TaskResult {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let arena = arena_of(&args.game)?;
    if args.baseline.is_some() && args.sprt.is_some() {
        return Err("--baseline and --sprt do not go together (the SPRT stops A's match alone)".into());
    }
    let agents: Vec<String> =
        [Some(&args.a), Some(&args.b), args.baseline.as_ref()].into_iter().flatten().cloned().collect();
    for spec in &agents {
        arena.check_spec(spec).map_err(|e| format!("{e}\nagent kinds for {}:\n{}", args.game, kinds_help(&*arena)))?;
    }
    super::pool::start_workers(args.threads, &agents)?;
    let pairs = args.games.div_ceil(2);
    let (openings, opening_source) = openings(&*arena, args.openings.as_ref(), pairs, args.seed)?;
    let baseline = match &args.baseline {
        Some(spec) => Some(MatchJob::new(
            &args.game,
            "baseline",
            spec.clone(),
            args.b.clone(),
            openings.clone(),
            opening_source.clone(),
            pairs,
        )?),
        None => None,
    };
    let job = MatchJob::new(&args.game, "match", args.a.clone(), args.b.clone(), openings, opening_source, pairs)?;
    let key = RunKey { seed: args.seed, scale: Scale::Default };
    let out = args.out.clone().unwrap_or_else(|| {
        let setup = format!("{} {}", job.params(Scale::Default), args.seed);
        PathBuf::from("target/match").join(format!("{}-{:016x}", args.game, fnv(&setup)))
    });
    let share = args.shard.map_or("all".to_string(), |s| s.to_string());
    let names: Vec<String> = std::iter::once(&job).chain(&baseline).map(|j| j.name.to_string()).collect();
    let _lock = open_out(&out, key, &names, &[share])?;
    let config = RunConfig { label: "match", key, out: out.clone(), shard: args.shard };
    let total = job.cell_count();
    eprintln!("match: {} vs {} on {}, {} pairs, cells in {}", args.a, args.b, args.game, pairs, out.display());
    if let Some(b) = &baseline {
        eprintln!("match: baseline {} vs {} on the same openings and seeds", b.a, args.b);
    }
    // Without SPRT every cell at once; with it, waves of a few cells per
    // thread, stopping once a prefix of the cells decides.
    let wave = if args.sprt.is_some() { (rayon::current_num_threads() * 2).max(2) } else { total };
    let mut decided_at = None;
    job.offered.store(0, Ordering::Relaxed);
    // The baseline (never with SPRT) has every cell offered from the start.
    let jobs: Vec<&dyn Experiment> = std::iter::once(&job).chain(&baseline).map(|j| j as &dyn Experiment).collect();
    while job.offered.load(Ordering::Relaxed) < total {
        let next = (job.offered.load(Ordering::Relaxed) + wave).min(total);
        job.offered.store(next, Ordering::Relaxed);
        run_cells(&jobs, &config)?;
        if let Some(sprt) = &args.sprt {
            let cells = job.load(&out, key);
            if let Some(i) = super::report::sprt_stop(&cells, sprt) {
                decided_at = Some(i);
                break;
            }
        }
    }
    let cells = job.load(&out, key);
    let used = decided_at.map_or(cells.len(), |i| i + 1);
    let missing = cells[..used].iter().filter(|c| c.is_none()).count();
    let results: Vec<PairOutcome> = cells[..used].iter().flatten().flatten().copied().collect();
    let summary = MatchSummary::new(&results, args.sprt.as_ref());
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
        report.push_str(&format!("\nbaseline\n{}", base_summary.report(&args.game, &b.a, &args.b)));
        json["baseline"] =
            base_summary.json(&args.game, &b.a, &args.b, args.seed, base_cells.iter().filter(|c| c.is_none()).count());
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
    let Some(calibration) = load_calibration(game)? else { return Ok(None) };
    if games == 0 {
        return Ok(None);
    }
    // The specs were built by the same dial, so both values are in range.
    let dial = Dial::new(calibration).map_err(|e| e.to_string())?;
    dial.predict(x, y, games).map(Some).map_err(|e| e.to_string())
}

/// The agent kinds of a game, one per line.
pub(crate) fn kinds_help(arena: &dyn Arena) -> String {
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
