//! `UCI_LimitStrength` and `UCI_Elo`: the [strength dial](strength::dial)
//! over the chess calibration the crate embeds.
//!
//! The calibration (`crates/games-chess/calibration/chess.json`, written by
//! `cargo xtask calibrate chess`) is compiled into the engine and parsed
//! once, the first time it is needed. For a `UCI_Elo` the dial gives a
//! setting, an agent spec of the `strength` crate, which the engine plays
//! exactly as that crate's agents do ([`StrengthSetting`]):
//!
//! * `random`: a uniformly random legal move;
//! * `alphabeta:depth=D`: the best move of a depth-`D` search (the library's
//!   recommended alpha-beta engine), ties broken at random;
//! * `boltzmann:depth=D,cap=C,theta=T`: `p ∝ exp(T·v)` over the exact depth-`D`
//!   minimax values `v` of the root moves (centipawns, each clamped to
//!   `±C`), sampled;
//! * `kibitz:nodes=N`: the engine at full strength searching `N` nodes, as
//!   [`KibitzAgent`](crate::kibitz::KibitzAgent) plays (the dial's top).
//!
//! Each `go` searches as a freshly built agent does (the strength searches'
//! tables are emptied first), and its random choices use a generator seeded
//! from the `Seed` option, the position's Zobrist key and its move number
//! ([`move_seed`]): the same seed and position (with the same history) give
//! the same move, and exactly the move the `strength` crate's agent picks
//! with that generator.

use std::sync::OnceLock;

use search_core::backup::Minimax;
use search_core::policy::Softmax;
use search_core::search::{Limits, Options, Search};
use search_core::{Game, ParamError, rng};
use shakmaty::{Color, Position};
use strength::dial::{Calibration, Dial, DialError};
use strength::spec::{AgentSpec, SpecError};

use crate::{ChessEval, ChessGame};

/// The chess calibration of the strength dial, as embedded in the engine.
pub const CALIBRATION_JSON: &str = include_str!("../../calibration/chess.json");

/// The transposition table (MiB) of the searches that play a strength
/// setting: the size the calibration's agents had (`Hash` does not change
/// it, so that the setting plays as it was rated).
pub const STRENGTH_TABLE_MIB: usize = 16;

/// The `UCI_Elo` default, clamped into the calibrated range (a club
/// player's strength; where the dial's top is below it, the dial's top, the
/// nearest value, rather than the middle of a range that reaches down to
/// random play).
pub const PREFERRED_DEFAULT_ELO: i64 = 1500;

/// Why the engine cannot play a strength setting (`UCI_LimitStrength`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StrengthError {
    /// The embedded calibration ([`CALIBRATION_JSON`]) does not parse or
    /// does not make a dial (then the engine does not offer the options).
    #[error("the embedded chess calibration is unusable: {0}")]
    Calibration(#[source] DialError),
    /// The dial has no `UCI_Elo` range.
    #[error("no UCI_Elo range")]
    NoRange,
    /// The dial has no setting at the rating asked for.
    #[error(transparent)]
    Setting(DialError),
    /// The dial's setting is not one the engine plays.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The setting's search cannot be built.
    #[error(transparent)]
    Search(#[from] ParamError),
}

/// The dial over [`CALIBRATION_JSON`], parsed once; the error
/// ([`StrengthError::Calibration`]) says why the calibration is unusable
/// (then the engine does not offer the options).
///
/// ```
/// let dial = games_chess::uci::strength_dial()?;
/// let (lo, hi) = dial.range();
/// assert!(lo < hi);
/// # Ok::<(), games_chess::uci::StrengthError>(())
/// ```
pub fn strength_dial() -> Result<&'static Dial, StrengthError> {
    static DIAL: OnceLock<Result<Dial, DialError>> = OnceLock::new();
    DIAL.get_or_init(|| Calibration::from_json(CALIBRATION_JSON).and_then(Dial::new))
        .as_ref()
        .map_err(|e| StrengthError::Calibration(e.clone()))
}

