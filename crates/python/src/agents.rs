//! Agents by spec string, matches with Elo and its interval, and the
//! strength dial (`elo:X`) on the committed calibrations.

use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::prelude::*;
use search_core::rng;
use strength::agents::StandardAgents;
use strength::dial::{Calibration, Dial};
use tournament::Setup;
use tournament::matches::pair_seed;
use tournament::summary::MatchSummary;

use crate::native::Native;
use crate::search::{detached, with_game};
use crate::value_error;

/// The dial of `g`'s game, from its committed calibration.
fn dial<G: Native>(g: &G) -> PyResult<Option<Dial>> {
    let Some(json) = g.calibration() else { return Ok(None) };
    let calibration = Calibration::from_json(json).map_err(value_error)?;
    Dial::new(calibration).map(Some).map_err(value_error)
}

/// The standard agent kinds on `g`'s evaluator, with `elo:X` where the game
/// has a calibration.
fn agents<G: Native>(g: &G) -> PyResult<StandardAgents<G::Eval>> {
    let agents = StandardAgents::new(g.heuristic()).with_table_mib(g.agent_table_mib());
    Ok(match dial(g)? {
        Some(d) => agents.with_dial(d),
        None => agents,
    })
}

fn choose<G: Native>(py: Python<'_>, g: &G, spec: &str, seed: u64) -> PyResult<Py<PyAny>> {
    let roster = G::roster(agents(g)?);
    let mut agent = roster.build(spec).map_err(value_error)?;
    let out = detached::<G, _>(py, || agent.choose(g, &mut rng::seeded(seed)));
    if let Some(e) = g.take_error() {
        return Err(e);
    }
    g.move_to_py(py, out.map_err(value_error)?)
}

/// The move the agent of `spec` plays in `state`, its random choices drawn
/// from `seed`.
#[pyfunction]
#[pyo3(signature = (state, spec, seed = 0))]
fn choose_move(py: Python<'_>, state: &Bound<'_, PyAny>, spec: &str, seed: u64) -> PyResult<Py<PyAny>> {
    with_game!(state, g => choose(py, g, spec, seed))
}

/// An agent given by a spec string (`"alphabeta:depth=4"`, `"elo:1200"`,
/// `"rminimax:depth=4,theta=0.5"`, `"mcts:iters=1000"`, on chess also
/// `"human:1500"`...).
///
/// Each call to `choose` draws its randomness from the agent's seed and the
/// number of moves it has chosen before, so a run is reproducible.
#[pyclass(frozen, module = "backup_rules", name = "Agent")]
#[derive(Debug)]
struct AgentPy {
    spec: String,
    seed: u64,
    moves: AtomicU64,
}

#[pymethods]
impl AgentPy {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<Self> {
        let parsed: strength::spec::AgentSpec = spec.parse().map_err(value_error)?;
        Ok(AgentPy { spec: parsed.to_string(), seed, moves: AtomicU64::new(0) })
    }

    /// The spec, in canonical form.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The move this agent plays in `state`.
    fn choose(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let n = self.moves.fetch_add(1, Ordering::Relaxed);
        let seed = rng::derive_seed(self.seed, n);
        with_game!(state, g => choose(py, g, &self.spec, seed))
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?}, seed={})", self.spec, self.seed)
    }
}

/// A match's result, from A's side.
#[pyclass(frozen, get_all, module = "backup_rules", name = "MatchResult")]
#[derive(Debug)]
struct MatchResultPy {
    /// A's spec.
    a: String,
    /// B's spec.
    b: String,
    /// Games played (two per pair: each agent moves first once).
    games: u64,
    /// A's wins, draws and losses.
    wins: u64,
    draws: u64,
    losses: u64,
    /// A's score, in [0, 1].
    score: f64,
    /// The Elo difference A − B from the pairs (pentanomial), with its 95%
    /// interval; `None` where undefined (every pair scored the same).
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    /// Pairs by A's score: 0, ½, 1, 1½, 2.
    pentanomial: [u64; 5],
    /// The report the command line prints.
    report: String,
}

#[pymethods]
impl MatchResultPy {
    fn __repr__(&self) -> String {
        let elo = match (self.elo, self.elo_low, self.elo_high) {
            (Some(e), Some(lo), Some(hi)) => format!("{e:+.0} [{lo:+.0}, {hi:+.0}]"),
            _ => "n/a".into(),
        };
        format!(
            "MatchResult({:?} vs {:?}: +{} ={} -{}, score {:.3}, Elo {elo})",
            self.a, self.b, self.wins, self.draws, self.losses, self.score
        )
    }

