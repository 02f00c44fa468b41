//! `cargo xtask loadtest`: the server on loopback under many concurrent
//! sessions playing random legal moves against fast opponents, with
//! malformed requests mixed in. Counts server errors (5xx) and panics and
//! measures the latency of the requests that do not search.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use search_core::RngExt;
use search_core::rng::{self, derive_seed};
use serde_json::Value;

use crate::{App, Config};

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Sessions playing at once (each one game).
    pub sessions: usize,
    /// The most human moves per game.
    pub max_moves: usize,
    /// The share of requests that are malformed (0.1: one in ten).
    pub malformed: f64,
    /// The seed of the clients' choices.
    pub seed: u64,
}

impl Options {
    /// The default run: 400 sessions, whole games (up to 60 moves each).
    pub fn full() -> Self {
        Options { sessions: 400, max_moves: 60, malformed: 0.1, seed: 1 }
    }

    /// The CI run: 200 sessions of up to 8 moves each.
    pub fn quick() -> Self {
        Options { sessions: 200, max_moves: 8, malformed: 0.1, seed: 1 }
    }
}

/// Latency quantiles of a class of requests.
#[derive(Debug, Clone, Copy, Default)]
pub struct Latency {
    /// Requests measured.
    pub count: usize,
    /// Median, in milliseconds.
    pub p50: f64,
    /// 99th percentile, in milliseconds.
    pub p99: f64,
    /// Largest, in milliseconds.
    pub max: f64,
}

impl Latency {
    fn of(mut v: Vec<f64>) -> Self {
        if v.is_empty() {
            return Latency::default();
        }
        v.sort_by(f64::total_cmp);
        let q = |f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
        Latency { count: v.len(), p50: q(0.5), p99: q(0.99), max: v[v.len() - 1] }
    }
}

/// What a run saw.
#[derive(Debug, Clone)]
pub struct Report {
    /// The options.
    pub options: Options,
    /// Requests sent.
    pub requests: usize,
    /// Of which deliberately malformed.
    pub malformed: usize,
    /// Responses by status code.
    pub statuses: BTreeMap<u16, usize>,
    /// Responses with a 5xx status.
    pub server_errors: usize,
    /// Malformed requests that were not answered with a 4xx, and valid
    /// requests answered with a 4xx (neither should happen).
    pub unexpected: usize,
    /// Panics anywhere in the process during the run.
    pub panics: usize,
    /// Transport failures (connection refused or reset).
    pub transport_errors: usize,
    /// Games that reached their end.
    pub games_finished: usize,
    /// Requests that need no search worker: state, export, undo, and the
    /// malformed requests other than new games.
    pub non_search: Latency,
    /// Moves and new games (valid or not): they wait for a search worker.
    pub search: Latency,
    /// The run's wall time.
    pub elapsed: Duration,
    /// The first few unexpected answers, for the report.
    pub samples: Vec<String>,
}

impl Report {
    /// Whether the run passed: no 5xx, no panic, no transport error, no
    /// unexpected status.
    pub fn passed(&self) -> bool {
        self.server_errors == 0 && self.panics == 0 && self.transport_errors == 0 && self.unexpected == 0
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        writeln!(
            f,
            "loadtest: {} concurrent sessions, up to {} moves each, {:.0}% malformed requests",
            o.sessions,
            o.max_moves,
            o.malformed * 100.0
        )?;
        let statuses: Vec<String> = self.statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
        writeln!(
            f,
            "requests      {} in {:.1} s ({:.0}/s), {} malformed; {} games finished",
            self.requests,
            self.elapsed.as_secs_f64(),
            self.requests as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.malformed,
            self.games_finished
        )?;
        writeln!(f, "statuses      {}", statuses.join(", "))?;
        writeln!(
            f,
            "server errors {} (5xx), panics {}, transport errors {}, unexpected statuses {}",
            self.server_errors, self.panics, self.transport_errors, self.unexpected
        )?;
        let l = self.non_search;
        writeln!(
            f,
            "non-search    {} requests: p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms",
            l.count, l.p50, l.p99, l.max
        )?;
        let l = self.search;
        writeln!(
            f,
            "with search   {} requests: p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms",
            l.count, l.p50, l.p99, l.max
        )?;
        for s in &self.samples {
            writeln!(f, "  {s}")?;
        }
        write!(f, "loadtest: {}", if self.passed() { "ok" } else { "FAILED" })
    }
}

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// One observation.
struct Seen {
    status: u16,
    ms: f64,
    search: bool,
    malformed: bool,
    unexpected: Option<String>,
}

