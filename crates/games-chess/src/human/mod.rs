//! Human-like play learned from rated games: a move distribution that
//! plays like a Lichess player of a given rating.
//!
//! * [`Corpus`]: rated games read from PGN and Lichess-export CSV files,
//!   each left-out game counted with its reason and line; the kept games'
//!   decisions as [`Position`]s, split into train, validation and test by
//!   a hash of the game's id ([`Split::of`]).
//! * [`move_features`]: what the model sees of each legal move (its value
//!   backed up by a depth-`D` search, its gap to the best move, capture,
//!   check, piece moved, a shallow exchange on its square...).
//! * [`fit`]: the conditional logit over the legal moves, with the rating
//!   as an input (every weight has a rating interaction), fitted by
//!   maximum likelihood (Newton's method, L2 penalty).
//! * [`Network`]: the nonlinear utility over the same features and the
//!   rating (trained by `cargo xtask human train`), which replaces the
//!   linear one in the committed model.
//! * [`HumanModel`]: fitted weights with their provenance, as saved in
//!   this crate's `calibration/human-chess.json`, embedded
//!   ([`HumanModel::embedded`]).
//! * [`HumanAgent`]: plays like a player of rating `X`: samples a move from
//!   the model at the temperature fitted for `X` ([`HumanModel::temperature`],
//!   so that `human:X` against `human:Y` scores what Elo predicts;
//!   `pick=sample`) or plays its most likely move (`pick=mode`);
//!   [`HumanAgents`] builds it from the spec
//!   `human:X[,pick=sample|mode][,temper=T][,gap=W]`.
//! * [`Book`]: the positions the train games reached at least twice and the
//!   moves played there, one of the features.
//!
//! ```
//! use games_chess::ChessGame;
//! use games_chess::human::{HumanAgent, HumanModel, Pick};
//! use search_core::{Agent, Game, rng};
//!
//! let model = HumanModel::embedded()?;
//! let mut player = HumanAgent::new(model, 1200.0, Pick::Sample)?;
//! let g = ChessGame::startpos();
//! let mv = player.choose(&g, &mut rng::seeded(1))?;
//! let mut legal = Vec::new();
//! g.generate(&mut legal);
//! assert!(legal.contains(&mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod book;
mod corpus;
mod features;
mod model;
mod network;

use std::sync::Arc;

use rand::RngCore;
use search_core::agent::{Choice, Thought};
use search_core::{Agent, GameError};
use serde::{Deserialize, Serialize};
use shakmaty::Move;
use strength::agents::{AgentFactory, BoxedAgent};
use strength::spec::{AgentSpec, SpecError};

use crate::ChessGame;

pub use book::{BOOK_MIN_VISITS, BOOK_PLIES, Book, book_rate};
pub use corpus::{
    BANDS, Corpus, CorpusGame, CsvError, Position, Skip, Skipped, Speed, Split, TimeControl, band_of, fnv1a,
};
pub use features::{
    BOOK, FEATURES, GAP_CAP, K, KEYS, MoveValues, PRIOR, VALUE_CAP, move_features, move_key, move_prior, piece_value,
};
pub use model::{
    Decisions, FitResult, Mask, RATING_CENTER, RATING_SCALE, fit, log_sum_exp, loglik, mode, rating_z, softmax,
    utilities,
};
pub use network::{Dense, INPUTS, Network, Standardisation};

/// The fitted model as the crate embeds it: this crate's
/// `calibration/human-chess.json`, which `cargo xtask human train` writes.
pub const MODEL_JSON: &str = include_str!("../../calibration/human-chess.json");

/// Where the workspace keeps [`MODEL_JSON`] (relative to its root): the
/// file `cargo xtask human train` and `human temper` write.
pub const MODEL_PATH: &str = "crates/games-chess/calibration/human-chess.json";

/// The lowest and highest rating a human agent accepts (the corpus spans
/// 800 to 2199; the model extrapolates a little beyond, no further).
pub const RATING_RANGE: (f64, f64) = (600.0, 2400.0);

