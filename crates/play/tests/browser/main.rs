//! The page in a real browser: headless Chromium driven through WebDriver
//! (Debian's `chromium` and `chromium-driver`) by the small client in
//! `webdriver.rs`. Plays every game to its end through the page, as a
//! player would, and checks what a player sees: the
//! last move and the winning line marked, coordinates beside the board, heat
//! labels only on moves with a visible share, a game replayed move for move
//! from the seed the page shows (a 64-bit seed kept exact), a new opponent
//! applied at once (and a refused one reported in words, the old one kept),
//! chess in SAN with move numbers, values in pawns or as mates, moves by
//! click and by drag and drop, promotion pieces in the mover's colour, and
//! the board above the controls on a narrow screen. Saves a screenshot of a
//! finished game of each in `target/play-screenshots/` (and in `docs/img/`
//! when `PLAY_UPDATE_SCREENSHOTS=1`).
//!
//! Skips (passes, saying why) when `chromedriver` or Chromium is missing.

use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use play::{App, Config};
use serde_json::{Value, json};
use webdriver::{Client, Key, Locator, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};

mod webdriver;

/// An executable named `name` on the `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|n| on_path(n))
}

/// Kills the driver when the test ends, however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(9515)
}

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Polls `check` until it is true or `timeout` passes.
async fn until<F, Fut>(what: &str, timeout: Duration, mut check: F) -> TestResult
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<bool, webdriver::Error>>,
{
    let begin = Instant::now();
    while begin.elapsed() < timeout {
        if check().await? {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("timed out waiting for {what}").into())
}

async fn count(c: &Client, css: &str) -> Result<usize, webdriver::Error> {
    Ok(c.find_all(Locator::Css(css)).await?.len())
}

async fn text(c: &Client, css: &str) -> Result<String, webdriver::Error> {
    c.find(Locator::Css(css)).await?.text().await
}

/// The session's state as the API gives it (the id is in the page's address).
///
/// When the opponent changes, the page starts a new session, points its
/// address at it and deletes the old one; a request that read the old
/// address just before may find that session gone. The script then reads
/// the address again (a few times, 100 ms apart) instead of failing.
async fn game_state(c: &Client) -> Result<Value, webdriver::Error> {
    const SCRIPT: &str = "return (async () => {
        for (let i = 0; ; i++) {
            const r = await fetch('/api/games/' + location.hash.slice(1));
            if (r.status !== 404 || i === 20) return r.json();
            await new Promise((done) => setTimeout(done, 100));
        }
    })();";
    c.execute(SCRIPT, vec![]).await
}

fn moves_of(st: &Value) -> Vec<String> {
    st["moves"].as_array().map_or_else(Vec::new, |a| a.iter().filter_map(|m| m.as_str().map(String::from)).collect())
}

fn strings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> =
        v.as_array().map_or_else(Vec::new, |a| a.iter().filter_map(|m| m.as_str().map(String::from)).collect());
    out.sort();
    out
}

/// Whether the status line shows a settled state: the human to move, or
/// the game over.
fn settled(status: &str) -> bool {
    ["Your move", "You won", "The engine won", "Draw"].iter().any(|s| status.starts_with(s))
}

/// Waits until the page shows a settled state with `n` moves in the state
/// and in the log; returns the state.
async fn wait_moves(c: &Client, n: usize) -> Result<Value, Box<dyn std::error::Error>> {
    let begin = Instant::now();
    while begin.elapsed() < Duration::from_secs(90) {
        let st = game_state(c).await?;
        if moves_of(&st).len() == n
            && st["thinking"] == false
            && settled(&text(c, "#status").await?)
            && count(c, "#log .move:not(.blank)").await? == n
        {
            return Ok(st);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("timed out waiting for {n} moves in the log").into())
}

fn screenshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/play-screenshots")
}

async fn save_screenshot(c: &Client, name: &str) -> TestResult {
    let png = c.screenshot().await?;
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(name), &png)?;
    if std::env::var_os("PLAY_UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/img");
        std::fs::create_dir_all(&docs)?;
        std::fs::write(docs.join(name), &png)?;
    }
    Ok(())
}

async fn set_field(c: &Client, id: &str, value: &str) -> TestResult {
    let input = c.find(Locator::Id(id)).await?;
    input.clear().await?;
    input.send_keys(value).await?;
    Ok(())
}

