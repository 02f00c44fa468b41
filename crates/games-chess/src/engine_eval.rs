//! [`EngineEval`]: the UCI engine's full-strength evaluator.

use search_core::{Evaluator, Perspective};
use shakmaty::{Color, Move, Position, Role};

use crate::game::ChessGame;
use crate::{ChessEval, ordering, see};

/// The evaluator of the UCI engine's full-strength alpha-beta search
/// (`kibitz` without `UCI_LimitStrength` or `HumanElo`).
///
/// Its static value is [`ChessEval`]'s (material, tapered piece-square
/// tables, bishop pair); its quiescence differs: the noisy moves are the
/// captures and queen or knight promotions whose [static exchange
/// value](see::see) is not negative, so quiescence does not follow captures
/// that only lose material. Everything else that plays chess in this
/// workspace (the strength dial and its calibration, the human-move model,
/// the other backup rules) uses [`ChessEval`], whose values those fits were
/// made with.
///
/// Values are centipawns from the side to move's point of view, as
/// [`ChessEval`]'s. No allocation.
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

impl Evaluator<ChessGame> for EngineEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    #[inline]
    fn evaluate(&self, state: &ChessGame) -> f64 {
        let pos = state.position();
        let white = ChessEval::white_centipawns(pos.board());
        f64::from(if pos.turn() == Color::White { white } else { -white })
    }

    /// Captures (en passant included) and non-capturing promotions to a
    /// queen or a knight whose static exchange value is at least 0, best
    /// first by MVV-LVA. One legal-move generation; no allocation once
    /// `out` has grown.
    fn noisy_moves(&self, state: &ChessGame, out: &mut Vec<Move>) {
        let board = state.position().board();
        let moves = state.position().legal_moves();
        out.extend(moves.iter().copied().filter(|&m| {
            (m.is_capture() || matches!(m.promotion(), Some(Role::Queen | Role::Knight))) && see::see(board, m) >= 0
        }));
        out.sort_unstable_by_key(|&m| std::cmp::Reverse(ordering::hint(m)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::Game;

    #[test]
    fn same_value_as_chess_eval() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4k3/8/2p5/3p4/4P3/8/3Q4/4K3 b - - 0 1",
        ] {
            let g = ChessGame::from_fen(fen).unwrap();
            assert_eq!(EngineEval.evaluate(&g), ChessEval.evaluate(&g));
        }
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
