//! Gobang: win detection at every edge in every direction, the two five
//! rules, a naive reference implementation, pattern counts, hashing,
//! notation and every error path.

use games_small::gobang::{FiveRule, Gobang, GobangEval, GobangOptions, Opening, PatternCounts, PatternWeights};
use rand::Rng as _;
use search_core::{Evaluator, Game, GameError, Outcome, Player, Status, perft, rng};

const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

fn opts(size: usize, rule: FiveRule, radius: u8, opening: Opening) -> GobangOptions {
    GobangOptions { size, rule, radius, opening }
}

/// Plays `xs` for X and `os` for O alternately, X first (`os` has one point
/// fewer than `xs`, or as many).
fn build(o: GobangOptions, xs: &[(usize, usize)], os: &[(usize, usize)]) -> Gobang {
    let mut g = Gobang::with_options(o).unwrap();
    for i in 0..xs.len() {
        let p = g.point(xs[i].0, xs[i].1).unwrap();
        g.try_play(p).unwrap();
        if let Some(&(c, r)) = os.get(i) {
            let p = g.point(c, r).unwrap();
            g.try_play(p).unwrap();
        }
    }
    g
}

#[test]
fn five_in_every_window_of_every_direction_wins() {
    for size in [5, 9, 15] {
        for rule in [FiveRule::Freestyle, FiveRule::Exact] {
            let o = opts(size, rule, 2, Opening::Centre);
            let n = size as i64;
            let mut windows = 0i64;
            for (dc, dr) in DIRS {
                for c in 0..n {
                    for r in 0..n {
                        let cells: Vec<(usize, usize)> = (0..5)
                            .map(|k| (c + k * dc, r + k * dr))
                            .filter(|&(x, y)| (0..n).contains(&x) && (0..n).contains(&y))
                            .map(|(x, y)| (x as usize, y as usize))
                            .collect();
                        if cells.len() < 5 {
                            continue;
                        }
                        windows += 1;
                        // The last stone lands on each of the five cells in turn.
                        let last = (windows % 5) as usize;
                        let mut xs: Vec<_> = cells.iter().copied().filter(|&p| p != cells[last]).collect();
                        xs.push(cells[last]);
                        // O's four stones: the first free points in a scattered order.
                        let os: Vec<_> = (0..size * size)
                            .map(|i| ((i * 7) % size, (i * 3 + i / size) % size))
                            .filter(|p| !cells.contains(p))
                            .fold(Vec::new(), |mut v, p| {
                                if v.len() < 4 && !v.contains(&p) {
                                    v.push(p);
                                }
                                v
                            });
                        let g = build(o, &xs, &os);
                        assert_eq!(
                            g.status(),
                            Status::Over(Outcome::Win(Player::First)),
                            "{size} {rule:?} {cells:?}\n{g}"
                        );
                        let before = build(o, &xs[..4], &os);
                        assert_eq!(before.winner(), None);
                    }
                }
            }
            // 2 × (n − 4) × (n − 4) diagonal windows + 2 × n × (n − 4) straight ones.
            let k = n - 4;
            assert_eq!(windows, 2 * k * k + 2 * n * k);
        }
    }
}

#[test]
fn six_in_a_row_wins_only_in_freestyle() {
    for (dc, dr) in DIRS {
        // A line of six through the middle of a 15 × 15 board, completed in
        // the middle (joining a two and a three).
        let base = |k: i64| ((8 + k * dc) as usize, (5 + k * dr) as usize);
        let xs = [base(0), base(1), base(3), base(4), base(5), base(2)];
        let os = [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14)];
        let free = build(opts(15, FiveRule::Freestyle, 2, Opening::Centre), &xs, &os);
        assert_eq!(free.winner(), Some(Player::First));
        let exact = build(opts(15, FiveRule::Exact, 2, Opening::Centre), &xs, &os);
        assert_eq!(exact.winner(), None, "{dc},{dr}\n{exact}");
        assert_eq!(exact.status(), Status::Ongoing);
        // Under the exact rule, a five next to an opponent stone still wins.
        let xs = [base(0), base(1), base(2), base(3), base(4)];
        let os = [base(5), (0, 14), (2, 14), (4, 14)];
        let g = build(opts(15, FiveRule::Exact, 2, Opening::Centre), &xs, &os);
        assert_eq!(g.winner(), Some(Player::First));
    }
}

