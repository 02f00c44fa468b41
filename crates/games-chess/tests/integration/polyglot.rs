//! Polyglot books: the format's published test keys, moves, reading and
//! writing, and books made from PGN games.

use games_chess::ChessGame;
use games_chess::polyglot::{Book, BookBuilder, BookError, Entry, encode_move, key};
use search_core::Game;

/// The test positions published with the format, reached by these moves.
#[test]
fn published_test_keys() {
    let lines: [(&[&str], u64); 9] = [
        (&[], 0x463b96181691fc9c),
        (&["e2e4"], 0x823c9b50fd114196),
        (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
        (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
        (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
        (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"], 0x652a607ca3f242c1),
        (&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"], 0x00fdd303c946bdd9),
        (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"], 0x3c8123ea7b067637),
        (&["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"], 0x5c3f9b829b279560),
    ];
    for (moves, expected) in lines {
        let mut g = ChessGame::startpos();
        for m in moves {
            g.play_str(m).unwrap();
        }
        assert_eq!(key(g.position()), expected, "{moves:?}");
    }
}

#[test]
fn castling_is_the_king_taking_its_rook() {
    let g = ChessGame::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let short = g.parse_move("e1g1").unwrap();
    let long = g.parse_move("e1c1").unwrap();
    // e1 = (rank 0, file 4), h1 = (0, 7), a1 = (0, 0).
    assert_eq!(encode_move(&short), 4 << 6 | 7);
    assert_eq!(encode_move(&long), 4 << 6);
    let promo = ChessGame::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap().parse_move("a7a8q").unwrap();
    assert_eq!(encode_move(&promo), 4 << 12 | (6 << 3) << 6 | 7 << 3);
}

#[test]
fn books_round_trip_and_choose_by_weight() {
    let g = ChessGame::startpos();
    let k = key(g.position());
    let mv = |s: &str| encode_move(&g.parse_move(s).unwrap());
    let entries = vec![
        Entry { key: k, mv: mv("e2e4"), weight: 3, learn: 0 },
        Entry { key: k, mv: mv("d2d4"), weight: 1, learn: 0 },
        Entry { key: k, mv: mv("g1f3"), weight: 0, learn: 0 },
        Entry { key: 1, mv: 0, weight: 9, learn: 7 },
    ];
    let book = Book::from_entries(entries);
    let mut bytes = Vec::new();
    book.write_to(&mut bytes).unwrap();
    assert_eq!(bytes.len(), 64);
    let back = Book::from_bytes(&bytes, "book").unwrap();
    assert_eq!(back.entries(k).len(), 3);
    assert_eq!(back.entries(1)[0].learn, 7);
    assert!(matches!(Book::from_bytes(&bytes[..63], "book"), Err(BookError::Length { .. })));
    // Draws follow the weights: e4 three times as often as d4, never Nf3.
    let mut rng = search_core::rng::seeded(9);
    let (mut e4, mut d4) = (0, 0);
    for _ in 0..4000 {
        let (m, _, total) = back.choose(g.position(), &mut rng).unwrap();
        assert_eq!(total, 4);
        match encode_move(&m) {
            x if x == mv("e2e4") => e4 += 1,
            x if x == mv("d2d4") => d4 += 1,
            other => panic!("drew {other}"),
        }
    }
    assert!((2800..3200).contains(&e4) && e4 + d4 == 4000, "{e4} {d4}");
    // A position outside the book.
    let mut after = g.clone();
    after.play_str("a2a3").unwrap();
    assert!(back.choose(after.position(), &mut rng).is_none());
}

#[test]
fn a_book_from_pgn_games() {
    let text = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n1. e4 c5 0-1\n\n1. d4 d5 1/2-1/2\n";
    let games = games_chess::pgn::parse(text).unwrap();
    let mut b = BookBuilder::new(2);
    for game in &games {
        let (fen, moves) = game.replay().unwrap();
        let score = match game.result.as_deref() {
            Some("1-0") => Some(1.0),
            Some("0-1") => Some(0.0),
            Some("1/2-1/2") => Some(0.5),
            _ => None,
        };
        b.add_game(ChessGame::from_fen(&fen).unwrap().position(), &moves, score);
    }
    let book = Book::from_entries(b.entries(1));
    let start = ChessGame::startpos();
    let moves: Vec<(String, u16)> =
        book.moves(start.position()).into_iter().map(|(m, w)| (games_chess::uci::uci_move(m), w)).collect();
    // e4: a win and a loss (2 + 0 points); d4: a draw (1).
    assert_eq!(moves, vec![("e2e4".to_string(), 2), ("d2d4".to_string(), 1)]);
    // Two plies only: Nf3 is not in the book; with min 2 games only e4 stays.
    assert_eq!(book.len(), 5);
    assert_eq!(Book::from_entries(b.entries(2)).len(), 1);
}
