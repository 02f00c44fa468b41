//! IOM, iterative optimal minimax (Liu, Yan, Ma, Zhao, Zhang and Wei 2020),
//! and its alpha-beta version PIOM, as one rule.

use crate::backup::{Affine, Backup, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::eval::MAX_PLY;
use crate::game::{Outcome, Turn};

/// How [`Iom`] values a terminal node reached with `d` plies of search depth
/// still left (the game ended before the horizon).
///
/// The paper pictures a virtual chain of `d` nodes below the terminal, each
/// valued like it. Decisive terminals (wins and losses) always use the
/// [`Geometric`](IomLeafRule::Geometric) chain, whatever this setting: see
/// [`Iom`] for why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IomLeafRule {
    /// `e·(2d + 1)`: the paper's Algorithm 1, as printed (the default).
    #[default]
    Literal,
    /// `e·(2^(d+1) − 1)`: what the virtual chain gives under the backup
    /// `b = e − 2·b'` (the chain's values alternating in sign as the player
    /// to move alternates).
    Geometric,
}

impl IomLeafRule {
    /// The factor applied to a terminal value with `d` plies left.
    ///
    /// ```
    /// use search_core::backup::IomLeafRule;
    /// assert_eq!(IomLeafRule::Literal.factor(2), 5.0);
    /// assert_eq!(IomLeafRule::Geometric.factor(2), 7.0);
    /// assert_eq!(IomLeafRule::Geometric.factor(0), 1.0);
    /// ```
    pub fn factor(self, d: u32) -> f64 {
        match self {
            IomLeafRule::Literal => f64::from(2 * d + 1),
            IomLeafRule::Geometric => 2f64.powi(d.min(MAX_GEOMETRIC_DEPTH) as i32 + 1) - 1.0,
        }
    }
}

/// The deepest virtual chain: beyond it `2^(d+1)` times a win value would
/// overflow `f64`.
const MAX_GEOMETRIC_DEPTH: u32 = 960;

/// The IOM backup in negamax form, with the static value `e(s)` (from the
/// side to move's point of view) at every node:
///
/// `b(s) = max_c (e(s) − 2·b(c))`, initialised to −∞,
///
/// where `b(c)` is the child's value from its own mover's point of view; the
/// root plays the child with the smallest `b(c)` (the largest candidate
/// `e(s) − 2·b(c)`, which is the move's [`child_score`](Backup::child_score)).
/// Unrolled along the principal path `s₁ s₂ … s_k` this is
/// `e(s₁) − 2e(s₂) + 4e(s₃) − … + (−2)^(k−1) e(s_k)`: deeper static values
/// weigh more.
///
/// **Pruning.** The rule is [`Pruning::Windows`] with the affine form
/// `a = e(s), k = 2`, so the one search core gives both algorithms of the
/// paper: IOM with [`Options::full_width`](crate::search::Options::full_width)
/// and PIOM with alpha-beta on (for example
/// [`Options::plain_alpha_beta`](crate::search::Options::plain_alpha_beta)).
/// A child of a node with window `(α, β)` is then searched with
/// `α' = (e − β)/2, β' = (e − α)/2` (the signs the paper's Fig. 7 needs; its
/// printed formula has them flipped). The transposition table only reuses
/// values of exactly the same remaining depth: IOM values grow like
/// `2^depth`, so values of different depths must never be mixed (this is
/// also why aspiration windows, which the core reserves for
/// [`Pruning::Negamax`], never apply).
///
/// **Leaves.** At the horizon a node is worth its static value. A terminal
/// node with `d` plies of depth left is worth its terminal value times
/// [`IomLeafRule::factor`]`(d)`. Without a depth limit (a full-tree search)
/// `d` is taken as 0. Note that with iterative deepening the core stops
/// deepening once no node reaches the horizon, so a depth limit beyond the
/// end of the game gives the value of that shallower depth; switch
/// iterative deepening off to apply the factor at the limit itself.
///
/// **Wins and losses.** A decisive terminal (an [`Outcome::Win`]) is always
/// scaled by the geometric factor `2^(d+1) − 1`: its contribution at any
/// ancestor `p` plies above is then `±W·(2^(p+d+1) − 2^p)`, which is larger
/// than any heuristic path to the same horizon (at most
/// `H·(2^(p+d+1) − 1)` when every static value is within `±H`) as soon as
/// the evaluator's win value `W > 3H`; and quicker wins weigh more. (The
/// literal factor `2d + 1` would grow too slowly to dominate and would
/// prefer slower wins.) With the default terminal values
/// ([`WIN_SCORE`](crate::WIN_SCORE) minus the ply) heuristic values must
/// therefore stay within `±(WIN_SCORE − MAX_PLY)/3`.
///
/// **Chance nodes** are worth the expectation of their children's values
/// (from the first player's point of view), with no static term.
///
/// **Cost.** One static evaluation per interior node on top of minimax's
/// work ([`NEEDS_STATIC`](Backup::NEEDS_STATIC)).
///
/// ```
/// use search_core::backup::Iom;
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// // The paper's Fig. 6 (static values in brackets, from max's view).
/// let t: LiteralTree = "A=max[7](B=min[9](D=8, E=7), C=min[4](F=9, G=10))".parse()?;
/// let iom = Search::new(Iom::new(), LiteralEval, Options::full_width())?.run(&t, &Limits::depth(2))?;
/// assert_eq!(iom.value, Some(53.0));
/// assert_eq!(iom.best, t.move_to("B"));
/// // PIOM: the same rule with alpha-beta; same value, fewer nodes.
/// let piom = Search::new(Iom::new(), LiteralEval, Options::plain_alpha_beta())?.run(&t, &Limits::depth(2))?;
/// assert_eq!(piom.value, Some(53.0));
/// assert!(piom.stats.nodes < iom.stats.nodes);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Iom {
    leaf_rule: IomLeafRule,
}

