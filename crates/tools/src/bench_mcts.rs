//! The MCTS and parallel-search rows of `cargo xtask bench`: simulations
//! per second against OpenSpiel's C++ MCTS (through its Python bindings),
//! the fraction of optimal moves on Pons' connect-4 positions against the
//! number of simulations (with an SVG), Lazy SMP's time-to-depth speedup
//! with 2 threads, and MCTS's simulations per second with 2 threads.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use games_chess::{ChessEval, ChessGame};
use games_small::solver::{Solver, TestLine, parse_test_line};
use games_small::{Connect4, Connect4Eval, TicTacToe, TicTacToeEval};
use search_core::backup::Minimax;
use search_core::mcts::{Mcts, MctsBackup, MctsConfig, Mean, Soft};
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, Outcome, Status};

use super::bench::{Quality, Report, Scaling, Timed, median};
use crate::TaskResult;

/// UCB1's constant on our `[0, 1]`-mapped scale that matches OpenSpiel's
/// `uct_c = 2` on its `[-1, 1]` scale.
const C_MATCHING_OPENSPIEL: f64 = 1.0;

/// The OpenSpiel side: `reps` searches of `sims` simulations from the
/// initial state of `game`, each with a fresh `pyspiel.MCTSBot` and a
/// `RandomRolloutEvaluator` (one rollout); prints one line of seconds per
/// search.
const OPENSPIEL_SCRIPT: &str = r#"
import sys, time
import pyspiel
game_name, sims, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = pyspiel.load_game(game_name)
for r in range(reps):
    ev = pyspiel.RandomRolloutEvaluator(1, r)
    bot = pyspiel.MCTSBot(game, ev, 2.0, sims, 1000, False, r, False)
    state = game.new_initial_state()
    t = time.perf_counter()
    bot.step(state)
    print(time.perf_counter() - t, flush=True)
"#;

fn openspiel_times(game: &str, sims: u64, reps: usize) -> Result<Vec<f64>, String> {
    let out = Command::new("python3")
        .args(["-c", OPENSPIEL_SCRIPT, game, &sims.to_string(), &reps.to_string()])
        .output()
        .map_err(|e| format!("python3 not runnable: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or("").to_string();
        return Err(format!("the OpenSpiel script failed: {last}"));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().parse::<f64>().map_err(|e| format!("bad OpenSpiel output {l:?}: {e}")))
        .collect()
}

/// Which searcher each timed search runs on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Searcher {
    /// A new one each search, as OpenSpiel's side does: the search pays for
    /// allocating its tree.
    Fresh,
    /// One for all the searches, as a game keeps it between moves: each
    /// search starts from an empty tree (no reuse) with a fresh seed, in
    /// the memory the searcher already has (the first search allocates it).
    Kept,
}

/// Seconds of each of `reps` UCT searches of `sims` simulations from
/// `root` (seeds 0, 1, ...).
fn ours_times<G, E>(root: &G, eval: E, sims: u64, reps: usize, threads: usize, searcher: Searcher) -> Vec<f64>
where
    G: Game + Sync,
    G::Move: Send,
    E: Evaluator<G> + Sync + Clone,
{
    let config = MctsConfig::default()
        .with_c(C_MATCHING_OPENSPIEL)
        .and_then(|c| c.with_threads(threads))
        .expect("valid settings")
        .with_reuse(false);
    let build = || Mcts::new(Mean, eval.clone(), config.clone()).expect("valid settings");
    let mut mcts = build();
    (0..reps)
        .map(|r| {
            if searcher == Searcher::Fresh && r > 0 {
                mcts = build();
            }
            mcts.reseed(r as u64);
            let start = Instant::now();
            let result = mcts.run(root, &Limits::iterations(sims)).expect("the game goes on");
            let t = start.elapsed().as_secs_f64();
            assert_eq!(result.iterations, sims);
            t
        })
        .collect()
}

/// MCTS simulations per second, ours against OpenSpiel's, on tic-tac-toe and
/// connect-4 from the start, the same number of simulations.
pub(crate) fn mcts_vs_openspiel(quick: bool, report: &mut Report) {
    let (sims, reps) = if quick { (2_000, 2) } else { (20_000, 5) };
    let cases: [(&str, &str); 2] = [("tic-tac-toe", "tic_tac_toe"), ("connect-4", "connect_four")];
    for (name, spiel) in cases {
        let theirs = match openspiel_times(spiel, sims, reps) {
            Ok(t) if t.len() == reps => t,
            Ok(t) => {
                report
                    .notes
                    .push(format!("OpenSpiel MCTS on {name}: {} results for {reps} searches; skipped.", t.len()));
                continue;
            }
            Err(e) => {
                report.notes.push(format!(
                    "OpenSpiel MCTS on {name}: NOT RUN ({e}). Install it with `pip install open-spiel` and rerun."
                ));
                continue;
            }
        };
        let ours = match name {
            "tic-tac-toe" => ours_times(&TicTacToe::new(), TicTacToeEval::default(), sims, reps, 1, Searcher::Fresh),
            _ => ours_times(&Connect4::standard(), Connect4Eval::default(), sims, reps, 1, Searcher::Fresh),
        };
        let (mo, mt) = (median(&ours), median(&theirs));
        report.timed.push(Timed {
            name: format!("{name} MCTS, {sims} simulations from the start: ours ÷ OpenSpiel C++ (pyspiel.MCTSBot)"),
            ours,
            theirs,
            work: format!(
                "UCT c=2 on [-1,1], one random rollout per leaf, a new searcher each search; {:.0} vs {:.0} simulations/s (×{:.1})",
                sims as f64 / mo,
                sims as f64 / mt,
                mt / mo
            ),
            goal: Some(1.0 / 3.0),
        });
    }
}

