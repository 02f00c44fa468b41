//! Backup rules: how a node's value is computed from its children's.
//!
//! A rule implements [`Backup`]. The search core ([`crate::search`]) walks the
//! tree, asks the evaluator for leaf values, and hands each child's value to
//! the rule, which accumulates them into the node's value. The rule declares
//! through [`Backup::PRUNING`] whether, and how far, alpha-beta style windows
//! are sound for it; the core then does all the window arithmetic itself, from
//! the rule's [`Affine`] form, so no rule repeats it.
//!
//! Adding a rule is one file: a type implementing [`Backup`]. It needs no
//! change to the driver.

mod children;
mod emm;
mod iom;
mod logistic;
mod m_and_n;
mod minimax;
pub mod modelled;
pub mod predicting;
mod predictive;
mod product;
pub mod rminimax;

pub use children::Children;
pub use emm::{ConstantError, Emm, EmmAcc, EmmValue, ErrorModel, SigmoidError};
pub use iom::{Iom, IomLeafRule};
pub use m_and_n::{Bonus, LinearBonus, MAndN};
pub use minimax::Minimax;
pub use modelled::{Modelled, OpponentModel};
pub use predictive::{Predictive, PsWeights};
pub use product::{Product, ProductAcc, ProductValue};
pub use rminimax::Rminimax;

use std::fmt;

use crate::game::{Outcome, Player, Turn};
use crate::window::Window;

/// How far alpha-beta pruning is sound for a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pruning {
    /// No pruning: every child of every node is searched (soft, sorted and
    /// non-monotone rules).
    None,
    /// Windows are sound: at player nodes the value is the maximum over
    /// children of `a + k·v` (see [`Affine`]) and at chance nodes the
    /// expectation. The core prunes with transformed windows (PIOM), uses
    /// null windows (PVS), killers, history and a transposition table whose
    /// entries must match the remaining depth exactly.
    Windows,
    /// Classical negamax values (`a = 0`, `k = 1`): everything of
    /// [`Pruning::Windows`] plus aspiration windows, null-move pruning,
    /// ProbCut, quiescence search and Star1/Star2 at chance nodes.
    Negamax,
}

/// The form `candidate = a + k·v` of a player node's backup, where `v` is a
/// child's value converted to the node's point of view (negated when the
/// child's player differs) and the node's value is the maximum candidate.
///
/// Minimax is `a = 0, k = 1`; IOM is `a = e(s), k = 2` in negamax form
/// (`b(s) = max_c (e(s) − 2·b(c))`). Any `k > 0` keeps the backup monotone,
/// which is what makes windows sound: a child is searched with the window
/// `((α − a)/k, (β − a)/k)` (before the point-of-view conversion).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine {
    /// The offset.
    pub a: f64,
    /// The slope, > 0.
    pub k: f64,
}

impl Affine {
    /// Plain negamax: the candidate is the child's value.
    pub const NEGAMAX: Affine = Affine { a: 0.0, k: 1.0 };

    /// The candidate value of a child whose value (in the node's point of
    /// view) is `v`.
    #[inline]
    pub fn apply(self, v: f64) -> f64 {
        self.a + self.k * v
    }

    /// The window on the child's value (in the node's point of view) that
    /// corresponds to `window` on the node's candidates.
    ///
    /// Rounded outwards: a child value at or below the result's `alpha` (at
    /// or above its `beta`) gives a candidate, as [`apply`](Affine::apply)
    /// computes it, at or below `window.alpha` (at or above `window.beta`).
    /// Without this, `(α − a)/k` rounded inwards can turn a child's fail-high
    /// into a false cutoff at the parent.
    ///
    /// ```
    /// use search_core::backup::Affine;
    /// use search_core::search::Window;
    /// let f = Affine { a: 1.0, k: 2.0 };
    /// let w = Window::new((-7.0f64).next_down(), -7.0);
    /// let c = f.invert(w);
    /// assert!(f.apply(c.alpha) <= w.alpha && f.apply(c.beta) >= w.beta);
    /// ```
    #[inline]
    pub fn invert(self, window: Window) -> Window {
        if self == Affine::NEGAMAX {
            return window;
        }
        let mut alpha = (window.alpha - self.a) / self.k;
        while self.apply(alpha) > window.alpha {
            alpha = alpha.next_down();
        }
        let mut beta = (window.beta - self.a) / self.k;
        while self.apply(beta) < window.beta {
            beta = beta.next_up();
        }
        Window::new(alpha, beta)
    }
}

