//! A match's statistics from A's side: wins, draws and losses, Elo with its
//! interval, pentanomial counts, LOS, and the SPRT's verdict; as a report,
//! as JSON, and as a one-line progress summary.

use serde_json::{Value, json};
use strength::elo::{Estimate, GameResult};
use strength::pairing::{GameScore, PairOutcome};
use strength::pentanomial::{Pentanomial, Trinomial};
use strength::sprt::{Sprt, SprtError, SprtStatus};

/// `--sprt elo0,elo1` with its error rates.
#[derive(Debug, Clone, Copy)]
pub struct SprtSettings {
    /// Elo difference of H0 (logistic Elo).
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl SprtSettings {
    /// The test these settings describe (an error for bounds or rates it
    /// cannot take).
    pub fn test(&self) -> Result<Sprt, SprtError> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta)
    }
}

fn result_of(g: &GameScore) -> GameResult {
    if g.score > 0.75 {
        GameResult::Win
    } else if g.score < 0.25 {
        GameResult::Loss
    } else {
        GameResult::Draw
    }
}

/// A's wins, draws and losses over the games of `pairs` (a game scoring
/// above ¾ is a win, below ¼ a loss).
pub fn trinomial(pairs: &[PairOutcome]) -> Trinomial {
    let mut t = Trinomial::default();
    for p in pairs {
        t.add_pair(result_of(&p.a_first), result_of(&p.b_first));
    }
    t
}

fn pentanomial(pairs: &[PairOutcome]) -> Pentanomial {
    let mut p = Pentanomial::default();
    for pair in pairs {
        p.add_pair(result_of(&pair.a_first), result_of(&pair.b_first));
    }
    p
}

/// The first cell (index in cell order) at which the SPRT over the pairs of
/// cells `0..=i` decides, if any; stops at the first missing cell.
pub fn sprt_stop(cells: &[Option<Vec<PairOutcome>>], s: &SprtSettings) -> Option<usize> {
    let test = s.test().ok()?;
    let mut p = Pentanomial::default();
    for (i, cell) in cells.iter().enumerate() {
        let cell = cell.as_ref()?;
        p.merge(&pentanomial(cell));
        if test.status(&p) != SprtStatus::Continue {
            return Some(i);
        }
    }
    None
}

/// A match's statistics, from A's side.
#[derive(Debug, Clone)]
pub struct MatchSummary {
    penta: Pentanomial,
    tri: Trinomial,
    adjudicated: u64,
    mean_plies: f64,
    sprt: Option<(SprtSettings, f64, (f64, f64), SprtStatus)>,
}

impl MatchSummary {
    /// A's wins, draws and losses.
    pub fn trinomial(&self) -> &Trinomial {
        &self.tri
    }

    /// The pairs by A's score (0, ½, 1, 1½, 2).
    pub fn pentanomial(&self) -> &Pentanomial {
        &self.penta
    }

    /// Games that hit the ply limit and were scored draws.
    pub fn adjudicated(&self) -> u64 {
        self.adjudicated
    }

    /// The SPRT's verdict, where the summary was made with one.
    pub fn sprt_status(&self) -> Option<SprtStatus> {
        self.sprt.map(|s| s.3)
    }
}

fn fmt_estimate(e: Option<Estimate>, unit: &str) -> String {
    match e {
        Some(e) => format!("{:+.1}{unit} (95% interval {:+.1} .. {:+.1})", e.value, e.low, e.high),
        None => "n/a".into(),
    }
}

fn estimate_json(e: Option<Estimate>) -> Value {
    match e {
        Some(e) => json!({"value": finite(e.value), "low": finite(e.low), "high": finite(e.high)}),
        None => Value::Null,
    }
}

/// JSON has no infinities: ±∞ is written as a string.
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else if x.is_nan() {
        Value::Null
    } else {
        json!(if x > 0.0 { "inf" } else { "-inf" })
    }
}

