//! Seeded randomness: the project's named PRNG and seed derivation.
//!
//! Every random choice in the library takes an explicit RNG or seed. The same
//! seed gives the same result on every machine: [`Rng`] is PCG-64 (MCG
//! variant) from `rand_pcg`, whose output is fixed by its specification, and
//! [`derive_seed`] is SplitMix64.
//!
//! The `rand` items the library's API takes are re-exported here
//! ([`RngCore`], [`Rng`](rand::Rng) as [`RngExt`], the whole crate as
//! [`rand`]), so a downstream crate need not match our `rand` version.

pub use rand;
pub use rand::Rng as RngExt;
pub use rand::RngCore;

/// The PRNG used wherever the library makes its own generator from a seed.
pub type Rng = rand_pcg::Pcg64Mcg;

/// A generator seeded with `seed` (expanded by SplitMix64, so nearby seeds give
/// unrelated streams).
///
/// ```
/// use rand::Rng as _;
/// let a: u64 = search_core::rng::seeded(7).random();
/// let b: u64 = search_core::rng::seeded(7).random();
/// assert_eq!(a, b);
/// ```
pub fn seeded(seed: u64) -> Rng {
    let lo = splitmix64(seed);
    let hi = splitmix64(lo ^ 0xA076_1D64_78BD_642F);
    Rng::new((u128::from(hi) << 64) | u128::from(lo) | 1)
}

/// A seed for sub-task `index` of a run seeded with `master` (a game of a
/// match series, a tree of an experiment): independent of how the sub-tasks
/// are scheduled over threads or machines.
///
/// ```
/// use search_core::rng::derive_seed;
/// assert_ne!(derive_seed(1, 0), derive_seed(1, 1));
/// assert_eq!(derive_seed(1, 5), derive_seed(1, 5));
/// ```
pub fn derive_seed(master: u64, index: u64) -> u64 {
    splitmix64(splitmix64(master) ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The SplitMix64 finaliser: a fast bijective mixer of 64-bit words.
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Samples an index from a probability vector with `rng` (by inversion).
///
/// The weights need not be normalised; they must be non-negative with a
/// positive sum. Returns the last index with positive weight if rounding
/// leaves the draw past the end.
///
/// ```
/// use search_core::rng::{self, sample_index};
/// let mut r = rng::seeded(3);
/// assert_eq!(sample_index(&[0.0, 1.0, 0.0], &mut r), 1);
/// ```
pub fn sample_index(weights: &[f64], rng: &mut dyn RngCore) -> usize {
    use rand::Rng as _;
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    let mut last = 0;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            if x < w {
                return i;
            }
            x -= w;
            last = i;
        }
    }
    last
}