/// A naive gobang on a grid.
#[derive(Clone)]
struct Naive {
    o: GobangOptions,
    grid: Vec<Vec<Option<Player>>>, // [col][row]
    to_move: Player,
    winner: Option<Player>,
    n: usize,
}

impl Naive {
    fn new(o: GobangOptions) -> Self {
        Naive { o, grid: vec![vec![None; o.size]; o.size], to_move: Player::First, winner: None, n: 0 }
    }
    fn moves(&self) -> Option<Vec<(usize, usize)>> {
        let s = self.o.size;
        if self.winner.is_some() || self.n == s * s {
            return None;
        }
        let mut out = Vec::new();
        for r in 0..s {
            for c in 0..s {
                let ok = if self.n == 0 {
                    self.o.opening == Opening::Anywhere || (c == s / 2 && r == s / 2)
                } else {
                    let rad = self.o.radius as i64;
                    self.grid[c][r].is_none()
                        && (-rad..=rad).any(|dc| {
                            (-rad..=rad).any(|dr| {
                                let (x, y) = (c as i64 + dc, r as i64 + dr);
                                (0..s as i64).contains(&x)
                                    && (0..s as i64).contains(&y)
                                    && self.grid[x as usize][y as usize].is_some()
                            })
                        })
                };
                if ok {
                    out.push((c, r));
                }
            }
        }
        Some(out)
    }
    fn play(&mut self, (c, r): (usize, usize)) {
        let s = self.o.size as i64;
        let me = self.to_move;
        self.grid[c][r] = Some(me);
        for (dc, dr) in DIRS {
            let mut count = 1;
            for sign in [1, -1] {
                let (mut x, mut y) = (c as i64 + sign * dc, r as i64 + sign * dr);
                while (0..s).contains(&x) && (0..s).contains(&y) && self.grid[x as usize][y as usize] == Some(me) {
                    count += 1;
                    x += sign * dc;
                    y += sign * dr;
                }
            }
            let wins = match self.o.rule {
                FiveRule::Freestyle => count >= 5,
                FiveRule::Exact => count == 5,
            };
            if wins {
                self.winner = Some(me);
            }
        }
        self.to_move = me.opponent();
        self.n += 1;
    }
    fn perft(&self, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        match self.moves() {
            None => 0,
            Some(ms) => ms
                .into_iter()
                .map(|m| {
                    let mut c = self.clone();
                    c.play(m);
                    c.perft(d - 1)
                })
                .sum(),
        }
    }

    /// Pattern counts by the documented definitions, window by window.
    fn patterns(&self, p: Player) -> PatternCounts {
        let s = self.o.size as i64;
        let at = |x: i64, y: i64| -> Option<Option<Player>> {
            ((0..s).contains(&x) && (0..s).contains(&y)).then(|| self.grid[x as usize][y as usize])
        };
        let mut pc = PatternCounts::default();
        for (dc, dr) in DIRS {
            for c in 0..s {
                for r in 0..s {
                    let w: Option<Vec<Option<Player>>> =
                        (0..6).map(|k| at(c + k * dc, r + k * dr)).collect::<Vec<_>>().into_iter().collect();
                    let w5: Option<Vec<Option<Player>>> = (0..5).map(|k| at(c + k * dc, r + k * dr)).collect();
                    if let Some(w5) = w5 {
                        let own = w5.iter().filter(|&&x| x == Some(p)).count();
                        let blocked = w5.contains(&Some(p.opponent()));
                        match (own, blocked) {
                            (5, _) => pc.five += 1,
                            (4, false) => pc.four += 1,
                            (3, false) => pc.three += 1,
                            (2, false) => pc.two += 1,
                            _ => {}
                        }
                    }
                    if let Some(w) = w
                        && w[0].is_none()
                        && w[5].is_none()
                        && !w[1..5].contains(&Some(p.opponent()))
                    {
                        match w[1..5].iter().filter(|&&x| x == Some(p)).count() {
                            4 => pc.open_four += 1,
                            3 => pc.open_three += 1,
                            _ => {}
                        }
                    }
                }
            }
        }
        pc
    }
}

