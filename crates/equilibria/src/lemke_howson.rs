//! The Lemke–Howson algorithm: one equilibrium of a bimatrix game by
//! complementary pivoting, exactly.
//!
//! With both payoff matrices shifted positive, the row player's polytope is
//! `P = {x ≥ 0 : Bᵀx ≤ 1}` and the column player's `Q = {y ≥ 0 : Ay ≤ 1}`.
//! Every strategy is a *label*: `0 … m−1` the row player's, `m … m+n−1` the
//! column player's. A point of `P` has label `i` if `xᵢ = 0` and label
//! `m + j` if column `j` is a best response (`(Bᵀx)ⱼ = 1`); a point of `Q`
//! likewise. A pair of points with every label between them is an
//! equilibrium (after scaling each to sum 1), and `(0, 0)` is the one
//! artificial such pair.
//!
//! Starting there, the algorithm gives up ("drops") one label `k`: the
//! variable with label `k` enters the basis of its tableau, and the
//! variable that leaves has some label `l`, now carried twice; its partner
//! with label `l` in the other tableau enters next, and so on, until the
//! variable that leaves carries `k`: the pair is completely labelled
//! again, at an equilibrium. The ratio test breaks ties lexicographically
//! (by the rows of the inverse basis, read from the slack columns), which
//! keeps the path well defined on degenerate games too; a tie in the plain
//! ratio is reported as a degeneracy. A pivot limit guards the rest.

use num_traits::{One, Signed, Zero};

use crate::SolveError;
use crate::game::{Bimatrix, Equilibrium, Rational};

/// The default pivot limit of [`lemke_howson`].
pub const PIVOT_LIMIT: usize = 100_000;

/// The equilibrium found from one dropped label.
///
/// ```
/// use equilibria::{Bimatrix, frac, int, lemke_howson};
/// // Battle of the sexes: dropping label 0 leads to the equilibrium where both go to the opera.
/// let bos = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]])?;
/// let lh = lemke_howson(&bos, 0)?;
/// assert_eq!(lh.equilibrium.row, vec![int(1), int(0)]);
/// assert_eq!(lh.equilibrium.col, vec![int(1), int(0)]);
/// assert!(!lh.degenerate);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LemkeHowson {
    /// The equilibrium at the end of the path.
    pub equilibrium: Equilibrium,
    /// The label dropped at the start.
    pub label: usize,
    /// The pivots made.
    pub pivots: usize,
    /// Whether a tie in a ratio test showed the game degenerate.
    pub degenerate: bool,
}

/// One tableau: `rows` equations `Σ M[r][c]·v_c = rhs_r` over the local
/// variables; the initial basis is the slack columns `first_slack..`.
#[derive(Debug)]
struct Tableau {
    rows: Vec<Vec<Rational>>,
    /// The basic variable of each row (local column index).
    basis: Vec<usize>,
    first_slack: usize,
}

impl Tableau {
    /// `M z + s = 1`, `z` the columns of `m`, `s` the slacks.
    fn new(m: &[Vec<Rational>]) -> Self {
        let (r, c) = (m.len(), m.first().map_or(0, Vec::len));
        let rows = m
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let mut v = row.clone();
                v.resize(c + r + 1, Rational::zero());
                v[c + i] = Rational::one();
                v[c + r] = Rational::one();
                v
            })
            .collect();
        Self { rows, basis: (c..c + r).collect(), first_slack: c }
    }

    /// Pivots `enter` into the basis; returns the local variable that
    /// leaves and whether the plain ratio test was tied; `None` if no row
    /// limits `enter` (impossible on the bounded polytopes).
    fn pivot(&mut self, enter: usize) -> Option<(usize, bool)> {
        let rhs = self.rows.first().map_or(0, |r| r.len() - 1);
        let slacks = self.first_slack..rhs;
        let mut best: Option<usize> = None;
        for r in 0..self.rows.len() {
            if !self.rows[r][enter].is_positive() {
                continue;
            }
            let Some(b) = best else {
                best = Some(r);
                continue;
            };
            // Compare (rhs, inverse-basis row) / coefficient lexicographically.
            let (pr, pb) = (&self.rows[r][enter], &self.rows[b][enter]);
            let key = |row: usize, col: usize, p: &Rational| &self.rows[row][col] / p;
            let order = std::iter::once(rhs)
                .chain(slacks.clone())
                .map(|c| key(r, c, pr).cmp(&key(b, c, pb)))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal);
            if order.is_lt() {
                best = Some(r);
            }
        }
        let r = best?;
        // A tie in the plain ratio test: the game is degenerate.
        let ratio = |row: usize| &self.rows[row][rhs] / &self.rows[row][enter];
        let min = ratio(r);
        let tie = (0..self.rows.len()).any(|o| o != r && self.rows[o][enter].is_positive() && ratio(o) == min);
        let p = self.rows[r][enter].clone();
        for v in self.rows[r].iter_mut() {
            *v /= &p;
        }
        let pivot_row = self.rows[r].clone();
        for (i, row) in self.rows.iter_mut().enumerate() {
            let factor = row[enter].clone();
            if i == r || factor.is_zero() {
                continue;
            }
            for (v, pv) in row.iter_mut().zip(&pivot_row) {
                if !pv.is_zero() {
                    *v -= &factor * pv;
                }
            }
        }
        let leaving = std::mem::replace(&mut self.basis[r], enter);
        Some((leaving, tie))
    }

    /// The values of the first `count` local variables.
    fn values(&self, count: usize) -> Vec<Rational> {
        let mut out = vec![Rational::zero(); count];
        for (row, &var) in self.rows.iter().zip(&self.basis) {
            if var < count {
                out[var] = row[row.len() - 1].clone();
            }
        }
        out
    }
}

