//! EMM, error-minimizing minimax (Zuckerman, Wilson and Nau), as
//! reconstructed ([docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md)) from the summary in Liu et al. 2020.

use crate::backup::logistic::sigmoid;
use crate::backup::{Backup, BackupValue, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::ParamError;
use crate::game::Turn;

/// An EMM value: a two-valued verdict for the side to move (win or loss)
/// and the probability that the verdict is wrong.
///
/// ```
/// use search_core::backup::EmmValue;
/// let v = EmmValue::win(0.1);
/// assert_eq!(v.win_probability(), 0.9);
/// assert_eq!(v.flipped(), EmmValue::loss(0.1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmmValue {
    /// True: a win for the side to move; false: a loss.
    pub win: bool,
    /// The probability that the verdict is wrong, in `[0, 1]`.
    pub error: f64,
}

impl EmmValue {
    /// A win with the given error probability.
    pub fn win(error: f64) -> Self {
        EmmValue { win: true, error }
    }

    /// A loss with the given error probability.
    pub fn loss(error: f64) -> Self {
        EmmValue { win: false, error }
    }

    /// The probability that the side to move wins: `1 − error` for a win
    /// verdict, `error` for a loss.
    pub fn win_probability(&self) -> f64 {
        if self.win { 1.0 - self.error } else { self.error }
    }

    /// The same value from the other player's point of view.
    pub fn flipped(self) -> Self {
        EmmValue { win: !self.win, error: self.error }
    }

    /// The verdict of a win probability `p`: a win if `p > 1/2` (with error
    /// `1 − p`), otherwise a loss (with error `p`).
    ///
    /// ```
    /// use search_core::backup::EmmValue;
    /// assert_eq!(EmmValue::from_win_probability(0.75), EmmValue::win(0.25));
    /// assert_eq!(EmmValue::from_win_probability(0.5), EmmValue::loss(0.5));
    /// ```
    pub fn from_win_probability(p: f64) -> Self {
        if p > 0.5 { EmmValue::win(1.0 - p) } else { EmmValue::loss(p) }
    }
}

/// How EMM turns a static (heuristic) value into a verdict and an error
/// probability. `h` is from the side to move's point of view; the error
/// must lie in `[0, 1]`.
///
/// Any `Fn(f64) -> EmmValue` is an error model:
///
/// ```
/// use search_core::backup::{EmmValue, ErrorModel};
/// // Every static value is wrong 10% of the time.
/// let ten_percent = |h: f64| EmmValue { win: h > 0.0, error: 0.1 };
/// assert_eq!(ten_percent.judge(-3.0), EmmValue::loss(0.1));
/// ```
pub trait ErrorModel {
    /// The verdict on a static value `h` and its error probability.
    fn judge(&self, h: f64) -> EmmValue;
}

impl<F: Fn(f64) -> EmmValue> ErrorModel for F {
    #[inline]
    fn judge(&self, h: f64) -> EmmValue {
        self(h)
    }
}

/// The default error model for real-valued evaluations: the verdict is the
/// sign of the heuristic (`h > 0` a win, otherwise a loss) and the error is
/// `σ(−|h|/T)` with a temperature `T > 0`: ½ at `h = 0`, shrinking as `|h|`
/// grows. `T` calibrates the heuristic's scale (a value of `T` is about as
/// sure as `e⁻¹` odds of being wrong).
///
/// ```
/// use search_core::backup::{EmmValue, ErrorModel, SigmoidError};
/// let m = SigmoidError::new(100.0)?;
/// assert_eq!(m.judge(0.0), EmmValue::loss(0.5));
/// let v = m.judge(-100.0);
/// assert!(!v.win && (v.error - 1.0 / (1.0 + 1f64.exp())).abs() < 1e-15);
/// assert!(SigmoidError::new(0.0).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SigmoidError {
    temperature: f64,
}

impl SigmoidError {
    /// The model with temperature `T` (finite, `> 0`).
    pub fn new(temperature: f64) -> Result<Self, ParamError> {
        Ok(SigmoidError { temperature: ParamError::positive("temperature", temperature)? })
    }

    /// The temperature.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }
}

impl ErrorModel for SigmoidError {
    #[inline]
    fn judge(&self, h: f64) -> EmmValue {
        EmmValue { win: h > 0.0, error: sigmoid(-h.abs() / self.temperature) }
    }
}

/// A constant error model: the verdict is the sign of the heuristic (`h > 0`
/// a win) and every static value has the same error probability (the
/// setting of the paper's Fig. 5).
///
/// ```
/// use search_core::backup::{ConstantError, EmmValue, ErrorModel};
/// assert_eq!(ConstantError::new(0.1)?.judge(2.0), EmmValue::win(0.1));
/// assert!(ConstantError::new(1.5).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConstantError {
    error: f64,
}

impl ConstantError {
    /// The model with error probability `error` (within `[0, 1]`).
    pub fn new(error: f64) -> Result<Self, ParamError> {
        Ok(ConstantError { error: ParamError::probability("error", error)? })
    }
}

impl ErrorModel for ConstantError {
    #[inline]
    fn judge(&self, h: f64) -> EmmValue {
        EmmValue { win: h > 0.0, error: self.error }
    }
}

