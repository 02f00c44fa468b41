//! The worked examples of seed 003 (IOM), computed by the library's rules on
//! the example trees: EMM's Fig. 5, IOM's Fig. 6 and PIOM's Fig. 7.
//!
//! The figures themselves are not in the text; the text gives their numbers,
//! and our trees are chosen to give exactly those (`docs/paper-readings.md`).
//! Each experiment is one cell and exact: verdicts compare numbers with
//! tolerance 0.

use search_core::backup::{ConstantError, Emm, EmmValue, Iom, Minimax};
use search_core::search::{Bound, Limits, Options, Search};
use search_core::tree::{LiteralEval, LiteralTree};
use search_core::{Game, GameError};
use serde_json::{Value, json};

use crate::reproduce::output::table;
use crate::reproduce::verdict::{self, Verdict};
use crate::reproduce::{Experiment, Finished, Row, Scale, row};

/// The three worked examples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Example {
    /// Fig. 5: EMM with a 10% leaf error at node types I, II, III.
    Fig5Emm,
    /// Fig. 6: IOM's backed-up values and decision.
    Fig6,
    /// Fig. 7: PIOM's window and cut-off.
    Fig7,
}

/// Fig. 6's tree (Fig. 2's with static values on the interior nodes):
/// static values in brackets from max's view, so `B=min[9]` is `e_B = −9`.
const FIG6_TREE: &str = "A=max[7](B=min[9](D=8, E=7), C=min[4](F=9, G=10))";

/// Fig. 5's nodes, each a max node over two min children whose static
/// values are given (`min[1]`: a loss for min, a winning move for max):
/// A (type I: both children lost for their mover), D (type II: one), G
/// (type III: none). The root's own static verdict is wrong in every case
/// (a loss for A and D, a win for G), so the choice between static and
/// backed-up value shows.
const FIG5_NODES: [(&str, &str, &str, f64); 3] = [
    ("A", "I", "max[-1](min[1](0), min[1](0))", 0.01),
    ("D", "II", "max[-1](min[1](0), min[-1](0))", 0.09),
    ("G", "III", "max[1](min[-1](0), min[-1](0))", 0.19),
];
const FIG5_LEAF_ERROR: f64 = 0.1;

