//! [`UciEngineAgent`]: an [`Agent<ChessGame>`] that plays through an
//! external UCI engine (Stockfish or any other), run as a child process.
//!
//! The agent speaks the engine side of the protocol: `uci` / `uciok`,
//! `setoption`, `isready` / `readyok`, `ucinewgame`, `position fen … moves
//! …`, `go nodes|depth|movetime …`, `bestmove`, `quit`. Every failure (the
//! program cannot start, exits, hangs, names an option it does not have,
//! answers an illegal or unparsable move) is a typed [`ExternalError`]; in
//! [`Agent::choose`] it becomes a [`GameError`] (see
//! [`From<ExternalError> for GameError`](ExternalError#impl-From<ExternalError>-for-GameError)).
//! A hung engine cannot block the caller: the engine's output is read on a
//! thread and every wait has a deadline.

use std::collections::HashSet;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use search_core::{Agent, Game, GameError, ParamError, RngCore, Status};
use shakmaty::{CastlingMode, Chess, Position};

use crate::ChessGame;
use crate::notation;

/// The default deadline for the engine's answers to `uci` and `isready`,
/// and the base of the deadline for `bestmove` (see
/// [`EngineLimit::allowance`]): 10 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Engine output lines longer than this are cut (a broken engine printing
/// without newlines cannot exhaust memory).
const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long [`Drop`] waits for the engine to exit after `quit` before
/// killing it.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How a `go` command limits the engine's search.
///
/// ```
/// use games_chess::external::EngineLimit;
/// use std::time::Duration;
///
/// assert_eq!(EngineLimit::Nodes(2000).to_string(), "nodes 2000");
/// assert_eq!(EngineLimit::Depth(8).to_string(), "depth 8");
/// assert_eq!(EngineLimit::MoveTime(Duration::from_millis(250)).to_string(), "movetime 250");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineLimit {
    /// `go nodes N`: a fixed node count. With one thread this is the
    /// reproducible limit (see [`UciEngineAgent`] on determinism).
    Nodes(u64),
    /// `go depth D`: a fixed search depth in plies.
    Depth(u32),
    /// `go movetime MS`: a fixed time per move, sent in whole milliseconds.
    MoveTime(Duration),
}

impl EngineLimit {
    /// How much longer than the base timeout the agent waits for
    /// `bestmove`: the move time itself for [`MoveTime`](Self::MoveTime),
    /// 10 µs per node for [`Nodes`](Self::Nodes) (an engine slower than
    /// 100 000 nodes per second is taken as hung), and five base timeouts
    /// for [`Depth`](Self::Depth), whose duration cannot be foreseen.
    ///
    /// ```
    /// use games_chess::external::EngineLimit;
    /// use std::time::Duration;
    ///
    /// let base = Duration::from_secs(10);
    /// assert_eq!(EngineLimit::Nodes(1_000_000).allowance(base), Duration::from_secs(10));
    /// assert_eq!(EngineLimit::Depth(20).allowance(base), Duration::from_secs(50));
    /// ```
    pub fn allowance(self, base: Duration) -> Duration {
        match self {
            EngineLimit::Nodes(n) => Duration::from_micros(n.saturating_mul(10)),
            EngineLimit::Depth(_) => base.saturating_mul(5),
            EngineLimit::MoveTime(t) => t,
        }
    }

    /// Checks the limit: zero nodes, depth or milliseconds mean "no limit"
    /// to most engines (an endless search), so they are refused.
    /// Errors: [`ExternalError::InvalidLimit`].
    fn check(self) -> Result<(), ExternalError> {
        let reason = match self {
            EngineLimit::Nodes(0) => "`go nodes 0` would not limit the search".to_string(),
            EngineLimit::Depth(0) => "`go depth 0` would not limit the search".to_string(),
            EngineLimit::MoveTime(t) if t.as_millis() == 0 => {
                format!("move time {t:?} is under one millisecond (`go movetime 0` would not limit the search)")
            }
            _ => return Ok(()),
        };
        Err(ExternalError::InvalidLimit(reason))
    }
}

impl fmt::Display for EngineLimit {
    /// The arguments of the `go` command: `nodes 2000`, `depth 8`,
    /// `movetime 250`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineLimit::Nodes(n) => write!(f, "nodes {n}"),
            EngineLimit::Depth(d) => write!(f, "depth {d}"),
            EngineLimit::MoveTime(t) => write!(f, "movetime {}", t.as_millis()),
        }
    }
}

