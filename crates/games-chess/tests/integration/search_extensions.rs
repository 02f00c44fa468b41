//! Late move reductions and check extensions on chess: the extension finds
//! a mate that the same depth misses without it, the mate is real (a deeper
//! plain search agrees), and reductions and the forward pruning (futility,
//! reverse futility, late move pruning) happen and keep mates visible.

use games_chess::{ChessEval, ChessGame};
use search_core::WIN_SCORE;
use search_core::backup::Minimax;
use search_core::search::{LateMovePruning, Limits, Lmr, Options, ReverseFutility, Search, TtDepth};

/// The engine's search with late move reductions and the forward pruning
/// (`lmr`), check extensions (`ext`), or neither.
fn engine(lmr: bool, ext: bool) -> Search<ChessGame, Minimax, ChessEval> {
    let o = Options::default()
        .with_table_mib(8)
        .with_tt_depth(TtDepth::AtLeast)
        .with_lmr(lmr.then(Lmr::default))
        .with_futility(lmr.then_some(150.0))
        .with_reverse_futility(lmr.then_some(ReverseFutility { max_depth: 6, margin: 90.0 }))
        .with_late_move_pruning(lmr.then_some(LateMovePruning { max_depth: 3, base: 3 }))
        .with_check_extension(ext);
    Search::new(Minimax, ChessEval, o).unwrap()
}

/// A score that only a forced mate gives.
fn is_mate(v: f64) -> bool {
    v > WIN_SCORE / 2.0
}

/// Win At Chess no. 4: Qxh7+ Kxh7, hxg6+ (discovered check by the rook)
/// and mate: every white move of the line is a check.
const CHECKING_MATE: &str = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1";

#[test]
fn check_extension_sees_a_checking_mate_beyond_the_horizon() {
    let g = ChessGame::from_fen(CHECKING_MATE).unwrap();
    let plain = engine(false, false).run(&g, &Limits::depth(2)).unwrap();
    let extended = engine(false, true).run(&g, &Limits::depth(2)).unwrap();
    assert!(!is_mate(plain.value.unwrap()), "depth 2 alone cannot see the mate: {:?}", plain.value);
    assert!(is_mate(extended.value.unwrap()), "the extension reaches the mate: {:?}", extended.value);
    let deep = engine(false, false).run(&g, &Limits::depth(6)).unwrap();
    assert!(is_mate(deep.value.unwrap()), "a deeper plain search confirms the mate");
    assert_eq!(extended.best, deep.best, "the same first move");
}

#[test]
fn reductions_happen_and_the_mate_stays_found() {
    let g = ChessGame::from_fen(CHECKING_MATE).unwrap();
    let r = engine(true, true).run(&g, &Limits::depth(6)).unwrap();
    assert!(is_mate(r.value.unwrap()));
    // A quiet middle game: many late quiet moves to reduce.
    let quiet = ChessGame::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    let with = engine(true, false).run(&quiet, &Limits::depth(6)).unwrap();
    let without = engine(false, false).run(&quiet, &Limits::depth(6)).unwrap();
    let s = with.stats;
    assert!(s.reductions > 0 && s.futile > 0 && s.reverse_futile > 0 && s.late_pruned > 0, "{s:?}");
    let s = without.stats;
    assert_eq!((s.reductions, s.futile, s.reverse_futile, s.late_pruned), (0, 0, 0, 0));
    assert!(with.stats.nodes < without.stats.nodes, "{} vs {}", with.stats.nodes, without.stats.nodes);
    assert!(with.best.is_some());
}
