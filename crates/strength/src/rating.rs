//! Maximum-likelihood ratings from game results, with draws modelled.
//!
//! # The model
//!
//! Each player `i` has a rating `rᵢ` on the Elo scale; its strength is
//! `πᵢ = 10^(rᵢ/400)`. A game between `a` and `b` ends with probabilities
//! (Davidson's model of ties)
//!
//! ```text
//! P(a wins) = πa / Z,   P(draw) = ν·√(πa·πb) / Z,   P(b wins) = πb / Z,
//! Z = πa + πb + ν·√(πa·πb)
//! ```
//!
//! with one draw parameter `ν ≥ 0` for the whole pool, fitted by maximum
//! likelihood along with the ratings. Between equal players the draw rate is
//! `ν/(2+ν)`; the draw rate falls as the rating gap grows.
//!
//! **Why Davidson rather than BayesElo's draw-Elo.** Both give the same
//! qualitative picture; Davidson was chosen because (1) in the natural
//! parameters `(ln πᵢ, ln ν)` its log-likelihood is a sum of linear terms
//! minus log-sum-exps of linear terms, hence jointly *concave*: Newton's
//! method with a line search finds the unique maximum whenever it exists, and
//! the gradient and Hessian have short closed forms; (2) the win:loss odds are
//! exactly `πa/πb`, so a rating difference `d` keeps its classical meaning as
//! odds of `10^(d/400)` to one among decisive games, and a two-player match
//! with W wins, D draws and L losses has the closed-form MLE
//! `d = 400·log10(W/L)`, `ν = D/√(W·L)`.
//!
//! **Caveat: ratings and expected scores.** With draws (ν > 0) the expected
//! score of a rating difference `d` is *not* [`elo_to_score`](crate::elo::elo_to_score)`(d)`:
//! near `d = 0` the score moves `2/(2+ν)` times as fast, so rating gaps are
//! wider than the score-based (logistic) Elo of the same results. Use
//! [`Ratings::predict`] for expected scores; [`Prediction::score_elo`] gives
//! the logistic Elo of a predicted score.
//!
//! If no game (real or virtual) is drawn, the MLE of ν is 0 and the model is
//! plain Bradley–Terry; if *every* game is drawn, ν is unbounded and the fit
//! fails with [`RatingError::NoDecisiveGames`] unless ν is fixed with
//! [`FitOptions::fixed_draw_nu`].
//!
//! # Anchors
//!
//! Ratings are determined only up to a common shift, so at least one player
//! is *anchored* at a fixed rating (by default player 0 at 0). With one
//! anchor the other ratings, their intervals and covariances are relative to
//! it; with several, all of them are fixed and the others are fitted between.
//!
//! # Intervals
//!
//! - From the curvature: the inverse of the observed Fisher information
//!   (minus the Hessian of the log-likelihood at the maximum) over all free
//!   parameters, ν (as ln ν) included, so its uncertainty is propagated.
//!   Rating `rᵢ ± z·SEᵢ`, `z = Φ⁻¹((1+confidence)/2)`.
//! - Optionally a percentile bootstrap ([`FitOptions::bootstrap`]): the games
//!   of each pair are resampled with replacement (the number of games of each
//!   pair is kept, as in a round-robin design), the model refitted, and the
//!   interval read off the replicates' quantiles. Replicates whose fit does
//!   not exist (a resampled player won every game) are skipped and counted.
//!
//! # When the MLE does not exist
//!
//! A player with no path of games to an anchor has no rating
//! ([`RatingError::Disconnected`]). A group of players that won (or lost)
//! every game against everyone outside it has ratings that grow without bound
//! ([`RatingError::Unbounded`]). The remedy is regularisation:
//! [`FitOptions::virtual_draws`]`(x)` adds `x` virtual draws to every pair
//! that played (the prior BayesElo uses), which makes every connected pool
//! fit and shrinks ratings slightly towards each other.
//!
//! ```
//! use strength::elo::GameResult::{Draw, Loss, Win};
//! use strength::rating::{FitOptions, Results};
//!
//! let mut results = Results::with_names(["alice", "bob"]);
//! for r in [Win, Win, Win, Draw, Draw, Loss] {
//!     results.add(0, 1, r)?;
//! }
//! let ratings = results.fit(&FitOptions::new().anchor(1, 1500.0))?;
//! // Closed form: 400·log10(W/L) = 400·log10(3) above bob.
//! assert!((ratings.rating(0) - 1500.0 - 400.0 * 3f64.log10()).abs() < 1e-6);
//! let p = ratings.predict(0, 1);
//! assert!((p.win - 0.5).abs() < 1e-9 && (p.draw - 2.0 / 6.0).abs() < 1e-9);
//! # Ok::<(), strength::rating::RatingError>(())
//! ```

use crate::elo::{GameResult, LOGISTIC_SCALE, score_to_elo, two_sided_z};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The results of the games between two players, from `a`'s side.
///
/// Counts are `f64` so that weighted or virtual games can be expressed; they
/// must be finite and non-negative.
///
/// ```
/// use strength::rating::PairResult;
///
/// let r = PairResult::new(0, 1, 3.0, 2.0, 1.0);
/// assert_eq!(r.games(), 6.0);
/// assert_eq!(r.reversed(), PairResult::new(1, 0, 1.0, 2.0, 3.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    /// The first player.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// Games `a` won.
    pub wins_a: f64,
    /// Drawn games.
    pub draws: f64,
    /// Games `b` won.
    pub wins_b: f64,
}

impl PairResult {
    /// The results of `a` against `b`.
    pub fn new(a: usize, b: usize, wins_a: f64, draws: f64, wins_b: f64) -> Self {
        PairResult { a, b, wins_a, draws, wins_b }
    }

    /// The number of games.
    pub fn games(&self) -> f64 {
        self.wins_a + self.draws + self.wins_b
    }

    /// `a`'s points: wins plus half the draws.
    pub fn points_a(&self) -> f64 {
        self.wins_a + 0.5 * self.draws
    }

    /// The same games from `b`'s side.
    pub fn reversed(&self) -> PairResult {
        PairResult::new(self.b, self.a, self.wins_b, self.draws, self.wins_a)
    }
}

/// Which way an unbounded rating runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Towards +∞ (the group won every game against the rest).
    Up,
    /// Towards −∞ (the group lost every game against the rest).
    Down,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Up => "upwards (won every game against the rest)",
            Direction::Down => "downwards (lost every game against the rest)",
        })
    }
}

