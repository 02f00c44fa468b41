//! Reibman and Ballard, "Non-minimax search strategies for use against
//! fallible opponents" (AAAI-83, seed 001): the forced-loss example of
//! Fig. 1, the average payoffs of Table 1 and the improvement summary of
//! Table 2.
//!
//! Set-up (our reading, `docs/paper-readings.md`): complete arc-sum trees with Br = 4, D = 5,
//! arcs uniform in 0..=10; Max (the first player) moves at plies 1, 3 and 5
//! and re-searches at every move; Min is the library's
//! [`NoisyPlayer`] (2-ply values divided by 75, uniform noise in `[0, S]`).
//!
//! Common random numbers: a cell is a batch of trees, and every strategy
//! and every noise column plays the same trees. Min's noise at a node is
//! drawn from a generator seeded by the tree and the node, so two
//! strategies that reach the same Min node see the same noise there (and the
//! columns differ only in the scale `S` of the same draws).

use std::collections::HashMap;

use search_core::backup::{Backup, Minimax, Predictive, PsWeights};
use search_core::opponent::NoisyPlayer;
use search_core::rng::{self, derive_seed};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, Game, Player, Status, Turn};
use serde_json::{Value, json};

use crate::reproduce::output::table;
use crate::reproduce::stats::{ci95, mean_se, paired_confidence};
use crate::reproduce::verdict::{self, Tally, Verdict};
use crate::reproduce::{Experiment, Finished, Row, Scale, row};

/// The noise ranges `S` of Table 1's columns.
const NOISES: [f64; 7] = [0.0, 0.25, 0.5, 0.75, 1.0, 2.0, 6.0];
/// The predicted strengths of Table 1's predictive rows.
const PS: [f64; 9] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];
/// Branching factor, depth and largest arc value of the trees.
const BRANCHING: u8 = 4;
const DEPTH: u8 = 5;
const MAX_ARC: u32 = 10;
/// Trees per cell.
const BATCH: u64 = 100;

/// Table 1 as printed: rows 1-, 2-, 3-ply minimax, then PS = 0.9 … 0.1;
/// columns the noise ranges of [`NOISES`].
const PAPER_TABLE1: [[f64; 7]; 12] = [
    [27.23, 30.60, 32.34, 33.13, 33.62, 34.14, 34.58],
    [28.15, 31.29, 32.90, 33.46, 33.90, 34.47, 34.76],
    [28.98, 32.05, 33.36, 33.96, 34.31, 34.65, 35.01],
    [28.21, 31.40, 33.03, 33.62, 34.03, 34.58, 34.91],
    [28.21, 31.40, 33.03, 33.62, 34.03, 34.58, 34.92],
    [28.21, 31.40, 33.02, 33.62, 34.04, 34.58, 34.92],
    [28.21, 31.40, 33.02, 33.62, 34.05, 34.60, 34.95],
    [28.20, 31.41, 33.05, 33.66, 34.10, 34.66, 35.00],
    [28.20, 31.42, 33.10, 33.70, 34.15, 34.72, 35.07],
    [28.17, 31.41, 33.11, 33.75, 34.19, 34.99, 35.12],
    [28.13, 31.40, 33.13, 33.77, 34.22, 34.83, 35.16],
    [28.08, 31.39, 33.14, 33.79, 34.24, 34.85, 35.19],
];
/// The probable misprint (PS = 0.3, noise 2.00) and the value Table 2 implies.
const MISPRINT: (usize, usize, f64) = (9, 5, 34.85);
/// The noise-free column of the reference simulation made while
/// settling our reading of the paper (10⁶ trees; `docs/paper-readings.md`) for 1-, 2- and 3-ply minimax.
const REFERENCE_NOISE_FREE: [f64; 3] = [27.22, 28.20, 28.99];
/// The tolerance of a Table 1 cell (payoff units): the paper prints two
/// decimals from a sample of unstated size; 0.25 is about three standard
/// errors of a simulation of a few thousand trees (ours: 0.05–0.08 at 5000).
const TABLE1_TOL: f64 = 0.25;
/// The relative tolerance of a Table 2 percentage: 25% of the printed value
/// (the percentages divide by differences of 0.1–0.8 payoff units, so the
/// paper's own rounding and sampling move them by that much).
const TABLE2_REL_TOL: f64 = 0.25;
/// The tolerance of the exact Fig. 1 and 2 expectations (the paper prints
/// them to two decimals), and of the simulated ones relative to the paper's.
const FIG_TOL: f64 = 0.005;
const FIG_SIM_REL_TOL: f64 = 0.05;
/// Table 2 as printed (noise 0.00 … 2.00; no 6.00 column).
const PAPER_TABLE2_IMPROVEMENT: [f64; 6] = [7.2, 17.1, 52.1, 66.0, 82.9, 211.0];
const PAPER_TABLE2_CONFIDENCE: [f64; 6] = [58.2, 82.9, 98.2, 99.8, 99.8, 99.8];

/// One of Max's strategies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Strategy {
    /// d-ply minimax.
    Minimax(u32),
    /// 2-ply predictive play with this PS.
    Predictive(f64),
}

impl Strategy {
    /// Table 1's rows, in order.
    fn all() -> Vec<Strategy> {
        let mut v: Vec<Strategy> = (1..=3).map(Strategy::Minimax).collect();
        v.extend(PS.iter().map(|&p| Strategy::Predictive(p)));
        v
    }

    fn label(self) -> String {
        match self {
            Strategy::Minimax(d) => format!("{d}-ply minimax"),
            Strategy::Predictive(p) => format!("2-ply PS = {p:.1}"),
        }
    }

    /// The row of Table 1.
    fn row_index(self) -> usize {
        match self {
            Strategy::Minimax(d) => d as usize - 1,
            Strategy::Predictive(p) => 3 + PS.iter().position(|&q| q == p).expect("a tabulated PS"),
        }
    }
}

/// A set-up variant: the main one and the two other readings
/// reported beside it (`docs/paper-readings.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Divisor 75, normalised PS weights.
    Main,
    /// Divisor 75, PS weights as printed (not summing to one).
    Unnormalised,
    /// The literal reading of the normalisation: divide by the game range 50.
    Divisor50,
}

