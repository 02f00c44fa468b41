//! Product propagation (Kaindl, Horacek and Scheucher 2017): values are win
//! probabilities, combined as if the children were independent.

use crate::backup::logistic::{ln_one_minus_exp, ln_sigmoid};
use crate::backup::{Backup, BackupValue, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::ParamError;
use crate::game::{Outcome, Turn};

/// A product-propagation value: the probability `P` that the side to move
/// wins, kept as the pair `(ln P, ln(1 − P))` so that probabilities within
/// `1e-300` of 0 *or* of 1 keep their precision.
///
/// ```
/// use search_core::backup::ProductValue;
/// let v = ProductValue::from_probability(0.25)?;
/// assert_eq!(v.win_probability(), 0.25);
/// assert!((v.flipped().win_probability() - 0.75).abs() < 1e-15);
/// assert!((v.log_odds() - (1.0f64 / 3.0).ln()).abs() < 1e-15);
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProductValue {
    ln_win: f64,
    ln_loss: f64,
}

impl ProductValue {
    /// A certain win for the side to move.
    pub const WIN: ProductValue = ProductValue { ln_win: 0.0, ln_loss: f64::NEG_INFINITY };
    /// A certain loss for the side to move.
    pub const LOSS: ProductValue = ProductValue { ln_win: f64::NEG_INFINITY, ln_loss: 0.0 };

    /// The value with win probability `p ∈ [0, 1]`.
    pub fn from_probability(p: f64) -> Result<Self, ParamError> {
        let p = ParamError::probability("p", p)?;
        Ok(ProductValue { ln_win: p.ln(), ln_loss: (-p).ln_1p() })
    }

    /// The value with win probability `σ(x) = 1/(1 + e^(−x))` (`x` the
    /// log-odds), exact in log space for any finite `x`.
    pub fn from_log_odds(x: f64) -> Self {
        ProductValue { ln_win: ln_sigmoid(x), ln_loss: ln_sigmoid(-x) }
    }

    /// The probability that the side to move wins.
    pub fn win_probability(&self) -> f64 {
        self.ln_win.exp()
    }

    /// `ln P`.
    pub fn ln_win(&self) -> f64 {
        self.ln_win
    }

    /// `ln(1 − P)`.
    pub fn ln_loss(&self) -> f64 {
        self.ln_loss
    }

    /// `ln(P / (1 − P))`: ±∞ for a certain win or loss.
    pub fn log_odds(&self) -> f64 {
        self.ln_win - self.ln_loss
    }

    /// The same value from the other player's point of view (`1 − P`).
    pub fn flipped(self) -> Self {
        ProductValue { ln_win: self.ln_loss, ln_loss: self.ln_win }
    }
}

/// A running `ln Σ exp(xᵢ)`, shifted by the largest term so far.
#[derive(Debug, Clone, Copy)]
struct LogSum {
    max: f64,
    scaled: f64,
}

impl LogSum {
    const EMPTY: LogSum = LogSum { max: f64::NEG_INFINITY, scaled: 0.0 };

    #[inline]
    fn add(&mut self, x: f64) {
        if x == f64::NEG_INFINITY {
            return;
        }
        if x > self.max {
            self.scaled = self.scaled * (self.max - x).exp() + 1.0;
            self.max = x;
        } else {
            self.scaled += (x - self.max).exp();
        }
    }

    #[inline]
    fn ln(self) -> f64 {
        if self.scaled == 0.0 { f64::NEG_INFINITY } else { self.max + self.scaled.ln() }
    }
}

/// What product propagation accumulates over a node's children.
#[derive(Debug, Clone, Copy)]
pub struct ProductAcc {
    /// Player nodes: `Σ ln(probability that the child is a loss for us)`.
    ln_all_lose: f64,
    /// Chance nodes: `ln Σ pᵢ Pᵢ` and `ln Σ pᵢ (1 − Pᵢ)`.
    win: LogSum,
    loss: LogSum,
}

/// Product propagation in negamax form, no pruning.
///
/// - **Leaves**: a heuristic value `h` (side to move's view) becomes the
///   win probability `σ(h/T)`, with a temperature `T > 0` that sets the
///   heuristic's scale; a terminal win is 1, a loss 0, a draw ½, and a
///   payoff (random and textbook trees) `σ(payoff/T)`.
/// - **Player nodes**: `P = 1 − Π_c P_c`, where `P_c` is the child's win
///   probability from the child's mover's point of view (the node loses
///   only if every move leads to a position that the opponent wins,
///   the children taken as independent). A child with the same mover as its
///   parent (no alternation) enters as `1 − P_c`.
/// - **Chance nodes**: the expectation `Σ pᵢ Pᵢ` (first player's view).
///
/// **Log space.** The product is a sum of logarithms: `L = Σ_c ln P_c`,
/// `ln(1 − P) = L` and `ln P = ln(1 − e^L)` (computed with `expm1`/`ln_1p`
/// on the appropriate side). Values are [`ProductValue`]s holding both
/// logarithms, so neither `P ≈ 1` nor `P ≈ 0` loses precision in deep or
/// wide trees (a plain product of thousands of probabilities underflows).
///
/// No pruning ([`Pruning::None`]): every child changes the product. A
/// node's [`scalar`](crate::backup::BackupValue::scalar) and a move's
/// [`child_score`](Backup::child_score) are log-odds `ln(P/(1 − P))` for
/// the player to move (monotone in `P`, and still ordered where `P` rounds
/// to 1).
///
/// ```
/// use search_core::backup::Product;
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// // Two moves into min nodes whose leaves (log-odds 0 and ±ln 3 for max)
/// // give win probabilities ½, ¾, ¼.
/// let t: LiteralTree = "max(min(0, 1.0986122886681098), min(-1.0986122886681098, 0))".parse()?;
/// let r = Search::new(Product::new(1.0)?, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
/// // Left: min loses only if both of its moves lead to max wins (½·¾), so
/// // min wins with 5/8 and max with 3/8. Right: max wins with ¼·½ = 1/8.
/// // Root: 1 − (5/8)·(7/8) = 29/64, and max prefers the left move.
/// let p = 1.0 / (1.0 + (-r.value.unwrap()).exp());
/// assert!((p - 29.0 / 64.0).abs() < 1e-12);
/// assert_eq!(r.best, Some(0));
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Product {
    temperature: f64,
}

impl Product {
    /// Product propagation with temperature `T` (finite, `> 0`).
    ///
    /// ```
    /// use search_core::backup::Product;
    /// assert!(Product::new(0.5).is_ok());
    /// assert!(Product::new(0.0).is_err());
    /// assert!(Product::new(f64::INFINITY).is_err());
    /// ```
    pub fn new(temperature: f64) -> Result<Self, ParamError> {
        Ok(Product { temperature: ParamError::positive("temperature", temperature)? })
    }

    /// The temperature.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// The leaf value of a heuristic value `h` (side to move's view).
    pub fn leaf_value(&self, h: f64) -> ProductValue {
        ProductValue::from_log_odds(h / self.temperature)
    }
}

impl BackupValue for ProductValue {
    /// The log-odds of winning, `ln P(win) − ln P(loss)`, from the node's
    /// point of view.
    #[inline]
    fn scalar(&self) -> f64 {
        self.log_odds()
    }
}

impl Backup for Product {
    type Value = ProductValue;
    type Acc = ProductAcc;

    const PRUNING: Pruning = Pruning::None;

    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> ProductValue {
        match leaf {
            Leaf::Terminal { outcome: Outcome::Win(p), .. } if p == node.perspective => ProductValue::WIN,
            Leaf::Terminal { outcome: Outcome::Win(_), .. } => ProductValue::LOSS,
            Leaf::Terminal { outcome: Outcome::Draw, .. } => ProductValue::from_log_odds(0.0),
            Leaf::Terminal { value, .. } | Leaf::Horizon { value } => self.leaf_value(value),
        }
    }

    fn open(&self, _node: &NodeInfo) -> ProductAcc {
        ProductAcc { ln_all_lose: 0.0, win: LogSum::EMPTY, loss: LogSum::EMPTY }
    }

    #[inline]
    fn add(&self, node: &NodeInfo, acc: &mut ProductAcc, child: &ChildInfo, value: ProductValue) {
        let ours = if child.flip { value.flipped() } else { value };
        match node.turn {
            Turn::Chance => {
                let ln_p = child.probability.ln();
                acc.win.add(ln_p + ours.ln_win);
                acc.loss.add(ln_p + ours.ln_loss);
            }
            Turn::Player(_) => acc.ln_all_lose += ours.ln_loss,
        }
    }

    fn close(&self, node: &NodeInfo, acc: ProductAcc) -> ProductValue {
        match node.turn {
            Turn::Chance => ProductValue { ln_win: acc.win.ln(), ln_loss: acc.loss.ln() },
            Turn::Player(_) => ProductValue { ln_win: ln_one_minus_exp(acc.ln_all_lose), ln_loss: acc.ln_all_lose },
        }
    }

    fn name(&self) -> String {
        format!("product T={}", self.temperature)
    }
}
