//! The pattern-count gobang evaluator.

use search_core::{Evaluator, ParamError, Perspective, Player};

use crate::bits::Bits256;

use super::board::{DIRS, Gobang, TABLES};

/// Counts of a player's patterns, as counted by [`GobangEval`].
///
/// Patterns are counted per *window* of consecutive points on one line, in
/// each of the four directions:
///
/// - `five`: 5-point windows holding five own stones;
/// - `open_four`: 6-point windows `.XXXX.` (both ends empty);
/// - `four`: 5-point windows with four own stones and one empty point;
/// - `open_three`: 6-point windows with both ends empty and three own stones
///   and one empty point between them (`.XXX..`, `..XXX.`, `.XX.X.`, `.X.XX.`);
/// - `three`: 5-point windows with three own stones and two empty points;
/// - `two`: 5-point windows with two own stones and three empty points.
///
/// All windows lie inside the board and contain no opponent stone. A pattern
/// lying in several windows counts once per window (an open four also counts
/// as two fours; `..XXX..` as two open threes), which rewards the patterns
/// with more ways to grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PatternCounts {
    /// Fives (and longer lines, once per five-point window).
    pub five: u32,
    /// Open fours.
    pub open_four: u32,
    /// Fours.
    pub four: u32,
    /// Open threes.
    pub open_three: u32,
    /// Threes.
    pub three: u32,
    /// Twos.
    pub two: u32,
}

/// Weights of the patterns of [`PatternCounts`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatternWeights {
    /// Weight of a five. Default 100 000.
    pub five: f64,
    /// Weight of an open four. Default 10 000.
    pub open_four: f64,
    /// Weight of a four. Default 1 000.
    pub four: f64,
    /// Weight of an open three. Default 1 000.
    pub open_three: f64,
    /// Weight of a three. Default 100.
    pub three: f64,
    /// Weight of a two. Default 10.
    pub two: f64,
}

impl Default for PatternWeights {
    fn default() -> Self {
        PatternWeights {
            five: 100_000.0,
            open_four: 10_000.0,
            four: 1_000.0,
            open_three: 1_000.0,
            three: 100.0,
            two: 10.0,
        }
    }
}

impl PatternWeights {
    fn dot(&self, c: &PatternCounts) -> f64 {
        self.five * f64::from(c.five)
            + self.open_four * f64::from(c.open_four)
            + self.four * f64::from(c.four)
            + self.open_three * f64::from(c.open_three)
            + self.three * f64::from(c.three)
            + self.two * f64::from(c.two)
    }
}

/// The pattern-count heuristic, from the side to move's point of view
/// ([`Perspective::SideToMove`]): the weighted [`PatternCounts`] of the side
/// to move minus those of its opponent, clamped to `±LIMIT`.
///
/// Symmetric: the same stones count the same for either colour, so a
/// position and its colour-swapped twin (side to move swapped too) have the
/// same value. Computed with bitboard shifts, bit-sliced window
/// counts and population counts, without allocating.
///
/// ```
/// use games_small::gobang::{Gobang, GobangEval};
/// use search_core::{Evaluator, Player};
/// let e = GobangEval::default();
/// let g: Gobang = "h8 a1 i8".parse()?; // X has two in a row; O to move
/// assert!(e.evaluate(&g) < 0.0);
/// // Four horizontal windows of five hold both stones.
/// assert_eq!(e.pattern_counts(&g, Player::First).two, 4);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GobangEval {
    weights: PatternWeights,
}

impl GobangEval {
    /// Values are clamped to `±LIMIT`, far inside `±(WIN_SCORE − MAX_PLY)`.
    pub const LIMIT: f64 = 500_000.0;

    /// An evaluator with `weights`; each must be finite and within
    /// `0..=100 000`.
    pub fn new(weights: PatternWeights) -> Result<Self, ParamError> {
        let w = weights;
        for v in [w.five, w.open_four, w.four, w.open_three, w.three, w.two] {
            if !(0.0..=100_000.0).contains(&v) {
                return Err(ParamError::new("weights", format!("must be within 0..=100000, got {v}")));
            }
        }
        Ok(GobangEval { weights })
    }

    /// The weights.
    pub fn weights(&self) -> PatternWeights {
        self.weights
    }

