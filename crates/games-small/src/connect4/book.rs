//! A connect-4 opening book: the exact score of every position up to some
//! number of plies, mirror images merged, in a compact checked file.
//!
//! A [`Book`] answers [`probe`](Book::probe) (a position's exact score, from
//! the side to move's point of view, as the solver counts it) and
//! [`best_move`](Book::best_move) (a move keeping that score), for every
//! position of its board with at most [`plies`](Book::plies) discs whose game
//! is not over. [`solver::build_book`](crate::solver::build_book) makes one;
//! `cargo xtask book connect4` writes one to a file.
//!
//! # Symmetry
//!
//! A position and its mirror image (columns reversed) have the same score,
//! so the book keeps one entry for both, under the smaller of their two
//! perfect keys ([`Connect4::key`]; the key of a position is column by
//! column, so the mirror's key is the key's columns reversed).
//!
//! # File format (version 1)
//!
//! All integers little-endian.
//!
//! | offset | bytes | field |
//! | --- | --- | --- |
//! | 0 | 6 | magic `C4BOOK` |
//! | 6 | 2 | format version, 1 |
//! | 8 | 1 | board width |
//! | 9 | 1 | board height |
//! | 10 | 1 | plies: every unfinished position with at most this many discs is in the book |
//! | 11 | 1 | key bytes `k` = ⌈width × (height + 1) / 8⌉ |
//! | 12 | 4 | entry count `n` |
//! | 16 | 8 | checksum: 64-bit FNV-1a of the `n` entries' bytes |
//! | 24 | `n × (k + 1)` | entries, by increasing key: the canonical key in `k` bytes, then the score as a signed byte |
//!
//! On the 7 × 6 board an entry takes 8 bytes. A file that is short, long,
//! unsorted, of another version or board, or whose checksum does not match
//! is refused with a [`BookError`], never a panic.
//!
//! ```
//! use games_small::connect4::{Book, Connect4};
//! use games_small::solver::build_book;
//!
//! // Every position of the 4 × 4 board up to 3 discs (4 × 4 is a draw).
//! let book = build_book(4, 4, 3, 1, |_| {})?;
//! assert_eq!(book.probe(&Connect4::new(4, 4)?), Some(0));
//! let mut bytes = Vec::new();
//! book.write_to(&mut bytes)?;
//! assert_eq!(Book::read_from(&bytes[..])?, book);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use search_core::search::{Oracle, Probe};

use super::board::{Column, Connect4};

/// The first six bytes of a book file.
pub const BOOK_MAGIC: &[u8; 6] = b"C4BOOK";
/// The format version this library writes and reads.
pub const BOOK_VERSION: u16 = 1;
/// The header's length in bytes.
const HEADER_BYTES: usize = 24;

