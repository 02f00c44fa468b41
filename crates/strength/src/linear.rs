//! Small dense linear algebra for the fits: Cholesky factorisation of a
//! symmetric positive definite matrix, solving with it, and its inverse.
//! Matrices are `n × n`, row-major, in a slice.

/// The Cholesky factor `L` (row-major, lower) of the symmetric positive
/// definite `n × n` matrix `a` (row-major), or `None` if it is not positive
/// definite.
pub fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if s.is_nan() || s <= 0.0 || s.is_infinite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// The solution of `L Lᵀ x = b` for a Cholesky factor `l` ([`cholesky`]).
pub fn solve_factored(l: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut y = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            y[i] -= l[i * n + k] * y[k];
        }
        y[i] /= l[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            y[i] -= l[k * n + i] * y[k];
        }
        y[i] /= l[i * n + i];
    }
    y
}

/// The solution of `a x = b` for a symmetric positive definite `n × n`
/// matrix `a` (row-major), or `None` if `a` is not positive definite.
///
/// ```
/// let x = strength::linear::solve_spd(&[4.0, 2.0, 2.0, 3.0], &[2.0, 1.0], 2).unwrap();
/// assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
/// assert!(strength::linear::solve_spd(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0], 2).is_none());
/// ```
pub fn solve_spd(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    cholesky(a, n).map(|l| solve_factored(&l, b, n))
}

/// The inverse of a symmetric positive definite `n × n` matrix `a`
/// (row-major), or `None` if it is not positive definite.
pub fn invert_spd(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let l = cholesky(a, n)?;
    let mut inv = vec![0.0; n * n];
    let mut e = vec![0.0; n];
    for j in 0..n {
        e.fill(0.0);
        e[j] = 1.0;
        let col = solve_factored(&l, &e, n);
        for i in 0..n {
            inv[i * n + j] = col[i];
        }
    }
    Some(inv)
}
