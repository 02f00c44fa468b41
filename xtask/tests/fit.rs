//! `cargo xtask fit` through the binary: a perfect player's open interval,
//! random play near θ = 0, connect-4 digit strings, PGN player selection,
//! and line-numbered errors.

mod common;

use common::{error, file, json, xtask};

/// A small deterministic generator (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn won(b: &[u8; 9], p: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == p))
}

/// The value of the position for `p` to move (1 win, 0 draw, −1 loss).
fn value(b: &mut [u8; 9], p: u8) -> i32 {
    if won(b, 3 - p) {
        return -1;
    }
    let mut best = None;
    for i in 0..9 {
        if b[i] == 0 {
            b[i] = p;
            let v = -value(b, 3 - p);
            b[i] = 0;
            best = Some(best.map_or(v, |x: i32| x.max(v)));
        }
    }
    best.unwrap_or(0)
}

/// Tic-tac-toe games (cells `a1`..`c3`, rows from the bottom): X plays a
/// random optimal move if `perfect_x`, else a random move; O plays at random.
fn tictactoe_games(count: usize, perfect_x: bool, seed: u64) -> String {
    let mut rng = Lcg(seed);
    let mut out = String::new();
    for _ in 0..count {
        let mut b = [0u8; 9];
        let mut p = 1;
        let mut moves = Vec::new();
        while !won(&b, 1) && !won(&b, 2) && b.contains(&0) {
            let mut options: Vec<usize> = (0..9).filter(|&i| b[i] == 0).collect();
            if perfect_x && p == 1 {
                let vals: Vec<i32> = options
                    .iter()
                    .map(|&i| {
                        b[i] = p;
                        let v = -value(&mut b, 3 - p);
                        b[i] = 0;
                        v
                    })
                    .collect();
                let best = *vals.iter().max().unwrap();
                options = options.iter().zip(&vals).filter(|&(_, &v)| v == best).map(|(&i, _)| i).collect();
            }
            let i = options[rng.below(options.len())];
            b[i] = p;
            moves.push(format!("{}{}", ["a", "b", "c"][i % 3], i / 3 + 1));
            p = 3 - p;
        }
        out += &moves.join(" ");
        out.push('\n');
    }
    out
}

