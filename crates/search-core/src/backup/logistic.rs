//! The logistic function and its logarithm, computed without overflow (a
//! private helper of the probability-valued rules).

/// `σ(x) = 1 / (1 + e^(−x))`.
#[inline]
pub(crate) fn sigmoid(x: f64) -> f64 {
    ln_sigmoid(x).exp()
}

/// `ln σ(x) = −ln(1 + e^(−x))`, accurate for large `|x|` in both directions.
#[inline]
pub(crate) fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 { -(-x).exp().ln_1p() } else { x - x.exp().ln_1p() }
}

/// `ln(1 − e^x)` for `x ≤ 0` (Mächler's `log1mexp`): accurate near 0 and for
/// very negative `x`. `x = 0` gives −∞.
#[inline]
pub(crate) fn ln_one_minus_exp(x: f64) -> f64 {
    if x > -std::f64::consts::LN_2 { (-x.exp_m1()).ln() } else { (-x.exp()).ln_1p() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_identities() {
        for &x in &[-800.0, -30.0, -1.5, 0.0, 0.25, 3.0, 40.0, 800.0] {
            let direct = 1.0 / (1.0 + f64::exp(-x));
            assert!((sigmoid(x) - direct).abs() <= 1e-15, "σ({x})");
            // σ(x) + σ(−x) = 1, in log space: ln(1 − σ(x)) = ln σ(−x).
            if x != 0.0 && x.abs() < 700.0 {
                assert!((ln_one_minus_exp(ln_sigmoid(x)) - ln_sigmoid(-x)).abs() <= 1e-12 * (1.0 + x.abs()));
            }
        }
        assert_eq!(ln_sigmoid(-800.0), -800.0);
        assert_eq!(ln_one_minus_exp(0.0), f64::NEG_INFINITY);
        assert_eq!(ln_one_minus_exp(f64::NEG_INFINITY), 0.0);
    }
}
