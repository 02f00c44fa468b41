//! The search driver: one recursive core for every backup rule.
//!
//! [`Search`] runs a [`Backup`] rule over a [`Game`] with an [`Evaluator`].
//! What differs between minimax, alpha-beta, PVS, expectiminimax with Star
//! pruning, IOM and PIOM is a rule and a few [`Options`]; the recursion is the
//! same code (`core.rs`).
//!
//! ```
//! use search_core::backup::Minimax;
//! use search_core::search::{Limits, Options, Search};
//! use search_core::tree::{LiteralEval, LiteralTree};
//!
//! let t: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse()?;
//! // Plain minimax: every node.
//! let full = Search::new(Minimax, LiteralEval, Options::full_width()).run(&t)?;
//! // Alpha-beta with every enhancement (the default options).
//! let ab = Search::new(Minimax, LiteralEval, Options::default()).run(&t)?;
//! assert_eq!(full.value, 3.0);
//! assert_eq!(ab.value, 3.0);
//! assert!(ab.stats.nodes < full.stats.nodes);
//! # Ok::<(), search_core::GameError>(())
//! ```

mod agent;
mod core;
mod ordering;
mod tt;
mod window;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use agent::SearchAgent;
pub use window::{Bound, Window};

use crate::backup::Backup;
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::{Game, Status};
use ordering::Ordering;
use tt::TranspositionTable;

/// When to stop searching. Every limit is optional; with none, the search
/// runs to the end of the game (full tree).
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Maximum depth in plies (must be ≥ 1).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Stop when this flag becomes true (set from another thread).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A depth limit only.
    ///
    /// ```
    /// use search_core::search::Limits;
    /// assert_eq!(Limits::depth(3).depth, Some(3));
    /// ```
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A time limit only (iterative deepening until time runs out).
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }
}

/// How transposition-table entries of a different remaining depth are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TtDepth {
    /// Only entries searched to exactly the remaining depth give values
    /// (deeper ones still give their best move). Never changes a value
    /// against a search without the table.
    Exact,
    /// Entries searched at least as deep give values too (the usual engine
    /// rule: stronger, but a depth-limited value may differ from the same
    /// search without the table, because it is deeper). Rules with
    /// [`Pruning::Windows`](crate::backup::Pruning::Windows) always use
    /// `Exact`.
    AtLeast,
}

/// Star pruning at chance nodes (Ballard), for rules with
/// [`Pruning::Negamax`](crate::backup::Pruning::Negamax) and evaluators that
/// declare [`bounds`](Evaluator::bounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Star {
    /// Search every chance outcome with the full window.
    Off,
    /// Star1: windows from the value bounds and the outcomes seen so far.
    Star1,
    /// Star2: Star1 plus a probing pass that searches one move of every
    /// outcome first, to bound it.
    Star2,
}

/// ProbCut forward pruning (off by default): a shallow search predicts
/// whether the deep one would fail high.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbCut {
    /// Apply at nodes with at least this remaining depth.
    pub min_depth: u32,
    /// The shallow search is this many plies shallower.
    pub reduction: u32,
    /// Cut if the shallow value reaches `beta + margin`.
    pub margin: f64,
}

