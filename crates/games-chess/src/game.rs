//! [`ChessGame`]: standard chess as a [`search_core::Game`].

use std::fmt;

use search_core::{Game, GameError, Outcome, Player, Status, Turn};
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, Color, File, Move, MoveList, Position, Square};

use crate::history::History;
use crate::rules::Rules;
use crate::{notation, ordering, zobrist};

/// A chess position with what the rules need beyond the board: its Zobrist
/// key, the keys of the positions before it (for repetitions) and the
/// [`Rules`] in force.
///
/// Searches copy it (`Clone`, about 1 KB, no heap: the repetition history
/// is a fixed array of up to 100 keys) and play moves on the copy. Moves are [`shakmaty::Move`], written and parsed in UCI notation.
///
/// # Game end
///
/// [`generate`](Game::generate) generates the legal moves once and decides
/// the status from them and the rules:
///
/// * no legal move: checkmate ([`Outcome::Win`] for the side that gave
///   mate) if in check, else stalemate ([`Outcome::Draw`]);
/// * with [`Rules::insufficient_material`], a position where neither side
///   can mate is a draw;
/// * with [`Rules::fifty_move`], a position with a halfmove clock of 100 or
///   more is a draw, unless it is checkmate;
/// * with [`Rules::repetition`], a position is a draw when it occurred twice
///   before with the same side to move, castling rights and legal en passant
///   capture (the third occurrence ends the game: the claim is taken as
///   made). If [`mark_search_root`](ChessGame::mark_search_root) was called,
///   a position is also a draw when it occurred once before *strictly below*
///   the marked root (a repetition made wholly inside the search, which the
///   side to move could avoid or else repeat into a threefold). The history
///   keeps every position since the last capture or pawn move, up to the
///   [`HISTORY_CAPACITY`](crate::HISTORY_CAPACITY) = 100 plies that the
///   fifty-move rule allows (a null move also clears it); only a game played
///   on past a fifty-move draw loses its oldest positions.
///
/// # Example
///
/// ```
/// use games_chess::ChessGame;
/// use search_core::{Game, Outcome, Player, Status};
///
/// let mut g = ChessGame::startpos();
/// for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     g.play_str(mv)?;
/// }
/// assert_eq!(g.status(), Status::Over(Outcome::Win(Player::Second)));
/// assert_eq!(g.to_string(), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug)]
pub struct ChessGame {
    pos: Chess,
    /// Zobrist key of `pos`.
    key: u64,
    /// The en passant part of `key`: 1 + the file of a legal en passant
    /// capture, or 0.
    ep: u8,
    history: History,
    /// Plies since [`ChessGame::mark_search_root`], if it was called.
    since_root: Option<u16>,
    rules: Rules,
    /// Where the last two moves went: `[0]` the opponent's last move (the
    /// side not to move), `[1]` the mover's own move before it.
    last_to: [Option<Square>; 2],
    /// Whether [`order_hint`](Game::order_hint) puts the captures that lose
    /// material by static exchange evaluation after the quiet moves.
    see_ordering: bool,
}

impl ChessGame {
    /// The standard initial position, with [`Rules::STANDARD`].
    pub fn startpos() -> Self {
        Self::from_position(Chess::new())
    }

