//! How a dial loses: for dial values spread over a calibration's range,
//! self-play games whose every move is scored against a ground truth,
//! giving each setting's [`LossProfile`] (the distribution of its move
//! losses, its blunder rate). The weak settings should make mistakes whose
//! size grows smoothly as the dial goes down, not play perfectly and then
//! throw a piece; these profiles show whether they do.
//!
//! A move's **loss** is the value of the best move minus the value of the
//! move played, both from the mover's side, in the judge's unit: 0 for a
//! best move, never negative. A **blunder** is a move whose loss is large
//! for the game, or one that changes the outcome class for the worse (won
//! to drawn or lost, drawn to lost).
//!
//! The ground truth is the caller's: a [`GroundTruth`] describes itself
//! (recorded with every cell, so a saved cell is reused only by the same
//! judge) and makes a fresh [`MoveJudge`] for each cell. Two work for any
//! game:
//!
//! - [`ExactTruth`] ([`ExactJudge`]): exact values by minimax over the
//!   whole game tree, memoised by position, in outcome classes (win 1, draw
//!   0, loss −1). For small games.
//! - [`SearchTruth`] ([`SearchJudge`]): alpha-beta with the game's
//!   evaluator at a fixed depth, values clamped to a win value, a blunder
//!   threshold in the evaluator's units.
//!
//! A game with a better judge (a solver, a strong engine) implements
//! [`MoveJudge`] and [`GroundTruth`] for it.
//!
//! [`loss_profiles`] plays the games on the [cell store](crate::store) like
//! a calibration's matches: one job per level (`<game>-lossNN`, reference
//! players `<game>-<prefix>NN`), cells of a few games each, one row per
//! scored move. Every game is seeded from its cell's seed and its index, so
//! the profiles are the same on any number of threads; saved cells are not
//! replayed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::Hash;
use std::path::PathBuf;

use search_core::arena::play_match;
use search_core::backup::Minimax;
use search_core::rng::derive_seed;
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, Player, Status, Turn, WIN_SCORE};
use serde_json::{Value, json};
use strength::dial::{Calibration, Dial, DialError, LossProfile};

use crate::matches::{Openings, pair_seed};
use crate::runner::{CellError, Job, RunConfig, RunError, RunObserver, Shard, fnv, load_cell, run_cells};
use crate::store::{Loaded, Row, RunKey, Scale, StoreError, open_out};
use crate::{Setup, TournamentError};

/// The version of how a level's cells are played and scored, recorded in
/// every cell (a change replays them). A judge's own changes show in its
/// [description](JudgeInfo::description).
pub const LOSS_VERSION: u32 = 1;

/// Where the profiled levels sit by default: fractions of the dial's
/// range, the top included.
pub const DEFAULT_LEVELS: [f64; 8] = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.0];

// ---------------------------------------------------------------------------
// Judges

/// A judge's verdict on one move (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// The best move's value minus the played move's, from the mover's
    /// side, in the judge's unit; never negative.
    pub loss: f64,
    /// Whether the move changed the (exact or judged) outcome class for the
    /// worse: won to drawn or lost, drawn to lost.
    pub changed_outcome: bool,
    /// Whether the move is a blunder: a worsened outcome, or a loss the
    /// judge counts as large.
    pub blunder: bool,
}

/// A scored move of a game: its ply (counted from the game's start
/// position, the opening's end) and its verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoredMove {
    /// The move's ply from the start position (0 for the first move).
    pub ply: usize,
    /// The judge's verdict.
    pub verdict: Verdict,
}

/// Why a judge could not score a move.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JudgeError {
    /// The move is not legal in the position it was played in.
    #[error("{mv} is not a legal move there")]
    Illegal {
        /// The move, in the game's notation.
        mv: String,
    },
    /// The game was already over.
    #[error("the game is already over")]
    GameOver,
    /// A judge's parameter out of range (a search depth below 2, a win
    /// value that is not a positive number).
    #[error("the judge's {name}: {reason}")]
    Parameter {
        /// The parameter.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The judge's search could not be built or run.
    #[error("the judge's search: {0}")]
    Search(String),
    /// The judge's own failure (an engine that died, a solver's error).
    #[error("the judge: {0}")]
    Failed(Box<dyn std::error::Error + Send + Sync>),
    /// An error at a ply of a game.
    #[error("ply {ply}: {source}")]
    AtPly {
        /// The ply from the game's start position.
        ply: usize,
        /// The error.
        source: Box<JudgeError>,
    },
}

impl JudgeError {
    /// A judge's own failure, from any error (or message).
    pub fn failed(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        JudgeError::Failed(error.into())
    }

    /// This error, at ply `ply` of a game.
    #[must_use]
    pub fn at_ply(self, ply: usize) -> Self {
        JudgeError::AtPly { ply, source: Box::new(self) }
    }
}