impl Variant {
    const ALL: [Variant; 3] = [Variant::Main, Variant::Unnormalised, Variant::Divisor50];

    fn name(self) -> &'static str {
        match self {
            Variant::Main => "main",
            Variant::Unnormalised => "unnormalised",
            Variant::Divisor50 => "divisor50",
        }
    }

    fn divisor(self) -> f64 {
        match self {
            Variant::Divisor50 => 50.0,
            _ => 75.0,
        }
    }

    fn weights(self) -> PsWeights {
        match self {
            Variant::Unnormalised => PsWeights::Unnormalised,
            _ => PsWeights::Normalised,
        }
    }

    /// The strategies played under this variant (the minimax rows do not
    /// depend on the PS weights, so the unnormalised variant has PS rows
    /// only).
    fn strategies(self) -> Vec<Strategy> {
        let all = Strategy::all();
        match self {
            Variant::Unnormalised => all.into_iter().filter(|s| matches!(s, Strategy::Predictive(_))).collect(),
            _ => all,
        }
    }
}

/// Max's search for one strategy and weight scheme.
enum MaxSearch {
    Minimax(Search<RandomTree, Minimax, RandomTreeEval>, Limits),
    Predictive(Search<RandomTree, Predictive, RandomTreeEval>, Limits),
}

impl MaxSearch {
    fn new(strategy: Strategy, weights: PsWeights) -> Result<Self, String> {
        let eval = RandomTreeEval::default();
        Ok(match strategy {
            Strategy::Minimax(d) => MaxSearch::Minimax(
                Search::new(Minimax, eval, Options::full_width()).map_err(|e| e.to_string())?,
                Limits::depth(d),
            ),
            Strategy::Predictive(ps) => {
                let rule = Predictive::new(ps).map_err(|e| e.to_string())?.with_weights(weights);
                MaxSearch::Predictive(
                    Search::new(rule, eval, Options::full_width()).map_err(|e| e.to_string())?,
                    Limits::depth(2),
                )
            }
        })
    }

    /// Max's move: the first best move in the game's order (ties by move
    /// order; see `docs/paper-readings.md`).
    fn decide(&mut self, state: &RandomTree) -> Result<u8, String> {
        let r = match self {
            MaxSearch::Minimax(s, l) => s.run(state, l).map(|r| r.best),
            MaxSearch::Predictive(s, l) => s.run(state, l).map(|r| r.best),
        }
        .map_err(|e| e.to_string())?;
        r.ok_or_else(|| "no move at a Max node".to_string())
    }
}

/// The generator of Min's noise at `node` of a tree: a function of the tree
/// and the node only (common random numbers across strategies and columns).
fn noise_rng(noise_seed: u64, node: u64) -> rng::Rng {
    rng::seeded(derive_seed(noise_seed, node))
}

/// Plays one game on `tree`: Max re-searches at each of its moves (decisions
/// memoised per node in `memo`), Min is `min`. Returns the leaf reached.
fn play_tree(
    tree: &RandomTree,
    max: &mut MaxSearch,
    memo: &mut HashMap<u64, u8>,
    min: &mut NoisyPlayer<RandomTree, RandomTreeEval>,
    noise_seed: u64,
) -> Result<f64, String> {
    let mut s = *tree;
    while s.ply() < s.depth() {
        let mv = match s.turn() {
            Turn::Player(Player::First) => match memo.get(&s.node_id()) {
                Some(&m) => m,
                None => {
                    let m = max.decide(&s)?;
                    memo.insert(s.node_id(), m);
                    m
                }
            },
            _ => min.choose(&s, &mut noise_rng(noise_seed, s.node_id())).map_err(|e| e.to_string())?,
        };
        s.play(mv);
    }
    Ok(s.static_value())
}

/// The tree of index `i` of a cell.
fn tree(cell_seed: u64, i: u64) -> Result<(RandomTree, u64), String> {
    let tree_seed = derive_seed(cell_seed, i);
    let t = RandomTree::new(tree_seed, BRANCHING, DEPTH, LeafModel::ArcSum { max_arc: MAX_ARC })
        .map_err(|e| e.to_string())?;
    Ok((t, derive_seed(tree_seed, 0x0015_E5ED)))
}

/// Payoffs of one batch: `(variant, strategy) → per noise → per tree`.
pub type Payoffs = Vec<((Variant, Strategy), Vec<Vec<f64>>)>;

/// Plays every selected (variant, strategy) against every noise column on
/// `trees` trees of the cell.
pub fn run_batch(cell_seed: u64, trees: u64, variants: &[(Variant, Vec<Strategy>)]) -> Result<Payoffs, String> {
    let mut out: Payoffs = Vec::new();
    // One search per (weights, strategy); memo keyed the same way: Max's
    // decision does not depend on the divisor or the noise.
    let mut searches: Vec<(PsWeights, Strategy, MaxSearch, HashMap<u64, u8>)> = Vec::new();
    for (variant, strategies) in variants {
        for &s in strategies {
            out.push(((*variant, s), vec![Vec::with_capacity(trees as usize); NOISES.len()]));
            let w = variant.weights();
            if !searches.iter().any(|(ww, ss, _, _)| *ww == w && *ss == s) {
                searches.push((w, s, MaxSearch::new(s, w)?, HashMap::new()));
            }
        }
    }
    let mut mins: Vec<(f64, Vec<NoisyPlayer<RandomTree, RandomTreeEval>>)> = Vec::new();
    for (variant, _) in variants {
        let d = variant.divisor();
        if !mins.iter().any(|(dd, _)| *dd == d) {
            let players = NOISES
                .iter()
                .map(|&n| {
                    NoisyPlayer::new(RandomTreeEval::default(), n)
                        .and_then(|p| p.with_divisor(d))
                        .map_err(|e| e.to_string())
                })
                .collect::<Result<Vec<_>, _>>()?;
            mins.push((d, players));
        }
    }
    for i in 0..trees {
        let (t, noise_seed) = tree(cell_seed, i)?;
        for (_, _, _, memo) in &mut searches {
            memo.clear();
        }
        for ((variant, strategy), per_noise) in &mut out {
            let w = variant.weights();
            let (_, _, search, memo) =
                searches.iter_mut().find(|(ww, ss, _, _)| *ww == w && ss == strategy).expect("made above");
            let (_, players) = mins.iter_mut().find(|(d, _)| *d == variant.divisor()).expect("made above");
            for (k, min) in players.iter_mut().enumerate() {
                per_noise[k].push(play_tree(&t, search, memo, min, noise_seed)?);
            }
        }
    }
    Ok(out)
}

