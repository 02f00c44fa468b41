//! The connect-4 board: bitboard representation, rules (the [`Game`]
//! implementation), perfect-key hashing, move notation and text display.

use std::collections::HashSet;
use std::fmt;

use search_core::{Game, GameError, Outcome, ParamError, Player, Status, Turn};

use crate::board_text;

/// A column index, `0..width`, 0 on the left.
pub type Column = u8;

/// The characters naming columns 1, 2, … (32 is the widest possible board).
const COLUMN_CHARS: &[u8; 32] = b"123456789abcdefghijklmnopqrstuvw";

/// Why a character does not name a column of the board (the reason of a
/// [`GameError::Parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ColumnError {
    /// A column character beyond the board's width.
    OffBoard {
        /// The character.
        ch: char,
        /// The board's width.
        width: usize,
    },
    /// Not a column character at all.
    NotAColumn(char),
}

impl fmt::Display for ColumnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnError::OffBoard { ch, width } => write!(f, "no column {ch} on a board {width} wide"),
            ColumnError::NotAColumn(ch) => write!(f, "{ch:?} is not a column digit"),
        }
    }
}

impl std::error::Error for ColumnError {}

/// `x << n`, or 0 if `n ≥ 64`.
#[inline(always)]
pub(super) fn shl(x: u64, n: u32) -> u64 {
    x.checked_shl(n).unwrap_or(0)
}

/// `x >> n`, or 0 if `n ≥ 64`.
#[inline(always)]
pub(super) fn shr(x: u64, n: u32) -> u64 {
    x.checked_shr(n).unwrap_or(0)
}

/// A connect-4 position. Small and `Copy` (24 bytes).
///
/// `First` plays `X` and moves first; `Second` plays `O`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Connect4 {
    /// Discs of the side to move.
    current: u64,
    /// Every disc.
    mask: u64,
    /// One bit at the bottom of each column.
    bottom: u64,
    width: u8,
    height: u8,
    moves: u8,
}

impl Connect4 {
    /// Columns and rows of the standard board.
    pub const STANDARD: (usize, usize) = (7, 6);

    /// The empty `width × height` board.
    ///
    /// Both must be at least 1 and `(height + 1) × width ≤ 64`.
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// assert!(Connect4::new(4, 4).is_ok());
    /// assert!(Connect4::new(8, 7).is_ok());
    /// assert!(Connect4::new(9, 7).is_err());
    /// assert!(Connect4::new(0, 6).is_err());
    /// ```
    pub fn new(width: usize, height: usize) -> Result<Self, ParamError> {
        if width == 0 || height == 0 {
            return Err(ParamError::new("width/height", format!("must be at least 1, got {width}×{height}")));
        }
        if width.saturating_mul(height.saturating_add(1)) > 64 {
            return Err(ParamError::new(
                "width/height",
                format!("(height + 1) × width must be ≤ 64, got ({height} + 1) × {width}"),
            ));
        }
        let h1 = height + 1;
        let bottom = (0..width).fold(0u64, |b, c| b | 1 << (c * h1));
        Ok(Connect4 { current: 0, mask: 0, bottom, width: width as u8, height: height as u8, moves: 0 })
    }

    /// The empty standard 7 × 6 board.
    pub fn standard() -> Self {
        Connect4::new(7, 6).expect("7×6 fits")
    }

    /// The position after `moves` (1-based column characters, see the module
    /// documentation) on the empty `width × height` board. Spaces are ignored.
    ///
    /// Errors: [`GameError::Param`] for a bad board size, [`GameError::Parse`]
    /// for a character that names no column of this board,
    /// [`GameError::IllegalMove`] for a full column, [`GameError::GameOver`]
    /// for a move after the game has ended.
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// use search_core::GameError;
    /// let g = Connect4::from_moves(7, 6, "4453")?;
    /// assert_eq!(g.moves_played(), 4);
    /// assert!(matches!(Connect4::from_moves(7, 6, "48"), Err(GameError::Parse { position: 1, .. })));
    /// assert!(matches!(Connect4::from_moves(4, 4, "11111"), Err(GameError::IllegalMove { .. })));
    /// # Ok::<(), GameError>(())
    /// ```
    pub fn from_moves(width: usize, height: usize, moves: &str) -> Result<Self, GameError> {
        let mut g = Connect4::new(width, height)?;
        g.play_moves(moves)?;
        Ok(g)
    }