/// Scores moves against a ground truth.
///
/// A move's loss is the value of the best move in the position minus the
/// value of the move played, both from the mover's side, in the judge's
/// unit: 0 for a best move, never negative (a judge whose own noise gives a
/// negative number counts it as 0). A judge keeps what it learns (a memo, a
/// search's table) across the moves and games it is given: the runner
/// makes a fresh one per cell and hands it that cell's games in order, so
/// its verdicts do not depend on the thread count.
///
/// Implement [`score_move`](Self::score_move); override
/// [`score_game`](Self::score_game) when a game is cheaper to judge as a
/// whole (an engine that evaluates each position once and takes a move's
/// loss from the positions before and after it).
///
/// ```
/// use search_core::Game;
/// use games_small::TicTacToe;
/// use tournament::losses::{JudgeError, MoveJudge, Verdict};
///
/// type Move = <TicTacToe as Game>::Move;
///
/// /// Counts every move but the first legal one as a small mistake.
/// struct FirstMoveIsBest;
/// impl MoveJudge<TicTacToe> for FirstMoveIsBest {
///     fn score_move(&mut self, position: &TicTacToe, mv: Move) -> Result<Option<Verdict>, JudgeError> {
///         let mut legal = Vec::new();
///         position.generate(&mut legal);
///         let loss = if legal.first() == Some(&mv) { 0.0 } else { 1.0 };
///         Ok(Some(Verdict { loss, changed_outcome: false, blunder: false }))
///     }
/// }
///
/// let start = TicTacToe::default();
/// let mut g = start.clone();
/// let moves: Vec<_> = ["a1", "b2", "c3"].iter().map(|m| g.play_str(m).unwrap()).collect();
/// let scored = FirstMoveIsBest.score_game(&start, &moves)?;
/// assert_eq!(scored.len(), 3);
/// assert_eq!(scored[1].ply, 1);
/// # Ok::<(), JudgeError>(())
/// ```
pub trait MoveJudge<G: Game> {
    /// The verdict on `mv` played in `position` (a player's turn), or
    /// `None` for a move this judge does not score (e.g. a position its
    /// solver is too slow for).
    fn score_move(&mut self, position: &G, mv: G::Move) -> Result<Option<Verdict>, JudgeError>;

    /// The verdicts on the moves of a game played from `start`, in order,
    /// the moves it does not score left out. The default asks
    /// [`score_move`](Self::score_move) at each player's turn (chance
    /// outcomes are not decisions: they are played, not scored); an error
    /// names its ply.
    fn score_game(&mut self, start: &G, moves: &[G::Move]) -> Result<Vec<ScoredMove>, JudgeError> {
        let mut g = start.clone();
        let mut out = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            if g.turn().player().is_some()
                && let Some(verdict) = self.score_move(&g, mv).map_err(|e| e.at_ply(ply))?
            {
                out.push(ScoredMove { ply, verdict });
            }
            g.play(mv);
        }
        Ok(out)
    }
}

/// What a ground truth is, as the cells and the profiles record it.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeInfo {
    /// A short description, recorded in every cell's parameters: a cell is
    /// reused only by a judge with the same description, so change it (add
    /// a version) whenever the judge's verdicts change.
    pub description: String,
    /// What the profiles' note says about the ground truth (what it is,
    /// its unit, what counts as a blunder, which moves are scored).
    pub note: String,
    /// The unit of the losses (e.g. `outcome classes`, `centipawns`).
    pub unit: String,
    /// The bounds of the profiles' histogram, increasing: 0 (the moves that
    /// lose nothing), then each bucket's upper bound, the last the largest
    /// loss possible (larger losses are counted in the last bucket too).
    pub buckets: Vec<f64>,
}

/// A ground truth for [`loss_profiles`]: what it is, and a fresh
/// [`MoveJudge`] for each cell of games.
pub trait GroundTruth<G: Game>: Sync {
    /// What it is, for the games of `level`.
    fn info(&self, level: &LossLevel) -> JudgeInfo;

    /// A fresh judge for a cell of `level`'s games.
    fn judge(&self, level: &LossLevel) -> Result<Box<dyn MoveJudge<G>>, JudgeError>;
}

/// The class of a value: 1 positive, −1 negative, 0 zero.
fn class(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Won (1), lost (−1) or neither (0) by a judged value: at least `won`, at
/// most `−won`, or between.
fn judged_class(v: f64, won: f64) -> i8 {
    if v >= won {
        1
    } else if v <= -won {
        -1
    } else {
        0
    }
}

/// `v`, a value from [`Player::First`]'s view, from `player`'s (never
/// −0).
fn view(v: f64, player: Player) -> f64 {
    (if player == Player::First { v } else { -v }) + 0.0
}

/// The legal moves of `g` into `legal`; an error unless the game goes on
/// and `mv` is one of them.
fn check_legal<G: Game>(g: &G, mv: G::Move, legal: &mut Vec<G::Move>) -> Result<(), JudgeError> {
    legal.clear();
    if g.generate(legal) != Status::Ongoing {
        return Err(JudgeError::GameOver);
    }
    if !legal.contains(&mv) {
        return Err(JudgeError::Illegal { mv: g.move_string(mv) });
    }
    Ok(())
}

/// Exact values by minimax over the whole game tree, memoised by position:
/// a position's value is its outcome class with perfect play (win 1, draw
/// 0, loss −1; a payoff by its sign; at chance nodes the expectation). A
/// move's loss is in outcome classes (1: a win thrown to a draw or a draw
/// to a loss, 2: a win to a loss); a blunder is a move that changes the
/// exact outcome class for the worse. For games small enough to search to
/// the end.
///
/// ```
/// use games_small::TicTacToe;
/// use search_core::Game;
/// use tournament::losses::{ExactJudge, MoveJudge, Verdict};
///
/// let mut exact = ExactJudge::new();
/// assert_eq!(exact.value(&TicTacToe::default()), 0.0); // a draw
/// // X has a1 and a2, O b1 and b2, X to move: a3 wins, c3 lets O win.
/// let g = TicTacToe::from_moves("a1 b1 a2 b2").unwrap();
/// let throw = exact.score_move(&g, g.parse_move("c3").unwrap())?;
/// assert_eq!(throw, Some(Verdict { loss: 2.0, changed_outcome: true, blunder: true }));
/// # Ok::<(), tournament::losses::JudgeError>(())
/// ```
#[derive(Debug)]
pub struct ExactJudge<G> {
    /// Values from [`Player::First`]'s view.
    memo: HashMap<G, f64>,
}

impl<G> Default for ExactJudge<G> {
    fn default() -> Self {
        ExactJudge { memo: HashMap::new() }
    }
}

impl<G: Game + Eq + Hash> ExactJudge<G> {
    /// A judge with an empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    /// The exact value of `g` for its side to move (for [`Player::First`]
    /// at a chance node): 1 won, 0 drawn, −1 lost.
    pub fn value(&mut self, g: &G) -> f64 {
        view(self.first_value(g), g.turn().player().unwrap_or(Player::First))
    }

    /// The positions memoised so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    fn first_value(&mut self, g: &G) -> f64 {
        if let Some(&v) = self.memo.get(g) {
            return v;
        }
        let mut moves = Vec::new();
        let v = match g.generate(&mut moves) {
            Status::Over(o) => class(o.value_for(Player::First, 1.0)),
            Status::Ongoing => match g.turn() {
                Turn::Chance => {
                    let mut probs = Vec::new();
                    g.chance_probabilities(&moves, &mut probs);
                    moves.iter().zip(&probs).map(|(&m, &p)| p * self.first_value(&child(g, m))).sum()
                }
                Turn::Player(p) => {
                    let best = moves.iter().map(|&m| view(self.first_value(&child(g, m)), p)).fold(-1.0, f64::max);
                    view(best, p)
                }
            },
        };
        self.memo.insert(g.clone(), v);
        v
    }
}

