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
//!
//! Nothing lost, nothing silently wrong (the cell store, `tournament::store`): every file is
//! written atomically; a saved cell carries a checksum of its rows and of
//! what made them (experiment, cell, seeds, scale, the experiment's
//! `Experiment::version` and parameters), and one that fails the check is
//! recomputed with a warning; `OUT/manifest.json` ties the directory to one
//! seed and scale, and a run or merge of another is refused; `--out` is
//! checked writable before the first cell is computed.

pub mod experiments;
pub mod output;
pub mod verdict;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
pub use taskkit::Shard;
pub(crate) use taskkit::{Loaded, Row, RunConfig, RunKey, Scale, open_out, plot, row, run_jobs, stats, write_atomic};
use tournament::runner::{self, CellError, Job, cell_path, foreign_cell};
use tournament::store;

use crate::TaskResult;
use taskkit::threads::parse_threads;

/// What an experiment produces from all its cells.
#[derive(Debug)]
pub struct Finished {
    /// The rows of `<name>.json` / `<name>.csv`: flat, with `paper_<field>`
    /// beside our `<field>` where the paper prints a number.
    pub rows: Vec<Row>,
    /// The Markdown section of the report (tables, verdicts).
    pub markdown: String,
    /// An SVG figure, where the paper has one.
    pub svg: Option<String>,
}

/// One experiment of the seeds.
pub trait Experiment: Sync {
    /// The name (part of the interface: `cargo xtask reproduce NAME`).
    fn name(&self) -> &'static str;
    /// Which paper, table or figure.
    fn source(&self) -> &'static str;
    /// One line on what is computed.
    fn description(&self) -> &'static str;
    /// The version of the code that computes a cell (`run_cell` and all it
    /// calls, in this crate or the library), recorded in every saved cell.
    /// **Bump it whenever a change can alter what `run_cell` returns for the
    /// same cell, seed and parameters**: saved cells of another version are
    /// recomputed, never reused. A change to `finish` alone needs no bump
    /// (outputs are rebuilt from the cells on every run).
    fn version(&self) -> u32;
    /// The parameters at this scale (recorded in the outputs and in every
    /// saved cell; a change invalidates saved cells).
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
    /// A running summary of the rows of every finished cell so far (saved
    /// or new, in completion order), shown beside the progress bar (e.g. a
    /// match's running score). `None`: the cell name is shown.
    fn progress(&self, _rows: &[Row]) -> Option<String> {
        None
    }
}

/// The master seed when `--seed` is not given (a merge takes its shards').
pub const DEFAULT_SEED: u64 = 2013;

/// Arguments of `cargo xtask reproduce`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Experiments to run (default: all); or `merge DIR...` to combine shard
    /// outputs into `--out`.
    pub names: Vec<String>,
    /// A scaled-down run for CI (under two minutes).
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// The papers' own scale where feasible (hours; says how long first).
    #[arg(long)]
    pub full: bool,
    /// List the experiments and exit.
    #[arg(long)]
    pub list: bool,
    /// Master seed [default: 2013]. `merge` takes the shards' seed and scale
    /// from their manifests (and refuses a different --seed, --quick or --full).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output directory.
    #[arg(long, default_value = "reproduce-out")]
    pub out: PathBuf,
    /// Worker threads, 1 to 4 per available core (default: one per core).
    /// Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Run only a deterministic share `I/N` of the cells.
    #[arg(long)]
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
        Some(Scale::Quick)
    } else if args.full {
        Some(Scale::Full)
    } else {
        None
    };
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global()?;
    }
    if args.names.first().map(String::as_str) == Some("merge") {
        let dirs: Vec<PathBuf> = args.names[1..].iter().map(PathBuf::from).collect();
        if dirs.is_empty() {
            return Err("merge needs at least one shard directory".into());
        }
        let (key, names, shards) = shards_run(&dirs, args.seed, scale)?;
        let _lock = open_out(&args.out, key, &names, &shards)?;
        merge(&all, key, &dirs, &args.out)?;
        return finish_all(&all, key, &args.out, &names, &Origin::Merge { shards });
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
    let key = RunKey { seed: args.seed.unwrap_or(DEFAULT_SEED), scale: scale.unwrap_or(Scale::Default) };
    let names: Vec<String> = selected.iter().map(|e| e.name().to_string()).collect();
    // Before any compute: the directory is writable, is ours, and is this run's.
    let share = args.shard.map_or("all".to_string(), |s| s.to_string());
    let _lock = open_out(&args.out, key, &names, &[share])?;
    let config = RunConfig { label: "reproduce", key, out: args.out.clone(), shard: args.shard };
    run_cells(&selected, &config)?;
    finish_all(&all, key, &args.out, &names, &if args.shard.is_some() { Origin::Shard } else { Origin::Run })
}

