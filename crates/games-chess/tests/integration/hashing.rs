//! Zobrist keys: the incremental key equals the key computed from scratch
//! along seeded random games, and equal positions reached by different move
//! orders have equal keys.

use games_chess::{ChessGame, Rules};
use rand::Rng as _;
use search_core::{Game, Status};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Position};

fn scratch(g: &ChessGame) -> u64 {
    g.position().zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

#[test]
fn incremental_key_matches_scratch_in_random_games() {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
        "8/2k1p3/3pP3/3P2K1/8/8/8/8 w - - 0 1",
    ];
    let mut moves = Vec::new();
    let mut plies = 0;
    for seed in 0..200u64 {
        let mut rng = search_core::rng::seeded(seed);
        let fen = starts[seed as usize % starts.len()];
        // Half the games without draw rules, so they run longer.
        let rules = if seed % 2 == 0 { Rules::STANDARD } else { Rules::PERFT };
        let mut g = ChessGame::from_fen(fen).unwrap().with_rules(rules);
        assert_eq!(g.hash_key(), Some(scratch(&g)));
        for _ in 0..300 {
            moves.clear();
            if let Status::Over(_) = g.generate(&mut moves) {
                break;
            }
            if rng.random_range(0..20) == 0 && g.play_null() {
                assert_eq!(g.hash_key(), Some(scratch(&g)), "{seed}: after a null move, {g}");
                continue;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            g.play(mv);
            plies += 1;
            assert_eq!(g.hash_key(), Some(scratch(&g)), "seed {seed}: after {mv:?}, {g}");
        }
    }
    assert!(plies > 10_000, "only {plies} plies");
}

#[test]
fn transpositions_share_a_key() {
    let mut a = ChessGame::startpos();
    let mut b = ChessGame::startpos();
    for mv in ["g1f3", "b8c6", "b1c3"] {
        a.play_str(mv).unwrap();
    }
    for mv in ["b1c3", "b8c6", "g1f3"] {
        b.play_str(mv).unwrap();
    }
    assert_eq!(a.hash_key(), b.hash_key());
    assert_ne!(a.hash_key(), ChessGame::startpos().hash_key());
}

#[test]
fn en_passant_counts_only_when_legal() {
    // After e2e4 no black pawn can take: same key as with no ep square.
    let mut g = ChessGame::startpos();
    g.play_str("e2e4").unwrap();
    let plain = ChessGame::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(g.hash_key(), plain.hash_key());
    // With a black pawn on d4, the capture is legal and the key differs.
    let ep = ChessGame::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    let no_ep = ChessGame::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
    assert_ne!(ep.hash_key(), no_ep.hash_key());
}

/// Copy-make copies the whole state: keep it small. Most of it is the
/// repetition history, 100 keys of 8 bytes (the fifty-move bound), which
/// replaced a 16-key ring that missed long repetitions.
#[test]
fn state_stays_small() {
    let size = std::mem::size_of::<ChessGame>();
    let history = games_chess::HISTORY_CAPACITY * 8;
    assert!(size <= 320 + history, "ChessGame is {size} bytes");
    println!("size_of::<ChessGame>() = {size}, shakmaty::Chess = {}", std::mem::size_of::<shakmaty::Chess>());
}

/// The history key the engine's ordering uses tells apart every pair of
/// legal moves of a position, and other searches get none (the move's hash).
#[test]
fn history_keys_tell_the_legal_moves_apart_with_the_engines_ordering_only() {
    let mut rng = search_core::rng::seeded(84);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..60 {
        let mut g = ChessGame::startpos().with_see_ordering(true);
        for _ in 0..200 {
            moves.clear();
            if g.generate(&mut moves) != Status::Ongoing {
                break;
            }
            let keys: std::collections::HashSet<u64> =
                moves.iter().map(|&m| g.history_key(m).expect("a key with the engine's ordering")).collect();
            assert_eq!(keys.len(), moves.len(), "{}", g.fen());
            let plain = g.clone().with_see_ordering(false);
            assert!(moves.iter().all(|&m| plain.history_key(m).is_none()));
            checked += moves.len();
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(checked > 10_000, "{checked}");
}
