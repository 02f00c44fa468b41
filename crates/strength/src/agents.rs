//! Agents built from [specs](crate::spec): the kinds every game with an
//! evaluator has ([`StandardAgents`]), and a [`Roster`] that chains
//! factories so that a game crate can add its own kinds (a solver, an
//! external engine).
//!
//! | spec | agent |
//! | --- | --- |
//! | `random` | a uniformly random legal move |
//! | `alphabeta:depth=D[,nodes=N][,ms=M][,threads=T]` | the best move of the full alpha-beta engine (minimax values), ties at random; `threads=T`: Lazy SMP on `T` threads (default 1) |
//! | `boltzmann:depth=D,theta=T[,cap=C\|softcap=C]` | `p ∝ exp(T·v)` over the exact depth-`D` minimax values `v` of the moves (alpha-beta with exact root scores), each clamped to `±C` (`cap`) or squashed smoothly into it (`softcap`, [`ScoreCap::Soft`](search_core::policy::ScoreCap)) |
//! | `rminimax:depth=D,theta=T` | the Rminimax player (full width, unit interior costs, a leaf of value `v` costs `WIN_SCORE − v`) |
//! | `epsilon:depth=D,eps=E` | ε-greedy as the Rminimax paper defines it (the optimal moves share ε; costs as `rminimax`) |
//! | `iom:depth=D` | the best move of IOM (PIOM's alpha-beta where it applies) |
//! | `elo:X` | the [strength dial](crate::dial) at rating `X` (needs a calibration) |
//! | `mcts:iters=N\|ms=M[,c=C][,backup=mean\|max][,min_visits=K][,playouts=random\|eval][,scale=S][,final=visits\|value][,threads=T]` | UCT ([`Mcts`] with the [`Mean`] or [`MaxBackup`] backup), `N` simulations a move, tree kept between moves |
//! | `ments:iters=N\|ms=M,tau=T[,eps=E][,playouts=random\|eval][,scale=S][,final=value\|visits\|sample][,threads=T]` | maximum-entropy tree search ([`Soft`] backup with temperature `T`, Boltzmann selection with exploration `E`, default 1) |
//!
//! `min_visits=K` (with `backup=max`): only children with at least `K`
//! visits count in the max ([`MaxBackup::with_min_visits`]; default 1, the
//! pure max, which random playouts make noisy). MCTS agents seed each move's search from the match's RNG. `c` defaults
//! to 1.4, `playouts` to `random`, `scale` (the evaluator's units that map
//! to `tanh(1)` with `playouts=eval`) to 1, `threads` to 1 (root
//! parallelisation).
//!
//! `ms=M` (alpha-beta, MCTS, MENTS) limits each move's search to `M`
//! milliseconds of wall-clock time, for matches at equal time: alpha-beta
//! deepens iteratively until the time is spent (`depth` becomes optional, a
//! cap), MCTS simulates until it is spent (`iters` becomes optional, a cap).
//! The moves of a timed agent depend on the machine and its load, so a match
//! with one is not reproducible from its seed (play it with `--threads 1`
//! so that games do not compete for the cores).
//!
//! Values are in the evaluator's units, from the mover's side. The Rminimax
//! model needs every arc cost `≥ 0`, so the `rminimax` and `epsilon` agents
//! cost a leaf `WIN_SCORE − v` ([`WIN_SCORE`]), not the paper's `−v`:
//! every value an evaluator may return is at most `WIN_SCORE`, and a
//! constant added to every leaf's cost shifts every cost-to-go by the same
//! amount, so the move probabilities are those of `−v`.
//!
//! ```
//! use games_small::{TicTacToe, TicTacToeEval};
//! use search_core::{Agent, rng};
//! use strength::agents::{Roster, StandardAgents};
//!
//! let roster = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
//! let mut ai = roster.build("alphabeta:depth=9")?;
//! let mv = ai.choose(&TicTacToe::default(), &mut rng::seeded(1))?;
//! assert!(mv < 9);
//! assert!(roster.build("alphabeta:depth=9,colour=red").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use search_core::backup::rminimax::UtilityCosts;
use search_core::backup::{Iom, Minimax};
use search_core::mcts::{FinalMove, MaxBackup, Mcts, MctsAgent, MctsConfig, Mean, Playouts, Soft};
use search_core::policy::{PolicyAgent, Softmax, epsilon_greedy_agent, rminimax_agent};
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::{Agent, Evaluator, Game, RandomAgent, WIN_SCORE};

