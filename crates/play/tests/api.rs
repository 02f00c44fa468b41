//! The JSON API over HTTP (tower's `oneshot` on the router): every endpoint
//! and every error status.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use play::{App, Config, router};
use serde_json::{Value, json};
use tower::ServiceExt;

fn app_with(config: Config) -> (Arc<App>, Router) {
    let app = App::new(config).expect("the app loads");
    (app.clone(), router(app))
}

fn app() -> Router {
    app_with(Config { max_nodes: 200_000, ..Config::default() }).1
}

async fn call(router: &Router, method: Method, path: &str, body: Option<&str>) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let resp = router.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

async fn create(router: &Router, body: Value) -> Value {
    let (status, v) = call(router, Method::POST, "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v
}

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or_else(|| panic!("not an error body: {v}"))
}

#[tokio::test]
async fn create_show_move_undo_export_connect4() {
    let r = app();
    let v = create(&r, json!({"game": "connect4", "opponent": "elo:1200", "human": "first"})).await;
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["game"], "connect4");
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], "human");
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["legal"].as_array().unwrap().len(), 7);
    assert_eq!(v["board"]["width"], 7);
    assert_eq!(v["board"]["height"], 6);
    assert_eq!(v["board"]["input"], "column");
    assert!(v["reply"].is_null());

    let (status, s) = call(&r, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["id"], id.as_str());

    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "4"}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let moves = s["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0], "4");
    assert_eq!(s["to_move"], "human");
    let reply = &s["reply"];
    assert_eq!(reply["move"], moves[1]);
    assert!(reply["nodes"].as_u64().unwrap() > 0);
    assert!(reply["ms"].as_f64().unwrap() >= 0.0);
    assert!(reply["pv"].as_array().unwrap()[0] == reply["move"]);
    let dist = reply["distribution"].as_array().unwrap();
    let total: f64 = dist.iter().map(|d| d["p"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{dist:?}");
    assert!(dist.iter().all(|d| d["move"].is_string()));

    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["moves"], json!([]));
    // Nothing left to undo.
    let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&e).contains("nothing to undo"));

    // Same position, same seed: the same reply again.
    let (_, again) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "4"}"#)).await;
    assert_eq!(again["moves"], json!(moves));

    let (status, x) = call(&r, Method::GET, &format!("/api/games/{id}/export"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(x["format"], "moves");
    assert_eq!(x["text"].as_str().unwrap(), format!("4 {}", moves[1].as_str().unwrap()));

    let (status, _) = call(&r, Method::DELETE, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = call(&r, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_engine_replies_at_creation_when_it_moves_first() {
    let r = app();
    let v = create(&r, json!({"game": "tictactoe", "opponent": "alphabeta:depth=9", "human": "second"})).await;
    assert_eq!(v["moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["to_move"], "human");
    assert_eq!(v["human"], "second");
    assert!(v["reply"]["move"].is_string());
    // The node budget was added to the spec.
    assert_eq!(v["spec"], "alphabeta:depth=9,nodes=200000");
    assert_eq!(v["opponent"], "alphabeta:depth=9");
    // Undo is refused: the engine's first move was not answered yet.
    let id = v["id"].as_str().unwrap();
    let (status, _) = call(&r, Method::POST, &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_whole_tictactoe_game_ends_with_a_status() {
    let r = app();
    let v =
        create(&r, json!({"game": "tictactoe", "opponent": "alphabeta:depth=9", "human": "first", "seed": 5})).await;
    let id = v["id"].as_str().unwrap().to_string();
    let mut state = v;
    for _ in 0..5 {
        if state["status"] != "ongoing" {
            break;
        }
        let mv = state["legal"][0].as_str().unwrap().to_string();
        let (status, s) =
            call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(&json!({"move": mv}).to_string())).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        state = s;
    }
    // A perfect opponent never loses.
    assert!(state["status"] == "engine_won" || state["status"] == "draw", "{state}");
    assert!(state["detail"].is_string());
    assert_eq!(state["legal"], json!([]));
    let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "a1"}"#)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&e).contains("over"));
}

#[tokio::test]
async fn chess_from_a_fen_with_pgn_export() {
    let r = app();
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let v =
        create(&r, json!({"game": "chess", "opponent": "alphabeta:depth=2", "human": "first", "position": fen})).await;
    assert_eq!(v["board"]["fen"], fen);
    assert_eq!(v["board"]["input"], "from-to");
    assert!(v["legal"].as_array().unwrap().iter().any(|m| m == "e2e4"));
    let id = v["id"].as_str().unwrap();
    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "e2e4"}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let (_, x) = call(&r, Method::GET, &format!("/api/games/{id}/export"), None).await;
    assert_eq!(x["format"], "pgn");
    let pgn = x["text"].as_str().unwrap();
    assert!(pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 "), "{pgn}");
    assert!(pgn.contains("[White \"Human\"]"), "{pgn}");
    assert_eq!(x["position"], fen);
}

#[tokio::test]
async fn chess_move_line_import_check_and_mate() {
    let r = app();
    // Fool's mate: the human (black) mates with the import's last move... no:
    // import three plies, then the human plays the mate.
    let v =
        create(&r, json!({"game": "chess", "opponent": "random", "human": "second", "moves": "1. f3 e5 2. g4"})).await;
    assert_eq!(v["moves"], json!(["f2f3", "e7e5", "g2g4"]));
    assert_eq!(v["to_move"], "human");
    let id = v["id"].as_str().unwrap();
    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "d8h4"}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["status"], "human_won");
    assert_eq!(s["detail"], "checkmate");
    assert_eq!(s["board"]["check"], true);
    assert!(s["reply"].is_null());
    let (_, x) = call(&r, Method::GET, &format!("/api/games/{id}/export"), None).await;
    assert!(x["text"].as_str().unwrap().contains("2. g4 Qh4# 0-1"), "{x}");
}

#[tokio::test]
async fn promotion_is_a_move_with_a_piece_letter() {
    let r = app();
    let v =
        create(&r, json!({"game": "chess", "opponent": "random", "position": "8/4P3/8/8/8/k7/8/4K3 w - - 0 1"})).await;
    let legal: Vec<&str> = v["legal"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    for m in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
        assert!(legal.contains(&m), "{legal:?}");
    }
    let id = v["id"].as_str().unwrap();
    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "e7e8n"}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["moves"][0], "e7e8n");
}

#[tokio::test]
async fn gobang_and_info() {
    let r = app();
    let (status, info) = call(&r, Method::GET, "/api/info", None).await;
    assert_eq!(status, StatusCode::OK);
    let games = info["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["tictactoe", "connect4", "gobang", "chess"]);
    for g in games {
        assert!(g["presets"].as_array().unwrap().len() >= 4);
        assert!(g["kinds"].as_array().unwrap().iter().all(|k| !k[0].as_str().unwrap().starts_with("uci")));
    }
    let v = create(&r, json!({"game": "gobang", "opponent": "alphabeta:depth=1", "human": "first"})).await;
    assert_eq!(v["board"]["width"], 15);
    // A stone may go on any empty point (the engines consider only the
    // points near the stones).
    assert_eq!(v["legal"].as_array().unwrap().len(), 225);
    let id = v["id"].as_str().unwrap();
    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "h8"}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert_eq!(s["legal"].as_array().unwrap().len(), 223);
    let (status, s) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "a1"}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["moves"][2], "a1");
    let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "a1"}"#)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    // A move line may start anywhere too.
    let v = create(&r, json!({"game": "gobang", "opponent": "random", "moves": "a1 o15"})).await;
    assert_eq!(v["moves"], json!(["a1", "o15"]));
}

