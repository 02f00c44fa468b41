//! How the dial loses: for dial values spread over a calibration's range,
//! self-play games whose every move is scored against ground truth, giving
//! each setting's [`LossProfile`] (the distribution of its move losses, its
//! blunder rate). The weak settings should make mistakes whose size grows
//! smoothly as the dial goes down, not play perfectly and then throw a
//! piece; these figures show whether they do.
//!
//! | game | ground truth | unit | blunder |
//! | --- | --- | --- | --- |
//! | tictactoe | exact values (minimax over the whole game tree) | outcome classes (win 1, draw 0, loss −1) | the exact outcome changes |
//! | connect4 | the solver's exact scores ([`Solver`]), moves in positions of at least [`CONNECT4_MIN_DISCS`] discs only | solver score | the exact outcome changes |
//! | chess | Stockfish at [`JUDGE_NODES`] nodes (without Stockfish: our alpha-beta at the setting's depth + [`FALLBACK_EXTRA_DEPTH`]) | centipawns | a loss of two pawns, or the judged outcome worsens |
//! | gobang | our alpha-beta at [`GOBANG_JUDGE_DEPTH`] (a five found within it counts as won) | [`GobangEval`] units | a loss of an open four's weight, or the judged outcome worsens |
//!
//! A move's loss is the value of the best move minus the value of the move
//! played, from the mover's side. For chess, with the judge's score `e(p)`
//! of each position for its side to move, the loss of the move from `p` to
//! `q` is `e(p) + e(q)` (each position is evaluated once), counted as 0
//! when negative (the judge's own search noise). For chess the same
//! profile is also measured for Stockfish's own weakened play
//! (`UCI_LimitStrength`, `UCI_Elo`) at every level inside its `UCI_Elo`
//! range.
//!
//! The games run on the cell store like the ladder's matches: one
//! experiment per level (`<game>-lossNN`, and `chess-sflossNN` for
//! Stockfish), cells of a few games each, one row per scored move; seeded
//! and resumable.

use std::collections::HashMap;
use std::hash::Hash;
use std::path::{Path, PathBuf};

use games_chess::external::{EngineLimit, UciEngineAgent};
use games_chess::{ChessEval, ChessGame};
use games_small::connect4::Column;
use games_small::solver::Solver;
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use search_core::arena::play_match;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Agent, Game, Player, Status, WIN_SCORE};
use serde_json::{Value, json};
use strength::agents::{Roster, StandardAgents};
use strength::dial::{Calibration, Dial, LossProfile};
use strength::spec::AgentSpec;

use super::arena::arena_of;
use tournament::matches::pair_seed;
use tournament::runner::{self, CellError, Job};

use crate::reproduce::{Loaded, Row, RunConfig, Scale, fnv, row, run_jobs};

/// Connect-4 moves are scored only in positions with at least this many
/// discs: the solver needs seconds to tens of seconds per child in the
/// first plies, and well under a second from here on.
pub(crate) const CONNECT4_MIN_DISCS: u32 = 14;

/// Stockfish's node budget for each position it judges (one thread, so
/// reproducible).
pub(crate) const JUDGE_NODES: u64 = 20_000;

/// Without Stockfish, chess is judged by our alpha-beta this many plies
/// deeper than the setting searches.
pub(crate) const FALLBACK_EXTRA_DEPTH: u32 = 3;

/// Chess evaluations are clamped to ±this many centipawns before losses are
/// taken (a mate counts as this much), as lichess does: beyond ten pawns a
/// position is won whatever the number says, and the judge's flips between
/// "mate in N" and "+9 pawns" in won positions would otherwise count as
/// huge losses.
const MATE_CP: i32 = 1_000;

/// Chess: a move losing at least this many centipawns is a blunder.
const CHESS_BLUNDER_CP: f64 = 200.0;

/// Chess: a position at least this good for a side is judged won for it
/// (and at least this bad, lost).
const CHESS_WON_CP: i32 = 300;

/// Gobang's judge: our alpha-beta ([`GobangEval`]) at this depth, two plies
/// deeper than the dial's deepest curve. A move from `p` to `q` is scored
/// by `p`'s value at this depth and `q`'s one ply shallower, so that the
/// best move's loss is 0 (both are the same minimax tree).
pub(crate) const GOBANG_JUDGE_DEPTH: u32 = 4;

/// Gobang values are clamped to ±this (a five's weight): a five found
/// within the judge's horizon counts as this much.
const GOBANG_WIN: f64 = 100_000.0;

/// Gobang: a move losing at least this much (an open four's weight: a
/// threat that wins by itself) is a blunder.
const GOBANG_BLUNDER: f64 = 10_000.0;

/// Chess games stop after this many plies from the opening (the moves
/// after are not scored): enough moves per game, and no 400-ply shuffles
/// between weak settings.
const CHESS_MAX_PLIES: usize = 100;

/// Gobang games stop after this many plies from the opening (as the fit's
/// validation does): weak settings can fill half the board.
const GOBANG_MAX_PLIES: usize = 120;

/// Where the profiled levels sit on the dial's range (fractions of it; the
/// top is always included).
const LEVELS: [f64; 8] = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.0];

/// Stockfish's `UCI_Elo` range (Stockfish 15 and later).
const STOCKFISH_ELO: (f64, f64) = (1350.0, 2850.0);

/// Stockfish's time per move when it plays weakened (as in the ladder).
const STOCKFISH_MOVETIME_MS: u32 = 50;

/// The version of how a cell is played and scored.
const VERSION: u32 = 1;

/// How a game's profiles are measured.
#[derive(Debug, Clone, Copy)]
struct Setup {
    /// Games per level at the default scale, and with `--quick`.
    games: usize,
    quick_games: usize,
    /// Games per cell.
    per_cell: usize,
    /// Plies after the opening before a game stops.
    max_plies: usize,
    unit: &'static str,
    /// Histogram bounds: 0, then small, medium, large, and the largest
    /// possible loss.
    buckets: &'static [f64],
}