/// `g` after `mv`.
fn child<G: Game>(g: &G, mv: G::Move) -> G {
    let mut c = g.clone();
    c.play(mv);
    c
}

impl<G: Game + Eq + Hash> MoveJudge<G> for ExactJudge<G> {
    fn score_move(&mut self, position: &G, mv: G::Move) -> Result<Option<Verdict>, JudgeError> {
        let Some(mover) = position.turn().player() else { return Ok(None) };
        let mut legal = Vec::new();
        check_legal(position, mv, &mut legal)?;
        let mut best = f64::NEG_INFINITY;
        let mut chosen = 0.0;
        for &m in &legal {
            let v = view(self.first_value(&child(position, m)), mover);
            best = best.max(v);
            if m == mv {
                chosen = v;
            }
        }
        let changed = class(chosen) < class(best);
        Ok(Some(Verdict { loss: best - chosen, changed_outcome: changed, blunder: changed }))
    }
}

/// The ground truth of exact values ([`ExactJudge`], a fresh memo per
/// cell), in outcome classes (buckets 0, 1, 2). Its description is `exact
/// values`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactTruth {
    info: JudgeInfo,
}

impl Default for ExactTruth {
    fn default() -> Self {
        ExactTruth {
            info: JudgeInfo {
                description: "exact values".into(),
                note: "Ground truth: exact game values (minimax over the whole game tree); loss in outcome classes \
                       (win 1, draw 0, loss −1: 1 is a win thrown to a draw or a draw to a loss, 2 a win to a loss); \
                       a blunder changes the exact outcome; every move after the opening scored."
                    .into(),
                unit: "outcome classes".into(),
                buckets: vec![0.0, 1.0, 2.0],
            },
        }
    }
}

impl ExactTruth {
    /// Exact values, described as such.
    pub fn new() -> Self {
        Self::default()
    }

    /// With this note instead (e.g. naming the game's perfect player).
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.info.note = note.into();
        self
    }

    /// With this description instead (recorded in the cells).
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.info.description = description.into();
        self
    }
}

impl<G: Game + Eq + Hash + 'static> GroundTruth<G> for ExactTruth {
    fn info(&self, _level: &LossLevel) -> JudgeInfo {
        self.info.clone()
    }

    fn judge(&self, _level: &LossLevel) -> Result<Box<dyn MoveJudge<G>>, JudgeError> {
        Ok(Box::new(ExactJudge::<G>::new()))
    }
}

/// Alpha-beta with the game's evaluator as a judge. A position's value is
/// its minimax value at a depth, from its side to move's view, in the
/// evaluator's units clamped to `±win`; a win found within the horizon, or
/// a finished game, counts as `±win`. The loss of a move from `p` to `q` is
/// `p`'s value at the judge's depth `D` less the move's value in the same
/// tree (`q`'s value at `D − 1`, from the mover's side): 0 for the best
/// move (counted as 0 where the table's reuse makes it slightly negative).
/// A blunder loses at least the blunder threshold, or worsens the judged
/// outcome (won at `+win`, lost at `−win`).
///
/// Where the depth reaches the end of the game, it judges as
/// [`ExactJudge`] does, scaled by `win`.
///
/// ```
/// use games_small::{TicTacToe, TicTacToeEval};
/// use search_core::Game;
/// use tournament::losses::{MoveJudge, SearchJudge};
///
/// let mut judge = SearchJudge::new(TicTacToeEval::default(), 9, 1.0, f64::INFINITY, 1)?;
/// let g = TicTacToe::from_moves("a1 b1 a2 b2").unwrap();
/// assert_eq!(judge.value(&g, 9)?, 1.0); // X wins
/// let throw = judge.score_move(&g, g.parse_move("c3").unwrap())?.unwrap();
/// assert_eq!((throw.loss, throw.blunder), (2.0, true));
/// # Ok::<(), tournament::losses::JudgeError>(())
/// ```
pub struct SearchJudge<G: Game, E: Evaluator<G>> {
    search: Search<G, Minimax, E>,
    depth: u32,
    win: f64,
    blunder: f64,
    legal: Vec<G::Move>,
}

