//! A fitted Boltzmann θ on the strength dial.

use search_core::policy::ScoreCap;

use super::{Fit, Interval, Model};
use crate::dial::Dial;
use crate::spec::AgentSpec;

/// The rating a fitted Boltzmann player has on the dial's `curve` (e.g.
/// `boltzmann:depth=4,cap=100`), with the 95% interval carried through:
/// `(elo, (low, high))`, each from [`Dial::rating_of`] at θ̂ and at the
/// interval's ends (the rating is monotone in θ along a curve).
///
/// - θ̂ = +∞ (or beyond the curve's largest calibrated θ) maps to the
///   curve's top rating: its greedy top (θ = +∞) if calibrated, else its
///   largest-θ rung.
/// - Open ends stay open (`None`): an interval reaching θ = 0 or θ = +∞
///   does not bound the rating on that side. An upper end beyond the
///   curve's largest calibrated θ is open too (the dial cannot say how much
///   stronger it is); a lower end there maps to the top rating (a valid
///   lower bound).
///
/// `None` unless the fit is [`Model::Boltzmann`], the dial has the curve,
/// and the fit's cap equals the curve's `cap` (both absent, or the same
/// number): θ is only comparable on the same values. The values must also
/// come from a search of the curve's depth with the calibration's
/// evaluator; that cannot be checked here.
///
/// ```
/// use strength::dial::{Calibration, Dial, Rung};
/// use strength::fit::{Decision, FitOptions, Model, fit, map_to_dial};
/// let curve = "boltzmann:depth=2,cap=100";
/// let rung = |spec: &str, theta: f64, rating: f64| Rung {
///     spec: spec.into(),
///     curve: Some(curve.into()),
///     theta: Some(theta),
///     rating,
///     low: rating - 20.0,
///     high: rating + 20.0,
///     games: 400,
/// };
/// let dial = Dial::new(Calibration {
///     rungs: vec![
///         rung("random", 0.0, 0.0),
///         rung("boltzmann:depth=2,cap=100,theta=0.01", 0.01, 300.0),
///         rung("boltzmann:depth=2,cap=100,theta=0.1", 0.1, 700.0),
///         rung("alphabeta:depth=2", f64::INFINITY, 900.0),
///     ],
///     ..Calibration::default()
/// })?;
/// // A player who always found the best move: the top of the curve, and
/// // no upper bound.
/// let d: Vec<Decision> = (0..50).map(|_| Decision::new(vec![50.0, 0.0, -500.0], 0)).collect();
/// let f = fit(&d, Model::Boltzmann, FitOptions::default().with_cap(100.0)).unwrap();
/// let (elo, (low, high)) = map_to_dial(&dial, curve, &f).unwrap();
/// assert_eq!(elo, 900.0);
/// assert!(low.unwrap() > 0.0 && high.is_none());
/// // Without the dial's cap θ is not comparable.
/// let g = fit(&d, Model::Boltzmann, FitOptions::default()).unwrap();
/// assert!(map_to_dial(&dial, curve, &g).is_none());
/// # Ok::<(), strength::dial::DialError>(())
/// ```
pub fn map_to_dial(dial: &Dial, curve: &str, fit: &Fit) -> Option<(f64, Interval)> {
    if fit.model != Model::Boltzmann {
        return None;
    }
    let spec: AgentSpec = curve.parse().ok()?;
    let name = spec.to_string();
    let (cap, soft) = match spec.score_cap().ok()? {
        Some(ScoreCap::Hard(c)) => (Some(c), false),
        Some(ScoreCap::Soft(c)) => (Some(c), true),
        None => (None, false),
    };
    if cap != fit.cap || (cap.is_some() && soft != fit.soft) {
        return None;
    }
    dial.rating_of(&name, 0.0)?;
    // The curve's largest calibrated θ and its rating.
    let top_theta = dial
        .calibration()
        .rungs
        .iter()
        .filter(|r| r.curve.as_deref().and_then(|c| c.parse::<AgentSpec>().ok()).is_some_and(|c| c.to_string() == name))
        .filter_map(|r| r.theta)
        .filter(|t| !t.is_nan())
        .fold(0.0, f64::max);
    let top = dial.rating_of(&name, top_theta)?;
    // The rating at θ, or None beyond the curve's calibrated θ.
    let at = |theta: f64| if theta <= top_theta { dial.rating_of(&name, theta) } else { None };
    let elo = at(fit.param).unwrap_or(top);
    let low = fit.ci95.0.map(|t| at(t).unwrap_or(top));
    let high = fit.ci95.1.and_then(at);
    Some((elo, (low, high)))
}