    fn __str__(&self) -> String {
        self.report.clone()
    }
}

/// The settings of a match.
struct MatchArgs<'a> {
    a: &'a str,
    b: &'a str,
    pairs: usize,
    seed: u64,
    opening_plies: usize,
    max_plies: usize,
}

/// How a long call (a match, a fit) reports its progress: not at all,
/// through a Python callable `progress(done, total)` after each pair or
/// game, or through a tqdm bar.
enum Progress<'py> {
    Off,
    Call(Bound<'py, PyAny>),
    Bar(Bound<'py, PyAny>),
}

impl<'py> Progress<'py> {
    /// From the `progress` keyword: `None`/`False`, `True` (tqdm, which must
    /// be installed) or a callable.
    fn new(py: Python<'py>, arg: Option<&Bound<'py, PyAny>>, total: usize, what: &str, unit: &str) -> PyResult<Self> {
        let Some(arg) = arg else { return Ok(Progress::Off) };
        if arg.is_instance_of::<pyo3::types::PyBool>() {
            if !arg.is_truthy()? {
                return Ok(Progress::Off);
            }
            let tqdm = py.import("tqdm").map_err(|e| {
                pyo3::exceptions::PyImportError::new_err(format!(
                    "progress=True needs tqdm (pip install tqdm), or pass a callable progress(done, total): {e}"
                ))
            })?;
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("total", total)?;
            kwargs.set_item("desc", what)?;
            kwargs.set_item("unit", unit)?;
            return Ok(Progress::Bar(tqdm.getattr("tqdm")?.call((), Some(&kwargs))?));
        }
        if !arg.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "progress must be True, False, None or a callable progress(done, total)",
            ));
        }
        Ok(Progress::Call(arg.clone()))
    }

    fn update(&self, done: usize, total: usize) -> PyResult<()> {
        match self {
            Progress::Off => Ok(()),
            Progress::Call(f) => f.call1((done, total)).map(drop),
            Progress::Bar(bar) => bar.call_method1("update", (1,)).map(drop),
        }
    }

    fn close(&self) -> PyResult<()> {
        match self {
            Progress::Bar(bar) => bar.call_method0("close").map(drop),
            _ => Ok(()),
        }
    }

    /// Runs `work` on `items` without the GIL where `g` allows it, giving
    /// each result to `keep`: in one call, or, with progress, one item a
    /// call with the progress reported between them (so `work` must give
    /// the same results either way). An error of `work`, of the game or of
    /// the progress callback stops the run and is returned; the bar is
    /// closed in every case.
    fn run<G: Native, T: Sync, R: Send, E: std::fmt::Display + Send>(
        &self,
        py: Python<'py>,
        g: &G,
        items: &[T],
        mut work: impl FnMut(&[T]) -> Result<R, E> + Send,
        mut keep: impl FnMut(R),
    ) -> PyResult<()> {
        let chunk = if matches!(self, Progress::Off) { items.len().max(1) } else { 1 };
        let ran = (|| -> PyResult<()> {
            for (i, part) in items.chunks(chunk).enumerate() {
                let out = detached::<G, _>(py, || work(part));
                if let Some(e) = g.take_error() {
                    return Err(e);
                }
                keep(out.map_err(value_error)?);
                self.update(((i + 1) * chunk).min(items.len()), items.len())?;
            }
            Ok(())
        })();
        let closed = self.close();
        ran?;
        closed
    }
}