    /// Plays the moves of `moves` (as in [`from_moves`](Self::from_moves))
    /// from this position. On error the position is left after the last
    /// legal move.
    pub fn play_moves(&mut self, moves: &str) -> Result<(), GameError> {
        for (i, ch) in moves.char_indices() {
            if ch.is_whitespace() {
                continue;
            }
            let col = self.parse_column(ch).map_err(|e| GameError::parse("position", moves, i, e.to_string()))?;
            self.try_play(col)?;
        }
        Ok(())
    }

    fn parse_column(&self, ch: char) -> Result<Column, ColumnError> {
        let lower = ch.to_ascii_lowercase();
        match COLUMN_CHARS.iter().position(|&c| char::from(c) == lower) {
            Some(i) if i < self.width() => Ok(i as Column),
            Some(_) => Err(ColumnError::OffBoard { ch, width: self.width() }),
            None => Err(ColumnError::NotAColumn(ch)),
        }
    }

    /// The character naming column `col` (`'1'` for column 0, `'a'` for
    /// column 9), or `None` if `col ≥ 32` (no board is that wide).
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// assert_eq!(Connect4::column_char(3), Some('4'));
    /// assert_eq!(Connect4::column_char(40), None);
    /// ```
    pub fn column_char(col: Column) -> Option<char> {
        COLUMN_CHARS.get(usize::from(col)).map(|&c| char::from(c))
    }

