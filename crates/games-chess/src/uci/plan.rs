//! From a `go` command to the limits of one search: depth, nodes, time
//! budget and mate distance ([`Plan`]), with the depth caps of the slow
//! rules; under `UCI_LimitStrength`, only the time budget (a safety net).

use shakmaty::Color;

use super::brain::MAX_DEPTH;
use super::command::GoParams;
use super::settings::BackupKind;
use super::time::{Budget, UNKNOWN_CLOCK_MS, time_budget};

/// The limits of one `think`.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Search at most this deep (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes in total.
    pub nodes: Option<u64>,
    /// Stop deepening after `soft`, stop searching at `hard`.
    pub budget: Option<Budget>,
    /// Stop as soon as a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
}

/// A `go` command made ready to run.
#[derive(Debug, Clone)]
pub(super) struct GoPlan {
    /// The search's limits.
    pub plan: Plan,
    /// `go infinite` or `go ponder`: the answer waits for `stop` (or, when
    /// pondering, for `ponderhit` and the clock).
    pub waits: bool,
    /// When pondering, the budget to apply once `ponderhit` arrives (`None`
    /// inside: no clock, search until `stop`).
    pub ponder: Option<Option<Budget>>,
    /// Messages for `info string` lines (unsupported parameters, depth caps,
    /// the budget in debug mode).
    pub notes: Vec<String>,
}

/// The plan of `go` for `side` to move with rule `backup`: a `mate N` without
/// a depth searches `2N − 1` plies; a rule too slow to deepen until the clock
/// runs out is capped at its [`default_depth_cap`](BackupKind::default_depth_cap)
/// when nothing else bounds the depth. With `debug`, the notes show the time
/// budget.
///
/// With `limit_strength` (`UCI_LimitStrength`), the strength setting
/// searches to its own depth: `depth`, `nodes` and `mate` are ignored (with
/// a note), and the time budget only stops a search that would overrun it.
pub(super) fn plan_go(go: &GoParams, side: Color, backup: BackupKind, limit_strength: bool, debug: bool) -> GoPlan {
    let waits = go.infinite || go.ponder;
    let budget = if waits { None } else { time_budget(go, side) };
    let mut plan = Plan { depth: go.depth, nodes: go.nodes, budget, mate: go.mate };
    if let (None, Some(m)) = (plan.depth, go.mate) {
        plan.depth = Some(m.saturating_mul(2).saturating_sub(1).max(1));
    }
    let mut notes = Vec::new();
    if limit_strength {
        if plan.depth.is_some() || plan.nodes.is_some() {
            notes.push(
                "UCI_LimitStrength is on: the strength setting searches to its own depth (go depth, nodes and mate \
                 are ignored)"
                    .to_string(),
            );
        }
        plan = Plan { budget, ..Plan::default() };
    }
    if let Some(d) = plan.depth
        && d > MAX_DEPTH
    {
        plan.depth = Some(MAX_DEPTH);
        notes.push(format!("depth {d} is beyond the engine's maximum: searching to depth {MAX_DEPTH}"));
    }
    let clock_fields = go.has_clock() || go.winc.is_some() || go.binc.is_some() || go.movestogo.is_some();
    if !waits && clock_fields && go.movetime.is_none() && own_clock(go, side).is_none() {
        notes.push(if go.has_clock() {
            format!("no clock for {side}: assuming the time the other side has")
        } else {
            format!("no clock for {side}: thinking for at most {UNKNOWN_CLOCK_MS} ms")
        });
    }
    if !go.searchmoves.is_empty() {
        notes.push("searchmoves is not supported: every move is searched".to_string());
    }
    if plan.depth.is_none()
        && !waits
        && !limit_strength
        && let Some(cap) = backup.default_depth_cap()
    {
        plan.depth = Some(cap);
        notes.push(format!(
            "backup {backup} is slow (no alpha-beta engine): depth capped at {cap} (go depth N searches deeper)"
        ));
    }
    if debug && let Some(b) = budget {
        notes.push(format!("time budget: soft {} ms, hard {} ms", b.soft.as_millis(), b.hard.as_millis()));
    }
    let ponder = go.ponder.then(|| time_budget(go, side));
    GoPlan { plan, waits, ponder, notes }
}

