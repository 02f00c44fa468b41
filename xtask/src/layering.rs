//! `cargo xtask layering`: the dependency graph obeys the design card.
//!
//! - `search-core` and `equilibria` depend on no workspace crate;
//! - `games-small` and `strength` depend on `search-core` only (`strength`'s
//!   tests also play `games-small`'s games); `games-chess` on both of those
//!   below it (the UCI engine's strength dial);
//! - nothing but the applications (`registry`, `dial`, `tools`,
//!   `experiments`, `play`, and the Python package behind its `chess`
//!   feature) depends on `games-chess` (GPL);
//! - `strength` and `tournament` depend on no game crate (their tests may
//!   play `games-small`'s games);
//! - nothing but `xtask` depends on the task crates (`experiments`, `dial`,
//!   `tools`: unpublished); the built-in games are registered once, in
//!   `registry`, which the web app (`play`) uses instead;
//! - every crate depends only on crates of a lower layer;
//! - `othello`, the proof that a game the workspace does not ship gets the
//!   whole dial, depends on the published `search-core`, `strength` and
//!   `tournament` only, in its tests and examples too;
//! - `test-data` (unpublished: where the optional shared test data is) is a
//!   dev-dependency of published crates, never a normal one;
//! - no source file but `test-data`'s names the shared test-data folder, so
//!   that `BACKUP_RULES_SHARED` (CI's fresh-clone run) reaches every test.

use std::collections::BTreeMap;

use cargo_metadata::{DependencyKind, MetadataCommand};

use crate::TaskResult;

/// The layer of each workspace crate; a crate may depend only on lower layers.
const LAYERS: &[(&str, u32)] = &[
    ("search-core", 0),
    ("test-data", 0),
    ("equilibria", 0),
    ("games-small", 1),
    ("strength", 1),
    ("games-chess", 2),
    ("tournament", 2),
    ("gomocup", 2),
    ("othello", 3),
    ("benches", 3),
    ("taskkit", 3),
    ("registry", 3),
    ("backup-rules-python", 3),
    ("experiments", 4),
    ("dial", 4),
    ("tools", 4),
    ("play", 4),
    ("xtask", 5),
];

/// Which workspace crates may depend on which (besides layering).
fn allowed(from: &str, to: &str) -> bool {
    let layer = |name: &str| LAYERS.iter().find(|l| l.0 == name).map(|l| l.1);
    let below = matches!((layer(from), layer(to)), (Some(a), Some(b)) if b < a);
    let chess_ok = to != "games-chess" || APPLICATIONS.contains(&from);
    let experiments_ok = !TASKS.contains(&to) || from == "xtask";
    let test_data_ok = to != "test-data" || UNPUBLISHED.contains(&from);
    let gameless_ok = !(GAMELESS.contains(&from) && GAMES.contains(&to));
    // Benchmarks are a leaf: nothing builds on them.
    let benches_ok = to != "benches";
    below && chess_ok && experiments_ok && test_data_ok && gameless_ok && benches_ok && downstream_ok(from, to)
}

/// The crates that may link the GPL chess crate: the applications (the
/// Python package only behind its optional `chess` feature).
const APPLICATIONS: &[&str] = &["registry", "dial", "tools", "experiments", "play", "backup-rules-python"];

/// The crates of `cargo xtask`'s commands: only `xtask` depends on them.
const TASKS: &[&str] = &["experiments", "dial", "tools"];

/// Crates written as a downstream user would: a game of their own on the
/// published crates that give the dial, and nothing else.
const DOWNSTREAM: &[&str] = &["othello"];

/// What a [`DOWNSTREAM`] crate may depend on, in any kind of dependency.
const FOR_DOWNSTREAM: &[&str] = &["search-core", "strength", "tournament"];

fn downstream_ok(from: &str, to: &str) -> bool {
    !DOWNSTREAM.contains(&from) || FOR_DOWNSTREAM.contains(&to)
}

/// The published crates that take a game as a value and know none by name.
const GAMELESS: &[&str] = &["strength", "tournament"];

/// The crates that implement games.
const GAMES: &[&str] = &["games-small", "games-chess"];

/// The crates that are never published (they may depend on unpublished ones).
const UNPUBLISHED: &[&str] = &[
    "taskkit",
    "registry",
    "dial",
    "tools",
    "experiments",
    "gomocup",
    "play",
    "xtask",
    "benches",
    "backup-rules-python",
];

/// A dev-dependency (tests, examples, doctests; never shipped) may also
/// reach sideways within a layer: `strength`'s tests play tic-tac-toe.
fn allowed_in_tests(from: &str, to: &str) -> bool {
    let layer = |name: &str| LAYERS.iter().find(|l| l.0 == name).map(|l| l.1);
    let same = matches!((layer(from), layer(to)), (Some(a), Some(b)) if a == b);
    let below = matches!((layer(from), layer(to)), (Some(a), Some(b)) if b < a);
    let games_in_tests = GAMELESS.contains(&from) && (same || below) && to == "games-small";
    let sideways = same && to != "games-chess" && !TASKS.contains(&to) || to == "test-data" || games_in_tests;
    sideways && downstream_ok(from, to) || allowed(from, to)
}

/// A dependency edge: (from, to, kind).
type Edge = (String, String, String);

/// The workspace's internal dependency edges (normal, dev and build).
fn edges() -> Result<Vec<Edge>, Box<dyn std::error::Error>> {
    let metadata = MetadataCommand::new().no_deps().exec()?;
    let members: BTreeMap<String, ()> =
        metadata.workspace_packages().iter().map(|p| (p.name.to_string(), ())).collect();
    let mut out = Vec::new();
    for package in metadata.workspace_packages() {
        for dep in &package.dependencies {
            if members.contains_key(dep.name.as_str()) {
                let kind = match dep.kind {
                    DependencyKind::Development => "dev",
                    DependencyKind::Build => "build",
                    _ => "normal",
                };
                out.push((package.name.to_string(), dep.name.clone(), kind.to_string()));
            }
        }
    }
    Ok(out)
}

