//! Game end: checkmate, stalemate, insufficient material, the fifty-move
//! rule, repetitions; errors of the user-facing calls.

use games_chess::{ChessEval, ChessGame, Rules};
use search_core::{Evaluator, Game, GameError, Outcome, Player, Status};
use shakmaty::Position as _;

fn game(fen: &str) -> ChessGame {
    ChessGame::from_fen(fen).expect("valid FEN")
}

fn play(g: &mut ChessGame, moves: &[&str]) {
    for mv in moves {
        g.play_str(mv).unwrap_or_else(|e| panic!("{mv} in {g}: {e}"));
    }
}

#[test]
fn checkmate_wins_for_the_mating_side() {
    let mut g = ChessGame::startpos();
    play(&mut g, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let mut moves = Vec::new();
    assert_eq!(g.generate(&mut moves), Status::Over(Outcome::Win(Player::Second)));
    assert!(moves.is_empty());
    assert_eq!(g.try_play(g.parse_move("a2a3").unwrap_err_or_move()), Err(GameError::GameOver));
    // A mate in fewer plies is worth more to the winner.
    let near = ChessEval.terminal_value(Outcome::Win(Player::Second), Player::Second, 3);
    let far = ChessEval.terminal_value(Outcome::Win(Player::Second), Player::Second, 5);
    assert!(near > far && far > 0.0);
    // Also under the perft rules.
    let g = g.with_rules(Rules::PERFT);
    assert_eq!(g.status(), Status::Over(Outcome::Win(Player::Second)));
}

/// Parsing checks legality on the board, so in a finished game a move is
/// built by hand for `try_play`.
trait MoveOrDummy {
    fn unwrap_err_or_move(self) -> shakmaty::Move;
}
impl MoveOrDummy for Result<shakmaty::Move, GameError> {
    fn unwrap_err_or_move(self) -> shakmaty::Move {
        self.unwrap_or(shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::A2,
            capture: None,
            to: shakmaty::Square::A3,
            promotion: None,
        })
    }
}

#[test]
fn stalemate_is_a_draw() {
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!g.is_check());
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
    assert_eq!(g.with_rules(Rules::PERFT).status(), Status::Over(Outcome::Draw));
}

#[test]
fn insufficient_material_is_a_draw_under_standard_rules_only() {
    for fen in [
        "8/8/8/4k3/8/8/8/4K2B w - - 0 1",
        "8/8/8/4k3/8/8/8/4K1N1 b - - 0 1",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "2b5/8/8/4k3/8/8/8/4K2B w - - 0 1",
    ] {
        let g = game(fen);
        assert_eq!(g.status(), Status::Over(Outcome::Draw), "{fen}");
        assert_eq!(g.with_rules(Rules::PERFT).status(), Status::Ongoing, "{fen}");
    }
    // Enough material: a pawn, a rook, bishops of both colours (on one side
    // or, for a helpmate, on both).
    for fen in [
        "8/2b5/8/4k3/8/8/8/4K2B w - - 0 1",
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",
    ] {
        assert_eq!(game(fen).status(), Status::Ongoing, "{fen}");
    }
    // Capturing the last pawn ends the game.
    let mut g = game("8/8/8/8/8/8/3kP3/8 b - - 0 60".replace("8 b", "7K b").as_str());
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, &["d2e2"]);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
}

#[test]
fn fifty_move_rule() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
    play(&mut g, &["a1a2"]);
    assert_eq!(g.position().halfmoves(), 99);
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, &["e8f7"]);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
    assert_eq!(g.clone().with_rules(Rules::PERFT).status(), Status::Ongoing);
    assert_eq!(g.try_play(g.parse_move("a2a3").unwrap()), Err(GameError::GameOver));

    // A checkmate on the hundredth half-move still wins; another move draws.
    let before = game("k7/8/1K6/8/8/8/8/7R w - - 99 80");
    let mut mate = before.clone();
    play(&mut mate, &["h1h8"]);
    assert_eq!(mate.position().halfmoves(), 100);
    assert_eq!(mate.status(), Status::Over(Outcome::Win(Player::First)));
    let mut other = before;
    play(&mut other, &["h1h2"]);
    assert_eq!(other.status(), Status::Over(Outcome::Draw));

    // A capture or pawn move resets the clock.
    let mut g = game("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
    play(&mut g, &["e2e3"]);
    assert_eq!(g.position().halfmoves(), 0);
    assert_eq!(g.status(), Status::Ongoing);
}

const SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

#[test]
fn threefold_repetition() {
    let mut g = ChessGame::startpos();
    play(&mut g, &SHUFFLE); // the start position, second time
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, &SHUFFLE[..2]);
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, &SHUFFLE[2..]); // third time
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
    assert_eq!(g.clone().with_rules(Rules::PERFT).status(), Status::Ongoing);

    // A pawn move in between: earlier positions can never recur.
    let mut g = ChessGame::startpos();
    play(&mut g, &SHUFFLE);
    play(&mut g, &["e2e3", "e7e6"]);
    play(&mut g, &SHUFFLE);
    play(&mut g, &SHUFFLE);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
}

#[test]
fn castling_rights_make_positions_differ() {
    // Rooks go out and back: the same squares thrice (start, after the
    // h-rooks' trip, after the a-rooks' trip), but with different rights.
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, &["h1h2", "h8h7", "h2h1", "h7h8"]);
    play(&mut g, &["a1a2", "a8a7", "a2a1", "a7a8"]);
    assert_eq!(g.status(), Status::Ongoing);
    // Without rights, the a-rook trip repeats: the position with the rooks
    // on a2 and a7 comes a third time.
    play(&mut g, &["a1a2", "a8a7", "a2a1", "a7a8"]);
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, &["a1a2", "a8a7"]);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
}

