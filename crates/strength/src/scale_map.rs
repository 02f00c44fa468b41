//! The map between a rating model's units and a published scale.
//!
//! A calibration fits its ratings in the units of its rating model, where a
//! difference `d` predicts a game's outcome ([`crate::rating::davidson`]).
//! A game whose ladder meets reference players with published ratings
//! (Stockfish's `UCI_Elo` levels, say) shows its ratings on their scale
//! instead. A [`ScaleMap`] is that map: a line of slope `slope` (published
//! Elo per model Elo), or a line through *knots*, one `(model, published)`
//! point per reference player, so that each reference sits at its published
//! rating exactly, with the slope beyond the outer knots. Through knots,
//! the published scale may stretch differently in different ranges, as the
//! references' own levels do.
//!
//! Offsets do not matter to predictions, only differences in model units:
//! without knots a published rating `x` is `x / slope` in model units.
//!
//! ```
//! use strength::scale_map::ScaleMap;
//!
//! // Two references: the model's 0 is published 1000, its 500 is 1300.
//! let map = ScaleMap::through(vec![(0.0, 1000.0), (500.0, 1300.0)], 0.5)?;
//! assert_eq!(map.to_published(250.0), 1150.0);
//! assert_eq!(map.to_model(1150.0), 250.0);
//! // Beyond the knots, the slope: 100 model Elo above the top is 50.
//! assert_eq!(map.to_published(600.0), 1350.0);
//! assert_eq!(map.slope_at(1150.0), 0.6);
//! assert_eq!(map.slope_at(1400.0), 0.5);
//! # Ok::<(), strength::scale_map::ScaleMapError>(())
//! ```

use serde::{Deserialize, Serialize};

/// Why a scale map is invalid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScaleMapError {
    /// The slope is not finite and positive.
    #[error("the scale's slope must be finite and positive, got {0}")]
    Slope(f64),
    /// The knots are not finite and strictly increasing in both
    /// coordinates.
    #[error("the scale's knots must be finite and strictly increasing in both coordinates: {0:?}")]
    Knots(Vec<(f64, f64)>),
}

/// A monotone map from a rating model's units onto a published scale (see
/// the [module documentation](self)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScaleMap {
    knots: Vec<(f64, f64)>,
    slope: f64,
}

impl ScaleMap {
    /// The line of slope `slope`: a published difference `d` is `d / slope`
    /// model Elo.
    pub fn linear(slope: f64) -> Result<Self, ScaleMapError> {
        Self::through(Vec::new(), slope)
    }

    /// The line through `knots` (`(model, published)`, strictly increasing
    /// in both), extended with slope `slope` beyond the outer ones. No
    /// knots: [`linear`](Self::linear).
    pub fn through(knots: Vec<(f64, f64)>, slope: f64) -> Result<Self, ScaleMapError> {
        if !(slope.is_finite() && slope > 0.0) {
            return Err(ScaleMapError::Slope(slope));
        }
        let finite = knots.iter().all(|k| k.0.is_finite() && k.1.is_finite());
        if !finite || knots.windows(2).any(|w| !(w[0].0 < w[1].0 && w[0].1 < w[1].1)) {
            return Err(ScaleMapError::Knots(knots));
        }
        Ok(ScaleMap { knots, slope })
    }

    /// Knots for points `(model, published)` that may break monotonicity
    /// (references whose fitted order differs from their published one, as
    /// noise can make it): sorted by the model's rating, and each run of
    /// points out of order pooled into its mean point (pool adjacent
    /// violators) until both coordinates increase strictly.
    ///
    /// ```
    /// use strength::scale_map::ScaleMap;
    ///
    /// let knots = ScaleMap::monotone_knots(&[(0.0, 1000.0), (100.0, 1300.0), (120.0, 1200.0), (300.0, 1500.0)]);
    /// assert_eq!(knots, vec![(0.0, 1000.0), (110.0, 1250.0), (300.0, 1500.0)]);
    /// ```
    pub fn monotone_knots(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
        let mut sorted: Vec<(f64, f64)> =
            points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Blocks of (sum model, sum published, count).
        let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
        for (m, p) in sorted {
            blocks.push((m, p, 1.0));
            while blocks.len() >= 2 {
                let (b, a) = (blocks[blocks.len() - 1], blocks[blocks.len() - 2]);
                if a.0 / a.2 < b.0 / b.2 && a.1 / a.2 < b.1 / b.2 {
                    break;
                }
                blocks.pop();
                *blocks.last_mut().expect("two blocks") = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
            }
        }
        blocks.into_iter().map(|(m, p, n)| (m / n, p / n)).collect()
    }

