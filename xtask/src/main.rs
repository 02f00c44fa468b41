//! Project tasks, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).
//!
//! A thin dispatcher: it parses the command line and calls the task crates,
//! where the tasks and their arguments (each command's clap declaration) live:
//! `dial` (match, calibrate, rate, fit, fit-validation, human rate), `tools`
//! (bench, demo, perft, solve, book, wac, soak, tablebase, nash, human train,
//! eval and corpus), `experiments` (reproduce) and `play` (the web app and its load
//! test). Only `layering`, `fuzz` and `test-without-shared` (which drive
//! cargo itself) and `cluster-test` (which drives Slurm) are here.

use std::process::{Command as Process, ExitCode};

use clap::{Parser, Subcommand};

use experiments::{TaskResult, reproduce};

/// The allocator. Every match cell builds its agents afresh, each with a
/// transposition table of several MiB. glibc's malloc raises its mmap
/// threshold each time such a block is freed; later tables then come from
/// the heap, and the freed ones stay resident: a 43,200-game gobang
/// calibration peaked at 16 GB. mimalloc gives the memory back.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cluster;
mod fuzz;
mod layering;
mod without_shared;

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
    Demo(tools::demo::Args),
    /// Count the leaves of a game's move tree (perft) through the `Game` trait.
    Perft(tools::perft::Args),
    /// Solve positions exactly (connect-4).
    Solve(tools::solve::Args),
    /// Check that the crate dependency graph obeys the layering rules.
    Layering,
    /// Regenerate every table and figure of the seed papers.
    Reproduce(reproduce::Args),
    /// Measure the library against its limits and against minimax-rs (in the tuned `bench` profile; --quick: in
    /// the build at hand); write
    /// docs/benchmarks.md.
    Bench(tools::bench::Args),
    /// Run the kibitz chess engine on the Win At Chess suite.
    Wac(tools::wac::Args),
    /// Fit the chess engine's positional evaluation weights to the results of the games in data/human/ (Texel's
    /// method); writes the weights and the fit as JSON.
    TuneEval(tools::tune::Args),
    /// Soak-test the kibitz engine: a long random GUI session and engine-vs-engine games, counting panics,
    /// hangs and illegal moves (minutes; --quick for under one).
    Soak(tools::soak::Args),
    /// Play paired games between two agents: W/D/L, Elo with its interval, pentanomial counts, LOS, SPRT.
    Match(dial::matches::Args),
    /// Rate the strength dial's ladder of a game (writes calibration/GAME.json).
    Calibrate(dial::calibrate::Args),
    /// Rate agents on a game's committed dial ladder: paired games against every rung, the rungs' ratings fixed.
    Rate(dial::rate::Args),
    /// Estimate a player's model (Boltzmann θ, ε-greedy, noise) from their games, with its 95% interval and Elo.
    Fit(dial::fitting::Args),
    /// Validate the player-model estimators on synthetic players of known θ / ε in real games: bias, RMSE and
    /// interval coverage against the number of games, and model choice by AIC.
    FitValidation(dial::fit_validation::Args),
    /// Run the property tests (test targets named fuzz_*) with many cases, timed.
    Fuzz(fuzz::Args),
    /// Run again, without the shared test data (as a fresh clone has it), the tests `cargo test --workspace` built
    /// that can reach that data (those linking the test-data crate).
    TestWithoutShared,
    /// Serve the web app (play against the agents in a browser) until Ctrl-C.
    Play(play::cli::PlayArgs),
    /// Load-test the web app's server on loopback: concurrent sessions, malformed requests, latencies.
    Loadtest(play::cli::LoadtestArgs),
    /// Find the Nash equilibria of a two-player game in Gambit's .nfg format (exact fractions).
    Nash(tools::nash::Args),
    /// Generate chess endgame tablebases by retrograde analysis (KQK, KRK, KPK, KBNK, KQKR, `all`, ...).
    Tablebase(tools::tablebase::Args),
    /// The human-like chess opponent: `human train` (fit on data/human/), `human eval [--json]` (test split), `human rate`, `human corpus`.
    #[command(subcommand)]
    Human(Human),
    /// Make an opening book: `book chess --from-pgn FILE --out book.bin` (a Polyglot book) or `book connect4 [--plies N]` (solved).
    Book(tools::book::Args),
    /// Prove the Slurm scripts (docs/cluster.md) on a one-node Slurm of this machine: install it if missing
    /// (root), submit `reproduce --quick` as a job array plus a dependent merge, compare with a local run.
    ClusterTest(cluster::Args),
}

