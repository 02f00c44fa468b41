//! Finding the θ (or ε) whose whole-tree policy has a given entropy.
//!
//! Two solvers over any entropy function `H(x)`:
//!
//! - [`bisect_paper`]: the Rminimax paper's bisection as `seed-notes.md`
//!   reconstructs it, for reproducing Tables II and III: `mid = (lo + hi)/2`;
//!   stop as soon as `|H(mid) − H₀| < 0.001` ([`PAPER_TOLERANCE`]) and
//!   return `mid`; otherwise `lo = mid` if `H(mid) > H₀`, else `hi = mid`
//!   (`H` decreasing in the parameter). Starting intervals:
//!   [`PAPER_THETA_RANGE`] and [`PAPER_EPSILON_RANGE`]. Its answer is only
//!   within the tolerance in `H`, not in the parameter.
//! - [`solve_exact`]: bisection on the sign of `H(x) − H₀` down to an
//!   interval of `1e-12` ([`EXACT_TOLERANCE`]), for users. It needs a bracket
//!   on which `H − H₀` changes sign and makes no monotonicity assumption.

use crate::backup::rminimax::CostModel;
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::policy::path::{PathAnalysis, TreePolicy};

/// The paper's stopping rule: `|H(mid) − H₀| <` this.
pub const PAPER_TOLERANCE: f64 = 0.001;
/// The paper's starting interval for θ.
pub const PAPER_THETA_RANGE: (f64, f64) = (0.0001, 10.0);
/// The paper's starting interval for ε.
pub const PAPER_EPSILON_RANGE: (f64, f64) = (0.0001, 0.9999);
/// The width of the final bracket of [`solve_exact`].
pub const EXACT_TOLERANCE: f64 = 1e-12;

/// Halvings before a solver gives up (far more than `f64` resolution needs).
const MAX_STEPS: usize = 200;

fn check_problem(target: f64, lo: f64, hi: f64) -> Result<(), ParamError> {
    if !(target.is_finite() && target >= 0.0) {
        return Err(ParamError::new("target entropy", format!("must be finite and >= 0, got {target}")));
    }
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(ParamError::new("bracket", format!("need finite lo < hi, got [{lo}, {hi}]")));
    }
    Ok(())
}

/// The paper's bisection (see the [module documentation](crate::policy)) for the
/// parameter whose entropy `entropy(x)` is within [`PAPER_TOLERANCE`] of
/// `target`, starting from `[lo, hi]`, with `H` decreasing in `x`.
///
/// Errors: a target that is not finite and `≥ 0`, a bad bracket, an error
/// from `entropy`, or no midpoint within the tolerance after 200 halvings
/// (the target is out of reach in `[lo, hi]`).
///
/// ```
/// use search_core::policy::bisect_paper;
/// // H(x) = 2 − x on [0, 2]: the first midpoint, 1, has H = 1.
/// let x = bisect_paper(|x| Ok(2.0 - x), 1.0, 0.0, 2.0)?;
/// assert_eq!(x, 1.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn bisect_paper<F>(mut entropy: F, target: f64, lo: f64, hi: f64) -> Result<f64, GameError>
where
    F: FnMut(f64) -> Result<f64, GameError>,
{
    check_problem(target, lo, hi)?;
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..MAX_STEPS {
        let mid = (lo + hi) / 2.0;
        let h = entropy(mid)?;
        if (h - target).abs() < PAPER_TOLERANCE {
            return Ok(mid);
        }
        if h > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Err(ParamError::new("target entropy", format!("{target} is not reached within the bracket")).into())
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
    check_problem(target, lo, hi)?;
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

    /// The paper's starting interval: [`PAPER_EPSILON_RANGE`] for ε,
    /// [`PAPER_THETA_RANGE`] for θ.
    pub fn paper_range(self) -> (f64, f64) {
        match self {
            PolicyFamily::EpsilonGreedy => PAPER_EPSILON_RANGE,
            _ => PAPER_THETA_RANGE,
        }
    }
}

impl<G: Game, E: Evaluator<G> + Clone, C: CostModel + Clone> PathAnalysis<G, E, C> {
    /// The parameter of `family` whose policy has entropy `target` (nats),
    /// by the paper's bisection from the paper's interval ([`bisect_paper`]).
    ///
    /// ```
    /// use search_core::policy::{paper, PolicyFamily};
    /// let a = paper::table2_analysis()?;
    /// let theta = a.solve_paper(PolicyFamily::Rminimax, 0.5)?;
    /// assert!((theta - 1.2574).abs() < 5e-5); // Table II, H = 0.5
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn solve_paper(&self, family: PolicyFamily, target: f64) -> Result<f64, GameError> {
        let (lo, hi) = family.paper_range();
        bisect_paper(|x| self.entropy(family.with(x)), target, lo, hi)
    }

    /// The parameter of `family` in `[lo, hi]` whose policy has entropy
    /// `target` exactly (to [`EXACT_TOLERANCE`]; see [`solve_exact`]).
    /// For ε-greedy, `H(ε)` rises then falls: choose a bracket on one side
    /// (e.g. from the ε where the policy is uniform up to 0.9999).
    pub fn solve_exact(&self, family: PolicyFamily, target: f64, lo: f64, hi: f64) -> Result<f64, GameError> {
        solve_exact(|x| self.entropy(family.with(x)), target, lo, hi)
    }
}
