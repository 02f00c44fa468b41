//! A player's [`Decision`]s from the record of their games, for
//! [`strength::fit`], in any game written against `search-core`.
//!
//! A decision is a position where the player moved: the value of every
//! legal move from the mover's side, and the move played. Three steps turn
//! a record of games into decisions:
//!
//! - [`parse_games`]: a text of games, one a line, the moves in the game's
//!   own notation ([`Game::parse_move`]); blank lines and lines starting
//!   with `#` are not games. Every move is checked legal, and an error
//!   names its line and move ([`DecisionsError`]). Games built in code are
//!   [`GameRecord::new`].
//! - a [`MoveValues`]: what each legal move is worth. [`DepthValuer`] gives
//!   the values a dial player `boltzmann:depth=D` of
//!   [`StandardAgents`](strength::agents::StandardAgents) sees: the
//!   evaluator backed up `D` plies by alpha-beta with exact root scores, no
//!   aspiration window, a table of the agents' size emptied before each
//!   game. A game with an exact solver implements the trait for it.
//! - [`decisions`] (or [`decisions_at_depth`]): the decisions of the
//!   selected [`Side`] in every game, with what was skipped.
//!
//! ```
//! use games_small::{TicTacToe, TicTacToeEval};
//! use strength::fit::{FitOptions, Model, fit};
//! use tournament::decisions::{MoveTokens, Side, decisions_at_depth, parse_games};
//!
//! let text = "# X's games\nb2 a1 c1 a3 a2 c2 b3 b1 c3\n\nc1 b2 a1 b1 b3 a2 c2 c3 a3\n";
//! let games = parse_games(&TicTacToe::default(), text, MoveTokens::Words)?;
//! assert_eq!((games.len(), games[1].line), (2, 4));
//!
//! // X's moves, valued by a full search (depth 9; a 1 MiB table).
//! let d = decisions_at_depth(&games, Side::First, TicTacToeEval::default(), 9, 1)?;
//! assert_eq!(d.decisions.len(), 10);
//! assert_eq!(d.skipped(), 0);
//! // On the empty board every move draws.
//! assert!(d.decisions[0].values.iter().all(|&v| v == 0.0));
//!
//! let fitted = fit(&d.decisions, Model::Boltzmann, FitOptions::default().with_cap(1.0))?;
//! assert!(fitted.param > 0.0);
//!
//! // A bad move names its line.
//! let e = parse_games(&TicTacToe::default(), "b2 a1\nb2 b2\n", MoveTokens::Words).unwrap_err();
//! assert_eq!(e.location(), Some((2, 2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::error::Error as StdError;
use std::fmt;
use std::str::FromStr;

use search_core::backup::Minimax;
use search_core::search::{Bound, Limits, Options, Search};
use search_core::{Evaluator, Game, GameError, ParamError, Player, Status, Turn};
use strength::fit::Decision;

/// Whose moves become decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Side {
    /// The first player's ([`Player::First`]).
    First,
    /// The second player's ([`Player::Second`]).
    Second,
    /// Both players' (one player's self-play, or a model of both).
    #[default]
    Both,
}

impl Side {
    /// Whether `player`'s moves are selected.
    ///
    /// ```
    /// use search_core::Player;
    /// use tournament::decisions::Side;
    /// assert!(Side::First.includes(Player::First));
    /// assert!(!Side::First.includes(Player::Second));
    /// assert!(Side::Both.includes(Player::Second));
    /// ```
    pub fn includes(self, player: Player) -> bool {
        match self {
            Side::First => player == Player::First,
            Side::Second => player == Player::Second,
            Side::Both => true,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
            Side::Both => "both",
        })
    }
}

impl FromStr for Side {
    type Err = DecisionsError;

    /// `first`, `second` or `both` (surrounding spaces ignored).
    ///
    /// ```
    /// use tournament::decisions::Side;
    /// assert_eq!(" second ".parse::<Side>()?, Side::Second);
    /// assert!("white".parse::<Side>().is_err());
    /// # Ok::<(), tournament::decisions::DecisionsError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self, DecisionsError> {
        match s.trim() {
            "first" => Ok(Side::First),
            "second" => Ok(Side::Second),
            "both" => Ok(Side::Both),
            other => Err(DecisionsError::UnknownSide(other.to_string())),
        }
    }
}

/// How a line of a record splits into moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MoveTokens {
    /// Moves separated by whitespace: tic-tac-toe's `b2 a1 c3`.
    #[default]
    Words,
    /// Every character but whitespace a move: connect-4's digit strings
    /// such as `4453` (or `4 4 5 3`).
    Chars,
}

