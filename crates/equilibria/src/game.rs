//! Two-player games in normal form (bimatrix games) and their mixed
//! strategy profiles, with exact rational payoffs.

use std::fmt;

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An exact rational number (an arbitrary-precision fraction).
///
/// ```
/// use equilibria::{Rational, frac};
/// assert_eq!(frac(2, 4), Rational::new(1.into(), 2.into()));
/// assert_eq!(frac(2, 4).to_string(), "1/2");
/// ```
pub type Rational = num_rational::BigRational;

/// The fraction `numer / denom`, reduced.
///
/// A convenience for tests and examples.
///
/// # Panics
///
/// If `denom` is zero.
///
/// ```
/// use equilibria::frac;
/// assert_eq!(frac(-6, 4).to_string(), "-3/2");
/// assert_eq!(frac(3, 1).to_string(), "3");
/// ```
pub fn frac(numer: i64, denom: i64) -> Rational {
    Rational::new(BigInt::from(numer), BigInt::from(denom))
}

/// The integer `n` as a [`Rational`].
///
/// ```
/// use equilibria::{int, frac};
/// assert_eq!(int(4), frac(8, 2));
/// ```
pub fn int(n: i64) -> Rational {
    Rational::from_integer(BigInt::from(n))
}

/// The nearest `f64` to a rational (`NaN` never; ±∞ only beyond `f64`'s range).
///
/// ```
/// use equilibria::{frac, to_f64};
/// assert_eq!(to_f64(&frac(1, 4)), 0.25);
/// ```
pub fn to_f64(q: &Rational) -> f64 {
    q.to_f64().unwrap_or_else(|| if q.is_negative() { f64::NEG_INFINITY } else { f64::INFINITY })
}

/// Why payoff matrices do not make a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A player has no strategy.
    #[error("a game needs at least one strategy for each player")]
    Empty,
    /// A row of a matrix has the wrong length.
    #[error("row {row} of the {matrix} matrix has {found} entries, expected {expected}")]
    Ragged {
        /// `"row player's"` or `"column player's"`.
        matrix: &'static str,
        /// The row (0-based).
        row: usize,
        /// Its length.
        found: usize,
        /// The length of the first row.
        expected: usize,
    },
    /// The two matrices have different numbers of rows.
    #[error("the payoff matrices have {a} and {b} rows")]
    Shape {
        /// Rows of the row player's matrix.
        a: usize,
        /// Rows of the column player's matrix.
        b: usize,
    },
}

/// A two-player game in normal form: the row player picks a row `i`, the
/// column player a column `j`, and they receive `A[i][j]` and `B[i][j]`.
///
/// ```
/// use equilibria::Bimatrix;
/// // The prisoners' dilemma: strategies (deny, confess).
/// let pd = Bimatrix::from_integers(&[vec![-1, -10], vec![0, -5]], &[vec![-1, 0], vec![-10, -5]])?;
/// assert_eq!((pd.rows(), pd.cols()), (2, 2));
/// assert!(!pd.is_constant_sum());
/// # Ok::<(), equilibria::GameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bimatrix {
    rows: usize,
    cols: usize,
    a: Vec<Rational>,
    b: Vec<Rational>,
}

/// Checks that `m` is a non-empty rectangular matrix; returns its width.
fn width(m: &[Vec<Rational>], matrix: &'static str) -> Result<usize, GameError> {
    let expected = m.first().map_or(0, Vec::len);
    if expected == 0 {
        return Err(GameError::Empty);
    }
    for (row, r) in m.iter().enumerate() {
        if r.len() != expected {
            return Err(GameError::Ragged { matrix, row, found: r.len(), expected });
        }
    }
    Ok(expected)
}

