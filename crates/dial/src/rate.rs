//! `cargo xtask rate GAME SPEC...`: agents rated on a game's committed
//! ladder, with [`tournament::rate`].
//!
//! Each agent plays paired games against every rung of the game's committed
//! calibration except external engines' (`uci:` rungs), and is rated by
//! maximum likelihood with the rungs anchored at their calibrated ratings;
//! its interval carries the rungs' uncertainty and the calibration's model
//! error (see the library's module for how). The games live in the cell
//! store like every match: seeded, resumable, shardable, the same for any
//! thread count. The report is written to `OUT/rate.json` and printed as
//! tables (or as JSON).

use std::path::{Path, PathBuf};

use tournament::rate::{RateConfig, RateError, RateReport, rate};

use crate::TaskResult;
use taskkit::threads::parse_threads;
use taskkit::{RunConfig, RunKey, Scale, Shard, Terminal, write_atomic};

/// Arguments of `cargo xtask rate`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess (one with a committed calibration).
    pub game: String,
    /// The agents to rate, as in `match` (e.g. `mcts:iters=2000`, `human:1500`).
    #[arg(required = true)]
    pub specs: Vec<String>,
    /// Play only the rungs rated at least this (the games against rungs far below an agent carry
    /// almost nothing about its rating).
    #[arg(long, value_name = "ELO")]
    pub rungs_from: Option<f64>,
    /// The games and where they are kept.
    #[command(flatten)]
    pub run: RunSettings,
}

/// The games of a rating run and where they are kept (`rate`, `human rate` and `human round-robin`).
#[derive(Debug, Clone, clap::Args)]
pub struct RunSettings {
    /// Games per pairing: an agent with each rung of the ladder, or two players of a round robin (rounded up to
    /// whole pairs).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 4 per available core (default: one per core). Results do not depend on it;
    /// with a `uci:` engine on a clock (movetime), at most one per core.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Output directory of the saved games (default: target/rate/GAME, target/human-rate/MODEL or
    /// target/human-round-robin); rerun to resume.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play only a deterministic share `I/N` of the cells.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Plays `specs` against `game`'s committed ladder (games in `out`) and
/// rates them, with a progress bar; `None` when cells are missing (another
/// shard's share, said on the terminal). `settings.threads` sizes the
/// global rayon pool.
pub(crate) fn rate_specs(
    game: &str,
    specs: &[String],
    rungs_from: Option<f64>,
    settings: &RunSettings,
    out: &Path,
) -> Result<Option<RateReport>, Box<dyn std::error::Error>> {
    let RunSettings { games, seed, shard, threads, .. } = *settings;
    super::pool::start_workers(threads, specs)?;
    let builtin = registry::game(game)?;
    let calibration = builtin.calibration()?;
    let setup = builtin.setup()?;
    let config = RateConfig { seed, games, out: out.to_path_buf(), shard, rungs_from };
    let terminal = Terminal::new(&RunConfig {
        label: "rate",
        key: RunKey { seed, scale: Scale::Default },
        out: out.to_path_buf(),
        shard,
    });
    match rate(&setup, &calibration, specs, &config, &terminal) {
        Ok(report) => Ok(Some(report)),
        Err(e @ RateError::Incomplete { .. }) => {
            drop(terminal);
            eprintln!("rate {game}: {e}");
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Runs `cargo xtask rate`.
pub fn run(args: Args) -> TaskResult {
    let out = args.run.out.clone().unwrap_or_else(|| PathBuf::from("target/rate").join(&args.game));
    let Some(report) = rate_specs(&args.game, &args.specs, args.rungs_from, &args.run, &out)? else {
        return Ok(());
    };
    write_atomic(&out.join("rate.json"), &report.to_json())?;
    if args.run.json {
        println!("{}", serde_json::to_value(&report)?);
    } else {
        println!("{}", report.ratings_table());
        println!("{}", report.scores_table());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_tictactoe_play_rates_at_the_top_of_the_ladder() {
        let dir = std::env::temp_dir().join(format!("rate-test-{}", std::process::id()));
        let settings = RunSettings { games: 20, seed: 3, threads: None, out: None, shard: None, json: false };
        let report =
            rate_specs("tictactoe", &["alphabeta:depth=9".to_string()], None, &settings, &dir).unwrap().unwrap();
        let a = &report.agents[0];
        let top = report.opponents.iter().map(|o| o.rating).fold(f64::MIN, f64::max);
        // Perfect play is the ladder's top rung: it rates near it and scores
        // at least half against every rung (it never loses).
        assert!((a.rating.unwrap() - top).abs() < 200.0, "{a:?}");
        assert!(a.against.iter().all(|g| g.score.unwrap() >= 0.5), "{a:?}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
