//! What `match` and `calibrate` print: a match's statistics, the SPRT's
//! stopping point, a ladder's ratings.

use serde_json::{Value, json};
use strength::dial::{Calibration, MatchupResidual};
use strength::elo::{Estimate, GameResult};
use strength::misfit::Misfit;
use strength::pairing::{GameScore, PairOutcome};
use strength::pentanomial::{Pentanomial, Trinomial};
use strength::rating::{self, FitOptions, fit};
use strength::sprt::{Sprt, SprtStatus};

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
    fn test(&self) -> Result<Sprt, String> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta).map_err(|e| e.to_string())
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

/// A's wins, draws and losses over the games of `pairs`.
pub(crate) fn trinomial(pairs: &[PairOutcome]) -> Trinomial {
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
pub(crate) fn sprt_stop(cells: &[Option<Vec<PairOutcome>>], s: &SprtSettings) -> Option<usize> {
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
pub(crate) struct MatchSummary {
    penta: Pentanomial,
    tri: Trinomial,
    adjudicated: u64,
    mean_plies: f64,
    sprt: Option<(SprtSettings, f64, (f64, f64), SprtStatus)>,
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
    pub(crate) fn new(pairs: &[PairOutcome], sprt: Option<&SprtSettings>) -> Self {
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
    pub(crate) fn progress_line(&self) -> String {
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
    pub(crate) fn report(&self, game: &str, a: &str, b: &str) -> String {
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
    pub(crate) fn json(&self, game: &str, a: &str, b: &str, seed: u64, missing_cells: usize) -> Value {
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

/// A fitted ladder: its rungs, the draw parameter, and how well one rating
/// per setting explains the matchups.
pub(crate) struct LadderFit {
    pub(crate) rated: Vec<RatedRung>,
    pub(crate) nu: f64,
    pub(crate) misfit: Option<Misfit>,
    pub(crate) residuals: Vec<MatchupResidual>,
}

/// A rung of a fitted ladder.
#[derive(Debug, Clone)]
pub(crate) struct RatedRung {
    pub(crate) spec: String,
    pub(crate) rating: f64,
    pub(crate) low: f64,
    pub(crate) high: f64,
    pub(crate) games: u64,
}

/// Fits the ladder's ratings (rung 0, random play, anchored at 0).
pub(crate) fn fit_ladder(rungs: &[String], results: &[(usize, usize, Vec<PairOutcome>)]) -> Result<LadderFit, String> {
    let mut counts = Vec::new();
    let mut games = vec![0u64; rungs.len()];
    for (a, b, pairs) in results {
        let t = trinomial(pairs);
        games[*a] += t.games();
        games[*b] += t.games();
        counts.push(rating::PairResult::new(*a, *b, t.wins() as f64, t.draws() as f64, t.losses() as f64));
    }
    let fitted = fit(rungs.len(), &counts, &FitOptions::new().anchor(0, 0.0)).map_err(|e| e.to_string())?;
    let nu = fitted.draw_nu();
    let rated = rungs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let p = fitted.player(i);
            RatedRung { spec: spec.clone(), rating: p.rating, low: p.interval.0, high: p.interval.1, games: games[i] }
        })
        .collect();
    // A ladder whose matchups leave no degree of freedom (a quick run's
    // chain, say) cannot test its model: no misfit, not an error.
    let misfit = strength::misfit::misfit(&fitted, &counts).ok();
    let residuals = strength::misfit::residuals(&fitted, &counts)
        .map_err(|e| e.to_string())?
        .iter()
        .map(|r| MatchupResidual {
            a: rungs[r.a].clone(),
            b: rungs[r.b].clone(),
            games: r.games as u64,
            observed: r.observed,
            predicted: r.predicted,
            z: r.z(),
        })
        .collect();
    Ok(LadderFit { rated, nu, misfit, residuals })
}

/// A calibration as a Markdown table.
pub(crate) fn ladder_table(c: &Calibration) -> String {
    let mut s = format!(
        "calibration of {} ({} games, seed {}, anchor {})\n\n| setting | Elo | 95% interval | games |\n| --- | ---: | --- | ---: |\n",
        c.game, c.games, c.seed, c.anchor
    );
    let mut rungs = c.rungs.clone();
    rungs.sort_by(|a, b| a.rating.total_cmp(&b.rating));
    for r in rungs {
        s.push_str(&format!("| `{}` | {:.0} | {:.0} .. {:.0} | {} |\n", r.spec, r.rating, r.low, r.high, r.games));
    }
    if let Some(m) = &c.misfit {
        s.push_str(&format!(
            "\nfit of one rating per setting to the ladder's {} matchups: χ² = {:.1} on {} degrees of freedom \
             (p = {:.2e}); model error τ = {:.0} Elo\n",
            m.matchups, m.chi2, m.dof, m.p_value, m.model_error
        ));
        let mut worst: Vec<&MatchupResidual> = c.residuals.iter().collect();
        worst.sort_by(|x, y| y.z.abs().total_cmp(&x.z.abs()));
        if !worst.is_empty() {
            s.push_str("\nthe matchups it misses most (A's score):\n\n| A | B | games | predicted | observed | z |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
            for r in worst.iter().take(6) {
                s.push_str(&format!(
                    "| `{}` | `{}` | {} | {:.3} | {:.3} | {:+.1} |\n",
                    r.a, r.b, r.games, r.predicted, r.observed, r.z
                ));
            }
        }
    }
    if !c.held_out.is_empty() {
        s.push_str("\nheld-out matches (dial values never played while calibrating):\n\n| A | B | games | predicted score of A (95%) | observed | inside |\n| --- | --- | ---: | --- | ---: | --- |\n");
        for h in &c.held_out {
            s.push_str(&format!(
                "| `elo:{:.1}` | `elo:{:.1}` | {} | {:.3} ({:.3} .. {:.3}) | {:.3} | {} |\n",
                h.a_elo,
                h.b_elo,
                h.games,
                h.predicted,
                h.low,
                h.high,
                h.observed,
                if h.inside() { "yes" } else { "no" }
            ));
        }
        let mae = c.held_out.iter().map(|h| (h.observed - h.predicted).abs()).sum::<f64>() / c.held_out.len() as f64;
        let inside = c.held_out.iter().filter(|h| h.inside()).count();
        s.push_str(&format!(
            "\nmean absolute error {mae:.3}; {inside} of {} inside their intervals\n",
            c.held_out.len()
        ));
        let exact: Vec<bool> = c
            .held_out
            .iter()
            .filter_map(|h| h.without_model_error.map(|(lo, hi)| lo <= h.observed && h.observed <= hi))
            .collect();
        if c.misfit.is_some_and(|m| m.model_error > 0.0) && !exact.is_empty() {
            s.push_str(&format!(
                "({} of {} inside the intervals without the model error)\n",
                exact.iter().filter(|&&x| x).count(),
                exact.len()
            ));
        }
    }
    s
}
