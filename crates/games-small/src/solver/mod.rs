//! A strong connect-4 solver.
//!
//! [`Solver`] runs a dedicated null-window negamax on the bitboards (the
//! `negamax` module) with a compact transposition table (the `table`
//! module). The same knowledge is also offered to `search-core`'s generic
//! engine as a game view ([`SolverView`]) and an evaluator ([`SolverEval`]):
//! [`search_core::search::Search`] with the `Minimax` rule solves connect-4
//! positions with them, to the same scores, about half as fast per node
//! (the engine's generic node: a move list, float scores, hooks; see
//! [docs/benchmarks.md](https://github.com/game-search/backup-rules/blob/main/docs/benchmarks.md)).
//!
//! # Scores
//!
//! A score is from the side to move's point of view: 0 for a draw; if the side
//! to move wins with its own `k`-th disc of the game, the number of discs it
//! would still hold in hand, `⌊(W·H + 1)/2⌋ + 1 − k` (winning as early as
//! possible is best); a loss is the negation of the opponent's winning score.
//! Equivalently, a side that wins with the next disc when `n` discs are on the
//! board scores `⌊(W·H + 1 − n)/2⌋` (21 on an empty 7 × 6 board).
//!
//! # Techniques
//!
//! The ideas are those of Pascal Pons' connect-4 solver ("Solving Connect 4:
//! how to build a perfect AI", 2019):
//!
//! - **Decided positions are leaves.** A position ends the search as soon
//!   as its score is known without search: the side to move can complete
//!   four at once (a win with its next disc), every move lets the opponent
//!   complete four (a loss with the opponent's next disc), or too few cells
//!   are left for anyone to win. The score depends on the discs on the
//!   board only, so table entries stay valid whatever the root.
//! - **Only non-losing moves.** A move that lets the opponent complete four
//!   at once (or that does not block a four the opponent threatens) is never
//!   played. So at every node below the root the side to move cannot win
//!   at once.
//! - **Move order.** By the number of open threats (cells that would
//!   complete four) the move leaves its player, centre columns first among
//!   equals.
//! - **Score bounds from the discs left.** At a node the side to move cannot
//!   win with its next disc and the opponent cannot win with the one after,
//!   which bounds the score on both sides; the window narrows with them and
//!   the search stops when it empties.
//! - **Null-window probes.** [`Solver::solve`] never searches with a wide
//!   window: it keeps an interval `[lo, hi]` known to hold the score and asks,
//!   with a null window, whether the score is above a pivot, shrinking the
//!   interval each time (cheap probes far from the score first: see
//!   [`Solver::solve`]). The transposition table keeps the bounds proved by
//!   one probe for the next; it is exact (the perfect key of
//!   [`Connect4::key`], folded: no collisions) and compact (five bytes an
//!   entry on 7 × 6).
//! - **A sparse table in long solves.** Once a solve has visited as many
//!   nodes as the table has slots, the table is read and written only at
//!   every other ply, and the plies between look up their children's bounds
//!   instead (enhanced transposition cut-offs); see the `negamax` module.
//! - **Threads** ([`Solver::with_threads`]). Every thread searches each
//!   probe from the root with one shared table; at nodes with many empty
//!   cells a thread leaves a move another thread is searching for later (the
//!   deferral of Weill's ABDADA), and the first thread to finish answers.
//!
//! # Performance
//!
//! On Pons' benchmark sets (`cargo xtask solve connect4 FILE`, table emptied
//! before each position) the solver visits 48.9, 424 and 3,297 nodes per
//! position on end-easy, middle-easy and begin-easy, against the 51.3, 450
//! and 3,298 Pons reports for his solver; [docs/benchmarks.md](https://github.com/game-search/backup-rules/blob/main/docs/benchmarks.md) has the
//! times, against bitbully's.
//!
//! ```
//! use games_small::connect4::Connect4;
//! use games_small::solver::Solver;
//!
//! let mut solver = Solver::with_table_mib(4, 4, 1)?;
//! // Connect-4 on a 4 × 4 board is a draw.
//! assert_eq!(solver.solve(&Connect4::new(4, 4)?)?.score, 0);
//! // 7 × 6: the first player has three in a row on the bottom, open at both
//! // ends; the second player cannot stop the win with the first player's
//! // fourth disc (22 − 4 = 18).
//! let mut solver = Solver::with_table_mib(7, 6, 1)?;
//! let p = Connect4::from_moves(7, 6, "44556")?;
//! assert_eq!(solver.solve(&p)?.score, -18);
//! # Ok::<(), search_core::GameError>(())
//! ```

