//! `rminimax-fig2-tictactoe`, `rminimax-fig3-connect4`,
//! `rminimax-fig4-connect4-ab`: matches between two Rminimax players of
//! strengths θ₁ (π₁, moving first) and θ₂ (π₂), section III of seed 000.
//!
//! Each player runs Rminimax from its own point of view with its own θ
//! (`search_core::policy::rminimax_agent`) and samples its move. A cell is one
//! (θ₁, θ₂) pair and plays `N` games; `r` is `(wins of π₁) − (wins of π₂)`,
//! reported per 100 games (the paper's axis, `r ∈ [−100, 100]`) with a 95%
//! normal interval over the per-game results `+1 / 0 / −1`.
//!
//! **Memoisation.** A player's move distribution depends only on the position
//! (the full tic-tac-toe tree, or the 5-ply tree of connect-4, is a function
//! of the position; no state is kept between searches), so each player
//! caches it per position within a cell, keyed by the position itself (no
//! hash collisions). Games then cost little after the first few.
//!
//! **Costs.** Unit cost per play. Tic-tac-toe (full tree): the arc into a
//! won / drawn / lost game costs 0 / D / 2D with D = `TTT_DRAW_COST` = 10,
//! more than the 8 interior plies of the longest game, so every win costs
//! less than every draw and every draw less than every loss, whatever their
//! lengths (the paper: win < draw < loss, and short wins preferred). The
//! library's default 0 / 1 / 2 does not have this property on the full
//! game: a loss after 6 plies costs 5 + 2 = 7, less than a draw after 9,
//! 8 + 1 = 9, and Rminimax then prefers quick losses to late draws. A
//! diagnostic cell (`DEFAULT_COSTS_CELL`) plays θ₁ = θ₂ = 10 with those
//! costs to show it. Connect-4 (4×4, 5-ply look-ahead, the paper's heuristic as we read it,
//! [`Connect4LinesEval`], at the horizon): the costs are in the heuristic's
//! own units, as the paper's "heuristic shifted to be non-negative": with
//! `R` = [`HEURISTIC_BOUND`] = 50 (the largest `|h|` on 4×4: 10 lines plus
//! empty cells of total weight 40), a horizon
//! node whose heuristic is `h` (the mover's view) costs `R − h ∈ [0, 2R]`,
//! and a finished game costs 0 (win), `R` (draw), `2R` (loss):
//! `OutcomeCosts::new(0, R, 2R).with_horizon_range(R)`. No value is clipped.

use std::collections::HashMap;
use std::hash::Hash;

use games_small::{Connect4, Connect4LinesEval, TicTacToe};
use rand::RngCore;
use search_core::arena::play_match;
use search_core::backup::Minimax;
use search_core::backup::rminimax::OutcomeCosts;
use search_core::policy::rminimax_agent;
use search_core::rng::sample_index;
use search_core::search::{Limits, Options, Search};
use search_core::{Agent, Game, GameError, OutcomeOnly, ParamError, Player, rng};
use serde_json::{Value, json};

use super::pruned::{alpha_beta_visited, restricted_distribution};
use crate::reproduce::output::table;
use crate::reproduce::plot::heatmap;
use crate::reproduce::stats::{ci95, mean_se};
use crate::reproduce::verdict::{self, Verdict};
use crate::reproduce::{Experiment, Finished, Row, Scale, row};

/// `R`: the largest `|Connect4LinesEval|` on the 4×4 board (see the module
/// documentation).
pub const HEURISTIC_BOUND: f64 = 50.0;

/// D: the tic-tac-toe draw cost (win 0, loss 2D; module documentation).
pub(crate) const TTT_DRAW_COST: f64 = 10.0;

/// Fig. 4's cells that replay Fig. 3's full-width search (same θ pairs),
/// for the two claims that contrast the figures.
const FIG3_REFERENCE: [(f64, f64); 3] = [(0.01, 0.1), (0.1, 0.1), (10.0, 10.0)];
const FIG3_PREFIX: &str = "fig3-reference_";

/// The tic-tac-toe diagnostic cell with the library's default costs.
pub(crate) const DEFAULT_COSTS_CELL: &str = "default-costs_theta1=10_theta2=10";

/// The tic-tac-toe cost model (module documentation).
pub fn tictactoe_costs() -> Result<OutcomeCosts, ParamError> {
    OutcomeCosts::new(0.0, TTT_DRAW_COST, 2.0 * TTT_DRAW_COST)
}

/// The connect-4 look-ahead (plies).
pub const LOOKAHEAD: u32 = 5;

