//! `cargo xtask human train`, `eval` and `rate`: the human-like
//! chess opponent ([`games_chess::human`]) fitted on the Lichess corpus of
//! `data/human/` and measured on its held-out test split.
//!
//! * `train` reads the corpus (counting the games left out and why),
//!   computes every decision's move features once per search depth
//!   (cached under the target directory), fits the candidate models on the
//!   train split, compares them by validation log-likelihood (with the
//!   plain Boltzmann player of [`strength::fit`] as the baseline), and
//!   writes the best to `crates/games-chess/calibration/human-chess.json`,
//!   which the chess crate embeds.
//! * `eval` reads only the test split: per rating band, how often
//!   `human:X` (mode and sample) plays the human's move, the
//!   log-likelihood per move against the uniform and Boltzmann baselines,
//!   the move match of Stockfish (limited to the band's rating, and at full
//!   strength), of our alpha-beta engine and of the dial's `elo:X`, and
//!   the distribution of the moves' losses against a deeper search.
//! * `rate` (in the `dial` crate, `human_rate`) plays `human:X` against the chess dial's ladder and
//!   gives the dial's Elo of each imitated rating.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use games_chess::external::{EngineLimit, UciEngineAgent};
use games_chess::human::{
    BANDS, BOOK, BOOK_MIN_VISITS, BOOK_PLIES, Book, Corpus, Decisions, FEATURES, HumanModel, K, Mask, MoveValues,
    PRIOR, Position, Skip, Split, VALUE_CAP, band_of, fit, fnv1a, log_sum_exp, mode, move_features, move_key,
    move_prior, rating_z, softmax, utilities,
};
use games_chess::{ChessEval, ChessGame};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::{Agent, rng};
use serde_json::{Value, json};
use strength::fit::{Decision, FitOptions, Model};

use crate::TaskResult;
use crate::human_network::{NetworkSetup, train_network};

/// The first ply of a game used: the opening before it is mostly book.
pub const FROM_PLY: usize = 10;

/// Where `train` writes the chosen model (relative to the workspace root):
/// the file the chess crate embeds as [`games_chess::human::MODEL_JSON`].
const MODEL_FILE: &str = games_chess::human::MODEL_PATH;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where the features are cached: `<target>/human-cache/`.
fn cache_dir() -> PathBuf {
    taskkit::target_dir(&root()).join("human-cache")
}

/// The files of `data/human/` the model is trained on, in name order.
pub const CORPUS_FILES: [&str; 4] = [
    "lichess-2013-2017-rated-train.csv.gz",
    "lichess-aaksh1234-2025.csv.gz",
    "lichess-cubicinfinity-2022-12-28.pgn.gz",
    "lichess-db-2021-10-sample.pgn.gz",
];

/// The training corpus ([`CORPUS_FILES`] of `data/human/`) and its
/// fingerprint (FNV-1a of the names and decompressed contents).
pub fn load_corpus() -> Result<(Corpus, String), String> {
    read_corpus(&CORPUS_FILES.iter().map(|f| data_dir().join(f)).collect::<Vec<_>>())
}

/// Every file of `data/human/` (not only the trainer's [`CORPUS_FILES`]),
/// read as the trainer reads them, and its fingerprint.
pub fn load_all_corpus() -> Result<(Corpus, String), String> {
    read_corpus(&data_files()?)
}

/// `data/human/`.
fn data_dir() -> PathBuf {
    root().join("data/human")
}

/// Every `.pgn.gz` and `.csv.gz` file of `data/human/`, in name order.
fn data_files() -> Result<Vec<PathBuf>, String> {
    let dir = data_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".pgn.gz") || p.to_string_lossy().ends_with(".csv.gz"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .pgn.gz or .csv.gz files in {}", dir.display()));
    }
    Ok(files)
}

/// The games of `files` (gzip-compressed PGN or CSV, by their names'
/// endings) and their fingerprint.
fn read_corpus(files: &[PathBuf]) -> Result<(Corpus, String), String> {
    let mut corpus = Corpus::new();
    let mut all = Vec::new();
    for f in files {
        let text = taskkit::read_text(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.ends_with(".csv.gz") {
            corpus.add_csv(&name, &text).map_err(|e| e.to_string())?;
        } else {
            corpus.add_pgn(&name, &text);
        }
        all.extend_from_slice(name.as_bytes());
        all.extend_from_slice(text.as_bytes());
    }
    Ok((corpus, format!("{:016x}", fnv1a(&all))))
}

/// Decisions with their moves' raw values (centipawns, mover's side), the
/// moves' prior keys, and each decision's position index.
#[derive(Debug, Clone, Default)]
struct Table {
    d: Decisions,
    values: Vec<f64>,
    keys: Vec<usize>,
    index: Vec<usize>,
}

impl Table {
    fn keys_of(&self, i: usize) -> &[usize] {
        &self.keys[self.d.starts[i]..self.d.starts[i + 1]]
    }

    /// The prior learned from this table's decisions.
    fn prior(&self) -> Vec<f64> {
        move_prior((0..self.d.len()).map(|i| (self.keys_of(i), self.d.chosen[i])))
    }

    /// Sets every move's `prior` feature from `prior`.
    fn set_prior(&mut self, prior: &[f64]) {
        for (row, &k) in self.keys.iter().enumerate() {
            self.d.x[row * K + PRIOR] = prior[k];
        }
    }

    /// Sets every move's `book` feature from `book` ([`Book::feature`]),
    /// less the counts of each decision's own game when `own` gives them
    /// (so that a train game does not see its own moves).
    fn set_book(&mut self, positions: &[Position], book: &Book, own: Option<&BTreeMap<usize, Book>>) {
        for i in 0..self.d.len() {
            let p = &positions[self.index[i]];
            let (lo, hi) = (self.d.starts[i], self.d.starts[i + 1]);
            let mine = own.and_then(|o| o.get(&p.game));
            for row in lo..hi {
                self.d.x[row * K + BOOK] = book.feature(&p.state, self.keys[row], hi - lo, mine);
            }
        }
    }

    fn values_of(&self, i: usize) -> &[f64] {
        &self.values[self.d.starts[i]..self.d.starts[i + 1]]
    }
    fn band(&self, i: usize) -> Option<u32> {
        band_of(self.d.ratings[i] as u32)
    }
}

/// A progress bar of `len` steps of `what`.
pub(crate) fn bar(len: usize, what: &str) -> ProgressBar {
    let b = ProgressBar::new(len as u64);
    if let Ok(s) =
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what}, eta {{eta}}"))
    {
        b.set_style(s);
    }
    b
}

