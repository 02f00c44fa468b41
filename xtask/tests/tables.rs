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
    // Each side to move's own counts: with white (the rook) to move, no loss.
    let (w, b) = (&v["white_to_move"], &v["black_to_move"]);
    assert_eq!(w["losses"], 0);
    assert_eq!(b["wins"], 0);
    assert_eq!(w["positions"].as_u64().unwrap() + b["positions"].as_u64().unwrap(), 50_015);
    assert_eq!(w["wins"], v["wins"]);
    assert_eq!(std::fs::metadata(dir.join("KRK.brtb")).unwrap().len(), v["bytes"].as_u64().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    let bad = xtask(&["tablebase", "KPKP"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("pawns on both sides"));
    // An output directory that cannot be made is named.
    let file = std::env::temp_dir().join(format!("xtask-tb-file-{}", std::process::id()));
    std::fs::write(&file, "a file").unwrap();
    let bad = xtask(&["tablebase", "KQK", "--out", file.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains(file.to_str().unwrap()));
    std::fs::remove_file(&file).unwrap();
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
    // A gzip-compressed PGN file: the sample of data/human/.
    let gz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/human/lichess-db-2021-10-sample.pgn.gz");
    let from_gz = dir.join("from-gz.bin");
    let gz_args = ["book", "chess", "--from-pgn", gz.to_str().unwrap(), "--out", from_gz.to_str().unwrap()];
    let out = xtask(&[&gz_args[..], &["--max-plies", "2"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("from 999 games"));
    assert!(std::fs::metadata(&from_gz).unwrap().len() > 16);
    // Bad input: an illegal move, no plies, a book that cannot be written.
    let illegal = dir.join("illegal.pgn");
    std::fs::write(&illegal, "1. e4 e5 2. Ke3 1-0\n").unwrap();
    let out = xtask(&["book", "chess", "--from-pgn", illegal.to_str().unwrap(), "--out", from_gz.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal move Ke3"));
    let out = xtask(&[&args[..], &["--max-plies", "0"]].concat());
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-plies must be at least 1"));
    let unwritable = pgn.join("book.bin");
    let out = xtask(&["book", "chess", "--from-pgn", pgn.to_str().unwrap(), "--out", unwritable.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(unwritable.to_str().unwrap()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A connect-4 book build with a checkpoint resumes: after an interruption
/// (half the lines kept, and half a line), a rerun on two threads solves
/// only the rest and writes the same book; a malformed line is refused by
/// its number.
#[test]
fn connect4_book_resumes_from_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("xtask-c4book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (book, again, checkpoint) = (dir.join("a.c4book"), dir.join("b.c4book"), dir.join("p3.txt"));
    let build = |out: &std::path::Path, threads: &str| {
        let (out, cp) = (out.to_str().unwrap(), checkpoint.to_str().unwrap());
        let args = ["book", "connect4", "--width", "5", "--height", "4", "--plies", "3", "--table-mib", "1"];
        xtask(&[&args[..], &["--threads", threads, "--checkpoint", cp, "--out", out]].concat())
    };
    let out = build(&book, "1");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let full = std::fs::read_to_string(&checkpoint).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert!(lines.len() > 4, "{full}");
    // Interrupted: half the lines, and half of the next.
    let half = lines.len() / 2;
    let cut = format!("{}\n{}", lines[..half].join("\n"), &lines[half][..3]);
    std::fs::write(&checkpoint, cut).unwrap();
    let out = build(&again, "2");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("({half} from the checkpoint)")));
    assert_eq!(std::fs::read(&book).unwrap(), std::fs::read(&again).unwrap());
    let mut resumed: Vec<String> = std::fs::read_to_string(&checkpoint).unwrap().lines().map(String::from).collect();
    let mut first: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    resumed.sort();
    first.sort();
    assert_eq!(resumed, first, "every position solved once, no torn line");
    std::fs::write(&checkpoint, format!("{}\nnot a line\n", lines[0])).unwrap();
    let bad = build(&again, "1");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("p3.txt:2"), "{}", String::from_utf8_lossy(&bad.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
