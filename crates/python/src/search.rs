//! `search()`, `mcts()` and the connect-4 solver.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::sync::Mutex;
use std::time::Duration;

use games_small::solver::Solver;
use pyo3::prelude::*;
use search_core::mcts::{FinalMove, MaxBackup, Mcts, MctsBackup, MctsConfig, Mean, Playouts, Soft};
use search_core::search::Limits;

use crate::games::Connect4Py;
use crate::native::{Eval, Native};
use crate::results::{MctsResultPy, SearchResultPy, mcts_result, search_result};
use crate::rules::{self, Setup};
use crate::value_error;

/// Runs `$body` with `$g` bound to the Rust game behind a Python state: a
/// built-in game's, or a [`PyState`](crate::protocol::PyState) around an
/// object of the protocol.
macro_rules! with_game {
    ($obj:expr, $g:ident => $body:expr) => {{
        let obj: &Bound<'_, PyAny> = $obj;
        'dispatch: {
            // The built-in games, each behind its class (a repetition, so
            // that `$body` is written once and monomorphised per game).
            with_game!(@try obj, $g => $body, 'dispatch,
                crate::games::TicTacToePy, crate::games::Connect4Py, crate::games::GobangPy, crate::games::TreePy, crate::games::PigPy);
            #[cfg(feature = "chess")]
            with_game!(@try obj, $g => $body, 'dispatch, crate::chess::ChessPy);
            let state = crate::protocol::PyState::wrap(obj)?;
            let $g = &state;
            $body
        }
    }};
    (@try $obj:ident, $g:ident => $body:expr, $label:lifetime, $($Py:ty),+) => {
        $(
            if let Ok(s) = $obj.cast::<$Py>() {
                let $g = &s.get().0;
                break $label $body;
            }
        )+
    };
}
pub(crate) use with_game;

/// Seconds as a duration; a `ValueError` unless finite and `>= 0`.
pub(crate) fn seconds(name: &str, s: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(s)
        .map_err(|_| value_error(format!("{name} must be a finite number of seconds >= 0, got {s}")))
}

/// A Python game calls back into the interpreter: one thread only.
fn one_thread<G: Native>(threads: usize) -> PyResult<()> {
    if !G::DETACHED && threads > 1 {
        return Err(value_error("a game written in Python is searched on one thread (threads=1)"));
    }
    Ok(())
}

/// Runs `f` without the GIL where the game allows it.
pub(crate) fn detached<G: Native, T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
    if G::DETACHED { py.detach(f) } else { f() }
}

/// What a search built from the keywords depends on: calls with the same
/// key can use the same search object.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SearchKey {
    game: TypeId,
    rule: String,
    evaluator: String,
    table_mib: usize,
    threads: usize,
    exact_root: bool,
    seed: u64,
}

/// Searches kept per thread between calls, at most this many.
const KEPT_SEARCHES: usize = 4;

