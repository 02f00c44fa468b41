//! The committed calibrations of the three games' strength dials, as JSON
//! (embedded, so a program that plays `elo:X` needs no file at run time).
//!
//! Each is what `cargo xtask calibrate GAME` wrote into this crate's
//! `calibration/` folder: the ladder, every rung's rating with its
//! interval, the fitted curves and the held-out check. Read one with
//! `strength::dial::Calibration::from_json`; this crate does not depend on
//! `strength`, so it keeps the text.
//!
//! ```
//! assert!(games_small::calibrations::CONNECT4.contains("\"game\""));
//! ```

/// Tic-tac-toe's calibration.
pub const TICTACTOE: &str = include_str!("../calibration/tictactoe.json");

/// Connect-4's (7 × 6) calibration.
pub const CONNECT4: &str = include_str!("../calibration/connect4.json");

/// Gobang's (15 × 15) calibration.
pub const GOBANG: &str = include_str!("../calibration/gobang.json");
