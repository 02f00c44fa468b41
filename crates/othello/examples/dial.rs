//! Calibrates the strength dial of 6×6 Othello, then plays it: the walk
//! through of `docs/your-game.md`, on the published crates only.
//!
//! ```text
//! cargo run --release -p othello --example dial             # the default scale (a few CPU-minutes)
//! cargo run --release -p othello --example dial -- --quick  # a smoke run (seconds)
//! ```
//!
//! Options: `--out DIR` (the cell store; default `target/othello-dial` or
//! `target/othello-dial-quick`: rerun to resume, nothing finished is
//! replayed), `--seed N` (default 1500), `--write PATH` (also write the
//! calibration's JSON there, e.g. `crates/othello/calibration/othello6.json`).
//!
//! It prints, in order:
//! 1. the ladder's fitted ratings and the held-out check;
//! 2. `elo:X` against `elo:Y` for a few pairs of dial values, the observed
//!    score beside the one the ratings predict;
//! 3. a hidden player's rating recovered from its moves (`fit`);
//! 4. `adaptive:target=0.5` against dial values across the range;
//! 5. an MCTS player rated on the ladder (`rate`);
//! 6. how the dial loses: each setting's move losses against a deeper
//!    search (`losses`).

use std::error::Error;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use othello::{Othello, OthelloEval, dial};
use search_core::arena::play_match;
use search_core::rng::derive_seed;
use strength::dial::Dial;
use strength::fit::{FitOptions, Model, fit, map_to_dial};
use strength::pairing::PairOutcome;
use tournament::calibrate::{CalibrateConfig, calibrate};
use tournament::decisions::{GameRecord, Side, decisions_at_depth};
use tournament::ladder_fit::ladder_table;
use tournament::losses::{LossConfig, SearchTruth, loss_profiles, losses_table};
use tournament::matches::AnySetup;
use tournament::rate::{RateConfig, rate};
use tournament::runner::RunObserver;
use tournament::store::Scale;

/// Progress on the terminal: a line per stage and every hundredth cell.
struct Progress;

impl RunObserver for Progress {
    fn planned(&self, to_run: usize, total: usize) {
        eprintln!("{to_run} cells to play ({total} in all)");
    }
    fn note(&self, text: &str) {
        eprintln!("{text}");
    }
}

struct Options {
    quick: bool,
    seed: u64,
    out: PathBuf,
    write: Option<PathBuf>,
}

fn options() -> Result<Options, Box<dyn Error>> {
    let mut o = Options { quick: false, seed: 1500, out: PathBuf::new(), write: None };
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => o.quick = true,
            "--seed" => o.seed = args.next().ok_or("--seed needs a number")?.parse()?,
            "--out" => out = Some(PathBuf::from(args.next().ok_or("--out needs a directory")?)),
            "--write" => o.write = Some(PathBuf::from(args.next().ok_or("--write needs a path")?)),
            other => {
                return Err(format!("unknown option {other:?} (--quick, --seed N, --out DIR, --write PATH)").into());
            }
        }
    }
    o.out =
        out.unwrap_or_else(|| PathBuf::from(if o.quick { "target/othello-dial-quick" } else { "target/othello-dial" }));
    Ok(o)
}

