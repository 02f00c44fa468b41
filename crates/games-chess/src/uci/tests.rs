//! The engine end to end, through [`Engine::handle_line`] and a shared
//! output buffer.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::Rng;
use search_core::Game;

use super::{
    BackupKind, Brain, Engine, FULL_WIDTH_DEPTH_CAP, Flow, Plan, Settings, StrengthSetting, elo_range, setting_at,
    uci_move,
};
use crate::ChessGame;

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

impl Buf {
    /// Everything written since the last call, as lines.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
    }
}

fn engine() -> (Engine<Buf>, Buf) {
    let out = Buf::default();
    (Engine::new(out.clone()), out)
}

/// Sends `lines`, waits for any search, and returns the replies.
fn send(e: &mut Engine<Buf>, out: &Buf, lines: &[&str]) -> Vec<String> {
    for l in lines {
        e.handle_line(l);
    }
    e.wait();
    out.take()
}

fn bestmove(replies: &[String]) -> &str {
    let last = replies.last().expect("a reply");
    last.strip_prefix("bestmove ").unwrap_or_else(|| panic!("no bestmove in {replies:?}")).split(' ').next().unwrap()
}

fn legal_uci(g: &ChessGame, mv: &str) -> bool {
    let mut moves = Vec::new();
    g.generate(&mut moves);
    moves.iter().any(|&m| uci_move(m) == mv)
}

#[test]
fn uci_handshake_lists_every_option() {
    let (mut e, out) = engine();
    let r = send(&mut e, &out, &["uci", "isready"]);
    assert_eq!(r[0], "id name kibitz");
    assert!(r[1].starts_with("id author "));
    for name in ["Hash", "Threads", "Backup", "Theta", "Seed", "Clear Hash", "Ponder", "UCI_LimitStrength", "UCI_Elo"] {
        assert!(r.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name}");
    }
    assert_eq!(r[r.len() - 2], "uciok");
    assert_eq!(r[r.len() - 1], "readyok");
}

#[test]
fn bad_positions_keep_the_previous_one() {
    let (mut e, out) = engine();
    send(&mut e, &out, &["position startpos moves e2e4"]);
    let before = e.position().fen();
    let r = send(
        &mut e,
        &out,
        &[
            "position startpos moves e2e4 e7e5 e1e3",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "position startpos moves zz99",
            "position fen",
        ],
    );
    assert_eq!(r.len(), 5, "{r:?}");
    assert!(r.iter().all(|l| l.starts_with("info string error: ")), "{r:?}");
    assert!(r[0].contains("move 3"), "{}", r[0]);
    assert_eq!(e.position().fen(), before);
    // A checkmated position accepts no move.
    let r = send(&mut e, &out, &["position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3"]);
    assert!(r[0].starts_with("info string error: "));
    assert_eq!(e.position().fen(), before);
}

#[test]
fn options_are_checked() {
    let (mut e, out) = engine();
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Threads value 65",
        "setoption name Backup value negamax",
        "setoption name Theta value -1",
        "setoption name Theta value nan",
        "setoption name Seed value -3",
        "setoption name Frobnicate value 1",
    ] {
        let r = send(&mut e, &out, &[bad]);
        assert!(r.len() == 1 && r[0].starts_with("info string error: option"), "{bad}: {r:?}");
    }
    assert_eq!(*e.settings(), Settings::default());
    let r = send(
        &mut e,
        &out,
        &[
            "setoption name hash value 4",
            "setoption name Backup value RMINIMAX",
            "setoption name Theta value inf",
            "setoption name Threads value 1",
            "setoption name Clear Hash",
            "setoption name Seed value 9",
        ],
    );
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(e.settings().hash_mib, 4);
    assert_eq!(e.settings().backup, BackupKind::Rminimax);
    assert_eq!(e.settings().theta, f64::INFINITY);
    assert_eq!(e.settings().seed, 9);
}

#[test]
fn every_backup_rule_plays_a_legal_move() {
    let (mut e, out) = engine();
    let moves = "position startpos moves e2e4 e7e5 g1f3";
    send(&mut e, &out, &[moves]);
    for kind in BackupKind::ALL {
        let r = send(&mut e, &out, &[&format!("setoption name Backup value {kind}"), "go depth 2"]);
        let mv = bestmove(&r);
        assert!(legal_uci(e.position(), mv), "{kind}: {mv} in {r:?}");
        let infos: Vec<&String> = r.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(infos.len() >= 3, "{kind}: two iterations and a final line: {r:?}");
        assert!(infos.iter().all(|l| l.contains(" nps ") && l.contains(" pv ")));
        // A score, or the rule's own value in an info string.
        let values = r.iter().filter(|l| l.starts_with("info string depth ")).count();
        assert!(infos.iter().all(|l| l.contains(" score ")) || values == infos.len(), "{kind}: {r:?}");
    }
}