/// The EMM backup, in negamax form. Every node carries an [`EmmValue`]
/// (win or loss for its side to move, and an error probability):
///
/// - a terminal node is its exact result with error 0 (a positive terminal
///   value a win, a negative one a loss); a draw, which a two-valued model
///   cannot express, is a loss with error ½;
/// - a horizon node is its static value judged by the [`ErrorModel`];
/// - an interior player node computes the **backup** pair from its
///   children: let `G` be the children that are losses for their mover
///   (winning moves). If `G` is not empty the backup is a win with error
///   `Π_{i∈G} err_i · Π_{i∉G} (1 − err_i)` (it is wrong only if every
///   winning move is misjudged and no other move is); otherwise a loss
///   with error `1 − Π_i (1 − err_i)` (wrong if any move is misjudged).
///   Then the node keeps its **static** pair (its static value judged by
///   the model) if that pair's error is strictly lower, and the backup pair
///   otherwise.
///
/// With every leaf error `e`, the three node types of the seed's Fig. 3 get
/// the backup errors `e²` (type I: every move wins), `e(1 − e)` (type II)
/// and `1 − (1 − e)²` (type III: every move loses) — only type III,
/// "pathological", loses accuracy, and there EMM falls back on the static
/// value.
///
/// A **chance node** takes the expectation of its children's win
/// probabilities (first player's view) and turns it into a verdict with
/// [`EmmValue::from_win_probability`]; the static pair is then kept if its
/// error is lower, as at player nodes.
///
/// No pruning ([`Pruning::None`]): the backup error depends on every child.
/// A node's [`scalar`](crate::backup::BackupValue::scalar) (and a move's
/// [`child_score`](Backup::child_score)) is `P(win) − P(loss) ∈ [−1, 1]` for
/// the side to move, so the root plays the move most likely to win.
///
/// ```
/// use search_core::backup::{ConstantError, Emm};
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// // Type III: both of max's moves lose (the min nodes are wins for min).
/// // The backup (a loss, error 19%) is worse than the static value (a
/// // win, error 10%), so the static value is kept.
/// let t: LiteralTree = "max[1](min[-1](0), min[-1](0))".parse()?;
/// let emm = Emm::new(ConstantError::new(0.1)?);
/// let r = Search::new(emm, LiteralEval, Options::full_width())?.run(&t, &Limits::depth(1))?;
/// assert!((r.value.unwrap() - 0.8).abs() < 1e-12); // a win with error 0.1
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Emm<M = SigmoidError> {
    model: M,
}

impl Emm<SigmoidError> {
    /// EMM with the default [`SigmoidError`] model at temperature `T > 0`.
    ///
    /// ```
    /// use search_core::backup::Emm;
    /// assert!(Emm::with_temperature(50.0).is_ok());
    /// assert!(Emm::with_temperature(-1.0).is_err());
    /// ```
    pub fn with_temperature(temperature: f64) -> Result<Self, ParamError> {
        Ok(Emm { model: SigmoidError::new(temperature)? })
    }
}

impl<M: ErrorModel> Emm<M> {
    /// EMM with the given error model.
    pub fn new(model: M) -> Self {
        Emm { model }
    }

    /// The error model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The static pair of a node (its static value judged by the model).
    fn judge_static(&self, node: &NodeInfo) -> Option<EmmValue> {
        node.static_value.map(|h| self.model.judge(h))
    }
}

/// What EMM accumulates over a node's children.
#[derive(Debug, Clone, Copy)]
pub struct EmmAcc {
    /// Some child is a winning move.
    any_winning: bool,
    /// `Π err` over the winning moves.
    winning_errors: f64,
    /// `Π (1 − err)` over the other moves.
    other_correct: f64,
    /// The expected win probability (chance nodes).
    win_probability: f64,
}

impl BackupValue for EmmValue {
    /// `2p − 1`, with `p` the probability of winning: in `[−1, 1]`.
    #[inline]
    fn scalar(&self) -> f64 {
        let p = self.win_probability();
        p - (1.0 - p)
    }
}

impl<M: ErrorModel> Backup for Emm<M> {
    type Value = EmmValue;
    type Acc = EmmAcc;

    const PRUNING: Pruning = Pruning::None;

    const NEEDS_STATIC: bool = true;

    fn leaf(&self, _node: &NodeInfo, leaf: Leaf) -> EmmValue {
        match leaf {
            Leaf::Terminal { value, .. } if value > 0.0 => EmmValue::win(0.0),
            Leaf::Terminal { value, .. } if value < 0.0 => EmmValue::loss(0.0),
            Leaf::Terminal { .. } => EmmValue::loss(0.5),
            Leaf::Horizon { value } => self.model.judge(value),
        }
    }

    fn open(&self, _node: &NodeInfo) -> EmmAcc {
        EmmAcc { any_winning: false, winning_errors: 1.0, other_correct: 1.0, win_probability: 0.0 }
    }

    fn add(&self, node: &NodeInfo, acc: &mut EmmAcc, child: &ChildInfo, value: EmmValue) {
        let ours = if child.flip { value.flipped() } else { value };
        match node.turn {
            Turn::Chance => acc.win_probability += child.probability * ours.win_probability(),
            Turn::Player(_) if ours.win => {
                acc.any_winning = true;
                acc.winning_errors *= ours.error;
            }
            Turn::Player(_) => acc.other_correct *= 1.0 - ours.error,
        }
    }

    fn close(&self, node: &NodeInfo, acc: EmmAcc) -> EmmValue {
        let backup = match node.turn {
            Turn::Chance => EmmValue::from_win_probability(acc.win_probability),
            Turn::Player(_) if acc.any_winning => EmmValue::win(acc.winning_errors * acc.other_correct),
            Turn::Player(_) => EmmValue::loss(1.0 - acc.other_correct),
        };
        match self.judge_static(node) {
            Some(stat) if stat.error < backup.error => stat,
            _ => backup,
        }
    }

    fn name(&self) -> String {
        "emm".into()
    }
}
