//! Policies: from move values to move distributions, players that sample
//! them, and the exact entropy and expected cost of a policy over a whole
//! game tree.
//!
//! - [`MoveDistribution`]s turn root move scores into probabilities:
//!   [`Greedy`] (argmax, ties shared), [`Softmax`] (Boltzmann; on Rminimax
//!   scores it is Rminimax's softmin policy) and [`EpsilonGreedy`] (the
//!   Rminimax paper's footnote 2).
//! - [`PolicyAgent`] samples a distribution over a search's root scores with
//!   an explicit RNG: [`rminimax_agent`], [`epsilon_greedy_agent`],
//!   [`boltzmann_agent`].
//! - [`PathAnalysis`] computes, for a [`TreePolicy`] on a game tree, the path
//!   entropy `H` and expected cost `E[C]` by one recursion on the search core,
//!   and finds θ̂ or ε̂ for a target entropy ([`solve_exact`],
//!   [`PathAnalysis::solve_exact`]).
//!
//! ```
//! use search_core::backup::rminimax::UtilityCosts;
//! use search_core::policy::{PathAnalysis, PolicyFamily, TreePolicy};
//! use search_core::tree::{LiteralEval, LiteralTree};
//! let t: LiteralTree = "min(1, max(2), max(min(1)), max(3, 4, 5))".parse()?;
//! let a = PathAnalysis::new(t, LiteralEval, UtilityCosts::default());
//! let theta = a.solve_exact(PolicyFamily::Rminimax, 1.0, 0.0001, 10.0)?;
//! let s = a.stats(TreePolicy::Rminimax { theta })?;
//! assert!((s.entropy - 1.0).abs() < 1e-9);
//! assert!(s.expected_cost > 1.0); // above the minimax cost, 1
//! # Ok::<(), search_core::GameError>(())
//! ```

mod agent;
mod distribution;
mod path;
mod solve;

pub use agent::{
    BoltzmannAgent, EpsilonGreedyAgent, PolicyAgent, RminimaxAgent, boltzmann_agent, epsilon_greedy_agent,
    rminimax_agent,
};
pub use distribution::{EpsilonGreedy, Greedy, MoveDistribution, ScoreCap, Softmax};
pub use path::{PathAnalysis, PathChild, PathEval, PathStats, PathValue, TIE_TOLERANCE, TreePolicy};
pub use solve::{EXACT_TOLERANCE, PolicyFamily, check_bracket, solve_exact};
