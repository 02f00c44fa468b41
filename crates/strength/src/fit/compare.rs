//! Comparing fitted models: AIC, Akaike weights, likelihood-ratio tests.

use serde::{Deserialize, Serialize};

use super::{Fit, FitError, Model};
use crate::elo::erfc;

/// One fit's standing in a [`Comparison`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonEntry {
    /// The family.
    pub model: Model,
    /// Whether it has a slip rate.
    pub slip: bool,
    /// Free parameters `k`.
    pub params: usize,
    /// The maximized log-likelihood.
    pub loglik: f64,
    /// `2k − 2ℓ`.
    pub aic: f64,
    /// AIC minus the smallest AIC of the comparison (0 for the best).
    pub delta_aic: f64,
    /// The Akaike weight `exp(−Δᵢ/2) / Σⱼ exp(−Δⱼ/2)`: the weight of
    /// evidence for this model among those compared (they sum to 1).
    pub weight: f64,
}

/// The likelihood-ratio test of a family without a slip (the null) against
/// the same family with one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedTest {
    /// The family.
    pub model: Model,
    /// The index of the fit without a slip.
    pub without: usize,
    /// The index of the fit with a slip.
    pub with: usize,
    /// `2 (ℓ_with − ℓ_without)`, at least 0.
    pub statistic: f64,
    /// `P(χ²₁ ≥ statistic)`. The null (slip 0) is on the boundary of the
    /// slip's domain, where the statistic's null distribution is the
    /// mixture `½χ²₀ + ½χ²₁`: this p-value is conservative, twice that
    /// mixture's.
    pub p_value: f64,
}

/// Fits of one data set compared.
///
/// - Every fit gets its AIC, its difference from the smallest and its
///   Akaike weight ([`ComparisonEntry`]); [`best`](Self::best) has the
///   smallest AIC. This is the comparison for different families, which
///   are not nested: a difference of 2 or less is weak evidence, above 10
///   strong.
/// - A family fitted both with and without a slip is a nested pair: the
///   likelihood-ratio test ([`NestedTest`]) says whether the slip is needed.
///
/// ```
/// use strength::fit::{Decision, FitOptions, Model, compare, fit};
/// let d: Vec<Decision> =
///     (0..60).map(|i| Decision::new(vec![2.0, 1.0, 0.0], [0, 0, 0, 1, 0, 2][i % 6])).collect();
/// let fits = [
///     fit(&d, Model::Boltzmann, FitOptions::default())?,
///     fit(&d, Model::EpsilonGreedy, FitOptions::default())?,
///     fit(&d, Model::Boltzmann, FitOptions::default().with_slip())?,
/// ];
/// let c = compare(&fits)?;
/// assert_eq!(c.entries.len(), 3);
/// assert!((c.entries.iter().map(|e| e.weight).sum::<f64>() - 1.0).abs() < 1e-12);
/// assert_eq!(c.entries[c.best].delta_aic, 0.0);
/// assert_eq!((c.nested[0].without, c.nested[0].with), (0, 2));
/// # Ok::<(), strength::fit::FitError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// One entry per fit, in the order given.
    pub entries: Vec<ComparisonEntry>,
    /// The index of the fit with the smallest AIC (the first of equals).
    pub best: usize,
    /// The likelihood-ratio test of every nested pair.
    pub nested: Vec<NestedTest>,
}

/// Compares fits of the same decisions (see [`Comparison`]).
///
/// Errors: no fits, or fits of different decisions or caps.
pub fn compare(fits: &[Fit]) -> Result<Comparison, FitError> {
    let first = fits.first().ok_or(FitError::NoFits)?;
    if fits.iter().any(|f| f.data != first.data || f.moves != first.moves || f.uninformative != first.uninformative) {
        return Err(FitError::DifferentData);
    }
    let best = (0..fits.len()).fold(0, |b, i| if fits[i].aic < fits[b].aic { i } else { b });
    let min = fits[best].aic;
    let total: f64 = fits.iter().map(|f| (-(f.aic - min) / 2.0).exp()).sum();
    let entries = fits
        .iter()
        .map(|f| ComparisonEntry {
            model: f.model,
            slip: f.slip.is_some(),
            params: f.params(),
            loglik: f.loglik,
            aic: f.aic,
            delta_aic: f.aic - min,
            weight: (-(f.aic - min) / 2.0).exp() / total,
        })
        .collect();
    let mut nested = Vec::new();
    for (i, a) in fits.iter().enumerate() {
        for (j, b) in fits.iter().enumerate() {
            if a.model == b.model && a.slip.is_none() && b.slip.is_some() {
                let statistic = (2.0 * (b.loglik - a.loglik)).max(0.0);
                nested.push(NestedTest {
                    model: a.model,
                    without: i,
                    with: j,
                    statistic,
                    p_value: erfc((statistic / 2.0).sqrt()),
                });
            }
        }
    }
    Ok(Comparison { entries, best, nested })
}
