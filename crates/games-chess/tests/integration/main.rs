//! The integration tests, one module per former test file, in one test
//! binary: the crate and its dependencies are linked (and the generic code
//! monomorphised) once, not once per file.
//!
//! `tests/uci.rs` stays a binary of its own: it times the `kibitz` process
//! (`go movetime 100` answered within 600 ms, `stop` within 500 ms), which
//! other tests running beside it in the same process could slow down.

mod common;
mod engine_tables;
mod external;
mod hashing;
mod perft;
mod polyglot;
mod rules;
mod search_extensions;
mod tablebase;
mod uci_strength;
