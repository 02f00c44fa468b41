//! The logistic Elo scale and the small numerical helpers the other modules
//! share.
//!
//! On the logistic scale a rating difference `d` gives the stronger side the
//! expected score `1 / (1 + 10^(-d/400))`: 0 Elo is an even match, +400 Elo
//! scores 10/11 (odds of ten to one), −400 Elo scores 1/11.
//!
//! ```
//! use strength::elo::{elo_to_score, score_to_elo};
//!
//! assert_eq!(elo_to_score(0.0), 0.5);
//! assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-15);
//! assert!((score_to_elo(10.0 / 11.0) - 400.0).abs() < 1e-9);
//! assert_eq!(score_to_elo(1.0), f64::INFINITY);
//! ```
//!
//! The normal distribution helpers ([`normal_cdf`], [`normal_quantile`],
//! [`erfc`]) are written here rather than taken from a dependency; they are
//! accurate to a few units in the last place of an `f64` over the range the
//! statistics use (|x| up to about 38).

use serde::{Deserialize, Serialize};
use std::f64::consts::{LN_10, PI, SQRT_2};

/// Elo points per unit of natural-log odds: `400 / ln 10` ≈ 173.72.
///
/// A Bradley–Terry strength `π = e^θ` is the rating `θ · LOGISTIC_SCALE`.
pub const LOGISTIC_SCALE: f64 = 400.0 / LN_10;

/// The factor from a t-value (mean excess over its standard deviation) to
/// normalized Elo: `800 / ln 10` ≈ 347.44, as fishtest defines nElo.
pub const NELO_SCALE: f64 = 800.0 / LN_10;

/// The two-sided 95% normal quantile, `Φ⁻¹(0.975)` ≈ 1.959964.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The result of one game from one player's point of view.
///
/// ```
/// use strength::elo::GameResult;
///
/// assert_eq!(GameResult::Win.score(), 1.0);
/// assert_eq!(GameResult::Win.reversed(), GameResult::Loss);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// The player lost (score 0).
    Loss,
    /// A draw (score ½).
    Draw,
    /// The player won (score 1).
    Win,
}

impl GameResult {
    /// The score of the result: 0, 0.5 or 1.
    pub fn score(self) -> f64 {
        match self {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        }
    }

    /// Twice the score, as an index: 0 (loss), 1 (draw), 2 (win).
    pub fn half_points(self) -> usize {
        match self {
            GameResult::Loss => 0,
            GameResult::Draw => 1,
            GameResult::Win => 2,
        }
    }

    /// The same game seen from the opponent's side.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }
}

/// A point estimate with a confidence interval `[low, high]`.
///
/// Intervals may be unbounded (`low = -∞` or `high = +∞`) when the data say
/// nothing about one side (for instance an Elo interval whose score interval
/// reaches 0 or 1); they never contain NaN unless the input did.
///
/// ```
/// use strength::elo::Estimate;
///
/// let e = Estimate { value: 10.0, low: 2.0, high: 18.0 };
/// assert!(e.contains(5.0));
/// assert_eq!(e.width(), 16.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// The lower end of the interval.
    pub low: f64,
    /// The upper end of the interval.
    pub high: f64,
}

impl Estimate {
    /// Whether `x` lies in the closed interval `[low, high]`.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }

    /// `high − low` (infinite for an unbounded interval).
    pub fn width(&self) -> f64 {
        self.high - self.low
    }
}

/// The logistic Elo difference whose expected score is `score`:
/// `−400 · log10(1/s − 1)`.
///
/// Scores at or below 0 give `−∞`, at or above 1 give `+∞`; NaN stays NaN.
///
/// ```
/// use strength::elo::score_to_elo;
///
/// assert_eq!(score_to_elo(0.5), 0.0);
/// assert!((score_to_elo(0.75) - 190.848_501_887_864_9).abs() < 1e-9);
/// assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
/// ```
pub fn score_to_elo(score: f64) -> f64 {
    if score.is_nan() {
        f64::NAN
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // log10(s / (1 - s)) written with ln_1p-free pieces; both terms finite.
        400.0 * (score.ln() - (-score).ln_1p()) / LN_10
    }
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(−elo/400))`.
///
/// `±∞` give 1 and 0; NaN stays NaN.
///
/// ```
/// use strength::elo::elo_to_score;
///
/// assert_eq!(elo_to_score(0.0), 0.5);
/// assert!((elo_to_score(-400.0) - 1.0 / 11.0).abs() < 1e-15);
/// ```
pub fn elo_to_score(elo: f64) -> f64 {
    if elo.is_nan() {
        return f64::NAN;
    }
    let x = elo / LOGISTIC_SCALE;
    // The logistic function of x, computed on the side that cannot overflow.
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// The derivative of [`elo_to_score`] with respect to the Elo difference.
pub fn score_slope(elo: f64) -> f64 {
    let s = elo_to_score(elo);
    s * (1.0 - s) / LOGISTIC_SCALE
}

/// The complementary error function `erfc(x) = 1 − erf(x)`.
///
/// For |x| < 2.5 it sums the everywhere-positive series
/// `erf(x) = (2/√π) e^(−x²) Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`; beyond, it
/// evaluates the classical continued fraction of `erfc` backwards from a
/// fixed depth. Negative arguments use `erfc(−x) = 2 − erfc(x)`.
///
/// ```
/// use strength::elo::erfc;
///
/// assert!((erfc(1.0) - 0.157_299_207_050_285_13).abs() < 1e-15);
/// assert_eq!(erfc(0.0), 1.0);
/// ```
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x == 0.0 {
        return 1.0;
    }
    if x > 27.3 {
        // e^(−x²) underflows below the smallest subnormal.
        return 0.0;
    }
    let x2 = x * x;
    if x < 2.5 {
        let mut term = x;
        let mut sum = x;
        let mut k = 0.0;
        loop {
            k += 1.0;
            term *= 2.0 * x2 / (2.0 * k + 1.0);
            sum += term;
            if term <= sum * 1e-17 {
                break;
            }
        }
        1.0 - 2.0 / PI.sqrt() * (-x2).exp() * sum
    } else {
        // erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + (2/2)/(x + (3/2)/(x + …))))
        let mut f = x;
        for k in (1..=120).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        (-x2).exp() / (PI.sqrt() * f)
    }
}

