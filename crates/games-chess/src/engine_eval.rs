//! [`EngineEval`]: the UCI engine's full-strength evaluator, its positional
//! [`Features`] and their [`EngineWeights`].

use search_core::{Evaluator, Perspective};
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Move, Position, Role};

use crate::eval;
use crate::game::ChessGame;
use crate::{ChessEval, see};

/// The evaluator of the UCI engine's full-strength alpha-beta search
/// (`kibitz` without `UCI_LimitStrength` or `HumanElo`).
///
/// Its static value is [`ChessEval`]'s (material, tapered piece-square
/// tables, bishop pair) plus positional terms, each a middlegame and an
/// endgame value tapered by the same game phase:
///
/// * pawn structure: doubled pawns (per extra pawn on a file) and isolated
///   pawns cost, passed pawns (no enemy pawn ahead on their own or a
///   neighbouring file) gain by how far they have advanced, more in the
///   endgame;
/// * mobility: knights, bishops, rooks and queens gain per square they
///   attack that holds no own piece and no enemy pawn attacks, counted
///   from a typical number;
/// * rooks on open files (no pawns) and half-open files (no own pawns);
/// * king safety: a king on its back rank on either wing gains, in the
///   middlegame, per own pawn one or two ranks in front of it on its file
///   and the neighbouring ones.
///
/// Its quiescence differs too: the noisy moves are the captures and queen
/// or knight promotions whose [static exchange value](see::see) is not
/// negative, so quiescence does not follow captures that only lose
/// material.
///
/// Everything else that plays chess in this workspace (the strength dial
/// and its calibration, the human-move model, the engine's other backup
/// rules, the `alphabeta:` agents) uses [`ChessEval`], whose values those
/// fits were made with.
///
/// Values are centipawns from the side to move's point of view, as
/// [`ChessEval`]'s, and symmetric: the colour-mirrored position with the
/// other side to move has the same value. No allocation.
///
/// ```
/// use games_chess::{ChessGame, EngineEval};
/// use search_core::{Evaluator, Game};
///
/// // Qxd5 loses the queen to cxd5; exd5 wins a pawn.
/// let g = ChessGame::from_fen("4k3/8/2p5/3p4/4P3/8/3Q4/4K3 w - - 0 1")?;
/// let mut noisy = Vec::new();
/// EngineEval.noisy_moves(&g, &mut noisy);
/// assert_eq!(noisy, [g.parse_move("e4d5")?]);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineEval;

impl EngineEval {
    /// The static value of `board` in centipawns from White's point of
    /// view: [`ChessEval::white_centipawns`] plus the positional terms.
    ///
    /// ```
    /// use games_chess::{ChessEval, EngineEval};
    /// use shakmaty::Board;
    /// // A passed pawn on the seventh rank is worth more than its
    /// // piece-square value alone.
    /// let board: Board = "4k3/P7/8/8/8/8/8/4K3".parse().unwrap();
    /// assert!(EngineEval::white_centipawns(&board) > ChessEval::white_centipawns(&board) + 50);
    /// ```
    pub fn white_centipawns(board: &Board) -> i32 {
        EngineEval::white_centipawns_with(board, &EngineWeights::DEFAULT)
    }

    /// [`white_centipawns`](Self::white_centipawns) with the positional
    /// terms weighted by `weights`.
    #[inline]
    pub fn white_centipawns_with(board: &Board, weights: &EngineWeights) -> i32 {
        let (w_mg, w_eg) = weights.score(&Features::of(board, Color::White));
        let (b_mg, b_eg) = weights.score(&Features::of(board, Color::Black));
        let phase = eval::game_phase(board);
        let terms = ((w_mg - b_mg) * phase + (w_eg - b_eg) * (eval::FULL_PHASE - phase)) / eval::FULL_PHASE;
        ChessEval::white_centipawns(board) + terms
    }
}

/// A middlegame and an endgame value, tapered by the game phase at the end.
pub type Pair = (i32, i32);

/// The a-file as a bitboard (shifted left by `f` for file `f`).
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The mobility count taken as average, for knight, bishop, rook and queen:
/// a piece gains (or loses) per reachable square above (or below) it.
pub const MOBILITY_AVERAGE: [i32; 4] = [4, 6, 6, 12];

