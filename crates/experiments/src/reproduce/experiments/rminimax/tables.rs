//! `rminimax-table1`, `rminimax-table2`, `rminimax-table3`: the worked
//! examples of seed 000 (Tables I, II and III), rebuilt by
//! [`crate::paper`] on the trees reconstructed in `docs/paper-readings.md`.

use search_core::GameError;
use search_core::policy::{PolicyFamily, TreePolicy};
use serde_json::{Value, json};

use crate::paper::{self, PAPER_TOLERANCE, TableRow};
use crate::reproduce::output::table;
use crate::reproduce::{Experiment, Finished, Row, Scale, row};

/// A table value agrees with the printed one if it is within this (the
/// printed values have four decimals; the brief's criterion).
pub const AGREEMENT: f64 = 0.005;

fn err(e: GameError) -> String {
    e.to_string()
}

/// The number `key` of `row` (NaN if absent).
pub fn f(row: &Row, key: &str) -> f64 {
    row.get(key).and_then(Value::as_f64).unwrap_or(f64::NAN)
}

/// Table I on the closest natural tree.
#[derive(Debug)]
pub struct Table1;

impl Experiment for Table1 {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        "rminimax-table1"
    }
    fn source(&self) -> &'static str {
        "seed 000, Table I"
    }
    fn description(&self) -> &'static str {
        "Rminimax root transition probabilities p12, p13 at θ = 3, 0.5, 0.001 on the closest natural binary tree"
    }
    fn params(&self, _scale: Scale) -> Value {
        json!({ "tree": paper::TABLE1_TREE, "costs": "unit per play; last arc win 0, loss 2" })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        vec!["table1".into()]
    }
    fn run_cell(&self, _scale: Scale, cell: &str, _seed: u64) -> Result<Vec<Row>, String> {
        if cell != "table1" {
            return Err(format!("unknown cell {cell}"));
        }
        let ours = paper::table1().map_err(err)?;
        Ok(ours
            .iter()
            .zip(paper::TABLE1_PAPER.iter())
            .map(|(o, p)| {
                row!("theta" => o.theta, "p12" => o.p12, "p13" => o.p13,
                     "paper_p12" => p.p12, "paper_p13" => p.p13,
                     "diff_p12" => o.p12 - p.p12, "diff_p13" => o.p13 - p.p13,
                     "paper_sum" => p.p12 + p.p13)
            })
            .collect())
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let rows: Vec<Row> = cells.iter().flat_map(|(_, r)| r.iter().cloned()).collect();
        let mut lines = Vec::new();
        let mut max_dev: f64 = 0.0;
        for r in &rows {
            let (d12, d13) = (f(r, "diff_p12"), f(r, "diff_p13"));
            max_dev = max_dev.max(d12.abs()).max(d13.abs());
            lines.push(vec![
                format!("{}", f(r, "theta")),
                format!("{:.4}", f(r, "p12")),
                format!("{}", f(r, "paper_p12")),
                format!("{d12:+.4}"),
                format!("{:.4}", f(r, "p13")),
                format!("{}", f(r, "paper_p13")),
                format!("{d13:+.4}"),
            ]);
        }
        let mut md = table(&["θ", "p12", "paper p12", "Δ", "p13", "paper p13", "Δ"], &lines);
        md.push_str(&format!(
            "\nTree (our closest natural tree, see `docs/paper-readings.md`, π₁ = max): `{}`; unit cost per play, \
             the last arc costs 0 into a win and 2 into a loss.\n\n",
            paper::TABLE1_TREE
        ));
        md.push_str(&format!(
            "Verdict: **{}** on our tree (number rule: largest deviation {max_dev:.4}, {} the {AGREEMENT} tolerance), \
             but not exactly reproducible: the paper does not give its tree, and its θ = 0.5 column sums to 0.996, so at least one printed \
             entry is a misprint: no tree reproduces every printed digit. The tree above is the closest natural \
             one (not tuned to the printed numbers); it agrees on the qualitative claim — p12 → 1 as θ grows, \
             p12 → 1/2 as θ → 0.\n",
            if max_dev <= AGREEMENT { "reproduced" } else { "not reproduced" },
            if max_dev <= AGREEMENT { "within" } else { "outside" }
        ));
        Ok(Finished { rows, markdown: md, svg: None })
    }
}

/// Tables II and III: θ̂, ε̂ and the expected costs by entropy.
#[derive(Debug)]
pub struct EntropyTable {
    /// 2 (Fig. 5 tree) or 3 (Fig. 6 tree).
    pub number: u8,
}