/// The connect-4 cost model (module documentation).
pub fn connect4_costs() -> Result<OutcomeCosts, ParamError> {
    OutcomeCosts::new(0.0, HEURISTIC_BOUND, 2.0 * HEURISTIC_BOUND)?.with_horizon_range(HEURISTIC_BOUND)
}

/// The 4×4 board of the paper.
pub fn board() -> Result<Connect4, ParamError> {
    Connect4::new(4, 4)
}

/// A move distribution per position.
pub type Dist<M> = Vec<(M, f64)>;

/// An agent that samples a distribution computed once per position.
struct Memo<G: Game, F> {
    dist: F,
    cache: HashMap<G, Dist<G::Move>>,
    weights: Vec<f64>,
}

impl<G, F> Memo<G, F>
where
    G: Game + Eq + Hash,
    F: FnMut(&G) -> Result<Dist<G::Move>, GameError>,
{
    fn new(dist: F) -> Self {
        Memo { dist, cache: HashMap::new(), weights: Vec::new() }
    }
}

impl<G, F> Agent<G> for Memo<G, F>
where
    G: Game + Eq + Hash,
    F: FnMut(&G) -> Result<Dist<G::Move>, GameError>,
{
    fn name(&self) -> String {
        "memoised policy".into()
    }
    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        if !self.cache.contains_key(state) {
            let d = (self.dist)(state)?;
            if d.is_empty() {
                return Err(GameError::GameOver);
            }
            self.cache.insert(state.clone(), d);
        }
        let d = &self.cache[state];
        self.weights.clear();
        self.weights.extend(d.iter().map(|m| m.1));
        Ok(d[sample_index(&self.weights, rng)].0)
    }
}

/// The results of a cell's games.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Games π₁ won.
    pub wins1: u32,
    /// Games π₂ won.
    pub wins2: u32,
    /// Games drawn.
    pub draws: u32,
    /// Positions whose distribution each player computed.
    pub positions: [usize; 2],
}

/// Plays `games` games of `first` (π₁, `Player::First`) against `second`,
/// game `i` seeded with `derive_seed(seed, i)`.
fn play_games<G, F1, F2>(start: &G, d1: F1, d2: F2, games: u32, seed: u64) -> Result<Tally, GameError>
where
    G: Game + Eq + Hash,
    F1: FnMut(&G) -> Result<Dist<G::Move>, GameError>,
    F2: FnMut(&G) -> Result<Dist<G::Move>, GameError>,
{
    let (mut a, mut b) = (Memo::new(d1), Memo::new(d2));
    let mut t = Tally::default();
    for i in 0..games {
        let rec = play_match(start, &mut a, &mut b, rng::derive_seed(seed, u64::from(i)), None)?;
        match rec.winner() {
            Some(Player::First) => t.wins1 += 1,
            Some(Player::Second) => t.wins2 += 1,
            None => t.draws += 1,
        }
    }
    t.positions = [a.cache.len(), b.cache.len()];
    Ok(t)
}

/// Tic-tac-toe on the full tree with `costs`: a cell.
pub fn tictactoe_cell(
    theta1: f64,
    theta2: f64,
    games: u32,
    seed: u64,
    costs: OutcomeCosts,
) -> Result<Tally, GameError> {
    let agent = |theta: f64| rminimax_agent(theta, costs, OutcomeOnly::default(), Limits::full_tree());
    let (mut a1, mut a2) = (agent(theta1)?, agent(theta2)?);
    play_games(&TicTacToe::new(), |s| a1.distribution(s), |s| a2.distribution(s), games, seed)
}

/// Connect-4 4×4 with the 5-ply look-ahead: a cell.
pub fn connect4_cell(theta1: f64, theta2: f64, games: u32, seed: u64) -> Result<Tally, GameError> {
    let agent = |theta: f64| rminimax_agent(theta, connect4_costs()?, Connect4LinesEval, Limits::depth(LOOKAHEAD));
    let (mut a1, mut a2) = (agent(theta1)?, agent(theta2)?);
    play_games(&board()?, |s| a1.distribution(s), |s| a2.distribution(s), games, seed)
}

/// Sizes of the trees a Fig. 4 player searched, summed over the positions
/// it computed: alpha-beta's visited subtree and the full 5-ply tree.
#[derive(Debug, Default, Clone, Copy)]
pub struct TreeSizes {
    /// Nodes of alpha-beta's visited subtrees.
    pub restricted: u64,
    /// Nodes of the full trees.
    pub full: u64,
    /// Positions computed.
    pub positions: u64,
}

