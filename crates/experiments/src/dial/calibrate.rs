//! `cargo xtask calibrate GAME`: rates the strength dial's ladder.
//!
//! The ladder of a game is a few *curves*, each a Boltzmann player at one
//! depth over a range of θ (`boltzmann:depth=D,cap=C,theta=T`), topped by
//! alpha-beta at that depth (θ = +∞), with uniform random play (θ = 0) as the
//! anchor at Elo 0. Neighbouring rungs play paired matches: each rung its
//! next two up the curve, and the rung at the same θ one depth up. The
//! results are fitted by maximum likelihood (Elo with draws, see
//! [`strength::rating`]) and written as the game's [`Calibration`]: into
//! `OUT/<game>.json`, and, for a run at the default scale, into
//! `calibration/<game>.json`, the file the dial reads.
//!
//! Settings are depths, θ and caps: no wall time, so a calibration holds on
//! any machine. Every matchup plays the same openings with the same
//! per-cell seeds (common random numbers: the matchups differ only by their
//! players, which lowers the variance of rating differences). Every matchup is a match on the cell store (seeded,
//! resumable, shardable, the same for any thread count).

use std::path::PathBuf;

use strength::dial::{Calibration, Dial, HeldOut, Rung};
use strength::pairing::PairOutcome;

use tournament::ladder_fit::{LadderFit, RatedRung, fit_ladder, ladder_table};
use tournament::matches::{AnySetup, MatchJob, Openings};
use tournament::runner::Job;

use super::arena::arena_of;
use crate::TaskResult;
use crate::reproduce::{RunConfig, RunKey, Scale, Shard, open_out, run_jobs, write_atomic};

/// Arguments of `cargo xtask calibrate`.
#[derive(Debug, Clone)]
pub struct Args {
    /// The game.
    pub game: String,
    /// A small run for CI (minutes): fewer games per matchup.
    pub quick: bool,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (results do not depend on it; no more than the cores
    /// when an engine moves on a clock, see `pool`).
    pub threads: Option<usize>,
    /// Output directory (default `target/calibrate/<game>[-quick]`).
    pub out: Option<PathBuf>,
    /// Play only a share of the cells.
    pub shard: Option<Shard>,
    /// Pairs per matchup instead of the ladder's own (its quick count with
    /// `quick`). The openings and cells of a smaller run are a prefix of a
    /// larger one's, so a rerun with more pairs into the same directory
    /// plays only the new games.
    pub pairs: Option<usize>,
}

/// The default master seed of `calibrate`.
pub const DEFAULT_SEED: u64 = 1500;

/// The version of the ladders and of how a matchup is played; recorded in
/// the calibration (a change makes earlier calibrations stale).
pub const LADDER_VERSION: u32 = 1;

/// One curve of a ladder.
#[derive(Debug, Clone)]
pub(crate) struct CurveDef {
    /// The spec without θ, e.g. `boltzmann:depth=2,cap=100`.
    pub(crate) base: String,
    /// θ of its rungs, increasing.
    pub(crate) thetas: Vec<f64>,
    /// The greedy top (θ = +∞), e.g. `alphabeta:depth=2`.
    pub(crate) top: String,
    /// Whether random play meets the curve's weakest rung. A curve that
    /// starts far above random play (connect-4's depth 12, whose rungs only
    /// extend the dial's top) would win every such game, which costs much
    /// and says nothing.
    pub(crate) from_random: bool,
}

impl CurveDef {
    fn rung(&self, theta: f64) -> String {
        format!("{},theta={theta}", self.base)
    }
}

/// A game's ladder, and the pairs of games per matchup at each scale.
#[derive(Debug, Clone)]
pub(crate) struct Ladder {
    pub(crate) curves: Vec<CurveDef>,
    /// External reference players with a published rating (Stockfish at
    /// `UCI_Elo` levels), each playing `links` of the ladder's rungs; the
    /// fitted scale is mapped onto theirs.
    pub(crate) references: Vec<(String, f64)>,
    /// The rungs (specs) every reference plays.
    pub(crate) links: Vec<String>,
    pub(crate) pairs: usize,
    pub(crate) quick_pairs: usize,
    /// Pairs of each held-out match (enough that the games' sampling noise
    /// stays well below the 0.03 accuracy asked of the dial).
    pub(crate) held_out_pairs: usize,
}

/// Stockfish, where the Debian package or `PATH` has it.
pub(crate) fn stockfish() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/games/stockfish");
    if debian.is_file() {
        return Some(debian);
    }
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("stockfish")).find(|f| f.is_file()))
}