    /// A sequence of moves from the empty board that reaches this position,
    /// in the notation of [`from_moves`](Self::from_moves), or `None` if no
    /// legal game reaches it.
    ///
    /// The state keeps no history: the sequence is reconstructed by taking
    /// discs off the top of the columns (a search with memoisation, quick in
    /// practice). If several games reach the position, the one that takes
    /// discs off the leftmost possible column first is returned.
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// let g = Connect4::from_moves(7, 6, "4453")?;
    /// let line = g.moves_string().unwrap();
    /// assert_eq!(Connect4::from_moves(7, 6, &line)?, g);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn moves_string(&self) -> Option<String> {
        let mut cols = Vec::with_capacity(usize::from(self.moves));
        let mut dead = HashSet::new();
        if self.unplay(&mut cols, &mut dead) {
            cols.iter().rev().map(|&c| Self::column_char(c)).collect()
        } else {
            None
        }
    }

    /// Takes discs off until the board is empty; `out` gets the columns, last
    /// move first. `dead` memoises positions known to be unreachable.
    fn unplay(&self, out: &mut Vec<Column>, dead: &mut HashSet<u64>) -> bool {
        if self.moves == 0 {
            return true;
        }
        if dead.contains(&self.key()) {
            return false;
        }
        let last_mover = self.current ^ self.mask;
        for col in 0..self.width {
            let column = self.mask & self.column_mask(col);
            if column == 0 {
                continue;
            }
            let top = 1u64 << (63 - column.leading_zeros());
            if top & last_mover == 0 {
                continue;
            }
            let prev = Connect4 { current: last_mover ^ top, mask: self.mask ^ top, moves: self.moves - 1, ..*self };
            // The game must not have been over before the last move.
            if self.alignment(prev.current) || self.alignment(prev.current ^ prev.mask) {
                continue;
            }
            out.push(col);
            if prev.unplay(out, dead) {
                return true;
            }
            out.pop();
        }
        dead.insert(self.key());
        false
    }

    /// Columns of the board.
    #[inline]
    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    /// Rows of the board.
    #[inline]
    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    /// `height + 1`: the bit stride of a column.
    #[inline(always)]
    pub(super) fn h1(&self) -> u32 {
        u32::from(self.height) + 1
    }

    /// The number of discs on the board (moves played so far).
    #[inline]
    pub fn moves_played(&self) -> u32 {
        u32::from(self.moves)
    }

    /// The player to move (the game may be over).
    #[inline]
    pub fn to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) { Player::First } else { Player::Second }
    }

    /// The discs of the side to move, as a bitboard.
    #[inline]
    pub fn current_bits(&self) -> u64 {
        self.current
    }

    /// The discs of the side that moved last, as a bitboard.
    #[inline]
    pub fn opponent_bits(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Every disc, as a bitboard.
    #[inline]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// One bit at the bottom cell of each column.
    #[inline]
    pub fn bottom_mask(&self) -> u64 {
        self.bottom
    }

    /// Every cell of the board (the sentinel bits excluded).
    #[inline]
    pub fn board_mask(&self) -> u64 {
        self.bottom.wrapping_mul((1u64 << self.height) - 1)
    }

    /// The cells of column `col` (0 if there is no such column).
    #[inline]
    pub fn column_mask(&self, col: Column) -> u64 {
        if col >= self.width {
            return 0;
        }
        ((1u64 << self.height) - 1) << (u32::from(col) * self.h1())
    }

    /// The bit of cell (`col`, `row`), row 0 at the bottom (0 if off the board).
    #[inline]
    pub fn cell_bit(&self, col: usize, row: usize) -> u64 {
        if col >= self.width() || row >= self.height() {
            return 0;
        }
        1u64 << (col as u32 * self.h1() + row as u32)
    }

    /// The column of the cell `bit` (a single bit of the board).
    #[inline]
    pub fn column_of(&self, bit: u64) -> Column {
        (bit.trailing_zeros() / self.h1()) as Column
    }

    /// Who holds cell (`col`, `row`), if anyone.
    pub fn at(&self, col: usize, row: usize) -> Option<Player> {
        let bit = self.cell_bit(col, row);
        if self.mask & bit == 0 {
            None
        } else if (self.current & bit != 0) == (self.to_move() == Player::First) {
            Some(Player::First)
        } else {
            Some(Player::Second)
        }
    }

    /// The perfect key `current + mask`: different for every position of a
    /// board of this size. [`hash_key`](Game::hash_key) is this key mixed.
    #[inline]
    pub fn key(&self) -> u64 {
        self.current.wrapping_add(self.mask)
    }

    /// The cell where the next disc goes in each column that is not full:
    /// the playable cells, as a bitboard.
    #[inline]
    pub fn possible(&self) -> u64 {
        self.mask.wrapping_add(self.bottom) & self.board_mask()
    }

    /// Whether a disc can be dropped in `col` (false for a full column or no
    /// such column; the game may be over).
    #[inline]
    pub fn can_play(&self, col: Column) -> bool {
        self.possible() & self.column_mask(col) != 0
    }

    /// Drops a disc on `cell`, a single bit of [`possible`](Self::possible),
    /// for the side to move (the solver's form of [`play`](Game::play)).
    #[inline]
    pub fn play_cell(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Whether `discs` holds four in a row.
    #[inline]
    pub fn alignment(&self, discs: u64) -> bool {
        let h1 = self.h1();
        for s in [1, h1 - 1, h1, h1 + 1] {
            let m = discs & shr(discs, s);
            if m & shr(m, 2 * s) != 0 {
                return true;
            }
        }
        false
    }

    /// The winner, if the side that moved last has four in a row.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        self.alignment(self.current ^ self.mask).then(|| self.to_move().opponent())
    }

    /// Whether every cell is filled.
    #[inline]
    pub fn is_full(&self) -> bool {
        usize::from(self.moves) == self.width() * self.height()
    }

    /// The `i`-th column of the centre-first search order (`i < width`):
    /// the centre, then alternately left and right of it.
    #[inline]
    pub fn column_order(&self, i: usize) -> Column {
        let w = self.width() as isize;
        let i = i as isize;
        let off = if i % 2 == 0 { i / 2 } else { -(i + 1) / 2 };
        (w / 2 + off) as Column
    }

    /// The position of `col` in [`column_order`](Self::column_order).
    #[inline]
    fn order_rank(&self, col: Column) -> i32 {
        let mid = i32::from(self.width / 2);
        let c = i32::from(col);
        if c >= mid { 2 * (c - mid) } else { 2 * (mid - c) - 1 }
    }

    /// The number of four-cell windows (lines of four cells inside the board,
    /// in any of the four directions) through cell (`col`, `row`).
    pub fn windows_through(&self, col: usize, row: usize) -> u32 {
        let bit = self.cell_bit(col, row);
        let h1 = self.h1();
        let mut n = 0;
        for s in [1, h1 - 1, h1, h1 + 1] {
            let starts = self.window_starts(s);
            for j in 0..4 {
                n += u32::from(shl(starts, j * s) & bit != 0);
            }
        }
        n
    }

    /// The cell-weight table: [`windows_through`](Self::windows_through)
    /// every cell, one row per entry from the top row down.
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// let t = Connect4::new(4, 4)?.cell_weight_table();
    /// assert_eq!(t[0], [3, 2, 2, 3]);
    /// assert_eq!(t[1], [2, 3, 3, 2]);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn cell_weight_table(&self) -> Vec<Vec<u32>> {
        (0..self.height()).rev().map(|r| (0..self.width()).map(|c| self.windows_through(c, r)).collect()).collect()
    }

    /// The total number of four-cell windows on the board.
    pub fn window_count(&self) -> u32 {
        let h1 = self.h1();
        [1, h1 - 1, h1, h1 + 1].iter().map(|&s| self.window_starts(s).count_ones()).sum()
    }

    /// The first cells of the windows of direction `s` that lie inside the
    /// board.
    #[inline]
    pub(super) fn window_starts(&self, s: u32) -> u64 {
        let b = self.board_mask();
        b & shr(b, s) & shr(b, 2 * s) & shr(b, 3 * s)
    }
}