/// Why a book could not be read, or does not fit.
#[derive(Debug)]
#[non_exhaustive]
pub enum BookError {
    /// Reading or writing failed.
    Io(io::Error),
    /// The file does not start with [`BOOK_MAGIC`]: not a connect-4 book.
    NotABook,
    /// A format version this library does not read.
    Version(u16),
    /// The header's board, plies or key size is impossible.
    Header(String),
    /// The file is shorter or longer than its header says.
    Length {
        /// The length the header implies, in bytes.
        expected: u64,
        /// The file's length, in bytes.
        found: u64,
    },
    /// The entries' checksum does not match the header's.
    Checksum {
        /// The header's checksum.
        expected: u64,
        /// The entries'.
        found: u64,
    },
    /// An entry is out of order, or its score is impossible.
    Entry {
        /// Its index.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A board or table size the solver rejects (building a book).
    Param(search_core::ParamError),
    /// The book is for another board than the one it is used with.
    Board {
        /// The book's width and height.
        book: (usize, usize),
        /// The board's.
        wanted: (usize, usize),
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "book: {e}"),
            BookError::NotABook => write!(f, "not a connect-4 book (no C4BOOK magic)"),
            BookError::Version(v) => write!(f, "book format version {v}, this library reads {BOOK_VERSION}"),
            BookError::Header(reason) => write!(f, "bad book header: {reason}"),
            BookError::Param(e) => write!(f, "book: {e}"),
            BookError::Length { expected, found } => {
                write!(f, "book of {found} bytes, its header says {expected}: truncated or corrupt")
            }
            BookError::Checksum { expected, found } => {
                write!(f, "book checksum {found:#018x}, header says {expected:#018x}: corrupt")
            }
            BookError::Entry { index, reason } => write!(f, "book entry {index}: {reason}"),
            BookError::Board { book, wanted } => {
                write!(f, "a {}×{} book used for a {}×{} board", book.0, book.1, wanted.0, wanted.1)
            }
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io(e) => Some(e),
            BookError::Param(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for BookError {
    fn from(e: io::Error) -> Self {
        BookError::Io(e)
    }
}

/// An opening book: exact scores of positions up to some number of plies,
/// in the checked binary format of [docs/connect4-book.md](https://github.com/game-search/backup-rules/blob/main/docs/connect4-book.md) (in the
/// repository).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    width: usize,
    height: usize,
    plies: u32,
    /// Canonical keys, increasing.
    keys: Vec<u64>,
    /// The score of each key's position.
    scores: Vec<i8>,
}

impl Book {
    /// A book of `width × height` positions up to `plies` discs from
    /// `(position, score)` pairs (a position and its mirror image are one
    /// entry; a later pair for the same entry replaces the earlier).
    ///
    /// Errors: a board size [`Connect4::new`] rejects
    /// ([`BookError::Header`]); a position of another size
    /// ([`BookError::Board`]) or with more than `plies` discs, or a score
    /// outside `−64..=64` ([`BookError::Entry`]).
    pub fn from_scores(
        width: usize,
        height: usize,
        plies: u32,
        scores: impl IntoIterator<Item = (Connect4, i32)>,
    ) -> Result<Self, BookError> {
        Connect4::new(width, height).map_err(|e| BookError::Header(e.to_string()))?;
        let mut pairs = Vec::new();
        for (index, (pos, score)) in scores.into_iter().enumerate() {
            if (pos.width(), pos.height()) != (width, height) {
                return Err(BookError::Board { book: (width, height), wanted: (pos.width(), pos.height()) });
            }
            if pos.moves_played() > plies {
                return Err(BookError::Entry { index, reason: format!("{} discs, over {plies}", pos.moves_played()) });
            }
            let score = i8::try_from(score)
                .ok()
                .filter(|s| (-64..=64).contains(s))
                .ok_or_else(|| BookError::Entry { index, reason: format!("score {score} out of range") })?;
            pairs.push((canonical_key(&pos), score));
        }
        // Stable: the last pair of a key wins after the dedup below.
        pairs.sort_by_key(|&(k, _)| k);
        let mut keys: Vec<u64> = Vec::with_capacity(pairs.len());
        let mut values: Vec<i8> = Vec::with_capacity(pairs.len());
        for (k, s) in pairs {
            if keys.last() == Some(&k) {
                *values.last_mut().expect("same length") = s;
            } else {
                keys.push(k);
                values.push(s);
            }
        }
        Ok(Book { width, height, plies, keys, scores: values })
    }

    /// The board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Every unfinished position with at most this many discs is in the book.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Entries (a position and its mirror image are one).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The bytes [`write_to`](Self::write_to) writes.
    pub fn file_bytes(&self) -> usize {
        HEADER_BYTES + self.keys.len() * (key_bytes(self.width, self.height) + 1)
    }

    /// The exact score of `pos` for the side to move (the solver's scores),
    /// if the book has it: `None` for a position of another board size, with
    /// more discs than the book's plies, or whose game is over.
    pub fn probe(&self, pos: &Connect4) -> Option<i32> {
        if (pos.width(), pos.height()) != (self.width, self.height) || pos.moves_played() > self.plies {
            return None;
        }
        let i = self.keys.binary_search(&canonical_key(pos)).ok()?;
        Some(i32::from(self.scores[i]))
    }

    /// A move of `pos` that keeps its book score, and that score; `None`
    /// if [`probe`](Self::probe) has no score for `pos` or the book lacks a
    /// child the move needs (a book of `pos`'s own depth knows the score but
    /// not the moves: children one ply deeper are not in it). Among equal
    /// moves, the most central.
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// use games_small::solver::build_book;
    /// let book = build_book(4, 4, 4, 1, |_| {})?;
    /// let (col, score) = book.best_move(&Connect4::new(4, 4)?).unwrap();
    /// assert_eq!(score, 0);
    /// assert!(col < 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_move(&self, pos: &Connect4) -> Option<(Column, i32)> {
        let score = self.probe(pos)?;
        let cells = (self.width * self.height) as i32;
        for i in 0..pos.width() {
            let col = pos.column_order(i);
            if !pos.can_play(col) {
                continue;
            }
            let value = if pos.is_winning_move(col) {
                (cells + 1 - pos.moves_played() as i32) / 2
            } else {
                let mut child = *pos;
                child.play_cell(pos.possible() & pos.column_mask(col));
                if child.is_full() { 0 } else { -self.probe(&child)? }
            };
            if value == score {
                return Some((col, score));
            }
        }
        None
    }

    /// Writes the book in its file format ([docs/connect4-book.md](https://github.com/game-search/backup-rules/blob/main/docs/connect4-book.md)).
    ///
    /// Errors: the writer's.
    pub fn write_to(&self, mut w: impl Write) -> io::Result<()> {
        let k = key_bytes(self.width, self.height);
        let mut body = Vec::with_capacity(self.keys.len() * (k + 1));
        for (&key, &score) in self.keys.iter().zip(&self.scores) {
            body.extend_from_slice(&key.to_le_bytes()[..k]);
            body.push(score as u8);
        }
        let mut header = Vec::with_capacity(HEADER_BYTES);
        header.extend_from_slice(BOOK_MAGIC);
        header.extend_from_slice(&BOOK_VERSION.to_le_bytes());
        header.extend_from_slice(&[self.width as u8, self.height as u8, self.plies as u8, k as u8]);
        header.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        header.extend_from_slice(&fnv1a(&body).to_le_bytes());
        w.write_all(&header)?;
        w.write_all(&body)
    }

    /// Writes the book to the file `path`.
    ///
    /// Errors: the file's.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let mut w = io::BufWriter::new(std::fs::File::create(path)?);
        self.write_to(&mut w)?;
        w.flush()?;
        Ok(())
    }