/// What went wrong with an external engine.
///
/// In [`Agent::choose`] these become [`GameError`]s: an illegal `bestmove`
/// a [`GameError::IllegalMove`], an unparsable or empty one a
/// [`GameError::Parse`] (`what = "engine move"`), everything else (the
/// engine could not start, exited, timed out, is misconfigured) a
/// [`GameError::Param`] whose parameter is `"uci engine"` and whose reason
/// is this error's message.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExternalError {
    /// The program could not be started (no such file, not executable).
    Spawn {
        /// The path that was run.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The engine closed its output or its input (it exited or crashed).
    Exited {
        /// The engine's name (or path, before `id name`).
        engine: String,
        /// What the agent was doing ("waiting for uciok", "sending go").
        during: String,
        /// The exit status, if the process had ended when it was checked.
        status: Option<ExitStatus>,
    },
    /// The engine did not answer in time.
    Timeout {
        /// The engine's name (or path, before `id name`).
        engine: String,
        /// The answer that did not come: `"uciok"`, `"readyok"`,
        /// `"bestmove"`.
        waiting_for: &'static str,
        /// The deadline that passed.
        after: Duration,
    },
    /// Writing to the engine failed for another reason than a closed pipe.
    Io {
        /// The engine's name (or path, before `id name`).
        engine: String,
        /// The command being sent.
        command: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// An option to set is not among the `option name …` lines the engine
    /// printed after `uci`.
    UnknownOption {
        /// The engine's name.
        engine: String,
        /// The option's name as given.
        name: String,
        /// The options the engine has, in the order it listed them.
        available: Vec<String>,
    },
    /// An option's value does not fit the type the engine declared (a
    /// `spin` outside `min..=max`, a `check` that is not `true`/`false`, a
    /// `combo` value not among its `var`s). Engines usually ignore such a
    /// `setoption` silently, so it is refused before it is sent.
    InvalidOptionValue {
        /// The engine's name.
        engine: String,
        /// The option's name.
        name: String,
        /// The value as given.
        value: String,
        /// Why it does not fit.
        reason: String,
    },
    /// The search limit cannot be sent (it would mean "search forever").
    InvalidLimit(String),
    /// The engine's `bestmove` is well-formed UCI but not legal in the
    /// position.
    IllegalMove {
        /// The engine's name.
        engine: String,
        /// The move as the engine wrote it.
        mv: String,
        /// The position (FEN) it was asked about.
        fen: String,
    },
    /// The `bestmove` line has no move, or one that is not UCI notation.
    UnparsableMove {
        /// The engine's name.
        engine: String,
        /// The whole `bestmove` line (shortened).
        line: String,
        /// The position (FEN) it was asked about.
        fen: String,
    },
    /// The engine answered `bestmove (none)` (or `0000`) in a position that
    /// has legal moves and is not over.
    NoMove {
        /// The engine's name.
        engine: String,
        /// The move text it sent.
        text: String,
        /// The position (FEN) it was asked about.
        fen: String,
    },
    /// An earlier error (a `bestmove` that never came even after `stop`, a
    /// failed `ucinewgame` in [`reset`](Agent::reset)) left the engine in an
    /// unknown state: the agent refuses to use it further.
    Unusable {
        /// The engine's name.
        engine: String,
        /// The earlier error's message.
        reason: String,
    },
    /// [`evaluate`](UciEngineAgent::evaluate): the engine sent `bestmove`
    /// without any `info … score cp|mate …` line before it.
    NoScore {
        /// The engine's name.
        engine: String,
        /// The position (FEN) it was asked about.
        fen: String,
    },
}

impl fmt::Display for ExternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExternalError::Spawn { path, source } => {
                write!(f, "cannot start UCI engine {}: {source}", path.display())
            }
            ExternalError::Exited { engine, during, status } => {
                write!(f, "UCI engine {engine} closed its pipes {during}")?;
                match status {
                    Some(status) => write!(f, " ({status})"),
                    None => Ok(()),
                }
            }
            ExternalError::Timeout { engine, waiting_for, after } => {
                write!(f, "UCI engine {engine} did not send {waiting_for} within {after:?}")
            }
            ExternalError::Io { engine, command, source } => {
                write!(f, "cannot send {command:?} to UCI engine {engine}: {source}")
            }
            ExternalError::UnknownOption { engine, name, available } => {
                write!(f, "UCI engine {engine} has no option {name:?}; its options are: {}", available.join(", "))
            }
            ExternalError::InvalidOptionValue { engine, name, value, reason } => {
                write!(f, "UCI engine {engine}: option {name:?} cannot be set to {value:?}: {reason}")
            }
            ExternalError::InvalidLimit(reason) => write!(f, "invalid UCI search limit: {reason}"),
            ExternalError::IllegalMove { engine, mv, fen } => {
                write!(f, "UCI engine {engine} played {mv}, which is illegal in {fen}")
            }
            ExternalError::UnparsableMove { engine, line, fen } => {
                write!(f, "UCI engine {engine} sent {line:?}, which has no UCI move, in {fen}")
            }
            ExternalError::NoMove { engine, text, fen } => {
                write!(f, "UCI engine {engine} answered `bestmove {text}` in {fen}, which has legal moves")
            }
            ExternalError::Unusable { engine, reason } => {
                write!(f, "UCI engine {engine} is unusable after an earlier error: {reason}")
            }
            ExternalError::NoScore { engine, fen } => {
                write!(f, "UCI engine {engine} sent no `info … score` line for {fen}")
            }
        }
    }
}

impl std::error::Error for ExternalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExternalError::Spawn { source, .. } | ExternalError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<ExternalError> for GameError {
    /// [`ExternalError::IllegalMove`] → [`GameError::IllegalMove`];
    /// [`UnparsableMove`](ExternalError::UnparsableMove) and
    /// [`NoMove`](ExternalError::NoMove) → [`GameError::Parse`] with
    /// `what = "engine move"`; anything else → [`GameError::Param`] with the
    /// parameter `"uci engine"` and the error's message as the reason.
    fn from(e: ExternalError) -> Self {
        let message = e.to_string();
        match e {
            ExternalError::IllegalMove { mv, .. } => GameError::illegal(mv, message),
            ExternalError::UnparsableMove { line, .. } => GameError::parse("engine move", line, 0, message),
            ExternalError::NoMove { text, .. } => GameError::parse("engine move", text, 0, message),
            _ => GameError::Param(ParamError::new("uci engine", message)),
        }
    }
}