/// The error function `erf(x) = 1 − erfc(x)` (for small |x| computed from
/// the series directly, so it keeps its relative precision near 0).
pub fn erf(x: f64) -> f64 {
    if x.abs() < 0.5 {
        // Taylor series with alternating terms: fine while |x| < 1/2.
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= sum.abs() * 1e-17 {
                break;
            }
        }
        2.0 / PI.sqrt() * sum
    } else {
        1.0 - erfc(x)
    }
}

/// The standard normal distribution function `Φ(x)`.
///
/// Accurate in both tails (it is computed from [`erfc`], never as `1 − small`).
///
/// ```
/// use strength::elo::normal_cdf;
///
/// assert_eq!(normal_cdf(0.0), 0.5);
/// assert!((normal_cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-15);
/// ```
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// The standard normal density `φ(x)`.
pub fn normal_pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
}

/// The standard normal quantile `Φ⁻¹(p)`.
///
/// `p ≤ 0` gives `−∞`, `p ≥ 1` gives `+∞`, NaN stays NaN. The first guess
/// is P. J. Acklam's published rational approximation (relative error about
/// 1e−9); one Halley step against [`normal_cdf`] then brings it to full
/// precision. The lower tail is always the one computed (the upper is its
/// mirror image), so tiny tail probabilities keep their precision.
///
/// ```
/// use strength::elo::normal_quantile;
///
/// assert!((normal_quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-13);
/// assert_eq!(normal_quantile(0.5), 0.0);
/// ```
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    if p == 0.5 {
        return 0.0;
    }
    if p > 0.5 {
        // 1 − p is exact for p in [1/2, 1).
        return -lower_quantile(1.0 - p);
    }
    lower_quantile(p)
}

