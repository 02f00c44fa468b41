//! Opponent-aware search: the root player maximises, the opponent is
//! expected to play by a fitted move distribution (Boltzmann or ε-greedy),
//! so its nodes are valued by the expectation under that distribution.
//!
//! Two ways to run it, giving the same values:
//!
//! - [`Modelled`] is a [`Backup`] rule for the search core. It cannot prune
//!   ([`Pruning::None`]): the core's windows assume a monotone backup, and
//!   a Boltzmann expectation is not monotone in its children (below).
//! - [`ModelledSearch`] is a small depth-first search of its own for this
//!   rule alone, with the pruning that *is* sound for it (fail-low cutoffs
//!   at the opponent's nodes and Star1 cutoffs at chance nodes, given value
//!   bounds), and [`ModelledAgent`] plays its best move.
//!
//! # Values
//!
//! Leaf values are turned into *utilities* by [`Modelled::utility`]: the
//! value itself, or with a cap `C` a strictly increasing squash that keeps
//! `[−C, C]` unchanged and maps everything beyond into `C·(1, 1.01]` (and
//! its mirror), so that a forced win counts about as much as a decisive
//! advantage (as for the dial's capped Boltzmann players) but a quicker win
//! still ranks above a slower one. The opponent's move probabilities use
//! the utilities clamped to `[−C, C]`, exactly the values a capped
//! Boltzmann player (`Softmax::with_cap`) sees.
//!
//! # What can be pruned
//!
//! Write `x` for the children's utilities from the root player's view and
//! `w(x) = exp(−θ·clamp(x))` for the opponent's weights (it prefers small
//! `x`). The node's value `V = Σ w(xᵢ)xᵢ / Σ w(xᵢ)` lies between the
//! minimum of the `x` (a perfect opponent) and their plain average (a
//! random one), but it is **not monotone**: `∂V/∂xⱼ = pⱼ(1 − θ(xⱼ − V))`
//! is negative once `xⱼ > V + 1/θ` (a child that gets better for us also
//! gets less likely). Hence:
//!
//! - **No fail-high cutoffs** below the root player's nodes: a lower bound
//!   on a child never bounds `V` from below, so every child of an
//!   opponent's node must be searched with an open upper end, and the
//!   windows the search passes down are `(α, +∞)`.
//! - **Fail-low cutoffs are sound.** With the unsearched children somewhere
//!   in `[L, U]` (the bounds), `V ≤ t` holds iff
//!   `φ(t) = Σ_known w(xᵢ)(xᵢ − t) + r·max_{y∈[L,U]} w(y)(y − t) ≤ 0`
//!   (`r` children unsearched): the supremum separates over the unknown
//!   children, and each term `w(y)(y − t)` is maximised at
//!   `y = t + 1/θ` (clamped into the interval) or at `U`. So after each
//!   child the node is cut as soon as even the best-placed remaining
//!   children cannot lift it above α; a child is searched with the α that
//!   would make that true (the largest `y` with `w(y)(y − t)` small
//!   enough, by bisection), which gives deep cutoffs.
//! - θ = +∞ is minimax with shared ties: a child below α cuts as in
//!   alpha-beta (unless it is at the top of the cap, where the tied best
//!   moves' mean is not bounded by the cap). The ε-greedy model is not pruned (its weights jump when
//!   the ranking changes, and with a small ε the best moves weigh less than
//!   the others).
//! - Chance nodes: Star1 (the expectation with the unsearched outcomes at
//!   the upper bound), fail-low only for the same reason.
//!
//! A cut is taken only when `V` is below α by a relative margin of 1e−9,
//! far above rounding, so pruned and full-width searches return the same
//! root value and the same exact root moves (tested on random trees with
//! ties). Without bounds (no cap and an evaluator without
//! [`bounds`](Evaluator::bounds)) only the θ = +∞ cutoffs remain.
//!
//! ```
//! use search_core::backup::{Modelled, OpponentModel};
//! use search_core::backup::modelled::ModelledSearch;
//! use search_core::search::{Limits, Options, Search};
//! use search_core::tree::{LiteralEval, LiteralTree};
//!
//! // Against a perfect opponent both moves are worth 0; against a fallible
//! // one the right branch, where a mistake pays, is better.
//! let t: LiteralTree = "max(min(0, 0), min(0, 10))".parse()?;
//! let rule = Modelled::new(OpponentModel::boltzmann(0.5)?);
//! let core = Search::new(rule.clone(), LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?;
//! assert_eq!(core.best, Some(1));
//! let mine = ModelledSearch::new(rule, LiteralEval).run(&t, 2)?;
//! assert_eq!(mine.value, core.value.unwrap());
//! assert_eq!(mine.best_moves, vec![1]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::mem::take;

use rand::RngCore;
use smallvec::SmallVec;

use crate::agent::{Agent, Choice, Thought};
use crate::backup::rminimax::check_theta;
use crate::backup::{Backup, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, MAX_PLY, WIN_SCORE};
use crate::game::{Game, Outcome, Player, Status, Turn};

