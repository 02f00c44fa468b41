//! The positions Lazy SMP threads are searching right now, so that a thread
//! can put off a move another thread is already on (the deferral idea of
//! ABDADA, Weill 1996, on top of the shared table).
//!
//! A thread marks a child before searching it and clears the mark after.
//! At a node, a later move (never the first) whose child is marked is
//! searched after the node's other moves; by then the other thread has
//! usually stored the child's value in the shared table, so the second
//! visit is a table hit instead of the same subtree searched twice.
//!
//! The table is lossy: one word per slot, a mark that collides with another
//! is not made, and a mark left by an aborted search stays until the run
//! ends (each parallel run has a fresh table). Neither can change a value:
//! a mark only changes the order moves are searched in.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two): far more than the nodes deep
/// enough to be marked that a few threads search at once.
const SLOTS: usize = 1 << 14;

/// Only nodes with at least this many plies left are marked or deferred:
/// below it a subtree is cheaper to search twice than to reorder (on
/// connect-4, whose nodes are cheap, marking from 3 plies left cost more in
/// shared-cache traffic than it saved; 4 and 5 did equally well there and
/// on chess).
pub(crate) const MIN_DEPTH: i32 = 4;

/// The shared marks (see the module's documentation).
#[derive(Debug)]
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    /// An empty table.
    pub(crate) fn new() -> Self {
        Busy { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// The slot of `key`, and the word a mark of `key` stores (never 0,
    /// the empty word).
    fn slot(&self, key: u64) -> (&AtomicU64, u64) {
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (&self.slots[(mixed >> 50) as usize & (SLOTS - 1)], key | 1)
    }

    /// Whether another thread has marked `key`.
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        let (slot, word) = self.slot(key);
        slot.load(Ordering::Relaxed) == word
    }

    /// Marks `key`; `true` if this call made the mark (and must
    /// [`leave`](Self::leave) it), `false` if the slot was taken.
    pub(crate) fn enter(&self, key: u64) -> bool {
        let (slot, word) = self.slot(key);
        slot.compare_exchange(0, word, Ordering::Relaxed, Ordering::Relaxed).is_ok()
    }

    /// Clears a mark made by [`enter`](Self::enter).
    pub(crate) fn leave(&self, key: u64) {
        let (slot, word) = self.slot(key);
        let _ = slot.compare_exchange(word, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_made_seen_and_cleared() {
        let b = Busy::new();
        assert!(!b.is_busy(42));
        assert!(b.enter(42));
        assert!(b.is_busy(42));
        // A second mark of the same key (or of a key in the same slot) is
        // not made: only the first marker clears it.
        assert!(!b.enter(42));
        b.leave(42);
        assert!(!b.is_busy(42));
        // Key 0 is markable (stored as 1, never the empty word).
        assert!(b.enter(0));
        assert!(b.is_busy(0));
        b.leave(0);
        assert!(!b.is_busy(0));
    }
}
