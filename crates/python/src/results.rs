//! What searches return, as Python objects: moves converted to the game's
//! Python moves, the root's scores and policy as dicts keyed by move.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use search_core::mcts::MctsResult;
use search_core::search::SearchResult;

use crate::native::Native;
use crate::rules::PolicyFn;

/// The result of `search()`.
#[pyclass(frozen, get_all, module = "backup_rules", name = "SearchResult")]
#[derive(Debug)]
pub(crate) struct SearchResultPy {
    /// The root's value for the player to move (the first player at a
    /// chance node), or `None` if no iteration finished.
    value: Option<f64>,
    /// The move chosen, or `None`.
    best: Option<Py<PyAny>>,
    /// Every move with the best value.
    best_moves: Vec<Py<PyAny>>,
    /// The principal variation from the root.
    pv: Vec<Py<PyAny>>,
    /// `{move: score}` over the root's moves (exact where the rule searches
    /// full width or `exact_root` is set; bounds otherwise).
    scores: Py<PyDict>,
    /// `{move: probability}`: Rminimax's own policy (eq. 10) for `rminimax`,
    /// otherwise the best moves shared equally.
    policy: Py<PyDict>,
    /// Nodes visited.
    nodes: u64,
    /// Leaves visited.
    leaves: u64,
    /// The depth of the last completed iteration.
    depth: u32,
    /// True if the search answered the question asked (no limit stopped it).
    complete: bool,
    /// Wall-clock seconds.
    seconds: f64,
    /// The rule's name.
    rule: String,
}

#[pymethods]
impl SearchResultPy {
    fn __repr__(&self, py: Python<'_>) -> String {
        let best = self.best.as_ref().and_then(|b| b.bind(py).repr().ok()).map_or("None".into(), |r| r.to_string());
        format!(
            "SearchResult(rule={:?}, value={:?}, best={best}, depth={}, nodes={}, complete={})",
            self.rule, self.value, self.depth, self.nodes, self.complete
        )
    }

    /// The policy as a numpy array (numpy is optional): for integer moves
    /// (the built-in games but chess) indexed by move, of length `size` (by
    /// default the largest move plus one; 0 for moves not at the root),
    /// otherwise in the order of `policy`.
    #[pyo3(signature = (size = None))]
    fn policy_array<'py>(&self, py: Python<'py>, size: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        policy_array(py, &self.policy, size)
    }
}

/// The policy `policy` (`{move: probability}`) as a numpy array: indexed by
/// move where the moves are integers (of length `size`, or the largest
/// move plus one), else in the dict's order. An `ImportError` where numpy is
/// absent (it is an optional dependency).
fn policy_array<'py>(py: Python<'py>, policy: &Py<PyDict>, size: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy").map_err(|e| {
        pyo3::exceptions::PyImportError::new_err(format!("policy_array needs numpy (pip install numpy): {e}"))
    })?;
    let policy = policy.bind(py);
    let mut entries: Vec<(Option<usize>, f64)> = Vec::with_capacity(policy.len());
    for (k, v) in policy.iter() {
        let index = if k.is_instance_of::<pyo3::types::PyInt>() { k.extract::<usize>().ok() } else { None };
        entries.push((index, v.extract()?));
    }
    let dense = !entries.is_empty() && entries.iter().all(|(i, _)| i.is_some());
    let values: Vec<f64> = if dense {
        let largest = entries.iter().filter_map(|(i, _)| *i).max().unwrap_or(0);
        let len = match size {
            Some(n) if n <= largest => {
                return Err(crate::value_error(format!("size {n} is too small for move {largest}")));
            }
            Some(n) => n,
            None => largest + 1,
        };
        let mut v = vec![0.0; len];
        for (i, p) in entries {
            if let Some(i) = i {
                v[i] = p;
            }
        }
        v
    } else {
        if size.is_some() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "size= needs integer moves (here the policy is in the order of its dict)",
            ));
        }
        entries.into_iter().map(|(_, p)| p).collect()
    };
    numpy.call_method1("asarray", (values, "float64"))
}