/// How the opponent is expected to choose among its moves, given their
/// values from its own point of view.
///
/// ```
/// use search_core::backup::OpponentModel;
/// let m = OpponentModel::boltzmann(1.0)?;
/// // p ∝ exp(θ·v): values 0 and 1.
/// let mut p = Vec::new();
/// m.probabilities(&[0.0, 1.0], None, &mut p);
/// assert!((p[1] - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-15);
/// assert!(OpponentModel::boltzmann(0.0).is_err());
/// assert!(OpponentModel::boltzmann(f64::NAN).is_err());
/// assert!(OpponentModel::epsilon_greedy(1.5).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OpponentModel {
    /// Boltzmann: `p ∝ exp(θ·v)`, θ an inverse temperature (as
    /// [`Softmax`](crate::policy::Softmax)); θ = +∞ plays a best move (ties
    /// shared).
    Boltzmann {
        /// The inverse temperature, > 0 (or +∞).
        theta: f64,
    },
    /// ε-greedy in the Rminimax paper's convention
    /// ([`EpsilonGreedy`](crate::policy::EpsilonGreedy)): the best moves
    /// share ε, the others `1 − ε`.
    EpsilonGreedy {
        /// The probability of the best moves, in `[0, 1]`.
        epsilon: f64,
    },
}

impl OpponentModel {
    /// A Boltzmann opponent. Errors unless θ is a normal number > 0 or +∞.
    ///
    /// ```
    /// use search_core::backup::OpponentModel;
    /// assert!(OpponentModel::boltzmann(f64::INFINITY).is_ok());
    /// assert!(OpponentModel::boltzmann(-1.0).is_err());
    /// ```
    pub fn boltzmann(theta: f64) -> Result<Self, ParamError> {
        Ok(OpponentModel::Boltzmann { theta: check_theta(theta)? })
    }

    /// An ε-greedy opponent. Errors unless ε ∈ `[0, 1]`.
    ///
    /// ```
    /// use search_core::backup::OpponentModel;
    /// assert!(OpponentModel::epsilon_greedy(0.9).is_ok());
    /// assert!(OpponentModel::epsilon_greedy(f64::NAN).is_err());
    /// ```
    pub fn epsilon_greedy(epsilon: f64) -> Result<Self, ParamError> {
        Ok(OpponentModel::EpsilonGreedy { epsilon: ParamError::probability("epsilon", epsilon)? })
    }

    /// The move probabilities for values `v` (the mover's view), each
    /// clamped to `±cap` first if a cap is given; written into `out`
    /// (cleared first). Values must not be NaN.
    ///
    /// ```
    /// use search_core::backup::OpponentModel;
    /// let mut p = Vec::new();
    /// OpponentModel::epsilon_greedy(0.75)?.probabilities(&[1.0, 3.0, 3.0, 0.0], None, &mut p);
    /// assert_eq!(p, [0.125, 0.375, 0.375, 0.125]);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn probabilities(&self, v: &[f64], cap: Option<f64>, out: &mut Vec<f64>) {
        out.clear();
        let clamp = |x: f64| cap.map_or(x, |c| x.clamp(-c, c));
        let cmax = v.iter().map(|&x| clamp(x)).fold(f64::NEG_INFINITY, f64::max);
        match *self {
            OpponentModel::Boltzmann { theta } => {
                out.extend(v.iter().map(|&x| weight(theta, clamp(x), cmax)));
            }
            OpponentModel::EpsilonGreedy { epsilon } => {
                let n = v.iter().filter(|&&x| clamp(x) == cmax).count() as f64;
                let m = v.len() as f64 - n;
                let (best, other) = if m == 0.0 { (1.0 / n, 0.0) } else { (epsilon / n, (1.0 - epsilon) / m) };
                out.extend(v.iter().map(|&x| if clamp(x) == cmax { best } else { other }));
                return;
            }
        }
        let total: f64 = out.iter().sum();
        out.iter_mut().for_each(|p| *p /= total);
    }

    /// The expected value of `v` (the mover's view) when the mover plays by
    /// this model over the values clamped to `±cap` (the expectation itself
    /// is over the unclamped `v`). Computed relative to the first best
    /// value, so that equal values give exactly that value. `v` must not be
    /// empty or hold NaN.
    ///
    /// ```
    /// use search_core::backup::OpponentModel;
    /// let greedy = OpponentModel::boltzmann(f64::INFINITY)?;
    /// assert_eq!(greedy.expectation(&[1.0, 3.0, 3.0], None), 3.0);
    /// let e = OpponentModel::epsilon_greedy(0.5)?;
    /// assert_eq!(e.expectation(&[1.0, 3.0], None), 2.0);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn expectation(&self, v: &[f64], cap: Option<f64>) -> f64 {
        let clamp = |x: f64| cap.map_or(x, |c| x.clamp(-c, c));
        let mut cmax = f64::NEG_INFINITY;
        let mut r = 0.0;
        for &x in v {
            let c = clamp(x);
            if c > cmax {
                cmax = c;
                r = x;
            }
        }
        match *self {
            OpponentModel::Boltzmann { theta } => {
                let (mut num, mut den) = (0.0, 0.0);
                for &x in v {
                    let w = weight(theta, clamp(x), cmax);
                    den += w;
                    if w > 0.0 {
                        num += w * (x - r);
                    }
                }
                r + num / den
            }
            OpponentModel::EpsilonGreedy { epsilon } => {
                let (mut nb, mut sb, mut no, mut so) = (0.0, 0.0, 0.0, 0.0);
                for &x in v {
                    if clamp(x) == cmax {
                        nb += 1.0;
                        sb += x - r;
                    } else {
                        no += 1.0;
                        so += x - r;
                    }
                }
                if no == 0.0 { r + sb / nb } else { r + epsilon * (sb / nb) + (1.0 - epsilon) * (so / no) }
            }
        }
    }

    fn name(&self) -> String {
        match self {
            OpponentModel::Boltzmann { theta } => format!("boltzmann θ={theta}"),
            OpponentModel::EpsilonGreedy { epsilon } => format!("epsilon ε={epsilon}"),
        }
    }
}

