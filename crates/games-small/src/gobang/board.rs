//! The gobang board: variants, bitboard representation, rules (the [`Game`]
//! implementation), Zobrist hashing, point notation and text display.

use std::fmt;
use std::str::FromStr;

use search_core::{Game, GameError, Outcome, ParamError, Player, Status, Turn};

use crate::bits::Bits256;
use crate::board_text;
use crate::zobrist;

/// A point index: `row × 16 + col`, row 0 at the bottom, col 0 on the left.
pub type Point = u8;

/// The largest board size.
pub const MAX_SIZE: usize = 15;
/// The smallest board size.
pub const MIN_SIZE: usize = 5;
/// The bit stride of a row.
const STRIDE: usize = 16;
/// Bit shifts of the four directions: horizontal, vertical, diagonal (up
/// right), anti-diagonal (up left).
pub(super) const DIRS: [u32; 4] = [1, 16, 17, 15];

/// Zobrist keys: `KEYS[player * 256 + point]`.
const KEYS: [u64; 512] = zobrist::keys(0x676F_6261_6E67_0001);

/// Board masks and window-start masks, per board size.
pub(super) struct Tables {
    pub(super) board: [Bits256; MAX_SIZE + 1],
    /// `starts[size][dir][0]`: first points of the 5-point windows inside the
    /// board; `[1]`: of the 6-point windows.
    pub(super) starts: [[[Bits256; 2]; 4]; MAX_SIZE + 1],
}

pub(super) const TABLES: Tables = build_tables();

const fn build_tables() -> Tables {
    let mut board = [Bits256::EMPTY; MAX_SIZE + 1];
    let mut starts = [[[Bits256::EMPTY; 2]; 4]; MAX_SIZE + 1];
    let mut size = 0;
    while size <= MAX_SIZE {
        let mut b = Bits256::EMPTY;
        let mut i = 0;
        while i < size * STRIDE {
            if i % STRIDE < size {
                b = b.with(i);
            }
            i += 1;
        }
        board[size] = b;
        let mut d = 0;
        while d < 4 {
            let mut w = b;
            let mut k = 1;
            while k < 6 {
                w = w.and(b.shr(k * DIRS[d]));
                if k == 4 {
                    starts[size][d][0] = w;
                }
                k += 1;
            }
            starts[size][d][1] = w;
            d += 1;
        }
        size += 1;
    }
    Tables { board, starts }
}

/// Which lines of five or more win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FiveRule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five in a row wins; six or more does not.
    Exact,
}

/// The moves generated on the empty board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// The centre point only (`h8` on 15 × 15; on even sizes the point
    /// above and right of the centre).
    #[default]
    Centre,
    /// Every point.
    Anywhere,
}

/// The variant of gobang: board size, winning rule, candidate radius and
/// first move.
///
/// ```
/// use games_small::gobang::{FiveRule, Gobang, GobangOptions};
/// let opts = GobangOptions { size: 9, rule: FiveRule::Exact, radius: 1, ..Default::default() };
/// let g = Gobang::with_options(opts)?;
/// assert_eq!(g.size(), 9);
/// assert!(Gobang::with_options(GobangOptions { size: 16, ..Default::default() }).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GobangOptions {
    /// Points per side, `MIN_SIZE..=MAX_SIZE` (5 to 15). Default 15.
    pub size: usize,
    /// Which lines win. Default [`FiveRule::Freestyle`].
    pub rule: FiveRule,
    /// Candidate moves are the empty points within this Chebyshev distance
    /// of a stone, `1..=4`. Default 2.
    pub radius: u8,
    /// The moves generated on the empty board. Default [`Opening::Centre`].
    pub opening: Opening,
}

impl Default for GobangOptions {
    fn default() -> Self {
        GobangOptions { size: 15, rule: FiveRule::Freestyle, radius: 2, opening: Opening::Centre }
    }
}

/// A gobang position. `Copy` (about 80 bytes). `First` plays `X` (black).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Gobang {
    stones: [Bits256; 2],
    hash: u64,
    moves: u16,
    size: u8,
    radius: u8,
    rule: FiveRule,
    opening: Opening,
    winner: Option<Player>,
}

impl Default for Gobang {
    /// The empty 15 × 15 freestyle board.
    fn default() -> Self {
        Gobang::with_options(GobangOptions::default()).expect("default options are valid")
    }
}

impl Gobang {
    /// The empty `size × size` board with the other options at their defaults.
    pub fn new(size: usize) -> Result<Self, ParamError> {
        Gobang::with_options(GobangOptions { size, ..GobangOptions::default() })
    }

