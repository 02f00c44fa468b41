//! Endgame tablebases generated here by retrograde analysis: the distance
//! to mate of every position of an endgame with at most four pieces (no
//! castling rights), both sides to move, and a search oracle that probes
//! them.
//!
//! * [`Material`]: an endgame such as `KBNK` (white's pieces, then
//!   black's, each starting with its king); `KRKQ` is read as `KQKR` with
//!   the colours swapped. Pawns may belong to one side only (so en passant
//!   never arises).
//! * [`Generator`]: builds a [`Table`] and, on the way, the tables its
//!   captures and promotions lead to (`KQKR` needs `KQK` and `KRK`, `KPK`
//!   needs `KQK`, `KRK`, `KBK`, `KNK`).
//! * [`Table`]: one byte per position, reduced by the board's symmetries
//!   (eight for pawnless endgames, left–right with pawns); saved and loaded
//!   in the documented file format ([`Table::write_to`]); probed with
//!   [`Table::probe`].
//! * [`Tablebases`]: the tables of a directory, probed by material, and an
//!   [`Oracle`] for the search.
//!
//! Distances are in plies to checkmate with best play (the winner mates as
//! fast as possible, the loser delays as long as possible), ignoring the
//! fifty-move rule.
//!
//! ```
//! use games_chess::tablebase::{Dtm, Generator, Material};
//! use games_chess::ChessGame;
//!
//! let krk: Material = "KRK".parse()?;
//! let table = Generator::new().generate(&krk, &mut |_| {})?;
//! assert_eq!(table.stats().longest_mate, 16); // moves, white to move
//! let g = ChessGame::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1")?;
//! assert_eq!(table.probe(g.position())?, Dtm::Win(1)); // Ra8#
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod generate;

use std::collections::HashMap;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use search_core::search::{Oracle, Probe};
use shakmaty::{Chess, Position};

use crate::ChessGame;
use board::{Board, Layout};

/// A side, as the generator numbers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    fn from_index(i: u8) -> Side {
        if i == 0 { Side::White } else { Side::Black }
    }

    fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Kind {
    fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }

    /// Order within a side: queen first, pawn last.
    fn strength(self) -> u8 {
        match self {
            Kind::King => 6,
            Kind::Queen => 5,
            Kind::Rook => 4,
            Kind::Bishop => 3,
            Kind::Knight => 2,
            Kind::Pawn => 1,
        }
    }

    fn from_role(role: shakmaty::Role) -> Kind {
        match role {
            shakmaty::Role::King => Kind::King,
            shakmaty::Role::Queen => Kind::Queen,
            shakmaty::Role::Rook => Kind::Rook,
            shakmaty::Role::Bishop => Kind::Bishop,
            shakmaty::Role::Knight => Kind::Knight,
            shakmaty::Role::Pawn => Kind::Pawn,
        }
    }
}

/// The most pieces (kings included) a table may have.
pub const MAX_PIECES: usize = 4;

/// An endgame's material: the pieces of each side besides its king, the
/// stronger side as white (`KRKQ` is stored as `KQKR`).
///
/// ```
/// use games_chess::tablebase::Material;
/// let m: Material = "KRKQ".parse()?;
/// assert_eq!(m.to_string(), "KQKR");
/// assert!("KPKP".parse::<Material>().is_err()); // pawns on both sides
/// assert!("KQRBK".parse::<Material>().is_err()); // five pieces
/// # Ok::<(), games_chess::tablebase::TablebaseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Material {
    white: Vec<Kind>,
    black: Vec<Kind>,
}

impl Material {
    /// The material of `white` and `black` piece lists (kings excluded),
    /// normalised; `true` if the colours were swapped to put the stronger
    /// side first.
    fn normalised(mut white: Vec<Kind>, mut black: Vec<Kind>) -> Result<(Material, bool), TablebaseError> {
        let n = white.len() + black.len() + 2;
        if n > MAX_PIECES {
            return Err(TablebaseError::Material(format!("{n} pieces: at most {MAX_PIECES} are supported")));
        }
        if white.contains(&Kind::Pawn) && black.contains(&Kind::Pawn) {
            return Err(TablebaseError::Material("pawns on both sides (en passant) are not supported".to_string()));
        }
        let key = |v: &mut Vec<Kind>| {
            v.sort_by_key(|k| std::cmp::Reverse(k.strength()));
            (v.len(), v.iter().map(|k| k.strength()).collect::<Vec<_>>())
        };
        let (kw, kb) = (key(&mut white), key(&mut black));
        if kb > kw {
            Ok((Material { white: black, black: white }, true))
        } else {
            Ok((Material { white, black }, false))
        }
    }

