//! The HTTP layer: sessions, handlers and the router.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use search_core::rng::{derive_seed, splitmix64};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;

use crate::Config;
use crate::catalog::{Catalog, GameInfo, side};
use crate::error::ApiError;
use crate::session::{Play, Setup, StateView};

/// One session in the store.
struct Entry {
    play: Box<dyn Play>,
    last_seen: Instant,
    thinking: bool,
}

type Shared = Arc<Mutex<Entry>>;

/// Locks a mutex; a poisoned one (a panic while it was held, which the
/// code never does on purpose) is used as it is.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The server's state: the games, the sessions, the search workers.
pub struct App {
    config: Config,
    catalog: Catalog,
    sessions: Mutex<HashMap<String, Shared>>,
    counter: AtomicU64,
    salt: u64,
    workers: Arc<Semaphore>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("config", &self.config).field("sessions", &self.session_count()).finish()
    }
}

impl App {
    /// The server's state for `config`: loads every game's roster and the
    /// committed calibrations. Errors: an unreadable calibration.
    pub fn new(config: Config) -> Result<Arc<Self>, registry::RegistryError> {
        let catalog = Catalog::load(config.max_nodes, config.max_ms)?;
        let salt = splitmix64(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id()),
        );
        let workers = Arc::new(Semaphore::new(config.workers.max(1)));
        Ok(Arc::new(App {
            config,
            catalog,
            sessions: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(0),
            salt,
            workers,
        }))
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The number of live sessions.
    pub fn session_count(&self) -> usize {
        lock(&self.sessions).len()
    }

    /// Removes the sessions idle for longer than the configured TTL (not
    /// those whose engine is thinking); returns how many.
    pub fn expire_idle(&self) -> usize {
        let ttl = self.config.session_ttl;
        let mut map = lock(&self.sessions);
        let before = map.len();
        map.retain(|_, e| match e.try_lock() {
            Ok(e) => e.thinking || e.last_seen.elapsed() <= ttl,
            Err(_) => true,
        });
        before - map.len()
    }

    fn get(&self, id: &str) -> Result<Shared, ApiError> {
        let entry = lock(&self.sessions)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("no game {:?} (unknown or expired)", shorten(id))))?;
        lock(&entry).last_seen = Instant::now();
        Ok(entry)
    }

    fn insert(&self, play: Box<dyn Play>) -> Result<(String, Shared), ApiError> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let id = format!("{:016x}", splitmix64(self.salt ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        let entry = Arc::new(Mutex::new(Entry { play, last_seen: Instant::now(), thinking: false }));
        if self.session_count() >= self.config.max_sessions {
            self.expire_idle();
        }
        let mut map = lock(&self.sessions);
        if map.len() >= self.config.max_sessions {
            return Err(ApiError::Busy(format!(
                "the server holds its maximum of {} games: try again later",
                self.config.max_sessions
            )));
        }
        map.insert(id.clone(), entry.clone());
        Ok((id, entry))
    }

    fn next_seed(&self) -> u64 {
        derive_seed(self.config.seed, self.counter.load(Ordering::Relaxed))
    }
}

/// Clears a session's `thinking` flag when dropped (also if the search
/// task fails).
struct Thinking(Shared);

impl Drop for Thinking {
    fn drop(&mut self) {
        lock(&self.0).thinking = false;
    }
}

/// If the engine is to move, runs its search on a worker (at most
/// `workers` at once, off the async executor) and plays its move. The work
/// goes on if the client goes away.
async fn engine_reply(app: &Arc<App>, entry: &Shared) -> Result<(), ApiError> {
    let job = {
        let mut e = lock(entry);
        if !e.play.engine_to_move() {
            return Ok(());
        }
        if e.thinking {
            return Err(ApiError::Conflict("the engine is thinking".into()));
        }
        e.thinking = true;
        e.play.engine_job()
    };
    let guard = Thinking(entry.clone());
    let workers = app.workers.clone();
    let task = tokio::spawn(async move {
        let guard = guard;
        let _permit = workers.acquire_owned().await;
        let out = tokio::task::spawn_blocking(job)
            .await
            .map_err(|_| ApiError::Conflict("the engine's search failed; try the move again".into()))?;
        let result = lock(&guard.0).play.apply_engine(out);
        drop(guard);
        result
    });
    task.await.unwrap_or_else(|_| Err(ApiError::Conflict("the engine's search failed; try the move again".into())))
}

/// A session's state as JSON.
#[derive(serde::Serialize)]
struct StateBody {
    id: String,
    #[serde(flatten)]
    state: StateView,
    thinking: bool,
}

fn state_json(id: &str, entry: &Shared) -> Json<StateBody> {
    let e = lock(entry);
    Json(StateBody { id: id.to_string(), state: e.play.view(), thinking: e.thinking })
}

/// At most 120 characters of `s`, for error messages that quote input.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() <= 120 { s.to_string() } else { s.chars().take(120).chain(['…']).collect() }
}

/// Reads a JSON body: 413 past the size limit, 400 if it is not the
/// expected JSON.
fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge("request body too large".into())
        } else {
            ApiError::BadRequest(shorten(&r.body_text()))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(shorten(&format!("malformed JSON body: {e}"))))
}

