//! One thread's search: a tree, a random stream, buffers, and the four
//! steps of a simulation (selection, expansion, leaf value, backup).

use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use rand::Rng as _;

use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, MAX_PLY};
use crate::game::{Game, Outcome, Player, Status, Turn};
use crate::mcts::backup::{ChildStats, MctsBackup, NodeKind, NodeStats};
use crate::mcts::config::{MctsConfig, Playouts, Selection};
use crate::mcts::tree::{Actor, Node, Tree};
use crate::rng;
use crate::search::{Limits, Stats};

/// What every thread shares: the rule, the evaluator, the settings and
/// the limits.
pub(crate) struct Ctx<'a, B, E> {
    pub(crate) backup: &'a B,
    pub(crate) eval: &'a E,
    pub(crate) config: &'a MctsConfig,
    pub(crate) limits: &'a Limits,
    pub(crate) start: Instant,
}

/// One thread's share of the iteration and node limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub(crate) iterations: u64,
    pub(crate) nodes: u64,
}

/// One thread's tree and working state.
#[derive(Debug)]
pub(crate) struct Worker<M> {
    pub(crate) tree: Tree<M>,
    pub(crate) rng: rng::Rng,
    moves: Vec<M>,
    probs: Vec<f64>,
    path: Vec<u32>,
    pub(crate) kids: Vec<ChildStats>,
    pub(crate) policy: Vec<f64>,
    pub(crate) stats: Stats,
    pub(crate) iterations: u64,
    /// The tree reached its size cap.
    full: bool,
    /// The search ended on its iteration or node budget.
    pub(crate) complete: bool,
}

/// A finished game's value from the first player's view on the MCTS scale.
#[inline]
fn outcome_value(outcome: Outcome, scale: f64) -> f64 {
    match outcome {
        Outcome::Win(p) => p.sign(),
        Outcome::Draw => 0.0,
        Outcome::Payoff(v) => (v / scale).tanh(),
    }
}

#[inline]
fn actor_of(turn: Turn) -> Actor {
    match turn {
        Turn::Player(Player::First) => Actor::First,
        Turn::Player(Player::Second) => Actor::Second,
        Turn::Chance => Actor::Chance,
    }
}

impl<M: Copy + PartialEq> Worker<M> {
    pub(crate) fn new(seed: u64) -> Self {
        let mut tree = Tree::new();
        tree.reset();
        Worker {
            tree,
            rng: rng::seeded(seed),
            moves: Vec::new(),
            probs: Vec::new(),
            path: Vec::new(),
            kids: Vec::new(),
            policy: Vec::new(),
            stats: Stats::default(),
            iterations: 0,
            full: false,
            complete: false,
        }
    }

