//! Connect-4: perft, a naive reference implementation on several board
//! sizes, solver helpers, hashing, notation, the evaluator and every error.

use games_small::connect4::{Connect4, Connect4Eval};
use rand::Rng as _;
use search_core::{Evaluator, Game, GameError, Outcome, Player, Status, perft, rng};

#[test]
fn perft_standard_board() {
    let g = Connect4::standard();
    let expected = [1u64, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&g, d as u32).unwrap(), n, "depth {d}");
    }
}

#[test]
#[ignore = "slow: about 270 million leaves"]
fn perft_standard_board_depth_10() {
    assert_eq!(perft(&Connect4::standard(), 10).unwrap(), 268_031_646);
}

/// An independent, naive connect-4: a grid of cells, lines checked cell by cell.
#[derive(Clone)]
struct Naive {
    w: usize,
    h: usize,
    grid: Vec<Vec<Option<Player>>>, // grid[col][row]
    to_move: Player,
    winner: Option<Player>,
    n: usize,
}

impl Naive {
    fn new(w: usize, h: usize) -> Self {
        Naive { w, h, grid: vec![vec![None; h]; w], to_move: Player::First, winner: None, n: 0 }
    }
    fn moves(&self) -> Option<Vec<u8>> {
        if self.winner.is_some() || self.n == self.w * self.h {
            return None;
        }
        Some((0..self.w).filter(|&c| self.grid[c][self.h - 1].is_none()).map(|c| c as u8).collect())
    }
    fn play(&mut self, col: u8) {
        let c = col as usize;
        let r = (0..self.h).find(|&r| self.grid[c][r].is_none()).unwrap();
        self.grid[c][r] = Some(self.to_move);
        for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            let mut count = 1;
            for sign in [1, -1] {
                let (mut cc, mut rr) = (c as i64 + sign * dc, r as i64 + sign * dr);
                while cc >= 0
                    && rr >= 0
                    && (cc as usize) < self.w
                    && (rr as usize) < self.h
                    && self.grid[cc as usize][rr as usize] == Some(self.to_move)
                {
                    count += 1;
                    cc += sign * dc;
                    rr += sign * dr;
                }
            }
            if count >= 4 {
                self.winner = Some(self.to_move);
            }
        }
        self.to_move = self.to_move.opponent();
        self.n += 1;
    }
    fn perft(&self, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        match self.moves() {
            None => 0,
            Some(ms) => ms
                .iter()
                .map(|&m| {
                    let mut c = self.clone();
                    c.play(m);
                    c.perft(d - 1)
                })
                .sum(),
        }
    }
}

const SIZES: [(usize, usize); 9] = [(4, 4), (7, 6), (5, 4), (4, 5), (8, 7), (6, 7), (3, 3), (1, 8), (16, 3)];

#[test]
fn perft_matches_naive_on_many_sizes() {
    for (w, h) in SIZES {
        let g = Connect4::new(w, h).unwrap();
        let n = Naive::new(w, h);
        let depth = if w * h <= 16 {
            (w * h).min(10) as u32
        } else if w > 8 {
            4
        } else {
            6
        };
        for d in 0..=depth {
            assert_eq!(perft(&g, d).unwrap(), n.perft(d), "{w}×{h} depth {d}");
        }
    }
}

#[test]
fn random_games_agree_with_naive_and_hash_is_consistent() {
    let mut r = rng::seeded(2024);
    let mut moves = Vec::new();
    for (i, (w, h)) in SIZES.into_iter().cycle().take(4000).enumerate() {
        let mut g = Connect4::new(w, h).unwrap();
        let mut n = Naive::new(w, h);
        let mut line = String::new();
        loop {
            moves.clear();
            let status = g.generate(&mut moves);
            assert_eq!(g.hash_key(), Some(hash_from_scratch(&g)));
            match (status, n.moves()) {
                (Status::Ongoing, Some(mut naive)) => {
                    let mut sorted = moves.clone();
                    sorted.sort_unstable();
                    naive.sort_unstable();
                    assert_eq!(sorted, naive);
                    for c in 0..w as u8 {
                        assert_eq!(g.can_play(c), naive.contains(&c));
                        if g.can_play(c) {
                            let mut after = n.clone();
                            after.play(c);
                            assert_eq!(g.is_winning_move(c), after.winner.is_some(), "{w}×{h} {line} col {c}");
                        }
                    }
                    let mv = moves[r.random_range(0..moves.len())];
                    line.push(Connect4::column_char(mv).unwrap());
                    g.play(mv);
                    n.play(mv);
                }
                (Status::Over(Outcome::Win(p)), None) => {
                    assert_eq!(n.winner, Some(p), "{w}×{h} {line}");
                    break;
                }
                (Status::Over(Outcome::Draw), None) => {
                    assert_eq!(n.winner, None);
                    assert!(g.is_full());
                    break;
                }
                (s, ms) => panic!("{w}×{h} {line}: {s:?} vs naive {ms:?}"),
            }
        }
        // Round trips: the move string parses back to this position, and the
        // reconstructed line reaches it too.
        assert_eq!(Connect4::from_moves(w, h, &line).unwrap(), g);
        if i % 10 == 0 {
            let back = g.moves_string().expect("a played position is reachable");
            assert_eq!(Connect4::from_moves(w, h, &back).unwrap(), g, "{w}×{h} {line} -> {back}");
        }
    }
}

