//! The generalized sequential probability ratio test (GSPRT) on game pairs,
//! as fishtest runs it.
//!
//! The test decides between H0: "the Elo difference is `elo0`" and H1: "it is
//! `elo1`" (`elo0 < elo1`) while the games come in, with error rates about
//! α (accepting H1 when H0 holds) and β (accepting H0 when H1 holds). After
//! each pair the log-likelihood ratio (LLR) is compared with Wald's bounds
//! `ln(β/(1−α))` and `ln((1−β)/α)`: below the lower bound H0 is accepted,
//! above the upper H1, in between the test continues.
//!
//! **The LLR.** The pair results are modelled by a distribution over the five
//! pair scores with no further assumption (the pentanomial model). A
//! hypothesis fixes one number of that distribution, and the LLR compares the
//! best fit of the data under each hypothesis (the *generalized* likelihood
//! ratio):
//!
//! `LLR = N · Σₖ p̂ₖ · ln(q¹ₖ / q⁰ₖ)`
//!
//! where `N` is the number of pairs, `p̂` the observed frequencies of the pair
//! scores `xₖ = k/4` (pair points / 2), and `qʰ` the maximum-likelihood
//! distribution under hypothesis `h`:
//!
//! - [`EloModel::Logistic`]: the hypothesis fixes the mean,
//!   `Σ qₖ xₖ = sₕ = elo_to_score(eloₕ)`. Maximising `Σ p̂ₖ ln qₖ` under that
//!   constraint with a Lagrange multiplier gives `qₖ = p̂ₖ / (1 + θ(xₖ − sₕ))`,
//!   with `θ` the unique root of `Σ p̂ₖ (xₖ − sₕ)/(1 + θ(xₖ − sₕ)) = 0` in the
//!   interval where every denominator is positive (the left side decreases
//!   monotonically there); it is found by a bracketed Newton iteration.
//! - [`EloModel::Normalized`]: the hypothesis fixes normalized Elo, i.e. the
//!   t-value `(μ − ½)/σ = tₕ` with `tₕ = √2 · nEloₕ · ln 10/800` for pairs
//!   (`nEloₕ · ln 10/800` for single games); see
//!   [`pentanomial`](crate::pentanomial) for nElo. The constraint is no longer
//!   linear in `q`; its stationarity condition has the same form with
//!   `xₖ − sₕ` replaced by `aₖ = (xₖ − ½) − tₕ((xₖ − μ)² + σ²)/(2σ)`, where
//!   `μ, σ` are those of `q` itself. The test iterates: compute `a` from the
//!   current `q`, solve the one-dimensional root problem, update `q`, until
//!   `q` stops changing.
//!
//! Empty cells of `p̂` are replaced by 0.001 pairs before normalising (as
//! fishtest does), so that the constrained maximum exists for every
//! hypothesis and the LLR is always finite. No overshoot correction is
//! applied to the bounds: the realised error rates are at or somewhat below
//! α and β because the LLR jumps past a bound rather than landing on it.
//!
//! For large `N` the LLR agrees with the normal approximation
//! `N (s₁ − s₀)(2x̄ − s₀ − s₁) / (2σ²)`.
//!
//! ```
//! use strength::pentanomial::Pentanomial;
//! use strength::sprt::{Sprt, SprtStatus};
//!
//! let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05)?;
//! let (lower, upper) = sprt.bounds();
//! assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
//! // A clearly stronger player: 700 pairs LL..WW.
//! let results = Pentanomial::new([20, 120, 250, 200, 110]);
//! assert!(sprt.llr(&results) > upper);
//! assert_eq!(sprt.status(&results), SprtStatus::AcceptH1);
//! # Ok::<(), strength::sprt::SprtError>(())
//! ```

use crate::elo::{NELO_SCALE, elo_to_score};
use crate::pentanomial::{Pentanomial, Trinomial, regularized_pdf};
use serde::{Deserialize, Serialize};
use std::f64::consts::SQRT_2;

/// The count given to an empty cell of the observed distribution.
const EMPTY_CELL: f64 = 1e-3;

/// What the hypotheses' Elo numbers mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EloModel {
    /// Logistic Elo: the hypothesis fixes the expected score per game,
    /// `elo_to_score(elo)`.
    #[default]
    Logistic,
    /// Fishtest's normalized Elo: the hypothesis fixes the mean score's excess
    /// over ½ in units of the per-game standard deviation (scaled by
    /// `800/ln 10`).
    Normalized,
}