/// The values `UCI_Elo` takes: the dial's range rounded inwards and cut at
/// 0 (no negative Elo is offered to a GUI or a player), and the default.
///
/// The chess dial's scale is Stockfish's `UCI_Elo` (the calibration is
/// anchored there), and its weakest rungs, down to random play, are rated
/// below 0 on it: those are not offered, and `UCI_Elo` 0 (the advertised
/// minimum) plays the dial's setting at rating 0, the weakest the engine
/// plays. Should a calibration's lowest rating be above 0, the minimum is
/// that rating.
///
/// ```
/// let r = games_chess::uci::elo_range().unwrap();
/// assert!(0 <= r.min && r.min <= r.default && r.default <= r.max);
/// assert_eq!(r.clamp(-500), r.min);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EloRange {
    /// The lowest value: the dial's lowest rating rounded up, or 0 if that
    /// is negative.
    pub min: i64,
    /// The highest value: the dial's highest rating, rounded down.
    pub max: i64,
    /// [`PREFERRED_DEFAULT_ELO`] clamped into `min ..= max`.
    pub default: i64,
}

impl EloRange {
    /// `elo` clamped into the range.
    pub fn clamp(&self, elo: i64) -> i64 {
        elo.clamp(self.min, self.max)
    }
}

/// The range of `UCI_Elo` (`None` if the embedded calibration is
/// unusable).
pub fn elo_range() -> Option<EloRange> {
    let (lo, hi) = strength_dial().ok()?.range();
    let (mut min, mut max) = (lo.ceil() as i64, hi.floor() as i64);
    if min > max {
        // A range narrower than one point: its rounded middle.
        min = ((lo + hi) / 2.0).round() as i64;
        max = min;
    }
    // No negative rating is offered (unless the dial has no other).
    let min = min.max(0).min(max);
    let default = PREFERRED_DEFAULT_ELO.clamp(min, max);
    Some(EloRange { min, max, default })
}

/// The `UCI_Elo` default ([`PREFERRED_DEFAULT_ELO`] without a calibration).
pub(super) fn default_elo() -> i64 {
    elo_range().map_or(PREFERRED_DEFAULT_ELO, |r| r.default)
}

/// A setting of the dial, ready to play.
#[derive(Debug, Clone, PartialEq)]
pub enum StrengthSetting {
    /// `random`: a uniformly random legal move.
    Random,
    /// `alphabeta:depth=D[,nodes=N]`: the best move of the depth-`D` search,
    /// ties at random.
    Best {
        /// The search's depth `D`.
        depth: u32,
        /// Its node limit, if any.
        nodes: Option<u64>,
    },
    /// `boltzmann:depth=D,theta=T[,cap=C|,softcap=C][,nodes=N]`: the softmax over the
    /// exact depth-`D` root values.
    Boltzmann {
        /// The search's depth `D`.
        depth: u32,
        /// Its node limit, if any.
        nodes: Option<u64>,
        /// θ and the cap.
        softmax: Softmax,
    },
    /// `kibitz:nodes=N`: the engine at full strength, `N` nodes a move.
    Kibitz {
        /// Its node budget `N`.
        nodes: u64,
    },
}