async fn new_game(c: &Client, game: &str, opponent: &str, seed: &str) -> Result<Value, Box<dyn std::error::Error>> {
    if c.find(Locator::Id("game-select")).await?.prop("value").await?.as_deref() != Some(game) {
        c.find(Locator::Id("game-select")).await?.select_by_value(game).await?;
        c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(&format!("#board.{game} .cell"))).await?;
        wait_moves(c, 0).await?;
    }
    set_field(c, "opponent", opponent).await?;
    set_field(c, "seed", seed).await?;
    let before = game_state(c).await?["id"].clone();
    c.find(Locator::Id("new-game")).await?.click().await?;
    let before = &before;
    until("a new game", Duration::from_secs(20), || async move { Ok(game_state(c).await?["id"] != *before) }).await?;
    let st = wait_moves(c, 0).await?;
    assert_eq!(st["opponent"], opponent);
    Ok(st)
}

/// What the page marks: the last move's cells, the winning line's, and
/// heat labels only on moves with a visible share (a whole percentage of
/// at least 1).
async fn check_marks(c: &Client, st: &Value) -> TestResult {
    let mut last = Vec::new();
    for e in c.find_all(Locator::Css("#board .cell.last")).await? {
        last.push(e.attr("data-cell").await?.unwrap_or_default());
    }
    last.sort();
    assert_eq!(last, strings(&st["last_cells"]), "the last move marked");
    assert_eq!(last.is_empty(), moves_of(st).is_empty(), "a last move is marked once there is one");
    let mut line = Vec::new();
    for e in c.find_all(Locator::Css("#board .cell.win")).await? {
        line.push(e.attr("data-cell").await?.unwrap_or_default());
    }
    line.sort();
    assert_eq!(line, strings(&st["winning_line"]), "the winning line marked");
    for e in c.find_all(Locator::Css("#board .pct")).await? {
        let label = e.text().await?;
        assert!(label.parse::<u32>().is_ok_and(|p| (1..=100).contains(&p)), "heat label {label:?}");
    }
    Ok(())
}

/// The end of a small game: a win shows its line of `k` cells, all of the
/// winner's mark.
async fn check_end(c: &Client, st: &Value, k: usize) -> TestResult {
    check_marks(c, st).await?;
    let line = strings(&st["winning_line"]);
    match st["status"].as_str() {
        Some("human_won" | "engine_won") => {
            assert!(line.len() >= k, "a win by a line of {k}: {line:?}");
            let winner_first = (st["status"] == "human_won") == (st["human"] == "first");
            let mark = if winner_first { "x" } else { "o" };
            for cell in &line {
                let css = format!("#board .cell.{mark}[data-cell='{cell}']");
                assert_eq!(count(c, &css).await?, 1, "{cell} holds the winner's mark");
            }
        }
        _ => assert!(line.is_empty(), "no line without a win: {line:?}"),
    }
    Ok(())
}