/// One `option name …` line of the engine: its name and what values it
/// takes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct EngineOption {
    name: String,
    kind: OptionKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum OptionKind {
    /// `type check`: `true` or `false`.
    Check,
    /// `type spin` with its bounds (if declared).
    Spin { min: Option<i64>, max: Option<i64> },
    /// `type combo` with its `var` values.
    Combo(Vec<String>),
    /// `type button`: set without a value.
    Button,
    /// `type string`, or a type this agent does not know: any value.
    Other,
}

/// Why a value does not fit an engine's option (the reason of an
/// [`ExternalError::InvalidOptionValue`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum OptionValueError {
    /// A `check` option given something else than `true` or `false`.
    #[error("a check option takes `true` or `false`")]
    NotCheck,
    /// A `spin` option given something else than an integer.
    #[error("a spin option takes an integer")]
    NotInteger,
    /// A `spin` value outside the bounds the engine declared (`…` for a
    /// bound it did not declare).
    #[error("out of the engine's range {}..={}", bound(.min), bound(.max))]
    OutOfRange {
        /// The declared `min`.
        min: Option<i64>,
        /// The declared `max`.
        max: Option<i64>,
    },
    /// A `combo` value not among its `var`s.
    #[error("not one of its values: {}", .0.join(", "))]
    NotAVar(Vec<String>),
}

/// A spin option's bound as [`OptionValueError::OutOfRange`] shows it.
fn bound(b: &Option<i64>) -> String {
    b.map_or_else(|| "…".to_string(), |b| b.to_string())
}

impl EngineOption {
    /// Parses the text after `option ` (`name Hash type spin default 16 min
    /// 1 max 33554432`). Option names and string values may contain
    /// spaces: a field runs until the next keyword.
    fn parse(rest: &str) -> Option<EngineOption> {
        const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
        let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
        for token in rest.split_ascii_whitespace() {
            // `name` may legitimately contain other keywords only before
            // `type`; after it, keywords always start a field.
            let in_name = fields.last().is_some_and(|(k, _)| *k == "name");
            if KEYWORDS.contains(&token) && !(in_name && token != "type") {
                fields.push((token, Vec::new()));
            } else if let Some((_, words)) = fields.last_mut() {
                words.push(token);
            }
        }
        let field = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, w)| w.join(" "));
        let name = field("name").filter(|n| !n.is_empty())?;
        let kind = match field("type").as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("check") => OptionKind::Check,
            Some("spin") => OptionKind::Spin {
                min: field("min").and_then(|v| v.parse().ok()),
                max: field("max").and_then(|v| v.parse().ok()),
            },
            Some("combo") => {
                OptionKind::Combo(fields.iter().filter(|(k, _)| *k == "var").map(|(_, w)| w.join(" ")).collect())
            }
            Some("button") => OptionKind::Button,
            _ => OptionKind::Other,
        };
        Some(EngineOption { name, kind })
    }

    /// The `setoption` command for `value`, or why the value does not fit.
    fn command(&self, value: &str) -> Result<String, OptionValueError> {
        let value = value.trim();
        match &self.kind {
            OptionKind::Check if !(value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false")) => {
                return Err(OptionValueError::NotCheck);
            }
            OptionKind::Spin { min, max } => {
                let v: i64 = value.parse().map_err(|_| OptionValueError::NotInteger)?;
                if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
                    return Err(OptionValueError::OutOfRange { min: *min, max: *max });
                }
            }
            OptionKind::Combo(vars) if !vars.iter().any(|v| v.eq_ignore_ascii_case(value)) => {
                return Err(OptionValueError::NotAVar(vars.clone()));
            }
            OptionKind::Button => return Ok(format!("setoption name {}", self.name)),
            _ => {}
        }
        let value = match &self.kind {
            OptionKind::Check => value.to_ascii_lowercase(),
            _ => value.to_string(),
        };
        Ok(format!("setoption name {} value {value}", self.name))
    }
}

/// An engine's score of a position, from the side to move's point of
/// view, as its `info … score` lines give it.
///
/// ```
/// use games_chess::external::EngineScore;
///
/// assert_eq!(EngineScore::Centipawns(-35).centipawns(10_000), -35);
/// assert_eq!(EngineScore::Mate(3).centipawns(10_000), 10_000);
/// assert_eq!(EngineScore::Mate(-2).centipawns(10_000), -10_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineScore {
    /// `score cp N`: centipawns.
    Centipawns(i32),
    /// `score mate N`: the side to move mates in `N` moves (`N > 0`) or is
    /// mated in `−N` (`N ≤ 0`; `0`: it is mated now).
    Mate(i32),
}

impl EngineScore {
    /// The score in centipawns, a mate counted as `±mate`.
    pub fn centipawns(self, mate: i32) -> i32 {
        match self {
            EngineScore::Centipawns(cp) => cp,
            EngineScore::Mate(n) if n > 0 => mate,
            EngineScore::Mate(_) => -mate,
        }
    }

