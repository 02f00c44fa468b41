//! The thinking part of the engine, independent of the protocol: a backup
//! rule chosen at run time, iterative deepening run depth by depth (so that
//! every completed iteration can be reported), scores in UCI terms and
//! Rminimax sampling.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use search_core::backup::rminimax::OutcomeCosts;
use search_core::backup::{Backup, Emm, Iom, LinearBonus, MAndN, Minimax, Predictive, Product, Rminimax};
use search_core::search::{Limits, Options, Search, SearchResult, TtDepth};
use search_core::{Game, GameError, MAX_PLY, ParamError, Status, WIN_SCORE, rng};
use shakmaty::{CastlingMode, Move, Position};

use crate::{ChessEval, ChessGame};

/// The deepest iteration the engine starts.
pub const MAX_DEPTH: u32 = 100;

/// Depth cap of the full-width rules when `go` gives only time (or nothing):
/// each ply multiplies their work by the branching factor (about 35).
pub const FULL_WIDTH_DEPTH_CAP: u32 = 3;

/// Depth cap of IOM (searched with its sound windows, PIOM) in the same
/// case.
pub const IOM_DEPTH_CAP: u32 = 5;

/// Centipawns that count as a certain win for the rules that need a scale
/// (Rminimax's horizon costs), and the largest `cp` score reported for rules
/// whose values are not mate distances.
pub const CP_RANGE: f64 = 1000.0;

/// Largest `score cp` printed for the rules that do not report mates.
const CP_CLAMP: f64 = 30_000.0;

/// Predicted opponent strength of the `predictive` rule.
pub const PREDICTIVE_PS: f64 = 0.75;
/// Temperature (centipawns per unit of log-odds) of `product` and `emm`.
pub const PROBABILITY_TEMPERATURE: f64 = 100.0;
/// `mn`: M and N, and the linear bonus's β (centipawns) and δ (centipawns).
pub const MN_PARAMS: (usize, usize, f64, f64) = (2, 2, 10.0, 50.0);

/// The backup rule the engine searches with (the `Backup` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BackupKind {
    /// Minimax with alpha-beta and every engine enhancement (the default).
    #[default]
    AlphaBeta,
    /// Plain minimax, full width (a reference: same values, many more nodes).
    Minimax,
    /// IOM (iterative optimal minimax) with its sound windows (PIOM).
    Iom,
    /// Error minimax (EMM), full width.
    Emm,
    /// Rminimax, full width; the move is sampled from its policy with θ
    /// (`Theta`) and the seeded generator (`Seed`).
    Rminimax,
    /// Predictive play with `PS` = [`PREDICTIVE_PS`], full width.
    Predictive,
    /// Product propagation, full width.
    Product,
    /// M & N ([`MN_PARAMS`]), full width.
    MAndN,
}

impl BackupKind {
    /// Every rule, in the order the `Backup` combo lists them.
    pub const ALL: [BackupKind; 8] = [
        BackupKind::AlphaBeta,
        BackupKind::Minimax,
        BackupKind::Iom,
        BackupKind::Emm,
        BackupKind::Rminimax,
        BackupKind::Predictive,
        BackupKind::Product,
        BackupKind::MAndN,
    ];

    /// The name used by the `Backup` option.
    pub fn name(self) -> &'static str {
        match self {
            BackupKind::AlphaBeta => "alphabeta",
            BackupKind::Minimax => "minimax",
            BackupKind::Iom => "iom",
            BackupKind::Emm => "emm",
            BackupKind::Rminimax => "rminimax",
            BackupKind::Predictive => "predictive",
            BackupKind::Product => "product",
            BackupKind::MAndN => "mn",
        }
    }

    /// The depth to stop at when `go` sets no depth, if the rule is too slow
    /// to deepen until the clock runs out.
    pub fn default_depth_cap(self) -> Option<u32> {
        match self {
            BackupKind::AlphaBeta => None,
            BackupKind::Iom => Some(IOM_DEPTH_CAP),
            _ => Some(FULL_WIDTH_DEPTH_CAP),
        }
    }
}