fn setup(game: &str) -> Option<Setup> {
    match game {
        "tictactoe" => Some(Setup {
            games: 100,
            quick_games: 4,
            per_cell: 50,
            max_plies: 9,
            unit: "outcome classes",
            buckets: &[0.0, 1.0, 2.0],
        }),
        "connect4" => Some(Setup {
            games: 40,
            quick_games: 2,
            per_cell: 5,
            max_plies: 42,
            unit: "solver score",
            buckets: &[0.0, 2.0, 6.0, 12.0, 42.0],
        }),
        "gobang" => Some(Setup {
            games: 20,
            quick_games: 2,
            per_cell: 2,
            max_plies: GOBANG_MAX_PLIES,
            unit: "GobangEval units",
            buckets: &[0.0, 100.0, 1_000.0, GOBANG_BLUNDER, 2.0 * GOBANG_WIN],
        }),
        "chess" => Some(Setup {
            games: 10,
            quick_games: 2,
            per_cell: 1,
            max_plies: CHESS_MAX_PLIES,
            unit: "centipawns",
            buckets: &[0.0, 50.0, 200.0, 500.0, 2.0 * MATE_CP as f64],
        }),
        _ => None,
    }
}

/// One profiled setting.
#[derive(Debug, Clone, PartialEq)]
struct Level {
    /// `elo:X`, or `stockfish UCI_Elo=X`.
    setting: String,
    elo: f64,
    /// The spec that plays.
    spec: String,
}

/// The dial levels: [`LEVELS`] of the range, rounded to whole Elo (the top
/// exactly).
fn dial_levels(dial: &Dial) -> Result<Vec<Level>, String> {
    let (lo, hi) = dial.range();
    let mut out: Vec<Level> = Vec::new();
    for &f in &LEVELS {
        let elo = if f >= 1.0 { hi } else { (lo + (hi - lo) * f).round().clamp(lo, hi) };
        let spec = dial.setting(elo).map_err(|e| e.to_string())?.to_string();
        let level = Level { setting: format!("elo:{elo:.0}"), elo, spec };
        if !out.iter().any(|l| l.setting == level.setting) {
            out.push(level);
        }
    }
    Ok(out)
}

/// Stockfish's weakened play at the dial levels inside its `UCI_Elo` range.
fn stockfish_levels(levels: &[Level], path: &Path) -> Vec<Level> {
    let mut out: Vec<Level> = Vec::new();
    for l in levels {
        if l.elo < STOCKFISH_ELO.0 || l.elo > STOCKFISH_ELO.1 {
            continue;
        }
        let x = l.elo.round() as i64;
        let setting = format!("stockfish UCI_Elo={x}");
        if out.iter().all(|o| o.setting != setting) {
            out.push(Level {
                setting,
                elo: x as f64,
                spec: format!(
                    "uci:{},UCI_LimitStrength=true,UCI_Elo={x},movetime={STOCKFISH_MOVETIME_MS}",
                    path.display()
                ),
            });
        }
    }
    out
}

/// The loss profiles of `calibration`'s dial for `game` (see the [module
/// documentation](self)): self-play at [`LEVELS`] of the dial's range (and,
/// for chess with Stockfish installed, Stockfish's own `UCI_Elo` at the
/// levels inside its range), on the cell store of `config`. `quick`: a
/// couple of games per level.
pub(crate) fn profiles(
    game: &str,
    calibration: &Calibration,
    config: &RunConfig,
    quick: bool,
) -> Result<Vec<LossProfile>, String> {
    let Some(setup) = setup(game) else { return Ok(Vec::new()) };
    let dial = Dial::new(calibration.clone()).map_err(|e| e.to_string())?;
    let mut levels: Vec<(Level, bool)> = dial_levels(&dial)?.into_iter().map(|l| (l, false)).collect();
    let stockfish = if game == "chess" { super::calibrate::stockfish() } else { None };
    if let Some(path) = &stockfish {
        let dial_only: Vec<Level> = levels.iter().map(|l| l.0.clone()).collect();
        levels.extend(stockfish_levels(&dial_only, path).into_iter().map(|l| (l, true)));
    }
    let games = if quick { setup.quick_games } else { setup.games };
    let arena = arena_of(game)?;
    let opening_seed = search_core::rng::derive_seed(config.key.seed, fnv("loss openings"));
    let openings = arena.random_openings(games, opening_seed).map_err(|e| e.to_string())?;
    let mut counts = [0usize; 2];
    let jobs: Vec<LossJob> = levels
        .into_iter()
        .map(|(level, reference)| {
            let k = counts[usize::from(reference)];
            counts[usize::from(reference)] += 1;
            let name = if reference { format!("{game}-sfloss{k:02}") } else { format!("{game}-loss{k:02}") };
            LossJob {
                name,
                game: game.to_string(),
                judge: Judge::for_game(game, stockfish.as_deref(), &level.spec),
                level,
                reference,
                openings: openings.clone(),
                opening_source: format!("random, seed {opening_seed}"),
                games,
                setup,
            }
        })
        .collect();
    let selected: Vec<&dyn Job> = jobs.iter().map(|j| j as &dyn Job).collect();
    eprintln!("calibrate {game}: loss profiles of {} settings, {games} self-play games each", jobs.len());
    run_jobs(&selected, config).map_err(|e| e.to_string())?;
    jobs.iter()
        .map(|job| {
            let rows = job.load(config)?;
            Ok(profile(&job.level, &rows, &setup, job.note()))
        })
        .collect()
}

/// The loss profiles as a Markdown table, with each distinct note once
/// (empty if there are none).
pub(crate) fn losses_table(c: &Calibration) -> String {
    if c.losses.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "how the dial loses ({}): each move's loss against ground truth, in self-play\n\n\
         | setting | Elo | spec | moves | mean | median | p90 | max | blunders | outcome changed | histogram |\n\
         | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
        c.game
    );
    let mut notes: Vec<String> = Vec::new();
    for p in &c.losses {
        let mut histogram = Vec::new();
        let mut below = None;
        for (i, &(bound, count)) in p.histogram.iter().enumerate() {
            let label = match below {
                None => format!("{bound}"),
                Some(prev) if i + 1 == p.histogram.len() => format!(">{prev}"),
                Some(_) => format!("≤{bound}"),
            };
            histogram.push(format!("{label}: {count}"));
            below = Some(bound);
        }
        s.push_str(&format!(
            "| `{}` | {:.0} | `{}` | {} | {:.2} | {:.0} | {:.0} | {:.0} | {:.1}% | {:.1}% | {} |\n",
            p.setting,
            p.elo,
            p.spec,
            p.moves,
            p.mean_loss,
            p.median_loss,
            p.p90_loss,
            p.max_loss,
            100.0 * p.blunder_rate,
            100.0 * p.outcome_change_rate,
            histogram.join(", ")
        ));
        let note = format!("Unit: {}. {}", p.unit, p.note);
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    for n in notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}