impl<G: Game, E: Evaluator<G>> std::fmt::Debug for SearchJudge<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchJudge")
            .field("depth", &self.depth)
            .field("win", &self.win)
            .field("blunder", &self.blunder)
            .finish_non_exhaustive()
    }
}

/// Checks a search judge's parameters.
fn check_search(depth: u32, win: f64, blunder: f64) -> Result<(), JudgeError> {
    if depth < 2 {
        return Err(JudgeError::Parameter {
            name: "depth",
            reason: format!(
                "{depth}: must be at least 2 (a move is valued one ply shallower, by a search of at least one)"
            ),
        });
    }
    if !(win.is_finite() && win > 0.0) {
        return Err(JudgeError::Parameter { name: "win value", reason: format!("{win} is not a positive number") });
    }
    if blunder.is_nan() || blunder <= 0.0 {
        return Err(JudgeError::Parameter {
            name: "blunder threshold",
            reason: format!("{blunder} is not positive (f64::INFINITY: only a worsened outcome is a blunder)"),
        });
    }
    Ok(())
}

impl<G: Game, E: Evaluator<G>> SearchJudge<G, E> {
    /// A judge searching `depth` plies (at least 2) with `eval`, values
    /// clamped to `±win` (positive), a loss of at least `blunder` a blunder
    /// (`f64::INFINITY`: only a worsened outcome is), with a table of
    /// `table_mib` MiB kept across the positions it judges (none on a game
    /// without hash keys).
    pub fn new(eval: E, depth: u32, win: f64, blunder: f64, table_mib: usize) -> Result<Self, JudgeError> {
        check_search(depth, win, blunder)?;
        let table_mib = if G::HASHED { table_mib } else { 0 };
        let opts = Options::recommended::<G, Minimax, E>(&eval).with_table_mib(table_mib);
        let search = Search::new(Minimax, eval, opts).map_err(|e| JudgeError::Search(e.to_string()))?;
        Ok(SearchJudge { search, depth, win, blunder, legal: Vec::new() })
    }

    /// The judge's depth.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The value of `g` for its side to move (for [`Player::First`] at a
    /// chance node) at `depth` (at least 1), clamped to `±win`: `±win` for
    /// a finished game (0 drawn) or a win found within the horizon.
    pub fn value(&mut self, g: &G, depth: u32) -> Result<f64, JudgeError> {
        let mut moves = Vec::new();
        if let Status::Over(o) = g.generate(&mut moves) {
            return Ok(class(o.value_for(g.turn().player().unwrap_or(Player::First), 1.0)) * self.win);
        }
        let r = self.search.run(g, &Limits::depth(depth)).map_err(|e| JudgeError::Search(e.to_string()))?;
        let v = r.value.ok_or_else(|| JudgeError::Search("no value".into()))?;
        Ok(if v.abs() >= WIN_SCORE / 2.0 { v.signum() * self.win } else { v.clamp(-self.win, self.win) })
    }
}

impl<G: Game, E: Evaluator<G>> MoveJudge<G> for SearchJudge<G, E> {
    fn score_move(&mut self, position: &G, mv: G::Move) -> Result<Option<Verdict>, JudgeError> {
        let Some(mover) = position.turn().player() else { return Ok(None) };
        let mut legal = std::mem::take(&mut self.legal);
        let checked = check_legal(position, mv, &mut legal);
        self.legal = legal;
        checked?;
        let before = self.value(position, self.depth)?;
        let after_position = child(position, mv);
        let after = self.value(&after_position, self.depth - 1)?;
        // The position after the move is valued for its side to move.
        let after = if after_position.turn().player().unwrap_or(Player::First) == mover { after } else { -after };
        let loss = (before - after).max(0.0);
        let changed = judged_class(after, self.win) < judged_class(before, self.win);
        Ok(Some(Verdict { loss, changed_outcome: changed, blunder: changed || loss >= self.blunder }))
    }
}

/// The ground truth of a [`SearchJudge`]: `eval` at `depth`, a fresh judge
/// (and table) per cell. Its histogram's bounds are 0, 1%, 10% and 100% of
/// the blunder threshold (of `win` when only outcomes make blunders), and
/// `2 × win`; its unit `evaluator units`.
#[derive(Debug, Clone)]
pub struct SearchTruth<E> {
    eval: E,
    depth: u32,
    win: f64,
    blunder: f64,
    table_mib: usize,
    info: JudgeInfo,
}

impl<E> SearchTruth<E> {
    /// Alpha-beta with `eval` at `depth` (at least 2), values clamped to `±win`, a loss
    /// of at least `blunder` a blunder (`f64::INFINITY`: only a worsened
    /// outcome is); 16 MiB tables.
    pub fn new(eval: E, depth: u32, win: f64, blunder: f64) -> Result<Self, JudgeError> {
        check_search(depth, win, blunder)?;
        let scale = if blunder < 2.0 * win { blunder } else { win };
        let mut buckets = vec![0.0];
        for b in [scale / 100.0, scale / 10.0, scale, 2.0 * win] {
            if b > *buckets.last().expect("not empty") {
                buckets.push(b);
            }
        }
        let blunders = if blunder.is_finite() {
            format!("a blunder loses ≥ {blunder} or worsens the judged outcome")
        } else {
            "a blunder worsens the judged outcome".into()
        };
        let info = JudgeInfo {
            description: format!("alphabeta:depth={depth}, clamped to ±{win}"),
            note: format!(
                "Ground truth: alpha-beta with the game's evaluator at depth {depth}, values clamped to ±{win} (a win \
                 found within the horizon counts as that); the loss of a move is the position's depth-{depth} value \
                 less the move's in the same tree (the value of the position after it at depth {}, from the mover's \
                 side): 0 for the best move; {blunders} (won at +{win}, lost at −{win}).",
                depth - 1
            ),
            unit: "evaluator units".into(),
            buckets,
        };
        Ok(SearchTruth { eval, depth, win, blunder, table_mib: 16, info })
    }

