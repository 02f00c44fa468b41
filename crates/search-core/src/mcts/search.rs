//! The search: limits, threads, tree reuse, the merged root.

use std::time::Instant;

use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::{Game, Status};
use crate::mcts::backup::{MctsBackup, NodeKind, NodeStats};
use crate::mcts::config::{FinalMove, MctsConfig};
use crate::mcts::result::{MctsMove, MctsResult};
use crate::mcts::tree::Actor;
use crate::mcts::worker::{Budget, Ctx, Worker};
use crate::rng;
use crate::search::{Limits, Stats};

/// How many plies below the old root a new root is looked for (two moves
/// of each player, or a move, a chance outcome and a move).
const REUSE_PLIES: usize = 4;

/// Monte Carlo tree search on any [`Game`]: UCT with a pluggable
/// [backup](MctsBackup), leaf values from random playouts or an
/// [`Evaluator`], chance nodes sampled by their probabilities, root
/// parallelisation over threads, and the tree kept between calls.
///
/// The game, its moves, the backup and the evaluator must be shareable
/// between threads (`Sync`, and `Send` moves) even with one thread: plain
/// data is.
///
/// ```
/// use search_core::mcts::{Mcts, MctsConfig, Mean};
/// use search_core::search::Limits;
/// use search_core::OutcomeOnly;
/// use search_core::tree::LiteralTree;
///
/// let t: LiteralTree = "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse()?;
/// // Numeric payoffs count as tanh(v / 10) on the MCTS scale [-1, 1].
/// let config = MctsConfig::default().with_value_scale(10.0)?.with_seed(7);
/// let mut mcts = Mcts::new(Mean, OutcomeOnly::default(), config)?;
/// let r = mcts.run(&t, &Limits::iterations(3000))?;
/// assert_eq!(r.best, Some(0));
/// assert!((r.value - 0.3f64.tanh()).abs() < 0.05); // the minimax value, 3
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug)]
pub struct Mcts<G: Game, B, E> {
    backup: B,
    eval: E,
    config: MctsConfig,
    pub(crate) workers: Vec<Worker<G::Move>>,
    /// The state at the root of the trees, when they hold anything.
    root: Option<G>,
}

