//! The cell store: long runs of games (or any computation split into cells)
//! that lose nothing when interrupted and never mix two runs.
//!
//! A run is split into *cells*, independent units of work with a stable id
//! (a batch of paired games, a table cell), each with its own seed derived
//! from the run's master seed, so that results do not depend on the thread
//! count or the order cells run in. The store keeps each finished cell in an
//! output directory `OUT`:
//!
//! * `OUT/manifest.json` records the run the directory belongs to (master
//!   seed, scale, the experiments run into it). A run or a merge with another
//!   seed or scale is refused before anything is computed: cells of two runs
//!   are never mixed.
//! * `OUT/cells/<experiment>/<cell>.json` holds one cell: its content (the
//!   rows, and the parameters they were made with: experiment, cell, master
//!   and cell seed, scale, the experiment's code version and parameters) and
//!   a SHA-256 checksum of that content. A cell is used only if its checksum
//!   holds and its parameters are this run's; a tampered, truncated or garbled
//!   cell is moved aside (`.rejected`) and recomputed, with a warning.
//! * Every file is written atomically: a temporary file in the same
//!   directory, flushed to disk (`fsync`), then renamed over the target, and
//!   the directory synced. A run killed at any moment leaves each file either
//!   old or new, never partial.
//! * `OUT/.lock` is held (an advisory lock, released by the system when the
//!   process dies, however it dies) while a run writes into `OUT`: two runs
//!   into one directory are refused.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// A flat result row of a cell.
pub type Row = Map<String, Value>;

/// How big a run is (recorded with every cell: cells of two scales are
/// never mixed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scale {
    /// A smoke run (CI).
    Quick,
    /// The default size.
    Default,
    /// The largest size (a paper's own scale).
    Full,
}

impl Scale {
    /// Picks a size by scale.
    pub fn pick<T>(self, quick: T, default: T, full: T) -> T {
        match self {
            Scale::Quick => quick,
            Scale::Default => default,
            Scale::Full => full,
        }
    }

    /// `quick`, `default` or `full`.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Default => "default",
            Scale::Full => "full",
        }
    }

    /// The scale of a [`Scale::name`].
    pub fn from_name(name: &str) -> Option<Scale> {
        [Scale::Quick, Scale::Default, Scale::Full].into_iter().find(|s| s.name() == name)
    }
}

/// Why an output directory cannot be used (nothing was computed).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The directory, or a file or directory in it, cannot be written.
    #[error("--out {}: cannot write to {} ({source}); nothing was computed", out.display(), what.display())]
    Unwritable {
        /// The output directory.
        out: PathBuf,
        /// What could not be written.
        what: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Another process holds the directory's lock.
    #[error("--out {} is in use by another run (process {pid}); wait for it, or use another --out", out.display())]
    InUse {
        /// The output directory.
        out: PathBuf,
        /// The holder's process id, as it wrote it.
        pid: String,
    },
    /// The directory holds another seed's or scale's cells.
    #[error(
        "--out {} holds the results of another run ({theirs}); this run is {ours}. Cells of different seeds or \
         scales are never mixed: use another --out, or delete {} to start over",
        out.display(),
        out.display()
    )]
    AnotherRun {
        /// The output directory.
        out: PathBuf,
        /// The run it holds.
        theirs: RunKey,
        /// The run asked for.
        ours: RunKey,
    },
    /// Cells without a manifest: their origin is unknown.
    #[error(
        "--out {} holds cells but no manifest.json (an older version's output?): its seed and scale are unknown, \
         so its cells cannot be trusted; use another --out, or delete it",
        out.display()
    )]
    NoManifest {
        /// The output directory.
        out: PathBuf,
    },
    /// A manifest that cannot be read or is not one.
    #[error("{}: {why}", path.display())]
    BadManifest {
        /// The manifest's path.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// The version of the cell and manifest formats.
const FORMAT: u64 = 2;
const MANIFEST: &str = "manifest.json";
const LOCK: &str = ".lock";
/// Suffix of the temporary files of [`write_atomic`].
const TMP_SUFFIX: &str = ".tmp";

/// What one output directory holds: one master seed at one scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunKey {
    /// The master seed.
    pub seed: u64,
    /// The scale.
    pub scale: Scale,
}

impl fmt::Display for RunKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seed {}, {} scale", self.seed, self.scale.name())
    }
}

