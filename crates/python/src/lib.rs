//! The Python extension module `backup_rules._native`, re-exported by the
//! pure-Python package `backup_rules` (see `docs/python.md`).
//!
//! It wraps the workspace's published crates without changing them: the
//! built-in games of `games-small` (and of `games-chess` with the `chess`
//! feature) as immutable Python objects; any Python class that follows the
//! documented protocol as a `search_core::Game` (module `protocol`); every
//! backup rule of `search-core` named by a spec string (module `rules`);
//! MCTS and the connect-4 solver (module `search`); agents by spec, matches,
//! the strength dial and player fitting (module `agents`).
//!
//! Errors of the library reach Python as `ValueError` with the library's
//! message; an exception raised by a Python game's method stops the search
//! and is raised again to the caller. Searches on the built-in games run
//! without the GIL, so Python threads run them in parallel.
//!
//! The crate has no Rust tests of its own: it is an extension module, which
//! only an interpreter can load; `crates/python/tests` (pytest) tests it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod agents;
#[cfg(feature = "chess")]
mod chess;
mod games;
mod native;
mod protocol;
mod results;
mod rules;
mod search;

/// A library error as Python's `ValueError`, with the library's message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The extension module.
#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("WIN_SCORE", search_core::WIN_SCORE)?;
    m.add("HAS_CHESS", cfg!(feature = "chess"))?;
    games::register(m)?;
    results::register(m)?;
    search::register(m)?;
    agents::register(m)?;
    #[cfg(feature = "chess")]
    chess::register(m)?;
    Ok(())
}