/// A list of payoffs as a row's text field (comma-separated).
pub fn encode(xs: &[f64]) -> String {
    xs.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(",")
}

/// The payoffs [`encode`] wrote.
pub fn decode(s: &str) -> Result<Vec<f64>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(',').map(|x| x.parse::<f64>().map_err(|e| format!("bad payoff {x:?}: {e}"))).collect()
}

fn batch_rows(p: Payoffs) -> Vec<Row> {
    let mut rows = Vec::new();
    for ((variant, strategy), per_noise) in p {
        for (k, xs) in per_noise.iter().enumerate() {
            rows.push(row!("variant" => variant.name(), "strategy" => strategy.label(), "noise" => NOISES[k],
                           "trees" => xs.len(), "payoffs" => encode(xs)));
        }
    }
    rows
}

/// Every cell's payoffs concatenated in cell order (the same trees for every
/// key, so the vectors are paired).
/// `(variant, strategy, noise index) → payoffs`, paired over the trees.
type Collected = HashMap<(String, String, usize), Vec<f64>>;

fn collect(cells: &[(String, Vec<Row>)]) -> Result<Collected, String> {
    let mut all = Collected::new();
    for (cell, rows) in cells {
        for r in rows {
            let get = |k: &str| r.get(k).and_then(Value::as_str).ok_or_else(|| format!("{cell}: row without {k}"));
            let noise = r.get("noise").and_then(Value::as_f64).ok_or_else(|| format!("{cell}: row without noise"))?;
            let k = NOISES.iter().position(|&n| n == noise).ok_or_else(|| format!("{cell}: noise {noise}"))?;
            let key = (get("variant")?.to_string(), get("strategy")?.to_string(), k);
            all.entry(key).or_default().extend(decode(get("payoffs")?)?);
        }
    }
    Ok(all)
}

fn trees_for(scale: Scale) -> u64 {
    scale.pick(1000, 5000, 20_000)
}

fn batch_cells(scale: Scale) -> Vec<String> {
    (0..trees_for(scale).div_ceil(BATCH)).map(|b| format!("trees-{b:04}")).collect()
}

fn batch_size(scale: Scale, cell: &str) -> Result<u64, String> {
    let b: u64 =
        cell.strip_prefix("trees-").and_then(|b| b.parse().ok()).ok_or_else(|| format!("unknown cell {cell}"))?;
    let total = trees_for(scale);
    if b * BATCH >= total {
        return Err(format!("cell {cell} beyond {total} trees"));
    }
    Ok(BATCH.min(total - b * BATCH))
}

fn table_params(scale: Scale) -> Value {
    json!({ "trees": trees_for(scale), "trees_per_cell": BATCH, "branching": BRANCHING, "depth": DEPTH,
            "arc_values": format!("0..={MAX_ARC}"), "noises": NOISES, "ps": PS, "min_plies": 2,
            "divisor": 75, "extra_variants": ["unnormalised PS weights", "divisor 50"],
            "max_ties": "first in move order", "min_noise": "uniform [0, S] per child, seeded by tree and node" })
}

// ---------------------------------------------------------------- Fig. 1 --

/// `reibman-fig1` (the forced loss of Fig. 1) and `reibman-fig2` (the
/// fallible opponent of Fig. 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fig1 {
    One,
    Two,
}

/// Fig. 1's tree (the paper's).
pub const FIG1_TREE: &str = "max(min(0, 0), min(0, 1))";
/// Fig. 2's tree is not in the text: the smallest tree giving its numbers
/// (`docs/paper-readings.md`).
pub const FIG2_TREE: &str = "max(min(2, 3), min(1, 20))";
const FIG1_ERROR: f64 = 0.1;

impl Fig1 {
    fn tree(self) -> &'static str {
        match self {
            Fig1::One => FIG1_TREE,
            Fig1::Two => FIG2_TREE,
        }
    }
    /// The paper's expected payoffs of minimax and predictive play.
    fn paper(self) -> [(&'static str, f64); 2] {
        match self {
            Fig1::One => [("minimax", 0.05), ("predictive", 0.1)],
            Fig1::Two => [("minimax", 2.1), ("predictive", 2.9)],
        }
    }
    fn games(scale: Scale) -> u64 {
        scale.pick(20_000, 100_000, 1_000_000)
    }
    fn batches(scale: Scale) -> u64 {
        scale.pick(1, 4, 10)
    }
}

/// Max's strategies of Fig. 1 and the root moves each may play (a uniform
/// choice among them: the tied best moves).
/// `(strategy, root moves it may play, root value)`.
pub type Fig1Choice = (&'static str, Vec<u32>, f64);

/// The [`Fig1Choice`] of each of Max's strategies on `tree`.
pub fn fig1_choices(tree: &str) -> Result<Vec<Fig1Choice>, String> {
    let t: LiteralTree = tree.parse().map_err(|e: search_core::GameError| e.to_string())?;
    /// The tied best root moves and the root value of a full-width search.
    fn solve<R: Backup>(t: &LiteralTree, rule: R) -> Result<(Vec<u32>, f64), String> {
        let mut search = Search::new(rule, LiteralEval, Options::full_width()).map_err(|e| e.to_string())?;
        let r = search.run(t, &Limits::full_tree()).map_err(|e| e.to_string())?;
        Ok((r.best_moves, r.value.ok_or("an incomplete search")?))
    }
    let (mm_best, mm_value) = solve(&t, Minimax)?;
    let (pr_best, pr_value) = solve(&t, Predictive::new(1.0 - FIG1_ERROR).map_err(|e| e.to_string())?)?;
    Ok(vec![("minimax", mm_best, mm_value), ("predictive", pr_best, pr_value)])
}

/// Min's move distribution at a Min node: the best (lowest) child with
/// probability 1 − error, the others sharing the error (first lowest on ties).
fn fig1_min_probs(state: &LiteralTree) -> Result<Vec<(u32, f64)>, String> {
    let mut moves = Vec::new();
    state.generate(&mut moves);
    let leaf = |mv: u32| {
        let mut c = state.clone();
        c.play(mv);
        match c.status() {
            Status::Over(o) => Ok(o.value_for(Player::First, 1.0)),
            Status::Ongoing => Err("Figs. 1 and 2 have leaves below the Min nodes".to_string()),
        }
    };
    let values: Vec<f64> = moves.iter().map(|&m| leaf(m)).collect::<Result<_, _>>()?;
    let best = (0..values.len()).fold(0, |b, i| if values[i] < values[b] { i } else { b });
    let n = moves.len();
    Ok(moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            (
                m,
                if n == 1 {
                    1.0
                } else if i == best {
                    1.0 - FIG1_ERROR
                } else {
                    FIG1_ERROR / (n - 1) as f64
                },
            )
        })
        .collect())
}