    /// The pattern counts of `player` in `state`.
    pub fn pattern_counts(&self, state: &Gobang, player: Player) -> PatternCounts {
        self.both_pattern_counts(state)[player.index()]
    }

    /// The pattern counts of both players in `state`, indexed by
    /// [`Player::index`]: one pass over the board, sharing the shifted
    /// stone planes between the two (what [`evaluate`](Evaluator::evaluate)
    /// uses).
    ///
    /// ```
    /// use games_small::gobang::{Gobang, GobangEval};
    /// use search_core::Player;
    /// let e = GobangEval::default();
    /// let g: Gobang = "h8 a1 i8".parse()?;
    /// let [x, o] = e.both_pattern_counts(&g);
    /// assert_eq!((x.two, o.two), (4, 0));
    /// assert_eq!(x, e.pattern_counts(&g, Player::First));
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub fn both_pattern_counts(&self, state: &Gobang) -> [PatternCounts; 2] {
        let first = state.stones(Player::First);
        let second = state.stones(Player::Second);
        let mut c = [PatternCounts::default(); 2];
        for (d, &s) in DIRS.iter().enumerate() {
            let [v5, v6] = TABLES.starts[state.size()][d];
            let f: [Bits256; 6] = std::array::from_fn(|k| first.shr(k as u32 * s));
            let g: [Bits256; 6] = std::array::from_fn(|k| second.shr(k as u32 * s));
            // 6-point windows with both ends empty.
            let ends = v6 & !(f[0] | g[0]) & !(f[5] | g[5]);
            count_direction(&mut c[0], &f, &g, v5, ends);
            count_direction(&mut c[1], &g, &f, v5, ends);
        }
        c
    }
}

/// Adds to `c` the patterns of the player whose stone planes are `o` (the
/// stones shifted by 0–5 steps along one direction; `x` the opponent's),
/// given the direction's 5-point window starts `v5` and the starts of its
/// 6-point windows with both ends empty, `ends`.
#[inline(always)]
fn count_direction(c: &mut PatternCounts, o: &[Bits256; 6], x: &[Bits256; 6], v5: Bits256, ends: Bits256) {
    // 5-point windows: bit-sliced sum of five own planes.
    let free5 = !(x[0] | x[1] | x[2] | x[3] | x[4]);
    let (ones, twos, fours) = five_sums(o);
    let open5 = v5 & free5;
    c.five += (v5 & ones & fours).count();
    c.four += (open5 & !ones & !twos & fours).count();
    c.three += (open5 & ones & twos).count();
    c.two += (open5 & !ones & twos & !fours).count();
    // 6-point windows with empty ends.
    let mid_free = !(x[1] | x[2] | x[3] | x[4]);
    let all4 = o[1] & o[2] & o[3] & o[4];
    c.open_four += (ends & all4).count();
    // Exactly three of the four middle points.
    let m_ones = o[1] ^ o[2] ^ o[3] ^ o[4];
    let m_twos = (o[1] & o[2]) ^ (o[3] & o[4]) ^ ((o[1] ^ o[2]) & (o[3] ^ o[4]));
    c.open_three += (ends & mid_free & m_ones & m_twos).count();
}

impl Evaluator<Gobang> for GobangEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, state: &Gobang) -> f64 {
        let me = state.to_move();
        let c = self.both_pattern_counts(state);
        let v = self.weights.dot(&c[me.index()]) - self.weights.dot(&c[me.opponent().index()]);
        v.clamp(-Self::LIMIT, Self::LIMIT)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-search_core::WIN_SCORE, search_core::WIN_SCORE))
    }
}

/// The number of own stones in each 5-point window, bit-sliced: for the
/// planes `o[0..5]` (the stones shifted by 0–4 steps along a direction),
/// returns the count's bits `(ones, twos, fours)`, so that a window with
/// `n` own stones has bit `k` of `n` set in the `2^k` plane.
#[inline]
pub(super) fn five_sums(o: &[Bits256; 6]) -> (Bits256, Bits256, Bits256) {
    let s0 = o[0] ^ o[1] ^ o[2];
    let c0 = (o[0] & o[1]) | (o[2] & (o[0] ^ o[1]));
    let ones = s0 ^ o[3] ^ o[4];
    let c1 = (s0 & o[3]) | (o[4] & (s0 ^ o[3]));
    (ones, c0 ^ c1, c0 & c1)
}
