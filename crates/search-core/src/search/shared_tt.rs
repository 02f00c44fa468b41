//! The lock-free transposition table that Lazy SMP threads share: entries
//! packed in atomics (std only, no `unsafe`), torn writes detected by a key
//! check.
//!
//! A slot is three `AtomicU64` words: the value's bits, a packed `meta` word
//! (depth, move fingerprint, bound, horizon flag, age, a valid bit) and
//! `check = key ^ value ^ meta`. Writers store the three words one after
//! the other with relaxed ordering; a reader loads them and accepts the
//! slot only if `check ^ value ^ meta` is the key it looks for. A read that
//! interleaves with a write (words from two different entries) fails the
//! check and is a miss, not a wrong value (the XOR trick of Hyatt and Mann).
//!
//! Moves are stored as a 16-bit fingerprint of their `Hash`; the probing
//! thread finds the move among those it generates. A fingerprint shared by
//! two legal moves of one position only changes the move order, never a
//! value.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::ParamError;
use crate::rng::splitmix64;
use crate::window::Bound;

const VALID: u64 = 1 << 60;
const HAS_MOVE: u64 = 1 << 48;

/// Two slots of three words: one cache line.
#[derive(Debug)]
#[repr(align(64))]
struct Bucket([AtomicU64; 6]);

impl Bucket {
    fn empty() -> Self {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// One decoded slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SharedEntry {
    pub(crate) value: f64,
    pub(crate) print: Option<u16>,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
    pub(crate) horizon: bool,
    pub(crate) age: u8,
}

fn pack(e: &SharedEntry) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    u64::from(e.depth as u32)
        | e.print.map_or(0, |p| (u64::from(p) << 32) | HAS_MOVE)
        | (bound << 49)
        | (u64::from(e.horizon) << 51)
        | (u64::from(e.age) << 52)
        | VALID
}

fn unpack(value: u64, meta: u64) -> SharedEntry {
    SharedEntry {
        value: f64::from_bits(value),
        print: (meta & HAS_MOVE != 0).then_some((meta >> 32) as u16),
        depth: meta as u32 as i32,
        bound: match (meta >> 49) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        horizon: (meta >> 51) & 1 == 1,
        age: (meta >> 52) as u8,
    }
}

