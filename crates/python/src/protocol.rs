//! A game written in Python, searched by the Rust core.
//!
//! Any object with these methods is a game (see `docs/python.md`):
//!
//! - `legal_moves()`: the moves, or at a chance node the outcomes;
//! - `play(move)`: the position after `move`, a new object;
//! - `is_terminal()`;
//! - `returns()`: at a finished game, the first player's payoff (1 a win,
//!   −1 a loss, 0 a draw, anything else a payoff), or a pair of them;
//! - `to_move()`: 0 or 1, or −1 at a chance node;
//! - optional `value()`: a heuristic value for the player to move (0 if
//!   absent), for searches cut off by a depth;
//! - optional `chance_outcomes()`: at a chance node, `(outcome, probability)`
//!   pairs (uniform over `legal_moves()` if absent);
//! - optional `__hash__` (with `__eq__`): the key of a transposition table.
//!
//! A move of the Rust game is the index of the Python move in
//! `legal_moves()`; each position asks Python for its moves once and keeps
//! them. An exception raised by any of these methods is kept, the search's
//! stop flag is raised and every position from then on reads as a finished
//! game, so the search ends at once; the caller then raises the exception.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use search_core::{Evaluator, Game, GameError, Outcome, Perspective, Player, Status, Turn};

use crate::native::Native;

/// What every position of one search shares: the first exception, the stop
/// flag, and what the class offers.
#[derive(Debug)]
struct Shared {
    error: Mutex<Option<PyErr>>,
    stop: Arc<AtomicBool>,
    hashed: bool,
    has_value: bool,
    has_chance: bool,
}

impl Shared {
    /// Keeps the first exception and stops the search.
    fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    fn failed(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A position's answers, asked once.
#[derive(Debug)]
struct Node {
    turn: Turn,
    status: Status,
    moves: Vec<Py<PyAny>>,
    probs: Vec<f64>,
    key: Option<u64>,
}

impl Node {
    /// What a position reads as after an exception: a finished game.
    fn failed() -> Node {
        Node {
            turn: Turn::Player(Player::First),
            status: Status::Over(Outcome::Draw),
            moves: Vec::new(),
            probs: Vec::new(),
            key: None,
        }
    }
}

/// A Python object that follows the game protocol, as a [`Game`].
#[derive(Clone)]
pub(crate) struct PyState {
    obj: Arc<Py<PyAny>>,
    node: Arc<OnceLock<Node>>,
    shared: Arc<Shared>,
}

impl fmt::Debug for PyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PyState")
    }
}

const REQUIRED: [&str; 5] = ["legal_moves", "play", "is_terminal", "returns", "to_move"];

impl PyState {
    /// Wraps `obj` for one search (or one match): a `TypeError` names the
    /// protocol's methods it lacks.
    pub(crate) fn wrap(obj: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let missing: Vec<&str> = REQUIRED.iter().copied().filter(|m| !obj.hasattr(*m).unwrap_or(false)).collect();
        if !missing.is_empty() {
            let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
            return Err(PyTypeError::new_err(format!(
                "{type_name} is neither a built-in game nor a game of the protocol: it lacks {} \
                 (a game has legal_moves, play, is_terminal, returns and to_move; see docs/python.md)",
                missing.join(", ")
            )));
        }
        let py = obj.py();
        let object_hash = py.import("builtins")?.getattr("object")?.getattr("__hash__")?;
        let own_hash = obj.get_type().getattr("__hash__")?;
        let hashed = !own_hash.is_none() && !own_hash.is(&object_hash);
        let shared = Shared {
            error: Mutex::new(None),
            stop: Arc::new(AtomicBool::new(false)),
            hashed,
            has_value: obj.hasattr("value")?,
            has_chance: obj.hasattr("chance_outcomes")?,
        };
        Ok(PyState { obj: Arc::new(obj.clone().unbind()), node: Arc::new(OnceLock::new()), shared: Arc::new(shared) })
    }

    fn node(&self) -> &Node {
        self.node.get_or_init(|| {
            if self.shared.failed() {
                return Node::failed();
            }
            Python::attach(|py| match self.ask(py) {
                Ok(node) => node,
                Err(e) => {
                    self.shared.fail(e);
                    Node::failed()
                }
            })
        })
    }

