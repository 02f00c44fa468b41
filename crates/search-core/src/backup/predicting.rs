//! Search against an opponent predicted from its *own* values (M\*-style).
//!
//! [`ModelledSearch`](super::modelled::ModelledSearch) models
//! the opponent as a Boltzmann chooser over the values *our* search backs up
//! at its node (expectations below, our horizon). A Boltzmann player of the
//! dial does not see those values: it sees the depth-`K` minimax values of
//! its own moves. [`PredictingAgent`] predicts the opponent's move
//! distribution from exactly those values (an exact-root alpha-beta search
//! of depth `K` at every opponent node of our tree, as M\* predicts the
//! opponent with its own search), and values the node by the expectation,
//! under that distribution, of our values of its moves.

use rand::RngCore;

use crate::backup::{Minimax, Modelled};
use crate::policy::ScoreCap;
use crate::search::{
    Bound, Control, Incomplete, Iteration, Limits, Observer, Options, RootMove, Search, SearchResult, Stats, Window,
};
use crate::{Agent, Choice, Evaluator, Game, GameError, MAX_PLY, ParamError, Player, Status, Thought, WIN_SCORE};

/// Why a search of [`PredictingAgent`] stopped early: an error, or the node
/// budget of an iterative-deepening search ran out.
enum Halt {
    Game(GameError),
    Budget,
}

impl From<GameError> for Halt {
    fn from(e: GameError) -> Self {
        Halt::Game(e)
    }
}

/// Moves with a number each: the opponent's replies with their
/// probabilities, or root moves with their values.
type Weighted<M> = Vec<(M, f64)>;

/// Where a node of our tree lies: `left` plies from the horizon, `ply`
/// plies below the root, after `seen` modelled opponent moves; `me` is the
/// root player.
#[derive(Clone, Copy)]
struct At {
    left: u32,
    ply: u32,
    seen: u32,
    me: Player,
}

impl At {
    /// The child's place (`opponent`: this node is a modelled opponent's).
    fn child(self, opponent: bool) -> At {
        At { left: self.left - 1, ply: self.ply + 1, seen: self.seen + u32::from(opponent), ..self }
    }
}

/// Below the modelled plies: the alpha-beta engine values our nodes.
struct Tail<G: Game, E: Evaluator<G>> {
    engine: Search<G, Minimax, E>,
    /// Opponent plies modelled below the root.
    plies: u32,
}

/// Searches `depth` plies against an opponent predicted from its own
/// depth-`opp_depth` minimax values: at our nodes the maximum, at the
/// opponent's nodes the expectation under `rule`'s model applied to the
/// opponent's values (clamped to the rule's cap), at the horizon the
/// evaluator's value as a utility ([`Modelled::utility`]). Exact ties
/// between root moves are broken at random.
///
/// **Safety** ([`with_safety`](Self::with_safety), κ ∈ `[0, 1)`, default
/// 0): an opponent node is valued `(1 − κ)·E + κ·min`, the expectation
/// blended with the worst of its replies for us. The prediction is judged
/// by our values, which at the opponent's nodes reach less far than its
/// own search from there; a replies the prediction calls a blunder by our
/// shorter view often is not one, and against a strong deterministic
/// opponent the pure expectation loses to plain alpha-beta (29 Elo on
/// connect-4 at depth 4). The `min` term keeps part of minimax's caution.
///
/// Pruning (on unless [`with_pruning(false)`](Self::with_pruning)):
/// alpha-beta at our nodes, Star1 at the opponent's (its weights do not
/// depend on our values), with utilities bounded by the rule's cap or the
/// evaluator's bounds; it returns exactly the full-width values and tied
/// best moves. In the [`Thought`], a root move that cannot be or tie the
/// best carries an upper bound on its value.
///
/// ```
/// use search_core::backup::predicting::PredictingAgent;
/// use search_core::backup::{Modelled, OpponentModel};
/// use search_core::tree::{LiteralEval, LiteralTree};
/// use search_core::{Agent, rng};
///
/// // Minimax prefers move 0 (0 against −1), but after move 1 an opponent
/// // this noisy (θ = 0.1) leaves us 10 about a quarter of the time.
/// let t: LiteralTree = "max(min(0, 0), min(-1, 10))".parse()?;
/// let rule = Modelled::new(OpponentModel::boltzmann(0.1)?);
/// let mut me = PredictingAgent::new(rule, LiteralEval, 2, 1)?;
/// assert_eq!(me.choose(&t, &mut rng::seeded(1))?, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PredictingAgent<G: Game, E: Evaluator<G>> {
    rule: Modelled,
    eval: E,
    depth: u32,
    opponent: Search<G, Minimax, E>,
    opp_limits: Limits,
    /// How the opponent bounds its values before choosing: the rule's cap,
    /// hard, unless [`with_opponent_cap`](Self::with_opponent_cap) says
    /// otherwise (`None`: unbounded).
    opp_cap: Option<ScoreCap>,
    moves: Vec<Vec<G::Move>>,
    values: Vec<f64>,
    probs: Vec<f64>,
    /// Nodes of the current move: our tree's plus the opponent's searches.
    nodes: u64,
    /// `|utility| ≤ bound` (+∞ when unknown: no cuts).
    bound: f64,
    prune: bool,
    /// κ: the weight of the worst reply at the opponent's nodes.
    safety: f64,
    /// The engine below the modelled plies, if they are limited.
    tail: Option<Tail<G, E>>,
    /// Nodes per move: iterative deepening up to `depth` while they last.
    budget: Option<u64>,
    /// The budget applies (an iteration after the first).
    deepening: bool,
    /// Where the model is consulted: everywhere, or only where plain
    /// alpha-beta proves the game lost ([`when_lost`](Self::when_lost)) or
    /// not won ([`when_drawn`](Self::when_drawn)).
    trigger: Trigger,
    /// The root move being searched, and the opponent's predicted replies
    /// to the root moves searched so far (for the next iterations).
    root_move: Option<G::Move>,
    root_predictions: Vec<(G::Move, Weighted<G::Move>)>,
    name: String,
}

