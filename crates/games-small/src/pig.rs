//! Pig, the dice game: a small real game with chance nodes, for
//! expectiminimax.
//!
//! Two players take turns. On a turn the player rolls a die as often as
//! they like: a 1 loses the turn's total and ends the turn; any other face
//! adds to the turn's total. Holding banks the turn's total and ends the
//! turn. The first player whose banked score plus turn total reaches the
//! target wins at once. A turn must start with a roll (holding on a total
//! of 0 would only pass).
//!
//! Pig's game graph has cycles (two turns that both roll a 1 come back to
//! the same position), so its tree is infinite. This version caps the game
//! at `max_turns` turns, after which it is a draw: the tree is then finite,
//! and a small target and cap make it small enough for a full-width
//! expectiminimax search.
//!
//! Moves are [`HOLD`] and [`ROLL`] (written `hold` and `roll`); after a
//! roll it is chance's turn, whose outcomes are the faces `1..=die`
//! (written as numbers), equally likely.
//!
//! ```
//! use games_small::pig::{Pig, ROLL};
//! use search_core::{Game, Status, Turn};
//!
//! let mut g = Pig::new(10, 6, 20)?;
//! g.play(ROLL);
//! assert_eq!(g.turn(), Turn::Chance);
//! g.play(5); // the die shows 5
//! assert_eq!(g.turn_total(), 5);
//! assert_eq!(g.status(), Status::Ongoing);
//! # Ok::<(), search_core::ParamError>(())
//! ```

use std::fmt;

use search_core::{Evaluator, Game, GameError, Outcome, ParamError, Perspective, Player, Status, Turn, WIN_SCORE};

/// The move that banks the turn's total and ends the turn.
pub const HOLD: u8 = 0;
/// The move that rolls the die (chance then picks the face).
pub const ROLL: u8 = 1;

/// A Pig position. See the [module documentation](self) for the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pig {
    target: u8,
    die: u8,
    max_turns: u16,
    scores: [u8; 2],
    turn_total: u8,
    mover: u8,
    rolling: bool,
    turns: u16,
}

impl Pig {
    /// The largest target.
    pub const MAX_TARGET: u8 = 100;
    /// The most faces of the die.
    pub const MAX_DIE: u8 = 20;

    /// A new game to `target` points with a die of `die` faces, drawn after
    /// `max_turns` turns.
    ///
    /// Errors: a target outside `1..=100`, a die outside `2..=20`, or no turns.
    pub fn new(target: u8, die: u8, max_turns: u16) -> Result<Self, ParamError> {
        if !(1..=Self::MAX_TARGET).contains(&target) {
            return Err(ParamError::new("target", format!("must be 1 to {}, got {target}", Self::MAX_TARGET)));
        }
        if !(2..=Self::MAX_DIE).contains(&die) {
            return Err(ParamError::new("die", format!("must have 2 to {} faces, got {die}", Self::MAX_DIE)));
        }
        if max_turns == 0 {
            return Err(ParamError::new("max_turns", "must be at least 1"));
        }
        Ok(Pig { target, die, max_turns, scores: [0; 2], turn_total: 0, mover: 0, rolling: false, turns: 0 })
    }

    /// The points that win.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// The die's faces.
    pub fn die(&self) -> u8 {
        self.die
    }

    /// The turns after which the game is a draw.
    pub fn max_turns(&self) -> u16 {
        self.max_turns
    }

    /// The banked scores of the first and the second player.
    pub fn scores(&self) -> [u8; 2] {
        self.scores
    }

    /// The points of the turn so far (lost on a 1).
    pub fn turn_total(&self) -> u8 {
        self.turn_total
    }

    /// Turns finished so far.
    pub fn turns(&self) -> u16 {
        self.turns
    }

    /// The player whose turn it is (also while the die rolls).
    pub fn mover(&self) -> Player {
        if self.mover == 0 { Player::First } else { Player::Second }
    }

    fn end_turn(&mut self) {
        self.turn_total = 0;
        self.mover ^= 1;
        self.turns += 1;
    }
}

impl Game for Pig {
    type Move = u8;
    const HASHED: bool = true;

