//! The game model: what a game is, as every search driver sees it.
//!
//! A game is a state type implementing [`Game`]. The search copies a state,
//! plays a move on the copy (copy-make), and asks the copy for its moves. Move
//! generation and terminal detection are one call, [`Game::generate`], so a
//! game such as chess, whose terminal test needs the legal moves, generates
//! them once per node.

use std::fmt;

use crate::error::GameError;

/// One of the two players. `First` moves first from the initial position.
///
/// Values from a fixed point of view (a [`Outcome::Payoff`], an evaluator
/// declaring [`Perspective::First`](crate::Perspective::First)) are from `First`'s point of view: `First`
/// maximises them, `Second` minimises them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Player {
    /// The player who moves first (White, X, Max).
    First,
    /// The player who moves second (Black, O, Min).
    Second,
}

impl Player {
    /// The other player.
    ///
    /// ```
    /// use search_core::Player;
    /// assert_eq!(Player::First.opponent(), Player::Second);
    /// ```
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `+1.0` for `First`, `-1.0` for `Second`: multiplies a value from
    /// `First`'s point of view into this player's point of view (and back).
    ///
    /// ```
    /// use search_core::Player;
    /// assert_eq!(Player::Second.sign() * 3.0, -3.0);
    /// ```
    #[inline]
    pub fn sign(self) -> f64 {
        match self {
            Player::First => 1.0,
            Player::Second => -1.0,
        }
    }

    /// Index 0 for `First`, 1 for `Second` (for per-player tables).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// Who acts at a node: a player, or chance (dice, shuffles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The player chooses the move.
    Player(Player),
    /// Nature chooses the move with the probabilities of
    /// [`Game::chance_probabilities`].
    Chance,
}

impl Turn {
    /// The player to move, or `None` at a chance node.
    #[inline]
    pub fn player(self) -> Option<Player> {
        match self {
            Turn::Player(p) => Some(p),
            Turn::Chance => None,
        }
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// The player won (and the other lost).
    Win(Player),
    /// Nobody won.
    Draw,
    /// A numeric utility from [`Player::First`]'s point of view (textbook and
    /// random trees, games scored by points). Zero-sum: `Second` gets the
    /// negation.
    Payoff(f64),
}

impl Outcome {
    /// The outcome as a number from `player`'s point of view: `win` for a
    /// win, `-win` for a loss, 0 for a draw, the payoff (signed) otherwise.
    ///
    /// ```
    /// use search_core::{Outcome, Player};
    /// assert_eq!(Outcome::Win(Player::First).value_for(Player::Second, 1.0), -1.0);
    /// assert_eq!(Outcome::Payoff(0.3).value_for(Player::Second, 1.0), -0.3);
    /// ```
    #[inline]
    pub fn value_for(self, player: Player, win: f64) -> f64 {
        match self {
            Outcome::Win(p) if p == player => win,
            Outcome::Win(_) => -win,
            Outcome::Draw => 0.0,
            Outcome::Payoff(v) => player.sign() * v,
        }
    }

    /// The winner, if the outcome is a win (a payoff has no winner).
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            _ => None,
        }
    }
}

/// The result of [`Game::generate`]: the game goes on (moves were written) or
/// it is over (no moves were written).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Status {
    /// At least one move was written to the buffer.
    Ongoing,
    /// The game is over with this outcome; the buffer is left empty.
    Over(Outcome),
}

