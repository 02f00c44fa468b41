//! The table-lookup hook: a take-away game whose exact values (win or loss
//! and the distance to the end) are known below a number of stones. A
//! search with the table gives the same root value as without, with fewer
//! nodes, under full width, alpha-beta and alpha-beta with a table.

use std::sync::Arc;

use search_core::backup::{Minimax, Rminimax};
use search_core::rng::RngCore;
use search_core::search::{Limits, Options, Oracle, Probe, Search};
use search_core::{Evaluator, Game, Outcome, ParamError, Perspective, Player, Status, Turn};

/// Take 1, 2 or 3 stones; who takes the last stone wins.
#[derive(Clone, Copy, Debug)]
struct TakeAway {
    stones: u32,
    to_move: Player,
}

impl Game for TakeAway {
    type Move = u32;
    const HASHED: bool = true;
    fn turn(&self) -> Turn {
        Turn::Player(self.to_move)
    }
    fn generate(&self, moves: &mut Vec<u32>) -> Status {
        if self.stones == 0 {
            return Status::Over(Outcome::Win(self.to_move.opponent()));
        }
        moves.extend((1..=3).filter(|&k| k <= self.stones));
        Status::Ongoing
    }
    fn play(&mut self, take: u32) {
        self.stones -= take;
        self.to_move = self.to_move.opponent();
    }
    fn hash_key(&self) -> Option<u64> {
        Some(u64::from(self.stones) * 2 + self.to_move.index() as u64)
    }
}

/// Values only finished games (mate-distance terminal values by default).
#[derive(Debug)]
struct Zero;
impl Evaluator<TakeAway> for Zero {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;
    fn evaluate(&self, _: &TakeAway) -> f64 {
        0.0
    }
}

/// The exact value of every position with at most `max` stones, computed
/// by retrograde analysis over the stone counts: (mover wins, plies to the
/// end).
#[derive(Debug)]
struct Table {
    max: u32,
    entries: Vec<(bool, u32)>,
    book: Option<u32>,
}

impl Table {
    fn new(max: u32) -> Table {
        let mut entries = vec![(false, 0)];
        for n in 1..=max as usize {
            let children = (1..=3).filter(|&k| k <= n).map(|k| entries[n - k]);
            let losing: Vec<u32> = children.clone().filter(|c: &(bool, u32)| !c.0).map(|c| c.1).collect();
            entries.push(match losing.iter().min() {
                Some(&d) => (true, d + 1),
                None => (false, children.map(|c| c.1).max().unwrap_or(0) + 1),
            });
        }
        Table { max, entries, book: None }
    }
}

impl Oracle<TakeAway> for Table {
    fn probe(&self, state: &TakeAway) -> Option<Probe> {
        if state.stones > self.max {
            return None;
        }
        let (win, plies) = self.entries[state.stones as usize];
        Some(if win { Probe::Win { plies } } else { Probe::Loss { plies } })
    }
    fn book_move(&self, _: &TakeAway, _: &mut dyn RngCore) -> Option<u32> {
        self.book
    }
}

fn root(stones: u32) -> TakeAway {
    TakeAway { stones, to_move: Player::First }
}

#[test]
fn the_table_gives_the_same_values_with_fewer_nodes() {
    let options = [
        ("full width", Options::full_width()),
        ("alpha-beta", Options::plain_alpha_beta()),
        ("alpha-beta + table", Options::default().with_quiescence(false)),
    ];
    for (name, o) in options {
        for stones in [5, 9, 12, 14] {
            let mut plain = Search::new(Minimax, Zero, o.clone()).unwrap();
            let mut table =
                Search::new(Minimax, Zero, o.clone()).unwrap().with_oracle(Arc::new(Table::new(7))).unwrap();
            let a = plain.run(&root(stones), &Limits::full_tree()).unwrap();
            let b = table.run(&root(stones), &Limits::full_tree()).unwrap();
            assert_eq!(a.value, b.value, "{name}, {stones} stones");
            assert!(b.stats.tb_hits > 0, "{name}, {stones} stones");
            assert_eq!(a.stats.tb_hits, 0);
            assert!(b.stats.nodes < a.stats.nodes, "{name}, {stones}: {} vs {}", b.stats.nodes, a.stats.nodes);
            // The win's distance survives: the shortest win is preferred.
            let plies = Table::new(20).entries[stones as usize];
            let expect = if plies.0 { 1e6 - f64::from(plies.1) } else { -(1e6 - f64::from(plies.1)) };
            assert_eq!(b.value, Some(expect), "{name}, {stones}");
        }
    }
}

#[test]
fn depth_limited_searches_see_the_exact_values() {
    // Depth 2 from 9 stones reaches 6..8 stones: all in the table, so the
    // value is exact although the game is not searched to its end.
    let mut table =
        Search::new(Minimax, Zero, Options::plain_alpha_beta()).unwrap().with_oracle(Arc::new(Table::new(8))).unwrap();
    let r = table.run(&root(9), &Limits::depth(2)).unwrap();
    let full = Search::new(Minimax, Zero, Options::plain_alpha_beta()).unwrap().run(&root(9), &Limits::full_tree());
    assert_eq!(r.value, full.unwrap().value);
}

#[test]
fn rules_without_game_values_refuse_an_oracle() {
    let s = Search::<TakeAway, _, _>::new(Rminimax::new(1.0).unwrap(), Zero, Options::full_width()).unwrap();
    let e: ParamError = s.with_oracle(Arc::new(Table::new(3))).unwrap_err();
    assert_eq!(e.name, "oracle");
}

#[test]
fn a_book_move_is_played_without_search_and_an_illegal_one_ignored() {
    let mut book = Table::new(0);
    book.book = Some(3);
    let mut s = Search::new(Minimax, Zero, Options::plain_alpha_beta()).unwrap().with_oracle(Arc::new(book)).unwrap();
    let r = s.run(&root(10), &Limits::depth(3)).unwrap();
    assert!(r.from_book);
    assert_eq!((r.best, r.value, r.stats.nodes), (Some(3), None, 0));
    // Two stones left: taking three is illegal, so the search runs.
    let r = s.run(&root(2), &Limits::depth(3)).unwrap();
    assert!(!r.from_book);
    assert_eq!(r.best, Some(2));
}