/// The anchor of a ladder fitted on its own: random play at Elo 0.
const RANDOM_ANCHOR: &str = "random = 0";
/// Stockfish's `UCI_Elo` levels the chess ladder is anchored to.
const STOCKFISH_LEVELS: [u32; 3] = [1350, 1500, 1700];
/// Stockfish's time per move in the calibration (its `UCI_Elo` holds
/// roughly across time controls because the weakening caps its depth).
const STOCKFISH_MOVETIME_MS: u32 = 50;

fn curve(base: &str, thetas: &[f64], top: &str) -> CurveDef {
    CurveDef { base: base.into(), thetas: thetas.to_vec(), top: top.into(), from_random: true }
}

/// θ of the chess curves' rungs. A first ladder had 0.003, 0.01 and 0.03
/// only: at depth 3 its top finite rung (θ = 0.03, Elo 780) sat 777 Elo
/// below the greedy top, and the dial interpolated across that gap blind
/// (θ = 0.03 scores 2.5% against θ = 0.1 at depth 3, θ = 0.05 about 29%
/// against 0.03 and 22% against 0.1: 40-game probes). The rungs at 0.02,
/// 0.05 and 0.1 fill it; at depth 1, θ = 0.1 is already about the greedy
/// top's strength.
const CHESS_THETAS: [f64; 6] = [0.003, 0.01, 0.02, 0.03, 0.05, 0.1];

/// The rungs Stockfish plays: the dial's own settings where its range
/// meets Stockfish's (the depth-3 curve from θ = 0.05, about 1060 on the
/// mapped scale, to its greedy top, the dial's highest setting; Stockfish's
/// lowest level is 1350 in Debian's 15.1). An earlier ladder linked Stockfish to
/// `alphabeta:depth=2` instead of θ = 0.05. The dial never serves that
/// setting (its rating is reached on the depth-3 curve, the shallowest
/// with a finite θ there), and a shallower search scores better against
/// Stockfish than its rating says (a residual of +3 to +5 standard
/// deviations at every level), so its games pulled the mapped scale
/// away from the settings the dial plays: `elo:X` scored 42% against
/// Stockfish at `UCI_Elo=X` (docs/strength.md).
const CHESS_LINKS: [&str; 3] =
    ["boltzmann:depth=3,softcap=1000,theta=0.05", "boltzmann:depth=3,softcap=1000,theta=0.1", "alphabeta:depth=3"];