/// The exact expected payoff of playing uniformly among `choices`.
pub fn fig1_exact(tree: &str, choices: &[u32]) -> Result<f64, String> {
    let t: LiteralTree = tree.parse().map_err(|e: search_core::GameError| e.to_string())?;
    let mut total = 0.0;
    for &mv in choices {
        let mut s = t.clone();
        s.play(mv);
        for (m, p) in fig1_min_probs(&s)? {
            let mut leaf = s.clone();
            leaf.play(m);
            if let Status::Over(o) = leaf.status() {
                total += p * o.value_for(Player::First, 1.0) / choices.len() as f64;
            }
        }
    }
    Ok(total)
}

impl Experiment for Fig1 {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        match self {
            Fig1::One => "reibman-fig1",
            Fig1::Two => "reibman-fig2",
        }
    }
    fn source(&self) -> &'static str {
        match self {
            Fig1::One => "seed 001 (Reibman & Ballard), Fig. 1",
            Fig1::Two => "seed 001 (Reibman & Ballard), Fig. 2",
        }
    }
    fn description(&self) -> &'static str {
        match self {
            Fig1::One => {
                "forced loss: expected payoff of minimax (random tie) vs predictive play against a Min erring 10%"
            }
            Fig1::Two => "a fallible Min (correct 90%): minimax's choice expects 2.1, predictive play's 2.9",
        }
    }
    fn params(&self, scale: Scale) -> Value {
        json!({ "tree": self.tree(), "min_error": FIG1_ERROR, "predictive_ps": 1.0 - FIG1_ERROR,
                "simulated_games_per_strategy": Self::games(scale), "batches": Self::batches(scale) })
    }
    fn cells(&self, scale: Scale) -> Vec<String> {
        let mut c = vec!["exact".to_string()];
        c.extend((0..Self::batches(scale)).map(|b| format!("sim-{b}")));
        c
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let choices = fig1_choices(self.tree())?;
        if cell == "exact" {
            return choices
                .iter()
                .map(|(name, moves, value)| {
                    Ok(row!("cell" => "exact", "strategy" => *name, "expected" => fig1_exact(self.tree(), moves)?,
                            "root_value" => *value, "choices" => moves.len(),
                            "plays_right" => moves.iter().filter(|&&m| m == 1).count() as f64 / moves.len() as f64))
                })
                .collect();
        }
        let batch: u64 = cell.strip_prefix("sim-").and_then(|b| b.parse().ok()).ok_or("unknown cell")?;
        if batch >= Self::batches(scale) {
            return Err(format!("cell {cell} beyond the batches"));
        }
        let n = Self::games(scale) / Self::batches(scale);
        let t: LiteralTree = self.tree().parse().map_err(|e: search_core::GameError| e.to_string())?;
        let mut rows = Vec::new();
        for (k, (name, moves, _)) in choices.iter().enumerate() {
            let mut r = rng::seeded(derive_seed(seed, k as u64));
            let (mut sum, mut sumsq) = (0.0, 0.0);
            for _ in 0..n {
                let mv = moves[rand::Rng::random_range(&mut r, 0..moves.len())];
                let mut s = t.clone();
                s.play(mv);
                let probs = fig1_min_probs(&s)?;
                let w: Vec<f64> = probs.iter().map(|p| p.1).collect();
                s.play(probs[search_core::rng::sample_index(&w, &mut r)].0);
                let x = match s.status() {
                    Status::Over(o) => o.value_for(Player::First, 1.0),
                    Status::Ongoing => return Err("game not over".into()),
                };
                sum += x;
                sumsq += x * x;
            }
            rows.push(row!("cell" => cell, "strategy" => *name, "games" => n, "sum" => sum, "sumsq" => sumsq));
        }
        Ok(rows)
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let paper = self.paper();
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        let mut verdicts = Vec::new();
        for (name, paper_expected) in paper {
            let exact_row = cells
                .iter()
                .flat_map(|(_, r)| r)
                .find(|r| r["cell"] == "exact" && r["strategy"] == name)
                .ok_or("no exact row")?;
            let exact = exact_row["expected"].as_f64().unwrap_or(f64::NAN);
            let (mut n, mut sum, mut sumsq) = (0.0, 0.0, 0.0);
            for r in cells.iter().flat_map(|(_, r)| r).filter(|r| r["cell"] != "exact" && r["strategy"] == name) {
                n += r["games"].as_f64().unwrap_or(0.0);
                sum += r["sum"].as_f64().unwrap_or(0.0);
                sumsq += r["sumsq"].as_f64().unwrap_or(0.0);
            }
            let mean = sum / n;
            let se = ((sumsq / n - mean * mean).max(0.0) / (n - 1.0)).sqrt();
            let (lo, hi) = ci95(mean, se);
            rows.push(row!("strategy" => name, "expected" => exact, "paper_expected" => paper_expected,
                           "root_value" => exact_row["root_value"].clone(),
                           "plays_right" => exact_row["plays_right"].clone(),
                           "simulated" => mean, "simulated_stderr" => se, "ci_lo" => lo, "ci_hi" => hi, "games" => n));
            lines.push(vec![
                name.to_string(),
                format!("{:.4}", exact_row["root_value"].as_f64().unwrap_or(f64::NAN)),
                format!("{:.2}", exact_row["plays_right"].as_f64().unwrap_or(f64::NAN)),
                format!("{exact:.4}"),
                format!("{mean:.4} [{lo:.4}, {hi:.4}]"),
                format!("{paper_expected}"),
            ]);
            verdicts.push(format!(
                "- {name}: exact expectation: {}; simulation over {n:.0} games: {}.",
                verdict::number_text(exact, 0.0, paper_expected, FIG_TOL, 4),
                verdict::number_text(mean, se, paper_expected, FIG_SIM_REL_TOL * paper_expected, 4),
            ));
        }
        let mut md = format!(
            "Tree `{}` (Max at the root){}; Min plays its best child with probability 0.9.\n\n",
            self.tree(),
            if *self == Fig1::Two {
                ": the figure is not in the text, this is the smallest tree giving its two numbers \
                 (`docs/paper-readings.md`)"
            } else {
                ""
            }
        );
        md.push_str(&table(
            &["Max plays", "root value", "P(right branch)", "expected payoff (exact)", "simulated [95% CI]", "paper"],
            &lines,
        ));
        md.push_str(match self {
            Fig1::One => {
                "\nThe predictive player here is the library's `Predictive` rule with PS = 0.9 and normalised \
                     weights: it values the right Min node at 0.09/0.99 = 0.0909 (the paper's chance-node reading \
                     0.9·0 + 0.1·1 = 0.1 gives the same choice). Minimax sees two zeros and picks either at random.\n\n"
            }
            Fig1::Two => {
                "\nMinimax values the Min nodes 2 and 1 and plays left (expected 0.9·2 + 0.1·3 = 2.1); the \
                     library's `Predictive` rule with PS = 0.9 (normalised weights) values them (0.9·2 + 0.09·3)/0.99 \
                     = 2.09 and (0.9·1 + 0.09·20)/0.99 = 2.73 and plays right (expected 0.9·1 + 0.1·20 = 2.9).\n\n"
            }
        });
        md.push_str("Verdicts:\n\n");
        md.push_str(&verdicts.join("\n"));
        md.push('\n');
        Ok(Finished { rows, markdown: md, svg: None })
    }
}