/// One game: where it starts and the moves played.
#[derive(Debug, Clone)]
pub struct GameRecord<G: Game> {
    /// The position before the first move.
    pub start: G,
    /// The moves, in order.
    pub moves: Vec<G::Move>,
    /// The line of the text the game was read on (from 1); 0 for a game
    /// not read from a text (see [`with_line`](Self::with_line)). Errors
    /// name it.
    pub line: usize,
}

impl<G: Game> GameRecord<G> {
    /// A game built in code (line 0). Its moves are checked when it is
    /// turned into decisions.
    pub fn new(start: G, moves: Vec<G::Move>) -> Self {
        GameRecord { start, moves, line: 0 }
    }

    /// The record with `line` as its place in the caller's source.
    #[must_use]
    pub fn with_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }
}

/// Why a record could not become decisions.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecisionsError {
    /// A move the game's notation does not read (the game's own error).
    #[error("line {line}: move {ply} ({text:?}): {source}")]
    BadMove {
        /// The game's line (from 1).
        line: usize,
        /// The move's number in its game (from 1).
        ply: usize,
        /// The move as written.
        text: String,
        /// What the game says.
        #[source]
        source: GameError,
    },
    /// A move after the end of the game.
    #[error("line {line}: move {ply} ({text:?}): the game is already over")]
    GameOver {
        /// The game's line (from 1).
        line: usize,
        /// The move's number in its game (from 1).
        ply: usize,
        /// The move as written.
        text: String,
    },
    /// A move that is not among the legal moves there (with the game's own
    /// reason, when [`Game::try_play`] gives one).
    #[error("line {line}: move {ply} ({text:?}): {source}")]
    IllegalMove {
        /// The game's line (from 1).
        line: usize,
        /// The move's number in its game (from 1).
        ply: usize,
        /// The move as written (or as the game writes it).
        text: String,
        /// Why it is illegal.
        #[source]
        source: GameError,
    },
    /// A chance node in the record: decisions are the players' only.
    #[error("line {line}: move {ply}: a chance node")]
    ChanceNode {
        /// The game's line (from 1).
        line: usize,
        /// The move's number in its game (from 1).
        ply: usize,
    },
    /// The valuer failed on a position.
    #[error("line {line}: move {ply} ({text}): {source}")]
    Valuer {
        /// The game's line (from 1).
        line: usize,
        /// The move's number in its game (from 1).
        ply: usize,
        /// The move played there, in the game's notation.
        text: String,
        /// The valuer's error.
        #[source]
        source: Box<dyn StdError + Send + Sync>,
    },
    /// The move played is not among the moves the valuer valued.
    #[error("line {line}: move {ply} ({text}): not among the moves the valuer valued")]
    NotValued {
        /// The game's line (from 1).
        line: usize,
        /// The move's number in its game (from 1).
        ply: usize,
        /// The move played, in the game's notation.
        text: String,
    },
    /// A search the [`DepthValuer`] cannot run (a depth out of range, a
    /// table too large, an evaluator the options refuse).
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The [`DepthValuer`]'s search failed (an evaluation that is NaN).
    #[error(transparent)]
    Search(#[from] GameError),
    /// The [`DepthValuer`]'s search did not give every root move an exact
    /// score.
    #[error("the search did not give exact root scores")]
    Inexact,
    /// A side that is not `first`, `second` or `both`.
    #[error("unknown side {0:?}: expected first, second or both")]
    UnknownSide(String),
}

impl DecisionsError {
    /// Where the error is: the game's line and the move's number in it
    /// (both from 1), if it is about one move.
    pub fn location(&self) -> Option<(usize, usize)> {
        match *self {
            DecisionsError::BadMove { line, ply, .. }
            | DecisionsError::GameOver { line, ply, .. }
            | DecisionsError::IllegalMove { line, ply, .. }
            | DecisionsError::ChanceNode { line, ply }
            | DecisionsError::Valuer { line, ply, .. }
            | DecisionsError::NotValued { line, ply, .. } => Some((line, ply)),
            _ => None,
        }
    }
}

