//! Fig. 4's tree: Rminimax on the subtree that alpha-beta actually visited,
//! built with a search [`Observer`] (no change to the search core, no game
//! wrapper).
//!
//! 1. Plain alpha-beta (the `Minimax` rule, [`Options::plain_alpha_beta`]
//!    with the game's move ordering, no table, no quiescence) searches the
//!    position to the look-ahead depth with a [`Subtree`] observer in
//!    *record* mode. The core calls [`Observer::node`] on every node it
//!    enters (horizon nodes included) and on no other, so the record is
//!    alpha-beta's visited tree; its size is checked against alpha-beta's own
//!    node count. A node is identified by its *path code* from the search
//!    root (the index of each move of the path among the moves its parent
//!    generates, as an exact base-8 code), so two paths to one position are
//!    two nodes, as in the search tree.
//! 2. Rminimax searches the position with the observer in *restrict* mode:
//!    at every player node ([`Observer::root_moves`] at the root,
//!    [`Observer::node_moves`] below) it keeps only the children whose path
//!    code was recorded. Every interior node alpha-beta entered had at least
//!    one child searched, so the kept list is never empty there; a node with
//!    no recorded child keeps all its moves (the observer may not remove
//!    them all), which for alpha-beta's horizon nodes never matters: the
//!    depth limit does not expand them.

use std::collections::HashSet;

use search_core::backup::Minimax;
use search_core::backup::rminimax::{CostModel, Rminimax};
use search_core::policy::{MoveDistribution, Softmax};
use search_core::search::{Bound, Limits, Observer, Options, Search};
use search_core::{Evaluator, Game, GameError, ParamError};

/// Moves are numbered `0..MAX_BRANCH - 1` in a path code (3 bits per ply).
const MAX_BRANCH: u64 = 7;

/// Recorded when a node has more than [`MAX_BRANCH`] moves (no path code is
/// this large: 21 plies of 3 bits fill 63 bits).
const TOO_WIDE: u64 = u64::MAX;

/// The most plies a path code can hold.
const MAX_PATH_PLIES: u32 = 21;

/// The path code of the child of the node coded `parent` reached by its
/// move number `index`: `Σ (move index + 1)·8^k`, 0 at the root. An index
/// of `MAX_BRANCH` (7, an unknown move) gives a code no real move has.
pub fn child_code(parent: u64, index: usize) -> u64 {
    parent.wrapping_mul(MAX_BRANCH + 1).wrapping_add(index as u64 + 1)
}

/// The moves of a node coded `code` whose child codes are in `codes`, in
/// their order (`moves` as the node generates them).
pub fn kept_children<M: Copy>(codes: &HashSet<u64>, code: u64, moves: &[M]) -> Vec<M> {
    moves.iter().enumerate().filter(|&(i, _)| codes.contains(&child_code(code, i))).map(|(_, &m)| m).collect()
}

/// One node of the current path: how it was reached, its state, its code
/// and its moves as generated.
#[derive(Debug)]
struct Frame<G: Game> {
    mv: Option<G::Move>,
    state: G,
    code: u64,
    moves: Vec<G::Move>,
}

impl<G: Game> Frame<G> {
    fn new(mv: Option<G::Move>, state: G, code: u64) -> Self {
        let mut moves = Vec::new();
        state.generate(&mut moves);
        Frame { mv, state, code, moves }
    }
}

/// What a [`Subtree`] observer does with path codes.
#[derive(Debug)]
enum Mode {
    /// Record the code of every node the search enters.
    Record,
    /// Keep only the children whose code is in the set.
    Restrict,
}

/// An observer that knows the path code of every node a search enters, and
/// records them or restricts the search to recorded ones. See the
/// [module documentation](self).
#[derive(Debug)]
pub struct Subtree<G: Game> {
    mode: Mode,
    codes: HashSet<u64>,
    /// The nodes from the root to the last node entered (`frames[k]` is
    /// reached by the first `k` moves of its path).
    frames: Vec<Frame<G>>,
}

impl<G: Game> Subtree<G> {
    /// Records every node entered.
    pub fn record() -> Self {
        Subtree { mode: Mode::Record, codes: HashSet::new(), frames: Vec::new() }
    }

    /// Restricts the search to the children recorded in `codes`.
    pub fn restrict(codes: HashSet<u64>) -> Self {
        Subtree { mode: Mode::Restrict, codes, frames: Vec::new() }
    }

    /// The recorded codes (with `TOO_WIDE`, `u64::MAX`, if a node had too many moves).
    pub fn into_codes(self) -> HashSet<u64> {
        self.codes
    }

    /// Brings [`frames`](Self::frames) to the node at the end of `path`
    /// (whose state is `state`) and returns its frame. In the search's
    /// depth-first order the parent is the last frame but one, so this
    /// replays at most one move; after a jump elsewhere it replays the
    /// moves that differ from the previous path.
    fn sync(&mut self, path: &[G::Move], state: &G) -> &Frame<G> {
        if path.is_empty() {
            self.frames.clear();
            self.frames.push(Frame::new(None, state.clone(), 0));
            return &self.frames[0];
        }
        // frames[0] is the root; frames[k] matches if reached by path[k - 1].
        let mut same = 0;
        while same < path.len() && same + 1 < self.frames.len() && self.frames[same + 1].mv == Some(path[same]) {
            same += 1;
        }
        self.frames.truncate(same + 1);
        for k in same..path.len() {
            let parent = &self.frames[k];
            let mv = path[k];
            let index = parent.moves.iter().position(|&m| m == mv).unwrap_or(MAX_BRANCH as usize);
            let code = child_code(parent.code, index);
            let child = if k + 1 == path.len() {
                state.clone()
            } else {
                let mut c = parent.state.clone();
                c.play(mv);
                c
            };
            self.frames.push(Frame::new(Some(mv), child, code));
        }
        &self.frames[path.len()]
    }