    /// Every piece count (kings included).
    pub fn pieces(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// Whether a side has pawns (the table then has left–right symmetry
    /// only).
    pub fn has_pawns(&self) -> bool {
        self.white.contains(&Kind::Pawn) || self.black.contains(&Kind::Pawn)
    }

    /// The materials that captures and promotions lead to.
    fn successors(&self) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        let mut add = |w: Vec<Kind>, b: Vec<Kind>| {
            if let Ok((m, _)) = Material::normalised(w, b)
                && &m != self
                && !out.contains(&m)
            {
                out.push(m);
            }
        };
        let sides = [(&self.white, &self.black), (&self.black, &self.white)];
        for (flip, (mine, theirs)) in sides.into_iter().enumerate() {
            let put = |m: Vec<Kind>, t: Vec<Kind>| if flip == 0 { (m, t) } else { (t, m) };
            // My piece i captured by the other side.
            for i in 0..mine.len() {
                let mut m = mine.clone();
                m.remove(i);
                let (w, b) = put(m, theirs.clone());
                add(w, b);
            }
            // My pawn promotes, capturing or not.
            for i in (0..mine.len()).filter(|&i| mine[i] == Kind::Pawn) {
                for k in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                    let mut m = mine.clone();
                    m[i] = k;
                    let (w, b) = put(m.clone(), theirs.clone());
                    add(w, b);
                    for j in 0..theirs.len() {
                        let mut t = theirs.clone();
                        t.remove(j);
                        let (w, b) = put(m.clone(), t);
                        add(w, b);
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |v: &Vec<Kind>| std::iter::once('K').chain(v.iter().map(|k| k.letter())).collect::<String>();
        write!(f, "{}{}", side(&self.white), side(&self.black))
    }
}

impl FromStr for Material {
    type Err = TablebaseError;

    /// `K…K…`: white's king and pieces, then black's (letters `QRBNP`,
    /// case-insensitive).
    fn from_str(s: &str) -> Result<Material, TablebaseError> {
        let bad = |why: &str| TablebaseError::Material(format!("{:?}: {why}", search_core::GameError::shorten(s)));
        let upper = s.trim().to_ascii_uppercase();
        let rest = upper.strip_prefix('K').ok_or_else(|| bad("must start with K (white's king)"))?;
        let (w, b) = rest.split_once('K').ok_or_else(|| bad("needs a second K (black's king)"))?;
        let kinds = |text: &str| -> Result<Vec<Kind>, TablebaseError> {
            text.chars()
                .map(|c| match c {
                    'Q' => Ok(Kind::Queen),
                    'R' => Ok(Kind::Rook),
                    'B' => Ok(Kind::Bishop),
                    'N' => Ok(Kind::Knight),
                    'P' => Ok(Kind::Pawn),
                    _ => Err(bad(&format!("unexpected {c:?} (pieces are Q, R, B, N, P; one K per side)"))),
                })
                .collect()
        };
        Material::normalised(kinds(w)?, kinds(b)?).map(|(m, _)| m)
    }
}

/// A position's value with best play, from the side to move's point of
/// view: distances in plies to checkmate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dtm {
    /// The side to move mates in this many plies (odd: a mate in `n`
    /// moves is `2n − 1` plies).
    Win(u32),
    /// The side to move is mated in this many plies (even; 0: it is
    /// checkmated now).
    Loss(u32),
    /// A draw.
    Draw,
}

impl Dtm {
    /// The value in moves as UCI reports mates: `n` for a mate in `n`,
    /// `-n` when mated in `n`, `None` for a draw.
    ///
    /// ```
    /// use games_chess::tablebase::Dtm;
    /// assert_eq!(Dtm::Win(3).mate_moves(), Some(2));
    /// assert_eq!(Dtm::Loss(4).mate_moves(), Some(-2));
    /// assert_eq!(Dtm::Draw.mate_moves(), None);
    /// ```
    pub fn mate_moves(self) -> Option<i64> {
        match self {
            Dtm::Win(p) => Some(i64::from(p.div_ceil(2))),
            Dtm::Loss(p) => Some(-i64::from(p.div_ceil(2))),
            Dtm::Draw => None,
        }
    }

    /// The same value for the other side (one ply earlier or later is the
    /// caller's business).
    fn of_code(code: u8) -> Option<Dtm> {
        match code {
            INVALID => None,
            DRAW => Some(Dtm::Draw),
            c => {
                let plies = u32::from(c) - 1;
                Some(if plies % 2 == 1 { Dtm::Win(plies) } else { Dtm::Loss(plies) })
            }
        }
    }
}

/// Entry code of a draw (and, while generating, of an undecided position).
const DRAW: u8 = 0;
/// Entry code of an index that is not a position of the table (illegal, or
/// a symmetric copy of a smaller index).
const INVALID: u8 = 255;

/// The entry code of a distance of `plies` (wins odd, losses even).
fn code_of(plies: u32) -> u8 {
    (plies + 1) as u8
}

/// Errors of the tablebases: bad material, files that are not tables,
/// positions a table does not cover.
#[derive(Debug)]
#[non_exhaustive]
pub enum TablebaseError {
    /// A material that cannot be a table (or a generation limit).
    Material(String),
    /// A file that is not a valid table.
    Format {
        /// The file (or "input").
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// A position that is not of the table's material.
    WrongMaterial {
        /// The table's material.
        table: String,
        /// What the position has.
        position: String,
    },
    /// Reading or writing failed.
    Io(std::io::Error),
    /// Reading or writing this file or directory failed.
    File {
        /// The file or directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

impl TablebaseError {
    /// A failed read or write of `path`.
    fn file(path: &Path) -> impl FnOnce(std::io::Error) -> TablebaseError + '_ {
        move |source| TablebaseError::File { path: path.display().to_string(), source }
    }
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Material(m) => write!(f, "material: {m}"),
            TablebaseError::Format { file, reason } => write!(f, "{file}: not a tablebase file: {reason}"),
            TablebaseError::WrongMaterial { table, position } => {
                write!(f, "the position ({position}) is not of the table's material {table}")
            }
            TablebaseError::Io(e) => write!(f, "{e}"),
            TablebaseError::File { path, source } => write!(f, "{path}: {source}"),
        }
    }
}

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Io(e) | TablebaseError::File { source: e, .. } => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for TablebaseError {
    fn from(e: std::io::Error) -> Self {
        TablebaseError::Io(e)
    }
}

/// Progress of a generation, for a progress bar.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Progress<'a> {
    /// The table being generated (a sub-table first, when one is needed).
    pub material: &'a str,
    /// `positions` (the first pass) or `retrograde` (ply levels).
    pub phase: &'static str,
    /// Positions (or levels) done.
    pub done: u64,
    /// Positions in the table (0 in the retrograde phase).
    pub total: u64,
}

/// Counts of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct TableStats {
    /// Legal positions, both sides to move, each symmetry class once.
    pub positions: u64,
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest mate for white (the stronger side) to move, in moves.
    pub longest_mate: u32,
    /// The longest distance to mate of any position, in plies.
    pub longest_plies: u32,
    /// The counts of the positions with white (the stronger side) to move.
    pub white_to_move: SideCounts,
    /// The counts of the positions with black to move.
    pub black_to_move: SideCounts,
}

