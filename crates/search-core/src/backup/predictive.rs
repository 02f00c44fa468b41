//! Predictive play (Reibman and Ballard 1983): the opponent's nodes are
//! valued as chance nodes whose probabilities come from a predicted
//! playing strength.

use crate::backup::children::Children;
use crate::backup::{Backup, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::ParamError;
use crate::game::Turn;

/// How [`Predictive`]'s weights `PS, (1−PS)·PS, …, (1−PS)^(Br−1)·PS` are
/// used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PsWeights {
    /// Divided by their sum `1 − (1−PS)^Br`, so they are a probability
    /// distribution (the default). As `PS → 0` they tend to the unweighted
    /// average, as the paper intends.
    #[default]
    Normalised,
    /// As printed, summing to `1 − (1−PS)^Br < 1` (for reproducing the
    /// paper; it shrinks every opponent node's value towards 0).
    Unnormalised,
}

/// Predictive play: at the opponent's nodes (where the player to move is not
/// the search root's), the children's values are sorted from the
/// opponent's best to its worst and averaged with the weights
/// `PS, (1−PS)·PS, …, (1−PS)^(Br−1)·PS` (`Br` the node's number of
/// children), normalised to sum to one unless
/// [`PsWeights::Unnormalised`] is chosen. Everything else is minimax in
/// negamax form: the root player's nodes take the maximum, chance nodes the
/// expectation.
///
/// `PS ∈ (0, 1]` is the opponent's predicted strength: `PS = 1` predicts a
/// perfect opponent (plain minimax); `PS → 0` a random one (the unweighted
/// average, with normalised weights). Sorting "increasingly" in the paper is
/// from the root player's (Max's) point of view, i.e. the opponent's best
/// move first.
///
/// No pruning ([`Pruning::None`]): an opponent node's value depends on every
/// child. A move's [`child_score`](Backup::child_score) is the child's value
/// from the mover's point of view.
///
/// ```
/// use search_core::backup::Predictive;
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// // Reibman and Ballard's Fig. 1: a forced loss. Minimax sees two zeros;
/// // predictive play prefers the branch where an error by min pays.
/// let t: LiteralTree = "max(min(0, 0), min(0, 1))".parse()?;
/// let r = Search::new(Predictive::new(0.9)?, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
/// assert_eq!(r.best_moves, vec![1]);
/// assert!((r.value.unwrap() - 0.09 / 0.99).abs() < 1e-12);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Predictive {
    ps: f64,
    weights: PsWeights,
}

impl Predictive {
    /// Predictive play with predicted strength `ps ∈ (0, 1]` and normalised
    /// weights.
    ///
    /// ```
    /// use search_core::backup::Predictive;
    /// assert!(Predictive::new(1.0).is_ok());
    /// assert!(Predictive::new(0.0).is_err());
    /// assert!(Predictive::new(f64::NAN).is_err());
    /// ```
    pub fn new(ps: f64) -> Result<Self, ParamError> {
        if ps > 0.0 && ps <= 1.0 {
            Ok(Predictive { ps, weights: PsWeights::Normalised })
        } else {
            Err(ParamError::new("ps", format!("must be within (0, 1], got {ps}")))
        }
    }

    /// Chooses normalised or unnormalised weights (builder style).
    pub fn with_weights(mut self, weights: PsWeights) -> Self {
        self.weights = weights;
        self
    }

    /// The predicted strength.
    pub fn ps(&self) -> f64 {
        self.ps
    }

    /// The weight scheme.
    pub fn weights(&self) -> PsWeights {
        self.weights
    }

    /// The weighted average of `sorted` (the opponent's best first).
    ///
    /// ```
    /// use search_core::backup::{Predictive, PsWeights};
    /// let p = Predictive::new(0.5)?;
    /// // Weights 0.5, 0.25 normalised by 0.75.
    /// assert_eq!(p.average(&[3.0, 0.0]), 2.0);
    /// let raw = p.with_weights(PsWeights::Unnormalised);
    /// assert_eq!(raw.average(&[3.0, 0.0]), 1.5);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn average(&self, sorted: &[f64]) -> f64 {
        let (mut w, mut total, mut sum) = (self.ps, 0.0, 0.0);
        for &x in sorted {
            // A zero weight must not turn an infinite value into NaN.
            if w > 0.0 {
                sum += w * x;
            }
            total += w;
            w *= 1.0 - self.ps;
        }
        match self.weights {
            PsWeights::Normalised => sum / total,
            PsWeights::Unnormalised => sum,
        }
    }
}

impl Backup for Predictive {
    type Value = f64;
    type Acc = Children;

    const PRUNING: Pruning = Pruning::None;

    #[inline]
    fn leaf(&self, _node: &NodeInfo, leaf: Leaf) -> f64 {
        leaf.value()
    }

    fn open(&self, _node: &NodeInfo) -> Children {
        Children::default()
    }

    #[inline]
    fn add(&self, node: &NodeInfo, acc: &mut Children, child: &ChildInfo, value: f64) {
        acc.add(node.turn == Turn::Chance, child, value);
    }

    fn close(&self, node: &NodeInfo, mut acc: Children) -> f64 {
        match node.turn {
            Turn::Chance => acc.mean(),
            Turn::Player(p) if p == node.root_player => {
                acc.sort_descending().first().copied().unwrap_or(f64::NEG_INFINITY)
            }
            Turn::Player(_) => self.average(acc.sort_descending()),
        }
    }

    fn name(&self) -> String {
        format!("predictive ps={}", self.ps)
    }
}
