//! The normal distribution in log space, and the choice probabilities of
//! the noisy-evaluation model by quadrature.
//!
//! The noisy player adds independent `N(0, S²)` noise to every move's value
//! and plays the largest. With `aⱼ = (v_c − vⱼ)/S` for the other moves `j`,
//!
//! ```text
//! P(c) = ∫ φ(z) Πⱼ Φ(aⱼ + z) dz = ∫ exp(h(z)) dz,
//! h(z) = ln φ(z) + Σⱼ ln Φ(aⱼ + z).
//! ```
//!
//! `h` is strictly concave (`ln φ` has curvature −1 and every `ln Φ` is
//! concave), so it has a single mode `z*`, found by safeguarded Newton, and
//! `exp(h)` falls off monotonically on each side of it. The integral is the
//! trapezoidal rule on a grid through `z*` with a step of half the width
//! `1/√(−h''(z*))` at the mode (`z*` to a hundredth of the step), summed outwards until the terms fall below
//! `e^−40` of the mode's: for smooth integrands decaying this fast the
//! trapezoidal rule converges geometrically, and everything is done in log
//! space, so probabilities far below the smallest `f64` keep their
//! logarithm.

/// `ln √(2π)`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// Chebyshev coefficients of `G(t) = ln erfc(z) + z² − ln t` on
/// `t = 2/(2 + z) ∈ (0, 1]` (the form of *Numerical Recipes*' `erfccheb`),
/// in `s = 2t − 1`. Computed for this module with mpmath at 50 digits from
/// 64 Chebyshev nodes; the 30 kept give `ln erfc` to about 5e−16 (relative
/// to `max(1, |ln erfc|)`) for every `z ≥ 0`.
const LN_ERFC_CHEB: [f64; 30] = [
    -0.6513268598908547,
    0.6419697923564902,
    0.019476473204185836,
    -0.009561514786808632,
    -0.0009465953444820369,
    0.00036683949785276145,
    4.252332480690777e-05,
    -2.0278578112534242e-05,
    -1.6242900046470256e-06,
    1.3036558355805232e-06,
    1.5626441722066142e-08,
    -8.523809591492654e-08,
    6.5290544390988515e-09,
    5.059343495551469e-09,
    -9.91364156493033e-10,
    -2.273651222931836e-10,
    9.646791102015527e-11,
    2.3940380830391146e-12,
    -6.886027526497553e-12,
    8.944879273090725e-13,
    3.130921399342958e-13,
    -1.1270822361367252e-13,
    3.810905255189232e-16,
    7.106097613609237e-15,
    -1.5230282014571043e-15,
    -9.457494571291233e-17,
    1.210237189224279e-16,
    -2.816663087747177e-17,
    5.003005559445902e-20,
    2.3281042579529253e-18,
];

/// `ln erfc(z)` for `z ≥ 0` (`−∞` at `+∞`): `ln t − z² + G(t)`, `G` summed
/// by Clenshaw's recurrence. In log form it never underflows.
fn ln_erfc_nonneg(z: f64) -> f64 {
    let t = 2.0 / (2.0 + z);
    let s = 2.0 * t - 1.0;
    let (mut b1, mut b2) = (0.0, 0.0);
    for &c in LN_ERFC_CHEB[1..].iter().rev() {
        (b1, b2) = (2.0 * s * b1 - b2 + c, b1);
    }
    t.ln() - z * z + (s * b1 - b2 + LN_ERFC_CHEB[0])
}

/// `ln Φ(x)`, accurate to about 1e−15 relative in `Φ`, finite for every
/// finite `x` (`ln Φ(−40) ≈ −804.6`), `−∞` at `−∞` and 0 at `+∞`.
pub(crate) fn ln_normal_cdf(x: f64) -> f64 {
    if x > 38.5 {
        // ln Φ(x) ≈ −Φ(−x) < 1e−323: zero in f64.
        0.0
    } else if x >= 0.0 {
        // Φ(x) = 1 − erfc(x/√2)/2: keep the small complement's precision.
        (-0.5 * ln_erfc_nonneg(x * std::f64::consts::FRAC_1_SQRT_2).exp()).ln_1p()
    } else {
        -std::f64::consts::LN_2 + ln_erfc_nonneg(-x * std::f64::consts::FRAC_1_SQRT_2)
    }
}

