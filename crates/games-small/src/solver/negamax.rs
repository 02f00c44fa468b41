//! The solver's search: a null-window negamax on the bare bitboards.
//!
//! What the generic engine does through its hooks (see the
//! [module documentation](super)), done here without them: the position is
//! two words, moves are bits, the table is [`Table`], nothing is allocated
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
//! The side to move at every node cannot win with its next disc (the
//! caller checks the root; below it, only non-losing moves are played).

use search_core::ParamError;

use super::table::{Slot, Table};
use crate::connect4::Connect4;

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

/// The search state: the board's shape, the table, the node count.
#[derive(Debug, Clone)]
pub(super) struct Negamax<S> {
    geo: Geometry,
    table: Table<S>,
    /// Nodes visited since the last [`take_nodes`](Self::take_nodes).
    nodes: u64,
}

impl<S: Slot> Negamax<S> {
    pub(super) fn new(geo: Geometry, slots: u64) -> Result<Self, ParamError> {
        debug_assert!(geo.span * 2 < 128, "bounds fit in the slot's 7 bits");
        Ok(Negamax { geo, table: Table::new(slots)?, nodes: 0 })
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
        let moves = pos.moves_played() as i32;
        self.search(pos.current_bits(), pos.mask(), moves, alpha, beta)
    }

    /// The node's score within `(alpha, beta)`: see [`probe`](Self::probe).
    fn search(&mut self, current: u64, mask: u64, moves: i32, mut alpha: i32, mut beta: i32) -> i32 {
        let g = &self.geo;
        self.nodes += 1;
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
        let code = i32::from(self.table.get(key));
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
        let mut best = i32::MIN;
        for &packed in &ordered[..n] {
            let rank = 255 - (packed & 255) as usize;
            let cell = safe & self.geo.columns[rank];
            let v = -self.search(opponent, mask | cell, moves + 1, -beta, -alpha);
            if v >= beta {
                let code = self.geo.lower(v);
                self.table.put(key, code);
                return v;
            }
            best = best.max(v);
            alpha = alpha.max(v);
        }
        let code = self.geo.upper(best);
        self.table.put(key, code);
        best
    }
}