/// Switches of the search core. [`Options::default`] is a full alpha-beta
/// engine; [`Options::full_width`] is plain minimax.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Alpha-beta pruning, when the rule allows it. Off: full width.
    pub alpha_beta: bool,
    /// Iterative deepening from depth 1 to the depth limit.
    pub iterative_deepening: bool,
    /// Transposition table size in MiB (0: none). Needs [`Game::hash_key`].
    pub tt_mib: usize,
    /// How table entries of other depths are used.
    pub tt_depth: TtDepth,
    /// Principal-variation search (null windows after the first move).
    pub pvs: bool,
    /// Aspiration window half-width around the previous iteration's value.
    pub aspiration: Option<f64>,
    /// Use the game's [`order_hint`](Game::order_hint).
    pub game_ordering: bool,
    /// Killer moves.
    pub killers: bool,
    /// History heuristic.
    pub history: bool,
    /// Quiescence search beyond the horizon with the evaluator's noisy moves.
    pub quiescence: bool,
    /// Null-move pruning with this depth reduction (games that can pass).
    pub null_move: Option<u32>,
    /// Beam search: keep only the `k` best children by static value.
    pub beam: Option<usize>,
    /// ProbCut.
    pub probcut: Option<ProbCut>,
    /// Star1/Star2 at chance nodes.
    pub star: Star,
    /// Monte Carlo chance nodes: sample this many outcomes instead of
    /// enumerating them.
    pub chance_samples: Option<u32>,
    /// Seed for everything random in the search (chance sampling).
    pub seed: u64,
    /// The lecture's "simple pruning": stop at a node as soon as a proven
    /// win is found.
    pub stop_at_win: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            alpha_beta: true,
            iterative_deepening: true,
            tt_mib: 16,
            tt_depth: TtDepth::Exact,
            pvs: true,
            aspiration: None,
            game_ordering: true,
            killers: true,
            history: true,
            quiescence: true,
            null_move: None,
            beam: None,
            probcut: None,
            star: Star::Star2,
            chance_samples: None,
            seed: 0,
            stop_at_win: false,
        }
    }
}

impl Options {
    /// Plain minimax (or expectiminimax): no pruning, no table, no
    /// reordering; every node of the tree is visited in the game's order.
    ///
    /// ```
    /// use search_core::search::Options;
    /// assert!(!Options::full_width().alpha_beta);
    /// ```
    pub fn full_width() -> Options {
        Options {
            alpha_beta: false,
            iterative_deepening: false,
            tt_mib: 0,
            pvs: false,
            game_ordering: false,
            killers: false,
            history: false,
            quiescence: false,
            star: Star::Off,
            ..Options::default()
        }
    }

    /// Alpha-beta with no enhancement: fail-soft negamax in the game's order.
    pub fn plain_alpha_beta() -> Options {
        Options { alpha_beta: true, ..Options::full_width() }
    }

    fn validate(&self) -> Result<(), ParamError> {
        if let Some(w) = self.aspiration {
            ParamError::positive("aspiration", w)?;
        }
        if self.beam == Some(0) {
            return Err(ParamError::new("beam", "must keep at least one child"));
        }
        if self.chance_samples == Some(0) {
            return Err(ParamError::new("chance_samples", "must be >= 1"));
        }
        if let Some(pc) = self.probcut {
            if pc.reduction == 0 || pc.reduction >= pc.min_depth {
                return Err(ParamError::new("probcut", "need 0 < reduction < min_depth"));
            }
            if !pc.margin.is_finite() {
                return Err(ParamError::new("probcut", "margin must be finite"));
            }
        }
        if self.null_move == Some(0) {
            return Err(ParamError::new("null_move", "the reduction must be >= 1"));
        }
        Ok(())
    }
}

/// Counters of one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stats {
    /// Every node visited (interior, leaves and quiescence nodes, every
    /// iteration).
    pub nodes: u64,
    /// Leaves: terminal states and horizon nodes.
    pub leaves: u64,
    /// Interior nodes expanded.
    pub interior: u64,
    /// Nodes visited by quiescence search.
    pub qnodes: u64,
    /// Beta cutoffs (including Star cutoffs at chance nodes).
    pub cutoffs: u64,
    /// Transposition-table probes that ended a node.
    pub tt_cuts: u64,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Wall-clock time in microseconds.
    pub micros: u64,
}

