//! The thinking part of the engine, independent of the protocol: a backup
//! rule chosen at run time and held as a [`DynSearch`], one run of the
//! search core's own iterative deepening per `go`, watched by an
//! [`Observer`] that reports every completed iteration and stops deepening
//! when the clock, a mate or a forced move says so; scores in UCI terms;
//! Rminimax sampling; and, under `UCI_LimitStrength`, the strength dial's
//! setting played instead (see [`limit`](super::limit)).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use search_core::backup::rminimax::OutcomeCosts;
use search_core::backup::{Backup, Emm, Iom, LinearBonus, MAndN, Minimax, Predictive, Product, Rminimax};
use search_core::policy::MoveDistribution;
use search_core::search::Bound;
use search_core::search::{Control, DynSearch, Limits, Observer, Options, Oracle, Search, SearchResult, TtDepth};
use search_core::{Game, MAX_PLY, ParamError, RngExt, Status, WIN_SCORE, rng};
use shakmaty::{Move, Position};
use strength::spec::AgentSpec;

use super::limit::{StrengthSearch, StrengthSetting, build_search, move_seed, setting_at};
use super::output::{Iteration, Score, clamp_cp, mate_or_cp};
use super::plan::Plan;
use super::settings::{BackupKind, Settings};
use crate::polyglot::Book;
use crate::tablebase::Tablebases;
use crate::{ChessEval, ChessGame, EngineEval};

pub use crate::kibitz::MAX_DEPTH;

/// Centipawns that count as a certain win for the rules that need a scale:
/// Rminimax's horizon costs map `+CP_RANGE` to a win, `−CP_RANGE` to a loss.
pub const CP_RANGE: f64 = 1000.0;

/// Predicted opponent strength of the `predictive` rule.
pub const PREDICTIVE_PS: f64 = 0.75;
/// Temperature (centipawns per unit of log-odds) of `product` and `emm`.
pub const PROBABILITY_TEMPERATURE: f64 = 100.0;
/// `mn`: M and N, and the linear bonus's β (centipawns) and δ (centipawns).
pub const MN_PARAMS: (usize, usize, f64, f64) = (2, 2, 10.0, 50.0);

/// What a search decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The move to play (`None` if the game is over at the root).
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The last completed iteration (or the game's end at the root).
    pub last: Iteration,
    /// Messages for `info string` lines (depth caps, fallbacks).
    pub notes: Vec<String>,
}

/// A search on chess with its rule erased, so that the engine can switch
/// rules at run time and hand the search to its thread.
pub(super) type ChessSearch = Box<dyn DynSearch<ChessGame> + Send>;

/// `rule` searched with [`ChessEval`] and `options`, erased.
fn erased<R: Backup + Send + 'static>(rule: R, options: Options) -> Result<ChessSearch, ParamError> {
    Ok(Box::new(Search::<ChessGame, R, ChessEval>::new(rule, ChessEval, options)?))
}

/// The engine's thinking state: one search per backup rule (each with its
/// transposition table, if the rule has one, and its move-ordering history,
/// kept between moves), the settings, and the generator Rminimax samples
/// with.
///
/// A rule's search is built the first time the rule is chosen and kept
/// afterwards, so that options never rebuild a table they do not concern:
///
/// * `Hash` ([`set_hash_mib`](Brain::set_hash_mib)) is the only change that
///   allocates a table: the current rule's table is resized; the kept
///   searches of other rules with a table are dropped (their tables have the
///   old size) and built again at the new size when their rule is chosen;
/// * `Backup` ([`set_backup`](Brain::set_backup)) switches to the rule's
///   kept search, building it only the first time (which allocates a table
///   only for the rules that have one: `alphabeta` and `iom`, so at most
///   two tables of `Hash` MiB exist at once);
/// * `Theta` ([`set_theta`](Brain::set_theta)) rebuilds only Rminimax's
///   search, which has no table; `Seed` ([`set_seed`](Brain::set_seed))
///   only re-seeds the sampling generator (chess has no chance nodes, so the
///   searches themselves use no randomness);
/// * the tables are emptied only by [`clear_hash`](Brain::clear_hash) and
///   [`new_game`](Brain::new_game) (`Clear Hash`, `ucinewgame`).
///
/// Under `UCI_LimitStrength` ([`set_limit_strength`](Brain::set_limit_strength)),
/// [`think`](Brain::think) plays the strength dial's setting for `UCI_Elo`
/// with searches of its own: the `strength` crate's alpha-beta search, and
/// the same with exact root scores for the Boltzmann settings, each built
/// the first time it is needed with a table of
/// [`STRENGTH_TABLE_MIB`](super::STRENGTH_TABLE_MIB) (the calibration's;
/// `Hash` does not change it), and emptied before every search, so that
/// each `go` searches as the freshly built agent would.
pub struct Brain {
    settings: Settings,
    /// The search of each rule, indexed by [`BackupKind::index`]; the
    /// current rule's is always built.
    searches: [Option<ChessSearch>; BackupKind::ALL.len()],
    /// The searches of the strength settings: `alphabeta` (0),
    /// `boltzmann` (1, exact root scores) and `kibitz` (2, the engine's).
    strength: [Option<StrengthSearch>; 3],
    /// Rminimax's rule for the current θ (for sampling).
    rminimax: Rminimax,
    rng: rng::Rng,
    /// The endgame tables the searches probe (`TablebasePath`).
    tablebases: Option<Arc<Tablebases>>,
    /// The opening book (`BookFile`), used when `own_book` is on (`OwnBook`).
    book: Option<Arc<Book>>,
    own_book: bool,
    /// The generator book moves are drawn with: seeded from `Seed`
    /// ([`BOOK_STREAM`]), re-seeded by `ucinewgame`.
    book_rng: rng::Rng,
    /// The human-like player of `HumanElo`, built the first time it plays.
    human: Option<crate::human::HumanAgent>,
}