/// The profile of one level from its rows (one per scored move).
fn profile(level: &Level, rows: &[Row], setup: &Setup, note: String) -> LossProfile {
    let mut losses: Vec<f64> = rows.iter().filter_map(|r| r.get("loss").and_then(Value::as_f64)).collect();
    losses.sort_by(f64::total_cmp);
    let n = losses.len();
    let flag = |key: &str| rows.iter().filter(|r| r.get(key).and_then(Value::as_bool) == Some(true)).count();
    let rate = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    // Nearest rank.
    let quantile = |p: f64| if n == 0 { 0.0 } else { losses[((p * n as f64).ceil() as usize).clamp(1, n) - 1] };
    let mut histogram: Vec<(f64, u64)> = setup.buckets.iter().map(|&b| (b, 0)).collect();
    for &l in &losses {
        let i = setup.buckets.iter().position(|&b| l <= b).unwrap_or(setup.buckets.len() - 1);
        histogram[i].1 += 1;
    }
    LossProfile {
        setting: level.setting.clone(),
        elo: level.elo,
        spec: level.spec.clone(),
        moves: n as u64,
        mean_loss: if n == 0 { 0.0 } else { losses.iter().sum::<f64>() / n as f64 },
        median_loss: quantile(0.5),
        p90_loss: quantile(0.9),
        max_loss: losses.last().copied().unwrap_or(0.0),
        blunder_rate: rate(flag("blunder")),
        outcome_change_rate: rate(flag("changed")),
        histogram,
        unit: setup.unit.into(),
        note,
    }
}

// ---------------------------------------------------------------------------
// Judges

/// One scored move: its ply in the game (from the opening), its loss,
/// whether it worsened the outcome class, whether it is a blunder.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Scored {
    ply: usize,
    loss: f64,
    changed: bool,
    blunder: bool,
}

/// Scores the moves of a game played from `start`.
trait ScoreMoves<G: Game> {
    /// The moves it can judge, scored.
    fn score(&mut self, start: &G, moves: &[G::Move]) -> Result<Vec<Scored>, String>;
}

/// Errors unless `mv` is a legal move of `g`, a game still going on
/// (`legal`: a reused buffer).
fn check_legal<G: Game>(g: &G, mv: G::Move, legal: &mut Vec<G::Move>) -> Result<(), String> {
    legal.clear();
    if g.generate(legal) != Status::Ongoing || !legal.contains(&mv) {
        return Err(format!("{} is not legal", g.move_string(mv)));
    }
    Ok(())
}

/// A position's exact value for the side to move, as an outcome class:
/// 1 win, 0 draw, −1 loss (minimax over the whole tree, memoized).
#[derive(Debug)]
struct Exact<G> {
    memo: HashMap<G, i8>,
}

impl<G> Default for Exact<G> {
    fn default() -> Self {
        Exact { memo: HashMap::new() }
    }
}

fn class(v: f64) -> i8 {
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

impl<G: Game + Eq + Hash> Exact<G> {
    fn value(&mut self, g: &G) -> i8 {
        if let Some(&v) = self.memo.get(g) {
            return v;
        }
        let mut moves = Vec::new();
        let v = match g.generate(&mut moves) {
            Status::Over(o) => class(o.value_for(g.turn().player().unwrap_or(Player::First), 1.0)),
            Status::Ongoing => moves
                .iter()
                .map(|&m| {
                    let mut c = g.clone();
                    c.play(m);
                    -self.value(&c)
                })
                .max()
                .unwrap_or(0),
        };
        self.memo.insert(g.clone(), v);
        v
    }
}

impl<G: Game + Eq + Hash> ScoreMoves<G> for Exact<G> {
    fn score(&mut self, start: &G, moves: &[G::Move]) -> Result<Vec<Scored>, String> {
        let mut g = start.clone();
        let mut out = Vec::new();
        let mut legal = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            check_legal(&g, mv, &mut legal).map_err(|e| format!("ply {ply}: {e}"))?;
            let child = |m| {
                let mut c = g.clone();
                c.play(m);
                c
            };
            let best = legal.iter().map(|&m| -self.value(&child(m))).max().unwrap_or(0);
            let chosen = -self.value(&child(mv));
            let changed = chosen < best;
            out.push(Scored { ply, loss: f64::from(best - chosen), changed, blunder: changed });
            g.play(mv);
        }
        Ok(out)
    }
}

/// Connect-4 through the solver: exact scores of every child, for the
/// moves made in positions of at least [`CONNECT4_MIN_DISCS`] discs.
#[derive(Debug)]
struct Connect4Judge {
    solver: Solver,
}

impl Connect4Judge {
    fn new() -> Result<Self, String> {
        Ok(Connect4Judge { solver: Solver::new(7, 6).map_err(|e| e.to_string())? })
    }

    /// The exact score of playing `col` in `pos` for the mover, in the
    /// solver's convention (`cargo xtask solve`): winning with the disc
    /// that makes `n + 1` discs scores `⌊(W·H + 1 − n)/2⌋`.
    fn child_score(&mut self, pos: &Connect4, col: Column) -> Result<i32, String> {
        let mut c = *pos;
        c.play(col);
        if c.winner().is_some() {
            let cells = (pos.width() * pos.height()) as i32;
            return Ok((cells + 1 - pos.moves_played() as i32) / 2);
        }
        if c.is_full() {
            return Ok(0);
        }
        Ok(-self.solver.solve(&c).map_err(|e| e.to_string())?.score)
    }

    /// The score of every legal move of `pos`, in generation order.
    fn child_scores(&mut self, pos: &Connect4) -> Result<Vec<(Column, i32)>, String> {
        let mut legal = Vec::new();
        if pos.generate(&mut legal) != Status::Ongoing {
            return Err("the game is over".into());
        }
        legal.iter().map(|&m| Ok((m, self.child_score(pos, m)?))).collect()
    }
}

impl ScoreMoves<Connect4> for Connect4Judge {
    fn score(&mut self, start: &Connect4, moves: &[Column]) -> Result<Vec<Scored>, String> {
        let mut g = *start;
        let mut out = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            if g.moves_played() >= CONNECT4_MIN_DISCS {
                let scores = self.child_scores(&g).map_err(|e| format!("ply {ply}: {e}"))?;
                let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
                let chosen = scores
                    .iter()
                    .find(|s| s.0 == mv)
                    .ok_or_else(|| format!("ply {ply}: {} is not legal", g.move_string(mv)))?
                    .1;
                let changed = class(f64::from(chosen)) < class(f64::from(best));
                out.push(Scored { ply, loss: f64::from(best - chosen), changed, blunder: changed });
            }
            g.play(mv);
        }
        Ok(out)
    }
}