/// Why ratings could not be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// A player index is not below the number of players.
    #[error("player {player} is out of range: there are {players} players")]
    PlayerOutOfRange {
        /// The offending index.
        player: usize,
        /// The number of players.
        players: usize,
    },
    /// A result pairs a player with itself.
    #[error("player {player} cannot play itself")]
    SelfPlay {
        /// The player.
        player: usize,
    },
    /// A count is negative, infinite or NaN.
    #[error("invalid count {value} for players {a} and {b}: counts must be finite and non-negative")]
    InvalidCount {
        /// The first player of the pair.
        a: usize,
        /// The second player of the pair.
        b: usize,
        /// The offending count.
        value: f64,
    },
    /// An anchor is out of range, has a non-finite rating, or is given twice.
    #[error("invalid anchor: player {player} at rating {rating}")]
    InvalidAnchor {
        /// The anchored player.
        player: usize,
        /// Its rating.
        rating: f64,
    },
    /// A fit option is out of its domain.
    #[error("invalid option: {0}")]
    InvalidOption(String),
    /// No chain of games links this player to an anchor.
    #[error("player {player} is not connected to any anchor by games")]
    Disconnected {
        /// A player without a path to an anchor.
        player: usize,
    },
    /// The maximum-likelihood rating of this player (and of the group it
    /// belongs to) is infinite; [`FitOptions::virtual_draws`] is the remedy.
    #[error(
        "the rating of player {player} is unbounded {direction}; add virtual draws (FitOptions::virtual_draws) to regularise"
    )]
    Unbounded {
        /// A player of the group.
        player: usize,
        /// Which way its rating runs.
        direction: Direction,
    },
    /// Every game was drawn, so the draw parameter ν is unbounded; fix it
    /// with [`FitOptions::fixed_draw_nu`].
    #[error("every game is drawn, so the draw parameter is unbounded; fix it with FitOptions::fixed_draw_nu")]
    NoDecisiveGames,
    /// Newton's method did not converge (should not happen when the MLE
    /// exists; raise [`FitOptions::max_iterations`]).
    #[error("the fit did not converge in {iterations} iterations")]
    NotConverged {
        /// Iterations made.
        iterations: usize,
    },
}

/// Game results among `n` players, accumulated per pair.
///
/// ```
/// use strength::elo::GameResult;
/// use strength::rating::Results;
///
/// let mut r = Results::new(3);
/// r.add(0, 1, GameResult::Win)?;
/// r.add(1, 0, GameResult::Draw)?;
/// r.add_counts(2, 1, 4.0, 0.0, 1.0)?;
/// assert_eq!(r.pair(0, 1).wins_a, 1.0);
/// assert_eq!(r.pair(1, 2).wins_b, 4.0);
/// assert_eq!(r.games(), 7.0);
/// # Ok::<(), strength::rating::RatingError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    names: Vec<String>,
    /// For `i < j` at `j(j−1)/2 + i`: [wins of i, draws, wins of j].
    counts: Vec<[f64; 3]>,
}

fn tri(i: usize, j: usize) -> usize {
    debug_assert!(i < j);
    j * (j - 1) / 2 + i
}

impl Results {
    /// No games among `players` players named "0", "1", ….
    pub fn new(players: usize) -> Self {
        Self::with_names((0..players).map(|i| i.to_string()))
    }

    /// No games among players with these names (indices in order).
    pub fn with_names<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut r = Results::default();
        for name in names {
            r.add_player(name);
        }
        r
    }

    /// From per-pair results over `players` players (several entries for one
    /// pair add up).
    pub fn from_pairs(players: usize, pairs: &[PairResult]) -> Result<Self, RatingError> {
        let mut r = Results::new(players);
        for p in pairs {
            r.add_pair_result(p)?;
        }
        Ok(r)
    }

    /// Adds a player and returns its index.
    pub fn add_player(&mut self, name: impl Into<String>) -> usize {
        let index = self.names.len();
        self.names.push(name.into());
        self.counts.resize(tri(0, index + 1), [0.0; 3]);
        index
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.names.len()
    }

    /// The players' names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the first player with this name.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Adds one game between `a` and `b`, `result` from `a`'s side.
    pub fn add(&mut self, a: usize, b: usize, result: GameResult) -> Result<(), RatingError> {
        let (w, d, l) = match result {
            GameResult::Win => (1.0, 0.0, 0.0),
            GameResult::Draw => (0.0, 1.0, 0.0),
            GameResult::Loss => (0.0, 0.0, 1.0),
        };
        self.add_counts(a, b, w, d, l)
    }

    /// Adds `wins_a` wins of `a`, `draws` draws and `wins_b` wins of `b`.
    pub fn add_counts(&mut self, a: usize, b: usize, wins_a: f64, draws: f64, wins_b: f64) -> Result<(), RatingError> {
        let players = self.players();
        for player in [a, b] {
            if player >= players {
                return Err(RatingError::PlayerOutOfRange { player, players });
            }
        }
        if a == b {
            return Err(RatingError::SelfPlay { player: a });
        }
        for value in [wins_a, draws, wins_b] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(RatingError::InvalidCount { a, b, value });
            }
        }
        let (i, j, wi, wj) = if a < b { (a, b, wins_a, wins_b) } else { (b, a, wins_b, wins_a) };
        let c = &mut self.counts[tri(i, j)];
        c[0] += wi;
        c[1] += draws;
        c[2] += wj;
        Ok(())
    }

    /// Adds a [`PairResult`].
    pub fn add_pair_result(&mut self, r: &PairResult) -> Result<(), RatingError> {
        self.add_counts(r.a, r.b, r.wins_a, r.draws, r.wins_b)
    }

    /// The results between `a` and `b`, from `a`'s side.
    ///
    /// # Panics
    ///
    /// If `a` or `b` is out of range.
    pub fn pair(&self, a: usize, b: usize) -> PairResult {
        let n = self.players();
        assert!(a < n && b < n, "player out of range");
        if a == b {
            return PairResult::new(a, b, 0.0, 0.0, 0.0);
        }
        let (i, j) = (a.min(b), a.max(b));
        let [wi, d, wj] = self.counts[tri(i, j)];
        let r = PairResult::new(i, j, wi, d, wj);
        if a == i { r } else { r.reversed() }
    }

    /// Every pair that played at least one game (`a < b`).
    pub fn pairs(&self) -> Vec<PairResult> {
        let n = self.players();
        let mut out = Vec::new();
        for j in 0..n {
            for i in 0..j {
                let [wi, d, wj] = self.counts[tri(i, j)];
                if wi + d + wj > 0.0 {
                    out.push(PairResult::new(i, j, wi, d, wj));
                }
            }
        }
        out
    }

    /// The total number of games.
    pub fn games(&self) -> f64 {
        self.counts.iter().map(|c| c[0] + c[1] + c[2]).sum()
    }

    /// Fits ratings; see the [module documentation](self).
    pub fn fit(&self, options: &FitOptions) -> Result<Ratings, RatingError> {
        fit_results(self, options)
    }
}

