//! The property tests (proptest), one module per area, in one test binary
//! named `fuzz_*` so that `cargo xtask fuzz` finds it and runs it with
//! `PROPTEST_CASES=N`.

mod fuzz_fen;
mod fuzz_games;
mod fuzz_uci;