impl fmt::Display for BackupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackupKind {
    type Err = ParamError;

    /// A rule name, case-insensitive (`m&n` and `m_and_n` also name `mn`).
    fn from_str(s: &str) -> Result<Self, ParamError> {
        let lower = s.trim().to_ascii_lowercase();
        let alias = match lower.as_str() {
            "m&n" | "m_and_n" | "mandn" => "mn",
            "alpha-beta" | "ab" => "alphabeta",
            other => other,
        };
        BackupKind::ALL.into_iter().find(|k| k.name() == alias).ok_or_else(|| {
            let names: Vec<&str> = BackupKind::ALL.iter().map(|k| k.name()).collect();
            ParamError::new("Backup", format!("unknown rule {s:?}: expected one of {}", names.join(", ")))
        })
    }
}

/// What the engine's options set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Transposition table size in MiB (`Hash`).
    pub hash_mib: usize,
    /// The backup rule (`Backup`).
    pub backup: BackupKind,
    /// Rminimax's inverse temperature θ (`Theta`), in units of the cost
    /// scale: a win costs 0, a draw 1, a loss 2, and a horizon position
    /// `1 − cp / CP_RANGE`, clipped to `[0, 2]`.
    pub theta: f64,
    /// Seed of the search and of Rminimax's sampling (`Seed`).
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { hash_mib: 16, backup: BackupKind::AlphaBeta, theta: 30.0, seed: 0 }
    }
}

/// A search with its rule erased, so the engine can switch rules at run
/// time.
trait Driver: Send {
    fn run(&mut self, root: &ChessGame, limits: Limits) -> Result<SearchResult<Move>, GameError>;
    fn clear(&mut self);
}

impl<R: Backup<ChessGame> + Send> Driver for Search<ChessGame, ChessEval, R> {
    fn run(&mut self, root: &ChessGame, limits: Limits) -> Result<SearchResult<Move>, GameError> {
        self.set_limits(limits);
        Search::run(self, root)
    }

    fn clear(&mut self) {
        Search::clear(self);
    }
}

/// The limits of one `think`.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Search at most this deep (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes in total.
    pub nodes: Option<u64>,
    /// Stop deepening after `soft`, stop searching at `hard`.
    pub budget: Option<super::time::Budget>,
    /// Stop as soon as a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
}

/// A score as UCI reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's point of view.
    Cp(i64),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i64),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Converts a minimax value (the root mover's view) into a UCI score: values
/// within [`MAX_PLY`] of [`WIN_SCORE`] are mates found `WIN_SCORE − |v|`
/// plies away, reported in moves (a mate in 1 is 1 ply, a mate in 2 is 3
/// plies); the sign says who mates.
///
/// ```
/// use games_chess::uci::{mate_or_cp, Score};
/// use search_core::WIN_SCORE;
/// assert_eq!(mate_or_cp(WIN_SCORE - 1.0), Score::Mate(1));
/// assert_eq!(mate_or_cp(WIN_SCORE - 3.0), Score::Mate(2));
/// assert_eq!(mate_or_cp(-(WIN_SCORE - 2.0)), Score::Mate(-1));
/// assert_eq!(mate_or_cp(-(WIN_SCORE - 0.0)), Score::Mate(0));
/// assert_eq!(mate_or_cp(37.4), Score::Cp(37));
/// ```
pub fn mate_or_cp(value: f64) -> Score {
    let threshold = WIN_SCORE - f64::from(MAX_PLY);
    if value.is_finite() && value.abs() >= threshold {
        let plies = (WIN_SCORE - value.abs()).max(0.0) as i64;
        let moves = (plies + 1) / 2;
        return Score::Mate(if value > 0.0 { moves } else { -moves });
    }
    Score::Cp(clamp_cp(value))
}

fn clamp_cp(cp: f64) -> i64 {
    if cp.is_nan() { 0 } else { cp.clamp(-CP_CLAMP, CP_CLAMP).round() as i64 }
}

/// One completed iteration (or the final answer) of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Iteration {
    /// Depth in plies.
    pub depth: u32,
    /// The score from the engine's point of view.
    pub score: Score,
    /// Nodes searched since the `go`, all iterations together.
    pub nodes: u64,
    /// Time since the `go`.
    pub time: Duration,
    /// The principal variation (legal moves from the root).
    pub pv: Vec<Move>,
}