#[test]
fn a_perfect_tictactoe_player_has_no_upper_bound() {
    let path = file("fit", "perfect.txt", &tictactoe_games(40, true, 7));
    let r = json(&xtask(&["fit", "tictactoe", &path, "--player", "first", "--json"]));
    assert_eq!(r["model"], "boltzmann");
    assert_eq!(r["values"], "exact");
    assert_eq!(r["param"], "inf", "{r}");
    assert!(r["ci95"][1].is_null(), "{r}");
    assert!(r["ci95"][0].as_f64().unwrap() > 0.5, "{r}");
    assert!(r["moves"].as_u64().unwrap() > 40, "{r}");
    assert!(r["uninformative"].as_u64().is_some() && r["aic"].as_f64().is_some() && r["loglik"].is_f64(), "{r}");
    assert!(r["elo"].is_null(), "exact values are on no dial curve: {r}");
    // Depth-9 values are the dial's tic-tac-toe curve (cap 1): a rating,
    // open above.
    let r = json(&xtask(&["fit", "tictactoe", &path, "--player", "first", "--values", "depth:9", "--json"]));
    assert_eq!(r["param"], "inf", "{r}");
    if !r["curve"].is_null() {
        assert!(r["elo"].as_f64().is_some() && r["elo_ci95"][1].is_null(), "{r}");
    }
    // The human-readable form shows the open end.
    let out = xtask(&["fit", "tictactoe", &path, "--player", "first"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("θ = +∞") && text.contains("θ ≥ "), "{text}");
}

#[test]
fn random_play_gives_theta_near_zero() {
    let path = file("fit", "random.txt", &tictactoe_games(150, false, 11));
    let r = json(&xtask(&["fit", "tictactoe", &path, "--json"]));
    assert!(r["param"].as_f64().unwrap() < 0.3, "{r}");
    assert!(r["ci95"][0].is_null(), "the interval reaches θ = 0: {r}");
    assert!(r["ci95"][1].as_f64().unwrap() < 1.0, "{r}");
    // All three models, compared.
    let r = json(&xtask(&["fit", "tictactoe", &path, "--model", "all", "--json"]));
    assert_eq!(r["fits"].as_array().unwrap().len(), 3, "{r}");
    let w: f64 = r["comparison"]["entries"].as_array().unwrap().iter().map(|e| e["weight"].as_f64().unwrap()).sum();
    assert!((w - 1.0).abs() < 1e-9, "{r}");
    assert_eq!(r["fits"][2]["model"], "noise");
    // A slip adds the likelihood-ratio test.
    let r = json(&xtask(&["fit", "tictactoe", &path, "--model", "epsilon", "--slip", "--json"]));
    assert_eq!(r["model"], "epsilon");
    assert!(r["slip"].is_f64(), "{r}");
    assert_eq!(r["comparison"]["nested"].as_array().unwrap().len(), 1, "{r}");
}

#[test]
fn bad_input_is_a_line_numbered_error() {
    let path = file("fit", "malformed.txt", "b2 a1 c3\n# a comment\nb2 a1 b2\n");
    let e = error(&xtask(&["fit", "tictactoe", &path]));
    assert!(e.contains(&format!("{path}:3:")), "{e}");
    let path = file("fit", "unparsable.txt", "b2 a1\n\nb2 d4\n");
    let e = error(&xtask(&["fit", "tictactoe", &path]));
    assert!(e.contains(&format!("{path}:3:")), "{e}");
    let path = file("fit", "after-end.txt", "a1 b1 a2 b2 a3 c3\n");
    assert!(error(&xtask(&["fit", "tictactoe", &path])).contains(&format!("{path}:1:")));
    let ok = file("fit", "ok.txt", "b2 a1 c3\n");
    let cases: [(&[&str], &str); 7] = [
        (&["fit", "checkers", &ok], "unknown game"),
        (&["fit", "tictactoe", &ok, "--values", "depth:0"], "depth:D"),
        (&["fit", "tictactoe", &ok, "--values", "deep"], "depth:D"),
        (&["fit", "tictactoe", &ok, "--model", "greedy"], "--model"),
        (&["fit", "tictactoe", &ok, "--cap", "-1"], "--cap"),
        (&["fit", "gobang", &ok], "exact"),
        (&["fit", "tictactoe", &ok, "--player", "Alice"], "PGN"),
    ];
    for (args, want) in cases {
        let e = error(&xtask(args));
        assert!(e.contains(want), "{args:?}: {e}");
    }
    let missing = file("fit", "missing-dir-marker.txt", "");
    let e = error(&xtask(&["fit", "tictactoe", &format!("{missing}.absent")]));
    assert!(e.contains(".absent"), "{e}");
}

#[test]
fn connect4_takes_pons_digit_strings() {
    let games = ["4453432212", "3133755156631334574", "1234567123"];
    let digits = file("fit", "c4-digits.txt", &(games.join("\n") + "\n"));
    let spaced: Vec<String> = games.iter().map(|g| g.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
    let spaced = file("fit", "c4-spaced.txt", &(spaced.join("\n") + "\n"));
    let a = json(&xtask(&["fit", "connect4", &digits, "--values", "depth:2", "--json"]));
    let b = json(&xtask(&["fit", "connect4", &spaced, "--values", "depth:2", "--json"]));
    let plies: usize = games.iter().map(|g| g.len()).sum();
    assert_eq!(a["decisions"], plies, "{a}");
    for key in ["param", "ci95", "loglik", "moves", "uninformative", "decisions"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    // Exact values from the solver, late decisions only.
    let r = json(&xtask(&["fit", "connect4", &digits, "--min-discs", "12", "--player", "first", "--json"]));
    assert_eq!(r["values"], "exact");
    // The first player moves on 12, 14, 16 and 18 discs in the second game
    // only (the last move wins); its 16 other moves (5 + 6 + 5) come earlier.
    assert_eq!((r["decisions"].as_u64(), r["skipped_early"].as_u64()), (Some(4), Some(16)), "{r}");
    let bad = file("fit", "c4-bad.txt", "4453\n44448\n");
    let e = error(&xtask(&["fit", "connect4", &bad, "--values", "depth:2"]));
    assert!(e.contains(&format!("{bad}:2:")), "{e}");
}

const PGN: &str = r#"[Event "Test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Nf3 {a comment
over two lines} Nc6 (2... d6 3. d4 (3. Bc4) exd4) 3. Bb5 $1 a6?! 4. Ba4 Nf6
5. O-O Be7 6. Re1 b5 7. Bb3 d6 1-0

[Event "Test"]
[White "Bob"]
[Black "alice"]
[Result "0-1"]

1.d4 d5 2.c4 e6 3.Nc3 Nf6 ; a rest-of-line comment
4.Bg5 Be7 5.e3 O-O 6.Nf3 0-1
"#;

#[test]
fn a_pgn_player_is_selected_by_name() {
    let path = file("fit", "two.pgn", PGN);
    let fit =
        |player: &str| json(&xtask(&["fit", "chess", &path, "--values", "depth:1", "--player", player, "--json"]));
    // Alice: White's 7 moves of game 1 and Black's 5 of game 2 (the tag
    // is matched without regard to case).
    let alice = fit("Alice");
    assert_eq!(alice["decisions"], 12, "{alice}");
    assert_eq!(alice["games"], 2);
    assert_eq!(fit("Bob")["decisions"], 13);
    assert_eq!(fit("first")["decisions"], 13);
    assert_eq!(fit("second")["decisions"], 12);
    assert_eq!(fit("both")["decisions"], 25);
    let e = error(&xtask(&["fit", "chess", &path, "--values", "depth:1", "--player", "Carol"]));
    assert!(e.contains("Carol"), "{e}");
    // An illegal move is reported at its line.
    let bad = file("fit", "bad.pgn", &PGN.replace("4.Bg5", "4.Bh5"));
    let e = error(&xtask(&["fit", "chess", &bad, "--values", "depth:1"]));
    assert!(e.contains(&format!("{bad}:16:")), "{e}");
    let open = file("fit", "open.pgn", "1. e4 {never closed\n");
    let e = error(&xtask(&["fit", "chess", &open, "--values", "depth:1"]));
    assert!(e.contains(&format!("{open}:1:")), "{e}");
    assert!(error(&xtask(&["fit", "chess", &path])).contains("depth:D"));
}
