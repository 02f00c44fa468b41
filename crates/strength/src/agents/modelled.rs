//! Agents that model their opponent: `aware` (a fixed Boltzmann
//! opponent), `online` (a posterior over the opponent's θ, learnt from its
//! moves) and `adaptive` (the dial set so that the opponent scores a
//! target).
//!
//! An [`Agent`] sees only states, so the opponent's moves are inferred
//! ([`MoveWatcher`]): the state after our own move is kept, and at our next
//! turn the one legal move that leads from it to the state we are shown is
//! the opponent's. Anything else (no such move, several, a chance node or
//! two opponent moves in between, a new game) is skipped, never guessed.

use search_core::backup::modelled::{ModelledAgent, ModelledSearch};
use search_core::backup::predicting::PredictingAgent;
use search_core::backup::{Minimax, Modelled, OpponentModel};
use search_core::policy::ScoreCap;
use search_core::search::{Limits, Options, Search};
use search_core::{Agent, Choice, Evaluator, Game, GameError, ParamError, Status, Turn};

use super::{AgentFactory, BoxedAgent, StandardAgents};
use crate::dial::{Dial, DialError};
use crate::spec::{AgentSpec, SpecError, SpecReader};

/// The slip rate of the likelihood: a move is explained by the Boltzmann
/// model with probability `1 − SLIP` and by uniform random play with
/// `SLIP`, so one move the values call a blunder (a deeper opponent's
/// sacrifice, a horizon effect) cannot rule out a strong opponent.
pub const SLIP: f64 = 0.02;

/// A posterior over an opponent's Boltzmann θ on a grid, from the moves it
/// played: each move multiplies every grid point's weight by the
/// likelihood `(1 − SLIP)·softmax_θ(v)[played] + SLIP/n` of the values `v`
/// of its moves (its view, bounded by the cap: clamped to `±cap`, or
/// `cap·tanh(v/cap)` for a soft cap, [`with_score_cap`](Self::with_score_cap)).
///
/// The grid is log-spaced, `θ·cap` from 0.1 to 1000 (41 points), with a
/// uniform prior on it: before any move the posterior mean is large (a
/// cautious, near-minimax guess). Below `θ·cap = 0.1` a player is
/// practically random (a gap of the whole cap changes its odds by 10%), and
/// a grid reaching further down would only add a flat tail of the
/// likelihood that drags every estimate towards random play early on.
///
/// ```
/// use strength::agents::ThetaPosterior;
/// let mut post = ThetaPosterior::new(1.0)?;
/// let prior = post.mean();
/// // A player who keeps choosing the worse of two moves one unit apart.
/// for _ in 0..30 {
///     post.update(&[0.0, -1.0], 1)?;
/// }
/// assert!(post.mean() < 0.5 && post.mean() < prior);
/// assert_eq!(post.observations(), 30);
/// post.forget();
/// assert_eq!(post.mean(), prior);
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ThetaPosterior {
    cap: ScoreCap,
    thetas: Vec<f64>,
    log_weights: Vec<f64>,
    /// What was subtracted from the log-weights to keep them near zero.
    log_scale: f64,
    observations: u64,
    scratch: Vec<f64>,
}

impl ThetaPosterior {
    /// Grid points.
    pub const POINTS: usize = 41;

    /// A uniform prior over the grid for values capped at `±cap`. Errors
    /// unless `cap` is finite and positive.
    pub fn new(cap: f64) -> Result<Self, ParamError> {
        Ok(Self::with_score_cap(ScoreCap::hard(cap)?))
    }

    /// A uniform prior over the grid for values bounded by `cap`, hard or
    /// soft: a soft-capped player (`boltzmann:...,softcap=C`, as the chess
    /// and gobang dials' curves are) sees `C·tanh(v/C)`, and its moves are
    /// explained by those values. The grid is the same as a hard cap's at
    /// the same bound.
    ///
    /// ```
    /// use search_core::policy::ScoreCap;
    /// use strength::agents::ThetaPosterior;
    /// let (mut hard, mut soft) = (ThetaPosterior::new(1.0)?, ThetaPosterior::with_score_cap(ScoreCap::soft(1.0)?));
    /// // Twice the cap against nothing: a hard cap sees a gap of 1, a soft one of tanh(2) ≈ 0.96.
    /// for _ in 0..20 {
    ///     hard.update(&[2.0, 0.0], 1)?;
    ///     soft.update(&[2.0, 0.0], 1)?;
    /// }
    /// assert_eq!(soft.cap(), 1.0);
    /// assert_ne!(hard.mean(), soft.mean());
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_score_cap(cap: ScoreCap) -> Self {
        let n = Self::POINTS;
        let bound = cap.bound();
        let thetas = (0..n).map(|i| 10f64.powf(-1.0 + 4.0 * i as f64 / (n - 1) as f64) / bound).collect();
        ThetaPosterior { cap, thetas, log_weights: vec![0.0; n], log_scale: 0.0, observations: 0, scratch: Vec::new() }
    }

    /// The same prior restricted to the grid points at or above
    /// `theta_min`: for a curve of the dial rated only from its weakest rung
    /// up (a [partial](crate::dial::Calibration::partial_curves) curve),
    /// which can place no weaker player. Its evidence
    /// ([`log_evidence`](Self::log_evidence)) still compares with a full
    /// grid's: a weaker player's moves are better explained by a curve
    /// that reaches down to it. Errors unless `theta_min` is finite,
    /// positive and at most the grid's largest θ.
    ///
    /// ```
    /// use strength::agents::ThetaPosterior;
    /// let post = ThetaPosterior::new(100.0)?.with_floor(0.1)?;
    /// assert_eq!(post.thetas().len(), 21); // θ·cap from 10 to 1000
    /// assert!(post.thetas().iter().all(|&t| t >= 0.1 * (1.0 - 1e-12)));
    /// assert!(ThetaPosterior::new(100.0)?.with_floor(20.0).is_err());
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_floor(mut self, theta_min: f64) -> Result<Self, ParamError> {
        let top = self.thetas.last().copied().unwrap_or(0.0);
        // Grid points are powers of ten: allow for their rounding.
        let floor = theta_min * (1.0 - 1e-9);
        if !(theta_min.is_finite() && theta_min > 0.0 && floor <= top) {
            return Err(ParamError::new("theta_min", format!("{theta_min} is not within (0, {top}]")));
        }
        let first = self.thetas.iter().position(|&t| t >= floor).unwrap_or(0);
        self.thetas.drain(..first);
        self.log_weights.drain(..first);
        Ok(self)
    }