    /// The score of one `info` line (`info depth 12 … score cp 31 …`), and
    /// whether it is only a bound (`lowerbound` / `upperbound`).
    fn of_info(line: &str) -> Option<(EngineScore, bool)> {
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        words.find(|w| *w == "score")?;
        let score = match (words.next()?, words.next()?.parse::<i32>().ok()?) {
            ("cp", n) => EngineScore::Centipawns(n),
            ("mate", n) => EngineScore::Mate(n),
            _ => return None,
        };
        let bound = matches!(words.next(), Some("lowerbound" | "upperbound"));
        Some((score, bound))
    }
}

/// The game as the engine is told it: the first position this agent saw,
/// and the moves since, so that the engine knows the positions that came
/// before (repetitions) as it would in a GUI.
#[derive(Debug, Clone)]
struct GameRecord {
    start_fen: String,
    moves: Vec<String>,
    /// The position after `moves`.
    pos: Chess,
    /// Its FEN (with clocks: unique along one game).
    fen: String,
}

impl GameRecord {
    fn new(state: &ChessGame) -> Self {
        let fen = state.fen();
        GameRecord { start_fen: fen.clone(), moves: Vec::new(), pos: state.position().clone(), fen }
    }

    /// Brings the record to `state`: unchanged if it is the recorded
    /// position, one move appended if it is one legal move away (the
    /// opponent's reply), else a new record starting at `state` (a new
    /// game, or a game this agent did not follow).
    fn follow(&mut self, state: &ChessGame) {
        let target = state.fen();
        if target == self.fen {
            return;
        }
        for mv in self.pos.legal_moves() {
            let mut next = self.pos.clone();
            next.play_unchecked(mv);
            let fen = notation::fen(&next).to_string();
            if fen == target {
                self.moves.push(mv.to_uci(CastlingMode::Standard).to_string());
                self.pos = next;
                self.fen = fen;
                return;
            }
        }
        *self = GameRecord::new(state);
    }

    /// Appends the engine's own move.
    fn push(&mut self, mv: shakmaty::Move) {
        self.moves.push(mv.to_uci(CastlingMode::Standard).to_string());
        self.pos.play_unchecked(mv);
        self.fen = notation::fen(&self.pos).to_string();
    }

    /// The `position` command.
    fn command(&self) -> String {
        let mut cmd = format!("position fen {}", self.start_fen);
        if !self.moves.is_empty() {
            cmd.push_str(" moves");
            for mv in &self.moves {
                cmd.push(' ');
                cmd.push_str(mv);
            }
        }
        cmd
    }
}

/// An [`Agent<ChessGame>`] that asks an external UCI engine for its moves:
/// for `cargo xtask match chess …` with agent specs such as
/// `uci:/usr/games/stockfish,UCI_LimitStrength=true,UCI_Elo=1500`.
///
/// [`spawn`](Self::spawn) starts the program, runs the handshake (`uci` …
/// `uciok`), sets the options (checked against the engine's `option name`
/// lines; `Threads=1` and `Hash=16` unless given otherwise, when the engine
/// has them), then `isready` … `readyok` and `ucinewgame`. Each
/// [`choose`](Agent::choose) sends `position fen <start> moves …` and `go
/// <limit>`, waits for `bestmove` and checks that the move is legal;
/// [`reset`](Agent::reset) sends `ucinewgame` and waits for `readyok`;
/// dropping the agent sends `quit`, waits half a second, then kills the
/// process.
///
/// # The game the engine sees
///
/// [`ChessGame`] keeps its position and the Zobrist keys of the positions
/// since the last capture or pawn move, not the moves that led to it. The
/// agent therefore keeps its own record: the first position it was asked
/// about (after [`spawn`](Self::spawn) or [`reset`](Agent::reset)) and every
/// move since, its own and the opponent's (found as the one legal move
/// leading from the position after its own move to the next position it is
/// asked about). The engine thus sees the game's history and can judge
/// repetitions as in a GUI. When the next position is not one move away
/// (the agent was asked about an unrelated position), the record restarts
/// at that position's FEN: the engine then knows no history, and
/// repetitions are judged on our side only (by [`ChessGame`]'s rules).
/// The engine applies the full chess rules in its own search whatever
/// [`Rules`](crate::Rules) the game has; positions that are over by our
/// rules are never sent ([`GameError::GameOver`]).
///
/// # Determinism
///
/// With `Threads=1` (the default set here) and [`EngineLimit::Nodes`] or
/// [`EngineLimit::Depth`], Stockfish is deterministic: after `ucinewgame`
/// the same sequence of positions gives the same moves, in any process, so
/// matches are reproducible from their seed. [`EngineLimit::MoveTime`] is
/// not (the node count depends on the machine's speed and load).
///
/// With `UCI_LimitStrength=true` (or `Skill Level` below 20), Stockfish
/// picks a weakened move in `Skill::pick_best` with its own pseudo-random
/// generator, declared `static PRNG rng(now())` ("PRNG sequence should be
/// non-deterministic"): it is seeded from the clock when first used in the
/// process, and no option or command reseeds it. Games against a
/// strength-limited Stockfish are therefore **not** reproducible, even with
/// a node limit; the `rng` passed to [`choose`](Agent::choose) cannot reach
/// the engine and is not used.
///
/// # Errors and deadlines
///
/// The engine's output is read by a thread and every wait has a deadline:
/// the timeout ([`DEFAULT_TIMEOUT`], or the one given to
/// [`spawn_with_timeout`](Self::spawn_with_timeout) /
/// [`with_timeout`](Self::with_timeout)) for `uciok` and `readyok`, and the
/// timeout plus the limit's [`allowance`](EngineLimit::allowance) for
/// `bestmove`. A `bestmove` that is late is an [`ExternalError::Timeout`];
/// the agent then sends `stop` and waits one more timeout for the late
/// `bestmove`, and if none comes the agent is [unusable](ExternalError::Unusable).
///
/// The agent is `Send`, so matches can run on a thread pool.
///
/// # Example
///
/// ```no_run
/// use std::path::Path;
/// use games_chess::ChessGame;
/// use games_chess::external::{EngineLimit, UciEngineAgent};
/// use search_core::{arena::play_match, RandomAgent};
///
/// let options = [("UCI_LimitStrength".to_string(), "true".to_string()),
///                ("UCI_Elo".to_string(), "1500".to_string())];
/// let mut stockfish =
///     UciEngineAgent::spawn(Path::new("/usr/games/stockfish"), &options, EngineLimit::Nodes(2000))?;
/// println!("playing {}", stockfish.engine_name());
/// let game = play_match(&ChessGame::startpos(), &mut stockfish, &mut RandomAgent, 1, Some(200))?;
/// println!("{:?} after {} plies", game.outcome, game.moves.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct UciEngineAgent {
    path: PathBuf,
    /// From `id name` (the file name of `path` if the engine sent none).
    name: String,
    /// The options given to `spawn`, for [`Agent::name`].
    given: Vec<(String, String)>,
    limit: EngineLimit,
    timeout: Duration,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    record: Option<GameRecord>,
    /// Why the engine can no longer be used, after an error that left it in
    /// an unknown state.
    broken: Option<String>,
}

