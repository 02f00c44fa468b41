//! The solver's search: a null-window negamax on the bare bitboards.
//!
//! What the generic engine does through its hooks (see the
//! [module documentation](super)), done here without them: the position is
//! two words, moves are bits, the table is [`Table`](super::table::Table), nothing is allocated
//! per node and no score is a float. Per node:
//!
//! 1. the *non-losing moves* are computed (a move that lets the opponent
//!    complete four, or that leaves a four the opponent threatens open, is
//!    never played); none left is a loss with the opponent's next disc;
//! 2. the score bounds from the discs left (neither side can win with its
//!    next disc) and the table's bound narrow the window, which may close;
//! 3. the moves are tried in the order of the number of *threats* (empty
//!    cells that would complete four) each leaves its player, centre columns
//!    first among equals;
//! 4. the result goes to the table: a lower bound after a cut-off, an upper
//!    bound otherwise.
//!
//! The table is read and written at every node until a solve has visited as
//! many nodes as the table has slots. From then on the table no longer holds
//! the tree, each read is likely a cache miss, and the search turns *sparse*:
//! it reads and writes the table only at nodes with an even number of empty
//! cells, more than [`TABLE_MIN_LEFT`]; at the others (odd) it instead looks
//! up each child's stored upper bound (an *enhanced transposition cut-off*:
//! the child's bound is a lower bound here, and the reads are independent of
//! one another, so their misses overlap). Small searches (every easy Pons
//! set) are unchanged node for node; on begin-hard positions the sparse
//! table saved about 30% of the time ([docs/benchmarks.md](https://github.com/game-search/backup-rules/blob/main/docs/benchmarks.md)).
//!
//! The side to move at every node cannot win with its next disc (the
//! caller checks the root; below it, only non-losing moves are played).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::table::Store;
use crate::connect4::Connect4;

/// In sparse mode, nodes with this many empty cells or fewer skip the table:
/// their subtrees cost less than a cache miss.
const TABLE_MIN_LEFT: i32 = 6;

/// In a parallel solve, nodes with at least this many empty cells spread the
/// threads over their moves (see [`Crew`]); below, a subtree is too small to
/// be worth the bookkeeping.
const SPREAD_MIN_LEFT: i32 = 12;

/// How many positions [`Crew`] can mark as being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;

/// What the threads of one parallel solve share besides the table: the
/// signal that the probe is answered, and the positions some thread is
/// searching now.
///
/// Every thread searches the same probe from the root (the table shares
/// what each proves). At a node with [`SPREAD_MIN_LEFT`] or more empty cells,
/// after the first move (which every thread searches, so that a cut-off is
/// found before the threads split), a thread skips a move whose child
/// another thread is searching and comes back to it after the node's other
/// moves, when its bound is likely in the table (the deferral of
/// Weill's ABDADA, with a table of busy positions of its own as in
/// Kerrigan's simplification). The first thread to finish the probe gives the
/// answer and stops the others, which return without storing anything.
#[derive(Debug, Clone)]
pub(super) struct Crew {
    stop: Arc<AtomicBool>,
    /// Keys of children being searched (0: free).
    busy: Arc<Vec<AtomicU64>>,
}

impl Crew {
    pub(super) fn new() -> Self {
        Crew {
            stop: Arc::new(AtomicBool::new(false)),
            busy: Arc::new((0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()),
        }
    }

    /// Tells every thread that the probe is answered.
    pub(super) fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Makes the crew ready for the next probe.
    pub(super) fn restart(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_SLOTS.trailing_zeros())) as usize]
    }

    fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// The board's shape, as bit masks and shifts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Geometry {
    /// Every cell.
    board: u64,
    /// The bottom cell of each column.
    bottom: u64,
    /// The cells of each column, in the centre-first order.
    columns: [u64; 32],
    width: usize,
    /// Cells of the board.
    cells: i32,
    /// The strides of the horizontal and diagonal lines that fit in 64 bits
    /// (a line of four with stride `s` spans `3s` bits).
    strides: [u32; 3],
    strides_len: usize,
    /// The smallest score a table bound can hold (every score is above).
    floor: i32,
    /// How many scores there are from `floor` to `−floor`.
    span: i32,
}

impl Geometry {
    pub(super) fn new(pos: &Connect4) -> Self {
        let width = pos.width();
        let h1 = pos.height() as u32 + 1;
        let mut columns = [0; 32];
        for (i, c) in columns.iter_mut().enumerate().take(width) {
            *c = pos.column_mask(pos.column_order(i));
        }
        let mut strides = [0; 3];
        let mut strides_len = 0;
        for s in [h1 - 1, h1, h1 + 1] {
            if 3 * s < 64 {
                strides[strides_len] = s;
                strides_len += 1;
            }
        }
        let cells = (pos.width() * pos.height()) as i32;
        let floor = -(cells / 2) - 1;
        Geometry {
            board: pos.board_mask(),
            bottom: pos.bottom_mask(),
            columns,
            width,
            cells,
            strides,
            strides_len,
            floor,
            span: 1 - 2 * floor,
        }
    }

