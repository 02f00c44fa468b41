//! The one recursive search. Every driver (minimax, alpha-beta, PVS,
//! expectiminimax with Star pruning, IOM, PIOM, the soft rules) is this code
//! with a different rule and options.

use std::mem::take;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use crate::agent::sample_index;
use crate::backup::{Affine, Backup, ChildInfo, Leaf, NodeInfo, Pruning};
use crate::eval::{Evaluator, MAX_PLY};
use crate::game::{Game, Outcome, Player, Status, Turn};
use crate::rng;
use crate::search::ordering::TT_MOVE_KEY;
use crate::search::window::{Bound, Window};
use crate::search::{Options, RootMove, Search, SearchResult, Star, Stats, TtDepth};

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

pub(crate) struct Core<'s, G: Game, E: Evaluator<G>, R: Backup<G>> {
    s: &'s mut Search<G, E, R>,
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
}

impl<'s, G: Game, E: Evaluator<G>, R: Backup<G>> Core<'s, G, E, R> {
    pub(crate) fn new(s: &'s mut Search<G, E, R>) -> Self {
        let pruning = s.rule.pruning();
        let opts = s.options.clone();
        let prunes = opts.alpha_beta && pruning != Pruning::None;
        let negamax = prunes && pruning == Pruning::Negamax;
        let tt_depth = if negamax { opts.tt_depth } else { TtDepth::Exact };
        let win = |ply| s.eval.terminal_value(Outcome::Win(Player::First), Player::First, ply);
        let win_threshold = win(MAX_PLY);
        let ply_adjusted = win(0) != win(1);
        let bounds = s.eval.bounds();
        let plies = take(&mut s.scratch);
        let node_limit = s.limits.nodes.unwrap_or(u64::MAX);
        s.ordering.set_heuristics(prunes && opts.killers, prunes && opts.history);
        Core {
            rng: rng::seeded(opts.seed),
            s,
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
        }
    }

    fn has_soft_limits(&self) -> bool {
        let l = &self.s.limits;
        l.nodes.is_some() || l.time.is_some() || l.stop.is_some()
    }

    /// Iterative deepening (or a single search) within the limits.
    pub(crate) fn run(mut self, root: &G, root_window: Window) -> SearchResult<G::Move> {
        self.root_player = root.turn().player().unwrap_or(Player::First);
        let max_depth = self.s.limits.depth.map(|d| d.min(MAX_PLY) as i32);
        let deepening = self.opts.iterative_deepening && (max_depth.is_some() || self.has_soft_limits());
        let (mut depth, last) = match (deepening, max_depth) {
            (true, Some(d)) => (1, d),
            (true, None) => (1, MAX_PLY as i32),
            (false, Some(d)) => (d, d),
            (false, None) => (UNLIMITED, UNLIMITED),
        };
        let mut best: Option<SearchResult<G::Move>> = None;
        loop {
            self.hit_horizon = false;
            let previous = best.as_ref().map(|b| b.value);
            match self.iteration(root, depth, previous, root_window) {
                Some(mut r) => {
                    r.stats.depth = depth as u32;
                    best = Some(r);
                }
                None => break,
            }
            if depth >= last || (!self.hit_horizon && !self.s.rule.leaf_depends_on_depth()) {
                break;
            }
            depth += 1;
        }
        let mut result = best.unwrap_or_else(|| self.partial_result(root));
        result.complete = !self.aborted;
        self.stats.depth = result.stats.depth;
        self.stats.micros = self.start.elapsed().as_micros() as u64;
        result.stats = self.stats;
        self.s.scratch = take(&mut self.plies);
        result
    }

    /// One root search at `depth`, with aspiration windows where they apply.
    fn iteration(
        &mut self,
        root: &G,
        depth: i32,
        previous: Option<f64>,
        root_window: Window,
    ) -> Option<SearchResult<G::Move>> {
        let mut delta = self.opts.aspiration.filter(|_| self.negamax && depth > 1 && root_window.is_full());
        let mut window = match (delta, previous) {
            (Some(d), Some(p)) if p.is_finite() && p.abs() < self.win_threshold => Window::new(p - d, p + d),
            _ if self.prunes => root_window,
            _ => Window::FULL,
        };
        loop {
            self.root_moves.clear();
            let value = self.search(root, depth, 0, window)?;
            let x = self.s.rule.scalar(&value);
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
            return Some(self.result(x));
        }
    }

