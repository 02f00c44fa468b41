//! Paired games: two games from the same opening with colours swapped, so
//! that the opening's bias cancels out of the pair's score.
//!
//! ```
//! use games_small::{TicTacToe, TicTacToeEval};
//! use search_core::RandomAgent;
//! use strength::agents::{Roster, StandardAgents};
//! use strength::pairing::play_pair;
//!
//! let roster = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
//! let mut perfect = roster.build("alphabeta:depth=9")?;
//! let pair = play_pair(&TicTacToe::default(), &mut perfect, &mut RandomAgent, 7, None)?;
//! assert!(pair.score() >= 1.0); // the perfect player never loses
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use search_core::arena::play_match;
use search_core::rng::derive_seed;
use search_core::{Agent, Game, GameError, Outcome, Player};

/// One game's result for agent A: 1 (win), 0.5 (draw) or 0 (loss).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameScore {
    /// A's score.
    pub score: f64,
    /// Moves played (the opening excluded).
    pub plies: usize,
    /// The game hit the ply limit and was scored a draw.
    pub adjudicated: bool,
}

/// A pair of games between A and B from one opening: A moves first in the
/// first game, B in the second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairOutcome {
    /// A with the first move.
    pub a_first: GameScore,
    /// B with the first move.
    pub b_first: GameScore,
}

impl PairOutcome {
    /// A's total over the pair: 0, 0.5, 1, 1.5 or 2 (the pentanomial
    /// category is twice this).
    pub fn score(&self) -> f64 {
        self.a_first.score + self.b_first.score
    }

    /// The pentanomial index 0..=4 of the pair (A's score × 2).
    pub fn pentanomial_index(&self) -> usize {
        (self.score() * 2.0).round() as usize
    }
}

fn score_for(outcome: Option<Outcome>, a: Player) -> f64 {
    match outcome {
        Some(Outcome::Win(p)) if p == a => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        Some(Outcome::Draw) | None => 0.5,
        Some(Outcome::Payoff(x)) => {
            let x = if a == Player::First { x } else { -x };
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                0.0
            } else {
                0.5
            }
        }
    }
}

/// Plays the pair from `start`: both agents are [reset](Agent::reset)
/// before each game; each game's randomness is derived from `seed`. A game
/// still going after `max_plies` moves is scored a draw and marked
/// [adjudicated](GameScore::adjudicated).
pub fn play_pair<G, A, B>(
    start: &G,
    a: &mut A,
    b: &mut B,
    seed: u64,
    max_plies: Option<usize>,
) -> Result<PairOutcome, GameError>
where
    G: Game,
    A: Agent<G> + ?Sized,
    B: Agent<G> + ?Sized,
{
    a.reset();
    b.reset();
    let first = play_match(start, a, b, derive_seed(seed, 0), max_plies)?;
    a.reset();
    b.reset();
    let second = play_match(start, b, a, derive_seed(seed, 1), max_plies)?;
    Ok(PairOutcome {
        a_first: GameScore {
            score: score_for(first.outcome, Player::First),
            plies: first.moves.len(),
            adjudicated: first.outcome.is_none(),
        },
        b_first: GameScore {
            score: score_for(second.outcome, Player::Second),
            plies: second.moves.len(),
            adjudicated: second.outcome.is_none(),
        },
    })
}