#[test]
fn twofold_below_the_search_root() {
    // Marked root, then a cycle wholly below it: a draw at the second
    // occurrence.
    let mut g = ChessGame::startpos();
    g.mark_search_root();
    play(&mut g, &["e2e4"]);
    play(&mut g, &["g8f6", "g1f3", "f6g8", "f3g1"]);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));

    // Returning to the root itself is not enough (the root is not below
    // itself); a third occurrence is.
    let mut g = ChessGame::startpos();
    g.mark_search_root();
    play(&mut g, &SHUFFLE);
    assert_eq!(g.status(), Status::Ongoing);

    // An occurrence before the root counts only towards a threefold.
    let mut g = ChessGame::startpos();
    play(&mut g, &SHUFFLE);
    g.mark_search_root();
    play(&mut g, &["b1c3", "b8c6", "c3b1", "c6b8"]);
    // Second occurrence after the root, third overall: a draw.
    assert_eq!(g.status(), Status::Over(Outcome::Draw));

    // Without a mark, the same cycle below "the root" is not a draw.
    let mut g = ChessGame::startpos();
    play(&mut g, &["e2e4"]);
    play(&mut g, &["g8f6", "g1f3", "f6g8", "f3g1"]);
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn user_errors_are_typed() {
    let mut g = ChessGame::startpos();
    assert!(matches!(g.parse_move("zz"), Err(GameError::Parse { what: "move", .. })));
    assert!(matches!(g.play_str("e2e5"), Err(GameError::IllegalMove { .. })));
    assert!(matches!(g.play_str("e7e5"), Err(GameError::IllegalMove { .. })));
    assert!(matches!(g.play_str("Qh5"), Err(GameError::IllegalMove { .. })));
    assert!(matches!(g.play_str("0000"), Err(GameError::IllegalMove { .. })));
    // SAN is accepted too; moves print as UCI.
    let mv = g.play_str("Nf3").unwrap();
    assert_eq!(g.move_string(mv), "g1f3");
    let mv = g.play_str("e5").unwrap();
    assert_eq!(g.move_string(mv), "e7e5");
    assert!(matches!(ChessGame::from_fen("not a fen"), Err(GameError::Parse { what: "FEN", .. })));
    // Opposite check: the side not to move is in check.
    assert!(ChessGame::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
}

#[test]
fn castling_and_promotion_in_uci() {
    let mut g = game("r3k2r/6P1/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mv = g.play_str("e1g1").unwrap();
    assert_eq!(g.move_string(mv), "e1g1");
    // The g7 pawn covers f8: only the long castling is legal.
    assert!(matches!(g.parse_move("O-O"), Err(GameError::IllegalMove { .. })));
    let mv = g.play_str("O-O-O").unwrap();
    assert_eq!(g.move_string(mv), "e8c8");
    let mv = g.play_str("g7g8n").unwrap();
    assert_eq!(g.move_string(mv), "g7g8n");
    assert_eq!(g.to_string(), "2kr2Nr/8/8/8/8/8/8/R4RK1 b - - 0 2");
    let diagram = format!("{g:#}");
    assert!(diagram.starts_with(". . k r . . N r\n"), "{diagram}");
}

#[test]
fn null_move() {
    let mut g = ChessGame::startpos();
    play(&mut g, &["e2e4"]);
    let before = g.clone();
    assert!(g.play_null());
    assert_eq!(g.turn(), search_core::Turn::Player(Player::First));
    assert_ne!(g.hash_key(), before.hash_key());
    assert_eq!(g.hash_key(), ChessGame::from_fen(&g.fen()).unwrap().hash_key());
    // Not allowed in check.
    let mut checked = game("4k3/8/8/8/8/8/8/R3K2r w - - 0 1");
    assert!(checked.is_check());
    let key = checked.hash_key();
    assert!(!checked.play_null());
    assert_eq!(checked.hash_key(), key);
}

/// Item 2 of the robustness issue: the history kept 16 positions, so a
/// threefold repetition whose cycle is longer than 16 plies was missed.
/// Here a rook tours ten squares and comes back while the black king
/// shuffles: a 20-ply cycle, the initial position a third time at ply 40.
#[test]
fn threefold_repetition_with_a_cycle_longer_than_sixteen_plies() {
    let cycle = [
        "a1a2", "h8g8", "a2a3", "g8h8", "a3a4", "h8g8", "a4a5", "g8h8", "a5a6", "h8g8", "a6b6", "g8h8", "b6c6", "h8g8",
        "c6c1", "g8h8", "c1b1", "h8g8", "b1a1", "g8h8",
    ];
    let mut g = game("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
    for round in 0..2 {
        for (i, mv) in cycle.iter().enumerate() {
            assert_eq!(g.status(), Status::Ongoing, "round {round}, before move {i} ({mv})");
            play(&mut g, &[mv]);
        }
    }
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
    // Only the repetition rule decides it.
    let no_repetition = Rules { repetition: false, ..Rules::STANDARD };
    let mut g = game("7k/8/8/8/8/8/8/R3K3 w - - 0 1").with_rules(no_repetition);
    for _ in 0..2 {
        play(&mut g, &cycle);
    }
    assert_eq!(g.status(), Status::Ongoing);
    // A cycle of 48 plies (the rook visits 24 distinct squares), thrice:
    // 96 plies, within the fifty-move bound.
    let tour = [
        "a2", "a3", "a4", "a5", "a6", "a7", "b7", "c7", "d7", "e7", "f7", "f6", "f5", "f4", "f3", "f2", "e2", "d2",
        "c2", "c3", "b3", "b2", "b1", "a1",
    ];
    let mut long = Vec::new();
    let mut rook = "a1";
    for to in tour {
        long.push(format!("{rook}{to}"));
        rook = to;
    }
    let mut g = game("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
    let kings = ["h8g8", "g8h8"];
    for round in 0..2 {
        for (i, mv) in long.iter().enumerate() {
            assert_eq!(g.status(), Status::Ongoing, "round {round}, move {i}");
            play(&mut g, &[mv.as_str(), kings[i % 2]]);
        }
    }
    assert_eq!(g.position().halfmoves(), 96);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
}

/// Item 6 of the robustness issue: `shakmaty`'s FEN parser is lenient;
/// these are refused with a typed error.
#[test]
fn fens_are_parsed_strictly() {
    for bad in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        "rnbqkbnr/pppppppp/215/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/080/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ~KBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qq w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+2",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
        "",
    ] {
        match ChessGame::from_fen(bad) {
            Err(GameError::Parse { what: "FEN", .. }) => {}
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    for good in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w\tqkQK  -  0   0 ",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let g = ChessGame::from_fen(good).unwrap_or_else(|e| panic!("{good:?}: {e}"));
        assert_eq!(ChessGame::from_fen(&g.fen()).unwrap().fen(), g.fen());
    }
    // Every position of the shared perft suite and WAC still parses.
    for file in ["perftsuite.epd", "wac.epd"] {
        let Some(text) = test_data::read(&format!("chess/{file}"), "parsing its FENs") else { continue };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap().trim();
            let fields: Vec<&str> = fen.split_whitespace().take(6).collect();
            let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
                fields.join(" ")
            } else {
                fields[..4].join(" ")
            };
            ChessGame::from_fen(&fen).unwrap_or_else(|e| panic!("{file}: {fen}: {e}"));
        }
    }
}
