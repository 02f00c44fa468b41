//! Tic-tac-toe on two 9-bit masks.
//!
//! Cells are numbered `0..9` row by row from the bottom left:
//!
//! ```text
//!   3 | 6 7 8      a3 b3 c3
//!   2 | 3 4 5      a2 b2 c2
//!   1 | 0 1 2      a1 b1 c1
//!       a b c
//! ```
//!
//! A move is a cell index ([`Cell`]); its notation is the column letter `a`–`c`
//! followed by the row digit `1`–`3` counted from the bottom (`b2` is the
//! centre), as on a chess board. Parsing accepts upper case too.
//!
//! ```
//! use games_small::tictactoe::TicTacToe;
//! use search_core::{Game, Outcome, Player, Status};
//!
//! let g: TicTacToe = "b2 a1 c3 a3 a2 c2 b1 b3 c1".parse()?;
//! assert_eq!(g.status(), Status::Over(Outcome::Draw));
//! assert_eq!(g.to_string(), "OOX\nXXO\nOXX\n");
//! let won = TicTacToe::from_moves("a1 b1 a2 b2 a3")?;
//! assert_eq!(won.status(), Status::Over(Outcome::Win(Player::First)));
//! # Ok::<(), search_core::GameError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use search_core::{Evaluator, Game, GameError, Outcome, ParamError, Perspective, Player, Status, Turn};

use crate::board_text;
use crate::zobrist;

/// A cell index `0..9` (row × 3 + column, row 0 at the bottom).
pub type Cell = u8;

/// The number of cells.
pub const CELLS: usize = 9;

/// The eight lines, as 9-bit masks: three rows, three columns, two diagonals.
pub const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

const FULL: u16 = 0o777;

/// Zobrist keys: `KEYS[player * 9 + cell]`.
const KEYS: [u64; 2 * CELLS] = zobrist::keys(0x7469_6374_6163_746F);

/// A tic-tac-toe position: the cells of each player and the side to move.
///
/// Small and `Copy`; the hash is kept up to date incrementally. `First` plays
/// `X`, `Second` plays `O`; the side to move is implied by the mark counts,
/// so it is not part of the hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    marks: [u16; 2],
    hash: u64,
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

impl TicTacToe {
    /// The empty board, `X` (`First`) to move.
    pub const fn new() -> Self {
        TicTacToe { marks: [0, 0], hash: 0 }
    }

    /// The position after the moves in `moves` (see [`FromStr`] for the format).
    ///
    /// ```
    /// use games_small::tictactoe::TicTacToe;
    /// let g = TicTacToe::from_moves("b2 a1")?;
    /// assert_eq!(g.moves_played(), 2);
    /// assert!(TicTacToe::from_moves("b2 b2").is_err());
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn from_moves(moves: &str) -> Result<Self, GameError> {
        moves.parse()
    }

    /// The cells of `player`, as a 9-bit mask (bit `i` is cell `i`).
    #[inline]
    pub fn marks(&self, player: Player) -> u16 {
        self.marks[player.index()]
    }

    /// The occupied cells, as a 9-bit mask.
    #[inline]
    pub fn occupied(&self) -> u16 {
        self.marks[0] | self.marks[1]
    }

    /// The number of marks on the board.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The player to move (the game may be over).
    #[inline]
    pub fn to_move(&self) -> Player {
        if self.moves_played().is_multiple_of(2) { Player::First } else { Player::Second }
    }

