//! The transposition table: search results keyed by the game's hash.

use crate::error::ParamError;
use crate::window::Bound;

/// One stored search result.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<M> {
    key: u64,
    pub(crate) value: f64,
    pub(crate) mv: Option<M>,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
    /// The search below reached a depth limit: the value depends on the
    /// depth, so an iteration that uses it has not seen the whole tree.
    pub(crate) horizon: bool,
    age: u8,
}

/// Two slots sharing one cache line (for moves of up to 16 bytes), so that
/// a probe costs at most one cache miss.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Bucket<M>([Option<Entry<M>>; 2]);

/// A fixed-size hash table of search results, in buckets of two slots: the
/// first keeps the deepest result (unless it is from an older search: aging),
/// the second always takes the newest.
#[derive(Debug)]
pub(crate) struct TranspositionTable<M> {
    buckets: Vec<Bucket<M>>,
    mask: usize,
    age: u8,
    /// The buckets stored into since the table was made or last cleared,
    /// while they are few (at most [`Self::touched_cap`]): `clear` then
    /// empties only these, so that a small search in a large table costs
    /// what it touched, not the table's size. `None` once there were more:
    /// `clear` then empties every bucket.
    touched: Option<Vec<usize>>,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of at most `mib` MiB (rounded down to a power of two buckets;
    /// at least one bucket).
    ///
    /// Errors: a size whose byte count overflows, or an allocation the
    /// system refuses (never an abort).
    pub(crate) fn with_mib(mib: usize) -> Result<Self, ParamError> {
        let bucket = std::mem::size_of::<Bucket<M>>();
        let bytes = mib
            .checked_mul(1 << 20)
            .ok_or_else(|| ParamError::new("table_mib", format!("{mib} MiB overflows the address space")))?;
        let buckets = (bytes / bucket).max(1);
        let buckets = if buckets.is_power_of_two() { buckets } else { buckets.next_power_of_two() >> 1 };
        let mut table = Vec::new();
        table
            .try_reserve_exact(buckets)
            .map_err(|e| ParamError::new("table_mib", format!("cannot allocate a table of {mib} MiB: {e}")))?;
        table.resize(buckets, Bucket([None; 2]));
        Ok(TranspositionTable { buckets: table, mask: buckets - 1, age: 0, touched: Some(Vec::new()) })
    }

    /// How many touched buckets `clear` lists before it empties the whole
    /// table instead (an eighth of the buckets: beyond that the list costs
    /// more than the fill saves).
    fn touched_cap(&self) -> usize {
        self.buckets.len() / 8
    }

    /// Marks the start of a new search: older entries become replaceable.
    pub(crate) fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Forgets everything: the same empty table as a new one.
    pub(crate) fn clear(&mut self) {
        match &mut self.touched {
            Some(list) => {
                for &b in list.iter() {
                    self.buckets[b] = Bucket([None; 2]);
                }
                list.clear();
            }
            None => {
                self.buckets.fill(Bucket([None; 2]));
                self.touched = Some(Vec::new());
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Mix the key so games with weak low bits still spread out.
        (key ^ (key >> 32)) as usize & self.mask
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = self.bucket(key);
        self.buckets[b].0.iter().flatten().find(|e| e.key == key).copied()
    }

    pub(crate) fn store(&mut self, key: u64, value: f64, mv: Option<M>, depth: i32, bound: Bound, horizon: bool) {
        let b = self.bucket(key);
        let age = self.age;
        let entry = Entry { key, value, mv, depth, bound, horizon, age };
        // A bucket's first slot is empty only until its first store (stores
        // never empty a slot): note the bucket for `clear`.
        if self.buckets[b].0[0].is_none() {
            let cap = self.touched_cap();
            if let Some(list) = &mut self.touched {
                if list.len() < cap {
                    list.push(b);
                } else {
                    self.touched = None;
                }
            }
        }
        let slots = &mut self.buckets[b].0;
        let first = &mut slots[0];
        let replace_first = match first {
            None => true,
            Some(e) => e.key == key || e.age != age || depth >= e.depth,
        };
        if replace_first {
            // Keep the best move of an older result of the same position.
            let keep_mv = first.filter(|e| e.key == key).and_then(|e| e.mv);
            if let Some(old) = first.take()
                && old.key != key
            {
                slots[1] = Some(old);
            }
            slots[0] = Some(Entry { mv: mv.or(keep_mv), ..entry });
        } else {
            slots[1] = Some(entry);
        }
    }

    /// The number of slots.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        2 * self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_preferred_with_aging() {
        let mut tt = TranspositionTable::<u8>::with_mib(0).unwrap();
        assert_eq!(tt.capacity(), 2);
        tt.store(1, 1.0, Some(1), 5, Bound::Exact, true);
        tt.store(2, 2.0, Some(2), 3, Bound::Exact, true); // shallower: second slot
        assert_eq!(tt.probe(1).unwrap().depth, 5);
        assert_eq!(tt.probe(2).unwrap().value, 2.0);
        tt.store(3, 3.0, None, 1, Bound::Lower, true); // replaces the second slot
        assert!(tt.probe(2).is_none());
        assert!(tt.probe(1).is_some());
        tt.new_search();
        tt.store(4, 4.0, None, 0, Bound::Upper, true); // old deep entry is aged out
        assert_eq!(tt.probe(4).unwrap().bound, Bound::Upper);
        assert!(tt.probe(1).is_some(), "the displaced entry moves to the second slot");
        tt.clear();
        assert!(tt.probe(4).is_none());
    }

    /// `clear` empties every bucket whether it lists the touched ones (a
    /// few stores) or fills the whole table (many), and the table then
    /// behaves as a new one.
    #[test]
    fn clear_after_few_and_many_stores() {
        let mut tt = TranspositionTable::<u8>::with_mib(1).unwrap();
        let n = tt.buckets.len() as u64;
        for count in [3, n / 8 - 1, n / 8, n / 8 + 1, 4 * n] {
            for k in 0..count {
                tt.store(k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1, k as f64, Some(1), 2, Bound::Exact, false);
            }
            assert!(count > 3 || tt.probe(1).is_some());
            tt.clear();
            assert!(tt.buckets.iter().all(|b| b.0.iter().all(Option::is_none)), "{count} stores: not empty");
            assert_eq!(tt.touched.as_ref().map(Vec::len), Some(0));
        }
    }
}

/// A table move: a move of the thread's own table, or the fingerprint of
/// one from the shared table (found among the generated moves).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TtMove<M> {
    None,
    Move(M),
    Print(u16),
}

impl<M: Copy + Eq + std::hash::Hash> TtMove<M> {
    /// The move's index in `moves`, if it is there.
    #[inline]
    pub(crate) fn index_in(self, moves: &[M]) -> Option<usize> {
        match self {
            TtMove::None => None,
            TtMove::Move(t) => moves.iter().position(|&m| m == t),
            TtMove::Print(p) => moves.iter().position(|m| crate::search::shared_tt::fingerprint(m) == p),
        }
    }
}

/// A table hit, from either kind of table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hit<M> {
    pub(crate) value: f64,
    pub(crate) mv: TtMove<M>,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
    pub(crate) horizon: bool,
}

