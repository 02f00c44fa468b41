//! The page in a real browser: headless Chromium driven through WebDriver
//! (Debian's `chromium` and `chromium-driver`). Opens the page, plays
//! connect-4 and chess by clicking, sees the engine answer, undoes, exports,
//! imports a chess position, promotes a pawn (a draw), and saves screenshots in
//! `target/play-screenshots/` (and in `docs/img/` when
//! `PLAY_UPDATE_SCREENSHOTS=1`).
//!
//! Skips (passes, saying why) when `chromedriver` or Chromium is missing.

use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use play::{App, Config};
use serde_json::json;

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
    Fut: std::future::Future<Output = Result<bool, fantoccini::error::CmdError>>,
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

async fn count(c: &Client, css: &str) -> Result<usize, fantoccini::error::CmdError> {
    Ok(c.find_all(Locator::Css(css)).await?.len())
}

async fn text(c: &Client, css: &str) -> Result<String, fantoccini::error::CmdError> {
    c.find(Locator::Css(css)).await?.text().await
}

async fn wait_moves(c: &Client, n: usize) -> TestResult {
    until(&format!("{n} moves in the log"), Duration::from_secs(60), || async move {
        Ok(count(c, "#log li").await? == n && text(c, "#status").await?.starts_with("Your move"))
    })
    .await
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

async fn set_opponent(c: &Client, spec: &str) -> TestResult {
    let input = c.find(Locator::Id("opponent")).await?;
    input.clear().await?;
    input.send_keys(spec).await?;
    Ok(())
}

async fn connect4(c: &Client) -> TestResult {
    // The page starts a connect-4 game by itself; start one against a
    // chosen opponent.
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css("#board.connect4 .cell")).await?;
    set_opponent(c, "elo:1000").await?;
    c.find(Locator::Id("new-game")).await?.click().await?;
    wait_moves(c, 0).await?;
    assert_eq!(count(c, "#board .cell").await?, 42);
    // Click the centre column (any cell of it), then the one to its left.
    c.find(Locator::Css("#board .cell[data-col='4']")).await?.click().await?;
    wait_moves(c, 2).await?;
    let reply = text(c, "#reply-move").await?;
    assert!(reply.len() == 1, "the engine's move: {reply:?}");
    assert!(count(c, "#distribution li").await? >= 1);
    c.find(Locator::Css("#board .cell[data-col='3']")).await?.click().await?;
    wait_moves(c, 4).await?;
    assert!(text(c, "#reply-nodes").await? != "–");
    assert_eq!(count(c, "#board .cell.x").await?, 2);
    assert_eq!(count(c, "#board .cell.o").await?, 2);
    save_screenshot(c, "play-connect4.png").await?;
    // Undo takes back the last pair.
    c.find(Locator::Id("undo")).await?.click().await?;
    wait_moves(c, 2).await?;
    // Export: the move line.
    c.find(Locator::Id("export")).await?.click().await?;
    until("the export", Duration::from_secs(10), || async move {
        Ok(c.find(Locator::Id("export-text")).await?.prop("value").await?.is_some_and(|v| v.starts_with("4 ")))
    })
    .await?;
    Ok(())
}

async fn chess(c: &Client) -> TestResult {
    c.find(Locator::Id("game-select")).await?.select_by_value("chess").await?;
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css("#board.chess .cell")).await?;
    wait_moves(c, 0).await?;
    set_opponent(c, "elo:1200").await?;
    c.find(Locator::Id("new-game")).await?.click().await?;
    wait_moves(c, 0).await?;
    assert_eq!(count(c, "#board .cell").await?, 64);
    // Selecting e2 shows its two destinations.
    c.find(Locator::Css("#board .cell[data-cell='e2']")).await?.click().await?;
    until("legal-move highlighting", Duration::from_secs(5), || async move {
        Ok(count(c, "#board .cell.target").await? == 2)
    })
    .await?;
    assert_eq!(count(c, "#board .cell.target[data-cell='e4']").await?, 1);
    c.find(Locator::Css("#board .cell[data-cell='e4']")).await?.click().await?;
    wait_moves(c, 2).await?;
    c.find(Locator::Css("#board .cell[data-cell='g1']")).await?.click().await?;
    c.find(Locator::Css("#board .cell[data-cell='f3']")).await?.click().await?;
    wait_moves(c, 4).await?;
    assert!(text(c, "#reply-pv").await? != "–");
    save_screenshot(c, "play-chess.png").await?;
    c.find(Locator::Id("flip")).await?.click().await?;
    let first = c.find(Locator::Css("#board .cell")).await?.attr("data-cell").await?;
    assert_eq!(first.as_deref(), Some("h1"), "flipped board starts at h1");
    c.find(Locator::Id("flip")).await?.click().await?;
    c.find(Locator::Id("undo")).await?.click().await?;
    wait_moves(c, 2).await?;
    c.find(Locator::Id("export")).await?.click().await?;
    until("the PGN export", Duration::from_secs(10), || async move {
        let v = c.find(Locator::Id("export-text")).await?.prop("value").await?.unwrap_or_default();
        Ok(v.contains("[Event ") && v.contains("1. e4 "))
    })
    .await?;
    // A position imported from a FEN, and a promotion chosen on the page.
    set_opponent(c, "random").await?;
    c.find(Locator::Css("#import-box summary")).await?.click().await?;
    c.find(Locator::Id("import-fen")).await?.send_keys("8/4P3/8/8/8/k7/8/4K3 w - - 0 1").await?;
    c.find(Locator::Id("import")).await?.click().await?;
    until("the imported position", Duration::from_secs(20), || async move {
        Ok(count(c, "#board .cell .piece").await? == 3 && text(c, "#status").await?.starts_with("Your move"))
    })
    .await?;
    c.find(Locator::Css("#board .cell[data-cell='e7']")).await?.click().await?;
    c.find(Locator::Css("#board .cell[data-cell='e8']")).await?.click().await?;
    c.wait().at_most(Duration::from_secs(5)).for_element(Locator::Css("#promotion:not([hidden])")).await?;
    // An underpromotion: king and knight against king, a draw at once.
    c.find(Locator::Css("#promotion button[data-promo='n']")).await?.click().await?;
    until("the draw", Duration::from_secs(20), || async move {
        Ok(text(c, "#status").await? == "Draw (insufficient material)")
    })
    .await?;
    assert_eq!(text(c, "#log li").await?, "e7e8n");
    assert_eq!(count(c, "#board .cell[data-cell='e8'] .piece.white").await?, 1);
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
    let caps = match caps {
        serde_json::Value::Object(m) => m,
        _ => unreachable!(),
    };
    let mut builder = ClientBuilder::new(HttpConnector::new());
    builder.capabilities(caps);
    let webdriver = format!("http://127.0.0.1:{port}");
    let begin = Instant::now();
    let client = loop {
        match builder.connect(&webdriver).await {
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
        chess(&client).await
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