fn to_point(g: &Gobang, (c, r): (usize, usize)) -> u8 {
    g.point(c, r).unwrap()
}

#[test]
fn perft_matches_naive() {
    for o in [
        opts(15, FiveRule::Freestyle, 1, Opening::Centre),
        opts(15, FiveRule::Freestyle, 2, Opening::Centre),
        opts(7, FiveRule::Exact, 3, Opening::Anywhere),
        opts(5, FiveRule::Freestyle, 1, Opening::Anywhere),
    ] {
        let g = Gobang::with_options(o).unwrap();
        let n = Naive::new(o);
        for d in 0..=3 {
            assert_eq!(perft(&g, d).unwrap(), n.perft(d), "{o:?} depth {d}");
        }
    }
    let g = Gobang::default();
    assert_eq!(perft(&g, 1).unwrap(), 1);
    assert_eq!(perft(&g, 2).unwrap(), 24);
    assert_eq!(perft(&Gobang::with_options(opts(15, FiveRule::Freestyle, 1, Opening::Centre)).unwrap(), 2).unwrap(), 8);
}

#[test]
fn random_games_agree_with_naive_hash_and_patterns() {
    let mut r = rng::seeded(31337);
    let eval = GobangEval::default();
    let mut ms = Vec::new();
    let variants = [
        opts(15, FiveRule::Freestyle, 2, Opening::Centre),
        opts(15, FiveRule::Exact, 1, Opening::Anywhere),
        opts(9, FiveRule::Freestyle, 1, Opening::Anywhere),
        opts(6, FiveRule::Exact, 2, Opening::Centre),
        opts(5, FiveRule::Freestyle, 4, Opening::Anywhere),
    ];
    for (i, o) in variants.into_iter().cycle().take(2000).enumerate() {
        let mut g = Gobang::with_options(o).unwrap();
        let mut n = Naive::new(o);
        let mut line = Vec::new();
        loop {
            assert_eq!(g.hash_key(), Some(g.hash_from_scratch()));
            if i % 20 == 0 {
                for p in [Player::First, Player::Second] {
                    assert_eq!(eval.pattern_counts(&g, p), n.patterns(p), "{o:?}\n{g}");
                }
            }
            ms.clear();
            let status = g.generate(&mut ms);
            assert_eq!(g.quick_status(), Some(status), "{o:?}\n{g}");
            match (status, n.moves()) {
                (Status::Ongoing, Some(naive)) => {
                    let naive: Vec<u8> = naive.into_iter().map(|p| to_point(&g, p)).collect();
                    let mut sorted = ms.clone();
                    sorted.sort_unstable();
                    let mut naive_sorted = naive;
                    naive_sorted.sort_unstable();
                    assert_eq!(sorted, naive_sorted);
                    let mv = ms[r.random_range(0..ms.len())];
                    line.push(g.move_string(mv));
                    let (c, rr) = Gobang::coords(mv);
                    g.play(mv);
                    n.play((c, rr));
                }
                (Status::Over(Outcome::Win(p)), None) => {
                    assert_eq!(n.winner, Some(p));
                    break;
                }
                (Status::Over(Outcome::Draw), None) => {
                    assert_eq!(n.winner, None);
                    assert_eq!(g.moves_played() as usize, o.size * o.size);
                    break;
                }
                (s, m) => panic!("{o:?} {line:?}: {s:?} vs naive {m:?}"),
            }
        }
        // The move list parses back to the same position.
        assert_eq!(Gobang::from_moves(o, &line.join(" ")).unwrap(), g);
        assert_eq!(Gobang::from_moves(o, &line.concat()).unwrap(), g);
    }
}

