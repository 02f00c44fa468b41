//! The protocol's text: parsing the manager's lines into [`Command`]s and
//! `BOARD` entries, and writing [`Reply`] lines. Pure functions, no state.
//!
//! ```
//! use gomocup::protocol::{Command, Coord, Info, parse_command};
//! assert_eq!(parse_command("turn 10, 4").unwrap(), Command::Turn(Coord { x: 10, y: 4 }));
//! assert_eq!(parse_command("INFO timeout_turn 5000").unwrap(), Command::Info(Info::TimeoutTurn(5000)));
//! assert!(parse_command("TURN -1,3").is_err());
//! ```

use std::fmt;

use crate::error::{BrainError, shorten};

/// A point as the protocol writes it: `x` the column from the left, `y` the
/// row from the top, both from 0. Not yet checked against the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column, 0 on the left.
    pub x: u64,
    /// Row, 0 at the top.
    pub y: u64,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// An `INFO key value` item.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Info {
    /// Time for each move in milliseconds (0: play as fast as possible).
    TimeoutTurn(u64),
    /// Time for the whole match in milliseconds (0: no limit).
    TimeoutMatch(u64),
    /// Time left for the rest of the match in milliseconds.
    TimeLeft(u64),
    /// Memory the brain may use, in bytes (0: no limit).
    MaxMemory(u64),
    /// The rule, a bit set: 1 exactly five wins, 2 continuous game, 4 renju,
    /// 8 caro.
    Rule(u64),
    /// Anything else (`game_type`, `evaluate`, `folder`, unknown keys): accepted
    /// and ignored.
    Other(String),
}

/// A command line of the manager.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// `START size`: a new empty square board.
    Start(u64),
    /// `RECTSTART width,height`: a new empty rectangular board.
    RectStart(u64, u64),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain opens the game on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain answers its move.
    Turn(Coord),
    /// `PLAY x,y`: the brain must play there (answers the same point).
    Play(Coord),
    /// `BOARD`: a whole position follows, one stone a line, up to `DONE`.
    Board,
    /// `INFO key value`.
    Info(Info),
    /// `END`: the brain exits.
    End,
    /// `ABOUT`: the brain describes itself.
    About,
    /// `TAKEBACK x,y`: remove the last stone played.
    Takeback(Coord),
}

/// The command words the brain knows (a line starting with one of them ends
/// an unterminated `BOARD` block).
pub const COMMANDS: [&str; 11] =
    ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "PLAY", "BOARD", "INFO", "END", "ABOUT", "TAKEBACK"];

/// A line inside a `BOARD` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardLine {
    /// `x,y,field`: 1 the brain's own stone, 2 the opponent's, 3 a stone of a
    /// finished line in a continuous game.
    Stone(Coord, u64),
    /// `DONE`: the block ends; the brain answers its move.
    Done,
}

/// A reply line of the brain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// `x,y`: the brain's move.
    Move(Coord),
    /// `ERROR message`.
    Error(String),
    /// `UNKNOWN message`.
    Unknown(String),
    /// `MESSAGE text`: information the manager shows to its user.
    Message(String),
    /// `DEBUG text`: information the manager may log.
    Debug(String),
    /// The answer to `ABOUT`: `name="…", version="…", …`.
    About(String),
}

impl Reply {
    /// The reply to a failed command: `UNKNOWN` for a command the brain
    /// does not implement, else `ERROR`.
    pub fn from_error(e: &BrainError) -> Reply {
        match e {
            BrainError::UnknownCommand(_) => Reply::Unknown(e.to_string()),
            _ => Reply::Error(e.to_string()),
        }
    }
}

/// One line of text: line breaks inside a message would end the line early.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => write!(f, "OK"),
            Reply::Move(c) => write!(f, "{c}"),
            Reply::Error(m) => write!(f, "ERROR {}", one_line(m)),
            Reply::Unknown(m) => write!(f, "UNKNOWN {}", one_line(m)),
            Reply::Message(m) => write!(f, "MESSAGE {}", one_line(m)),
            Reply::Debug(m) => write!(f, "DEBUG {}", one_line(m)),
            Reply::About(m) => write!(f, "{}", one_line(m)),
        }
    }
}

