//! `cargo xtask layering`: the dependency graph obeys the design card.
//!
//! - `search-core` and `equilibria` depend on no workspace crate;
//! - `games-small` and `strength` depend on `search-core` only (`strength`'s
//!   tests also play `games-small`'s games); `games-chess` on both of those
//!   below it (the UCI engine's strength dial);
//! - nothing but `experiments` and `play` depends on `games-chess` (GPL);
//! - nothing but `xtask` and `play` depends on `experiments` (unpublished);
//! - every crate depends only on crates of a lower layer.

use std::collections::BTreeMap;

use cargo_metadata::{DependencyKind, MetadataCommand};

use crate::TaskResult;

/// The layer of each workspace crate; a crate may depend only on lower layers.
const LAYERS: &[(&str, u32)] = &[
    ("search-core", 0),
    ("equilibria", 0),
    ("games-small", 1),
    ("strength", 1),
    ("games-chess", 2),
    ("gomocup", 2),
    ("benches", 3),
    ("experiments", 3),
    ("play", 4),
    ("xtask", 5),
];

/// Which workspace crates may depend on which (besides layering).
fn allowed(from: &str, to: &str) -> bool {
    let layer = |name: &str| LAYERS.iter().find(|l| l.0 == name).map(|l| l.1);
    let below = matches!((layer(from), layer(to)), (Some(a), Some(b)) if b < a);
    let chess_ok = to != "games-chess" || from == "experiments" || from == "play";
    let experiments_ok = to != "experiments" || from == "xtask" || from == "play";
    below && chess_ok && experiments_ok
}

/// A dev-dependency (tests, examples, doctests; never shipped) may also
/// reach sideways within a layer: `strength`'s tests play tic-tac-toe.
fn allowed_in_tests(from: &str, to: &str) -> bool {
    let layer = |name: &str| LAYERS.iter().find(|l| l.0 == name).map(|l| l.1);
    let same = matches!((layer(from), layer(to)), (Some(a), Some(b)) if a == b);
    same && to != "games-chess" && to != "experiments" || allowed(from, to)
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

/// The edges that break the rules.
fn violations() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    Ok(edges()?
        .into_iter()
        .filter(|(from, to, kind)| !(allowed(from, to) || kind == "dev" && allowed_in_tests(from, to)))
        .map(|(from, to, kind)| format!("{from} -> {to} ({kind})"))
        .collect())
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
    }
}
