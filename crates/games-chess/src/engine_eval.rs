//! [`EngineEval`]: the UCI engine's full-strength evaluator, its positional
//! [`Features`] and their [`EngineWeights`].

use search_core::{Evaluator, Perspective};
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Move, Position, Role};

use std::sync::OnceLock;

use crate::eval::{self, Tables};
use crate::game::ChessGame;
use crate::{pst, see};

/// The evaluator of the UCI engine's full-strength alpha-beta search
/// (`kibitz` without `UCI_LimitStrength` or `HumanElo`).
///
/// Its static value is its own material and piece-square tables
/// ([`PieceSquare`], tapered by the game phase as [`ChessEval`]'s), the
/// bishop pair, and positional terms, each a middlegame and an endgame
/// value tapered by the same game phase:
///
/// * pawn structure: doubled pawns (per extra pawn on a file) and isolated
///   pawns cost, passed pawns (no enemy pawn ahead on their own or a
///   neighbouring file) gain by how far they have advanced, more in the
///   endgame;
/// * mobility: knights, bishops, rooks and queens gain per square they
///   attack that holds no own piece and no enemy pawn attacks, counted
///   from a typical number;
/// * rooks on open files (no pawns) and half-open files (no own pawns);
/// * king attacks: knights, bishops, rooks and queens gain per square they
///   attack next to the enemy king (or under it);
/// * pawn threats: per enemy piece (not a pawn) a pawn attacks;
/// * king safety: a king on its back rank on either wing gains, in the
///   middlegame, per own pawn one or two ranks in front of it on its file
///   and the neighbouring ones.
///
/// Its quiescence differs too: the noisy moves are the captures and queen
/// or knight promotions whose [static exchange value](see::see) is not
/// negative, so quiescence does not follow captures that only lose
/// material.
///
/// The weights are [`EngineWeights::engine`]: fitted to Stockfish's scores
/// of quiet positions (`cargo xtask tune-eval`, docs/benchmarks.md).
/// Everything else that plays chess in this workspace (the strength dial's
/// lower rungs and its calibration, the human-move model, the engine's
/// other backup rules, the `alphabeta:` agents) uses [`ChessEval`], whose
/// values those fits were made with.
///
/// [`ChessEval`]: crate::ChessEval
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
    /// view, with the engine's weights ([`EngineWeights::engine`]).
    ///
    /// ```
    /// use games_chess::EngineEval;
    /// use shakmaty::Board;
    /// // A passed pawn on the seventh rank is worth more than one on the
    /// // second.
    /// let seventh: Board = "4k3/P7/8/8/8/8/8/4K3".parse().unwrap();
    /// let second: Board = "4k3/8/8/8/8/8/P7/4K3".parse().unwrap();
    /// assert!(EngineEval::white_centipawns(&seventh) > EngineEval::white_centipawns(&second) + 50);
    /// ```
    pub fn white_centipawns(board: &Board) -> i32 {
        EngineEval::white_centipawns_with(board, EngineWeights::engine())
    }

    /// [`white_centipawns`](Self::white_centipawns) with the weights
    /// `weights`: their piece-square tables, the bishop pair, and their
    /// positional terms, each part tapered by the game phase on its own.
    #[inline]
    pub fn white_centipawns_with(board: &Board, weights: &EngineWeights) -> i32 {
        let (w_mg, w_eg) = weights.score(&Features::of(board, Color::White));
        let (b_mg, b_eg) = weights.score(&Features::of(board, Color::Black));
        let phase = eval::game_phase(board);
        let terms = ((w_mg - b_mg) * phase + (w_eg - b_eg) * (eval::FULL_PHASE - phase)) / eval::FULL_PHASE;
        eval::tapered_tables(board, &weights.psqt.mg, &weights.psqt.eg) + eval::bishop_pair(board) + terms
    }
}

