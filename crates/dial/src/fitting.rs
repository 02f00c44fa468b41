//! `cargo xtask fit GAME FILE`: a player's model estimated from their moves.
//!
//! FILE holds one game per line, the moves in the game's own notation
//! separated by spaces (tic-tac-toe `b2 a1 ...`, gobang `h8 h9 ...`;
//! connect-4 also accepts Pons' digit strings such as `4453`, every
//! character one move); blank lines and lines starting with `#` are not
//! games. For chess FILE is a PGN file (see `games_chess::pgn::parse`): tags, SAN
//! movetext, comments, variations (skipped), NAGs and results; a `FEN` tag
//! sets the start position.
//!
//! For every move of the selected player(s) (`--player first|second|both`,
//! or for chess a name matched against the `White` and `Black` tags) the
//! values of all the legal moves are computed, from the mover's side
//! (`--values`):
//!
//! - `exact`: tic-tac-toe, +1/0/−1 for a win, draw or loss from a full-depth
//!   alpha-beta solve; connect-4, the strong solver's score (as `cargo xtask
//!   solve` prints it, negated to the mover's side: the score of the
//!   position after the move for the side then to move; a move that wins at
//!   once scores the solver's win score, one that fills the board 0). The
//!   solver takes seconds to a minute per position with fewer than 12 discs,
//!   so connect-4's exact values are computed only for decisions taken on a
//!   board with at least `--min-discs` discs (default 12); earlier decisions
//!   are skipped and counted. Not available for gobang and chess.
//! - `depth:D`: the game's evaluator backed up `D` plies by minimax
//!   (alpha-beta with exact root scores, no aspiration window, the table of
//!   the game's dial agents, emptied before each game): the values a dial
//!   player `boltzmann:depth=D,cap=C` sees
//!   ([`tournament::decisions::DepthValuer`]).
//!
//! Each becomes a [`Decision`](strength::fit::Decision) (the move lines
//! read and the decisions collected by [`tournament::decisions`]), and [`strength::fit::fit`] estimates the
//! model's parameter with its profile-likelihood 95% interval (`--model
//! boltzmann|epsilon|noise|all`, repeatable; `--slip` adds a uniformly
//! random slip). With several models the fits are [compared](compare):
//! AIC, Akaike weights, and with `--slip` the likelihood-ratio test of every
//! family with against without the slip.
//!
//! **Cap and Elo.** `--cap C` clamps the values to `±C`. With `depth:D`
//! values it defaults to the cap of the committed calibration's curve
//! `boltzmann:depth=D,cap=C` when there is one, so that θ is comparable to
//! the dial's; the Boltzmann fit (without a slip) is then placed on that
//! curve by [`map_to_dial`]: `elo` and `elo_ci95`. Exact values have no
//! curve (tic-tac-toe's exact values are those of its `depth:9` curve with
//! `cap=1`: use `--values depth:9` for a rating).
//!
//! Bad input is an error naming `FILE:LINE`; nothing is skipped silently.
//! Chess positions drawn by the engine's rules (threefold repetition,
//! fifty moves, insufficient material) while the game went on have no
//! values: their decisions are skipped and counted.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use games_chess::{ChessEval, ChessGame};
use games_small::connect4::Book;
use games_small::solver::Solver;
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use search_core::policy::ScoreCap;
use search_core::{Evaluator, Game, MAX_PLY};
use serde_json::{Value, json};
use strength::dial::{Calibration, Dial};
use strength::fit::{Comparison, Fit, FitOptions, Interval, Model, compare, fit, map_to_dial};
use strength::spec::{AgentSpec, SpecError};
use tournament::decisions::{
    Decisions, DecisionsError, DepthValuer, GameRecord, MoveTokens, MoveValues, Side, Valued, decisions, parse_games,
};

use crate::TaskResult;