    fn turn(&self) -> Turn {
        if self.rolling { Turn::Chance } else { Turn::Player(self.mover()) }
    }

    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        let status = self.status();
        if status != Status::Ongoing {
            return status;
        }
        if self.rolling {
            moves.extend(1..=self.die);
        } else {
            moves.push(ROLL);
            if self.turn_total > 0 {
                moves.push(HOLD);
            }
        }
        Status::Ongoing
    }

    fn play(&mut self, mv: u8) {
        if self.rolling {
            self.rolling = false;
            if mv == 1 {
                self.end_turn();
            } else {
                self.turn_total += mv;
                let p = usize::from(self.mover);
                if self.scores[p] + self.turn_total >= self.target {
                    // Reaching the target wins at once: bank it.
                    self.scores[p] += self.turn_total;
                    self.turn_total = 0;
                }
            }
        } else if mv == ROLL {
            self.rolling = true;
        } else {
            self.scores[usize::from(self.mover)] += self.turn_total;
            self.end_turn();
        }
    }

    fn status(&self) -> Status {
        for (i, p) in [Player::First, Player::Second].into_iter().enumerate() {
            if self.scores[i] >= self.target {
                return Status::Over(Outcome::Win(p));
            }
        }
        if self.turns >= self.max_turns { Status::Over(Outcome::Draw) } else { Status::Ongoing }
    }

    fn quick_status(&self) -> Option<Status> {
        Some(self.status())
    }

    fn write_move(&self, mv: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rolling, mv) {
            (true, face) => write!(f, "{face}"),
            (false, HOLD) => f.write_str("hold"),
            (false, ROLL) => f.write_str("roll"),
            (false, other) => write!(f, "?{other}"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        let t = text.trim();
        if self.rolling {
            return match t.parse::<u8>() {
                Ok(face) if (1..=self.die).contains(&face) => Ok(face),
                _ => Err(GameError::parse(
                    "move",
                    GameError::shorten(text),
                    0,
                    format!("the die is rolling: a face 1 to {}", self.die),
                )),
            };
        }
        if t.eq_ignore_ascii_case("hold") {
            Ok(HOLD)
        } else if t.eq_ignore_ascii_case("roll") {
            Ok(ROLL)
        } else {
            Err(GameError::parse("move", GameError::shorten(text), 0, "a move is hold or roll"))
        }
    }

    fn hash_key(&self) -> Option<u64> {
        // Every field of the position (the game's settings included), packed
        // and mixed.
        let packed = u64::from(self.scores[0])
            | u64::from(self.scores[1]) << 8
            | u64::from(self.turn_total) << 16
            | u64::from(self.mover) << 24
            | u64::from(self.rolling) << 25
            | u64::from(self.turns) << 26
            | u64::from(self.target) << 42
            | u64::from(self.die) << 50
            | u64::from(self.max_turns & 0x3f) << 58;
        Some(search_core::rng::splitmix64(packed ^ u64::from(self.max_turns) << 32))
    }
}

impl fmt::Display for Pig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pig to {} (d{}, turn {} of {}): scores {}-{}, player {} {}, turn total {}",
            self.target,
            self.die,
            self.turns + 1,
            self.max_turns,
            self.scores[0],
            self.scores[1],
            self.mover + 1,
            if self.rolling { "rolling" } else { "to move" },
            self.turn_total
        )
    }
}

/// A simple heuristic for Pig: the first player's lead (banked scores, the
/// mover's turn total counted as half banked), as a share of the target.
/// Finished games score the library's default win value.
#[derive(Debug, Clone, Copy, Default)]
pub struct PigEval;

impl Evaluator<Pig> for PigEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &Pig) -> f64 {
        let [a, b] = state.scores.map(f64::from);
        let t = f64::from(state.turn_total) / 2.0 * state.mover().sign();
        (a - b + t) / f64::from(state.target)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-WIN_SCORE, WIN_SCORE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn rules() {
        let mut g = Pig::new(6, 6, 10).unwrap();
        let mut moves = Vec::new();
        g.generate(&mut moves);
        assert_eq!(moves, [ROLL], "a turn starts with a roll");
        g.play(ROLL);
        moves.clear();
        g.generate(&mut moves);
        assert_eq!(moves, [1, 2, 3, 4, 5, 6]);
        g.play(4);
        assert_eq!((g.turn_total(), g.turn()), (4, Turn::Player(Player::First)));
        g.play(HOLD);
        assert_eq!((g.scores(), g.turn_total(), g.mover(), g.turns()), ([4, 0], 0, Player::Second, 1));
        g.play(ROLL);
        g.play(1);
        assert_eq!((g.scores(), g.mover(), g.turns()), ([4, 0], Player::First, 2), "a 1 ends the turn");
        g.play(ROLL);
        g.play(3);
        assert_eq!(g.status(), Status::Over(Outcome::Win(Player::First)), "4 + 3 reaches 6");
        assert_eq!(g.scores(), [7, 0]);
    }

    #[test]
    fn draw_after_the_cap() {
        let mut g = Pig::new(50, 6, 2).unwrap();
        for _ in 0..2 {
            g.play(ROLL);
            g.play(1);
        }
        assert_eq!(g.status(), Status::Over(Outcome::Draw));
    }

    #[test]
    fn notation_and_errors() {
        let mut g = Pig::new(10, 6, 5).unwrap();
        assert_eq!(g.parse_move("roll"), Ok(ROLL));
        assert_eq!(g.move_string(ROLL), "roll");
        assert!(g.parse_move("4").is_err());
        g.play(ROLL);
        assert_eq!(g.parse_move("4"), Ok(4));
        assert_eq!(g.move_string(4), "4");
        assert!(g.parse_move("7").is_err() && g.parse_move("hold").is_err());
        assert!(Pig::new(0, 6, 5).is_err() && Pig::new(101, 6, 5).is_err());
        assert!(Pig::new(10, 1, 5).is_err() && Pig::new(10, 21, 5).is_err() && Pig::new(10, 6, 0).is_err());
    }

    #[test]
    fn hash_keys_tell_positions_apart() {
        let mut seen: HashMap<u64, Pig> = HashMap::new();
        let mut stack = vec![Pig::new(8, 4, 4).unwrap()];
        let mut moves = Vec::new();
        while let Some(g) = stack.pop() {
            let k = g.hash_key().unwrap();
            if let Some(old) = seen.insert(k, g) {
                assert_eq!(old, g, "two positions with one key");
                continue;
            }
            moves.clear();
            if g.generate(&mut moves) == Status::Ongoing {
                for &m in &moves {
                    let mut c = g;
                    c.play(m);
                    stack.push(c);
                }
            }
        }
        assert!(seen.len() > 100);
    }
}
