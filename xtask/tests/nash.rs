//! `cargo xtask nash` through the binary: the JSON report of a shipped
//! example, every method on matching pennies, and errors (a malformed file
//! with its position, a three-player game, a missing file) without panics.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../crates/equilibria/examples").join(name);
    path.to_str().unwrap().to_string()
}

/// Writes `text` into the test's scratch directory.
fn file(name: &str, text: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nash");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// An error: exit status 1, no panic, the message on standard error.
fn error(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn battle_of_the_sexes_as_json() {
    let doc = json(&xtask(&["nash", &example("battle_of_the_sexes.nfg"), "--json"]));
    assert_eq!(doc["method"], "support");
    assert_eq!(doc["degenerate"], false);
    let strategies: Vec<&Value> = doc["equilibria"].as_array().unwrap().iter().map(|e| &e["strategies"]).collect();
    assert_eq!(strategies.len(), 3);
    assert_eq!(*strategies[0], json!([[1.0, 0.0], [1.0, 0.0]]));
    assert_eq!(*strategies[1], json!([[0.0, 1.0], [0.0, 1.0]]));
    let mixed = &doc["equilibria"][2];
    assert_eq!(mixed["exact"]["strategies"], json!([["2/3", "1/3"], ["1/3", "2/3"]]));
    assert_eq!(mixed["exact"]["payoffs"], json!(["2/3", "2/3"]));
    let p = mixed["strategies"][0][0].as_f64().unwrap();
    assert!((p - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(doc["equilibria"][0]["payoffs"], json!([2.0, 1.0]));
}

#[test]
fn every_method_on_matching_pennies() {
    for (method, name) in
        [("auto", "lp+support"), ("lp", "lp"), ("support", "support"), ("lemke-howson", "lemke-howson")]
    {
        let doc = json(&xtask(&["nash", &example("matching_pennies.nfg"), "--json", "--method", method]));
        assert_eq!(doc["method"], name);
        assert_eq!(
            doc["equilibria"],
            json!([{
                "strategies": [[0.5, 0.5], [0.5, 0.5]],
                "payoffs": [0.0, 0.0],
                "exact": {"strategies": [["1/2", "1/2"], ["1/2", "1/2"]], "payoffs": ["0", "0"]},
            }])
        );
    }
    let text = xtask(&["nash", &example("prisoners_dilemma.nfg")]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("1 equilibrium found"), "{stdout}");
    assert!(stdout.contains("Prisoner 1: Deny with 0, Confess with 1"), "{stdout}");
}

#[test]
fn errors_are_reported_not_panicked() {
    let bad = file("bad.nfg", "NFG 1 R \"t\" { \"A\" \"B\" } { 2 2 }\n1 2 3 4\n5 x 7 8\n");
    let stderr = error(&xtask(&["nash", &bad]));
    assert!(stderr.contains("line 3, column 3: \"x\" is not a number"), "{stderr}");
    let three = file("three.nfg", "NFG 1 R \"t\" { \"A\" \"B\" \"C\" } { 1 1 1 } 1 2 3");
    assert!(error(&xtask(&["nash", &three])).contains("only two-player games"));
    assert!(error(&xtask(&["nash", "/no/such/file.nfg"])).contains("cannot read"));
    let pd = example("prisoners_dilemma.nfg");
    assert!(error(&xtask(&["nash", &pd, "--method", "lp"])).contains("not zero-sum"));
    assert!(
        error(&xtask(&["nash", &pd, "--method", "lemke-howson", "--label", "4"])).contains("label 4 does not exist")
    );
}