/// One side's positional features, counted: what [`EngineWeights`]
/// multiply. Each value is a count (pawns, pieces, squares), from that
/// side's own point of view.
///
/// ```
/// use games_chess::engine_eval::Features;
/// use shakmaty::{Board, Color};
/// let board: Board = "4k3/8/8/8/8/4P3/4P3/4K3".parse().unwrap();
/// let white = Features::of(&board, Color::White);
/// assert_eq!((white.doubled, white.isolated), (1, 2));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features {
    /// Pawns beyond the first on a file, summed over the files.
    pub doubled: i32,
    /// Pawns with no pawn of their side on a neighbouring file.
    pub isolated: i32,
    /// Passed pawns (no enemy pawn ahead on their own or a neighbouring
    /// file) by rank counted from their own side (0 = the back rank).
    pub passed: [i32; 8],
    /// For knights, bishops, rooks and queens: squares each attacks that
    /// hold no own piece and no enemy pawn attacks, less the average
    /// ([`MOBILITY_AVERAGE`] per piece), summed over the pieces.
    pub mobility: [i32; 4],
    /// Rooks on a file with no pawn.
    pub rook_open: i32,
    /// Rooks on a file with enemy pawns but none of their own.
    pub rook_half_open: i32,
    /// For a king on its back rank on either wing: own pawns one and two
    /// ranks in front of it on its file and the neighbouring ones.
    pub shield: [i32; 2],
}

/// The weights of [`EngineEval`]'s positional terms: centipawns per unit of
/// each [`Features`] count, as a middlegame and an endgame value (the king's
/// pawn shield counts in the middlegame only). Penalties are negative.
///
/// `cargo xtask tune-eval` fits them to game results (Texel's method, see
/// docs/benchmarks.md); [`EngineWeights::DEFAULT`] is what the engine plays.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineWeights {
    /// Per pawn beyond the first on a file.
    pub doubled: Pair,
    /// Per isolated pawn.
    pub isolated: Pair,
    /// Per passed pawn, by its rank from its own side, middlegame.
    pub passed_mg: [i32; 8],
    /// Per passed pawn, by rank, endgame: a passer is worth far more with
    /// fewer pieces left to stop it.
    pub passed_eg: [i32; 8],
    /// Per reachable square above the average, for knight, bishop, rook and
    /// queen.
    pub mobility: [Pair; 4],
    /// Per rook on an open file.
    pub rook_open: Pair,
    /// Per rook on a half-open file.
    pub rook_half_open: Pair,
    /// Per shield pawn one and two ranks in front of a castled king
    /// (middlegame).
    pub shield: [i32; 2],
}

impl EngineWeights {
    /// The weights the engine plays.
    pub const DEFAULT: EngineWeights = EngineWeights {
        doubled: (-10, -20),
        isolated: (-10, -15),
        passed_mg: [0, 5, 10, 15, 30, 50, 80, 0],
        passed_eg: [0, 10, 15, 25, 45, 75, 120, 0],
        mobility: [(4, 4), (4, 5), (2, 4), (1, 2)],
        rook_open: (25, 10),
        rook_half_open: (12, 5),
        shield: [12, 6],
    };

    /// The middlegame and endgame value of one side's `features`.
    #[inline]
    pub fn score(&self, f: &Features) -> Pair {
        let (mut mg, mut eg) = (0, 0);
        for (w, n) in self.terms().into_iter().zip(f.counts()) {
            mg += w.0 * n;
            eg += w.1 * n;
        }
        (mg, eg)
    }

    /// The weights of the terms, in [`TERM_NAMES`]' order (a middlegame-only
    /// term's endgame weight is 0). The passed-pawn bonuses of ranks 0 and
    /// 7 are no term: no pawn stands there.
    #[inline]
    fn terms(&self) -> [Pair; TERMS] {
        let passed = std::array::from_fn(|r| (self.passed_mg[r], self.passed_eg[r]));
        let shield = self.shield.map(|mg| (mg, 0));
        TermParts {
            doubled: self.doubled,
            isolated: self.isolated,
            passed,
            mobility: self.mobility,
            rook_open: self.rook_open,
            rook_half_open: self.rook_half_open,
            shield,
        }
        .in_order()
    }

