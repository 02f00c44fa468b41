//! The full-strength engine as an agent with a node budget:
//! `kibitz:nodes=N`, the `kibitz` UCI engine's own alpha-beta search
//! ([`EngineEval`], ordering by static exchange evaluation, history with
//! malus, null move, late move reductions, check extensions, futility,
//! reverse futility and late move pruning, aspiration windows) on one
//! thread, stopped after `N` nodes.
//!
//! A node budget fixes the size of the search on any machine and under any
//! load, so that the agent's strength can be calibrated (the strength
//! dial's top rungs for chess) and played again anywhere: each move is a
//! function of the position (with its history) and `N` only. The
//! transposition table is emptied before every move, so that the engine,
//! which sees only the position of each `go`, plays the move a match's
//! agent played.
//!
//! ```
//! use games_chess::ChessGame;
//! use games_chess::kibitz::KibitzAgents;
//! use search_core::{Agent, Game, rng};
//! use strength::agents::Roster;
//!
//! let roster = Roster::new().with(KibitzAgents);
//! let mut engine = roster.build("kibitz:nodes=2000")?;
//! let g = ChessGame::startpos();
//! let mv = engine.choose(&g, &mut rng::seeded(1))?;
//! let mut legal = Vec::new();
//! g.generate(&mut legal);
//! assert!(legal.contains(&mv));
//! assert!(roster.build("kibitz:nodes=0").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rand::RngCore;
use search_core::agent::{Choice, Thought};
use search_core::backup::Minimax;
use search_core::search::{
    DynSearch, LateMovePruning, Limits, Lmr, Options, ReverseFutility, Search, SearchResult, TtDepth,
};
use search_core::{Agent, GameError, ParamError};
use shakmaty::Move;
use strength::agents::{AgentFactory, BoxedAgent};
use strength::spec::{AgentSpec, SpecError};

use crate::engine_eval::{EngineWeights, WeightedEval};
use crate::{ChessGame, EngineEval};

/// The version of how the engine plays at a node budget. Bump it whenever
/// a change to the engine's search or evaluation changes its moves: saved
/// games of `kibitz:nodes=N` (the chess calibration's cells) record it, and
/// games of another version are played again, never mixed.
pub const PLAY_VERSION: u32 = 4;

/// The transposition table (MiB) of `kibitz:nodes=N`: room for the largest
/// budgets the dial plays, small enough that emptying it before every move
/// costs little at the smallest.
pub const TABLE_MIB: usize = 4;

/// The deepest iteration the engine starts.
pub const MAX_DEPTH: u32 = 100;

/// The null-move reduction of the engine, in plies.
const NULL_MOVE_REDUCTION: u32 = 2;
/// The futility margin per remaining ply, in centipawns.
const FUTILITY_MARGIN_CP: f64 = 150.0;
/// The aspiration window's half-width, in centipawns.
const ASPIRATION_CP: f64 = 30.0;
/// Reverse futility pruning: up to six plies left, 90 centipawns a ply.
const REVERSE_FUTILITY: ReverseFutility = ReverseFutility { max_depth: 6, margin: 90.0 };
/// Late move pruning: up to three plies left, after `3 + depth²` moves.
const LATE_MOVE_PRUNING: LateMovePruning = LateMovePruning { max_depth: 3, base: 3 };

/// The engine's search options with a `table_mib` table: iterative
/// deepening with the selective features, each kept because a match showed
/// it gains (docs/benchmarks.md, "Chess engine strength").
pub fn engine_options(table_mib: usize) -> Options {
    Options::default()
        .with_iterative_deepening(true)
        .with_table_mib(table_mib)
        .with_tt_depth(TtDepth::AtLeast)
        .with_null_move(Some(NULL_MOVE_REDUCTION))
        .with_lmr(Some(Lmr::default()))
        .with_check_extension(true)
        .with_futility(Some(FUTILITY_MARGIN_CP))
        .with_aspiration(Some(ASPIRATION_CP))
        .with_reverse_futility(Some(REVERSE_FUTILITY))
        .with_late_move_pruning(Some(LATE_MOVE_PRUNING))
        .with_history_malus(true)
}

/// The engine's search on one thread.
pub type KibitzSearch = Search<ChessGame, Minimax, EngineEval>;

/// A new [`KibitzSearch`] with a `table_mib` table.
///
/// Errors: the table cannot be allocated.
pub fn kibitz_search(table_mib: usize) -> Result<KibitzSearch, ParamError> {
    Search::new(Minimax, EngineEval, engine_options(table_mib))
}

/// The limits of a search of `nodes` nodes.
pub fn node_limits(nodes: u64) -> Limits {
    Limits::depth(MAX_DEPTH).with_nodes(nodes)
}

/// The position as the engine searches it: ordered by static exchange
/// evaluation.
pub fn searched(position: &ChessGame) -> ChessGame {
    position.clone().with_see_ordering(true)
}

