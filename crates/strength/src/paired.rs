//! Two agents compared through the same games: each played a match against
//! the same opponent, pair `i` of both from the same opening and seed.
//!
//! Two matches against a common opponent are usually compared by their
//! separate Elo intervals, which is wasteful when the two agents play alike:
//! with the same openings and random seeds (common random numbers), their
//! games coincide wherever the agents choose alike, and only the pairs
//! where they part can differ. The per-pair *difference* of the scores then
//! has a far smaller spread than either match's scores, and its interval
//! says whether one agent scores more than the other. This is how `cargo
//! xtask match ... --baseline SPEC` reports it.
//!
//! For `N` pairs, `dᵢ = (aᵢ − bᵢ)/2` is pair `i`'s difference in mean score
//! per game (A's pair score less the baseline's), with mean `d̄ = s_A − s_B`
//! and population variance `σ²`:
//!
//! - the score difference is `d̄ ± z·σ/√N` (normal approximation, pairs
//!   independent);
//! - the Elo difference is `elo(s_A) − elo(s_B)`, and its interval the image
//!   of the score difference's at the baseline's score:
//!   `elo(s_B + d̄ ± z·σ/√N) − elo(s_B)` (a bound at or beyond 0 or 1 maps
//!   to ∓∞);
//! - LOS is `Φ(d̄ / (σ/√N))`, the chance that A truly scores more.
//!
//! When every pair has the same difference (for instance when the two
//! matches are identical) the observed variance is 0 and the normal
//! approximation knows nothing about the spread: the intervals are then
//! unbounded and LOS is `None`, as in [`pentanomial`](crate::pentanomial).
//!
//! ```
//! use strength::paired::PairedComparison;
//!
//! // Pair scores (0 to 2) of A and of the baseline against the same
//! // opponent; they part in two pairs of ten, both times in A's favour.
//! let a = [2.0, 2.0, 1.5, 2.0, 2.0, 2.0, 1.0, 2.0, 2.0, 2.0];
//! let b = [2.0, 2.0, 1.0, 2.0, 2.0, 2.0, 0.0, 2.0, 2.0, 2.0];
//! let c = PairedComparison::new(&a, &b)?;
//! assert_eq!(c.differing, 2);
//! assert!((c.score.value - 0.075).abs() < 1e-12);
//! assert!(c.elo.value > 0.0 && c.elo.low < c.elo.value);
//! # Ok::<(), strength::paired::PairedError>(())
//! ```

use crate::elo::{Estimate, normal_cdf, score_to_elo, two_sided_z};

/// Why two matches cannot be compared pair by pair.
#[derive(Debug, Clone, PartialEq)]
pub enum PairedError {
    /// No pairs.
    Empty,
    /// The matches have different numbers of pairs.
    Mismatch {
        /// Pairs of A's match.
        a: usize,
        /// Pairs of the baseline's match.
        b: usize,
    },
    /// A pair score outside `0..=2` or not a number.
    BadScore(f64),
}

impl std::fmt::Display for PairedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairedError::Empty => write!(f, "no pairs to compare"),
            PairedError::Mismatch { a, b } => {
                write!(f, "the matches have {a} and {b} pairs: they must be played on the same pairs")
            }
            PairedError::BadScore(s) => write!(f, "a pair score must be within 0..=2, got {s}"),
        }
    }
}

impl std::error::Error for PairedError {}

/// A against a baseline, pair by pair (see the [module](self) docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedComparison {
    /// Pairs compared.
    pub pairs: usize,
    /// Pairs whose scores differ.
    pub differing: usize,
    /// A's mean score per game.
    pub score_a: f64,
    /// The baseline's mean score per game.
    pub score_b: f64,
    /// `s_A − s_B` with its 95% interval.
    pub score: Estimate,
    /// `elo(s_A) − elo(s_B)` with its 95% interval.
    pub elo: Estimate,
    /// The likelihood that A scores more than the baseline (`None` when
    /// every pair has the same difference).
    pub los: Option<f64>,
}

impl PairedComparison {
    /// Compares pair scores (each 0 to 2, A's and the baseline's against
    /// the same opponent, pair `i` of both from the same opening and seed)
    /// at 95% confidence.
    pub fn new(a: &[f64], b: &[f64]) -> Result<Self, PairedError> {
        Self::at(a, b, 0.95)
    }