/// Counts of one side to move's half of a table, from that side's point of
/// view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SideCounts {
    /// Legal positions with this side to move, each symmetry class once.
    pub positions: u64,
    /// Positions this side, to move, wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions this side, to move, loses.
    pub losses: u64,
}

/// One endgame's table: a byte per index (see [`Table::write_to`] for the
/// format).
///
/// ```
/// use games_chess::tablebase::{Dtm, Generator, Material};
/// use games_chess::ChessGame;
/// let kqk = Generator::new().generate(&"KQK".parse::<Material>()?, &mut |_| {})?;
/// let mated = ChessGame::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")?;
/// assert_eq!(kqk.probe(mated.position())?, Dtm::Loss(0));
/// let stalemate = ChessGame::from_fen("k7/8/1QK5/8/8/8/8/8 b - - 0 1")?;
/// assert_eq!(kqk.probe(stalemate.position())?, Dtm::Draw);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Table {
    material: Material,
    layout: Layout,
    values: Vec<u8>,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("material", &self.material.to_string())
            .field("entries", &self.values.len())
            .finish()
    }
}

/// The file's magic bytes.
const MAGIC: &[u8; 4] = b"BRTB";
/// The format version written and read.
const VERSION: u16 = 1;
/// Header length in bytes.
const HEADER: usize = 80;

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

