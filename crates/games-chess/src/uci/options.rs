//! The engine's UCI options: how `uci` declares them and what a
//! `setoption` asks for, checked against their ranges.

use search_core::{GameError, ParamError};

use super::error::UciError;
use super::limit::elo_range;
use super::settings::{BackupKind, Settings};

/// Largest `Hash` value, in MiB.
pub const MAX_HASH_MIB: usize = 1024;

/// Largest `Threads` value.
pub const MAX_THREADS: usize = 64;

/// Largest `Seed` value (GUIs store spin values as 32-bit integers).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// The `option name …` lines of the reply to `uci`, with the defaults of
/// [`Settings::default`]. `UCI_LimitStrength` and `UCI_Elo` (its range the
/// embedded calibration's) are offered only if the calibration is usable.
pub(super) fn declarations() -> Vec<String> {
    let d = Settings::default();
    let vars: String = BackupKind::ALL.iter().map(|k| format!(" var {}", k.name())).collect();
    let mut lines = vec![
        format!("option name Hash type spin default {} min 1 max {MAX_HASH_MIB}", d.hash_mib),
        "option name Clear Hash type button".to_string(),
        format!("option name Threads type spin default {} min 1 max {MAX_THREADS}", d.threads),
        "option name Ponder type check default false".to_string(),
        format!("option name Backup type combo default {}{vars}", d.backup),
        format!("option name Theta type string default {}", d.theta),
        format!("option name Seed type spin default {} min 0 max {MAX_SEED}", d.seed),
        "option name TablebasePath type string default <empty>".to_string(),
        "option name OwnBook type check default false".to_string(),
        "option name BookFile type string default <empty>".to_string(),
    ];
    lines.push(format!(
        "option name HumanElo type spin default {} min 0 max {}",
        d.human_elo,
        crate::human::RATING_RANGE.1
    ));
    lines.push(format!("option name HumanPick type combo default {} var sample var mode", d.human_pick.name()));
    if let Some(r) = elo_range() {
        lines.push("option name UCI_LimitStrength type check default false".to_string());
        lines.push(format!("option name UCI_Elo type spin default {} min {} max {}", d.elo, r.min, r.max));
    }
    lines
}

/// What a valid `setoption` asks the engine to do. Each change touches only
/// what it names: only [`Hash`](OptionChange::Hash) reallocates the
/// transposition table, only [`ClearHash`](OptionChange::ClearHash) (and
/// `ucinewgame`) empties it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum OptionChange {
    /// Nothing: the value is the current one, or the option changes nothing
    /// (`Ponder`).
    Nothing,
    /// Another thread count for the alpha-beta search (Lazy SMP).
    Threads(usize),
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
    /// `UCI_LimitStrength` on or off.
    LimitStrength(bool),
    /// Another `UCI_Elo` (within the calibrated range).
    Elo(i64),
    /// `TablebasePath`: the directory of the endgame tables to probe
    /// (empty: none).
    TablebasePath(String),
    /// `OwnBook` on or off.
    OwnBook(bool),
    /// `BookFile`: the Polyglot book to play from (empty: none).
    BookFile(String),
    /// `HumanElo`: play like a Lichess player of this rating (0: off).
    HumanElo(u32),
    /// `HumanPick`: sample the human model's move or play its mode.
    HumanPick(crate::human::Pick),
}

/// A string option's value: `<empty>` (or nothing) is the empty string.
fn path_value(value: Option<&str>) -> String {
    match value {
        None | Some("<empty>") => String::new(),
        Some(v) => v.to_string(),
    }
}

