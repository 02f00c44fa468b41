//! `cargo xtask reproduce`: every experiment of the seed papers, side by side
//! with the papers' numbers.
//!
//! An experiment is split into *cells*: independent units of work with a
//! stable id (a table cell, a batch of games). Each cell's seed is derived
//! from the master seed and the cell's id, so results do not depend on the
//! number of threads, on the order cells run in, or on the machine. A cell's
//! rows are saved to `OUT/cells/<experiment>/<cell>.json` the moment it
//! finishes: an interrupted run loses nothing, and a rerun resumes.
//! `--shard I/N` runs a deterministic share of the cells; `merge` combines
//! shard directories. When every cell of an experiment is present, its
//! outputs are written: `OUT/<name>.json`, `OUT/<name>.csv`, an SVG where the
//! paper has a figure, and its section of `OUT/report.md`.

mod experiments;
mod output;
mod plot;
mod stats;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{Map, Value, json};

use crate::TaskResult;

/// A flat result row.
pub(crate) type Row = Map<String, Value>;

/// Builds a [`Row`] from `key => value` pairs.
macro_rules! row {
    ($($key:expr => $value:expr),* $(,)?) => {{
        let mut r = $crate::reproduce::Row::new();
        $( r.insert($key.to_string(), serde_json::json!($value)); )*
        r
    }};
}
pub(crate) use row;

/// How big a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Scale {
    /// CI smoke run: under two minutes for everything.
    Quick,
    /// Minutes on two cores.
    Default,
    /// The papers' own scale where feasible.
    Full,
}

impl Scale {
    /// Picks a size by scale.
    pub(crate) fn pick<T>(self, quick: T, default: T, full: T) -> T {
        match self {
            Scale::Quick => quick,
            Scale::Default => default,
            Scale::Full => full,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Default => "default",
            Scale::Full => "full",
        }
    }
}

/// What an experiment produces from all its cells.
pub(crate) struct Finished {
    /// The rows of `<name>.json` / `<name>.csv`: flat, with `paper_<field>`
    /// beside our `<field>` where the paper prints a number.
    pub(crate) rows: Vec<Row>,
    /// The Markdown section of the report (tables, verdicts).
    pub(crate) markdown: String,
    /// An SVG figure, where the paper has one.
    pub(crate) svg: Option<String>,
}

/// One experiment of the seeds.
pub(crate) trait Experiment: Sync {
    /// The name (part of the interface: `cargo xtask reproduce NAME`).
    fn name(&self) -> &'static str;
    /// Which paper, table or figure.
    fn source(&self) -> &'static str;
    /// One line on what is computed.
    fn description(&self) -> &'static str;
    /// The parameters at this scale (recorded in the outputs; a change
    /// invalidates saved cells).
    fn params(&self, scale: Scale) -> Value;
    /// The cells, in a fixed order.
    fn cells(&self, scale: Scale) -> Vec<String>;
    /// Runs one cell with its own seed.
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String>;
    /// Combines every cell's rows (in cell order) into the outputs.
    fn finish(&self, scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String>;
    /// The name cell seeds are derived from. Two experiments that analyse
    /// the same samples differently (Reibman's Tables 1 and 2) share a group
    /// so that their cells see the same trees and noise.
    fn seed_group(&self) -> &'static str {
        self.name()
    }
    /// Estimated CPU seconds of all cells at this scale, where the
    /// experiment knows (printed before a `--full` run starts).
    fn cpu_seconds(&self, _scale: Scale) -> Option<f64> {
        None
    }
}

/// `I/N`: run the cells whose global index is `I` modulo `N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
        let index: usize = i.trim().parse().map_err(|_| format!("bad shard index {i:?}"))?;
        let count: usize = n.trim().parse().map_err(|_| format!("bad shard count {n:?}"))?;
        if count == 0 || index >= count {
            return Err(format!("need 0 <= I < N, got {index}/{count}"));
        }
        Ok(Shard { index, count })
    }
}

/// Arguments of `cargo xtask reproduce`.
#[derive(Debug, Clone)]
pub struct Args {
    /// Experiments to run (default: all); or `merge DIR...` to combine shard
    /// outputs into `--out`.
    pub names: Vec<String>,
    /// A scaled-down run for CI (under two minutes).
    pub quick: bool,
    /// The papers' own scale where feasible (hours; says how long first).
    pub full: bool,
    /// List the experiments and exit.
    pub list: bool,
    /// Master seed.
    pub seed: u64,
    /// Output directory.
    pub out: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    pub threads: Option<usize>,
    /// Run only a deterministic share `I/N` of the cells.
    pub shard: Option<Shard>,
}

