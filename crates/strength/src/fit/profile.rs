//! The log-likelihood of a model over a player's decisions, its maximum,
//! and the profile-likelihood interval.

use std::collections::BTreeMap;

use super::model::{Model, Situation};

/// `χ²₁`'s 95% quantile: the interval is where twice the log-likelihood
/// drop from the maximum is at most this.
pub(crate) const CHI2_1_95: f64 = 3.841_458_820_694_124;

/// Grid cells on the fitting axis `u ∈ [0, 1]` scanned before refining.
const GRID: usize = 32;

/// The informative decisions, grouped.
#[derive(Debug, Clone)]
pub(crate) struct Data {
    pub(crate) situations: Vec<Situation>,
    /// A typical gap between values (the median positive gap below the
    /// best move), the unit of the fitting axis.
    pub(crate) scale: f64,
}

impl Data {
    /// Groups identical situations (chosen gap, sorted other gaps).
    pub(crate) fn new(rows: Vec<(f64, Vec<f64>)>) -> Self {
        let mut gaps: Vec<f64> = Vec::new();
        let mut groups: BTreeMap<Vec<u64>, (f64, Vec<f64>, f64)> = BTreeMap::new();
        for (chosen, mut others) in rows {
            others.sort_by(f64::total_cmp);
            gaps.extend(others.iter().copied().chain([chosen]).filter(|&g| g > 0.0));
            let key: Vec<u64> = std::iter::once(chosen).chain(others.iter().copied()).map(f64::to_bits).collect();
            groups.entry(key).or_insert((chosen, others, 0.0)).2 += 1.0;
        }
        let scale = if gaps.is_empty() {
            1.0
        } else {
            let mid = gaps.len() / 2;
            *gaps.select_nth_unstable_by(mid, f64::total_cmp).1
        };
        let situations = groups.into_values().map(|(c, o, w)| Situation::new(c, o, w)).collect();
        Data { situations, scale }
    }
}

/// One evaluation of the (profile) log-likelihood.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Point {
    /// Position on the fitting axis.
    pub(crate) u: f64,
    /// The log-likelihood (maximized over the slip, with one).
    pub(crate) loglik: f64,
    /// The slip rate maximizing it (0 without a slip).
    pub(crate) slip: f64,
}

/// The maximum and the 95% interval on the fitting axis.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Estimate {
    pub(crate) best: Point,
    /// `None`: the interval reaches `u = 0`.
    pub(crate) low: Option<f64>,
    /// `None`: the interval reaches `u = 1`.
    pub(crate) high: Option<f64>,
}

/// The log-likelihood of one model over the data, as a function of the
/// fitting axis.
#[derive(Debug)]
pub(crate) struct Profile<'a> {
    data: &'a Data,
    model: Model,
    slip: bool,
    ln_p: Vec<f64>,
    buf: Vec<f64>,
}

impl<'a> Profile<'a> {
    pub(crate) fn new(data: &'a Data, model: Model, slip: bool) -> Self {
        Profile { data, model, slip, ln_p: Vec::new(), buf: Vec::new() }
    }

    /// The log-likelihood at `u` (with a slip, maximized over it).
    pub(crate) fn at(&mut self, u: f64) -> Point {
        let Profile { data, model, ln_p, buf, .. } = self;
        ln_p.clear();
        ln_p.extend(data.situations.iter().map(|s| s.ln_p(*model, u, data.scale, buf)));
        let (loglik, slip) = if self.slip { self.best_slip() } else { (self.mixed(0.0), 0.0) };
        debug_assert!(!loglik.is_nan(), "{} at u = {u}", self.model);
        Point { u, loglik, slip }
    }

