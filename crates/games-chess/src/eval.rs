//! [`ChessEval`]: material and tapered piece-square tables.

use search_core::{Evaluator, Perspective};
use shakmaty::{Board, Color, Move, Position, Role};

use crate::game::ChessGame;
use crate::{ordering, pst};

/// Game-phase weight of each role (pawn ... king): the phase is the sum over
/// the non-pawn pieces on the board, capped at [`FULL_PHASE`].
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the initial position: per side 4 minor pieces × 1 + 2 rooks
/// × 2 + 1 queen × 4 = 12; both sides 24.
pub(crate) const FULL_PHASE: i32 = 24;

/// The game phase of `board`: the [`PHASE_WEIGHT`]s of its pieces summed,
/// capped at [`FULL_PHASE`] (the start) down to 0 (pawns and kings only).
/// Both chess evaluators taper by it.
#[inline]
pub(crate) fn game_phase(board: &Board) -> i32 {
    let phase: i32 =
        Role::ALL.iter().map(|&role| PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32).sum();
    phase.min(FULL_PHASE)
}
/// Bonus for holding both bishops, in centipawns.
const BISHOP_PAIR: i32 = 30;

/// A static evaluator for [`ChessGame`]: material plus piece-square tables,
/// interpolated between a middlegame and an endgame table by the game phase
/// (taken from the non-pawn material: knight and bishop 1, rook 2, queen 4,
/// 24 at the start), plus a small bishop-pair bonus.
///
/// Values are centipawns from the side to move's point of view
/// ([`Perspective::SideToMove`]), at most a few thousand in size, far inside
/// `±(WIN_SCORE − MAX_PLY)`; mates use the default
/// [`terminal_value`](Evaluator::terminal_value), so a shorter mate scores
/// higher. No allocation, one pass over the piece bitboards.
///
/// ```
/// use games_chess::{ChessEval, ChessGame};
/// use search_core::Evaluator;
///
/// let start = ChessGame::startpos();
/// assert_eq!(ChessEval.evaluate(&start), 0.0);
/// // White is a queen up; Black to move sees a large negative value.
/// let g = ChessGame::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")?;
/// assert!(ChessEval.evaluate(&g) < -800.0);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChessEval;

impl ChessEval {
    /// The static value of `board` in centipawns from White's point of view.
    pub fn white_centipawns(board: &Board) -> i32 {
        tapered_tables(board, &pst::MIDGAME, &pst::ENDGAME) + bishop_pair(board)
    }
}

/// A middlegame or endgame piece-square table, material included:
/// `[role - 1][square]` from White's point of view (a black piece on `sq`
/// reads `sq ^ 56` and counts negatively).
pub(crate) type Tables = [[i32; 64]; 6];

/// The piece-square value of `board` from White's point of view, the
/// middlegame tables `mid` and the endgame tables `end` tapered by the game
/// phase: the tables' part of both chess evaluators.
#[inline]
pub(crate) fn tapered_tables(board: &Board, mid: &Tables, end: &Tables) -> i32 {
    let mut mg = 0;
    let mut eg = 0;
    for role in Role::ALL {
        let r = role as usize - 1;
        let (mid, end) = (&mid[r], &end[r]);
        for sq in board.by_piece(role.of(Color::White)) {
            mg += mid[usize::from(sq)];
            eg += end[usize::from(sq)];
        }
        for sq in board.by_piece(role.of(Color::Black)) {
            let i = usize::from(sq) ^ 56;
            mg -= mid[i];
            eg -= end[i];
        }
    }
    let phase = game_phase(board);
    (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE
}

/// The bishop pair's bonus from White's point of view: [`BISHOP_PAIR`] for
/// each side with two bishops or more.
#[inline]
pub(crate) fn bishop_pair(board: &Board) -> i32 {
    let bishops = board.bishops();
    let pair = |side| i32::from((bishops & side).count() >= 2) * BISHOP_PAIR;
    pair(board.white()) - pair(board.black())
}

impl Evaluator<ChessGame> for ChessEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    #[inline]
    fn evaluate(&self, state: &ChessGame) -> f64 {
        side_to_move(state, ChessEval::white_centipawns)
    }

    /// Captures (en passant included) and the non-capturing promotions to a
    /// queen or a knight, best first by MVV-LVA (the
    /// [`order_hint`](search_core::Game::order_hint) order). One legal-move
    /// generation, filtered in place; no allocation once `out` has grown.
    fn noisy_moves(&self, state: &ChessGame, out: &mut Vec<Move>) {
        tactical_moves(state, out, |_| true);
    }
}

/// `white_centipawns` of `state`'s board from the side to move's point of
/// view, as a value.
#[inline]
pub(crate) fn side_to_move(state: &ChessGame, white_centipawns: impl Fn(&Board) -> i32) -> f64 {
    let pos = state.position();
    let white = white_centipawns(pos.board());
    f64::from(if pos.turn() == Color::White { white } else { -white })
}

/// Appends to `out` the captures (en passant included) and non-capturing
/// promotions to a queen or a knight that `keep` accepts, best first by
/// MVV-LVA: the noisy moves of the chess evaluators.
pub(crate) fn tactical_moves(state: &ChessGame, out: &mut Vec<Move>, keep: impl Fn(Move) -> bool) {
    let moves = state.position().legal_moves();
    out.extend(
        moves
            .iter()
            .copied()
            .filter(|&m| (m.is_capture() || matches!(m.promotion(), Some(Role::Queen | Role::Knight))) && keep(m)),
    );
    out.sort_unstable_by_key(|&m| std::cmp::Reverse(ordering::hint(m)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::{MAX_PLY, WIN_SCORE};

    fn eval(fen: &str) -> f64 {
        ChessEval.evaluate(&ChessGame::from_fen(fen).unwrap())
    }

    #[test]
    fn colour_mirror_negates_and_side_to_move_flips() {
        // A position and its colour-mirrored twin (same side to move).
        let a = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let b = "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4";
        assert_eq!(eval(a), eval(b));
        let a_black = a.replace(" w ", " b ");
        assert_eq!(eval(&a_black), -eval(a));
    }

    #[test]
    fn material_dominates_and_stays_in_bounds() {
        assert!(eval("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") > 400.0);
        assert!(eval("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1") < -700.0);
        // Far beyond any legal position: a board full of white queens.
        let board: Board = "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQk/K7".parse().unwrap();
        let max = f64::from(ChessEval::white_centipawns(&board));
        assert!(max > 50_000.0 && max < WIN_SCORE - f64::from(MAX_PLY));
    }

    #[test]
    fn noisy_moves_are_captures_and_promotions_best_first() {
        let g = ChessGame::from_fen("r3k3/1P6/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
        let mut out = Vec::new();
        ChessEval.noisy_moves(&g, &mut out);
        let names: Vec<String> = out.iter().map(|&m| search_core::Game::move_string(&g, m)).collect();
        // bxa8=Q first (promotion with capture), then b8=Q, bxa8=N (knight
        // promotion with capture), exd5.
        assert_eq!(names[..4], ["b7a8q", "b7b8q", "b7a8n", "e4d5"]);
        assert!(names.iter().all(|n| n.len() == 5 || n == "e4d5"));
        assert!(!names.contains(&"b7b8r".to_string()));
        assert!(names.contains(&"b7a8r".to_string()));
    }
}
