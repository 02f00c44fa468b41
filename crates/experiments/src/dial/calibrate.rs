//! `cargo xtask calibrate GAME`: calibrates the strength dial of a
//! built-in game with [`tournament::calibrate`], on the game's ladder below.
//!
//! The ladder of a game is a few *curves*, each a Boltzmann player at one
//! depth over a range of θ (`boltzmann:depth=D,cap=C,theta=T`), topped by
//! alpha-beta at that depth (θ = +∞), with uniform random play (θ = 0) as the
//! anchor at Elo 0 ([`tournament::ladder`]). The calibration is written
//! into `OUT/<game>.json`, and, for a run at the default scale, into
//! `calibration/<game>.json`, the file the dial reads; with the loss
//! profiles of the `losses` module where the game has a judge.

use std::path::PathBuf;

use strength::dial::Calibration;
use tournament::calibrate::{CalibrateConfig, CalibrateError, RANDOM_ANCHOR, calibrate};
use tournament::ladder::{Curve, Ladder, Reference};
use tournament::ladder_fit::ladder_table;

use super::arena::arena_of;
use crate::TaskResult;
use crate::reproduce::{RunConfig, RunKey, Scale, Shard, Terminal, write_atomic};

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

/// Stockfish, where the Debian package or `PATH` has it.
pub(crate) fn stockfish() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/games/stockfish");
    if debian.is_file() {
        return Some(debian);
    }
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("stockfish")).find(|f| f.is_file()))
}

/// Stockfish's `UCI_Elo` levels the chess ladder is anchored to.
const STOCKFISH_LEVELS: [u32; 3] = [1350, 1500, 1700];
/// Stockfish's time per move in the calibration (its `UCI_Elo` holds
/// roughly across time controls because the weakening caps its depth).
const STOCKFISH_MOVETIME_MS: u32 = 50;

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

/// The ladder of `game` and its pairs per matchup with `--quick`. The θ
/// ranges are chosen so that each curve runs from near random play to near
/// its top; the caps are a decisive advantage in the evaluator's units.
pub(crate) fn ladder(game: &str) -> Result<(Ladder, usize), String> {
    let boltzmann = |depths: &[u32], thetas: &[f64], cap: &str, pairs: usize, held_out: usize| {
        Ladder::boltzmann(depths, thetas, cap).with_pairs(pairs).with_held_out_pairs(held_out)
    };
    Ok(match game {
        // Values of the full game tree: win 1, draw 0, loss −1 after the cap.
        "tictactoe" => (boltzmann(&[9], &[0.5, 1.0, 2.0, 4.0, 8.0], "cap=1", 2000, 500), 25),
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
        "connect4" => {
            let mut l = boltzmann(&[2, 4, 6, 8], &[0.003, 0.01, 0.03, 0.1, 0.3], "cap=100", 600, 200);
            l.curves
                .push(Curve::new("boltzmann:depth=12,cap=100", &[0.1, 0.3, 1.0], "alphabeta:depth=12").above_random());
            (l, 5)
        }
        // Gobang values are pattern weights (an open four 10 000). Depth 1
        // starts nearer random play (θ = 0.0001) so that the low end has a
        // rung between random and Elo 300; depth 2 does not, because near-
        // random depth-2 players play long games at a depth-2 search a
        // move (such a matchup costs more than the rest of the ladder).
        //
        // 900 pairs left the two alpha-beta tops at ±31.5 and ±32 Elo: a
        // rung's interval carries the whole chain of matchups down to random
        // play, so more games at the top alone (1200 pairs in its matchups)
        // narrowed them only to ±30.5 and ±31.
        "gobang" => {
            let mut l = boltzmann(&[1, 2], &[0.0003, 0.001, 0.003, 0.01], "softcap=10000", 1100, 250);
            l.curves[0].thetas.insert(0, 0.0001);
            (l, 3)
        }
        // Chess values are centipawns; a soft cap of ten pawns
        // (`1000·tanh(v/1000)`): a weak player misjudges large advantages,
        // but a mate still looks better than a few pawns up, so a player
        // far ahead converts instead of drifting into a draw (with a hard
        // cap, games won on material were drawn and the strong rungs
        // underperformed their predictions).
        "chess" => {
            let mut l = boltzmann(&[1, 2, 3], &CHESS_THETAS, "softcap=1000", 100, 150);
            if let Some(path) = stockfish() {
                l.references = STOCKFISH_LEVELS
                    .iter()
                    .map(|&elo| Reference {
                        spec: format!(
                            "uci:{},UCI_LimitStrength=true,UCI_Elo={elo},movetime={STOCKFISH_MOVETIME_MS}",
                            path.display()
                        ),
                        elo: f64::from(elo),
                    })
                    .collect();
                l.reference_scale = Some("Stockfish UCI_Elo".into());
            }
            l.links = CHESS_LINKS.iter().map(|s| s.to_string()).collect();
            (l, 1)
        }
        _ => return Err(format!("unknown game {game:?}")),
    })
}

