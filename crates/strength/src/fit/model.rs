//! The models of a player: move distributions given the moves' values.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::FitError;
use super::normal::ln_noise_probability;

/// A family of move distributions over the legal moves, given each move's
/// value from the mover's side (larger is better), with one parameter.
///
/// | family | parameter | domain | random play | perfect play |
/// |---|---|---|---|---|
/// | [`Boltzmann`](Model::Boltzmann) | θ | `[0, +∞]` | θ = 0 | θ = +∞ |
/// | [`EpsilonGreedy`](Model::EpsilonGreedy) | ε | `[0, 1]` | (none) | ε = 1 |
/// | [`Noise`](Model::Noise) | S | `[0, +∞]` | S = +∞ | S = 0 |
///
/// "Optimal" moves are those whose value equals the maximum exactly; at
/// perfect play they share the probability equally.
///
/// ```
/// use strength::fit::Model;
/// let v = [1.0, 3.0, 3.0, 0.0];
/// assert_eq!(Model::EpsilonGreedy.probabilities(&v, 0.75)?, [0.125, 0.375, 0.375, 0.125]);
/// assert_eq!(Model::Boltzmann.probabilities(&v, f64::INFINITY)?, [0.0, 0.5, 0.5, 0.0]);
/// assert_eq!(Model::Noise.probabilities(&v, 0.0)?, [0.0, 0.5, 0.5, 0.0]);
/// let p = Model::Noise.probabilities(&v, 1.0)?;
/// assert!(p[1] == p[2] && p[1] > p[0] && p[0] > p[3]);
/// assert!(Model::Boltzmann.probabilities(&v, -1.0).is_err());
/// # Ok::<(), strength::fit::FitError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Model {
    /// Boltzmann (softmax) play, `pᵢ ∝ exp(θ vᵢ)`: the library's
    /// `Softmax` (θ an inverse temperature, in inverse value units).
    Boltzmann,
    /// ε-greedy as in the Rminimax paper: the `n` optimal moves share
    /// probability ε (ε/n each), the `m` others share `1 − ε` (`(1 − ε)/m`
    /// each); when every move is optimal each gets `1/n`. ε is the
    /// probability of playing an optimal move, not of exploring.
    EpsilonGreedy,
    /// Reibman and Ballard's noisy evaluation: every move's value gets
    /// independent `N(0, S²)` noise and the player plays the largest (S in
    /// value units; ties at S = 0 share).
    Noise,
}

impl Model {
    /// Every family, in a fixed order.
    pub const ALL: [Model; 3] = [Model::Boltzmann, Model::EpsilonGreedy, Model::Noise];

