//! Gambit's strategic-game file format (`.nfg`), both versions, read into
//! exact rationals.
//!
//! A file starts with the prologue `NFG 1 R "title" { "player" ... }`, then
//! the strategies, as counts `{ 3 2 }` or as names
//! `{ { "Top" "Bottom" } { "Left" "Right" } }` (counts name the strategies
//! `1`, `2`, ...), then an optional quoted comment. The body comes in one
//! of two versions:
//!
//! - **payoff version**: the payoff of every player for every strategy
//!   profile, profile by profile, player 1's strategy changing fastest,
//!   then player 2's, and so on; within a profile, player 1's payoff first;
//! - **outcome version**: a list of outcomes `{ { "name" u₁, u₂ } ... }`
//!   (commas between payoffs optional), then for every profile, in the same
//!   order, the number of its outcome (1-based; 0 is the null outcome, all
//!   payoffs zero).
//!
//! Whitespace separates tokens and is otherwise insignificant; a quoted
//! string may contain any character, with `\"` for a quote and `\\` for a
//! backslash. Numbers are integers, decimals (`-1.25`, `.5`, `2e3`) or
//! fractions (`3/4`), all read exactly. The version digit must be `1`; the
//! type letter `R` (or the obsolete `D`). Every error carries its line and
//! column (1-based, counted in characters).

use std::fmt;
use std::str::FromStr;

use num_bigint::BigInt;
use num_traits::{Pow, Zero};

use crate::game::{Bimatrix, Rational};

/// The most strategy profiles a file may define (the payoff table's rows).
pub const MAX_PROFILES: u128 = 1 << 22;

/// The largest decimal exponent a number may carry (`1e300` is read, `1e400` refused).
const MAX_EXPONENT: i64 = 300;

/// A place in the text: 1-based line and column (in characters).
///
/// ```
/// use equilibria::nfg::{Position, parse};
/// let err = parse("NFG 2 R").unwrap_err();
/// assert_eq!(err.at, Position { line: 1, column: 5 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What is wrong with a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NfgErrorKind {
    /// A quoted string runs to the end of the text.
    #[error("unterminated string")]
    UnterminatedString,
    /// The text ends where more was expected.
    #[error("unexpected end of file, expected {expected}")]
    UnexpectedEnd {
        /// What was expected.
        expected: String,
    },
    /// A token that does not belong here.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What was expected.
        expected: String,
        /// The token found.
        found: String,
    },
    /// A word that should be a number and is not.
    #[error("{0:?} is not a number (integers, decimals like -1.5 or 2e3, fractions like 3/4)")]
    BadNumber(String),
    /// The player list is empty.
    #[error("the game has no players")]
    NoPlayers,
    /// A player has no strategies.
    #[error("player {player} has no strategies")]
    NoStrategies {
        /// The player (1-based).
        player: usize,
    },
    /// The strategy lists do not match the players.
    #[error("{lists} strategy lists for {players} players")]
    StrategyLists {
        /// Lists given.
        lists: usize,
        /// Players named.
        players: usize,
    },
    /// Too many strategy profiles.
    #[error("{profiles} strategy profiles, more than the {max} supported")]
    TooLarge {
        /// The product of the strategy counts (saturated).
        profiles: u128,
        /// [`MAX_PROFILES`].
        max: u128,
    },
    /// An outcome lists the wrong number of payoffs.
    #[error("outcome {outcome} has {found} payoffs, expected one per player ({expected})")]
    OutcomeArity {
        /// The outcome (1-based).
        outcome: usize,
        /// Payoffs listed.
        found: usize,
        /// Players.
        expected: usize,
    },
    /// A profile refers to an outcome that does not exist.
    #[error("outcome {index} does not exist (the file defines {outcomes}; 0 is the null outcome)")]
    OutcomeIndex {
        /// The number written.
        index: String,
        /// Outcomes defined.
        outcomes: usize,
    },
    /// Text after the last payoff or outcome number.
    #[error("unexpected {0} after the end of the game (too many payoffs?)")]
    Trailing(String),
    /// The payoff table does not cover every profile (only possible for
    /// an [`NfgGame`] changed after reading).
    #[error("the payoff table does not give both players' payoffs for every profile")]
    IncompleteTable,
    /// The solvers take two-player games only.
    #[error("the game has {players} players; only two-player games are supported")]
    NotTwoPlayers {
        /// Players named.
        players: usize,
    },
}

