//! Fixed Zobrist keys, generated at compile time.
//!
//! The keys are a SplitMix64 stream from a per-game seed, evaluated by a
//! `const fn`: they are the same on every machine and in every run, so hash
//! keys can be written to files and compared across runs.

use search_core::rng::splitmix64;

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// `N` keys: the first `N` outputs of SplitMix64 started at `seed`.
pub(crate) const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        out[i] = splitmix64(state);
        state = state.wrapping_add(GOLDEN);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        const K: [u64; 512] = keys(1);
        let mut sorted = K.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 512);
        assert!(K.iter().all(|&k| k != 0));
    }
}
