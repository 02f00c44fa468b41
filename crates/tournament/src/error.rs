//! The errors of this crate.

use strength::spec::SpecError;

/// What can go wrong in a tournament.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TournamentError {
    /// An agent spec the setup's roster cannot build (the error names the
    /// spec).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An opening that is not a legal line (or position) of the game.
    #[error("opening {opening:?}: {reason}")]
    Opening {
        /// The opening's text.
        opening: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No more balanced openings could be drawn.
    #[error("{game}: found only {found} balanced openings of the {wanted} asked for")]
    TooFewOpenings {
        /// The setup's name.
        game: String,
        /// How many were found.
        found: usize,
        /// How many were asked for.
        wanted: usize,
    },
    /// A game of a pair could not be played (an agent failed or played an
    /// illegal move).
    #[error("{a} vs {b}, opening {opening:?}: {reason}")]
    Game {
        /// Agent A's spec.
        a: String,
        /// Agent B's spec.
        b: String,
        /// The pair's opening.
        opening: String,
        /// What went wrong.
        reason: String,
    },
}
