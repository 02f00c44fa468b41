//! Arc costs for Rminimax: how game outcomes and heuristic values become the
//! non-negative local costs `c_kk'` of the randomized-shortest-path model.
//!
//! A cost is attached to the arc *into* a node and depends on that node only:
//! an interior node costs [`CostModel::interior`], a finished game
//! [`CostModel::terminal`], a horizon node [`CostModel::horizon`]. The arc into
//! a leaf costs the leaf's cost *instead of* the interior cost (so a path of
//! `n` plies ending in a win costs `(n − 1)·interior + win`).
//!
//! Every cost must be finite and `≥ 0` (the RSP framework needs `c_kk' ≥ 0`).
//! A cost model that produces a negative or non-finite cost does not panic:
//! the value of every node above it becomes NaN, and the checked entry points
//! ([`Rminimax::transition_probabilities`](super::Rminimax::transition_probabilities),
//! the [policy agents](crate::policy), [`crate::policy::PathAnalysis`]) turn it
//! into a [`ParamError`] named `"costs"`.

use crate::backup::{Leaf, NodeInfo};
use crate::error::ParamError;
use crate::game::{Outcome, Player};

/// Maps game outcomes and horizon heuristic values to arc costs (lower is
/// better for the AI player, who minimises the cost of the path).
///
/// `value` arguments are always from the AI player's point of view (the
/// player to move at the search root, [`NodeInfo::root_player`]): larger is
/// better for the AI.
///
/// ```
/// use search_core::backup::rminimax::CostModel;
/// use search_core::{Outcome, Player};
///
/// /// Every play costs 1; a finished game costs 0 if won, 10 otherwise.
/// #[derive(Debug)]
/// struct WinOrNot;
/// impl CostModel for WinOrNot {
///     fn terminal(&self, outcome: Outcome, ai: Player, _value: f64) -> f64 {
///         if outcome.winner() == Some(ai) { 0.0 } else { 10.0 }
///     }
///     fn horizon(&self, _value: f64) -> f64 {
///         5.0
///     }
/// }
/// assert_eq!(WinOrNot.terminal(Outcome::Draw, Player::First, 0.0), 10.0);
/// assert_eq!(WinOrNot.interior(), 1.0);
/// ```
pub trait CostModel {
    /// The cost of an arc into an interior node (a game that goes on). The
    /// default is the paper's unit cost per play.
    fn interior(&self) -> f64 {
        1.0
    }

    /// The cost of the arc into a finished game with `outcome`. `ai` is the
    /// AI player; `value` is the evaluator's
    /// [`terminal_value`](crate::Evaluator::terminal_value) from `ai`'s
    /// point of view.
    fn terminal(&self, outcome: Outcome, ai: Player, value: f64) -> f64;

    /// The cost of the arc into a node at the search horizon whose heuristic
    /// value, from the AI player's point of view, is `value`.
    fn horizon(&self, value: f64) -> f64;
}

/// A cost if it is valid (finite, `≥ 0`), NaN otherwise (poisons the values
/// above it; see the [module documentation](self)).
#[inline]
pub(crate) fn checked(cost: f64) -> f64 {
    if cost.is_finite() && cost >= 0.0 { cost } else { f64::NAN }
}

/// The checked cost of the arc into the leaf `node`.
#[inline]
pub(crate) fn leaf_cost<C: CostModel + ?Sized>(costs: &C, node: &NodeInfo, leaf: Leaf) -> f64 {
    let to_ai = |v: f64| {
        if node.perspective == node.root_player { v } else { -v }
    };
    checked(match leaf {
        Leaf::Terminal { outcome, value } => costs.terminal(outcome, node.root_player, to_ai(value)),
        Leaf::Horizon { value } => costs.horizon(to_ai(value)),
    })
}

