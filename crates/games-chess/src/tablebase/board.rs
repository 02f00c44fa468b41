//! The generator's own board: at most four pieces on 64 squares (a1 = 0,
//! h8 = 63), attack tables, legal moves, un-moves and the symmetry-reduced
//! index. Independent of `shakmaty`, for speed: a table of four pieces has
//! millions of positions and each is visited a few times.

use std::sync::OnceLock;

use super::{Kind, Material, Side};

/// Square helpers.
#[inline]
pub(super) fn file(sq: u8) -> u8 {
    sq & 7
}

#[inline]
pub(super) fn rank(sq: u8) -> u8 {
    sq >> 3
}

#[inline]
fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// Precomputed attack and geometry tables.
pub(super) struct Geometry {
    king: [u64; 64],
    knight: [u64; 64],
    /// Squares a pawn of each side on a square attacks.
    pawn: [[u64; 64]; 2],
    /// Squares strictly between two squares on a line (0 if not aligned).
    between: Vec<u64>,
    /// 1: same rank or file, 2: same diagonal, 0: neither.
    line: Vec<u8>,
    /// The eight symmetries of the square: bit 0 mirrors the files, bit 1
    /// the ranks, bit 2 then swaps files and ranks.
    transform: [[u8; 64]; 8],
}

const KING_STEPS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
pub(super) const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(super) const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

#[inline]
pub(super) fn step(sq: u8, (dx, dy): (i8, i8)) -> Option<u8> {
    let x = file(sq) as i8 + dx;
    let y = rank(sq) as i8 + dy;
    ((0..8).contains(&x) && (0..8).contains(&y)).then(|| (y * 8 + x) as u8)
}

impl Geometry {
    fn new() -> Geometry {
        let mut g = Geometry {
            king: [0; 64],
            knight: [0; 64],
            pawn: [[0; 64]; 2],
            between: vec![0; 64 * 64],
            line: vec![0; 64 * 64],
            transform: [[0; 64]; 8],
        };
        for s in 0..64u8 {
            for d in KING_STEPS {
                if let Some(t) = step(s, d) {
                    g.king[s as usize] |= bit(t);
                }
            }
            for d in KNIGHT_STEPS {
                if let Some(t) = step(s, d) {
                    g.knight[s as usize] |= bit(t);
                }
            }
            for (side, dy) in [(0, 1), (1, -1)] {
                for dx in [-1, 1] {
                    if let Some(t) = step(s, (dx, dy)) {
                        g.pawn[side][s as usize] |= bit(t);
                    }
                }
            }
            for (dirs, kind) in [(ORTHO, 1u8), (DIAG, 2u8)] {
                for d in dirs {
                    let mut between = 0u64;
                    let mut cur = s;
                    while let Some(t) = step(cur, d) {
                        g.between[s as usize * 64 + t as usize] = between;
                        g.line[s as usize * 64 + t as usize] = kind;
                        between |= bit(t);
                        cur = t;
                    }
                }
            }
            for t in 0..8usize {
                let (mut x, mut y) = (file(s), rank(s));
                if t & 1 != 0 {
                    x = 7 - x;
                }
                if t & 2 != 0 {
                    y = 7 - y;
                }
                if t & 4 != 0 {
                    std::mem::swap(&mut x, &mut y);
                }
                g.transform[t][s as usize] = y * 8 + x;
            }
        }
        g
    }
}

/// The shared tables.
pub(super) fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(Geometry::new)
}

/// The squares of the a1–d1–d4 triangle, in index order.
const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// A position of a table: piece `i` of the layout on `sq[i]`, `stm` to
/// move (0 white, 1 black).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pos {
    pub(super) sq: [u8; 4],
    pub(super) stm: u8,
}

/// A move found by [`Layout::moves`].
#[derive(Debug, Clone, Copy)]
pub(super) enum Step {
    /// A move that stays in the table: the position after it.
    Inside(Pos),
    /// A capture or promotion: the position after it, in another table.
    Exit(Board),
}

/// A position of any material with at most four pieces (for moves that
/// leave a table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Board {
    /// (side, kind, square), `n` of them.
    pub(super) pieces: [(Side, Kind, u8); 4],
    pub(super) n: usize,
    pub(super) stm: Side,
}

