//! Support enumeration: every equilibrium of a nondegenerate game (and every
//! extreme equilibrium of a degenerate one), exactly.
//!
//! For each player and each pair (`I`, `T`) of equal size, `I` a set of the
//! player's own strategies (the candidate support) and `T` a set of the
//! opponent's strategies (the candidate best responses), the indifference
//! system "every strategy of `T` earns the opponent the same payoff against
//! a mix over `I`" is solved exactly. Written in the normalised form of the
//! best-response polytope (payoffs shifted positive, the common payoff
//! scaled to 1), a solution with nonnegative weights under which no strategy
//! outside `T` earns more is a vertex of that polytope; its *labels* are the
//! strategies it leaves unplayed and the opponent's best responses.
//! A vertex of each player whose labels together cover every strategy of
//! both players is an equilibrium. A vertex with more labels than the
//! player has strategies (a mix of `k` strategies with more than `k` best
//! responses) is a degeneracy, and is reported.

use std::collections::HashSet;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::game::{Bimatrix, Equilibrium, Rational};
use crate::{SolveError, linalg};

/// The default cap on the candidate supports per player that
/// [`support_enumeration`] will try: `C(m + n, m) − 1` for an `m × n`
/// game, 184,755 for 10 × 10 (about 2 s), 705,431 for 11 × 11.
pub const SUPPORT_LIMIT: u128 = 1_000_000;

/// What support enumeration found.
///
/// ```
/// use equilibria::{Bimatrix, support_enumeration};
/// // Battle of the sexes: two pure equilibria and a mixed one.
/// let bos = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]])?;
/// let found = support_enumeration(&bos)?;
/// assert_eq!(found.equilibria.len(), 3);
/// assert!(!found.degenerate);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enumeration {
    /// The equilibria: pure ones first (fewer strategies in the supports
    /// first), then by decreasing probabilities in strategy order.
    pub equilibria: Vec<Equilibrium>,
    /// Whether the game is degenerate: some mixed strategy over `k` pure
    /// strategies has more than `k` pure best responses. Then the list
    /// holds the extreme equilibria (the vertices of the sets of
    /// equilibria), and a component may hold infinitely many more.
    pub degenerate: bool,
    /// The candidate supports tried, both players together.
    pub supports_tried: u64,
}

/// A vertex of one player's best-response polytope.
#[derive(Debug)]
struct Vertex {
    /// The (unnormalised) weights on the player's own strategies.
    point: Vec<Rational>,
    /// The labels, as a bitset over all `m + n` strategies.
    labels: Vec<u64>,
}

/// `C(n, k)`, saturating.
fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c = C(n, i), so c·(n − i) is divisible by i + 1.
        match c.checked_mul((n - i) as u128) {
            Some(p) => c = p / (i as u128 + 1),
            None => return u128::MAX,
        }
    }
    c
}

/// The number of candidate supports per player of an `m × n` game.
///
/// ```
/// assert_eq!(equilibria::support::candidate_supports(2, 2), 5);
/// assert_eq!(equilibria::support::candidate_supports(10, 10), 184_755);
/// ```
pub fn candidate_supports(rows: usize, cols: usize) -> u128 {
    binomial(rows + cols, rows).saturating_sub(1)
}

