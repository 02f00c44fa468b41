//! The Rminimax paper's bisection for the θ (or ε) whose whole-tree policy
//! has a given entropy, as `docs/paper-readings.md` reconstructs it, for reproducing
//! Tables II and III.
//!
//! [`bisect_paper`]: `mid = (lo + hi)/2`; stop as soon as
//! `|H(mid) − H₀| < 0.001` ([`PAPER_TOLERANCE`]) and return `mid`; otherwise
//! `lo = mid` if `H(mid) > H₀`, else `hi = mid` (`H` decreasing in the
//! parameter). Starting intervals: [`PAPER_THETA_RANGE`] and
//! [`PAPER_EPSILON_RANGE`]. Its answer is only within the tolerance in `H`,
//! not in the parameter. The exact root finder for users stays in the
//! library: [`search_core::policy::solve_exact`].

use search_core::backup::rminimax::CostModel;
use search_core::policy::{PathAnalysis, PolicyFamily, check_bracket};
use search_core::{Evaluator, Game, GameError, ParamError};

/// The paper's stopping rule: `|H(mid) − H₀| <` this.
pub const PAPER_TOLERANCE: f64 = 0.001;
/// The paper's starting interval for θ.
pub const PAPER_THETA_RANGE: (f64, f64) = (0.0001, 10.0);
/// The paper's starting interval for ε.
pub const PAPER_EPSILON_RANGE: (f64, f64) = (0.0001, 0.9999);

/// Halvings before the bisection gives up (far more than `f64` resolution needs).
const MAX_STEPS: usize = 200;

/// The paper's bisection for the parameter whose entropy `entropy(x)` is
/// within [`PAPER_TOLERANCE`] of `target`, starting from `[lo, hi]`, with `H`
/// decreasing in `x`: `mid = (lo + hi)/2`; stop as soon as
/// `|H(mid) − H₀| < PAPER_TOLERANCE` and return `mid`; otherwise `lo = mid`
/// if `H(mid) > H₀`, else `hi = mid`. The answer is only within the tolerance
/// in `H`, not in the parameter.
///
/// Errors: a target that is not finite and `≥ 0`, a bad bracket, an error
/// from `entropy`, or no midpoint within the tolerance after 200 halvings
/// (the target is out of reach in `[lo, hi]`).
///
/// ```
/// use experiments::paper::bisect_paper;
/// // H(x) = 2 − x on [0, 2]: the first midpoint, 1, has H = 1.
/// let x = bisect_paper(|x| Ok(2.0 - x), 1.0, 0.0, 2.0)?;
/// assert_eq!(x, 1.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn bisect_paper<F>(mut entropy: F, target: f64, lo: f64, hi: f64) -> Result<f64, GameError>
where
    F: FnMut(f64) -> Result<f64, GameError>,
{
    check_bracket(target, lo, hi)?;
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

/// The paper's starting interval for `family`: [`PAPER_EPSILON_RANGE`] for
/// ε, [`PAPER_THETA_RANGE`] for θ.
///
/// ```
/// use experiments::paper::{PAPER_EPSILON_RANGE, paper_range};
/// use search_core::policy::PolicyFamily;
/// assert_eq!(paper_range(PolicyFamily::EpsilonGreedy), PAPER_EPSILON_RANGE);
/// ```
pub fn paper_range(family: PolicyFamily) -> (f64, f64) {
    match family {
        PolicyFamily::EpsilonGreedy => PAPER_EPSILON_RANGE,
        _ => PAPER_THETA_RANGE,
    }
}

/// The paper's bisection on a [`PathAnalysis`] (what was the inherent
/// method `PathAnalysis::solve_paper` of `search-core`).
pub trait SolvePaper {
    /// The parameter of `family` whose policy has entropy `target` (nats),
    /// by the paper's bisection from the paper's interval ([`bisect_paper`],
    /// [`paper_range`]).
    ///
    /// ```
    /// use experiments::paper::{self, SolvePaper};
    /// use search_core::policy::PolicyFamily;
    /// let a = paper::table2_analysis()?;
    /// let theta = a.solve_paper(PolicyFamily::Rminimax, 0.5)?;
    /// assert!((theta - 1.2574).abs() < 5e-5); // Table II, H = 0.5
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    fn solve_paper(&self, family: PolicyFamily, target: f64) -> Result<f64, GameError>;
}

impl<G: Game, E: Evaluator<G> + Clone, C: CostModel + Clone> SolvePaper for PathAnalysis<G, E, C> {
    fn solve_paper(&self, family: PolicyFamily, target: f64) -> Result<f64, GameError> {
        let (lo, hi) = paper_range(family);
        bisect_paper(|x| self.entropy(family.with(x)), target, lo, hi)
    }
}