/// The letters of the roles, pawn to king, as the names of
/// [`EngineWeights::tunable`] write them.
pub const ROLE_LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/// Piece-square tables, material included, for the middlegame (`mg`) and
/// the endgame (`eg`): `[role][square]`, roles pawn to king, squares a1 = 0
/// to h8 = 63, from White's point of view (a black piece on `sq` reads
/// `sq ^ 56` and counts negatively). The game phase tapers between them.
///
/// In JSON each table is 6 rows of 64 numbers; another shape is refused.
///
/// ```
/// use games_chess::engine_eval::PieceSquare;
/// let t = PieceSquare::CHESS_EVAL;
/// // A knight on e4 (square 28) beats one on a1 (square 0).
/// assert!(t.mg[1][28] > t.mg[1][0]);
/// let json = serde_json::to_string(&t).unwrap();
/// assert_eq!(serde_json::from_str::<PieceSquare>(&json).unwrap(), t);
/// assert!(serde_json::from_str::<PieceSquare>(r#"{"mg": [[1, 2]], "eg": []}"#).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "PieceSquareRows", into = "PieceSquareRows")]
pub struct PieceSquare {
    /// The middlegame tables.
    pub mg: [[i32; 64]; 6],
    /// The endgame tables.
    pub eg: [[i32; 64]; 6],
}

impl PieceSquare {
    /// [`ChessEval`](crate::ChessEval)'s tables: material and a few rules
    /// (centralisation, pawn advancement, king shelter).
    pub const CHESS_EVAL: PieceSquare = PieceSquare { mg: pst::MIDGAME, eg: pst::ENDGAME };

    /// [`CHESS_EVAL`](Self::CHESS_EVAL), for serde's default.
    fn chess_eval() -> PieceSquare {
        PieceSquare::CHESS_EVAL
    }
}

/// [`PieceSquare`] as JSON writes it: rows of any length, checked on the
/// way in.
#[derive(serde::Serialize, serde::Deserialize)]
struct PieceSquareRows {
    mg: Vec<Vec<i32>>,
    eg: Vec<Vec<i32>>,
}

impl From<PieceSquare> for PieceSquareRows {
    fn from(t: PieceSquare) -> Self {
        let rows = |t: &Tables| t.iter().map(|r| r.to_vec()).collect();
        PieceSquareRows { mg: rows(&t.mg), eg: rows(&t.eg) }
    }
}

impl TryFrom<PieceSquareRows> for PieceSquare {
    type Error = String;

    fn try_from(rows: PieceSquareRows) -> Result<Self, String> {
        let table = |name: &str, rows: Vec<Vec<i32>>| -> Result<Tables, String> {
            let shape =
                || format!("piece-square table {name}: 6 rows (pawn to king) of 64 squares (a1 to h8) expected");
            let rows: Vec<[i32; 64]> =
                rows.into_iter().map(|r| <[i32; 64]>::try_from(r).map_err(|_| shape())).collect::<Result<_, _>>()?;
            <Tables>::try_from(rows).map_err(|_| shape())
        };
        Ok(PieceSquare { mg: table("mg", rows.mg)?, eg: table("eg", rows.eg)? })
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
    /// For knights, bishops, rooks and queens: squares each attacks next to
    /// the enemy king or under it, summed over the pieces.
    pub king_attacks: [i32; 4],
    /// Enemy knights, bishops, rooks and queens attacked by this side's
    /// pawns.
    pub pawn_threats: i32,
    /// For a king on its back rank on either wing: own pawns one and two
    /// ranks in front of it on its file and the neighbouring ones.
    pub shield: [i32; 2],
}

/// The weights of [`EngineEval`]: its piece-square tables and its
/// positional terms, centipawns per unit of each [`Features`] count, as a
/// middlegame and an endgame value (the king's pawn shield counts in the
/// middlegame only). Penalties are negative.
///
/// `cargo xtask tune-eval` fits them (Texel's method, see
/// docs/benchmarks.md); [`EngineWeights::engine`] is what the engine plays,
/// [`EngineWeights::HAND_SET`] the values it played before.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineWeights {
    /// The piece-square tables, material included (JSON without them:
    /// [`PieceSquare::CHESS_EVAL`]).
    #[serde(default = "PieceSquare::chess_eval")]
    pub psqt: PieceSquare,
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
    /// Per square next to the enemy king (or under it) attacked, for
    /// knight, bishop, rook and queen (0 in a file without them).
    #[serde(default)]
    pub king_attacks: [Pair; 4],
    /// Per enemy piece (not a pawn) attacked by a pawn (0 in a file
    /// without it).
    #[serde(default)]
    pub pawn_threats: Pair,
    /// Per shield pawn one and two ranks in front of a castled king
    /// (middlegame).
    pub shield: [i32; 2],
}