fn main() -> Result<(), Box<dyn Error>> {
    let o = options()?;
    let started = Instant::now();

    // 1. Calibrate: the game's setup and ladder are all the library needs.
    let setup: Arc<dyn AnySetup> = Arc::new(dial::setup());
    let mut ladder = dial::ladder();
    if o.quick {
        ladder = ladder.with_pairs(6).with_held_out_pairs(6);
    }
    let config = CalibrateConfig {
        scale: if o.quick { Scale::Quick } else { Scale::Default },
        ..CalibrateConfig::new(o.seed, &o.out)
    };
    let calibration = calibrate(&setup, &ladder, &config, &Progress)?;
    let text = calibration.to_json();
    std::fs::write(o.out.join("othello6.json"), &text)?;
    if let Some(path) = &o.write {
        std::fs::write(path, &text)?;
    }
    println!("{}", ladder_table(&calibration));
    println!(
        "calibrated in {:.0} s of wall time on {} threads ({} games)\n",
        started.elapsed().as_secs_f64(),
        threads(),
        calibration.games
    );

    // 2. `elo:X`: the dial serves any value in its range.
    let dial = Dial::new(calibration.clone())?;
    let (lo, hi) = dial.range();
    let played = Arc::new(dial::setup_with(dial.clone()));
    let pairs = if o.quick { 4 } else { 100 };
    let openings = played.random_openings(pairs, derive_seed(o.seed, 1))?;
    println!("| A | B | games | predicted score of A (95%) | observed |\n| --- | --- | ---: | --- | ---: |");
    for (fa, fb) in [(0.2, 0.4), (0.5, 0.7), (0.7, 0.95)] {
        let (a, b) = ((lo + fa * (hi - lo)).round(), (lo + fb * (hi - lo)).round());
        let list: Vec<(String, u64)> =
            openings.iter().enumerate().map(|(i, op)| (op.clone(), derive_seed(o.seed, 100 + i as u64))).collect();
        let results = played.play_pairs(&format!("elo:{a}"), &format!("elo:{b}"), &list)?;
        let games = 2 * results.len() as u64;
        let observed = results.iter().map(PairOutcome::score).sum::<f64>() / games as f64;
        let p = dial.predict(a, b, games)?;
        println!(
            "| `elo:{a}` | `elo:{b}` | {games} | {:.3} ({:.3} .. {:.3}) | {observed:.3} |",
            p.score, p.low, p.high
        );
    }
    println!();

    // 3. `fit`: a player's rating from a record of its moves. The hidden
    // player is a dial setting; its games against random openings are the
    // record, and its decisions are valued as the depth-2 curve sees them.
    let hidden = dial.setting_on("boltzmann:depth=2,cap=100", (lo + 0.6 * (hi - lo)).round())?.to_string();
    let roster = played.roster();
    let (mut player, mut opponent) = (roster.build(&hidden)?, roster.build("alphabeta:depth=1")?);
    let mut records = Vec::new();
    for i in 0..if o.quick { 4 } else { 60 } {
        let seed = derive_seed(o.seed, 1000 + i);
        let record = play_match(&Othello::new(), &mut *player, &mut *opponent, seed, Some(dial::MAX_PLIES))?;
        records.push(GameRecord::new(Othello::new(), record.moves));
    }
    // The values a `boltzmann:depth=2` dial player sees (its agents' 1 MiB table).
    let decisions = decisions_at_depth(&records, Side::First, OthelloEval, 2, 1)?;
    let f = fit(&decisions.decisions, Model::Boltzmann, FitOptions::default().with_cap(100.0))?;
    let theta: f64 = hidden.parse::<strength::spec::AgentSpec>()?.get("theta").ok_or("a θ")?.parse()?;
    let truth = dial.rating_of("boltzmann:depth=2,cap=100", theta).ok_or("a rating on the curve")?;
    match map_to_dial(&dial, "boltzmann:depth=2,cap=100", &f) {
        Some((elo, (low, high))) => println!(
            "fit: `{hidden}` (Elo {truth:.0}) from {} of its moves: θ = {:.4}, Elo {elo:.0} ({} .. {})\n",
            decisions.decisions.len(),
            f.param,
            low.map_or("-∞".into(), |x| format!("{x:.0}")),
            high.map_or("+∞".into(), |x| format!("{x:.0}")),
        ),
        None => println!("fit: θ = {:.4} is outside the depth-2 curve\n", f.param),
    }

    // 4. `adaptive:`: estimates its opponent's rating from its moves and
    // plays the dial where the opponent scores about half.
    println!("| opponent | games | adaptive's score |\n| --- | ---: | ---: |");
    for f in [0.25, 0.5, 0.75] {
        let x = (lo + f * (hi - lo)).round();
        let list: Vec<(String, u64)> =
            openings.iter().enumerate().map(|(i, op)| (op.clone(), derive_seed(o.seed, 5000 + i as u64))).collect();
        let results = played.play_pairs("adaptive:target=0.5", &format!("elo:{x}"), &list)?;
        let games = 2 * results.len();
        let score = results.iter().map(PairOutcome::score).sum::<f64>() / games as f64;
        println!("| `elo:{x}` | {games} | {score:.3} |");
    }
    println!();

    // 5. `rate`: any agent on the ladder's scale, here an MCTS player the
    // ladder does not have.
    let specs = ["mcts:iters=300".to_string()];
    let games = if o.quick { 4 } else { 100 };
    let report = rate(&setup, &calibration, &specs, &RateConfig::new(o.seed, games, o.out.join("rate")), &Progress)?;
    println!("{}", report.ratings_table());

    // 6. Loss profiles: self-play at dial values across the range, every
    // move scored by a search two plies deeper than the deepest curve,
    // values clamped to ±100 (the heuristic's range: a won end counts as
    // that much); a move that gives away 30 (about two corners) or turns
    // the judged outcome is a blunder.
    let truth = SearchTruth::new(OthelloEval, 6, 100.0, 30.0)?.with_unit("OthelloEval units");
    let games = if o.quick { 4 } else { 40 };
    let config =
        LossConfig { max_plies: Some(dial::MAX_PLIES), ..LossConfig::new(o.seed, games, o.out.join("losses")) };
    let mut profiled = calibration.clone();
    profiled.losses = loss_profiles(&dial::setup(), &calibration, &truth, &config, &Progress)?;
    println!("{}", losses_table(&profiled));
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