/// A two-player, zero-sum game of perfect information, possibly with chance
/// nodes.
///
/// Implement it on a small state type. Searches copy the state (`Clone`,
/// ideally `Copy`) and call [`play`](Game::play) on the copy; they keep one
/// move buffer per ply and reuse it, so generating moves allocates nothing
/// once the buffers have grown.
///
/// Only [`turn`](Game::turn), [`generate`](Game::generate) and
/// [`play`](Game::play) are required; the rest have defaults. A game with
/// hash keys sets [`HASHED`](Game::HASHED) and implements
/// [`hash_key`](Game::hash_key); a game that reads and writes moves
/// implements [`write_move`](Game::write_move) and
/// [`parse_move`](Game::parse_move).
///
/// # Example: a take-away game
///
/// ```
/// use search_core::{Game, GameError, Outcome, Player, Status, Turn};
/// use std::fmt;
///
/// /// Take 1 or 2 stones; who takes the last stone wins.
/// #[derive(Clone, Copy, Debug)]
/// struct TakeAway { stones: u8, to_move: Player }
///
/// impl Game for TakeAway {
///     type Move = u8;
///     fn turn(&self) -> Turn { Turn::Player(self.to_move) }
///     fn generate(&self, moves: &mut Vec<u8>) -> Status {
///         if self.stones == 0 {
///             // The previous player took the last stone.
///             return Status::Over(Outcome::Win(self.to_move.opponent()));
///         }
///         moves.extend((1..=2).filter(|&k| k <= self.stones));
///         Status::Ongoing
///     }
///     fn play(&mut self, take: u8) {
///         self.stones -= take;
///         self.to_move = self.to_move.opponent();
///     }
///     fn write_move(&self, take: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         write!(f, "{take}")
///     }
///     fn parse_move(&self, s: &str) -> Result<u8, GameError> {
///         s.parse().map_err(|_| GameError::parse("move", s, 0, "not a number"))
///     }
/// }
///
/// let mut g = TakeAway { stones: 4, to_move: Player::First };
/// let mut moves = Vec::new();
/// assert_eq!(g.generate(&mut moves), Status::Ongoing);
/// assert_eq!(moves, [1, 2]);
/// g.try_play(1).unwrap();
/// assert!(g.try_play(7).is_err());
/// assert_eq!(g.move_string(2), "2");
/// ```
pub trait Game: Clone + fmt::Debug {
    /// A move (or, at a chance node, a chance outcome). Small and `Copy`.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug;

    /// Whether [`hash_key`](Game::hash_key) gives keys. A search asked for
    /// a transposition table on a game without them is refused when built.
    const HASHED: bool = false;

    /// Who acts in this state.
    fn turn(&self) -> Turn;

    /// Writes the legal moves (or chance outcomes) into `moves`, which the
    /// caller has cleared, and returns [`Status::Ongoing`]; or, if the game is
    /// over, writes nothing and returns [`Status::Over`].
    ///
    /// The order of the moves is the game's preferred search order (best
    /// first); [`order_hint`](Game::order_hint) can refine it.
    fn generate(&self, moves: &mut Vec<Self::Move>) -> Status;

    /// The number of moves [`generate`](Game::generate) would write, or
    /// `None` if the game is over. [`perft`] counts its last ply with it. The
    /// default generates the moves into `scratch` (clearing it first) and
    /// counts them; a game whose generator can count without handing over a
    /// list (chess) overrides it.
    ///
    /// ```
    /// use search_core::Game;
    /// use search_core::tree::LiteralTree;
    /// let t: LiteralTree = "max(min(1, 2), 3, 4)".parse().unwrap();
    /// assert_eq!(t.count_moves(&mut Vec::new()), Some(3));
    /// let leaf: LiteralTree = "7".parse().unwrap();
    /// assert_eq!(leaf.count_moves(&mut Vec::new()), None);
    /// ```
    #[inline]
    fn count_moves(&self, scratch: &mut Vec<Self::Move>) -> Option<usize> {
        scratch.clear();
        match self.generate(scratch) {
            Status::Ongoing => Some(scratch.len()),
            Status::Over(_) => None,
        }
    }

    /// Plays `mv`, which [`generate`](Game::generate) produced for this state,
    /// in place. May assume the move is legal; use
    /// [`try_play`](Game::try_play) for moves from users.
    fn play(&mut self, mv: Self::Move);

    /// Writes `mv` in the game's conventional notation (the inverse of
    /// [`parse_move`](Game::parse_move)). The default writes the move's
    /// `Debug` form.
    fn write_move(&self, mv: Self::Move, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{mv:?}")
    }

