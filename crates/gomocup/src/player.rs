//! Thinking within the time: the default player (iterative-deepening
//! alpha-beta with the gobang evaluator under the move's time limit) or an
//! agent built from a spec, run on a worker thread that the brain waits for
//! until the move's deadline, with a fallback move when it is late.
//!
//! The fallback ([`quick_move`]) is computed first, in microseconds: the
//! move that makes five if there is one, else the one that blocks the
//! opponent's five, else the candidate the game's move ordering likes best.
//! So the brain always has a legal move to answer with.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, LazyLock};
use std::thread;
use std::time::{Duration, Instant};

use games_small::GobangEval;
use games_small::gobang::{Gobang, Point};
use search_core::backup::Minimax;
use search_core::rng::{self, RngExt};
use search_core::search::{Control, Iteration, Limits, Options, Search};
use search_core::{Agent, Game, GameError, ParamError, Status};
use strength::agents::{BoxedAgent, Roster, StandardAgents};
use strength::dial::{Calibration, Dial};
use strength::spec::SpecError;

use crate::clock::Budget;
use crate::error::BrainError;
use crate::position::coord_of;

/// Worker threads alive at once (the current one and those retired while
/// still finishing a late search); beyond it the brain plays its fallback.
const MAX_WORKERS: usize = 3;

/// Stack of a worker thread (the search recurses once per ply).
const WORKER_STACK: usize = 64 << 20;

/// Moves of the principal variation shown in a `MESSAGE`.
const PV_SHOWN: usize = 8;

/// Who chooses the moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Strategy {
    /// Iterative-deepening alpha-beta with the gobang evaluator, as deep as
    /// the time allows (the default).
    Auto,
    /// An agent spec of the `strength` crate (`elo:1200`,
    /// `alphabeta:depth=4`, `boltzmann:depth=2,theta=0.003,cap=10000`, …).
    Spec(String),
}

/// The dial of gobang, if the compiled-in calibration is usable.
pub fn gobang_dial() -> Option<Dial> {
    Calibration::from_json(games_small::calibrations::GOBANG).ok().and_then(|c| Dial::new(c).ok())
}

/// The agent kinds of gobang: the standard ones with the gobang evaluator,
/// and `elo:X` from the compiled-in calibration.
pub fn roster() -> Roster<Gobang> {
    let agents = StandardAgents::new(GobangEval::default()).with_table_mib(16);
    let agents = match gobang_dial() {
        Some(d) => agents.with_dial(d),
        None => agents,
    };
    Roster::new().with(agents)
}

static ROSTER: LazyLock<Arc<Roster<Gobang>>> = LazyLock::new(|| Arc::new(roster()));

/// The fallback move: a five if there is one, else a block of the
/// opponent's five, else the candidate the move ordering likes best. `None`
/// when the game is over.
///
/// ```
/// use games_small::gobang::Gobang;
/// use gomocup::player::quick_move;
/// use search_core::Game;
/// let g: Gobang = "h8 a1 i8 a2 j8 a3 k8 a4".parse()?; // X to move: four in a row
/// let p = quick_move(&g).unwrap();
/// assert!(["g8", "l8"].contains(&g.move_string(p).as_str()));
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn quick_move(game: &Gobang) -> Option<Point> {
    let mut moves = Vec::new();
    if game.generate(&mut moves) != Status::Ongoing {
        return None;
    }
    let me = game.to_move();
    let five = |who| moves.iter().copied().find(|&p| game.makes_five(who, p));
    five(me).or_else(|| five(me.opponent())).or_else(|| moves.iter().copied().max_by_key(|&p| game.order_hint(p)))
}

/// A move and what to say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The move.
    pub mv: Point,
    /// How it was found, for a `MESSAGE`.
    pub note: String,
}

/// One move to think about.
struct Job {
    id: u64,
    state: Gobang,
    seed: u64,
    budget: Budget,
    started: Instant,
    stop: Arc<AtomicBool>,
}

/// What a worker is asked to do.
enum Task {
    /// Think about a move.
    Think(Job),
    /// A new game: forget the tables and histories (answered with no
    /// result once done, so that `START` and `RESTART` take that time, not
    /// the first move).
    NewGame(u64),
    /// Resize the default player's table (`INFO max_memory`); answered
    /// like `NewGame`.
    Resize(u64, usize),
}

/// A worker's answer to task `id`: `None` for a task that is not a move
/// (a new game; the worker's start, once its tables are built).
struct Answer {
    id: u64,
    result: Option<Result<Found, ThinkError>>,
}