    /// The weights `terms` in [`terms`](Self::terms)' order (a
    /// middlegame-only term's endgame weight is ignored).
    fn from_terms(terms: [Pair; TERMS]) -> EngineWeights {
        let t = TermParts::from_order(terms, (0, 0));
        EngineWeights {
            doubled: t.doubled,
            isolated: t.isolated,
            passed_mg: t.passed.map(|p| p.0),
            passed_eg: t.passed.map(|p| p.1),
            mobility: t.mobility,
            rook_open: t.rook_open,
            rook_half_open: t.rook_half_open,
            shield: t.shield.map(|p| p.0),
        }
    }

    /// The weights a tuner moves, as a flat list, with their names: every
    /// term's middlegame and endgame value (`NAME.mg`, `NAME.eg`), the
    /// middlegame only for a middlegame-only term (the shield).
    pub fn tunable(&self) -> Vec<(String, i32)> {
        let mut out = Vec::with_capacity(TUNABLE);
        for ((name, w), &mg_only) in TERM_NAMES.iter().zip(self.terms()).zip(&MIDDLEGAME_ONLY) {
            if mg_only {
                out.push(((*name).to_string(), w.0));
            } else {
                out.push((format!("{name}.mg"), w.0));
                out.push((format!("{name}.eg"), w.1));
            }
        }
        out
    }

    /// The weights with the tunable values `values`, in [`tunable`](Self::tunable)'s
    /// order; `None` if there are not as many. (The passed-pawn weights of
    /// ranks 0 and 7, which no pawn uses, are 0.)
    ///
    /// ```
    /// use games_chess::engine_eval::EngineWeights;
    /// let values: Vec<i32> = EngineWeights::DEFAULT.tunable().into_iter().map(|(_, v)| v).collect();
    /// assert_eq!(EngineWeights::from_tunable(&values), Some(EngineWeights::DEFAULT));
    /// assert_eq!(EngineWeights::from_tunable(&values[1..]), None);
    /// ```
    pub fn from_tunable(values: &[i32]) -> Option<EngineWeights> {
        if values.len() != TUNABLE {
            return None;
        }
        let mut it = values.iter().copied();
        let mut terms = [(0, 0); TERMS];
        for (t, &mg_only) in terms.iter_mut().zip(&MIDDLEGAME_ONLY) {
            t.0 = it.next()?;
            t.1 = if mg_only { 0 } else { it.next()? };
        }
        Some(EngineWeights::from_terms(terms))
    }

    /// The coefficients of the tunable weights in the static value of
    /// `board` from White's point of view (centipawns per unit of each
    /// weight, in [`tunable`](Self::tunable)'s order): White's count less
    /// Black's, times the game phase's share of the middlegame or the
    /// endgame. The value is [`ChessEval::white_centipawns`] plus their dot
    /// product with the weights, up to the integer rounding of the taper.
    pub fn coefficients(board: &Board) -> Vec<f64> {
        let (w, b) = (Features::of(board, Color::White).counts(), Features::of(board, Color::Black).counts());
        let phase = f64::from(eval::game_phase(board)) / f64::from(eval::FULL_PHASE);
        let mut out = Vec::with_capacity(TUNABLE);
        for ((w, b), &mg_only) in w.into_iter().zip(b).zip(&MIDDLEGAME_ONLY) {
            let n = f64::from(w - b);
            out.push(n * phase);
            if !mg_only {
                out.push(n * (1.0 - phase));
            }
        }
        out
    }
}

/// How many positional terms [`EngineWeights`] weighs.
const TERMS: usize = 16;

/// The terms' names, in the order of [`EngineWeights::tunable`] (each
/// with `.mg` and `.eg` there, but for the middlegame-only ones).
const TERM_NAMES: [&str; TERMS] = [
    "doubled",
    "isolated",
    "passed[1]",
    "passed[2]",
    "passed[3]",
    "passed[4]",
    "passed[5]",
    "passed[6]",
    "mobility.knight",
    "mobility.bishop",
    "mobility.rook",
    "mobility.queen",
    "rook_open",
    "rook_half_open",
    "shield[1]",
    "shield[2]",
];

/// How many terms count in the middlegame only: the last ones (the castled
/// king's shield).
const MIDDLEGAME_TERMS: usize = 2;

/// Which terms count in the middlegame only.
const MIDDLEGAME_ONLY: [bool; TERMS] = {
    let mut only = [false; TERMS];
    let mut i = TERMS - MIDDLEGAME_TERMS;
    while i < TERMS {
        only[i] = true;
        i += 1;
    }
    only
};