    /// Parses a move in the game's conventional notation. Checks syntax; the
    /// move's legality is checked by [`try_play`](Game::try_play). The
    /// default parses nothing: it returns a [`GameError::Parse`] saying the
    /// game has no move notation.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError> {
        Err(GameError::parse("move", GameError::shorten(text), 0, "this game has no move notation"))
    }

    /// At a chance node, writes the probability of each outcome that
    /// [`generate`](Game::generate) wrote, in the same order, into `probs`
    /// (cleared by the caller). They must sum to one. The default is uniform.
    fn chance_probabilities(&self, outcomes: &[Self::Move], probs: &mut Vec<f64>) {
        let n = outcomes.len() as f64;
        probs.extend(outcomes.iter().map(|_| 1.0 / n));
    }

    /// The game's status if it can be told without generating the moves:
    /// `Some(Status::Over(..))` for a finished game, `Some(Status::Ongoing)`
    /// for one that goes on (then [`generate`](Game::generate) must write at
    /// least one move), or `None` (the default) if finding out needs the
    /// moves (chess: checkmate). When the answer is known, searches generate
    /// no moves at the horizon, and at an interior node only after a
    /// transposition-table cutoff has been ruled out.
    #[inline]
    fn quick_status(&self) -> Option<Status> {
        None
    }

    /// A 64-bit key of the position for transposition tables, or `None` if
    /// the game has none (the default). Equal positions must have equal keys.
    /// A game that gives keys sets [`HASHED`](Game::HASHED) to true.
    #[inline]
    fn hash_key(&self) -> Option<u64> {
        None
    }

    /// An ordering hint for `mv`: searches try moves with larger hints first
    /// (after the transposition-table move and killers). The default, 0 for
    /// every move, keeps the order of [`generate`](Game::generate).
    #[inline]
    fn order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// A small key of `mv` in this position for the history heuristic
    /// ([`Options::history`](crate::search::Options::history)) to index
    /// its table by, instead of the move's hash: moves alike for ordering
    /// may share it (in chess: the piece, its from and to squares and the
    /// promotion), and it is cheaper to compute than a hash. The default,
    /// `None`, means the move's hash.
    #[inline]
    fn history_key(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// Whether `mv` is quiet: a move that late move reductions
    /// ([`Options::lmr`](crate::search::Options::lmr)) may search shallower
    /// (in chess: neither a capture nor a promotion; a move that gives check
    /// is recognised by [`needs_extension`](Game::needs_extension) on the
    /// position after it). The default, `false`, reduces nothing.
    #[inline]
    fn is_quiet(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether this position deserves a deeper look than the depth its
    /// parent gives it (in chess: the side to move is in check): with
    /// [`Options::check_extension`](crate::search::Options::check_extension)
    /// a move to it is searched one ply deeper, and late move reductions
    /// never apply to a move to it or at it. The default is `false`.
    #[inline]
    fn needs_extension(&self) -> bool {
        false
    }

    /// Plays a null move (a pass) in place for null-move pruning and returns
    /// `true`, or returns `false` (changing nothing) if passing is not allowed
    /// here. The default never allows it.
    #[inline]
    fn play_null(&mut self) -> bool {
        false
    }

    /// Called once on a copy of the root before a search starts from it
    /// (by [`Search::run`](crate::search::Search::run)). Games whose rules
    /// depend on the search root use it, e.g. chess scoring any repetition
    /// below the root as a draw. The default does nothing.
    #[inline]
    fn mark_search_root(&mut self) {}

    /// Checks that `mv` is legal here, then plays it.
    ///
    /// The default generates the moves and looks for `mv`; games override it
    /// to give a precise reason ("column full", "cell occupied").
    fn try_play(&mut self, mv: Self::Move) -> Result<(), GameError> {
        let mut moves = Vec::new();
        match self.generate(&mut moves) {
            Status::Over(_) => Err(GameError::GameOver),
            Status::Ongoing if moves.contains(&mv) => {
                self.play(mv);
                Ok(())
            }
            Status::Ongoing => Err(GameError::illegal(self.move_string(mv), "not a legal move")),
        }
    }

    /// Parses a move and plays it if it is legal.
    fn play_str(&mut self, text: &str) -> Result<Self::Move, GameError> {
        let mv = self.parse_move(text)?;
        self.try_play(mv)?;
        Ok(mv)
    }

    /// The state's status without keeping the moves (allocates a buffer:
    /// convenient outside searches, not inside them).
    fn status(&self) -> Status {
        self.generate(&mut Vec::new())
    }

    /// `mv` in the game's notation, as a `Display` value.
    fn display_move(&self, mv: Self::Move) -> MoveDisplay<'_, Self> {
        MoveDisplay { game: self, mv }
    }

    /// `mv` in the game's notation, as a `String`.
    fn move_string(&self, mv: Self::Move) -> String {
        self.display_move(mv).to_string()
    }
}

