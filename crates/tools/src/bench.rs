//! `cargo xtask bench [--quick]`: the library against its limits and against
//! another library, every ratio measured side by side in one run.
//!
//! - **Side by side with minimax-rs** (the `minimax` crate): connect-4
//!   alpha-beta, ours against theirs on the same game, evaluator and table
//!   size. minimax-rs is a dev-dependency of the `benches` crate only, so this
//!   task runs the `benches` example `side_by_side` (examples may use
//!   dev-dependencies) and parses its tab-separated output; the example does
//!   the interleaved runs and checks that both sides find the same root values.
//! - **Against the limits**, measured here: Rminimax time ÷ minimax time on
//!   the same full tree; PIOM nodes ÷ IOM nodes; alpha-beta leaves ÷ the
//!   Knuth–Moore minimum; the connect-4 solver's mean nodes ÷ Pons' published
//!   figures (and its time per position against bitbully on Pons' six sets,
//!   side by side: the `bench_solver` module); chess perft through the
//!   `Game` trait ÷ `shakmaty`'s own perft (only the applications may depend on
//!   the GPL chess crate).
//!
//! Timed comparisons run interleaved (A B A B …, at least five pairs; two with
//! `--quick`); the tables give the median of each side and the median, minimum
//! and maximum of the per-pair ratios. Nothing asserts on time.
//!
//! Everything is measured in the tuned build of the [`BENCH_PROFILE`] cargo
//! profile (thin LTO, one codegen unit: what `cargo bench` uses), not in the
//! `release` profile the other tools build with: the example runs with
//! `cargo run --profile bench`, and `cargo xtask bench` reruns itself that
//! way, marking the run with [`PROFILE_ENV`] (cargo puts the `bench`
//! profile's executables in `target/release` too, so the path of an
//! executable does not tell its profile).
//!
//! The report is printed as Markdown and written to `docs/benchmarks.md`
//! (with `--quick`, to `target/benchmarks-quick.md`, so that a smoke run never
//! overwrites the committed figures) with the machine, compiler, build
//! profile, date and command.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use games_chess::shakmaty;
use games_chess::{ChessGame, Rules};
use games_small::{TicTacToe, TicTacToeEval};
use search_core::backup::{Iom, Minimax, Rminimax};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};

use crate::TaskResult;

/// Arguments of `cargo xtask bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// A smoke run for CI: small depths and sets, two pairs, a report in
    /// `target/benchmarks-quick.md`.
    #[arg(long)]
    pub quick: bool,
    /// Interleaved pairs per timed comparison (default 5; 2 with --quick).
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Connect-4 depths of the minimax-rs comparison (default 8,10,12; 6,8
    /// with --quick).
    #[arg(long, value_delimiter = ',')]
    pub depths: Option<Vec<u32>>,
    /// Skip the minimax-rs comparison (it builds and runs a `benches` example).
    #[arg(long)]
    pub no_side_by_side: bool,
    /// Where to write the report (default docs/benchmarks.md, or
    /// target/benchmarks-quick.md with --quick).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only these sections (comma-separated): side-by-side, rminimax,
    /// piom, knuth-moore, solver, perft, mcts, smp, memory.
    #[arg(long, value_delimiter = ',')]
    pub only: Option<Vec<String>>,
    /// Where Pons' six connect-4 sets are, one file per set named
    /// end-easy, middle-easy, middle-medium, begin-easy, begin-medium,
    /// begin-hard (default: connect4/ of the shared test data, the folder
    /// $BACKUP_RULES_SHARED or ../shared beside the workspace; a set that is
    /// missing is skipped and the report says so).
    #[arg(long, value_name = "DIR")]
    pub connect4_sets: Option<PathBuf>,
}

/// The sections `--only` accepts.
pub const SECTIONS: [&str; 9] =
    ["side-by-side", "rminimax", "piom", "knuth-moore", "solver", "perft", "mcts", "smp", "memory"];

/// A timed comparison: per-pair times of the two sides and what proves that
/// they did the same work.
#[derive(Debug)]
pub(crate) struct Timed {
    pub(crate) name: String,
    pub(crate) ours: Vec<f64>,
    pub(crate) theirs: Vec<f64>,
    /// The work check: node counts, values.
    pub(crate) work: String,
    /// The goal on the ratio, if any.
    pub(crate) goal: Option<f64>,
}

