//! Seeded random game trees, generated lazily from the seed and the path.
//!
//! A state is a few words (the tree's parameters, a 64-bit path hash, the ply
//! and the running arc sum), so a tree with millions of leaves costs no
//! memory: every number is a hash of the seed and the path to the node.
//!
//! ```
//! use search_core::{perft, Game};
//! use search_core::tree::{RandomTree, LeafModel};
//! let t = RandomTree::new(7, 4, 8, LeafModel::Uniform { min: 0, max: 3 }).unwrap();
//! assert_eq!(perft(&t, 8), Ok(4u64.pow(8)));
//! assert_eq!(std::mem::size_of_val(&t), std::mem::size_of::<RandomTree>());
//! ```

use std::fmt;

use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, Perspective};
use crate::game::{Game, Outcome, Player, Status, Turn};
use crate::rng::splitmix64;

/// How leaf values (and interior static values) are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LeafModel {
    /// Independent uniform integers in `min..=max` at the leaves. A narrow
    /// range makes many ties. Interior nodes get an independent draw from
    /// the same range as their static value (pure noise).
    Uniform {
        /// Smallest leaf value.
        min: i32,
        /// Largest leaf value.
        max: i32,
    },
    /// The arc-sum model of Fuller, Gaschnig and Gillogly: each arc carries an
    /// independent uniform integer in `0..=max_arc`; a node's value is the sum
    /// of the arcs from the root to it. Interior nodes expose their partial
    /// sum as their static value.
    ArcSum {
        /// Largest arc value.
        max_arc: u32,
    },
}

/// How chance nodes weight their outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ChanceWeights {
    /// Every outcome equally likely.
    Uniform,
    /// Random weights (integers 1..=9 from the path hash), normalised.
    Random,
}

/// A node of a seeded random tree. `Copy`, 40 bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RandomTree {
    seed: u64,
    path: u64,
    sum: i64,
    model: LeafModel,
    ply: u8,
    depth: u8,
    b_min: u8,
    b_max: u8,
    /// A chance level after every `chance_every` player levels (0: none).
    chance_every: u8,
    random_weights: bool,
}

const K_BRANCH: u64 = 0x1;
const K_LEAF: u64 = 0x2;
const K_ARC: u64 = 0x3;
const K_STATIC: u64 = 0x4;
const K_WEIGHT: u64 = 0x5;

impl RandomTree {
    /// A tree of `depth` plies with `branching` children at every interior
    /// node, leaves drawn from `model`, `First` to move at the root, players
    /// alternating.
    ///
    /// Errors if `branching` or `depth` is 0, or if a uniform range is empty.
    pub fn new(seed: u64, branching: u8, depth: u8, model: LeafModel) -> Result<Self, ParamError> {
        if depth == 0 {
            return Err(ParamError::new("depth", "a random tree needs depth >= 1"));
        }
        if let LeafModel::Uniform { min, max } = model
            && min > max
        {
            return Err(ParamError::new("leaf range", format!("empty range {min}..={max}")));
        }
        let tree = RandomTree {
            seed,
            path: splitmix64(seed),
            sum: 0,
            model,
            ply: 0,
            depth,
            b_min: branching,
            b_max: branching,
            chance_every: 0,
            random_weights: false,
        };
        tree.with_branching(branching, branching)
    }

    /// Draws each node's number of children uniformly in `min..=max`.
    pub fn with_branching(mut self, min: u8, max: u8) -> Result<Self, ParamError> {
        if min == 0 || min > max {
            return Err(ParamError::new("branching", format!("need 1 <= min <= max, got {min}..={max}")));
        }
        self.b_min = min;
        self.b_max = max;
        Ok(self)
    }

    /// Inserts a chance level after every `every` player levels (so
    /// `every = 1` alternates player, chance, player, chance...), with the
    /// given outcome weights. Players still alternate among player levels.
    pub fn with_chance(mut self, every: u8, weights: ChanceWeights) -> Result<Self, ParamError> {
        if every == 0 {
            return Err(ParamError::new("chance_every", "must be >= 1"));
        }
        self.chance_every = every;
        self.random_weights = weights == ChanceWeights::Random;
        Ok(self)
    }

    /// The tree's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Plies from the root to this node.
    pub fn ply(&self) -> u8 {
        self.ply
    }

    /// The tree's depth (plies from root to leaves).
    pub fn depth(&self) -> u8 {
        self.depth
    }

    /// A 64-bit identifier of this node (a hash of the seed and the path).
    pub fn node_id(&self) -> u64 {
        self.path
    }

    /// The number of children of this node (0 at the leaves).
    pub fn branching(&self) -> u8 {
        if self.ply >= self.depth {
            0
        } else if self.b_min == self.b_max {
            self.b_min
        } else {
            let span = u64::from(self.b_max - self.b_min) + 1;
            self.b_min + (splitmix64(self.path ^ K_BRANCH) % span) as u8
        }
    }

