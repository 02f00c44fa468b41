//! Every backup rule of `search-core`, named by a spec string in the agent
//! specs' grammar (`KIND[:key=value,...]`, parsed by `strength::spec`):
//!
//! | spec | rule and options |
//! | --- | --- |
//! | `alphabeta` | minimax with the full engine (alpha-beta, table, PVS, ordering); `threads=T`: Lazy SMP |
//! | `minimax`, `expectiminimax` | minimax (expectation at chance nodes), full width: every node visited |
//! | `iom[:leaf=literal\|geometric]` | IOM, searched with its sound windows (PIOM) |
//! | `emm:temperature=T` or `emm:error=E` | error minimax with a sigmoid (or constant) error model, full width |
//! | `rminimax:theta=T[,costs=outcome\|utility,win=,draw=,loss=,interior=,range=,offset=]` | Rminimax, full width |
//! | `predictive:ps=P[,weights=normalised\|unnormalised]` | predictive play, full width |
//! | `product:temperature=T` | product propagation, full width |
//! | `mn:m=M,n=N,beta=B,delta=D` | M & N with a linear bonus, full width |
//! | `modelled:theta=T` or `modelled:eps=E[,cap=C]` | the opponent-model rule (Boltzmann or ε-greedy opponent) |

use search_core::backup::rminimax::{OutcomeCosts, UtilityCosts};
use search_core::backup::{
    Backup, ConstantError, Emm, Iom, IomLeafRule, LinearBonus, MAndN, Minimax, Modelled, OpponentModel, Predictive,
    Product, PsWeights, Rminimax,
};
use search_core::search::{DynSearch, Options, Search};
use search_core::{Evaluator, Game, ParamError};
use strength::spec::{AgentSpec, SpecError, SpecReader};

/// The root's move probabilities of a rule that defines them, from the
/// root's value and its moves' scores.
pub(crate) type PolicyFn = Box<dyn Fn(f64, &[f64]) -> Result<Vec<f64>, ParamError> + Send>;

/// A search built from a rule spec.
pub(crate) struct Built<G: Game> {
    /// The search.
    pub(crate) search: Box<dyn DynSearch<G> + Send>,
    /// Rminimax's policy (eq. 10 of its paper), where the rule is Rminimax.
    pub(crate) policy: Option<PolicyFn>,
}

impl<G: Game> std::fmt::Debug for Built<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Built").field("search", &self.search.name()).finish_non_exhaustive()
    }
}

/// How the search is set up beside its rule (from the caller's keywords).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup {
    /// Table size in MiB for the rules that use one; `None`: the game's default.
    pub(crate) table_mib: usize,
    /// Threads of `alphabeta` (Lazy SMP).
    pub(crate) threads: usize,
    /// Exact scores for every root move (not only the best).
    pub(crate) exact_root: bool,
    /// The search's seed (sampled chance nodes, SMP).
    pub(crate) seed: u64,
}

/// The rule kinds, for help texts and errors.
pub(crate) const KINDS: &str =
    "alphabeta, minimax, expectiminimax, iom, emm, rminimax, predictive, product, mn, modelled";

fn param<T>(spec: &AgentSpec, r: Result<T, ParamError>) -> Result<T, SpecError> {
    r.map_err(|e| SpecError::new(spec, e.to_string()))
}

/// Builds the search a rule spec names, on `eval`.
pub(crate) fn build<G, E>(text: &str, eval: E, setup: Setup) -> Result<Built<G>, SpecError>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let spec: AgentSpec = text.parse()?;
    let mut r = spec.reader();
    let built = match spec.kind() {
        "alphabeta" => {
            r.finish(&[])?;
            let opts = options::<G, Minimax, E>(&eval, setup).with_threads(setup.threads);
            plain(param(&spec, Search::parallel(Minimax, eval, opts))?)
        }
        "minimax" | "expectiminimax" => {
            r.finish(&[])?;
            erased(&spec, Minimax, eval, full_width(setup))?
        }
        "iom" => {
            let leaf = match r.take::<String>("leaf")?.as_deref() {
                None | Some("literal") => IomLeafRule::Literal,
                Some("geometric") => IomLeafRule::Geometric,
                Some(other) => {
                    return Err(SpecError::new(&spec, format!("leaf must be literal or geometric, got {other:?}")));
                }
            };
            r.finish(&["leaf"])?;
            let opts = options::<G, Iom, E>(&eval, setup);
            erased(&spec, Iom::with_leaf_rule(leaf), eval, opts)?
        }
        "emm" => {
            let temperature: Option<f64> = r.take("temperature")?;
            let error: Option<f64> = r.take("error")?;
            r.finish(&["temperature", "error"])?;
            match (temperature, error) {
                (Some(t), None) => {
                    let rule = param(&spec, Emm::with_temperature(t))?;
                    let opts = options::<G, Emm, E>(&eval, setup);
                    erased(&spec, rule, eval, opts)?
                }
                (None, Some(e)) => {
                    let rule = Emm::new(param(&spec, ConstantError::new(e))?);
                    let opts = options::<G, Emm<ConstantError>, E>(&eval, setup);
                    erased(&spec, rule, eval, opts)?
                }
                _ => {
                    return Err(SpecError::new(
                        &spec,
                        "emm needs temperature=T (sigmoid errors) or error=E (constant)",
                    ));
                }
            }
        }
        "rminimax" => rminimax(&spec, r, eval, setup)?,
        "predictive" => {
            let ps: f64 = r.require("ps")?;
            let weights = match r.take::<String>("weights")?.as_deref() {
                None | Some("normalised") => PsWeights::Normalised,
                Some("unnormalised") => PsWeights::Unnormalised,
                Some(other) => {
                    return Err(SpecError::new(
                        &spec,
                        format!("weights must be normalised or unnormalised, got {other:?}"),
                    ));
                }
            };
            r.finish(&["ps", "weights"])?;
            let rule = param(&spec, Predictive::new(ps))?.with_weights(weights);
            let opts = options::<G, Predictive, E>(&eval, setup);
            erased(&spec, rule, eval, opts)?
        }
        "product" => {
            let t: f64 = r.require("temperature")?;
            r.finish(&["temperature"])?;
            let opts = options::<G, Product, E>(&eval, setup);
            erased(&spec, param(&spec, Product::new(t))?, eval, opts)?
        }
        "mn" => {
            let m: usize = r.require("m")?;
            let n: usize = r.require("n")?;
            let beta: f64 = r.require("beta")?;
            let delta: f64 = r.require("delta")?;
            r.finish(&["m", "n", "beta", "delta"])?;
            let rule = param(&spec, MAndN::new(m, n, param(&spec, LinearBonus::new(beta, delta))?))?;
            let opts = options::<G, MAndN, E>(&eval, setup);
            erased(&spec, rule, eval, opts)?
        }
        "modelled" => {
            let theta: Option<f64> = r.take("theta")?;
            let eps: Option<f64> = r.take("eps")?;
            let cap: Option<f64> = r.take("cap")?;
            r.finish(&["theta", "eps", "cap"])?;
            let model = match (theta, eps) {
                (Some(t), None) => param(&spec, OpponentModel::boltzmann(t))?,
                (None, Some(e)) => param(&spec, OpponentModel::epsilon_greedy(e))?,
                _ => return Err(SpecError::new(&spec, "modelled needs theta=T (Boltzmann) or eps=E (ε-greedy)")),
            };
            let mut rule = Modelled::new(model);
            if let Some(c) = cap {
                rule = param(&spec, rule.with_cap(c))?;
            }
            let opts = options::<G, Modelled, E>(&eval, setup);
            erased(&spec, rule, eval, opts)?
        }
        other => return Err(SpecError::new(&spec, format!("unknown rule {other:?}; known: {KINDS}"))),
    };
    Ok(built)
}

