//! Rated games as a corpus of decisions: PGN files and Lichess-export CSV
//! files read into games, each game checked and either kept or counted
//! under the reason it was left out, and the kept games' moves turned into
//! [`Position`]s split into train, validation and test.

use std::collections::HashSet;
use std::fmt;

use shakmaty::Move;

use crate::ChessGame;
use crate::pgn::{self, PgnError, PgnGame};
use search_core::Game;

/// Which part of the corpus a game belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    /// Fitting the model's parameters.
    Train,
    /// Choosing among models (depth, features, regularisation).
    Validation,
    /// Reporting only: never used to fit or to choose.
    Test,
}

impl Split {
    /// The split of a game, from its identifier (the Lichess game id, or
    /// the file and line when there is none): a 64-bit FNV-1a hash of the
    /// identifier, 0–7 train, 8 validation, 9 test (mod 10).
    ///
    /// ```
    /// use games_chess::human::Split;
    /// assert_eq!(Split::of("xoMXrRFU"), Split::of("xoMXrRFU"));
    /// ```
    pub fn of(game_id: &str) -> Split {
        match fnv1a(game_id.as_bytes()) % 10 {
            0..=7 => Split::Train,
            8 => Split::Validation,
            _ => Split::Test,
        }
    }

    /// `train`, `validation` or `test`.
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Test => "test",
        }
    }
}

/// The 64-bit FNV-1a hash (stable across platforms and releases, unlike
/// the standard library's hasher).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Why a game of a file was left out of the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skip {
    /// Its movetext or a move does not parse, or a move is illegal.
    Unparsable,
    /// `WhiteElo` or `BlackElo` is missing or not a number.
    NoRating,
    /// A variant other than standard chess (Chess960, ...).
    Variant,
    /// It starts from a set-up position (`SetUp`/`FEN` tags).
    SetUp,
    /// The same game (same id) was already read from another file.
    Duplicate,
    /// A CSV row whose `rated` column says the game was casual (`FALSE`).
    Unrated,
}

impl Skip {
    /// Every reason, in report order.
    pub const ALL: [Skip; 6] =
        [Skip::Unparsable, Skip::NoRating, Skip::Variant, Skip::SetUp, Skip::Duplicate, Skip::Unrated];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Skip::Unparsable => "unparsable",
            Skip::NoRating => "no rating",
            Skip::Variant => "variant",
            Skip::SetUp => "set-up position",
            Skip::Duplicate => "duplicate",
            Skip::Unrated => "unrated",
        }
    }
}

/// A game left out: its file, line, reason and the detail (the parser's
/// message for an unparsable game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The file's name as given to [`Corpus::add_pgn`] or [`Corpus::add_csv`].
    pub file: String,
    /// The line the game (or the error) is on, 1-based.
    pub line: usize,
    /// Why.
    pub reason: Skip,
    /// What exactly.
    pub detail: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}: {}", self.file, self.line, self.reason.name(), self.detail)
    }
}

/// A game's time control: the clock each side starts with and the
/// increment added after each of its moves.
///
/// ```
/// use games_chess::human::{Speed, TimeControl};
/// // A PGN `TimeControl` tag counts seconds; a Lichess CSV's
/// // `increment_code` counts the base in minutes.
/// let tc = TimeControl::from_tag("600+5").unwrap();
/// assert_eq!(tc, TimeControl::from_minutes_code("10+5").unwrap());
/// assert_eq!((tc.base_seconds, tc.increment_seconds), (600, 5));
/// assert_eq!(tc.estimated_seconds(), 800);
/// assert_eq!(tc.speed(), Speed::Rapid);
/// assert_eq!(TimeControl::from_tag("-"), None); // correspondence
/// assert_eq!(TimeControl::from_tag("10 minutes"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each side's initial clock, in seconds.
    pub base_seconds: u32,
    /// Seconds added to a side's clock after each of its moves.
    pub increment_seconds: u32,
}

/// Lichess's speed categories, by a game's [estimated
/// duration](TimeControl::estimated_seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// 30 seconds to under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
}

