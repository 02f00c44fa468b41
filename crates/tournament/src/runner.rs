//! Runs the cells of jobs over the [cell store](crate::store), in parallel,
//! saving each as it finishes.
//!
//! A [`Job`] is a piece of work split into cells (a match's batches of
//! paired games, a table's cells). Each cell's seed is derived from the
//! run's master seed, the job's seed group and the cell's id
//! ([`cell_seed`]), so the rows do not depend on the number of threads, on
//! the order cells run in, or on the machine. [`run_cells`] runs every cell
//! the output directory does not already hold intact (a cell that fails its
//! checksum is moved aside and recomputed), on rayon's pool; a
//! [`RunObserver`] sees the progress (the crate prints nothing).
//!
//! ```
//! use serde_json::{Value, json};
//! use tournament::runner::{Job, RunConfig, run_cells};
//! use tournament::store::{Row, RunKey, Scale, open_out};
//!
//! /// Squares 0..4, one cell each.
//! struct Squares;
//! impl Job for Squares {
//!     fn name(&self) -> &str { "squares" }
//!     fn version(&self) -> u32 { 1 }
//!     fn params(&self, _: Scale) -> Value { json!({}) }
//!     fn cells(&self, _: Scale) -> Vec<String> { (0..4).map(|i| i.to_string()).collect() }
//!     fn run_cell(&self, _: Scale, cell: &str, _seed: u64) -> Result<Vec<Row>, tournament::runner::CellError> {
//!         let i: u64 = cell.parse()?;
//!         Ok(vec![Row::from_iter([("square".to_string(), json!(i * i))])])
//!     }
//! }
//!
//! let out = std::env::temp_dir().join(format!("runner-doc-{}", std::process::id()));
//! let key = RunKey { seed: 1, scale: Scale::Default };
//! let _lock = open_out(&out, key, &["squares".to_string()], &["all".to_string()])?;
//! let config = RunConfig { key, out: out.clone(), shard: None };
//! run_cells(&[&Squares], &config, &())?;
//! // Everything is saved: a second run computes nothing.
//! run_cells(&[&Squares], &config, &())?;
//! # std::fs::remove_dir_all(&out)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde_json::Value;

use crate::store::{self, CellKey, Loaded, Row, RunKey, Scale, write_atomic};

/// Why a cell could not be computed (the job's own error).
pub type CellError = Box<dyn std::error::Error + Send + Sync>;

/// A piece of work split into cells.
pub trait Job: Sync {
    /// The job's name: its directory in the store (unique in one run).
    fn name(&self) -> &str;
    /// The version of the code that computes a cell, recorded in every
    /// saved cell. **Bump it whenever a change can alter what
    /// [`Job::run_cell`] returns for the same cell, seed and parameters**:
    /// saved cells of another version are recomputed, never reused.
    fn version(&self) -> u32;
    /// The parameters at this scale (recorded in every saved cell; a change
    /// invalidates saved cells).
    fn params(&self, scale: Scale) -> Value;
    /// The cells, in a fixed order.
    fn cells(&self, scale: Scale) -> Vec<String>;
    /// Computes one cell with its own seed.
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, CellError>;
    /// The name cell seeds are derived from (default: the job's name). Two
    /// jobs that analyse the same samples differently share a group so that
    /// their cells see the same randomness.
    fn seed_group(&self) -> &str {
        self.name()
    }
    /// A running summary of the rows of every finished cell so far (saved or
    /// new, in completion order), for a progress display (e.g. a match's
    /// running score).
    fn progress(&self, _rows: &[Row]) -> Option<String> {
        None
    }
}

/// What [`run_cells`] reports as it goes. Every method has an empty
/// default; `()` observes nothing.
pub trait RunObserver: Sync {
    /// Before the first cell: how many cells will run, of how many in all
    /// (this shard's share counted; the rest are already saved).
    fn planned(&self, _to_run: usize, _total: usize) {}
    /// A saved cell is not used and will be recomputed: why, and where it
    /// was moved aside (a damaged cell) if it was.
    fn recomputing(&self, _path: &Path, _why: &str, _moved_to: Option<&Path>) {}
    /// A cell finished (saved, or failed): the job's running summary.
    fn cell_finished(&self, _job: &str, _cell: &str, _summary: Option<&str>) {}
    /// Something for the user that is not a cell: a warning (a store that
    /// cannot be locked) or the start of a stage of a longer task.
    fn note(&self, _text: &str) {}
}

impl RunObserver for () {}

/// `I/N`: the cells whose global index is `I` modulo `N` (a deterministic
/// share of a run, e.g. one task of a job array).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Share `index` of `count` (`index < count`).
    pub fn new(index: usize, count: usize) -> Result<Self, ShardError> {
        if count == 0 || index >= count {
            return Err(ShardError(format!("need 0 <= I < N, got {index}/{count}")));
        }
        Ok(Shard { index, count })
    }

    /// Whether the cell of global index `i` is this share's.
    pub fn takes(&self, i: usize) -> bool {
        i % self.count == self.index
    }

    /// `I`.
    pub fn index(&self) -> usize {
        self.index
    }

    /// `N`.
    pub fn count(&self) -> usize {
        self.count
    }
}