/// `exp(θ(c − cmax))`, with θ = +∞ giving 1 for the best and 0 otherwise.
#[inline]
fn weight(theta: f64, c: f64, cmax: f64) -> f64 {
    if c == cmax {
        1.0
    } else if theta == f64::INFINITY {
        0.0
    } else {
        (theta * (c - cmax)).exp()
    }
}

/// How far a capped utility reaches beyond the cap, as a fraction of it:
/// utilities stay within `±(1 + UTILITY_TAIL)·C`.
const UTILITY_TAIL: f64 = 0.01;

/// Opponent-aware backup: the root player's nodes take the maximum, the
/// opponent's nodes the expectation under an [`OpponentModel`], chance
/// nodes the expectation under their probabilities. Values are
/// [utilities](Modelled::utility) from the node's point of view. See the
/// [module documentation](self) for what can be pruned and where.
///
/// ```
/// use search_core::backup::{Modelled, OpponentModel};
/// use search_core::search::{Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "max(min(2, 4), min(1, 9))".parse()?;
/// let run = |theta: f64| -> Result<f64, Box<dyn std::error::Error>> {
///     let rule = Modelled::new(OpponentModel::boltzmann(theta)?);
///     Ok(Search::new(rule, LiteralEval, Options::full_width())?.run(&t, &Limits::full_tree())?.value.unwrap())
/// };
/// assert_eq!(run(f64::INFINITY)?, 2.0); // minimax
/// assert!((run(1e-12)? - 5.0).abs() < 1e-9); // the uniform average
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Modelled {
    model: OpponentModel,
    cap: Option<f64>,
}

impl Modelled {
    /// The rule for an opponent playing by `model`, values uncapped.
    pub fn new(model: OpponentModel) -> Self {
        Modelled { model, cap: None }
    }

    /// Caps values at `±cap` (see [`utility`](Self::utility)). Errors
    /// unless `cap` is finite and positive.
    ///
    /// ```
    /// use search_core::backup::{Modelled, OpponentModel};
    /// let r = Modelled::new(OpponentModel::boltzmann(0.1)?).with_cap(100.0)?;
    /// assert_eq!(r.cap(), Some(100.0));
    /// assert!(Modelled::new(OpponentModel::boltzmann(0.1)?).with_cap(0.0).is_err());
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_cap(mut self, cap: f64) -> Result<Self, ParamError> {
        self.cap = Some(ParamError::positive("cap", cap)?);
        Ok(self)
    }

    /// The opponent's model.
    pub fn model(&self) -> OpponentModel {
        self.model
    }

    /// Replaces the opponent's model (an online agent's new estimate).
    pub fn set_model(&mut self, model: OpponentModel) {
        self.model = model;
    }

    /// The cap, if any.
    pub fn cap(&self) -> Option<f64> {
        self.cap
    }

    /// The utility of a value `v` (any point of view; odd and strictly
    /// increasing): `v` itself without a cap; with a cap `C`, `v` on
    /// `[−C, C]` and `±C·(1 + 0.01·tanh((|v| − C)/WIN_SCORE))` beyond, so a
    /// win (about `WIN_SCORE`) is worth about `1.0076·C`, and the utility
    /// never exceeds `1.01·C` in size.
    ///
    /// ```
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::WIN_SCORE;
    /// let r = Modelled::new(OpponentModel::boltzmann(0.1)?).with_cap(100.0)?;
    /// assert_eq!(r.utility(-40.0), -40.0);
    /// let (win_now, win_later) = (r.utility(WIN_SCORE - 1.0), r.utility(WIN_SCORE - 3.0));
    /// assert!(win_now > win_later && win_later > 100.0 && win_now < 101.0);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    #[inline]
    pub fn utility(&self, v: f64) -> f64 {
        match self.cap {
            Some(c) if v.abs() > c => v.signum() * c * (1.0 + UTILITY_TAIL * ((v.abs() - c) / WIN_SCORE).tanh()),
            _ => v,
        }
    }

