//! The conditional logit over legal moves and its maximum-likelihood fit.
//!
//! A move's utility is `u = Σₖ (βₖ + γₖ z) fₖ`, where `fₖ` are the move's
//! [features](super::FEATURES) and `z = (rating − 1500)/500` the player's
//! rating; the player picks move `i` with probability `exp(uᵢ)/Σⱼ exp(uⱼ)`.
//! The weights `w = (β, γ)` maximise the log-likelihood of the played
//! moves less an L2 penalty `λ/2 |w|²` per decision; the objective is
//! concave, and Newton's method with a backtracking line search finds its
//! maximum in a few steps (the Hessian is only `2K × 2K`).

use serde::{Deserialize, Serialize};

use super::features::K;

/// The rating the model is centred on.
pub const RATING_CENTER: f64 = 1500.0;
/// The rating difference that moves `z` by one.
pub const RATING_SCALE: f64 = 500.0;

/// The rating as the model sees it: `(rating − 1500)/500`.
pub fn rating_z(rating: f64) -> f64 {
    (rating - RATING_CENTER) / RATING_SCALE
}

/// Decisions as the fit sees them: for each, its moves' features (rows of
/// `K`), the move chosen and the player's `z`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decisions {
    /// Where each decision's rows start in `x` (in rows), plus the end.
    pub starts: Vec<usize>,
    /// The chosen move of each decision (index within its rows).
    pub chosen: Vec<usize>,
    /// The player's rating of each decision.
    pub ratings: Vec<f64>,
    /// The features, `K` per move.
    pub x: Vec<f64>,
}

impl Decisions {
    /// No decisions.
    pub fn new() -> Self {
        Decisions { starts: vec![0], ..Decisions::default() }
    }

    /// Adds a decision: its moves' features (`n × K`), the chosen move,
    /// the rating.
    ///
    /// # Panics
    ///
    /// If `features.len()` is not a multiple of `K` or `chosen` is out of
    /// range (a caller's bug).
    pub fn push(&mut self, features: &[f64], chosen: usize, rating: f64) {
        assert!(features.len().is_multiple_of(K) && chosen < features.len() / K, "bad decision");
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.x.extend_from_slice(features);
        self.starts.push(self.x.len() / K);
        self.chosen.push(chosen);
        self.ratings.push(rating);
    }

    /// How many decisions.
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// Decision `i`'s rows.
    pub fn rows(&self, i: usize) -> &[f64] {
        &self.x[self.starts[i] * K..self.starts[i + 1] * K]
    }

    /// The decisions `keep` selects.
    pub fn select(&self, keep: impl Fn(usize) -> bool) -> Decisions {
        let mut d = Decisions::new();
        for i in 0..self.len() {
            if keep(i) {
                d.push(self.rows(i), self.chosen[i], self.ratings[i]);
            }
        }
        d
    }
}

/// The utilities of a decision's moves under weights `w` (length `2K`).
pub fn utilities(w: &[f64], rows: &[f64], z: f64) -> Vec<f64> {
    rows.chunks_exact(K).map(|f| (0..K).map(|k| (w[k] + w[K + k] * z) * f[k]).sum()).collect()
}