/// The state of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtStatus {
    /// The LLR is between the bounds: play more games.
    Continue,
    /// The LLR reached the lower bound: accept H0 (Elo = `elo0`).
    AcceptH0,
    /// The LLR reached the upper bound: accept H1 (Elo = `elo1`).
    AcceptH1,
}

/// Invalid parameters for [`Sprt`].
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// `elo0` and `elo1` must be finite with `elo0 < elo1` (and, for logistic
    /// Elo, expected scores strictly between 0 and 1).
    #[error("invalid hypotheses elo0 = {elo0}, elo1 = {elo1}: need finite elo0 < elo1")]
    Hypotheses {
        /// The null hypothesis' Elo.
        elo0: f64,
        /// The alternative hypothesis' Elo.
        elo1: f64,
    },
    /// α must satisfy 0 < α < ½.
    #[error("invalid alpha {0}: need 0 < alpha < 0.5")]
    Alpha(f64),
    /// β must satisfy 0 < β < ½.
    #[error("invalid beta {0}: need 0 < beta < 0.5")]
    Beta(f64),
}

/// A generalized SPRT between two Elo hypotheses.
///
/// ```
/// use strength::pentanomial::Pentanomial;
/// use strength::sprt::{EloModel, Sprt, SprtStatus};
///
/// let sprt = Sprt::with_model(EloModel::Normalized, 0.0, 2.0, 0.05, 0.05)?;
/// assert_eq!(sprt.status(&Pentanomial::default()), SprtStatus::Continue);
/// assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
/// # Ok::<(), strength::sprt::SprtError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    model: EloModel,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl Sprt {
    /// A test of logistic Elo `elo0` against `elo1` with error rates α and β.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        Self::with_model(EloModel::Logistic, elo0, elo1, alpha, beta)
    }

    /// A test whose Elo numbers are in the given model.
    pub fn with_model(model: EloModel, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        let bad = SprtError::Hypotheses { elo0, elo1 };
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(bad);
        }
        if model == EloModel::Logistic {
            let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
            if !(s0 > 0.0 && s1 < 1.0 && s0 < s1) {
                return Err(bad);
            }
        }
        if !(alpha > 0.0 && alpha < 0.5) {
            return Err(SprtError::Alpha(alpha));
        }
        if !(beta > 0.0 && beta < 0.5) {
            return Err(SprtError::Beta(beta));
        }
        Ok(Sprt { model, elo0, elo1, alpha, beta })
    }

    /// The Elo model of the hypotheses.
    pub fn model(&self) -> EloModel {
        self.model
    }

    /// The null hypothesis' Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// The alternative hypothesis' Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// The nominal false-positive rate α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The nominal false-negative rate β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Wald's bounds `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs (0 for no
    /// pairs; always finite).
    pub fn llr(&self, results: &Pentanomial) -> f64 {
        self.llr_counts(&results.counts, SQRT_2)
    }

    /// The log-likelihood ratio for unpaired games (the trinomial model:
    /// each game the unit).
    pub fn llr_trinomial(&self, results: &Trinomial) -> f64 {
        self.llr_counts(&results.counts, 1.0)
    }

    /// The decision for these pairs.
    pub fn status(&self, results: &Pentanomial) -> SprtStatus {
        self.decide(self.llr(results))
    }

    /// The decision for these unpaired games.
    pub fn status_trinomial(&self, results: &Trinomial) -> SprtStatus {
        self.decide(self.llr_trinomial(results))
    }

    /// The decision for a given LLR.
    pub fn decide(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// `t_factor` converts nElo / (800/ln 10) to the unit's t-value: √2 for
    /// pairs, 1 for games.
    fn llr_counts(&self, counts: &[u64], t_factor: f64) -> f64 {
        let (n, values, p) = regularized_pdf(counts, EMPTY_CELL);
        if n == 0.0 {
            return 0.0;
        }
        let fit = |elo: f64| match self.model {
            EloModel::Logistic => mle_with_mean(&values, &p, elo_to_score(elo)),
            EloModel::Normalized => mle_with_t_value(&values, &p, 0.5, t_factor * elo / NELO_SCALE),
        };
        let q0 = fit(self.elo0);
        let q1 = fit(self.elo1);
        let per_unit: f64 = p.iter().zip(q0.iter().zip(&q1)).map(|(&pk, (&a, &b))| pk * (b.ln() - a.ln())).sum();
        n * per_unit
    }
}

