//! Estimating a player's model from their moves.
//!
//! A [`Decision`] is one move a player made: every legal move's value from
//! the mover's side (larger is better, e.g. a search's root scores) and the
//! index of the move played. [`fit`] finds, for one [`Model`] family, the
//! maximum-likelihood parameter from a list of decisions:
//!
//! - [`Model::Boltzmann`]: `p ∝ exp(θ v)`, θ ∈ `[0, +∞]` (0 is uniform
//!   random play, +∞ always an optimal move);
//! - [`Model::EpsilonGreedy`]: the optimal moves share ε, the others `1 − ε`
//!   (the Rminimax paper's convention), ε ∈ `[0, 1]`;
//! - [`Model::Noise`]: every value gets independent `N(0, S²)` noise and the
//!   largest is played (Reibman and Ballard), S ∈ `[0, +∞]` (0 is perfect
//!   play, +∞ uniform random play).
//!
//! Optionally ([`FitOptions::slip`]) the player also *slips*: with
//! probability λ it plays a uniformly random move instead,
//! `p' = (1 − λ) p + λ/n`; λ is then fitted too.
//!
//! **The interval** ([`Fit::ci95`]) is the profile-likelihood 95% interval,
//! not a normal approximation: the parameters `p` with `2 (ℓ(p̂) − ℓ(p)) ≤
//! 3.841` (`χ²₁`'s 95% quantile), the log-likelihood `ℓ` maximized over the
//! slip at each `p` when there is one. The likelihood is often flat on one
//! side: a player who never missed the best move has θ̂ = +∞ and an
//! interval `[lower, +∞]`, reported as `(Some(lower), None)`. An end is
//! `None` (open) whenever the interval reaches the end of the parameter's
//! domain (θ = 0 or +∞, ε = 0 or 1, S = 0 or +∞).
//!
//! **Uninformative decisions** (every move of the same value, a single
//! legal move included) have the same probability under every model and
//! parameter; they are counted ([`Fit::uninformative`]), not used, and left
//! out of [`Fit::loglik`].
//!
//! **Cap.** [`FitOptions::cap`] clamps every value to `[−cap, cap]` before
//! fitting, as the dial's Boltzmann players do (`boltzmann:depth=4,cap=100,
//! theta=0.03`): fitted with the same cap (and values from a search of the
//! same depth and evaluator), θ is comparable to the dial's, and
//! [`map_to_dial`] turns it into a rating. Values equal after capping are
//! ties.
//!
//! **Comparing models** ([`compare`]): AIC, Akaike weights, and for a
//! family fitted with and without a slip the likelihood-ratio test.
//!
//! **How it is computed.** Decisions are grouped by what the models see
//! (the chosen move's gap below the best value and the other moves'
//! gaps). The parameter is mapped onto `u ∈ [0, 1]` (`u = ε`; `u = θc/(1 +
//! θc)` and `u = (S/c)/(1 + S/c)`, `c` the median positive gap, so both
//! ends of `[0, +∞]` are points of the axis); the log-likelihood is
//! scanned on 33 points of `u`, refined by Brent's method around the best
//! (the maximum is found to about 1e−8 in `u`), and each end of the
//! interval is found by regula falsi between the last scanned point inside
//! and the first outside. An end of the axis is kept as the maximum unless
//! an interior point beats it by more than rounding. With a slip, the slip
//! is maximized at every `u` (the log-likelihood is concave in it).
//! Boltzmann probabilities are computed as `exp(θ (vᵢ − max v))`; the
//! noisy-evaluation probability `∫ φ(z) Πⱼ Φ((v_c − vⱼ)/S + z) dz` by the
//! trapezoidal rule around the integrand's mode, in log space (so even
//! probabilities below 1e−308 keep their logarithm), accurate to about
//! 1e−13: the probabilities of a position's moves, each computed on its
//! own, sum to 1 within 1e−12, so they are not renormalized.
//!
//! ```
//! use strength::fit::{Decision, FitOptions, Model, fit};
//! // A player who always found the best move of three (ties shared).
//! let decisions: Vec<Decision> =
//!     (0..30).map(|i| Decision::new(vec![0.0, 1.0, (i % 3) as f64 - 1.0], 1)).collect();
//! let f = fit(&decisions, Model::Boltzmann, FitOptions::default())?;
//! assert_eq!(f.param, f64::INFINITY);
//! let (low, high) = f.ci95;
//! assert!(low.unwrap() > 0.0 && high.is_none()); // θ ≥ low, no upper bound
//! assert_eq!((f.moves, f.uninformative), (30, 0));
//! // A single legal move says nothing.
//! let mut more = decisions.clone();
//! more.push(Decision::new(vec![5.0], 0));
//! assert_eq!(fit(&more, Model::Boltzmann, FitOptions::default())?.uninformative, 1);
//! # Ok::<(), strength::fit::FitError>(())
//! ```

