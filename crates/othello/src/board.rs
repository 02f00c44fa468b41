//! The position, its rules and its text forms.

use std::fmt;
use std::str::FromStr;

use search_core::rng::splitmix64;
use search_core::{Game, GameError, Outcome, ParamError, Player, Status, Turn};

use crate::bits::{self, C_SQUARES, CORNERS, X_SQUARES};
use crate::{BLACK, FILES, FULL, Move, RANKS, SQUARES, Square, WHITE};

/// The start position's Black discs: `d3` and `c4`.
const START_BLACK: u64 = 1 << (2 * FILES + 3) | 1 << (3 * FILES + 2);
/// The start position's White discs: `c3` and `d4`.
const START_WHITE: u64 = 1 << (2 * FILES + 2) | 1 << (3 * FILES + 3);

/// Mixed into the hash of a position, one per side to move.
const SIDE_KEYS: [u64; 2] = [splitmix64(0x6f74_6865_6c6c_6f42), splitmix64(0x6f74_6865_6c6c_6f57)];

/// An Othello position on the 6×6 board: the discs of each colour and the
/// side to move.
///
/// `Copy` (24 bytes); playing a move and generating moves allocate nothing.
/// Black is [`Player::First`] and moves first, White is [`Player::Second`]
/// (see the [crate documentation](crate) for the rules and the notation).
///
/// ```
/// use othello::{Othello, BLACK, WHITE};
/// use search_core::{Game, Status};
///
/// let mut g = Othello::new();
/// assert_eq!((g.count(BLACK), g.count(WHITE)), (2, 2));
/// g.play_str("c2")?; // flips c3
/// assert_eq!((g.count(BLACK), g.count(WHITE)), (4, 1));
/// assert_eq!(g.to_move(), WHITE);
/// assert_eq!(g.status(), Status::Ongoing);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Othello {
    /// Discs by player index: Black (`First`) at 0, White at 1.
    discs: [u64; 2],
    to_move: Player,
}

impl Default for Othello {
    /// The start position ([`Othello::new`]).
    fn default() -> Self {
        Self::new()
    }
}

impl Othello {
    /// The start position: White on `c3` and `d4`, Black on `d3` and `c4`,
    /// Black to move.
    ///
    /// ```
    /// use othello::Othello;
    /// use search_core::Game;
    /// let g = Othello::new();
    /// let mut moves = Vec::new();
    /// g.generate(&mut moves);
    /// let mut names: Vec<String> = moves.iter().map(|&m| g.move_string(m)).collect();
    /// names.sort();
    /// assert_eq!(names, ["b3", "c2", "d5", "e4"]);
    /// ```
    pub const fn new() -> Self {
        Othello { discs: [START_BLACK, START_WHITE], to_move: BLACK }
    }

    /// The position after the moves in `moves`, played from the start
    /// position (see [`FromStr`](#impl-FromStr-for-Othello) for the format).
    ///
    /// Errors: a malformed move ([`GameError::Parse`], at its byte offset), an
    /// illegal one ([`GameError::IllegalMove`], the reason naming its place in
    /// the list), a move after the end ([`GameError::GameOver`]).
    ///
    /// ```
    /// use othello::Othello;
    /// use search_core::GameError;
    /// let g = Othello::from_moves("c2 b2 a2")?;
    /// assert_eq!(g.count(othello::BLACK), 5);
    /// assert!(matches!(Othello::from_moves("c2 c2"), Err(GameError::IllegalMove { .. })));
    /// assert!(matches!(Othello::from_moves("c2 z9"), Err(GameError::Parse { position: 3, .. })));
    /// # Ok::<(), GameError>(())
    /// ```
    pub fn from_moves(moves: &str) -> Result<Self, GameError> {
        moves.parse()
    }