/// Splits a line into its first word (upper case) and the rest (trimmed).
fn split_word(line: &str) -> (String, &str) {
    let line = line.trim();
    match line.find(char::is_whitespace) {
        Some(i) => (line[..i].to_ascii_uppercase(), line[i..].trim()),
        None => (line.to_ascii_uppercase(), ""),
    }
}

/// Whether `word` looks like a command word (letters, digits, `_`,
/// starting with a letter): such a line is an unknown command, anything
/// else unreadable.
fn is_word(word: &str) -> bool {
    word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parses a non-negative integer of at most 18 digits (surrounding spaces
/// allowed).
fn number(text: &str) -> Option<u64> {
    let t = text.trim();
    (!t.is_empty() && t.len() <= 18 && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.parse().ok()).flatten()
}

/// Parses `x,y` (spaces around the numbers allowed).
pub fn parse_coord(text: &str) -> Option<Coord> {
    let (x, y) = text.split_once(',')?;
    Some(Coord { x: number(x)?, y: number(y)? })
}

fn bad(command: &'static str, reason: impl Into<String>) -> BrainError {
    BrainError::BadArgument { command, reason: reason.into() }
}

fn coord_arg(command: &'static str, arg: &str) -> Result<Coord, BrainError> {
    parse_coord(arg).ok_or_else(|| bad(command, format!("expected coordinates x,y, got {:?}", shorten(arg, 32))))
}

fn no_arg(command: &'static str, arg: &str, cmd: Command) -> Result<Command, BrainError> {
    if arg.is_empty() { Ok(cmd) } else { Err(bad(command, format!("takes no argument, got {:?}", shorten(arg, 32)))) }
}

/// Parses `INFO`'s argument: `key value`. Unknown keys are accepted
/// ([`Info::Other`]); a known numeric key with a value that is not a number
/// is an error. A negative time (some managers send one when a player is
/// over its time) counts as 0.
pub fn parse_info(arg: &str) -> Result<Info, BrainError> {
    let (key, value) = split_word(arg);
    if key.is_empty() {
        return Err(bad("INFO", "expected a key and a value"));
    }
    let key = key.to_ascii_lowercase();
    let numeric = |value: &str| -> Result<u64, BrainError> {
        let v = value.trim();
        if let Some(neg) = v.strip_prefix('-')
            && number(neg).is_some()
        {
            return Ok(0);
        }
        number(v).ok_or_else(|| bad("INFO", format!("{key} expects a number, got {:?}", shorten(value, 32))))
    };
    Ok(match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn(numeric(value)?),
        "timeout_match" => Info::TimeoutMatch(numeric(value)?),
        "time_left" => Info::TimeLeft(numeric(value)?),
        "max_memory" => Info::MaxMemory(numeric(value)?),
        "rule" => Info::Rule(numeric(value)?),
        _ => Info::Other(key),
    })
}

/// Parses one command line (not empty, not inside a `BOARD` block).
///
/// An unknown command word is [`BrainError::UnknownCommand`] (answered
/// `UNKNOWN`); a line that is not a command word at all, or a known command
/// with a bad argument, is another error (answered `ERROR`).
pub fn parse_command(line: &str) -> Result<Command, BrainError> {
    let (word, arg) = split_word(line);
    match word.as_str() {
        "START" => {
            let size = number(arg)
                .ok_or_else(|| bad("START", format!("expected a board size, got {:?}", shorten(arg, 32))))?;
            Ok(Command::Start(size))
        }
        "RECTSTART" => {
            let c = parse_coord(arg)
                .ok_or_else(|| bad("RECTSTART", format!("expected width,height, got {:?}", shorten(arg, 32))))?;
            Ok(Command::RectStart(c.x, c.y))
        }
        "RESTART" => no_arg("RESTART", arg, Command::Restart),
        "BEGIN" => no_arg("BEGIN", arg, Command::Begin),
        "TURN" => Ok(Command::Turn(coord_arg("TURN", arg)?)),
        "PLAY" => Ok(Command::Play(coord_arg("PLAY", arg)?)),
        "TAKEBACK" => Ok(Command::Takeback(coord_arg("TAKEBACK", arg)?)),
        "BOARD" => no_arg("BOARD", arg, Command::Board),
        "INFO" => Ok(Command::Info(parse_info(arg)?)),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        w if is_word(w) => Err(BrainError::UnknownCommand(shorten(w, 32))),
        _ => Err(BrainError::Unreadable(shorten(line.trim(), 40))),
    }
}

/// Parses a line inside a `BOARD` block: `x,y,field` or `DONE`. `None` if
/// it is neither.
pub fn parse_board_line(line: &str) -> Option<BoardLine> {
    let t = line.trim();
    if t.eq_ignore_ascii_case("DONE") {
        return Some(BoardLine::Done);
    }
    let mut parts = t.split(',');
    let (x, y, field) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    Some(BoardLine::Stone(Coord { x: number(x)?, y: number(y)? }, number(field)?))
}

/// Whether a line starts with one of the [`COMMANDS`] (case-insensitive).
pub fn starts_with_command(line: &str) -> bool {
    let (word, _) = split_word(line);
    COMMANDS.contains(&word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_case_insensitively() {
        assert_eq!(parse_command("start 15").unwrap(), Command::Start(15));
        assert_eq!(parse_command("  Begin  ").unwrap(), Command::Begin);
        assert_eq!(parse_command("RECTSTART 15,15").unwrap(), Command::RectStart(15, 15));
        assert_eq!(parse_command("TURN 3,4").unwrap(), Command::Turn(Coord { x: 3, y: 4 }));
        assert_eq!(parse_command("takeback 3 , 4").unwrap(), Command::Takeback(Coord { x: 3, y: 4 }));
        assert_eq!(parse_command("info rule 1").unwrap(), Command::Info(Info::Rule(1)));
        assert_eq!(parse_command("INFO folder C:\\a b").unwrap(), Command::Info(Info::Other("folder".into())));
        assert_eq!(parse_command("INFO time_left -20").unwrap(), Command::Info(Info::TimeLeft(0)));
    }

    #[test]
    fn bad_lines_are_typed_errors() {
        assert!(matches!(parse_command("FOO 1"), Err(BrainError::UnknownCommand(w)) if w == "FOO"));
        assert!(matches!(parse_command("§§§"), Err(BrainError::Unreadable(_))));
        assert!(matches!(parse_command("TURN 1;2"), Err(BrainError::BadArgument { command: "TURN", .. })));
        assert!(matches!(parse_command("TURN 99999999999999999999,1"), Err(BrainError::BadArgument { .. })));
        assert!(matches!(parse_command("START"), Err(BrainError::BadArgument { .. })));
        assert!(matches!(parse_command("INFO timeout_turn fast"), Err(BrainError::BadArgument { .. })));
        assert!(matches!(parse_command("BEGIN now"), Err(BrainError::BadArgument { .. })));
    }

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("7,7,1"), Some(BoardLine::Stone(Coord { x: 7, y: 7 }, 1)));
        assert_eq!(parse_board_line("done"), Some(BoardLine::Done));
        assert_eq!(parse_board_line("7,7"), None);
        assert_eq!(parse_board_line("7,7,1,1"), None);
        assert!(starts_with_command("turn 1,1"));
        assert!(!starts_with_command("1,1,1"));
    }

    #[test]
    fn replies_are_single_lines() {
        assert_eq!(Reply::Move(Coord { x: 7, y: 8 }).to_string(), "7,8");
        assert_eq!(Reply::Error("a\nb".into()).to_string(), "ERROR a b");
        assert_eq!(
            Reply::from_error(&BrainError::UnknownCommand("X".into())).to_string(),
            "UNKNOWN command X is not supported"
        );
    }
}