impl<G: Game, E: Evaluator<G>> std::fmt::Debug for PredictingAgent<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PredictingAgent").field("name", &self.name).finish()
    }
}

impl<G: Game, E: Evaluator<G> + Clone> PredictingAgent<G, E> {
    /// An agent searching `depth` plies, predicting the opponent from its
    /// depth-`opp_depth` values. Errors unless both depths are within
    /// `1..=MAX_PLY`.
    pub fn new(rule: Modelled, eval: E, depth: u32, opp_depth: u32) -> Result<Self, ParamError> {
        for (name, d) in [("depth", depth), ("opp_depth", opp_depth)] {
            if d == 0 || d > MAX_PLY {
                return Err(ParamError::new(name, format!("must be within 1..={}, got {d}", MAX_PLY)));
            }
        }
        let table = if G::HASHED { 4 } else { 0 };
        let opts = Options::recommended::<G, Minimax, E>(&eval)
            .with_table_mib(table)
            .with_aspiration(None)
            .with_exact_root(true);
        let opponent = Search::new(Minimax, eval.clone(), opts)?;
        let name = format!("predicting d{depth} (opponent d{opp_depth})");
        let bound = rule.utility_bound(eval.bounds()).unwrap_or(f64::INFINITY);
        let opp_cap = rule.cap().map(ScoreCap::Hard);
        Ok(PredictingAgent {
            rule,
            eval,
            depth,
            opponent,
            opp_limits: Limits::depth(opp_depth),
            opp_cap,
            moves: Vec::new(),
            values: Vec::new(),
            probs: Vec::new(),
            nodes: 0,
            bound,
            prune: true,
            safety: 0.0,
            tail: None,
            budget: None,
            deepening: false,
            trigger: Trigger::Always,
            root_move: None,
            root_predictions: Vec::new(),
            name,
        })
    }

