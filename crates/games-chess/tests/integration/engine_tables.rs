//! The engine with endgame tables and an opening book: it mates in exactly
//! the table's distance against the table's best defence, sees tablebase
//! draws, reports `tbhits`, and plays book moves by weight.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use games_chess::polyglot::{Book, Entry, encode_move, key};
use games_chess::tablebase::{Dtm, Generator, Table, Tablebases};
use games_chess::uci::Engine;
use games_chess::{ChessEval, ChessGame};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search, TtDepth};
use search_core::{Game, Outcome, Status};
use shakmaty::{Move, Position};

use crate::common::random_fen;

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

// ---------------------------------------------------------------------------
// KBNK and KQKR through the engine's `TablebasePath`: every move keeps the
// table's distance to mate (the winner's the shortest, the loser's the
// longest resistance), draws stay draws, and `tbhits` is reported.

/// The tables of `material` and the smaller ones it needs, generated once
/// (about 3 s each for KBNK and KQKR in the test profile).
fn generated(material: &'static str) -> &'static [Arc<Table>] {
    static KBNK: OnceLock<Vec<Arc<Table>>> = OnceLock::new();
    static KQKR: OnceLock<Vec<Arc<Table>>> = OnceLock::new();
    let (cell, needs): (_, &[&str]) = match material {
        "KBNK" => (&KBNK, &["KBK", "KNK"]),
        "KQKR" => (&KQKR, &["KQK", "KRK"]),
        _ => unreachable!("{material}"),
    };
    cell.get_or_init(|| {
        let mut g = Generator::new();
        let main = g.generate(&material.parse().unwrap(), &mut |_| {}).unwrap();
        let mut all = vec![main];
        all.extend(needs.iter().map(|m| Arc::clone(g.table(&m.parse().unwrap()).expect("generated on the way"))));
        all
    })
}

/// A temporary directory holding tables, removed when dropped.
struct TableDir(PathBuf);

impl TableDir {
    fn new(tag: &str, tables: &[Arc<Table>]) -> TableDir {
        let dir = std::env::temp_dir().join(format!("engine-tables-{tag}-{}", std::process::id()));
        for t in tables {
            t.save(&dir).unwrap();
        }
        TableDir(dir)
    }
}

impl Drop for TableDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The UCI engine with the tables of `material` loaded through
/// `TablebasePath` (from files, as a GUI would), and the same tables in
/// memory to judge its moves.
struct Kibitz {
    engine: Engine<Buf>,
    out: Buf,
    tb: Tablebases,
}

impl Kibitz {
    fn new(material: &'static str, tag: &str) -> Kibitz {
        let tables = generated(material);
        let dir = TableDir::new(tag, tables);
        let out = Buf::default();
        let mut engine = Engine::new(out.clone());
        let r = send(&mut engine, &out, &[&format!("setoption name TablebasePath value {}", dir.0.display())]);
        assert!(
            r.iter()
                .any(|l| l.starts_with("info string tablebases ") && l.contains(material) && l.contains("alphabeta")),
            "{r:?}"
        );
        let mut tb = Tablebases::new();
        for t in tables {
            tb.insert(Arc::clone(t));
        }
        Kibitz { engine, out, tb }
    }

    /// The table's value of `g` (a lone pair of kings is a draw).
    fn value(&self, g: &ChessGame) -> Dtm {
        if g.position().board().occupied().count() == 2 {
            return Dtm::Draw;
        }
        self.tb.probe(g.position()).unwrap_or_else(|| panic!("{} is not in the tables", g.fen()))
    }

    /// The engine's move after `moves` from `fen` (`go depth 6`), checked:
    /// `tbhits` reported and positive, the score the table's (mate in the
    /// table's moves, 0 for a draw), and the move keeping the table's value
    /// (a win `d` plies away moves to a loss in `d − 1`, a loss in `d` to a
    /// win in `d − 1`, a draw to a draw).
    fn play(&mut self, fen: &str, moves: &[String], g: &ChessGame) -> Move {
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        let r = send(&mut self.engine, &self.out, &[&position, "go depth 6"]);
        let at = format!("{fen} after {moves:?} ({})", g.fen());
        let info = r.iter().rev().find(|l| l.starts_with("info depth")).unwrap_or_else(|| panic!("{at}: {r:?}"));
        let hits: u64 = info
            .split_whitespace()
            .skip_while(|w| *w != "tbhits")
            .nth(1)
            .unwrap_or_else(|| panic!("{at}: no tbhits in {info}"))
            .parse()
            .unwrap();
        assert!(hits > 0, "{at}: {info}");
        let before = self.value(g);
        let score = match before.mate_moves() {
            Some(n) => format!(" score mate {n} "),
            None => " score cp 0 ".to_string(),
        };
        assert!(info.contains(&score), "{at}: the table says {before:?}, the engine {info}");
        let best = r.last().unwrap().strip_prefix("bestmove ").unwrap_or_else(|| panic!("{at}: {r:?}"));
        let best = best.split_whitespace().next().unwrap();
        let mv = g.parse_move(best).unwrap_or_else(|e| panic!("{at}: bestmove {best}: {e}"));
        let mut child = g.clone();
        child.play(mv);
        let after = self.value(&child);
        let expected = match before {
            Dtm::Win(d) => Dtm::Loss(d - 1),
            Dtm::Loss(d) => Dtm::Win(d - 1),
            Dtm::Draw => Dtm::Draw,
        };
        assert_eq!(after, expected, "{at}: {best} turns {before:?} into {after:?} for the other side");
        mv
    }

    /// Plays from `fen` with the engine on both sides, every move checked
    /// by [`play`](Kibitz::play), until the game is over or after `max`
    /// plies. Returns the plies played and how the game ended.
    fn play_out(&mut self, fen: &str, max: usize) -> (usize, Option<Outcome>) {
        let mut g = ChessGame::from_fen(fen).unwrap();
        let mut moves = Vec::new();
        while moves.len() < max {
            let mv = self.play(fen, &moves, &g);
            moves.push(games_chess::uci::uci_move(mv));
            g.play(mv);
            let mut legal = Vec::new();
            if let Status::Over(o) = g.generate(&mut legal) {
                return (moves.len(), Some(o));
            }
        }
        (moves.len(), None)
    }

    /// Plays out a won or lost position to the end: the game must end in
    /// checkmate after exactly the table's number of plies.
    fn mate_in_table_distance(&mut self, fen: &str) {
        let plies = match self.value(&ChessGame::from_fen(fen).unwrap()) {
            Dtm::Win(p) | Dtm::Loss(p) => p as usize,
            Dtm::Draw => panic!("{fen} is a draw"),
        };
        let (played, end) = self.play_out(fen, plies + 10);
        assert!(matches!(end, Some(Outcome::Win(_))), "{fen}: the game ended {end:?} after {played} plies");
        assert_eq!(played, plies, "{fen}: mated after {played} plies, the table says {plies}");
    }
}

/// `n` random positions of `letters` (upper case white) that the table
/// values `want`, either side to move, drawn from `seed`.
fn sample(tb: &Tablebases, seed: u64, letters: &str, n: usize, want: fn(Dtm) -> bool) -> Vec<String> {
    let mut rng = search_core::rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let fen = random_fen(&mut rng, letters);
        let Ok(g) = ChessGame::from_fen(&fen) else { continue };
        let mut legal = Vec::new();
        if matches!(g.generate(&mut legal), Status::Over(_)) {
            continue;
        }
        if tb.probe(g.position()).is_some_and(want) {
            out.push(fen);
        }
    }
    out
}

