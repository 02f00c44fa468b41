//! `uci:PATH[,nodes=N|depth=D|movetime=MS][,Option=value...]`: any external
//! UCI chess engine as an agent.

use std::path::Path;
use std::time::Duration;

use games_chess::ChessGame;
use games_chess::external::{EngineLimit, UciEngineAgent};
use strength::agents::{AgentFactory, BoxedAgent};
use strength::spec::{AgentSpec, SpecError, SpecReader};

/// The move limit when a `uci:` spec gives none.
pub const DEFAULT_MOVETIME_MS: u64 = 100;

/// Whether `spec` is an external engine limited by time: a `uci:` spec with
/// `movetime=`, or with no limit (the default is a move time). How far such
/// an engine searches, and so how it plays, depends on the CPU it gets.
pub fn moves_on_a_clock(spec: &AgentSpec) -> bool {
    spec.kind() == "uci" && matches!(read_limit(&mut spec.reader(), spec), Ok(EngineLimit::MoveTime(_)))
}

/// The limit of each move a `uci:` spec sets: takes `nodes=`, `depth=` and
/// `movetime=` from `r` (at most one, each > 0; none means
/// `movetime=`[`DEFAULT_MOVETIME_MS`]).
fn read_limit(r: &mut SpecReader<'_>, spec: &AgentSpec) -> Result<EngineLimit, SpecError> {
    let nodes: Option<u64> = r.take("nodes")?;
    let depth: Option<u32> = r.take("depth")?;
    let movetime: Option<u64> = r.take("movetime")?;
    match (nodes, depth, movetime) {
        (Some(n), None, None) if n > 0 => Ok(EngineLimit::Nodes(n)),
        (None, Some(d), None) if d > 0 => Ok(EngineLimit::Depth(d)),
        (None, None, Some(ms)) if ms > 0 => Ok(EngineLimit::MoveTime(Duration::from_millis(ms))),
        (None, None, None) => Ok(EngineLimit::MoveTime(Duration::from_millis(DEFAULT_MOVETIME_MS))),
        _ => Err(SpecError::new(spec, "give at most one of nodes=, depth=, movetime= (each > 0)")),
    }
}

/// Builds `uci:` agents. The keys `nodes`, `depth` and `movetime` (ms) set
/// the limit of each move (at most one; default `movetime=100`); every other
/// key is an engine option, set with `setoption` and checked against the
/// options the engine declares.
#[derive(Debug, Clone, Copy)]
pub struct UciAgents;

impl AgentFactory<ChessGame> for UciAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<ChessGame>>, SpecError> {
        if spec.kind() != "uci" {
            return Ok(None);
        }
        let mut r = spec.reader();
        let path: String = r.argument("engine path")?;
        let limit = read_limit(&mut r, spec)?;
        let options = r.rest();
        r.finish(&[])?;
        let agent = UciEngineAgent::spawn(Path::new(&path), &options, limit)
            .map_err(|e| SpecError::new(spec, e.to_string()))?;
        Ok(Some(Box::new(agent)))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "uci:PATH[,nodes=N|depth=D|movetime=MS][,Option=value...]".into(),
            format!("an external UCI engine (default movetime={DEFAULT_MOVETIME_MS})"),
        )]
    }
}
