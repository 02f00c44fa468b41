//! Move and position notation: round trips, typed errors, no panics.

use othello::{BLACK, Move, Othello, Square, WHITE};
use proptest::prelude::*;
use search_core::{Game, GameError};

#[test]
fn every_move_round_trips() {
    let g = Othello::new();
    let mut seen = std::collections::HashSet::new();
    for sq in Square::all() {
        let mv = Move::Place(sq);
        let text = g.move_string(mv);
        assert_eq!(text.len(), 2);
        assert_eq!(g.parse_move(&text), Ok(mv));
        assert_eq!(g.parse_move(&text.to_uppercase()), Ok(mv));
        assert_eq!(text.parse::<Move>(), Ok(mv));
        assert_eq!(text.parse::<Square>(), Ok(sq));
        assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
        assert_eq!(Square::from_index(sq.index()), Some(sq));
        assert!(seen.insert(text));
    }
    assert_eq!(g.move_string(Move::Pass), "pass");
    for text in ["pass", "PASS", "Pass"] {
        assert_eq!(g.parse_move(text), Ok(Move::Pass));
    }
    let name = |i: u8| Square::from_index(i).unwrap().to_string();
    assert_eq!([name(0), name(5), name(6), name(35)], ["a1", "f1", "a2", "f6"]);
}

#[test]
fn bad_moves_are_parse_errors() {
    let g = Othello::new();
    for (text, position) in [("z9", 0), ("", 0), ("a7", 1), ("a0", 1), ("g1", 0), ("a", 1), ("a1 ", 2), ("a10", 2)] {
        match g.parse_move(text) {
            Err(GameError::Parse { what: "move", position: p, .. }) => assert_eq!(p, position, "{text:?}"),
            other => panic!("{text:?}: expected a parse error, got {other:?}"),
        }
    }
    for text in ["pas", "passs", " pass", "é", "∞", "1a"] {
        assert!(matches!(g.parse_move(text), Err(GameError::Parse { .. })), "{text:?}");
    }
}

#[test]
fn move_lists_round_trip() {
    let g = Othello::from_moves("c2 b2 a2, d2").unwrap();
    assert_eq!(Othello::from_moves("c2b2a2d2").unwrap(), g);
    assert_eq!(Othello::from_moves(" C2,B2 ,A2\td2 ").unwrap(), g);
    assert_eq!(Othello::from_moves("").unwrap(), Othello::new());
    assert_eq!("".parse::<Othello>().unwrap(), Othello::new());
}

#[test]
fn bad_move_lists_are_typed_errors() {
    // Malformed: a parse error at the byte where the bad move starts.
    match Othello::from_moves("c2 b2 z9") {
        Err(GameError::Parse { what: "position", position: 6, .. }) => {}
        other => panic!("{other:?}"),
    }
    match Othello::from_moves("c2 a7") {
        Err(GameError::Parse { position: 4, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(matches!(Othello::from_moves("c2 b"), Err(GameError::Parse { position: 3, .. })));
    // Illegal: the move and its place in the list.
    match Othello::from_moves("c2 b2 c2") {
        Err(GameError::IllegalMove { mv, reason }) => {
            assert_eq!(mv, "c2");
            assert!(reason.contains("occupied") && reason.contains("move 3"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    match Othello::from_moves("pass") {
        Err(GameError::IllegalMove { mv, .. }) => assert_eq!(mv, "pass"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(Othello::from_moves("a1"), Err(GameError::IllegalMove { .. })));
}

#[test]
fn board_pictures() {
    let start = Othello::new();
    let picture = "...... ...... ..OX.. ..XO.. ...... ......";
    assert_eq!(Othello::from_board(picture, BLACK).unwrap(), start);
    assert_eq!(Othello::from_board(&picture.replace(' ', "\n").to_lowercase(), BLACK).unwrap(), start);
    assert_eq!(Othello::from_board(&picture.replace('.', "-"), BLACK).unwrap(), start);
    assert_ne!(Othello::from_board(picture, WHITE).unwrap(), start);
    // Errors: a bad character (at its byte), too few or too many cells.
    assert!(matches!(Othello::from_board("..Z", BLACK), Err(GameError::Parse { position: 2, .. })));
    assert!(matches!(Othello::from_board(&".".repeat(35), BLACK), Err(GameError::Parse { position: 35, .. })));
    assert!(matches!(Othello::from_board(&".".repeat(37), BLACK), Err(GameError::Parse { position: 36, .. })));
    assert!(matches!(Othello::from_board("", BLACK), Err(GameError::Parse { .. })));
}

#[test]
fn display_and_debug() {
    let g = Othello::from_moves("c2").unwrap();
    let text = g.to_string();
    let expected = "  a b c d e f\n\
                    1 . . . . . .\n\
                    2 . . X . . .\n\
                    3 . . X X . .\n\
                    4 . . X O . .\n\
                    5 . . . . . .\n\
                    6 . . . . . .\n\
                    O to move\n";
    assert_eq!(text, expected);
    let debug = format!("{g:?}");
    assert!(debug.contains("....../..X.../..XX../..XO../....../......"), "{debug}");
    // The Debug board reads back as a picture.
    let board = debug.split('"').nth(1).unwrap().replace('/', "");
    assert_eq!(Othello::from_board(&board, WHITE).unwrap(), g);
}

proptest! {
    /// Arbitrary text never panics a parser: it parses or gives a typed error.
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,12}|[a-hA-H0-9 ,pas]{0,24}") {
        let g = Othello::new();
        let _ = g.parse_move(&s);
        let _ = s.parse::<Square>();
        let _ = Othello::from_moves(&s);
        let _ = Othello::from_board(&s, BLACK);
    }

    /// Every legal move list written out parses back to the same position.
    #[test]
    fn written_games_parse_back(choices in proptest::collection::vec(any::<proptest::sample::Index>(), 0..40)) {
        let mut g = Othello::new();
        let mut text = Vec::new();
        let mut moves = Vec::new();
        for choice in choices {
            moves.clear();
            if let search_core::Status::Over(_) = g.generate(&mut moves) {
                break;
            }
            let mv = moves[choice.index(moves.len())];
            text.push(g.move_string(mv));
            g.play(mv);
        }
        prop_assert_eq!(Othello::from_moves(&text.join(" ")).unwrap(), g);
        prop_assert_eq!(Othello::from_moves(&text.concat()).unwrap(), g);
    }
}
