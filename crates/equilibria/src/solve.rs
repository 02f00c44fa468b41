//! One entry point over the three methods, with the automatic choice the
//! `nash` command uses.

use std::fmt;
use std::str::FromStr;

use crate::game::{Bimatrix, Equilibrium, Rational};
use crate::lemke_howson::{PIVOT_LIMIT, lemke_howson_with_limit};
use crate::support::{SUPPORT_LIMIT, candidate_supports, sort_equilibria, support_enumeration_with_limit};
use crate::{SolveError, lp};

/// A game is *small* for [`Method::Auto`] when support enumeration tries at
/// most this many candidate supports per player ([`candidate_supports`]):
/// up to 7 × 7, 5 × 10 or 3 × 25, for example.
pub const SMALL_GAME: u128 = 5_000;

/// How to look for equilibria.
///
/// ```
/// use equilibria::Method;
/// assert_eq!("lemke-howson".parse::<Method>(), Ok(Method::LemkeHowson));
/// assert_eq!(Method::Support.to_string(), "support");
/// assert!("simplex".parse::<Method>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Constant-sum games by linear programming (plus support enumeration
    /// for all equilibria when small); other games by support enumeration
    /// when small ([`SMALL_GAME`]), else by Lemke–Howson.
    #[default]
    Auto,
    /// Linear programming: one optimal profile and the value (constant-sum
    /// games only).
    Lp,
    /// Support enumeration: every equilibrium of a nondegenerate game.
    Support,
    /// Lemke–Howson: one equilibrium per dropped label.
    LemkeHowson,
}

impl Method {
    /// The method's name on the command line (`auto`, `lp`, `support`,
    /// `lemke-howson`).
    ///
    /// ```
    /// assert_eq!(equilibria::Method::Lp.name(), "lp");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Lp => "lp",
            Method::Support => "support",
            Method::LemkeHowson => "lemke-howson",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown method name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown method {0:?}: expected auto, lp, support or lemke-howson")]
pub struct UnknownMethod(pub String);

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Method::Auto, Method::Lp, Method::Support, Method::LemkeHowson]
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

/// The settings of [`solve`].
///
/// ```
/// use equilibria::{Method, Options};
/// let o = Options { method: Method::LemkeHowson, label: Some(2), ..Options::default() };
/// assert_eq!(o.max_pivots, equilibria::lemke_howson::PIVOT_LIMIT);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The method.
    pub method: Method,
    /// Lemke–Howson's dropped label (`0..m` rows, `m..m+n` columns);
    /// `None`: every label in turn, keeping the distinct equilibria.
    pub label: Option<usize>,
    /// [`Method::Auto`]'s bound on a small game ([`SMALL_GAME`]).
    pub small: u128,
    /// Support enumeration's bound ([`SUPPORT_LIMIT`]).
    pub support_limit: u128,
    /// Lemke–Howson's pivot limit per label ([`PIVOT_LIMIT`]).
    pub max_pivots: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            method: Method::Auto,
            label: None,
            small: SMALL_GAME,
            support_limit: SUPPORT_LIMIT,
            max_pivots: PIVOT_LIMIT,
        }
    }
}

/// What [`solve`] found.
///
/// ```
/// use equilibria::{Bimatrix, Options, int, solve};
/// let pennies = Bimatrix::zero_sum_integers(&[vec![1, -1], vec![-1, 1]])?;
/// let s = solve(&pennies, &Options::default())?;
/// assert_eq!(s.method, "lp+support");
/// assert_eq!(s.value, Some(int(0)));
/// assert_eq!(s.equilibria.len(), 1);
/// assert!(s.complete && !s.degenerate);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The equilibria found, each checked exactly ([`crate::verify()`]).
    pub equilibria: Vec<Equilibrium>,
    /// Whether a degeneracy was seen: always detected by support
    /// enumeration; by the other methods only when it shows in their
    /// pivots or at the equilibria they reach (a strategy with more pure
    /// best responses than its support has strategies).
    pub degenerate: bool,
    /// The method that ran: `lp`, `lp+support`, `support` or `lemke-howson`.
    pub method: &'static str,
    /// The value of a constant-sum game (the row player's payoff), when the
    /// LP ran.
    pub value: Option<Rational>,
    /// Whether the list is every equilibrium (support enumeration on a
    /// nondegenerate game).
    pub complete: bool,
}

