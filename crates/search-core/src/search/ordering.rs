//! Move ordering: transposition-table move, game hints, killer moves and the
//! history heuristic.

use std::hash::{Hash, Hasher};

const HISTORY_SIZE: usize = 1 << 12;
const HISTORY_MAX: i64 = 1 << 28;

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
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
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
