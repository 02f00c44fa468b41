//! Exact linear algebra over the rationals.

use num_traits::Zero;

use crate::Rational;

/// The unique solution `x` of `m x = rhs` (`m` square, given as rows), or
/// `None` if `m` is singular. Gaussian elimination with exact arithmetic
/// (the first nonzero pivot of each column).
pub(crate) fn solve(mut m: Vec<Vec<Rational>>, mut rhs: Vec<Rational>) -> Option<Vec<Rational>> {
    let n = m.len();
    for col in 0..n {
        let pivot = (col..n).find(|&r| !m[r][col].is_zero())?;
        m.swap(col, pivot);
        rhs.swap(col, pivot);
        let p = m[col][col].clone();
        for c in col..n {
            m[col][c] /= &p;
        }
        rhs[col] /= &p;
        for r in 0..n {
            if r == col || m[r][col].is_zero() {
                continue;
            }
            let factor = m[r][col].clone();
            for c in col..n {
                let delta = &factor * &m[col][c];
                m[r][c] -= delta;
            }
            let delta = &factor * &rhs[col];
            rhs[r] -= delta;
        }
    }
    Some(rhs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{frac, int};

    #[test]
    fn solves_and_detects_singular_systems() {
        // x + y = 3, x - y = 1.
        let m = vec![vec![int(1), int(1)], vec![int(1), int(-1)]];
        assert_eq!(solve(m, vec![int(3), int(1)]), Some(vec![int(2), int(1)]));
        // A zero in the first pivot position.
        let m = vec![vec![int(0), int(2)], vec![int(3), int(0)]];
        assert_eq!(solve(m, vec![int(1), int(1)]), Some(vec![frac(1, 3), frac(1, 2)]));
        let singular = vec![vec![int(1), int(2)], vec![int(2), int(4)]];
        assert_eq!(solve(singular, vec![int(1), int(2)]), None);
    }
}
