//! Zero-sum (and constant-sum) games by linear programming: the value and an
//! optimal mixed strategy of each player, exactly.
//!
//! The row player's matrix `A` is shifted so that every entry is at least 1
//! (the value rises by the same amount and stays positive). Then the column
//! player's problem is the linear program
//!
//! ```text
//! maximise Σ wⱼ   subject to   A w ≤ 1,   w ≥ 0,
//! ```
//!
//! whose optimum is `1 / value`; `y = w / Σ w` is an optimal strategy of
//! the column player, and the optimal dual solution, scaled the same way,
//! one of the row player. The origin is feasible, so the simplex method
//! starts at once from the slack basis; it runs over exact rationals and
//! chooses its pivots by Bland's rule (the lowest-numbered improving
//! column; among tied rows, the lowest-numbered basic variable), which
//! never cycles.

use num_traits::{One, Signed, Zero};

use crate::SolveError;
use crate::game::{Bimatrix, Rational};

/// The solution of a zero-sum game.
///
/// ```
/// use equilibria::{Bimatrix, frac, int, solve_zero_sum};
/// // Rock, paper, scissors.
/// let rps = Bimatrix::zero_sum_integers(&[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]])?;
/// let s = solve_zero_sum(&rps)?;
/// assert_eq!(s.value, int(0));
/// assert_eq!(s.row, vec![frac(1, 3); 3]);
/// assert_eq!(s.col, vec![frac(1, 3); 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZeroSumSolution {
    /// The value of the game: what the row player can guarantee, and the
    /// column player hold the row player to (in the row player's payoffs).
    pub value: Rational,
    /// An optimal strategy of the row player (the maximiser of `A`).
    pub row: Vec<Rational>,
    /// An optimal strategy of the column player.
    pub col: Vec<Rational>,
    /// The simplex pivots made.
    pub pivots: usize,
}

/// Solves a constant-sum game (`A + B` the same in every cell; see
/// [`Bimatrix::constant_sum`]) by linear programming over `A`.
/// [`SolveError::NotConstantSum`] for any other game.
///
/// ```
/// use equilibria::{Bimatrix, frac, solve_zero_sum};
/// // Player 1 wins 3 on (0,0), 1 on (1,1), loses 1 on a mismatch.
/// let g = Bimatrix::zero_sum_integers(&[vec![3, -1], vec![-1, 1]])?;
/// let s = solve_zero_sum(&g)?;
/// assert_eq!(s.value, frac(1, 3));
/// assert_eq!(s.row, vec![frac(1, 3), frac(2, 3)]);
/// assert_eq!(s.col, vec![frac(1, 3), frac(2, 3)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_zero_sum(game: &Bimatrix) -> Result<ZeroSumSolution, SolveError> {
    if !game.is_constant_sum() {
        return Err(SolveError::NotConstantSum);
    }
    Ok(solve_matrix(&game.a_rows()))
}

