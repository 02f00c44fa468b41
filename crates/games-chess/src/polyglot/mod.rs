//! Polyglot opening books (`.bin`): reading, choosing a move by weight,
//! and writing books made from games.
//!
//! A book is a sequence of 16-byte entries sorted by key, every field
//! big-endian: the position's 64-bit key, the move (16 bits), its weight
//! (16 bits) and a 32-bit "learn" field (unused here, written as 0). The
//! key is a Zobrist hash over the published Random64 table ([`key`]);
//! the move packs the destination file and rank (bits 0–5), the origin
//! (bits 6–11) and a promotion (bits 12–14: none, knight, bishop, rook,
//! queen); castling is written as the king taking its own rook (`e1h1`).
//!
//! ```
//! use games_chess::polyglot::{self, Book, BookBuilder};
//! use games_chess::ChessGame;
//! use search_core::Game;
//! assert_eq!(polyglot::key(ChessGame::startpos().position()), 0x463b_9618_1691_fc9c);
//!
//! // A book from two games: 1. e4 won, 1. d4 drew.
//! let mut b = BookBuilder::new(4);
//! let start = ChessGame::startpos();
//! b.add_game(start.position(), &[start.parse_move("e2e4")?], Some(1.0));
//! b.add_game(start.position(), &[start.parse_move("d2d4")?], Some(0.5));
//! let book = Book::from_entries(b.entries(1));
//! let moves = book.moves(start.position());
//! assert_eq!(moves.len(), 2);
//! assert_eq!((moves[0].1, moves[1].1), (2, 1)); // two points for the win, one for the draw
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod random;

use std::collections::HashMap;
use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

use search_core::RngCore;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use random::RANDOM64;

/// The Polyglot key of `pos`: the Random64 constants of its pieces
/// (`64 · piece + square`, with the pieces ordered black pawn, white pawn,
/// black knight, …, white king), its castling rights (768 + 0..4: white
/// short, white long, black short, black long), the en passant file
/// (772 + file, only when a pawn of the side to move stands beside the
/// pawn that just advanced two squares) and white to move (780).
///
/// ```
/// use games_chess::polyglot::key;
/// use games_chess::ChessGame;
/// use search_core::Game;
/// let mut g = ChessGame::startpos();
/// g.play_str("e2e4")?;
/// assert_eq!(key(g.position()), 0x823c_9b50_fd11_4196);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn key(pos: &Chess) -> u64 {
    let mut k = 0u64;
    for (sq, piece) in pos.board() {
        let kind = match piece.role {
            Role::Pawn => 0,
            Role::Knight => 1,
            Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::King => 5,
        };
        let index = 2 * kind + usize::from(piece.color == Color::White);
        k ^= RANDOM64[64 * index + sq.to_u32() as usize];
    }
    let castles = pos.castles();
    let rights = [
        (Color::White, CastlingSide::KingSide),
        (Color::White, CastlingSide::QueenSide),
        (Color::Black, CastlingSide::KingSide),
        (Color::Black, CastlingSide::QueenSide),
    ];
    for (i, (color, side)) in rights.into_iter().enumerate() {
        if castles.has(color, side) {
            k ^= RANDOM64[768 + i];
        }
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::PseudoLegal) {
        k ^= RANDOM64[772 + ep.file() as usize];
    }
    if pos.turn() == Color::White {
        k ^= RANDOM64[780];
    }
    k
}

/// The Polyglot encoding of `mv` (castling as the king taking its rook).
///
/// ```
/// use games_chess::polyglot::encode_move;
/// use games_chess::ChessGame;
/// use search_core::Game;
/// let g = ChessGame::startpos();
/// assert_eq!(encode_move(&g.parse_move("e2e4")?), (1 << 9) | (4 << 6) | (3 << 3) | 4);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn encode_move(mv: &Move) -> u16 {
    let (from, to) = match *mv {
        Move::Castle { king, rook } => (king, rook),
        _ => (mv.from().unwrap_or(Square::A1), mv.to()),
    };
    let promotion = match mv.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    let sq = |s: Square| (s.rank() as u16) << 3 | s.file() as u16;
    promotion << 12 | sq(from) << 6 | sq(to)
}

/// One book entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    /// The position's [`key`].
    pub key: u64,
    /// The move, [encoded](encode_move).
    pub mv: u16,
    /// Its weight (relative to the position's other moves).
    pub weight: u16,
    /// The learn field (kept as read).
    pub learn: u32,
}