    fn result(&self, value: f64) -> SearchResult<G::Move> {
        let best_score = self.root_moves.iter().map(|m| m.score).fold(f64::NEG_INFINITY, f64::max);
        let best = self.root_moves.iter().find(|m| m.score == best_score).map(|m| m.mv);
        let best_moves =
            self.root_moves.iter().filter(|m| m.score == best_score && m.bound == Bound::Exact).map(|m| m.mv).collect();
        SearchResult {
            value,
            best,
            best_moves,
            root_moves: self.root_moves.clone(),
            pv: self.plies.first().map(|p| p.pv.clone()).unwrap_or_default(),
            stats: self.stats,
            complete: true,
        }
    }

    /// The result when even the first iteration was stopped: the best root
    /// move searched so far, or the first legal move.
    fn partial_result(&self, root: &G) -> SearchResult<G::Move> {
        if !self.root_moves.is_empty() {
            let mut r = self.result(f64::NAN);
            r.value = r.root_moves.iter().map(|m| m.score).fold(f64::NEG_INFINITY, f64::max);
            r.best_moves.clear();
            r.pv = r.best.into_iter().collect();
            return r;
        }
        let mut moves = Vec::new();
        root.generate(&mut moves);
        SearchResult {
            value: f64::NAN,
            best: moves.first().copied(),
            best_moves: Vec::new(),
            root_moves: Vec::new(),
            pv: moves.first().copied().into_iter().collect(),
            stats: self.stats,
            complete: false,
        }
    }

    fn poll_limits(&mut self) {
        if self.stats.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.stats.nodes & POLL_MASK == 0 {
            let limits = &self.s.limits;
            if limits.time.is_some_and(|t| self.start.elapsed() >= t) {
                self.aborted = true;
            }
            if limits.stop.as_ref().is_some_and(|f| f.load(AtomicOrdering::Relaxed)) {
                self.aborted = true;
            }
        }
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

    /// Mate-distance values are stored relative to the node, not the root.
    fn value_to_tt(&self, x: f64, ply: u32) -> f64 {
        if self.ply_adjusted && x.abs() >= self.win_threshold { x + x.signum() * f64::from(ply) } else { x }
    }

    fn tt_to_value(&self, x: f64, ply: u32) -> f64 {
        if self.ply_adjusted && x.abs() >= self.win_threshold { x - x.signum() * f64::from(ply) } else { x }
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
        let p = ply as usize;
        self.ensure_ply(p);
        self.plies[p].pv.clear();
        let turn = state.turn();
        let perspective = Self::perspective(turn);
        let mut node = NodeInfo {
            state,
            turn,
            perspective,
            root_player: self.root_player,
            ply,
            depth,
            static_value: None,
            children: 0,
        };
        let at_horizon = depth <= 0 || ply >= MAX_PLY;
        // If the game can tell its status without generating moves, the
        // moves are generated only when needed: never at a leaf, and at an
        // interior node only after the table and forward pruning have had
        // their chance to cut.
        let quick = state.quick_status();
        match quick {
            Some(Status::Over(outcome)) => return self.leaf(&node, Some(outcome), window),
            Some(Status::Ongoing) if at_horizon => return self.leaf(&node, None, window),
            _ => {}
        }
        let mut moves = take(&mut self.plies[p].moves);
        moves.clear();
        let status = match quick {
            Some(status) => status,
            None => state.generate(&mut moves),
        };
        node.children = moves.len();
        let result = match status {
            Status::Over(outcome) => self.leaf(&node, Some(outcome), window),
            Status::Ongoing if at_horizon => self.leaf(&node, None, window),
            Status::Ongoing => self.expand(&mut node, &mut moves, quick.is_none(), window),
        };
        self.plies[p].moves = moves;
        result
    }

    /// A leaf: a finished game (`outcome`) or a node at the horizon.
    #[inline(always)]
    fn leaf(&mut self, node: &NodeInfo<'_, G>, outcome: Option<Outcome>, window: Window) -> Option<R::Value> {
        self.stats.leaves += 1;
        let (state, perspective, ply) = (node.state, node.perspective, node.ply);
        if let Some(outcome) = outcome {
            let value = self.s.eval.terminal_value(outcome, perspective, ply);
            return Some(self.s.rule.leaf(node, Leaf::Terminal { outcome, value }));
        }
        self.hit_horizon = true;
        let value = if self.negamax && self.opts.quiescence && node.turn != Turn::Chance {
            self.stats.nodes -= 1; // the quiescence root is this node
            self.quiescence(state, ply, window, perspective)?
        } else {
            self.s.eval.evaluate_for(state, perspective)
        };
        Some(self.s.rule.leaf(node, Leaf::Horizon { value }))
    }

    /// An interior node: table probe, forward pruning, ordering, children.
    /// `generated`: `moves` already holds the moves. Not inlined: leaves,
    /// most of the nodes, then run in a small stack frame.
    #[inline(never)]
    fn expand(
        &mut self,
        node: &mut NodeInfo<'_, G>,
        moves: &mut Vec<G::Move>,
        generated: bool,
        window: Window,
    ) -> Option<R::Value> {
        self.stats.interior += 1;
        let state = node.state;
        let (ply, depth, perspective) = (node.ply, node.depth, node.perspective);
        let p = ply as usize;
        if self.s.rule.needs_static() {
            node.static_value = Some(self.s.eval.evaluate_for(state, perspective));
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
                return self.s.rule.from_scalar(bound);
            }
            window = Window::new(window.alpha.max(lo.next_down()), window.beta.min(hi.next_up()));
        }

        // Transposition table.
        let key = if self.prunes && self.s.tt.is_some() { state.hash_key() } else { None };
        let mut tt_move = None;
        if let (Some(k), Some(tt)) = (key, &self.s.tt)
            && let Some(e) = tt.probe(k)
        {
            tt_move = e.mv;
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
                if cut && let Some(value) = self.s.rule.from_scalar(v) {
                    self.stats.tt_cuts += 1;
                    return Some(value);
                }
            }
        }