/// Plays the human's side to the end, clicking the move `choose` picks in
/// each state (a cell, or a column for connect-4), checking the marks after
/// every reply; returns the human's moves and the final state.
async fn play_to_end(
    c: &Client,
    mut choose: impl FnMut(&Value) -> String,
) -> Result<(Vec<String>, Value), Box<dyn std::error::Error>> {
    let mut st = game_state(c).await?;
    let mut mine = Vec::new();
    while st["status"] == "ongoing" {
        let mv = choose(&st);
        let css = if st["board"]["input"] == "column" {
            format!("#board .cell[data-col='{mv}']")
        } else {
            format!("#board .cell[data-cell='{mv}']")
        };
        let n = moves_of(&st).len();
        c.find(Locator::Css(&css)).await?.click().await?;
        mine.push(mv.clone());
        // The human's move, then the engine's unless the game ended.
        let begin = Instant::now();
        st = loop {
            let now = game_state(c).await?;
            let m = moves_of(&now).len();
            if m > n && now["thinking"] == false && (now["status"] != "ongoing" || m >= n + 2) {
                break wait_moves(c, m).await?;
            }
            if begin.elapsed() > Duration::from_secs(90) {
                return Err(format!("no reply to {mv}").into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        check_marks(c, &st).await?;
        if st["status"] == "ongoing" {
            let reply = st["reply"]["move"].as_str().unwrap_or_default().to_string();
            assert_eq!(moves_of(&st).last(), Some(&reply));
        }
    }
    Ok((mine, st))
}

/// The first of `order` that is legal.
fn first_legal(st: &Value, order: &[&str]) -> String {
    let legal = strings(&st["legal"]);
    order.iter().find(|m| legal.iter().any(|l| l == *m)).map(|m| m.to_string()).unwrap_or_else(|| legal[0].clone())
}

/// The engine's moves of a game.
fn engine_moves(st: &Value) -> Vec<String> {
    let first = if st["human"] == "first" { 1 } else { 0 };
    moves_of(st).into_iter().skip(first).step_by(2).collect()
}

async fn tictactoe(c: &Client) -> TestResult {
    new_game(c, "tictactoe", "alphabeta:depth=9", "").await?;
    // Coordinates beside the board, as the log names the cells.
    assert_eq!(text(c, "#files").await?.split_whitespace().collect::<Vec<_>>(), ["a", "b", "c"]);
    assert_eq!(text(c, "#ranks").await?.split_whitespace().collect::<Vec<_>>(), ["3", "2", "1"]);
    // Cells in reading order: the perfect player wins.
    let order = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    let (_, st) = play_to_end(c, |st| first_legal(st, &order)).await?;
    assert_eq!(st["status"], "engine_won", "{st}");
    check_end(c, &st, 3).await?;
    assert!(text(c, "#status").await?.starts_with("The engine won (three in a row)"));
    save_screenshot(c, "play-tictactoe.png").await
}

async fn connect4(c: &Client) -> TestResult {
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css("#board .cell")).await?;
    new_game(c, "connect4", "elo:800", "").await?;
    assert_eq!(count(c, "#board .cell").await?, 42);
    assert_eq!(count(c, "#files div").await?, 7);
    // Always the leftmost open column.
    let order = ["1", "2", "3", "4", "5", "6", "7"];
    let (mine, first) = play_to_end(c, |st| first_legal(st, &order)).await?;
    check_end(c, &first, 4).await?;
    assert_ne!(first["status"], "draw", "{first}");
    // The seed shown is the session's, digit for digit (a string in JSON).
    let shown = text(c, "#seed-shown").await?;
    assert_eq!(Some(shown.as_str()), first["seed"].as_str(), "{first}");
    assert!(shown.parse::<u64>().is_ok(), "{shown}");
    // Typed back in, it replays the game move for move.
    set_field(c, "seed", &shown).await?;
    let before = first["id"].clone();
    c.find(Locator::Id("new-game")).await?.click().await?;
    let before = &before;
    until("the replay", Duration::from_secs(20), || async move { Ok(game_state(c).await?["id"] != *before) }).await?;
    wait_moves(c, 0).await?;
    let mut replayed = mine.clone();
    replayed.reverse();
    let (_, second) = play_to_end(c, |_| replayed.pop().unwrap_or_default()).await?;
    assert_eq!(moves_of(&second), moves_of(&first), "the replay from seed {shown}");
    assert_eq!(engine_moves(&second), engine_moves(&first));
    assert_eq!(second["status"], first["status"]);
    check_end(c, &second, 4).await?;
    save_screenshot(c, "play-connect4.png").await?;
    // A seed beyond 2^53 is kept exact.
    let big = "9982343471990070328";
    let st = new_game(c, "connect4", "elo:800", big).await?;
    assert_eq!(st["seed"], big);
    assert_eq!(text(c, "#seed-shown").await?, big);
    // Undo and export.
    c.find(Locator::Css("#board .cell[data-col='4']")).await?.click().await?;
    wait_moves(c, 2).await?;
    c.find(Locator::Css("#board .cell[data-col='3']")).await?.click().await?;
    wait_moves(c, 4).await?;
    c.find(Locator::Id("undo")).await?.click().await?;
    wait_moves(c, 2).await?;
    c.find(Locator::Id("export")).await?.click().await?;
    until("the export", Duration::from_secs(10), || async move {
        Ok(c.find(Locator::Id("export-text")).await?.prop("value").await?.is_some_and(|v| v.starts_with("4 ")))
    })
    .await?;
    set_field(c, "seed", "").await?;
    Ok(())
}

async fn gobang(c: &Client) -> TestResult {
    new_game(c, "gobang", "alphabeta:depth=2", "").await?;
    assert_eq!(count(c, "#files div").await?, 15);
    assert_eq!(count(c, "#ranks div").await?, 15);
    // The first empty point in sorted order (a1, a10, a11, ...: up the
    // a-file, which the engine blocks): the engine wins.
    let (_, st) = play_to_end(c, |st| strings(&st["legal"]).first().cloned().unwrap_or_default()).await?;
    assert_eq!(st["status"], "engine_won", "{st}");
    check_end(c, &st, 5).await?;
    assert!(text(c, "#status").await?.starts_with("The engine won (five in a row)"));
    save_screenshot(c, "play-gobang.png").await
}

/// A move in standard algebraic notation.
fn is_san(m: &str) -> bool {
    let m = m.trim_end_matches(['+', '#']);
    if m == "O-O" || m == "O-O-O" {
        return true;
    }
    let m = m.split_once('=').map_or(m, |(a, p)| if p.len() == 1 && "QRBN".contains(p) { a } else { "" });
    let b = m.as_bytes();
    b.len() >= 2
        && b[b.len() - 2].is_ascii_lowercase()
        && b[b.len() - 1].is_ascii_digit()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'x')
        && !(b.len() == 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit())
}

/// Drags the piece on `from` to `to` with the mouse.
async fn drag(c: &Client, from: &str, to: &str) -> TestResult {
    c.execute("window.scrollTo(0, 0);", vec![]).await?;
    let centre = |r: (f64, f64, f64, f64)| (r.0 + r.2 / 2.0, r.1 + r.3 / 2.0);
    let a = centre(c.find(Locator::Css(&format!("#board .cell[data-cell='{from}']"))).await?.rectangle().await?);
    let b = centre(c.find(Locator::Css(&format!("#board .cell[data-cell='{to}']"))).await?.rectangle().await?);
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x: a.0, y: a.1 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(100)),
            x: (a.0 + b.0) / 2.0,
            y: (a.1 + b.1) / 2.0,
        })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(100)), x: b.0, y: b.1 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    c.perform_actions(mouse).await?;
    c.release_actions().await?;
    Ok(())
}