    /// With `mib` MiB tables instead.
    #[must_use]
    pub fn with_table_mib(mut self, mib: usize) -> Self {
        self.table_mib = mib;
        self
    }

    /// With this description instead (recorded in the cells).
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.info.description = description.into();
        self
    }

    /// With this note instead (e.g. naming the evaluator).
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.info.note = note.into();
        self
    }

    /// With this unit instead (e.g. the evaluator's name).
    #[must_use]
    pub fn with_unit(mut self, unit: impl Into<String>) -> Self {
        self.info.unit = unit.into();
        self
    }

    /// With these histogram bounds instead (see [`JudgeInfo::buckets`]).
    #[must_use]
    pub fn with_buckets(mut self, buckets: Vec<f64>) -> Self {
        self.info.buckets = buckets;
        self
    }
}

impl<G, E> GroundTruth<G> for SearchTruth<E>
where
    G: Game + 'static,
    E: Evaluator<G> + Clone + Sync + 'static,
{
    fn info(&self, _level: &LossLevel) -> JudgeInfo {
        self.info.clone()
    }

    fn judge(&self, _level: &LossLevel) -> Result<Box<dyn MoveJudge<G>>, JudgeError> {
        Ok(Box::new(SearchJudge::new(self.eval.clone(), self.depth, self.win, self.blunder, self.table_mib)?))
    }
}

// ---------------------------------------------------------------------------
// Levels, profiles, the table

/// One profiled setting.
#[derive(Debug, Clone, PartialEq)]
pub struct LossLevel {
    /// What was asked for: `elo:X`, or a reference player's name.
    pub setting: String,
    /// Its rating on the calibration's scale (a reference player's nominal
    /// rating).
    pub elo: f64,
    /// The agent spec that plays.
    pub spec: String,
}

/// The dial's levels at `fractions` of its range: each rating rounded to a
/// whole Elo (the top, a fraction of 1, exactly), named `elo:X`, with the
/// setting the dial plays there; a level whose name repeats one before it
/// is left out.
pub fn dial_levels(dial: &Dial, fractions: &[f64]) -> Result<Vec<LossLevel>, LossError> {
    check_fractions(fractions)?;
    let (lo, hi) = dial.range();
    let mut out: Vec<LossLevel> = Vec::new();
    for &f in fractions {
        let elo = if f >= 1.0 { hi } else { (lo + (hi - lo) * f).round().clamp(lo, hi) };
        let spec = dial.setting(elo)?.to_string();
        let level = LossLevel { setting: format!("elo:{elo:.0}"), elo, spec };
        if !out.iter().any(|l| l.setting == level.setting) {
            out.push(level);
        }
    }
    Ok(out)
}

fn check_fractions(fractions: &[f64]) -> Result<(), LossError> {
    if fractions.is_empty() {
        return Err(LossError::NoLevels);
    }
    match fractions.iter().find(|f| !(0.0..=1.0).contains(*f)) {
        Some(&f) => Err(LossError::BadLevel(f)),
        None => Ok(()),
    }
}

/// The profile of `level` from the verdicts on its moves: the losses'
/// mean, median, 90th percentile (nearest rank) and maximum, the blunder
/// and outcome-change rates, and the histogram over `buckets` (see
/// [`JudgeInfo::buckets`]), with `unit` and `note`.
///
/// ```
/// use tournament::losses::{LossLevel, Verdict, profile};
///
/// let level = LossLevel { setting: "elo:100".into(), elo: 100.0, spec: "random".into() };
/// let v = |loss: f64| Verdict { loss, changed_outcome: loss > 1.0, blunder: loss > 1.0 };
/// let p = profile(&level, &[v(0.0), v(0.0), v(1.0), v(2.0)], "outcome classes", &[0.0, 1.0, 2.0], "");
/// assert_eq!((p.moves, p.mean_loss, p.median_loss, p.max_loss), (4, 0.75, 0.0, 2.0));
/// assert_eq!(p.blunder_rate, 0.25);
/// assert_eq!(p.histogram, vec![(0.0, 2), (1.0, 1), (2.0, 1)]);
/// ```
pub fn profile(level: &LossLevel, verdicts: &[Verdict], unit: &str, buckets: &[f64], note: &str) -> LossProfile {
    let mut losses: Vec<f64> = verdicts.iter().map(|v| v.loss).collect();
    losses.sort_by(f64::total_cmp);
    let n = losses.len();
    let rate = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    // Nearest rank.
    let quantile = |p: f64| if n == 0 { 0.0 } else { losses[((p * n as f64).ceil() as usize).clamp(1, n) - 1] };
    let mut histogram: Vec<(f64, u64)> = buckets.iter().map(|&b| (b, 0)).collect();
    if !histogram.is_empty() {
        for &l in &losses {
            let i = buckets.iter().position(|&b| l <= b).unwrap_or(buckets.len() - 1);
            histogram[i].1 += 1;
        }
    }
    LossProfile {
        setting: level.setting.clone(),
        elo: level.elo,
        spec: level.spec.clone(),
        moves: n as u64,
        mean_loss: if n == 0 { 0.0 } else { losses.iter().sum::<f64>() / n as f64 },
        median_loss: quantile(0.5),
        p90_loss: quantile(0.9),
        max_loss: losses.last().copied().unwrap_or(0.0),
        blunder_rate: rate(verdicts.iter().filter(|v| v.blunder).count()),
        outcome_change_rate: rate(verdicts.iter().filter(|v| v.changed_outcome).count()),
        histogram,
        unit: unit.into(),
        note: note.into(),
    }
}

