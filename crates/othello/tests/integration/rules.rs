//! The rules against an independent, naive reference implementation: perft
//! counts from the start, and move lists, boards and results compared
//! position by position along seeded random games (passes and game ends
//! included).

use othello::{BLACK, Move, Othello, Square, WHITE};
use search_core::rng::{self, RngExt as _};
use search_core::{Game, GameError, Outcome, Player, Status, perft};

/// A naive Othello: 36 cells, flips found by walking the eight directions
/// cell by cell, moves and results in text.
#[derive(Clone, Debug)]
struct Naive {
    /// `cells[row][col]`, row 0 = rank 1.
    cells: [[Option<Player>; 6]; 6],
    to_move: Player,
}

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl Naive {
    fn start() -> Self {
        let mut cells = [[None; 6]; 6];
        // Rows 2 and 3 (ranks 3 and 4), columns 2 and 3 (files c and d).
        cells[2][2] = Some(Player::Second); // c3
        cells[3][3] = Some(Player::Second); // d4
        cells[2][3] = Some(Player::First); // d3
        cells[3][2] = Some(Player::First); // c4
        Naive { cells, to_move: Player::First }
    }

    fn name(row: usize, col: usize) -> String {
        format!("{}{}", (b'a' + col as u8) as char, row + 1)
    }

    /// The cells a disc of `who` on (row, col) would flip.
    fn flipped(&self, row: usize, col: usize, who: Player) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.cells[row][col].is_some() {
            return all;
        }
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while (0..6).contains(&r) && (0..6).contains(&c) {
                match self.cells[r as usize][c as usize] {
                    Some(p) if p != who => line.push((r as usize, c as usize)),
                    Some(_) => {
                        all.extend(line.iter().copied());
                        break;
                    }
                    None => break,
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    fn placements(&self, who: Player) -> Vec<String> {
        let mut out = Vec::new();
        for row in 0..6 {
            for col in 0..6 {
                if !self.flipped(row, col, who).is_empty() {
                    out.push(Self::name(row, col));
                }
            }
        }
        out
    }

    /// The legal moves, sorted by name (`["pass"]` when the side must pass),
    /// or `None` if the game is over.
    fn moves(&self) -> Option<Vec<String>> {
        let mut own = self.placements(self.to_move);
        if !own.is_empty() {
            own.sort();
            Some(own)
        } else if !self.placements(self.to_move.opponent()).is_empty() {
            Some(vec!["pass".to_string()])
        } else {
            None
        }
    }

    fn play(&mut self, mv: &str) {
        if mv != "pass" {
            let b = mv.as_bytes();
            let (col, row) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
            let flipped = self.flipped(row, col, self.to_move);
            assert!(!flipped.is_empty(), "reference: illegal move {mv}");
            for (r, c) in flipped {
                self.cells[r][c] = Some(self.to_move);
            }
            self.cells[row][col] = Some(self.to_move);
        }
        self.to_move = self.to_move.opponent();
    }

    fn count(&self, who: Player) -> usize {
        self.cells.iter().flatten().filter(|&&c| c == Some(who)).count()
    }

    fn result(&self) -> Outcome {
        let (b, w) = (self.count(Player::First), self.count(Player::Second));
        if b > w {
            Outcome::Win(Player::First)
        } else if w > b {
            Outcome::Win(Player::Second)
        } else {
            Outcome::Draw
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        match self.moves() {
            None => 0,
            Some(ms) if depth == 1 => ms.len() as u64,
            Some(ms) => ms
                .iter()
                .map(|m| {
                    let mut c = self.clone();
                    c.play(m);
                    c.perft(depth - 1)
                })
                .sum(),
        }
    }
}

/// The library's moves, as sorted names.
fn names(g: &Othello, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|&m| g.move_string(m)).collect();
    v.sort();
    v
}

/// Asserts that the library position and the reference agree on the discs
/// and the side to move.
fn assert_same_board(g: &Othello, r: &Naive, context: &str) {
    for row in 0..6u8 {
        for col in 0..6u8 {
            let sq = Square::new(col, row).unwrap();
            assert_eq!(g.at(sq), r.cells[row as usize][col as usize], "{context}: square {sq}\n{g}");
        }
    }
    assert_eq!(g.to_move(), r.to_move, "{context}");
    assert_eq!(g.count(BLACK) as usize, r.count(BLACK), "{context}");
    assert_eq!(g.count(WHITE) as usize, r.count(WHITE), "{context}");
}

/// Perft from the start (a pass counts as a move, a finished game as no
/// leaf): depths 0 to 7 agree with the reference below, the deeper ones are
/// the library's own, kept as regression values.
const START_PERFT: [u64; 11] = [1, 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976684];

#[test]
fn perft_from_the_start_matches_the_reference() {
    let g = Othello::new();
    let r = Naive::start();
    for depth in 0..=7u32 {
        let n = perft(&g, depth).unwrap();
        assert_eq!(n, r.perft(depth), "depth {depth}");
        assert_eq!(n, START_PERFT[depth as usize], "depth {depth}");
    }
}

#[test]
fn perft_deeper() {
    let g = Othello::new();
    for depth in 8..=10u32 {
        assert_eq!(perft(&g, depth).unwrap(), START_PERFT[depth as usize], "depth {depth}");
    }
}

#[test]
fn perft_from_random_positions_matches_the_reference() {
    let mut rng = rng::seeded(0x0e11_0001);
    for game in 0..40 {
        let mut g = Othello::new();
        let mut r = Naive::start();
        let plies = rng.random_range(0..28);
        for _ in 0..plies {
            let Some(ms) = r.moves() else { break };
            let mv = &ms[rng.random_range(0..ms.len())];
            g.play_str(mv).unwrap();
            r.play(mv);
        }
        for depth in 1..=4 {
            assert_eq!(perft(&g, depth).unwrap(), r.perft(depth), "game {game}, depth {depth}\n{g}");
        }
    }
}

#[test]
fn random_games_match_the_reference_move_by_move() {
    let mut rng = rng::seeded(0x0e11_0002);
    let mut moves = Vec::new();
    let (mut passes, mut early_ends, mut results) = (0, 0, [0u32; 3]);
    for game in 0..3000 {
        let mut g = Othello::new();
        let mut r = Naive::start();
        let mut history = String::new();
        loop {
            let context = format!("game {game} after \"{history}\"");
            assert_same_board(&g, &r, &context);
            moves.clear();
            let status = g.generate(&mut moves);
            assert_eq!(g.quick_status(), Some(status), "{context}");
            match (status, r.moves()) {
                (Status::Ongoing, Some(expected)) => {
                    assert_eq!(names(&g, &moves), expected, "{context}\n{g}");
                    assert!(!g.is_over());
                    assert_eq!(g.outcome(), None);
                    if expected == ["pass"] {
                        passes += 1;
                        assert_eq!(g.placements(), 0);
                        assert_ne!(g.placements_for(g.to_move().opponent()), 0);
                    } else {
                        assert_eq!(g.placements().count_ones() as usize, expected.len(), "{context}");
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    let name = g.move_string(mv);
                    // Half the moves go through the checked path.
                    if rng.random_bool(0.5) {
                        g.play(mv);
                    } else {
                        g.try_play(mv).unwrap();
                    }
                    r.play(&name);
                    history.push_str(&name);
                    history.push(' ');
                }
                (Status::Over(outcome), None) => {
                    assert!(moves.is_empty());
                    assert_eq!(outcome, r.result(), "{context}");
                    assert_eq!(g.outcome(), Some(outcome));
                    assert!(g.is_over());
                    if g.empty() != 0 {
                        early_ends += 1;
                    }
                    results[match outcome {
                        Outcome::Win(Player::First) => 0,
                        Outcome::Win(Player::Second) => 1,
                        _ => 2,
                    }] += 1;
                    // Every move is refused once the game is over.
                    assert_eq!(g.clone().try_play(Move::Pass), Err(GameError::GameOver));
                    // The history replays to the same position.
                    assert_eq!(Othello::from_moves(&history).unwrap(), g, "{context}");
                    break;
                }
                (s, m) => panic!("{context}: library {s:?}, reference {m:?}\n{g}"),
            }
        }
    }
    // The playouts exercised passes, games ending before the board is
    // full, and every result.
    assert!(passes > 500, "only {passes} passes");
    assert!(early_ends > 30, "only {early_ends} early ends");
    assert!(results.iter().all(|&n| n > 50), "results {results:?}");
}

#[test]
fn try_play_gives_precise_errors() {
    let mut g = Othello::new();
    let sq = |s: &str| Move::Place(s.parse().unwrap());
    let reason = |e: GameError| match e {
        GameError::IllegalMove { reason, .. } => reason,
        other => panic!("expected an illegal move, got {other:?}"),
    };
    assert!(reason(g.try_play(sq("c3")).unwrap_err()).contains("occupied"));
    assert!(reason(g.try_play(sq("a1")).unwrap_err()).contains("flips no disc"));
    assert!(reason(g.try_play(Move::Pass).unwrap_err()).contains("passing"));
    assert_eq!(g, Othello::new(), "a refused move changes nothing");

    // Black must pass: no placement is legal, only the pass.
    let mut p = Othello::from_board("OX.... ...... ...... ...... ...... ......", BLACK).unwrap();
    assert!(reason(p.try_play(sq("c1")).unwrap_err()).contains("only move is pass"));
    p.try_play(Move::Pass).unwrap();
    assert_eq!(p.to_move(), WHITE);
    p.try_play(sq("c1")).unwrap();
    assert_eq!(p.status(), Status::Over(Outcome::Win(WHITE)));
    assert_eq!(p.try_play(sq("d1")), Err(GameError::GameOver));
}

#[test]
fn a_full_board_is_over() {
    let text = format!("{}{}", "X".repeat(18), "O".repeat(18));
    let g = Othello::from_board(&text, WHITE).unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
    assert_eq!(g.quick_status(), Some(Status::Over(Outcome::Draw)));
    let text = format!("{}{}", "X".repeat(19), "O".repeat(17));
    let g = Othello::from_board(&text, BLACK).unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Win(BLACK)));
    assert!(g.to_string().ends_with("game over\n"));
}

#[test]
fn generate_orders_corners_first_and_x_squares_last() {
    // Black (c3) may take the corner a1 (over b2), the X-square e5 (over
    // d4) and the plain square c5 (over c4).
    let g = Othello::from_board(
        "...... \
         .O.... \
         ..X... \
         ..OO.. \
         ...... \
         ......",
        BLACK,
    )
    .unwrap();
    let mut moves = Vec::new();
    g.generate(&mut moves);
    let names: Vec<String> = moves.iter().map(|&m| g.move_string(m)).collect();
    assert_eq!(names, ["a1", "c5", "e5"]);
    let hints: Vec<i32> = moves.iter().map(|&m| g.order_hint(m)).collect();
    assert!(hints.windows(2).all(|w| w[0] >= w[1]), "{hints:?}");
}
