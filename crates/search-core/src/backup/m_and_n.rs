//! The M & N procedure (Slagle and Dixon 1970): a node's value is its best
//! child's value plus a bonus that grows when its next-best children are
//! nearly as good.

use crate::backup::children::Children;
use crate::backup::{Backup, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::ParamError;
use crate::game::{Player, Turn};

/// The bonus of the M & N procedure: a function of the gaps
/// `v₁ − v₂, …, v₁ − v_M` between a node's best child and its next-best
/// ones (each `≥ 0`, from the node's mover's point of view, smallest gap
/// first; empty when only one child counts). It should shrink as the gaps
/// grow.
///
/// Any `Fn(&[f64]) -> f64` is a bonus:
///
/// ```
/// use search_core::backup::Bonus;
/// // One point for every alternative within 2 of the best.
/// let close_calls = |gaps: &[f64]| gaps.iter().filter(|&&g| g <= 2.0).count() as f64;
/// assert_eq!(close_calls.bonus(&[1.0, 5.0]), 1.0);
/// ```
pub trait Bonus {
    /// The bonus for these gaps.
    fn bonus(&self, gaps: &[f64]) -> f64;
}

impl<F: Fn(&[f64]) -> f64> Bonus for F {
    #[inline]
    fn bonus(&self, gaps: &[f64]) -> f64 {
        self(gaps)
    }
}

/// The default bonus `B(Δ₂, …, Δ_M) = β · Σᵢ max(0, 1 − Δᵢ/δ)`: each
/// alternative contributes up to `β` when it ties with the best child,
/// linearly less as its gap grows, and nothing once the gap reaches `δ`.
/// (Slagle and Dixon's published bonus function is not available; this
/// one has the shape they describe.)
///
/// ```
/// use search_core::backup::{Bonus, LinearBonus};
/// let b = LinearBonus::new(1.0, 4.0)?;
/// assert_eq!(b.bonus(&[0.0, 2.0, 9.0]), 1.0 + 0.5 + 0.0);
/// assert!(LinearBonus::new(1.0, 0.0).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearBonus {
    beta: f64,
    delta: f64,
}

impl LinearBonus {
    /// The bonus with height `beta` (finite, `≥ 0`) and width `delta`
    /// (finite, `> 0`).
    pub fn new(beta: f64, delta: f64) -> Result<Self, ParamError> {
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(ParamError::new("beta", format!("must be finite and >= 0, got {beta}")));
        }
        Ok(LinearBonus { beta, delta: ParamError::positive("delta", delta)? })
    }
}

impl Bonus for LinearBonus {
    #[inline]
    fn bonus(&self, gaps: &[f64]) -> f64 {
        self.beta * gaps.iter().map(|&g| (1.0 - g / self.delta).max(0.0)).sum::<f64>()
    }
}

/// The M & N backup in negamax form. At a node where the first player
/// (MAX) moves, the children's values `v₁ ≥ v₂ ≥ …` (from the mover's point
/// of view) give `v₁ + B(v₁ − v₂, …, v₁ − v_M)` over its `M` best children;
/// where the second player (MIN) moves, the same with `N` (in the first
/// player's view: the smallest child's value minus the bonus, the mirror
/// image). A node with fewer children uses them all; `M = N = 1` is plain
/// minimax. Leaves are their values; chance nodes take the expectation.
///
/// No pruning ([`Pruning::None`]): the bonus depends on the runners-up. A
/// move's [`child_score`](Backup::child_score) is the child's value from the
/// mover's point of view.
///
/// ```
/// use search_core::backup::{LinearBonus, MAndN};
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// // Max's best child is 5; the runner-up 4 is 1 below it: bonus
/// // 2·(1 − 1/4) = 1.5, so the root is worth 6.5.
/// let rule = MAndN::new(2, 1, LinearBonus::new(2.0, 4.0)?)?;
/// let t: LiteralTree = "max(5, 4, 0)".parse()?;
/// let r = Search::new(rule, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
/// assert_eq!(r.value, Some(6.5));
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MAndN<B = LinearBonus> {
    m: usize,
    n: usize,
    bonus: B,
}

impl<B: Bonus> MAndN<B> {
    /// M & N over the `m` best children of MAX nodes and the `n` best of
    /// MIN nodes (both `≥ 1`), with the given bonus.
    ///
    /// ```
    /// use search_core::backup::{LinearBonus, MAndN};
    /// let b = LinearBonus::new(1.0, 1.0).unwrap();
    /// assert!(MAndN::new(3, 2, b).is_ok());
    /// assert!(MAndN::new(0, 2, b).is_err());
    /// ```
    pub fn new(m: usize, n: usize, bonus: B) -> Result<Self, ParamError> {
        if m == 0 {
            return Err(ParamError::new("m", "must be >= 1"));
        }
        if n == 0 {
            return Err(ParamError::new("n", "must be >= 1"));
        }
        Ok(MAndN { m, n, bonus })
    }

    /// `M`, the children counted at MAX nodes.
    pub fn m(&self) -> usize {
        self.m
    }

    /// `N`, the children counted at MIN nodes.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The value of a node whose children's values (mover's view) are
    /// `sorted`, best first, counting `count` of them.
    fn value(&self, sorted: &[f64], count: usize) -> f64 {
        let Some(&best) = sorted.first() else { return f64::NEG_INFINITY };
        let mut gaps: smallvec::SmallVec<[f64; 8]> = smallvec::SmallVec::new();
        gaps.extend(sorted.iter().take(count).skip(1).map(|&v| best - v));
        best + self.bonus.bonus(&gaps)
    }
}

impl<B: Bonus> Backup for MAndN<B> {
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
            Turn::Player(Player::First) => self.value(acc.sort_descending(), self.m),
            Turn::Player(Player::Second) => self.value(acc.sort_descending(), self.n),
        }
    }

    fn name(&self) -> String {
        format!("m&n m={} n={}", self.m, self.n)
    }
}
