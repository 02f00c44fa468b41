//! `UciEngineAgent`: real games through Stockfish (skipped with a note when
//! it is not installed) and typed errors from fake engines (small shell
//! scripts written at test time) that print garbage, illegal moves, exit or
//! hang.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use games_chess::ChessGame;
use games_chess::external::{EngineLimit, EngineScore, ExternalError, UciEngineAgent};
use search_core::arena::play_match;
use search_core::{Agent, Game, GameError, Outcome, Player, RandomAgent};

// ---------------------------------------------------------------------------
// Helpers

/// Stockfish at `/usr/games/stockfish` or as `stockfish` on the `PATH`, or
/// `None` with a note on stderr.
fn stockfish(test: &str) -> Option<PathBuf> {
    let installed = Path::new("/usr/games/stockfish");
    if installed.is_file() {
        return Some(installed.to_path_buf());
    }
    let on_path = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join("stockfish")).find(|p| p.is_file()));
    if on_path.is_none() {
        eprintln!("note: {test} skipped: Stockfish is not installed (/usr/games/stockfish, or `stockfish` on PATH)");
    }
    on_path
}

fn options(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// A fresh directory for this test's scripts (removed on drop).
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("games-chess-external-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The answers of a fake engine, as shell commands.
struct Fake {
    /// On `uci`.
    uci: &'static str,
    /// On `isready`.
    isready: &'static str,
    /// On `go …` (`$n` counts the `go` commands from 1).
    go: &'static str,
    /// On `stop`.
    stop: &'static str,
}

const FAKE_UCI: &str = "echo 'id name Fake Engine'; \
                        echo 'option name Hash type spin default 16 min 1 max 64'; \
                        echo 'option name Style type combo default Normal var Solid var Normal'; echo uciok";

impl Default for Fake {
    fn default() -> Self {
        Fake { uci: FAKE_UCI, isready: "echo readyok", go: "echo 'bestmove e2e4'", stop: ":" }
    }
}

impl Fake {
    /// Writes the script into `dir` (logging every input line to
    /// `dir/input.log`) and returns its path.
    fn write(&self, dir: &TempDir, name: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let log = dir.0.join("input.log");
        let script = format!(
            "#!/bin/sh\nn=0\nwhile IFS= read -r line; do\n  echo \"$line\" >> '{log}'\n  case \"$line\" in\n    \
             uci) {uci} ;;\n    isready) {isready} ;;\n    go*) n=$((n+1)); {go} ;;\n    stop) {stop} ;;\n    \
             quit) exit 0 ;;\n  esac\ndone\n",
            log = log.display(),
            uci = self.uci,
            isready = self.isready,
            go = self.go,
            stop = self.stop,
        );
        let path = dir.0.join(name);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
}

/// Spawns with a short timeout, retrying while the freshly written script
/// is "busy" (another test thread forked while it was open for writing).
fn spawn_fake(path: &Path, opts: &[(String, String)], timeout: Duration) -> Result<UciEngineAgent, ExternalError> {
    for _ in 0..100 {
        match UciEngineAgent::spawn_with_timeout(path, opts, EngineLimit::Nodes(1), timeout) {
            Err(ExternalError::Spawn { source, .. }) if source.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
    panic!("{} stayed busy", path.display());
}

fn choose(agent: &mut UciEngineAgent, g: &ChessGame) -> Result<shakmaty::Move, GameError> {
    agent.choose(g, &mut search_core::rng::seeded(0))
}

const SHORT: Duration = Duration::from_millis(500);

// ---------------------------------------------------------------------------
// Without Stockfish

#[test]
fn agent_is_send() {
    fn send<T: Send>() {}
    send::<UciEngineAgent>();
}

#[test]
fn missing_program_is_a_spawn_error() {
    let path = Path::new("/nonexistent/dir/no-such-engine");
    match UciEngineAgent::spawn(path, &[], EngineLimit::Nodes(100)) {
        Err(e @ ExternalError::Spawn { .. }) => {
            assert!(e.to_string().contains("/nonexistent/dir/no-such-engine"), "{e}");
            let ExternalError::Spawn { path: p, .. } = e else { unreachable!() };
            assert_eq!(p, path);
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }
}

#[test]
fn zero_limits_are_refused() {
    for limit in [EngineLimit::Nodes(0), EngineLimit::Depth(0), EngineLimit::MoveTime(Duration::from_micros(10))] {
        let r = UciEngineAgent::spawn(Path::new("/bin/true"), &[], limit);
        assert!(matches!(r, Err(ExternalError::InvalidLimit(_))), "{limit:?}: {r:?}");
    }
}

#[test]
fn fake_engine_protocol_and_game_record() {
    let dir = TempDir::new();
    let fake = Fake {
        go: "case $n in 1) echo 'bestmove e2e4 ponder e7e5' ;; *) echo 'bestmove g1f3' ;; esac",
        ..Fake::default()
    };
    let path = fake.write(&dir, "engine.sh");
    let mut agent = spawn_fake(&path, &options(&[("style", "solid")]), Duration::from_secs(2)).unwrap();
    assert_eq!(agent.engine_name(), "Fake Engine");
    assert_eq!(Agent::<ChessGame>::name(&agent), "Fake Engine (nodes 1, style=solid)");
    assert!(format!("{agent:?}").contains("Fake Engine"));

    let mut g = ChessGame::startpos();
    let start = g.fen();
    let mv = choose(&mut agent, &g).unwrap();
    assert_eq!(g.move_string(mv), "e2e4");
    g.play(mv);
    g.play_str("e7e5").unwrap();
    let mv = choose(&mut agent, &g).unwrap();
    assert_eq!(g.move_string(mv), "g1f3");
    // An unrelated position: the record restarts there.
    let other = ChessGame::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    assert!(choose(&mut agent, &other).is_err()); // g1f3 is illegal there
    agent.reset();
    drop(agent);

    let log = std::fs::read_to_string(dir.0.join("input.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let expected = [
        "uci".to_string(),
        "setoption name Hash value 16".to_string(), // the default; no Threads option here
        "setoption name Style value solid".to_string(),
        "isready".to_string(),
        "ucinewgame".to_string(),
        "isready".to_string(),
        format!("position fen {start}"),
        "go nodes 1".to_string(),
        format!("position fen {start} moves e2e4 e7e5"),
        "go nodes 1".to_string(),
        "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_string(),
        "go nodes 1".to_string(),
        "ucinewgame".to_string(),
        "isready".to_string(),
        "quit".to_string(),
    ];
    assert_eq!(lines, expected);
}

#[test]
fn fake_engine_bad_moves_are_typed_errors() {
    let dir = TempDir::new();
    let g = ChessGame::startpos();
    let cases: [(&str, &str); 4] = [
        ("echo 'info depth 1 garbage'; echo 'bestmove banana'", "unparsable"),
        ("echo 'bestmove'", "unparsable"),
        ("echo 'bestmove e2e5'", "illegal"),
        ("echo 'bestmove (none)'", "none"),
    ];
    for (i, (go, kind)) in cases.into_iter().enumerate() {
        let path = Fake { go, ..Fake::default() }.write(&dir, &format!("bad{i}.sh"));
        let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
        let typed = agent.best_move(&g);
        match (kind, &typed) {
            ("unparsable", Err(ExternalError::UnparsableMove { .. }))
            | ("illegal", Err(ExternalError::IllegalMove { .. }))
            | ("none", Err(ExternalError::NoMove { .. })) => {}
            _ => panic!("{go}: expected {kind}, got {typed:?}"),
        }
        // Through the Agent trait: the GameError conversion.
        let e = choose(&mut agent, &g).unwrap_err();
        match kind {
            "illegal" => assert!(matches!(&e, GameError::IllegalMove { mv, .. } if mv == "e2e5"), "{e:?}"),
            _ => assert!(matches!(e, GameError::Parse { what: "engine move", .. }), "{e:?}"),
        }
        assert!(e.to_string().contains("Fake Engine"), "{e}");
    }
}

#[test]
fn fake_engine_exits_early() {
    let dir = TempDir::new();
    // Exits on `go` with status 3.
    let path = Fake { go: "exit 3", ..Fake::default() }.write(&dir, "exits.sh");
    let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
    match agent.best_move(&ChessGame::startpos()) {
        Err(ExternalError::Exited { status, .. }) => assert_eq!(status.and_then(|s| s.code()), Some(3)),
        other => panic!("expected Exited, got {other:?}"),
    }
    // Later calls report it, through the trait as a GameError::Param.
    let e = choose(&mut agent, &ChessGame::startpos()).unwrap_err();
    assert!(matches!(e, GameError::Param(_)), "{e:?}");
    assert!(e.to_string().contains("closed its pipes"), "{e}");
    agent.reset(); // must not panic or hang

    // Exits at once, before `uciok`.
    let path = dir.0.join("dies.sh");
    std::fs::write(&path, "#!/bin/sh\necho 'Fake banner'\nexit 1\n").unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let r = spawn_fake(&path, &[], SHORT);
    assert!(matches!(r, Err(ExternalError::Exited { .. })), "{r:?}");
}

#[test]
fn fake_engine_hangs() {
    let dir = TempDir::new();
    let g = ChessGame::startpos();

    // No `uciok`: garbage, then silence.
    let path = Fake { uci: "echo 'hello'; echo 'id name Mute'", ..Fake::default() }.write(&dir, "mute.sh");
    let t = Instant::now();
    match spawn_fake(&path, &[], SHORT) {
        Err(ExternalError::Timeout { waiting_for: "uciok", after, .. }) => assert_eq!(after, SHORT),
        other => panic!("expected a uciok timeout, got {other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(5));

    // No `readyok`.
    let path = Fake { isready: ":", ..Fake::default() }.write(&dir, "unready.sh");
    let r = spawn_fake(&path, &[], SHORT);
    assert!(matches!(r, Err(ExternalError::Timeout { waiting_for: "readyok", .. })), "{r:?}");

    // Searches forever and ignores `stop`: a timeout, then unusable.
    let path = Fake { go: ":", ..Fake::default() }.write(&dir, "hangs.sh");
    let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
    let t = Instant::now();
    let r = agent.best_move(&g);
    assert!(matches!(r, Err(ExternalError::Timeout { waiting_for: "bestmove", .. })), "{r:?}");
    assert!(t.elapsed() < Duration::from_secs(5));
    let r = agent.best_move(&g);
    assert!(matches!(r, Err(ExternalError::Unusable { .. })), "{r:?}");
    let t = Instant::now();
    drop(agent);
    assert!(t.elapsed() < Duration::from_secs(2), "drop took {:?}", t.elapsed());

    // Late, but answers `stop`: a timeout, and the engine stays usable.
    let path = Fake {
        go: "if [ $n = 1 ]; then :; else echo 'bestmove d2d4'; fi",
        stop: "echo 'bestmove e2e4'",
        ..Fake::default()
    }
    .write(&dir, "late.sh");
    let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
    let e = choose(&mut agent, &g).unwrap_err();
    assert!(matches!(e, GameError::Param(_)) && e.to_string().contains("bestmove"), "{e}");
    let mv = choose(&mut agent, &g).unwrap();
    assert_eq!(g.move_string(mv), "d2d4");
}

#[test]
fn fake_engine_option_errors() {
    let dir = TempDir::new();
    let path = Fake::default().write(&dir, "opts.sh");
    match spawn_fake(&path, &options(&[("Threads", "2")]), SHORT) {
        Err(e @ ExternalError::UnknownOption { .. }) => {
            let text = e.to_string();
            assert!(text.contains("\"Threads\"") && text.contains("Hash, Style"), "{text}");
        }
        other => panic!("expected UnknownOption, got {other:?}"),
    }
    for (name, value) in [("Hash", "1000"), ("Hash", "big"), ("Style", "Wild")] {
        let r = spawn_fake(&path, &options(&[(name, value)]), SHORT);
        assert!(matches!(r, Err(ExternalError::InvalidOptionValue { .. })), "{name}={value}: {r:?}");
    }
}

#[test]
fn fake_engine_evaluations() {
    let dir = TempDir::new();
    let g = ChessGame::startpos();
    let cases: [(&str, Option<EngineScore>); 4] = [
        // The last exact score wins over later bounds and earlier scores.
        (
            "echo 'info string hello'; echo 'info depth 1 score cp 13'; echo 'info depth 2 score cp 20'; \
             echo 'info depth 3 score cp 90 lowerbound'; echo 'bestmove e2e4'",
            Some(EngineScore::Centipawns(20)),
        ),
        ("echo 'info depth 4 score mate -3 pv e2e4'; echo 'bestmove e2e4'", Some(EngineScore::Mate(-3))),
        ("echo 'info depth 2 score cp -7 upperbound'; echo 'bestmove e2e4'", Some(EngineScore::Centipawns(-7))),
        ("echo 'bestmove e2e4'", None),
    ];
    for (i, (go, expected)) in cases.into_iter().enumerate() {
        let path = Fake { go, ..Fake::default() }.write(&dir, &format!("eval{i}.sh"));
        let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
        match (agent.evaluate(&g, EngineLimit::Nodes(100)), expected) {
            (Ok(score), Some(e)) => assert_eq!(score, e, "{go}"),
            (Err(ExternalError::NoScore { .. }), None) => {}
            (other, _) => panic!("{go}: expected {expected:?}, got {other:?}"),
        }
    }
    let path = Fake::default().write(&dir, "eval-limit.sh");
    let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
    assert!(matches!(agent.evaluate(&g, EngineLimit::Depth(0)), Err(ExternalError::InvalidLimit(_))));
    drop(agent);
    let log = std::fs::read_to_string(dir.0.join("input.log")).unwrap();
    assert!(log.contains(&format!("position fen {}\ngo nodes 100\n", g.fen())), "{log}");
}

#[test]
fn finished_game_is_game_over() {
    let dir = TempDir::new();
    let path = Fake::default().write(&dir, "over.sh");
    let mut agent = spawn_fake(&path, &[], SHORT).unwrap();
    let mut g = ChessGame::startpos();
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        g.play_str(mv).unwrap();
    }
    assert_eq!(choose(&mut agent, &g), Err(GameError::GameOver));
}

// ---------------------------------------------------------------------------
// With Stockfish

#[test]
fn stockfish_plays_full_games_against_random() {
    let Some(sf) = stockfish("stockfish_plays_full_games_against_random") else { return };
    let mut agent = UciEngineAgent::spawn(&sf, &[], EngineLimit::Nodes(2000)).unwrap();
    assert!(agent.engine_name().starts_with("Stockfish"), "{}", agent.engine_name());
    let start = ChessGame::startpos();
    let white = play_match(&start, &mut agent, &mut RandomAgent, 7, Some(200)).unwrap();
    assert!(!white.moves.is_empty());
    assert_ne!(white.outcome, Some(Outcome::Win(Player::Second)), "Stockfish lost to random moves");
    agent.reset();
    let black = play_match(&start, &mut RandomAgent, &mut agent, 8, Some(200)).unwrap();
    assert_ne!(black.outcome, Some(Outcome::Win(Player::First)), "Stockfish lost to random moves");
    eprintln!(
        "stockfish vs random: {:?} in {} plies; random vs stockfish: {:?} in {} plies",
        white.outcome,
        white.moves.len(),
        black.outcome,
        black.moves.len()
    );
}

#[test]
fn stockfish_unknown_option_names_it() {
    let Some(sf) = stockfish("stockfish_unknown_option_names_it") else { return };
    match UciEngineAgent::spawn(&sf, &options(&[("UCI_Strength", "1500")]), EngineLimit::Nodes(100)) {
        Err(e @ ExternalError::UnknownOption { .. }) => {
            let text = e.to_string();
            assert!(text.contains("\"UCI_Strength\"") && text.contains("UCI_Elo"), "{text}");
        }
        other => panic!("expected UnknownOption, got {other:?}"),
    }
    let r = UciEngineAgent::spawn(&sf, &options(&[("UCI_Elo", "100")]), EngineLimit::Nodes(100));
    assert!(matches!(r, Err(ExternalError::InvalidOptionValue { .. })), "{r:?}");
}

#[test]
fn stockfish_evaluates_positions() {
    let Some(sf) = stockfish("stockfish_evaluates_positions") else { return };
    let mut agent = UciEngineAgent::spawn(&sf, &[], EngineLimit::Nodes(20_000)).unwrap();
    let limit = EngineLimit::Nodes(20_000);
    let start = agent.evaluate(&ChessGame::startpos(), limit).unwrap();
    assert!(matches!(start, EngineScore::Centipawns(cp) if cp.abs() < 100), "{start:?}");
    // White to move, a queen up; then Black to move in the same material.
    let up = ChessGame::from_fen("4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1").unwrap();
    assert!(agent.evaluate(&up, limit).unwrap().centipawns(10_000) > 500);
    let down = ChessGame::from_fen("4k3/8/8/8/8/8/3QP3/4K3 b - - 0 1").unwrap();
    assert!(agent.evaluate(&down, limit).unwrap().centipawns(10_000) < -500);
    // Mate in one for White (Ra8#), and the mated side to move after it.
    let mate = ChessGame::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    assert_eq!(agent.evaluate(&mate, limit).unwrap(), EngineScore::Mate(1));
    // Deterministic from a fresh process, and the agent still plays.
    let mut again = UciEngineAgent::spawn(&sf, &[], EngineLimit::Nodes(20_000)).unwrap();
    assert_eq!(again.evaluate(&ChessGame::startpos(), limit).unwrap(), start);
    let mv = choose(&mut agent, &ChessGame::startpos()).unwrap();
    assert!(ChessGame::startpos().move_string(mv).len() >= 4);
}

#[test]
fn stockfish_with_a_node_limit_is_deterministic() {
    let Some(sf) = stockfish("stockfish_with_a_node_limit_is_deterministic") else { return };
    let start = ChessGame::startpos();
    let spawn = || UciEngineAgent::spawn(&sf, &[], EngineLimit::Nodes(2000)).unwrap();
    let (mut a, mut b) = (spawn(), spawn());
    let first = play_match(&start, &mut a, &mut b, 1, Some(120)).unwrap();
    a.reset();
    b.reset();
    let again = play_match(&start, &mut a, &mut b, 1, Some(120)).unwrap();
    let fresh = play_match(&start, &mut spawn(), &mut spawn(), 1, Some(120)).unwrap();
    assert_eq!(first, again, "same agents after reset");
    assert_eq!(first, fresh, "fresh processes");
}

/// Not a check: the figures for the report. Run with
/// `cargo test -p games-chess --test integration external:: -- --ignored --nocapture`.
#[test]
#[ignore = "measurement, prints timings"]
fn stockfish_speed_and_determinism_report() {
    let Some(sf) = stockfish("stockfish_speed_and_determinism_report") else { return };
    let start = ChessGame::startpos();
    for limited in [false, true] {
        let opts = if limited { options(&[("UCI_LimitStrength", "true"), ("UCI_Elo", "1500")]) } else { vec![] };
        for nodes in [2000u64, 10_000, 50_000] {
            let spawn = || UciEngineAgent::spawn(&sf, &opts, EngineLimit::Nodes(nodes)).unwrap();
            let (mut a, mut b) = (spawn(), spawn());
            let t = Instant::now();
            let one = play_match(&start, &mut a, &mut b, 1, Some(60)).unwrap();
            let per_move = t.elapsed() / one.moves.len() as u32;
            let two = play_match(&start, &mut spawn(), &mut spawn(), 1, Some(60)).unwrap();
            let same = one.moves.iter().zip(&two.moves).take_while(|(x, y)| x == y).count();
            eprintln!(
                "limit_strength={limited} nodes={nodes}: {per_move:?}/move over {} plies; second run identical: {} \
                 (first {same} plies equal)",
                one.moves.len(),
                one == two
            );
        }
    }
}
