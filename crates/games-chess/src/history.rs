//! The repetition history: the Zobrist keys of the positions before the
//! current one, since the last irreversible move, in a fixed-capacity ring
//! that lives inside the state and is copied with it (no allocation).

/// How many earlier positions the history keeps. A repetition whose earlier
/// occurrences all lie further back than this is not seen.
pub const HISTORY_CAPACITY: usize = 16;

/// Keys of earlier positions, newest last; at most [`HISTORY_CAPACITY`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct History {
    keys: [u64; HISTORY_CAPACITY],
    /// Index where the next key goes.
    head: u8,
    /// Number of valid keys (≤ capacity).
    len: u8,
}

impl History {
    pub(crate) const fn new() -> Self {
        History { keys: [0; HISTORY_CAPACITY], head: 0, len: 0 }
    }

    /// Forgets every key (after an irreversible move or a null move).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends `key` as the newest entry, dropping the oldest when full.
    #[inline]
    pub(crate) fn push(&mut self, key: u64) {
        self.keys[usize::from(self.head)] = key;
        self.head = ((usize::from(self.head) + 1) % HISTORY_CAPACITY) as u8;
        if usize::from(self.len) < HISTORY_CAPACITY {
            self.len += 1;
        }
    }

    /// Number of keys held.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The key `distance` plies back (1 = the parent), `1 ..= len()`.
    #[inline]
    pub(crate) fn back(&self, distance: usize) -> u64 {
        debug_assert!(distance >= 1 && distance <= self.len());
        let i = (usize::from(self.head) + HISTORY_CAPACITY - distance) % HISTORY_CAPACITY;
        self.keys[i]
    }

    /// Scans for earlier occurrences of `key` with the same side to move
    /// (distances 4, 6, 8, ...: two plies back can never be the same
    /// position). Returns `true` if `key` is a draw by repetition: either two
    /// earlier occurrences (threefold), or one earlier occurrence strictly
    /// less than `twofold_within` plies back (a repetition that lies wholly
    /// inside the search, below its root).
    #[inline]
    pub(crate) fn is_draw(&self, key: u64, twofold_within: usize) -> bool {
        let mut seen = 0;
        let mut d = 4;
        while d <= self.len() {
            if self.back(d) == key {
                if d < twofold_within {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            d += 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_keeps_the_newest_keys() {
        let mut h = History::new();
        for k in 0..(HISTORY_CAPACITY as u64 + 5) {
            h.push(k);
        }
        assert_eq!(h.len(), HISTORY_CAPACITY);
        assert_eq!(h.back(1), HISTORY_CAPACITY as u64 + 4);
        assert_eq!(h.back(HISTORY_CAPACITY), 5);
        h.clear();
        assert_eq!(h.len(), 0);
    }

    #[test]
    fn threefold_needs_two_earlier_occurrences() {
        let mut h = History::new();
        // Key 7 at distances 8 and 4 (pushed oldest first).
        for k in [7, 1, 2, 3, 7, 4, 5, 6] {
            h.push(k);
        }
        assert!(h.is_draw(7, 0));
        let mut once = History::new();
        for k in [7, 4, 5, 6] {
            once.push(k);
        }
        assert!(!once.is_draw(7, 0));
        // Once is enough when the earlier occurrence is below the root.
        assert!(once.is_draw(7, 5));
        assert!(!once.is_draw(7, 4));
        // Odd distances (other side to move) never match.
        let mut odd = History::new();
        for k in [7, 9, 9] {
            odd.push(k);
        }
        assert!(!odd.is_draw(7, 100));
    }
}
