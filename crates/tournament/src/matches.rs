//! A match between two agents as a [`Job`] of the cell runner: pairs of
//! games grouped into cells, each cell's pairs seeded from the cell's seed,
//! so that a match resumes where it stopped, grows without replaying what it
//! played, and gives the same games on any number of threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use search_core::Game;
use search_core::rng::derive_seed;
use serde_json::{Value, json};
use strength::pairing::{GameScore, PairOutcome};

use crate::runner::{CellError, Job, load_cell};
use crate::store::{Loaded, Row, RunKey, Scale};
use crate::summary::MatchSummary;
use crate::{Setup, TournamentError};

/// A cell id that is not `pairs-LO-HI`: not a cell of a match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad cell {0}")]
struct BadCell(String);

/// A [`Setup`] of any game, as a match sees it: object-safe, so that an
/// application picks the game at run time.
pub trait AnySetup: Send + Sync {
    /// [`Setup::name`].
    fn name(&self) -> &str;
    /// The agent kinds of the roster, with their help texts.
    fn kinds(&self) -> Vec<(String, String)>;
    /// [`Setup::check_spec`].
    fn check_spec(&self, spec: &str) -> Result<(), TournamentError>;
    /// [`Setup::random_openings`].
    fn random_openings(&self, count: usize, seed: u64) -> Result<Vec<String>, TournamentError>;
    /// [`Setup::check_opening`].
    fn check_opening(&self, text: &str) -> Result<(), TournamentError>;
    /// [`Setup::parse_openings`].
    fn parse_openings(&self, text: &str) -> Result<Vec<String>, (usize, TournamentError)>;
    /// [`Setup::play_pairs`].
    fn play_pairs(&self, a: &str, b: &str, pairs: &[(String, u64)]) -> Result<Vec<PairOutcome>, TournamentError>;
    /// [`Setup::max_plies`].
    fn max_plies(&self) -> usize;
    /// [`Setup::pairs_per_cell`].
    fn pairs_per_cell(&self) -> usize;
    /// [`Setup::play_version`].
    fn play_version(&self, spec: &str) -> Option<String>;
}

impl<G> AnySetup for Setup<G>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
{
    fn name(&self) -> &str {
        Setup::name(self)
    }
    fn kinds(&self) -> Vec<(String, String)> {
        self.roster().kinds()
    }
    fn check_spec(&self, spec: &str) -> Result<(), TournamentError> {
        Setup::check_spec(self, spec)
    }
    fn play_version(&self, spec: &str) -> Option<String> {
        Setup::play_version(self, spec)
    }
    fn random_openings(&self, count: usize, seed: u64) -> Result<Vec<String>, TournamentError> {
        Setup::random_openings(self, count, seed)
    }
    fn check_opening(&self, text: &str) -> Result<(), TournamentError> {
        Setup::check_opening(self, text)
    }
    fn parse_openings(&self, text: &str) -> Result<Vec<String>, (usize, TournamentError)> {
        Setup::parse_openings(self, text)
    }
    fn play_pairs(&self, a: &str, b: &str, pairs: &[(String, u64)]) -> Result<Vec<PairOutcome>, TournamentError> {
        Setup::play_pairs(self, a, b, pairs)
    }
    fn max_plies(&self) -> usize {
        Setup::max_plies(self)
    }
    fn pairs_per_cell(&self) -> usize {
        Setup::pairs_per_cell(self)
    }
}

/// The openings of a match and where they come from (recorded with every
/// cell: cells played from other openings are not reused).
#[derive(Debug, Clone, PartialEq)]
pub struct Openings {
    /// One text per opening (pair `i` plays opening `i` modulo their number).
    pub list: Vec<String>,
    /// Where they come from, e.g. `random, seed 7` or `file 9ab3...`.
    pub source: String,
}

/// Paired games of agent A against agent B on a setup, as cells of the
/// runner: `pairs` pairs, pair `i` from opening `i` (cycling), seeded from
/// its cell's seed and its index.
pub struct MatchJob {
    setup: Arc<dyn AnySetup>,
    name: String,
    a: String,
    b: String,
    openings: Openings,
    pairs: usize,
    per_cell: usize,
    /// Cells offered to the runner (all, or a prefix for SPRT waves).
    offered: AtomicUsize,
}

impl std::fmt::Debug for MatchJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchJob")
            .field("game", &self.setup.name())
            .field("name", &self.name)
            .field("a", &self.a)
            .field("b", &self.b)
            .field("pairs", &self.pairs)
            .finish_non_exhaustive()
    }
}

impl MatchJob {
    /// `pairs` pairs of `a` against `b` on `setup`, saved under `name` in
    /// the store (unique among the jobs of one output directory), with
    /// every cell offered.
    pub fn new(
        setup: Arc<dyn AnySetup>,
        name: impl Into<String>,
        a: impl Into<String>,
        b: impl Into<String>,
        openings: Openings,
        pairs: usize,
    ) -> Self {
        let per_cell = setup.pairs_per_cell().max(1);
        MatchJob {
            setup,
            name: name.into(),
            a: a.into(),
            b: b.into(),
            openings,
            pairs,
            per_cell,
            offered: AtomicUsize::new(usize::MAX),
        }
    }

