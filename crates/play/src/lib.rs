//! Play against the library's agents in the browser: a local web app for
//! tic-tac-toe, connect-4 (7 × 6), gobang (15 × 15) and chess, and the JSON
//! API it runs on (`cargo xtask play`; documented in `docs/play.md`).
//!
//! - The opponent is any agent spec of the game's roster, the one `cargo
//!   xtask match` uses (the built-in games' `registry`): the strength dial `elo:X`,
//!   `alphabeta:depth=D`, `boltzmann:...`, `rminimax:...`, `random`...
//!   Every kind gets a budget: the searching kinds a node budget (`nodes=`,
//!   [`Config::max_nodes`]), the Monte Carlo ones a time budget (`ms=`,
//!   [`Config::max_ms`]), the modelled ones (`aware`, `online`) a depth cap;
//!   `uci:` engines are not offered (the spec would name a program to run).
//! - Searches run on Tokio's blocking pool, at most [`Config::workers`] at
//!   once, so a long search never stalls other sessions; each reply reports
//!   what the engine thought (its move distribution, value, principal
//!   variation, nodes and time).
//! - Sessions are independent, seeded (a reply depends only on the position,
//!   the spec and the session's seed), expire when idle
//!   ([`Config::session_ttl`]) and are capped ([`Config::max_sessions`]).
//! - The page (HTML, CSS, JavaScript) is compiled into the binary; nothing is
//!   fetched from elsewhere at run time.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! play::run(play::Config::default(), "127.0.0.1", 8080)?; // serves until Ctrl-C
//! # Ok(()) }
//! ```

mod api;
mod catalog;
pub mod cli;
mod error;
mod games;
pub mod loadtest;
mod session;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

pub use api::{App, router};
pub use catalog::{GameInfo, Preset};
pub use error::ApiError;
pub use games::{Board, Input};
pub use session::{MoveProbability, Reply};

/// The server's limits and seed.
#[derive(Debug, Clone)]
pub struct Config {
    /// A session untouched for this long is removed (default 30 minutes).
    pub session_ttl: Duration,
    /// The most sessions held at once (default 1,000); a new game beyond it
    /// is refused with 503 after idle sessions are expired.
    pub max_sessions: usize,
    /// Searches running at once (default: the number of CPUs).
    pub workers: usize,
    /// The node budget of a searching agent's move (default 2,000,000);
    /// added as `nodes=` to specs without one, and the most a spec may ask.
    /// It also caps the depth of the searches that have no node budget
    /// (`aware`, `online`).
    pub max_nodes: u64,
    /// The time budget of a Monte Carlo agent's move (`mcts`, `ments`), in
    /// milliseconds (default 2,000); added as `ms=` to specs without one,
    /// and the most a spec may ask.
    pub max_ms: u64,
    /// The largest request body, in bytes (default 16 KiB).
    pub body_limit: usize,
    /// The master seed: session `n` gets the seed derived from it and `n`
    /// unless its request gives one.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            session_ttl: Duration::from_secs(30 * 60),
            max_sessions: 1000,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_nodes: 2_000_000,
            max_ms: 2_000,
            body_limit: 16 * 1024,
            seed: 1,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then finishes
/// the requests in flight.
///
/// # Errors
///
/// An I/O error of the listener.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let ttl = app.config().session_ttl;
    api::spawn_sweeper(app.clone(), (ttl / 4).clamp(Duration::from_secs(1), Duration::from_secs(60)));
    axum::serve(listener, router(app)).with_graceful_shutdown(shutdown).await
}

/// Waits for Ctrl-C (or, on Unix, SIGTERM).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// `cargo xtask play`: serves the app on `host:port`, prints its URL, and
/// serves until Ctrl-C, then shuts down gracefully.
///
/// # Errors
///
/// A bad address, a port in use, an unreadable calibration.
pub fn run(config: Config, host: &str, port: u16) -> Result<(), Box<dyn std::error::Error>> {
    let addr: SocketAddr = format!("{host}:{port}")
        .parse()
        .or_else(|_| format!("[{host}]:{port}").parse())
        .map_err(|_| format!("bad address {host}:{port}"))?;
    println!("play: loading the games, their rosters and calibrations…");
    let app = App::new(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr()?;
        let shown = if local.ip().is_unspecified() { format!("127.0.0.1:{}", local.port()) } else { local.to_string() };
        println!("play: serving on http://{shown}/ (Ctrl-C to stop)");
        serve(listener, app, shutdown_signal()).await?;
        println!("play: stopped");
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}
