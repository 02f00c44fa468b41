//! What every game searched from Python provides: its evaluator, its moves
//! as Python objects, and (for a game written in Python) the error one of
//! its callbacks raised.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use search_core::{Evaluator, Game, Outcome, OutcomeOnly, Player, Status};
use strength::agents::{Roster, StandardAgents};

/// A game searched from Python: a built-in game, or a Python object that
/// follows the protocol ([`crate::protocol::PyState`]).
pub(crate) trait Native: Game<Move: Send + Sync> + Send + Sync + 'static {
    /// The game's heuristic evaluator.
    type Eval: Evaluator<Self> + Clone + std::fmt::Debug + Send + Sync + 'static;

    /// True if searching this game never calls into Python, so that the
    /// search runs with the GIL released.
    const DETACHED: bool = true;

    /// The game's name in messages and agent rosters.
    fn name(&self) -> &'static str;

    /// The heuristic evaluator of this position's game.
    fn heuristic(&self) -> Self::Eval;

    /// The transposition table a search gets unless told otherwise, in MiB.
    fn default_table_mib(&self) -> usize;

    /// The table of each search agent built from a spec, in MiB: what the
    /// game's committed calibration was measured with.
    fn agent_table_mib(&self) -> usize {
        self.default_table_mib()
    }

    /// `mv` (legal here) as a Python object.
    fn move_to_py(&self, py: Python<'_>, mv: Self::Move) -> PyResult<Py<PyAny>>;

    /// A Python object (a move, or a move string) as a move of this position.
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<Self::Move>;

    /// The exception a Python callback raised during the last search, if
    /// any (taken: a second call returns `None`).
    fn take_error(&self) -> Option<PyErr> {
        None
    }

    /// The flag that stops a search when a Python callback raises.
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        None
    }

    /// The strength dial's calibration of this game (JSON), if it has one.
    fn calibration(&self) -> Option<&'static str> {
        None
    }

    /// The agents of this game's specs: `standard` (the search agents, with
    /// `elo:X` where the game has a calibration), and any of the game's own
    /// (chess: `human:X`).
    fn roster(standard: StandardAgents<Self::Eval>) -> Roster<Self> {
        Roster::new().with(standard)
    }
}

/// The evaluator a search uses: the game's heuristic, or only the outcome
/// of finished games (win 1, draw 0, loss −1; 0 at the horizon).
#[derive(Debug, Clone)]
pub(crate) enum Eval<E> {
    /// The game's own evaluator.
    Heuristic(E),
    /// Win 1, draw 0, loss −1, nothing else.
    Outcome(OutcomeOnly),
}

impl<E> Eval<E> {
    /// `"heuristic"` or `"outcome"`.
    pub(crate) fn parse(name: &str, heuristic: E) -> PyResult<Self> {
        match name {
            "heuristic" => Ok(Eval::Heuristic(heuristic)),
            "outcome" => Ok(Eval::Outcome(OutcomeOnly::new(1.0))),
            other => Err(crate::value_error(format!("evaluator must be \"heuristic\" or \"outcome\", got {other:?}"))),
        }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for Eval<E> {
    // The outcome-only values are 0 at every horizon, the same from either
    // side, so the heuristic's perspective serves both.
    const PERSPECTIVE: search_core::Perspective = E::PERSPECTIVE;

    #[inline]
    fn evaluate(&self, state: &G) -> f64 {
        match self {
            Eval::Heuristic(e) => e.evaluate(state),
            Eval::Outcome(_) => 0.0,
        }
    }

    #[inline]
    fn terminal_value(&self, outcome: Outcome, player: Player, ply: u32) -> f64 {
        match self {
            Eval::Heuristic(e) => e.terminal_value(outcome, player, ply),
            Eval::Outcome(o) => Evaluator::<G>::terminal_value(o, outcome, player, ply),
        }
    }

    #[inline]
    fn noisy_moves(&self, state: &G, out: &mut Vec<G::Move>) {
        if let Eval::Heuristic(e) = self {
            e.noisy_moves(state, out);
        }
    }

    #[inline]
    fn bounds(&self) -> Option<(f64, f64)> {
        match self {
            Eval::Heuristic(e) => e.bounds(),
            Eval::Outcome(o) => Evaluator::<G>::bounds(o),
        }
    }

    #[inline]
    fn node_bounds(&self, state: &G, player: Player, ply: u32) -> Option<(f64, f64)> {
        match self {
            Eval::Heuristic(e) => e.node_bounds(state, player, ply),
            Eval::Outcome(o) => Evaluator::<G>::node_bounds(o, state, player, ply),
        }
    }
}

/// The returns of a position for the first and the second player: `(1, −1)`
/// when the first player has won, `(0, 0)` for a draw or a game still on,
/// `(v, −v)` for a payoff `v` to the first player.
pub(crate) fn returns<G: Game>(g: &G) -> (f64, f64) {
    match g.status() {
        Status::Ongoing => (0.0, 0.0),
        Status::Over(o) => {
            let v = o.value_for(Player::First, 1.0);
            (v, -v)
        }
    }
}

/// A player as Python sees it: 0 (first), 1 (second), −1 (chance).
pub(crate) fn player_index(turn: search_core::Turn) -> i32 {
    match turn {
        search_core::Turn::Player(p) => p.index() as i32,
        search_core::Turn::Chance => -1,
    }
}

/// A small game's move (a cell, a column, a point): an `int`, or a string in
/// the game's notation.
pub(crate) fn small_move<G: Game<Move = u8>>(g: &G, obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(text) = obj.extract::<String>() {
        return g.parse_move(&text).map_err(crate::value_error);
    }
    let n: i64 = obj.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "a move is an int or a move string, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
        ))
    })?;
    u8::try_from(n).map_err(|_| crate::value_error(format!("illegal move {n}: out of range")))
}

/// The legal moves of `g` (none when the game is over).
pub(crate) fn legal<G: Game>(g: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    match g.generate(&mut moves) {
        Status::Ongoing => moves,
        Status::Over(_) => Vec::new(),
    }
}