    /// Models the opponent at its first `plies` moves below the root only;
    /// deeper, our nodes are valued by the alpha-beta engine
    /// ([`Options::recommended`], a table of `table_mib`), as minimax
    /// values within the window the pruning needs. The model then costs a
    /// few opponent searches a move, not one per node of the tree, and the
    /// rest of the budget buys depth (see
    /// [`with_node_budget`](Self::with_node_budget)). Errors unless
    /// `plies ≥ 1` and the table size is valid.
    ///
    /// ```
    /// use search_core::backup::predicting::PredictingAgent;
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// use search_core::{Agent, rng};
    ///
    /// // Below the opponent's reply, minimax: after move 1 the opponent
    /// // (θ = 0.1) still leaves us max(9, 11) = 11 about a quarter of the time.
    /// let t: LiteralTree = "max(min(max(0, -5), max(0, 1)), min(max(-1, -2), max(9, 11)))".parse()?;
    /// let rule = Modelled::new(OpponentModel::boltzmann(0.1)?);
    /// let mut me = PredictingAgent::new(rule, LiteralEval, 3, 1)?.with_model_plies(1, 0)?;
    /// assert_eq!(me.choose(&t, &mut rng::seeded(1))?, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_model_plies(mut self, plies: u32, table_mib: usize) -> Result<Self, ParamError> {
        if plies == 0 || plies > MAX_PLY {
            return Err(ParamError::new("model_plies", format!("must be within 1..={MAX_PLY}, got {plies}")));
        }
        let opts =
            Options::recommended::<G, Minimax, E>(&self.eval).with_table_mib(if G::HASHED { table_mib } else { 0 });
        let engine = Search::new(Minimax, self.eval.clone(), opts)?;
        self.tail = Some(Tail { engine, plies });
        Ok(self)
    }

    /// Searches each move by iterative deepening, depth 1, 2, ... up to the
    /// agent's depth, while the move has used fewer than `nodes` nodes (our
    /// tree's, the opponent's predictions' and the engine's, counted alike);
    /// the move is the last completed iteration's (depth 1 always
    /// completes). For comparisons at an equal node budget with
    /// `alphabeta:...,nodes=N`. Errors unless `nodes ≥ 1`.
    pub fn with_node_budget(mut self, nodes: u64) -> Result<Self, ParamError> {
        if nodes == 0 {
            return Err(ParamError::new("nodes", "must be at least 1"));
        }
        self.budget = Some(nodes);
        Ok(self)
    }

    /// Plays plain alpha-beta (the engine of
    /// [`with_model_plies`](Self::with_model_plies), iterative deepening up
    /// to the agent's depth within the node budget) and consults the model
    /// only when that search proves the game lost: against best play every
    /// move loses, and minimax can only delay, while a fallible opponent may
    /// miss the win. The search stops at the first iteration that proves
    /// the loss, and the predicting search gets what is left of the budget
    /// (the whole depth when there is none). Elsewhere the agent is the
    /// alpha-beta agent of the same engine, move for move, ties at random.
    /// Errors unless the model plies are set.
    ///
    /// ```
    /// use search_core::backup::predicting::PredictingAgent;
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// use search_core::{Agent, WIN_SCORE, rng};
    ///
    /// let rule = || Modelled::new(OpponentModel::boltzmann(0.1).unwrap()).with_cap(10.0).unwrap();
    /// // Not lost: minimax's move 0, though move 1 would pay against this opponent.
    /// let t: LiteralTree = "max(min(0, 0), min(-1, 10))".parse()?;
    /// let mut me = PredictingAgent::new(rule(), LiteralEval, 2, 1)?.with_model_plies(1, 0)?.when_lost()?;
    /// assert_eq!(me.choose(&t, &mut rng::seeded(1))?, 0);
    /// // Lost (a forced loss whatever we do): the move the opponent is likelier to spoil.
    /// let lost = format!("max(min(-{w}, -{w}), min(-{w}, 10))", w = WIN_SCORE);
    /// let t: LiteralTree = lost.parse()?;
    /// assert_eq!(me.choose(&t, &mut rng::seeded(1))?, 1);
    /// assert!(PredictingAgent::new(rule(), LiteralEval, 2, 1)?.when_lost().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn when_lost(mut self) -> Result<Self, ParamError> {
        if self.tail.is_none() {
            return Err(ParamError::new("when", "lost needs the model plies (the alpha-beta engine below them)"));
        }
        self.trigger = Trigger::Lost;
        Ok(self)
    }

    /// As [`when_lost`](Self::when_lost), and also where plain alpha-beta
    /// *solves* the game without a win (an iteration that reaches no
    /// horizon, with a value short of a win: a draw, in a game of wins,
    /// draws and losses). Then the model chooses among the moves that keep
    /// that value, proven by alpha-beta's scores of the root moves or, where
    /// they leave it open, by a null-window search of the move solved to
    /// the end within what is left of the budget (a move it cannot prove is
    /// left out). So the game-theoretic value is never given away: a drawn
    /// game stays at least drawn whatever the opponent does, and the model
    /// picks the draw it is likeliest to spoil. Where fewer than two moves
    /// keep the value, alpha-beta's move. Errors unless the model plies are
    /// set.
    ///
    /// ```
    /// use search_core::backup::predicting::PredictingAgent;
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// use search_core::{Agent, WIN_SCORE, rng};
    ///
    /// // A nearly random opponent (θ = 0.01, values capped at ±10).
    /// let rule = || Modelled::new(OpponentModel::boltzmann(0.01).unwrap()).with_cap(10.0).unwrap();
    /// // Leaves are finished games: 0 a draw, ±WIN_SCORE a win or a loss.
    /// // Moves 0 and 1 draw against best play, and after move 1 the opponent
    /// // may let us win; move 2 loses against best play, though this
    /// // opponent would let us win five times in six.
    /// let w = WIN_SCORE;
    /// let t: LiteralTree = format!("max(min(0, 0), min(0, {w}), min(-{w}, {w}, {w}, {w}, {w}, {w}))").parse()?;
    /// let agent = || PredictingAgent::new(rule(), LiteralEval, 2, 1)?.with_model_plies(1, 0);
    /// // The model alone gambles the draw away; `when_drawn` keeps it.
    /// assert_eq!(agent()?.choose(&t, &mut rng::seeded(1))?, 2);
    /// assert_eq!(agent()?.when_drawn()?.choose(&t, &mut rng::seeded(1))?, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn when_drawn(mut self) -> Result<Self, ParamError> {
        if self.tail.is_none() {
            return Err(ParamError::new("when", "drawn needs the model plies (the alpha-beta engine below them)"));
        }
        self.trigger = Trigger::Drawn;
        Ok(self)
    }

    /// As [`when_lost`](Self::when_lost), and also where plain alpha-beta,
    /// deepening within the node budget, has two or more root moves proven
    /// within `delta` of the best (in the evaluator's units: exact scores,
    /// or lower bounds, at least the best minus `delta`) and would not
    /// complete its next iteration: its cost, predicted from the last
    /// iteration's nodes times their growth over the one before (clamped to
    /// 1.5..10; four times for the first), exceeds what is left. Alpha-beta
    /// would spend the rest on an iteration it throws away; here it goes to
    /// the predicting search among those moves, which chooses the one that
    /// pays best against the predicted opponent. So the move gives up at
    /// most `delta` against best play by the last iteration's view. Where
    /// either condition fails the agent is `when_lost`'s, move for move.
    ///
    /// Without a node budget (comparisons at equal depth), alpha-beta
    /// searches to the agent's depth, and the predicting search chooses, at
    /// that depth, among the root moves worth at least its value minus
    /// `delta`: proven by alpha-beta's scores, or, where they leave it open,
    /// by a null-window search of the move. With fewer than two such moves,
    /// or a proven win, alpha-beta's move; a proven loss, `when_lost`'s.
    ///
    /// Errors unless the model plies are set and `delta` is finite and
    /// positive.
    ///
    /// ```
    /// use search_core::backup::predicting::PredictingAgent;
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// use search_core::{Agent, rng};
    ///
    /// let rule = || Modelled::new(OpponentModel::boltzmann(0.1).unwrap()).with_cap(10.0).unwrap();
    /// let agent = || PredictingAgent::new(rule(), LiteralEval, 2, 1)?.with_model_plies(1, 0);
    /// let t: LiteralTree = "max(min(0, 0), min(-1, 10))".parse()?;
    /// // Move 1 is worth 1 less than move 0 against best play. Within the
    /// // margin, the model's choice: this opponent often leaves us 10.
    /// assert_eq!(agent()?.when_near(1.5)?.choose(&t, &mut rng::seeded(1))?, 1);
    /// // Beyond it, alpha-beta's move.
    /// assert_eq!(agent()?.when_near(0.5)?.choose(&t, &mut rng::seeded(1))?, 0);
    /// assert!(agent()?.when_near(0.0).is_err());
    /// assert!(agent()?.when_near(f64::NAN).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn when_near(mut self, delta: f64) -> Result<Self, ParamError> {
        if self.tail.is_none() {
            return Err(ParamError::new("when", "near needs the model plies (the alpha-beta engine below them)"));
        }
        if !(delta.is_finite() && delta > 0.0) {
            return Err(ParamError::new("delta", format!("must be finite and positive, got {delta}")));
        }
        self.trigger = Trigger::Near(delta);
        Ok(self)
    }

    /// Values the opponent's nodes `(1 − κ)·E + κ·min` (see the type's
    /// docs). Errors unless `0 ≤ κ < 1`.
    ///
    /// ```
    /// use search_core::backup::predicting::PredictingAgent;
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// use search_core::{Agent, rng};
    ///
    /// let t: LiteralTree = "max(min(0, 0), min(-1, 10))".parse()?;
    /// let rule = || Modelled::new(OpponentModel::boltzmann(0.1).unwrap());
    /// // With κ = 0.9 the worst reply (−1) weighs most: back to minimax's move.
    /// let mut careful = PredictingAgent::new(rule(), LiteralEval, 2, 1)?.with_safety(0.9)?;
    /// assert_eq!(careful.choose(&t, &mut rng::seeded(1))?, 0);
    /// assert!(PredictingAgent::new(rule(), LiteralEval, 2, 1)?.with_safety(1.0).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_safety(mut self, kappa: f64) -> Result<Self, ParamError> {
        if !(0.0..1.0).contains(&kappa) {
            return Err(ParamError::new("safety", format!("must be within [0, 1), got {kappa}")));
        }
        self.safety = kappa;
        Ok(self)
    }

    /// Bounds the opponent's values by `cap` before its move distribution is
    /// taken, as the player it models bounds them: a soft cap
    /// (`cap·tanh(v/cap)`, [`ScoreCap::Soft`]) for a `boltzmann:...,softcap=C`
    /// player, which never takes a won position for a merely good one.
    /// Without it the opponent's values are clamped to the rule's cap
    /// ([`Modelled::with_cap`]). Our own values (the utilities at the
    /// horizon) keep the rule's cap either way.
    ///
    /// ```
    /// use search_core::backup::predicting::PredictingAgent;
    /// use search_core::backup::{Modelled, OpponentModel};
    /// use search_core::policy::ScoreCap;
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// use search_core::{Agent, rng};
    ///
    /// // After move 1 the opponent (depth 1) sees a win (static −1000) and a
    /// // position it judges nearly won (−12) that is in fact good for us (9).
    /// // Clamped at ±10 the two look alike to it; softly capped the win looks
    /// // better, and move 1 no longer beats move 0's sure −3.
    /// let t: LiteralTree = "max(min(-3, -3), min(max[-12](9), max[-1000](-1000)))".parse()?;
    /// let rule = || Modelled::new(OpponentModel::boltzmann(0.5).unwrap()).with_cap(10.0).unwrap();
    /// let mut hard = PredictingAgent::new(rule(), LiteralEval, 3, 1)?;
    /// assert_eq!(hard.choose(&t, &mut rng::seeded(1))?, 1);
    /// let mut soft = PredictingAgent::new(rule(), LiteralEval, 3, 1)?.with_opponent_cap(ScoreCap::soft(10.0)?);
    /// assert_eq!(soft.choose(&t, &mut rng::seeded(1))?, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_opponent_cap(mut self, cap: ScoreCap) -> Self {
        self.opp_cap = Some(cap);
        self
    }

    /// Turns the pruning off (`false`: every node searched, the reference
    /// the pruned search is tested against) or on (the default).
    #[must_use]
    pub fn with_pruning(mut self, on: bool) -> Self {
        self.prune = on;
        self
    }

    /// Replaces the opponent model (e.g. a new θ estimate); the cap stays.
    pub fn set_model(&mut self, model: crate::backup::OpponentModel) {
        self.rule.set_model(model);
    }

    /// Sets the name used in reports.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Our value (a utility) of `state` at `at`. Fail-soft within
    /// `(alpha, beta)`: a result `≤ alpha` is an upper bound, one `≥ beta` a
    /// lower bound, anything between exact.
    fn value(&mut self, state: &G, at: At, alpha: f64, beta: f64) -> Result<f64, Halt> {
        let At { left, ply, seen, me } = at;
        self.nodes += 1;
        if let Some(budget) = self.budget
            && self.nodes > budget
            && self.deepening
        {
            return Err(Halt::Budget);
        }
        let p = ply as usize;
        if self.moves.len() <= p {
            self.moves.resize_with(p + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        let status = state.generate(&mut moves);
        let result = match status {
            Status::Over(outcome) => Ok(self.rule.utility(self.eval.terminal_value(outcome, me, ply))),
            Status::Ongoing if left == 0 => Ok(self.rule.utility(self.eval.evaluate_for(state, me))),
            Status::Ongoing => match state.turn().player() {
                None => Err(GameError::ChanceNode.into()),
                Some(mover) if mover == me && self.tail.as_ref().is_some_and(|t| seen >= t.plies) => {
                    self.nodes -= 1; // the engine counts this node
                    self.engine_value(state, left, ply, alpha, beta)
                }
                Some(mover) if mover == me => {
                    let mut best = f64::NEG_INFINITY;
                    let mut a = alpha;
                    for &mv in &moves {
                        let mut child = state.clone();
                        child.play(mv);
                        best = best.max(self.value(&child, at.child(false), a, beta)?);
                        if best >= beta {
                            break;
                        }
                        a = a.max(best);
                    }
                    Ok(best)
                }
                Some(_) => self.expectation(state, at, alpha, beta),
            },
        };
        self.moves[p] = moves;
        result
    }

    /// The engine's minimax value of `state` (our move, `ply` plies below
    /// the root), `left` plies deep, as a utility, fail-soft within
    /// `(alpha, beta)` (utilities, mapped back to values for the engine's
    /// window).
    fn engine_value(&mut self, state: &G, left: u32, ply: u32, alpha: f64, beta: f64) -> Result<f64, Halt> {
        let remaining = match self.budget {
            Some(b) if self.deepening => Some(b.saturating_sub(self.nodes).max(1)),
            _ => None,
        };
        let tail = self.tail.as_mut().expect("engine_value needs a tail");
        let mut limits = Limits::depth(left);
        if let Some(n) = remaining {
            limits = limits.with_nodes(n);
        }
        // The engine scores a win by its distance from *its* root, `ply`
        // plies below ours.
        let shift = |v: f64, by: f64| if v.abs() > DECISIVE { v + v.signum() * by } else { v };
        let lo = shift(self.rule.value_of_utility(alpha), f64::from(ply));
        let hi = shift(self.rule.value_of_utility(beta), f64::from(ply));
        // Widened by a margin: the window only has to contain the one the
        // caller needs.
        let window = Window::new(lo - margin(lo), hi + margin(hi));
        let r = tail.engine.run_with_window(state, &limits, window)?;
        self.nodes += r.stats.nodes;
        if r.incomplete == Some(Incomplete::Stopped) {
            return Err(Halt::Budget);
        }
        let v = r.value.ok_or(Halt::Budget)?;
        Ok(self.rule.utility(shift(v, -f64::from(ply))))
    }

    /// The opponent's node: its move distribution from its own values, our
    /// values of its moves under it, blended with the worst of them
    /// (`(1 − κ)·E + κ·min`). With bounded utilities (`[−B, B]`) the node is
    /// cut as soon as even the most favourable (least favourable) values of
    /// the replies not yet searched cannot lift it above `alpha` (hold it
    /// below `beta`): Ballard's Star1, sound here because the weights come
    /// from the opponent's search, not from our values, and extended to the
    /// `min` term (a bound on the minimum so far, or `−B` while replies are
    /// left).
    fn expectation(&mut self, state: &G, at: At, alpha: f64, beta: f64) -> Result<f64, Halt> {
        let order = self.prediction(state, at.ply)?;
        let bound = if self.prune { self.bound } else { f64::INFINITY };
        let (kappa, w) = (self.safety, 1.0 - self.safety);
        let count = order.len();
        let mut rest: f64 = order.iter().map(|o| o.1).sum();
        let mut reference = None;
        let mut total = 0.0;
        // Σ q·v over the replies searched so far (absolute, for the windows),
        // and the lowest of their values.
        let mut known = 0.0;
        let mut lowest = f64::INFINITY;
        for (i, (mv, q)) in order.into_iter().enumerate() {
            rest -= q;
            let more = i + 1 < count;
            // The child's window: beyond it, the node's bound with the other
            // unsearched replies at their extremes passes alpha or beta.
            let (lo, hi) = if bound.is_finite() {
                star1_window(Star1 { alpha, beta, w, kappa, known, rest: rest.max(0.0), q, lowest, more, bound })
            } else {
                (f64::NEG_INFINITY, f64::INFINITY)
            };
            let mut child = state.clone();
            child.play(mv);
            let v = self.value(&child, at.child(true), lo, hi)?;
            known += q * v;
            lowest = lowest.min(v);
            if v <= lo {
                // v bounds the child from above, and so the node's value.
                return Ok(w * (known + rest.max(0.0) * bound) + kappa * lowest);
            }
            if v >= hi {
                let worst = if more { -bound } else { lowest };
                return Ok(w * (known - rest.max(0.0) * bound) + kappa * worst);
            }
            let r = *reference.get_or_insert(v);
            total += q * (v - r);
        }
        let expected = reference.unwrap_or(0.0) + total;
        if kappa == 0.0 || !lowest.is_finite() {
            return Ok(expected);
        }
        Ok(w * expected + kappa * lowest)
    }

    /// One iteration at `depth`: every root move's value (exact, or an
    /// upper bound for a move that cannot be or tie the best) and the best.
    fn root(&mut self, state: &G, moves: &[G::Move], depth: u32, me: Player) -> Result<(Weighted<G::Move>, f64), Halt> {
        let mut scores = Vec::with_capacity(moves.len());
        let mut best = f64::NEG_INFINITY;
        for &mv in moves {
            let mut child = state.clone();
            child.play(mv);
            self.root_move = Some(mv);
            // A move that fails low (an upper bound below `best`) cannot
            // be or tie the best; the others come back exact.
            let alpha = if self.prune { best - margin(best) } else { f64::NEG_INFINITY };
            let v = self.value(&child, At { left: depth - 1, ply: 1, seen: 0, me }, alpha, f64::INFINITY)?;
            best = best.max(v);
            scores.push((mv, v));
        }
        Ok((scores, best))
    }

    /// Plain alpha-beta with the tail engine, stopped at the first
    /// iteration that proves the game lost (or, [`Trigger::Drawn`], solves
    /// it without a win); the search and what it proved.
    fn plain(&mut self, state: &G) -> Result<(SearchResult<G::Move>, Proof), GameError> {
        let mut limits = Limits::full_tree().with_depth(self.depth);
        if let Some(n) = self.budget {
            limits = limits.with_nodes(n);
        }
        let tail = self.tail.as_mut().expect("a trigger needs a tail");
        let economy = match self.trigger {
            Trigger::Near(delta) => self.budget.map(|b| (b, delta)),
            _ => None,
        };
        let mut watch =
            Prover { drawn: self.trigger == Trigger::Drawn, proof: Proof::Nothing, economy, after: 0, previous: 0 };
        let r = tail.engine.run_observed(state, &limits, &mut watch)?;
        Ok((r, watch.proof))
    }

    /// The root moves worth at least `v` by the plain search `r` (with
    /// `solve`, its solved value): those its scores prove at least `v`, and
    /// those its bounds leave open and [`holds`](Self::holds) proves.
    fn keeping(
        &mut self,
        state: &G,
        r: &SearchResult<G::Move>,
        v: f64,
        solve: bool,
    ) -> Result<Vec<G::Move>, GameError> {
        let m = margin(v);
        let mut kept = Vec::new();
        for rm in &r.root_moves {
            let at_least = rm.score >= v - m;
            let keep = match rm.bound {
                Bound::Exact => at_least,
                Bound::Upper if !at_least => false,
                Bound::Lower if at_least => true,
                _ => self.holds(state, rm.mv, v, solve)?,
            };
            if keep {
                kept.push(rm.mv);
            }
        }
        Ok(kept)
    }

    /// Whether our move `mv` keeps at least `v` against any play: a
    /// null-window search of the position after it to the agent's depth
    /// less one; with `solve`, only if that search solves it (no horizon;
    /// it runs out of depth or budget first: no).
    fn holds(&mut self, state: &G, mv: G::Move, v: f64, solve: bool) -> Result<bool, GameError> {
        let me = state.turn().player().ok_or(GameError::ChanceNode)?;
        let mut child = state.clone();
        child.play(mv);
        let m = margin(v);
        if let Status::Over(outcome) = child.status() {
            return Ok(self.eval.terminal_value(outcome, me, 1) >= v - m);
        }
        let mut limits = Limits::full_tree().with_depth(self.depth.saturating_sub(1).max(1));
        if let Some(b) = self.budget {
            limits = limits.with_nodes(b.saturating_sub(self.nodes).max(1));
        }
        let tail = self.tail.as_mut().expect("a trigger needs a tail");
        let mut watch = LastSolved(false);
        // The opponent's value after our move is at most −v exactly when
        // ours is at least v (fail-soft: below the window's top).
        let r = tail.engine.run_full(&child, &limits, Window::new(-v - m, -v + m), &mut watch)?;
        self.nodes += r.stats.nodes;
        Ok((watch.0 || !solve) && r.incomplete.is_none() && r.value.is_some_and(|x| x < -v + m))
    }

    /// The opponent's replies at `state` with their predicted
    /// probabilities, most likely first. Those below the root's moves
    /// (`ply` 1) are kept for the other iterations of the same move.
    fn prediction(&mut self, state: &G, ply: u32) -> Result<Weighted<G::Move>, GameError> {
        let root_move = if ply == 1 { self.root_move } else { None };
        if let Some(mv) = root_move
            && let Some((_, order)) = self.root_predictions.iter().find(|p| p.0 == mv)
        {
            return Ok(order.clone());
        }
        let r = self.opponent.run(state, &self.opp_limits)?;
        self.nodes += r.stats.nodes;
        self.values.clear();
        let cap = self.opp_cap;
        self.values.extend(r.root_moves.iter().map(|m| cap.map_or(m.score, |c| c.apply(m.score))));
        self.rule.model().probabilities(&self.values, None, &mut self.probs);
        // Most likely replies first; the sum is taken relative to the first
        // one's value, so that equal values give exactly that value.
        let mut order: Vec<(G::Move, f64)> =
            r.root_moves.iter().zip(&self.probs).filter(|(_, q)| **q > 0.0).map(|(m, q)| (m.mv, *q)).collect();
        order.sort_by(|a, b| b.1.total_cmp(&a.1));
        if let Some(mv) = root_move {
            self.root_predictions.push((mv, order.clone()));
        }
        Ok(order)
    }
}

/// Values beyond this are wins or losses scored by their distance (see
/// [`MAX_PLY`]).
const DECISIVE: f64 = WIN_SCORE - MAX_PLY as f64;

/// Where the predicting search is consulted.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Trigger {
    /// At every move.
    Always,
    /// Where plain alpha-beta proves the game lost.
    Lost,
    /// Where plain alpha-beta proves it lost or solves it without a win.
    Drawn,
    /// As `Lost`, and where plain alpha-beta's next iteration would not
    /// complete within the budget: the model chooses among the root moves
    /// within this margin of the best.
    Near(f64),
}

