//! The project's tools, one module per `cargo xtask` command: [`bench`](mod@bench),
//! [`demo`], [`perft`], [`solve`], [`book`], [`wac`], [`soak`],
//! [`tablebase`], [`nash`], [`tune`] (the chess engine's evaluation weights), and [`human`] (the human-like chess model's
//! trainer and its evaluation). Each has an `Args` (its command line) and
//! a `run` function. Unpublished.

pub mod bench;
mod bench_mcts;
mod bench_memory;
mod bench_solver;
pub mod book;
pub mod demo;
pub mod human;
mod human_network;
mod memory;
pub mod nash;
pub mod perft;
pub mod soak;
pub mod solve;
pub mod tablebase;
pub mod tune;
pub mod wac;

use taskkit::TaskResult;