use std::fmt;
use std::time::Instant;

use search_core::{Evaluator, Game, GameError, Outcome, ParamError, Perspective, Player, Status, Turn, WIN_SCORE};

use crate::connect4::{Book, BookError, Column, Connect4};

mod book;
mod endgame;
mod negamax;
mod parallel;
mod player;
mod table;

pub use book::{BookBuild, BookProgress, build_book};
pub use endgame::{EndgamePlayer, SendAgent, solver_agent};
pub use parallel::MAX_SOLVER_THREADS;
pub use player::{MoveMemo, PerfectPlayer};

use negamax::{Geometry, Negamax};
use parallel::Parallel;
use table::Table;

/// The score of a side that wins with its next disc when `stones` discs are
/// on a board of `cells` cells: `⌊(cells + 1 − stones)/2⌋`, the discs it still
/// holds after that winning one, plus one. Every bound and terminal score of
/// the solver is this function at some disc count (it may be negative or
/// zero past the end of the game: truncated towards zero, so still a valid
/// bound).
#[inline]
fn win_score(cells: u32, stones: u32) -> i32 {
    (cells as i32 + 1 - stones as i32) / 2
}

/// What [`SolverView`] knows about a position before any search.
enum Verdict {
    /// The exact score, from the side to move's point of view.
    Decided(i32),
    /// Unknown: these playable cells (a bitboard) do not lose at once.
    Open(u64),
}

/// Connect-4 as the solver sees it: a [`Connect4`] position whose
/// [`generate`](Game::generate) ends the game as soon as the score is known
/// and offers only the moves that do not lose at once.
///
/// A finished game, a side to move that can complete four at once, a side to
/// move whose every move lets the opponent complete four, and a board with at
/// most two empty cells left (nobody can win any more) are all terminal. The
/// outcome is then the exact score: [`Outcome::Draw`] for 0, otherwise an
/// [`Outcome::Payoff`] from [`Player::First`]'s point of view (see the
/// [module documentation](self) for the scores).
///
/// Otherwise the moves are the non-losing columns, centre first, and
/// [`order_hint`](Game::order_hint) counts the threats each creates. Only
/// those moves are legal in the view ([`try_play`](Game::try_play) rejects the
/// others).
///
/// ```
/// use games_small::connect4::Connect4;
/// use games_small::solver::SolverView;
/// use search_core::{Game, Outcome, Status};
///
/// // The first player (to move) completes four at once, with its 4th disc.
/// let v = SolverView::new(Connect4::from_moves(7, 6, "445566")?);
/// assert_eq!(v.status(), Status::Over(Outcome::Payoff(18.0)));
/// // The second player must block column 3 or 7 and loses the other.
/// let v = SolverView::new(Connect4::from_moves(7, 6, "44556")?);
/// assert_eq!(v.status(), Status::Over(Outcome::Payoff(18.0)));
/// // Otherwise: the non-losing moves, centre first. Here the second player
/// // must block the first player's vertical three in column 1.
/// let v = SolverView::new(Connect4::from_moves(7, 6, "12131")?);
/// let mut moves = Vec::new();
/// assert_eq!(v.generate(&mut moves), Status::Ongoing);
/// assert_eq!(moves, [0]);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SolverView {
    pos: Connect4,
}

impl SolverView {
    /// The view of `pos` (any position, finished or not).
    #[inline]
    pub fn new(pos: Connect4) -> Self {
        SolverView { pos }
    }

    /// The underlying position.
    #[inline]
    pub fn position(&self) -> &Connect4 {
        &self.pos
    }

