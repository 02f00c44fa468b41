//! A search with its rule, evaluator and options erased: "some search on
//! game G", for engines, agents, web sessions and calibration tables.

use crate::backup::Backup;
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::Game;
use std::sync::Arc;

use crate::search::{Limits, Observer, Options, Oracle, Search, SearchResult};

/// An object-safe search on game `G`. Every [`Search`] is one; hold it as
/// `Box<dyn DynSearch<G>>` to choose the rule at run time. Results carry
/// the root's value as a number (`f64`), not the rule's own type.
///
/// ```
/// use search_core::backup::{Minimax, Rminimax};
/// use search_core::search::{DynSearch, Limits, Options, Search};
/// use search_core::tree::{LiteralEval, LiteralTree};
///
/// let t: LiteralTree = "max(min(3, 12), min(2, 4))".parse()?;
/// let searches: Vec<Box<dyn DynSearch<LiteralTree>>> = vec![
///     Box::new(Search::recommended(Minimax, LiteralEval)?),
///     Box::new(Search::new(Rminimax::new(2.0)?, LiteralEval, Options::full_width())?),
/// ];
/// for mut s in searches {
///     let r = s.run(&t, &Limits::full_tree())?;
///     assert_eq!(r.best, Some(0), "{}", s.name());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait DynSearch<G: Game> {
    /// Searches `state` within `limits` ([`Search::run`]).
    fn run(&mut self, state: &G, limits: &Limits) -> Result<SearchResult<G::Move>, GameError>;

    /// Searches with an observer ([`Search::run_observed`]).
    fn run_observed(
        &mut self,
        state: &G,
        limits: &Limits,
        observer: &mut dyn Observer<G>,
    ) -> Result<SearchResult<G::Move>, GameError>;

    /// Forgets the table and history (a new game).
    fn clear(&mut self);

    /// Resizes the transposition table ([`Search::set_table_mib`]); keeps
    /// the old one on error.
    fn set_table_mib(&mut self, mib: usize) -> Result<(), ParamError>;

    /// The options.
    fn options(&self) -> &Options;

    /// The rule's name, for reports.
    fn name(&self) -> String;

    /// Attaches (or with `None` detaches) a table the search consults
    /// ([`Search::set_oracle`]). The default refuses: a search type that
    /// cannot consult one says so.
    fn set_oracle(&mut self, _oracle: Option<Arc<dyn Oracle<G>>>) -> Result<(), ParamError> {
        Err(ParamError::new("oracle", "this search does not consult tables"))
    }
}

impl<G: Game, R: Backup, E: Evaluator<G>> DynSearch<G> for Search<G, R, E> {
    fn run(&mut self, state: &G, limits: &Limits) -> Result<SearchResult<G::Move>, GameError> {
        Search::run(self, state, limits).map(|r| r.map_rule_value(|v| crate::backup::BackupValue::scalar(&v)))
    }

    fn run_observed(
        &mut self,
        state: &G,
        limits: &Limits,
        observer: &mut dyn Observer<G>,
    ) -> Result<SearchResult<G::Move>, GameError> {
        Search::run_observed(self, state, limits, observer)
            .map(|r| r.map_rule_value(|v| crate::backup::BackupValue::scalar(&v)))
    }

    fn clear(&mut self) {
        Search::clear(self);
    }

    fn set_table_mib(&mut self, mib: usize) -> Result<(), ParamError> {
        Search::set_table_mib(self, mib)
    }

    fn options(&self) -> &Options {
        Search::options(self)
    }

    fn name(&self) -> String {
        self.rule().name()
    }

    fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) -> Result<(), ParamError> {
        Search::set_oracle(self, oracle)
    }
}

impl<G: Game, S: DynSearch<G> + ?Sized> DynSearch<G> for Box<S> {
    fn run(&mut self, state: &G, limits: &Limits) -> Result<SearchResult<G::Move>, GameError> {
        (**self).run(state, limits)
    }
    fn run_observed(
        &mut self,
        state: &G,
        limits: &Limits,
        observer: &mut dyn Observer<G>,
    ) -> Result<SearchResult<G::Move>, GameError> {
        (**self).run_observed(state, limits, observer)
    }
    fn clear(&mut self) {
        (**self).clear()
    }
    fn set_table_mib(&mut self, mib: usize) -> Result<(), ParamError> {
        (**self).set_table_mib(mib)
    }
    fn options(&self) -> &Options {
        (**self).options()
    }
    fn name(&self) -> String {
        (**self).name()
    }
    fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) -> Result<(), ParamError> {
        (**self).set_oracle(oracle)
    }
}