/// The stream of the `Seed` that book moves are drawn from.
pub(super) const BOOK_STREAM: u64 = 0xB00C;

impl fmt::Debug for Brain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Brain").field("settings", &self.settings).field("built", &self.built()).finish_non_exhaustive()
    }
}

/// Rminimax with the engine's costs and θ.
fn rminimax_rule(theta: f64) -> Result<Rminimax, ParamError> {
    let costs = OutcomeCosts::default().with_interior(0.0)?.with_horizon_range(CP_RANGE)?;
    Rminimax::with_costs(theta, costs)
}

/// The search of `backup` with the settings' table size and θ.
fn build(backup: BackupKind, settings: &Settings) -> Result<ChessSearch, ParamError> {
    let engine = Options::default()
        .with_iterative_deepening(true)
        .with_table_mib(settings.hash_mib)
        .with_tt_depth(TtDepth::AtLeast);
    // The alpha-beta engine adds the selective features (`kibitz:nodes=N`
    // plays the same search).
    let ab = crate::kibitz::engine_options(settings.hash_mib);
    let full_width = Options::full_width().with_iterative_deepening(true);
    let (m, n, beta, delta) = MN_PARAMS;
    match backup {
        // Lazy SMP when Threads > 1 (one thread: the single-threaded search).
        // The full-strength engine's evaluator is `EngineEval` (issue 52,
        // docs/benchmarks.md); the other rules and the strength dial keep
        // `ChessEval`.
        BackupKind::AlphaBeta => {
            Ok(Box::new(Search::<ChessGame, _, _>::parallel(Minimax, EngineEval, ab.with_threads(settings.threads))?))
        }
        BackupKind::Minimax => erased(Minimax, full_width),
        // PIOM: windows are sound for IOM, but it is not plain negamax, so
        // the table needs exact depths and there is no quiescence.
        BackupKind::Iom => erased(Iom::new(), engine.with_tt_depth(TtDepth::Exact).with_quiescence(false)),
        BackupKind::Emm => erased(Emm::with_temperature(PROBABILITY_TEMPERATURE)?, full_width),
        BackupKind::Rminimax => erased(rminimax_rule(settings.theta)?, full_width),
        BackupKind::Predictive => erased(Predictive::new(PREDICTIVE_PS)?, full_width),
        BackupKind::Product => erased(Product::new(PROBABILITY_TEMPERATURE)?, full_width),
        BackupKind::MAndN => erased(MAndN::new(m, n, LinearBonus::new(beta, delta)?)?, full_width),
    }
}

/// Makes `search` probe `tables` (or none). Rules whose values are not
/// game values refuse an oracle: they search without.
fn attach(search: &mut ChessSearch, tables: Option<&Arc<Tablebases>>) {
    let oracle = tables.map(|t| Arc::clone(t) as Arc<dyn Oracle<ChessGame>>);
    if search.set_oracle(oracle).is_err() {
        // Not a rule with game values: nothing to attach (or detach).
    }
}

/// Whether `search` has a transposition table.
fn has_table(search: &ChessSearch) -> bool {
    search.options().table_mib > 0
}

impl Brain {
    /// A brain for `settings` (only the current rule's search is built).
    ///
    /// Errors: an invalid θ (NaN or `≤ 0`) or another rule parameter; a
    /// transposition table that cannot be allocated.
    pub fn new(settings: Settings) -> Result<Brain, ParamError> {
        let rminimax = rminimax_rule(settings.theta)?;
        let mut searches: [Option<ChessSearch>; BackupKind::ALL.len()] = Default::default();
        searches[settings.backup.index()] = Some(build(settings.backup, &settings)?);
        Ok(Brain {
            settings,
            searches,
            strength: Default::default(),
            rminimax,
            rng: rng::seeded(settings.seed),
            tablebases: None,
            book: None,
            own_book: false,
            book_rng: rng::seeded(rng::derive_seed(settings.seed, BOOK_STREAM)),
            human: None,
        })
    }

    /// The current settings (and the table size the tables have).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The rules whose search is built and kept, in [`BackupKind::ALL`]
    /// order (the current rule's always is).
    pub fn built(&self) -> Vec<BackupKind> {
        BackupKind::ALL.into_iter().filter(|k| self.searches[k.index()].is_some()).collect()
    }