/// The engine's weights as JSON, embedded.
const ENGINE_WEIGHTS_JSON: &str = include_str!("../calibration/engine-weights.json");

impl EngineWeights {
    /// The weights set by hand, with [`ChessEval`](crate::ChessEval)'s
    /// tables: what the engine played before its weights were fitted.
    pub const HAND_SET: EngineWeights = EngineWeights {
        psqt: PieceSquare::CHESS_EVAL,
        doubled: (-10, -20),
        isolated: (-10, -15),
        passed_mg: [0, 5, 10, 15, 30, 50, 80, 0],
        passed_eg: [0, 10, 15, 25, 45, 75, 120, 0],
        mobility: [(4, 4), (4, 5), (2, 4), (1, 2)],
        rook_open: (25, 10),
        rook_half_open: (12, 5),
        king_attacks: [(0, 0); 4],
        pawn_threats: (0, 0),
        shield: [12, 6],
    };

    /// The weights the engine plays: `calibration/engine-weights.json` of
    /// this crate (what `cargo xtask tune-eval` fitted, kept because a
    /// match accepted it), read once.
    ///
    /// ```
    /// use games_chess::engine_eval::EngineWeights;
    /// let w = EngineWeights::engine();
    /// // A queen is worth more than a rook, a rook more than a knight.
    /// assert!(w.psqt.mg[4][27] > w.psqt.mg[3][27] && w.psqt.mg[3][27] > w.psqt.mg[1][27]);
    /// ```
    pub fn engine() -> &'static EngineWeights {
        static ENGINE: OnceLock<EngineWeights> = OnceLock::new();
        ENGINE.get_or_init(|| {
            serde_json::from_str(ENGINE_WEIGHTS_JSON).expect("the embedded engine weights parse (a test checks it)")
        })
    }

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
            king_attacks: self.king_attacks,
            pawn_threats: self.pawn_threats,
            shield,
        }
        .in_order()
    }

    /// The weights `terms` in [`terms`](Self::terms)' order (a
    /// middlegame-only term's endgame weight is ignored) with the tables
    /// `psqt`.
    fn from_terms(terms: [Pair; TERMS], psqt: PieceSquare) -> EngineWeights {
        let t = TermParts::from_order(terms, (0, 0));
        EngineWeights {
            psqt,
            doubled: t.doubled,
            isolated: t.isolated,
            passed_mg: t.passed.map(|p| p.0),
            passed_eg: t.passed.map(|p| p.1),
            mobility: t.mobility,
            rook_open: t.rook_open,
            rook_half_open: t.rook_half_open,
            king_attacks: t.king_attacks,
            pawn_threats: t.pawn_threats,
            shield: t.shield.map(|p| p.0),
        }
    }

    /// The weights a tuner moves, as a flat list, with their names: first
    /// the terms ([`TERM_WEIGHTS`] of them), every term's middlegame and
    /// endgame value (`NAME.mg`, `NAME.eg`; the middlegame only for a
    /// middlegame-only term, the shield), then the piece-square tables
    /// (`psqt.mg.N.e4`: the middlegame table, a knight, the square e4, from
    /// White's side), middlegame before endgame, pawn to king, a1 to h8.
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
        for (part, tables) in [("mg", &self.psqt.mg), ("eg", &self.psqt.eg)] {
            for (letter, table) in ROLE_LETTERS.iter().zip(tables) {
                for (sq, &v) in shakmaty::Square::ALL.iter().zip(table) {
                    out.push((format!("psqt.{part}.{letter}.{sq}"), v));
                }
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
    /// let values: Vec<i32> = EngineWeights::HAND_SET.tunable().into_iter().map(|(_, v)| v).collect();
    /// assert_eq!(EngineWeights::from_tunable(&values), Some(EngineWeights::HAND_SET));
    /// assert_eq!(EngineWeights::from_tunable(&values[1..]), None);
    /// ```
    pub fn from_tunable(values: &[i32]) -> Option<EngineWeights> {
        if values.len() != TUNABLE {
            return None;
        }
        let (term_values, table_values) = values.split_at(TERM_WEIGHTS);
        let mut it = term_values.iter().copied();
        let mut terms = [(0, 0); TERMS];
        for (t, &mg_only) in terms.iter_mut().zip(&MIDDLEGAME_ONLY) {
            t.0 = it.next()?;
            t.1 = if mg_only { 0 } else { it.next()? };
        }
        let mut psqt = PieceSquare { mg: [[0; 64]; 6], eg: [[0; 64]; 6] };
        let cells = psqt.mg.iter_mut().chain(psqt.eg.iter_mut()).flat_map(|t| t.iter_mut());
        for (cell, &v) in cells.zip(table_values) {
            *cell = v;
        }
        Some(EngineWeights::from_terms(terms, psqt))
    }

    /// The coefficients of the tunable weights in the static value of
    /// `board` from White's point of view, as `(index, coefficient)` pairs
    /// in [`tunable`](Self::tunable)'s order, the zero ones left out
    /// (centipawns per unit of each weight): White's count less Black's,
    /// times the game phase's share of the middlegame or the endgame. The
    /// value is the bishop pair's bonus plus their dot product with the
    /// weights, up to the integer rounding of the taper.
    ///
    /// ```
    /// use games_chess::engine_eval::EngineWeights;
    /// use shakmaty::Board;
    /// // Kings only: the endgame tables' king entries, White's e1 and
    /// // Black's e8 (read as e1), cancel.
    /// let board: Board = "4k3/8/8/8/8/8/8/4K3".parse().unwrap();
    /// assert!(EngineWeights::coefficients(&board).is_empty());
    /// ```
    pub fn coefficients(board: &Board) -> Vec<(usize, f64)> {
        let (w, b) = (Features::of(board, Color::White).counts(), Features::of(board, Color::Black).counts());
        let phase = f64::from(eval::game_phase(board)) / f64::from(eval::FULL_PHASE);
        let mut out = Vec::with_capacity(TERM_WEIGHTS + 64);
        let mut index = 0;
        for ((w, b), &mg_only) in w.into_iter().zip(b).zip(&MIDDLEGAME_ONLY) {
            let n = f64::from(w - b);
            out.push((index, n * phase));
            index += 1;
            if !mg_only {
                out.push((index, n * (1.0 - phase)));
                index += 1;
            }
        }
        for role in Role::ALL {
            let r = role as usize - 1;
            for (color, sign, flip) in [(Color::White, 1.0, 0), (Color::Black, -1.0, 56)] {
                for sq in board.by_piece(role.of(color)) {
                    let cell = r * 64 + (usize::from(sq) ^ flip);
                    out.push((TERM_WEIGHTS + cell, sign * phase));
                    out.push((TERM_WEIGHTS + 6 * 64 + cell, sign * (1.0 - phase)));
                }
            }
        }
        out.sort_unstable_by_key(|&(i, _)| i);
        out.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1 += next.1;
            }
            same
        });
        out.retain(|&(_, c)| c != 0.0);
        out
    }
}