    /// The inverse of [`utility`](Self::utility): the value whose utility
    /// is `u` (`±∞` beyond the utilities' range `±1.01·C`).
    pub(crate) fn value_of_utility(&self, u: f64) -> f64 {
        match self.cap {
            Some(c) if u.abs() > c => {
                let x = (u.abs() / c - 1.0) / UTILITY_TAIL;
                if x >= 1.0 { u.signum() * f64::INFINITY } else { u.signum() * (c + WIN_SCORE * x.atanh()) }
            }
            _ => u,
        }
    }

    /// The bound on utilities the pruning may use, from the evaluator's
    /// bounds and the cap: `|utility| ≤ B`.
    pub(crate) fn utility_bound(&self, eval_bounds: Option<(f64, f64)>) -> Option<f64> {
        match (eval_bounds, self.cap) {
            (Some((lo, hi)), _) => Some(self.utility(lo.abs().max(hi.abs()))),
            (None, Some(c)) => Some(c * (1.0 + UTILITY_TAIL)),
            (None, None) => None,
        }
    }

    /// The value of an opponent's node whose children are worth `v` (the
    /// opponent's view, utilities).
    #[inline]
    fn opponent_value(&self, v: &[f64]) -> f64 {
        self.model.expectation(v, self.cap)
    }
}

/// What [`Modelled`] accumulates: the children's values (player nodes) or
/// their expectation (chance nodes). Opaque.
#[derive(Debug, Clone, Default)]
pub struct ModelledAcc {
    values: SmallVec<[f64; 8]>,
    mean: f64,
}

impl Backup for Modelled {
    type Value = f64;
    type Acc = ModelledAcc;

    const PRUNING: Pruning = Pruning::None;

    #[inline]
    fn leaf(&self, _node: &NodeInfo, leaf: Leaf) -> f64 {
        self.utility(leaf.value())
    }

    fn open(&self, _node: &NodeInfo) -> ModelledAcc {
        ModelledAcc::default()
    }

    #[inline]
    fn add(&self, node: &NodeInfo, acc: &mut ModelledAcc, child: &ChildInfo, value: f64) {
        let x = child.to_parent(value);
        if node.turn == Turn::Chance {
            acc.mean += child.probability * x;
        } else {
            acc.values.push(x);
        }
    }

    fn close(&self, node: &NodeInfo, acc: ModelledAcc) -> f64 {
        match node.turn {
            Turn::Chance => acc.mean,
            Turn::Player(p) if p == node.root_player => acc.values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Turn::Player(_) if acc.values.is_empty() => f64::NEG_INFINITY,
            Turn::Player(_) => self.opponent_value(&acc.values),
        }
    }

    fn name(&self) -> String {
        match self.cap {
            Some(c) => format!("modelled {} cap={c}", self.model.name()),
            None => format!("modelled {}", self.model.name()),
        }
    }
}

/// One root move of a [`ModelledSearch`]: its value, exact or an upper
/// bound (a move cut off is worse than the best).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelledMove<M> {
    /// The move.
    pub mv: M,
    /// Its value (utility, the root player's view); an upper bound unless
    /// `exact`.
    pub value: f64,
    /// Whether `value` is exact.
    pub exact: bool,
}

/// The result of a [`ModelledSearch`].
#[derive(Debug, Clone, PartialEq)]
pub struct ModelledResult<M> {
    /// The root's value (utility, the root player's view).
    pub value: f64,
    /// The first best move in search order.
    pub best: Option<M>,
    /// Every move whose exact value equals the best.
    pub best_moves: Vec<M>,
    /// Every root move in search order.
    pub root_moves: Vec<ModelledMove<M>>,
    /// Nodes visited (the root and leaves included).
    pub nodes: u64,
}

/// Per-ply scratch buffers, reused: no allocation per node once grown.
#[derive(Debug)]
struct PlyBuf<M> {
    moves: Vec<M>,
    ordered: Vec<M>,
    keys: Vec<(i32, u32)>,
    values: Vec<f64>,
    probs: Vec<f64>,
}

impl<M> Default for PlyBuf<M> {
    fn default() -> Self {
        PlyBuf { moves: Vec::new(), ordered: Vec::new(), keys: Vec::new(), values: Vec::new(), probs: Vec::new() }
    }
}

/// The relative margin by which a node must fall below α to be cut.
const MARGIN: f64 = 1e-9;

/// Bisection steps for a child's α.
const ALPHA_STEPS: u32 = 40;