    /// A short name: `boltzmann`, `epsilon-greedy`, `noise`.
    pub fn name(self) -> &'static str {
        match self {
            Model::Boltzmann => "boltzmann",
            Model::EpsilonGreedy => "epsilon-greedy",
            Model::Noise => "noise",
        }
    }

    /// The parameter's name: `theta`, `epsilon`, `noise`.
    pub fn parameter(self) -> &'static str {
        match self {
            Model::Boltzmann => "theta",
            Model::EpsilonGreedy => "epsilon",
            Model::Noise => "noise",
        }
    }

    /// The parameter's domain (closed; an end may be `+∞`).
    pub fn domain(self) -> (f64, f64) {
        match self {
            Model::Boltzmann | Model::Noise => (0.0, f64::INFINITY),
            Model::EpsilonGreedy => (0.0, 1.0),
        }
    }

    /// Each move's probability under this model with parameter `param`.
    ///
    /// For [`Noise`](Model::Noise) each probability is a quadrature (see
    /// the [module documentation](super)); here they are also normalized to
    /// sum to 1.
    ///
    /// Errors: a value that is NaN or infinite
    /// ([`BadValue`](FitError::BadValue), with decision 0), no moves, or
    /// `param` outside the [`domain`](Self::domain).
    pub fn probabilities(self, values: &[f64], param: f64) -> Result<Vec<f64>, FitError> {
        self.check(param)?;
        if values.is_empty() {
            return Err(FitError::NoMoves);
        }
        if let Some(&v) = values.iter().find(|v| !v.is_finite()) {
            return Err(FitError::BadValue { decision: 0, value: v });
        }
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let n = values.len() as f64;
        let optimal = values.iter().filter(|&&v| v == best).count() as f64;
        let greedy = || values.iter().map(|&v| if v == best { 1.0 / optimal } else { 0.0 }).collect();
        let mut p: Vec<f64> = match self {
            Model::Boltzmann if param.is_infinite() => greedy(),
            // The best move's term is exp(0) = 1: no overflow.
            Model::Boltzmann => values.iter().map(|&v| (param * (v - best)).exp()).collect(),
            Model::EpsilonGreedy if optimal == n => vec![1.0 / n; values.len()],
            Model::EpsilonGreedy => {
                let (opt, other) = (param / optimal, (1.0 - param) / (n - optimal));
                values.iter().map(|&v| if v == best { opt } else { other }).collect()
            }
            Model::Noise if param == 0.0 => greedy(),
            Model::Noise if param.is_infinite() => vec![1.0 / n; values.len()],
            Model::Noise => (0..values.len())
                .map(|c| {
                    let a: Vec<f64> =
                        (0..values.len()).filter(|&j| j != c).map(|j| (values[c] - values[j]) / param).collect();
                    ln_noise_probability(&a).exp()
                })
                .collect(),
        };
        let total: f64 = p.iter().sum();
        if total != 1.0 {
            p.iter_mut().for_each(|x| *x /= total);
        }
        Ok(p)
    }

    /// Errors unless `param` is in the domain.
    pub(crate) fn check(self, param: f64) -> Result<f64, FitError> {
        let (lo, hi) = self.domain();
        if param >= lo && param <= hi { Ok(param) } else { Err(FitError::BadParameter { model: self, value: param }) }
    }

    /// The parameter at `u ∈ [0, 1]` of the fitting axis: `ε = u`;
    /// `θ = (u / (1 − u)) / scale`; `S = scale · u / (1 − u)`, where `scale`
    /// is a typical gap between values (so `θ · scale` and `S / scale` are
    /// dimensionless). `u` increases with the parameter.
    pub(crate) fn param_at(self, u: f64, scale: f64) -> f64 {
        let odds = if u >= 1.0 { f64::INFINITY } else { u / (1.0 - u) };
        match self {
            Model::Boltzmann => odds / scale,
            Model::EpsilonGreedy => u,
            Model::Noise => odds * scale,
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An informative decision, up to what every model looks at: the chosen
/// move's gap below the best value, the other moves' gaps (sorted), and how
/// many such decisions there were.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Situation {
    /// `max v − v_chosen` (0 when the chosen move is optimal).
    pub(crate) chosen: f64,
    /// `max v − vⱼ` for the other moves, increasing.
    pub(crate) others: Vec<f64>,
    /// Moves in all.
    pub(crate) moves: usize,
    /// Optimal moves (gap exactly 0).
    pub(crate) optimal: usize,
    /// How many decisions share it.
    pub(crate) weight: f64,
}

impl Situation {
    pub(crate) fn new(chosen: f64, mut others: Vec<f64>, weight: f64) -> Self {
        others.sort_by(f64::total_cmp);
        let optimal = usize::from(chosen == 0.0) + others.iter().filter(|&&g| g == 0.0).count();
        Situation { chosen, moves: others.len() + 1, others, optimal, weight }
    }

    /// `ln P(the chosen move)` under `model` at axis position `u` (see
    /// [`Model::param_at`]); `buf` is scratch space.
    pub(crate) fn ln_p(&self, model: Model, u: f64, scale: f64, buf: &mut Vec<f64>) -> f64 {
        let n = self.moves as f64;
        let is_optimal = self.chosen == 0.0;
        let perfect = || if is_optimal { -(self.optimal as f64).ln() } else { f64::NEG_INFINITY };
        match model {
            Model::Boltzmann => {
                let theta = model.param_at(u, scale);
                if theta == 0.0 {
                    -n.ln()
                } else if theta.is_infinite() {
                    perfect()
                } else {
                    // The best move's term is exp(0) = 1: no overflow.
                    let sum: f64 =
                        self.others.iter().map(|&g| (-theta * g).exp()).sum::<f64>() + (-theta * self.chosen).exp();
                    -theta * self.chosen - sum.ln()
                }
            }
            Model::EpsilonGreedy => {
                let m = self.moves - self.optimal;
                if m == 0 {
                    -(self.optimal as f64).ln()
                } else if is_optimal {
                    u.ln() - (self.optimal as f64).ln()
                } else {
                    (1.0 - u).ln() - (m as f64).ln()
                }
            }
            Model::Noise => {
                let s = model.param_at(u, scale);
                if s == 0.0 {
                    perfect()
                } else if s.is_infinite() {
                    -n.ln()
                } else {
                    buf.clear();
                    // (v_c − vⱼ)/S = (gapⱼ − gap_c)/S; ties give exactly 0.
                    buf.extend(self.others.iter().map(|&g| (g - self.chosen) / s));
                    ln_noise_probability(buf)
                }
            }
        }
    }
}