    /// A position from its discs (bitboards, bit `rank × 6 + file`, see
    /// [`Square::index`]) and the side to move. Any arrangement is accepted,
    /// reachable from the start or not.
    ///
    /// Errors: a bit at 36 or above, or a square in both sets (a
    /// [`ParamError`] named `black` or `white`).
    ///
    /// ```
    /// use othello::{Othello, BLACK, WHITE};
    /// let g = Othello::new();
    /// let same = Othello::from_discs(g.discs(BLACK), g.discs(WHITE), BLACK)?;
    /// assert_eq!(g, same);
    /// assert!(Othello::from_discs(1, 1, WHITE).is_err());
    /// assert!(Othello::from_discs(1 << 36, 0, WHITE).is_err());
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn from_discs(black: u64, white: u64, to_move: Player) -> Result<Self, ParamError> {
        if black & !FULL != 0 {
            return Err(ParamError::new("black", format!("bits above 35 are set: {black:#x}")));
        }
        if white & !FULL != 0 {
            return Err(ParamError::new("white", format!("bits above 35 are set: {white:#x}")));
        }
        if black & white != 0 {
            return Err(ParamError::new("white", format!("squares also held by black: {:#x}", black & white)));
        }
        Ok(Othello { discs: [black, white], to_move })
    }

    /// A position from a picture of the board and the side to move: 36
    /// cells, rank `1` first and file `a` first within a rank, each `X` (or
    /// `x`) for Black, `O` (or `o`) for White, `.` or `-` for an empty
    /// square; whitespace anywhere is ignored. Any arrangement is accepted.
    ///
    /// Errors: another character, or not exactly 36 cells
    /// ([`GameError::Parse`], at the byte offset where it goes wrong).
    ///
    /// ```
    /// use othello::{Move, Othello, BLACK, WHITE};
    /// use search_core::{Game, Outcome, Status};
    /// // Black has no placement, White has: Black's only move is a pass.
    /// let g = Othello::from_board(
    ///     "OX.... ...... ...... ...... ...... ......",
    ///     BLACK,
    /// )?;
    /// let mut moves = Vec::new();
    /// assert_eq!(g.generate(&mut moves), Status::Ongoing);
    /// assert_eq!(moves, [Move::Pass]);
    /// // With no disc of one colour left, neither side can move.
    /// let g = Othello::from_board(&format!("OO{}", ".".repeat(34)), WHITE)?;
    /// assert_eq!(g.status(), Status::Over(Outcome::Win(WHITE)));
    /// // 5 cells, not 36.
    /// assert!(Othello::from_board("OOOOO", WHITE).is_err());
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn from_board(text: &str, to_move: Player) -> Result<Self, GameError> {
        let mut discs = [0u64; 2];
        let mut cell = 0usize;
        for (i, c) in text.char_indices() {
            if c.is_whitespace() {
                continue;
            }
            let owner = match c {
                'X' | 'x' => Some(BLACK),
                'O' | 'o' => Some(WHITE),
                '.' | '-' => None,
                _ => return Err(GameError::parse("position", text, i, "a cell must be X, O, . or -")),
            };
            if cell == SQUARES {
                return Err(GameError::parse("position", text, i, "more than 36 cells"));
            }
            if let Some(p) = owner {
                discs[p.index()] |= 1 << cell;
            }
            cell += 1;
        }
        if cell != SQUARES {
            return Err(GameError::parse("position", text, text.len(), format!("{cell} cells, expected 36")));
        }
        Ok(Othello { discs, to_move })
    }

    /// The discs of `player`, as a bitboard (bit [`Square::index`]).
    ///
    /// ```
    /// use othello::{Othello, BLACK};
    /// let d3c4 = 1 << 15 | 1 << 20;
    /// assert_eq!(Othello::new().discs(BLACK), d3c4);
    /// ```
    #[inline]
    pub const fn discs(&self, player: Player) -> u64 {
        self.discs[player as usize]
    }

    /// The number of discs of `player`.
    ///
    /// ```
    /// use othello::{Othello, WHITE};
    /// assert_eq!(Othello::new().count(WHITE), 2);
    /// ```
    #[inline]
    pub const fn count(&self, player: Player) -> u32 {
        self.discs(player).count_ones()
    }

    /// The empty squares, as a bitboard.
    ///
    /// ```
    /// use othello::Othello;
    /// assert_eq!(Othello::new().empty().count_ones(), 32);
    /// ```
    #[inline]
    pub const fn empty(&self) -> u64 {
        !(self.discs[0] | self.discs[1]) & FULL
    }

