//! A UCI (Universal Chess Interface) engine on the library's search.
//!
//! [`Engine`] turns the lines a chess GUI sends into replies, written to any
//! [`Write`](std::io::Write) sink: `kibitz` (the binary) connects it to standard input and
//! output with [`run`]; tests connect it to a buffer. Searches run on their
//! own thread, so `isready`, `stop` and the other commands are answered while
//! the engine thinks.
//!
//! Supported commands: `uci`, `debug on|off`, `isready`, `setoption`,
//! `register` (ignored), `ucinewgame`, `position startpos|fen … [moves …]`,
//! `go` (`depth`, `nodes`, `movetime`, `wtime`/`btime`/`winc`/`binc`/
//! `movestogo`, `mate`, `infinite`, `ponder`; `searchmoves` is accepted but
//! every move is searched), `stop`, `ponderhit` and `quit`.
//!
//! The engine never panics on input: a line it cannot use gets an
//! `info string error: …` reply and changes nothing (a bad `position` keeps
//! the previous position). In particular (see [docs/reliability.md](https://github.com/game-search/backup-rules/blob/main/docs/reliability.md)):
//!
//! * FENs are checked strictly (`KQkqq`, a rank `215`, variant fields are
//!   refused) and moves must be exactly the UCI form of a legal move (no
//!   SAN, no `e1h1` castling, no `0000`); errors quote at most a short
//!   prefix of the input, and lines over [`MAX_LINE_BYTES`] are skipped;
//! * a `Hash` size that cannot be allocated keeps the old table, with an
//!   `info string`; only `Hash` reallocates a table, and only `ucinewgame`
//!   and `Clear Hash` empty it ([`Brain`]);
//! * every `go` that is not `infinite` or `ponder` ends by itself: a clock
//!   given only for the other side, or only increments, still gives a time
//!   budget ([`time_budget`]), and depths beyond [`MAX_DEPTH`] are clamped;
//! * scores are centipawns (or mates) in the engine's scale; the rules whose
//!   values are not centipawns (EMM, product propagation, Rminimax at a
//!   finite θ) report their value in an `info string` instead
//!   ([`Iteration::lines`]);
//! * `UCI_Elo` and `HumanElo` are treated alike: each is advertised with
//!   the range a GUI may send (`UCI_Elo` the calibrated range cut at 0,
//!   [`elo_range`]; `HumanElo` 0, off, to the human model's top), a value
//!   outside what the engine plays is clamped into it (`HumanElo` 1 to 599
//!   to the model's lowest rating, 600), and the `info string` saying so
//!   comes with the next search's output, where a GUI (python-chess among
//!   them) reads `info` lines, not as unsolicited output after
//!   `setoption`; malformed values are refused.
//!
//! `UCI_LimitStrength` and `UCI_Elo` play the strength dial of the
//! `strength` crate over the chess calibration compiled into the engine
//! ([`CALIBRATION_JSON`]): every `go` then plays the dial's setting for the
//! Elo ([`setting_at`], [`StrengthSetting`]) exactly as that crate's agent
//! would, with a generator seeded by [`move_seed`].
//!
//! The parts: [`Engine`] and its loop [`run`] (`engine.rs`), the commands'
//! syntax ([`parse_command`]), the options (`setoption`, [`Settings`]), a
//! `go` turned into a [`Plan`] with a time [`Budget`], the search itself
//! ([`Brain`]: one observed iterative-deepening run of the library's
//! search per `go`; or the strength setting, `limit.rs`), and the output
//! ([`Iteration::info_line`], [`Score`]).
//!
//! ```
//! use games_chess::uci::Engine;
//! use std::sync::{Arc, Mutex};
//!
//! # #[derive(Clone, Default)] struct Buf(Arc<Mutex<Vec<u8>>>);
//! # impl std::io::Write for Buf {
//! #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//! #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! # }
//! let out = Buf::default();
//! let mut engine = Engine::new(out.clone());
//! engine.handle_line("position startpos moves e2e4");
//! engine.handle_line("go depth 3");
//! engine.wait();
//! let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
//! assert!(text.lines().last().unwrap().starts_with("bestmove "));
//! ```

mod brain;
mod command;
mod engine;
mod error;
mod limit;
mod options;
mod output;
mod plan;
mod position;
mod settings;
#[cfg(test)]
mod tests;
mod time;

pub use brain::{Brain, CP_RANGE, Decision, MAX_DEPTH, MN_PARAMS, PREDICTIVE_PS, PROBABILITY_TEMPERATURE};
pub use command::{Command, GoParams, ParseError, PositionBase, parse_command};
pub use engine::{ENGINE_NAME, Engine, Flow, MAX_LINE_BYTES, run};
pub use error::UciError;
pub use limit::{
    CALIBRATION_JSON, EloRange, PREFERRED_DEFAULT_ELO, STRENGTH_TABLE_MIB, StrengthError, StrengthSetting, elo_range,
    move_seed, setting_at, strength_dial,
};
pub use options::{MAX_HASH_MIB, MAX_SEED, MAX_THREADS};
pub use output::{Iteration, Score, mate_or_cp, uci_move};
pub use plan::Plan;
pub use position::build_position;
pub use settings::{BackupKind, FULL_WIDTH_DEPTH_CAP, IOM_DEPTH_CAP, Settings};
pub use time::{Budget, DEFAULT_MOVES_TO_GO, MOVE_OVERHEAD_MS, UNKNOWN_CLOCK_MS, time_budget};
