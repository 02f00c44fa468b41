//! The evaluator's ranges and symmetries, and searches with it: minimax and
//! alpha-beta agree with each other and with a naive negamax.

use othello::{BLACK, Othello, OthelloEval, Square, WHITE};
use search_core::backup::Minimax;
use search_core::rng::{self, RngExt as _};
use search_core::search::{Bound, Limits, Options, Search};
use search_core::{Evaluator, Game, MAX_PLY, Outcome, Status};

/// The positions of `games` seeded random games, every one of them.
fn random_positions(seed: u64, games: usize) -> Vec<Othello> {
    let mut r = rng::seeded(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut g = Othello::new();
        loop {
            out.push(g);
            moves.clear();
            if let Status::Over(_) = g.generate(&mut moves) {
                break;
            }
            g.play(moves[r.random_range(0..moves.len())]);
        }
    }
    out
}

/// The position after `plies` random moves (fewer if the game ends).
fn random_position(seed: u64, plies: usize) -> Othello {
    let mut r = rng::seeded(seed);
    let mut g = Othello::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        if let Status::Over(_) = g.generate(&mut moves) {
            break;
        }
        g.play(moves[r.random_range(0..moves.len())]);
    }
    g
}

/// Applies one of the eight symmetries of the square to a bitboard.
fn transform(bits: u64, t: u8) -> u64 {
    let mut out = 0;
    for sq in Square::iter_bits(bits) {
        let (f, r) = (sq.file(), sq.rank());
        let (f, r) = if t & 1 != 0 { (5 - f, r) } else { (f, r) };
        let (f, r) = if t & 2 != 0 { (f, 5 - r) } else { (f, r) };
        let (f, r) = if t & 4 != 0 { (r, f) } else { (f, r) };
        out |= Square::new(f, r).unwrap().bit();
    }
    out
}

#[test]
fn values_stay_in_their_documented_ranges() {
    let e = OthelloEval;
    let (mut unfinished, mut finished) = (0, 0);
    for g in random_positions(0x0e11_e7a1, 400) {
        let v = e.evaluate(&g);
        assert!(v.is_finite());
        match g.outcome() {
            None => {
                unfinished += 1;
                assert!(v.abs() < OthelloEval::HEURISTIC_MAX, "{v} at\n{g}");
            }
            Some(outcome) => {
                finished += 1;
                let margin = g.disc_margin() * g.to_move().sign() as i32;
                match outcome {
                    Outcome::Draw => assert_eq!(v, 0.0),
                    Outcome::Win(w) => {
                        let expected = if w == g.to_move() { 1000.0 + margin as f64 } else { -1000.0 + margin as f64 };
                        assert_eq!(v, expected, "{g}");
                        assert!((1001.0..=1036.0).contains(&v.abs()));
                    }
                    Outcome::Payoff(_) => unreachable!(),
                }
                // The winner's view: a won end beats every unfinished value.
                if let Outcome::Win(w) = outcome {
                    assert!(e.evaluate_for(&g, w) > OthelloEval::HEURISTIC_MAX);
                    assert!(e.evaluate_for(&g, w.opponent()) < -OthelloEval::HEURISTIC_MAX);
                }
            }
        }
    }
    assert!(unfinished > 5000 && finished == 400, "{unfinished} {finished}");
    // In a search, a won end is scored by terminal_value: also above every
    // heuristic value and every finished-position value, at any ply.
    for ply in [0, 1, 30, MAX_PLY] {
        let win = e.terminal_value(Outcome::Win(BLACK), BLACK, ply);
        assert!(win > OthelloEval::FINISHED_BASE + 36.0);
        assert_eq!(e.terminal_value(Outcome::Win(BLACK), WHITE, ply), -win);
        assert_eq!(e.terminal_value(Outcome::Draw, WHITE, ply), 0.0);
    }
    let (lo, hi) = e.bounds().unwrap();
    assert!(
        lo <= -e.terminal_value(Outcome::Win(BLACK), BLACK, 0) && hi >= e.terminal_value(Outcome::Win(BLACK), BLACK, 0)
    );
}

#[test]
fn values_are_antisymmetric_and_symmetric_where_they_should_be() {
    let e = OthelloEval;
    assert_eq!(e.evaluate(&Othello::new()), 0.0);
    for g in random_positions(0x0e11_e7a2, 150) {
        let v = e.evaluate(&g);
        let (b, w, p) = (g.discs(BLACK), g.discs(WHITE), g.to_move());
        // The same discs with the other side to move: exactly the negation.
        let other_side = Othello::from_discs(b, w, p.opponent()).unwrap();
        assert_eq!(e.evaluate(&other_side), -v, "{g}");
        // One state seen by both players.
        assert_eq!(e.evaluate_for(&g, BLACK), -e.evaluate_for(&g, WHITE));
        assert_eq!(e.evaluate_for(&g, p), v);
        // Colours swapped, and the side to move with them: the same value.
        let swapped = Othello::from_discs(w, b, p.opponent()).unwrap();
        assert_eq!(e.evaluate(&swapped), v, "{g}");
        // The eight symmetries of the board keep the value.
        for t in 0..8 {
            let s = Othello::from_discs(transform(b, t), transform(w, t), p).unwrap();
            assert_eq!(e.evaluate(&s), v, "symmetry {t} of\n{g}");
        }
    }
}

