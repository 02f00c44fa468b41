//! The search driver: one recursive core for every backup rule.
//!
//! [`Search`] runs a [`Backup`] rule over a [`Game`] with an [`Evaluator`].
//! What differs between minimax, alpha-beta, PVS, expectiminimax with Star
//! pruning, IOM and PIOM is a rule and a few [`Options`]; the recursion is the
//! same code (`core.rs`, with chance nodes in `chance.rs`). Options are
//! checked when the search is built; [`Limits`] come with each call; an
//! [`Observer`] watches iterations and may steer the root order.
//!
//! ```
//! use search_core::backup::Minimax;
//! use search_core::search::{Limits, Options, Search};
//! use search_core::tree::{LiteralEval, LiteralTree};
//!
//! let t: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse()?;
//! // Plain minimax: every node.
//! let full = Search::new(Minimax, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
//! // Alpha-beta with every enhancement that applies.
//! let mut ab = Search::recommended(Minimax, LiteralEval)?;
//! let r = ab.run(&t, &Limits::full_tree())?;
//! assert_eq!(full.value, Some(3.0));
//! assert_eq!(r.value, Some(3.0));
//! assert!(r.stats.nodes < full.stats.nodes);
//! # Ok::<(), search_core::GameError>(())
//! ```

mod agent;
mod busy;
mod core;
mod dyn_search;
mod limits;
mod observer;
mod options;
mod oracle;
mod ordering;
mod result;
mod shared_tt;
mod smp;
mod tt;

pub use crate::window::{Bound, Window};
pub use agent::SearchAgent;
pub(crate) use agent::choice_of;
pub use dyn_search::DynSearch;
pub use limits::Limits;
pub use observer::{Control, Iteration, NoObserver, Observer};
pub use options::{DepthUnit, LateMovePruning, Lmr, MAX_TABLE_MIB, Options, ProbCut, ReverseFutility, Star, TtDepth};
pub use oracle::{Oracle, Probe};
pub use result::{Incomplete, RootMove, SearchResult, Stats};

use std::sync::Arc;

use crate::backup::{Backup, Pruning};
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::{Game, Status};
use ordering::Ordering;
use tt::Table;

/// A configured search: a rule, an evaluator and options, plus the state
/// kept between searches (transposition table, move-ordering history,
/// buffers). The type parameters are in the order of [`Search::new`]'s
/// arguments after the game: rule, then evaluator.
#[derive(Debug)]
pub struct Search<G: Game, R: Backup, E: Evaluator<G>> {
    rule: R,
    eval: E,
    options: Options,
    tt: Option<Table<G::Move>>,
    ordering: Ordering<G::Move>,
    /// Per-ply buffers kept between runs (no allocation per search).
    scratch: Vec<core::PlyBuffers<G::Move>>,
    /// The Lazy SMP driver, set by [`Search::parallel`].
    smp: Option<smp::Driver<G, R, E>>,
    /// The positions the threads of a parallel run are searching (set
    /// only while one runs).
    busy: Option<Arc<busy::Busy>>,
    /// The table consulted before expanding a node, if any.
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// The generator book moves are drawn with (seeded from
    /// [`Options::seed`] when the search is built, never re-seeded).
    book_rng: crate::rng::Rng,
}

impl<G: Game, R: Backup, E: Evaluator<G>> Search<G, R, E> {
    /// A search with `rule`, `eval` and `options`.
    ///
    /// Errors: an option out of its domain, or one this rule, game or
    /// evaluator would ignore ([`Options::validate`]); a table that cannot
    /// be allocated.
    ///
    /// ```
    /// use search_core::backup::{Minimax, Rminimax};
    /// use search_core::search::{Options, Search, Star};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// // Rminimax cannot prune: the alpha-beta engine's options are refused.
    /// let e = Search::<LiteralTree, _, _>::new(Rminimax::new(1.0)?, LiteralEval, Options::default()).unwrap_err();
    /// assert_eq!(e.name, "alpha_beta");
    /// // Star needs value bounds, which `LiteralEval` does not declare.
    /// let e = Search::<LiteralTree, _, _>::new(Minimax, LiteralEval, Options::default().with_star(Star::Star1))
    ///     .unwrap_err();
    /// assert_eq!(e.name, "star");
    /// assert!(Search::<LiteralTree, _, _>::new(Minimax, LiteralEval, Options::default()).is_ok());
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn new(rule: R, eval: E, options: Options) -> Result<Self, ParamError> {
        if options.threads > 1 {
            return Err(ParamError::new(
                "threads",
                "more than one thread needs Search::parallel (a Sync game, Send + Clone rule and evaluator)",
            ));
        }
        Self::build(rule, eval, options)
    }

