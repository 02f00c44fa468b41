//! Property tests of the UCI engine: move strings, single command lines
//! (random, or mutated from real GUI traffic) and random sequences of
//! commands fed to the engine.
//!
//! The sequence property: no panic, no hang (each case runs under a
//! watchdog; every `go` is bounded or ended by the final `stop`), a
//! `bestmove` for every `go` the engine accepted, and every `bestmove` (and
//! `ponder` move) legal in the position the `go` searched.
//!
//! 64 to 256 cases per property by default; `PROPTEST_CASES=N` for more.

use std::io::Write;
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use games_chess::shakmaty::{CastlingMode, Position};
use games_chess::uci::{Command, Engine, Flow, PositionBase, build_position, parse_command};
use games_chess::{ChessGame, Rules};
use proptest::prelude::*;
use search_core::Game;

fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// The engine's output, handed out in whole lines only (a line may be
/// written in several pieces while the test reads).
#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Out {
    /// The complete lines written since the last call.
    fn take(&self) -> Vec<String> {
        let mut buf = self.0.lock().unwrap();
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else { return Vec::new() };
        let rest = buf.split_off(end + 1);
        let done = std::mem::replace(&mut *buf, rest);
        String::from_utf8(done).expect("UTF-8 output").lines().map(str::to_string).collect()
    }
}

fn uci(mv: games_chess::shakmaty::Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

fn legal_ucis(g: &ChessGame) -> Vec<String> {
    g.position().legal_moves().iter().map(|&m| uci(m)).collect()
}

/// Reply lines the engine may print.
fn well_formed(line: &str) -> bool {
    ["info ", "bestmove ", "id name ", "id author ", "option name "].iter().any(|p| line.starts_with(p))
        || matches!(line, "readyok" | "uciok")
}

/// Positions reached by real openings, for move strings and `position`
/// commands.
const LINES: &[&str] = &[
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5",
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 c7c6 g1f3 g8f6",
    "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
];

const FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "k7/8/1K6/8/8/8/8/7R b - - 0 1",
];

/// A `position` command from the openings and FENs above, with a prefix of
/// the line's moves.
fn position_command() -> impl Strategy<Value = String> {
    prop_oneof![
        (prop::sample::select(LINES), 0usize..17).prop_map(|(line, n)| {
            let moves: Vec<&str> = line.split(' ').take(n).collect();
            if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            }
        }),
        prop::sample::select(FENS).prop_map(|fen| format!("position fen {fen}")),
        Just("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8q e8d7".to_string()),
    ]
}

/// A well-formed command with small limits (a GUI's traffic).
fn valid_command() -> impl Strategy<Value = String> {
    let kinds =
        prop::sample::select(vec!["alphabeta", "minimax", "iom", "emm", "rminimax", "predictive", "product", "mn"]);
    prop_oneof![
        Just("isready".to_string()),
        Just("uci".to_string()),
        Just("ucinewgame".to_string()),
        Just("stop".to_string()),
        Just("ponderhit".to_string()),
        Just("debug on".to_string()),
        Just("debug off".to_string()),
        position_command(),
        position_command(),
        (1u32..4).prop_map(|d| format!("go depth {d}")),
        (1u64..30).prop_map(|t| format!("go movetime {t}")),
        (1u64..4000).prop_map(|n| format!("go nodes {n}")),
        (0u64..600, 0u64..600, 0u64..50).prop_map(|(w, b, i)| format!("go wtime {w} btime {b} winc {i} binc {i}")),
        (0u64..400).prop_map(|b| format!("go btime {b}")),
        (0u64..400).prop_map(|w| format!("go wtime {w} movestogo 1")),
        Just("go infinite".to_string()),
        Just("go".to_string()),
        Just("go ponder wtime 300 btime 300".to_string()),
        (1u32..3).prop_map(|m| format!("go mate {m}")),
        Just("go depth 1000".to_string()),
        Just("go searchmoves e2e4 d2d4 depth 2".to_string()),
        (1usize..24).prop_map(|h| format!("setoption name Hash value {h}")),
        kinds.prop_map(|k| format!("setoption name Backup value {k}")),
        (0.05f64..100.0).prop_map(|t| format!("setoption name Theta value {t}")),
        (0u64..100).prop_map(|s| format!("setoption name Seed value {s}")),
        Just("setoption name Clear Hash".to_string()),
        Just("setoption name Threads value 1".to_string()),
        Just("setoption name Ponder value true".to_string()),
        Just("setoption name Hash value 18446744073709551615".to_string()),
    ]
}