/// A fitted human model: the weights and where they come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanModel {
    /// The search depth of the move values.
    pub depth: u32,
    /// The feature names, in weight order.
    pub features: Vec<String>,
    /// `β` (one per feature) then `γ` (the rating interactions).
    pub weights: Vec<f64>,
    /// Which weights were free in the fit.
    pub mask: Mask,
    /// The L2 penalty of the fit.
    pub l2: f64,
    /// The rating centre and scale of `z`.
    pub rating_center: f64,
    /// See `rating_center`.
    pub rating_scale: f64,
    /// The move prior ([`move_prior`], [`KEYS`] entries; fitted on the
    /// train split).
    pub prior: Vec<f64>,
    /// The positions of the train games reached at least twice and the
    /// moves played there ([`Book`]).
    #[serde(default)]
    pub book: Book,
    /// The first ply of each game the model was fitted on.
    pub from_ply: usize,
    /// A fingerprint of the training data (FNV-1a of the corpus files).
    pub data_fingerprint: String,
    /// The code that fitted it (crate version and feature set).
    pub code_version: String,
    /// Train decisions used.
    pub train_moves: usize,
    /// Log-likelihood per move on train and validation.
    pub train_loglik: f64,
    /// See `train_loglik`.
    pub validation_loglik: f64,
    /// The temperature `pick=sample` draws at, by rating
    /// ([`HumanModel::temperature`]): fitted so that `human:X` against
    /// `human:Y` scores what Elo predicts for `X − Y`. Empty: 1 at every
    /// rating (the fitted distribution itself).
    #[serde(default)]
    pub temper: Vec<TemperAnchor>,
    /// The nonlinear utility, if the model has one: it then replaces the
    /// linear one of [`weights`](HumanModel::weights) (kept as the fallback
    /// the network was chosen over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Network>,
}

/// One point of a model's temperature curve: at `rating`, `pick=sample`
/// draws from `p ∝ exp(u / temperature − gap_weight × gap)`, where `gap`
/// is the move's gap below the best move's searched value in pawns (the
/// model's `gap` feature).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TemperAnchor {
    /// The rating.
    pub rating: f64,
    /// The temperature there (positive; below 1 sharpens the distribution
    /// towards the model's most likely move, above 1 flattens it).
    pub temperature: f64,
    /// Logits taken off a move per pawn of its gap to the best move (0 or
    /// more; 0, the default, is the model's distribution itself): the
    /// strength beyond the model's most likely move, for ratings a
    /// temperature alone cannot reach ([`HumanModel::gap_weight`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gap_weight: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// A model that cannot be used: unreadable JSON, or weights that do not
/// fit this code's features.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("human model: {0}")]
pub struct ModelError(pub String);

impl HumanModel {
    /// Reads a model from JSON and checks it against this code's features.
    pub fn from_json(text: &str) -> Result<HumanModel, ModelError> {
        let m: HumanModel = serde_json::from_str(text).map_err(|e| ModelError(e.to_string()))?;
        if m.features != FEATURES.iter().map(|s| s.to_string()).collect::<Vec<_>>() {
            return Err(ModelError(format!("its features {:?} are not this code's {FEATURES:?}", m.features)));
        }
        if m.weights.len() != 2 * K || m.weights.iter().any(|w| !w.is_finite()) {
            return Err(ModelError(format!("expected {} finite weights, got {}", 2 * K, m.weights.len())));
        }
        if m.prior.len() != KEYS || m.prior.iter().any(|w| !w.is_finite()) {
            return Err(ModelError(format!("expected a prior of {KEYS} finite entries, got {}", m.prior.len())));
        }
        if m.depth == 0 || m.rating_center != RATING_CENTER || m.rating_scale != RATING_SCALE {
            return Err(ModelError("depth 0 or another rating scale".into()));
        }
        check_temper(&m.temper)?;
        if let Some(n) = &m.network {
            n.check()?;
        }
        Ok(m)
    }