/// Rminimax with the paper's outcome costs (win 0, draw 1, loss 2, unit
/// arcs, horizon values scaled by `range`) or the utility costs of its
/// Tables II and III (a leaf costs `offset − value`).
fn rminimax<G, E>(spec: &AgentSpec, mut r: SpecReader<'_>, eval: E, setup: Setup) -> Result<Built<G>, SpecError>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let theta: f64 = r.require("theta")?;
    let costs: String = r.take("costs")?.unwrap_or_else(|| "outcome".into());
    let interior: f64 = r.take("interior")?.unwrap_or(1.0);
    let opts = full_width(setup).with_game_ordering(true);
    match costs.as_str() {
        "outcome" => {
            let win = r.take("win")?.unwrap_or(OutcomeCosts::WIN);
            let draw = r.take("draw")?.unwrap_or(OutcomeCosts::DRAW);
            let loss = r.take("loss")?.unwrap_or(OutcomeCosts::LOSS);
            let range: f64 = r.take("range")?.unwrap_or(1.0);
            r.finish(&["theta", "costs", "interior", "win", "draw", "loss", "range"])?;
            let c = param(spec, OutcomeCosts::new(win, draw, loss).and_then(|c| c.with_interior(interior)))?;
            let c = param(spec, c.with_horizon_range(range))?;
            let rule = param(spec, Rminimax::with_costs(theta, c))?;
            let mut built = erased(spec, rule, eval, opts)?;
            built.policy = Some(Box::new(move |v, s| rule.transition_probabilities(v, s)));
            Ok(built)
        }
        "utility" => {
            let offset: f64 = r.take("offset")?.unwrap_or(0.0);
            r.finish(&["theta", "costs", "interior", "offset"])?;
            let rule = param(spec, Rminimax::with_costs(theta, param(spec, UtilityCosts::new(interior, offset))?))?;
            let mut built = erased(spec, rule, eval, opts)?;
            built.policy = Some(Box::new(move |v, s| rule.transition_probabilities(v, s)));
            Ok(built)
        }
        other => Err(SpecError::new(spec, format!("costs must be outcome or utility, got {other:?}"))),
    }
}

/// The most the rule allows (see `Options::recommended`), with the caller's
/// table size where the rule uses a table.
fn options<G: Game, R: Backup, E: Evaluator<G>>(eval: &E, setup: Setup) -> Options {
    let opts = Options::recommended::<G, R, E>(eval).with_seed(setup.seed);
    // A full-width search's root scores are exact already.
    let exact_root = setup.exact_root && opts.alpha_beta;
    let opts = opts.with_exact_root(exact_root);
    if opts.table_mib > 0 { opts.with_table_mib(setup.table_mib) } else { opts }
}

fn full_width(setup: Setup) -> Options {
    Options::full_width().with_seed(setup.seed)
}

fn erased<G, R, E>(spec: &AgentSpec, rule: R, eval: E, opts: Options) -> Result<Built<G>, SpecError>
where
    G: Game + Send + 'static,
    R: Backup + Send + 'static,
    E: Evaluator<G> + Send + 'static,
    Search<G, R, E>: Send,
{
    Ok(plain(param(spec, Search::new(rule, eval, opts))?))
}

fn plain<G: Game, S: DynSearch<G> + Send + 'static>(search: S) -> Built<G> {
    Built { search: Box::new(search), policy: None }
}