impl Table {
    fn from_values(material: Material, values: Vec<u8>) -> Table {
        let layout = Layout::new(&material);
        Table { material, layout, values }
    }

    /// The material.
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// The number of entries (indices, both sides to move), legal or not.
    pub fn entries(&self) -> usize {
        self.values.len()
    }

    /// Counts of wins, draws and losses (both sides to move together, and
    /// each side to move's half), and the longest mates.
    pub fn stats(&self) -> TableStats {
        let mut s = TableStats::default();
        let half = self.layout.per_side as usize;
        for (i, &code) in self.values.iter().enumerate() {
            let Some(d) = Dtm::of_code(code) else { continue };
            let white = i < half;
            let side = if white { &mut s.white_to_move } else { &mut s.black_to_move };
            side.positions += 1;
            match d {
                Dtm::Draw => side.draws += 1,
                Dtm::Win(p) => {
                    side.wins += 1;
                    s.longest_plies = s.longest_plies.max(p);
                    if white {
                        s.longest_mate = s.longest_mate.max(p.div_ceil(2));
                    }
                }
                Dtm::Loss(p) => {
                    side.losses += 1;
                    s.longest_plies = s.longest_plies.max(p);
                }
            }
        }
        let (w, b) = (s.white_to_move, s.black_to_move);
        s.positions = w.positions + b.positions;
        s.wins = w.wins + b.wins;
        s.draws = w.draws + b.draws;
        s.losses = w.losses + b.losses;
        s
    }

    /// The value of `pos` with best play.
    ///
    /// Errors: the position's material is not the table's (or it has
    /// castling rights).
    pub fn probe(&self, pos: &Chess) -> Result<Dtm, TablebaseError> {
        let wrong = || TablebaseError::WrongMaterial { table: self.material.to_string(), position: signature(pos) };
        let board = board_of(pos).ok_or_else(wrong)?;
        let (material, flipped) = board_material(&board).map_err(|_| wrong())?;
        if material != self.material {
            return Err(wrong());
        }
        self.probe_board(&if flipped { flip(&board) } else { board }).ok_or_else(wrong)
    }

    /// The value of `board`, of this material with the colours as in the
    /// table.
    fn probe_board(&self, board: &Board) -> Option<Dtm> {
        let pos = self.layout.pos_of(board)?;
        Dtm::of_code(*self.values.get(self.layout.index(&pos) as usize)?)
    }