impl<G: Game, B: MctsBackup, E: Evaluator<G>> Mcts<G, B, E> {
    /// A search with `backup`, `eval` (used for leaf values with
    /// [`Playouts::Eval`](crate::mcts::Playouts::Eval), and at the end of
    /// an overlong playout) and `config`.
    ///
    /// Errors: a setting out of its domain ([`MctsConfig::validate`]).
    pub fn new(backup: B, eval: E, config: MctsConfig) -> Result<Self, ParamError> {
        config.validate(backup.has_soft_policy())?;
        let workers = (0..config.threads).map(|t| Worker::new(rng::derive_seed(config.seed, t as u64))).collect();
        Ok(Mcts { backup, eval, config, workers, root: None })
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The backup rule.
    pub fn backup(&self) -> &B {
        &self.backup
    }

    /// Restarts every thread's random stream from `seed` (the tree is
    /// kept).
    pub fn reseed(&mut self, seed: u64) {
        self.config.seed = seed;
        for (t, w) in self.workers.iter_mut().enumerate() {
            w.rng = rng::seeded(rng::derive_seed(seed, t as u64));
        }
    }

    /// Forgets the trees (a new game).
    pub fn clear(&mut self) {
        for w in &mut self.workers {
            w.tree.reset();
        }
        self.root = None;
    }

    /// The number of nodes in the first thread's tree.
    pub fn tree_size(&self) -> usize {
        self.workers[0].tree.nodes.len()
    }

    /// Re-roots the trees on the child reached by `mv` (the move played),
    /// keeping its subtree. Returns false if `mv` was not in the tree (the
    /// trees are then emptied) or there is no tree.
    pub fn advance(&mut self, mv: G::Move) -> bool {
        let Some(root) = &mut self.root else { return false };
        root.play(mv);
        let mut kept = true;
        for w in &mut self.workers {
            kept &= w.tree.reroot(&[mv]);
        }
        kept
    }

    /// Finds `state` among the descendants of the trees' root (up to
    /// [`REUSE_PLIES`] plies, along expanded nodes) and re-roots there; or
    /// empties the trees.
    fn reuse_for(&mut self, state: &G) {
        let path = match &self.root {
            Some(old) if self.config.reuse && !self.workers[0].tree.is_fresh() => {
                let mut path = Vec::new();
                find_path(&self.workers[0].tree.nodes, 0, old, state, &mut path, REUSE_PLIES).then_some(path)
            }
            _ => None,
        };
        for w in &mut self.workers {
            match &path {
                Some(p) => {
                    w.tree.reroot(p);
                }
                None => w.tree.reset(),
            }
        }
        self.root = Some(state.clone());
    }
}

/// Two states are the same position: equal hash keys (when the game has
/// them) and equal `Debug` forms.
fn same_state<G: Game>(a: &G, b: &G) -> bool {
    if G::HASHED && a.hash_key() != b.hash_key() {
        return false;
    }
    format!("{a:?}") == format!("{b:?}")
}

/// Depth-first search for `target` below node `at` (whose state is
/// `state`); on success `path` holds the moves.
fn find_path<G: Game>(
    nodes: &[crate::mcts::tree::Node<G::Move>],
    at: usize,
    state: &G,
    target: &G,
    path: &mut Vec<G::Move>,
    plies: usize,
) -> bool {
    if same_state(state, target) {
        return true;
    }
    if plies == 0 {
        return false;
    }
    for c in nodes[at].children() {
        let Some(mv) = nodes[c].mv else { continue };
        let mut child = state.clone();
        child.play(mv);
        path.push(mv);
        if find_path(nodes, c, &child, target, path, plies - 1) {
            return true;
        }
        path.pop();
    }
    false
}

impl<G, B, E> Mcts<G, B, E>
where
    G: Game + Sync,
    G::Move: Send,
    B: MctsBackup + Sync,
    E: Evaluator<G> + Sync,
{
    /// Searches `state` within `limits`: iterations (simulations), nodes,
    /// time and a stop flag, at least one simulation per thread. With
    /// several threads the iteration and node limits are shared out evenly.
    ///
    /// Errors: the game is over ([`GameError::GameOver`]); a depth limit
    /// (MCTS has none), no limit at all, or a zero limit
    /// ([`GameError::Param`]); an evaluator that returned NaN; chance
    /// probabilities that are not a distribution.
    pub fn run(&mut self, state: &G, limits: &Limits) -> Result<MctsResult<G::Move>, GameError> {
        limits.validate()?;
        if limits.depth.is_some() {
            return Err(ParamError::new("depth", "MCTS has no depth limit: give iterations, nodes or time").into());
        }
        if limits.is_unlimited() {
            return Err(ParamError::new("limits", "MCTS needs an iteration, node, time or stop limit").into());
        }
        if let Status::Over(_) = state.status() {
            return Err(GameError::GameOver);
        }
        let start = Instant::now();
        self.reuse_for(state);
        let reused = u64::from(self.workers[0].tree.nodes[0].visits);
        let threads = self.workers.len() as u64;
        let share =
            |total: Option<u64>, t: u64| total.map_or(u64::MAX, |n| (n / threads + u64::from(t < n % threads)).max(1));
        let ctx = Ctx { backup: &self.backup, eval: &self.eval, config: &self.config, limits, start };
        if threads == 1 {
            let budget = Budget { iterations: share(limits.iterations, 0), nodes: share(limits.nodes, 0) };
            self.workers[0].run(&ctx, state, budget)?;
        } else {
            let ctx = &ctx;
            let results: Vec<Result<(), GameError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .workers
                    .iter_mut()
                    .enumerate()
                    .map(|(t, w)| {
                        let t = t as u64;
                        let budget = Budget { iterations: share(limits.iterations, t), nodes: share(limits.nodes, t) };
                        scope.spawn(move || w.run(ctx, state, budget))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("an MCTS thread panicked")).collect()
            });
            for r in results {
                r?;
            }
        }
        let mut result = self.merge();
        result.reused = reused;
        result.stats.micros = start.elapsed().as_micros().min(u128::from(u64::MAX)) as u64;
        Ok(result)
    }
}

