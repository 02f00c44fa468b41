//! Fig. 4's tree: Rminimax on the subtree that alpha-beta actually visited,
//! built with a game wrapper (no change to the search core).
//!
//! 1. Plain alpha-beta (the `Minimax` rule, [`Options::plain_alpha_beta`]
//!    with the game's move ordering, no table, no quiescence) searches a
//!    [`PathGame`] in *record* mode to the look-ahead depth. A node is
//!    *visited* iff the search calls its `generate` (the core calls it on
//!    every node it enters and on no other; at the horizon it skips it only
//!    for games that answer `quick_status`, which the wrapper never does).
//!    The recorded count is checked against alpha-beta's own. The
//!    wrapper identifies a node by its *path code* from the search root (the
//!    moves so far, an exact base-8 code, so two paths to one position are
//!    two nodes, as in the search tree) and records the code.
//! 2. Rminimax searches a [`PathGame`] in *restrict* mode: its `generate`
//!    keeps only the children whose path code was recorded. Every interior
//!    node alpha-beta entered had at least one child searched, so the kept
//!    list is never empty there; at the horizon (where alpha-beta entered the
//!    node but searched no child) the full list is returned, which the depth
//!    limit never expands.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::rc::Rc;

use search_core::backup::Minimax;
use search_core::search::{Options, Search};
use search_core::{Evaluator, Game, GameError, Outcome, ParamError, Perspective, Player, Status, Turn};

/// Moves are numbered `0..MAX_BRANCH - 1` in a path code (3 bits per ply).
const MAX_BRANCH: u64 = 7;

/// What a [`PathGame`] does with path codes.
#[derive(Debug)]
pub(crate) enum PathLog {
    /// Record the code of every node whose `generate` is called.
    Record(RefCell<HashSet<u64>>),
    /// Keep only the children whose code is in the set.
    Restrict(HashSet<u64>),
}

/// A game wrapper that knows the path from the search root. See the
/// [module documentation](self).
#[derive(Debug, Clone)]
pub(crate) struct PathGame<G> {
    inner: G,
    /// The path code: `Σ (move index + 1)·8^k`, 0 at the root.
    path: u64,
    log: Rc<PathLog>,
}

/// Recorded when a node has more than [`MAX_BRANCH`] moves (no path code is
/// this large: 21 plies of 3 bits fill 63 bits).
const TOO_WIDE: u64 = u64::MAX;

/// The most plies a path code can hold.
const MAX_PATH_PLIES: u32 = 21;

impl<G: Game> PathGame<G> {
    /// The root of a search of `inner`.
    pub(crate) fn root(inner: G, log: Rc<PathLog>) -> Self {
        PathGame { inner, path: 0, log }
    }

    /// The path code of this node.
    #[cfg(test)]
    pub(crate) fn path(&self) -> u64 {
        self.path
    }

    /// The index of `mv` among the inner game's moves here (the code is by
    /// index, so it works for any move type).
    fn index_of(&self, mv: G::Move) -> Option<u64> {
        let mut moves = Vec::new();
        self.inner.generate(&mut moves);
        moves.iter().position(|&m| m == mv).map(|i| i as u64)
    }

    fn child_code(&self, index: u64) -> u64 {
        self.path * (MAX_BRANCH + 1) + index + 1
    }
}

impl<G: Game> Game for PathGame<G> {
    type Move = G::Move;
    fn turn(&self) -> Turn {
        self.inner.turn()
    }
    fn generate(&self, moves: &mut Vec<G::Move>) -> Status {
        let status = self.inner.generate(moves);
        match &*self.log {
            PathLog::Record(seen) => {
                let mut seen = seen.borrow_mut();
                seen.insert(self.path);
                if moves.len() as u64 > MAX_BRANCH {
                    seen.insert(TOO_WIDE);
                }
            }
            PathLog::Restrict(keep) => {
                if status == Status::Ongoing {
                    let kept: Vec<G::Move> = moves
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| keep.contains(&self.child_code(i as u64)))
                        .map(|(_, &m)| m)
                        .collect();
                    if !kept.is_empty() {
                        *moves = kept;
                    }
                }
            }
        }
        status
    }
    fn play(&mut self, mv: G::Move) {
        // An unknown move (never produced by `generate`) gets the code of an
        // index no real move has, so it is never in a recorded set.
        let index = self.index_of(mv).unwrap_or(MAX_BRANCH);
        self.path = self.child_code(index);
        self.inner.play(mv);
    }
    fn write_move(&self, mv: G::Move, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.write_move(mv, f)
    }
    fn parse_move(&self, text: &str) -> Result<G::Move, GameError> {
        self.inner.parse_move(text)
    }
    /// Deliberately `None` (not the inner game's answer): the search must
    /// call [`generate`](Game::generate) on every node it enters, horizon
    /// nodes included, for the record to be complete.
    fn quick_status(&self) -> Option<Status> {
        None
    }
    fn hash_key(&self) -> Option<u64> {
        self.inner.hash_key().map(|h| search_core::rng::splitmix64(h ^ self.path))
    }
    fn order_hint(&self, mv: G::Move) -> i32 {
        self.inner.order_hint(mv)
    }
}