/// One edit of a line: a character replaced, inserted or deleted, a word
/// dropped, doubled or replaced by a number.
fn mutate(line: String, kind: u8, at: usize, c: char, n: i64) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    let len = chars.len().max(1);
    let w = words.len().max(1);
    match kind % 6 {
        0 if !chars.is_empty() => chars[at % len] = c,
        1 => chars.insert(at % (chars.len() + 1), c),
        2 if !chars.is_empty() => {
            chars.remove(at % len);
        }
        3 => {
            words.remove(at % w);
            return words.join(" ");
        }
        4 => {
            let word = words[at % w].clone();
            words.insert(at % w, word);
            return words.join(" ");
        }
        5 => {
            words[at % w] = n.to_string();
            return words.join(" ");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

fn mutated_command() -> impl Strategy<Value = String> {
    (valid_command(), any::<u8>(), any::<usize>(), prop::char::any(), any::<i64>())
        .prop_map(|(line, kind, at, c, n)| mutate(line, kind, at, c, n))
}

/// Random bytes made into a line (invalid UTF-8 replaced, as the engine's
/// reader does).
fn garbage() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..60).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ".{0,60}",
        "[a-z ]{0,40}",
    ]
}

fn any_command() -> impl Strategy<Value = String> {
    prop_oneof![5 => valid_command(), 3 => mutated_command(), 1 => garbage()]
}

/// Feeds `lines` to a new engine, then `stop`, and checks the replies.
/// Returns an error message instead of panicking, so that the watchdog
/// thread can report it.
fn run_session(lines: Vec<String>) -> Result<(), String> {
    let out = Out::default();
    let mut e = Engine::new(out.clone());
    let mut replies: Vec<String> = Vec::new();
    // The position each accepted `go` searched, in order.
    let mut searched: Vec<ChessGame> = Vec::new();
    for line in &lines {
        // Leave `quit` to the end.
        if line.split_whitespace().next() == Some("quit") {
            continue;
        }
        let is_go = matches!(parse_command(line), Ok(Some(Command::Go(_))));
        let position = e.position().clone();
        if e.handle_line(line) == Flow::Quit {
            return Err(format!("{line:?} quit the engine"));
        }
        let new = out.take();
        if is_go && !new.iter().any(|l| l.starts_with("info string error: ")) {
            searched.push(position);
        }
        replies.extend(new);
    }
    e.handle_line("stop");
    e.wait();
    e.handle_line("isready");
    replies.extend(out.take());
    if replies.last().map(String::as_str) != Some("readyok") {
        return Err(format!("no readyok at the end: {:?}", replies.last()));
    }
    if let Some(bad) = replies.iter().find(|l| !well_formed(l)) {
        return Err(format!("malformed reply {bad:?}"));
    }
    let best: Vec<&String> = replies.iter().filter(|l| l.starts_with("bestmove ")).collect();
    if best.len() != searched.len() {
        return Err(format!("{} bestmove lines for {} accepted go commands: {replies:?}", best.len(), searched.len()));
    }
    for (line, position) in best.iter().zip(&searched) {
        let words: Vec<&str> = line.split(' ').collect();
        let legal = legal_ucis(position);
        let ok = match words.as_slice() {
            ["bestmove", "0000"] => legal.is_empty(),
            ["bestmove", mv] => legal.iter().any(|m| m == mv),
            ["bestmove", mv, "ponder", reply] => {
                legal.iter().any(|m| m == mv) && {
                    // On the board alone: the GUI may play on after a
                    // draw by rule.
                    let mut after = ChessGame::from_position(position.position().clone()).with_rules(Rules::PERFT);
                    after.play_str(mv).is_ok() && legal_ucis(&after).iter().any(|m| m == reply)
                }
            }
            _ => false,
        };
        if !ok {
            return Err(format!("{line:?} is not legal in {}", position.fen()));
        }
    }
    // Still a working engine.
    e.handle_line("position startpos");
    e.handle_line("setoption name Backup value alphabeta");
    e.handle_line("go depth 2");
    e.wait();
    let r = out.take();
    match r.last().and_then(|l| l.strip_prefix("bestmove ")) {
        Some(mv) if legal_ucis(&ChessGame::startpos()).iter().any(|m| mv.starts_with(m.as_str())) => Ok(()),
        _ => Err(format!("no legal bestmove after the session: {r:?}")),
    }
}