/// A shard that is not `I/N` with `0 <= I < N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShardError(String);

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Self, ShardError> {
        let (i, n) = s.split_once('/').ok_or_else(|| ShardError("expected I/N, e.g. 0/4".into()))?;
        let index: usize = i.trim().parse().map_err(|_| ShardError(format!("bad shard index {i:?}")))?;
        let count: usize = n.trim().parse().map_err(|_| ShardError(format!("bad shard count {n:?}")))?;
        Shard::new(index, count)
    }
}

/// Where and what to run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The run (master seed and scale).
    pub key: RunKey,
    /// The output directory (opened with [`store::open_out`]).
    pub out: PathBuf,
    /// Only this share of the cells, if any.
    pub shard: Option<Shard>,
}

/// Why [`run_cells`] did not finish every cell.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// Saved cells of another seed or scale: nothing was run.
    #[error("{}", .0.join("\n"))]
    Foreign(Vec<String>),
    /// Cells that failed (their errors), and how many were not started after
    /// a cell could not be saved.
    #[error(
        "{} cells failed:\n  {}{}",
        failures.len(),
        failures.join("\n  "),
        if *skipped > 0 { format!("\n{skipped} cells not started after a failed save") } else { String::new() }
    )]
    Cells {
        /// `job/cell: error`, one per failed cell.
        failures: Vec<String>,
        /// Cells not started because a save failed.
        skipped: usize,
    },
}

/// A stable 64-bit hash of a string (FNV-1a), for cell seeds and parameter
/// fingerprints.
pub fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The seed of cell `cell` of seed group `group` in a run of `master`.
pub fn cell_seed(master: u64, group: &str, cell: &str) -> u64 {
    search_core::rng::derive_seed(master, fnv(&format!("{group}/{cell}")))
}

/// Where cell `cell` of job `job` is saved in `out`.
pub fn cell_path(out: &Path, job: &str, cell: &str) -> PathBuf {
    out.join("cells").join(job).join(format!("{}.json", cell.replace(['/', ' '], "_")))
}

/// The message for a cell at `path` of another run (`theirs`) than `ours`:
/// such a cell is never mixed in.
pub fn foreign_cell(path: &Path, theirs: RunKey, ours: RunKey) -> String {
    format!("{} is a cell of another run ({theirs}, not {ours}): refusing to mix runs", path.display())
}

/// Loads the saved cell `cell` of `job` in `dir`, checked against this run
/// and the job's `params`.
pub fn load_cell(dir: &Path, job: &dyn Job, key: RunKey, params: &Value, cell: &str) -> Loaded {
    let seed = cell_seed(key.seed, job.seed_group(), cell);
    let ck = CellKey { experiment: job.name(), cell, run: key, seed, version: job.version(), params };
    store::load(&cell_path(dir, job.name(), cell), &ck)
}