impl fmt::Debug for UciEngineAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UciEngineAgent")
            .field("path", &self.path)
            .field("name", &self.name)
            .field("options", &self.given)
            .field("limit", &self.limit)
            .field("timeout", &self.timeout)
            .field("pid", &self.child.id())
            .field("moves", &self.record.as_ref().map_or(0, |r| r.moves.len()))
            .field("broken", &self.broken)
            .finish_non_exhaustive()
    }
}

impl UciEngineAgent {
    /// Starts the engine at `path`, runs the handshake and sets `options`
    /// (name, value pairs; names as the engine spells them, compared without
    /// regard to case), with the [`DEFAULT_TIMEOUT`] for each answer.
    ///
    /// `Threads=1` and `Hash=16` are set first unless `options` names them
    /// (and only if the engine has them). A `check` value must be
    /// `true`/`false`, a `spin` an integer within the engine's bounds, a
    /// `combo` one of its values; a button is pressed whatever the value.
    ///
    /// # Errors
    ///
    /// [`ExternalError::Spawn`] (with the path) if the program cannot be
    /// run; [`Exited`](ExternalError::Exited) or
    /// [`Timeout`](ExternalError::Timeout) if it dies or does not answer
    /// `uci` / `isready`; [`UnknownOption`](ExternalError::UnknownOption)
    /// (listing the options it has) or
    /// [`InvalidOptionValue`](ExternalError::InvalidOptionValue) for a bad
    /// option; [`InvalidLimit`](ExternalError::InvalidLimit) for a zero
    /// limit. Nothing is left running on error.
    pub fn spawn(path: &Path, options: &[(String, String)], limit: EngineLimit) -> Result<Self, ExternalError> {
        Self::spawn_with_timeout(path, options, limit, DEFAULT_TIMEOUT)
    }

