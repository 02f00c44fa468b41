//! A threat-aware gobang evaluator.

use search_core::{Evaluator, Perspective, Player};

use crate::bits::Bits256;

use super::board::{DIRS, Gobang, TABLES};
use super::eval::{GobangEval, PatternCounts, PatternWeights, five_sums};

/// What one side threatens, for [`GobangThreatEval`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Threats {
    /// Empty points that complete a five for this side (its fours'
    /// completion points).
    pub win_points: u32,
    /// Empty points where a stone of this side makes an *open four* or a
    /// *double threat* (a four and a four, or a four and an open three, or
    /// two open threes, on different lines): points that win unless the
    /// opponent can answer with fours of its own.
    pub fork_points: u32,
    /// Empty points where a stone of this side makes a four (a five threat
    /// the opponent must answer).
    pub four_points: u32,
    /// 6-point windows `.XXX..`-like (see [`PatternCounts::open_three`]).
    pub open_threes: u32,
}

/// A gobang evaluator built the way gobang programs usually are: by whose
/// turn it is and what each side threatens, on top of the pattern counts of
/// [`GobangEval`].
///
/// From the side to move's point of view ([`Perspective::SideToMove`]),
/// with `me` the side to move and `them` the other:
///
/// 1. `me` has a four (a point completing five): it wins this move —
///    `+WIN_NOW`.
/// 2. `them` have two or more completion points: `me` can block one only —
///    `−WIN_SOON`.
/// 3. `them` have one: `me` must block it and gets no attacking bonus.
/// 4. Otherwise, if `me` can make an open four or a double threat (an open
///    three on the board, or a fork point): it wins by force when `them`
///    cannot make a single four in reply (`+WIN_SOON`), else it gets a large
///    bonus (`ATTACK`).
/// 5. Otherwise, if `them` threaten the same (open threes or fork points):
///    one is answered by `me`'s move (`−DEFEND`), two or more cannot be
///    (`−ATTACK`).
///
/// On top, the weighted pattern counts of [`GobangEval`] for both sides,
/// with the side to move's threes and fours counted 1.5 times (a tempo:
/// its threats are one move closer). Values are clamped to
/// `±GobangEval::LIMIT`, as [`GobangEval`]'s, so the two are on the same
/// scale (an open three weighs about 1000).
///
/// This is not a threat-space search: fork points are found per line
/// direction with bitboards (a point lying on four- or three-making windows
/// in two directions), without playing the move, so a few double threats
/// are missed or over-counted; it is cheap (a few times the cost of
/// [`GobangEval`]).
///
/// ```
/// use games_small::gobang::{Gobang, GobangThreatEval};
/// use search_core::Evaluator;
/// let e = GobangThreatEval::default();
/// // X: h8 i8 j8 k8 (a four); O to move must block, X still has the
/// // other end: two completion points, O loses.
/// let g: Gobang = "h8 a1 i8 a2 j8 a15 k8".parse()?;
/// assert!(e.evaluate(&g) <= -GobangThreatEval::WIN_SOON);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GobangThreatEval {
    patterns: GobangEval,
}

impl GobangThreatEval {
    /// The value of a position whose side to move completes five now.
    pub const WIN_NOW: f64 = 400_000.0;
    /// The value of a position won by force within a few moves.
    pub const WIN_SOON: f64 = 300_000.0;
    /// The bonus of an attack the opponent can only delay with fours.
    pub const ATTACK: f64 = 30_000.0;
    /// The cost of one threat of the opponent that the move must answer.
    pub const DEFEND: f64 = 3_000.0;

    /// An evaluator whose pattern term uses `weights` (see [`GobangEval::new`]).
    pub fn new(weights: PatternWeights) -> Result<Self, search_core::ParamError> {
        Ok(GobangThreatEval { patterns: GobangEval::new(weights)? })
    }

