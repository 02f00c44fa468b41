//! The solver's transposition table: one machine word per entry, holding a
//! score bound and part of the position's key, exact (no false hits).
//!
//! # Layout and key folding
//!
//! The table has a prime number `len` of slots; the position with perfect
//! key `k` ([`Connect4::key`](crate::connect4::Connect4::key)) lives in slot
//! `k mod len`, and the slot keeps only the low bits of `k` beside the
//! bound. Because `len` is odd, `k mod len` and `k mod 2^b` together fix
//! `k mod (len · 2^b)` (Chinese remainder theorem): whenever every key of the
//! board is below `len · 2^b`, a slot whose stored bits match *is* the
//! position, never another one. A slot is a [`Slot`]: five bytes (32 key
//! bits and the bound) when that is exact (the standard 7 × 6 board, 49-bit
//! keys, from 1 MiB on), otherwise a `u64` with 57 key bits beside a 7-bit
//! bound (exact for every board and table size the solver accepts).
//!
//! Each slot holds one bound, coded in 7 bits: 0 for an empty slot, then the
//! upper bounds, then the lower bounds of every score a board can have. A new
//! entry replaces the old one (always-replace; within one solve, the deeper
//! search is always the more recent).
//!
//! The search reaches a table through [`Store`]: a [`Table`] of its own, or,
//! when several threads solve together, a [`SharedTable`] of atomic 64-bit
//! slots (the `u64` layout) that they all read and write.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use search_core::ParamError;

/// The bits of a 64-bit slot that hold the bound.
const VALUE_BITS: u32 = 7;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;

/// A slot of the table: the bound and the key's low bits, packed.
pub(super) trait Slot: Copy + Default {
    /// How many low bits of the key a slot keeps.
    const KEY_BITS: u32;
    /// The slot for `key` holding the encoded bound `value` (1 to 127).
    fn pack(key: u64, value: u8) -> Self;
    /// The encoded bound if this slot holds `key`, 0 otherwise (an empty
    /// slot holds 0).
    fn value_for(self, key: u64) -> u8;
}

/// Five bytes: the key's low 32 bits, then the bound.
impl Slot for [u8; 5] {
    const KEY_BITS: u32 = 32;

    #[inline(always)]
    fn pack(key: u64, value: u8) -> Self {
        let k = (key as u32).to_le_bytes();
        [k[0], k[1], k[2], k[3], value]
    }

    #[inline(always)]
    fn value_for(self, key: u64) -> u8 {
        let [a, b, c, d, value] = self;
        if u32::from_le_bytes([a, b, c, d]) == key as u32 { value } else { 0 }
    }
}

impl Slot for u64 {
    const KEY_BITS: u32 = 64 - VALUE_BITS;

    #[inline(always)]
    fn pack(key: u64, value: u8) -> Self {
        (key << VALUE_BITS) | u64::from(value)
    }

    #[inline(always)]
    fn value_for(self, key: u64) -> u8 {
        if (self ^ (key << VALUE_BITS)) >> VALUE_BITS == 0 { (self & VALUE_MASK) as u8 } else { 0 }
    }
}

/// Where the solver's search keeps its bounds: a [`Table`] of its own, or a
/// [`SharedTable`] several threads read and write at once.
pub(super) trait Store {
    /// Whether other threads use the same slots (the search then checks for
    /// a stop and spreads its threads over the moves).
    const SHARED: bool;
    /// The encoded bound stored for `key`, 0 if none.
    fn get(&self, key: u64) -> u8;
    /// Stores the encoded bound `value` (1 to 127) for `key`.
    fn put(&mut self, key: u64, value: u8);
    /// Empties every slot.
    fn clear(&mut self);
    /// The bytes the slots take.
    fn bytes(&self) -> usize;
}

