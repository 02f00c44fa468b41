//! PGN (Portable Game Notation) files: the games, their tags, moves and
//! results, with typed errors that carry the line.
//!
//! ```
//! use games_chess::pgn;
//! let games = pgn::parse("[White \"A\"]\n\n1. e4 e5 2. Nf3 {good} Nc6 1-0\n")?;
//! assert_eq!(games[0].tag("White"), Some("A"));
//! assert_eq!(games[0].result.as_deref(), Some("1-0"));
//! let (start, moves) = games[0].replay()?;
//! assert_eq!((start, moves.len()), (games_chess::ChessGame::startpos().fen(), 4));
//! # Ok::<(), games_chess::pgn::PgnError>(())
//! ```

use std::fmt;

use search_core::Game;
use shakmaty::Move;

use crate::ChessGame;

/// A malformed PGN file or game: the line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl PgnError {
    fn at(line: usize, reason: String) -> PgnError {
        PgnError { line, reason }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.reason)
    }
}

impl std::error::Error for PgnError {}

/// A game of a PGN file: where it starts, its tags, and its moves (SAN or
/// UCI text) with the line each is on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PgnGame {
    /// The line the game starts on (1-based).
    pub line: usize,
    /// The tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    /// The moves as written (move numbers and annotations removed), each
    /// with its line.
    pub moves: Vec<(String, usize)>,
    /// The result token that ended the movetext (`1-0`, `0-1`,
    /// `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN tags are).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The results that end a game's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Parses a PGN file into its games (moves are only split here, not