    /// Reads a book written by [`write_to`](Self::write_to).
    ///
    /// Errors: a [`BookError`] for a read error or anything that does not
    /// match the file format ([docs/connect4-book.md](https://github.com/game-search/backup-rules/blob/main/docs/connect4-book.md)).
    pub fn read_from(mut r: impl Read) -> Result<Self, BookError> {
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes)?;
        Self::parse(&bytes)
    }

    /// Reads the book file `path`.
    ///
    /// Errors: as [`read_from`](Self::read_from).
    pub fn load(path: impl AsRef<Path>) -> Result<Self, BookError> {
        Self::read_from(io::BufReader::new(std::fs::File::open(path)?))
    }

    /// Checks that the book is for a `width × height` board.
    ///
    /// Errors: [`BookError::Board`].
    pub fn check_board(&self, width: usize, height: usize) -> Result<(), BookError> {
        if (self.width, self.height) == (width, height) {
            Ok(())
        } else {
            Err(BookError::Board { book: (self.width, self.height), wanted: (width, height) })
        }
    }

    fn parse(bytes: &[u8]) -> Result<Self, BookError> {
        if bytes.len() < BOOK_MAGIC.len() || &bytes[..BOOK_MAGIC.len()] != BOOK_MAGIC {
            return Err(BookError::NotABook);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(BookError::Length { expected: HEADER_BYTES as u64, found: bytes.len() as u64 });
        }
        let version = u16::from_le_bytes([bytes[6], bytes[7]]);
        if version != BOOK_VERSION {
            return Err(BookError::Version(version));
        }
        let (width, height, plies, k) =
            (usize::from(bytes[8]), usize::from(bytes[9]), u32::from(bytes[10]), usize::from(bytes[11]));
        Connect4::new(width, height).map_err(|e| BookError::Header(e.to_string()))?;
        if k != key_bytes(width, height) {
            return Err(BookError::Header(format!("{k}-byte keys for a {width}×{height} board")));
        }
        let count = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as u64;
        let expected = HEADER_BYTES as u64 + count * (k as u64 + 1);
        if bytes.len() as u64 != expected {
            return Err(BookError::Length { expected, found: bytes.len() as u64 });
        }
        let body = &bytes[HEADER_BYTES..];
        let (want, found) = (u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes")), fnv1a(body));
        if want != found {
            return Err(BookError::Checksum { expected: want, found });
        }
        let limit = (width * height) as i8 / 2 + 1;
        let mut keys = Vec::with_capacity(count as usize);
        let mut scores = Vec::with_capacity(count as usize);
        for (index, entry) in body.chunks_exact(k + 1).enumerate() {
            let mut key = [0u8; 8];
            key[..k].copy_from_slice(&entry[..k]);
            let key = u64::from_le_bytes(key);
            let score = entry[k] as i8;
            if keys.last().is_some_and(|&last| last >= key) {
                return Err(BookError::Entry { index, reason: "keys out of order".into() });
            }
            if !(-limit..=limit).contains(&score) {
                return Err(BookError::Entry { index, reason: format!("score {score} impossible on this board") });
            }
            keys.push(key);
            scores.push(score);
        }
        Ok(Book { width, height, plies, keys, scores })
    }
}