    /// The cap's bound: the values lie within `±cap`.
    pub fn cap(&self) -> f64 {
        self.cap.bound()
    }

    /// The cap, hard or soft.
    pub fn score_cap(&self) -> ScoreCap {
        self.cap
    }

    /// The grid's θ values, increasing.
    pub fn thetas(&self) -> &[f64] {
        &self.thetas
    }

    /// The posterior probabilities of the grid points.
    pub fn probabilities(&self) -> Vec<f64> {
        let m = self.log_weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = self.log_weights.iter().map(|l| (l - m).exp()).collect();
        let total: f64 = w.iter().sum();
        w.into_iter().map(|x| x / total).collect()
    }

    /// The posterior mean of θ.
    pub fn mean(&self) -> f64 {
        self.probabilities().iter().zip(&self.thetas).map(|(p, t)| p * t).sum()
    }

    /// The posterior mean of `f(θ)` (e.g. a rating on the dial).
    pub fn mean_of(&self, mut f: impl FnMut(f64) -> f64) -> f64 {
        self.probabilities().iter().zip(&self.thetas).map(|(p, &t)| p * f(t)).sum()
    }

    /// The log of the marginal likelihood of the moves observed since the
    /// last [`forget`](Self::forget): their probability under the model,
    /// averaged over the uniform prior on the grid (0 before any move).
    /// Posteriors over different values of the same moves (another search
    /// depth) compare by it: the difference is a log Bayes factor.
    ///
    /// ```
    /// use strength::agents::ThetaPosterior;
    /// let (mut a, mut b) = (ThetaPosterior::new(1.0)?, ThetaPosterior::new(1.0)?);
    /// for _ in 0..20 {
    ///     a.update(&[1.0, 0.0, 0.0], 0)?; // its values explain the moves
    ///     b.update(&[0.0, 0.0, 1.0], 0)?; // these call every move a mistake
    /// }
    /// assert!(a.log_evidence() > b.log_evidence() + 10.0);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn log_evidence(&self) -> f64 {
        let n = self.log_weights.len() as f64;
        self.log_scale + (self.log_weights.iter().map(|l| l.exp()).sum::<f64>() / n).ln()
    }

    /// Moves observed since the last [`forget`](Self::forget) (informative
    /// or not).
    pub fn observations(&self) -> u64 {
        self.observations
    }

    /// Updates with one move: `values` of every legal move (the mover's
    /// view), `chosen` the index of the move played. Errors on an empty
    /// list, an index out of range or a NaN value (nothing is changed).
    pub fn update(&mut self, values: &[f64], chosen: usize) -> Result<(), ParamError> {
        if chosen >= values.len() {
            return Err(ParamError::new("chosen", format!("move {chosen} of {}", values.len())));
        }
        if values.iter().any(|v| v.is_nan()) {
            return Err(ParamError::new("values", "NaN value"));
        }
        let cap = self.cap;
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend(values.iter().map(|&v| cap.apply(v)));
        let best = scratch.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let n = values.len() as f64;
        for (lw, &theta) in self.log_weights.iter_mut().zip(&self.thetas) {
            let z: f64 = scratch.iter().map(|&c| (theta * (c - best)).exp()).sum();
            let p = (theta * (scratch[chosen] - best)).exp() / z;
            *lw += ((1.0 - SLIP) * p + SLIP / n).ln();
        }
        // Keep the log-weights near zero.
        let m = self.log_weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        self.log_weights.iter_mut().for_each(|l| *l -= m);
        self.log_scale += m;
        self.scratch = scratch;
        self.observations += 1;
        Ok(())
    }

    /// Back to the prior.
    pub fn forget(&mut self) {
        self.log_weights.iter_mut().for_each(|l| *l = 0.0);
        self.log_scale = 0.0;
        self.observations = 0;
    }
}

/// Infers the opponent's moves from the states an agent is shown: keep the
/// state after our move ([`played`](Self::played)), then
/// [`observe`](Self::observe) the next state we are asked to move in.
///
/// States are compared by [`Game::hash_key`] when the game has keys, and
/// always by their `Debug` form; exactly one legal move must match.
///
/// ```
/// use games_small::TicTacToe;
/// use search_core::Game;
/// use strength::agents::MoveWatcher;
/// let mut w = MoveWatcher::default();
/// let mut g = TicTacToe::default();
/// g.play(4);
/// w.played(&g); // our move: the centre
/// let before = g.clone();
/// g.play(0); // theirs: a corner
/// let (state, mv) = w.observe(&g).unwrap();
/// assert_eq!(mv, 0);
/// assert_eq!(format!("{state:?}"), format!("{before:?}"));
/// assert!(w.observe(&g).is_none()); // nothing new until we move again
/// # Ok::<(), search_core::GameError>(())
/// ```
#[derive(Debug, Clone)]
pub struct MoveWatcher<G: Game> {
    after_ours: Option<G>,
    moves: Vec<G::Move>,
}

impl<G: Game> Default for MoveWatcher<G> {
    fn default() -> Self {
        MoveWatcher { after_ours: None, moves: Vec::new() }
    }
}

impl<G: Game> MoveWatcher<G> {
    /// Records the state after our own move.
    pub fn played(&mut self, after: &G) {
        self.after_ours = Some(after.clone());
    }

    /// Forgets the recorded state (a new game).
    pub fn clear(&mut self) {
        self.after_ours = None;
    }

    /// The opponent's move that led from the recorded state to `now`, with
    /// the state it was played in, if exactly one legal move does.
    pub fn observe(&mut self, now: &G) -> Option<(G, G::Move)> {
        let before = self.after_ours.take()?;
        let mover = before.turn().player()?;
        if now.turn() != Turn::Player(mover.opponent()) {
            return None;
        }
        self.moves.clear();
        if before.generate(&mut self.moves) != Status::Ongoing {
            return None;
        }
        let key = now.hash_key();
        let text = format!("{now:?}");
        let mut found = None;
        for &mv in &self.moves {
            let mut g = before.clone();
            g.play(mv);
            if let (Some(a), Some(b)) = (key, g.hash_key())
                && a != b
            {
                continue;
            }
            if format!("{g:?}") == text {
                if found.is_some() {
                    return None; // ambiguous
                }
                found = Some(mv);
            }
        }
        found.map(|mv| (before, mv))
    }
}