/// How many weights a tuner moves: two per term, one per middlegame-only
/// term.
const TUNABLE: usize = 2 * TERMS - MIDDLEGAME_TERMS;

impl Features {
    /// The counts of the terms [`EngineWeights`] weighs, in its terms'
    /// order ([`EngineWeights::tunable`]'s, each once). The passed pawns of
    /// ranks 0 and 7 are no term: no pawn stands there.
    #[inline]
    fn counts(&self) -> [i32; TERMS] {
        TermParts {
            doubled: self.doubled,
            isolated: self.isolated,
            passed: self.passed,
            mobility: self.mobility,
            rook_open: self.rook_open,
            rook_half_open: self.rook_half_open,
            shield: self.shield,
        }
        .in_order()
    }
}

/// One value per term, shaped like [`Features`] (or weights shaped like
/// them): the one place the terms' order ([`TERM_NAMES`]) is written, both
/// ways. The passed pawns of ranks 0 and 7 are no term: no pawn stands
/// there.
#[derive(Debug, Clone, Copy)]
struct TermParts<T> {
    doubled: T,
    isolated: T,
    passed: [T; 8],
    mobility: [T; 4],
    rook_open: T,
    rook_half_open: T,
    shield: [T; 2],
}

impl<T: Copy> TermParts<T> {
    /// The values in the terms' order.
    #[inline]
    fn in_order(self) -> [T; TERMS] {
        let [_, p1, p2, p3, p4, p5, p6, _] = self.passed;
        let [m0, m1, m2, m3] = self.mobility;
        let [s1, s2] = self.shield;
        let (doubled, isolated, open, half_open) = (self.doubled, self.isolated, self.rook_open, self.rook_half_open);
        [doubled, isolated, p1, p2, p3, p4, p5, p6, m0, m1, m2, m3, open, half_open, s1, s2]
    }

    /// The inverse of [`in_order`](Self::in_order), with `none` for the
    /// passed pawns of ranks 0 and 7.
    fn from_order(terms: [T; TERMS], none: T) -> TermParts<T> {
        let [doubled, isolated, p1, p2, p3, p4, p5, p6, m0, m1, m2, m3, rook_open, rook_half_open, s1, s2] = terms;
        TermParts {
            doubled,
            isolated,
            passed: [none, p1, p2, p3, p4, p5, p6, none],
            mobility: [m0, m1, m2, m3],
            rook_open,
            rook_half_open,
            shield: [s1, s2],
        }
    }
}

impl Default for EngineWeights {
    fn default() -> Self {
        EngineWeights::DEFAULT
    }
}

/// The files next to `file` (0 = a ... 7 = h).
#[inline]
fn adjacent_files(file: u32) -> u64 {
    let f = FILE_A << file;
    ((f << 1) & !FILE_A) | ((f >> 1) & !(FILE_A << 7))
}

/// The squares the pawns `pawns` of `color` attack.
#[inline]
fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    let (not_a, not_h) = (!FILE_A, !(FILE_A << 7));
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

/// The ranks strictly ahead of `rank` (0 = first ... 7 = eighth) as seen
/// by `color`.
#[inline]
fn ranks_ahead(color: Color, rank: u32) -> u64 {
    match color {
        Color::White if rank >= 7 => 0,
        Color::White => !0 << (8 * (rank + 1)),
        Color::Black => (1 << (8 * rank)) - 1,
    }
}

/// `rank` counted from `color`'s side (0 = its back rank).
#[inline]
fn relative_rank(color: Color, rank: u32) -> u32 {
    if color == Color::White { rank } else { 7 - rank }
}

