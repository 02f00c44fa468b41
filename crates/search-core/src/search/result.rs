//! What a search returns: values, moves, the principal variation and
//! counters.

use crate::window::Bound;

/// Counters of one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Stats {
    /// Every node visited (interior, leaves and quiescence nodes, every
    /// iteration).
    pub nodes: u64,
    /// Leaves: terminal states and horizon nodes.
    pub leaves: u64,
    /// Interior nodes expanded.
    pub interior: u64,
    /// Nodes visited by quiescence search.
    pub qnodes: u64,
    /// Beta cutoffs (including Star cutoffs at chance nodes).
    pub cutoffs: u64,
    /// Transposition-table probes that ended a node.
    pub tt_cuts: u64,
    /// Nodes ended by the [`Oracle`](crate::search::Oracle)'s exact value
    /// (table lookups that answered; also counted in `nodes` and `leaves`).
    pub tb_hits: u64,
    /// Late-move reductions that held: moves whose reduced search failed
    /// low, so they were not searched at full depth.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reductions: u64,
    /// Nodes where futility pruning skipped quiet moves.
    #[cfg_attr(feature = "serde", serde(default))]
    pub futile: u64,
    /// Nodes that reverse futility pruning ended on their static value.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reverse_futile: u64,
    /// Moves that late move pruning did not search.
    #[cfg_attr(feature = "serde", serde(default))]
    pub late_pruned: u64,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Wall-clock time in microseconds.
    pub micros: u64,
}

/// One root move and its value from the root mover's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its value (the rule's [`child_score`](crate::backup::Backup::child_score)).
    pub score: f64,
    /// Exact, or a bound where pruning left it unresolved.
    pub bound: Bound,
}

impl<M> RootMove<M> {
    /// A root move with an exact score.
    ///
    /// ```
    /// use search_core::search::RootMove;
    /// assert_eq!(RootMove::exact(3u8, 0.5).score, 0.5);
    /// ```
    pub fn exact(mv: M, score: f64) -> Self {
        RootMove { mv, score, bound: Bound::Exact }
    }
}

/// Why a search result is not the complete answer to the question asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Incomplete {
    /// A node, time or stop limit (or an observer) stopped an iteration;
    /// the result is the last completed iteration's (or the best root move
    /// searched so far if none completed).
    Stopped,
    /// The tree goes deeper than [`MAX_PLY`](crate::MAX_PLY): nodes there
    /// were valued statically, as if at a horizon.
    MaxPly,
}

/// What a search found. `V` is the rule's own value type
/// ([`Backup::Value`](crate::backup::Backup::Value)); a search held as a
/// [`DynSearch`](crate::search::DynSearch) reports the number (`f64`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SearchResult<M, V = f64> {
    /// The root's value as a number from the root mover's point of view
    /// (chance root: the first player's), or `None` when no iteration
    /// completed.
    pub value: Option<f64>,
    /// The root's value in the rule's own type, when an iteration completed.
    pub rule_value: Option<V>,
    /// The best move (the first searched among the best), if any move was
    /// searched.
    pub best: Option<M>,
    /// Every root move whose exact value equals the best value (ties).
    pub best_moves: Vec<M>,
    /// Every searched root move with its value, in search order.
    pub root_moves: Vec<RootMove<M>>,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Counters.
    pub stats: Stats,
    /// True only if the search answered the question asked: every iteration
    /// up to the limit completed and nothing was cut at [`MAX_PLY`](crate::MAX_PLY).
    pub complete: bool,
    /// Why `complete` is false.
    pub incomplete: Option<Incomplete>,
    /// The move came from the [`Oracle`](crate::search::Oracle)'s book
    /// without a search: `best` and `pv` are the book move, `value` is
    /// `None`, `root_moves` is empty.
    pub from_book: bool,
}

impl<M, V> SearchResult<M, V> {
    /// The same result with the rule's value mapped (for example to drop it).
    pub fn map_rule_value<W>(self, f: impl FnOnce(V) -> W) -> SearchResult<M, W> {
        SearchResult {
            value: self.value,
            rule_value: self.rule_value.map(f),
            best: self.best,
            best_moves: self.best_moves,
            root_moves: self.root_moves,
            pv: self.pv,
            stats: self.stats,
            complete: self.complete,
            incomplete: self.incomplete,
            from_book: self.from_book,
        }
    }

    /// The root moves' scores, in search order.
    pub fn scores(&self) -> Vec<f64> {
        self.root_moves.iter().map(|m| m.score).collect()
    }
}
