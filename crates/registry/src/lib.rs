//! The workspace's built-in games, registered once, at the application
//! edge: tic-tac-toe, connect-4, gobang and chess. For each, [`GAMES`]
//! holds its setup (the game, its evaluator, its roster of agent kinds,
//! its openings: a [`tournament::matches::AnySetup`]), its dial's
//! [`Ladder`] and its committed calibration (embedded by the game's own
//! crate). `cargo xtask match`, `calibrate`, `rate`, `fit`,
//! `fit-validation` and the web app find a game here by name, and nowhere
//! else.
//!
//! Unpublished and GPL-3.0-or-later (it links `games-chess`). A game of
//! your own needs none of it: the published `tournament` crate takes any
//! game's setup (docs/your-game.md).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use strength::dial::{Calibration, DialError};
use tournament::ladder::Ladder;
use tournament::matches::AnySetup;

pub mod ladders;
mod perfect;
mod setups;
pub mod uci;

pub use setups::{
    chess_roster, chess_setup, connect4_roster, connect4_setup, gobang_roster, gobang_setup, tictactoe_roster,
    tictactoe_setup,
};
pub use tournament::RosterMaker;

/// Why a built-in game or its parts could not be had.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// No built-in game has this name.
    #[error("unknown game {name:?}: one of {}", names().join(", "))]
    UnknownGame {
        /// The name asked for.
        name: String,
    },
    /// The committed calibration does not parse.
    #[error("the committed calibration of {game} ({path}) does not parse: {message}")]
    Calibration {
        /// The game.
        game: String,
        /// Where it is committed.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// The committed calibration parses but is not a dial.
    #[error("the committed calibration of {game} is not a usable dial: {source}")]
    Dial {
        /// The game.
        game: String,
        /// Why.
        source: DialError,
    },
}

/// A built-in game: its name, setup, ladder and calibration.
#[derive(Debug)]
pub struct BuiltinGame {
    name: &'static str,
    setup: fn() -> Result<Arc<dyn AnySetup>, RegistryError>,
    ladder: fn() -> Ladder,
    quick_pairs: usize,
    calibration_json: &'static str,
    calibration_file: &'static str,
}

impl BuiltinGame {
    /// The game's name (`tictactoe`, `connect4`, `gobang`, `chess`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The game's setup for matches, calibration and rating, with its type
    /// erased (the typed one: [`tictactoe_setup`] and its siblings).
    pub fn setup(&self) -> Result<Arc<dyn AnySetup>, RegistryError> {
        (self.setup)()
    }

    /// The dial's ladder at its default scale.
    pub fn ladder(&self) -> Ladder {
        (self.ladder)()
    }

    /// Pairs per matchup of `calibrate --quick`.
    pub fn quick_pairs(&self) -> usize {
        self.quick_pairs
    }

    /// The committed calibration (embedded in the game's crate), parsed
    /// once.
    pub fn calibration(&self) -> Result<Calibration, RegistryError> {
        static PARSED: [OnceLock<Result<Calibration, String>>; 4] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let index = GAMES.iter().position(|g| g.name == self.name).expect("a registered game");
        PARSED[index]
            .get_or_init(|| Calibration::from_json(self.calibration_json).map_err(|e| e.to_string()))
            .clone()
            .map_err(|message| RegistryError::Calibration {
                game: self.name.to_string(),
                path: self.calibration_file.to_string(),
                message,
            })
    }

    /// Where `cargo xtask calibrate` writes the calibration the game's
    /// crate embeds (relative to the workspace root): the next build
    /// serves it.
    pub fn calibration_file(&self) -> &'static str {
        self.calibration_file
    }

    /// [`BuiltinGame::calibration_file`] under the workspace root.
    pub fn calibration_path(&self) -> PathBuf {
        workspace_root().join(self.calibration_file)
    }
}

/// The workspace's root directory (this crate sits at `crates/registry`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The built-in games.
pub static GAMES: [BuiltinGame; 4] = [
    BuiltinGame {
        name: "tictactoe",
        setup: || Ok(Arc::new(tictactoe_setup()?)),
        ladder: ladders::tictactoe,
        quick_pairs: 25,
        calibration_json: games_small::calibrations::TICTACTOE,
        calibration_file: "crates/games-small/calibration/tictactoe.json",
    },
    BuiltinGame {
        name: "connect4",
        setup: || Ok(Arc::new(connect4_setup()?)),
        ladder: ladders::connect4,
        quick_pairs: 5,
        calibration_json: games_small::calibrations::CONNECT4,
        calibration_file: "crates/games-small/calibration/connect4.json",
    },
    BuiltinGame {
        name: "gobang",
        setup: || Ok(Arc::new(gobang_setup()?)),
        ladder: ladders::gobang,
        quick_pairs: 3,
        calibration_json: games_small::calibrations::GOBANG,
        calibration_file: "crates/games-small/calibration/gobang.json",
    },
    BuiltinGame {
        name: "chess",
        setup: || Ok(Arc::new(chess_setup()?)),
        ladder: ladders::chess,
        quick_pairs: 1,
        calibration_json: games_chess::uci::CALIBRATION_JSON,
        calibration_file: "crates/games-chess/calibration/chess.json",
    },
];

/// The names of the built-in games, in [`GAMES`]' order.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// The built-in game called `name`.
pub fn game(name: &str) -> Result<&'static BuiltinGame, RegistryError> {
    GAMES.iter().find(|g| g.name == name).ok_or_else(|| RegistryError::UnknownGame { name: name.to_string() })
}