impl RunKey {
    /// The flags that select this run, e.g. `--seed 7 --quick`.
    pub fn flags(&self) -> String {
        match self.scale {
            Scale::Quick => format!("--seed {} --quick", self.seed),
            Scale::Default => format!("--seed {}", self.seed),
            Scale::Full => format!("--seed {} --full", self.seed),
        }
    }
}

/// `OUT/manifest.json`.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The run.
    pub key: RunKey,
    /// The experiments run into the directory (in any run or merge), in the
    /// order first given (the order shards are counted in).
    pub experiments: Vec<String>,
    /// The shares run into it: `I/N`, or `all` for an unsharded run.
    pub shards: Vec<String>,
}

/// Reads `dir/manifest.json`: `None` if there is none.
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>, StoreError> {
    let path = dir.join(MANIFEST);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::BadManifest { path, why: format!("cannot read it: {e}") }),
    };
    let bad = |why: &str| StoreError::BadManifest {
        path: path.clone(),
        why: format!("not a run manifest ({why}): delete the directory or use another one"),
    };
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
    if v.get("format").and_then(Value::as_u64) != Some(FORMAT) {
        return Err(bad("unknown format"));
    }
    let seed = v.get("seed").and_then(Value::as_u64).ok_or_else(|| bad("no seed"))?;
    let scale = v.get("scale").and_then(Value::as_str).and_then(Scale::from_name).ok_or_else(|| bad("no scale"))?;
    let experiments = v
        .get("experiments")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let shards = v
        .get("shards")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default();
    Ok(Some(Manifest { key: RunKey { seed, scale }, experiments, shards }))
}

fn write_manifest(dir: &Path, m: &Manifest) -> io::Result<()> {
    let v = json!({
        "format": FORMAT,
        "tool": "tournament cell store",
        "seed": m.key.seed,
        "scale": m.key.scale.name(),
        "experiments": m.experiments,
        "shards": m.shards,
    });
    write_atomic(&dir.join(MANIFEST), &serde_json::to_string_pretty(&v).expect("manifest serialises"))
}

/// The exclusive lock on an output directory, held while it lives.
#[derive(Debug)]
pub struct OutLock {
    _file: File,
    warning: Option<String>,
}

impl OutLock {
    /// A warning for the user, where the directory could not be locked (a
    /// file system without locks): the run goes on unprotected.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

fn lock(out: &Path) -> Result<OutLock, StoreError> {
    let path = out.join(LOCK);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|source| StoreError::Unwritable { out: out.into(), what: out.into(), source })?;
    let mut warning = None;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            let mut pid = String::new();
            let _ = file.read_to_string(&mut pid);
            return Err(StoreError::InUse { out: out.into(), pid: pid.trim().to_string() });
        }
        // A file system without locks: go on unprotected.
        Err(fs::TryLockError::Error(e)) => {
            warning = Some(format!("cannot lock {} ({e}): do not start two runs into it at once", path.display()));
        }
    }
    // Best effort: the holder's process id, for the message above.
    let _ = file.set_len(0).and_then(|()| file.rewind()).and_then(|()| write!(file, "{}", std::process::id()));
    Ok(OutLock { _file: file, warning })
}