/// An engine under test: its name, a note, and how it picks a move.
type Engine = (String, Option<String>, Box<dyn FnMut(&ChessGame) -> Option<games_chess::shakmaty::Move>>);

/// Every decision's move values at `depth` (legal moves in generation
/// order), computed in parallel: the expensive part, which the cache keeps.
fn search_values(positions: &[Position], chosen: &[usize], depth: u32, what: &str) -> Result<Vec<Vec<f64>>, String> {
    let b = bar(chosen.len(), what);
    let values = chosen
        .par_iter()
        .map_init(
            || MoveValues::new(depth, 2),
            |mv, &i| {
                let mv = mv.as_mut().map_err(|e| e.to_string())?;
                let (_, values) = mv.values(&positions[i].state).map_err(|e| e.to_string())?;
                b.inc(1);
                Ok(values)
            },
        )
        .collect();
    b.finish_and_clear();
    values
}

/// The decisions' features from their values (the prior and book features
/// 0 until [`Table::set_prior`] and [`Table::set_book`]).
fn features(positions: &[Position], chosen: &[usize], values: Vec<Vec<f64>>) -> Result<Table, String> {
    type Row = (Vec<f64>, Vec<usize>, usize);
    let rows: Vec<Result<Row, String>> = chosen
        .par_iter()
        .zip(&values)
        .map(|(&i, v)| {
            let p = &positions[i];
            let mut moves = Vec::new();
            search_core::Game::generate(&p.state, &mut moves);
            if moves.len() != v.len() {
                return Err(format!("decision {i}: {} values for {} moves", v.len(), moves.len()));
            }
            let f = move_features(&p.state, &moves, v, None, None);
            let keys = moves.iter().map(|m| move_key(&p.state, *m)).collect();
            let c = moves.iter().position(|m| *m == p.played).ok_or("the played move is not legal")?;
            Ok((f, keys, c))
        })
        .collect();
    let mut t = Table { d: Decisions::new(), ..Table::default() };
    for ((r, &i), v) in rows.into_iter().zip(chosen).zip(values) {
        let (f, keys, c) = r?;
        t.d.push(&f, c, f64::from(positions[i].rating));
        t.values.extend(v);
        t.keys.extend(keys);
        t.index.push(i);
    }
    Ok(t)
}

fn write_values(path: &Path, chosen: &[usize], values: &[Vec<f64>]) -> std::io::Result<()> {
    let mut out = Vec::new();
    out.extend_from_slice(&(chosen.len() as u64).to_le_bytes());
    for (i, v) in chosen.iter().zip(values) {
        out.extend_from_slice(&(*i as u64).to_le_bytes());
        out.extend_from_slice(&(v.len() as u64).to_le_bytes());
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
    std::fs::write(path, out)
}

/// The cached values of `chosen`, if the file holds exactly them.
fn read_values(path: &Path, chosen: &[usize]) -> Option<Vec<Vec<f64>>> {
    let bytes = std::fs::read(path).ok()?;
    let mut words = bytes.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()));
    let n = words.next()? as usize;
    if n != chosen.len() {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for &i in chosen {
        if words.next()? as usize != i {
            return None;
        }
        let m = words.next()? as usize;
        out.push((0..m).map(|_| words.next().map(f64::from_bits)).collect::<Option<Vec<f64>>>()?);
    }
    Some(out)
}

/// The decisions `chosen` with their features at `depth`; the searched
/// values come from the cache when it holds them (keyed by the data, the
/// selection and the depth).
fn table(positions: &[Position], chosen: &[usize], depth: u32, fingerprint: &str, what: &str) -> Result<Table, String> {
    let mut key = Vec::new();
    for i in chosen {
        key.extend_from_slice(&(*i as u64).to_le_bytes());
    }
    let path = cache_dir().join(format!("{fingerprint}-d{depth}-{:016x}.values", fnv1a(&key)));
    let values = match read_values(&path, chosen) {
        Some(v) => {
            eprintln!("{what}: {} decisions at depth {depth} from the cache {}", v.len(), path.display());
            v
        }
        None => {
            let v = search_values(positions, chosen, depth, what)?;
            if let Err(e) = write_values(&path, chosen, &v) {
                eprintln!("warning: could not cache the values in {}: {e}", path.display());
            }
            v
        }
    };
    features(positions, chosen, values)
}

/// At most `max` of `items`, evenly spaced (deterministic).
fn spaced(items: Vec<usize>, max: usize) -> Vec<usize> {
    if items.len() <= max {
        return items;
    }
    let n = items.len();
    (0..max).map(|j| items[j * n / max]).collect()
}

fn indices(positions: &[Position], split: Split) -> Vec<usize> {
    (0..positions.len()).filter(|&i| positions[i].split == split && band_of(positions[i].rating).is_some()).collect()
}

/// The corpus summary: games kept and left out, decisions per split and
/// band, players per split.
fn summary(corpus: &Corpus, positions: &[Position]) -> Value {
    let skipped: BTreeMap<&str, usize> = Skip::ALL.iter().map(|s| (s.name(), corpus.skipped_for(*s))).collect();
    let mut per_band: BTreeMap<String, BTreeMap<&str, usize>> = BTreeMap::new();
    for p in positions {
        if let Some(b) = band_of(p.rating) {
            *per_band.entry(format!("{b}-{}", b + 199)).or_default().entry(p.split.name()).or_default() += 1;
        }
    }
    let mut games_per_band: BTreeMap<String, usize> = BTreeMap::new();
    let mut players: BTreeMap<&str, std::collections::BTreeSet<&str>> = BTreeMap::new();
    for g in &corpus.games {
        let mut bands: Vec<u32> = g.ratings.iter().filter_map(|&r| band_of(r)).collect();
        bands.dedup();
        for b in bands {
            *games_per_band.entry(format!("{b}-{}", b + 199)).or_default() += 1;
        }
        for p in &g.players {
            players.entry(g.split.name()).or_default().insert(p.as_str());
        }
    }
    let players: BTreeMap<&str, usize> = players.into_iter().map(|(k, v)| (k, v.len())).collect();
    let mut speeds: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &corpus.games {
        *speeds.entry(g.time_control.map_or("unknown", |tc| tc.speed().name())).or_default() += 1;
    }
    json!({
        "games_kept": corpus.games.len(),
        "games_skipped": skipped,
        "skipped_examples": corpus.skipped.iter().take(5).map(|s| s.to_string()).collect::<Vec<_>>(),
        "games_per_band": games_per_band,
        "decisions_per_band": per_band,
        "players_per_split": players,
        "games_per_speed": speeds,
    })
}