/// How many positional terms [`EngineWeights`] weighs.
const TERMS: usize = 21;

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
    "king_attacks.knight",
    "king_attacks.bishop",
    "king_attacks.rook",
    "king_attacks.queen",
    "pawn_threats",
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

/// How many of the weights a tuner moves are the terms': two per term, one
/// per middlegame-only term. They come first in
/// [`EngineWeights::tunable`], the piece-square tables after them.
pub const TERM_WEIGHTS: usize = 2 * TERMS - MIDDLEGAME_TERMS;

/// How many weights a tuner moves: the terms' and the 2 × 6 × 64 entries
/// of the piece-square tables.
const TUNABLE: usize = TERM_WEIGHTS + 2 * 6 * 64;

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
            king_attacks: self.king_attacks,
            pawn_threats: self.pawn_threats,
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
    king_attacks: [T; 4],
    pawn_threats: T,
    shield: [T; 2],
}

impl<T: Copy> TermParts<T> {
    /// The values in the terms' order.
    #[inline]
    fn in_order(self) -> [T; TERMS] {
        let [_, p1, p2, p3, p4, p5, p6, _] = self.passed;
        let [m0, m1, m2, m3] = self.mobility;
        let [k0, k1, k2, k3] = self.king_attacks;
        let [s1, s2] = self.shield;
        let (doubled, isolated, open, half_open) = (self.doubled, self.isolated, self.rook_open, self.rook_half_open);
        let threats = self.pawn_threats;
        [doubled, isolated, p1, p2, p3, p4, p5, p6, m0, m1, m2, m3, open, half_open, k0, k1, k2, k3, threats, s1, s2]
    }