/// A speedup: the time of one thread over the time of two.
#[derive(Debug)]
pub(crate) struct Scaling {
    pub(crate) name: String,
    /// Seconds with one thread.
    pub(crate) one: f64,
    /// Seconds with two threads.
    pub(crate) two: f64,
    /// The goal on the speedup (at least).
    pub(crate) goal: f64,
    pub(crate) note: String,
}

/// A quality curve: (simulations, fraction of optimal moves) per backup.
#[derive(Debug)]
pub(crate) struct Quality {
    pub(crate) name: String,
    pub(crate) points: Vec<(f64, f64)>,
    pub(crate) positions: usize,
}

/// A non-time ratio (nodes, leaves).
#[derive(Debug)]
pub(crate) struct Counted {
    pub(crate) name: String,
    pub(crate) ours: f64,
    pub(crate) reference: f64,
    pub(crate) note: String,
    pub(crate) goal: Option<f64>,
}

#[derive(Debug, Default)]
pub(crate) struct Report {
    pub(crate) timed: Vec<Timed>,
    pub(crate) counted: Vec<Counted>,
    pub(crate) scaling: Vec<Scaling>,
    pub(crate) quality: Vec<Quality>,
    pub(crate) notes: Vec<String>,
}

pub fn run(args: Args) -> TaskResult {
    let pairs = args.pairs.unwrap_or(if args.quick { 2 } else { 5 });
    if pairs == 0 {
        return Err("--pairs must be at least 1".into());
    }
    if let Some(bad) = args.only.iter().flatten().find(|s| !SECTIONS.contains(&s.as_str())) {
        return Err(format!("unknown section {bad:?} for --only; known: {}", SECTIONS.join(", ")).into());
    }
    let on = |s: &str| args.only.as_ref().is_none_or(|o| o.iter().any(|x| x == s));
    let root = workspace_root();
    let mut report = Report::default();
    if !args.no_side_by_side && on("side-by-side") {
        let depths = args.depths.clone().unwrap_or(if args.quick { vec![6, 8] } else { vec![8, 10, 12] });
        side_by_side(&root, &depths, pairs, args.quick, &mut report)?;
    }
    if on("rminimax") {
        rminimax_vs_minimax(pairs, args.quick, &mut report);
    }
    if on("piom") {
        piom_vs_iom(args.quick, &mut report);
    }
    if on("knuth-moore") {
        knuth_moore(args.quick, &mut report);
    }
    if on("solver") {
        let sets = args.connect4_sets.clone().or_else(|| test_data::path("connect4")).unwrap_or_default();
        super::bench_solver::solver_vs_peers(&root, &sets, pairs, args.quick, &mut report)?;
    }
    if on("perft") {
        chess_perft(pairs, args.quick, &mut report);
    }
    if on("mcts") {
        super::bench_mcts::mcts_vs_openspiel(args.quick, &mut report);
        super::bench_mcts::mcts_threads(args.quick, &mut report);
        super::bench_mcts::connect4_quality(&root, args.quick, &mut report)?;
    }
    if on("smp") {
        super::bench_mcts::lazy_smp(args.quick, &mut report)?;
    }
    if on("memory") {
        super::bench_memory::peak_memory(&root, args.quick, &mut report)?;
    }

    let command = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let markdown = render(&report, &format!("cargo xtask {command}"), args.quick);
    println!("{markdown}");
    // A run of some sections only never overwrites the full report.
    let out = args.out.unwrap_or_else(|| match (&args.only, args.quick) {
        (Some(only), _) => root.join(format!("target/benchmarks-{}.md", only.join("-"))),
        (None, true) => root.join("target/benchmarks-quick.md"),
        (None, false) => root.join("docs/benchmarks.md"),
    });
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let kept = std::fs::read_to_string(&out).ok().and_then(|old| hand_written(&old).map(str::to_string));
    std::fs::write(&out, markdown + kept.as_deref().map_or("", |k| k))?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

/// The line after which a report holds hand-written sections (measurements
/// made with other commands, such as matches), which regenerating the
/// benchmarks keeps.
pub const HAND_WRITTEN: &str =
    "<!-- Below this line: written by hand, kept when `cargo xtask bench` regenerates the file. -->";

/// The hand-written part of an old report: from the [`HAND_WRITTEN`] line to
/// the end, with a blank line before it.
fn hand_written(old: &str) -> Option<&str> {
    let at = old.find(HAND_WRITTEN)?;
    // Include the newline that ends the generated part, if there is one.
    Some(&old[old[..at].rfind('\n').unwrap_or(at)..])
}

/// The cargo profile the figures are measured in: `[profile.bench]` of the
/// workspace (thin LTO, one codegen unit).
pub const BENCH_PROFILE: &str = "bench";

/// The environment variable that `cargo xtask bench` sets, to the name of
/// the profile, for the run it starts with `cargo run --profile bench`.
pub const PROFILE_ENV: &str = "XTASK_BENCH_PROFILE";

/// The cargo profile this run was built with, as [`PROFILE_ENV`] says
/// (`None`: not started by `cargo xtask bench` in a given profile).
pub fn build_profile() -> Option<String> {
    std::env::var(PROFILE_ENV).ok().filter(|p| !p.is_empty())
}

/// The cargo profile of the helper programs a run builds (the
/// `side_by_side` example, the `kibitz` engine) and the folder of the target
/// directory cargo puts them in: [`BENCH_PROFILE`] for a measuring run; for
/// a `--quick` smoke run, the profile at hand (`test`, which has debug
/// assertions, when this program was built with them; `release`
/// otherwise), so that a smoke run after the tests builds nothing new.
pub fn helper_profile(quick: bool) -> (&'static str, &'static str) {
    match (quick, cfg!(debug_assertions)) {
        (false, _) => (BENCH_PROFILE, "release"),
        (true, true) => ("test", "debug"),
        (true, false) => ("release", "release"),
    }
}

/// True if this run was started in [`BENCH_PROFILE`], so that what `run`
/// measures in process is the tuned build.
pub fn built_with_bench_profile() -> bool {
    build_profile().as_deref() == Some(BENCH_PROFILE)
}

/// The workspace root (two levels above this crate's directory, `crates/tools`).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("tools is inside the workspace").to_path_buf()
}