    /// [`new`](Search::new) without the thread check.
    fn build(rule: R, eval: E, options: Options) -> Result<Self, ParamError> {
        options.validate::<G, R, E>(&eval)?;
        let tt = match options.table_mib {
            0 => None,
            mib => Some(Table::with_mib(mib, options.threads > 1)?),
        };
        let book_rng = crate::rng::seeded(options.seed);
        Ok(Search {
            rule,
            eval,
            options,
            tt,
            ordering: Ordering::new(),
            scratch: Vec::new(),
            smp: None,
            busy: None,
            oracle: None,
            book_rng,
        })
    }

    /// The same search consulting `oracle` (an endgame table, a book)
    /// before it expands each node below the root, and for a book move at
    /// the root: see [`Oracle`].
    ///
    /// Errors: the rule's values are not game values (its
    /// [`PRUNING`](Backup::PRUNING) is not [`Pruning::Negamax`]): a
    /// [`ParamError`] named `oracle`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use search_core::backup::Iom;
    /// use search_core::search::{Options, Oracle, Probe, Search};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// #[derive(Debug)]
    /// struct Draws;
    /// impl Oracle<LiteralTree> for Draws {
    ///     fn probe(&self, _: &LiteralTree) -> Option<Probe> {
    ///         Some(Probe::Draw)
    ///     }
    /// }
    /// let iom = Search::<LiteralTree, _, _>::new(Iom::new(), LiteralEval, Options::full_width())?;
    /// assert_eq!(iom.with_oracle(Arc::new(Draws)).unwrap_err().name, "oracle");
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_oracle(mut self, oracle: Arc<dyn Oracle<G>>) -> Result<Self, ParamError> {
        self.set_oracle(Some(oracle))?;
        Ok(self)
    }