/// A finished game's value for the side to move: `±win` or 0 (`None` if
/// the game goes on).
fn finished_value<G: Game>(g: &G, win: f64) -> Option<f64> {
    let mut moves = Vec::new();
    match g.generate(&mut moves) {
        Status::Over(o) => Some(f64::from(class(o.value_for(g.turn().player().unwrap_or(Player::First), 1.0))) * win),
        Status::Ongoing => None,
    }
}

/// Our alpha-beta as a judge: a position's value for its side to move at a
/// given depth, in the evaluator's units clamped to `±win`; a win found
/// within the horizon, or a finished game, counts as `±win`.
struct SearchJudge<G: Game, E: search_core::Evaluator<G>> {
    search: Search<G, Minimax, E>,
    win: f64,
}

impl<G: Game, E: search_core::Evaluator<G>> SearchJudge<G, E> {
    fn new(eval: E, table_mib: usize, win: f64) -> Result<Self, String> {
        let opts = Options::recommended::<G, Minimax, E>(&eval).with_table_mib(table_mib);
        Ok(SearchJudge { search: Search::new(Minimax, eval, opts).map_err(|e| e.to_string())?, win })
    }

    fn value(&mut self, g: &G, depth: u32) -> Result<f64, String> {
        if let Some(v) = finished_value(g, self.win) {
            return Ok(v);
        }
        let r = self.search.run(g, &Limits::depth(depth)).map_err(|e| format!("the judge: {e}"))?;
        let v = r.value.ok_or("the judge's search found no value")?;
        Ok(if v.abs() >= WIN_SCORE / 2.0 { v.signum() * self.win } else { v.clamp(-self.win, self.win) })
    }
}

/// Chess: Stockfish at [`JUDGE_NODES`], or our alpha-beta at a depth.
enum ChessJudge {
    Stockfish(Box<UciEngineAgent>),
    Search(Box<SearchJudge<ChessGame, ChessEval>>, u32),
}

impl ChessJudge {
    fn new(judge: &Judge) -> Result<Self, String> {
        match judge {
            Judge::Stockfish(path) => {
                let agent = UciEngineAgent::spawn(path, &[], EngineLimit::Nodes(JUDGE_NODES))
                    .map_err(|e| format!("the judge: {e}"))?;
                Ok(ChessJudge::Stockfish(Box::new(agent)))
            }
            Judge::Search(depth) => {
                Ok(ChessJudge::Search(Box::new(SearchJudge::new(ChessEval, 16, f64::from(MATE_CP))?), *depth))
            }
            _ => Err("not a chess judge".into()),
        }
    }

    /// The judged value of `g` for its side to move, in centipawns (mates
    /// ±[`MATE_CP`]; a finished game by its outcome).
    fn value(&mut self, g: &ChessGame) -> Result<i32, String> {
        if let Some(v) = finished_value(g, f64::from(MATE_CP)) {
            return Ok(v as i32);
        }
        match self {
            ChessJudge::Stockfish(sf) => Ok(sf
                .evaluate(g, EngineLimit::Nodes(JUDGE_NODES))
                .map_err(|e| format!("the judge: {e}"))?
                .centipawns(MATE_CP)
                .clamp(-MATE_CP, MATE_CP)),
            ChessJudge::Search(search, depth) => Ok(search.value(g, *depth)?.round() as i32),
        }
    }
}

/// Gobang: our alpha-beta at [`GOBANG_JUDGE_DEPTH`]. The loss of a move
/// from `p` to `q` is `v_D(p) + v_{D−1}(q)`, the depth-`D` minimax value of
/// `p` less that of the move within the same tree: 0 for the best move
/// (counted as 0 when the table's reuse makes it slightly negative).
struct GobangJudge {
    search: SearchJudge<Gobang, GobangEval>,
    depth: u32,
}

impl GobangJudge {
    fn new(depth: u32) -> Result<Self, String> {
        if depth == 0 {
            return Err("the gobang judge needs a depth of at least 1".into());
        }
        Ok(GobangJudge { search: SearchJudge::new(GobangEval::default(), 16, GOBANG_WIN)?, depth })
    }
}

/// Won (1), lost (−1) or neither (0) by a judge's value: at least `won`,
/// at most `−won`, or between.
fn judged_class(v: f64, won: f64) -> i8 {
    if v >= won {
        1
    } else if v <= -won {
        -1
    } else {
        0
    }
}

impl ScoreMoves<Gobang> for GobangJudge {
    fn score(&mut self, start: &Gobang, moves: &[<Gobang as Game>::Move]) -> Result<Vec<Scored>, String> {
        let mut g = *start;
        let mut out = Vec::new();
        let mut legal = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            check_legal(&g, mv, &mut legal).map_err(|e| format!("ply {ply}: {e}"))?;
            let before = self.search.value(&g, self.depth).map_err(|e| format!("ply {ply}: {e}"))?;
            g.play(mv);
            let after = self.search.value(&g, self.depth - 1).map_err(|e| format!("ply {ply}: {e}"))?;
            let loss = (before + after).max(0.0);
            let changed = judged_class(-after, GOBANG_WIN) < judged_class(before, GOBANG_WIN);
            out.push(Scored { ply, loss, changed, blunder: changed || loss >= GOBANG_BLUNDER });
        }
        Ok(out)
    }
}

impl ScoreMoves<ChessGame> for ChessJudge {
    fn score(&mut self, start: &ChessGame, moves: &[<ChessGame as Game>::Move]) -> Result<Vec<Scored>, String> {
        let mut g = start.clone();
        let mut before = self.value(&g)?;
        let mut out = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            g.play(mv);
            // The opponent's view of the position after the move.
            let after = self.value(&g).map_err(|e| format!("ply {ply}: {e}"))?;
            let loss = f64::from(before + after).max(0.0);
            let won = f64::from(CHESS_WON_CP);
            let changed = judged_class(f64::from(-after), won) < judged_class(f64::from(before), won);
            out.push(Scored { ply, loss, changed, blunder: loss >= CHESS_BLUNDER_CP || changed });
            before = after;
        }
        Ok(out)
    }
}

// ---------------------------------------------------------------------------
// Playing the games