impl Bimatrix {
    /// The game with payoff matrices `a` (row player) and `b` (column
    /// player), given as rows.
    ///
    /// ```
    /// use equilibria::{Bimatrix, int};
    /// let g = Bimatrix::new(vec![vec![int(1), int(0)]], vec![vec![int(0), int(1)]])?;
    /// assert_eq!(g.b(0, 1), &int(1));
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn new(a: Vec<Vec<Rational>>, b: Vec<Vec<Rational>>) -> Result<Self, GameError> {
        let cols = width(&a, "row player's")?;
        let cols_b = width(&b, "column player's")?;
        if a.len() != b.len() {
            return Err(GameError::Shape { a: a.len(), b: b.len() });
        }
        if cols_b != cols {
            return Err(GameError::Ragged { matrix: "column player's", row: 0, found: cols_b, expected: cols });
        }
        let rows = a.len();
        Ok(Self { rows, cols, a: a.into_iter().flatten().collect(), b: b.into_iter().flatten().collect() })
    }

    /// The game with integer payoff matrices.
    ///
    /// ```
    /// use equilibria::Bimatrix;
    /// let g = Bimatrix::from_integers(&[vec![3, 0], vec![0, 2]], &[vec![2, 0], vec![0, 3]])?;
    /// assert_eq!(g.rows(), 2);
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn from_integers(a: &[Vec<i64>], b: &[Vec<i64>]) -> Result<Self, GameError> {
        let conv = |m: &[Vec<i64>]| m.iter().map(|r| r.iter().map(|&v| int(v)).collect()).collect();
        Self::new(conv(a), conv(b))
    }

    /// The zero-sum game in which the row player receives `a[i][j]` and the
    /// column player its negation.
    ///
    /// ```
    /// use equilibria::{Bimatrix, int};
    /// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
    /// assert_eq!(pennies.b(0, 0), &int(-1));
    /// assert_eq!(pennies.constant_sum(), Some(int(0)));
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn zero_sum(a: Vec<Vec<Rational>>) -> Result<Self, GameError> {
        let b = a.iter().map(|r| r.iter().map(|v| -v).collect()).collect();
        Self::new(a, b)
    }

    /// [`Bimatrix::zero_sum`] with integer payoffs.
    ///
    /// ```
    /// use equilibria::Bimatrix;
    /// let rps = Bimatrix::zero_sum_integers(&[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]])?;
    /// assert!(rps.is_constant_sum());
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn zero_sum_integers(a: &[Vec<i64>]) -> Result<Self, GameError> {
        Self::zero_sum(a.iter().map(|r| r.iter().map(|&v| int(v)).collect()).collect())
    }