/// The depth-`depth` minimax values of every move at a state (the mover's
/// view): alpha-beta with exact root scores, as the dial's Boltzmann
/// players see them.
struct MoveValues<G: Game, E: Evaluator<G>> {
    search: Search<G, Minimax, E>,
    limits: Limits,
}

impl<G: Game, E: Evaluator<G>> MoveValues<G, E> {
    fn new(eval: E, depth: u32, table_mib: usize) -> Result<Self, ParamError> {
        let table = if G::HASHED { table_mib } else { 0 };
        let opts = Options::recommended::<G, Minimax, E>(&eval)
            .with_table_mib(table)
            .with_aspiration(None)
            .with_exact_root(true);
        Ok(MoveValues { search: Search::new(Minimax, eval, opts)?, limits: Limits::depth(depth) })
    }

    /// `(values, index of mv)`, or `None` if `mv` was not searched.
    fn decision(&mut self, state: &G, mv: G::Move) -> Result<Option<(Vec<f64>, usize)>, GameError> {
        let r = self.search.run(state, &self.limits)?;
        let i = r.root_moves.iter().position(|m| m.mv == mv);
        Ok(i.map(|i| (r.root_moves.iter().map(|m| m.score).collect(), i)))
    }
}

/// What the online and adaptive agents share: they watch the opponent's
/// moves ([`MoveWatcher`]) and update posteriors over its θ
/// ([`ThetaPosterior`]), one per model: the depth-`D` values of each
/// position it moved from, for one depth (online) or for every depth of
/// the dial's curves (adaptive).
///
/// A model whose evidence falls [`DROP_NATS`] behind the best one's is
/// dropped: it is no longer searched or updated, and counts as impossible
/// until [`forget`](Self::forget). Its weight was below `e^−25` of the
/// best's, too little to change a rating, and a deep model (connect-4's
/// depth 12) costs far more than the others against the weak players it
/// cannot explain.
struct ThetaLearner<G: Game, E: Evaluator<G>> {
    models: Vec<(MoveValues<G, E>, ThetaPosterior)>,
    /// Which models are dropped, in the order of `models`.
    dropped: Vec<bool>,
    watcher: MoveWatcher<G>,
    scratch: Vec<(Vec<f64>, usize)>,
}

/// How far (in natural log units, a Bayes factor of about 7·10¹⁰) a
/// model's evidence may fall behind the best's before it is dropped.
const DROP_NATS: f64 = 25.0;

impl<G: Game, E: Evaluator<G> + Clone> ThetaLearner<G, E> {
    /// One model per `(depth, prior)`: the prior learns from depth-`depth` values.
    fn new(eval: &E, models: Vec<(u32, ThetaPosterior)>, table_mib: usize) -> Result<Self, ParamError> {
        let models = models
            .into_iter()
            .map(|(depth, prior)| Ok((MoveValues::new(eval.clone(), depth, table_mib)?, prior)))
            .collect::<Result<Vec<_>, ParamError>>()?;
        let dropped = vec![false; models.len()];
        Ok(ThetaLearner { models, dropped, watcher: MoveWatcher::default(), scratch: Vec::new() })
    }
}

impl<G: Game, E: Evaluator<G>> ThetaLearner<G, E> {
    /// The first model's posterior (the only one of an online agent).
    fn posterior(&self) -> &ThetaPosterior {
        &self.models[0].1
    }

    fn forget(&mut self) {
        self.models.iter_mut().for_each(|m| m.1.forget());
        self.dropped.iter_mut().for_each(|d| *d = false);
    }

    /// Each model's log evidence ([`ThetaPosterior::log_evidence`]), −∞ for
    /// a dropped one.
    fn log_evidences(&self) -> Vec<f64> {
        let evidence = |(m, &dropped): (&(MoveValues<G, E>, ThetaPosterior), &bool)| {
            if dropped { f64::NEG_INFINITY } else { m.1.log_evidence() }
        };
        self.models.iter().zip(&self.dropped).map(evidence).collect()
    }

    /// Before our move at `state`: learns from the opponent's move that led
    /// here, if one can be inferred; `true` when the posteriors changed.
    /// Every model that is not dropped learns from the move or none does,
    /// so that their evidences stay comparable.
    fn observe(&mut self, state: &G) -> Result<bool, GameError> {
        let Some((before, mv)) = self.watcher.observe(state) else {
            return Ok(false);
        };
        self.scratch.clear();
        for ((values, _), _) in self.models.iter_mut().zip(&self.dropped).filter(|m| !m.1) {
            match values.decision(&before, mv)? {
                Some(d) => self.scratch.push(d),
                None => return Ok(false),
            }
        }
        let live = self.models.iter_mut().zip(&self.dropped).filter(|m| !m.1);
        for (((_, post), _), (values, i)) in live.zip(&self.scratch) {
            post.update(values, *i)?;
        }
        let logs = self.log_evidences();
        let best = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for (dropped, l) in self.dropped.iter_mut().zip(logs) {
            *dropped |= l < best - DROP_NATS;
        }
        Ok(true)
    }

    /// After our move `mv` at `state`.
    fn played(&mut self, state: &G, mv: G::Move) {
        let mut after = state.clone();
        after.play(mv);
        self.watcher.played(&after);
    }
}

/// The search an [`OnlineAgent`] plays with.
enum OnlinePlayer<G: Game, E: Evaluator<G>> {
    /// The opponent modelled on our own backed-up values.
    Ours(Box<ModelledAgent<G, E>>),
    /// The opponent predicted from its own values (`opp_depth`).
    Own(Box<PredictingAgent<G, E>>),
}