/// `ln Σ exp(u)`, computed stably (shifted by the largest of `u`): the
/// normaliser of the move probabilities, so that a move's log-probability
/// is its utility less this.
///
/// ```
/// use games_chess::human::log_sum_exp;
/// assert!((log_sum_exp(&[0.0, 0.0]) - 2f64.ln()).abs() < 1e-15);
/// assert!((log_sum_exp(&[1000.0, 1000.0]) - (1000.0 + 2f64.ln())).abs() < 1e-9);
/// ```
pub fn log_sum_exp(u: &[f64]) -> f64 {
    let m = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + u.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// The index of the largest of `u`, the first of them on ties: the move
/// `pick=mode` plays.
///
/// ```
/// use games_chess::human::mode;
/// assert_eq!(mode(&[0.1, 0.7, 0.7, 0.2]), 1);
/// ```
pub fn mode(u: &[f64]) -> usize {
    (0..u.len()).fold(0, |b, j| if u[j] > u[b] { j } else { b })
}

/// The move probabilities of utilities `u` (softmax, stable).
pub fn softmax(u: &[f64]) -> Vec<f64> {
    let m = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = u.iter().map(|x| (x - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.into_iter().map(|x| x / s).collect()
}

/// The log-likelihood of `d` under `w`, its gradient and (if `hessian`)
/// its Hessian (row-major `2K × 2K`), summed over decisions.
pub fn loglik(w: &[f64], d: &Decisions, hessian: bool) -> (f64, Vec<f64>, Vec<f64>) {
    let p2 = 2 * K;
    let mut ll = 0.0;
    let mut g = vec![0.0; p2];
    let mut h = if hessian { vec![0.0; p2 * p2] } else { Vec::new() };
    let mut mean = vec![0.0; p2];
    let mut x = vec![0.0; p2];
    for i in 0..d.len() {
        let rows = d.rows(i);
        let z = rating_z(d.ratings[i]);
        let u = utilities(w, rows, z);
        let lse = log_sum_exp(&u);
        ll += u[d.chosen[i]] - lse;
        mean.iter_mut().for_each(|v| *v = 0.0);
        for (j, f) in rows.chunks_exact(K).enumerate() {
            let p = (u[j] - lse).exp();
            for k in 0..K {
                x[k] = f[k];
                x[K + k] = f[k] * z;
            }
            for a in 0..p2 {
                mean[a] += p * x[a];
            }
            if hessian {
                for a in 0..p2 {
                    if x[a] == 0.0 {
                        continue;
                    }
                    let pa = p * x[a];
                    for b in a..p2 {
                        h[a * p2 + b] -= pa * x[b];
                    }
                }
            }
            if j == d.chosen[i] {
                for a in 0..p2 {
                    g[a] += x[a];
                }
            }
        }
        for a in 0..p2 {
            g[a] -= mean[a];
        }
        if hessian {
            for a in 0..p2 {
                for b in a..p2 {
                    h[a * p2 + b] += mean[a] * mean[b];
                }
            }
        }
    }
    if hessian {
        for a in 0..p2 {
            for b in 0..a {
                h[a * p2 + b] = h[b * p2 + a];
            }
        }
    }
    (ll, g, h)
}

/// Which weights a model may use: the features kept (others fixed at 0)
/// and whether the rating interactions are on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mask {
    /// Per feature: used or not.
    pub features: Vec<bool>,
    /// Whether the `γ` (feature × rating) weights are fitted.
    pub rating: bool,
}

impl Mask {
    /// Every feature, with the rating interactions.
    pub fn all() -> Mask {
        Mask { features: vec![true; K], rating: true }
    }

    /// Only the features named, with or without the interactions.
    pub fn only(names: &[&str], rating: bool) -> Mask {
        Mask { features: super::FEATURES.iter().map(|f| names.contains(f)).collect(), rating }
    }

    fn free(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..K).filter(|&k| self.features[k]).collect();
        if self.rating {
            v.extend((0..K).filter(|&k| self.features[k]).map(|k| K + k));
        }
        v
    }
}

/// A fit's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct FitResult {
    /// The weights (`2K`; 0 where the mask fixes them).
    pub weights: Vec<f64>,
    /// The log-likelihood per decision (without the penalty).
    pub loglik_per_move: f64,
    /// Newton steps taken.
    pub steps: usize,
}

/// Solves `A y = b` for a symmetric positive-definite `A` (n × n,
/// row-major) by Cholesky; `None` if `A` is not positive definite.
fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = a[i * n + j] - (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum::<f64>();
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i * n + k] * y[k]).sum::<f64>()) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k * n + i] * x[k]).sum::<f64>()) / l[i * n + i];
    }
    Some(x)
}

