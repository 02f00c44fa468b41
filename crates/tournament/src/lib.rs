//! Games between agents, for any game written against `search-core`.
//!
//! A [`Setup`] is a game as a tournament sees it: its start position, its
//! roster of agent kinds (so that agents are named by spec strings such as
//! `alphabeta:depth=4` or `elo:1200`), how an opening is drawn and when it
//! counts as balanced, and the ply limit after which a game is scored a
//! draw. With it:
//!
//! - [`Setup::random_openings`]: balanced random openings, seeded; a longer
//!   list starts with the shorter one, so a match that grows keeps the
//!   openings of the games it already played;
//! - [`Setup::parse_openings`]: openings from a file's text, one a line;
//! - [`Setup::play_pairs`]: paired games from those openings, colours
//!   swapped, each pair's randomness derived from its own seed (the same
//!   results whatever the order or the thread the pairs are played on).
//!
//! On top of matches, the strength dial of any game: a [`ladder`] of
//! settings, [`calibrate`] (the ladder's ratings, checked on held-out
//! matches: the [`Calibration`](strength::dial::Calibration) that gives
//! `elo:X`), [`losses`] (how the dial's settings lose against a ground
//! truth: their move losses and blunder rates), [`rate`] (any agent on a
//! calibration's scale) and [`decisions`] (a record of moves to the
//! decisions `strength::fit` fits). The walk-through, from `impl Game` to
//! an opponent asked for by Elo, is [docs/your-game.md](https://github.com/game-search/backup-rules/blob/main/docs/your-game.md).
//!
//! Long runs keep their results in the [`store`]: each finished cell of
//! games saved atomically with a checksum, tied to one master seed, so that
//! an interrupted run resumes and two runs are never mixed.
//!
//! The crate knows no game by name and prints nothing; errors are
//! [`TournamentError`] and [`store::StoreError`].
//!
//! ```
//! use games_small::{Connect4, Connect4Eval};
//! use tournament::Setup;
//!
//! // Four random plies, kept when a depth-4 search finds them within 60 of level.
//! let setup = Setup::standard("connect4", Connect4::standard(), Connect4Eval::default())
//!     .with_opening_plies(4)
//!     .with_balance(Connect4Eval::default(), 4, 60.0)
//!     .with_max_plies(42);
//! let openings = setup.random_openings(4, 1)?;
//! assert_eq!(openings.len(), 4);
//! assert_eq!(setup.random_openings(2, 1)?, openings[..2]);
//! # Ok::<(), tournament::TournamentError>(())
//! ```

pub mod calibrate;
pub mod decisions;
mod error;
pub mod ladder;
pub mod ladder_fit;
pub mod losses;
pub mod matches;
mod openings;
pub mod rate;
pub mod runner;
mod setup;
pub mod store;
pub mod summary;

pub use error::TournamentError;
pub use setup::{RosterMaker, Setup};
