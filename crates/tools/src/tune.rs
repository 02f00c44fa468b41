//! `cargo xtask tune-eval`: fits the chess engine's evaluation weights
//! ([`EngineWeights`]) by Texel's method.
//!
//! The positions come from the engine's own games (`--source selfplay`: the
//! engine at `--nodes` nodes a move against itself from the calibration's
//! balanced random openings, seeded) or from the rated games of
//! `data/human/` (`--source human`). Every quiet position (from ply
//! `--from-ply` on; not in check, and no capture or promotion that does not
//! lose material by static exchange, so that the static value stands for
//! the position) is labelled (`--label`) with the game's result for White,
//! or with the expected score of a reference engine's score of it
//! (`--label stockfish`: `go nodes N` in a fresh process for each chunk of
//! positions; the labels are cached under `target/tune-eval/labels/`, so an
//! interrupted run keeps its finished chunks). The model predicts White's
//! score as `1 / (1 + 10^(−K·e/400))`, with `e` the engine's static value
//! from White's side, linear in the weights
//! ([`EngineWeights::coefficients`]). `K` is fitted first with the weights
//! the engine plays; then the weights (`--params terms`: the positional
//! terms; `--params all`: the piece-square tables too) are fitted to the
//! squared error by Levenberg–Marquardt on the train split's games, and the
//! validation split's error is reported for both. The test split is never
//! read.
//!
//! The fitted weights are written as JSON (`--out`); the engine plays
//! [`EngineWeights::engine`] (`crates/games-chess/calibration/engine-weights.json`)
//! until a match accepts new ones (see docs/benchmarks.md).

use std::path::PathBuf;

use games_chess::engine_eval::{EngineWeights, TERM_WEIGHTS};
use games_chess::external::{EngineLimit, UciEngineAgent};
use games_chess::human::{Split, fnv1a};
use games_chess::kibitz::KibitzAgent;
use games_chess::shakmaty::Move;
use games_chess::shakmaty::{Board, Color, Position as _};
use games_chess::{ChessGame, EngineEval};
use rayon::prelude::*;
use search_core::Player;
use search_core::arena::play_match;
use search_core::rng::derive_seed;
use search_core::{Evaluator, Game};
use serde::Serialize;

use crate::TaskResult;

/// Where the labelled positions come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Source {
    /// The engine's own games at `--nodes` nodes a move.
    Selfplay,
    /// The rated games of `data/human/`.
    Human,
}

/// What each position is labelled with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Label {
    /// The result of its game for White.
    Results,
    /// The expected score of a reference engine's score (`--stockfish`).
    Stockfish,
}

/// Which weights are fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Params {
    /// The positional terms (40 weights).
    Terms,
    /// The terms and the piece-square tables (808 weights).
    All,
}

/// Arguments of `cargo xtask tune-eval`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Where the positions come from.
    #[arg(long, value_enum, default_value_t = Source::Selfplay)]
    pub source: Source,
    /// Self-play: games to play (one per opening; the engine is
    /// deterministic, so swapping colours would repeat the game).
    #[arg(long, default_value_t = 4000)]
    pub games: usize,
    /// Self-play: the engine's nodes a move (`kibitz:nodes=N`).
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// The first ply of a game whose positions are used (the opening before
    /// it is mostly book).
    #[arg(long, default_value_t = 12)]
    pub from_ply: usize,
    /// At most this many positions (a deterministic, seeded sample when the
    /// games hold more).
    #[arg(long, default_value_t = 500_000)]
    pub max_positions: usize,
    /// The seed of the openings and of the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What each position is labelled with.
    #[arg(long, value_enum, default_value_t = Label::Results)]
    pub label: Label,
    /// `--label stockfish`: the reference engine (a UCI program).
    #[arg(long, default_value = "stockfish")]
    pub stockfish: PathBuf,
    /// `--label stockfish`: its nodes a position (`go nodes N`, one thread).
    #[arg(long, default_value_t = 3000)]
    pub stockfish_nodes: u64,
    /// Which weights are fitted.
    #[arg(long, value_enum, default_value_t = Params::Terms)]
    pub params: Params,
    /// Levenberg–Marquardt iterations at most.
    #[arg(long, default_value_t = 40)]
    pub iterations: usize,
    /// Where to write the fitted weights and the fit's summary (JSON).
    #[arg(long, default_value = "target/tune-eval/weights.json")]
    pub out: PathBuf,
}

