//! `cargo xtask fit-validation GAME`: the player-model estimators of
//! [`strength::fit`] checked on synthetic players of known parameter, in real
//! games.
//!
//! **Players.** For each model asked for (`--models`, default Boltzmann and
//! ε-greedy) `--players N` synthetic players, their true parameters spread
//! evenly over a range on the scale of the game's values (θ and S on a log
//! scale, ε linearly; see [`Setup`]). Player `i` of model `m` gets the seed
//! `derive_seed(derive_seed(seed, m), i)`, which decides everything it does.
//!
//! **Games.** Each player plays `max(--games)` games against a fixed
//! opponent ([`Opponent`]: uniformly random in tic-tac-toe, alpha-beta at a
//! small depth, random among equally valued best moves, in the other games),
//! taking the first side in even games and the second in odd ones, from a
//! seeded random opening (a few uniformly random plies for both sides). At
//! every move of its own it computes the values the fit will see (the same
//! value builders as `cargo xtask fit`: exact values for tic-tac-toe and
//! connect-4, `depth:D` values for gobang and chess), applies the cap, and
//! samples its move from its model; that move is recorded as a
//! [`Decision`]. Connect-4's exact values exist only from 12 discs on (the
//! solver is slow earlier, and `fit` skips those decisions too): before that
//! the synthetic player plays the opponent's move, and the decision is
//! skipped and counted. Solved connect-4 positions are cached for the whole
//! run.
//!
//! **Fits.** For every `n` of `--games`, the player's decisions of its first
//! `n` games are fitted with its own model: estimate and profile-likelihood
//! 95% interval. An interval covers the truth when the truth lies between its
//! ends, an open end standing for the end of the domain (so a one-sided
//! interval `θ ≥ a` covers every θ ≥ a). Decisions where every move has the
//! same value carry no information; a player with no informative decision in
//! its first `n` games has no fit at that `n` (counted, left out of every
//! statistic).
//!
//! **Statistics** per model and `n` ([`Cell`]): coverage with its 95% Wilson
//! interval; bias and RMSE of the estimate, for θ and S on `log10` with the
//! estimate clamped first to `[lo/10, 10·hi]`, `[lo, hi]` the range of the
//! true parameters (so that θ̂ = +∞ or 0 counts as a finite, large error),
//! for ε on the plain scale; the median error without clamping; the shares
//! of estimates at `+∞` and at 0 and of intervals with an open end.
//!
//! **Model choice**: at 30 games (or the largest `n` below it), every
//! Boltzmann and ε-greedy player's decisions are fitted with both models and
//! classified by AIC ([`compare`]).
//!
//! Results do not depend on the thread count: every player is simulated
//! alone from its seed, and the shared solver cache holds exact scores only.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use games_chess::{ChessEval, ChessGame};
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use rayon::prelude::*;
use search_core::policy::ScoreCap;
use search_core::rng::{self, RngExt, derive_seed, sample_index};
use search_core::{Evaluator, Game, Status, Turn};
use serde_json::{Value, json};
use strength::fit::{Decision, FitError, FitOptions, Interval, Model, compare, fit};
use tournament::decisions::{DepthValuer, MoveValues};

use super::fitting::{
    Connect4Exact, DEFAULT_MIN_DISCS, SolvedCache, TicTacToeExact, Values, curves_of_depth, model_name, num, symbol,
};
use crate::TaskResult;
use taskkit::stats::wilson;

/// Arguments of `cargo xtask fit-validation`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: tictactoe, connect4 (exact values), gobang or chess (depth:1 values).
    pub game: String,
    /// Synthetic players per model [default: 200 for tictactoe and connect4, 50 for gobang and chess; 20 with
    /// --quick].
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// The numbers of games fitted, increasing, separated by commas [default: 1,3,10,30,100; 1,3,10 with
    /// --quick].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub games: Option<Vec<u32>>,
    /// The players' models: boltzmann, epsilon, noise (separated by commas) [default: boltzmann,epsilon].
    #[arg(long, value_name = "MODELS")]
    pub models: Vec<String>,
    /// The master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A small run (20 players, 1, 3 and 10 games).
    #[arg(long)]
    pub quick: bool,
    /// Worker threads (default: one per core); results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write GAME.md, GAME.json and GAME.svg into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the JSON (every player's estimates) instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The fixed opponent of the synthetic players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// A best move of an alpha-beta search of this depth (exact root
    /// scores, the game's evaluator), ties broken uniformly at random.
    AlphaBeta(u32),
}