/// How a table's pieces are laid out: piece 0 is the white king, 1 the
/// black king, then the others in the material's order.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub(super) n: usize,
    pub(super) side: [Side; 4],
    pub(super) kind: [Kind; 4],
    pub(super) pawns: bool,
    /// Pieces 2 and 3 are the same (side and kind).
    twins: bool,
    /// Positions per side to move.
    pub(super) per_side: u32,
    kslots: u32,
    /// Slot of each square for the white king (`u8::MAX` outside the
    /// reduced region).
    slot: [u8; 64],
    slot_square: Vec<u8>,
}

impl Layout {
    pub(super) fn new(material: &Material) -> Layout {
        let mut side = [Side::White; 4];
        let mut kind = [Kind::King; 4];
        side[1] = Side::Black;
        let mut n = 2;
        for (s, list) in [(Side::White, &material.white), (Side::Black, &material.black)] {
            for &k in list.iter() {
                side[n] = s;
                kind[n] = k;
                n += 1;
            }
        }
        let pawns = kind[..n].contains(&Kind::Pawn);
        let twins = n == 4 && side[2] == side[3] && kind[2] == kind[3];
        let mut slot = [u8::MAX; 64];
        let slot_square: Vec<u8> = if pawns { (0..64u8).filter(|&s| file(s) < 4).collect() } else { TRIANGLE.to_vec() };
        for (i, &s) in slot_square.iter().enumerate() {
            slot[s as usize] = i as u8;
        }
        let kslots = slot_square.len() as u32;
        let per_side = kslots * 64u32.pow(n as u32 - 1);
        Layout { n, side, kind, pawns, twins, per_side, kslots, slot, slot_square }
    }

    /// Total entries (both sides to move).
    pub(super) fn size(&self) -> u32 {
        2 * self.per_side
    }

    /// The position of index `idx` (not checked for legality).
    pub(super) fn decode(&self, idx: u32) -> Pos {
        let stm = (idx / self.per_side) as u8;
        let mut rest = idx % self.per_side;
        let mut sq = [0u8; 4];
        for i in (1..self.n).rev() {
            sq[i] = (rest % 64) as u8;
            rest /= 64;
        }
        sq[0] = self.slot_square[rest as usize];
        Pos { sq, stm }
    }

    #[inline]
    fn raw_index(&self, sq: &[u8; 4], stm: u8, t: usize) -> u32 {
        let g = geometry();
        let map = &g.transform[t];
        let mut idx = u32::from(self.slot[map[sq[0] as usize] as usize]);
        debug_assert!(idx < self.kslots);
        let (mut a, mut b) = (map[sq[2] as usize], map[sq[3] as usize]);
        if self.twins && a > b {
            std::mem::swap(&mut a, &mut b);
        }
        let others = [map[sq[1] as usize], a, b];
        for &s in &others[..self.n - 1] {
            idx = idx * 64 + u32::from(s);
        }
        u32::from(stm) * self.per_side + idx
    }

    /// The index of `p`: the same for every position equivalent to it by
    /// the symmetries of the table (the smallest index among them).
    #[inline]
    pub(super) fn index(&self, p: &Pos) -> u32 {
        let wk = p.sq[0];
        let (x, y) = (file(wk), rank(wk));
        if self.pawns {
            let t = usize::from(x > 3);
            return self.raw_index(&p.sq, p.stm, t);
        }
        let mut t = usize::from(x > 3) | (usize::from(y > 3) << 1);
        let (x2, y2) = (if x > 3 { 7 - x } else { x }, if y > 3 { 7 - y } else { y });
        if y2 > x2 {
            t |= 4;
        }
        let first = self.raw_index(&p.sq, p.stm, t);
        if x2 == y2 { first.min(self.raw_index(&p.sq, p.stm, t ^ 4)) } else { first }
    }

    #[inline]
    fn occupancy(&self, p: &Pos) -> u64 {
        p.sq[..self.n].iter().fold(0, |o, &s| o | bit(s))
    }