/// Reads games from `text`, one a line, starting from `start`: the moves in
/// the game's notation ([`Game::parse_move`]), split as `tokens` says.
/// Blank lines and lines starting with `#` are not games. Every move is
/// checked legal: among the moves [`Game::generate`] gives there.
///
/// Errors (naming the line and the move): [`DecisionsError::BadMove`] (the
/// notation), [`DecisionsError::GameOver`] (a move after the end),
/// [`DecisionsError::IllegalMove`].
///
/// ```
/// use games_small::Connect4;
/// use tournament::decisions::{MoveTokens, parse_games};
/// let games = parse_games(&Connect4::standard(), "4453\n\n# a comment\n44 4", MoveTokens::Chars)?;
/// assert_eq!(games.len(), 2);
/// assert_eq!((games[0].moves.len(), games[1].moves.len(), games[1].line), (4, 3, 4));
/// # Ok::<(), tournament::decisions::DecisionsError>(())
/// ```
pub fn parse_games<G: Game>(start: &G, text: &str, tokens: MoveTokens) -> Result<Vec<GameRecord<G>>, DecisionsError> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let words: Vec<String> = match tokens {
            MoveTokens::Chars => trimmed.chars().filter(|c| !c.is_whitespace()).map(String::from).collect(),
            MoveTokens::Words => trimmed.split_whitespace().map(String::from).collect(),
        };
        let mut g = start.clone();
        let mut moves = Vec::with_capacity(words.len());
        for (i, text) in words.into_iter().enumerate() {
            let ply = i + 1;
            let mv = match g.parse_move(&text) {
                Ok(mv) => mv,
                Err(source) => return Err(DecisionsError::BadMove { line, ply, text, source }),
            };
            legal.clear();
            if g.generate(&mut legal) != Status::Ongoing {
                return Err(DecisionsError::GameOver { line, ply, text });
            }
            if !legal.contains(&mv) {
                let source = illegal_reason(&g, mv);
                return Err(DecisionsError::IllegalMove { line, ply, text, source });
            }
            g.play(mv);
            moves.push(mv);
        }
        out.push(GameRecord { start: start.clone(), moves, line });
    }
    Ok(out)
}

/// Why `mv`, not among the moves `g` generates, is illegal: the game's own
/// reason ([`Game::try_play`]), or a generic one if `try_play` accepts it
/// (gobang's generator leaves out far points that `try_play` allows).
fn illegal_reason<G: Game>(g: &G, mv: G::Move) -> GameError {
    match g.clone().try_play(mv) {
        Err(e) => e,
        Ok(()) => GameError::illegal(g.move_string(mv), "not among the moves the game generates there"),
    }
}

/// What a [`MoveValues`] says about a position: every legal move with its
/// value from the mover's side, or `None` when the position is not valued
/// (the decision is skipped and counted in [`Decisions::unvalued`]).
pub type Valued<M> = Option<Vec<(M, f64)>>;

/// What each legal move is worth, from the mover's side: the values a
/// player model is fitted on.
pub trait MoveValues<G: Game> {
    /// The valuer's error ([`String`] will do).
    type Error: Into<Box<dyn StdError + Send + Sync>>;

    /// Called before each game (a search's table is emptied here). The
    /// default does nothing.
    fn new_game(&mut self) {}

    /// Every legal move of `state` (a player's turn, not finished) with its
    /// value from the mover's side, or `None` when `state` is not valued.
    fn move_values(&mut self, state: &G) -> Result<Valued<G::Move>, Self::Error>;
}

/// The values a dial player `boltzmann:depth=D` of
/// [`StandardAgents`](strength::agents::StandardAgents) sees: a depth-`D`
/// minimax search (the game's recommended alpha-beta options, no
/// aspiration window, exact root scores) of every legal move, from the
/// mover's side. Give it the agents' table size
/// ([`StandardAgents::with_table_mib`](strength::agents::StandardAgents::with_table_mib);
/// 16 MiB by default), and empty its table before each game
/// ([`clear`](Self::clear); [`decisions`] does) as the agents do, for the
/// very values the player saw.
pub struct DepthValuer<G: Game, E: Evaluator<G>> {
    search: Search<G, Minimax, E>,
    limits: Limits,
    depth: u32,
}

impl<G: Game, E: Evaluator<G>> fmt::Debug for DepthValuer<G, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DepthValuer").field("depth", &self.depth).finish_non_exhaustive()
    }
}

impl<G: Game, E: Evaluator<G>> DepthValuer<G, E> {
    /// A valuer searching `depth` plies with `eval` and a table of
    /// `table_mib` MiB (none for games without hash keys, as the agents).
    ///
    /// Errors: [`DecisionsError::Param`] for a depth out of `1..=MAX_PLY`
    /// or options the search refuses.
    pub fn new(eval: E, depth: u32, table_mib: usize) -> Result<Self, DecisionsError> {
        let opts = Options::recommended::<G, Minimax, E>(&eval)
            .with_table_mib(if G::HASHED { table_mib } else { 0 })
            .with_aspiration(None)
            .with_exact_root(true);
        let search = Search::new(Minimax, eval, opts)?;
        let limits = Limits::depth(depth);
        limits.validate()?;
        Ok(DepthValuer { search, limits, depth })
    }

    /// The depth searched.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Empties the transposition table.
    pub fn clear(&mut self) {
        self.search.clear();
    }

    /// Every legal move's exact depth-`depth` score, from the mover's side,
    /// in the search's order.
    ///
    /// Errors: [`DecisionsError::Search`] (the search failed: a finished
    /// game, a NaN evaluation), [`DecisionsError::Inexact`].
    pub fn values(&mut self, state: &G) -> Result<Vec<(G::Move, f64)>, DecisionsError> {
        let r = self.search.run(state, &self.limits)?;
        if !r.complete || r.root_moves.iter().any(|m| m.bound != Bound::Exact || m.score.is_nan()) {
            return Err(DecisionsError::Inexact);
        }
        Ok(r.root_moves.iter().map(|m| (m.mv, m.score)).collect())
    }
}

