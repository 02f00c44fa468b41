//! How a search works: pruning, tables, ordering, extensions. Options are
//! checked against the rule, the game and the evaluator when a
//! [`Search`](crate::search::Search) is built: an option that would do
//! nothing is an error, never silently ignored.

use crate::backup::{Backup, BackupValue, Pruning};
use crate::error::ParamError;
use crate::eval::Evaluator;
use crate::game::Game;

/// How transposition-table entries of a different remaining depth are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TtDepth {
    /// Only entries searched to exactly the remaining depth give values
    /// (deeper ones still give their best move). Never changes a value
    /// against a search without the table.
    Exact,
    /// Entries searched at least as deep give values too (the usual engine
    /// rule: stronger, but a depth-limited value may differ from the same
    /// search without the table, because it is deeper). Only for rules with
    /// [`Pruning::Negamax`].
    AtLeast,
}

/// Star pruning at chance nodes (Ballard), for rules with
/// [`Pruning::Negamax`] and evaluators that declare
/// [`bounds`](Evaluator::bounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Star {
    /// Search every chance outcome with the full window.
    Off,
    /// Star1: windows from the value bounds and the outcomes seen so far.
    /// Never visits a node that full width would not.
    Star1,
    /// Star2: Star1 plus a probing pass that searches one move of every
    /// outcome first, with a null window at the bound that would cut, so a
    /// probe costs little more than a cut-off test.
    Star2,
}

/// What a unit of depth is in a tree with chance nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthUnit {
    /// Only decisions (player nodes) count; chance nodes are free. The
    /// convention of OpenSpiel and most texts: "depth 2" is a move of each
    /// player whatever dice fall between them. The default.
    Decisions,
    /// Every node counts, chance nodes included (a depth of 3 is
    /// player, chance, player).
    Plies,
}

/// ProbCut forward pruning (off by default): a shallow search predicts
/// whether the deep one would fail high.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbCut {
    /// Apply at nodes with at least this remaining depth.
    pub min_depth: u32,
    /// The shallow search is this many plies shallower.
    pub reduction: u32,
    /// Cut if the shallow value reaches `beta + margin`.
    pub margin: f64,
}

/// Late move reductions (off by default): at a node with enough depth left,
/// a quiet move ([`Game::is_quiet`]) that comes late in the order is first
/// searched shallower with a null window; only if it then beats α is it
/// searched again at full depth. Never at the root, at a node whose side
/// to move needs an extension ([`Game::needs_extension`], in chess: in
/// check), or for a move that leads to one.
///
/// The reduction of the move at `index` (0 first) with `depth` plies left
/// is `max(1, ⌊ln(depth)·ln(index + 1)/divisor⌋)`, capped so that the
/// reduced search keeps at least one ply.
///
/// ```
/// use search_core::search::Lmr;
/// let l = Lmr::default();
/// assert_eq!(l.reduction(3, 2), 0); // too early in the order
/// assert_eq!(l.reduction(8, 3), 1);
/// assert!(l.reduction(20, 40) > 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lmr {
    /// Reduce only at nodes with at least this remaining depth (≥ 2).
    pub min_depth: u32,
    /// Reduce only moves at this index of the order or later (≥ 1).
    pub min_index: u32,
    /// The divisor of the logarithmic formula (> 0): larger reduces less.
    pub divisor: f64,
}

impl Default for Lmr {
    /// From the third remaining ply and the fourth move on, divisor 2.
    fn default() -> Self {
        Lmr { min_depth: 3, min_index: 3, divisor: 2.0 }
    }
}

impl Lmr {
    /// The reduction, in plies, of the move at `index` at a node with
    /// `depth` plies left (0: searched at full depth).
    pub fn reduction(&self, depth: u32, index: u32) -> u32 {
        if depth < self.min_depth || index < self.min_index {
            return 0;
        }
        let r = (f64::from(depth).ln() * f64::from(index + 1).ln() / self.divisor).floor() as u32;
        r.max(1).min(depth.saturating_sub(2))
    }
}

/// Reverse futility pruning (off by default; also called static null-move
/// pruning): at a null-window node with at most `max_depth` plies left,
/// below the root, whose side to move needs no extension
/// ([`Game::needs_extension`]; in chess: not in check), if the static value
/// less `margin × depth` still reaches β, the node fails high with that
/// value without searching a move. A guess, like every forward pruning: a
/// position that is far ahead on the evaluator's scale is taken to stay
/// ahead for a few plies.
///
/// ```
/// use search_core::search::{Options, ReverseFutility};
/// let o = Options::default().with_reverse_futility(Some(ReverseFutility { max_depth: 6, margin: 80.0 }));
/// assert_eq!(o.reverse_futility.map(|r| r.max_depth), Some(6));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReverseFutility {
    /// Apply at nodes with at most this many plies left (≥ 1).
    pub max_depth: u32,
    /// The margin per remaining ply, in the evaluator's units (> 0, finite).
    pub margin: f64,
}

