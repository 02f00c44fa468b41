//! The engine's settings: the backup rule it searches with, the table size,
//! θ, the seed and the strength limit (what the UCI options set).

use std::fmt;
use std::str::FromStr;

use search_core::ParamError;

/// Depth cap of the full-width rules when `go` gives only time (or nothing):
/// each ply multiplies their work by the branching factor (about 35).
pub const FULL_WIDTH_DEPTH_CAP: u32 = 3;

/// Depth cap of IOM (searched with its sound windows, PIOM) in the same
/// case.
pub const IOM_DEPTH_CAP: u32 = 5;

/// The backup rule the engine searches with (the `Backup` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BackupKind {
    /// Minimax with alpha-beta and every engine enhancement (the default).
    #[default]
    AlphaBeta,
    /// Plain minimax, full width (a reference: same values, many more nodes).
    Minimax,
    /// IOM (iterative optimal minimax) with its sound windows (PIOM).
    Iom,
    /// Error minimax (EMM), full width.
    Emm,
    /// Rminimax, full width; the move is sampled from its policy with θ
    /// (`Theta`) and the seeded generator (`Seed`).
    Rminimax,
    /// Predictive play with `PS` = [`PREDICTIVE_PS`](super::PREDICTIVE_PS), full width.
    Predictive,
    /// Product propagation, full width.
    Product,
    /// M & N ([`MN_PARAMS`](super::MN_PARAMS)), full width.
    MAndN,
}

impl BackupKind {
    /// Every rule, in the order the `Backup` combo lists them.
    pub const ALL: [BackupKind; 8] = [
        BackupKind::AlphaBeta,
        BackupKind::Minimax,
        BackupKind::Iom,
        BackupKind::Emm,
        BackupKind::Rminimax,
        BackupKind::Predictive,
        BackupKind::Product,
        BackupKind::MAndN,
    ];

    /// The name used by the `Backup` option.
    pub fn name(self) -> &'static str {
        match self {
            BackupKind::AlphaBeta => "alphabeta",
            BackupKind::Minimax => "minimax",
            BackupKind::Iom => "iom",
            BackupKind::Emm => "emm",
            BackupKind::Rminimax => "rminimax",
            BackupKind::Predictive => "predictive",
            BackupKind::Product => "product",
            BackupKind::MAndN => "mn",
        }
    }

    /// The rule's position in [`BackupKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The depth to stop at when `go` sets no depth, if the rule is too slow
    /// to deepen until the clock runs out.
    pub fn default_depth_cap(self) -> Option<u32> {
        match self {
            BackupKind::AlphaBeta => None,
            BackupKind::Iom => Some(IOM_DEPTH_CAP),
            _ => Some(FULL_WIDTH_DEPTH_CAP),
        }
    }
}

impl fmt::Display for BackupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackupKind {
    type Err = ParamError;

    /// A rule name, case-insensitive (`m&n` and `m_and_n` also name `mn`).
    fn from_str(s: &str) -> Result<Self, ParamError> {
        let lower = s.trim().to_ascii_lowercase();
        let alias = match lower.as_str() {
            "m&n" | "m_and_n" | "mandn" => "mn",
            "alpha-beta" | "ab" => "alphabeta",
            other => other,
        };
        BackupKind::ALL.into_iter().find(|k| k.name() == alias).ok_or_else(|| {
            let names: Vec<&str> = BackupKind::ALL.iter().map(|k| k.name()).collect();
            ParamError::new(
                "Backup",
                format!("unknown rule {:?}: expected one of {}", search_core::GameError::shorten(s), names.join(", ")),
            )
        })
    }
}

/// What the engine's options set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Transposition table size in MiB (`Hash`).
    pub hash_mib: usize,
    /// The backup rule (`Backup`).
    pub backup: BackupKind,
    /// Rminimax's inverse temperature θ (`Theta`), in units of the cost
    /// scale: a win costs 0, a draw 1, a loss 2, and a horizon position
    /// `1 − cp / CP_RANGE`, clipped to `[0, 2]`.
    pub theta: f64,
    /// Seed of the search, of Rminimax's sampling and of the strength
    /// setting's choices (`Seed`).
    pub seed: u64,
    /// Play the strength dial's setting for [`elo`](Settings::elo) instead
    /// of the backup rule (`UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The strength asked for, within the calibrated range (`UCI_Elo`).
    pub elo: i64,
    /// Threads of the alpha-beta search (`Threads`): Lazy SMP sharing one
    /// table when more than one; the other rules search on one thread.
    pub threads: usize,
    /// Play like a Lichess player of this rating (`HumanElo`; 0: off).
    /// Takes precedence over `UCI_LimitStrength` and the backup rule.
    pub human_elo: u32,
    /// How the human model picks its move (`HumanPick`).
    pub human_pick: crate::human::Pick,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: 16,
            backup: BackupKind::AlphaBeta,
            theta: 30.0,
            seed: 0,
            limit_strength: false,
            elo: super::limit::default_elo(),
            threads: 1,
            human_elo: 0,
            human_pick: crate::human::Pick::Sample,
        }
    }
}