/// Fits the weights `mask` frees by maximum likelihood with an L2 penalty
/// `l2/2 |w|²` per decision, by damped Newton steps until the objective
/// gains less than 1e-10 per decision (at most 50 steps).
///
/// ```
/// use games_chess::human::{Decisions, Mask, fit, K};
/// // Two moves; the player always picks the one whose first feature is 1.
/// let mut d = Decisions::new();
/// for _ in 0..20 {
///     let mut f = vec![0.0; 2 * K];
///     f[0] = 1.0;
///     d.push(&f, 0, 1500.0);
/// }
/// let r = fit(&d, &Mask::only(&["gap"], false), 0.01).unwrap();
/// assert!(r.weights[0] > 1.0);
/// ```
pub fn fit(d: &Decisions, mask: &Mask, l2: f64) -> Option<FitResult> {
    let free = mask.free();
    let n = d.len().max(1) as f64;
    let p = free.len();
    let mut w = vec![0.0; 2 * K];
    let objective = |w: &[f64], ll: f64| ll / n - 0.5 * l2 * w.iter().map(|x| x * x).sum::<f64>();
    let (mut ll, mut g, mut h) = loglik(&w, d, true);
    let mut obj = objective(&w, ll);
    let mut steps = 0;
    for _ in 0..50 {
        let gf: Vec<f64> = free.iter().map(|&a| g[a] / n - l2 * w[a]).collect();
        let mut hf = vec![0.0; p * p];
        for (i, &a) in free.iter().enumerate() {
            for (j, &b) in free.iter().enumerate() {
                hf[i * p + j] = -h[a * 2 * K + b] / n + if i == j { l2 + 1e-12 } else { 0.0 };
            }
        }
        let step = cholesky_solve(&hf, &gf, p)?;
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let mut trial = w.clone();
            for (i, &a) in free.iter().enumerate() {
                trial[a] += t * step[i];
            }
            let (tll, _, _) = loglik(&trial, d, false);
            let tobj = objective(&trial, tll);
            if tobj.is_finite() && tobj >= obj {
                let gain = tobj - obj;
                w = trial;
                obj = tobj;
                improved = gain > 1e-10;
                break;
            }
            t *= 0.5;
        }
        steps += 1;
        (ll, g, h) = loglik(&w, d, true);
        if !improved {
            break;
        }
    }
    Some(FitResult { weights: w, loglik_per_move: ll / n, steps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random_decisions(seed: u64, n: usize, w: &[f64]) -> Decisions {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut d = Decisions::new();
        for _ in 0..n {
            let moves = rng.random_range(2..12);
            let f: Vec<f64> = (0..moves * K).map(|_| rng.random_range(-1.0..1.0)).collect();
            let rating = rng.random_range(800.0..2200.0);
            let p = softmax(&utilities(w, &f, rating_z(rating)));
            let chosen = search_core::rng::sample_index(&p, &mut rng);
            d.push(&f, chosen, rating);
        }
        d
    }

    fn true_weights() -> Vec<f64> {
        (0..2 * K).map(|i| ((i * 7 % 11) as f64 - 5.0) / 5.0).collect()
    }

    #[test]
    fn the_gradient_and_hessian_match_finite_differences() {
        let w = true_weights();
        let d = random_decisions(1, 40, &w);
        let probe: Vec<f64> = w.iter().map(|x| x * 0.7 + 0.1).collect();
        let (_, g, h) = loglik(&probe, &d, true);
        let eps = 1e-6;
        for a in 0..2 * K {
            let mut up = probe.clone();
            let mut down = probe.clone();
            up[a] += eps;
            down[a] -= eps;
            let (lu, gu, _) = loglik(&up, &d, false);
            let (ld, gd, _) = loglik(&down, &d, false);
            let numeric = (lu - ld) / (2.0 * eps);
            assert!((numeric - g[a]).abs() < 1e-5 * (1.0 + g[a].abs()), "gradient {a}: {numeric} vs {}", g[a]);
            for b in 0..2 * K {
                let numeric = (gu[b] - gd[b]) / (2.0 * eps);
                let exact = h[a * 2 * K + b];
                assert!((numeric - exact).abs() < 1e-4 * (1.0 + exact.abs()), "hessian {a},{b}: {numeric} vs {exact}");
            }
        }
    }

    #[test]
    fn a_synthetic_player_is_recovered() {
        let w = true_weights();
        let d = random_decisions(7, 20_000, &w);
        let r = fit(&d, &Mask::all(), 0.0).unwrap();
        // The maximum-likelihood estimate's standard error here is about
        // 0.03 for β and 0.05 for γ; 0.2 is several of them.
        for (a, (got, want)) in r.weights.iter().zip(&w).enumerate() {
            assert!((got - want).abs() < 0.2, "weight {a}: fitted {got}, true {want}");
        }
        let (ll_true, _, _) = loglik(&w, &d, false);
        assert!(r.loglik_per_move * d.len() as f64 >= ll_true - 1e-6, "the fit beats the truth on its own data");
    }

    #[test]
    fn the_mask_fixes_weights_at_zero() {
        let w = true_weights();
        let d = random_decisions(3, 500, &w);
        let r = fit(&d, &Mask::only(&["gap", "check"], false), 0.0).unwrap();
        let nonzero: Vec<usize> = (0..2 * K).filter(|&a| r.weights[a] != 0.0).collect();
        assert_eq!(nonzero, vec![0, 4]);
    }
}