thread_local! {
    /// The searches of the latest calls on this thread (built-in games
    /// only), most recent last. Building a search allocates and fills its
    /// transposition table (16 MiB for connect-4 and gobang), which costs
    /// more than a small search itself; a kept search is cleared instead,
    /// which costs what the previous search stored.
    static SEARCHES: RefCell<Vec<(SearchKey, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// The kept search for `key`, cleared (taken out of the cache while it runs).
fn take_kept<G: Native>(key: &SearchKey) -> Option<rules::Built<G>> {
    let kept = SEARCHES.with_borrow_mut(|v| v.iter().position(|(k, _)| k == key).map(|i| v.remove(i)))?;
    let mut built = *kept.1.downcast::<rules::Built<G>>().ok()?;
    built.search.clear();
    Some(built)
}

/// Keeps `built` for the next call with `key`.
fn keep<G: Native>(key: SearchKey, built: rules::Built<G>) {
    SEARCHES.with_borrow_mut(|v| {
        if v.len() >= KEPT_SEARCHES {
            v.remove(0);
        }
        v.push((key, Box::new(built)));
    });
}

#[allow(clippy::too_many_arguments)]
fn run_search<G: Native>(
    py: Python<'_>,
    g: &G,
    rule: &str,
    limits: Limits,
    evaluator: &str,
    table_mib: Option<usize>,
    threads: usize,
    exact_root: bool,
    seed: u64,
) -> PyResult<SearchResultPy> {
    one_thread::<G>(threads)?;
    let eval = Eval::parse(evaluator, g.heuristic())?;
    let setup = Setup { table_mib: table_mib.unwrap_or_else(|| g.default_table_mib()), threads, exact_root, seed };
    // A game written in Python is not kept: its searches cost per node, and
    // its evaluator holds the Python object.
    let key = G::DETACHED.then(|| SearchKey {
        game: TypeId::of::<G>(),
        rule: rule.to_owned(),
        evaluator: evaluator.to_owned(),
        table_mib: setup.table_mib,
        threads,
        exact_root,
        seed,
    });
    let mut built = match key.as_ref().and_then(take_kept::<G>) {
        Some(kept) => kept,
        None => rules::build::<G, Eval<G::Eval>>(rule, eval, setup).map_err(value_error)?,
    };
    let limits = match g.stop_flag() {
        Some(flag) => limits.with_stop(flag),
        None => limits,
    };
    let search = &mut built.search;
    let out = detached::<G, _>(py, || search.run(g, &limits));
    if let Some(e) = g.take_error() {
        return Err(e);
    }
    let result =
        out.map_err(value_error).and_then(|r| search_result(py, g, &r, built.policy.as_ref(), built.search.name()));
    if let Some(key) = key {
        keep(key, built);
    }
    result
}

/// The limits from the keywords: none given is the whole tree.
fn limits(depth: Option<u32>, nodes: Option<u64>, time: Option<f64>) -> PyResult<Limits> {
    let mut limits = Limits::full_tree();
    if let Some(d) = depth {
        limits = limits.with_depth(d);
    }
    if let Some(n) = nodes {
        limits = limits.with_nodes(n);
    }
    if let Some(t) = time {
        limits = limits.with_time(seconds("time", t)?);
    }
    limits.validate().map_err(value_error)?;
    Ok(limits)
}

/// Searches `state` with a backup rule (a spec string, see `docs/python.md`)
/// to the limits given (none: the whole tree).
///
/// On a built-in game the thread keeps the searches of its last few calls
/// and clears one for the next call with the same arguments instead of
/// building it again (a fresh table costs more than a small search); the
/// results are those of a fresh search.
#[pyfunction]
#[pyo3(signature = (state, rule = "alphabeta", *, depth = None, nodes = None, time = None,
    evaluator = "heuristic", table_mib = None, threads = 1, exact_root = false, seed = 0))]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    rule: &str,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    evaluator: &str,
    table_mib: Option<usize>,
    threads: usize,
    exact_root: bool,
    seed: u64,
) -> PyResult<SearchResultPy> {
    let limits = limits(depth, nodes, time)?;
    with_game!(state, g => run_search(py, g, rule, limits, evaluator, table_mib, threads, exact_root, seed))
}

/// The MCTS settings from the keywords.
struct MctsArgs<'a> {
    limits: Limits,
    c: f64,
    backup: &'a str,
    tau: Option<f64>,
    playouts: &'a str,
    scale: f64,
    evaluator: &'a str,
    seed: u64,
    threads: usize,
}

