//! The command line of each task: clap's view of the plain arguments the
//! `experiments` crate takes. Help texts and defaults live here.

use std::path::PathBuf;

use clap::builder::RangedU64ValueParser;
use experiments::reproduce::Shard;
use experiments::tools::solve::{DEFAULT_TABLE_MIB, MAX_TABLE_MIB};
use experiments::tools::wac::MAX_HASH_MIB;

/// The most worker threads a `--threads` flag accepts, per available core.
pub(crate) const THREADS_PER_CORE: usize = 4;

/// The most worker threads a `--threads` flag accepts:
/// [`THREADS_PER_CORE`] × the available cores.
pub(crate) fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_mul(THREADS_PER_CORE)
}

/// The value parser of every `--threads N` flag: `1..=`[`max_threads`].
/// 0 is refused rather than given a meaning (leave the flag out for one
/// thread per core), and so is anything above the cap (thousands of threads
/// would only thrash).
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    let max = max_threads();
    let n: usize = text.trim().parse().map_err(|_| format!("{text:?} is not a whole number of threads"))?;
    match n {
        0 => Err(format!("0 threads: give 1 to {max}, or leave --threads out for one per core")),
        n if n > max => Err(format!("{n} threads is too many: at most {max} ({THREADS_PER_CORE} per core)")),
        n => Ok(n),
    }
}

/// The value parser of a table size in MiB: `1..=max`.
fn table_mib(max: usize) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=max as u64)
}

/// Arguments of `cargo xtask demo`.
#[derive(Debug, clap::Args)]
pub(crate) struct Demo {
    /// Seed of the game (tie-breaks between equally good moves).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search depth of the first (stronger) player.
    #[arg(long, default_value_t = 9)]
    strong: u32,
    /// Search depth of the second player.
    #[arg(long, default_value_t = 5)]
    weak: u32,
}

impl From<Demo> for experiments::tools::demo::Args {
    fn from(a: Demo) -> Self {
        let Demo { seed, strong, weak } = a;
        Self { seed, strong, weak }
    }
}

/// Arguments of `cargo xtask perft`: `perft GAME DEPTH [OPTIONS]`, each
/// game with only its own options (`perft connect4 5 --fen ...` is refused).
#[derive(Debug, clap::Args)]
#[command(subcommand_value_name = "GAME", subcommand_help_heading = "Games")]
pub(crate) struct Perft {
    #[command(subcommand)]
    game: PerftGame,
}

/// The games of `cargo xtask perft`, with their options.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum PerftGame {
    /// Tic-tac-toe.
    #[command(name = "tictactoe")]
    TicTacToe {
        /// Depth in plies (at most 9).
        depth: u32,
    },
    /// Connect-4.
    #[command(name = "connect4")]
    Connect4 {
        /// Depth in plies (at most the cells of the board).
        depth: u32,
        /// Columns of the board.
        #[arg(long, default_value_t = 7)]
        width: usize,
        /// Rows of the board.
        #[arg(long, default_value_t = 6)]
        height: usize,
    },
    /// Gobang.
    #[command(name = "gobang")]
    Gobang {
        /// Depth in plies (at most the points of the board).
        depth: u32,
        /// Points per side of the board.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Candidate moves lie within this distance of a stone.
        #[arg(long, default_value_t = 2)]
        radius: u8,
    },
    /// Chess, without the optional draw rules (the published counts).
    #[command(name = "chess")]
    Chess {
        /// Depth in plies (at most 20).
        depth: u32,
        /// The root position as a FEN (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
    },
}

impl From<Perft> for experiments::tools::perft::Args {
    fn from(a: Perft) -> Self {
        use experiments::tools::perft::Game;
        let (game, depth) = match a.game {
            PerftGame::TicTacToe { depth } => (Game::TicTacToe, depth),
            PerftGame::Connect4 { depth, width, height } => (Game::Connect4 { width, height }, depth),
            PerftGame::Gobang { depth, size, radius } => (Game::Gobang { size, radius }, depth),
            PerftGame::Chess { depth, fen } => (Game::Chess { fen }, depth),
        };
        Self { game, depth }
    }
}

