//! How far fitted ratings miss the results they were fitted to, and the
//! model error a prediction should carry because of it.
//!
//! A rating fit ([`crate::rating`]) assumes that one number per player
//! explains every pairing: the expected score of `a` against `b` depends on
//! `r_a − r_b` alone. Real players can break that (a deeper search may beat
//! shallower players by more than their ratings say), and the intervals of a
//! fit, taken from its likelihood's curvature, say nothing about it: they
//! assume the model holds. This module measures it.
//!
//! - **Pearson's χ²** over the matchups: `Σ (observed − predicted)² / v`,
//!   with `v` the model's sampling variance of the matchup's mean score
//!   (one game's variance ÷ games), on `matchups − fitted ratings` degrees
//!   of freedom. If the model holds, χ² ≈ dof; its p-value is the chance of a
//!   χ² at least this large.
//! - **The model error τ** (in Elo): the spread of the true rating
//!   differences around the fitted ones that makes χ² equal to its degrees of
//!   freedom when each matchup's variance is widened to `v + (s·τ)²`, `s`
//!   the slope of the expected score in Elo at the prediction (the
//!   method-of-moments estimate of a random-effects model, as used to pool
//!   studies that disagree by more than chance). τ = 0 when χ² ≤ dof.
//!
//! A prediction between two rated players then has the variance
//! `s²·(σ_a² + σ_b² + τ²)` plus its games' sampling variance, not the first
//! two terms alone.
//!
//! ```
//! use strength::misfit::misfit;
//! use strength::rating::{fit, FitOptions, PairResult};
//!
//! // Three players, results that one rating each explains exactly
//! // (0 beats 1 as 1 beats 2 and as 0 beats 2 by the product of odds)...
//! let exact = [
//!     PairResult::new(0, 1, 200.0, 0.0, 100.0),
//!     PairResult::new(1, 2, 200.0, 0.0, 100.0),
//!     PairResult::new(0, 2, 400.0, 0.0, 100.0),
//! ];
//! let m = misfit(&fit(3, &exact, &FitOptions::new())?, &exact)?;
//! assert!(m.chi2 < 1e-6 && m.model_error == 0.0 && m.dof == 1);
//! // ...and results no ratings explain (a cycle).
//! let cycle = [
//!     PairResult::new(0, 1, 200.0, 0.0, 100.0),
//!     PairResult::new(1, 2, 200.0, 0.0, 100.0),
//!     PairResult::new(2, 0, 200.0, 0.0, 100.0),
//! ];
//! let m = misfit(&fit(3, &cycle, &FitOptions::new())?, &cycle)?;
//! assert!(m.p_value < 1e-6 && m.model_error > 100.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::elo::chi_square_survival;
use crate::rating::{PairResult, RatingError, Ratings, Results, davidson};

/// How far fitted ratings miss their own results (see the
/// [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Misfit {
    /// Pairings with at least one game.
    pub matchups: usize,
    /// Pearson's χ² of the matchups' mean scores.
    pub chi2: f64,
    /// Degrees of freedom: matchups minus the ratings fitted (ν, which
    /// shapes the draw rate rather than the score, takes none).
    pub dof: usize,
    /// The chance of a χ² this large or larger if the model held.
    pub p_value: f64,
    /// The model error τ, in Elo (0 when χ² ≤ dof).
    pub model_error: f64,
}

impl Misfit {
    /// χ² per degree of freedom (about 1 when the model holds).
    pub fn dispersion(&self) -> f64 {
        self.chi2 / self.dof as f64
    }
}

/// One matchup's residual: how far its mean score lies from the ratings'
/// prediction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Residual {
    /// The first player.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// `a`'s mean score.
    pub observed: f64,
    /// `a`'s expected score from the ratings.
    pub predicted: f64,
    /// The model's sampling variance of the mean score.
    pub variance: f64,
    /// The slope of the expected score per Elo at the prediction.
    pub slope: f64,
}

impl Residual {
    /// The Pearson residual `(observed − predicted)/√variance` (0 when the
    /// model makes the outcome certain).
    pub fn z(&self) -> f64 {
        if self.variance > 0.0 { (self.observed - self.predicted) / self.variance.sqrt() } else { 0.0 }
    }
}