/// A malformed (or unsupported) `.nfg` file: what and where.
///
/// ```
/// use equilibria::nfg::{NfgErrorKind, parse};
/// let err = parse("NFG 1 R \"t\" { \"A\" \"B\" } { 2 2 }\n1 2 3").unwrap_err();
/// assert!(matches!(err.kind, NfgErrorKind::UnexpectedEnd { .. }));
/// assert_eq!((err.at.line, err.at.column), (2, 6));
/// assert!(err.to_string().starts_with("line 2, column 6: unexpected end of file"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {kind}")]
pub struct NfgError {
    /// Where.
    pub at: Position,
    /// What.
    pub kind: NfgErrorKind,
}

/// Which version of the format a file used.
///
/// ```
/// use equilibria::nfg::{NfgVersion, parse};
/// let g = parse("NFG 1 R \"\" { \"1\" \"2\" } { 1 1 } 4 5")?;
/// assert_eq!(g.version, NfgVersion::Payoff);
/// # Ok::<(), equilibria::nfg::NfgError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NfgVersion {
    /// Payoffs listed profile by profile.
    Payoff,
    /// Outcomes, then an outcome number per profile.
    Outcome,
}

/// A strategic game read from a `.nfg` file, any number of players.
///
/// ```
/// use equilibria::{int, nfg::NfgGame};
/// let text = r#"NFG 1 R "Coordination" { "Row" "Column" }
/// { { "A" "B" } { "a" "b" } } ""
/// { { "win" 1, 1 } { "" 0, 0 } }
/// 1 2 2 1"#;
/// let g: NfgGame = text.parse()?;
/// assert_eq!(g.strategies[1], ["a", "b"]);
/// assert_eq!(g.payoff(&[1, 1]), Some(&[int(1), int(1)][..])); // (B, b): outcome 1
/// let bimatrix = g.to_bimatrix()?;
/// assert_eq!(bimatrix.a(1, 0), &int(0)); // (B, a): outcome 2
/// # Ok::<(), equilibria::nfg::NfgError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NfgGame {
    /// The title.
    pub title: String,
    /// The players' names.
    pub players: Vec<String>,
    /// Each player's strategy names (`"1"`, `"2"`, ... when the file gives counts).
    pub strategies: Vec<Vec<String>>,
    /// The optional comment after the strategies (empty if none).
    pub comment: String,
    /// The version of the format.
    pub version: NfgVersion,
    /// One payoff per player for every profile, player 1's strategy
    /// changing fastest (the file's order).
    pub payoffs: Vec<Vec<Rational>>,
    /// Where the player list starts (for [`NfgGame::to_bimatrix`]'s error).
    players_at: Position,
}

impl NfgGame {
    /// The index in [`NfgGame::payoffs`] of a profile (one 0-based strategy
    /// per player); `None` if it is not one.
    ///
    /// ```
    /// let g = equilibria::nfg::parse("NFG 1 R \"\" { \"1\" \"2\" } { 3 2 } 1 1 0 2 0 2 1 1 0 3 2 0")?;
    /// assert_eq!(g.profile_index(&[2, 0]), Some(2));
    /// assert_eq!(g.profile_index(&[0, 1]), Some(3));
    /// assert_eq!(g.profile_index(&[3, 0]), None);
    /// # Ok::<(), equilibria::nfg::NfgError>(())
    /// ```
    pub fn profile_index(&self, profile: &[usize]) -> Option<usize> {
        if profile.len() != self.strategies.len() {
            return None;
        }
        let mut index = 0;
        let mut stride = 1;
        for (s, list) in profile.iter().zip(&self.strategies) {
            if *s >= list.len() {
                return None;
            }
            index += s * stride;
            stride *= list.len();
        }
        Some(index)
    }