    #[inline]
    fn cells(&self) -> u32 {
        (self.pos.width() * self.pos.height()) as u32
    }

    /// Decides the position without search if it can.
    #[inline]
    fn verdict(&self) -> Verdict {
        let p = &self.pos;
        let (cells, n) = (self.cells(), p.moves_played());
        if p.winner().is_some() {
            // The side that moved last completed four with the disc that made
            // the count `n`.
            return Verdict::Decided(-win_score(cells, n - 1));
        }
        if p.is_full() {
            return Verdict::Decided(0);
        }
        if p.can_win_next() {
            return Verdict::Decided(win_score(cells, n));
        }
        let safe = p.possible_non_losing_moves();
        if safe == 0 {
            return Verdict::Decided(-win_score(cells, n + 1));
        }
        if n + 2 >= cells {
            // Our disc cannot win (checked above) nor let the opponent win
            // with the last cell (it is non-losing): a draw.
            return Verdict::Decided(0);
        }
        Verdict::Open(safe)
    }

    /// Bounds `(lo, hi)` on the exact score for the side to move, without
    /// search. Both equal the score when the position is decided. Otherwise
    /// the side to move cannot win with its next disc, and the opponent
    /// cannot win with its next one (some move does not lose at once), so
    /// `lo = −⌊(W·H − 2 − n)/2⌋` and `hi = ⌊(W·H − 1 − n)/2⌋` with `n` discs on
    /// the board.
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// use games_small::solver::SolverView;
    /// assert_eq!(SolverView::new(Connect4::standard()).score_bounds(), (-20, 20));
    /// let decided = SolverView::new(Connect4::from_moves(7, 6, "445566")?);
    /// assert_eq!(decided.score_bounds(), (18, 18));
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    #[inline]
    pub fn score_bounds(&self) -> (i32, i32) {
        match self.verdict() {
            Verdict::Decided(s) => (s, s),
            Verdict::Open(_) => {
                let (cells, n) = (self.cells(), self.pos.moves_played());
                (-win_score(cells, n + 3), win_score(cells, n + 2))
            }
        }
    }
}

impl Game for SolverView {
    type Move = Column;
    const HASHED: bool = true;

    #[inline]
    fn turn(&self) -> Turn {
        self.pos.turn()
    }

    #[inline]
    fn generate(&self, moves: &mut Vec<Column>) -> Status {
        match self.verdict() {
            Verdict::Decided(0) => Status::Over(Outcome::Draw),
            Verdict::Decided(s) => {
                let first = self.pos.to_move().sign() * f64::from(s);
                Status::Over(Outcome::Payoff(first))
            }
            Verdict::Open(safe) => {
                for i in 0..self.pos.width() {
                    let col = self.pos.column_order(i);
                    if safe & self.pos.column_mask(col) != 0 {
                        moves.push(col);
                    }
                }
                Status::Ongoing
            }
        }
    }

    #[inline]
    fn play(&mut self, col: Column) {
        self.pos.play(col);
    }

    fn write_move(&self, col: Column, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pos.write_move(col, f)
    }

    fn parse_move(&self, text: &str) -> Result<Column, GameError> {
        self.pos.parse_move(text)
    }

    #[inline]
    fn hash_key(&self) -> Option<u64> {
        self.pos.hash_key()
    }

    /// The number of threats (cells that would complete four) the side to
    /// move holds after playing `col`.
    #[inline]
    fn order_hint(&self, col: Column) -> i32 {
        let cell = self.pos.possible() & self.pos.column_mask(col);
        self.pos.threats_after(cell) as i32
    }
}

/// The solver's evaluator: exact scores only, and score bounds at every
/// node.
///
/// - [`terminal_value`](Evaluator::terminal_value) turns the score a
///   [`SolverView`] reports as its outcome ([`Outcome::Payoff`], first
///   player's view) to the node's point of view; it never depends on the ply.
///   (A bare [`Outcome::Win`], which the view never reports, is worth
///   `±WIN_SCORE`.)
/// - [`node_bounds`](Evaluator::node_bounds) is
///   [`SolverView::score_bounds`].
/// - [`evaluate`](Evaluator::evaluate) is 0: the solver has no depth limit,
///   so it is never called.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolverEval;

