//! `cargo xtask cluster-test`: proves the Slurm scripts of `scripts/slurm`
//! (documented in `docs/cluster.md`) on a one-node Slurm of this machine,
//! with `reproduce` (merged by `reproduce merge`) and `match` (merged by
//! copying the shards' cells).
//!
//! Steps: install Slurm and MUNGE from Debian when they are missing (root
//! only); write a minimal `slurm.conf` for this host (its real CPU count
//! and memory, everything else under `--dir`); start `munged`, `slurmctld`
//! and `slurmd` directly (containers have no systemd), unless they already
//! run from an earlier call; build the release binary once; submit
//! `reproduce --quick` as a job array of `--shards` tasks plus the merge job
//! that depends on it (`scripts/slurm/submit.sh`); wait, with a timeout;
//! run the same `reproduce --quick` on this machine without Slurm; compare
//! the result files; the same for a short fixed-depth connect-4 `match`
//! (its `match.json`); stop the daemons this call started.
//!
//! Not part of `cargo test`: it needs root, the network (once) and minutes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use clap::builder::RangedU64ValueParser;
use serde_json::Value;

/// What can go wrong, each with what to do about it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ClusterError {
    /// Slurm or MUNGE is missing and cannot be installed.
    #[error("cluster-test: {0}")]
    Install(String),
    /// A command could not be started, or failed.
    #[error("cluster-test: `{command}` failed ({status}):\n{output}")]
    Command { command: String, status: String, output: String },
    /// A daemon did not come up.
    #[error("cluster-test: {what}\n{logs}")]
    Daemon { what: String, logs: String },
    /// A job failed, was cancelled or did not finish in time.
    #[error("cluster-test: {what}\n{logs}")]
    Job { what: String, logs: String },
    /// The merged result differs from the single-machine run.
    #[error("cluster-test: the merged Slurm result differs from the single-machine run:\n  {}", .0.join("\n  "))]
    Mismatch(Vec<String>),
    /// A file could not be read or written.
    #[error("cluster-test: {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

type Result<T, E = ClusterError> = std::result::Result<T, E>;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io { path: path.to_path_buf(), source }
}

/// Arguments of `cargo xtask cluster-test`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct Args {
    /// Tasks of the job array (shards of `reproduce --quick`).
    #[arg(long, default_value_t = 4, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub(crate) shards: usize,
    /// Master seed of the Slurm run and of the single-machine run.
    #[arg(long, default_value_t = experiments::reproduce::DEFAULT_SEED)]
    pub(crate) seed: u64,
    /// Where the Slurm configuration, state, logs and both runs go.
    #[arg(long, default_value = "target/cluster-test")]
    pub(crate) dir: PathBuf,
    /// Give up on the jobs (and cancel them) after this many minutes.
    #[arg(long, default_value_t = 30, value_parser = RangedU64ValueParser::<u64>::new().range(1..=24 * 60))]
    pub(crate) timeout_minutes: u64,
    /// Leave the Slurm and MUNGE daemons running at the end.
    #[arg(long)]
    pub(crate) keep_running: bool,
    /// Only stop the daemons of an earlier `--keep-running` run, then exit.
    #[arg(long, conflicts_with = "keep_running")]
    pub(crate) stop: bool,
}

impl Args {
    /// How long to wait for the jobs: `--timeout-minutes`.
    fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_minutes * 60)
    }
}

/// The binaries the test needs, and the Debian packages that have them.
const NEEDED: [&str; 6] = ["sbatch", "scontrol", "squeue", "slurmctld", "slurmd", "munged"];
const PACKAGES: [&str; 2] = ["slurm-wlm", "munge"];

/// Where a program is: on `PATH`, or in the system directories that a
/// non-login root shell may lack.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Runs a command to the end, capturing its output; an error unless it succeeds.
fn run(cmd: &mut Command) -> Result<Output> {
    let output = cmd.stdin(Stdio::null()).output().map_err(|e| ClusterError::Command {
        command: format!("{cmd:?}"),
        status: "not started".into(),
        output: e.to_string(),
    })?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(ClusterError::Command {
            command: format!("{cmd:?}"),
            status: output.status.to_string(),
            output: format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr)),
        })
    }
}

