//! The moves players chose in positions that recur: an opening book
//! learned from the train split, one of the model's move features.

use std::collections::BTreeMap;

use search_core::Game;
use serde::{Deserialize, Serialize};
use shakmaty::Move;

use super::features::move_key;
use crate::ChessGame;

/// The plies of a game a book counts (the opening and early middle game;
/// later positions rarely recur).
pub const BOOK_PLIES: usize = 40;

/// A position enters the model's book when the train games reached it at
/// least this often.
pub const BOOK_MIN_VISITS: u32 = 2;

/// Positions (by Zobrist key) and the moves played in them, counted.
///
/// Built from games ([`Book::add_game`]); the model keeps the positions
/// reached at least twice ([`Book::pruned`]). A move's feature is
/// [`book_rate`] of its count against the position's.
///
/// ```
/// use games_chess::ChessGame;
/// use games_chess::human::{Book, move_key};
/// use search_core::Game;
/// let start = ChessGame::startpos();
/// let e4 = start.parse_move("e2e4")?;
/// let d4 = start.parse_move("d2d4")?;
/// let mut book = Book::default();
/// book.add_game(&[e4], 10);
/// book.add_game(&[e4], 10);
/// book.add_game(&[d4], 10);
/// assert_eq!(book.counts(&start, move_key(&start, e4)), (2, 3));
/// assert_eq!(book.positions(), 1);
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Book {
    /// Position key → (move key, times played), sorted by move key.
    entries: BTreeMap<u64, Vec<(u16, u32)>>,
}

impl Book {
    /// Counts the moves of a game (from the initial position) up to ply
    /// `max_ply` (exclusive).
    pub fn add_game(&mut self, moves: &[Move], max_ply: usize) {
        let mut state = ChessGame::startpos();
        for &m in moves.iter().take(max_ply) {
            self.add(&state, m, 1);
            state.play(m);
        }
    }

    /// Counts move `m` played `times` in `state`.
    pub fn add(&mut self, state: &ChessGame, m: Move, times: u32) {
        let key = move_key(state, m) as u16;
        let moves = self.entries.entry(position_key(state)).or_default();
        match moves.binary_search_by_key(&key, |e| e.0) {
            Ok(i) => moves[i].1 += times,
            Err(i) => moves.insert(i, (key, times)),
        }
    }

    /// How often the move of key `key` was played in `state`, and how often
    /// `state` was reached.
    pub fn counts(&self, state: &ChessGame, key: usize) -> (u32, u32) {
        self.entries.get(&position_key(state)).map_or((0, 0), |moves| {
            let played = moves.iter().find(|e| usize::from(e.0) == key).map_or(0, |e| e.1);
            (played, moves.iter().map(|e| e.1).sum())
        })
    }

    /// The book feature of the move of key `key` in `state` (with `legal`
    /// legal moves): [`book_rate`] of its counts, less those of `without`
    /// (a train game's own moves), the position counting only when reached
    /// [`BOOK_MIN_VISITS`] times.
    pub fn feature(&self, state: &ChessGame, key: usize, legal: usize, without: Option<&Book>) -> f64 {
        let (mut played, mut visits) = self.counts(state, key);
        if let Some(own) = without {
            let (p, v) = own.counts(state, key);
            played = played.saturating_sub(p);
            visits = visits.saturating_sub(v);
        }
        if visits >= BOOK_MIN_VISITS { book_rate(played, visits, legal) } else { 0.0 }
    }

    /// The positions reached at least `min_visits` times.
    pub fn pruned(&self, min_visits: u32) -> Book {
        let entries = self
            .entries
            .iter()
            .filter(|(_, moves)| moves.iter().map(|e| e.1).sum::<u32>() >= min_visits)
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        Book { entries }
    }

    /// How many positions it holds.
    pub fn positions(&self) -> usize {
        self.entries.len()
    }
}

/// A position's key: its Zobrist hash (the side to move, castling and en
/// passant rights included; the move history is not).
fn position_key(state: &ChessGame) -> u64 {
    state.hash_key().unwrap_or(0)
}

/// The book feature of a move played `played` times in a position reached
/// `visits` times with `legal` legal moves: `ln(legal · (played + ½) /
/// (visits + legal/2))`, 0 when the position was never reached, above 0
/// for moves played more often than one in `legal`, below for moves
/// passed over.
///
/// ```
/// use games_chess::human::book_rate;
/// assert_eq!(book_rate(0, 0, 20), 0.0);
/// assert!(book_rate(9, 10, 20) > 2.0 && book_rate(0, 10, 20) < -0.5);
/// ```
pub fn book_rate(played: u32, visits: u32, legal: usize) -> f64 {
    if visits == 0 || legal == 0 {
        return 0.0;
    }
    let m = legal as f64;
    (m * (f64::from(played) + 0.5) / (f64::from(visits) + 0.5 * m)).ln()
}
