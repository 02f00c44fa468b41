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
//!   and finds θ̂ or ε̂ for a target entropy ([`bisect_paper`],
//!   [`solve_exact`]).
//! - [`paper`] rebuilds the Rminimax paper's Tables I, II and III.
//!
//! ```
//! use search_core::policy::{paper, PolicyFamily, TreePolicy};
//! let a = paper::table3_analysis()?;
//! let theta = a.solve_paper(PolicyFamily::Rminimax, 1.0)?;
//! let s = a.stats(TreePolicy::Rminimax { theta })?;
//! assert!((s.entropy - 1.0).abs() < 0.001);
//! assert!((s.expected_cost - 1.8311).abs() < 5e-4); // Table III, H = 1.0
//! # Ok::<(), search_core::GameError>(())
//! ```

mod agent;
mod distribution;
pub mod paper;
mod path;
mod solve;

pub use agent::{PolicyAgent, RminimaxAgent, boltzmann_agent, epsilon_greedy_agent, rminimax_agent};
pub use distribution::{EpsilonGreedy, Greedy, MoveDistribution, Softmax};
pub use path::{PathAnalysis, PathChild, PathEval, PathStats, PathValue, TIE_TOLERANCE, TreePolicy};
pub use solve::{
    EXACT_TOLERANCE, PAPER_EPSILON_RANGE, PAPER_THETA_RANGE, PAPER_TOLERANCE, PolicyFamily, bisect_paper, solve_exact,
};