/// The bytes of a key of a `width × height` board.
fn key_bytes(width: usize, height: usize) -> usize {
    (width * (height + 1)).div_ceil(8)
}

/// The smaller of the perfect keys of `pos` and of its mirror image.
pub(crate) fn canonical_key(pos: &Connect4) -> u64 {
    let key = pos.key();
    let h1 = pos.h1();
    let column = (1u64 << h1) - 1;
    let w = pos.width() as u32;
    let mut mirrored = 0;
    for c in 0..w {
        mirrored |= ((key >> (c * h1)) & column) << ((w - 1 - c) * h1);
    }
    key.min(mirrored)
}

/// The book as a table the generic search consults
/// ([`search_core::search::Oracle`], [docs/table-lookup.md](https://github.com/game-search/backup-rules/blob/main/docs/table-lookup.md)): attached to a
/// [`Search`](search_core::search::Search) of [`Connect4`] with a rule that
/// has game values (minimax, with or without alpha-beta), every position
/// below the root that the book has ends the search there, with its exact
/// value and distance. A root with fewer discs than the book's plies is
/// then solved by a depth-1 search, whose best move keeps the score.
///
/// The solver's score `s` of a position with `n` discs on a board of `c`
/// cells becomes a win `2 · (⌊(c + 1 − n)/2⌋ − s) + 1` plies away (the
/// winning disc) when positive, a loss `2 · (⌊(c − n)/2⌋ + s) + 2` plies
/// away when negative, and a draw when 0; scores impossible at `n` discs
/// are not answered. The oracle names no book move: the depth-1 search
/// plays the move, with its value.
///
/// ```
/// use std::sync::Arc;
/// use games_small::connect4::{Connect4, Connect4Eval};
/// use games_small::solver::build_book;
/// use search_core::backup::Minimax;
/// use search_core::search::{Limits, Options, Search};
///
/// let book = build_book(5, 4, 2, 1, |_| {})?;
/// let mut search = Search::new(Minimax, Connect4Eval::default(), Options::default())?.with_oracle(Arc::new(book))?;
/// let r = search.run(&Connect4::new(5, 4)?, &Limits::depth(1))?;
/// assert_eq!(r.stats.tb_hits, 5); // the five first moves, exactly
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Oracle<Connect4> for Book {
    fn probe(&self, state: &Connect4) -> Option<Probe> {
        let score = Book::probe(self, state)?;
        probe_of_score(score, (self.width * self.height) as i32, state.moves_played() as i32)
    }
}

