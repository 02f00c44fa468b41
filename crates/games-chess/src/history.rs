//! The repetition history: the Zobrist keys of the positions before the
//! current one, since the last irreversible move, in a fixed-capacity array
//! that lives inside the state and is copied with it (no allocation).
//!
//! The fifty-move rule bounds the reversible part of a game: a position
//! whose halfmove clock reaches 100 is a draw anyway, so the 100 positions
//! before it are all a repetition can ever need. The history therefore keeps
//! up to [`HISTORY_CAPACITY`] = 100 keys, which is the whole game since the
//! last capture or pawn move whenever the fifty-move rule is in force.

/// How many earlier positions the history keeps: the 100 reversible plies
/// the fifty-move rule allows. Only when a game goes on past a fifty-move
/// draw (the rule switched off, or a GUI playing on) are the oldest keys
/// dropped, and a repetition whose earlier occurrences all lie more than 100
/// plies back not seen.
pub const HISTORY_CAPACITY: usize = 100;

/// Keys of earlier positions in a ring, newest at `head − 1`; at most
/// [`HISTORY_CAPACITY`]. Slots outside the live ring are never read (and
/// may hold stale keys after [`clone_live_from`](History::clone_live_from)).
#[derive(Debug, Clone, Copy)]
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

    /// Makes `self` equal to `source` by copying only its live keys (the
    /// `len` slots before `head`), not the whole array.
    #[inline]
    pub(crate) fn clone_live_from(&mut self, source: &History) {
        let (head, len) = (usize::from(source.head), usize::from(source.len));
        if len <= head {
            self.keys[head - len..head].copy_from_slice(&source.keys[head - len..head]);
        } else {
            let wrapped = HISTORY_CAPACITY - (len - head);
            self.keys[..head].copy_from_slice(&source.keys[..head]);
            self.keys[wrapped..].copy_from_slice(&source.keys[wrapped..]);
        }
        self.head = source.head;
        self.len = source.len;
    }

    /// Appends `key` as the newest entry, dropping the oldest when full.
    #[inline]
    pub(crate) fn push(&mut self, key: u64) {
        let head = usize::from(self.head);
        self.keys[head] = key;
        self.head = if head + 1 == HISTORY_CAPACITY { 0 } else { head as u8 + 1 };
        if usize::from(self.len) < HISTORY_CAPACITY {
            self.len += 1;
        }
    }

    /// Number of keys held.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The index of the key `distance` plies back, `1 ..= len()`.
    #[inline]
    fn index(&self, distance: usize) -> usize {
        let head = usize::from(self.head);
        if distance <= head { head - distance } else { head + HISTORY_CAPACITY - distance }
    }

    /// The key `distance` plies back (1 = the parent), `1 ..= len()`.
    #[cfg(test)]
    pub(crate) fn back(&self, distance: usize) -> u64 {
        debug_assert!(distance >= 1 && distance <= self.len());
        self.keys[self.index(distance)]
    }

    /// Scans for earlier occurrences of `key` with the same side to move
    /// (distances 4, 6, 8, ...: two plies back can never be the same
    /// position), over the whole history. Returns `true` if `key` is a draw
    /// by repetition: either two earlier occurrences (threefold), or one
    /// earlier occurrence strictly less than `twofold_within` plies back (a
    /// repetition that lies wholly inside the search, below its root).
    #[inline]
    pub(crate) fn is_draw(&self, key: u64, twofold_within: usize) -> bool {
        let len = self.len();
        if len < 4 {
            return false;
        }
        let mut seen = 0;
        let mut d = 4;
        let mut i = self.index(4);
        loop {
            if self.keys[i] == key {
                if d < twofold_within {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            d += 2;
            if d > len {
                return false;
            }
            i = if i >= 2 { i - 2 } else { i + HISTORY_CAPACITY - 2 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_keeps_the_newest_keys() {
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
    fn clone_live_from_copies_the_live_keys() {
        // Live rings that do and do not wrap around the array's end, copied
        // over a history full of other keys.
        for pushed in [0u64, 3, 60, HISTORY_CAPACITY as u64, HISTORY_CAPACITY as u64 + 37, 250] {
            let mut source = History::new();
            for k in 0..pushed {
                source.push(1000 + k);
            }
            let mut copy = History::new();
            for k in 0..(HISTORY_CAPACITY as u64 + 11) {
                copy.push(k);
            }
            copy.clone_live_from(&source);
            assert_eq!(copy.len(), source.len(), "{pushed}");
            for d in 1..=source.len() {
                assert_eq!(copy.back(d), source.back(d), "{pushed} keys, distance {d}");
            }
            // Pushing on goes on alike.
            source.push(7);
            copy.push(7);
            for d in 1..=source.len() {
                assert_eq!(copy.back(d), source.back(d), "{pushed} keys + 1, distance {d}");
            }
        }
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
        let mut odd = History::new();
        for k in [7, 9, 9, 9, 7, 9, 9, 9, 9] {
            odd.push(k);
        }
        assert!(!odd.is_draw(7, 0));
    }

    /// Item 2 of the robustness issue: the old 16-key ring missed a cycle
    /// longer than 16 plies.
    #[test]
    fn repetitions_up_to_the_fifty_move_bound_are_seen() {
        for cycle in [18usize, 20, 48] {
            let mut h = History::new();
            // The key 1 at distances 2·cycle and cycle, other keys between.
            for i in 0..2 * cycle {
                h.push(if i % cycle == 0 { 1 } else { 1000 + i as u64 });
            }
            assert!(h.is_draw(1, 0), "cycle {cycle}");
        }
        // The earliest occurrence 100 plies back still counts.
        let mut h = History::new();
        for i in 0..HISTORY_CAPACITY {
            h.push(if i == 0 || i == 50 { 1 } else { 1000 + i as u64 });
        }
        assert!(h.is_draw(1, 0));
    }
}