#[test]
fn kbnk_the_engine_mates_in_the_table_distance_with_both_sides_best() {
    let mut k = Kibitz::new("KBNK", "kbnk-long");
    // The longest KBNK mate: 33 moves (65 plies) with white to move.
    let longest = "8/8/7N/8/8/8/8/K1k1B3 w - - 0 1";
    assert_eq!(k.value(&ChessGame::from_fen(longest).unwrap()), Dtm::Win(65));
    k.mate_in_table_distance(longest);
    // A sampled position with the defender to move, played out too.
    let lost = sample(&k.tb, 21, "KBNk", 1, |v| matches!(v, Dtm::Loss(d) if d >= 30));
    k.mate_in_table_distance(&lost[0]);
}

#[test]
fn kbnk_every_engine_move_keeps_the_table_value() {
    let mut k = Kibitz::new("KBNK", "kbnk-sample");
    let mut fens = Vec::new();
    for (fen, value) in [
        ("8/8/8/8/8/8/8/K1kB3N w - - 0 1", Dtm::Win(63)),  // mate in 32
        ("7k/4N3/6K1/2B5/8/8/8/8 w - - 0 1", Dtm::Win(1)), // Bd4#
    ] {
        assert_eq!(k.value(&ChessGame::from_fen(fen).unwrap()), value, "{fen}");
        fens.push(fen.to_string());
    }
    // Sampled: wins and losses of either side to move, and draws (a minor
    // piece hanging) the engine must not turn into losses.
    fens.extend(sample(&k.tb, 3, "KBNk", 8, |v| v != Dtm::Draw));
    fens.extend(sample(&k.tb, 4, "KBNk", 4, |v| v == Dtm::Draw));
    for fen in &fens {
        let g = ChessGame::from_fen(fen).unwrap();
        k.play(fen, &[], &g);
    }
    // A few moves on from each won or lost one, both sides by the engine.
    for fen in &fens[..6] {
        k.play_out(fen, 6);
    }
}