/// Displays a move in its game's notation; made by [`Game::display_move`].
pub struct MoveDisplay<'a, G: Game> {
    game: &'a G,
    mv: G::Move,
}

impl<G: Game> fmt::Display for MoveDisplay<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.write_move(self.mv, f)
    }
}

impl<G: Game> fmt::Debug for MoveDisplay<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.write_move(self.mv, f)
    }
}

/// Counts the leaves of the move tree of `depth` plies below `state`
/// (positions after exactly `depth` moves; finished games before that count
/// as nothing), through the [`Game`] trait. One move buffer per ply, grown
/// as the walk goes down.
///
/// Errors: a depth above [`MAX_PLY`](crate::MAX_PLY) (the walk recurses once
/// per ply; no depth a caller can ask for may overflow the stack).
///
/// ```
/// # use search_core::tree::LiteralTree;
/// use search_core::perft;
/// let t: LiteralTree = "max(min(1, 2), min(3, max(4, 5, 6)))".parse().unwrap();
/// assert_eq!(perft(&t, 1)?, 2);
/// assert_eq!(perft(&t, 2)?, 4);
/// assert_eq!(perft(&t, 3)?, 3);
/// assert!(perft(&t, 100_000).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
pub fn perft<G: Game>(state: &G, depth: u32) -> Result<u64, crate::ParamError> {
    if depth > crate::MAX_PLY {
        return Err(crate::ParamError::new("depth", format!("perft goes at most {} plies deep", crate::MAX_PLY)));
    }
    let mut buffers: Vec<Vec<G::Move>> = Vec::new();
    // One child state per interior ply, refilled with `clone_from` for each
    // move: a game whose state is large but mostly unused (chess keeps a
    // fixed-size repetition history) copies only what it needs there.
    let mut children: Vec<G> = (1..depth).map(|_| state.clone()).collect();
    Ok(perft_rec(state, depth, 0, &mut buffers, &mut children))
}

fn perft_rec<G: Game>(state: &G, depth: u32, ply: usize, buffers: &mut Vec<Vec<G::Move>>, children: &mut [G]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if buffers.len() <= ply {
        buffers.push(Vec::new());
    }
    let mut moves = std::mem::take(&mut buffers[ply]);
    if depth == 1 {
        let count = state.count_moves(&mut moves).unwrap_or(0) as u64;
        buffers[ply] = moves;
        return count;
    }
    moves.clear();
    let total = match state.generate(&mut moves) {
        Status::Over(_) => 0,
        Status::Ongoing => {
            let (child, deeper) = children.split_first_mut().expect("one child slot per interior ply");
            let mut total = 0;
            for &mv in moves.iter() {
                child.clone_from(state);
                child.play(mv);
                total += perft_rec(child, depth - 1, ply + 1, buffers, deeper);
            }
            total
        }
    };
    buffers[ply] = moves;
    total
}
