//! The brain: a state machine that takes the manager's lines one at a time
//! and returns the reply lines ([`Brain::handle`]), and the loop that runs
//! it over a reader and a writer ([`run`]).

use std::io::{self, BufRead, Write};
use std::time::Instant;

use games_small::gobang::FiveRule;
use search_core::Game;
use search_core::rng::derive_seed;

use crate::clock::TimeControl;
use crate::error::{BrainError, shorten};
use crate::player::{Strategy, Thinker};
use crate::position::{Position, check_size};
use crate::protocol::{BoardLine, Command, Coord, Info, Reply, parse_board_line, parse_command, starts_with_command};

/// Lines longer than this are cut (the protocol allows it).
pub const MAX_LINE: usize = 4096;

/// Rule bits of `INFO rule`.
const RULE_EXACT: u64 = 1;
const RULE_CONTINUOUS: u64 = 2;
const RULE_RENJU: u64 = 4;
const RULE_CARO: u64 = 8;

/// How the brain plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrainConfig {
    /// Who chooses the moves.
    pub strategy: Strategy,
    /// Seeds every random choice: a move's generator is derived from it,
    /// the position's hash and the move number.
    pub seed: u64,
    /// Sends a `MESSAGE` about each move (depth, value, nodes, time, line).
    pub messages: bool,
    /// Transposition table of the default player, in MiB (capped by
    /// `INFO max_memory`).
    pub table_mib: usize,
}

impl Default for BrainConfig {
    fn default() -> Self {
        BrainConfig { strategy: Strategy::Auto, seed: 0, messages: true, table_mib: 64 }
    }
}

/// What the brain does after a line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Response {
    /// The lines to send, in order.
    pub replies: Vec<Reply>,
    /// True after `END`: the brain exits.
    pub quit: bool,
}

/// A `BOARD` block being read.
#[derive(Debug, Default)]
struct BoardBlock {
    own: Vec<Coord>,
    theirs: Vec<Coord>,
    /// The first problem found; the block is still read up to `DONE`.
    error: Option<BrainError>,
}

impl BoardBlock {
    fn fail(&mut self, e: BrainError) {
        self.error.get_or_insert(e);
    }
}

/// A Gomocup brain.
///
/// ```
/// use gomocup::brain::{Brain, BrainConfig};
/// use gomocup::protocol::{Coord, Reply};
/// let mut brain = Brain::new(BrainConfig { messages: false, ..BrainConfig::default() })?;
/// assert_eq!(brain.handle("START 15").replies, vec![Reply::Ok]);
/// brain.handle("INFO timeout_turn 50");
/// assert_eq!(brain.handle("BEGIN").replies, vec![Reply::Move(Coord { x: 7, y: 7 })]);
/// assert!(matches!(brain.handle("TURN 7,7").replies[..], [Reply::Error(_)])); // occupied
/// assert!(brain.handle("END").quit);
/// # Ok::<(), gomocup::BrainError>(())
/// ```
#[derive(Debug)]
pub struct Brain {
    config: BrainConfig,
    thinker: Thinker,
    /// The board size of the last successful `START`.
    size: Option<usize>,
    rule: FiveRule,
    position: Option<Position>,
    time: TimeControl,
    board: Option<BoardBlock>,
}

impl Brain {
    /// A brain playing as `config` says; an agent spec that cannot be built
    /// is an error.
    pub fn new(config: BrainConfig) -> Result<Brain, BrainError> {
        let thinker = Thinker::new(config.strategy.clone(), config.table_mib)?;
        Ok(Brain {
            config,
            thinker,
            size: None,
            rule: FiveRule::Freestyle,
            position: None,
            time: TimeControl::default(),
            board: None,
        })
    }

    /// The current position, if a game is set up.
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// The time limits the manager gave.
    pub fn time_control(&self) -> TimeControl {
        self.time
    }