    /// Attaches `oracle` (or, with `None`, detaches the current one). The
    /// transposition table is kept: its entries are exact values either way.
    ///
    /// Errors: as [`with_oracle`](Search::with_oracle); the current oracle
    /// is kept.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) -> Result<(), ParamError> {
        if oracle.is_some() && R::PRUNING != Pruning::Negamax {
            return Err(ParamError::new(
                "oracle",
                "table lookup needs a rule with classical values (Pruning::Negamax, e.g. Minimax): \
                 this rule's values are not game values",
            ));
        }
        self.oracle = oracle;
        Ok(())
    }

    /// The oracle, if one is attached.
    pub fn oracle(&self) -> Option<&Arc<dyn Oracle<G>>> {
        self.oracle.as_ref()
    }

    /// A search with [`Options::recommended`] for this rule, game and
    /// evaluator: the most pruning and ordering the combination allows.
    pub fn recommended(rule: R, eval: E) -> Result<Self, ParamError> {
        let options = Options::recommended::<G, R, E>(&eval);
        Search::new(rule, eval, options)
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

    /// Resizes the transposition table to `mib` MiB (0: none). On error
    /// (too large, allocation refused, or a table the rule or game cannot
    /// use) the current table is kept, untouched.
    ///
    /// ```
    /// use search_core::backup::Minimax;
    /// use search_core::search::{Options, Search};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// let mut s = Search::<LiteralTree, _, _>::new(Minimax, LiteralEval, Options::default())?;
    /// assert!(s.set_table_mib(usize::MAX).is_err());
    /// assert_eq!(s.options().table_mib, 16); // the old table is kept
    /// s.set_table_mib(1)?;
    /// assert_eq!(s.options().table_mib, 1);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn set_table_mib(&mut self, mib: usize) -> Result<(), ParamError> {
        if mib == self.options.table_mib {
            return Ok(());
        }
        let options = self.options.clone().with_table_mib(mib);
        options.validate::<G, R, E>(&self.eval)?;
        self.tt = match mib {
            0 => None,
            mib => Some(Table::with_mib(mib, options.threads > 1)?),
        };
        self.options = options;
        Ok(())
    }

    /// Searches `state` within `limits` and returns the value of the root
    /// and of every root move, the best move(s), the principal variation
    /// and counters.
    ///
    /// Errors: the game is over ([`GameError::GameOver`]); a zero depth or
    /// node limit ([`GameError::Param`]); an evaluator that returned NaN
    /// ([`GameError::InvalidValue`]); chance probabilities that are not a
    /// distribution ([`GameError::InvalidChance`]).
    pub fn run(&mut self, state: &G, limits: &Limits) -> Result<SearchResult<G::Move, R::Value>, GameError> {
        self.run_full(state, limits, Window::FULL, &mut NoObserver)
    }

    /// [`run`](Search::run) with an [`Observer`] that sees every completed
    /// iteration (and may stop the search) and may order the root moves.
    pub fn run_observed<O: Observer<G> + ?Sized>(
        &mut self,
        state: &G,
        limits: &Limits,
        observer: &mut O,
    ) -> Result<SearchResult<G::Move, R::Value>, GameError> {
        self.run_full(state, limits, Window::FULL, observer)
    }

    /// [`run`](Search::run) with the root searched in `window` (fail-soft:
    /// a value at or below `window.alpha` is an upper bound, at or above
    /// `window.beta` a lower bound). Null-window calls of this are the
    /// building block of MTD(f)-style and binary-search score solvers.
    ///
    /// Errors: as [`run`](Search::run), and a window on a search that does
    /// not prune (it would be ignored).
    ///
    /// ```
    /// use search_core::backup::Minimax;
    /// use search_core::search::{Limits, Options, Search, Window};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// let t: LiteralTree = "max(min(3, 12), min(2, 4))".parse()?;
    /// let mut s = Search::new(Minimax, LiteralEval, Options::default().with_table_mib(0))?;
    /// // Is the value above 2.5? A null window answers yes or no.
    /// let r = s.run_with_window(&t, &Limits::full_tree(), Window::null_above(2.5))?;
    /// assert!(r.value.unwrap() > 2.5);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn run_with_window(
        &mut self,
        state: &G,
        limits: &Limits,
        window: Window,
    ) -> Result<SearchResult<G::Move, R::Value>, GameError> {
        self.run_full(state, limits, window, &mut NoObserver)
    }

    pub(crate) fn run_full<O: Observer<G> + ?Sized>(
        &mut self,
        state: &G,
        limits: &Limits,
        window: Window,
        observer: &mut O,
    ) -> Result<SearchResult<G::Move, R::Value>, GameError> {
        if window.alpha.is_nan() || window.beta.is_nan() || window.alpha >= window.beta {
            return Err(ParamError::new("window", format!("need alpha < beta, got {window:?}")).into());
        }
        let prunes = self.options.alpha_beta && R::PRUNING != crate::backup::Pruning::None;
        if !window.is_full() && !prunes {
            return Err(ParamError::new("window", "a root window needs a search that prunes").into());
        }
        limits.validate()?;
        if limits.iterations.is_some() {
            return Err(ParamError::new(
                "iterations",
                "counts Monte Carlo simulations: alpha-beta takes depth, nodes or time",
            )
            .into());
        }
        if let Status::Over(_) = state.status() {
            return Err(GameError::GameOver);
        }
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        let mut root = state.clone();
        root.mark_search_root();
        if let Some(result) = self.book(&root) {
            return Ok(result);
        }
        match self.smp {
            Some(driver) if self.options.threads > 1 => smp::run(driver, self, &root, limits, window, observer),
            _ => core::run(self, limits, observer, &root, window),
        }
    }

    /// The oracle's book move at `root`, as a result, if it names a legal
    /// one.
    fn book(&mut self, root: &G) -> Option<SearchResult<G::Move, R::Value>> {
        let oracle = self.oracle.as_ref()?;
        let start = std::time::Instant::now();
        let mv = oracle.book_move(root, &mut self.book_rng)?;
        let mut legal = Vec::new();
        root.generate(&mut legal);
        if !legal.contains(&mv) {
            return None;
        }
        let micros = start.elapsed().as_micros().min(u128::from(u64::MAX)) as u64;
        Some(SearchResult {
            value: None,
            rule_value: None,
            best: Some(mv),
            best_moves: vec![mv],
            root_moves: Vec::new(),
            pv: vec![mv],
            stats: Stats { micros, ..Stats::default() },
            complete: true,
            incomplete: None,
            from_book: true,
        })
    }
}