/// An [`Experiment`] as the cell runner sees it.
struct AsJob<'a>(&'a dyn Experiment);

impl Job for AsJob<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn version(&self) -> u32 {
        self.0.version()
    }
    fn params(&self, scale: Scale) -> Value {
        self.0.params(scale)
    }
    fn cells(&self, scale: Scale) -> Vec<String> {
        self.0.cells(scale)
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, CellError> {
        self.0.run_cell(scale, cell, seed).map_err(Into::into)
    }
    fn seed_group(&self) -> &str {
        self.0.seed_group()
    }
    fn progress(&self, rows: &[Row]) -> Option<String> {
        self.0.progress(rows)
    }
}

/// Loads the saved cell `cell` of `e` in `dir`, checked against this run.
pub(crate) fn load_cell(dir: &Path, e: &dyn Experiment, key: RunKey, params: &Value, cell: &str) -> Loaded {
    runner::load_cell(dir, &AsJob(e), key, params, cell)
}

/// Runs every cell of the experiments `selected` (this shard's share) that
/// `config.out` does not already hold intact; see [`run_jobs`].
pub(crate) fn run_cells(selected: &[&dyn Experiment], config: &RunConfig) -> TaskResult {
    if config.key.scale == Scale::Full {
        let known: f64 = selected.iter().filter_map(|e| e.cpu_seconds(config.key.scale)).sum();
        let threads = rayon::current_num_threads() as f64;
        let share = config.shard.map_or(1.0, |s| 1.0 / s.count() as f64);
        eprintln!(
            "reproduce --full: about {:.1} CPU hours (≈ {:.1} hours on {threads} threads{}), plus minutes for the cheap experiments. \
             Finished cells are saved as they complete: interrupt and rerun to resume, or split with --shard I/N.",
            known * share / 3600.0,
            known * share / 3600.0 / threads,
            if share < 1.0 { ", this shard" } else { "" },
        );
    }
    let jobs: Vec<AsJob<'_>> = selected.iter().map(|e| AsJob(*e)).collect();
    let jobs: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    run_jobs(&jobs, config)
}