impl<G: Game, E: Evaluator<G>> MoveValues<G> for DepthValuer<G, E> {
    type Error = DecisionsError;

    /// Empties the table.
    fn new_game(&mut self) {
        self.clear();
    }

    fn move_values(&mut self, state: &G) -> Result<Valued<G::Move>, DecisionsError> {
        self.values(state).map(Some)
    }
}

/// The decisions of a record, and the selected side's moves left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decisions {
    /// One per move of the selected side that was valued, in the order of
    /// the games and their moves. A move with no alternative is kept (the
    /// fit counts it as uninformative).
    pub decisions: Vec<Decision>,
    /// Moves played in positions the game's rules had already ended while
    /// the record goes on (a chess draw by repetition or the fifty-move
    /// rule that the players did not claim): such a position has no legal
    /// moves to value.
    pub finished: usize,
    /// Moves in positions the valuer did not value ([`Valued`] `None`).
    pub unvalued: usize,
}

impl Decisions {
    /// The selected side's moves left out: [`finished`](Self::finished)
    /// plus [`unvalued`](Self::unvalued).
    pub fn skipped(&self) -> usize {
        self.finished + self.unvalued
    }

    /// Adds `other`'s decisions after these, and its counts.
    pub fn append(&mut self, other: Decisions) {
        self.decisions.extend(other.decisions);
        self.finished += other.finished;
        self.unvalued += other.unvalued;
    }
}

/// The decisions of `side` in `games`, each position valued by `valuer`
/// ([`MoveValues::new_game`] before each game): every legal move's value
/// and the index of the move played among them.
///
/// Only the selected side's positions are valued, so that a searching
/// valuer's table sees what the player's own searches saw. Every move is
/// checked legal; a move in a position the rules have ended is played
/// unchecked and, for the selected side, counted in
/// [`Decisions::finished`].
///
/// Errors, naming the game's line and the move:
/// [`DecisionsError::ChanceNode`], [`DecisionsError::IllegalMove`],
/// [`DecisionsError::Valuer`] (the valuer's error),
/// [`DecisionsError::NotValued`] (the move played has no value).
pub fn decisions<G: Game, V: MoveValues<G> + ?Sized>(
    games: &[GameRecord<G>],
    side: Side,
    valuer: &mut V,
) -> Result<Decisions, DecisionsError> {
    let mut out = Decisions::default();
    let mut legal = Vec::new();
    for record in games {
        valuer.new_game();
        let line = record.line;
        let mut g = record.start.clone();
        for (i, &mv) in record.moves.iter().enumerate() {
            let ply = i + 1;
            let Turn::Player(mover) = g.turn() else {
                return Err(DecisionsError::ChanceNode { line, ply });
            };
            legal.clear();
            if g.generate(&mut legal) != Status::Ongoing {
                // Only a draw rule gets here (chess): the record goes on.
                if side.includes(mover) {
                    out.finished += 1;
                }
                g.play(mv);
                continue;
            }
            if !legal.contains(&mv) {
                let source = illegal_reason(&g, mv);
                return Err(DecisionsError::IllegalMove { line, ply, text: g.move_string(mv), source });
            }
            if side.includes(mover) {
                let valued = valuer.move_values(&g).map_err(|e| DecisionsError::Valuer {
                    line,
                    ply,
                    text: g.move_string(mv),
                    source: e.into(),
                })?;
                match valued {
                    None => out.unvalued += 1,
                    Some(values) => {
                        let chosen = values
                            .iter()
                            .position(|&(m, _)| m == mv)
                            .ok_or_else(|| DecisionsError::NotValued { line, ply, text: g.move_string(mv) })?;
                        out.decisions.push(Decision::new(values.into_iter().map(|(_, v)| v).collect(), chosen));
                    }
                }
            }
            g.play(mv);
        }
    }
    Ok(out)
}

/// The decisions of `side` in `games` valued by a [`DepthValuer`] of
/// `eval` at `depth` with a `table_mib` MiB table: the decisions of a dial
/// player `boltzmann:depth=D` whose agents have that table size.
///
/// Errors: those of [`DepthValuer::new`] and of [`decisions`].
pub fn decisions_at_depth<G: Game, E: Evaluator<G>>(
    games: &[GameRecord<G>],
    side: Side,
    eval: E,
    depth: u32,
    table_mib: usize,
) -> Result<Decisions, DecisionsError> {
    let mut valuer = DepthValuer::new(eval, depth, table_mib)?;
    decisions(games, side, &mut valuer)
}