/// Why a worker has no move (the brain then plays its [`quick_move`] and
/// says why in its note).
#[derive(Debug, Clone, thiserror::Error)]
enum ThinkError {
    /// The default player's search cannot be built.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The agent spec cannot be built.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The search or the agent failed.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The default player's search completed no iteration.
    #[error("not even the first iteration finished")]
    NoIteration,
    /// The default player's search has a value but no move.
    #[error("the search found no move")]
    NoMove,
    /// [`MAX_WORKERS`] threads are alive (late searches still finishing).
    #[error("earlier searches are still running")]
    TooManyWorkers,
    /// The system refused a new thread.
    #[error("cannot start a search thread: {0}")]
    Thread(#[source] Arc<std::io::Error>),
}

/// How long `START` and `RESTART` wait for the worker to be ready.
const SETUP_WAIT: Duration = Duration::from_secs(5);

/// What came of waiting for an answer.
enum Waited {
    /// The answer.
    Got(Option<Result<Found, ThinkError>>),
    /// Not yet.
    Late,
    /// The worker is gone.
    Gone,
}

/// What a worker thinks with.
enum Engine {
    Auto(Box<Search<Gobang, Minimax, GobangEval>>),
    Agent(BoxedAgent<Gobang>),
}

fn pv_text(game: &Gobang, pv: &[Point]) -> String {
    pv.iter().take(PV_SHOWN).map(|&p| coord_of(game, p).to_string()).collect::<Vec<_>>().join(" ")
}

impl Engine {
    fn auto(table_mib: usize) -> Result<Engine, ThinkError> {
        let eval = GobangEval::default();
        let build = |mib: usize| {
            let opts =
                Options::recommended::<Gobang, Minimax, GobangEval>(&eval).with_table_mib(mib).with_stop_at_win(true);
            Search::new(Minimax, eval, opts)
        };
        // A table the system refuses: a small one, then none.
        let search = build(table_mib).or_else(|_| build(1)).or_else(|_| build(0))?;
        Ok(Engine::Auto(Box::new(search)))
    }

    fn new_game(&mut self) {
        match self {
            Engine::Auto(search) => search.clear(),
            Engine::Agent(agent) => agent.reset(),
        }
    }

    fn think(&mut self, job: &Job) -> Result<Found, ThinkError> {
        let mut rng = rng::seeded(job.seed);
        match self {
            Engine::Auto(search) => {
                let time = job.budget.search.saturating_sub(job.started.elapsed());
                let mut limits = Limits::time(time).with_stop(job.stop.clone());
                if job.budget.fast {
                    limits = limits.with_depth(2);
                }
                // An iteration that starts after half the time would rarely
                // finish: keep the time for later moves.
                let half = time / 2;
                let mut observer =
                    |it: &Iteration<'_, Point>| if it.elapsed >= half { Control::Stop } else { Control::Continue };
                let r = search.run_observed(&job.state, &limits, &mut observer)?;
                let Some(value) = r.value else {
                    return Err(ThinkError::NoIteration);
                };
                let mv = if r.best_moves.len() > 1 {
                    r.best_moves[rng.random_range(0..r.best_moves.len())]
                } else {
                    r.best.ok_or(ThinkError::NoMove)?
                };
                let note = format!(
                    "alpha-beta depth {} value {value:.0} nodes {} time {} ms pv {}",
                    r.stats.depth,
                    r.stats.nodes,
                    r.stats.micros / 1000,
                    pv_text(&job.state, &r.pv)
                );
                Ok(Found { mv, note })
            }
            Engine::Agent(agent) => {
                let choice = agent.choose_explained(&job.state, &mut rng)?;
                let mut note = agent.name();
                if let Some(t) = choice.thought {
                    if let Some(v) = t.value {
                        note.push_str(&format!(" value {v:.0}"));
                    }
                    note.push_str(&format!(
                        " depth {} nodes {} time {} ms",
                        t.stats.depth,
                        t.stats.nodes,
                        t.stats.micros / 1000
                    ));
                    if !t.pv.is_empty() {
                        note.push_str(&format!(" pv {}", pv_text(&job.state, &t.pv)));
                    }
                }
                Ok(Found { mv: choice.mv, note })
            }
        }
    }
}

/// A worker thread's channels.
struct Worker {
    jobs: Sender<Task>,
    answers: Receiver<Answer>,
}

/// Counts a live worker thread; dropped when the thread ends (or never
/// starts).
struct Alive(Arc<AtomicUsize>);

impl Alive {
    fn new(count: &Arc<AtomicUsize>) -> Alive {
        count.fetch_add(1, Ordering::SeqCst);
        Alive(count.clone())
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Thinks about moves on worker threads, within deadlines.
pub(crate) struct Thinker {
    strategy: Strategy,
    table_mib: usize,
    /// An agent already built (when the spec was checked), for the first
    /// worker.
    spare: Option<BoxedAgent<Gobang>>,
    worker: Option<Worker>,
    alive: Arc<AtomicUsize>,
    next_id: u64,
    /// The last task sent to the worker, while its answer has not come (the
    /// worker answers its tasks in order).
    outstanding: Option<u64>,
}

impl std::fmt::Debug for Thinker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinker")
            .field("strategy", &self.strategy)
            .field("table_mib", &self.table_mib)
            .field("workers_alive", &self.alive.load(Ordering::SeqCst))
            .finish()
    }
}

impl Thinker {
    /// A thinker for `strategy`; a spec is checked (built once) now.
    pub(crate) fn new(strategy: Strategy, table_mib: usize) -> Result<Thinker, BrainError> {
        let spare = match &strategy {
            Strategy::Auto => None,
            Strategy::Spec(spec) => Some(ROSTER.build(spec).map_err(|e| BrainError::Agent(e.to_string()))?),
        };
        Ok(Thinker {
            strategy,
            table_mib,
            spare,
            worker: None,
            alive: Arc::new(AtomicUsize::new(0)),
            next_id: 0,
            outstanding: None,
        })
    }

    fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Sets the default player's table size: the worker resizes its table
    /// now (waiting a few seconds at most, as for a new game), and workers
    /// started later use it.
    pub(crate) fn set_table_mib(&mut self, mib: usize) {
        if mib == self.table_mib {
            return;
        }
        self.table_mib = mib;
        if self.strategy != Strategy::Auto {
            return;
        }
        let id = self.take_id();
        if self.worker.as_ref().is_some_and(|w| w.jobs.send(Task::Resize(id, mib)).is_ok()) {
            self.outstanding = Some(id);
            if let Waited::Gone = self.wait_for(id, Instant::now() + SETUP_WAIT) {
                self.retire();
            }
        }
    }

    /// A new game starts: the worker clears its tables and histories, or is
    /// started (its table allocated) if there is none; waits (a few seconds
    /// at most) until it is ready, so that the first move has its whole
    /// time.
    pub(crate) fn new_game(&mut self) {
        if self.outstanding.is_some() && self.strategy != Strategy::Auto {
            // An agent's late search cannot be stopped: start afresh.
            self.retire();
        }
        let id = self.take_id();
        let sent = match &self.worker {
            Some(w) => w.jobs.send(Task::NewGame(id)).is_ok(),
            None => false,
        };
        if !sent {
            self.retire();
            match self.spawn(id) {
                Ok(w) => self.worker = Some(w),
                Err(_) => return,
            }
        }
        self.outstanding = Some(id);
        if let Waited::Gone = self.wait_for(id, Instant::now() + SETUP_WAIT) {
            self.retire();
        }
    }

    /// Drops the worker: its thread ends once its current task is done.
    fn retire(&mut self) {
        self.worker = None;
        self.outstanding = None;
    }