use search_core::policy::ScoreCap;
use serde::{Deserialize, Serialize};

mod compare;
mod mapping;
mod model;
mod normal;
mod profile;

pub use compare::{Comparison, ComparisonEntry, NestedTest, compare};
pub use mapping::map_to_dial;
pub use model::Model;

use profile::{Data, Profile};

/// An error of a fit or a comparison.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    /// No decisions at all.
    #[error("no decisions to fit")]
    Empty,
    /// A decision's chosen move is not one of its moves.
    #[error("decision {decision}: chosen move {chosen} out of range (it has {moves} moves)")]
    ChosenOutOfRange {
        /// The decision's index.
        decision: usize,
        /// Its chosen move.
        chosen: usize,
        /// Its number of moves.
        moves: usize,
    },
    /// A value is NaN, or infinite without a [cap](FitOptions::cap), or so
    /// large that differences of values overflow.
    #[error("decision {decision}: value {value} (values must be finite, or capped)")]
    BadValue {
        /// The decision's index.
        decision: usize,
        /// The value.
        value: f64,
    },
    /// A position without moves ([`Model::probabilities`]).
    #[error("a position without moves")]
    NoMoves,
    /// The cap is not a positive finite number.
    #[error("cap {0} must be positive and finite")]
    BadCap(f64),
    /// A parameter outside its model's domain.
    #[error("{model}: parameter {value} outside its domain")]
    BadParameter {
        /// The model.
        model: Model,
        /// The parameter.
        value: f64,
    },
    /// Every decision had moves of equal value: nothing to fit.
    #[error("no informative decision ({uninformative} with all moves of equal value)")]
    NoInformation {
        /// The uninformative decisions.
        uninformative: usize,
    },
    /// [`compare`] was given no fits.
    #[error("no fits to compare")]
    NoFits,
    /// [`compare`] was given fits of different decisions (or caps).
    #[error("the fits were made on different decisions or caps")]
    DifferentData,
}

/// A 95% interval `(low, high)`; `None` is an open end, where the interval
/// reaches the end of the parameter's domain.
pub type Interval = (Option<f64>, Option<f64>);

/// One move made: every legal move's value from the mover's side (larger is
/// better) and the index of the move played.
///
/// ```
/// use strength::fit::Decision;
/// let d = Decision::new(vec![0.5, -1.0, 2.0], 2);
/// assert_eq!(d.values.len(), 3);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// Each legal move's value, from the mover's side.
    pub values: Vec<f64>,
    /// The index of the move played.
    pub chosen: usize,
}

impl Decision {
    /// A decision.
    pub fn new(values: Vec<f64>, chosen: usize) -> Self {
        Decision { values, chosen }
    }
}

/// How to fit.
///
/// ```
/// use strength::fit::FitOptions;
/// let o = FitOptions::default().with_cap(100.0).with_slip();
/// assert_eq!((o.cap, o.slip), (Some(100.0), true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct FitOptions {
    /// Clamp every value to `[−cap, cap]` first (the dial's Boltzmann
    /// players' `cap`); infinite values are then allowed.
    pub cap: Option<f64>,
    /// The cap is soft: values become `cap·tanh(v/cap)` instead of being
    /// clamped (the players' `softcap`, see
    /// [`ScoreCap`]).
    pub soft: bool,
    /// Fit a mixture with a uniformly random slip rate too.
    pub slip: bool,
}

impl FitOptions {
    /// With values clamped to `[−cap, cap]`.
    pub fn with_cap(mut self, cap: f64) -> Self {
        self.cap = Some(cap);
        self.soft = false;
        self
    }

    /// With values bounded by `cap·tanh(v/cap)` (a `softcap` player's).
    pub fn with_soft_cap(mut self, cap: f64) -> Self {
        self.cap = Some(cap);
        self.soft = true;
        self
    }