/// One equilibrium of `game` by Lemke–Howson from the dropped `label`
/// (`0..m` a row strategy, `m..m+n` a column strategy), with
/// [`PIVOT_LIMIT`] pivots at most.
///
/// ```
/// use equilibria::{Bimatrix, frac, lemke_howson};
/// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
/// for label in 0..4 {
///     let lh = lemke_howson(&pennies, label)?;
///     assert_eq!(lh.equilibrium.row, vec![frac(1, 2), frac(1, 2)]);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lemke_howson(game: &Bimatrix, label: usize) -> Result<LemkeHowson, SolveError> {
    lemke_howson_with_limit(game, label, PIVOT_LIMIT)
}

/// [`lemke_howson`] with a pivot limit ([`SolveError::PivotLimit`] when
/// reached).
///
/// ```
/// use equilibria::{Bimatrix, SolveError, lemke_howson::lemke_howson_with_limit};
/// let rps = Bimatrix::zero_sum_integers(&[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]])?;
/// assert!(matches!(lemke_howson_with_limit(&rps, 0, 1), Err(SolveError::PivotLimit { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lemke_howson_with_limit(game: &Bimatrix, label: usize, max_pivots: usize) -> Result<LemkeHowson, SolveError> {
    let (m, n) = (game.rows(), game.cols());
    if label >= m + n {
        return Err(SolveError::LabelOutOfRange { label, labels: m + n });
    }
    let (a, b) = game.positive();
    // Tableau 1 (the column player's polytope): A y + r = 1; locals y_j = j, r_i = n + i.
    // Tableau 2 (the row player's): Bᵀ x + s = 1; locals x_i = i, s_j = m + j.
    let b_t: Vec<Vec<Rational>> = (0..n).map(|j| (0..m).map(|i| b[i][j].clone()).collect()).collect();
    let mut tab = [Tableau::new(&a), Tableau::new(&b_t)];
    // The label of a local variable of each tableau.
    let label_of = |t: usize, v: usize| match t {
        0 if v < n => m + v,
        0 => v - n,
        _ if v < m => v,
        _ => m + (v - m),
    };
    // The variable with label `l` in tableau `t`.
    let var_of = |t: usize, l: usize| match t {
        0 if l >= m => l - m,
        0 => n + l,
        _ if l < m => l,
        _ => m + (l - m),
    };
    // The dropped label's own variable: x_k (tableau 2) or y_k (tableau 1).
    let (mut t, mut enter) = if label < m { (1, var_of(1, label)) } else { (0, var_of(0, label)) };
    let mut pivots = 0;
    let mut degenerate = false;
    loop {
        if pivots >= max_pivots {
            return Err(SolveError::PivotLimit { label, pivots });
        }
        let (leaving, tie) = tab[t].pivot(enter).ok_or(SolveError::Unbounded)?;
        pivots += 1;
        degenerate |= tie;
        let l = label_of(t, leaving);
        if l == label {
            break;
        }
        t = 1 - t;
        enter = var_of(t, l);
    }
    let normalise = |v: Vec<Rational>| -> Vec<Rational> {
        let sum: Rational = v.iter().sum();
        v.into_iter().map(|x| x / &sum).collect()
    };
    let row = normalise(tab[1].values(m));
    let col = normalise(tab[0].values(n));
    let equilibrium = Equilibrium::new(game, row, col).ok_or(SolveError::Unbounded)?;
    Ok(LemkeHowson { equilibrium, label, pivots, degenerate })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{frac, int, verify};

    #[test]
    fn every_label_of_battle_of_the_sexes() {
        let bos = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]]).unwrap();
        for label in 0..4 {
            let lh = lemke_howson(&bos, label).unwrap();
            verify(&bos, &lh.equilibrium).unwrap();
        }
        assert_eq!(lemke_howson(&bos, 1).unwrap().equilibrium.row, vec![int(0), int(1)]);
        assert!(matches!(lemke_howson(&bos, 4), Err(SolveError::LabelOutOfRange { label: 4, labels: 4 })));
    }

    #[test]
    fn a_degenerate_game_ends_with_a_report() {
        // Every payoff equal: everything is an equilibrium; ties everywhere.
        let g = Bimatrix::from_integers(&[vec![1, 1], vec![1, 1]], &[vec![1, 1], vec![1, 1]]).unwrap();
        for label in 0..4 {
            let lh = lemke_howson(&g, label).unwrap();
            verify(&g, &lh.equilibrium).unwrap();
            assert!(lh.degenerate);
        }
        let rps = Bimatrix::zero_sum_integers(&[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]]).unwrap();
        let lh = lemke_howson(&rps, 2).unwrap();
        assert_eq!(lh.equilibrium.col, vec![frac(1, 3); 3]);
    }
}