fn stdout(cmd: &mut Command) -> Result<String> {
    Ok(String::from_utf8_lossy(&run(cmd)?.stdout).into_owned())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Installs Slurm and MUNGE from Debian unless every needed program is there.
fn ensure_installed() -> Result<()> {
    let missing: Vec<&str> = NEEDED.into_iter().filter(|p| which(p).is_none()).collect();
    if missing.is_empty() {
        eprintln!("cluster-test: Slurm and MUNGE are installed");
        return Ok(());
    }
    if !is_root() {
        return Err(ClusterError::Install(format!(
            "{} not found, and installing them needs root: run `apt-get install -y {}` as root, or run this as root",
            missing.join(", "),
            PACKAGES.join(" ")
        )));
    }
    if which("apt-get").is_none() {
        return Err(ClusterError::Install(format!(
            "{} not found and there is no apt-get: install Slurm and MUNGE with this system's package manager",
            missing.join(", ")
        )));
    }
    eprintln!("cluster-test: {} missing: apt-get install -y {}", missing.join(", "), PACKAGES.join(" "));
    let install = || {
        run(Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends"])
            .args(PACKAGES)
            .env("DEBIAN_FRONTEND", "noninteractive"))
    };
    if install().is_err() {
        eprintln!("cluster-test: install failed; apt-get update, then again");
        run(Command::new("apt-get").arg("update").env("DEBIAN_FRONTEND", "noninteractive"))?;
        install()?;
    }
    let still: Vec<&str> = NEEDED.into_iter().filter(|p| which(p).is_none()).collect();
    if !still.is_empty() {
        return Err(ClusterError::Install(format!(
            "installed {}, but {} still missing",
            PACKAGES.join(" "),
            still.join(", ")
        )));
    }
    Ok(())
}

/// This host as Slurm sees it.
#[derive(Debug, Clone)]
struct Host {
    /// The short host name (`hostname -s`): Slurm's node and controller name.
    name: String,
    /// The CPUs this process may use.
    cpus: usize,
    /// Memory in MiB (slurmd's own measure, `slurmd -C`).
    memory_mib: u64,
}

impl Host {
    fn detect() -> Result<Host> {
        let name = stdout(Command::new("hostname").arg("-s"))?.trim().to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        // slurmd's view of the hardware: `NodeName=x CPUs=.. RealMemory=..`.
        let slurmd = which("slurmd").unwrap_or_else(|| "slurmd".into());
        let line = stdout(Command::new(slurmd).arg("-C"))?;
        let field = |key: &str| -> Option<u64> {
            line.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
        };
        let memory_mib = field("RealMemory").ok_or_else(|| ClusterError::Daemon {
            what: "`slurmd -C` printed no RealMemory".into(),
            logs: line.clone(),
        })?;
        // slurmd -C counts the machine's CPUs; a container may get fewer.
        let cpus = field("CPUs").map_or(cpus, |c| cpus.min(c as usize));
        Ok(Host { name, cpus, memory_mib })
    }
}

/// The files of the one-node cluster, all under `--dir`.
struct Layout {
    root: PathBuf,
}

impl Layout {
    fn conf(&self) -> PathBuf {
        self.root.join("slurm.conf")
    }
    fn state(&self) -> PathBuf {
        self.root.join("state")
    }
    fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }
    fn pid(&self, daemon: &str) -> PathBuf {
        self.root.join("run").join(format!("{daemon}.pid"))
    }
    fn log(&self, daemon: &str) -> PathBuf {
        self.logs().join(format!("{daemon}.log"))
    }
}

/// A minimal `slurm.conf` for one node: no accounting, no cgroups (a
/// container has no systemd to delegate them), consumable cores so that the
/// array's tasks share the node one CPU each.
fn slurm_conf(host: &Host, layout: &Layout) -> String {
    let p = |p: PathBuf| p.display().to_string();
    format!(
        "# Written by `cargo xtask cluster-test`: a one-node Slurm on this host.\n\
         ClusterName=xtask\n\
         SlurmctldHost={name}(127.0.0.1)\n\
         SlurmUser=root\n\
         SlurmdUser=root\n\
         AuthType=auth/munge\n\
         StateSaveLocation={state}/slurmctld\n\
         SlurmdSpoolDir={state}/slurmd\n\
         SlurmctldPidFile={ctld_pid}\n\
         SlurmdPidFile={d_pid}\n\
         SlurmctldLogFile={ctld_log}\n\
         SlurmdLogFile={d_log}\n\
         ProctrackType=proctrack/linuxproc\n\
         TaskPlugin=task/none\n\
         JobAcctGatherType=jobacct_gather/none\n\
         AccountingStorageType=accounting_storage/none\n\
         MpiDefault=none\n\
         MailProg=/bin/true\n\
         SchedulerType=sched/backfill\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core\n\
         ReturnToService=2\n\
         MinJobAge=3600\n\
         NodeName={name} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem} State=UNKNOWN\n\
         PartitionName=test Nodes={name} Default=YES MaxTime=INFINITE State=UP\n",
        name = host.name,
        state = p(layout.state()),
        ctld_pid = p(layout.pid("slurmctld")),
        d_pid = p(layout.pid("slurmd")),
        ctld_log = p(layout.log("slurmctld")),
        d_log = p(layout.log("slurmd")),
        cpus = host.cpus,
        mem = host.memory_mib,
    )
}