/// Arguments of `cargo xtask human corpus`.
#[derive(Debug, Clone, clap::Args)]
pub struct CorpusArgs {
    /// The files to read: names in data/human/ or paths (default: every
    /// `.pgn.gz` and `.csv.gz` of data/human/, whether the committed model
    /// is trained on it or not).
    pub files: Vec<PathBuf>,
}

/// `cargo xtask human corpus`: what a set of game files holds once read
/// as the trainer reads it (games kept and left out with the first reasons,
/// decisions per rating band and split from the trainer's first ply, players
/// per split, games per speed), as JSON on stdout.
///
/// # Errors
///
/// A file that cannot be read, or a CSV file without a header or movetext.
pub fn corpus(args: CorpusArgs) -> TaskResult {
    let dir = data_dir();
    let files = if args.files.is_empty() {
        data_files()?
    } else {
        args.files.iter().map(|f| if f.exists() { f.clone() } else { dir.join(f) }).collect()
    };
    let (corpus, fingerprint) = read_corpus(&files)?;
    let positions = corpus.positions(FROM_PLY);
    let mut report = summary(&corpus, &positions);
    report["fingerprint"] = json!(fingerprint);
    report["files"] = json!(files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>());
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

/// Arguments of `cargo xtask human train`.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainArgs {
    /// The search depths of the move values to try (repeat or separate by commas).
    #[arg(long = "depth", value_delimiter = ',', default_values_t = [1u32, 2])]
    pub depths: Vec<u32>,
    /// The most train decisions used (evenly spaced over the split).
    #[arg(long, default_value_t = 60_000)]
    pub max_train: usize,
    /// The most validation decisions used.
    #[arg(long, default_value_t = 20_000)]
    pub max_validation: usize,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Fit only: leave the model's temperature curve out (`cargo xtask human temper` fits it).
    #[arg(long)]
    pub no_temper: bool,
    /// Linear models only: no network is trained.
    #[arg(long)]
    pub no_network: bool,
    /// The network's hidden layers' widths (separate by commas).
    #[arg(long, value_delimiter = ',', default_values_t = [128usize, 64])]
    pub hidden: Vec<usize>,
    /// Passes of the network's training over the train decisions.
    #[arg(long, default_value_t = 6)]
    pub epochs: usize,
    /// Seeds the network's initial weights and the order of its minibatches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The plain Boltzmann baseline: `p ∝ exp(θ v)` over the soft-capped
/// values, one θ per band fitted on `train` by [`strength::fit`].
fn boltzmann_per_band(train: &Table) -> Result<BTreeMap<u32, strength::fit::Fit>, String> {
    let mut out = BTreeMap::new();
    for b in BANDS {
        let decisions: Vec<Decision> = (0..train.d.len())
            .filter(|&i| train.band(i) == Some(b))
            .map(|i| Decision::new(train.values_of(i).to_vec(), train.d.chosen[i]))
            .collect();
        if decisions.is_empty() {
            continue;
        }
        let f = strength::fit::fit(&decisions, Model::Boltzmann, FitOptions::default().with_soft_cap(VALUE_CAP))
            .map_err(|e| e.to_string())?;
        out.insert(b, f);
    }
    Ok(out)
}

/// The Boltzmann baseline's log-likelihood of decision `i` of `t`.
fn boltzmann_ll(fits: &BTreeMap<u32, strength::fit::Fit>, t: &Table, i: usize) -> Option<f64> {
    let f = fits.get(&t.band(i)?)?;
    let p = f.probabilities(t.values_of(i)).ok()?;
    Some(p[t.d.chosen[i]].max(1e-300).ln())
}

/// How well a utility (`utilities(rows, rating)`, a linear fit's or a
/// model's) predicts the decisions of `t`: the log-likelihood per move and
/// how often the most likely move is the one played (the first in
/// generation order on ties, as `pick=mode` plays).
fn quality(t: &Table, utilities: impl Fn(&[f64], f64) -> Vec<f64>) -> (f64, f64) {
    let (mut ll, mut hits) = (0.0, 0usize);
    for i in 0..t.d.len() {
        let u = utilities(t.d.rows(i), t.d.ratings[i]);
        let c = t.d.chosen[i];
        ll += u[c] - log_sum_exp(&u);
        hits += usize::from(mode(&u) == c);
    }
    let n = t.d.len() as f64;
    (ll / n, hits as f64 / n)
}

/// Runs `cargo xtask human train`.
pub fn train(args: TrainArgs) -> TaskResult {
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global()?;
    }
    let (corpus, fingerprint) = load_corpus()?;
    let positions = corpus.positions(FROM_PLY);
    let summary = summary(&corpus, &positions);
    eprintln!("corpus {fingerprint}: {}", serde_json::to_string_pretty(&summary)?);
    let train_idx = spaced(indices(&positions, Split::Train), args.max_train);
    let val_idx = spaced(indices(&positions, Split::Validation), args.max_validation);
    let candidates: Vec<(&str, Mask, f64)> = vec![
        ("gap", Mask::only(&["gap", "log_gap", "best"], false), 1e-4),
        ("gap × rating", Mask::only(&["gap", "log_gap", "best"], true), 1e-4),
        ("all features", Mask { rating: false, ..Mask::all() }, 1e-4),
        ("all × rating, λ=1e-2", Mask::all(), 1e-2),
        ("all × rating, λ=1e-3", Mask::all(), 1e-3),
        ("all × rating, λ=1e-4", Mask::all(), 1e-4),
        ("all but prior × rating, λ=1e-3", Mask { features: (0..K).map(|k| k != PRIOR).collect(), rating: true }, 1e-3),
        ("all but book × rating, λ=1e-4", Mask { features: (0..K).map(|k| k != BOOK).collect(), rating: true }, 1e-4),
    ];
    let mut rows = Vec::new();
    let mut best: Option<(f64, HumanModel)> = None;
    for &depth in &args.depths {
        let mut tr = table(&positions, &train_idx, depth, &fingerprint, &format!("train d{depth}"))?;
        let mut va = table(&positions, &val_idx, depth, &fingerprint, &format!("validation d{depth}"))?;
        // The prior is learned on train only. On train itself each game's
        // own moves would inflate it: the train decisions see a prior
        // learned on the other half of the train games (two folds by game).
        let prior = tr.prior();
        let folds: Vec<usize> = tr.index.iter().map(|&p| positions[p].game % 2).collect();
        for half in 0..2 {
            let other =
                move_prior((0..tr.d.len()).filter(|&i| folds[i] != half).map(|i| (tr.keys_of(i), tr.d.chosen[i])));
            for i in (0..tr.d.len()).filter(|&i| folds[i] == half) {
                for row in tr.d.starts[i]..tr.d.starts[i + 1] {
                    tr.d.x[row * K + PRIOR] = other[tr.keys[row]];
                }
            }
        }
        va.set_prior(&prior);
        // The book: every train game's first plies; a train decision sees
        // it without its own game's moves.
        let mut own: BTreeMap<usize, Book> = BTreeMap::new();
        let mut book = Book::default();
        for (gi, g) in corpus.games.iter().enumerate().filter(|(_, g)| g.split == Split::Train) {
            book.add_game(&g.moves, BOOK_PLIES);
            own.entry(gi).or_default().add_game(&g.moves, BOOK_PLIES);
        }
        let own: BTreeMap<usize, Book> =
            tr.index.iter().filter_map(|&p| own.remove_entry(&positions[p].game)).collect();
        tr.set_book(&positions, &book, Some(&own));
        let book = book.pruned(BOOK_MIN_VISITS);
        va.set_book(&positions, &book, None);
        eprintln!("book: {} positions reached at least {BOOK_MIN_VISITS} times", book.positions());
        let fits = boltzmann_per_band(&tr)?;
        let ll = |t: &Table| (0..t.d.len()).filter_map(|i| boltzmann_ll(&fits, t, i)).sum::<f64>() / t.d.len() as f64;
        let thetas: Vec<String> = fits.iter().map(|(b, f)| format!("{b}: {:.4}", f.param)).collect();
        rows.push(json!({"depth": depth, "model": "Boltzmann θ per band (baseline)", "l2": null,
            "train_loglik": ll(&tr), "validation_loglik": ll(&va), "validation_match": null,
            "note": thetas.join(", ")}));
        eprintln!("d{depth} Boltzmann per band: validation {:.4} per move ({})", ll(&va), thetas.join(", "));
        let mut best_linear: Option<(f64, HumanModel)> = None;
        for (name, mask, l2) in &candidates {
            let r = fit(&tr.d, mask, *l2).ok_or("the fit failed (the Hessian is not negative definite)")?;
            let (vll, matched) = quality(&va, |rows, rating| utilities(&r.weights, rows, rating_z(rating)));
            eprintln!(
                "d{depth} {name}: train {:.4}, validation {vll:.4} per move, mode match {:.1}% ({} steps)",
                r.loglik_per_move,
                100.0 * matched,
                r.steps
            );
            rows.push(json!({"depth": depth, "model": name, "l2": l2, "train_loglik": r.loglik_per_move,
                "validation_loglik": vll, "validation_match": matched}));
            let model = HumanModel {
                depth,
                features: FEATURES.iter().map(|s| s.to_string()).collect(),
                weights: r.weights.clone(),
                prior: prior.clone(),
                book: book.clone(),
                mask: mask.clone(),
                l2: *l2,
                rating_center: games_chess::human::RATING_CENTER,
                rating_scale: games_chess::human::RATING_SCALE,
                from_ply: FROM_PLY,
                data_fingerprint: fingerprint.clone(),
                code_version: format!("games-chess {} ({} features)", env!("CARGO_PKG_VERSION"), K),
                train_moves: tr.d.len(),
                train_loglik: r.loglik_per_move,
                validation_loglik: vll,
                temper: Vec::new(),
                network: None,
            };
            if best_linear.as_ref().is_none_or(|(b, _)| vll > *b) {
                best_linear = Some((vll, model));
            }
        }
        let (linear_vll, linear) = best_linear.ok_or("no linear model was fitted")?;
        if best.as_ref().is_none_or(|(b, _)| linear_vll > *b) {
            best = Some((linear_vll, linear.clone()));
        }
        if !args.no_network {
            let setup = NetworkSetup {
                hidden: args.hidden.clone(),
                epochs: args.epochs,
                seed: args.seed,
                ..NetworkSetup::default()
            };
            let name = format!("network {:?} over all × rating (AdamW, {} epochs)", setup.hidden, setup.epochs);
            let b = bar(0, &format!("minibatches: d{depth} {name}"));
            let net = train_network(&tr.d, &setup, |done, total| {
                b.set_length(total as u64);
                b.set_position(done as u64);
            })?;
            b.finish_and_clear();
            let model = HumanModel { network: Some(net), ..linear };
            let (tll, _) = quality(&tr, |rows, rating| model.utilities(rows, rating));
            let (vll, matched) = quality(&va, |rows, rating| model.utilities(rows, rating));
            eprintln!(
                "d{depth} {name}: train {tll:.4}, validation {vll:.4} per move, mode match {:.1}%",
                100.0 * matched
            );
            rows.push(json!({"depth": depth, "model": name, "l2": null, "train_loglik": tll,
                "validation_loglik": vll, "validation_match": matched}));
            let model = HumanModel { train_loglik: tll, validation_loglik: vll, ..model };
            if best.as_ref().is_none_or(|(b, _)| vll > *b) {
                best = Some((vll, model));
            }
        }
    }
    let (_, model) = best.ok_or("no model was fitted")?;
    let text = model.to_json();
    let path = root().join(MODEL_FILE);
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {} (the engine embeds it: rebuild to play it)", path.display());
    let report = json!({"corpus": summary, "fingerprint": fingerprint, "train_decisions": train_idx.len(),
        "validation_decisions": val_idx.len(), "models": rows, "chosen": {"depth": model.depth, "l2": model.l2,
        "validation_loglik": model.validation_loglik}});
    let out = cache_dir().join("train-report.json");
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    println!("{}", markdown_models(&report));
    eprintln!("report: {}", out.display());
    Ok(())
}