/// A calibration's loss profiles as a Markdown table, with each distinct
/// note (and unit) once after it; empty without profiles.
pub fn losses_table(c: &Calibration) -> String {
    if c.losses.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "how the dial loses ({}): each move's loss against ground truth, in self-play\n\n\
         | setting | Elo | spec | moves | mean | median | p90 | max | blunders | outcome changed | histogram |\n\
         | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
        c.game
    );
    let mut notes: Vec<String> = Vec::new();
    for p in &c.losses {
        let mut histogram = Vec::new();
        let mut below = None;
        for (i, &(bound, count)) in p.histogram.iter().enumerate() {
            let label = match below {
                None => format!("{bound}"),
                Some(prev) if i + 1 == p.histogram.len() => format!(">{prev}"),
                Some(_) => format!("≤{bound}"),
            };
            histogram.push(format!("{label}: {count}"));
            below = Some(bound);
        }
        let _ = writeln!(
            s,
            "| `{}` | {:.0} | `{}` | {} | {:.2} | {:.0} | {:.0} | {:.0} | {:.1}% | {:.1}% | {} |",
            p.setting,
            p.elo,
            p.spec,
            p.moves,
            p.mean_loss,
            p.median_loss,
            p.p90_loss,
            p.max_loss,
            100.0 * p.blunder_rate,
            100.0 * p.outcome_change_rate,
            histogram.join(", ")
        );
        let note = format!("Unit: {}. {}", p.unit, p.note);
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    for n in notes {
        let _ = write!(s, "\n{n}\n");
    }
    s
}

// ---------------------------------------------------------------------------
// The runner

/// Reference players profiled beside the dial's levels (e.g. an external
/// engine's own weakened levels).
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceLevels {
    /// The players, profiled after the dial's levels.
    pub levels: Vec<LossLevel>,
    /// Their jobs' names in the store: `<game>-<prefix>NN`.
    pub prefix: String,
    /// Appended to their profiles' notes (e.g. that their games are not
    /// reproducible); empty for nothing.
    pub note: String,
}

/// Where and how loss profiles are played.
#[derive(Debug, Clone)]
pub struct LossConfig {
    /// The master seed: openings and every cell's seed derive from it.
    pub seed: u64,
    /// The scale recorded with the cells (a quick run's cells are never
    /// mixed with a default run's).
    pub scale: Scale,
    /// The cell store's directory.
    pub out: PathBuf,
    /// Only this share of the cells (the others left to other processes);
    /// the profiles are made once every cell is there.
    pub shard: Option<Shard>,
    /// The levels, as fractions of the dial's range (0 to 1; see
    /// [`dial_levels`]).
    pub levels: Vec<f64>,
    /// Self-play games per level, from as many balanced random openings.
    pub games: usize,
    /// Games per cell of the store.
    pub games_per_cell: usize,
    /// Plies after the opening before a game stops (the moves after are
    /// not played); `None`: the setup's ply limit.
    pub max_plies: Option<usize>,
    /// Reference players profiled too, if any.
    pub references: Option<ReferenceLevels>,
}

impl LossConfig {
    /// `games` games per level at the [default levels](DEFAULT_LEVELS), 4
    /// a cell, at the default scale with `seed`, the cells in `out`.
    pub fn new(seed: u64, games: usize, out: impl Into<PathBuf>) -> Self {
        LossConfig {
            seed,
            scale: Scale::Default,
            out: out.into(),
            shard: None,
            levels: DEFAULT_LEVELS.to_vec(),
            games,
            games_per_cell: 4,
            max_plies: None,
            references: None,
        }
    }

    fn run(&self) -> RunConfig {
        RunConfig { key: RunKey { seed: self.seed, scale: self.scale }, out: self.out.clone(), shard: self.shard }
    }
}

/// Why loss profiles did not come out.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LossError {
    /// No level to profile.
    #[error("no levels to profile: give at least one fraction of the dial's range")]
    NoLevels,
    /// A level that is not a fraction of the dial's range.
    #[error("level {0} is not a fraction of the dial's range (0 to 1)")]
    BadLevel(f64),
    /// No games per level, or per cell.
    #[error("no games per {0}: set at least one")]
    NoGames(&'static str),
    /// The calibration is another game's than the setup's.
    #[error("the calibration is of {calibration}, not {setup}")]
    WrongGame {
        /// The setup's game.
        setup: String,
        /// The calibration's game.
        calibration: String,
    },
    /// The calibration does not make a dial, or a level is outside it.
    #[error(transparent)]
    Dial(#[from] DialError),
    /// A level's spec the setup's roster refuses, or no openings.
    #[error(transparent)]
    Setup(#[from] TournamentError),
    /// The cell store could not be opened (another run's directory, in use).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Cells that could not be played, judged or saved.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Cells missing after this run: the other shards' share.
    #[error(
        "{missing} cells are missing from {} (other shards' share?): run the other shards into it, then once more without a shard, to profile",
        out.display()
    )]
    Incomplete {
        /// Cells not there.
        missing: usize,
        /// The cell store.
        out: PathBuf,
    },
}