fn parse(t: &str) -> Result<LiteralTree, String> {
    t.parse().map_err(|e: GameError| e.to_string())
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// EMM's root value of `tree` searched one ply deep, as (win, error): the
/// rule's number is P(win) − P(loss), so for errors up to ½ the pair is
/// (x > 0, (1 − |x|)/2).
fn emm_root(tree: &LiteralTree, model: impl search_core::backup::ErrorModel) -> Result<(bool, f64), String> {
    let r = Search::new(Emm::new(model), LiteralEval, Options::full_width())
        .map_err(err)?
        .run(tree, &Limits::depth(1))
        .map_err(err)?;
    let x = r.value.ok_or("no value")?;
    Ok((x > 0.0, (1.0 - x.abs()) / 2.0))
}

/// The IOM value of the child `label` of `t`, searched `depth` plies.
fn iom_child(t: &LiteralTree, label: &str, depth: u32) -> Result<f64, String> {
    let mut c = t.clone();
    c.play(t.move_to(label).ok_or("no such child")?);
    Search::new(Iom::new(), LiteralEval, Options::full_width())
        .map_err(err)?
        .run(&c, &Limits::depth(depth))
        .map_err(err)?
        .value
        .ok_or_else(|| "no value".into())
}

/// A check: what, ours, the paper's, and whether they agree exactly.
fn check(rows: &mut Vec<Row>, what: &str, ours: &str, paper: &str) {
    rows.push(verdict::exact_row(what, ours, paper));
}

impl Experiment for Example {
    fn version(&self) -> u32 {
        1
    }
    fn name(&self) -> &'static str {
        match self {
            Example::Fig5Emm => "iom-fig5-emm-example",
            Example::Fig6 => "iom-fig6",
            Example::Fig7 => "iom-fig7",
        }
    }
    fn source(&self) -> &'static str {
        match self {
            Example::Fig5Emm => "seed 003 (IOM), §2.3 and Fig. 5",
            Example::Fig6 => "seed 003 (IOM), §3.2 and Fig. 6",
            Example::Fig7 => "seed 003 (IOM), §3.3 and Fig. 7",
        }
    }
    fn description(&self) -> &'static str {
        match self {
            Example::Fig5Emm => {
                "EMM's worked example: backed-up errors 1%, 9%, 19% at node types I, II, III (leaf error 10%)"
            }
            Example::Fig6 => "IOM's worked example: b_B = −23, b_C = −22, b_A = 53, IOM plays B where minimax plays C",
            Example::Fig7 => "PIOM's worked example: C searched with window (−∞, −23), cut when its value reaches −22",
        }
    }
    fn params(&self, _scale: Scale) -> Value {
        match self {
            Example::Fig5Emm => json!({ "leaf_error": FIG5_LEAF_ERROR,
                "nodes": FIG5_NODES.iter().map(|n| json!({ "node": n.0, "type": n.1, "tree": n.2 })).collect::<Vec<_>>() }),
            _ => json!({ "tree": FIG6_TREE }),
        }
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        vec!["example".into()]
    }
    fn run_cell(&self, _scale: Scale, _cell: &str, _seed: u64) -> Result<Vec<Row>, String> {
        let mut rows = Vec::new();
        match self {
            Example::Fig5Emm => {
                let ten = ConstantError::new(FIG5_LEAF_ERROR).map_err(err)?;
                for (node, kind, tree, paper_backup) in FIG5_NODES {
                    let t = parse(tree)?;
                    // The backed-up error alone: the same node with its own
                    // static value 0, given error 1 (never kept).
                    let backup_only =
                        move |h: f64| EmmValue { win: h > 0.0, error: if h == 0.0 { 1.0 } else { FIG5_LEAF_ERROR } };
                    let zero_root = parse(&tree.replacen("max[-1]", "max[0]", 1).replacen("max[1]", "max[0]", 1))?;
                    let (_, backup) = emm_root(&zero_root, backup_only)?;
                    let (win, chosen) = emm_root(&t, ten)?;
                    let static_win = tree.starts_with("max[1]");
                    let keeps = if (chosen - backup).abs() < 1e-12 && win != static_win { "backup" } else { "static" };
                    let paper_keeps = if kind == "III" { "static" } else { "backup" };
                    rows.push(row!("node" => node, "type" => kind, "static_error" => FIG5_LEAF_ERROR,
                                   "backup_error" => backup, "paper_backup_error" => paper_backup,
                                   "keeps" => keeps, "paper_keeps" => paper_keeps, "root_error" => chosen));
                }
            }
            Example::Fig6 => {
                let t = parse(FIG6_TREE)?;
                let (b, c) = (iom_child(&t, "B", 1)?, iom_child(&t, "C", 1)?);
                let r = Search::new(Iom::new(), LiteralEval, Options::full_width())
                    .map_err(err)?
                    .run(&t, &Limits::depth(2))
                    .map_err(err)?;
                let mm = Search::new(Minimax, LiteralEval, Options::full_width())
                    .map_err(err)?
                    .run(&t, &Limits::full_tree())
                    .map_err(err)?;
                let name = |m: Option<u32>| {
                    if m.is_some() && m == t.move_to("B") {
                        "B"
                    } else if m.is_some() && m == t.move_to("C") {
                        "C"
                    } else {
                        "?"
                    }
                };
                check(&mut rows, "b_B", &format!("{b}"), "-23");
                check(&mut rows, "b_C", &format!("{c}"), "-22");
                check(&mut rows, "b_A", &format!("{}", r.value.unwrap_or(f64::NAN)), "53");
                check(&mut rows, "IOM plays", name(r.best), "B");
                check(&mut rows, "minimax plays", name(mm.best), "C");
            }
            Example::Fig7 => {
                let t = parse(FIG6_TREE)?;
                let p = Search::new(Iom::new(), LiteralEval, Options::plain_alpha_beta())
                    .map_err(err)?
                    .run(&t, &Limits::depth(2))
                    .map_err(err)?;
                let f = Search::new(Iom::new(), LiteralEval, Options::full_width())
                    .map_err(err)?
                    .run(&t, &Limits::depth(2))
                    .map_err(err)?;
                let c = p.root_moves.get(1).ok_or("no second root move")?;
                // C's window is (−∞, (e_A − b_A)/2); its value when cut, from
                // the root's candidate e_A − 2·b_C.
                let e_a = 7.0;
                let beta_c = (e_a - f.value.unwrap_or(f64::NAN)) / 2.0;
                let c_value = (e_a - c.score) / 2.0;
                check(&mut rows, "C's window", &format!("(-inf, {beta_c})"), "(-inf, -23)");
                check(&mut rows, "C's value when cut", &format!("{c_value}"), "-22");
                check(&mut rows, "C fails (bound)", if c.bound == Bound::Upper { "cut" } else { "exact" }, "cut");
                check(&mut rows, "nodes PIOM / IOM", &format!("{} / {}", p.stats.nodes, f.stats.nodes), "6 / 7");
                check(
                    &mut rows,
                    "same decision and value",
                    &format!("{}", p.best == f.best && p.value == f.value),
                    "true",
                );
            }
        }
        Ok(rows)
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let rows: Vec<Row> = cells.iter().flat_map(|(_, r)| r.iter().cloned()).collect();
        let mut md = String::new();
        let verdicts: Vec<Verdict> = match self {
            Example::Fig5Emm => {
                let mut lines = Vec::new();
                let mut vs = Vec::new();
                for r in &rows {
                    let b = r["backup_error"].as_f64().unwrap_or(f64::NAN);
                    let pb = r["paper_backup_error"].as_f64().unwrap_or(f64::NAN);
                    // Exact, up to floating point (1e-12).
                    let v1 = verdict::number(b, 0.0, pb, 1e-12);
                    let v2 = if r["keeps"] == r["paper_keeps"] { Verdict::Reproduced } else { Verdict::NotReproduced };
                    vs.extend([v1, v2]);
                    lines.push(vec![
                        r["node"].as_str().unwrap_or("").to_string(),
                        r["type"].as_str().unwrap_or("").to_string(),
                        format!("{:.0}%", 100.0 * FIG5_LEAF_ERROR),
                        format!("{:.2}% ({:.0}%)", 100.0 * b, 100.0 * pb),
                        format!("{} ({})", r["keeps"].as_str().unwrap_or(""), r["paper_keeps"].as_str().unwrap_or("")),
                        verdict::combine([v1, v2]).to_string(),
                    ]);
                }
                md.push_str(
                    "Each node is a max node over two min children whose static values are misjudged with \
                     probability 10%; the node's own static value also has error 10%. EMM keeps the value with \
                     the smaller error. Ours (paper's):\n\n",
                );
                md.push_str(&table(
                    &["node", "type", "static error", "backed-up error", "EMM keeps", "verdict"],
                    &lines,
                ));
                vs
            }
            _ => {
                let lines: Vec<Vec<String>> = rows
                    .iter()
                    .map(|r| {
                        ["quantity", "ours", "paper", "verdict"]
                            .iter()
                            .map(|k| r[*k].as_str().unwrap_or("").to_string())
                            .collect()
                    })
                    .collect();
                md.push_str(&format!(
                    "Tree `{FIG6_TREE}` (static values in brackets, from max's view: `B=min[9]` is e_B = −9 for \
                     min), chosen to give every number the text prints.\n\n"
                ));
                md.push_str(&table(&["quantity", "ours", "paper", "verdict"], &lines));
                rows.iter().map(verdict::of_exact_row).collect()
            }
        };
        md.push_str(&format!(
            "\nVerdict (exact numbers, tolerance 0): **{}**.\n",
            verdict::combine(verdicts.iter().copied())
        ));
        Ok(Finished { rows, markdown: md, svg: None })
    }
}