/// The value class (win 1, draw 0, loss −1) of each root move of `pos` for
/// the side to move, from the solver.
fn move_classes(solver: &mut Solver, pos: &Connect4) -> Result<Vec<(u8, i32)>, String> {
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    let mut out = Vec::new();
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let class = match child.status() {
            Status::Over(Outcome::Win(_)) => 1,
            Status::Over(_) => 0,
            Status::Ongoing => {
                solver.reset();
                -solver.solve(&child).map_err(|e| e.to_string())?.score.signum()
            }
        };
        out.push((mv, class));
    }
    Ok(out)
}

/// The fraction of Pons' positions where MCTS plays a move that keeps the
/// game-theoretic value (win, draw or loss), against simulations, for the
/// mean (UCT) and soft (MENTS) backups; writes the SVG.
pub(crate) fn connect4_quality(root: &Path, quick: bool, report: &mut Report) -> TaskResult {
    let path = test_data::path("connect4/middle-easy").unwrap_or_default();
    let Ok(text) = std::fs::read_to_string(&path) else {
        report.notes.push(format!("MCTS quality: skipped, {} not found.", path.display()));
        return Ok(());
    };
    let (positions, sims): (usize, Vec<u64>) = if quick {
        (10, vec![100, 1_000, 10_000])
    } else {
        (50, vec![100, 300, 1_000, 3_000, 10_000, 30_000, 100_000])
    };
    let mut solver = Solver::new(7, 6)?;
    let mut set = Vec::new();
    for line in text.lines() {
        if set.len() >= positions {
            break;
        }
        let Some(TestLine { position, .. }) = parse_test_line(line, 7, 6)? else { continue };
        let classes = move_classes(&mut solver, &position)?;
        let best = classes.iter().map(|c| c.1).max().unwrap_or(0);
        // Only positions where some move throws the value away.
        if classes.iter().any(|c| c.1 < best) {
            let good: Vec<u8> = classes.iter().filter(|c| c.1 == best).map(|c| c.0).collect();
            set.push((position, good));
        }
    }
    let backups: Vec<(String, Box<dyn MctsBackup + Sync>, MctsConfig)> = vec![
        ("mean (UCT, c=1.4)".into(), Box::new(Mean), MctsConfig::default()),
        ("soft (MENTS, τ=0.1, ε=1)".into(), Box::new(Soft::new(0.1)?), MctsConfig::ments(1.0)?),
    ];
    let mut series = Vec::new();
    for (name, backup, config) in &backups {
        let mut points = Vec::new();
        for &n in &sims {
            let mut good = 0;
            let start = Instant::now();
            for (i, (pos, optimal)) in set.iter().enumerate() {
                let mut mcts = Mcts::new(&**backup, Connect4Eval::default(), config.clone().with_seed(i as u64))?;
                let r = mcts.run(pos, &Limits::iterations(n))?;
                good += usize::from(r.best.is_some_and(|b| optimal.contains(&b)));
            }
            let fraction = good as f64 / set.len().max(1) as f64;
            eprintln!("mcts quality {name} {n}: {fraction:.3} ({:.1} s)", start.elapsed().as_secs_f64());
            points.push((n as f64, fraction));
        }
        report.quality.push(Quality { name: name.clone(), points: points.clone(), positions: set.len() });
        series.push((name.clone(), points));
    }
    let svg = taskkit::plot::lines(
        "MCTS on Pons' connect-4 middle-easy positions",
        "simulations",
        "fraction of value-keeping moves",
        true,
        &series,
    )?;
    let out = if quick { root.join("target/mcts-quality-quick.svg") } else { root.join("docs/mcts-quality.svg") };
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, svg)?;
    report.notes.push(format!("MCTS quality figure: {}", out.strip_prefix(root).unwrap_or(&out).display()));
    Ok(())
}

