//! `lecture-alphabeta`: nodes visited by minimax and alpha-beta under
//! different move orderings (seeds 002 and 004).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use games_small::{Connect4, TicTacToe};
use search_core::backup::Minimax;
use search_core::search::{Limits, Observer, Options, Search};
use search_core::tree::{LeafModel, RandomTree};
use search_core::{Game, OutcomeOnly, Player, Status, Turn};
use serde_json::{Value, json};

use crate::reproduce::output::table;
use crate::reproduce::verdict::{self, Verdict};
use crate::reproduce::{Experiment, Finished, Row, Scale, row};

/// How a [`Reorder`] observer orders the moves of every node.
#[derive(Debug)]
pub enum Ordering {
    /// Pseudo-random, from the seed, the position and the move.
    Random(u64),
    /// The game's own hint.
    Game,
    /// The game's hint after two cheap tactical keys, from one ply of
    /// look-ahead: moves that win at once first, moves after which the
    /// opponent can win at once last.
    Tactical,
    /// By exact value (an oracle: best move first).
    Perfect(HashMap<u64, f64>),
}

impl Ordering {
    fn name(&self) -> &'static str {
        match self {
            Ordering::Random(_) => "random",
            Ordering::Game => "game",
            Ordering::Tactical => "game+tactics",
            Ordering::Perfect(_) => "perfect",
        }
    }

    /// The sort key of `mv` at `state` (larger first).
    fn key<G: Game>(&self, state: &G, mv: G::Move) -> i32 {
        match self {
            Ordering::Random(seed) => {
                let mut h = DefaultHasher::new();
                (seed, state.hash_key(), mv).hash(&mut h);
                (h.finish() >> 33) as i32
            }
            Ordering::Game => state.order_hint(mv),
            Ordering::Tactical => {
                let mover = state.turn().player();
                let mut child = state.clone();
                child.play(mv);
                let mut replies = Vec::new();
                let tactic = match child.generate(&mut replies) {
                    Status::Over(o) if o.winner().is_some() && o.winner() == mover => 2,
                    Status::Over(_) => 1,
                    Status::Ongoing => {
                        let loses = replies.iter().any(|&r| {
                            let mut g = child.clone();
                            g.play(r);
                            matches!(g.status(), Status::Over(o) if o.winner().is_some() && o.winner() != mover)
                        });
                        if loses { 0 } else { 1 }
                    }
                };
                tactic * 1000 + state.order_hint(mv)
            }
            Ordering::Perfect(values) => {
                let mut child = state.clone();
                child.play(mv);
                let v = values[&child.hash_key().expect("hashed game")];
                let sign = state.turn().player().unwrap_or(Player::First).sign();
                (sign * v).clamp(-1e9, 1e9) as i32
            }
        }
    }
}

/// Orders the moves of every node, the root included, by an [`Ordering`]:
/// a stable sort on the key, larger first, which is what the search's own
/// game ordering does with hints (the search runs with its ordering, killers
/// and history off, so this order is the one searched).
#[derive(Debug)]
pub struct Reorder(pub Ordering);

impl Reorder {
    fn sort<G: Game>(&self, state: &G, moves: &mut [G::Move]) {
        moves.sort_by_cached_key(|&mv| Reverse(self.0.key(state, mv)));
    }
}

impl<G: Game> Observer<G> for Reorder {
    fn root_moves(&mut self, state: &G, _depth: u32, moves: &mut Vec<G::Move>) {
        self.sort(state, moves);
    }
    fn traces_nodes(&self) -> bool {
        true
    }
    fn node_moves(&mut self, _path: &[G::Move], state: &G, moves: &mut Vec<G::Move>) {
        self.sort(state, moves);
    }
}

/// Exact minimax values (from `First`'s view, terminal payoffs as they are,
/// wins ±1) of every position below `root`, memoised by hash key.
fn exact_values<G: Game>(root: &G) -> HashMap<u64, f64> {
    fn walk<G: Game>(s: &G, memo: &mut HashMap<u64, f64>) -> f64 {
        let key = s.hash_key().expect("hashed game");
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut moves = Vec::new();
        let v = match s.generate(&mut moves) {
            Status::Over(o) => o.value_for(Player::First, 1.0),
            Status::Ongoing => {
                let vals = moves.iter().map(|&m| {
                    let mut c = s.clone();
                    c.play(m);
                    walk(&c, memo)
                });
                match s.turn() {
                    Turn::Player(Player::First) => vals.fold(f64::NEG_INFINITY, f64::max),
                    _ => vals.fold(f64::INFINITY, f64::min),
                }
            }
        };
        memo.insert(key, v);
        v
    }
    let mut memo = HashMap::new();
    walk(root, &mut memo);
    memo
}