/// Reads `setoption name <name> [value <value>]` against the `current`
/// settings: option names are case-insensitive, values are checked. The
/// note, if any, is for an `info string` line: a `UCI_Elo` or `HumanElo`
/// outside the values the engine plays is clamped into them (GUIs offer
/// their own Elo ranges, and the nearest strength is what a user asking for
/// more or less wants), and the note says so; the engine gives it with the
/// next search's output, where a GUI reads `info` lines.
///
/// Errors: an unknown option, a missing or invalid value
/// ([`UciError::Option`]); names and values are quoted shortened.
pub(super) fn parse_option(
    current: &Settings,
    name: &str,
    value: Option<&str>,
) -> Result<(OptionChange, Option<String>), UciError> {
    let bad = |reason: String| UciError::Option { name: GameError::shorten(name), reason };
    let key = name.trim().to_ascii_lowercase();
    let value = value.map(str::trim).filter(|s| !s.is_empty());
    let need = || value.ok_or_else(|| bad("needs `value …`".to_string()));
    let calibrated = || {
        elo_range().ok_or_else(|| {
            bad(super::limit::strength_dial()
                .err()
                .map_or_else(|| "no calibration of chess is embedded".to_string(), |e| e.to_string()))
        })
    };
    let mut note = None;
    let change = match key.as_str() {
        "hash" => {
            let mib = parse_spin(need()?, 1, MAX_HASH_MIB as u64).map_err(|e| bad(e.to_string()))? as usize;
            (mib != current.hash_mib).then_some(OptionChange::Hash(mib))
        }
        "seed" => {
            let seed = parse_spin(need()?, 0, MAX_SEED).map_err(|e| bad(e.to_string()))?;
            (seed != current.seed).then_some(OptionChange::Seed(seed))
        }
        "threads" => {
            let n = parse_spin(need()?, 1, MAX_THREADS as u64).map_err(|e| bad(e.to_string()))? as usize;
            (n != current.threads).then_some(OptionChange::Threads(n))
        }
        "ponder" => {
            parse_check(need()?).map_err(|e| bad(e.to_string()))?;
            None
        }
        "uci_limitstrength" => {
            calibrated()?;
            let on = parse_check(need()?).map_err(|e| bad(e.to_string()))?;
            (on != current.limit_strength).then_some(OptionChange::LimitStrength(on))
        }
        "uci_elo" => {
            let range = calibrated()?;
            let asked = parse_integer(need()?).map_err(bad)?;
            let elo = range.clamp(asked);
            note = clamp_note("UCI_Elo", asked, elo, &format!("the calibrated range {} to {}", range.min, range.max));
            (elo != current.elo).then_some(OptionChange::Elo(elo))
        }
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
        "humanelo" => {
            let asked = parse_integer(need()?).map_err(bad)?;
            let elo = human_elo(asked);
            note = clamp_note("HumanElo", asked, elo, &human_elo_range());
            if elo != 0 {
                crate::human::HumanModel::embedded().map_err(|e| bad(e.to_string()))?;
            }
            (elo != current.human_elo).then_some(OptionChange::HumanElo(elo))
        }
        "humanpick" => {
            let pick = need()?.parse::<crate::human::Pick>().map_err(|e| bad(e.to_string()))?;
            (pick != current.human_pick).then_some(OptionChange::HumanPick(pick))
        }
        "clear hash" => Some(OptionChange::ClearHash),
        "tablebasepath" => Some(OptionChange::TablebasePath(path_value(value))),
        "bookfile" => Some(OptionChange::BookFile(path_value(value))),
        "ownbook" => Some(OptionChange::OwnBook(parse_check(need()?).map_err(|e| bad(e.to_string()))?)),
        _ => return Err(bad("unknown option".to_string())),
    };
    Ok((change.unwrap_or(OptionChange::Nothing), note))
}

/// Parses an integer option value (a rating); the error is the reason of a
/// [`UciError::Option`].
fn parse_integer(text: &str) -> Result<i64, String> {
    text.parse().map_err(|_| format!("expected an integer, got {:?}", GameError::shorten(text)))
}

/// The `HumanElo` the engine plays for `asked`: 0 (off) for 0 or less, else
/// the rating clamped into the human model's range.
fn human_elo(asked: i64) -> u32 {
    let (lo, hi) = crate::human::RATING_RANGE;
    if asked <= 0 { 0 } else { asked.clamp(lo.ceil() as i64, hi.floor() as i64) as u32 }
}

/// The values `HumanElo` takes, in words.
fn human_elo_range() -> String {
    let (lo, hi) = crate::human::RATING_RANGE;
    format!("the human model's range {lo:.0} to {hi:.0} (0: off)")
}

/// The note of a rating option whose value was clamped (`None` if it was
/// taken as asked).
fn clamp_note(option: &str, asked: i64, used: impl Into<i64>, range: &str) -> Option<String> {
    let used = used.into();
    (used != asked).then(|| format!("{option} {asked} is outside {range}: using {used}"))
}

