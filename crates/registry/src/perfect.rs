//! `solver[:mib=M][,depth=D,empties=E]`: the perfect connect-4 player (the
//! solver) as an agent, the top of connect-4's ladder, and the players that
//! search at a fixed depth until few cells are empty and play perfectly
//! from there (the curve between the depth-12 search and perfect play).

use games_small::solver::{MoveMemo, solver_agent};
use games_small::{Connect4, Connect4Eval};
use strength::agents::{AgentFactory, BoxedAgent, StandardAgents};
use strength::spec::{AgentSpec, SpecError};

/// The solver's table when a `solver` spec gives none, in MiB.
const DEFAULT_MIB: usize = 64;

/// Builds `solver` agents ([`solver_agent`]): perfect play on the
/// position's board, with a table of `mib` MiB (default [`DEFAULT_MIB`]);
/// with `depth=D,empties=E`, `alphabeta:depth=D` (as the standard agents
/// build it) while more than `E` cells are empty. Every player it
/// builds shares one [`MoveMemo`], so that a match pays once for each
/// costly position its games meet.
#[derive(Debug, Clone)]
pub(crate) struct PerfectAgents {
    /// The board the agents play on.
    pub(crate) width: usize,
    /// The board's height.
    pub(crate) height: usize,
    /// The agents that build `alphabeta:depth=D`.
    pub(crate) searchers: StandardAgents<Connect4Eval>,
    /// The moves the perfect players found, shared.
    pub(crate) memo: MoveMemo,
}

impl AgentFactory<Connect4> for PerfectAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<Connect4>>, SpecError> {
        if spec.kind() != "solver" {
            return Ok(None);
        }
        let mut r = spec.reader();
        let mib: usize = r.take("mib")?.unwrap_or(DEFAULT_MIB);
        let depth: Option<u32> = r.take("depth")?;
        let empties: Option<u32> = r.take("empties")?;
        r.finish(&["mib", "depth", "empties"])?;
        let early = |depth: u32| self.searchers.build(&AgentSpec::new("alphabeta").with("depth", depth));
        solver_agent(self.width, self.height, mib, &self.memo, depth, empties, early)
            .map(Some)
            .map_err(|e| SpecError::new(spec, e.to_string()))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![
            (
                "solver[:mib=M]".into(),
                format!("perfect play: the solver's best move (table of M MiB, default {DEFAULT_MIB})"),
            ),
            (
                "solver:depth=D,empties=E[,mib=M]".into(),
                "alphabeta:depth=D while more than E cells are empty, then perfect play".into(),
            ),
        ]
    }
}
