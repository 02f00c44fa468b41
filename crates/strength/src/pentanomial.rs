//! Statistics of game pairs ([`Pentanomial`]) and of single games
//! ([`Trinomial`]).
//!
//! A *game pair* is two games from the same opening with the colours
//! swapped. Its score for the tested player is one of 0, ½, 1, 1½ or 2, so a
//! test's results are five counts (the pentanomial): LL, LD, DD-or-WL, WD and
//! WW. Treating the pair, not the game, as the independent unit removes the
//! opening's bias from the variance: two games of one pair are correlated
//! (a lopsided opening tends to give a win and a loss), and the trinomial
//! (W/D/L) variance, which assumes independent games, overstates the error
//! when openings are unbalanced and understates it when results within a pair
//! are positively correlated.
//!
//! All statistics use the pair score divided by two (a number in [0, 1], the
//! mean score per game of the pair). For `N` pairs with mean `μ` and per-pair
//! variance `σ²` (population variance of the observed pair scores):
//!
//! - the score interval is `μ ± z·σ/√N` (normal approximation),
//! - the Elo estimate is [`score_to_elo`]`(μ)` and its interval the image of
//!   the score interval (a score bound at or beyond 0 or 1 maps to ∓∞),
//! - normalized Elo is fishtest's nElo: `(μ − ½) / σ_game · 800/ln 10` with
//!   `σ_game = √2 · σ` the per-*game* standard deviation that makes `N` pairs
//!   and `2N` games give the same standard error (`σ/√N = σ_game/√(2N)`);
//!   its interval is `(μ ± z·σ/√N − ½) / σ_game · 800/ln 10`, the
//!   standard deviation treated as known, as fishtest reports it,
//! - LOS (likelihood of superiority) is `Φ((μ − ½) / (σ/√N))`.
//!
//! [`Trinomial`] gives the same statistics for unpaired games (each game the
//! unit, `σ_game = σ`).
//!
//! Edge cases are defined, never NaN: with no pairs every statistic is `None`;
//! when every pair has the same score the observed variance is 0 and the
//! normal approximation knows nothing about the spread, so nElo and LOS are
//! `None`. The score interval is then all of [0, 1] (Elo interval
//! `(−∞, +∞)`), except at the ends: when all `N` units scored the most
//! (least) possible, the chance that a unit does so is at least
//! `((1 − c)/2)^(1/N)` at confidence `c` (the exact binomial bound, a unit
//! "at the top" or not), and the score is at least (at most one minus) that,
//! so the interval is one-sided: `[((1 − c)/2)^(1/N), 1]` (Elo from a finite
//! bound to `+∞`).
//!
//! ```
//! use strength::elo::GameResult::{Draw, Loss, Win};
//! use strength::pentanomial::Pentanomial;
//!
//! let mut p = Pentanomial::default();
//! p.add_pair(Win, Draw);   // 1.5
//! p.add_pair(Win, Loss);   // 1
//! p.add_pair(Draw, Draw);  // 1
//! p.add_pair(Win, Win);    // 2
//! assert_eq!(p.counts, [0, 0, 2, 1, 1]);
//! let elo = p.elo().unwrap();
//! assert!(elo.value > 0.0 && elo.low < elo.value && elo.value < elo.high);
//! ```

use crate::elo::{Estimate, GameResult, NELO_SCALE, normal_cdf, score_to_elo, two_sided_z};
use serde::{Deserialize, Serialize};

/// Counts of game pairs by pair score.
///
/// `counts[k]` is the number of pairs in which the tested player scored
/// `k/2` points over the two games: index 0 = LL, 1 = LD or DL, 2 = DD, WL or
/// LW, 3 = WD or DW, 4 = WW.
///
/// ```
/// use strength::elo::GameResult::{Draw, Win};
/// use strength::pentanomial::Pentanomial;
///
/// let p = Pentanomial::from_pair(Win, Draw);
/// assert_eq!(p.counts, [0, 0, 0, 1, 0]);
/// assert_eq!(p.games(), 2);
/// assert_eq!(p.score().unwrap().value, 0.75);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pair counts indexed by pair score in half points (0, ½, 1, 1½, 2).
    pub counts: [u64; 5],
}

/// Counts of single games by score: `counts[0]` losses, `counts[1]` draws,
/// `counts[2]` wins (index = score in half points).
///
/// ```
/// use strength::pentanomial::Trinomial;
///
/// let t = Trinomial::from_wdl(30, 20, 10);
/// assert_eq!(t.counts, [10, 20, 30]);
/// assert!((t.score().unwrap().value - 40.0 / 60.0).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trinomial {
    /// Game counts indexed by score in half points: losses, draws, wins.
    pub counts: [u64; 3],
}

impl Pentanomial {
    /// From the five counts (LL, LD, DD-or-WL, WD, WW).
    pub fn new(counts: [u64; 5]) -> Self {
        Pentanomial { counts }
    }