    /// The model the crate embeds ([`MODEL_JSON`]).
    pub fn embedded() -> Result<Arc<HumanModel>, ModelError> {
        static MODEL: std::sync::OnceLock<Result<Arc<HumanModel>, ModelError>> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| HumanModel::from_json(MODEL_JSON).map(Arc::new)).clone()
    }

    /// The JSON text (pretty-printed, one field a line).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The probabilities of the moves whose features are `rows` for a
    /// player of `rating`: the fitted distribution, untempered.
    pub fn probabilities(&self, rows: &[f64], rating: f64) -> Vec<f64> {
        self.tempered(rows, rating, 1.0)
    }

    /// The probabilities at `temperature`: `p ∝ exp(u / temperature)`.
    pub fn tempered(&self, rows: &[f64], rating: f64, temperature: f64) -> Vec<f64> {
        self.drawn_at(rows, rating, temperature, 0.0)
    }

    /// The distribution `pick=sample` draws from for a player of `rating`:
    /// at the curve's [temperature](HumanModel::temperature) and
    /// [gap weight](HumanModel::gap_weight) for that rating.
    pub fn drawn(&self, rows: &[f64], rating: f64) -> Vec<f64> {
        self.drawn_at(rows, rating, self.temperature(rating), self.gap_weight(rating))
    }

    /// The probabilities at `temperature` with `gap_weight` logits taken
    /// off each move per pawn of its gap to the best move:
    /// `p ∝ exp(u / temperature − gap_weight × gap)`.
    ///
    /// ```
    /// use games_chess::ChessGame;
    /// use games_chess::human::{HumanModel, MoveValues, move_features};
    /// let model = HumanModel::embedded()?;
    /// let g = ChessGame::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")?;
    /// let (moves, values) = MoveValues::new(model.depth, 1)?.values(&g)?;
    /// let rows = move_features(&g, &moves, &values, Some(&model.prior), Some(&model.book));
    /// let best = values.iter().copied().fold(f64::MIN, f64::max);
    /// // The probability given to moves within 0.1 pawn of the best.
    /// let near_best = |p: Vec<f64>| (0..p.len()).filter(|&i| values[i] > best - 10.0).map(|i| p[i]).sum::<f64>();
    /// let plain = near_best(model.drawn_at(&rows, 2000.0, 1.0, 0.0));
    /// let averse = near_best(model.drawn_at(&rows, 2000.0, 1.0, 4.0));
    /// assert!(averse > plain);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn drawn_at(&self, rows: &[f64], rating: f64, temperature: f64, gap_weight: f64) -> Vec<f64> {
        let u = self.utilities(rows, rating);
        softmax(
            &u.iter().zip(rows.chunks_exact(K)).map(|(x, f)| x / temperature - gap_weight * f[GAP]).collect::<Vec<_>>(),
        )
    }

    /// The utilities of the moves whose features are `rows` for a player of
    /// `rating`: the [network](HumanModel::network)'s if the model has one,
    /// else the linear model's.
    pub fn utilities(&self, rows: &[f64], rating: f64) -> Vec<f64> {
        let z = rating_z(rating);
        match &self.network {
            Some(n) => n.utilities(rows, z),
            None => utilities(&self.weights, rows, z),
        }
    }

    /// The temperature `pick=sample` draws at for a player of `rating`:
    /// the [`temper`](HumanModel::temper) curve, interpolated linearly in
    /// `ln τ` between its anchors and constant beyond them; 1 without one.
    ///
    /// ```
    /// use games_chess::human::{HumanModel, TemperAnchor};
    /// let mut m = (*HumanModel::embedded()?).clone();
    /// m.temper = vec![
    ///     TemperAnchor { rating: 1000.0, temperature: 2.0, gap_weight: 0.0 },
    ///     TemperAnchor { rating: 2000.0, temperature: 0.5, gap_weight: 0.0 },
    /// ];
    /// assert_eq!(m.temperature(800.0), 2.0);
    /// assert!((m.temperature(1500.0) - 1.0).abs() < 1e-12); // √(2 × 0.5)
    /// assert_eq!(m.temperature(2400.0), 0.5);
    /// # Ok::<(), games_chess::human::ModelError>(())
    /// ```
    pub fn temperature(&self, rating: f64) -> f64 {
        match self.bracket(rating) {
            None => 1.0,
            Some((lo, _, 0.0)) => lo.temperature,
            Some((lo, hi, w)) => (lo.temperature.ln() * (1.0 - w) + hi.temperature.ln() * w).exp(),
        }
    }

    /// The gap weight `pick=sample` draws with for a player of `rating`
    /// (see [`TemperAnchor::gap_weight`]): the [`temper`](HumanModel::temper)
    /// curve's, interpolated linearly between its anchors and constant
    /// beyond them; 0 without one.
    ///
    /// ```
    /// use games_chess::human::{HumanModel, TemperAnchor};
    /// let mut m = (*HumanModel::embedded()?).clone();
    /// m.temper = vec![
    ///     TemperAnchor { rating: 1800.0, temperature: 0.6, gap_weight: 0.0 },
    ///     TemperAnchor { rating: 2100.0, temperature: 0.2, gap_weight: 3.0 },
    /// ];
    /// assert_eq!(m.gap_weight(1500.0), 0.0);
    /// assert!((m.gap_weight(2000.0) - 2.0).abs() < 1e-12);
    /// assert_eq!(m.gap_weight(2400.0), 3.0);
    /// # Ok::<(), games_chess::human::ModelError>(())
    /// ```
    pub fn gap_weight(&self, rating: f64) -> f64 {
        self.bracket(rating).map_or(0.0, |(lo, hi, w)| lo.gap_weight * (1.0 - w) + hi.gap_weight * w)
    }

    /// The temper curve's anchors on either side of `rating` and how far
    /// `rating` lies from the first to the second (0 to 1); beyond the
    /// anchors, the end anchor twice at 0; `None` without anchors.
    fn bracket(&self, rating: f64) -> Option<(&TemperAnchor, &TemperAnchor, f64)> {
        let a = &self.temper;
        match a.iter().position(|t| t.rating >= rating) {
            None => a.last().map(|t| (t, t, 0.0)),
            Some(0) => Some((&a[0], &a[0], 0.0)),
            Some(i) => Some((&a[i - 1], &a[i], (rating - a[i - 1].rating) / (a[i].rating - a[i - 1].rating))),
        }
    }
}