/// One labelled position: White's score, the fixed part of its value and
/// the nonzero coefficients of the fitted weights (indices into them, in
/// increasing order).
struct Sample {
    result: f64,
    base: f64,
    x: Vec<(u32, f64)>,
    train: bool,
}

/// What `tune-eval` writes.
#[derive(Debug, Serialize)]
struct Summary {
    /// The ridge strength chosen (least validation error).
    ridge: f64,
    /// Each ridge strength tried, with its validation error.
    ridges: Vec<(f64, f64)>,
    positions_train: usize,
    positions_validation: usize,
    k: f64,
    mse_train_before: f64,
    mse_train_after: f64,
    mse_validation_before: f64,
    mse_validation_after: f64,
    /// What the positions are labelled with.
    label: String,
    /// How many weights were fitted.
    fitted: usize,
    weights_before: EngineWeights,
    weights_after: EngineWeights,
    corpus: String,
}

/// `cargo xtask tune-eval`.
pub fn run(args: Args) -> TaskResult {
    let (games, fingerprint) = match args.source {
        Source::Human => {
            let (corpus, fingerprint) = crate::human::load_all_corpus()?;
            let games = corpus
                .games
                .iter()
                .filter(|g| g.split != Split::Test)
                .map(|g| Labelled {
                    start: ChessGame::startpos(),
                    moves: g.moves.clone(),
                    result: g.result,
                    train: g.split == Split::Train,
                })
                .collect();
            (games, format!("data/human/ (fingerprint {fingerprint})"))
        }
        Source::Selfplay => {
            let games = selfplay(args.games, args.nodes, args.seed)?;
            (games, format!("{} self-play games, kibitz:nodes={}, seed {}", args.games, args.nodes, args.seed))
        }
    };
    eprintln!("tune-eval: {} games ({fingerprint})", games.len());
    let positions = quiet_positions(&games, &args);
    let results: Vec<Option<f64>> = match args.label {
        Label::Results => positions.iter().map(|p| p.result).collect(),
        Label::Stockfish => {
            let cache = PathBuf::from("target/tune-eval/labels");
            stockfish_labels(&positions, &args.stockfish, args.stockfish_nodes, &cache)?.into_iter().map(Some).collect()
        }
    };
    let label = match args.label {
        Label::Results => "game results".to_string(),
        Label::Stockfish => format!("{} at go nodes {}", args.stockfish.display(), args.stockfish_nodes),
    };
    let before = EngineWeights::engine().clone();
    let all: Vec<f64> = before.tunable().iter().map(|(_, v)| f64::from(*v)).collect();
    let free = free_weights(&positions, args.params);
    let samples = samples(&positions, &results, &before, &free);
    let train: Vec<&Sample> = samples.iter().filter(|s| s.train).collect();
    let validation: Vec<&Sample> = samples.iter().filter(|s| !s.train).collect();
    if train.is_empty() || validation.is_empty() {
        return Err("tune-eval: no labelled quiet positions in the train or validation split".into());
    }
    eprintln!(
        "tune-eval: {} train and {} validation positions ({label}); {} weights fitted",
        train.len(),
        validation.len(),
        free.len()
    );
    let w0: Vec<f64> = free.iter().map(|&i| all[i]).collect();
    let k = fit_k(&train, &w0);
    let mse_train_before = mse(&train, &w0, k);
    let mse_validation_before = mse(&validation, &w0, k);
    eprintln!(
        "tune-eval: K = {k:.3}; squared error {mse_train_before:.6} (train), {mse_validation_before:.6} (validation)"
    );
    // The ridge strength of least validation error.
    let mut best: Option<(f64, f64, Vec<f64>)> = None;
    let mut ridges = Vec::new();
    for &ridge in &RIDGES {
        let fitted = levenberg_marquardt(&train, &w0, k, ridge, args.iterations);
        let rounded: Vec<f64> = fitted.iter().map(|v| v.round()).collect();
        let v = mse(&validation, &rounded, k);
        eprintln!("tune-eval: ridge {ridge}: validation squared error {v:.6}");
        ridges.push((ridge, v));
        if best.as_ref().is_none_or(|b| v < b.1) {
            best = Some((ridge, v, rounded));
        }
    }
    let (ridge, _, w1) = best.expect("at least one ridge");
    let mut values: Vec<i32> = all.iter().map(|&v| v as i32).collect();
    for (&i, &v) in free.iter().zip(&w1) {
        values[i] = v as i32;
    }
    let after = EngineWeights::from_tunable(&values).ok_or("tune-eval: the weights do not match the tunable list")?;
    let summary = Summary {
        ridge,
        ridges,
        positions_train: train.len(),
        positions_validation: validation.len(),
        k,
        mse_train_before,
        mse_train_after: mse(&train, &w1, k),
        mse_validation_before,
        mse_validation_after: mse(&validation, &w1, k),
        label,
        fitted: free.len(),
        weights_before: before.clone(),
        weights_after: after.clone(),
        corpus: fingerprint,
    };
    println!("| weight | engine | fitted |\n| --- | ---: | ---: |");
    for ((name, old), new) in before.tunable().iter().zip(after.tunable()).take(TERM_WEIGHTS) {
        println!("| {name} | {old} | {} |", new.1);
    }
    if args.params == Params::All {
        println!("\n| piece (mean over the squares) | middlegame: engine → fitted | endgame: engine → fitted |");
        println!("| --- | --- | --- |");
        let mean = |t: &[i32; 64]| t.iter().sum::<i32>() / 64;
        for (r, letter) in games_chess::engine_eval::ROLE_LETTERS.iter().enumerate() {
            let (b, a) = (&before.psqt, &after.psqt);
            println!(
                "| {letter} | {} → {} | {} → {} |",
                mean(&b.mg[r]),
                mean(&a.mg[r]),
                mean(&b.eg[r]),
                mean(&a.eg[r])
            );
        }
    }
    println!(
        "\nK = {:.3}, ridge {}; squared error: train {:.6} → {:.6}, validation {:.6} → {:.6} ({} and {} positions)",
        summary.k,
        summary.ridge,
        summary.mse_train_before,
        summary.mse_train_after,
        summary.mse_validation_before,
        summary.mse_validation_after,
        summary.positions_train,
        summary.positions_validation
    );
    if let Some(dir) = args.out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    taskkit::write_atomic(&args.out, &serde_json::to_string_pretty(&summary)?)?;
    eprintln!("tune-eval: written to {}", args.out.display());
    Ok(())
}