/// Learns the opponent's θ from its moves and searches against it: the
/// `online:depth=D` agent.
///
/// After each opponent move it inferred ([`MoveWatcher`]), the posterior
/// ([`ThetaPosterior`]) is updated with the depth-`D` minimax values of
/// that position's moves; it then searches ([`ModelledSearch`], depth `D`)
/// against a Boltzmann opponent whose θ is the **posterior mean** (one θ,
/// not the posterior-predictive mixture: the search's pruning needs a
/// single Boltzmann model, and the mean of θ leans to the cautious side).
/// [`reset`](Agent::reset) keeps the posterior (a new game starts from the
/// last one's) unless made with `forget_each_game`;
/// [`forget`](Self::forget) clears it at any time.
///
/// ```
/// use games_small::{TicTacToe, TicTacToeEval};
/// use search_core::{Agent, RandomAgent, arena::play_match};
/// use strength::agents::OnlineAgent;
/// let mut me = OnlineAgent::new(TicTacToeEval::default(), 9, 1.0, false, 1)?;
/// for seed in 0..4 {
///     me.reset();
///     play_match(&TicTacToe::default(), &mut me, &mut RandomAgent, seed, None)?;
/// }
/// // A random player's moves pull the estimate far below the prior's.
/// assert!(me.posterior().observations() > 4 && me.theta() < 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct OnlineAgent<G: Game, E: Evaluator<G>> {
    player: OnlinePlayer<G, E>,
    depth: u32,
    learner: ThetaLearner<G, E>,
    /// The value searches' table size.
    table_mib: usize,
    forget_each_game: bool,
    name: String,
}

impl<G: Game, E: Evaluator<G>> std::fmt::Debug for OnlineAgent<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnlineAgent").field("name", &self.name).field("posterior", self.learner.posterior()).finish()
    }
}

impl<G: Game, E: Evaluator<G> + Clone> OnlineAgent<G, E> {
    /// An online agent searching `depth` plies, values capped at `±cap`,
    /// transposition tables of `table_mib` for the value searches.
    /// `forget_each_game`: [`reset`](Agent::reset) clears the posterior.
    pub fn new(eval: E, depth: u32, cap: f64, forget_each_game: bool, table_mib: usize) -> Result<Self, ParamError> {
        Self::with_score_cap(eval, depth, ScoreCap::hard(cap)?, forget_each_game, table_mib)
    }

    /// [`new`](Self::new) for values bounded by `cap`, hard or soft (the
    /// spec's `cap=C` or `softcap=C`). The posterior explains the
    /// opponent's moves by values under that cap
    /// ([`ThetaPosterior::with_score_cap`]); the search's model of the
    /// opponent ([`Modelled`]) caps hard at the same bound, the one cap it
    /// has; with [`with_opponent_depth`](Self::with_opponent_depth) the
    /// prediction bounds the opponent's values by this cap, soft or hard.
    ///
    /// ```
    /// use games_small::{Connect4, Connect4Eval};
    /// use search_core::policy::ScoreCap;
    /// use strength::agents::OnlineAgent;
    /// let a = OnlineAgent::<Connect4, _>::with_score_cap(Connect4Eval::default(), 2, ScoreCap::soft(100.0)?, false, 1)?;
    /// assert_eq!(a.posterior().score_cap(), ScoreCap::soft(100.0)?);
    /// # Ok::<(), search_core::ParamError>(())
    /// ```
    pub fn with_score_cap(
        eval: E,
        depth: u32,
        cap: ScoreCap,
        forget_each_game: bool,
        table_mib: usize,
    ) -> Result<Self, ParamError> {
        let learner = ThetaLearner::new(&eval, vec![(depth, ThetaPosterior::with_score_cap(cap))], table_mib)?;
        let rule = Modelled::new(OpponentModel::boltzmann(learner.posterior().mean())?).with_cap(cap.bound())?;
        let player = OnlinePlayer::Ours(Box::new(ModelledAgent::new(ModelledSearch::new(rule, eval), depth)?));
        let name = match cap {
            ScoreCap::Hard(c) => format!("online:depth={depth},cap={c}"),
            ScoreCap::Soft(c) => format!("online:depth={depth},softcap={c}"),
        };
        Ok(OnlineAgent { player, depth, learner, table_mib, forget_each_game, name })
    }

    /// Searches with [`PredictingAgent`] instead: the opponent's moves
    /// predicted from its own depth-`opp_depth` values, with θ the
    /// posterior mean, its nodes valued with safety `κ`
    /// ([`PredictingAgent::with_safety`]; the spec's `opp_depth=K` and
    /// `safety=κ`).
    /// θ is then learnt on the opponent's depth-`opp_depth` values, the
    /// values the prediction applies it to (not on our search depth's: with
    /// a node budget that depth may be a cap of 64 plies), under the same
    /// cap ([`PredictingAgent::with_opponent_cap`]). `configure`
    /// finishes the agent (e.g. [`PredictingAgent::with_model_plies`]; `Ok`
    /// for none).
    pub fn with_opponent_depth(
        mut self,
        eval: E,
        opp_depth: u32,
        safety: f64,
        configure: impl FnOnce(PredictingAgent<G, E>) -> Result<PredictingAgent<G, E>, ParamError>,
    ) -> Result<Self, ParamError> {
        let (depth, cap) = (self.depth, self.learner.posterior().score_cap());
        if opp_depth != depth {
            self.learner =
                ThetaLearner::new(&eval, vec![(opp_depth, ThetaPosterior::with_score_cap(cap))], self.table_mib)?;
        }
        let rule = Modelled::new(OpponentModel::boltzmann(self.learner.posterior().mean())?).with_cap(cap.bound())?;
        let agent = PredictingAgent::new(rule, eval, depth, opp_depth)?.with_opponent_cap(cap);
        let agent = configure(agent.with_safety(safety)?)?;
        self.player = OnlinePlayer::Own(Box::new(agent));
        self.name = format!("{},opp_depth={opp_depth}", self.name);
        if safety > 0.0 {
            self.name = format!("{},safety={safety}", self.name);
        }
        Ok(self)
    }

    /// The posterior over the opponent's θ.
    pub fn posterior(&self) -> &ThetaPosterior {
        self.learner.posterior()
    }

    /// The θ the next search will assume (the posterior mean).
    pub fn theta(&self) -> f64 {
        self.learner.posterior().mean()
    }

    /// Clears the posterior back to the prior.
    pub fn forget(&mut self) {
        self.learner.forget();
    }
}