/// The hash as a pure function of the cells, rebuilt through the public API.
fn hash_from_scratch(g: &Connect4) -> u64 {
    let empty = Connect4::new(g.width(), g.height()).unwrap();
    let mut current = 0u64;
    let mut mask = 0u64;
    for c in 0..g.width() {
        for r in 0..g.height() {
            if let Some(p) = g.at(c, r) {
                let bit = empty.cell_bit(c, r);
                mask |= bit;
                if p == g.to_move() {
                    current |= bit;
                }
            }
        }
    }
    assert_eq!(g.key(), current + mask);
    // SplitMix64 (increment, then finaliser), written out independently.
    let mut z = (current + mask).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn keys_are_unique_over_all_4x4_positions_to_depth_8() {
    let mut seen = std::collections::HashMap::new();
    fn rec(g: &Connect4, d: u32, seen: &mut std::collections::HashMap<u64, Connect4>) {
        let k = g.hash_key().unwrap();
        if let Some(prev) = seen.insert(k, *g) {
            assert_eq!(prev.mask(), g.mask());
            assert_eq!(prev.current_bits(), g.current_bits());
        }
        if d == 0 {
            return;
        }
        let mut ms = Vec::new();
        if let Status::Ongoing = g.generate(&mut ms) {
            for m in ms {
                let mut c = *g;
                c.play(m);
                rec(&c, d - 1, seen);
            }
        }
    }
    rec(&Connect4::new(4, 4).unwrap(), 8, &mut seen);
    assert!(seen.len() > 1000);
}

#[test]
fn centre_first_order_and_hints() {
    let g = Connect4::standard();
    let mut ms = Vec::new();
    g.generate(&mut ms);
    assert_eq!(ms, [3, 2, 4, 1, 5, 0, 6]);
    let hints: Vec<i32> = ms.iter().map(|&m| g.order_hint(m)).collect();
    assert!(hints.windows(2).all(|w| w[0] > w[1]), "{hints:?}");
    let g4 = Connect4::new(4, 4).unwrap();
    ms.clear();
    g4.generate(&mut ms);
    assert_eq!(ms, [2, 1, 3, 0]);
    // A full column disappears from the list.
    let g = Connect4::from_moves(7, 6, "444444").unwrap();
    ms.clear();
    g.generate(&mut ms);
    assert_eq!(ms, [2, 4, 1, 5, 0, 6]);
}

#[test]
fn solver_helpers() {
    let mut g = Connect4::from_moves(7, 6, "112233").unwrap();
    // X has a, b, c on the bottom row: X to move wins in column 4 (index 3).
    assert_eq!(g.to_move(), Player::First);
    assert!(g.can_win_next());
    assert!(g.is_winning_move(3));
    assert!(!g.is_winning_move(4));
    assert_eq!(g.winning_cells() & g.possible(), g.cell_bit(3, 0));
    assert_eq!(g.possible().count_ones(), 7);
    assert_eq!(g.key(), g.current_bits() + g.mask());
    // After another X move, O must block column 4.
    g.play(6);
    assert_eq!(g.opponent_winning_cells() & g.possible(), g.cell_bit(3, 0));
    assert_eq!(g.possible_non_losing_moves(), g.cell_bit(3, 0));
    // X on b, c, d of the bottom row: two threats, O cannot stop both.
    let h = Connect4::from_moves(7, 6, "33442").unwrap();
    assert_eq!(h.to_move(), Player::Second);
    assert_eq!((h.opponent_winning_cells() & h.possible()).count_ones(), 2);
    assert_eq!(h.possible_non_losing_moves(), 0);
    // play_cell is play by bit.
    let mut played = Connect4::standard();
    let bit = played.possible() & played.column_mask(3);
    played.play_cell(bit);
    assert_eq!(played, Connect4::from_moves(7, 6, "4").unwrap());
    assert_eq!(played.column_of(bit), 3);
    assert_eq!(played.board_mask().count_ones(), 42);
    assert_eq!(played.bottom_mask().count_ones(), 7);
    assert_eq!(played.column_mask(7), 0);
    assert_eq!(played.cell_bit(7, 0), 0);
    assert!(played.can_play(3) && !played.can_play(7));
    let full = Connect4::from_moves(7, 6, "444444").unwrap();
    assert!(!full.can_play(3));
}

/// `possible_non_losing_moves` and `threats_after` against their definitions.
#[test]
fn solver_helpers_match_definitions_in_random_games() {
    let mut r = rng::seeded(77);
    let mut ms = Vec::new();
    for (w, h) in SIZES.into_iter().cycle().take(2000) {
        let mut g = Connect4::new(w, h).unwrap();
        loop {
            ms.clear();
            if let Status::Over(_) = g.generate(&mut ms) {
                break;
            }
            let non_losing = g.possible_non_losing_moves();
            for &c in &ms {
                let cell = g.possible() & g.column_mask(c);
                let mut after = g;
                after.play(c);
                assert_eq!(g.threats_after(cell), after.opponent_winning_cells().count_ones());
                if !g.can_win_next() {
                    let loses = after.can_win_next();
                    assert_eq!(non_losing & cell != 0, !loses, "{w}×{h}\n{g}col {c}");
                }
            }
            g.play(ms[r.random_range(0..ms.len())]);
        }
    }
}

#[test]
fn display_and_notation() {
    let g = Connect4::from_moves(4, 4, "2231").unwrap();
    assert_eq!(g.to_string(), "....\n....\n.O..\nOXX.\n");
    let g = Connect4::from_moves(7, 6, "4453").unwrap();
    assert_eq!(g.to_string(), ".......\n.......\n.......\n.......\n...O...\n..OXX..\n");
    for c in 0..7 {
        assert_eq!(g.parse_move(&g.move_string(c)).unwrap(), c);
    }
    // Wide boards use letters after 9.
    let wide = Connect4::new(16, 3).unwrap();
    assert_eq!(wide.move_string(9), "a");
    assert_eq!(wide.parse_move("A").unwrap(), 9);
    assert_eq!(wide.parse_move("g").unwrap(), 15);
    assert!(wide.parse_move("h").is_err());
    let w = Connect4::from_moves(16, 3, "9ag").unwrap();
    let back = w.moves_string().unwrap();
    assert_eq!(Connect4::from_moves(16, 3, &back).unwrap(), w);
}

#[test]
fn pons_benchmark_lines_parse() {
    let Some(text) = test_data::read("connect4/begin-easy", "parsing Pons' benchmark lines") else { return };
    for line in text.lines().take(200) {
        let moves = line.split_whitespace().next().unwrap();
        let g = Connect4::from_moves(7, 6, moves).unwrap();
        assert_eq!(g.moves_played() as usize, moves.len());
        assert_eq!(g.status(), Status::Ongoing);
        let back = g.moves_string().unwrap();
        assert_eq!(Connect4::from_moves(7, 6, &back).unwrap(), g);
    }
}

#[test]
fn error_paths() {
    assert!(Connect4::new(0, 4).is_err());
    assert!(Connect4::new(4, 0).is_err());
    assert!(Connect4::new(9, 7).is_err());
    assert!(Connect4::new(usize::MAX, usize::MAX).is_err());
    assert!(matches!(Connect4::from_moves(9, 7, "1"), Err(GameError::Param(_))));
    assert!(matches!(Connect4::from_moves(7, 6, "12x"), Err(GameError::Parse { position: 2, .. })));
    assert!(matches!(Connect4::from_moves(7, 6, "18"), Err(GameError::Parse { position: 1, .. })));
    assert!(matches!(Connect4::from_moves(7, 6, "10"), Err(GameError::Parse { position: 1, .. })));
    assert!(matches!(
        Connect4::from_moves(7, 6, "4444444"),
        Err(GameError::IllegalMove { ref reason, .. }) if reason == "column full"
    ));
    assert_eq!(Connect4::from_moves(7, 6, "12121212"), Err(GameError::GameOver));
    let mut g = Connect4::standard();
    assert!(matches!(g.try_play(7), Err(GameError::IllegalMove { ref reason, .. }) if reason == "no such column"));
    assert!(matches!(g.try_play(200), Err(GameError::IllegalMove { .. })));
    for bad in ["", "44", "0", "8", "x", "é"] {
        assert!(matches!(g.parse_move(bad), Err(GameError::Parse { .. })), "{bad:?}");
    }
    // A drawn, full board refuses moves (found by seeded random play).
    let mut r = rng::seeded(5);
    let mut ms = Vec::new();
    let draw = loop {
        let mut g = Connect4::new(4, 4).unwrap();
        loop {
            ms.clear();
            if let Status::Over(_) = g.generate(&mut ms) {
                break;
            }
            g.play(ms[r.random_range(0..ms.len())]);
        }
        if g.winner().is_none() {
            break g;
        }
    };
    assert!(draw.is_full());
    assert_eq!(draw.status(), Status::Over(Outcome::Draw));
    assert_eq!(draw.clone().try_play(0), Err(GameError::GameOver));
    // A won position still has a move string.
    let won = Connect4::from_moves(7, 6, "1212121").unwrap();
    let line = won.moves_string().unwrap();
    assert_eq!(Connect4::from_moves(7, 6, &line).unwrap(), won);
}

#[test]
fn cell_weight_tables_match_the_seed_notes() {
    let t44 = Connect4::new(4, 4).unwrap();
    assert_eq!(t44.cell_weight_table(), [[3, 2, 2, 3], [2, 3, 3, 2], [2, 3, 3, 2], [3, 2, 2, 3]]);
    assert_eq!(t44.window_count(), 10);
    let t76 = Connect4::standard();
    let expected: Vec<Vec<u32>> =
        ["3 4 5 7 5 4 3", "4 6 8 10 8 6 4", "5 8 11 13 11 8 5", "5 8 11 13 11 8 5", "4 6 8 10 8 6 4", "3 4 5 7 5 4 3"]
            .iter()
            .map(|r| r.split(' ').map(|x| x.parse().unwrap()).collect())
            .collect();
    assert_eq!(t76.cell_weight_table(), expected);
    assert_eq!(t76.window_count(), 69);
    // Every window has four cells.
    for (w, h) in SIZES {
        let g = Connect4::new(w, h).unwrap();
        let total: u32 = g.cell_weight_table().iter().flatten().sum();
        assert_eq!(total, 4 * g.window_count(), "{w}×{h}");
    }
}

/// The evaluator's formula computed window by window on the grid.
fn naive_eval(g: &Connect4, weights: [f64; 4], cell_weight: f64) -> f64 {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let table = g.cell_weight_table();
    let mut side = [0.0f64; 2];
    for p in [Player::First, Player::Second] {
        let mut s = 0.0;
        for c in 0..w {
            for r in 0..h {
                for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
                    let cells: Vec<(i64, i64)> = (0..4).map(|k| (c + k * dc, r + k * dr)).collect();
                    if cells.iter().any(|&(x, y)| x < 0 || y < 0 || x >= w || y >= h) {
                        continue;
                    }
                    let owners: Vec<Option<Player>> =
                        cells.iter().map(|&(x, y)| g.at(x as usize, y as usize)).collect();
                    if owners.contains(&Some(p.opponent())) {
                        continue;
                    }
                    let k = owners.iter().filter(|&&o| o == Some(p)).count().min(3);
                    s += weights[k];
                }
                if g.at(c as usize, r as usize) == Some(p) {
                    s += cell_weight * f64::from(table[(h - 1 - r) as usize][c as usize]);
                }
            }
        }
        side[p.index()] = s;
    }
    side[0] - side[1]
}

#[test]
fn evaluator_matches_naive_formula() {
    let weights = [0.5, 1.5, 7.0, 30.0];
    let custom = Connect4Eval::new(weights, 2.0).unwrap();
    let default = Connect4Eval::default();
    let mut r = rng::seeded(99);
    let mut ms = Vec::new();
    for (w, h) in SIZES.into_iter().cycle().take(300) {
        let mut g = Connect4::new(w, h).unwrap();
        loop {
            assert_eq!(custom.evaluate(&g), naive_eval(&g, weights, 2.0), "{w}×{h}\n{g}");
            assert_eq!(default.evaluate(&g), naive_eval(&g, [1.0, 2.0, 3.0, 4.0], 1.0));
            assert!(default.evaluate(&g).abs() < 1e5);
            ms.clear();
            if let Status::Over(_) = g.generate(&mut ms) {
                break;
            }
            g.play(ms[r.random_range(0..ms.len())]);
        }
    }
    assert!(Connect4Eval::new([1.0, 2.0, 3.0, f64::INFINITY], 1.0).is_err());
    assert!(Connect4Eval::new([1.0, 2.0, 3.0, 4.0], 101.0).is_err());
}