#[test]
fn time_only_searches_of_slow_rules_are_capped() {
    let (mut e, out) = engine();
    let r = send(&mut e, &out, &["setoption name Backup value minimax", "go wtime 100000 btime 100000"]);
    assert!(r[0].starts_with("info string backup minimax is slow"), "{r:?}");
    let final_info = &r[r.len() - 2];
    assert!(final_info.starts_with(&format!("info depth {FULL_WIDTH_DEPTH_CAP} ")), "{r:?}");
}

#[test]
fn rminimax_sampling_is_reproducible_from_the_seed() {
    let play = |seed: u64| {
        let (mut e, out) = engine();
        send(&mut e, &out, &["setoption name Backup value rminimax", "setoption name Theta value 5"]);
        send(&mut e, &out, &[&format!("setoption name Seed value {seed}")]);
        (0..6)
            .map(|_| {
                let r = send(&mut e, &out, &["go depth 1"]);
                bestmove(&r).to_string()
            })
            .collect::<Vec<_>>()
    };
    let a = play(1);
    assert_eq!(a, play(1));
    // θ = 5 on a cost scale where 100 cp is 0.1: a nearly uniform policy,
    // so some other seed must sample differently.
    assert!((2..20).any(|s| play(s) != a));
}

#[test]
fn mates_are_reported_in_moves() {
    let (mut e, out) = engine();
    // White mates in one (Rd8#); Black to move is mated at once.
    let r = send(&mut e, &out, &["position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 3"]);
    assert!(r.iter().any(|l| l.contains("score mate 1 ")), "{r:?}");
    assert_eq!(bestmove(&r), "d1d8");
    let r = send(&mut e, &out, &["position fen 3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "go depth 3"]);
    assert!(r.iter().any(|l| l.contains("score mate 0")), "{r:?}");
    assert_eq!(r.last().unwrap(), "bestmove 0000");
    // Black's only move is Kb8, then Rh8 mates: mated in one, negative.
    let r = send(&mut e, &out, &["position fen k7/8/1K6/8/8/8/8/7R b - - 0 1", "go depth 4"]);
    assert!(r[r.len() - 2].contains("score mate -1 "), "{r:?}");
    assert_eq!(r.last().unwrap(), "bestmove a8b8 ponder h1h8");
}

#[test]
fn a_draw_by_repetition_is_still_played_on() {
    let (mut e, out) = engine();
    // The initial position for the third time: a draw nobody claimed.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    let r = send(&mut e, &out, &[&format!("position startpos moves {shuffle}"), "go depth 3"]);
    assert!(r.iter().any(|l| l.starts_with("info string the position is a draw by rule")), "{r:?}");
    assert!(legal_uci(&ChessGame::startpos(), bestmove(&r)));
    // Moves after it are accepted too.
    let r = send(&mut e, &out, &[&format!("position startpos moves {shuffle} e2e4"), "isready"]);
    assert_eq!(r, ["readyok"]);
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let (mut e, out) = engine();
    e.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    // Still searching: isready is answered meanwhile, go is refused.
    e.handle_line("isready");
    e.handle_line("go depth 1");
    assert!(e.is_searching());
    let t = Instant::now();
    e.handle_line("stop");
    assert!(t.elapsed() < Duration::from_millis(500), "{:?}", t.elapsed());
    let r = out.take();
    assert!(r.contains(&"readyok".to_string()));
    assert!(r.iter().any(|l| l.starts_with("info string error: cannot start another search")));
    assert!(legal_uci(e.position(), bestmove(&r)));
    assert!(!e.is_searching());
}

#[test]
fn ponderhit_applies_the_clock() {
    let (mut e, out) = engine();
    e.handle_line("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(50));
    e.handle_line("ponderhit");
    let t = Instant::now();
    e.wait();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(legal_uci(e.position(), bestmove(&out.take())));
}

#[test]
fn movetime_and_nodes_limits_hold() {
    let (mut e, out) = engine();
    let t = Instant::now();
    let r = send(&mut e, &out, &["go movetime 150"]);
    assert!(t.elapsed() < Duration::from_millis(400), "{:?}", t.elapsed());
    assert!(legal_uci(e.position(), bestmove(&r)));
    let r = send(&mut e, &out, &["ucinewgame", "go nodes 5000"]);
    let final_info = &r[r.len() - 2];
    let nodes: u64 = final_info.split(" nodes ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(nodes <= 5000 + 2048, "{final_info}");
}

/// Random garbage and fragments of valid commands: no panic, every reply
/// is a well-formed UCI line, and the engine still answers afterwards.
#[test]
fn garbage_never_breaks_the_engine() {
    let fragments = [
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "go",
        "depth",
        "2",
        "nodes",
        "0",
        "-1",
        "movetime",
        "10",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "ponder",
        "mate",
        "searchmoves",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "Hash",
        "Backup",
        "Theta",
        "Seed",
        "Threads",
        "Clear",
        "rminimax",
        "iom",
        "8/8/8/8/8/8/8/8",
        "w",
        "b",
        "KQkq",
        "-",
        "debug",
        "on",
        "register",
        "18446744073709551616",
        "1e9",
        "é",
        "\u{0}",
        "\t",
        "🙂",
        "rnbqkbnr/pppppppp",
        "4k3/8/8/8/8/8/4P3/4K3",
    ];
    let mut rng = search_core::rng::seeded(42);
    let (mut e, out) = engine();
    for _ in 0..1500 {
        let line = if rng.random_bool(0.3) {
            let n = rng.random_range(0..40);
            (0..n).map(|_| char::from_u32(rng.random_range(0..0x300)).unwrap_or('?')).collect::<String>()
        } else {
            let n = rng.random_range(0..9);
            (0..n).map(|_| fragments[rng.random_range(0..fragments.len())]).collect::<Vec<_>>().join(" ")
        };
        // A fragment may start a long search: stop it at once.
        if e.handle_line(&line) == Flow::Quit {
            e = Engine::new(out.clone());
        }
        e.handle_line("stop");
    }
    e.handle_line("position startpos");
    e.handle_line("isready");
    let r = out.take();
    assert_eq!(r.last().map(String::as_str), Some("readyok"));
    let prefixes = ["info ", "bestmove ", "readyok", "uciok", "id ", "option name "];
    for l in &r {
        assert!(prefixes.iter().any(|p| l.starts_with(p)), "bad reply line {l:?}");
    }
    // Still a working engine.
    let r = send(&mut e, &out, &["setoption name Backup value alphabeta", "go depth 3"]);
    assert!(legal_uci(e.position(), bestmove(&r)));
}

#[test]
fn hash_changes_resize_the_table_and_keep_the_search() {
    let (mut e, out) = engine();
    let r = send(&mut e, &out, &["setoption name Hash value 2", "go depth 2"]);
    assert_eq!(e.settings().hash_mib, 2);
    assert!(legal_uci(e.position(), bestmove(&r)), "{r:?}");
    // The full-width rules have no table: the size is only recorded, and
    // applies when the engine rule is chosen again.
    let r = send(&mut e, &out, &["setoption name Backup value minimax", "setoption name Hash value 3", "go depth 1"]);
    assert!(r.iter().all(|l| !l.starts_with("info string")), "{r:?}");
    assert_eq!(e.settings().hash_mib, 3);
    let r = send(&mut e, &out, &["setoption name Backup value alphabeta", "go depth 2"]);
    assert_eq!(*e.settings(), Settings { hash_mib: 3, ..Settings::default() });
    assert!(legal_uci(e.position(), bestmove(&r)), "{r:?}");
    // Busy: refused while searching.
    e.handle_line("go infinite");
    e.handle_line("setoption name Hash value 5");
    e.handle_line("stop");
    let r = out.take();
    assert!(r.iter().any(|l| l.starts_with("info string error: cannot change options")), "{r:?}");
    assert_eq!(e.settings().hash_mib, 3);
}

#[test]
fn later_searches_reach_the_depth_asked_despite_the_kept_table() {
    let (mut e, out) = engine();
    for moves in ["", "e2e4", "e2e4 d7d5", "e2e4 d7d5 e4d5"] {
        let r = send(&mut e, &out, &[&format!("position startpos moves {moves}"), "go depth 4"]);
        for depth in 1..=4 {
            assert!(r.iter().any(|l| l.starts_with(&format!("info depth {depth} "))), "{moves}: {r:?}");
        }
    }
}

#[test]
fn deepening_stops_on_a_forced_move_under_a_clock_and_on_a_proven_mate() {
    let (mut e, out) = engine();
    // Black's only move is Kb8: one iteration, then the answer.
    let r = send(&mut e, &out, &["position fen k7/8/1K6/8/8/8/8/7R b - - 0 1", "go btime 60000 wtime 60000"]);
    let depths: Vec<&String> = r.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(depths.len(), 2, "{r:?}");
    assert!(depths.iter().all(|l| l.starts_with("info depth 1 ")), "{r:?}");
    assert_eq!(bestmove(&r), "a8b8");
    // White mates in one: proven at depth 4 (2n + 2), long before depth 20.
    let r = send(&mut e, &out, &["position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 20"]);
    assert!(r[r.len() - 2].starts_with("info depth 4 score mate 1 "), "{r:?}");
    assert_eq!(bestmove(&r), "d1d8");
}

/// The node count of the final `info` line of a search.
fn final_nodes(replies: &[String]) -> u64 {
    let line = replies.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    line.split(" nodes ").nth(1).and_then(|t| t.split(' ').next()).and_then(|n| n.parse().ok()).expect("nodes")
}

/// Item 1 of the robustness issue: `Hash` values that cannot be a table
/// size (too large, not numbers, negative) are refused with one error line;
/// the table and the setting stay, and the engine goes on.
#[test]
fn impossible_hash_sizes_are_refused_and_the_table_kept() {
    let (mut e, out) = engine();
    send(&mut e, &out, &["setoption name Hash value 8"]);
    for value in [
        "1000000000000",
        "1e12",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "lots",
        "-1",
        "-1024",
        "0",
        "1025",
        "64.5",
        "0x40",
    ] {
        let r = send(&mut e, &out, &[&format!("setoption name Hash value {value}")]);
        assert_eq!(r.len(), 1, "{value}: {r:?}");
        assert!(r[0].starts_with("info string error: option \"Hash\": expected an integer from 1 to 1024"), "{r:?}");
        assert_eq!(e.settings().hash_mib, 8, "{value}");
    }
    let r = send(&mut e, &out, &["isready", "go depth 3"]);
    assert_eq!(r[0], "readyok");
    assert!(legal_uci(e.position(), bestmove(&r)), "{r:?}");
}

/// Item 3 of the robustness issue: every `setoption` rebuilt the search
/// and its table. Now only `Hash` reallocates and only `ucinewgame` /
/// `Clear Hash` empty it: a search after other options reuses the table
/// (far fewer nodes for the same depth).
#[test]
fn options_that_do_not_size_the_table_keep_it() {
    let (mut e, out) = engine();
    let min = elo_range().unwrap().min;
    let position = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
    let first = final_nodes(&send(&mut e, &out, &[position, "go depth 6"]));
    let r = send(
        &mut e,
        &out,
        &[
            "setoption name Seed value 5",
            "setoption name Theta value 7",
            "setoption name Threads value 1",
            "setoption name Ponder value true",
            "setoption name Hash value 16",
            "setoption name Backup value minimax",
            "setoption name Backup value iom",
            "setoption name Backup value alphabeta",
            "setoption name UCI_LimitStrength value true",
            &format!("setoption name UCI_Elo value {min}"),
            "setoption name UCI_LimitStrength value false",
        ],
    );
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(*e.settings(), Settings { seed: 5, theta: 7.0, elo: min, ..Settings::default() });
    let again = final_nodes(&send(&mut e, &out, &["go depth 6"]));
    assert!(again * 4 < first, "the table was lost: {again} nodes after options, {first} before");
    // A new game empties the table.
    let fresh = final_nodes(&send(&mut e, &out, &["ucinewgame", position, "go depth 6"]));
    assert!(fresh * 2 > first, "ucinewgame kept the table: {fresh} nodes, {first} the first time");
    // A new size is a new, empty table.
    let resized = final_nodes(&send(&mut e, &out, &["setoption name Hash value 8", "go depth 6"]));
    assert!(resized * 2 > first, "a resized table kept its entries: {resized} nodes, {first} the first time");
}

/// Polls until the running search ends by itself; stops it and fails the
/// test after `limit`.
fn finishes_within(e: &mut Engine<Buf>, limit: Duration) -> Duration {
    let t = Instant::now();
    while e.is_searching() {
        if t.elapsed() > limit {
            e.handle_line("stop");
            panic!("the search was still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    t.elapsed()
}

/// Item 4 of the robustness issue: `go` with a clock for the other side
/// only (or only an increment) used to search until `stop`; a depth beyond
/// the maximum is clamped and said.
#[test]
fn go_without_an_own_clock_still_answers() {
    let (mut e, out) = engine();
    for go in ["go btime 1000", "go btime 1000 binc 10", "go winc 50", "go movestogo 1", "go movestogo 20 binc 100000"]
    {
        e.handle_line("position startpos");
        e.handle_line(go);
        let took = finishes_within(&mut e, Duration::from_secs(5));
        let r = out.take();
        assert!(legal_uci(e.position(), bestmove(&r)), "{go}: {r:?}");
        assert!(r.iter().any(|l| l.starts_with("info string no clock for white")), "{go}: {r:?}");
        assert!(took < Duration::from_secs(3), "{go}: {took:?}");
    }
    // Black to move, only White's clock.
    e.handle_line("position startpos moves e2e4");
    e.handle_line("go wtime 500 winc 0");
    finishes_within(&mut e, Duration::from_secs(3));
    let r = out.take();
    assert!(legal_uci(e.position(), bestmove(&r)), "{r:?}");
    // Depth beyond the maximum: clamped, said, and a proven mate still ends
    // the search.
    e.handle_line("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.handle_line("go depth 1000");
    finishes_within(&mut e, Duration::from_secs(5));
    let r = out.take();
    let note =
        format!("info string depth 1000 is beyond the engine's maximum: searching to depth {}", super::MAX_DEPTH);
    assert!(r.contains(&note), "{r:?}");
    assert_eq!(bestmove(&r), "d1d8");
}

/// The `cp` value of an `info` line, if it has one.
fn cp_of(line: &str) -> Option<i64> {
    line.split(" score cp ").nth(1).and_then(|t| t.split(' ').next()).and_then(|n| n.parse().ok())
}

/// Item 5 of the robustness issue: `Backup=rminimax` reported `score cp
/// 30000` (θ = 0.1) or `3008` (θ = 1) at the initial position, EMM and
/// product propagation `1509`. Every score is now a real centipawn value
/// (small at the initial position), and a rule whose values are not
/// centipawns reports no score but its own value in an `info string`.
#[test]
fn scores_are_centipawns_or_said_to_be_something_else() {
    let (mut e, out) = engine();
    let mut runs: Vec<(String, Vec<&str>)> =
        BackupKind::ALL.iter().map(|k| (k.to_string(), vec![])).collect::<Vec<_>>();
    runs.push(("rminimax".into(), vec!["setoption name Theta value 1"]));
    runs.push(("rminimax".into(), vec!["setoption name Theta value 0.1"]));
    runs.push(("rminimax".into(), vec!["setoption name Theta value inf"]));
    for (kind, extra) in &runs {
        let mut lines = vec![format!("setoption name Backup value {kind}")];
        lines.extend(extra.iter().map(|s| s.to_string()));
        lines.push("position startpos".into());
        lines.push("go depth 3".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let r = send(&mut e, &out, &refs);
        let infos: Vec<&String> = r.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(!infos.is_empty(), "{kind} {extra:?}: {r:?}");
        let native = matches!(kind.as_str(), "emm" | "product")
            || (kind == "rminimax" && !extra.contains(&"setoption name Theta value inf"));
        for l in &infos {
            assert!(!l.contains(" score mate "), "{kind} {extra:?}: {l}");
            if native {
                assert!(!l.contains(" score "), "{kind} {extra:?}: {l}");
            } else {
                let cp = cp_of(l).unwrap_or_else(|| panic!("{kind} {extra:?}: no cp in {l}"));
                assert!(cp.abs() <= 150, "{kind} {extra:?}: {l}");
            }
        }
        let values: Vec<&String> = r.iter().filter(|l| l.starts_with("info string depth ")).collect();
        if native {
            assert_eq!(values.len(), infos.len(), "{kind} {extra:?}: {r:?}");
            assert!(
                values.iter().all(|l| l.contains(&format!("{kind} value ")) && l.ends_with("not a centipawn score"))
            );
        } else {
            assert!(values.is_empty(), "{kind} {extra:?}: {r:?}");
        }
        send(&mut e, &out, &["setoption name Theta value 30"]);
    }
}

/// Item 6 of the robustness issue: malformed FENs that `shakmaty` accepts
/// are refused, and no error message echoes a long input.
#[test]
fn lenient_fens_are_refused() {
    let (mut e, out) = engine();
    send(&mut e, &out, &["position startpos moves d2d4"]);
    let before = e.position().fen();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqq - 0 1",
        "rnbqkbnr/pppppppp/215/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1",
    ] {
        let r = send(&mut e, &out, &[&format!("position fen {fen}")]);
        assert_eq!(r.len(), 1, "{fen}: {r:?}");
        assert!(r[0].starts_with("info string error: bad FEN"), "{fen}: {r:?}");
        assert_eq!(e.position().fen(), before, "{fen}");
    }
}

/// Item 6: a 50 MB line is never echoed back, whatever the command.
#[test]
fn error_messages_quote_a_short_prefix_of_huge_lines() {
    let (mut e, out) = engine();
    // 50 MB for three commands, 2 MB for the others (the time is spent
    // splitting the line into words).
    let fifty = "x".repeat(50 << 20);
    let huge = "x".repeat(2 << 20);
    let digits = "9".repeat(2 << 20);
    let lines = [
        fifty.clone(),
        format!("position fen {fifty}"),
        format!("setoption name Backup value {fifty}"),
        huge.clone(),
        format!("go depth {digits}"),
        format!("go {huge}"),
        format!("position fen {huge}"),
        format!("position fen 8/8/8/8/8/8/8/8 w - - 0 1 {huge}"),
        format!("position startpos moves e2e4 {huge}"),
        format!("position startpos {huge}"),
        format!("setoption name {huge} value 1"),
        format!("setoption name Backup value {huge}"),
        format!("setoption name Hash value {digits}"),
        format!("setoption name Theta value {huge}"),
        format!("setoption name Ponder value {huge}"),
        format!("debug {huge}"),
        format!("isready {huge}"),
    ];
    for line in &lines {
        e.handle_line(line);
        let r = out.take();
        assert_eq!(r.len(), 1, "{}", &line[..40]);
        assert!(r[0].starts_with("info string error: "), "{}", &r[0][..r[0].len().min(200)]);
        assert!(r[0].len() < 500, "{} bytes for {}", r[0].len(), &line[..40]);
    }
    assert_eq!(send(&mut e, &out, &["isready"]), ["readyok"]);
}

/// Item 7 of the robustness issue: a move that looks like a move but is not
/// the UCI form of a legal one (SAN, the king taking its own rook, a null
/// move, a promotion without or with a wrong piece) is refused with an
/// error, and the position stays as it was.
#[test]
fn moves_must_be_legal_moves_in_uci_notation() {
    let (mut e, out) = engine();
    let castle = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves";
    let promote = "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves";
    send(&mut e, &out, &["position startpos moves e2e4"]);
    let before = e.position().fen();
    for line in [
        format!("{castle} e1h1"),
        format!("{castle} e1a1"),
        format!("{castle} e1g1 e8h8"),
        format!("{promote} a7a8"),
        format!("{promote} a7a8k"),
        format!("{promote} a7a8p"),
        "position startpos moves Nf3".to_string(),
        "position startpos moves e4".to_string(),
        "position startpos moves 0000".to_string(),
        "position startpos moves P@e4".to_string(),
        "position startpos moves e2e4q".to_string(),
        "position startpos moves E2E4".to_string(),
        "position startpos moves e2-e4".to_string(),
        "position startpos moves e7e5".to_string(),
        "position startpos moves e2e5".to_string(),
        "position startpos moves g1g3".to_string(),
        "position startpos moves e1g1".to_string(),
        "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1c1".to_string(),
    ] {
        let r = send(&mut e, &out, &[&line]);
        assert_eq!(r.len(), 1, "{line}: {r:?}");
        assert!(r[0].starts_with("info string error: move "), "{line}: {r:?}");
        assert_eq!(e.position().fen(), before, "{line}");
    }
    // The real thing is accepted, with the promotion letter in either case.
    let r = send(&mut e, &out, &[&format!("{castle} e1g1 e8c8"), &format!("{promote} a7a8Q"), "isready"]);
    assert_eq!(r, ["readyok"]);
    assert_eq!(e.position().fen(), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

/// Item 2 of the robustness issue through the engine: a threefold
/// repetition with a 20-ply cycle is a draw (the old 16-key history did not
/// see it).
#[test]
fn a_long_cycle_repeated_three_times_is_a_draw() {
    let (mut e, out) = engine();
    let cycle = "a1a2 h8g8 a2a3 g8h8 a3a4 h8g8 a4a5 g8h8 a5a6 h8g8 a6b6 g8h8 b6c6 h8g8 c6c1 g8h8 c1b1 h8g8 b1a1 g8h8";
    let twice = format!("position fen 7k/8/8/8/8/8/8/R3K3 w - - 0 1 moves {cycle}");
    let r = send(&mut e, &out, &[&twice, "go depth 2"]);
    assert!(!r.iter().any(|l| l.contains("draw by rule")), "{r:?}");
    let thrice = format!("{twice} {cycle}");
    let r = send(&mut e, &out, &[&thrice, "go depth 2"]);
    assert!(r.iter().any(|l| l.starts_with("info string the position is a draw by rule")), "{r:?}");
}

/// Item 6: a line longer than the engine reads is skipped whole (its
/// memory is not kept), with one error line, and the next line is read.
#[test]
fn overlong_lines_are_skipped() {
    let (mut e, out) = engine();
    let mut input = b"position startpos moves ".to_vec();
    input.resize(super::MAX_LINE_BYTES + 100, b'x');
    input.extend_from_slice(b"\nposition startpos moves e2e4\nisready\n");
    super::run(std::io::Cursor::new(input), &mut e).unwrap();
    let r = out.take();
    assert_eq!(r.len(), 2, "{:?}", r.iter().map(|l| &l[..l.len().min(100)]).collect::<Vec<_>>());
    assert_eq!(r[0], format!("info string error: line longer than {} bytes skipped", super::MAX_LINE_BYTES));
    assert_eq!(r[1], "readyok");
    assert_eq!(e.position().fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

/// The lines of a `go` under `UCI_LimitStrength`: the strength note, the
/// final `info depth`, `bestmove`.
fn check_limited(replies: &[String], g: &ChessGame, elo: i64) -> String {
    let (spec, setting) = setting_at(elo).unwrap();
    let note = format!("info string strength: elo {elo} -> {spec}");
    assert!(replies.contains(&note), "{note:?} missing from {replies:?}");
    let mv = bestmove(replies).to_string();
    assert!(legal_uci(g, &mv), "{mv} in {replies:?}");
    let last_info = replies.iter().rev().find(|l| l.starts_with("info depth ")).expect("an info line");
    // A `stop` may come before the setting's depth completes (on a loaded
    // machine even 30 ms is short): the engine then says so and plays the
    // best move of the last completed depth.
    let stopped =
        replies.iter().any(|l| l.starts_with("info string strength: the depth") && l.contains("did not finish"));
    let depth: u32 = last_info.split_whitespace().nth(2).and_then(|d| d.parse().ok()).expect("a depth");
    if matches!(setting, StrengthSetting::Kibitz { .. }) {
        // The engine's own setting: a node budget ends its search, at
        // whatever depth it reached.
        assert!((1..=setting.depth()).contains(&depth), "{replies:?}");
    } else if stopped {
        assert!(depth <= setting.depth(), "{replies:?}");
    } else {
        assert_eq!(depth, setting.depth(), "{replies:?}");
    }
    assert!(last_info.ends_with(&format!(" pv {mv}")) || last_info.contains(&format!(" pv {mv} ")), "{replies:?}");
    if setting.depth() > 0 {
        assert!(last_info.contains(" score "), "{replies:?}");
    }
    mv
}

#[test]
fn limited_strength_answers_every_kind_of_go() {
    let r = elo_range().unwrap();
    for elo in [r.min, (r.min + r.max) / 2, r.max] {
        let (mut e, out) = engine();
        let position = "position startpos moves e2e4 e7e5 g1f3 b8c6";
        send(
            &mut e,
            &out,
            &["setoption name UCI_LimitStrength value true", &format!("setoption name UCI_Elo value {elo}"), position],
        );
        assert!(e.settings().limit_strength && e.settings().elo == elo);
        let g = e.position().clone();
        for go in
            ["go wtime 60000 btime 60000 winc 1000 binc 1000", "go movetime 500", "go depth 12", "go nodes 10", "go"]
        {
            let replies = send(&mut e, &out, &[go]);
            check_limited(&replies, &g, elo);
        }
        // Infinite and ponder searches answer only after stop / ponderhit.
        e.handle_line("go infinite");
        std::thread::sleep(Duration::from_millis(30));
        assert!(e.is_searching(), "go infinite answered without stop");
        let replies = send(&mut e, &out, &["stop"]);
        check_limited(&replies, &g, elo);
        e.handle_line("go ponder wtime 1000 btime 1000");
        let replies = send(&mut e, &out, &["ponderhit"]);
        check_limited(&replies, &g, elo);
    }
}

#[test]
fn limited_strength_is_reproducible_and_off_means_full_strength() {
    let r = elo_range().unwrap();
    let elo = (r.min + r.max) / 2;
    let play = |seed: u64| {
        let (mut e, out) = engine();
        send(
            &mut e,
            &out,
            &[
                "setoption name UCI_LimitStrength value true",
                &format!("setoption name UCI_Elo value {elo}"),
                &format!("setoption name Seed value {seed}"),
            ],
        );
        let mut moves = Vec::new();
        for line in ["e2e4", "d2d4 g8f6", "g1f3 d7d5 c2c4", "e2e4 c7c5 g1f3 d7d6"] {
            let replies = send(&mut e, &out, &[&format!("position startpos moves {line}"), "go movetime 1000"]);
            moves.push(check_limited(&replies, e.position(), elo));
            // The same position again, and after a new game: the same move.
            let again = send(&mut e, &out, &["go depth 1"]);
            assert_eq!(bestmove(&again), moves.last().unwrap());
            let fresh = send(&mut e, &out, &["ucinewgame", &format!("position startpos moves {line}"), "go"]);
            assert_eq!(bestmove(&fresh), moves.last().unwrap());
            assert!(e.settings().limit_strength, "ucinewgame keeps the options");
        }
        moves
    };
    let a = play(3);
    assert_eq!(a, play(3));
    // Limit strength off again: the engine is the full engine.
    let (mut e, out) = engine();
    let position = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    let full = send(&mut e, &out, &[position, "go depth 4"]);
    let r2 = send(
        &mut e,
        &out,
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_LimitStrength value false",
            "ucinewgame",
            position,
            "go depth 4",
        ],
    );
    assert!(!r2.iter().any(|l| l.contains("strength")), "{r2:?}");
    assert_eq!(full.last(), r2.last());
}

#[test]
fn elo_values_out_of_range_are_clamped_and_malformed_ones_refused() {
    let r = elo_range().unwrap();
    let (mut e, out) = engine();
    // No negative Elo is advertised or played.
    assert!(r.min >= 0, "{r:?}");
    for (value, want) in [(r.max + 1, r.max), (i64::MAX, r.max), (r.min - 1, r.min), (i64::MIN, r.min)] {
        // Nothing unsolicited after `setoption`: the note comes with the
        // next search's output, before its `bestmove`.
        let replies = send(&mut e, &out, &[&format!("setoption name UCI_Elo value {value}"), "isready"]);
        assert_eq!(replies, ["readyok"]);
        assert_eq!(e.settings().elo, want);
        let replies = send(&mut e, &out, &["go depth 1"]);
        let note =
            format!("info string UCI_Elo {value} is outside the calibrated range {} to {}: using {want}", r.min, r.max);
        assert_eq!(replies[0], note, "{replies:?}");
        assert_eq!(replies.iter().filter(|l| l.contains("is outside")).count(), 1, "{replies:?}");
        assert!(replies.last().is_some_and(|l| l.starts_with("bestmove ")), "{replies:?}");
    }
    let before = *e.settings();
    for bad in [
        "setoption name UCI_Elo value",
        "setoption name UCI_Elo",
        "setoption name UCI_Elo value 1500.5",
        "setoption name UCI_Elo value 1e3",
        "setoption name UCI_Elo value 99999999999999999999999999",
        "setoption name UCI_Elo value \u{0}",
        "setoption name UCI_Elo value twelve hundred",
        "setoption name UCI_LimitStrength value 1",
        "setoption name UCI_LimitStrength",
    ] {
        let replies = send(&mut e, &out, &[bad]);
        assert!(replies.len() == 1 && replies[0].starts_with("info string error: option"), "{bad}: {replies:?}");
    }
    assert_eq!(*e.settings(), before);
    // Not while searching; a value inside the range is taken silently.
    e.handle_line("go infinite");
    let busy = send(&mut e, &out, &["setoption name UCI_Elo value 1000", "stop"]);
    assert!(busy.iter().any(|l| l.starts_with("info string error: cannot change options while searching")), "{busy:?}");
    let replies = send(
        &mut e,
        &out,
        &[&format!("setoption name uci_elo value {}", r.min), "setoption name UCI_LIMITSTRENGTH value True"],
    );
    assert!(replies.is_empty(), "{replies:?}");
    assert!(e.settings().limit_strength && e.settings().elo == r.min);
}

#[test]
fn a_stopped_strength_search_plays_the_best_move_so_far() {
    let r = elo_range().unwrap();
    let settings = Settings { limit_strength: true, elo: r.max, ..Settings::default() };
    let mut brain = Brain::new(settings).unwrap();
    // Kiwipete: a depth-3 search takes thousands of nodes, so the stop flag
    // (polled every 1024 nodes) cuts it.
    let g = ChessGame::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let d = brain.think(&g, &Plan::default(), &stop, false, |_| {});
    let mv = d.best.expect("a move");
    assert!(legal_uci(&g, &uci_move(mv)), "{d:?}");
    // (A calibration whose top searches less than depth 3 may finish first.)
    let deep = setting_at(r.max).unwrap().1.depth() >= 3;
    assert!(!deep || d.notes.iter().any(|n| n.contains("did not finish")), "{:?}", d.notes);
    // And the game's end is still the game's end.
    let mated = build(&["f2f3", "e7e5", "g2g4", "d8h4"]);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let d = brain.think(&mated, &Plan::default(), &stop, false, |_| {});
    assert_eq!(d.best, None);
}

fn build(moves: &[&str]) -> ChessGame {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    super::build_position(&super::PositionBase::Startpos, &moves).unwrap()
}

#[test]
fn human_options_are_declared_checked_and_played() {
    let (mut e, out) = engine();
    let r = send(&mut e, &out, &["uci"]);
    assert!(r.iter().any(|l| l.starts_with("option name HumanElo type spin default 0 min 0 max ")), "{r:?}");
    assert!(r.iter().any(|l| l == "option name HumanPick type combo default sample var sample var mode"), "{r:?}");
    for bad in [
        "setoption name HumanElo value x",
        "setoption name HumanElo value 1200.5",
        "setoption name HumanElo",
        "setoption name HumanPick value best",
        "setoption name HumanPick",
    ] {
        let r = send(&mut e, &out, &[bad]);
        assert!(r.len() == 1 && r[0].starts_with("info string error: option"), "{bad}: {r:?}");
    }
    assert_eq!(*e.settings(), Settings::default());
    // Like UCI_Elo, a rating outside the model's is clamped, and the note
    // comes with the next search.
    let (lo, hi) = crate::human::RATING_RANGE;
    for (value, want) in [(100, lo as u32), (99_999, hi as u32), (-5, 0)] {
        let r = send(&mut e, &out, &[&format!("setoption name HumanElo value {value}"), "isready"]);
        assert_eq!(r, ["readyok"], "{value}");
        assert_eq!(e.settings().human_elo, want);
        let r = send(&mut e, &out, &["position startpos", "go depth 1"]);
        let note = format!("info string HumanElo {value} is outside the human model's range");
        assert!(r[0].starts_with(&note) && r[0].ends_with(&format!("using {want}")), "{r:?}");
    }
    send(&mut e, &out, &["setoption name HumanElo value 0"]);
    assert_eq!(*e.settings(), Settings::default());
    let r = send(&mut e, &out, &["setoption name HumanElo value 1200", "setoption name HumanPick value MODE"]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!((e.settings().human_elo, e.settings().human_pick), (1200, crate::human::Pick::Mode));
    let r = send(&mut e, &out, &["position startpos moves e2e4 e7e5", "go movetime 50"]);
    assert!(legal_uci(e.position(), bestmove(&r)), "{r:?}");
    assert!(r.iter().any(|l| l.contains("human: playing like a Lichess player rated 1200 (pick=mode)")), "{r:?}");
    // 0 turns it off again.
    let r = send(&mut e, &out, &["setoption name HumanElo value 0"]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(e.settings().human_elo, 0);
}