    /// [`spawn`](Self::spawn) with another timeout for the engine's answers
    /// (the handshake included): tests use a short one.
    ///
    /// # Errors
    ///
    /// As [`spawn`](Self::spawn).
    pub fn spawn_with_timeout(
        path: &Path,
        options: &[(String, String)],
        limit: EngineLimit,
        timeout: Duration,
    ) -> Result<Self, ExternalError> {
        limit.check()?;
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ExternalError::Spawn { path: path.to_path_buf(), source })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        let reader = thread::Builder::new().name("uci-engine-reader".into()).spawn(move || read_lines(stdout, tx));
        let fallback_name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        let mut agent = UciEngineAgent {
            path: path.to_path_buf(),
            name: fallback_name,
            given: options.to_vec(),
            limit,
            timeout,
            child,
            stdin,
            lines,
            record: None,
            broken: None,
        };
        if let Err(source) = reader {
            // Dropping the agent kills the child.
            let engine = agent.name.clone();
            return Err(ExternalError::Io { engine, command: "(start the reader thread)".into(), source });
        }
        agent.handshake(options)?;
        Ok(agent)
    }

    /// The same agent with another timeout for the engine's answers from now
    /// on (see [`UciEngineAgent`] on deadlines).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The engine's name, from its `id name` line (the program's file name
    /// if it sent none).
    pub fn engine_name(&self) -> &str {
        &self.name
    }

    /// The search limit sent with each `go`.
    pub fn limit(&self) -> EngineLimit {
        self.limit
    }

    /// The path the engine was started from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Asks the engine for a move in `state`, without the [`GameError`]
    /// conversion of [`choose`](Agent::choose).
    ///
    /// Unlike [`choose`](Agent::choose), it does not check first whether
    /// the game is over by our rules: the position is sent as it is, and an
    /// engine's `bestmove (none)` in a mate or stalemate is an
    /// [`ExternalError::NoMove`].
    ///
    /// # Errors
    ///
    /// [`ExternalError::Exited`], [`Timeout`](ExternalError::Timeout) or
    /// [`Io`](ExternalError::Io) if the engine dies, hangs or cannot be
    /// written to; [`IllegalMove`](ExternalError::IllegalMove),
    /// [`UnparsableMove`](ExternalError::UnparsableMove) or
    /// [`NoMove`](ExternalError::NoMove) for a bad `bestmove`;
    /// [`Unusable`](ExternalError::Unusable) after an earlier error that
    /// left the engine in an unknown state.
    pub fn best_move(&mut self, state: &ChessGame) -> Result<shakmaty::Move, ExternalError> {
        if let Some(reason) = &self.broken {
            return Err(ExternalError::Unusable { engine: self.name.clone(), reason: reason.clone() });
        }
        let record = match &mut self.record {
            Some(record) => {
                record.follow(state);
                record
            }
            None => self.record.insert(GameRecord::new(state)),
        };
        let position = record.command();
        let fen = record.fen.clone();
        self.send(&position)?;
        self.send(&format!("go {}", self.limit))?;
        let deadline = self.timeout.saturating_add(self.limit.allowance(self.timeout));
        let line = match self.wait_for("bestmove", deadline, |_| {}) {
            Ok(line) => line,
            Err(e @ ExternalError::Timeout { .. }) => {
                self.recover_from_late_search();
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let text = line.split_ascii_whitespace().nth(1).unwrap_or("");
        let engine = self.name.clone();
        if text == "(none)" || text == "0000" {
            return Err(ExternalError::NoMove { engine, text: text.to_string(), fen });
        }
        let mv = notation::parse_uci_strict(state.position(), text).map_err(|e| match e {
            GameError::IllegalMove { .. } => ExternalError::IllegalMove { engine, mv: text.to_string(), fen },
            _ => ExternalError::UnparsableMove { engine, line: GameError::shorten(&line), fen },
        })?;
        if let Some(record) = &mut self.record {
            record.push(mv);
        }
        Ok(mv)
    }

    /// The engine's score of `state` for the side to move, searched with
    /// `limit`: the last exact `info … score` line before `bestmove` (the
    /// last bound if every line is a bound). The position is sent as a FEN
    /// alone (no game history, so the engine knows no repetitions), and the
    /// game record of [`choose`](Agent::choose) is left as it is.
    ///
    /// With `Threads=1` and a node or depth limit the score is reproducible
    /// for the same sequence of calls in a fresh process (the hash table
    /// carries over from one call to the next).
    ///
    /// # Errors
    ///
    /// [`ExternalError::InvalidLimit`] for a zero limit;
    /// [`NoScore`](ExternalError::NoScore) if the engine gave no score (a
    /// finished position, for instance); otherwise as
    /// [`best_move`](Self::best_move) for a dead, hung or unusable engine.
    pub fn evaluate(&mut self, state: &ChessGame, limit: EngineLimit) -> Result<EngineScore, ExternalError> {
        if let Some(reason) = &self.broken {
            return Err(ExternalError::Unusable { engine: self.name.clone(), reason: reason.clone() });
        }
        limit.check()?;
        let fen = state.fen();
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go {limit}"))?;
        let deadline = self.timeout.saturating_add(limit.allowance(self.timeout));
        let (mut exact, mut bound) = (None, None);
        let waited = self.wait_for("bestmove", deadline, |line| match EngineScore::of_info(line) {
            Some((score, false)) => exact = Some(score),
            Some((score, true)) => bound = Some(score),
            None => {}
        });
        match waited {
            Ok(_) => {}
            Err(e @ ExternalError::Timeout { .. }) => {
                self.recover_from_late_search();
                return Err(e);
            }
            Err(e) => return Err(e),
        }
        exact.or(bound).ok_or_else(|| ExternalError::NoScore { engine: self.name.clone(), fen })
    }

    /// `uci` … `uciok`, the options, `isready` … `readyok`, `ucinewgame`.
    fn handshake(&mut self, options: &[(String, String)]) -> Result<(), ExternalError> {
        self.send("uci")?;
        let mut id_name = None;
        let mut engine_options = Vec::new();
        self.wait_for("uciok", self.timeout, |line| {
            if let Some(rest) = line.strip_prefix("id name ") {
                id_name = Some(rest.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option ")
                && let Some(option) = EngineOption::parse(rest)
            {
                engine_options.push(option);
            }
        })?;
        if let Some(name) = id_name.filter(|n| !n.is_empty()) {
            self.name = name;
        }
        let find = |name: &str| engine_options.iter().find(|o| o.name.eq_ignore_ascii_case(name.trim()));
        let mut commands = Vec::new();
        let mut named = HashSet::new();
        for (name, value) in options {
            let Some(option) = find(name) else {
                return Err(ExternalError::UnknownOption {
                    engine: self.name.clone(),
                    name: name.clone(),
                    available: engine_options.iter().map(|o| o.name.clone()).collect(),
                });
            };
            let command = option.command(value).map_err(|e| ExternalError::InvalidOptionValue {
                engine: self.name.clone(),
                name: option.name.clone(),
                value: value.clone(),
                reason: e.to_string(),
            })?;
            named.insert(option.name.to_ascii_lowercase());
            commands.push(command);
        }
        let mut defaults = Vec::new();
        for (name, value) in [("Threads", "1"), ("Hash", "16")] {
            if let Some(option) = find(name)
                && !named.contains(&option.name.to_ascii_lowercase())
                && let Ok(command) = option.command(value)
            {
                defaults.push(command);
            }
        }
        for command in defaults.iter().chain(&commands) {
            self.send(command)?;
        }
        self.sync()?;
        self.send("ucinewgame")?;
        self.sync()
    }

    /// `isready` … `readyok`.
    fn sync(&mut self) -> Result<(), ExternalError> {
        self.send("isready")?;
        self.wait_for("readyok", self.timeout, |_| {}).map(drop)
    }

    /// After a late `bestmove`: `stop`, then one more timeout for the
    /// `bestmove`; without it the engine's state is unknown.
    fn recover_from_late_search(&mut self) {
        let recovered = self.send("stop").is_ok() && self.wait_for("bestmove", self.timeout, |_| {}).is_ok();
        if !recovered {
            self.broken = Some(format!("no bestmove even after `stop` ({:?} late)", self.timeout));
        }
    }

    /// Sends one line.
    fn send(&mut self, command: &str) -> Result<(), ExternalError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited(format!("sending {}", first_word(command))));
        };
        match writeln!(stdin, "{command}").and_then(|()| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                Err(self.exited(format!("sending {}", first_word(command))))
            }
            Err(source) => {
                Err(ExternalError::Io { engine: self.name.clone(), command: first_word(command).into(), source })
            }
        }
    }

    /// Reads lines until one whose first word is `keyword` (returned),
    /// passing the others to `other`, for at most `limit`.
    fn wait_for(
        &mut self,
        keyword: &'static str,
        limit: Duration,
        mut other: impl FnMut(&str),
    ) -> Result<String, ExternalError> {
        let deadline = Instant::now().checked_add(limit);
        loop {
            let remaining = deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(Instant::now()));
            match self.lines.recv_timeout(remaining) {
                Ok(line) => {
                    if first_word(&line) == keyword {
                        return Ok(line);
                    }
                    other(&line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ExternalError::Timeout {
                        engine: self.name.clone(),
                        waiting_for: keyword,
                        after: limit,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited(format!("waiting for {keyword}"))),
            }
        }
    }

    /// The error for an engine that closed its pipes, with its exit status
    /// if it ends within a moment. The agent is unusable from then on.
    fn exited(&mut self, during: String) -> ExternalError {
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        let error = ExternalError::Exited { engine: self.name.clone(), during, status };
        self.broken = Some(error.to_string());
        error
    }
}

