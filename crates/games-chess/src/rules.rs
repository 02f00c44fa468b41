//! Which of the draw rules that `shakmaty` leaves to the caller are in force.

/// The draw rules a [`ChessGame`](crate::ChessGame) applies on top of
/// checkmate and stalemate (which always end the game).
///
/// [`Rules::STANDARD`] (the default) is what a game or a search wants;
/// [`Rules::PERFT`] turns every optional rule off, so that the move tree is
/// exactly `shakmaty`'s legal-move tree and perft counts match the published
/// numbers.
///
/// ```
/// use games_chess::{ChessGame, Rules};
/// let g = ChessGame::startpos().with_rules(Rules::PERFT);
/// assert_eq!(g.rules(), Rules::PERFT);
/// assert_eq!(ChessGame::startpos().rules(), Rules::STANDARD);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Draw by repetition: the third occurrence of a position is a draw, and,
    /// below a search root set with
    /// [`ChessGame::mark_search_root`](crate::ChessGame::mark_search_root),
    /// so is the second occurrence when the first one is also below the root.
    pub repetition: bool,
    /// Draw by the fifty-move rule: 100 half-moves without a capture or a
    /// pawn move, unless the position is checkmate.
    pub fifty_move: bool,
    /// Draw when neither side has material to checkmate with (as decided by
    /// `shakmaty`'s `is_insufficient_material`).
    pub insufficient_material: bool,
}

impl Rules {
    /// Every draw rule in force: repetition, fifty moves, insufficient
    /// material.
    pub const STANDARD: Rules = Rules { repetition: true, fifty_move: true, insufficient_material: true };

    /// No optional draw rule: a game ends only by checkmate or stalemate, as
    /// in `shakmaty::perft` and the published perft tables.
    pub const PERFT: Rules = Rules { repetition: false, fifty_move: false, insufficient_material: false };
}

impl Default for Rules {
    /// [`Rules::STANDARD`].
    fn default() -> Self {
        Rules::STANDARD
    }
}
