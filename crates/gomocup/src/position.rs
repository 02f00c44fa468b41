//! The game as the brain sees it: a [`Gobang`] position, the moves that
//! led to it, and the mapping between protocol coordinates and points.
//!
//! The protocol's `x` is the column from the left and `y` the row from the
//! top; `games-small` numbers rows from the bottom, so `y` maps to row
//! `size − 1 − y` (the brain's board then looks like the manager's).

use games_small::gobang::{FiveRule, Gobang, GobangOptions, MAX_SIZE, MIN_SIZE, Opening, Point};
use search_core::{Game, GameError, Outcome, Player, Status};

use crate::error::BrainError;
use crate::protocol::Coord;

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Position {
    game: Gobang,
    history: Vec<Point>,
}

/// The variant the brain plays on a `size × size` board under `rule`.
fn options(size: usize, rule: FiveRule) -> GobangOptions {
    GobangOptions { size, rule, radius: 2, opening: Opening::Centre }
}

/// The protocol coordinates of point `p` of `game`.
pub fn coord_of(game: &Gobang, p: Point) -> Coord {
    let (col, row) = Gobang::coords(p);
    Coord { x: col as u64, y: game.size().saturating_sub(row + 1) as u64 }
}

/// Whether the brain plays `width × height` boards.
pub fn check_size(width: u64, height: u64) -> Result<usize, BrainError> {
    let ok = |n: u64| (MIN_SIZE as u64..=MAX_SIZE as u64).contains(&n);
    if width == height && ok(width) { Ok(width as usize) } else { Err(BrainError::UnsupportedSize { width, height }) }
}

/// A short description of how a game ended.
fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(Player::First) => "the first player has five in a row".into(),
        Outcome::Win(Player::Second) => "the second player has five in a row".into(),
        Outcome::Draw => "the board is full".into(),
        Outcome::Payoff(v) => format!("payoff {v}"),
    }
}

impl Position {
    /// The empty board (`size` checked by [`check_size`]).
    pub fn new(size: usize, rule: FiveRule) -> Result<Self, BrainError> {
        let game = Gobang::with_options(options(size, rule))
            .map_err(|_| BrainError::UnsupportedSize { width: size as u64, height: size as u64 })?;
        Ok(Position { game, history: Vec::new() })
    }

    /// The position after `history` (points) on the empty board of `size`
    /// under `rule`.
    fn replay(size: usize, rule: FiveRule, history: &[Point]) -> Result<Self, GameError> {
        let mut game = Gobang::with_options(options(size, rule)).map_err(GameError::from)?;
        for &p in history {
            game.try_play(p)?;
        }
        Ok(Position { game, history: history.to_vec() })
    }

    /// The game.
    pub fn game(&self) -> &Gobang {
        &self.game
    }

    /// Points per side.
    pub fn size(&self) -> usize {
        self.game.size()
    }

    /// The winning rule.
    pub fn rule(&self) -> FiveRule {
        self.game.options().rule
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.history.len()
    }

    /// The same stones under another rule; an error if the position is
    /// then finished.
    pub fn with_rule(&self, rule: FiveRule) -> Result<Self, BrainError> {
        let p = Position::replay(self.size(), rule, &self.history)
            .map_err(|e| BrainError::InvalidBoard(format!("not a position under that rule: {e}")))?;
        if let Some(o) = p.outcome() {
            return Err(BrainError::GameOver(describe(o)));
        }
        Ok(p)
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.game.generate(&mut Vec::new()) {
            Status::Over(o) => Some(o),
            Status::Ongoing => None,
        }
    }

    /// An error if the game is over.
    pub fn check_ongoing(&self) -> Result<(), BrainError> {
        match self.outcome() {
            Some(o) => Err(BrainError::GameOver(describe(o))),
            None => Ok(()),
        }
    }

    /// The point at `c`, if it is on the board.
    pub fn point(&self, c: Coord) -> Result<Point, BrainError> {
        let size = self.size();
        let off = || BrainError::OffBoard { x: c.x, y: c.y, size };
        let (x, y) = (usize::try_from(c.x).map_err(|_| off())?, usize::try_from(c.y).map_err(|_| off())?);
        if x >= size || y >= size {
            return Err(off());
        }
        self.game.point(x, size - 1 - y).ok_or_else(off)
    }

    /// The coordinates of `p`.
    pub fn coord(&self, p: Point) -> Coord {
        coord_of(&self.game, p)
    }

    /// Plays a stone for the side to move at `c`.
    pub fn play(&mut self, c: Coord) -> Result<Point, BrainError> {
        let p = self.point(c)?;
        self.check_ongoing()?;
        if self.game.at(p).is_some() {
            return Err(BrainError::Occupied { x: c.x as usize, y: c.y as usize });
        }
        self.game.try_play(p).map_err(|e| BrainError::InvalidBoard(e.to_string()))?;
        self.history.push(p);
        Ok(p)
    }

    /// Removes the last stone, which must be at `c`.
    pub fn takeback(&mut self, c: Coord) -> Result<(), BrainError> {
        let p = self.point(c)?;
        let err = |reason: &str| BrainError::Takeback { x: c.x as usize, y: c.y as usize, reason: reason.into() };
        if self.history.last() != Some(&p) {
            return Err(err("only the last stone played can be taken back"));
        }
        let before = &self.history[..self.history.len() - 1];
        *self = Position::replay(self.size(), self.rule(), before).map_err(|e| err(&e.to_string()))?;
        Ok(())
    }