/// One root move and its value from the root mover's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its value (the rule's [`child_score`](Backup::child_score)).
    pub score: f64,
    /// Exact, or a bound where pruning left it unresolved.
    pub bound: Bound,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult<M> {
    /// The root's value from the root mover's point of view (chance root:
    /// the first player's).
    pub value: f64,
    /// The best move (the first searched among the best), if any move was
    /// searched.
    pub best: Option<M>,
    /// Every root move whose exact value equals the best value (ties).
    pub best_moves: Vec<M>,
    /// Every searched root move with its value, in search order.
    pub root_moves: Vec<RootMove<M>>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Counters.
    pub stats: Stats,
    /// False if a limit stopped the last iteration (the result is then the
    /// last completed iteration's).
    pub complete: bool,
}

/// A configured search: a rule, an evaluator, options and limits, plus the
/// state kept between searches (transposition table, history).
#[derive(Debug)]
pub struct Search<G: Game, E: Evaluator<G>, R: Backup<G>> {
    rule: R,
    eval: E,
    options: Options,
    limits: Limits,
    tt: Option<TranspositionTable<G::Move>>,
    ordering: Ordering<G::Move>,
    /// Per-ply buffers kept between runs (no allocation per search).
    scratch: Vec<core::PlyBuffers<G::Move>>,
}

impl<G: Game, E: Evaluator<G>, R: Backup<G>> Search<G, E, R> {
    /// A search with `rule`, `eval` and `options`, and no limit (full tree)
    /// until [`limits`](Search::limits) sets some.
    pub fn new(rule: R, eval: E, options: Options) -> Self {
        let tt = (options.tt_mib > 0).then(|| TranspositionTable::with_mib(options.tt_mib));
        Search { rule, eval, options, limits: Limits::default(), tt, ordering: Ordering::new(), scratch: Vec::new() }
    }

    /// Sets the limits (builder style).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets a depth limit (builder style).
    pub fn depth(mut self, depth: u32) -> Self {
        self.limits.depth = Some(depth);
        self
    }

    /// Replaces the limits of later searches.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The current limits.
    pub fn current_limits(&self) -> &Limits {
        &self.limits
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The rule.
    pub fn rule(&self) -> &R {
        &self.rule
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Forgets the transposition table and move history (a new game).
    pub fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        self.ordering.clear();
    }

    /// Searches `state` and returns the value of the root and of every root
    /// move, the best move(s), the principal variation and counters.
    ///
    /// Errors: the game is over ([`GameError::GameOver`]); a zero depth or
    /// an invalid option ([`GameError::Param`]).
    pub fn run(&mut self, state: &G) -> Result<SearchResult<G::Move>, GameError> {
        self.run_with_window(state, Window::FULL)
    }

    /// [`run`](Search::run) with the root searched in `window` (fail-soft:
    /// a value at or below `window.alpha` is an upper bound, at or above
    /// `window.beta` a lower bound). Null-window calls of this are the
    /// building block of MTD(f)-style and binary-search score solvers.
    /// Ignored (full window) for rules that do not prune.
    ///
    /// ```
    /// use search_core::backup::Minimax;
    /// use search_core::search::{Options, Search, Window};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// let t: LiteralTree = "max(min(3, 12), min(2, 4))".parse()?;
    /// let mut s = Search::new(Minimax, LiteralEval, Options::default());
    /// // Is the value above 2.5? A null window answers yes or no.
    /// let r = s.run_with_window(&t, Window::null_above(2.5))?;
    /// assert!(r.value > 2.5);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn run_with_window(&mut self, state: &G, window: Window) -> Result<SearchResult<G::Move>, GameError> {
        if window.alpha.is_nan() || window.beta.is_nan() || window.alpha >= window.beta {
            return Err(ParamError::new("window", format!("need alpha < beta, got {window:?}")).into());
        }
        if self.limits.depth == Some(0) {
            return Err(ParamError::new("depth", "must be >= 1").into());
        }
        self.options.validate()?;
        if let Status::Over(_) = state.status() {
            return Err(GameError::GameOver);
        }
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        let mut root = state.clone();
        root.mark_search_root();
        Ok(core::Core::new(self).run(&root, window))
    }
}