async fn log_row(c: &Client, row: usize) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let rows = c.find_all(Locator::Css("#log .row")).await?;
    let row = rows.get(row).ok_or("no such log row")?;
    Ok(row.text().await?.split_whitespace().map(String::from).collect())
}

async fn chess(c: &Client) -> TestResult {
    new_game(c, "chess", "elo:1200", "").await?;
    assert_eq!(count(c, "#board .cell").await?, 64);
    // Click-click: selecting e2 shows its two destinations.
    c.find(Locator::Css("#board .cell[data-cell='e2']")).await?.click().await?;
    until("legal-move highlighting", Duration::from_secs(5), || async move {
        Ok(count(c, "#board .cell.target").await? == 2)
    })
    .await?;
    assert_eq!(count(c, "#board .cell.target[data-cell='e4']").await?, 1);
    c.find(Locator::Css("#board .cell[data-cell='e4']")).await?.click().await?;
    let st = wait_moves(c, 2).await?;
    check_marks(c, &st).await?;
    // The log in SAN, numbered by move: "1. e4 e5".
    let row = log_row(c, 0).await?;
    assert_eq!(row[..2], ["1.", "e4"], "{row:?}");
    assert!(is_san(&row[2]), "{row:?}");
    assert!(is_san(&text(c, "#reply-move").await?));
    // A preset chosen during the game plays the next move.
    c.find(Locator::Id("preset")).await?.select_by_value("alphabeta:depth=2").await?;
    until("the new opponent", Duration::from_secs(20), || async move {
        let st = game_state(c).await?;
        Ok(st["opponent"] == "alphabeta:depth=2" && moves_of(&st).len() == 2)
    })
    .await?;
    wait_moves(c, 2).await?;
    assert!(text(c, "#engine-spec").await?.starts_with("Engine: alphabeta:depth=2"));
    assert_eq!(c.find(Locator::Id("opponent")).await?.prop("value").await?.as_deref(), Some("alphabeta:depth=2"));
    // Drag and drop: the knight to f3.
    drag(c, "g1", "f3").await?;
    let st = wait_moves(c, 4).await?;
    assert!(st["spec"].as_str().is_some_and(|s| s.starts_with("alphabeta:depth=2")), "{st}");
    assert_eq!(log_row(c, 1).await?[..2], ["2.", "Nf3"]);
    let value = text(c, "#reply-value").await?;
    let pawns = value.split_whitespace().next().is_some_and(|v| {
        (v.starts_with('+') || v.starts_with('-')) && v[1..].split_once('.').is_some_and(|(_, d)| d.len() == 2)
    });
    assert!(pawns || value.starts_with("mate in ") || value.starts_with("mated in "), "{value}");
    check_marks(c, &st).await?;
    // A refused opponent: said in words, and the game goes on as it was.
    set_field(c, "opponent", "elo:5000").await?;
    c.find(Locator::Id("opponent")).await?.send_keys(&char::from(Key::Enter).to_string()).await?;
    c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css("#error:not([hidden])")).await?;
    let error = text(c, "#error").await?;
    assert!(error.contains("elo:5000 was not applied") && error.contains("Still playing alphabeta:depth=2"), "{error}");
    assert!(error.contains("the strength dial of Chess goes from ") && !error.contains("..="), "{error}");
    assert_eq!(c.find(Locator::Id("opponent")).await?.prop("value").await?.as_deref(), Some("alphabeta:depth=2"));
    assert_eq!(game_state(c).await?["opponent"], "alphabeta:depth=2");
    // The human model does not search, and the page says so.
    c.find(Locator::Id("preset")).await?.select_by_value("human:1500").await?;
    until("the human model", Duration::from_secs(20), || async move {
        Ok(game_state(c).await?["opponent"] == "human:1500")
    })
    .await?;
    let st = wait_moves(c, 4).await?;
    let mv = strings(&st["legal"]).into_iter().find(|m| m.len() == 4).ok_or("no move")?;
    c.find(Locator::Css(&format!("#board .cell[data-cell='{}']", &mv[..2]))).await?.click().await?;
    c.find(Locator::Css(&format!("#board .cell[data-cell='{}']", &mv[2..4]))).await?.click().await?;
    wait_moves(c, 6).await?;
    assert!(text(c, "#reply-nodes").await?.starts_with("not counted (a learned model"));
    assert_eq!(text(c, "#reply-depth").await?, "–");
    // Flip, undo, export.
    c.find(Locator::Id("flip")).await?.click().await?;
    let first = c.find(Locator::Css("#board .cell")).await?.attr("data-cell").await?;
    assert_eq!(first.as_deref(), Some("h1"), "flipped board starts at h1");
    c.find(Locator::Id("flip")).await?.click().await?;
    c.find(Locator::Id("undo")).await?.click().await?;
    wait_moves(c, 4).await?;
    c.find(Locator::Id("export")).await?.click().await?;
    until("the PGN export", Duration::from_secs(10), || async move {
        let v = c.find(Locator::Id("export-text")).await?.prop("value").await?.unwrap_or_default();
        Ok(v.contains("[Event ") && v.contains("1. e4 ") && v.contains(" 2. Nf3 "))
    })
    .await?;
    // To the end: a mate on the back rank, dragged.
    set_field(c, "opponent", "random").await?;
    c.find(Locator::Css("#import-box summary")).await?.click().await?;
    set_field(c, "import-fen", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").await?;
    c.find(Locator::Id("import")).await?.click().await?;
    until("the imported position", Duration::from_secs(20), || async move {
        Ok(count(c, "#board .cell .piece").await? == 9 && text(c, "#status").await?.starts_with("Your move"))
    })
    .await?;
    drag(c, "a1", "a8").await?;
    let st = wait_moves(c, 1).await?;
    assert_eq!(text(c, "#status").await?, "You won (checkmate)");
    assert_eq!(log_row(c, 0).await?, ["1.", "Ra8#"]);
    check_marks(c, &st).await?;
    assert_eq!(strings(&st["last_cells"]), ["a1", "a8"]);
    // And lost: from a move line in SAN, g4 dragged, and the engine mates.
    set_field(c, "opponent", "alphabeta:depth=2").await?;
    set_field(c, "import-fen", "").await?;
    set_field(c, "import-moves", "1. f3 e5").await?;
    c.find(Locator::Id("import")).await?.click().await?;
    until("the imported line", Duration::from_secs(20), || async move {
        Ok(game_state(c).await?["opponent"] == "alphabeta:depth=2" && moves_of(&game_state(c).await?).len() == 2)
    })
    .await?;
    wait_moves(c, 2).await?;
    drag(c, "g2", "g4").await?;
    let st = wait_moves(c, 4).await?;
    assert_eq!(text(c, "#status").await?, "The engine won (checkmate)");
    assert_eq!(log_row(c, 1).await?, ["2.", "g4", "Qh4#"]);
    assert_eq!(text(c, "#reply-value").await?, "mate in 1 (engine's side)");
    assert_eq!(count(c, "#board .cell.check[data-cell='e1']").await?, 1);
    check_marks(c, &st).await?;
    save_screenshot(c, "play-chess.png").await?;
    set_field(c, "import-moves", "").await?;
    // A promotion chosen among the mover's pieces.
    set_field(c, "import-fen", "8/4P3/8/8/8/k7/8/4K3 w - - 0 1").await?;
    c.find(Locator::Id("import")).await?.click().await?;
    until("the second imported position", Duration::from_secs(20), || async move {
        Ok(count(c, "#board .cell .piece").await? == 3 && text(c, "#status").await?.starts_with("Your move"))
    })
    .await?;
    c.find(Locator::Css("#board .cell[data-cell='e7']")).await?.click().await?;
    c.find(Locator::Css("#board .cell[data-cell='e8']")).await?.click().await?;
    c.wait().at_most(Duration::from_secs(5)).for_element(Locator::Css("#promotion.white:not([hidden])")).await?;
    // An underpromotion: king and knight against king, a draw at once.
    c.find(Locator::Css("#promotion button[data-promo='n']")).await?.click().await?;
    until("the draw", Duration::from_secs(20), || async move {
        Ok(text(c, "#status").await? == "Draw (insufficient material)")
    })
    .await?;
    assert_eq!(log_row(c, 0).await?, ["1.", "e8=N"]);
    assert_eq!(count(c, "#board .cell[data-cell='e8'] .piece.white").await?, 1);
    set_field(c, "import-fen", "").await?;
    Ok(())
}