impl Game for Connect4 {
    type Move = Column;
    const HASHED: bool = true;

    #[inline]
    fn turn(&self) -> Turn {
        Turn::Player(self.to_move())
    }

    /// Centre-first: see [`Connect4::column_order`].
    #[inline]
    fn quick_status(&self) -> Option<Status> {
        Some(if self.alignment(self.current ^ self.mask) {
            Status::Over(Outcome::Win(self.to_move().opponent()))
        } else if self.is_full() {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        })
    }

    #[inline]
    fn generate(&self, moves: &mut Vec<Column>) -> Status {
        if self.alignment(self.current ^ self.mask) {
            return Status::Over(Outcome::Win(self.to_move().opponent()));
        }
        if self.is_full() {
            return Status::Over(Outcome::Draw);
        }
        let possible = self.possible();
        for i in 0..self.width() {
            let col = self.column_order(i);
            if possible & self.column_mask(col) != 0 {
                moves.push(col);
            }
        }
        Status::Ongoing
    }

    #[inline]
    fn play(&mut self, col: Column) {
        let cell = self.possible() & self.column_mask(col);
        self.play_cell(cell);
    }

    fn write_move(&self, col: Column, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match COLUMN_CHARS.get(usize::from(col)) {
            Some(&c) => write!(f, "{}", char::from(c)),
            None => write!(f, "?{col}"),
        }
    }

    /// One column character (see the module documentation).
    fn parse_move(&self, text: &str) -> Result<Column, GameError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(ch), None) => self.parse_column(ch).map_err(|e| GameError::parse("move", text, 0, e.to_string())),
            _ => Err(GameError::parse("move", text, 0, "expected one column character")),
        }
    }

    #[inline]
    fn hash_key(&self) -> Option<u64> {
        Some(search_core::rng::splitmix64(self.key()))
    }

    /// Larger for columns nearer the centre, in the order of
    /// [`generate`](Game::generate).
    #[inline]
    fn order_hint(&self, col: Column) -> i32 {
        i32::from(self.width) - self.order_rank(col)
    }

    fn try_play(&mut self, col: Column) -> Result<(), GameError> {
        if col >= self.width {
            return Err(GameError::illegal(format!("column {}", u32::from(col) + 1), "no such column"));
        }
        if self.winner().is_some() || self.is_full() {
            return Err(GameError::GameOver);
        }
        if !self.can_play(col) {
            return Err(GameError::illegal(self.move_string(col), "column full"));
        }
        self.play(col);
        Ok(())
    }
}

impl fmt::Display for Connect4 {
    /// One line per row, the top row first: `X` (first player), `O`, `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        board_text::write_rows(f, self.width(), self.height(), |col, row| self.at(col, row))
    }
}