/// Every matchup's residual under `ratings`, for the results they were
/// fitted to (pairs naming the same two players are added together; pairs
/// without games are left out).
pub fn residuals(ratings: &Ratings, pairs: &[PairResult]) -> Result<Vec<Residual>, MisfitError> {
    let needed = pairs.iter().map(|p| p.a.max(p.b) + 1).max().unwrap_or(0);
    if needed > ratings.len() {
        return Err(MisfitError::PlayerCount { ratings: ratings.len(), results: needed });
    }
    let results = Results::from_pairs(ratings.len(), pairs)?;
    let nu = ratings.draw_nu();
    Ok(results
        .pairs()
        .iter()
        .filter(|p| p.games() > 0.0)
        .map(|p| {
            let diff = ratings.effective_difference(p.a, p.b);
            let predicted = davidson(diff, nu);
            Residual {
                a: p.a,
                b: p.b,
                games: p.games(),
                observed: p.points_a() / p.games(),
                predicted: predicted.score,
                variance: predicted.game_variance() / p.games(),
                slope: (davidson(diff + 0.5, nu).score - davidson(diff - 0.5, nu).score).abs(),
            }
        })
        .collect())
}

/// Why a misfit could not be measured.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MisfitError {
    /// The results are not ones the ratings could hold (a player out of
    /// range, a bad count).
    #[error(transparent)]
    Results(#[from] RatingError),
    /// No more matchups than the fitted ratings: the results cannot
    /// show a misfit.
    #[error("{matchups} matchups for {parameters} fitted ratings: no degree of freedom is left to test the model")]
    NoDegreesOfFreedom {
        /// Pairings with games.
        matchups: usize,
        /// Ratings fitted.
        parameters: usize,
    },
    /// The ratings were fitted to a different number of players.
    #[error("the ratings are for {ratings} players, the results for {results}")]
    PlayerCount {
        /// Players in the ratings.
        ratings: usize,
        /// Players the results name.
        results: usize,
    },
}