use crate::dial::Dial;
use crate::spec::{AgentSpec, SpecError, SpecReader};

mod modelled;
pub use modelled::{AdaptiveAgent, AdaptiveError, AdaptiveStep, MoveWatcher, OnlineAgent, SLIP, ThetaPosterior};

/// An agent chosen at run time. `Send`, so that games can run on worker
/// threads.
pub type BoxedAgent<G> = Box<dyn Agent<G> + Send>;

/// Builds agents of some kinds from specs.
pub trait AgentFactory<G: Game>: Send + Sync {
    /// The agent for `spec`, or `Ok(None)` if this factory does not build
    /// `spec.kind()`.
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<G>>, SpecError>;

    /// The kinds it builds: `(synopsis, description)` pairs for help texts,
    /// e.g. `("alphabeta:depth=D", "best move of alpha-beta")`.
    fn kinds(&self) -> Vec<(String, String)>;

    /// The version of how agents of `spec`'s kind play, where this factory
    /// builds that kind and its play may change between releases (an
    /// engine still being improved, whose spec alone does not fix its
    /// moves). Recorded with every saved game, so that games of another
    /// version are played again rather than mixed with this one's. `None`
    /// (the default): the spec fixes the play.
    fn play_version(&self, spec: &AgentSpec) -> Option<String> {
        let _ = spec;
        None
    }

    /// The spec that `spec` stands for, where this factory reads `spec`'s
    /// kind as a name for another agent (`elo:X` for the dial's setting at
    /// `X`): the [`Roster`] then builds that spec with all its factories,
    /// so that a setting may be of a kind another factory builds (a game's
    /// own engine at the top of its dial). `Ok(None)` (the default): `spec`
    /// stands for itself.
    fn resolve(&self, spec: &AgentSpec) -> Result<Option<AgentSpec>, SpecError> {
        let _ = spec;
        Ok(None)
    }
}

/// How many times a spec may [resolve](AgentFactory::resolve) to another
/// before the roster gives up (a factory that resolves in a circle).
const MAX_RESOLUTIONS: usize = 8;

/// Factories tried in order: the first that knows a spec's kind builds it.
pub struct Roster<G: Game> {
    factories: Vec<Box<dyn AgentFactory<G>>>,
}

impl<G: Game> std::fmt::Debug for Roster<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<String> = self.kinds().into_iter().map(|k| k.0).collect();
        f.debug_struct("Roster").field("kinds", &kinds).finish()
    }
}

impl<G: Game> Default for Roster<G> {
    fn default() -> Self {
        Roster::new()
    }
}

impl<G: Game> Roster<G> {
    /// An empty roster.
    pub fn new() -> Self {
        Roster { factories: Vec::new() }
    }

    /// Adds a factory, tried after those already added.
    #[must_use]
    pub fn with(mut self, factory: impl AgentFactory<G> + 'static) -> Self {
        self.factories.push(Box::new(factory));
        self
    }

    /// Builds the agent a spec (text) describes.
    pub fn build(&self, spec: &str) -> Result<BoxedAgent<G>, SpecError> {
        self.build_spec(&spec.parse()?)
    }