/// Full-width minimax (unless `skip_minimax`) and alpha-beta under three
/// orderings on one root.
pub fn count_nodes<G: Game>(
    root: &G,
    seed: u64,
    skip_minimax: bool,
) -> Vec<(&'static str, &'static str, u64, u64, f64)> {
    let eval = OutcomeOnly::default();
    let values = exact_values(root);
    let value = values[&root.hash_key().expect("hashed game")] + 0.0;
    let mut out = Vec::new();
    if !skip_minimax {
        let full = Search::new(Minimax, eval, Options::full_width())
            .expect("valid options")
            .run(root, &Limits::full_tree())
            .expect("searchable");
        let full_value = full.value.expect("a complete search");
        assert_eq!(full_value, value, "minimax agrees with the memoised values");
        out.push(("minimax", "generated", full.stats.nodes, full.stats.leaves, full_value + 0.0));
    }
    // Plain alpha-beta: the game's ordering, killers and history are off (the
    // observer orders every node).
    for ordering in [Ordering::Random(seed), Ordering::Game, Ordering::Tactical, Ordering::Perfect(values)] {
        let name = ordering.name();
        let mut reorder = Reorder(ordering);
        let mut ab = Search::new(Minimax, eval, Options::plain_alpha_beta()).expect("valid options");
        let r = ab.run_observed(root, &Limits::full_tree(), &mut reorder).expect("searchable");
        let r_value = r.value.expect("a complete search");
        assert_eq!(r_value, value, "alpha-beta agrees with minimax");
        out.push(("alphabeta", name, r.stats.nodes, r.stats.leaves, r_value + 0.0));
    }
    out
}

pub(crate) struct LectureAlphaBeta;

const RANDOM_CONFIGS: [(u8, u8); 3] = [(4, 6), (4, 8), (8, 4)];

impl LectureAlphaBeta {
    fn trees(scale: Scale) -> u64 {
        scale.pick(4, 40, 200)
    }
}