/// What the core knows about the node being backed up.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct NodeInfo {
    /// Who acts here.
    pub turn: Turn,
    /// The point of view of this node's value: the player to move, or
    /// [`Player::First`] at a chance node.
    pub perspective: Player,
    /// The player to move at the search root (the "AI player" of
    /// asymmetric rules such as Rminimax and predictive play).
    pub root_player: Player,
    /// Plies from the search root.
    pub ply: u32,
    /// Remaining depth (the full-tree search uses a huge value).
    pub depth: i32,
    /// The static value from [`perspective`](Self::perspective)'s point of
    /// view, if the rule [needs it](Backup::NEEDS_STATIC).
    pub static_value: Option<f64>,
    /// The number of children (moves or chance outcomes) of this node.
    pub children: usize,
}

impl NodeInfo {
    /// A node for tests and for rules used outside the search core: `turn`,
    /// seen from its mover (the first player at a chance node), at the root.
    ///
    /// ```
    /// use search_core::backup::NodeInfo;
    /// use search_core::{Player, Turn};
    /// let n = NodeInfo::new(Turn::Player(Player::Second), Player::First);
    /// assert_eq!(n.perspective, Player::Second);
    /// ```
    pub fn new(turn: Turn, root_player: Player) -> NodeInfo {
        NodeInfo {
            turn,
            perspective: turn.player().unwrap_or(Player::First),
            root_player,
            ply: 0,
            depth: 0,
            static_value: None,
            children: 0,
        }
    }
}

/// What the core knows about a child being added to its parent.
#[derive(Debug, Clone, Copy)]
pub struct ChildInfo {
    /// The child's index in the order it was searched (0 first).
    pub index: usize,
    /// The child's probability at a chance node (1 at player nodes).
    pub probability: f64,
    /// True if the child's value is from the other player's point of view.
    pub flip: bool,
}

impl ChildInfo {
    /// `v` (the child's value from the child's point of view) converted to
    /// the parent's point of view.
    #[inline]
    pub fn to_parent(&self, v: f64) -> f64 {
        if self.flip { -v } else { v }
    }
}

/// A leaf of the search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Leaf {
    /// The game is over. `value` is the evaluator's
    /// [`terminal_value`](crate::Evaluator::terminal_value) for the node's
    /// perspective.
    Terminal {
        /// How the game ended.
        outcome: Outcome,
        /// Its value from the node's point of view.
        value: f64,
    },
    /// The depth limit was reached; `value` is the static value from the
    /// node's point of view.
    Horizon {
        /// The static value.
        value: f64,
    },
}

impl Leaf {
    /// The leaf's value from the node's point of view (terminal or static).
    ///
    /// ```
    /// use search_core::backup::Leaf;
    /// assert_eq!(Leaf::Horizon { value: 2.5 }.value(), 2.5);
    /// ```
    #[inline]
    pub fn value(self) -> f64 {
        match self {
            Leaf::Terminal { value, .. } | Leaf::Horizon { value } => value,
        }
    }
}

/// A rule's value of a node: a number (`f64`) for most rules; EMM and
/// product propagation carry more. The core needs it as a number (for
/// windows, root scores and reports), and rules that prune must convert a
/// number back.
pub trait BackupValue: Copy + fmt::Debug {
    /// The value as a number from the node's point of view (larger is
    /// better for the node's player).
    fn scalar(&self) -> f64;

    /// The inverse of [`scalar`](BackupValue::scalar), for values the core
    /// makes itself (transposition-table hits, bounds at pruned nodes).
    /// Must be exact for the value types of rules that prune; `None` (the
    /// default) for the others.
    fn from_scalar(_x: f64) -> Option<Self> {
        None
    }
}

impl BackupValue for f64 {
    #[inline]
    fn scalar(&self) -> f64 {
        *self
    }