/// What plain alpha-beta proved about the root.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Proof {
    /// Nothing the trigger acts on.
    Nothing,
    /// Every move loses against best play.
    Lost,
    /// Solved: the game's value is this, short of a win.
    Held(f64),
    /// Stopped after an iteration with this value, the next one not
    /// expected to complete within the budget, two or more root moves
    /// proven near the best.
    Near(f64),
}

/// Stops iterative deepening at the first iteration whose value is a
/// proven loss for the root mover (or, `drawn`, that solves the root with
/// a value short of a win), and remembers what it proved.
struct Prover {
    drawn: bool,
    proof: Proof,
    /// The node budget, when iterative deepening stops early at an
    /// iteration the budget cannot complete (`Trigger::Near`).
    economy: Option<(u64, f64)>,
    /// Nodes after the previous iteration, and that iteration's own.
    after: u64,
    previous: u64,
}

impl<G: Game> Observer<G> for Prover {
    fn iteration(&mut self, it: &Iteration<'_, G::Move>) -> Control {
        if it.value < -DECISIVE {
            self.proof = Proof::Lost;
            return Control::Stop;
        }
        if self.drawn && it.solved && it.value <= DECISIVE {
            self.proof = Proof::Held(it.value);
            return Control::Stop;
        }
        if let Some((budget, delta)) = self.economy {
            let used = it.stats.nodes;
            let this = used.saturating_sub(self.after);
            // The next iteration's cost, by this one's growth (the first:
            // four times).
            let growth = if self.previous > 0 { (this as f64 / self.previous as f64).clamp(1.5, 10.0) } else { 4.0 };
            let near = near_best(it.root_moves, it.value, delta).count();
            if near >= 2
                && !it.solved
                && it.value.abs() <= DECISIVE
                && used as f64 + this as f64 * growth > budget as f64
            {
                self.proof = Proof::Near(it.value);
                return Control::Stop;
            }
            self.after = used;
            self.previous = this;
        }
        Control::Continue
    }
}

