//! `cargo xtask layering`: the dependency graph obeys the design card.
//!
//! - `search-core` depends on no workspace crate;
//! - `games-small` and `games-chess` depend on `search-core` only;
//! - nothing but `experiments` depends on `games-chess` (GPL);
//! - nothing but `xtask` depends on `experiments` (unpublished);
//! - every crate depends only on crates of a lower layer.

use std::collections::BTreeMap;

use cargo_metadata::{DependencyKind, MetadataCommand};

use crate::TaskResult;

/// The layer of each workspace crate; a crate may depend only on lower layers.
const LAYERS: &[(&str, u32)] =
    &[("search-core", 0), ("games-small", 1), ("games-chess", 1), ("benches", 2), ("experiments", 2), ("xtask", 3)];

/// Which workspace crates may depend on which (besides layering).
fn allowed(from: &str, to: &str) -> bool {
    let layer = |name: &str| LAYERS.iter().find(|l| l.0 == name).map(|l| l.1);
    let below = matches!((layer(from), layer(to)), (Some(a), Some(b)) if b < a);
    let chess_ok = to != "games-chess" || from == "experiments";
    let experiments_ok = to != "experiments" || from == "xtask";
    below && chess_ok && experiments_ok
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
        .filter(|(from, to, _)| !allowed(from, to))
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
    }
}