impl Evaluator<SolverView> for SolverEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, _state: &SolverView) -> f64 {
        0.0
    }

    #[inline]
    fn terminal_value(&self, outcome: Outcome, player: Player, _ply: u32) -> f64 {
        match outcome {
            Outcome::Win(_) => outcome.value_for(player, WIN_SCORE),
            Outcome::Draw | Outcome::Payoff(_) => outcome.value_for(player, 0.0),
        }
    }

    #[inline]
    fn node_bounds(&self, state: &SolverView, player: Player, _ply: u32) -> Option<(f64, f64)> {
        let (lo, hi) = state.score_bounds();
        let (lo, hi) = if state.pos.to_move() == player { (lo, hi) } else { (-hi, -lo) };
        Some((f64::from(lo), f64::from(hi)))
    }
}

/// The result of [`Solver::solve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// The score for the side to move (see the [module documentation](self));
    /// for [`Solver::weak_solve`], only its sign: 1, 0 or −1.
    pub score: i32,
    /// Nodes visited, summed over the null-window probes (0 if the position
    /// was decided without search).
    pub nodes: u64,
    /// Null-window probes run.
    pub probes: u32,
    /// Wall-clock time in microseconds.
    pub micros: u64,
}

/// A perfect move ([`Solver::best_move`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestMove {
    /// The column to play.
    pub column: Column,
    /// The exact score of the position for the side to move (see the
    /// [module documentation](self)), which the column keeps.
    pub score: i32,
    /// Nodes visited, the root's solve and the children's probes.
    pub nodes: u64,
}

/// The transposition-table size of [`Solver::new`], in MiB. Small on
/// purpose: a table that stays in the processor's caches makes each node
/// cheaper, which pays more than the fewer nodes of a larger table on Pons'
/// sets (see [docs/benchmarks.md](https://github.com/game-search/backup-rules/blob/main/docs/benchmarks.md)); give the empty board a larger one.
pub const DEFAULT_TABLE_MIB: usize = 8;

/// A strong (exact score) and weak (win/draw/loss) connect-4 solver for one
/// board size.
///
/// It owns a dedicated null-window negamax on the bitboards (the
/// `negamax` module: non-losing moves only, moves ordered by the threats
/// they create, score bounds from the discs left) and its transposition
/// table, which it reuses across the null-window probes of a solve and
/// across solves: every stored value is an exact bound on a position's
/// score, valid whatever the root. [`reset`](Self::reset) empties the
/// table.
///
/// The table takes at most the memory it is given: five bytes per entry
/// when the key's low 32 bits and a prime slot count identify every
/// position exactly (7 × 6 from 1 MiB on), otherwise eight (see the
/// `table` module).
///
/// ```
/// use games_small::connect4::Connect4;
/// use games_small::solver::Solver;
/// let mut solver = Solver::with_table_mib(7, 6, 4)?;
/// let p = Connect4::from_moves(7, 6, "2252576253462244111563365343671351441")?;
/// let solved = solver.solve(&p)?;
/// assert_eq!(solved.score, -1);
/// assert_eq!(solver.weak_solve(&p)?.score, -1);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug)]
pub struct Solver {
    width: usize,
    height: usize,
    search: Engine,
    /// Exact scores looked up before any search.
    book: Option<Book>,
}

/// The search with the table layout chosen for the board and size.
#[derive(Debug)]
enum Engine {
    /// 5-byte slots (folded keys).
    Folded(Negamax<Table<[u8; 5]>>),
    /// 64-bit slots.
    Wide(Negamax<Table<u64>>),
    /// Several threads sharing a table of 64-bit slots.
    Parallel(Parallel),
}

impl Engine {
    fn probe(&mut self, pos: &Connect4, alpha: i32, beta: i32) -> i32 {
        match self {
            Engine::Folded(n) => n.probe(pos, alpha, beta),
            Engine::Wide(n) => n.probe(pos, alpha, beta),
            Engine::Parallel(p) => p.probe(pos, alpha, beta),
        }
    }