/// `Φ⁻¹(p)` for `0 < p < 1/2`.
fn lower_quantile(p: f64) -> f64 {
    // Acklam's coefficients (published constants).
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    const P_LOW: f64 = 0.024_25;

    let mut x = if p < P_LOW {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step on Φ(x) − p = 0; Φ'(x) = φ(x), Φ'' = −x φ(x).
    for _ in 0..2 {
        let density = normal_pdf(x);
        if density <= 0.0 || !density.is_finite() {
            break;
        }
        let u = (normal_cdf(x) - p) / density;
        x -= u / (1.0 + 0.5 * x * u);
    }
    x
}

/// The normal quantile for a two-sided interval of the given confidence:
/// `Φ⁻¹((1 + confidence) / 2)`; 0.95 gives [`Z95`].
pub fn two_sided_z(confidence: f64) -> f64 {
    if confidence == 0.95 { Z95 } else { normal_quantile(0.5 + 0.5 * confidence) }
}

/// The chance that a χ² variable with `dof` degrees of freedom is at least
/// `x` (the upper tail, a goodness-of-fit test's p-value).
///
/// Exact closed forms: for an even `dof = 2m`, `e^(−y) Σ_{i<m} yⁱ/i!` with
/// `y = x/2`; for an odd one, `erfc(√y)` plus the half-integer terms
/// `e^(−y) Σ_{i=1..m} y^(i−½)/Γ(i+½)`. Each term is formed in logarithms, so
/// large `x` underflows to 0 rather than overflowing. `dof = 0` (a variable
/// that is always 0) gives 0 for any positive `x`; NaN gives NaN.
///
/// ```
/// use strength::elo::chi_square_survival;
///
/// assert!((chi_square_survival(3.841_458_820_694_124, 1) - 0.05).abs() < 1e-12);
/// assert!((chi_square_survival(2.0, 2) - (-1f64).exp()).abs() < 1e-15);
/// assert_eq!(chi_square_survival(0.0, 7), 1.0);
/// ```
pub fn chi_square_survival(x: f64, dof: usize) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 1.0;
    }
    if dof == 0 {
        return 0.0;
    }
    let y = 0.5 * x;
    let ln_y = y.ln();
    let m = dof / 2;
    let mut sum = 0.0;
    if dof.is_multiple_of(2) {
        let mut ln_factorial = 0.0;
        for i in 0..m {
            if i > 0 {
                ln_factorial += (i as f64).ln();
            }
            sum += (i as f64 * ln_y - ln_factorial - y).exp();
        }
    } else {
        sum = erfc(y.sqrt());
        // ln Γ(i + ½), from Γ(3/2) = √π/2 upwards.
        let mut ln_gamma = 0.5 * PI.ln() - 2f64.ln();
        for i in 1..=m {
            if i > 1 {
                ln_gamma += (i as f64 - 0.5).ln();
            }
            sum += ((i as f64 - 0.5) * ln_y - ln_gamma - y).exp();
        }
    }
    sum.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_survival_known_values() {
        // Critical values at 5% and 1% for several degrees of freedom
        // (textbook tables), and the small tail of a large statistic.
        for (x, dof, p) in [
            (3.841_458_820_694_124, 1, 0.05),
            (5.991_464_547_107_98, 2, 0.05),
            (7.814_727_903_251_178, 3, 0.05),
            (18.307_038_053_275_146, 10, 0.05),
            (21.026_069_817_483_066, 12, 0.05),
            (26.216_967_305_535_853, 12, 0.01),
            (43.772_971_825_742_19, 30, 0.05),
        ] {
            let got = chi_square_survival(x, dof);
            assert!((got - p).abs() < 1e-10, "Q({x}, {dof}) = {got}, want {p}");
        }
        // Monotone, and tiny but positive far in the tail.
        let far = chi_square_survival(400.0, 12);
        assert!(far > 0.0 && far < 1e-70);
        assert!(chi_square_survival(20.0, 12) > chi_square_survival(21.0, 12));
        assert!(chi_square_survival(f64::NAN, 3).is_nan());
    }

    #[test]
    fn erfc_known_values() {
        // Reference values of erfc to 16 significant digits.
        let cases = [
            (0.1, 0.887_537_083_981_715),
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_13),
            (2.0, 0.004_677_734_981_047_266),
            (2.5, 4.069_520_174_449_59e-4),
            (3.0, 2.209_049_699_858_544e-5),
            (5.0, 1.537_459_794_428_035e-12),
            (10.0, 2.088_487_583_762_545e-45),
        ];
        for (x, want) in cases {
            let got = erfc(x);
            assert!(((got - want) / want).abs() < 1e-13, "erfc({x}) = {got}, want {want}");
            assert!((erfc(-x) - (2.0 - want)).abs() < 1e-15);
        }
        assert!((erf(0.1) - 0.112_462_916_018_284_9).abs() < 1e-16);
        assert!((erf(1e-10) - 1.128_379_167_095_512_6e-10).abs() < 1e-25);
    }

    #[test]
    fn erfc_is_continuous_at_the_switch() {
        let below = erfc(2.5 - 1e-12);
        let above = erfc(2.5);
        assert!(((below - above) / above).abs() < 1e-10);
    }

    #[test]
    fn quantile_inverts_cdf() {
        for i in 1..2000 {
            let p = i as f64 / 2000.0;
            let x = normal_quantile(p);
            assert!((normal_cdf(x) - p).abs() < 1e-15, "p = {p}");
        }
        for &p in &[1e-300, 1e-100, 1e-20, 1e-10, 1e-5] {
            let x = normal_quantile(p);
            assert!(((normal_cdf(x) - p) / p).abs() < 1e-12, "p = {p}");
            // 1 − p rounds for tiny p: the mirror of the rounded value.
            let q = 1.0 - p;
            assert_eq!(normal_quantile(q), -normal_quantile(1.0 - q));
        }
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-14);
        assert!((two_sided_z(0.9) - 1.644_853_626_951_472_2).abs() < 1e-14);
    }

    #[test]
    fn elo_score_round_trip() {
        for e in [-2000.0, -400.0, -1.0, 0.0, 3.5, 400.0, 1500.0] {
            assert!((score_to_elo(elo_to_score(e)) - e).abs() < 1e-9 * (1.0 + e.abs()));
        }
        assert_eq!(elo_to_score(f64::INFINITY), 1.0);
        assert_eq!(elo_to_score(f64::NEG_INFINITY), 0.0);
        assert_eq!(score_to_elo(-0.1), f64::NEG_INFINITY);
        assert_eq!(score_to_elo(1.1), f64::INFINITY);
        assert!(score_to_elo(f64::NAN).is_nan());
    }
}