    /// Builds the agent `spec` describes; an unknown kind is an error
    /// listing the known ones.
    pub fn build_spec(&self, spec: &AgentSpec) -> Result<BoxedAgent<G>, SpecError> {
        let resolved = self.resolve(spec)?;
        for f in &self.factories {
            if let Some(agent) = f.build(&resolved)? {
                return Ok(agent);
            }
        }
        let known: Vec<String> = self.kinds().into_iter().map(|k| k.0).collect();
        let unknown = format!("unknown agent kind {:?}; known: {}", resolved.kind(), known.join(" | "));
        Err(if resolved == *spec {
            SpecError::new(spec, unknown)
        } else {
            SpecError::new(spec, format!("stands for {resolved}: {unknown}"))
        })
    }

    /// The spec `spec` stands for: `spec` itself, or what a factory
    /// [resolves](AgentFactory::resolve) it to (followed until no factory
    /// resolves it further). `elo:X` becomes the dial's setting at `X`.
    ///
    /// ```
    /// use strength::agents::{Roster, StandardAgents};
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// let roster: Roster<LiteralTree> = Roster::new().with(StandardAgents::new(LiteralEval));
    /// let spec = "alphabeta:depth=2".parse()?;
    /// assert_eq!(roster.resolve(&spec)?, spec);
    /// # Ok::<(), strength::spec::SpecError>(())
    /// ```
    pub fn resolve(&self, spec: &AgentSpec) -> Result<AgentSpec, SpecError> {
        let mut current = spec.clone();
        for _ in 0..MAX_RESOLUTIONS {
            let next = self.factories.iter().find_map(|f| f.resolve(&current).transpose()).transpose()?;
            match next {
                Some(next) => current = next,
                None => return Ok(current),
            }
        }
        Err(SpecError::new(spec, format!("resolves to another spec more than {MAX_RESOLUTIONS} times")))
    }

    /// Every kind of every factory, for help texts.
    pub fn kinds(&self) -> Vec<(String, String)> {
        self.factories.iter().flat_map(|f| f.kinds()).collect()
    }

    /// The [play version](AgentFactory::play_version) of `spec`'s agents:
    /// the first factory's that states one.
    pub fn play_version(&self, spec: &AgentSpec) -> Option<String> {
        let resolved = self.resolve(spec).unwrap_or_else(|_| spec.clone());
        self.factories.iter().find_map(|f| f.play_version(&resolved))
    }
}

/// The kinds every game with an evaluator has (see the [module
/// docs](self)), with `elo:X` when a [`Dial`] is given.
#[derive(Debug, Clone)]
pub struct StandardAgents<E> {
    eval: E,
    table_mib: usize,
    dial: Option<Dial>,
}

impl<E> StandardAgents<E> {
    /// The standard kinds searching with `eval` (16 MiB tables).
    pub fn new(eval: E) -> Self {
        StandardAgents { eval, table_mib: 16, dial: None }
    }

    /// The transposition table of each search agent, in MiB (0: none; the
    /// table is cleared between games, so small games want a small one).
    #[must_use]
    pub fn with_table_mib(mut self, mib: usize) -> Self {
        self.table_mib = mib;
        self
    }

    /// Enables `elo:X` with this dial.
    #[must_use]
    pub fn with_dial(mut self, dial: Dial) -> Self {
        self.dial = Some(dial);
        self
    }

    /// The dial's setting for an `elo:X` spec.
    fn dial_setting(&self, spec: &AgentSpec) -> Result<AgentSpec, SpecError> {
        let mut r = spec.reader();
        let elo: f64 = r.argument("rating")?;
        r.finish(&[])?;
        let dial = self.dial.as_ref().ok_or_else(|| {
            SpecError::new(
                spec,
                "no calibration of this game is loaded: elo:X needs one; make it with `tournament::calibrate` and \
                 give it to `StandardAgents::with_dial` (how: \
                 https://github.com/game-search/backup-rules/blob/main/docs/your-game.md)",
            )
        })?;
        dial.setting(elo).map_err(|e| SpecError::new(spec, e.to_string()))
    }
}