    /// The side to move (Black is [`Player::First`]). In a finished game,
    /// the side that would move next.
    ///
    /// ```
    /// use othello::{Othello, BLACK};
    /// assert_eq!(Othello::new().to_move(), BLACK);
    /// ```
    #[inline]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// Who holds `square`, if anyone.
    ///
    /// ```
    /// use othello::{Othello, Square, WHITE};
    /// let g = Othello::new();
    /// assert_eq!(g.at("c3".parse::<Square>()?), Some(WHITE));
    /// assert_eq!(g.at("a1".parse::<Square>()?), None);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub const fn at(&self, square: Square) -> Option<Player> {
        let bit = square.bit();
        if self.discs[0] & bit != 0 {
            Some(Player::First)
        } else if self.discs[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The squares where `player` could place a disc in this position (as if
    /// it were to move), as a bitboard.
    ///
    /// ```
    /// use othello::{Othello, WHITE};
    /// // From the start, White (not to move) would have four placements.
    /// assert_eq!(Othello::new().placements_for(WHITE).count_ones(), 4);
    /// ```
    #[inline]
    pub fn placements_for(&self, player: Player) -> u64 {
        bits::placements(self.discs(player), self.discs(player.opponent()))
    }

    /// The squares where the side to move may place a disc, as a bitboard
    /// (0 when it must pass or the game is over).
    ///
    /// ```
    /// use othello::{Othello, Square};
    /// let names: Vec<String> = Square::iter_bits(Othello::new().placements()).map(|s| s.to_string()).collect();
    /// assert_eq!(names, ["c2", "b3", "e4", "d5"]);
    /// ```
    #[inline]
    pub fn placements(&self) -> u64 {
        self.placements_for(self.to_move)
    }

    /// The discs a placement of the side to move on `square` would flip (0
    /// if the square is occupied or the placement flips nothing, that is,
    /// is illegal).
    ///
    /// ```
    /// use othello::{Othello, Square};
    /// let g = Othello::new();
    /// let c2: Square = "c2".parse()?;
    /// let c3: Square = "c3".parse()?;
    /// assert_eq!(g.flips(c2), c3.bit());
    /// assert_eq!(g.flips(c3), 0);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub fn flips(&self, square: Square) -> u64 {
        let (own, opp) = self.own_opp();
        if (own | opp) & square.bit() != 0 { 0 } else { bits::flips(own, opp, square.bit()) }
    }

    /// Whether neither side can place a disc (then the game is over).
    ///
    /// ```
    /// use othello::Othello;
    /// assert!(!Othello::new().is_over());
    /// ```
    #[inline]
    pub fn is_over(&self) -> bool {
        let (own, opp) = self.own_opp();
        bits::placements(own, opp) == 0 && bits::placements(opp, own) == 0
    }

    /// Black's discs minus White's.
    ///
    /// ```
    /// use othello::Othello;
    /// assert_eq!(Othello::from_moves("c2")?.disc_margin(), 3);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub const fn disc_margin(&self) -> i32 {
        self.count(BLACK) as i32 - self.count(WHITE) as i32
    }

    /// The result of a finished game by disc count: a win for the colour
    /// with more discs, a draw if the counts are equal. Empty squares count
    /// for nobody. `None` while a side can still move.
    ///
    /// ```
    /// use othello::{Othello, BLACK};
    /// use search_core::Outcome;
    /// assert_eq!(Othello::new().outcome(), None);
    /// let g = Othello::from_board(&format!("XX{}", ".".repeat(34)), BLACK)?;
    /// assert_eq!(g.outcome(), Some(Outcome::Win(BLACK)));
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.final_outcome())
    }

    /// The outcome by disc count, whether or not the game is over.
    #[inline]
    fn final_outcome(&self) -> Outcome {
        match self.disc_margin() {
            m if m > 0 => Outcome::Win(BLACK),
            m if m < 0 => Outcome::Win(WHITE),
            _ => Outcome::Draw,
        }
    }

    /// The discs of the side to move and of its opponent.
    #[inline]
    pub(crate) const fn own_opp(&self) -> (u64, u64) {
        let i = self.to_move as usize;
        (self.discs[i], self.discs[1 - i])
    }

    /// The hash key: a pure function of the discs and the side to move.
    ///
    /// It is SplitMix64's bijective mixer applied twice,
    /// `mix(black ^ mix(white ^ side_key))`: equal positions have equal
    /// keys, and the same discs with the other side to move always get a
    /// different key (the two side keys differ and both steps are
    /// bijections). Distinct disc arrangements collide with the probability
    /// of random 64-bit keys.
    ///
    /// ```
    /// use othello::{Othello, BLACK, WHITE};
    /// use search_core::Game;
    /// let g = Othello::new();
    /// assert_eq!(g.hash_key(), Some(g.key()));
    /// let w = Othello::from_discs(g.discs(BLACK), g.discs(WHITE), WHITE)?;
    /// assert_ne!(w.key(), g.key());
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    #[inline]
    pub const fn key(&self) -> u64 {
        splitmix64(self.discs[0] ^ splitmix64(self.discs[1] ^ SIDE_KEYS[self.to_move as usize]))
    }

    /// The static search order of a square: corners first, then the squares
    /// next to no corner, then the C-squares, then the X-squares.
    #[inline]
    fn square_rank(bit: u64) -> i32 {
        if bit & CORNERS != 0 {
            3
        } else if bit & X_SQUARES != 0 {
            0
        } else if bit & C_SQUARES != 0 {
            1
        } else {
            2
        }
    }
}