impl<G: Game, B: MctsBackup, E> Mcts<G, B, E> {
    /// The root moves over every thread's tree, the root value and the
    /// final move.
    fn merge(&mut self) -> MctsResult<G::Move> {
        let mut stats = Stats::default();
        let (mut iterations, mut complete) = (0, true);
        for w in &self.workers {
            stats.nodes += w.stats.nodes;
            stats.leaves += w.stats.leaves;
            stats.interior += w.stats.interior;
            stats.depth = stats.depth.max(w.stats.depth);
            iterations += w.iterations;
            complete &= w.complete;
        }
        let (first, others) = self.workers.split_first_mut().expect("at least one thread");
        let root = first.tree.nodes[0];
        let sign = root.actor.sign();
        let (mut visits, mut sum) = (u64::from(root.visits), root.sum);
        first.fill_kids(0);
        let mut kids = std::mem::take(&mut first.kids);
        // Visit-weighted means over the other trees, move by move.
        for w in others.iter() {
            let r = w.tree.nodes[0];
            visits += u64::from(r.visits);
            sum += r.sum;
            for (j, c) in root.children().enumerate() {
                let mv = first.tree.nodes[c].mv.expect("a child has a move");
                if let Some(o) = w.tree.child(0, mv) {
                    let o = &w.tree.nodes[o];
                    let k = &mut kids[j];
                    let n = k.visits + u64::from(o.visits);
                    if n > 0 {
                        k.value = (k.value * k.visits as f64 + sign * o.value * f64::from(o.visits)) / n as f64;
                    }
                    k.visits = n;
                }
            }
        }
        let kind = if root.actor == Actor::Chance { NodeKind::Chance } else { NodeKind::Decision };
        let node = NodeStats { kind, visits, mean: sign * sum / visits.max(1) as f64 };
        let value = if others.is_empty() { sign * root.value } else { self.backup.value(&node, &kids) };
        let mut policy = Vec::new();
        let soft = self.backup.soft_policy(&kids, &mut policy);
        if !soft {
            policy = kids.iter().map(|k| k.visits as f64 / visits.max(1) as f64).collect();
        }
        let moves: Vec<G::Move> =
            root.children().map(|c| first.tree.nodes[c].mv.expect("a child has a move")).collect();
        let pick = match self.config.final_move {
            FinalMove::Visits => (0..kids.len()).max_by(|&a, &b| {
                kids[a].visits.cmp(&kids[b].visits).then(kids[a].value.total_cmp(&kids[b].value)).then(b.cmp(&a))
            }),
            FinalMove::Value => (0..kids.len()).filter(|&j| kids[j].visits > 0).max_by(|&a, &b| {
                kids[a].value.total_cmp(&kids[b].value).then(kids[a].visits.cmp(&kids[b].visits)).then(b.cmp(&a))
            }),
            FinalMove::Sample if !policy.is_empty() => Some(rng::sample_index(&policy, &mut first.rng)),
            FinalMove::Sample => None,
        };
        let root_moves = moves
            .iter()
            .zip(&kids)
            .zip(&policy)
            .map(|((&mv, k), &p)| MctsMove { mv, visits: k.visits, value: k.value, policy: p })
            .collect();
        // The principal variation: most visited children of the first tree.
        let mut pv = Vec::new();
        let mut at = 0;
        let nodes = &first.tree.nodes;
        while let Some(c) = nodes[at].children().filter(|&c| nodes[c].visits > 0).max_by_key(|&c| nodes[c].visits) {
            pv.push(nodes[c].mv.expect("a child has a move"));
            at = c;
        }
        first.kids = kids;
        MctsResult { best: pick.map(|j| moves[j]), value, root_moves, pv, iterations, reused: 0, stats, complete }
    }
}