impl std::fmt::Display for Opponent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opponent::Random => write!(f, "random"),
            Opponent::AlphaBeta(d) => write!(f, "alphabeta:depth={d}"),
        }
    }
}

/// How one game is validated.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The game.
    pub game: String,
    /// The values the players see and the fits use.
    pub values: String,
    /// The cap (and whether soft) applied to the values before the model.
    pub cap: Option<(f64, bool)>,
    /// The opponent.
    pub opponent: Opponent,
    /// Uniformly random plies (both sides) that start each game.
    pub opening_plies: u32,
    /// Games are stopped after this many plies.
    pub max_plies: u32,
    /// The true θ range (log-spaced).
    pub theta: (f64, f64),
    /// The true ε range (evenly spaced).
    pub epsilon: (f64, f64),
    /// The true S range (log-spaced).
    pub noise: (f64, f64),
}

/// A validation run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The game's setup ([`setup`]).
    pub setup: Setup,
    /// The players' models.
    pub models: Vec<Model>,
    /// Players per model.
    pub players: usize,
    /// The numbers of games fitted, increasing.
    pub games: Vec<u32>,
    /// The master seed.
    pub seed: u64,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
}

/// One fit of one player's first `n` games.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Games fitted.
    pub n: u32,
    /// The estimate and interval; `None` without an informative decision.
    pub fit: Option<(f64, Interval)>,
    /// Whether the interval covers the truth.
    pub covers: bool,
    /// Informative decisions used.
    pub moves: usize,
}

/// One synthetic player's results.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerResult {
    /// Its model.
    pub model: Model,
    /// Its true parameter.
    pub truth: f64,
    /// One estimate per `n`.
    pub estimates: Vec<Estimate>,
    /// The model AIC prefers between Boltzmann and ε-greedy at the choice's
    /// `n` (`None`: not fitted, or no informative decision).
    pub chosen: Option<Model>,
    /// Decisions recorded over all its games.
    pub decisions: usize,
    /// Decisions skipped (connect-4 before 12 discs).
    pub skipped: usize,
}

/// The statistics of one model at one `n`.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The model.
    pub model: Model,
    /// Games fitted.
    pub n: u32,
    /// Players with a fit.
    pub fitted: usize,
    /// Players without an informative decision.
    pub no_information: usize,
    /// Intervals covering the truth.
    pub covered: usize,
    /// `covered / fitted`.
    pub coverage: f64,
    /// Its 95% Wilson interval.
    pub coverage_ci: (f64, f64),
    /// Mean error (log10 for θ and S, clamped; plain for ε).
    pub bias: f64,
    /// Root mean square error, on the same scale.
    pub rmse: f64,
    /// Median error, not clamped (may be ±∞).
    pub median_error: f64,
    /// Share of estimates at the top of the domain (θ = ∞, S = ∞, ε = 1).
    pub at_top: f64,
    /// Share of estimates at 0.
    pub at_zero: f64,
    /// Share of intervals with an open end.
    pub open: f64,
    /// Mean informative decisions per fit.
    pub mean_moves: f64,
}

/// Model choice by AIC.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Games fitted.
    pub n: u32,
    /// ε-greedy players classified ε-greedy, of all ε-greedy players.
    pub epsilon: (usize, usize),
    /// Boltzmann players classified Boltzmann, of all Boltzmann players.
    pub boltzmann: (usize, usize),
}

