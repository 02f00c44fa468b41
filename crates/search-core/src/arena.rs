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
/// the game ends or `max_plies` moves have been played, then tells both
/// agents the final state ([`Agent::game_over`]).
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
    let outcome = loop {
        buffer.clear();
        if let Status::Over(outcome) = state.generate(&mut buffer) {
            break Some(outcome);
        }
        if max_plies.is_some_and(|limit| moves.len() >= limit) {
            break None;
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
    };
    first.game_over(&state);
    second.game_over(&state);
    Ok(MatchRecord { outcome, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomAgent;
    use crate::tree::LiteralTree;
    use rand::RngCore;

    /// Records the states it is told the game stopped in.
    struct Recorder(Vec<String>);

    impl Agent<LiteralTree> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn choose(&mut self, state: &LiteralTree, rng: &mut dyn RngCore) -> Result<u32, GameError> {
            RandomAgent.choose(state, rng)
        }
        fn game_over(&mut self, last: &LiteralTree) {
            self.0.push(format!("{last:?}"));
        }
    }

    #[test]
    fn both_agents_are_told_the_final_state_once() {
        let t: LiteralTree = "max(min(1, 2), min(3, max(4, 5)))".parse().unwrap();
        for (seed, limit) in [(1, None), (2, None), (3, Some(1))] {
            let (mut a, mut b) = (Recorder(Vec::new()), Recorder(Vec::new()));
            let rec = play_match(&t, &mut a, &mut b, seed, limit).unwrap();
            let mut last = t.clone();
            rec.moves.iter().for_each(|&m| last.play(m));
            assert_eq!(a.0, vec![format!("{last:?}")]);
            assert_eq!(b.0, a.0);
            assert_eq!(rec.outcome.is_none(), limit.is_some());
        }
    }
}
