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
/// and does not lose on time. A clock without an increment or
/// `movestogo` for the side to move is treated as having none.
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
    let (time, inc) = match side {
        Color::White => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    let time = time?;
    let inc = inc.unwrap_or(0);
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
        // Only the opponent's clock is given.
        assert_eq!(budget(GoParams { btime: Some(1000), ..GoParams::default() }, Color::White), None);
        assert_eq!(budget(GoParams { movetime: Some(500), infinite: true, ..GoParams::default() }, Color::White), None);
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