/// Arguments of `cargo xtask solve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Solve {
    /// The game to solve (connect4).
    game: String,
    /// The positions, one `MOVES [EXPECTED]` per line (default: standard input).
    file: Option<PathBuf>,
    /// Columns of the board.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Rows of the board.
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Only win (1), draw (0) or loss (-1); EXPECTED is compared by sign.
    #[arg(long)]
    weak: bool,
    /// Transposition-table size in MiB, 1 to 1048576 (search_core's MAX_TABLE_MIB).
    #[arg(long, default_value_t = DEFAULT_TABLE_MIB, value_parser = table_mib(MAX_TABLE_MIB))]
    table_mib: usize,
    /// Keep the table between positions (by default it is emptied before
    /// each one, outside the timing, so node counts do not depend on the
    /// order of the lines).
    #[arg(long)]
    keep_table: bool,
    /// An opening book (`cargo xtask book connect4`): positions it has are answered from it, without search.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

impl From<Solve> for experiments::tools::solve::Args {
    fn from(a: Solve) -> Self {
        let Solve { game, file, width, height, weak, table_mib, keep_table, book } = a;
        Self { game, file, width, height, weak, table_mib, keep_table, book }
    }
}

/// Arguments of `cargo xtask reproduce`.
#[derive(Debug, clap::Args)]
pub(crate) struct Reproduce {
    /// Experiments to run (default: all); or `merge DIR...` to combine shard
    /// outputs into `--out`.
    names: Vec<String>,
    /// A scaled-down run for CI (under two minutes).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The papers' own scale where feasible (hours; says how long first).
    #[arg(long)]
    full: bool,
    /// List the experiments and exit.
    #[arg(long)]
    list: bool,
    /// Master seed [default: 2013]. `merge` takes the shards' seed and scale
    /// from their manifests (and refuses a different --seed, --quick or --full).
    #[arg(long)]
    seed: Option<u64>,
    /// Output directory.
    #[arg(long, default_value = "reproduce-out")]
    out: PathBuf,
    /// Worker threads, 1 to 4 per available core (default: one per core).
    /// Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Run only a deterministic share `I/N` of the cells.
    #[arg(long)]
    shard: Option<Shard>,
}

impl From<Reproduce> for experiments::reproduce::Args {
    fn from(a: Reproduce) -> Self {
        let Reproduce { names, quick, full, list, seed, out, threads, shard } = a;
        Self { names, quick, full, list, seed, out, threads, shard }
    }
}

/// Arguments of `cargo xtask bench`.
#[derive(Debug, clap::Args)]
pub(crate) struct Bench {
    /// A smoke run for CI: small depths and sets, two pairs, a report in
    /// `target/benchmarks-quick.md`.
    #[arg(long)]
    quick: bool,
    /// Interleaved pairs per timed comparison (default 5; 2 with --quick).
    #[arg(long)]
    pairs: Option<usize>,
    /// Connect-4 depths of the minimax-rs comparison (default 8,10,12; 6,8
    /// with --quick).
    #[arg(long, value_delimiter = ',')]
    depths: Option<Vec<u32>>,
    /// Skip the minimax-rs comparison (it builds and runs a `benches` example).
    #[arg(long)]
    no_side_by_side: bool,
    /// Where to write the report (default docs/benchmarks.md, or
    /// target/benchmarks-quick.md with --quick).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run only these sections (comma-separated): side-by-side, rminimax,
    /// piom, knuth-moore, solver, perft, mcts, smp, memory.
    #[arg(long, value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// Where Pons' six connect-4 sets are, one file per set named
    /// end-easy, middle-easy, middle-medium, begin-easy, begin-medium,
    /// begin-hard (default: connect4/ of the shared test data, the folder
    /// $BACKUP_RULES_SHARED or ../shared beside the workspace; a set that is
    /// missing is skipped and the report says so).
    #[arg(long, value_name = "DIR")]
    connect4_sets: Option<PathBuf>,
}

impl From<Bench> for experiments::tools::bench::Args {
    fn from(a: Bench) -> Self {
        let Bench { quick, pairs, depths, no_side_by_side, out, only, connect4_sets } = a;
        Self { quick, pairs, depths, no_side_by_side, out, only, connect4_sets }
    }
}