    /// Forgets every table and move history and re-seeds the sampling
    /// generator (a new game).
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.rng = rng::seeded(self.settings.seed);
        self.book_rng = rng::seeded(rng::derive_seed(self.settings.seed, BOOK_STREAM));
    }

    /// Makes every search probe `tables` (or, with `None`, none): the
    /// searches of rules with game values (`alphabeta`, `minimax`) consult
    /// them before expanding a node; the other rules' values are not game
    /// values, so they search without (see
    /// [`Oracle`](search_core::search::Oracle)). Returns the rules that
    /// probe them.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) -> Vec<BackupKind> {
        self.tablebases = tables;
        for search in self.searches.iter_mut().flatten() {
            attach(search, self.tablebases.as_ref());
        }
        BackupKind::ALL
            .into_iter()
            .filter(|k| matches!(k, BackupKind::AlphaBeta | BackupKind::Minimax) && self.tablebases.is_some())
            .collect()
    }

    /// The tables the searches probe, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Sets the opening book (`BookFile`; `None`: no book).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// Plays from the book when it has the position (`OwnBook`).
    pub fn set_own_book(&mut self, on: bool) {
        self.own_book = on;
    }

    /// A book move for `root` drawn by weight, and its note, when the book
    /// is on and has the position.
    fn book_move(&mut self, root: &ChessGame) -> Option<(Move, String)> {
        let book = self.book.as_ref().filter(|_| self.own_book)?;
        let (mv, weight, total) = book.choose(root.position(), &mut self.book_rng)?;
        let note = format!("book move {} (weight {weight} of {total})", super::output::uci_move(mv));
        Some((mv, note))
    }

    /// Forgets every table and move history only.
    pub fn clear_hash(&mut self) {
        for search in self.searches.iter_mut().flatten() {
            search.clear();
        }
        for search in self.strength.iter_mut().flatten() {
            search.clear();
        }
    }

    /// Gives the tables `mib` MiB: the current rule's table is replaced by
    /// an empty one of that size, keeping the rest of its search (move
    /// history) and the sampling generator; the kept searches of the other
    /// rules with a table are dropped, to be built at the new size when
    /// chosen again. A rule without a table only records the size.
    ///
    /// Errors: the table cannot be allocated; the current one is kept (and
    /// the setting too).
    pub fn set_hash_mib(&mut self, mib: usize) -> Result<(), ParamError> {
        let current = self.settings.backup.index();
        for (i, slot) in self.searches.iter_mut().enumerate() {
            if i != current && slot.as_ref().is_some_and(has_table) {
                *slot = None;
            }
        }
        if let Some(search) = self.searches[current].as_mut().filter(|s| has_table(s)) {
            search.set_table_mib(mib)?;
        }
        self.settings.hash_mib = mib;
        Ok(())
    }

    /// Switches to the rule `backup`, with its kept search (table, move
    /// history) if it was used before; the current search is kept too.
    ///
    /// If the new rule's table cannot be allocated, the kept tables of the
    /// other rules (the current one's included: it is being left) are
    /// dropped to make room, and the allocation is tried once more.
    ///
    /// Errors: the rule's search cannot be built even then; the current rule
    /// stays (its search is built again when next used, if it was dropped).
    pub fn set_backup(&mut self, backup: BackupKind) -> Result<(), ParamError> {
        let i = backup.index();
        if self.searches[i].is_none() {
            let search = match build(backup, &self.settings) {
                Ok(mut search) => {
                    attach(&mut search, self.tablebases.as_ref());
                    search
                }
                Err(first) => {
                    let mut freed = false;
                    for slot in &mut self.searches {
                        if slot.as_ref().is_some_and(has_table) {
                            *slot = None;
                            freed = true;
                        }
                    }
                    if !freed {
                        return Err(first);
                    }
                    let mut search = build(backup, &self.settings)?;
                    attach(&mut search, self.tablebases.as_ref());
                    search
                }
            };
            self.searches[i] = Some(search);
        }
        self.settings.backup = backup;
        Ok(())
    }

    /// Sets the alpha-beta search's thread count (`Threads`): its search is
    /// rebuilt (with an empty table) if it is built; the other rules search
    /// on one thread and are not touched.
    ///
    /// Errors: the search cannot be built; nothing changes.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ParamError> {
        let next = Settings { threads, ..self.settings };
        let i = BackupKind::AlphaBeta.index();
        if self.searches[i].is_some() {
            self.searches[i] = None;
            self.searches[i] = Some(build(BackupKind::AlphaBeta, &next)?);
        }
        self.settings = next;
        Ok(())
    }

    /// Sets Rminimax's θ: only Rminimax's search (which has no table) is
    /// rebuilt, and only if it is built.
    ///
    /// Errors: θ is NaN, `≤ 0` or subnormal; nothing changes.
    pub fn set_theta(&mut self, theta: f64) -> Result<(), ParamError> {
        let rule = rminimax_rule(theta)?;
        let next = Settings { theta, ..self.settings };
        let i = BackupKind::Rminimax.index();
        if self.searches[i].is_some() {
            let mut search = build(BackupKind::Rminimax, &next)?;
            attach(&mut search, self.tablebases.as_ref());
            self.searches[i] = Some(search);
        }
        self.settings = next;
        self.rminimax = rule;
        Ok(())
    }

    /// Sets the seed of Rminimax's sampling and re-seeds its generator; no
    /// search is touched.
    pub fn set_seed(&mut self, seed: u64) {
        self.settings.seed = seed;
        self.rng = rng::seeded(seed);
        self.book_rng = rng::seeded(rng::derive_seed(seed, BOOK_STREAM));
    }

    /// Sets `HumanElo` (0: off) and `HumanPick` (no search is touched).
    pub fn set_human(&mut self, elo: u32, pick: crate::human::Pick) {
        if (elo, pick) != (self.settings.human_elo, self.settings.human_pick) {
            self.human = None;
        }
        self.settings.human_elo = elo;
        self.settings.human_pick = pick;
    }

    /// Plays the human model's move at `root` (`HumanElo`), or says why not.
    fn human_move(&mut self, root: &ChessGame) -> Result<(Move, u32), HumanMoveError> {
        use search_core::Agent as _;
        let mut agent = match self.human.take() {
            Some(agent) => agent,
            None => {
                let model = crate::human::HumanModel::embedded()?;
                let elo = f64::from(self.settings.human_elo);
                crate::human::HumanAgent::new(model, elo, self.settings.human_pick)?
            }
        };
        let chosen = agent.choose(root, &mut self.rng);
        self.human = Some(agent);
        let depth = crate::human::HumanModel::embedded().map_or(0, |m| m.depth);
        Ok((chosen?, depth))
    }

    /// Turns `UCI_LimitStrength` on or off (no search is touched).
    pub fn set_limit_strength(&mut self, on: bool) {
        self.settings.limit_strength = on;
    }

    /// Sets `UCI_Elo`, clamped into the calibrated range (no search is
    /// touched).
    pub fn set_elo(&mut self, elo: i64) {
        self.settings.elo = super::limit::elo_range().map_or(elo, |r| r.clamp(elo));
    }

    /// The current rule's search, built if it is missing.
    fn active(&mut self) -> Result<&mut ChessSearch, ParamError> {
        let i = self.settings.backup.index();
        if self.searches[i].is_none() {
            let mut search = build(self.settings.backup, &self.settings)?;
            attach(&mut search, self.tablebases.as_ref());
            self.searches[i] = Some(search);
        }
        self.searches[i].as_mut().ok_or_else(|| ParamError::new("backup", "no search"))
    }

    /// Searches `position` within `plan` with the search core's iterative
    /// deepening, calling `on_iteration` after each completed iteration,
    /// until a limit, the `stop` flag, or the last depth. With
    /// `wait_for_stop` (`go infinite`, pondering), returns only once `stop`
    /// is set, as the protocol requires.
    ///
    /// Deepening stops early once the soft time is spent, the node budget is
    /// used up, a mate within `plan.mate` is found, a mate is proven (depth
    /// `2n + 2` for a mate in `n`, unless waiting for `stop`), or the only
    /// legal move has been searched once under a clock.
    pub fn think(
        &mut self,
        position: &ChessGame,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        wait_for_stop: bool,
        on_iteration: impl FnMut(&Iteration),
    ) -> Decision {
        let start = Instant::now();
        let (root, legal, mut notes) = match prepare(position, start) {
            Ok(prepared) => prepared,
            Err(over) => {
                wait(wait_for_stop, stop);
                return *over;
            }
        };
        if let Some((mv, note)) = self.book_move(&root) {
            notes.push(note);
            wait(wait_for_stop, stop);
            let last = Iteration::unsearched(None, start.elapsed(), vec![mv]);
            return Decision { best: Some(mv), ponder: None, last, notes };
        }
        if self.settings.human_elo > 0 {
            match self.human_move(&root) {
                Ok((mv, depth)) => {
                    notes.push(format!(
                        "human: playing like a Lichess player rated {} (pick={})",
                        self.settings.human_elo,
                        self.settings.human_pick.name()
                    ));
                    wait(wait_for_stop, stop);
                    let last = Iteration {
                        depth,
                        score: None,
                        rule_value: None,
                        nodes: 0,
                        tbhits: 0,
                        time: start.elapsed(),
                        pv: vec![mv],
                    };
                    return Decision { best: Some(mv), ponder: None, last, notes };
                }
                Err(e) => notes.push(format!("human: {e}; playing at full strength")),
            }
        }
        if self.settings.limit_strength {
            match setting_at(self.settings.elo).and_then(|(spec, setting)| {
                self.strength_search(&setting)?;
                Ok((spec, setting))
            }) {
                Ok((spec, setting)) => {
                    let go = Go { plan, stop, wait_for_stop, start };
                    return self.play_setting(&root, &legal, notes, go, (&spec, &setting), on_iteration);
                }
                Err(e) => notes.push(format!("strength: {e}; playing at full strength")),
            }
        }
        let report = Reporter { backup: self.settings.backup, theta: self.settings.theta, root: &root, start };
        let mut watch = Watch {
            report,
            plan,
            stop,
            // One legal move: nothing to think about under a clock.
            forced: plan.budget.is_some() && legal.len() == 1,
            wait_for_stop,
            on_iteration,
            last: None,
        };
        // The full-strength alpha-beta engine orders by static exchange
        // evaluation (with `EngineEval`); the other rules keep MVV-LVA.
        let searched = root.clone().with_see_ordering(self.settings.backup == BackupKind::AlphaBeta);
        let outcome = match self.active() {
            Ok(search) => search.run_observed(&searched, &limits(plan, stop, start), &mut watch),
            Err(e) => Err(e.into()),
        };
        wait(wait_for_stop, stop);
        let result = match outcome {
            Ok(result) => result,
            Err(e) => {
                notes.push(format!("search failed: {e}"));
                // The iterations reported before the failure still stand.
                let mut last = watch.last.unwrap_or_else(|| report.iteration(0, None, &[], None, 0));
                last.time = start.elapsed();
                let best = last.pv.first().copied().or_else(|| legal.first().copied());
                let ponder = ponder_move(best, &last.pv);
                return Decision { best, ponder, last, notes };
            }
        };
        // The last completed iteration's answer, with the nodes and time of
        // the whole search (or, if even the first iteration was stopped, the
        // best root move searched so far, at depth 0).
        let mut last = report.iteration(result.stats.depth, result.value, &result.pv, result.best, result.stats.nodes);
        last.tbhits = result.stats.tb_hits;
        let mut chosen = last.pv.first().copied().or(result.best);
        if self.settings.backup == BackupKind::Rminimax {
            let rule = self.rminimax;
            match self.sample(&rule, &result) {
                Ok(mv) => chosen = Some(mv),
                Err(e) => notes.push(format!("rminimax sampling failed ({e}); playing the best move")),
            }
        }
        let ponder = ponder_move(chosen, &last.pv);
        Decision { best: chosen.or_else(|| legal.first().copied()), ponder, last, notes }
    }

    /// The search of a strength setting, built if it is missing (`None` for
    /// `random`, which searches nothing).
    ///
    /// Errors: its table cannot be allocated.
    fn strength_search(&mut self, setting: &StrengthSetting) -> Result<Option<&mut StrengthSearch>, ParamError> {
        let i = match setting {
            StrengthSetting::Random => return Ok(None),
            StrengthSetting::Best { .. } => 0,
            StrengthSetting::Boltzmann { .. } => 1,
            StrengthSetting::Kibitz { .. } => 2,
        };
        if self.strength[i].is_none()
            && let Some(search) = build_search(setting)
        {
            self.strength[i] = Some(search?);
        }
        Ok(self.strength[i].as_mut())
    }

    /// Plays the strength setting `spec` (`setting`) at `root` (with the
    /// legal moves `legal`), as the `strength` crate's agent of that spec,
    /// freshly built, would with a generator seeded by
    /// [`move_seed`](super::move_seed): see [`limit`](super::limit). Every
    /// completed iteration is reported; the time budget and `stop` cut a
    /// search short, and then the best move so far is played. The final report is the move played:
    /// its exact score (Boltzmann) or the root's value, with the principal
    /// variation when it starts with that move.
    fn play_setting(
        &mut self,
        root: &ChessGame,
        legal: &[Move],
        mut notes: Vec<String>,
        go: Go<'_>,
        (spec, setting): (&AgentSpec, &StrengthSetting),
        on_iteration: impl FnMut(&Iteration),
    ) -> Decision {
        notes.push(format!("strength: elo {} -> {spec}", self.settings.elo));
        let mut rng = rng::seeded(move_seed(self.settings.seed, root));
        let start = go.start;
        let report = Reporter { backup: BackupKind::AlphaBeta, theta: f64::INFINITY, root, start };
        let limits = setting.limits().map(|l| {
            let l = l.with_stop(Arc::clone(go.stop));
            match go.plan.budget {
                Some(b) => l.with_time(b.hard.saturating_sub(start.elapsed())),
                None => l,
            }
        });
        let search = match self.strength_search(setting) {
            Ok(Some(search)) => search,
            Ok(None) => {
                // `random`: RandomAgent's uniform choice among the legal moves.
                let mv = legal[rng.random_range(0..legal.len())];
                wait(go.wait_for_stop, go.stop);
                let last = Iteration::unsearched(None, start.elapsed(), vec![mv]);
                return Decision { best: Some(mv), ponder: None, last, notes };
            }
            Err(e) => {
                // Checked before; only a failed allocation gets here.
                notes.push(format!("strength: {e}; playing the first legal move"));
                wait(go.wait_for_stop, go.stop);
                let last = report.iteration(0, None, &[], legal.first().copied(), 0);
                return Decision { best: legal.first().copied(), ponder: None, last, notes };
            }
        };
        // A fresh search each time, as a freshly built agent: the move is a
        // function of the position (with its history), the seed and the
        // setting only.
        search.clear();
        let mut reports = Reports { report, on_iteration, last: None };
        let limits = limits.unwrap_or_else(|| Limits::depth(1));
        // The engine's own setting searches the position as the engine does.
        let searched = match setting {
            StrengthSetting::Kibitz { .. } => crate::kibitz::searched(root),
            _ => root.clone(),
        };
        let outcome = search.run_observed(&searched, &limits, &mut reports);
        wait(go.wait_for_stop, go.stop);
        let result = match outcome {
            Ok(result) => result,
            Err(e) => {
                notes.push(format!("strength: search failed ({e}); playing the best move so far"));
                let mut last = reports.last.unwrap_or_else(|| report.iteration(0, None, &[], None, 0));
                last.time = start.elapsed();
                let best = last.pv.first().copied().or_else(|| legal.first().copied());
                return Decision { best, ponder: ponder_move(best, &last.pv), last, notes };
            }
        };
        let so_far = result.pv.first().copied().or(result.best);
        let mut chosen = (so_far, result.value);
        // A node budget, not a depth, ends the engine's own search.
        let budget_spent = matches!(setting, StrengthSetting::Kibitz { nodes } if result.stats.nodes >= *nodes);
        if !result.complete && !budget_spent {
            notes.push(format!(
                "strength: the depth {} search did not finish (stopped, or out of time): playing the best move so far",
                setting.depth()
            ));
        } else {
            match setting {
                StrengthSetting::Random => {}
                // SearchAgent: the best move, ties at random.
                StrengthSetting::Best { .. } => {
                    if result.best_moves.len() > 1 {
                        chosen.0 = Some(result.best_moves[rng.random_range(0..result.best_moves.len())]);
                    } else {
                        chosen.0 = result.best;
                    }
                }
                // PolicyAgent: the softmax over the exact root scores.
                StrengthSetting::Boltzmann { softmax, .. } => match sample(softmax, &result, &mut rng) {
                    Ok(i) => chosen = (Some(result.root_moves[i].mv), Some(result.root_moves[i].score)),
                    Err(e) => notes.push(format!("strength: cannot sample ({e}); playing the best move")),
                },
                // KibitzAgent: the engine's move.
                StrengthSetting::Kibitz { .. } => chosen.0 = crate::kibitz::chosen_move(&result),
            }
        }
        let best = chosen.0.filter(|mv| legal.contains(mv)).or_else(|| legal.first().copied());
        let pv: Vec<Move> = if best.is_some() && result.pv.first() == best.as_ref() {
            result.pv.clone()
        } else {
            best.into_iter().collect()
        };
        let last = report.iteration(result.stats.depth, chosen.1, &pv, best, result.stats.nodes);
        Decision { best, ponder: ponder_move(best, &last.pv), last, notes }
    }

    /// Samples the root move from Rminimax's policy (eq. 10 of the paper).
    fn sample(&mut self, rule: &Rminimax, result: &SearchResult<Move>) -> Result<Move, ParamError> {
        let Some(value) = result.value.filter(|_| !result.root_moves.is_empty()) else {
            return Err(ParamError::new("rminimax", "no complete iteration to sample from"));
        };
        let probs = rule.transition_probabilities(value, &result.scores())?;
        let i = rng::sample_index(&probs, &mut self.rng);
        Ok(result.root_moves[i.min(result.root_moves.len() - 1)].mv)
    }
}

