//! Small statistics for the reports: means, standard errors, intervals.

/// Mean and standard error of the mean.
pub fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The 95% normal-approximation interval `mean ± 1.96 se`.
pub fn ci95(mean: f64, se: f64) -> (f64, f64) {
    (mean - 1.96 * se, mean + 1.96 * se)
}

/// The standard normal CDF (Abramowitz–Stegun 7.1.26 erf, error < 1.5e-7).
pub fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

/// One-sided confidence that the paired differences `d` have a positive mean
/// (normal approximation of the paired t-test).
pub fn paired_confidence(d: &[f64]) -> f64 {
    let (m, se) = mean_se(d);
    if se == 0.0 || se.is_nan() {
        return if m > 0.0 { 1.0 } else { 0.0 };
    }
    normal_cdf(m / se)
}

/// The 95% Wilson interval of `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let (m, se) = mean_se(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m, 2.5);
        assert!((se - (1.666_666_666_666_666_7f64 / 4.0).sqrt()).abs() < 1e-12);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-9);
        assert!(paired_confidence(&[1.0, 2.0, 1.5, 2.5]) > 0.99);
    }
}