/// Calls `f` with every `k`-subset of `0..n`, in lexicographic order.
fn for_each_subset(n: usize, k: usize, mut f: impl FnMut(&[usize])) {
    if k == 0 || k > n {
        return;
    }
    let mut s: Vec<usize> = (0..k).collect();
    loop {
        f(&s);
        let Some(i) = (0..k).rev().find(|&i| s[i] < n - k + i) else { return };
        s[i] += 1;
        for t in i + 1..k {
            s[t] = s[t - 1] + 1;
        }
    }
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// The outcome of a candidate support in integer arithmetic.
enum Candidate {
    /// The system is singular, a weight is negative or an opponent's
    /// strategy earns more than 1: not a vertex.
    Rejected,
    /// A vertex: the weights `y / d` on the support.
    Vertex(Vec<i128>, i128),
}

/// Solves `a z = 1` (`a` square, integer) by fraction-free (Bareiss)
/// elimination: `Some((y, d))` with `z = y / d`, or `None` if `a` is
/// singular. `Err(())` if an intermediate value overflows `i128`.
fn solve_integer(mut a: Vec<Vec<i128>>) -> Result<Option<(Vec<i128>, i128)>, ()> {
    let n = a.len();
    for row in a.iter_mut() {
        row.push(1);
    }
    let mut prev: i128 = 1;
    for k in 0..n {
        let Some(p) = (k..n).find(|&r| a[r][k] != 0) else { return Ok(None) };
        a.swap(k, p);
        for i in k + 1..n {
            for j in k + 1..=n {
                let v = a[i][j].checked_mul(a[k][k]).ok_or(())?;
                let w = a[i][k].checked_mul(a[k][j]).ok_or(())?;
                // Exact: Bareiss's intermediate values are minors of `a`.
                a[i][j] = v.checked_sub(w).ok_or(())? / prev;
            }
            a[i][k] = 0;
        }
        prev = a[k][k];
    }
    // `d` is ± the determinant; `y = d·z` is integral (Cramer's rule).
    let d = a[n - 1][n - 1];
    let mut y = vec![0i128; n];
    for i in (0..n).rev() {
        let mut s = d.checked_mul(a[i][n]).ok_or(())?;
        for j in i + 1..n {
            s = s.checked_sub(a[i][j].checked_mul(y[j]).ok_or(())?).ok_or(())?;
        }
        y[i] = s / a[i][i];
    }
    Ok(Some((y, d)))
}

/// The candidate (`support`, `tight`) in integer arithmetic; `Err(())` on
/// overflow (then the caller redoes it with rationals).
fn candidate_integer(m: &[Vec<i128>], support: &[usize], tight: &[usize]) -> Result<Candidate, ()> {
    let system = tight.iter().map(|&t| support.iter().map(|&i| m[i][t]).collect()).collect();
    let Some((y, d)) = solve_integer(system)? else { return Ok(Candidate::Rejected) };
    let sign = d.signum();
    if y.iter().any(|&v| v.signum() * sign < 0) {
        return Ok(Candidate::Rejected);
    }
    let opp = m.first().map_or(0, Vec::len);
    for j in 0..opp {
        let mut pay: i128 = 0;
        for (&i, &w) in support.iter().zip(&y) {
            pay = pay.checked_add(m[i][j].checked_mul(w).ok_or(())?).ok_or(())?;
        }
        if pay.checked_mul(sign).ok_or(())? > d.checked_abs().ok_or(())? {
            return Ok(Candidate::Rejected);
        }
    }
    Ok(Candidate::Vertex(y, d))
}

/// The weights of the candidate (`support`, `tight`) in rational arithmetic,
/// if it is a vertex.
fn candidate_rational(m: &[Vec<Rational>], support: &[usize], tight: &[usize]) -> Option<Vec<Rational>> {
    let one = Rational::one();
    let system = tight.iter().map(|&t| support.iter().map(|&i| m[i][t].clone()).collect()).collect();
    let weights = linalg::solve(system, vec![one.clone(); support.len()])?;
    if weights.iter().any(Signed::is_negative) {
        return None;
    }
    let opp = m.first().map_or(0, Vec::len);
    for j in 0..opp {
        let pay: Rational = support.iter().zip(&weights).map(|(&i, w)| &m[i][j] * w).sum();
        if pay > one {
            return None;
        }
    }
    Some(weights)
}

/// `m` scaled by the least common multiple of its denominators: an
/// integer matrix defining a scaled copy of the same polytope (the same
/// vertices up to a common factor, so the same strategies and labels).
fn integral(m: &[Vec<Rational>]) -> Vec<Vec<Rational>> {
    let lcm = m.iter().flatten().fold(BigInt::one(), |l, v| l.lcm(v.denom()));
    let scale = Rational::from_integer(lcm);
    m.iter().map(|r| r.iter().map(|v| v * &scale).collect()).collect()
}

/// The vertices (other than the origin) of `{x ≥ 0 : Σᵢ m[i][j] xᵢ ≤ 1 for all j}`,
/// where `m` has `own` rows (the player's strategies, labels `own_label(i)`)
/// and `opp` columns (the opponent's, labels `opp_label(j)`); and whether
/// one has more than `own` labels. Each candidate is tried in `i128`
/// arithmetic first (fraction-free), and with rationals if that overflows.
fn vertices(
    m: &[Vec<Rational>],
    labels: usize,
    own_label: impl Fn(usize) -> usize,
    opp_label: impl Fn(usize) -> usize,
    tried: &mut u64,
) -> (Vec<Vertex>, bool) {
    let m = integral(m);
    let limit = BigInt::from(1i64 << 62);
    let small: Option<Vec<Vec<i128>>> = m
        .iter()
        .map(|r| r.iter().map(|v| (v.numer().abs() < limit).then(|| v.numer().to_i128()).flatten()).collect())
        .collect();
    let own = m.len();
    let opp = m.first().map_or(0, Vec::len);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut degenerate = false;
    let one = Rational::one();
    for k in 1..=own.min(opp) {
        for_each_subset(own, k, |support| {
            for_each_subset(opp, k, |tight| {
                *tried += 1;
                let fast = small.as_deref().map(|s| candidate_integer(s, support, tight));
                let weights = match fast {
                    Some(Ok(Candidate::Rejected)) => return,
                    Some(Ok(Candidate::Vertex(y, d))) => {
                        y.into_iter().map(|v| Rational::new(BigInt::from(v), BigInt::from(d))).collect()
                    }
                    Some(Err(())) | None => match candidate_rational(&m, support, tight) {
                        Some(w) => w,
                        None => return,
                    },
                };
                let mut point = vec![Rational::zero(); own];
                for (&i, w) in support.iter().zip(weights) {
                    point[i] = w;
                }
                let mut bits = vec![0u64; labels.div_ceil(64)];
                let mut count = 0;
                for j in 0..opp {
                    let pay: Rational = support.iter().map(|&i| &m[i][j] * &point[i]).sum();
                    if pay == one {
                        set_bit(&mut bits, opp_label(j));
                        count += 1;
                    }
                }
                for (i, p) in point.iter().enumerate() {
                    if p.is_zero() {
                        set_bit(&mut bits, own_label(i));
                        count += 1;
                    }
                }
                if seen.insert(point.clone()) {
                    degenerate |= count > own;
                    out.push(Vertex { point, labels: bits });
                }
            });
        });
    }
    (out, degenerate)
}

/// `v / Σ v`.
fn normalise(v: &[Rational]) -> Vec<Rational> {
    let sum: Rational = v.iter().sum();
    v.iter().map(|x| x / &sum).collect()
}

/// The order of [`Enumeration::equilibria`].
pub(crate) fn sort_equilibria(list: &mut [Equilibrium]) {
    list.sort_by(|p, q| {
        let size = |e: &Equilibrium| e.support_sizes().iter().sum::<usize>();
        size(p).cmp(&size(q)).then_with(|| q.row.cmp(&p.row)).then_with(|| q.col.cmp(&p.col))
    });
}

/// Every equilibrium of a nondegenerate game by support enumeration, exactly
/// (and, for a degenerate game, every extreme equilibrium, with
/// [`Enumeration::degenerate`] set); at most [`SUPPORT_LIMIT`] candidate
/// supports per player.
///
/// ```
/// use equilibria::{Bimatrix, frac, int, support_enumeration};
/// // The prisoners' dilemma (deny, confess): both confess.
/// let pd = Bimatrix::from_integers(&[vec![-1, -10], vec![0, -5]], &[vec![-1, 0], vec![-10, -5]])?;
/// let found = support_enumeration(&pd)?;
/// assert_eq!(found.equilibria.len(), 1);
/// assert_eq!(found.equilibria[0].row, vec![int(0), int(1)]);
/// assert_eq!(found.equilibria[0].payoffs, [int(-5), int(-5)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn support_enumeration(game: &Bimatrix) -> Result<Enumeration, SolveError> {
    support_enumeration_with_limit(game, SUPPORT_LIMIT)
}

