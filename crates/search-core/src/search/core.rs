//! The one recursive search. Every driver (minimax, alpha-beta, PVS,
//! expectiminimax with Star pruning, IOM, PIOM, the soft rules) is this code
//! with a different rule and options.

mod chance;

use std::mem::take;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use smallvec::SmallVec;

use crate::backup::{Affine, Backup, BackupValue, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, MAX_PLY};
use crate::game::{Game, Outcome, Player, Status, Turn};
use crate::rng;
use crate::search::busy;
use crate::search::ordering::{TT_MOVE_KEY, Tried};
use crate::search::tt::TtMove;
use crate::search::{
    Control, DepthUnit, Incomplete, Iteration, Limits, Observer, Options, Probe, RootMove, Search, SearchResult, Stats,
    TtDepth,
};
use crate::window::{Bound, Window};

/// Remaining depth used for "no depth limit".
const UNLIMITED: i32 = i32::MAX / 4;

/// How often (in nodes) the clock and the stop flag are polled.
const POLL_MASK: u64 = 1023;

/// Per-ply scratch buffers, reused across nodes: once they have grown, the
/// search allocates nothing per node.
#[derive(Debug)]
pub(crate) struct PlyBuffers<M> {
    moves: Vec<M>,
    ordered: Vec<M>,
    qmoves: Vec<M>,
    keys: Vec<(i64, u32)>,
    scores: Vec<(f64, u32)>,
    probs: Vec<f64>,
    child_bounds: Vec<(f64, f64)>,
    pv: Vec<M>,
}

impl<M> Default for PlyBuffers<M> {
    fn default() -> Self {
        PlyBuffers {
            moves: Vec::new(),
            ordered: Vec::new(),
            qmoves: Vec::new(),
            keys: Vec::new(),
            scores: Vec::new(),
            probs: Vec::new(),
            child_bounds: Vec::new(),
            pv: Vec::new(),
        }
    }
}

/// Runs one search (iterative deepening or a single depth) of `s` from
/// `root`. The node loop is monomorphised twice: with `FULL = false` when
/// every per-node feature that costs a test (tracing, an oracle,
/// quiescence, forward pruning, beam, check extensions, late move
/// reductions and pruning, futility, the history's malus, Lazy SMP's busy
/// table) is off, so that those tests compile away, and with `FULL = true`
/// otherwise. The choice is made once, here, from the search's options.
pub(crate) fn run<G: Game, R: Backup, E: Evaluator<G>, O: Observer<G> + ?Sized>(
    s: &mut Search<G, R, E>,
    limits: &Limits,
    observer: &mut O,
    root: &G,
    window: Window,
) -> Result<SearchResult<G::Move, R::Value>, GameError> {
    let o = &s.options;
    let lean = !observer.traces_nodes()
        && s.oracle.is_none()
        && s.busy.is_none()
        && !o.quiescence
        && o.null_move.is_none()
        && o.probcut.is_none()
        && o.beam.is_none()
        && o.lmr.is_none()
        && !o.check_extension
        && o.futility.is_none()
        && o.reverse_futility.is_none()
        && o.late_move_pruning.is_none()
        && !o.history_malus;
    if lean {
        Core::<G, R, E, O, false>::new(s, limits, observer).run(root, window)
    } else {
        Core::<G, R, E, O, true>::new(s, limits, observer).run(root, window)
    }
}

/// The search's state. `FULL`: the per-node features may be on (see
/// [`run`]); when false, their tests are constants and compile away.
pub(crate) struct Core<'s, G: Game, R: Backup, E: Evaluator<G>, O: Observer<G> + ?Sized, const FULL: bool> {
    s: &'s mut Search<G, R, E>,
    limits: &'s Limits,
    observer: &'s mut O,
    /// The observer wants every node (and the path to it).
    trace: bool,
    /// The moves from the root to the current node (kept only when tracing).
    path: Vec<G::Move>,
    /// An error found during the search (a NaN value, bad chance
    /// probabilities); the search stops as if aborted and returns it.
    error: Option<GameError>,
    /// Some node was cut at [`MAX_PLY`] before the depth asked for.
    max_ply_hit: bool,
    /// The depth asked for is beyond [`MAX_PLY`] (or unlimited): a horizon
    /// at `MAX_PLY` is a cut, not the requested horizon.
    beyond_max_ply: bool,
    opts: Options,
    /// Windows are used (the rule allows pruning and it is switched on).
    prunes: bool,
    /// The rule is plain negamax: the classical engine features apply.
    negamax: bool,
    tt_depth: TtDepth,
    start: Instant,
    stats: Stats,
    aborted: bool,
    /// Some node of the current iteration stopped at the depth limit.
    hit_horizon: bool,
    root_player: Player,
    plies: Vec<PlyBuffers<G::Move>>,
    root_moves: Vec<RootMove<G::Move>>,
    rng: rng::Rng,
    /// The smallest value that counts as a proven win.
    win_threshold: f64,
    /// Terminal values depend on the ply (mate distance): adjust them in
    /// the transposition table.
    ply_adjusted: bool,
    bounds: Option<(f64, f64)>,
    /// The node limit, `u64::MAX` if none.
    node_limit: u64,
    /// The depth of the current iteration: check extensions stop at twice
    /// this many plies from the root.
    root_depth: i32,
}

impl<'s, G: Game, R: Backup, E: Evaluator<G>, O: Observer<G> + ?Sized, const FULL: bool> Core<'s, G, R, E, O, FULL> {
    /// Player nodes below the root are searched by
    /// [`minimax_node`](Self::minimax_node) when the search prunes: the rule
    /// is minimax ([`Backup::IS_MINIMAX`]) and the node loop is the lean one.
    const MINIMAX_NODES: bool = !FULL && R::IS_MINIMAX;