impl Iteration {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros).min(u128::from(u64::MAX)) as u64
    }

    /// The `info` line: `info depth D score … nodes N nps N time MS pv …`.
    pub fn info_line(&self) -> String {
        let mut s = format!(
            "info depth {} score {} nodes {} nps {} time {}",
            self.depth,
            self.score,
            self.nodes,
            self.nps(),
            self.time.as_millis()
        );
        if !self.pv.is_empty() {
            s.push_str(" pv");
            for mv in &self.pv {
                s.push(' ');
                s.push_str(&uci_move(*mv));
            }
        }
        s
    }
}

/// What a search decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The move to play (`None` if the game is over at the root).
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The last completed iteration (or the game's end at the root).
    pub last: Iteration,
    /// Messages for `info string` lines (depth caps, fallbacks).
    pub notes: Vec<String>,
}

/// The engine's thinking state: the configured search (with its
/// transposition table and move-ordering history, kept between moves) and
/// the generator Rminimax samples with.
pub struct Brain {
    settings: Settings,
    driver: Box<dyn Driver>,
    rminimax: Option<Rminimax>,
    rng: rng::Rng,
}

impl fmt::Debug for Brain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Brain").field("settings", &self.settings).finish_non_exhaustive()
    }
}

impl Brain {
    /// A brain for `settings`.
    ///
    /// Errors: an invalid θ (NaN or `≤ 0`) or another rule parameter.
    pub fn new(settings: Settings) -> Result<Brain, ParamError> {
        let engine_options = Options {
            tt_mib: settings.hash_mib,
            tt_depth: TtDepth::AtLeast,
            iterative_deepening: false,
            seed: settings.seed,
            ..Options::default()
        };
        let full_width = Options { iterative_deepening: false, seed: settings.seed, ..Options::full_width() };
        let (m, n, beta, delta) = MN_PARAMS;
        let mut rminimax = None;
        let driver: Box<dyn Driver> = match settings.backup {
            BackupKind::AlphaBeta => Box::new(Search::new(Minimax, ChessEval, engine_options)),
            BackupKind::Minimax => Box::new(Search::new(Minimax, ChessEval, full_width)),
            BackupKind::Iom => {
                Box::new(Search::new(Iom::new(), ChessEval, Options { tt_depth: TtDepth::Exact, ..engine_options }))
            }
            BackupKind::Emm => {
                Box::new(Search::new(Emm::with_temperature(PROBABILITY_TEMPERATURE)?, ChessEval, full_width))
            }
            BackupKind::Rminimax => {
                let costs = OutcomeCosts::default().with_interior(0.0)?.with_horizon_range(CP_RANGE)?;
                let rule = Rminimax::with_costs(settings.theta, costs)?;
                rminimax = Some(rule);
                Box::new(Search::new(rule, ChessEval, full_width))
            }
            BackupKind::Predictive => Box::new(Search::new(Predictive::new(PREDICTIVE_PS)?, ChessEval, full_width)),
            BackupKind::Product => Box::new(Search::new(Product::new(PROBABILITY_TEMPERATURE)?, ChessEval, full_width)),
            BackupKind::MAndN => {
                Box::new(Search::new(MAndN::new(m, n, LinearBonus::new(beta, delta)?)?, ChessEval, full_width))
            }
        };
        Ok(Brain { settings, driver, rminimax, rng: rng::seeded(settings.seed) })
    }