/// Reads the limits of a search agent: `depth=D` (1 to the core's
/// `MAX_PLY`) and an optional `nodes=N`; where `timed`, also an optional
/// `ms=M` (see [`move_time`]), with which `depth` may be left out (iterative
/// deepening until the time is spent).
fn limits(r: &mut SpecReader<'_>, spec: &AgentSpec, timed: bool) -> Result<Limits, SpecError> {
    let time = if timed { move_time(r, spec)? } else { None };
    let depth: Option<u32> = if time.is_some() { r.take("depth")? } else { Some(r.require("depth")?) };
    let mut limits = Limits::full_tree();
    if let Some(depth) = depth {
        limits = limits.with_depth(depth);
    }
    if let Some(time) = time {
        limits = limits.with_time(time);
    }
    if let Some(nodes) = r.take::<u64>("nodes")? {
        limits = limits.with_nodes(nodes);
    }
    limits.validate().map_err(|e| SpecError::new(spec, e.to_string()))?;
    Ok(limits)
}

/// Reads `ms=M`: a wall-clock limit of `M` milliseconds (at least 1) on
/// each move's search, for matches at equal time. A timed agent's moves
/// depend on the machine and its load, so a match with one is not
/// reproducible from its seed.
fn move_time(r: &mut SpecReader<'_>, spec: &AgentSpec) -> Result<Option<Duration>, SpecError> {
    match r.take::<u64>("ms")? {
        Some(0) => Err(SpecError::new(spec, "ms must be at least 1 (milliseconds per move)")),
        ms => Ok(ms.map(Duration::from_millis)),
    }
}

/// Reads the common settings of the MCTS kinds into `config` and returns
/// the limits: `iters=N` and `ms=M` ([`move_time`]), at least one of them.
fn mcts_settings(
    r: &mut SpecReader<'_>,
    spec: &AgentSpec,
    config: MctsConfig,
) -> Result<(Limits, MctsConfig), SpecError> {
    let time = move_time(r, spec)?;
    let iters: Option<u64> = if time.is_some() { r.take("iters")? } else { Some(r.require("iters")?) };
    let mut limits = Limits::full_tree();
    if let Some(iters) = iters {
        limits = limits.with_iterations(iters);
    }
    if let Some(time) = time {
        limits = limits.with_time(time);
    }
    limits.validate().map_err(|e| SpecError::new(spec, e.to_string()))?;
    let mut config = config;
    if let Some(p) = r.take::<String>("playouts")? {
        config = config.with_playouts(match p.as_str() {
            "random" => Playouts::Random,
            "eval" => Playouts::Eval,
            _ => return Err(SpecError::new(spec, format!("playouts must be random or eval, got {p:?}"))),
        });
    }
    if let Some(s) = r.take::<f64>("scale")? {
        config = param(spec, config.with_value_scale(s))?;
    }
    if let Some(f) = r.take::<String>("final")? {
        config = config.with_final_move(match f.as_str() {
            "visits" => FinalMove::Visits,
            "value" => FinalMove::Value,
            "sample" => FinalMove::Sample,
            _ => return Err(SpecError::new(spec, format!("final must be visits, value or sample, got {f:?}"))),
        });
    }
    if let Some(t) = r.take::<usize>("threads")? {
        config = param(spec, config.with_threads(t))?;
    }
    Ok((limits, config))
}

/// The keys every MCTS kind accepts.
const MCTS_KEYS: [&str; 6] = ["iters", "ms", "playouts", "scale", "final", "threads"];

/// The `rminimax` and `epsilon` agents' costs: unit interior arcs, a leaf
/// of value `v` costs `WIN_SCORE − v` (never negative; see the module
/// docs).
fn leaf_costs() -> UtilityCosts {
    // Both arguments are constants that `new` accepts; falling back to the
    // default (offset 0) would bring back negative costs, so this does not.
    UtilityCosts::new(1.0, WIN_SCORE).expect("interior 1 and offset WIN_SCORE are valid costs")
}

fn param<T>(spec: &AgentSpec, r: Result<T, search_core::ParamError>) -> Result<T, SpecError> {
    r.map_err(|e| SpecError::new(spec, e.to_string()))
}