    /// Writes the table in the tablebase file format (all integers
    /// little-endian):
    ///
    /// | bytes | what |
    /// | --- | --- |
    /// | 0–3 | magic `BRTB` |
    /// | 4–5 | format version (1) |
    /// | 6–7 | header length (80) |
    /// | 8–15 | material, ASCII (`KBNK`), padded with zero bytes |
    /// | 16 | symmetry: 8 (pawnless: a1–d1–d4 triangle for white's king) or 2 (pawns: files a–d) |
    /// | 17 | bytes per entry (1) |
    /// | 18–23 | zero |
    /// | 24–31 | entries `E` |
    /// | 32–39, 40–47, 48–55, 56–63 | positions, wins, draws, losses (side to move's view) |
    /// | 64–67 | longest mate, white to move, in moves |
    /// | 68–71 | longest distance, in plies |
    /// | 72–79 | FNV-1a 64 checksum of the entries |
    /// | 80– | `E` entries, one byte each |
    ///
    /// The first half of the entries has white to move, the second black.
    /// Within a half, the index is `((k·64 + s₁)·64 + s₂)·64 + s₃` with
    /// `k` the slot of white's king in the reduced region and `s₁` black's
    /// king, `s₂`, `s₃` the other pieces (white's first, queen to pawn)
    /// after the symmetry that brings white's king there (the smallest
    /// index when two do; two identical pieces in square order). An entry
    /// is 0 for a draw, 255 for an index that is not a legal position (or
    /// a symmetric copy), else the distance to mate in plies plus one: odd
    /// distances are wins for the side to move, even ones losses.
    ///
    /// ```
    /// use games_chess::tablebase::{Generator, Table};
    /// let t = Generator::new().generate(&"KQK".parse()?, &mut |_| {})?;
    /// let mut bytes = Vec::new();
    /// t.write_to(&mut bytes)?;
    /// assert_eq!(&bytes[..4], b"BRTB");
    /// let back = Table::read_from(&mut bytes.as_slice(), "memory")?;
    /// assert_eq!(back.stats(), t.stats());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_to(&self, w: &mut impl Write) -> Result<(), TablebaseError> {
        let s = self.stats();
        let mut h = Vec::with_capacity(HEADER);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.extend_from_slice(&(HEADER as u16).to_le_bytes());
        let mut name = [0u8; 8];
        let text = self.material.to_string();
        name[..text.len()].copy_from_slice(text.as_bytes());
        h.extend_from_slice(&name);
        h.push(if self.material.has_pawns() { 2 } else { 8 });
        h.push(1);
        h.extend_from_slice(&[0; 6]);
        for v in [self.values.len() as u64, s.positions, s.wins, s.draws, s.losses] {
            h.extend_from_slice(&v.to_le_bytes());
        }
        h.extend_from_slice(&s.longest_mate.to_le_bytes());
        h.extend_from_slice(&s.longest_plies.to_le_bytes());
        h.extend_from_slice(&fnv1a(&self.values).to_le_bytes());
        debug_assert_eq!(h.len(), HEADER);
        w.write_all(&h)?;
        w.write_all(&self.values)?;
        Ok(())
    }

    /// Reads a table written by [`write_to`](Table::write_to); `file`
    /// names the source in errors.
    ///
    /// Errors: a wrong magic, version, material, size, checksum or counts
    /// ([`TablebaseError::Format`]), or a failed read.
    pub fn read_from(r: &mut impl Read, file: &str) -> Result<Table, TablebaseError> {
        let bad = |reason: String| TablebaseError::Format { file: file.to_string(), reason };
        let mut h = [0u8; HEADER];
        r.read_exact(&mut h).map_err(|e| bad(format!("header: {e}")))?;
        if &h[..4] != MAGIC {
            return Err(bad("wrong magic (expected BRTB)".to_string()));
        }
        let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().unwrap_or_default());
        let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().unwrap_or_default());
        if u16_at(4) != VERSION || usize::from(u16_at(6)) != HEADER {
            return Err(bad(format!("version {} header {} (expected {VERSION}, {HEADER})", u16_at(4), u16_at(6))));
        }
        let name: String = h[8..16].iter().take_while(|&&b| b != 0).map(|&b| b as char).collect();
        let material: Material = name.parse().map_err(|e: TablebaseError| bad(e.to_string()))?;
        if material.to_string() != name {
            return Err(bad(format!("material {name:?} is not in normal form")));
        }
        let layout = Layout::new(&material);
        let entries = u64_at(24);
        if entries != u64::from(layout.size()) || h[17] != 1 {
            return Err(bad(format!("{entries} entries, expected {} for {material}", layout.size())));
        }
        let mut values = vec![0u8; entries as usize];
        r.read_exact(&mut values).map_err(|e| bad(format!("entries: {e}")))?;
        if fnv1a(&values) != u64_at(72) {
            return Err(bad("checksum mismatch".to_string()));
        }
        let table = Table { material, layout, values };
        let s = table.stats();
        let header = (u64_at(32), u64_at(40), u64_at(48), u64_at(56), u32_at(64), u32_at(68));
        if header != (s.positions, s.wins, s.draws, s.losses, s.longest_mate, s.longest_plies) {
            return Err(bad("the header's counts do not match the entries".to_string()));
        }
        Ok(table)
    }

    /// The file name of a material's table in a directory: `KBNK.brtb`.
    pub fn file_name(material: &Material) -> String {
        format!("{material}.brtb")
    }

    /// Writes the table to `dir/<material>.brtb` and returns the path.
    ///
    /// Errors: the directory or the file cannot be written
    /// ([`TablebaseError::File`], naming it).
    pub fn save(&self, dir: &Path) -> Result<PathBuf, TablebaseError> {
        std::fs::create_dir_all(dir).map_err(TablebaseError::file(dir))?;
        let path = dir.join(Table::file_name(&self.material));
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).map_err(TablebaseError::file(&path))?);
        self.write_to(&mut w).map_err(|e| match e {
            TablebaseError::Io(e) => TablebaseError::file(&path)(e),
            e => e,
        })?;
        w.flush().map_err(TablebaseError::file(&path))?;
        Ok(path)
    }

    /// Reads the table file at `path`.
    ///
    /// Errors: the file cannot be opened ([`TablebaseError::File`], naming
    /// it); otherwise as [`read_from`](Table::read_from).
    pub fn load(path: &Path) -> Result<Table, TablebaseError> {
        let mut r = std::io::BufReader::new(std::fs::File::open(path).map_err(TablebaseError::file(path))?);
        Table::read_from(&mut r, &path.display().to_string())
    }
}

