//! The soft minimum `−(1/θ) ln Σ exp(−θ xᵢ)` in the log domain.

/// The largest `θ (pivot − x)` whose term `exp(θ (pivot − x))` is added
/// without moving the pivot.
const RESCALE: f64 = 512.0;

/// A streaming soft minimum of costs `x₁, x₂, …`:
/// `softmin_θ(x) = −(1/θ) ln Σᵢ exp(−θ xᵢ)`, the Rminimax backup at the AI
/// player's nodes (the paper's eq. (11) after `V = −(1/θ) ln z`).
///
/// It is computed as log-sum-exp shifted by a pivot `p`, one of the costs:
/// `p − (1/θ) ln Σᵢ exp(−θ (xᵢ − p))`. The pivot is the first cost, and
/// moves to a later cost `x` only when `θ (p − x)` exceeds 512, so every term
/// is at most `e⁵¹²` and the sum neither overflows (for fewer than 10⁶⁰
/// costs) nor loses the smallest cost; terms too small to count underflow
/// harmlessly. Unlike a shift by the running minimum, the common case costs
/// one `exp` and no unpredictable branch. The result is finite for every
/// finite input and every θ (θ = 10⁶ and costs 10⁶, θ = 10⁻⁶) and lies in
/// `[m − ln(n)/θ, m]` for the minimum `m`. At θ = +∞ it is the exact
/// minimum. A NaN input makes the result NaN (poisoning; see
/// [`costs`](crate::backup::rminimax::CostModel)).
///
/// ```
/// use search_core::backup::rminimax::SoftMin;
/// let mut s = SoftMin::new(2.0);
/// for x in [3.0, 1.0, 1.0] {
///     s.add(x);
/// }
/// let naive = -(1.0 / 2.0) * ((-6.0f64).exp() + 2.0 * (-2.0f64).exp()).ln();
/// assert!((s.value() - naive).abs() < 1e-12);
///
/// let mut hard = SoftMin::new(f64::INFINITY);
/// hard.add(3.0);
/// hard.add(1.0);
/// assert_eq!(hard.value(), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoftMin {
    theta: f64,
    /// The pivot (at θ = +∞, the minimum).
    pivot: f64,
    /// `Σ exp(−θ (xᵢ − pivot))`; 0 before the first cost.
    sum: f64,
    poisoned: bool,
}

impl SoftMin {
    /// An empty soft minimum with inverse temperature `theta` (> 0, possibly
    /// +∞; not checked here: the rules validate θ when they are built).
    #[inline]
    pub fn new(theta: f64) -> Self {
        SoftMin { theta, pivot: f64::INFINITY, sum: 0.0, poisoned: false }
    }

    /// Adds a cost.
    #[inline]
    pub fn add(&mut self, x: f64) {
        if x.is_nan() {
            self.poisoned = true;
            return;
        }
        if self.theta == f64::INFINITY {
            self.pivot = self.pivot.min(x);
            return;
        }
        // `x` below the pivot gives a term above 1.
        let above = self.theta * (self.pivot - x);
        if self.sum == 0.0 {
            self.pivot = x;
            self.sum = 1.0;
        } else if above > RESCALE {
            // Move the pivot to `x` before its term could overflow.
            self.sum = self.sum * (-above).exp() + 1.0;
            self.pivot = x;
        } else {
            self.sum += above.exp();
        }
    }

    /// The soft minimum of the costs added so far (+∞ if none; NaN if one
    /// was NaN).
    #[inline]
    pub fn value(&self) -> f64 {
        if self.poisoned {
            f64::NAN
        } else if self.theta == f64::INFINITY || self.sum == 0.0 {
            self.pivot
        } else {
            self.pivot - self.sum.ln() / self.theta
        }
    }
}

/// The soft minimum of a slice of costs (see [`SoftMin`]).
///
/// ```
/// use search_core::backup::rminimax::soft_min;
/// assert!((soft_min(&[0.0, 0.0], 1.0) + 2f64.ln()).abs() < 1e-15);
/// ```
pub fn soft_min(costs: &[f64], theta: f64) -> f64 {
    let mut s = SoftMin::new(theta);
    for &x in costs {
        s.add(x);
    }
    s.value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_naive_form_and_stays_finite() {
        let xs: [f64; 5] = [0.5, 2.0, 2.0, 7.25, 0.75];
        for theta in [0.01f64, 0.3, 1.0, 4.0, 20.0] {
            let naive = -(xs.iter().map(|x| (-theta * x).exp()).sum::<f64>()).ln() / theta;
            assert!((soft_min(&xs, theta) - naive).abs() < 1e-12, "θ = {theta}");
        }
        // Extreme parameters: finite and within [m − ln(n)/θ, m].
        let big = [1e6, 0.0, 5e5, 1e6];
        for theta in [1e-6, 1e6] {
            let v = soft_min(&big, theta);
            assert!(v.is_finite());
            assert!(v <= 0.0 && v >= -(4f64.ln()) / theta - 1e-9, "{v}");
        }
        // Order does not matter.
        let mut rev = xs;
        rev.reverse();
        assert!((soft_min(&xs, 0.7) - soft_min(&rev, 0.7)).abs() < 1e-12);
    }

    #[test]
    fn nan_poisons_and_empty_is_infinite() {
        assert!(soft_min(&[1.0, f64::NAN, 0.0], 1.0).is_nan());
        assert!(soft_min(&[1.0, f64::NAN], f64::INFINITY).is_nan());
        assert_eq!(soft_min(&[], 1.0), f64::INFINITY);
    }
}
