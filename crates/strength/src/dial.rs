//! The strength dial: a calibrated ladder of settings, and the setting
//! for any rating between its rungs.
//!
//! A [`Calibration`] (what the `tournament` crate's `calibrate` makes for
//! any game, see [docs/your-game.md](https://github.com/game-search/backup-rules/blob/main/docs/your-game.md);
//! the workspace's own games are calibrated by `cargo xtask calibrate GAME`,
//! e.g. `crates/games-small/calibration/connect4.json` in the repository) lists rungs: agent specs with their
//! fitted Elo ratings and 95% intervals. Rungs that differ only in θ form a
//! *curve* (e.g. `boltzmann:depth=3,cap=400` at several θ, topped by
//! `alphabeta:depth=3`, θ = +∞). [`Dial::setting`] finds, for a rating `X`,
//! the shallowest curve that reaches `X` at a finite θ (else the deepest
//! curve whose range covers `X`) and interpolates θ between
//! the two rungs around `X`: ratings are made monotone along the curve
//! (weighted isotonic regression), and θ is interpolated linearly in
//! `x = θ / (θ + κ)` (`κ` the curve's median finite θ), a coordinate that
//! maps `[0, +∞]` onto `[0, 1]`. θ = 0 is uniform random play, the anchor
//! at rating 0 of every curve but a [partial](Calibration::partial_curves)
//! one (a deep curve that only extends the dial's top, starting at its
//! weakest rung). The result is continuous in `X`: no rounding
//! to the nearest rung. A curve may turn another knob than θ
//! ([`Calibration::curve_knobs`]): a count such as an engine's node budget
//! (`kibitz:nodes=N`), interpolated the same way and rounded to a whole
//! number; such a curve has no infinite top, its strongest setting is its
//! last rung. [`Dial::predict`] gives the score one dial value
//! should make against another, with an interval that carries the
//! calibration's model error ([`crate::misfit`]).
//!
//! ```
//! use strength::dial::{Calibration, Dial, Rung};
//! let rung = |spec: &str, theta: Option<f64>, rating: f64| Rung {
//!     spec: spec.into(),
//!     curve: theta.map(|_| "boltzmann:depth=2".into()),
//!     theta,
//!     rating,
//!     low: rating - 20.0,
//!     high: rating + 20.0,
//!     games: 400,
//! };
//! let cal = Calibration {
//!     game: "demo".into(),
//!     rungs: vec![
//!         rung("random", Some(0.0), 0.0),
//!         rung("boltzmann:depth=2,theta=1", Some(1.0), 300.0),
//!         rung("boltzmann:depth=2,theta=4", Some(4.0), 700.0),
//!         rung("alphabeta:depth=2", Some(f64::INFINITY), 900.0),
//!     ],
//!     ..Calibration::default()
//! };
//! let dial = Dial::new(cal)?;
//! assert_eq!(dial.range(), (0.0, 900.0));
//! let s = dial.setting(500.0)?; // between θ = 1 and θ = 4
//! let theta: f64 = s.get("theta").unwrap().parse().unwrap();
//! assert!(theta > 1.0 && theta < 4.0);
//! assert_eq!(dial.setting(900.0)?.to_string(), "alphabeta:depth=2");
//! assert!(dial.setting(950.0).is_err());
//! # Ok::<(), strength::dial::DialError>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::elo::Z95;
use crate::misfit::Misfit;
use crate::rating::davidson;
use crate::scale_map::ScaleMap;
use crate::spec::AgentSpec;

/// An error of the dial or its calibration file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DialError {
    /// The rating is outside the calibrated range.
    #[error("Elo {elo} is outside the calibrated range {low:.0}..={high:.0}")]
    OutOfRange {
        /// The rating asked for.
        elo: f64,
        /// The lowest calibrated rating.
        low: f64,
        /// The highest calibrated rating.
        high: f64,
    },
    /// The rating falls between two curves: the weaker one's strongest
    /// setting is rated below it, the stronger one's weakest above it (a
    /// curve that starts above random play, whose weakest rung was rated
    /// higher than the top of the curve below). See [`Dial::gaps`].
    #[error("Elo {elo} falls between two curves of the calibration: no setting plays from {low:.0} to {high:.0}")]
    Gap {
        /// The rating asked for.
        elo: f64,
        /// The highest rating below it that a setting plays.
        low: f64,
        /// The lowest rating above it that a setting plays.
        high: f64,
    },
    /// The calibration is unusable (malformed, empty, inconsistent).
    #[error("calibration: {0}")]
    Invalid(String),
}

/// One calibrated setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// The agent spec, e.g. `boltzmann:depth=3,theta=0.02,cap=400`.
    pub spec: String,
    /// The curve it lies on: the spec without θ (`boltzmann:depth=3,cap=400`),
    /// or `None` for a rung outside every curve (e.g. a perfect player).
    pub curve: Option<String>,
    /// θ on its curve: 0 is random play, `+∞` the curve's greedy top
    /// (stored as `null` in JSON when infinite; see [`Rung::theta_value`]).
    #[serde(with = "theta_serde")]
    pub theta: Option<f64>,
    /// Fitted Elo rating.
    pub rating: f64,
    /// Lower end of its 95% interval.
    pub low: f64,
    /// Upper end of its 95% interval.
    pub high: f64,
    /// Games it played in the calibration.
    pub games: u64,
}

impl Rung {
    /// θ, if the rung is on a curve.
    pub fn theta_value(&self) -> Option<f64> {
        self.theta
    }
}

/// θ in JSON: a number, `"inf"` for +∞, or absent.
mod theta_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
    }

    pub(super) fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(t) if t.is_infinite() => Repr::Text("inf".into()).serialize(s),
            Some(t) => Repr::Number(*t).serialize(s),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        match Option::<Repr>::deserialize(d)? {
            None => Ok(None),
            Some(Repr::Number(t)) => Ok(Some(t)),
            Some(Repr::Text(t)) if t == "inf" => Ok(Some(f64::INFINITY)),
            Some(Repr::Text(t)) => Err(serde::de::Error::custom(format!("bad theta {t:?}"))),
        }
    }
}

