//! The integration tests, one module per former test file, in one test
//! binary: the crate and its dependencies are linked (and the generic code
//! monomorphised) once, not once per file.

mod dial;
mod eval_search;
mod hashing;
mod notation;
mod rules;