/// The index of the `gap` feature in a move's row (pawns below the best
/// move, at most [`GAP_CAP`]).
const GAP: usize = 0;

/// Temperature anchors must have finite, strictly increasing ratings,
/// finite positive temperatures and finite gap weights of 0 or more.
fn check_temper(anchors: &[TemperAnchor]) -> Result<(), ModelError> {
    if anchors.iter().any(|t| !(t.rating.is_finite() && t.temperature.is_finite() && t.temperature > 0.0)) {
        return Err(ModelError("a temperature anchor is not finite or not positive".into()));
    }
    for t in anchors {
        within("gap weight", t.gap_weight, GAP_WEIGHT_RANGE)?;
    }
    if anchors.windows(2).any(|w| w[0].rating >= w[1].rating) {
        return Err(ModelError("the temperature anchors' ratings are not strictly increasing".into()));
    }
    Ok(())
}

/// `value` if it lies in `range` (both ends included), else an error that
/// names it as `what`.
fn within(what: &str, value: f64, range: (f64, f64)) -> Result<(), ModelError> {
    if (range.0..=range.1).contains(&value) {
        Ok(())
    } else {
        Err(ModelError(format!("{what} {value} is outside {} to {}", range.0, range.1)))
    }
}

/// The temperatures a `temper=T` setting accepts.
pub const TEMPERATURE_RANGE: (f64, f64) = (0.05, 20.0);

/// The gap weights a `gap=W` setting (and a temper curve) accepts, in
/// logits per pawn.
pub const GAP_WEIGHT_RANGE: (f64, f64) = (0.0, 100.0);