/// The ladder of `game`. The θ ranges are chosen so that each curve runs
/// from near random play to near its top; the caps are a decisive advantage
/// in the evaluator's units.
pub(crate) fn ladder(game: &str) -> Result<Ladder, String> {
    Ok(match game {
        // Values of the full game tree: win 1, draw 0, loss −1 after the cap.
        "tictactoe" => Ladder {
            curves: vec![curve("boltzmann:depth=9,cap=1", &[0.5, 1.0, 2.0, 4.0, 8.0], "alphabeta:depth=9")],
            pairs: 2000,
            quick_pairs: 25,
            held_out_pairs: 500,
            references: Vec::new(),
            links: Vec::new(),
        },
        // Connect-4 values are small (a window of three own discs is worth
        // 4): a cap of 100 is a decisive advantage, and θ from 0.003 (near
        // random) to 0.3 (near the greedy top) spans each curve.
        //
        // Depth 12 extends the top (alpha-beta at depth 12 scores about 67%
        // against depth 8): its rungs start at θ = 0.1, where it overlaps
        // depth 8's top, and random play does not meet them. A game at depth
        // 12 costs about 0.5 CPU-seconds (15 times depth 8), so the curve has
        // three rungs; deeper curves, and the solver itself (30 s for one
        // move from a four-disc opening), do not fit the 2 CPU-hour budget.
        "connect4" => Ladder {
            curves: [2, 4, 6, 8]
                .iter()
                .map(|d| {
                    curve(
                        &format!("boltzmann:depth={d},cap=100"),
                        &[0.003, 0.01, 0.03, 0.1, 0.3],
                        &format!("alphabeta:depth={d}"),
                    )
                })
                .chain(std::iter::once(CurveDef {
                    from_random: false,
                    ..curve("boltzmann:depth=12,cap=100", &[0.1, 0.3, 1.0], "alphabeta:depth=12")
                }))
                .collect(),
            pairs: 600,
            quick_pairs: 5,
            held_out_pairs: 200,
            references: Vec::new(),
            links: Vec::new(),
        },
        // Gobang values are pattern weights (an open four 10 000). Depth 1
        // starts nearer random play (θ = 0.0001) so that the low end has a
        // rung between random and Elo 300; depth 2 does not, because near-
        // random depth-2 players play long games at a depth-2 search a
        // move (such a matchup costs more than the rest of the ladder).
        "gobang" => Ladder {
            curves: vec![
                curve("boltzmann:depth=1,softcap=10000", &[0.0001, 0.0003, 0.001, 0.003, 0.01], "alphabeta:depth=1"),
                curve("boltzmann:depth=2,softcap=10000", &[0.0003, 0.001, 0.003, 0.01], "alphabeta:depth=2"),
            ],
            // 900 pairs left the two alpha-beta tops at ±31.5 and ±32 Elo:
            // a rung's interval carries the whole chain of matchups down to
            // random play, so more games at the top alone (1200 pairs in its
            // matchups) narrowed them only to ±30.5 and ±31.
            pairs: 1100,
            quick_pairs: 3,
            held_out_pairs: 250,
            references: Vec::new(),
            links: Vec::new(),
        },
        // Chess values are centipawns; a soft cap of ten pawns
        // (`1000·tanh(v/1000)`): a weak player misjudges large advantages,
        // but a mate still looks better than a few pawns up, so a player
        // far ahead converts instead of drifting into a draw (with a hard
        // cap, games won on material were drawn and the strong rungs
        // underperformed their predictions).
        "chess" => Ladder {
            curves: [1, 2, 3]
                .iter()
                .map(|d| {
                    curve(&format!("boltzmann:depth={d},softcap=1000"), &CHESS_THETAS, &format!("alphabeta:depth={d}"))
                })
                .collect(),
            pairs: 100,
            quick_pairs: 1,
            held_out_pairs: 150,
            references: match stockfish() {
                Some(path) => STOCKFISH_LEVELS
                    .iter()
                    .map(|&elo| {
                        (
                            format!(
                                "uci:{},UCI_LimitStrength=true,UCI_Elo={elo},movetime={STOCKFISH_MOVETIME_MS}",
                                path.display()
                            ),
                            f64::from(elo),
                        )
                    })
                    .collect(),
                None => Vec::new(),
            },
            links: CHESS_LINKS.iter().map(|s| s.to_string()).collect(),
        },
        _ => return Err(format!("unknown game {game:?}")),
    })
}