    /// The position of a `BOARD` block: the brain's stones (`own`), the
    /// opponent's (`theirs`), with the brain to move.
    ///
    /// Legal only if the stone counts allow the brain to move (equal counts:
    /// the brain is the first player; one more opponent stone: the second),
    /// no point is listed twice, and no side has a winning line (five or more
    /// in a row; under the exact-five rule exactly five). The moves that led
    /// there (for `TAKEBACK`) are taken alternately, in the order given
    /// where the rule allows.
    pub fn from_stones(size: usize, rule: FiveRule, own: &[Coord], theirs: &[Coord]) -> Result<Self, BrainError> {
        let invalid = |m: String| BrainError::InvalidBoard(m);
        let empty = Position::new(size, rule)?;
        let (first, second) = if own.len() == theirs.len() {
            (own, theirs)
        } else if theirs.len() == own.len() + 1 {
            (theirs, own)
        } else {
            return Err(invalid(format!(
                "{} own and {} opponent stones: not a position with the brain to move (the opponent may have at most one stone more, and no fewer)",
                own.len(),
                theirs.len()
            )));
        };
        let first: Vec<Point> = first.iter().map(|&c| empty.point(c)).collect::<Result<_, _>>()?;
        let second: Vec<Point> = second.iter().map(|&c| empty.point(c)).collect::<Result<_, _>>()?;
        let mut seen = [false; 256];
        for (&p, c) in first.iter().chain(&second).zip(own.iter().chain(theirs)) {
            if std::mem::replace(&mut seen[usize::from(p)], true) {
                return Err(invalid(format!("point {c} is listed twice")));
            }
        }
        // Place the stones alternately, each side's next stone being the
        // first of its remaining ones that does not complete a winning line:
        // a position without a winning line is always reached (under the
        // exact-five rule a six is built without passing through a five),
        // and one with a winning line never is.
        let mut position = empty;
        let mut left = [first, second];
        loop {
            if let Some(o) = position.outcome() {
                return Err(invalid(format!("the game is already over ({})", describe(o))));
            }
            let player = position.game.to_move();
            let stones = &mut left[player.index()];
            if stones.is_empty() {
                break;
            }
            let Some(i) = stones.iter().position(|&p| !position.game.makes_five(player, p)) else {
                return Err(invalid("the game is already over (a five in a row)".into()));
            };
            let p = stones.remove(i);
            position.game.try_play(p).map_err(|e| invalid(e.to_string()))?;
            position.history.push(p);
        }
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: u64, y: u64) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn coordinates_round_trip_with_y_from_the_top() {
        let p = Position::new(15, FiveRule::Freestyle).unwrap();
        let pt = p.point(c(0, 0)).unwrap();
        assert_eq!(p.game().move_string(pt), "a15");
        assert_eq!(p.coord(pt), c(0, 0));
        assert_eq!(p.game().move_string(p.point(c(7, 7)).unwrap()), "h8");
        assert!(matches!(p.point(c(15, 0)), Err(BrainError::OffBoard { .. })));
        assert!(matches!(p.point(c(u64::MAX, 0)), Err(BrainError::OffBoard { .. })));
    }

    #[test]
    fn moves_and_takeback() {
        let mut p = Position::new(15, FiveRule::Freestyle).unwrap();
        p.play(c(7, 7)).unwrap();
        assert!(matches!(p.play(c(7, 7)), Err(BrainError::Occupied { .. })));
        p.play(c(8, 8)).unwrap();
        assert!(p.takeback(c(7, 7)).is_err());
        p.takeback(c(8, 8)).unwrap();
        assert_eq!(p.stones(), 1);
        assert_eq!(p.game().to_move(), Player::Second);
    }

    #[test]
    fn board_positions_are_checked() {
        let own = [c(0, 0), c(1, 0)];
        let theirs = [c(5, 5), c(6, 5)];
        let p = Position::from_stones(15, FiveRule::Freestyle, &own, &theirs).unwrap();
        assert_eq!(p.game().to_move(), Player::First);
        let p = Position::from_stones(15, FiveRule::Freestyle, &own, &[c(5, 5), c(6, 5), c(7, 5)]).unwrap();
        assert_eq!(p.game().to_move(), Player::Second);
        // Impossible counts, a repeated point, a finished game.
        assert!(Position::from_stones(15, FiveRule::Freestyle, &own, &[c(5, 5)]).is_err());
        assert!(Position::from_stones(15, FiveRule::Freestyle, &own, &[c(0, 0), c(6, 6)]).is_err());
        let five: Vec<Coord> = (0..5).map(|x| c(x, 3)).collect();
        let other: Vec<Coord> = (0..5).map(|x| c(x, 9)).collect();
        assert!(Position::from_stones(15, FiveRule::Freestyle, &five, &other).is_err());
    }

    #[test]
    fn an_overline_is_no_win_under_the_exact_rule() {
        // Six in a row for the second player and scattered first-player
        // stones: finished in freestyle, not under the exact-five rule.
        let six: Vec<Coord> = (0..6).map(|x| c(x, 0)).collect();
        let other: Vec<Coord> =
            [(0, 5), (3, 5), (6, 5), (9, 5), (12, 5), (0, 10)].iter().map(|&(x, y)| c(x, y)).collect();
        assert!(Position::from_stones(15, FiveRule::Freestyle, &other, &six).is_err());
        assert!(Position::from_stones(15, FiveRule::Exact, &other, &six).is_ok());
    }
}