impl Speed {
    /// Every category, fastest first.
    pub const ALL: [Speed; 5] = [Speed::UltraBullet, Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical];

    /// `ultrabullet`, `bullet`, `blitz`, `rapid` or `classical`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

impl TimeControl {
    /// Parses `BASE+INCREMENT` with both parts in seconds (a PGN
    /// `TimeControl` tag: `300+3`). `None` for anything else, such as `-`
    /// (no clock) or `?`.
    pub fn from_tag(text: &str) -> Option<TimeControl> {
        let (base, inc) = Self::parts(text)?;
        Some(TimeControl { base_seconds: base, increment_seconds: inc })
    }

    /// Parses `MINUTES+INCREMENT` (the base in minutes, the increment in
    /// seconds: a Lichess CSV's `increment_code`, `15+15`). `None` for
    /// anything else.
    pub fn from_minutes_code(text: &str) -> Option<TimeControl> {
        let (minutes, inc) = Self::parts(text)?;
        Some(TimeControl { base_seconds: minutes.checked_mul(60)?, increment_seconds: inc })
    }

    fn parts(text: &str) -> Option<(u32, u32)> {
        let (a, b) = text.trim().split_once('+')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    }

    /// The game's estimated duration per side, as Lichess counts it: the
    /// base plus forty increments.
    pub fn estimated_seconds(&self) -> u32 {
        self.base_seconds.saturating_add(self.increment_seconds.saturating_mul(40))
    }

    /// Its speed category.
    pub fn speed(&self) -> Speed {
        match self.estimated_seconds() {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }
}

/// One kept game: who played it, their ratings, and its moves.
#[derive(Debug, Clone)]
pub struct CorpusGame {
    /// The game's identifier (Lichess id, or `file:line`).
    pub id: String,
    /// The file it came from.
    pub file: String,
    /// White's and Black's names.
    pub players: [String; 2],
    /// White's and Black's ratings.
    pub ratings: [u32; 2],
    /// The moves, legal from the initial position.
    pub moves: Vec<Move>,
    /// Its split.
    pub split: Split,
    /// Its time control, when the file gives one that parses.
    pub time_control: Option<TimeControl>,
    /// White's score (1, ½ or 0), when the file gives the result.
    pub result: Option<f64>,
}

/// One decision of a rated player: the position (after the moves before
/// it), the move played, and who played it.
#[derive(Debug, Clone)]
pub struct Position {
    /// The position before the move (with its repetition history).
    pub state: ChessGame,
    /// The move the player chose.
    pub played: Move,
    /// The mover's rating.
    pub rating: u32,
    /// The ply (0 for White's first move).
    pub ply: usize,
    /// The game's index in [`Corpus::games`].
    pub game: usize,
    /// The game's split.
    pub split: Split,
}

/// Games read from files, with the count of those left out and why.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// The kept games, in reading order.
    pub games: Vec<CorpusGame>,
    /// The games left out.
    pub skipped: Vec<Skipped>,
    seen: HashSet<String>,
}

/// A CSV file that cannot be read as a table of games (no header, no
/// movetext column, an unterminated quote), with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvError {
    /// The file.
    pub file: String,
    /// The line, 1-based.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for CsvError {}

/// Splits CSV text into records of fields (RFC 4180: quoted fields may hold
/// commas, doubled quotes and newlines), each with the line it starts on.
fn csv_records(text: &str, file: &str) -> Result<Vec<(usize, Vec<String>)>, CsvError> {
    let mut out = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut line, mut start) = (1, 1);
    let mut quoted = false;
    let mut quote_line = 0;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push('\n');
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                quote_line = line;
                any = true;
            }
            ',' => {
                fields.push(std::mem::take(&mut field));
                any = true;
            }
            '\r' => {}
            '\n' => {
                if any || !field.is_empty() {
                    fields.push(std::mem::take(&mut field));
                    out.push((start, std::mem::take(&mut fields)));
                }
                any = false;
                line += 1;
                start = line;
            }
            _ => {
                field.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(CsvError { file: file.into(), line: quote_line, reason: "unterminated quoted field".into() });
    }
    if any || !field.is_empty() {
        fields.push(field);
        out.push((start, fields));
    }
    Ok(out)
}