    /// Runs simulations from `root` until the budget, the time or the stop
    /// flag ends them (at least one).
    pub(crate) fn run<G, B, E>(&mut self, ctx: &Ctx<'_, B, E>, root: &G, budget: Budget) -> Result<(), GameError>
    where
        G: Game<Move = M>,
        B: MctsBackup,
        E: Evaluator<G>,
    {
        self.stats = Stats::default();
        self.iterations = 0;
        self.full = false;
        self.complete = false;
        loop {
            self.simulate(ctx, root)?;
            self.iterations += 1;
            if self.iterations >= budget.iterations || self.stats.nodes >= budget.nodes {
                self.complete = true;
                break;
            }
            if self.full {
                break;
            }
            if self.iterations & 15 == 0 {
                if ctx.limits.time.is_some_and(|t| ctx.start.elapsed() >= t) {
                    break;
                }
                if ctx.limits.stop.as_ref().is_some_and(|f| f.load(AtomicOrdering::Relaxed)) {
                    break;
                }
            }
        }
        Ok(())
    }

    /// One simulation: down the tree, a leaf value, back up.
    fn simulate<G, B, E>(&mut self, ctx: &Ctx<'_, B, E>, root: &G) -> Result<(), GameError>
    where
        G: Game<Move = M>,
        B: MctsBackup,
        E: Evaluator<G>,
    {
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        let value = loop {
            self.stats.nodes += 1;
            let node = self.tree.nodes[at];
            if node.terminal {
                break node.value;
            }
            if node.actor == Actor::Unknown {
                self.tree.nodes[at].actor = actor_of(state.turn());
            }
            if node.len == 0 {
                self.moves.clear();
                if let Status::Over(outcome) = state.generate(&mut self.moves) {
                    let v = outcome_value(outcome, ctx.config.value_scale);
                    let n = &mut self.tree.nodes[at];
                    n.terminal = true;
                    n.value = v;
                    break v;
                }
                // A new leaf (or a full tree): value it, do not expand it.
                if (node.visits == 0 && at != 0) || self.tree.nodes.len() + self.moves.len() > ctx.config.max_tree_nodes
                {
                    self.full |= node.visits > 0 || at == 0;
                    break self.leaf_value(ctx, state)?;
                }
                self.expand(at, &state)?;
            }
            let child = self.select(ctx, at);
            let mv = self.tree.nodes[child].mv.expect("a child has a move");
            state.play(mv);
            at = child;
            self.path.push(child as u32);
        };
        self.stats.leaves += 1;
        self.stats.depth = self.stats.depth.max(self.path.len() as u32 - 1);
        self.backup(ctx, value);
        Ok(())
    }

    /// Adds the children of node `at` (its moves are in `self.moves`).
    fn expand<G: Game<Move = M>>(&mut self, at: usize, state: &G) -> Result<(), GameError> {
        self.stats.interior += 1;
        let first = self.tree.nodes.len();
        if state.turn() == Turn::Chance {
            self.probs.clear();
            state.chance_probabilities(&self.moves, &mut self.probs);
            if self.probs.len() != self.moves.len() {
                return Err(GameError::InvalidChance {
                    state: GameError::shorten(&format!("{state:?}")),
                    reason: format!("{} probabilities for {} outcomes", self.probs.len(), self.moves.len()),
                });
            }
            if let Err(e) = ParamError::distribution("chance", &self.probs) {
                return Err(GameError::InvalidChance {
                    state: GameError::shorten(&format!("{state:?}")),
                    reason: e.reason,
                });
            }
            let (moves, probs) = (&self.moves, &self.probs);
            self.tree.nodes.extend(moves.iter().zip(probs).map(|(&mv, &p)| Node::new(Some(mv), p)));
        } else {
            let moves = &self.moves;
            self.tree.nodes.extend(moves.iter().map(|&mv| Node::new(Some(mv), 1.0)));
        }
        let n = &mut self.tree.nodes[at];
        n.first = first as u32;
        n.len = self.moves.len() as u32;
        Ok(())
    }

    /// The child of node `at` a simulation goes down.
    fn select<B: MctsBackup, E>(&mut self, ctx: &Ctx<'_, B, E>, at: usize) -> usize {
        let node = self.tree.nodes[at];
        let range = node.children();
        let nodes = &self.tree.nodes;
        if node.actor == Actor::Chance {
            let mut x: f64 = self.rng.random();
            for c in range.clone() {
                x -= nodes[c].prob;
                if x < 0.0 && nodes[c].prob > 0.0 {
                    return c;
                }
            }
            return range.rev().find(|&c| nodes[c].prob > 0.0).unwrap_or(node.first as usize);
        }
        let unvisited = range.clone().filter(|&c| nodes[c].visits == 0).count();
        if unvisited > 0 {
            let k = self.rng.random_range(0..unvisited);
            return range.filter(|&c| nodes[c].visits == 0).nth(k).expect("k < unvisited");
        }
        let sign = node.actor.sign();
        match ctx.config.selection {
            Selection::Ucb1 { c } => {
                // c·√(ln N / n) as (c·√ln N)·(1/√n): one logarithm and one
                // root per node, a product per child.
                let explore = c * f64::from(node.visits.max(1)).ln().sqrt();
                let mut best = (f64::NEG_INFINITY, range.start);
                for i in range {
                    let child = &nodes[i];
                    let q = (sign * child.value + 1.0) * 0.5;
                    let score = q + explore * child.inv_sqrt_visits;
                    if score > best.0 {
                        best = (score, i);
                    }
                }
                best.1
            }
            Selection::Boltzmann { epsilon } => {
                self.fill_kids(at);
                self.policy.clear();
                ctx.backup.soft_policy(&self.kids, &mut self.policy);
                let k = self.kids.len() as f64;
                let lambda = (epsilon * k / (f64::from(node.visits) + 1.0).ln()).min(1.0);
                let mut x: f64 = self.rng.random();
                for (j, &p) in self.policy.iter().enumerate() {
                    x -= (1.0 - lambda) * p + lambda / k;
                    if x < 0.0 {
                        return range.start + j;
                    }
                }
                range.end - 1
            }
        }
    }

    /// The children of node `at` as [`ChildStats`], in its actor's view.
    pub(crate) fn fill_kids(&mut self, at: usize) {
        let node = self.tree.nodes[at];
        let sign = node.actor.sign();
        self.kids.clear();
        let nodes = &self.tree.nodes;
        self.kids.extend(nodes[node.children()].iter().map(|c| ChildStats {
            visits: u64::from(c.visits),
            value: sign * c.value,
            probability: c.prob,
        }));
    }

    /// The value of a new leaf, whose moves are in `self.moves`.
    fn leaf_value<G, B, E>(&mut self, ctx: &Ctx<'_, B, E>, mut state: G) -> Result<f64, GameError>
    where
        G: Game<Move = M>,
        E: Evaluator<G>,
    {
        let scale = ctx.config.value_scale;
        if ctx.config.playouts == Playouts::Random {
            for _ in 0..MAX_PLY {
                let mv = if state.turn() == Turn::Chance {
                    self.probs.clear();
                    state.chance_probabilities(&self.moves, &mut self.probs);
                    self.moves[rng::sample_index(&self.probs, &mut self.rng)]
                } else {
                    self.moves[self.rng.random_range(0..self.moves.len())]
                };
                state.play(mv);
                self.stats.nodes += 1;
                self.moves.clear();
                if let Status::Over(outcome) = state.generate(&mut self.moves) {
                    return Ok(outcome_value(outcome, scale));
                }
            }
        }
        let v = ctx.eval.evaluate_for(&state, Player::First);
        if v.is_nan() {
            return Err(GameError::InvalidValue {
                what: "static evaluation",
                state: GameError::shorten(&format!("{state:?}")),
            });
        }
        Ok((v / scale).tanh())
    }

    /// Adds `value` to every node of the path and recomputes their values,
    /// leaf first.
    fn backup<B: MctsBackup, E>(&mut self, ctx: &Ctx<'_, B, E>, value: f64) {
        let children = ctx.backup.uses_children();
        for k in (0..self.path.len()).rev() {
            let at = self.path[k] as usize;
            let n = &mut self.tree.nodes[at];
            n.visits += 1;
            n.inv_sqrt_visits = f64::from(n.visits).sqrt().recip();
            n.sum += value;
            if n.terminal {
                continue;
            }
            let sign = n.actor.sign();
            let kind = if n.actor == Actor::Chance { NodeKind::Chance } else { NodeKind::Decision };
            let stats = NodeStats { kind, visits: u64::from(n.visits), mean: sign * n.sum / f64::from(n.visits) };
            let v = if children && n.len > 0 {
                self.fill_kids(at);
                ctx.backup.value(&stats, &self.kids)
            } else {
                ctx.backup.value(&stats, &[])
            };
            self.tree.nodes[at].value = sign * v;
        }
    }
}