/// The side to move's remaining time, if the `go` gives it.
fn own_clock(go: &GoParams, side: Color) -> Option<u64> {
    match side {
        Color::White => go.wtime,
        Color::Black => go.btime,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_sets_the_depth_and_slow_rules_are_capped() {
        let go = GoParams { mate: Some(3), ..GoParams::default() };
        let p = plan_go(&go, Color::White, BackupKind::AlphaBeta, false, false);
        assert_eq!((p.plan.depth, p.plan.mate, p.waits), (Some(5), Some(3), false));
        assert!(p.notes.is_empty());
        let go = GoParams { wtime: Some(10_000), ..GoParams::default() };
        let p = plan_go(&go, Color::White, BackupKind::Minimax, false, true);
        assert_eq!(p.plan.depth, Some(super::super::FULL_WIDTH_DEPTH_CAP));
        assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
        // Infinite searches are never capped and have no budget.
        let go = GoParams { infinite: true, wtime: Some(10_000), ..GoParams::default() };
        let p = plan_go(&go, Color::White, BackupKind::Minimax, false, false);
        assert!(p.waits && p.plan.depth.is_none() && p.plan.budget.is_none() && p.ponder.is_none());
    }

    /// Item 4 of the robustness issue: `go depth 1000` asked for more than
    /// the engine searches, silently.
    #[test]
    fn depths_beyond_the_maximum_are_clamped_and_said() {
        for (go, asked) in [
            (GoParams { depth: Some(1000), ..GoParams::default() }, 1000),
            (GoParams { depth: Some(u32::MAX), ..GoParams::default() }, u32::MAX),
            (GoParams { mate: Some(1000), ..GoParams::default() }, 1999),
        ] {
            let p = plan_go(&go, Color::White, BackupKind::AlphaBeta, false, false);
            assert_eq!(p.plan.depth, Some(MAX_DEPTH), "{go:?}");
            assert!(p.notes.iter().any(|n| n.contains(&format!("depth {asked} is beyond"))), "{:?}", p.notes);
        }
        let p = plan_go(
            &GoParams { depth: Some(MAX_DEPTH), ..GoParams::default() },
            Color::White,
            BackupKind::AlphaBeta,
            false,
            false,
        );
        assert_eq!((p.plan.depth, p.notes.len()), (Some(MAX_DEPTH), 0));
        // The opponent's clock only: a budget, and a note.
        let go = GoParams { btime: Some(1000), ..GoParams::default() };
        let p = plan_go(&go, Color::White, BackupKind::AlphaBeta, false, false);
        assert!(p.plan.budget.is_some());
        assert!(p.notes.iter().any(|n| n.starts_with("no clock for white")), "{:?}", p.notes);
    }

    #[test]
    fn pondering_keeps_the_clock_for_ponderhit() {
        let go = GoParams { ponder: true, btime: Some(2_000), ..GoParams::default() };
        let p = plan_go(&go, Color::Black, BackupKind::AlphaBeta, false, false);
        assert!(p.waits && p.plan.budget.is_none());
        assert_eq!(p.ponder, Some(time_budget(&go, Color::Black)));
        assert!(p.ponder.unwrap().is_some());
    }

    #[test]
    fn limited_strength_keeps_only_the_clock() {
        let go = GoParams { depth: Some(9), nodes: Some(5), mate: Some(2), wtime: Some(10_000), ..GoParams::default() };
        let p = plan_go(&go, Color::White, BackupKind::Minimax, true, false);
        assert_eq!((p.plan.depth, p.plan.nodes, p.plan.mate), (None, None, None));
        assert_eq!(p.plan.budget, time_budget(&go, Color::White));
        assert!(p.notes.len() == 1 && p.notes[0].contains("UCI_LimitStrength"), "{:?}", p.notes);
        let go = GoParams { infinite: true, ..GoParams::default() };
        let p = plan_go(&go, Color::White, BackupKind::Minimax, true, false);
        assert!(p.waits && p.plan.budget.is_none() && p.notes.is_empty());
    }
}