/// Runs `session` on its own thread and fails if it takes longer than
/// `limit` (a hang: the engine never answered).
fn with_watchdog(limit: Duration, lines: Vec<String>) -> Result<(), TestCaseError> {
    let (tx, rx) = channel();
    let shown = lines.clone();
    std::thread::spawn(move || {
        let _ = tx.send(run_session(lines));
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(TestCaseError::fail(format!("{e}\nsession: {shown:?}"))),
        Err(_) => Err(TestCaseError::fail(format!("no answer within {limit:?} (a hang)\nsession: {shown:?}"))),
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Move strings in `position … moves`: accepted exactly when they are
    /// the UCI form of a legal move (promotion letter in either case).
    #[test]
    fn move_strings_are_accepted_exactly_when_legal(
        line in prop::sample::select(LINES),
        plies in 0usize..17,
        text in prop_oneof![
            "[a-h][1-8][a-h][1-8][nbrqkpNBRQKP]?",
            "[a-hA-H0-9@=+#xO\\-]{0,7}",
            ".{0,8}",
        ],
    ) {
        let mut moves: Vec<String> = line.split(' ').take(plies).map(str::to_string).collect();
        let before = build_position(&PositionBase::Startpos, &moves).unwrap();
        let legal = legal_ucis(&before);
        let normal = if text.len() == 5 && text.is_ascii() {
            format!("{}{}", &text[..4], text[4..].to_ascii_lowercase())
        } else {
            text.clone()
        };
        moves.push(text.clone());
        match build_position(&PositionBase::Startpos, &moves) {
            Ok(after) => {
                prop_assert!(legal.contains(&normal), "{:?} accepted in {}", text, before.fen());
                let mut expected = ChessGame::from_position(before.position().clone()).with_rules(Rules::PERFT);
                expected.play_str(&normal).unwrap();
                prop_assert_eq!(after.fen(), expected.fen());
            }
            Err(e) => {
                prop_assert!(!legal.contains(&normal), "{:?} refused in {}: {}", text, before.fen(), e);
                prop_assert!(e.to_string().len() < 400);
            }
        }
    }

    /// Single lines, random or mutated from GUI traffic: parsing never
    /// panics, and the engine answers each with well-formed lines and keeps
    /// answering `isready`.
    #[test]
    fn single_lines_never_break_the_engine(lines in prop::collection::vec(prop_oneof![mutated_command(), garbage()], 1..8)) {
        let out = Out::default();
        let mut e = Engine::new(out.clone());
        for line in &lines {
            let _ = parse_command(line);
            if e.handle_line(line) == Flow::Quit {
                break;
            }
            e.handle_line("stop");
        }
        e.handle_line("isready");
        e.wait();
        let r = out.take();
        prop_assert_eq!(r.last().map(String::as_str), Some("readyok"));
        for l in &r {
            prop_assert!(well_formed(l), "bad reply {:?} to {:?}", l, lines);
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Random sessions: see the module documentation.
    #[test]
    fn random_sessions_answer_every_go_legally(lines in prop::collection::vec(any_command(), 1..40)) {
        with_watchdog(Duration::from_secs(30), lines)?;
    }
}