/// The Fig. 4 player's distribution at `state`: alpha-beta first, then
/// Rminimax on the subtree alpha-beta visited.
pub fn pruned_distribution(state: &Connect4, theta: f64, sizes: &mut TreeSizes) -> Result<Dist<u8>, GameError> {
    let eval = Connect4LinesEval;
    let visited = alpha_beta_visited(state, eval, LOOKAHEAD)?;
    let full = Search::new(Minimax, eval, Options::full_width())?.run(state, &Limits::depth(LOOKAHEAD))?;
    sizes.restricted += visited.nodes;
    sizes.full += full.stats.nodes;
    sizes.positions += 1;
    restricted_distribution(state, visited.codes, theta, connect4_costs()?, eval, LOOKAHEAD)
}

/// Connect-4 4×4, Rminimax on alpha-beta's visited tree: a cell.
pub(crate) fn connect4_ab_cell(
    theta1: f64,
    theta2: f64,
    games: u32,
    seed: u64,
) -> Result<(Tally, TreeSizes), GameError> {
    let mut sizes = TreeSizes::default();
    let mut sizes2 = TreeSizes::default();
    let t = play_games(
        &board()?,
        |s| pruned_distribution(s, theta1, &mut sizes),
        |s| pruned_distribution(s, theta2, &mut sizes2),
        games,
        seed,
    )?;
    sizes.restricted += sizes2.restricted;
    sizes.full += sizes2.full;
    sizes.positions += sizes2.positions;
    Ok((t, sizes))
}

/// Which of the three figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// Fig. 2: tic-tac-toe, full tree.
    TicTacToe,
    /// Fig. 3: connect-4 4×4, 5-ply look-ahead.
    Connect4,
    /// Fig. 4: connect-4 4×4, 5-ply look-ahead pruned by alpha-beta.
    Connect4Ab,
}

impl Figure {
    fn thetas(self) -> (&'static [f64], &'static [f64]) {
        match self {
            Figure::TicTacToe => (&[0.1, 0.5, 1.0, 5.0, 10.0], &[0.1, 0.5, 1.0, 5.0, 10.0]),
            Figure::Connect4 => (&[0.01, 0.1, 0.7, 10.0], &[0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0]),
            Figure::Connect4Ab => (&[0.01, 0.1, 0.3, 0.7, 10.0], &[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]),
        }
    }

    /// Games per cell (the paper: 100).
    fn games(self, scale: Scale) -> u32 {
        // Quick plays the paper's 100; the memoised policies make more cheap.
        let _ = self;
        scale.pick(100, 2000, 10_000)
    }

    /// The terminal and horizon costs of a cell, for the rows.
    fn costs_label(self, diagnostic: bool) -> String {
        match self {
            _ if diagnostic => "win 0, draw 1, loss 2 (library default)".into(),
            Figure::TicTacToe => format!("win 0, draw {TTT_DRAW_COST}, loss {}", 2.0 * TTT_DRAW_COST),
            _ => {
                format!("win 0, draw {HEURISTIC_BOUND}, loss {}, horizon {HEURISTIC_BOUND} - h", 2.0 * HEURISTIC_BOUND)
            }
        }
    }

    fn cell_id(t1: f64, t2: f64) -> String {
        format!("theta1={t1}_theta2={t2}")
    }

    fn parse_cell(self, cell: &str) -> Option<(f64, f64)> {
        let (t1s, t2s) = self.thetas();
        t1s.iter().flat_map(|&a| t2s.iter().map(move |&b| (a, b))).find(|&(a, b)| Self::cell_id(a, b) == cell)
    }
}

/// One cell's result as the report sees it.
#[derive(Debug, Clone, Copy)]
struct CellStat {
    n: f64,
    /// Mean per-game result (+1 π₁ wins, −1 π₂ wins, 0 draw).
    mean: f64,
    se: f64,
    draws: f64,
}

impl CellStat {
    fn from_row(r: &Row) -> Option<CellStat> {
        let get = |k: &str| r.get(k).and_then(Value::as_f64);
        let (w1, w2, d) = (get("wins1")?, get("wins2")?, get("draws")?);
        Some(CellStat::new(w1 as u32, w2 as u32, d as u32))
    }

    fn new(w1: u32, w2: u32, d: u32) -> CellStat {
        let mut xs = vec![1.0; w1 as usize];
        xs.extend(std::iter::repeat_n(-1.0, w2 as usize));
        xs.extend(std::iter::repeat_n(0.0, d as usize));
        let (mean, se) = mean_se(&xs);
        CellStat { n: xs.len() as f64, mean, se: if se.is_nan() { 0.0 } else { se }, draws: f64::from(d) }
    }