fn run_match<'py, G: Native>(
    py: Python<'py>,
    g: &G,
    m: &MatchArgs<'_>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<MatchResultPy> {
    let agents = agents(g)?;
    let setup = Setup::new(g.name(), g.clone(), move || G::roster(agents.clone()))
        .with_opening_plies(m.opening_plies)
        .with_max_plies(m.max_plies);
    setup.check_spec(m.a).map_err(value_error)?;
    setup.check_spec(m.b).map_err(value_error)?;
    let progress = Progress::new(py, progress, m.pairs, &format!("{} vs {}", m.a, m.b), "pair")?;
    let pairs = detached::<G, _>(py, || {
        setup.random_openings(m.pairs, m.seed).map(|openings| {
            openings.into_iter().enumerate().map(|(i, o)| (o, pair_seed(m.seed, i))).collect::<Vec<(String, u64)>>()
        })
    });
    if let Some(e) = g.take_error() {
        return Err(e);
    }
    let pairs = pairs.map_err(value_error)?;
    // Agents are reset before every game, so the pairs played one call
    // each (with progress) are the games of one call.
    let mut outcomes = Vec::with_capacity(pairs.len());
    progress.run(py, g, &pairs, |part| setup.play_pairs(m.a, m.b, part), |out| outcomes.extend(out))?;
    let summary = MatchSummary::new(&outcomes, None);
    let tri = summary.trinomial();
    let elo = summary.pentanomial().elo();
    Ok(MatchResultPy {
        a: m.a.to_string(),
        b: m.b.to_string(),
        games: tri.games(),
        wins: tri.wins(),
        draws: tri.draws(),
        losses: tri.losses(),
        score: tri.score().map_or(f64::NAN, |s| s.value),
        elo: elo.map(|e| e.value),
        elo_low: elo.map(|e| e.low),
        elo_high: elo.map(|e| e.high),
        pentanomial: summary.pentanomial().counts,
        report: summary.report(g.name(), m.a, m.b),
    })
}

/// Plays `pairs` pairs of games between the agents of specs `a` and `b`
/// from `start` (each pair from one random opening of `opening_plies`
/// moves, each agent moving first once), seeded by `seed`.
#[pyfunction]
#[pyo3(signature = (start, a, b, *, pairs = 10, seed = 0, opening_plies = 0, max_plies = 1000, progress = None))]
#[allow(clippy::too_many_arguments)]
fn play_match<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    a: &str,
    b: &str,
    pairs: usize,
    seed: u64,
    opening_plies: usize,
    max_plies: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<MatchResultPy> {
    let args = MatchArgs { a, b, pairs, seed, opening_plies, max_plies };
    with_game!(start, g => run_match(py, g, &args, progress))
}

/// The range of ratings the strength dial of `state`'s game covers.
#[pyfunction]
fn dial_range(state: &Bound<'_, PyAny>) -> PyResult<(f64, f64)> {
    with_game!(state, g => match dial(g)? {
        Some(d) => Ok(d.range()),
        None => Err(value_error(format!("no calibration of {} is committed: the dial needs one", g.name()))),
    })
}

/// The agent spec the dial plays at rating `elo` on `state`'s game.
#[pyfunction]
fn dial_setting(state: &Bound<'_, PyAny>, elo: f64) -> PyResult<String> {
    with_game!(state, g => match dial(g)? {
        Some(d) => d.setting(elo).map(|s| s.to_string()).map_err(value_error),
        None => Err(value_error(format!("no calibration of {} is committed: the dial needs one", g.name()))),
    })
}

/// A fitted player model.
#[pyclass(frozen, get_all, module = "backup_rules", name = "FitResult")]
#[derive(Debug)]
struct FitResultPy {
    /// `"boltzmann"`, `"epsilon-greedy"` or `"noise"`.
    model: String,
    /// The maximum-likelihood parameter (θ, ε or the noise S; may be `inf`).
    param: f64,
    /// Its 95% profile-likelihood interval; `None` is an end open to the
    /// domain's edge.
    low: Option<f64>,
    high: Option<f64>,
    /// The fitted slip probability, where fitted.
    slip: Option<f64>,
    /// The log-likelihood and AIC.
    loglik: f64,
    aic: f64,
    /// Decisions used, and those with every move of equal value (not used).
    moves: usize,
    uninformative: usize,
    /// The dial rating of a fitted Boltzmann player on `curve`, with its
    /// interval, where a curve of a calibrated game was given.
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
}

#[pymethods]
impl FitResultPy {
    fn __repr__(&self) -> String {
        format!(
            "FitResult({} {} in [{:?}, {:?}], moves={}, elo={:?})",
            self.model, self.param, self.low, self.high, self.moves, self.elo
        )
    }
}

/// The settings of a fit.
struct FitArgs<'a> {
    curve: Option<&'a str>,
    depth: Option<u32>,
    cap: Option<f64>,
    model: &'a str,
    side: &'a str,
    slip: bool,
}