#[derive(Default)]
struct Tally {
    requests: usize,
    malformed: usize,
    statuses: BTreeMap<u16, usize>,
    unexpected: usize,
    transport: usize,
    finished: usize,
    non_search: Vec<f64>,
    search: Vec<f64>,
    samples: Vec<String>,
}

impl Tally {
    fn add(&mut self, s: Seen) {
        self.requests += 1;
        self.malformed += usize::from(s.malformed);
        *self.statuses.entry(s.status).or_default() += 1;
        if let Some(u) = s.unexpected {
            self.unexpected += 1;
            if self.samples.len() < 5 {
                self.samples.push(u);
            }
        }
        if s.search { self.search.push(s.ms) } else { self.non_search.push(s.ms) }
    }
}

type HttpClient = Client<HttpConnector, Full<Bytes>>;

struct Driver {
    client: HttpClient,
    base: String,
    tally: Tally,
}

impl Driver {
    /// Sends a request; `None` on a transport error.
    async fn send(&mut self, method: Method, path: &str, body: Option<String>) -> Option<(u16, Value, f64)> {
        let body = body.unwrap_or_default();
        let what = format!("{method} {path} ({} bytes)", body.len());
        // A body over the limit is refused before it is read; the server
        // then closes the connection, which the client must not reuse.
        let close = if body.len() > 16 * 1024 { "close" } else { "keep-alive" };
        let req = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .header("connection", close)
            .body(Full::new(Bytes::from(body)))
            .ok()?;
        let begin = Instant::now();
        let result = async {
            let resp = self.client.request(req).await.map_err(|e| format!("{e:?}"))?;
            let status = resp.status().as_u16();
            let bytes = resp.into_body().collect().await.map_err(|e| format!("{e:?}"))?.to_bytes();
            Ok::<_, String>((status, bytes))
        }
        .await;
        let ms = begin.elapsed().as_secs_f64() * 1000.0;
        let (status, bytes) = match result {
            Ok(r) => r,
            Err(e) => {
                self.tally.transport += 1;
                if self.tally.samples.len() < 5 {
                    self.tally.samples.push(format!("transport error: {what}: {}", crate::api::shorten(&e)));
                }
                return None;
            }
        };
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Some((status, json, ms))
    }

    /// Sends a valid request and records it.
    async fn valid(&mut self, method: Method, path: &str, body: Option<String>, search: bool) -> Option<(u16, Value)> {
        let what = format!("{method} {path}");
        let (status, json, ms) = self.send(method, path, body).await?;
        // A 409 can happen to a valid request only if the game ended.
        let unexpected = (status >= 400).then(|| format!("{what} -> {status} {json}"));
        self.tally.add(Seen { status, ms, search, malformed: false, unexpected });
        Some((status, json))
    }

    /// Sends a malformed request and records whether it got a 4xx.
    async fn malformed(&mut self, id: &str, rng: &mut rng::Rng) {
        let big = format!("{{\"move\": \"{}\"}}", "x".repeat(64 * 1024));
        let (method, path, body) = match rng.random_range(0..9u32) {
            0 => (Method::POST, format!("/api/games/{id}/moves"), Some("{\"move\": ".to_string())),
            1 => (Method::POST, format!("/api/games/{id}/moves"), Some("{\"mv\": \"4\"}".to_string())),
            2 => (Method::POST, format!("/api/games/{id}/moves"), Some("{\"move\": \"zz99\"}".to_string())),
            3 => (Method::GET, "/api/games/ffffffffffffffff".to_string(), None),
            4 => (Method::POST, "/api/games".to_string(), Some("{\"game\": \"go\", \"opponent\": \"random\"}".into())),
            5 => (
                Method::POST,
                "/api/games".to_string(),
                Some("{\"game\": \"connect4\", \"opponent\": \"alphabeta\"}".into()),
            ),
            6 => (Method::POST, format!("/api/games/{id}/moves"), Some(big)),
            7 => (Method::DELETE, format!("/api/games/{id}/export"), None),
            _ => (Method::POST, "/api/games".to_string(), Some("[1, 2, 3]".to_string())),
        };
        let what = format!("{method} {path}");
        // A new game, even a refused one, waits for a search worker (its
        // agent is built there): timed with the searches.
        let search = method == Method::POST && path == "/api/games";
        if let Some((status, json, ms)) = self.send(method, &path, body).await {
            let unexpected = !(400..500).contains(&status);
            let unexpected = unexpected.then(|| format!("malformed {what} -> {status} {json}"));
            self.tally.add(Seen { status, ms, search, malformed: true, unexpected });
        }
    }
}

