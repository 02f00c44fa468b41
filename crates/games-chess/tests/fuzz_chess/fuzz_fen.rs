//! Property tests of FEN parsing: random strings and mutations of valid
//! FENs never panic; they give a typed error, or a position whose FEN
//! round-trips (and, the syntax being strict, whose piece placement is the
//! input's, character for character).
//!
//! 256 cases per property by default; `PROPTEST_CASES=N` for more.

use games_chess::ChessGame;
use proptest::prelude::*;
use search_core::{Game, GameError};

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Valid FENs to mutate: the usual perft positions and a few endgames.
const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "7k/8/8/8/8/8/8/R3K3 w - - 12 40",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Characters FENs are made of, and a few that they are not.
const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0936 09+_~[]x";

/// Checks the property for one input.
fn check(text: &str) -> Result<(), TestCaseError> {
    match ChessGame::from_fen(text) {
        Ok(g) => {
            let fen = g.fen();
            let again = ChessGame::from_fen(&fen).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
            prop_assert_eq!(again.fen(), fen.clone());
            prop_assert_eq!(again.hash_key(), g.hash_key());
            // Strict syntax: the placement has one spelling per board, the
            // side to move one per side.
            let ours: Vec<&str> = fen.split(' ').collect();
            let theirs: Vec<&str> = text.split_ascii_whitespace().collect();
            prop_assert_eq!(ours[0], theirs[0], "placement of {:?}", text);
            prop_assert_eq!(ours[1], theirs[1], "side to move of {:?}", text);
            // Castling rights as sets (any order is accepted).
            let mut a: Vec<char> = ours[2].chars().collect();
            let mut b: Vec<char> = theirs[2].chars().collect();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b, "castling of {:?}", text);
        }
        Err(GameError::Parse { what: "FEN", input, .. }) => {
            // The message quotes at most a short prefix.
            prop_assert!(input.chars().count() <= 161, "quoted {} chars", input.chars().count());
        }
        Err(other) => prop_assert!(false, "not a FEN parse error: {other:?}"),
    }
    Ok(())
}

/// One edit of a string: replace, insert or delete a character, or
/// duplicate, drop or swap whole fields.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    DuplicateField(usize),
    DropField(usize),
    SwapFields(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = prop::sample::select(ALPHABET.to_vec());
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::DuplicateField),
        any::<usize>().prop_map(Edit::DropField),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::SwapFields(i, j)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
    let n = bytes.len().max(1);
    let f = fields.len().max(1);
    match *edit {
        Edit::Replace(i, c) if !bytes.is_empty() => bytes[i % n] = c,
        Edit::Insert(i, c) => bytes.insert(i % (bytes.len() + 1), c),
        Edit::Delete(i) if !bytes.is_empty() => {
            bytes.remove(i % n);
        }
        Edit::DuplicateField(i) => {
            let field = fields[i % f].clone();
            fields.insert(i % f, field);
            return fields.join(" ");
        }
        Edit::DropField(i) => {
            fields.remove(i % f);
            return fields.join(" ");
        }
        Edit::SwapFields(i, j) => {
            fields.swap(i % f, j % f);
            return fields.join(" ");
        }
        _ => {}
    }
    String::from_utf8(bytes).unwrap_or_default()
}

proptest! {
    #![proptest_config(config())]

    /// Arbitrary Unicode strings.
    #[test]
    fn random_strings_never_panic(text in ".{0,120}") {
        check(&text)?;
    }

    /// Strings over the FEN alphabet, shaped like a FEN (8 ranks, fields).
    #[test]
    fn fen_shaped_strings_never_panic(
        ranks in prop::collection::vec("[pnbrqkPNBRQK1-8]{1,9}", 6..10),
        rest in prop::collection::vec("[wb\\-KQkqa-h0-9+]{1,5}", 0..7),
    ) {
        let text = format!("{} {}", ranks.join("/"), rest.join(" "));
        check(&text)?;
    }

    /// Valid FENs with one to four edits.
    #[test]
    fn mutated_fens_never_panic(seed in prop::sample::select(SEEDS), edits in prop::collection::vec(edit(), 1..5)) {
        let mut text = seed.to_string();
        for e in &edits {
            text = apply(&text, e);
        }
        check(&text)?;
    }

    /// The FENs of positions along random games parse back to themselves.
    #[test]
    fn fens_of_random_games_round_trip(seed in prop::sample::select(SEEDS), choices in prop::collection::vec(any::<u16>(), 0..80)) {
        let mut g = ChessGame::from_fen(seed).unwrap();
        let mut moves = Vec::new();
        for c in choices {
            moves.clear();
            if matches!(g.generate(&mut moves), search_core::Status::Over(_)) {
                break;
            }
            g.play(moves[usize::from(c) % moves.len()]);
            check(&g.fen())?;
            prop_assert!(ChessGame::from_fen(&g.fen()).is_ok(), "{}", g.fen());
        }
    }
}
