//! The Stenmark-style connect-4 evaluator.

use search_core::{Evaluator, ParamError, Perspective, Player};

use super::board::{Connect4, shl, shr};

/// The Stenmark-style connect-4 heuristic, from [`Player::First`]'s point of
/// view: `score(X) − score(O)`, where for each side
///
/// ```text
/// score = Σ over the open windows of window_weights[k]
///       + cell_weight × Σ over its discs of table[cell]
/// ```
///
/// A *window* is a line of four cells inside the board; it is *open* for a
/// side if the opponent has no disc in it; `k` is the number of the side's
/// own discs in it (`k = 4`, only on a finished board, counts as 3). `table`
/// is the cell-weight table ([`Connect4::cell_weight_table`]): the number of
/// windows through each cell. The defaults are `window_weights = [1, 2, 3, 4]`
/// (each open window counts 1, plus 1 per own disc in it) and
/// `cell_weight = 1`.
///
/// Everything is computed with bitboard shifts and population counts: no
/// table lookups and no allocation. With weights bounded by
/// [`MAX_WEIGHT`](Self::MAX_WEIGHT) the value stays within ±2.6·10⁵ on any
/// board (at most 256 windows, each cell in at most 16), far inside
/// `±(WIN_SCORE − MAX_PLY)`.
///
/// ```
/// use games_small::connect4::{Connect4, Connect4Eval};
/// use search_core::Evaluator;
/// let e = Connect4Eval::default();
/// assert_eq!(e.evaluate(&Connect4::standard()), 0.0);
/// // X in the centre column: the best first move scores highest.
/// let centre = e.evaluate(&Connect4::from_moves(7, 6, "4")?);
/// let edge = e.evaluate(&Connect4::from_moves(7, 6, "1")?);
/// assert!(centre > edge && edge > 0.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Connect4Eval {
    window_weights: [f64; 4],
    cell_weight: f64,
}

impl Default for Connect4Eval {
    fn default() -> Self {
        Connect4Eval { window_weights: [1.0, 2.0, 3.0, 4.0], cell_weight: 1.0 }
    }
}

impl Connect4Eval {
    /// The largest absolute weight accepted by [`new`](Self::new).
    pub const MAX_WEIGHT: f64 = 100.0;

    /// An evaluator with the given weights (see the type's documentation).
    /// Every weight must be finite and within `±MAX_WEIGHT`.
    pub fn new(window_weights: [f64; 4], cell_weight: f64) -> Result<Self, ParamError> {
        for w in window_weights.into_iter().chain([cell_weight]) {
            if !w.is_finite() || w.abs() > Self::MAX_WEIGHT {
                return Err(ParamError::new("weights", format!("must be finite and within ±100, got {w}")));
            }
        }
        Ok(Connect4Eval { window_weights, cell_weight })
    }

    /// The weights of an open window holding 0, 1, 2 and 3 own discs.
    pub fn window_weights(&self) -> [f64; 4] {
        self.window_weights
    }

    /// The weight of the cell-table term.
    pub fn cell_weight(&self) -> f64 {
        self.cell_weight
    }

    /// `score` of the type's documentation for the side holding `own`.
    #[inline]
    pub fn side_score(&self, board: &Connect4, own: u64, other: u64) -> f64 {
        let h1 = board.h1();
        let free = board.board_mask() & !other;
        let mut counts = [0u32; 4];
        let mut cells = 0u32;
        for s in [1, h1 - 1, h1, h1 + 1] {
            let starts = board.window_starts(s);
            let open = starts & free & shr(free, s) & shr(free, 2 * s) & shr(free, 3 * s);
            let (a, b, c, d) = (own, shr(own, s), shr(own, 2 * s), shr(own, 3 * s));
            cells += (starts & a).count_ones()
                + (starts & b).count_ones()
                + (starts & c).count_ones()
                + (starts & d).count_ones();
            // Bit-sliced count of own discs per window: ones, twos (count 4 is
            // the four-bit).
            let ones = a ^ b ^ c ^ d;
            let twos = (a & b) ^ (c & d) ^ ((a ^ b) & (c ^ d));
            let four = a & b & c & d;
            counts[0] += (open & !ones & !twos & !four).count_ones();
            counts[1] += (open & ones & !twos).count_ones();
            counts[2] += (open & !ones & twos).count_ones();
            counts[3] += (open & ((ones & twos) | four)).count_ones();
        }
        let w = &self.window_weights;
        w[0] * f64::from(counts[0])
            + w[1] * f64::from(counts[1])
            + w[2] * f64::from(counts[2])
            + w[3] * f64::from(counts[3])
            + self.cell_weight * f64::from(cells)
    }
}

impl Evaluator<Connect4> for Connect4Eval {
    const PERSPECTIVE: Perspective = Perspective::First;

    #[inline]
    fn evaluate(&self, state: &Connect4) -> f64 {
        let (x, o) = match state.to_move() {
            Player::First => (state.current_bits(), state.opponent_bits()),
            Player::Second => (state.opponent_bits(), state.current_bits()),
        };
        self.side_score(state, x, o) - self.side_score(state, o, x)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-search_core::WIN_SCORE, search_core::WIN_SCORE))
    }
}

/// The connect-4 heuristic of the Rminimax paper's experiments, as we read
/// its description ([docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md)): for each side, the number of
/// lines of four it can still complete (windows holding none of the
/// opponent's discs), plus, for every empty cell lying on at least one such
/// line, the cell's weight ([`Connect4::windows_through`]: how many lines
/// pass through it). The value is the side to move's total minus the
/// other's ([`Perspective::SideToMove`]).
///
/// It counts possibilities, not discs: a disc matters only by the lines it
/// closes for the opponent and the cells it fills. On the 4×4 board a side's
/// total is at most 10 + 40, so `|h| ≤ 50`.
///
/// ```
/// use games_small::connect4::{Connect4, Connect4LinesEval};
/// use search_core::Evaluator;
/// let e = Connect4LinesEval;
/// assert_eq!(e.evaluate(&Connect4::new(4, 4)?), 0.0);
/// // After a first disc in a centre column the second player (to move) has
/// // lost lines: negative for it.
/// assert!(e.evaluate(&Connect4::from_moves(4, 4, "2")?) < 0.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Connect4LinesEval;

impl Connect4LinesEval {
    /// A side's total: open lines plus the weights of the empty cells on them.
    pub fn side_score(&self, board: &Connect4, own: u64, other: u64) -> f64 {
        let h1 = board.h1();
        let dirs = [1, h1 - 1, h1, h1 + 1];
        let free = board.board_mask() & !other;
        let empty = board.board_mask() & !(own | other);
        let mut lines = 0u32;
        let mut covered = 0u64;
        for s in dirs {
            let open = board.window_starts(s) & free & shr(free, s) & shr(free, 2 * s) & shr(free, 3 * s);
            lines += open.count_ones();
            covered |= open | shl(open, s) | shl(open, 2 * s) | shl(open, 3 * s);
        }
        let cells = empty & covered;
        // Σ over those cells of the number of windows through them = Σ over
        // all windows of how many of those cells they hold.
        let mut weight = 0u32;
        for s in dirs {
            let starts = board.window_starts(s);
            for k in 0..4 {
                weight += (starts & shr(cells, k * s)).count_ones();
            }
        }
        f64::from(lines + weight)
    }
}

impl Evaluator<Connect4> for Connect4LinesEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, state: &Connect4) -> f64 {
        let (me, them) = (state.current_bits(), state.opponent_bits());
        self.side_score(state, me, them) - self.side_score(state, them, me)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-search_core::WIN_SCORE, search_core::WIN_SCORE))
    }
}