/// Runs every cell of `jobs` (this shard's share) that `config.out` does not
/// already hold intact, in parallel on rayon's pool, saving each as it
/// finishes. Once a cell cannot be saved (a full disk), no further cell is
/// started: its work would be lost too.
pub fn run_cells(jobs: &[&dyn Job], config: &RunConfig, observer: &dyn RunObserver) -> Result<(), RunError> {
    let mut work = Vec::new();
    let mut foreign = Vec::new();
    // Rows of finished cells per job, for `Job::progress`.
    let tally: Mutex<BTreeMap<String, Vec<Row>>> = Mutex::default();
    let mut index = 0usize;
    for job in jobs {
        let params = job.params(config.key.scale);
        for cell in job.cells(config.key.scale) {
            let mine = config.shard.is_none_or(|s| s.takes(index));
            index += 1;
            if !mine {
                continue;
            }
            let seed = cell_seed(config.key.seed, job.seed_group(), &cell);
            let path = cell_path(&config.out, job.name(), &cell);
            match load_cell(&config.out, *job, config.key, &params, &cell) {
                Loaded::Valid { rows, .. } => {
                    tally.lock().expect("tally").entry(job.name().to_string()).or_default().extend(rows);
                    continue;
                }
                Loaded::Absent => {}
                Loaded::Corrupt(why) => {
                    let aside = store::rejected_path(&path);
                    let moved = fs::rename(&path, &aside).is_ok();
                    observer.recomputing(&path, &why, moved.then_some(aside.as_path()));
                }
                Loaded::Stale(why) => observer.recomputing(&path, &why, None),
                Loaded::Foreign(theirs) => foreign.push(foreign_cell(&path, theirs, config.key)),
            }
            work.push((*job, cell, seed, path, params.clone()));
        }
    }
    if !foreign.is_empty() {
        return Err(RunError::Foreign(foreign));
    }
    observer.planned(work.len(), index);
    let save_failed = AtomicBool::new(false);
    let skipped = AtomicUsize::new(0);
    let failures: Vec<String> = work
        .par_iter()
        .filter_map(|(job, cell, seed, path, params)| {
            if save_failed.load(Ordering::Relaxed) {
                skipped.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            let started = Instant::now();
            let result = job.run_cell(config.key.scale, cell, *seed);
            let summary = result.as_ref().ok().and_then(|rows| {
                let mut tally = tally.lock().expect("tally");
                let all = tally.entry(job.name().to_string()).or_default();
                all.extend(rows.iter().cloned());
                job.progress(all)
            });
            observer.cell_finished(job.name(), cell, summary.as_deref());
            match result {
                Ok(rows) => {
                    let ck = CellKey {
                        experiment: job.name(),
                        cell,
                        run: config.key,
                        seed: *seed,
                        version: job.version(),
                        params,
                    };
                    let text = store::cell_text(&ck, started.elapsed().as_secs_f64(), &rows);
                    write_atomic(path, &text).err().map(|err| {
                        save_failed.store(true, Ordering::Relaxed);
                        format!("{}/{cell}: cannot save {}: {err}", job.name(), path.display())
                    })
                }
                Err(err) => Some(format!("{}/{cell}: {err}", job.name())),
            }
        })
        .collect();
    let skipped = skipped.into_inner();
    if failures.is_empty() { Ok(()) } else { Err(RunError::Cells { failures, skipped }) }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Each cell's row is its seed: the rows show which seed a cell got.
    struct Seeds(&'static str, usize);

    impl Job for Seeds {
        fn name(&self) -> &str {
            self.0
        }
        fn version(&self) -> u32 {
            1
        }
        fn params(&self, _: Scale) -> Value {
            json!({ "cells": self.1 })
        }
        fn cells(&self, _: Scale) -> Vec<String> {
            (0..self.1).map(|i| format!("c{i}")).collect()
        }
        fn run_cell(&self, _: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, CellError> {
            if cell == "c13" && self.0 == "failing" {
                return Err("planned failure".into());
            }
            Ok(vec![Row::from_iter([("seed".to_string(), json!(seed))])])
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tournament-runner-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn rows(out: &Path, job: &Seeds, key: RunKey) -> Vec<Option<Vec<Row>>> {
        let params = job.params(key.scale);
        job.cells(key.scale)
            .iter()
            .map(|c| match load_cell(out, job, key, &params, c) {
                Loaded::Valid { rows, .. } => Some(rows),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn shards_together_make_the_whole_run_and_seeds_do_not_depend_on_them() {
        let key = RunKey { seed: 5, scale: Scale::Quick };
        let job = Seeds("seeds", 20);
        let whole = scratch("whole");
        let names = ["seeds".to_string()];
        let _a = store::open_out(&whole, key, &names, &["all".into()]).unwrap();
        run_cells(&[&job], &RunConfig { key, out: whole.clone(), shard: None }, &()).unwrap();
        let sharded = scratch("sharded");
        let _b = store::open_out(&sharded, key, &names, &["0/3".into()]).unwrap();
        for i in 0..3 {
            let shard = Some(Shard::new(i, 3).unwrap());
            run_cells(&[&job], &RunConfig { key, out: sharded.clone(), shard }, &()).unwrap();
        }
        let all = rows(&whole, &job, key);
        assert!(all.iter().all(Option::is_some));
        assert_eq!(all, rows(&sharded, &job, key));
        for dir in [whole, sharded] {
            fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn a_failed_cell_is_reported_and_the_rest_are_kept() {
        struct Count(AtomicUsize);
        impl RunObserver for Count {
            fn planned(&self, to_run: usize, _: usize) {
                self.0.store(to_run, Ordering::Relaxed);
            }
        }
        let key = RunKey { seed: 5, scale: Scale::Quick };
        let out = scratch("failing");
        let _lock = store::open_out(&out, key, &["failing".into()], &["all".into()]).unwrap();
        let job = Seeds("failing", 20);
        let config = RunConfig { key, out: out.clone(), shard: None };
        let count = Count(AtomicUsize::new(0));
        let err = run_cells(&[&job], &config, &count).unwrap_err();
        assert_eq!(count.0.load(Ordering::Relaxed), 20);
        assert!(err.to_string().contains("failing/c13: planned failure"), "{err}");
        // A rerun tries only the failed cell again.
        assert!(run_cells(&[&job], &config, &count).is_err());
        assert_eq!(count.0.load(Ordering::Relaxed), 1);
        fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn cell_seeds_depend_on_the_cell_not_the_schedule() {
        assert_eq!(cell_seed(1, "a", "b"), cell_seed(1, "a", "b"));
        assert_ne!(cell_seed(1, "a", "b"), cell_seed(1, "a", "c"));
        assert_ne!(cell_seed(1, "a", "b"), cell_seed(2, "a", "b"));
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard::new(2, 4).unwrap());
        for bad in ["4/4", "1/0", "x/2", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