/// The prepared root of a `think`: the position to search (the board
/// alone, under [`Rules::PERFT`](crate::Rules::PERFT), if the game is a
/// draw by rule a GUI plays on from), its legal moves and the notes so
/// far; or, if no move is legal, the decision (no move).
fn prepare(position: &ChessGame, start: Instant) -> Result<(ChessGame, Vec<Move>, Vec<String>), Box<Decision>> {
    let mut notes = Vec::new();
    let mut root = position.clone();
    let mut legal = Vec::new();
    if let Status::Over(_) = root.generate(&mut legal) {
        if root.position().legal_moves().is_empty() {
            let score = if root.is_check() { Score::Mate(0) } else { Score::Cp(0) };
            notes.push("the game is over: no legal move".to_string());
            let last = Iteration::unsearched(Some(score), start.elapsed(), Vec::new());
            return Err(Box::new(Decision { best: None, ponder: None, last, notes }));
        }
        // A draw by rule that a GUI may play on from (repetition, fifty
        // moves, insufficient material): search the board alone.
        notes.push("the position is a draw by rule; searching the board anyway".to_string());
        root = ChessGame::from_position(root.position().clone()).with_rules(crate::Rules::PERFT);
        legal.clear();
        root.generate(&mut legal);
    }
    Ok((root, legal, notes))
}