    /// Keeps the moves of `frame`'s node whose children were recorded (all
    /// of them if none was), in their order in `moves`.
    fn restrict_moves(codes: &HashSet<u64>, frame: &Frame<G>, moves: &mut Vec<G::Move>) {
        let kept = kept_children(codes, frame.code, &frame.moves);
        if !kept.is_empty() {
            moves.retain(|mv| kept.contains(mv));
        }
    }
}

impl<G: Game> Observer<G> for Subtree<G> {
    fn traces_nodes(&self) -> bool {
        true
    }

    fn node(&mut self, path: &[G::Move], state: &G) {
        let frame = self.sync(path, state);
        let (code, wide) = (frame.code, frame.moves.len() as u64 > MAX_BRANCH);
        if let Mode::Record = self.mode {
            self.codes.insert(code);
            if wide {
                self.codes.insert(TOO_WIDE);
            }
        }
    }

    fn root_moves(&mut self, state: &G, _depth: u32, moves: &mut Vec<G::Move>) {
        if let Mode::Restrict = self.mode {
            self.sync(&[], state);
            Self::restrict_moves(&self.codes, &self.frames[0], moves);
        }
    }

    fn node_moves(&mut self, path: &[G::Move], state: &G, moves: &mut Vec<G::Move>) {
        if let Mode::Restrict = self.mode {
            self.sync(path, state);
            Self::restrict_moves(&self.codes, &self.frames[path.len()], moves);
        }
    }
}

/// What alpha-beta visited below `root` with a `depth`-ply look-ahead:
/// the recorded path codes, and alpha-beta's result (value, best move,
/// node count) on the same tree.
#[derive(Debug)]
pub struct Visited<M> {
    /// The path codes of the visited nodes.
    pub codes: HashSet<u64>,
    /// Alpha-beta's root value (the root mover's view).
    pub value: f64,
    /// Alpha-beta's best move.
    pub best: Option<M>,
    /// Nodes alpha-beta counted (equal to `codes.len()`).
    pub nodes: u64,
}

/// Runs plain alpha-beta with `eval` to `depth` plies on `root` and records
/// the visited nodes.
///
/// Errors: a node with more than 7 moves or a depth above 21 (the path code
/// would not be exact); a search error; a recorded set whose size differs
/// from alpha-beta's own node count (the observer would be wrong).
pub fn alpha_beta_visited<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: E,
    depth: u32,
) -> Result<Visited<G::Move>, GameError> {
    if depth > MAX_PATH_PLIES {
        return Err(ParamError::new("depth", format!("at most {MAX_PATH_PLIES} plies for exact path codes")).into());
    }
    let mut record = Subtree::record();
    let options = Options::plain_alpha_beta().with_game_ordering(true);
    let r = Search::new(Minimax, eval, options)?.run_observed(root, &Limits::depth(depth), &mut record)?;
    let codes = record.into_codes();
    if codes.contains(&TOO_WIDE) {
        return Err(ParamError::new("branching", format!("a node has more than {MAX_BRANCH} moves")).into());
    }
    if codes.len() as u64 != r.stats.nodes {
        return Err(ParamError::new(
            "observer",
            format!("recorded {} nodes, alpha-beta counted {}", codes.len(), r.stats.nodes),
        )
        .into());
    }
    let value = r.value.ok_or_else(|| ParamError::new("search", "alpha-beta did not complete"))?;
    Ok(Visited { codes, value, best: r.best, nodes: r.stats.nodes })
}

/// The Rminimax player's move distribution at `root` (θ, `costs`, full
/// width to `depth` plies) on the subtree recorded in `codes`: what
/// [`rminimax_agent`](search_core::policy::rminimax_agent)'s `distribution`
/// gives on the full tree, with the search restricted by a [`Subtree`]
/// observer. Root moves in search (generation) order.
///
/// Errors: θ out of its domain; a search error; invalid arc costs (NaN
/// scores); an incomplete search.
pub fn restricted_distribution<G, E, C>(
    root: &G,
    codes: HashSet<u64>,
    theta: f64,
    costs: C,
    eval: E,
    depth: u32,
) -> Result<Vec<(G::Move, f64)>, GameError>
where
    G: Game,
    E: Evaluator<G>,
    C: CostModel,
{
    let rule = Rminimax::with_costs(theta, costs)?;
    let mut search = Search::new(rule, eval, Options::full_width())?;
    let r = search.run_observed(root, &Limits::depth(depth), &mut Subtree::restrict(codes))?;
    if r.root_moves.iter().any(|m| m.score.is_nan()) {
        return Err(ParamError::new("costs", "an arc cost is negative or not finite").into());
    }
    if r.root_moves.iter().any(|m| m.bound != Bound::Exact) || !r.complete {
        return Err(ParamError::new("options", "a policy needs exact root scores").into());
    }
    if r.root_moves.is_empty() {
        return Err(GameError::GameOver);
    }
    let mut probs = Vec::new();
    Softmax::new(theta)?.distribution(&r.scores(), &mut probs)?;
    Ok(r.root_moves.iter().map(|m| m.mv).zip(probs).collect())
}
