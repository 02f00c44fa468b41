//! The built-in games as immutable, hashable Python objects.

use games_small::gobang::GobangOptions;
use games_small::pig::{Pig, PigEval};
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::sync::LazyLock;

use games_small::solver::{MoveMemo, solver_agent};
use search_core::Game;
use search_core::tree::{LiteralEval, LiteralTree};
use strength::agents::{AgentFactory, BoxedAgent, Roster, StandardAgents};
use strength::spec::{AgentSpec, SpecError};

use crate::native::{Native, small_move};
use crate::value_error;

/// The methods every game class has, on the Rust game `$G` held as `.0`,
/// plus the class's own (`$extra`: its constructor).
macro_rules! game_class {
    ($(#[$doc:meta])* $Py:ident, $name:literal, $G:ty, { $($extra:tt)* }) => {
        $(#[$doc])*
        #[pyo3::pyclass(frozen, module = "backup_rules", name = $name)]
        #[derive(Debug)]
        pub(crate) struct $Py(pub(crate) $G);

        #[pyo3::pymethods]
        impl $Py {
            $($extra)*

            /// The legal moves (none once the game is over).
            fn legal_moves(&self, py: pyo3::Python<'_>) -> pyo3::PyResult<Vec<pyo3::Py<pyo3::PyAny>>> {
                $crate::native::legal(&self.0)
                    .into_iter()
                    .map(|m| $crate::native::Native::move_to_py(&self.0, py, m))
                    .collect()
            }

            /// The position after `mv` (a move or a move string): a new object.
            fn play(&self, mv: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<Self> {
                let m = $crate::native::Native::move_from_py(&self.0, mv)?;
                let mut next = self.0.clone();
                search_core::Game::try_play(&mut next, m).map_err($crate::value_error)?;
                Ok($Py(next))
            }

            /// True once the game is over.
            fn is_terminal(&self) -> bool {
                matches!(search_core::Game::status(&self.0), search_core::Status::Over(_))
            }

            /// `(first, second)`: `(1, -1)` when the first player has won,
            /// `(0, 0)` for a draw or a game still going on.
            fn returns(&self) -> (f64, f64) {
                $crate::native::returns(&self.0)
            }

            /// The player to move: 0 (first), 1 (second), -1 (chance).
            fn to_move(&self) -> i32 {
                $crate::native::player_index(search_core::Game::turn(&self.0))
            }

            /// The winner (0 or 1), or `None` (a draw, or not over).
            fn winner(&self) -> Option<i32> {
                match search_core::Game::status(&self.0) {
                    search_core::Status::Over(o) => o.winner().map(|p| p.index() as i32),
                    search_core::Status::Ongoing => None,
                }
            }

            /// The move's text in the game's notation.
            fn move_to_string(&self, mv: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<String> {
                let m = $crate::native::Native::move_from_py(&self.0, mv)?;
                Ok(search_core::Game::move_string(&self.0, m))
            }

            /// The move a move string names here.
            fn string_to_move(&self, py: pyo3::Python<'_>, text: &str) -> pyo3::PyResult<pyo3::Py<pyo3::PyAny>> {
                let m = search_core::Game::parse_move(&self.0, text).map_err($crate::value_error)?;
                $crate::native::Native::move_to_py(&self.0, py, m)
            }

            /// Leaf nodes `depth` plies below (perft).
            fn perft(&self, py: pyo3::Python<'_>, depth: u32) -> pyo3::PyResult<u64> {
                let g = &self.0;
                py.detach(|| search_core::perft(g, depth)).map_err($crate::value_error)
            }

            fn __str__(&self) -> String {
                self.0.to_string()
            }

            fn __repr__(&self) -> String {
                format!("<{} {}>", $name, self.0.to_string().trim().replace('\n', "/"))
            }

            fn __eq__(&self, other: &pyo3::Bound<'_, pyo3::PyAny>) -> bool {
                other.cast::<$Py>().is_ok_and(|o| {
                    let o = &o.get().0;
                    search_core::Game::hash_key(o) == search_core::Game::hash_key(&self.0)
                        && o.to_string() == self.0.to_string()
                })
            }

            fn __hash__(&self) -> u64 {
                search_core::Game::hash_key(&self.0).unwrap_or(0)
            }
        }
    };
}
#[cfg_attr(not(feature = "chess"), allow(unused_imports))]
pub(crate) use game_class;

game_class!(
    /// Tic-tac-toe. Moves are cells 0..8 (`a1` = 0, `b1` = 1, ..., `c3` = 8).
    TicTacToePy, "TicTacToe", TicTacToe, {
    #[new]
    #[pyo3(signature = (moves = ""))]
    fn new(moves: &str) -> PyResult<Self> {
        TicTacToe::from_moves(moves).map(TicTacToePy).map_err(value_error)
    }
});

game_class!(
    /// Connect-4 on any board with (height + 1) × width ≤ 64. Moves are columns 0..width-1
    /// (strings `"1"`.. in the notation).
    Connect4Py, "Connect4", Connect4, {
    #[new]
    #[pyo3(signature = (width = 7, height = 6, moves = ""))]
    fn new(width: usize, height: usize, moves: &str) -> PyResult<Self> {
        Connect4::from_moves(width, height, moves).map(Connect4Py).map_err(value_error)
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.0.width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.0.height()
    }
});

game_class!(
    /// Gobang (freestyle five in a row) on a `size` × `size` board. Moves are
    /// points (ints); the notation is `h8`-style.
    GobangPy, "Gobang", Gobang, {
    #[new]
    #[pyo3(signature = (size = 15, moves = ""))]
    fn new(size: usize, moves: &str) -> PyResult<Self> {
        Gobang::from_moves(GobangOptions { size, ..GobangOptions::default() }, moves)
            .map(GobangPy)
            .map_err(value_error)
    }

    /// Points per side.
    #[getter]
    fn size(&self) -> usize {
        self.0.size()
    }
});

game_class!(
    /// A game tree written as text: `max(min(3, 12, 8), min(2, 4, 6))`,
    /// with `chance(0.5:1, 0.5:-1)` nodes for expectiminimax. Moves are child
    /// indices (or labels).
    TreePy, "Tree", LiteralTree, {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        text.parse::<LiteralTree>().map(TreePy).map_err(value_error)
    }
});

game_class!(
    /// Pig, the dice game with chance nodes (see `games_small::pig`): race to
    /// `target` points with a `die`-faced die, a draw after `max_turns` turns.
    /// Moves are `"roll"` (1) and `"hold"` (0); after a roll chance moves
    /// (`to_move() == -1`), its outcomes the faces 1..die.
    PigPy, "Pig", Pig, {
    #[new]
    #[pyo3(signature = (target = 10, die = 6, max_turns = 6))]
    fn new(target: u8, die: u8, max_turns: u16) -> PyResult<Self> {
        Pig::new(target, die, max_turns).map(PigPy).map_err(value_error)
    }

    /// The banked scores `(first, second)`.
    #[getter]
    fn scores(&self) -> (u8, u8) {
        let [a, b] = self.0.scores();
        (a, b)
    }

    /// The points of the turn so far (lost on a 1).
    #[getter]
    fn turn_total(&self) -> u8 {
        self.0.turn_total()
    }

    /// Turns finished so far.
    #[getter]
    fn turns(&self) -> u16 {
        self.0.turns()
    }

    /// The points that win.
    #[getter]
    fn target(&self) -> u8 {
        self.0.target()
    }
});

impl Native for Pig {
    type Eval = PigEval;
    fn name(&self) -> &'static str {
        "pig"
    }
    fn heuristic(&self) -> PigEval {
        PigEval
    }
    fn default_table_mib(&self) -> usize {
        1
    }
    fn move_to_py(&self, py: Python<'_>, mv: u8) -> PyResult<Py<PyAny>> {
        int(py, mv)
    }
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<u8> {
        small_move(self, obj)
    }
}

impl Native for TicTacToe {
    type Eval = TicTacToeEval;
    fn name(&self) -> &'static str {
        "tictactoe"
    }
    fn heuristic(&self) -> TicTacToeEval {
        TicTacToeEval::default()
    }
    fn default_table_mib(&self) -> usize {
        1
    }
    fn move_to_py(&self, py: Python<'_>, mv: u8) -> PyResult<Py<PyAny>> {
        int(py, mv)
    }
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<u8> {
        small_move(self, obj)
    }
    fn calibration(&self) -> Option<&'static str> {
        Some(games_small::calibrations::TICTACTOE)
    }
}

