//! The engine's state and main loop: the current position, the settings,
//! the search (owned by a search thread while one runs), and the dispatch
//! of each command.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use search_core::{GameError, ParamError};
use shakmaty::Position;

use super::brain::Brain;
use super::command::{Command, GoParams, parse_command};
use super::error::UciError;
use super::options::{OptionChange, declarations, parse_option};
use super::output::{bestmove_line, say};
use super::plan::plan_go;
use super::position::build_position;
use super::settings::Settings;
use super::time::Budget;
use crate::ChessGame;
use crate::polyglot::Book;
use crate::tablebase::Tablebases;

/// The engine's name, as `id name` reports it.
pub const ENGINE_NAME: &str = "kibitz";

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
/// documentation](super).
#[derive(Debug)]
pub struct Engine<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    position: ChessGame,
    settings: Settings,
    /// `None` only while a search thread owns it.
    brain: Option<Brain>,
    job: Option<Job>,
    debug: bool,
    /// Notes of `setoption` (a clamped rating) for the next search's
    /// output: a GUI reads `info` lines while it searches, and may take a
    /// line at another time for a reply to something else.
    pending: Vec<String>,
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
            pending: Vec::new(),
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
        for line in declarations() {
            self.say(&line);
        }
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

    /// Applies a `setoption`. Each option touches only what it names (see
    /// [`Brain`]): only `Hash` reallocates the table, and a table that
    /// cannot be allocated keeps the old one, with an `info string`.
    ///
    /// A `UCI_Elo` or `HumanElo` outside the values the engine plays is
    /// clamped into them, with an `info string` saying so at the start of
    /// the next search.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), UciError> {
        let (change, note) = parse_option(&self.settings, name, value)?;
        if change != OptionChange::Nothing {
            self.idle(if change == OptionChange::ClearHash { "clear the hash" } else { "change options" })?;
        }
        if let Some(note) = note {
            self.pending.push(note);
        }
        if change == OptionChange::Nothing {
            return Ok(());
        }
        let brain = self.brain_mut()?;
        let mut notes = Vec::new();
        let outcome: Result<(), ParamError> = match change.clone() {
            OptionChange::Nothing => Ok(()),
            OptionChange::ClearHash => {
                brain.clear_hash();
                Ok(())
            }
            // Only the table changes: the search (its move history) and the
            // sampling generator are kept.
            OptionChange::Hash(mib) => brain.set_hash_mib(mib),
            OptionChange::Backup(backup) => brain.set_backup(backup),
            OptionChange::Threads(threads) => brain.set_threads(threads),
            OptionChange::Theta(theta) => brain.set_theta(theta),
            OptionChange::Seed(seed) => {
                brain.set_seed(seed);
                Ok(())
            }
            OptionChange::LimitStrength(on) => {
                brain.set_limit_strength(on);
                Ok(())
            }
            OptionChange::Elo(elo) => {
                brain.set_elo(elo);
                Ok(())
            }
            OptionChange::HumanElo(elo) => {
                brain.set_human(elo, brain.settings().human_pick);
                Ok(())
            }
            OptionChange::HumanPick(pick) => {
                brain.set_human(brain.settings().human_elo, pick);
                Ok(())
            }
            OptionChange::TablebasePath(dir) if dir.is_empty() => {
                brain.set_tablebases(None);
                notes.push("tablebases off".to_string());
                Ok(())
            }
            OptionChange::TablebasePath(dir) => match Tablebases::open(std::path::Path::new(&dir)) {
                Ok(tables) if tables.is_empty() => {
                    Err(ParamError::new("TablebasePath", format!("no .brtb table in {dir}")))
                }
                Ok(tables) => {
                    let names = tables.materials().join(" ");
                    let rules = brain.set_tablebases(Some(Arc::new(tables)));
                    let rules: Vec<&str> = rules.iter().map(|k| k.name()).collect();
                    notes.push(format!("tablebases {names} from {dir} (probed by {})", rules.join(", ")));
                    Ok(())
                }
                Err(e) => Err(ParamError::new("TablebasePath", e.to_string())),
            },
            OptionChange::BookFile(file) if file.is_empty() => {
                brain.set_book(None);
                Ok(())
            }
            OptionChange::BookFile(file) => match Book::open(std::path::Path::new(&file)) {
                Ok(book) => {
                    notes.push(format!("book {file}: {} entries", book.len()));
                    brain.set_book(Some(Arc::new(book)));
                    Ok(())
                }
                Err(e) => Err(ParamError::new("BookFile", e.to_string())),
            },
            OptionChange::OwnBook(on) => {
                brain.set_own_book(on);
                Ok(())
            }
        };
        // The brain keeps what it applied (and only that).
        self.settings = *brain.settings();
        for note in notes {
            self.say(&format!("info string {note}"));
        }
        match (change, outcome) {
            (_, Ok(())) => Ok(()),
            (OptionChange::Hash(mib), Err(e)) => {
                self.say(&format!(
                    "info string Hash {mib} MiB not applied ({e}); keeping the table of {} MiB",
                    self.settings.hash_mib
                ));
                Ok(())
            }
            (_, Err(e)) => Err(UciError::Option { name: GameError::shorten(name), reason: e.to_string() }),
        }
    }

    fn go(&mut self, go: &GoParams) -> Result<(), UciError> {
        self.idle("start another search")?;
        let side = self.position.position().turn();
        let go = plan_go(go, side, self.settings.backup, self.settings.limit_strength, self.debug);
        for note in self.pending.drain(..).chain(go.notes.iter().cloned()).collect::<Vec<_>>() {
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
        let (plan, waits) = (go.plan, go.waits);
        let spawned = std::thread::Builder::new().name("kibitz-search".into()).spawn(move || {
            let decision = brain.think(&position, &plan, &flag, waits, |it| {
                for line in it.lines() {
                    say(&out, &line);
                }
            });
            for note in &decision.notes {
                say(&out, &format!("info string {note}"));
            }
            for line in decision.last.lines() {
                say(&out, &line);
            }
            let line = bestmove_line(&decision);
            answered_flag.store(true, Ordering::Release);
            say(&out, &line);
            brain
        });
        match spawned {
            Ok(handle) => {
                self.job = Some(Job { handle, stop, answered, ponder: go.ponder });
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

/// Reads commands from `input` until `quit` or the end of the input, and
/// handles them with `engine`. Invalid UTF-8 is replaced, not fatal. At the
/// end, a running search is stopped.
///
/// # Errors
///
/// Reading `input` failed.
pub fn run<R: BufRead, W: Write + Send + 'static>(mut input: R, engine: &mut Engine<W>) -> std::io::Result<()> {
    let mut buf = Vec::new();
    while let Some(fits) = read_line(&mut input, &mut buf)? {
        if !fits {
            engine.error(&UciError::LineTooLong { limit: MAX_LINE_BYTES });
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        if engine.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    engine.stop();
    Ok(())
}

/// The longest input line [`run`] handles, in bytes: far more than any GUI
/// sends (the longest possible game in a `position … moves` list is under
/// 100 KB). Longer lines are skipped whole, with an error line, instead of
/// growing the engine's memory without bound.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Reads one line into `buf` (newline included): `None` at the end of the
/// input, `Some(false)` for a line longer than [`MAX_LINE_BYTES`] (read to
/// its end and dropped; `buf` is then empty).
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let (mut any, mut fits) = (false, true);
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.map_or(available.len(), |i| i + 1)];
        if fits && buf.len() + chunk.len() > MAX_LINE_BYTES {
            fits = false;
            *buf = Vec::new();
        }
        if fits {
            buf.extend_from_slice(chunk);
        }
        let used = chunk.len();
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(fits));
        }
    }
}