/// The rungs of a ladder (random first) and the matchups between them, as
/// indices into the rungs.
pub(crate) fn schedule(l: &Ladder) -> (Vec<String>, Vec<(usize, usize)>) {
    let mut rungs = vec!["random".to_string()];
    let mut index = Vec::new(); // per curve: rung indices, top last
    for c in &l.curves {
        let mut ids = Vec::new();
        for &t in &c.thetas {
            rungs.push(c.rung(t));
            ids.push(rungs.len() - 1);
        }
        rungs.push(c.top.clone());
        ids.push(rungs.len() - 1);
        index.push(ids);
    }
    let mut games = Vec::new();
    for (spec, _) in &l.references {
        rungs.push(spec.clone());
        let r = rungs.len() - 1;
        for link in &l.links {
            if let Some(i) = rungs.iter().position(|x| x == link) {
                games.push((i, r));
            }
        }
    }
    for (k, ids) in index.iter().enumerate() {
        if l.curves[k].from_random {
            games.push((0, ids[0]));
        }
        for i in 0..ids.len() {
            for step in [1, 2] {
                if i + step < ids.len() {
                    games.push((ids[i], ids[i + step]));
                }
            }
            if let Some(up) = index.get(k + 1)
                && let Some(j) = cross_link(&l.curves[k], &l.curves[k + 1], i)
            {
                games.push((ids[i], up[j]));
            }
        }
    }
    (rungs, games)
}

/// The rung of curve `up` that rung `i` of curve `c` plays (an index into
/// `up`'s rungs, top last): top to top, otherwise the rung of the nearest θ
/// on a log scale (the same θ when `up` has it), the lower on a tie, if it
/// is within a factor of 3 of θ; none otherwise (a curve that covers only
/// part of the other's θ range, whose far rungs would meet players of
/// another strength altogether).
fn cross_link(c: &CurveDef, up: &CurveDef, i: usize) -> Option<usize> {
    let Some(&theta) = c.thetas.get(i) else { return Some(up.thetas.len()) };
    let distance = |t: f64| (t.ln() - theta.ln()).abs();
    (0..up.thetas.len())
        .min_by(|&a, &b| distance(up.thetas[a]).total_cmp(&distance(up.thetas[b])))
        .filter(|&j| distance(up.thetas[j]) <= 3f64.ln() + 1e-9)
}

