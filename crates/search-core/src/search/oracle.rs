//! Table lookup: an [`Oracle`] the search consults before it expands a
//! node (an endgame table, a solved-position database, an opening book).
//!
//! A probe that answers ends the node with an exact value: a win or loss at
//! a known distance, a draw, or a plain exact number. The search turns it
//! into the evaluator's terminal value as if the game had been searched to
//! its end (a win `d` plies away is worth what a mate found `d` plies below
//! the node is worth), so table hits mix with searched values, the
//! transposition table and alpha-beta windows without special cases. At the
//! root the oracle may also name a book move, which the search then plays
//! without searching.
//!
//! ```
//! use std::sync::Arc;
//! use search_core::backup::Minimax;
//! use search_core::search::{Limits, Options, Oracle, Probe, Search};
//! use search_core::tree::{LiteralEval, LiteralTree};
//!
//! /// Knows that the subtree labelled `B` is worth exactly 2.
//! #[derive(Debug)]
//! struct KnowsB;
//! impl Oracle<LiteralTree> for KnowsB {
//!     fn probe(&self, state: &LiteralTree) -> Option<Probe> {
//!         (state.label() == Some("B")).then_some(Probe::Value(-2.0)) // the mover (min) sees −2
//!     }
//! }
//! let t: LiteralTree = "max(A=min(3, 5), B=min(2, max(4, 9)))".parse()?;
//! let mut plain = Search::new(Minimax, LiteralEval, Options::full_width())?;
//! let mut table = Search::new(Minimax, LiteralEval, Options::full_width())?.with_oracle(Arc::new(KnowsB))?;
//! let (a, b) = (plain.run(&t, &Limits::full_tree())?, table.run(&t, &Limits::full_tree())?);
//! assert_eq!((a.value, b.value), (Some(3.0), Some(3.0)));
//! assert_eq!(b.stats.tb_hits, 1);
//! assert!(b.stats.nodes < a.stats.nodes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::game::Game;
use crate::rng::RngCore;

/// What an oracle knows of a position, from the point of view of the player
/// to move (at a chance node, of [`Player::First`](crate::Player::First)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Probe {
    /// The player to move wins; with best play on both sides the game ends
    /// `plies` plies from this position (a mate in `n` moves is
    /// `2n − 1` plies). Valued as the evaluator's
    /// [`terminal_value`](crate::Evaluator::terminal_value) of a win found
    /// `plies` plies further down, so a shorter win scores higher.
    Win {
        /// Plies to the end of the game.
        plies: u32,
    },
    /// The player to move loses in `plies` plies (0: the game is lost
    /// here).
    Loss {
        /// Plies to the end of the game.
        plies: u32,
    },
    /// A draw with best play.
    Draw,
    /// An exact value of the position in the evaluator's units, from the
    /// mover's point of view (for games scored by payoffs; a solved
    /// connect-4 position's score). Must not be NaN.
    Value(f64),
}

/// A table the search consults: [`probe`](Oracle::probe) at every node
/// below the root that is not over, before the node is expanded or valued
/// at the horizon; [`book_move`](Oracle::book_move) once per search, at
/// the root. Shared between searches and threads (`Send + Sync`; hold it
/// in an `Arc`).
///
/// Attach one with [`Search::with_oracle`](crate::search::Search::with_oracle).
/// Only rules with classical values ([`Pruning::Negamax`](crate::backup::Pruning::Negamax),
/// e.g. [`Minimax`](crate::backup::Minimax), with or without alpha-beta)
/// accept one: for them an exact game value is the value of the subtree.
/// The other rules' values are not game values (IOM's depend on the depth,
/// Rminimax's are soft costs, EMM's and product propagation's are
/// probabilities), so the search refuses an oracle with a
/// [`ParamError`](crate::ParamError) named `oracle`.
///
/// ```
/// use search_core::search::{Oracle, Probe};
/// use search_core::tree::LiteralTree;
/// /// Knows nothing.
/// #[derive(Debug)]
/// struct Empty;
/// impl Oracle<LiteralTree> for Empty {
///     fn probe(&self, _state: &LiteralTree) -> Option<Probe> {
///         None
///     }
/// }
/// let t: LiteralTree = "max(1, 2)".parse().unwrap();
/// assert_eq!(Empty.probe(&t), None);
/// ```
pub trait Oracle<G: Game>: fmt::Debug + Send + Sync {
    /// The exact value of `state` (a position that is not over), if the
    /// table has it. Called at every node below the root: keep it cheap,
    /// and answer `None` fast for positions the table does not cover.
    fn probe(&self, state: &G) -> Option<Probe>;

    /// A move to play at the root without searching (an opening book),
    /// chosen with `rng` if the book weighs several. The default has none.
    /// A move that is not legal at the root is ignored and the search runs.
    fn book_move(&self, _state: &G, _rng: &mut dyn RngCore) -> Option<G::Move> {
        None
    }
}
