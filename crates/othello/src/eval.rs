//! The heuristic evaluator.

use search_core::{Evaluator, Perspective, WIN_SCORE};

use crate::Othello;
use crate::bits::{self, CORNER_NEIGHBOURS, CORNERS};

/// Weight of a corner disc.
const CORNER: i32 = 15;
/// Penalty of a disc on the X-square (diagonal neighbour) of an empty corner.
const X_SQUARE: i32 = 8;
/// Penalty of a disc on a C-square (edge neighbour) of an empty corner.
const C_SQUARE: i32 = 4;
/// Weight of the relative mobility difference.
const MOBILITY: f64 = 25.0;
/// Weight of the relative disc difference.
const DISCS: f64 = 10.0;

/// A classic Othello heuristic, from the side to move's point of view
/// ([`Perspective::SideToMove`]).
///
/// For an unfinished position, with "own" the side to move and "opp" its
/// opponent, the value is the sum of
///
/// * corners: 15 × (own corners − opp corners);
/// * squares next to an *empty* corner: −8 per own disc on its diagonal
///   neighbour (X-square) and −4 per own disc on its two edge neighbours
///   (C-squares), and the same as a bonus for the opponent's discs there;
/// * mobility: 25 × (m_own − m_opp) / (m_own + m_opp), where `m` counts the
///   placements each side would have (a side that must pass has 0);
/// * discs, weighted low: 10 × (d_own − d_opp) / (d_own + d_opp).
///
/// Each corner contributes at most 16 in magnitude, so a heuristic value
/// lies strictly within ±[`HEURISTIC_MAX`](Self::HEURISTIC_MAX) = ±100.
///
/// A finished position (neither side can move) is worth
/// ±([`FINISHED_BASE`](Self::FINISHED_BASE) + disc margin), so within
/// 1001..=1036 for a win of the side to move, −1036..=−1001 for a loss, and
/// 0 for a draw: any won end is worth more than any unfinished position.
///
/// The value is antisymmetric: the same discs with the other side to move
/// are worth exactly the negation, and it is invariant under the eight
/// symmetries of the board.
///
/// Inside a search, a finished game is scored by
/// [`terminal_value`](Evaluator::terminal_value), which sees only the
/// [`Outcome`](search_core::Outcome) (win, draw or loss) and not the discs:
/// this evaluator keeps search-core's default, ±([`WIN_SCORE`] − ply), so
/// searches prefer quicker wins and never trade a win for a larger margin.
///
/// ```
/// use othello::{Othello, OthelloEval, BLACK};
/// use search_core::{Evaluator, Perspective};
///
/// let e = OthelloEval;
/// assert_eq!(<OthelloEval as Evaluator<Othello>>::PERSPECTIVE, Perspective::SideToMove);
/// assert_eq!(e.evaluate(&Othello::new()), 0.0);
/// let g = Othello::from_moves("c2")?; // White to move, 1 disc against 4
/// assert!(e.evaluate(&g) < 0.0);
/// assert_eq!(e.evaluate_for(&g, BLACK), -e.evaluate(&g));
/// // Black owns every disc: a finished game, won by 2 discs.
/// let won = Othello::from_board(&format!("XX{}", ".".repeat(34)), BLACK)?;
/// assert_eq!(e.evaluate(&won), 1002.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OthelloEval;

impl OthelloEval {
    /// Heuristic values (unfinished positions) lie strictly within ±100.
    ///
    /// ```
    /// use othello::{Othello, OthelloEval};
    /// use search_core::Evaluator;
    /// assert!(OthelloEval.evaluate(&Othello::from_moves("c2 b2")?).abs() < OthelloEval::HEURISTIC_MAX);
    /// # Ok::<(), search_core::GameError>(())
    /// ```
    pub const HEURISTIC_MAX: f64 = 100.0;

    /// A finished game won by `m` discs is worth `FINISHED_BASE + m` to the
    /// winner and the negation to the loser.
    ///
    /// ```
    /// use othello::OthelloEval;
    /// assert!(OthelloEval::FINISHED_BASE > OthelloEval::HEURISTIC_MAX);
    /// ```
    pub const FINISHED_BASE: f64 = 1000.0;

    /// The evaluator (the same as the unit value `OthelloEval` and as
    /// `OthelloEval::default()`).
    ///
    /// ```
    /// use othello::OthelloEval;
    /// assert_eq!(OthelloEval::new(), OthelloEval::default());
    /// ```
    pub const fn new() -> Self {
        OthelloEval
    }
}

impl Evaluator<Othello> for OthelloEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, state: &Othello) -> f64 {
        let (own, opp) = state.own_opp();
        let m_own = bits::placements(own, opp).count_ones();
        let m_opp = bits::placements(opp, own).count_ones();
        let (d_own, d_opp) = (own.count_ones(), opp.count_ones());
        if m_own == 0 && m_opp == 0 {
            let margin = f64::from(d_own) - f64::from(d_opp);
            return if margin == 0.0 { 0.0 } else { margin.signum() * Self::FINISHED_BASE + margin };
        }
        let count = |b: u64| b.count_ones() as i32;
        let mut squares = CORNER * (count(own & CORNERS) - count(opp & CORNERS));
        let empty = state.empty();
        for &(corner, x, c) in &CORNER_NEIGHBOURS {
            if empty & corner != 0 {
                squares -= X_SQUARE * (count(own & x) - count(opp & x)) + C_SQUARE * (count(own & c) - count(opp & c));
            }
        }
        // Someone can move, so both sides have discs and the sums are > 0.
        let mobility = MOBILITY * (f64::from(m_own) - f64::from(m_opp)) / f64::from(m_own + m_opp);
        let discs = DISCS * (f64::from(d_own) - f64::from(d_opp)) / f64::from(d_own + d_opp);
        f64::from(squares) + mobility + discs
    }

    /// `±WIN_SCORE`: terminal values are search-core's default
    /// ±(`WIN_SCORE` − ply), heuristic and finished-position values far
    /// smaller.
    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-WIN_SCORE, WIN_SCORE))
    }
}