    fn take_nodes(&mut self) -> u64 {
        match self {
            Engine::Folded(n) => n.take_nodes(),
            Engine::Wide(n) => n.take_nodes(),
            Engine::Parallel(p) => p.take_nodes(),
        }
    }

    fn clear(&mut self) {
        match self {
            Engine::Folded(n) => n.clear(),
            Engine::Wide(n) => n.clear(),
            Engine::Parallel(p) => p.clear(),
        }
    }

    fn table_bytes(&self) -> usize {
        match self {
            Engine::Folded(n) => n.table_bytes(),
            Engine::Wide(n) => n.table_bytes(),
            Engine::Parallel(p) => p.table_bytes(),
        }
    }
}

impl Solver {
    /// A solver for `width × height` boards with a
    /// [`DEFAULT_TABLE_MIB`]-MiB transposition table.
    ///
    /// Errors: a board size [`Connect4::new`] rejects.
    pub fn new(width: usize, height: usize) -> Result<Self, ParamError> {
        Self::with_table_mib(width, height, DEFAULT_TABLE_MIB)
    }

    /// A solver with a transposition table of at most `mib` MiB (at least 1).
    ///
    /// Errors: a board size [`Connect4::new`] rejects; `mib` = 0; a table
    /// that is too large or cannot be allocated.
    pub fn with_table_mib(width: usize, height: usize, mib: usize) -> Result<Self, ParamError> {
        let geo = Self::geometry(width, height, mib)?;
        let folded = Table::<[u8; 5]>::slots_for(mib)?;
        let no_memory = Self::no_memory(mib);
        let search = if Table::<[u8; 5]>::is_exact(folded, geo.max_key()) {
            Engine::Folded(Negamax::new(geo, Table::new(folded).map_err(no_memory)?, folded, None))
        } else {
            let wide = Table::<u64>::slots_for(mib)?;
            Engine::Wide(Negamax::new(geo, Table::new(wide).map_err(no_memory)?, wide, None))
        };
        Ok(Solver { width, height, search, book: None })
    }

    /// A solver whose null-window probes run on `threads` threads sharing
    /// one transposition table of at most `mib` MiB; for `threads` = 1,
    /// [`with_table_mib`](Self::with_table_mib).
    ///
    /// Every thread searches each probe from the root and the first to finish
    /// answers; at nodes with many empty cells a thread leaves a move that
    /// another is searching for later, so the threads divide the tree
    /// between them, and each uses what the others proved through the table.
    /// The scores are exact and the same as with one thread; the node counts
    /// depend on the threads' timing. The shared table's slots take eight
    /// bytes (five alone on 7 × 6), so the same MiB hold fewer entries.
    ///
    /// Errors: those of [`with_table_mib`](Self::with_table_mib); `threads`
    /// = 0 or above [`MAX_SOLVER_THREADS`].
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// use games_small::solver::Solver;
    /// let mut solver = Solver::with_threads(7, 6, 4, 2)?;
    /// let p = Connect4::from_moves(7, 6, "4455")?;
    /// let mut alone = Solver::with_table_mib(7, 6, 4)?;
    /// assert_eq!(solver.solve(&p)?.score, alone.solve(&p)?.score);
    /// assert!(Solver::with_threads(7, 6, 4, 0).is_err());
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn with_threads(width: usize, height: usize, mib: usize, threads: usize) -> Result<Self, ParamError> {
        if threads == 0 || threads > MAX_SOLVER_THREADS {
            let reason = format!("{threads} threads: must be 1 to {MAX_SOLVER_THREADS}");
            return Err(ParamError::new("threads", reason));
        }
        if threads == 1 {
            return Self::with_table_mib(width, height, mib);
        }
        let geo = Self::geometry(width, height, mib)?;
        let search = Engine::Parallel(Parallel::new(geo, mib, threads).map_err(Self::no_memory(mib))?);
        Ok(Solver { width, height, search, book: None })
    }