/// A game's calibration: what `tournament::calibrate::calibrate` returns
/// (and `cargo xtask calibrate` writes for the built-in games), and the
/// dial reads.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Calibration {
    /// The game (`tictactoe`, `connect4`, `gobang`, `chess`).
    pub game: String,
    /// The anchor: which rung's rating is fixed, and at what.
    pub anchor: String,
    /// The rungs.
    pub rungs: Vec<Rung>,
    /// Curves that start far above random play, whose weakest rung never
    /// met it (a deep search's curve that only extends the dial's top). The
    /// dial does not extend them down to random play: their range starts at
    /// their weakest rung, and [`Dial::rating_of`] has no rating for a θ
    /// below it. Every other curve starts at random play (θ = 0).
    pub partial_curves: Vec<String>,
    /// The knob of each curve that turns another than θ: curve (its spec
    /// without the knob) → the key its rungs set, e.g. `kibitz` → `nodes`
    /// for an engine's node budgets. Such a knob is a count: the dial
    /// interpolates it like θ and rounds it to a whole number. Every other
    /// curve's knob is θ.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub curve_knobs: std::collections::BTreeMap<String, String>,
    /// Games played in all.
    pub games: u64,
    /// The master seed of the run.
    pub seed: u64,
    /// The scale of the run (`quick`, `default`, `full`).
    pub scale: String,
    /// The code version that produced it (the `calibrate` version and the
    /// crate version).
    pub code_version: String,
    /// Free-form notes (how the anchor was set, what was left out).
    pub notes: Vec<String>,
    /// The draw parameter ν of the fit (Davidson), for predictions.
    pub draw_nu: Option<f64>,
    /// Elo on this calibration's scale per Elo of the rating model: the
    /// slope of the line that maps the fitted ratings onto reference
    /// players' published scale (chess: Stockfish's `UCI_Elo`). A rating
    /// difference `d` on the published scale is `d / stretch` in the model
    /// that predicts scores ([`Dial::expected_score`]). `None` (1) when the
    /// ratings are the fit's own, as for the small games.
    pub scale_stretch: Option<f64>,
    /// The points `(model, published)` the map onto the reference players'
    /// scale passes through, one per reference level, increasing: a
    /// published rating between two of them is interpolated, beyond them
    /// extended by [`scale_stretch`](Self::scale_stretch) (see
    /// [`ScaleMap`]). Empty: the map is the line of slope `scale_stretch`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scale_knots: Vec<(f64, f64)>,
    /// The self-play scale: in games between two settings of one of its
    /// curves (one engine at two node budgets), rating differences count
    /// `scale` times (see [`crate::rating::FitOptions::self_play_groups`]).
    /// `None`: no curve has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_play: Option<SelfPlay>,
    /// How far the ratings miss the ladder's own matchups: χ², its p-value,
    /// and the model error τ (Elo, on this calibration's scale) that every
    /// prediction between two settings carries on top of the rungs'
    /// intervals (see [`crate::misfit`]). `None` in calibrations made before
    /// it was measured, and for ladders with no degree of freedom to test.
    pub misfit: Option<Misfit>,
    /// Each ladder matchup's observed and predicted score, the data behind
    /// [`misfit`](Self::misfit) (empty in calibrations made before).
    pub residuals: Vec<MatchupResidual>,
    /// Matches between dial values never played in the calibration, with
    /// the predicted and observed scores.
    pub held_out: Vec<HeldOut>,
    /// How the dial loses: for dial values spread over its range, the
    /// distribution of each move's loss against ground truth (a solver's
    /// exact values, or a much stronger engine's evaluation) in self-play,
    /// with the blunder rate; for chess also Stockfish's own weakened
    /// levels at the same ratings. Empty where there is no ground truth
    /// (gobang) and in calibrations made before it was measured.
    pub losses: Vec<LossProfile>,
}

/// The moves of one setting scored against ground truth: how large its
/// mistakes are (see [`Calibration::losses`]).
///
/// A move's *loss* is the value of the best move minus the value of the
/// move played, both from the mover's side, in the ground truth's
/// [`unit`](Self::unit); it is never negative. A *blunder* is a move whose
/// loss is large for the game (in chess, two pawns) or that changes the
/// outcome class for the worse (won to drawn or lost, drawn to lost).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LossProfile {
    /// What was asked for: a dial value (`elo:1200`) or a reference player
    /// (`stockfish UCI_Elo=1500`).
    pub setting: String,
    /// Its rating on the calibration's scale (for a reference player, its
    /// nominal rating).
    pub elo: f64,
    /// The agent spec that actually played, e.g.
    /// `boltzmann:depth=4,cap=100,theta=0.03`.
    pub spec: String,
    /// Moves scored.
    pub moves: u64,
    /// Mean loss per move.
    pub mean_loss: f64,
    /// Median loss.
    pub median_loss: f64,
    /// 90th percentile of the loss.
    pub p90_loss: f64,
    /// Largest loss.
    pub max_loss: f64,
    /// Fraction of the moves that are blunders.
    pub blunder_rate: f64,
    /// Fraction of the moves that change the exact (or judged) outcome
    /// class for the worse.
    pub outcome_change_rate: f64,
    /// Moves per loss bucket: `(upper bound, count)`, bounds increasing,
    /// each bucket holding the losses above the previous bound and at most
    /// its own (the first, bound 0, the moves that lose nothing).
    pub histogram: Vec<(f64, u64)>,
    /// The unit of the losses (`outcome classes`, `solver score`,
    /// `centipawns`).
    pub unit: String,
    /// How it was measured: the ground truth, which moves were scored, the
    /// games played.
    pub note: String,
}

/// The self-play scale of a calibration's curves (see
/// [`Calibration::self_play`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SelfPlay {
    /// The curves (specs without their knob, e.g. `kibitz`) whose settings
    /// play each other with the scale.
    pub curves: Vec<String>,
    /// The scale `k`.
    pub scale: f64,
    /// Its 95% interval (profile likelihood).
    pub interval: (f64, f64),
}

