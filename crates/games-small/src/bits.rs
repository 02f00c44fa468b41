//! A 256-bit set (four 64-bit words) with the shifts a bitboard needs.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// 256 bits; bit `i` is bit `i % 64` of word `i / 64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Bits256(pub(crate) [u64; 4]);

impl Bits256 {
    pub(crate) const EMPTY: Bits256 = Bits256([0; 4]);

    /// The set holding bit `i` alone (`i < 256`).
    #[inline(always)]
    pub(crate) const fn bit(i: usize) -> Bits256 {
        let mut w = [0; 4];
        w[i / 64] = 1 << (i % 64);
        Bits256(w)
    }

    #[inline(always)]
    pub(crate) const fn test(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    #[inline(always)]
    pub(crate) const fn with(mut self, i: usize) -> Bits256 {
        self.0[i / 64] |= 1 << (i % 64);
        self
    }

    #[inline(always)]
    pub(crate) const fn and(self, o: Bits256) -> Bits256 {
        Bits256([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2], self.0[3] & o.0[3]])
    }

    #[inline(always)]
    pub(crate) const fn count(&self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones() + self.0[3].count_ones()
    }

    /// Bits moved towards higher indices by `n` (bits shifted past 255 are lost).
    #[inline(always)]
    pub(crate) const fn shl(self, n: u32) -> Bits256 {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        let mut i = 3;
        loop {
            if i >= words {
                let src = i - words;
                let mut v = self.0[src] << bits;
                if bits != 0 && src > 0 {
                    v |= self.0[src - 1] >> (64 - bits);
                }
                out[i] = v;
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        Bits256(out)
    }

    /// Bits moved towards lower indices by `n` (bits shifted below 0 are lost).
    #[inline(always)]
    pub(crate) const fn shr(self, n: u32) -> Bits256 {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        let mut i = 0;
        while i < 4 {
            let src = i + words;
            if src < 4 {
                let mut v = self.0[src] >> bits;
                if bits != 0 && src + 1 < 4 {
                    v |= self.0[src + 1] << (64 - bits);
                }
                out[i] = v;
            }
            i += 1;
        }
        Bits256(out)
    }

    /// Removes and returns the lowest set bit's index, if any.
    #[inline(always)]
    pub(crate) fn pop_lowest(&mut self) -> Option<usize> {
        for (k, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(k * 64 + i);
            }
        }
        None
    }
}

impl BitAnd for Bits256 {
    type Output = Bits256;
    #[inline(always)]
    fn bitand(self, o: Bits256) -> Bits256 {
        self.and(o)
    }
}

impl BitOr for Bits256 {
    type Output = Bits256;
    #[inline(always)]
    fn bitor(self, o: Bits256) -> Bits256 {
        Bits256([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2], self.0[3] | o.0[3]])
    }
}

impl BitXor for Bits256 {
    type Output = Bits256;
    #[inline(always)]
    fn bitxor(self, o: Bits256) -> Bits256 {
        Bits256([self.0[0] ^ o.0[0], self.0[1] ^ o.0[1], self.0[2] ^ o.0[2], self.0[3] ^ o.0[3]])
    }
}

impl Not for Bits256 {
    type Output = Bits256;
    #[inline(always)]
    fn not(self) -> Bits256 {
        Bits256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl BitAndAssign for Bits256 {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bits256) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bits256 {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bits256) {
        *self = *self | o;
    }
}

impl BitXorAssign for Bits256 {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bits256) {
        *self = *self ^ o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_shift(b: Bits256, n: i32) -> Bits256 {
        let mut out = Bits256::EMPTY;
        for i in 0..256 {
            let j = i as i32 + n;
            if b.test(i) && (0..256).contains(&j) {
                out = out.with(j as usize);
            }
        }
        out
    }

    #[test]
    fn shifts_match_a_naive_shift() {
        let mut rng = search_core::rng::seeded(5);
        for _ in 0..200 {
            let b = Bits256(std::array::from_fn(|_| rand::Rng::random(&mut rng)));
            for n in [0u32, 1, 15, 16, 17, 63, 64, 65, 68, 127, 128, 200, 255] {
                assert_eq!(b.shl(n), naive_shift(b, n as i32), "shl {n}");
                assert_eq!(b.shr(n), naive_shift(b, -(n as i32)), "shr {n}");
            }
        }
    }

    #[test]
    fn pop_lowest_walks_every_bit() {
        let mut b = Bits256::bit(3) | Bits256::bit(64) | Bits256::bit(255);
        assert_eq!(b.count(), 3);
        assert_eq!(b.pop_lowest(), Some(3));
        assert_eq!(b.pop_lowest(), Some(64));
        assert_eq!(b.pop_lowest(), Some(255));
        assert_eq!(b.pop_lowest(), None);
        assert_eq!(b.count(), 0);
    }
}