    /// Asks the object for everything a search needs of a position.
    fn ask(&self, py: Python<'_>) -> PyResult<Node> {
        let obj = self.obj.bind(py);
        let terminal: bool = obj.call_method0("is_terminal")?.is_truthy()?;
        let to_move: i64 = obj.call_method0("to_move")?.extract().map_err(|_| {
            PyTypeError::new_err("to_move() must return an int: 0 or 1 (the players), or -1 (a chance node)")
        })?;
        let turn = match to_move {
            0 => Turn::Player(Player::First),
            1 => Turn::Player(Player::Second),
            -1 => Turn::Chance,
            // A finished game's player to move does not matter.
            _ if terminal => Turn::Player(Player::First),
            other => {
                return Err(crate::value_error(format!(
                    "to_move() returned {other}: expected 0 or 1 (the players), or -1 (a chance node)"
                )));
            }
        };
        let key = if self.shared.hashed { Some(obj.hash()? as u64) } else { None };
        if terminal {
            let status = Status::Over(outcome(&obj.call_method0("returns")?)?);
            return Ok(Node { turn, status, moves: Vec::new(), probs: Vec::new(), key });
        }
        let (moves, probs) = if turn == Turn::Chance && self.shared.has_chance {
            let mut moves = Vec::new();
            let mut probs = Vec::new();
            for pair in obj.call_method0("chance_outcomes")?.try_iter()? {
                let (m, p): (Bound<'_, PyAny>, f64) = pair?
                    .extract()
                    .map_err(|_| PyTypeError::new_err("chance_outcomes() must give (outcome, probability) pairs"))?;
                moves.push(m.unbind());
                probs.push(p);
            }
            (moves, probs)
        } else {
            let moves: Vec<Py<PyAny>> =
                obj.call_method0("legal_moves")?.try_iter()?.map(|m| m.map(Bound::unbind)).collect::<PyResult<_>>()?;
            let n = moves.len() as f64;
            let probs = if turn == Turn::Chance { vec![1.0 / n; moves.len()] } else { Vec::new() };
            (moves, probs)
        };
        if moves.is_empty() {
            return Err(crate::value_error("legal_moves() is empty at a position that is not terminal"));
        }
        if moves.len() > u32::MAX as usize {
            return Err(crate::value_error("too many legal moves"));
        }
        Ok(Node { turn, status: Status::Ongoing, moves, probs, key })
    }
}

/// `returns()`'s answer as an outcome: the first player's payoff (a number,
/// or the first of a pair).
fn outcome(r: &Bound<'_, PyAny>) -> PyResult<Outcome> {
    let first: f64 = match r.extract::<f64>() {
        Ok(v) => v,
        Err(_) => r.get_item(0).and_then(|v| v.extract::<f64>()).map_err(|_| {
            PyTypeError::new_err("returns() must give the first player's payoff, or a (first, second) pair of them")
        })?,
    };
    Ok(if first == 0.0 {
        Outcome::Draw
    } else if first == 1.0 {
        Outcome::Win(Player::First)
    } else if first == -1.0 {
        Outcome::Win(Player::Second)
    } else {
        Outcome::Payoff(first)
    })
}

impl Game for PyState {
    type Move = u32;
    const HASHED: bool = true;

    fn turn(&self) -> Turn {
        self.node().turn
    }

    fn generate(&self, moves: &mut Vec<u32>) -> Status {
        let node = self.node();
        if self.shared.failed() {
            return Status::Over(Outcome::Draw);
        }
        if node.status == Status::Ongoing {
            moves.extend(0..node.moves.len() as u32);
        }
        node.status
    }

    fn play(&mut self, mv: u32) {
        let next = {
            let node = self.node();
            if self.shared.failed() {
                return;
            }
            Python::attach(|py| {
                let m = node.moves.get(mv as usize).ok_or_else(|| crate::value_error(format!("no move {mv}")))?;
                let next = self.obj.bind(py).call_method1("play", (m.bind(py),))?;
                if next.is_none() {
                    return Err(PyTypeError::new_err("play(move) returned None: it must return the new position"));
                }
                Ok(next.unbind())
            })
        };
        match next {
            Ok(obj) => {
                self.obj = Arc::new(obj);
                self.node = Arc::new(OnceLock::new());
            }
            Err(e) => self.shared.fail(e),
        }
    }

    fn chance_probabilities(&self, outcomes: &[u32], probs: &mut Vec<f64>) {
        let node = self.node();
        probs.extend(outcomes.iter().map(|&i| node.probs.get(i as usize).copied().unwrap_or(0.0)));
    }

    fn hash_key(&self) -> Option<u64> {
        self.node().key
    }

    fn write_move(&self, mv: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Python::attach(|py| {
            self.node().moves.get(mv as usize).and_then(|m| m.bind(py).str().ok()).map(|s| s.to_string())
        });
        f.write_str(text.as_deref().unwrap_or("?"))
    }

    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        let found =
            Python::attach(|py| self.node().moves.iter().position(|m| m.bind(py).str().is_ok_and(|s| s == text)));
        found.map(|i| i as u32).ok_or_else(|| GameError::illegal(text.to_string(), "no legal move prints so"))
    }
}

/// The evaluator of a Python game: its `value()` for the player to move, 0
/// where it has none.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PyValue;

impl Evaluator<PyState> for PyValue {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, state: &PyState) -> f64 {
        if !state.shared.has_value || state.shared.failed() {
            return 0.0;
        }
        let v = Python::attach(|py| state.obj.bind(py).call_method0("value")?.extract::<f64>());
        match v {
            Ok(v) if v.is_finite() => v,
            Ok(v) => {
                state.shared.fail(crate::value_error(format!("value() returned {v}: it must be finite")));
                0.0
            }
            Err(e) => {
                state.shared.fail(e);
                0.0
            }
        }
    }
}

impl Native for PyState {
    type Eval = PyValue;
    const DETACHED: bool = false;

    fn name(&self) -> &'static str {
        "python"
    }

    fn heuristic(&self) -> PyValue {
        PyValue
    }

    fn default_table_mib(&self) -> usize {
        if self.shared.hashed { 16 } else { 0 }
    }

    fn move_to_py(&self, py: Python<'_>, mv: u32) -> PyResult<Py<PyAny>> {
        self.node()
            .moves
            .get(mv as usize)
            .map(|m| m.clone_ref(py))
            .ok_or_else(|| crate::value_error(format!("no move {mv}")))
    }

    fn move_from_py(&self, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        for (i, m) in self.node().moves.iter().enumerate() {
            if m.bind(obj.py()).eq(obj)? {
                return Ok(i as u32);
            }
        }
        Err(crate::value_error(format!("illegal move {}: not among legal_moves()", obj.repr()?)))
    }

    fn take_error(&self) -> Option<PyErr> {
        self.shared.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        Some(self.shared.stop.clone())
    }
}