/// Fits ratings to per-pair results over `players` players:
/// `Results::from_pairs(players, pairs)?.fit(options)`.
pub fn fit(players: usize, pairs: &[PairResult], options: &FitOptions) -> Result<Ratings, RatingError> {
    Results::from_pairs(players, pairs)?.fit(options)
}

/// Settings of a rating fit.
///
/// ```
/// use strength::rating::FitOptions;
///
/// let options = FitOptions::new()
///     .anchor(0, 1500.0)
///     .virtual_draws(1.0)
///     .bootstrap(200, 7);
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitOptions {
    anchors: Vec<(usize, f64)>,
    virtual_draws: f64,
    fixed_nu: Option<f64>,
    bootstrap: Option<(usize, u64)>,
    confidence: f64,
    max_iterations: usize,
    #[serde(default)]
    self_play: Option<SelfPlayGroups>,
}

/// Players that are one program at several strengths, and the scale of
/// their games among themselves (see [`FitOptions::self_play_groups`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SelfPlayGroups {
    /// Each player's group, `None` for a player in none.
    groups: Vec<Option<u32>>,
    /// The scale, or `None` to fit it.
    scale: Option<f64>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            anchors: Vec::new(),
            virtual_draws: 0.0,
            fixed_nu: None,
            bootstrap: None,
            confidence: 0.95,
            max_iterations: 200,
            self_play: None,
        }
    }
}

impl FitOptions {
    /// The defaults: player 0 anchored at 0, no virtual draws, ν fitted, 95%
    /// intervals from the curvature only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fixes `player`'s rating (adds an anchor; the default anchor, player 0
    /// at 0, applies only when none is given).
    #[must_use]
    pub fn anchor(mut self, player: usize, rating: f64) -> Self {
        self.anchors.push((player, rating));
        self
    }

    /// Adds `draws` virtual draws to every pair that played at least one
    /// game: the regularisation that makes ratings finite when someone won or
    /// lost every game (a prior pulling ratings together). 0 turns it off.
    #[must_use]
    pub fn virtual_draws(mut self, draws: f64) -> Self {
        self.virtual_draws = draws;
        self
    }

    /// Uses this draw parameter ν (> 0) instead of fitting it.
    #[must_use]
    pub fn fixed_draw_nu(mut self, nu: f64) -> Self {
        self.fixed_nu = Some(nu);
        self
    }

    /// Also computes percentile-bootstrap intervals from `replicates`
    /// resamples drawn with a `Pcg64` seeded with `seed`. Needs whole-number
    /// game counts.
    #[must_use]
    pub fn bootstrap(mut self, replicates: usize, seed: u64) -> Self {
        self.bootstrap = Some((replicates, seed));
        self
    }

    /// The confidence level of the intervals (default 0.95).
    #[must_use]
    pub fn confidence(mut self, level: f64) -> Self {
        self.confidence = level;
        self
    }

    /// The iteration limit of Newton's method (default 200).
    #[must_use]
    pub fn max_iterations(mut self, iterations: usize) -> Self {
        self.max_iterations = iterations;
        self
    }

    /// Groups of players that are one program at several strengths (an
    /// engine at several node budgets): `groups[i]` is player `i`'s group,
    /// `None` for a player in none. In a game between two players of one
    /// group the rating difference counts `k` times: such games magnify
    /// the difference a budget makes (a program finds the moves its weaker
    /// self misses more surely than another opponent's), so that ratings
    /// fitted to them alone would overstate it against everyone else. The
    /// ratings stay on the scale of the other games; the *self-play scale*
    /// `k` is fitted by maximum likelihood (its profile) with the ratings,
    /// unless [fixed](Self::fixed_self_play_scale), and the games between
    /// members of a group must then exist to fit it. See
    /// [`Ratings::self_play_scale`].
    ///
    /// ```
    /// use strength::rating::{FitOptions, PairResult, fit};
    ///
    /// // Player 0 is another program; 1 and 2 one engine at two budgets.
    /// // Against player 0 they are 100 and 200 Elo above it, but 2 beats 1
    /// // as if by 200.
    /// let counts = |d: f64| {
    ///     let p = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
    ///     (1000.0 * p, 1000.0 * (1.0 - p))
    /// };
    /// let ((a, b), (c, d), (e, f)) = (counts(100.0), counts(200.0), counts(200.0));
    /// let pairs = [
    ///     PairResult::new(1, 0, a, 0.0, b),
    ///     PairResult::new(2, 0, c, 0.0, d),
    ///     PairResult::new(2, 1, e, 0.0, f),
    /// ];
    /// let r = fit(3, &pairs, &FitOptions::new().self_play_groups(vec![None, Some(0), Some(0)]))?;
    /// let k = r.self_play_scale().unwrap();
    /// assert!((k.scale - 2.0).abs() < 1e-3);
    /// assert!((r.rating(2) - r.rating(1) - 100.0).abs() < 0.5);
    /// // The prediction between the two uses the scale.
    /// assert!((r.predict(2, 1).score - c / 1000.0).abs() < 1e-4);
    /// # Ok::<(), strength::rating::RatingError>(())
    /// ```
    #[must_use]
    pub fn self_play_groups(mut self, groups: Vec<Option<u32>>) -> Self {
        let scale = self.self_play.take().and_then(|s| s.scale);
        self.self_play = Some(SelfPlayGroups { groups, scale });
        self
    }

    /// Uses this self-play scale (> 0) for the
    /// [groups](Self::self_play_groups) instead of fitting it.
    #[must_use]
    pub fn fixed_self_play_scale(mut self, scale: f64) -> Self {
        let groups = self.self_play.take().map(|s| s.groups).unwrap_or_default();
        self.self_play = Some(SelfPlayGroups { groups, scale: Some(scale) });
        self
    }
}