/// The inverse Mills ratio `φ(x)/Φ(x)` and its derivative, the latter
/// clamped to `[−1, 0]` (its exact range) against rounding.
fn mills(x: f64) -> (f64, f64) {
    let m = (-0.5 * x * x - LN_SQRT_2PI - ln_normal_cdf(x)).exp();
    (m, (-m * (x + m)).clamp(-1.0, 0.0))
}

/// `h(z) = ln φ(z) + Σ ln Φ(aⱼ + z)`.
fn h(a: &[f64], z: f64) -> f64 {
    -0.5 * z * z - LN_SQRT_2PI + a.iter().map(|&aj| ln_normal_cdf(aj + z)).sum::<f64>()
}

/// `h'(z)` and `h''(z)` (the latter in `[−1 − len, −1]`).
fn h_derivatives(a: &[f64], z: f64) -> (f64, f64) {
    let mut d1 = -z;
    let mut d2 = -1.0;
    for &aj in a {
        let (m, dm) = mills(aj + z);
        d1 += m;
        d2 += dm;
    }
    (d1, d2)
}

/// `ln P(a move beats every other)` under independent standard normal noise
/// on every value, where `a` holds `(v_c − vⱼ)/S` for the other moves.
///
/// Entries `+∞` (a competitor infinitely worse) are ignored, any `−∞` gives
/// `−∞`; `a` must not contain NaN.
pub(crate) fn ln_noise_probability(a: &[f64]) -> f64 {
    debug_assert!(a.iter().all(|x| !x.is_nan()));
    if a.contains(&f64::NEG_INFINITY) {
        return f64::NEG_INFINITY;
    }
    let finite: Vec<f64>;
    let a = if a.iter().any(|x| x.is_infinite()) {
        finite = a.iter().copied().filter(|x| x.is_finite()).collect();
        &finite[..]
    } else {
        a
    };
    if a.is_empty() {
        return 0.0;
    }
    // The mode: h' is decreasing, positive at 0 (every Mills ratio is
    // positive) and negative once z ≥ max(0, −aⱼ) + len + 1 (each Mills
    // ratio is then below 1).
    let worst = a.iter().fold(0.0f64, |m, &aj| m.max(-aj));
    let (mut lo, mut hi) = (0.0, worst + a.len() as f64 + 1.0);
    let mut z = 0.5 * worst;
    let mut curvature = -1.0;
    for _ in 0..200 {
        let (d1, d2) = h_derivatives(a, z);
        curvature = d2;
        if d1 > 0.0 {
            lo = z;
        } else {
            hi = z;
        }
        let mut next = z - d1 / d2;
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        // The grid need not pass exactly through the mode: a hundredth of
        // its step is plenty.
        let done = (next - z).abs() * (-d2).sqrt() <= 1e-3 || hi - lo <= 1e-12 * (1.0 + z.abs());
        z = next;
        if done {
            break;
        }
    }
    let top = h(a, z);
    let step = 0.5 / (-curvature).sqrt();
    // Trapezoidal rule outwards from the mode; exp(h − top) decreases
    // monotonically on each side (h is concave).
    let mut sum = 1.0;
    for dir in [-1.0, 1.0] {
        for k in 1..100_000 {
            let t = (h(a, z + dir * step * k as f64) - top).exp();
            sum += t;
            if t < 4e-18 {
                break;
            }
        }
    }
    (top + (step * sum).ln()).min(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::normal_cdf;

    #[test]
    fn ln_normal_cdf_is_accurate() {
        // ln Φ(x) from mpmath at 40 digits.
        let reference = [
            (-1e4, -50000010.12927891),
            (-300.0, -45006.62273211866),
            (-37.0, -689.0305855768906),
            (-20.0, -203.91715537109727),
            (-8.0, -35.01343715991455),
            (-3.53, -8.479031531743802),
            (-1.0, -1.8410216450092636),
            (-0.1, -0.7761545927302733),
            (0.0, -std::f64::consts::LN_2),
            (0.5, -0.3689464152886564),
            (2.0, -0.02301290932896349),
            (5.0, -2.866516129637636e-07),
            (9.0, -1.1285884059538405e-19),
        ];
        for (x, exact) in reference {
            let got = ln_normal_cdf(x);
            assert!((got - exact).abs() <= 5e-14 * exact.abs(), "x = {x}: {got} vs {exact}");
        }
        // And everywhere close to the crate's own Φ (whose erfc loses a few
        // digits to cancellation just below |x|/√2 = 2.5).
        let mut x = -37.0;
        while x <= 8.0 {
            let exact = normal_cdf(x).ln();
            assert!((ln_normal_cdf(x) - exact).abs() <= 1e-12 * (1.0 + exact.abs()), "x = {x}");
            x += 0.01;
        }
        assert_eq!(ln_normal_cdf(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert_eq!(ln_normal_cdf(f64::INFINITY), 0.0);
        assert!(ln_normal_cdf(-1e10).is_finite());
    }

    #[test]
    fn two_moves_have_a_closed_form() {
        // v_c − v + S(e_c − e) > 0 with e_c − e ~ N(0, 2): P = Φ(a/√2).
        for a in [-30.0, -8.0, -2.0, -0.5, 0.0, 0.3, 1.0, 4.0, 12.0] {
            let exact = ln_normal_cdf(a / std::f64::consts::SQRT_2);
            let got = ln_noise_probability(&[a]);
            assert!((got - exact).abs() < 1e-12 * (1.0 + exact.abs()), "a = {a}: {got} vs {exact}");
        }
    }

    #[test]
    fn probabilities_sum_to_one() {
        // Every move of a position in turn; the quadratures are independent,
        // so their sum measures the error.
        let positions: [&[f64]; 6] = [
            &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            &[0.0, 1.0, 2.0],
            &[0.0, 0.1, 5.0, 5.0, 9.0, -3.0],
            &[0.0, 20.0, 40.0, 41.0],
            &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0],
            &[-2.0, 7.0, 7.5, 8.0, 0.3, 1.2, 6.0, 6.1, 5.9, 2.0],
        ];
        for values in positions {
            for s in [0.05, 0.4, 1.0, 3.0, 100.0] {
                let total: f64 = (0..values.len())
                    .map(|c| {
                        let a: Vec<f64> =
                            (0..values.len()).filter(|&j| j != c).map(|j| (values[c] - values[j]) / s).collect();
                        ln_noise_probability(&a).exp()
                    })
                    .sum();
                assert!((total - 1.0).abs() < 1e-12, "{values:?} S = {s}: {total}");
            }
        }
    }

    #[test]
    fn extremes() {
        assert_eq!(ln_noise_probability(&[]), 0.0);
        assert_eq!(ln_noise_probability(&[f64::INFINITY, f64::INFINITY]), 0.0);
        assert_eq!(ln_noise_probability(&[1.0, f64::NEG_INFINITY]), f64::NEG_INFINITY);
        // Three tied moves: 1/3 each.
        assert!((ln_noise_probability(&[0.0, 0.0]) + 3f64.ln()).abs() < 1e-14);
        // Far below every f64, yet finite and close to the two-move value.
        let deep = ln_noise_probability(&[-100.0]);
        assert!((deep - ln_normal_cdf(-100.0 / std::f64::consts::SQRT_2)).abs() < 1e-12 * deep.abs());
        let huge = ln_noise_probability(&[-1e6, -1e6, 3.0]);
        assert!(huge.is_finite() && huge < -1e11);
    }
}