/// The commands of `cargo xtask human`.
#[derive(Debug, Subcommand)]
enum Human {
    /// Fit the human-like chess model on the train split of data/human/, choose among the candidates by
    /// validation log-likelihood, fit its temperature curve (`human temper`) and write
    /// crates/games-chess/calibration/human-chess.json (the model the engine embeds).
    Train(tools::human::TrainArgs),
    /// Fit the temperature curve of human:X (pick=sample) so that human:X against human:Y scores what Elo
    /// predicts for X − Y, and write it into the model (the last step of `human train`).
    Temper(dial::human_temper::TemperArgs),
    /// Measure the committed model on the test split: move match per rating band against Stockfish (limited
    /// and full), our alpha-beta engine and the dial's elo:X; log-likelihoods; loss distributions.
    Eval(tools::human::EvalArgs),
    /// What game files hold once read as the trainer reads them (games kept and left out, decisions per band
    /// and split, players, speeds), as JSON; default every file of data/human/.
    Corpus(tools::human::CorpusArgs),
    /// Rate human:X on the chess dial's ladder: paired games against every rung of our own settings in the
    /// committed calibration, the rungs' ratings fixed; prints the Lichess rating → dial Elo mapping.
    Rate(dial::human_rate::RateArgs),
    /// Play human:X against human:Y for every pair of ratings (default 900 to 2100 in steps of 300), rate them by
    /// maximum likelihood and set the fitted gaps against the labels'.
    RoundRobin(dial::human_rate::RoundRobinArgs),
}

