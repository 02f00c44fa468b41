//! Time management: from the manager's `INFO` limits to the time of one
//! move.
//!
//! The move's *limit* is the smaller of `timeout_turn` and, when the match
//! has a clock (`timeout_match` > 0), a share of the time left
//! (`time_left / 20`, and never more than what is left after a reserve). A
//! safety margin (a fifth of the limit, at least 0.5 ms and at most 150 ms)
//! is kept: the brain answers by the *deadline*, the limit less the margin.
//! The search's own time limit ends a little earlier still, so that it has
//! returned by the deadline. `timeout_turn 0` means "as fast as possible":
//! a shallow search (depth 2), with at most a second as a guard.
//!
//! ```
//! use std::time::Duration;
//! use gomocup::clock::TimeControl;
//! let t = TimeControl { timeout_turn: 5, ..TimeControl::default() };
//! let b = t.budget();
//! assert!(b.search < b.deadline && b.deadline < Duration::from_millis(5));
//! ```

use std::time::Duration;

/// Moves the time left is shared over.
const MOVES_TO_GO: u64 = 20;
/// The longest move when the manager asks for "as fast as possible".
const FAST_GUARD_MS: u64 = 1000;
/// Time never spent from the match clock, in milliseconds.
const MATCH_RESERVE_MS: u64 = 50;

/// The limits the manager gave with `INFO`, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for each move; 0 means "as fast as possible". Default 5000.
    pub timeout_turn: u64,
    /// Time for the whole match; 0 (the default) means no match clock.
    pub timeout_match: u64,
    /// Time left on the match clock, if the manager said.
    pub time_left: Option<u64>,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl { timeout_turn: 5000, timeout_match: 0, time_left: None }
    }
}

/// The time of one move, counted from when the command arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The search's time limit.
    pub search: Duration,
    /// The latest time to answer; after it the brain plays its fallback
    /// move.
    pub deadline: Duration,
    /// "As fast as possible": the default player searches to depth 2 only.
    pub fast: bool,
}

impl TimeControl {
    /// The limit of this move in microseconds, before the margin.
    fn limit_us(&self) -> (u64, bool) {
        let fast = self.timeout_turn == 0;
        let mut limit_ms = if fast { FAST_GUARD_MS } else { self.timeout_turn };
        if self.timeout_match > 0 {
            let left = self.time_left.unwrap_or(self.timeout_match);
            let usable = left.saturating_sub(MATCH_RESERVE_MS.min(left / 2));
            limit_ms = limit_ms.min((left / MOVES_TO_GO).max(1).min(usable));
        }
        (limit_ms.saturating_mul(1000), fast)
    }

    /// The budget of the next move.
    pub fn budget(&self) -> Budget {
        let (limit, fast) = self.limit_us();
        let margin = (limit / 5).clamp(500, 150_000).min(limit / 2);
        let deadline = limit - margin;
        let search = deadline - (deadline / 8).min(50_000);
        Budget { search: Duration::from_micros(search), deadline: Duration::from_micros(deadline), fast }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> f64 {
        d.as_secs_f64() * 1000.0
    }

    #[test]
    fn the_turn_limit_keeps_a_margin() {
        let b = TimeControl { timeout_turn: 5000, ..TimeControl::default() }.budget();
        assert_eq!(ms(b.deadline), 4850.0);
        assert_eq!(ms(b.search), 4800.0);
        assert!(!b.fast);
        let b = TimeControl { timeout_turn: 5, ..TimeControl::default() }.budget();
        assert_eq!(ms(b.deadline), 4.0);
        assert!(b.search < b.deadline);
        let b = TimeControl { timeout_turn: 1, ..TimeControl::default() }.budget();
        assert_eq!(ms(b.deadline), 0.5);
    }

    #[test]
    fn the_match_clock_is_shared() {
        let t = TimeControl { timeout_turn: 30_000, timeout_match: 180_000, time_left: Some(100_000) };
        let b = t.budget();
        assert_eq!(ms(b.deadline), 5000.0 - 150.0);
        // Almost no time left: a tiny move, never the whole rest.
        let t = TimeControl { timeout_turn: 30_000, timeout_match: 180_000, time_left: Some(10) };
        assert!(ms(t.budget().deadline) < 1.0);
        let t = TimeControl { timeout_turn: 30_000, timeout_match: 180_000, time_left: Some(0) };
        assert_eq!(t.budget().deadline, Duration::ZERO); // answer at once
        // No time_left yet: the whole match is left.
        let t = TimeControl { timeout_turn: 0, timeout_match: 100_000, time_left: None };
        let b = t.budget();
        assert!(b.fast);
        assert_eq!(ms(b.deadline), 1000.0 - 150.0);
    }
}