/// A daemon's process id from its pid file, if that process still runs.
fn running_pid(pid_file: &Path) -> Option<u32> {
    let pid: u32 = fs::read_to_string(pid_file).ok()?.trim().parse().ok()?;
    Path::new(&format!("/proc/{pid}")).exists().then_some(pid)
}

/// Polls `ready` every half second for up to `limit`.
fn wait_for(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if ready() {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        sleep(Duration::from_millis(500));
    }
}

/// The last lines of a log file, for error messages.
fn tail(path: &Path, lines: usize) -> String {
    match fs::read_to_string(path) {
        Ok(text) => {
            let all: Vec<&str> = text.lines().collect();
            let from = all.len().saturating_sub(lines);
            format!("--- {} (last {} lines) ---\n{}", path.display(), all.len() - from, all[from..].join("\n"))
        }
        Err(e) => format!("--- {}: {e} ---", path.display()),
    }
}

/// The running one-node cluster, and which daemons this call started.
struct Cluster {
    layout: Layout,
    host: Host,
    started: Vec<(&'static str, u32)>,
}

const MUNGE_SOCKET_DIR: &str = "/run/munge";
const MUNGE_PID: &str = "/run/munge/munged.pid";

impl Cluster {
    /// Writes the configuration and starts whatever is not running yet.
    fn up(dir: &Path) -> Result<Cluster> {
        let layout = Layout { root: dir.join("slurm") };
        let host = Host::detect()?;
        for d in
            [layout.state().join("slurmctld"), layout.state().join("slurmd"), layout.logs(), layout.root.join("run")]
        {
            fs::create_dir_all(&d).map_err(io(&d))?;
        }
        let conf = slurm_conf(&host, &layout);
        let changed = fs::read_to_string(layout.conf()).ok().as_deref() != Some(conf.as_str());
        if changed {
            fs::write(layout.conf(), &conf).map_err(io(&layout.conf()))?;
        }
        eprintln!(
            "cluster-test: node {} with {} CPUs and {} MiB; configuration {}",
            host.name,
            host.cpus,
            host.memory_mib,
            layout.conf().display()
        );
        let mut cluster = Cluster { layout, host, started: Vec::new() };
        cluster.start_munge()?;
        if changed {
            // Daemons of an earlier configuration: restart them with this one.
            cluster.stop_daemons(&["slurmd", "slurmctld"], false);
        }
        let conf = cluster.conf_path();
        cluster.start_slurm("slurmctld", || cluster_ping(&conf))?;
        cluster.start_slurm("slurmd", || true)?;
        cluster.wait_node_idle()?;
        Ok(cluster)
    }

    fn conf_path(&self) -> PathBuf {
        self.layout.conf()
    }

    /// A Slurm client command that reads this cluster's configuration.
    fn slurm(&self, program: &str) -> Command {
        let mut c = Command::new(which(program).unwrap_or_else(|| program.into()));
        c.env("SLURM_CONF", self.conf_path());
        c
    }

    fn start_munge(&mut self) -> Result<()> {
        let works = || {
            let cred = Command::new("munge").arg("-n").stderr(Stdio::null()).output();
            cred.ok().filter(|o| o.status.success()).is_some_and(|o| {
                let mut un = Command::new("unmunge");
                un.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
                un.spawn().ok().is_some_and(|mut child| {
                    use std::io::Write;
                    let fed = child.stdin.take().is_some_and(|mut s| s.write_all(&o.stdout).is_ok());
                    fed && child.wait().is_ok_and(|s| s.success())
                })
            })
        };
        if works() {
            eprintln!("cluster-test: munged is running");
            return Ok(());
        }
        let key = Path::new("/etc/munge/munge.key");
        if !key.exists() {
            eprintln!("cluster-test: creating {}", key.display());
            run(Command::new(which("mungekey").unwrap_or_else(|| "mungekey".into())).args(["--create", "--force"]))?;
            run(Command::new("chown").args(["munge:munge", "/etc/munge/munge.key"]))?;
        }
        for dir in [MUNGE_SOCKET_DIR, "/var/lib/munge", "/var/log/munge"] {
            fs::create_dir_all(dir).map_err(io(Path::new(dir)))?;
            run(Command::new("chown").args(["munge:munge", dir]))?;
        }
        // As the munge user, as its service unit would.
        let munged = which("munged").unwrap_or_else(|| "munged".into());
        run(Command::new("runuser").args(["-u", "munge", "--"]).arg(munged))?;
        if !wait_for(Duration::from_secs(10), works) {
            return Err(ClusterError::Daemon {
                what: "munged did not start: `munge -n | unmunge` fails".into(),
                logs: tail(Path::new("/var/log/munge/munged.log"), 20),
            });
        }
        if let Some(pid) = running_pid(Path::new(MUNGE_PID)) {
            self.started.push(("munged", pid));
        }
        eprintln!("cluster-test: started munged");
        Ok(())
    }