/// One ladder matchup: the score the ratings predict for it and the score
/// its games gave (see [`Calibration::residuals`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchupResidual {
    /// The first setting.
    pub a: String,
    /// The second setting.
    pub b: String,
    /// Games played.
    pub games: u64,
    /// A's mean score.
    pub observed: f64,
    /// A's expected score from the ratings.
    pub predicted: f64,
    /// The Pearson residual: the difference in units of the games'
    /// sampling standard deviation under the model.
    pub z: f64,
}

/// A held-out check of the dial: `elo:a` against `elo:b`, settings never
/// played against each other while calibrating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeldOut {
    /// A's dial value.
    pub a_elo: f64,
    /// B's dial value.
    pub b_elo: f64,
    /// The setting the dial chose for A.
    pub a_spec: String,
    /// The setting the dial chose for B.
    pub b_spec: String,
    /// Games played.
    pub games: u64,
    /// A's predicted score.
    pub predicted: f64,
    /// The prediction's 95% interval for the score over this many games:
    /// the ratings' uncertainty, the calibration's model error
    /// ([`Calibration::misfit`]) and the games' sampling noise.
    pub low: f64,
    /// Upper end of that interval.
    pub high: f64,
    /// The interval without the model error (as if one rating per setting
    /// explained every pairing exactly), for comparison; `None` in
    /// calibrations made before the model error was measured.
    #[serde(default)]
    pub without_model_error: Option<(f64, f64)>,
    /// A's observed score.
    pub observed: f64,
}

impl HeldOut {
    /// Whether the observed score is inside the prediction's interval.
    pub fn inside(&self) -> bool {
        self.low <= self.observed && self.observed <= self.high
    }
}

impl Calibration {
    /// Its [`scale_stretch`](Self::scale_stretch), 1 when there is none;
    /// an error unless it is finite and positive ([`Dial::new`] and
    /// `cargo xtask rate` refuse such a file).
    ///
    /// ```
    /// # use strength::dial::Calibration;
    /// let mut cal = Calibration::default();
    /// assert_eq!(cal.stretch().unwrap(), 1.0);
    /// cal.scale_stretch = Some(0.84);
    /// assert_eq!(cal.stretch().unwrap(), 0.84);
    /// cal.scale_stretch = Some(f64::NAN);
    /// assert!(cal.stretch().is_err());
    /// ```
    pub fn stretch(&self) -> Result<f64, DialError> {
        match self.scale_stretch {
            None => Ok(1.0),
            Some(s) if s.is_finite() && s > 0.0 => Ok(s),
            Some(s) => Err(DialError::Invalid(format!("scale_stretch must be finite and positive, got {s}"))),
        }
    }

    /// The map between the rating model's units and the calibration's
    /// scale: through its [`scale_knots`](Self::scale_knots) with slope
    /// [`stretch`](Self::stretch) beyond them; an error if they are not
    /// increasing or the stretch is not positive.
    ///
    /// ```
    /// # use strength::dial::Calibration;
    /// let mut cal = Calibration::default();
    /// cal.scale_stretch = Some(0.5);
    /// cal.scale_knots = vec![(0.0, 1300.0), (400.0, 1500.0), (600.0, 1700.0)];
    /// let map = cal.scale_map()?;
    /// // 100 published Elo are 200 model Elo below 1500, and 100 above it.
    /// assert_eq!(map.to_model(1500.0) - map.to_model(1400.0), 200.0);
    /// assert_eq!(map.to_model(1600.0) - map.to_model(1500.0), 100.0);
    /// cal.scale_knots.swap(0, 1);
    /// assert!(cal.scale_map().is_err());
    /// # Ok::<(), strength::dial::DialError>(())
    /// ```
    pub fn scale_map(&self) -> Result<ScaleMap, DialError> {
        ScaleMap::through(self.scale_knots.clone(), self.stretch()?).map_err(|e| DialError::Invalid(e.to_string()))
    }

    /// Parses a calibration file's JSON.
    pub fn from_json(text: &str) -> Result<Self, DialError> {
        serde_json::from_str(text).map_err(|e| DialError::Invalid(e.to_string()))
    }

    /// The JSON of a calibration file (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a calibration serializes")
    }
}

/// One curve: θ against rating, made monotone.
#[derive(Debug, Clone)]
struct Curve {
    /// The spec without θ.
    base: AgentSpec,
    /// The key its rungs set: `theta`, or a count ([`Calibration::curve_knobs`]).
    knob: Option<String>,
    /// The greedy top's spec (θ = +∞), if calibrated.
    top: Option<String>,
    /// κ of the coordinate `x = θ / (θ + κ)`.
    kappa: f64,
    /// `(x, rating)`, x increasing, rating non-decreasing.
    points: Vec<(f64, f64)>,
    /// The weakest θ it rates: 0 when it starts at random play, else
    /// its weakest rung's (a partial curve's, or any without an anchor).
    least: f64,
}

impl Curve {
    fn x(&self, theta: f64) -> f64 {
        if theta.is_infinite() { 1.0 } else { theta / (theta + self.kappa) }
    }

    /// The (monotone) rating of the curve's largest finite θ.
    fn finite_top(&self) -> f64 {
        self.points.iter().filter(|p| p.0 < 1.0).map(|p| p.1).fold(f64::NEG_INFINITY, f64::max)
    }

    fn range(&self) -> (f64, f64) {
        (self.points[0].1, self.points[self.points.len() - 1].1)
    }

    /// The setting at `elo`, inside [`range`](Self::range).
    fn setting(&self, elo: f64) -> AgentSpec {
        let i = self.points.iter().position(|p| p.1 >= elo).unwrap_or(self.points.len() - 1);
        let x = if i == 0 {
            self.points[0].0
        } else {
            let ((x0, r0), (x1, r1)) = (self.points[i - 1], self.points[i]);
            if r1 > r0 { x0 + (x1 - x0) * (elo - r0) / (r1 - r0) } else { x0 }
        };
        if x >= 1.0
            && let Some(top) = &self.top
        {
            return top.parse().expect("checked when the dial was built");
        }
        if x <= 0.0 {
            return AgentSpec::new("random");
        }
        let theta = self.kappa * x / (1.0 - x);
        match &self.knob {
            // A count: the nearest whole number, at least 1.
            Some(knob) => self.base.clone().with(knob, theta.round().max(1.0) as u64),
            // Enough digits that the strength is continuous, few enough to read.
            None => self.base.clone().with("theta", format!("{:.6e}", theta).parse::<f64>().unwrap_or(theta)),
        }
    }
}

