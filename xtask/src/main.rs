//! Project tasks, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).
//!
//! A thin dispatcher: it parses the command line ([`flags`]) and calls the
//! `experiments` crate, where the tasks live; only `layering` and `fuzz`
//! (which drive cargo itself) and `cluster-test` (which drives Slurm) are
//! here.

use std::process::{Command as Process, ExitCode};

use clap::{Parser, Subcommand};

use experiments::{TaskResult, dial, reproduce, tools};

/// The allocator. Every match cell builds its agents afresh, each with a
/// transposition table of several MiB. glibc's malloc raises its mmap
/// threshold each time such a block is freed; later tables then come from
/// the heap, and the freed ones stay resident: a 43,200-game gobang
/// calibration peaked at 16 GB. mimalloc gives the memory back.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cluster;
mod flags;
mod fuzz;
mod layering;

/// Project tasks for the backup-rules workspace.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a short demonstration game and print the search results.
    Demo(flags::Demo),
    /// Count the leaves of a game's move tree (perft) through the `Game` trait.
    Perft(flags::Perft),
    /// Solve positions exactly (connect-4).
    Solve(flags::Solve),
    /// Check that the crate dependency graph obeys the layering rules.
    Layering,
    /// Regenerate every table and figure of the seed papers.
    Reproduce(flags::Reproduce),
    /// Measure the library against its limits and against minimax-rs (in the tuned `bench` profile); write
    /// docs/benchmarks.md.
    Bench(flags::Bench),
    /// Run the kibitz chess engine on the Win At Chess suite.
    Wac(flags::Wac),
    /// Soak-test the kibitz engine: a long random GUI session and engine-vs-engine games, counting panics,
    /// hangs and illegal moves (minutes; --quick for under one).
    Soak(flags::Soak),
    /// Play paired games between two agents: W/D/L, Elo with its interval, pentanomial counts, LOS, SPRT.
    Match(flags::Match),
    /// Rate the strength dial's ladder of a game (writes calibration/GAME.json).
    Calibrate(flags::Calibrate),
    /// Rate agents on a game's committed dial ladder: paired games against every rung, the rungs' ratings fixed.
    Rate(flags::Rate),
    /// Estimate a player's model (Boltzmann θ, ε-greedy, noise) from their games, with its 95% interval and Elo.
    Fit(flags::Fit),
    /// Validate the player-model estimators on synthetic players of known θ / ε in real games: bias, RMSE and
    /// interval coverage against the number of games, and model choice by AIC.
    FitValidation(flags::FitValidation),
    /// Run the property tests (test targets named fuzz_*) with many cases, timed.
    Fuzz(flags::Fuzz),
    /// Serve the web app (play against the agents in a browser) until Ctrl-C.
    Play(flags::Play),
    /// Load-test the web app's server on loopback: concurrent sessions, malformed requests, latencies.
    Loadtest(flags::Loadtest),
    /// Find the Nash equilibria of a two-player game in Gambit's .nfg format (exact fractions).
    Nash(flags::Nash),
    /// Generate chess endgame tablebases by retrograde analysis (KQK, KRK, KPK, KBNK, KQKR, `all`, ...).
    Tablebase(flags::Tablebase),
    /// The human-like chess opponent: `human train` (fit on data/human/) and `human eval [--json]` (test split).
    Human(flags::Human),
    /// Make an opening book: `book chess --from-pgn FILE --out book.bin` (a Polyglot book) or `book connect4 [--plies N]` (solved).
    Book(flags::Book),
    /// Prove the Slurm scripts (docs/cluster.md) on a one-node Slurm of this machine: install it if missing
    /// (root), submit `reproduce --quick` as a job array plus a dependent merge, compare with a local run.
    ClusterTest(flags::ClusterTest),
}

/// `cargo xtask bench`: measured in the tuned build. The `xtask` alias builds
/// with `--release`, which has no LTO; `[profile.bench]` has the thin LTO
/// and single codegen unit the figures assume. Unless this run was started
/// in that profile (marked by [`tools::bench::PROFILE_ENV`]), the task
/// builds and runs itself again with `cargo run --profile bench`, with the
/// same arguments.
fn bench(args: flags::Bench) -> TaskResult {
    use tools::bench::{BENCH_PROFILE, PROFILE_ENV, built_with_bench_profile};
    if built_with_bench_profile() {
        return tools::bench::run(args.into());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Process::new(cargo);
    cmd.args(["run", "--quiet", "--profile", BENCH_PROFILE, "--package", "xtask", "--"])
        .args(std::env::args_os().skip(1))
        .env(PROFILE_ENV, BENCH_PROFILE);
    eprintln!("bench: building and running in the {BENCH_PROFILE} profile: {cmd:?}");
    let status = cmd.status()?;
    if status.success() { Ok(()) } else { Err(format!("the {BENCH_PROFILE}-profile run failed ({status})").into()) }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => tools::demo::run(args.into()),
        Command::Perft(args) => tools::perft::run(args.into()),
        Command::Solve(args) => tools::solve::run(args.into()),
        Command::Layering => layering::run(),
        Command::Reproduce(args) => reproduce::run(args.into()),
        Command::Wac(args) => tools::wac::run(args.into()),
        Command::Soak(args) => tools::soak::run(args.into()),
        Command::Bench(args) => bench(args),
        Command::Fuzz(args) => fuzz::run(args.cases),
        Command::Match(args) => dial::matches::run(args.into()),
        Command::Calibrate(args) => dial::calibrate::run(args.into()),
        Command::Rate(args) => dial::rate::run(args.into()),
        Command::Fit(args) => dial::fitting::run(args.into()),
        Command::FitValidation(args) => dial::fit_validation::run(args.into()),
        Command::Play(args) => args.run(),
        Command::Loadtest(args) => args.run(),
        Command::Nash(args) => tools::nash::run(args.into()),
        Command::Tablebase(args) => tools::tablebase::run(args.into()),
        Command::Book(args) => tools::book::run(args.into()),
        Command::ClusterTest(args) => cluster::run_test(&args.into()).map_err(Into::into),
        Command::Human(args) => args.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