/// What judges a level's games (part of its cells' parameters).
#[derive(Debug, Clone, PartialEq)]
enum Judge {
    Exact,
    Solver,
    Stockfish(PathBuf),
    /// Our chess alpha-beta at this depth.
    Search(u32),
    /// Our gobang alpha-beta at this depth.
    GobangSearch(u32),
    None,
}

impl Judge {
    fn for_game(game: &str, stockfish: Option<&Path>, spec: &str) -> Judge {
        match (game, stockfish) {
            ("tictactoe", _) => Judge::Exact,
            ("gobang", _) => Judge::GobangSearch(GOBANG_JUDGE_DEPTH),
            ("connect4", _) => Judge::Solver,
            ("chess", Some(path)) => Judge::Stockfish(path.to_path_buf()),
            ("chess", None) => {
                let depth = spec.parse::<AgentSpec>().ok().and_then(|s| s.get("depth")?.parse::<u32>().ok());
                Judge::Search(depth.unwrap_or(0) + FALLBACK_EXTRA_DEPTH)
            }
            _ => Judge::None,
        }
    }

    fn describe(&self) -> String {
        match self {
            Judge::Exact => "exact values".into(),
            Judge::Solver => format!("connect-4 solver, positions of {CONNECT4_MIN_DISCS}+ discs"),
            Judge::Stockfish(path) => format!("{} nodes={JUDGE_NODES}", path.display()),
            Judge::Search(d) => format!("alphabeta:depth={d}"),
            Judge::GobangSearch(d) => format!("alphabeta:depth={d} (GobangEval), clamped to ±{GOBANG_WIN}"),
            Judge::None => "none".into(),
        }
    }
}

/// Plays `games` (index, opening, seed) of `spec` against itself from
/// `start` and scores both sides' moves: one row per scored move.
fn play_scored<G>(
    start: &G,
    parse: fn(&G, &str) -> Result<G, String>,
    roster: &Roster<G>,
    spec: &str,
    judge: &mut dyn ScoreMoves<G>,
    games: &[(usize, String, u64)],
    max_plies: usize,
) -> Result<Vec<Row>, String>
where
    G: Game,
{
    let mut first = roster.build(spec).map_err(|e| e.to_string())?;
    let mut second = roster.build(spec).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (i, opening, seed) in games {
        let from = parse(start, opening)?;
        first.reset();
        second.reset();
        let record = play_match(&from, &mut first, &mut second, *seed, Some(max_plies))
            .map_err(|e| format!("game {i}, opening {opening:?}: {e}"))?;
        for s in judge.score(&from, &record.moves).map_err(|e| format!("game {i}, opening {opening:?}: {e}"))? {
            rows.push(row! {
                "game" => i,
                "ply" => s.ply,
                "loss" => s.loss,
                "changed" => s.changed,
                "blunder" => s.blunder,
            });
        }
    }
    Ok(rows)
}

/// A move line from `start` (chess: a FEN too), as the arena's openings.
fn parse_opening<G: Game>(start: &G, text: &str) -> Result<G, String> {
    let mut g = start.clone();
    for word in text.split_whitespace() {
        g.play_str(word).map_err(|e| format!("opening {text:?}: {e}"))?;
    }
    Ok(g)
}

fn parse_chess(start: &ChessGame, text: &str) -> Result<ChessGame, String> {
    if text.contains('/') {
        ChessGame::from_fen(text.trim()).map_err(|e| format!("opening {text:?}: {e}"))
    } else {
        parse_opening(start, text)
    }
}

/// The standard agents of a game (the settings the dial names), as the
/// arena builds them.
fn roster<G, E>(eval: E, table_mib: usize) -> Roster<G>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: search_core::Evaluator<G> + Clone + Send + Sync + 'static,
{
    Roster::new().with(StandardAgents::new(eval).with_table_mib(table_mib))
}

/// One level's self-play games, as an experiment of the cell store.
struct LossJob {
    name: String,
    game: String,
    level: Level,
    /// A reference player (Stockfish), not a dial value.
    reference: bool,
    judge: Judge,
    openings: Vec<String>,
    opening_source: String,
    games: usize,
    setup: Setup,
}

impl LossJob {
    fn cell_range(cell: &str) -> Result<(usize, usize), String> {
        match cell.split('-').collect::<Vec<_>>().as_slice() {
            ["games", lo, hi] => Ok((
                lo.parse().map_err(|_| format!("bad cell {cell}"))?,
                hi.parse().map_err(|_| format!("bad cell {cell}"))?,
            )),
            _ => Err(format!("bad cell {cell}")),
        }
    }

    /// Every cell's rows, in cell order; an error if one is missing.
    fn load(&self, config: &RunConfig) -> Result<Vec<Row>, String> {
        let params = self.params(config.key.scale);
        let mut rows = Vec::new();
        for cell in self.cells(config.key.scale) {
            match runner::load_cell(&config.out, self, config.key, &params, &cell) {
                Loaded::Valid { rows: r, .. } => rows.extend(r),
                _ => {
                    return Err(format!(
                        "loss profile {}: cell {cell} is missing from {}",
                        self.name,
                        config.out.display()
                    ));
                }
            }
        }
        Ok(rows)
    }