/// An evaluator of the wrapped game, for the wrapper.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathEval<E>(pub(crate) E);

impl<G: Game, E: Evaluator<G>> Evaluator<PathGame<G>> for PathEval<E> {
    const PERSPECTIVE: Perspective = E::PERSPECTIVE;
    fn evaluate(&self, state: &PathGame<G>) -> f64 {
        self.0.evaluate(&state.inner)
    }
    fn terminal_value(&self, outcome: Outcome, player: Player, ply: u32) -> f64 {
        self.0.terminal_value(outcome, player, ply)
    }
    fn noisy_moves(&self, state: &PathGame<G>, out: &mut Vec<G::Move>) {
        self.0.noisy_moves(&state.inner, out);
    }
    fn bounds(&self) -> Option<(f64, f64)> {
        self.0.bounds()
    }
    fn node_bounds(&self, state: &PathGame<G>, player: Player, ply: u32) -> Option<(f64, f64)> {
        self.0.node_bounds(&state.inner, player, ply)
    }
}

/// What alpha-beta visited below `root` with a `depth`-ply look-ahead:
/// the recorded path codes, and alpha-beta's result (value, best move,
/// node count) on the same tree.
#[derive(Debug)]
#[cfg_attr(not(test), allow(dead_code))] // value and best: checked by the tests
pub(crate) struct Visited<M> {
    /// The path codes of the visited nodes.
    pub(crate) codes: HashSet<u64>,
    /// Alpha-beta's root value (the root mover's view).
    pub(crate) value: f64,
    /// Alpha-beta's best move.
    pub(crate) best: Option<M>,
    /// Nodes alpha-beta counted (equal to `codes.len()`).
    pub(crate) nodes: u64,
}

/// Runs plain alpha-beta with `eval` to `depth` plies on `root` and records
/// the visited nodes.
///
/// Errors: a node with more than 7 moves or a depth above 21 (the path code
/// would not be exact); a search error; a recorded set whose size differs
/// from alpha-beta's own node count (the wrapper would be wrong).
pub(crate) fn alpha_beta_visited<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: E,
    depth: u32,
) -> Result<Visited<G::Move>, GameError> {
    if depth > MAX_PATH_PLIES {
        return Err(ParamError::new("depth", format!("at most {MAX_PATH_PLIES} plies for exact path codes")).into());
    }
    let log = Rc::new(PathLog::Record(RefCell::new(HashSet::new())));
    let game = PathGame::root(root.clone(), Rc::clone(&log));
    let options = Options { game_ordering: true, ..Options::plain_alpha_beta() };
    let r = Search::new(Minimax, PathEval(eval), options).depth(depth).run(&game)?;
    drop(game);
    let codes = match Rc::try_unwrap(log) {
        Ok(PathLog::Record(seen)) => seen.into_inner(),
        _ => return Err(ParamError::new("wrapper", "the path log is still shared after the search").into()),
    };
    if codes.contains(&TOO_WIDE) {
        return Err(ParamError::new("branching", format!("a node has more than {MAX_BRANCH} moves")).into());
    }
    if codes.len() as u64 != r.stats.nodes {
        return Err(ParamError::new(
            "wrapper",
            format!("recorded {} nodes, alpha-beta counted {}", codes.len(), r.stats.nodes),
        )
        .into());
    }
    Ok(Visited { codes, value: r.value, best: r.best, nodes: r.stats.nodes })
}

/// The root of the restricted tree: alpha-beta's visited subtree of `root`.
pub(crate) fn restricted_root<G: Game>(root: &G, codes: HashSet<u64>) -> PathGame<G> {
    PathGame::root(root.clone(), Rc::new(PathLog::Restrict(codes)))
}
