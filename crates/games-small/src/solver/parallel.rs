//! A solve's probes on several threads: one [`Negamax`] per thread, one
//! [`SharedTable`] and one [`Crew`] between them (see [`Crew`] for how the
//! threads divide a probe's tree).

use std::sync::OnceLock;

use search_core::ParamError;

use super::negamax::{Crew, Geometry, Negamax};
use super::table::{SharedTable, Table};
use crate::connect4::Connect4;

/// The most threads a solver takes.
pub const MAX_SOLVER_THREADS: usize = 256;

/// Searches on `threads` threads sharing one table.
#[derive(Debug)]
pub(super) struct Parallel {
    /// The thread the probe is called from.
    main: Negamax<SharedTable>,
    /// One search per further thread, each run on a scoped thread per probe.
    helpers: Vec<Negamax<SharedTable>>,
    crew: Crew,
}

impl Parallel {
    /// `threads` searches (2 to [`MAX_SOLVER_THREADS`]) sharing a table of at
    /// most `mib` MiB of 64-bit slots.
    ///
    /// Errors: the table cannot be allocated.
    pub(super) fn new(geo: Geometry, mib: usize, threads: usize) -> Result<Self, ParamError> {
        let slots = Table::<u64>::slots_for(mib)?;
        let table = SharedTable::new(slots)?;
        let crew = Crew::new();
        // The table fills with every thread's entries: each turns sparse
        // when the threads together have visited about as many nodes as it
        // has slots.
        let sparse_after = slots / threads as u64;
        let search = || Negamax::new(geo, table.clone(), sparse_after, Some(crew.clone()));
        let helpers = (1..threads).map(|_| search()).collect();
        Ok(Parallel { main: search(), helpers, crew })
    }

    /// The score of `pos` within `(alpha, beta)`, or a bound beyond it, as
    /// `Negamax::probe`: every thread searches it; the first to finish
    /// answers.
    pub(super) fn probe(&mut self, pos: &Connect4, alpha: i32, beta: i32) -> i32 {
        let Parallel { main, helpers, crew } = self;
        crew.restart();
        let answer = OnceLock::new();
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let (answer, crew) = (&answer, &*crew);
                scope.spawn(move || {
                    let v = helper.probe(pos, alpha, beta);
                    if !helper.halted() {
                        let _ = answer.set(v);
                        crew.halt();
                    }
                });
            }
            let v = main.probe(pos, alpha, beta);
            if !main.halted() {
                let _ = answer.set(v);
                crew.halt();
            }
        });
        match answer.into_inner() {
            Some(v) => v,
            // Unreachable: a thread halts only after another has answered.
            // Should it happen, the main thread alone gives the answer.
            None => {
                crew.restart();
                main.probe(pos, alpha, beta)
            }
        }
    }

    /// The nodes every thread visited since the last call.
    pub(super) fn take_nodes(&mut self) -> u64 {
        self.main.take_nodes() + self.helpers.iter_mut().map(Negamax::take_nodes).sum::<u64>()
    }

    /// Empties the shared table.
    pub(super) fn clear(&mut self) {
        self.main.clear();
    }

    pub(super) fn table_bytes(&self) -> usize {
        self.main.table_bytes()
    }

    /// How many threads search.
    pub(super) fn threads(&self) -> usize {
        1 + self.helpers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every probe of a parallel search answers as a single thread's does
    /// whenever the single thread's answer is exact, and otherwise gives a
    /// bound on the same side of the window that the exact score respects.
    #[test]
    fn parallel_probes_agree_with_one_thread() {
        use search_core::RngExt;
        let mut rng = search_core::rng::seeded(54);
        let mut checked = 0;
        while checked < 30 {
            let mut pos = Connect4::standard();
            let plies = rng.random_range(12..18);
            let mut ok = true;
            for _ in 0..plies {
                let column = rng.random_range(0..7) as u8;
                if !pos.can_play(column) || pos.is_winning_move(column) {
                    ok = false;
                    break;
                }
                search_core::Game::play(&mut pos, column);
            }
            if !ok || pos.can_win_next() {
                continue;
            }
            let geo = Geometry::new(&pos);
            let mut alone = Negamax::new(geo, Table::<u64>::new(1 << 20).unwrap(), 1 << 20, None);
            let exact = alone.probe(&pos, -22, 22);
            let mut crew = Parallel::new(geo, 1, 2).unwrap();
            assert_eq!(crew.probe(&pos, -22, 22), exact, "{pos:?}");
            for pivot in [exact - 1, exact] {
                let v = crew.probe(&pos, pivot, pivot + 1);
                assert_eq!(v > pivot, exact > pivot, "{pos:?} pivot {pivot}: {v} against exact {exact}");
            }
            assert!(crew.take_nodes() > 0);
            checked += 1;
        }
    }
}