    /// The knots, `(model, published)`.
    pub fn knots(&self) -> &[(f64, f64)] {
        &self.knots
    }

    /// The slope beyond the knots (everywhere without them).
    pub fn slope(&self) -> f64 {
        self.slope
    }

    /// A model rating on the published scale.
    pub fn to_published(&self, model: f64) -> f64 {
        interpolate(&self.knots, model, self.slope, |k| k)
    }

    /// A published rating in the model's units.
    pub fn to_model(&self, published: f64) -> f64 {
        interpolate(&self.knots, published, 1.0 / self.slope, |k| (k.1, k.0))
    }

    /// Published Elo per model Elo at the published rating `published`:
    /// the slope of the segment it falls in.
    pub fn slope_at(&self, published: f64) -> f64 {
        let i = self.knots.iter().position(|k| k.1 > published);
        match i {
            Some(i) if i > 0 => {
                let (a, b) = (self.knots[i - 1], self.knots[i]);
                (b.1 - a.1) / (b.0 - a.0)
            }
            _ => self.slope,
        }
    }
}

/// The piecewise-linear function through `knots` (each mapped by `key` to
/// `(x, y)`) at `x`, with slope `slope` beyond the outer knots and
/// everywhere without knots (through the origin).
fn interpolate(knots: &[(f64, f64)], x: f64, slope: f64, key: impl Fn((f64, f64)) -> (f64, f64)) -> f64 {
    let (Some(&first), Some(&last)) = (knots.first(), knots.last()) else {
        return x * slope;
    };
    let (first, last) = (key(first), key(last));
    if x <= first.0 {
        return first.1 + slope * (x - first.0);
    }
    if x >= last.0 {
        return last.1 + slope * (x - last.0);
    }
    let i = knots.iter().position(|&k| key(k).0 >= x).expect("inside the knots");
    let (a, b) = (key(knots[i - 1]), key(knots[i]));
    a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_directions_invert_each_other() {
        let map =
            ScaleMap::through(vec![(-50.0, 1300.0), (100.0, 1350.0), (400.0, 1700.0), (900.0, 2000.0)], 0.4).unwrap();
        for m in [-400.0, -50.0, 0.0, 77.0, 100.0, 399.0, 650.0, 900.0, 1500.0] {
            let p = map.to_published(m);
            assert!((map.to_model(p) - m).abs() < 1e-9, "{m} → {p}");
        }
        // Each knot maps exactly, and the map increases.
        for &(m, p) in map.knots() {
            assert_eq!(map.to_published(m), p);
        }
        let ps: Vec<f64> = (-10..30).map(|i| map.to_published(f64::from(i) * 50.0)).collect();
        assert!(ps.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn a_line_maps_differences_by_its_slope() {
        let map = ScaleMap::linear(0.5).unwrap();
        assert_eq!(map.to_model(1500.0) - map.to_model(1400.0), 200.0);
        assert_eq!(map.slope_at(0.0), 0.5);
    }

    #[test]
    fn bad_maps_are_refused() {
        assert_eq!(ScaleMap::linear(0.0), Err(ScaleMapError::Slope(0.0)));
        assert!(ScaleMap::linear(f64::NAN).is_err());
        assert!(ScaleMap::through(vec![(0.0, 100.0), (10.0, 90.0)], 1.0).is_err());
        assert!(ScaleMap::through(vec![(0.0, 100.0), (0.0, 120.0)], 1.0).is_err());
        assert!(ScaleMap::through(vec![(0.0, f64::INFINITY)], 1.0).is_err());
    }

    #[test]
    fn pooled_knots_always_make_a_valid_map() {
        // Points in every order, with ties: the pooled knots are valid.
        let points = [(5.0, 1500.0), (1.0, 1400.0), (3.0, 1350.0), (3.0, 1600.0), (9.0, 1550.0), (12.0, 1900.0)];
        let knots = ScaleMap::monotone_knots(&points);
        assert!(ScaleMap::through(knots.clone(), 1.0).is_ok(), "{knots:?}");
        // Already monotone points stay as they are.
        let fine = [(0.0, 1.0), (1.0, 2.0), (2.0, 5.0)];
        assert_eq!(ScaleMap::monotone_knots(&fine), fine.to_vec());
    }
}