/// What a `think` was asked: its plan, the stop flag, whether to wait for
/// `stop`, and when the `go` arrived.
#[derive(Clone, Copy)]
struct Go<'a> {
    plan: &'a Plan,
    stop: &'a Arc<AtomicBool>,
    wait_for_stop: bool,
    start: Instant,
}

/// The index of the root move sampled from `softmax` over the exact root
/// scores of `result`, as [`PolicyAgent`](search_core::policy::PolicyAgent)
/// samples: errors on NaN, inexact or missing scores.
fn sample(
    softmax: &search_core::policy::Softmax,
    result: &SearchResult<Move>,
    rng: &mut rng::Rng,
) -> Result<usize, ParamError> {
    let probs = distribution(softmax, result)?;
    Ok(rng::sample_index(&probs, rng).min(probs.len() - 1))
}

/// The weights of the root moves (in `result.root_moves` order) under
/// `softmax`, as [`PolicyAgent`](search_core::policy::PolicyAgent) computes
/// them.
fn distribution(softmax: &search_core::policy::Softmax, result: &SearchResult<Move>) -> Result<Vec<f64>, ParamError> {
    if result.root_moves.iter().any(|m| m.score.is_nan()) {
        return Err(ParamError::new("scores", "a root score is NaN"));
    }
    if result.root_moves.iter().any(|m| m.bound != Bound::Exact) || !result.complete {
        return Err(ParamError::new("options", "a policy needs exact root scores: search full width"));
    }
    if result.root_moves.is_empty() {
        return Err(ParamError::new("scores", "no root move"));
    }
    let mut probs = Vec::with_capacity(result.root_moves.len());
    softmax.distribution(&result.scores(), &mut probs)?;
    Ok(probs)
}