/// The self-play scale of a fit: in a game between two players of one
/// [self-play group](FitOptions::self_play_groups), rating differences
/// count `scale` times.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfPlayScale {
    /// The scale `k`.
    pub scale: f64,
    /// Its interval at the fit's confidence level, from the profile
    /// likelihood (the point itself when the scale was fixed).
    pub interval: (f64, f64),
    /// Whether it was fitted (a parameter of the fit) or fixed.
    pub fitted: bool,
}

/// One player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The rating (Elo scale, see the [module documentation](self)).
    pub rating: f64,
    /// Its standard error from the curvature (0 for an anchor).
    pub std_error: f64,
    /// The interval from the curvature, `rating ± z·std_error`.
    pub interval: (f64, f64),
    /// The percentile-bootstrap interval, if requested.
    pub bootstrap: Option<(f64, f64)>,
    /// Whether the rating was fixed by an anchor.
    pub anchored: bool,
}

/// The outcome probabilities of a game between two rated players, from the
/// first player's side.
///
/// ```
/// use strength::rating::davidson;
///
/// let even = davidson(0.0, 1.0);
/// assert!((even.win - 1.0 / 3.0).abs() < 1e-15 && (even.score - 0.5).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Probability that the first player wins.
    pub win: f64,
    /// Probability of a draw.
    pub draw: f64,
    /// Probability that the first player loses.
    pub loss: f64,
    /// The first player's expected score, `win + draw/2`.
    pub score: f64,
}

impl Prediction {
    /// The logistic Elo difference of the expected score (what a score-based
    /// rating list would show for this pairing).
    pub fn score_elo(&self) -> f64 {
        score_to_elo(self.score)
    }

    /// The variance of one game's score, `win + draw/4 − score²`.
    pub fn game_variance(&self) -> f64 {
        (self.win + 0.25 * self.draw - self.score * self.score).max(0.0)
    }
}

/// Davidson's outcome probabilities for a rating difference `rating_diff`
/// (first player minus second) and draw parameter `nu`.
pub fn davidson(rating_diff: f64, nu: f64) -> Prediction {
    let half = 0.5 * rating_diff / LOGISTIC_SCALE;
    // e^{half}, e^{-half}, nu, all divided by the largest exponential.
    let m = half.abs();
    let ea = (half - m).exp();
    let eb = (-half - m).exp();
    let ed = nu * (-m).exp();
    let z = ea + eb + ed;
    let (win, draw, loss) = (ea / z, ed / z, eb / z);
    Prediction { win, draw, loss, score: win + 0.5 * draw }
}

/// The predicted mean score of a future match and its interval.
///
/// The variance combines the sampling variance of `games` games,
/// `σ²_game / games`, with the uncertainty of the predicted score itself (the
/// delta method on the covariance of the two ratings and ν).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchPrediction {
    /// The number of games.
    pub games: u64,
    /// The expected mean score of the first player.
    pub score: f64,
    /// The standard deviation of the expected score from rating uncertainty.
    pub rating_sd: f64,
    /// The standard deviation of the mean score of `games` games around its
    /// expectation (infinite for 0 games).
    pub sampling_sd: f64,
    /// `√(rating_sd² + sampling_sd²)`.
    pub std_error: f64,
    /// The lower end of the interval (at least 0).
    pub low: f64,
    /// The upper end of the interval (at most 1).
    pub high: f64,
}

impl MatchPrediction {
    /// Whether an observed mean score lies in the interval.
    pub fn contains(&self, mean_score: f64) -> bool {
        self.low <= mean_score && mean_score <= self.high
    }

    /// Whether observed counts (wins, draws, losses of the first player) have
    /// a mean score in the interval.
    pub fn contains_counts(&self, wins: f64, draws: f64, losses: f64) -> bool {
        let n = wins + draws + losses;
        n > 0.0 && self.contains((wins + 0.5 * draws) / n)
    }
}

/// Fitted ratings.
///
/// ```
/// use strength::rating::{FitOptions, PairResult, fit};
///
/// let pairs = [PairResult::new(0, 1, 10.0, 5.0, 5.0), PairResult::new(1, 2, 8.0, 6.0, 6.0)];
/// let r = fit(3, &pairs, &FitOptions::new())?;
/// assert_eq!(r.rating(0), 0.0);
/// assert!(r.rating(1) < 0.0 && r.rating(2) < r.rating(1));
/// let (lo, hi) = r.player(2).interval;
/// assert!(lo < r.rating(2) && r.rating(2) < hi);
/// # Ok::<(), strength::rating::RatingError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    names: Vec<String>,
    players: Vec<PlayerRating>,
    nu: f64,
    nu_interval: (f64, f64),
    /// Parameter index of each player (None for anchors).
    param: Vec<Option<usize>>,
    /// Parameter index of ln ν (None when ν is fixed or 0).
    nu_param: Option<usize>,
    /// Covariance of the free parameters in natural units (ln π, ln ν).
    cov: Vec<f64>,
    dim: usize,
    confidence: f64,
    log_likelihood: f64,
    iterations: usize,
    bootstrap_failures: Option<usize>,
    /// Each player's self-play group (empty without groups).
    #[serde(default)]
    self_play_groups: Vec<Option<u32>>,
    /// The self-play scale (`None` without groups).
    #[serde(default)]
    self_play: Option<SelfPlayScale>,
}

impl Ratings {
    /// The number of players.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether there are no players.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// The players' names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Every player's fitted rating, by index.
    pub fn players(&self) -> &[PlayerRating] {
        &self.players
    }

    /// One player's fitted rating.
    pub fn player(&self, i: usize) -> &PlayerRating {
        &self.players[i]
    }

    /// One player's rating.
    pub fn rating(&self, i: usize) -> f64 {
        self.players[i].rating
    }

    /// The draw parameter ν.
    pub fn draw_nu(&self) -> f64 {
        self.nu
    }

    /// The interval of ν (from the curvature in ln ν; a point when ν is fixed
    /// or 0).
    pub fn draw_nu_interval(&self) -> (f64, f64) {
        self.nu_interval
    }

    /// The confidence level of the intervals.
    pub fn confidence(&self) -> f64 {
        self.confidence
    }

    /// The maximised log-likelihood (multinomial, without the combinatorial
    /// constant; virtual draws included).
    pub fn log_likelihood(&self) -> f64 {
        self.log_likelihood
    }

    /// Newton iterations used.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// How many bootstrap replicates could not be fitted (None without a
    /// bootstrap).
    pub fn bootstrap_failures(&self) -> Option<usize> {
        self.bootstrap_failures
    }