fn run_fit<'py, G: Native>(
    py: Python<'py>,
    g: &G,
    games: &Bound<'py, PyAny>,
    a: &FitArgs<'_>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<FitResultPy> {
    use strength::fit::{FitOptions, Model, fit, map_to_dial};
    use tournament::decisions::{Decisions, DepthValuer, GameRecord, Side};

    let model = Model::ALL
        .into_iter()
        .find(|m| m.name() == a.model)
        .ok_or_else(|| value_error(format!("model must be boltzmann, epsilon-greedy or noise, got {:?}", a.model)))?;
    let side: Side = a.side.parse().map_err(value_error)?;
    // The values a dial curve's players saw: its depth and cap.
    let (depth, mut options) = match a.curve {
        Some(curve) => {
            let spec: strength::spec::AgentSpec = curve.parse().map_err(value_error)?;
            let mut r = spec.reader();
            let depth: u32 = r.require("depth").map_err(value_error)?;
            let options = match r.take_score_cap().map_err(value_error)? {
                Some(search_core::policy::ScoreCap::Hard(c)) => FitOptions::default().with_cap(c),
                Some(search_core::policy::ScoreCap::Soft(c)) => FitOptions::default().with_soft_cap(c),
                None => FitOptions::default(),
            };
            (depth, options)
        }
        None => {
            let depth = a.depth.ok_or_else(|| value_error("fit needs depth=D, or a dial curve"))?;
            let options = match a.cap {
                Some(c) => FitOptions::default().with_cap(c),
                None => FitOptions::default(),
            };
            (depth, options)
        }
    };
    if a.slip {
        options = options.with_slip();
    }
    let mut records = Vec::new();
    for game in games.try_iter()? {
        let mut state = g.clone();
        let mut moves = Vec::new();
        for mv in game?.try_iter()? {
            let m = state.move_from_py(&mv?)?;
            state.try_play(m).map_err(value_error)?;
            moves.push(m);
        }
        records.push(GameRecord::new(g.clone(), moves));
    }
    let mut valuer = DepthValuer::new(g.heuristic(), depth, g.agent_table_mib()).map_err(value_error)?;
    let progress = Progress::new(py, progress, records.len(), "fit", "game")?;
    // The valuer starts every game afresh, so the games valued one call
    // each (with progress) give the decisions of one call.
    let mut decisions = Decisions::default();
    progress.run(
        py,
        g,
        &records,
        |part| tournament::decisions::decisions(part, side, &mut valuer),
        |d| decisions.append(d),
    )?;
    let f = fit(&decisions.decisions, model, options).map_err(value_error)?;
    let rating = match (a.curve, dial(g)?) {
        (Some(curve), Some(d)) => map_to_dial(&d, curve, &f),
        _ => None,
    };
    Ok(FitResultPy {
        model: f.model.name().to_string(),
        param: f.param,
        low: f.ci95.0,
        high: f.ci95.1,
        slip: f.slip,
        loglik: f.loglik,
        aic: f.aic,
        moves: f.moves,
        uninformative: f.uninformative,
        elo: rating.map(|r| r.0),
        elo_low: rating.and_then(|r| r.1.0),
        elo_high: rating.and_then(|r| r.1.1),
    })
}

/// Fits a player model to the moves of `games` (lists of moves from
/// `start`), each position valued by a depth-`depth` alpha-beta search with
/// exact root scores; with `curve` (a dial curve such as
/// `"boltzmann:depth=2,cap=100"`), at that curve's depth and cap, and a
/// fitted Boltzmann θ is also placed on the dial. `progress`: as
/// `play_match`'s, counted in games; the fit is the same with it.
#[pyfunction]
#[pyo3(signature = (start, games, *, curve = None, depth = None, cap = None, model = "boltzmann", side = "both", slip = false,
    progress = None))]
#[allow(clippy::too_many_arguments)]
fn fit_player<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    curve: Option<&str>,
    depth: Option<u32>,
    cap: Option<f64>,
    model: &str,
    side: &str,
    slip: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<FitResultPy> {
    let args = FitArgs { curve, depth, cap, model, side, slip };
    with_game!(start, g => run_fit(py, g, games, &args, progress))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FitResultPy>()?;
    m.add_function(wrap_pyfunction!(fit_player, m)?)?;
    m.add_class::<AgentPy>()?;
    m.add_class::<MatchResultPy>()?;
    m.add_function(wrap_pyfunction!(choose_move, m)?)?;
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    m.add_function(wrap_pyfunction!(dial_range, m)?)?;
    m.add_function(wrap_pyfunction!(dial_setting, m)?)?;
    Ok(())
}
