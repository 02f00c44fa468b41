//! A run of jobs on the cell store, as a task shows it on the terminal.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use tournament::runner::{self, Job, RunObserver, Shard};
use tournament::store::{self, OutLock, RunKey, StoreError};

use crate::TaskResult;

/// Opens `out` for a run of `key` (the cell store's [`store::open_out`]),
/// printing the store's warning where the directory cannot be locked.
pub fn open_out(out: &Path, key: RunKey, names: &[String], shards: &[String]) -> Result<OutLock, StoreError> {
    let lock = store::open_out(out, key, names, shards)?;
    if let Some(warning) = lock.warning() {
        eprintln!("warning: {warning}");
    }
    Ok(lock)
}

/// Where and how cells run: the run they belong to, the output directory
/// and the share of the cells.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The command, for messages (`reproduce`, `match`, `calibrate`).
    pub label: &'static str,
    /// The run's seed and scale.
    pub key: RunKey,
    /// The output directory (the cell store).
    pub out: PathBuf,
    /// The share of the cells this process runs, if not all.
    pub shard: Option<Shard>,
}

/// The progress bar and the notes of a run on the terminal (cleared when
/// dropped).
#[derive(Debug)]
pub struct Terminal {
    label: &'static str,
    key: RunKey,
    shard: Option<Shard>,
    bar: ProgressBar,
}

impl Terminal {
    /// The terminal of a run of `config`.
    pub fn new(config: &RunConfig) -> Self {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} cells, eta {eta} {msg}")
                .expect("static template")
                .progress_chars("=> "),
        );
        Terminal { label: config.label, key: config.key, shard: config.shard, bar }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl RunObserver for Terminal {
    fn planned(&self, to_run: usize, total: usize) {
        self.bar.suspend(|| {
            eprintln!(
                "{}: {} scale, seed {}, {to_run} cells to run ({total} in all{})",
                self.label,
                self.key.scale.name(),
                self.key.seed,
                self.shard.map_or(String::new(), |s| format!(", shard {s}"))
            )
        });
        self.bar.set_length(to_run as u64);
        self.bar.set_position(0);
    }
    fn note(&self, text: &str) {
        self.bar.suspend(|| eprintln!("{}: {text}", self.label));
    }
    fn recomputing(&self, path: &Path, why: &str, moved_to: Option<&Path>) {
        match moved_to {
            Some(aside) => {
                eprintln!("warning: {}: {why}; moved aside to {}, recomputing it", path.display(), aside.display())
            }
            None => eprintln!("note: {}: {why}; recomputing it", path.display()),
        }
    }
    fn cell_finished(&self, job: &str, cell: &str, summary: Option<&str>) {
        self.bar.inc(1);
        self.bar.set_message(summary.map_or_else(|| format!("{job}/{cell}"), str::to_string));
    }
}

/// Runs every cell of `jobs` (this shard's share) that `config.out` does
/// not already hold intact, in parallel, saving each as it finishes (the
/// library's [`runner::run_cells`], with a progress bar).
pub fn run_jobs(jobs: &[&dyn Job], config: &RunConfig) -> TaskResult {
    let terminal = Terminal::new(config);
    let library = runner::RunConfig { key: config.key, out: config.out.clone(), shard: config.shard };
    Ok(runner::run_cells(jobs, &library, &terminal)?)
}
