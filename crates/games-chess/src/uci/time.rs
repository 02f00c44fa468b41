//! The time manager: how long to think about one move.

use std::time::Duration;

use shakmaty::Color;

use super::command::GoParams;

/// Kept back from every clock-based budget for the time the GUI and the
/// operating system take to pass the move on.
pub const MOVE_OVERHEAD_MS: u64 = 30;

/// Moves assumed left until the next time control when `movestogo` is not
/// given (sudden death or increment games).
pub const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The budget (hard limit; the soft one is half) of a `go` that has clock
/// parameters but no remaining time for either side (`go winc 100`,
/// `go movestogo 10`): the engine's time is unknown, and it must not think
/// forever.
pub const UNKNOWN_CLOCK_MS: u64 = 1_000;

/// How long a search may think, in milliseconds.
///
/// * `soft`: no new iteration of iterative deepening starts after this
///   (the next one would usually not finish);
/// * `hard`: the search is stopped at this point, whatever it is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop the search here.
    pub hard: Duration,
}

/// The time budget of a `go` command for `side` to move, or `None` if the
/// command sets no time limit (`depth`, `nodes`, `infinite` or nothing).
///
/// `movetime` is used as given (less a few milliseconds). With a clock, the
/// budget is `remaining / movestogo + ¾ · increment` (`movestogo` defaulting
/// to [`DEFAULT_MOVES_TO_GO`]), never more than 4/5 of what is left after
/// [`MOVE_OVERHEAD_MS`]: whatever the increments, the engine keeps a reserve
/// and does not lose on time. A clock without an increment for the side to
/// move is treated as having none.
///
/// A clock given for the other side only (or only increments or
/// `movestogo`) leaves the engine's own time unknown; it must not think
/// forever, so it assumes it has the time the other side has (with its
/// increment), or, with no remaining time given at all, thinks for
/// [`UNKNOWN_CLOCK_MS`].
///
/// ```
/// use games_chess::uci::{GoParams, time_budget};
/// use shakmaty::Color;
/// let go = GoParams { wtime: Some(60_030), winc: Some(1_000), ..GoParams::default() };
/// let b = time_budget(&go, Color::White).unwrap();
/// // (60 030 − 30 ms reserve) / 30 moves + ¾ of the increment.
/// assert_eq!(b.hard.as_millis(), 2_000 + 750);
/// // Almost out of time: the budget stays below the clock.
/// let go = GoParams { btime: Some(50), binc: Some(5_000), ..GoParams::default() };
/// assert!(time_budget(&go, Color::Black).unwrap().hard.as_millis() < 50);
/// ```
pub fn time_budget(go: &GoParams, side: Color) -> Option<Budget> {
    if go.infinite {
        return None;
    }
    if let Some(mt) = go.movetime {
        let hard = mt.saturating_sub(5).max(mt / 2).max(1);
        return Some(Budget { soft: Duration::from_millis(hard), hard: Duration::from_millis(hard) });
    }
    let ((time, inc), (their_time, their_inc)) = match side {
        Color::White => ((go.wtime, go.winc), (go.btime, go.binc)),
        Color::Black => ((go.btime, go.binc), (go.wtime, go.winc)),
    };
    let any_clock = time.is_some() || inc.is_some() || their_time.is_some() || their_inc.is_some();
    if !(any_clock || go.movestogo.is_some()) {
        return None;
    }
    let (time, inc) = match (time, their_time) {
        (Some(time), _) => (time, inc.unwrap_or(0)),
        // Our own time is unknown: assume the opponent's.
        (None, Some(theirs)) => (theirs, inc.or(their_inc).unwrap_or(0)),
        (None, None) => {
            let (soft, hard) = (Duration::from_millis(UNKNOWN_CLOCK_MS / 2), Duration::from_millis(UNKNOWN_CLOCK_MS));
            return Some(Budget { soft, hard });
        }
    };
    let moves_to_go = go.movestogo.map_or(DEFAULT_MOVES_TO_GO, u64::from).max(1);
    let available = time.saturating_sub(MOVE_OVERHEAD_MS);
    let cap = available / 5 * 4;
    let target = (available / moves_to_go).saturating_add(inc / 4 * 3);
    let hard = target.min(cap).max(1);
    // Stop deepening at half the budget: an iteration costs several times
    // the previous one, so it would likely be cut off anyway.
    let soft = (hard / 2).max(1);
    Some(Budget { soft: Duration::from_millis(soft), hard: Duration::from_millis(hard) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(go: GoParams, side: Color) -> Option<(u128, u128)> {
        time_budget(&go, side).map(|b| (b.soft.as_millis(), b.hard.as_millis()))
    }

    #[test]
    fn no_time_limit_without_a_clock() {
        assert_eq!(budget(GoParams::default(), Color::White), None);
        assert_eq!(budget(GoParams { depth: Some(4), ..GoParams::default() }, Color::White), None);
        assert_eq!(budget(GoParams { movetime: Some(500), infinite: true, ..GoParams::default() }, Color::White), None);
    }

    /// Item 4 of the robustness issue: a clock for the other side only used
    /// to give no budget at all (a search until `stop`).
    #[test]
    fn an_unknown_own_clock_still_gives_a_budget() {
        // Only the opponent's clock: our time is assumed to be theirs.
        let theirs = budget(GoParams { btime: Some(1000), ..GoParams::default() }, Color::White);
        let mirrored = budget(GoParams { wtime: Some(1000), ..GoParams::default() }, Color::White);
        assert_eq!(theirs, mirrored);
        assert!(theirs.is_some_and(|(_, hard)| hard <= 1000));
        let go = GoParams { wtime: Some(60_030), winc: Some(1_000), ..GoParams::default() };
        assert_eq!(budget(go, Color::Black), Some((1375, 2750)));
        // Increments or movestogo alone: an assumed clock.
        for go in [
            GoParams { winc: Some(100), ..GoParams::default() },
            GoParams { binc: Some(100_000), ..GoParams::default() },
            GoParams { movestogo: Some(1), ..GoParams::default() },
            GoParams { movestogo: Some(10), winc: Some(5), ..GoParams::default() },
        ] {
            let expected = (u128::from(UNKNOWN_CLOCK_MS / 2), u128::from(UNKNOWN_CLOCK_MS));
            assert_eq!(budget(go.clone(), Color::White), Some(expected), "{go:?}");
        }
    }

    #[test]
    fn movetime_is_used_almost_entirely() {
        assert_eq!(budget(GoParams { movetime: Some(1000), ..GoParams::default() }, Color::Black), Some((995, 995)));
        assert_eq!(budget(GoParams { movetime: Some(1), ..GoParams::default() }, Color::Black), Some((1, 1)));
        assert_eq!(budget(GoParams { movetime: Some(0), ..GoParams::default() }, Color::Black), Some((1, 1)));
    }

    #[test]
    fn clock_budgets_never_exceed_the_clock() {
        for time in [0u64, 1, 10, 31, 100, 1000, 10_000, 300_000] {
            for inc in [0u64, 100, 2000, 60_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let go = GoParams { wtime: Some(time), winc: Some(inc), movestogo: mtg, ..GoParams::default() };
                    let (soft, hard) = budget(go, Color::White).unwrap();
                    assert!(soft <= hard && hard >= 1);
                    assert!(hard as u64 <= time.saturating_sub(MOVE_OVERHEAD_MS).max(1), "{time} {inc} {mtg:?}");
                }
            }
        }
    }

    #[test]
    fn movestogo_and_increment_shape_the_budget() {
        let go = GoParams { btime: Some(40_030), movestogo: Some(10), ..GoParams::default() };
        assert_eq!(budget(go, Color::Black), Some((2000, 4000)));
        let go = GoParams { wtime: Some(30_030), winc: Some(400), ..GoParams::default() };
        assert_eq!(budget(go, Color::White), Some((650, 1300)));
    }
}
