//! `cargo xtask tablebase` and `cargo xtask book` from the command line.

use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

#[test]
fn tablebase_json_reports_the_counts_and_writes_the_file() {
    let dir = std::env::temp_dir().join(format!("xtask-tb-{}", std::process::id()));
    let out = xtask(&["tablebase", "KRK", "--out", dir.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["longest_mate"], 16);
    assert_eq!(v["positions"], 50_015);
    let sum = v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(sum, 50_015);
    assert_eq!(std::fs::metadata(dir.join("KRK.brtb")).unwrap().len(), v["bytes"].as_u64().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    let bad = xtask(&["tablebase", "KPKP"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("pawns on both sides"));
}

#[test]
fn book_is_made_from_pgn_and_other_games_are_refused() {
    let dir = std::env::temp_dir().join(format!("xtask-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 1-0\n\n1. d4 d5 1/2-1/2\n").unwrap();
    let book = dir.join("book.bin");
    let args = ["book", "chess", "--from-pgn", pgn.to_str().unwrap(), "--out", book.to_str().unwrap()];
    let out = xtask(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::metadata(&book).unwrap().len(), 5 * 16);
    // A connect-4 book is solved, not learned from games; gobang has none.
    let out = xtask(&["book", "connect4", "--from-pgn", pgn.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from-pgn is for chess"));
    let out = xtask(&["book", "gobang"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game"));
    std::fs::remove_dir_all(&dir).unwrap();
}