/// Runs `cargo xtask calibrate`.
pub fn run(args: Args) -> TaskResult {
    let ladder = ladder(&args.game)?;
    let (rungs, matchups) = schedule(&ladder);
    super::pool::start_workers(args.threads, &rungs)?;
    let scale = if args.quick { Scale::Quick } else { Scale::Default };
    let pairs = args.pairs.unwrap_or(if args.quick { ladder.quick_pairs } else { ladder.pairs });
    if pairs == 0 {
        return Err("--pairs 0: a matchup needs at least one pair of games".into());
    }
    let probe = arena_of(&args.game)?;
    for r in &rungs {
        probe.check_spec(r)?;
    }
    // One opening list for every matchup, so that all see the same
    // positions.
    let opening_seed = search_core::rng::derive_seed(args.seed, crate::reproduce::fnv("calibrate openings"));
    let openings =
        Openings { list: probe.random_openings(pairs, opening_seed)?, source: format!("random, seed {opening_seed}") };
    let jobs: Vec<MatchJob> = matchups
        .iter()
        .map(|&(a, b)| {
            // Cell directories: one per matchup, named by its two
            // settings, so that a ladder that gains or loses rungs keeps the
            // games of the matchups it still has.
            let name =
                format!("{}-{:016x}", args.game, crate::reproduce::fnv(&format!("{} vs {}", rungs[a], rungs[b])));
            MatchJob::new(probe.clone(), name, &rungs[a], &rungs[b], openings.clone(), pairs)
        })
        .collect();
    let key = RunKey { seed: args.seed, scale };
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("target/calibrate").join(if args.quick {
            format!("{}-quick", args.game)
        } else {
            args.game.clone()
        })
    });
    let names: Vec<String> = jobs.iter().map(|j| j.name().to_string()).collect();
    let share = args.shard.map_or("all".to_string(), |s| s.to_string());
    let _lock = open_out(&out, key, &names, &[share])?;
    let config = RunConfig { label: "calibrate", key, out: out.clone(), shard: args.shard };
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    eprintln!(
        "calibrate {}: {} rungs, {} matchups of {} pairs, cells in {}",
        args.game,
        rungs.len(),
        matchups.len(),
        pairs,
        out.display()
    );
    let started = std::time::Instant::now();
    run_jobs(&selected, &config)?;
    let mut results: Vec<(usize, usize, Vec<PairOutcome>)> = Vec::new();
    let mut missing = 0;
    for (job, &(a, b)) in jobs.iter().zip(&matchups) {
        let cells = job.load(&out, key);
        missing += cells.iter().filter(|c| c.is_none()).count();
        results.push((a, b, cells.into_iter().flatten().flatten().collect()));
    }
    if missing > 0 {
        eprintln!(
            "calibrate: {missing} cells are missing from {} (other shards' share?): rerun without --shard, or merge, to fit",
            out.display()
        );
        return Ok(());
    }
    let LadderFit { mut rated, nu, mut misfit, residuals } = fit_ladder(&rungs, &results)?;
    let mapping = map_onto_references(&ladder, &mut rated);
    let mut calibration = calibration(&args, &ladder, &rated, &results, scale);
    if let Some((note, stretch)) = mapping {
        // The model error is a spread of rating differences: it stretches
        // with the scale.
        if let Some(m) = misfit.as_mut() {
            m.model_error *= stretch;
        }
        calibration.scale_stretch = Some(stretch);
        calibration.anchor = "Stockfish UCI_Elo".into();
        calibration.notes.push(note);
    } else if args.game == "chess" {
        let note = "stockfish was not found (Debian package `stockfish`, or on PATH): the chess ladder is anchored at \
                    random = 0 like the small games, so its ratings are not on Stockfish's UCI_Elo scale";
        eprintln!("calibrate chess: {note}");
        calibration.notes.push(note.into());
    }
    calibration.draw_nu = Some(nu);
    calibration.misfit = misfit;
    calibration.residuals = residuals;
    calibration.held_out =
        held_out(&probe, &args, &calibration, &config, if args.quick { 3 } else { ladder.held_out_pairs }, &openings)?;
    calibration.losses = super::losses::profiles(&args.game, &calibration, &config, args.quick)?;
    let text = calibration.to_json();
    let svg = curves_svg(&calibration, &ladder)?;
    write_atomic(&out.join(format!("{}.json", args.game)), &text)?;
    write_atomic(&out.join(format!("{}.svg", args.game)), &svg)?;
    if !args.quick {
        let path = super::arena::calibration_path(&args.game);
        std::fs::create_dir_all(path.parent().expect("a file in a directory"))?;
        write_atomic(&path, &text)?;
        write_atomic(&path.with_extension("svg"), &svg)?;
    }
    println!("{}", ladder_table(&calibration));
    println!("{}", super::losses::losses_table(&calibration));
    eprintln!(
        "calibrate {}: fitted in {:.1} s (this run; cells already saved are not replayed){}",
        args.game,
        started.elapsed().as_secs_f64(),
        if args.quick {
            String::new()
        } else {
            format!(", written to {}", super::arena::calibration_path(&args.game).display())
        }
    );
    Ok(())
}