/// The root moves whose scores prove them worth at least `best − delta`
/// (exact scores, and lower bounds, at or above it).
fn near_best<M: Copy>(root_moves: &[RootMove<M>], best: f64, delta: f64) -> impl Iterator<Item = M> + '_ {
    let floor = best - delta - margin(best);
    root_moves.iter().filter(move |m| m.bound != Bound::Upper && m.score >= floor).map(|m| m.mv)
}

/// Records whether the last iteration solved the root (never stops it).
struct LastSolved(bool);

impl<G: Game> Observer<G> for LastSolved {
    fn iteration(&mut self, it: &Iteration<'_, G::Move>) -> Control {
        self.0 = it.solved;
        Control::Continue
    }
}

/// What the window of an opponent's reply depends on: the parent's window,
/// the blend (`w = 1 − κ`), the replies searched so far (`known = Σ q·v`,
/// their `lowest` value), the probability `rest` of the replies after this
/// one and whether there are any (`more`), this reply's probability `q`,
/// and the utility bound `B`.
struct Star1 {
    alpha: f64,
    beta: f64,
    w: f64,
    kappa: f64,
    known: f64,
    rest: f64,
    q: f64,
    lowest: f64,
    more: bool,
    bound: f64,
}

/// The reply's window `(lo, hi)`: a value `≤ lo` puts the node's upper
/// bound `w·(known + q·v + rest·B) + κ·min(lowest, v)` at or below `alpha`,
/// a value `≥ hi` its lower bound `w·(known + q·v − rest·B) + κ·m` (`m =
/// −B` while replies are left, else `min(lowest, v)`) at or above `beta`.
/// Both bounds increase with `v`, so each edge is where the bound crosses.
fn star1_window(s: Star1) -> (f64, f64) {
    let Star1 { alpha, beta, w, kappa, known, rest, q, lowest, more, bound } = s;
    let wq = w * q;
    // `f(v) = w·q·v + κ·min(lowest, v) + c` crosses `target` at:
    let crossing = |target: f64, c: f64| -> f64 {
        // Where the min is v itself (v ≤ lowest)...
        let below = (target - c) / (wq + kappa);
        if below <= lowest || kappa == 0.0 {
            return below;
        }
        // ...else the min is `lowest`.
        if wq > 0.0 { (target - c - kappa * lowest) / wq } else { f64::INFINITY }
    };
    let a = alpha - margin(alpha);
    let b = beta + margin(beta);
    let lo = crossing(a, w * (known + rest * bound));
    let hi = if more {
        if wq > 0.0 { (b - w * (known - rest * bound) + kappa * bound) / wq } else { f64::INFINITY }
    } else {
        crossing(b, w * known)
    };
    (lo, hi)
}