    /// The row player's number of strategies.
    ///
    /// ```
    /// # use equilibria::Bimatrix;
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, 2, 3]])?;
    /// assert_eq!(g.rows(), 1);
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The column player's number of strategies.
    ///
    /// ```
    /// # use equilibria::Bimatrix;
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, 2, 3]])?;
    /// assert_eq!(g.cols(), 3);
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The row player's payoff when row `i` meets column `j`.
    ///
    /// # Panics
    ///
    /// If `i` or `j` is out of range.
    ///
    /// ```
    /// # use equilibria::{Bimatrix, int};
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, 2, 3]])?;
    /// assert_eq!(g.a(0, 2), &int(3));
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn a(&self, i: usize, j: usize) -> &Rational {
        assert!(i < self.rows && j < self.cols, "strategy ({i}, {j}) out of range");
        &self.a[i * self.cols + j]
    }

    /// The column player's payoff when row `i` meets column `j`.
    ///
    /// # Panics
    ///
    /// If `i` or `j` is out of range.
    ///
    /// ```
    /// # use equilibria::{Bimatrix, int};
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, 2, 3]])?;
    /// assert_eq!(g.b(0, 2), &int(-3));
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn b(&self, i: usize, j: usize) -> &Rational {
        assert!(i < self.rows && j < self.cols, "strategy ({i}, {j}) out of range");
        &self.b[i * self.cols + j]
    }

    /// `Some(c)` if `A[i][j] + B[i][j] = c` for every cell: a constant-sum
    /// game, strategically the zero-sum game `A` (solved by linear
    /// programming).
    ///
    /// ```
    /// use equilibria::{Bimatrix, int};
    /// let g = Bimatrix::from_integers(&[vec![3, 1]], &[vec![2, 4]])?;
    /// assert_eq!(g.constant_sum(), Some(int(5)));
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn constant_sum(&self) -> Option<Rational> {
        let c = &self.a[0] + &self.b[0];
        self.a.iter().zip(&self.b).all(|(a, b)| a + b == c).then_some(c)
    }

    /// Whether the game is constant-sum (zero-sum up to a constant).
    ///
    /// ```
    /// # use equilibria::Bimatrix;
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
    /// assert!(g.is_constant_sum());
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn is_constant_sum(&self) -> bool {
        self.constant_sum().is_some()
    }

    /// The row player's matrix as rows.
    ///
    /// ```
    /// # use equilibria::{Bimatrix, int};
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, 2]])?;
    /// assert_eq!(g.a_rows(), vec![vec![int(1), int(2)]]);
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn a_rows(&self) -> Vec<Vec<Rational>> {
        self.a.chunks(self.cols).map(<[Rational]>::to_vec).collect()
    }

    /// The column player's matrix as rows.
    ///
    /// ```
    /// # use equilibria::{Bimatrix, int};
    /// let g = Bimatrix::zero_sum_integers(&[vec![1, 2]])?;
    /// assert_eq!(g.b_rows(), vec![vec![int(-1), int(-2)]]);
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn b_rows(&self) -> Vec<Vec<Rational>> {
        self.b.chunks(self.cols).map(<[Rational]>::to_vec).collect()
    }

    /// The expected payoffs `(xᵀAy, xᵀBy)` of the mixed strategies `x`
    /// (rows) and `y` (columns); `None` if a length is wrong.
    ///
    /// ```
    /// use equilibria::{Bimatrix, frac, int};
    /// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
    /// let half = vec![frac(1, 2), frac(1, 2)];
    /// assert_eq!(pennies.payoffs(&half, &[int(1), int(0)]), Some((int(0), int(0))));
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn payoffs(&self, x: &[Rational], y: &[Rational]) -> Option<(Rational, Rational)> {
        if x.len() != self.rows || y.len() != self.cols {
            return None;
        }
        let (mut u, mut v) = (Rational::zero(), Rational::zero());
        for (i, xi) in x.iter().enumerate() {
            if xi.is_zero() {
                continue;
            }
            for (j, yj) in y.iter().enumerate() {
                if yj.is_zero() {
                    continue;
                }
                let p = xi * yj;
                u += &p * &self.a[i * self.cols + j];
                v += p * &self.b[i * self.cols + j];
            }
        }
        Some((u, v))
    }

    /// The row player's payoff of each pure strategy against `y`: `Ay`.
    pub(crate) fn row_payoffs(&self, y: &[Rational]) -> Vec<Rational> {
        (0..self.rows).map(|i| (0..self.cols).map(|j| &self.a[i * self.cols + j] * &y[j]).sum()).collect()
    }

    /// The column player's payoff of each pure strategy against `x`: `xᵀB`.
    pub(crate) fn col_payoffs(&self, x: &[Rational]) -> Vec<Rational> {
        (0..self.cols).map(|j| (0..self.rows).map(|i| &self.b[i * self.cols + j] * &x[i]).sum()).collect()
    }

    /// The game with both matrices shifted to be positive (every entry at
    /// least 1): the same best responses and equilibria.
    pub(crate) fn positive(&self) -> (Vec<Vec<Rational>>, Vec<Vec<Rational>>) {
        let shift = |m: &[Rational]| {
            let min = m.iter().min().cloned().unwrap_or_else(Rational::zero);
            let d = Rational::one() - min;
            m.chunks(self.cols).map(|r| r.iter().map(|v| v + &d).collect()).collect()
        };
        (shift(&self.a), shift(&self.b))
    }
}