    fn new(s: &'s mut Search<G, R, E>, limits: &'s Limits, observer: &'s mut O) -> Self {
        let pruning = R::PRUNING;
        let opts = s.options.clone();
        let prunes = opts.alpha_beta && pruning != Pruning::None;
        let negamax = prunes && pruning == Pruning::Negamax;
        let tt_depth = if negamax { opts.tt_depth } else { TtDepth::Exact };
        let win = |ply| s.eval.terminal_value(Outcome::Win(Player::First), Player::First, ply);
        let win_threshold = win(MAX_PLY);
        let ply_adjusted = win(0) != win(1);
        let bounds = s.eval.bounds();
        let plies = take(&mut s.scratch);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        s.ordering.set_heuristics(prunes && opts.killers, prunes && opts.history);
        let trace = observer.traces_nodes();
        Core {
            rng: rng::seeded(opts.seed),
            s,
            limits,
            observer,
            trace,
            path: Vec::new(),
            error: None,
            max_ply_hit: false,
            beyond_max_ply: limits.depth.is_none_or(|d| d > MAX_PLY),
            opts,
            prunes,
            negamax,
            tt_depth,
            start: Instant::now(),
            stats: Stats::default(),
            aborted: false,
            hit_horizon: false,
            root_player: Player::First,
            plies,
            root_moves: Vec::new(),
            win_threshold,
            ply_adjusted,
            bounds,
            node_limit,
            root_depth: 0,
        }
    }

    /// Iterative deepening (or a single search) within the limits.
    fn run(mut self, root: &G, root_window: Window) -> Result<SearchResult<G::Move, R::Value>, GameError> {
        self.root_player = root.turn().player().unwrap_or(Player::First);
        let max_depth = self.limits.clamped_depth().map(|d| d as i32);
        let deepening = self.opts.iterative_deepening && (max_depth.is_some() || self.limits.has_soft_limits());
        let (mut depth, last) = match (deepening, max_depth) {
            (true, Some(d)) => (1, d),
            (true, None) => (1, MAX_PLY as i32),
            (false, Some(d)) => (d, d),
            (false, None) => (UNLIMITED, UNLIMITED),
        };
        let mut best: Option<SearchResult<G::Move, R::Value>> = None;
        loop {
            self.hit_horizon = false;
            let previous = best.as_ref().and_then(|b| b.value);
            match self.iteration(root, depth, previous, root_window) {
                Some(mut r) => {
                    r.stats.depth = depth.min(MAX_PLY as i32) as u32;
                    let control = self.observer.iteration(&Iteration {
                        depth: r.stats.depth,
                        value: r.value.unwrap_or(f64::NAN),
                        best: r.best,
                        pv: &r.pv,
                        root_moves: &r.root_moves,
                        stats: Stats { depth: r.stats.depth, micros: self.micros(), ..self.stats },
                        elapsed: self.start.elapsed(),
                        solved: !self.hit_horizon && !self.max_ply_hit,
                    });
                    best = Some(r);
                    if control == Control::Stop {
                        break;
                    }
                }
                None => break,
            }
            if depth >= last || (!self.hit_horizon && !R::LEAF_DEPENDS_ON_DEPTH) {
                break;
            }
            depth += 1;
        }
        self.s.scratch = take(&mut self.plies);
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let mut result = match best {
            Some(r) => r,
            None => self.partial_result(root),
        };
        result.incomplete = if self.aborted {
            Some(Incomplete::Stopped)
        } else if self.max_ply_hit {
            Some(Incomplete::MaxPly)
        } else {
            None
        };
        result.complete = result.incomplete.is_none();
        self.stats.depth = result.stats.depth;
        self.stats.micros = self.micros();
        result.stats = self.stats;
        Ok(result)
    }

    fn micros(&self) -> u64 {
        self.start.elapsed().as_micros().min(u128::from(u64::MAX)) as u64
    }

    /// One root search at `depth`, with aspiration windows where they apply.
    fn iteration(
        &mut self,
        root: &G,
        depth: i32,
        previous: Option<f64>,
        root_window: Window,
    ) -> Option<SearchResult<G::Move, R::Value>> {
        let mut delta = self.opts.aspiration.filter(|_| self.negamax && depth > 1 && root_window.is_full());
        let mut window = match (delta, previous) {
            (Some(d), Some(p)) if p.is_finite() && p.abs() < self.win_threshold => Window::new(p - d, p + d),
            _ if self.prunes => root_window,
            _ => Window::FULL,
        };
        self.root_depth = depth;
        loop {
            self.root_moves.clear();
            let value = self.search(root, depth, 0, window)?;
            let x = value.scalar();
            let widen = |d: &mut Option<f64>| {
                let w = d.unwrap_or(1.0) * 4.0;
                *d = Some(w);
                w
            };
            // Only an aspiration window is widened and searched again; a
            // window from the caller (`run_with_window`) is not: a value
            // outside it is the fail-soft bound the caller asked for.
            let aspirating = root_window.is_full();
            if aspirating && x <= window.alpha && window.alpha > f64::NEG_INFINITY {
                let w = widen(&mut delta);
                window.alpha = if x - w > -self.win_threshold { x - w } else { f64::NEG_INFINITY };
                continue;
            }
            if aspirating && x >= window.beta && window.beta < f64::INFINITY {
                let w = widen(&mut delta);
                window.beta = if x + w < self.win_threshold { x + w } else { f64::INFINITY };
                continue;
            }
            return Some(self.result(Some(value)));
        }
    }

