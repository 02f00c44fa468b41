//! Static evaluation: the heuristic value of a state where the search stops,
//! and, for rules such as IOM and EMM, of interior states too.

use crate::game::{Game, Outcome, Player};

/// The value the default [`Evaluator::terminal_value`] gives a win (minus the
/// distance to it in plies, so that shorter wins score higher).
///
/// Heuristic values must stay well inside `±(WIN_SCORE - MAX_PLY)`.
pub const WIN_SCORE: f64 = 1_000_000.0;

/// The deepest ply a search may reach; mate-distance values lie within
/// `WIN_SCORE - MAX_PLY ..= WIN_SCORE`.
pub const MAX_PLY: u32 = 1024;

/// From whose point of view an evaluator's values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perspective {
    /// The player to move (negamax style). At a chance node, the first player.
    SideToMove,
    /// Always [`Player::First`] (minimax style: `First` maximises).
    First,
}

/// A heuristic value model for a game.
///
/// Values are `f64` (see [docs/design.md](https://github.com/game-search/backup-rules/blob/main/docs/design.md) for why): they are exact for
/// integers up to 2⁵³, so integer heuristics lose nothing, and they carry the
/// soft, expected and doubled values that non-minimax backup rules produce.
/// An evaluator must never return NaN.
///
/// ```
/// use search_core::{Evaluator, Perspective};
/// use search_core::tree::LiteralTree;
///
/// /// Values every state at its number of children (a toy heuristic).
/// struct Mobility;
/// impl Evaluator<LiteralTree> for Mobility {
///     const PERSPECTIVE: Perspective = Perspective::First;
///     fn evaluate(&self, state: &LiteralTree) -> f64 {
///         state.children().len() as f64
///     }
/// }
/// let t: LiteralTree = "max(1, min(2, 3))".parse().unwrap();
/// assert_eq!(Mobility.evaluate(&t), 2.0);
/// ```
pub trait Evaluator<G: Game> {
    /// The point of view of [`evaluate`](Evaluator::evaluate).
    const PERSPECTIVE: Perspective;

    /// The heuristic value of `state`, from [`Self::PERSPECTIVE`]'s point of
    /// view. Called at the search horizon, and at interior nodes by rules
    /// that need a static value everywhere.
    fn evaluate(&self, state: &G) -> f64;

    /// The value of a finished game for `player`, found `ply` plies below the
    /// search root. The default scores a win [`WIN_SCORE`] minus `ply` (so a
    /// quicker win is better and a slower loss less bad), a draw 0, and a
    /// payoff as it is.
    #[inline]
    fn terminal_value(&self, outcome: Outcome, player: Player, ply: u32) -> f64 {
        match outcome {
            Outcome::Win(_) => outcome.value_for(player, WIN_SCORE - f64::from(ply)),
            _ => outcome.value_for(player, 0.0),
        }
    }

    /// Writes the "noisy" moves of `state` into `out` (cleared by the
    /// caller), best first: the moves a quiescence search follows beyond the
    /// horizon (captures, promotions). The default has none, which makes
    /// quiescence search the same as a static evaluation.
    #[inline]
    fn noisy_moves(&self, _state: &G, _out: &mut Vec<G::Move>) {}

    /// Bounds `(lo, hi)` that every value of the game lies within, from
    /// [`Player::First`]'s point of view (terminal values included), if known.
    /// Star1/Star2 pruning at chance nodes needs them.
    #[inline]
    fn bounds(&self) -> Option<(f64, f64)> {
        None
    }

    /// Bounds `(lo, hi)` on the exact value of `state` (a finished or
    /// unfinished game) for `player`, found `ply` plies below the root, if
    /// the game knows them: e.g. the best score still reachable with the
    /// moves left (connect-4), or mate-distance bounds. Negamax searches
    /// narrow their window with them and stop at once when it empties. The
    /// default knows none.
    #[inline]
    fn node_bounds(&self, _state: &G, _player: Player, _ply: u32) -> Option<(f64, f64)> {
        None
    }

    /// [`evaluate`](Evaluator::evaluate) converted to `player`'s point of view.
    #[inline]
    fn evaluate_for(&self, state: &G, player: Player) -> f64 {
        let view = match Self::PERSPECTIVE {
            Perspective::First => Player::First,
            Perspective::SideToMove => state.turn().player().unwrap_or(Player::First),
        };
        let v = self.evaluate(state);
        if view == player { v } else { -v }
    }
}

/// An evaluator that knows only finished games: every unfinished state is
/// worth 0, a win `win` (no distance bonus), a draw 0. With `win = 1` it is
/// the lecture notes' win 1 / draw 0 / loss −1 utility.
///
/// ```
/// use search_core::{Evaluator, OutcomeOnly, Outcome, Player};
/// use search_core::tree::LiteralTree;
/// let e = OutcomeOnly::new(1.0);
/// let v = <OutcomeOnly as Evaluator<LiteralTree>>::terminal_value(
///     &e, Outcome::Win(Player::Second), Player::First, 7);
/// assert_eq!(v, -1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutcomeOnly {
    win: f64,
}

impl OutcomeOnly {
    /// A win is worth `win`, a loss `-win`.
    pub fn new(win: f64) -> Self {
        OutcomeOnly { win }
    }
}

impl Default for OutcomeOnly {
    /// Win 1, draw 0, loss −1.
    fn default() -> Self {
        OutcomeOnly::new(1.0)
    }
}

impl<G: Game> Evaluator<G> for OutcomeOnly {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, _state: &G) -> f64 {
        0.0
    }

    fn terminal_value(&self, outcome: Outcome, player: Player, _ply: u32) -> f64 {
        outcome.value_for(player, self.win)
    }
}