/// `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: String,
    opponent: Option<String>,
    human: Option<String>,
    /// A position to start from (a FEN for chess).
    position: Option<String>,
    /// Moves to play first (from `position` or the start).
    moves: Option<String>,
    /// The session's seed: a string of decimal digits (as the state shows
    /// it), or a JSON number (exact in JavaScript only up to 2^53).
    seed: Option<serde_json::Value>,
    /// The id of the previous game of a series: a learning opponent
    /// (`online`, `adaptive`) carries over what it learnt there.
    after: Option<String>,
}

/// A request's seed: a whole number from 0 to 2^64 − 1, as a string of
/// digits or a JSON number (400 otherwise).
fn parse_seed(v: &serde_json::Value) -> Result<u64, ApiError> {
    let parsed = match v {
        serde_json::Value::String(s) => s.trim().parse::<u64>().ok(),
        serde_json::Value::Number(n) => n.as_u64(),
        _ => None,
    };
    parsed.ok_or_else(|| {
        ApiError::BadRequest(format!(
            "\"seed\" must be a whole number from 0 to {}, best given as a string of digits, not {}",
            u64::MAX,
            shorten(&v.to_string())
        ))
    })
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewMove {
    #[serde(rename = "move")]
    mv: String,
}

async fn create(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let req: NewGame = json_body(body)?;
    let human = match req.human.as_deref() {
        None => search_core::Player::First,
        Some(h) => side(h).ok_or_else(|| {
            ApiError::BadRequest(format!("\"human\" must be \"first\" or \"second\", not {:?}", shorten(h)))
        })?,
    };
    let opponent = match req.opponent {
        Some(o) => o,
        None => app.catalog.default_opponent(&req.game).unwrap_or_else(|| "random".into()),
    };
    let spec = app.catalog.budgeted(&req.game, &opponent)?;
    let seed = match &req.seed {
        None | Some(serde_json::Value::Null) => app.next_seed(),
        Some(v) => parse_seed(v)?,
    };
    // A series: the previous game's learning opponent, if it had one.
    let carried = match &req.after {
        None => None,
        Some(prev) => {
            let entry = app.get(prev)?;
            let mut e = lock(&entry);
            if e.thinking {
                return Err(ApiError::Conflict("after: the previous game's engine is thinking".into()));
            }
            e.play.carry(&req.game, &spec)?
        }
    };
    let setup = Setup { opponent, spec, human, seed, position: req.position, moves: req.moves, carried };
    let app2 = app.clone();
    let game = req.game.clone();
    // Building the agent allocates its table: on a worker too.
    let permit = app.workers.clone().acquire_owned().await;
    let play = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        app2.catalog.create(&game, setup)
    })
    .await
    .map_err(|_| ApiError::Unprocessable("the opponent could not be built".into()))??;
    let (id, entry) = app.insert(play)?;
    engine_reply(&app, &entry).await?;
    Ok((StatusCode::CREATED, state_json(&id, &entry)).into_response())
}

async fn show(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let entry = app.get(&id)?;
    Ok(state_json(&id, &entry).into_response())
}

async fn remove(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    match lock(&app.sessions).remove(&id) {
        Some(_) => Ok(StatusCode::NO_CONTENT.into_response()),
        None => Err(ApiError::NotFound(format!("no game {:?} (unknown or expired)", shorten(&id)))),
    }
}

async fn play_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let entry = app.get(&id)?;
    let req: NewMove = json_body(body)?;
    let text = req.mv.trim();
    if text.is_empty() || text.len() > 32 || text.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "\"move\" must be a move in the game's notation, e.g. \"4\" or \"e2e4\"".into(),
        ));
    }
    {
        let mut e = lock(&entry);
        if e.thinking {
            return Err(ApiError::Conflict("not your turn: the engine is thinking".into()));
        }
        e.play.human_move(text)?;
    }
    engine_reply(&app, &entry).await?;
    Ok(state_json(&id, &entry).into_response())
}

async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let entry = app.get(&id)?;
    {
        let mut e = lock(&entry);
        if e.thinking {
            return Err(ApiError::Conflict("the engine is thinking".into()));
        }
        e.play.undo()?;
    }
    Ok(state_json(&id, &entry).into_response())
}

async fn export(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let entry = app.get(&id)?;
    let export = lock(&entry).play.export();
    Ok(Json(export).into_response())
}

/// `GET /api/info`.
#[derive(serde::Serialize)]
struct Info<'a> {
    games: &'a [GameInfo],
    max_nodes: u64,
    max_ms: u64,
    max_sessions: usize,
    session_ttl_secs: u64,
    body_limit: usize,
}

async fn info(State(app): State<Arc<App>>) -> Response {
    let c = &app.config;
    Json(Info {
        games: &app.catalog.infos,
        max_nodes: c.max_nodes,
        max_ms: c.max_ms,
        max_sessions: c.max_sessions,
        session_ttl_secs: c.session_ttl.as_secs(),
        body_limit: c.body_limit,
    })
    .into_response()
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such path".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed("method not allowed on this path".into())
}

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let body = serde_json::json!({ "error": "internal error" }).to_string();
    (StatusCode::INTERNAL_SERVER_ERROR, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The router: the page (`/`, `/app.js`, `/style.css`) and the JSON API
/// under `/api`.
pub fn router(app: Arc<App>) -> Router {
    let limit = app.config.body_limit;
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }))
        .route("/api/info", get(info))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show).delete(remove))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/export", get(export))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panic_response))
        .with_state(app)
}

/// Expires idle sessions every `every` until the runtime stops.
pub(crate) fn spawn_sweeper(app: Arc<App>, every: Duration) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            app.expire_idle();
        }
    });
}