/// Arguments of `cargo xtask wac`.
#[derive(Debug, clap::Args)]
pub(crate) struct Wac {
    /// Thinking time per position, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    /// The EPD file (one position per line, with a `bm` operation in SAN).
    /// Default: chess/wac.epd of the shared test data ($BACKUP_RULES_SHARED
    /// or ../shared beside the workspace).
    #[arg(long)]
    epd: Option<PathBuf>,
    /// The backup rule (as the engine's `Backup` option).
    #[arg(long, default_value = "alphabeta")]
    backup: String,
    /// Transposition table size in MiB, 1 to 1024 (the engine's UCI `Hash` range).
    #[arg(long, default_value_t = 16, value_parser = table_mib(MAX_HASH_MIB))]
    hash: usize,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
}

impl From<Wac> for experiments::tools::wac::Args {
    fn from(a: Wac) -> Self {
        let Wac { movetime, limit, epd, backup, hash, quiet } = a;
        Self { movetime, limit, epd, backup, hash, quiet }
    }
}

/// Arguments of `cargo xtask fuzz`.
#[derive(Debug, clap::Args)]
pub(crate) struct Fuzz {
    /// Cases per property (PROPTEST_CASES).
    #[arg(long, default_value_t = crate::fuzz::DEFAULT_CASES, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) cases: u32,
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use clap::error::ErrorKind;