/// Weighted isotonic regression (pool adjacent violators): the
/// non-decreasing sequence closest to `values` in weighted least squares.
fn isotonic(values: &[f64], weights: &[f64]) -> Vec<f64> {
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new(); // (mean, weight, count)
    for (&v, &w) in values.iter().zip(weights) {
        blocks.push((v, w, 1));
        while blocks.len() > 1 && blocks[blocks.len() - 2].0 > blocks[blocks.len() - 1].0 {
            let (m2, w2, c2) = blocks.pop().expect("two blocks");
            let (m1, w1, c1) = blocks.pop().expect("two blocks");
            blocks.push(((m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2));
        }
    }
    blocks.into_iter().flat_map(|(m, _, c)| std::iter::repeat_n(m, c)).collect()
}

/// A's predicted score against B, between two dial values
/// ([`Dial::predict`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DialPrediction {
    /// A's expected score per game.
    pub score: f64,
    /// Lower end of the 95% interval of A's mean score over the match.
    pub low: f64,
    /// Upper end of that interval.
    pub high: f64,
    /// The interval without the calibration's model error.
    pub without_model_error: (f64, f64),
}

/// The strength dial of one game.
#[derive(Debug, Clone)]
pub struct Dial {
    calibration: Calibration,
    curves: Vec<Curve>,
    map: ScaleMap,
}

impl Dial {
    /// A dial over `calibration`'s curves. Errors if no curve has a rung
    /// besides random play, or a rung is malformed.
    pub fn new(calibration: Calibration) -> Result<Self, DialError> {
        let map = calibration.scale_map()?;
        if let Some(k) = &calibration.self_play
            && !(k.scale.is_finite() && k.scale > 0.0)
        {
            return Err(DialError::Invalid(format!(
                "the self-play scale must be finite and positive, got {}",
                k.scale
            )));
        }
        let anchor = calibration.rungs.iter().find(|r| r.spec == "random").map(|r| r.rating);
        let mut names: Vec<&str> = Vec::new();
        for r in &calibration.rungs {
            if !(r.rating.is_finite() && r.low <= r.rating && r.rating <= r.high) {
                return Err(DialError::Invalid(format!("rung {}: bad rating or interval", r.spec)));
            }
            r.spec.parse::<AgentSpec>().map_err(|e| DialError::Invalid(e.to_string()))?;
            if let Some(c) = &r.curve
                && !names.contains(&c.as_str())
            {
                names.push(c);
            }
        }
        let mut curves = Vec::new();
        for name in names {
            let base: AgentSpec =
                name.parse().map_err(|e: crate::spec::SpecError| DialError::Invalid(e.to_string()))?;
            let mut rungs: Vec<&Rung> = calibration.rungs.iter().filter(|r| r.curve.as_deref() == Some(name)).collect();
            if rungs.iter().any(|r| r.theta.is_none_or(|t| t.is_nan() || t < 0.0)) {
                return Err(DialError::Invalid(format!("curve {name}: every rung needs θ ≥ 0")));
            }
            rungs.sort_by(|a, b| a.theta.unwrap_or(0.0).total_cmp(&b.theta.unwrap_or(0.0)));
            let mut finite: Vec<f64> =
                rungs.iter().filter_map(|r| r.theta).filter(|t| t.is_finite() && *t > 0.0).collect();
            if finite.is_empty() {
                return Err(DialError::Invalid(format!("curve {name}: no rung with a finite θ > 0")));
            }
            finite.sort_by(f64::total_cmp);
            let kappa = finite[finite.len() / 2];
            let top = rungs.iter().find(|r| r.theta == Some(f64::INFINITY)).map(|r| r.spec.clone());
            let least = rungs[0].theta.expect("checked");
            let knob = calibration.curve_knobs.get(name).filter(|k| k.as_str() != "theta").cloned();
            let mut curve = Curve { base, knob, top, kappa, points: Vec::new(), least };
            // Random play (θ = 0) starts every curve at its rating, but a
            // partial one.
            let mut xs = Vec::new();
            let mut ratings = Vec::new();
            let mut weights = Vec::new();
            if let Some(a) = anchor
                && rungs.first().and_then(|r| r.theta) != Some(0.0)
                && !calibration.partial_curves.iter().any(|c| c == name)
            {
                xs.push(0.0);
                ratings.push(a);
                weights.push(1e6);
                curve.least = 0.0;
            }
            for r in &rungs {
                xs.push(curve.x(r.theta.expect("checked")));
                ratings.push(r.rating);
                let half = ((r.high - r.low) / 2.0).max(1.0);
                weights.push(1.0 / (half * half));
            }
            let monotone = isotonic(&ratings, &weights);
            curve.points = xs.into_iter().zip(monotone).collect();
            curves.push(curve);
        }
        if curves.is_empty() {
            return Err(DialError::Invalid("no curve of settings to interpolate".into()));
        }
        Ok(Dial { calibration, curves, map })
    }

    /// The calibration it reads.
    pub fn calibration(&self) -> &Calibration {
        &self.calibration
    }