    /// Handles one line from the manager (without its line break).
    pub fn handle(&mut self, line: &str) -> Response {
        let started = Instant::now();
        let line = line.trim();
        let mut response = Response::default();
        if self.board.is_some() {
            if line.is_empty() {
                return response;
            }
            if let Some(reply) = self.board_line(line, started) {
                response.replies.extend(reply);
                return response;
            }
            // A command interrupted the block: it was answered with an
            // error, and the command is handled below.
            response
                .replies
                .push(Reply::Error("BOARD: block ended by a command before DONE; the position is unchanged".into()));
        }
        if line.is_empty() {
            return response;
        }
        match parse_command(line) {
            Ok(cmd) => self.command(cmd, started, &mut response),
            Err(e) => response.replies.push(Reply::from_error(&e)),
        }
        response
    }

    /// A line inside a `BOARD` block: `None` if it is a command that ends
    /// the block early (the block is dropped).
    fn board_line(&mut self, line: &str, started: Instant) -> Option<Vec<Reply>> {
        let Some(block) = self.board.as_mut() else { return Some(Vec::new()) };
        match parse_board_line(line) {
            Some(BoardLine::Done) => {
                let block = self.board.take().unwrap_or_default();
                Some(self.board_done(block, started))
            }
            Some(BoardLine::Stone(c, field)) => {
                let size = self.size.unwrap_or(0);
                let cells = size * size;
                if c.x >= size as u64 || c.y >= size as u64 {
                    block.fail(BrainError::InvalidBoard(format!("{c} is off the {size}x{size} board")));
                } else if block.own.len() + block.theirs.len() >= cells {
                    block.fail(BrainError::InvalidBoard("more stones than points".into()));
                } else {
                    match field {
                        1 => block.own.push(c),
                        2 => block.theirs.push(c),
                        3 => block
                            .fail(BrainError::InvalidBoard(format!("{c}: field 3 (continuous game) is not supported"))),
                        f => block.fail(BrainError::InvalidBoard(format!("{c}: field {f} is not 1 or 2"))),
                    }
                }
                Some(Vec::new())
            }
            None if starts_with_command(line) => {
                self.board = None;
                None
            }
            None => {
                block
                    .fail(BrainError::InvalidBoard(format!("expected x,y,field or DONE, got {:?}", shorten(line, 32))));
                Some(Vec::new())
            }
        }
    }

    /// `DONE`: the position is set up and the brain moves.
    fn board_done(&mut self, block: BoardBlock, started: Instant) -> Vec<Reply> {
        if let Some(e) = block.error {
            return vec![Reply::from_error(&e)];
        }
        let Some(size) = self.size else { return vec![Reply::from_error(&BrainError::NotStarted)] };
        match Position::from_stones(size, self.rule, &block.own, &block.theirs) {
            Ok(p) => {
                // Not a new game for the tables: BOARD also continues games
                // (openings, undo), and their entries stay valid.
                self.position = Some(p);
                self.move_now(started)
            }
            Err(e) => vec![Reply::from_error(&e)],
        }
    }