#[test]
fn corners_and_their_neighbours_count() {
    let e = OthelloEval;
    // Same discs but for one: Black on the corner a1 beats Black on the
    // X-square b2 next to the empty corner.
    let base = "...... ...... ..OX.. ..XO.. ...... .....X";
    let corner = Othello::from_board(&format!("X{}", &base[1..]), BLACK).unwrap();
    let xsq = Othello::from_board(&base.replacen("...... ......", "...... .X....", 1), BLACK).unwrap();
    assert_eq!(corner.count(BLACK), xsq.count(BLACK));
    assert!(e.evaluate(&corner) > e.evaluate(&xsq) + 15.0, "{} {}", e.evaluate(&corner), e.evaluate(&xsq));
}

/// Naive negamax from the side to move's view: the evaluator at the horizon,
/// its terminal value at the end of the game.
fn negamax(state: &Othello, depth: u32, ply: u32, e: &OthelloEval) -> f64 {
    let me = state.to_move();
    let mut moves = Vec::new();
    match state.generate(&mut moves) {
        Status::Over(o) => e.terminal_value(o, me, ply),
        Status::Ongoing if depth == 0 => e.evaluate_for(state, me),
        Status::Ongoing => moves
            .iter()
            .map(|&m| {
                let mut c = *state;
                c.play(m);
                -negamax(&c, depth - 1, ply + 1, e)
            })
            .fold(f64::NEG_INFINITY, f64::max),
    }
}

/// Search options to compare: plain minimax first.
fn variants() -> Vec<(&'static str, Options)> {
    vec![
        ("minimax", Options::full_width()),
        ("alpha-beta", Options::plain_alpha_beta()),
        ("alpha-beta + table + ordering", Options::default()),
        ("recommended", Options::recommended::<Othello, Minimax, OthelloEval>(&OthelloEval)),
    ]
}

#[test]
fn minimax_and_alpha_beta_agree_at_depth_4_and_5() {
    let e = OthelloEval;
    let mut positions: Vec<Othello> =
        (0..8).map(|i| random_position(rng::derive_seed(0x0e11_5ea7, i), 4 + 3 * i as usize)).collect();
    // And a few from late in games, where passes and game ends are in reach.
    positions.extend((0..4).map(|i| random_position(rng::derive_seed(0x0e11_5ea8, i), 24)));
    let mut searched = 0;
    for (i, g) in positions.iter().enumerate() {
        if g.is_over() {
            continue;
        }
        searched += 1;
        for depth in [4, 5] {
            let reference = negamax(g, depth, 0, &e);
            let mut values = Vec::new();
            for (name, options) in variants() {
                let mut s = Search::new(Minimax, e, options).unwrap();
                let r = s.run(g, &Limits::depth(depth)).unwrap();
                assert_eq!(r.value, Some(reference), "{name}, position {i}, depth {depth}\n{g}");
                // The best move is legal and worth the value.
                let best = r.best.unwrap();
                let mut after = *g;
                after.try_play(best).unwrap();
                assert_eq!(-negamax(&after, depth - 1, 1, &e), reference, "{name}, position {i}");
                values.push(r.value);
            }
            // Full width reports every root move exactly.
            let full = Search::new(Minimax, e, Options::full_width()).unwrap().run(g, &Limits::depth(depth)).unwrap();
            for rm in &full.root_moves {
                assert_eq!(rm.bound, Bound::Exact);
                let mut c = *g;
                c.play(rm.mv);
                assert_eq!(rm.score, -negamax(&c, depth - 1, 1, &e));
            }
            assert!(values.windows(2).all(|w| w[0] == w[1]));
        }
    }
    assert!(searched >= 10, "{searched}");
}

#[test]
fn endgames_are_solved_exactly() {
    let e = OthelloEval;
    let mut solved = 0;
    for i in 0..6 {
        let g = random_position(rng::derive_seed(0x0e11_e9d0, i), 24);
        if g.is_over() {
            continue;
        }
        solved += 1;
        let exact = negamax(&g, u32::MAX, 0, &e);
        for (name, options) in variants() {
            let r = Search::new(Minimax, e, options).unwrap().run(&g, &Limits::full_tree()).unwrap();
            assert_eq!(r.value, Some(exact), "{name}, endgame {i}\n{g}");
            assert!(r.complete);
        }
        // The value is a game result: a win, a loss (by distance) or a draw.
        assert!(exact == 0.0 || exact.abs() > OthelloEval::FINISHED_BASE, "{exact}");
        let winner = match exact {
            v if v > 0.0 => Some(g.to_move()),
            v if v < 0.0 => Some(g.to_move().opponent()),
            _ => None,
        };
        // Playing the searched best moves to the end gives that result.
        let mut line = g;
        let mut s = Search::new(Minimax, e, Options::default()).unwrap();
        while !line.is_over() {
            let best = s.run(&line, &Limits::full_tree()).unwrap().best.unwrap();
            line.try_play(best).unwrap();
        }
        assert_eq!(line.outcome().and_then(Outcome::winner), winner, "endgame {i}");
    }
    assert!(solved >= 4, "{solved}");
}