    /// The score per game the rating model expects of a player rated `a`
    /// against one rated `b` (on this calibration's scale): Davidson's
    /// model with the calibration's draw parameter, the difference taken
    /// in the model's units ([`Calibration::scale_stretch`]).
    ///
    /// ```
    /// # use strength::dial::{Calibration, Dial, Rung};
    /// let rung = |spec: &str, theta, rating: f64| Rung {
    ///     spec: spec.into(), curve: Some("boltzmann:depth=2".into()), theta: Some(theta),
    ///     rating, low: rating - 20.0, high: rating + 20.0, games: 400,
    /// };
    /// let mut cal = Calibration {
    ///     rungs: vec![
    ///         Rung { curve: None, theta: None, low: 0.0, high: 0.0, ..rung("random", 0.0, 0.0) },
    ///         rung("boltzmann:depth=2,theta=1", 1.0, 400.0),
    ///         rung("alphabeta:depth=2", f64::INFINITY, 800.0),
    ///     ],
    ///     ..Calibration::default()
    /// };
    /// let plain = Dial::new(cal.clone())?.expected_score(400.0, 0.0);
    /// assert!((plain - 1.0 / (1.0 + 10f64.powf(-1.0))).abs() < 1e-9);
    /// // A scale stretched twice over: 400 published Elo are 200 of the model's.
    /// cal.scale_stretch = Some(2.0);
    /// let stretched = Dial::new(cal)?.expected_score(400.0, 0.0);
    /// assert!((stretched - 1.0 / (1.0 + 10f64.powf(-0.5))).abs() < 1e-9);
    /// # Ok::<(), strength::dial::DialError>(())
    /// ```
    pub fn expected_score(&self, a: f64, b: f64) -> f64 {
        davidson(self.model_difference(a, b), self.calibration.draw_nu.unwrap_or(0.0)).score
    }

    /// Elo on the calibration's scale per Elo of the rating model (1 unless
    /// the scale was mapped onto reference players; through
    /// [knots](Calibration::scale_knots), the slope beyond them).
    pub fn stretch(&self) -> f64 {
        self.calibration.scale_stretch.unwrap_or(1.0)
    }

    /// The map between the rating model's units and the dial's scale
    /// ([`Calibration::scale_map`]).
    pub fn scale_map(&self) -> &ScaleMap {
        &self.map
    }

    /// How many times the model's rating difference counts between the
    /// settings at `a` and `b`: the [self-play scale](Calibration::self_play)
    /// when one of its curves plays both, else 1.
    ///
    /// ```
    /// # use strength::dial::{Calibration, Dial, Rung, SelfPlay};
    /// let rung = |spec: &str, curve: &str, theta: f64, rating: f64| Rung {
    ///     spec: spec.into(), curve: Some(curve.into()), theta: Some(theta),
    ///     rating, low: rating - 20.0, high: rating + 20.0, games: 400,
    /// };
    /// let mut cal = Calibration {
    ///     rungs: vec![
    ///         Rung { curve: None, theta: None, low: 0.0, high: 0.0, ..rung("random", "", 0.0, 0.0) },
    ///         rung("boltzmann:depth=1,theta=1", "boltzmann:depth=1", 1.0, 300.0),
    ///         rung("alphabeta:depth=1", "boltzmann:depth=1", f64::INFINITY, 500.0),
    ///         rung("kibitz:nodes=1000", "kibitz", 1000.0, 450.0),
    ///         rung("kibitz:nodes=2000", "kibitz", 2000.0, 600.0),
    ///         rung("kibitz:nodes=4000", "kibitz", 4000.0, 700.0),
    ///     ],
    ///     partial_curves: vec!["kibitz".into()],
    ///     self_play: Some(SelfPlay { curves: vec!["kibitz".into()], scale: 2.0, interval: (1.8, 2.2) }),
    ///     ..Calibration::default()
    /// };
    /// cal.curve_knobs.insert("kibitz".into(), "nodes".into());
    /// let dial = Dial::new(cal)?;
    /// assert_eq!(dial.self_play_scale(550.0, 650.0), 2.0); // two node budgets
    /// assert_eq!(dial.self_play_scale(400.0, 650.0), 1.0); // a Boltzmann player and a budget
    /// // 100 Elo between two budgets score as 200 would between others.
    /// assert_eq!(dial.expected_score(650.0, 550.0), dial.expected_score(600.0, 400.0));
    /// # Ok::<(), strength::dial::DialError>(())
    /// ```
    pub fn self_play_scale(&self, a: f64, b: f64) -> f64 {
        let Some(k) = &self.calibration.self_play else {
            return 1.0;
        };
        match (self.serving(a), self.serving(b)) {
            (Ok(x), Ok(y)) if std::ptr::eq(x, y) && k.curves.iter().any(|c| *c == x.base.to_string()) => k.scale,
            _ => 1.0,
        }
    }

    /// The model's rating difference between the settings at `a` and `b`,
    /// as it acts in their games: through the [scale map](Self::scale_map),
    /// times the [self-play scale](Self::self_play_scale).
    fn model_difference(&self, a: f64, b: f64) -> f64 {
        (self.map.to_model(a) - self.map.to_model(b)) * self.self_play_scale(a, b)
    }

