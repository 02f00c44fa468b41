//! `cargo xtask match` and `calibrate` through the binary: results, seeds,
//! resumption, thread-count independence and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn the_perfect_tictactoe_player_never_loses_to_random() {
    let out = scratch("match-perfect");
    let o = out.to_str().unwrap();
    let r =
        json(&xtask(&["match", "tictactoe", "alphabeta:depth=9", "random", "--games", "300", "--out", o, "--json"]));
    assert_eq!(r["games"], 300);
    assert_eq!(r["losses"], 0, "{r}");
    assert!(r["wins"].as_u64().unwrap() > 200, "{r}");
    assert!(r["elo"]["value"].as_f64().unwrap_or(f64::INFINITY) > 200.0 || r["elo"]["value"] == "inf", "{r}");
    let p: u64 = r["pentanomial"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert_eq!(p, 150);
}

#[test]
fn a_match_is_the_same_for_any_thread_count_and_resumes() {
    let args = ["match", "connect4", "boltzmann:depth=2,theta=0.3,cap=100", "alphabeta:depth=2", "--games", "40"];
    let one = scratch("match-threads-1");
    let two = scratch("match-threads-2");
    let r1 = json(&xtask(&[&args[..], &["--threads", "1", "--json", "--out", one.to_str().unwrap()]].concat()));
    let r2 = json(&xtask(&[&args[..], &["--threads", "2", "--json", "--out", two.to_str().unwrap()]].concat()));
    assert_eq!(r1, r2);
    // A rerun into the same directory replays nothing and says the same.
    let r3 = json(&xtask(&[&args[..], &["--json", "--out", one.to_str().unwrap()]].concat()));
    assert_eq!(r1, r3);
    // Another seed, other games.
    let three = scratch("match-threads-3");
    let r4 = json(&xtask(&[&args[..], &["--json", "--seed", "9", "--out", three.to_str().unwrap()]].concat()));
    assert_ne!(r1["pentanomial"], r4["pentanomial"]);
}

/// `--baseline`: the baseline plays B on the same openings and seeds, so
/// its half is exactly the separate match of the baseline against B; an
/// agent compared with itself parts in no pair; and a stronger agent's
/// difference is positive with its interval above zero.
#[test]
fn a_baseline_is_played_on_the_same_games_and_compared_pair_by_pair() {
    let (opp, weak, strong) = ("boltzmann:depth=2,theta=0.5", "alphabeta:depth=1", "alphabeta:depth=3");
    let base = ["match", "tictactoe", strong, opp, "--games", "200", "--json", "--out"];
    let with = scratch("match-baseline");
    let r = json(&xtask(&[&base[..], &[with.to_str().unwrap(), "--baseline", weak]].concat()));
    let alone = scratch("match-baseline-alone");
    let w =
        json(&xtask(&["match", "tictactoe", weak, opp, "--games", "200", "--json", "--out", alone.to_str().unwrap()]));
    for key in ["wins", "draws", "losses", "pentanomial"] {
        assert_eq!(r["baseline"][key], w[key], "{key}: {r}");
    }
    let v = &r["versus_baseline"];
    assert_eq!(v["pairs"], 100);
    let diff = r["score"].as_f64().unwrap() - w["score"].as_f64().unwrap();
    assert!((v["score"]["value"].as_f64().unwrap() - diff).abs() < 1e-12, "{v}");
    assert!(v["score"]["low"].as_f64().unwrap() > 0.0 && v["elo"]["low"].as_f64().unwrap() > 0.0, "{v}");
    let same = scratch("match-baseline-same");
    let s = json(&xtask(&[&base[..], &[same.to_str().unwrap(), "--baseline", strong]].concat()));
    assert_eq!(s["versus_baseline"]["differing_pairs"], 0, "{s}");
    assert_eq!(s["versus_baseline"]["score"]["value"], 0.0, "{s}");
    // With the SPRT: a clear error.
    let out = xtask(&["match", "tictactoe", strong, opp, "--sprt", "0,10", "--baseline", weak]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let out = scratch("match-sprt");
    let r = json(&xtask(&[
        "match",
        "tictactoe",
        "alphabeta:depth=9",
        "random",
        "--games",
        "2000",
        "--sprt",
        "0,50",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(r["sprt"]["status"], "AcceptH1", "{r}");
    assert!(r["games"].as_u64().unwrap() < 2000, "{r}");
}

#[test]
fn bad_specs_and_games_are_clear_errors() {
    let cases: [(&[&str], &str); 6] = [
        (&["match", "chequers", "random", "random"], "unknown game"),
        (&["match", "tictactoe", "alphabeta", "random"], "needs depth"),
        (&["match", "tictactoe", "alphabeta:depth=2,colour=red", "random"], "unknown key"),
        (&["match", "tictactoe", "minimaxx:depth=2", "random"], "unknown agent kind"),
        (&["match", "tictactoe", "boltzmann:depth=2,theta=-1", "random"], "theta"),
        (&["calibrate", "tictactoe", "--quick", "--pairs", "0"], "--pairs"),
    ];
    for (args, needle) in cases {
        let out = xtask(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_quick_calibration_fits_a_ladder() {
    let out = scratch("calibrate-quick");
    let o = xtask(&["calibrate", "tictactoe", "--quick", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("tictactoe.json")).unwrap();
    let c: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rungs = c["rungs"].as_array().unwrap();
    let rating = |spec: &str| rungs.iter().find(|r| r["spec"] == spec).unwrap()["rating"].as_f64().unwrap();
    assert_eq!(rating("random"), 0.0);
    assert!(rating("alphabeta:depth=9") > rating("boltzmann:depth=9,cap=1,theta=0.5") + 100.0, "{text}");
}

/// `--pairs` grows a ladder in place: a rerun with more pairs into the same
/// directory plays only the cells it lacks and fits all the games.
#[test]
fn a_calibration_grows_with_more_pairs() {
    let out = scratch("calibrate-grow");
    let dir = out.to_str().unwrap();
    let run = |pairs: &str| {
        let o = xtask(&["calibrate", "tictactoe", "--quick", "--pairs", pairs, "--out", dir]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(o.status.success(), "{err}");
        let c: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("tictactoe.json")).unwrap()).unwrap();
        // "N cells to run (M in all)" of the ladder (the first such line).
        let line = err.lines().find(|l| l.contains("cells to run")).unwrap().to_string();
        (c["games"].as_u64().unwrap(), line)
    };
    let (small, first) = run("50");
    let (large, second) = run("60");
    assert_eq!(large * 50, small * 60, "{first} / {second}");
    let counts = |line: &str| -> (u64, u64) {
        let n: Vec<u64> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
        (n[n.len() - 2], n[n.len() - 1])
    };
    let (to_run, all) = counts(&second);
    assert!(to_run > 0 && to_run < all, "{second}: the first run's cells are replayed");
    assert_eq!(counts(&first).0, counts(&first).1, "{first}");
}