#[tokio::test]
async fn the_page_is_served() {
    let r = app();
    for (path, kind) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css")] {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let resp = r.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        let ct = resp.headers()["content-type"].to_str().unwrap().to_string();
        assert!(ct.starts_with(kind), "{path}: {ct}");
    }
}

#[tokio::test]
async fn errors_400_malformed() {
    let r = app();
    for body in
        ["", "{", "[1,2]", r#"{"opponent": "random"}"#, r#"{"game": 4}"#, r#"{"game": "connect4", "colour": "red"}"#]
    {
        let (status, e) = call(&r, Method::POST, "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {e}");
        error_of(&e);
    }
    let (status, e) = call(&r, Method::POST, "/api/games", Some(r#"{"game": "connect4", "human": "both"}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&e).contains("first"));
    let v = create(&r, json!({"game": "connect4", "opponent": "random"})).await;
    let id = v["id"].as_str().unwrap();
    for body in ["nope", r#"{"move": 4}"#, r#"{"mv": "4"}"#, r#"{"move": ""}"#, r#"{"move": "4\n"}"#] {
        let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(body)).await;
        // "4\n" is trimmed to a legal move.
        if body.contains("4\\n") {
            assert_eq!(status, StatusCode::OK, "{body}: {e}");
        } else {
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {e}");
            error_of(&e);
        }
    }
}

#[tokio::test]
async fn errors_404_unknown_game_or_path() {
    let r = app();
    for (method, path) in [
        (Method::GET, "/api/games/0123456789abcdef"),
        (Method::POST, "/api/games/0123456789abcdef/moves"),
        (Method::POST, "/api/games/0123456789abcdef/undo"),
        (Method::GET, "/api/games/0123456789abcdef/export"),
        (Method::DELETE, "/api/games/nope"),
        (Method::GET, "/api/nothing"),
        (Method::GET, "/favicon.ico"),
    ] {
        let (status, e) = call(&r, method.clone(), path, Some(r#"{"move": "4"}"#)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {e}");
        error_of(&e);
    }
}

#[tokio::test]
async fn errors_405_wrong_method() {
    let r = app();
    let (status, e) = call(&r, Method::DELETE, "/api/games", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    error_of(&e);
    let (status, _) = call(&r, Method::GET, "/api/games/x/moves", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn errors_409_illegal_move_or_not_your_turn() {
    let r = app();
    let v = create(&r, json!({"game": "connect4", "opponent": "random", "human": "first"})).await;
    let id = v["id"].as_str().unwrap();
    for mv in ["9", "x", "44", "e2e4"] {
        let (status, e) =
            call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(&json!({"move": mv}).to_string())).await;
        assert_eq!(status, StatusCode::CONFLICT, "{mv}: {e}");
        error_of(&e);
    }
    // A full column.
    let v = create(&r, json!({"game": "connect4", "opponent": "random", "moves": "1 1 1 1 1 1"})).await;
    let id = v["id"].as_str().unwrap();
    let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "1"}"#)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&e).contains("not a legal move"), "{e}");
    // Not the human's turn: an imported line leaves the engine to move,
    // which it does at once; the human plays second here, so after "4" the
    // engine replied and it is the human's turn again; a chess position
    // with the engine to move shows the same.
    let v = create(&r, json!({"game": "chess", "opponent": "random", "human": "second"})).await;
    assert_eq!(v["moves"].as_array().unwrap().len(), 1);
    let id = v["id"].as_str().unwrap();
    let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "e2e4"}"#)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
}

#[tokio::test]
async fn errors_409_while_the_engine_thinks() {
    let (_, r) = app_with(Config { max_nodes: 50_000_000, ..Config::default() });
    let v = create(&r, json!({"game": "chess", "opponent": "alphabeta:depth=30,nodes=3000000"})).await;
    let id = v["id"].as_str().unwrap().to_string();
    let r2 = r.clone();
    let path = format!("/api/games/{id}/moves");
    let slow = tokio::spawn(async move { call(&r2, Method::POST, &path, Some(r#"{"move": "e2e4"}"#)).await });
    // Wait until the search has started.
    let mut seen = false;
    for _ in 0..200 {
        let (_, s) = call(&r, Method::GET, &format!("/api/games/{id}"), None).await;
        if s["thinking"] == true {
            seen = true;
            assert_eq!(s["to_move"], "engine");
            let (status, e) =
                call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(r#"{"move": "e7e5"}"#)).await;
            assert_eq!(status, StatusCode::CONFLICT, "{e}");
            let (status, _) = call(&r, Method::POST, &format!("/api/games/{id}/undo"), None).await;
            assert_eq!(status, StatusCode::CONFLICT);
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (status, s) = slow.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{s}");
    assert!(seen, "the search was too quick to be seen");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn errors_413_too_large() {
    let r = app();
    let big = format!(r#"{{"game": "connect4", "opponent": "{}"}}"#, "x".repeat(100_000));
    let (status, e) = call(&r, Method::POST, "/api/games", Some(&big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    error_of(&e);
    let v = create(&r, json!({"game": "connect4", "opponent": "random"})).await;
    let id = v["id"].as_str().unwrap();
    let big = format!(r#"{{"move": "{}"}}"#, "4".repeat(50_000));
    let (status, e) = call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(&big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
}

#[tokio::test]
async fn errors_422_unknown_game_or_bad_spec() {
    let r = app();
    for (body, needle) in [
        (json!({"game": "go", "opponent": "random"}), "unknown game"),
        (json!({"game": "connect4", "opponent": "minimax"}), "unknown agent kind"),
        (json!({"game": "connect4", "opponent": "alphabeta"}), "depth"),
        (json!({"game": "connect4", "opponent": "alphabeta:depth=4,colour=red"}), "colour"),
        (json!({"game": "connect4", "opponent": "alphabeta:depth=4,nodes=999999999"}), "budget"),
        (json!({"game": "connect4", "opponent": "elo:99999"}), "elo"),
        (json!({"game": "connect4", "opponent": "mcts:ms=999999"}), "budget"),
        (json!({"game": "connect4", "opponent": "mcts:iters=1000,threads=8"}), "threads"),
        (json!({"game": "chess", "opponent": "aware:depth=30,theta=0.01"}), "limit"),
        (json!({"game": "chess", "opponent": "online:depth=3,opp_depth=30"}), "limit"),
        (json!({"game": "chess", "opponent": "uci:/bin/sh"}), "uci"),
        (json!({"game": "chess", "opponent": "random", "position": "not a fen"}), "FEN"),
        (json!({"game": "connect4", "opponent": "random", "position": "x"}), "no position format"),
        (json!({"game": "connect4", "opponent": "random", "moves": "1 2 9"}), "moves"),
    ] {
        let (status, e) = call(&r, Method::POST, "/api/games", Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {e}");
        assert!(error_of(&e).contains(needle), "{body}: {e}");
    }
    // The error quotes the spec as given, without the added node budget.
    let (_, e) =
        call(&r, Method::POST, "/api/games", Some(r#"{"game": "connect4", "opponent": "alphabeta:deep=4"}"#)).await;
    assert!(error_of(&e).starts_with("agent spec \"alphabeta:deep=4\":"), "{e}");
}

/// Every kind of opponent has a budget: a Monte Carlo spec asking for a
/// billion iterations stops at the time budget, the modelled kinds get a
/// node budget with `opp_depth` (their depth is capped otherwise).
#[tokio::test]
async fn every_kind_of_opponent_has_a_budget() {
    let (_, r) = app_with(Config { max_nodes: 200_000, max_ms: 20, ..Config::default() });
    let v = create(&r, json!({"game": "connect4", "opponent": "mcts:iters=1000000000", "human": "second"})).await;
    assert_eq!(v["spec"], "mcts:iters=1000000000,ms=20");
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    assert!(v["reply"]["move"].is_string(), "{v}");
    let v = create(&r, json!({"game": "chess", "opponent": "aware:depth=3,theta=0.01,opp_depth=2", "human": "second"}))
        .await;
    assert_eq!(v["spec"], "aware:depth=3,theta=0.01,opp_depth=2,nodes=200000");
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    let (_, info) = call(&r, Method::GET, "/api/info", None).await;
    assert_eq!(info["max_ms"], 20);
}

#[tokio::test]
async fn errors_503_when_full_and_sessions_expire() {
    let (app, r) = app_with(Config { max_sessions: 2, session_ttl: Duration::from_millis(200), ..Config::default() });
    create(&r, json!({"game": "tictactoe", "opponent": "random"})).await;
    create(&r, json!({"game": "tictactoe", "opponent": "random"})).await;
    let (status, e) =
        call(&r, Method::POST, "/api/games", Some(r#"{"game": "tictactoe", "opponent": "random"}"#)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    error_of(&e);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.expire_idle(), 2);
    assert_eq!(app.session_count(), 0);
    create(&r, json!({"game": "tictactoe", "opponent": "random"})).await;
}

#[tokio::test]
async fn sessions_are_separate_and_seeded() {
    let r = app();
    let body = json!({"game": "connect4", "opponent": "boltzmann:depth=2,theta=0.01,cap=100", "seed": 42});
    let mut lines = Vec::new();
    for _ in 0..3 {
        let v = create(&r, body.clone()).await;
        let id = v["id"].as_str().unwrap().to_string();
        let mut s = v;
        for mv in ["4", "4", "3"] {
            if s["status"] != "ongoing" || !s["legal"].as_array().unwrap().iter().any(|m| m == mv) {
                break;
            }
            let (_, next) =
                call(&r, Method::POST, &format!("/api/games/{id}/moves"), Some(&json!({"move": mv}).to_string())).await;
            s = next;
        }
        lines.push(s["moves"].clone());
    }
    assert_eq!(lines[0], lines[1]);
    assert_eq!(lines[1], lines[2]);
}

/// Plays `moves` for the human (each followed by the engine's reply).
async fn play_line(r: &Router, id: &str, moves: &[&str]) -> Value {
    let mut s = Value::Null;
    for mv in moves {
        let (status, next) =
            call(r, Method::POST, &format!("/api/games/{id}/moves"), Some(&json!({"move": mv}).to_string())).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {next}");
        s = next;
    }
    s
}

#[tokio::test]
async fn seeds_travel_as_strings_and_replay_the_game() {
    let r = app();
    // A seed beyond 2^53 (JavaScript's exact integers) comes back digit for digit.
    let big = "9982343471990070328";
    let body = json!({"game": "connect4", "opponent": "elo:800", "seed": big});
    let v = create(&r, body.clone()).await;
    assert_eq!(v["seed"], big);
    let first = play_line(&r, v["id"].as_str().unwrap(), &["1", "1", "2"]).await;
    // The same seed as a string or as a number, the same game.
    let again = create(&r, body).await;
    let second = play_line(&r, again["id"].as_str().unwrap(), &["1", "1", "2"]).await;
    assert_eq!(first["moves"], second["moves"]);
    let n = create(&r, json!({"game": "connect4", "opponent": "elo:800", "seed": 12345})).await;
    assert_eq!(n["seed"], "12345");
    // A server-chosen seed is a string too; replayed, it gives the same game.
    let v = create(&r, json!({"game": "connect4", "opponent": "elo:800"})).await;
    let seed = v["seed"].as_str().unwrap().to_string();
    assert!(seed.parse::<u64>().is_ok(), "{seed}");
    let a = play_line(&r, v["id"].as_str().unwrap(), &["4", "4"]).await;
    let w = create(&r, json!({"game": "connect4", "opponent": "elo:800", "seed": seed})).await;
    let b = play_line(&r, w["id"].as_str().unwrap(), &["4", "4"]).await;
    assert_eq!(a["moves"], b["moves"]);
    for bad in [json!(-1), json!(1.5), json!("18446744073709551616"), json!("seven"), json!([1])] {
        let (status, e) = call(
            &r,
            Method::POST,
            "/api/games",
            Some(&json!({"game": "connect4", "opponent": "random", "seed": bad}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {e}");
        assert!(error_of(&e).contains("\"seed\" must be a whole number"), "{e}");
    }
}

/// A new opponent during a game: the page starts a session from the same
/// start, moves and seed, and the game goes on against it.
#[tokio::test]
async fn a_game_goes_on_against_another_opponent() {
    let r = app();
    let v = create(&r, json!({"game": "chess", "opponent": "elo:1200", "seed": "7"})).await;
    let s = play_line(&r, v["id"].as_str().unwrap(), &["e2e4"]).await;
    let moves: Vec<&str> = s["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let body = json!({"game": "chess", "opponent": "alphabeta:depth=2", "seed": s["seed"], "moves": moves.join(" "),
                      "position": s["start_fen"]});
    let w = create(&r, body).await;
    assert_eq!(w["moves"], s["moves"]);
    assert_eq!(w["seed"], "7");
    let t = play_line(&r, w["id"].as_str().unwrap(), &["g1f3"]).await;
    assert!(t["spec"].as_str().unwrap().starts_with("alphabeta:depth=2,"), "{t}");
    assert_eq!(t["moves_display"][0], "e4");
    assert_eq!(t["moves_display"][2], "Nf3");
    assert_eq!(t["last_cells"].as_array().unwrap().len(), 2);
    let reply = &t["reply"];
    assert_eq!(reply["move_display"], t["moves_display"][3]);
    let value = reply["value_display"].as_str().unwrap();
    assert!(value.starts_with('+') || value.starts_with('-') || value.starts_with("mate"), "{value}");
    assert_eq!(reply["pv_display"][0], reply["move_display"]);
    // An Elo outside the dial, refused in words.
    let (status, e) =
        call(&r, Method::POST, "/api/games", Some(&json!({"game": "chess", "opponent": "elo:1500000"}).to_string()))
            .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let e = error_of(&e);
    let (_, info) = call(&r, Method::GET, "/api/info", None).await;
    let chess = info["games"].as_array().unwrap().iter().find(|g| g["name"] == "chess").unwrap();
    let (low, high) = (chess["dial"][0].as_f64().unwrap(), chess["dial"][1].as_f64().unwrap());
    let range = format!("goes from {low:.0} to {high:.0} (Elo on Stockfish's scale)");
    assert!(e.contains(&range) && !e.contains("..="), "{e}");
}

#[tokio::test]
async fn a_won_game_shows_its_line() {
    let r = app();
    // Tic-tac-toe against random play, the human on a1 b2 c3 while it can.
    let v = create(&r, json!({"game": "tictactoe", "opponent": "random", "seed": "3"})).await;
    let id = v["id"].as_str().unwrap().to_string();
    let mut s = v;
    while s["status"] == "ongoing" {
        let legal: Vec<String> = s["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
        let mv =
            ["a1", "b2", "c3", "a3", "c1", "b1", "b3", "a2", "c2"].into_iter().find(|m| legal.iter().any(|l| l == m));
        s = play_line(&r, &id, &[mv.unwrap()]).await;
        assert_eq!(s["last_cells"].as_array().unwrap().len(), 1, "{s}");
    }
    let line = s["winning_line"].as_array().unwrap();
    if s["status"] == "draw" {
        assert!(line.is_empty());
    } else {
        assert_eq!(line.len(), 3, "{s}");
    }
}

#[tokio::test]
async fn chess_against_a_human_like_player() {
    let r = app();
    let v =
        create(&r, json!({"game": "chess", "opponent": "human:1500,pick=mode", "human": "second", "seed": 3})).await;
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["spec"], "human:1500,pick=mode");
    assert!(v["reply"]["move"].is_string(), "{v}");
    let (status, v) = call(
        &r,
        Method::POST,
        "/api/games",
        Some(&json!({"game": "chess", "opponent": "human:1500,pick=best"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(error_of(&v).contains("pick"), "{v}");
}

/// Plays the first legal move until the game is over.
async fn play_out(r: &Router, mut state: Value) -> Value {
    let id = state["id"].as_str().unwrap().to_string();
    while state["status"] == "ongoing" {
        let mv = state["legal"][0].as_str().unwrap().to_string();
        let (status, s) =
            call(r, Method::POST, &format!("/api/games/{id}/moves"), Some(&json!({"move": mv}).to_string())).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        state = s;
    }
    state
}

/// A learning opponent (`online`, `adaptive`) is kept for the whole game
/// and handed on to the next game of a series (`after`), which says how
/// many games it has learnt from; other opponents have no memory.
#[tokio::test]
async fn a_learning_opponent_carries_over_a_series() {
    let r = app();
    let spec = "adaptive:target=0.5";
    let mut prev: Option<String> = None;
    for games in 0..3u64 {
        let mut body = json!({"game": "tictactoe", "opponent": spec, "human": "first", "seed": games});
        if let Some(p) = &prev {
            body["after"] = json!(p);
        }
        let v = create(&r, body).await;
        assert_eq!(v["memory"]["games"], games, "{v}");
        let end = play_out(&r, v).await;
        assert_ne!(end["status"], "ongoing");
        prev = Some(end["id"].as_str().unwrap().to_string());
    }
    let prev = prev.unwrap();
    // A series keeps the game and the opponent: nothing is handed over
    // otherwise, and the previous game keeps its opponent.
    for (game, opponent) in [("tictactoe", "online:depth=9"), ("connect4", spec)] {
        let body = json!({"game": game, "opponent": opponent, "after": prev});
        let (status, e) = call(&r, Method::POST, "/api/games", Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
        assert!(error_of(&e).contains("series"), "{e}");
    }
    let v = create(&r, json!({"game": "tictactoe", "opponent": spec, "after": prev})).await;
    assert_eq!(v["memory"]["games"], 3, "{v}");
    let (status, e) =
        call(&r, Method::POST, "/api/games", Some(&json!({"game": "tictactoe", "after": "nope"}).to_string())).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    let v = create(&r, json!({"game": "tictactoe", "opponent": "alphabeta:depth=9"})).await;
    assert!(v.get("memory").is_none(), "{v}");
}

/// The modelling opponents (`aware`, `online`, with and without
/// `opp_depth`) and `adaptive` report their search in the reply: the nodes
/// it visited and the depth it reached, not zeros.
#[tokio::test]
async fn modelling_opponents_report_nodes_and_depth() {
    let r = app();
    // (spec, the depth reported: `None` when a node budget decides).
    for (spec, depth) in [
        ("aware:depth=2,theta=0.1", Some(2)),
        ("aware:depth=3,theta=0.1,opp_depth=2", None),
        ("online:depth=2", Some(2)),
        ("online:depth=3,opp_depth=2,model_plies=1", None),
        ("adaptive:target=0.5", None),
    ] {
        let v = create(&r, json!({"game": "connect4", "opponent": spec, "human": "second"})).await;
        let reply = &v["reply"];
        assert!(reply["note"].is_null(), "{spec}: {reply}");
        assert!(reply["nodes"].as_u64().unwrap() > 0, "{spec}: {reply}");
        let reached = reply["depth"].as_u64().unwrap();
        match depth {
            Some(d) => assert_eq!(reached, d, "{spec}: {reply}"),
            None => assert!(reached >= 1, "{spec}: {reply}"),
        }
        assert!(reply["value"].is_number(), "{spec}: {reply}");
        assert_eq!(reply["pv"][0], reply["move"], "{spec}: {reply}");
    }
}