    /// The value of the arc into child `index` (arc-sum model; 0 otherwise).
    pub fn arc_value(&self, index: u8) -> i64 {
        match self.model {
            LeafModel::ArcSum { max_arc } => {
                let child = self.child_path(index);
                (splitmix64(child ^ K_ARC) % (u64::from(max_arc) + 1)) as i64
            }
            LeafModel::Uniform { .. } => 0,
        }
    }

    /// The static value of this node from `First`'s point of view: the
    /// leaf's value at a leaf; the partial arc sum (arc-sum model) or an
    /// independent draw (uniform model) at an interior node.
    pub fn static_value(&self) -> f64 {
        match self.model {
            LeafModel::ArcSum { .. } => self.sum as f64,
            LeafModel::Uniform { min, max } => {
                let key = if self.ply >= self.depth { K_LEAF } else { K_STATIC };
                let span = (i64::from(max) - i64::from(min) + 1) as u64;
                (i64::from(min) + (splitmix64(self.path ^ key) % span) as i64) as f64
            }
        }
    }

    fn child_path(&self, index: u8) -> u64 {
        splitmix64(self.path ^ splitmix64(u64::from(index) + 1))
    }

    fn is_chance_ply(&self, ply: u8) -> bool {
        self.chance_every > 0 && ply % (self.chance_every + 1) == self.chance_every
    }
}

impl fmt::Debug for RandomTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RandomTree")
            .field("seed", &self.seed)
            .field("ply", &self.ply)
            .field("depth", &self.depth)
            .field("branching", &(self.b_min..=self.b_max))
            .field("model", &self.model)
            .field("sum", &self.sum)
            .finish()
    }
}

impl Game for RandomTree {
    type Move = u8;
    const HASHED: bool = true;

    fn turn(&self) -> Turn {
        if self.is_chance_ply(self.ply) {
            return Turn::Chance;
        }
        let player_levels =
            if self.chance_every == 0 { self.ply } else { self.ply - self.ply / (self.chance_every + 1) };
        Turn::Player(if player_levels % 2 == 0 { Player::First } else { Player::Second })
    }

    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        if self.ply >= self.depth {
            return Status::Over(Outcome::Payoff(self.static_value()));
        }
        moves.extend(0..self.branching());
        Status::Ongoing
    }

    fn play(&mut self, mv: u8) {
        self.sum += self.arc_value(mv);
        self.path = self.child_path(mv);
        self.ply += 1;
    }

    fn chance_probabilities(&self, outcomes: &[u8], probs: &mut Vec<f64>) {
        if !self.random_weights {
            let n = outcomes.len() as f64;
            probs.extend(outcomes.iter().map(|_| 1.0 / n));
            return;
        }
        let start = probs.len();
        let weight = |i: u8| (1 + splitmix64(self.path ^ K_WEIGHT ^ (u64::from(i) << 8)) % 9) as f64;
        let total: f64 = outcomes.iter().map(|&i| weight(i)).sum();
        probs.extend(outcomes.iter().map(|&i| weight(i) / total));
        debug_assert!(ParamError::distribution("weights", &probs[start..]).is_ok());
    }

    fn hash_key(&self) -> Option<u64> {
        Some(self.path)
    }

    fn write_move(&self, mv: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{mv}")
    }

    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        text.trim().parse::<u8>().map_err(|_| GameError::parse("move", text, 0, "not a child index"))
    }
}

/// Evaluates random-tree nodes at their [`RandomTree::static_value`], from
/// `First`'s point of view. Terminal payoffs count as they are (no win bonus).
///
/// ```
/// use search_core::Evaluator;
/// use search_core::tree::{RandomTree, RandomTreeEval, LeafModel};
/// let t = RandomTree::new(1, 2, 3, LeafModel::ArcSum { max_arc: 10 }).unwrap();
/// assert_eq!(RandomTreeEval::for_tree(&t).bounds(), Some((0.0, 30.0)));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomTreeEval {
    bounds: Option<(f64, f64)>,
}

impl RandomTreeEval {
    /// An evaluator that also declares the bounds of every value of `tree`
    /// (needed by Star1/Star2 pruning at chance nodes).
    pub fn for_tree(tree: &RandomTree) -> Self {
        let bounds = match tree.model {
            LeafModel::Uniform { min, max } => (f64::from(min), f64::from(max)),
            LeafModel::ArcSum { max_arc } => (0.0, f64::from(max_arc) * f64::from(tree.depth)),
        };
        RandomTreeEval { bounds: Some(bounds) }
    }
}

impl Evaluator<RandomTree> for RandomTreeEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &RandomTree) -> f64 {
        state.static_value()
    }

    fn terminal_value(&self, outcome: Outcome, player: Player, _ply: u32) -> f64 {
        outcome.value_for(player, 1.0)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        self.bounds
    }
}