    /// The largest perfect key of the board.
    pub(super) fn max_key(&self) -> u64 {
        self.board.saturating_mul(2)
    }

    /// The empty cells (not in `mask`) that would complete four for `discs`.
    #[inline(always)]
    fn winning_cells(&self, discs: u64, mask: u64) -> u64 {
        let mut r = (discs << 1) & (discs << 2) & (discs << 3);
        for &s in &self.strides[..self.strides_len] {
            let p = (discs << s) & (discs << (2 * s));
            r |= p & (discs << (3 * s));
            r |= p & (discs >> s);
            let p = (discs >> s) & (discs >> (2 * s));
            r |= p & (discs << s);
            r |= p & (discs >> (3 * s));
        }
        r & (self.board ^ mask)
    }

    /// The table code of an upper bound `v`.
    #[inline(always)]
    fn upper(&self, v: i32) -> u8 {
        (v - self.floor + 1) as u8
    }

    /// The table code of a lower bound `v`.
    #[inline(always)]
    fn lower(&self, v: i32) -> u8 {
        (v - self.floor + 1 + self.span) as u8
    }
}

/// The search state: the board's shape, the table, the node count, and in
/// a parallel solve the crew.
#[derive(Debug, Clone)]
pub(super) struct Negamax<T> {
    geo: Geometry,
    table: T,
    /// Nodes visited since the last [`take_nodes`](Self::take_nodes).
    nodes: u64,
    /// The node count from which a solve turns sparse: the table's slots
    /// (shared by the threads of a parallel solve).
    sparse_after: u64,
    /// The other threads of a parallel solve (`None` alone; only a
    /// [`Store::SHARED`] table has one).
    crew: Option<Crew>,
    /// This probe was stopped: its results so far are not the score.
    halted: bool,
}

impl<T: Store> Negamax<T> {
    /// A search with `table`, turning sparse after `sparse_after` nodes.
    pub(super) fn new(geo: Geometry, table: T, sparse_after: u64, crew: Option<Crew>) -> Self {
        debug_assert!(geo.span * 2 < 128, "bounds fit in the slot's 7 bits");
        Negamax { geo, table, nodes: 0, sparse_after, crew, halted: false }
    }

    /// Whether the last probe was stopped by another thread of its crew.
    pub(super) fn halted(&self) -> bool {
        self.halted
    }

    pub(super) fn clear(&mut self) {
        self.table.clear();
    }

    pub(super) fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The nodes visited since the last call.
    pub(super) fn take_nodes(&mut self) -> u64 {
        std::mem::take(&mut self.nodes)
    }

    /// The score of `pos` (whose side to move cannot win with its next
    /// disc) if it lies in `(alpha, beta)`; otherwise a bound on the
    /// score beyond the window's side it falls on (fail-soft within the
    /// bounds the position allows).
    pub(super) fn probe(&mut self, pos: &Connect4, alpha: i32, beta: i32) -> i32 {
        self.halted = false;
        let moves = pos.moves_played() as i32;
        self.search(pos.current_bits(), pos.mask(), moves, alpha, beta)
    }