    fn result(&self, value: Option<R::Value>) -> SearchResult<G::Move, R::Value> {
        let best_score = self.root_moves.iter().map(|m| m.score).fold(f64::NEG_INFINITY, f64::max);
        let best = self.root_moves.iter().find(|m| m.score == best_score).map(|m| m.mv);
        let best_moves =
            self.root_moves.iter().filter(|m| m.score == best_score && m.bound == Bound::Exact).map(|m| m.mv).collect();
        SearchResult {
            value: value.map(|v| v.scalar()),
            rule_value: value,
            best,
            best_moves,
            root_moves: self.root_moves.clone(),
            pv: self.plies.first().map(|p| p.pv.clone()).unwrap_or_default(),
            stats: self.stats,
            complete: true,
            incomplete: None,
            from_book: false,
        }
    }

    /// The result when even the first iteration was stopped: the best root
    /// move searched so far, or the first legal move; no value.
    fn partial_result(&self, root: &G) -> SearchResult<G::Move, R::Value> {
        if !self.root_moves.is_empty() {
            let mut r = self.result(None);
            r.best_moves.clear();
            r.pv = r.best.into_iter().collect();
            return r;
        }
        let mut moves = Vec::new();
        root.generate(&mut moves);
        let mut r = self.result(None);
        r.best = moves.first().copied();
        r.pv = r.best.into_iter().collect();
        r
    }

    fn poll_limits(&mut self) {
        if self.stats.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.stats.nodes & POLL_MASK == 0 {
            let limits = self.limits;
            if limits.time.is_some_and(|t| self.start.elapsed() >= t) {
                self.aborted = true;
            }
            if limits.stop.as_ref().is_some_and(|f| f.load(AtomicOrdering::Relaxed)) {
                self.aborted = true;
            }
        }
    }

    /// Records an error and stops the search.
    #[cold]
    fn fail(&mut self, error: GameError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
        self.aborted = true;
    }

    /// The rule's value made from a number (a table hit, a bound). Rules
    /// that prune have exact conversions (checked when the search is
    /// built).
    #[inline]
    fn value_of(&mut self, x: f64) -> Option<R::Value> {
        let v = R::Value::from_scalar(x);
        if v.is_none() {
            self.fail(ParamError::new("rule", "the rule's value type cannot be made from a number").into());
        }
        v
    }

    /// The static value of `state`, checked: NaN stops the search with an
    /// error naming the state. Runs at every leaf: only the check is here,
    /// the error is built out of line.
    #[inline(always)]
    fn evaluate(&mut self, state: &G, perspective: Player) -> Option<f64> {
        let v = self.s.eval.evaluate_for(state, perspective);
        if v.is_nan() {
            self.fail_nan(state);
            return None;
        }
        Some(v)
    }

    /// Stops the search on a NaN static value of `state`.
    #[cold]
    #[inline(never)]
    fn fail_nan(&mut self, state: &G) {
        self.fail(GameError::InvalidValue {
            what: "static evaluation",
            state: GameError::shorten(&format!("{state:?}")),
        });
    }

    fn ensure_ply(&mut self, p: usize) {
        if self.plies.len() <= p + 1 {
            self.plies.resize_with(p + 2, PlyBuffers::default);
        }
    }

    #[inline]
    fn perspective(turn: Turn) -> Player {
        turn.player().unwrap_or(Player::First)
    }

    /// The remaining depth of a child of a node of `turn` with `depth` left.
    #[inline]
    fn child_depth(&self, turn: Turn, depth: i32) -> i32 {
        if turn == Turn::Chance && self.opts.depth_unit == DepthUnit::Decisions { depth } else { depth - 1 }
    }

    /// Mate-distance values are stored relative to the node, not the root.
    fn value_to_tt(&self, x: f64, ply: u32) -> f64 {
        if self.ply_adjusted && x.abs() >= self.win_threshold { x + x.signum() * f64::from(ply) } else { x }
    }

    fn tt_to_value(&self, x: f64, ply: u32) -> f64 {
        if self.ply_adjusted && x.abs() >= self.win_threshold { x - x.signum() * f64::from(ply) } else { x }
    }

    /// Searches `child` (reached by `mv`) below the current node, keeping
    /// the path when the observer traces nodes.
    #[inline]
    fn search_child(&mut self, mv: G::Move, child: &G, depth: i32, ply: u32, window: Window) -> Option<R::Value> {
        if FULL && self.trace {
            self.path.push(mv);
            let v = self.search(child, depth, ply, window);
            self.path.pop();
            v
        } else {
            self.search(child, depth, ply, window)
        }
    }

    /// The recursive search: the value of `state` with `depth` plies left,
    /// `ply` plies below the root, within `window` (used only when the rule
    /// prunes). `None` if a limit stopped the search.
    fn search(&mut self, state: &G, depth: i32, ply: u32, window: Window) -> Option<R::Value> {
        self.stats.nodes += 1;
        self.poll_limits();
        if self.aborted {
            return None;
        }
        if FULL && self.trace {
            self.observer.node(&self.path, state);
        }
        let p = ply as usize;
        self.ensure_ply(p);
        self.plies[p].pv.clear();
        let turn = state.turn();
        let perspective = Self::perspective(turn);
        if Self::MINIMAX_NODES && ply > 0 && self.prunes && turn != Turn::Chance {
            return self.minimax_node(state, depth, ply, window, perspective).and_then(|x| self.value_of(x));
        }
        let root_player = self.root_player;
        // Built where it is used: a leaf's copy is then only registers (the
        // rules' `leaf` rarely reads it), not seven stores on every node.
        let node_info =
            |children| NodeInfo { turn, perspective, root_player, ply, depth, static_value: None, children };
        let at_horizon = depth <= 0 || ply >= MAX_PLY;
        // If the game can tell its status without generating moves, the
        // moves are generated only when needed: never at a leaf, and at an
        // interior node only after the table and forward pruning have had
        // their chance to cut.
        let quick = state.quick_status();
        match quick {
            Some(Status::Over(outcome)) => return self.leaf(state, &node_info(0), Some(outcome), window),
            Some(Status::Ongoing) => {
                if FULL
                    && ply > 0
                    && self.s.oracle.is_some()
                    && let Some(v) = self.probe_oracle(state, &node_info(0))
                {
                    return v;
                }
                if at_horizon {
                    return self.leaf(state, &node_info(0), None, window);
                }
            }
            None => {}
        }
        let mut moves = take(&mut self.plies[p].moves);
        moves.clear();
        let status = match quick {
            Some(status) => status,
            None => state.generate(&mut moves),
        };
        let mut node = node_info(moves.len());
        if FULL
            && quick.is_none()
            && ply > 0
            && status == Status::Ongoing
            && self.s.oracle.is_some()
            && let Some(v) = self.probe_oracle(state, &node)
        {
            self.plies[p].moves = moves;
            return v;
        }
        let result = match status {
            Status::Over(outcome) => self.leaf(state, &node, Some(outcome), window),
            Status::Ongoing if at_horizon => self.leaf(state, &node, None, window),
            Status::Ongoing => self.expand(state, &mut node, &mut moves, quick.is_none(), window),
        };
        self.plies[p].moves = moves;
        result
    }

