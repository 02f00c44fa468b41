//! `cargo xtask fuzz [--cases N]`: the property tests with many cases.
//!
//! The fuzz targets are the workspace's test targets named `fuzz_*`
//! (`crates/*/tests/fuzz_*.rs`), found with `cargo metadata`. They are built
//! first, in the workspace's `fuzz` profile (the `test` profile, with its
//! debug assertions and overflow checks, at opt-level 3: here the run, not
//! the build, is the cost), one `cargo test --no-run` per package; then each runs on
//! its own with `PROPTEST_CASES=N`, timed. A summary gives each target's
//! time and result; the task fails if any target fails.

use std::collections::BTreeMap;
use std::io::BufReader;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use cargo_metadata::{Message, Metadata, MetadataCommand};

use crate::TaskResult;

/// The default number of cases per property.
pub(crate) const DEFAULT_CASES: u32 = 20_000;

/// Arguments of `cargo xtask fuzz`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Args {
    /// Cases per property (PROPTEST_CASES).
    #[arg(long, default_value_t = DEFAULT_CASES, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) cases: u32,
}

/// The prefix that names a fuzz test target.
const PREFIX: &str = "fuzz_";

/// A test target to run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct FuzzTarget {
    /// The package that holds it.
    pub(crate) package: String,
    /// The test target's name (`fuzz_parsers`).
    pub(crate) name: String,
    /// The package's directory (tests run there, as under `cargo test`).
    pub(crate) dir: PathBuf,
}

/// The workspace's `fuzz_*` test targets, by package and name, and the
/// workspace root.
pub(crate) fn discover() -> Result<(Vec<FuzzTarget>, PathBuf), Box<dyn std::error::Error>> {
    let metadata = MetadataCommand::new().no_deps().exec()?;
    let mut targets = Vec::new();
    for package in metadata.workspace_packages() {
        let dir = package.manifest_path.parent().map(|d| d.as_std_path().to_path_buf()).unwrap_or_default();
        for target in &package.targets {
            if target.is_test() && target.name.starts_with(PREFIX) {
                targets.push(FuzzTarget {
                    package: package.name.to_string(),
                    name: target.name.clone(),
                    dir: dir.clone(),
                });
            }
        }
    }
    targets.sort();
    Ok((targets, metadata.workspace_root.into_std_path_buf()))
}