    /// Where the last two moves played from this state's start went (the
    /// king's square for castling): `[0]` the opponent's last move, `[1]`
    /// the side to move's own move before it; `None` before the start (a
    /// FEN has no moves) or for a null move.
    ///
    /// ```
    /// use games_chess::ChessGame;
    /// use search_core::Game;
    /// let mut g = ChessGame::startpos();
    /// g.play(g.parse_move("e2e4")?);
    /// g.play(g.parse_move("d7d5")?);
    /// assert_eq!(g.last_destinations(), [Some(shakmaty::Square::D5), Some(shakmaty::Square::E4)]);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn last_destinations(&self) -> [Option<Square>; 2] {
        self.last_to
    }

    /// The position of a FEN string, with [`Rules::STANDARD`] and an empty
    /// repetition history (the halfmove clock is taken from the FEN).
    ///
    /// # Errors
    ///
    /// [`GameError::Parse`] (with `what = "FEN"`) if the string is not a FEN
    /// or describes a broken position (missing king, side not to move in
    /// check, pawns on the back rank, impossible castling rights or en
    /// passant square). Unreachable but well-defined positions (aligned
    /// double checks, too much material), which some perft suites use, are
    /// accepted.
    ///
    /// ```
    /// use games_chess::ChessGame;
    /// let g = ChessGame::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// assert_eq!(g.to_string(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    /// assert!(ChessGame::from_fen("4k3/8/8 w - - 0 1").is_err());
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Self, GameError> {
        notation::parse_fen(fen.trim()).map(Self::from_position)
    }

    /// Wraps a `shakmaty` position, with [`Rules::STANDARD`] and an empty
    /// repetition history.
    pub fn from_position(pos: Chess) -> Self {
        let key = zobrist::full_key(&pos);
        let ep = zobrist::ep_part(&pos);
        ChessGame {
            pos,
            key,
            ep,
            history: History::new(),
            since_root: None,
            rules: Rules::STANDARD,
            last_to: [None; 2],
            see_ordering: false,
        }
    }

    /// The same state under other rules. Positions are recorded for the
    /// repetition rule only while it is on.
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> Self {
        self.rules = rules;
        self
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same state with the engine's move ordering on or off (off by
    /// default; the positions after it keep the setting). Off,
    /// [`order_hint`](Game::order_hint) is MVV-LVA, the order the strength
    /// dial was calibrated with; on, captures (and promotions) that lose
    /// material by [static exchange evaluation](crate::see::see) come after
    /// the quiet moves. The UCI engine's full-strength alpha-beta search
    /// turns it on.
    ///
    /// ```
    /// use games_chess::ChessGame;
    /// use search_core::Game;
    /// // The queen takes a pawn that a pawn defends.
    /// let g = ChessGame::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")?;
    /// let (capture, quiet) = (g.parse_move("d2d5")?, g.parse_move("d2d3")?);
    /// assert!(g.order_hint(capture) > g.order_hint(quiet));
    /// let g = g.with_see_ordering(true);
    /// assert!(g.see_ordering() && g.order_hint(capture) < g.order_hint(quiet));
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[must_use]
    pub fn with_see_ordering(mut self, on: bool) -> Self {
        self.see_ordering = on;
        self
    }

    /// Whether the engine's move ordering is on
    /// ([`with_see_ordering`](ChessGame::with_see_ordering)).
    pub fn see_ordering(&self) -> bool {
        self.see_ordering
    }

    /// The `shakmaty` position (board, side to move, castling, en passant,
    /// clocks).
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The position as a FEN string (en passant square written only when a
    /// capture is legal).
    pub fn fen(&self) -> String {
        notation::fen(&self.pos).to_string()
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Marks this state as the root of a search: below it, a position that
    /// repeats one that is itself below the root is a draw at once (see the
    /// type's documentation). Call it on the root state before searching;
    /// states played from it inherit the mark.
    ///
    /// ```
    /// use games_chess::ChessGame;
    /// use search_core::{Game, Outcome, Status};
    ///
    /// let mut g = ChessGame::startpos();
    /// g.mark_search_root();
    /// g.play_str("e2e4")?;
    /// for mv in ["g8f6", "g1f3", "f6g8", "f3g1"] {
    ///     g.play_str(mv)?;
    /// }
    /// // The position after 1. e4 came back below the root: a draw.
    /// assert_eq!(g.status(), Status::Over(Outcome::Draw));
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn mark_search_root(&mut self) {
        self.since_root = Some(0);
    }

    /// Whether the position is a draw by one of the rules that need no move
    /// generation (insufficient material, repetition).
    #[inline]
    fn is_rule_draw(&self) -> bool {
        (self.rules.insufficient_material && self.pos.is_insufficient_material())
            || (self.rules.repetition && self.history.is_draw(self.key, self.twofold_window()))
    }

    /// Earlier occurrences strictly fewer plies back than this are below the
    /// search root.
    #[inline]
    fn twofold_window(&self) -> usize {
        self.since_root.map_or(0, usize::from)
    }

    /// `read` applied to the legal moves (`shakmaty`'s own list, not
    /// copied), or the game's end: a draw by rule, checkmate, stalemate or
    /// the fifty-move rule.
    #[inline]
    fn with_legal_moves<R>(&self, read: impl FnOnce(&MoveList) -> R) -> Result<R, Outcome> {
        if self.is_rule_draw() {
            return Err(Outcome::Draw);
        }
        let legal = self.pos.legal_moves();
        match self.status_with(&legal) {
            Some(outcome) => Err(outcome),
            None => Ok(read(&legal)),
        }
    }

    /// The status given the legal moves of the position.
    #[inline]
    fn status_with(&self, legal: &MoveList) -> Option<Outcome> {
        if legal.is_empty() {
            return Some(if self.pos.is_check() { Outcome::Win(player_of(!self.pos.turn())) } else { Outcome::Draw });
        }
        if self.rules.fifty_move && self.pos.halfmoves() >= 100 {
            return Some(Outcome::Draw);
        }
        None
    }
}

#[inline]
/// Where a move takes the moving piece (the king's square for castling,
/// which `shakmaty` writes as the king taking its rook).
pub(crate) fn destination(mv: Move) -> Square {
    match mv {
        Move::Castle { king, rook } => {
            Square::from_coords(if rook.file() > king.file() { File::G } else { File::C }, king.rank())
        }
        _ => mv.to(),
    }
}

fn player_of(color: Color) -> Player {
    match color {
        Color::White => Player::First,
        Color::Black => Player::Second,
    }
}

impl Clone for ChessGame {
    #[inline]
    fn clone(&self) -> Self {
        ChessGame {
            pos: self.pos.clone(),
            key: self.key,
            ep: self.ep,
            history: self.history,
            since_root: self.since_root,
            rules: self.rules,
            last_to: self.last_to,
            see_ordering: self.see_ordering,
        }
    }

    /// Copies only the live part of the repetition history (often none:
    /// after an irreversible move, or with the repetition rule off), not
    /// the whole fixed-size array, which is most of the state's bytes.
    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.pos.clone_from(&source.pos);
        self.key = source.key;
        self.ep = source.ep;
        self.history.clone_live_from(&source.history);
        self.since_root = source.since_root;
        self.rules = source.rules;
        self.last_to = source.last_to;
        self.see_ordering = source.see_ordering;
    }
}

impl Default for ChessGame {
    /// [`ChessGame::startpos`].
    fn default() -> Self {
        Self::startpos()
    }
}

impl Game for ChessGame {
    /// Any repetition below the search root counts as a draw (see the
    /// inherent [`ChessGame::mark_search_root`]).
    fn mark_search_root(&mut self) {
        ChessGame::mark_search_root(self);
    }

    type Move = Move;
    const HASHED: bool = true;

    #[inline]
    fn turn(&self) -> Turn {
        Turn::Player(player_of(self.pos.turn()))
    }

    /// The legal moves in `shakmaty`'s generation order (use
    /// [`order_hint`](Game::order_hint) to sort), or the game's end (see
    /// [`ChessGame`]). One legal-move generation.
    #[inline]
    fn generate(&self, moves: &mut Vec<Move>) -> Status {
        match self.with_legal_moves(|legal| moves.extend(legal.iter().copied())) {
            Ok(()) => Status::Ongoing,
            Err(outcome) => Status::Over(outcome),
        }
    }

    /// The length of `shakmaty`'s own move list: nothing is copied.
    #[inline]
    fn count_moves(&self, _scratch: &mut Vec<Move>) -> Option<usize> {
        self.with_legal_moves(MoveList::len).ok()
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        if self.rules.repetition {
            if mv.is_zeroing() {
                self.history.clear();
            } else {
                self.history.push(self.key);
            }
        }
        self.last_to = [Some(destination(mv)), self.last_to[0]];
        (self.key, self.ep) = zobrist::play_keyed(&mut self.pos, self.key, self.ep, mv);
        if let Some(plies) = &mut self.since_root {
            *plies = plies.saturating_add(1);
        }
    }

    /// UCI notation: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`).
    fn write_move(&self, mv: Move, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::write_uci(mv, f)
    }

    /// UCI notation, or SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`). A `shakmaty`
    /// move needs the position to be built, so this also checks that the
    /// move is legal on the board ([`GameError::IllegalMove`] if not);
    /// whether the game is already over is checked by
    /// [`try_play`](Game::try_play).
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        notation::parse_move(&self.pos, text)
    }

    /// Always `Some`: `shakmaty`'s 64-bit Zobrist key (pieces, side to
    /// move, castling rights, en passant file when a capture is legal),
    /// updated incrementally. The repetition history is not part of it.
    #[inline]
    fn hash_key(&self) -> Option<u64> {
        Some(self.key)
    }

    /// MVV-LVA for captures, promotions high: queen promotions 3000 (plus
    /// the capture's score), captures `1000 + 10·victim − attacker` (pawn 1
    /// ... king 6), knight promotions 500, quiet moves 0, rook and bishop
    /// under-promotions −100. With
    /// [`with_see_ordering`](ChessGame::with_see_ordering), a capture or
    /// promotion that loses material by static exchange evaluation gets
    /// `−2000 + 10·victim − attacker` instead, after the quiet moves.
    #[inline]
    fn order_hint(&self, mv: Move) -> i32 {
        if self.see_ordering { ordering::see_hint(self.pos.board(), mv) } else { ordering::hint(mv) }
    }

    /// With the engine's static-exchange ordering
    /// ([`with_see_ordering`](ChessGame::with_see_ordering)): the moving
    /// piece, the from and to squares and the promotion, packed into one
    /// small number, cheaper than hashing the move. Without it, `None` (the move's
    /// hash), so that every other search orders as it always has.
    #[inline]
    fn history_key(&self, mv: Move) -> Option<u64> {
        self.see_ordering.then(|| {
            let from = mv.from().map_or(64, u64::from);
            let promotion = mv.promotion().map_or(0, |r| r as u64);
            (mv.role() as u64) | (from << 3) | (u64::from(mv.to()) << 10) | (promotion << 16)
        })
    }

    /// Neither a capture (en passant included) nor a promotion.
    #[inline]
    fn is_quiet(&self, mv: Move) -> bool {
        !mv.is_capture() && !mv.is_promotion()
    }

    /// The side to move is in check.
    #[inline]
    fn needs_extension(&self) -> bool {
        self.pos.is_check()
    }

    /// Passes (side to move swapped, en passant right dropped), unless the
    /// side to move is in check. The repetition history is cleared: no
    /// repetition is counted across a null move.
    fn play_null(&mut self) -> bool {
        if self.pos.is_check() {
            return false;
        }
        let Ok(pos) = self.pos.clone().swap_turn() else {
            return false;
        };
        self.pos = pos;
        self.key ^= zobrist::ep_key(self.ep) ^ Zobrist64::zobrist_for_white_turn().0;
        self.ep = 0;
        self.history.clear();
        self.last_to = [None, self.last_to[0]];
        if let Some(plies) = &mut self.since_root {
            *plies = plies.saturating_add(1);
        }
        true
    }

    /// Checks that the game is not over ([`GameError::GameOver`]) and that
    /// `mv` is legal ([`GameError::IllegalMove`]), then plays it.
    fn try_play(&mut self, mv: Move) -> Result<(), GameError> {
        if self.is_rule_draw() {
            return Err(GameError::GameOver);
        }
        let legal = self.pos.legal_moves();
        if self.status_with(&legal).is_some() {
            return Err(GameError::GameOver);
        }
        if !legal.contains(&mv) {
            return Err(GameError::illegal(self.move_string(mv), "not a legal move in this position"));
        }
        self.play(mv);
        Ok(())
    }
}

impl fmt::Display for ChessGame {
    /// The FEN; with `{:#}`, a board diagram (rank 8 on top) then the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            notation::write_diagram(&self.pos, f)?;
        }
        write!(f, "{}", notation::fen(&self.pos))
    }
}