    /// The settings this brain was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Forgets the transposition table and move history and re-seeds the
    /// sampling generator (a new game).
    pub fn new_game(&mut self) {
        self.driver.clear();
        self.rng = rng::seeded(self.settings.seed);
    }

    /// Forgets the transposition table and move history only.
    pub fn clear_hash(&mut self) {
        self.driver.clear();
    }

    /// The score of a value of this brain's rule at `depth`, in UCI terms.
    fn score(&self, value: f64, depth: u32) -> Score {
        match self.settings.backup {
            BackupKind::AlphaBeta | BackupKind::Minimax => mate_or_cp(value),
            // Values are centipawns (averages of them, plus a bonus).
            BackupKind::Predictive | BackupKind::MAndN => Score::Cp(clamp_cp(value)),
            // The weights 1, 2, 4, … along the principal path sum to
            // 2^(depth+1) − 1: divide to get a weighted mean of centipawns.
            BackupKind::Iom => Score::Cp(clamp_cp(value / (2f64.powi(depth.min(60) as i32 + 1) - 1.0))),
            // Log-odds of winning, times the temperature of the leaves.
            BackupKind::Product => Score::Cp(clamp_cp(value * PROBABILITY_TEMPERATURE)),
            // 2p − 1 with p the probability of winning: back to log-odds.
            BackupKind::Emm => {
                let p = ((value + 1.0) / 2.0).clamp(1e-12, 1.0 - 1e-12);
                Score::Cp(clamp_cp((p / (1.0 - p)).ln() * PROBABILITY_TEMPERATURE))
            }
            // −V, V the soft cost to go in [0, 2] (1 is a draw).
            BackupKind::Rminimax => Score::Cp(clamp_cp((1.0 + value) * CP_RANGE)),
        }
    }

