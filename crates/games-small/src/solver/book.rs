//! Making a connect-4 opening book with the solver: [`build_book`].

use std::collections::HashMap;

use crate::connect4::book::canonical_key;
use crate::connect4::{Book, BookError, Connect4};

use super::{Solver, win_score};

/// How far [`build_book`] is: called after each position solved at the
/// deepest ply, and once per shallower ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookProgress {
    /// The ply being scored.
    pub ply: u32,
    /// Positions of that ply scored so far.
    pub done: usize,
    /// Positions of that ply (mirror images merged).
    pub total: usize,
    /// Solver nodes so far, over the whole build.
    pub nodes: u64,
}

/// The book of every unfinished `width × height` position with at most
/// `plies` discs, mirror images merged, with its exact score.
///
/// The positions of the deepest ply are solved with one solver (a
/// `table_mib`-MiB table, kept across them: they share much of their
/// trees); every shallower position is then scored from its children
/// without search (the best of: a win with the next disc, the negation of
/// a child's score, 0 for a child that fills the board). `progress` is
/// told how far the build is.
///
/// Errors: a board size or table size the solver rejects
/// ([`BookError::Param`]); `plies` over 255 or over the board's cells
/// ([`BookError::Header`]).
pub fn build_book(
    width: usize,
    height: usize,
    plies: u32,
    table_mib: usize,
    mut progress: impl FnMut(&BookProgress),
) -> Result<Book, BookError> {
    let mut solver = Solver::with_table_mib(width, height, table_mib).map_err(BookError::Param)?;
    let empty = Connect4::new(width, height).map_err(BookError::Param)?;
    let cells = (width * height) as u32;
    if plies > 255 || plies >= cells {
        return Err(BookError::Header(format!("{plies} plies: at most 255 and fewer than the board's {cells} cells")));
    }
    // The unfinished positions of each ply, one per mirror pair.
    let mut levels: Vec<Vec<Connect4>> = vec![vec![empty]];
    for _ in 0..plies {
        let mut seen = HashMap::new();
        let mut next = Vec::new();
        for pos in levels.last().expect("ply 0") {
            for col in 0..width as u8 {
                if !pos.can_play(col) {
                    continue;
                }
                let mut child = *pos;
                child.play_cell(pos.possible() & pos.column_mask(col));
                if child.winner().is_none() && seen.insert(canonical_key(&child), ()).is_none() {
                    next.push(child);
                }
            }
        }
        levels.push(next);
    }
    let mut entries: Vec<(Connect4, i32)> = Vec::new();
    let mut below: HashMap<u64, i32> = HashMap::new();
    let mut nodes = 0;
    for (ply, level) in levels.iter().enumerate().rev() {
        let ply = ply as u32;
        let mut scores = HashMap::with_capacity(level.len());
        for (done, pos) in level.iter().enumerate() {
            let score = if ply == plies {
                let solved = solver.solve(pos).map_err(|e| BookError::Header(e.to_string()))?;
                nodes += solved.nodes;
                progress(&BookProgress { ply, done: done + 1, total: level.len(), nodes });
                solved.score
            } else {
                score_from_children(pos, cells, &below)
            };
            scores.insert(canonical_key(pos), score);
            entries.push((*pos, score));
        }
        if ply != plies {
            progress(&BookProgress { ply, done: level.len(), total: level.len(), nodes });
        }
        below = scores;
    }
    Book::from_scores(width, height, plies, entries)
}

/// The score of `pos` from its children's scores (`below`, by canonical
/// key): every unfinished child is there.
fn score_from_children(pos: &Connect4, cells: u32, below: &HashMap<u64, i32>) -> i32 {
    let n = pos.moves_played();
    if pos.can_win_next() {
        return win_score(cells, n);
    }
    let mut best = i32::MIN;
    for col in 0..pos.width() as u8 {
        if !pos.can_play(col) {
            continue;
        }
        let mut child = *pos;
        child.play_cell(pos.possible() & pos.column_mask(col));
        let value = if child.is_full() { 0 } else { -below[&canonical_key(&child)] };
        best = best.max(value);
    }
    best
}