/// The observer of a strength setting's search: reports every completed
/// iteration and never stops it early (the setting's depth is what was
/// rated).
struct Reports<'a, F> {
    report: Reporter<'a>,
    on_iteration: F,
    last: Option<Iteration>,
}

impl<F: FnMut(&Iteration)> Observer<ChessGame> for Reports<'_, F> {
    fn iteration(&mut self, step: &search_core::search::Iteration<'_, Move>) -> Control {
        let mut it = self.report.iteration(step.depth, Some(step.value), step.pv, step.best, step.stats.nodes);
        it.tbhits = step.stats.tb_hits;
        (self.on_iteration)(&it);
        self.last = Some(it);
        Control::Continue
    }
}

/// The limits of the one search of a `think`: the plan's depth (at most
/// [`MAX_DEPTH`]), its node budget (every iteration counts), the hard time
/// left, and the stop flag.
fn limits(plan: &Plan, stop: &Arc<AtomicBool>, start: Instant) -> Limits {
    let depth = plan.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut limits = Limits::depth(depth).with_stop(Arc::clone(stop));
    if let Some(nodes) = plan.nodes {
        limits = limits.with_nodes(nodes.max(1));
    }
    if let Some(b) = plan.budget {
        limits = limits.with_time(b.hard.saturating_sub(start.elapsed()));
    }
    limits
}