/// Reads a `boltzmann` spec's distribution: `theta` (required) and at most
/// one of `cap` (a hard cap) and `softcap` (`cap·tanh(v/cap)`, see
/// [`ScoreCap`](search_core::policy::ScoreCap)). Shared by every reader of
/// `boltzmann` specs (the chess engine's strength setting too), so that a
/// spec means the same everywhere.
///
/// ```
/// use strength::agents::read_softmax;
/// use strength::spec::AgentSpec;
/// use search_core::policy::ScoreCap;
/// let spec: AgentSpec = "boltzmann:depth=2,theta=0.01,softcap=1000".parse()?;
/// let d = read_softmax(&mut spec.reader(), &spec)?;
/// assert_eq!((d.theta(), d.score_cap()), (0.01, Some(ScoreCap::Soft(1000.0))));
/// let both: AgentSpec = "boltzmann:depth=2,theta=0.01,cap=5,softcap=5".parse()?;
/// assert!(read_softmax(&mut both.reader(), &both).is_err());
/// # Ok::<(), strength::spec::SpecError>(())
/// ```
pub fn read_softmax(r: &mut SpecReader<'_>, spec: &AgentSpec) -> Result<Softmax, SpecError> {
    let theta: f64 = r.require("theta")?;
    let cap = r.take_score_cap()?;
    let dist = param(spec, Softmax::new(theta))?;
    Ok(match cap {
        Some(cap) => dist.with_score_cap(cap),
        None => dist,
    })
}

