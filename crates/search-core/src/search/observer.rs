//! Watching and steering a search: a callback after every completed
//! iteration, the root move order, and optionally every node.
//!
//! An engine reports each iteration (`info depth ... pv ...`) and decides
//! when to stop deepening; an experiment shuffles the root moves or counts
//! the nodes a search visits. They do it through an [`Observer`] passed to
//! [`Search::run_observed`](crate::search::Search::run_observed), not with
//! a copy of the driver.

use std::time::Duration;

use crate::game::Game;
use crate::search::result::{RootMove, Stats};

/// What an observer tells the search after an iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Go on deepening.
    Continue,
    /// Stop here: this iteration's result is the answer (still complete).
    Stop,
}

/// One completed iteration of iterative deepening (or the only one).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Iteration<'a, M> {
    /// The iteration's depth.
    pub depth: u32,
    /// The root's value from the root mover's point of view.
    pub value: f64,
    /// The best move.
    pub best: Option<M>,
    /// The principal variation.
    pub pv: &'a [M],
    /// Every root move with its score.
    pub root_moves: &'a [RootMove<M>],
    /// Counters since the search started (every iteration).
    pub stats: Stats,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The iteration solved the position: no leaf lay at a horizon (every
    /// leaf was a finished game or an oracle's exact value) and nothing was
    /// pruned on a static value, so `value` is the game's value, exact
    /// (with alpha-beta, the other root moves' scores are proven bounds).
    /// Iterative deepening stops after such an iteration.
    pub solved: bool,
}

/// Watches and steers a search. Every method has a default that does
/// nothing, so an observer implements only what it needs.
///
/// ```
/// use search_core::backup::Minimax;
/// use search_core::search::{Control, Iteration, Limits, Observer, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// /// Records every iteration's depth and stops once the value is positive.
/// struct Report(Vec<u32>);
/// impl Observer<LiteralTree> for Report {
///     fn iteration(&mut self, it: &Iteration<'_, u32>) -> Control {
///         self.0.push(it.depth);
///         if it.value > 0.0 { Control::Stop } else { Control::Continue }
///     }
/// }
/// // Static values in brackets: one ply deep, the root is worth 4 already.
/// let t: LiteralTree = "max(min[-1](max(1, 2), 3), min[4](4, max(5, 6)))".parse()?;
/// let mut s = Search::new(Minimax, LiteralEval, Options::default().with_table_mib(0))?;
/// let mut report = Report(Vec::new());
/// let r = s.run_observed(&t, &Limits::depth(3), &mut report)?;
/// assert_eq!(report.0, vec![1]); // depth 1 already values the root at 4
/// assert_eq!((r.value, r.stats.depth), (Some(4.0), 1));
/// assert!(r.complete);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub trait Observer<G: Game> {
    /// Called after every completed iteration. [`Control::Stop`] ends the
    /// search with this iteration's result.
    fn iteration(&mut self, _it: &Iteration<'_, G::Move>) -> Control {
        Control::Continue
    }

    /// Called at the root of every iteration with the root's moves, before
    /// the search orders them (the table's move and the game's hints still
    /// apply after, by a stable sort). May reorder them or drop some (not
    /// all, and add none).
    fn root_moves(&mut self, _state: &G, _depth: u32, _moves: &mut Vec<G::Move>) {}

    /// Whether [`node`](Observer::node) and
    /// [`node_moves`](Observer::node_moves) are called. Asked once per
    /// search; when false (the default) tracing costs nothing.
    fn traces_nodes(&self) -> bool {
        false
    }

    /// Called on every node the search enters (not quiescence nodes), with
    /// the moves from the root to it. Nodes searched after a null move
    /// (null-move pruning passes instead of moving) are reported with the
    /// path of the node that passed.
    fn node(&mut self, _path: &[G::Move], _state: &G) {}

    /// Called at every interior node below the root with its moves, before
    /// the search orders them. May reorder them or drop some (not all, and
    /// add none).
    fn node_moves(&mut self, _path: &[G::Move], _state: &G, _moves: &mut Vec<G::Move>) {}
}

/// The observer that does nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl<G: Game> Observer<G> for NoObserver {}

impl<G: Game, F: FnMut(&Iteration<'_, G::Move>) -> Control> Observer<G> for F {
    fn iteration(&mut self, it: &Iteration<'_, G::Move>) -> Control {
        self(it)
    }
}