    fn start_slurm(&mut self, daemon: &'static str, ready: impl Fn() -> bool) -> Result<()> {
        let pid_file = self.layout.pid(daemon);
        if let Some(pid) = running_pid(&pid_file) {
            eprintln!("cluster-test: {daemon} is running (pid {pid})");
            return Ok(());
        }
        let program = which(daemon).unwrap_or_else(|| daemon.into());
        // Both daemonize themselves and write their pid files.
        run(Command::new(program).arg("-f").arg(self.conf_path()))?;
        let up = wait_for(Duration::from_secs(20), || running_pid(&pid_file).is_some() && ready());
        match running_pid(&pid_file) {
            Some(pid) if up => {
                eprintln!("cluster-test: started {daemon} (pid {pid})");
                self.started.push((daemon, pid));
                Ok(())
            }
            _ => Err(ClusterError::Daemon {
                what: format!("{daemon} did not start"),
                logs: tail(&self.layout.log(daemon), 30),
            }),
        }
    }

    /// Waits until the node takes jobs; resumes it if Slurm marked it down.
    fn wait_node_idle(&self) -> Result<()> {
        let state = || {
            self.slurm("sinfo")
                .args(["-h", "-N", "-o", "%T"])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .unwrap_or_default()
        };
        let mut resumed = false;
        let ok = wait_for(Duration::from_secs(60), || {
            let s = state();
            if !resumed && (s.starts_with("down") || s.starts_with("drain")) {
                resumed = true;
                let _ = self
                    .slurm("scontrol")
                    .args(["update", &format!("NodeName={}", self.host.name), "State=RESUME"])
                    .output();
            }
            s.starts_with("idle") || s.starts_with("mix") || s.starts_with("alloc")
        });
        if ok {
            eprintln!("cluster-test: node {} is {}", self.host.name, state());
            Ok(())
        } else {
            let reason = self.slurm("sinfo").args(["-h", "-N", "-o", "%T %E"]).output();
            let reason = reason.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
            Err(ClusterError::Daemon {
                what: format!("node {} did not become idle: {}", self.host.name, reason.trim()),
                logs: self.logs(),
            })
        }
    }

    /// The daemons' recent logs.
    fn logs(&self) -> String {
        ["slurmctld", "slurmd"].map(|d| tail(&self.layout.log(d), 30)).join("\n")
    }

    /// Stops the named daemons by their pid files (`only_started`: only
    /// those this call started).
    fn stop_daemons(&mut self, daemons: &[&str], only_started: bool) {
        for &daemon in daemons {
            let pid_file = if daemon == "munged" { PathBuf::from(MUNGE_PID) } else { self.layout.pid(daemon) };
            let Some(pid) = running_pid(&pid_file) else { continue };
            if only_started && !self.started.iter().any(|&(d, p)| d == daemon && p == pid) {
                continue;
            }
            let _ = Command::new("kill").arg(pid.to_string()).status();
            let gone = wait_for(Duration::from_secs(15), || !Path::new(&format!("/proc/{pid}")).exists());
            eprintln!(
                "cluster-test: {daemon} (pid {pid}) {}",
                if gone { "stopped" } else { "still running after SIGTERM" }
            );
            self.started.retain(|&(d, _)| d != daemon);
        }
    }
}

/// True if slurmctld answers (`scontrol ping`).
fn cluster_ping(conf: &Path) -> bool {
    Command::new(which("scontrol").unwrap_or_else(|| "scontrol".into()))
        .arg("ping")
        .env("SLURM_CONF", conf)
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("UP"))
}

/// One job (or array task) as `scontrol -o show job` prints it.
#[derive(Debug, Clone)]
struct JobInfo {
    /// `1234` or `1234_2` for an array task.
    id: String,
    state: String,
    reason: String,
    start: String,
    end: String,
    run_time: String,
    exit_code: String,
}