    /// The cap as the players' [`ScoreCap`].
    ///
    /// Errors: a cap that is not positive and finite.
    pub fn score_cap(&self) -> Result<Option<ScoreCap>, FitError> {
        score_cap(self.cap, self.soft)
    }

    /// With a slip rate.
    pub fn with_slip(mut self) -> Self {
        self.slip = true;
        self
    }
}

/// A fitted model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// The family.
    pub model: Model,
    /// The maximum-likelihood parameter (θ, ε or S); may be `+∞` (θ of a
    /// player who never missed, S of a random player), stored as `"inf"`
    /// in JSON.
    #[serde(with = "param_serde")]
    pub param: f64,
    /// The profile-likelihood 95% interval; `None` is an open end, where
    /// the interval reaches the end of the domain (see
    /// [`Model::domain`] and [`bounds`](Self::bounds)).
    pub ci95: Interval,
    /// The maximized log-likelihood of the informative decisions.
    pub loglik: f64,
    /// Informative decisions used.
    pub moves: usize,
    /// Decisions left out because all their moves had the same value.
    pub uninformative: usize,
    /// The fitted slip rate, with [`FitOptions::slip`].
    pub slip: Option<f64>,
    /// Akaike's information criterion, `2k − 2ℓ` (`k` = [`params`](Self::params)).
    pub aic: f64,
    /// The cap the values were bounded with.
    pub cap: Option<f64>,
    /// Whether that cap was soft (`cap·tanh(v/cap)`).
    pub soft: bool,
    /// A fingerprint of the decisions and cap fitted, so that [`compare`]
    /// can refuse fits of different data.
    pub data: u64,
}

impl Fit {
    /// Free parameters: 1, or 2 with a slip.
    pub fn params(&self) -> usize {
        1 + usize::from(self.slip.is_some())
    }

    /// The interval with open ends replaced by the domain's ends.
    ///
    /// ```
    /// use strength::fit::{Decision, FitOptions, Model, fit};
    /// let d: Vec<Decision> = (0..20).map(|_| Decision::new(vec![1.0, 0.0], 0)).collect();
    /// let f = fit(&d, Model::EpsilonGreedy, FitOptions::default())?;
    /// assert_eq!(f.param, 1.0);
    /// assert_eq!(f.bounds().1, 1.0);
    /// assert!(f.contains(0.95) && !f.contains(0.5));
    /// # Ok::<(), strength::fit::FitError>(())
    /// ```
    pub fn bounds(&self) -> (f64, f64) {
        let (lo, hi) = self.model.domain();
        (self.ci95.0.unwrap_or(lo), self.ci95.1.unwrap_or(hi))
    }

    /// Whether `param` is inside the 95% interval (ends included).
    pub fn contains(&self, param: f64) -> bool {
        let (lo, hi) = self.bounds();
        lo <= param && param <= hi
    }

    /// Each move's probability under the fitted model: the cap applied,
    /// the slip mixed in.
    ///
    /// Errors as [`Model::probabilities`], and on an infinite value without
    /// a cap.
    pub fn probabilities(&self, values: &[f64]) -> Result<Vec<f64>, FitError> {
        let capped: Vec<f64> = match score_cap(self.cap, self.soft)? {
            Some(c) => values.iter().map(|v| if v.is_nan() { *v } else { c.apply(*v) }).collect(),
            None => values.to_vec(),
        };
        let mut p = self.model.probabilities(&capped, self.param)?;
        if let Some(l) = self.slip {
            let r = 1.0 / p.len() as f64;
            p.iter_mut().for_each(|x| *x = (1.0 - l) * *x + l * r);
        }
        Ok(p)
    }
}

/// `param` in JSON: a number, or `"inf"` for `+∞`.
mod param_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
    }

    pub(super) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if *v == f64::INFINITY { Repr::Text("inf".into()) } else { Repr::Number(*v) }.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Repr::deserialize(d)? {
            Repr::Number(v) => Ok(v),
            Repr::Text(t) if t == "inf" => Ok(f64::INFINITY),
            Repr::Text(t) => Err(serde::de::Error::custom(format!("bad parameter {t:?}"))),
        }
    }
}

/// 64-bit FNV-1a, a stable fingerprint.
#[derive(Debug)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, x: u64) {
        for byte in x.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A cap and its kind as a [`ScoreCap`].