/// Converts `r`, a search from `root`, into Python objects.
pub(crate) fn search_result<G: Native>(
    py: Python<'_>,
    root: &G,
    r: &SearchResult<G::Move>,
    policy: Option<&PolicyFn>,
    rule: String,
) -> PyResult<SearchResultPy> {
    let mv = |m: G::Move| root.move_to_py(py, m);
    let scores = PyDict::new(py);
    for rm in &r.root_moves {
        scores.set_item(mv(rm.mv)?, rm.score)?;
    }
    let probs: Vec<f64> = match (policy, r.value) {
        (Some(f), Some(v)) if !r.root_moves.is_empty() => f(v, &r.scores()).map_err(crate::value_error)?,
        _ => {
            let n = r.best_moves.len().max(1) as f64;
            r.root_moves.iter().map(|m| if r.best_moves.contains(&m.mv) { 1.0 / n } else { 0.0 }).collect()
        }
    };
    let policy = PyDict::new(py);
    for (rm, p) in r.root_moves.iter().zip(probs) {
        policy.set_item(mv(rm.mv)?, p)?;
    }
    Ok(SearchResultPy {
        value: r.value,
        best: r.best.map(mv).transpose()?,
        best_moves: r.best_moves.iter().map(|&m| mv(m)).collect::<PyResult<_>>()?,
        pv: line(py, root, &r.pv)?,
        scores: scores.unbind(),
        policy: policy.unbind(),
        nodes: r.stats.nodes,
        leaves: r.stats.leaves,
        depth: r.stats.depth,
        complete: r.complete,
        seconds: r.stats.micros as f64 * 1e-6,
        rule,
    })
}

/// A line of moves from `root` as Python moves (each converted in the
/// position where it is played).
pub(crate) fn line<G: Native>(py: Python<'_>, root: &G, moves: &[G::Move]) -> PyResult<Vec<Py<PyAny>>> {
    let mut g = root.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(g.move_to_py(py, m)?);
        g.play(m);
    }
    Ok(out)
}

/// The result of `mcts()`.
#[pyclass(frozen, get_all, module = "backup_rules", name = "MctsResult")]
#[derive(Debug)]
pub(crate) struct MctsResultPy {
    /// The move chosen (most visits, unless the final-move rule says otherwise).
    best: Option<Py<PyAny>>,
    /// The root's value in [-1, 1] for the player to move.
    value: f64,
    /// `{move: visits}`.
    visits: Py<PyDict>,
    /// `{move: value}` in [-1, 1] for the root's player.
    values: Py<PyDict>,
    /// `{move: probability}`: the soft policy of `ments`, else the visit shares.
    policy: Py<PyDict>,
    /// The most visited line.
    pv: Vec<Py<PyAny>>,
    /// Simulations run.
    iterations: u64,
    /// States visited (tree and playouts).
    nodes: u64,
    /// Wall-clock seconds.
    seconds: f64,
}

#[pymethods]
impl MctsResultPy {
    fn __repr__(&self, py: Python<'_>) -> String {
        let best = self.best.as_ref().and_then(|b| b.bind(py).repr().ok()).map_or("None".into(), |r| r.to_string());
        format!("MctsResult(best={best}, value={:.4}, iterations={})", self.value, self.iterations)
    }

    /// The policy as a numpy array, as `SearchResult.policy_array`.
    #[pyo3(signature = (size = None))]
    fn policy_array<'py>(&self, py: Python<'py>, size: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        policy_array(py, &self.policy, size)
    }
}

/// Converts an MCTS result from `root`.
pub(crate) fn mcts_result<G: Native>(py: Python<'_>, root: &G, r: &MctsResult<G::Move>) -> PyResult<MctsResultPy> {
    let visits = PyDict::new(py);
    let values = PyDict::new(py);
    let policy = PyDict::new(py);
    for m in &r.root_moves {
        let key = root.move_to_py(py, m.mv)?;
        visits.set_item(key.clone_ref(py), m.visits)?;
        values.set_item(key.clone_ref(py), m.value)?;
        policy.set_item(key, m.policy)?;
    }
    Ok(MctsResultPy {
        best: r.best.map(|m| root.move_to_py(py, m)).transpose()?,
        value: r.value,
        visits: visits.unbind(),
        values: values.unbind(),
        policy: policy.unbind(),
        pv: line(py, root, &r.pv)?,
        iterations: r.iterations,
        nodes: r.stats.nodes,
        seconds: r.stats.micros as f64 * 1e-6,
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SearchResultPy>()?;
    m.add_class::<MctsResultPy>()?;
    Ok(())
}