/// A game to take positions from: its start, its moves, White's score
/// (`None`: unknown) and whether it is a train game (else validation).
struct Labelled {
    start: ChessGame,
    moves: Vec<Move>,
    result: Option<f64>,
    train: bool,
}

/// `games` games of the engine at `nodes` nodes a move against itself, one
/// from each of the chess calibration's balanced random openings (seed
/// `seed`); a game the ply limit stops has no result.
fn selfplay(games: usize, nodes: u64, seed: u64) -> Result<Vec<Labelled>, Box<dyn std::error::Error>> {
    let setup = registry::chess_setup()?;
    let openings = setup.random_openings(games, seed)?;
    let bar = crate::human::bar(games, "self-play games");
    let played: Result<Vec<Labelled>, String> = openings
        .par_iter()
        .enumerate()
        .map(|(i, opening)| {
            let start = setup.parse_opening(opening).map_err(|e| e.to_string())?;
            let new = || KibitzAgent::new(nodes).map_err(|e| e.to_string());
            let (mut white, mut black) = (new()?, new()?);
            let record = play_match(&start, &mut white, &mut black, derive_seed(seed, i as u64), Some(MAX_PLIES))
                .map_err(|e| e.to_string())?;
            bar.inc(1);
            // White moves first from every opening (an even number of plies).
            let result = record.outcome.map(|o| (o.value_for(Player::First, 1.0) + 1.0) / 2.0);
            Ok(Labelled { start, moves: record.moves, result, train: i % 10 != 9 })
        })
        .collect();
    bar.finish();
    Ok(played?)
}