    /// Who holds `cell`, if anyone (`None` also for a cell out of range).
    pub fn at(&self, cell: Cell) -> Option<Player> {
        let bit = 1u16.checked_shl(u32::from(cell)).filter(|&b| b & FULL != 0)?;
        if self.marks[0] & bit != 0 {
            Some(Player::First)
        } else if self.marks[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The winner, if a player has three in a line.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        // Only the player who moved last can have a line.
        let last = self.to_move().opponent();
        let m = self.marks[last.index()];
        LINES.iter().any(|&l| l & !m == 0).then_some(last)
    }

    /// The Zobrist hash recomputed from the marks (equal to the incremental
    /// [`hash_key`](Game::hash_key)).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for p in 0..2 {
            for cell in 0..CELLS {
                if self.marks[p] >> cell & 1 != 0 {
                    h ^= KEYS[p * CELLS + cell];
                }
            }
        }
        h
    }

    /// The notation of `cell` (`a1`..`c3`), or `None` if it is out of range.
    pub fn cell_name(cell: Cell) -> Option<[char; 2]> {
        (usize::from(cell) < CELLS).then(|| [char::from(b'a' + cell % 3), char::from(b'1' + cell / 3)])
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    const HASHED: bool = true;

    #[inline]
    fn turn(&self) -> Turn {
        Turn::Player(self.to_move())
    }

    #[inline]
    fn quick_status(&self) -> Option<Status> {
        Some(if let Some(w) = self.winner() {
            Status::Over(Outcome::Win(w))
        } else if !self.occupied() & FULL == 0 {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        })
    }

    #[inline]
    fn generate(&self, moves: &mut Vec<Cell>) -> Status {
        if let Some(w) = self.winner() {
            return Status::Over(Outcome::Win(w));
        }
        let mut empty = !self.occupied() & FULL;
        if empty == 0 {
            return Status::Over(Outcome::Draw);
        }
        while empty != 0 {
            moves.push(empty.trailing_zeros() as Cell);
            empty &= empty - 1;
        }
        Status::Ongoing
    }

    #[inline]
    fn play(&mut self, cell: Cell) {
        let p = self.to_move().index();
        self.marks[p] |= 1 << cell;
        self.hash ^= KEYS[p * CELLS + usize::from(cell)];
    }

    fn write_move(&self, cell: Cell, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Self::cell_name(cell) {
            Some([c, r]) => write!(f, "{c}{r}"),
            None => write!(f, "?{cell}"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Cell, GameError> {
        parse_cell(text, 0)
    }

    #[inline]
    fn hash_key(&self) -> Option<u64> {
        Some(self.hash)
    }

    /// The number of lines through the cell: 4 for the centre, 3 for a
    /// corner, 2 for an edge.
    #[inline]
    fn order_hint(&self, cell: Cell) -> i32 {
        LINES.iter().filter(|&&l| l >> cell & 1 != 0).count() as i32
    }

    fn try_play(&mut self, cell: Cell) -> Result<(), GameError> {
        if usize::from(cell) >= CELLS {
            return Err(GameError::illegal(format!("cell {cell}"), "no such cell (cells are 0..9)"));
        }
        if self.winner().is_some() || self.occupied() == FULL {
            return Err(GameError::GameOver);
        }
        if self.occupied() >> cell & 1 != 0 {
            return Err(GameError::illegal(self.move_string(cell), "cell occupied"));
        }
        self.play(cell);
        Ok(())
    }
}

/// Parses one cell name; `offset` is its byte position in a longer input (for
/// the error).
fn parse_cell(text: &str, offset: usize) -> Result<Cell, GameError> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return Err(GameError::parse("move", text, offset, "expected a cell such as b2"));
    }
    let col = match b[0].to_ascii_lowercase() {
        c @ b'a'..=b'c' => c - b'a',
        _ => {
            return Err(GameError::parse("move", text, offset, "column must be a, b or c"));
        }
    };
    let row = match b[1] {
        r @ b'1'..=b'3' => r - b'1',
        _ => {
            return Err(GameError::parse("move", text, offset + 1, "row must be 1, 2 or 3"));
        }
    };
    Ok(row * 3 + col)
}

impl FromStr for TicTacToe {
    type Err = GameError;

    /// A position as the list of its moves from the empty board, cell names
    /// separated by spaces or commas, or written together (`"b2a1"`). The
    /// empty string is the empty board. Illegal moves are reported as
    /// [`GameError::IllegalMove`] or [`GameError::GameOver`].
    fn from_str(s: &str) -> Result<Self, GameError> {
        let mut g = TicTacToe::new();
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() || b[i] == b',' {
                i += 1;
                continue;
            }
            let Some(token) = s.get(i..i + 2) else {
                return Err(GameError::parse("position", s, i, "incomplete cell name"));
            };
            let cell = parse_cell(token, i).map_err(|e| match e {
                GameError::Parse { position, reason, .. } => GameError::parse("position", s, position, reason),
                other => other,
            })?;
            g.try_play(cell)?;
            i += 2;
        }
        Ok(g)
    }
}

