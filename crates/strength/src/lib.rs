//! Playing strength for `search-core` agents.
//!
//! - Statistics over game results: Elo / Bradley–Terry ratings with draws
//!   ([`rating`]), pentanomial statistics of paired games ([`pentanomial`]),
//!   the sequential probability ratio test ([`sprt`]), and the logistic Elo
//!   scale they share ([`elo`]); how far fitted ratings miss their own
//!   results, and the model error that follows ([`misfit`]); the map of a
//!   fit's ratings onto a published scale ([`scale_map`]).
//! - Agents written as text ([`spec`]): `random`, `alphabeta:depth=6`,
//!   `boltzmann:depth=3,theta=2`, `elo:1500`..., built for any game with an
//!   evaluator.
//! - Paired games from balanced openings ([`pairing`]); two agents compared
//!   through the same games against a common opponent ([`paired`]).
//! - The strength dial ([`dial`]): a calibrated ladder of settings, and an
//!   agent for any Elo between its rungs (agents are built by [`agents`]).
//! - A player's model from their moves ([`fit`]): Boltzmann, ε-greedy or
//!   noisy-evaluation players fitted by maximum likelihood, with
//!   profile-likelihood intervals, model comparison and the dial's Elo.
//! - The small dense linear algebra those fits share ([`linear`]).

#![deny(missing_docs)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod agents;
pub mod dial;
pub mod elo;
pub mod fit;
pub mod linear;
pub mod misfit;
pub mod paired;
pub mod pairing;
pub mod pentanomial;
pub mod rating;
pub mod scale_map;
pub mod spec;
pub mod sprt;