/// A 16-bit fingerprint of a move (FNV-1a over its `Hash`, mixed).
pub(crate) fn fingerprint<M: Hash>(mv: &M) -> u16 {
    struct Fnv(u64);
    impl Hasher for Fnv {
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        fn finish(&self) -> u64 {
            splitmix64(self.0)
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut h);
    (h.finish() >> 48) as u16
}

/// The shared table: buckets of two slots, the first depth-preferred (with
/// aging), the second always replaced, as in the single-threaded table.
#[derive(Debug)]
pub(crate) struct SharedTable {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl SharedTable {
    /// A table of at most `mib` MiB (a power of two of 64-byte buckets, at
    /// least one).
    pub(crate) fn with_mib(mib: usize) -> Result<Self, ParamError> {
        let bytes = mib
            .checked_mul(1 << 20)
            .ok_or_else(|| ParamError::new("table_mib", format!("{mib} MiB overflows the address space")))?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = if n.is_power_of_two() { n } else { n.next_power_of_two() >> 1 };
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|e| ParamError::new("table_mib", format!("cannot allocate a table of {mib} MiB: {e}")))?;
        buckets.resize_with(n, Bucket::empty);
        Ok(SharedTable { buckets, mask: n - 1 })
    }

    /// Forgets everything (no search may be running).
    pub(crate) fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key ^ (key >> 32)) as usize & self.mask]
    }

    /// Slot `i` of `b`: `(key, value bits, meta)`, or `None` if empty. The
    /// key is the check word undone: torn slots give a key nobody asks for.
    #[inline]
    fn read(b: &Bucket, i: usize) -> Option<(u64, u64, u64)> {
        let check = b.0[3 * i].load(Ordering::Relaxed);
        let value = b.0[3 * i + 1].load(Ordering::Relaxed);
        let meta = b.0[3 * i + 2].load(Ordering::Relaxed);
        (meta & VALID != 0).then_some((check ^ value ^ meta, value, meta))
    }

    #[inline]
    fn write(b: &Bucket, i: usize, key: u64, value: u64, meta: u64) {
        b.0[3 * i + 1].store(value, Ordering::Relaxed);
        b.0[3 * i + 2].store(meta, Ordering::Relaxed);
        b.0[3 * i].store(key ^ value ^ meta, Ordering::Relaxed);
    }

    pub(crate) fn probe(&self, key: u64) -> Option<SharedEntry> {
        let b = self.bucket(key);
        (0..2).find_map(|i| Self::read(b, i).filter(|s| s.0 == key).map(|(_, v, m)| unpack(v, m)))
    }

    pub(crate) fn store(&self, key: u64, entry: SharedEntry) {
        let b = self.bucket(key);
        let first = Self::read(b, 0);
        let replace_first = match first {
            None => true,
            Some((k, v, m)) => {
                let e = unpack(v, m);
                k == key || e.age != entry.age || entry.depth >= e.depth
            }
        };
        if replace_first {
            let mut entry = entry;
            if let Some((k, v, m)) = first {
                if k == key {
                    // Keep the best move of an older result of the position.
                    entry.print = entry.print.or(unpack(v, m).print);
                } else {
                    Self::write(b, 1, k, v, m);
                }
            }
            Self::write(b, 0, key, entry.value.to_bits(), pack(&entry));
        } else {
            Self::write(b, 1, key, entry.value.to_bits(), pack(&entry));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn entry(value: f64, depth: i32) -> SharedEntry {
        SharedEntry { value, print: Some(7), depth, bound: Bound::Lower, horizon: true, age: 3 }
    }

    #[test]
    fn packs_and_replaces() {
        let t = SharedTable::with_mib(0).unwrap();
        assert_eq!(t.probe(5), None);
        assert_eq!(t.probe(0), None, "an empty slot matches no key, not even 0");
        t.store(5, entry(-2.5, 7));
        assert_eq!(t.probe(5), Some(entry(-2.5, 7)));
        t.store(6, entry(1.0, 3)); // shallower: second slot
        assert_eq!(t.probe(5).unwrap().depth, 7);
        assert_eq!(t.probe(6).unwrap().value, 1.0);
        let e = SharedEntry { print: None, bound: Bound::Exact, horizon: false, depth: -4, ..entry(f64::INFINITY, 0) };
        t.store(5, e);
        assert_eq!(t.probe(5), Some(SharedEntry { print: Some(7), ..e }), "the old move is kept");
        t.clear();
        assert_eq!(t.probe(5), None);
        assert_ne!(fingerprint(&1u8), fingerprint(&2u8));
    }

    #[test]
    fn torn_writes_are_misses() {
        // Threads hammer one bucket with entries whose value, depth and key
        // are tied together; a reader must never see a mixture. Keys are
        // hashes, as in a search (keys equal to the depths would let torn
        // words cancel out in the check: key differences must not be
        // meta differences, which 64-bit hash keys make vanishingly rare).
        let key_of = |i: u64| splitmix64(i);
        let t = Arc::new(SharedTable::with_mib(0).unwrap());
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writers: Vec<_> = (0..2u64)
            .map(|w| {
                let (t, stop) = (Arc::clone(&t), Arc::clone(&stop));
                std::thread::spawn(move || {
                    let mut i = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let k = 1 + (i + w) % 4;
                        t.store(key_of(k), entry(k as f64 * 10.0, k as i32));
                        i += 1;
                    }
                })
            })
            .collect();
        for _ in 0..200_000 {
            for k in 1..=4u64 {
                if let Some(e) = t.probe(key_of(k)) {
                    assert_eq!((e.value, e.depth), (k as f64 * 10.0, k as i32));
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        writers.into_iter().for_each(|h| h.join().unwrap());
    }
}