    /// One pair: the tested player's results in its two games.
    pub fn from_pair(first: GameResult, second: GameResult) -> Self {
        let mut p = Pentanomial::default();
        p.add_pair(first, second);
        p
    }

    /// Adds one pair (the tested player's results in its two games).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Adds every pair of `other`.
    pub fn merge(&mut self, other: &Pentanomial) {
        for (c, o) in self.counts.iter_mut().zip(other.counts) {
            *c += o;
        }
    }

    /// The same pairs seen from the opponent's side.
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The number of games (twice the pairs).
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// The tested player's points over all games.
    pub fn points(&self) -> f64 {
        self.counts.iter().enumerate().map(|(k, &c)| 0.5 * k as f64 * c as f64).sum()
    }

    /// Mean score per game and the variance of the per-pair score (both on
    /// the [0, 1] scale, pair score / 2); `None` without pairs.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        moments(&self.counts).map(|m| (m.mean, m.variance))
    }

    /// The mean score per game with its 95% interval.
    pub fn score(&self) -> Option<Estimate> {
        self.score_at(0.95)
    }

    /// The mean score per game with an interval of the given confidence.
    pub fn score_at(&self, confidence: f64) -> Option<Estimate> {
        moments(&self.counts).map(|m| m.score(confidence))
    }

    /// The logistic Elo difference with its 95% interval.
    pub fn elo(&self) -> Option<Estimate> {
        self.elo_at(0.95)
    }

    /// The logistic Elo difference with an interval of the given confidence.
    pub fn elo_at(&self, confidence: f64) -> Option<Estimate> {
        moments(&self.counts).map(|m| m.elo(confidence))
    }

    /// Fishtest's normalized Elo with its 95% interval (see the module
    /// documentation); `None` without pairs or when the variance is 0.
    pub fn normalized_elo(&self) -> Option<Estimate> {
        self.normalized_elo_at(0.95)
    }

    /// Normalized Elo with an interval of the given confidence.
    pub fn normalized_elo_at(&self, confidence: f64) -> Option<Estimate> {
        moments(&self.counts).and_then(|m| m.normalized_elo(confidence, 2.0))
    }

    /// Likelihood of superiority, `Φ((μ − ½)/(σ/√N))`; `None` without pairs
    /// or when the variance is 0.
    pub fn los(&self) -> Option<f64> {
        moments(&self.counts).and_then(|m| m.los())
    }
}

impl Trinomial {
    /// From the three counts: losses, draws, wins.
    pub fn new(counts: [u64; 3]) -> Self {
        Trinomial { counts }
    }

    /// From wins, draws and losses (in that order).
    pub fn from_wdl(wins: u64, draws: u64, losses: u64) -> Self {
        Trinomial { counts: [losses, draws, wins] }
    }

    /// Adds one game.
    pub fn add_game(&mut self, result: GameResult) {
        self.counts[result.half_points()] += 1;
    }

    /// Adds both games of a pair.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.add_game(first);
        self.add_game(second);
    }

    /// Adds every game of `other`.
    pub fn merge(&mut self, other: &Trinomial) {
        for (c, o) in self.counts.iter_mut().zip(other.counts) {
            *c += o;
        }
    }

    /// Wins.
    pub fn wins(&self) -> u64 {
        self.counts[2]
    }

    /// Draws.
    pub fn draws(&self) -> u64 {
        self.counts[1]
    }

    /// Losses.
    pub fn losses(&self) -> u64 {
        self.counts[0]
    }

    /// The number of games.
    pub fn games(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score and per-game variance; `None` without games.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        moments(&self.counts).map(|m| (m.mean, m.variance))
    }

    /// The mean score with its 95% interval.
    pub fn score(&self) -> Option<Estimate> {
        self.score_at(0.95)
    }

    /// The mean score with an interval of the given confidence.
    pub fn score_at(&self, confidence: f64) -> Option<Estimate> {
        moments(&self.counts).map(|m| m.score(confidence))
    }

    /// The logistic Elo difference with its 95% interval.
    pub fn elo(&self) -> Option<Estimate> {
        self.elo_at(0.95)
    }

    /// The logistic Elo difference with an interval of the given confidence.
    pub fn elo_at(&self, confidence: f64) -> Option<Estimate> {
        moments(&self.counts).map(|m| m.elo(confidence))
    }

    /// Normalized Elo, `(μ − ½)/σ · 800/ln 10`, with its 95% interval;
    /// `None` without games or when the variance is 0.
    pub fn normalized_elo(&self) -> Option<Estimate> {
        self.normalized_elo_at(0.95)
    }

    /// Normalized Elo with an interval of the given confidence.
    pub fn normalized_elo_at(&self, confidence: f64) -> Option<Estimate> {
        moments(&self.counts).and_then(|m| m.normalized_elo(confidence, 1.0))
    }

    /// Likelihood of superiority; `None` without games or when the variance
    /// is 0.
    pub fn los(&self) -> Option<f64> {
        moments(&self.counts).and_then(|m| m.los())
    }
}

