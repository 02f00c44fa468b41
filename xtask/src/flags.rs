//! The command line of each task: clap's view of the plain arguments the
//! `experiments` crate takes. Help texts and defaults live here.

use std::path::PathBuf;

use experiments::reproduce::Shard;
use experiments::tools::solve::DEFAULT_TABLE_MIB;

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

/// Arguments of `cargo xtask perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct Perft {
    /// The game: tictactoe, connect4, gobang or chess.
    game: String,
    /// Depth in plies.
    depth: u32,
    /// Chess only: the root position as a FEN (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Connect-4 only: columns of the board.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Connect-4 only: rows of the board.
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Gobang only: points per side of the board.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Gobang only: candidate moves lie within this distance of a stone.
    #[arg(long, default_value_t = 2)]
    radius: u8,
}

impl From<Perft> for experiments::tools::perft::Args {
    fn from(a: Perft) -> Self {
        let Perft { game, depth, fen, width, height, size, radius } = a;
        Self { game, depth, fen, width, height, size, radius }
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
    /// Transposition-table size in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE_MIB)]
    table_mib: usize,
    /// Keep the table between positions (by default it is emptied before
    /// each one, outside the timing, so node counts do not depend on the
    /// order of the lines).
    #[arg(long)]
    keep_table: bool,
}

impl From<Solve> for experiments::tools::solve::Args {
    fn from(a: Solve) -> Self {
        let Solve { game, file, width, height, weak, table_mib, keep_table } = a;
        Self { game, file, width, height, weak, table_mib, keep_table }
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
    /// Master seed.
    #[arg(long, default_value_t = 2013)]
    seed: u64,
    /// Output directory.
    #[arg(long, default_value = "reproduce-out")]
    out: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
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
}

impl From<Bench> for experiments::tools::bench::Args {
    fn from(a: Bench) -> Self {
        let Bench { quick, pairs, depths, no_side_by_side, out } = a;
        Self { quick, pairs, depths, no_side_by_side, out }
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
    /// Default: `../shared/chess/wac.epd` beside the workspace.
    #[arg(long)]
    epd: Option<PathBuf>,
    /// The backup rule (as the engine's `Backup` option).
    #[arg(long, default_value = "alphabeta")]
    backup: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
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
