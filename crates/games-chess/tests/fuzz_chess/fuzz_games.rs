//! Property tests along random legal games: the incrementally updated
//! Zobrist key equals the key computed from scratch after every move (and
//! null move), and the repetition rule agrees with a naive count over the
//! whole game since the last irreversible move; and `count_moves` (perft's
//! last ply) agrees with `generate` in every position, draws by rule
//! included.
//!
//! The games shuffle on purpose: a choice may ask to undo the side's last
//! move when it can, so repetitions (short and long) are common.
//!
//! 128 cases per property by default; `PROPTEST_CASES=N` for more.

use games_chess::shakmaty::zobrist::Zobrist64;
use games_chess::shakmaty::{EnPassantMode, Move, Position};
use games_chess::{ChessGame, HISTORY_CAPACITY, Rules};
use proptest::prelude::*;
use search_core::{Game, Outcome, Status};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(128);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "7k/8/8/8/8/8/8/R3K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
];

fn scratch(g: &ChessGame) -> u64 {
    g.position().zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// What the game does at one step.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Play the legal move with this index (modulo their number).
    Move(u16),
    /// Undo the side's own last move if that is a legal move, else play
    /// the move with this index.
    Undo(u16),
    /// A null move (when legal).
    Null,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => any::<u16>().prop_map(Step::Move),
        6 => any::<u16>().prop_map(Step::Undo),
        1 => Just(Step::Null),
    ]
}

/// The reversing move of `mv` among `legal`, if there is one.
fn reverse(mv: Move, legal: &[Move]) -> Option<Move> {
    legal.iter().copied().find(|m| m.role() == mv.role() && m.from() == Some(mv.to()) && Some(m.to()) == mv.from())
}

/// Whether `key` occurs twice before in `keys` (oldest first), at even
/// distances, among the last [`HISTORY_CAPACITY`] keys.
fn naive_threefold(keys: &[u64], key: u64) -> bool {
    let start = keys.len().saturating_sub(HISTORY_CAPACITY);
    let n = keys.len();
    (start..n).filter(|&i| (n - i).is_multiple_of(2) && keys[i] == key).count() >= 2
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn incremental_keys_and_repetitions_match_a_recount(
        start in prop::sample::select(STARTS),
        steps in prop::collection::vec(step(), 0..400),
    ) {
        // Repetitions only, so that the games last (no fifty-move or
        // material draws) and the naive count is the only reference.
        let rules = Rules { repetition: true, fifty_move: false, insufficient_material: false };
        let mut g = ChessGame::from_fen(start).unwrap().with_rules(rules);
        prop_assert_eq!(g.hash_key(), Some(scratch(&g)));
        // Keys of the positions since the last irreversible move, oldest
        // first, and the moves played, for the undo steps.
        let mut keys: Vec<u64> = Vec::new();
        let mut played: Vec<Option<Move>> = Vec::new();
        let mut legal = Vec::new();
        for (ply, step) in steps.into_iter().enumerate() {
            legal.clear();
            let status = g.generate(&mut legal);
            prop_assert_eq!(g.count_moves(&mut Vec::new()), (status == Status::Ongoing).then_some(legal.len()), "{}", g);
            let key = scratch(&g);
            let repeated = naive_threefold(&keys, key);
            let moves = g.position().legal_moves();
            match status {
                Status::Over(Outcome::Draw) => {
                    prop_assert!(repeated || moves.is_empty(), "ply {}: a draw without a repetition in {}", ply, g);
                    break;
                }
                Status::Over(_) => {
                    prop_assert!(moves.is_empty() && g.is_check(), "ply {}: not a mate: {}", ply, g);
                    break;
                }
                Status::Ongoing => prop_assert!(!repeated, "ply {}: threefold missed in {}", ply, g),
            }
            let mv = match step {
                Step::Null => {
                    if g.play_null() {
                        keys.clear();
                        played.push(None);
                        prop_assert_eq!(g.hash_key(), Some(scratch(&g)), "after a null move, {}", g);
                        continue;
                    }
                    legal[0]
                }
                Step::Move(i) => legal[usize::from(i) % legal.len()],
                Step::Undo(i) => played
                    .len()
                    .checked_sub(2)
                    .and_then(|j| played[j])
                    .and_then(|own| reverse(own, &legal))
                    .unwrap_or(legal[usize::from(i) % legal.len()]),
            };
            if mv.is_zeroing() {
                keys.clear();
            } else {
                keys.push(key);
            }
            g.play(mv);
            played.push(Some(mv));
            prop_assert_eq!(g.hash_key(), Some(scratch(&g)), "after {:?}, {}", mv, g);
        }
    }

    /// Under the standard rules, no game runs past the fifty-move bound with
    /// an ongoing status, and every key stays right.
    #[test]
    fn standard_games_end_by_the_rules(start in prop::sample::select(STARTS), steps in prop::collection::vec(step(), 0..300)) {
        let mut g = ChessGame::from_fen(start).unwrap();
        let mut legal = Vec::new();
        let mut last: Option<Move> = None;
        let mut before: Option<Move> = None;
        for step in steps {
            legal.clear();
            let status = g.generate(&mut legal);
            prop_assert_eq!(g.count_moves(&mut Vec::new()), (status == Status::Ongoing).then_some(legal.len()), "{}", g);
            if let Status::Over(_) = status {
                break;
            }
            prop_assert!(g.position().halfmoves() < 100, "{}", g);
            let mv = match step {
                Step::Undo(i) => before.and_then(|own| reverse(own, &legal)).unwrap_or(legal[usize::from(i) % legal.len()]),
                Step::Move(i) => legal[usize::from(i) % legal.len()],
                Step::Null => legal[0],
            };
            g.play(mv);
            before = last;
            last = Some(mv);
            prop_assert_eq!(g.hash_key(), Some(scratch(&g)));
        }
    }
}
