//! A small run of the load test (`cargo xtask loadtest` runs the larger
//! ones): 200 concurrent sessions of a few moves, one request in ten
//! malformed; no 5xx, no panic, no unexpected status.

use play::loadtest::{Options, run};

#[test]
fn two_hundred_concurrent_sessions() {
    let sessions = std::env::var("PLAY_LOADTEST_SESSIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let max_moves = std::env::var("PLAY_LOADTEST_MOVES").ok().and_then(|s| s.parse().ok()).unwrap_or(4);
    let report = run(Options { sessions, max_moves, ..Options::quick() }).expect("the server starts");
    println!("{report}");
    assert!(report.passed(), "{report}");
    assert_eq!(report.server_errors, 0);
    assert!(report.malformed > 0);
}