/// `cargo xtask bench`: measured in the tuned build. The `xtask` alias builds
/// with `--release`, which has no LTO; `[profile.bench]` has the thin LTO
/// and single codegen unit the figures assume. Unless this run was started
/// in that profile (marked by [`tools::bench::PROFILE_ENV`]), the task
/// builds and runs itself again with `cargo run --profile bench`, with the
/// same arguments. A `--quick` smoke run measures nothing that counts, so
/// it runs in the build at hand (CI: the tests' build) and builds no
/// second copy of the workspace.
fn bench(args: tools::bench::Args) -> TaskResult {
    use tools::bench::{BENCH_PROFILE, PROFILE_ENV, built_with_bench_profile};
    if args.quick || built_with_bench_profile() {
        return tools::bench::run(args);
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
        Command::Demo(args) => tools::demo::run(args),
        Command::Perft(args) => tools::perft::run(args),
        Command::Solve(args) => tools::solve::run(args),
        Command::Layering => layering::run(),
        Command::Reproduce(args) => reproduce::run(args),
        Command::Wac(args) => tools::wac::run(args),
        Command::TuneEval(args) => tools::tune::run(args),
        Command::Soak(args) => tools::soak::run(args),
        Command::Bench(args) => bench(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::TestWithoutShared => without_shared::run(),
        Command::Match(args) => dial::matches::run(args),
        Command::Calibrate(args) => dial::calibrate::run(args),
        Command::Rate(args) => dial::rate::run(args),
        Command::Fit(args) => dial::fitting::run(args),
        Command::FitValidation(args) => dial::fit_validation::run(args),
        Command::Play(args) => args.run(),
        Command::Loadtest(args) => args.run(),
        Command::Nash(args) => tools::nash::run(args),
        Command::Tablebase(args) => tools::tablebase::run(args),
        Command::Book(args) => tools::book::run(args),
        Command::ClusterTest(args) => cluster::run_test(&args).map_err(Into::into),
        Command::Human(Human::Train(args)) => {
            let temper = !args.no_temper;
            tools::human::train(args).and_then(|()| {
                // The pool is sized already (by --threads, or one per core).
                if temper { dial::human_temper::temper(dial::human_temper::TemperArgs::standard()) } else { Ok(()) }
            })
        }
        Command::Human(Human::Temper(args)) => dial::human_temper::temper(args),
        Command::Human(Human::RoundRobin(args)) => dial::human_rate::round_robin(args),
        Command::Human(Human::Eval(args)) => tools::human::eval(args),
        Command::Human(Human::Rate(args)) => dial::human_rate::rate(args),
        Command::Human(Human::Corpus(args)) => tools::human::corpus(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use clap::error::ErrorKind;

    use super::*;

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Cli::try_parse_from(std::iter::once("xtask").chain(args.iter().copied())).map(|cli| cli.command)
    }

    fn refused(args: &[&str]) -> clap::Error {
        parse(args).expect_err(&format!("{args:?} should be refused"))
    }

    fn perft(args: &[&str]) -> tools::perft::Game {
        match parse(args).unwrap() {
            Command::Perft(p) => p.game,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn perft_options_belong_to_their_game() {
        use tools::perft::Game;
        // Each game takes only its own options (they used to be accepted
        // and ignored).
        let e = refused(&["perft", "connect4", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
        assert_eq!(e.kind(), ErrorKind::UnknownArgument);
        assert_eq!(refused(&["perft", "chess", "3", "--width", "5"]).kind(), ErrorKind::UnknownArgument);
        assert_eq!(refused(&["perft", "tictactoe", "3", "--size", "9"]).kind(), ErrorKind::UnknownArgument);
        assert_eq!(refused(&["perft", "gobang", "3", "--height", "9"]).kind(), ErrorKind::UnknownArgument);
        assert_eq!(refused(&["perft", "connect4", "3", "--radius", "1"]).kind(), ErrorKind::UnknownArgument);
        assert_eq!(refused(&["perft", "checkers", "3"]).kind(), ErrorKind::InvalidSubcommand);
        // What each game does take.
        let g = perft(&["perft", "connect4", "5", "--width", "5", "--height", "4"]);
        assert_eq!((g.depth(), g), (5, Game::Connect4 { depth: 5, width: 5, height: 4 }));
        let g = perft(&["perft", "connect4", "8"]);
        assert_eq!((g.depth(), g), (8, Game::Connect4 { depth: 8, width: 7, height: 6 }));
        let g = perft(&["perft", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2"]);
        assert_eq!(g, Game::Chess { depth: 2, fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()) });
        let g = perft(&["perft", "gobang", "3", "--size", "9", "--radius", "1"]);
        assert_eq!((g.depth(), g), (3, Game::Gobang { depth: 3, size: 9, radius: 1 }));
        assert_eq!(perft(&["perft", "tictactoe", "9"]), Game::TicTacToe { depth: 9 });
        // The help's "at most 20" is the tool's limit.
        assert_eq!(tools::perft::MAX_CHESS_DEPTH, 20);
    }

    #[test]
    fn table_sizes_are_validated_by_the_parser() {
        use tools::solve::MAX_TABLE_MIB;
        use tools::wac::MAX_HASH_MIB;
        for bad in ["0", "-1", "1048577", "18446744073709551615", "18446744073709551616", "lots"] {
            let e = refused(&["solve", "connect4", &format!("--table-mib={bad}")]);
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{bad}: {e}");
        }
        let e = refused(&["solve", "connect4", "--table-mib", "17592186044416"]).to_string(); // 2^44
        assert!(e.contains("1..=1048576"), "{e}");
        for good in ["1", "64", "1048576"] {
            assert!(parse(&["solve", "connect4", "--table-mib", good]).is_ok(), "{good}");
        }
        // The help's "1 to 1048576" is the library's limit.
        assert_eq!(MAX_TABLE_MIB, 1 << 20);
        for bad in ["0", "-3", "1025", "100000"] {
            assert_eq!(refused(&["wac", &format!("--hash={bad}")]).kind(), ErrorKind::ValueValidation, "{bad}");
        }
        assert!(parse(&["wac", "--hash", "1024"]).is_ok());
        assert_eq!(MAX_HASH_MIB, 1024);
    }

    #[test]
    fn thread_counts_are_validated_through_the_flag() {
        // The parser's own test is in taskkit; here, through reproduce's flag.
        for bad in ["0", "100000"] {
            let e = refused(&["reproduce", "--list", "--threads", bad]);
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{bad}: {e}");
        }
        assert!(parse(&["reproduce", "--list", "--threads", "1"]).is_ok());
    }

    #[test]
    fn defaults_left_to_the_task_are_resolved_there() {
        // match: --sprt elo0,elo1 with --alpha/--beta makes the SPRT; those two need --sprt.
        match parse(&["match", "tictactoe", "random", "random", "--sprt", "0,10", "--alpha", "0.1"]).unwrap() {
            Command::Match(m) => {
                let s = m.sprt_settings().unwrap();
                assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.1, 0.05));
            }
            other => panic!("{other:?}"),
        }
        match parse(&["match", "tictactoe", "random", "random"]).unwrap() {
            Command::Match(m) => assert!(m.sprt_settings().is_none()),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            refused(&["match", "tictactoe", "a", "b", "--beta", "0.1"]).kind(),
            ErrorKind::MissingRequiredArgument
        );
        assert_eq!(refused(&["match", "tictactoe", "a", "b", "--sprt", "10,0"]).kind(), ErrorKind::ValueValidation);
        // soak: the counts default by --quick.
        use tools::soak::{DEFAULT_COMMANDS, DEFAULT_GAMES, QUICK_COMMANDS, QUICK_GAMES};
        for (args, expected) in [
            (&["soak"][..], (DEFAULT_COMMANDS, DEFAULT_GAMES)),
            (&["soak", "--quick"], (QUICK_COMMANDS, QUICK_GAMES)),
            (&["soak", "--quick", "--games", "7"], (QUICK_COMMANDS, 7)),
        ] {
            match parse(args).unwrap() {
                Command::Soak(a) => assert_eq!((a.commands(), a.games()), expected, "{args:?}"),
                other => panic!("{other:?}"),
            }
        }
        // human rate: every band's middle and both picks unless given.
        match parse(&["human", "rate"]).unwrap() {
            Command::Human(Human::Rate(r)) => {
                assert_eq!(r.ratings(), dial::human_rate::DEFAULT_RATINGS);
                assert_eq!(r.picks(), ["sample", "mode"]);
                assert_eq!((r.run.games, r.run.seed), (100, 1));
            }
            other => panic!("{other:?}"),
        }
        match parse(&["human", "rate", "--rating", "1000,1200", "--pick", "mode", "--games", "8"]).unwrap() {
            Command::Human(Human::Rate(r)) => {
                assert_eq!((r.ratings(), r.picks(), r.run.games), (vec![1000, 1200], vec!["mode".to_string()], 8));
            }
            other => panic!("{other:?}"),
        }
        // human temper and round-robin: 900 to 2100 in steps of 300 unless given, sorted.
        match parse(&["human", "temper", "--anchor", "2000,1000,1500", "--games", "40"]).unwrap() {
            Command::Human(Human::Temper(t)) => {
                assert_eq!((t.anchors(), t.games, t.trials), (vec![1000, 1500, 2000], 40, 5));
            }
            other => panic!("{other:?}"),
        }
        match parse(&["human", "round-robin"]).unwrap() {
            Command::Human(Human::RoundRobin(r)) => {
                assert_eq!(
                    (r.ratings(), r.run.games, r.pick.as_str()),
                    (dial::human_temper::DEFAULT_ANCHORS.to_vec(), 100, "sample")
                );
            }
            other => panic!("{other:?}"),
        }
        // human train tempers unless told not to.
        match parse(&["human", "train", "--no-temper"]).unwrap() {
            Command::Human(Human::Train(t)) => assert!(t.no_temper),
            other => panic!("{other:?}"),
        }
        // human eval: milliseconds to a duration.
        match parse(&["human", "eval", "--movetime-ms", "250"]).unwrap() {
            Command::Human(Human::Eval(e)) => assert_eq!(e.movetime(), std::time::Duration::from_millis(250)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn fuzz_cases_are_positive() {
        assert_eq!(refused(&["fuzz", "--cases", "0"]).kind(), ErrorKind::ValueValidation);
        match parse(&["fuzz"]).unwrap() {
            Command::Fuzz(f) => assert_eq!(f.cases, fuzz::DEFAULT_CASES),
            other => panic!("{other:?}"),
        }
    }
}