    /// Every player's payoff at a profile (one 0-based strategy per player).
    ///
    /// ```
    /// use equilibria::int;
    /// let g = equilibria::nfg::parse("NFG 1 R \"\" { \"1\" \"2\" } { 3 2 } 1 1 0 2 0 2 1 1 0 3 2 0")?;
    /// assert_eq!(g.payoff(&[1, 1]), Some(&[int(0), int(3)][..]));
    /// # Ok::<(), equilibria::nfg::NfgError>(())
    /// ```
    pub fn payoff(&self, profile: &[usize]) -> Option<&[Rational]> {
        self.profile_index(profile).and_then(|i| self.payoffs.get(i)).map(Vec::as_slice)
    }

    /// The game as a bimatrix (rows: player 1's strategies, columns: player
    /// 2's, in the file's order); [`NfgErrorKind::NotTwoPlayers`] (at the
    /// player list) for any other number of players.
    ///
    /// ```
    /// use equilibria::nfg::{NfgErrorKind, parse};
    /// let three = parse("NFG 1 R \"\" { \"1\" \"2\" \"3\" } { 1 1 1 } 0 0 0")?;
    /// let err = three.to_bimatrix().unwrap_err();
    /// assert_eq!(err.kind, NfgErrorKind::NotTwoPlayers { players: 3 });
    /// assert_eq!((err.at.line, err.at.column), (1, 12));
    /// # Ok::<(), equilibria::nfg::NfgError>(())
    /// ```
    pub fn to_bimatrix(&self) -> Result<Bimatrix, NfgError> {
        let not_two =
            || NfgError { at: self.players_at, kind: NfgErrorKind::NotTwoPlayers { players: self.players.len() } };
        if self.players.len() != 2 {
            return Err(not_two());
        }
        let incomplete = || NfgError { at: self.players_at, kind: NfgErrorKind::IncompleteTable };
        let m = self.strategies.first().map_or(0, Vec::len);
        let n = self.strategies.get(1).map_or(0, Vec::len);
        let cell = |i: usize, j: usize, p: usize| self.payoffs.get(i + j * m).and_then(|v| v.get(p)).cloned();
        let matrix = |p: usize| -> Option<Vec<Vec<Rational>>> {
            (0..m).map(|i| (0..n).map(|j| cell(i, j, p)).collect()).collect()
        };
        let (Some(a), Some(b)) = (matrix(0), matrix(1)) else { return Err(incomplete()) };
        Bimatrix::new(a, b).map_err(|_| incomplete())
    }
}

impl FromStr for NfgGame {
    type Err = NfgError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

/// A token of the format.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// A quoted string, unescaped.
    Str(String),
    /// A run of other characters (keywords, numbers).
    Word(String),
    Open,
    Close,
    Comma,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Str(s) if s.chars().count() > 30 => {
                write!(f, "string \"{}...\"", s.chars().take(30).collect::<String>())
            }
            Tok::Str(s) => write!(f, "string {s:?}"),
            Tok::Word(w) if w.chars().count() > 30 => write!(f, "{:?}...", w.chars().take(30).collect::<String>()),
            Tok::Word(w) => write!(f, "{w:?}"),
            Tok::Open => f.write_str("'{'"),
            Tok::Close => f.write_str("'}'"),
            Tok::Comma => f.write_str("','"),
        }
    }
}