impl<G: Game, E: Evaluator<G> + Clone> Agent<G> for OnlineAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, rng: &mut dyn rand::RngCore) -> Result<G::Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    /// The search's explanation ([`ModelledAgent`]'s or
    /// [`PredictingAgent`]'s): its nodes and depth are the search's for
    /// this move (with `opp_depth`, the opponent's predictions included, as
    /// the node budget counts them); the value searches that learn θ from
    /// the opponent's last move are not counted.
    fn choose_explained(&mut self, state: &G, rng: &mut dyn rand::RngCore) -> Result<Choice<G::Move>, GameError> {
        self.learner.observe(state)?;
        let theta = OpponentModel::boltzmann(self.learner.posterior().mean())?;
        let choice = match &mut self.player {
            OnlinePlayer::Ours(p) => {
                p.search().set_model(theta);
                p.choose_explained(state, rng)?
            }
            OnlinePlayer::Own(p) => {
                p.set_model(theta);
                p.choose_explained(state, rng)?
            }
        };
        self.learner.played(state, choice.mv);
        Ok(choice)
    }

    fn reset(&mut self) {
        self.learner.watcher.clear();
        if self.forget_each_game {
            self.learner.forget();
        }
    }

    /// Learns from the opponent's move that ended the game, if it did.
    fn game_over(&mut self, last: &G) {
        // A search error here would only lose one observation.
        let _ = self.learner.observe(last);
        self.learner.watcher.clear();
    }
}

/// One step of an [`AdaptiveAgent`]'s trajectory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptiveStep {
    /// Opponent moves observed so far.
    pub observations: u64,
    /// The opponent's estimated rating (posterior mean on the dial's
    /// curve).
    pub opponent_elo: f64,
    /// The rating the agent aims at (before damping).
    pub aim: f64,
    /// The rating it plays at (damped).
    pub own_elo: f64,
}

/// The `adaptive:target=S[,depth=D]` agent: estimates the opponent's
/// rating from its moves and plays the dial at the rating that gives the
/// opponent the expected score `S`.
///
/// The opponent's θ posterior ([`ThetaPosterior`], values of depth `D` with
/// the cap of the dial's `boltzmann:depth=D` curve) is mapped to a rating
/// by the posterior mean of [`Dial::rating_of`] on that curve. The aim is
/// the rating `R` at which the opponent's [expected
/// score](Dial::expected_score) is `S`, clamped to the dial's range up to
/// the top of the Boltzmann curves it observes through (a dial whose top is
/// a curve of another kind, chess's engine with node budgets, is played up
/// to the deepest Boltzmann curve's greedy top). After the
/// `n`-th observed move the rating played moves the fraction
/// `0.2·n/(n + 20)` of the way towards the aim (little while the posterior
/// is still vague, a fifth at most), and the dial's agent is rebuilt only
/// when the rating has moved by more than 10 Elo (or the likeliest curve
/// changed), so the strength does not swing with single moves; the
/// posterior is kept across games.
///
/// It plays on the curve that best explains the opponent
/// ([`Dial::setting_on`], the likeliest of
/// [`curve_probabilities`](Self::curve_probabilities)) wherever that curve
/// reaches the rating, so that the aim is predicted between two settings
/// of one curve, not across search depths, where a calibration fits worse.
/// Before any observed move, and where that curve does not reach, it plays
/// the dial's own [`setting`](Dial::setting).
pub struct AdaptiveAgent<G: Game, E: Evaluator<G>> {
    factory: StandardAgents<E>,
    dial: Dial,
    /// The dial's curves, one per model of the learner.
    curves: Vec<String>,
    target: f64,
    learner: ThetaLearner<G, E>,
    own: f64,
    built_at: f64,
    /// The curve the agent was built on, an index into `curves` (`None`:
    /// the dial's own choice).
    built_on: Option<usize>,
    /// The setting it plays.
    playing: AgentSpec,
    inner: BoxedAgent<G>,
    trajectory: Vec<AdaptiveStep>,
    name: String,
}

impl<G: Game, E: Evaluator<G>> std::fmt::Debug for AdaptiveAgent<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdaptiveAgent").field("name", &self.name).field("own", &self.own).finish()
    }
}

/// Why an [`AdaptiveAgent`] cannot be built, or cannot change the setting
/// it plays.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AdaptiveError {
    /// The target score is not within `(0, 1)`.
    #[error("target must be within (0, 1), got {0}")]
    Target(f64),
    /// The factory has no dial (the game is not calibrated).
    #[error("adaptive needs a calibrated game (a dial)")]
    NoDial,
    /// The dial has no capped Boltzmann curve to observe through.
    #[error("the dial has no capped boltzmann curve")]
    NoCurve,
    /// The dial has no Boltzmann curve at the depth asked for.
    #[error("the dial has no boltzmann curve at depth {0}")]
    NoCurveAtDepth(u32),
    /// A prior or a value search could not be built.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The dial has no setting at the rating to play.
    #[error(transparent)]
    Dial(#[from] DialError),
    /// The dial's setting could not be built.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The dial's setting is not a kind the factory builds.
    #[error("the dial's setting {0} is not a standard kind")]
    NotStandard(AgentSpec),
}

/// Damping: at most this fraction of the way to the aim per observed move.
const STEP: f64 = 0.2;
/// Observed moves at which the damping reaches half of [`STEP`].
const HALF: f64 = 20.0;
/// Rebuild the dial's agent only beyond this change (Elo).
const REBUILD: f64 = 10.0;