impl EntropyTable {
    fn utilities(&self) -> [f64; 5] {
        if self.number == 2 { [1.0, 2.0, 98.0, 99.0, 100.0] } else { [1.0, 2.0, 3.0, 4.0, 5.0] }
    }
    /// The paper's printed table.
    pub fn printed(&self) -> &'static [TableRow; 10] {
        if self.number == 2 { &paper::TABLE2_PAPER } else { &paper::TABLE3_PAPER }
    }
}

/// The fields compared with the paper: (our field, the `TableRow` value).
pub fn table_fields(r: &TableRow) -> [(&'static str, f64); 4] {
    [("theta", r.theta), ("ec_rminimax", r.cost_rminimax), ("eps", r.epsilon), ("ec_egreedy", r.cost_epsilon_greedy)]
}

impl Experiment for EntropyTable {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        if self.number == 2 { "rminimax-table2" } else { "rminimax-table3" }
    }
    fn source(&self) -> &'static str {
        if self.number == 2 { "seed 000, Table II (Fig. 5 tree)" } else { "seed 000, Table III (Fig. 6 tree)" }
    }
    fn description(&self) -> &'static str {
        if self.number == 2 {
            "θ̂, E[C] of Rminimax, ε̂, E[C] of ε-greedy for H = 1.0 … 0.1 on the Fig. 5 tree (utilities 1, 2, 98, 99, 100)"
        } else {
            "θ̂, E[C] of Rminimax, ε̂, E[C] of ε-greedy for H = 1.0 … 0.1 on the Fig. 6 tree (utilities 1, 2, 3, 4, 5)"
        }
    }
    fn params(&self, _scale: Scale) -> Value {
        json!({ "tree": paper::figure_tree(self.utilities()), "bisection_tolerance": PAPER_TOLERANCE,
                "theta_range": [0.0001, 10.0], "epsilon_range": [0.0001, 0.9999] })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        vec!["table".into()]
    }
    fn run_cell(&self, _scale: Scale, cell: &str, _seed: u64) -> Result<Vec<Row>, String> {
        if cell != "table" {
            return Err(format!("unknown cell {cell}"));
        }
        let analysis = paper::figure_analysis(self.utilities()).map_err(err)?;
        let ours = paper::table(&analysis).map_err(err)?;
        let exact = paper::table_exact(&analysis).map_err(err)?;
        let mut rows = Vec::new();
        for ((o, x), p) in ours.iter().zip(&exact).zip(self.printed()) {
            if (o.entropy - p.entropy).abs() > 1e-12 || (x.entropy - p.entropy).abs() > 1e-12 {
                return Err(format!("row order mismatch at H = {}", p.entropy));
            }
            let mut r = row!("H" => o.entropy);
            for ((name, ours), (_, paper)) in table_fields(o).into_iter().zip(table_fields(p)) {
                r.insert(name.into(), json!(ours));
                r.insert(format!("paper_{name}"), json!(paper));
                r.insert(format!("diff_{name}"), json!(ours - paper));
            }
            for (name, v) in table_fields(x) {
                r.insert(format!("exact_{name}"), json!(v));
            }
            // The entropies actually reached (the bisection stops within its
            // tolerance of H).
            let h_theta = analysis.entropy(TreePolicy::Rminimax { theta: o.theta }).map_err(err)?;
            let h_eps = analysis.entropy(PolicyFamily::EpsilonGreedy.with(o.epsilon)).map_err(err)?;
            r.insert("H_at_theta".into(), json!(h_theta));
            r.insert("H_at_eps".into(), json!(h_eps));
            if (p.epsilon - (paper::EPSILON_ANOMALY * 1e4).round() / 1e4).abs() < 1e-9 {
                let (h, c) = paper::anomaly_expected_cost(&analysis).map_err(err)?;
                r.insert("paper_eps_unrounded".into(), json!(paper::EPSILON_ANOMALY));
                r.insert("H_at_paper_eps".into(), json!(h));
                r.insert("ec_egreedy_at_paper_eps".into(), json!(c));
                r.insert("diff_ec_egreedy_at_paper_eps".into(), json!(c - p.cost_epsilon_greedy));
            }
            rows.push(r);
        }
        Ok(rows)
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let rows: Vec<Row> = cells.iter().flat_map(|(_, r)| r.iter().cloned()).collect();
        let names = ["theta", "ec_rminimax", "eps", "ec_egreedy"];
        let mut lines = Vec::new();
        let mut max_dev: f64 = 0.0;
        let mut outside = Vec::new();
        let mut exact_dev: f64 = 0.0;
        let mut anomaly = None;
        // The anomaly row's ε-greedy entries are compared at the paper's own
        // (mis-stopped) ε̂; the stated procedure's values are shown beside.
        let mut anomaly_dev: f64 = 0.0;
        for r in &rows {
            let is_anomaly = r.contains_key("ec_egreedy_at_paper_eps");
            let mut line = vec![format!("{:.1}", f(r, "H"))];
            for name in names {
                let mut d = f(r, &format!("diff_{name}"));
                if is_anomaly && (name == "eps" || name == "ec_egreedy") {
                    let stated = d;
                    d = if name == "eps" {
                        paper::EPSILON_ANOMALY - f(r, "paper_eps")
                    } else {
                        f(r, "diff_ec_egreedy_at_paper_eps")
                    };
                    anomaly_dev = anomaly_dev.max(stated.abs());
                }
                if d.is_nan() || d.abs() > AGREEMENT {
                    outside.push(format!("{name} at H = {:.1} (Δ = {d:+.4})", f(r, "H")));
                }
                max_dev = max_dev.max(d.abs());
                exact_dev = exact_dev.max((f(r, &format!("exact_{name}")) - f(r, &format!("paper_{name}"))).abs());
                let d = f(r, &format!("diff_{name}"));
                line.push(format!("{:.4} ({}) {d:+.4}", f(r, name), f(r, &format!("paper_{name}"))));
            }
            line.push(format!(
                "{:.4} / {:.4} / {:.4} / {:.4}",
                f(r, "exact_theta"),
                f(r, "exact_ec_rminimax"),
                f(r, "exact_eps"),
                f(r, "exact_ec_egreedy")
            ));
            if is_anomaly {
                anomaly = Some(r.clone());
            }
            lines.push(line);
        }
        let mut md = table(
            &[
                "H",
                "θ̂ (paper) Δ",
                "E[C] Rminimax (paper) Δ",
                "ε̂ (paper) Δ",
                "E[C] ε-greedy (paper) Δ",
                "exact θ / E[C] / ε / E[C]",
            ],
            &lines,
        );
        md.push_str(&format!(
            "\nTree (our reconstruction, see `docs/paper-readings.md`, π₁ = min randomized, π₂ = max): `{}`; every interior arc costs 1, \
             the arc into a leaf its utility. θ̂ and ε̂ by the paper's bisection (stop when |H − H₀| < {PAPER_TOLERANCE}; \
             θ in [0.0001, 10], ε in [0.0001, 0.9999]); E[C] at the unrounded result. The last column solves H = H₀ exactly \
             (largest deviation from the printed values {exact_dev:.4}).\n\n",
            paper::figure_tree(self.utilities())
        ));
        let verdict = if outside.is_empty() { "reproduced" } else { "not reproduced" };
        md.push_str(&format!(
            "Verdict: **{verdict}**: largest deviation from the printed values {max_dev:.4} (criterion {AGREEMENT}){}. \
             The H = 0.9 ε-greedy entries are compared at the paper's own ε̂ (its bisection's anomaly, below); the \
             stated bisection run to its end differs from them by up to {anomaly_dev:.4} there (the Δ shown in that row).\n",
            if outside.is_empty() { String::new() } else { format!("; outside: {}", outside.join(", ")) }
        ));
        if let Some(a) = anomaly {
            md.push_str(&format!(
                "\nThe ε̂ anomaly (H = 0.9): the paper prints ε̂ = 0.7187, whose entropy is {:.4}, outside the bisection's \
                 own tolerance. It is the bisection's fifth midpoint, ε = {}; the printed E[C] ε-greedy of that row ({}) is \
                 the expected cost at that ε: {:.4}. Following the stated bisection to the end gives ε̂ = {:.4} (entropy \
                 {:.4}) and E[C] = {:.4}, the values shown in the table's row.\n",
                f(&a, "H_at_paper_eps"),
                paper::EPSILON_ANOMALY,
                f(&a, "paper_ec_egreedy"),
                f(&a, "ec_egreedy_at_paper_eps"),
                f(&a, "eps"),
                f(&a, "H_at_eps"),
                f(&a, "ec_egreedy"),
            ));
        }
        Ok(Finished { rows, markdown: md, svg: None })
    }
}