/// The counts of libtest's `test result:` line (`passed`, `failed`), summed
/// over the lines of `output`; `None` if there is none.
pub(crate) fn test_counts(output: &str) -> Option<(u64, u64)> {
    let mut found = None;
    for line in output.lines() {
        let Some(rest) = line.trim().strip_prefix("test result: ") else { continue };
        let count = |word: &str| {
            rest.split(';')
                .find_map(|part| {
                    part.trim().trim_start_matches("ok. ").trim_start_matches("FAILED. ").strip_suffix(word)
                })
                .and_then(|n| n.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        let (p, f) = found.unwrap_or((0, 0));
        found = Some((p + count("passed"), f + count("failed")));
    }
    found
}

/// One target's run.
#[derive(Debug)]
struct Outcome {
    target: FuzzTarget,
    seconds: f64,
    success: bool,
    counts: Option<(u64, u64)>,
}

pub(crate) fn run(args: Args) -> TaskResult {
    let cases = args.cases;
    let (targets, root) = discover()?;
    if targets.is_empty() {
        return Err(format!("no test targets named {PREFIX}* in the workspace").into());
    }
    let names: Vec<String> = targets.iter().map(|t| format!("{}/{}", t.package, t.name)).collect();
    eprintln!("fuzz: {} targets: {}", targets.len(), names.join(", "));
    let executables = build(&targets, &root)?;
    let mut outcomes = Vec::new();
    for target in targets {
        let exe = executables
            .get(&(target.package.clone(), target.name.clone()))
            .ok_or_else(|| format!("cargo built no executable for {}/{}", target.package, target.name))?;
        eprintln!("fuzz: {}/{} with PROPTEST_CASES={cases} ...", target.package, target.name);
        let start = Instant::now();
        let out = Command::new(exe)
            .current_dir(&target.dir)
            .env("PROPTEST_CASES", cases.to_string())
            .env("CARGO_MANIFEST_DIR", &target.dir)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let seconds = start.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let counts = test_counts(&stdout);
        let success = out.status.success();
        if !success {
            print!("{stdout}");
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
        }
        eprintln!("fuzz: {}/{}: {} in {seconds:.1} s", target.package, target.name, verdict(success, counts));
        outcomes.push(Outcome { target, seconds, success, counts });
    }
    println!("{}", summary(&outcomes, cases));
    let failed = outcomes.iter().filter(|o| !o.success).count();
    if failed > 0 {
        return Err(format!("{failed} of {} fuzz targets failed", outcomes.len()).into());
    }
    Ok(())
}

/// The Cargo profile the fuzz targets are built in.
const PROFILE: &str = "fuzz";

/// Builds the targets in the [`PROFILE`] profile (one cargo run per package) and
/// returns each one's executable, by (package, target).
fn build(
    targets: &[FuzzTarget],
    root: &PathBuf,
) -> Result<BTreeMap<(String, String), PathBuf>, Box<dyn std::error::Error>> {
    let mut by_package: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for t in targets {
        by_package.entry(&t.package).or_default().push(&t.name);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let metadata = MetadataCommand::new().no_deps().exec()?;
    let mut found = BTreeMap::new();
    for (package, names) in by_package {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(root).args([
            "test",
            "--no-run",
            "--profile",
            PROFILE,
            "--message-format=json-render-diagnostics",
            "--package",
            package,
        ]);
        for name in &names {
            cmd.args(["--test", name]);
        }
        eprintln!("fuzz: building {package}: {}", names.join(", "));
        for built in executables(&mut cmd, &metadata)? {
            if built.package == package && names.contains(&built.target.as_str()) {
                found.insert((built.package, built.target), built.exe);
            }
        }
    }
    Ok(found)
}

/// A test executable cargo built.
#[derive(Debug, Clone)]
pub(crate) struct TestExecutable {
    /// Its package's name.
    pub(crate) package: String,
    /// The target's name (`integration`, `fuzz_games`, the library's).
    pub(crate) target: String,
    /// The executable.
    pub(crate) exe: PathBuf,
    /// The package's folder (tests run there, as under `cargo test`).
    pub(crate) dir: PathBuf,
}

/// Runs `cmd` (a `cargo test --no-run --message-format=json...`) and
/// returns the test executables it built or found fresh, their packages
/// named from the workspace's `metadata`; an error if cargo fails.
pub(crate) fn executables(
    cmd: &mut Command,
    metadata: &Metadata,
) -> Result<Vec<TestExecutable>, Box<dyn std::error::Error>> {
    let mut child = cmd.stdout(Stdio::piped()).spawn()?;
    let stdout = child.stdout.take().ok_or("no cargo output")?;
    let mut found = Vec::new();
    for message in Message::parse_stream(BufReader::new(stdout)) {
        if let Message::CompilerArtifact(artifact) = message?
            && let Some(exe) = artifact.executable
            && artifact.profile.test
            && let Some(package) = metadata.packages.iter().find(|p| p.id == artifact.package_id)
        {
            let dir = package.manifest_path.parent().map(|d| d.as_std_path().to_path_buf()).unwrap_or_default();
            found.push(TestExecutable {
                package: package.name.to_string(),
                target: artifact.target.name.clone(),
                exe: exe.into_std_path_buf(),
                dir,
            });
        }
    }
    let status = child.wait()?;
    if !status.success() {
        return Err(format!("cargo failed ({status}): {cmd:?}").into());
    }
    Ok(found)
}

pub(crate) fn verdict(success: bool, counts: Option<(u64, u64)>) -> String {
    let word = if success { "ok" } else { "FAILED" };
    match counts {
        Some((passed, failed)) => format!("{word} ({passed} passed, {failed} failed)"),
        None => word.to_string(),
    }
}

/// The table printed at the end.
fn summary(outcomes: &[Outcome], cases: u32) -> String {
    let mut s = format!("fuzz run, PROPTEST_CASES={cases}, {PROFILE} profile:\n");
    for o in outcomes {
        let name = format!("{}/{}", o.target.package, o.target.name);
        s += &format!("  {name:<32} {:>8.1} s  {}\n", o.seconds, verdict(o.success, o.counts));
    }
    let total: f64 = outcomes.iter().map(|o| o.seconds).sum();
    let passed = outcomes.iter().filter(|o| o.success).count();
    s += &format!("  {passed} of {} targets passed in {total:.1} s", outcomes.len());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fuzz_targets_are_found() {
        let (targets, _) = discover().unwrap();
        let names: Vec<(&str, &str)> = targets.iter().map(|t| (t.package.as_str(), t.name.as_str())).collect();
        assert!(names.contains(&("search-core", "fuzz_parsers")), "{names:?}");
        assert!(names.contains(&("games-small", "fuzz_games")), "{names:?}");
        assert!(names.iter().all(|(_, n)| n.starts_with(PREFIX)));
        assert!(targets.iter().all(|t| t.dir.join("Cargo.toml").exists()));
    }

    #[test]
    fn libtest_summaries_are_counted() {
        let ok = "running 12 tests\n...\ntest result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; \
                  finished in 3.21s\n";
        assert_eq!(test_counts(ok), Some((12, 0)));
        let failed = "test result: FAILED. 10 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out\n";
        assert_eq!(test_counts(failed), Some((10, 2)));
        assert_eq!(test_counts("error: could not compile"), None);
    }
}
