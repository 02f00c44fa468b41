//! `cargo xtask reproduce`: nothing lost, nothing silently wrong.
//!
//! Runs the built binary on cheap experiments: killed at random moments it
//! resumes to the uninterrupted result; a tampered, truncated or garbled
//! cell is recomputed with a warning; another seed or scale into the same
//! `--out` is refused; an unwritable `--out` is refused before any compute;
//! `merge` takes the seed and scale from the shards and says what is missing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Cheap experiments (well under a second together).
const CHEAP: &[&str] = &["rminimax-table2", "lecture-alphabeta", "iom-fig4-error"];

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).arg("reproduce").args(args).output().expect("xtask runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `reproduce --quick --seed 7 --out OUT EXTRA... NAMES...`, which must succeed.
fn run_ok(out: &Path, extra: &[&str], names: &[&str]) -> String {
    let o = run(out, extra, names);
    assert!(o.status.success(), "reproduce into {} failed:\n{}", out.display(), stderr(&o));
    stderr(&o)
}

fn run(out: &Path, extra: &[&str], names: &[&str]) -> Output {
    let mut args = vec!["--quick", "--seed", "7", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.extend_from_slice(names);
    xtask(&args)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-robust-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn is_timing(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    // A cell's checksum covers its timing too.
    key == "seconds"
        || key == "sha256"
        || key.contains("micros")
        || key.ends_with("_ms")
        || key.contains("ms_per")
        || key.contains("elapsed")
}

fn strip_timing(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !is_timing(k));
            m.values_mut().for_each(strip_timing);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_timing),
        _ => {}
    }
}

/// Every JSON, CSV, SVG and Markdown file under `out` (cells and manifest
/// included) by relative path, without timing fields, columns or lines.
/// Asserts that no temporary file was left behind.
fn outputs(out: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![out.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let name = path.strip_prefix(out).unwrap().to_string_lossy().into_owned();
            assert!(!name.ends_with(".tmp"), "temporary file left behind: {name}");
            let text = fs::read_to_string(&path).unwrap();
            let normal = match path.extension().and_then(|e| e.to_str()) {
                Some("json") => {
                    let mut v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
                    strip_timing(&mut v);
                    serde_json::to_string_pretty(&v).unwrap()
                }
                Some("csv") => {
                    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
                    let keep: Vec<bool> = rows.first().map_or(vec![], |h| h.iter().map(|c| !is_timing(c)).collect());
                    rows.iter()
                        .map(|r| {
                            r.iter().zip(&keep).filter(|(_, k)| **k).map(|(c, _)| *c).collect::<Vec<_>>().join(",")
                        })
                        .collect::<Vec<_>>()
                        .join("\n")
                }
                Some("md") => text
                    .lines()
                    .filter(|l| !["seconds", " ms", "elapsed"].iter().any(|t| l.to_ascii_lowercase().contains(t)))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Some("svg") => text,
                _ => continue,
            };
            files.insert(name, normal);
        }
    }
    assert!(files.contains_key("report.md"), "no report in {}", out.display());
    files
}

fn assert_same(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "different files");
    for (name, text) in a {
        assert!(*text == b[name], "{name} differs");
    }
}

fn cell_files(out: &Path) -> usize {
    let Ok(dirs) = fs::read_dir(out.join("cells")) else { return 0 };
    dirs.flatten()
        .map(|d| {
            fs::read_dir(d.path())
                .map(|f| f.flatten().filter(|f| f.path().extension().is_some_and(|e| e == "json")).count())
                .unwrap_or(0)
        })
        .sum()
}

/// SplitMix64: the test's own seeded randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Item 21: killed by SIGINT, SIGTERM or SIGKILL at seeded-random moments,
/// eight times, each time resumed: the final outputs are the uninterrupted
/// run's, finished cells are never lost, and no cell is ever found damaged.
#[cfg(unix)]
#[test]
fn runs_killed_at_random_moments_resume_to_the_uninterrupted_result() {
    use std::os::unix::process::ExitStatusExt;

    let names = ["rminimax-table2", "lecture-alphabeta", "iom-fig4-error", "rminimax-fig2-tictactoe"];
    let (reference, killed) = (scratch("kill-ref"), scratch("kill-resumed"));
    let started = Instant::now();
    run_ok(&reference, &[], &names);
    let full_run = started.elapsed();

    let total = cell_files(&reference);

    let mut rng = Rng(0x5eed_2013);
    let mut saved = 0;
    let mut interrupted = 0;
    for round in 0..8 {
        let signal = ["INT", "TERM", "KILL"][round % 3];
        // A random moment within the work that is left (a resumed run has
        // less to do): early, late, at start-up, during writes.
        let left = full_run.as_micros() as u64 * (total - saved.min(total)) as u64 / total as u64;
        let delay = Duration::from_micros(rng.next() % left.max(1));
        let child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["reproduce", "--quick", "--seed", "7", "--out", killed.to_str().unwrap()])
            .args(names)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = Command::new("kill").args(["-s", signal, &child.id().to_string()]).stderr(Stdio::null()).status();
        let o = child.wait_with_output().unwrap();
        if o.status.signal().is_some() {
            interrupted += 1;
        }
        let err = stderr(&o);
        eprintln!("round {round}: SIG{signal} after {delay:?}: {} ({} cells saved)", o.status, cell_files(&killed));
        assert!(!err.contains("warning"), "round {round}: a damaged cell was found after a kill:\n{err}");
        let now = cell_files(&killed);
        assert!(now >= saved, "round {round} ({signal} after {delay:?}): cells lost ({saved} -> {now})");
        saved = now;
    }
    assert!(interrupted > 0, "no run was interrupted: the test proved nothing");
    let err = run_ok(&killed, &[], &names);
    assert!(!err.contains("warning"), "{err}");
    assert_same(&outputs(&reference), &outputs(&killed));
    // And once complete, a rerun computes nothing and changes nothing.
    let err = run_ok(&killed, &[], &names);
    assert!(err.contains(" 0 cells to run"), "{err}");
    assert_same(&outputs(&reference), &outputs(&killed));
    let _ = (fs::remove_dir_all(&reference), fs::remove_dir_all(&killed));
}

