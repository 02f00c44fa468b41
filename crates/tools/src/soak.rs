//! `cargo xtask soak`: the `kibitz` engine driven as a chess GUI drives it,
//! for a long time, counting panics, hangs and illegal moves.
//!
//! Two phases, each against `kibitz` processes built in release:
//!
//! 1. **A scripted GUI session** of `--commands` random lines: well-formed
//!    UCI commands with small limits (positions of random legal games,
//!    `go` of every kind, option changes), the same lines mutated (a
//!    character or a word changed, dropped or doubled), random bytes, and,
//!    rarely, lines of a megabyte and more than the engine's 64 MiB limit, a
//!    `quit` and a closed input. Every `go` is followed by a few other
//!    commands (`isready`, `position`, garbage, options) and then resolved
//!    as a GUI would: a timed search must answer within its time (plus
//!    grace), `go infinite` and `go ponder` must not answer before `stop`
//!    (or `ponderhit`), any search must answer promptly after `stop`.
//! 2. **`--games` full games** between two `kibitz` processes, driven like
//!    a GUI (`ucinewgame`, `position startpos moves …`, `go movetime 20` or
//!    small clocks that the driver keeps, with a loss on time counted as a
//!    failure), each side with a backup rule drawn per game (mostly
//!    `alphabeta`).
//!
//! A watchdog bounds every wait: no `readyok` within 10 s, no `uciok`
//! within 5 s, no `bestmove` within 5 s of `stop` (or of the end of a timed
//! search's budget plus 3 s) is a **hang**; the process is killed and a new
//! one started. A process that exits unasked is a **crash**; `panicked` on
//! its standard error is a **panic**. Every `bestmove`, `ponder` move and
//! principal variation is checked with `shakmaty` in the position the `go`
//! searched; every reply line must be a UCI reply, and none longer than
//! 4 KB (an error message must not echo a long input). The summary lists the
//! counts; any failure makes the task exit non-zero.
//!
//! Not run in CI (minutes); `--quick` (500 commands, 2 games) takes well
//! under a minute.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use games_chess::ChessGame;
use games_chess::shakmaty::uci::UciMove;
use games_chess::shakmaty::{CastlingMode, Chess, Color, Move, Position};
use games_chess::uci::{Command as Uci, GoParams, build_position, parse_command, time_budget};
use search_core::{Game, Outcome, Player, RngExt, Status, rng};

use crate::TaskResult;

/// Commands of a full run.
pub const DEFAULT_COMMANDS: usize = 10_000;
/// Games of a full run.
pub const DEFAULT_GAMES: usize = 50;
/// Commands of a `--quick` run.
pub const QUICK_COMMANDS: usize = 500;
/// Games of a `--quick` run.
pub const QUICK_GAMES: usize = 2;

/// `isready` must be answered within this (a `Hash` change allocates).
const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// `uci` must be answered within this.
const UCI_TIMEOUT: Duration = Duration::from_secs(5);
/// `bestmove` must follow `stop` within this.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);
/// A timed search may overrun its budget by this much.
const TIME_GRACE: Duration = Duration::from_secs(3);
/// A process must exit within this after `quit` or the end of its input.
const EXIT_TIMEOUT: Duration = Duration::from_secs(5);
/// Games longer than this are adjudicated drawn.
const MAX_GAME_PLIES: usize = 300;

/// Arguments of `cargo xtask soak`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Random command lines of the GUI session (default 10000; 500 with --quick).
    #[arg(long)]
    pub commands: Option<usize>,
    /// Games between two engines (default 50; 2 with --quick).
    #[arg(long)]
    pub games: Option<usize>,
    /// Seed of everything random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A short run (under a minute): 500 commands, 2 games.
    #[arg(long)]
    pub quick: bool,
    /// The engine binary (default: build kibitz in release and use it).
    #[arg(long)]
    pub engine: Option<PathBuf>,
}

impl Args {
    /// Random command lines of the GUI session: `--commands`, else
    /// [`DEFAULT_COMMANDS`] ([`QUICK_COMMANDS`] with `--quick`).
    pub fn commands(&self) -> usize {
        self.commands.unwrap_or(if self.quick { QUICK_COMMANDS } else { DEFAULT_COMMANDS })
    }

    /// Games between two engines: `--games`, else [`DEFAULT_GAMES`]
    /// ([`QUICK_GAMES`] with `--quick`).
    pub fn games(&self) -> usize {
        self.games.unwrap_or(if self.quick { QUICK_GAMES } else { DEFAULT_GAMES })
    }
}

/// What went wrong, and what was done.
#[derive(Debug, Default)]
struct Counts {
    lines: usize,
    valid: usize,
    mutated: usize,
    garbage: usize,
    long_lines: usize,
    /// Lines sent while a search ran (`isready`, `position`, garbage,
    /// options).
    interleaved: usize,
    gos: usize,
    stops: usize,
    ready_checks: usize,
    bestmoves: usize,
    starts: usize,
    quits: usize,
    eofs: usize,
    games: usize,
    game_gos: usize,
    plies: usize,
    white_wins: usize,
    black_wins: usize,
    draws: usize,
    adjudicated: usize,
    // Failures.
    panics: usize,
    crashes: usize,
    hangs: usize,
    overruns: usize,
    illegal_moves: usize,
    illegal_pvs: usize,
    protocol_errors: usize,
    time_losses: usize,
}

