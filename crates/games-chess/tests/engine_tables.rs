//! The engine with endgame tables and an opening book: it mates in exactly
//! the table's distance against the table's best defence, sees tablebase
//! draws, reports `tbhits`, and plays book moves by weight.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use games_chess::polyglot::{Book, Entry, encode_move, key};
use games_chess::tablebase::{Dtm, Generator, Tablebases};
use games_chess::uci::Engine;
use games_chess::{ChessEval, ChessGame};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search, TtDepth};
use search_core::{Game, Outcome, Status};
use shakmaty::Move;

/// KQK, KRK and KPK (with the tables they need) in a temporary directory.
fn tables() -> &'static (Arc<Tablebases>, PathBuf) {
    static TB: OnceLock<(Arc<Tablebases>, PathBuf)> = OnceLock::new();
    TB.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("engine-tables-{}", std::process::id()));
        let mut g = Generator::new();
        let mut tb = Tablebases::new();
        for m in ["KQK", "KRK", "KPK", "KBK", "KNK"] {
            let t = g.generate(&m.parse().unwrap(), &mut |_| {}).unwrap();
            t.save(&dir).unwrap();
            tb.insert(t);
        }
        (Arc::new(tb), dir)
    })
}

/// The engine's search (alpha-beta with its options) probing the tables.
fn search() -> Search<ChessGame, Minimax, ChessEval> {
    let options = Options::default().with_table_mib(4).with_tt_depth(TtDepth::AtLeast);
    let oracle = Arc::clone(&tables().0) as Arc<dyn search_core::search::Oracle<ChessGame>>;
    Search::new(Minimax, ChessEval, options).unwrap().with_oracle(oracle).unwrap()
}

/// The defence the table calls best: the move after which the attacker's
/// mate is furthest away.
fn best_defence(tb: &Tablebases, g: &ChessGame) -> Move {
    let mut moves = Vec::new();
    g.generate(&mut moves);
    *moves
        .iter()
        .max_by_key(|&&m| {
            let mut c = g.clone();
            c.play(m);
            match tb.probe(c.position()) {
                Some(Dtm::Win(k)) => k as i64,
                _ => i64::MAX, // a draw or better: the best defence of all
            }
        })
        .unwrap()
}

#[test]
fn the_engine_mates_in_exactly_the_table_distance() {
    let tb = &tables().0;
    for fen in [
        "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",   // queen
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",  // rook
        "8/8/3k4/8/8/8/8/K6R w - - 0 1",   // rook, far
        "8/8/2k5/8/8/4K3/4P3/8 w - - 0 1", // pawn: promote, then mate
    ] {
        let mut g = ChessGame::from_fen(fen).unwrap();
        let Some(Dtm::Win(plies)) = tb.probe(g.position()) else { panic!("{fen} is not a win") };
        let mut s = search();
        let mut white_moves = 0;
        loop {
            let r = s.run(&g, &Limits::depth(3)).unwrap();
            assert!(r.stats.tb_hits > 0, "{fen}");
            g.play(r.best.unwrap());
            white_moves += 1;
            let mut moves = Vec::new();
            if let Status::Over(o) = g.generate(&mut moves) {
                assert!(matches!(o, Outcome::Win(_)), "{fen}: the game ended {o:?}, not in mate");
                break;
            }
            assert!(white_moves <= 100, "{fen}: no mate");
            let reply = best_defence(tb, &g);
            g.play(reply);
        }
        assert_eq!(white_moves, plies.div_ceil(2), "{fen}: mate in {white_moves}, the table says {plies} plies");
    }
}

#[test]
fn tablebase_draws_are_seen() {
    let mut s = search();
    // The rook pawn with the defending king in the corner: a draw the
    // evaluator alone would count as a pawn up.
    let g = ChessGame::from_fen("k7/8/K7/P7/8/8/8/8 w - - 0 1").unwrap();
    let r = s.run(&g, &Limits::depth(6)).unwrap();
    assert_eq!(r.value, Some(0.0));
    let plain = Search::new(Minimax, ChessEval, Options::default()).unwrap().run(&g, &Limits::depth(6)).unwrap();
    assert!(plain.value.unwrap() > 50.0, "without tables: {:?}", plain.value);
}

