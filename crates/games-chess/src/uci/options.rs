//! The engine's UCI options: how `uci` declares them and what a
//! `setoption` asks for, checked against their ranges.

use search_core::{GameError, ParamError};

use super::error::UciError;
use super::settings::{BackupKind, Settings};

/// Largest `Hash` value, in MiB.
pub const MAX_HASH_MIB: usize = 1024;

/// Largest `Seed` value (GUIs store spin values as 32-bit integers).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// The `option name …` lines of the reply to `uci`, with the defaults of
/// [`Settings::default`].
pub(super) fn declarations() -> Vec<String> {
    let d = Settings::default();
    let vars: String = BackupKind::ALL.iter().map(|k| format!(" var {}", k.name())).collect();
    vec![
        format!("option name Hash type spin default {} min 1 max {MAX_HASH_MIB}", d.hash_mib),
        "option name Clear Hash type button".to_string(),
        "option name Threads type spin default 1 min 1 max 1".to_string(),
        "option name Ponder type check default false".to_string(),
        format!("option name Backup type combo default {}{vars}", d.backup),
        format!("option name Theta type string default {}", d.theta),
        format!("option name Seed type spin default {} min 0 max {MAX_SEED}", d.seed),
    ]
}

/// What a valid `setoption` asks the engine to do. Each change touches only
/// what it names: only [`Hash`](OptionChange::Hash) reallocates the
/// transposition table, only [`ClearHash`](OptionChange::ClearHash) (and
/// `ucinewgame`) empties it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum OptionChange {
    /// Nothing: the value is the current one, or the option changes nothing
    /// (`Threads 1`, `Ponder`).
    Nothing,
    /// `Clear Hash`: forget the transposition table.
    ClearHash,
    /// A new transposition-table size in MiB; the search is kept.
    Hash(usize),
    /// Another backup rule (the tables of the rules used before are kept).
    Backup(BackupKind),
    /// Another θ for Rminimax (no table involved).
    Theta(f64),
    /// Another seed for Rminimax's sampling (no table involved).
    Seed(u64),
}

/// Reads `setoption name <name> [value <value>]` against the `current`
/// settings: option names are case-insensitive, values are checked.
///
/// Errors: an unknown option, a missing or invalid value
/// ([`UciError::Option`]); names and values are quoted shortened.
pub(super) fn parse_option(current: &Settings, name: &str, value: Option<&str>) -> Result<OptionChange, UciError> {
    let bad = |reason: String| UciError::Option { name: GameError::shorten(name), reason };
    let key = name.trim().to_ascii_lowercase();
    let value = value.map(str::trim).filter(|s| !s.is_empty());
    let need = || value.ok_or_else(|| bad("needs `value …`".to_string()));
    let change = match key.as_str() {
        "hash" => {
            let mib = parse_spin(need()?, 1, MAX_HASH_MIB as u64).map_err(bad)? as usize;
            (mib != current.hash_mib).then_some(OptionChange::Hash(mib))
        }
        "seed" => {
            let seed = parse_spin(need()?, 0, MAX_SEED).map_err(bad)?;
            (seed != current.seed).then_some(OptionChange::Seed(seed))
        }
        "threads" => {
            parse_spin(need()?, 1, 1).map_err(|e| bad(format!("{e} (only one thread is supported)")))?;
            None
        }
        "ponder" => match need()?.to_ascii_lowercase().as_str() {
            "true" | "false" => None,
            other => return Err(bad(format!("expected true or false, got {:?}", GameError::shorten(other)))),
        },
        "backup" => {
            let backup: BackupKind = need()?.parse().map_err(|e: ParamError| bad(e.reason))?;
            (backup != current.backup).then_some(OptionChange::Backup(backup))
        }
        "theta" => {
            let v = need()?;
            let theta: f64 =
                v.parse().map_err(|_| bad(format!("expected a number, got {:?}", GameError::shorten(v))))?;
            let theta = search_core::backup::rminimax::check_theta(theta).map_err(|e| bad(e.reason))?;
            (theta != current.theta).then_some(OptionChange::Theta(theta))
        }
        "clear hash" => Some(OptionChange::ClearHash),
        _ => return Err(bad("unknown option".to_string())),
    };
    Ok(change.unwrap_or(OptionChange::Nothing))
}

/// Parses a `spin` value within `min..=max`. Out-of-range values are
/// refused, not clamped (Stockfish ignores them; the engine says why).
fn parse_spin(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("expected an integer from {min} to {max}, got {:?}", GameError::shorten(text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_ask_for_the_right_change() {
        let s = Settings::default();
        assert_eq!(parse_option(&s, "Hash", Some("16")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, " hash ", Some(" 64 ")), Ok(OptionChange::Hash(64)));
        assert_eq!(parse_option(&s, "Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(parse_option(&s, "Threads", Some("1")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, "Ponder", Some("TRUE")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, "Seed", Some("7")), Ok(OptionChange::Seed(7)));
        assert_eq!(parse_option(&s, "Seed", Some("0")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, "backup", Some("IOM")), Ok(OptionChange::Backup(BackupKind::Iom)));
        assert_eq!(parse_option(&s, "backup", Some("alphabeta")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, "Theta", Some("2.5")), Ok(OptionChange::Theta(2.5)));
        for (name, value) in [("Hash", Some("0")), ("Hash", None), ("Theta", Some("0")), ("Nope", Some("1"))] {
            assert!(matches!(parse_option(&s, name, value), Err(UciError::Option { .. })), "{name} {value:?}");
        }
    }

    #[test]
    fn declarations_list_every_option_once() {
        let lines = declarations();
        for name in ["Hash", "Clear Hash", "Threads", "Ponder", "Backup", "Theta", "Seed"] {
            let n = lines.iter().filter(|l| l.starts_with(&format!("option name {name} type "))).count();
            assert_eq!(n, 1, "{name}");
        }
    }
}