    fn command(&mut self, cmd: Command, started: Instant, response: &mut Response) {
        let replies = &mut response.replies;
        let result: Result<(), BrainError> = match cmd {
            Command::Start(size) => self.start(size, size).map(|()| replies.push(Reply::Ok)),
            Command::RectStart(w, h) => self.start(w, h).map(|()| replies.push(Reply::Ok)),
            Command::Restart => match self.size {
                Some(size) => Position::new(size, self.rule).map(|p| {
                    self.position = Some(p);
                    self.time.time_left = None;
                    self.thinker.new_game();
                    replies.push(Reply::Ok);
                }),
                None => Err(BrainError::NotStarted),
            },
            Command::Begin => match &self.position {
                None => Err(BrainError::NotStarted),
                Some(p) if p.stones() > 0 => Err(BrainError::NotEmpty),
                Some(_) => {
                    replies.extend(self.move_now(started));
                    Ok(())
                }
            },
            Command::Turn(c) => self.opponent_moves(c).map(|()| replies.extend(self.move_now(started))),
            Command::Play(c) => match self.position.as_mut() {
                None => Err(BrainError::NotStarted),
                Some(p) => p.play(c).map(|_| replies.push(Reply::Move(c))),
            },
            Command::Takeback(c) => match self.position.as_mut() {
                None => Err(BrainError::NotStarted),
                Some(p) => p.takeback(c).map(|()| replies.push(Reply::Ok)),
            },
            Command::Board => {
                let mut block = BoardBlock::default();
                if self.size.is_none() {
                    block.fail(BrainError::NotStarted);
                }
                self.board = Some(block);
                Ok(())
            }
            Command::Info(info) => {
                self.info(info, replies);
                Ok(())
            }
            Command::End => {
                response.quit = true;
                Ok(())
            }
            Command::About => {
                replies.push(Reply::About(self.about()));
                Ok(())
            }
        };
        if let Err(e) = result {
            response.replies.push(Reply::from_error(&e));
        }
    }

    /// The opponent's stone at `c`; an error if it is illegal or ends the
    /// game (the stone stays: the brain has no move to answer).
    fn opponent_moves(&mut self, c: Coord) -> Result<(), BrainError> {
        let p = self.position.as_mut().ok_or(BrainError::NotStarted)?;
        p.play(c)?;
        p.check_ongoing()
    }

    fn start(&mut self, width: u64, height: u64) -> Result<(), BrainError> {
        // A failed START leaves no board, as a manager trying sizes expects.
        self.size = None;
        self.position = None;
        let size = check_size(width, height)?;
        self.position = Some(Position::new(size, self.rule)?);
        self.size = Some(size);
        // A new match: its clock starts full.
        self.time.time_left = None;
        self.thinker.new_game();
        Ok(())
    }

    fn info(&mut self, info: Info, replies: &mut Vec<Reply>) {
        match info {
            Info::TimeoutTurn(ms) => self.time.timeout_turn = ms,
            Info::TimeoutMatch(ms) => self.time.timeout_match = ms,
            Info::TimeLeft(ms) => self.time.time_left = Some(ms),
            Info::MaxMemory(bytes) => {
                // A quarter of the allowance for the table (resized at once),
                // the rest for the program and the agents' own tables.
                let mib = if bytes == 0 {
                    self.config.table_mib
                } else {
                    usize::try_from((bytes / 4) >> 20).unwrap_or(usize::MAX)
                };
                self.thinker.set_table_mib(mib.min(self.config.table_mib));
            }
            Info::Rule(bits) => self.set_rule(bits, replies),
            Info::Other(_) => {}
        }
    }