/// White's score of a PGN result (`1-0`, `0-1`, `1/2-1/2`); `None` for `*`
/// or anything else.
fn white_score(result: &str) -> Option<f64> {
    match result.trim() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The trimmed field of column `column` of a CSV record, if the file has
/// that column and the record that field.
fn cell(fields: &[String], column: Option<usize>) -> Option<&str> {
    column.and_then(|c| fields.get(c)).map(|v| v.trim())
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Self {
        Corpus::default()
    }

    /// Reads a PGN file's games (named `file` in reports). A file that does
    /// not parse at all is one [`Skip::Unparsable`] entry with the line of
    /// the error; a game whose moves do not replay is counted and the rest
    /// of the file kept.
    ///
    /// ```
    /// use games_chess::human::{Corpus, Skip};
    /// let text = "[Site \"https://lichess.org/abc\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 e5 1-0\n\n\
    ///             [Site \"https://lichess.org/def\"]\n[WhiteElo \"1500\"]\n\n1. e4 e5 1-0\n";
    /// let mut c = Corpus::new();
    /// c.add_pgn("a.pgn", text);
    /// assert_eq!(c.games.len(), 1);
    /// assert_eq!(c.skipped[0].reason, Skip::NoRating);
    /// assert_eq!(c.skipped[0].line, 7);
    /// ```
    pub fn add_pgn(&mut self, file: &str, text: &str) {
        match pgn::parse(text) {
            Ok(games) => {
                for g in games {
                    self.add_game(file, &g);
                }
            }
            Err(e) => self.skip(file, e.line, Skip::Unparsable, e.reason),
        }
    }

    /// Reads a CSV file of games with a header row: the columns `WhiteElo`
    /// and `BlackElo` (or `white_rating`, `black_rating`), the movetext in
    /// `Moves`, `moves` or `PGN` (SAN, with or without move numbers), and
    /// optionally `White`/`Black` (or `white_id`/`black_id`), `Variant`,
    /// `FEN`, `SetUp`, `Site`, `GameId` or `id`, the result as `Result`
    /// (`1-0`, `0-1`, `1/2-1/2`) or `winner` (`white`, `black`, `draw`), the time control as
    /// `TimeControl` (seconds, `300+3`) or `increment_code` (minutes,
    /// `5+3`), `rated` (a game whose value is `FALSE` is left out as
    /// [`Skip::Unrated`]) and `turns` (the number of plies: a game whose
    /// moves replay to another number is [`Skip::Unparsable`]). Each row
    /// is a game; its errors carry the row's line.
    ///
    /// ```
    /// use games_chess::human::{Corpus, Skip, TimeControl};
    /// let csv = "id,rated,turns,increment_code,white_rating,black_rating,moves\n\
    ///            A1,TRUE,3,15+15,1200,1300,e4 e5 Nf3\n\
    ///            A2,TRUE,2,15+15,1200,1300,e4 e9\n\
    ///            A3,FALSE,2,15+15,1200,1300,e4 e5\n\
    ///            A4,TRUE,5,15+15,1200,1300,e4 e5\n";
    /// let mut c = Corpus::new();
    /// c.add_csv("g.csv", csv)?;
    /// assert_eq!(c.games.len(), 1);
    /// assert_eq!(c.games[0].time_control, TimeControl::from_tag("900+15"));
    /// assert_eq!(c.games[0].result, None); // no result column
    /// let skipped: Vec<(Skip, usize)> = c.skipped.iter().map(|s| (s.reason, s.line)).collect();
    /// assert_eq!(skipped, [(Skip::Unparsable, 3), (Skip::Unrated, 4), (Skip::Unparsable, 5)]);
    /// # Ok::<(), games_chess::human::CsvError>(())
    /// ```
    pub fn add_csv(&mut self, file: &str, text: &str) -> Result<(), CsvError> {
        let records = csv_records(text, file)?;
        let Some(((_, header), rows)) = records.split_first() else {
            return Err(CsvError { file: file.into(), line: 1, reason: "empty file: no header".into() });
        };
        let col = |names: &[&str]| header.iter().position(|h| names.contains(&h.trim()));
        let moves_col = col(&["Moves", "moves", "PGN", "pgn"]).ok_or_else(|| CsvError {
            file: file.into(),
            line: 1,
            reason: "no movetext column (Moves, moves or PGN)".into(),
        })?;
        let tag_cols: Vec<(&str, Option<usize>)> = vec![
            ("WhiteElo", col(&["WhiteElo", "white_rating"])),
            ("BlackElo", col(&["BlackElo", "black_rating"])),
            ("White", col(&["White", "white_id"])),
            ("Black", col(&["Black", "black_id"])),
            ("Variant", col(&["Variant"])),
            ("FEN", col(&["FEN"])),
            ("SetUp", col(&["SetUp"])),
            ("Site", col(&["Site"])),
            ("GameId", col(&["GameId", "id"])),
            ("TimeControl", col(&["TimeControl"])),
            ("Result", col(&["Result"])),
        ];
        let winner_col = col(&["winner"]);
        let minutes_col = col(&["increment_code"]);
        let rated_col = col(&["rated"]);
        let turns_col = col(&["turns"]);
        for (line, fields) in rows {
            if let Some(rated) = cell(fields, rated_col)
                && rated.eq_ignore_ascii_case("false")
            {
                self.skip(file, *line, Skip::Unrated, "rated is FALSE".into());
                continue;
            }
            let movetext = fields.get(moves_col).map(String::as_str).unwrap_or("");
            let parsed = pgn::parse(movetext).map_err(|e| PgnError { line: line + e.line - 1, reason: e.reason });
            let mut game = match parsed {
                Ok(mut v) if v.len() <= 1 => v.pop().unwrap_or_default(),
                Ok(_) => {
                    self.skip(file, *line, Skip::Unparsable, "the movetext holds more than one game".into());
                    continue;
                }
                Err(e) => {
                    self.skip(file, e.line, Skip::Unparsable, e.reason);
                    continue;
                }
            };
            game.line = *line;
            for m in &mut game.moves {
                m.1 += line - 1;
            }
            for (tag, c) in &tag_cols {
                // R's exports write a missing value as NA.
                if let Some(v) = cell(fields, *c).filter(|v| !v.is_empty() && *v != "NA") {
                    game.tags.push(((*tag).to_string(), v.to_string()));
                }
            }
            // A winner (`white`, `black`, `draw`) becomes the PGN result.
            if game.tag("Result").is_none()
                && let Some(result) = cell(fields, winner_col).and_then(|w| match w.to_ascii_lowercase().as_str() {
                    "white" => Some("1-0"),
                    "black" => Some("0-1"),
                    "draw" => Some("1/2-1/2"),
                    _ => None,
                })
            {
                game.tags.push(("Result".into(), result.into()));
            }
            // A minutes code becomes the PGN tag's seconds.
            if game.tag("TimeControl").is_none()
                && let Some(tc) = cell(fields, minutes_col).and_then(TimeControl::from_minutes_code)
            {
                game.tags.push(("TimeControl".into(), format!("{}+{}", tc.base_seconds, tc.increment_seconds)));
            }
            if let Some(turns) = cell(fields, turns_col).and_then(|v| v.parse::<usize>().ok())
                && turns != game.moves.len()
            {
                let detail = format!("turns says {turns} plies, the movetext has {}", game.moves.len());
                self.skip(file, *line, Skip::Unparsable, detail);
                continue;
            }
            self.add_game(file, &game);
        }
        Ok(())
    }

    fn skip(&mut self, file: &str, line: usize, reason: Skip, detail: String) {
        self.skipped.push(Skipped { file: file.into(), line, reason, detail });
    }

    /// Checks one game and keeps it or counts why not.
    fn add_game(&mut self, file: &str, g: &PgnGame) {
        if let Some(v) = g.tag("Variant")
            && !matches!(v.to_ascii_lowercase().as_str(), "standard" | "chess" | "")
        {
            return self.skip(file, g.line, Skip::Variant, format!("variant {v:?}"));
        }
        if g.tag("FEN").is_some() || g.tag("SetUp") == Some("1") {
            return self.skip(file, g.line, Skip::SetUp, "starts from a FEN position".into());
        }
        let rating = |tag: &str| g.tag(tag).and_then(|v| v.trim().parse::<u32>().ok());
        let (Some(w), Some(b)) = (rating("WhiteElo"), rating("BlackElo")) else {
            let shown = |t: &str| g.tag(t).unwrap_or("missing").to_string();
            return self.skip(
                file,
                g.line,
                Skip::NoRating,
                format!("WhiteElo {}, BlackElo {}", shown("WhiteElo"), shown("BlackElo")),
            );
        };
        let moves = match g.replay() {
            Ok((_, moves)) => moves,
            Err(e) => return self.skip(file, e.line, Skip::Unparsable, e.reason),
        };
        let id = g
            .tag("GameId")
            .map(str::to_string)
            .or_else(|| g.tag("Site").and_then(|s| s.rsplit('/').next()).map(str::to_string))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("{file}:{}", g.line));
        if !self.seen.insert(id.clone()) {
            return self.skip(file, g.line, Skip::Duplicate, format!("game {id} already read"));
        }
        let name = |t: &str| g.tag(t).unwrap_or("?").to_string();
        self.games.push(CorpusGame {
            split: Split::of(&id),
            id,
            file: file.into(),
            players: [name("White"), name("Black")],
            ratings: [w, b],
            moves,
            time_control: g.tag("TimeControl").and_then(TimeControl::from_tag),
            result: g.result.as_deref().or(g.tag("Result")).and_then(white_score),
        });
    }

    /// How many games were left out for `reason`.
    pub fn skipped_for(&self, reason: Skip) -> usize {
        self.skipped.iter().filter(|s| s.reason == reason).count()
    }

    /// Every decision of every kept game from ply `from_ply` on (the
    /// opening before it is left out), with positions that have a single
    /// legal move left out too (they say nothing about the player).
    pub fn positions(&self, from_ply: usize) -> Vec<Position> {
        let mut out = Vec::new();
        let mut legal = Vec::new();
        for (gi, g) in self.games.iter().enumerate() {
            let mut state = ChessGame::startpos();
            for (ply, &mv) in g.moves.iter().enumerate() {
                if ply >= from_ply {
                    legal.clear();
                    state.generate(&mut legal);
                    if legal.len() > 1 {
                        out.push(Position {
                            state: state.clone(),
                            played: mv,
                            rating: g.ratings[ply % 2],
                            ply,
                            game: gi,
                            split: g.split,
                        });
                    }
                }
                state.play(mv);
            }
        }
        out
    }
}

