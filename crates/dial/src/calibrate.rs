//! `cargo xtask calibrate GAME`: calibrates the strength dial of a
//! built-in game with [`tournament::calibrate`], on the game's ladder
//! ([`registry::ladders`]).
//!
//! The ladder of a game is a few *curves*, each a Boltzmann player at one
//! depth over a range of θ (`boltzmann:depth=D,cap=C,theta=T`), topped by
//! alpha-beta at that depth (θ = +∞), with uniform random play (θ = 0) as the
//! anchor at Elo 0 ([`tournament::ladder`]). The calibration is written
//! into `OUT/<game>.json`, and, for a run at the default scale, into the
//! file the game's crate embeds
//! ([`registry::BuiltinGame::calibration_file`]); with the loss profiles of
//! the `losses` module where the game has a judge.

use std::path::PathBuf;

use strength::dial::Calibration;
use tournament::calibrate::{CalibrateConfig, CalibrateError, RANDOM_ANCHOR, calibrate, fit_saved};
use tournament::ladder::{Ladder, THETA};
use tournament::ladder_fit::ladder_table;
use tournament::losses::losses_table;

use crate::TaskResult;
use taskkit::threads::parse_threads;
use taskkit::{RunConfig, RunKey, Scale, Shard, Terminal, write_atomic};

/// Arguments of `cargo xtask calibrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// A small run for CI; writes only into --out, never calibration/.
    #[arg(long)]
    pub quick: bool,
    /// Master seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads, 1 to 4 per available core (default: one per core). Results do not depend on it;
    /// with a `uci:` engine on a clock (movetime), at most one per core.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Output directory of the saved games (default: target/calibrate/GAME, or GAME-quick); rerun to resume.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play only a deterministic share `I/N` of the cells.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Pairs of games per matchup (default: the ladder's own, or its smaller --quick count). Rerun
    /// with more pairs into the same --out to add games: those already played are kept.
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Fit the games saved in --out and print the ladder, playing none and writing nothing (no held-out
    /// check, no loss profiles): to read a fit before its held-out matches are played.
    #[arg(long)]
    pub fit_only: bool,
}

/// The default master seed of `calibrate`.
pub const DEFAULT_SEED: u64 = 1500;

