//! Move distributions: root move scores (larger is better for the mover) to
//! probabilities.

use crate::backup::rminimax::check_theta;
use crate::error::ParamError;

/// Turns move scores (larger is better for the player to move, as in
/// [`RootMove::score`](crate::search::RootMove::score)) into move
/// probabilities.
///
/// "Optimal" moves are those whose score equals the maximum exactly (ties
/// share; scores of integer-cost trees are exact in `f64`).
///
/// ```
/// use search_core::policy::{EpsilonGreedy, Greedy, MoveDistribution, Softmax};
/// let scores = [1.0, 3.0, 3.0, 0.0];
/// let mut p = Vec::new();
/// Greedy.distribution(&scores, &mut p)?;
/// assert_eq!(p, [0.0, 0.5, 0.5, 0.0]);
/// EpsilonGreedy::new(0.75)?.distribution(&scores, &mut p)?;
/// assert_eq!(p, [0.125, 0.375, 0.375, 0.125]);
/// Softmax::new(f64::INFINITY)?.distribution(&scores, &mut p)?;
/// assert_eq!(p, [0.0, 0.5, 0.5, 0.0]);
/// assert!(Softmax::new(1.0)?.distribution(&[f64::INFINITY, 0.0], &mut p).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
pub trait MoveDistribution {
    /// Replaces the contents of `out` by one probability per score; empty
    /// scores give an empty distribution.
    ///
    /// Errors: a score that is NaN or infinite (`out` is then left empty).
    fn distribution(&self, scores: &[f64], out: &mut Vec<f64>) -> Result<(), ParamError>;

    /// A short name for reports.
    fn name(&self) -> String;
}

/// Checks that every score is finite.
fn check_scores(scores: &[f64], out: &mut Vec<f64>) -> Result<(), ParamError> {
    out.clear();
    match scores.iter().find(|s| !s.is_finite()) {
        Some(s) => Err(ParamError::new("scores", format!("move scores must be finite, got {s}"))),
        None => Ok(()),
    }
}

fn best_and_count(scores: &[f64]) -> (f64, usize) {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (best, scores.iter().filter(|&&s| s == best).count())
}

/// Plays an optimal move; optimal moves share the probability equally.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Greedy;

impl MoveDistribution for Greedy {
    fn distribution(&self, scores: &[f64], out: &mut Vec<f64>) -> Result<(), ParamError> {
        check_scores(scores, out)?;
        let (best, n) = best_and_count(scores);
        out.extend(scores.iter().map(|&s| if s == best { 1.0 / n as f64 } else { 0.0 }));
        Ok(())
    }

    fn name(&self) -> String {
        "greedy".into()
    }
}

/// How [`Softmax`] bounds move scores before weighting them: a player at a
/// low θ should misjudge a decisive advantage about as readily as a large
/// one, instead of never missing a forced win.
///
/// ```
/// use search_core::policy::ScoreCap;
/// let hard = ScoreCap::hard(100.0)?;
/// assert_eq!((hard.apply(250.0), hard.apply(-1e9)), (100.0, -100.0));
/// let soft = ScoreCap::soft(100.0)?;
/// assert!((soft.apply(100.0) - 100.0 * 1f64.tanh()).abs() < 1e-12);
/// assert!(soft.apply(300.0) < soft.apply(1e9) && soft.apply(1e9) <= 100.0);
/// assert!(ScoreCap::soft(0.0).is_err() && ScoreCap::hard(f64::NAN).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScoreCap {
    /// Clamps to `[−cap, cap]`: every advantage of at least `cap` (a forced
    /// win included) looks the same.
    Hard(f64),
    /// `cap·tanh(s/cap)`: close to `s` for small scores, strictly
    /// increasing, tending to `±cap`. Larger advantages still look better
    /// (a forced win better than a piece up), by less and less.
    Soft(f64),
}

impl ScoreCap {
    /// A hard cap. Errors unless `cap` is finite and positive.
    pub fn hard(cap: f64) -> Result<Self, ParamError> {
        Ok(ScoreCap::Hard(ParamError::positive("cap", cap)?))
    }

    /// A soft cap. Errors unless `cap` is finite and positive.
    pub fn soft(cap: f64) -> Result<Self, ParamError> {
        Ok(ScoreCap::Soft(ParamError::positive("softcap", cap)?))
    }

    /// The bound `cap` itself.
    pub fn bound(&self) -> f64 {
        match *self {
            ScoreCap::Hard(c) | ScoreCap::Soft(c) => c,
        }
    }