impl<G, E> AdaptiveAgent<G, E>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    /// An adaptive agent over `factory`'s dial (it must have one) aiming at
    /// the opponent score `target ∈ (0, 1)`. With `depth: Some(D)` it
    /// observes through depth-`D` values only (the dial must have the curve
    /// `boltzmann:depth=D,...`); with `None`, through every capped
    /// Boltzmann curve of the dial at once, weighing them by how well each
    /// explains the moves. A [partial](crate::dial::Calibration::partial_curves)
    /// curve is observed through with a prior from its weakest rung's θ up
    /// ([`ThetaPosterior::with_floor`]), as it rates no weaker θ.
    ///
    /// Errors: see [`AdaptiveError`].
    pub fn new(factory: StandardAgents<E>, target: f64, depth: Option<u32>) -> Result<Self, AdaptiveError> {
        if !(target > 0.0 && target < 1.0) {
            return Err(AdaptiveError::Target(target));
        }
        let dial = factory.dial.clone().ok_or(AdaptiveError::NoDial)?;
        let found = boltzmann_curves(&dial, depth)?;
        let models = found
            .iter()
            .map(|c| {
                let prior = ThetaPosterior::with_score_cap(c.cap);
                let prior = match c.floor {
                    Some(t) => prior.with_floor(t)?,
                    None => prior,
                };
                Ok((c.depth, prior))
            })
            .collect::<Result<Vec<_>, ParamError>>()?;
        let learner = ThetaLearner::new(&factory.eval, models, factory.table_mib)?;
        let name = match depth {
            Some(d) => format!("adaptive:target={target},depth={d}"),
            None => format!("adaptive:target={target}"),
        };
        let mut agent = AdaptiveAgent {
            inner: Box::new(search_core::RandomAgent),
            factory,
            dial,
            curves: found.into_iter().map(|c| c.name).collect(),
            target,
            learner,
            own: 0.0,
            built_at: f64::NAN,
            built_on: None,
            playing: AgentSpec::new("random"),
            trajectory: Vec::new(),
            name,
        };
        let aim = agent.aim(agent.opponent_elo());
        agent.own = aim;
        agent.rebuild()?;
        Ok(agent)
    }

    /// The opponent's estimated rating: on each curve, the posterior mean
    /// of the rating of its θ; averaged over the curves with their
    /// probabilities ([`curve_probabilities`](Self::curve_probabilities)).
    pub fn opponent_elo(&self) -> f64 {
        let dial = &self.dial;
        self.curve_probabilities()
            .iter()
            .zip(&self.learner.models)
            .map(|((curve, p), (_, post))| p * post.mean_of(|t| dial.rating_of(curve, t).unwrap_or(0.0)))
            .sum()
    }

    /// Each curve observed through, with the probability that the opponent
    /// is best described by it (its posterior's evidence, normalised; equal
    /// before any move). A curve whose evidence has fallen 25 natural-log
    /// units behind the likeliest one's is no longer searched and gets 0,
    /// until the agent forgets what it learnt.
    pub fn curve_probabilities(&self) -> Vec<(String, f64)> {
        let logs = self.learner.log_evidences();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = logs.iter().map(|l| (l - top).exp()).collect();
        let total: f64 = w.iter().sum();
        self.curves.iter().cloned().zip(w.into_iter().map(|x| x / total)).collect()
    }

    /// The rating it currently plays at.
    pub fn own_elo(&self) -> f64 {
        self.own
    }

    /// The posterior over the opponent's θ on the most probable curve.
    pub fn posterior(&self) -> &ThetaPosterior {
        &self.learner.models[self.likeliest().0].1
    }

    /// The index of the most probable curve (the first on a tie), and
    /// whether no other curve is as probable.
    fn likeliest(&self) -> (usize, bool) {
        let logs = self.learner.log_evidences();
        let best = (0..logs.len()).fold(0, |b, i| if logs[i] > logs[b] { i } else { b });
        (best, logs.iter().filter(|&&l| l == logs[best]).count() == 1)
    }

    /// The dial setting it plays now.
    pub fn playing(&self) -> &AgentSpec {
        &self.playing
    }

    /// The curve to play on (an index into `curves`): the likeliest one, or
    /// `None` while no curve is likelier than the others (before any
    /// observed move).
    fn curve_to_play(&self) -> Option<usize> {
        let (best, unique) = self.likeliest();
        unique.then_some(best)
    }

    /// Every step so far (one per observed opponent move).
    pub fn trajectory(&self) -> &[AdaptiveStep] {
        &self.trajectory
    }

    /// The highest rating it plays: the top of the curves it observes
    /// through. Above them a dial may have curves of other kinds (chess's
    /// engine with node budgets), which its factory does not build.
    fn top(&self) -> f64 {
        let tops = self.curves.iter().filter_map(|c| self.dial.curve_range(c)).map(|r| r.1);
        tops.fold(f64::NEG_INFINITY, f64::max).min(self.dial.range().1)
    }

    /// The rating that gives the opponent (rated `opp`) the target score,
    /// within the dial's range up to the [top](Self::top) of its curves.
    fn aim(&self, opp: f64) -> f64 {
        // The opponent's score falls as our rating rises: bisection.
        let (lo_r, hi_r) = (self.dial.range().0, self.top());
        let score = |own: f64| self.dial.expected_score(opp, own);
        let (mut lo, mut hi) = (lo_r, hi_r);
        if score(lo) <= self.target {
            return lo;
        }
        if score(hi) >= self.target {
            return hi;
        }
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if score(mid) > self.target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// After an observed move: the new estimate, the aim, one damped step
    /// towards it, and a rebuild if the rating moved far enough.
    fn adapt(&mut self) -> Result<(), AdaptiveError> {
        let opp = self.opponent_elo();
        let aim = self.aim(opp);
        let observations = self.posterior().observations();
        let n = observations as f64;
        self.own += STEP * n / (n + HALF) * (aim - self.own);
        self.trajectory.push(AdaptiveStep { observations, opponent_elo: opp, aim, own_elo: self.own });
        if (self.own - self.built_at).abs() > REBUILD || self.curve_to_play() != self.built_on {
            self.rebuild()?;
        }
        Ok(())
    }

    /// Builds the dial's agent at the rating it plays now, on the curve to
    /// play.
    fn rebuild(&mut self) -> Result<(), AdaptiveError> {
        let curve = self.curve_to_play();
        let setting = match curve {
            Some(i) => self.dial.setting_on(&self.curves[i], self.own),
            None => self.dial.setting(self.own),
        }?;
        let (setting, agent) = match AgentFactory::<G>::build(&self.factory, &setting)? {
            Some(agent) => (setting, agent),
            None => {
                // A setting of another kind (where the dial prefers a curve
                // of the game's own engine): the deepest observed curve that
                // plays this rating instead.
                let covering = self
                    .curves
                    .iter()
                    .rev()
                    .find(|c| self.dial.curve_range(c).is_some_and(|(lo, hi)| lo <= self.own && self.own <= hi));
                let Some(curve) = covering else { return Err(AdaptiveError::NotStandard(setting)) };
                let on_curve = self.dial.setting_on(curve, self.own)?;
                match AgentFactory::<G>::build(&self.factory, &on_curve)? {
                    Some(agent) => (on_curve, agent),
                    None => return Err(AdaptiveError::NotStandard(on_curve)),
                }
            }
        };
        self.inner = agent;
        self.built_at = self.own;
        self.built_on = curve;
        self.playing = setting;
        Ok(())
    }
}