    use super::*;
    use crate::{Cli, Command};

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Cli::try_parse_from(std::iter::once("xtask").chain(args.iter().copied())).map(|cli| cli.command)
    }

    fn refused(args: &[&str]) -> clap::Error {
        parse(args).expect_err(&format!("{args:?} should be refused"))
    }

    fn perft(args: &[&str]) -> experiments::tools::perft::Args {
        match parse(args).unwrap() {
            Command::Perft(p) => p.into(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn perft_options_belong_to_their_game() {
        use experiments::tools::perft::Game;
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
        let a = perft(&["perft", "connect4", "5", "--width", "5", "--height", "4"]);
        assert_eq!((a.game, a.depth), (Game::Connect4 { width: 5, height: 4 }, 5));
        let a = perft(&["perft", "connect4", "8"]);
        assert_eq!((a.game, a.depth), (Game::Connect4 { width: 7, height: 6 }, 8));
        let a = perft(&["perft", "chess", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2"]);
        assert_eq!(a.game, Game::Chess { fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()) });
        let a = perft(&["perft", "gobang", "3", "--size", "9", "--radius", "1"]);
        assert_eq!((a.game, a.depth), (Game::Gobang { size: 9, radius: 1 }, 3));
        assert_eq!(perft(&["perft", "tictactoe", "9"]).game, Game::TicTacToe);
        // The help's "at most 20" is the tool's limit.
        assert_eq!(experiments::tools::perft::MAX_CHESS_DEPTH, 20);
    }

    #[test]
    fn table_sizes_are_validated_by_the_parser() {
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
    fn thread_counts_are_validated() {
        let max = max_threads();
        assert!(max >= THREADS_PER_CORE);
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads(&max.to_string()), Ok(max));
        assert!(parse_threads("0").unwrap_err().contains("leave --threads out"));
        assert!(parse_threads(&(max + 1).to_string()).unwrap_err().contains("too many"));
        for bad in ["100000", "-1", "two", ""] {
            assert!(parse_threads(bad).is_err(), "{bad}");
        }
        // Through reproduce's flag.
        for bad in ["0", "100000"] {
            let e = refused(&["reproduce", "--list", "--threads", bad]);
            assert_eq!(e.kind(), ErrorKind::ValueValidation, "{bad}: {e}");
        }
        assert!(parse(&["reproduce", "--list", "--threads", "1"]).is_ok());
    }

    #[test]
    fn fuzz_cases_are_positive() {
        assert_eq!(refused(&["fuzz", "--cases", "0"]).kind(), ErrorKind::ValueValidation);
        match parse(&["fuzz"]).unwrap() {
            Command::Fuzz(f) => assert_eq!(f.cases, crate::fuzz::DEFAULT_CASES),
            other => panic!("{other:?}"),
        }
    }
}

/// Arguments of `cargo xtask soak`.
#[derive(Debug, clap::Args)]
pub(crate) struct Soak {
    /// Random command lines of the GUI session (default 10000; 500 with --quick).
    #[arg(long)]
    commands: Option<usize>,
    /// Games between two engines (default 50; 2 with --quick).
    #[arg(long)]
    games: Option<usize>,
    /// Seed of everything random.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A short run (under a minute): 500 commands, 2 games.
    #[arg(long)]
    quick: bool,
    /// The engine binary (default: build kibitz in release and use it).
    #[arg(long)]
    engine: Option<PathBuf>,
}

impl From<Soak> for experiments::tools::soak::Args {
    fn from(a: Soak) -> Self {
        use experiments::tools::soak::{DEFAULT_COMMANDS, DEFAULT_GAMES, QUICK_COMMANDS, QUICK_GAMES};
        let Soak { commands, games, seed, quick, engine } = a;
        let commands = commands.unwrap_or(if quick { QUICK_COMMANDS } else { DEFAULT_COMMANDS });
        let games = games.unwrap_or(if quick { QUICK_GAMES } else { DEFAULT_GAMES });
        Self { commands, games, seed, engine }
    }
}

/// Arguments of `cargo xtask match`.
#[derive(Debug, clap::Args)]
pub(crate) struct Match {
    /// The game: tictactoe, connect4, gobang or chess.
    game: String,
    /// Agent A, e.g. `alphabeta:depth=6`, `boltzmann:depth=3,theta=2`, `elo:1500`, `random`
    /// (chess also `uci:PATH[,nodes=N|depth=D|movetime=MS][,Option=value...]`).
    a: String,
    /// Agent B.
    b: String,
    /// Games to play (rounded up to whole pairs: same opening, colours swapped).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Openings, one per line: a move line in the game's notation (chess: UCI moves or a FEN).
    /// Default: balanced random openings drawn from the seed.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Sequential probability ratio test `elo0,elo1` (logistic Elo of A over B); stops when it decides.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<(f64, f64)>,
    /// The SPRT's false-positive rate α.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The SPRT's false-negative rate β.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// Master seed.
    #[arg(long, default_value_t = experiments::dial::matches::DEFAULT_SEED)]
    seed: u64,
    /// Worker threads, 1 to 4 per available core (default: one per core). Results do not depend on it;
    /// with a `uci:` engine on a clock (movetime), at most one per core.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Output directory of the saved games (default: target/match/GAME-HASH, HASH of the setup); rerun to resume.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Play only a deterministic share `I/N` of the cells.
    #[arg(long)]
    shard: Option<Shard>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// A second agent that also plays B, on the same openings and seeds: A is compared with it
    /// pair by pair (score and Elo difference with 95% intervals, LOS).
    #[arg(long, conflicts_with = "sprt")]
    baseline: Option<String>,
}

fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected elo0,elo1, e.g. 0,10")?;
    let a: f64 = a.trim().parse().map_err(|_| format!("bad elo0 {a:?}"))?;
    let b: f64 = b.trim().parse().map_err(|_| format!("bad elo1 {b:?}"))?;
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(format!("need finite elo0 < elo1, got {a},{b}"));
    }
    Ok((a, b))
}

impl From<Match> for experiments::dial::matches::Args {
    fn from(m: Match) -> Self {
        let sprt =
            m.sprt.map(|(elo0, elo1)| experiments::dial::SprtSettings { elo0, elo1, alpha: m.alpha, beta: m.beta });
        Self {
            game: m.game,
            a: m.a,
            b: m.b,
            games: m.games,
            openings: m.openings,
            sprt,
            seed: m.seed,
            threads: m.threads,
            out: m.out,
            shard: m.shard,
            json: m.json,
            baseline: m.baseline,
        }
    }
}

/// Arguments of `cargo xtask calibrate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Calibrate {
    /// The game: tictactoe, connect4, gobang or chess.
    game: String,
    /// A small run for CI; writes only into --out, never calibration/.
    #[arg(long)]
    quick: bool,
    /// Master seed.
    #[arg(long, default_value_t = experiments::dial::calibrate::DEFAULT_SEED)]
    seed: u64,
    /// Worker threads, 1 to 4 per available core (default: one per core). Results do not depend on it;
    /// with a `uci:` engine on a clock (movetime), at most one per core.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Output directory of the saved games (default: target/calibrate/GAME, or GAME-quick); rerun to resume.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Play only a deterministic share `I/N` of the cells.
    #[arg(long)]
    shard: Option<Shard>,
    /// Pairs of games per matchup (default: the ladder's own, or its smaller --quick count). Rerun
    /// with more pairs into the same --out to add games: those already played are kept.
    #[arg(long)]
    pairs: Option<usize>,
}