/// How a human agent turns the model's distribution into a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// Draw a move from the distribution (the seeded RNG of the match).
    Sample,
    /// Play the most likely move (the first in generation order on ties).
    Mode,
}

impl Pick {
    /// `sample` or `mode`.
    pub fn name(self) -> &'static str {
        match self {
            Pick::Sample => "sample",
            Pick::Mode => "mode",
        }
    }
}

impl std::str::FromStr for Pick {
    type Err = PickError;
    fn from_str(s: &str) -> Result<Pick, PickError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sample" => Ok(Pick::Sample),
            "mode" => Ok(Pick::Mode),
            _ => Err(PickError { input: GameError::shorten(s) }),
        }
    }
}

/// A [`Pick`] that is neither `sample` nor `mode` (case-insensitive).
///
/// ```
/// use games_chess::human::Pick;
/// assert_eq!("Mode".parse::<Pick>(), Ok(Pick::Mode));
/// let e = "best".parse::<Pick>().unwrap_err();
/// assert_eq!(e.to_string(), "pick must be sample or mode, got \"best\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pick must be sample or mode, got {input:?}")]
pub struct PickError {
    /// The text as given ([shortened](GameError::shorten)).
    pub input: String,
}

/// Legal moves, their probabilities and their searched values.
type Explained = (Vec<Move>, Vec<f64>, Vec<f64>);

/// Plays like a rated human: the model's move distribution for its rating,
/// sampled or its mode.
#[derive(Debug)]
pub struct HumanAgent {
    model: Arc<HumanModel>,
    rating: f64,
    pick: Pick,
    temperature: f64,
    /// Whether the temperature was set rather than the model's.
    temperature_set: bool,
    gap_weight: f64,
    /// Whether the gap weight was set rather than the model's.
    gap_weight_set: bool,
    values: MoveValues,
}

impl HumanAgent {
    /// An agent for a player of `rating` (within [`RATING_RANGE`]).
    pub fn new(model: Arc<HumanModel>, rating: f64, pick: Pick) -> Result<HumanAgent, ModelError> {
        if !(RATING_RANGE.0..=RATING_RANGE.1).contains(&rating) {
            return Err(ModelError(format!("rating {rating} is outside {} to {}", RATING_RANGE.0, RATING_RANGE.1)));
        }
        let values = MoveValues::new(model.depth, 4).map_err(|e| ModelError(e.to_string()))?;
        let (temperature, gap_weight) = (model.temperature(rating), model.gap_weight(rating));
        Ok(HumanAgent {
            model,
            rating,
            pick,
            temperature,
            temperature_set: false,
            gap_weight,
            gap_weight_set: false,
            values,
        })
    }

    /// The same player drawing at `temperature` instead of the model's
    /// fitted one (within [`TEMPERATURE_RANGE`]): lower plays the model's
    /// favourite moves more often, and stronger.
    pub fn with_temperature(mut self, temperature: f64) -> Result<HumanAgent, ModelError> {
        within("temperature", temperature, TEMPERATURE_RANGE)?;
        self.temperature = temperature;
        self.temperature_set = true;
        Ok(self)
    }

    /// The temperature `pick=sample` draws at.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// The same player drawing with `gap_weight` logits taken off a move
    /// per pawn of its gap to the best move (within [`GAP_WEIGHT_RANGE`])
    /// instead of the model's weight for the rating: higher avoids the
    /// moves a short search sees to be worse, and is stronger.
    pub fn with_gap_weight(mut self, gap_weight: f64) -> Result<HumanAgent, ModelError> {
        within("gap weight", gap_weight, GAP_WEIGHT_RANGE)?;
        self.gap_weight = gap_weight;
        self.gap_weight_set = true;
        Ok(self)
    }

    /// The gap weight `pick=sample` draws with.
    pub fn gap_weight(&self) -> f64 {
        self.gap_weight
    }

    /// The legal moves of `state` and the probability of each: with
    /// `pick=sample` the chance this player plays it (at the player's
    /// temperature and gap weight), with `pick=mode` the model's own (the
    /// player plays the most likely).
    pub fn distribution(&mut self, state: &ChessGame) -> Result<(Vec<Move>, Vec<f64>), GameError> {
        self.explained(state).map(|(m, p, _)| (m, p))
    }