pub fn run(args: Args) -> TaskResult {
    let all = experiments::all();
    if args.list {
        for e in &all {
            println!("{:<28} {:<28} {}", e.name(), e.source(), e.description());
        }
        return Ok(());
    }
    let scale = if args.quick {
        Scale::Quick
    } else if args.full {
        Scale::Full
    } else {
        Scale::Default
    };
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global()?;
    }
    if args.names.first().map(String::as_str) == Some("merge") {
        let dirs: Vec<PathBuf> = args.names[1..].iter().map(PathBuf::from).collect();
        if dirs.is_empty() {
            return Err("merge needs at least one shard directory".into());
        }
        merge(&dirs, &args.out)?;
        return finish_all(&all, scale, args.seed, &args.out, None);
    }
    let selected: Vec<&dyn Experiment> = if args.names.is_empty() {
        all.iter().map(|e| e.as_ref()).collect()
    } else {
        let mut v = Vec::new();
        for name in &args.names {
            match all.iter().find(|e| e.name() == name) {
                Some(e) => v.push(e.as_ref()),
                None => return Err(format!("unknown experiment {name:?} (see --list)").into()),
            }
        }
        v
    };
    let config = RunConfig { scale, seed: args.seed, out: args.out.clone(), shard: args.shard };
    run_cells(&selected, &config)?;
    let names: Vec<&str> = selected.iter().map(|e| e.name()).collect();
    finish_all(&all, scale, args.seed, &args.out, Some(&names))
}

struct RunConfig {
    scale: Scale,
    seed: u64,
    out: PathBuf,
    shard: Option<Shard>,
}

/// A stable 64-bit hash of a string (FNV-1a), for cell seeds and parameter
/// fingerprints.
pub(crate) fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn cell_seed(master: u64, experiment: &str, cell: &str) -> u64 {
    search_core::rng::derive_seed(master, fnv(&format!("{experiment}/{cell}")))
}

fn cell_path(out: &Path, experiment: &str, cell: &str) -> PathBuf {
    out.join("cells").join(experiment).join(format!("{}.json", cell.replace(['/', ' '], "_")))
}

/// A saved cell, if it exists and was made with the same seed and parameters.
fn load_cell(path: &Path, seed: u64, params: &Value) -> Option<Vec<Row>> {
    let text = fs::read_to_string(path).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    if v.get("seed")?.as_u64()? != seed || v.get("params")? != params {
        return None;
    }
    let rows = v.get("rows")?.as_array()?;
    rows.iter().map(|r| r.as_object().cloned()).collect()
}

/// Writes a file atomically (temporary file, then rename).
pub(crate) fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, contents)?;
    fs::rename(tmp, path)
}

fn run_cells(selected: &[&dyn Experiment], config: &RunConfig) -> TaskResult {
    // The global cell list, in a fixed order; the shard takes its share.
    let mut work = Vec::new();
    let mut index = 0usize;
    for e in selected {
        let params = e.params(config.scale);
        for cell in e.cells(config.scale) {
            let mine = config.shard.is_none_or(|s| index % s.count == s.index);
            index += 1;
            if !mine {
                continue;
            }
            let seed = cell_seed(config.seed, e.seed_group(), &cell);
            let path = cell_path(&config.out, e.name(), &cell);
            if load_cell(&path, seed, &params).is_some() {
                continue;
            }
            work.push((*e, cell, seed, path, params.clone()));
        }
    }
    let total = index;
    if config.scale == Scale::Full {
        let known: f64 = selected.iter().filter_map(|e| e.cpu_seconds(config.scale)).sum();
        let threads = rayon::current_num_threads() as f64;
        let share = config.shard.map_or(1.0, |s| 1.0 / s.count as f64);
        eprintln!(
            "reproduce --full: about {:.1} CPU hours (≈ {:.1} hours on {threads} threads{}), plus minutes for the cheap experiments. \
             Finished cells are saved as they complete: interrupt and rerun to resume, or split with --shard I/N.",
            known * share / 3600.0,
            known * share / 3600.0 / threads,
            if share < 1.0 { ", this shard" } else { "" },
        );
    }
    eprintln!(
        "reproduce: {} scale, seed {}, {} cells to run ({} in all{})",
        config.scale.name(),
        config.seed,
        work.len(),
        total,
        config.shard.map_or(String::new(), |s| format!(", shard {}/{}", s.index, s.count))
    );
    let bar = ProgressBar::new(work.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} cells, eta {eta} {msg}")
            .expect("static template")
            .progress_chars("=> "),
    );
    let failures: Vec<String> = work
        .par_iter()
        .filter_map(|(e, cell, seed, path, params)| {
            let started = Instant::now();
            let result = e.run_cell(config.scale, cell, *seed);
            bar.inc(1);
            bar.set_message(format!("{}/{}", e.name(), cell));
            match result {
                Ok(rows) => {
                    let saved = json!({
                        "experiment": e.name(),
                        "cell": cell,
                        "seed": seed,
                        "params": params,
                        "seconds": started.elapsed().as_secs_f64(),
                        "rows": rows,
                    });
                    let text = serde_json::to_string_pretty(&saved).expect("rows serialise");
                    write_atomic(path, &text).err().map(|err| format!("{}/{cell}: cannot save: {err}", e.name()))
                }
                Err(err) => Some(format!("{}/{cell}: {err}", e.name())),
            }
        })
        .collect();
    bar.finish_and_clear();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} cells failed:\n  {}", failures.len(), failures.join("\n  ")).into())
    }
}