/// Generates tables, keeping every table it made (the sub-tables of
/// captures and promotions too) for the next ones.
///
/// ```
/// use games_chess::tablebase::Generator;
/// let mut g = Generator::new();
/// let kpk = g.generate(&"KPK".parse()?, &mut |_| {})?;
/// assert!(kpk.stats().wins > 0 && kpk.stats().draws > 0);
/// assert!(g.table(&"KQK".parse()?).is_some()); // made on the way
/// # Ok::<(), games_chess::tablebase::TablebaseError>(())
/// ```
#[derive(Debug, Default)]
pub struct Generator {
    tables: HashMap<Material, Arc<Table>>,
}

impl Generator {
    /// A generator with no tables yet.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// The table of `material` (made now, or earlier), reporting progress
    /// to `progress`.
    ///
    /// Errors: a distance too long for the format (never for four pieces).
    pub fn generate(
        &mut self,
        material: &Material,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<Arc<Table>, TablebaseError> {
        if let Some(t) = self.tables.get(material) {
            return Ok(Arc::clone(t));
        }
        let t = Arc::new(generate::generate(material, &mut self.tables, progress)?);
        self.tables.insert(material.clone(), Arc::clone(&t));
        Ok(t)
    }

    /// A table made before, if any.
    pub fn table(&self, material: &Material) -> Option<&Arc<Table>> {
        self.tables.get(material)
    }
}

/// The board of `pos` for the tables, if it has at most four pieces and no
/// castling rights.
fn board_of(pos: &Chess) -> Option<Board> {
    let b = pos.board();
    if b.occupied().count() > MAX_PIECES || !pos.castles().is_empty() {
        return None;
    }
    let mut out = Board { pieces: [(Side::White, Kind::King, 0); 4], n: 0, stm: Side::White };
    for (sq, piece) in b {
        let side = if piece.color == shakmaty::Color::White { Side::White } else { Side::Black };
        out.pieces[out.n] = (side, Kind::from_role(piece.role), sq.to_u32() as u8);
        out.n += 1;
    }
    out.stm = if pos.turn() == shakmaty::Color::White { Side::White } else { Side::Black };
    Some(out)
}

/// The pieces of `pos`, white's then black's (`KQ vs KR`), for errors.
fn signature(pos: &Chess) -> String {
    let b = pos.board();
    let side = |c: shakmaty::Color| -> String {
        let mut v: Vec<Kind> = b.by_color(c).into_iter().filter_map(|sq| b.role_at(sq)).map(Kind::from_role).collect();
        v.sort_by_key(|k| std::cmp::Reverse(k.strength()));
        v.into_iter().map(Kind::letter).collect()
    };
    format!("{} vs {}", side(shakmaty::Color::White), side(shakmaty::Color::Black))
}

/// The normalised material of a board, and whether its colours are swapped
/// in the table.
fn board_material(b: &Board) -> Result<(Material, bool), TablebaseError> {
    let mut white = Vec::new();
    let mut black = Vec::new();
    let mut kings = [0; 2];
    for &(side, kind, _) in &b.pieces[..b.n] {
        match (kind, side) {
            (Kind::King, s) => kings[s as usize] += 1,
            (k, Side::White) => white.push(k),
            (k, Side::Black) => black.push(k),
        }
    }
    if kings != [1, 1] {
        return Err(TablebaseError::Material("one king per side".to_string()));
    }
    Material::normalised(white, black)
}

/// The board with the colours swapped and the ranks mirrored.
fn flip(b: &Board) -> Board {
    let mut out = *b;
    for p in &mut out.pieces[..b.n] {
        *p = (p.0.other(), p.1, p.2 ^ 56);
    }
    out.stm = b.stm.other();
    out
}

/// Looks `board` up in the table of its material among `tables`: `None`
/// if that table is missing.
fn probe_board(tables: &HashMap<Material, Arc<Table>>, board: &Board) -> Result<Option<Dtm>, TablebaseError> {
    let (material, flipped) = board_material(board)?;
    let Some(t) = tables.get(&material) else { return Ok(None) };
    let b = if flipped { flip(board) } else { *board };
    Ok(t.probe_board(&b))
}

/// The tables of a directory (or added one by one), probed by material: a
/// search [`Oracle`] for chess.
///
/// ```
/// use std::sync::Arc;
/// use games_chess::tablebase::{Dtm, Generator, Tablebases};
/// use games_chess::ChessGame;
/// let mut tb = Tablebases::new();
/// tb.insert(Generator::new().generate(&"KQK".parse()?, &mut |_| {})?);
/// let g = ChessGame::from_fen("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")?;
/// assert!(matches!(tb.probe(g.position()), Some(Dtm::Loss(_))));
/// assert_eq!(tb.probe(ChessGame::startpos().position()), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct Tablebases {
    tables: HashMap<Material, Arc<Table>>,
}