/// Runs `f` `pairs` times interleaved with `g` (f, g, f, g, …) and returns
/// each side's times in seconds. The results of the first pair are returned
/// for the work check.
fn interleaved<A, B>(pairs: usize, mut f: impl FnMut() -> A, mut g: impl FnMut() -> B) -> (Vec<f64>, Vec<f64>, A, B) {
    let (mut ta, mut tb) = (Vec::with_capacity(pairs), Vec::with_capacity(pairs));
    let mut first = None;
    for _ in 0..pairs {
        let (a, da) = timed(&mut f);
        let (b, db) = timed(&mut g);
        ta.push(da);
        tb.push(db);
        first.get_or_insert((a, b));
    }
    let (a, b) = first.expect("at least one pair");
    (ta, tb, a, b)
}

fn timed<T>(f: &mut impl FnMut() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64())
}

pub(crate) fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The per-pair ratios ours ÷ theirs: median, min, max.
fn ratios(t: &Timed) -> (f64, f64, f64) {
    let r: Vec<f64> = t.ours.iter().zip(&t.theirs).map(|(a, b)| a / b).collect();
    let min = r.iter().copied().fold(f64::INFINITY, f64::min);
    let max = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (median(&r), min, max)
}

// ---------------------------------------------------------------------------
// minimax-rs, through the benches example.

/// Builds the programs the bench runs beside itself (the `side_by_side`
/// example and the `kibitz` engine) in [`helper_profile`] and returns the
/// folder that holds them (`kibitz` in it, the example in its `examples`).
///
/// One `cargo build --workspace` with an example among its targets resolves
/// features as `cargo test --workspace` does (the whole workspace, its
/// dev-dependencies included), so after the tests' build (CI's `--quick`
/// run) nothing is compiled again; `cargo run -p benches` would resolve
/// them for one package and rebuild most of the workspace.
pub(crate) fn build_helpers(root: &Path, quick: bool) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let (profile, folder) = helper_profile(quick);
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["build", "--quiet", "--profile", profile, "--workspace", "--example", "side_by_side", "--bin", "kibitz"])
        .status()?;
    if !status.success() {
        return Err(format!("could not build the side_by_side example and the kibitz engine ({status})").into());
    }
    Ok(taskkit::target_dir(root).join(folder))
}

