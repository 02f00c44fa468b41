//! The strength dial of the built-in games ([`registry::GAMES`]), as
//! `cargo xtask` commands on the published `tournament` crate:
//!
//! - [`matches`](mod@matches): `match`, paired games between two agents, with Elo,
//!   pentanomial statistics and SPRT;
//! - [`calibrate`]: `calibrate`, a game's ladder rated, written where the
//!   game's crate embeds it, with [`losses`] (how each setting loses);
//! - [`rate`]: `rate`, any agent on a committed ladder;
//! - [`fitting`] and [`fit_validation`]: `fit`, a player's model from their
//!   games, and `fit-validation`, the fit checked on synthetic players;
//! - [`human_rate`]: `human rate`, `human:X` on the chess ladder.
//!
//! Every run is on the library's cell store: seeded, resumable, shardable,
//! and the same for any number of threads. Unpublished; the library calls
//! live in `tournament`, the games in `registry`.

pub mod calibrate;
pub mod fit_validation;
pub mod fitting;
pub mod human_rate;
pub mod human_temper;
pub mod losses;
pub mod matches;
mod pool;
pub mod rate;

pub use tournament::summary::SprtSettings;

use taskkit::TaskResult;