    /// Agent A's spec.
    pub fn a(&self) -> &str {
        &self.a
    }

    /// Agent B's spec.
    pub fn b(&self) -> &str {
        &self.b
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.pairs.div_ceil(self.per_cell)
    }

    /// Offers only the first `cells` cells to the runner (SPRT in waves).
    pub fn offer(&self, cells: usize) {
        self.offered.store(cells, Ordering::Relaxed);
    }

    /// The cells offered now.
    pub fn offered(&self) -> usize {
        self.offered.load(Ordering::Relaxed).min(self.cell_count())
    }

    fn cell_id(&self, i: usize) -> String {
        let lo = i * self.per_cell;
        let hi = ((i + 1) * self.per_cell).min(self.pairs);
        format!("pairs-{lo:06}-{hi:06}")
    }

    /// The pairs `lo..hi` of a cell named `pairs-LO-HI` ([`Self::cell_id`]).
    fn cell_range(cell: &str) -> Result<(usize, usize), BadCell> {
        let bad = || BadCell(cell.to_string());
        match cell.split('-').collect::<Vec<_>>().as_slice() {
            ["pairs", lo, hi] => Ok((lo.parse().map_err(|_| bad())?, hi.parse().map_err(|_| bad())?)),
            _ => Err(bad()),
        }
    }

    /// The pairs of every cell held intact in `out`, in cell order (`None`
    /// for a cell not there).
    pub fn load(&self, out: &std::path::Path, key: RunKey) -> Vec<Option<Vec<PairOutcome>>> {
        let params = self.params(key.scale);
        (0..self.cell_count())
            .map(|i| match load_cell(out, self, key, &params, &self.cell_id(i)) {
                Loaded::Valid { rows, .. } => rows.iter().map(pair_of_row).collect(),
                _ => None,
            })
            .collect()
    }
}

/// The seed of pair `index` (counted over the whole match) of a cell whose
/// seed is `cell_seed`.
pub fn pair_seed(cell_seed: u64, index: usize) -> u64 {
    derive_seed(cell_seed, index as u64)
}

fn game_row(p: &GameScore) -> Value {
    json!([p.score, p.plies, p.adjudicated])
}

fn game_of(v: &Value) -> Option<GameScore> {
    let a = v.as_array()?;
    Some(GameScore {
        score: a.first()?.as_f64()?,
        plies: a.get(1)?.as_u64()? as usize,
        adjudicated: a.get(2)?.as_bool()?,
    })
}

/// The pair a saved row holds.
pub fn pair_of_row(r: &Row) -> Option<PairOutcome> {
    Some(PairOutcome { a_first: game_of(r.get("a_first")?)?, b_first: game_of(r.get("b_first")?)? })
}

impl Job for MatchJob {
    fn name(&self) -> &str {
        &self.name
    }
    fn version(&self) -> u32 {
        1
    }
    fn params(&self, _scale: Scale) -> Value {
        let mut params = json!({
            "game": self.setup.name(),
            "a": self.a,
            "b": self.b,
            "openings": self.openings.source,
            "pairs_per_cell": self.per_cell,
            "max_plies": self.setup.max_plies(),
        });
        // Only agents whose play changes between releases state a version;
        // the other matchups' parameters (and saved cells) stay as they were.
        let versions: serde_json::Map<String, Value> = [("a", &self.a), ("b", &self.b)]
            .into_iter()
            .filter_map(|(side, spec)| self.setup.play_version(spec).map(|v| (side.to_string(), Value::from(v))))
            .collect();
        if !versions.is_empty() {
            params["play_versions"] = Value::Object(versions);
        }
        params
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        (0..self.offered()).map(|i| self.cell_id(i)).collect()
    }
    fn run_cell(&self, _scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, CellError> {
        let (lo, hi) = Self::cell_range(cell)?;
        let list = &self.openings.list;
        let pairs: Vec<(String, u64)> = (lo..hi).map(|i| (list[i % list.len()].clone(), pair_seed(seed, i))).collect();
        let results = self.setup.play_pairs(&self.a, &self.b, &pairs)?;
        Ok(results
            .iter()
            .zip(lo..hi)
            .map(|(p, i)| {
                Row::from_iter([
                    ("pair".to_string(), json!(i)),
                    ("opening".to_string(), json!(list[i % list.len()])),
                    ("a_first".to_string(), game_row(&p.a_first)),
                    ("b_first".to_string(), game_row(&p.b_first)),
                ])
            })
            .collect())
    }
    fn seed_group(&self) -> &str {
        "match"
    }
    fn progress(&self, rows: &[Row]) -> Option<String> {
        let pairs: Vec<PairOutcome> = rows.iter().filter_map(pair_of_row).collect();
        Some(MatchSummary::new(&pairs, None).progress_line())
    }
}