fn side_by_side(root: &Path, depths: &[u32], pairs: usize, quick: bool, report: &mut Report) -> TaskResult {
    let depths = depths.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let positions = if quick { "5" } else { "20" };
    let mut cmd = Command::new(build_helpers(root, quick)?.join("examples").join("side_by_side"));
    cmd.current_dir(root).args(["--depths", &depths, "--pairs", &pairs.to_string(), "--positions", positions]);
    let out = run_example(&mut cmd)?;
    parse_side_by_side(&out, report)
}

fn run_example(cmd: &mut Command) -> Result<String, Box<dyn std::error::Error>> {
    eprintln!("running {cmd:?}");
    let out = cmd.output()?;
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(
            format!("the side_by_side example failed ({}): root values differ or it crashed", out.status).into()
        );
    }
    Ok(String::from_utf8(out.stdout)?)
}

/// Parses the example's `case`, `sample` and `work` lines into comparisons.
fn parse_side_by_side(out: &str, report: &mut Report) -> TaskResult {
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["case", id, _] => {
                let goal = id.starts_with("iterative").then_some(1.0);
                report.timed.push(Timed {
                    name: format!("connect-4 {id}: ours ÷ minimax-rs"),
                    ours: Vec::new(),
                    theirs: Vec::new(),
                    work: String::new(),
                    goal,
                });
            }
            ["sample", _, _, a, b] => {
                let t = report.timed.last_mut().ok_or("a sample before its case")?;
                t.ours.push(a.parse::<f64>()? * 1e-9);
                t.theirs.push(b.parse::<f64>()? * 1e-9);
            }
            ["work", _, na, nb, equal, n] => {
                let t = report.timed.last_mut().ok_or("a work line before its case")?;
                let (na, nb): (f64, f64) = (na.parse()?, nb.parse()?);
                t.work = format!(
                    "nodes {} vs {} (×{:.3}); equal root values {equal}/{n}; time per node ratio {:.2}",
                    na,
                    nb,
                    na / nb,
                    median(&t.ours) / na / (median(&t.theirs) / nb)
                );
            }
            _ => {}
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Rminimax against minimax on the same full trees.

fn rminimax_vs_minimax(pairs: usize, quick: bool, report: &mut Report) {
    let ttt = TicTacToe::new();
    let trees = if quick { vec![(4u8, 6u8)] } else { vec![(4, 9), (6, 7), (8, 6)] };
    // Tic-tac-toe: the whole game tree (549,946 nodes), no depth limit.
    push_rminimax(report, pairs, "tic-tac-toe full tree", &ttt, TicTacToeEval::default());
    for (b, d) in trees {
        let tree = RandomTree::new(7, b, d, LeafModel::Uniform { min: -100, max: 100 }).expect("valid tree");
        let name = format!("random tree b{b} d{d} full tree");
        push_rminimax(report, pairs, &name, &tree, RandomTreeEval::for_tree(&tree));
    }
}

fn push_rminimax<G, E>(report: &mut Report, pairs: usize, name: &str, root: &G, eval: E)
where
    G: search_core::Game,
    E: search_core::Evaluator<G> + Copy,
{
    let rule = Rminimax::new(1.0).expect("θ = 1 is valid");
    let (ours, theirs, a, b) =
        interleaved(pairs, || full_tree_nodes(rule, eval, root), || full_tree_nodes(Minimax, eval, root));
    report.timed.push(Timed {
        name: format!("{name}: Rminimax θ=1 ÷ minimax (full width)"),
        ours,
        theirs,
        work: format!("nodes {a} vs {b}{}", if a == b { " (equal)" } else { " (DIFFER)" }),
        goal: Some(1.5),
    });
}

/// The nodes of a full-width search of `root`'s whole tree with `rule`.
fn full_tree_nodes<G, R, E>(rule: R, eval: E, root: &G) -> u64
where
    G: search_core::Game,
    R: search_core::backup::Backup,
    E: search_core::Evaluator<G>,
{
    let mut search = Search::new(rule, eval, Options::full_width()).expect("full width is valid for every rule");
    search.run(root, &Limits::full_tree()).expect("the game goes on").stats.nodes
}

// ---------------------------------------------------------------------------
// PIOM against IOM, alpha-beta against the Knuth–Moore minimum.

fn piom_vs_iom(quick: bool, report: &mut Report) {
    let trees = if quick { vec![(4u8, 6u8, 3u64)] } else { vec![(4, 8, 3), (6, 6, 4), (8, 6, 5)] };
    for (b, d, seed) in trees {
        let tree = RandomTree::new(seed, b, d, LeafModel::ArcSum { max_arc: 10 }).expect("valid tree");
        let eval = RandomTreeEval::for_tree(&tree);
        let run = |options| {
            let mut search = Search::new(Iom::new(), eval, options).expect("valid options for IOM");
            search.run(&tree, &Limits::depth(u32::from(d))).expect("ongoing")
        };
        let (iom, piom) = (run(Options::full_width()), run(Options::plain_alpha_beta()));
        let (pv, iv) = (piom.value.unwrap_or(f64::NAN), iom.value.unwrap_or(f64::NAN));
        report.counted.push(Counted {
            name: format!("random tree b{b} d{d} (arc sums): PIOM nodes ÷ IOM nodes"),
            ours: piom.stats.nodes as f64,
            reference: iom.stats.nodes as f64,
            note: format!("root values {pv} / {iv}{}", if pv == iv { " (equal)" } else { " (DIFFER)" }),
            goal: None,
        });
    }
}

fn knuth_moore(quick: bool, report: &mut Report) {
    let trees = if quick { vec![(4u8, 6u8)] } else { vec![(4, 8), (6, 6), (8, 6), (10, 5)] };
    for (b, d) in trees {
        let tree = RandomTree::new(11, b, d, LeafModel::Uniform { min: -1000, max: 1000 }).expect("valid tree");
        let eval = RandomTreeEval::for_tree(&tree);
        let mut search = Search::new(Minimax, eval, Options::plain_alpha_beta()).expect("valid for minimax");
        let r = search.run(&tree, &Limits::full_tree()).expect("ongoing");
        let (b, d) = (f64::from(b), i32::from(d));
        let minimum = b.powi((d + 1) / 2) + b.powi(d / 2) - 1.0;
        report.counted.push(Counted {
            name: format!("random tree b{b} d{d} (uniform leaves): alpha-beta leaves ÷ b^⌈d/2⌉ + b^⌊d/2⌋ − 1"),
            ours: r.stats.leaves as f64,
            reference: minimum,
            note: "the tree's own (random) move order; full tree b^d = ".to_string() + &format!("{}", b.powi(d)),
            goal: None,
        });
    }
}

// ---------------------------------------------------------------------------
// Chess perft: the Game trait against shakmaty's own.

fn chess_perft(pairs: usize, quick: bool, report: &mut Report) {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let cases: Vec<(&str, Option<&str>, u32)> = if quick {
        vec![("start", None, 3), ("kiwipete", Some(KIWIPETE), 2)]
    } else {
        vec![("start", None, 5), ("kiwipete", Some(KIWIPETE), 4)]
    };
    for (name, fen, depth) in cases {
        let game = match fen {
            Some(f) => ChessGame::from_fen(f).expect("valid FEN"),
            None => ChessGame::startpos(),
        }
        .with_rules(Rules::PERFT);
        let native = game.position().clone();
        let (ours, theirs, a, b) = interleaved(
            pairs,
            || search_core::perft(std::hint::black_box(&game), depth).expect("depth within MAX_PLY"),
            || shakmaty::perft(std::hint::black_box(&native), depth),
        );
        report.timed.push(Timed {
            name: format!("chess perft {name} d{depth}: Game trait ÷ shakmaty::perft"),
            ours,
            theirs,
            work: format!("leaves {a} vs {b}{}", if a == b { " (equal)" } else { " (DIFFER)" }),
            goal: Some(1.15),
        });
    }
}

// ---------------------------------------------------------------------------
// The report.

fn render(report: &Report, command: &str, quick: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Benchmarks\n");
    let _ = writeln!(
        s,
        "Generated by `{command}` (see `crates/tools/src/bench.rs`); every ratio is measured side by side in one \
         run. Do not edit by hand above the hand-written marker near the end.\n"
    );
    let _ = writeln!(s, "- Machine: {}", machine());
    let _ = writeln!(s, "- Compiler: {}", rustc_version());
    let _ = writeln!(
        s,
        "- Build: cargo profile `{}` (the `side_by_side` example: `{}`)",
        build_profile().unwrap_or_else(|| if quick { helper_profile(true).0.into() } else { "unknown".into() }),
        helper_profile(quick).0
    );
    let _ = writeln!(s, "- Date (UTC): {}\n", today());
    let _ = writeln!(s, "## Timed ratios (ours ÷ reference; interleaved pairs)\n");
    let _ = writeln!(
        s,
        "| comparison | ours (median) | reference (median) | ratio (median) | ratio min–max | pairs | goal | same work |"
    );
    let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |");
    for t in &report.timed {
        let (m, lo, hi) = ratios(t);
        let goal = t.goal.map_or("—".to_string(), |g| format!("≤ {g} {}", if m <= g { "met" } else { "**missed**" }));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {m:.3} | {lo:.3}–{hi:.3} | {} | {goal} | {} |",
            t.name,
            seconds(median(&t.ours)),
            seconds(median(&t.theirs)),
            t.ours.len(),
            t.work
        );
    }
    let _ = writeln!(s, "\n## Counted ratios\n");
    let _ = writeln!(s, "| quantity | ours | reference | ratio | goal | notes |");
    let _ = writeln!(s, "| --- | ---: | ---: | ---: | --- | --- |");
    for c in &report.counted {
        let r = c.ours / c.reference;
        let goal = c.goal.map_or("—".to_string(), |g| format!("≤ {g} {}", if r <= g { "met" } else { "**missed**" }));
        let _ = writeln!(s, "| {} | {:.1} | {:.1} | {r:.3} | {goal} | {} |", c.name, c.ours, c.reference, c.note);
    }
    if !report.scaling.is_empty() {
        let _ = writeln!(s, "\n## Parallel speedups (same machine, same run)\n");
        let _ = writeln!(s, "| comparison | 1 thread | 2 threads | speedup | goal | notes |");
        let _ = writeln!(s, "| --- | ---: | ---: | ---: | --- | --- |");
        for c in &report.scaling {
            let x = c.one / c.two;
            let goal = format!("≥ {} {}", c.goal, if x >= c.goal { "met" } else { "**missed**" });
            let _ =
                writeln!(s, "| {} | {} | {} | {x:.2} | {goal} | {} |", c.name, seconds(c.one), seconds(c.two), c.note);
        }
    }
    if !report.quality.is_empty() {
        let _ = writeln!(s, "\n## MCTS quality on connect-4 (fraction of value-keeping moves)\n");
        let sims: Vec<f64> = report.quality[0].points.iter().map(|p| p.0).collect();
        let head: Vec<String> = sims.iter().map(|x| format!("{x}")).collect();
        let _ = writeln!(s, "| backup \\ simulations | {} |", head.join(" | "));
        let _ = writeln!(s, "| --- |{}", " ---: |".repeat(sims.len()));
        for q in &report.quality {
            let cells: Vec<String> = q.points.iter().map(|p| format!("{:.2}", p.1)).collect();
            let _ = writeln!(s, "| {} ({} positions) | {} |", q.name, q.positions, cells.join(" | "));
        }
    }
    let _ = writeln!(s, "\n## Method\n");
    for line in METHOD {
        let _ = writeln!(s, "- {line}");
    }
    if !report.notes.is_empty() {
        let _ = writeln!(s, "\n## Notes\n");
        for n in &report.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    s
}

/// How the figures are made, printed under the tables.
const METHOD: [&str; 10] = [
    "minimax-rs (the `minimax` crate 0.6, a dev-dependency of `benches` only) runs in the `benches` example \
     `side_by_side` on our `Connect4` with our `Connect4Eval` (wrapped) and the same table byte budget. \
     `negamax` is our `Options::plain_alpha_beta()` against `minimax::Negamax`; `iterative` is our iterative \
     deepening with a table (entries of at least the remaining depth give values, as in minimax-rs), PVS and \
     the game's order, against `minimax::IterativeSearch` with its default options.",
    "minimax-rs shuffles its root moves with an unseeded RNG; the example starts it one ply above the position \
     at a synthetic node with one move, so that it searches the position deterministically in our move order.",
    "Root values agree on every position (wins compared as ±win: minimax-rs reports any win as ±i16::MAX). \
     Node counts differ slightly where wins lie within the horizon: minimax-rs moves win scores one step \
     towards 0 per ply but passes windows down unshifted, so its cutoffs near win scores differ by one ply \
     from textbook alpha-beta (ours matches a textbook reference). Hence the time-per-node column.",
    "Mid-game positions: 20 positions after 10–16 random plies (seed 1), skipping positions whose value at \
     the deepest depth is a proven win or loss (minimax-rs's iterative deepening stops at a proven win).",
    "Rminimax and minimax search the same full trees (equal node counts); PIOM and IOM return equal root \
     values; alpha-beta leaves are counted in the tree's own random order; the solver starts each position \
     from an empty table; chess perft counts are checked equal.",
    "Time ratios are ours ÷ reference per interleaved pair; the median and the range over the pairs are given. \
     The machine is shared, so single pairs can be noisy.",
    "MCTS against OpenSpiel: the same number of simulations from the initial state, a fresh tree each search, \
     UCT with OpenSpiel's uct_c = 2 on [-1, 1] (our c = 1 on [0, 1]) and one random rollout per new leaf; \
     OpenSpiel is `pyspiel.MCTSBot` with `RandomRolloutEvaluator(1)` (C++ search, called once per search from \
     Python, so the binding overhead is one call). Not interleaved: OpenSpiel's searches run in one Python process.",
    "MCTS quality: Pons' middle-easy positions where some move loses the game-theoretic value (win, draw, loss, \
     from the solver), the first 50; a move is optimal if it keeps the value. One seeded search per position and \
     setting. Figure: docs/mcts-quality.svg.",
    "Parallel speedups: Lazy SMP searches each position from an empty table to a fixed depth with 1 and then \
     2 threads (Options::default(), Search::parallel), three times each, interleaved, keeping each side's \
     fastest; connect-4 positions are the first of Pons' begin-easy set, chess positions the first Win At Chess \
     positions with at least 20 pieces. MCTS with 2 threads is root parallelisation with the same total number \
     of simulations. Speedups are bounded by the cores actually free: on a machine shared with other work they \
     measure the load, not the code.",
    "Peak memory: Linux's VmHWM (peak resident set) of a process of its own: `xtask solve connect4` on a Pons set \
     with the default table (it prints its own peak at the end), and the `kibitz` engine read from /proc while it \
     is alive, after its `bestmove`.",
];

fn seconds(x: f64) -> String {
    if x >= 1.0 {
        format!("{x:.3} s")
    } else if x >= 1e-3 {
        format!("{:.3} ms", x * 1e3)
    } else {
        format!("{:.1} µs", x * 1e6)
    }
}

/// The CPU model (from /proc/cpuinfo) and the number of cores.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{model}, {cores} cores available, {}", std::env::consts::OS)
}