/// Late move pruning (off by default; also called move-count pruning): at a
/// null-window node with at most `max_depth` plies left, below the root,
/// whose side to move needs no extension, the quiet moves
/// ([`Game::is_quiet`], not leading to a position that needs an extension)
/// that come after the first `base + depth²` moves of the order are not
/// searched; the node counts them at α, so that its value stays an upper
/// bound when every searched move fails low.
///
/// ```
/// use search_core::search::LateMovePruning;
/// let l = LateMovePruning { max_depth: 3, base: 3 };
/// assert_eq!(l.move_limit(2), Some(7));
/// assert_eq!(l.move_limit(4), None); // too deep
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LateMovePruning {
    /// Apply at nodes with at most this many plies left (≥ 1).
    pub max_depth: u32,
    /// Moves searched at every depth before any is pruned.
    pub base: u32,
}

impl LateMovePruning {
    /// How many moves of the order are searched at a node with `depth`
    /// plies left before the quiet ones are pruned (`None`: no pruning at
    /// this depth).
    pub fn move_limit(&self, depth: i32) -> Option<u32> {
        let d = u32::try_from(depth).ok().filter(|&d| (1..=self.max_depth).contains(&d))?;
        Some(self.base.saturating_add(d.saturating_mul(d)))
    }
}

/// The largest transposition table a search accepts, in MiB (1 TiB).
pub const MAX_TABLE_MIB: usize = 1 << 20;

/// Switches of the search core. [`Options::default`] is a full alpha-beta
/// engine for [`Pruning::Negamax`] rules; [`Options::full_width`] is plain
/// minimax and works with every rule; [`Options::recommended`] is the most
/// a given rule, game and evaluator can use.
///
/// ```
/// use search_core::search::{Options, Star};
/// let o = Options::default().with_table_mib(64).with_star(Star::Off);
/// assert_eq!(o.table_mib, 64);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// Alpha-beta pruning (rules with [`Pruning::Windows`] or
    /// [`Pruning::Negamax`]). Off: full width.
    pub alpha_beta: bool,
    /// Iterative deepening from depth 1 to the depth limit.
    pub iterative_deepening: bool,
    /// Transposition table size in MiB (0: none). Needs alpha-beta and a
    /// game with [`Game::HASHED`].
    pub table_mib: usize,
    /// How table entries of other depths are used.
    pub tt_depth: TtDepth,
    /// Principal-variation search (null windows after the first move).
    pub pvs: bool,
    /// Aspiration window half-width around the previous iteration's value.
    pub aspiration: Option<f64>,
    /// Use the game's [`order_hint`](Game::order_hint).
    pub game_ordering: bool,
    /// Killer moves (alpha-beta only).
    pub killers: bool,
    /// History heuristic (alpha-beta only).
    pub history: bool,
    /// History with malus (needs [`history`](Options::history); negamax
    /// rules): killers and history learn from quiet moves only
    /// ([`Game::is_quiet`]); at a cut-off by a quiet move the quiet moves
    /// searched before it lose what it gains, and every score is damped
    /// towards a bound instead of the whole table being aged. Off: every
    /// cut-off move gains `depth²` (the classic heuristic).
    pub history_malus: bool,
    /// Quiescence search beyond the horizon with the evaluator's noisy moves
    /// ([`Pruning::Negamax`] rules).
    pub quiescence: bool,
    /// Null-move pruning with this depth reduction (games that can pass).
    pub null_move: Option<u32>,
    /// Beam search: keep only the `k` best children by static value.
    pub beam: Option<usize>,
    /// ProbCut.
    pub probcut: Option<ProbCut>,
    /// Late move reductions.
    pub lmr: Option<Lmr>,
    /// Search one ply deeper below a move that leads to a position that
    /// needs it ([`Game::needs_extension`]; in chess, a check).
    pub check_extension: bool,
    /// Futility pruning with this margin per remaining ply: at a null-window
    /// node with one or two plies left whose static value plus
    /// `margin × depth` cannot reach α, the quiet moves after the first
    /// ([`Game::is_quiet`], not leading to a position that needs an
    /// extension) are skipped; the node's value stays a sound upper bound
    /// (it counts them at the static value plus the margin).
    pub futility: Option<f64>,
    /// Reverse futility pruning.
    pub reverse_futility: Option<ReverseFutility>,
    /// Late move pruning.
    pub late_move_pruning: Option<LateMovePruning>,
    /// Star1/Star2 at chance nodes.
    pub star: Star,
    /// What a unit of depth is when the game has chance nodes.
    pub depth_unit: DepthUnit,
    /// Monte Carlo chance nodes: sample this many outcomes instead of
    /// enumerating them.
    pub chance_samples: Option<u32>,
    /// Seed for everything random in the search (chance sampling).
    pub seed: u64,
    /// The lecture's "simple pruning": stop at a node as soon as a proven
    /// win is found.
    pub stop_at_win: bool,
    /// Search every root move with the full window, so that each root
    /// score is exact, not a bound (needs alpha-beta; refuses aspiration).
    /// What a policy over root scores ([`PolicyAgent`](crate::policy::PolicyAgent),
    /// a Boltzmann player over alpha-beta values) needs: each root move
    /// costs a full-window search, the rest of the tree is pruned as usual.
    pub exact_root: bool,
    /// Threads of a Lazy SMP search (1: the single-threaded search, whose
    /// results are deterministic). More than one needs alpha-beta with a
    /// transposition table, which the threads share, and a search built
    /// with [`Search::parallel`](crate::search::Search::parallel).
    pub threads: usize,
}