/// The section III convention of the paper (as read in [docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md)): unit cost
/// per play; the arc into a finished game costs `win < draw < loss`
/// (defaults [`WIN`](Self::WIN) = 0, [`DRAW`](Self::DRAW) = 1,
/// [`LOSS`](Self::LOSS) = 2); the heuristic at the horizon is shifted into
/// the same range.
///
/// **Choose the outcome costs larger than the game's length.** Every move
/// also costs [`interior`](CostModel::interior) (1), so with the defaults a
/// loss after 6 moves (cost 7) is cheaper than a draw after 9 (cost 9) and a
/// randomized player throws games. For full-length games scale the outcome
/// costs past the longest game, e.g. `OutcomeCosts::new(0.0, 10.0, 20.0)` for
/// tic-tac-toe (what `cargo xtask reproduce rminimax-fig2-tictactoe` uses).
/// The defaults suit depth-limited searches, where every path has the same
/// length.
///
/// **Horizon (and numeric payoffs).** A heuristic value `h` (AI's view) is
/// clipped to `[−range, range]` and mapped piecewise linearly: `h = range`
/// costs `win`, `h = 0` costs `draw`, `h = −range` costs `loss`. So a
/// horizon position never looks better than a won game nor worse than a lost
/// one, and every cost is non-negative by construction. Set `range` to the
/// evaluator's typical magnitude of a decisive advantage
/// ([`with_horizon_range`](Self::with_horizon_range); default 1). A finished
/// game with an [`Outcome::Payoff`] is mapped the same way from its payoff.
///
/// ```
/// use search_core::backup::rminimax::{CostModel, OutcomeCosts};
/// use search_core::{Outcome, Player};
/// let c = OutcomeCosts::default().with_horizon_range(100.0)?;
/// assert_eq!(c.terminal(Outcome::Win(Player::Second), Player::Second, 0.0), 0.0);
/// assert_eq!(c.terminal(Outcome::Draw, Player::Second, 0.0), 1.0);
/// assert_eq!(c.terminal(Outcome::Win(Player::First), Player::Second, 0.0), 2.0);
/// assert_eq!(c.horizon(50.0), 0.5);
/// assert_eq!(c.horizon(-1000.0), 2.0); // clipped: no worse than a loss
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutcomeCosts {
    win: f64,
    draw: f64,
    loss: f64,
    interior: f64,
    range: f64,
}

impl OutcomeCosts {
    /// Default cost of the arc into a won game.
    pub const WIN: f64 = 0.0;
    /// Default cost of the arc into a drawn game.
    pub const DRAW: f64 = 1.0;
    /// Default cost of the arc into a lost game.
    pub const LOSS: f64 = 2.0;

    /// Terminal costs `win ≤ draw ≤ loss`, all finite and `≥ 0`; interior
    /// cost 1, horizon range 1.
    ///
    /// ```
    /// use search_core::backup::rminimax::OutcomeCosts;
    /// assert!(OutcomeCosts::new(0.0, 5.0, 10.0).is_ok());
    /// assert!(OutcomeCosts::new(-1.0, 0.0, 1.0).is_err());
    /// assert!(OutcomeCosts::new(2.0, 1.0, 0.0).is_err());
    /// ```
    pub fn new(win: f64, draw: f64, loss: f64) -> Result<Self, ParamError> {
        for (name, c) in [("win cost", win), ("draw cost", draw), ("loss cost", loss)] {
            non_negative(name, c)?;
        }
        if !(win <= draw && draw <= loss) {
            return Err(ParamError::new("costs", format!("need win <= draw <= loss, got {win}, {draw}, {loss}")));
        }
        Ok(OutcomeCosts { win, draw, loss, interior: 1.0, range: 1.0 })
    }

    /// Sets the cost of an arc into an interior node (finite, `≥ 0`).
    pub fn with_interior(mut self, cost: f64) -> Result<Self, ParamError> {
        self.interior = non_negative("interior cost", cost)?;
        Ok(self)
    }

    /// Sets the heuristic magnitude that counts as a won (or lost) position
    /// (finite, `> 0`).
    pub fn with_horizon_range(mut self, range: f64) -> Result<Self, ParamError> {
        self.range = ParamError::positive("horizon range", range)?;
        Ok(self)
    }

    #[inline]
    fn scale(&self, value: f64) -> f64 {
        // The default range is 1, and `x / 1.0 == x` exactly: skip the
        // division (its latency lies on every leaf's path to the root).
        let scaled = if self.range == 1.0 { value } else { value / self.range };
        let t = scaled.clamp(-1.0, 1.0);
        if t >= 0.0 { self.draw - t * (self.draw - self.win) } else { self.draw - t * (self.loss - self.draw) }
    }
}

impl Default for OutcomeCosts {
    /// Win 0, draw 1, loss 2, interior 1, horizon range 1.
    fn default() -> Self {
        OutcomeCosts { win: Self::WIN, draw: Self::DRAW, loss: Self::LOSS, interior: 1.0, range: 1.0 }
    }
}

