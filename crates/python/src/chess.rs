//! Chess (the `chess` feature): games-chess's `ChessGame` as a Python
//! object. games-chess is GPL-3.0-or-later (because shakmaty is), so an
//! extension built with this module is GPL-3.0-or-later as a whole.

use games_chess::human::HumanAgents;
use games_chess::shakmaty::san::SanPlus;
use games_chess::{ChessEval, ChessGame};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use search_core::Game;
use strength::agents::{Roster, StandardAgents};

use crate::games::game_class;
use crate::native::Native;
use crate::value_error;

game_class!(
    /// Chess from a FEN (the start position by default). Moves are UCI
    /// strings (`"e2e4"`); `play` also takes SAN (`"Nf3"`).
    ChessPy, "Chess", ChessGame, {
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<Self> {
        match fen {
            None => Ok(ChessPy(ChessGame::startpos())),
            Some(f) => ChessGame::from_fen(f).map(ChessPy).map_err(value_error),
        }
    }

    /// The position as FEN.
    #[getter]
    fn fen(&self) -> String {
        self.0.fen()
    }

    /// A legal move (UCI or SAN) in SAN, with `+` or `#`.
    fn san(&self, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.0.move_from_py(mv)?;
        Ok(SanPlus::from_move(self.0.position().clone(), m).to_string())
    }
});

impl Native for ChessGame {
    type Eval = ChessEval;
    fn name(&self) -> &'static str {
        "chess"
    }
    fn heuristic(&self) -> ChessEval {
        ChessEval
    }
    fn default_table_mib(&self) -> usize {
        16
    }
    fn move_to_py(&self, py: Python<'_>, mv: Self::Move) -> PyResult<Py<PyAny>> {
        use pyo3::IntoPyObjectExt;
        self.move_string(mv).into_py_any(py)
    }
    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<Self::Move> {
        let text: String = obj.extract().map_err(|_| PyTypeError::new_err("a chess move is a UCI or SAN string"))?;
        self.parse_move(&text).map_err(value_error)
    }
    /// The chess dial's committed calibration (rated against Stockfish's
    /// `UCI_Elo`), as `cargo xtask` uses it.
    fn calibration(&self) -> Option<&'static str> {
        Some(games_chess::uci::CALIBRATION_JSON)
    }
    /// The search agents and `human:X[,pick=sample|mode]` (the learned
    /// model of Lichess players, embedded in games-chess).
    fn roster(standard: StandardAgents<ChessEval>) -> Roster<ChessGame> {
        Roster::new().with(standard).with(HumanAgents::default())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ChessPy>()
}