/// Turns the search's values into UCI reports for one `think`.
#[derive(Clone, Copy)]
struct Reporter<'a> {
    backup: BackupKind,
    /// Rminimax's θ (its values are centipawns only at θ = +∞).
    theta: f64,
    /// The searched position (the principal variation is checked on it).
    root: &'a ChessGame,
    /// When the `go` arrived.
    start: Instant,
}

impl Reporter<'_> {
    /// The report of an iteration at `depth` whose root value is `value`
    /// (`None`: no iteration completed, reported as 0).
    fn iteration(&self, depth: u32, value: Option<f64>, pv: &[Move], best: Option<Move>, nodes: u64) -> Iteration {
        let mut pv = legal_prefix(self.root, pv);
        if pv.is_empty()
            && let Some(mv) = best
        {
            pv.push(mv);
        }
        let (score, rule_value) = match value {
            Some(v) => report_value(self.backup, self.theta, v, depth),
            None => (Some(Score::Cp(0)), None),
        };
        Iteration { depth, score, rule_value, nodes, tbhits: 0, time: self.start.elapsed(), pv }
    }
}

/// The observer of a `think`: reports every completed iteration and says
/// when deepening has done enough.
struct Watch<'a, F> {
    report: Reporter<'a>,
    plan: &'a Plan,
    stop: &'a AtomicBool,
    /// The only legal move, under a clock.
    forced: bool,
    wait_for_stop: bool,
    on_iteration: F,
    /// The last iteration reported.
    last: Option<Iteration>,
}

impl<F> Watch<'_, F> {
    /// Whether to stop after the iteration `it`.
    fn enough(&self, it: &Iteration) -> bool {
        if self.stop.load(Ordering::Relaxed) || self.forced {
            return true;
        }
        if self.plan.budget.is_some_and(|b| self.report.start.elapsed() >= b.soft) {
            return true;
        }
        if self.plan.nodes.is_some_and(|n| it.nodes >= n) {
            return true;
        }
        match it.score {
            Some(Score::Mate(n)) if n > 0 => {
                let n = n as u32;
                // The mate `go mate` asked for; or a proven mate, which
                // deeper iterations only confirm.
                self.plan.mate.is_some_and(|m| n <= m) || (!self.wait_for_stop && it.depth >= 2 * n + 2)
            }
            _ => false,
        }
    }
}

impl<F: FnMut(&Iteration)> Observer<ChessGame> for Watch<'_, F> {
    fn iteration(&mut self, step: &search_core::search::Iteration<'_, Move>) -> Control {
        let mut it = self.report.iteration(step.depth, Some(step.value), step.pv, step.best, step.stats.nodes);
        it.tbhits = step.stats.tb_hits;
        (self.on_iteration)(&it);
        let enough = self.enough(&it);
        self.last = Some(it);
        if enough { Control::Stop } else { Control::Continue }
    }
}

