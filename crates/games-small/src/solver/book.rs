//! Making a connect-4 opening book with the solver: [`build_book`] and
//! [`BookBuild`] (threads, resuming).

use std::collections::{HashMap, HashSet};

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
/// told how far the build is. [`BookBuild`] does the same on several
/// threads, and resumes an interrupted build.
///
/// Errors: a board size or table size the solver rejects
/// ([`BookError::Param`]); `plies` over 255 or over the board's cells
/// ([`BookError::Header`]).
pub fn build_book(
    width: usize,
    height: usize,
    plies: u32,
    table_mib: usize,
    progress: impl FnMut(&BookProgress),
) -> Result<Book, BookError> {
    let mut progress = progress;
    BookBuild::new(width, height, plies).table_mib(table_mib).run(|p| progress(p), |_, _| {})
}

/// A book build ([`build_book`]) that solves its deepest ply on several
/// threads, each with its own solver, and that resumes: the scores already
/// known ([`resume`](BookBuild::resume), e.g. from a file an earlier run
/// wrote through [`run`](BookBuild::run)'s `solved` callback) are not solved
/// again. The book is the same whatever the threads and whatever was known
/// (the scores are exact).
///
/// ```
/// use std::collections::HashMap;
/// use games_small::solver::{BookBuild, build_book};
/// let mut known = HashMap::new();
/// let first = BookBuild::new(5, 4, 3).table_mib(1).run(|_| {}, |key, score| {
///     known.insert(key, score);
/// })?;
/// // A second run given every score solves nothing, on two threads.
/// let mut solved = 0;
/// let again = BookBuild::new(5, 4, 3).table_mib(1).threads(2).resume(known).run(|_| {}, |_, _| solved += 1)?;
/// assert_eq!((again, solved), (first.clone(), 0));
/// assert_eq!(first, build_book(5, 4, 3, 1, |_| {})?);
/// # Ok::<(), games_small::connect4::BookError>(())
/// ```
#[derive(Debug, Clone)]
pub struct BookBuild {
    width: usize,
    height: usize,
    plies: u32,
    table_mib: usize,
    threads: usize,
    known: HashMap<u64, i32>,
}

impl BookBuild {
    /// The book of `width × height` positions with at most `plies` discs,
    /// on one thread with a 64-MiB table, nothing known.
    pub fn new(width: usize, height: usize, plies: u32) -> Self {
        BookBuild { width, height, plies, table_mib: 64, threads: 1, known: HashMap::new() }
    }

    /// Each solver's table, in MiB.
    #[must_use]
    pub fn table_mib(mut self, mib: usize) -> Self {
        self.table_mib = mib;
        self
    }

    /// Solving threads (at least 1).
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The exact scores of deepest-ply positions already solved, by
    /// canonical key (as `solved` reports them).
    #[must_use]
    pub fn resume(mut self, known: HashMap<u64, i32>) -> Self {
        self.known = known;
        self
    }