    fn note(&self) -> String {
        let games = format!(
            "Both sides of {} self-play games from balanced random openings (the calibration's kind).",
            self.games
        );
        let truth = match &self.judge {
            Judge::Exact => {
                "Ground truth: exact game values (minimax over the whole game tree, as alphabeta:depth=9); \
                             loss in outcome classes (win 1, draw 0, loss −1: 1 is a win thrown to a draw or a draw \
                             to a loss, 2 a win to a loss); a blunder changes the exact outcome; every move after the \
                             opening scored."
                    .to_string()
            }
            Judge::Solver => format!(
                "Ground truth: the connect-4 solver's exact scores of every child (as `cargo xtask solve` prints them, \
                 from the mover's side); only moves in positions of at least {CONNECT4_MIN_DISCS} discs are scored \
                 (the solver is too slow earlier); a blunder changes the exact outcome (won to drawn or lost, drawn \
                 to lost)."
            ),
            Judge::Stockfish(path) => format!(
                "Ground truth: Stockfish ({}) at {JUDGE_NODES} nodes per position (its FEN, one thread), evaluations \
                 clamped to ±{MATE_CP} cp (mates count as that); loss = eval(before) − (−eval(after)), negative values (the judge's noise) counted \
                 as 0; a blunder loses ≥ {CHESS_BLUNDER_CP} cp or worsens the judged outcome (won ≥ +{CHESS_WON_CP}, \
                 lost ≤ −{CHESS_WON_CP}); games stopped after {CHESS_MAX_PLIES} plies.",
                path.display()
            ),
            Judge::Search(d) => format!(
                "Ground truth: Stockfish is not installed, so our alpha-beta (ChessEval) at depth {d} (the setting's \
                 depth + {FALLBACK_EXTRA_DEPTH}), evaluations clamped to ±{MATE_CP} cp; loss = eval(before) − (−eval(after)), negative \
                 values counted as 0; a blunder loses ≥ {CHESS_BLUNDER_CP} cp or worsens the judged outcome \
                 (won ≥ +{CHESS_WON_CP}, lost ≤ −{CHESS_WON_CP}); games stopped after {CHESS_MAX_PLIES} plies."
            ),
            Judge::GobangSearch(d) => format!(
                "Ground truth: our alpha-beta (GobangEval) at depth {d}, two plies deeper than the dial's deepest \
                 curve; values clamped to ±{GOBANG_WIN} (a five's weight; a five found within the horizon counts as \
                 that); the loss of a move is the position's depth-{d} value less the move's in the same tree \
                 (the value of the position after it at depth {}, from the mover's side): 0 for the best move; \
                 a blunder loses ≥ {GOBANG_BLUNDER} (an open four's weight) or worsens the judged outcome (a five \
                 forced within the horizon given up, or one allowed); games stopped after {GOBANG_MAX_PLIES} plies.",
                d - 1
            ),
            Judge::None => "No ground truth.".into(),
        };
        let reference = if self.reference {
            " Stockfish weakened by UCI_LimitStrength picks its moves with a clock-seeded generator: these games are \
             not reproducible."
        } else {
            ""
        };
        format!("{truth} {games}{reference}")
    }
}