impl Features {
    /// The features of `color` on `board`.
    pub fn of(board: &Board, color: Color) -> Features {
        let us = board.by_color(color).0;
        let own_pawns = (board.pawns() & board.by_color(color)).0;
        let their_pawns = (board.pawns() & board.by_color(!color)).0;
        let occupied = board.occupied();
        let mut f = Features::default();
        for file in 0..8 {
            let n = (own_pawns & (FILE_A << file)).count_ones() as i32;
            if n > 1 {
                f.doubled += n - 1;
            }
            if n > 0 && own_pawns & adjacent_files(file) == 0 {
                f.isolated += n;
            }
        }
        for sq in Bitboard(own_pawns) {
            let (file, rank) = (sq.file().to_u32(), sq.rank().to_u32());
            let span = ((FILE_A << file) | adjacent_files(file)) & ranks_ahead(color, rank);
            if their_pawns & span == 0 {
                f.passed[relative_rank(color, rank) as usize] += 1;
            }
        }
        let reachable = !us & !pawn_attacks(!color, their_pawns);
        for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
            for sq in board.by_piece(role.of(color)) {
                let attacked = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::Bishop => attacks::bishop_attacks(sq, occupied),
                    Role::Rook => attacks::rook_attacks(sq, occupied),
                    _ => attacks::queen_attacks(sq, occupied),
                };
                f.mobility[i] += (attacked.0 & reachable).count_ones() as i32 - MOBILITY_AVERAGE[i];
                if role == Role::Rook {
                    let file = FILE_A << sq.file().to_u32();
                    if (own_pawns | their_pawns) & file == 0 {
                        f.rook_open += 1;
                    } else if own_pawns & file == 0 {
                        f.rook_half_open += 1;
                    }
                }
            }
        }
        if let Some(king) = board.king_of(color) {
            let file = king.file().to_u32();
            let rank = king.rank().to_u32();
            // A king castled (or gone) to either wing, on its back rank.
            if relative_rank(color, rank) == 0 && !(3..=4).contains(&file) {
                let files = (FILE_A << file) | adjacent_files(file);
                for (i, count) in f.shield.iter_mut().enumerate() {
                    let r = if color == Color::White { rank + 1 + i as u32 } else { rank - 1 - i as u32 };
                    *count = (own_pawns & files & (0xFF << (8 * r))).count_ones() as i32;
                }
            }
        }
        f
    }
}

impl Evaluator<ChessGame> for EngineEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    #[inline]
    fn evaluate(&self, state: &ChessGame) -> f64 {
        eval::side_to_move(state, EngineEval::white_centipawns)
    }

    /// Captures (en passant included) and non-capturing promotions to a
    /// queen or a knight whose static exchange value is at least 0, best
    /// first by MVV-LVA. One legal-move generation; no allocation once
    /// `out` has grown.
    fn noisy_moves(&self, state: &ChessGame, out: &mut Vec<Move>) {
        let board = state.position().board();
        eval::tactical_moves(state, out, |m| see::see_at_least(board, m, 0));
    }
}

/// [`EngineEval`] with other positional weights than the engine's (a
/// tuner's candidate, for a match against the engine): the same static
/// value with `weights`, the same quiescence moves.
///
/// ```
/// use games_chess::engine_eval::{EngineWeights, WeightedEval};
/// use games_chess::{ChessGame, EngineEval};
/// use search_core::Evaluator;
///
/// let g = ChessGame::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
/// let same = WeightedEval::new(EngineWeights::DEFAULT);
/// assert_eq!(same.evaluate(&g), EngineEval.evaluate(&g));
/// let passers = WeightedEval::new(EngineWeights { passed_eg: [0, 200, 0, 0, 0, 0, 0, 0], ..EngineWeights::DEFAULT });
/// assert!(passers.evaluate(&g) > EngineEval.evaluate(&g));
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightedEval {
    weights: std::sync::Arc<EngineWeights>,
}

impl WeightedEval {
    /// The engine's evaluation with `weights`.
    pub fn new(weights: EngineWeights) -> Self {
        WeightedEval { weights: std::sync::Arc::new(weights) }
    }

    /// Its weights.
    pub fn weights(&self) -> &EngineWeights {
        &self.weights
    }
}

