//! A UCI (Universal Chess Interface) engine on the library's search.
//!
//! [`Engine`] turns the lines a chess GUI sends into replies, written to any
//! [`Write`] sink: `kibitz` (the binary) connects it to standard input and
//! output with [`run`]; tests connect it to a buffer. Searches run on their
//! own thread, so `isready`, `stop` and the other commands are answered while
//! the engine thinks.
//!
//! Supported commands: `uci`, `debug on|off`, `isready`, `setoption`,
//! `register` (ignored), `ucinewgame`, `position startpos|fen … [moves …]`,
//! `go` (`depth`, `nodes`, `movetime`, `wtime`/`btime`/`winc`/`binc`/
//! `movestogo`, `mate`, `infinite`, `ponder`; `searchmoves` is accepted but
//! every move is searched), `stop`, `ponderhit` and `quit`.
//!
//! The engine never panics on input: a line it cannot use gets an
//! `info string error: …` reply and changes nothing (a bad `position` keeps
//! the previous position).
//!
//! ```
//! use games_chess::uci::Engine;
//! use std::sync::{Arc, Mutex};
//!
//! # #[derive(Clone, Default)] struct Buf(Arc<Mutex<Vec<u8>>>);
//! # impl std::io::Write for Buf {
//! #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//! #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! # }
//! let out = Buf::default();
//! let mut engine = Engine::new(out.clone());
//! engine.handle_line("position startpos moves e2e4");
//! engine.handle_line("go depth 3");
//! engine.wait();
//! let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
//! assert!(text.lines().last().unwrap().starts_with("bestmove "));
//! ```

mod brain;
mod command;
mod time;

use std::fmt;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub use brain::{
    BackupKind, Brain, CP_RANGE, Decision, FULL_WIDTH_DEPTH_CAP, IOM_DEPTH_CAP, Iteration, MAX_DEPTH, MN_PARAMS,
    PREDICTIVE_PS, PROBABILITY_TEMPERATURE, Plan, Score, Settings, mate_or_cp, uci_move,
};
pub use command::{Command, GoParams, ParseError, PositionBase, parse_command};
pub use time::{Budget, DEFAULT_MOVES_TO_GO, MOVE_OVERHEAD_MS, time_budget};

use search_core::{Game, GameError, ParamError};
use shakmaty::Position;

use crate::ChessGame;

/// The engine's name, as `id name` reports it.
pub const ENGINE_NAME: &str = "kibitz";

/// Largest `Hash` value, in MiB.
pub const MAX_HASH_MIB: usize = 1024;

/// Largest `Seed` value (GUIs store spin values as 32-bit integers).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// Why a command was refused. The engine replies
/// `info string error: <this error>` and carries on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// The line is not a well-formed command.
    Parse(ParseError),
    /// The FEN of a `position` command is invalid.
    Fen(GameError),
    /// A move of a `position` command is malformed or illegal.
    Move {
        /// Its index in the move list (0 first).
        index: usize,
        /// The move as sent.
        mv: String,
        /// Why it was refused.
        error: GameError,
    },
    /// A `setoption` names an unknown option or gives an invalid value.
    Option {
        /// The option's name as sent.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The command cannot run while a search is going on.
    Busy(&'static str),
    /// Something went wrong inside the engine (a search thread could not
    /// start or died); the engine rebuilt its state.
    Internal(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Parse(e) => write!(f, "{e}"),
            UciError::Fen(e) => write!(f, "bad FEN, position unchanged: {e}"),
            UciError::Move { index, mv, error } => {
                write!(f, "move {} ({mv:?}) refused, position unchanged: {error}", index + 1)
            }
            UciError::Option { name, reason } => write!(f, "option {name:?}: {reason}"),
            UciError::Busy(what) => write!(f, "cannot {what} while searching (send stop first)"),
            UciError::Internal(what) => write!(f, "internal: {what}"),
        }
    }
}

impl std::error::Error for UciError {}

