//! Lazy SMP: several threads search the same root and share one lock-free
//! transposition table; the main thread's result is returned.
//!
//! The helpers are independent copies of the search (rule, evaluator,
//! options, their own move-ordering history) whose links to the main thread
//! are the shared table ([`SharedTable`](super::shared_tt)) and the marks of
//! the positions each thread is searching ([`Busy`]). Helpers run
//! single-depth searches of the iteration the main thread is on. A thread
//! that reaches a later move whose child another thread is searching puts
//! it off until the node's other moves are done (ABDADA's deferral), so the
//! threads split the iteration's subtrees between them and each finds the
//! others' values in the table, instead of searching the same subtrees in
//! step. (The first design sent one helper a ply ahead of the main thread
//! without deferral; on two cores it reached a given depth only 1.1–1.2×
//! sooner, against 1.7–1.8× with deferral: [docs/parallel.md](https://github.com/game-search/backup-rules/blob/main/docs/parallel.md).) When the
//! main thread's search ends, the helpers are stopped and joined.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering as AtomicOrdering};

use crate::backup::Backup;
use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, MAX_PLY};
use crate::game::Game;
use crate::search::busy::Busy;
use crate::search::core;
use crate::search::ordering::Ordering;
use crate::search::tt::Table;
use crate::search::{Control, Iteration, Limits, NoObserver, Observer, Options, Search, SearchResult, Window};

type Outcome<G, R> = Result<SearchResult<<G as Game>::Move, <R as Backup>::Value>, GameError>;

/// What the threads share besides the table: the depth the main thread has
/// completed, and the flag that stops the helpers.
#[derive(Debug)]
pub(crate) struct Progress {
    depth: AtomicU32,
    stop: Arc<AtomicBool>,
}

/// The main thread's search, run by the driver while the helpers work.
type MainSearch<'a, G, R, E> = &'a mut dyn FnMut(&mut Search<G, R, E>) -> Outcome<G, R>;

/// The Lazy SMP driver of a search built with [`Search::parallel`]: a
/// function pointer made where the thread bounds are known.
pub(crate) type Driver<G, R, E> =
    fn(&mut Search<G, R, E>, &G, &Limits, &Progress, MainSearch<'_, G, R, E>) -> Outcome<G, R>;

/// Forwards everything to the caller's observer, and publishes each depth
/// the main thread completes.
struct Publish<'a, O: ?Sized> {
    inner: &'a mut O,
    depth: &'a AtomicU32,
}

impl<G: Game, O: Observer<G> + ?Sized> Observer<G> for Publish<'_, O> {
    fn iteration(&mut self, it: &Iteration<'_, G::Move>) -> Control {
        self.depth.store(it.depth, AtomicOrdering::Relaxed);
        self.inner.iteration(it)
    }
    fn root_moves(&mut self, state: &G, depth: u32, moves: &mut Vec<G::Move>) {
        self.inner.root_moves(state, depth, moves);
    }
    fn traces_nodes(&self) -> bool {
        self.inner.traces_nodes()
    }
    fn node(&mut self, path: &[G::Move], state: &G) {
        self.inner.node(path, state);
    }
    fn node_moves(&mut self, path: &[G::Move], state: &G, moves: &mut Vec<G::Move>) {
        self.inner.node_moves(path, state, moves);
    }
}

/// Runs `s` on `root` with its helpers (called by `Search::run_full`).
pub(crate) fn run<G: Game, R: Backup, E: Evaluator<G>, O: Observer<G> + ?Sized>(
    driver: Driver<G, R, E>,
    s: &mut Search<G, R, E>,
    root: &G,
    limits: &Limits,
    window: Window,
    observer: &mut O,
) -> Outcome<G, R> {
    let progress = Progress { depth: AtomicU32::new(0), stop: Arc::new(AtomicBool::new(false)) };
    let mut publish = Publish { inner: observer, depth: &progress.depth };
    let mut main = |s: &mut Search<G, R, E>| core::run(s, limits, &mut publish, root, window);
    driver(s, root, limits, &progress, &mut main)
}