/// Splits `text` into tokens with their positions; also returns the
/// position of the end.
fn lex(text: &str) -> Result<(Vec<(Tok, Position)>, Position), NfgError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut pos = Position { line: 1, column: 1 };
    let advance = |pos: &mut Position, c: char| {
        if c == '\n' {
            pos.line += 1;
            pos.column = 1;
        } else {
            pos.column += 1;
        }
    };
    while let Some(&c) = chars.peek() {
        let start = pos;
        match c {
            c if c.is_whitespace() => {
                chars.next();
                advance(&mut pos, c);
            }
            '{' | '}' | ',' => {
                chars.next();
                advance(&mut pos, c);
                out.push((
                    match c {
                        '{' => Tok::Open,
                        '}' => Tok::Close,
                        _ => Tok::Comma,
                    },
                    start,
                ));
            }
            '"' => {
                chars.next();
                advance(&mut pos, c);
                let mut s = String::new();
                loop {
                    let Some(c) = chars.next() else {
                        return Err(NfgError { at: start, kind: NfgErrorKind::UnterminatedString });
                    };
                    advance(&mut pos, c);
                    match c {
                        '"' => break,
                        '\\' => {
                            let Some(e) = chars.next() else {
                                return Err(NfgError { at: start, kind: NfgErrorKind::UnterminatedString });
                            };
                            advance(&mut pos, e);
                            s.push(e);
                        }
                        c => s.push(c),
                    }
                }
                out.push((Tok::Str(s), start));
            }
            _ => {
                let mut w = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || matches!(c, '{' | '}' | ',' | '"') {
                        break;
                    }
                    chars.next();
                    advance(&mut pos, c);
                    w.push(c);
                }
                out.push((Tok::Word(w), start));
            }
        }
    }
    Ok((out, pos))
}

/// An exact number: an integer, a decimal with optional exponent, or a
/// fraction `p/q`, with an optional sign.
fn number(text: &str) -> Option<Rational> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let value = if let Some((p, q)) = body.split_once('/') {
        if !digits(p) || !digits(q) {
            return None;
        }
        let (p, q) = (p.parse::<BigInt>().ok()?, q.parse::<BigInt>().ok()?);
        if q.is_zero() {
            return None;
        }
        Rational::new(p, q)
    } else {
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => {
                let e = &body[i + 1..];
                let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
                if !digits(unsigned) || unsigned.len() > 6 {
                    return None;
                }
                (&body[..i], e.parse::<i64>().ok()?)
            }
            None => (body, 0),
        };
        let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int_part.is_empty() && frac_part.is_empty()
            || !int_part.is_empty() && !digits(int_part)
            || !frac_part.is_empty() && !digits(frac_part)
        {
            return None;
        }
        let shift = exponent - frac_part.len() as i64;
        if exponent.abs() > MAX_EXPONENT {
            return None;
        }
        let n: BigInt = format!("{int_part}{frac_part}").parse().ok()?;
        let ten = BigInt::from(10);
        let scale = ten.pow(shift.unsigned_abs());
        if shift >= 0 { Rational::from_integer(n * scale) } else { Rational::new(n, scale) }
    };
    Some(if negative { -value } else { value })
}