fn rustc_version() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown rustc".into(), |v| v.trim().to_string())
}

/// Today's date, `YYYY-MM-DD` (UTC), from the system clock.
fn today() -> String {
    let secs = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or(Duration::ZERO).as_secs();
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Hinnant's
/// algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_sections_survive_regeneration() {
        let old = format!("# Benchmarks\n\nold tables\n\n{HAND_WRITTEN}\n\n## Matches\n\n| a |\n");
        assert_eq!(hand_written(&old), Some(format!("\n{HAND_WRITTEN}\n\n## Matches\n\n| a |\n").as_str()));
        assert_eq!(hand_written("# Benchmarks\n\nno marker\n"), None);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }

    #[test]
    fn medians_and_ratios() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        let t = Timed {
            name: String::new(),
            ours: vec![2.0, 3.0],
            theirs: vec![1.0, 1.0],
            work: String::new(),
            goal: None,
        };
        assert_eq!(ratios(&t), (2.5, 2.0, 3.0));
    }

    #[test]
    fn side_by_side_output_parses() {
        let out = "case\tnegamax/start/d8\tx\nsample\tnegamax/start/d8\t0\t2000\t1000\n\
                   work\tnegamax/start/d8\t10\t10\t1\t1\n";
        let mut r = Report::default();
        parse_side_by_side(out, &mut r).unwrap();
        assert_eq!(r.timed.len(), 1);
        assert_eq!(ratios(&r.timed[0]).0, 2.0);
        assert!(r.timed[0].work.contains("equal root values 1/1"));
    }
}