fn drive<G, R, E>(
    s: &mut Search<G, R, E>,
    root: &G,
    limits: &Limits,
    progress: &Progress,
    main: MainSearch<'_, G, R, E>,
) -> Outcome<G, R>
where
    G: Game + Sync,
    G::Move: Send,
    R: Backup + Clone + Send,
    E: Evaluator<G> + Clone + Send,
{
    let Some(Table::Shared { table, age }) = &s.tt else { return main(s) };
    let busy = Arc::new(Busy::new());
    let helper_options = s.options.clone().with_threads(1).with_iterative_deepening(false);
    let helpers: Vec<Search<G, R, E>> = (1..s.options.threads)
        .map(|_| Search {
            rule: s.rule.clone(),
            eval: s.eval.clone(),
            options: helper_options.clone(),
            tt: Some(Table::Shared { table: Arc::clone(table), age: *age }),
            ordering: Ordering::new(),
            scratch: Vec::new(),
            smp: None,
            busy: Some(Arc::clone(&busy)),
            // Helpers probe the same table; they never play book moves
            // (only the main thread's root does).
            oracle: s.oracle.clone(),
            book_rng: crate::rng::seeded(0),
        })
        .collect();
    let max_depth = limits.clamped_depth().unwrap_or(MAX_PLY);
    s.busy = Some(busy);
    let result = std::thread::scope(|scope| {
        for mut h in helpers {
            scope.spawn(move || helper(&mut h, root, max_depth, progress));
        }
        let result = main(s);
        progress.stop.store(true, AtomicOrdering::Relaxed);
        result
    });
    s.busy = None;
    result
}

/// A helper's loop: single-depth searches, each of the iteration the main
/// thread is on (or, if the helper has finished that one, the next).
fn helper<G: Game, R: Backup, E: Evaluator<G>>(h: &mut Search<G, R, E>, root: &G, max_depth: u32, progress: &Progress) {
    let mut next = 1;
    while next <= max_depth && !progress.stop.load(AtomicOrdering::Relaxed) {
        let main_depth = progress.depth.load(AtomicOrdering::Relaxed);
        let depth = next.max(main_depth + 1).min(max_depth);
        let limits = Limits::depth(depth).with_stop(Arc::clone(&progress.stop));
        if core::run(h, &limits, &mut NoObserver, root, Window::FULL).is_err() {
            return;
        }
        next = depth + 1;
    }
}

impl<G, R, E> Search<G, R, E>
where
    G: Game + Sync,
    G::Move: Send,
    R: Backup + Clone + Send,
    E: Evaluator<G> + Clone + Send,
{
    /// A search that may run on several threads: [`Options::threads`]
    /// threads of Lazy SMP sharing one lock-free transposition table (see
    /// [docs/parallel.md](https://github.com/game-search/backup-rules/blob/main/docs/parallel.md)). With one thread it is [`Search::new`], with the
    /// same results node for node. The result (value, moves, counters) is
    /// the main thread's; with more threads it depends on timing.
    ///
    /// Errors: as [`Search::new`]; more than one thread without alpha-beta
    /// and a table.
    ///
    /// ```
    /// use search_core::backup::Minimax;
    /// use search_core::search::{Limits, Options, Search};
    /// use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
    /// let t = RandomTree::new(1, 4, 8, LeafModel::Uniform { min: -50, max: 50 })?;
    /// let eval = RandomTreeEval::for_tree(&t);
    /// let one = Search::new(Minimax, eval, Options::default())?.run(&t, &Limits::depth(8))?;
    /// let mut smp = Search::parallel(Minimax, eval, Options::default().with_threads(2))?;
    /// let two = smp.run(&t, &Limits::depth(8))?;
    /// assert_eq!(two.value, one.value); // a complete search to the same depth
    /// assert!(Search::parallel(Minimax, eval, Options::full_width().with_threads(2)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parallel(rule: R, eval: E, options: Options) -> Result<Self, ParamError> {
        let mut s = Search::build(rule, eval, options)?;
        s.smp = Some(drive::<G, R, E>);
        Ok(s)
    }
}