    /// The self-play scale, when the fit had
    /// [self-play groups](FitOptions::self_play_groups).
    pub fn self_play_scale(&self) -> Option<SelfPlayScale> {
        self.self_play
    }

    /// How many times a rating difference counts in a game between `a` and
    /// `b`: the [self-play scale](Self::self_play_scale) when both are in
    /// one self-play group, else 1.
    pub fn pair_scale(&self, a: usize, b: usize) -> f64 {
        match self.self_play {
            Some(k) if in_one_group(&self.self_play_groups, a, b) => k.scale,
            _ => 1.0,
        }
    }

    /// The rating difference `r_a − r_b` as it acts in a game between them:
    /// times the [pair's scale](Self::pair_scale).
    pub fn effective_difference(&self, a: usize, b: usize) -> f64 {
        (self.rating(a) - self.rating(b)) * self.pair_scale(a, b)
    }

    fn cov_params(&self, i: Option<usize>, j: Option<usize>) -> f64 {
        match (i, j) {
            (Some(i), Some(j)) => self.cov[i * self.dim + j],
            _ => 0.0,
        }
    }

    /// The covariance of the ratings of `a` and `b` in Elo² (the variance
    /// when `a == b`; 0 if either is anchored).
    pub fn covariance(&self, a: usize, b: usize) -> f64 {
        self.cov_params(self.param[a], self.param[b]) * LOGISTIC_SCALE * LOGISTIC_SCALE
    }

    /// The rating difference `r_a − r_b` and its standard error.
    pub fn difference(&self, a: usize, b: usize) -> (f64, f64) {
        let var = self.covariance(a, a) + self.covariance(b, b) - 2.0 * self.covariance(a, b);
        (self.rating(a) - self.rating(b), var.max(0.0).sqrt())
    }

    /// The rating difference `r_a − r_b` with its interval at the fit's
    /// confidence level.
    pub fn difference_interval(&self, a: usize, b: usize) -> (f64, f64, f64) {
        let (d, se) = self.difference(a, b);
        let z = two_sided_z(self.confidence);
        (d, d - z * se, d + z * se)
    }

    /// The outcome probabilities of a game between `a` and `b`, from `a`'s
    /// side (the [effective difference](Self::effective_difference)).
    pub fn predict(&self, a: usize, b: usize) -> Prediction {
        davidson(self.effective_difference(a, b), self.nu)
    }

    /// The predicted mean score of `a` over a future match of `games` games
    /// against `b`, with its interval at the fit's confidence level (normal
    /// approximation, clipped to [0, 1]). With 0 games the interval is [0, 1].
    pub fn predict_match(&self, a: usize, b: usize, games: u64) -> MatchPrediction {
        let p = self.predict(a, b);
        // Gradient of the score s = pA + pD/2 in (θa, θb, ln ν):
        // ∂p_k/∂x = p_k (c_k(x) − m(x)) with c_A = (1,0,0), c_B = (0,1,0),
        // c_D = (½,½,1) and m = Σ p_k c_k.
        let m = [p.win + 0.5 * p.draw, p.loss + 0.5 * p.draw, p.draw];
        let c_a = [1.0, 0.0, 0.0];
        let c_d = [0.5, 0.5, 1.0];
        // The ratings act through the pair's scale, ν directly.
        let k = self.pair_scale(a, b);
        let chain = [k, k, 1.0];
        let grad: Vec<f64> =
            (0..3).map(|x| chain[x] * (p.win * (c_a[x] - m[x]) + 0.5 * p.draw * (c_d[x] - m[x]))).collect();
        let idx = [self.param[a], self.param[b], self.nu_param];
        let mut var = 0.0;
        for x in 0..3 {
            for y in 0..3 {
                var += grad[x] * grad[y] * self.cov_params(idx[x], idx[y]);
            }
        }
        let rating_sd = var.max(0.0).sqrt();
        let sampling_sd = if games == 0 { f64::INFINITY } else { (p.game_variance() / games as f64).sqrt() };
        let std_error = rating_sd.hypot(sampling_sd);
        let half = two_sided_z(self.confidence) * std_error;
        MatchPrediction {
            games,
            score: p.score,
            rating_sd,
            sampling_sd,
            std_error,
            low: (p.score - half).max(0.0),
            high: (p.score + half).min(1.0),
        }
    }
}

// ---------------------------------------------------------------------------
// The fit.

/// A validated problem: aggregated pairs and the parameter layout.
#[derive(Clone, Debug)]
struct Problem {
    n: usize,
    /// (i, j, [wins i, draws, wins j]) with i < j and at least one game.
    pairs: Vec<(usize, usize, [f64; 3])>,
    /// Anchored rating in natural units (θ = r / LOGISTIC_SCALE), by player.
    fixed: Vec<Option<f64>>,
    /// Parameter index of each free player.
    param: Vec<Option<usize>>,
    free: usize,
    /// Each player's self-play group (all `None` without groups).
    group: Vec<Option<u32>>,
    /// The self-play scale of games within a group.
    scale: f64,
}

/// How ν is handled in a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Nu {
    /// Fitted, as the last parameter (ln ν).
    Fitted,
    /// Fixed at this positive value.
    Fixed(f64),
    /// Zero: no draws anywhere.
    Zero,
}

struct Fit {
    theta: Vec<f64>, // per player, natural units
    ln_nu: f64,      // −∞ for ν = 0
    nu: Nu,
    cov: Vec<f64>,
    dim: usize,
    log_likelihood: f64,
    iterations: usize,
}