/// The misfit of `ratings` to `pairs`, the results they were fitted to
/// (pairs naming the same two players are added together).
pub fn misfit(ratings: &Ratings, pairs: &[PairResult]) -> Result<Misfit, MisfitError> {
    // (residual², sampling variance, slope) per matchup.
    let terms: Vec<(f64, f64, f64)> =
        residuals(ratings, pairs)?.iter().map(|r| ((r.observed - r.predicted).powi(2), r.variance, r.slope)).collect();
    // The ratings not fixed by an anchor. ν shapes the draw rate, hardly
    // the expected score, so it takes no degree of freedom from the scores.
    // A fitted self-play scale takes one.
    let parameters = ratings.players().iter().filter(|p| !p.anchored).count()
        + usize::from(ratings.self_play_scale().is_some_and(|k| k.fitted));
    if terms.len() <= parameters {
        return Err(MisfitError::NoDegreesOfFreedom { matchups: terms.len(), parameters });
    }
    let dof = terms.len() - parameters;
    let statistic = |tau: f64| -> f64 {
        terms
            .iter()
            .map(|&(r2, v, s)| {
                let total = v + (s * tau).powi(2);
                // A certain outcome predicted and seen: no information.
                if total > 0.0 { r2 / total } else { 0.0 }
            })
            .sum()
    };
    let chi2 = statistic(0.0);
    let model_error = if chi2 <= dof as f64 {
        0.0
    } else {
        // The statistic falls monotonically in τ: bisect on a bracket that
        // grows until it holds the root.
        let target = dof as f64;
        let mut high = 1.0;
        while statistic(high) > target && high < 1e6 {
            high *= 2.0;
        }
        let mut low = 0.0;
        for _ in 0..100 {
            let mid = 0.5 * (low + high);
            if statistic(mid) > target {
                low = mid;
            } else {
                high = mid;
            }
        }
        0.5 * (low + high)
    };
    Ok(Misfit { matchups: terms.len(), chi2, dof, p_value: chi_square_survival(chi2, dof), model_error })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::{FitOptions, fit};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Simulated round robins among players of known ratings, with each
    /// pairing's true difference moved by a normal error of `tau` Elo.
    fn tournament(rng: &mut Pcg64, truth: &[f64], games: u32, tau: f64) -> Vec<PairResult> {
        let mut pairs = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let shift = tau * crate::elo::normal_quantile(rng.random_range(1e-9..1.0 - 1e-9));
                let p = davidson(truth[a] - truth[b] + shift, 0.3);
                let (mut w, mut d, mut l) = (0.0, 0.0, 0.0);
                for _ in 0..games {
                    let u: f64 = rng.random();
                    if u < p.win {
                        w += 1.0;
                    } else if u < p.win + p.draw {
                        d += 1.0;
                    } else {
                        l += 1.0;
                    }
                }
                pairs.push(PairResult::new(a, b, w, d, l));
            }
        }
        pairs
    }

    #[test]
    fn a_model_that_holds_passes_about_as_often_as_it_should() {
        // 2000 tournaments of seven players: the p-value is uniform when the
        // model holds, so about 5% fall below 0.05, and τ is 0 about as
        // often as χ² ≤ dof.
        let truth = [0.0, 80.0, 150.0, 260.0, 300.0, 420.0, 510.0];
        let mut rng = Pcg64::seed_from_u64(7);
        let (mut rejected, mut zero_tau, mut chi2_sum) = (0, 0, 0.0);
        let trials = 2000;
        for _ in 0..trials {
            let pairs = tournament(&mut rng, &truth, 200, 0.0);
            let r = fit(truth.len(), &pairs, &FitOptions::new()).unwrap();
            let m = misfit(&r, &pairs).unwrap();
            assert_eq!(m.matchups, 21);
            // Six free ratings (ν shapes draws, not scores).
            assert_eq!(m.dof, 21 - 6);
            rejected += usize::from(m.p_value < 0.05);
            zero_tau += usize::from(m.model_error == 0.0);
            chi2_sum += m.chi2;
        }
        // Binomial(2000, 0.05): mean 100, sd 9.7.
        assert!((70..=130).contains(&rejected), "{rejected} of {trials} rejected");
        // P(χ²₁₅ ≤ 15) ≈ 0.55: τ is 0 in about 1100 of 2000 (sd 22).
        assert!((1000..=1200).contains(&zero_tau), "τ = 0 in {zero_tau}");
        // The mean of 2000 χ²₁₅ has sd √(30/2000) ≈ 0.12.
        let mean = chi2_sum / trials as f64;
        assert!((mean - 15.0).abs() < 0.5, "mean χ² {mean}, expected about 15");
    }

    #[test]
    fn the_model_error_is_recovered() {
        // Pairings whose true differences scatter by 60 Elo around one
        // rating each: the estimate comes back near 60, and far from 0.
        let truth = [0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0];
        let mut rng = Pcg64::seed_from_u64(11);
        let mut estimates = Vec::new();
        for _ in 0..40 {
            let pairs = tournament(&mut rng, &truth, 2000, 60.0);
            let r = fit(truth.len(), &pairs, &FitOptions::new()).unwrap();
            let m = misfit(&r, &pairs).unwrap();
            assert!(m.p_value < 1e-3, "a 60-Elo scatter at 2000 games is plain: p = {}", m.p_value);
            estimates.push(m.model_error);
        }
        estimates.sort_by(f64::total_cmp);
        let median = estimates[estimates.len() / 2];
        assert!((45.0..75.0).contains(&median), "median τ {median}, truth 60");
    }

    #[test]
    fn bad_input_is_an_error() {
        let pairs = [PairResult::new(0, 1, 5.0, 0.0, 5.0)];
        let r = fit(2, &pairs, &FitOptions::new()).unwrap();
        assert!(matches!(misfit(&r, &pairs), Err(MisfitError::NoDegreesOfFreedom { matchups: 1, parameters: 1 })));
        let far = [PairResult::new(0, 3, 5.0, 0.0, 5.0)];
        assert!(matches!(misfit(&r, &far), Err(MisfitError::PlayerCount { ratings: 2, results: 4 })));
    }
}