impl<G, E> Agent<G> for AdaptiveAgent<G, E>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, rng: &mut dyn rand::RngCore) -> Result<G::Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    /// The explanation of the dial's agent it currently plays (its
    /// distribution, values, nodes and depth); the value searches that
    /// learn from the opponent's last move are not counted.
    fn choose_explained(&mut self, state: &G, rng: &mut dyn rand::RngCore) -> Result<Choice<G::Move>, GameError> {
        if self.learner.observe(state)? {
            self.adapt().map_err(|e| ParamError::new("adaptive", e.to_string()))?;
        }
        let choice = self.inner.choose_explained(state, rng)?;
        self.learner.played(state, choice.mv);
        Ok(choice)
    }

    fn reset(&mut self) {
        self.learner.watcher.clear();
        self.inner.reset();
    }

    /// Learns from the opponent's move that ended the game, if it did.
    fn game_over(&mut self, last: &G) {
        // A search error here would only lose one observation; a failed
        // rebuild keeps the agent it has.
        if let Ok(true) = self.learner.observe(last) {
            let _ = self.adapt();
        }
        self.learner.watcher.clear();
        self.inner.game_over(last);
    }
}

/// A Boltzmann curve of the dial that the adaptive agent observes through.
struct ObservedCurve {
    /// Its spec without θ, e.g. `boltzmann:depth=4,cap=100`.
    name: String,
    depth: u32,
    cap: ScoreCap,
    /// The weakest θ the curve rates ([`Dial::least_theta`]) when above 0
    /// (a [partial](crate::dial::Calibration::partial_curves) curve's
    /// weakest rung): its prior starts there ([`ThetaPosterior::with_floor`]).
    floor: Option<f64>,
}

/// The dial's curves `boltzmann:depth=D,cap=C` (or `softcap=C`), shallowest
/// first: the one at `depth`, or all of them.
fn boltzmann_curves(dial: &Dial, depth: Option<u32>) -> Result<Vec<ObservedCurve>, AdaptiveError> {
    let mut found: Vec<ObservedCurve> = Vec::new();
    for r in &dial.calibration().rungs {
        let Some(name) = &r.curve else { continue };
        let Ok(spec) = name.parse::<AgentSpec>() else { continue };
        if spec.kind() != "boltzmann" {
            continue;
        }
        let d = spec.get("depth").and_then(|d| d.parse::<u32>().ok());
        let c = spec.score_cap().ok().flatten();
        let name = spec.to_string();
        if let (Some(depth), Some(cap)) = (d, c)
            && !found.iter().any(|f| f.name == name)
        {
            let floor = dial.least_theta(&name).filter(|&t| t > 0.0);
            found.push(ObservedCurve { name, depth, cap, floor });
        }
    }
    found.sort_by_key(|f| f.depth);
    match depth {
        None if found.is_empty() => Err(AdaptiveError::NoCurve),
        None => Ok(found),
        Some(d) => found.into_iter().find(|f| f.depth == d).map(|f| vec![f]).ok_or(AdaptiveError::NoCurveAtDepth(d)),
    }
}

/// The cap of the dial's shallowest Boltzmann curve, if any.
fn dial_cap(dial: Option<&Dial>) -> Option<ScoreCap> {
    dial.and_then(|d| boltzmann_curves(d, None).ok()).and_then(|c| c.first().map(|c| c.cap))
}

/// The spec keys of the predicting search (`opp_depth=K`): `safety=κ` (the
/// worst reply's weight, [`PredictingAgent::with_safety`]), `model_plies=P`
/// (the opponent modelled at its first P moves only, the alpha-beta engine
/// below, [`PredictingAgent::with_model_plies`]) and `nodes=N` (iterative
/// deepening within N nodes a move, [`PredictingAgent::with_node_budget`])
/// and `when=always|lost|drawn|near` (`lost`: plain alpha-beta unless it
/// proves the game lost, [`PredictingAgent::when_lost`]; `drawn`: also where
/// it solves the game drawn, the model choosing among the moves that keep
/// the draw, [`PredictingAgent::when_drawn`]; `near`: also where its next
/// iteration would not complete within `nodes` (without `nodes`: after its
/// search to the full depth), the model choosing among the moves within
/// `delta=Δ` (default 5) of the best, [`PredictingAgent::when_near`]; all
/// need `model_plies`). Each needs `opp_depth`.
struct PredictingKeys {
    safety: Option<f64>,
    model_plies: Option<u32>,
    nodes: Option<u64>,
    /// `delta=`: `when=near`'s margin.
    delta: Option<f64>,
    /// `when=`: where the model is consulted.
    when: When,
}

/// The keys of the predicting search, `opp_depth` with them.
const PREDICTING_KEYS: [&str; 6] = ["opp_depth", "safety", "model_plies", "nodes", "when", "delta"];

/// The values of `when=`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum When {
    Always,
    Lost,
    Drawn,
    Near,
}

impl PredictingKeys {
    /// Reads the keys, and checks that `opp_depth` is given if any is.
    fn read(r: &mut SpecReader<'_>, spec: &AgentSpec, opp_depth: Option<u32>) -> Result<Self, SpecError> {
        let when: Option<String> = r.take("when")?;
        let when = match when.as_deref() {
            None | Some("always") => When::Always,
            Some("lost") => When::Lost,
            Some("drawn") => When::Drawn,
            Some("near") => When::Near,
            Some(w) => return Err(SpecError::new(spec, format!("when={w}: expected always, lost, drawn or near"))),
        };
        let keys = PredictingKeys {
            safety: r.take("safety")?,
            model_plies: r.take("model_plies")?,
            nodes: r.take("nodes")?,
            delta: r.take("delta")?,
            when,
        };
        if when != When::Always && keys.model_plies.is_none() {
            return Err(SpecError::new(
                spec,
                "when=lost|drawn|near needs model_plies (the alpha-beta engine it plays with)",
            ));
        }
        if keys.delta.is_some() && when != When::Near {
            return Err(SpecError::new(spec, "delta is when=near's margin: it needs when=near"));
        }
        if opp_depth.is_none() {
            if keys.safety.is_some() {
                return Err(SpecError::new(spec, "safety needs opp_depth (it blends the predicted replies)"));
            }
            if keys.model_plies.is_some() || keys.nodes.is_some() || keys.when != When::Always {
                return Err(SpecError::new(spec, "model_plies, nodes and when need opp_depth (the predicting search)"));
            }
        }
        Ok(keys)
    }

    /// κ, 0 when not given.
    fn safety(&self) -> f64 {
        self.safety.unwrap_or(0.0)
    }

