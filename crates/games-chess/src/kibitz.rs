//! The full-strength engine as an agent with a node budget:
//! `kibitz:nodes=N`, the `kibitz` UCI engine's own alpha-beta search
//! ([`EngineEval`], ordering by static exchange evaluation, null move, late
//! move reductions, check extensions, futility pruning, aspiration windows)
//! on one thread, stopped after `N` nodes.
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
use search_core::search::{Limits, Lmr, Options, Search, SearchResult, TtDepth};
use search_core::{Agent, GameError, ParamError};
use shakmaty::Move;
use strength::agents::{AgentFactory, BoxedAgent};
use strength::spec::{AgentSpec, SpecError};

use crate::{ChessGame, EngineEval};

/// The version of how the engine plays at a node budget. Bump it whenever
/// a change to the engine's search or evaluation changes its moves: saved
/// games of `kibitz:nodes=N` (the chess calibration's cells) record it, and
/// games of another version are played again, never mixed.
pub const PLAY_VERSION: u32 = 1;

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
#[derive(Debug)]
pub struct KibitzAgent {
    search: KibitzSearch,
    nodes: u64,
}

impl KibitzAgent {
    /// The engine searching `nodes` nodes a move.
    ///
    /// Errors: `nodes` is 0; the table cannot be allocated.
    pub fn new(nodes: u64) -> Result<Self, ParamError> {
        if nodes == 0 {
            return Err(ParamError::new("nodes", "must be at least 1"));
        }
        Ok(KibitzAgent { search: kibitz_search(TABLE_MIB)?, nodes })
    }

    /// Its node budget per move.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl Agent<ChessGame> for KibitzAgent {
    fn name(&self) -> String {
        format!("kibitz:nodes={}", self.nodes)
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

/// Builds `kibitz:nodes=N`.
#[derive(Debug, Clone, Copy, Default)]
pub struct KibitzAgents;

/// The node budget of a `kibitz:nodes=N` spec (N ≥ 1).
///
/// ```
/// let n = games_chess::kibitz::read_spec(&"kibitz:nodes=3000".parse().unwrap()).unwrap();
/// assert_eq!(n, 3000);
/// assert!(games_chess::kibitz::read_spec(&"kibitz".parse().unwrap()).is_err());
/// ```
pub fn read_spec(spec: &AgentSpec) -> Result<u64, SpecError> {
    let mut r = spec.reader();
    let nodes: u64 = r.require("nodes")?;
    r.finish(&["nodes"])?;
    if nodes == 0 {
        return Err(SpecError::new(spec, "nodes must be at least 1"));
    }
    Ok(nodes)
}

impl AgentFactory<ChessGame> for KibitzAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<ChessGame>>, SpecError> {
        if spec.kind() != "kibitz" {
            return Ok(None);
        }
        let nodes = read_spec(spec)?;
        let agent = KibitzAgent::new(nodes).map_err(|e| SpecError::new(spec, e.to_string()))?;
        Ok(Some(Box::new(agent)))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "kibitz:nodes=N".into(),
            "the kibitz engine at full strength, searching N nodes a move on one thread".into(),
        )]
    }

    fn play_version(&self, spec: &AgentSpec) -> Option<String> {
        (spec.kind() == "kibitz").then(|| format!("kibitz {PLAY_VERSION}"))
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
        for bad in ["kibitz", "kibitz:nodes=0", "kibitz:nodes=-5", "kibitz:nodes=100,depth=3", "kibitz:nodes=abc"] {
            assert!(roster.build(bad).is_err(), "{bad} was accepted");
        }
        assert_eq!(roster.play_version(&"kibitz:nodes=10".parse().unwrap()), Some(format!("kibitz {PLAY_VERSION}")));
        assert_eq!(roster.play_version(&"alphabeta:depth=2".parse().unwrap()), None);
    }
}