fn fit_results(results: &Results, options: &FitOptions) -> Result<Ratings, RatingError> {
    let n = results.players();
    if !(options.virtual_draws.is_finite() && options.virtual_draws >= 0.0) {
        return Err(RatingError::InvalidOption(format!(
            "virtual draws must be finite and non-negative, got {}",
            options.virtual_draws
        )));
    }
    if let Some(nu) = options.fixed_nu
        && !(nu.is_finite() && nu > 0.0)
    {
        return Err(RatingError::InvalidOption(format!(
            "a fixed draw parameter must be finite and positive, got {nu}"
        )));
    }
    if !(options.confidence > 0.0 && options.confidence < 1.0) {
        return Err(RatingError::InvalidOption(format!(
            "the confidence level must be in (0, 1), got {}",
            options.confidence
        )));
    }
    if let Some((replicates, _)) = options.bootstrap
        && replicates < 2
    {
        return Err(RatingError::InvalidOption("the bootstrap needs at least 2 replicates".into()));
    }
    let mut fixed = vec![None; n];
    let default_anchor = [(0, 0.0)];
    let anchors: &[(usize, f64)] =
        if options.anchors.is_empty() { if n == 0 { &[] } else { &default_anchor } } else { &options.anchors };
    for &(player, rating) in anchors {
        if player >= n || !rating.is_finite() || fixed[player].is_some() {
            return Err(RatingError::InvalidAnchor { player, rating });
        }
        fixed[player] = Some(rating / LOGISTIC_SCALE);
    }
    let real: Vec<(usize, usize, [f64; 3])> =
        results.pairs().into_iter().map(|p| (p.a, p.b, [p.wins_a, p.draws, p.wins_b])).collect();
    let problem = Problem::new(n, fixed, with_virtual_draws(&real, options.virtual_draws));
    problem.check_existence()?;
    let nu = problem.nu_mode(options.fixed_nu)?;
    let z = two_sided_z(options.confidence);
    let (problem, self_play) = match &options.self_play {
        None => (problem, None),
        Some(sp) => self_play_scale(problem, sp, nu, z, options.max_iterations)?,
    };
    let fitted = problem.solve(nu, None, options.max_iterations)?;

    // Bootstrap.
    let mut boot_intervals: Option<Vec<Option<(f64, f64)>>> = None;
    let mut bootstrap_failures = None;
    if let Some((replicates, seed)) = options.bootstrap {
        if real.iter().any(|(_, _, c)| c.iter().any(|x| x.fract() != 0.0)) {
            return Err(RatingError::InvalidOption(
                "the bootstrap resamples games and needs whole-number counts".into(),
            ));
        }
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(replicates); n];
        let mut failures = 0;
        for _ in 0..replicates {
            let resampled: Vec<(usize, usize, [f64; 3])> =
                real.iter().map(|&(i, j, c)| (i, j, resample(&mut rng, c))).collect();
            let p = Problem::new(n, problem.fixed.clone(), with_virtual_draws(&resampled, options.virtual_draws))
                .with_self_play(&problem.group, problem.scale);
            let replicate = p
                .check_existence()
                .and_then(|()| p.nu_mode(options.fixed_nu))
                .and_then(|nu| p.solve(nu, Some(&fitted), options.max_iterations));
            match replicate {
                Ok(f) => {
                    for (i, s) in samples.iter_mut().enumerate() {
                        s.push(f.theta[i] * LOGISTIC_SCALE);
                    }
                }
                Err(_) => failures += 1,
            }
        }
        let tail = 0.5 * (1.0 - options.confidence);
        boot_intervals = Some(
            samples
                .into_iter()
                .map(|mut s| {
                    if s.is_empty() {
                        return None;
                    }
                    s.sort_by(f64::total_cmp);
                    Some((quantile(&s, tail), quantile(&s, 1.0 - tail)))
                })
                .collect(),
        );
        bootstrap_failures = Some(failures);
    }

    let players = (0..n)
        .map(|i| {
            let rating = fitted.theta[i] * LOGISTIC_SCALE;
            let std_error = match problem.param[i] {
                Some(k) => fitted.cov[k * fitted.dim + k].max(0.0).sqrt() * LOGISTIC_SCALE,
                None => 0.0,
            };
            PlayerRating {
                rating,
                std_error,
                interval: (rating - z * std_error, rating + z * std_error),
                bootstrap: boot_intervals.as_ref().and_then(|b| b[i]),
                anchored: problem.fixed[i].is_some(),
            }
        })
        .collect();
    let (nu_value, nu_param, nu_interval) = match fitted.nu {
        Nu::Fitted => {
            let k = problem.free;
            let se = fitted.cov[k * fitted.dim + k].max(0.0).sqrt();
            let v = fitted.ln_nu.exp();
            (v, Some(k), ((fitted.ln_nu - z * se).exp(), (fitted.ln_nu + z * se).exp()))
        }
        Nu::Fixed(v) => (v, None, (v, v)),
        Nu::Zero => (0.0, None, (0.0, 0.0)),
    };
    Ok(Ratings {
        names: results.names().to_vec(),
        players,
        nu: nu_value,
        nu_interval,
        param: problem.param.clone(),
        nu_param,
        cov: fitted.cov,
        dim: fitted.dim,
        confidence: options.confidence,
        log_likelihood: fitted.log_likelihood,
        iterations: fitted.iterations,
        bootstrap_failures,
        self_play_groups: if self_play.is_some() { problem.group.clone() } else { Vec::new() },
        self_play,
    })
}

/// The range of ln k searched for the self-play scale `k` (1/64 to 64).
const LN_SCALE_RANGE: f64 = 4.158_883_083_359_672; // ln 64