    /// [`new`](Self::new) at another confidence level (in `(0, 1)`).
    pub fn at(a: &[f64], b: &[f64], confidence: f64) -> Result<Self, PairedError> {
        if a.len() != b.len() {
            return Err(PairedError::Mismatch { a: a.len(), b: b.len() });
        }
        if a.is_empty() {
            return Err(PairedError::Empty);
        }
        if let Some(&s) = a.iter().chain(b).find(|s| !(0.0..=2.0).contains(*s)) {
            return Err(PairedError::BadScore(s));
        }
        let n = a.len() as f64;
        let score_a = a.iter().sum::<f64>() / (2.0 * n);
        let score_b = b.iter().sum::<f64>() / (2.0 * n);
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| (x - y) / 2.0).collect();
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        // A baseline that scored 0 or 1 sits at ∓∞ Elo: the same score is
        // no difference, any other an infinite one (never ∞ − ∞).
        let base = score_to_elo(score_b);
        let elo_at = |delta: f64| {
            let e = score_to_elo(score_b + delta);
            if e == base { 0.0 } else { e - base }
        };
        let elo_value = elo_at(mean);
        let (score, elo, los) = if se > 0.0 {
            let half = two_sided_z(confidence) * se;
            let (lo, hi) = (mean - half, mean + half);
            (
                Estimate { value: mean, low: lo, high: hi },
                Estimate { value: elo_value, low: elo_at(lo), high: elo_at(hi) },
                Some(normal_cdf(mean / se)),
            )
        } else {
            let unknown = |value| Estimate { value, low: f64::NEG_INFINITY, high: f64::INFINITY };
            (unknown(mean), unknown(elo_value), None)
        };
        Ok(PairedComparison {
            pairs: a.len(),
            differing: d.iter().filter(|x| **x != 0.0).count(),
            score_a,
            score_b,
            score,
            elo,
            los,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_matches_differ_by_nothing_and_say_so() {
        let a = [2.0, 1.0, 0.5, 2.0];
        let c = PairedComparison::new(&a, &a).unwrap();
        assert_eq!((c.differing, c.score.value, c.elo.value, c.los), (0, 0.0, 0.0, None));
        assert!(c.score.low.is_infinite() && c.elo.high.is_infinite());
    }

    #[test]
    fn the_interval_is_the_paired_t_interval_of_the_differences() {
        // Differences per game: 0.25, 0, 0.5, −0.25 (mean 0.125).
        let a = [2.0, 1.0, 2.0, 0.5];
        let b = [1.5, 1.0, 1.0, 1.0];
        let c = PairedComparison::new(&a, &b).unwrap();
        let d = [0.25, 0.0, 0.5, -0.25];
        let mean: f64 = d.iter().sum::<f64>() / 4.0;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 4.0;
        let half = 1.959_963_984_540_054 * (var / 4.0).sqrt();
        assert!((c.score.value - mean).abs() < 1e-12);
        assert!((c.score.low - (mean - half)).abs() < 1e-9 && (c.score.high - (mean + half)).abs() < 1e-9);
        let base = score_to_elo(c.score_b);
        assert!((c.elo.high - (score_to_elo(c.score_b + mean + half) - base)).abs() < 1e-9);
        assert!((c.elo.value - (score_to_elo(0.6875) - score_to_elo(0.5625))).abs() < 1e-9);
        assert_eq!(c.differing, 3);
        assert!(c.los.unwrap() > 0.5);
    }

    /// Simulated pairs of a common opponent where the two agents part with
    /// a known effect: the interval covers the true score difference about
    /// 95% of the time (400 simulated comparisons, fixed seed).
    #[test]
    fn the_interval_covers_a_known_difference() {
        use rand::Rng;
        let mut rng = search_core::rng::seeded(17);
        let (mut covered, runs) = (0, 400);
        // A game goes the same way for both agents unless they part (10% of
        // games); then A wins with 0.7, the baseline with 0.4.
        let truth = 0.1 * (0.7 - 0.4);
        for _ in 0..runs {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for _ in 0..300 {
                let (mut x, mut y) = (0.0, 0.0);
                for _ in 0..2 {
                    if rng.random_bool(0.1) {
                        x += f64::from(u8::from(rng.random_bool(0.7)));
                        y += f64::from(u8::from(rng.random_bool(0.4)));
                    } else {
                        let s = f64::from(u8::from(rng.random_bool(0.8)));
                        x += s;
                        y += s;
                    }
                }
                a.push(x);
                b.push(y);
            }
            covered += u32::from(PairedComparison::new(&a, &b).unwrap().score.contains(truth));
        }
        let rate = f64::from(covered) / f64::from(runs);
        assert!((0.92..=0.98).contains(&rate), "coverage {rate}");
    }

    #[test]
    fn a_baseline_that_won_everything_gives_no_nan() {
        let all = [2.0; 4];
        let c = PairedComparison::new(&all, &all).unwrap();
        assert_eq!(c.elo.value, 0.0);
        let c = PairedComparison::new(&[2.0, 1.5, 2.0, 2.0], &all).unwrap();
        assert_eq!(c.elo.value, f64::NEG_INFINITY);
        assert!(![c.elo.value, c.elo.low, c.elo.high].iter().any(|x| x.is_nan()), "{c:?}");
        assert!(c.elo.high <= 0.0, "{c:?}");
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(PairedComparison::new(&[], &[]), Err(PairedError::Empty));
        assert_eq!(PairedComparison::new(&[1.0], &[1.0, 2.0]), Err(PairedError::Mismatch { a: 1, b: 2 }));
        assert_eq!(PairedComparison::new(&[2.5], &[1.0]), Err(PairedError::BadScore(2.5)));
        assert!(matches!(PairedComparison::new(&[f64::NAN], &[1.0]), Err(PairedError::BadScore(_))));
    }
}