/// Sample moments of scores `k / (len − 1)` with the given counts.
#[derive(Clone, Copy, Debug)]
struct Moments {
    n: f64,
    mean: f64,
    variance: f64,
}

fn moments(counts: &[u64]) -> Option<Moments> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let step = 1.0 / (counts.len() - 1) as f64;
    let mean = counts.iter().enumerate().map(|(k, &c)| c as f64 * k as f64 * step).sum::<f64>() / n;
    let variance = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let d = k as f64 * step - mean;
            c as f64 * d * d
        })
        .sum::<f64>()
        / n;
    // Rounding can leave a tiny non-zero variance when all counts sit in one
    // cell; only one occupied cell means exactly zero.
    let occupied = counts.iter().filter(|&&c| c > 0).count();
    let variance = if occupied <= 1 { 0.0 } else { variance.max(0.0) };
    Some(Moments { n, mean, variance })
}

impl Moments {
    fn std_error(&self) -> f64 {
        (self.variance / self.n).sqrt()
    }

    fn score(&self, confidence: f64) -> Estimate {
        if self.variance == 0.0 {
            // Every unit at the top (bottom): the chance of that is at least
            // `bound` at this confidence, and the rest scored at least 0.
            let bound = ((1.0 - confidence) / 2.0).powf(1.0 / self.n);
            let (low, high) = if self.mean == 1.0 {
                (bound, 1.0)
            } else if self.mean == 0.0 {
                (0.0, 1.0 - bound)
            } else {
                (0.0, 1.0)
            };
            return Estimate { value: self.mean, low, high };
        }
        let half = two_sided_z(confidence) * self.std_error();
        Estimate { value: self.mean, low: (self.mean - half).max(0.0), high: (self.mean + half).min(1.0) }
    }

    fn elo(&self, confidence: f64) -> Estimate {
        let s = self.score(confidence);
        Estimate { value: score_to_elo(s.value), low: score_to_elo(s.low), high: score_to_elo(s.high) }
    }

    /// `games_per_unit` is 2 for pairs, 1 for single games.
    fn normalized_elo(&self, confidence: f64, games_per_unit: f64) -> Option<Estimate> {
        if self.variance == 0.0 {
            return None;
        }
        let sigma_game = (games_per_unit * self.variance).sqrt();
        let half = two_sided_z(confidence) * self.std_error();
        let f = |s: f64| (s - 0.5) / sigma_game * NELO_SCALE;
        Some(Estimate { value: f(self.mean), low: f(self.mean - half), high: f(self.mean + half) })
    }

    fn los(&self) -> Option<f64> {
        if self.variance == 0.0 {
            return None;
        }
        Some(normal_cdf((self.mean - 0.5) / self.std_error()))
    }
}

/// The empirical distribution of per-unit scores (values `k/(len−1)`) with
/// empty cells replaced by `epsilon` so every support point has mass, as the
/// generalized SPRT needs; returns (number of units, values, probabilities).
pub(crate) fn regularized_pdf(counts: &[u64], epsilon: f64) -> (f64, Vec<f64>, Vec<f64>) {
    let n: u64 = counts.iter().sum();
    let step = 1.0 / (counts.len() - 1) as f64;
    let weights: Vec<f64> = counts.iter().map(|&c| if c == 0 { epsilon } else { c as f64 }).collect();
    let total: f64 = weights.iter().sum();
    let values = (0..counts.len()).map(|k| k as f64 * step).collect();
    let probs = weights.iter().map(|w| w / total).collect();
    (n as f64, values, probs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_degenerate() {
        let p = Pentanomial::default();
        assert!(p.score().is_none() && p.elo().is_none() && p.los().is_none());
        assert!(p.normalized_elo().is_none());
        let all_wins = Pentanomial::new([0, 0, 0, 0, 7]);
        let e = all_wins.elo().unwrap();
        assert_eq!(e.value, f64::INFINITY);
        // Seven pairs all won: P(a pair is won) ≥ 0.025^(1/7) = 0.5905.
        assert!((e.low - score_to_elo(0.025f64.powf(1.0 / 7.0))).abs() < 1e-9, "{e:?}");
        assert!(e.low > 60.0 && e.low < 70.0 && e.high == f64::INFINITY, "{e:?}");
        let all_lost = Trinomial::from_wdl(0, 0, 7).elo().unwrap();
        assert!((all_lost.high + e.low).abs() < 1e-9 && all_lost.low == f64::NEG_INFINITY, "{all_lost:?}");
        assert!(all_wins.los().is_none() && all_wins.normalized_elo().is_none());
        let all_draws = Trinomial::from_wdl(0, 9, 0);
        let e = all_draws.elo().unwrap();
        assert_eq!(e.value, 0.0);
        assert!(e.low.is_infinite() && e.high.is_infinite());
    }
}