/// The ridge strengths tried (per 100 cp of every weight away from the
/// engine's, in units of squared error): the one of least validation error
/// is kept, so that few or noisy games pull the weights less far.
const RIDGES: [f64; 5] = [0.0, 1e-4, 1e-3, 1e-2, 1e-1];

/// The ply limit of a self-play game.
const MAX_PLIES: usize = 400;

/// A quiet position of a game: its board, its FEN, the game's result for
/// White (`None`: unknown) and its split.
struct Position {
    board: Board,
    fen: String,
    result: Option<f64>,
    train: bool,
}

/// The quiet positions of the games (of the games with a result, unless
/// the positions are labelled by an engine), sampled down to
/// `args.max_positions` (each position kept with the same probability,
/// decided by a hash of the seed, the game and the ply).
fn quiet_positions(games: &[Labelled], args: &Args) -> Vec<Position> {
    let usable = |g: &&Labelled| g.result.is_some() || args.label == Label::Stockfish;
    let total: usize = games.iter().filter(usable).map(|g| g.moves.len().saturating_sub(args.from_ply)).sum();
    // Quiet positions are roughly half of all: sample from the total.
    let keep = (args.max_positions as f64 / total.max(1) as f64 * 2.0).min(1.0);
    let mut out = Vec::new();
    let mut noisy = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        if !usable(&g) {
            continue;
        }
        let mut state = g.start.clone();
        for (ply, &mv) in g.moves.iter().enumerate() {
            let draw = derive_seed(derive_seed(args.seed, gi as u64), ply as u64) as f64 / u64::MAX as f64;
            if ply >= args.from_ply && draw < keep && out.len() < args.max_positions && !state.is_check() {
                noisy.clear();
                EngineEval.noisy_moves(&state, &mut noisy);
                if noisy.is_empty() {
                    let board = state.position().board().clone();
                    out.push(Position { board, fen: state.fen(), result: g.result, train: g.train });
                }
            }
            state.play(mv);
        }
    }
    out
}

/// How many positions one reference-engine process labels: a fresh
/// process per chunk, so that a label depends on its chunk only, not on
/// the thread count.
const LABEL_CHUNK: usize = 1000;

/// The expected score for White of `engine`'s score of each position at
/// `go nodes nodes` (one thread), a mate counted as a certain result. Each
/// chunk of [`LABEL_CHUNK`] positions is labelled by a fresh process and
/// cached in `dir`, keyed by the engine's path, the nodes and the
/// positions.
fn stockfish_labels(
    positions: &[Position],
    engine: &std::path::Path,
    nodes: u64,
    dir: &std::path::Path,
) -> Result<Vec<f64>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let chunks: Vec<&[Position]> = positions.chunks(LABEL_CHUNK).collect();
    let bar = crate::human::bar(chunks.len(), "chunks labelled");
    let labelled: Result<Vec<Vec<f64>>, String> = chunks
        .par_iter()
        .map(|chunk| {
            let mut key = format!("{}\n{nodes}\n", engine.display());
            for p in chunk.iter() {
                key.push_str(&p.fen);
                key.push('\n');
            }
            let cache = dir.join(format!("{:016x}.json", fnv1a(key.as_bytes())));
            if let Some(labels) = std::fs::read_to_string(&cache)
                .ok()
                .and_then(|t| serde_json::from_str::<Vec<f64>>(&t).ok())
                .filter(|l| l.len() == chunk.len())
            {
                bar.inc(1);
                return Ok(labels);
            }
            let limit = EngineLimit::Nodes(nodes);
            let mut sf = UciEngineAgent::spawn(engine, &[], limit).map_err(|e| e.to_string())?;
            let mut labels = Vec::with_capacity(chunk.len());
            for p in chunk.iter() {
                let state = ChessGame::from_fen(&p.fen).map_err(|e| e.to_string())?;
                let score = sf.evaluate(&state, limit).map_err(|e| e.to_string())?;
                let own = f64::from(score.centipawns(MATE_CP));
                let white = if state.position().turn() == Color::White { own } else { -own };
                labels.push(strength::elo::elo_to_score(white));
            }
            let json = serde_json::to_string(&labels).map_err(|e| e.to_string())?;
            taskkit::write_atomic(&cache, &json).map_err(|e| e.to_string())?;
            bar.inc(1);
            Ok(labels)
        })
        .collect();
    bar.finish();
    Ok(labelled?.concat())
}

