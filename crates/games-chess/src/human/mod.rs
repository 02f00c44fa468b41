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
//! * [`HumanModel`]: fitted weights with their provenance, as saved in
//!   this crate's `calibration/human-chess.json`, embedded
//!   ([`HumanModel::embedded`]).
//! * [`HumanAgent`]: plays like a player of rating `X`: samples a move from
//!   the model (`pick=sample`) or plays its most likely move (`pick=mode`);
//!   [`HumanAgents`] builds it from the spec `human:X[,pick=sample|mode]`.
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

mod corpus;
mod features;
mod model;

use std::sync::Arc;

use rand::RngCore;
use search_core::agent::{Choice, Thought};
use search_core::{Agent, GameError};
use serde::{Deserialize, Serialize};
use shakmaty::Move;
use strength::agents::{AgentFactory, BoxedAgent};
use strength::spec::{AgentSpec, SpecError};

use crate::ChessGame;

pub use corpus::{
    BANDS, Corpus, CorpusGame, CsvError, Position, Skip, Skipped, Speed, Split, TimeControl, band_of, fnv1a,
};
pub use features::{
    FEATURES, GAP_CAP, K, KEYS, MoveValues, PRIOR, VALUE_CAP, move_features, move_key, move_prior, piece_value,
};
pub use model::{Decisions, FitResult, Mask, RATING_CENTER, RATING_SCALE, fit, loglik, rating_z, softmax, utilities};

/// The fitted model as the crate embeds it: this crate's
/// `calibration/human-chess.json`, which `cargo xtask human train` writes.
pub const MODEL_JSON: &str = include_str!("../../calibration/human-chess.json");

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
    /// player of `rating`.
    pub fn probabilities(&self, rows: &[f64], rating: f64) -> Vec<f64> {
        softmax(&utilities(&self.weights, rows, rating_z(rating)))
    }
}

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
    values: MoveValues,
}

impl HumanAgent {
    /// An agent for a player of `rating` (within [`RATING_RANGE`]).
    pub fn new(model: Arc<HumanModel>, rating: f64, pick: Pick) -> Result<HumanAgent, ModelError> {
        if !(RATING_RANGE.0..=RATING_RANGE.1).contains(&rating) {
            return Err(ModelError(format!("rating {rating} is outside {} to {}", RATING_RANGE.0, RATING_RANGE.1)));
        }
        let values = MoveValues::new(model.depth, 4).map_err(|e| ModelError(e.to_string()))?;
        Ok(HumanAgent { model, rating, pick, values })
    }

    /// The legal moves of `state` and the model's probability of each.
    pub fn distribution(&mut self, state: &ChessGame) -> Result<(Vec<Move>, Vec<f64>), GameError> {
        self.explained(state).map(|(m, p, _)| (m, p))
    }

    /// The legal moves, their probabilities and their searched values.
    fn explained(&mut self, state: &ChessGame) -> Result<Explained, GameError> {
        let (moves, values) = self.values.values(state)?;
        let rows = move_features(state, &moves, &values, Some(&self.model.prior));
        let p = self.model.probabilities(&rows, self.rating);
        Ok((moves, p, values))
    }
}

impl Agent<ChessGame> for HumanAgent {
    fn name(&self) -> String {
        format!("human:{},pick={}", self.rating, self.pick.name())
    }

    fn choose(&mut self, state: &ChessGame, rng: &mut dyn RngCore) -> Result<Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    fn choose_explained(&mut self, state: &ChessGame, rng: &mut dyn RngCore) -> Result<Choice<Move>, GameError> {
        let (moves, p, values) = self.explained(state)?;
        let i = match self.pick {
            Pick::Sample => search_core::rng::sample_index(&p, rng),
            Pick::Mode => (0..p.len()).fold(0, |b, i| if p[i] > p[b] { i } else { b }),
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

/// Builds `human:X[,pick=sample|mode]` with the embedded model.
#[derive(Debug, Clone, Default)]
pub struct HumanAgents;

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
        r.finish(&["pick"])?;
        let model = HumanModel::embedded().map_err(|e| SpecError::new(spec, e.to_string()))?;
        let agent = HumanAgent::new(model, rating, pick).map_err(|e| SpecError::new(spec, e.to_string()))?;
        Ok(Some(Box::new(agent)))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "human:X[,pick=sample|mode]".into(),
            format!(
                "plays like a Lichess player rated X ({:.0} to {:.0}), learned from rated games",
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
        let roster = Roster::new().with(HumanAgents);
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
        for bad in ["human", "human:abc", "human:100", "human:1500,pick=best", "human:1500,colour=red"] {
            assert!(roster.build(bad).is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn sampling_is_seeded_and_mode_is_deterministic() {
        let roster = Roster::new().with(HumanAgents);
        let g = ChessGame::startpos();
        let draw = |spec: &str, seed: u64| roster.build(spec).unwrap().choose(&g, &mut rng::seeded(seed)).unwrap();
        assert_eq!(draw("human:1200", 9), draw("human:1200", 9));
        assert_eq!(draw("human:1200,pick=mode", 1), draw("human:1200,pick=mode", 2));
    }

    #[test]
    fn the_embedded_model_reads_and_a_broken_one_does_not() {
        let m = HumanModel::embedded().unwrap();
        let back = HumanModel::from_json(&m.to_json()).unwrap();
        assert_eq!(*m, back);
        let mut broken = (*m).clone();
        broken.weights.pop();
        assert!(HumanModel::from_json(&broken.to_json()).is_err());
        assert!(HumanModel::from_json("{").is_err());
    }
}