/// Arguments of `cargo xtask fit`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: tictactoe, connect4, gobang or chess.
    pub game: String,
    /// The games: one per line, the moves in the game's notation separated by spaces (connect-4 also
    /// Pons' digit strings such as `4453`); for chess a PGN file.
    pub file: PathBuf,
    /// The model: boltzmann, epsilon, noise, or all; repeat (or separate by commas) to compare several
    /// (AIC, Akaike weights, LRT where nested).
    #[arg(long = "model", value_name = "MODEL")]
    pub models: Vec<String>,
    /// The moves' values: `exact` (tictactoe: +1/0/-1 from a full solve; connect4: the solver's scores)
    /// or `depth:D` (the game's evaluator backed up D plies by minimax, as the dial's
    /// `boltzmann:depth=D` players see them). Default: exact (tictactoe, connect4 only).
    #[arg(long)]
    pub values: Option<String>,
    /// Whose moves: first, second, both, or (chess) a name matched against the White and Black tags.
    #[arg(long, default_value = "both")]
    pub player: String,
    /// Fit a uniformly random slip rate too (each family is also fitted without it, for the LRT).
    #[arg(long)]
    pub slip: bool,
    /// Clamp the values to ±C. Default: with depth:D values, the cap of the committed calibration's
    /// curve `boltzmann:depth=D,cap=C` (so θ is comparable to the dial's); otherwise none.
    #[arg(long, value_name = "C", allow_hyphen_values = true)]
    pub cap: Option<f64>,
    /// Connect-4 exact values only: fit the decisions taken on boards with at least N discs (the solver
    /// takes seconds to a minute on earlier positions); the others are skipped and counted [default: 12].
    #[arg(long, value_name = "N")]
    pub min_discs: Option<u32>,
    /// Connect-4 exact values only: an opening book (`cargo xtask book connect4`); positions it has are
    /// scored from it, without search.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The default `--min-discs` of connect-4's exact values.
pub const DEFAULT_MIN_DISCS: u32 = 12;

/// Why a gobang move on the board may still be refused.
const GOBANG_NOTE: &str = " (gobang's moves: h8 first, then the empty points within 2 of a stone)";

/// The transposition table of connect-4's exact values, in MiB (kept
/// across positions: every entry is exact whatever the root).
const SOLVER_TABLE_MIB: usize = 64;

/// Where the move values come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Values {
    /// Tic-tac-toe's game values, connect-4's solver scores.
    Exact,
    /// The game's evaluator backed up this many plies.
    Depth(u32),
}

impl FromStr for Values {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("--values {s:?}: expected exact or depth:D (D from 1 to {MAX_PLY})");
        match s.trim() {
            "exact" => Ok(Values::Exact),
            t => {
                let d = t.strip_prefix("depth:").ok_or_else(bad)?;
                match d.trim().parse::<u32>() {
                    Ok(d) if (1..=MAX_PLY).contains(&d) => Ok(Values::Depth(d)),
                    _ => Err(bad()),
                }
            }
        }
    }
}

impl std::fmt::Display for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Values::Exact => write!(f, "exact"),
            Values::Depth(d) => write!(f, "depth:{d}"),
        }
    }
}

/// Whose moves are fitted.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Selection {
    First,
    Second,
    Both,
    /// A chess player's name, matched against the White and Black tags.
    Name(String),
}

impl Selection {
    fn parse(s: &str) -> Result<Self, String> {
        match s.trim() {
            "" => Err("--player: expected first, second, both or a player's name".into()),
            "first" => Ok(Selection::First),
            "second" => Ok(Selection::Second),
            "both" => Ok(Selection::Both),
            name => Ok(Selection::Name(name.to_string())),
        }
    }

    /// The side selected by a side-independent choice (`None` for a name).
    fn side(&self) -> Option<Side> {
        match self {
            Selection::First => Some(Side::First),
            Selection::Second => Some(Side::Second),
            Selection::Both => Some(Side::Both),
            Selection::Name(_) => None,
        }
    }
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selection::First => write!(f, "first"),
            Selection::Second => write!(f, "second"),
            Selection::Both => write!(f, "both"),
            Selection::Name(n) => write!(f, "{n}"),
        }
    }
}

/// The command-line name of a model.
pub(crate) fn model_name(m: Model) -> &'static str {
    match m {
        Model::Boltzmann => "boltzmann",
        Model::EpsilonGreedy => "epsilon",
        Model::Noise => "noise",
    }
}

/// The parameter's symbol.
pub(crate) fn symbol(m: Model) -> &'static str {
    match m {
        Model::Boltzmann => "θ",
        Model::EpsilonGreedy => "ε",
        Model::Noise => "S",
    }
}

