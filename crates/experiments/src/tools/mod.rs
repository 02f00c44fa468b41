//! The project's tools other than `reproduce`, one module per `cargo xtask`
//! command. Each has a plain-data `Args` (filled by `xtask`'s command line)
//! and a `run` function.

pub mod bench;
mod bench_mcts;
mod bench_memory;
mod bench_solver;
pub mod book;
pub mod demo;
mod memory;
pub mod nash;
pub mod perft;
pub mod soak;
pub mod solve;
pub mod tablebase;
pub mod wac;