    /// `r` per 100 games and its 95% interval.
    fn r(&self) -> (f64, f64, f64) {
        let (lo, hi) = ci95(self.mean, self.se);
        (100.0 * self.mean, 100.0 * lo, 100.0 * hi)
    }

    fn draw_share(&self) -> f64 {
        self.draws / self.n
    }
}

/// The z statistic of `b − a` (infinite if both are exact and differ).
fn z_diff(a: &CellStat, b: &CellStat) -> f64 {
    let d = b.mean - a.mean;
    let s = (a.se * a.se + b.se * b.se).sqrt();
    if s > 0.0 {
        d / s
    } else if d == 0.0 {
        0.0
    } else {
        d.signum() * f64::INFINITY
    }
}

const Z95: f64 = 1.96;

/// The grid of a figure: `cells[i][j]` at (θ₁ = `t1s[i]`, θ₂ = `t2s[j]`).
struct Grid {
    t1s: Vec<f64>,
    t2s: Vec<f64>,
    cells: Vec<Vec<CellStat>>,
}

/// How lines of the grid (θ₂ fixed, or θ₁ fixed) follow a claimed direction.
struct Trend {
    lines: usize,
    /// End-to-end change significant in the claimed direction.
    agree: usize,
    /// End-to-end change significant against it.
    against: usize,
    /// Adjacent steps significantly against it.
    reversed_steps: usize,
    details: Vec<String>,
}

impl Trend {
    fn verdict(&self) -> String {
        let word = if self.against > 0 || self.agree == 0 {
            "not reproduced"
        } else if self.agree == self.lines && self.reversed_steps == 0 {
            "reproduced"
        } else {
            // Some curves follow the claim and none goes against it end to
            // end, but not all do, or some steps reverse.
            "partly reproduced"
        };
        format!(
            "**{word}**: {}/{} curves change significantly (95%) in the claimed direction end to end, {} against it; \
             {} adjacent steps go significantly the other way",
            self.agree, self.lines, self.against, self.reversed_steps
        )
    }
}

impl Grid {
    fn at(&self, i: usize, j: usize) -> &CellStat {
        &self.cells[i][j]
    }

    /// `rising_in_theta1`: r should rise with θ₁ along each θ₂; otherwise r
    /// should fall with θ₂ along each θ₁.
    fn trend(&self, rising_in_theta1: bool) -> Trend {
        let (outer, inner) =
            if rising_in_theta1 { (self.t2s.len(), self.t1s.len()) } else { (self.t1s.len(), self.t2s.len()) };
        let sign = if rising_in_theta1 { 1.0 } else { -1.0 };
        let mut t = Trend { lines: outer, agree: 0, against: 0, reversed_steps: 0, details: Vec::new() };
        for o in 0..outer {
            let cell = |k: usize| if rising_in_theta1 { self.at(k, o) } else { self.at(o, k) };
            let z = sign * z_diff(cell(0), cell(inner - 1));
            if z > Z95 {
                t.agree += 1;
            } else if z < -Z95 {
                t.against += 1;
            }
            for k in 1..inner {
                if sign * z_diff(cell(k - 1), cell(k)) < -Z95 {
                    t.reversed_steps += 1;
                }
            }
            let rs: Vec<String> = (0..inner).map(|k| format!("{:+.0}", cell(k).r().0)).collect();
            let fixed =
                if rising_in_theta1 { format!("θ₂ = {}", self.t2s[o]) } else { format!("θ₁ = {}", self.t1s[o]) };
            t.details.push(format!("{fixed}: {}", rs.join(" → ")));
        }
        t
    }

    fn index(xs: &[f64], x: f64) -> Option<usize> {
        xs.iter().position(|&v| v == x)
    }

    /// Cells with θ₁ = θ₂.
    fn diagonal(&self) -> Vec<(f64, CellStat)> {
        self.t1s
            .iter()
            .enumerate()
            .filter_map(|(i, &t)| Self::index(&self.t2s, t).map(|j| (t, *self.at(i, j))))
            .collect()
    }
}

fn fmt_r(c: &CellStat) -> String {
    let (r, lo, hi) = c.r();
    format!("{r:+.0} [{lo:+.0}, {hi:+.0}]")
}

