//! Nash equilibria of two-player normal-form (bimatrix) games, exactly.
//!
//! - Zero-sum (and constant-sum) games by linear programming ([`lp`]): the
//!   value and an optimal mixed strategy of each player, from a simplex
//!   method over exact rationals with Bland's anti-cycling rule.
//! - Every equilibrium of a nondegenerate game by support enumeration
//!   ([`support`]), with degeneracy detected and reported (then the
//!   extreme equilibria are listed).
//! - One equilibrium of a larger game by the Lemke–Howson algorithm
//!   ([`mod@lemke_howson`]) from a chosen dropped label, with lexicographic tie
//!   breaking and a pivot limit.
//! - A verifier ([`verify()`](verify::verify)): no profitable deviation, exactly or
//!   within a floating-point tolerance.
//! - Gambit's `.nfg` files ([`nfg`]), the payoff and the outcome versions,
//!   with line and column in every error.
//! - [`solve()`] puts them together, choosing the method ([`Method::Auto`]).
//!
//! Payoffs and probabilities are [`Rational`]s (arbitrary-precision
//! fractions): results are exact and print as fractions.
//!
//! ```
//! use equilibria::{Bimatrix, Options, frac, solve};
//! // Battle of the sexes (opera, football).
//! let bos = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]])?;
//! let found = solve(&bos, &Options::default())?;
//! assert_eq!(found.equilibria.len(), 3);
//! assert_eq!(found.equilibria[2].row, vec![frac(2, 3), frac(1, 3)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod game;
pub mod lemke_howson;
mod linalg;
pub mod lp;
pub mod nfg;
pub mod solve;
pub mod support;
pub mod verify;

pub use game::{Bimatrix, Equilibrium, GameError, Rational, frac, int, to_f64};
pub use lemke_howson::{LemkeHowson, lemke_howson};
pub use lp::{ZeroSumSolution, solve_zero_sum};
pub use solve::{Method, Options, Solution, solve};
pub use support::{Enumeration, support_enumeration};
pub use verify::{NotEquilibrium, verify};

/// Why a solver gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Support enumeration would try too many supports.
    #[error(
        "support enumeration of a {rows}×{cols} game would try {supports} candidate supports per player, \
         more than the limit of {limit}; use Lemke–Howson"
    )]
    TooLarge {
        /// The row player's strategies.
        rows: usize,
        /// The column player's strategies.
        cols: usize,
        /// The candidate supports per player ([`support::candidate_supports`]).
        supports: u128,
        /// The limit.
        limit: u128,
    },
    /// Linear programming was asked for a game that is not constant-sum.
    #[error("the game is not zero-sum (nor constant-sum), so it has no value to find by linear programming")]
    NotConstantSum,
    /// Lemke–Howson was given a label the game does not have.
    #[error("label {label} does not exist: the game has labels 0 to {}", labels.saturating_sub(1))]
    LabelOutOfRange {
        /// The label asked for.
        label: usize,
        /// The number of labels (strategies of both players).
        labels: usize,
    },
    /// Lemke–Howson reached its pivot limit.
    #[error("Lemke–Howson from label {label} stopped after {pivots} pivots (the limit)")]
    PivotLimit {
        /// The dropped label.
        label: usize,
        /// The pivots made.
        pivots: usize,
    },
    /// A pivot found no bound on its entering variable (a bug: the
    /// polytopes are bounded).
    #[error("internal error: an unbounded pivot on a bounded polytope")]
    Unbounded,
    /// A result failed the equilibrium check (a bug).
    #[error("internal error: a result is not an equilibrium: {0}")]
    Unverified(String),
}