    /// A player node below the root, searched by alpha-beta for a
    /// [`Minimax`](crate::backup::Minimax)-form rule (see [`MINIMAX_NODES`](Self::MINIMAX_NODES)):
    /// the generic path's table, ordering, PVS, killers and history, cut-offs
    /// and principal variation, without the rule's calls, the affine windows,
    /// chance nodes and root bookkeeping. Same values, nodes and moves as
    /// the generic path (checked by the tests that compare it with the
    /// generic path on random trees with ties).
    fn minimax_node(&mut self, state: &G, depth: i32, ply: u32, window: Window, perspective: Player) -> Option<f64> {
        let at_horizon = depth <= 0 || ply >= MAX_PLY;
        let quick = state.quick_status();
        match quick {
            Some(Status::Over(outcome)) => return Some(self.terminal(perspective, ply, outcome)),
            Some(Status::Ongoing) if at_horizon => return self.horizon(state, perspective, ply, depth),
            _ => {}
        }
        let p = ply as usize;
        let mut moves = take(&mut self.plies[p].moves);
        moves.clear();
        let status = match quick {
            Some(status) => status,
            None => state.generate(&mut moves),
        };
        let result = match status {
            Status::Over(outcome) => Some(self.terminal(perspective, ply, outcome)),
            Status::Ongoing if at_horizon => self.horizon(state, perspective, ply, depth),
            Status::Ongoing => self.minimax_expand(state, depth, ply, window, perspective, &mut moves, quick.is_none()),
        };
        self.plies[p].moves = moves;
        result
    }

    /// The principal variation at ply `p`: `mv`, then the child's (ply `p + 1`).
    #[inline(always)]
    fn set_pv(&mut self, p: usize, mv: G::Move) {
        let (head, tail) = self.plies.split_at_mut(p + 1);
        let pv = &mut head[p].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// The value of a finished game at a minimax node.
    #[inline(always)]
    fn terminal(&mut self, perspective: Player, ply: u32, outcome: Outcome) -> f64 {
        self.stats.leaves += 1;
        self.s.eval.terminal_value(outcome, perspective, ply)
    }

    /// The static value at a minimax node on the horizon.
    #[inline(always)]
    fn horizon(&mut self, state: &G, perspective: Player, ply: u32, depth: i32) -> Option<f64> {
        self.stats.leaves += 1;
        self.hit_horizon = true;
        if ply >= MAX_PLY && (depth > 0 || self.beyond_max_ply) {
            self.max_ply_hit = true;
        }
        self.evaluate(state, perspective)
    }

    /// An interior minimax node: [`expand`](Self::expand) and
    /// [`player_node`](Self::player_node) for the options a lean search
    /// allows, with the maximum kept by the core.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn minimax_expand(
        &mut self,
        state: &G,
        depth: i32,
        ply: u32,
        window: Window,
        perspective: Player,
        moves: &mut Vec<G::Move>,
        generated: bool,
    ) -> Option<f64> {
        self.stats.interior += 1;
        let p = ply as usize;
        let mut window = window;
        if let Some((lo, hi)) = self.s.eval.node_bounds(state, perspective, ply) {
            if hi <= window.alpha || lo >= window.beta || lo == hi {
                self.stats.cutoffs += 1;
                return Some(if lo >= window.beta || lo == hi { lo } else { hi });
            }
            window = Window::new(window.alpha.max(lo.next_down()), window.beta.min(hi.next_up()));
        }
        let key = if self.s.tt.is_some() { state.hash_key() } else { None };
        let tt_move = match self.probe_table(key, depth, ply, window) {
            Ok(mv) => mv,
            Err(cut) => return Some(cut),
        };
        if !generated {
            let status = state.generate(moves);
            debug_assert_eq!(status, Status::Ongoing, "quick_status and generate disagree");
        }
        let outer_horizon = key.is_some() && std::mem::replace(&mut self.hit_horizon, false);
        self.order(state, moves, tt_move, p, perspective);

        let mut best = f64::NEG_INFINITY;
        let mut best_move = None;
        let mut alpha = window.alpha;
        let beta = window.beta;
        let pvs = self.opts.pvs;
        let track_pv = !window.is_null();
        let heuristics = self.opts.killers || self.opts.history;
        let stop_at_win = self.opts.stop_at_win;
        let win_threshold = self.win_threshold;
        let mut result = Some(());
        for (index, &mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.play(mv);
            let flip = Self::perspective(child.turn()) != perspective;
            let mut cand = f64::NAN;
            let mut settled = false;
            if pvs && index > 0 {
                let Some(v) = self.search(&child, depth - 1, ply + 1, Window::null_above(alpha).for_child(flip)) else {
                    result = None;
                    break;
                };
                let x = v.scalar();
                cand = if flip { -x } else { x };
                settled = !(cand > alpha && cand < beta);
            }
            if !settled {
                let Some(v) = self.search(&child, depth - 1, ply + 1, Window::new(alpha, beta).for_child(flip)) else {
                    result = None;
                    break;
                };
                let x = v.scalar();
                cand = if flip { -x } else { x };
            }
            if cand > best {
                best = cand;
                best_move = Some(mv);
                if track_pv {
                    self.set_pv(p, mv);
                }
            }
            if cand > alpha {
                alpha = cand;
            }
            if cand >= beta {
                self.stats.cutoffs += 1;
                if heuristics {
                    self.s.ordering.record_cutoff(mv, state.history_key(mv), p, perspective.index(), depth);
                }
                break;
            }
            if stop_at_win && cand >= win_threshold {
                break;
            }
        }
        let below_horizon = self.hit_horizon;
        self.hit_horizon |= outer_horizon;
        result?;
        self.store_table(key, best, best_move, depth, ply, window, below_horizon);
        Some(best)
    }