#[test]
fn kqkr_the_engine_mates_in_the_table_distance_with_both_sides_best() {
    let mut k = Kibitz::new("KQKR", "kqkr-long");
    // The longest KQKR mate: 35 moves (69 plies), queen to move.
    let longest = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1";
    assert_eq!(k.value(&ChessGame::from_fen(longest).unwrap()), Dtm::Win(69));
    k.mate_in_table_distance(longest);
    // The rook wins: with the rook to move (a skewer, then the rook mates
    // in 19 moves), and with the queen to move and lost in 18.
    let rook_wins = "8/8/8/8/8/1r6/6Q1/k1K5 b - - 0 1";
    assert_eq!(k.value(&ChessGame::from_fen(rook_wins).unwrap()), Dtm::Win(37));
    k.mate_in_table_distance(rook_wins);
    let queen_loses = "8/8/8/8/8/8/6Q1/krK5 w - - 0 1";
    assert_eq!(k.value(&ChessGame::from_fen(queen_loses).unwrap()), Dtm::Loss(36));
    k.mate_in_table_distance(queen_loses);
}

#[test]
fn kqkr_the_engine_never_turns_a_table_draw_into_a_loss() {
    let mut k = Kibitz::new("KQKR", "kqkr-draws");
    // Draws with either side to move: the rook side's king stalemated
    // after Rxe2, and the queen side's king under the rook's checks.
    let mut draws = vec!["8/8/8/4r3/8/8/4Q3/K1k5 b - - 0 1".to_string(), "8/8/8/r7/8/8/5Q2/K6k w - - 0 1".to_string()];
    draws.extend(sample(&k.tb, 5, "KQkr", 6, |v| v == Dtm::Draw));
    let (mut white, mut black) = (0, 0);
    for fen in &draws {
        let g = ChessGame::from_fen(fen).unwrap();
        assert_eq!(k.value(&g), Dtm::Draw, "{fen}");
        if fen.contains(" w ") {
            white += 1
        } else {
            black += 1
        }
        // Both sides by the engine: every move keeps the draw, and the
        // game ends drawn (repetition) or goes on drawn.
        let (played, end) = k.play_out(fen, 16);
        assert!(matches!(end, None | Some(Outcome::Draw)), "{fen}: {end:?} after {played} plies");
    }
    assert!(white > 0 && black > 0, "draws with each side to move");
    // Sampled won and lost positions, either side to move, one move each.
    for fen in sample(&k.tb, 6, "KQkr", 10, |v| v != Dtm::Draw) {
        let g = ChessGame::from_fen(&fen).unwrap();
        k.play(&fen, &[], &g);
    }
}