/// Whether a pure-strategy count shows degeneracy at `e`: a strategy mixing
/// `k` pure strategies against which more than `k` are best responses.
fn degenerate_at(game: &Bimatrix, e: &Equilibrium) -> bool {
    let [k_row, k_col] = e.support_sizes();
    let best = |pays: Vec<Rational>| {
        let max = pays.iter().max().cloned();
        pays.iter().filter(|p| Some(*p) == max.as_ref()).count()
    };
    best(game.col_payoffs(&e.row)) > k_row || best(game.row_payoffs(&e.col)) > k_col
}

/// Finds equilibria of `game` as `options` say. Every equilibrium returned
/// is checked with [`crate::verify()`] (a failure would be a bug, reported as
/// [`SolveError::Unverified`]).
///
/// ```
/// use equilibria::{Bimatrix, Method, Options, frac, solve};
/// let bos = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]])?;
/// let all = solve(&bos, &Options::default())?;
/// assert_eq!((all.method, all.equilibria.len()), ("support", 3));
/// let one = solve(&bos, &Options { method: Method::LemkeHowson, label: Some(0), ..Options::default() })?;
/// assert_eq!(one.equilibria.len(), 1);
/// assert!(all.equilibria.contains(&one.equilibria[0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(game: &Bimatrix, options: &Options) -> Result<Solution, SolveError> {
    let small = candidate_supports(game.rows(), game.cols()) <= options.small;
    let mut solution = match options.method {
        Method::Lp => from_lp(game, false, options)?,
        Method::Support => from_support(game, options)?,
        Method::LemkeHowson => from_lemke_howson(game, options)?,
        Method::Auto if game.is_constant_sum() => from_lp(game, small, options)?,
        Method::Auto if small => from_support(game, options)?,
        Method::Auto => from_lemke_howson(game, options)?,
    };
    for e in &solution.equilibria {
        crate::verify(game, e).map_err(|why| SolveError::Unverified(why.to_string()))?;
        solution.degenerate |= degenerate_at(game, e);
    }
    solution.complete &= !solution.degenerate;
    Ok(solution)
}

fn from_lp(game: &Bimatrix, with_support: bool, options: &Options) -> Result<Solution, SolveError> {
    let lp = lp::solve_zero_sum(game)?;
    let found = Equilibrium::new(game, lp.row, lp.col).ok_or(SolveError::Unbounded)?;
    if !with_support {
        return Ok(Solution {
            equilibria: vec![found],
            degenerate: false,
            method: "lp",
            value: Some(lp.value),
            complete: false,
        });
    }
    let mut all = from_support(game, options)?;
    if !all.equilibria.contains(&found) {
        all.equilibria.push(found);
        sort_equilibria(&mut all.equilibria);
    }
    Ok(Solution { method: "lp+support", value: Some(lp.value), ..all })
}

fn from_support(game: &Bimatrix, options: &Options) -> Result<Solution, SolveError> {
    let e = support_enumeration_with_limit(game, options.support_limit)?;
    Ok(Solution { equilibria: e.equilibria, degenerate: e.degenerate, method: "support", value: None, complete: true })
}

fn from_lemke_howson(game: &Bimatrix, options: &Options) -> Result<Solution, SolveError> {
    let labels = match options.label {
        Some(l) => l..l + 1,
        None => 0..game.rows() + game.cols(),
    };
    let mut equilibria: Vec<Equilibrium> = Vec::new();
    let mut degenerate = false;
    for label in labels {
        let lh = lemke_howson_with_limit(game, label, options.max_pivots)?;
        degenerate |= lh.degenerate;
        if !equilibria.contains(&lh.equilibrium) {
            equilibria.push(lh.equilibrium);
        }
    }
    Ok(Solution { equilibria, degenerate, method: "lemke-howson", value: None, complete: false })
}