    /// Asks the oracle for the exact value of `state` (a game that is not
    /// over, below the root). `Some(value)`: the node ends here (`value`
    /// is `None` if the probe's value was NaN, which stops the search).
    #[inline(never)]
    fn probe_oracle(&mut self, state: &G, node: &NodeInfo) -> Option<Option<R::Value>> {
        let probe = self.s.oracle.as_ref()?.probe(state)?;
        let (perspective, ply) = (node.perspective, node.ply);
        let at = |plies: u32| ply.saturating_add(plies).min(MAX_PLY);
        let (outcome, value) = match probe {
            Probe::Win { plies } => {
                let o = Outcome::Win(perspective);
                (o, self.s.eval.terminal_value(o, perspective, at(plies)))
            }
            Probe::Loss { plies } => {
                let o = Outcome::Win(perspective.opponent());
                (o, self.s.eval.terminal_value(o, perspective, at(plies)))
            }
            Probe::Draw => (Outcome::Draw, self.s.eval.terminal_value(Outcome::Draw, perspective, ply)),
            Probe::Value(x) => {
                let first = if perspective == Player::First { x } else { -x };
                (Outcome::Payoff(first), x)
            }
        };
        if value.is_nan() {
            self.fail(GameError::InvalidValue {
                what: "oracle probe",
                state: GameError::shorten(&format!("{state:?}")),
            });
            return Some(None);
        }
        self.stats.tb_hits += 1;
        self.stats.leaves += 1;
        Some(Some(self.s.rule.leaf(node, Leaf::Terminal { outcome, value })))
    }

    /// A leaf: a finished game (`outcome`) or a node at the horizon.
    #[inline(always)]
    fn leaf(&mut self, state: &G, node: &NodeInfo, outcome: Option<Outcome>, window: Window) -> Option<R::Value> {
        self.stats.leaves += 1;
        let (perspective, ply) = (node.perspective, node.ply);
        if let Some(outcome) = outcome {
            let value = self.s.eval.terminal_value(outcome, perspective, ply);
            return Some(self.s.rule.leaf(node, Leaf::Terminal { outcome, value }));
        }
        self.hit_horizon = true;
        if ply >= MAX_PLY && (node.depth > 0 || self.beyond_max_ply) {
            self.max_ply_hit = true;
        }
        let value = if FULL && self.negamax && self.opts.quiescence && node.turn != Turn::Chance {
            self.stats.nodes -= 1; // the quiescence root is this node
            self.quiescence(state, ply, window, perspective)?
        } else {
            self.evaluate(state, perspective)?
        };
        Some(self.s.rule.leaf(node, Leaf::Horizon { value }))
    }

    /// An interior node: table probe, forward pruning, ordering, children.
    /// `generated`: `moves` already holds the moves. Not inlined: leaves,
    /// most of the nodes, then run in a small stack frame.
    #[inline(never)]
    fn expand(
        &mut self,
        state: &G,
        node: &mut NodeInfo,
        moves: &mut Vec<G::Move>,
        generated: bool,
        window: Window,
    ) -> Option<R::Value> {
        self.stats.interior += 1;
        let (ply, depth, perspective) = (node.ply, node.depth, node.perspective);
        let p = ply as usize;
        if R::NEEDS_STATIC {
            node.static_value = Some(self.evaluate(state, perspective)?);
        }

        // Bounds the game knows on this node's value narrow the window.
        let mut window = window;
        if self.negamax
            && ply > 0
            && let Some((lo, hi)) = self.s.eval.node_bounds(state, perspective, ply)
        {
            if hi <= window.alpha || lo >= window.beta || lo == hi {
                let bound = if lo >= window.beta || lo == hi { lo } else { hi };
                self.stats.cutoffs += 1;
                return self.value_of(bound);
            }
            window = Window::new(window.alpha.max(lo.next_down()), window.beta.min(hi.next_up()));
        }

        // Transposition table.
        let key = if self.prunes && self.s.tt.is_some() { state.hash_key() } else { None };
        let tt_move = match self.probe_table(key, depth, ply, window) {
            Ok(mv) => mv,
            Err(cut) => return self.value_of(cut),
        };

        if FULL
            && self.negamax
            && ply > 0
            && node.turn != Turn::Chance
            && let Some(v) = self.forward_prune(state, node, window)?
        {
            return self.value_of(v);
        }

        if !generated {
            let status = state.generate(moves);
            debug_assert_eq!(status, Status::Ongoing, "quick_status and generate disagree");
            node.children = moves.len();
        }
        // Whether the search below this node reaches a horizon, for the
        // table entry: the flag of the whole iteration is cleared for the
        // children and restored after. Without an entry to store (no key),
        // the flag is left to accumulate.
        let outer_horizon = key.is_some() && std::mem::replace(&mut self.hit_horizon, false);
        let children = match node.turn {
            Turn::Player(_) => {
                if ply == 0 {
                    self.observer.root_moves(state, depth.min(MAX_PLY as i32) as u32, moves);
                } else if FULL && self.trace {
                    self.observer.node_moves(&self.path, state, moves);
                }
                if moves.is_empty() {
                    self.fail(ParamError::new("observer", "removed every move of a node").into());
                    return None;
                }
                node.children = moves.len();
                self.order(state, moves, tt_move, p, perspective);
                self.player_node(state, node, moves, window)
            }
            Turn::Chance => self.chance_node(state, node, moves, window).map(|v| (v, None)),
        };
        let below_horizon = self.hit_horizon;
        self.hit_horizon |= outer_horizon;
        let (value, best_move) = children?;

        self.store_table(key, value.scalar(), best_move, depth, ply, window, below_horizon);
        Some(value)
    }