impl Iom {
    /// IOM with the paper's literal leaf rule.
    pub fn new() -> Self {
        Iom::default()
    }

    /// IOM with the given rule for terminals reached before the horizon.
    ///
    /// ```
    /// use search_core::backup::{Iom, IomLeafRule};
    /// let iom = Iom::with_leaf_rule(IomLeafRule::Geometric);
    /// assert_eq!(iom.leaf_rule(), IomLeafRule::Geometric);
    /// ```
    pub fn with_leaf_rule(leaf_rule: IomLeafRule) -> Self {
        Iom { leaf_rule }
    }

    /// The rule for terminals reached before the horizon.
    pub fn leaf_rule(&self) -> IomLeafRule {
        self.leaf_rule
    }
}

/// Plies of depth left at a leaf: the remaining depth, 0 at or past the
/// horizon and 0 in a search without a depth limit.
fn plies_left(depth: i32) -> u32 {
    if depth > MAX_PLY as i32 { 0 } else { depth.max(0) as u32 }
}

impl Backup for Iom {
    type Value = f64;
    type Acc = f64;

    const PRUNING: Pruning = Pruning::Windows;

    const NEEDS_STATIC: bool = true;

    const LEAF_DEPENDS_ON_DEPTH: bool = true;

    #[inline]
    fn leaf(&self, node: &NodeInfo, leaf: Leaf) -> f64 {
        match leaf {
            Leaf::Horizon { value } => value,
            Leaf::Terminal { outcome, value } => {
                let d = plies_left(node.depth);
                let rule = match outcome {
                    Outcome::Win(_) => IomLeafRule::Geometric,
                    Outcome::Draw | Outcome::Payoff(_) => self.leaf_rule,
                };
                value * rule.factor(d)
            }
        }
    }

    #[inline]
    fn open(&self, node: &NodeInfo) -> f64 {
        match node.turn {
            Turn::Chance => 0.0,
            Turn::Player(_) => f64::NEG_INFINITY,
        }
    }

    #[inline]
    fn add(&self, node: &NodeInfo, acc: &mut f64, child: &ChildInfo, value: f64) {
        match node.turn {
            Turn::Chance => *acc += child.probability * child.to_parent(value),
            Turn::Player(_) => *acc = acc.max(self.child_score(node, child, &value)),
        }
    }

    #[inline]
    fn close(&self, _node: &NodeInfo, acc: f64) -> f64 {
        acc
    }

    #[inline]
    fn child_score(&self, node: &NodeInfo, child: &ChildInfo, value: &f64) -> f64 {
        let v = child.to_parent(*value);
        match node.turn {
            Turn::Chance => v,
            Turn::Player(_) => self.affine(node).apply(v),
        }
    }

    #[inline]
    fn affine(&self, node: &NodeInfo) -> Affine {
        debug_assert!(node.static_value.is_some(), "IOM needs the static value");
        Affine { a: node.static_value.unwrap_or(0.0), k: 2.0 }
    }

    fn name(&self) -> String {
        match self.leaf_rule {
            IomLeafRule::Literal => "iom".into(),
            IomLeafRule::Geometric => "iom geometric".into(),
        }
    }
}