/// Prepares `out` for a run (or a merge) of `key` over `experiments` and
/// `shards`, before any compute: creates it, takes its lock, refuses a
/// directory that holds another seed or scale (or cells of unknown origin),
/// removes temporary files left by a killed run, records the run in the
/// manifest, and checks that every cell directory it will write is writable.
pub fn open_out(out: &Path, key: RunKey, experiments: &[String], shards: &[String]) -> Result<OutLock, StoreError> {
    let unwritable =
        |what: &Path, source: io::Error| StoreError::Unwritable { out: out.into(), what: what.into(), source };
    fs::create_dir_all(out).map_err(|e| unwritable(out, e))?;
    let guard = lock(out)?;
    let mut manifest = match read_manifest(out)? {
        Some(m) if m.key != key => return Err(StoreError::AnotherRun { out: out.into(), theirs: m.key, ours: key }),
        Some(m) => m,
        None => {
            if has_cells(out) {
                return Err(StoreError::NoManifest { out: out.into() });
            }
            Manifest { key, experiments: Vec::new(), shards: Vec::new() }
        }
    };
    remove_temporaries(out);
    union(&mut manifest.experiments, experiments);
    union(&mut manifest.shards, shards);
    write_manifest(out, &manifest).map_err(|e| unwritable(out, e))?;
    for name in experiments {
        let dir = out.join("cells").join(name);
        let probe = dir.join(".probe");
        fs::create_dir_all(&dir)
            .and_then(|()| write_atomic(&probe, "probe"))
            .and_then(|()| fs::remove_file(&probe))
            .map_err(|e| unwritable(&dir, e))?;
    }
    // The new directories' entries, durable like the files (best effort).
    #[cfg(unix)]
    for dir in [out.to_path_buf(), out.join("cells")] {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(guard)
}

/// Appends the items of `new` that `list` lacks.
pub fn union(list: &mut Vec<String>, new: &[String]) {
    for n in new {
        if !list.contains(n) {
            list.push(n.clone());
        }
    }
}

fn has_cells(out: &Path) -> bool {
    let Ok(dirs) = fs::read_dir(out.join("cells")) else { return false };
    dirs.flatten().any(|d| {
        fs::read_dir(d.path())
            .is_ok_and(|files| files.flatten().any(|f| f.path().extension().is_some_and(|e| e == "json")))
    })
}

/// Removes the temporary files of [`write_atomic`] that a killed run left
/// in `out` and its cell directories (only while holding the lock).
fn remove_temporaries(out: &Path) {
    let mut dirs = vec![out.to_path_buf()];
    if let Ok(cells) = fs::read_dir(out.join("cells")) {
        dirs.extend(cells.flatten().map(|d| d.path()));
    }
    for dir in dirs {
        let Ok(files) = fs::read_dir(&dir) else { continue };
        for f in files.flatten() {
            let name = f.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(TMP_SUFFIX) {
                let _ = fs::remove_file(f.path());
            }
        }
    }
}

/// Writes a file atomically: a temporary file in the same directory, synced
/// to disk, then renamed over `path`, and the directory synced. Readers (and
/// a rerun after a crash) see the old file or the new one, never a mix.
pub fn write_atomic(path: &Path, contents: &str) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    let name = path.file_name().ok_or_else(|| io::Error::other("no file name"))?.to_string_lossy();
    let tmp =
        dir.join(format!(".{name}.{}-{}{TMP_SUFFIX}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(contents.as_bytes())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
        return written;
    }
    // The rename itself is durable once the directory is synced (possible on
    // Unix; best effort: some file systems refuse it).
    #[cfg(unix)]
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What a cell must have been made with to be used.
#[derive(Debug, Clone, Copy)]
pub struct CellKey<'a> {
    /// The experiment (or match) the cell belongs to: its directory.
    pub experiment: &'a str,
    /// The cell's id.
    pub cell: &'a str,
    /// The run.
    pub run: RunKey,
    /// The cell's own seed (derived from the master seed and its id).
    pub seed: u64,
    /// The version of the code that computes the cell: bump it whenever a
    /// change can alter a cell's rows for the same seed and parameters.
    pub version: u32,
    /// The parameters the rows were made with.
    pub params: &'a Value,
}

/// A saved cell, as found.
#[derive(Debug)]
pub enum Loaded {
    /// Checked and made with this run's parameters: its rows, and the file.
    Valid {
        /// The rows.
        rows: Vec<Row>,
        /// The file's text.
        text: String,
    },
    /// No file.
    Absent,
    /// Unreadable, garbled, truncated, or its checksum does not hold: the
    /// reason. Never used; recomputed.
    Corrupt(String),
    /// Intact but made by another code version or parameters of the
    /// experiment: the reason. Recomputed.
    Stale(String),
    /// Intact but from another seed or scale: never mixed in.
    Foreign(RunKey),
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The checksum of a cell's content: SHA-256 of its compact JSON (keys in
/// the map's order, numbers as serde_json writes them; the
/// `float_roundtrip` feature makes parse-then-write reproduce the text).
fn checksum(content: &Value) -> String {
    hex(&Sha256::digest(serde_json::to_string(content).expect("json").as_bytes()))
}

/// The text of a cell file.
pub fn cell_text(key: &CellKey<'_>, seconds: f64, rows: &[Row]) -> String {
    let content = json!({
        "experiment": key.experiment,
        "cell": key.cell,
        "master_seed": key.run.seed,
        "scale": key.run.scale.name(),
        "seed": key.seed,
        "version": key.version,
        "params": key.params,
        "tool_version": env!("CARGO_PKG_VERSION"),
        "seconds": seconds,
        "rows": rows,
    });
    let file = json!({ "format": FORMAT, "sha256": checksum(&content), "content": content });
    serde_json::to_string_pretty(&file).expect("rows serialise")
}

/// Loads and checks the cell at `path` against `key`.
pub fn load(path: &Path, key: &CellKey<'_>) -> Loaded {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Loaded::Absent,
        Err(e) => return Loaded::Corrupt(format!("unreadable ({e})")),
    };
    let file: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return Loaded::Corrupt(format!("not valid JSON, truncated or garbled ({e})")),
    };
    if file.get("format").and_then(Value::as_u64) != Some(FORMAT) {
        return Loaded::Corrupt("not a cell of this format (no checksum)".into());
    }
    let (Some(sum), Some(content)) = (file.get("sha256").and_then(Value::as_str), file.get("content")) else {
        return Loaded::Corrupt("no checksum or content".into());
    };
    if checksum(content) != sum {
        return Loaded::Corrupt("checksum mismatch: the file was edited or damaged".into());
    }
    let str_of = |k: &str| content.get(k).and_then(Value::as_str);
    let u64_of = |k: &str| content.get(k).and_then(Value::as_u64);
    if str_of("experiment") != Some(key.experiment) || str_of("cell") != Some(key.cell) {
        return Loaded::Corrupt(format!(
            "holds cell {:?} of {:?}, not this one",
            str_of("cell").unwrap_or("?"),
            str_of("experiment").unwrap_or("?")
        ));
    }
    let scale = str_of("scale").and_then(Scale::from_name);
    match (u64_of("master_seed"), scale) {
        (Some(seed), Some(scale)) if (RunKey { seed, scale }) == key.run => {}
        (Some(seed), Some(scale)) => return Loaded::Foreign(RunKey { seed, scale }),
        _ => return Loaded::Corrupt("no master seed or scale".into()),
    }
    let version = u64_of("version");
    if version != Some(u64::from(key.version)) {
        return Loaded::Stale(format!(
            "made by version {} of the experiment's code, now {}",
            version.map_or("?".into(), |v| v.to_string()),
            key.version
        ));
    }
    if content.get("params") != Some(key.params) {
        return Loaded::Stale("made with other parameters".into());
    }
    if u64_of("seed") != Some(key.seed) {
        return Loaded::Stale("made with another cell seed (the derivation changed)".into());
    }
    let rows: Option<Vec<Row>> = content
        .get("rows")
        .and_then(Value::as_array)
        .and_then(|rows| rows.iter().map(|r| r.as_object().cloned()).collect());
    match rows {
        Some(rows) => Loaded::Valid { rows, text },
        None => Loaded::Corrupt("its rows are not a list of objects".into()),
    }
}