/// The held-out check: ten matches between dial values spread over the
/// range, at settings the calibration never played, each compared with the
/// score the ratings predict.
fn held_out(
    arena: &std::sync::Arc<dyn AnySetup>,
    args: &Args,
    calibration: &Calibration,
    config: &RunConfig,
    pairs: usize,
    openings: &Openings,
) -> Result<Vec<HeldOut>, String> {
    let dial = Dial::new(calibration.clone()).map_err(|e| e.to_string())?;
    let (lo, hi) = dial.range();
    let span = hi - lo;
    let mut checks = Vec::new();
    let mut jobs = Vec::new();
    for k in 0..HELD_OUT_PAIRS {
        // A from 3% to 66% of the range, B from 12% to 39% of the range
        // above it (values that do not land on the rungs' ratings).
        let a = (lo + span * (0.03 + 0.07 * k as f64)).round() + 0.5;
        let b = (a + span * (0.12 + 0.03 * k as f64)).min(hi - span * 0.02).round() + 0.5;
        let a_spec = dial.setting(a).map_err(|e| e.to_string())?.to_string();
        let b_spec = dial.setting(b).map_err(|e| e.to_string())?.to_string();
        jobs.push(MatchJob::new(
            arena.clone(),
            format!("{}-heldout{k:02}", args.game),
            &a_spec,
            &b_spec,
            Openings { list: openings.list.clone(), source: "calibration openings".into() },
            pairs,
        ));
        checks.push((a, b, a_spec, b_spec));
    }
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    run_jobs(&selected, config).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (job, (a, b, a_spec, b_spec)) in jobs.iter().zip(checks) {
        let results: Vec<PairOutcome> = job.load(&config.out, config.key).into_iter().flatten().flatten().collect();
        if results.len() < pairs {
            return Err(format!("held-out match {a_spec} vs {b_spec}: cells missing"));
        }
        let games = 2 * results.len() as u64;
        let observed = results.iter().map(PairOutcome::score).sum::<f64>() / games as f64;
        let predicted = dial.predict(a, b, games).map_err(|e| e.to_string())?;
        // The interval: the two values' rating uncertainty, the ladder's
        // model error and the games' sampling noise (`Dial::predict`).
        out.push(HeldOut {
            a_elo: a,
            b_elo: b,
            a_spec,
            b_spec,
            games,
            predicted: predicted.score,
            low: predicted.low,
            high: predicted.high,
            without_model_error: Some(predicted.without_model_error),
            observed,
        });
    }
    Ok(out)
}

/// Elo against θ, one line per curve (θ on a log axis; random play and
/// the greedy tops are in the table, not on the plot).
fn curves_svg(c: &Calibration, ladder: &Ladder) -> Result<String, String> {
    let series: Vec<(String, Vec<(f64, f64)>)> = ladder
        .curves
        .iter()
        .map(|curve| {
            let mut pts: Vec<(f64, f64)> = c
                .rungs
                .iter()
                .filter(|r| r.curve.as_deref() == Some(curve.base.as_str()))
                .filter_map(|r| r.theta.filter(|t| t.is_finite() && *t > 0.0).map(|t| (t, r.rating)))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let top = c.rungs.iter().find(|r| r.spec == curve.top).map_or(f64::NAN, |r| r.rating);
            (format!("{} (top {:.0})", curve.base, top), pts)
        })
        .collect();
    // The small games keep random play at 0; chess is mapped onto
    // Stockfish's scale when it is installed.
    let scale =
        if c.anchor == RANDOM_ANCHOR { "random play = 0".to_string() } else { format!("on the {} scale", c.anchor) };
    crate::reproduce::plot::lines(
        &format!("{}: the strength dial's ladder (Elo, {scale})", c.game),
        "θ (inverse temperature, log scale)",
        "Elo",
        true,
        &series,
    )
}

