//! A downstream game in a few lines: Nim, implemented against `search-core`
//! alone and played by alpha-beta against a random player.
//!
//! Run it with `cargo run -p search-core --example nim`.

use std::fmt;

use search_core::arena::play_match;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::{Agent, Game, GameError, Outcome, OutcomeOnly, Player, RandomAgent, Status, Turn};

/// Nim: heaps of stones; a move takes any positive number from one heap;
/// whoever takes the last stone wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    heaps: [u8; 4],
    to_move: Player,
}

/// Take `count` stones from heap `heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Take {
    heap: u8,
    count: u8,
}

impl Nim {
    /// A game with these heaps, the first player to move.
    pub fn new(heaps: [u8; 4]) -> Self {
        Nim { heaps, to_move: Player::First }
    }

    /// The classical theory: the side to move wins iff the xor of the heaps is non-zero.
    pub fn nim_sum(&self) -> u8 {
        self.heaps.iter().fold(0, |x, &h| x ^ h)
    }
}

impl Game for Nim {
    type Move = Take;
    // `hash_key` gives keys: searches may use a transposition table.
    const HASHED: bool = true;

    fn turn(&self) -> Turn {
        Turn::Player(self.to_move)
    }

    fn generate(&self, moves: &mut Vec<Take>) -> Status {
        if self.heaps.iter().all(|&h| h == 0) {
            // The previous player took the last stone.
            return Status::Over(Outcome::Win(self.to_move.opponent()));
        }
        for (heap, &size) in self.heaps.iter().enumerate() {
            moves.extend((1..=size).map(|count| Take { heap: heap as u8, count }));
        }
        Status::Ongoing
    }

    fn play(&mut self, mv: Take) {
        self.heaps[mv.heap as usize] -= mv.count;
        self.to_move = self.to_move.opponent();
    }

    fn hash_key(&self) -> Option<u64> {
        let h = u64::from_le_bytes([
            self.heaps[0],
            self.heaps[1],
            self.heaps[2],
            self.heaps[3],
            0,
            0,
            0,
            self.to_move as u8,
        ]);
        Some(search_core::rng::splitmix64(h))
    }

    fn write_move(&self, mv: Take, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", mv.heap + 1, mv.count)
    }

    fn parse_move(&self, text: &str) -> Result<Take, GameError> {
        let bad = |reason| GameError::parse("move", text, 0, reason);
        let (heap, count) = text.split_once(':').ok_or_else(|| bad("expected HEAP:COUNT"))?;
        let heap: u8 = heap.trim().parse().map_err(|_| bad("bad heap number"))?;
        let count: u8 = count.trim().parse().map_err(|_| bad("bad count"))?;
        if !(1..=4).contains(&heap) || count == 0 {
            return Err(bad("heap must be 1..=4 and count >= 1"));
        }
        Ok(Take { heap: heap - 1, count })
    }
}

/// Plays one game and returns the winner and the move list.
fn play(seed: u64) -> Result<(Option<Player>, Vec<String>), GameError> {
    let start = Nim::new([3, 4, 5, 1]);
    // Alpha-beta with a table, searching to the end of the game.
    let search = Search::new(Minimax, OutcomeOnly::default(), Options::default())?;
    let mut ai = SearchAgent::new(search, Limits::full_tree());
    println!(
        "{} vs {}, heaps {:?}, nim-sum {}",
        ai.name(),
        Agent::<Nim>::name(&RandomAgent),
        start.heaps,
        start.nim_sum()
    );
    let record = play_match(&start, &mut ai, &mut RandomAgent, seed, None)?;
    let mut state = start;
    let moves = record
        .moves
        .iter()
        .map(|&m| {
            let s = state.move_string(m);
            state.play(m);
            s
        })
        .collect();
    Ok((record.winner(), moves))
}

fn main() -> Result<(), GameError> {
    let (winner, moves) = play(1)?;
    println!("moves: {}", moves.join(" "));
    println!("winner: {}", winner.map_or("none".into(), |p| p.to_string()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_play_wins_every_won_position() {
        // The start has a non-zero nim-sum: the searching first player must win.
        for seed in 0..20 {
            let (winner, _) = play(seed).unwrap();
            assert_eq!(winner, Some(Player::First));
        }
    }

    #[test]
    fn search_agrees_with_nim_theory() {
        for heaps in [[1, 2, 3, 0], [1, 1, 0, 0], [2, 3, 1, 1], [4, 4, 1, 0]] {
            let g = Nim::new(heaps);
            let mut search = Search::new(Minimax, OutcomeOnly::default(), Options::default()).unwrap();
            let r = search.run(&g, &Limits::full_tree()).unwrap();
            assert!(r.complete);
            assert_eq!(r.value.unwrap() > 0.0, g.nim_sum() != 0, "heaps {heaps:?}");
        }
    }

    #[test]
    fn moves_parse_and_print() {
        let g = Nim::new([1, 2, 3, 4]);
        let m = g.parse_move("3:2").unwrap();
        assert_eq!(g.move_string(m), "3:2");
        assert!(g.parse_move("5:1").is_err());
        assert!(g.parse_move("x").is_err());
        let mut h = g;
        assert!(h.try_play(Take { heap: 0, count: 2 }).is_err());
    }
}