fn markdown_models(report: &Value) -> String {
    let mut s = String::from(
        "| depth | model | train log-lik/move | validation log-lik/move | validation mode match |\n| --- | --- | --- | --- | --- |\n",
    );
    for r in report["models"].as_array().into_iter().flatten() {
        let f = |k: &str| r[k].as_f64().map_or("–".into(), |v| format!("{v:.4}"));
        let m = r["validation_match"].as_f64().map_or("–".into(), |v| format!("{:.1}%", 100.0 * v));
        s += &format!(
            "| {} | {} | {} | {} | {m} |\n",
            r["depth"],
            r["model"].as_str().unwrap_or(""),
            f("train_loglik"),
            f("validation_loglik")
        );
    }
    s
}

/// Arguments of `cargo xtask human eval`.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// Test positions per 200-point band.
    #[arg(long, default_value_t = 300)]
    pub positions: usize,
    /// Milliseconds per move for Stockfish and our alpha-beta engine.
    #[arg(long, default_value_t = 100)]
    pub movetime_ms: u64,
    /// Stockfish's path (default: `stockfish` on the PATH, else /usr/games/stockfish; none: left out).
    #[arg(long)]
    pub stockfish: Option<PathBuf>,
    /// The seed of pick=sample's draws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// An earlier model's JSON whose log-likelihood is reported beside the committed model's, on the same
    /// test positions (its features must be among this code's, matched by name).
    #[arg(long, value_name = "FILE")]
    pub compare_model: Option<PathBuf>,
    /// The model's own figures only: no engine plays the test positions (seconds instead of minutes).
    #[arg(long)]
    pub model_only: bool,
    /// Write the SVG plots (human-match.svg, human-mistakes.svg) into this directory.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

