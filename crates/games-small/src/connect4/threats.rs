//! Threat scanning on the connect-4 bitboards: the cells that would complete
//! a four, immediate wins, and the moves that do not lose at once (what a
//! solver needs).

use super::board::{Column, Connect4, shl, shr};

impl Connect4 {
    /// Whether dropping a disc in `col` (which must be playable) makes four
    /// for the side to move.
    #[inline]
    pub fn is_winning_move(&self, col: Column) -> bool {
        self.winning_cells() & self.possible() & self.column_mask(col) != 0
    }

    /// Whether the side to move can win with its next disc.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != 0
    }

    /// The empty cells (playable now or not) that would complete a four for
    /// the side to move: its threats.
    #[inline]
    pub fn winning_cells(&self) -> u64 {
        self.threats_of(self.current_bits())
    }

    /// The empty cells that would complete a four for the side that moved
    /// last: the threats the side to move must watch.
    #[inline]
    pub fn opponent_winning_cells(&self) -> u64 {
        self.threats_of(self.opponent_bits())
    }

    /// The empty cells that would complete a four for the discs `discs`.
    #[inline]
    pub fn threats_of(&self, discs: u64) -> u64 {
        self.completing_cells(discs, self.mask())
    }

    /// The cells outside `occupied` that would complete a four for `discs`.
    #[inline]
    fn completing_cells(&self, discs: u64, occupied: u64) -> u64 {
        let h1 = self.h1();
        // Vertical: three discs below the cell.
        let mut r = shl(discs, 1) & shl(discs, 2) & shl(discs, 3);
        for s in [h1 - 1, h1, h1 + 1] {
            let p = shl(discs, s) & shl(discs, 2 * s);
            r |= p & shl(discs, 3 * s);
            r |= p & shr(discs, s);
            let p = shr(discs, s) & shr(discs, 2 * s);
            r |= p & shl(discs, s);
            r |= p & shr(discs, 3 * s);
        }
        r & (self.board_mask() ^ occupied)
    }

    /// The playable cells that do not let the opponent win at once: not a
    /// cell the opponent needs, and not below one. Assumes the side to move
    /// cannot win with its next disc (check [`can_win_next`](Self::can_win_next)
    /// first). Returns 0 if every move loses (the opponent has two immediate
    /// threats, or one under another).
    #[inline]
    pub fn possible_non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_winning_cells();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !shr(threats, 1)
    }

    /// The number of threats (winning cells) the side to move would have
    /// after dropping a disc on `cell` (one bit of [`possible`](Self::possible)):
    /// a move-ordering score for solvers.
    #[inline]
    pub fn threats_after(&self, cell: u64) -> u32 {
        self.completing_cells(self.current_bits() | cell, self.mask() | cell).count_ones()
    }
}