/// [`support_enumeration`] with a cap on the candidate supports per player
/// ([`candidate_supports`]); [`SolveError::TooLarge`] above it.
///
/// ```
/// use equilibria::{Bimatrix, SolveError, support::support_enumeration_with_limit};
/// let g = Bimatrix::zero_sum_integers(&[vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]])?;
/// assert!(matches!(support_enumeration_with_limit(&g, 10), Err(SolveError::TooLarge { .. })));
/// assert_eq!(support_enumeration_with_limit(&g, 19)?.equilibria.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn support_enumeration_with_limit(game: &Bimatrix, limit: u128) -> Result<Enumeration, SolveError> {
    let (m, n) = (game.rows(), game.cols());
    let sets = candidate_supports(m, n);
    if sets > limit {
        return Err(SolveError::TooLarge { rows: m, cols: n, supports: sets, limit });
    }
    let (a, b) = game.positive();
    let mut tried = 0;
    // The row player's polytope: x ≥ 0, Bᵀx ≤ 1.
    let (xs, degenerate_x) = vertices(&b, m + n, |i| i, |j| m + j, &mut tried);
    // The column player's polytope: y ≥ 0, Ay ≤ 1 (its rows are A's columns).
    let a_t: Vec<Vec<Rational>> = (0..n).map(|j| (0..m).map(|i| a[i][j].clone()).collect()).collect();
    let (ys, degenerate_y) = vertices(&a_t, m + n, |j| m + j, |i| i, &mut tried);
    let mut all = vec![0u64; (m + n).div_ceil(64)];
    for l in 0..m + n {
        set_bit(&mut all, l);
    }
    let mut equilibria = Vec::new();
    for x in &xs {
        for y in &ys {
            if x.labels.iter().zip(&y.labels).zip(&all).all(|((p, q), a)| p | q == *a) {
                let (row, col) = (normalise(&x.point), normalise(&y.point));
                if let Some(e) = Equilibrium::new(game, row, col) {
                    equilibria.push(e);
                }
            }
        }
    }
    sort_equilibria(&mut equilibria);
    Ok(Enumeration { equilibria, degenerate: degenerate_x || degenerate_y, supports_tried: tried })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{frac, int};

    #[test]
    fn subsets_in_order() {
        let mut all = Vec::new();
        for_each_subset(4, 2, |s| all.push(s.to_vec()));
        assert_eq!(all, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        let mut none = 0;
        for_each_subset(2, 3, |_| none += 1);
        for_each_subset(2, 0, |_| none += 1);
        assert_eq!(none, 0);
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(200, 100), u128::MAX);
    }

    #[test]
    fn integer_and_rational_candidates_agree() {
        let m = [vec![3i128, 1, 2], vec![1, 4, 1], vec![2, 2, 5]];
        let q: Vec<Vec<Rational>> = m.iter().map(|r| r.iter().map(|&v| int(v as i64)).collect()).collect();
        let mut checked = 0;
        for k in 1..=3 {
            for_each_subset(3, k, |support| {
                for_each_subset(3, k, |tight| {
                    let fast = match candidate_integer(&m, support, tight) {
                        Ok(Candidate::Vertex(y, d)) => {
                            Some(y.into_iter().map(|v| Rational::new(v.into(), d.into())).collect())
                        }
                        Ok(Candidate::Rejected) => None,
                        Err(()) => unreachable!("no overflow on small entries"),
                    };
                    assert_eq!(fast, candidate_rational(&q, support, tight), "{support:?} {tight:?}");
                    checked += 1;
                });
            });
        }
        assert_eq!(checked, 19);
        // Overflow is detected, not wrapped.
        let huge = vec![vec![i128::MAX / 2, 1], vec![1, i128::MAX / 2]];
        assert!(solve_integer(huge).is_err());
    }

    #[test]
    fn battle_of_the_sexes_has_three_equilibria() {
        let bos = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]]).unwrap();
        let found = support_enumeration(&bos).unwrap();
        let strategies: Vec<_> = found.equilibria.iter().map(|e| (e.row.clone(), e.col.clone())).collect();
        assert_eq!(
            strategies,
            vec![
                (vec![int(1), int(0)], vec![int(1), int(0)]),
                (vec![int(0), int(1)], vec![int(0), int(1)]),
                (vec![frac(2, 3), frac(1, 3)], vec![frac(1, 3), frac(2, 3)]),
            ]
        );
        assert_eq!(found.equilibria[2].payoffs, [frac(2, 3), frac(2, 3)]);
        assert!(!found.degenerate);
    }

    #[test]
    fn a_degenerate_game_is_reported_with_its_extreme_equilibria() {
        // Row 0 is a best response to both columns; the column player is
        // indifferent against row 0: a segment of equilibria.
        let g = Bimatrix::from_integers(&[vec![1, 1], vec![0, 0]], &[vec![1, 1], vec![0, 2]]).unwrap();
        let found = support_enumeration(&g).unwrap();
        assert!(found.degenerate);
        let cols: Vec<_> = found.equilibria.iter().map(|e| e.col.clone()).collect();
        assert!(cols.contains(&vec![int(1), int(0)]) && cols.contains(&vec![int(0), int(1)]), "{cols:?}");
    }
}