impl JobInfo {
    fn parse(line: &str) -> Option<JobInfo> {
        let fields: BTreeMap<&str, &str> = line.split_whitespace().filter_map(|w| w.split_once('=')).collect();
        let get = |k: &str| fields.get(k).copied().unwrap_or("").to_string();
        let job = fields.get("JobId")?;
        let id = match (fields.get("ArrayJobId"), fields.get("ArrayTaskId")) {
            (Some(a), Some(t)) => format!("{a}_{t}"),
            _ => (*job).to_string(),
        };
        Some(JobInfo {
            id,
            state: get("JobState"),
            reason: get("Reason"),
            start: get("StartTime"),
            end: get("EndTime"),
            run_time: get("RunTime"),
            exit_code: get("ExitCode"),
        })
    }

    fn finished(&self) -> bool {
        !matches!(self.state.as_str(), "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" | "SUSPENDED" | "REQUEUED")
    }

    fn ok(&self) -> bool {
        self.state == "COMPLETED"
    }
}

impl Cluster {
    /// The jobs (array tasks one by one) of `job`.
    fn jobs(&self, job: &str) -> Result<Vec<JobInfo>> {
        let text = stdout(self.slurm("scontrol").args(["-o", "show", "job", job]))?;
        Ok(text.lines().filter_map(JobInfo::parse).collect())
    }
}

/// The outcome of the Slurm run.
struct SlurmRun {
    array: String,
    merge: String,
    jobs: Vec<JobInfo>,
    wall: Duration,
}

/// Submits the array and the merge with `scripts/slurm/submit.sh`, waits.
fn submit_and_wait(cluster: &Cluster, args: &Args, xtask: &Path, out: &Path, command: &[String]) -> Result<SlurmRun> {
    let script = repo_root().join("scripts/slurm/submit.sh");
    let started = Instant::now();
    let mut submit = cluster.slurm("bash");
    submit.arg(&script).arg(args.shards.to_string()).arg(out).args(command).env("XTASK", xtask);
    let printed = stdout(&mut submit)?;
    let id = |key: &str| {
        printed.lines().find_map(|l| l.strip_prefix(key)).map(str::trim).map(String::from).ok_or_else(|| {
            ClusterError::Job { what: format!("submit.sh printed no `{key}` line"), logs: printed.clone() }
        })
    };
    let (array, merge) = (id("array=")?, id("merge=")?);
    eprintln!(
        "cluster-test: submitted array job {array} ({} tasks) and merge job {merge} (afterok:{array})",
        args.shards
    );
    let logs = |jobs: &[JobInfo]| {
        let mut text = String::new();
        for j in jobs {
            let _ = writeln!(text, "{}: {} (reason {}, exit {})", j.id, j.state, j.reason, j.exit_code);
        }
        let mut files: Vec<PathBuf> = fs::read_dir(out)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "out"))
            .collect();
        files.sort();
        for f in files {
            text.push_str(&tail(&f, 40));
            text.push('\n');
        }
        text + &cluster.logs()
    };
    let mut last = String::new();
    loop {
        let mut jobs = cluster.jobs(&array)?;
        jobs.extend(cluster.jobs(&merge)?);
        let summary: Vec<String> = jobs.iter().map(|j| format!("{}={}", j.id, j.state)).collect();
        let summary = summary.join(" ");
        if summary != last {
            eprintln!("cluster-test: [{:>4.0} s] {summary}", started.elapsed().as_secs_f64());
            last = summary;
        }
        let failed: Vec<&JobInfo> = jobs.iter().filter(|j| j.finished() && !j.ok()).collect();
        if !failed.is_empty() {
            let _ = cluster.slurm("scancel").args([&array, &merge]).output();
            let ids: Vec<String> = failed.iter().map(|j| format!("{} {}", j.id, j.state)).collect();
            return Err(ClusterError::Job { what: format!("jobs failed: {}", ids.join(", ")), logs: logs(&jobs) });
        }
        if jobs.iter().any(|j| j.id == merge && j.ok()) {
            return Ok(SlurmRun { array, merge, jobs, wall: started.elapsed() });
        }
        if started.elapsed() > args.timeout() {
            let _ = cluster.slurm("scancel").args([&array, &merge]).output();
            return Err(ClusterError::Job {
                what: format!("the jobs did not finish within {} s: cancelled", args.timeout().as_secs()),
                logs: logs(&jobs),
            });
        }
        sleep(Duration::from_secs(2));
    }
}

