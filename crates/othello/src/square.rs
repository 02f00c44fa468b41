//! Squares, moves and their notation.

use std::fmt;
use std::str::FromStr;

use search_core::GameError;

use crate::{FILES, RANKS, SQUARES};

/// A square of the 6×6 board: file `a`–`f` (0–5, left to right) and rank
/// `1`–`6` (0–5, top to bottom, as in Othello transcripts).
///
/// Its [`index`](Square::index) is `rank × 6 + file`: `a1` is 0, `f1` is 5,
/// `a2` is 6, `f6` is 35; bit `index` of a bitboard is this square.
///
/// ```
/// use othello::Square;
/// let sq: Square = "c4".parse()?;
/// assert_eq!((sq.file(), sq.rank(), sq.index()), (2, 3, 20));
/// assert_eq!(sq.to_string(), "c4");
/// assert_eq!(Square::from_index(20), Some(sq));
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = `a`) and `rank` (0 = rank `1`), or `None`
    /// if either is 6 or more.
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!(Square::new(5, 5).map(|s| s.to_string()), Some("f6".to_string()));
    /// assert_eq!(Square::new(6, 0), None);
    /// ```
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if (file as usize) < FILES && (rank as usize) < RANKS { Some(Square(rank * FILES as u8 + file)) } else { None }
    }

    /// The square with this index (`0..36`), or `None` out of range.
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!(Square::from_index(0).map(|s| s.to_string()), Some("a1".to_string()));
    /// assert_eq!(Square::from_index(36), None);
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES { Some(Square(index)) } else { None }
    }

    /// The index `rank × 6 + file`, in `0..36`.
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!(Square::new(1, 2).unwrap().index(), 13); // b3
    /// ```
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 (`a`) to 5 (`f`).
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!("e2".parse::<Square>()?.file(), 4);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES as u8
    }

    /// The rank, 0 (rank `1`, the top row) to 5 (rank `6`).
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!("e2".parse::<Square>()?.rank(), 1);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES as u8
    }

    /// The square as a one-bit bitboard (`1 << index`).
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!("b1".parse::<Square>()?.bit(), 0b10);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Every square, `a1`, `b1`, …, `f6` (index order).
    ///
    /// ```
    /// use othello::Square;
    /// assert_eq!(Square::all().count(), 36);
    /// assert_eq!(Square::all().last().map(|s| s.to_string()), Some("f6".to_string()));
    /// ```
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..SQUARES as u8).map(Square)
    }

    /// The squares of a bitboard, in index order (bits 36 and above are
    /// ignored).
    ///
    /// ```
    /// use othello::Square;
    /// let names: Vec<String> = Square::iter_bits(0b101).map(|s| s.to_string()).collect();
    /// assert_eq!(names, ["a1", "c1"]);
    /// ```
    pub fn iter_bits(bits: u64) -> impl Iterator<Item = Square> + Clone {
        let mut rest = bits & crate::FULL;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let i = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            Some(Square(i))
        })
    }

    /// Parses a square name; `offset` is where `text` starts in a longer
    /// input, for the error's byte position.
    pub(crate) fn parse_at(text: &str, offset: usize) -> Result<Square, GameError> {
        let b = text.as_bytes();
        if b.is_empty() {
            return Err(GameError::parse("move", text, offset, "empty: expected a square a1..f6 or \"pass\""));
        }
        let file = match b[0].to_ascii_lowercase() {
            c @ b'a'..=b'f' => c - b'a',
            _ => return Err(GameError::parse("move", text, offset, "the file must be a letter a to f")),
        };
        if b.len() < 2 {
            return Err(GameError::parse("move", text, offset + 1, "missing the rank (a digit 1 to 6)"));
        }
        let rank = match b[1] {
            r @ b'1'..=b'6' => r - b'1',
            _ => return Err(GameError::parse("move", text, offset + 1, "the rank must be a digit 1 to 6")),
        };
        if b.len() > 2 {
            return Err(GameError::parse("move", text, offset + 2, "unexpected text after the square"));
        }
        Ok(Square(rank * FILES as u8 + file))
    }
}

impl fmt::Display for Square {
    /// The square's name: file letter then rank digit, `a1` to `f6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), char::from(b'1' + self.rank()))
    }
}

impl FromStr for Square {
    type Err = GameError;

    /// Parses `a1` to `f6` (the file letter may be upper case). Anything else
    /// is a [`GameError::Parse`].
    fn from_str(s: &str) -> Result<Square, GameError> {
        Square::parse_at(s, 0)
    }
}

/// A move: a disc placed on a square, or a pass.
///
/// A pass is legal only when the side to move has no placement and the
/// opponent has one; it is then the only legal move. Notation: the square's
/// name (`c2`), or `pass`.
///
/// ```
/// use othello::{Move, Square};
/// let m: Move = "c2".parse()?;
/// assert_eq!(m, Move::Place("c2".parse::<Square>()?));
/// assert_eq!("PASS".parse::<Move>()?, Move::Pass);
/// assert_eq!(Move::Pass.to_string(), "pass");
/// assert!("a7".parse::<Move>().is_err());
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a disc on the square (flipping every bracketed line).
    Place(Square),
    /// Pass: the side to move has no placement.
    Pass,
}

impl Move {
    /// The square of a placement, `None` for a pass.
    ///
    /// ```
    /// use othello::Move;
    /// assert_eq!(Move::Pass.square(), None);
    /// assert_eq!("d5".parse::<Move>()?.square().map(|s| s.index()), Some(27));
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Whether the move is a pass.
    ///
    /// ```
    /// use othello::Move;
    /// assert!(Move::Pass.is_pass());
    /// ```
    #[inline]
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }

    /// Parses a move; `offset` is where `text` starts in a longer input.
    pub(crate) fn parse_at(text: &str, offset: usize) -> Result<Move, GameError> {
        if text.eq_ignore_ascii_case("pass") { Ok(Move::Pass) } else { Square::parse_at(text, offset).map(Move::Place) }
    }
}

impl fmt::Display for Move {
    /// The square's name, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => write!(f, "{sq}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = GameError;

    /// Parses a square name (`a1` to `f6`) or `pass` (any case). Anything
    /// else is a [`GameError::Parse`].
    fn from_str(s: &str) -> Result<Move, GameError> {
        Move::parse_at(s, 0)
    }
}