/// The root of `Σ pₖ aₖ / (1 + θ aₖ) = 0` with every `1 + θ aₖ > 0`, for
/// positive `p` and `a` of both signs.
fn secular_root(p: &[f64], a: &[f64]) -> f64 {
    let a_max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let a_min = a.iter().copied().fold(f64::INFINITY, f64::min);
    debug_assert!(a_min < 0.0 && a_max > 0.0);
    // f(θ) decreases from +∞ at `lo` to −∞ at `hi`.
    let mut lo = -1.0 / a_max;
    let mut hi = -1.0 / a_min;
    let f = |theta: f64| -> (f64, f64) {
        let mut value = 0.0;
        let mut slope = 0.0;
        for (&pk, &ak) in p.iter().zip(a) {
            let d = 1.0 + theta * ak;
            value += pk * ak / d;
            slope -= pk * ak * ak / (d * d);
        }
        (value, slope)
    };
    let mut theta = 0.0_f64.clamp(lo, hi);
    for _ in 0..300 {
        let (value, slope) = f(theta);
        if value == 0.0 {
            return theta;
        }
        if value > 0.0 {
            lo = theta;
        } else {
            hi = theta;
        }
        let newton = theta - value / slope;
        let next = if newton > lo && newton < hi && newton.is_finite() { newton } else { 0.5 * (lo + hi) };
        if (next - theta).abs() <= 1e-15 * (1.0 + theta.abs()) || hi - lo <= 1e-300 {
            return next;
        }
        theta = next;
    }
    theta
}

/// The maximum-likelihood distribution on `values` with mean `s`, for the
/// observed frequencies `p` (all positive, `values[0] < s < values[last]`).
fn mle_with_mean(values: &[f64], p: &[f64], s: f64) -> Vec<f64> {
    let a: Vec<f64> = values.iter().map(|x| x - s).collect();
    let theta = secular_root(p, &a);
    normalized(p.iter().zip(&a).map(|(pk, ak)| pk / (1.0 + theta * ak)).collect())
}

/// The maximum-likelihood distribution on `values` with
/// `(mean − reference)/sd = t`, for the observed frequencies `p` (all
/// positive).
///
/// The fixed-point iteration (see the module documentation) is reliable when
/// it starts from a distribution that nearly meets the constraint, so `t` is
/// approached by continuation: from the observed t-value (where `q = p`)
/// towards the target in steps that halve when an iteration fails and grow
/// again when it succeeds.
fn mle_with_t_value(values: &[f64], p: &[f64], reference: f64, t: f64) -> Vec<f64> {
    let (mean, sd) = mean_and_sd(values, p);
    // Usually the hypothesis is close to the data: start from the fit with
    // the mean the target t-value implies at the observed spread, which
    // nearly meets the constraint already.
    let s = reference + t * sd;
    if values[0] < s && s < values[values.len() - 1] {
        let start = mle_with_mean(values, p, s);
        if let Some(q) = t_value_fixed_point(values, p, &start, reference, t) {
            return q;
        }
    }
    let mut t_now = (mean - reference) / sd;
    let mut q = p.to_vec();
    let mut step = t - t_now;
    for _ in 0..10_000 {
        if t_now == t {
            break;
        }
        let t_next = if (t - t_now).abs() <= step.abs() { t } else { t_now + step };
        match t_value_fixed_point(values, p, &q, reference, t_next) {
            Some(next) => {
                q = next;
                t_now = t_next;
                step *= 2.0;
            }
            None => {
                step *= 0.5;
                if step.abs() < 1e-12 {
                    break;
                }
            }
        }
        step = step.abs().copysign(t - t_now);
    }
    q
}

fn mean_and_sd(values: &[f64], q: &[f64]) -> (f64, f64) {
    let mean: f64 = q.iter().zip(values).map(|(qk, x)| qk * x).sum();
    let var: f64 = q.iter().zip(values).map(|(qk, x)| qk * (x - mean) * (x - mean)).sum();
    (mean, var.sqrt())
}

