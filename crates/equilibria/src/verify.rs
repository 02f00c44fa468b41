//! The equilibrium check: no player gains by deviating to any pure strategy
//! (enough, since a mixed deviation earns an average of pure ones).

use num_traits::Signed;

use crate::game::{Bimatrix, Equilibrium, Rational, to_f64};

/// The tolerance of [`verify_f64`] used by this crate's tests and the
/// `nash` command: `1e-9`.
pub const TOLERANCE: f64 = 1e-9;

/// Why a profile is not an equilibrium.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotEquilibrium {
    /// A strategy vector has the wrong length.
    #[error("player {player}'s strategy has {found} probabilities, the game has {expected} strategies")]
    Length {
        /// 1 (rows) or 2 (columns).
        player: usize,
        /// Its length.
        found: usize,
        /// The player's number of strategies.
        expected: usize,
    },
    /// A probability is negative or the probabilities do not sum to 1.
    #[error("player {player}'s strategy is not a probability distribution")]
    NotDistribution {
        /// 1 (rows) or 2 (columns).
        player: usize,
    },
    /// The payoffs recorded with the profile are not its expected payoffs.
    #[error("the recorded payoffs are not the profile's expected payoffs")]
    WrongPayoffs,
    /// A player gains by switching to a pure strategy.
    #[error("player {player} gains {gain} by switching to strategy {strategy} (1-based: {})", strategy + 1)]
    ProfitableDeviation {
        /// 1 (rows) or 2 (columns).
        player: usize,
        /// The better pure strategy (0-based).
        strategy: usize,
        /// How much more it earns.
        gain: f64,
    },
}

/// Checks exactly that `e` is a Nash equilibrium of `game`: two probability
/// vectors of the right lengths, its recorded payoffs, and no pure strategy
/// that earns either player more.
///
/// ```
/// use equilibria::{Bimatrix, Equilibrium, NotEquilibrium, int, verify};
/// let pd = Bimatrix::from_integers(&[vec![-1, -10], vec![0, -5]], &[vec![-1, 0], vec![-10, -5]])?;
/// let deny = Equilibrium::new(&pd, vec![int(1), int(0)], vec![int(1), int(0)]).unwrap();
/// assert!(matches!(verify(&pd, &deny), Err(NotEquilibrium::ProfitableDeviation { player: 1, strategy: 1, .. })));
/// let confess = Equilibrium::new(&pd, vec![int(0), int(1)], vec![int(0), int(1)]).unwrap();
/// assert_eq!(verify(&pd, &confess), Ok(()));
/// # Ok::<(), equilibria::GameError>(())
/// ```
pub fn verify(game: &Bimatrix, e: &Equilibrium) -> Result<(), NotEquilibrium> {
    for (player, v, expected) in [(1, &e.row, game.rows()), (2, &e.col, game.cols())] {
        if v.len() != expected {
            return Err(NotEquilibrium::Length { player, found: v.len(), expected });
        }
        let sum: Rational = v.iter().sum();
        if v.iter().any(Signed::is_negative) || sum != Rational::from_integer(1.into()) {
            return Err(NotEquilibrium::NotDistribution { player });
        }
    }
    let (u, w) = game.payoffs(&e.row, &e.col).ok_or(NotEquilibrium::WrongPayoffs)?;
    if [u.clone(), w.clone()] != e.payoffs {
        return Err(NotEquilibrium::WrongPayoffs);
    }
    for (player, pays, current) in [(1, game.row_payoffs(&e.col), &u), (2, game.col_payoffs(&e.row), &w)] {
        if let Some((strategy, p)) = pays.iter().enumerate().find(|(_, p)| *p > current) {
            let gain = p - current;
            return Err(NotEquilibrium::ProfitableDeviation { player, strategy, gain: to_f64(&gain) });
        }
    }
    Ok(())
}

/// Checks a floating-point profile `(x, y)` of a game given by
/// floating-point matrices `a` and `b` (rows): probability vectors within
/// `tol`, and no pure strategy earning either player more than `tol` above
/// the profile's payoff.
///
/// ```
/// use equilibria::verify::{TOLERANCE, verify_f64};
/// let a = vec![vec![1.0, -1.0], vec![-1.0, 1.0]];
/// let b = vec![vec![-1.0, 1.0], vec![1.0, -1.0]];
/// assert!(verify_f64(&a, &b, &[0.5, 0.5], &[0.5, 0.5], TOLERANCE).is_ok());
/// assert!(verify_f64(&a, &b, &[1.0, 0.0], &[0.5, 0.5], TOLERANCE).is_err());
/// ```
pub fn verify_f64(a: &[Vec<f64>], b: &[Vec<f64>], x: &[f64], y: &[f64], tol: f64) -> Result<(), NotEquilibrium> {
    let (m, n) = (a.len(), a.first().map_or(0, Vec::len));
    for (player, v, expected) in [(1, x, m), (2, y, n)] {
        if v.len() != expected {
            return Err(NotEquilibrium::Length { player, found: v.len(), expected });
        }
        let sum: f64 = v.iter().sum();
        if v.iter().any(|p| !p.is_finite() || *p < -tol) || (sum - 1.0).abs() > tol {
            return Err(NotEquilibrium::NotDistribution { player });
        }
    }
    if b.len() != m || a.iter().chain(b).any(|r| r.len() != n) {
        return Err(NotEquilibrium::WrongPayoffs);
    }
    let row_pays: Vec<f64> = (0..m).map(|i| (0..n).map(|j| a[i][j] * y[j]).sum()).collect();
    let col_pays: Vec<f64> = (0..n).map(|j| (0..m).map(|i| b[i][j] * x[i]).sum()).collect();
    let u: f64 = (0..m).map(|i| x[i] * row_pays[i]).sum();
    let w: f64 = (0..n).map(|j| y[j] * col_pays[j]).sum();
    for (player, pays, current) in [(1, row_pays, u), (2, col_pays, w)] {
        for (strategy, p) in pays.into_iter().enumerate() {
            if p > current + tol || p.is_nan() {
                return Err(NotEquilibrium::ProfitableDeviation { player, strategy, gain: p - current });
            }
        }
    }
    Ok(())
}

/// [`verify_f64`] of an exact equilibrium's floating-point image (its
/// strategies rounded to `f64`, the game's payoffs too) with [`TOLERANCE`].
///
/// ```
/// use equilibria::{Bimatrix, support_enumeration, verify::verify_rounded};
/// let rps = Bimatrix::zero_sum_integers(&[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]])?;
/// let e = &support_enumeration(&rps)?.equilibria[0];
/// assert_eq!(verify_rounded(&rps, e), Ok(()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_rounded(game: &Bimatrix, e: &Equilibrium) -> Result<(), NotEquilibrium> {
    let conv = |m: Vec<Vec<Rational>>| -> Vec<Vec<f64>> { m.iter().map(|r| r.iter().map(to_f64).collect()).collect() };
    let [x, y] = e.strategies_f64();
    // Scale the tolerance with the payoffs' magnitude.
    let big = game.a_rows().iter().chain(&game.b_rows()).flatten().map(|v| to_f64(&v.abs())).fold(1.0, f64::max);
    verify_f64(&conv(game.a_rows()), &conv(game.b_rows()), &x, &y, TOLERANCE * big)
}