impl Experiment for Figure {
    fn version(&self) -> u32 {
        2
    }
    fn name(&self) -> &'static str {
        match self {
            Figure::TicTacToe => "rminimax-fig2-tictactoe",
            Figure::Connect4 => "rminimax-fig3-connect4",
            Figure::Connect4Ab => "rminimax-fig4-connect4-ab",
        }
    }
    fn source(&self) -> &'static str {
        match self {
            Figure::TicTacToe => "seed 000, Fig. 2",
            Figure::Connect4 => "seed 000, Fig. 3",
            Figure::Connect4Ab => "seed 000, Fig. 4",
        }
    }
    fn description(&self) -> &'static str {
        match self {
            Figure::TicTacToe => {
                "r = wins(π₁) − wins(π₂) per 100 games, two Rminimax players (θ₁, θ₂), tic-tac-toe, full tree"
            }
            Figure::Connect4 => {
                "r per 100 games, two Rminimax players, connect-4 4×4, 5-ply look-ahead with the heuristic"
            }
            Figure::Connect4Ab => {
                "r per 100 games, two Rminimax players on the subtree alpha-beta visited, connect-4 4×4, 5 plies"
            }
        }
    }
    fn params(&self, scale: Scale) -> Value {
        let (t1s, t2s) = self.thetas();
        let mut p = json!({ "theta1": t1s, "theta2": t2s, "games_per_cell": self.games(scale) });
        let extra = match self {
            Figure::TicTacToe => json!({ "tree": "full",
                "costs": format!("interior 1; {}", self.costs_label(false)),
                "diagnostic_cell": format!("{DEFAULT_COSTS_CELL}: {}", self.costs_label(true)) }),
            _ => json!({
                "board": "4x4", "lookahead": LOOKAHEAD, "heuristic": "Connect4LinesEval (the paper's, as read in docs/paper-readings.md)",
                "costs": format!("interior 1; win 0, draw R, loss 2R; horizon R - h; R = {HEURISTIC_BOUND}"),
                "tree": if *self == Figure::Connect4Ab { "alpha-beta visited subtree" } else { "full-width" },
            }),
        };
        if let (Some(p), Value::Object(e)) = (p.as_object_mut(), extra) {
            p.extend(e);
        }
        p
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        let (t1s, t2s) = self.thetas();
        let mut cells: Vec<String> = t1s.iter().flat_map(|&a| t2s.iter().map(move |&b| Self::cell_id(a, b))).collect();
        if *self == Figure::TicTacToe {
            cells.push(DEFAULT_COSTS_CELL.into());
        }
        if *self == Figure::Connect4Ab {
            cells.extend(FIG3_REFERENCE.iter().map(|&(a, b)| format!("{FIG3_PREFIX}{}", Self::cell_id(a, b))));
        }
        cells
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let diagnostic = *self == Figure::TicTacToe && cell == DEFAULT_COSTS_CELL;
        if *self == Figure::Connect4Ab
            && let Some(rest) = cell.strip_prefix(FIG3_PREFIX)
        {
            // Fig. 3's search (full width) at a few cells, for the contrast.
            let (t1, t2) = Figure::Connect4.parse_cell(rest).ok_or_else(|| format!("unknown cell {cell}"))?;
            let games = self.games(scale);
            let t = connect4_cell(t1, t2, games, seed).map_err(|e| e.to_string())?;
            return Ok(vec![row!("theta1" => t1, "theta2" => t2, "games" => games, "wins1" => t.wins1,
                                "wins2" => t.wins2, "draws" => t.draws, "tree" => "full-width (Fig. 3) reference")]);
        }
        let (t1, t2) = if diagnostic {
            (10.0, 10.0)
        } else {
            self.parse_cell(cell).ok_or_else(|| format!("unknown cell {cell}"))?
        };
        let games = self.games(scale);
        let costs = if diagnostic { OutcomeCosts::default() } else { tictactoe_costs().map_err(|e| e.to_string())? };
        let (t, sizes) = match self {
            Figure::TicTacToe => (tictactoe_cell(t1, t2, games, seed, costs), None),
            Figure::Connect4 => (connect4_cell(t1, t2, games, seed), None),
            Figure::Connect4Ab => match connect4_ab_cell(t1, t2, games, seed) {
                Ok((t, s)) => (Ok(t), Some(s)),
                Err(e) => (Err(e), None),
            },
        };
        let t = t.map_err(|e| e.to_string())?;
        let c = CellStat::new(t.wins1, t.wins2, t.draws);
        let (r, lo, hi) = c.r();
        let mut out = row!("theta1" => t1, "theta2" => t2, "games" => games, "wins1" => t.wins1, "wins2" => t.wins2,
                           "draws" => t.draws, "r" => r, "r_ci_lo" => lo, "r_ci_hi" => hi,
                           "r_raw" => i64::from(t.wins1) - i64::from(t.wins2),
                           "positions1" => t.positions[0], "positions2" => t.positions[1],
                           "costs" => self.costs_label(diagnostic));
        if let Some(s) = sizes {
            let n = s.positions.max(1) as f64;
            out.insert("ab_nodes_mean".into(), json!(s.restricted as f64 / n));
            out.insert("full_nodes_mean".into(), json!(s.full as f64 / n));
        }
        Ok(vec![out])
    }
    fn finish(&self, scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let (t1s, t2s) = self.thetas();
        let mut grid = Grid { t1s: t1s.to_vec(), t2s: t2s.to_vec(), cells: Vec::new() };
        let mut rows = Vec::new();
        let mut sizes = (0.0, 0.0, 0usize);
        for (i, &a) in t1s.iter().enumerate() {
            grid.cells.push(Vec::new());
            for &b in t2s {
                let id = Self::cell_id(a, b);
                let r = cells
                    .iter()
                    .find(|(c, _)| *c == id)
                    .and_then(|(_, r)| r.first())
                    .ok_or_else(|| format!("missing cell {id}"))?;
                grid.cells[i].push(CellStat::from_row(r).ok_or_else(|| format!("bad row in {id}"))?);
                if let (Some(x), Some(y)) =
                    (r.get("ab_nodes_mean").and_then(Value::as_f64), r.get("full_nodes_mean").and_then(Value::as_f64))
                {
                    sizes = (sizes.0 + x, sizes.1 + y, sizes.2 + 1);
                }
                rows.push(r.clone());
            }
        }
        rows.extend(cells.iter().filter(|(c, _)| c.starts_with(FIG3_PREFIX)).flat_map(|(_, r)| r.iter().cloned()));
        let games = self.games(scale);
        // The grid as a table: a row per θ₂ (as the paper's curves), a column per θ₁.
        let mut header = vec!["θ₂ \\ θ₁".to_string()];
        header.extend(t1s.iter().map(|t| format!("{t}")));
        let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let lines: Vec<Vec<String>> = t2s
            .iter()
            .enumerate()
            .map(|(j, &b)| {
                let mut l = vec![format!("{b}")];
                l.extend((0..t1s.len()).map(|i| {
                    let c = grid.at(i, j);
                    format!("{} d{:.0}%", fmt_r(c), 100.0 * c.draw_share())
                }));
                l
            })
            .collect();
        let mut md = format!(
            "r = (wins of π₁) − (wins of π₂) per 100 games (π₁ moves first), over {games} games per cell (the paper: 100), \
             with its 95% interval; `dN%` is the share of draws. The paper prints its figure only as curves (not in the \
             text), so there are no numbers to compare: the verdicts test the paper's stated claims against our data.\n\n"
        );
        md.push_str(&table(&header_refs, &lines));
        md.push('\n');
        let rise = grid.trend(true);
        let fall = grid.trend(false);
        let (i_hi, i_lo, j_lo, j_hi) = (t1s.len() - 1, 0, 0, t2s.len() - 1);
        let strong_beats_weak = grid.at(i_hi, j_lo);
        let weak_loses = grid.at(i_lo, j_hi);
        let mut v = vec![
            format!("- \"r increases with θ₁\" (each curve rises): {} ({}).", rise.verdict(), rise.details.join("; ")),
            format!(
                "- \"r decreases with θ₂\" (higher curves for weaker π₂): {} ({}).",
                fall.verdict(),
                fall.details.join("; ")
            ),
            format!(
                "- \"θ₁ ≫ θ₂: π₁ wins\": r(θ₁ = {}, θ₂ = {}) = {}: **{}**.",
                t1s[i_hi],
                t2s[j_lo],
                fmt_r(strong_beats_weak),
                if strong_beats_weak.r().1 > 0.0 { "reproduced" } else { "not reproduced" }
            ),
            format!(
                "- \"θ₁ ≪ θ₂: π₂ leads\": r(θ₁ = {}, θ₂ = {}) = {}: **{}**.",
                t1s[i_lo],
                t2s[j_hi],
                fmt_r(weak_loses),
                if weak_loses.r().2 < 0.0 {
                    "reproduced"
                } else if weak_loses.r().0 < 0.0 {
                    "not significant (r < 0 but the interval includes 0)"
                } else {
                    "not reproduced: π₁'s first move outweighs π₂'s strength here"
                }
            ),
        ];
        let diag = grid.diagonal();
        let diag_text: Vec<String> =
            diag.iter().map(|(t, c)| format!("θ = {t}: {} ({:.0}% draws)", fmt_r(c), 100.0 * c.draw_share())).collect();
        let first_ahead = diag.iter().filter(|(_, c)| c.r().1 > 0.0).count();
        let first_behind = diag.iter().filter(|(_, c)| c.r().2 < 0.0).count();
        match self {
            Figure::TicTacToe => {
                v.push(format!(
                    "- \"π₁ has an advantage by moving first\" (equal strengths): {}: **{}** ({first_ahead} of {} \
                     significantly > 0, {first_behind} significantly < 0).",
                    diag_text.join("; "),
                    if first_behind == 0 && first_ahead > 0 { "reproduced" } else { "not reproduced" },
                    diag.len()
                ));
                let (_, top) = diag.last().copied().ok_or("empty diagonal")?;
                v.push(format!(
                    "- Draws dominate when both play well (tic-tac-toe is a draw; θ = ∞ is minimax): {:.0}% draws at \
                     θ₁ = θ₂ = {}: **{}**.",
                    100.0 * top.draw_share(),
                    t1s[i_hi],
                    if top.draw_share() > 0.5 { "reproduced" } else { "not reproduced" }
                ));
            }
            Figure::Connect4 | Figure::Connect4Ab => {
                v.push(format!(
                    "- \"The relative advantage of π₁ is not as clear as in tic-tac-toe\"{}: at equal θ, {} ({first_ahead} \
                     of {} significantly > 0, {first_behind} significantly < 0); compare the diagonal of \
                     `rminimax-fig2-tictactoe`{}.",
                    if *self == Figure::Connect4Ab { " (Fig. 4: \"even smaller\" than Fig. 3)" } else { "" },
                    diag_text.join("; "),
                    diag.len(),
                    if *self == Figure::Connect4Ab { " and of `rminimax-fig3-connect4`" } else { "" }
                ));
                // "Significantly lower values of θ are needed": how much of the
                // change happens between the two smallest θ₁.
                let low: Vec<String> = (0..t2s.len())
                    .map(|j| format!("{:+.0}", 100.0 * (grid.at(1, j).mean - grid.at(0, j).mean)))
                    .collect();
                let sig = (0..t2s.len()).filter(|&j| z_diff(grid.at(0, j), grid.at(1, j)).abs() > Z95).count();
                v.push(format!(
                    "- \"Significantly lower values of θ are needed\" than in tic-tac-toe: already between θ₁ = {} and {} \
                     r changes by {} (per θ₂), significantly in {sig} of {} curves. This depends on the cost units: our \
                     costs are in the heuristic's own units (R = {HEURISTIC_BOUND}, so differences of several units \
                     between moves), which makes θ ≈ 0.1 already selective, as the paper observes.",
                    t1s[0],
                    t1s[1],
                    low.join(", "),
                    t2s.len()
                ));
                if *self == Figure::Connect4Ab {
                    let weak2 = grid.at(0, 0);
                    v.push(format!(
                        "- \"A smaller θ₂ allows π₂ winning as θ₁ decreases\": at θ₂ = {}, r(θ₁ = {}) = {}: **{}**.",
                        t2s[0],
                        t1s[0],
                        fmt_r(weak2),
                        if weak2.r().2 < 0.0 {
                            "reproduced"
                        } else if weak2.r().0 < 0.0 {
                            "not significant (r < 0, interval includes 0)"
                        } else {
                            "not reproduced"
                        }
                    ));
                    // The contrasts with Fig. 3, on Fig. 3's search replayed here.
                    let reference = |t1: f64, t2: f64| -> Result<CellStat, String> {
                        let id = format!("{FIG3_PREFIX}{}", Self::cell_id(t1, t2));
                        let r = cells
                            .iter()
                            .find(|(c, _)| *c == id)
                            .and_then(|(_, r)| r.first())
                            .ok_or_else(|| format!("missing cell {id}"))?;
                        CellStat::from_row(r).ok_or_else(|| format!("bad row in {id}"))
                    };
                    let r3 = reference(t1s[0], t2s[0])?;
                    let contrast = if r3.r().2 < 0.0 {
                        Verdict::NotReproduced
                    } else {
                        verdict::above(-weak2.r().2, -weak2.r().1, 0.0, 5.0)
                    };
                    v.push(format!(
                        "- \"In contrast to the former case\" (Fig. 3 without pruning, same θ₁ = {}, θ₂ = {}): Fig. 3's \
                         search gives r = {} — π₂ {} there too: the contrast is **{contrast}** (rule: reproduced only if \
                         Fig. 4's r is below 0 and Fig. 3's is not).",
                        t1s[0],
                        t2s[0],
                        fmt_r(&r3),
                        if r3.r().2 < 0.0 { "wins" } else { "does not win" },
                    ));
                    let mut parts = Vec::new();
                    let mut texts = Vec::new();
                    for &t in &[0.1, 10.0] {
                        let (i, j) = (Grid::index(t1s, t).ok_or("θ")?, Grid::index(t2s, t).ok_or("θ")?);
                        let (c4, c3) = (grid.at(i, j), reference(t, t)?);
                        let d = 100.0 * (c4.mean - c3.mean);
                        let se = 100.0 * (c4.se * c4.se + c3.se * c3.se).sqrt();
                        // The claim: Fig. 4's diagonal r is below Fig. 3's.
                        let part = verdict::above(-(d + Z95 * se), -(d - Z95 * se), 0.0, 5.0);
                        parts.push(part);
                        texts.push(format!(
                            "θ = {t}: Fig. 4 {} vs Fig. 3 {}, difference {d:+.0} [{:+.0}, {:+.0}] ({part})",
                            fmt_r(c4),
                            fmt_r(&c3),
                            d - Z95 * se,
                            d + Z95 * se
                        ));
                    }
                    v.push(format!(
                        "- \"The relative advantage of π₁ is even smaller\" than in Fig. 3 (equal θ, the difference of r \
                         below 0, smallest effect 5 per 100 games): {}: **{}**.",
                        texts.join("; "),
                        verdict::combine(parts)
                    ));
                    if sizes.2 > 0 {
                        let (ab, full) = (sizes.0 / sizes.2 as f64, sizes.1 / sizes.2 as f64);
                        v.push(format!(
                            "- Tree sizes: alpha-beta visited {ab:.0} nodes per searched position on average, of \
                             {full:.0} in the full 5-ply tree ({:.0}%); Rminimax randomizes only over the visited subtree.",
                            100.0 * ab / full
                        ));
                    }
                }
            }
        }
        md.push_str("\nVerdicts (tests at 95%, normal approximation; many tests, so an occasional single step is expected by chance):\n\n");
        md.push_str(&v.join("\n"));
        md.push('\n');
        if *self == Figure::TicTacToe {
            md.push_str(&format!(
                "\nCosts: unit cost per play; the arc into a won / drawn / lost game costs 0 / {TTT_DRAW_COST} / {} (a draw \
                 costs more than the 8 interior plies of the longest game, so the outcome always dominates the length). \
                 θ multiplies cost differences, so this ×10 scale (against 0 / 1 / 2) shifts the θ axis by a factor 10: \
                 from θ ≈ 1 on, play is close to minimax here.\n",
                2.0 * TTT_DRAW_COST
            ));
            if let Some((_, r)) = cells.iter().find(|(c, _)| c == DEFAULT_COSTS_CELL)
                && let Some(r) = r.first()
                && let Some(c) = CellStat::from_row(r)
            {
                rows.push(r.clone());
                md.push_str(&format!(
                    "\nDiagnostic: with the library's default terminal costs 0 / 1 / 2 (plus 1 per play), a loss after 6 \
                     plies (cost 7) is cheaper than a draw after 9 (cost 9), and at θ₁ = θ₂ = 10 the players throw games: \
                     r = {} with {:.0}% draws (row `costs` = \"{}\"). The grid above does not use these costs.\n",
                    fmt_r(&c),
                    100.0 * c.draw_share(),
                    self.costs_label(true)
                ));
            }
        }
        if *self != Figure::TicTacToe {
            md.push_str(&format!(
                "\nCosts: unit cost per play; the arc into a won / drawn / lost game costs 0 / R / 2R and into a horizon \
                 node R − h, with h the paper's heuristic as we read it (`Connect4LinesEval`: lines each side can still \
                 complete plus the weights of the empty cells on them; mover's view) and R = {HEURISTIC_BOUND} (the \
                 largest |h| on 4×4, so nothing is clipped).\n"
            ));
        }
        if *self == Figure::Connect4Ab {
            md.push_str(
                "\nThe pruned tree: plain alpha-beta (game ordering, no table) searches the 5-ply tree with a search \
                 observer that records every node the search enters (identified by its path from the root); \
                 Rminimax then searches with an observer that keeps only the recorded children of every node.\n",
            );
        }
        let values: Vec<Vec<f64>> =
            (0..t2s.len()).map(|j| (0..t1s.len()).map(|i| grid.at(i, j).r().0).collect()).collect();
        let xl: Vec<String> = t1s.iter().map(|t| format!("{t}")).collect();
        let yl: Vec<String> = t2s.iter().map(|t| format!("{t}")).collect();
        let title = format!("{}: r per 100 games ({games} games per cell)", self.source());
        let svg = heatmap(&title, "θ₁ (π₁, first)", "θ₂ (π₂)", &xl, &yl, &values, (-100.0, 100.0))?;
        Ok(Finished { rows, markdown: md, svg: Some(svg) })
    }
}
