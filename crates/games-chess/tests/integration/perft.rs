//! Perft through the `Game` trait against `shakmaty::perft` and the published
//! counts of the standard perft suite (the shared test data's `perftsuite.epd`, see the `test-data` crate; without it the start position
//! and Kiwipete are checked against their published counts and the rest is skipped).
//!
//! Perft counts every leaf of the legal-move tree, so these tests use
//! [`Rules::PERFT`] (no repetition, fifty-move or insufficient-material
//! draws); `standard_rules_cut_the_tree` shows why.

use games_chess::{ChessGame, Rules};
use search_core::perft;

/// One EPD line: the FEN and the published counts for depths 1, 2, ...
struct Case {
    fen: String,
    counts: Vec<u64>,
}

/// The suite, or `None` (with a note) if the shared data is absent.
fn suite(what: &str) -> Option<Vec<Case>> {
    let text = test_data::read("chess/perftsuite.epd", what)?;
    Some(parse_suite(&text))
}

/// The suite when present, else the published counts of the start position
/// and Kiwipete (the two positions every perft implementation quotes).
fn suite_or_known() -> Vec<Case> {
    suite("the rest of the suite (the start position and Kiwipete are checked against their published counts)")
        .unwrap_or_else(|| {
            parse_suite(concat!(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281 ;D5 4865609\n",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039 ;D3 97862 ;D4 4085603\n",
            ))
        })
}

/// EPD lines `FEN ;D1 n1 ;D2 n2 ...`.
fn parse_suite(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("a FEN").trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').expect("`Dn count`");
                    assert!(d.starts_with('D'), "bad field {p:?}");
                    n.trim().parse().expect("a count")
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn find(cases: &[Case], fen_prefix: &str) -> (ChessGame, Vec<u64>) {
    let case = cases.iter().find(|c| c.fen.starts_with(fen_prefix)).expect("position in the suite");
    let game = ChessGame::from_fen(&case.fen).expect("valid FEN").with_rules(Rules::PERFT);
    (game, case.counts.clone())
}

/// Checks depths `1..=max_depth` through the trait against the published
/// counts, and the deepest one against `shakmaty::perft` too.
fn check(game: &ChessGame, counts: &[u64], max_depth: u32) {
    for depth in 1..=max_depth {
        let ours = perft(game, depth).unwrap();
        assert_eq!(ours, counts[depth as usize - 1], "{game} depth {depth}");
    }
    let native = shakmaty::perft(game.position(), max_depth);
    assert_eq!(native, counts[max_depth as usize - 1], "shakmaty, {game} depth {max_depth}");
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";

#[test]
fn start_position_to_depth_5() {
    let cases = suite_or_known();
    let (game, counts) = find(&cases, START);
    check(&game, &counts, 5);
}

#[test]
fn kiwipete_to_depth_4() {
    let cases = suite_or_known();
    let (game, counts) = find(&cases, KIWIPETE);
    check(&game, &counts, 4);
}

/// Castling with every right, promotions (with knights around), knights
/// only, and a pawn ending with en passant chances.
#[test]
fn well_known_positions() {
    let Some(cases) = suite("five well-known perft positions") else { return };
    for (prefix, depth) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq", 4),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w", 4),
        ("8/8/4k3/3Nn3/3nN3/4K3/8/8 w", 5),
        ("8/2k1p3/3pP3/3P2K1/8/8/8/8 w", 6),
        ("7k/RR6/8/8/8/8/rr6/7K w", 4),
    ] {
        let (game, counts) = find(&cases, prefix);
        check(&game, &counts, depth);
    }
}

/// Every position of the suite, to the deepest depth with at most 2 000 000
/// leaves (a few seconds in all).
#[test]
fn whole_suite_at_moderate_depth() {
    let Some(cases) = suite("the whole perft suite") else { return };
    for case in &cases {
        let game = ChessGame::from_fen(&case.fen).expect("valid FEN").with_rules(Rules::PERFT);
        let depth = case.counts.iter().take_while(|&&n| n <= 2_000_000).count() as u32;
        assert!(depth >= 1, "{}", case.fen);
        assert_eq!(perft(&game, depth).unwrap(), case.counts[depth as usize - 1], "{} depth {depth}", case.fen);
    }
}

/// The deep counts: every suite position to the deepest published depth
/// with at most 200 million leaves (start position depth 6, Kiwipete depth
/// 5), through the trait and natively.
#[test]
#[ignore = "slow (about a minute): run with --ignored"]
fn deep_perft() {
    let Some(cases) = suite("the deep perft counts") else { return };
    for case in &cases {
        let game = ChessGame::from_fen(&case.fen).expect("valid FEN").with_rules(Rules::PERFT);
        let depth = case.counts.iter().take_while(|&&n| n <= 200_000_000).count() as u32;
        check(&game, &case.counts[..depth as usize], depth);
    }
}

/// Under the standard rules, capturing the last rook (king against king) is
/// a draw, which ends that branch: perft counts drop. That is why perft uses
/// `Rules::PERFT`.
#[test]
fn standard_rules_cut_the_tree() {
    let fen = "8/8/8/8/8/8/6k1/4K2R w K - 0 1";
    let standard = ChessGame::from_fen(fen).unwrap();
    let plain = standard.clone().with_rules(Rules::PERFT);
    assert_eq!(perft(&plain, 3).unwrap(), 564);
    assert_eq!(perft(&standard, 2).unwrap(), perft(&plain, 2).unwrap());
    assert!(perft(&standard, 3).unwrap() < 564);
}