fn run_mcts<G: Native>(py: Python<'_>, g: &G, a: &MctsArgs<'_>) -> PyResult<MctsResultPy> {
    one_thread::<G>(a.threads)?;
    let eval = Eval::parse(a.evaluator, g.heuristic())?;
    let playouts = match a.playouts {
        "random" => Playouts::Random,
        "eval" => Playouts::Eval,
        other => return Err(value_error(format!("playouts must be \"random\" or \"eval\", got {other:?}"))),
    };
    let config = |base: MctsConfig| -> PyResult<MctsConfig> {
        base.with_playouts(playouts)
            .with_seed(a.seed)
            .with_reuse(false)
            .with_value_scale(a.scale)
            .and_then(|c| c.with_threads(a.threads))
            .map_err(value_error)
    };
    let limits = match g.stop_flag() {
        Some(flag) => a.limits.clone().with_stop(flag),
        None => a.limits.clone(),
    };
    match (a.backup, a.tau) {
        ("mean", None) => {
            let cfg = config(MctsConfig::default().with_c(a.c).map_err(value_error)?)?;
            go(py, g, Mcts::new(Mean, eval, cfg).map_err(value_error)?, &limits)
        }
        ("max", None) => {
            let cfg = config(MctsConfig::default().with_c(a.c).map_err(value_error)?)?;
            let max = MaxBackup::with_min_visits(1).map_err(value_error)?;
            go(py, g, Mcts::new(max, eval, cfg).map_err(value_error)?, &limits)
        }
        ("ments", Some(tau)) => {
            let cfg = config(MctsConfig::ments(1.0).map_err(value_error)?.with_final_move(FinalMove::Value))?;
            go(py, g, Mcts::new(Soft::new(tau).map_err(value_error)?, eval, cfg).map_err(value_error)?, &limits)
        }
        ("ments", None) => Err(value_error("backup=\"ments\" needs tau (its temperature)")),
        ("mean" | "max", Some(_)) => Err(value_error("tau goes with backup=\"ments\"")),
        (other, _) => Err(value_error(format!("backup must be \"mean\", \"max\" or \"ments\", got {other:?}"))),
    }
}

fn go<G: Native, B: MctsBackup + Send + Sync, E: search_core::Evaluator<G> + Send + Sync>(
    py: Python<'_>,
    g: &G,
    mut mcts: Mcts<G, B, E>,
    limits: &Limits,
) -> PyResult<MctsResultPy> {
    let m = &mut mcts;
    let out = detached::<G, _>(py, || m.run(g, limits));
    if let Some(e) = g.take_error() {
        return Err(e);
    }
    mcts_result(py, g, &out.map_err(value_error)?)
}

/// Monte Carlo tree search (UCT) from `state`: `iterations` simulations
/// and/or `time` seconds.
#[pyfunction]
#[pyo3(signature = (state, iterations = None, *, time = None, c = 1.4, backup = "mean", tau = None,
    playouts = "random", scale = 1.0, evaluator = "heuristic", seed = 0, threads = 1))]
#[allow(clippy::too_many_arguments)]
fn mcts(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    iterations: Option<u64>,
    time: Option<f64>,
    c: f64,
    backup: &str,
    tau: Option<f64>,
    playouts: &str,
    scale: f64,
    evaluator: &str,
    seed: u64,
    threads: usize,
) -> PyResult<MctsResultPy> {
    let mut limits = Limits::full_tree();
    match (iterations, time) {
        (None, None) => return Err(value_error("mcts needs iterations=N or time=SECONDS (or both)")),
        (i, t) => {
            if let Some(i) = i {
                limits = limits.with_iterations(i);
            }
            if let Some(t) = t {
                limits = limits.with_time(seconds("time", t)?);
            }
        }
    }
    limits.validate().map_err(value_error)?;
    let args = MctsArgs { limits, c, backup, tau, playouts, scale, evaluator, seed, threads };
    with_game!(state, g => run_mcts(py, g, &args))
}

/// A solve's result.
#[pyclass(frozen, get_all, module = "backup_rules", name = "Solved")]
#[derive(Debug)]
pub(crate) struct SolvedPy {
    /// The exact score for the side to move (0 a draw; a win with the
    /// side's `k`-th disc scores `(cells + 1)/2 + 1 − k`, a loss the
    /// negation), or only its sign for `weak_solve`.
    score: i32,
    /// Nodes visited.
    nodes: u64,
    /// Wall-clock seconds.
    seconds: f64,
}

#[pymethods]
impl SolvedPy {
    fn __repr__(&self) -> String {
        format!("Solved(score={}, nodes={}, seconds={:.6})", self.score, self.nodes, self.seconds)
    }
}

/// The strong connect-4 solver (Pons' techniques) for one board size.
#[pyclass(frozen, module = "backup_rules", name = "Connect4Solver")]
#[derive(Debug)]
pub(crate) struct SolverPy {
    solver: Mutex<Solver>,
}

impl SolverPy {
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Solver) -> Result<T, search_core::GameError> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut solver = self.solver.lock().unwrap_or_else(|p| p.into_inner());
            f(&mut solver)
        })
        .map_err(value_error)
    }
}