/// Time and main-thread nodes of one fresh search of `root` to `depth` with
/// `threads` threads.
fn time_to_depth<G, E>(root: &G, eval: E, options: &Options, depth: u32, threads: usize) -> (f64, u64)
where
    G: Game + Sync,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send,
{
    let mut s = Search::parallel(Minimax, eval, options.clone().with_threads(threads)).expect("valid options");
    let start = Instant::now();
    let r = s.run(root, &Limits::depth(depth)).expect("the game goes on");
    let t = start.elapsed().as_secs_f64();
    assert!(r.complete && r.best.is_some());
    (t, r.stats.nodes)
}

fn smp_speedup<G, E>(name: &str, positions: &[G], eval: E, options: Options, depth: u32, report: &mut Report)
where
    G: Game + Sync,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send,
{
    let (mut one, mut two, mut n1, mut n2) = (Vec::new(), Vec::new(), 0, 0);
    // Each position is searched REPEATS times with 1 and 2 threads,
    // interleaved, and the fastest of each kept: a single search of a few
    // tens of milliseconds varies by a third on a shared machine.
    const REPEATS: usize = 3;
    for p in positions {
        let (mut best1, mut best2) = ((f64::INFINITY, 0), (f64::INFINITY, 0));
        for _ in 0..REPEATS {
            let r1 = time_to_depth(p, eval.clone(), &options, depth, 1);
            let r2 = time_to_depth(p, eval.clone(), &options, depth, 2);
            best1 = if r1.0 < best1.0 { r1 } else { best1 };
            best2 = if r2.0 < best2.0 { r2 } else { best2 };
        }
        one.push(best1.0);
        n1 += best1.1;
        two.push(best2.0);
        n2 += best2.1;
    }
    let (t1, t2): (f64, f64) = (one.iter().sum(), two.iter().sum());
    let ratios: Vec<f64> = one.iter().zip(&two).map(|(a, b)| a / b).collect();
    report.scaling.push(Scaling {
        name: format!("Lazy SMP time to depth {depth}, {} {name} positions: 1 thread ÷ 2 threads", positions.len()),
        one: t1,
        two: t2,
        goal: 1.6,
        note: format!(
            "total of each position's fastest of {REPEATS}; median per-position speedup {:.2}; main-thread nodes {n1} vs \
             {n2} (×{:.2}: the helper's share of the work, independent of the machine's load)",
            median(&ratios),
            n2 as f64 / n1.max(1) as f64
        ),
    });
}

/// Lazy SMP time-to-depth speedups on connect-4 and chess positions.
pub(crate) fn lazy_smp(quick: bool, report: &mut Report) -> TaskResult {
    let n = if quick { 4 } else { 20 };
    let path = test_data::path("connect4/begin-easy").unwrap_or_default();
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let mut set = Vec::new();
            for line in text.lines() {
                if set.len() >= n {
                    break;
                }
                if let Some(TestLine { position, .. }) = parse_test_line(line, 7, 6)? {
                    set.push(position);
                }
            }
            let depth = if quick { 10 } else { 16 };
            smp_speedup("connect-4 begin-easy", &set, Connect4Eval::default(), Options::default(), depth, report);
        }
        Err(_) => report.notes.push(format!("Lazy SMP on connect-4: skipped, {} not found.", path.display())),
    }
    let path = test_data::path("chess/wac.epd").unwrap_or_default();
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            // Middle-game positions: at least 20 pieces on the board.
            let set: Vec<ChessGame> = text
                .lines()
                .filter_map(|l| {
                    let f: Vec<&str> = l.splitn(5, ' ').collect();
                    (f.len() == 5 && f[0].chars().filter(char::is_ascii_alphabetic).count() >= 20)
                        .then(|| ChessGame::from_fen(&format!("{} 0 1", f[..4].join(" "))).ok())
                        .flatten()
                })
                .take(n)
                .collect();
            let depth = if quick { 4 } else { 6 };
            smp_speedup("chess WAC middle-game", &set, ChessEval, Options::default(), depth, report);
        }
        Err(_) => report.notes.push(format!("Lazy SMP on chess: skipped, {} not found.", path.display())),
    }
    Ok(())
}

/// MCTS simulations per second with 2 threads (root parallelisation) over 1.
pub(crate) fn mcts_threads(quick: bool, report: &mut Report) {
    let (sims, reps) = if quick { (10_000, 2) } else { (100_000, 5) };
    let one = ours_times(&Connect4::standard(), Connect4Eval::default(), sims, reps, 1, Searcher::Kept);
    let two = ours_times(&Connect4::standard(), Connect4Eval::default(), sims, reps, 2, Searcher::Kept);
    let (t1, t2) = (median(&one), median(&two));
    report.scaling.push(Scaling {
        name: format!("MCTS simulations/s, connect-4 start, {sims} simulations: 2 threads ÷ 1 thread"),
        one: t1,
        two: t2,
        goal: 1.7,
        note: format!(
            "root parallelisation; one searcher per thread count, median of {reps} searches; {:.0} vs {:.0} simulations/s",
            sims as f64 / t2,
            sims as f64 / t1
        ),
    });
}