    /// Applies `model_plies` and `nodes` (the engine's table: `table_mib`).
    fn apply<G: Game, E: Evaluator<G> + Clone>(
        &self,
        mut a: PredictingAgent<G, E>,
        table_mib: usize,
    ) -> Result<PredictingAgent<G, E>, ParamError> {
        if let Some(k) = self.model_plies {
            a = a.with_model_plies(k, table_mib)?;
        }
        if let Some(n) = self.nodes {
            a = a.with_node_budget(n)?;
        }
        match self.when {
            When::Always => {}
            When::Lost => a = a.when_lost()?,
            When::Drawn => a = a.when_drawn()?,
            When::Near => a = a.when_near(self.delta.unwrap_or(5.0))?,
        }
        Ok(a)
    }
}

/// Builds `aware`, `online` and `adaptive` (see [`StandardAgents`]);
/// `Ok(None)` for other kinds.
pub(super) fn build<G, E>(agents: &StandardAgents<E>, spec: &AgentSpec) -> Result<Option<BoxedAgent<G>>, SpecError>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let mut r = spec.reader();
    let err = |e: &dyn std::fmt::Display| SpecError::new(spec, e.to_string());
    let depth_of = |d: u32| {
        if d == 0 || d > search_core::MAX_PLY {
            Err(SpecError::new(spec, format!("depth must be within 1..={}", search_core::MAX_PLY)))
        } else {
            Ok(d)
        }
    };
    let agent: BoxedAgent<G> = match spec.kind() {
        "aware" => {
            let depth = depth_of(r.require("depth")?)?;
            let theta: f64 = r.require("theta")?;
            let cap = r.take_score_cap()?;
            let opp_depth: Option<u32> = r.take("opp_depth")?;
            let keys = PredictingKeys::read(&mut r, spec, opp_depth)?;
            r.finish(&[&["depth", "theta", "cap", "softcap"][..], &PREDICTING_KEYS[..]].concat())?;
            let mut rule = Modelled::new(OpponentModel::boltzmann(theta).map_err(|e| err(&e))?);
            let cap = cap.or_else(|| dial_cap(agents.dial.as_ref()));
            if let Some(c) = cap {
                rule = rule.with_cap(c.bound()).map_err(|e| err(&e))?;
            }
            if let Some(k) = opp_depth {
                let k = depth_of(k)?;
                let a = PredictingAgent::new(rule, agents.eval.clone(), depth, k)
                    .map(|a| match cap {
                        Some(c) => a.with_opponent_cap(c),
                        None => a,
                    })
                    .and_then(|a| a.with_safety(keys.safety()))
                    .and_then(|a| keys.apply(a, agents.table_mib))
                    .map_err(|e| err(&e))?;
                return Ok(Some(Box::new(a.named(spec.to_string()))));
            }
            let search = ModelledSearch::new(rule, agents.eval.clone());
            Box::new(ModelledAgent::new(search, depth).map_err(|e| err(&e))?.named(spec.to_string()))
        }
        "online" => {
            let depth = depth_of(r.require("depth")?)?;
            let cap = r.take_score_cap()?;
            let memory: Option<String> = r.take("memory")?;
            let opp_depth: Option<u32> = r.take("opp_depth")?;
            let keys = PredictingKeys::read(&mut r, spec, opp_depth)?;
            r.finish(&[&["depth", "cap", "softcap", "memory"][..], &PREDICTING_KEYS[..]].concat())?;
            let forget = match memory.as_deref() {
                None | Some("keep") => false,
                Some("game") => true,
                Some(m) => return Err(SpecError::new(spec, format!("memory={m}: expected keep or game"))),
            };
            let cap = cap.or_else(|| dial_cap(agents.dial.as_ref())).ok_or_else(|| {
                SpecError::new(
                    spec,
                    "online needs cap=C or softcap=C (the value scale) when the game has no calibration",
                )
            })?;
            let mut a = OnlineAgent::with_score_cap(agents.eval.clone(), depth, cap, forget, agents.table_mib.min(4))
                .map_err(|e| err(&e))?;
            if let Some(k) = opp_depth {
                a = a
                    .with_opponent_depth(agents.eval.clone(), depth_of(k)?, keys.safety(), |p| {
                        keys.apply(p, agents.table_mib)
                    })
                    .map_err(|e| err(&e))?;
            }
            a.name = spec.to_string();
            Box::new(a)
        }
        "adaptive" => {
            let target: f64 = r.require("target")?;
            let depth: Option<u32> = r.take("depth")?;
            r.finish(&["target", "depth"])?;
            if let Some(d) = depth {
                depth_of(d)?;
            }
            let mut a = AdaptiveAgent::new(agents.clone(), target, depth).map_err(|e| err(&e))?;
            a.name = spec.to_string();
            Box::new(a)
        }
        _ => return Ok(None),
    };
    Ok(Some(agent))
}

/// The kinds of [`build`], for help texts.
pub(super) fn kinds(dial: bool) -> Vec<(String, String)> {
    let mut v = vec![
        (
            "aware:depth=D,theta=T[,cap=C|,softcap=C][,opp_depth=K[,safety=S][,model_plies=P][,nodes=N][,when=lost|drawn|near[,delta=M]]]"
                .to_string(),
            "searches against a Boltzmann opponent of inverse temperature T (with opp_depth: \
             predicted from its own depth-K values; safety: the weight of its worst reply; \
             model_plies: modelled at its first P moves only, alpha-beta below; nodes: iterative \
             deepening within N nodes a move; when=lost: plain alpha-beta unless it proves the \
             game lost; when=drawn: also where it proves a draw, among the moves that keep it; \
             when=near: also where its next iteration would overrun N, or without nodes after \
             its full-depth search, among the moves within M of the best)"
                .to_string(),
        ),
        (
            "online:depth=D[,cap=C|,softcap=C][,memory=keep|game][,opp_depth=K[,safety=S][,model_plies=P][,nodes=N][,when=lost|drawn|near[,delta=M]]]"
                .to_string(),
            "learns the opponent's θ from its moves and searches against it".to_string(),
        ),
    ];
    if dial {
        v.push((
            "adaptive:target=S[,depth=D]".to_string(),
            "sets the dial so that the opponent's expected score is S (its rating estimated on every \
             curve of the dial, or at depth D only)"
                .to_string(),
        ));
    }
    v
}
