//! Project tasks, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod demo;
mod layering;
mod perft;
mod reproduce;
mod solve;
mod wac;

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
    Demo(demo::Args),
    /// Count the leaves of a game's move tree (perft) through the `Game` trait.
    Perft(perft::Args),
    /// Solve positions exactly (connect-4).
    Solve(solve::Args),
    /// Check that the crate dependency graph obeys the layering rules.
    Layering,
    /// Regenerate every table and figure of the seed papers.
    Reproduce(reproduce::Args),
    /// Measure the library against its limits and against minimax-rs; write docs/benchmarks.md.
    Bench(bench::Args),
    /// Run the kibitz chess engine on the Win At Chess suite.
    Wac(wac::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => demo::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Layering => layering::run(),
        Command::Reproduce(args) => reproduce::run(args),
        Command::Wac(args) => wac::run(args),
        Command::Bench(args) => bench::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The error type of every task: a message for the user.
type TaskResult = Result<(), Box<dyn std::error::Error>>;