    /// Starts a worker thread, which answers `ready` once its engine is
    /// built.
    fn spawn(&mut self, ready: u64) -> Result<Worker, ThinkError> {
        if self.alive.load(Ordering::SeqCst) >= MAX_WORKERS {
            return Err(ThinkError::TooManyWorkers);
        }
        let (jobs, job_rx) = mpsc::channel::<Task>();
        let (answer_tx, answers) = mpsc::channel::<Answer>();
        let strategy = self.strategy.clone();
        let table_mib = self.table_mib;
        let spare = self.spare.take();
        let alive = Alive::new(&self.alive);
        thread::Builder::new()
            .name("pbrain-search".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let _alive = alive;
                let mut engine = match (strategy, spare) {
                    (_, Some(agent)) => Ok(Engine::Agent(agent)),
                    (Strategy::Auto, None) => Engine::auto(table_mib),
                    (Strategy::Spec(spec), None) => ROSTER.build(&spec).map(Engine::Agent).map_err(ThinkError::from),
                };
                if answer_tx.send(Answer { id: ready, result: None }).is_err() {
                    return;
                }
                for task in job_rx {
                    let answer = match (task, &mut engine) {
                        (Task::NewGame(id), engine) => {
                            if let Ok(e) = engine {
                                e.new_game();
                            }
                            Answer { id, result: None }
                        }
                        (Task::Resize(id, mib), engine) => {
                            if let Ok(Engine::Auto(search)) = engine {
                                // A size the system refuses keeps the old table.
                                let _ = search.set_table_mib(mib);
                            }
                            Answer { id, result: None }
                        }
                        (Task::Think(job), Ok(e)) => Answer { id: job.id, result: Some(e.think(&job)) },
                        (Task::Think(job), Err(e)) => Answer { id: job.id, result: Some(Err(e.clone())) },
                    };
                    if answer_tx.send(answer).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| ThinkError::Thread(Arc::new(e)))?;
        Ok(Worker { jobs, answers })
    }

    /// Waits until `until` for the answer to task `id` (earlier answers are
    /// dropped).
    fn wait_for(&mut self, id: u64, until: Instant) -> Waited {
        let Some(w) = &self.worker else { return Waited::Gone };
        loop {
            match w.answers.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(a) => {
                    if self.outstanding == Some(a.id) {
                        self.outstanding = None;
                    }
                    if a.id == id {
                        return Waited::Got(a.result);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Waited::Late,
                Err(RecvTimeoutError::Disconnected) => {
                    self.retire();
                    return Waited::Gone;
                }
            }
        }
    }

    /// The move for `state` (the game is not over), answered by
    /// `started + budget.deadline`. When the worker is late, gone or in
    /// error, the [`quick_move`] is played and the note says why; `None`
    /// only if the game is over.
    pub(crate) fn think(&mut self, state: &Gobang, budget: Budget, seed: u64, started: Instant) -> Option<Found> {
        let fallback = |why: String| quick_move(state).map(|mv| Found { mv, note: format!("{why}: fallback move") });
        let deadline = started + budget.deadline;
        let mut moves = Vec::new();
        if state.generate(&mut moves) == Status::Ongoing && moves.len() == 1 {
            // The opening move (the centre): nothing to think about.
            return Some(Found { mv: moves[0], note: "the only candidate move".into() });
        }
        if let Some(previous) = self.outstanding {
            // The default player's late search was told to stop, and a new
            // game's clearing or the worker's start is due soon: wait for
            // them until this move's deadline. An agent's search cannot be
            // stopped: a worker still busy with one is retired.
            let stoppable = self.strategy == Strategy::Auto;
            match self.wait_for(previous, if stoppable { deadline } else { Instant::now() }) {
                Waited::Got(_) | Waited::Gone => {}
                Waited::Late if stoppable => return fallback("the previous search is still stopping".into()),
                Waited::Late => self.retire(),
            }
        }
        if self.worker.is_none() {
            let ready = self.take_id();
            match self.spawn(ready) {
                Ok(w) => {
                    self.worker = Some(w);
                    self.outstanding = Some(ready);
                }
                Err(e) => return fallback(e.to_string()),
            }
        }
        let id = self.take_id();
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job { id, state: *state, seed, budget, started, stop: stop.clone() };
        let sent = self.worker.as_ref().is_some_and(|w| w.jobs.send(Task::Think(job)).is_ok());
        if !sent {
            self.retire();
            return fallback("the search thread stopped".into());
        }
        self.outstanding = Some(id);
        match self.wait_for(id, deadline) {
            Waited::Got(Some(Ok(found))) => Some(found),
            Waited::Got(Some(Err(e))) => fallback(e.to_string()),
            Waited::Got(None) => fallback("no answer".into()),
            Waited::Late => {
                stop.store(true, Ordering::SeqCst);
                fallback("out of time".into())
            }
            Waited::Gone => fallback("the search thread stopped".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_dial_loads() {
        let dial = gobang_dial().expect("the compiled-in gobang calibration is valid");
        let (lo, hi) = dial.range();
        assert!(lo < hi);
        assert!(roster().kinds().iter().any(|k| k.0 == "elo:X"));
    }

    #[test]
    fn the_fallback_blocks_a_five() {
        // O (second) to move; X threatens five on the row.
        let g: Gobang = "h8 a1 i8 a2 j8 a15 k8".parse().unwrap();
        let p = quick_move(&g).unwrap();
        assert!(["g8", "l8"].contains(&g.move_string(p).as_str()));
    }
}