    /// Searches `position` within `plan`, deepening one ply at a time and
    /// calling `on_iteration` after each completed iteration, until a limit,
    /// the `stop` flag, or the last depth. With `wait_for_stop` (`go
    /// infinite`, pondering), returns only once `stop` is set, as the
    /// protocol requires.
    pub fn think(
        &mut self,
        position: &ChessGame,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        wait_for_stop: bool,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> Decision {
        let start = Instant::now();
        let mut notes = Vec::new();
        let mut root = position.clone();
        let mut legal = Vec::new();
        if let Status::Over(_) = root.generate(&mut legal) {
            if root.position().legal_moves().is_empty() {
                let score = if root.is_check() { Score::Mate(0) } else { Score::Cp(0) };
                notes.push("the game is over: no legal move".to_string());
                let last = Iteration { depth: 0, score, nodes: 0, time: start.elapsed(), pv: Vec::new() };
                wait(wait_for_stop, stop);
                return Decision { best: None, ponder: None, last, notes };
            }
            // A draw by rule that a GUI may play on from (repetition, fifty
            // moves, insufficient material): search the board alone.
            notes.push("the position is a draw by rule; searching the board anyway".to_string());
            root = ChessGame::from_position(root.position().clone()).with_rules(crate::Rules::PERFT);
            legal.clear();
            root.generate(&mut legal);
        }
        root.mark_search_root();
        let last_depth = plan.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let timed = plan.budget.is_some();
        let mut total_nodes = 0u64;
        let mut best: Option<(SearchResult<Move>, Iteration)> = None;
        for depth in 1..=last_depth {
            if depth > 1 {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if let Some(b) = plan.budget
                    && start.elapsed() >= b.soft
                {
                    break;
                }
                if plan.nodes.is_some_and(|n| total_nodes >= n) {
                    break;
                }
                // One legal move: nothing to think about under a clock.
                if timed && legal.len() == 1 {
                    break;
                }
            }
            // The first iteration always completes (unless stopped): it is
            // cheap and gives a real move however short the clock.
            let time = if depth > 1 { plan.budget.map(|b| b.hard.saturating_sub(start.elapsed())) } else { None };
            let limits = Limits {
                depth: Some(depth),
                nodes: plan.nodes.map(|n| n.saturating_sub(total_nodes).max(1)),
                time,
                stop: Some(Arc::clone(stop)),
            };
            let result = match self.driver.run(&root, limits) {
                Ok(r) => r,
                Err(e) => {
                    notes.push(format!("search failed: {e}"));
                    break;
                }
            };
            total_nodes += result.stats.nodes;
            if !result.complete {
                if best.is_none() && result.best.is_some() {
                    let it = self.iteration(&root, &result, depth, total_nodes, start);
                    best = Some((result, it));
                }
                break;
            }
            let it = self.iteration(&root, &result, depth, total_nodes, start);
            on_iteration(&it);
            let mate_found = match it.score {
                Score::Mate(n) if n > 0 => Some(n as u32),
                _ => None,
            };
            best = Some((result, it));
            if let Some(n) = mate_found {
                if plan.mate.is_some_and(|m| n <= m) {
                    break;
                }
                // A mate is proven: deeper iterations only confirm it.
                if !wait_for_stop && depth >= 2 * n + 2 {
                    break;
                }
            }
        }
        wait(wait_for_stop, stop);
        let Some((result, mut last)) = best else {
            // Stopped before anything was searched: any legal move.
            let last =
                Iteration { depth: 0, score: Score::Cp(0), nodes: total_nodes, time: start.elapsed(), pv: vec![] };
            return Decision { best: legal.first().copied(), ponder: None, last, notes };
        };
        last.nodes = total_nodes;
        last.time = start.elapsed();
        let mut chosen = last.pv.first().copied().or(result.best);
        if let Some(rule) = self.rminimax {
            match self.sample(&rule, &result) {
                Ok(mv) => chosen = Some(mv),
                Err(e) => notes.push(format!("rminimax sampling failed ({e}); playing the best move")),
            }
        }
        let ponder = match (chosen, last.pv.as_slice()) {
            (Some(mv), [first, reply, ..]) if mv == *first => Some(*reply),
            _ => None,
        };
        Decision { best: chosen.or_else(|| legal.first().copied()), ponder, last, notes }
    }

    /// Samples the root move from Rminimax's policy (eq. 10 of the paper).
    fn sample(&mut self, rule: &Rminimax, result: &SearchResult<Move>) -> Result<Move, ParamError> {
        if !result.complete || result.root_moves.is_empty() {
            return Err(ParamError::new("rminimax", "no complete iteration to sample from"));
        }
        let probs = rule.transition_probabilities(result)?;
        let i = search_core::agent::sample_index(&probs, &mut self.rng);
        Ok(result.root_moves[i.min(result.root_moves.len() - 1)].mv)
    }

    fn iteration(
        &self,
        root: &ChessGame,
        result: &SearchResult<Move>,
        depth: u32,
        nodes: u64,
        start: Instant,
    ) -> Iteration {
        let mut pv = legal_prefix(root, &result.pv);
        if pv.is_empty()
            && let Some(mv) = result.best
        {
            pv.push(mv);
        }
        Iteration { depth, score: self.score(result.value, depth), nodes, time: start.elapsed(), pv }
    }
}

/// The longest prefix of `pv` that is legal from `root` (a defensive check:
/// a GUI must never see an illegal move).
fn legal_prefix(root: &ChessGame, pv: &[Move]) -> Vec<Move> {
    let mut g = root.clone().with_rules(crate::Rules::PERFT);
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if g.try_play(mv).is_err() {
            break;
        }
        out.push(mv);
    }
    out
}

fn wait(wait_for_stop: bool, stop: &AtomicBool) {
    while wait_for_stop && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `mv` in UCI notation (castling as the king's two-square move).
pub fn uci_move(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}