impl fmt::Display for TicTacToe {
    /// Three lines, the top row first: `X`, `O`, or `.` for an empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        board_text::write_rows(f, 3, 3, |col, row| self.at((row * 3 + col) as u8))
    }
}

/// The open-lines heuristic, from [`Player::First`]'s (`X`'s) point of view.
///
/// A line is *open* for a player if the opponent has no mark on it. The value
/// is Σ over the lines open for `X` of `weights[k]`, where `k` is the number
/// of `X` marks on the line, minus the same sum for `O`. With the default
/// weights `[1, 2, 4]` an empty line counts 1 for each side, a line holding
/// one own mark 2 and a line holding two own marks 4. With `[1, 1, 1]` it is
/// the textbook "open lines for Max minus open lines for Min".
///
/// Values lie within ±32 (8 lines × 4), far inside the win score.
///
/// ```
/// use games_small::tictactoe::{TicTacToe, TicTacToeEval};
/// use search_core::Evaluator;
/// let e = TicTacToeEval::default();
/// assert_eq!(e.evaluate(&TicTacToe::new()), 0.0);
/// // X in the centre: X has 8 open lines, 4 of them holding X; O has 4.
/// let g = TicTacToe::from_moves("b2")?;
/// assert_eq!(e.evaluate(&g), (4.0 * 1.0 + 4.0 * 2.0) - 4.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TicTacToeEval {
    weights: [f64; 3],
}

impl Default for TicTacToeEval {
    /// Weights `[1, 2, 4]`.
    fn default() -> Self {
        TicTacToeEval { weights: [1.0, 2.0, 4.0] }
    }
}

impl TicTacToeEval {
    /// The largest weight accepted by [`new`](Self::new).
    pub const MAX_WEIGHT: f64 = 1000.0;

    /// An evaluator with `weights[k]` for an open line holding `k` own marks.
    ///
    /// Each weight must be finite and within `±MAX_WEIGHT`.
    pub fn new(weights: [f64; 3]) -> Result<Self, ParamError> {
        for w in weights {
            if !w.is_finite() || w.abs() > Self::MAX_WEIGHT {
                return Err(ParamError::new("weights", format!("must be finite and within ±1000, got {w}")));
            }
        }
        Ok(TicTacToeEval { weights })
    }

    /// The weights, indexed by the number of own marks on an open line.
    pub fn weights(&self) -> [f64; 3] {
        self.weights
    }

    fn side(&self, own: u16, other: u16) -> f64 {
        LINES.iter().filter(|&&l| l & other == 0).map(|&l| self.weights[((l & own).count_ones() as usize).min(2)]).sum()
    }
}

impl Evaluator<TicTacToe> for TicTacToeEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &TicTacToe) -> f64 {
        let [x, o] = state.marks;
        self.side(x, o) - self.side(o, x)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-search_core::WIN_SCORE, search_core::WIN_SCORE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        let g = TicTacToe::new();
        for cell in 0..9 {
            let s = g.move_string(cell);
            assert_eq!(g.parse_move(&s), Ok(cell));
            assert_eq!(g.parse_move(&s.to_uppercase()), Ok(cell));
        }
        assert_eq!(g.move_string(4), "b2");
        assert_eq!(g.move_string(2), "c1");
        assert_eq!(g.move_string(6), "a3");
    }

    #[test]
    fn order_hint_counts_lines() {
        let g = TicTacToe::new();
        let hints: Vec<i32> = (0..9).map(|c| g.order_hint(c)).collect();
        assert_eq!(hints, [3, 2, 3, 2, 4, 2, 3, 2, 3]);
    }
}