/// A cursor over the tokens.
struct Parser {
    tokens: Vec<(Tok, Position)>,
    next: usize,
    end: Position,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.next).map(|t| &t.0)
    }

    fn here(&self) -> Position {
        self.tokens.get(self.next).map_or(self.end, |t| t.1)
    }

    fn error(&self, expected: &str) -> NfgError {
        let kind = match self.tokens.get(self.next) {
            Some((tok, _)) => NfgErrorKind::Unexpected { expected: expected.to_string(), found: tok.to_string() },
            None => NfgErrorKind::UnexpectedEnd { expected: expected.to_string() },
        };
        NfgError { at: self.here(), kind }
    }

    fn expect(&mut self, tok: &Tok, expected: &str) -> Result<Position, NfgError> {
        match self.tokens.get(self.next) {
            Some((t, at)) if t == tok => {
                let at = *at;
                self.next += 1;
                Ok(at)
            }
            _ => Err(self.error(expected)),
        }
    }

    fn word(&mut self, expected: &str) -> Result<(String, Position), NfgError> {
        match self.tokens.get(self.next) {
            Some((Tok::Word(w), at)) => {
                let r = (w.clone(), *at);
                self.next += 1;
                Ok(r)
            }
            _ => Err(self.error(expected)),
        }
    }

    fn string(&mut self, expected: &str) -> Result<String, NfgError> {
        match self.tokens.get(self.next) {
            Some((Tok::Str(s), _)) => {
                let s = s.clone();
                self.next += 1;
                Ok(s)
            }
            _ => Err(self.error(expected)),
        }
    }

    fn number(&mut self, expected: &str) -> Result<Rational, NfgError> {
        let (w, at) = self.word(expected)?;
        number(&w).ok_or(NfgError { at, kind: NfgErrorKind::BadNumber(w) })
    }

    /// `{ "a" "b" ... }`.
    fn strings(&mut self, what: &str) -> Result<Vec<String>, NfgError> {
        self.expect(&Tok::Open, &format!("'{{' opening the {what}"))?;
        let mut out = Vec::new();
        while self.peek() != Some(&Tok::Close) {
            out.push(self.string(&format!("a quoted name or '}}' closing the {what}"))?);
        }
        self.next += 1;
        Ok(out)
    }

    /// Fails if any token is left.
    fn finish(&self) -> Result<(), NfgError> {
        match self.tokens.get(self.next) {
            Some((tok, at)) => Err(NfgError { at: *at, kind: NfgErrorKind::Trailing(tok.to_string()) }),
            None => Ok(()),
        }
    }
}

