//! Project tasks, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).
//!
//! A thin dispatcher: it parses the command line ([`flags`]) and calls the
//! `experiments` crate, where the tasks live; only `layering` is here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use experiments::{TaskResult, reproduce, tools};

mod flags;
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
    /// Measure the library against its limits and against minimax-rs; write docs/benchmarks.md.
    Bench(flags::Bench),
    /// Run the kibitz chess engine on the Win At Chess suite.
    Wac(flags::Wac),
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
        Command::Bench(args) => tools::bench::run(args.into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