impl Default for Options {
    /// Alpha-beta with a 16 MiB table, iterative deepening, PVS, the game's
    /// ordering, killers, history and quiescence. Star is off: it needs
    /// evaluator bounds (see [`Options::recommended`]).
    fn default() -> Self {
        Options {
            alpha_beta: true,
            iterative_deepening: true,
            table_mib: 16,
            tt_depth: TtDepth::Exact,
            pvs: true,
            aspiration: None,
            game_ordering: true,
            killers: true,
            history: true,
            history_malus: false,
            quiescence: true,
            null_move: None,
            beam: None,
            probcut: None,
            lmr: None,
            check_extension: false,
            futility: None,
            reverse_futility: None,
            late_move_pruning: None,
            star: Star::Off,
            depth_unit: DepthUnit::Decisions,
            chance_samples: None,
            seed: 0,
            stop_at_win: false,
            exact_root: false,
            threads: 1,
        }
    }
}

macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $field:ident: $ty:ty;)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(mut self, value: $ty) -> Options {
                self.$field = value;
                self
            }
        )*
    };
}

impl Options {
    /// Plain minimax (or expectiminimax, or any rule's full tree): no
    /// pruning, no table, no reordering; every node of the tree is visited
    /// in the game's order. Valid with every rule.
    ///
    /// ```
    /// use search_core::search::Options;
    /// assert!(!Options::full_width().alpha_beta);
    /// ```
    pub fn full_width() -> Options {
        Options {
            alpha_beta: false,
            iterative_deepening: false,
            table_mib: 0,
            pvs: false,
            game_ordering: false,
            killers: false,
            history: false,
            quiescence: false,
            star: Star::Off,
            ..Options::default()
        }
    }

    /// Alpha-beta with no enhancement: fail-soft negamax in the game's order.
    pub fn plain_alpha_beta() -> Options {
        Options { alpha_beta: true, ..Options::full_width() }
    }

    /// The most that rule `R` can use on game `G` with `eval`: the full
    /// engine for [`Pruning::Negamax`] rules (Star1 when the evaluator has
    /// bounds; a table when the game hashes), alpha-beta with table, PVS and
    /// move ordering for [`Pruning::Windows`] rules, full width otherwise.
    ///
    /// ```
    /// use search_core::backup::{Minimax, Rminimax};
    /// use search_core::search::Options;
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// let o = Options::recommended::<LiteralTree, Minimax, _>(&LiteralEval);
    /// assert!(o.alpha_beta);
    /// let o = Options::recommended::<LiteralTree, Rminimax, _>(&LiteralEval);
    /// assert!(!o.alpha_beta);
    /// ```
    pub fn recommended<G: Game, R: Backup, E: Evaluator<G>>(eval: &E) -> Options {
        let table_mib = if G::HASHED { 16 } else { 0 };
        match R::PRUNING {
            Pruning::None => Options { game_ordering: true, ..Options::full_width() },
            Pruning::Windows => Options {
                alpha_beta: true,
                iterative_deepening: true,
                table_mib,
                pvs: true,
                game_ordering: true,
                killers: true,
                history: true,
                ..Options::full_width()
            },
            Pruning::Negamax => Options {
                table_mib,
                star: if eval.bounds().is_some() { Star::Star1 } else { Star::Off },
                ..Options::default()
            },
        }
    }