    /// A's expected score per game as `elo:a` against `elo:b`, with the
    /// 95% interval of A's mean score over a match of `games` games.
    ///
    /// The interval's variance, on the Elo scale, adds three terms: the two
    /// dial values' rating variances (the rungs' standard errors,
    /// interpolated by rating, taken as independent), the calibration's
    /// model error τ² ([`Calibration::misfit`]), and the games' sampling
    /// variance, moved onto the Elo scale through the score's slope. Its
    /// ends are mapped back to scores, so that a wide interval stays inside
    /// [0, 1]. The interval without τ comes with it. Predictions use
    /// Davidson's model with the calibration's draw parameter (0 when it
    /// has none).
    ///
    /// ```
    /// # use strength::dial::{Calibration, Dial, Rung};
    /// # use strength::misfit::Misfit;
    /// # let rung = |spec: &str, theta: Option<f64>, rating: f64| Rung {
    /// #     spec: spec.into(),
    /// #     curve: theta.map(|_| "boltzmann:depth=2".into()),
    /// #     theta,
    /// #     rating,
    /// #     low: rating - 20.0,
    /// #     high: rating + 20.0,
    /// #     games: 400,
    /// # };
    /// let misfit = Misfit { matchups: 20, chi2: 60.0, dof: 12, p_value: 1e-8, model_error: 80.0 };
    /// let cal = Calibration {
    ///     rungs: vec![
    ///         rung("random", Some(0.0), 0.0),
    ///         rung("boltzmann:depth=2,theta=1", Some(1.0), 300.0),
    ///         rung("alphabeta:depth=2", Some(f64::INFINITY), 900.0),
    ///     ],
    ///     draw_nu: Some(0.1),
    ///     misfit: Some(misfit),
    ///     ..Calibration::default()
    /// };
    /// let dial = Dial::new(cal)?;
    /// let p = dial.predict(300.0, 600.0, 200)?;
    /// assert!(p.score < 0.5 && p.low < p.score && p.score < p.high);
    /// // The model error widens the interval.
    /// let (low, high) = p.without_model_error;
    /// assert!(p.low < low && high < p.high);
    /// assert!(dial.predict(300.0, 1000.0, 200).is_err()); // outside the dial
    /// assert!(dial.predict(300.0, 600.0, 0).is_err());
    /// # Ok::<(), strength::dial::DialError>(())
    /// ```
    pub fn predict(&self, a: f64, b: f64, games: u64) -> Result<DialPrediction, DialError> {
        let (low, high) = self.range();
        for elo in [a, b] {
            if !elo.is_finite() || elo < low || elo > high {
                return Err(DialError::OutOfRange { elo, low, high });
            }
        }
        if games == 0 {
            return Err(DialError::Invalid("a prediction needs a match of at least one game".into()));
        }
        // Everything in the rating model's units (see `scale_map`), as the
        // difference acts in the two settings' games (the self-play scale).
        let nu = self.calibration.draw_nu.unwrap_or(0.0);
        let tau = self.calibration.misfit.map_or(0.0, |m| m.model_error) / self.stretch();
        let k = self.self_play_scale(a, b);
        let in_model = |elo: f64| self.rating_se(elo) / self.map.slope_at(elo);
        let rating_var = k * k * (in_model(a).powi(2) + in_model(b).powi(2));
        let diff = self.model_difference(a, b);
        let slope = (davidson(diff + 1.0, nu).score - davidson(diff - 1.0, nu).score) / 2.0;
        let sampling_var = davidson(diff, nu).game_variance() / games as f64 / (slope * slope);
        let interval = |var: f64| {
            let half = Z95 * var.sqrt();
            (davidson(diff - half, nu).score, davidson(diff + half, nu).score)
        };
        let (low, high) = interval(rating_var + tau * tau + sampling_var);
        Ok(DialPrediction {
            score: davidson(diff, nu).score,
            low,
            high,
            without_model_error: interval(rating_var + sampling_var),
        })
    }

    /// The standard error of a dial value's rating: the rungs' (their 95%
    /// half-widths ÷ 1.96), interpolated by rating.
    fn rating_se(&self, elo: f64) -> f64 {
        let mut pts: Vec<(f64, f64)> =
            self.calibration.rungs.iter().map(|r| (r.rating, (r.high - r.low) / 2.0 / Z95)).collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        match pts.iter().position(|p| p.0 >= elo) {
            Some(0) => pts[0].1,
            Some(i) => {
                let ((r0, s0), (r1, s1)) = (pts[i - 1], pts[i]);
                if r1 > r0 { s0 + (s1 - s0) * (elo - r0) / (r1 - r0) } else { s1.max(s0) }
            }
            None => pts.last().map_or(0.0, |p| p.1),
        }
    }

    /// The lowest and highest ratings the dial can be set to.
    pub fn range(&self) -> (f64, f64) {
        let lo = self.curves.iter().map(|c| c.range().0).fold(f64::INFINITY, f64::min);
        let hi = self.curves.iter().map(|c| c.range().1).fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    }

    /// The setting playing at `elo`: on the first curve (in calibration
    /// order, the cheapest first) whose range covers it, θ interpolated.
    pub fn setting(&self, elo: f64) -> Result<AgentSpec, DialError> {
        Ok(self.serving(elo)?.setting(elo))
    }

    /// The curve whose setting plays at `elo` (see [`setting`](Self::setting)).
    fn serving(&self, elo: f64) -> Result<&Curve, DialError> {
        let (low, high) = self.range();
        if !elo.is_finite() || elo < low || elo > high {
            return Err(DialError::OutOfRange { elo, low, high });
        }
        let covering: Vec<&Curve> = self
            .curves
            .iter()
            .filter(|c| {
                let (lo, hi) = c.range();
                lo <= elo && elo <= hi
            })
            .collect();
        // The shallowest curve that reaches `elo` with a finite θ (a
        // Boltzmann player, whose mistakes shrink smoothly as θ grows);
        // failing that, the deepest covering curve, interpolating towards
        // its greedy top. Never a shallow near-greedy player where a deeper
        // one can play the same strength with graded mistakes.
        let Some(curve) = covering.iter().find(|c| elo <= c.finite_top()).or(covering.last()) else {
            let gap = self.gaps().into_iter().find(|g| g.0 < elo && elo < g.1).unwrap_or((low, high));
            return Err(DialError::Gap { elo, low: gap.0, high: gap.1 });
        };
        Ok(curve)
    }

    /// The ratings inside [`range`](Self::range) that no curve plays, as
    /// open intervals `(low, high)`, increasing: where a curve that starts
    /// above random play begins above the top of every curve below.
    ///
    /// ```
    /// # use strength::dial::{Calibration, Dial, Rung};
    /// let rung = |spec: &str, curve: &str, theta: f64, rating: f64| Rung {
    ///     spec: spec.into(), curve: Some(curve.into()), theta: Some(theta),
    ///     rating, low: rating - 20.0, high: rating + 20.0, games: 400,
    /// };
    /// let mut cal = Calibration {
    ///     rungs: vec![
    ///         Rung { curve: None, theta: None, low: 0.0, high: 0.0, ..rung("random", "", 0.0, 0.0) },
    ///         rung("boltzmann:depth=1,theta=1", "boltzmann:depth=1", 1.0, 300.0),
    ///         rung("alphabeta:depth=1", "boltzmann:depth=1", f64::INFINITY, 500.0),
    ///         rung("kibitz:nodes=1000", "kibitz", 1000.0, 600.0),
    ///         rung("kibitz:nodes=2000", "kibitz", 2000.0, 700.0),
    ///     ],
    ///     partial_curves: vec!["kibitz".into()],
    ///     ..Calibration::default()
    /// };
    /// cal.curve_knobs.insert("kibitz".into(), "nodes".into());
    /// let dial = Dial::new(cal)?;
    /// assert_eq!(dial.gaps(), vec![(500.0, 600.0)]);
    /// assert!(dial.setting(550.0).is_err());
    /// # Ok::<(), strength::dial::DialError>(())
    /// ```
    pub fn gaps(&self) -> Vec<(f64, f64)> {
        let mut ranges: Vec<(f64, f64)> = self.curves.iter().map(Curve::range).collect();
        ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut gaps = Vec::new();
        let mut reach = f64::NEG_INFINITY;
        for (lo, hi) in ranges {
            if reach > f64::NEG_INFINITY && lo > reach {
                gaps.push((reach, lo));
            }
            reach = reach.max(hi);
        }
        gaps
    }