    /// The bounded score (infinite scores go to `±cap`).
    pub fn apply(&self, s: f64) -> f64 {
        match *self {
            ScoreCap::Hard(c) => s.clamp(-c, c),
            ScoreCap::Soft(c) => c * (s / c).tanh(),
        }
    }
}

/// The Boltzmann (softmax) distribution `pᵢ ∝ exp(θ sᵢ)`, computed as
/// `exp(θ (sᵢ − max s))` so it never overflows. θ = +∞ is [`Greedy`].
///
/// On Rminimax root scores `sᵢ = −(cᵢ + Vᵢ)` with the rule's θ it is the
/// Rminimax policy, eq. (10) (the soft minimum over costs). On one-step
/// backed-up minimax values it is Boltzmann exploration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Softmax {
    theta: f64,
    cap: Option<ScoreCap>,
}

impl Softmax {
    /// Inverse temperature `theta > 0` (or +∞). Errors on NaN, `≤ 0` or a
    /// subnormal θ.
    pub fn new(theta: f64) -> Result<Self, ParamError> {
        Ok(Softmax { theta: check_theta(theta)?, cap: None })
    }

    /// Clamps every score to `[−cap, cap]` before the softmax
    /// ([`ScoreCap::Hard`]): any advantage of at least `cap` (a forced win
    /// included) looks the same, so a player at a low θ can miss a win or
    /// walk into a loss as readily as it misjudges a large advantage,
    /// instead of never doing so. Errors unless `cap` is finite and
    /// positive.
    ///
    /// ```
    /// use search_core::policy::{MoveDistribution, Softmax};
    /// let mut p = Vec::new();
    /// Softmax::new(0.01)?.with_cap(100.0)?.distribution(&[1e6, 100.0, -1e6], &mut p)?;
    /// assert!((p[0] - p[1]).abs() < 1e-12 && p[2] > 0.05);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_cap(self, cap: f64) -> Result<Self, ParamError> {
        Ok(self.with_score_cap(ScoreCap::hard(cap)?))
    }

    /// Bounds every score by `cap·tanh(s/cap)` before the softmax
    /// ([`ScoreCap::Soft`]): like [`with_cap`](Softmax::with_cap) for the
    /// size of a blunder a weak player makes, but a forced win still looks
    /// better than a large advantage, so a player far ahead converts.
    /// Errors unless `cap` is finite and positive.
    ///
    /// ```
    /// use search_core::policy::{MoveDistribution, Softmax};
    /// let mut p = Vec::new();
    /// // A mate (1e6) against twelve pawns up (1200), at θ = 0.03 per centipawn.
    /// Softmax::new(0.03)?.with_soft_cap(1000.0)?.distribution(&[1e6, 1200.0], &mut p)?;
    /// assert!(p[0] > 0.99);
    /// Softmax::new(0.03)?.with_cap(1000.0)?.distribution(&[1e6, 1200.0], &mut p)?;
    /// assert_eq!(p[0], 0.5);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_soft_cap(self, cap: f64) -> Result<Self, ParamError> {
        Ok(self.with_score_cap(ScoreCap::soft(cap)?))
    }

    /// Bounds every score with `cap` before the softmax.
    pub fn with_score_cap(mut self, cap: ScoreCap) -> Self {
        self.cap = Some(cap);
        self
    }

    /// The hard cap's bound, if the cap is [hard](ScoreCap::Hard).
    pub fn cap(&self) -> Option<f64> {
        match self.cap {
            Some(ScoreCap::Hard(c)) => Some(c),
            _ => None,
        }
    }

    /// How scores are bounded, if they are.
    pub fn score_cap(&self) -> Option<ScoreCap> {
        self.cap
    }

    /// The inverse temperature.
    pub fn theta(&self) -> f64 {
        self.theta
    }
}

impl MoveDistribution for Softmax {
    /// Total on finite scores for every valid θ: the best move's term is
    /// `exp(0) = 1`, so the sum is at least one; a gap so large that
    /// `θ·gap` overflows gives exactly 0.
    fn distribution(&self, scores: &[f64], out: &mut Vec<f64>) -> Result<(), ParamError> {
        if self.theta == f64::INFINITY && self.cap.is_none() {
            return Greedy.distribution(scores, out);
        }
        check_scores(scores, out)?;
        let bound = |s: f64| self.cap.map_or(s, |c| c.apply(s));
        if self.theta == f64::INFINITY {
            let best = scores.iter().map(|&s| bound(s)).fold(f64::NEG_INFINITY, f64::max);
            let n = scores.iter().filter(|&&s| bound(s) == best).count() as f64;
            out.extend(scores.iter().map(|&s| if bound(s) == best { 1.0 / n } else { 0.0 }));
            return Ok(());
        }
        let (best, _) = best_and_count(scores);
        let best = bound(best);
        out.extend(scores.iter().map(|&s| (self.theta * (bound(s) - best)).exp()));
        let total: f64 = out.iter().sum();
        out.iter_mut().for_each(|p| *p /= total);
        Ok(())
    }

