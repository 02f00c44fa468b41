//! The connect-4 opening book: its scores are the solver's, mirror images
//! share an entry, files round-trip, the solver answers from it, and so
//! does the generic search, through the table-lookup hook.

use std::sync::Arc;

use games_small::connect4::{Book, BookError, Connect4};
use games_small::solver::{BookProgress, Solver, build_book};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, Perspective};

/// Every position of the board up to `plies` discs whose game is not over.
fn positions(width: usize, height: usize, plies: u32) -> Vec<Connect4> {
    let mut all = vec![Connect4::new(width, height).unwrap()];
    let mut level = all.clone();
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in &level {
            for col in 0..width as u8 {
                if pos.can_play(col) {
                    let mut child = *pos;
                    child.play_cell(pos.possible() & pos.column_mask(col));
                    if child.winner().is_none() && !next.contains(&child) {
                        next.push(child);
                    }
                }
            }
        }
        all.extend_from_slice(&next);
        level = next;
    }
    all
}

#[test]
fn book_scores_are_the_solver_scores() {
    for (w, h, plies) in [(4, 4, 5), (5, 4, 4), (6, 4, 3)] {
        let book = build_book(w, h, plies, 1, |_| {}).unwrap();
        let mut solver = Solver::with_table_mib(w, h, 1).unwrap();
        let all = positions(w, h, plies);
        for pos in &all {
            let want = solver.solve(pos).unwrap().score;
            assert_eq!(book.probe(pos), Some(want), "{w}×{h} {:?}", pos.moves_string());
            // The best move keeps the score.
            if pos.moves_played() < plies {
                let (col, score) = book.best_move(pos).unwrap();
                assert_eq!(score, want);
                let mut child = *pos;
                child.play_cell(pos.possible() & pos.column_mask(col));
                if child.winner().is_none() && !child.is_full() {
                    assert_eq!(-solver.solve(&child).unwrap().score, want, "{:?} {col}", pos.moves_string());
                }
            }
        }
        // Deeper positions and other boards are not in the book.
        let deeper = all.iter().find(|p| p.moves_played() == plies).unwrap();
        let mut deeper = *deeper;
        let col = (0..w as u8).find(|&c| deeper.can_play(c) && !deeper.is_winning_move(c)).unwrap();
        deeper.play_cell(deeper.possible() & deeper.column_mask(col));
        assert_eq!(book.probe(&deeper), None);
        assert_eq!(book.probe(&Connect4::standard()), None);
    }
}

#[test]
fn mirror_images_are_merged() {
    let book = build_book(5, 4, 3, 1, |_| {}).unwrap();
    let all = positions(5, 4, 3);
    // Fewer entries than positions, and every position and its mirror image
    // have the same score.
    assert!(book.len() < all.len(), "{} entries for {} positions", book.len(), all.len());
    for pos in &all {
        let mirrored: String = pos.moves_string().unwrap().chars().map(|c| char::from(b'1' + b'5' - c as u8)).collect();
        let mirror = Connect4::from_moves(5, 4, &mirrored).unwrap();
        assert_eq!(book.probe(pos), book.probe(&mirror), "{mirrored}");
    }
}

#[test]
fn files_round_trip_and_corruption_is_an_error() {
    let mut calls = Vec::new();
    let book = build_book(5, 4, 4, 1, |p: &BookProgress| calls.push(*p)).unwrap();
    assert!(calls.iter().any(|p| p.ply == 4 && p.done == p.total));
    assert!(calls.iter().any(|p| p.ply == 0));
    let dir = std::env::temp_dir().join(format!("c4book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("5x4.c4book");
    book.save(&path).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len() as usize, book.file_bytes());
    let loaded = Book::load(&path).unwrap();
    assert_eq!(loaded, book);
    assert_eq!((loaded.width(), loaded.height(), loaded.plies()), (5, 4, 4));
    // A flipped score byte: the checksum catches it.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    assert!(matches!(Book::read_from(&bytes[..]), Err(BookError::Checksum { .. })));
    assert!(matches!(Book::load(dir.join("missing")), Err(BookError::Io(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_solver_answers_from_its_book() {
    let book = build_book(6, 4, 2, 1, |_| {}).unwrap();
    let mut solver = Solver::with_table_mib(6, 4, 1).unwrap();
    let empty = Connect4::new(6, 4).unwrap();
    let searched = solver.solve(&empty).unwrap();
    assert!(searched.nodes > 0);
    solver.set_book(Some(book.clone())).unwrap();
    let booked = solver.solve(&empty).unwrap();
    assert_eq!((booked.score, booked.nodes, booked.probes), (searched.score, 0, 0));
    assert_eq!(solver.weak_solve(&empty).unwrap().score, searched.score.signum());
    // Beyond the book, the solver searches as before.
    let deep = Connect4::from_moves(6, 4, "3344").unwrap();
    solver.reset();
    assert!(solver.solve(&deep).unwrap().nodes > 0);
    // A book of another board is refused.
    let mut other = Solver::with_table_mib(7, 6, 1).unwrap();
    assert!(matches!(other.set_book(Some(book)), Err(BookError::Board { .. })));
    assert!(other.book().is_none());
}

/// Values only finished games (mate-distance terminal values by default).
#[derive(Debug)]
struct Zero;
impl Evaluator<Connect4> for Zero {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;
    fn evaluate(&self, _: &Connect4) -> f64 {
        0.0
    }
}

#[test]
fn the_generic_search_probes_the_book_for_exact_values_and_distances() {
    // 4 × 4 is small enough for the generic search to play out to the end.
    let (w, h, plies) = (4, 4, 5);
    let book = Arc::new(build_book(w, h, plies, 1, |_| {}).unwrap());
    let mut decided = 0;
    for pos in positions(w, h, plies - 1) {
        let full = Search::new(Minimax, Zero, Options::default()).unwrap().run(&pos, &Limits::full_tree()).unwrap();
        let mut search = Search::new(Minimax, Zero, Options::default()).unwrap().with_oracle(book.clone()).unwrap();
        let r = search.run(&pos, &Limits::depth(1)).unwrap();
        // Every child is in the book: the depth-1 value is the exact one,
        // distance included.
        assert_eq!(r.value, full.value, "{:?}", pos.moves_string());
        assert!(r.stats.tb_hits > 0 && !r.from_book);
        decided += usize::from(full.value != Some(0.0));
        // And its move keeps the book's score.
        let score = book.probe(&pos).unwrap();
        let mut child = pos;
        child.play(r.best.unwrap());
        if child.winner().is_none() {
            assert_eq!(-book.probe(&child).unwrap(), score, "{:?}", pos.moves_string());
        }
    }
    assert!(decided > 0, "wins and losses are checked too");
}