impl Native for Connect4 {
    type Eval = Connect4Eval;
    fn name(&self) -> &'static str {
        "connect4"
    }
    fn heuristic(&self) -> Connect4Eval {
        Connect4Eval::default()
    }
    fn default_table_mib(&self) -> usize {
        16
    }
    fn move_to_py(&self, py: Python<'_>, mv: u8) -> PyResult<Py<PyAny>> {
        int(py, mv)
    }
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<u8> {
        small_move(self, obj)
    }
    fn agent_table_mib(&self) -> usize {
        4
    }
    /// The committed calibration is of the standard 7 × 6 board.
    fn calibration(&self) -> Option<&'static str> {
        (self.width() == 7 && self.height() == 6).then_some(games_small::calibrations::CONNECT4)
    }
    /// The search agents and `solver[:mib=M][,depth=D,empties=E]` (the
    /// top of the dial is perfect play over the game's last cells).
    fn roster(standard: StandardAgents<Connect4Eval>) -> Roster<Connect4> {
        Roster::new().with(standard.clone()).with(SolverAgents { searchers: standard })
    }
}

/// The table of a `solver` player when its spec gives none, in MiB.
const SOLVER_MIB: usize = 64;

/// The moves every `solver` player of this process remembers for the
/// others (the moves do not depend on it).
static SOLVER_MEMO: LazyLock<MoveMemo> = LazyLock::new(MoveMemo::default);

