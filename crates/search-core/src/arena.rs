//! The match runner: plays a full game between two agents from a seed.

use crate::agent::Agent;
use crate::error::GameError;
use crate::game::{Game, Outcome, Player, Status, Turn};
use crate::rng::{self, sample_index};

/// How a match ended.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRecord<M> {
    /// The outcome, or `None` if the ply limit stopped the game first.
    pub outcome: Option<Outcome>,
    /// Every move played (chance outcomes included), in order.
    pub moves: Vec<M>,
}

impl<M> MatchRecord<M> {
    /// The winner, if the game ended with a win.
    pub fn winner(&self) -> Option<Player> {
        self.outcome.and_then(Outcome::winner)
    }
}

/// Plays `first` (as [`Player::First`]) against `second` from `start` until
/// the game ends or `max_plies` moves have been played.
///
/// The seed fixes everything: each agent draws from its own stream derived
/// from `seed`, and chance nodes from a third, so the dice do not depend on
/// how many random numbers the agents consume. The same seed gives the same
/// game on any machine.
///
/// ```
/// use search_core::{arena::play_match, RandomAgent};
/// use search_core::tree::LiteralTree;
/// let t: LiteralTree = "max(min(1, 2), chance(0.5: 3, 0.5: min(4, 5)))".parse().unwrap();
/// let a = play_match(&t, &mut RandomAgent, &mut RandomAgent, 42, None).unwrap();
/// let b = play_match(&t, &mut RandomAgent, &mut RandomAgent, 42, None).unwrap();
/// assert_eq!(a, b);
/// assert!(a.outcome.is_some());
/// ```
pub fn play_match<G, A, B>(
    start: &G,
    first: &mut A,
    second: &mut B,
    seed: u64,
    max_plies: Option<usize>,
) -> Result<MatchRecord<G::Move>, GameError>
where
    G: Game,
    A: Agent<G> + ?Sized,
    B: Agent<G> + ?Sized,
{
    let mut rngs = [rng::seeded(rng::derive_seed(seed, 0)), rng::seeded(rng::derive_seed(seed, 1))];
    let mut dice = rng::seeded(rng::derive_seed(seed, 2));
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut buffer = Vec::new();
    let mut probs = Vec::new();
    loop {
        buffer.clear();
        if let Status::Over(outcome) = state.generate(&mut buffer) {
            return Ok(MatchRecord { outcome: Some(outcome), moves });
        }
        if max_plies.is_some_and(|limit| moves.len() >= limit) {
            return Ok(MatchRecord { outcome: None, moves });
        }
        let mv = match state.turn() {
            Turn::Chance => {
                probs.clear();
                state.chance_probabilities(&buffer, &mut probs);
                buffer[sample_index(&probs, &mut dice)]
            }
            Turn::Player(Player::First) => first.choose(&state, &mut rngs[0])?,
            Turn::Player(Player::Second) => second.choose(&state, &mut rngs[1])?,
        };
        if !buffer.contains(&mv) {
            return Err(GameError::illegal(state.move_string(mv), "an agent chose an illegal move"));
        }
        state.play(mv);
        moves.push(mv);
    }
}
