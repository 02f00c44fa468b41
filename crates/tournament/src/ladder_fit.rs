//! A calibration ladder's fit: one rating per setting from the games of its
//! matchups, random play anchored at 0, with the fit's misfit and the
//! matchups it misses; and the ladder as a Markdown table.

use strength::dial::{Calibration, MatchupResidual};
use strength::misfit::{Misfit, MisfitError};
use strength::pairing::PairOutcome;
use strength::rating::{self, FitOptions, RatingError, SelfPlayScale, fit};

use crate::summary::trinomial;

/// A fitted ladder: its rungs, the draw parameter, and how well one rating
/// per setting explains the matchups.
#[derive(Debug, Clone)]
pub struct LadderFit {
    /// The rungs, in the order given.
    pub rated: Vec<RatedRung>,
    /// The draw parameter ν of the fit.
    pub nu: f64,
    /// How well one rating per setting explains the matchups (`None` when
    /// the matchups leave no degree of freedom).
    pub misfit: Option<Misfit>,
    /// Each matchup's observed and predicted score.
    pub residuals: Vec<MatchupResidual>,
    /// The virtual draws added to every matchup where a rung won (or lost)
    /// every game it played, whose rating is otherwise unbounded (a quick
    /// run's one pair a matchup, say); `None` when the games alone fit.
    pub virtual_draws: Option<f64>,
    /// The self-play scale fitted for the self-play groups, if any.
    pub self_play: Option<SelfPlayScale>,
}

/// A rung of a fitted ladder.
#[derive(Debug, Clone)]
pub struct RatedRung {
    /// The setting's agent spec.
    pub spec: String,
    /// Its rating.
    pub rating: f64,
    /// The 95% interval's lower end.
    pub low: f64,
    /// The 95% interval's upper end.
    pub high: f64,
    /// Games it played.
    pub games: u64,
}

/// Why a ladder could not be fitted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LadderFitError {
    /// The ratings could not be fitted.
    #[error(transparent)]
    Rating(#[from] RatingError),
    /// The matchups' residuals could not be computed.
    #[error(transparent)]
    Misfit(#[from] MisfitError),
}

/// Virtual draws a matchup gets when a rung's rating is unbounded (see
/// [`LadderFit::virtual_draws`]).
pub const VIRTUAL_DRAWS: f64 = 0.5;

/// Fits the ratings of `players` from `counts` with `options`; when a
/// player won or lost every game (no finite rating), fits again with
/// [`VIRTUAL_DRAWS`] in every pairing and returns them beside the ratings.
pub fn fit_bounded(
    players: usize,
    counts: &[rating::PairResult],
    options: &FitOptions,
) -> Result<(rating::Ratings, Option<f64>), RatingError> {
    match fit(players, counts, options) {
        Err(RatingError::Unbounded { .. }) => {
            Ok((fit(players, counts, &options.clone().virtual_draws(VIRTUAL_DRAWS))?, Some(VIRTUAL_DRAWS)))
        }
        other => Ok((other?, None)),
    }
}

/// Fits the ladder's ratings (rung 0, random play, anchored at 0) from the
/// pairs of each matchup `(a, b, pairs)` (indices into `rungs`), with a
/// self-play scale for the games within each of `self_play` groups (one
/// per rung, see [`crate::ladder::Ladder::self_play_groups`]). A rung that
/// won or lost every game has no finite rating: the fit is then made again
/// with [`VIRTUAL_DRAWS`] in every matchup, and says so.
pub fn fit_ladder(
    rungs: &[String],
    results: &[(usize, usize, Vec<PairOutcome>)],
    self_play: Option<Vec<Option<u32>>>,
) -> Result<LadderFit, LadderFitError> {
    let mut counts = Vec::new();
    let mut games = vec![0u64; rungs.len()];
    for (a, b, pairs) in results {
        let t = trinomial(pairs);
        games[*a] += t.games();
        games[*b] += t.games();
        counts.push(rating::PairResult::new(*a, *b, t.wins() as f64, t.draws() as f64, t.losses() as f64));
    }
    let mut options = FitOptions::new().anchor(0, 0.0);
    if let Some(groups) = self_play {
        options = options.self_play_groups(groups);
    }
    let (fitted, virtual_draws) = fit_bounded(rungs.len(), &counts, &options)?;
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
    let residuals = strength::misfit::residuals(&fitted, &counts)?
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
    Ok(LadderFit { rated, nu, misfit, residuals, virtual_draws, self_play: fitted.self_play_scale() })
}

/// A calibration as a Markdown table.
pub fn ladder_table(c: &Calibration) -> String {
    let mut s = format!(
        "calibration of {} ({} games, seed {}, anchor {})\n\n| setting | Elo | 95% interval | games |\n| --- | ---: | --- | ---: |\n",
        c.game, c.games, c.seed, c.anchor
    );
    let mut rungs = c.rungs.clone();
    rungs.sort_by(|a, b| a.rating.total_cmp(&b.rating));
    for r in rungs {
        s.push_str(&format!("| `{}` | {:.0} | {:.0} .. {:.0} | {} |\n", r.spec, r.rating, r.low, r.high, r.games));
    }
    if let Some(k) = &c.self_play {
        s.push_str(&format!(
            "\nself-play scale of {}: rating differences count {:.2} times in their games (95% interval {:.2} .. {:.2})\n",
            k.curves.join(", "),
            k.scale,
            k.interval.0,
            k.interval.1
        ));
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