/// A solver score `score` of a position with `discs` discs on a board of
/// `cells` cells as an oracle's probe (see the [`Book`] oracle); `None` if
/// no game reaches that score from there.
fn probe_of_score(score: i32, cells: i32, discs: i32) -> Option<Probe> {
    // Counted in pairs of moves (the mover's and the opponent's) before the
    // deciding disc.
    if score > 0 {
        let pairs = u32::try_from((cells + 1 - discs) / 2 - score).ok()?;
        Some(Probe::Win { plies: 2 * pairs + 1 })
    } else if score < 0 {
        let pairs = u32::try_from((cells - discs) / 2 + score).ok()?;
        Some(Probe::Loss { plies: 2 * pairs + 2 })
    } else {
        Some(Probe::Draw)
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_become_distances() {
        // 7 × 6: the first player's win with its last (21st) disc is 41 plies
        // away; a win with the next disc is 1 ply away, a loss to the
        // opponent's next disc 2; a score no game reaches is not answered.
        assert_eq!(probe_of_score(1, 42, 0), Some(Probe::Win { plies: 41 }));
        assert_eq!(probe_of_score(21, 42, 0), Some(Probe::Win { plies: 1 }));
        assert_eq!(probe_of_score(-1, 42, 0), Some(Probe::Loss { plies: 42 }));
        assert_eq!(probe_of_score(-20, 42, 1), Some(Probe::Loss { plies: 2 }));
        assert_eq!(probe_of_score(0, 42, 5), Some(Probe::Draw));
        assert_eq!(probe_of_score(-21, 42, 1), None);
        assert_eq!(probe_of_score(22, 42, 0), None);
    }

    #[test]
    fn mirror_images_share_a_key() {
        let a = Connect4::from_moves(7, 6, "1123").unwrap();
        let b = Connect4::from_moves(7, 6, "7765").unwrap();
        assert_ne!(a.key(), b.key());
        assert_eq!(canonical_key(&a), canonical_key(&b));
        let centre = Connect4::from_moves(7, 6, "44").unwrap();
        assert_eq!(canonical_key(&centre), centre.key());
    }

    #[test]
    fn corrupt_files_are_typed_errors() {
        let pos = Connect4::from_moves(7, 6, "4").unwrap();
        let book = Book::from_scores(7, 6, 1, [(Connect4::standard(), 1), (pos, -1)]).unwrap();
        let mut bytes = Vec::new();
        book.write_to(&mut bytes).unwrap();
        assert_eq!(bytes.len(), book.file_bytes());
        assert_eq!(Book::read_from(&bytes[..]).unwrap(), book);
        assert!(matches!(Book::read_from(&b"hello"[..]), Err(BookError::NotABook)));
        assert!(matches!(Book::read_from(&bytes[..bytes.len() - 1]), Err(BookError::Length { .. })));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Book::read_from(&longer[..]), Err(BookError::Length { .. })));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(Book::read_from(&flipped[..]), Err(BookError::Checksum { .. })));
        let mut version = bytes.clone();
        version[6] = 9;
        assert!(matches!(Book::read_from(&version[..]), Err(BookError::Version(9))));
        let mut board = bytes.clone();
        board[8] = 0;
        assert!(matches!(Book::read_from(&board[..]), Err(BookError::Header(_))));
        assert!(matches!(book.check_board(6, 5), Err(BookError::Board { .. })));
        for cut in 0..bytes.len() {
            assert!(Book::read_from(&bytes[..cut]).is_err(), "{cut}");
        }
    }
}