/// A depth-limited search for the [`Modelled`] rule with the sound pruning
/// described in the [module documentation](self); `with_pruning(false)`
/// searches full width (the reference). Moves are searched in the game's
/// order, refined by [`Game::order_hint`] unless ordering is switched off.
///
/// ```
/// use search_core::backup::{Modelled, OpponentModel};
/// use search_core::backup::modelled::ModelledSearch;
/// use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
///
/// let t = RandomTree::new(3, 4, 6, LeafModel::Uniform { min: -5, max: 5 })?;
/// let rule = Modelled::new(OpponentModel::boltzmann(2.0)?);
/// let pruned = ModelledSearch::new(rule.clone(), RandomTreeEval::for_tree(&t)).run(&t, 6)?;
/// let full = ModelledSearch::new(rule, RandomTreeEval::for_tree(&t)).with_pruning(false).run(&t, 6)?;
/// assert_eq!(pruned.value, full.value);
/// assert!(pruned.nodes < full.nodes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ModelledSearch<G: Game, E> {
    rule: Modelled,
    eval: E,
    pruning: bool,
    ordering: bool,
    bound: Option<f64>,
    root_player: Player,
    plies: Vec<PlyBuf<G::Move>>,
    root_moves: Vec<ModelledMove<G::Move>>,
    nodes: u64,
    error: Option<GameError>,
}

impl<G: Game, E: Evaluator<G>> ModelledSearch<G, E> {
    /// A search for `rule` with `eval`, pruning and move ordering on.
    pub fn new(rule: Modelled, eval: E) -> Self {
        let bound = rule.utility_bound(eval.bounds());
        ModelledSearch {
            rule,
            eval,
            pruning: true,
            ordering: true,
            bound,
            root_player: Player::First,
            plies: Vec::new(),
            root_moves: Vec::new(),
            nodes: 0,
            error: None,
        }
    }

    /// Switches pruning on or off (off: full width).
    #[must_use]
    pub fn with_pruning(mut self, on: bool) -> Self {
        self.pruning = on;
        self
    }

    /// Switches move ordering by [`Game::order_hint`] on or off (off: the
    /// generation order).
    #[must_use]
    pub fn with_ordering(mut self, on: bool) -> Self {
        self.ordering = on;
        self
    }

    /// The rule.
    pub fn rule(&self) -> &Modelled {
        &self.rule
    }

    /// Replaces the opponent's model for later searches.
    pub fn set_model(&mut self, model: OpponentModel) {
        self.rule.set_model(model);
    }

    /// Searches `state` to `depth` plies (chance nodes count no depth).
    /// Errors: the game is over ([`GameError::GameOver`]), the root is a
    /// chance node, a value is NaN or outside the evaluator's bounds, or a
    /// chance distribution is invalid.
    pub fn run(&mut self, state: &G, depth: u32) -> Result<ModelledResult<G::Move>, GameError> {
        let root = match state.turn() {
            Turn::Player(p) => p,
            Turn::Chance => return Err(GameError::ChanceNode),
        };
        let mut probe = Vec::new();
        if let Status::Over(_) = state.generate(&mut probe) {
            return Err(GameError::GameOver);
        }
        self.root_player = root;
        self.root_moves.clear();
        self.nodes = 0;
        self.error = None;
        let depth = depth.clamp(1, MAX_PLY);
        let value = self.search(state, depth, 0, f64::NEG_INFINITY);
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let value = value.ok_or(GameError::GameOver)?;
        let best = self.root_moves.iter().find(|m| m.exact && m.value == value).map(|m| m.mv);
        let best_moves = self.root_moves.iter().filter(|m| m.exact && m.value == value).map(|m| m.mv).collect();
        Ok(ModelledResult { value, best, best_moves, root_moves: self.root_moves.clone(), nodes: self.nodes })
    }

    #[cold]
    fn fail(&mut self, what: &'static str, state: &G) -> Option<f64> {
        if self.error.is_none() {
            self.error = Some(GameError::InvalidValue { what, state: GameError::shorten(&format!("{state:?}")) });
        }
        None
    }

    /// A leaf's utility from the root player's view, checked.
    fn leaf(&mut self, state: &G, outcome: Option<Outcome>, ply: u32) -> Option<f64> {
        let v = match outcome {
            Some(o) => self.eval.terminal_value(o, self.root_player, ply),
            None => self.eval.evaluate_for(state, self.root_player),
        };
        if v.is_nan() {
            return self.fail("static evaluation", state);
        }
        let u = self.rule.utility(v);
        if self.pruning && self.bound.is_some_and(|b| u.abs() > b) {
            return self.fail("value outside the evaluator's bounds", state);
        }
        Some(u)
    }