impl Game for Othello {
    type Move = Move;
    const HASHED: bool = true;

    #[inline]
    fn turn(&self) -> Turn {
        Turn::Player(self.to_move)
    }

    /// Writes the placements of the side to move, corners first, then the
    /// squares next to no corner, then the C-squares, then the X-squares
    /// (index order within each group); or the single move
    /// [`Move::Pass`]; or, if neither side can place a disc, nothing, and
    /// returns the result by disc count.
    #[inline]
    fn generate(&self, moves: &mut Vec<Move>) -> Status {
        let (own, opp) = self.own_opp();
        let legal = bits::placements(own, opp);
        if legal != 0 {
            let plain = legal & !(CORNERS | X_SQUARES | C_SQUARES);
            for group in [legal & CORNERS, plain, legal & C_SQUARES, legal & X_SQUARES] {
                moves.extend(Square::iter_bits(group).map(Move::Place));
            }
            Status::Ongoing
        } else if bits::placements(opp, own) != 0 {
            moves.push(Move::Pass);
            Status::Ongoing
        } else {
            Status::Over(self.final_outcome())
        }
    }

    /// Plays a placement (the disc and its flips) or a pass, and hands the
    /// move to the opponent. The move must be legal (checked by debug
    /// assertions only; see [`try_play`](Game::try_play)).
    #[inline]
    fn play(&mut self, mv: Move) {
        let i = self.to_move as usize;
        if let Move::Place(sq) = mv {
            let (own, opp) = (self.discs[i], self.discs[1 - i]);
            let bit = sq.bit();
            let flipped = bits::flips(own, opp, bit);
            debug_assert!((own | opp) & bit == 0 && flipped != 0, "illegal placement {sq} in {self:?}");
            self.discs[i] = own | bit | flipped;
            self.discs[1 - i] = opp & !flipped;
        } else {
            debug_assert!(self.placements() == 0, "a pass where a placement is legal in {self:?}");
        }
        self.to_move = self.to_move.opponent();
    }

    fn write_move(&self, mv: Move, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{mv}")
    }

    /// Parses `a1`..`f6` (the file letter in either case) or `pass` (any
    /// case); anything else is a [`GameError::Parse`].
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Move::parse_at(text, 0)
    }

    /// Exact: works out the moves of both sides (without writing them), so
    /// a search can skip generating moves at its horizon.
    #[inline]
    fn quick_status(&self) -> Option<Status> {
        let (own, opp) = self.own_opp();
        Some(if bits::placements(own, opp) != 0 || bits::placements(opp, own) != 0 {
            Status::Ongoing
        } else {
            Status::Over(self.final_outcome())
        })
    }

    /// [`Othello::key`].
    #[inline]
    fn hash_key(&self) -> Option<u64> {
        Some(self.key())
    }

    /// 3 for a corner, 2 for a square next to no corner, 1 for a C-square
    /// (next to a corner on the edge), 0 for an X-square (diagonally next to
    /// a corner) and for a pass.
    #[inline]
    fn order_hint(&self, mv: Move) -> i32 {
        match mv {
            Move::Place(sq) => Self::square_rank(sq.bit()),
            Move::Pass => 0,
        }
    }

    /// Checks the move, with a precise reason, then plays it.
    ///
    /// Errors: [`GameError::GameOver`] if neither side can move;
    /// [`GameError::IllegalMove`] for an occupied square, a placement that
    /// flips nothing, a placement when the only move is a pass, or a pass
    /// when a placement is legal.
    fn try_play(&mut self, mv: Move) -> Result<(), GameError> {
        let (own, opp) = self.own_opp();
        let legal = bits::placements(own, opp);
        if legal == 0 && bits::placements(opp, own) == 0 {
            return Err(GameError::GameOver);
        }
        match mv {
            Move::Place(sq) if (own | opp) & sq.bit() != 0 => {
                return Err(GameError::illegal(sq.to_string(), "the square is occupied"));
            }
            Move::Place(sq) if legal == 0 => {
                return Err(GameError::illegal(sq.to_string(), "no placement is legal: the only move is pass"));
            }
            Move::Place(sq) if legal & sq.bit() == 0 => {
                return Err(GameError::illegal(sq.to_string(), "the placement flips no disc"));
            }
            Move::Pass if legal != 0 => {
                return Err(GameError::illegal("pass", "a placement is legal, so passing is not"));
            }
            _ => {}
        }
        self.play(mv);
        Ok(())
    }
}