/// The workspace root (xtask lives one level below it).
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Builds the release binary once and copies it to `dir/bin/xtask`, so that
/// later builds cannot change it under running jobs.
fn build_binary(dir: &Path) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("cluster-test: cargo build --release -p xtask");
    run(Command::new(&cargo).current_dir(repo_root()).args(["build", "--quiet", "--release", "-p", "xtask"]))?;
    let meta =
        stdout(Command::new(&cargo).current_dir(repo_root()).args(["metadata", "--format-version", "1", "--no-deps"]))?;
    let meta: Value = serde_json::from_str(&meta).map_err(|e| ClusterError::Command {
        command: "cargo metadata".into(),
        status: "unreadable output".into(),
        output: e.to_string(),
    })?;
    let target = meta["target_directory"].as_str().map_or_else(|| repo_root().join("target"), PathBuf::from);
    let built = target.join("release").join("xtask");
    let bin = dir.join("bin");
    fs::create_dir_all(&bin).map_err(io(&bin))?;
    let copy = bin.join("xtask");
    fs::copy(&built, &copy).map_err(io(&built))?;
    Ok(copy)
}

/// Row keys that hold measured times (they differ between any two runs).
fn is_timing_key(key: &str) -> bool {
    key.contains("micros") || key.contains("_ms") || key.ends_with("_time") || key.contains("seconds")
}

/// `value` without its timing keys, and whether it had any.
fn without_timings(value: &Value) -> (Value, bool) {
    match value {
        Value::Object(map) => {
            let mut timed = false;
            let mut kept = serde_json::Map::new();
            for (k, v) in map {
                if is_timing_key(k) {
                    timed = true;
                    continue;
                }
                let (v, t) = without_timings(v);
                timed |= t;
                kept.insert(k.clone(), v);
            }
            (Value::Object(kept), timed)
        }
        Value::Array(items) => {
            let mut timed = false;
            let items = items
                .iter()
                .map(|v| {
                    let (v, t) = without_timings(v);
                    timed |= t;
                    v
                })
                .collect();
            (Value::Array(items), timed)
        }
        other => (other.clone(), false),
    }
}

/// The report's sections by experiment (`## \`name\`` headings).
fn report_sections(text: &str) -> BTreeMap<String, String> {
    let mut sections = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("## `") {
            if let Some((name, body)) = current.take() {
                sections.insert(name, body);
            }
            current = Some((rest.split('`').next().unwrap_or("").to_string(), String::new()));
        }
        if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections.extend(current);
    sections
}

/// What the comparison covered.
#[derive(Debug, Default)]
struct Compared {
    experiments: usize,
    exact_files: usize,
    timed: Vec<String>,
}

/// Compares the result files of two `reproduce` outputs: every experiment's
/// JSON rows (timing fields aside), and byte for byte its CSV, SVG and
/// report section unless its rows hold timings. `manifest.json` (which
/// shares ran) and `cells/` (each cell records its compute time) differ by
/// design and are not compared.
fn compare(single: &Path, merged: &Path) -> Result<Compared> {
    let list = |dir: &Path| -> Result<Vec<String>> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .map_err(io(dir))?
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "manifest.json" && !n.starts_with('.'))
            .collect();
        names.sort();
        Ok(names)
    };
    let read = |p: PathBuf| fs::read_to_string(&p).map_err(io(&p));
    let (a, b) = (list(single)?, list(merged)?);
    let mut problems = Vec::new();
    if a != b {
        problems.push(format!("different files: single run {a:?}, merged {b:?}"));
        return Err(ClusterError::Mismatch(problems));
    }
    let mut done = Compared::default();
    let sections =
        (report_sections(&read(single.join("report.md"))?), report_sections(&read(merged.join("report.md"))?));
    for json in a.iter().filter(|n| n.ends_with(".json")) {
        let name = json.trim_end_matches(".json");
        let parse = |p: PathBuf| -> Result<Value> {
            let text = read(p.clone())?;
            serde_json::from_str(&text).map_err(|e| ClusterError::Mismatch(vec![format!("{}: {e}", p.display())]))
        };
        let (x, timed) = without_timings(&parse(single.join(json))?);
        let (y, _) = without_timings(&parse(merged.join(json))?);
        done.experiments += 1;
        if x != y {
            problems.push(format!("{json}: the rows differ"));
        }
        if timed {
            done.timed.push(name.to_string());
            continue;
        }
        for ext in ["csv", "svg"] {
            let file = format!("{name}.{ext}");
            if a.contains(&file) {
                if read(single.join(&file))? == read(merged.join(&file))? {
                    done.exact_files += 1;
                } else {
                    problems.push(format!("{file} differs"));
                }
            }
        }
        if sections.0.get(name) != sections.1.get(name) {
            problems.push(format!("report.md: the section of {name} differs"));
        }
    }
    if problems.is_empty() { Ok(done) } else { Err(ClusterError::Mismatch(problems)) }
}