#[pymethods]
impl SolverPy {
    #[new]
    #[pyo3(signature = (width = 7, height = 6, table_mib = games_small::solver::DEFAULT_TABLE_MIB))]
    fn new(width: usize, height: usize, table_mib: usize) -> PyResult<Self> {
        let solver = Solver::with_table_mib(width, height, table_mib).map_err(value_error)?;
        Ok(SolverPy { solver: Mutex::new(solver) })
    }

    /// The exact score of `position` for the side to move.
    fn solve(&self, py: Python<'_>, position: PyRef<'_, Connect4Py>) -> PyResult<SolvedPy> {
        let pos = position.0;
        let s = self.with(py, |solver| solver.solve(&pos))?;
        Ok(SolvedPy { score: s.score, nodes: s.nodes, seconds: s.micros as f64 * 1e-6 })
    }

    /// Win (1), draw (0) or loss (-1) for the side to move: faster than `solve`.
    fn weak_solve(&self, py: Python<'_>, position: PyRef<'_, Connect4Py>) -> PyResult<SolvedPy> {
        let pos = position.0;
        let s = self.with(py, |solver| solver.weak_solve(&pos))?;
        Ok(SolvedPy { score: s.score, nodes: s.nodes, seconds: s.micros as f64 * 1e-6 })
    }

    /// A perfect move: `(column, score)`.
    fn best_move(&self, py: Python<'_>, position: PyRef<'_, Connect4Py>) -> PyResult<(u8, i32)> {
        let pos = position.0;
        let b = self.with(py, |solver| solver.best_move(&pos))?;
        Ok((b.column, b.score))
    }

    /// Empties the transposition table.
    fn reset(&self) {
        self.solver.lock().unwrap_or_else(|p| p.into_inner()).reset();
    }
}

/// The whole-tree path statistics of a policy on a `Tree` under the
/// Rminimax paper's utility costs (every interior arc costs `interior`, the
/// arc into a leaf `offset − value`, the value for the root's player):
/// `{"entropy": H, "expected_cost": E[C],
/// "cost_to_go": V}`. `policy` is `"rminimax"` (θ = `param`),
/// `"epsilon-greedy"` (ε = `param`), `"boltzmann"` (θ = `param`) or
/// `"greedy"` (no `param`). The quantities of the paper's Tables II and III.
#[pyfunction]
#[pyo3(signature = (tree, policy, param = None, *, interior = 1.0, offset = 0.0))]
fn path_stats(
    py: Python<'_>,
    tree: PyRef<'_, crate::games::TreePy>,
    policy: &str,
    param: Option<f64>,
    interior: f64,
    offset: f64,
) -> PyResult<Py<pyo3::types::PyDict>> {
    use search_core::backup::rminimax::UtilityCosts;
    use search_core::policy::{PathAnalysis, TreePolicy};
    use search_core::tree::LiteralEval;
    let need = |what: &str| param.ok_or_else(|| value_error(format!("policy {policy:?} needs param (its {what})")));
    let policy = match policy {
        "rminimax" => TreePolicy::Rminimax { theta: need("θ")? },
        "epsilon-greedy" => TreePolicy::EpsilonGreedy { epsilon: need("ε")? },
        "boltzmann" => TreePolicy::Boltzmann { theta: need("θ")? },
        "greedy" if param.is_none() => TreePolicy::Greedy,
        "greedy" => return Err(value_error("policy \"greedy\" takes no param")),
        other => {
            return Err(value_error(format!(
                "policy must be rminimax, epsilon-greedy, boltzmann or greedy, got {other:?}"
            )));
        }
    };
    let costs = UtilityCosts::new(interior, offset).map_err(value_error)?;
    let root = tree.0.clone();
    let stats = py.detach(|| PathAnalysis::new(root, LiteralEval, costs).stats(policy)).map_err(value_error)?;
    let out = pyo3::types::PyDict::new(py);
    out.set_item("entropy", stats.entropy)?;
    out.set_item("expected_cost", stats.expected_cost)?;
    out.set_item("cost_to_go", stats.cost_to_go)?;
    Ok(out.unbind())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(path_stats, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(mcts, m)?)?;
    m.add_class::<SolvedPy>()?;
    m.add_class::<SolverPy>()?;
    m.add("RULES", rules::KINDS)?;
    Ok(())
}