/// Maps the fitted ratings onto the reference players' published scale:
/// the least-squares line `published = a + b · fitted` through the
/// references (an offset alone with fewer than three), applied to every
/// rung. Returns a note saying what was done, or `None` without references.
fn map_onto_references(ladder: &Ladder, rated: &mut [RatedRung]) -> Option<(String, f64)> {
    let pts: Vec<(f64, f64)> = ladder
        .references
        .iter()
        .filter_map(|(spec, elo)| rated.iter().find(|r| &r.spec == spec).map(|r| (r.rating, *elo)))
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    let (mx, my) = (pts.iter().map(|p| p.0).sum::<f64>() / n, pts.iter().map(|p| p.1).sum::<f64>() / n);
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let b = if pts.len() >= 3 && sxx > 0.0 && sxy > 0.0 { sxy / sxx } else { 1.0 };
    let a = my - b * mx;
    for r in rated.iter_mut() {
        r.rating = a + b * r.rating;
        r.low = a + b * r.low;
        r.high = a + b * r.high;
    }
    let residuals: Vec<String> = pts.iter().map(|&(x, y)| format!("{y:.0}: {:+.0}", a + b * x - y)).collect();
    let note = format!(
        "Anchored to Stockfish's UCI_Elo: the fitted scale (random = 0) mapped by Elo = {a:.1} + {b:.3} × fitted, \
         the least-squares line through the Stockfish levels; residuals at each level (mapped − nominal): {}. \
         Stockfish weakened by UCI_LimitStrength draws its moves from a clock-seeded generator: its games are not \
         reproducible, the rest of the ladder's are.",
        residuals.join(", ")
    );
    Some((note, b))
}

/// The held-out matches per game.
const HELD_OUT_PAIRS: usize = 10;

