//! The integration tests, one module per former test file, in one test
//! binary: the crate and its dependencies are linked (and the generic code
//! monomorphised) once, not once per file.

mod book;
mod connect4;
mod gobang;
mod lecture;
mod mcts;
mod parse_fuzz;
mod smp;
mod solver;
mod tictactoe;