    /// The shape of a `width × height` board, once the size and a table of
    /// `mib` MiB are checked.
    fn geometry(width: usize, height: usize, mib: usize) -> Result<Geometry, ParamError> {
        let empty = Connect4::new(width, height)?;
        if mib == 0 {
            return Err(ParamError::new("table_mib", "the solver needs a table: must be >= 1"));
        }
        Ok(Geometry::new(&empty))
    }

    /// The error for a table of `mib` MiB that cannot be had.
    fn no_memory(mib: usize) -> impl Fn(ParamError) -> ParamError {
        move |e| ParamError::new("table_mib", format!("cannot allocate a table of {mib} MiB: {e}"))
    }

    /// How many threads search each probe.
    pub fn threads(&self) -> usize {
        match &self.search {
            Engine::Parallel(p) => p.threads(),
            Engine::Folded(_) | Engine::Wide(_) => 1,
        }
    }

    /// The bytes the transposition table takes (at most the MiB it was
    /// given).
    ///
    /// ```
    /// use games_small::solver::Solver;
    /// assert!(Solver::with_table_mib(7, 6, 3)?.table_bytes() <= 3 << 20);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn table_bytes(&self) -> usize {
        self.search.table_bytes()
    }

    /// Consults `book` from now on (or no book, for `None`): a position the
    /// book has is answered from it, without search (0 nodes, 0 probes).
    ///
    /// Errors: [`BookError::Board`] for a book of another board size (the
    /// solver keeps its previous book).
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// use games_small::solver::{Solver, build_book};
    /// let mut solver = Solver::with_table_mib(5, 4, 1)?;
    /// solver.set_book(Some(build_book(5, 4, 2, 1, |_| {})?))?;
    /// let solved = solver.solve(&Connect4::new(5, 4)?)?;
    /// assert_eq!((solved.score, solved.nodes), (0, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_book(&mut self, book: Option<Book>) -> Result<(), BookError> {
        if let Some(b) = &book {
            b.check_board(self.width, self.height)?;
        }
        self.book = book;
        Ok(())
    }

    /// The book this solver consults, if any.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// The board width this solver accepts.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The board height this solver accepts.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Empties the transposition table (so that the next solve's node count
    /// does not depend on earlier solves).
    pub fn reset(&mut self) {
        self.search.clear();
    }

    /// The exact score of `pos` for the side to move.
    ///
    /// The score is found by null-window probes of the engine. The interval
    /// `[lo, hi]` starts as every score a position with `n` discs can have
    /// (`±⌊(W·H + 1 − n)/2⌋`, roughly); each probe asks whether the score
    /// exceeds a pivot and its fail-soft answer becomes the new `lo` or `hi`.
    /// The pivot is the middle of the interval, unless half of the bound on
    /// the middle's side of 0 lies further out: scores cluster near 0, and a
    /// probe far from the score is cheap (a quick win or loss is refuted at
    /// once), so the expensive probes, near the score, come last on a narrow
    /// interval (Pons' order).
    ///
    /// Errors: [`GameError::Param`] if `pos` is not of this solver's size;
    /// [`GameError::GameOver`] if the game is over (someone has four, or the
    /// board is full).
    pub fn solve(&mut self, pos: &Connect4) -> Result<Solved, GameError> {
        self.run(pos, false)
    }

    /// Whether the side to move wins (score 1), draws (0) or loses (−1):
    /// the sign of [`solve`](Self::solve)'s score. It runs the probes of
    /// [`solve`](Self::solve) until the sign is known, so it never visits
    /// more nodes (probing at 0 first would be worse: the cheap probes far
    /// from 0 are what make the later ones fast).
    ///
    /// Errors: as [`solve`](Self::solve).
    pub fn weak_solve(&mut self, pos: &Connect4) -> Result<Solved, GameError> {
        self.run(pos, true)
    }

    /// A move that keeps the exact score of `pos` (perfect play in the
    /// strong sense: the fastest win, the slowest loss), the first such
    /// column in the centre-first order.
    ///
    /// It solves `pos` ([`solve`](Self::solve)), then asks of each child in
    /// turn, with one null-window probe at the root's score, whether it
    /// keeps that score (a child's score is never better for us than the
    /// root's, so "not worse" is "equal"), and stops at the first that does:
    /// far cheaper than solving every child. The table keeps what each
    /// search proved, so the next move of the same game starts from it. The
    /// column depends on the exact scores only, never on what the table
    /// held before.
    ///
    /// Errors: as [`solve`](Self::solve).
    ///
    /// ```
    /// use games_small::connect4::Connect4;
    /// use games_small::solver::Solver;
    /// let mut solver = Solver::with_table_mib(5, 4, 1)?;
    /// // The second player must block the vertical three in column `1`
    /// // (index 0).
    /// let best = solver.best_move(&Connect4::from_moves(5, 4, "12121")?)?;
    /// assert_eq!(best.column, 0);
    /// // An immediate win is the fastest: with the first player's fourth
    /// // disc, ⌊(5·4 + 1)/2⌋ + 1 − 4 = 7.
    /// let best = solver.best_move(&Connect4::from_moves(5, 4, "121212")?)?;
    /// assert_eq!((best.column, best.score), (0, 7));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_move(&mut self, pos: &Connect4) -> Result<BestMove, GameError> {
        let root = self.solve(pos)?;
        let score = root.score;
        let mut nodes = root.nodes;
        for i in 0..pos.width() {
            let column = pos.column_order(i);
            if !pos.can_play(column) {
                continue;
            }
            let mut child = *pos;
            child.play(column);
            // The child's score (its side to move) is at least −score; the
            // column keeps the score when it is at most −score.
            let (lo, hi) = match self.book.as_ref().and_then(|b| b.probe(&child)) {
                Some(s) => (s, s),
                None => SolverView::new(child).score_bounds(),
            };
            let keeps = if lo > -score {
                false
            } else if hi <= -score {
                true
            } else {
                let v = self.search.probe(&child, -score, -score + 1);
                nodes += self.search.take_nodes();
                v <= -score
            };
            if keeps {
                return Ok(BestMove { column, score, nodes });
            }
        }
        Err(ParamError::new("position", "no column keeps the solved score (a solver defect)").into())
    }

    fn run(&mut self, pos: &Connect4, weak: bool) -> Result<Solved, GameError> {
        if (pos.width(), pos.height()) != (self.width, self.height) {
            let reason =
                format!("a {}×{} position given to a {}×{} solver", pos.width(), pos.height(), self.width, self.height);
            return Err(ParamError::new("position", reason).into());
        }
        if pos.winner().is_some() || pos.is_full() {
            return Err(GameError::GameOver);
        }
        let start = Instant::now();
        if let Some(score) = self.book.as_ref().and_then(|b| b.probe(pos)) {
            let score = if weak { score.signum() } else { score };
            return Ok(Solved { score, nodes: 0, probes: 0, micros: start.elapsed().as_micros() as u64 });
        }
        let view = SolverView::new(*pos);
        let (mut lo, mut hi) = match view.score_bounds() {
            (lo, hi) if lo == hi => (lo, hi),
            // Open: start from every score a position with `n` discs can
            // have (a win or a loss with the next disc), not from the tighter
            // node bounds (which the search applies below the root anyway):
            // the pivots derived from this range sit further from 0, where
            // probes are cheaper (about 20% fewer nodes from early positions).
            _ => {
                let (cells, n) = (view.cells(), pos.moves_played());
                (-win_score(cells, n + 1), win_score(cells, n))
            }
        };
        self.search.take_nodes();
        let mut probes = 0;
        while lo < hi {
            if weak && (lo > 0 || hi < 0) {
                break; // the sign is known
            }
            let pivot = probe_pivot(lo, hi);
            let v = self.search.probe(pos, pivot, pivot + 1);
            probes += 1;
            // A bound on the score, within [lo, hi] (bounds are valid); the
            // clamps only guard the loop's progress.
            if v <= pivot {
                hi = v.max(lo);
            } else {
                lo = v.min(hi);
            }
        }
        let score = if !weak {
            lo
        } else if lo > 0 {
            1
        } else if hi < 0 {
            -1
        } else {
            0
        };
        let nodes = self.search.take_nodes();
        Ok(Solved { score, nodes, probes, micros: start.elapsed().as_micros() as u64 })
    }
}