/// One session: creates a game, plays random legal moves (undoing now and
/// then), exports it; a share of malformed requests in between.
async fn session(client: HttpClient, base: String, index: usize, opts: Options) -> Tally {
    let mut d = Driver { client, base, tally: Tally::default() };
    let mut rng = rng::seeded(derive_seed(opts.seed, index as u64));
    let (game, opponent) = match index % 6 {
        0 => ("tictactoe", "alphabeta:depth=1"),
        1 => ("connect4", "random"),
        2 => ("connect4", "alphabeta:depth=1"),
        3 => ("gobang", "alphabeta:depth=1"),
        4 => ("chess", "random"),
        _ => ("chess", "alphabeta:depth=1"),
    };
    let human = if rng.random_range(0..2u32) == 0 { "first" } else { "second" };
    let body = format!("{{\"game\": \"{game}\", \"opponent\": \"{opponent}\", \"human\": \"{human}\"}}");
    let Some((201, mut state)) = d.valid(Method::POST, "/api/games", Some(body), true).await else {
        return d.tally;
    };
    let id = state["id"].as_str().unwrap_or_default().to_string();
    let path = format!("/api/games/{id}");
    for _ in 0..opts.max_moves {
        if rng.random::<f64>() < opts.malformed {
            d.malformed(&id, &mut rng).await;
        }
        if state["status"] != "ongoing" {
            d.tally.finished += 1;
            break;
        }
        let legal: Vec<&str> =
            state["legal"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.random_range(0..legal.len())];
        let body = serde_json::json!({ "move": mv }).to_string();
        match d.valid(Method::POST, &format!("{path}/moves"), Some(body), true).await {
            Some((200, s)) => state = s,
            _ => break,
        }
        match rng.random_range(0..10u32) {
            0 => {
                if let Some((200, s)) = d.valid(Method::POST, &format!("{path}/undo"), None, false).await {
                    state = s;
                }
            }
            1 | 2 => {
                if let Some((200, s)) = d.valid(Method::GET, &path, None, false).await {
                    state = s;
                }
            }
            _ => {}
        }
    }
    d.valid(Method::GET, &format!("{path}/export"), None, false).await;
    d.tally
}

/// Runs the load test: the server in this process on a loopback port, then
/// `opts.sessions` concurrent client sessions.
///
/// # Errors
///
/// The server could not start.
pub fn run(opts: Options) -> Result<Report, Box<dyn std::error::Error>> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));
    let panics_before = PANICS.load(Ordering::SeqCst);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let config = Config { max_sessions: opts.sessions * 2 + 100, ..Config::default() };
    let app = App::new(config)?;
    let report = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(crate::serve(listener, app, async {
            let _ = stop_rx.await;
        }));
        let client: HttpClient = Client::builder(TokioExecutor::new()).pool_max_idle_per_host(1024).build_http();
        let base = format!("http://{addr}");
        let begin = Instant::now();
        let tasks: Vec<_> =
            (0..opts.sessions).map(|i| tokio::spawn(session(client.clone(), base.clone(), i, opts.clone()))).collect();
        let mut all = Tally::default();
        for t in tasks {
            match t.await {
                Ok(tally) => {
                    all.requests += tally.requests;
                    all.malformed += tally.malformed;
                    for (s, n) in tally.statuses {
                        *all.statuses.entry(s).or_default() += n;
                    }
                    all.unexpected += tally.unexpected;
                    all.transport += tally.transport;
                    all.finished += tally.finished;
                    all.non_search.extend(tally.non_search);
                    all.search.extend(tally.search);
                    for s in tally.samples {
                        if all.samples.len() < 5 {
                            all.samples.push(s);
                        }
                    }
                }
                Err(_) => all.transport += 1,
            }
        }
        let elapsed = begin.elapsed();
        let _ = stop_tx.send(());
        let _ = server.await;
        let server_errors = all.statuses.iter().filter(|(s, _)| **s >= 500).map(|(_, n)| n).sum();
        Ok::<Report, Box<dyn std::error::Error>>(Report {
            options: opts,
            requests: all.requests,
            malformed: all.malformed,
            statuses: all.statuses,
            server_errors,
            unexpected: all.unexpected,
            panics: 0,
            transport_errors: all.transport,
            games_finished: all.finished,
            non_search: Latency::of(all.non_search),
            search: Latency::of(all.search),
            elapsed,
            samples: all.samples,
        })
    })?;
    let panics = PANICS.load(Ordering::SeqCst) - panics_before;
    Ok(Report { panics, ..report })
}