// --------------------------------------------------------------- Table 1 --

/// `reibman-table1`: average payoffs of 12 strategies against 7 noisy Min
/// players.
pub(crate) struct Table1;

impl Experiment for Table1 {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        "reibman-table1"
    }
    fn source(&self) -> &'static str {
        "seed 001 (Reibman & Ballard), Table 1"
    }
    fn description(&self) -> &'static str {
        "average payoff of 1/2/3-ply minimax and 2-ply predictive play (PS 0.9..0.1) vs a noisy 2-ply Min"
    }
    fn params(&self, scale: Scale) -> Value {
        table_params(scale)
    }
    fn cells(&self, scale: Scale) -> Vec<String> {
        batch_cells(scale)
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let n = batch_size(scale, cell)?;
        let variants: Vec<(Variant, Vec<Strategy>)> = Variant::ALL.iter().map(|&v| (v, v.strategies())).collect();
        Ok(batch_rows(run_batch(seed, n, &variants)?))
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let all = collect(cells)?;
        let mut rows = Vec::new();
        let mut summary: Vec<Vec<String>> = Vec::new();
        let mut md_main: Vec<Vec<String>> = Vec::new();
        let mut flagged = Vec::new();
        let mut main_stats: HashMap<(usize, usize), (f64, f64)> = HashMap::new();
        let mut mean_diffs = Vec::new();
        let mut tallies = Vec::new();
        for variant in Variant::ALL {
            let (mut max_diff, mut sum_diff, mut count) = (0.0f64, 0.0, 0usize);
            let mut tally = Tally::default();
            for strategy in variant.strategies() {
                let mut line = vec![strategy.label()];
                for (k, &noise) in NOISES.iter().enumerate() {
                    let key = (variant.name().to_string(), strategy.label(), k);
                    let xs = all.get(&key).ok_or_else(|| format!("missing {key:?}"))?;
                    let (m, se) = mean_se(xs);
                    let i = strategy.row_index();
                    let paper = PAPER_TABLE1[i][k];
                    let diff = m - paper;
                    let misprint = (i, k) == (MISPRINT.0, MISPRINT.1);
                    let cell_verdict = verdict::number(m, se, paper, TABLE1_TOL);
                    if !misprint {
                        max_diff = max_diff.max(diff.abs());
                        sum_diff += diff.abs();
                        count += 1;
                        tally.add(cell_verdict);
                    }
                    let mut r = row!("variant" => variant.name(), "strategy" => strategy.label(), "noise" => noise,
                                     "payoff" => m, "stderr" => se, "paper_payoff" => paper, "diff" => diff,
                                     "trees" => xs.len(),
                                     "tolerance" => TABLE1_TOL,
                                     "verdict" => if misprint { "probable misprint".to_string() } else { cell_verdict.to_string() });
                    if misprint {
                        r.insert("paper_payoff_corrected".into(), json!(MISPRINT.2));
                        r.insert("diff_corrected".into(), json!(m - MISPRINT.2));
                        if variant == Variant::Main {
                            flagged.push(format!(
                                "- PS = 0.3, noise 2.00: ours {m:.2} ± {se:.2}; the paper prints 34.99 (diff {diff:+.2}), \
                                 probably a misprint for 34.85 (diff {:+.2}), which Table 2's 211% requires.",
                                m - MISPRINT.2
                            ));
                        }
                    } else if cell_verdict == Verdict::NotReproduced && variant == Variant::Main {
                        flagged.push(format!(
                            "- {}, noise {noise:.2}: ours {m:.2} ± {se:.2}, paper {paper:.2} (diff {diff:+.2}; interval outside ± {TABLE1_TOL}).",
                            strategy.label()
                        ));
                    }
                    if variant == Variant::Main {
                        main_stats.insert((i, k), (m, se));
                        line.push(format!("{m:.2} ({paper:.2})"));
                    }
                    rows.push(r);
                }
                if variant == Variant::Main {
                    md_main.push(line);
                }
            }
            mean_diffs.push(sum_diff / count.max(1) as f64);
            summary.push(vec![
                variant.name().to_string(),
                format!("{count}"),
                format!("{max_diff:.2}"),
                format!("{:.2}", sum_diff / count.max(1) as f64),
                format!("{}", tally.reproduced),
                format!("{}", tally.inconclusive),
                format!("{}", tally.not),
                format!("**{}**", tally.verdict()),
            ]);
            tallies.push(tally);
        }
        // Normalised vs unnormalised PS weights, paired over the same trees.
        let mut weight_lines = Vec::new();
        let mut max_weight_diff = 0.0f64;
        for &ps in &PS {
            let label = Strategy::Predictive(ps).label();
            let mut line = vec![label.clone()];
            for k in 0..NOISES.len() {
                let a = &all[&(Variant::Main.name().to_string(), label.clone(), k)];
                let b = &all[&(Variant::Unnormalised.name().to_string(), label.clone(), k)];
                let d: Vec<f64> = b.iter().zip(a).map(|(x, y)| x - y).collect();
                let (m, se) = mean_se(&d);
                max_weight_diff = max_weight_diff.max(m.abs());
                line.push(format!("{m:+.3} ± {se:.3}"));
            }
            weight_lines.push(line);
        }
        let mut header: Vec<String> = vec!["Max's strategy".into()];
        header.extend(NOISES.iter().map(|n| format!("{n:.2}")));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();

        let mut md = String::from(
            "Main set-up (divisor 75, normalised PS weights). Each cell: our mean payoff (the paper's value). \
             Standard errors per cell are in the JSON/CSV (`stderr`).\n\n",
        );
        md.push_str(&table(&header, &md_main));
        let se_range = main_stats.values().map(|v| v.1).fold((f64::INFINITY, 0.0f64), |a, s| (a.0.min(s), a.1.max(s)));
        md.push_str(&format!("\nStandard errors: {:.3}–{:.3}.\n\n", se_range.0, se_range.1));
        md.push_str(
            "Agreement with the paper per variant, by the number rule (`docs/reproduction-rules.md`): a cell is \
             reproduced when our 95% interval lies within the printed value ± 0.25, not reproduced when it lies \
             entirely outside, inconclusive otherwise (the PS = 0.3, noise 2.00 cell excluded as a probable misprint):\n\n",
        );
        md.push_str(&table(
            &[
                "variant",
                "cells",
                "max |diff|",
                "mean |diff|",
                "reproduced",
                "inconclusive",
                "not reproduced",
                "verdict",
            ],
            &summary,
        ));
        md.push_str("\nNoise-free column against the reference simulation of our reading (10⁶ trees; `docs/paper-readings.md`):\n\n");
        let mut ref_lines = Vec::new();
        let mut ref_verdicts = Vec::new();
        for d in 0..3 {
            let (m, se) = main_stats[&(d, 0)];
            let reference = REFERENCE_NOISE_FREE[d];
            let ok = (m - reference).abs() <= 2.58 * se.max(1e-9) + 0.01;
            ref_verdicts.push(ok);
            ref_lines.push(vec![
                format!("{}-ply minimax", d + 1),
                format!("{m:.3} ± {se:.3}"),
                format!("{reference:.2}"),
                format!("{:.2}", PAPER_TABLE1[d][0]),
                if ok { "reproduced".into() } else { "not reproduced".into() },
            ]);
        }
        md.push_str(&table(&["strategy", "ours", "reference", "paper", "verdict (99%)"], &ref_lines));
        md.push_str(&format!(
            "\nNormalised vs unnormalised PS weights (unnormalised − normalised, paired over the same trees; \
             no difference is expected because every Min node has 4 children): largest |mean| {max_weight_diff:.3}.\n\n"
        ));
        md.push_str(&table(&header, &weight_lines));
        let ordered = {
            let m = |d: usize| main_stats[&(d, 0)].0;
            m(0) < m(1) && m(1) < m(2)
        };
        md.push_str("\nVerdicts:\n\n");
        md.push_str(&format!(
            "- Noise-free column vs the reference simulation (27.22 / 28.20 / 28.99): **{}**; 1-ply < 2-ply < 3-ply: **{}**.\n",
            if ref_verdicts.iter().all(|&x| x) { "reproduced" } else { "not reproduced" },
            if ordered { "reproduced" } else { "not reproduced" }
        ));
        let main_summary = &summary[0];
        md.push_str(&format!(
            "- Main set-up vs the printed table (number rule, tolerance ± {TABLE1_TOL}): max |diff| {}, mean |diff| {} over {} cells: {}.\n",
            main_summary[2],
            main_summary[3],
            main_summary[1],
            tallies[0],
        ));
        // The offset of the 2-ply family (2-ply minimax and every PS row)
        // against the 1- and 3-ply rows, per noise column.
        let mut offset_lines = Vec::new();
        let mut family_offsets = Vec::new();
        for k in 0..NOISES.len() {
            let diff = |i: usize| {
                main_stats[&(i, k)].0 - if (i, k) == (MISPRINT.0, MISPRINT.1) { MISPRINT.2 } else { PAPER_TABLE1[i][k] }
            };
            let two: Vec<f64> = std::iter::once(1).chain(3..12).map(diff).collect();
            let (m2, _) = mean_se(&two);
            let spread = two.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, &x| (a.0.min(x), a.1.max(x)));
            let se = main_stats[&(1, k)].1;
            family_offsets.push(m2);
            offset_lines.push(vec![
                format!("{:.2}", NOISES[k]),
                format!("{:+.2}", diff(0)),
                format!("{:+.2}", diff(2)),
                format!("{m2:+.2} (from {:+.2} to {:+.2})", spread.0, spread.1),
                format!("{se:.2}"),
            ]);
        }
        md.push_str(&format!(
            "- The 2-ply family (2-ply minimax and the nine PS rows) lies above the paper under noise: mean offset {} \
             for noise 0.25–6.00, against {:+.2}–{:+.2} for the 1- and 3-ply rows (table below). It is one shift of \
             the whole family, not noise in single cells (cells of a column share trees and noise draws). **Not \
             explained**: changing the divisor, the PS weights, the static value of interior nodes, or tie-breaking \
             does not remove it (see `docs/paper-readings.md`); it is smallest without \
             noise, so it arises where the 2-ply searcher meets the noisy 2-ply Min, a meeting the paper does not \
             describe in more detail. Table 2's percentages subtract 2-ply minimax from the PS rows, so this common \
             offset cancels there.\n",
            family_offsets[1..].iter().map(|x| format!("{x:+.2}")).collect::<Vec<_>>().join(", "),
            (1..NOISES.len())
                .flat_map(|k| [0usize, 2].map(|i| main_stats[&(i, k)].0 - PAPER_TABLE1[i][k]))
                .fold(f64::INFINITY, f64::min),
            (1..NOISES.len())
                .flat_map(|k| [0usize, 2].map(|i| main_stats[&(i, k)].0 - PAPER_TABLE1[i][k]))
                .fold(f64::NEG_INFINITY, f64::max),
        ));
        md.push_str(&format!(
            "- Normalised vs unnormalised weights: **{}** (largest mean difference {max_weight_diff:.3}; with 4 children \
             at every Min node the unnormalised values are the normalised ones times the same constant \
             1 − (1 − PS)^4, so every decision is the same).\n",
            if max_weight_diff < 0.05 { "no material difference, as expected" } else { "differ" }
        ));
        md.push_str(&format!(
            "- Literal divisor 50: max |diff| {}, mean |diff| {} (main: {}, {}): the fitted divisor 75 {}.\n",
            summary[2][2],
            summary[2][3],
            main_summary[2],
            main_summary[3],
            if mean_diffs[2] > mean_diffs[0] {
                "fits better, as our reading expects"
            } else {
                "does not fit better here"
            }
        ));
        md.push_str(
            "\nOurs − paper by row family (main set-up; the 2-ply family is 2-ply minimax and the PS rows):\n\n",
        );
        md.push_str(&table(&["noise", "1-ply", "3-ply", "2-ply family, mean (range)", "SE of a cell"], &offset_lines));
        if !flagged.is_empty() {
            md.push_str("\nCells to note (main set-up):\n\n");
            md.push_str(&flagged.join("\n"));
            md.push('\n');
        }
        Ok(Finished { rows, markdown: md, svg: None })
    }
}