    /// The value of `state` (root player's view) with `depth` plies left.
    /// Fail-soft on the low side: a result `> alpha` is exact; a result
    /// `≤ alpha` is an upper bound on the exact value.
    fn search(&mut self, state: &G, depth: u32, ply: u32, alpha: f64) -> Option<f64> {
        self.nodes += 1;
        if self.error.is_some() {
            return None;
        }
        let at_horizon = depth == 0 || ply >= MAX_PLY;
        let quick = state.quick_status();
        match quick {
            Some(Status::Over(o)) => return self.leaf(state, Some(o), ply),
            Some(Status::Ongoing) if at_horizon => return self.leaf(state, None, ply),
            _ => {}
        }
        let p = ply as usize;
        if self.plies.len() <= p {
            self.plies.resize_with(p + 1, PlyBuf::default);
        }
        let mut moves = take(&mut self.plies[p].moves);
        moves.clear();
        let status = state.generate(&mut moves);
        let result = match status {
            Status::Over(o) => self.leaf(state, Some(o), ply),
            Status::Ongoing if at_horizon => self.leaf(state, None, ply),
            Status::Ongoing => {
                if self.ordering && state.turn() != Turn::Chance {
                    self.order(state, &mut moves, p);
                }
                match state.turn() {
                    Turn::Player(q) if q == self.root_player => self.max_node(state, &moves, depth, ply, alpha),
                    Turn::Player(_) => self.opponent_node(state, &moves, depth, ply, alpha),
                    Turn::Chance => self.chance_node(state, &moves, depth, ply, alpha),
                }
            }
        };
        self.plies[p].moves = moves;
        result
    }

    /// Stable sort by the game's hint, best first.
    fn order(&mut self, state: &G, moves: &mut Vec<G::Move>, p: usize) {
        let mut keys = take(&mut self.plies[p].keys);
        keys.clear();
        keys.extend(moves.iter().enumerate().map(|(i, &m)| (state.order_hint(m), i as u32)));
        if keys.windows(2).any(|w| w[0].0 < w[1].0) {
            keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let mut ordered = take(&mut self.plies[p].ordered);
            ordered.clear();
            ordered.extend(keys.iter().map(|k| moves[k.1 as usize]));
            std::mem::swap(moves, &mut ordered);
            self.plies[p].ordered = ordered;
        }
        self.plies[p].keys = keys;
    }

    fn max_node(&mut self, state: &G, moves: &[G::Move], depth: u32, ply: u32, alpha: f64) -> Option<f64> {
        let mut best = f64::NEG_INFINITY;
        for &mv in moves {
            let mut child = state.clone();
            child.play(mv);
            // At the root, a child tying the best must come back exact.
            let a = if !self.pruning {
                f64::NEG_INFINITY
            } else if ply == 0 {
                best.next_down()
            } else {
                alpha.max(best)
            };
            let v = self.search(&child, depth - 1, ply + 1, a)?;
            if ply == 0 {
                self.root_moves.push(ModelledMove { mv, value: v, exact: v > a });
            }
            if v > best {
                best = v;
            }
        }
        Some(best)
    }

    fn opponent_node(&mut self, state: &G, moves: &[G::Move], depth: u32, ply: u32, alpha: f64) -> Option<f64> {
        let p = ply as usize;
        let mut values = take(&mut self.plies[p].values);
        values.clear();
        let prune = match self.rule.model {
            OpponentModel::Boltzmann { theta } if self.pruning && alpha > f64::NEG_INFINITY => {
                if theta == f64::INFINITY { Some(Cut::Greedy) } else { self.bound.map(|b| Cut::Soft { theta, b }) }
            }
            _ => None,
        };
        let t = alpha - MARGIN * alpha.abs().max(1.0);
        let cap = self.rule.cap.unwrap_or(f64::INFINITY);
        let clamp = |x: f64| x.clamp(-cap, cap);
        // Running sums for the soft cut, relative to the shift `s` (the
        // smallest clamped value so far, so every weight is ≤ 1).
        let (mut s, mut sum, mut abs) = (f64::INFINITY, 0.0f64, 0.0f64);
        let mut cmin = f64::INFINITY;
        let n = moves.len();
        let mut result = None;
        let mut cut = None;
        for (i, &mv) in moves.iter().enumerate() {
            let rest = (n - i - 1) as f64;
            let mut child = state.clone();
            child.play(mv);
            // The α below which this child's value makes the node cut.
            let a = match prune {
                Some(Cut::Greedy) => t,
                Some(Cut::Soft { theta, b }) if depth >= 3 && i > 0 => {
                    let h = soft_sup(theta, b, cap, t, s);
                    child_alpha(theta, b, cap, t, s, -(sum + rest * h), abs + rest * h.abs())
                }
                _ => f64::NEG_INFINITY,
            };
            let mut v = self.search(&child, depth - 1, ply + 1, a)?;
            if v <= a {
                // A bound: cut if it proves the node below t, else search
                // the child again for its exact value.
                let proven = match prune {
                    // With every known child at the top of the cap the tie set's
                    // mean is not bounded by the cap: no cut there.
                    Some(Cut::Greedy) => clamp(v) < t && clamp(v) < cap,
                    Some(Cut::Soft { theta, b }) => {
                        let h = soft_sup(theta, b, cap, t, s);
                        let term = soft_sup_below(theta, cap, v, t, s);
                        let phi = sum + term + rest * h;
                        phi < -1e-12 * (abs + term.abs() + rest * h.abs())
                    }
                    None => false,
                };
                if proven {
                    cut = Some(if matches!(prune, Some(Cut::Greedy)) { clamp(v) } else { t });
                    break;
                }
                v = self.search(&child, depth - 1, ply + 1, f64::NEG_INFINITY)?;
            }
            values.push(-v);
            match prune {
                Some(Cut::Greedy) => {
                    cmin = cmin.min(clamp(v));
                    if cmin < t && cmin < cap && rest > 0.0 {
                        cut = Some(cmin);
                        break;
                    }
                }
                Some(Cut::Soft { theta, b }) => {
                    let c = clamp(v);
                    if c < s {
                        if s.is_finite() {
                            let f = (-theta * (s - c)).exp();
                            sum *= f;
                            abs *= f;
                        }
                        s = c;
                    }
                    let term = (-theta * (c - s)).exp() * (v - t);
                    sum += term;
                    abs += term.abs();
                    if rest > 0.0 {
                        let h = soft_sup(theta, b, cap, t, s);
                        let phi = sum + rest * h;
                        if phi < -1e-12 * (abs + rest * h.abs()) {
                            cut = Some(t);
                            break;
                        }
                    }
                }
                None => {}
            }
        }
        if cut.is_none() && self.error.is_none() {
            result = Some(-self.rule.opponent_value(&values));
        }
        self.plies[p].values = values;
        cut.or(result)
    }

