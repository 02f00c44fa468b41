//! `cargo xtask nash` through the binary: the JSON report of a shipped
//! example, every method on matching pennies, and errors (a malformed file
//! with its position, a three-player game, a missing file) without panics.

mod common;

use std::path::PathBuf;

use serde_json::{Value, json};

use common::{error, file, json, xtask};

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../crates/equilibria/examples").join(name);
    path.to_str().unwrap().to_string()
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
    let bad = file("nash", "bad.nfg", "NFG 1 R \"t\" { \"A\" \"B\" } { 2 2 }\n1 2 3 4\n5 x 7 8\n");
    let stderr = error(&xtask(&["nash", &bad]));
    assert!(stderr.contains("line 3, column 3: \"x\" is not a number"), "{stderr}");
    let three = file("nash", "three.nfg", "NFG 1 R \"t\" { \"A\" \"B\" \"C\" } { 1 1 1 } 1 2 3");
    assert!(error(&xtask(&["nash", &three])).contains("only two-player games"));
    assert!(error(&xtask(&["nash", "/no/such/file.nfg"])).contains("cannot read"));
    let pd = example("prisoners_dilemma.nfg");
    assert!(error(&xtask(&["nash", &pd, "--method", "lp"])).contains("not zero-sum"));
    assert!(
        error(&xtask(&["nash", &pd, "--method", "lemke-howson", "--label", "4"])).contains("label 4 does not exist")
    );
}