impl EvalArgs {
    /// The time per move of Stockfish and of our alpha-beta engine.
    pub fn movetime(&self) -> Duration {
        Duration::from_millis(self.movetime_ms)
    }
}

fn find_stockfish(given: Option<&PathBuf>) -> Option<PathBuf> {
    if let Some(p) = given {
        return Some(p.clone());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("stockfish"))
        .find(|p| p.is_file());
    on_path.or_else(|| Some(PathBuf::from("/usr/games/stockfish")).filter(|p| p.is_file()))
}

/// The loss of every move of a position against the best (centipawns,
/// soft-capped values, at most 2·cap).
fn losses(values: &[f64]) -> Vec<f64> {
    let capped: Vec<f64> = values.iter().map(|v| VALUE_CAP * (v / VALUE_CAP).tanh()).collect();
    let best = capped.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    capped.iter().map(|v| best - v).collect()
}

/// The earth mover's distance between two samples of losses (the area
/// between their empirical distribution functions), in centipawns.
pub fn emd(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let mut xs: Vec<f64> = a.iter().chain(b).copied().collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let cdf = |s: &[f64], x: f64| s.iter().filter(|&&v| v <= x).count() as f64 / s.len() as f64;
    Some(xs.windows(2).map(|w| (cdf(a, w[0]) - cdf(b, w[0])).abs() * (w[1] - w[0])).sum())
}

/// Histogram bins of the losses (centipawns).
const LOSS_BINS: [(f64, f64); 6] =
    [(0.0, 0.5), (0.5, 50.0), (50.0, 100.0), (100.0, 200.0), (200.0, 400.0), (400.0, f64::INFINITY)];

fn histogram(l: &[f64]) -> Vec<f64> {
    LOSS_BINS
        .iter()
        .map(|&(lo, hi)| l.iter().filter(|&&x| x >= lo && x < hi).count() as f64 / l.len().max(1) as f64)
        .collect()
}