/// The table a search uses: its own (one thread: the results of every
/// earlier version, bit for bit), or one shared by Lazy SMP threads.
#[derive(Debug)]
pub(crate) enum Table<M> {
    Local(TranspositionTable<M>),
    Shared { table: std::sync::Arc<crate::search::shared_tt::SharedTable>, age: u8 },
}

impl<M: Copy + Eq + std::hash::Hash> Table<M> {
    /// A table of `mib` MiB, shared between threads if `shared`.
    pub(crate) fn with_mib(mib: usize, shared: bool) -> Result<Self, ParamError> {
        Ok(if shared {
            Table::Shared { table: std::sync::Arc::new(crate::search::shared_tt::SharedTable::with_mib(mib)?), age: 0 }
        } else {
            Table::Local(TranspositionTable::with_mib(mib)?)
        })
    }

    pub(crate) fn new_search(&mut self) {
        match self {
            Table::Local(t) => t.new_search(),
            Table::Shared { age, .. } => *age = age.wrapping_add(1),
        }
    }

    pub(crate) fn clear(&mut self) {
        match self {
            Table::Local(t) => t.clear(),
            Table::Shared { table, .. } => table.clear(),
        }
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit<M>> {
        match self {
            Table::Local(t) => t.probe(key).map(|e| Hit {
                value: e.value,
                mv: e.mv.map_or(TtMove::None, TtMove::Move),
                depth: e.depth,
                bound: e.bound,
                horizon: e.horizon,
            }),
            Table::Shared { table, .. } => table.probe(key).map(|e| Hit {
                value: e.value,
                mv: e.print.map_or(TtMove::None, TtMove::Print),
                depth: e.depth,
                bound: e.bound,
                horizon: e.horizon,
            }),
        }
    }

    #[inline]
    pub(crate) fn store(&mut self, key: u64, value: f64, mv: Option<M>, depth: i32, bound: Bound, horizon: bool) {
        match self {
            Table::Local(t) => t.store(key, value, mv, depth, bound, horizon),
            Table::Shared { table, age } => {
                let print = mv.as_ref().map(crate::search::shared_tt::fingerprint);
                let entry = crate::search::shared_tt::SharedEntry { value, print, depth, bound, horizon, age: *age };
                table.store(key, entry);
            }
        }
    }
}