/// `key mod len` for a fixed `len`, by a multiplication (Barrett): the
/// quotient estimate `⌊key · ⌊2^64/len⌋ / 2^64⌋` is the quotient or one less,
/// so one correction step suffices.
#[derive(Debug, Clone, Copy)]
struct Modulus {
    len: u64,
    /// `⌊2^64 / len⌋`.
    reciprocal: u64,
}

impl Modulus {
    fn new(len: u64) -> Self {
        let reciprocal = if len < 2 { 0 } else { (u128::from(u64::MAX) + 1).div_euclid(u128::from(len)) as u64 };
        Modulus { len, reciprocal }
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        let q = ((u128::from(key) * u128::from(self.reciprocal)) >> 64) as u64;
        let r = key - q * self.len;
        (if r >= self.len { r - self.len } else { r }) as usize
    }
}

/// `len` slots made by `make`, or a typed error when the memory cannot be had.
fn allocate<T>(len: u64, make: impl FnMut() -> T) -> Result<Vec<T>, ParamError> {
    let n = usize::try_from(len).map_err(|_| ParamError::new("table_mib", "too large for this machine"))?;
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(n)
        .map_err(|e| ParamError::new("table_mib", format!("cannot allocate {n} table slots: {e}")))?;
    slots.resize_with(n, make);
    Ok(slots)
}

/// A table of `S` slots, at most the memory it was given.
#[derive(Debug, Clone)]
pub(super) struct Table<S> {
    slots: Vec<S>,
    modulus: Modulus,
}

impl<S: Slot> Table<S> {
    /// The slot count of a `mib`-MiB table of `S` slots: the largest prime
    /// that fits.
    pub(super) fn slots_for(mib: usize) -> Result<u64, ParamError> {
        let bytes = mib
            .checked_mul(1 << 20)
            .ok_or_else(|| ParamError::new("table_mib", format!("{mib} MiB does not fit in memory")))?;
        let fit = (bytes / std::mem::size_of::<S>()) as u64;
        largest_prime_at_most(fit)
            .ok_or_else(|| ParamError::new("table_mib", format!("{mib} MiB is too small for a table")))
    }

    /// Whether a table of `len` slots of `S` is exact for keys up to `max_key`.
    pub(super) fn is_exact(len: u64, max_key: u64) -> bool {
        u128::from(max_key) < u128::from(len) << S::KEY_BITS
    }

    /// An empty table of `len` slots.
    ///
    /// Errors: the memory cannot be allocated.
    pub(super) fn new(len: u64) -> Result<Self, ParamError> {
        Ok(Table { slots: allocate(len, S::default)?, modulus: Modulus::new(len) })
    }

    #[cfg(test)]
    fn index(&self, key: u64) -> usize {
        self.modulus.index(key)
    }
}

impl<S: Slot> Store for Table<S> {
    const SHARED: bool = false;

    #[inline(always)]
    fn get(&self, key: u64) -> u8 {
        // `index` is below `len`, the length of `slots`.
        self.slots[self.modulus.index(key)].value_for(key)
    }

    #[inline(always)]
    fn put(&mut self, key: u64, value: u8) {
        debug_assert!(value != 0 && u64::from(value) <= VALUE_MASK);
        let i = self.modulus.index(key);
        self.slots[i] = S::pack(key, value);
    }

    fn clear(&mut self) {
        self.slots.fill(S::default());
    }

    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<S>()
    }
}

/// A table of 64-bit slots (as `Table<u64>`: 57 key bits beside the bound,
/// exact for every board) that several threads share. Each slot is one
/// atomic word, read and written with relaxed ordering: a thread sees
/// another's entry whole or not at all, never half of one, and any entry it
/// sees is a true bound on its position's score, so no further
/// synchronisation is needed. Clones share the slots.
#[derive(Debug, Clone)]
pub(super) struct SharedTable {
    slots: Arc<Vec<AtomicU64>>,
    modulus: Modulus,
}

