//! When a search stops: depth, nodes, time and a stop flag, given with each
//! call.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::error::ParamError;
use crate::eval::MAX_PLY;

/// When to stop searching, given with each call to
/// [`Search::run`](crate::search::Search::run).
///
/// There is no default: a search without any limit runs to the end of the
/// game, which on a game that is not small never finishes, so asking for it
/// is explicit ([`Limits::full_tree`]). A depth above [`MAX_PLY`] is
/// clamped to it, and a search cut there reports itself incomplete.
///
/// ```
/// use std::time::Duration;
/// use search_core::search::Limits;
/// let l = Limits::depth(6).with_nodes(100_000).with_time(Duration::from_millis(50));
/// assert_eq!(l.depth, Some(6));
/// assert!(Limits::full_tree().is_unlimited());
/// assert!(!l.is_unlimited());
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum depth (≥ 1), in the unit of
    /// [`Options::depth_unit`](crate::search::Options::depth_unit).
    pub depth: Option<u32>,
    /// Stop after this many nodes (≥ 1; every iteration counts).
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Stop when this flag becomes true (set from another thread).
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop after this many simulations (≥ 1): Monte Carlo tree search
    /// only ([`Mcts`](crate::mcts::Mcts)); an alpha-beta search refuses it.
    pub iterations: Option<u64>,
}

impl Limits {
    /// No limit at all: the whole tree below the state, to the end of the
    /// game. Only sensible for small games and literal trees.
    ///
    /// ```
    /// use search_core::search::Limits;
    /// assert_eq!(Limits::full_tree().depth, None);
    /// ```
    pub fn full_tree() -> Limits {
        Limits { depth: None, nodes: None, time: None, stop: None, iterations: None }
    }

    /// A depth limit only.
    ///
    /// ```
    /// use search_core::search::Limits;
    /// assert_eq!(Limits::depth(3).depth, Some(3));
    /// ```
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::full_tree() }
    }

    /// A node limit only (iterative deepening until it is spent).
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::full_tree() }
    }

    /// A time limit only (iterative deepening until time runs out).
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::full_tree() }
    }

    /// Only a stop flag: searches until another thread sets it (a UCI
    /// `go infinite`).
    pub fn until_stopped(stop: Arc<AtomicBool>) -> Limits {
        Limits { stop: Some(stop), ..Limits::full_tree() }
    }

    /// An iteration limit only: this many simulations of a Monte Carlo
    /// tree search ([`Mcts`](crate::mcts::Mcts)).
    ///
    /// ```
    /// use search_core::search::Limits;
    /// assert_eq!(Limits::iterations(1000).iterations, Some(1000));
    /// ```
    pub fn iterations(iterations: u64) -> Limits {
        Limits { iterations: Some(iterations), ..Limits::full_tree() }
    }

    /// These limits with an iteration limit too (Monte Carlo tree search).
    pub fn with_iterations(mut self, iterations: u64) -> Limits {
        self.iterations = Some(iterations);
        self
    }

    /// These limits with a depth limit too.
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// These limits with a node limit too.
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// These limits with a time limit too.
    pub fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// These limits with a stop flag too.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    /// True if nothing limits the search: it runs to the end of the game.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.time.is_none()
            && self.stop.is_none()
            && self.iterations.is_none()
    }

    /// True if a limit other than the depth may stop the search early.
    pub(crate) fn has_soft_limits(&self) -> bool {
        self.nodes.is_some() || self.time.is_some() || self.stop.is_some()
    }

    /// Checks the values: a zero depth or node limit is an error.
    ///
    /// ```
    /// use search_core::search::Limits;
    /// assert!(Limits::depth(0).validate().is_err());
    /// assert!(Limits::nodes(0).validate().is_err());
    /// assert!(Limits::iterations(0).validate().is_err());
    /// assert!(Limits::depth(5000).validate().is_ok()); // clamped to MAX_PLY
    /// ```
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.depth == Some(0) {
            return Err(ParamError::new("depth", "must be >= 1"));
        }
        if self.nodes == Some(0) {
            return Err(ParamError::new("nodes", "must be >= 1"));
        }
        if self.iterations == Some(0) {
            return Err(ParamError::new("iterations", "must be >= 1"));
        }
        Ok(())
    }

    /// The depth limit clamped to [`MAX_PLY`].
    pub(crate) fn clamped_depth(&self) -> Option<u32> {
        self.depth.map(|d| d.min(MAX_PLY))
    }
}