/// One line of a connect-4 test set (Pons' format, what
/// `cargo xtask solve connect4` reads): `MOVES [EXPECTED]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestLine<'a> {
    /// The move text, as written on the line (empty for the empty board).
    pub moves: &'a str,
    /// The position after `moves` from the empty board.
    pub position: Connect4,
    /// The expected score, if the line gives one.
    pub expected: Option<i32>,
}

/// Parses one line of a connect-4 test set for a `width × height` board:
/// `MOVES [EXPECTED]`, the move sequence from the empty board in
/// [`Connect4::from_moves`]'s notation, then optionally the expected score
/// (an integer), separated by whitespace.
///
/// MOVES is the text before the first whitespace character: the start of
/// the line is not trimmed, so a line that begins with whitespace has no
/// moves and is the empty board (` 0`: the empty board, expected score 0).
/// Trailing whitespace (a `\r` included) is ignored.
///
/// Returns `Ok(None)` for a line of whitespace only (nothing to solve).
///
/// Errors: [`GameError::Parse`] for an EXPECTED that is not an integer or a
/// third field; the errors of [`Connect4::from_moves`] for the moves (a bad
/// board size, a character that names no column, a full column, a move after
/// the game ended).
pub fn parse_test_line(line: &str, width: usize, height: usize) -> Result<Option<TestLine<'_>>, GameError> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let moves = line.split(char::is_whitespace).next().unwrap_or("");
    let rest = &line[moves.len()..];
    let mut fields = rest.split_whitespace();
    let field_at = |field: &str| field.as_ptr() as usize - line.as_ptr() as usize;
    let expected = match fields.next() {
        None => None,
        Some(s) => Some(s.parse::<i32>().map_err(|_| {
            let reason = format!("score {:?} is not an integer", GameError::shorten(s));
            GameError::parse("test line", line, field_at(s), reason)
        })?),
    };
    if let Some(extra) = fields.next() {
        let reason = format!("unexpected {:?} after the expected score", GameError::shorten(extra));
        return Err(GameError::parse("test line", line, field_at(extra), reason));
    }
    let position = Connect4::from_moves(width, height, moves)?;
    Ok(Some(TestLine { moves, position, expected }))
}