/// Why an option's value is refused (the reason of a [`UciError::Option`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ValueError {
    /// A `check` value that is not `true` or `false`.
    #[error("expected true or false, got {0:?}")]
    Check(String),
    /// A `spin` value that is not an integer within `min..=max`.
    #[error("expected an integer from {min} to {max}, got {got:?}")]
    Spin {
        /// The option's minimum.
        min: u64,
        /// Its maximum.
        max: u64,
        /// The value as sent (shortened).
        got: String,
    },
}

/// Parses a `check` value: `true` or `false`, case-insensitive.
fn parse_check(text: &str) -> Result<bool, ValueError> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ValueError::Check(GameError::shorten(text))),
    }
}

/// Parses a `spin` value within `min..=max`. Out-of-range values are
/// refused, not clamped (Stockfish ignores them; the engine says why);
/// the ratings `UCI_Elo` and `HumanElo` alone are clamped (see
/// [`parse_option`]).
fn parse_spin(text: &str, min: u64, max: u64) -> Result<u64, ValueError> {
    match text.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ValueError::Spin { min, max, got: GameError::shorten(text) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The change only.
    fn parse_option(current: &Settings, name: &str, value: Option<&str>) -> Result<OptionChange, UciError> {
        super::parse_option(current, name, value).map(|c| c.0)
    }

    #[test]
    fn options_ask_for_the_right_change() {
        let s = Settings::default();
        assert_eq!(parse_option(&s, "Hash", Some("16")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, " hash ", Some(" 64 ")), Ok(OptionChange::Hash(64)));
        assert_eq!(parse_option(&s, "Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(parse_option(&s, "Threads", Some("1")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, "Threads", Some("2")), Ok(OptionChange::Threads(2)));
        assert!(parse_option(&s, "Threads", Some("0")).is_err());
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
        for name in [
            "Hash",
            "Clear Hash",
            "Threads",
            "Ponder",
            "Backup",
            "Theta",
            "Seed",
            "UCI_LimitStrength",
            "UCI_Elo",
            "TablebasePath",
            "OwnBook",
            "BookFile",
        ] {
            let n = lines.iter().filter(|l| l.starts_with(&format!("option name {name} type "))).count();
            assert_eq!(n, 1, "{name}");
        }
    }

    #[test]
    fn strength_options_are_checked_and_elo_clamped() {
        let s = Settings::default();
        let r = elo_range().unwrap();
        assert_eq!(s.elo, r.default);
        assert_eq!(
            super::parse_option(&s, "uci_limitstrength", Some("TRUE")),
            Ok((OptionChange::LimitStrength(true), None))
        );
        assert_eq!(parse_option(&s, "UCI_LimitStrength", Some("false")), Ok(OptionChange::Nothing));
        assert_eq!(parse_option(&s, "UCI_Elo", Some(&r.default.to_string())), Ok(OptionChange::Nothing));
        assert_eq!(
            parse_option(&s, "UCI_Elo", Some(&r.min.to_string())),
            Ok(if r.min == s.elo { OptionChange::Nothing } else { OptionChange::Elo(r.min) })
        );
        let (change, note) = super::parse_option(&s, "UCI_Elo", Some(&(r.max + 1).to_string())).unwrap();
        assert_eq!(change, if r.max == s.elo { OptionChange::Nothing } else { OptionChange::Elo(r.max) });
        assert!(note.is_some_and(|n| n.contains("outside the calibrated range")));
        let (change, note) = super::parse_option(&s, "UCI_Elo", Some("-99999")).unwrap();
        assert_eq!(change, if r.min == s.elo { OptionChange::Nothing } else { OptionChange::Elo(r.min) });
        assert!(note.is_some());
        for (name, value) in [
            ("UCI_Elo", None),
            ("UCI_Elo", Some("strong")),
            ("UCI_Elo", Some("1500.5")),
            ("UCI_Elo", Some("99999999999999999999999")),
            ("UCI_LimitStrength", Some("yes")),
            ("UCI_LimitStrength", None),
        ] {
            assert!(matches!(parse_option(&s, name, value), Err(UciError::Option { .. })), "{name} {value:?}");
        }
    }
}