#[test]
fn pattern_counts_of_known_shapes() {
    let e = GobangEval::default();
    let far = [(0, 14), (14, 14), (0, 0), (14, 0), (2, 14)];
    // .XXXX. in the middle of row 8.
    let g = build(GobangOptions::default(), &[(5, 7), (6, 7), (7, 7), (8, 7)], &far);
    let c = e.pattern_counts(&g, Player::First);
    assert_eq!((c.five, c.open_four, c.four), (0, 1, 2));
    // X at the left edge: a closed four.
    let g = build(GobangOptions::default(), &[(0, 7), (1, 7), (2, 7), (3, 7)], &[(0, 14), (14, 14), (7, 0), (14, 0)]);
    let c = e.pattern_counts(&g, Player::First);
    assert_eq!((c.open_four, c.four), (0, 1));
    // ..XXX.. : two open threes; .X.XX. : one.
    let g = build(GobangOptions::default(), &[(6, 7), (7, 7), (8, 7)], &far);
    assert_eq!(e.pattern_counts(&g, Player::First).open_three, 2);
    let g = build(GobangOptions::default(), &[(5, 7), (7, 7), (8, 7)], &[(3, 7), (0, 14), (14, 14)]);
    assert_eq!(e.pattern_counts(&g, Player::First).open_three, 1);
    // A three blocked by O on one side is not open.
    let g = build(GobangOptions::default(), &[(6, 7), (7, 7), (8, 7)], &[(5, 7), (0, 14), (14, 14)]);
    let c = e.pattern_counts(&g, Player::First);
    assert_eq!(c.open_three, 0);
    assert!(c.three > 0);
    // Values are from the side to move: the same shapes score opposite.
    let mine = build(GobangOptions::default(), &[(6, 7), (7, 7), (8, 7)], &far[..2]); // O to move
    assert!(e.evaluate(&mine) < 0.0);
    assert!(e.evaluate_for(&mine, Player::First) > 0.0);
    assert_eq!(e.evaluate(&Gobang::default()), 0.0);
}

#[test]
fn evaluator_is_bounded_and_weights_are_checked() {
    let e = GobangEval::default();
    let mut r = rng::seeded(8);
    let mut ms = Vec::new();
    for _ in 0..200 {
        let mut g = Gobang::with_options(opts(15, FiveRule::Freestyle, 1, Opening::Centre)).unwrap();
        loop {
            let v = e.evaluate(&g);
            assert!(v.abs() <= GobangEval::LIMIT && v.is_finite());
            ms.clear();
            if let Status::Over(_) = g.generate(&mut ms) {
                break;
            }
            g.play(ms[r.random_range(0..ms.len())]);
        }
    }
    assert!(GobangEval::new(PatternWeights { five: f64::NAN, ..Default::default() }).is_err());
    assert!(GobangEval::new(PatternWeights { two: -1.0, ..Default::default() }).is_err());
    assert!(GobangEval::new(PatternWeights { open_four: 1e6, ..Default::default() }).is_err());
    let w = PatternWeights { two: 0.0, ..Default::default() };
    assert_eq!(GobangEval::new(w).unwrap().weights(), w);
}