    fn chance_node(&mut self, state: &G, moves: &[G::Move], depth: u32, ply: u32, alpha: f64) -> Option<f64> {
        let p = ply as usize;
        let mut probs = take(&mut self.plies[p].probs);
        probs.clear();
        state.chance_probabilities(moves, &mut probs);
        let ok = probs.len() == moves.len()
            && probs.iter().all(|q| (0.0..=1.0).contains(q))
            && (probs.iter().sum::<f64>() - 1.0).abs() <= 1e-9 * moves.len().max(1) as f64;
        if !ok {
            self.plies[p].probs = probs;
            if self.error.is_none() {
                self.error = Some(GameError::InvalidChance {
                    state: GameError::shorten(&format!("{state:?}")),
                    reason: "chance probabilities are not a distribution".into(),
                });
            }
            return None;
        }
        let star = self.bound.filter(|_| self.pruning && alpha > f64::NEG_INFINITY);
        let t = alpha - MARGIN * alpha.abs().max(1.0);
        let mut rest_hi: f64 = star.map_or(0.0, |b| probs.iter().map(|q| q * b).sum());
        let mut mean = 0.0;
        let mut result = None;
        for (i, &mv) in moves.iter().enumerate() {
            let q = probs[i];
            if q == 0.0 {
                continue;
            }
            let mut child = state.clone();
            child.play(mv);
            let a = match star {
                Some(b) => {
                    rest_hi -= q * b;
                    (t - mean - rest_hi) / q
                }
                None => f64::NEG_INFINITY,
            };
            let mut v = match self.search(&child, depth, ply + 1, a) {
                Some(v) => v,
                None => {
                    result = Some(None);
                    break;
                }
            };
            if v <= a {
                if mean + q * v + rest_hi.max(0.0) < t {
                    result = Some(Some(t));
                    break;
                }
                v = match self.search(&child, depth, ply + 1, f64::NEG_INFINITY) {
                    Some(v) => v,
                    None => {
                        result = Some(None);
                        break;
                    }
                };
            }
            mean += q * v;
            if star.is_some() && mean + rest_hi.max(0.0) < t && i + 1 < moves.len() {
                result = Some(Some(t));
                break;
            }
        }
        self.plies[p].probs = probs;
        result.unwrap_or(Some(mean))
    }
}

/// Which cut an opponent's node can take.
#[derive(Debug, Clone, Copy)]
enum Cut {
    /// θ = +∞: alpha-beta.
    Greedy,
    /// Finite θ with utilities within `±b`.
    Soft { theta: f64, b: f64 },
}

/// `w(y)(y − t)` with `w(y) = exp(−θ(clamp(y) − s))` (θ > 0 finite; the
/// shift `s` may be +∞ before any child, when the weight is taken as 1).
#[inline]
fn soft_term(theta: f64, cap: f64, y: f64, t: f64, s: f64) -> f64 {
    let c = y.clamp(-cap, cap);
    let w = if s.is_finite() { (-theta * (c - s)).exp() } else { 1.0 };
    let d = y - t;
    if d == 0.0 { 0.0 } else { w * d }
}

/// `max over y ∈ [−b, b]` of [`soft_term`]: at `t + 1/θ` clamped into the
/// uncapped part of the interval, or at `b`.
#[inline]
fn soft_sup(theta: f64, b: f64, cap: f64, t: f64, s: f64) -> f64 {
    let (lo, hi) = ((-b).max(-cap), b.min(cap));
    let y1 = (t + 1.0 / theta).clamp(lo, hi);
    soft_term(theta, cap, y1, t, s).max(soft_term(theta, cap, b, t, s))
}