    /// The empty board of the variant `options`.
    pub fn with_options(options: GobangOptions) -> Result<Self, ParamError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&options.size) {
            return Err(ParamError::new("size", format!("must be within 5..=15, got {}", options.size)));
        }
        if !(1..=4).contains(&options.radius) {
            return Err(ParamError::new("radius", format!("must be within 1..=4, got {}", options.radius)));
        }
        Ok(Gobang {
            stones: [Bits256::EMPTY; 2],
            hash: 0,
            moves: 0,
            size: options.size as u8,
            radius: options.radius,
            rule: options.rule,
            opening: options.opening,
            winner: None,
        })
    }

    /// The position after `moves` (see [`FromStr`]) on the empty board of
    /// the variant `options`.
    ///
    /// ```
    /// use games_small::gobang::{Gobang, GobangOptions};
    /// let g = Gobang::from_moves(GobangOptions::default(), "h8, i9")?;
    /// assert_eq!(g.moves_played(), 2);
    /// assert!(Gobang::from_moves(GobangOptions::default(), "h8 h8").is_err());
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn from_moves(options: GobangOptions, moves: &str) -> Result<Self, GameError> {
        let mut g = Gobang::with_options(options)?;
        g.play_moves(moves)?;
        Ok(g)
    }

    /// Plays the points of `moves` (see [`FromStr`]) from this position. On
    /// error the position is left after the last legal move.
    pub fn play_moves(&mut self, moves: &str) -> Result<(), GameError> {
        let b = moves.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() || b[i] == b',' {
                i += 1;
                continue;
            }
            let start = i;
            i += moves[start..].chars().next().map_or(1, char::len_utf8);
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let p = self.parse_point(&moves[start..i]).map_err(|e| match e {
                GameError::Parse { position, reason, .. } => {
                    GameError::parse("position", moves, start + position, reason)
                }
                other => other,
            })?;
            self.try_play(p)?;
        }
        Ok(())
    }

    /// The variant of this game.
    pub fn options(&self) -> GobangOptions {
        GobangOptions { size: self.size(), rule: self.rule, radius: self.radius, opening: self.opening }
    }

    /// Points per side.
    #[inline]
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// The number of stones on the board.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        u32::from(self.moves)
    }

    /// The player to move (the game may be over).
    #[inline]
    pub fn to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) { Player::First } else { Player::Second }
    }

    /// The winner, if a player has made a winning line.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The point (`col`, `row`), both 0-based (row 0 at the bottom), or
    /// `None` if it is off the board.
    #[inline]
    pub fn point(&self, col: usize, row: usize) -> Option<Point> {
        (col < self.size() && row < self.size()).then(|| (row * STRIDE + col) as Point)
    }

    /// The column and row of `p`, both 0-based.
    #[inline]
    pub fn coords(p: Point) -> (usize, usize) {
        (usize::from(p) % STRIDE, usize::from(p) / STRIDE)
    }

    /// The centre point.
    #[inline]
    pub fn centre(&self) -> Point {
        let c = self.size() / 2;
        (c * STRIDE + c) as Point
    }

    /// Who holds `p`, if anyone.
    #[inline]
    pub fn at(&self, p: Point) -> Option<Player> {
        if self.stones[0].test(usize::from(p)) {
            Some(Player::First)
        } else if self.stones[1].test(usize::from(p)) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The stones of `player`.
    #[inline]
    pub(super) fn stones(&self, player: Player) -> Bits256 {
        self.stones[player.index()]
    }

    #[inline]
    fn on_board(&self, p: Point) -> bool {
        let (c, r) = Self::coords(p);
        c < self.size() && r < self.size()
    }

    #[inline]
    fn occupied(&self) -> Bits256 {
        self.stones[0] | self.stones[1]
    }

    #[inline]
    fn board(&self) -> Bits256 {
        TABLES.board[self.size()]
    }

    /// The number of `player`'s stones in a line through `p` in direction
    /// `dir` (a bit shift), `p` included whether or not it holds a stone.
    #[inline]
    fn run_length(&self, player: Player, p: Point, dir: u32) -> u32 {
        let own = &self.stones[player.index()];
        let mut n = 1;
        let mut i = usize::from(p) + dir as usize;
        while i < 256 && own.test(i) {
            n += 1;
            i += dir as usize;
        }
        let mut i = usize::from(p) as isize - dir as isize;
        while i >= 0 && own.test(i as usize) {
            n += 1;
            i -= dir as isize;
        }
        n
    }

    /// Whether a stone of `player` on `p` makes a winning line under the
    /// variant's rule.
    #[inline]
    pub fn makes_five(&self, player: Player, p: Point) -> bool {
        DIRS.iter().any(|&d| {
            let n = self.run_length(player, p, d);
            match self.rule {
                FiveRule::Freestyle => n >= 5,
                FiveRule::Exact => n == 5,
            }
        })
    }

    /// The Zobrist hash recomputed from the stones (equal to the incremental
    /// [`hash_key`](Game::hash_key)).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for p in 0..2 {
            let mut s = self.stones[p];
            while let Some(i) = s.pop_lowest() {
                h ^= KEYS[p * 256 + i];
            }
        }
        h
    }

    /// The candidate points: empty points within `radius` of a stone.
    #[inline]
    fn candidates(&self) -> Bits256 {
        let board = self.board();
        let occ = self.occupied();
        let mut d = occ;
        for _ in 0..self.radius {
            d = (d | d.shl(1) | d.shr(1)) & board;
            d = (d | d.shl(16) | d.shr(16)) & board;
        }
        d & !occ
    }

    /// Parses one point name such as `h8`.
    fn parse_point(&self, text: &str) -> Result<Point, GameError> {
        let b = text.as_bytes();
        let err = |pos, reason: &str| GameError::parse("move", text, pos, reason);
        let Some(&letter) = b.first() else {
            return Err(err(0, "empty point name"));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(err(0, "expected a column letter"));
        }
        let col = usize::from(letter.to_ascii_lowercase() - b'a');
        let digits = &text[1..];
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(err(1, "expected a row number"));
        }
        let row: usize = digits.parse().map_err(|_| err(1, "expected a row number"))?;
        if col >= self.size() {
            return Err(err(0, &format!("no column {} on a {}×{} board", char::from(letter), self.size, self.size)));
        }
        if row == 0 || row > self.size() {
            return Err(err(1, &format!("no row {row} on a {}×{} board", self.size, self.size)));
        }
        Ok(((row - 1) * STRIDE + col) as Point)
    }
}