/// A validation's results.
#[derive(Debug, Clone)]
pub struct Report {
    /// What was run.
    pub config: Config,
    /// Per model and `n`.
    pub cells: Vec<Cell>,
    /// Model choice, when both Boltzmann and ε-greedy players were run.
    pub choice: Option<Choice>,
    /// Every player.
    pub players: Vec<PlayerResult>,
    /// Connect-4 positions solved (distinct).
    pub solved: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The default setup of `game` (see the module documentation): values, cap,
/// opponent, openings and the true parameters' ranges.
pub fn setup(game: &str) -> Result<Setup, String> {
    let s = |values: &str, cap, opponent, opening_plies, max_plies, theta, epsilon, noise| Setup {
        game: game.to_string(),
        values: values.to_string(),
        cap,
        opponent,
        opening_plies,
        max_plies,
        theta,
        epsilon,
        noise,
    };
    Ok(match game {
        "tictactoe" => s("exact", None, Opponent::Random, 0, 9, (0.3, 8.0), (0.4, 0.95), (0.3, 3.0)),
        "connect4" => s("exact", None, Opponent::AlphaBeta(2), 4, 42, (0.03, 1.5), (0.4, 0.95), (1.0, 30.0)),
        "gobang" => {
            let cap = depth_cap("gobang", 1).unwrap_or((10_000.0, false));
            s("depth:1", Some(cap), Opponent::AlphaBeta(1), 2, 120, (0.0003, 0.01), (0.4, 0.95), (100.0, 3000.0))
        }
        // The dial's depth-1 curve's cap (a hard cap of 10 pawns without one).
        "chess" => {
            let cap = depth_cap("chess", 1).unwrap_or((1000.0, false));
            s("depth:1", Some(cap), Opponent::AlphaBeta(1), 4, 100, (0.003, 0.1), (0.4, 0.95), (10.0, 300.0))
        }
        _ => return Err(format!("unknown game {game:?}: one of {}", registry::names().join(", "))),
    })
}

/// The cap of the calibration's curve `boltzmann:depth=D,cap=C`, if any.
fn depth_cap(game: &str, depth: u32) -> Option<(f64, bool)> {
    let cal = registry::game(game).ok()?.calibration().ok()?;
    curves_of_depth(&cal, depth).into_iter().find_map(|(_, cap)| cap)
}

/// The true parameters of `count` players of `model`: evenly spread over
/// the range (log-spaced for θ and S), at the midpoints of `count` equal
/// slices.
fn truths(setup: &Setup, model: Model, count: usize) -> Vec<f64> {
    let at = |i: usize| (i as f64 + 0.5) / count as f64;
    let log = |(lo, hi): (f64, f64), t: f64| (lo.ln() + t * (hi.ln() - lo.ln())).exp();
    (0..count)
        .map(|i| match model {
            Model::Boltzmann => log(setup.theta, at(i)),
            Model::Noise => log(setup.noise, at(i)),
            Model::EpsilonGreedy => setup.epsilon.0 + at(i) * (setup.epsilon.1 - setup.epsilon.0),
        })
        .collect()
}

/// The range of the true parameters of `model`.
fn range(setup: &Setup, model: Model) -> (f64, f64) {
    match model {
        Model::Boltzmann => setup.theta,
        Model::EpsilonGreedy => setup.epsilon,
        Model::Noise => setup.noise,
    }
}

/// A depth-`depth` valuer of `eval` with a `table_mib` MiB table (the
/// values the dial's Boltzmann agents see, as `cargo xtask fit` has them).
fn depth_valuer<G: Game, E: Evaluator<G>>(eval: E, depth: u32, table_mib: usize) -> Result<DepthValuer<G, E>, String> {
    DepthValuer::new(eval, depth, table_mib).map_err(|e| e.to_string())
}

/// A valuer's error, as text.
fn message(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> String {
    e.into().to_string()
}

/// One player's games: its decisions, where each game's end, and the
/// decisions skipped.
struct Played {
    decisions: Vec<Decision>,
    ends: Vec<usize>,
    skipped: usize,
}

/// A sample from `model` with `param` over `values` (already capped).
fn sample(model: Model, param: f64, values: &[f64], r: &mut rng::Rng) -> Result<usize, String> {
    if model == Model::Noise {
        // Each value plus N(0, S²), the largest played (Box–Muller).
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, v) in values.iter().enumerate() {
            let (u1, u2): (f64, f64) = (r.random(), r.random());
            let z = (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            let x = v + param * z;
            if x > best.0 {
                best = (x, i);
            }
        }
        return Ok(best.1);
    }
    let p = model.probabilities(values, param).map_err(|e| e.to_string())?;
    Ok(sample_index(&p, r))
}

/// One synthetic player's `games` games.
#[allow(clippy::too_many_arguments)]
fn play_games<G: Game, V: MoveValues<G>, E: Evaluator<G>>(
    start: &G,
    setup: &Setup,
    model: Model,
    param: f64,
    games: u32,
    seed: u64,
    valuer: &mut V,
    mut opponent: Option<&mut DepthValuer<G, E>>,
) -> Result<Played, String> {
    let cap = setup.cap.map(|(c, soft)| if soft { ScoreCap::soft(c) } else { ScoreCap::hard(c) }).transpose();
    let cap = cap.map_err(|e| e.to_string())?;
    let mut r = rng::seeded(seed);
    let mut played = Played { decisions: Vec::new(), ends: Vec::new(), skipped: 0 };
    let mut legal = Vec::new();
    for k in 0..games {
        valuer.new_game();
        if let Some(o) = opponent.as_deref_mut() {
            o.clear();
        }
        let me = usize::from(k % 2 == 1);
        let mut g = start.clone();
        for ply in 0..setup.max_plies {
            legal.clear();
            if g.generate(&mut legal) != Status::Ongoing {
                break;
            }
            let Turn::Player(mover) = g.turn() else { return Err("a chance node".into()) };
            let mut theirs = |g: &G, r: &mut rng::Rng| -> Result<G::Move, String> {
                match opponent.as_deref_mut() {
                    None => Ok(legal[r.random_range(0..legal.len())]),
                    Some(o) => {
                        let v = o.values(g).map_err(|e| e.to_string())?;
                        let best = v.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
                        let top: Vec<G::Move> = v.iter().filter(|x| x.1 == best).map(|x| x.0).collect();
                        Ok(top[r.random_range(0..top.len())])
                    }
                }
            };
            let mv = if ply < setup.opening_plies {
                legal[r.random_range(0..legal.len())]
            } else if mover.index() == me {
                match valuer.move_values(&g).map_err(message)? {
                    None => {
                        played.skipped += 1;
                        theirs(&g, &mut r)?
                    }
                    Some(v) => {
                        let values: Vec<f64> = v.iter().map(|x| x.1).collect();
                        let capped: Vec<f64> = match cap {
                            Some(c) => values.iter().map(|&x| c.apply(x)).collect(),
                            None => values.clone(),
                        };
                        let chosen = sample(model, param, &capped, &mut r)?;
                        played.decisions.push(Decision::new(values, chosen));
                        v[chosen].0
                    }
                }
            } else {
                theirs(&g, &mut r)?
            };
            g.play(mv);
        }
        played.ends.push(played.decisions.len());
    }
    Ok(played)
}

/// Plays one player's games on `config`'s game.
fn play_player(config: &Config, model: Model, param: f64, seed: u64, cache: &SolvedCache) -> Result<Played, String> {
    let s = &config.setup;
    let games = *config.games.last().ok_or("no game counts")?;
    let depth = match s.opponent {
        Opponent::Random => None,
        Opponent::AlphaBeta(d) => Some(d),
    };
    let values_depth = match s.values.parse::<Values>()? {
        Values::Exact => None,
        Values::Depth(d) => Some(d),
    };
    match (s.game.as_str(), values_depth) {
        ("tictactoe", None) => {
            let mut v = TicTacToeExact::new()?;
            let mut o = depth.map(|d| depth_valuer(TicTacToeEval::default(), d, 1)).transpose()?;
            play_games(&TicTacToe::default(), s, model, param, games, seed, &mut v, o.as_mut())
        }
        ("tictactoe", Some(d)) => {
            let mut v = depth_valuer(TicTacToeEval::default(), d, 1)?;
            let mut o = depth.map(|d| depth_valuer(TicTacToeEval::default(), d, 1)).transpose()?;
            play_games(&TicTacToe::default(), s, model, param, games, seed, &mut v, o.as_mut())
        }
        ("connect4", None) => {
            let mut v = Connect4Exact::new(DEFAULT_MIN_DISCS, None, cache.clone())?;
            let mut o = depth.map(|d| depth_valuer(Connect4Eval::default(), d, 4)).transpose()?;
            play_games(&Connect4::standard(), s, model, param, games, seed, &mut v, o.as_mut())
        }
        ("connect4", Some(d)) => {
            let mut v = depth_valuer(Connect4Eval::default(), d, 4)?;
            let mut o = depth.map(|d| depth_valuer(Connect4Eval::default(), d, 4)).transpose()?;
            play_games(&Connect4::standard(), s, model, param, games, seed, &mut v, o.as_mut())
        }
        ("gobang", Some(d)) => {
            let mut v = depth_valuer(GobangEval::default(), d, 8)?;
            let mut o = depth.map(|d| depth_valuer(GobangEval::default(), d, 8)).transpose()?;
            play_games(&Gobang::default(), s, model, param, games, seed, &mut v, o.as_mut())
        }
        ("chess", Some(d)) => {
            let mut v = depth_valuer(ChessEval, d, 16)?;
            let mut o = depth.map(|d| depth_valuer(ChessEval, d, 16)).transpose()?;
            play_games(&ChessGame::startpos(), s, model, param, games, seed, &mut v, o.as_mut())
        }
        (g, None) => Err(format!("{g}: no exact values (tictactoe and connect4 only)")),
        (g, Some(_)) => Err(format!("unknown game {g:?}: one of {}", registry::names().join(", "))),
    }
}

/// Fits one player at every `n`, and classifies it at `choice_n`.
fn fit_player(
    config: &Config,
    model: Model,
    truth: f64,
    played: &Played,
    choice_n: Option<u32>,
) -> Result<PlayerResult, String> {
    let options = match config.setup.cap {
        Some((c, true)) => FitOptions::default().with_soft_cap(c),
        Some((c, false)) => FitOptions::default().with_cap(c),
        None => FitOptions::default(),
    };
    let upto = |n: u32| &played.decisions[..played.ends[n as usize - 1]];
    let mut estimates = Vec::new();
    for &n in &config.games {
        let d = upto(n);
        let e = match fit(d, model, options) {
            Ok(f) => Estimate { n, fit: Some((f.param, f.ci95)), covers: f.contains(truth), moves: f.moves },
            Err(FitError::Empty | FitError::NoInformation { .. }) => Estimate { n, fit: None, covers: false, moves: 0 },
            Err(e) => return Err(e.to_string()),
        };
        estimates.push(e);
    }
    let chosen = match choice_n {
        Some(n) if model != Model::Noise => {
            let d = upto(n);
            match (fit(d, Model::Boltzmann, options), fit(d, Model::EpsilonGreedy, options)) {
                (Ok(a), Ok(b)) => {
                    let c = compare(&[a, b]).map_err(|e| e.to_string())?;
                    Some([Model::Boltzmann, Model::EpsilonGreedy][c.best])
                }
                _ => None,
            }
        }
        _ => None,
    };
    Ok(PlayerResult { model, truth, estimates, chosen, decisions: played.decisions.len(), skipped: played.skipped })
}

/// The error of an estimate: log10 (clamped to the range widened tenfold)
/// for θ and S, plain for ε; and the unclamped error.
fn errors(setup: &Setup, model: Model, truth: f64, est: f64) -> (f64, f64) {
    match model {
        Model::EpsilonGreedy => (est - truth, est - truth),
        _ => {
            let (lo, hi) = range(setup, model);
            let clamped = est.clamp(lo / 10.0, hi * 10.0);
            ((clamped / truth).log10(), (est / truth).log10())
        }
    }
}

/// The statistics of one model at one `n`.
fn cell(setup: &Setup, model: Model, n: u32, players: &[&PlayerResult], index: usize) -> Cell {
    let mut errs = Vec::new();
    let mut raw = Vec::new();
    let (mut covered, mut none, mut top, mut zero, mut open, mut moves) = (0, 0, 0, 0, 0, 0);
    let (_, domain_top) = model.domain();
    for p in players {
        let e = &p.estimates[index];
        let Some((est, ci)) = e.fit else {
            none += 1;
            continue;
        };
        covered += usize::from(e.covers);
        top += usize::from(est == domain_top);
        zero += usize::from(est == 0.0);
        open += usize::from(ci.0.is_none() || ci.1.is_none());
        moves += e.moves;
        let (c, r) = errors(setup, model, p.truth, est);
        errs.push(c);
        raw.push(r);
    }
    let fitted = errs.len();
    let share = |k: usize| if fitted == 0 { f64::NAN } else { k as f64 / fitted as f64 };
    let mean = |xs: &[f64]| if xs.is_empty() { f64::NAN } else { xs.iter().sum::<f64>() / xs.len() as f64 };
    raw.sort_by(f64::total_cmp);
    let median = if raw.is_empty() {
        f64::NAN
    } else if raw.len() % 2 == 1 {
        raw[raw.len() / 2]
    } else {
        let (a, b) = (raw[raw.len() / 2 - 1], raw[raw.len() / 2]);
        if a == b { a } else { (a + b) / 2.0 }
    };
    Cell {
        model,
        n,
        fitted,
        no_information: none,
        covered,
        coverage: share(covered),
        coverage_ci: wilson(covered as f64, fitted as f64),
        bias: mean(&errs),
        rmse: mean(&errs.iter().map(|e| e * e).collect::<Vec<_>>()).sqrt(),
        median_error: median,
        at_top: share(top),
        at_zero: share(zero),
        open: share(open),
        mean_moves: share(moves),
    }
}

/// Runs the validation (no output).
///
/// Errors: no players, no game counts, a game count of 0, no models, a
/// value builder's or fit's failure.
pub fn validate(config: &Config) -> Result<Report, String> {
    if config.players == 0 {
        return Err("--players must be at least 1".into());
    }
    if config.games.is_empty() {
        return Err("--games: no game counts".into());
    }
    if config.games.contains(&0) {
        return Err("--games: a game count must be at least 1".into());
    }
    if config.games.windows(2).any(|w| w[0] >= w[1]) {
        return Err("--games: the counts must increase".into());
    }
    if config.models.is_empty() {
        return Err("--models: no model".into());
    }
    if config.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    let started = Instant::now();
    let both = config.models.contains(&Model::Boltzmann) && config.models.contains(&Model::EpsilonGreedy);
    let choice_n = if both { config.games.iter().copied().filter(|&n| n <= 30).max() } else { None };
    let jobs: Vec<(usize, Model, usize, f64)> = config
        .models
        .iter()
        .enumerate()
        .flat_map(|(mi, &m)| {
            truths(&config.setup, m, config.players).into_iter().enumerate().map(move |(i, t)| (mi, m, i, t))
        })
        .collect();
    let cache = SolvedCache::default();
    let work = || {
        jobs.par_iter()
            .map(|&(mi, model, i, truth)| {
                let seed = derive_seed(derive_seed(config.seed, mi as u64), i as u64);
                let played = play_player(config, model, truth, seed, &cache)?;
                fit_player(config, model, truth, &played, choice_n)
            })
            .collect::<Result<Vec<_>, String>>()
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = config.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build().map_err(|e| e.to_string())?;
    let players = pool.install(work)?;
    let mut cells = Vec::new();
    for &m in &config.models {
        let mine: Vec<&PlayerResult> = players.iter().filter(|p| p.model == m).collect();
        for (i, &n) in config.games.iter().enumerate() {
            cells.push(cell(&config.setup, m, n, &mine, i));
        }
    }
    let choice = choice_n.map(|n| {
        let count = |m: Model| {
            let mine: Vec<&PlayerResult> = players.iter().filter(|p| p.model == m).collect();
            (mine.iter().filter(|p| p.chosen == Some(m)).count(), mine.len())
        };
        Choice { n, epsilon: count(Model::EpsilonGreedy), boltzmann: count(Model::Boltzmann) }
    });
    let solved = cache.lock().map_err(|e| e.to_string())?.len();
    Ok(Report { config: config.clone(), cells, choice, players, solved, seconds: started.elapsed().as_secs_f64() })
}

/// The models of `--models` (default Boltzmann and ε-greedy).
fn parse_models(names: &[String]) -> Result<Vec<Model>, String> {
    let mut out = Vec::new();
    for name in names.iter().flat_map(|n| n.split(',')) {
        let m = match name.trim() {
            "boltzmann" => Model::Boltzmann,
            "epsilon" | "epsilon-greedy" => Model::EpsilonGreedy,
            "noise" => Model::Noise,
            other => return Err(format!("--models {other:?}: expected boltzmann, epsilon or noise")),
        };
        if !out.contains(&m) {
            out.push(m);
        }
    }
    if out.is_empty() {
        out = vec![Model::Boltzmann, Model::EpsilonGreedy];
    }
    Ok(out)
}

/// A number or `null`.
fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// A parameter: a number, or `"inf"`.
fn param_json(x: f64) -> Value {
    if x == f64::INFINITY { json!("inf") } else { finite(x) }
}

/// An error: a number, `"inf"` or `"-inf"`.
fn error_json(x: f64) -> Value {
    match x {
        f64::INFINITY => json!("inf"),
        f64::NEG_INFINITY => json!("-inf"),
        _ => finite(x),
    }
}

/// The report as JSON.
pub fn to_json(r: &Report) -> Value {
    let s = &r.config.setup;
    json!({
        "game": s.game,
        "values": s.values,
        "cap": s.cap.map(|c| c.0),
        "soft_cap": s.cap.is_some_and(|c| c.1),
        "opponent": s.opponent.to_string(),
        "opening_plies": s.opening_plies,
        "max_plies": s.max_plies,
        "min_discs": if s.game == "connect4" && s.values == "exact" { json!(DEFAULT_MIN_DISCS) } else { Value::Null },
        "ranges": {"boltzmann": [s.theta.0, s.theta.1], "epsilon": [s.epsilon.0, s.epsilon.1], "noise": [s.noise.0, s.noise.1]},
        "players_per_model": r.config.players,
        "games": r.config.games,
        "seed": r.config.seed,
        "seconds": r.seconds,
        "solved_positions": r.solved,
        "cells": r.cells.iter().map(|c| json!({
            "model": model_name(c.model),
            "n": c.n,
            "fitted": c.fitted,
            "no_information": c.no_information,
            "covered": c.covered,
            "coverage": finite(c.coverage),
            "coverage_ci95": [finite(c.coverage_ci.0), finite(c.coverage_ci.1)],
            "error_scale": if c.model == Model::EpsilonGreedy { "plain" } else { "log10, clamped" },
            "bias": finite(c.bias),
            "rmse": finite(c.rmse),
            "median_error": error_json(c.median_error),
            "share_at_top": finite(c.at_top),
            "share_at_zero": finite(c.at_zero),
            "share_open": finite(c.open),
            "mean_moves": finite(c.mean_moves),
        })).collect::<Vec<_>>(),
        "model_choice": r.choice.as_ref().map(|c| json!({
            "n": c.n,
            "epsilon_as_epsilon": [c.epsilon.0, c.epsilon.1],
            "boltzmann_as_boltzmann": [c.boltzmann.0, c.boltzmann.1],
        })),
        "players": r.players.iter().map(|p| json!({
            "model": model_name(p.model),
            "truth": p.truth,
            "decisions": p.decisions,
            "skipped": p.skipped,
            "chosen": p.chosen.map(model_name),
            "estimates": p.estimates.iter().map(|e| json!({
                "n": e.n,
                "param": e.fit.map_or(Value::Null, |f| param_json(f.0)),
                "ci95": e.fit.map_or(Value::Null, |f| json!([f.1.0.map_or(Value::Null, param_json), f.1.1.map_or(Value::Null, param_json)])),
                "covers": e.covers,
                "moves": e.moves,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// A share as a percentage.
fn pct(x: f64) -> String {
    if x.is_finite() { format!("{:.1}%", 100.0 * x) } else { "–".into() }
}

/// An error for the table.
fn err_text(x: f64) -> String {
    match x {
        f64::INFINITY => "+∞".into(),
        f64::NEG_INFINITY => "−∞".into(),
        x if x.is_nan() => "–".into(),
        x => format!("{x:+.3}"),
    }
}

/// The report as markdown.
pub fn to_markdown(r: &Report) -> String {
    let s = &r.config.setup;
    let mut out = String::new();
    let _ = writeln!(out, "### {}\n", s.game);
    let cap = s.cap.map_or("none".to_string(), |(c, soft)| format!("{}{}", num(c), if soft { " (soft)" } else { "" }));
    let skipped: usize = r.players.iter().map(|p| p.skipped).sum();
    let decisions: usize = r.players.iter().map(|p| p.decisions).sum();
    let _ = writeln!(
        out,
        "Values {}, cap {cap}; opponent {}; {} random opening plies; games stopped after {} plies; {} players per \
         model, {} games each; seed {}; {:.0} s wall clock.",
        s.values,
        s.opponent,
        s.opening_plies,
        s.max_plies,
        r.config.players,
        r.config.games.last().copied().unwrap_or(0),
        r.config.seed,
        r.seconds
    );
    let _ = writeln!(
        out,
        "True θ {}..{} (log-spaced), ε {}..{}{}. Decisions recorded: {decisions}{}.\n",
        num(s.theta.0),
        num(s.theta.1),
        num(s.epsilon.0),
        num(s.epsilon.1),
        if r.config.models.contains(&Model::Noise) {
            format!(", S {}..{}", num(s.noise.0), num(s.noise.1))
        } else {
            String::new()
        },
        if skipped > 0 {
            format!(" (and {skipped} skipped before {DEFAULT_MIN_DISCS} discs; {} positions solved)", r.solved)
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        out,
        "| model | games | fitted | moves/fit | bias | RMSE | median error | coverage (95% CI) | open | at top | at 0 |"
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |");
    for c in &r.cells {
        let scale = if c.model == Model::EpsilonGreedy { "" } else { " (log10)" };
        let _ = writeln!(
            out,
            "| {} {}{scale} | {} | {}{} | {:.0} | {} | {:.3} | {} | {} ({}..{}) | {} | {} | {} |",
            model_name(c.model),
            symbol(c.model),
            c.n,
            c.fitted,
            if c.no_information > 0 { format!(" (+{} none)", c.no_information) } else { String::new() },
            c.mean_moves,
            err_text(c.bias),
            c.rmse,
            err_text(c.median_error),
            pct(c.coverage),
            pct(c.coverage_ci.0),
            pct(c.coverage_ci.1),
            pct(c.open),
            pct(c.at_top),
            pct(c.at_zero),
        );
    }
    if let Some(c) = &r.choice {
        let share = |(k, n): (usize, usize)| format!("{k}/{n} ({})", pct(k as f64 / n.max(1) as f64));
        let _ = writeln!(
            out,
            "\nModel choice by AIC at {} games: ε-greedy players classified ε-greedy {}, Boltzmann players \
             classified Boltzmann {}.",
            c.n,
            share(c.epsilon),
            share(c.boltzmann)
        );
    }
    out
}

/// RMSE and coverage against the number of games, one panel each.
pub fn to_svg(r: &Report) -> Result<String, String> {
    use plotters::prelude::*;
    let e = |x: DrawingAreaErrorKind<_>| x.to_string();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let root = root
            .titled(
                &format!("{}: {} values, synthetic players", r.config.setup.game, r.config.setup.values),
                ("sans-serif", 18),
            )
            .map_err(e)?;
        let (left, right) = root.split_horizontally(500);
        let xs: Vec<f64> = r.config.games.iter().map(|&n| f64::from(n).log10()).collect();
        let (x0, x1) = (xs[0] - 0.1, xs[xs.len() - 1] + 0.1);
        let series = |pick: &dyn Fn(&Cell) -> f64| -> Vec<(Model, Vec<(f64, f64)>)> {
            r.config
                .models
                .iter()
                .map(|&m| {
                    let pts = r
                        .cells
                        .iter()
                        .filter(|c| c.model == m)
                        .map(|c| (f64::from(c.n).log10(), pick(c)))
                        .filter(|p| p.1.is_finite())
                        .collect();
                    (m, pts)
                })
                .collect()
        };
        let label = |m: Model| match m {
            Model::EpsilonGreedy => "ε-greedy (ε)".to_string(),
            m => format!("{} (log10 {})", model_name(m), symbol(m)),
        };
        let rmse = series(&|c: &Cell| c.rmse);
        let top = rmse.iter().flat_map(|s| s.1.iter().map(|p| p.1)).fold(0.0f64, f64::max).max(0.01) * 1.1;
        let mut chart = ChartBuilder::on(&left)
            .caption("RMSE of the estimate", ("sans-serif", 15))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(x0..x1, 0.0..top)
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("games (log10)")
            .y_desc("RMSE")
            .x_label_formatter(&|x| format!("{:.0}", 10f64.powf(*x)))
            .draw()
            .map_err(e)?;
        for (i, (m, pts)) in rmse.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(e)?
                .label(label(*m))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(e)?;
        }
        chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(e)?;

        let cov = series(&|c: &Cell| 100.0 * c.coverage);
        let low = cov.iter().flat_map(|s| s.1.iter().map(|p| p.1)).fold(90.0f64, f64::min) - 2.0;
        let mut chart = ChartBuilder::on(&right)
            .caption("coverage of the 95% intervals (93–97% dashed)", ("sans-serif", 15))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(x0..x1, low..100.5)
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("games (log10)")
            .y_desc("coverage %")
            .x_label_formatter(&|x| format!("{:.0}", 10f64.powf(*x)))
            .draw()
            .map_err(e)?;
        for y in [93.0, 97.0] {
            chart
                .draw_series(DashedLineSeries::new(vec![(x0, y), (x1, y)], 6, 4, BLACK.mix(0.6).stroke_width(1)))
                .map_err(e)?;
        }
        for (i, (m, pts)) in cov.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(e)?
                .label(label(*m))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(e)?;
            // The Wilson interval of each point.
            let bars = r.cells.iter().filter(|c| c.model == *m && c.coverage.is_finite()).map(|c| {
                let x = f64::from(c.n).log10() + 0.01 * i as f64;
                PathElement::new(
                    vec![(x, 100.0 * c.coverage_ci.0), (x, 100.0 * c.coverage_ci.1)],
                    color.stroke_width(1),
                )
            });
            chart.draw_series(bars).map_err(e)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// Runs `cargo xtask fit-validation`.
pub fn run(args: Args) -> TaskResult {
    let setup = setup(&args.game)?;
    let models = parse_models(&args.models)?;
    let players = args.players.unwrap_or(match (args.quick, args.game.as_str()) {
        (true, _) => 20,
        (false, "tictactoe" | "connect4") => 200,
        _ => 50,
    });
    let games = args.games.clone().unwrap_or(if args.quick { vec![1, 3, 10] } else { vec![1, 3, 10, 30, 100] });
    let config = Config { setup, models, players, games, seed: args.seed, threads: args.threads };
    let report = validate(&config)?;
    let md = to_markdown(&report);
    let js = to_json(&report);
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let write = |name: String, text: &str| {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
        };
        write(format!("{}.md", args.game), &md)?;
        write(format!("{}.json", args.game), &format!("{js:#}\n"))?;
        write(format!("{}.svg", args.game), &to_svg(&report)?)?;
    }
    if args.json {
        println!("{js}");
    } else {
        print!("{md}");
    }
    Ok(())
}