impl Agent<ChessGame> for UciEngineAgent {
    /// The engine's name, its limit and the options it was given:
    /// `Stockfish 15.1 (nodes 2000, UCI_Elo=1500)`.
    fn name(&self) -> String {
        let mut name = format!("{} ({}", self.name, self.limit);
        for (key, value) in &self.given {
            name.push_str(&format!(", {key}={value}"));
        }
        name.push(')');
        name
    }

    /// Sends the game so far and `go <limit>`, and returns the engine's
    /// `bestmove`, checked legal. `rng` is not used (see the type's
    /// documentation on determinism).
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`] if the game is over by our rules (nothing is
    /// sent); otherwise the [`ExternalError`]s of
    /// [`best_move`](UciEngineAgent::best_move), converted as documented on
    /// [`ExternalError`].
    fn choose(&mut self, state: &ChessGame, _rng: &mut dyn RngCore) -> Result<shakmaty::Move, GameError> {
        let mut moves = Vec::new();
        if let Status::Over(_) = state.generate(&mut moves) {
            return Err(GameError::GameOver);
        }
        Ok(self.best_move(state)?)
    }

    /// `ucinewgame`, then `isready` … `readyok`, and the game record is
    /// forgotten. A failure makes the agent [unusable](ExternalError::Unusable):
    /// the next [`choose`](Agent::choose) reports it.
    fn reset(&mut self) {
        self.record = None;
        if self.broken.is_some() {
            return;
        }
        if let Err(e) = self.send("ucinewgame").and_then(|()| self.sync()) {
            self.broken.get_or_insert_with(|| e.to_string());
        }
    }
}

impl Drop for UciEngineAgent {
    /// Sends `quit` and closes the engine's input, waits up to half a
    /// second for it to exit, then kills it. The reader thread ends when the
    /// engine's output closes; it is not waited for.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The first whitespace-separated word of `line`.
fn first_word(line: &str) -> &str {
    line.split_ascii_whitespace().next().unwrap_or("")
}

/// The reader thread: forwards the engine's output line by line (without
/// the line end, invalid UTF-8 replaced, lines cut at [`MAX_LINE_BYTES`])
/// until it closes or the agent is gone.
fn read_lines(stdout: ChildStdout, tx: mpsc::Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line_capped(&mut reader, &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if tx.send(line.trim_end_matches(['\n', '\r']).trim().to_string()).is_err() {
                    return;
                }
            }
        }
    }
}

/// Reads one line into `buf`, keeping at most [`MAX_LINE_BYTES`] of it.
/// Returns the number of bytes consumed (0 at the end of the output).
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(total);
        }
        let (used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&available[..used.min(room)]);
        reader.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_parse() {
        let o = EngineOption::parse("name Skill Level type spin default 20 min 0 max 20").unwrap();
        assert_eq!(
            o,
            EngineOption { name: "Skill Level".into(), kind: OptionKind::Spin { min: Some(0), max: Some(20) } }
        );
        assert_eq!(o.command("5").unwrap(), "setoption name Skill Level value 5");
        assert_eq!(o.command("21").unwrap_err().to_string(), "out of the engine's range 0..=20");
        assert!(o.command("x").is_err());
        let c = EngineOption::parse("name UCI_LimitStrength type check default false").unwrap();
        assert_eq!(c.command("TRUE").unwrap(), "setoption name UCI_LimitStrength value true");
        assert!(c.command("yes").is_err());
        let b = EngineOption::parse("name Clear Hash type button").unwrap();
        assert_eq!(b.command("").unwrap(), "setoption name Clear Hash");
        let s = EngineOption::parse("name SyzygyPath type string default <empty>").unwrap();
        assert_eq!(s.command("/a b").unwrap(), "setoption name SyzygyPath value /a b");
        let combo = EngineOption::parse("name Style type combo default Normal var Solid var Normal var Risky").unwrap();
        assert_eq!(combo.kind, OptionKind::Combo(vec!["Solid".into(), "Normal".into(), "Risky".into()]));
        assert!(combo.command("risky").is_ok());
        assert_eq!(combo.command("Wild").unwrap_err().to_string(), "not one of its values: Solid, Normal, Risky");
        let floor = EngineOption::parse("name Contempt type spin default 0 min -100").unwrap();
        assert_eq!(floor.command("-101").unwrap_err().to_string(), "out of the engine's range -100..=…");
        assert_eq!(floor.command("1.5").unwrap_err().to_string(), "a spin option takes an integer");
        assert_eq!(c.command("yes").unwrap_err().to_string(), "a check option takes `true` or `false`");
        let empty_default = EngineOption::parse("name Debug Log File type string default").unwrap();
        assert_eq!(empty_default.name, "Debug Log File");
        assert!(EngineOption::parse("type spin").is_none());
    }

    #[test]
    fn info_lines_give_scores() {
        let line = "info depth 10 seldepth 10 multipv 1 score cp 38 nodes 9912 nps 550666 pv d2d4 g8f6";
        assert_eq!(EngineScore::of_info(line), Some((EngineScore::Centipawns(38), false)));
        let line = "info depth 11 seldepth 11 multipv 1 score cp 26 upperbound nodes 20001 pv d2d4";
        assert_eq!(EngineScore::of_info(line), Some((EngineScore::Centipawns(26), true)));
        assert_eq!(EngineScore::of_info("info depth 3 score mate -2 pv a1a2"), Some((EngineScore::Mate(-2), false)));
        assert_eq!(EngineScore::of_info("info depth 0 score mate 0"), Some((EngineScore::Mate(0), false)));
        assert_eq!(EngineScore::of_info("info string NNUE evaluation using nn.nnue enabled"), None);
        assert_eq!(EngineScore::of_info("info depth 5 score wdl 1 2 3"), None);
        assert_eq!(EngineScore::of_info("bestmove e2e4"), None);
    }

    #[test]
    fn record_follows_the_game() {
        let mut g = ChessGame::startpos();
        let mut record = GameRecord::new(&g);
        assert_eq!(record.command(), format!("position fen {}", g.fen()));
        let e4 = g.parse_move("e2e4").unwrap();
        record.push(e4);
        g.play(e4);
        g.play_str("c7c5").unwrap();
        record.follow(&g);
        assert_eq!(record.moves, ["e2e4", "c7c5"]);
        record.follow(&g);
        assert_eq!(record.moves.len(), 2);
        // Two moves away: a fresh record at the new position.
        g.play_str("g1f3").unwrap();
        g.play_str("d7d6").unwrap();
        record.follow(&g);
        assert!(record.moves.is_empty());
        assert_eq!(record.start_fen, g.fen());
    }

    #[test]
    fn long_lines_are_cut() {
        let text = format!("{}\nbestmove e2e4\n", "x".repeat(MAX_LINE_BYTES * 2));
        let mut reader = BufReader::with_capacity(1000, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut reader, &mut buf).unwrap(), MAX_LINE_BYTES * 2 + 1);
        assert_eq!(buf.len(), MAX_LINE_BYTES);
        buf.clear();
        read_line_capped(&mut reader, &mut buf).unwrap();
        assert_eq!(buf, b"bestmove e2e4\n");
        buf.clear();
        assert_eq!(read_line_capped(&mut reader, &mut buf).unwrap(), 0);
    }
}