/// Reads a `.nfg` file (either version, any number of players).
///
/// ```
/// use equilibria::{int, nfg::parse};
/// // The payoff version: the prisoners' dilemma with strategy counts.
/// let g = parse("NFG 1 R \"PD\" { \"A\" \"B\" } { 2 2 }\n-1 -1 0 -10 -10 0 -5 -5")?;
/// assert_eq!(g.strategies, [["1", "2"], ["1", "2"]]);
/// assert_eq!(g.payoff(&[1, 0]), Some(&[int(0), int(-10)][..]));
/// # Ok::<(), equilibria::nfg::NfgError>(())
/// ```
pub fn parse(text: &str) -> Result<NfgGame, NfgError> {
    let (tokens, end) = lex(text)?;
    let mut p = Parser { tokens, next: 0, end };
    p.expect(&Tok::Word("NFG".into()), "the keyword NFG")?;
    p.expect(&Tok::Word("1".into()), "the version number 1")?;
    if !matches!(p.peek(), Some(Tok::Word(w)) if w == "R" || w == "D") {
        return Err(p.error("the letter R"));
    }
    p.next += 1;
    let title = p.string("the quoted title of the game")?;
    let players_at = p.here();
    let players = p.strings("player list")?;
    if players.is_empty() {
        return Err(NfgError { at: players_at, kind: NfgErrorKind::NoPlayers });
    }
    let strategies_at = p.expect(&Tok::Open, "'{' opening the strategies (counts or name lists)")?;
    let mut strategies: Vec<Vec<String>> = Vec::new();
    if p.peek() == Some(&Tok::Open) {
        while p.peek() != Some(&Tok::Close) {
            let at = p.here();
            let list = p.strings("strategy names of a player")?;
            if list.is_empty() {
                return Err(NfgError { at, kind: NfgErrorKind::NoStrategies { player: strategies.len() + 1 } });
            }
            strategies.push(list);
        }
    } else {
        while p.peek() != Some(&Tok::Close) {
            let (w, at) = p.word("a number of strategies or '}'")?;
            let count = w.parse::<usize>().ok().filter(|&c| c as u128 <= MAX_PROFILES);
            let Some(count) = count else { return Err(NfgError { at, kind: NfgErrorKind::BadNumber(w) }) };
            if count == 0 {
                return Err(NfgError { at, kind: NfgErrorKind::NoStrategies { player: strategies.len() + 1 } });
            }
            strategies.push((1..=count).map(|s| s.to_string()).collect());
        }
    }
    p.next += 1;
    if strategies.len() != players.len() {
        let kind = NfgErrorKind::StrategyLists { lists: strategies.len(), players: players.len() };
        return Err(NfgError { at: strategies_at, kind });
    }
    let profiles = strategies.iter().fold(1u128, |acc, s| acc.saturating_mul(s.len() as u128));
    if profiles > MAX_PROFILES {
        return Err(NfgError { at: strategies_at, kind: NfgErrorKind::TooLarge { profiles, max: MAX_PROFILES } });
    }
    let profiles = profiles as usize;
    let comment = match p.peek() {
        Some(Tok::Str(_)) => p.string("a comment")?,
        _ => String::new(),
    };
    let n = players.len();
    let (version, payoffs) = if p.peek() == Some(&Tok::Open) {
        p.next += 1;
        let mut outcomes: Vec<Vec<Rational>> = Vec::new();
        while p.peek() != Some(&Tok::Close) {
            let at = p.expect(&Tok::Open, "'{' opening an outcome, or '}' closing the outcome list")?;
            p.string("the quoted name of the outcome")?;
            let mut pays = Vec::new();
            while p.peek() != Some(&Tok::Close) {
                if p.peek() == Some(&Tok::Comma) && !pays.is_empty() {
                    p.next += 1;
                }
                pays.push(p.number("a payoff or '}' closing the outcome")?);
            }
            p.next += 1;
            if pays.len() != n {
                let kind = NfgErrorKind::OutcomeArity { outcome: outcomes.len() + 1, found: pays.len(), expected: n };
                return Err(NfgError { at, kind });
            }
            outcomes.push(pays);
        }
        p.next += 1;
        let mut table = Vec::with_capacity(profiles);
        for k in 0..profiles {
            let (w, at) = p.word(&format!("the outcome number of profile {} of {profiles}", k + 1))?;
            let index = w.parse::<usize>().ok().filter(|&i| i <= outcomes.len());
            let Some(index) = index else {
                return Err(NfgError { at, kind: NfgErrorKind::OutcomeIndex { index: w, outcomes: outcomes.len() } });
            };
            table.push(if index == 0 { vec![Rational::zero(); n] } else { outcomes[index - 1].clone() });
        }
        (NfgVersion::Outcome, table)
    } else {
        let mut table = Vec::with_capacity(profiles);
        for k in 0..profiles {
            let mut pays = Vec::with_capacity(n);
            for player in 0..n {
                if p.peek() == Some(&Tok::Comma) {
                    p.next += 1;
                }
                pays.push(p.number(&format!("player {}'s payoff in profile {} of {profiles}", player + 1, k + 1))?);
            }
            table.push(pays);
        }
        (NfgVersion::Payoff, table)
    };
    p.finish()?;
    Ok(NfgGame { title, players, strategies, comment, version, payoffs, players_at })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{frac, int};

    #[test]
    fn numbers_are_exact() {
        assert_eq!(number("3"), Some(int(3)));
        assert_eq!(number("-3"), Some(int(-3)));
        assert_eq!(number("+3"), Some(int(3)));
        assert_eq!(number(".80"), Some(frac(4, 5)));
        assert_eq!(number("1.60"), Some(frac(8, 5)));
        assert_eq!(number("-0.125"), Some(frac(-1, 8)));
        assert_eq!(number("99/100"), Some(frac(99, 100)));
        assert_eq!(number("-1/2"), Some(frac(-1, 2)));
        assert_eq!(number("2e3"), Some(int(2000)));
        assert_eq!(number("2.5E-1"), Some(frac(1, 4)));
        assert_eq!(number("5."), Some(int(5)));
        for bad in ["", "-", ".", "1/0", "1/-2", "a", "1e", "1e400", "1.2.3", "1/2/3", "--1", "e5", "0x10", "1e+"] {
            assert_eq!(number(bad), None, "{bad}");
        }
    }

    #[test]
    fn strings_unescape() {
        let g = parse(r#"NFG 1 R "say \"hi\" \\ now" { "A" "B" } { 1 1 } 0 0"#).unwrap();
        assert_eq!(g.title, r#"say "hi" \ now"#);
    }
}