    /// The legal moves, their probabilities and their searched values:
    /// the distribution drawn from with `pick=sample`, the model's own with
    /// `pick=mode` (whose most likely move neither the temperature nor the
    /// gap weight changes).
    fn explained(&mut self, state: &ChessGame) -> Result<Explained, GameError> {
        let (moves, values) = self.values.values(state)?;
        let rows = move_features(state, &moves, &values, Some(&self.model.prior), Some(&self.model.book));
        let p = match self.pick {
            Pick::Sample => self.model.drawn_at(&rows, self.rating, self.temperature, self.gap_weight),
            Pick::Mode => self.model.probabilities(&rows, self.rating),
        };
        Ok((moves, p, values))
    }
}

impl Agent<ChessGame> for HumanAgent {
    fn name(&self) -> String {
        let temper = if self.temperature_set { format!(",temper={}", self.temperature) } else { String::new() };
        let gap = if self.gap_weight_set { format!(",gap={}", self.gap_weight) } else { String::new() };
        format!("human:{},pick={}{temper}{gap}", self.rating, self.pick.name())
    }

    fn choose(&mut self, state: &ChessGame, rng: &mut dyn RngCore) -> Result<Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    fn choose_explained(&mut self, state: &ChessGame, rng: &mut dyn RngCore) -> Result<Choice<Move>, GameError> {
        let (moves, p, values) = self.explained(state)?;
        let i = match self.pick {
            Pick::Sample => search_core::rng::sample_index(&p, rng),
            Pick::Mode => mode(&p),
        };
        let thought = Thought {
            distribution: moves.iter().copied().zip(p.iter().copied()).collect(),
            scores: moves.iter().copied().zip(values.iter().copied()).collect(),
            value: values.iter().copied().reduce(f64::max),
            pv: vec![moves[i]],
            stats: Default::default(),
        };
        Ok(Choice { mv: moves[i], thought: Some(thought) })
    }
}

/// Builds `human:X[,pick=sample|mode][,temper=T][,gap=W]` with the
/// embedded model (`temper` and `gap` override the model's temperature and
/// gap weight for the rating), or with a model given at run time
/// ([`HumanAgents::with_model`]).
#[derive(Debug, Clone, Default)]
pub struct HumanAgents {
    model: Option<Arc<HumanModel>>,
}

impl HumanAgents {
    /// Agents of `model` instead of the embedded one (a model just trained,
    /// say).
    pub fn with_model(model: Arc<HumanModel>) -> HumanAgents {
        HumanAgents { model: Some(model) }
    }
}

impl AgentFactory<ChessGame> for HumanAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<ChessGame>>, SpecError> {
        if spec.kind() != "human" {
            return Ok(None);
        }
        let mut r = spec.reader();
        let rating: f64 = r.argument("rating")?;
        let pick = match r.take::<String>("pick")? {
            Some(p) => p.parse::<Pick>().map_err(|e| SpecError::new(spec, e.to_string()))?,
            None => Pick::Sample,
        };
        let temper: Option<f64> = r.take("temper")?;
        let gap: Option<f64> = r.take("gap")?;
        r.finish(&["pick", "temper", "gap"])?;
        let model = match &self.model {
            Some(m) => m.clone(),
            None => HumanModel::embedded().map_err(|e| SpecError::new(spec, e.to_string()))?,
        };
        let mut agent = HumanAgent::new(model, rating, pick).map_err(|e| SpecError::new(spec, e.to_string()))?;
        if let Some(t) = temper {
            agent = agent.with_temperature(t).map_err(|e| SpecError::new(spec, e.to_string()))?;
        }
        if let Some(w) = gap {
            agent = agent.with_gap_weight(w).map_err(|e| SpecError::new(spec, e.to_string()))?;
        }
        Ok(Some(Box::new(agent)))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "human:X[,pick=sample|mode][,temper=T][,gap=W]".into(),
            format!(
                "plays like a Lichess player rated X ({:.0} to {:.0}), learned from rated games; temper=T draws at \
                 temperature T and gap=W takes W logits off a move per pawn it loses, instead of the values fitted \
                 for X",
                RATING_RANGE.0, RATING_RANGE.1
            ),
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::{Game, rng};
    use strength::agents::Roster;