impl FromStr for Othello {
    type Err = GameError;

    /// The position after a list of moves from the start position: square
    /// names and `pass`, separated by spaces or commas or written together
    /// (`"c2b2a2"`, `"c2, b2, a2"`); case is ignored. The empty string is
    /// the start position. Errors as [`Othello::from_moves`].
    ///
    /// ```
    /// use othello::Othello;
    /// let a: Othello = "c2b2a2".parse()?;
    /// let b: Othello = "C2, b2 ,a2".parse()?;
    /// assert_eq!(a, b);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, GameError> {
        let mut g = Othello::new();
        let b = s.as_bytes();
        let mut i = 0;
        let mut number = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() || b[i] == b',' {
                i += 1;
                continue;
            }
            let is_pass = s.get(i..i + 4).is_some_and(|t| t.eq_ignore_ascii_case("pass"));
            let len = if is_pass { 4 } else { 2 };
            let Some(token) = s.get(i..i + len) else {
                return Err(GameError::parse("position", s, i, "incomplete move: expected a square a1..f6 or pass"));
            };
            let mv = Move::parse_at(token, i).map_err(|e| match e {
                GameError::Parse { position, reason, .. } => GameError::parse("position", s, position, reason),
                other => other,
            })?;
            number += 1;
            g.try_play(mv).map_err(|e| match e {
                GameError::IllegalMove { mv, reason } => {
                    GameError::illegal(mv, format!("{reason} (move {number} of the list)"))
                }
                other => other,
            })?;
            i += len;
        }
        Ok(g)
    }
}

impl fmt::Display for Othello {
    /// The board, rank `1` at the top, with file letters above and rank
    /// digits on the left; `X` is Black, `O` White, `.` empty. A last line
    /// says who is to move (`X to move`, `O to move`) or `game over`.
    ///
    /// ```
    /// use othello::Othello;
    /// let expected = "  a b c d e f
    /// 1 . . . . . .
    /// 2 . . . . . .
    /// 3 . . O X . .
    /// 4 . . X O . .
    /// 5 . . . . . .
    /// 6 . . . . . .
    /// X to move
    /// ";
    /// assert_eq!(Othello::new().to_string(), expected);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(" ")?;
        for file in 0..FILES as u8 {
            write!(f, " {}", char::from(b'a' + file))?;
        }
        writeln!(f)?;
        for rank in 0..RANKS as u8 {
            write!(f, "{}", rank + 1)?;
            for file in 0..FILES as u8 {
                let sq = Square::new(file, rank).expect("on the board");
                write!(f, " {}", mark(self.at(sq)))?;
            }
            writeln!(f)?;
        }
        if self.is_over() { writeln!(f, "game over") } else { writeln!(f, "{} to move", mark(Some(self.to_move))) }
    }
}

impl fmt::Debug for Othello {
    /// The board in [`Othello::from_board`]'s format, ranks separated by
    /// `/`, and the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut board = String::with_capacity(SQUARES + RANKS);
        for sq in Square::all() {
            if sq.index() > 0 && sq.file() == 0 {
                board.push('/');
            }
            board.push(mark(self.at(sq)));
        }
        f.debug_struct("Othello").field("board", &board).field("to_move", &mark(Some(self.to_move))).finish()
    }
}

/// The character of a square's owner.
fn mark(owner: Option<Player>) -> char {
    match owner {
        Some(Player::First) => 'X',
        Some(Player::Second) => 'O',
        None => '.',
    }
}