/// The 200-point rating band of `rating` as its lower end (800 for
/// 800–999), or `None` outside 800–2199.
///
/// ```
/// assert_eq!(games_chess::human::band_of(1234), Some(1200));
/// assert_eq!(games_chess::human::band_of(2200), None);
/// ```
pub fn band_of(rating: u32) -> Option<u32> {
    (800..2200).contains(&rating).then_some(rating / 200 * 200)
}

/// The bands the corpus is reported in: 800, 1000, ..., 2000.
pub const BANDS: [u32; 7] = [800, 1000, 1200, 1400, 1600, 1800, 2000];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_is_counted_with_its_line() {
        let text = "[Site \"https://lichess.org/g1\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 e5 1-0\n\n\
                    [Site \"https://lichess.org/g2\"]\n[Variant \"Chess960\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 e5 1-0\n\n\
                    [Site \"https://lichess.org/g3\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e3 1-0\n\n\
                    [Site \"https://lichess.org/g4\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 e5\n2. Ke3 1-0\n\n\
                    [Site \"https://lichess.org/g1\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 e5 1-0\n";
        let mut c = Corpus::new();
        c.add_pgn("t.pgn", text);
        assert_eq!(c.games.len(), 1);
        let got: Vec<(Skip, usize)> = c.skipped.iter().map(|s| (s.reason, s.line)).collect();
        assert_eq!(got, vec![(Skip::Variant, 7), (Skip::SetUp, 14), (Skip::Unparsable, 27), (Skip::Duplicate, 29)]);
        assert!(c.skipped[2].detail.contains("Ke3"), "{}", c.skipped[2].detail);
    }

    #[test]
    fn a_broken_file_is_one_error_with_its_line() {
        let mut c = Corpus::new();
        c.add_pgn("bad.pgn", "[WhiteElo \"1500\"]\n[BlackElo \"15\n\n1. e4 *\n");
        assert_eq!(c.skipped.len(), 1);
        assert_eq!((c.skipped[0].reason, c.skipped[0].line), (Skip::Unparsable, 2));
        assert!(c.skipped[0].to_string().starts_with("bad.pgn:2: unparsable"));
    }

    #[test]
    fn the_2013_2017_layout_reads_and_counts_its_rejections() {
        // The columns of the 2013–2017 file: SAN moves in one column, the
        // time control as minutes+seconds, `rated` and `turns` checked.
        let csv = "id,rated,turns,victory_status,winner,increment_code,white_id,white_rating,black_id,black_rating,moves\n\
                   a1,TRUE,4,resign,white,15+2,ann,1500,bob,1400,e4 e5 Nf3 Nc6\n\
                   a2,FALSE,2,resign,black,10+0,ann,1500,bob,1400,d4 d5\n\
                   a3,TRUE,5,resign,white,10+0,ann,1500,bob,1400,e4 e5 Nf3\n\
                   a4,TRUE,2,resign,white,10+0,ann,1500,bob,,e4 e5\n\
                   a5,TRUE,2,resign,white,10+0,ann,1500,bob,1400,e4 Ke7\n";
        let mut c = Corpus::new();
        c.add_csv("old.csv", csv).unwrap();
        assert_eq!(c.games.len(), 1);
        let g = &c.games[0];
        assert_eq!((g.id.as_str(), g.ratings, g.moves.len(), g.result), ("a1", [1500, 1400], 4, Some(1.0)));
        let tc = g.time_control.unwrap();
        assert_eq!((tc.base_seconds, tc.increment_seconds, tc.speed()), (900, 2, Speed::Rapid));
        let got: Vec<(Skip, usize)> = c.skipped.iter().map(|s| (s.reason, s.line)).collect();
        assert_eq!(got, vec![(Skip::Unrated, 3), (Skip::Unparsable, 4), (Skip::NoRating, 5), (Skip::Unparsable, 6)]);
    }

    #[test]
    fn csv_rows_keep_their_lines_and_quotes() {
        let csv = "Site,WhiteElo,BlackElo,Variant,Moves\n\
                   https://lichess.org/x1,1000,1100,Standard,\"1. e4 e5 2. Nf3 Nc6\"\n\
                   https://lichess.org/x2,1000,,Standard,1. d4 d5\n\
                   https://lichess.org/x3,1000,1100,Chess960,1. d4 d5\n\
                   https://lichess.org/x4,1000,1100,Standard,\"1. d4 d5\n2. Qxd5\"\n";
        let mut c = Corpus::new();
        c.add_csv("g.csv", csv).unwrap();
        assert_eq!(c.games.len(), 1);
        assert_eq!(c.games[0].id, "x1");
        assert_eq!(c.games[0].moves.len(), 4);
        let got: Vec<(Skip, usize)> = c.skipped.iter().map(|s| (s.reason, s.line)).collect();
        assert_eq!(got, vec![(Skip::NoRating, 3), (Skip::Variant, 4), (Skip::Unparsable, 6)]);
        assert!(Corpus::new().add_csv("h.csv", "a,b\n1,2\n").is_err());
        let e = Corpus::new().add_csv("q.csv", "Moves\n\"e4\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn time_controls_parse_and_fall_into_lichess_speeds() {
        let speed = |base, inc| TimeControl { base_seconds: base, increment_seconds: inc }.speed();
        assert_eq!([speed(29, 0), speed(30, 0), speed(15, 0)], [Speed::UltraBullet, Speed::Bullet, Speed::UltraBullet]);
        assert_eq!([speed(179, 0), speed(180, 0), speed(60, 3)], [Speed::Bullet, Speed::Blitz, Speed::Blitz]);
        assert_eq!([speed(479, 0), speed(480, 0), speed(1499, 0)], [Speed::Blitz, Speed::Rapid, Speed::Rapid]);
        assert_eq!([speed(1500, 0), speed(900, 15), speed(u32::MAX, u32::MAX)], [Speed::Classical; 3]);
        for bad in ["", "-", "?", "600", "600+", "+5", "a+b", "-1+0", "600+5+1"] {
            assert_eq!(TimeControl::from_tag(bad), None, "{bad:?}");
        }
        assert_eq!(TimeControl::from_minutes_code("99999999+0"), None, "overflow");
        assert_eq!(TimeControl::from_tag(" 60+1 "), Some(TimeControl { base_seconds: 60, increment_seconds: 1 }));
        // A PGN tag reaches the kept game; a game without one has none.
        let mut c = Corpus::new();
        c.add_pgn(
            "t.pgn",
            "[Site \"https://lichess.org/t1\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n[TimeControl \"180+2\"]\n\n1. e4 1-0\n\n\
             [Site \"https://lichess.org/t2\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 1-0\n",
        );
        let got: Vec<_> = c.games.iter().map(|g| g.time_control.map(|t| t.speed())).collect();
        assert_eq!(got, [Some(Speed::Blitz), None]);
        // A CSV's seconds column wins over its minutes code.
        let mut c = Corpus::new();
        c.add_csv("g.csv", "id,TimeControl,increment_code,white_rating,black_rating,moves\nz,60+0,10+0,900,900,e4\n")
            .unwrap();
        assert_eq!(c.games[0].time_control, TimeControl::from_tag("60+0"));
    }

    #[test]
    fn results_come_from_the_movetext_the_result_tag_or_the_winner_column() {
        let mut c = Corpus::new();
        c.add_pgn(
            "r.pgn",
            "[Site \"https://lichess.org/r1\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 0-1\n\n\
             [Site \"https://lichess.org/r2\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5\n\n\
             [Site \"https://lichess.org/r3\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1400\"]\n\n1. e4 *\n",
        );
        let got: Vec<Option<f64>> = c.games.iter().map(|g| g.result).collect();
        assert_eq!(got, [Some(0.0), Some(0.5), None]);
        let mut c = Corpus::new();
        let csv = "id,winner,white_rating,black_rating,moves\na,white,900,900,e4\nb,Black,900,900,e4\n\
                   c,draw,900,900,e4\nd,unknown,900,900,e4\n";
        c.add_csv("w.csv", csv).unwrap();
        let got: Vec<Option<f64>> = c.games.iter().map(|g| g.result).collect();
        assert_eq!(got, [Some(1.0), Some(0.0), Some(0.5), None]);
    }

    #[test]
    fn positions_skip_the_opening_and_forced_moves() {
        let mut c = Corpus::new();
        c.add_csv("g.csv", "id,white_rating,black_rating,moves\nq,900,1900,e4 e5 Nf3 Nc6 Bb5\n").unwrap();
        let p = c.positions(2);
        assert_eq!(p.len(), 3);
        assert_eq!((p[0].ply, p[0].rating, p[1].rating), (2, 900, 1900));
    }

    #[test]
    fn splits_are_stable_and_roughly_proportional() {
        let n = 10_000;
        let test = (0..n).filter(|i| Split::of(&format!("game{i}")) == Split::Test).count();
        assert!((800..1200).contains(&test), "{test}");
        assert_eq!(Split::of("xoMXrRFU"), Split::of("xoMXrRFU"));
    }
}
