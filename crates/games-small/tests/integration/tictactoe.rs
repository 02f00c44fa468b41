//! Tic-tac-toe: game-tree counts, hashing, notation and every error path.

use games_small::tictactoe::{TicTacToe, TicTacToeEval};
use rand::Rng as _;
use search_core::{Evaluator, Game, GameError, Outcome, Player, Status, perft, rng};

/// (nodes of the tree below `g`, counting `g`; complete games; X wins; O wins).
fn walk(g: &TicTacToe, buf: &mut Vec<Vec<u8>>, depth: usize) -> (u64, u64, u64, u64) {
    let mut moves = std::mem::take(&mut buf[depth]);
    moves.clear();
    let r = match g.generate(&mut moves) {
        Status::Over(Outcome::Win(Player::First)) => (1, 1, 1, 0),
        Status::Over(Outcome::Win(Player::Second)) => (1, 1, 0, 1),
        Status::Over(_) => (1, 1, 0, 0),
        Status::Ongoing => {
            let mut t = (1, 0, 0, 0);
            for &m in &moves {
                let mut c = *g;
                c.play(m);
                let s = walk(&c, buf, depth + 1);
                t = (t.0 + s.0, t.1 + s.1, t.2 + s.2, t.3 + s.3);
            }
            t
        }
    };
    buf[depth] = moves;
    r
}

#[test]
fn full_game_tree_counts() {
    let mut buf = vec![Vec::new(); 10];
    let (nodes, games, x, o) = walk(&TicTacToe::new(), &mut buf, 0);
    assert_eq!(nodes, 549_946);
    assert_eq!(games, 255_168);
    assert_eq!((x, o), (131_184, 77_904));
    // perft sums to the node count too.
    let by_depth: u64 = (0..=9).map(|d| perft(&TicTacToe::new(), d).unwrap()).sum();
    assert_eq!(by_depth, 549_946);
    assert_eq!(perft(&TicTacToe::new(), 9).unwrap(), 127_872);
}

#[test]
fn hash_matches_from_scratch_in_random_games() {
    let mut r = rng::seeded(11);
    let mut moves = Vec::new();
    for _ in 0..5000 {
        let mut g = TicTacToe::new();
        assert_eq!(g.hash_key(), Some(g.hash_from_scratch()));
        loop {
            moves.clear();
            if let Status::Over(_) = g.generate(&mut moves) {
                break;
            }
            g.play(moves[r.random_range(0..moves.len())]);
            assert_eq!(g.hash_key(), Some(g.hash_from_scratch()));
        }
    }
}

#[test]
fn transpositions_have_equal_hashes() {
    let a = TicTacToe::from_moves("a1 b2 c3").unwrap();
    let b = TicTacToe::from_moves("c3 b2 a1").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.hash_key(), b.hash_key());
    let c = TicTacToe::from_moves("a1 c3 b2").unwrap(); // same cells, other colours
    assert_ne!(a.hash_key(), c.hash_key());
}

#[test]
fn parse_print_round_trip() {
    let g = TicTacToe::from_moves("b2,a1 C3a3").unwrap();
    assert_eq!(g.to_string(), "O.X\n.X.\nO..\n");
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(TicTacToe::from_moves("").unwrap(), TicTacToe::new());
    for cell in 0..9 {
        let s = g.move_string(cell);
        assert_eq!(g.parse_move(&s).unwrap(), cell);
    }
}

#[test]
fn wins_in_every_line() {
    for (moves, winner) in [
        ("a1 a2 b1 b2 c1", Player::First),
        ("a2 a1 b2 b1 c2", Player::First),
        ("a3 a1 b3 b1 c3", Player::First),
        ("a1 b1 a2 b2 a3", Player::First),
        ("b1 a1 b2 a2 b3", Player::First),
        ("c1 a1 c2 a2 c3", Player::First),
        ("a1 b1 b2 c1 c3", Player::First),
        ("c1 b1 b2 a1 a3", Player::First),
        ("b1 a1 c1 b2 a2 c3", Player::Second),
    ] {
        let g = TicTacToe::from_moves(moves).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Win(winner)), "{moves}");
        assert_eq!(g.winner(), Some(winner));
    }
}

#[test]
fn error_paths() {
    let mut g = TicTacToe::from_moves("b2").unwrap();
    assert!(matches!(g.try_play(4), Err(GameError::IllegalMove { ref reason, .. }) if reason == "cell occupied"));
    assert!(matches!(g.try_play(9), Err(GameError::IllegalMove { ref reason, .. }) if reason.contains("no such cell")));
    assert!(matches!(g.play_str("b2"), Err(GameError::IllegalMove { .. })));
    assert_eq!(g, TicTacToe::from_moves("b2").unwrap(), "a failed move changes nothing");
    for bad in ["", "b", "d1", "a4", "a0", "b22", "2b", "x"] {
        assert!(matches!(g.parse_move(bad), Err(GameError::Parse { .. })), "{bad}");
    }
    let won = TicTacToe::from_moves("a1 b1 a2 b2 a3").unwrap();
    assert_eq!(won.clone().try_play(8), Err(GameError::GameOver));
    assert_eq!(TicTacToe::from_moves("a1 b1 a2 b2 a3 c3"), Err(GameError::GameOver));
    let full = TicTacToe::from_moves("b2 a1 c3 a3 a2 c2 b1 b3 c1").unwrap();
    assert_eq!(full.clone().try_play(0), Err(GameError::GameOver));
    assert!(matches!(TicTacToe::from_moves("b2 b2"), Err(GameError::IllegalMove { .. })));
    assert!(matches!("b2 a".parse::<TicTacToe>(), Err(GameError::Parse { position: 3, .. })));
    assert!(matches!("b2 a9".parse::<TicTacToe>(), Err(GameError::Parse { position: 4, .. })));
    assert!(matches!("b2 é1".parse::<TicTacToe>(), Err(GameError::Parse { .. })));
}

#[test]
fn evaluator_is_antisymmetric_and_bounded() {
    let e = TicTacToeEval::default();
    // Mirror X and O by shifting every move one ply: compare "X at c" with "O at c".
    let x = TicTacToe::from_moves("a1").unwrap();
    let o = TicTacToe::from_moves("b2 a1").unwrap();
    let xo = TicTacToe::from_moves("a1 b2").unwrap();
    assert_eq!(e.evaluate(&o), -e.evaluate(&xo));
    assert!(e.evaluate(&x) > 0.0);
    let mut r = rng::seeded(3);
    let mut moves = Vec::new();
    for _ in 0..1000 {
        let mut g = TicTacToe::new();
        while let Status::Ongoing = {
            moves.clear();
            g.generate(&mut moves)
        } {
            g.play(moves[r.random_range(0..moves.len())]);
            assert!(e.evaluate(&g).abs() <= 32.0);
        }
    }
    assert!(TicTacToeEval::new([1.0, f64::NAN, 0.0]).is_err());
    assert!(TicTacToeEval::new([1.0, 1e9, 0.0]).is_err());
    let flat = TicTacToeEval::new([1.0, 1.0, 1.0]).unwrap();
    assert_eq!(flat.evaluate(&TicTacToe::from_moves("b2").unwrap()), 8.0 - 4.0);
}