/// Copies the cells of every shard directory into `out`.
fn merge(dirs: &[PathBuf], out: &Path) -> TaskResult {
    let mut copied = 0;
    for dir in dirs {
        let cells = dir.join("cells");
        let Ok(experiments) = fs::read_dir(&cells) else {
            return Err(format!("{} has no cells/ directory", dir.display()).into());
        };
        for exp in experiments {
            let exp = exp?;
            for file in fs::read_dir(exp.path())? {
                let file = file?;
                if file.path().extension().is_none_or(|e| e != "json") {
                    continue;
                }
                let target = out.join("cells").join(exp.file_name()).join(file.file_name());
                let contents = fs::read_to_string(file.path())?;
                if target != file.path() {
                    if let Ok(existing) = fs::read_to_string(&target) {
                        let strip = |s: &str| -> Option<Value> {
                            let mut v: Value = serde_json::from_str(s).ok()?;
                            v.as_object_mut()?.remove("seconds");
                            Some(v)
                        };
                        if strip(&existing) != strip(&contents) {
                            return Err(format!("conflicting results for {}", target.display()).into());
                        }
                        continue;
                    }
                    write_atomic(&target, &contents)?;
                    copied += 1;
                }
            }
        }
    }
    eprintln!("merge: {copied} cells copied into {}", out.display());
    Ok(())
}

/// Writes the outputs of every experiment whose cells are all present, and
/// the report.
fn finish_all(all: &[Box<dyn Experiment>], scale: Scale, seed: u64, out: &Path, only: Option<&[&str]>) -> TaskResult {
    let mut sections = BTreeMap::new();
    let mut missing = Vec::new();
    for (order, e) in all.iter().enumerate() {
        let params = e.params(scale);
        let mut cells = Vec::new();
        let mut complete = true;
        for cell in e.cells(scale) {
            let path = cell_path(out, e.name(), &cell);
            match load_cell(&path, cell_seed(seed, e.seed_group(), &cell), &params) {
                Some(rows) => cells.push((cell, rows)),
                None => {
                    complete = false;
                    break;
                }
            }
        }
        if !complete {
            if only.is_none_or(|names| names.contains(&e.name())) {
                missing.push(e.name());
            }
            continue;
        }
        let finished = e.finish(scale, &cells).map_err(|err| format!("{}: {err}", e.name()))?;
        output::write_experiment(out, e.as_ref(), scale, seed, &params, &finished)?;
        sections.insert(order, output::section(e.as_ref(), &finished));
    }
    output::write_report(out, scale, seed, sections.into_values().collect())?;
    if missing.is_empty() {
        eprintln!("reproduce: report written to {}", out.join("report.md").display());
    } else {
        eprintln!("reproduce: incomplete (run the other shards and merge): {}", missing.join(", "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_reject_nonsense() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn cell_ids_and_files_are_unique() {
        for e in experiments::all() {
            for scale in [Scale::Quick, Scale::Default, Scale::Full] {
                let cells = e.cells(scale);
                let files: std::collections::BTreeSet<PathBuf> =
                    cells.iter().map(|c| cell_path(Path::new("out"), e.name(), c)).collect();
                assert_eq!(files.len(), cells.len(), "{} at {scale:?}: duplicate cells", e.name());
            }
        }
    }

    #[test]
    fn cell_seeds_depend_on_the_cell_not_the_schedule() {
        assert_eq!(cell_seed(1, "a", "b"), cell_seed(1, "a", "b"));
        assert_ne!(cell_seed(1, "a", "b"), cell_seed(1, "a", "c"));
        assert_ne!(cell_seed(1, "a", "b"), cell_seed(2, "a", "b"));
    }
}