impl<G, E> AgentFactory<G> for StandardAgents<E>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    fn build(&self, spec: &AgentSpec) -> Result<Option<BoxedAgent<G>>, SpecError> {
        let mut r = spec.reader();
        let table = if G::HASHED { self.table_mib } else { 0 };
        let eval = self.eval.clone();
        let agent: BoxedAgent<G> = match spec.kind() {
            "random" => {
                r.finish(&[])?;
                Box::new(RandomAgent)
            }
            "alphabeta" => {
                let limits = limits(&mut r, spec, true)?;
                let threads: usize = r.take("threads")?.unwrap_or(1);
                r.finish(&["depth", "nodes", "ms", "threads"])?;
                let opts = Options::recommended::<G, Minimax, E>(&eval).with_table_mib(table).with_threads(threads);
                // One thread: the single-threaded search, node for node.
                let search = param(spec, Search::parallel(Minimax, eval, opts))?;
                Box::new(SearchAgent::new(search, limits).named(spec.to_string()))
            }
            "boltzmann" => {
                let limits = limits(&mut r, spec, false)?;
                let dist = read_softmax(&mut r, spec)?;
                r.finish(&["depth", "nodes", "theta", "cap", "softcap"])?;
                let opts = Options::recommended::<G, Minimax, E>(&eval)
                    .with_table_mib(table)
                    .with_aspiration(None)
                    .with_exact_root(true);
                let search = param(spec, Search::new(Minimax, eval, opts))?;
                Box::new(PolicyAgent::new(search, limits, dist))
            }
            "rminimax" => {
                let limits = limits(&mut r, spec, false)?;
                let theta: f64 = r.require("theta")?;
                r.finish(&["depth", "nodes", "theta"])?;
                Box::new(param(spec, rminimax_agent(theta, leaf_costs(), eval, limits))?)
            }
            "epsilon" => {
                let limits = limits(&mut r, spec, false)?;
                let eps: f64 = r.require("eps")?;
                r.finish(&["depth", "nodes", "eps"])?;
                Box::new(param(spec, epsilon_greedy_agent(eps, leaf_costs(), eval, limits))?)
            }
            "iom" => {
                let limits = limits(&mut r, spec, false)?;
                r.finish(&["depth", "nodes"])?;
                let opts = Options::recommended::<G, Iom, E>(&eval);
                let opts = if opts.table_mib > 0 { opts.with_table_mib(table) } else { opts };
                let search = param(spec, Search::new(Iom::new(), eval, opts))?;
                Box::new(SearchAgent::new(search, limits).named(spec.to_string()))
            }
            "mcts" => {
                let mut config = MctsConfig::default();
                if let Some(c) = r.take::<f64>("c")? {
                    config = param(spec, config.with_c(c))?;
                }
                let backup: Option<String> = r.take("backup")?;
                let min_visits: Option<u64> = r.take("min_visits")?;
                let (limits, config) = mcts_settings(&mut r, spec, config)?;
                r.finish(&[&MCTS_KEYS[..], &["c", "backup", "min_visits"]].concat())?;
                if min_visits.is_some() && backup.as_deref() != Some("max") {
                    return Err(SpecError::new(spec, "min_visits goes with backup=max"));
                }
                let name = spec.to_string();
                match backup.as_deref() {
                    None | Some("mean") => {
                        let m = param(spec, Mcts::new(Mean, eval, config))?;
                        Box::new(MctsAgent::new(m, limits).named(name))
                    }
                    Some("max") => {
                        let max = param(spec, MaxBackup::with_min_visits(min_visits.unwrap_or(1)))?;
                        let m = param(spec, Mcts::new(max, eval, config))?;
                        Box::new(MctsAgent::new(m, limits).named(name))
                    }
                    Some(b) => return Err(SpecError::new(spec, format!("backup must be mean or max, got {b:?}"))),
                }
            }
            "ments" => {
                let tau: f64 = r.require("tau")?;
                let eps: f64 = r.take("eps")?.unwrap_or(1.0);
                let config = param(spec, MctsConfig::ments(eps))?;
                let (limits, config) = mcts_settings(&mut r, spec, config)?;
                r.finish(&[&MCTS_KEYS[..], &["tau", "eps"]].concat())?;
                let m = param(spec, Mcts::new(param(spec, Soft::new(tau))?, eval, config))?;
                Box::new(MctsAgent::new(m, limits).named(spec.to_string()))
            }
            // Built here when this factory is used alone; a roster resolves
            // `elo:X` first, so that a setting of another factory's kind
            // plays too.
            "elo" => return self.build(&self.dial_setting(spec)?),
            "aware" | "online" | "adaptive" => return modelled::build(self, spec),
            _ => return Ok(None),
        };
        Ok(Some(agent))
    }

    fn resolve(&self, spec: &AgentSpec) -> Result<Option<AgentSpec>, SpecError> {
        if spec.kind() == "elo" { self.dial_setting(spec).map(Some) } else { Ok(None) }
    }

    fn kinds(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = [
            ("random", "a uniformly random legal move"),
            (
                "alphabeta:depth=D[,nodes=N,ms=M,threads=T]",
                "the best move of alpha-beta (minimax values); ms=M: M milliseconds a move (depth optional)",
            ),
            ("boltzmann:depth=D,theta=T[,cap=C]", "p ∝ exp(T·v) over the depth-D minimax values, clamped to ±C"),
            ("rminimax:depth=D,theta=T", "the Rminimax player"),
            ("epsilon:depth=D,eps=E", "ε-greedy (the optimal moves share ε)"),
            ("iom:depth=D", "the best move of IOM"),
            (
                "mcts:iters=N|ms=M[,c=C,backup=mean|max,min_visits=K,playouts=random|eval,scale=S,final=visits|value,threads=T]",
                "UCT, N simulations or M milliseconds a move",
            ),
            (
                "ments:iters=N|ms=M,tau=T[,eps=E,playouts=random|eval,scale=S,final=value|visits|sample,threads=T]",
                "maximum-entropy tree search (soft backup, temperature T)",
            ),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        v.extend(modelled::kinds(self.dial.is_some()));
        if let Some(d) = &self.dial {
            let (lo, hi) = d.range();
            v.push(("elo:X".into(), format!("the strength dial, X from {lo:.0} to {hi:.0}")));
        }
        v
    }
}
