//! The seed papers' experiments, kept out of the published library crates.
//! Unpublished; `cargo xtask reproduce` calls in here.
//!
//! - [`reproduce`]: `cargo xtask reproduce`, every table and figure of the
//!   seed papers beside the papers' numbers (the experiments, their outputs
//!   and verdicts, on the library's cell store).
//! - [`paper`]: the Rminimax paper's worked examples (Tables I, II and III):
//!   the paper's trees, its printed numbers and its bisection.
//!
//! GPL-3.0-or-later because it depends on `games-chess`; nothing but `xtask`
//! depends on this crate (`cargo xtask layering` checks it).

pub mod paper;
pub mod reproduce;

pub use taskkit::TaskResult;