/// The loss profiles of `calibration`'s dial on `setup`'s game: self-play
/// at `config.levels` of the dial's range ([`dial_levels`]), then of
/// `config.references`, every move judged by `truth` (see the [module
/// docs](self)). Plays the cells `config.out` does not already hold, then
/// makes one profile per level, in order. Progress goes to `observer`.
///
/// Every level plays the same openings: `config.games` of
/// [`Setup::random_openings`] with a seed derived from the master seed.
/// Level `k` is the job `<game>-lossNN` (`NN` = `k`, two digits; reference
/// players `<game>-<prefix>NN`), its cells `games-LLLLLL-HHHHHH` (games `L`
/// to `H − 1`), game `i` seeded with [`pair_seed`] from its cell's seed and
/// `i`, both sides played by the level's spec (built once per cell, reset
/// before each game) and judged by one judge per cell. The cells' rows:
/// `game`, `ply`, `loss`, `changed`, `blunder`, one per scored move.
///
/// ```
/// use games_small::{TicTacToe, TicTacToeEval};
/// use strength::dial::{Calibration, Rung};
/// use tournament::Setup;
/// use tournament::losses::{ExactTruth, LossConfig, loss_profiles, losses_table};
///
/// let setup = Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
///     .with_opening_plies(1)
///     .with_max_plies(9);
/// // A calibration of three rungs on one curve (as `calibrate` makes them).
/// let rung = |spec: &str, theta: f64, rating: f64| Rung {
///     spec: spec.into(),
///     curve: Some("boltzmann:depth=9,cap=1".into()),
///     theta: Some(theta),
///     rating,
///     low: rating - 30.0,
///     high: rating + 30.0,
///     games: 100,
/// };
/// let mut calibration = Calibration {
///     game: "tictactoe".into(),
///     rungs: vec![
///         rung("random", 0.0, 0.0),
///         rung("boltzmann:depth=9,cap=1,theta=2", 2.0, 200.0),
///         rung("alphabeta:depth=9", f64::INFINITY, 400.0),
///     ],
///     ..Calibration::default()
/// };
/// let dir = std::env::temp_dir().join(format!("tournament-doc-losses-{}", std::process::id()));
/// let config = LossConfig { levels: vec![0.25, 1.0], ..LossConfig::new(7, 4, &dir) };
/// calibration.losses = loss_profiles(&setup, &calibration, &ExactTruth::new(), &config, &())?;
/// let top = &calibration.losses[1];
/// assert_eq!((top.spec.as_str(), top.mean_loss, top.blunder_rate), ("alphabeta:depth=9", 0.0, 0.0));
/// assert!(losses_table(&calibration).contains("| `elo:100` |"));
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn loss_profiles<G>(
    setup: &Setup<G>,
    calibration: &Calibration,
    truth: &dyn GroundTruth<G>,
    config: &LossConfig,
    observer: &dyn RunObserver,
) -> Result<Vec<LossProfile>, LossError>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
{
    check_fractions(&config.levels)?;
    if config.games == 0 {
        return Err(LossError::NoGames("level"));
    }
    if config.games_per_cell == 0 {
        return Err(LossError::NoGames("cell"));
    }
    let game = setup.name();
    if calibration.game != game {
        return Err(LossError::WrongGame { setup: game.to_string(), calibration: calibration.game.clone() });
    }
    let dial = Dial::new(calibration.clone())?;
    let mut levels: Vec<(String, LossLevel, &str)> = dial_levels(&dial, &config.levels)?
        .into_iter()
        .enumerate()
        .map(|(k, l)| (format!("{game}-loss{k:02}"), l, ""))
        .collect();
    if let Some(r) = &config.references {
        levels.extend(
            r.levels.iter().enumerate().map(|(k, l)| (format!("{game}-{}{k:02}", r.prefix), l.clone(), &*r.note)),
        );
    }
    for (_, level, _) in &levels {
        setup.check_spec(&level.spec)?;
    }
    let opening_seed = derive_seed(config.seed, fnv("loss openings"));
    let openings = Openings {
        list: setup.random_openings(config.games, opening_seed)?,
        source: format!("random, seed {opening_seed}"),
    };
    let max_plies = config.max_plies.unwrap_or_else(|| setup.max_plies());
    let jobs: Vec<LossJob<'_, G>> = levels
        .into_iter()
        .map(|(name, level, reference_note)| LossJob {
            name,
            setup,
            truth,
            info: truth.info(&level),
            level,
            reference_note,
            openings: &openings,
            games: config.games,
            per_cell: config.games_per_cell,
            max_plies,
        })
        .collect();
    let run = config.run();
    let names: Vec<String> = jobs.iter().map(|j| j.name.clone()).collect();
    let share = config.shard.map_or("all".to_string(), |s| s.to_string());
    let lock = open_out(&run.out, run.key, &names, &[share])?;
    if let Some(warning) = lock.warning() {
        observer.note(warning);
    }
    observer.note(&format!("{game}: loss profiles of {} settings, {} self-play games each", jobs.len(), config.games));
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    run_cells(&selected, &run, observer)?;
    let mut profiles = Vec::new();
    let mut missing = 0;
    for job in &jobs {
        let (verdicts, absent) = job.load(&run);
        missing += absent;
        profiles.push(profile(&job.level, &verdicts, &job.info.unit, &job.info.buckets, &job.note()));
    }
    if missing > 0 {
        return Err(LossError::Incomplete { missing, out: run.out });
    }
    Ok(profiles)
}