/// The models asked for, in order, without repeats.
fn parse_models(names: &[String]) -> Result<Vec<Model>, String> {
    let mut out = Vec::new();
    let mut add = |m: Model| {
        if !out.contains(&m) {
            out.push(m);
        }
    };
    for name in names.iter().flat_map(|n| n.split(',')) {
        match name.trim() {
            "boltzmann" => add(Model::Boltzmann),
            "epsilon" | "epsilon-greedy" => add(Model::EpsilonGreedy),
            "noise" => add(Model::Noise),
            "all" => Model::ALL.into_iter().for_each(&mut add),
            other => return Err(format!("--model {other:?}: expected boltzmann, epsilon, noise or all")),
        }
    }
    if out.is_empty() {
        out.push(Model::Boltzmann);
    }
    Ok(out)
}

/// One game of FILE, and whose moves in it are fitted (`None`: neither
/// player's).
#[derive(Debug)]
struct Selected<G: Game> {
    record: GameRecord<G>,
    side: Option<Side>,
    /// Each move's line, where a game spans lines (PGN); empty: the
    /// record's line.
    lines: Vec<usize>,
}

/// `e` as the command reports it, naming `FILE:LINE` (each move's line
/// from `lines` where the game spans several), `note` after an illegal
/// move.
fn located(path: &str, e: DecisionsError, lines: &[usize], note: &str) -> String {
    let at = |line: usize, ply: usize| ply.checked_sub(1).and_then(|i| lines.get(i)).copied().unwrap_or(line);
    match e {
        DecisionsError::BadMove { line, ply, text, source } => {
            format!("{path}:{}: move {ply} ({text:?}): {source}", at(line, ply))
        }
        DecisionsError::GameOver { line, ply, text } => {
            format!("{path}:{}: move {ply} ({text:?}): the game is already over", at(line, ply))
        }
        DecisionsError::IllegalMove { line, ply, text, .. } => {
            format!("{path}:{}: move {ply} ({text:?}): not a legal move there{note}", at(line, ply))
        }
        DecisionsError::ChanceNode { line, ply } => format!("{path}:{}: move {ply}: a chance node", at(line, ply)),
        DecisionsError::Valuer { line, ply, text, source } => {
            format!("{path}:{}: move {ply} ({text}): {source}", at(line, ply))
        }
        DecisionsError::NotValued { line, ply, text } => {
            format!("{path}:{}: move {ply} ({text}): not among the moves the search valued", at(line, ply))
        }
        other => format!("{path}: {other}"),
    }
}

/// Reads move lines (see [`parse_games`]: one game per line, blank lines
/// and `#` lines not games), every move checked legal; `side`'s moves are
/// fitted.
fn move_lines<G: Game>(
    path: &str,
    text: &str,
    start: &G,
    tokens: MoveTokens,
    side: Option<Side>,
    note: &str,
) -> Result<Vec<Selected<G>>, String> {
    let games = parse_games(start, text, tokens).map_err(|e| located(path, e, &[], note))?;
    Ok(games.into_iter().map(|record| Selected { record, side, lines: Vec::new() }).collect())
}

/// The decisions of the selected sides, each valued by `valuer` (told of
/// each new game).
fn collect_decisions<G: Game, V: MoveValues<G>>(
    path: &str,
    games: &[Selected<G>],
    valuer: &mut V,
) -> Result<Decisions, String> {
    let mut total = Decisions::default();
    for s in games {
        let Some(side) = s.side else { continue };
        let d = decisions(std::slice::from_ref(&s.record), side, valuer).map_err(|e| located(path, e, &s.lines, ""))?;
        total.append(d);
    }
    Ok(total)
}

/// Depth values of every game ([`DepthValuer`]: the values of the dial's
/// Boltzmann agents), the table emptied before each game.
fn depth_tally<G: Game, E: Evaluator<G>>(
    path: &str,
    games: &[Selected<G>],
    eval: E,
    depth: u32,
    table_mib: usize,
) -> Result<Decisions, String> {
    let mut valuer = DepthValuer::new(eval, depth, table_mib).map_err(|e| e.to_string())?;
    collect_decisions(path, games, &mut valuer)
}

/// Tic-tac-toe's exact values of every legal move: +1, 0 or −1 for a win,
/// draw or loss with best play after it, from the mover's side (the signs
/// of a full-depth search's scores; its table is kept across games, every
/// entry being exact).
#[derive(Debug)]
pub(crate) struct TicTacToeExact(DepthValuer<TicTacToe, TicTacToeEval>);

impl TicTacToeExact {
    /// The full-depth search behind the values.
    pub(crate) fn new() -> Result<Self, String> {
        DepthValuer::new(TicTacToeEval::default(), 9, 1).map(TicTacToeExact).map_err(|e| e.to_string())
    }
}

