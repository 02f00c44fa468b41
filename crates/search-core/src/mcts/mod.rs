//! Monte Carlo tree search (MCTS) with pluggable backups.
//!
//! [`Mcts`] runs UCT on any [`Game`](crate::Game): selection by UCB1 (or
//! Boltzmann sampling, MENTS's E2W), one new leaf per simulation valued by a
//! random playout or an [`Evaluator`](crate::Evaluator), and a backup rule
//! that is a plug-in, as everywhere in this library: [`Mean`] (UCT),
//! [`MaxBackup`] (Bellman, as in BTS and DENTS) and [`Soft`] (MENTS's
//! log-sum-exp with temperature τ), or your own [`MctsBackup`]. The final
//! move is the most visited, the best valued, or sampled from the soft
//! policy ([`FinalMove`]).
//!
//! - **Values** are on the scale `[-1, 1]` (loss, draw, win); an
//!   evaluator's value `v` and a numeric payoff count as
//!   `tanh(v / value_scale)`.
//! - **Chance nodes** are sampled by their probabilities during the descent
//!   (the mean backup then estimates the expectation without bias); the max
//!   and soft backups take the probability-weighted mean of the visited
//!   outcomes.
//! - **Limits** are the library's [`Limits`](crate::search::Limits):
//!   iterations, nodes, time, a stop flag; counters are
//!   [`Stats`](crate::search::Stats).
//! - **Determinism**: with one thread and an iteration or node limit, a
//!   search is a pure function of its seed, its tree and the state.
//! - **Tree**: one arena (`Vec`) of nodes per thread, each node's children in
//!   one contiguous block; no allocation per node beyond the arena's growth.
//!   The tree is kept between calls and re-rooted on the new position
//!   ([`MctsConfig::reuse`]).
//! - **Threads**: root parallelisation, one independent tree per thread,
//!   merged at the root (see [docs/mcts.md](https://github.com/game-search/backup-rules/blob/main/docs/mcts.md) for why).
//!
//! ```
//! use search_core::mcts::{Mcts, MctsConfig, Soft};
//! use search_core::search::Limits;
//! use search_core::OutcomeOnly;
//! use search_core::tree::LiteralTree;
//!
//! let t: LiteralTree = "max(min(1, -1), min(1, 1))".parse()?;
//! let mut ments = Mcts::new(Soft::new(0.1)?, OutcomeOnly::default(), MctsConfig::ments(1.0)?)?;
//! let r = ments.run(&t, &Limits::iterations(1000))?;
//! assert_eq!(r.best, Some(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod agent;
mod backup;
mod config;
mod max;
mod mean;
mod result;
mod search;
mod soft;
mod tree;
mod worker;

#[cfg(test)]
mod tests;

pub use agent::MctsAgent;
pub use backup::{ChildStats, MctsBackup, NodeKind, NodeStats, chance_expectation};
pub use config::{FinalMove, MctsConfig, Playouts, Selection};
pub use max::MaxBackup;
pub use mean::Mean;
pub use result::{MctsMove, MctsResult};
pub use search::Mcts;
pub use soft::Soft;