impl From<ParseError> for UciError {
    fn from(e: ParseError) -> Self {
        UciError::Parse(e)
    }
}

/// Whether the engine goes on reading after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received: stop.
    Quit,
}

/// A search running on its own thread.
#[derive(Debug)]
struct Job {
    handle: JoinHandle<Brain>,
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`: a command
    /// the GUI sends after seeing `bestmove` then waits for the thread (a
    /// moment) instead of finding the engine busy.
    answered: Arc<AtomicBool>,
    /// In pondering mode, the budget to apply once `ponderhit` arrives.
    ponder: Option<Option<Budget>>,
}

/// The UCI engine: the current position, the options, and the search
/// (owned by a search thread while one runs). See the [module
/// documentation](self).
#[derive(Debug)]
pub struct Engine<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    position: ChessGame,
    settings: Settings,
    /// `None` only while a search thread owns it.
    brain: Option<Brain>,
    job: Option<Job>,
    debug: bool,
}

/// Writes one line and flushes. A closed output is ignored: the engine has
/// nobody left to tell.
fn say<W: Write>(out: &Mutex<W>, line: &str) {
    let mut w = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

impl<W: Write + Send + 'static> Engine<W> {
    /// An engine writing its replies to `out`, at the initial position with
    /// the default options.
    pub fn new(out: W) -> Self {
        let settings = Settings::default();
        let brain = Brain::new(settings).ok();
        Engine {
            out: Arc::new(Mutex::new(out)),
            position: ChessGame::startpos(),
            settings,
            brain,
            job: None,
            debug: false,
        }
    }

    /// The current position (after the last valid `position` command).
    pub fn position(&self) -> &ChessGame {
        &self.position
    }

    /// The current options.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether a search is running.
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.job.is_some()
    }

    /// Waits for the running search, if any, to finish on its own (it has
    /// printed `bestmove` when this returns). Never returns during a
    /// `go infinite` search that nobody stops.
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            self.join(job);
        }
    }

    /// Handles one input line: replies (if any) go to the output.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap();
        match parse_command(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => match self.execute(command) {
                Ok(flow) => flow,
                Err(e) => {
                    self.error(&e);
                    Flow::Continue
                }
            },
            Err(e) => {
                self.error(&e.into());
                Flow::Continue
            }
        }
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, e: &UciError) {
        self.say(&format!("info string error: {e}"));
    }

    fn execute(&mut self, command: Command) -> Result<Flow, UciError> {
        match command {
            Command::Uci => self.identify(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say("readyok"),
            Command::Register => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::UciNewGame => {
                self.idle("start a new game")?;
                self.brain_mut()?.new_game();
                self.position = ChessGame::startpos();
            }
            Command::Position { base, moves } => self.position = build_position(&base, &moves)?,
            Command::Go(params) => self.go(&params)?,
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponder_hit(),
            Command::Quit => {
                self.stop();
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Continue)
    }

    fn identify(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {}", env!("CARGO_PKG_AUTHORS").replace(':', ", ")));
        let d = Settings::default();
        self.say(&format!("option name Hash type spin default {} min 1 max {MAX_HASH_MIB}", d.hash_mib));
        self.say("option name Clear Hash type button");
        self.say("option name Threads type spin default 1 min 1 max 1");
        self.say("option name Ponder type check default false");
        let vars: String = BackupKind::ALL.iter().map(|k| format!(" var {}", k.name())).collect();
        self.say(&format!("option name Backup type combo default {}{vars}", d.backup));
        self.say(&format!("option name Theta type string default {}", d.theta));
        self.say(&format!("option name Seed type spin default {} min 0 max {MAX_SEED}", d.seed));
        self.say("uciok");
    }

    /// Errs with [`UciError::Busy`] if a search is running.
    fn idle(&mut self, what: &'static str) -> Result<(), UciError> {
        self.reap();
        if self.job.is_some() { Err(UciError::Busy(what)) } else { Ok(()) }
    }

    /// The brain, rebuilt from the settings if a search thread lost it.
    fn brain_mut(&mut self) -> Result<&mut Brain, UciError> {
        if self.brain.is_none() {
            let brain = Brain::new(self.settings).map_err(|e| UciError::Internal(e.to_string()))?;
            self.brain = Some(brain);
        }
        self.brain.as_mut().ok_or_else(|| UciError::Internal("no search available".to_string()))
    }

    fn set_option<'a>(&mut self, name: &str, value: Option<&'a str>) -> Result<(), UciError> {
        let bad = |reason: String| UciError::Option { name: name.to_string(), reason };
        let key = name.trim().to_ascii_lowercase();
        let value = value.map(str::trim).filter(|s| !s.is_empty());
        let need = |v: Option<&'a str>| v.ok_or_else(|| bad("needs `value …`".to_string()));
        let mut next = self.settings;
        match key.as_str() {
            "hash" => next.hash_mib = parse_spin(need(value)?, 1, MAX_HASH_MIB as u64).map_err(bad)? as usize,
            "seed" => next.seed = parse_spin(need(value)?, 0, MAX_SEED).map_err(bad)?,
            "threads" => {
                parse_spin(need(value)?, 1, 1).map_err(|e| bad(format!("{e} (only one thread is supported)")))?;
                return Ok(());
            }
            "ponder" => {
                match need(value)?.to_ascii_lowercase().as_str() {
                    "true" | "false" => {}
                    other => return Err(bad(format!("expected true or false, got {other:?}"))),
                }
                return Ok(());
            }
            "backup" => next.backup = need(value)?.parse().map_err(|e: ParamError| bad(e.reason))?,
            "theta" => {
                let v = need(value)?;
                let theta: f64 = v.parse().map_err(|_| bad(format!("expected a number, got {v:?}")))?;
                next.theta = search_core::backup::rminimax::check_theta(theta).map_err(|e| bad(e.reason))?;
            }
            "clear hash" => {
                self.idle("clear the hash")?;
                self.brain_mut()?.clear_hash();
                return Ok(());
            }
            _ => return Err(bad("unknown option".to_string())),
        }
        if next == self.settings {
            return Ok(());
        }
        self.idle("change options")?;
        let brain = Brain::new(next).map_err(|e| bad(e.to_string()))?;
        self.settings = next;
        self.brain = Some(brain);
        Ok(())
    }

    fn go(&mut self, go: &GoParams) -> Result<(), UciError> {
        self.idle("start another search")?;
        let side = self.position.position().turn();
        let waits = go.infinite || go.ponder;
        let budget = if waits { None } else { time_budget(go, side) };
        let mut plan = Plan { depth: go.depth, nodes: go.nodes, budget, mate: go.mate };
        if let (None, Some(m)) = (plan.depth, go.mate) {
            plan.depth = Some(m.saturating_mul(2).saturating_sub(1).max(1));
        }
        let mut notes = Vec::new();
        if !go.searchmoves.is_empty() {
            notes.push("searchmoves is not supported: every move is searched".to_string());
        }
        if plan.depth.is_none()
            && !waits
            && let Some(cap) = self.settings.backup.default_depth_cap()
        {
            plan.depth = Some(cap);
            notes.push(format!(
                "backup {} is slow (no alpha-beta engine): depth capped at {cap} (go depth N searches deeper)",
                self.settings.backup
            ));
        }
        if self.debug
            && let Some(b) = budget
        {
            notes.push(format!("time budget: soft {} ms, hard {} ms", b.soft.as_millis(), b.hard.as_millis()));
        }
        for note in notes {
            self.say(&format!("info string {note}"));
        }
        self.brain_mut()?;
        let Some(mut brain) = self.brain.take() else {
            return Err(UciError::Internal("no search available".to_string()));
        };
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let position = self.position.clone();
        let flag = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let answered_flag = Arc::clone(&answered);
        let spawned = std::thread::Builder::new().name("kibitz-search".into()).spawn(move || {
            let decision = brain.think(&position, &plan, &flag, waits, |it| say(&out, &it.info_line()));
            for note in &decision.notes {
                say(&out, &format!("info string {note}"));
            }
            say(&out, &decision.last.info_line());
            let mut line = format!("bestmove {}", decision.best.map_or_else(|| "0000".to_string(), uci_move));
            if let Some(p) = decision.ponder {
                line.push_str(" ponder ");
                line.push_str(&uci_move(p));
            }
            answered_flag.store(true, Ordering::Release);
            say(&out, &line);
            brain
        });
        match spawned {
            Ok(handle) => {
                let ponder = go.ponder.then(|| time_budget(go, side));
                self.job = Some(Job { handle, stop, answered, ponder });
                Ok(())
            }
            Err(e) => Err(UciError::Internal(format!("cannot start the search thread: {e}"))),
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
            self.join(job);
        }
    }

    /// `ponderhit`: the move the engine pondered on was played; think for
    /// the budget the `go ponder` command gave, then answer.
    fn ponder_hit(&mut self) {
        let Some(job) = &mut self.job else { return };
        let Some(budget) = job.ponder.take() else { return };
        match budget {
            // No clock: the search goes on until `stop`, as if infinite.
            None => {}
            Some(b) => {
                let stop = Arc::clone(&job.stop);
                let timer = std::thread::Builder::new().name("kibitz-timer".into()).spawn(move || {
                    std::thread::sleep(b.hard);
                    stop.store(true, Ordering::Relaxed);
                });
                if timer.is_err() {
                    job.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Collects a search thread that has finished (or is about to: it has
    /// given its answer).
    fn reap(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.answered.load(Ordering::Acquire) || j.handle.is_finished())
            && let Some(job) = self.job.take()
        {
            self.join(job);
        }
    }

    fn join(&mut self, job: Job) {
        match job.handle.join() {
            Ok(brain) => self.brain = Some(brain),
            Err(_) => {
                self.brain = None;
                self.error(&UciError::Internal("the search thread failed; search state reset".to_string()));
                // It may have died before answering: the GUI needs a move.
                self.say("bestmove 0000");
            }
        }
    }
}

impl<W: Write + Send + 'static> Drop for Engine<W> {
    /// Stops a running search so that its thread does not outlive the
    /// engine.
    fn drop(&mut self) {
        self.stop();
    }
}

/// Parses a `spin` value within `min..=max`.
fn parse_spin(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("expected an integer from {min} to {max}, got {text:?}")),
    }
}

/// The position of a `position` command, or the first error: a bad FEN, or
/// a move that is malformed or illegal where it is played.
///
/// Moves are checked on the board only: a GUI may play on after a draw by
/// repetition or the fifty-move rule that nobody claimed.
pub fn build_position(base: &PositionBase, moves: &[String]) -> Result<ChessGame, UciError> {
    let mut g = match base {
        PositionBase::Startpos => ChessGame::startpos(),
        PositionBase::Fen(fen) => ChessGame::from_fen(fen).map_err(UciError::Fen)?,
    };
    for (index, text) in moves.iter().enumerate() {
        let refuse = |error| UciError::Move { index, mv: text.clone(), error };
        let mv = g.parse_move(text).map_err(refuse)?;
        if !g.position().is_legal(mv) {
            return Err(refuse(GameError::illegal(text.clone(), "not a legal move in this position")));
        }
        g.play(mv);
    }
    Ok(g)
}

/// Reads commands from `input` until `quit` or the end of the input, and
/// handles them with `engine`. Invalid UTF-8 is replaced, not fatal. At the
/// end, a running search is stopped.
///
/// # Errors
///
/// Reading `input` failed.
pub fn run<R: BufRead, W: Write + Send + 'static>(mut input: R, engine: &mut Engine<W>) -> std::io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        if engine.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    engine.stop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use std::time::{Duration, Instant};

    /// An output buffer shared with the engine.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buf {
        /// Everything written since the last call, as lines.
        fn take(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock().unwrap());
            String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
        }
    }

    fn engine() -> (Engine<Buf>, Buf) {
        let out = Buf::default();
        (Engine::new(out.clone()), out)
    }

    /// Sends `lines`, waits for any search, and returns the replies.
    fn send(e: &mut Engine<Buf>, out: &Buf, lines: &[&str]) -> Vec<String> {
        for l in lines {
            e.handle_line(l);
        }
        e.wait();
        out.take()
    }

    fn bestmove(replies: &[String]) -> &str {
        let last = replies.last().expect("a reply");
        last.strip_prefix("bestmove ")
            .unwrap_or_else(|| panic!("no bestmove in {replies:?}"))
            .split(' ')
            .next()
            .unwrap()
    }

    fn legal_uci(g: &ChessGame, mv: &str) -> bool {
        let mut moves = Vec::new();
        g.generate(&mut moves);
        moves.iter().any(|&m| uci_move(m) == mv)
    }

    #[test]
    fn uci_handshake_lists_every_option() {
        let (mut e, out) = engine();
        let r = send(&mut e, &out, &["uci", "isready"]);
        assert_eq!(r[0], "id name kibitz");
        assert!(r[1].starts_with("id author "));
        for name in ["Hash", "Threads", "Backup", "Theta", "Seed", "Clear Hash", "Ponder"] {
            assert!(r.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name}");
        }
        assert_eq!(r[r.len() - 2], "uciok");
        assert_eq!(r[r.len() - 1], "readyok");
    }

    #[test]
    fn bad_positions_keep_the_previous_one() {
        let (mut e, out) = engine();
        send(&mut e, &out, &["position startpos moves e2e4"]);
        let before = e.position().fen();
        let r = send(
            &mut e,
            &out,
            &[
                "position startpos moves e2e4 e7e5 e1e3",
                "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "position startpos moves zz99",
                "position fen",
            ],
        );
        assert_eq!(r.len(), 5, "{r:?}");
        assert!(r.iter().all(|l| l.starts_with("info string error: ")), "{r:?}");
        assert!(r[0].contains("move 3"), "{}", r[0]);
        assert_eq!(e.position().fen(), before);
        // A checkmated position accepts no move.
        let r = send(&mut e, &out, &["position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3"]);
        assert!(r[0].starts_with("info string error: "));
        assert_eq!(e.position().fen(), before);
    }

    #[test]
    fn options_are_checked() {
        let (mut e, out) = engine();
        for bad in [
            "setoption name Hash value 0",
            "setoption name Hash value lots",
            "setoption name Hash",
            "setoption name Threads value 2",
            "setoption name Backup value negamax",
            "setoption name Theta value -1",
            "setoption name Theta value nan",
            "setoption name Seed value -3",
            "setoption name Frobnicate value 1",
        ] {
            let r = send(&mut e, &out, &[bad]);
            assert!(r.len() == 1 && r[0].starts_with("info string error: option"), "{bad}: {r:?}");
        }
        assert_eq!(*e.settings(), Settings::default());
        let r = send(
            &mut e,
            &out,
            &[
                "setoption name hash value 4",
                "setoption name Backup value RMINIMAX",
                "setoption name Theta value inf",
                "setoption name Threads value 1",
                "setoption name Clear Hash",
                "setoption name Seed value 9",
            ],
        );
        assert!(r.is_empty(), "{r:?}");
        assert_eq!(e.settings().hash_mib, 4);
        assert_eq!(e.settings().backup, BackupKind::Rminimax);
        assert_eq!(e.settings().theta, f64::INFINITY);
        assert_eq!(e.settings().seed, 9);
    }

    #[test]
    fn every_backup_rule_plays_a_legal_move() {
        let (mut e, out) = engine();
        let moves = "position startpos moves e2e4 e7e5 g1f3";
        send(&mut e, &out, &[moves]);
        for kind in BackupKind::ALL {
            let r = send(&mut e, &out, &[&format!("setoption name Backup value {kind}"), "go depth 2"]);
            let mv = bestmove(&r);
            assert!(legal_uci(e.position(), mv), "{kind}: {mv} in {r:?}");
            let infos: Vec<&String> = r.iter().filter(|l| l.starts_with("info depth")).collect();
            assert!(infos.len() >= 3, "{kind}: two iterations and a final line: {r:?}");
            assert!(infos.iter().all(|l| l.contains(" score ") && l.contains(" nps ") && l.contains(" pv ")));
        }
    }

    #[test]
    fn time_only_searches_of_slow_rules_are_capped() {
        let (mut e, out) = engine();
        let r = send(&mut e, &out, &["setoption name Backup value minimax", "go wtime 100000 btime 100000"]);
        assert!(r[0].starts_with("info string backup minimax is slow"), "{r:?}");
        let final_info = &r[r.len() - 2];
        assert!(final_info.starts_with(&format!("info depth {FULL_WIDTH_DEPTH_CAP} ")), "{r:?}");
    }

    #[test]
    fn rminimax_sampling_is_reproducible_from_the_seed() {
        let play = |seed: u64| {
            let (mut e, out) = engine();
            send(&mut e, &out, &["setoption name Backup value rminimax", "setoption name Theta value 5"]);
            send(&mut e, &out, &[&format!("setoption name Seed value {seed}")]);
            (0..6)
                .map(|_| {
                    let r = send(&mut e, &out, &["go depth 1"]);
                    bestmove(&r).to_string()
                })
                .collect::<Vec<_>>()
        };
        let a = play(1);
        assert_eq!(a, play(1));
        // θ = 5 on a cost scale where 100 cp is 0.1: a nearly uniform policy,
        // so some other seed must sample differently.
        assert!((2..20).any(|s| play(s) != a));
    }

    #[test]
    fn mates_are_reported_in_moves() {
        let (mut e, out) = engine();
        // White mates in one (Rd8#); Black to move is mated at once.
        let r = send(&mut e, &out, &["position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 3"]);
        assert!(r.iter().any(|l| l.contains("score mate 1 ")), "{r:?}");
        assert_eq!(bestmove(&r), "d1d8");
        let r = send(&mut e, &out, &["position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "go depth 3"]);
        assert!(r.iter().any(|l| l.contains("score mate 0")), "{r:?}");
        assert_eq!(r.last().unwrap(), "bestmove 0000");
        // Black's only move is Kb8, then Rh8 mates: mated in one, negative.
        let r = send(&mut e, &out, &["position fen k7/8/1K6/8/8/8/8/7R b - - 0 1", "go depth 4"]);
        assert!(r[r.len() - 2].contains("score mate -1 "), "{r:?}");
        assert_eq!(r.last().unwrap(), "bestmove a8b8 ponder h1h8");
    }

    #[test]
    fn a_draw_by_repetition_is_still_played_on() {
        let (mut e, out) = engine();
        // The initial position for the third time: a draw nobody claimed.
        let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
        let r = send(&mut e, &out, &[&format!("position startpos moves {shuffle}"), "go depth 3"]);
        assert!(r.iter().any(|l| l.starts_with("info string the position is a draw by rule")), "{r:?}");
        assert!(legal_uci(&ChessGame::startpos(), bestmove(&r)));
        // Moves after it are accepted too.
        let r = send(&mut e, &out, &[&format!("position startpos moves {shuffle} e2e4"), "isready"]);
        assert_eq!(r, ["readyok"]);
    }

    #[test]
    fn stop_ends_an_infinite_search_promptly() {
        let (mut e, out) = engine();
        e.handle_line("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        // Still searching: isready is answered meanwhile, go is refused.
        e.handle_line("isready");
        e.handle_line("go depth 1");
        assert!(e.is_searching());
        let t = Instant::now();
        e.handle_line("stop");
        assert!(t.elapsed() < Duration::from_millis(500), "{:?}", t.elapsed());
        let r = out.take();
        assert!(r.contains(&"readyok".to_string()));
        assert!(r.iter().any(|l| l.starts_with("info string error: cannot start another search")));
        assert!(legal_uci(e.position(), bestmove(&r)));
        assert!(!e.is_searching());
    }

    #[test]
    fn ponderhit_applies_the_clock() {
        let (mut e, out) = engine();
        e.handle_line("go ponder wtime 2000 btime 2000");
        std::thread::sleep(Duration::from_millis(50));
        e.handle_line("ponderhit");
        let t = Instant::now();
        e.wait();
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        assert!(legal_uci(e.position(), bestmove(&out.take())));
    }

    #[test]
    fn movetime_and_nodes_limits_hold() {
        let (mut e, out) = engine();
        let t = Instant::now();
        let r = send(&mut e, &out, &["go movetime 150"]);
        assert!(t.elapsed() < Duration::from_millis(400), "{:?}", t.elapsed());
        assert!(legal_uci(e.position(), bestmove(&r)));
        let r = send(&mut e, &out, &["ucinewgame", "go nodes 5000"]);
        let final_info = &r[r.len() - 2];
        let nodes: u64 = final_info.split(" nodes ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(nodes <= 5000 + 2048, "{final_info}");
    }

    /// Random garbage and fragments of valid commands: no panic, every reply
    /// is a well-formed UCI line, and the engine still answers afterwards.
    #[test]
    fn garbage_never_breaks_the_engine() {
        let fragments = [
            "uci",
            "isready",
            "ucinewgame",
            "position",
            "startpos",
            "fen",
            "moves",
            "e2e4",
            "e7e5",
            "e1g1",
            "a7a8q",
            "go",
            "depth",
            "2",
            "nodes",
            "0",
            "-1",
            "movetime",
            "10",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "infinite",
            "ponder",
            "mate",
            "searchmoves",
            "stop",
            "ponderhit",
            "setoption",
            "name",
            "value",
            "Hash",
            "Backup",
            "Theta",
            "Seed",
            "Threads",
            "Clear",
            "rminimax",
            "iom",
            "8/8/8/8/8/8/8/8",
            "w",
            "b",
            "KQkq",
            "-",
            "debug",
            "on",
            "register",
            "18446744073709551616",
            "1e9",
            "é",
            "\u{0}",
            "\t",
            "🙂",
            "rnbqkbnr/pppppppp",
            "4k3/8/8/8/8/8/4P3/4K3",
        ];
        let mut rng = search_core::rng::seeded(42);
        let (mut e, out) = engine();
        for _ in 0..1500 {
            let line = if rng.random_bool(0.3) {
                let n = rng.random_range(0..40);
                (0..n).map(|_| char::from_u32(rng.random_range(0..0x300)).unwrap_or('?')).collect::<String>()
            } else {
                let n = rng.random_range(0..9);
                (0..n).map(|_| fragments[rng.random_range(0..fragments.len())]).collect::<Vec<_>>().join(" ")
            };
            // A fragment may start a long search: stop it at once.
            if e.handle_line(&line) == Flow::Quit {
                e = Engine::new(out.clone());
            }
            e.handle_line("stop");
        }
        e.handle_line("position startpos");
        e.handle_line("isready");
        let r = out.take();
        assert_eq!(r.last().map(String::as_str), Some("readyok"));
        let prefixes = ["info ", "bestmove ", "readyok", "uciok", "id ", "option name "];
        for l in &r {
            assert!(prefixes.iter().any(|p| l.starts_with(p)), "bad reply line {l:?}");
        }
        // Still a working engine.
        let r = send(&mut e, &out, &["setoption name Backup value alphabeta", "go depth 3"]);
        assert!(legal_uci(e.position(), bestmove(&r)));
    }
}