/// Where a rejected cell is moved before it is recomputed.
pub fn rejected_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".rejected");
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha256(data: &[u8]) -> [u8; 32] {
        Sha256::digest(data).into()
    }

    #[test]
    fn sha256_matches_the_standard_vectors() {
        let cases: [(&[u8], &str); 3] = [
            (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(hex(&sha256(input)), expected);
        }
        assert_eq!(
            hex(&sha256(&vec![b'a'; 1_000_000])),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
        // Every padding length around a block boundary.
        assert_ne!(sha256(&[0; 55]), sha256(&[0; 56]));
        assert_ne!(sha256(&[0; 63]), sha256(&[0; 64]));
    }

    /// The checksum is recomputed from parsed JSON: every number must come
    /// back with the same text (serde_json's `float_roundtrip`).
    #[test]
    fn numbers_survive_a_json_round_trip_exactly() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut values = vec![0.1, 1.0 / 3.0, 2.0f64.sqrt(), 1e-300, 5e-324, f64::MAX, -0.0, 0.30000000000000004];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = f64::from_bits(x);
            if f.is_finite() {
                values.push(f);
            }
            values.push((x >> 11) as f64 / (1u64 << 53) as f64);
        }
        for x in values {
            let text = serde_json::to_string(&json!(x)).unwrap();
            let back: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), text, "{x:e} does not survive");
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tournament-store-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_cell_is_used_only_when_intact_and_made_with_these_parameters() {
        let dir = scratch("cells");
        let path = dir.join("c.json");
        let params = json!({ "n": 3 });
        let run = RunKey { seed: 7, scale: Scale::Quick };
        let key = CellKey { experiment: "e", cell: "c", run, seed: 11, version: 1, params: &params };
        let rows = vec![Row::from_iter([("x".to_string(), json!(0.1)), ("n".to_string(), json!(5))])];
        assert!(matches!(load(&path, &key), Loaded::Absent));
        write_atomic(&path, &cell_text(&key, 0.5, &rows)).unwrap();
        let Loaded::Valid { rows: back, .. } = load(&path, &key) else { panic!("valid") };
        assert_eq!(back, rows);
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);

        let other = json!({ "n": 4 });
        assert!(matches!(load(&path, &CellKey { params: &other, ..key }), Loaded::Stale(_)));
        assert!(matches!(load(&path, &CellKey { version: 2, ..key }), Loaded::Stale(_)));
        assert!(matches!(load(&path, &CellKey { seed: 12, ..key }), Loaded::Stale(_)));
        let seed8 = RunKey { seed: 8, ..run };
        assert!(matches!(load(&path, &CellKey { run: seed8, ..key }), Loaded::Foreign(k) if k == run));
        assert!(matches!(load(&path, &CellKey { cell: "d", ..key }), Loaded::Corrupt(_)));

        // Tampered but well formed.
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replace("0.1", "0.2")).unwrap();
        assert!(matches!(load(&path, &key), Loaded::Corrupt(why) if why.contains("checksum")));
        // Reformatted (whitespace only) is still intact.
        let compact: Value = serde_json::from_str(&text).unwrap();
        fs::write(&path, serde_json::to_string(&compact).unwrap()).unwrap();
        assert!(matches!(load(&path, &key), Loaded::Valid { .. }));
        // Truncated anywhere.
        for cut in [0, 1, text.len() / 2, text.len() - 2] {
            fs::write(&path, &text[..cut]).unwrap();
            assert!(matches!(load(&path, &key), Loaded::Corrupt(_)), "cut at {cut}");
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_output_directory_belongs_to_one_run() {
        let out = scratch("out");
        let quick7 = RunKey { seed: 7, scale: Scale::Quick };
        let names = vec!["e".to_string()];
        let all = vec!["all".to_string()];
        drop(open_out(&out, quick7, &names, &all).unwrap());
        assert!(out.join("cells/e").is_dir());
        // While a run holds it, a second one is refused.
        let held = open_out(&out, quick7, &names, &all).unwrap();
        let err = open_out(&out, quick7, &names, &all).unwrap_err().to_string();
        assert!(err.contains("in use"), "{err}");
        drop(held);
        for other in [RunKey { seed: 8, ..quick7 }, RunKey { scale: Scale::Default, ..quick7 }] {
            let err = open_out(&out, other, &names, &all).unwrap_err().to_string();
            assert!(err.contains(&quick7.to_string()) && err.contains(&other.to_string()), "{err}");
        }
        let more = vec!["f".to_string()];
        drop(open_out(&out, quick7, &more, &["1/2".to_string()]).unwrap());
        let m = read_manifest(&out).unwrap().unwrap();
        assert_eq!((m.key, m.experiments), (quick7, vec!["e".to_string(), "f".to_string()]));
        assert_eq!(m.shards, vec!["all".to_string(), "1/2".to_string()]);
        // Leftover temporaries of a killed run are cleared.
        fs::write(out.join("cells/e/.c.json.1-0.tmp"), "{").unwrap();
        drop(open_out(&out, quick7, &names, &all).unwrap());
        assert!(!out.join("cells/e/.c.json.1-0.tmp").exists());
        // Cells without a manifest are of unknown origin.
        fs::remove_file(out.join(MANIFEST)).unwrap();
        fs::write(out.join("cells/e/c.json"), "{}").unwrap();
        assert!(open_out(&out, quick7, &names, &all).unwrap_err().to_string().contains("no manifest"));
        // A path under a regular file cannot be written (even by root).
        let file = out.join("plain-file");
        fs::write(&file, "").unwrap();
        let err = open_out(&file.join("sub"), quick7, &names, &all).unwrap_err().to_string();
        assert!(err.contains("cannot write") && err.contains("nothing was computed"), "{err}");
        let _ = fs::remove_dir_all(&out);
    }
}