/// The centipawns a mate counts as in a label: far beyond any advantage,
/// so that its expected score is a certain result.
const MATE_CP: i32 = 10_000;

/// The indices of the weights fitted ([`EngineWeights::tunable`]'s order):
/// the terms', and with `Params::All` every table entry some position
/// uses (a square no piece of a role ever stands on keeps its value).
fn free_weights(positions: &[Position], params: Params) -> Vec<usize> {
    match params {
        Params::Terms => (0..TERM_WEIGHTS).collect(),
        Params::All => {
            let mut used = vec![false; EngineWeights::HAND_SET.tunable().len()];
            used[..TERM_WEIGHTS].fill(true);
            for p in positions.iter().filter(|p| p.train) {
                for (i, _) in EngineWeights::coefficients(&p.board) {
                    used[i] = true;
                }
            }
            used.iter().enumerate().filter(|&(_, &u)| u).map(|(i, _)| i).collect()
        }
    }
}

/// The samples of the positions with a label: the coefficients of the
/// `free` weights, the rest of the value (with `weights`) as the fixed part.
fn samples(positions: &[Position], results: &[Option<f64>], weights: &EngineWeights, free: &[usize]) -> Vec<Sample> {
    let values: Vec<f64> = weights.tunable().iter().map(|(_, v)| f64::from(*v)).collect();
    let mut slot = vec![u32::MAX; values.len()];
    for (j, &i) in free.iter().enumerate() {
        slot[i] = j as u32;
    }
    positions
        .par_iter()
        .zip(results)
        .filter_map(|(p, &result)| {
            let result = result?;
            let value = f64::from(EngineEval::white_centipawns_with(&p.board, weights));
            let mut base = value;
            let mut x = Vec::new();
            for (i, c) in EngineWeights::coefficients(&p.board) {
                if slot[i] != u32::MAX {
                    base -= c * values[i];
                    x.push((slot[i], c));
                }
            }
            Some(Sample { result, base, x, train: p.train })
        })
        .collect()
}

/// The predicted score of `s` with weights `w` and scale `k`, and the
/// derivative of the score with respect to the value.
fn predict(s: &Sample, w: &[f64], k: f64) -> (f64, f64) {
    let e = s.base + s.x.iter().map(|&(i, x)| x * w[i as usize]).sum::<f64>();
    let c = k * std::f64::consts::LN_10 / 400.0;
    let p = 1.0 / (1.0 + (-c * e).exp());
    (p, c * p * (1.0 - p))
}

/// Samples per chunk of the parallel sums. The chunks are fixed and their
/// sums added in order, so that every sum (and so the fit) is the same bit
/// for bit whatever the thread count.
const SUM_CHUNK: usize = 32_768;

/// The mean squared error of the predicted scores.
fn mse(samples: &[&Sample], w: &[f64], k: f64) -> f64 {
    let chunks: Vec<f64> = samples
        .par_chunks(SUM_CHUNK)
        .map(|c| c.iter().map(|s| (s.result - predict(s, w, k).0).powi(2)).sum::<f64>())
        .collect();
    chunks.iter().sum::<f64>() / samples.len() as f64
}