    #[test]
    fn human_agents_play_legal_moves_and_refuse_bad_specs() {
        let roster = Roster::new().with(HumanAgents::default());
        for spec in ["human:1500", "human:900,pick=mode", "human:2100,pick=sample"] {
            let mut a = roster.build(spec).unwrap();
            let mut g = ChessGame::startpos();
            let mut r = rng::seeded(5);
            for _ in 0..12 {
                let mut legal = Vec::new();
                if g.generate(&mut legal) != search_core::Status::Ongoing {
                    break;
                }
                let mv = a.choose(&g, &mut r).unwrap();
                assert!(legal.contains(&mv), "{spec}: illegal {mv}");
                g.play(mv);
            }
        }
        for bad in [
            "human",
            "human:abc",
            "human:100",
            "human:1500,pick=best",
            "human:1500,colour=red",
            "human:1500,temper=0",
            "human:1500,gap=-1",
        ] {
            assert!(roster.build(bad).is_err(), "{bad} was accepted");
        }
    }

    /// The gap weight moves the draw towards the moves the short search
    /// values best, `gap=W` sets it, and the constant naming the feature
    /// names the right one.
    #[test]
    fn a_gap_weight_draws_the_better_moves_more_often() {
        assert_eq!(FEATURES[GAP], "gap");
        // Black can take a knight on d4 for nothing, or play elsewhere.
        let g = ChessGame::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/3NP3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 3").unwrap();
        let roster = Roster::new().with(HumanAgents::default());
        let mut plain = HumanAgent::new(HumanModel::embedded().unwrap(), 1500.0, Pick::Sample).unwrap();
        let (moves, p) = plain.distribution(&g).unwrap();
        let mut averse = plain.with_gap_weight(5.0).unwrap();
        let (_, q) = averse.distribution(&g).unwrap();
        let (_, values) = MoveValues::new(HumanModel::embedded().unwrap().depth, 1).unwrap().values(&g).unwrap();
        let best = values.iter().copied().fold(f64::MIN, f64::max);
        let near = |p: &[f64]| (0..moves.len()).filter(|&i| values[i] > best - 50.0).map(|i| p[i]).sum::<f64>();
        assert!(near(&q) > near(&p) + 0.01, "{} against {}", near(&q), near(&p));
        let named = roster.build("human:1500,gap=5").unwrap();
        assert_eq!(named.name(), "human:1500,pick=sample,gap=5");
        assert!(
            HumanAgent::new(HumanModel::embedded().unwrap(), 1500.0, Pick::Sample)
                .unwrap()
                .with_gap_weight(101.0)
                .is_err()
        );
    }

    #[test]
    fn sampling_is_seeded_and_mode_is_deterministic() {
        let roster = Roster::new().with(HumanAgents::default());
        let g = ChessGame::startpos();
        let draw = |spec: &str, seed: u64| roster.build(spec).unwrap().choose(&g, &mut rng::seeded(seed)).unwrap();
        assert_eq!(draw("human:1200", 9), draw("human:1200", 9));
        assert_eq!(draw("human:1200,pick=mode", 1), draw("human:1200,pick=mode", 2));
    }

