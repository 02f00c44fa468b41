//! Playing strength: `cargo xtask match` (paired games between two agents,
//! with Elo, pentanomial statistics and SPRT) and `cargo xtask calibrate`
//! (the strength dial's ladder, rated). Both run on the cell store of
//! [`reproduce`](crate::reproduce): seeded, resumable, shardable, and the
//! same for any number of threads.

pub(crate) mod arena;
pub mod calibrate;
pub mod fit_validation;
pub mod fitting;
mod losses;
pub mod matches;
mod perfect;
mod pool;
pub mod rate;
mod uci;

pub use arena::{RosterMaker, chess_roster, connect4_roster, gobang_roster, load_calibration, tictactoe_roster};
pub use tournament::summary::SprtSettings;