/// `max over y ≤ v` of [`soft_term`]: the term rises up to its peak at
/// `t + 1/θ` (clamped into `[−cap, cap]`), falls until the cap, and rises
/// again beyond it (where the weight no longer changes).
#[inline]
fn soft_sup_below(theta: f64, cap: f64, v: f64, t: f64, s: f64) -> f64 {
    let y1 = (t + 1.0 / theta).clamp(-cap, cap);
    let below = soft_term(theta, cap, v.min(y1), t, s);
    if v > cap { below.max(soft_term(theta, cap, v, t, s)) } else { below }
}

/// The largest `y ≤ min(t + 1/θ, b)` (where [`soft_term`] increases) with
/// `soft_term(y) < target` by a safe margin, or −∞ if none: a child at or
/// below it cuts the node. `scale` sizes the margin.
fn child_alpha(theta: f64, b: f64, cap: f64, t: f64, s: f64, target: f64, scale: f64) -> f64 {
    let ok = |y: f64| {
        let h = soft_term(theta, cap, y, t, s);
        h < target - 1e-11 * (scale + h.abs() + target.abs())
    };
    let (mut lo, mut hi) = (-b, (t + 1.0 / theta).min(b));
    if !ok(lo) {
        return f64::NEG_INFINITY;
    }
    if ok(hi) {
        return hi;
    }
    for _ in 0..ALPHA_STEPS {
        let mid = 0.5 * (lo + hi);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Plays the best move of a [`ModelledSearch`] at a fixed depth; exact ties
/// are broken uniformly at random with the agent's RNG.
///
/// ```
/// use search_core::{Agent, rng};
/// use search_core::backup::{Modelled, OpponentModel};
/// use search_core::backup::modelled::{ModelledAgent, ModelledSearch};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "max(min(0, 0), min(0, 10))".parse()?;
/// let rule = Modelled::new(OpponentModel::boltzmann(0.5)?);
/// let mut agent = ModelledAgent::new(ModelledSearch::new(rule, LiteralEval), 2)?;
/// assert_eq!(agent.choose(&t, &mut rng::seeded(1))?, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ModelledAgent<G: Game, E> {
    search: ModelledSearch<G, E>,
    depth: u32,
    name: Option<String>,
    last: Option<ModelledResult<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> ModelledAgent<G, E> {
    /// An agent searching `depth` plies. Errors unless `1 ≤ depth ≤ MAX_PLY`.
    pub fn new(search: ModelledSearch<G, E>, depth: u32) -> Result<Self, ParamError> {
        if depth == 0 || depth > MAX_PLY {
            return Err(ParamError::new("depth", format!("must be within 1..={MAX_PLY}, got {depth}")));
        }
        Ok(ModelledAgent { search, depth, name: None, last: None })
    }

    /// Sets the name used in reports.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The search.
    pub fn search(&mut self) -> &mut ModelledSearch<G, E> {
        &mut self.search
    }

    /// The result of the last move's search.
    pub fn last_result(&self) -> Option<&ModelledResult<G::Move>> {
        self.last.as_ref()
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for ModelledAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| format!("{} d{}", self.search.rule.name(), self.depth))
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    /// The best move, with the exactly tied best moves in equal shares, the
    /// root moves' values (utilities; a move cut off carries an upper
    /// bound), the root's value (a utility), and the nodes searched at the
    /// agent's depth.
    ///
    /// ```
    /// use search_core::{Agent, rng};
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::backup::modelled::{ModelledAgent, ModelledSearch};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    ///
    /// let t: LiteralTree = "max(min(0, 0), min(0, 10))".parse()?;
    /// let rule = Modelled::new(OpponentModel::boltzmann(0.5)?);
    /// let mut agent = ModelledAgent::new(ModelledSearch::new(rule, LiteralEval), 2)?;
    /// let choice = agent.choose_explained(&t, &mut rng::seeded(1))?;
    /// let thought = choice.thought.unwrap();
    /// assert_eq!((choice.mv, thought.pv[0], thought.stats.depth), (1, 1, 2));
    /// assert_eq!(thought.stats.nodes, agent.last_result().unwrap().nodes);
    /// assert!(thought.stats.nodes >= 3 && thought.value.unwrap() > 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        let started = std::time::Instant::now();
        let r = self.search.run(state, self.depth)?;
        let mv = match r.best_moves.len() {
            0 => r.best.ok_or(GameError::GameOver)?,
            1 => r.best_moves[0],
            k => r.best_moves[rand::Rng::random_range(rng, 0..k)],
        };
        let ties = if r.best_moves.is_empty() { vec![mv] } else { r.best_moves.clone() };
        let share = 1.0 / ties.len() as f64;
        let stats = crate::search::Stats {
            nodes: r.nodes,
            depth: self.depth.clamp(1, MAX_PLY),
            micros: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
            ..crate::search::Stats::default()
        };
        let thought = Thought {
            distribution: ties.into_iter().map(|m| (m, share)).collect(),
            scores: r.root_moves.iter().map(|m| (m.mv, m.value)).collect(),
            value: Some(r.value),
            pv: vec![mv],
            stats,
        };
        self.last = Some(r);
        Ok(Choice { mv, thought: Some(thought) })
    }
}