fn calibration(
    args: &Args,
    ladder: &Ladder,
    rated: &[RatedRung],
    results: &[(usize, usize, Vec<PairOutcome>)],
    scale: Scale,
) -> Calibration {
    let curve_of = |spec: &str| -> (Option<String>, Option<f64>) {
        if spec == "random" {
            return (None, Some(0.0));
        }
        for c in &ladder.curves {
            if spec == c.top {
                return (Some(c.base.clone()), Some(f64::INFINITY));
            }
            for &t in &c.thetas {
                if spec == c.rung(t) {
                    return (Some(c.base.clone()), Some(t));
                }
            }
        }
        (None, None)
    };
    let rungs = rated
        .iter()
        .map(|r| {
            let (curve, theta) = curve_of(&r.spec);
            Rung {
                spec: r.spec.clone(),
                curve,
                theta: if r.spec == "random" { None } else { theta },
                rating: r.rating,
                low: r.low,
                high: r.high,
                games: r.games,
            }
        })
        .collect();
    let games = results.iter().map(|r| r.2.len() as u64 * 2).sum();
    Calibration {
        game: args.game.clone(),
        anchor: RANDOM_ANCHOR.into(),
        rungs,
        partial_curves: ladder.curves.iter().filter(|c| !c.from_random).map(|c| c.base.clone()).collect(),
        games,
        seed: args.seed,
        scale: match scale {
            Scale::Quick => "quick".into(),
            _ => "default".into(),
        },
        code_version: format!("calibrate ladder v{LADDER_VERSION}, strength {}", env!("CARGO_PKG_VERSION")),
        draw_nu: None,
        scale_stretch: None,
        misfit: None,
        residuals: Vec::new(),
        held_out: Vec::new(),
        losses: Vec::new(),
        notes: vec![
            "Ratings: maximum likelihood over every matchup's games, draws modelled; intervals 95%.".into(),
            "Each matchup: paired games from shared balanced random openings, colours swapped.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use strength::spec::AgentSpec;

    use super::*;

    #[test]
    fn every_rung_plays_and_the_schedule_is_connected() {
        for game in super::super::arena::GAMES {
            let (rungs, games) = schedule(&ladder(game).unwrap());
            let mut reached = vec![false; rungs.len()];
            reached[0] = true;
            for _ in 0..rungs.len() {
                for &(a, b) in &games {
                    if reached[a] || reached[b] {
                        reached[a] = true;
                        reached[b] = true;
                    }
                }
            }
            assert!(reached.iter().all(|&r| r), "{game}: a rung is not connected to random play");
            for &(a, b) in &games {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn curves_are_linked_at_equal_theta_and_top_to_top() {
        let (rungs, games) = schedule(&ladder("gobang").unwrap());
        let has = |a: &str, b: &str| {
            let (i, j) = (rungs.iter().position(|r| r == a).unwrap(), rungs.iter().position(|r| r == b).unwrap());
            games.contains(&(i, j))
        };
        let (d1, d2) = ("boltzmann:depth=1,softcap=10000,theta=", "boltzmann:depth=2,softcap=10000,theta=");
        for t in ["0.0003", "0.001", "0.003", "0.01"] {
            assert!(has(&format!("{d1}{t}"), &format!("{d2}{t}")), "θ = {t}");
        }
        // Depth 1's extra θ links to the nearest of depth 2.
        assert!(has(&format!("{d1}0.0001"), &format!("{d2}0.0003")));
        assert!(has("alphabeta:depth=1", "alphabeta:depth=2"));
    }

    /// Stockfish plays settings the dial itself serves where the two ranges
    /// meet: each link is a rung of the chess ladder, and the committed
    /// calibration's dial, asked for that rung's rating, plays on the
    /// link's curve (depth 3). `alphabeta:depth=2`, the link it replaced,
    /// is a rung the dial never serves.
    #[test]
    fn stockfish_plays_the_settings_the_chess_dial_serves() {
        let (rungs, _) = schedule(&ladder("chess").unwrap());
        let Some(calibration) = super::super::arena::load_calibration("chess").unwrap() else { return };
        let dial = Dial::new(calibration.clone()).unwrap();
        let served = |spec: &str| {
            let rung = calibration.rungs.iter().find(|r| r.spec == spec).expect("a calibrated rung");
            dial.setting(rung.rating).unwrap()
        };
        for link in CHESS_LINKS {
            assert!(rungs.iter().any(|r| r == link), "{link} is not a rung");
            let (spec, setting) = (link.parse::<AgentSpec>().unwrap(), served(link));
            assert_eq!(setting.get("depth"), spec.get("depth"), "{link}: the dial serves {setting}");
        }
        assert_eq!(served("alphabeta:depth=2").get("depth"), Some("3"));
    }

    /// Connect-4's depth-12 curve is linked to depth 8 at its two equal θ
    /// and top to top, and to nothing further away; random play does not
    /// meet it; and adding it kept every matchup of the four curves below,
    /// whose games are reused.
    #[test]
    fn connect4s_depth_12_curve_links_only_where_it_overlaps() {
        let full = ladder("connect4").unwrap();
        let (rungs, games) = schedule(&full);
        let named = |games: &[(usize, usize)], rungs: &[String]| -> Vec<(String, String)> {
            games.iter().map(|&(a, b)| (rungs[a].clone(), rungs[b].clone())).collect()
        };
        let pairs = named(&games, &rungs);
        let (d8, d12) = ("boltzmann:depth=8,cap=100,theta=", "boltzmann:depth=12,cap=100,theta=");
        let touching: Vec<&(String, String)> =
            pairs.iter().filter(|(a, b)| (a.contains("depth=12")) != (b.contains("depth=12"))).collect();
        let want = [
            (format!("{d8}0.1"), format!("{d12}0.1")),
            (format!("{d8}0.3"), format!("{d12}0.3")),
            ("alphabeta:depth=8".to_string(), "alphabeta:depth=12".to_string()),
        ];
        assert_eq!(touching.len(), want.len(), "{touching:?}");
        for w in &want {
            assert!(pairs.contains(w), "{w:?} missing");
        }
        let mut below = full.clone();
        below.curves.pop();
        let (r0, g0) = schedule(&below);
        for p in named(&g0, &r0) {
            assert!(pairs.contains(&p), "{p:?} dropped");
        }
        assert_eq!(pairs.len(), named(&g0, &r0).len() + 3 + 5, "three links down, five matchups within");
    }
}
