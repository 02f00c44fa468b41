//! Test support shared by the backup-rule tests: a literal tree whose
//! payoffs of exactly ±1000 are decisive results (wins and losses), and an
//! evaluator for it.

#![allow(dead_code)]

use std::fmt;

use search_core::tree::{LiteralEval, LiteralTree};
use search_core::{Evaluator, Game, GameError, Outcome, Perspective, Player, Status, Turn};

/// The payoff that marks a decisive leaf (`+` a win for `First`, `-` for
/// `Second`).
pub(crate) const DECISIVE: f64 = 1000.0;

/// The payoff that marks a drawn leaf.
pub(crate) const DRAW: f64 = 500.0;

/// A literal tree where leaves written `1000` / `-1000` end the game with a
/// win for `First` / `Second` and leaves written `500` with a draw; other
/// leaves keep their payoff.
#[derive(Clone, Debug)]
pub(crate) struct Decisive(pub LiteralTree);

impl Decisive {
    pub(crate) fn parse(s: &str) -> Decisive {
        Decisive(s.parse().expect("a valid literal tree"))
    }
}

impl Game for Decisive {
    type Move = u32;

    fn turn(&self) -> Turn {
        self.0.turn()
    }

    fn generate(&self, moves: &mut Vec<u32>) -> Status {
        match self.0.generate(moves) {
            Status::Over(Outcome::Payoff(v)) if v == DECISIVE => Status::Over(Outcome::Win(Player::First)),
            Status::Over(Outcome::Payoff(v)) if v == -DECISIVE => Status::Over(Outcome::Win(Player::Second)),
            Status::Over(Outcome::Payoff(v)) if v == DRAW => Status::Over(Outcome::Draw),
            s => s,
        }
    }

    fn play(&mut self, mv: u32) {
        self.0.play(mv)
    }

    fn write_move(&self, mv: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_move(mv, f)
    }

    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        self.0.parse_move(text)
    }
}

/// Static values as [`LiteralEval`]; a win is worth `win` (no distance
/// bonus), a payoff its value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DecisiveEval {
    pub win: f64,
}

impl Evaluator<Decisive> for DecisiveEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &Decisive) -> f64 {
        LiteralEval.evaluate(&state.0)
    }

    fn terminal_value(&self, outcome: Outcome, player: Player, _ply: u32) -> f64 {
        match outcome {
            Outcome::Win(_) => outcome.value_for(player, self.win),
            _ => outcome.value_for(player, 0.0),
        }
    }
}
