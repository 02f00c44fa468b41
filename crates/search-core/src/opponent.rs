//! Models of fallible opponents, as [`Agent`]s.
//!
//! [`NoisyPlayer`] is Reibman and Ballard's noise-based imperfect player
//! (AAAI-83, §IV): a shallow minimax search whose move values are blurred by
//! uniform noise before the best is taken, so that moves of nearly equal
//! value are confused often and very different ones rarely.

use rand::{Rng as _, RngCore};

use crate::agent::Agent;
use crate::backup::Minimax;
use crate::error::{GameError, ParamError};
use crate::eval::Evaluator;
use crate::game::{Game, Player, Status};
use crate::search::{Limits, Options, Search};

/// Reibman and Ballard's noise-based imperfect player.
///
/// At its node the player values each child by a minimax search of `plies`
/// plies in total, counting its own move (default 2: the child is worth the
/// best of the opponent's replies below it, each reply at its static value —
/// "each child of Min's node is valued by the best (maximum) of Max's
/// replies below it"). Each child's value `v`, from the mover's point of
/// view, is divided by `divisor` (default 75, the value fitted in
/// the project's reading of the paper ([docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md)) to Table 1: it is noise in `[0, 1.5·S]` on values divided
/// by the game range 50; the literal reading divides by the range, e.g. 50),
/// and an independent uniform noise `S·u`, `u ∈ [0, 1)`, is subtracted; the
/// player takes the largest `v/divisor − S·u`, ties going to the first move
/// in the game's order.
///
/// For the second player (the paper's Min) this is exactly the paper's
/// model: Min adds the noise to the first player's values `−v` and takes the
/// lowest. For the first player it is the mirror image. `S = 0` is a perfect
/// `plies`-ply minimax player; a large `S` plays almost at random.
///
/// Randomness: exactly one uniform draw `u` per child, in move order, from
/// the agent's RNG, for every `S` (also `S = 0`), so players that differ
/// only in `S` consume the same random numbers (common random numbers across
/// experiment cells).
///
/// ```
/// use search_core::opponent::NoisyPlayer;
/// use search_core::tree::{LiteralEval, LiteralTree};
/// use search_core::{Agent, rng};
///
/// // Min to move; its left child lets max reach 4, its right one 6.
/// let t: LiteralTree = "min(max(1, 4), max(6, 2))".parse()?;
/// let mut perfect = NoisyPlayer::new(LiteralEval, 0.0)?;
/// assert_eq!(perfect.child_values(&t)?, vec![(0, -4.0), (1, -6.0)]);
/// assert_eq!(perfect.choose(&t, &mut rng::seeded(1))?, 0);
/// // With noise S = 1 the gap 2/75 is tiny: min errs nearly half the time.
/// let mut noisy = NoisyPlayer::new(LiteralEval, 1.0)?;
/// let mut r = rng::seeded(2);
/// let errors = (0..1000).filter(|_| noisy.choose(&t, &mut r).unwrap() == 1).count();
/// assert!((410..540).contains(&errors)); // expected 474 ± 16
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug)]
pub struct NoisyPlayer<G: Game, E: Evaluator<G>> {
    search: Search<G, Minimax, E>,
    limits: Limits,
    plies: u32,
    divisor: f64,
    noise: f64,
    moves: Vec<G::Move>,
}

impl<G: Game, E: Evaluator<G>> NoisyPlayer<G, E> {
    /// A 2-ply player with noise range `S ≥ 0` (finite) and divisor 75.
    pub fn new(eval: E, noise: f64) -> Result<Self, ParamError> {
        if !(noise.is_finite() && noise >= 0.0) {
            return Err(ParamError::new("noise", format!("must be finite and >= 0, got {noise}")));
        }
        let search = Search::new(Minimax, eval, Options::full_width())?;
        Ok(NoisyPlayer { search, limits: Limits::depth(1), plies: 2, divisor: 75.0, noise, moves: Vec::new() })
    }

    /// Sets the divisor (finite, `> 0`; builder style).
    pub fn with_divisor(mut self, divisor: f64) -> Result<Self, ParamError> {
        self.divisor = ParamError::positive("divisor", divisor)?;
        Ok(self)
    }

    /// Sets the search depth in plies, counting the player's own move
    /// (`≥ 1`; 1 values each child statically; builder style).
    pub fn with_plies(mut self, plies: u32) -> Result<Self, ParamError> {
        if plies == 0 {
            return Err(ParamError::new("plies", "must be >= 1"));
        }
        self.plies = plies;
        self.limits = Limits::depth(plies.saturating_sub(1).max(1));
        Ok(self)
    }

    /// The noise range `S`.
    pub fn noise(&self) -> f64 {
        self.noise
    }

    /// The divisor.
    pub fn divisor(&self) -> f64 {
        self.divisor
    }

    /// The noise-free value of every move of `state`, from the mover's point
    /// of view (before the divisor), in the game's order.
    ///
    /// Errors: [`GameError::GameOver`] if the game is over,
    /// [`GameError::ChanceNode`] at a chance node.
    pub fn child_values(&mut self, state: &G) -> Result<Vec<(G::Move, f64)>, GameError> {
        let mover = state.turn().player().ok_or(GameError::ChanceNode)?;
        self.moves.clear();
        if let Status::Over(_) = state.generate(&mut self.moves) {
            return Err(GameError::GameOver);
        }
        let moves = std::mem::take(&mut self.moves);
        let values = moves.iter().map(|&mv| {
            let mut child = state.clone();
            child.play(mv);
            self.value(&child, mover).map(|v| (mv, v))
        });
        let values = values.collect();
        self.moves = moves;
        values
    }

    /// The value of `child` for `mover`: its terminal value, its static value
    /// (`plies = 1`), or a minimax search of `plies − 1` plies.
    fn value(&mut self, child: &G, mover: Player) -> Result<f64, GameError> {
        let eval = self.search.evaluator();
        if let Status::Over(outcome) = child.status() {
            return Ok(eval.terminal_value(outcome, mover, 1));
        }
        if self.plies == 1 {
            return Ok(eval.evaluate_for(child, mover));
        }
        let r = self.search.run(child, &self.limits)?;
        let value = r.value.ok_or(GameError::GameOver)?;
        let view = child.turn().player().unwrap_or(Player::First);
        Ok(if view == mover { value } else { -value })
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for NoisyPlayer<G, E> {
    fn name(&self) -> String {
        format!("noisy {}-ply S={} /{}", self.plies, self.noise, self.divisor)
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        let values = self.child_values(state)?;
        let mut best: Option<(G::Move, f64)> = None;
        for (mv, v) in values {
            let u: f64 = rng.random();
            let score = v / self.divisor - self.noise * u;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((mv, score));
            }
        }
        best.map(|(mv, _)| mv).ok_or(GameError::GameOver)
    }
}
