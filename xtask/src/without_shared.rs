//! `cargo xtask test-without-shared`: the workspace's tests as a fresh
//! clone has them, without the shared test data.
//!
//! Only the test targets that can reach the data run again: the data is
//! found through the `test-data` crate alone (the layering task refuses any
//! other path to it), so a test binary that does not link `test-data` sees
//! the same thing with or without it. The binaries are the ones `cargo test
//! --workspace` built (listed with `--no-run`, nothing rebuilt: the features
//! are resolved for the whole workspace, as in that run); each runs from its
//! package's folder with [`test_data::ENV`] naming an empty folder. The
//! `test-data` crate's own doc-tests run too; no other doc-test names the
//! data.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::Instant;

use cargo_metadata::{DependencyKind, Metadata, MetadataCommand};

use crate::TaskResult;
use crate::fuzz::{executables, test_counts, verdict};

/// The crate through which every test finds the shared data.
const TEST_DATA: &str = "test-data";

/// The workspace packages whose tests link `test-data`: it, the packages
/// that depend on it (normal or dev), and those whose normal or dev
/// dependencies have it among their normal dependencies.
pub(crate) fn packages_that_see_the_data(metadata: &Metadata) -> BTreeSet<String> {
    let packages = metadata.workspace_packages();
    let deps = |name: &str, dev: bool| -> Vec<String> {
        packages
            .iter()
            .find(|p| p.name.as_str() == name)
            .map(|p| {
                p.dependencies
                    .iter()
                    .filter(|d| d.kind == DependencyKind::Normal || dev && d.kind == DependencyKind::Development)
                    .map(|d| d.name.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    // Packages whose library links test-data (normal dependencies only).
    let mut links: BTreeSet<String> = BTreeSet::from([TEST_DATA.to_string()]);
    loop {
        let before = links.len();
        for p in &packages {
            if deps(&p.name, false).iter().any(|d| links.contains(d)) {
                links.insert(p.name.to_string());
            }
        }
        if links.len() == before {
            break;
        }
    }
    packages
        .iter()
        .map(|p| p.name.to_string())
        .filter(|name| links.contains(name) || deps(name, true).iter().any(|d| links.contains(d)))
        .collect()
}

pub(crate) fn run() -> TaskResult {
    let metadata = MetadataCommand::new().no_deps().exec()?;
    let root = metadata.workspace_root.clone().into_std_path_buf();
    let seeing = packages_that_see_the_data(&metadata);
    eprintln!("test-without-shared: the tests of {}", seeing.iter().cloned().collect::<Vec<_>>().join(", "));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut list = Command::new(&cargo);
    list.current_dir(&root).args(["test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"]);
    let mut built = executables(&mut list, &metadata)?;
    built.retain(|b| seeing.contains(&b.package));
    built.sort_by(|a, b| (&a.package, &a.target).cmp(&(&b.package, &b.target)));
    let empty = std::env::temp_dir().join(format!("backup-rules-no-shared-{}", std::process::id()));
    std::fs::create_dir_all(&empty)?;
    let mut failed = Vec::new();
    let (mut passed_tests, start) = (0, Instant::now());
    for b in &built {
        let t = Instant::now();
        let out = Command::new(&b.exe)
            .current_dir(&b.dir)
            .env(test_data::ENV, &empty)
            .env("CARGO_MANIFEST_DIR", &b.dir)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", b.exe.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let counts = test_counts(&stdout);
        passed_tests += counts.map_or(0, |c| c.0);
        if !out.status.success() {
            print!("{stdout}");
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
            failed.push(format!("{}/{}", b.package, b.target));
        }
        let seconds = t.elapsed().as_secs_f64();
        eprintln!(
            "test-without-shared: {}/{}: {} in {seconds:.1} s",
            b.package,
            b.target,
            verdict(out.status.success(), counts)
        );
    }
    // test-data has no dependencies: its doc-tests build nothing else.
    let doc = Command::new(&cargo)
        .current_dir(&root)
        .args(["test", "--doc", "--package", TEST_DATA])
        .env(test_data::ENV, &empty)
        .status()?;
    if !doc.success() {
        failed.push(format!("{TEST_DATA} doc-tests"));
    }
    std::fs::remove_dir_all(&empty)?;
    eprintln!(
        "test-without-shared: {} test binaries, {passed_tests} tests passed, in {:.0} s",
        built.len(),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("without the shared data these failed: {}", failed.join(", ")).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packages whose tests can see the data include the ones that read
    /// it and exclude those that cannot link it.
    #[test]
    fn the_packages_that_link_test_data_are_found() {
        let metadata = MetadataCommand::new().no_deps().exec().unwrap();
        let seeing = packages_that_see_the_data(&metadata);
        for name in ["test-data", "games-small", "games-chess", "dial", "tools", "experiments", "xtask"] {
            assert!(seeing.contains(name), "{name}: {seeing:?}");
        }
        for name in ["search-core", "strength", "tournament", "play"] {
            assert!(!seeing.contains(name), "{name}: {seeing:?}");
        }
    }
}
