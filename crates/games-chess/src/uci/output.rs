//! What the engine prints: scores, `info` lines, moves and `bestmove`, in
//! UCI form, and the one function that writes a line.

use std::fmt;
use std::io::Write;
use std::sync::Mutex;
use std::time::Duration;

use search_core::{MAX_PLY, WIN_SCORE};
use shakmaty::{CastlingMode, Move};

use super::brain::Decision;

/// Largest `score cp` printed for the rules that do not report mates.
const CP_CLAMP: f64 = 30_000.0;

/// A score as UCI reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's point of view.
    Cp(i64),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i64),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Converts a minimax value (the root mover's view) into a UCI score: values
/// within [`MAX_PLY`] of [`WIN_SCORE`] are mates found `WIN_SCORE − |v|`
/// plies away, reported in moves (a mate in 1 is 1 ply, a mate in 2 is 3
/// plies); the sign says who mates.
///
/// ```
/// use games_chess::uci::{mate_or_cp, Score};
/// use search_core::WIN_SCORE;
/// assert_eq!(mate_or_cp(WIN_SCORE - 1.0), Score::Mate(1));
/// assert_eq!(mate_or_cp(WIN_SCORE - 3.0), Score::Mate(2));
/// assert_eq!(mate_or_cp(-(WIN_SCORE - 2.0)), Score::Mate(-1));
/// assert_eq!(mate_or_cp(-(WIN_SCORE - 0.0)), Score::Mate(0));
/// assert_eq!(mate_or_cp(37.4), Score::Cp(37));
/// ```
pub fn mate_or_cp(value: f64) -> Score {
    let threshold = WIN_SCORE - f64::from(MAX_PLY);
    if value.is_finite() && value.abs() >= threshold {
        let plies = (WIN_SCORE - value.abs()).max(0.0) as i64;
        let moves = (plies + 1) / 2;
        return Score::Mate(if value > 0.0 { moves } else { -moves });
    }
    Score::Cp(clamp_cp(value))
}

/// Centipawns rounded and clamped to what the engine prints (NaN: 0).
pub(super) fn clamp_cp(cp: f64) -> i64 {
    if cp.is_nan() { 0 } else { cp.clamp(-CP_CLAMP, CP_CLAMP).round() as i64 }
}

/// One completed iteration (or the final answer) of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Iteration {
    /// Depth in plies.
    pub depth: u32,
    /// The score from the engine's point of view, in centipawns or moves
    /// to mate; `None` when the rule's value is not a centipawn score (the
    /// `info` line then has no `score`, and `rule_value` says what the
    /// value is).
    pub score: Option<Score>,
    /// The rule's own value, described, for the rules whose values are not
    /// centipawns (EMM, product propagation, Rminimax at a finite θ):
    /// printed as an `info string` line before the `info` line.
    pub rule_value: Option<String>,
    /// Nodes searched since the `go`, all iterations together.
    pub nodes: u64,
    /// Tablebase hits since the `go` (printed as `tbhits` when not 0).
    pub tbhits: u64,
    /// Time since the `go`.
    pub time: Duration,
    /// The principal variation (legal moves from the root).
    pub pv: Vec<Move>,
}

impl Iteration {
    /// The report of a decision taken without a search (a book move, a
    /// random move, a game already over): depth 0, no nodes, `time` since
    /// the `go`, `pv` as given.
    pub fn unsearched(score: Option<Score>, time: Duration, pv: Vec<Move>) -> Iteration {
        Iteration { depth: 0, score, rule_value: None, nodes: 0, tbhits: 0, time, pv }
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros).min(u128::from(u64::MAX)) as u64
    }

    /// The `info` line: `info depth D score … nodes N nps N [tbhits N] time
    /// MS pv …` (without `score …` when [`score`](Iteration::score) is
    /// `None`, without `tbhits` when no tablebase was hit).
    pub fn info_line(&self) -> String {
        let mut s = format!("info depth {}", self.depth);
        if let Some(score) = self.score {
            s.push_str(&format!(" score {score}"));
        }
        s.push_str(&format!(" nodes {} nps {}", self.nodes, self.nps()));
        if self.tbhits > 0 {
            s.push_str(&format!(" tbhits {}", self.tbhits));
        }
        s.push_str(&format!(" time {}", self.time.as_millis()));
        if !self.pv.is_empty() {
            s.push_str(" pv");
            for mv in &self.pv {
                s.push(' ');
                s.push_str(&uci_move(*mv));
            }
        }
        s
    }
}

impl Iteration {
    /// Every line that reports the iteration: `info string depth D <rule
    /// value>` when the rule's value is not a centipawn score, then the
    /// [`info_line`](Iteration::info_line).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::with_capacity(2);
        if let Some(value) = &self.rule_value {
            lines.push(format!("info string depth {} {value}", self.depth));
        }
        lines.push(self.info_line());
        lines
    }
}

/// `mv` in UCI notation (castling as the king's two-square move).
pub fn uci_move(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// The `bestmove` line of a decision (`bestmove 0000` when there is no
/// move), with the expected reply as `ponder` if there is one.
pub(super) fn bestmove_line(decision: &Decision) -> String {
    let mut line = format!("bestmove {}", decision.best.map_or_else(|| "0000".to_string(), uci_move));
    if let Some(p) = decision.ponder {
        line.push_str(" ponder ");
        line.push_str(&uci_move(p));
    }
    line
}

/// Writes one line and flushes. A closed output is ignored: the engine has
/// nobody left to tell.
pub(super) fn say<W: Write>(out: &Mutex<W>, line: &str) {
    let mut w = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}