/// checked): tag pairs `[Name "value"]`, movetext with move numbers (`12.`,
/// `12...`, `12.e4`), SAN moves with annotations (`!`, `?`) dropped,
/// comments `{...}` and `;` to the end of the line, `%` escape lines,
/// variations `(...)` (nested, skipped), NAGs `$n`, and results. A game
/// ends at its result, at the next tag section, or at the end of the file.
/// Errors carry the line number.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let c: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0, 1);
    let mut games = Vec::new();
    let mut cur: Option<PgnGame> = None;
    let is_delim = |ch: char| ch.is_whitespace() || "{}()[];".contains(ch);
    // Skips to the end of the line (the newline is left).
    let skip_line = |i: &mut usize| {
        while *i < c.len() && c[*i] != '\n' {
            *i += 1;
        }
    };
    // Skips a comment starting at `i` (on the `{`).
    let skip_comment = |i: &mut usize, line: &mut usize| -> Result<(), PgnError> {
        let start = *line;
        *i += 1;
        while *i < c.len() && c[*i] != '}' {
            if c[*i] == '\n' {
                *line += 1;
            }
            *i += 1;
        }
        if *i == c.len() {
            return Err(PgnError::at(start, "unterminated comment: no closing }".into()));
        }
        *i += 1;
        Ok(())
    };
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        match ch {
            '%' if i == 0 || c[i - 1] == '\n' => skip_line(&mut i),
            ';' => skip_line(&mut i),
            '{' => skip_comment(&mut i, &mut line)?,
            '(' => {
                let start = line;
                let mut depth = 0;
                loop {
                    match c.get(i) {
                        None => return Err(PgnError::at(start, "unterminated variation: no closing )".into())),
                        Some('(') => depth += 1,
                        Some(')') => depth -= 1,
                        Some('{') => {
                            skip_comment(&mut i, &mut line)?;
                            continue;
                        }
                        Some(';') => {
                            skip_line(&mut i);
                            continue;
                        }
                        Some('\n') => line += 1,
                        Some(_) => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            ')' => return Err(PgnError::at(line, "unmatched )".into())),
            '}' => return Err(PgnError::at(line, "unmatched }".into())),
            '[' => {
                if cur.as_ref().is_some_and(|g| !g.moves.is_empty()) {
                    games.extend(cur.take());
                }
                let start = line;
                let mut j = i + 1;
                let mut name = String::new();
                while j < c.len() && (c[j] == ' ' || c[j] == '\t') {
                    j += 1;
                }
                while j < c.len() && (c[j].is_alphanumeric() || c[j] == '_') {
                    name.push(c[j]);
                    j += 1;
                }
                while j < c.len() && (c[j] == ' ' || c[j] == '\t') {
                    j += 1;
                }
                if name.is_empty() || c.get(j) != Some(&'"') {
                    return Err(PgnError::at(start, "malformed tag: expected [Name \"value\"]".into()));
                }
                j += 1;
                let mut value = String::new();
                loop {
                    match c.get(j) {
                        None | Some('\n') => {
                            return Err(PgnError::at(start, format!("tag {name}: unterminated string")));
                        }
                        Some('\\') if matches!(c.get(j + 1), Some('"' | '\\')) => {
                            value.push(c[j + 1]);
                            j += 2;
                        }
                        Some('"') => {
                            j += 1;
                            break;
                        }
                        Some(&x) => {
                            value.push(x);
                            j += 1;
                        }
                    }
                }
                while j < c.len() && (c[j] == ' ' || c[j] == '\t') {
                    j += 1;
                }
                if c.get(j) != Some(&']') {
                    return Err(PgnError::at(start, format!("tag {name}: expected ] after the value")));
                }
                i = j + 1;
                cur.get_or_insert_with(|| PgnGame { line: start, ..PgnGame::default() }).tags.push((name, value));
            }
            ']' => return Err(PgnError::at(line, "unmatched ]".into())),
            '$' => {
                i += 1;
                let from = i;
                while i < c.len() && c[i].is_ascii_digit() {
                    i += 1;
                }
                if i == from {
                    return Err(PgnError::at(line, "a NAG needs digits: $n".into()));
                }
            }
            _ => {
                let from = i;
                while i < c.len() && !is_delim(c[i]) {
                    i += 1;
                }
                let token: String = c[from..i].iter().collect();
                let game = cur.get_or_insert_with(|| PgnGame { line, ..PgnGame::default() });
                if RESULTS.contains(&token.as_str()) {
                    game.result = Some(token);
                    games.extend(cur.take());
                    continue;
                }
                // A move number: digits then dots, possibly glued to the move.
                let mut t = token.as_str();
                if t.starts_with(|ch: char| ch.is_ascii_digit()) {
                    let digits = t.trim_start_matches(|ch: char| ch.is_ascii_digit());
                    if digits.is_empty() || digits.starts_with('.') {
                        t = digits.trim_start_matches('.');
                    }
                }
                let t = t.trim_end_matches(['!', '?']);
                if t.is_empty() {
                    continue;
                }
                let t = match t {
                    "0-0" | "0-0+" | "0-0#" => t.replace('0', "O"),
                    "0-0-0" | "0-0-0+" | "0-0-0#" => t.replace('0', "O"),
                    _ => t.to_string(),
                };
                game.moves.push((t, line));
            }
        }
    }
    games.extend(cur.take());
    Ok(games)
}

impl PgnGame {
    /// The game's start (its `FEN` tag, or the initial position) as a FEN,
    /// and its moves checked legal one by one.
    ///
    /// Errors: a variant other than standard chess, a bad `FEN` tag, an
    /// illegal or unreadable move (with its line).
    pub fn replay(&self) -> Result<(String, Vec<Move>), PgnError> {
        if let Some(v) = self.tag("Variant")
            && !matches!(v.to_ascii_lowercase().as_str(), "standard" | "chess" | "")
        {
            return Err(PgnError::at(self.line, format!("variant {v:?} is not standard chess")));
        }
        let start = match self.tag("FEN") {
            Some(fen) => ChessGame::from_fen(fen).map_err(|e| PgnError::at(self.line, format!("FEN tag: {e}")))?,
            None => ChessGame::startpos(),
        };
        let mut g = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, (text, line)) in self.moves.iter().enumerate() {
            let mv = g.parse_move(text).map_err(|e| PgnError::at(*line, format!("move {} ({text}): {e}", i + 1)))?;
            g.play(mv);
            moves.push(mv);
        }
        Ok((start.fen(), moves))
    }
}