/// On a narrow screen the board comes before the controls.
async fn narrow(c: &Client) -> TestResult {
    c.set_window_size(600, 900).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let board = c.find(Locator::Id("board")).await?.rectangle().await?;
    let controls = c.find(Locator::Id("controls")).await?.rectangle().await?;
    assert!(board.1 + board.3 <= controls.1, "board {board:?} above the controls {controls:?}");
    assert!(board.0 + board.2 <= 600.0, "the board fits: {board:?}");
    c.set_window_size(1280, 860).await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_in_headless_chromium() -> TestResult {
    let (Some(driver), Some(browser)) = (on_path("chromedriver"), chromium()) else {
        eprintln!(
            "skipped: chromedriver and chromium are not both installed (apt-get install chromium chromium-driver)"
        );
        return Ok(());
    };
    // The server.
    let app = App::new(Config::default())?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}/", listener.local_addr()?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(play::serve(listener, app, async {
        let _ = stopped.await;
    }));
    // The driver.
    let port = free_port();
    let child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", driver.display()))?;
    let _driver = Driver(child);
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": browser,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,860"]
        }
    });
    let webdriver = format!("http://127.0.0.1:{port}");
    let begin = Instant::now();
    let client = loop {
        match Client::connect(&webdriver, &caps).await {
            Ok(c) => break c,
            Err(e) if begin.elapsed() > Duration::from_secs(20) => {
                eprintln!("skipped: cannot open a browser session through {}: {e}", driver.display());
                return Ok(());
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    client.goto(&base).await?;
    let result = async {
        connect4(&client).await?;
        tictactoe(&client).await?;
        gobang(&client).await?;
        chess(&client).await?;
        narrow(&client).await
    }
    .await;
    if result.is_err() {
        let _ = save_screenshot(&client, "play-failure.png").await;
    }
    client.close().await?;
    let _ = stop.send(());
    let _ = server.await;
    result
}