    /// Looks `key` up in the table: `Err(value)` if the entry settles the
    /// node (`ply > 0`, deep enough, its bound beyond the window or exact),
    /// else the table's move for ordering.
    #[inline(always)]
    fn probe_table(&mut self, key: Option<u64>, depth: i32, ply: u32, window: Window) -> Result<TtMove<G::Move>, f64> {
        let (Some(k), Some(tt)) = (key, &self.s.tt) else { return Ok(TtMove::None) };
        let Some(e) = tt.probe(k) else { return Ok(TtMove::None) };
        let deep_enough = match self.tt_depth {
            TtDepth::Exact => e.depth == depth,
            TtDepth::AtLeast => e.depth >= depth,
        };
        if deep_enough && ply > 0 {
            let v = self.tt_to_value(e.value, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= window.beta,
                Bound::Upper => v <= window.alpha,
            };
            if cut {
                self.stats.tt_cuts += 1;
                // A value that depended on the depth keeps iterative
                // deepening going, as the horizon below it would have.
                self.hit_horizon |= e.horizon;
                return Err(v);
            }
        }
        Ok(e.mv)
    }

    /// Stores a node's value `x` (searched within `window`) under `key`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store_table(
        &mut self,
        key: Option<u64>,
        x: f64,
        best_move: Option<G::Move>,
        depth: i32,
        ply: u32,
        window: Window,
        below_horizon: bool,
    ) {
        if let Some(k) = key {
            let stored = self.value_to_tt(x, ply);
            if let Some(tt) = &mut self.s.tt {
                tt.store(k, stored, best_move, depth, window.classify(x), below_horizon);
            }
        }
    }

    /// The static value of `state` from `node`'s perspective: the one the
    /// node holds, else evaluated (`None` if it is NaN, which stops the
    /// search).
    fn static_value(&mut self, state: &G, node: &NodeInfo) -> Option<f64> {
        match node.static_value {
            Some(v) => Some(v),
            None => self.evaluate(state, node.perspective),
        }
    }

    /// Reverse futility pruning, null-move pruning and ProbCut.
    /// `Some(Some(v))`: the node fails high with value `v`.
    fn forward_prune(&mut self, state: &G, node: &mut NodeInfo, window: Window) -> Option<Option<f64>> {
        let (depth, ply, perspective) = (node.depth, node.ply, node.perspective);
        let beta = window.beta;
        if !beta.is_finite() || beta.abs() >= self.win_threshold {
            return Some(None);
        }
        if let Some(rf) = self.opts.reverse_futility
            && depth <= rf.max_depth as i32
            && window.is_null()
            && !state.needs_extension()
        {
            // Kept in the node: futility pruning reads it again below.
            let stand = self.static_value(state, node)?;
            node.static_value = Some(stand);
            let bound = stand - rf.margin * f64::from(depth);
            if bound >= beta && bound < self.win_threshold {
                // A static value stands for the search below: a horizon.
                self.hit_horizon = true;
                self.stats.reverse_futile += 1;
                return Some(Some(bound));
            }
        }
        if let Some(r) = self.opts.null_move {
            let mut child = state.clone();
            if depth > r as i32 && child.play_null() {
                let flip = Self::perspective(child.turn()) != perspective;
                let w = Window::new(beta.next_down(), beta).for_child(flip);
                let v = self.search(&child, depth - 1 - r as i32, ply + 1, w)?;
                let x = v.scalar();
                let cand = if flip { -x } else { x };
                if cand >= beta && cand < self.win_threshold {
                    self.stats.cutoffs += 1;
                    return Some(Some(cand));
                }
            }
        }
        if let Some(pc) = self.opts.probcut
            && depth >= pc.min_depth as i32
        {
            let bound = beta + pc.margin;
            let v = self.search(state, depth - pc.reduction as i32, ply, Window::new(bound.next_down(), bound))?;
            if v.scalar() >= bound {
                self.stats.cutoffs += 1;
                return Some(Some(beta));
            }
        }
        Some(None)
    }

    /// Orders `moves` (TT move, hints, killers, history) and applies beam
    /// pruning.
    fn order(&mut self, state: &G, moves: &mut Vec<G::Move>, tt_move: TtMove<G::Move>, p: usize, perspective: Player) {
        let use_hint = self.opts.game_ordering;
        let tt_move = if self.prunes { tt_move } else { TtMove::None };
        let keyed = use_hint || (self.prunes && (self.opts.killers || self.opts.history));
        let tt_index = tt_move.index_in(moves);
        // Without sort keys the order is the generation order.
        let mut sorted = true;
        let mut keys = Vec::new();
        if keyed {
            keys = take(&mut self.plies[p].keys);
            keys.clear();
            for (i, &mv) in moves.iter().enumerate() {
                let hint = if use_hint { state.order_hint(mv) } else { 0 };
                let game_key = if self.opts.history { state.history_key(mv) } else { None };
                let key = self.s.ordering.key(mv, game_key, hint, p, perspective.index());
                sorted &= keys.last().is_none_or(|k: &(i64, u32)| k.0 >= key);
                keys.push((key, i as u32));
            }
        }
        if sorted {
            // Already in key order (also the common case when the generator
            // emits moves in hint order): only the TT move moves up.
            if let Some(i) = tt_index {
                moves[..=i].rotate_right(1);
            }
        } else {
            if let Some(i) = tt_index {
                keys[i].0 = TT_MOVE_KEY;
            }
            keys.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            self.permute(moves, keys.iter().map(|k| k.1), p);
        }
        if keyed {
            self.plies[p].keys = keys;
        }
        if FULL
            && let Some(k) = self.opts.beam.filter(|_| self.negamax)
            && moves.len() > k
        {
            {
                let mut scores = take(&mut self.plies[p].scores);
                scores.clear();
                for (i, &mv) in moves.iter().enumerate() {
                    let mut child = state.clone();
                    child.play(mv);
                    let v = self.s.eval.evaluate_for(&child, perspective);
                    if v.is_nan() {
                        self.fail_nan(&child);
                    }
                    scores.push((v, i as u32));
                }
                scores.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                scores.truncate(k);
                // Keep the survivors in their searched order.
                scores.sort_unstable_by_key(|s| s.1);
                self.permute(moves, scores.iter().map(|s| s.1), p);
                self.plies[p].scores = scores;
            }
        }
    }

    /// Replaces `moves` by `moves[i]` for each `i` of `order`.
    fn permute(&mut self, moves: &mut Vec<G::Move>, order: impl Iterator<Item = u32>, p: usize) {
        let mut ordered = take(&mut self.plies[p].ordered);
        ordered.clear();
        ordered.extend(order.map(|i| moves[i as usize]));
        std::mem::swap(moves, &mut ordered);
        self.plies[p].ordered = ordered;
    }

    /// A player node: the rule combines the children; with pruning, the
    /// window of each child comes from the rule's affine form.
    fn player_node(
        &mut self,
        state: &G,
        node: &NodeInfo,
        moves: &[G::Move],
        window: Window,
    ) -> Option<(R::Value, Option<G::Move>)> {
        let (depth, ply) = (node.depth, node.ply);
        let p = ply as usize;
        let affine = if self.prunes { self.s.rule.affine(node) } else { Affine::NEGAMAX };
        let mut acc = self.s.rule.open(node);
        let mut best = f64::NEG_INFINITY;
        let mut best_move = None;
        let mut alpha = window.alpha;
        // Exact root scores: every root move gets the root's own window.
        // The tests that depend on it are made once, here, not per child.
        let exact = ply == 0 && self.opts.exact_root;
        let pvs = self.opts.pvs && !exact;
        let cuts = self.prunes && !exact;
        // A null-window node's value is a bound, never exact: it has no
        // principal variation to report.
        let track_pv = !self.prunes || !window.is_null();
        // Read once: the loop's calls take `self` mutably, so fields would be
        // loaded again for every child.
        let prunes = self.prunes;
        let heuristics = self.opts.killers || self.opts.history;
        let stop_at_win = self.opts.stop_at_win;
        let win_threshold = self.win_threshold;
        // Check extensions and late move reductions: negamax rules only,
        // and never at a node that itself needs an extension.
        let extend = FULL && self.negamax && self.opts.check_extension && ply < 2 * self.root_depth.max(1) as u32;
        let lmr = self.opts.lmr.filter(|_| FULL && self.negamax && ply > 0 && !state.needs_extension());
        // Futility: the static value plus a margin bounds what a quiet move
        // can bring; below α such moves are skipped, counted at that bound.
        let futile = match self.opts.futility {
            Some(margin)
                if FULL
                    && self.negamax
                    && ply > 0
                    && (1..=2).contains(&depth)
                    && window.is_null()
                    && window.alpha.abs() < self.win_threshold
                    && !state.needs_extension() =>
            {
                let bound = self.static_value(state, node)? + margin * f64::from(depth);
                (bound <= window.alpha).then_some(bound)
            }
            _ => None,
        };
        // Late move pruning: how many moves are searched before the quiet
        // ones are skipped (counted at α, once).
        let late_limit = match self.opts.late_move_pruning {
            Some(l)
                if FULL
                    && self.negamax
                    && ply > 0
                    && window.is_null()
                    && window.alpha.abs() < self.win_threshold
                    && !state.needs_extension() =>
            {
                l.move_limit(depth).map(|n| n as usize)
            }
            _ => None,
        };
        let mut skipped = false;
        let mut late_skipped = false;
        // The history's malus: the quiet moves searched so far, which a
        // later cut-off move pushes down. (Validation lets the malus on
        // only with history and a negamax rule.)
        let malus = FULL && self.opts.history_malus;
        let mut tried: SmallVec<[Tried<G::Move>; 16]> = SmallVec::new();
        // Lazy SMP: a later move whose child another thread is searching
        // waits until the node's other moves are done (`busy`).
        let busy = if FULL && self.prunes && depth >= busy::MIN_DEPTH { self.s.busy.clone() } else { None };
        let mut deferred: SmallVec<[u32; 8]> = SmallVec::new();
        let (mut next, mut next_deferred) = (0, 0);
        loop {
            let (index, first_pass) = if next < moves.len() {
                next += 1;
                (next - 1, true)
            } else if FULL && let Some(&i) = deferred.get(next_deferred) {
                next_deferred += 1;
                (i as usize, false)
            } else {
                break;
            };
            let mv = moves[index];
            let mut child = state.clone();
            child.play(mv);
            let flip = Self::perspective(child.turn()) != node.perspective;
            let info = ChildInfo { index, probability: 1.0, flip };
            let forcing =
                (extend || lmr.is_some() || futile.is_some() || late_limit.is_some()) && child.needs_extension();
            let child_depth = depth - 1 + i32::from(extend && forcing);
            if let Some(bound) = futile
                && index > 0
                && !forcing
                && state.is_quiet(mv)
            {
                // A move skipped on a static bound is a horizon: the value
                // below this node is not the game's.
                self.hit_horizon = true;
                if !skipped {
                    skipped = true;
                    self.stats.futile += 1;
                    let v = self.value_of(if flip { -bound } else { bound })?;
                    self.s.rule.add(node, &mut acc, &info, v);
                }
                continue;
            }
            if let Some(limit) = late_limit
                && index >= limit
                && !forcing
                && state.is_quiet(mv)
            {
                self.hit_horizon = true;
                self.stats.late_pruned += 1;
                if !late_skipped {
                    late_skipped = true;
                    let v = self.value_of(if flip { -window.alpha } else { window.alpha })?;
                    self.s.rule.add(node, &mut acc, &info, v);
                }
                continue;
            }
            let mark = match &busy {
                Some(b) => match child.hash_key() {
                    Some(k) if first_pass && index > 0 && b.is_busy(k) => {
                        deferred.push(index as u32);
                        continue;
                    }
                    Some(k) => b.enter(k).then_some(k),
                    None => None,
                },
                None => None,
            };
            let (value, searched) = if prunes {
                let full = Window::new(alpha, window.beta);
                let mut result = None;
                let reduction = match lmr {
                    Some(l) if !forcing && index > 0 && depth > 0 && state.is_quiet(mv) => {
                        l.reduction(depth as u32, index.min(u32::MAX as usize) as u32) as i32
                    }
                    _ => 0,
                };
                if reduction > 0 {
                    let null = Window::null_above(alpha);
                    let w = affine.invert(null).for_child(flip);
                    let v = self.search_child(mv, &child, child_depth - reduction, ply + 1, w)?;
                    let cand = affine.apply(info.to_parent(v.scalar()));
                    if cand <= alpha {
                        self.stats.reductions += 1;
                        result = Some((v, null));
                    }
                }
                if result.is_none() && pvs && index > 0 {
                    let null = Window::null_above(alpha);
                    let v = self.search_child(mv, &child, child_depth, ply + 1, affine.invert(null).for_child(flip))?;
                    let cand = affine.apply(info.to_parent(v.scalar()));
                    if !(cand > alpha && cand < window.beta) {
                        result = Some((v, null));
                    }
                }
                match result {
                    Some(r) => r,
                    None => {
                        let w = affine.invert(full).for_child(flip);
                        (self.search_child(mv, &child, child_depth, ply + 1, w)?, full)
                    }
                }
            } else {
                (self.search_child(mv, &child, child_depth, ply + 1, Window::FULL)?, Window::FULL)
            };
            if let (Some(b), Some(k)) = (&busy, mark) {
                b.leave(k);
            }
            self.s.rule.add(node, &mut acc, &info, value);
            let score = self.s.rule.child_score(node, &info, &value);
            let cand = if prunes { affine.apply(info.to_parent(value.scalar())) } else { score };
            if ply == 0 {
                let bound = if prunes { searched.classify(cand) } else { Bound::Exact };
                self.root_moves.push(RootMove { mv, score, bound });
            }
            if cand > best {
                best = cand;
                best_move = Some(mv);
                if track_pv {
                    self.set_pv(p, mv);
                }
            }
            if cuts {
                // `max` without its NaN handling: no value here is NaN.
                if cand > alpha {
                    alpha = cand;
                }
                if cand >= window.beta {
                    self.stats.cutoffs += 1;
                    if malus {
                        if state.is_quiet(mv) {
                            let (key, player) = (state.history_key(mv), node.perspective.index());
                            self.s.ordering.record_quiet_cutoff(mv, key, p, player, depth, &tried);
                        }
                    } else if heuristics {
                        self.s.ordering.record_cutoff(mv, state.history_key(mv), p, node.perspective.index(), depth);
                    }
                    break;
                }
            }
            if stop_at_win && cand >= win_threshold {
                break;
            }
            if malus && state.is_quiet(mv) {
                tried.push((mv, state.history_key(mv)));
            }
        }
        Some((self.s.rule.close(node, acc), best_move))
    }

    /// Quiescence search: stand pat on the static value, then follow the
    /// evaluator's noisy moves (fail-soft negamax). Not inlined, to keep
    /// [`search`](Self::search)'s frame small.
    #[inline(never)]
    fn quiescence(&mut self, state: &G, ply: u32, window: Window, perspective: Player) -> Option<f64> {
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        self.poll_limits();
        if self.aborted {
            return None;
        }
        let stand = self.evaluate(state, perspective)?;
        if stand >= window.beta || ply >= MAX_PLY {
            return Some(stand);
        }
        let p = ply as usize;
        self.ensure_ply(p);
        let mut noisy = take(&mut self.plies[p].qmoves);
        noisy.clear();
        self.s.eval.noisy_moves(state, &mut noisy);
        let mut best = stand;
        let mut alpha = window.alpha.max(stand);
        let mut result = Some(());
        for &mv in noisy.iter() {
            let mut child = state.clone();
            child.play(mv);
            let child_perspective = Self::perspective(child.turn());
            let flip = child_perspective != perspective;
            let w = Window::new(alpha, window.beta).for_child(flip);
            let Some(v) = self.quiescence(&child, ply + 1, w, child_perspective) else {
                result = None;
                break;
            };
            let cand = if flip { -v } else { v };
            best = best.max(cand);
            alpha = alpha.max(cand);
            if cand >= window.beta {
                self.stats.cutoffs += 1;
                break;
            }
        }
        self.plies[p].qmoves = noisy;
        result.map(|()| best)
    }
}