/// An earlier model's weights mapped onto this code's features by name
/// (features it lacks weigh 0), with its prior: what `--compare-model`
/// scores.
fn earlier_model(path: &Path) -> Result<(Vec<f64>, Vec<f64>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let names: Vec<&str> = v["features"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let w: Vec<f64> = v["weights"].as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
    let prior: Vec<f64> = v["prior"].as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
    let k = names.len();
    if k == 0 || w.len() != 2 * k || prior.len() != games_chess::human::KEYS {
        return Err(format!("{}: not a human model (features, weights, prior)", path.display()));
    }
    let mut mapped = vec![0.0; 2 * K];
    for (i, name) in names.iter().enumerate() {
        let j = FEATURES
            .iter()
            .position(|f| f == name)
            .ok_or_else(|| format!("{}: feature {name} is not this code's", path.display()))?;
        mapped[j] = w[i];
        mapped[K + j] = w[k + i];
    }
    Ok((mapped, prior))
}

/// Runs `cargo xtask human eval`.
pub fn eval(args: EvalArgs) -> TaskResult {
    let movetime = args.movetime();
    let model = HumanModel::from_json(games_chess::human::MODEL_JSON)?;
    let (corpus, fingerprint) = load_corpus()?;
    if fingerprint != model.data_fingerprint {
        eprintln!("warning: the model was fitted on data {} but data/human/ is {fingerprint}", model.data_fingerprint);
    }
    let positions = corpus.positions(model.from_ply);
    let test_all = indices(&positions, Split::Test);
    let mut test_idx = Vec::new();
    for b in BANDS {
        let band: Vec<usize> = test_all.iter().copied().filter(|&i| band_of(positions[i].rating) == Some(b)).collect();
        test_idx.extend(spaced(band, args.positions));
    }
    let mut test = table(&positions, &test_idx, model.depth, &fingerprint, "test")?;
    // The earlier model sees its own prior; features it lacks (the book,
    // say) weigh 0 in it.
    let earlier = match &args.compare_model {
        Some(path) => {
            let (w, prior) = earlier_model(path)?;
            let mut t = test.clone();
            t.set_prior(&prior);
            Some((w, t))
        }
        None => None,
    };
    test.set_prior(&model.prior);
    test.set_book(&positions, &model.book, None);
    // The Boltzmann baseline is fitted on train, at the model's depth.
    let train_idx = spaced(indices(&positions, Split::Train), model.train_moves);
    let train = table(&positions, &train_idx, model.depth, &fingerprint, "train (for the baseline)")?;
    let fits = boltzmann_per_band(&train)?;
    // A deeper search scores every move for the loss distributions.
    let deep_depth = model.depth + 2;
    let deep = table(&positions, &test_idx, deep_depth, &fingerprint, &format!("test d{deep_depth} (losses)"))?;
    let stockfish = find_stockfish(args.stockfish.as_ref());
    if stockfish.is_none() {
        eprintln!("Stockfish not found: its columns are left out");
    }
    let dial = Some(strength::dial::Dial::new(registry::game("chess")?.calibration()?)?);
    let roster = registry::chess_roster()?;
    let mut bands_out = Vec::new();
    let b = bar(test.d.len(), "test positions");
    for band in BANDS {
        let rows: Vec<usize> = (0..test.d.len()).filter(|&i| test.band(i) == Some(band)).collect();
        if rows.is_empty() {
            continue;
        }
        let x = f64::from(band + 100);
        let n = rows.len() as f64;
        let mut r = rng::seeded(args.seed ^ u64::from(band));
        let (mut mode_hits, mut sample_hits, mut expected) = (0usize, 0usize, 0.0);
        let (mut ll_h, mut ll_u, mut ll_b, mut nb) = (0.0, 0.0, 0.0, 0usize);
        let (mut loss_player, mut loss_human) = (Vec::new(), Vec::new());
        // human:X draws at the model's temperature and gap weight for X;
        // the likelihoods are the fitted model's at the mover's own rating,
        // untempered and as drawn.
        let tx = model.temperature(x);
        let mut ll_t = 0.0;
        let ll_earlier: Option<f64> = earlier.as_ref().map(|(w, t)| {
            rows.iter()
                .map(|&i| softmax(&utilities(w, t.d.rows(i), rating_z(t.d.ratings[i])))[t.d.chosen[i]].ln())
                .sum::<f64>()
                / n
        });
        for &i in &rows {
            let p = model.drawn(test.d.rows(i), x);
            let own = test.d.ratings[i];
            let ph = model.probabilities(test.d.rows(i), own);
            let pt = model.drawn(test.d.rows(i), own);
            let c = test.d.chosen[i];
            // pick=mode: the model's most likely move (neither the
            // temperature nor the gap weight moves it).
            let mode = mode(&model.probabilities(test.d.rows(i), x));
            let draw = search_core::rng::sample_index(&p, &mut r);
            mode_hits += usize::from(mode == c);
            sample_hits += usize::from(draw == c);
            expected += p[c];
            ll_h += ph[c].ln();
            ll_t += pt[c].ln();
            ll_u -= (p.len() as f64).ln();
            if let Some(l) = boltzmann_ll(&fits, &test, i) {
                ll_b += l;
                nb += 1;
            }
            let l = losses(deep.values_of(i));
            loss_player.push(l[c]);
            loss_human.push(l[draw]);
        }
        // The engines, on the same positions.
        let mut engines: Vec<Engine> = Vec::new();
        if let Some(sf) = stockfish.as_ref().filter(|_| !args.model_only) {
            let elo = x.max(1350.0).round() as i64;
            let note =
                (elo as f64 > x).then(|| format!("UCI_Elo {elo}: Debian's Stockfish 15.1 goes no lower than 1350"));
            let limit = EngineLimit::MoveTime(movetime);
            let opts =
                vec![("UCI_LimitStrength".to_string(), "true".to_string()), ("UCI_Elo".to_string(), elo.to_string())];
            let mut weak = UciEngineAgent::spawn(sf, &opts, limit)?;
            engines.push((format!("Stockfish UCI_Elo={elo}"), note, Box::new(move |g| weak.best_move(g).ok())));
            let mut full = UciEngineAgent::spawn(sf, &[], limit)?;
            engines.push(("Stockfish full".into(), None, Box::new(move |g| full.best_move(g).ok())));
        }
        if !args.model_only {
            let opts = Options::recommended::<ChessGame, Minimax, ChessEval>(&ChessEval).with_table_mib(16);
            let mut ab = SearchAgent::new(Search::new(Minimax, ChessEval, opts)?, Limits::time(movetime));
            let mut abr = rng::seeded(args.seed);
            engines.push(("our alpha-beta".into(), None, Box::new(move |g| ab.choose(g, &mut abr).ok())));
        }
        if let Some(d) = dial.as_ref().filter(|_| !args.model_only) {
            let (lo, hi) = d.range();
            let e = x.clamp(lo.ceil(), hi.floor());
            let note = (e != x).then(|| format!("elo:{e}: the dial's range is {lo:.0} to {hi:.0}"));
            let mut agent = roster().build(&format!("elo:{e}"))?;
            let mut er = rng::seeded(args.seed ^ 0xe10);
            engines.push((format!("elo:{e}"), note, Box::new(move |g| agent.choose(g, &mut er).ok())));
        }
        let mut engine_out = Vec::new();
        let mut loss_sf = Vec::new();
        for (ei, (name, note, play)) in engines.iter_mut().enumerate() {
            let mut hits = 0;
            let mut errors = 0;
            for &i in &rows {
                let p = &positions[test.index[i]];
                match play(&p.state) {
                    Some(mv) => {
                        hits += usize::from(mv == p.played);
                        if ei == 0 && stockfish.is_some() {
                            let mut moves = Vec::new();
                            search_core::Game::generate(&p.state, &mut moves);
                            if let Some(j) = moves.iter().position(|m| *m == mv) {
                                loss_sf.push(losses(deep.values_of(i))[j]);
                            }
                        }
                    }
                    None => errors += 1,
                }
                b.inc(1);
            }
            b.set_position(b.position().saturating_sub(rows.len() as u64));
            engine_out.push(json!({"engine": name, "match": hits as f64 / n, "errors": errors, "note": note}));
        }
        b.inc(rows.len() as u64);
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        bands_out.push(json!({
            "band": format!("{band}-{}", band + 199),
            "rating": x,
            "positions": rows.len(),
            "human_mode_match": mode_hits as f64 / n,
            "human_sample_match": sample_hits as f64 / n,
            "human_expected_match": expected / n,
            "temperature": tx,
            "gap_weight": model.gap_weight(x),
            "loglik_human": ll_h / n,
            "loglik_human_tempered": ll_t / n,
            "loglik_earlier_model": ll_earlier,
            "loglik_uniform": ll_u / n,
            "loglik_boltzmann": if nb > 0 { Some(ll_b / nb as f64) } else { None },
            "engines": engine_out,
            "loss_mean": {"players": mean(&loss_player), "human_sample": mean(&loss_human),
                "stockfish_elo": if loss_sf.is_empty() { None } else { Some(mean(&loss_sf)) }},
            "emd_human_vs_players": emd(&loss_human, &loss_player),
            "emd_stockfish_elo_vs_players": emd(&loss_sf, &loss_player),
            "loss_histogram": {"bins_cp": LOSS_BINS.iter().map(|b| format!("{}–{}", b.0, b.1)).collect::<Vec<_>>(),
                "players": histogram(&loss_player), "human_sample": histogram(&loss_human),
                "stockfish_elo": histogram(&loss_sf)},
        }));
    }
    b.finish_and_clear();
    let report = json!({
        "model": {"depth": model.depth, "l2": model.l2, "data": model.data_fingerprint, "code": model.code_version},
        "earlier_model": args.compare_model.as_ref().map(|p| p.display().to_string()),
        "test_positions_per_band": args.positions,
        "movetime_ms": args.movetime_ms,
        "loss_search_depth": deep_depth,
        "seed": args.seed,
        "bands": bands_out,
    });
    let out = cache_dir().join("eval-report.json");
    std::fs::create_dir_all(cache_dir())?;
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    if let Some(dir) = &args.plots {
        plots(&report, dir)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", markdown_eval(&report));
        eprintln!("report: {}", out.display());
    }
    Ok(())
}

fn pct(v: &Value) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{:.1}%", 100.0 * x))
}