impl Tablebases {
    /// No tables.
    pub fn new() -> Tablebases {
        Tablebases::default()
    }

    /// Every `*.brtb` table in `dir`.
    ///
    /// Errors: the directory cannot be read ([`TablebaseError::File`],
    /// naming it), or a file in it is not a valid table.
    pub fn open(dir: &Path) -> Result<Tablebases, TablebaseError> {
        let mut tb = Tablebases::new();
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(TablebaseError::file(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "brtb"))
            .collect();
        paths.sort();
        for p in paths {
            tb.insert(Arc::new(Table::load(&p)?));
        }
        Ok(tb)
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Arc<Table>) {
        self.tables.insert(table.material().clone(), table);
    }

    /// The materials held, sorted by name.
    pub fn materials(&self) -> Vec<String> {
        let mut v: Vec<String> = self.tables.keys().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    /// The table of `material`, if held.
    pub fn table(&self, material: &Material) -> Option<&Arc<Table>> {
        self.tables.get(material)
    }

    /// Whether no table is held.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The value of `pos`, if a table covers it (at most four pieces, no
    /// castling rights, its material held).
    pub fn probe(&self, pos: &Chess) -> Option<Dtm> {
        if self.tables.is_empty() {
            return None;
        }
        let board = board_of(pos)?;
        probe_board(&self.tables, &board).ok().flatten()
    }
}

impl Oracle<ChessGame> for Tablebases {
    fn probe(&self, state: &ChessGame) -> Option<Probe> {
        Some(match Tablebases::probe(self, state.position())? {
            Dtm::Win(plies) => Probe::Win { plies },
            Dtm::Loss(plies) => Probe::Loss { plies },
            Dtm::Draw => Probe::Draw,
        })
    }
}