impl CostModel for OutcomeCosts {
    fn interior(&self) -> f64 {
        self.interior
    }

    fn terminal(&self, outcome: Outcome, ai: Player, _value: f64) -> f64 {
        match outcome {
            Outcome::Win(p) if p == ai => self.win,
            Outcome::Win(_) => self.loss,
            Outcome::Draw => self.draw,
            Outcome::Payoff(_) => self.scale(outcome.value_for(ai, 1.0)),
        }
    }

    fn horizon(&self, value: f64) -> f64 {
        self.scale(value)
    }
}

/// The Tables II/III convention of the paper (see [docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md)): every
/// interior arc costs `interior` (default 1) and the arc into a leaf costs
/// the leaf's *utility to the opponent*, `offset − value`, where `value` is
/// the evaluator's value from the AI player's point of view (default offset
/// 0). On a textbook tree whose root is `min` (the AI minimises the printed
/// utilities), the arc into a leaf costs exactly the printed number.
///
/// No shift is applied beyond `offset`: a leaf that comes out negative is an
/// error (the RSP model needs `c ≥ 0`). Horizon nodes are costed the same
/// way from their heuristic value.
///
/// ```
/// use search_core::backup::rminimax::{CostModel, UtilityCosts};
/// use search_core::{Outcome, Player};
/// // A `min` root: the AI is the second player; a leaf printed 98 has value
/// // -98 for it and costs 98.
/// let c = UtilityCosts::default();
/// assert_eq!(c.terminal(Outcome::Payoff(98.0), Player::Second, -98.0), 98.0);
/// let shifted = UtilityCosts::new(0.0, 10.0)?;
/// assert_eq!(shifted.horizon(4.0), 6.0);
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UtilityCosts {
    interior: f64,
    offset: f64,
}

impl UtilityCosts {
    /// Interior arcs cost `interior` (finite, `≥ 0`); a leaf costs
    /// `offset − value` (`offset` finite).
    pub fn new(interior: f64, offset: f64) -> Result<Self, ParamError> {
        non_negative("interior cost", interior)?;
        if !offset.is_finite() {
            return Err(ParamError::new("offset", format!("must be finite, got {offset}")));
        }
        Ok(UtilityCosts { interior, offset })
    }
}

impl Default for UtilityCosts {
    /// Interior 1, offset 0 (the paper's Tables II and III).
    fn default() -> Self {
        UtilityCosts { interior: 1.0, offset: 0.0 }
    }
}

impl CostModel for UtilityCosts {
    fn interior(&self) -> f64 {
        self.interior
    }

    fn terminal(&self, _outcome: Outcome, _ai: Player, value: f64) -> f64 {
        self.offset - value
    }

    fn horizon(&self, value: f64) -> f64 {
        self.offset - value
    }
}

fn non_negative(name: &'static str, c: f64) -> Result<f64, ParamError> {
    if c.is_finite() && c >= 0.0 {
        Ok(c)
    } else {
        Err(ParamError::new(name, format!("must be finite and >= 0, got {c}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_costs_are_ordered_and_clipped() {
        let c = OutcomeCosts::default().with_horizon_range(10.0).unwrap();
        let ai = Player::First;
        assert!(c.terminal(Outcome::Win(ai), ai, 0.0) < c.terminal(Outcome::Draw, ai, 0.0));
        assert!(c.terminal(Outcome::Draw, ai, 0.0) < c.terminal(Outcome::Win(ai.opponent()), ai, 0.0));
        for h in [-1e9, -10.0, -3.0, 0.0, 2.5, 10.0, 1e9] {
            let x = c.horizon(h);
            assert!((0.0..=2.0).contains(&x), "{h} -> {x}");
        }
        assert_eq!(c.horizon(-5.0), 1.5);
        assert!(c.horizon(3.0) > c.horizon(4.0));
    }

    #[test]
    fn invalid_cost_parameters_are_errors() {
        assert!(OutcomeCosts::default().with_interior(-1.0).is_err());
        assert!(OutcomeCosts::default().with_interior(f64::NAN).is_err());
        assert!(OutcomeCosts::default().with_horizon_range(0.0).is_err());
        assert!(UtilityCosts::new(-0.5, 0.0).is_err());
        assert!(UtilityCosts::new(1.0, f64::INFINITY).is_err());
        assert!(checked(-1e-12).is_nan());
        assert!(checked(f64::INFINITY).is_nan());
        assert_eq!(checked(0.0), 0.0);
    }
}
