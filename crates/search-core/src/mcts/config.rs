//! How a Monte Carlo tree search works: selection, leaf values, final move,
//! threads. Checked when the search is built.

use crate::error::ParamError;

/// How a decision node picks the child a simulation goes down. In every
/// mode each child is tried once (in random order) before any is tried
/// again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Selection {
    /// UCB1: the child maximising `(Q + 1)/2 + c·√(ln N / n)`, with `Q`
    /// the child's backed-up value in `[-1, 1]` (mapped to `[0, 1]`, so
    /// that `c` has its textbook meaning: `√2` in the UCB1 bound, 1.4 in
    /// practice), `N` the parent's visits and `n` the child's.
    Ucb1 {
        /// The exploration constant `c` (> 0).
        c: f64,
    },
    /// Boltzmann sampling from the backup's
    /// [soft policy](crate::mcts::MctsBackup::soft_policy) mixed with the
    /// uniform policy, `(1 − λ)·π + λ/K` with `λ = min(1, ε·K / ln(N + 1))`
    /// for `K` children: MENTS's E2W ("empirical exponential weights").
    /// Needs a backup with a soft policy ([`Soft`](crate::mcts::Soft)).
    Boltzmann {
        /// The exploration rate ε (> 0).
        epsilon: f64,
    },
}

/// Where a simulation's value comes from once it leaves the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Playouts {
    /// Uniformly random moves (chance outcomes by their probabilities) to
    /// the end of the game: win 1, draw 0, loss −1. A playout longer than
    /// [`MAX_PLY`](crate::MAX_PLY) moves is valued by the evaluator there.
    #[default]
    Random,
    /// The evaluator's value of the new leaf, squashed into `(-1, 1)` by
    /// `tanh(v / value_scale)` ([`MctsConfig::value_scale`]); finished
    /// games as with random playouts.
    Eval,
}

/// Which root move a search returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FinalMove {
    /// The most visited move (ties: the better value). The robust choice
    /// of UCT.
    #[default]
    Visits,
    /// The move with the best backed-up value among the visited ones (ties:
    /// more visits).
    Value,
    /// A move sampled from the backup's soft policy at the root (needs a
    /// backup with one, [`Soft`](crate::mcts::Soft)), with the search's RNG.
    Sample,
}

/// The settings of a [`Mcts`](crate::mcts::Mcts) search. Limits (iterations,
/// nodes, time, a stop flag) come with each call, as for every search.
///
/// ```
/// use search_core::mcts::{FinalMove, MctsConfig, Playouts, Selection};
/// let c = MctsConfig::default().with_c(2.0)?.with_playouts(Playouts::Eval).with_threads(2)?;
/// assert_eq!(c.selection, Selection::Ucb1 { c: 2.0 });
/// assert_eq!(c.final_move, FinalMove::Visits);
/// assert!(MctsConfig::default().with_c(0.0).is_err());
/// assert!(MctsConfig::default().with_threads(0).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MctsConfig {
    /// How decision nodes pick a child.
    pub selection: Selection,
    /// Leaf values: random playouts or the evaluator.
    pub playouts: Playouts,
    /// Which root move is played.
    pub final_move: FinalMove,
    /// The scale of numeric values: an evaluator's value `v` (with
    /// [`Playouts::Eval`]) and a numeric payoff ([`Outcome::Payoff`](crate::Outcome::Payoff))
    /// count as `tanh(v / value_scale)`. Win and loss are ±1 whatever it is.
    pub value_scale: f64,
    /// Threads (root parallelisation: one independent tree per thread,
    /// merged at the root; see [docs/mcts.md](https://github.com/game-search/backup-rules/blob/main/docs/mcts.md)).
    pub threads: usize,
    /// The seed of the search's random numbers (thread `t` uses
    /// [`derive_seed`](crate::rng::derive_seed)`(seed, t)`).
    pub seed: u64,
    /// Keep the tree between calls and re-root it on the moves played.
    pub reuse: bool,
    /// The most tree nodes each thread keeps; a search that fills its tree
    /// stops as if a limit was reached.
    pub max_tree_nodes: usize,
}

impl Default for MctsConfig {
    /// UCB1 with c = 1.4, random playouts, the most visited move, one
    /// thread, seed 0, tree reuse on, at most 8 million nodes per tree.
    fn default() -> Self {
        MctsConfig {
            selection: Selection::Ucb1 { c: 1.4 },
            playouts: Playouts::Random,
            final_move: FinalMove::Visits,
            value_scale: 1.0,
            threads: 1,
            seed: 0,
            reuse: true,
            max_tree_nodes: 8 << 20,
        }
    }
}