/// Runs `cargo xtask calibrate`.
pub fn run(args: Args) -> TaskResult {
    let builtin = registry::game(&args.game)?;
    let (mut ladder, quick_pairs) = (builtin.ladder(), builtin.quick_pairs());
    let schedule = ladder.schedule();
    super::pool::start_workers(args.threads, &schedule.rungs)?;
    let scale = if args.quick { Scale::Quick } else { Scale::Default };
    ladder.pairs = args.pairs.unwrap_or(if args.quick { quick_pairs } else { ladder.pairs });
    if ladder.pairs == 0 {
        return Err("--pairs 0: a matchup needs at least one pair of games".into());
    }
    if args.quick {
        ladder.held_out_pairs = 3;
    }
    let setup = builtin.setup()?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("target/calibrate").join(if args.quick {
            format!("{}-quick", args.game)
        } else {
            args.game.clone()
        })
    });
    let config = CalibrateConfig { seed: args.seed, scale, out: out.clone(), shard: args.shard };
    if args.fit_only {
        let calibration = fit_saved(&setup, &ladder, &config)?;
        println!("{}", ladder_table(&calibration));
        for note in &calibration.notes {
            println!("{note}\n");
        }
        return Ok(());
    }
    eprintln!(
        "calibrate {}: {} rungs, {} matchups of {} pairs, cells in {}",
        args.game,
        schedule.rungs.len(),
        schedule.matchups.len(),
        ladder.pairs,
        out.display()
    );
    let started = std::time::Instant::now();
    let run =
        RunConfig { label: "calibrate", key: RunKey { seed: args.seed, scale }, out: out.clone(), shard: args.shard };
    let terminal = Terminal::new(&run);
    let result = calibrate(&setup, &ladder, &config, &terminal);
    // The loss profiles below show a progress bar of their own.
    drop(terminal);
    let mut calibration = match result {
        Ok(c) => c,
        Err(e @ CalibrateError::Incomplete { .. }) => {
            eprintln!("calibrate: {e}");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    if args.game == "chess" {
        calibration.notes.push(if ladder.references.is_empty() {
            let note = "stockfish was not found (Debian package `stockfish`, or on PATH): the chess ladder is anchored \
                        at random = 0 like the small games, so its ratings are not on Stockfish's UCI_Elo scale";
            eprintln!("calibrate chess: {note}");
            note.into()
        } else {
            "Stockfish weakened by UCI_LimitStrength draws its moves from a clock-seeded generator: its games are \
             not reproducible, the rest of the ladder's are."
                .into()
        });
    }
    calibration.losses = super::losses::profiles(&args.game, &calibration, &run, args.quick)?;
    let text = calibration.to_json();
    // One plot of the θ curves (GAME.svg), one per other knob (GAME-KNOB.svg).
    let mut plots = vec![(args.game.clone(), curves_svg(&calibration, &ladder, THETA)?)];
    for (_, knob) in ladder.knobs() {
        if !plots.iter().any(|(name, _)| *name == format!("{}-{knob}", args.game)) {
            plots.push((format!("{}-{knob}", args.game), curves_svg(&calibration, &ladder, &knob)?));
        }
    }
    write_atomic(&out.join(format!("{}.json", args.game)), &text)?;
    for (name, svg) in &plots {
        write_atomic(&out.join(format!("{name}.svg")), svg)?;
    }
    if !args.quick {
        let path = builtin.calibration_path();
        std::fs::create_dir_all(path.parent().expect("a file in a directory"))?;
        write_atomic(&path, &text)?;
        for (name, svg) in &plots {
            write_atomic(&path.with_file_name(format!("{name}.svg")), svg)?;
        }
    }
    println!("{}", ladder_table(&calibration));
    println!("{}", losses_table(&calibration));
    eprintln!(
        "calibrate {}: done in {:.1} s (this run; cells already saved are not replayed){}",
        args.game,
        started.elapsed().as_secs_f64(),
        if args.quick { String::new() } else { format!(", written to {}", builtin.calibration_path().display()) }
    );
    Ok(())
}

/// Elo against θ, one line per curve (θ on a log axis; random play and
/// the greedy tops are in the table, not on the plot); or, with `knob`
/// another than θ, against that knob for the curves that turn it.
fn curves_svg(c: &Calibration, ladder: &Ladder, knob: &str) -> Result<String, String> {
    let series: Vec<(String, Vec<(f64, f64)>)> = ladder
        .curves
        .iter()
        .filter(|curve| curve.knob == knob)
        .map(|curve| {
            let mut pts: Vec<(f64, f64)> = c
                .rungs
                .iter()
                .filter(|r| r.curve.as_deref() == Some(curve.base.as_str()))
                .filter_map(|r| r.theta.filter(|t| t.is_finite() && *t > 0.0).map(|t| (t, r.rating)))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let label = match &curve.top {
                Some(top) => {
                    let top = c.rungs.iter().find(|r| &r.spec == top).map_or(f64::NAN, |r| r.rating);
                    format!("{} (top {top:.0})", curve.base)
                }
                None => curve.base.clone(),
            };
            (label, pts)
        })
        .collect();
    // The small games keep random play at 0; chess is mapped onto
    // Stockfish's scale when it is installed.
    let scale =
        if c.anchor == RANDOM_ANCHOR { "random play = 0".to_string() } else { format!("on the {} scale", c.anchor) };
    let axis =
        if knob == THETA { "θ (inverse temperature, log scale)".to_string() } else { format!("{knob} (log scale)") };
    taskkit::plot::lines(&format!("{}: the strength dial's ladder (Elo, {scale})", c.game), &axis, "Elo", true, &series)
}