/// Errors reading a book.
#[derive(Debug)]
#[non_exhaustive]
pub enum BookError {
    /// The file's length is not a multiple of 16 bytes.
    Length {
        /// The file.
        file: String,
        /// Its length.
        bytes: u64,
    },
    /// Reading failed.
    Io(std::io::Error),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Length { file, bytes } => {
                write!(f, "{file}: not a Polyglot book: {bytes} bytes is not a multiple of 16")
            }
            BookError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BookError {}

impl From<std::io::Error> for BookError {
    fn from(e: std::io::Error) -> Self {
        BookError::Io(e)
    }
}

/// A Polyglot book in memory, sorted by key.
#[derive(Debug, Clone, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of these entries (sorted here).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)).then(a.mv.cmp(&b.mv)));
        Book { entries }
    }

    /// Reads a book from its bytes; `file` names it in errors.
    ///
    /// Errors: a length that is not a multiple of 16.
    ///
    /// ```
    /// use games_chess::polyglot::Book;
    /// assert!(Book::from_bytes(&[0; 15], "x").is_err());
    /// assert_eq!(Book::from_bytes(&[0; 32], "x")?.len(), 2);
    /// # Ok::<(), games_chess::polyglot::BookError>(())
    /// ```
    pub fn from_bytes(bytes: &[u8], file: &str) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::Length { file: file.to_string(), bytes: bytes.len() as u64 });
        }
        let entries = bytes
            .chunks_exact(16)
            .map(|c| Entry {
                key: u64::from_be_bytes(c[0..8].try_into().unwrap_or_default()),
                mv: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..16].try_into().unwrap_or_default()),
            })
            .collect();
        Ok(Book::from_entries(entries))
    }

    /// Reads the book file at `path`.
    ///
    /// Errors: as [`from_bytes`](Book::from_bytes), or the file cannot be
    /// read.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)?.read_to_end(&mut bytes)?;
        Book::from_bytes(&bytes, &path.display().to_string())
    }

    /// Writes the book (16 bytes per entry, big-endian, sorted by key).
    ///
    /// Errors: the writer fails.
    pub fn write_to(&self, w: &mut impl Write) -> std::io::Result<()> {
        for e in &self.entries {
            w.write_all(&e.key.to_be_bytes())?;
            w.write_all(&e.mv.to_be_bytes())?;
            w.write_all(&e.weight.to_be_bytes())?;
            w.write_all(&e.learn.to_be_bytes())?;
        }
        Ok(())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries of the position with `key`.
    pub fn entries(&self, key: u64) -> &[Entry] {
        let from = self.entries.partition_point(|e| e.key < key);
        let to = self.entries.partition_point(|e| e.key <= key);
        &self.entries[from..to]
    }

    /// The book's legal moves in `pos` with their weights, heaviest first
    /// (entries whose move is not legal there, from a key collision or a
    /// damaged book, are skipped).
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let entries = self.entries(key(pos));
        if entries.is_empty() {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        let mut out: Vec<(Move, u16)> = Vec::new();
        for e in entries {
            if let Some(mv) = legal.iter().find(|m| encode_move(m) == e.mv)
                && !out.iter().any(|(m, _)| m == mv)
            {
                out.push((*mv, e.weight));
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }

    /// A move for `pos` drawn with probability proportional to its weight
    /// (moves of weight 0 are never drawn), with its weight and the total
    /// weight; `None` if the book has no move of positive weight here.
    ///
    /// ```
    /// use games_chess::polyglot::{Book, Entry, encode_move, key};
    /// use games_chess::ChessGame;
    /// use search_core::Game;
    /// let g = ChessGame::startpos();
    /// let e4 = g.parse_move("e2e4")?;
    /// let entry = Entry { key: key(g.position()), mv: encode_move(&e4), weight: 5, learn: 0 };
    /// let book = Book::from_entries(vec![entry]);
    /// let mut rng = search_core::rng::seeded(1);
    /// assert_eq!(book.choose(g.position(), &mut rng), Some((e4, 5, 5)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn choose(&self, pos: &Chess, rng: &mut dyn RngCore) -> Option<(Move, u16, u32)> {
        let moves = self.moves(pos);
        let total: u32 = moves.iter().map(|m| u32::from(m.1)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.next_u32() % total;
        for (mv, w) in moves {
            if pick < u32::from(w) {
                return Some((mv, w, total));
            }
            pick -= u32::from(w);
        }
        None
    }
}

/// Builds a book from games: for every position within the first
/// `max_plies` plies of each game, each move played there and the points
/// the side that played it scored (win 2, draw 1, loss 0; a game without
/// a result counts as played but scores nothing).
///
/// [`entries`](BookBuilder::entries) keeps the moves played in at least
/// `min_games` games, weighted by their points (`2 · wins + draws`); when
/// a weight exceeds 65,535 every weight of the book is scaled down by the
/// same factor (rounded, at least 1 for a move that scored), so the
/// proportions stay.
#[derive(Debug, Clone)]
pub struct BookBuilder {
    max_plies: usize,
    /// (key, move) → (games, points).
    stats: HashMap<(u64, u16), (u32, u64)>,
}

impl BookBuilder {
    /// A builder that looks at the first `max_plies` plies of each game.
    pub fn new(max_plies: usize) -> BookBuilder {
        BookBuilder { max_plies, stats: HashMap::new() }
    }

    /// Adds a game from `start` with `moves` (legal, in order) and white's
    /// `score` (1 win, 0.5 draw, 0 loss, `None` unknown).
    pub fn add_game(&mut self, start: &Chess, moves: &[Move], score: Option<f64>) {
        let mut pos = start.clone();
        for mv in moves.iter().take(self.max_plies) {
            let points = score.map_or(0, |s| {
                let mine = if pos.turn() == Color::White { s } else { 1.0 - s };
                (mine * 2.0).round() as u64
            });
            let e = self.stats.entry((key(&pos), encode_move(mv))).or_insert((0, 0));
            e.0 += 1;
            e.1 += points;
            pos.play_unchecked(*mv);
        }
    }

    /// The entries of the moves played at least `min_games` times.
    pub fn entries(&self, min_games: u32) -> Vec<Entry> {
        let kept: Vec<(&(u64, u16), u64)> =
            self.stats.iter().filter(|(_, s)| s.0 >= min_games).map(|(k, s)| (k, s.1)).collect();
        let top = kept.iter().map(|k| k.1).max().unwrap_or(0);
        let scale = if top > u64::from(u16::MAX) { top as f64 / f64::from(u16::MAX) } else { 1.0 };
        let mut out: Vec<Entry> = kept
            .into_iter()
            .map(|(&(key, mv), points)| {
                let w = if points == 0 { 0 } else { ((points as f64 / scale).round() as u64).clamp(1, 65_535) };
                Entry { key, mv, weight: w as u16, learn: 0 }
            })
            .collect();
        out.sort();
        out
    }
}