    /// The threats of `player` in `state`.
    pub fn threats(&self, state: &Gobang, player: Player) -> Threats {
        let own = state.stones(player);
        let other = state.stones(player.opponent());
        let empty = TABLES.board[state.size()] & !(own | other);
        let mut win = Bits256::EMPTY;
        // Points making a four or an open three, per direction.
        let mut makes: [Bits256; 4] = [Bits256::EMPTY; 4];
        let mut open_four_points = Bits256::EMPTY;
        let mut open_threes = 0;
        for (d, &s) in DIRS.iter().enumerate() {
            let [v5, v6] = TABLES.starts[state.size()][d];
            let o: [Bits256; 6] = std::array::from_fn(|k| own.shr(k as u32 * s));
            let x: [Bits256; 6] = std::array::from_fn(|k| other.shr(k as u32 * s));
            let free5 = v5 & !(x[0] | x[1] | x[2] | x[3] | x[4]);
            let (ones, twos, fours) = five_sums(&o);
            // Exactly four own stones and an empty point: its empty point wins.
            let w4 = free5 & fours & !ones & !twos;
            // Exactly three own and two empty: either empty point makes a four.
            let w3 = free5 & ones & twos;
            for k in 0..5u32 {
                win |= (w4 & !o[k as usize]).shl(k * s);
                makes[d] |= (w3 & !o[k as usize]).shl(k * s);
            }
            // 6-point windows with empty ends and three of the four middle
            // points own (the rest empty): an open three. Filling its empty
            // middle point makes an open four.
            let ends = v6 & !(o[0] | x[0]) & !(o[5] | x[5]);
            let mid_free = !(x[1] | x[2] | x[3] | x[4]);
            let m_ones = o[1] ^ o[2] ^ o[3] ^ o[4];
            let m_twos = (o[1] & o[2]) ^ (o[3] & o[4]) ^ ((o[1] ^ o[2]) & (o[3] ^ o[4]));
            let three = ends & mid_free & m_ones & m_twos;
            open_threes += three.count();
            for k in 1..5u32 {
                open_four_points |= (three & !o[k as usize]).shl(k * s);
            }
            // Open twos are left to the pattern term.
        }
        win &= empty;
        // Fork points: making threats on two lines at once.
        let mut any = Bits256::EMPTY;
        let mut twice = Bits256::EMPTY;
        for m in makes {
            twice |= any & m;
            any |= m;
        }
        let forks = (twice | open_four_points) & empty & !win;
        Threats { win_points: win.count(), fork_points: forks.count(), four_points: (any & empty).count(), open_threes }
    }

    fn pattern_value(&self, c: &PatternCounts, tempo: f64) -> f64 {
        let w = self.patterns.weights();
        w.open_four * f64::from(c.open_four)
            + tempo * (w.four * f64::from(c.four) + w.open_three * f64::from(c.open_three))
            + tempo * w.three * f64::from(c.three)
            + w.two * f64::from(c.two)
    }
}

impl Evaluator<Gobang> for GobangThreatEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, state: &Gobang) -> f64 {
        let me = state.to_move();
        let them = me.opponent();
        let mine = self.threats(state, me);
        if mine.win_points > 0 {
            return Self::WIN_NOW;
        }
        let theirs = self.threats(state, them);
        if theirs.win_points >= 2 {
            return -Self::WIN_SOON;
        }
        let counts = self.patterns.both_pattern_counts(state);
        let base = self.pattern_value(&counts[me.index()], 1.5) - self.pattern_value(&counts[them.index()], 1.0);
        let mut v = base;
        if theirs.win_points == 0 {
            if mine.open_threes > 0 || mine.fork_points > 0 {
                if theirs.four_points == 0 {
                    return (Self::WIN_SOON + base.clamp(-Self::ATTACK, Self::ATTACK)).min(GobangEval::LIMIT);
                }
                v += Self::ATTACK;
            } else {
                let threats = u32::from(theirs.open_threes > 0) + theirs.fork_points.min(2);
                v -= match threats {
                    0 => 0.0,
                    1 => Self::DEFEND,
                    _ => Self::ATTACK,
                };
            }
        }
        v.clamp(-GobangEval::LIMIT, GobangEval::LIMIT)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-search_core::WIN_SCORE, search_core::WIN_SCORE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(moves: &str) -> Gobang {
        moves.parse().unwrap()
    }

    #[test]
    fn threats_are_found() {
        let e = GobangThreatEval::default();
        // X: h8 i8 j8 (an open three); O's stones scattered in corners.
        let p = g("h8 a1 i8 o15 j8 o1");
        let t = e.threats(&p, Player::First);
        assert_eq!(t.win_points, 0);
        assert!(t.open_threes > 0 && t.fork_points >= 2, "{t:?}");
        // X to move with an open three, O unable to make a four: won.
        assert!(e.evaluate(&p) >= GobangThreatEval::WIN_SOON - GobangThreatEval::ATTACK);
        // A four, X to move: two completion points, a win now.
        let p = g("h8 a1 i8 o15 j8 o1 k8 a15");
        assert_eq!(e.threats(&p, Player::First).win_points, 2);
        assert_eq!(e.evaluate(&p), GobangThreatEval::WIN_NOW);
    }

    #[test]
    fn whose_turn_it_is_matters() {
        let e = GobangThreatEval::default();
        // X has an open three; with O to move, O must defend.
        let p = g("h8 a1 i8 o15 j8");
        assert!(e.evaluate(&p) <= -GobangThreatEval::ATTACK / 2.0, "{}", e.evaluate(&p));
        // The same X stones with X to move (O played a corner): X wins.
        let q = g("h8 a1 i8 o15 j8 o1");
        assert!(e.evaluate(&q) > GobangThreatEval::ATTACK);
        // The old evaluator sees the open three as worth the same either way
        // (up to O's extra stone).
        let old = GobangEval::default();
        assert!(old.evaluate(&p) < 0.0 && old.evaluate(&q) > 0.0);
    }
}