/// The first of `pointers` present in `v` (the test does not depend on the
/// cell file's layout).
fn field<'a>(v: &'a mut Value, pointers: &[&str]) -> &'a mut Value {
    let p = pointers.iter().find(|p| v.pointer(p).is_some()).unwrap_or_else(|| panic!("none of {pointers:?}"));
    v.pointer_mut(p).unwrap()
}

/// Item 17: a tampered but well-formed cell is not believed.
#[test]
fn a_tampered_cell_is_recomputed_with_a_warning() {
    let out = scratch("tampered");
    run_ok(&out, &[], CHEAP);
    let before = outputs(&out);
    let cell = out.join("cells/rminimax-table2/table.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&cell).unwrap()).unwrap();
    // Change one number of the results, keeping the file well formed.
    let row = field(&mut v, &["/content/rows/0", "/rows/0"]).as_object_mut().expect("a cell row");
    let (key, x) = row.iter().find_map(|(k, x)| x.as_f64().map(|x| (k.clone(), x))).expect("a number");
    row.insert(key, serde_json::json!(x + 0.25));
    fs::write(&cell, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    // A changed parameter (here the master seed) is as bad.
    let other = out.join("cells/iom-fig4-error/e-03.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&other).unwrap()).unwrap();
    *field(&mut v, &["/content/master_seed", "/seed"]) = serde_json::json!(8);
    fs::write(&other, serde_json::to_string_pretty(&v).unwrap()).unwrap();

    let err = run_ok(&out, &[], CHEAP);
    for path in [&cell, &other] {
        let name = path.to_str().unwrap();
        assert!(err.lines().any(|l| l.starts_with("warning") && l.contains(name) && l.contains("checksum")), "{err}");
        assert!(Path::new(&format!("{name}.rejected")).exists(), "the tampered file is kept aside");
    }
    assert!(err.contains(" 2 cells to run"), "{err}");
    assert_same(&before, &outputs(&out));
    let _ = fs::remove_dir_all(&out);
}

/// Item 17: a truncated or garbled cell (a kill mid-write, a bad disk) is
/// treated as a tampered one.
#[test]
fn a_truncated_or_garbled_cell_is_recomputed_with_a_warning() {
    let out = scratch("truncated");
    run_ok(&out, &[], CHEAP);
    let before = outputs(&out);
    let truncated = out.join("cells/lecture-alphabeta/tictactoe.json");
    let text = fs::read_to_string(&truncated).unwrap();
    fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let garbled = out.join("cells/lecture-alphabeta/random-b4-d6.json");
    fs::write(&garbled, "\0\0 not json").unwrap();
    let empty = out.join("cells/iom-fig4-error/e-00.json");
    fs::write(&empty, "").unwrap();

    let err = run_ok(&out, &[], CHEAP);
    for path in [&truncated, &garbled, &empty] {
        let name = path.to_str().unwrap();
        assert!(err.lines().any(|l| l.starts_with("warning") && l.contains(name)), "no warning for {name}:\n{err}");
    }
    assert!(err.contains(" 3 cells to run"), "{err}");
    assert_same(&before, &outputs(&out));
    let _ = fs::remove_dir_all(&out);
}

/// Item 18: another seed or scale into an existing `--out` is refused
/// before anything is computed or written.
#[test]
fn another_seed_or_scale_into_the_same_out_is_refused() {
    let out = scratch("mixed");
    run_ok(&out, &[], CHEAP);
    let before = outputs(&out);
    for args in [
        vec!["--quick", "--seed", "8"],
        vec!["--seed", "7"],
        vec!["--full", "--seed", "7"],
        vec!["--quick"], // the default seed
    ] {
        let mut all = args.clone();
        all.extend(["--out", out.to_str().unwrap()]);
        all.extend_from_slice(CHEAP);
        let o = xtask(&all);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?} was accepted:\n{err}");
        assert!(err.contains("seed 7, quick scale") && err.contains("never mixed"), "{args:?}: {err}");
        assert!(!err.contains("cells to run"), "{args:?} started computing:\n{err}");
        assert_same(&before, &outputs(&out));
    }
    // The same run again is welcome, and has nothing to do.
    assert!(run_ok(&out, &[], CHEAP).contains(" 0 cells to run"));
    let _ = fs::remove_dir_all(&out);
}

/// Item 19: an unwritable `--out` is found before the first cell. (A path
/// under a regular file: tests may run as root, whom permissions do not stop.)
#[test]
fn an_unwritable_out_is_refused_before_any_compute() {
    let base = scratch("unwritable");
    fs::create_dir_all(&base).unwrap();
    let file = base.join("a-file");
    fs::write(&file, "").unwrap();
    // `cells` a regular file: the directory is writable, its cell store not.
    let blocked = base.join("blocked");
    fs::create_dir_all(&blocked).unwrap();
    fs::write(blocked.join("cells"), "").unwrap();
    for out in [file.join("out"), file.clone(), blocked] {
        let started = Instant::now();
        let o = run(&out, &[], &["rminimax-fig2-tictactoe"]);
        let err = stderr(&o);
        assert!(!o.status.success(), "{}: accepted", out.display());
        assert!(err.contains("cannot write") && err.contains("nothing was computed"), "{}: {err}", out.display());
        assert!(
            !err.contains("cells to run") && !err.contains("cannot save"),
            "{}: computed first:\n{err}",
            out.display()
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    let _ = fs::remove_dir_all(&base);
}

/// Item 20: `merge` without `--seed` or `--quick` takes them from the
/// shards' manifests, says which shard is missing, and refuses to mix runs.
#[test]
fn merge_takes_the_shards_run_and_says_what_is_missing() {
    let (single, s0, s1, merged, partial, seed8) =
        (scratch("single"), scratch("s0"), scratch("s1"), scratch("merged"), scratch("partial"), scratch("seed8"));
    run_ok(&single, &[], CHEAP);
    run_ok(&s0, &["--shard", "0/2"], CHEAP);
    run_ok(&s1, &["--shard", "1/2"], CHEAP);
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();

    // One shard: incomplete, and the message names the missing shard and the cells.
    let o = xtask(&["merge", &path(&s0), "--out", &path(&partial)]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("seed 7, quick scale"), "{err}");
    assert!(err.contains("Shard 1/2") && err.contains("--shard I/2 --seed 7 --quick"), "{err}");
    assert!(err.contains("lecture-alphabeta: 3 of 5 cells missing: 3 absent"), "{err}");

    // Both shards, no --seed, no --quick: the single run's result.
    let o = xtask(&["merge", &path(&s0), &path(&s1), "--out", &path(&merged)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("incomplete"), "{}", stderr(&o));
    let mut expected = outputs(&single);
    let mut got = outputs(&merged);
    // The manifests differ by the shares recorded; everything else is equal.
    for m in [&mut expected, &mut got] {
        let text = m.remove("manifest.json").unwrap();
        let mut v: Value = serde_json::from_str(&text).unwrap();
        v.as_object_mut().unwrap().remove("shards");
        m.insert("manifest.json".into(), v.to_string());
    }
    assert_same(&expected, &got);

    // Another seed asked for, or shards of two runs: refused.
    let refused = scratch("refused");
    let o = xtask(&["merge", &path(&s0), &path(&s1), "--seed", "8", "--out", &path(&refused)]);
    assert!(!o.status.success() && stderr(&o).contains("seed 8"), "{}", stderr(&o));
    let o = xtask(&["merge", &path(&s0), &path(&s1), "--full", "--out", &path(&refused)]);
    assert!(!o.status.success() && stderr(&o).contains("full scale"), "{}", stderr(&o));
    let mut args = vec!["--quick", "--seed", "8", "--shard", "1/2", "--out"];
    let seed8_out = path(&seed8);
    args.push(&seed8_out);
    args.extend_from_slice(CHEAP);
    let o = xtask(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = xtask(&["merge", &path(&s0), &path(&seed8), "--out", &path(&refused)]);
    let err = stderr(&o);
    assert!(!o.status.success() && err.contains("different runs") && err.contains("seed 8"), "{err}");
    // A directory that is no reproduce output.
    let o = xtask(&["merge", &path(&single.join("cells")), "--out", &path(&refused)]);
    assert!(!o.status.success() && stderr(&o).contains("no manifest.json"), "{}", stderr(&o));
    assert!(!refused.exists(), "a refused merge wrote nothing");
    for d in [single, s0, s1, merged, partial, seed8] {
        let _ = fs::remove_dir_all(d);
    }
}