/// The move the engine plays from a node-limited search: the first move of
/// the principal variation, else the best move found.
pub fn chosen_move(result: &SearchResult<Move>) -> Option<Move> {
    result.pv.first().copied().or(result.best)
}

/// The full-strength engine searching `nodes` nodes a move (see the
/// [module docs](self)).
pub struct KibitzAgent {
    search: Box<dyn DynSearch<ChessGame> + Send>,
    nodes: u64,
    /// Other positional weights than the engine's, if any.
    weights: Option<EngineWeights>,
}

impl std::fmt::Debug for KibitzAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KibitzAgent").field("nodes", &self.nodes).field("weights", &self.weights).finish()
    }
}

/// A node budget of at least 1.
fn check_nodes(nodes: u64) -> Result<u64, ParamError> {
    if nodes == 0 { Err(ParamError::new("nodes", "must be at least 1")) } else { Ok(nodes) }
}

impl KibitzAgent {
    /// The engine searching `nodes` nodes a move.
    ///
    /// Errors: `nodes` is 0; the table cannot be allocated.
    pub fn new(nodes: u64) -> Result<Self, ParamError> {
        let nodes = check_nodes(nodes)?;
        Ok(KibitzAgent { search: Box::new(kibitz_search(TABLE_MIB)?), nodes, weights: None })
    }

    /// The engine searching `nodes` nodes a move with the positional
    /// weights `weights` instead of its own ([`WeightedEval`]): a tuner's
    /// candidate, to play against the engine.
    ///
    /// Errors: as [`new`](Self::new).
    pub fn with_weights(nodes: u64, weights: EngineWeights) -> Result<Self, ParamError> {
        let nodes = check_nodes(nodes)?;
        let search = Search::new(Minimax, WeightedEval::new(weights.clone()), engine_options(TABLE_MIB))?;
        Ok(KibitzAgent { search: Box::new(search), nodes, weights: Some(weights) })
    }

    /// Its node budget per move.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl Agent<ChessGame> for KibitzAgent {
    fn name(&self) -> String {
        match &self.weights {
            Some(_) => format!("kibitz:nodes={} (other weights)", self.nodes),
            None => format!("kibitz:nodes={}", self.nodes),
        }
    }

    fn choose(&mut self, state: &ChessGame, rng: &mut dyn RngCore) -> Result<Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    fn choose_explained(&mut self, state: &ChessGame, _rng: &mut dyn RngCore) -> Result<Choice<Move>, GameError> {
        self.search.clear();
        let result = self.search.run(&searched(state), &node_limits(self.nodes))?;
        let mv = chosen_move(&result).ok_or(GameError::GameOver)?;
        let thought = Thought {
            distribution: vec![(mv, 1.0)],
            scores: result.root_moves.iter().map(|m| (m.mv, m.score)).collect(),
            value: result.value,
            pv: result.pv,
            stats: result.stats,
        };
        Ok(Choice { mv, thought: Some(thought) })
    }
}

/// Builds `kibitz:nodes=N[,weights=FILE]`: `FILE` a JSON file of
/// [`EngineWeights`], or the summary `cargo xtask tune-eval` writes (its
/// `weights_after`).
#[derive(Debug, Clone, Copy, Default)]
pub struct KibitzAgents;

/// The node budget of a `kibitz:nodes=N` spec (N ≥ 1).
///
/// ```
/// let n = games_chess::kibitz::read_spec(&"kibitz:nodes=3000".parse().unwrap()).unwrap();
/// assert_eq!(n, 3000);
/// assert!(games_chess::kibitz::read_spec(&"kibitz".parse().unwrap()).is_err());
/// assert!(games_chess::kibitz::read_spec(&"kibitz:nodes=3000,weights=w.json".parse().unwrap()).is_err());
/// ```
pub fn read_spec(spec: &AgentSpec) -> Result<u64, SpecError> {
    match read_full_spec(spec)? {
        (nodes, None) => Ok(nodes),
        (_, Some(_)) => Err(SpecError::new(spec, "the engine's own setting takes no weights")),
    }
}

/// The node budget and the weights file of a `kibitz:nodes=N[,weights=FILE]` spec.
fn read_full_spec(spec: &AgentSpec) -> Result<(u64, Option<String>), SpecError> {
    let mut r = spec.reader();
    let nodes: u64 = r.require("nodes")?;
    let weights: Option<String> = r.take("weights")?;
    r.finish(&["nodes", "weights"])?;
    if nodes == 0 {
        return Err(SpecError::new(spec, "nodes must be at least 1"));
    }
    Ok((nodes, weights))
}

/// The weights in the JSON file `path`: [`EngineWeights`] itself, or an
/// object with them as `weights_after` (what `tune-eval` writes).
fn read_weights(path: &str) -> Result<EngineWeights, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let weights = value.get("weights_after").cloned().unwrap_or(value);
    serde_json::from_value(weights).map_err(|e| format!("{path}: not engine weights: {e}"))
}