impl Counts {
    fn failures(&self) -> usize {
        self.panics
            + self.crashes
            + self.hangs
            + self.overruns
            + self.illegal_moves
            + self.illegal_pvs
            + self.protocol_errors
            + self.time_losses
    }
}

/// A failure worth showing in the report (the first few of each run).
#[derive(Debug, Default)]
struct Log {
    entries: Vec<String>,
}

impl Log {
    fn note(&mut self, what: String) {
        if self.entries.len() < 40 {
            eprintln!("soak: {what}");
            self.entries.push(what);
        }
    }
}

/// One line of the engine's output, or its end.
enum Event {
    Line(String),
    Closed,
}

/// A `kibitz` process: a writer thread on its input (so that writing never
/// blocks the driver), reader threads on its output and error output.
struct Engine {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Event>,
    panics: Arc<AtomicUsize>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    /// Lines read back but not consumed yet.
    pending: VecDeque<String>,
    closed: bool,
}

impl Engine {
    fn start(path: &PathBuf) -> std::io::Result<Engine> {
        let mut child =
            Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(std::io::Error::other("no pipes to the engine"));
        };
        let (input, writes) = channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for bytes in writes {
                if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Event::Closed);
        });
        let panics = Arc::new(AtomicUsize::new(0));
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (p, tail) = (Arc::clone(&panics), Arc::clone(&stderr_tail));
        let stderr_thread = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if line.contains("panicked") {
                    p.fetch_add(1, Ordering::Relaxed);
                }
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.push_back(line);
                if t.len() > 20 {
                    t.pop_front();
                }
            }
        });
        Ok(Engine {
            child,
            input: Some(input),
            output,
            panics,
            stderr_tail,
            stderr_thread: Some(stderr_thread),
            pending: VecDeque::new(),
            closed: false,
        })
    }

    fn send(&mut self, line: &str) {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        if let Some(input) = &self.input {
            let _ = input.send(bytes);
        }
    }

    /// Closes the engine's input (end of file).
    fn close_input(&mut self) {
        self.input = None;
    }

    /// The next line before `deadline`: `Ok(None)` on timeout, `Err(())`
    /// once the output is closed.
    fn next(&mut self, deadline: Instant) -> Result<Option<String>, ()> {
        if let Some(line) = self.pending.pop_front() {
            return Ok(Some(line));
        }
        if self.closed {
            return Err(());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(left) {
            Ok(Event::Line(line)) => Ok(Some(line)),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// Waits for the process to exit (after `quit` or a closed input):
    /// whether it exited successfully within the limit.
    fn wait_exit(&mut self, limit: Duration) -> Option<bool> {
        let t = Instant::now();
        while t.elapsed() < limit {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.success()),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => return None,
            }
        }
        None
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ends the process (if it still runs) and returns how many panics its
    /// error output reported, all of it read.
    fn finish(&mut self) -> usize {
        self.kill();
        if let Some(t) = self.stderr_thread.take() {
            let _ = t.join();
        }
        self.panics.swap(0, Ordering::Relaxed)
    }

    fn stderr_tail(&self) -> String {
        let t = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        t.iter().cloned().collect::<Vec<_>>().join(" | ")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

fn uci_string(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// `text` as a legal move of `pos`, checked with `shakmaty` alone.
fn legal_move(pos: &Chess, text: &str) -> Option<Move> {
    let uci = UciMove::from_ascii(text.as_bytes()).ok()?;
    let mv = uci.to_move(pos).ok()?;
    // Exactly the UCI form of the legal move (no `e1h1` castling).
    (uci_string(mv) == text).then_some(mv)
}

/// Checks a `bestmove` line against the position searched: the move (and
/// the ponder move after it) must be legal; `0000` only when there is no
/// legal move.
fn bestmove_ok(pos: &Chess, line: &str) -> bool {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    match words.as_slice() {
        ["bestmove", "0000"] => pos.legal_moves().is_empty(),
        ["bestmove", mv] => legal_move(pos, mv).is_some(),
        ["bestmove", mv, "ponder", reply] => legal_move(pos, mv).is_some_and(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            legal_move(&after, reply).is_some()
        }),
        _ => false,
    }
}

/// Checks the principal variation of an `info` line from `pos`.
fn pv_ok(pos: &Chess, line: &str) -> bool {
    let Some((_, pv)) = line.split_once(" pv ") else { return true };
    let mut p = pos.clone();
    for mv in pv.split_ascii_whitespace() {
        match legal_move(&p, mv) {
            Some(m) => p.play_unchecked(m),
            None => return false,
        }
    }
    true
}

/// The longest reply line accepted: a principal variation of 100 moves is
/// about 500 bytes; a longer line is an input echoed back.
const MAX_REPLY_BYTES: usize = 4096;

/// Whether `line` is a reply a UCI engine may send.
fn reply_ok(line: &str) -> bool {
    if line.len() > MAX_REPLY_BYTES {
        return false;
    }
    let mut words = line.split_ascii_whitespace();
    match words.next() {
        Some("id") => matches!(words.next(), Some("name" | "author")),
        Some("option") => line.starts_with("option name ") && line.contains(" type "),
        Some("uciok" | "readyok") => words.next().is_none(),
        Some("bestmove") => words.next().is_some(),
        Some("info") => {
            if line.starts_with("info string ") {
                return true;
            }
            // Known fields with numeric values, then an optional pv.
            let rest: Vec<&str> = words.collect();
            let mut i = 0;
            while i < rest.len() {
                match rest[i] {
                    "depth" | "seldepth" | "nodes" | "nps" | "time" | "hashfull" | "multipv" => {
                        if rest.get(i + 1).and_then(|v| v.parse::<u64>().ok()).is_none() {
                            return false;
                        }
                        i += 2;
                    }
                    "score" => {
                        let kind_ok = matches!(rest.get(i + 1), Some(&"cp" | &"mate"));
                        if !kind_ok || rest.get(i + 2).and_then(|v| v.parse::<i64>().ok()).is_none() {
                            return false;
                        }
                        i += 3;
                    }
                    "pv" => return true,
                    _ => return false,
                }
            }
            true
        }
        _ => false,
    }
}

/// How a `go` is expected to end.
#[derive(Debug, Clone, Copy, PartialEq)]
enum GoKind {
    /// A clock or `movetime`: by itself, within this (plus grace).
    Timed(Duration),
    /// `infinite` or `ponder`: only after `stop` (or `ponderhit`).
    Waits,
    /// Depth, nodes, mate or nothing: by itself eventually; the driver
    /// stops it after a short wait.
    Bounded,
}

/// The longest timed search the driver waits for by itself; longer ones
/// (a mutated `go wtime 999999999`) are stopped like depth-limited ones.
const LONGEST_WAIT: Duration = Duration::from_secs(5);

/// How the search of `p` for `side` to move should end: the time budget is
/// the engine's documented one (`time_budget`), whose hard limit a timed
/// search must keep.
fn go_kind(p: &GoParams, side: Color) -> GoKind {
    if p.infinite || p.ponder {
        return GoKind::Waits;
    }
    match time_budget(p, side) {
        Some(b) if b.hard <= LONGEST_WAIT => GoKind::Timed(b.hard),
        _ => GoKind::Bounded,
    }
}

/// A search the driver is waiting for.
struct Pending {
    position: Chess,
    kind: GoKind,
    /// `stop` (or `ponderhit` for a pondering search) was sent.
    released: bool,
}

/// Everything random the session sends.
struct Generator {
    rng: rng::Rng,
}

/// The engine's backup rules (the `Backup` option's values).
const BACKUPS: [&str; 8] = ["alphabeta", "minimax", "iom", "emm", "rminimax", "predictive", "product", "mn"];

impl Generator {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.random_range(0..n.max(1))
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    /// A random legal game of up to `max` plies: its moves.
    fn random_game(&mut self, max: u64) -> (Vec<String>, Chess) {
        self.random_moves(Chess::default(), max)
    }

    /// Up to `max` random legal plies from `pos`: the moves and the end.
    fn random_moves(&mut self, mut pos: Chess, max: u64) -> (Vec<String>, Chess) {
        let mut moves = Vec::new();
        for _ in 0..self.below(max + 1) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[self.below(legal.len() as u64) as usize];
            moves.push(uci_string(mv));
            pos.play_unchecked(mv);
        }
        (moves, pos)
    }

    fn position(&mut self) -> String {
        let (moves, pos) = self.random_game(60);
        match self.below(4) {
            0 => "position startpos".to_string(),
            1 => {
                let fen =
                    games_chess::shakmaty::fen::Fen::from_position(&pos, games_chess::shakmaty::EnPassantMode::Legal);
                let (more, _) = self.random_moves(pos.clone(), 4);
                if more.is_empty() {
                    format!("position fen {fen}")
                } else {
                    format!("position fen {fen} moves {}", more.join(" "))
                }
            }
            // An illegal move at the end, sometimes.
            2 if !moves.is_empty() && self.chance(0.5) => {
                format!("position startpos moves {} e1e8", moves.join(" "))
            }
            _ if moves.is_empty() => "position startpos moves".to_string(),
            _ => format!("position startpos moves {}", moves.join(" ")),
        }
    }

    fn go(&mut self) -> String {
        match self.below(14) {
            0 => format!("go depth {}", 1 + self.below(5)),
            1 => format!("go movetime {}", 1 + self.below(60)),
            2 => format!("go nodes {}", 1 + self.below(20_000)),
            3 => {
                let (w, b) = (self.below(3000), self.below(3000));
                let i = self.below(100);
                format!("go wtime {w} btime {b} winc {i} binc {i}")
            }
            4 => format!("go wtime {} btime {} movestogo {}", self.below(2000), self.below(2000), 1 + self.below(40)),
            5 => format!("go btime {}", self.below(1500)),
            6 => format!("go wtime {}", self.below(1500)),
            7 => "go infinite".to_string(),
            8 => "go".to_string(),
            9 => format!("go ponder wtime {} btime {}", self.below(1000), self.below(1000)),
            10 => format!("go mate {}", 1 + self.below(3)),
            11 => format!("go depth {}", 50 + self.below(5000)),
            12 => format!("go winc {}", self.below(100)),
            _ => "go searchmoves e2e4 d2d4 depth 3".to_string(),
        }
    }

    fn option(&mut self) -> String {
        match self.below(10) {
            0 => format!("setoption name Hash value {}", 1 + self.below(64)),
            1 | 2 => {
                let kind = if self.chance(0.5) { "alphabeta" } else { self.pick(&BACKUPS) };
                format!("setoption name Backup value {kind}")
            }
            3 => format!("setoption name Theta value {}", 0.05 + self.rng.random::<f64>() * 50.0),
            4 => format!("setoption name Seed value {}", self.below(1000)),
            5 => "setoption name Clear Hash".to_string(),
            6 => "setoption name Threads value 1".to_string(),
            7 => format!("setoption name Ponder value {}", self.chance(0.5)),
            8 => {
                format!("setoption name Hash value {}", self.pick(&["0", "-1", "1e12", "18446744073709551615", "lots"]))
            }
            _ => format!("setoption name {} value 1", self.pick(&["Nope", "hash size", "Skill Level"])),
        }
    }

    /// A well-formed command.
    fn valid(&mut self) -> String {
        match self.below(20) {
            0..=4 => self.position(),
            5..=8 => self.go(),
            9..=11 => self.option(),
            12 | 13 => "isready".to_string(),
            14 => "ucinewgame".to_string(),
            15 => "stop".to_string(),
            16 => "ponderhit".to_string(),
            17 => "uci".to_string(),
            18 => format!("debug {}", if self.chance(0.5) { "on" } else { "off" }),
            _ => "register later".to_string(),
        }
    }

    /// A well-formed command with one edit.
    fn mutated(&mut self) -> String {
        let line = self.valid();
        let mut chars: Vec<char> = line.chars().collect();
        let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
        let at = self.below(chars.len() as u64 + 1) as usize;
        let w = self.below(words.len() as u64) as usize;
        let c = char::from_u32(self.below(0x250) as u32).unwrap_or('?');
        match self.below(7) {
            0 if at < chars.len() => chars[at] = c,
            1 => chars.insert(at.min(chars.len()), c),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 => {
                words.remove(w);
                return words.join(" ");
            }
            4 => {
                let word = words[w].clone();
                words.insert(w, word);
                return words.join(" ");
            }
            5 => {
                words[w] = self.pick(&["-1", "0", "99999999999999999999", "1e3", "nan", "", "moves", "go"]).to_string();
                return words.join(" ");
            }
            _ => {
                let j = self.below(words.len() as u64) as usize;
                words.swap(w, j);
                return words.join(" ");
            }
        }
        chars.into_iter().collect()
    }

    /// Random bytes (a line: no newline inside).
    fn garbage(&mut self) -> String {
        let n = self.below(80) as usize;
        let bytes: Vec<u8> = (0..n).map(|_| self.below(256) as u8).map(|b| if b == b'\n' { b' ' } else { b }).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// The GUI session of phase 1.
struct Session<'a> {
    path: &'a PathBuf,
    engine: Engine,
    /// The position the engine holds, as the driver expects it.
    position: ChessGame,
    search: Option<Pending>,
    counts: &'a mut Counts,
    log: &'a mut Log,
}

impl<'a> Session<'a> {
    fn new(path: &'a PathBuf, counts: &'a mut Counts, log: &'a mut Log) -> std::io::Result<Session<'a>> {
        counts.starts += 1;
        Ok(Session { path, engine: Engine::start(path)?, position: ChessGame::startpos(), search: None, counts, log })
    }

    /// Replaces the engine by a new process (after a hang, a crash or a
    /// deliberate exit).
    fn restart(&mut self) -> std::io::Result<()> {
        self.counts.panics += self.engine.finish();
        self.engine = Engine::start(self.path)?;
        self.counts.starts += 1;
        self.position = ChessGame::startpos();
        self.search = None;
        Ok(())
    }

    /// Handles one reply line.
    fn reply(&mut self, line: &str) {
        if !reply_ok(line) {
            self.counts.protocol_errors += 1;
            self.log.note(format!("malformed or overlong reply {:?}", short(line)));
            return;
        }
        if line.starts_with("info ") && !line.starts_with("info string") {
            if let Some(s) = &self.search
                && !pv_ok(&s.position, line)
            {
                self.counts.illegal_pvs += 1;
                self.log.note(format!("illegal pv in {}: {line}", fen(&s.position)));
            }
            return;
        }
        if line.starts_with("bestmove") {
            self.counts.bestmoves += 1;
            match self.search.take() {
                Some(s) => {
                    if s.kind == GoKind::Waits && !s.released {
                        self.counts.protocol_errors += 1;
                        self.log.note(format!("bestmove before stop in a waiting search: {line}"));
                    }
                    if !bestmove_ok(&s.position, line) {
                        self.counts.illegal_moves += 1;
                        self.log.note(format!("illegal {line:?} in {}", fen(&s.position)));
                    }
                }
                None => {
                    self.counts.protocol_errors += 1;
                    self.log.note(format!("bestmove without a search: {line}"));
                }
            }
        }
    }

    /// Reads replies until `done` says so or `limit` passes. Returns
    /// whether `done` was reached; a closed output is a crash (the engine
    /// is restarted).
    fn read_until(
        &mut self,
        limit: Duration,
        mut done: impl FnMut(&Session<'_>, &str) -> bool,
    ) -> std::io::Result<bool> {
        let deadline = Instant::now() + limit;
        loop {
            match self.engine.next(deadline) {
                Ok(Some(line)) => {
                    self.reply(&line);
                    if done(self, &line) {
                        return Ok(true);
                    }
                }
                Ok(None) => return Ok(false),
                Err(()) => {
                    self.counts.crashes += 1;
                    let tail = self.engine.stderr_tail();
                    self.log.note(format!("the engine exited unasked; stderr: {tail}"));
                    self.restart()?;
                    return Ok(false);
                }
            }
        }
    }

    /// Reads whatever replies are already there.
    fn drain(&mut self) -> std::io::Result<()> {
        self.read_until(Duration::ZERO, |_, _| false).map(|_| ())
    }

    fn hang(&mut self, what: String) -> std::io::Result<()> {
        self.counts.hangs += 1;
        self.log.note(format!("hang: {what}"));
        self.restart()
    }

    /// `isready`, answered within [`READY_TIMEOUT`].
    fn sync(&mut self) -> std::io::Result<()> {
        self.counts.ready_checks += 1;
        self.engine.send("isready");
        let starts = self.counts.starts;
        if !self.read_until(READY_TIMEOUT, |_, l| l == "readyok")? && self.counts.starts == starts {
            self.hang("no readyok".to_string())?;
        }
        Ok(())
    }

    /// Waits for the pending search's `bestmove` for `limit`; false if it
    /// did not come.
    fn await_bestmove(&mut self, limit: Duration) -> std::io::Result<bool> {
        if self.search.is_none() {
            return Ok(true);
        }
        let starts = self.counts.starts;
        self.read_until(limit, |s, l| l.starts_with("bestmove") && s.search.is_none())?;
        Ok(self.search.is_none() || self.counts.starts != starts)
    }

    /// `stop`, then `bestmove` within [`STOP_TIMEOUT`].
    fn stop(&mut self) -> std::io::Result<()> {
        self.counts.stops += 1;
        self.engine.send("stop");
        if let Some(s) = &mut self.search {
            s.released = true;
        }
        if !self.await_bestmove(STOP_TIMEOUT)? {
            self.hang("no bestmove after stop".to_string())?;
        }
        Ok(())
    }

    /// Ends the pending search as a GUI would.
    fn resolve(&mut self, g: &mut Generator) -> std::io::Result<()> {
        let Some(kind) = self.search.as_ref().map(|s| s.kind) else { return Ok(()) };
        match kind {
            GoKind::Waits => {
                std::thread::sleep(Duration::from_millis(g.below(30)));
                self.drain()?;
                if self.search.is_some() && g.chance(0.3) {
                    // Pondering or not, ponderhit turns the search into a
                    // timed one where a clock was given.
                    self.engine.send("ponderhit");
                    if let Some(s) = &mut self.search {
                        s.released = true;
                    }
                    if !self.await_bestmove(Duration::from_millis(g.below(50)))? {
                        self.stop()?;
                    }
                } else {
                    self.stop()?;
                }
            }
            GoKind::Timed(budget) => {
                if !self.await_bestmove(budget + TIME_GRACE)? {
                    self.counts.overruns += 1;
                    self.log.note(format!("a timed search ({budget:?}) overran by {TIME_GRACE:?}"));
                    self.stop()?;
                }
            }
            GoKind::Bounded => {
                if !self.await_bestmove(Duration::from_millis(g.below(80)))? {
                    self.stop()?;
                }
            }
        }
        Ok(())
    }

    /// Sends one line and updates the expected state; `go` while a search
    /// runs, `ucinewgame` while a search runs and `quit` are held back
    /// (they would race with the search's end), unless `deliberate`.
    fn send(&mut self, line: &str) -> std::io::Result<bool> {
        let parsed = parse_command(line);
        let searching = self.search.is_some();
        match &parsed {
            Ok(Some(Uci::Go(_) | Uci::UciNewGame)) if searching => return Ok(false),
            Ok(Some(Uci::Quit)) => return Ok(false),
            _ => {}
        }
        self.counts.lines += 1;
        self.engine.send(line);
        match parsed {
            Ok(Some(Uci::Go(p))) => {
                self.counts.gos += 1;
                let kind = go_kind(&p, self.position.position().turn());
                self.search = Some(Pending { position: self.position.position().clone(), kind, released: false });
            }
            Ok(Some(Uci::Position { base, moves })) => {
                if let Ok(g) = build_position(&base, &moves) {
                    self.position = g;
                }
            }
            Ok(Some(Uci::UciNewGame)) => self.position = ChessGame::startpos(),
            Ok(Some(Uci::Stop)) => {
                self.counts.stops += 1;
                if let Some(s) = &mut self.search {
                    s.released = true;
                }
                if !self.await_bestmove(STOP_TIMEOUT)? {
                    self.hang("no bestmove after stop".to_string())?;
                }
            }
            Ok(Some(Uci::PonderHit)) => {
                if let Some(s) = &mut self.search {
                    s.released = true;
                }
            }
            Ok(Some(Uci::IsReady)) => {
                self.counts.ready_checks += 1;
                let starts = self.counts.starts;
                if !self.read_until(READY_TIMEOUT, |_, l| l == "readyok")? && self.counts.starts == starts {
                    self.hang("no readyok".to_string())?;
                }
            }
            Ok(Some(Uci::Uci)) => {
                let starts = self.counts.starts;
                if !self.read_until(UCI_TIMEOUT, |_, l| l == "uciok")? && self.counts.starts == starts {
                    self.hang("no uciok".to_string())?;
                }
            }
            _ => {}
        }
        Ok(true)
    }

    /// `quit` (or, with `eof`, a closed input): the engine must exit
    /// successfully, and promptly; a new one is started.
    fn leave(&mut self, eof: bool) -> std::io::Result<()> {
        if eof {
            self.counts.eofs += 1;
            self.engine.close_input();
        } else {
            self.counts.quits += 1;
            self.engine.send("quit");
        }
        match self.engine.wait_exit(EXIT_TIMEOUT) {
            Some(true) => {}
            Some(false) => {
                self.counts.crashes += 1;
                let tail = self.engine.stderr_tail();
                self.log.note(format!("exit with a failure status after quit/eof; stderr: {tail}"));
            }
            None => {
                self.counts.hangs += 1;
                self.log.note("no exit after quit/eof".to_string());
            }
        }
        self.restart()
    }
}

fn short(line: &str) -> String {
    search_core::GameError::shorten(line)
}

fn fen(pos: &Chess) -> String {
    games_chess::shakmaty::fen::Fen::from_position(pos, games_chess::shakmaty::EnPassantMode::Legal).to_string()
}

/// Phase 1: `n` random command lines.
fn session(path: &PathBuf, n: usize, g: &mut Generator, counts: &mut Counts, log: &mut Log) -> TaskResult {
    let mut s = Session::new(path, counts, log)?;
    s.send("uci")?;
    let (mut sent, mut next_report) = (0, 1000);
    while sent < n {
        if g.below(1500) == 0 && s.search.is_none() {
            s.leave(g.chance(0.5))?;
            sent += 1;
            continue;
        }
        let line = match g.below(40) {
            0 => {
                s.counts.long_lines += 1;
                // A megabyte of garbage, or more than the engine's limit.
                let len = if g.below(10) == 0 { games_chess::uci::MAX_LINE_BYTES + 10 } else { 1 << 20 };
                let head = g.pick(&["position fen ", "go ", "setoption name ", "", "position startpos moves "]);
                format!("{head}{}", "e2e4 ".repeat(len / 5))
            }
            1..=22 => {
                s.counts.valid += 1;
                g.valid()
            }
            23..=34 => {
                s.counts.mutated += 1;
                g.mutated()
            }
            _ => {
                s.counts.garbage += 1;
                g.garbage()
            }
        };
        if !s.send(&line)? {
            continue;
        }
        sent += 1;
        // A few other commands while a search runs, then its end.
        if s.search.is_some() {
            for _ in 0..g.below(4) {
                let other = match g.below(5) {
                    0 => "isready".to_string(),
                    1 => g.position(),
                    2 => g.garbage(),
                    3 => g.option(),
                    _ => "debug off".to_string(),
                };
                if s.send(&other)? {
                    s.counts.interleaved += 1;
                    sent += 1;
                }
            }
            s.resolve(g)?;
        }
        if g.below(25) == 0 {
            s.sync()?;
        }
        s.drain()?;
        if sent >= next_report {
            println!("  {sent} lines sent, {} failures so far", s.counts.failures());
            next_report += 1000;
        }
    }
    if s.search.is_some() {
        s.stop()?;
    }
    s.sync()?;
    s.leave(false)?;
    s.counts.panics += s.engine.finish();
    Ok(())
}

/// One side of a game: its process, its rule and its clock.
struct Side {
    engine: Engine,
    backup: &'static str,
    clock: Duration,
}

/// Phase 2: one game between two engines, `movetime 20` for even numbers,
/// 2 s + 20 ms clocks for odd ones. A game ends by the rules (checkmate,
/// stalemate, threefold repetition, fifty moves, insufficient material), is
/// adjudicated drawn at [`MAX_GAME_PLIES`], or is abandoned on a hang, a
/// crash or an illegal move (all counted).
fn game(path: &PathBuf, number: usize, g: &mut Generator, counts: &mut Counts, log: &mut Log) -> TaskResult {
    let clocked = number % 2 == 1;
    let (base, inc) = (Duration::from_millis(2_000), Duration::from_millis(20));
    let mut sides = Vec::new();
    for _ in 0..2 {
        let backup = if g.chance(0.7) { "alphabeta" } else { g.pick(&BACKUPS) };
        let mut engine = Engine::start(path)?;
        counts.starts += 1;
        engine.send("uci");
        engine.send(&format!("setoption name Backup value {backup}"));
        engine.send(&format!("setoption name Hash value {}", 1 + g.below(32)));
        engine.send("ucinewgame");
        engine.send("isready");
        let deadline = Instant::now() + READY_TIMEOUT;
        let mut ready = false;
        while let Ok(Some(line)) = engine.next(deadline) {
            if !reply_ok(&line) || line.starts_with("info string error") {
                counts.protocol_errors += 1;
                log.note(format!("game {number}: unexpected reply {:?} while setting up", short(&line)));
            }
            if line == "readyok" {
                ready = true;
                break;
            }
        }
        if !ready {
            counts.hangs += 1;
            log.note(format!("game {number}: no readyok while setting up"));
            return Ok(());
        }
        sides.push(Side { engine, backup, clock: base });
    }
    let mut state = ChessGame::startpos();
    let mut moves: Vec<String> = Vec::new();
    let result = loop {
        if let Status::Over(outcome) = state.status() {
            break Some(outcome);
        }
        if moves.len() >= MAX_GAME_PLIES {
            counts.adjudicated += 1;
            break Some(Outcome::Draw);
        }
        let side = usize::from(state.position().turn() == Color::Black);
        let pos = state.position().clone();
        let go = if clocked {
            let (w, b) = (sides[0].clock.as_millis(), sides[1].clock.as_millis());
            format!("go wtime {w} btime {b} winc {} binc {}", inc.as_millis(), inc.as_millis())
        } else {
            "go movetime 20".to_string()
        };
        let limit = if clocked { sides[side].clock + TIME_GRACE } else { Duration::from_millis(20) + TIME_GRACE };
        let p = &mut sides[side];
        if moves.is_empty() {
            p.engine.send("position startpos");
        } else {
            p.engine.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        p.engine.send(&go);
        counts.game_gos += 1;
        let t = Instant::now();
        let deadline = t + limit;
        let mut best = None;
        loop {
            match p.engine.next(deadline) {
                Ok(Some(line)) => {
                    if !reply_ok(&line) {
                        counts.protocol_errors += 1;
                        log.note(format!("game {number}: malformed or overlong reply {:?}", short(&line)));
                    } else if line.starts_with("info ") && !line.starts_with("info string") && !pv_ok(&pos, &line) {
                        counts.illegal_pvs += 1;
                        log.note(format!("game {number}: illegal pv in {}: {line}", fen(&pos)));
                    } else if line.starts_with("bestmove") {
                        best = Some(line);
                        break;
                    }
                }
                Ok(None) => break,
                Err(()) => {
                    counts.crashes += 1;
                    let tail = p.engine.stderr_tail();
                    log.note(format!("game {number}: {} exited unasked; stderr: {tail}", p.backup));
                    break;
                }
            }
        }
        let took = t.elapsed();
        let Some(line) = best else {
            if !p.engine.closed {
                counts.hangs += 1;
                log.note(format!("game {number}: no bestmove within {limit:?} ({go}) in {}", fen(&pos)));
            }
            break None;
        };
        if !bestmove_ok(&pos, &line) {
            counts.illegal_moves += 1;
            log.note(format!("game {number}: illegal {line:?} in {}", fen(&pos)));
            break None;
        }
        if clocked {
            if took > p.clock {
                counts.time_losses += 1;
                log.note(format!("game {number}: {} lost on time ({took:?} with {:?} left)", p.backup, p.clock));
                break Some(Outcome::Win(if side == 0 { Player::Second } else { Player::First }));
            }
            p.clock = p.clock - took + inc;
        }
        let mv = line.split_ascii_whitespace().nth(1).unwrap_or_default().to_string();
        if state.play_str(&mv).is_err() {
            // Legal on the board but the game was over by rule: checked above.
            break Some(Outcome::Draw);
        }
        moves.push(mv);
        counts.plies += 1;
    };
    for side in &mut sides {
        // An abandoned game's failure is counted already.
        if result.is_some() {
            side.engine.send("quit");
            if side.engine.wait_exit(EXIT_TIMEOUT) != Some(true) {
                counts.crashes += 1;
                log.note(format!("game {number}: {} did not quit cleanly", side.backup));
            }
        }
        counts.panics += side.engine.finish();
    }
    counts.games += 1;
    match result {
        Some(Outcome::Win(Player::First)) => counts.white_wins += 1,
        Some(Outcome::Win(Player::Second)) => counts.black_wins += 1,
        Some(_) => counts.draws += 1,
        None => {}
    }
    let names = format!("{} - {}", sides[0].backup, sides[1].backup);
    let how = if clocked { "2 s + 20 ms" } else { "movetime 20" };
    println!("  game {:>3} ({how}, {names}): {:?} after {} plies", number + 1, result, moves.len());
    Ok(())
}

/// Builds `kibitz` in release and returns its path.
fn build_engine() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--package",
            "games-chess",
            "--bin",
            "kibitz",
            "--message-format=json-render-diagnostics",
        ])
        .stderr(Stdio::inherit())
        .output()?;
    if !out.status.success() {
        return Err("building kibitz failed".into());
    }
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        if msg["reason"] == "compiler-artifact"
            && msg["target"]["name"] == "kibitz"
            && let Some(exe) = msg["executable"].as_str()
        {
            return Ok(PathBuf::from(exe));
        }
    }
    Err("cargo did not report the kibitz executable".into())
}

pub fn run(args: Args) -> TaskResult {
    let path = match &args.engine {
        Some(p) => p.clone(),
        None => build_engine()?,
    };
    let (commands, games) = (args.commands(), args.games());
    println!(
        "soak: {} with {} commands, {} games, seed {} ({} cores)",
        path.display(),
        commands,
        games,
        args.seed,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let start = Instant::now();
    let mut counts = Counts::default();
    let mut log = Log::default();
    let mut g = Generator { rng: rng::seeded(args.seed) };
    session(&path, commands, &mut g, &mut counts, &mut log)?;
    let session_time = start.elapsed();
    println!("phase 1 (GUI session) done in {:.1} s", session_time.as_secs_f64());
    for number in 0..games {
        game(&path, number, &mut g, &mut counts, &mut log)?;
    }
    let total = start.elapsed();
    let c = &counts;
    println!();
    println!(
        "soak summary (seed {}, wall time {:.1} s; session {:.1} s, games {:.1} s)",
        args.seed,
        total.as_secs_f64(),
        session_time.as_secs_f64(),
        (total - session_time).as_secs_f64()
    );
    println!(
        "  session: {} lines ({} valid, {} mutated, {} garbage, {} long, {} during searches), {} go, {} stop, \
         {} isready, {} bestmove",
        c.lines,
        c.valid,
        c.mutated,
        c.garbage,
        c.long_lines,
        c.interleaved,
        c.gos,
        c.stops,
        c.ready_checks,
        c.bestmoves
    );
    println!("  processes: {} started, {} quit, {} closed input", c.starts, c.quits, c.eofs);
    println!(
        "  games: {} played, {} go, {} plies; white {} / black {} / draw {} ({} adjudicated at {MAX_GAME_PLIES} plies)",
        c.games, c.game_gos, c.plies, c.white_wins, c.black_wins, c.draws, c.adjudicated
    );
    println!(
        "  failures: panics {}, crashes {}, hangs {}, timed searches overrun {}, illegal moves {}, illegal pv {}, \
         protocol errors {}, losses on time {}",
        c.panics, c.crashes, c.hangs, c.overruns, c.illegal_moves, c.illegal_pvs, c.protocol_errors, c.time_losses
    );
    if c.failures() > 0 {
        for entry in &log.entries {
            println!("    {entry}");
        }
        return Err(format!("soak failed: {} failures", c.failures()).into());
    }
    println!("soak passed");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_checked_like_a_gui_would() {
        for ok in [
            "id name kibitz",
            "option name Hash type spin default 16 min 1 max 1024",
            "uciok",
            "readyok",
            "info depth 3 score cp 18 nodes 681 nps 792782 time 0 pv d2d4 d7d5 e2e3",
            "info depth 2 nodes 10 nps 5 time 1 pv e2e4",
            "info string anything at all",
            "bestmove e2e4 ponder e7e5",
        ] {
            assert!(reply_ok(ok), "{ok}");
        }
        let long = format!("info string error: {}", "x".repeat(MAX_REPLY_BYTES));
        for bad in ["", "readyok now", "info depth x", "info score cp", "info frobs 3", "hello", long.as_str()] {
            assert!(!reply_ok(bad), "{bad}");
        }
    }

    #[test]
    fn moves_are_checked_with_shakmaty() {
        let start = Chess::default();
        assert!(bestmove_ok(&start, "bestmove e2e4"));
        assert!(bestmove_ok(&start, "bestmove e2e4 ponder e7e5"));
        assert!(!bestmove_ok(&start, "bestmove e2e4 ponder e2e4"));
        assert!(!bestmove_ok(&start, "bestmove e2e5"));
        assert!(!bestmove_ok(&start, "bestmove 0000"));
        assert!(!bestmove_ok(&start, "bestmove"));
        assert!(pv_ok(&start, "info depth 2 pv e2e4 e7e5"));
        assert!(!pv_ok(&start, "info depth 2 pv e2e4 e2e4"));
        // Standard castling only.
        let castle: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<games_chess::shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert!(legal_move(&castle, "e1g1").is_some());
        assert!(legal_move(&castle, "e1h1").is_none());
    }

    #[test]
    fn timed_searches_are_told_apart() {
        let go = |p: GoParams| go_kind(&p, Color::White);
        assert_eq!(go(GoParams { infinite: true, ..GoParams::default() }), GoKind::Waits);
        assert_eq!(
            go(GoParams { movetime: Some(100), ..GoParams::default() }),
            GoKind::Timed(Duration::from_millis(95))
        );
        assert!(matches!(go(GoParams { btime: Some(1000), ..GoParams::default() }), GoKind::Timed(_)));
        assert_eq!(go(GoParams { wtime: Some(999_999_999), ..GoParams::default() }), GoKind::Bounded);
        assert_eq!(go(GoParams { depth: Some(3), ..GoParams::default() }), GoKind::Bounded);
    }
}