/// `problem` with its self-play groups at their scale: the fixed one, or
/// the maximum of the profile likelihood over ln k (a grid, then a
/// golden-section search around its best point), with the interval where
/// the profile stays within `z²/2` of its maximum (the likelihood-ratio
/// interval at the confidence level of `z`).
fn self_play_scale(
    problem: Problem,
    sp: &SelfPlayGroups,
    nu: Nu,
    z: f64,
    max_iterations: usize,
) -> Result<(Problem, Option<SelfPlayScale>), RatingError> {
    if sp.groups.len() != problem.n {
        return Err(RatingError::InvalidOption(format!(
            "self-play groups name {} players, the results {}",
            sp.groups.len(),
            problem.n
        )));
    }
    let problem = problem.with_self_play(&sp.groups, 1.0);
    if let Some(k) = sp.scale {
        if !(k.is_finite() && k > 0.0) {
            return Err(RatingError::InvalidOption(format!(
                "a fixed self-play scale must be finite and positive, got {k}"
            )));
        }
        let interval = (k, k);
        return Ok((problem.with_self_play(&sp.groups, k), Some(SelfPlayScale { scale: k, interval, fitted: false })));
    }
    if !problem.has_self_play() {
        return Err(RatingError::InvalidOption(
            "no game between two players of one self-play group: the self-play scale cannot be fitted".into(),
        ));
    }
    let profile = |ln_k: f64| -> Result<f64, RatingError> {
        Ok(problem.clone().with_self_play(&sp.groups, ln_k.exp()).solve(nu, None, max_iterations)?.log_likelihood)
    };
    // A grid at steps of half a doubling, then golden sections between the
    // best point's neighbours.
    let steps = 24;
    let grid: Vec<f64> =
        (0..=steps).map(|i| -LN_SCALE_RANGE + 2.0 * LN_SCALE_RANGE * i as f64 / steps as f64).collect();
    let values = grid.iter().map(|&x| profile(x)).collect::<Result<Vec<f64>, _>>()?;
    let best = (0..values.len()).max_by(|&a, &b| values[a].total_cmp(&values[b])).expect("a grid");
    let (mut lo, mut hi) = (grid[best.saturating_sub(1)], grid[(best + 1).min(steps)]);
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    let (mut c, mut d) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fc, mut fd) = (profile(c)?, profile(d)?);
    for _ in 0..60 {
        if fc > fd {
            hi = d;
            (d, fd) = (c, fc);
            c = hi - ratio * (hi - lo);
            fc = profile(c)?;
        } else {
            lo = c;
            (c, fc) = (d, fd);
            d = lo + ratio * (hi - lo);
            fd = profile(d)?;
        }
    }
    let ln_k = 0.5 * (lo + hi);
    let top = profile(ln_k)?;
    // The interval's ends: where the profile falls z²/2 below its top
    // (bisection; an end of the searched range when it never does).
    let drop = 0.5 * z * z;
    let end = |towards: f64| -> Result<f64, RatingError> {
        if profile(towards)? > top - drop {
            return Ok(towards);
        }
        let (mut inside, mut outside) = (ln_k, towards);
        for _ in 0..50 {
            let mid = 0.5 * (inside + outside);
            if profile(mid)? > top - drop {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        Ok(0.5 * (inside + outside))
    };
    let interval = (end(-LN_SCALE_RANGE)?.exp(), end(LN_SCALE_RANGE)?.exp());
    let scale = ln_k.exp();
    Ok((problem.with_self_play(&sp.groups, scale), Some(SelfPlayScale { scale, interval, fitted: true })))
}

/// Whether players `a` and `b` are in one self-play group (`groups[i]`:
/// player `i`'s group; a player beyond `groups` is in none).
fn in_one_group(groups: &[Option<u32>], a: usize, b: usize) -> bool {
    matches!((groups.get(a), groups.get(b)), (Some(Some(x)), Some(Some(y))) if x == y)
}

fn with_virtual_draws(pairs: &[(usize, usize, [f64; 3])], draws: f64) -> Vec<(usize, usize, [f64; 3])> {
    pairs
        .iter()
        .map(|&(i, j, c)| (i, j, [c[0], c[1] + draws, c[2]]))
        .filter(|(_, _, c)| c[0] + c[1] + c[2] > 0.0)
        .collect()
}

/// Resamples the games of one pair with replacement (same number of games).
fn resample(rng: &mut Pcg64, counts: [f64; 3]) -> [f64; 3] {
    let n = (counts[0] + counts[1] + counts[2]) as u64;
    let total = n as f64;
    let p0 = counts[0] / total;
    let p1 = (counts[0] + counts[1]) / total;
    let mut out = [0.0; 3];
    for _ in 0..n {
        let u: f64 = rng.random();
        let k = if u < p0 {
            0
        } else if u < p1 {
            1
        } else {
            2
        };
        out[k] += 1.0;
    }
    out
}

/// The `q`-quantile of sorted data, interpolating linearly.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

impl Problem {
    fn new(n: usize, fixed: Vec<Option<f64>>, pairs: Vec<(usize, usize, [f64; 3])>) -> Self {
        let mut param = vec![None; n];
        let mut free = 0;
        for i in 0..n {
            if fixed[i].is_none() {
                param[i] = Some(free);
                free += 1;
            }
        }
        Problem { n, pairs, fixed, param, free, group: vec![None; n], scale: 1.0 }
    }

    /// The same problem with self-play `groups` at `scale`.
    fn with_self_play(mut self, groups: &[Option<u32>], scale: f64) -> Self {
        self.group = groups.to_vec();
        self.scale = scale;
        self
    }

    /// The scale of the rating difference in a game between `i` and `j`.
    fn pair_scale(&self, i: usize, j: usize) -> f64 {
        if in_one_group(&self.group, i, j) { self.scale } else { 1.0 }
    }

    /// Whether some game was played between two players of one group.
    fn has_self_play(&self) -> bool {
        self.pairs.iter().any(|&(i, j, _)| in_one_group(&self.group, i, j))
    }

    /// Connectivity to an anchor, and finiteness of every free rating.
    fn check_existence(&self) -> Result<(), RatingError> {
        // Node n stands for all anchors together.
        let node = |i: usize| if self.fixed[i].is_some() { self.n } else { i };
        let mut scored_against: Vec<Vec<usize>> = vec![Vec::new(); self.n + 1]; // u → v: u scored against v
        let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); self.n + 1];
        let mut any: Vec<Vec<usize>> = vec![Vec::new(); self.n + 1];
        for &(i, j, [wi, d, wj]) in &self.pairs {
            let (u, v) = (node(i), node(j));
            if u == v {
                continue;
            }
            any[u].push(v);
            any[v].push(u);
            if wi > 0.0 || d > 0.0 {
                scored_against[u].push(v);
                reverse[v].push(u);
            }
            if wj > 0.0 || d > 0.0 {
                scored_against[v].push(u);
                reverse[u].push(v);
            }
        }
        let reach = |graph: &[Vec<usize>]| {
            let mut seen = vec![false; self.n + 1];
            let mut stack = vec![self.n];
            seen[self.n] = true;
            while let Some(u) = stack.pop() {
                for &v in &graph[u] {
                    if !seen[v] {
                        seen[v] = true;
                        stack.push(v);
                    }
                }
            }
            seen
        };
        let connected = reach(&any);
        if let Some(player) = (0..self.n).find(|&i| self.fixed[i].is_none() && !connected[i]) {
            return Err(RatingError::Disconnected { player });
        }
        // If some player cannot be reached from the anchors along "scored
        // against" edges, the players reachable from the anchors never scored
        // against the others, so the others won every game between the two
        // groups and can rise without bound.
        let from_anchor = reach(&scored_against);
        if let Some(player) = (0..self.n).find(|&i| self.fixed[i].is_none() && !from_anchor[i]) {
            return Err(RatingError::Unbounded { player, direction: Direction::Up });
        }
        // Symmetrically, players that cannot reach the anchors never scored
        // against the players that can: they lost every game between the
        // two groups.
        let to_anchor = reach(&reverse);
        if let Some(player) = (0..self.n).find(|&i| self.fixed[i].is_none() && !to_anchor[i]) {
            return Err(RatingError::Unbounded { player, direction: Direction::Down });
        }
        Ok(())
    }

    fn nu_mode(&self, fixed_nu: Option<f64>) -> Result<Nu, RatingError> {
        if let Some(nu) = fixed_nu {
            return Ok(Nu::Fixed(nu));
        }
        let draws: f64 = self.pairs.iter().map(|p| p.2[1]).sum();
        let decisive: f64 = self.pairs.iter().map(|p| p.2[0] + p.2[2]).sum();
        if draws == 0.0 {
            Ok(Nu::Zero)
        } else if decisive == 0.0 {
            Err(RatingError::NoDecisiveGames)
        } else {
            Ok(Nu::Fitted)
        }
    }

    /// Log-likelihood, and (if asked) gradient and minus the Hessian over
    /// the free parameters.
    fn evaluate(&self, theta: &[f64], ln_nu: f64, nu: Nu, derivatives: Option<(&mut [f64], &mut [f64])>) -> f64 {
        let dim = self.free + usize::from(nu == Nu::Fitted);
        let nu_index = if nu == Nu::Fitted { Some(self.free) } else { None };
        let mut ll = 0.0;
        let mut derivatives = derivatives;
        if let Some((g, h)) = derivatives.as_mut() {
            g.fill(0.0);
            h.fill(0.0);
        }
        for &(i, j, [w, d, l]) in &self.pairs {
            let k = self.pair_scale(i, j);
            let (u, v) = (k * theta[i], k * theta[j]);
            let n = w + d + l;
            let c = ln_nu + 0.5 * (u + v); // −∞ when ν = 0
            let m = u.max(v).max(c);
            let (ea, eb, ed) = ((u - m).exp(), (v - m).exp(), (c - m).exp());
            let s = ea + eb + ed;
            let ln_z = m + s.ln();
            ll += w * u + l * v - n * ln_z;
            if d > 0.0 {
                ll += d * c;
            }
            let Some((g, h)) = derivatives.as_mut() else {
                continue;
            };
            let (pa, pb, pd) = (ea / s, eb / s, ed / s);
            // Mean and second moments of the sufficient statistic c_k over
            // the outcome k ∈ {a wins, b wins, draw}, in (θi, θj, ln ν).
            let mean = [pa + 0.5 * pd, pb + 0.5 * pd, pd];
            let second = [
                [pa + 0.25 * pd, 0.25 * pd, 0.5 * pd],
                [0.25 * pd, pb + 0.25 * pd, 0.5 * pd],
                [0.5 * pd, 0.5 * pd, pd],
            ];
            let observed = [w + 0.5 * d, l + 0.5 * d, d];
            let idx = [self.param[i], self.param[j], nu_index];
            // The ratings act through the pair's scale, ln ν directly.
            let chain = [k, k, 1.0];
            for x in 0..3 {
                let Some(px) = idx[x] else { continue };
                g[px] += chain[x] * (observed[x] - n * mean[x]);
                for y in 0..3 {
                    let Some(py) = idx[y] else { continue };
                    h[px * dim + py] += chain[x] * chain[y] * n * (second[x][y] - mean[x] * mean[y]);
                }
            }
        }
        ll
    }

    /// Newton's method with a backtracking line search.
    fn solve(&self, nu: Nu, start: Option<&Fit>, max_iterations: usize) -> Result<Fit, RatingError> {
        let dim = self.free + usize::from(nu == Nu::Fitted);
        let mut theta: Vec<f64> = match start {
            Some(f) => f.theta.clone(),
            None => {
                let anchors: Vec<f64> = self.fixed.iter().flatten().copied().collect();
                let mean = anchors.iter().sum::<f64>() / anchors.len().max(1) as f64;
                vec![mean; self.n]
            }
        };
        for i in 0..self.n {
            if let Some(t) = self.fixed[i] {
                theta[i] = t;
            }
        }
        let mut ln_nu = match nu {
            Nu::Zero => f64::NEG_INFINITY,
            Nu::Fixed(v) => v.ln(),
            Nu::Fitted => match start {
                Some(f) if f.ln_nu.is_finite() => f.ln_nu,
                _ => {
                    let draws: f64 = self.pairs.iter().map(|p| p.2[1]).sum();
                    let games: f64 = self.pairs.iter().map(|p| p.2.iter().sum::<f64>()).sum();
                    let rate = (draws / games).clamp(1e-3, 1.0 - 1e-3);
                    (2.0 * rate / (1.0 - rate)).ln()
                }
            },
        };
        let mut g = vec![0.0; dim];
        let mut h = vec![0.0; dim * dim];
        let mut ll = self.evaluate(&theta, ln_nu, nu, Some((&mut g, &mut h)));
        let mut iterations = 0;
        loop {
            if dim == 0 {
                break;
            }
            let step = match crate::linear::solve_spd(&h, &g, dim) {
                Some(s) => s,
                None => {
                    // Not positive definite numerically: a damped gradient step.
                    let scale = h.iter().step_by(dim + 1).fold(1e-12_f64, |a, &b| a.max(b));
                    g.iter().map(|x| x / scale).collect()
                }
            };
            let decrement: f64 = step.iter().zip(&g).map(|(a, b)| a * b).sum();
            if decrement.abs() < 1e-20 || step.iter().all(|s| s.abs() < 1e-13) {
                break;
            }
            if iterations >= max_iterations {
                return Err(RatingError::NotConverged { iterations });
            }
            iterations += 1;
            // Backtracking: accept the first step length that does not lower
            // the log-likelihood (the function is concave).
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..60 {
                let mut th = theta.clone();
                for i in 0..self.n {
                    if let Some(k) = self.param[i] {
                        th[i] = theta[i] + t * step[k];
                    }
                }
                let ln = if nu == Nu::Fitted { ln_nu + t * step[self.free] } else { ln_nu };
                let new_ll = self.evaluate(&th, ln, nu, None);
                // Rounding makes a tiny decrease possible near the optimum.
                if new_ll >= ll - 64.0 * f64::EPSILON * ll.abs().max(1.0) {
                    theta = th;
                    ln_nu = ln;
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if !accepted {
                // At the limit of floating-point resolution.
                if decrement.abs() < 1e-8 {
                    break;
                }
                return Err(RatingError::NotConverged { iterations });
            }
            ll = self.evaluate(&theta, ln_nu, nu, Some((&mut g, &mut h)));
        }
        let cov = crate::linear::invert_spd(&h, dim).unwrap_or_else(|| vec![f64::INFINITY; dim * dim]);
        Ok(Fit { theta, ln_nu, nu, cov, dim, log_likelihood: ll, iterations })
    }
}