/// The edges that break the rules, and the source lines that name the
/// shared test-data folder outside `test-data`.
fn violations() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut bad: Vec<String> = edges()?
        .into_iter()
        .filter(|(from, to, kind)| !(allowed(from, to) || kind == "dev" && allowed_in_tests(from, to)))
        .map(|(from, to, kind)| format!("{from} -> {to} ({kind})"))
        .collect();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for dir in ["crates", "xtask", "benches"] {
        shared_paths(&root.join(dir), &mut bad)?;
    }
    Ok(bad)
}

/// How a path to the shared folder is spelled (split, so that this file
/// does not match itself).
const SHARED: &str = concat!("..", "/shared");

/// Code lines (not comments) of `.rs` files under `dir` that spell a path to
/// the shared test-data folder, except in the `test-data` crate.
fn shared_paths(dir: &std::path::Path, bad: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if !path.ends_with("test-data") && !path.ends_with("target") {
                shared_paths(&path, bad)?;
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path)?;
            for (i, line) in text.lines().enumerate() {
                if !line.trim_start().starts_with("//") && line.contains(SHARED) {
                    bad.push(format!(
                        "{}:{}: names the shared test data: use the test-data crate",
                        path.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    Ok(())
}

pub(crate) fn run() -> TaskResult {
    for (from, to, kind) in edges()? {
        println!("{from} -> {to} ({kind})");
    }
    let bad = violations()?;
    if bad.is_empty() {
        println!("layering: ok");
        Ok(())
    } else {
        Err(format!("layering violated: {}", bad.join(", ")).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_obeys_the_layering() {
        assert_eq!(violations().unwrap(), Vec::<String>::new());
        let edges = edges().unwrap();
        assert!(edges.iter().any(|e| e.0 == "games-small" && e.1 == "search-core"));
        assert!(edges.iter().any(|e| e.0 == "xtask" && e.1 == "experiments"));
    }

    #[test]
    fn the_rules_reject_what_the_design_card_forbids() {
        assert!(!allowed("search-core", "games-small"));
        assert!(!allowed("games-small", "games-chess"));
        assert!(!allowed("benches", "games-chess"));
        assert!(!allowed("games-chess", "xtask"));
        assert!(!allowed("xtask", "games-chess"));
        assert!(allowed("experiments", "games-chess"));
        assert!(allowed("experiments", "games-small"));
        assert!(allowed("experiments", "search-core"));
        assert!(allowed("xtask", "experiments"));
        assert!(!allowed("benches", "experiments"));
        assert!(!allowed("games-small", "experiments"));
        assert!(!allowed("experiments", "benches"));
        assert!(!allowed("experiments", "xtask"));
        assert!(allowed("games-chess", "search-core"));
        assert!(allowed("games-chess", "strength"));
        assert!(!allowed("strength", "games-small"));
        assert!(allowed_in_tests("strength", "games-small"));
        assert!(!allowed("strength", "games-chess"));
        assert!(!allowed_in_tests("strength", "games-chess"));
        assert!(!allowed("search-core", "strength"));
        assert!(allowed("experiments", "equilibria"));
        assert!(!allowed("equilibria", "search-core"));
        assert!(!allowed("search-core", "equilibria"));
        assert!(!allowed("games-small", "test-data"));
        assert!(allowed("tournament", "strength"));
        assert!(allowed("tournament", "search-core"));
        assert!(!allowed("tournament", "games-small"));
        assert!(allowed_in_tests("tournament", "games-small"));
        assert!(!allowed_in_tests("tournament", "games-chess"));
        assert!(allowed("experiments", "tournament"));
        assert!(allowed_in_tests("games-small", "test-data"));
        assert!(allowed_in_tests("games-chess", "test-data"));
        assert!(allowed("experiments", "test-data"));
        assert!(!allowed("test-data", "search-core"));
        assert!(allowed("othello", "tournament") && allowed("othello", "search-core"));
        assert!(!allowed("othello", "games-small") && !allowed_in_tests("othello", "games-small"));
        assert!(!allowed_in_tests("othello", "test-data") && !allowed_in_tests("othello", "experiments"));
        // The web app reaches the built-in games through the registry, not
        // through a task crate.
        assert!(allowed("play", "registry") && allowed("dial", "registry") && allowed("tools", "registry"));
        for task in ["experiments", "dial", "tools"] {
            assert!(!allowed("play", task) && !allowed_in_tests("play", task), "{task}");
            assert!(allowed("xtask", task), "{task}");
        }
        assert!(!allowed("dial", "tools") && !allowed("tools", "dial") && !allowed("experiments", "dial"));
        assert!(allowed("registry", "games-chess") && !allowed("taskkit", "games-chess"));
        assert!(!allowed("registry", "dial") && !allowed("taskkit", "registry"));
    }

    #[test]
    fn a_path_to_the_shared_data_outside_test_data_is_found() {
        let dir = std::env::temp_dir().join(format!("layering-shared-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("test-data")).unwrap();
        std::fs::write(dir.join("a.rs"), format!("// {SHARED} in a comment is fine\nlet p = \"{SHARED}/x\";\n"))
            .unwrap();
        std::fs::write(dir.join("test-data/lib.rs"), format!("let p = \"{SHARED}\";\n")).unwrap();
        let mut bad = Vec::new();
        shared_paths(&dir, &mut bad).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].contains("a.rs:2"), "{bad:?}");
    }
}