/// Builds `solver` agents on 7 × 6 with [`games_small::solver::solver_agent`],
/// the early search as `searchers` builds `alphabeta:depth=D`.
struct SolverAgents {
    searchers: StandardAgents<Connect4Eval>,
}

impl AgentFactory<Connect4> for SolverAgents {
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<Connect4>>, SpecError> {
        if spec.kind() != "solver" {
            return Ok(None);
        }
        let mut r = spec.reader();
        let (mib, depth, empties) = (r.take("mib")?.unwrap_or(SOLVER_MIB), r.take("depth")?, r.take("empties")?);
        r.finish(&["mib", "depth", "empties"])?;
        let early = |depth: u32| self.searchers.build(&AgentSpec::new("alphabeta").with("depth", depth));
        let agent = solver_agent(7, 6, mib, &SOLVER_MEMO, depth, empties, early);
        agent.map(Some).map_err(|e| SpecError::new(spec, e.to_string()))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![(
            "solver[:mib=M][,depth=D,empties=E]".into(),
            "perfect play (after alphabeta:depth=D until E cells are empty)".into(),
        )]
    }
}

impl Native for Gobang {
    type Eval = GobangEval;
    fn name(&self) -> &'static str {
        "gobang"
    }
    fn heuristic(&self) -> GobangEval {
        GobangEval::default()
    }
    fn default_table_mib(&self) -> usize {
        16
    }
    fn move_to_py(&self, py: Python<'_>, mv: u8) -> PyResult<Py<PyAny>> {
        int(py, mv)
    }
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<u8> {
        small_move(self, obj)
    }
    fn agent_table_mib(&self) -> usize {
        8
    }
    /// The committed calibration is of the default 15 × 15 freestyle board.
    fn calibration(&self) -> Option<&'static str> {
        (self.options() == GobangOptions::default()).then_some(games_small::calibrations::GOBANG)
    }
}

impl Native for LiteralTree {
    type Eval = LiteralEval;
    fn name(&self) -> &'static str {
        "tree"
    }
    fn heuristic(&self) -> LiteralEval {
        LiteralEval
    }
    fn default_table_mib(&self) -> usize {
        0
    }
    fn move_to_py(&self, py: Python<'_>, mv: u32) -> PyResult<Py<PyAny>> {
        int(py, mv)
    }
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        if let Ok(text) = obj.extract::<String>() {
            return self.parse_move(&text).map_err(value_error);
        }
        obj.extract::<u32>().map_err(|_| PyTypeError::new_err("a move of a Tree is a child index (int) or a label"))
    }
}

/// An integer as a Python object.
fn int<T: for<'py> IntoPyObject<'py>>(py: Python<'_>, n: T) -> PyResult<Py<PyAny>> {
    use pyo3::IntoPyObjectExt;
    n.into_py_any(py)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TicTacToePy>()?;
    m.add_class::<Connect4Py>()?;
    m.add_class::<GobangPy>()?;
    m.add_class::<TreePy>()?;
    m.add_class::<PigPy>()?;
    Ok(())
}