impl Experiment for LectureAlphaBeta {
    fn version(&self) -> u32 {
        2
    }
    fn name(&self) -> &'static str {
        "lecture-alphabeta"
    }
    fn source(&self) -> &'static str {
        "seeds 002, 004 (lectures)"
    }
    fn description(&self) -> &'static str {
        "nodes of minimax vs alpha-beta under random, game and perfect ordering; tic-tac-toe full tree"
    }
    fn params(&self, scale: Scale) -> Value {
        json!({ "random_trees": Self::trees(scale), "random_configs": RANDOM_CONFIGS, "leaves": "uniform 0..=1e6",
                "connect4_minimax": scale != Scale::Quick })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        let mut cells = vec!["tictactoe".to_string(), "connect4-4x4".to_string()];
        cells.extend(RANDOM_CONFIGS.iter().map(|(b, d)| format!("random-b{b}-d{d}")));
        cells
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let rows_for = |game: &str, depth: u32, counts: Vec<(&str, &str, u64, u64, f64)>| -> Vec<Row> {
            counts
                .into_iter()
                .map(|(search, ordering, nodes, leaves, value)| {
                    row!("game" => game, "search" => search, "ordering" => ordering, "depth" => depth,
                         "nodes" => nodes, "leaves" => leaves, "value" => value, "trees" => 1)
                })
                .collect()
        };
        match cell {
            "tictactoe" => Ok(rows_for("tictactoe", 9, count_nodes(&TicTacToe::default(), seed, false))),
            "connect4-4x4" => {
                let board = Connect4::new(4, 4).map_err(|e| e.to_string())?;
                // The full 4x4 tree has 131 million nodes: not in the quick run.
                Ok(rows_for("connect4-4x4", 16, count_nodes(&board, seed, scale == Scale::Quick)))
            }
            _ => {
                let (b, d) = RANDOM_CONFIGS
                    .iter()
                    .copied()
                    .find(|(b, d)| cell == format!("random-b{b}-d{d}"))
                    .ok_or_else(|| format!("unknown cell {cell}"))?;
                let mut sums: Vec<(&str, &str, u64, u64, f64)> = Vec::new();
                for i in 0..Self::trees(scale) {
                    let tree_seed = search_core::rng::derive_seed(seed, i);
                    let t = RandomTree::new(tree_seed, b, d, LeafModel::Uniform { min: 0, max: 1_000_000 })
                        .map_err(|e| e.to_string())?;
                    for (k, c) in count_nodes(&t, tree_seed, false).into_iter().enumerate() {
                        if sums.len() <= k {
                            sums.push((c.0, c.1, 0, 0, 0.0));
                        }
                        sums[k].2 += c.2;
                        sums[k].3 += c.3;
                    }
                }
                let n = Self::trees(scale);
                Ok(sums
                    .into_iter()
                    .map(|(search, ordering, nodes, leaves, _)| {
                        row!("game" => format!("random-b{b}"), "search" => search, "ordering" => ordering,
                             "depth" => d, "nodes" => nodes as f64 / n as f64, "leaves" => leaves as f64 / n as f64,
                             "trees" => n)
                    })
                    .collect())
            }
        }
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let all: Vec<Row> = cells.iter().flat_map(|(_, r)| r.iter().cloned()).collect();
        // The full tree's leaves per (game, depth): b^m for the exponents.
        let full_leaves = |game: &str, depth: f64| -> Option<f64> {
            all.iter()
                .find(|r| r["game"] == game && r["search"] == "minimax" && r["depth"].as_f64() == Some(depth))
                .and_then(|r| r["leaves"].as_f64())
        };
        let mut rows: Vec<Row> = Vec::new();
        let mut lines = Vec::new();
        let mut verdicts = Vec::new();
        let mut simple = Vec::new();
        let mut anomaly = Vec::new();
        for r in &all {
            let mut r = r.clone();
            let game = r["game"].as_str().unwrap_or_default().to_string();
            let depth = r["depth"].as_f64().unwrap_or(0.0);
            let leaves = r["leaves"].as_f64().unwrap_or(0.0);
            let nodes = r["nodes"].as_f64().unwrap_or(0.0);
            let search = r["search"].as_str().unwrap_or_default().to_string();
            let ordering = r["ordering"].as_str().unwrap_or_default().to_string();
            let mut reference = String::new();
            // x in leaves = (b^m)^x, b^m the full tree's leaves.
            let exponent = full_leaves(&game, depth).map(|f| leaves.ln() / f.ln());
            if let Some(x) = exponent {
                r.insert("leaf_exponent".into(), json!(x));
            }
            if let Some(b) = game.strip_prefix("random-b").and_then(|b| b.parse::<f64>().ok()) {
                let d = depth;
                let km = b.powf((d / 2.0).ceil()) + b.powf((d / 2.0).floor()) - 1.0;
                r.insert("b_pow_d".into(), json!(b.powf(d)));
                r.insert("b_pow_3d_4".into(), json!(b.powf(0.75 * d)));
                r.insert("knuth_moore".into(), json!(km));
                reference = format!(
                    "b^d = {:.0}, b^(3d/4) = {:.0}, K-M = {km:.0}; leaves = b^({:.3}·d)",
                    b.powf(d),
                    b.powf(0.75 * d),
                    exponent.unwrap_or(f64::NAN)
                );
                if search == "alphabeta" && ordering == "perfect" {
                    verdicts.push(format!(
                        "- {game}, d = {d}: best case (perfect ordering) visits {leaves:.1} leaves per tree, the \
                         Knuth–Moore minimum b^⌈d/2⌉ + b^⌊d/2⌋ − 1 is {km:.0}: **{}** (exact, tolerance 0.5).",
                        verdict::number(leaves, 0.0, km, 0.5)
                    ));
                }
                if search == "alphabeta" && ordering == "random" {
                    let x = exponent.unwrap_or(f64::NAN);
                    verdicts.push(format!(
                        "- {game}, d = {d}: average case (random ordering) visits b^({x:.3}·d) leaves; the lecture's \
                         average case is b^(3d/4): **{}** (exponent rule).",
                        exponent_verdict(x, 0.75)
                    ));
                }
            } else if let Some(x) = exponent
                && search == "alphabeta"
            {
                reference = format!("leaves = (full tree's leaves)^{x:.3}");
                if ordering == "game" || ordering == "game+tactics" {
                    simple.push(format!(
                        "- {game}, {ordering} ordering: exponent {x:.3}: **{}**.",
                        exponent_verdict(x, 0.5)
                    ));
                }
            }
            if search == "alphabeta" && ordering == "game" && !game.starts_with("random") {
                let by = |o: &str| {
                    all.iter()
                        .find(|q| q["game"] == game.as_str() && q["search"] == "alphabeta" && q["ordering"] == o)
                        .and_then(|q| q["nodes"].as_f64())
                };
                if let (Some(rand), Some(tac)) = (by("random"), by("game+tactics"))
                    && nodes > rand
                {
                    anomaly.push(format!(
                        "- {game}: the game's ordering visits {nodes:.0} nodes, more than random ordering ({rand:.0}); \
                         with the two tactical keys added it visits {tac:.0}{}.",
                        if tac < rand { ", fewer than random" } else { ", still not fewer than random" }
                    ));
                }
            }
            if game == "tictactoe" && search == "minimax" {
                r.insert("paper_nodes".into(), json!(549_946));
                r.insert("paper_value".into(), json!(0));
                let ok = nodes == 549_946.0 && r["value"].as_f64() == Some(0.0);
                verdicts.push(format!(
                    "- tic-tac-toe full tree: {nodes:.0} nodes counting the root (known: 549,946), value {} (known: draw, 0): **{}**.",
                    r["value"],
                    if ok { Verdict::Reproduced } else { Verdict::NotReproduced }
                ));
                reference = "known: 549,946 nodes, value 0".into();
            }
            lines.push(vec![
                game.clone(),
                search,
                ordering,
                format!("{depth}"),
                format!("{nodes:.1}"),
                format!("{leaves:.1}"),
                reference,
            ]);
            rows.push(r);
        }
        let mut md = table(&["game", "search", "ordering", "depth", "nodes", "leaves", "reference"], &lines);
        md.push_str(
            "\nThe exponent x of a row is ln(leaves)/ln(leaves of the full tree), so leaves = (b^m)^x; the lectures \
             give x = 1 without pruning, 1/2 in the best case, about 3/4 on average (random order), and say \
             \"very simple ordering usually achieves\" 1/2. Exponent rule (`docs/reproduction-rules.md`): a claimed \
             exponent is reproduced when ours is within 0.05 of it, partly reproduced when within 0.125 (closer to \
             it than to the neighbouring regime a quarter away), not reproduced otherwise.\n\nVerdicts:\n\n",
        );
        md.push_str(&verdicts.join("\n"));
        md.push_str(
            "\n\n\"Very simple ordering usually achieves b^(m/2)\" (the game's own static ordering — tic-tac-toe: cells \
             on more lines first; connect-4: centre columns first — and the same with two one-ply tactical keys, \
             immediate wins first and moves that allow an immediate loss last):\n\n",
        );
        md.push_str(&simple.join("\n"));
        md.push_str(&format!(
            "\n\nOverall: **{}**. (Random trees have no simple ordering to test: their interior static values are \
             independent of the leaves, so \"game\" ordering there is the generation order.)\n",
            verdict::combine(simple.iter().map(|l| {
                if l.contains("**reproduced**") {
                    Verdict::Reproduced
                } else if l.contains("**partly") {
                    Verdict::Partly
                } else {
                    Verdict::NotReproduced
                }
            }))
        ));
        if !anomaly.is_empty() {
            md.push_str("\nOrdering anomaly:\n\n");
            md.push_str(&anomaly.join("\n"));
            md.push_str(
                "\n\nWhy: the search runs to the end of the game with win/draw/loss values only, and 4×4 connect-4 is \
                 a draw, so a cut-off needs a move that already proves the bound — in practice a move that wins at \
                 once or that avoids losing at once. Centre-first is a purely positional order, the same at every \
                 node; it ignores exactly these moves, and because it is the same everywhere its mistakes repeat \
                 down the tree, where a random order at least varies. The tactical keys are the cheap fix; the \
                 `game+tactics` row measures it.\n",
            );
        }
        md.push_str("\nRandom trees: uniform leaf values in 0..=10^6 (ties are rare), averaged over the trees; \
                     alpha-beta is fail-soft negamax without enhancements; the perfect ordering sorts children by their exact value.\n");
        Ok(Finished { rows, markdown: md, svg: None })
    }
}

/// The exponent rule: within 0.05 of the claimed exponent, reproduced;
/// within 0.125, partly; otherwise not.
fn exponent_verdict(x: f64, claimed: f64) -> Verdict {
    let d = (x - claimed).abs();
    if d <= 0.05 {
        Verdict::Reproduced
    } else if d <= 0.125 {
        Verdict::Partly
    } else {
        Verdict::NotReproduced
    }
}