impl MctsConfig {
    /// MENTS's settings: Boltzmann selection with `ε = epsilon`, the move of
    /// the best soft value. Use with [`Soft`](crate::mcts::Soft).
    ///
    /// ```
    /// use search_core::mcts::{MctsConfig, Selection};
    /// assert_eq!(MctsConfig::ments(0.5)?.selection, Selection::Boltzmann { epsilon: 0.5 });
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn ments(epsilon: f64) -> Result<Self, ParamError> {
        Ok(MctsConfig {
            selection: Selection::Boltzmann { epsilon: ParamError::positive("epsilon", epsilon)? },
            final_move: FinalMove::Value,
            ..MctsConfig::default()
        })
    }

    /// UCB1 with exploration constant `c`. Errors: `c` not finite and > 0.
    pub fn with_c(mut self, c: f64) -> Result<Self, ParamError> {
        self.selection = Selection::Ucb1 { c: ParamError::positive("c", c)? };
        Ok(self)
    }

    /// Sets [`selection`](MctsConfig::selection) (checked when the search is built).
    #[must_use]
    pub fn with_selection(mut self, selection: Selection) -> Self {
        self.selection = selection;
        self
    }

    /// Sets [`playouts`](MctsConfig::playouts).
    #[must_use]
    pub fn with_playouts(mut self, playouts: Playouts) -> Self {
        self.playouts = playouts;
        self
    }

    /// Sets [`final_move`](MctsConfig::final_move).
    #[must_use]
    pub fn with_final_move(mut self, final_move: FinalMove) -> Self {
        self.final_move = final_move;
        self
    }

    /// Sets [`value_scale`](MctsConfig::value_scale). Errors: not finite and > 0.
    pub fn with_value_scale(mut self, scale: f64) -> Result<Self, ParamError> {
        self.value_scale = ParamError::positive("value_scale", scale)?;
        Ok(self)
    }

    /// Sets [`threads`](MctsConfig::threads). Errors: 0.
    pub fn with_threads(mut self, threads: usize) -> Result<Self, ParamError> {
        if threads == 0 {
            return Err(ParamError::new("threads", "must be >= 1"));
        }
        self.threads = threads;
        Ok(self)
    }

    /// Sets [`seed`](MctsConfig::seed).
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets [`reuse`](MctsConfig::reuse).
    #[must_use]
    pub fn with_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self
    }

    /// Sets [`max_tree_nodes`](MctsConfig::max_tree_nodes). Errors: fewer
    /// than 2 or more than `u32::MAX`.
    pub fn with_max_tree_nodes(mut self, nodes: usize) -> Result<Self, ParamError> {
        if !(2..=u32::MAX as usize).contains(&nodes) {
            return Err(ParamError::new("max_tree_nodes", format!("must be within 2..=2^32-1, got {nodes}")));
        }
        self.max_tree_nodes = nodes;
        Ok(self)
    }

    /// Checks every value (the fields are public, so a config built by
    /// hand is checked when the search is built), and that a soft policy
    /// is there when Boltzmann selection or a sampled final move needs one.
    ///
    /// ```
    /// use search_core::mcts::{MctsConfig, Selection};
    /// let mut c = MctsConfig::default();
    /// c.selection = Selection::Ucb1 { c: f64::NAN };
    /// assert_eq!(c.validate(false).unwrap_err().name, "c");
    /// assert_eq!(MctsConfig::ments(1.0)?.validate(false).unwrap_err().name, "selection");
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn validate(&self, has_soft_policy: bool) -> Result<(), ParamError> {
        match self.selection {
            Selection::Ucb1 { c } => {
                ParamError::positive("c", c)?;
            }
            Selection::Boltzmann { epsilon } => {
                ParamError::positive("epsilon", epsilon)?;
                if !has_soft_policy {
                    return Err(ParamError::new("selection", "Boltzmann selection needs a backup with a soft policy"));
                }
            }
        }
        if self.final_move == FinalMove::Sample && !has_soft_policy {
            return Err(ParamError::new("final_move", "a sampled final move needs a backup with a soft policy"));
        }
        ParamError::positive("value_scale", self.value_scale)?;
        if self.threads == 0 {
            return Err(ParamError::new("threads", "must be >= 1"));
        }
        if !(2..=u32::MAX as usize).contains(&self.max_tree_nodes) {
            return Err(ParamError::new("max_tree_nodes", "must be within 2..=2^32-1"));
        }
        Ok(())
    }
}