/// The run the shard directories hold (from their manifests), the
/// experiments and the shares run into them. Shards of different seeds or
/// scales, or a `--seed`/`--quick`/`--full` that is not theirs, are refused.
fn shards_run(
    dirs: &[PathBuf],
    seed: Option<u64>,
    scale: Option<Scale>,
) -> Result<(RunKey, Vec<String>, Vec<String>), String> {
    let mut found: Vec<(&PathBuf, store::Manifest)> = Vec::new();
    for dir in dirs {
        if !dir.is_dir() {
            return Err(format!("merge: {} is not a directory", dir.display()));
        }
        match store::read_manifest(dir).map_err(|e| e.to_string())? {
            Some(m) => found.push((dir, m)),
            None => {
                return Err(format!(
                    "merge: {} has no manifest.json, so its seed and scale are unknown \
                     (not a reproduce output, or an older version's): rerun that shard",
                    dir.display()
                ));
            }
        }
    }
    let key = found[0].1.key;
    if found.iter().any(|(_, m)| m.key != key) {
        let list: Vec<String> = found.iter().map(|(d, m)| format!("  {}: {}", d.display(), m.key)).collect();
        return Err(format!("merge: the shards come from different runs, never mixed:\n{}", list.join("\n")));
    }
    if seed.is_some_and(|s| s != key.seed) || scale.is_some_and(|s| s != key.scale) {
        return Err(format!(
            "merge: the shards are {key}, but {} was asked for (leave out --seed, --quick and --full to take the shards')",
            [seed.map(|s| format!("seed {s}")), scale.map(|s| format!("{} scale", s.name()))]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let (mut names, mut shards) = (Vec::new(), Vec::new());
    for (_, m) in &found {
        store::union(&mut names, &m.experiments);
        store::union(&mut shards, &m.shards);
    }
    eprintln!("merge: {} shard directories of a {key} run (shares {})", dirs.len(), shards.join(", "));
    Ok((key, names, shards))
}

/// Copies every intact cell of this run from the shard directories into
/// `out`. Damaged or stale cells are skipped with a warning (a run into
/// `out` recomputes them); two intact cells that disagree are an error.
fn merge(all: &[Box<dyn Experiment>], key: RunKey, dirs: &[PathBuf], out: &Path) -> TaskResult {
    let mut copied = 0;
    for e in all {
        let params = e.params(key.scale);
        for cell in e.cells(key.scale) {
            let target = cell_path(out, e.name(), &cell);
            let mut have = match load_cell(out, e.as_ref(), key, &params, &cell) {
                Loaded::Valid { rows, .. } => Some(rows),
                Loaded::Foreign(theirs) => return Err(foreign_cell(&target, theirs, key).into()),
                _ => None,
            };
            for dir in dirs {
                let path = cell_path(dir, e.name(), &cell);
                if path == target {
                    continue;
                }
                match load_cell(dir, e.as_ref(), key, &params, &cell) {
                    Loaded::Valid { rows, text } => match &have {
                        Some(existing) if *existing != rows => {
                            return Err(format!(
                                "merge: conflicting results for {}/{cell}: {} differs from the one already in {}",
                                e.name(),
                                path.display(),
                                out.display()
                            )
                            .into());
                        }
                        Some(_) => {}
                        None => {
                            write_atomic(&target, &text)?;
                            copied += 1;
                            have = Some(rows);
                        }
                    },
                    Loaded::Absent => {}
                    Loaded::Corrupt(why) => eprintln!("warning: merge: skipping {}: {why}", path.display()),
                    Loaded::Stale(why) => eprintln!("note: merge: skipping {}: {why}", path.display()),
                    Loaded::Foreign(theirs) => return Err(foreign_cell(&path, theirs, key).into()),
                }
            }
        }
    }
    eprintln!("merge: {copied} cells copied into {}", out.display());
    Ok(())
}

/// How the cells of an output directory came to be there (for the advice
/// when some are missing).
enum Origin {
    /// A whole run.
    Run,
    /// A `--shard I/N` run.
    Shard,
    /// A merge of directories that ran these shares (`I/N` or `all`).
    Merge { shards: Vec<String> },
}

/// Writes the outputs of every experiment whose cells are all present, and
/// the report; says which of `expected` could not be written, and why.
fn finish_all(
    all: &[Box<dyn Experiment>],
    key: RunKey,
    out: &Path,
    expected: &[String],
    origin: &Origin,
) -> TaskResult {
    let mut sections = BTreeMap::new();
    let mut missing = Vec::new();
    let (mut any_absent, mut any_rejected) = (false, false);
    for (order, e) in all.iter().enumerate() {
        let params = e.params(key.scale);
        let mut cells = Vec::new();
        let mut absent = Vec::new();
        let mut rejected = Vec::new();
        let ids = e.cells(key.scale);
        for cell in &ids {
            match load_cell(out, e.as_ref(), key, &params, cell) {
                Loaded::Valid { rows, .. } => cells.push((cell.clone(), rows)),
                Loaded::Absent => absent.push(cell.clone()),
                Loaded::Corrupt(why) | Loaded::Stale(why) => rejected.push(format!("{cell}: {why}")),
                Loaded::Foreign(theirs) => rejected.push(format!("{cell}: from {theirs}")),
            }
        }
        if cells.len() < ids.len() {
            if expected.iter().any(|n| n == e.name()) {
                let mut parts = Vec::new();
                if let Some(first) = absent.first() {
                    parts.push(format!("{} absent (e.g. {first})", absent.len()));
                }
                if let Some(first) = rejected.first() {
                    parts.push(format!("{} damaged, stale or foreign (e.g. {first})", rejected.len()));
                }
                missing.push(format!(
                    "  {}: {} of {} cells missing: {}",
                    e.name(),
                    ids.len() - cells.len(),
                    ids.len(),
                    parts.join("; ")
                ));
                any_absent |= !absent.is_empty();
                any_rejected |= !rejected.is_empty();
            }
            continue;
        }
        let finished = e.finish(key.scale, &cells).map_err(|err| format!("{}: {err}", e.name()))?;
        output::write_experiment(out, e.as_ref(), key.scale, key.seed, &params, &finished)?;
        sections.insert(order, output::section(e.as_ref(), &finished));
    }
    output::write_report(out, key.scale, key.seed, sections.into_values().collect())?;
    if missing.is_empty() {
        eprintln!("reproduce: report written to {}", out.join("report.md").display());
        return Ok(());
    }
    let rerun = format!("cargo xtask reproduce {} --out {} {}", key.flags(), out.display(), expected.join(" "));
    let mut advice = Vec::new();
    if any_absent {
        advice.push(match origin {
            Origin::Run => format!("Absent cells were never computed: `{rerun}` resumes."),
            Origin::Shard => format!(
                "Absent cells are the other shards' share: run them (`--shard I/N {}`, same experiments) and `merge` the directories.",
                key.flags()
            ),
            Origin::Merge { shards } => missing_shards(shards, key, expected),
        });
    }
    if any_rejected {
        advice.push(format!("Damaged, stale or foreign cells are never used: `{rerun}` recomputes them."));
    }
    eprintln!(
        "reproduce: incomplete: {} ({key}) lacks cells, so these outputs were not written:\n{}\n{}",
        out.display(),
        missing.join("\n"),
        advice.join("\n")
    );
    Ok(())
}

/// Why a merge lacks cells, from the shares the merged directories ran.
fn missing_shards(shards: &[String], key: RunKey, expected: &[String]) -> String {
    let parsed: Vec<Option<Shard>> = shards.iter().map(|s| s.parse().ok()).collect();
    let counts: std::collections::BTreeSet<usize> = parsed.iter().flatten().map(|s| s.count()).collect();
    let merged = shards.join(", ");
    if parsed.iter().any(Option::is_none) || counts.len() != 1 {
        return format!(
            "The merged directories ran {merged}: a run among them stopped before it finished \
             (rerun it into its directory to resume, then merge again), or they split the work differently."
        );
    }
    let count = counts.into_iter().next().expect("one count");
    let have: Vec<usize> = parsed.iter().flatten().map(|s| s.index()).collect();
    let lacking: Vec<String> = (0..count).filter(|i| !have.contains(i)).map(|i| format!("{i}/{count}")).collect();
    if lacking.is_empty() {
        format!(
            "Every shard of {count} was merged, so a shard run stopped before it finished, or the shards were given \
             different experiments: rerun the shards into their directories to resume, then merge again."
        )
    } else {
        format!(
            "Shard{} {} of this run {} not among the merged directories (they ran {merged}): \
             run `cargo xtask reproduce --shard I/{count} {} --out DIR {}` for each, and merge DIR too.",
            if lacking.len() > 1 { "s" } else { "" },
            lacking.join(", "),
            if lacking.len() > 1 { "are" } else { "is" },
            key.flags(),
            expected.join(" ")
        )
    }
}