/// The pivot of the next null-window probe of `[lo, hi]` (`lo < hi`), in
/// `lo..hi`: see [`Solver::solve`].
#[inline]
fn probe_pivot(lo: i32, hi: i32) -> i32 {
    let mid = lo + (hi - lo).div_euclid(2);
    if mid <= 0 && lo / 2 < mid {
        lo / 2
    } else if mid >= 0 && hi / 2 > mid {
        hi / 2
    } else {
        mid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_scores_follow_the_convention() {
        // 7 × 6: winning with one's k-th disc scores 22 − k.
        assert_eq!(win_score(42, 0), 21); // first player's 1st disc
        assert_eq!(win_score(42, 1), 21); // second player's 1st disc
        assert_eq!(win_score(42, 40), 1); // first player's 21st disc
        assert_eq!(win_score(42, 41), 1); // second player's 21st disc
        // Odd number of cells (5 × 5): the first player has 13 discs.
        assert_eq!(win_score(25, 0), 13);
        assert_eq!(win_score(25, 24), 1);
        assert_eq!(win_score(25, 23), 1);
    }

    #[test]
    fn pivots_stay_inside_the_interval() {
        for lo in -21..=21 {
            for hi in lo + 1..=21 {
                let p = probe_pivot(lo, hi);
                assert!(lo <= p && p < hi, "[{lo}, {hi}] → {p}");
            }
        }
        assert_eq!(probe_pivot(-20, 20), -10);
        assert_eq!(probe_pivot(-3, 20), 10);
        assert_eq!(probe_pivot(-20, 2), -10);
        assert_eq!(probe_pivot(0, 20), 10);
        assert_eq!(probe_pivot(-1, 1), 0);
        assert_eq!(probe_pivot(0, 1), 0);
        assert_eq!(probe_pivot(-1, 0), -1);
    }
}