/// An output buffer shared with the engine.
#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn send(e: &mut Engine<Buf>, out: &Buf, lines: &[&str]) -> Vec<String> {
    for l in lines {
        e.handle_line(l);
    }
    e.wait();
    let bytes = std::mem::take(&mut *out.0.lock().unwrap());
    String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn uci_tablebase_path_reports_tbhits_and_the_mate() {
    let (_, dir) = tables();
    let out = Buf::default();
    let mut e = Engine::new(out.clone());
    let r = send(&mut e, &out, &[&format!("setoption name TablebasePath value {}", dir.display())]);
    assert!(r.iter().any(|l| l.starts_with("info string tablebases ") && l.contains("KQK")), "{r:?}");
    // Mate in 1 with the rook, found at depth 1 by the table's values.
    let r = send(&mut e, &out, &["position fen 8/8/8/8/8/3k4/8/1R1K4 w - - 0 1", "go depth 4"]);
    let info = r.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert!(info.contains(" tbhits "), "{info}");
    let tb = &tables().0;
    let expected = tb.probe(ChessGame::from_fen("8/8/8/8/8/3k4/8/1R1K4 w - - 0 1").unwrap().position()).unwrap();
    assert!(info.contains(&format!("score mate {}", expected.mate_moves().unwrap())), "{info} vs {expected:?}");
    // A draw is a draw.
    let r = send(&mut e, &out, &["position fen k7/8/K7/P7/8/8/8/8 w - - 0 1", "go depth 5"]);
    let info = r.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert!(info.contains("score cp 0"), "{info}");
    // Bad directories are refused; an empty value turns the tables off.
    let r = send(&mut e, &out, &["setoption name TablebasePath value /nonexistent/dir"]);
    assert!(r.iter().any(|l| l.contains("error")), "{r:?}");
    let r = send(&mut e, &out, &["setoption name TablebasePath value <empty>"]);
    assert!(r.iter().any(|l| l == "info string tablebases off"), "{r:?}");
}

#[test]
fn uci_book_moves_follow_the_weights() {
    let g = ChessGame::startpos();
    let mv = |s: &str| encode_move(&g.parse_move(s).unwrap());
    let k = key(g.position());
    let book = Book::from_entries(vec![
        Entry { key: k, mv: mv("e2e4"), weight: 9, learn: 0 },
        Entry { key: k, mv: mv("d2d4"), weight: 1, learn: 0 },
    ]);
    let path = std::env::temp_dir().join(format!("engine-book-{}.bin", std::process::id()));
    let mut bytes = Vec::new();
    book.write_to(&mut bytes).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let out = Buf::default();
    let mut e = Engine::new(out.clone());
    send(&mut e, &out, &[&format!("setoption name BookFile value {}", path.display())]);
    // Off by default: the engine searches.
    let r = send(&mut e, &out, &["position startpos", "go depth 1"]);
    assert!(!r.iter().any(|l| l.contains("book move")), "{r:?}");
    send(&mut e, &out, &["setoption name OwnBook value true"]);
    let mut e4 = 0;
    for _ in 0..50 {
        let r = send(&mut e, &out, &["position startpos", "go depth 8"]);
        let note = r.iter().find(|l| l.starts_with("info string book move ")).expect("a book move");
        let best = r.last().unwrap();
        if best == "bestmove e2e4" {
            e4 += 1;
            assert!(note.contains("e2e4 (weight 9 of 10)"), "{note}");
        } else {
            assert_eq!(best, "bestmove d2d4");
        }
    }
    assert!((35..50).contains(&e4), "e4 {e4} times of 50");
    // Out of the book: a search.
    let r = send(&mut e, &out, &["position startpos moves a2a3", "go depth 1"]);
    assert!(!r.iter().any(|l| l.contains("book move")), "{r:?}");
    // A file that is not a book.
    std::fs::write(&path, b"short").unwrap();
    let r = send(&mut e, &out, &[&format!("setoption name BookFile value {}", path.display())]);
    assert!(r.iter().any(|l| l.contains("not a Polyglot book")), "{r:?}");
    std::fs::remove_file(&path).unwrap();
}