/// Runs `cargo xtask calibrate`.
pub fn run(args: Args) -> TaskResult {
    let (mut ladder, quick_pairs) = ladder(&args.game)?;
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
    let setup = arena_of(&args.game)?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("target/calibrate").join(if args.quick {
            format!("{}-quick", args.game)
        } else {
            args.game.clone()
        })
    });
    let config = CalibrateConfig { seed: args.seed, scale, out: out.clone(), shard: args.shard };
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
        "calibrate {}: done in {:.1} s (this run; cells already saved are not replayed){}",
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

#[cfg(test)]
mod tests {
    use strength::dial::Dial;
    use strength::spec::AgentSpec;

    use super::*;

    #[test]
    fn every_rung_plays_and_the_schedule_is_connected() {
        for game in super::super::arena::GAMES {
            let s = ladder(game).unwrap().0.schedule();
            let (rungs, games) = (s.rungs, s.matchups);
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
        let s = ladder("gobang").unwrap().0.schedule();
        let (rungs, games) = (s.rungs, s.matchups);
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

    /// The ladders built on the library are the ones the committed
    /// calibrations were made with: the same rungs, and the same matchups
    /// (each calibration's residuals list one per matchup), so that a rerun
    /// with the same seed plays the same cells.
    #[test]
    fn the_built_in_ladders_are_the_committed_calibrations_ladders() {
        for game in ["tictactoe", "connect4", "gobang"] {
            let Some(c) = super::super::arena::load_calibration(game).unwrap() else { continue };
            let s = ladder(game).unwrap().0.schedule();
            let mut rungs: Vec<&str> = s.rungs.iter().map(String::as_str).collect();
            let mut committed: Vec<&str> = c.rungs.iter().map(|r| r.spec.as_str()).collect();
            rungs.sort_unstable();
            committed.sort_unstable();
            assert_eq!(rungs, committed, "{game}: rungs");
            let mut matchups: Vec<(&str, &str)> =
                s.matchups.iter().map(|&(a, b)| (s.rungs[a].as_str(), s.rungs[b].as_str())).collect();
            let mut residuals: Vec<(&str, &str)> = c.residuals.iter().map(|r| (r.a.as_str(), r.b.as_str())).collect();
            matchups.sort_unstable();
            residuals.sort_unstable();
            assert_eq!(matchups, residuals, "{game}: matchups");
            let (l, _) = ladder(game).unwrap();
            assert_eq!(c.games, 2 * l.pairs as u64 * s.matchups.len() as u64, "{game}: pairs per matchup");
            for r in &c.rungs {
                let (curve, theta) = l.place_of(&r.spec);
                assert_eq!(r.curve, curve, "{game}: {}", r.spec);
                assert_eq!(r.theta, if r.spec == "random" { None } else { theta }, "{game}: {}", r.spec);
            }
        }
    }

    /// Stockfish plays settings the dial itself serves where the two ranges
    /// meet: each link is a rung of the chess ladder, and the committed
    /// calibration's dial, asked for that rung's rating, plays on the
    /// link's curve (depth 3). `alphabeta:depth=2`, the link it replaced,
    /// is a rung the dial never serves.
    #[test]
    fn stockfish_plays_the_settings_the_chess_dial_serves() {
        let rungs = ladder("chess").unwrap().0.schedule().rungs;
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
        let full = ladder("connect4").unwrap().0;
        let s = full.schedule();
        let (rungs, games) = (s.rungs, s.matchups);
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
        let s0 = below.schedule();
        let (r0, g0) = (s0.rungs, s0.matchups);
        for p in named(&g0, &r0) {
            assert!(pairs.contains(&p), "{p:?} dropped");
        }
        assert_eq!(pairs.len(), named(&g0, &r0).len() + 3 + 5, "three links down, five matchups within");
    }
}