    /// `Σ w ln((1 − λ) p + λ/n)` at the current `ln p`.
    fn mixed(&self, slip: f64) -> f64 {
        let situations = &self.data.situations;
        if slip == 0.0 {
            return situations.iter().zip(&self.ln_p).map(|(s, &lp)| s.weight * lp).sum();
        }
        let (a, b) = ((1.0 - slip).ln(), slip.ln());
        situations
            .iter()
            .zip(&self.ln_p)
            .map(|(s, &lp)| {
                let (x, y) = (a + lp, b - (s.moves as f64).ln());
                let (hi, lo) = if x > y { (x, y) } else { (y, x) };
                s.weight * (hi + (lo - hi).exp().ln_1p())
            })
            .sum()
    }

    /// The slip maximizing the log-likelihood at the current `ln p`, and
    /// that maximum. The log-likelihood is concave in the slip λ (a sum of
    /// logarithms of functions affine in λ), so its derivative
    /// `Σ w (1/n − p) / ((1 − λ) p + λ/n)` decreases and a safeguarded
    /// Newton iteration finds its zero in `[0, 1]`.
    fn best_slip(&self) -> (f64, f64) {
        let terms: Vec<(f64, f64, f64)> = self
            .data
            .situations
            .iter()
            .zip(&self.ln_p)
            .map(|(s, &lp)| (s.weight, lp.exp(), 1.0 / s.moves as f64))
            .collect();
        let slope = |l: f64| -> (f64, f64) {
            let mut d1 = 0.0;
            let mut d2 = 0.0;
            for &(w, p, r) in &terms {
                let q = (1.0 - l) * p + l * r;
                let t = (r - p) / q;
                d1 += w * t;
                d2 -= w * t * t;
            }
            (d1, d2)
        };
        if slope(0.0).0 <= 0.0 {
            return (self.mixed(0.0), 0.0);
        }
        if slope(1.0).0 >= 0.0 {
            return (self.mixed(1.0), 1.0);
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        let mut l = 0.5;
        for _ in 0..200 {
            let (d1, d2) = slope(l);
            if d1 > 0.0 {
                lo = l;
            } else {
                hi = l;
            }
            let mut next = if d2 < 0.0 { l - d1 / d2 } else { f64::NAN };
            if !(next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            }
            let done = (next - l).abs() < 1e-14 || hi - lo < 1e-14;
            l = next;
            if done {
                break;
            }
        }
        (self.mixed(l), l)
    }

    /// The maximum over `u ∈ [0, 1]` and the 95% profile interval: a grid
    /// scan, a refinement by Brent's method around the best grid point, and
    /// on each side a root search (Illinois) for the crossing of
    /// `loglik_max − χ²₁(95%)/2` between the last grid point inside and the
    /// first outside. The interval is the stretch around the maximum where
    /// the drop is within the threshold; an end is open when that stretch
    /// reaches the end of the axis.
    pub(crate) fn estimate(&mut self) -> Estimate {
        let grid: Vec<Point> = (0..=GRID).map(|k| self.at(k as f64 / GRID as f64)).collect();
        let k = (0..=GRID).fold(0, |b, k| if grid[k].loglik > grid[b].loglik { k } else { b });
        let mut best = grid[k];
        let (a, b) = (grid[k.saturating_sub(1)].u, grid[(k + 1).min(GRID)].u);
        let refined = self.brent(a, b);
        // At an end of the axis (θ = +∞, S = 0...) the likelihood can be
        // flat to rounding nearby: the end stays unless clearly beaten.
        let slack = if k == 0 || k == GRID { 1e-9 * (1.0 + best.loglik.abs()) } else { 0.0 };
        if refined.loglik > best.loglik + slack {
            best = refined;
        }
        let target = best.loglik - 0.5 * CHI2_1_95;
        // Downwards: grid points below the maximum, nearest first.
        let mut inside = best;
        let mut low = None;
        for p in grid.iter().rev().filter(|p| p.u < best.u) {
            if p.loglik < target {
                low = Some(self.crossing(inside, *p, target));
                break;
            }
            inside = *p;
        }
        let mut inside = best;
        let mut high = None;
        for p in grid.iter().filter(|p| p.u > best.u) {
            if p.loglik < target {
                high = Some(self.crossing(inside, *p, target));
                break;
            }
            inside = *p;
        }
        Estimate { best, low, high }
    }

    /// Brent's method (golden sections and parabolic steps) for the
    /// maximum on `[a, b]`, to about `1e−8 |u| + 1e−10`: the precision a
    /// smooth maximum allows in `f64`.
    fn brent(&mut self, mut a: f64, mut b: f64) -> Point {
        const C: f64 = 0.381_966_011_250_105_1; // (3 − √5)/2
        let mut x = self.at(a + C * (b - a));
        let (mut w, mut v) = (x, x);
        let (mut d, mut e) = (0.0f64, 0.0f64);
        for _ in 0..200 {
            let m = 0.5 * (a + b);
            let tol1 = 1.5e-8 * x.u.abs() + 1e-10 / 3.0;
            let tol2 = 2.0 * tol1;
            if (x.u - m).abs() <= tol2 - 0.5 * (b - a) {
                break;
            }
            let mut parabolic = false;
            if e.abs() > tol1 {
                // Through x, w, v (negated log-likelihoods are minimized).
                let (fx, fw, fv) = (-x.loglik, -w.loglik, -v.loglik);
                let r = (x.u - w.u) * (fx - fv);
                let mut q = (x.u - v.u) * (fx - fw);
                let mut p = (x.u - v.u) * q - (x.u - w.u) * r;
                q = 2.0 * (q - r);
                if q > 0.0 {
                    p = -p;
                } else {
                    q = -q;
                }
                let last = e;
                e = d;
                if p.abs() < (0.5 * q * last).abs() && p > q * (a - x.u) && p < q * (b - x.u) {
                    d = p / q;
                    let u = x.u + d;
                    if u - a < tol2 || b - u < tol2 {
                        d = if x.u < m { tol1 } else { -tol1 };
                    }
                    parabolic = true;
                }
            }
            if !parabolic {
                e = if x.u < m { b - x.u } else { a - x.u };
                d = C * e;
            }
            let u = if d.abs() >= tol1 { x.u + d } else { x.u + tol1.copysign(d) };
            let fu = self.at(u);
            if fu.loglik >= x.loglik {
                if u < x.u {
                    b = x.u;
                } else {
                    a = x.u;
                }
                (v, w, x) = (w, x, fu);
            } else {
                if u < x.u {
                    a = u;
                } else {
                    b = u;
                }
                if fu.loglik >= w.loglik || w.u == x.u {
                    (v, w) = (w, fu);
                } else if fu.loglik >= v.loglik || v.u == x.u || v.u == w.u {
                    v = fu;
                }
            }
        }
        x
    }

    /// Where the log-likelihood crosses `target` between `inside` (at or
    /// above it) and `outside` (below): the Illinois variant of regula
    /// falsi, bisecting where a value is infinite.
    fn crossing(&mut self, inside: Point, outside: Point, target: f64) -> f64 {
        let (mut a, mut fa) = (inside.u, inside.loglik - target);
        let (mut b, mut fb) = (outside.u, outside.loglik - target);
        let mut kept = 0i8;
        let mut m = 0.5 * (a + b);
        for i in 0..100 {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            if hi - lo <= 1e-12 {
                break;
            }
            m = if fa.is_finite() && fb.is_finite() && i % 8 != 7 { (a * fb - b * fa) / (fb - fa) } else { f64::NAN };
            if !(m > lo && m < hi) {
                m = 0.5 * (a + b);
            }
            let fm = self.at(m).loglik - target;
            if fm.abs() < 1e-10 {
                break;
            }
            if fm > 0.0 {
                (a, fa) = (m, fm);
                if kept == 1 {
                    fb *= 0.5;
                }
                kept = 1;
            } else {
                (b, fb) = (m, fm);
                if kept == -1 {
                    fa *= 0.5;
                }
                kept = -1;
            }
        }
        m
    }
}
