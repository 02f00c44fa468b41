//! The strength dial of 6×6 Othello, built on the published crates only:
//! the game as a tournament sees it ([`setup`]), its calibration ladder
//! ([`ladder`]), and the calibration made from it, embedded in this crate
//! ([`calibration`]), so that `elo:X` works for anyone who depends on it
//! ([`roster`]).
//!
//! `cargo run --release -p othello --example dial` remakes the calibration
//! (see `docs/your-game.md` in the repository).
//!
//! ```
//! use othello::dial;
//! use search_core::{Game, rng};
//!
//! let roster = dial::roster()?;
//! let mut player = roster.build("elo:600")?;
//! let mv = player.choose(&othello::Othello::new(), &mut rng::seeded(1))?;
//! assert!(othello::Othello::new().try_play(mv).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use strength::agents::{Roster, StandardAgents};
use strength::dial::{Calibration, Dial, DialError};
use tournament::Setup;
use tournament::ladder::Ladder;

use crate::{Othello, OthelloEval};

/// The name results and the calibration are recorded under.
pub const NAME: &str = "othello6";

/// Random plies of an opening.
pub const OPENING_PLIES: usize = 4;

/// The search depth that judges an opening balanced.
pub const BALANCE_DEPTH: u32 = 4;

/// How far from level (in [`OthelloEval`] units, a heuristic within ±100)
/// a balanced opening may be at [`BALANCE_DEPTH`].
pub const BALANCE_MARGIN: f64 = 15.0;

/// The ply limit of a game (32 placements and the passes between them
/// fit well within it).
pub const MAX_PLIES: usize = 80;

/// The committed calibration (JSON).
const CALIBRATION: &str = include_str!("../calibration/othello6.json");

/// 6×6 Othello as a tournament sees it: the standard agents searching with
/// [`OthelloEval`], openings of [`OPENING_PLIES`] random plies kept when a
/// depth-[`BALANCE_DEPTH`] search finds them within [`BALANCE_MARGIN`] of
/// level, and ten pairs of games per cell of the store.
pub fn setup() -> Setup<Othello> {
    Setup::standard(NAME, Othello::new(), OthelloEval)
        .with_opening_plies(OPENING_PLIES)
        .with_balance(OthelloEval, BALANCE_DEPTH, BALANCE_MARGIN)
        .with_max_plies(MAX_PLIES)
        .with_pairs_per_cell(10)
}

/// The ladder: Boltzmann players at depths 1, 2 and 4 over θ from 0.003
/// (near random play) to 0.3 (near greedy), values capped at ±100 (the
/// heuristic's range: a finished game counts as a decisive advantage),
/// each curve topped by alpha-beta at its depth; 300 pairs per matchup and
/// per held-out match.
pub fn ladder() -> Ladder {
    Ladder::boltzmann(&[1, 2, 4], &[0.003, 0.01, 0.03, 0.1, 0.3], "cap=100").with_pairs(300).with_held_out_pairs(300)
}

/// The committed calibration of [`ladder`].
pub fn calibration() -> Result<Calibration, DialError> {
    Calibration::from_json(CALIBRATION)
}

/// The standard agents searching with [`OthelloEval`] (1 MiB tables), with
/// `elo:X` and `adaptive:target=S` on `dial`.
pub fn agents(dial: Dial) -> StandardAgents<OthelloEval> {
    StandardAgents::new(OthelloEval).with_table_mib(1).with_dial(dial)
}

/// The roster of [`agents`] on the committed calibration.
pub fn roster() -> Result<Roster<Othello>, DialError> {
    Ok(Roster::new().with(agents(Dial::new(calibration()?)?)))
}

/// [`setup`] whose roster is [`agents`] on `dial`.
pub fn setup_with(dial: Dial) -> Setup<Othello> {
    let agents = agents(dial);
    setup().with_roster(std::sync::Arc::new(move || Roster::new().with(agents.clone())))
}