/// Solves the zero-sum game in which the row player receives `a[i][j]`
/// (non-empty and rectangular; an empty or ragged matrix is read as far as
/// its first row's length allows, missing entries as 0).
fn solve_matrix(a: &[Vec<Rational>]) -> ZeroSumSolution {
    let m = a.len();
    let n = a.first().map_or(0, Vec::len);
    let min = a.iter().flatten().min().cloned().unwrap_or_else(Rational::zero);
    let shift = Rational::one() - &min;
    // The tableau: m constraint rows over n + m columns (w, then the
    // slacks) and the right-hand side; the objective row z − Σ w = 0.
    let width = n + m + 1;
    let mut t: Vec<Vec<Rational>> = (0..m)
        .map(|i| {
            let mut row = vec![Rational::zero(); width];
            for j in 0..n {
                row[j] = a[i].get(j).cloned().unwrap_or_else(Rational::zero) + &shift;
            }
            row[n + i] = Rational::one();
            row[width - 1] = Rational::one();
            row
        })
        .collect();
    let mut obj = vec![Rational::zero(); width];
    for v in obj.iter_mut().take(n) {
        *v = -Rational::one();
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    let mut pivots = 0;
    // Bland's rule: the lowest-numbered column with a negative reduced cost.
    while let Some(enter) = (0..width - 1).find(|&j| obj[j].is_negative()) {
        // The ratio test, ties to the lowest-numbered basic variable. Every
        // entry of A is positive, so a w column always has a positive entry;
        // a slack column enters only with a negative reduced cost, which the
        // shifted problem never gives it.
        let mut leave: Option<(usize, Rational)> = None;
        for r in 0..m {
            if !t[r][enter].is_positive() {
                continue;
            }
            let ratio = &t[r][width - 1] / &t[r][enter];
            let better = match &leave {
                None => true,
                Some((l, best)) => ratio < *best || (ratio == *best && basis[r] < basis[*l]),
            };
            if better {
                leave = Some((r, ratio));
            }
        }
        let Some((r, _)) = leave else { break };
        pivot(&mut t, &mut obj, r, enter);
        basis[r] = enter;
        pivots += 1;
    }
    let mut w = vec![Rational::zero(); n];
    for (r, &var) in basis.iter().enumerate() {
        if var < n {
            w[var] = t[r][width - 1].clone();
        }
    }
    let u: Vec<Rational> = (0..m).map(|i| obj[n + i].clone()).collect();
    let total = obj[width - 1].clone(); // Σ w = Σ u = 1 / (value + shift)
    let value = if total.is_zero() { min } else { total.recip() - &shift };
    let scale = |v: Vec<Rational>| -> Vec<Rational> {
        if total.is_zero() { v } else { v.into_iter().map(|x| x / &total).collect() }
    };
    ZeroSumSolution { value, row: scale(u), col: scale(w), pivots }
}

/// One pivot on the tableau `t` (and objective row `obj`) at (`r`, `c`).
fn pivot(t: &mut [Vec<Rational>], obj: &mut [Rational], r: usize, c: usize) {
    let p = t[r][c].clone();
    for v in t[r].iter_mut() {
        *v /= &p;
    }
    let pivot_row = t[r].clone();
    let eliminate = |row: &mut [Rational]| {
        let factor = row[c].clone();
        if factor.is_zero() {
            return;
        }
        for (v, pv) in row.iter_mut().zip(&pivot_row) {
            if !pv.is_zero() {
                *v -= &factor * pv;
            }
        }
    };
    for (i, row) in t.iter_mut().enumerate() {
        if i != r {
            eliminate(row);
        }
    }
    eliminate(obj);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{frac, int};

    #[test]
    fn matching_pennies() {
        let g = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]]).unwrap();
        let s = solve_zero_sum(&g).unwrap();
        assert_eq!(s.value, int(0));
        assert_eq!(s.row, vec![frac(1, 2), frac(1, 2)]);
        assert_eq!(s.col, vec![frac(1, 2), frac(1, 2)]);
    }

    #[test]
    fn a_saddle_point_and_a_constant_sum_game() {
        // Row 1 dominates; column 0 is the column player's best reply.
        let g = Bimatrix::from_integers(&[vec![2, 5], vec![3, 4]], &[vec![8, 5], vec![7, 6]]).unwrap();
        let s = solve_zero_sum(&g).unwrap();
        assert_eq!(s.value, int(3));
        assert_eq!(s.row, vec![int(0), int(1)]);
        assert_eq!(s.col, vec![int(1), int(0)]);
        let pd = Bimatrix::from_integers(&[vec![-1, -10], vec![0, -5]], &[vec![-1, 0], vec![-10, -5]]).unwrap();
        assert_eq!(solve_zero_sum(&pd), Err(SolveError::NotConstantSum));
    }

    #[test]
    fn a_rectangular_game() {
        // 2 × 4: the classic example with value 1/2... any exact value works.
        let g = Bimatrix::zero_sum_integers(&[vec![2, -1, 0, 3], vec![-1, 2, 1, -2]]).unwrap();
        let s = solve_zero_sum(&g).unwrap();
        let (u, _) = g.payoffs(&s.row, &s.col).unwrap();
        assert_eq!(u, s.value);
        assert_eq!(s.value, frac(1, 2));
    }
}
