//! `lecture-nash`: seed 002's matrix game. When the other side's choice is
//! hidden there is no tree to search; the lecture defines a Nash
//! equilibrium ("no player can do better by unilaterally changing his or
//! her strategy"), prints the prisoners' dilemma, and closes with two
//! claims: different strategies may each be the best against a different
//! opponent, and when an equilibrium exists its strategies are the ones
//! usually taken as optimal.
//!
//! Everything here is exact (the `equilibria` crate's rational arithmetic),
//! one cell, tolerance 0. Each statement is checked twice where it can be:
//! by the solver and by brute force over the pure profiles or a grid of
//! mixed strategies, so that a wrong solver would show as a disagreement.

use equilibria::{Bimatrix, Options, Rational, frac, int, solve};
use serde_json::{Value, json};

use crate::reproduce::output::table;
use crate::reproduce::verdict::{self, Verdict};
use crate::reproduce::{Experiment, Finished, Row, Scale, row};

/// `lecture-nash`: seed 002's matrix games (module documentation).
#[derive(Debug)]
pub struct Nash;

/// The prisoners' dilemma as the lecture prints it, in years in prison:
/// `YEARS[a][b] = (A's years, B's years)` with strategies (stays silent,
/// confesses).
const YEARS: [[(i64, i64); 2]; 2] = [[(1, 1), (5, 0)], [(0, 5), (3, 3)]];
const PD_STRATEGIES: [&str; 2] = ["stays silent", "confesses"];

/// Rock, paper, scissors (row player's payoff; zero-sum): our choice of the
/// simplest game with hidden choices and no pure equilibrium, for the
/// lecture's two closing claims, which it states without an example.
const RPS: [[i64; 3]; 3] = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]];
const RPS_STRATEGIES: [&str; 3] = ["rock", "paper", "scissors"];
/// The mixed strategies tried by brute force: every probability vector over
/// the three moves with denominators `GRID`.
const GRID: i64 = 12;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The prisoners' dilemma with payoffs = minus the years.
fn prisoners_dilemma() -> Result<Bimatrix, String> {
    let a: Vec<Vec<i64>> = YEARS.iter().map(|r| r.iter().map(|y| -y.0).collect()).collect();
    let b: Vec<Vec<i64>> = YEARS.iter().map(|r| r.iter().map(|y| -y.1).collect()).collect();
    Bimatrix::from_integers(&a, &b).map_err(err)
}

fn pure(n: usize, i: usize) -> Vec<Rational> {
    (0..n).map(|k| int(i64::from(k == i))).collect()
}

/// The largest gain a player gets by changing strategy alone at the pure
/// profile (i, j): (row player's, column player's).
pub fn deviation_gains(g: &Bimatrix, i: usize, j: usize) -> (Rational, Rational) {
    let row = (0..g.rows()).map(|k| g.a(k, j) - g.a(i, j)).max().unwrap_or_else(|| int(0));
    let col = (0..g.cols()).map(|k| g.b(i, k) - g.b(i, j)).max().unwrap_or_else(|| int(0));
    (row, col)
}

/// The row player's worst payoff with mixed strategy `x` in a game whose
/// column player may pick anything: the minimum over pure replies.
fn guarantee(g: &Bimatrix, x: &[Rational]) -> Rational {
    (0..g.cols()).map(|j| (0..g.rows()).map(|i| &x[i] * g.a(i, j)).sum::<Rational>()).min().unwrap_or_else(|| int(0))
}

/// A check: what, ours, the expected, and whether they agree exactly.
fn check(rows: &mut Vec<Row>, part: &str, what: &str, ours: String, expected: &str) {
    let mut r = verdict::exact_row(what, &ours, expected);
    r.insert("part".into(), json!(part));
    rows.push(r);
}

