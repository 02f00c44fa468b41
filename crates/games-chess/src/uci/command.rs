//! Parsing of the lines a GUI sends into typed [`Command`]s.
//!
//! Parsing is purely syntactic: it never fails with a panic, and every
//! failure is a [`ParseError`] naming what was wrong. Whether a FEN or a move
//! is legal is checked later, against a position.

use std::fmt;

/// Where a `position` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionBase {
    /// The standard initial position.
    Startpos,
    /// A position given as a FEN string (its fields joined by one space).
    Fen(String),
}

/// The parameters of a `go` command. Every field is optional; `None` means
/// the GUI did not send it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth D`: search `D` plies (≥ 1).
    pub depth: Option<u32>,
    /// `nodes N`: stop after about `N` nodes.
    pub nodes: Option<u64>,
    /// `movetime MS`: search exactly this long.
    pub movetime: Option<u64>,
    /// `wtime MS`: White's remaining clock time (negative values read as 0).
    pub wtime: Option<u64>,
    /// `btime MS`: Black's remaining clock time.
    pub btime: Option<u64>,
    /// `winc MS`: White's increment per move.
    pub winc: Option<u64>,
    /// `binc MS`: Black's increment per move.
    pub binc: Option<u64>,
    /// `movestogo N`: moves left until the next time control.
    pub movestogo: Option<u32>,
    /// `mate N`: look for a mate in `N` moves.
    pub mate: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search in pondering mode until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves m1 m2 …`: the moves the GUI wants searched (the engine
    /// searches every move and says so).
    pub searchmoves: Vec<String>,
}

impl GoParams {
    /// Whether the command gives clock time for either side.
    pub fn has_clock(&self) -> bool {
        self.wtime.is_some() || self.btime.is_some()
    }
}

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]` (the name may contain spaces).
    SetOption {
        /// The option's name as sent.
        name: String,
        /// Its value, if any (buttons have none).
        value: Option<String>,
    },
    /// `register …`: accepted and ignored (the engine needs no registration).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <FEN> [moves m1 m2 …]`.
    Position {
        /// The starting position.
        base: PositionBase,
        /// The moves played from it, as sent.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
}