impl Job for LossJob {
    fn name(&self) -> &str {
        &self.name
    }
    fn version(&self) -> u32 {
        VERSION
    }
    fn params(&self, _scale: Scale) -> Value {
        json!({
            "game": self.game,
            "setting": self.level.setting,
            "spec": self.level.spec,
            "judge": self.judge.describe(),
            "openings": self.opening_source,
            "games_per_cell": self.setup.per_cell,
            "max_plies": self.setup.max_plies,
        })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        let per = self.setup.per_cell;
        (0..self.games.div_ceil(per))
            .map(|i| format!("games-{:06}-{:06}", i * per, ((i + 1) * per).min(self.games)))
            .collect()
    }
    fn run_cell(&self, _scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, CellError> {
        self.play_cell(cell, seed).map_err(Into::into)
    }
    fn progress(&self, rows: &[Row]) -> Option<String> {
        let n = rows.len();
        let sum: f64 = rows.iter().filter_map(|r| r.get("loss").and_then(Value::as_f64)).sum();
        Some(format!("{}: {n} moves scored, mean loss {:.2}", self.name, if n == 0 { 0.0 } else { sum / n as f64 }))
    }
}

impl LossJob {
    /// The rows of a cell's games.
    fn play_cell(&self, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let (lo, hi) = Self::cell_range(cell)?;
        let games: Vec<(usize, String, u64)> =
            (lo..hi).map(|i| (i, self.openings[i % self.openings.len()].clone(), pair_seed(seed, i))).collect();
        let (spec, max) = (&self.level.spec, self.setup.max_plies);
        match self.game.as_str() {
            "tictactoe" => {
                let r = roster(TicTacToeEval::default(), 1);
                play_scored(&TicTacToe::default(), parse_opening, &r, spec, &mut Exact::default(), &games, max)
            }
            "connect4" => {
                let r = roster(Connect4Eval::default(), 4);
                let mut judge = Connect4Judge::new()?;
                play_scored(&Connect4::standard(), parse_opening, &r, spec, &mut judge, &games, max)
            }
            "gobang" => {
                let r = roster(GobangEval::default(), 8);
                let Judge::GobangSearch(depth) = self.judge else { return Err("not a gobang judge".into()) };
                let mut judge = GobangJudge::new(depth)?;
                play_scored(&Gobang::default(), parse_opening, &r, spec, &mut judge, &games, max)
            }
            "chess" => {
                let r = roster(ChessEval, 16).with(super::uci::UciAgents);
                let mut judge = ChessJudge::new(&self.judge)?;
                play_scored(&ChessGame::startpos(), parse_chess, &r, spec, &mut judge, &games, max)
            }
            other => Err(format!("no loss profile for {other}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tictactoe_profile(spec: &str, games: usize) -> LossProfile {
        let setup = setup("tictactoe").unwrap();
        let arena = arena_of("tictactoe").unwrap();
        let openings = arena.random_openings(games, 11).unwrap();
        let games: Vec<(usize, String, u64)> = (0..games).map(|i| (i, openings[i].clone(), 100 + i as u64)).collect();
        let rows = play_scored(
            &TicTacToe::default(),
            parse_opening,
            &roster(TicTacToeEval::default(), 1),
            spec,
            &mut Exact::default(),
            &games,
            setup.max_plies,
        )
        .unwrap();
        let level = Level { setting: spec.into(), elo: 0.0, spec: spec.into() };
        profile(&level, &rows, &setup, String::new())
    }

    #[test]
    fn tictactoe_perfect_play_loses_nothing_and_random_play_blunders() {
        let perfect = tictactoe_profile("alphabeta:depth=9", 6);
        assert!(perfect.moves >= 6 * 7, "{perfect:?}");
        assert_eq!((perfect.mean_loss, perfect.max_loss, perfect.blunder_rate), (0.0, 0.0, 0.0), "{perfect:?}");
        assert_eq!(perfect.histogram, vec![(0.0, perfect.moves), (1.0, 0), (2.0, 0)]);
        let random = tictactoe_profile("random", 6);
        assert!(random.blunder_rate > 0.0 && random.mean_loss > 0.0, "{random:?}");
        assert_eq!(random.blunder_rate, random.outcome_change_rate);
        assert_eq!(random.histogram.iter().map(|h| h.1).sum::<u64>(), random.moves);
    }

    #[test]
    fn tictactoe_exact_values() {
        let mut exact = Exact::default();
        assert_eq!(exact.value(&TicTacToe::default()), 0);
        // X has a1 and a2, O b1 and b2, X to move: a3 wins, anything else
        // lets O complete the middle column.
        let g = TicTacToe::from_moves("a1 b1 a2 b2").unwrap();
        assert_eq!(exact.value(&g), 1);
        let win = g.parse_move("a3").unwrap();
        let throw = g.parse_move("c3").unwrap();
        let s = exact.score(&g, &[win]).unwrap();
        assert_eq!(s, vec![Scored { ply: 0, loss: 0.0, changed: false, blunder: false }]);
        let s = exact.score(&g, &[throw]).unwrap();
        assert_eq!(s, vec![Scored { ply: 0, loss: 2.0, changed: true, blunder: true }]);
    }

    /// Positions of at least [`CONNECT4_MIN_DISCS`] discs with their exact
    /// scores: the solver's doc example, and some of the shared test set
    /// when it is there.
    fn connect4_positions() -> Vec<(String, i32)> {
        let mut out = vec![("2252576253462244111563365343671351441".to_string(), -1)];
        if let Some(text) =
            test_data::read("connect4/middle-easy", "three of its positions (the built-in one is checked)")
        {
            out.extend(
                text.lines()
                    .filter_map(|l| {
                        let (moves, score) = l.split_once(' ')?;
                        Some((moves.to_string(), score.trim().parse().ok()?))
                    })
                    .filter(|(m, _)| m.len() >= CONNECT4_MIN_DISCS as usize)
                    .take(3),
            );
        }
        out
    }

    #[test]
    fn connect4_losses_against_the_solver() {
        let mut judge = Connect4Judge::new().unwrap();
        for (moves, expected) in connect4_positions() {
            let pos = Connect4::from_moves(7, 6, &moves).unwrap();
            let scores = judge.child_scores(&pos).unwrap();
            let best = scores.iter().map(|s| s.1).max().unwrap();
            assert_eq!(best, expected, "{moves}: the best child is the position's score");
            for &(col, score) in &scores {
                let s = judge.score(&pos, &[col]).unwrap();
                assert_eq!(s.len(), 1);
                assert_eq!(s[0].loss, f64::from(best - score), "{moves} {col}");
                assert_eq!(s[0].blunder, score.signum() < best.signum(), "{moves} {col}");
            }
            let (best_col, _) = scores.iter().find(|s| s.1 == best).unwrap();
            assert_eq!(judge.score(&pos, &[*best_col]).unwrap()[0].loss, 0.0);
        }
        // Before the threshold nothing is scored.
        let early = Connect4::from_moves(7, 6, "4455").unwrap();
        assert!(judge.score(&early, &[3]).unwrap().is_empty());
    }

    /// Scores `moves` (UCI) from the position after `line` (UCI moves from
    /// the start).
    fn chess_scores(judge: &mut ChessJudge, line: &str, moves: &str) -> Vec<Scored> {
        let start = parse_chess(&ChessGame::startpos(), line).unwrap();
        let mut g = start.clone();
        let moves: Vec<_> = moves.split_whitespace().map(|m| g.play_str(m).unwrap()).collect();
        judge.score(&start, &moves).unwrap()
    }

    #[test]
    fn chess_judges_see_a_blunder() {
        // 1.e4 e5 2.Qh5 Nc6 3.Bc4: 3…Nf6?? allows 4.Qxf7#; 3…g6 defends.
        let line = "e2e4 e7e5 d1h5 b8c6 f1c4";
        let mut judges = vec![ChessJudge::new(&Judge::Search(3)).unwrap()];
        match super::super::calibrate::stockfish() {
            Some(path) => judges.push(ChessJudge::new(&Judge::Stockfish(path)).unwrap()),
            None => eprintln!("note: Stockfish is not installed: only the alpha-beta judge is checked"),
        }
        for judge in &mut judges {
            let blunder = chess_scores(judge, line, "g8f6");
            assert!(blunder[0].loss >= f64::from(MATE_CP) && blunder[0].blunder && blunder[0].changed, "{blunder:?}");
            let defence = chess_scores(judge, line, "g7g6");
            assert!(defence[0].loss < CHESS_BLUNDER_CP && !defence[0].blunder, "{defence:?}");
            // The mate itself loses nothing; the game is over after it.
            let mate = chess_scores(judge, &format!("{line} g8f6"), "h5f7");
            assert_eq!(mate[0].loss, 0.0, "{mate:?}");
        }
    }

    /// X has an open four (h8–k8), O a four on the a-file that a5 would
    /// complete; X to move.
    #[test]
    fn gobang_judge_sees_a_passed_up_five_and_an_allowed_one() {
        let start: Gobang = "h8 a1 i8 a2 j8 a3 k8 a4".parse().unwrap();
        let mut judge = GobangJudge::new(GOBANG_JUDGE_DEPTH).unwrap();
        let mut score = |mv: &str| {
            let m = start.parse_move(mv).unwrap();
            judge.score(&start, &[m]).unwrap()[0]
        };
        // The five, and the block that keeps the open four: both still win.
        for good in ["g8", "l8", "a5"] {
            assert_eq!(score(good), Scored { ply: 0, loss: 0.0, changed: false, blunder: false }, "{good}");
        }
        // Anything else lets O make five: won turned lost.
        let thrown = score("h9");
        assert_eq!(thrown, Scored { ply: 0, loss: 2.0 * GOBANG_WIN, changed: true, blunder: true });
        assert!(GobangJudge::new(0).is_err());
    }

    /// Every move of a short random game is scored, no loss is negative,
    /// and at every position the move a search to the judge's depth
    /// chooses loses nothing.
    #[test]
    fn gobang_self_play_is_scored_and_the_judges_move_loses_nothing() {
        let depth = 2;
        let roster = roster(GobangEval::default(), 1);
        let games = [(0, "h8 h9".to_string(), 1)];
        let mut judge = GobangJudge::new(depth).unwrap();
        let rows = play_scored(&Gobang::default(), parse_opening, &roster, "random", &mut judge, &games, 16).unwrap();
        assert_eq!(rows.len(), 16);
        assert!(rows.iter().all(|r| r["loss"].as_f64().is_some_and(|l| l >= 0.0)), "{rows:?}");
        assert!(rows.iter().any(|r| r["loss"].as_f64() > Some(0.0)), "random play lost nothing: {rows:?}");
        let mut g: Gobang = "h8 h9".parse().unwrap();
        let mut best = Search::recommended(Minimax, GobangEval::default()).unwrap();
        let mut rng = search_core::rng::seeded(7);
        let mut legal = Vec::new();
        for ply in 0..12 {
            let mv = best.run(&g, &Limits::depth(depth)).unwrap().best.unwrap();
            assert_eq!(judge.score(&g, &[mv]).unwrap()[0].loss, 0.0, "ply {ply}: {}", g.move_string(mv));
            legal.clear();
            g.generate(&mut legal);
            g.play(legal[search_core::rng::RngExt::random_range(&mut rng, 0..legal.len())]);
        }
    }

    #[test]
    fn stockfish_self_play_is_scored() {
        let Some(path) = super::super::calibrate::stockfish() else {
            eprintln!("note: stockfish_self_play_is_scored skipped: Stockfish is not installed");
            return;
        };
        let level = &stockfish_levels(&[Level { setting: String::new(), elo: 1500.0, spec: String::new() }], &path)[0];
        let roster = roster(ChessEval, 1).with(super::super::uci::UciAgents);
        let mut judge = ChessJudge::new(&Judge::Stockfish(path)).unwrap();
        let games = [(0, "e2e4 e7e5".to_string(), 1)];
        let rows =
            play_scored(&ChessGame::startpos(), parse_chess, &roster, &level.spec, &mut judge, &games, 6).unwrap();
        assert_eq!(rows.len(), 6);
        assert!(rows.iter().all(|r| r["loss"].as_f64().is_some_and(|l| l >= 0.0)), "{rows:?}");
    }

    /// The loss table of `game`'s committed calibration, played into a
    /// temporary directory.
    fn print_profiles(game: &str, seed: u64, quick: bool) {
        let Some(c) = super::super::arena::load_calibration(game).unwrap() else { return };
        let out = std::env::temp_dir().join(format!("dial-losses-{game}-{}", std::process::id()));
        let scale = if quick { Scale::Quick } else { Scale::Default };
        let key = crate::reproduce::RunKey { seed, scale };
        let config = RunConfig { label: "test", key, out: out.clone(), shard: None };
        let _lock = crate::reproduce::open_out(&out, key, &[], &["all".into()]).unwrap();
        let mut with = c.clone();
        with.losses = profiles(game, &c, &config, quick).unwrap();
        println!("{}", losses_table(&with));
        let _ = std::fs::remove_dir_all(&out);
    }

    /// Not a check: the chess figures of a quick run on the committed
    /// calibration. `cargo test -p experiments --release dial::losses -- --ignored --nocapture`.
    #[test]
    #[ignore = "minutes: chess self-play judged by Stockfish or a deeper search"]
    fn chess_profiles_quick() {
        print_profiles("chess", 5, true);
    }

    /// Not a check: the gobang figures of the committed calibration at the
    /// default scale, with the seed `calibrate` uses (the same games a
    /// calibration of the same ladder profiles).
    #[test]
    #[ignore = "minutes: gobang self-play judged by a depth-4 search"]
    fn gobang_profiles() {
        print_profiles("gobang", super::super::calibrate::DEFAULT_SEED, false);
    }

    #[test]
    fn profile_statistics() {
        let setup = setup("connect4").unwrap();
        let rows: Vec<Row> = [0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 7.0, 0.0, 0.0, 20.0]
            .iter()
            .map(|&l| row! { "loss" => l, "changed" => l > 5.0, "blunder" => l > 5.0 })
            .collect();
        let level = Level { setting: "elo:1".into(), elo: 1.0, spec: "random".into() };
        let p = profile(&level, &rows, &setup, "n".into());
        assert_eq!(p.moves, 10);
        assert!((p.mean_loss - 3.3).abs() < 1e-12);
        assert_eq!((p.median_loss, p.p90_loss, p.max_loss), (0.0, 7.0, 20.0));
        assert_eq!(p.blunder_rate, 0.2);
        assert_eq!(p.histogram, vec![(0.0, 5), (2.0, 2), (6.0, 1), (12.0, 1), (42.0, 1)]);
        let empty = profile(&level, &[], &setup, String::new());
        assert_eq!((empty.moves, empty.mean_loss, empty.blunder_rate), (0, 0.0, 0.0));
    }

    #[test]
    fn levels_spread_over_the_dial() {
        let Some(c) = super::super::arena::load_calibration("tictactoe").unwrap() else { return };
        let dial = Dial::new(c.clone()).unwrap();
        let levels = dial_levels(&dial).unwrap();
        let (lo, hi) = dial.range();
        assert!(levels.len() >= 6);
        assert!(levels.windows(2).all(|w| w[0].elo < w[1].elo));
        assert_eq!(levels.last().unwrap().elo, hi);
        assert!(levels[0].elo <= lo + 0.1 * (hi - lo));
        assert_eq!(levels.last().unwrap().spec, dial.setting(hi).unwrap().to_string());
        let sf = stockfish_levels(
            &[Level { setting: "elo:1500".into(), elo: 1500.4, spec: String::new() }],
            Path::new("/sf"),
        );
        assert_eq!(sf[0].spec, "uci:/sf,UCI_LimitStrength=true,UCI_Elo=1500,movetime=50");
        assert!(stockfish_levels(&levels, Path::new("/sf")).iter().all(|l| l.elo >= 1350.0));
    }

    #[test]
    fn tictactoe_profiles_on_the_cell_store() {
        let Some(c) = super::super::arena::load_calibration("tictactoe").unwrap() else { return };
        let out = std::env::temp_dir().join(format!("dial-losses-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let key = crate::reproduce::RunKey { seed: 3, scale: Scale::Quick };
        let config = RunConfig { label: "test", key, out: out.clone(), shard: None };
        let first = {
            let _lock = crate::reproduce::open_out(&out, key, &[], &["all".into()]).unwrap();
            profiles("tictactoe", &c, &config, true).unwrap()
        };
        assert_eq!(first.len(), LEVELS.len());
        let top = first.last().unwrap();
        assert_eq!((top.spec.as_str(), top.mean_loss, top.blunder_rate), ("alphabeta:depth=9", 0.0, 0.0));
        assert!(first.iter().all(|p| p.moves > 0 && p.unit == "outcome classes"));
        // Resumed from the saved cells: the same profiles.
        let again = {
            let _lock = crate::reproduce::open_out(&out, key, &[], &["all".into()]).unwrap();
            profiles("tictactoe", &c, &config, true).unwrap()
        };
        assert_eq!(first, again);
        let mut with = c.clone();
        with.losses = first;
        assert_eq!(Calibration::from_json(&with.to_json()).unwrap(), with);
        let table = losses_table(&with);
        assert!(table.contains("| `elo:") && table.contains("alphabeta:depth=9"), "{table}");
        let _ = std::fs::remove_dir_all(&out);
    }
}