    #[test]
    fn a_lower_temperature_sharpens_the_draw_and_mode_ignores_it() {
        let g = ChessGame::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let model = HumanModel::embedded().unwrap();
        let top = |t: f64| {
            let mut a = HumanAgent::new(model.clone(), 1500.0, Pick::Sample).unwrap().with_temperature(t).unwrap();
            let (_, p) = a.distribution(&g).unwrap();
            p.iter().copied().fold(0.0, f64::max)
        };
        assert!(top(0.5) > top(1.0) && top(1.0) > top(2.0));
        let mode = |t: f64, w: f64| {
            let a = HumanAgent::new(model.clone(), 1500.0, Pick::Mode).unwrap().with_temperature(t).unwrap();
            a.with_gap_weight(w).unwrap().choose(&g, &mut rng::seeded(1)).unwrap()
        };
        assert_eq!(mode(0.3, 0.0), mode(3.0, 0.0));
        assert_eq!(mode(1.0, 0.0), mode(1.0, 50.0));
        assert!(HumanAgent::new(model, 1500.0, Pick::Sample).unwrap().with_temperature(25.0).is_err());
    }

    #[test]
    fn the_embedded_model_reads_and_a_broken_one_does_not() {
        let m = HumanModel::embedded().unwrap();
        let back = HumanModel::from_json(&m.to_json()).unwrap();
        assert_eq!(*m, back);
        let mut broken = (*m).clone();
        broken.weights.pop();
        assert!(HumanModel::from_json(&broken.to_json()).is_err());
        for anchors in [
            [(1000.0, 1.0, 0.0), (1000.0, 0.5, 0.0)],
            [(1000.0, 1.0, 0.0), (1200.0, 0.0, 0.0)],
            [(f64::NAN, 1.0, 0.0), (1.0, 1.0, 0.0)],
            [(1000.0, 1.0, 0.0), (1200.0, 0.5, -1.0)],
            [(1000.0, 1.0, f64::INFINITY), (1200.0, 0.5, 0.0)],
        ] {
            let mut broken = (*m).clone();
            broken.temper = anchors
                .map(|(rating, temperature, gap_weight)| TemperAnchor { rating, temperature, gap_weight })
                .to_vec();
            assert!(HumanModel::from_json(&broken.to_json()).is_err(), "{anchors:?}");
        }
        assert!(HumanModel::from_json("{").is_err());
    }

    /// A model with a network plays by the network's utilities, reads back
    /// equal, and a network of the wrong shape or with a non-finite number
    /// is refused by name.
    #[test]
    fn a_network_replaces_the_linear_utility_and_is_checked() {
        let mut m = (*HumanModel::embedded().unwrap()).clone();
        let mut weights = vec![0.0; 3 * INPUTS];
        weights[INPUTS + 1] = 1.0; // unit 1 passes the second standardised feature
        let net = Network {
            standard: Standardisation { mean: vec![0.5; K], scale: vec![2.0; K] },
            hidden: vec![Dense { inputs: INPUTS, outputs: 3, weights, bias: vec![0.0; 3] }],
            output: vec![0.0, -4.0, 0.0],
            output_bias: 0.25,
            skip: vec![0.0; INPUTS],
        };
        m.network = Some(net.clone());
        let back = HumanModel::from_json(&m.to_json()).unwrap();
        assert_eq!(back, m);
        let mut rows = vec![0.0; 2 * K];
        rows[1] = 4.5; // the first move's second feature: (4.5 − 0.5)/2 = 2
        assert_eq!(m.utilities(&rows, 1500.0), vec![0.25 - 8.0, 0.25]);
        let p = m.probabilities(&rows, 1500.0);
        assert!(p[1] > 0.99, "{p:?}");
        let breaks: [fn(&mut Network); 5] = [
            |n| n.hidden[0].weights.pop().map(drop).unwrap_or(()),
            |n| n.output.push(1.0),
            |n| n.standard.scale[3] = 0.0,
            |n| n.skip[0] = f64::NAN,
            |n| n.hidden.clear(),
        ];
        for (i, broken) in breaks.iter().enumerate() {
            let mut bad = net.clone();
            broken(&mut bad);
            let e = bad.check().unwrap_err();
            assert!(e.to_string().contains("network"), "break {i}: {e}");
            // Through JSON too (where a NaN is already refused by the parser).
            let text = HumanModel { network: Some(bad), ..m.clone() }.to_json();
            assert!(HumanModel::from_json(&text).is_err(), "break {i}");
        }
    }
}