impl Game for Gobang {
    type Move = Point;
    const HASHED: bool = true;

    #[inline]
    fn turn(&self) -> Turn {
        Turn::Player(self.to_move())
    }

    /// Known from the winner and the stone count alone. A board that is
    /// not full always has a candidate: walking from a stone towards an
    /// empty point, the first empty point met is next to a stone.
    #[inline]
    fn quick_status(&self) -> Option<Status> {
        Some(if let Some(w) = self.winner {
            Status::Over(Outcome::Win(w))
        } else if usize::from(self.moves) == self.size() * self.size() {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        })
    }

    fn generate(&self, moves: &mut Vec<Point>) -> Status {
        if let Some(Status::Over(outcome)) = self.quick_status() {
            return Status::Over(outcome);
        }
        let mut set = match (self.moves, self.opening) {
            (0, Opening::Centre) => Bits256::bit(usize::from(self.centre())),
            (0, Opening::Anywhere) => self.board(),
            _ => self.candidates(),
        };
        while let Some(i) = set.pop_lowest() {
            moves.push(i as Point);
        }
        Status::Ongoing
    }

    #[inline]
    fn play(&mut self, p: Point) {
        let player = self.to_move();
        self.stones[player.index()] |= Bits256::bit(usize::from(p));
        self.hash ^= KEYS[player.index() * 256 + usize::from(p)];
        self.moves += 1;
        if self.makes_five(player, p) {
            self.winner = Some(player);
        }
    }

    fn write_move(&self, p: Point, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (c, r) = Self::coords(p);
        write!(f, "{}{}", char::from(b'a' + c as u8), r + 1)
    }

    fn parse_move(&self, text: &str) -> Result<Point, GameError> {
        self.parse_point(text)
    }

    #[inline]
    fn hash_key(&self) -> Option<u64> {
        Some(self.hash)
    }

    /// Four points per stone among the eight neighbours, plus closeness to
    /// the centre (`size − Chebyshev distance`).
    fn order_hint(&self, p: Point) -> i32 {
        let (c, r) = Self::coords(p);
        let occ = self.occupied();
        let mut near = 0;
        for dr in -1isize..=1 {
            for dc in -1isize..=1 {
                let (cc, rr) = (c as isize + dc, r as isize + dr);
                if (dr, dc) != (0, 0) && (0..16).contains(&cc) && (0..16).contains(&rr) {
                    near += i32::from(occ.test(rr as usize * STRIDE + cc as usize));
                }
            }
        }
        let mid = (self.size() / 2) as isize;
        let dist = (c as isize - mid).abs().max((r as isize - mid).abs()) as i32;
        4 * near + self.size() as i32 - dist
    }

    fn try_play(&mut self, p: Point) -> Result<(), GameError> {
        if !self.on_board(p) {
            let (c, r) = Self::coords(p);
            return Err(GameError::illegal(format!("point {p} (column {c}, row {r})"), "off the board"));
        }
        if self.winner.is_some() || usize::from(self.moves) == self.size() * self.size() {
            return Err(GameError::GameOver);
        }
        if self.occupied().test(usize::from(p)) {
            return Err(GameError::illegal(self.move_string(p), "point occupied"));
        }
        self.play(p);
        Ok(())
    }
}

impl FromStr for Gobang {
    type Err = GameError;

    /// A position on the default board (15 × 15 freestyle) as the list of
    /// its moves from the empty board: point names separated by spaces or
    /// commas, or written together (`"h8i9"`). Use
    /// [`Gobang::from_moves`] for other variants.
    fn from_str(s: &str) -> Result<Self, GameError> {
        Gobang::from_moves(GobangOptions::default(), s)
    }
}

impl fmt::Display for Gobang {
    /// The board, the top row first: row numbers on the left, column letters
    /// below; `X` (first player), `O`, `.` for an empty point.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for r in (0..n).rev() {
            write!(f, "{:>2}", r + 1)?;
            for c in 0..n {
                write!(f, " {}", board_text::mark(self.at((r * STRIDE + c) as Point)))?;
            }
            writeln!(f)?;
        }
        write!(f, "  ")?;
        for c in 0..n {
            write!(f, " {}", char::from(b'a' + c as u8))?;
        }
        writeln!(f)
    }
}
