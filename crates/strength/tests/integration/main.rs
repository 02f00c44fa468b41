//! The integration tests, one module per former test file, in one test
//! binary: the crate and its dependencies are linked (and the generic code
//! monomorphised) once, not once per file.

mod dial;
mod fit;
mod mcts_agents;
mod online;
mod pentanomial;
mod rating;
mod sprt;
mod timed_agents;