    /// Whether `target` is attacked by `by`'s pieces, other than piece
    /// `skip`, with `occ` occupied.
    #[inline]
    fn attacked(&self, sq: &[u8; 4], target: u8, by: Side, occ: u64, skip: usize) -> bool {
        let g = geometry();
        for i in 0..self.n {
            if i == skip || self.side[i] != by {
                continue;
            }
            let s = sq[i] as usize;
            let hit = match self.kind[i] {
                Kind::King => g.king[s] & bit(target) != 0,
                Kind::Knight => g.knight[s] & bit(target) != 0,
                Kind::Pawn => g.pawn[by as usize][s] & bit(target) != 0,
                slider => {
                    let line = g.line[s * 64 + target as usize];
                    let fits = match slider {
                        Kind::Bishop => line == 2,
                        Kind::Rook => line == 1,
                        _ => line != 0,
                    };
                    fits && g.between[s * 64 + target as usize] & occ == 0
                }
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// Whether `p` is a legal position of the table: distinct squares, no
    /// pawn on the first or last rank, the side not to move not in check.
    pub(super) fn legal(&self, p: &Pos) -> bool {
        let occ = self.occupancy(p);
        if occ.count_ones() as usize != self.n {
            return false;
        }
        for i in 2..self.n {
            if self.kind[i] == Kind::Pawn && (rank(p.sq[i]) == 0 || rank(p.sq[i]) == 7) {
                return false;
            }
        }
        let waiting = 1 - p.stm;
        let side = Side::from_index(p.stm);
        !self.attacked(&p.sq, p.sq[waiting as usize], side, occ, usize::MAX)
    }

    /// Whether the side to move is in check.
    pub(super) fn in_check(&self, p: &Pos) -> bool {
        let occ = self.occupancy(p);
        let enemy = Side::from_index(1 - p.stm);
        self.attacked(&p.sq, p.sq[p.stm as usize], enemy, occ, usize::MAX)
    }

    /// The board of `p` with piece `captured` removed and piece `moved`
    /// turned into `promoted`.
    fn board(&self, p: &Pos, captured: usize, moved: usize, promoted: Kind) -> Board {
        let mut b = Board { pieces: [(Side::White, Kind::King, 0); 4], n: 0, stm: Side::from_index(p.stm) };
        for i in 0..self.n {
            if i == captured {
                continue;
            }
            let kind = if i == moved { promoted } else { self.kind[i] };
            b.pieces[b.n] = (self.side[i], kind, p.sq[i]);
            b.n += 1;
        }
        b
    }

    /// Calls `f` with every legal move of `p` (a legal position).
    pub(super) fn moves(&self, p: &Pos, mut f: impl FnMut(Step)) {
        let g = geometry();
        let me = Side::from_index(p.stm);
        let enemy = me.other();
        let occ = self.occupancy(p);
        let mut own = 0u64;
        for i in 0..self.n {
            if self.side[i] == me {
                own |= bit(p.sq[i]);
            }
        }
        let king = p.stm as usize;
        let mut targets: [u8; 32] = [0; 32];
        for i in 0..self.n {
            if self.side[i] != me {
                continue;
            }
            let from = p.sq[i];
            let mut count = 0;
            let mut push = |t: u8| {
                targets[count] = t;
                count += 1;
            };
            match self.kind[i] {
                Kind::King => each_bit(g.king[from as usize] & !own, &mut push),
                Kind::Knight => each_bit(g.knight[from as usize] & !own, &mut push),
                Kind::Pawn => {
                    let dy: i8 = if me == Side::White { 1 } else { -1 };
                    if let Some(one) = step(from, (0, dy))
                        && occ & bit(one) == 0
                    {
                        push(one);
                        let home = if me == Side::White { 1 } else { 6 };
                        if rank(from) == home
                            && let Some(two) = step(one, (0, dy))
                            && occ & bit(two) == 0
                        {
                            push(two);
                        }
                    }
                    each_bit(g.pawn[me as usize][from as usize] & occ & !own, &mut push);
                }
                kind => {
                    let dirs: &[(i8, i8)] = match kind {
                        Kind::Bishop => &DIAG,
                        Kind::Rook => &ORTHO,
                        _ => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
                    };
                    for &d in dirs {
                        let mut cur = from;
                        while let Some(t) = step(cur, d) {
                            if own & bit(t) != 0 {
                                break;
                            }
                            push(t);
                            if occ & bit(t) != 0 {
                                break;
                            }
                            cur = t;
                        }
                    }
                }
            }
            for &to in &targets[..count] {
                let captured = (0..self.n).find(|&j| j != i && p.sq[j] == to).unwrap_or(usize::MAX);
                if captured < 2 {
                    continue; // never a king (not in a legal position)
                }
                let mut sq = p.sq;
                sq[i] = to;
                let after = (occ & !bit(from)) | bit(to);
                let king_sq = if i == king { to } else { sq[king] };
                if self.attacked(&sq, king_sq, enemy, after, captured) {
                    continue;
                }
                let next = Pos { sq, stm: 1 - p.stm };
                let promotes = self.kind[i] == Kind::Pawn && (rank(to) == 0 || rank(to) == 7);
                if promotes {
                    for k in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                        f(Step::Exit(self.board(&next, captured, i, k)));
                    }
                } else if captured != usize::MAX {
                    f(Step::Exit(self.board(&next, captured, usize::MAX, Kind::King)));
                } else {
                    f(Step::Inside(next));
                }
            }
        }
    }

    /// Calls `f` with every legal position from which a move that stays in
    /// the table (no capture, no promotion) leads to `p`.
    pub(super) fn unmoves(&self, p: &Pos, mut f: impl FnMut(Pos)) {
        let g = geometry();
        let mover = Side::from_index(1 - p.stm);
        let occ = self.occupancy(p);
        let mut froms: [u8; 32] = [0; 32];
        for i in 0..self.n {
            if self.side[i] != mover {
                continue;
            }
            let to = p.sq[i];
            let mut count = 0;
            let mut push = |t: u8| {
                froms[count] = t;
                count += 1;
            };
            match self.kind[i] {
                Kind::King => each_bit(g.king[to as usize] & !occ, &mut push),
                Kind::Knight => each_bit(g.knight[to as usize] & !occ, &mut push),
                Kind::Pawn => {
                    let dy: i8 = if mover == Side::White { -1 } else { 1 };
                    if let Some(one) = step(to, (0, dy))
                        && occ & bit(one) == 0
                        && rank(one) != 0
                        && rank(one) != 7
                    {
                        push(one);
                        let double_to = if mover == Side::White { 3 } else { 4 };
                        if rank(to) == double_to
                            && let Some(two) = step(one, (0, dy))
                            && occ & bit(two) == 0
                        {
                            push(two);
                        }
                    }
                }
                kind => {
                    let dirs: &[(i8, i8)] = match kind {
                        Kind::Bishop => &DIAG,
                        Kind::Rook => &ORTHO,
                        _ => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
                    };
                    for &d in dirs {
                        let mut cur = to;
                        while let Some(t) = step(cur, d) {
                            if occ & bit(t) != 0 {
                                break;
                            }
                            push(t);
                            cur = t;
                        }
                    }
                }
            }
            for &from in &froms[..count] {
                let mut sq = p.sq;
                sq[i] = from;
                let before = (occ & !bit(to)) | bit(from);
                // The side that did not move must not be in check before.
                let waiting = p.stm as usize;
                if self.attacked(&sq, sq[waiting], mover, before, usize::MAX) {
                    continue;
                }
                f(Pos { sq, stm: 1 - p.stm });
            }
        }
    }

    /// The position of `b` (a board of this table's material, white and
    /// black as in the table) in this layout.
    pub(super) fn pos_of(&self, b: &Board) -> Option<Pos> {
        let mut sq = [0u8; 4];
        let mut used = [false; 4];
        for &(side, kind, s) in &b.pieces[..b.n] {
            let slot = (0..self.n).find(|&i| !used[i] && self.side[i] == side && self.kind[i] == kind)?;
            used[slot] = true;
            sq[slot] = s;
        }
        used[..self.n].iter().all(|&u| u).then_some(Pos { sq, stm: b.stm as u8 })
    }
}

#[inline]
fn each_bit(mut bits: u64, f: &mut impl FnMut(u8)) {
    while bits != 0 {
        f(bits.trailing_zeros() as u8);
        bits &= bits - 1;
    }
}
