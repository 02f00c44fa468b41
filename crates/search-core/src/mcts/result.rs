//! What a Monte Carlo tree search returns.

use crate::search::Stats;

/// One root move of a Monte Carlo tree search.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct MctsMove<M> {
    /// The move.
    pub mv: M,
    /// Simulations through it (over every thread's tree).
    pub visits: u64,
    /// Its backed-up value in `[-1, 1]` from the root mover's point of view
    /// (a soft value may exceed 1 by its entropy bonus); the visit-weighted
    /// mean over the threads' trees.
    pub value: f64,
    /// Its probability under the backup's soft policy, or its share of the
    /// visits if the backup has no soft policy.
    pub policy: f64,
}

/// What a Monte Carlo tree search found.
///
/// ```
/// use search_core::mcts::{Mcts, MctsConfig, Mean};
/// use search_core::search::Limits;
/// use search_core::OutcomeOnly;
/// use search_core::tree::LiteralTree;
/// let t: LiteralTree = "max(min(1, -1), min(1, 1))".parse()?;
/// let mut mcts = Mcts::new(Mean, OutcomeOnly::default(), MctsConfig::default())?;
/// let r = mcts.run(&t, &Limits::iterations(500))?;
/// assert_eq!(r.best, Some(1));
/// assert_eq!(r.iterations, 500);
/// assert_eq!(r.root_moves.iter().map(|m| m.visits).sum::<u64>(), 500);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MctsResult<M> {
    /// The move chosen by the [final-move rule](crate::mcts::FinalMove);
    /// `None` only if the root has no moves (never for an ongoing game).
    pub best: Option<M>,
    /// The root's backed-up value in `[-1, 1]` from the root mover's point
    /// of view (chance root: the first player's).
    pub value: f64,
    /// Every root move with its statistics, in the game's order.
    pub root_moves: Vec<MctsMove<M>>,
    /// The most visited path from the root (of the first thread's tree).
    pub pv: Vec<M>,
    /// Simulations run by this call (all threads).
    pub iterations: u64,
    /// Simulations the root had from earlier calls (tree reuse).
    pub reused: u64,
    /// Counters: `nodes` is every state visited (tree descent and playout
    /// moves), `leaves` the simulations, `interior` the nodes expanded,
    /// `depth` the deepest tree node reached, `micros` the wall time.
    pub stats: Stats,
    /// True if the search stopped on its iteration or node limit, false if
    /// time, the stop flag or a full tree ended it.
    pub complete: bool,
}