impl StrengthSetting {
    /// Reads a spec of the kinds the dial gives, with the keys and checks of
    /// the `strength` crate's agents (`StandardAgents`).
    ///
    /// ```
    /// use games_chess::uci::StrengthSetting;
    /// let s = StrengthSetting::from_spec(&"boltzmann:depth=2,cap=1000,theta=0.01".parse().unwrap()).unwrap();
    /// assert!(matches!(s, StrengthSetting::Boltzmann { .. }));
    /// assert!(StrengthSetting::from_spec(&"alphabeta:depth=0".parse().unwrap()).is_err());
    /// assert!(StrengthSetting::from_spec(&"iom:depth=2".parse().unwrap()).is_err());
    /// ```
    pub fn from_spec(spec: &AgentSpec) -> Result<StrengthSetting, SpecError> {
        let mut r = spec.reader();
        let limits = |r: &mut strength::spec::SpecReader<'_>| -> Result<(u32, Option<u64>), SpecError> {
            let depth: u32 = r.require("depth")?;
            let nodes: Option<u64> = r.take("nodes")?;
            let mut limits = Limits::depth(depth);
            if let Some(n) = nodes {
                limits = limits.with_nodes(n);
            }
            limits.validate().map_err(|e| SpecError::new(spec, e.to_string()))?;
            Ok((depth, nodes))
        };
        match spec.kind() {
            "random" => {
                r.finish(&[])?;
                Ok(StrengthSetting::Random)
            }
            "alphabeta" => {
                let (depth, nodes) = limits(&mut r)?;
                r.finish(&["depth", "nodes"])?;
                Ok(StrengthSetting::Best { depth, nodes })
            }
            "boltzmann" => {
                let (depth, nodes) = limits(&mut r)?;
                let softmax = strength::agents::read_softmax(&mut r, spec)?;
                r.finish(&["depth", "nodes", "theta", "cap", "softcap"])?;
                Ok(StrengthSetting::Boltzmann { depth, nodes, softmax })
            }
            "kibitz" => Ok(StrengthSetting::Kibitz { nodes: crate::kibitz::read_spec(spec)? }),
            other => Err(SpecError::new(spec, format!("the engine cannot play a {other:?} setting"))),
        }
    }

    /// The search options of the setting, exactly those of the `strength`
    /// crate's agents on chess: the recommended alpha-beta engine with a
    /// [`STRENGTH_TABLE_MIB`] table; for `boltzmann`, no aspiration window
    /// and exact root scores; for `kibitz`, the engine's own
    /// ([`engine_options`](crate::kibitz::engine_options) with a
    /// [`kibitz::TABLE_MIB`](crate::kibitz::TABLE_MIB) table). `None` for
    /// `random`.
    pub fn options(&self) -> Option<Options> {
        let recommended =
            Options::recommended::<ChessGame, Minimax, ChessEval>(&ChessEval).with_table_mib(STRENGTH_TABLE_MIB);
        match self {
            StrengthSetting::Random => None,
            StrengthSetting::Best { .. } => Some(recommended),
            StrengthSetting::Boltzmann { .. } => Some(recommended.with_aspiration(None).with_exact_root(true)),
            StrengthSetting::Kibitz { .. } => Some(crate::kibitz::engine_options(crate::kibitz::TABLE_MIB)),
        }
    }

    /// The search's depth and node limits (`None` for `random`), as the
    /// `strength` crate's agents search.
    pub fn limits(&self) -> Option<Limits> {
        match *self {
            StrengthSetting::Random => None,
            StrengthSetting::Kibitz { nodes } => Some(crate::kibitz::node_limits(nodes)),
            StrengthSetting::Best { depth, nodes } | StrengthSetting::Boltzmann { depth, nodes, .. } => {
                let limits = Limits::depth(depth);
                Some(match nodes {
                    Some(n) => limits.with_nodes(n),
                    None => limits,
                })
            }
        }
    }

    /// The search's depth (0 for `random`, the deepest iteration for
    /// `kibitz`, which a node budget stops first).
    pub fn depth(&self) -> u32 {
        match *self {
            StrengthSetting::Random => 0,
            StrengthSetting::Kibitz { .. } => crate::kibitz::MAX_DEPTH,
            StrengthSetting::Best { depth, .. } | StrengthSetting::Boltzmann { depth, .. } => depth,
        }
    }
}

/// The dial's setting at `elo`, as a spec and ready to play. The ends of
/// [`elo_range`] are the ends of the dial (its range is rounded inwards to
/// whole numbers): `UCI_Elo` at its maximum plays the dial's top setting
/// (usually `alphabeta:depth=D`), at its minimum the bottom one (`random`);
/// values outside are clamped.
pub fn setting_at(elo: i64) -> Result<(AgentSpec, StrengthSetting), StrengthError> {
    let dial = strength_dial()?;
    let (lo, hi) = dial.range();
    let range = elo_range().ok_or(StrengthError::NoRange)?;
    let rating = if elo >= range.max {
        hi
    } else if elo <= range.min {
        lo
    } else {
        (elo as f64).clamp(lo, hi)
    };
    let spec = dial.setting(rating).map_err(StrengthError::Setting)?;
    let setting = StrengthSetting::from_spec(&spec)?;
    Ok((spec, setting))
}