        if self.negamax
            && ply > 0
            && node.turn != Turn::Chance
            && let Some(v) = self.forward_prune(state, depth, ply, window, perspective)?
        {
            return self.s.rule.from_scalar(v);
        }

        if !generated {
            let status = state.generate(moves);
            debug_assert_eq!(status, Status::Ongoing, "quick_status and generate disagree");
            node.children = moves.len();
        }
        let (value, best_move) = match node.turn {
            Turn::Player(_) => {
                self.order(state, moves, tt_move, p, perspective);
                self.player_node(node, moves, window)?
            }
            Turn::Chance => (self.chance_node(node, moves, window)?, None),
        };

        if let Some(k) = key {
            let x = self.s.rule.scalar(&value);
            let stored = self.value_to_tt(x, ply);
            if let Some(tt) = &mut self.s.tt {
                tt.store(k, stored, best_move, depth, window.classify(x));
            }
        }
        Some(value)
    }

    /// Null-move pruning and ProbCut. `Some(Some(v))`: the node fails high
    /// with value `v`.
    fn forward_prune(
        &mut self,
        state: &G,
        depth: i32,
        ply: u32,
        window: Window,
        perspective: Player,
    ) -> Option<Option<f64>> {
        let beta = window.beta;
        if !beta.is_finite() || beta.abs() >= self.win_threshold {
            return Some(None);
        }
        if let Some(r) = self.opts.null_move {
            let mut child = state.clone();
            if depth > r as i32 && child.play_null() {
                let flip = Self::perspective(child.turn()) != perspective;
                let w = Window::new(beta.next_down(), beta).for_child(flip);
                let v = self.search(&child, depth - 1 - r as i32, ply + 1, w)?;
                let x = self.s.rule.scalar(&v);
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
            if self.s.rule.scalar(&v) >= bound {
                self.stats.cutoffs += 1;
                return Some(Some(beta));
            }
        }
        Some(None)
    }

    /// Orders `moves` (TT move, hints, killers, history) and applies beam
    /// pruning.
    fn order(&mut self, state: &G, moves: &mut Vec<G::Move>, tt_move: Option<G::Move>, p: usize, perspective: Player) {
        let use_hint = self.opts.game_ordering;
        let tt_move = if self.prunes { tt_move } else { None };
        let keyed = use_hint || (self.prunes && (self.opts.killers || self.opts.history));
        let tt_index = tt_move.and_then(|t| moves.iter().position(|&m| m == t));
        let mut keys = take(&mut self.plies[p].keys);
        keys.clear();
        // Without sort keys the order is the generation order.
        let mut sorted = true;
        if keyed {
            for (i, &mv) in moves.iter().enumerate() {
                let hint = if use_hint { state.order_hint(mv) } else { 0 };
                let key = self.s.ordering.key(mv, hint, p, perspective.index());
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
        self.plies[p].keys = keys;
        if let Some(k) = self.opts.beam.filter(|_| self.negamax)
            && moves.len() > k
        {
            {
                let mut scores = take(&mut self.plies[p].scores);
                scores.clear();
                for (i, &mv) in moves.iter().enumerate() {
                    let mut child = state.clone();
                    child.play(mv);
                    scores.push((self.s.eval.evaluate_for(&child, perspective), i as u32));
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
        node: &NodeInfo<'_, G>,
        moves: &[G::Move],
        window: Window,
    ) -> Option<(R::Value, Option<G::Move>)> {
        let (state, depth, ply) = (node.state, node.depth, node.ply);
        let p = ply as usize;
        let affine = if self.prunes { self.s.rule.affine(node) } else { Affine::NEGAMAX };
        let mut acc = self.s.rule.open(node);
        let mut best = f64::NEG_INFINITY;
        let mut best_move = None;
        let mut alpha = window.alpha;
        // A null-window node's value is a bound, never exact: it has no
        // principal variation to report.
        let track_pv = !self.prunes || !window.is_null();
        for (index, &mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.play(mv);
            let flip = Self::perspective(child.turn()) != node.perspective;
            let info = ChildInfo { index, probability: 1.0, flip };
            let (value, searched) = if self.prunes {
                let full = Window::new(alpha, window.beta);
                let mut result = None;
                if self.opts.pvs && index > 0 {
                    let null = Window::null_above(alpha);
                    let v = self.search(&child, depth - 1, ply + 1, affine.invert(null).for_child(flip))?;
                    let cand = affine.apply(info.to_parent(self.s.rule.scalar(&v)));
                    if !(cand > alpha && cand < window.beta) {
                        result = Some((v, null));
                    }
                }
                match result {
                    Some(r) => r,
                    None => (self.search(&child, depth - 1, ply + 1, affine.invert(full).for_child(flip))?, full),
                }
            } else {
                (self.search(&child, depth - 1, ply + 1, Window::FULL)?, Window::FULL)
            };
            self.s.rule.add(node, &mut acc, &info, value);
            let score = self.s.rule.child_score(node, &info, &value);
            let cand = if self.prunes { affine.apply(info.to_parent(self.s.rule.scalar(&value))) } else { score };
            if ply == 0 {
                let bound = if self.prunes { searched.classify(cand) } else { Bound::Exact };
                self.root_moves.push(RootMove { mv, score, bound });
            }
            if cand > best {
                best = cand;
                best_move = Some(mv);
                if track_pv {
                    let (head, tail) = self.plies.split_at_mut(p + 1);
                    let pv = &mut head[p].pv;
                    pv.clear();
                    pv.push(mv);
                    pv.extend_from_slice(&tail[0].pv);
                }
            }
            if self.prunes {
                alpha = alpha.max(cand);
                if cand >= window.beta {
                    self.stats.cutoffs += 1;
                    if self.opts.killers || self.opts.history {
                        self.s.ordering.record_cutoff(mv, p, node.perspective.index(), depth);
                    }
                    break;
                }
            }
            if self.opts.stop_at_win && cand >= self.win_threshold {
                break;
            }
        }
        Some((self.s.rule.close(node, acc), best_move))
    }

    /// A chance node: the rule takes the expectation; with Negamax rules and
    /// known bounds, Star1/Star2 windows and cutoffs.
    fn chance_node(&mut self, node: &NodeInfo<'_, G>, moves: &mut Vec<G::Move>, window: Window) -> Option<R::Value> {
        let (state, depth, ply) = (node.state, node.depth, node.ply);
        let p = ply as usize;
        let mut probs = take(&mut self.plies[p].probs);
        probs.clear();
        state.chance_probabilities(moves, &mut probs);
        if let Some(n) = self.opts.chance_samples {
            self.sample_outcomes(moves, &mut probs, n, p);
        }
        let star = match (self.negamax, self.bounds) {
            (true, Some(b)) if self.opts.star != Star::Off => Some(b),
            _ => None,
        };
        let mut child_bounds = take(&mut self.plies[p].child_bounds);
        child_bounds.clear();
        if let Some((lo, hi)) = star {
            child_bounds.extend(moves.iter().map(|_| (lo, hi)));
            if self.opts.star == Star::Star2 && depth >= 2 {
                self.probe(state, moves, depth, ply, &mut child_bounds)?;
            }
        }
        let result = self.chance_children(node, moves, &probs, &child_bounds, window, star.is_some());
        self.plies[p].probs = probs;
        self.plies[p].child_bounds = child_bounds;
        result
    }

    fn chance_children(
        &mut self,
        node: &NodeInfo<'_, G>,
        moves: &[G::Move],
        probs: &[f64],
        child_bounds: &[(f64, f64)],
        window: Window,
        star: bool,
    ) -> Option<R::Value> {
        let (state, depth, ply) = (node.state, node.depth, node.ply);
        let mut acc = self.s.rule.open(node);
        let mut sum = 0.0;
        let mut rest_lo: f64 = probs.iter().zip(child_bounds).map(|(p, b)| p * b.0).sum();
        let mut rest_hi: f64 = probs.iter().zip(child_bounds).map(|(p, b)| p * b.1).sum();
        for (index, (&mv, &prob)) in moves.iter().zip(probs).enumerate() {
            if prob == 0.0 {
                continue;
            }
            let mut child = state.clone();
            child.play(mv);
            let flip = Self::perspective(child.turn()) != node.perspective;
            let info = ChildInfo { index, probability: prob, flip };
            let w = if star {
                rest_lo -= prob * child_bounds[index].0;
                rest_hi -= prob * child_bounds[index].1;
                Window::new((window.alpha - sum - rest_hi) / prob, (window.beta - sum - rest_lo) / prob)
            } else {
                Window::FULL
            };
            let value = self.search(&child, depth - 1, ply + 1, w.for_child(flip))?;
            self.s.rule.add(node, &mut acc, &info, value);
            if ply == 0 {
                let score = self.s.rule.child_score(node, &info, &value);
                self.root_moves.push(RootMove { mv, score, bound: Bound::Exact });
            }
            if star {
                sum += prob * info.to_parent(self.s.rule.scalar(&value));
                let (upper, lower) = (sum + rest_hi, sum + rest_lo);
                if upper <= window.alpha || lower >= window.beta {
                    self.stats.cutoffs += 1;
                    let bound = if upper <= window.alpha { upper } else { lower };
                    return self.s.rule.from_scalar(bound);
                }
            }
        }
        Some(self.s.rule.close(node, acc))
    }

    /// Star2's probing pass: search the first move of every player-node
    /// outcome to bound it (a lower bound for the first player's nodes, an
    /// upper bound for the second's, in the chance node's view).
    fn probe(&mut self, state: &G, moves: &[G::Move], depth: i32, ply: u32, bounds: &mut [(f64, f64)]) -> Option<()> {
        let p = ply as usize + 1;
        self.ensure_ply(p);
        let mut grand = take(&mut self.plies[p].qmoves);
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.play(mv);
            let Turn::Player(mover) = child.turn() else { continue };
            grand.clear();
            if let Status::Over(_) = child.generate(&mut grand) {
                continue;
            }
            let mut gc = child.clone();
            gc.play(grand[0]);
            let flip = Self::perspective(gc.turn()) != mover;
            let v = self.search(&gc, depth - 2, ply + 2, Window::FULL);
            let Some(v) = v else {
                self.plies[p].qmoves = grand;
                return None;
            };
            let x = self.s.rule.scalar(&v);
            // The child's value (its mover's view) is at least the probe's.
            let at_least = if flip { -x } else { x };
            if mover == Player::First {
                bounds[i].0 = bounds[i].0.max(at_least);
            } else {
                bounds[i].1 = bounds[i].1.min(-at_least);
            }
        }
        self.plies[p].qmoves = grand;
        Some(())
    }

    /// Monte Carlo chance node: replaces the outcomes by `n` samples
    /// (grouped: each distinct outcome once, weighted by its count).
    fn sample_outcomes(&mut self, moves: &mut Vec<G::Move>, probs: &mut Vec<f64>, n: u32, p: usize) {
        let mut counts = take(&mut self.plies[p].keys);
        counts.clear();
        counts.extend((0..moves.len() as u32).map(|i| (0i64, i)));
        for _ in 0..n {
            counts[sample_index(probs, &mut self.rng)].0 += 1;
        }
        let mut ordered = take(&mut self.plies[p].ordered);
        ordered.clear();
        probs.clear();
        for &(c, i) in counts.iter().filter(|c| c.0 > 0) {
            ordered.push(moves[i as usize]);
            probs.push(c as f64 / f64::from(n));
        }
        std::mem::swap(moves, &mut ordered);
        self.plies[p].ordered = ordered;
        self.plies[p].keys = counts;
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
        let stand = self.s.eval.evaluate_for(state, perspective);
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