/// Why a line is not a valid command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a UCI command.
    UnknownCommand(String),
    /// A command needs an argument that is missing.
    Missing {
        /// The command (or keyword) that needs it.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A word that does not belong where it stands.
    Unexpected {
        /// The command being parsed.
        command: &'static str,
        /// The offending word.
        token: String,
    },
    /// A number that does not parse or is out of range.
    BadNumber {
        /// The field (`depth`, `wtime`, …).
        field: &'static str,
        /// The text that was given.
        token: String,
        /// What was expected.
        expected: &'static str,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(word) => write!(f, "unknown command {word:?}"),
            ParseError::Missing { command, what } => write!(f, "`{command}` needs {what}"),
            ParseError::Unexpected { command, token } => write!(f, "unexpected {token:?} in `{command}`"),
            ParseError::BadNumber { field, token, expected } => {
                write!(f, "invalid `{field}` value {token:?}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one line. `Ok(None)` for a blank line (which the protocol says to
/// ignore).
///
/// ```
/// use games_chess::uci::{parse_command, Command, PositionBase};
/// let c = parse_command("position startpos moves e2e4 e7e5").unwrap().unwrap();
/// assert_eq!(c, Command::Position { base: PositionBase::Startpos, moves: vec!["e2e4".into(), "e7e5".into()] });
/// assert!(parse_command("go depth banana").is_err());
/// assert!(parse_command("   ").unwrap().is_none());
/// ```
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let mut tokens = line.split_whitespace();
    let Some(head) = tokens.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = tokens.collect();
    let command = match head {
        "uci" => no_args("uci", &rest, Command::Uci)?,
        "isready" => no_args("isready", &rest, Command::IsReady)?,
        "ucinewgame" => no_args("ucinewgame", &rest, Command::UciNewGame)?,
        "stop" => no_args("stop", &rest, Command::Stop)?,
        "ponderhit" => no_args("ponderhit", &rest, Command::PonderHit)?,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "debug" => match rest.as_slice() {
            ["on"] => Command::Debug(true),
            ["off"] => Command::Debug(false),
            [] => return Err(ParseError::Missing { command: "debug", what: "`on` or `off`" }),
            [other, ..] => return Err(ParseError::Unexpected { command: "debug", token: quote(other) }),
        },
        "setoption" => parse_setoption(&rest)?,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)?),
        other => return Err(ParseError::UnknownCommand(quote(other))),
    };
    Ok(Some(command))
}

/// A word of the input as an error quotes it: at most a short prefix (a
/// 50 MB line is never echoed back).
fn quote(word: &str) -> String {
    search_core::GameError::shorten(word)
}

fn no_args(command: &'static str, rest: &[&str], c: Command) -> Result<Command, ParseError> {
    match rest.first() {
        None => Ok(c),
        Some(t) => Err(ParseError::Unexpected { command, token: quote(t) }),
    }
}

/// `setoption name <words…> [value <words…>]`.
fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    const CMD: &str = "setoption";
    match rest.first() {
        Some(&"name") => {}
        Some(t) => return Err(ParseError::Unexpected { command: CMD, token: quote(t) }),
        None => return Err(ParseError::Missing { command: CMD, what: "`name <option>`" }),
    }
    let rest = &rest[1..];
    let split = rest.iter().position(|&t| t == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(ParseError::Missing { command: CMD, what: "an option name" });
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

/// `position startpos|fen <fields…> [moves m1 m2 …]`.
fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    const CMD: &str = "position";
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|m| m.to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let base = match head {
        ["startpos"] => PositionBase::Startpos,
        ["startpos", extra, ..] => return Err(ParseError::Unexpected { command: CMD, token: quote(extra) }),
        ["fen"] => return Err(ParseError::Missing { command: CMD, what: "a FEN after `fen`" }),
        ["fen", fields @ ..] => PositionBase::Fen(fields.join(" ")),
        [] => return Err(ParseError::Missing { command: CMD, what: "`startpos` or `fen <FEN>`" }),
        [other, ..] => return Err(ParseError::Unexpected { command: CMD, token: quote(other) }),
    };
    Ok(Command::Position { base, moves })
}

/// The keywords of `go`: a `searchmoves` list ends at the next one.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(rest: &[&str]) -> Result<GoParams, ParseError> {
    const CMD: &str = "go";
    let mut p = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        i += 1;
        match key {
            "infinite" => p.infinite = true,
            "ponder" => p.ponder = true,
            "searchmoves" => {
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                    p.searchmoves.push(rest[i].to_string());
                    i += 1;
                }
            }
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo" | "mate" => {
                let field: &'static str = GO_KEYWORDS.iter().find(|&&k| k == key).copied().unwrap_or("go");
                let Some(&token) = rest.get(i) else {
                    return Err(ParseError::Missing { command: field, what: "a number" });
                };
                i += 1;
                match field {
                    "depth" => p.depth = Some(positive_u32(field, token)?),
                    "mate" => p.mate = Some(positive_u32(field, token)?),
                    "movestogo" => p.movestogo = Some(positive_u32(field, token)?),
                    "nodes" => p.nodes = Some(positive_u64(field, token)?),
                    "movetime" => p.movetime = Some(milliseconds(field, token)?),
                    "wtime" => p.wtime = Some(milliseconds(field, token)?),
                    "btime" => p.btime = Some(milliseconds(field, token)?),
                    "winc" => p.winc = Some(milliseconds(field, token)?),
                    _ => p.binc = Some(milliseconds(field, token)?),
                }
            }
            other => return Err(ParseError::Unexpected { command: CMD, token: quote(other) }),
        }
    }
    Ok(p)
}

fn positive_u64(field: &'static str, token: &str) -> Result<u64, ParseError> {
    match token.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ParseError::BadNumber { field, token: quote(token), expected: "an integer >= 1" }),
    }
}

