//! Finding the θ (or ε) whose whole-tree policy has a given entropy.
//!
//! [`solve_exact`]: bisection on the sign of `H(x) − H₀` down to an interval
//! of `1e-12` ([`EXACT_TOLERANCE`]), over any entropy function `H(x)`. It
//! needs a bracket on which `H − H₀` changes sign and makes no monotonicity
//! assumption. [`PathAnalysis::solve_exact`] applies it to a
//! [`PolicyFamily`] on a game tree.

use crate::backup::rminimax::CostModel;
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::policy::path::{PathAnalysis, TreePolicy};

/// The width of the final bracket of [`solve_exact`].
pub const EXACT_TOLERANCE: f64 = 1e-12;

/// Halvings before a solver gives up (far more than `f64` resolution needs).
const MAX_STEPS: usize = 200;

/// Checks a root-finding problem for the policy solvers: a target entropy
/// that is finite and `≥ 0`, and a finite bracket `lo < hi`.
///
/// ```
/// use search_core::policy::check_bracket;
/// assert!(check_bracket(0.9, 0.0, 1.0).is_ok());
/// assert!(check_bracket(0.9, 1.0, 0.0).is_err());
/// assert!(check_bracket(f64::NAN, 0.0, 1.0).is_err());
/// ```
pub fn check_bracket(target: f64, lo: f64, hi: f64) -> Result<(), ParamError> {
    if !(target.is_finite() && target >= 0.0) {
        return Err(ParamError::new("target entropy", format!("must be finite and >= 0, got {target}")));
    }
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(ParamError::new("bracket", format!("need finite lo < hi, got [{lo}, {hi}]")));
    }
    Ok(())
}

/// The root of `entropy(x) = target` in `[lo, hi]` to [`EXACT_TOLERANCE`],
/// by bisection on the sign of `entropy(x) − target`.
///
/// Errors: a target that is not finite and `≥ 0`, a bad bracket, an error
/// from `entropy`, or `entropy − target` with the same sign at both ends.
///
/// ```
/// use search_core::policy::solve_exact;
/// let x = solve_exact(|x| Ok((-x).exp()), 0.5, 0.0, 5.0)?;
/// assert!((x - 2f64.ln()).abs() < 1e-11);
/// assert!(solve_exact(|x| Ok(x), 9.0, 0.0, 1.0).is_err());
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn solve_exact<F>(mut entropy: F, target: f64, lo: f64, hi: f64) -> Result<f64, GameError>
where
    F: FnMut(f64) -> Result<f64, GameError>,
{
    check_bracket(target, lo, hi)?;
    let (mut lo, mut hi) = (lo, hi);
    let f_lo = entropy(lo)? - target;
    let f_hi = entropy(hi)? - target;
    if f_lo == 0.0 {
        return Ok(lo);
    }
    if f_hi == 0.0 {
        return Ok(hi);
    }
    if f_lo.is_nan() || f_hi.is_nan() || (f_lo > 0.0) == (f_hi > 0.0) {
        return Err(ParamError::new(
            "bracket",
            format!("H - target has the same sign at both ends ({f_lo}, {f_hi}): no root in [{lo}, {hi}]"),
        )
        .into());
    }
    let lo_positive = f_lo > 0.0;
    for _ in 0..MAX_STEPS {
        if hi - lo <= EXACT_TOLERANCE {
            break;
        }
        let mid = (lo + hi) / 2.0;
        let f = entropy(mid)? - target;
        if f == 0.0 {
            return Ok(mid);
        }
        if (f > 0.0) == lo_positive {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok((lo + hi) / 2.0)
}

/// A one-parameter family of tree policies, for the solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyFamily {
    /// [`TreePolicy::Rminimax`] with parameter θ.
    Rminimax,
    /// [`TreePolicy::EpsilonGreedy`] with parameter ε.
    EpsilonGreedy,
    /// [`TreePolicy::Boltzmann`] with parameter θ.
    Boltzmann,
}

impl PolicyFamily {
    /// The member with parameter `x`.
    ///
    /// ```
    /// use search_core::policy::{PolicyFamily, TreePolicy};
    /// assert_eq!(PolicyFamily::Rminimax.with(2.0), TreePolicy::Rminimax { theta: 2.0 });
    /// ```
    pub fn with(self, x: f64) -> TreePolicy {
        match self {
            PolicyFamily::Rminimax => TreePolicy::Rminimax { theta: x },
            PolicyFamily::EpsilonGreedy => TreePolicy::EpsilonGreedy { epsilon: x },
            PolicyFamily::Boltzmann => TreePolicy::Boltzmann { theta: x },
        }
    }
}

impl<G: Game, E: Evaluator<G> + Clone, C: CostModel + Clone> PathAnalysis<G, E, C> {
    /// The parameter of `family` in `[lo, hi]` whose policy has entropy
    /// `target` exactly (to [`EXACT_TOLERANCE`]; see [`solve_exact`]).
    /// For ε-greedy, `H(ε)` rises then falls: choose a bracket on one side
    /// (e.g. from the ε where the policy is uniform up to 0.9999).
    pub fn solve_exact(&self, family: PolicyFamily, target: f64, lo: f64, hi: f64) -> Result<f64, GameError> {
        solve_exact(|x| self.entropy(family.with(x)), target, lo, hi)
    }
}