impl Evaluator<ChessGame> for WeightedEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    #[inline]
    fn evaluate(&self, state: &ChessGame) -> f64 {
        eval::side_to_move(state, |board| EngineEval::white_centipawns_with(board, &self.weights))
    }

    fn noisy_moves(&self, state: &ChessGame, out: &mut Vec<Move>) {
        EngineEval.noisy_moves(state, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::Game;

    fn terms(fen: &str) -> i32 {
        let board: Board = fen.parse().unwrap();
        EngineEval::white_centipawns(&board) - ChessEval::white_centipawns(&board)
    }

    #[test]
    fn start_position_is_level() {
        let g = ChessGame::startpos();
        assert_eq!(EngineEval.evaluate(&g), 0.0);
    }

    #[test]
    fn pawn_structure_terms() {
        // Kings only on the board besides the pawns: the endgame values.
        // A lone white pawn on e2 is passed and isolated.
        assert_eq!(
            terms("4k3/8/8/8/8/8/4P3/4K3"),
            EngineWeights::DEFAULT.passed_eg[1] + EngineWeights::DEFAULT.isolated.1
        );
        // A black pawn on e3 stops it: neither is passed; both isolated.
        assert_eq!(terms("4k3/8/8/8/8/4p3/4P3/4K3"), 0);
        // Doubled, isolated white pawns on e2 and e3 and an isolated black
        // pawn on d7; none is passed (each has an enemy pawn ahead on a
        // neighbouring file).
        assert_eq!(
            terms("4k3/3p4/8/8/8/4P3/4P3/4K3"),
            EngineWeights::DEFAULT.doubled.1 + EngineWeights::DEFAULT.isolated.1
        );
        // Connected passers on the seventh rank gain more than on the
        // second.
        assert!(terms("4k3/PP6/8/8/8/8/8/4K3") > terms("4k3/8/8/8/8/8/PP6/4K3"));
    }

    #[test]
    fn rook_files_mobility_and_shield() {
        // A rook on an open file beats one behind its own pawn.
        assert!(terms("6k1/8/8/8/8/8/P7/3R2K1") > terms("6k1/8/8/8/8/8/P7/R5K1"));
        // A castled king with its three pawns in front beats one without.
        let with = "r5k1/5ppp/8/8/8/8/5PPP/R5K1";
        let without = "r5k1/5ppp/8/8/8/5PPP/8/R5K1";
        assert!(terms(with) > terms(without));
        // A knight in the centre beats one in the corner.
        assert!(terms("4k3/8/8/8/3N4/8/8/4K3") > terms("4k3/8/8/8/8/8/8/N3K3"));
    }

    /// `fen` with the colours swapped and the board mirrored top to bottom:
    /// the same position seen from the other side.
    fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let board: Vec<String> = parts[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let turn = if parts[1] == "w" { "b" } else { "w" };
        let castling = if parts[2] == "-" {
            "-".to_string()
        } else {
            let swapped: String = parts[2].chars().map(swap).collect();
            let (mut upper, lower): (String, String) = swapped.chars().partition(|c| c.is_ascii_uppercase());
            upper.push_str(&lower);
            upper
        };
        let ep = if parts[3] == "-" {
            "-".to_string()
        } else {
            let b = parts[3].as_bytes();
            format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
        };
        format!("{} {turn} {castling} {ep} {} {}", board.join("/"), parts[4], parts[5])
    }

    #[test]
    fn colour_flip_symmetry_on_random_playouts() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(52);
        let mut checked = 0;
        let mut moves = Vec::new();
        for _ in 0..60 {
            let mut g = ChessGame::startpos();
            let plies = rng.random_range(0..120);
            for _ in 0..plies {
                moves.clear();
                if g.generate(&mut moves) != search_core::Status::Ongoing {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                g.play(mv);
                let fen = g.fen();
                let flipped = ChessGame::from_fen(&mirror(&fen)).unwrap();
                assert_eq!(EngineEval.evaluate(&g), EngineEval.evaluate(&flipped), "{fen}");
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn quiescence_skips_losing_captures_only() {
        // Rxd7 loses the rook (the rook on d8 and the bishop on c8 defend
        // d7), Nxe5 wins a pawn, the promotion is safe (c8 blocks the rook).
        let g = ChessGame::from_fen("2br2k1/P2p4/8/4p3/2N5/8/8/3R2K1 w - - 0 1").unwrap();
        let mut noisy = Vec::new();
        EngineEval.noisy_moves(&g, &mut noisy);
        let names: Vec<String> = noisy.iter().map(|&m| g.move_string(m)).collect();
        assert!(names.contains(&"c4e5".to_string()) && names.contains(&"a7a8q".to_string()));
        assert!(!names.contains(&"d1d7".to_string()));
        let mut all = Vec::new();
        ChessEval.noisy_moves(&g, &mut all);
        assert!(all.iter().any(|&m| g.move_string(m) == "d1d7"));
    }
}