// --------------------------------------------------------------- Table 2 --

/// `reibman-table2`: the best PS row's improvement over 2-ply minimax, and
/// the paired confidence that it beats 2-ply minimax.
pub(crate) struct Table2;

impl Experiment for Table2 {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        "reibman-table2"
    }
    fn source(&self) -> &'static str {
        "seed 001 (Reibman & Ballard), Table 2"
    }
    fn description(&self) -> &'static str {
        "best PS row's gain over 2-ply minimax in % of one extra ply, and paired confidence (Table 1's samples)"
    }
    fn params(&self, scale: Scale) -> Value {
        table_params(scale)
    }
    fn cells(&self, scale: Scale) -> Vec<String> {
        batch_cells(scale)
    }
    fn seed_group(&self) -> &'static str {
        "reibman-table1"
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let n = batch_size(scale, cell)?;
        let strategies: Vec<Strategy> = Strategy::all().into_iter().filter(|s| *s != Strategy::Minimax(1)).collect();
        Ok(batch_rows(run_batch(seed, n, &[(Variant::Main, strategies)])?))
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let all = collect(cells)?;
        let main = Variant::Main.name().to_string();
        let get = |s: Strategy, k: usize| {
            all.get(&(main.clone(), s.label(), k))
                .ok_or_else(|| format!("missing {} at noise {}", s.label(), NOISES[k]))
        };
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        let mut ours_conf = Vec::new();
        let mut ours_impr = Vec::new();
        let mut improvement_verdicts = Vec::new();
        let mut gain_verdicts = Vec::new();
        for (k, &noise) in NOISES.iter().enumerate() {
            let mm2 = get(Strategy::Minimax(2), k)?;
            let mm3 = get(Strategy::Minimax(3), k)?;
            let (m2, _) = mean_se(mm2);
            let (m3, _) = mean_se(mm3);
            let mut best: Option<(f64, f64, &Vec<f64>)> = None;
            for &ps in &PS {
                let xs = get(Strategy::Predictive(ps), k)?;
                let m = mean_se(xs).0;
                if best.is_none_or(|b| m > b.1) {
                    best = Some((ps, m, xs));
                }
            }
            let (best_ps, best_mean, best_xs) = best.ok_or("no PS rows")?;
            let improvement = 100.0 * (best_mean - m2) / (m3 - m2);
            let d: Vec<f64> = best_xs.iter().zip(mm2).map(|(a, b)| a - b).collect();
            let (dm, dse) = mean_se(&d);
            let confidence = 100.0 * paired_confidence(&d);
            // The extra ply's gain, paired too, and the ratio's standard
            // error by the delta method with the covariance of the two
            // paired differences (both contain 2-ply minimax's payoff on the
            // same tree, so they are positively correlated and the ratio is
            // steadier than either alone).
            let ply: Vec<f64> = mm3.iter().zip(mm2).map(|(a, b)| a - b).collect();
            let (pm, pse) = mean_se(&ply);
            let nn = d.len() as f64;
            let cov = d.iter().zip(&ply).map(|(x, y)| (x - dm) * (y - pm)).sum::<f64>() / (nn - 1.0) / nn;
            let ratio = dm / pm;
            let improvement_se =
                100.0 * ((dse * dse + ratio * ratio * pse * pse - 2.0 * ratio * cov).max(0.0)).sqrt() / pm.abs();
            // The paper's own Table 1 gives these improvements:
            let paper_best = (3..12).map(|i| PAPER_TABLE1[i][k]).fold(f64::NEG_INFINITY, f64::max);
            let from_paper = 100.0 * (paper_best - PAPER_TABLE1[1][k]) / (PAPER_TABLE1[2][k] - PAPER_TABLE1[1][k]);
            let mut r = row!("noise" => noise, "best_ps" => best_ps, "best_payoff" => best_mean,
                             "minimax2_payoff" => m2, "minimax3_payoff" => m3,
                             "improvement_pct" => improvement, "confidence_pct" => confidence,
                             "improvement_stderr" => improvement_se, "extra_ply_gain" => pm,
                             "extra_ply_gain_stderr" => pse, "paired_diff" => dm, "paired_diff_stderr" => dse, "trees" => d.len(),
                             "paper_table1_improvement_pct" => from_paper);
            let paper_i = PAPER_TABLE2_IMPROVEMENT.get(k).copied();
            let paper_c = PAPER_TABLE2_CONFIDENCE.get(k).copied();
            let mut verdict = "—".to_string();
            if let (Some(pi), Some(pc)) = (paper_i, paper_c) {
                r.insert("paper_improvement_pct".into(), json!(pi));
                r.insert("paper_confidence_pct".into(), json!(pc));
                r.insert("tolerance_pct".into(), json!(TABLE2_REL_TOL * pi));
                let v = verdict::number(improvement, improvement_se, pi, TABLE2_REL_TOL * pi);
                verdict = v.to_string();
                r.insert("verdict".into(), json!(verdict));
                improvement_verdicts.push(v);
            }
            if k < 6 {
                let paper_best = (3..12).map(|i| PAPER_TABLE1[i][k]).fold(f64::NEG_INFINITY, f64::max);
                gain_verdicts.push(verdict::number(dm, dse, paper_best - PAPER_TABLE1[1][k], TABLE1_TOL));
            }
            ours_conf.push(confidence);
            ours_impr.push(improvement);
            lines.push(vec![
                format!("{noise:.2}"),
                format!("{best_ps:.1}"),
                format!("{dm:+.3} ± {dse:.3}"),
                format!("{improvement:.1}% ± {improvement_se:.1}"),
                paper_i.map_or("—".into(), |p| format!("{p:.1}%")),
                verdict,
                format!("{from_paper:.1}%"),
                format!("{confidence:.1}%"),
                paper_c.map_or("—".into(), |p| format!("{p:.1}%")),
            ]);
            rows.push(r);
        }
        let mut md = String::from(
            "For each noise column: the best predictive row (highest mean, chosen on the same sample), its paired \
             gain over 2-ply minimax, that gain in % of (3-ply − 2-ply), and the one-sided confidence that it beats \
             2-ply minimax (normal approximation of the paired test over the same trees and noise). The column \
             \"from paper's Table 1\" recomputes the percentage from the printed Table 1 (with its 34.99).\n\n",
        );
        md.push_str(&table(
            &[
                "noise",
                "best PS",
                "best − 2-ply",
                "improvement",
                "paper",
                "verdict",
                "from paper's Table 1",
                "confidence",
                "paper",
            ],
            &lines,
        ));
        // The paper's claims about Table 2 (noise 0.00 ... 2.00).
        let high_conf = (2..6).all(|k| ours_conf[k] > 90.0);
        let positive = (0..6).all(|k| ours_impr[k] > 0.0);
        let largest_at_2 = ours_impr[5] >= ours_impr[..5].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        md.push_str("\nVerdicts (the paper's statements about Table 2):\n\n");
        md.push_str(&format!(
            "- \"In all but the first two columns our confidence levels are well over 90%\": ours {} — **{}**.\n",
            ours_conf[..6].iter().map(|c| format!("{c:.1}%")).collect::<Vec<_>>().join(", "),
            if high_conf { "reproduced" } else { "not reproduced" }
        ));
        md.push_str(&format!(
            "- Predictive play gains over 2-ply minimax in every column: **{}**; the gain (in % of an extra ply) is largest at noise 2.00 (paper 211%, ours {:.0}%): **{}**.\n",
            if positive { "reproduced" } else { "not reproduced" },
            ours_impr[5],
            if largest_at_2 { "reproduced" } else { "not reproduced" }
        ));
        md.push_str(&format!(
            "- The paper's first two columns are below 90% (58.2%, 82.9%); ours are {:.1}%, {:.1}% — **not reproduced**, as expected: our \
             test pairs the trees *and* Min's noise draws (common random numbers), which removes most of the \
             variance; the paper says only that its test assumes \"the actual normal distribution of our sample of \
             trees\".\n",
            ours_conf[0], ours_conf[1]
        ));
        let tally = Tally::of(improvement_verdicts.iter().copied());
        let ratios: Vec<String> =
            (3..6).map(|k| format!("{:.1}×", ours_impr[k] / PAPER_TABLE2_IMPROVEMENT[k])).collect();
        md.push_str(&format!(
            "- The improvement percentages against the printed ones (number rule: our 95% interval within the \
             printed value ± {:.0}% of it): {tally}. At noise 0.75, 1.00 and 2.00 ours are {} the printed values. \
             The percentages divide by the third ply's gain (0.1–0.8 payoff units), so small payoff differences \
             move them a lot; the paper's own Table 1 gives {:.0}% instead of its printed 211% at noise 2.00 \
             (through the misprinted cell). The gains in payoff units (column \"best − 2-ply\") are the testable \
             quantity: they agree with the printed Table 1's {} to within the Table 1 tolerance in {} of 6 columns.\n",
            100.0 * TABLE2_REL_TOL,
            ratios.join(", "),
            100.0 * ((3..12).map(|i| PAPER_TABLE1[i][5]).fold(f64::NEG_INFINITY, f64::max) - PAPER_TABLE1[1][5])
                / (PAPER_TABLE1[2][5] - PAPER_TABLE1[1][5]),
            (0..6)
                .map(|k| format!(
                    "{:+.2}",
                    (3..12).map(|i| PAPER_TABLE1[i][k]).fold(f64::NEG_INFINITY, f64::max) - PAPER_TABLE1[1][k]
                ))
                .collect::<Vec<_>>()
                .join(", "),
            gain_verdicts.iter().filter(|v| **v == Verdict::Reproduced).count(),
        ));
        md.push_str(
            "- Percentages divide by a small difference (3-ply − 2-ply is 0.2–0.8): their sampling error is \
                     large, and choosing the best row on the same sample biases them upwards (as in the paper).\n",
        );
        Ok(Finished { rows, markdown: md, svg: None })
    }
}