    /// The curve named `name` (its spec without θ).
    fn curve(&self, name: &str) -> Option<&Curve> {
        self.curves.iter().find(|c| c.base.to_string() == name)
    }

    /// The lowest and highest ratings the curve named `curve` plays (its
    /// spec without θ, e.g. `boltzmann:depth=2,cap=100`), or `None` if the
    /// dial has no such curve.
    ///
    /// ```
    /// # use strength::dial::{Calibration, Dial};
    /// # let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games-small/calibration/gobang.json")).unwrap();
    /// let dial = Dial::new(Calibration::from_json(&json)?)?;
    /// let (lo, hi) = dial.curve_range("boltzmann:depth=1,softcap=10000").unwrap();
    /// assert!(dial.range().0 <= lo && lo < hi && hi <= dial.range().1);
    /// assert_eq!(dial.curve_range("boltzmann:depth=9"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn curve_range(&self, curve: &str) -> Option<(f64, f64)> {
        self.curve(curve).map(Curve::range)
    }

    /// The weakest θ the curve named `curve` rates ([`rating_of`](Self::rating_of)
    /// is `None` below it): 0 for a curve that starts at random play, else
    /// its weakest rung's θ (a [partial](Calibration::partial_curves) curve).
    pub(crate) fn least_theta(&self, curve: &str) -> Option<f64> {
        self.curve(curve).map(|c| c.least)
    }

    /// The setting playing at `elo` on the curve named `curve` (its spec
    /// without θ, as in [`rating_of`](Self::rating_of)) when that curve's
    /// range covers `elo`; otherwise, or if there is no such curve,
    /// [`setting`](Self::setting)'s choice.
    ///
    /// A prediction between two settings of one curve is better than one
    /// across curves wherever the calibration's model misfits (see
    /// [`Calibration::misfit`]); the adaptive agent plays on the curve that
    /// best explains its opponent for that reason.
    ///
    /// ```
    /// # use strength::dial::{Calibration, Dial};
    /// # let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games-small/calibration/gobang.json")).unwrap();
    /// let dial = Dial::new(Calibration::from_json(&json)?)?;
    /// // 1250 is above the depth-1 curve's largest finite θ: the dial's own
    /// // choice is a depth-2 player, but the depth-1 curve still covers it.
    /// assert!(dial.setting(1250.0)?.to_string().contains("depth=2"));
    /// let on_one = dial.setting_on("boltzmann:depth=1,softcap=10000", 1250.0)?;
    /// assert!(on_one.to_string().starts_with("boltzmann:depth=1,softcap=10000,theta="));
    /// // Outside that curve's range, the dial's own choice.
    /// assert_eq!(dial.setting_on("boltzmann:depth=1,softcap=10000", 1600.0)?, dial.setting(1600.0)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn setting_on(&self, curve: &str, elo: f64) -> Result<AgentSpec, DialError> {
        let covering = self.curve(curve).filter(|c| {
            let (lo, hi) = c.range();
            lo <= elo && elo <= hi
        });
        match covering {
            Some(c) => Ok(c.setting(elo)),
            None => self.setting(elo),
        }
    }

    /// The rating the dial predicts for `theta` on `curve` (the inverse of
    /// [`setting`](Self::setting)), or `None` if there is no such curve, or
    /// `theta` lies below a [partial](Calibration::partial_curves) curve's
    /// weakest rung.
    pub fn rating_of(&self, curve: &str, theta: f64) -> Option<f64> {
        let c = self.curve(curve)?;
        let x = c.x(theta);
        let i = c.points.iter().position(|p| p.0 >= x)?;
        if i == 0 {
            return (x >= c.points[0].0 || c.points[0].0 == 0.0).then_some(c.points[0].1);
        }
        let ((x0, r0), (x1, r1)) = (c.points[i - 1], c.points[i]);
        Some(if x1 > x0 { r0 + (r1 - r0) * (x - x0) / (x1 - x0) } else { r1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_of_node_budgets_extends_the_top_with_whole_numbers() {
        let rung = |spec: &str, curve: Option<&str>, theta: Option<f64>, rating: f64| Rung {
            spec: spec.into(),
            curve: curve.map(Into::into),
            theta,
            rating,
            low: rating - 20.0,
            high: rating + 20.0,
            games: 400,
        };
        let d2 = Some("boltzmann:depth=2");
        let mut cal = Calibration {
            rungs: vec![
                rung("random", None, Some(0.0), 0.0),
                rung("boltzmann:depth=2,theta=1", d2, Some(1.0), 400.0),
                rung("alphabeta:depth=2", d2, Some(f64::INFINITY), 800.0),
                rung("kibitz:nodes=1000", Some("kibitz"), Some(1000.0), 790.0),
                rung("kibitz:nodes=4000", Some("kibitz"), Some(4000.0), 1000.0),
                rung("kibitz:nodes=16000", Some("kibitz"), Some(16000.0), 1200.0),
            ],
            partial_curves: vec!["kibitz".into()],
            ..Calibration::default()
        };
        cal.curve_knobs.insert("kibitz".into(), "nodes".into());
        let back = Calibration::from_json(&cal.to_json()).unwrap();
        assert_eq!(back, cal);
        let dial = Dial::new(cal).unwrap();
        assert_eq!(dial.range(), (0.0, 1200.0));
        assert_eq!(dial.setting(1200.0).unwrap().to_string(), "kibitz:nodes=16000");
        let mid = dial.setting(1100.0).unwrap();
        assert_eq!(mid.kind(), "kibitz");
        let nodes: u64 = mid.get("nodes").unwrap().parse().unwrap();
        assert!(4000 < nodes && nodes < 16000, "{mid}");
        // Below the node curve's weakest rung, the θ curve plays.
        assert!(dial.setting(700.0).unwrap().to_string().starts_with("boltzmann:depth=2"));
        // Increasing with the rating.
        let at = |elo: f64| -> u64 { dial.setting(elo).unwrap().get("nodes").unwrap().parse().unwrap() };
        assert!(at(1010.0) < at(1050.0) && at(1050.0) < at(1150.0));
        // A calibration without knobs writes no `curve_knobs`.
        assert!(!Calibration::default().to_json().contains("curve_knobs"));
    }

    #[test]
    fn isotonic_pools_violators() {
        assert_eq!(isotonic(&[1.0, 3.0, 2.0, 4.0], &[1.0; 4]), vec![1.0, 2.5, 2.5, 4.0]);
        assert_eq!(isotonic(&[5.0, 1.0], &[3.0, 1.0]), vec![4.0, 4.0]);
    }

    /// A one-curve dial from random play (0) to 1200, every rung ±`half`.
    fn dial(half: f64, nu: f64, tau: Option<f64>) -> Dial {
        let rung = |spec: &str, theta: f64, rating: f64| Rung {
            spec: spec.into(),
            curve: Some("boltzmann:depth=2".into()),
            theta: Some(theta),
            rating,
            low: rating - half,
            high: rating + half,
            games: 400,
        };
        let misfit = tau.map(|t| Misfit { matchups: 10, chi2: 30.0, dof: 6, p_value: 1e-5, model_error: t });
        Dial::new(Calibration {
            rungs: vec![
                rung("random", 0.0, 0.0),
                rung("boltzmann:depth=2,theta=1", 1.0, 400.0),
                rung("boltzmann:depth=2,theta=4", 4.0, 800.0),
                rung("alphabeta:depth=2", f64::INFINITY, 1200.0),
            ],
            draw_nu: Some(nu),
            misfit,
            ..Calibration::default()
        })
        .unwrap()
    }

    #[test]
    fn a_stretched_scale_predicts_in_the_models_units() {
        // The same ladder on a scale stretched twice over (ratings,
        // intervals and τ doubled, `scale_stretch` 2) predicts the same
        // scores at doubled dial values.
        let plain = dial(15.0, 0.2, Some(60.0));
        let mut cal = plain.calibration().clone();
        for r in &mut cal.rungs {
            (r.rating, r.low, r.high) = (2.0 * r.rating, 2.0 * r.low, 2.0 * r.high);
        }
        if let Some(m) = cal.misfit.as_mut() {
            m.model_error *= 2.0;
        }
        cal.scale_stretch = Some(2.0);
        let stretched = Dial::new(cal.clone()).unwrap();
        for (a, b) in [(100.0, 400.0), (600.0, 600.0), (1100.0, 300.0)] {
            let (p, q) = (plain.predict(a, b, 300).unwrap(), stretched.predict(2.0 * a, 2.0 * b, 300).unwrap());
            for (x, y) in [(p.score, q.score), (p.low, q.low), (p.high, q.high)] {
                assert!((x - y).abs() < 1e-12, "{a} {b}: {x} {y}");
            }
            assert!((plain.expected_score(a, b) - stretched.expected_score(2.0 * a, 2.0 * b)).abs() < 1e-12);
        }
        // Read as the model's own units, the doubled gap would predict more.
        cal.scale_stretch = None;
        let naive = Dial::new(cal.clone()).unwrap();
        assert!(naive.predict(200.0, 800.0, 300).unwrap().score < plain.predict(100.0, 400.0, 300).unwrap().score);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            cal.scale_stretch = Some(bad);
            assert!(Dial::new(cal.clone()).is_err(), "{bad}");
        }
    }

    #[test]
    fn predictions_widen_with_the_model_error_and_stay_scores() {
        let (exact, modelled) = (dial(15.0, 0.2, None), dial(15.0, 0.2, Some(140.0)));
        for (a, b) in [(0.0, 900.0), (100.0, 400.0), (600.0, 600.0), (750.0, 600.0), (1200.0, 300.0)] {
            let p = exact.predict(a, b, 500).unwrap();
            let q = modelled.predict(a, b, 500).unwrap();
            assert_eq!(p.score, q.score);
            assert_eq!(p.without_model_error, (p.low, p.high), "no misfit: the two intervals agree");
            assert_eq!(q.without_model_error, (p.low, p.high));
            for (lo, hi) in [(p.low, p.high), (q.low, q.high)] {
                assert!(0.0 < lo && lo < p.score && p.score < hi && hi < 1.0, "{a} {b}: {lo} {hi}");
            }
            assert!(q.low < p.low && p.high < q.high);
        }
        // Between two exactly known ratings, the games' own ±1.96·σ/√n:
        // 400 games at an even score and no draws give ±0.049.
        let (lo, hi) = {
            let p = dial(0.0, 0.0, None).predict(600.0, 600.0, 400).unwrap();
            (p.low, p.high)
        };
        assert!((hi - 0.5 - Z95 * 0.5 / 20.0).abs() < 2e-3 && (0.5 - lo - (hi - 0.5)).abs() < 1e-9, "{lo} {hi}");
        // More games, a narrower interval; the rungs' uncertainty remains.
        let d = dial(15.0, 0.2, None);
        let (few, many) = (d.predict(200.0, 500.0, 100).unwrap(), d.predict(200.0, 500.0, 100_000).unwrap());
        assert!(many.high - many.low < few.high - few.low && many.high - many.low > 0.02);
    }

    #[test]
    fn predictions_outside_the_dial_or_without_games_are_errors() {
        let d = dial(15.0, 0.2, None);
        assert!(matches!(d.predict(-10.0, 500.0, 10), Err(DialError::OutOfRange { .. })));
        assert!(matches!(d.predict(100.0, f64::NAN, 10), Err(DialError::OutOfRange { .. })));
        assert!(matches!(d.predict(100.0, 500.0, 0), Err(DialError::Invalid(_))));
    }
}