/// The slack a cut needs beyond a window's edge (relative 1e−9, far above
/// rounding), so that pruned and full-width searches agree exactly.
fn margin(x: f64) -> f64 {
    if x.is_finite() { 1e-9 * x.abs().max(1.0) } else { 0.0 }
}

impl<G: Game, E: Evaluator<G> + Clone> Agent<G> for PredictingAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<G::Move, GameError> {
        self.choose_explained(state, rng).map(|c| c.mv)
    }

    fn choose_explained(&mut self, state: &G, rng: &mut dyn RngCore) -> Result<Choice<G::Move>, GameError> {
        let started = std::time::Instant::now();
        let me = state.turn().player().ok_or(GameError::ChanceNode)?;
        let mut moves = Vec::new();
        if let Status::Over(_) = state.generate(&mut moves) {
            return Err(GameError::GameOver);
        }
        self.nodes = 0;
        self.root_predictions.clear();
        // Alpha-beta's scores of the root moves in a lost game.
        let mut delays: Option<Weighted<G::Move>> = None;
        if self.trigger != Trigger::Always {
            let (mut r, proof) = self.plain(state)?;
            self.nodes = r.stats.nodes;
            match proof {
                Proof::Lost => delays = Some(r.root_moves.iter().map(|m| (m.mv, m.score)).collect()),
                Proof::Nothing | Proof::Held(_) => {
                    // The moves the model chooses among: those that keep a
                    // solved value, or, without a budget, `when_near`'s
                    // near the full-depth search's value.
                    let kept = match (proof, self.trigger, self.budget, r.value) {
                        (Proof::Held(v), ..) => self.keeping(state, &r, v, true)?,
                        (_, Trigger::Near(delta), None, Some(v)) if v.abs() <= DECISIVE => {
                            self.keeping(state, &r, v - delta, false)?
                        }
                        _ => Vec::new(),
                    };
                    if kept.len() < 2 {
                        // Nothing to choose: alpha-beta's move (its best
                        // move keeps the value), the checks counted.
                        r.stats.nodes = self.nodes;
                        return crate::search::choice_of(r, true, rng);
                    }
                    moves = kept;
                }
                Proof::Near(v) => {
                    let Trigger::Near(delta) = self.trigger else { unreachable!("only when_near stops there") };
                    // Two or more, or the Prover would not have stopped.
                    moves = near_best(&r.root_moves, v, delta).collect();
                }
            }
        }
        let first = if self.budget.is_some() { 1 } else { self.depth };
        let mut done = None;
        for depth in first..=self.depth {
            self.deepening = depth > first;
            self.nodes += 1;
            match self.root(state, &moves, depth, me) {
                Ok((scores, best)) => {
                    // Best first in the next iteration: earlier cuts.
                    let mut order: Vec<(G::Move, f64)> = scores.clone();
                    order.sort_by(|x, y| y.1.total_cmp(&x.1));
                    moves = order.into_iter().map(|o| o.0).collect();
                    done = Some((scores, best, depth));
                }
                Err(Halt::Budget) => break,
                Err(Halt::Game(e)) => return Err(e),
            }
            if self.budget.is_some_and(|b| self.nodes >= b) {
                break;
            }
        }
        self.deepening = false;
        let (scores, best, depth) = done.expect("the first iteration has no budget");
        let mut best_moves: Vec<G::Move> = scores.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
        if let Some(delays) = delays {
            // Where the model cannot tell moves apart (every reply keeps
            // the win), the longest loss by alpha-beta's count: the more
            // moves the opponent must find, the likelier it slips.
            let delay = |m: &G::Move| delays.iter().find(|d| d.0 == *m).map_or(f64::NEG_INFINITY, |d| d.1);
            let longest = best_moves.iter().map(delay).fold(f64::NEG_INFINITY, f64::max);
            best_moves.retain(|m| delay(m) == longest);
        }
        let k = best_moves.len();
        let mv = best_moves[if k > 1 { rand::Rng::random_range(rng, 0..k) } else { 0 }];
        let share = 1.0 / k as f64;
        let stats = Stats {
            nodes: self.nodes,
            depth,
            micros: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
            ..Stats::default()
        };
        let thought = Thought {
            distribution: best_moves.iter().map(|&m| (m, share)).collect(),
            scores,
            value: Some(best),
            pv: vec![mv],
            stats,
        };
        Ok(Choice { mv, thought: Some(thought) })
    }
}