    setters! {
        /// Sets [`alpha_beta`](Options::alpha_beta).
        with_alpha_beta: alpha_beta: bool;
        /// Sets [`iterative_deepening`](Options::iterative_deepening).
        with_iterative_deepening: iterative_deepening: bool;
        /// Sets [`table_mib`](Options::table_mib) (0: no table).
        with_table_mib: table_mib: usize;
        /// Sets [`tt_depth`](Options::tt_depth).
        with_tt_depth: tt_depth: TtDepth;
        /// Sets [`pvs`](Options::pvs).
        with_pvs: pvs: bool;
        /// Sets [`aspiration`](Options::aspiration).
        with_aspiration: aspiration: Option<f64>;
        /// Sets [`game_ordering`](Options::game_ordering).
        with_game_ordering: game_ordering: bool;
        /// Sets [`killers`](Options::killers).
        with_killers: killers: bool;
        /// Sets [`history`](Options::history).
        with_history: history: bool;
        /// Sets [`history_malus`](Options::history_malus).
        with_history_malus: history_malus: bool;
        /// Sets [`quiescence`](Options::quiescence).
        with_quiescence: quiescence: bool;
        /// Sets [`null_move`](Options::null_move).
        with_null_move: null_move: Option<u32>;
        /// Sets [`beam`](Options::beam).
        with_beam: beam: Option<usize>;
        /// Sets [`probcut`](Options::probcut).
        with_probcut: probcut: Option<ProbCut>;
        /// Sets [`lmr`](Options::lmr).
        with_lmr: lmr: Option<Lmr>;
        /// Sets [`check_extension`](Options::check_extension).
        with_check_extension: check_extension: bool;
        /// Sets [`futility`](Options::futility).
        with_futility: futility: Option<f64>;
        /// Sets [`reverse_futility`](Options::reverse_futility).
        with_reverse_futility: reverse_futility: Option<ReverseFutility>;
        /// Sets [`late_move_pruning`](Options::late_move_pruning).
        with_late_move_pruning: late_move_pruning: Option<LateMovePruning>;
        /// Sets [`star`](Options::star).
        with_star: star: Star;
        /// Sets [`depth_unit`](Options::depth_unit).
        with_depth_unit: depth_unit: DepthUnit;
        /// Sets [`chance_samples`](Options::chance_samples).
        with_chance_samples: chance_samples: Option<u32>;
        /// Sets [`seed`](Options::seed).
        with_seed: seed: u64;
        /// Sets [`stop_at_win`](Options::stop_at_win).
        with_stop_at_win: stop_at_win: bool;
        /// Sets [`exact_root`](Options::exact_root).
        with_exact_root: exact_root: bool;
        /// Sets [`threads`](Options::threads) (Lazy SMP when more than one).
        with_threads: threads: usize;
    }