/// How a value of `backup`'s rule at `depth` is reported: a UCI score in
/// the engine's centipawn scale where the rule's values are centipawns,
/// otherwise no score and a description of the rule's own value (for an
/// `info string` line).
///
/// * `alphabeta`, `minimax`: minimax values, centipawns or mate distances.
/// * `predictive`, `mn`: weighted averages of centipawn values (plus M & N's
///   bonus): centipawns; a mate when every line averaged is a mate.
/// * `iom`: the path's static values weighted 1, 2, 4, …: divided by the
///   weights' sum `2^(depth+1) − 1`, a weighted mean of centipawns.
/// * `rminimax` at θ = +∞: minimax on the costs `1 − cp / CP_RANGE`, clipped
///   to `[0, 2]`: centipawns within `±CP_RANGE`.
/// * `rminimax` at a finite θ (a soft minimum, which adds up to `ln(n)/θ` per
///   level: 3000 "centipawns" at θ = 1), `emm` (`P(win) − P(loss)`) and
///   `product` (log-odds of a win): not centipawns; reported as they are.
fn report_value(backup: BackupKind, theta: f64, value: f64, depth: u32) -> (Option<Score>, Option<String>) {
    let mate_threshold = WIN_SCORE - f64::from(MAX_PLY);
    match backup {
        BackupKind::AlphaBeta | BackupKind::Minimax => (Some(mate_or_cp(value)), None),
        BackupKind::Predictive | BackupKind::MAndN => {
            // M & N's bonus can lift a mate past WIN_SCORE: still a mate.
            let v = value.clamp(-WIN_SCORE, WIN_SCORE - 1.0);
            let score = if v.abs() >= mate_threshold { mate_or_cp(v) } else { Score::Cp(clamp_cp(v)) };
            (Some(score), None)
        }
        BackupKind::Iom => (Some(Score::Cp(clamp_cp(value / (2f64.powi(depth.min(60) as i32 + 1) - 1.0)))), None),
        BackupKind::Rminimax if theta == f64::INFINITY => (Some(Score::Cp(clamp_cp((1.0 + value) * CP_RANGE))), None),
        BackupKind::Rminimax => (
            None,
            Some(format!(
                "rminimax value {value:.4}: minus the soft cost-to-go (win 0, draw 1, loss 2, a horizon position \
                 1 - cp/{CP_RANGE}; theta {theta}), not a centipawn score"
            )),
        ),
        BackupKind::Emm => (
            None,
            Some(format!(
                "emm value {value:.6}: P(win) - P(loss) for the engine, P(win) = {:.6}, not a centipawn score",
                (value + 1.0) / 2.0
            )),
        ),
        BackupKind::Product => (
            None,
            Some(format!(
                "product value {value:.4}: log-odds of a win for the engine, P(win) = {:.6}, not a centipawn score",
                1.0 / (1.0 + (-value).exp())
            )),
        ),
    }
}

/// Why the human model has no move (`HumanElo`): the engine then plays at
/// full strength and says why in an `info string`.
#[derive(Debug, thiserror::Error)]
enum HumanMoveError {
    /// The embedded model is unusable, or the rating is outside its range.
    #[error(transparent)]
    Model(#[from] crate::human::ModelError),
    /// The model's value search failed.
    #[error(transparent)]
    Game(#[from] search_core::GameError),
}

/// The reply to ponder on: the second move of `pv` when `chosen` is its
/// first.
fn ponder_move(chosen: Option<Move>, pv: &[Move]) -> Option<Move> {
    match (chosen, pv) {
        (Some(mv), [first, reply, ..]) if mv == *first => Some(*reply),
        _ => None,
    }
}

/// The longest prefix of `pv` that is legal from `root` (a defensive check:
/// a GUI must never see an illegal move).
fn legal_prefix(root: &ChessGame, pv: &[Move]) -> Vec<Move> {
    let mut g = root.clone().with_rules(crate::Rules::PERFT);
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if g.try_play(mv).is_err() {
            break;
        }
        out.push(mv);
    }
    out
}

fn wait(wait_for_stop: bool, stop: &AtomicBool) {
    while wait_for_stop && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::Agent;

    /// Under `UCI_LimitStrength`, the dial's top settings (`kibitz:nodes=N`)
    /// play exactly the move the calibrated agent played, whatever the
    /// engine searched before.
    #[test]
    fn a_kibitz_setting_plays_the_agents_move() {
        let mut brain = Brain::new(Settings::default()).unwrap();
        let spec: AgentSpec = "kibitz:nodes=3000".parse().unwrap();
        let setting = StrengthSetting::from_spec(&spec).unwrap();
        let mut agent = crate::kibitz::KibitzAgent::new(3000).unwrap();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        ] {
            let g = ChessGame::from_fen(fen).unwrap();
            let start = Instant::now();
            let (root, legal, notes) = prepare(&g, start).unwrap();
            let (plan, stop) = (Plan::default(), Arc::new(AtomicBool::new(false)));
            let go = Go { plan: &plan, stop: &stop, wait_for_stop: false, start };
            let d = brain.play_setting(&root, &legal, notes, go, (&spec, &setting), |_| {});
            assert_eq!(d.best, Some(agent.choose(&g, &mut rng::seeded(1)).unwrap()), "{fen}");
            assert!(!d.notes.iter().any(|n| n.contains("did not finish")), "{:?}", d.notes);
            assert!(d.last.nodes >= 3000 || d.last.pv.len() > 1, "{d:?}");
        }
    }
}