/// One level's self-play games, as a job of the cell store.
struct LossJob<'a, G: Game> {
    name: String,
    setup: &'a Setup<G>,
    truth: &'a dyn GroundTruth<G>,
    info: JudgeInfo,
    level: LossLevel,
    /// Appended to the profile's note (reference players).
    reference_note: &'a str,
    openings: &'a Openings,
    games: usize,
    per_cell: usize,
    max_plies: usize,
}

impl<G> LossJob<'_, G>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
{
    /// The games `lo..hi` of a cell named `games-LO-HI`.
    fn cell_range(cell: &str) -> Result<(usize, usize), CellFailure> {
        let bad = || CellFailure::BadCell(cell.to_string());
        match cell.split('-').collect::<Vec<_>>().as_slice() {
            ["games", lo, hi] => Ok((lo.parse().map_err(|_| bad())?, hi.parse().map_err(|_| bad())?)),
            _ => Err(bad()),
        }
    }

    /// The verdicts of the cells saved for `run`, in cell order, and how
    /// many cells are missing.
    fn load(&self, run: &RunConfig) -> (Vec<Verdict>, usize) {
        let params = self.params(run.key.scale);
        let mut verdicts = Vec::new();
        let mut missing = 0;
        for cell in self.cells(run.key.scale) {
            match load_cell(&run.out, self, run.key, &params, &cell) {
                Loaded::Valid { rows, .. } => verdicts.extend(rows.iter().filter_map(verdict_of_row)),
                _ => missing += 1,
            }
        }
        (verdicts, missing)
    }

    fn note(&self) -> String {
        let games = format!(
            "Both sides of {} self-play games from balanced random openings (the calibration's kind).",
            self.games
        );
        let reference =
            if self.reference_note.is_empty() { String::new() } else { format!(" {}", self.reference_note) };
        format!("{} {games}{reference}", self.info.note)
    }
}

/// Why a cell of a level's games could not be played or judged.
#[derive(Debug, thiserror::Error)]
enum CellFailure {
    /// A cell id that is not `games-LO-HI`.
    #[error("bad cell {0}")]
    BadCell(String),
    /// A game could not be played (an agent failed or played an illegal move).
    #[error("game {game}, opening {opening:?}: {source}")]
    Game { game: usize, opening: String, source: search_core::GameError },
    /// The judge failed on a game's moves.
    #[error("game {game}, opening {opening:?}: {source}")]
    Judge { game: usize, opening: String, source: JudgeError },
}

/// The verdict a saved row holds.
fn verdict_of_row(r: &Row) -> Option<Verdict> {
    Some(Verdict {
        loss: r.get("loss")?.as_f64()?,
        changed_outcome: r.get("changed")?.as_bool()?,
        blunder: r.get("blunder")?.as_bool()?,
    })
}

impl<G> Job for LossJob<'_, G>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
{
    fn name(&self) -> &str {
        &self.name
    }
    fn version(&self) -> u32 {
        LOSS_VERSION
    }
    fn params(&self, _scale: Scale) -> Value {
        json!({
            "game": self.setup.name(),
            "setting": self.level.setting,
            "spec": self.level.spec,
            "judge": self.info.description,
            "openings": self.openings.source,
            "games_per_cell": self.per_cell,
            "max_plies": self.max_plies,
        })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        let per = self.per_cell;
        (0..self.games.div_ceil(per))
            .map(|i| format!("games-{:06}-{:06}", i * per, ((i + 1) * per).min(self.games)))
            .collect()
    }
    fn run_cell(&self, _scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, CellError> {
        let (lo, hi) = Self::cell_range(cell)?;
        let roster = self.setup.roster();
        let spec = &self.level.spec;
        let mut first = roster.build(spec).map_err(TournamentError::from)?;
        let mut second = roster.build(spec).map_err(TournamentError::from)?;
        let mut judge = self.truth.judge(&self.level)?;
        let list = &self.openings.list;
        let mut rows = Vec::new();
        for i in lo..hi {
            let opening = &list[i % list.len()];
            let from = self.setup.parse_opening(opening)?;
            first.reset();
            second.reset();
            let record = play_match(&from, &mut first, &mut second, pair_seed(seed, i), Some(self.max_plies))
                .map_err(|source| CellFailure::Game { game: i, opening: opening.clone(), source })?;
            let scored = judge.score_game(&from, &record.moves).map_err(|source| CellFailure::Judge {
                game: i,
                opening: opening.clone(),
                source,
            })?;
            rows.extend(scored.iter().map(|s| {
                Row::from_iter([
                    ("game".to_string(), json!(i)),
                    ("ply".to_string(), json!(s.ply)),
                    ("loss".to_string(), json!(s.verdict.loss)),
                    ("changed".to_string(), json!(s.verdict.changed_outcome)),
                    ("blunder".to_string(), json!(s.verdict.blunder)),
                ])
            }));
        }
        Ok(rows)
    }
    fn progress(&self, rows: &[Row]) -> Option<String> {
        let n = rows.len();
        let sum: f64 = rows.iter().filter_map(|r| r.get("loss").and_then(Value::as_f64)).sum();
        Some(format!("{}: {n} moves scored, mean loss {:.2}", self.name, if n == 0 { 0.0 } else { sum / n as f64 }))
    }
}