    /// The inverse of [`in_order`](Self::in_order), with `none` for the
    /// passed pawns of ranks 0 and 7.
    fn from_order(terms: [T; TERMS], none: T) -> TermParts<T> {
        let [
            doubled,
            isolated,
            p1,
            p2,
            p3,
            p4,
            p5,
            p6,
            m0,
            m1,
            m2,
            m3,
            rook_open,
            rook_half_open,
            k0,
            k1,
            k2,
            k3,
            pawn_threats,
            s1,
            s2,
        ] = terms;
        TermParts {
            doubled,
            isolated,
            passed: [none, p1, p2, p3, p4, p5, p6, none],
            mobility: [m0, m1, m2, m3],
            rook_open,
            rook_half_open,
            king_attacks: [k0, k1, k2, k3],
            pawn_threats,
            shield: [s1, s2],
        }
    }
}

impl Default for EngineWeights {
    /// The engine's weights ([`EngineWeights::engine`]).
    fn default() -> Self {
        EngineWeights::engine().clone()
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
        let them = board.by_color(!color);
        let king_zone = board.king_of(!color).map_or(0, |k| attacks::king_attacks(k).0 | (1 << usize::from(k)));
        let their_pieces = (them & !board.pawns() & !board.kings()).0;
        f.pawn_threats = (pawn_attacks(color, own_pawns) & their_pieces).count_ones() as i32;
        for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
            for sq in board.by_piece(role.of(color)) {
                let attacked = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::Bishop => attacks::bishop_attacks(sq, occupied),
                    Role::Rook => attacks::rook_attacks(sq, occupied),
                    _ => attacks::queen_attacks(sq, occupied),
                };
                f.mobility[i] += (attacked.0 & reachable).count_ones() as i32 - MOBILITY_AVERAGE[i];
                f.king_attacks[i] += (attacked.0 & king_zone).count_ones() as i32;
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
/// let same = WeightedEval::new(EngineWeights::engine().clone());
/// assert_eq!(same.evaluate(&g), EngineEval.evaluate(&g));
/// let passers = WeightedEval::new(EngineWeights { passed_eg: [0, 200, 0, 0, 0, 0, 0, 0], ..EngineWeights::HAND_SET });
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
    use crate::ChessEval;
    use search_core::Game;

    /// The positional terms of the hand-set weights in `fen`'s value.
    fn terms(fen: &str) -> i32 {
        let board: Board = fen.parse().unwrap();
        EngineEval::white_centipawns_with(&board, &EngineWeights::HAND_SET) - ChessEval::white_centipawns(&board)
    }

    #[test]
    fn the_embedded_weights_parse_and_rank_the_pieces() {
        let w = EngineWeights::engine();
        let mean = |t: &[i32; 64]| t.iter().sum::<i32>() / 64;
        for tables in [&w.psqt.mg, &w.psqt.eg] {
            let [pawn, knight, bishop, rook, queen, _] = tables.each_ref().map(mean);
            assert!(pawn > 50 && pawn < knight && knight < rook && bishop < rook && rook < queen, "{tables:?}");
        }
        // Its JSON round-trips, and so do the hand-set weights.
        for w in [w, &EngineWeights::HAND_SET] {
            let json = serde_json::to_string(w).unwrap();
            assert_eq!(&serde_json::from_str::<EngineWeights>(&json).unwrap(), w);
        }
    }

    #[test]
    fn the_hand_set_weights_add_the_terms_to_chess_evals_value() {
        // With ChessEval's tables the engine's value is ChessEval's plus the
        // terms: the tables' part is shared, not copied.
        let board: Board = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R".parse().unwrap();
        let no_terms = EngineWeights::from_tunable(
            &EngineWeights::HAND_SET
                .tunable()
                .iter()
                .enumerate()
                .map(|(i, (_, v))| if i < TERM_WEIGHTS { 0 } else { *v })
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(EngineEval::white_centipawns_with(&board, &no_terms), ChessEval::white_centipawns(&board));
    }

    #[test]
    fn the_coefficients_give_the_value_up_to_rounding() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(81);
        let weights = EngineWeights::engine();
        let values: Vec<f64> = weights.tunable().iter().map(|(_, v)| f64::from(*v)).collect();
        let mut moves = Vec::new();
        for _ in 0..30 {
            let mut g = ChessGame::startpos();
            for _ in 0..rng.random_range(0..100) {
                moves.clear();
                if g.generate(&mut moves) != search_core::Status::Ongoing {
                    break;
                }
                g.play(moves[rng.random_range(0..moves.len())]);
            }
            let board = g.position().board();
            let linear: f64 = EngineWeights::coefficients(board).iter().map(|&(i, c)| c * values[i]).sum::<f64>()
                + f64::from(eval::bishop_pair(board));
            let value = f64::from(EngineEval::white_centipawns_with(board, weights));
            // Two integer tapers, each rounding by less than one.
            assert!((linear - value).abs() < 2.0, "{} {linear} {value}", g.fen());
        }
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
            EngineWeights::HAND_SET.passed_eg[1] + EngineWeights::HAND_SET.isolated.1
        );
        // A black pawn on e3 stops it: neither is passed; both isolated.
        assert_eq!(terms("4k3/8/8/8/8/4p3/4P3/4K3"), 0);
        // Doubled, isolated white pawns on e2 and e3 and an isolated black
        // pawn on d7; none is passed (each has an enemy pawn ahead on a
        // neighbouring file).
        assert_eq!(
            terms("4k3/3p4/8/8/8/4P3/4P3/4K3"),
            EngineWeights::HAND_SET.doubled.1 + EngineWeights::HAND_SET.isolated.1
        );
        // Connected passers on the seventh rank gain more than on the
        // second.
        assert!(terms("4k3/PP6/8/8/8/8/8/4K3") > terms("4k3/8/8/8/8/8/PP6/4K3"));
    }

    #[test]
    fn king_attacks_and_pawn_threats_are_counted() {
        // The rook on h1 sees h7 and h8 next to the king on g8.
        let board: Board = "6k1/8/8/8/8/8/8/6KR".parse().unwrap();
        assert_eq!(Features::of(&board, Color::White).king_attacks, [0, 0, 2, 0]);
        assert_eq!(Features::of(&board, Color::Black).king_attacks, [0; 4]);
        // e4 attacks the knight on d5; Black's pawn on c6 guards it and
        // threatens no white piece.
        let board: Board = "4k3/8/2p5/3n4/4P3/8/8/4K3".parse().unwrap();
        assert_eq!(Features::of(&board, Color::White).pawn_threats, 1);
        assert_eq!(Features::of(&board, Color::Black).pawn_threats, 0);
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