/// The `K` of least squared error with weights `w` (golden-section search
/// on `ln K` over [0.05, 5]).
fn fit_k(samples: &[&Sample], w: &[f64]) -> f64 {
    let f = |lnk: f64| mse(samples, w, lnk.exp());
    let (mut a, mut b) = (0.05f64.ln(), 5f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            (d, fd) = (c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            (c, fc) = (d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The penalty on weights away from the engine's, per squared centipawn
/// of every weight, for a ridge strength `ridge` (per 100 cp).
fn penalty(w: &[f64], w0: &[f64], ridge: f64) -> f64 {
    ridge / 1e4 * w.iter().zip(w0).map(|(a, b)| (a - b).powi(2)).sum::<f64>()
}

/// The Gauss–Newton normal equations of the squared error at `w`: the
/// upper triangle of `JᵀJ` (row-major, `n × n`) and `Jᵀr`, summed over the
/// samples in parallel ([`SUM_CHUNK`]s, one pair of sums each, added in
/// order).
fn normal_equations(samples: &[&Sample], w: &[f64], k: f64) -> (Vec<f64>, Vec<f64>) {
    let n = w.len();
    let chunks: Vec<(Vec<f64>, Vec<f64>)> = samples
        .par_chunks(SUM_CHUNK)
        .map(|chunk| {
            let (mut jtj, mut jtr) = (vec![0.0; n * n], vec![0.0; n]);
            for s in chunk {
                let (p, dp) = predict(s, w, k);
                let r = s.result - p;
                for (a, &(i, xi)) in s.x.iter().enumerate() {
                    let ji = dp * xi;
                    jtr[i as usize] += ji * r;
                    let row = &mut jtj[i as usize * n..(i as usize + 1) * n];
                    for &(j, xj) in &s.x[a..] {
                        row[j as usize] += ji * dp * xj;
                    }
                }
            }
            (jtj, jtr)
        })
        .collect();
    chunks.into_iter().fold((vec![0.0; n * n], vec![0.0; n]), |(mut a, mut b), (c, d)| {
        a.iter_mut().zip(c).for_each(|(x, y)| *x += y);
        b.iter_mut().zip(d).for_each(|(x, y)| *x += y);
        (a, b)
    })
}

/// Levenberg–Marquardt on the mean squared error plus a ridge penalty
/// pulling the weights towards `w0` ([`penalty`]), from `w0`, at most
/// `iterations` accepted or rejected steps; stops when a step changes the
/// objective by less than 1e-10. A rejected step leaves the weights, and
/// so the normal equations, as they were: they are summed again only after
/// an accepted one.
fn levenberg_marquardt(samples: &[&Sample], w0: &[f64], k: f64, ridge: f64, iterations: usize) -> Vec<f64> {
    let n = w0.len();
    let count = samples.len().max(1) as f64;
    let mut w = w0.to_vec();
    let mut err = mse(samples, &w, k) + penalty(&w, w0, ridge);
    let mut lambda = 1e-3;
    let mut equations: Option<(Vec<f64>, Vec<f64>)> = None;
    for _ in 0..iterations {
        let (jtj, jtr) = equations.get_or_insert_with(|| {
            let (mut jtj, mut jtr) = normal_equations(samples, &w, k);
            for i in 0..n {
                for j in 0..i {
                    jtj[i * n + j] = jtj[j * n + i];
                }
            }
            // Means, and the penalty's own terms.
            for v in jtj.iter_mut() {
                *v /= count;
            }
            for (i, v) in jtr.iter_mut().enumerate() {
                *v = *v / count - ridge / 1e4 * (w[i] - w0[i]);
                jtj[i * n + i] += ridge / 1e4;
            }
            (jtj, jtr)
        });
        let mut damped = jtj.clone();
        for i in 0..n {
            damped[i * n + i] += lambda * jtj[i * n + i].max(1e-9);
        }
        let Some(step) = strength::linear::solve_spd(&damped, jtr, n) else {
            lambda *= 10.0;
            continue;
        };
        let trial: Vec<f64> = w.iter().zip(&step).map(|(a, b)| a + b).collect();
        let trial_err = mse(samples, &trial, k) + penalty(&trial, w0, ridge);
        if trial_err < err {
            let gain = err - trial_err;
            w = trial;
            err = trial_err;
            equations = None;
            lambda = (lambda / 10.0).max(1e-9);
            if gain < 1e-10 {
                break;
            }
        } else {
            lambda *= 10.0;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Results drawn from the model with planted weights: the fit finds
    /// them again, and `K` too.
    #[test]
    fn the_fit_recovers_planted_weights_and_scale() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(54);
        let planted = [30.0, -20.0, 5.0];
        let k = 1.3;
        let samples: Vec<Sample> = (0..40_000)
            .map(|_| {
                let x: Vec<(u32, f64)> = (0..3).map(|i| (i, f64::from(rng.random_range(-4..=4)))).collect();
                let base = f64::from(rng.random_range(-200..=200));
                let mut s = Sample { result: 0.0, base, x, train: true };
                let p = predict(&s, &planted, k).0;
                s.result = if rng.random_bool(p) { 1.0 } else { 0.0 };
                s
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let w = levenberg_marquardt(&refs, &[0.0, 0.0, 0.0], k, 0.0, 40);
        for (got, want) in w.iter().zip(planted) {
            assert!((got - want).abs() < 4.0, "{w:?}");
        }
        let fitted_k = fit_k(&refs, &planted);
        assert!((fitted_k - k).abs() < 0.1, "{fitted_k}");
        assert!(mse(&refs, &w, k) <= mse(&refs, &[0.0, 0.0, 0.0], k));
        // A strong ridge keeps the weights near where they started.
        let held = levenberg_marquardt(&refs, &[0.0, 0.0, 0.0], k, 1e3, 40);
        assert!(held.iter().all(|v| v.abs() < 2.0), "{held:?}");
        assert!(held.iter().zip(&w).all(|(h, w)| h.abs() < w.abs()), "{held:?} {w:?}");
    }

    /// The fit is the same bit for bit on one thread and on three.
    #[test]
    fn the_fit_does_not_depend_on_the_thread_count() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(86);
        let samples: Vec<Sample> = (0..100_000)
            .map(|_| {
                let x: Vec<(u32, f64)> = (0..4).map(|i| (i, rng.random_range(-3.0..3.0))).collect();
                let base = rng.random_range(-300.0..300.0);
                Sample { result: f64::from(rng.random_range(0..=2)) / 2.0, base, x, train: true }
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let fit = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| (fit_k(&refs, &[0.0; 4]), levenberg_marquardt(&refs, &[0.0; 4], 1.0, 0.0, 10)))
        };
        let (one, three) = (fit(1), fit(3));
        assert_eq!(one.0.to_bits(), three.0.to_bits());
        assert_eq!(
            one.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            three.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }

    /// Stockfish's labels are White's expected score whoever is to move,
    /// and a second run reads them from the cache.
    #[test]
    fn stockfish_labels_are_whites_score_and_cached() {
        let Some(engine) = registry::ladders::stockfish() else {
            eprintln!("skipped: Stockfish is not installed (apt-get install stockfish)");
            return;
        };
        let position = |fen: &str| {
            let g = ChessGame::from_fen(fen).unwrap();
            Position { board: g.position().board().clone(), fen: g.fen(), result: None, train: true }
        };
        // White a queen up, with either side to move; then Black a queen up.
        let positions = [
            position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"),
            position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"),
            position("3qk3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ];
        let dir = std::env::temp_dir().join(format!("tune-labels-{}", std::process::id()));
        let labels = stockfish_labels(&positions, &engine, 2000, &dir).unwrap();
        assert!(labels[0] > 0.9 && labels[1] > 0.9 && labels[2] < 0.1, "{labels:?}");
        let cached = stockfish_labels(&positions, std::path::Path::new("/no/such/engine"), 2000, &dir);
        assert!(cached.is_err(), "another engine's labels are not reused");
        assert_eq!(stockfish_labels(&positions, &engine, 2000, &dir).unwrap(), labels);
        std::fs::remove_dir_all(&dir).ok();
    }
}