impl From<Calibrate> for experiments::dial::calibrate::Args {
    fn from(c: Calibrate) -> Self {
        let Calibrate { game, quick, seed, threads, out, shard, pairs } = c;
        Self { game, quick, seed, threads, out, shard, pairs }
    }
}

/// Arguments of `cargo xtask rate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Rate {
    /// The game: tictactoe, connect4, gobang or chess (one with a committed calibration).
    game: String,
    /// The agents to rate, as in `match` (e.g. `mcts:iters=2000`, `human:1500`).
    #[arg(required = true)]
    specs: Vec<String>,
    /// Play only the rungs rated at least this (the games against rungs far below an agent carry
    /// almost nothing about its rating).
    #[arg(long, value_name = "ELO")]
    rungs_from: Option<f64>,
    #[command(flatten)]
    run: RateRun,
}

/// The games and cell store of `rate` and `human rate`.
#[derive(Debug, clap::Args)]
pub(crate) struct RateRun {
    /// Games per pairing of an agent with each rung of the ladder (rounded up to whole pairs).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads, 1 to 4 per available core (default: one per core). Results do not depend on it;
    /// with a `uci:` engine on a clock (movetime), at most one per core.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Output directory of the saved games (default: target/rate/GAME, or target/human-rate); rerun to resume.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Play only a deterministic share `I/N` of the cells.
    #[arg(long)]
    shard: Option<Shard>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

impl From<RateRun> for experiments::dial::rate::RunSettings {
    fn from(r: RateRun) -> Self {
        let RateRun { games, seed, threads, out, shard, json } = r;
        Self { games, seed, threads, out, shard, json }
    }
}

impl From<Rate> for experiments::dial::rate::Args {
    fn from(r: Rate) -> Self {
        Self { game: r.game, specs: r.specs, rungs_from: r.rungs_from, run: r.run.into() }
    }
}

/// Arguments of `cargo xtask fit`.
#[derive(Debug, clap::Args)]
pub(crate) struct Fit {
    /// The game: tictactoe, connect4, gobang or chess.
    game: String,
    /// The games: one per line, the moves in the game's notation separated by spaces (connect-4 also
    /// Pons' digit strings such as `4453`); for chess a PGN file.
    file: PathBuf,
    /// The model: boltzmann, epsilon, noise, or all; repeat (or separate by commas) to compare several
    /// (AIC, Akaike weights, LRT where nested).
    #[arg(long = "model", value_name = "MODEL")]
    models: Vec<String>,
    /// The moves' values: `exact` (tictactoe: +1/0/-1 from a full solve; connect4: the solver's scores)
    /// or `depth:D` (the game's evaluator backed up D plies by minimax, as the dial's
    /// `boltzmann:depth=D` players see them). Default: exact (tictactoe, connect4 only).
    #[arg(long)]
    values: Option<String>,
    /// Whose moves: first, second, both, or (chess) a name matched against the White and Black tags.
    #[arg(long, default_value = "both")]
    player: String,
    /// Fit a uniformly random slip rate too (each family is also fitted without it, for the LRT).
    #[arg(long)]
    slip: bool,
    /// Clamp the values to ±C. Default: with depth:D values, the cap of the committed calibration's
    /// curve `boltzmann:depth=D,cap=C` (so θ is comparable to the dial's); otherwise none.
    #[arg(long, value_name = "C", allow_hyphen_values = true)]
    cap: Option<f64>,
    /// Connect-4 exact values only: fit the decisions taken on boards with at least N discs (the solver
    /// takes seconds to a minute on earlier positions); the others are skipped and counted [default: 12].
    #[arg(long, value_name = "N")]
    min_discs: Option<u32>,
    /// Connect-4 exact values only: an opening book (`cargo xtask book connect4`); positions it has are
    /// scored from it, without search.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

impl From<Fit> for experiments::dial::fitting::Args {
    fn from(f: Fit) -> Self {
        let Fit { game, file, models, values, player, slip, cap, min_discs, book, json } = f;
        Self { game, file, models, values, player, slip, cap, min_discs, book, json }
    }
}

/// Arguments of `cargo xtask fit-validation`.
#[derive(Debug, clap::Args)]
pub(crate) struct FitValidation {
    /// The game: tictactoe, connect4 (exact values), gobang or chess (depth:1 values).
    game: String,
    /// Synthetic players per model [default: 200 for tictactoe and connect4, 50 for gobang and chess; 20 with
    /// --quick].
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// The numbers of games fitted, increasing, separated by commas [default: 1,3,10,30,100; 1,3,10 with
    /// --quick].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    games: Option<Vec<u32>>,
    /// The players' models: boltzmann, epsilon, noise (separated by commas) [default: boltzmann,epsilon].
    #[arg(long, value_name = "MODELS")]
    models: Vec<String>,
    /// The master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A small run (20 players, 1, 3 and 10 games).
    #[arg(long)]
    quick: bool,
    /// Worker threads (default: one per core); results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Write GAME.md, GAME.json and GAME.svg into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON (every player's estimates) instead of the table.
    #[arg(long)]
    json: bool,
}

impl From<FitValidation> for experiments::dial::fit_validation::Args {
    fn from(f: FitValidation) -> Self {
        let FitValidation { game, players, games, models, seed, quick, threads, out, json } = f;
        Self { game, players, games, models, seed, quick, threads, out, json }
    }
}

/// Arguments of `cargo xtask play`.
#[derive(Debug, clap::Args)]
pub(crate) struct Play {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Minutes after which an idle game is removed.
    #[arg(long, default_value_t = 30, value_parser = RangedU64ValueParser::<u64>::new().range(1..=7 * 24 * 60))]
    ttl_minutes: u64,
    /// The most games held at once.
    #[arg(long, default_value_t = 1000, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    max_sessions: usize,
    /// The node budget of one engine move (added to search specs as `nodes=`).
    #[arg(long, default_value_t = 2_000_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    max_nodes: u64,
    /// The time budget of one Monte Carlo move (mcts, ments; added to their specs as `ms=`).
    #[arg(long, default_value_t = 2_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..=600_000))]
    max_ms: u64,
    /// The master seed of the sessions' engines.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl Play {
    /// Serves the web app until Ctrl-C.
    pub(crate) fn run(self) -> experiments::TaskResult {
        let config = play::Config {
            session_ttl: std::time::Duration::from_secs(self.ttl_minutes * 60),
            max_sessions: self.max_sessions,
            max_nodes: self.max_nodes,
            max_ms: self.max_ms,
            seed: self.seed,
            ..play::Config::default()
        };
        play::run(config, &self.host, self.port)
    }
}

/// Arguments of `cargo xtask loadtest`.
#[derive(Debug, clap::Args)]
pub(crate) struct Loadtest {
    /// The CI run: 200 sessions of up to 8 moves (seconds).
    #[arg(long)]
    quick: bool,
    /// Concurrent sessions (default 400, or 200 with --quick).
    #[arg(long, value_parser = RangedU64ValueParser::<usize>::new().range(1..=5000))]
    sessions: Option<usize>,
    /// The seed of the clients' moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl Loadtest {
    /// Runs the load test; fails on any server error, panic or unexpected status.
    pub(crate) fn run(self) -> experiments::TaskResult {
        let mut opts = if self.quick { play::loadtest::Options::quick() } else { play::loadtest::Options::full() };
        opts.seed = self.seed;
        if let Some(n) = self.sessions {
            opts.sessions = n;
        }
        let report = play::loadtest::run(opts)?;
        println!("{report}");
        if report.passed() { Ok(()) } else { Err("the load test failed".into()) }
    }
}

/// Arguments of `cargo xtask nash`.
#[derive(Debug, clap::Args)]
pub(crate) struct Nash {
    /// The game: a two-player strategic game in Gambit's .nfg format (payoff or outcome version).
    file: PathBuf,
    /// Print one JSON object: {"equilibria": [{"strategies", "payoffs", "exact"}], "degenerate", "method", ...}.
    #[arg(long)]
    json: bool,
    /// auto (zero-sum: LP, plus support enumeration when small; else support enumeration when small, else
    /// Lemke–Howson), lp, support or lemke-howson.
    #[arg(long, default_value = "auto")]
    method: experiments::tools::nash::Method,
    /// Lemke–Howson's initially dropped label: 0..m-1 the first player's strategies, m..m+n-1 the second's
    /// (default: every label in turn, keeping the distinct equilibria).
    #[arg(long)]
    label: Option<usize>,
}

impl From<Nash> for experiments::tools::nash::Args {
    fn from(a: Nash) -> Self {
        let Nash { file, json, method, label } = a;
        Self { file, json, method, label }
    }
}

/// Arguments of `cargo xtask tablebase`.
#[derive(Debug, clap::Args)]
pub(crate) struct Tablebase {
    /// Materials: white's king and pieces, then black's (`KBNK`, `KQKR`), at most four pieces; `all` for
    /// KQK, KRK, KPK, KBNK and KQKR.
    #[arg(required = true)]
    materials: Vec<String>,
    /// The directory the tables are written to (`<material>.brtb`).
    #[arg(long, default_value = "tablebases")]
    out: PathBuf,
    /// Print one JSON object per table (positions, wins, draws, losses, longest_mate, white_to_move,
    /// black_to_move, seconds, bytes).
    #[arg(long)]
    json: bool,
}

impl From<Tablebase> for experiments::tools::tablebase::Args {
    fn from(a: Tablebase) -> Self {
        Self { materials: a.materials, out: a.out, json: a.json }
    }
}

/// Arguments of `cargo xtask book`.
#[derive(Debug, clap::Args)]
pub(crate) struct Book {
    /// The game: `chess` (a Polyglot book made from games) or `connect4` (exact scores of every position up
    /// to --plies discs, made by the solver).
    game: String,
    /// Chess: the games, as a PGN file (gzip-compressed if its name ends in `.gz`).
    #[arg(long, value_name = "FILE")]
    from_pgn: Option<PathBuf>,
    /// Where the book is written [default: book.bin for chess, connect4-WxH-pN.c4book for connect4].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Chess: plies of each game that enter the book.
    #[arg(long, default_value_t = 16)]
    max_plies: usize,
    /// Chess: leave out moves played in fewer games than this.
    #[arg(long, default_value_t = 1)]
    min_games: u32,
    /// Connect-4: every position with at most this many discs [default: 4; 2 with --quick].
    #[arg(long)]
    plies: Option<u32>,
    /// Connect-4: a small book that builds in seconds (the 6 × 4 board unless --width/--height are given,
    /// plies 2), for CI.
    #[arg(long)]
    quick: bool,
    /// Connect-4: columns of the board [default: 7; 6 with --quick].
    #[arg(long)]
    width: Option<usize>,
    /// Connect-4: rows of the board [default: 6; 4 with --quick].
    #[arg(long)]
    height: Option<usize>,
    /// Connect-4: the solver's transposition-table size in MiB, 1 to 1048576 [default: 1024; 16 with
    /// --quick].
    #[arg(long, value_parser = table_mib(MAX_TABLE_MIB))]
    table_mib: Option<usize>,
}

impl From<Book> for experiments::tools::book::Args {
    fn from(a: Book) -> Self {
        let Book { game, from_pgn, out, max_plies, min_games, plies, quick, width, height, table_mib } = a;
        Self { game, from_pgn, out, max_plies, min_games, plies, quick, width, height, table_mib }
    }
}

/// Arguments of `cargo xtask cluster-test`.
#[derive(Debug, clap::Args)]
pub(crate) struct ClusterTest {
    /// Tasks of the job array (shards of `reproduce --quick`).
    #[arg(long, default_value_t = 4, value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    shards: usize,
    /// Master seed of the Slurm run and of the single-machine run.
    #[arg(long, default_value_t = experiments::reproduce::DEFAULT_SEED)]
    seed: u64,
    /// Where the Slurm configuration, state, logs and both runs go.
    #[arg(long, default_value = "target/cluster-test")]
    dir: PathBuf,
    /// Give up on the jobs (and cancel them) after this many minutes.
    #[arg(long, default_value_t = 30, value_parser = RangedU64ValueParser::<u64>::new().range(1..=24 * 60))]
    timeout_minutes: u64,
    /// Leave the Slurm and MUNGE daemons running at the end.
    #[arg(long)]
    keep_running: bool,
    /// Only stop the daemons of an earlier `--keep-running` run, then exit.
    #[arg(long, conflicts_with = "keep_running")]
    stop: bool,
}

impl From<ClusterTest> for crate::cluster::Args {
    fn from(c: ClusterTest) -> Self {
        let ClusterTest { shards, seed, dir, timeout_minutes, keep_running, stop } = c;
        let timeout = std::time::Duration::from_secs(timeout_minutes * 60);
        Self { shards, seed, dir, timeout, keep_running, stop }
    }
}

/// Arguments of `cargo xtask human`.
#[derive(Debug, clap::Args)]
pub(crate) struct Human {
    #[command(subcommand)]
    command: HumanCommand,
}

#[derive(Debug, clap::Subcommand)]
enum HumanCommand {
    /// Fit the human-like chess model on the train split of data/human/, choose among the candidates by
    /// validation log-likelihood, and write calibration/human-chess.json (and the copy the engine embeds).
    Train {
        /// The search depths of the move values to try (repeat or separate by commas).
        #[arg(long = "depth", value_delimiter = ',', default_values_t = [1u32, 2])]
        depths: Vec<u32>,
        /// The most train decisions used (evenly spaced over the split).
        #[arg(long, default_value_t = 60_000)]
        max_train: usize,
        /// The most validation decisions used.
        #[arg(long, default_value_t = 20_000)]
        max_validation: usize,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Measure the committed model on the test split: move match per rating band against Stockfish (limited
    /// and full), our alpha-beta engine and the dial's elo:X; log-likelihoods; loss distributions.
    Eval {
        /// Test positions per 200-point band.
        #[arg(long, default_value_t = 300)]
        positions: usize,
        /// Milliseconds per move for Stockfish and our alpha-beta engine.
        #[arg(long, default_value_t = 100)]
        movetime_ms: u64,
        /// Stockfish's path (default: `stockfish` on the PATH, else /usr/games/stockfish; none: left out).
        #[arg(long)]
        stockfish: Option<PathBuf>,
        /// The seed of pick=sample's draws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the SVG plots (human-match.svg, human-mistakes.svg) into this directory.
        #[arg(long, value_name = "DIR")]
        plots: Option<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Rate human:X on the chess dial's ladder: paired games against every rung of our own settings in the
    /// committed calibration, the rungs' ratings fixed; prints the Lichess rating → dial Elo mapping.
    Rate {
        /// The ratings imitated (repeat or separate by commas; default the bands' middles, 900 to 2100).
        #[arg(long = "rating", value_delimiter = ',')]
        ratings: Vec<u32>,
        /// The picks rated: sample, mode (repeat or separate by commas; default both).
        #[arg(long = "pick", value_delimiter = ',')]
        picks: Vec<String>,
        #[command(flatten)]
        run: RateRun,
    },
}

impl Human {
    pub(crate) fn run(self) -> experiments::TaskResult {
        use experiments::human;
        match self.command {
            HumanCommand::Train { depths, max_train, max_validation, threads } => {
                human::train(human::TrainArgs { depths, max_train, max_validation, threads })
            }
            HumanCommand::Eval { positions, movetime_ms, stockfish, seed, plots, json } => {
                human::eval(human::EvalArgs {
                    positions,
                    movetime: std::time::Duration::from_millis(movetime_ms),
                    stockfish,
                    seed,
                    json,
                    plots,
                })
            }
            HumanCommand::Rate { ratings, picks, run } => human::rate(human::RateArgs {
                ratings: if ratings.is_empty() { human::DEFAULT_RATINGS.to_vec() } else { ratings },
                picks: if picks.is_empty() { vec!["sample".into(), "mode".into()] } else { picks },
                run: run.into(),
            }),
        }
    }
}