/// Iterates `q ← p / (1 + θ a(q))` from `start` until it settles; None if
/// the iteration leaves the region where it is defined or does not settle.
fn t_value_fixed_point(values: &[f64], p: &[f64], start: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let mut q = start.to_vec();
    for _ in 0..100 {
        let (mean, sd) = mean_and_sd(values, &q);
        if !(sd.is_finite() && sd > 0.0) {
            return None;
        }
        let var = sd * sd;
        let a: Vec<f64> =
            values.iter().map(|x| (x - reference) - t * ((x - mean) * (x - mean) + var) / (2.0 * sd)).collect();
        let a_max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let a_min = a.iter().copied().fold(f64::INFINITY, f64::min);
        if !(a_min < 0.0 && a_max > 0.0) {
            return None;
        }
        let theta = secular_root(p, &a);
        let next = normalized(p.iter().zip(&a).map(|(pk, ak)| pk / (1.0 + theta * ak)).collect());
        if next.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
            return None;
        }
        let change = next.iter().zip(&q).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        q = next;
        // The iteration converges linearly; rounding keeps the change from
        // going much below 1e-15, so stop well above that.
        if change < 1e-13 {
            let (mean, sd) = mean_and_sd(values, &q);
            return (((mean - reference) / sd - t).abs() < 1e-9).then_some(q);
        }
    }
    None
}

fn normalized(mut q: Vec<f64>) -> Vec<f64> {
    let total: f64 = q.iter().sum();
    for x in &mut q {
        *x /= total;
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean_sd(values: &[f64], q: &[f64]) -> (f64, f64) {
        let m: f64 = q.iter().zip(values).map(|(a, b)| a * b).sum();
        let v: f64 = q.iter().zip(values).map(|(a, b)| a * (b - m) * (b - m)).sum();
        (m, v.sqrt())
    }

    #[test]
    fn constrained_fits_meet_their_constraints() {
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let p = normalized(vec![3.0, 20.0, 50.0, 25.0, 2.0]);
        for s in [0.01, 0.3, 0.5, 0.51, 0.9, 0.999] {
            let q = mle_with_mean(&values, &p, s);
            let (m, _) = mean_sd(&values, &q);
            assert!((m - s).abs() < 1e-12, "mean {m} want {s}");
            assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        for t in [-1.0, -0.1, 0.0, 0.05, 0.3, 1.5] {
            let q = mle_with_t_value(&values, &p, 0.5, t);
            let (m, sd) = mean_sd(&values, &q);
            assert!(((m - 0.5) / sd - t).abs() < 1e-10, "t {} want {t}", (m - 0.5) / sd);
        }
    }

    #[test]
    fn t_value_fits_from_lopsided_data() {
        // Regularised pdfs of tiny, one-sided samples, far from the targets.
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let samples: [[u64; 5]; 5] =
            [[0, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 0, 3, 0, 0], [0, 1, 0, 0, 40], [5, 0, 0, 0, 5]];
        for counts in samples {
            let (_, _, p) = regularized_pdf(&counts, EMPTY_CELL);
            for t in [-4.0, -1.0, -0.01, 0.0, 0.02, 0.5, 3.0] {
                let q = mle_with_t_value(&values, &p, 0.5, t);
                let (m, sd) = mean_sd(&values, &q);
                assert!(((m - 0.5) / sd - t).abs() < 1e-9, "{counts:?} t {t}: got {}", (m - 0.5) / sd);
            }
        }
    }

    #[test]
    fn constrained_fit_is_a_maximum() {
        // Any other distribution with the same mean has a lower likelihood.
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let p = normalized(vec![3.0, 20.0, 50.0, 25.0, 2.0]);
        let s = 0.55;
        let q = mle_with_mean(&values, &p, s);
        let ll = |q: &[f64]| p.iter().zip(q).map(|(a, b)| a * b.ln()).sum::<f64>();
        // Perturb along directions that keep the sum and the mean.
        let dirs = [[1.0, -2.0, 1.0, 0.0, 0.0], [0.0, 1.0, -2.0, 1.0, 0.0], [1.0, -1.0, -1.0, 1.0, 0.0]];
        for d in dirs {
            for eps in [1e-3, -1e-3] {
                let r: Vec<f64> = q.iter().zip(d).map(|(a, b)| a + eps * b).collect();
                assert!(ll(&r) < ll(&q));
            }
        }
    }
}