fn num(v: &Value) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{x:.3}"))
}

/// The eval report as Markdown: one table per band, then a summary.
pub fn markdown_eval(report: &Value) -> String {
    let mut s = String::new();
    for b in report["bands"].as_array().into_iter().flatten() {
        s += &format!(
            "\n### {} ({} test positions)\n\n| player | move match |\n| --- | --- |\n",
            b["band"].as_str().unwrap_or(""),
            b["positions"]
        );
        let x = b["rating"].as_f64().unwrap_or(f64::NAN);
        s += &format!("| human:{x:.0},pick=mode | {} |\n", pct(&b["human_mode_match"]));
        s += &format!(
            "| human:{x:.0},pick=sample (temperature {:.2}) | {} (expected {}) |\n",
            b["temperature"].as_f64().unwrap_or(1.0),
            pct(&b["human_sample_match"]),
            pct(&b["human_expected_match"])
        );
        for e in b["engines"].as_array().into_iter().flatten() {
            let note = e["note"].as_str().map_or(String::new(), |n| format!(" ({n})"));
            s += &format!("| {}{note} | {} |\n", e["engine"].as_str().unwrap_or(""), pct(&e["match"]));
        }
        s += &format!(
            "\nlog-likelihood per move: human {} (tempered {}; the earlier model {}), Boltzmann {}, uniform {}; mean loss (cp): players {}, human {}, Stockfish UCI_Elo {}; EMD to the players: human {}, Stockfish UCI_Elo {}\n",
            num(&b["loglik_human"]),
            num(&b["loglik_human_tempered"]),
            num(&b["loglik_earlier_model"]),
            num(&b["loglik_boltzmann"]),
            num(&b["loglik_uniform"]),
            num(&b["loss_mean"]["players"]),
            num(&b["loss_mean"]["human_sample"]),
            num(&b["loss_mean"]["stockfish_elo"]),
            num(&b["emd_human_vs_players"]),
            num(&b["emd_stockfish_elo_vs_players"])
        );
    }
    s + &match_summary(report)
}

/// The kind of an engine of the eval report, its band-specific part dropped
/// (`Stockfish UCI_Elo 1500` → `Stockfish UCI_Elo=X`, `elo:1500` → `dial
/// elo:X`): one column of the summary, one line of the plot.
fn engine_kind(name: &str) -> &str {
    if name.starts_with("Stockfish UCI_Elo") {
        "Stockfish UCI_Elo=X"
    } else if name.starts_with("elo:") {
        "dial elo:X"
    } else {
        name
    }
}

/// The move match of every player kind per band, with the average over the
/// bands: one table.
fn match_summary(report: &Value) -> String {
    let bands: Vec<&Value> = report["bands"].as_array().map(|v| v.iter().collect()).unwrap_or_default();
    // A column per player kind.
    let kind = |name: &str| engine_kind(name).to_string();
    let mut columns: Vec<String> = vec!["human:X pick=mode".into(), "human:X pick=sample".into()];
    for b in &bands {
        for e in b["engines"].as_array().into_iter().flatten() {
            let k = kind(e["engine"].as_str().unwrap_or(""));
            if !columns.contains(&k) {
                columns.push(k);
            }
        }
    }
    let value = |b: &Value, column: &str| -> Option<f64> {
        match column {
            "human:X pick=mode" => b["human_mode_match"].as_f64(),
            "human:X pick=sample" => b["human_sample_match"].as_f64(),
            _ => b["engines"]
                .as_array()?
                .iter()
                .find(|e| kind(e["engine"].as_str().unwrap_or("")) == column)
                .and_then(|e| e["match"].as_f64()),
        }
    };
    let mut s = format!(
        "\n### Move match per band\n\n| band | {} |\n| --- |{}\n",
        columns.join(" | "),
        " ---: |".repeat(columns.len())
    );
    for b in &bands {
        let cells: Vec<String> =
            columns.iter().map(|c| value(b, c).map_or("–".into(), |v| format!("{:.1}%", 100.0 * v))).collect();
        s += &format!("| {} | {} |\n", b["band"].as_str().unwrap_or(""), cells.join(" | "));
    }
    let averages: Vec<String> = columns
        .iter()
        .map(|c| {
            let v: Vec<f64> = bands.iter().filter_map(|b| value(b, c)).collect();
            if v.len() == bands.len() && !v.is_empty() {
                format!("**{:.1}%**", 100.0 * v.iter().sum::<f64>() / v.len() as f64)
            } else {
                "–".into()
            }
        })
        .collect();
    s += &format!("| **average** | {} |\n", averages.join(" | "));
    s
}