/// The seed of the random choice of a `go` at `position` with the `Seed`
/// option `seed`: `seed`, the position's Zobrist key and its ply number
/// (from the full-move number and the side to move), mixed by SplitMix64
/// ([`rng::derive_seed`]). It depends on nothing else: the same seed and
/// position always give the same move, whatever came before.
pub fn move_seed(seed: u64, position: &ChessGame) -> u64 {
    let key = position.hash_key().unwrap_or(0);
    let pos = position.position();
    let ply = 2 * u64::from(pos.fullmoves().get()) + u64::from(pos.turn() == Color::Black);
    rng::derive_seed(rng::derive_seed(seed, key), ply)
}

/// The search that plays `setting`, as built the first time it is needed.
pub(super) type StrengthSearch = super::brain::ChessSearch;

/// Builds the search of `setting` (`None` for `random`): with
/// [`ChessEval`], or the engine's [`EngineEval`](crate::EngineEval) for
/// `kibitz`.
pub(super) fn build_search(setting: &StrengthSetting) -> Option<Result<StrengthSearch, search_core::ParamError>> {
    let options = setting.options()?;
    Some(match setting {
        StrengthSetting::Kibitz { .. } => {
            crate::kibitz::kibitz_search(crate::kibitz::TABLE_MIB).map(|s| Box::new(s) as StrengthSearch)
        }
        _ => Search::new(Minimax, ChessEval, options).map(|s| Box::new(s) as StrengthSearch),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_calibration_gives_a_range_and_settings() {
        let dial = strength_dial().expect("the embedded calibration parses");
        let r = elo_range().unwrap();
        let (lo, hi) = dial.range();
        assert!(lo <= r.min as f64 && r.max as f64 <= hi && r.min <= r.default && r.default <= r.max);
        for elo in [r.min, r.default, r.max, (r.min + r.max) / 2] {
            let (spec, setting) = setting_at(elo).unwrap_or_else(|e| panic!("{elo}: {e}"));
            assert_eq!(setting.options().is_some(), spec.kind() != "random", "{spec}");
        }
        // Outside the range: clamped.
        assert_eq!(setting_at(r.max + 10_000).unwrap(), setting_at(r.max).unwrap());
        assert_eq!(setting_at(r.min - 10_000).unwrap(), setting_at(r.min).unwrap());
    }

    #[test]
    fn specs_are_read_like_the_strength_crate_reads_them() {
        for bad in [
            "alphabeta",
            "alphabeta:depth=2,theta=1",
            "boltzmann:depth=2",
            "boltzmann:depth=2,theta=0",
            "boltzmann:depth=2,theta=1,cap=-1",
            "boltzmann:depth=2,theta=1,softcap=0",
            "boltzmann:depth=2,theta=1,cap=5,softcap=5",
            "boltzmann:depth=2,theta=1,nodes=0",
            "random:depth=1",
            "elo:1500",
        ] {
            assert!(StrengthSetting::from_spec(&bad.parse().unwrap()).is_err(), "{bad}");
        }
        for bad in ["kibitz", "kibitz:nodes=0", "kibitz:nodes=10,depth=2", "kibitz:nodes=10,weights=w.json"] {
            assert!(StrengthSetting::from_spec(&bad.parse().unwrap()).is_err(), "{bad}");
        }
        let k = StrengthSetting::from_spec(&"kibitz:nodes=5000".parse().unwrap()).unwrap();
        assert_eq!(k, StrengthSetting::Kibitz { nodes: 5000 });
        assert_eq!(k.limits().unwrap().nodes, Some(5000));
        let s = StrengthSetting::from_spec(&"boltzmann:depth=3,cap=1000,theta=0.02".parse().unwrap()).unwrap();
        let o = s.options().unwrap();
        assert!(o.exact_root && o.aspiration.is_none() && o.table_mib == STRENGTH_TABLE_MIB);
        assert_eq!((s.limits().unwrap().depth, s.depth()), (Some(3), 3));
    }

    #[test]
    fn move_seeds_depend_on_seed_position_and_move_number() {
        let start = ChessGame::startpos();
        assert_eq!(move_seed(1, &start), move_seed(1, &start.clone()));
        assert_ne!(move_seed(1, &start), move_seed(2, &start));
        let later = ChessGame::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 9").unwrap();
        assert_ne!(move_seed(1, &start), move_seed(1, &later));
    }
}
