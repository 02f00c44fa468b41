//! Move ordering: transposition-table move, game hints, killer moves and the
//! history heuristic.

use std::hash::{Hash, Hasher};

const HISTORY_SIZE: usize = 1 << 12;
const HISTORY_MAX: i64 = 1 << 28;
/// The bound a history score approaches under the malus's gravity.
const GRAVITY_MAX: i64 = 1 << 14;
/// The largest single update under the malus (a quarter of the bound).
const GRAVITY_STEP: i64 = GRAVITY_MAX / 4;

/// Killer moves (two per ply) and a history table (per player, indexed by a
/// hash of the move or of the game's [history key](crate::Game::history_key);
/// collisions only blur the ordering).
#[derive(Debug)]
pub(crate) struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i64>,
    use_killers: bool,
    use_history: bool,
}

/// A quiet move searched at a node, with the game's history key of it: what
/// [`Ordering::record_quiet_cutoff`] lowers when a later move cuts off.
pub(crate) type Tried<M> = (M, Option<u64>);

/// Sort keys: the TT move first, then by game hint, then killers, then history.
pub(crate) const TT_MOVE_KEY: i64 = i64::MAX;
const HINT_SHIFT: u32 = 32;
const KILLER_1: i64 = 1 << 30;
const KILLER_2: i64 = 1 << 29;

impl<M: Copy + Eq + Hash> Ordering<M> {
    pub(crate) fn new() -> Self {
        Ordering { killers: Vec::new(), history: vec![0; 2 * HISTORY_SIZE], use_killers: false, use_history: false }
    }

    /// Switches killer moves and the history heuristic on or off.
    pub(crate) fn set_heuristics(&mut self, killers: bool, history: bool) {
        self.use_killers = killers;
        self.use_history = history;
    }

    pub(crate) fn clear(&mut self) {
        self.killers.clear();
        self.history.fill(0);
    }

    /// The history table's slot of `mv` for `player`: by the game's key
    /// `game_key` of the move if it gives one, else by the move's hash.
    #[inline]
    fn history_index(player: usize, mv: &M, game_key: Option<u64>) -> usize {
        let key = game_key.unwrap_or_else(|| {
            let mut h = FxHasher(0);
            mv.hash(&mut h);
            h.0
        });
        player * HISTORY_SIZE + (crate::rng::splitmix64(key) as usize & (HISTORY_SIZE - 1))
    }

    /// The sort key of `mv` (larger first), except for the TT move, whose
    /// key is [`TT_MOVE_KEY`]; `game_key` is the game's history key of it.
    #[inline]
    pub(crate) fn key(&self, mv: M, game_key: Option<u64>, hint: i32, ply: usize, player: usize) -> i64 {
        let mut key = i64::from(hint) << HINT_SHIFT;
        if self.use_killers
            && let Some(k) = self.killers.get(ply)
        {
            if k[0] == Some(mv) {
                key += KILLER_1;
            } else if k[1] == Some(mv) {
                key += KILLER_2;
            }
        }
        if self.use_history {
            key += self.history[Self::history_index(player, &mv, game_key)];
        }
        key
    }

    /// Records that `mv` (with the game's history key `game_key`) caused a
    /// cutoff at `ply` with `depth` plies left.
    pub(crate) fn record_cutoff(&mut self, mv: M, game_key: Option<u64>, ply: usize, player: usize, depth: i32) {
        self.record_killer(mv, ply);
        let d = i64::from(depth.clamp(0, 64));
        let h = &mut self.history[Self::history_index(player, &mv, game_key)];
        *h += d * d;
        if *h > HISTORY_MAX {
            // Age the whole table so it keeps ordering recent cutoffs.
            for v in &mut self.history {
                *v /= 2;
            }
        }
    }

    /// The history with malus ([`Options::history_malus`](super::Options::history_malus)):
    /// the quiet move `mv` caused a cut-off at `ply` with `depth` plies
    /// left after the quiet moves `tried` failed there. `mv` becomes the
    /// ply's first killer and gains a bonus growing with the depth; each of
    /// `tried` loses as much. Every update is damped by the score's
    /// distance from the bound (gravity: `h += b − h·|b|/max`), so scores
    /// stay within ±max and follow recent cut-offs without aging the table.
    pub(crate) fn record_quiet_cutoff(
        &mut self,
        mv: M,
        game_key: Option<u64>,
        ply: usize,
        player: usize,
        depth: i32,
        tried: &[Tried<M>],
    ) {
        self.record_killer(mv, ply);
        if !self.use_history {
            return;
        }
        let d = i64::from(depth.clamp(1, 64));
        let bonus = (16 * d * d).min(GRAVITY_STEP);
        let mut update = |m: &M, key: Option<u64>, b: i64| {
            let h = &mut self.history[Self::history_index(player, m, key)];
            *h += b - *h * b.abs() / GRAVITY_MAX;
        };
        update(&mv, game_key, bonus);
        for (m, key) in tried {
            update(m, *key, -bonus);
        }
    }

    /// Makes `mv` the first killer of `ply` (the first one before becomes
    /// the second) if killers are on.
    fn record_killer(&mut self, mv: M, ply: usize) {
        if !self.use_killers {
            return;
        }
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }
}

/// A small, fast, fixed hasher for move history (FxHash's multiply-rotate).
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cut-off move rises above the quiet moves tried before it, they
    /// sink below an untouched move, and no score leaves ±GRAVITY_MAX however
    /// often it is pushed.
    #[test]
    fn malus_orders_and_stays_bounded() {
        let mut o = Ordering::<u8>::new();
        o.set_heuristics(true, true);
        let key = |o: &Ordering<u8>, mv: u8| o.key(mv, None, 0, 9, 0);
        o.record_quiet_cutoff(3, None, 0, 0, 4, &[(1, None), (2, None)]);
        assert!(key(&o, 3) > key(&o, 7), "the cut-off move gains");
        assert!(key(&o, 1) < key(&o, 7) && key(&o, 2) < key(&o, 7), "the tried moves lose");
        assert_eq!(o.killers[0][0], Some(3));
        for _ in 0..1000 {
            o.record_quiet_cutoff(3, None, 1, 0, 60, &[(1, None)]);
        }
        let h = |mv: u8| o.history[Ordering::<u8>::history_index(0, &mv, None)];
        assert!(h(3) > GRAVITY_MAX / 2 && h(3) <= GRAVITY_MAX, "{}", h(3));
        assert!(h(1) < -GRAVITY_MAX / 2 && h(1) >= -GRAVITY_MAX, "{}", h(1));
        // The other player's scores are apart.
        assert_eq!(o.key(3, None, 0, 9, 1), 0);
    }
}