    /// Checks these options against rule `R`, game `G` and `eval`: every
    /// value in its domain, and no option that the combination would
    /// ignore.
    ///
    /// ```
    /// use search_core::backup::{Minimax, Rminimax};
    /// use search_core::search::Options;
    /// use search_core::tree::{LiteralEval, LiteralTree};
    /// // Rminimax cannot prune: alpha-beta options are refused.
    /// let e = Options::default().validate::<LiteralTree, Rminimax, _>(&LiteralEval).unwrap_err();
    /// assert_eq!(e.name, "alpha_beta");
    /// assert!(Options::full_width().validate::<LiteralTree, Rminimax, _>(&LiteralEval).is_ok());
    /// ```
    pub fn validate<G: Game, R: Backup, E: Evaluator<G>>(&self, eval: &E) -> Result<(), ParamError> {
        if R::PRUNING != Pruning::None && <R::Value as BackupValue>::from_scalar(0.0).is_none() {
            return Err(ParamError::new(
                "rule",
                "a rule that prunes needs a value type made exactly from a number (BackupValue::from_scalar)",
            ));
        }
        let prunes = self.alpha_beta && R::PRUNING != Pruning::None;
        let negamax = prunes && R::PRUNING == Pruning::Negamax;
        if self.alpha_beta && R::PRUNING == Pruning::None {
            return Err(ParamError::new(
                "alpha_beta",
                "this backup rule cannot prune (Pruning::None): search full width",
            ));
        }
        let needs_pruning = [
            ("pvs", self.pvs),
            ("killers", self.killers),
            ("history", self.history),
            ("table_mib", self.table_mib > 0),
            ("exact_root", self.exact_root),
        ];
        for (name, on) in needs_pruning {
            if on && !prunes {
                return Err(ParamError::new(
                    name,
                    "works only with alpha-beta pruning (alpha_beta and a rule that prunes)",
                ));
            }
        }
        let needs_negamax = [
            ("aspiration", self.aspiration.is_some()),
            ("quiescence", self.quiescence),
            ("null_move", self.null_move.is_some()),
            ("beam", self.beam.is_some()),
            ("probcut", self.probcut.is_some()),
            ("lmr", self.lmr.is_some()),
            ("check_extension", self.check_extension),
            ("futility", self.futility.is_some()),
            ("reverse_futility", self.reverse_futility.is_some()),
            ("late_move_pruning", self.late_move_pruning.is_some()),
            ("history_malus", self.history_malus),
            ("star", self.star != Star::Off),
            ("tt_depth", self.tt_depth == TtDepth::AtLeast),
        ];
        for (name, on) in needs_negamax {
            if on && !negamax {
                return Err(ParamError::new(
                    name,
                    "works only with alpha-beta on a plain negamax rule (Pruning::Negamax, e.g. Minimax)",
                ));
            }
        }
        if self.aspiration.is_some() && self.exact_root {
            return Err(ParamError::new(
                "aspiration",
                "an aspiration window makes root scores bounds: exact_root refuses it",
            ));
        }
        if self.aspiration.is_some() && !self.iterative_deepening {
            return Err(ParamError::new("aspiration", "needs iterative deepening (a previous iteration's value)"));
        }
        if self.tt_depth == TtDepth::AtLeast && self.table_mib == 0 {
            return Err(ParamError::new("tt_depth", "TtDepth::AtLeast needs a transposition table"));
        }
        if self.table_mib > 0 && !G::HASHED {
            return Err(ParamError::new("table_mib", "the game has no hash keys (Game::HASHED is false): set 0"));
        }
        if self.table_mib > MAX_TABLE_MIB {
            return Err(ParamError::new("table_mib", format!("at most {MAX_TABLE_MIB} MiB, got {}", self.table_mib)));
        }
        if self.star != Star::Off && eval.bounds().is_none() {
            return Err(ParamError::new("star", "Star1/Star2 need value bounds: the evaluator's bounds() is None"));
        }
        if let Some(w) = self.aspiration {
            ParamError::positive("aspiration", w)?;
        }
        if self.beam == Some(0) {
            return Err(ParamError::new("beam", "must keep at least one child"));
        }
        if self.chance_samples == Some(0) {
            return Err(ParamError::new("chance_samples", "must be >= 1"));
        }
        if let Some(pc) = self.probcut {
            if pc.reduction == 0 || pc.reduction >= pc.min_depth {
                return Err(ParamError::new("probcut", "need 0 < reduction < min_depth"));
            }
            if !pc.margin.is_finite() {
                return Err(ParamError::new("probcut", "margin must be finite"));
            }
        }
        if let Some(l) = self.lmr
            && (l.min_depth < 2 || l.min_index < 1 || !(l.divisor > 0.0 && l.divisor.is_finite()))
        {
            return Err(ParamError::new("lmr", "need min_depth >= 2, min_index >= 1 and a finite divisor > 0"));
        }
        if let Some(m) = self.futility {
            ParamError::positive("futility", m)?;
        }
        if let Some(r) = self.reverse_futility {
            if r.max_depth == 0 {
                return Err(ParamError::new("reverse_futility", "max_depth must be >= 1"));
            }
            ParamError::positive("reverse_futility", r.margin)?;
        }
        if self.late_move_pruning.is_some_and(|l| l.max_depth == 0) {
            return Err(ParamError::new("late_move_pruning", "max_depth must be >= 1"));
        }
        if self.history_malus && !self.history {
            return Err(ParamError::new("history_malus", "adjusts the history heuristic: needs history"));
        }
        if self.threads == 0 {
            return Err(ParamError::new("threads", "must be >= 1"));
        }
        if self.threads > 1 && (!prunes || self.table_mib == 0) {
            return Err(ParamError::new(
                "threads",
                "Lazy SMP threads share a transposition table: needs alpha-beta and table_mib > 0",
            ));
        }
        if self.null_move == Some(0) {
            return Err(ParamError::new("null_move", "the reduction must be >= 1"));
        }
        Ok(())
    }
}