fn positive_u32(field: &'static str, token: &str) -> Result<u32, ParseError> {
    match token.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ParseError::BadNumber { field, token: quote(token), expected: "an integer from 1 to 4294967295" }),
    }
}

/// A time in milliseconds. Some GUIs send a slightly negative clock when a
/// player is about to lose on time: it reads as 0.
fn milliseconds(field: &'static str, token: &str) -> Result<u64, ParseError> {
    match token.parse::<i64>() {
        Ok(n) => Ok(n.max(0) as u64),
        Err(_) => Err(ParseError::BadNumber { field, token: quote(token), expected: "milliseconds (an integer)" }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> GoParams {
        match parse_command(line) {
            Ok(Some(Command::Go(p))) => p,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse_command("uci"), Ok(Some(Command::Uci)));
        assert_eq!(parse_command("  isready \t"), Ok(Some(Command::IsReady)));
        assert_eq!(parse_command("debug on"), Ok(Some(Command::Debug(true))));
        assert_eq!(parse_command("quit now"), Ok(Some(Command::Quit)));
        assert_eq!(parse_command(""), Ok(None));
        assert!(matches!(parse_command("isready now"), Err(ParseError::Unexpected { .. })));
        assert!(matches!(parse_command("debug"), Err(ParseError::Missing { .. })));
        assert_eq!(parse_command("bogus 1 2"), Err(ParseError::UnknownCommand("bogus".into())));
        // Commands are case-sensitive, as in the protocol.
        assert!(parse_command("UCI").is_err());
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            parse_command("setoption name Clear Hash"),
            Ok(Some(Command::SetOption { name: "Clear Hash".into(), value: None }))
        );
        assert_eq!(
            parse_command("setoption name Theta value 2.5"),
            Ok(Some(Command::SetOption { name: "Theta".into(), value: Some("2.5".into()) }))
        );
        assert_eq!(
            parse_command("setoption name Hash value"),
            Ok(Some(Command::SetOption { name: "Hash".into(), value: Some(String::new()) }))
        );
        assert!(parse_command("setoption").is_err());
        assert!(parse_command("setoption name").is_err());
        assert!(parse_command("setoption value 3").is_err());
    }

    #[test]
    fn position_forms() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        assert_eq!(
            parse_command(&format!("position fen {fen} moves e2e4")),
            Ok(Some(Command::Position { base: PositionBase::Fen(fen.into()), moves: vec!["e2e4".into()] }))
        );
        assert_eq!(
            parse_command("position startpos moves"),
            Ok(Some(Command::Position { base: PositionBase::Startpos, moves: vec![] }))
        );
        assert!(parse_command("position").is_err());
        assert!(parse_command("position fen").is_err());
        assert!(parse_command("position fen moves e2e4").is_err());
        assert!(parse_command("position startpos e2e4").is_err());
        assert!(parse_command("position somewhere").is_err());
    }

    #[test]
    fn go_parameters() {
        let p = go("go wtime 1000 btime -5 winc 10 binc 20 movestogo 7");
        assert_eq!((p.wtime, p.btime, p.winc, p.binc, p.movestogo), (Some(1000), Some(0), Some(10), Some(20), Some(7)));
        let p = go("go searchmoves e2e4 d2d4 depth 3 infinite");
        assert_eq!(p.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(p.depth, Some(3));
        assert!(p.infinite);
        assert_eq!(go("go"), GoParams::default());
        assert!(matches!(parse_command("go depth 0"), Err(ParseError::BadNumber { field: "depth", .. })));
        assert!(matches!(parse_command("go depth -1"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(parse_command("go nodes"), Err(ParseError::Missing { command: "nodes", .. })));
        assert!(matches!(parse_command("go movetime 1e3"), Err(ParseError::BadNumber { .. })));
        assert!(matches!(parse_command("go fast"), Err(ParseError::Unexpected { .. })));
        assert!(matches!(parse_command("go depth 99999999999"), Err(ParseError::BadNumber { .. })));
    }
}