/// Runs the whole test (see the module docs).
pub(crate) fn run_test(args: &Args) -> Result<()> {
    let dir = if args.dir.is_absolute() { args.dir.clone() } else { repo_root().join(&args.dir) };
    if args.stop {
        let mut cluster =
            Cluster { layout: Layout { root: dir.join("slurm") }, host: Host::detect()?, started: vec![] };
        cluster.stop_daemons(&["slurmd", "slurmctld", "munged"], false);
        return Ok(());
    }
    let began = Instant::now();
    let date = stdout(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"]))?.trim().to_string();
    ensure_installed()?;
    let xtask = build_binary(&dir)?;
    let mut cluster = Cluster::up(&dir)?;
    let result = test_on(&cluster, args, &dir, &xtask);
    if args.keep_running {
        eprintln!(
            "cluster-test: daemons left running (--keep-running); stop them with `cargo xtask cluster-test --stop`"
        );
    } else {
        cluster.stop_daemons(&["slurmd", "slurmctld", "munged"], true);
        let left: Vec<&str> =
            ["slurmctld", "slurmd"].into_iter().filter(|d| running_pid(&cluster.layout.pid(d)).is_some()).collect();
        if !left.is_empty() {
            eprintln!(
                "cluster-test: {} started by an earlier call left running; `cargo xtask cluster-test --stop` stops them",
                left.join(" and ")
            );
        }
    }
    let report = result?;
    let version = stdout(cluster.slurm("sbatch").arg("--version")).unwrap_or_default();
    let summary = format!(
        "cluster-test passed ({date}, {}, {} CPUs, {} MiB; total {:.0} s)\n{report}",
        version.trim(),
        cluster.host.cpus,
        cluster.host.memory_mib,
        began.elapsed().as_secs_f64()
    );
    let path = dir.join("summary.md");
    fs::write(&path, &summary).map_err(io(&path))?;
    println!("{summary}");
    Ok(())
}

/// One command run both ways: as a job array with its merge under Slurm,
/// and on this machine; returns the Slurm run, the two output directories
/// and the local run's wall time.
fn both_ways(
    cluster: &Cluster,
    args: &Args,
    runs: &Path,
    name: &str,
    xtask: &Path,
    command: &[String],
) -> Result<(SlurmRun, PathBuf, PathBuf, Duration)> {
    let (slurm_out, single_out) = (runs.join(format!("{name}-slurm")), runs.join(format!("{name}-single")));
    for d in [&slurm_out, &single_out] {
        if d.exists() {
            fs::remove_dir_all(d).map_err(io(d))?;
        }
    }
    fs::create_dir_all(&slurm_out).map_err(io(&slurm_out))?;
    let slurm = submit_and_wait(cluster, args, xtask, &slurm_out, command)?;
    eprintln!("cluster-test: the same `{}` on this machine, without Slurm", command.join(" "));
    let started = Instant::now();
    run(Command::new(xtask).args(command).arg("--out").arg(&single_out))?;
    Ok((slurm, slurm_out.join("merged"), single_out, started.elapsed()))
}

/// The lines of the summary about one Slurm run.
fn describe(text: &mut String, slurm: &SlurmRun, args: &Args, command: &[String], single_wall: Duration) {
    let _ = writeln!(
        text,
        "- `{}`: array job {} ({} tasks, `--shard I/{}`, 1 CPU each) and merge job {} \
         (`--dependency=afterok:{}`): submit to merge done in {:.0} s",
        command.join(" "),
        slurm.array,
        args.shards,
        args.shards,
        slurm.merge,
        slurm.array,
        slurm.wall.as_secs_f64()
    );
    for j in &slurm.jobs {
        let _ = writeln!(
            text,
            "  - {}: {} exit {}, {} to {} (run time {})",
            j.id, j.state, j.exit_code, j.start, j.end, j.run_time
        );
    }
    let _ =
        writeln!(text, "  - the same on this machine without Slurm (all cores): {:.0} s", single_wall.as_secs_f64());
}

/// The match run both ways: cheap fixed-depth players, so that its result
/// is a function of the seed, and enough pairs for a cell per shard.
fn match_command(args: &Args) -> Vec<String> {
    let pairs_per_shard = 10;
    let games = 2 * pairs_per_shard * args.shards;
    ["match", "connect4", "alphabeta:depth=3", "alphabeta:depth=2", "--games", &games.to_string()]
        .into_iter()
        .map(String::from)
        .chain(["--seed".to_string(), args.seed.to_string()])
        .collect()
}

/// `reproduce --quick` and a short `match`, each as an array plus merge and
/// on this machine, and the comparisons.
fn test_on(cluster: &Cluster, args: &Args, dir: &Path, xtask: &Path) -> Result<String> {
    let runs = dir.join("runs");
    let mut text = String::new();
    let reproduce: Vec<String> =
        ["reproduce", "--quick", "--seed", &args.seed.to_string()].into_iter().map(String::from).collect();
    let (slurm, merged, single, wall) = both_ways(cluster, args, &runs, "reproduce", xtask, &reproduce)?;
    let compared = compare(&single, &merged)?;
    describe(&mut text, &slurm, args, &reproduce, wall);
    let _ = writeln!(
        text,
        "  - equal: the rows of all {} experiments; byte for byte {} CSV/SVG files and their report sections; \
         timing fields left out of {} experiments ({}), whose CSV and report sections hold times",
        compared.experiments,
        compared.exact_files,
        compared.timed.len(),
        compared.timed.join(", ")
    );
    let matches = match_command(args);
    let (slurm, merged, single, wall) = both_ways(cluster, args, &runs, "match", xtask, &matches)?;
    let summary = |dir: &Path| -> Result<Value> {
        let path = dir.join("match.json");
        let text = fs::read_to_string(&path).map_err(io(&path))?;
        serde_json::from_str(&text).map_err(|e| ClusterError::Mismatch(vec![format!("{}: {e}", path.display())]))
    };
    let (a, b) = (summary(&single)?, summary(&merged)?);
    if a != b {
        return Err(ClusterError::Mismatch(vec![format!("match.json: single run {a}, merged {b}")]));
    }
    describe(&mut text, &slurm, args, &matches, wall);
    let _ = writeln!(
        text,
        "  - equal: `match.json` ({} games, W-D-L {}-{}-{}, pentanomial {})",
        a["games"], a["wins"], a["draws"], a["losses"], a["pentanomial"]
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_lines_parse() {
        let line = "JobId=12 ArrayJobId=10 ArrayTaskId=2 JobName=x JobState=COMPLETED Reason=None \
                    ExitCode=0:0 RunTime=00:00:31 StartTime=2026-11-24T06:00:00 EndTime=2026-11-24T06:00:31";
        let j = JobInfo::parse(line).expect("parses");
        assert_eq!((j.id.as_str(), j.state.as_str(), j.exit_code.as_str()), ("10_2", "COMPLETED", "0:0"));
        assert!(j.finished() && j.ok());
        let pending = JobInfo::parse("JobId=13 JobState=PENDING Reason=Dependency").expect("parses");
        assert_eq!(pending.id, "13");
        assert!(!pending.finished());
        assert!(JobInfo::parse("no job here").is_none());
    }

    #[test]
    fn timing_fields_are_set_aside() {
        let v = serde_json::json!({"rows": [{"depth": 2, "iom_micros": 17, "iom_ms_per_move": 0.5, "wins": 3}]});
        let (kept, timed) = without_timings(&v);
        assert!(timed);
        assert_eq!(kept, serde_json::json!({"rows": [{"depth": 2, "wins": 3}]}));
        let (same, timed) = without_timings(&serde_json::json!({"wins": 1}));
        assert!(!timed);
        assert_eq!(same, serde_json::json!({"wins": 1}));
    }

    #[test]
    fn report_sections_split_by_experiment() {
        let s = report_sections("# Report\nintro\n## `a`: x\none\n## `b`: y\ntwo\n");
        assert_eq!(s.len(), 2);
        assert_eq!(s["a"], "## `a`: x\none\n");
        assert_eq!(s["b"], "## `b`: y\ntwo\n");
    }

    #[test]
    fn the_configuration_names_this_host() {
        let host = Host { name: "node1".into(), cpus: 2, memory_mib: 4000 };
        let conf = slurm_conf(&host, &Layout { root: PathBuf::from("/tmp/c") });
        assert!(conf.contains("NodeName=node1 NodeAddr=127.0.0.1 CPUs=2 RealMemory=4000"));
        assert!(conf.contains("SlurmctldPidFile=/tmp/c/run/slurmctld.pid"));
    }
}