fn score_cap(cap: Option<f64>, soft: bool) -> Result<Option<ScoreCap>, FitError> {
    cap.map(|c| if soft { ScoreCap::soft(c) } else { ScoreCap::hard(c) }.map_err(|_| FitError::BadCap(c))).transpose()
}

/// Checks the decisions and groups the informative ones: the data, the
/// number of uninformative decisions, and the fingerprint.
fn prepare(decisions: &[Decision], options: &FitOptions) -> Result<(Data, usize, u64), FitError> {
    let cap = options.score_cap()?;
    if decisions.is_empty() {
        return Err(FitError::Empty);
    }
    let mut hash = Fnv::new();
    hash.add(options.cap.map_or(u64::MAX, f64::to_bits));
    if options.soft {
        hash.add(1);
    }
    let mut rows = Vec::new();
    let mut uninformative = 0;
    for (i, d) in decisions.iter().enumerate() {
        if d.chosen >= d.values.len() {
            return Err(FitError::ChosenOutOfRange { decision: i, chosen: d.chosen, moves: d.values.len() });
        }
        if let Some(&v) = d.values.iter().find(|v| v.is_nan() || (cap.is_none() && v.is_infinite())) {
            return Err(FitError::BadValue { decision: i, value: v });
        }
        hash.add(d.values.len() as u64);
        hash.add(d.chosen as u64);
        d.values.iter().for_each(|v| hash.add(v.to_bits()));
        let values: Vec<f64> = match cap {
            Some(c) => d.values.iter().map(|&v| c.apply(v)).collect(),
            None => d.values.clone(),
        };
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if let Some(&v) = values.iter().find(|&&v| (best - v).is_infinite()) {
            return Err(FitError::BadValue { decision: i, value: v });
        }
        if values.iter().all(|&v| v == best) {
            uninformative += 1;
            continue;
        }
        let others = values.iter().enumerate().filter(|&(j, _)| j != d.chosen).map(|(_, &v)| best - v).collect();
        rows.push((best - values[d.chosen], others));
    }
    if rows.is_empty() {
        return Err(FitError::NoInformation { uninformative });
    }
    Ok((Data::new(rows), uninformative, hash.0))
}

/// Fits `model` to a player's decisions by maximum likelihood, with the
/// profile-likelihood 95% interval (see the [module documentation](self)).
///
/// Errors: no decisions, a chosen index out of range, a NaN value (or an
/// infinite one without a cap), a cap that is not positive and finite, or
/// no informative decision.
///
/// ```
/// use strength::fit::{Decision, FitOptions, Model, fit};
/// // Best move (value 1) 3 times in 4 against one worse move (value 0).
/// let d: Vec<Decision> = (0..40).map(|i| Decision::new(vec![1.0, 0.0], usize::from(i % 4 == 0))).collect();
/// let f = fit(&d, Model::Boltzmann, FitOptions::default())?;
/// // p = e^θ / (e^θ + 1) = 3/4: θ = ln 3.
/// assert!((f.param - 3f64.ln()).abs() < 1e-6);
/// let (low, high) = (f.ci95.0.unwrap(), f.ci95.1.unwrap());
/// assert!(low < f.param && f.param < high);
/// assert!((f.loglik - (30.0 * 0.75f64.ln() + 10.0 * 0.25f64.ln())).abs() < 1e-9);
/// # Ok::<(), strength::fit::FitError>(())
/// ```
pub fn fit(decisions: &[Decision], model: Model, options: FitOptions) -> Result<Fit, FitError> {
    let (data, uninformative, hash) = prepare(decisions, &options)?;
    let moves = data.situations.iter().map(|s| s.weight).sum::<f64>() as usize;
    let est = Profile::new(&data, model, options.slip).estimate();
    let param = |u: f64| model.param_at(u, data.scale);
    let k = 1.0 + f64::from(u8::from(options.slip));
    Ok(Fit {
        model,
        param: param(est.best.u),
        ci95: (est.low.map(param), est.high.map(param)),
        loglik: est.best.loglik,
        moves,
        uninformative,
        slip: options.slip.then_some(est.best.slip),
        aic: 2.0 * k - 2.0 * est.best.loglik,
        cap: options.cap,
        soft: options.soft,
        data: hash,
    })
}