impl SharedTable {
    /// An empty table of `len` slots (see [`Table::<u64>::slots_for`]).
    ///
    /// Errors: the memory cannot be allocated.
    pub(super) fn new(len: u64) -> Result<Self, ParamError> {
        Ok(SharedTable { slots: Arc::new(allocate(len, || AtomicU64::new(0))?), modulus: Modulus::new(len) })
    }
}

impl Store for SharedTable {
    const SHARED: bool = true;

    #[inline(always)]
    fn get(&self, key: u64) -> u8 {
        self.slots[self.modulus.index(key)].load(Ordering::Relaxed).value_for(key)
    }

    #[inline(always)]
    fn put(&mut self, key: u64, value: u8) {
        debug_assert!(value != 0 && u64::from(value) <= VALUE_MASK);
        self.slots[self.modulus.index(key)].store(u64::pack(key, value), Ordering::Relaxed);
    }

    fn clear(&mut self) {
        for slot in self.slots.iter() {
            slot.store(0, Ordering::Relaxed);
        }
    }

    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<AtomicU64>()
    }
}

/// The largest prime `≤ n`, if any (`n ≥ 2`). Trial division: a table of
/// a few GiB needs a few thousand divisions per candidate.
fn largest_prime_at_most(n: u64) -> Option<u64> {
    (2..=n).rev().find(|&p| is_prime(p))
}

fn is_prime(n: u64) -> bool {
    if n < 4 {
        return n >= 2;
    }
    if n.is_multiple_of(2) {
        return false;
    }
    let mut d = 3;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 2;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes() {
        assert_eq!(largest_prime_at_most(1), None);
        assert_eq!(largest_prime_at_most(2), Some(2));
        assert_eq!(largest_prime_at_most(100), Some(97));
        // 64 MiB of 5-byte slots.
        assert_eq!(Table::<[u8; 5]>::slots_for(64).unwrap(), 13_421_767);
    }

    #[test]
    fn the_standard_board_folds_keys_from_1_mib() {
        // A key is at most twice the board's cells (49 bits on 7 × 6).
        let max_key = 2 * crate::connect4::Connect4::standard().board_mask();
        assert!(Table::<[u8; 5]>::is_exact(Table::<[u8; 5]>::slots_for(1).unwrap(), max_key));
        // The largest boards (56 cells, 64-bit keys) need the wide slots.
        let widest = 2 * crate::connect4::Connect4::new(8, 7).unwrap().board_mask();
        assert!(!Table::<[u8; 5]>::is_exact(Table::<[u8; 5]>::slots_for(64).unwrap(), widest));
        assert!(Table::<u64>::is_exact(Table::<u64>::slots_for(1).unwrap(), u64::MAX));
    }

    #[test]
    fn slots_tell_keys_apart() {
        let mut t = Table::<[u8; 5]>::new(101).unwrap();
        t.put(5, 9);
        assert_eq!(t.get(5), 9);
        // Same slot (5 + 101), other low bits: not a hit. Same low bits
        // (5 + 2^32), other slot: not a hit either.
        assert_eq!(t.get(5 + (1 << 32)), 0);
        assert_eq!(t.get(106), 0);
        t.put(106, 3);
        assert_eq!((t.get(5), t.get(106)), (0, 3));
        let mut w = Table::<u64>::new(101).unwrap();
        w.put(u64::MAX >> 8, 127);
        assert_eq!(w.get(u64::MAX >> 8), 127);
        t.clear();
        assert_eq!(t.get(106), 0);
        // The division-free remainder.
        for key in [0, 1, 100, 101, 102, u64::MAX, u64::MAX - 1, 1 << 49, (1 << 49) + 77] {
            assert_eq!(t.index(key) as u64, key % 101, "{key}");
        }
        let big = Table::<[u8; 5]>::new(Table::<[u8; 5]>::slots_for(1).unwrap()).unwrap();
        for key in (0..1000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
            assert_eq!(big.index(key) as u64, key % big.modulus.len, "{key}");
        }
    }
}
