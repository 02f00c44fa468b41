//! Alpha-beta windows on `f64` values.

/// An open interval `(alpha, beta)` of values that matter to the caller. A
/// fail-soft search returns `v ≤ alpha` (an upper bound), `v ≥ beta` (a lower
/// bound) or the exact value in between.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Lower end: values at or below it are only bounded from above.
    pub alpha: f64,
    /// Upper end: values at or above it are only bounded from below.
    pub beta: f64,
}

impl Window {
    /// The infinite window: every value is exact.
    pub const FULL: Window = Window { alpha: f64::NEG_INFINITY, beta: f64::INFINITY };

    /// The window `(alpha, beta)`; if rounding made it empty, it is widened
    /// to the smallest non-empty window at `alpha`.
    ///
    /// ```
    /// use search_core::search::Window;
    /// let w = Window::new(1.0, 1.0);
    /// assert!(w.beta > w.alpha);
    /// ```
    #[inline]
    pub fn new(alpha: f64, beta: f64) -> Window {
        if beta > alpha { Window { alpha, beta } } else { Window { alpha, beta: alpha.next_up() } }
    }

    /// The same window seen from the other player: `(−beta, −alpha)`.
    #[inline]
    pub fn negate(self) -> Window {
        Window { alpha: -self.beta, beta: -self.alpha }
    }

    /// The window seen from a child whose point of view is flipped or not.
    #[inline]
    pub fn for_child(self, flip: bool) -> Window {
        if flip { self.negate() } else { self }
    }

    /// The null window just above `alpha`: `(alpha, next_up(alpha))`. A
    /// search with it only tells whether the value exceeds `alpha`.
    #[inline]
    pub fn null_above(alpha: f64) -> Window {
        Window { alpha, beta: alpha.next_up() }
    }

    /// True if the window is a null window: no value lies strictly inside
    /// it, so every result is a bound.
    ///
    /// ```
    /// use search_core::search::Window;
    /// assert!(Window::null_above(0.5).is_null());
    /// assert!(Window::null_above(0.5).negate().is_null());
    /// assert!(!Window::new(0.0, 1.0).is_null());
    /// ```
    #[inline]
    pub fn is_null(self) -> bool {
        self.alpha.next_up() >= self.beta
    }

    /// True if the window is infinite on both sides.
    #[inline]
    pub fn is_full(self) -> bool {
        self.alpha == f64::NEG_INFINITY && self.beta == f64::INFINITY
    }

    /// The kind of bound a fail-soft result `v` is under this window.
    #[inline]
    pub fn classify(self, v: f64) -> Bound {
        if v <= self.alpha {
            Bound::Upper
        } else if v >= self.beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// What a stored or reported value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}