impl MatchSummary {
    /// The statistics of `pairs`, with the SPRT's state where `sprt` is given.
    pub fn new(pairs: &[PairOutcome], sprt: Option<&SprtSettings>) -> Self {
        let penta = pentanomial(pairs);
        let mut tri = Trinomial::default();
        let mut adjudicated = 0;
        let mut plies = 0usize;
        for p in pairs {
            tri.add_pair(result_of(&p.a_first), result_of(&p.b_first));
            adjudicated += u64::from(p.a_first.adjudicated) + u64::from(p.b_first.adjudicated);
            plies += p.a_first.plies + p.b_first.plies;
        }
        let sprt = sprt.and_then(|s| {
            let t = s.test().ok()?;
            Some((*s, t.llr(&penta), t.bounds(), t.status(&penta)))
        });
        let mean_plies = if pairs.is_empty() { 0.0 } else { plies as f64 / (2 * pairs.len()) as f64 };
        MatchSummary { penta, tri, adjudicated, mean_plies, sprt }
    }

    /// One line for the progress bar: games, W-D-L, score, Elo.
    pub fn progress_line(&self) -> String {
        let score = self.tri.score().map_or("-".into(), |s| format!("{:.1}%", 100.0 * s.value));
        let elo = self.penta.elo().map_or("-".into(), |e| format!("{:+.0} ±{:.0}", e.value, (e.high - e.low) / 2.0));
        format!(
            "{} games, A {}-{}-{} ({score}), Elo {elo}",
            self.tri.games(),
            self.tri.wins(),
            self.tri.draws(),
            self.tri.losses()
        )
    }

    fn sprt_text(&self) -> Option<String> {
        let (s, llr, (lo, hi), status) = self.sprt?;
        let verdict = match status {
            SprtStatus::Continue => "continue (no decision yet)",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        };
        Some(format!(
            "SPRT elo0={} elo1={} α={} β={}: LLR {llr:.2} in [{lo:.2}, {hi:.2}]: {verdict}",
            s.elo0, s.elo1, s.alpha, s.beta
        ))
    }

    /// The report printed at the end of a match.
    pub fn report(&self, game: &str, a: &str, b: &str) -> String {
        let c = self.penta.counts;
        let mut lines = vec![
            format!("match {game}: A = {a}, B = {b}"),
            format!(
                "games          {} ({} pairs, mean {:.1} plies)",
                self.tri.games(),
                self.penta.pairs(),
                self.mean_plies
            ),
            format!(
                "A: W-D-L       {}-{}-{}, score {}",
                self.tri.wins(),
                self.tri.draws(),
                self.tri.losses(),
                self.tri.score().map_or("n/a".into(), |s| format!("{:.1}%", 100.0 * s.value))
            ),
            format!("Elo (A − B)    {}", fmt_estimate(self.penta.elo(), "")),
            format!(
                "pentanomial    [{} {} {} {} {}] (pairs scoring 0, ½, 1, 1½, 2 for A)",
                c[0], c[1], c[2], c[3], c[4]
            ),
            format!("normalized Elo {}", fmt_estimate(self.penta.normalized_elo(), "")),
            format!("LOS            {}", self.penta.los().map_or("n/a".into(), |l| format!("{:.1}%", 100.0 * l))),
        ];
        if let Some(s) = self.sprt_text() {
            lines.push(s);
        }
        if self.adjudicated > 0 {
            lines.push(format!("adjudicated    {} games hit the ply limit and were scored draws", self.adjudicated));
        }
        lines.join("\n")
    }

    /// The summary as JSON (`OUT/match.json`, `--json`).
    pub fn json(&self, game: &str, a: &str, b: &str, seed: u64, missing_cells: usize) -> Value {
        json!({
            "game": game,
            "a": a,
            "b": b,
            "seed": seed,
            "games": self.tri.games(),
            "pairs": self.penta.pairs(),
            "wins": self.tri.wins(),
            "draws": self.tri.draws(),
            "losses": self.tri.losses(),
            "score": self.tri.score().map(|s| s.value),
            "elo": estimate_json(self.penta.elo()),
            "normalized_elo": estimate_json(self.penta.normalized_elo()),
            "pentanomial": self.penta.counts,
            "los": self.penta.los(),
            "sprt": self.sprt.map(|(s, llr, (lo, hi), status)| json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": llr, "lower": lo, "upper": hi,
                "status": format!("{status:?}"),
            })),
            "adjudicated": self.adjudicated,
            "missing_cells": missing_cells,
        })
    }
}