    fn name(&self) -> String {
        match self.cap {
            Some(ScoreCap::Hard(c)) => format!("softmax θ={} cap={c}", self.theta),
            Some(ScoreCap::Soft(c)) => format!("softmax θ={} softcap={c}", self.theta),
            None => format!("softmax θ={}", self.theta),
        }
    }
}

/// ε-greedy exactly as the Rminimax paper's footnote 2: the `n` optimal
/// moves share probability ε (ε/n each) and the `m` others share `1 − ε`
/// (`(1 − ε)/m` each); if every move is optimal (`m = 0`) each gets `1/n`.
///
/// Note that the paper's ε is the probability of the *optimal* moves (the
/// textbook ε-greedy explores with probability ε instead).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpsilonGreedy {
    epsilon: f64,
}

impl EpsilonGreedy {
    /// ε within `[0, 1]`. Errors otherwise (NaN included).
    ///
    /// ```
    /// use search_core::policy::EpsilonGreedy;
    /// assert!(EpsilonGreedy::new(1.5).is_err());
    /// ```
    pub fn new(epsilon: f64) -> Result<Self, ParamError> {
        Ok(EpsilonGreedy { epsilon: ParamError::probability("epsilon", epsilon)? })
    }

    /// ε, the probability of the optimal moves.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }
}

impl MoveDistribution for EpsilonGreedy {
    fn distribution(&self, scores: &[f64], out: &mut Vec<f64>) -> Result<(), ParamError> {
        check_scores(scores, out)?;
        let (best, n) = best_and_count(scores);
        let m = scores.len() - n;
        let (opt, other) =
            if m == 0 { (1.0 / n as f64, 0.0) } else { (self.epsilon / n as f64, (1.0 - self.epsilon) / m as f64) };
        out.extend(scores.iter().map(|&s| if s == best { opt } else { other }));
        Ok(())
    }

    fn name(&self) -> String {
        format!("epsilon-greedy ε={}", self.epsilon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums_to_one(p: &[f64]) -> bool {
        (p.iter().sum::<f64>() - 1.0).abs() < 1e-12 && p.iter().all(|&x| x >= 0.0)
    }

    #[test]
    fn distributions_sum_to_one() {
        let cases: [&[f64]; 4] = [&[0.0], &[1.0, 1.0, 1.0], &[-1e6, 0.0, 1e6, 1e6], &[3.5, -2.0, 0.25]];
        let dists: Vec<Box<dyn MoveDistribution>> = vec![
            Box::new(Greedy),
            Box::new(Softmax::new(1e-6).unwrap()),
            Box::new(Softmax::new(1e6).unwrap()),
            Box::new(EpsilonGreedy::new(0.3).unwrap()),
            Box::new(EpsilonGreedy::new(0.0).unwrap()),
        ];
        let mut p = Vec::new();
        for d in &dists {
            for s in cases {
                d.distribution(s, &mut p).unwrap();
                assert_eq!(p.len(), s.len());
                assert!(sums_to_one(&p), "{} {s:?} {p:?}", d.name());
            }
        }
    }

    #[test]
    fn epsilon_greedy_footnote() {
        let mut p = Vec::new();
        let e = EpsilonGreedy::new(0.75).unwrap();
        e.distribution(&[5.0, 1.0, 5.0], &mut p).unwrap();
        assert_eq!(p, [0.375, 0.25, 0.375]);
        e.distribution(&[2.0, 2.0], &mut p).unwrap(); // m = 0
        assert_eq!(p, [0.5, 0.5]);
        e.distribution(&[2.0], &mut p).unwrap();
        assert_eq!(p, [1.0]);
    }

    #[test]
    fn softmax_is_boltzmann_and_validated() {
        let mut p = Vec::new();
        Softmax::new(0.5).unwrap().distribution(&[0.0, 2.0], &mut p).unwrap();
        assert!((p[1] - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-15);
        assert!(Softmax::new(0.0).is_err());
        assert!(Softmax::new(f64::NAN).is_err());
        assert!(EpsilonGreedy::new(f64::NAN).is_err());
    }
}