    fn set_rule(&mut self, bits: u64, replies: &mut Vec<Reply>) {
        let unsupported: Vec<&str> = [
            (RULE_CONTINUOUS, "continuous game"),
            (RULE_RENJU, "renju"),
            (RULE_CARO, "caro"),
            (!(RULE_EXACT | RULE_CONTINUOUS | RULE_RENJU | RULE_CARO), "unknown bits"),
        ]
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, name)| *name)
        .collect();
        let rule = if bits & RULE_EXACT != 0 { FiveRule::Exact } else { FiveRule::Freestyle };
        let name = |r: FiveRule| match r {
            FiveRule::Freestyle => "freestyle (five or more wins)",
            FiveRule::Exact => "exactly five wins",
        };
        if !unsupported.is_empty() {
            replies.push(Reply::Message(format!(
                "rule {bits}: {} not supported; playing {}",
                unsupported.join(", "),
                name(rule)
            )));
        }
        if rule == self.rule {
            return;
        }
        if let Some(p) = &self.position {
            match p.with_rule(rule) {
                Ok(q) => self.position = Some(q),
                Err(e) => {
                    replies.push(Reply::Message(format!(
                        "cannot change the rule in this game ({e}); still playing {}",
                        name(self.rule)
                    )));
                    return;
                }
            }
        }
        self.rule = rule;
        if self.position.is_some() {
            // The tables' entries were valued under the old rule (without a
            // game, the next START clears them).
            self.thinker.new_game();
        }
    }

    fn about(&self) -> String {
        let mut name = "backup-rules".to_string();
        if let Strategy::Spec(spec) = &self.config.strategy {
            name = format!("backup-rules {}", spec.replace('"', "'"));
        }
        format!(
            "name=\"{name}\", version=\"{}\", author=\"The backup-rules developers\", country=\"-\", www=\"https://github.com/game-search/backup-rules\"",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// The brain moves in the current position (not finished).
    fn move_now(&mut self, started: Instant) -> Vec<Reply> {
        let Some(position) = self.position.as_mut() else { return vec![Reply::from_error(&BrainError::NotStarted)] };
        if let Err(e) = position.check_ongoing() {
            return vec![Reply::from_error(&e)];
        }
        let game = *position.game();
        let key = game.hash_key().unwrap_or(0) ^ u64::from(game.moves_played()).rotate_left(32);
        let seed = derive_seed(self.config.seed, key);
        let budget = self.time.budget();
        let Some(found) = self.thinker.think(&game, budget, seed, started) else {
            return vec![Reply::Error("no legal move".into())];
        };
        let c = position.coord(found.mv);
        if let Err(e) = position.play(c) {
            return vec![Reply::Error(format!("internal: the move chosen is not legal ({e})"))];
        }
        if self.time.timeout_match > 0 {
            // Counts the move against the match clock, in case the manager
            // sends no `time_left` before the next one.
            let left = self.time.time_left.unwrap_or(self.time.timeout_match);
            let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            self.time.time_left = Some(left.saturating_sub(spent));
        }
        let mut replies = Vec::new();
        if self.config.messages {
            replies.push(Reply::Message(found.note));
        }
        replies.push(Reply::Move(c));
        replies
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes (the rest of a longer line
/// is dropped), without its line break; `None` at the end of the input.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done, used) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true, i + 1),
            None => (buf, false, buf.len()),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    while line.last().is_some_and(|&b| b == b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Runs `brain` over the manager's lines on `input`, writing its replies to
/// `output` (flushed after each line), until `END` or the end of the input.
///
/// ```
/// use gomocup::brain::{Brain, BrainConfig, run};
/// let mut brain = Brain::new(BrainConfig { messages: false, ..BrainConfig::default() })?;
/// let mut out = Vec::new();
/// run(&mut brain, "START 15\r\nINFO timeout_turn 100\r\nBEGIN\r\nEND\r\n".as_bytes(), &mut out)?;
/// assert_eq!(String::from_utf8(out)?, "OK\n7,7\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(brain: &mut Brain, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    while let Some(line) = read_line(&mut input)? {
        let response = brain.handle(&line);
        for reply in &response.replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
        if response.quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_crlf_dropped() {
        let text = format!("{}\r\nEND\r\n", "A".repeat(10_000));
        let mut r = text.as_bytes();
        assert_eq!(read_line(&mut r).unwrap().unwrap().len(), MAX_LINE);
        assert_eq!(read_line(&mut r).unwrap().unwrap(), "END");
        assert_eq!(read_line(&mut r).unwrap(), None);
        let mut r: &[u8] = b"\xff\xfeTURN\n";
        assert_eq!(read_line(&mut r).unwrap().unwrap(), "\u{fffd}\u{fffd}TURN");
    }

    #[test]
    fn rule_bits() {
        let mut b = Brain::new(BrainConfig { messages: false, ..BrainConfig::default() }).unwrap();
        assert!(b.handle("INFO rule 1").replies.is_empty());
        assert_eq!(b.rule, FiveRule::Exact);
        let r = b.handle("INFO rule 4").replies;
        assert!(matches!(&r[..], [Reply::Message(m)] if m.contains("renju")));
        assert_eq!(b.rule, FiveRule::Freestyle);
    }
}
