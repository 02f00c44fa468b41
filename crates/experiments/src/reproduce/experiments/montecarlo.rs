//! `lecture-montecarlo`: seed 002's Monte Carlo at chance nodes. Instead of
//! the exact expectation over a chance node's outcomes (expectiminimax),
//! average the minimax values of N sampled outcomes; the lecture's claim:
//! "more sampling, closer to the optimal solution".
//!
//! The game: random trees in which every other level is the roll of a fair
//! six-sided die — Max picks one of 6 moves, a die is rolled, Min picks one
//! of 6 moves, a die is rolled, and the leaf's value (an arc sum) is Max's
//! payoff. At the root, the exact decision maximises the expectation over
//! the die; the sampled decision maximises the mean over N rolls per move
//! (the same N for every move, rolls drawn independently), with exact values
//! below the sampled roll. We count how often the sampled decision is an
//! exact best move, and its expected loss (regret) against the best.

use rand::Rng as _;
use search_core::backup::Minimax;
use search_core::rng::{self, derive_seed};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{ChanceWeights, LeafModel, RandomTree, RandomTreeEval};
use search_core::{Game, Player, Turn};
use serde_json::{Value, json};

use crate::reproduce::output::table;
use crate::reproduce::verdict::{self, Verdict};
use crate::reproduce::{Experiment, Finished, Row, Scale, plot, row};

pub(crate) struct MonteCarlo;

/// Samples per root move.
const SAMPLES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Sampled decisions per tree and N.
const REPEATS: u64 = 20;
const TREES_PER_CELL: u64 = 50;
/// Moves per player node and faces of the die.
const BRANCHING: u8 = 6;
/// Max, die, Min, die: four levels.
const DEPTH: u8 = 4;
const MAX_ARC: u32 = 10;

impl MonteCarlo {
    fn trees(scale: Scale) -> u64 {
        scale.pick(50, 500, 2000)
    }
}

/// The exact value (Max's view) of every (root move, die roll) pair below
/// the root: `values[move][roll]`, and the exact root value.
fn exact_table(tree: &RandomTree) -> Result<(Vec<Vec<f64>>, f64), String> {
    let eval = RandomTreeEval::for_tree(tree);
    let mut search = Search::new(Minimax, eval, Options::full_width()).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    tree.generate(&mut moves);
    let mut table = Vec::new();
    for &m in &moves {
        let mut chance = *tree;
        chance.play(m);
        if chance.turn() != Turn::Chance {
            return Err("expected a chance node after Max's move".into());
        }
        let mut rolls = Vec::new();
        chance.generate(&mut rolls);
        let mut row = Vec::new();
        for &roll in &rolls {
            let mut min_node = chance;
            min_node.play(roll);
            let r = search.run(&min_node, &Limits::full_tree()).map_err(|e| e.to_string())?;
            let v = r.value.ok_or("no value")?;
            // From the mover's (Min's) view: Max's is the negation.
            let max_view = if min_node.turn() == Turn::Player(Player::Second) { -v } else { v };
            row.push(max_view);
        }
        table.push(row);
    }
    let root = search.run(tree, &Limits::full_tree()).map_err(|e| e.to_string())?.value.ok_or("no value")?;
    Ok((table, root))
}