impl MoveValues<TicTacToe> for TicTacToeExact {
    type Error = DecisionsError;

    fn move_values(&mut self, g: &TicTacToe) -> Result<Valued<<TicTacToe as Game>::Move>, DecisionsError> {
        let values = self.0.values(g)?;
        Ok(Some(values.into_iter().map(|(m, s)| (m, if s == 0.0 { 0.0 } else { s.signum() })).collect()))
    }
}

/// Tic-tac-toe's exact values (see [`TicTacToeExact`]).
fn tictactoe_exact(path: &str, games: &[Selected<TicTacToe>]) -> Result<Decisions, String> {
    collect_decisions(path, games, &mut TicTacToeExact::new()?)
}

/// Solved connect-4 scores shared between valuers (and threads): position
/// key to the score of the side to move. Every entry is exact, so sharing
/// cannot change a result.
pub(crate) type SolvedCache = Arc<Mutex<HashMap<u64, i32>>>;

/// Connect-4's exact values (standard 7×6 board): the solver's score of
/// each move, from the mover's side, for positions with at least
/// `min_discs` discs; earlier positions are not valued.
pub(crate) struct Connect4Exact {
    solver: Solver,
    min_discs: u32,
    cache: SolvedCache,
}

impl Connect4Exact {
    /// A valuer with its own solver (table of [`SOLVER_TABLE_MIB`] MiB) and
    /// the shared `cache`.
    pub(crate) fn new(min_discs: u32, book: Option<&Path>, cache: SolvedCache) -> Result<Self, String> {
        let mut solver = Solver::with_table_mib(7, 6, SOLVER_TABLE_MIB).map_err(|e| e.to_string())?;
        if let Some(file) = book {
            let book = Book::load(file).map_err(|e| format!("{}: {e}", file.display()))?;
            solver.set_book(Some(book)).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        Ok(Connect4Exact { solver, min_discs, cache })
    }

    /// Every legal move's exact score from the mover's side (a move that
    /// wins at once scores the solver's win score, one that fills the board
    /// 0), or `None` on a board with fewer than `min_discs` discs.
    pub(crate) fn values(&mut self, g: &Connect4) -> Result<Valued<<Connect4 as Game>::Move>, String> {
        let n = g.moves_played();
        if n < self.min_discs {
            return Ok(None);
        }
        let cells = (g.width() * g.height()) as i32;
        let mut moves = Vec::new();
        g.generate(&mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut after = *g;
            after.play(mv);
            let score = if after.winner().is_some() {
                // A win with the next disc on a board of `n` discs.
                (cells + 1 - n as i32) / 2
            } else if after.is_full() {
                0
            } else {
                let key = after.key();
                let cached = self.cache.lock().map_err(|e| e.to_string())?.get(&key).copied();
                let s = match cached {
                    Some(s) => s,
                    None => {
                        let s = self.solver.solve(&after).map_err(|e| e.to_string())?.score;
                        self.cache.lock().map_err(|e| e.to_string())?.insert(key, s);
                        s
                    }
                };
                -s
            };
            out.push((mv, f64::from(score)));
        }
        Ok(Some(out))
    }
}

impl MoveValues<Connect4> for Connect4Exact {
    type Error = String;