    /// The node's score within `(alpha, beta)`: see [`probe`](Self::probe).
    fn search(&mut self, current: u64, mask: u64, moves: i32, mut alpha: i32, mut beta: i32) -> i32 {
        let g = &self.geo;
        self.nodes += 1;
        if T::SHARED && self.nodes & 1023 == 0 && self.crew.as_ref().is_some_and(Crew::halted) {
            self.halted = true;
            return 0;
        }
        // 1. Moves that do not lose at once.
        let possible = mask.wrapping_add(g.bottom) & g.board;
        let opponent = current ^ mask;
        let threats = g.winning_cells(opponent, mask);
        let forced = possible & threats;
        let safe = if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two cells to block: the opponent wins with its next disc.
                return -(g.cells - moves) / 2;
            }
            forced & !(threats >> 1)
        } else {
            possible & !(threats >> 1)
        };
        if safe == 0 {
            return -(g.cells - moves) / 2;
        }
        if moves >= g.cells - 2 {
            return 0;
        }
        // 2. Bounds: neither side wins with its next disc.
        let min = -(g.cells - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (g.cells - 1 - moves) / 2;
        let key = current.wrapping_add(mask);
        let left = g.cells - moves;
        let tabled = self.nodes < self.sparse_after || (left > TABLE_MIN_LEFT && left % 2 == 0);
        let code = if tabled { i32::from(self.table.get(key)) } else { 0 };
        if code > g.span {
            let lower = code - g.span + g.floor - 1;
            if alpha < lower {
                alpha = lower;
                if alpha >= beta {
                    return alpha;
                }
            }
        } else if code != 0 {
            max = max.min(code + g.floor - 1);
        } else if !tabled && left > TABLE_MIN_LEFT {
            // Enhanced transposition cut-off: a child's stored upper bound
            // is a lower bound on this node.
            let mut rest = safe;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest ^= cell;
                let c = i32::from(self.table.get(opponent.wrapping_add(mask | cell)));
                if c != 0 && c <= g.span {
                    let lower = -(c + g.floor - 1);
                    if lower >= beta {
                        return lower;
                    }
                }
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // 3. Order: more threats first, centre first among equals (a stable
        // insertion sort of at most `width` moves, each packed as its
        // threat count above its rank in the centre-first order, inverted so
        // that larger is earlier).
        let mut ordered = [0u64; 32];
        let mut n = 0;
        for (rank, &column) in g.columns[..g.width].iter().enumerate() {
            let cell = safe & column;
            if cell == 0 {
                continue;
            }
            let threats = u64::from(g.winning_cells(current | cell, mask).count_ones());
            let packed = threats << 8 | (255 - rank as u64);
            let mut i = n;
            while i > 0 && ordered[i - 1] < packed {
                ordered[i] = ordered[i - 1];
                i -= 1;
            }
            ordered[i] = packed;
            n += 1;
        }
        // 4. Search (fail-soft: the bound returned and stored is the best
        // child's, which may be tighter than the window); store the bound.
        // In a parallel solve, a move whose child another thread is
        // searching waits for a second pass (`Crew`); alone, there is one
        // pass.
        let spread = T::SHARED && left >= SPREAD_MIN_LEFT;
        let mut best = i32::MIN;
        let mut pending = n;
        let mut first_pass = true;
        while pending > 0 {
            let mut deferred = 0;
            for j in 0..pending {
                let packed = ordered[j];
                let rank = 255 - (packed & 255) as usize;
                let child = mask | (safe & self.geo.columns[rank]);
                let busy_key = if spread && first_pass && j > 0 { opponent.wrapping_add(child) } else { 0 };
                if let (Some(crew), true) = (&self.crew, busy_key != 0) {
                    if crew.is_busy(busy_key) {
                        ordered[deferred] = packed;
                        deferred += 1;
                        continue;
                    }
                    crew.enter(busy_key);
                }
                let v = -self.search(opponent, child, moves + 1, -beta, -alpha);
                if T::SHARED {
                    if let (Some(crew), true) = (&self.crew, busy_key != 0) {
                        crew.leave(busy_key);
                    }
                    if self.halted {
                        return 0;
                    }
                }
                if v >= beta {
                    if tabled {
                        let code = self.geo.lower(v);
                        self.table.put(key, code);
                    }
                    return v;
                }
                best = best.max(v);
                alpha = alpha.max(v);
            }
            pending = deferred;
            first_pass = false;
        }
        if tabled {
            let code = self.geo.upper(best);
            self.table.put(key, code);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::Table;
    use super::*;

    /// Positions of `width × height` after `discs` random moves (seeded),
    /// unfinished and with no win for the side to move.
    fn positions(width: usize, height: usize, discs: usize, count: usize) -> Vec<Connect4> {
        use search_core::RngExt;
        let mut rng = search_core::rng::seeded(0x2545_f491_4f6c_dd1d);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Connect4::new(width, height).unwrap();
            let mut ok = true;
            for _ in 0..discs {
                let column = rng.random_range(0..width) as u8;
                if !pos.can_play(column) || pos.is_winning_move(column) {
                    ok = false;
                    break;
                }
                search_core::Game::play(&mut pos, column);
            }
            if ok && !pos.can_win_next() {
                out.push(pos);
            }
        }
        out
    }

    /// A search whose table is far smaller than its trees turns sparse a
    /// few hundred nodes in; its exact scores must equal those of a search
    /// whose table never fills.
    #[test]
    fn the_sparse_table_keeps_scores_exact() {
        let mut turned = 0;
        for (width, height, discs) in [(7, 6, 14), (7, 6, 18), (6, 5, 8), (5, 4, 4)] {
            let cells = (width * height) as i32;
            for pos in positions(width, height, discs, 12) {
                let geo = Geometry::new(&pos);
                let mut dense = Negamax::new(geo, Table::<u64>::new(1 << 22).unwrap(), 1 << 22, None);
                let mut sparse = Negamax::new(geo, Table::<u64>::new(251).unwrap(), 251, None);
                let want = dense.probe(&pos, -cells, cells);
                let got = sparse.probe(&pos, -cells, cells);
                assert_eq!(got, want, "{width}×{height} {pos:?}");
                turned += usize::from(sparse.take_nodes() > 251);
            }
        }
        assert!(turned >= 24, "only {turned} searches reached the sparse mode");
    }
}