impl Experiment for MonteCarlo {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        "lecture-montecarlo"
    }
    fn source(&self) -> &'static str {
        "seed 002 (lecture), Monte Carlo at chance nodes"
    }
    fn description(&self) -> &'static str {
        "dice game: how often N sampled rolls per move give the exact expectiminimax decision, N = 1..64"
    }
    fn params(&self, scale: Scale) -> Value {
        json!({ "trees": Self::trees(scale), "trees_per_cell": TREES_PER_CELL, "samples": SAMPLES,
                "repeats_per_tree": REPEATS, "game": "Max (6 moves), die (6 faces), Min (6 moves), die; arc sums 0..=10" })
    }
    fn cells(&self, scale: Scale) -> Vec<String> {
        (0..Self::trees(scale).div_ceil(TREES_PER_CELL)).map(|b| format!("trees-{b:03}")).collect()
    }
    fn run_cell(&self, scale: Scale, cell: &str, seed: u64) -> Result<Vec<Row>, String> {
        let b: u64 =
            cell.strip_prefix("trees-").and_then(|x| x.parse().ok()).ok_or_else(|| format!("unknown cell {cell}"))?;
        let n = TREES_PER_CELL.min(Self::trees(scale).saturating_sub(b * TREES_PER_CELL));
        // Per N: (decisions, exact-best decisions, sum of regret, sum of regret²).
        let mut acc = vec![(0u64, 0u64, 0.0f64, 0.0f64); SAMPLES.len()];
        for i in 0..n {
            let tseed = derive_seed(seed, i);
            let tree = RandomTree::new(tseed, BRANCHING, DEPTH, LeafModel::ArcSum { max_arc: MAX_ARC })
                .and_then(|t| t.with_chance(1, ChanceWeights::Uniform))
                .map_err(|e| e.to_string())?;
            let (values, root) = exact_table(&tree)?;
            let expect: Vec<f64> = values.iter().map(|r| r.iter().sum::<f64>() / r.len() as f64).collect();
            let best = expect.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if (best - root).abs() > 1e-9 {
                return Err(format!("expectiminimax root {root} differs from the table's {best}"));
            }
            let mut r = rng::seeded(derive_seed(tseed, 1));
            for (k, &samples) in SAMPLES.iter().enumerate() {
                for _ in 0..REPEATS {
                    let mut pick = 0;
                    let mut pick_mean = f64::NEG_INFINITY;
                    for (m, row) in values.iter().enumerate() {
                        let mean =
                            (0..samples).map(|_| row[r.random_range(0..row.len())]).sum::<f64>() / f64::from(samples);
                        if mean > pick_mean {
                            pick_mean = mean;
                            pick = m;
                        }
                    }
                    let regret = best - expect[pick];
                    let a = &mut acc[k];
                    a.0 += 1;
                    a.1 += u64::from(regret < 1e-9);
                    a.2 += regret;
                    a.3 += regret * regret;
                }
            }
        }
        Ok(SAMPLES
            .iter()
            .zip(acc)
            .map(|(&s, (d, ok, sr, sr2))| {
                row!("samples" => s, "decisions" => d, "exact_best" => ok, "regret_sum" => sr, "regret_sq_sum" => sr2,
                     "trees" => n)
            })
            .collect())
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        let mut agree_pts = Vec::new();
        let mut stats = Vec::new();
        for &s in &SAMPLES {
            let (mut d, mut ok, mut sr, mut sr2) = (0.0, 0.0, 0.0, 0.0);
            for r in cells.iter().flat_map(|(_, r)| r).filter(|r| r["samples"].as_u64() == Some(u64::from(s))) {
                d += r["decisions"].as_f64().unwrap_or(0.0);
                ok += r["exact_best"].as_f64().unwrap_or(0.0);
                sr += r["regret_sum"].as_f64().unwrap_or(0.0);
                sr2 += r["regret_sq_sum"].as_f64().unwrap_or(0.0);
            }
            let p = ok / d;
            // Decisions on one tree are correlated; the standard error below
            // treats them as independent (an underestimate; said in the report).
            let se_p = (p * (1.0 - p) / d).sqrt();
            let regret = sr / d;
            let se_r = ((sr2 / d - regret * regret).max(0.0) / d).sqrt();
            stats.push((s, p, se_p, regret, se_r));
            agree_pts.push((f64::from(s), 100.0 * p));
            rows.push(row!("samples" => s, "decisions" => d, "agreement" => p, "agreement_stderr" => se_p,
                           "mean_regret" => regret, "regret_stderr" => se_r));
            lines.push(vec![
                format!("{s}"),
                format!("{d:.0}"),
                format!("{:.1}% ± {:.1}", 100.0 * p, 100.0 * se_p),
                format!("{regret:.3} ± {se_r:.3}"),
            ]);
        }
        // The claim as a curve (the curve rule): agreement rises from the
        // smallest to the largest N (claim rule, smallest effect 5 points),
        // and no doubling of N lowers it significantly.
        let diff = |a: (u32, f64, f64, f64, f64), b: (u32, f64, f64, f64, f64)| {
            let d = b.1 - a.1;
            let se = (a.2 * a.2 + b.2 * b.2).sqrt();
            (d - verdict::Z95 * se, d + verdict::Z95 * se)
        };
        let first = stats.first().copied().ok_or("no rows")?;
        let last = stats.last().copied().ok_or("no rows")?;
        let (lo, hi) = diff(first, last);
        let end = verdict::above(lo, hi, 0.0, 0.05);
        let reversed = stats.windows(2).filter(|w| diff(w[0], w[1]).1 < 0.0).count();
        let curve = match (end, reversed) {
            (Verdict::Reproduced, 0) => Verdict::Reproduced,
            (Verdict::Reproduced, _) => Verdict::Partly,
            (v, _) => v,
        };
        let regret_falls = stats.windows(2).all(|w| w[1].3 <= w[0].3 + verdict::Z95 * w[0].4);
        let mut md = String::from(
            "A dice game (random trees: Max picks one of 6 moves, a fair die is rolled, Min picks one of 6, a die \
             is rolled; leaf values are arc sums 0–40, Max's payoff). At the root, N rolls are sampled per move and \
             the move with the best mean of exact values below the roll is played; it is compared with the exact \
             expectiminimax decision. Agreement: the share of sampled decisions that are an exact best move; \
             regret: the expected payoff lost against the best move (standard errors treat the decisions as \
             independent; 20 decisions per tree and N share the tree).\n\n",
        );
        md.push_str(&table(&["N (rolls per move)", "decisions", "agreement", "mean regret"], &lines));
        let regret_verdict = if regret_falls { Verdict::Reproduced } else { Verdict::NotReproduced };
        md.push_str(&format!(
            "\nVerdicts (curve rule, `docs/reproduction-rules.md`):\n\n- \"More sampling, closer to the optimal \
             solution\": agreement from N = {} to N = {}: {:+.1} points [{:+.1}, {:+.1}], **{end}**; {reversed} doublings \
             lower it significantly: **{curve}**.\n- The mean regret never rises significantly with N: **{regret_verdict}**.\n\
             - Overall: **{}**.\n",
            first.0,
            last.0,
            100.0 * (last.1 - first.1),
            100.0 * lo,
            100.0 * hi,
            verdict::combine([curve, regret_verdict])
        ));
        let svg = plot::lines(
            "Monte Carlo at chance nodes: agreement with expectiminimax",
            "rolls sampled per move (N)",
            "agreement with the exact decision (%)",
            true,
            &[("agreement".to_string(), agree_pts)],
        )?;
        Ok(Finished { rows, markdown: md, svg: Some(svg) })
    }
}