/// A mixed strategy profile of a bimatrix game with its payoffs: a Nash
/// equilibrium when returned by this crate's solvers.
///
/// ```
/// use equilibria::{Bimatrix, frac, support_enumeration};
/// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
/// let eq = &support_enumeration(&pennies)?.equilibria[0];
/// assert_eq!(eq.row, vec![frac(1, 2), frac(1, 2)]);
/// assert_eq!(eq.to_string(), "(1/2, 1/2), (1/2, 1/2); payoffs 0, 0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Equilibrium {
    /// The row player's probabilities, in strategy order.
    pub row: Vec<Rational>,
    /// The column player's probabilities, in strategy order.
    pub col: Vec<Rational>,
    /// The expected payoffs of the row and the column player.
    pub payoffs: [Rational; 2],
}

impl Equilibrium {
    /// The profile `(x, y)` of `game` with its payoffs; `None` if a length
    /// is wrong.
    ///
    /// ```
    /// use equilibria::{Bimatrix, Equilibrium, int};
    /// let g = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]])?;
    /// let e = Equilibrium::new(&g, vec![int(1), int(0)], vec![int(1), int(0)]).unwrap();
    /// assert_eq!(e.payoffs, [int(2), int(1)]);
    /// # Ok::<(), equilibria::GameError>(())
    /// ```
    pub fn new(game: &Bimatrix, row: Vec<Rational>, col: Vec<Rational>) -> Option<Self> {
        let (u, v) = game.payoffs(&row, &col)?;
        Some(Self { row, col, payoffs: [u, v] })
    }

    /// The strategies as floating-point numbers (row player's, column player's).
    ///
    /// ```
    /// # use equilibria::{Bimatrix, support_enumeration};
    /// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
    /// let eq = &support_enumeration(&pennies)?.equilibria[0];
    /// assert_eq!(eq.strategies_f64(), [vec![0.5, 0.5], vec![0.5, 0.5]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn strategies_f64(&self) -> [Vec<f64>; 2] {
        [self.row.iter().map(to_f64).collect(), self.col.iter().map(to_f64).collect()]
    }

    /// The payoffs as floating-point numbers.
    ///
    /// ```
    /// # use equilibria::{Bimatrix, support_enumeration};
    /// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
    /// assert_eq!(support_enumeration(&pennies)?.equilibria[0].payoffs_f64(), [0.0, 0.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn payoffs_f64(&self) -> [f64; 2] {
        [to_f64(&self.payoffs[0]), to_f64(&self.payoffs[1])]
    }

    /// The sizes of the two supports (strategies played with positive probability).
    ///
    /// ```
    /// # use equilibria::{Bimatrix, support_enumeration};
    /// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
    /// assert_eq!(support_enumeration(&pennies)?.equilibria[0].support_sizes(), [2, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn support_sizes(&self) -> [usize; 2] {
        let count = |v: &[Rational]| v.iter().filter(|p| !p.is_zero()).count();
        [count(&self.row), count(&self.col)]
    }
}

/// Writes `(x₁, x₂, …), (y₁, …); payoffs u, v` with exact fractions.
impl fmt::Display for Equilibrium {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[Rational]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        write!(f, "({}), ({}); payoffs {}, {}", list(&self.row), list(&self.col), self.payoffs[0], self.payoffs[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_checked() {
        assert_eq!(Bimatrix::from_integers(&[], &[]), Err(GameError::Empty));
        assert_eq!(Bimatrix::from_integers(&[vec![]], &[vec![]]), Err(GameError::Empty));
        assert!(matches!(
            Bimatrix::from_integers(&[vec![1, 2], vec![1]], &[vec![1, 2], vec![1, 2]]),
            Err(GameError::Ragged { row: 1, .. })
        ));
        assert!(matches!(
            Bimatrix::from_integers(&[vec![1, 2]], &[vec![1, 2], vec![1, 2]]),
            Err(GameError::Shape { a: 1, b: 2 })
        ));
        assert!(Bimatrix::from_integers(&[vec![1, 2]], &[vec![1]]).is_err());
    }

    #[test]
    fn the_positive_shift_keeps_differences() {
        let g = Bimatrix::from_integers(&[vec![-3, 2]], &[vec![5, 7]]).unwrap();
        let (a, b) = g.positive();
        assert_eq!(a, vec![vec![int(1), int(6)]]);
        assert_eq!(b, vec![vec![int(1), int(3)]]);
    }
}