    /// Builds the book. `solved(key, score)` is called, on the calling
    /// thread, for each deepest-ply position solved in this run (in the
    /// order they finish), so that a caller can save them as they come;
    /// `progress` after each and once per shallower ply.
    ///
    /// Errors: as [`build_book`]; a known key that is no deepest-ply
    /// position of this book, or a known score out of range
    /// ([`BookError::Header`]: a resume file of another book).
    pub fn run(
        self,
        mut progress: impl FnMut(&BookProgress),
        mut solved: impl FnMut(u64, i32),
    ) -> Result<Book, BookError> {
        let BookBuild { width, height, plies, table_mib, threads, known } = self;
        // The first thread's solver, made before enumerating anything: it
        // checks the sizes.
        let mut first = Some(Solver::with_table_mib(width, height, table_mib).map_err(BookError::Param)?);
        let empty = Connect4::new(width, height).map_err(BookError::Param)?;
        let cells = (width * height) as u32;
        if plies > 255 || plies >= cells {
            return Err(BookError::Header(format!(
                "{plies} plies: at most 255 and fewer than the board's {cells} cells"
            )));
        }
        let levels = levels(&empty, plies);
        let deepest = levels.last().expect("ply 0");
        let mut scores: HashMap<u64, i32> = HashMap::with_capacity(deepest.len());
        let keys: HashSet<u64> = deepest.iter().map(canonical_key).collect();
        let bound = cells as i32;
        for (&key, &score) in &known {
            if !keys.contains(&key) || score.abs() > bound {
                return Err(BookError::Header(format!(
                    "known score {score} of key {key:x}: not a position of {plies} discs of this book"
                )));
            }
            scores.insert(key, score);
        }
        let todo: Vec<Connect4> = deepest.iter().filter(|p| !scores.contains_key(&canonical_key(p))).copied().collect();
        let total = deepest.len();
        let mut nodes = 0;
        let (tx, rx) = std::sync::mpsc::channel::<Result<(u64, i32, u64), BookError>>();
        std::thread::scope(|scope| {
            for t in 0..threads {
                let tx = tx.clone();
                let share: Vec<Connect4> = todo.iter().skip(t).step_by(threads).copied().collect();
                let made = first.take();
                scope.spawn(move || {
                    let mut solver = match made.map_or_else(|| Solver::with_table_mib(width, height, table_mib), Ok) {
                        Ok(s) => s,
                        Err(e) => return drop(tx.send(Err(BookError::Param(e)))),
                    };
                    for pos in share {
                        let sent = match solver.solve(&pos) {
                            Ok(s) => tx.send(Ok((canonical_key(&pos), s.score, s.nodes))),
                            Err(e) => tx.send(Err(BookError::Header(e.to_string()))),
                        };
                        if sent.is_err() {
                            return; // the receiver gave up after an error
                        }
                    }
                });
            }
            drop(tx);
            for message in rx {
                let (key, score, n) = message?;
                nodes += n;
                scores.insert(key, score);
                solved(key, score);
                progress(&BookProgress { ply: plies, done: scores.len(), total, nodes });
            }
            Ok::<(), BookError>(())
        })?;
        let mut entries: Vec<(Connect4, i32)> = deepest.iter().map(|p| (*p, scores[&canonical_key(p)])).collect();
        let mut below = scores;
        for (ply, level) in levels.iter().enumerate().rev().skip(1) {
            let mut here = HashMap::with_capacity(level.len());
            for pos in level {
                let score = score_from_children(pos, cells, &below);
                here.insert(canonical_key(pos), score);
                entries.push((*pos, score));
            }
            progress(&BookProgress { ply: ply as u32, done: level.len(), total: level.len(), nodes });
            below = here;
        }
        Book::from_scores(width, height, plies, entries)
    }
}

/// The unfinished positions of each ply up to `plies` from `empty`, one per
/// mirror pair.
fn levels(empty: &Connect4, plies: u32) -> Vec<Vec<Connect4>> {
    let mut levels: Vec<Vec<Connect4>> = vec![vec![*empty]];
    for _ in 0..plies {
        let mut seen = HashMap::new();
        let mut next = Vec::new();
        for pos in levels.last().expect("ply 0") {
            for col in 0..empty.width() as u8 {
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
    levels
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A build resumed from part of its scores, on two threads, solves only
    /// the rest and makes the same book; scores of another book are
    /// refused.
    #[test]
    fn a_resumed_threaded_build_makes_the_same_book() {
        let mut all = Vec::new();
        let whole = BookBuild::new(5, 4, 4).table_mib(1).run(|_| {}, |k, s| all.push((k, s))).unwrap();
        assert_eq!(whole, build_book(5, 4, 4, 1, |_| {}).unwrap());
        let known: HashMap<u64, i32> = all.iter().step_by(3).copied().collect();
        let mut solved = Vec::new();
        let resumed = BookBuild::new(5, 4, 4)
            .table_mib(1)
            .threads(2)
            .resume(known.clone())
            .run(|_| {}, |k, s| solved.push((k, s)))
            .unwrap();
        assert_eq!(resumed, whole);
        assert_eq!(solved.len(), all.len() - known.len());
        assert!(solved.iter().all(|(k, _)| !known.contains_key(k)));
        // A key of a 3-disc position is no 4-disc position of this book.
        let mut three = Vec::new();
        BookBuild::new(5, 4, 3).table_mib(1).run(|_| {}, |k, s| three.push((k, s))).unwrap();
        let wrong = BookBuild::new(5, 4, 4).table_mib(1).resume(three.into_iter().collect());
        assert!(matches!(wrong.run(|_| {}, |_, _| {}), Err(BookError::Header(_))));
    }
}
