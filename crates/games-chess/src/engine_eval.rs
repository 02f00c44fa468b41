//! [`EngineEval`]: the UCI engine's full-strength evaluator.

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
        let (w_mg, w_eg) = side_terms(board, Color::White);
        let (b_mg, b_eg) = side_terms(board, Color::Black);
        let phase = eval::game_phase(board);
        let terms = ((w_mg - b_mg) * phase + (w_eg - b_eg) * (eval::FULL_PHASE - phase)) / eval::FULL_PHASE;
        ChessEval::white_centipawns(board) + terms
    }
}

/// A middlegame and an endgame value, tapered by the game phase at the end.
type Pair = (i32, i32);

/// The a-file as a bitboard (shifted left by `f` for file `f`).
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Passed-pawn bonus by the pawn's rank counted from its own side (index
/// 0 = first rank ... 7 = eighth; a pawn stands on ranks 2 to 7).
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 30, 50, 80, 0];
/// The endgame passed-pawn bonus: a passer is worth far more with fewer
/// pieces left to stop it.
const PASSED_EG: [i32; 8] = [0, 10, 15, 25, 45, 75, 120, 0];
/// Penalty per pawn beyond the first on a file.
const DOUBLED: Pair = (10, 20);
/// Penalty per pawn with no pawn of its side on a neighbouring file.
const ISOLATED: Pair = (10, 15);
/// A rook on a file with no pawn at all.
const ROOK_OPEN: Pair = (25, 10);
/// A rook on a file with enemy pawns but none of its own.
const ROOK_HALF_OPEN: Pair = (12, 5);
/// Mobility weight per reachable square (not own-occupied, not attacked by
/// an enemy pawn) and the count taken as average, for knight, bishop,
/// rook, queen.
const MOBILITY: [(Pair, i32); 4] = [((4, 4), 4), ((4, 5), 6), ((2, 4), 6), ((1, 2), 12)];
/// Middlegame bonus per own pawn in front of a castled king (one and two
/// ranks ahead, on the king's file and the neighbouring ones).
const SHIELD: [i32; 2] = [12, 6];

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

/// The positional terms of `color`, from its own point of view, as a
/// middlegame and an endgame value: pawn structure (doubled, isolated,
/// passed), mobility, rooks on open files, the castled king's pawn shield.
fn side_terms(board: &Board, color: Color) -> Pair {
    let us = board.by_color(color).0;
    let own_pawns = (board.pawns() & board.by_color(color)).0;
    let their_pawns = (board.pawns() & board.by_color(!color)).0;
    let occupied = board.occupied();
    let (mut mg, mut eg) = (0, 0);
    for file in 0..8 {
        let n = (own_pawns & (FILE_A << file)).count_ones() as i32;
        if n > 1 {
            mg -= DOUBLED.0 * (n - 1);
            eg -= DOUBLED.1 * (n - 1);
        }
        if n > 0 && own_pawns & adjacent_files(file) == 0 {
            mg -= ISOLATED.0 * n;
            eg -= ISOLATED.1 * n;
        }
    }
    for sq in Bitboard(own_pawns) {
        let (file, rank) = (sq.file().to_u32(), sq.rank().to_u32());
        let span = ((FILE_A << file) | adjacent_files(file)) & ranks_ahead(color, rank);
        if their_pawns & span == 0 {
            let r = relative_rank(color, rank) as usize;
            mg += PASSED_MG[r];
            eg += PASSED_EG[r];
        }
    }
    let reachable = !us & !pawn_attacks(!color, their_pawns);
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
        let ((per_mg, per_eg), average) = MOBILITY[i];
        for sq in board.by_piece(role.of(color)) {
            let attacked = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupied),
                Role::Rook => attacks::rook_attacks(sq, occupied),
                _ => attacks::queen_attacks(sq, occupied),
            };
            let n = (attacked.0 & reachable).count_ones() as i32 - average;
            mg += per_mg * n;
            eg += per_eg * n;
            if role == Role::Rook {
                let file = FILE_A << sq.file().to_u32();
                if (own_pawns | their_pawns) & file == 0 {
                    mg += ROOK_OPEN.0;
                    eg += ROOK_OPEN.1;
                } else if own_pawns & file == 0 {
                    mg += ROOK_HALF_OPEN.0;
                    eg += ROOK_HALF_OPEN.1;
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
            for (i, bonus) in SHIELD.iter().enumerate() {
                let r = if color == Color::White { rank + 1 + i as u32 } else { rank - 1 - i as u32 };
                let shield = own_pawns & files & (0xFF << (8 * r));
                mg += bonus * shield.count_ones() as i32;
            }
        }
    }
    (mg, eg)
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
        assert_eq!(terms("4k3/8/8/8/8/8/4P3/4K3"), PASSED_EG[1] - ISOLATED.1);
        // A black pawn on e3 stops it: neither is passed; both isolated.
        assert_eq!(terms("4k3/8/8/8/8/4p3/4P3/4K3"), 0);
        // Doubled, isolated white pawns on e2 and e3 and an isolated black
        // pawn on d7; none is passed (each has an enemy pawn ahead on a
        // neighbouring file).
        assert_eq!(terms("4k3/3p4/8/8/8/4P3/4P3/4K3"), -DOUBLED.1 - 2 * ISOLATED.1 + ISOLATED.1);
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