fn plots(report: &Value, dir: &Path) -> Result<(), String> {
    let bands: Vec<&Value> = report["bands"].as_array().map(|v| v.iter().collect()).unwrap_or_default();
    let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for b in &bands {
        let x = b["rating"].as_f64().unwrap_or(0.0);
        let mut add = |name: &str, v: &Value| {
            if let Some(y) = v.as_f64() {
                series.entry(name.to_string()).or_default().push((x, 100.0 * y));
            }
        };
        add("human:X pick=mode", &b["human_mode_match"]);
        add("human:X pick=sample", &b["human_sample_match"]);
        for e in b["engines"].as_array().into_iter().flatten() {
            let name = e["engine"].as_str().unwrap_or("");
            add(engine_kind(name), &e["match"]);
        }
    }
    let series: Vec<(String, Vec<(f64, f64)>)> = series.into_iter().collect();
    let svg = taskkit::plot::lines(
        "Move match on held-out Lichess moves",
        "rating band (middle)",
        "move match (%)",
        false,
        &series,
    )?;
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("human-match.svg"), svg).map_err(|e| e.to_string())?;
    // The loss histograms: one line per player kind and band would crowd a
    // figure; the share of moves losing more than 100 cp per band does not.
    let mut blunders: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for b in &bands {
        let x = b["rating"].as_f64().unwrap_or(0.0);
        for (key, name) in [
            ("players", "Lichess players"),
            ("human_sample", "human:X pick=sample"),
            ("stockfish_elo", "Stockfish UCI_Elo=X"),
        ] {
            if let Some(h) = b["loss_histogram"][key].as_array()
                && h.len() == LOSS_BINS.len()
            {
                let share: f64 = h[3..].iter().filter_map(Value::as_f64).sum();
                blunders.entry(name.to_string()).or_default().push((x, 100.0 * share));
            }
        }
    }
    let blunders: Vec<(String, Vec<(f64, f64)>)> = blunders.into_iter().collect();
    let svg = taskkit::plot::lines(
        "Moves losing more than 100 cp (deeper search)",
        "rating band (middle)",
        "share of moves (%)",
        false,
        &blunders,
    )?;
    std::fs::write(dir.join("human-mistakes.svg"), svg).map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emd_is_the_area_between_distribution_functions() {
        assert_eq!(emd(&[0.0, 0.0], &[0.0]), Some(0.0));
        assert_eq!(emd(&[0.0], &[100.0]), Some(100.0));
        assert_eq!(emd(&[0.0, 100.0], &[100.0]), Some(50.0));
        assert_eq!(emd(&[], &[1.0]), None);
    }

    #[test]
    fn the_summary_has_a_column_per_player_kind_and_the_average() {
        let band = |name: &str, x: f64, sf: &str, dial: &str, m: f64| {
            json!({"band": name, "rating": x, "positions": 10, "human_mode_match": m, "human_sample_match": 0.2,
                "engines": [{"engine": sf, "match": 0.3}, {"engine": dial, "match": 0.1}]})
        };
        let report = json!({"bands": [
            band("800-999", 900.0, "Stockfish UCI_Elo 1350", "elo:900", 0.4),
            band("1000-1199", 1100.0, "Stockfish UCI_Elo 1350", "elo:1100", 0.5),
        ]});
        let s = match_summary(&report);
        assert!(
            s.contains("| band | human:X pick=mode | human:X pick=sample | Stockfish UCI_Elo=X | dial elo:X |"),
            "{s}"
        );
        assert!(s.contains("| 800-999 | 40.0% | 20.0% | 30.0% | 10.0% |"), "{s}");
        assert!(s.contains("| **average** | **45.0%** | **20.0%** | **30.0%** | **10.0%** |"), "{s}");
        assert!(markdown_eval(&report).contains("| human:900,pick=mode | 40.0% |"));
    }

    #[test]
    fn spaced_keeps_order_and_count() {
        assert_eq!(spaced((0..10).collect(), 5), vec![0, 2, 4, 6, 8]);
        assert_eq!(spaced(vec![3, 4], 5), vec![3, 4]);
    }

    #[test]
    fn the_committed_corpus_reads_with_counted_skips() {
        let (corpus, fp) = load_corpus().unwrap();
        assert_eq!(fp.len(), 16);
        assert!(corpus.games.len() > 2800, "{}", corpus.games.len());
        // The CSV holds Chess960 games: counted, not dropped silently.
        assert!(corpus.skipped_for(Skip::Variant) > 0);
    }

    #[test]
    fn the_2013_2017_file_reads_whole_with_its_time_controls() {
        // Every row is rated, replays with exactly `turns` plies and has a
        // unique id: nothing is left out, and every time control parses.
        let file = data_dir().join("lichess-2013-2017-rated-train.csv.gz");
        let (corpus, _) = read_corpus(&[file]).unwrap();
        assert!(corpus.skipped.is_empty(), "{:?}", &corpus.skipped[..corpus.skipped.len().min(3)]);
        assert_eq!(corpus.games.len(), 12_408);
        assert!(corpus.games.iter().all(|g| g.time_control.is_some()));
        let test = corpus.games.iter().filter(|g| g.split == Split::Test).count();
        assert!((1000..1500).contains(&test), "{test}");
        // The trainer reads every file of data/human/.
        let names: Vec<String> =
            data_files().unwrap().iter().filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned())).collect();
        assert_eq!(names, CORPUS_FILES);
    }

    #[test]
    fn the_model_file_is_the_one_the_engine_embeds() {
        let file = std::fs::read_to_string(root().join(MODEL_FILE)).unwrap();
        assert_eq!(file, games_chess::human::MODEL_JSON);
    }
}