    #[inline]
    fn from_scalar(x: f64) -> Option<f64> {
        Some(x)
    }
}

/// A backup rule. See the [module documentation](self).
///
/// Four methods are required: how a leaf is valued, and how an interior
/// node's value is opened, accumulated child by child, and closed. The
/// rest has defaults: no pruning, no static values, the child's number as
/// its score.
///
/// ```
/// use search_core::backup::{Backup, ChildInfo, Leaf, NodeInfo};
///
/// /// The average of the children's values (from the parent's view): a toy
/// /// rule, not prunable.
/// struct Average;
/// impl Backup for Average {
///     type Value = f64;
///     type Acc = (f64, usize);
///     fn leaf(&self, _: &NodeInfo, leaf: Leaf) -> f64 {
///         leaf.value()
///     }
///     fn open(&self, _: &NodeInfo) -> (f64, usize) { (0.0, 0) }
///     fn add(&self, _: &NodeInfo, acc: &mut (f64, usize), c: &ChildInfo, v: f64) {
///         acc.0 += c.to_parent(v);
///         acc.1 += 1;
///     }
///     fn close(&self, _: &NodeInfo, acc: (f64, usize)) -> f64 { acc.0 / acc.1 as f64 }
/// }
///
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
/// let t: LiteralTree = "max(min(1, 3), min(0, 10))".parse()?;
/// let r = Search::new(Average, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
/// assert_eq!(r.value, Some(3.5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Backup {
    /// A node's backed-up value.
    type Value: BackupValue;
    /// What the rule accumulates while a node's children come in.
    type Acc;

    /// How far alpha-beta pruning is sound for this rule. A search asked
    /// to prune with a rule whose capability is [`Pruning::None`] (the
    /// default) is refused when it is built.
    const PRUNING: Pruning = Pruning::None;

    /// Whether [`NodeInfo::static_value`] must be filled at interior nodes
    /// (IOM, EMM). Rules that do not need it do not pay for it.
    const NEEDS_STATIC: bool = false;

    /// Whether leaf values depend on the remaining depth (IOM's terminal
    /// rule `e·(2d+1)`). Iterative deepening then runs to the depth limit
    /// even when the tree ends before it.
    const LEAF_DEPENDS_ON_DEPTH: bool = false;

    /// Whether the rule is minimax in negamax form, exactly: a leaf is worth
    /// [`Leaf::value`], a player node the largest of its children's values
    /// from its mover's point of view (`Pruning::Negamax`), with the default
    /// [`child_score`](Backup::child_score) and [`affine`](Backup::affine).
    /// The search then backs up player nodes below the root itself, without
    /// the rule's calls: the same values and nodes, in less time. Only
    /// [`Minimax`] sets it; a rule that sets it must be exactly that.
    const IS_MINIMAX: bool = false;

    /// The value of a leaf.
    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> Self::Value;

    /// Starts accumulating an interior node's value.
    fn open(&self, node: &NodeInfo) -> Self::Acc;

    /// Adds one child's value (from the child's point of view).
    fn add(&self, node: &NodeInfo, acc: &mut Self::Acc, child: &ChildInfo, value: Self::Value);

    /// Finishes the node's value.
    fn close(&self, node: &NodeInfo, acc: Self::Acc) -> Self::Value;

    /// How good the child is for the player to move at `node`, as a number
    /// (larger is better): the candidate value the child contributes. Root
    /// move values, principal variations and policies are built on it. The
    /// default is the child's number from the node's point of view.
    #[inline]
    fn child_score(&self, _node: &NodeInfo, child: &ChildInfo, value: &Self::Value) -> f64 {
        child.to_parent(value.scalar())
    }

    /// The [`Affine`] form of a player node's backup, used for windows when
    /// [`PRUNING`](Backup::PRUNING) is not [`Pruning::None`].
    #[inline]
    fn affine(&self, _node: &NodeInfo) -> Affine {
        Affine::NEGAMAX
    }

    /// A short name for reports.
    fn name(&self) -> String {
        std::any::type_name::<Self>().rsplit("::").next().unwrap_or("rule").to_string()
    }
}