fn list(v: &[Rational]) -> String {
    format!("({})", v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
}

impl Experiment for Nash {
    fn version(&self) -> u32 {
        // 2: the expected value is stored under `paper`, as in every exact
        // row (`verdict::exact_row`).
        2
    }
    fn name(&self) -> &'static str {
        "lecture-nash"
    }
    fn source(&self) -> &'static str {
        "seed 002 (lecture), Nash equilibrium and the prisoners' dilemma"
    }
    fn description(&self) -> &'static str {
        "the prisoners' dilemma solved exactly (both confess, 3 years each), checked by brute force; the \
         lecture's closing claims on rock, paper, scissors"
    }
    fn params(&self, _scale: Scale) -> Value {
        json!({ "prisoners_dilemma_years": YEARS.iter().map(|r| r.iter().map(|y| [y.0, y.1]).collect::<Vec<_>>())
                    .collect::<Vec<_>>(),
                "strategies": PD_STRATEGIES, "rock_paper_scissors": RPS, "mixed_grid": GRID })
    }
    fn cells(&self, _scale: Scale) -> Vec<String> {
        vec!["example".into()]
    }
    fn run_cell(&self, _scale: Scale, _cell: &str, _seed: u64) -> Result<Vec<Row>, String> {
        let mut rows = Vec::new();
        // The prisoners' dilemma.
        let pd = prisoners_dilemma()?;
        let mut brute = Vec::new();
        for (i, a) in PD_STRATEGIES.iter().enumerate() {
            for (j, b) in PD_STRATEGIES.iter().enumerate() {
                let (ga, gb) = deviation_gains(&pd, i, j);
                let nash = ga <= int(0) && gb <= int(0);
                if nash {
                    brute.push((i, j));
                }
                rows.push(row!("part" => "pd-profile", "a" => a, "b" => b, "years_a" => YEARS[i][j].0,
                               "years_b" => YEARS[i][j].1, "gain_a" => ga.to_string(), "gain_b" => gb.to_string(),
                               "equilibrium" => nash));
            }
        }
        let s = solve(&pd, &Options::default()).map_err(err)?;
        let found: Vec<String> =
            s.equilibria.iter().map(|e| format!("A {}, B {}", list(&e.row), list(&e.col))).collect();
        let confess = list(&pure(2, 1));
        check(
            &mut rows,
            "pd",
            "equilibria (probabilities of stays silent, confesses)",
            found.join("; "),
            &format!("A {confess}, B {confess}"),
        );
        check(
            &mut rows,
            "pd",
            "the list is every equilibrium, mixed ones included",
            format!("{}", s.complete && !s.degenerate),
            "true",
        );
        let years: Vec<String> =
            s.equilibria.iter().map(|e| format!("{}, {}", -&e.payoffs[0], -&e.payoffs[1])).collect();
        check(&mut rows, "pd", "years served at the equilibrium (A, B)", years.join("; "), "3, 3");
        let brute_names: Vec<String> =
            brute.iter().map(|&(i, j)| format!("{} / {}", PD_STRATEGIES[i], PD_STRATEGIES[j])).collect();
        check(
            &mut rows,
            "pd",
            "pure profiles no one can improve alone (brute force)",
            brute_names.join("; "),
            "confesses / confesses",
        );
        let dominant_a = (0..2).all(|j| pd.a(1, j) > pd.a(0, j));
        let dominant_b = (0..2).all(|i| pd.b(i, 1) > pd.b(i, 0));
        check(
            &mut rows,
            "pd",
            "confessing is better whatever the other does (A, B)",
            format!("{dominant_a}, {dominant_b}"),
            "true, true",
        );
        let better_both = pd.a(0, 0) > pd.a(1, 1) && pd.b(0, 0) > pd.b(1, 1);
        check(
            &mut rows,
            "pd",
            "both staying silent is better for both than the equilibrium",
            format!("{better_both}"),
            "true",
        );

        // Rock, paper, scissors.
        let rps = Bimatrix::zero_sum_integers(&RPS.iter().map(|r| r.to_vec()).collect::<Vec<_>>()).map_err(err)?;
        let s = solve(&rps, &Options::default()).map_err(err)?;
        let found: Vec<String> = s.equilibria.iter().map(|e| format!("{}, {}", list(&e.row), list(&e.col))).collect();
        let third = list(&[frac(1, 3), frac(1, 3), frac(1, 3)]);
        check(&mut rows, "rps", "equilibria", found.join("; "), &format!("{third}, {third}"));
        check(&mut rows, "rps", "the list is every equilibrium", format!("{}", s.complete && !s.degenerate), "true");
        check(
            &mut rows,
            "rps",
            "value (row player's payoff)",
            s.value.as_ref().map_or("none".into(), ToString::to_string),
            "0",
        );
        // Each pure strategy is the one best reply to some opponent.
        let mut best_against = Vec::new();
        for (i, name) in RPS_STRATEGIES.iter().enumerate() {
            let beats = (0..3).find(|&j| (0..3).all(|k| k == i || rps.a(i, j) > rps.a(k, j)));
            best_against.push(match beats {
                Some(j) => format!("{name}: {}", RPS_STRATEGIES[j]),
                None => format!("{name}: none"),
            });
            rows.push(row!("part" => "rps-pure", "strategy" => name,
                           "unique_best_reply_to" => beats.map_or("none", |j| RPS_STRATEGIES[j]),
                           "guarantee" => guarantee(&rps, &pure(3, i)).to_string()));
        }
        check(
            &mut rows,
            "rps",
            "each strategy is the one best reply to an opponent who always plays",
            best_against.join("; "),
            "rock: scissors; paper: rock; scissors: paper",
        );
        // The guarantee of every mixed strategy on the grid: only the
        // equilibrium's reaches the value.
        let mut tried = 0;
        let mut reaching = Vec::new();
        let mut best_other: Option<Rational> = None;
        for r in 0..=GRID {
            for p in 0..=GRID - r {
                let x = [frac(r, GRID), frac(p, GRID), frac(GRID - r - p, GRID)];
                let g = guarantee(&rps, &x);
                tried += 1;
                if g >= int(0) {
                    reaching.push(list(&x));
                } else if best_other.as_ref().is_none_or(|b| &g > b) {
                    best_other = Some(g);
                }
            }
        }
        check(
            &mut rows,
            "rps",
            &format!("strategies on the 1/{GRID} grid ({tried}) that guarantee the value"),
            reaching.join("; "),
            &third,
        );
        rows.push(row!("part" => "rps-grid", "strategies" => tried,
                       "best_other_guarantee" => best_other.map_or("none".into(), |b| b.to_string())));
        Ok(rows)
    }
    fn finish(&self, _scale: Scale, cells: &[(String, Vec<Row>)]) -> Result<Finished, String> {
        let rows: Vec<Row> = cells.iter().flat_map(|(_, r)| r.iter().cloned()).collect();
        let s = |r: &Row, k: &str| match r.get(k) {
            Some(Value::String(x)) => x.clone(),
            Some(x) => x.to_string(),
            None => String::new(),
        };
        let part = |p: &'static str| rows.iter().filter(move |r| r.get("part").and_then(Value::as_str) == Some(p));
        let checks = |p: &'static str| -> Vec<Vec<String>> {
            part(p).map(|r| ["quantity", "ours", "paper", "verdict"].iter().map(|k| s(r, k)).collect()).collect()
        };
        let mut md = String::from(
            "The lecture's prisoners' dilemma (years in prison; payoffs are minus the years): both silent, 1 year \
             each; one confesses, the confessor goes free and the other serves 5; both confess, 3 years each. \
             Solved exactly by the `equilibria` crate (support enumeration over every pair of supports, so mixed \
             equilibria would be found too), and checked by brute force: at each pure profile, the most a player \
             gains by changing alone (the lecture's definition: an equilibrium when neither gains).\n\n",
        );
        let profiles: Vec<Vec<String>> = part("pd-profile")
            .map(|r| {
                vec![
                    format!("{} / {}", s(r, "a"), s(r, "b")),
                    format!("{}, {}", s(r, "years_a"), s(r, "years_b")),
                    format!("{}, {}", s(r, "gain_a"), s(r, "gain_b")),
                    if r.get("equilibrium") == Some(&Value::Bool(true)) { "yes".into() } else { "no".into() },
                ]
            })
            .collect();
        md.push_str(&table(&["A / B", "years (A, B)", "gain by changing alone (A, B)", "equilibrium"], &profiles));
        md.push('\n');
        md.push_str(&table(&["quantity", "ours", "expected", "verdict"], &checks("pd")));
        md.push_str(
            "\nThe lecture's closing claims (\"different strategies may be applied and may all be considered \
             optimum against different opponents\"; \"if equilibrium exists, it is usually considered as the \
             optimum strategy\") come without an example; we check them on rock, paper, scissors, the simplest \
             game with hidden choices and no pure equilibrium (our choice). A strategy's guarantee is its \
             worst expected payoff over the opponent's replies.\n\n",
        );
        let pures: Vec<Vec<String>> =
            part("rps-pure").map(|r| vec![s(r, "strategy"), s(r, "unique_best_reply_to"), s(r, "guarantee")]).collect();
        md.push_str(&table(&["strategy", "the one best reply to", "guarantee"], &pures));
        md.push('\n');
        md.push_str(&table(&["quantity", "ours", "expected", "verdict"], &checks("rps")));
        if let Some(g) = part("rps-grid").next() {
            md.push_str(&format!(
                "\nOf the {} mixed strategies on the grid, every one but the equilibrium's guarantees at most {}.\n",
                s(g, "strategies"),
                s(g, "best_other_guarantee")
            ));
        }
        let vs = |p: &'static str| -> Vec<Verdict> { part(p).map(verdict::of_exact_row).collect() };
        let (pd, rps) = (verdict::combine(vs("pd")), verdict::combine(vs("rps")));
        md.push_str(&format!(
            "\nVerdicts (exact, tolerance 0):\n\n- The prisoners' dilemma: the one equilibrium is both confess, 3 \
             years each, though both silent would serve 1: **{pd}**.\n- The closing claims on rock, paper, \
             scissors: **{rps}**.\n- Overall: **{}**.\n",
            verdict::combine([pd, rps])
        ));
        Ok(Finished { rows, markdown: md, svg: None })
    }
}
