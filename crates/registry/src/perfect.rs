//! `solver[:mib=M]`: the perfect connect-4 player (the solver) as an agent,
//! the top of connect-4's ladder.

use games_small::Connect4;
use games_small::solver::PerfectPlayer;
use strength::agents::{AgentFactory, BoxedAgent};
use strength::spec::{AgentSpec, SpecError};

/// The solver's table when a `solver` spec gives none, in MiB.
const DEFAULT_MIB: usize = 64;

/// Builds `solver` agents: [`PerfectPlayer`] on the position's board, with
/// a table of `mib` MiB (default [`DEFAULT_MIB`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PerfectAgents {
    /// The board the agents play on.
    pub(crate) width: usize,
    /// The board's height.
    pub(crate) height: usize,
}

impl AgentFactory<Connect4> for PerfectAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<Connect4>>, SpecError> {
        if spec.kind() != "solver" {
            return Ok(None);
        }
        let mut r = spec.reader();
        let mib: usize = r.take("mib")?.unwrap_or(DEFAULT_MIB);
        r.finish(&["mib"])?;
        let player =
            PerfectPlayer::new(self.width, self.height, mib).map_err(|e| SpecError::new(spec, e.to_string()))?;
        Ok(Some(Box::new(player)))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "solver[:mib=M]".into(),
            format!("perfect play: the solver's best move (table of M MiB, default {DEFAULT_MIB})"),
        )]
    }
}