#[test]
fn notation_display_and_order_hints() {
    let g = Gobang::default();
    assert_eq!(g.move_string(g.centre()), "h8");
    assert_eq!(g.parse_move("H8").unwrap(), g.centre());
    assert_eq!(g.parse_move("a1").unwrap(), g.point(0, 0).unwrap());
    assert_eq!(g.parse_move("o15").unwrap(), g.point(14, 14).unwrap());
    assert_eq!(g.parse_move("i9").unwrap(), g.point(8, 8).unwrap());
    for c in 0..15 {
        for r in 0..15 {
            let p = g.point(c, r).unwrap();
            assert_eq!(g.parse_move(&g.move_string(p)).unwrap(), p);
        }
    }
    let small = Gobang::from_moves(opts(5, FiveRule::Freestyle, 1, Opening::Centre), "c3 b2").unwrap();
    assert_eq!(
        small.to_string(),
        " 5 . . . . .\n 4 . . . . .\n 3 . . X . .\n 2 . O . . .\n 1 . . . . .\n   a b c d e\n"
    );
    assert_eq!(small.options().size, 5);
    // Points next to stones rank before far ones.
    let g: Gobang = "h8".parse().unwrap();
    assert!(g.order_hint(g.parse_move("h9").unwrap()) > g.order_hint(g.parse_move("h10").unwrap()));
    // The first move of the default variant is the centre only.
    let mut ms = Vec::new();
    Gobang::default().generate(&mut ms);
    assert_eq!(ms, [Gobang::default().centre()]);
    // try_play accepts any empty point, even outside the candidates.
    let mut g = Gobang::default();
    g.try_play(g.point(0, 0).unwrap()).unwrap();
    g.try_play(g.point(14, 14).unwrap()).unwrap();
    assert_eq!(g.moves_played(), 2);
}

#[test]
fn full_board_is_a_draw() {
    // Fill a 5 × 5 board so that nobody gets five: rows alternate XXOOX-style.
    // Pattern by rows (bottom first), checked to hold no five for anyone.
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let mut xs = Vec::new();
    let mut os = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == 'X' { xs.push((c, r)) } else { os.push((c, r)) }
        }
    }
    assert_eq!((xs.len(), os.len()), (13, 12));
    let o = opts(5, FiveRule::Freestyle, 1, Opening::Anywhere);
    let g = build(o, &xs, &os);
    assert_eq!(g.status(), Status::Over(Outcome::Draw));
    assert_eq!(g.clone().try_play(0), Err(GameError::GameOver));
}

#[test]
fn error_paths() {
    assert!(Gobang::new(4).is_err());
    assert!(Gobang::new(16).is_err());
    assert!(Gobang::with_options(GobangOptions { radius: 0, ..Default::default() }).is_err());
    assert!(Gobang::with_options(GobangOptions { radius: 5, ..Default::default() }).is_err());
    assert!(matches!(
        Gobang::from_moves(GobangOptions { size: 3, ..Default::default() }, ""),
        Err(GameError::Param(_))
    ));
    let g = Gobang::new(9).unwrap();
    for bad in ["", "h", "8h", "j1", "a0", "a10", "a123", "h-1", "é1", "a1x"] {
        assert!(matches!(g.parse_move(bad), Err(GameError::Parse { .. })), "{bad:?}");
    }
    assert!(matches!("h8 z1".parse::<Gobang>(), Err(GameError::Parse { position: 3, .. })));
    assert!(matches!("h8 h0".parse::<Gobang>(), Err(GameError::Parse { position: 4, .. })));
    assert!(matches!("h8 !".parse::<Gobang>(), Err(GameError::Parse { position: 3, .. })));
    assert!(matches!("h8 é".parse::<Gobang>(), Err(GameError::Parse { .. })));
    assert!(matches!(
        "h8 h8".parse::<Gobang>(),
        Err(GameError::IllegalMove { ref reason, .. }) if reason == "point occupied"
    ));
    let mut g = Gobang::new(9).unwrap();
    assert!(matches!(g.try_play(9), Err(GameError::IllegalMove { ref reason, .. }) if reason == "off the board"));
    assert!(matches!(g.try_play(15), Err(GameError::IllegalMove { .. })));
    assert!(matches!(g.try_play(255), Err(GameError::IllegalMove { .. })));
    let won: Gobang = "h8 a1 i8 a2 j8 a3 k8 a4 l8".parse().unwrap();
    assert_eq!(won.clone().try_play(100), Err(GameError::GameOver));
    assert_eq!("h8 a1 i8 a2 j8 a3 k8 a4 l8 a5".parse::<Gobang>(), Err(GameError::GameOver));
}