impl AgentFactory<ChessGame> for KibitzAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<ChessGame>>, SpecError> {
        if spec.kind() != "kibitz" {
            return Ok(None);
        }
        let (nodes, file) = read_full_spec(spec)?;
        let agent = match file {
            None => KibitzAgent::new(nodes),
            Some(path) => {
                let weights = read_weights(&path).map_err(|e| SpecError::new(spec, e))?;
                KibitzAgent::with_weights(nodes, weights)
            }
        };
        Ok(Some(Box::new(agent.map_err(|e| SpecError::new(spec, e.to_string()))?)))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "kibitz:nodes=N[,weights=FILE]".into(),
            "the kibitz engine at full strength, searching N nodes a move on one thread (with the evaluation \
             weights of FILE, a tune-eval result)"
                .into(),
        )]
    }

    /// `kibitz PLAY_VERSION`, and with a weights file, a hash of the
    /// weights it holds (games with other weights are other games).
    fn play_version(&self, spec: &AgentSpec) -> Option<String> {
        if spec.kind() != "kibitz" {
            return None;
        }
        let weights = read_full_spec(spec).ok().and_then(|(_, f)| f).map(|path| match read_weights(&path) {
            Ok(w) => format!(" weights {:016x}", crate::human::fnv1a(format!("{w:?}").as_bytes())),
            Err(_) => " weights unreadable".to_string(),
        });
        Some(format!("kibitz {PLAY_VERSION}{}", weights.unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::{Game, rng};
    use strength::agents::Roster;

    #[test]
    fn it_plays_legal_deterministic_moves_and_finds_a_mate() {
        let roster = Roster::new().with(KibitzAgents);
        let mut a = roster.build("kibitz:nodes=3000").unwrap();
        let mut b = roster.build("kibitz:nodes=3000").unwrap();
        let mut g = ChessGame::startpos();
        for _ in 0..16 {
            let mut legal = Vec::new();
            if g.generate(&mut legal) != search_core::Status::Ongoing {
                break;
            }
            // Another seed, another agent, the same move: the table is emptied
            // before each move and nothing is random.
            let mv = a.choose(&g, &mut rng::seeded(1)).unwrap();
            assert_eq!(mv, b.choose(&g, &mut rng::seeded(2)).unwrap());
            assert!(legal.contains(&mv));
            g.play(mv);
        }
        // Mate in one: Qh5xf7#.
        let mate = ChessGame::from_fen("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
        let mv = a.choose(&mate, &mut rng::seeded(1)).unwrap();
        assert_eq!(mv.to_uci(shakmaty::CastlingMode::Standard).to_string(), "h5f7");
    }

    #[test]
    fn bad_specs_are_refused_and_the_play_version_is_stated() {
        let roster = Roster::new().with(KibitzAgents);
        for bad in [
            "kibitz",
            "kibitz:nodes=0",
            "kibitz:nodes=-5",
            "kibitz:nodes=100,depth=3",
            "kibitz:nodes=abc",
            "kibitz:nodes=100,weights=/no/such/file.json",
        ] {
            assert!(roster.build(bad).is_err(), "{bad} was accepted");
        }
        assert_eq!(roster.play_version(&"kibitz:nodes=10".parse().unwrap()), Some(format!("kibitz {PLAY_VERSION}")));
        assert_eq!(roster.play_version(&"alphabeta:depth=2".parse().unwrap()), None);
    }

    #[test]
    fn a_weights_file_plays_other_weights_and_the_engines_own_play_the_same() {
        let dir = std::env::temp_dir().join(format!("kibitz-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let own = dir.join("own.json");
        std::fs::write(&own, serde_json::to_string(EngineWeights::engine()).unwrap()).unwrap();
        let other = dir.join("summary.json");
        let odd = EngineWeights { mobility: [(-20, -20); 4], ..EngineWeights::engine().clone() };
        std::fs::write(&other, serde_json::json!({ "k": 1.0, "weights_after": odd }).to_string()).unwrap();
        let roster = Roster::new().with(KibitzAgents);
        let g = ChessGame::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let play = |spec: &str| roster.build(spec).unwrap().choose(&g, &mut rng::seeded(1)).unwrap();
        assert_eq!(play(&format!("kibitz:nodes=2000,weights={}", own.display())), play("kibitz:nodes=2000"));
        let versions: Vec<Option<String>> = [
            format!("kibitz:nodes=9,weights={}", own.display()),
            format!("kibitz:nodes=9,weights={}", other.display()),
        ]
        .iter()
        .map(|s| roster.play_version(&s.parse().unwrap()))
        .collect();
        assert_ne!(versions[0], versions[1]);
        assert!(versions[0].as_ref().unwrap().starts_with(&format!("kibitz {PLAY_VERSION} weights ")));
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{\"doubled\": 3}").unwrap();
        assert!(roster.build(&format!("kibitz:nodes=9,weights={}", bad.display())).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