    fn move_values(&mut self, g: &Connect4) -> Result<Valued<<Connect4 as Game>::Move>, String> {
        self.values(g)
    }
}

/// Connect-4's exact values: the solver's scores, from the mover's side,
/// for decisions on boards with at least `min_discs` discs.
fn connect4_exact(
    path: &str,
    games: &[Selected<Connect4>],
    min_discs: u32,
    book: Option<&Path>,
) -> Result<Decisions, String> {
    let mut valuer = Connect4Exact::new(min_discs, book, SolvedCache::default())?;
    collect_decisions(path, games, &mut valuer)
}

/// The chess games of a PGN file: moves checked legal on the board, the
/// sides selected (by colour, or by name against the White/Black tags).
/// Also the number of games without the named player.
fn chess_records(path: &str, text: &str, who: &Selection) -> Result<(Vec<Selected<ChessGame>>, usize), String> {
    let games = games_chess::pgn::parse(text).map_err(|e| format!("{path}:{e}"))?;
    if games.is_empty() {
        return Err(format!("{path}: no games"));
    }
    let mut out = Vec::new();
    let mut without = 0;
    for (k, pgn) in games.iter().enumerate() {
        let at = format!("{path}:{}: game {}", pgn.line, k + 1);
        if let Some(v) = pgn.tag("Variant")
            && !matches!(v.to_ascii_lowercase().as_str(), "standard" | "chess" | "")
        {
            return Err(format!("{at}: variant {v:?} is not standard chess"));
        }
        let start = match pgn.tag("FEN") {
            Some(fen) => ChessGame::from_fen(fen).map_err(|e| format!("{at}: FEN tag: {e}"))?,
            None => ChessGame::startpos(),
        };
        let side = match who {
            Selection::Name(name) => {
                let is = |tag: &str| pgn.tag(tag).is_some_and(|v| v.trim().eq_ignore_ascii_case(name.trim()));
                match (is("White"), is("Black")) {
                    (true, true) => Some(Side::Both),
                    (true, false) => Some(Side::First),
                    (false, true) => Some(Side::Second),
                    (false, false) => None,
                }
            }
            other => other.side(),
        };
        if side.is_none() {
            without += 1;
        }
        let mut g = start.clone();
        let mut moves = Vec::with_capacity(pgn.moves.len());
        let mut lines = Vec::with_capacity(pgn.moves.len());
        for (i, (san, line)) in pgn.moves.iter().enumerate() {
            let mv =
                g.parse_move(san).map_err(|e| format!("{path}:{line}: game {}, move {} ({san}): {e}", k + 1, i + 1))?;
            g.play(mv);
            moves.push(mv);
            lines.push(*line);
        }
        out.push(Selected { record: GameRecord::new(start, moves).with_line(pgn.line), side, lines });
    }
    if let Selection::Name(name) = who
        && without == games.len()
    {
        return Err(format!("{path}: no game has {name:?} as White or Black"));
    }
    Ok((out, without))
}

/// A curve's cap: `cap=C` (hard) or `softcap=C` (soft, `true`).
fn cap_of(spec: &AgentSpec) -> Result<Option<(f64, bool)>, SpecError> {
    Ok(spec.score_cap()?.map(|c| (c.bound(), matches!(c, ScoreCap::Soft(_)))))
}

/// The calibration's curves `boltzmann:depth=D,[soft]cap=...`: `(curve,
/// cap)`.
pub(crate) fn curves_of_depth(calibration: &Calibration, depth: u32) -> Vec<(String, Option<(f64, bool)>)> {
    let mut out: Vec<(String, Option<(f64, bool)>)> = Vec::new();
    for c in calibration.rungs.iter().filter_map(|r| r.curve.as_deref()) {
        let Ok(spec) = c.parse::<AgentSpec>() else { continue };
        if spec.kind() != "boltzmann" || spec.get("depth").and_then(|d| d.parse::<u32>().ok()) != Some(depth) {
            continue;
        }
        let Ok(cap) = cap_of(&spec) else { continue };
        if !out.iter().any(|(name, _)| name == c) {
            out.push((c.to_string(), cap));
        }
    }
    out
}

/// A fit made, and its place on the dial.
#[derive(Debug)]
struct Made {
    fit: Fit,
    elo: Option<(f64, Interval)>,
}

/// The dial and the curve the depth values match.
struct DialCurve {
    dial: Dial,
    curve: String,
}

/// Formats a number with about four significant digits.
pub(crate) fn num(x: f64) -> String {
    if x == f64::INFINITY {
        return "+∞".into();
    }
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    if x.abs() < 1e-4 {
        return format!("{x:.3e}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (3 - magnitude).clamp(0, 10) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// An interval in words: `[a, b]`, `≥ a`, `≤ b`, or the whole domain.
fn interval_text(sym: &str, (lo, hi): Interval) -> String {
    match (lo, hi) {
        (Some(a), Some(b)) => format!("[{}, {}]", num(a), num(b)),
        (Some(a), None) => format!("{sym} ≥ {}", num(a)),
        (None, Some(b)) => format!("{sym} ≤ {}", num(b)),
        (None, None) => "unbounded (the whole domain)".into(),
    }
}

/// A finite number, or null.
fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// A parameter: a number, or `"inf"` for `+∞` (as [`Fit`]'s JSON has it).
fn param_json(x: f64) -> Value {
    if x == f64::INFINITY { json!("inf") } else { finite(x) }
}

fn fit_json(m: &Made, curve: Option<&str>) -> Value {
    let f = &m.fit;
    json!({
        "model": model_name(f.model),
        "parameter": f.model.parameter(),
        "param": param_json(f.param),
        "ci95": [f.ci95.0.map_or(Value::Null, param_json), f.ci95.1.map_or(Value::Null, param_json)],
        "slip": f.slip.map_or(Value::Null, finite),
        "loglik": finite(f.loglik),
        "moves": f.moves,
        "uninformative": f.uninformative,
        "aic": finite(f.aic),
        "cap": f.cap.map_or(Value::Null, finite),
        "soft_cap": f.soft,
        "elo": m.elo.map_or(Value::Null, |(e, _)| finite(e)),
        "elo_ci95": m.elo.map_or(Value::Null, |(_, (lo, hi))| json!([lo.map_or(Value::Null, finite), hi.map_or(Value::Null, finite)])),
        "curve": if m.elo.is_some() { curve.map_or(Value::Null, |c| json!(c)) } else { Value::Null },
    })
}

fn comparison_json(c: &Comparison) -> Value {
    json!({
        "best": c.best,
        "entries": c.entries.iter().map(|e| json!({
            "model": model_name(e.model),
            "slip": e.slip,
            "params": e.params,
            "loglik": finite(e.loglik),
            "aic": finite(e.aic),
            "delta_aic": finite(e.delta_aic),
            "weight": finite(e.weight),
        })).collect::<Vec<_>>(),
        "nested": c.nested.iter().map(|n| json!({
            "model": model_name(n.model),
            "without": n.without,
            "with": n.with,
            "statistic": finite(n.statistic),
            "p_value": finite(n.p_value),
        })).collect::<Vec<_>>(),
    })
}

fn fit_text(out: &mut String, m: &Made, values: Values, dial: Option<&DialCurve>, calibrated: bool) {
    let f = &m.fit;
    let sym = symbol(f.model);
    let slip = if f.slip.is_some() { " with slip" } else { "" };
    let _ = writeln!(
        out,
        "{}{slip}: {sym} = {}, 95% interval {}",
        model_name(f.model),
        num(f.param),
        interval_text(sym, f.ci95)
    );
    if let Some(l) = f.slip {
        let _ = writeln!(out, "  slip λ = {}", num(l));
    }
    let _ = writeln!(
        out,
        "  log-likelihood {:.4}, moves used {}, uninformative {}, AIC {:.3}",
        f.loglik, f.moves, f.uninformative, f.aic
    );
    if f.model != Model::Boltzmann {
        return;
    }
    match (&m.elo, dial) {
        (Some((elo, ci)), Some(d)) => {
            let _ = writeln!(out, "  Elo {:.0}, 95% interval {} (curve {})", elo, elo_interval(*ci), d.curve);
        }
        _ if f.slip.is_some() => {
            let _ = writeln!(out, "  Elo: only for the fit without slip");
        }
        _ => {
            let why = match (values, dial, calibrated) {
                (Values::Exact, _, _) => "exact values are on no dial curve: use --values depth:D".to_string(),
                (Values::Depth(d), None, true) => format!("the calibration has no curve boltzmann:depth={d},cap=..."),
                (Values::Depth(_), None, false) => "no calibration of this game".to_string(),
                (Values::Depth(_), Some(d), _) => format!("the cap differs from the curve {}'s", d.curve),
            };
            let _ = writeln!(out, "  Elo: not available ({why})");
        }
    }
}

fn elo_interval((lo, hi): Interval) -> String {
    match (lo, hi) {
        (Some(a), Some(b)) => format!("[{a:.0}, {b:.0}]"),
        (Some(a), None) => format!("≥ {a:.0}"),
        (None, Some(b)) => format!("≤ {b:.0}"),
        (None, None) => "unbounded".into(),
    }
}

/// Runs `cargo xtask fit`.
pub fn run(args: Args) -> TaskResult {
    let builtin = registry::game(&args.game)?;
    let models = parse_models(&args.models)?;
    let values: Values = args.values.as_deref().unwrap_or("exact").parse()?;
    let who = Selection::parse(&args.player)?;
    if let Some(c) = args.cap
        && !(c.is_finite() && c > 0.0)
    {
        return Err(format!("--cap {c}: must be positive and finite").into());
    }
    let exact_games = ["tictactoe", "connect4"];
    if values == Values::Exact && !exact_games.contains(&args.game.as_str()) {
        return Err(
            format!("{}: no exact values (tictactoe and connect4 only): use --values depth:D", args.game).into()
        );
    }
    let connect4_exact_values = args.game == "connect4" && values == Values::Exact;
    if args.min_discs.is_some() && !connect4_exact_values {
        return Err("--min-discs applies to connect4 with exact values only".into());
    }
    if matches!(who, Selection::Name(_)) && args.game != "chess" {
        return Err(format!(
            "--player {who}: a name is matched against PGN tags (chess); for {} use first, second or both",
            args.game
        )
        .into());
    }
    let path = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let started = Instant::now();
    let side = who.side();
    let mut without = 0;
    let (tally, games) = match (args.game.as_str(), values) {
        ("tictactoe", v) => {
            let records = move_lines(&path, &text, &TicTacToe::default(), MoveTokens::Words, side, "")?;
            let t = match v {
                Values::Exact => tictactoe_exact(&path, &records)?,
                Values::Depth(d) => depth_tally(&path, &records, TicTacToeEval::default(), d, 1)?,
            };
            (t, records.len())
        }
        ("connect4", v) => {
            let records = move_lines(&path, &text, &Connect4::standard(), MoveTokens::Chars, side, "")?;
            let t = match v {
                Values::Exact => {
                    connect4_exact(&path, &records, args.min_discs.unwrap_or(DEFAULT_MIN_DISCS), args.book.as_deref())?
                }
                Values::Depth(d) => depth_tally(&path, &records, Connect4Eval::default(), d, 4)?,
            };
            (t, records.len())
        }
        ("gobang", Values::Depth(d)) => {
            let records = move_lines(&path, &text, &Gobang::default(), MoveTokens::Words, side, GOBANG_NOTE)?;
            (depth_tally(&path, &records, GobangEval::default(), d, 8)?, records.len())
        }
        ("chess", Values::Depth(d)) => {
            let (records, w) = chess_records(&path, &text, &who)?;
            without = w;
            (depth_tally(&path, &records, ChessEval, d, 16)?, records.len())
        }
        _ => unreachable!("checked above"),
    };
    if games == 0 {
        return Err(format!("{path}: no games (one per line)").into());
    }
    if tally.decisions.is_empty() {
        let mut why = format!("{path}: no decisions of player {who} to fit");
        if tally.unvalued > 0 {
            why += &format!(" ({} before {} discs: lower --min-discs)", tally.unvalued, min_discs(&args));
        }
        return Err(why.into());
    }
    let elapsed = started.elapsed().as_secs_f64();

    // The dial curve of depth values, and the cap.
    let mut calibrated = false;
    let mut dial_curve: Option<DialCurve> = None;
    if let Values::Depth(d) = values {
        match builtin.calibration() {
            Ok(cal) => {
                calibrated = true;
                let curves = curves_of_depth(&cal, d);
                let chosen = match args.cap {
                    Some(c) => curves.iter().find(|(_, cap)| cap.is_some_and(|(x, _)| x == c)).or(curves.first()),
                    None => curves.first(),
                }
                .map(|(name, _)| name.clone());
                if let Some(curve) = chosen {
                    match Dial::new(cal) {
                        Ok(dial) => dial_curve = Some(DialCurve { dial, curve }),
                        Err(e) => eprintln!("fit: {}: {e}: no Elo", builtin.calibration_path().display()),
                    }
                }
            }
            Err(e) => eprintln!("fit: {e}: no Elo"),
        }
    }
    // The curve's cap, and its kind (soft or hard); `--cap` overrides the
    // value, and is soft only where the curve's cap is soft.
    let curve_cap =
        dial_curve.as_ref().and_then(|d| d.curve.parse::<AgentSpec>().ok().and_then(|s| cap_of(&s).ok().flatten()));
    let (cap, soft) = match (args.cap, curve_cap) {
        (Some(c), Some((x, soft))) => (Some(c), soft && x == c),
        (Some(c), None) => (Some(c), false),
        (None, Some((x, soft))) => (Some(x), soft),
        (None, None) => (None, false),
    };

    // The fits: each model (with the slip if asked); with the slip, each
    // without it too, for the likelihood-ratio test.
    let mut made: Vec<Made> = Vec::new();
    let mut primary = Vec::new();
    for &m in &models {
        let mut variants = vec![false];
        if args.slip {
            variants.push(true);
        }
        for slip in variants {
            let options = FitOptions { cap, soft, slip };
            let f = fit(&tally.decisions, m, options).map_err(|e| format!("{path}: {e}"))?;
            let elo = match (&dial_curve, slip) {
                (Some(d), false) => map_to_dial(&d.dial, &d.curve, &f),
                _ => None,
            };
            if slip == args.slip {
                primary.push(made.len());
            }
            made.push(Made { fit: f, elo });
        }
    }
    let comparison = if made.len() > 1 {
        Some(compare(&made.iter().map(|m| m.fit.clone()).collect::<Vec<_>>()).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let decisions = tally.decisions.len();
    let curve = dial_curve.as_ref().map(|d| d.curve.as_str());

    if args.json {
        let mut top = fit_json(&made[primary[0]], curve);
        let obj = top.as_object_mut().expect("an object");
        obj.insert("game".into(), json!(args.game));
        obj.insert("file".into(), json!(path));
        obj.insert("values".into(), json!(values.to_string()));
        obj.insert("player".into(), json!(who.to_string()));
        obj.insert("games".into(), json!(games));
        obj.insert("decisions".into(), json!(decisions));
        obj.insert("skipped_early".into(), json!(tally.unvalued));
        obj.insert("skipped_drawn".into(), json!(tally.finished));
        obj.insert("games_without_player".into(), json!(without));
        obj.insert("min_discs".into(), if connect4_exact_values { json!(min_discs(&args)) } else { Value::Null });
        if let Some(c) = &comparison {
            obj.insert("fits".into(), made.iter().map(|m| fit_json(m, curve)).collect());
            obj.insert("comparison".into(), comparison_json(c));
        }
        println!("{top}");
        return Ok(());
    }

    let mut out = String::new();
    let plural = if games == 1 { "" } else { "s" };
    let _ = writeln!(out, "fit: {games} game{plural} of {} in {path}, player {who}", args.game);
    let what = match (args.game.as_str(), values) {
        ("tictactoe", Values::Exact) => "exact (+1 win, 0 draw, −1 loss, from a full solve)".to_string(),
        ("connect4", Values::Exact) => {
            format!("exact (the solver's scores, decisions with at least {} discs)", min_discs(&args))
        }
        (_, Values::Depth(d)) => {
            format!("depth:{d} (the evaluator backed up {d} {} by minimax)", if d == 1 { "ply" } else { "plies" })
        }
        _ => values.to_string(),
    };
    let _ = writeln!(out, "values: {what}, cap {}", cap.map_or("none".into(), num));
    let _ = writeln!(out, "decisions: {decisions} valued in {elapsed:.1} s");
    if tally.unvalued > 0 {
        let _ = writeln!(out, "skipped: {} decisions before {} discs (--min-discs)", tally.unvalued, min_discs(&args));
    }
    if tally.finished > 0 {
        let _ = writeln!(
            out,
            "skipped: {} decisions in positions drawn by the engine's rules (repetition, fifty moves, material)",
            tally.finished
        );
    }
    if without > 0 {
        let _ = writeln!(out, "games without {who}: {without}");
    }
    for &i in &primary {
        fit_text(&mut out, &made[i], values, dial_curve.as_ref(), calibrated);
    }
    if let Some(c) = &comparison {
        let _ = writeln!(out, "comparison (Akaike weight: the evidence for each model among these):");
        let _ =
            writeln!(out, "  {:<20} {:>2} {:>12} {:>10} {:>8} {:>7}", "model", "k", "log-lik", "AIC", "ΔAIC", "weight");
        for (i, e) in c.entries.iter().enumerate() {
            let name = format!("{}{}", model_name(e.model), if e.slip { "+slip" } else { "" });
            let best = if i == c.best { " best" } else { "" };
            let _ = writeln!(
                out,
                "  {name:<20} {:>2} {:>12.4} {:>10.3} {:>8.3} {:>7.3}{best}",
                e.params, e.loglik, e.aic, e.delta_aic, e.weight
            );
        }
        for n in &c.nested {
            let _ = writeln!(
                out,
                "  likelihood-ratio test, {} with vs without slip: statistic {:.3}, p = {} (conservative)",
                model_name(n.model),
                n.statistic,
                num(n.p_value)
            );
        }
    }
    print!("{out}");
    Ok(())
}

fn min_discs(args: &Args) -> u32 {
    args.min_discs.unwrap_or(DEFAULT_MIN_DISCS)
}
