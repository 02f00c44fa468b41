//! Every validation of the search API, one test each: a bad value gives
//! its typed error (the [`ParamError`]'s `name`, or the [`GameError`]
//! variant), and the value next to it is accepted. Then the observer hooks:
//! each does what it promises.

use search_core::backup::{
    Backup, ConstantError, Emm, Iom, LinearBonus, MAndN, Minimax, Predictive, Product, Rminimax,
};
use search_core::policy::{EpsilonGreedy, Greedy, MoveDistribution, Softmax, rminimax_agent};
use search_core::search::{
    Control, DynSearch, Incomplete, Iteration, LateMovePruning, Limits, Lmr, MAX_TABLE_MIB, Observer, Options, ProbCut,
    ReverseFutility, Search, SearchAgent, SearchResult, Star, TtDepth, Window,
};
use search_core::tree::{LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, Evaluator, Game, GameError, MAX_PLY, ParamError, Perspective, Player, Status, Turn, rng};

// ---------------------------------------------------------------------------
// Test games and evaluators.

/// The lecture's tree: max to move, three min nodes, value 3.
fn tree() -> LiteralTree {
    "max(min(3, 12, 8), min(2, 4, 6), min(14, 5, 2))".parse().unwrap()
}

/// A game that never ends: a counter that one move increments, the players
/// alternating. No hash keys.
#[derive(Clone, Copy, Debug)]
struct Counter(u32);

impl Game for Counter {
    type Move = u8;

    fn turn(&self) -> Turn {
        Turn::Player(if self.0.is_multiple_of(2) { Player::First } else { Player::Second })
    }

    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        moves.push(1);
        Status::Ongoing
    }

    fn play(&mut self, _: u8) {
        self.0 += 1;
    }
}

/// The counter modulo 7, first player's view.
#[derive(Clone, Copy, Debug)]
struct CounterEval;

impl Evaluator<Counter> for CounterEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &Counter) -> f64 {
        f64::from(state.0 % 7)
    }
}

/// [`LiteralEval`] with declared bounds (Star1 and Star2 need them).
#[derive(Clone, Copy, Debug)]
struct BoundedEval;

impl Evaluator<LiteralTree> for BoundedEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &LiteralTree) -> f64 {
        LiteralEval.evaluate(state)
    }

    fn terminal_value(&self, outcome: search_core::Outcome, player: Player, ply: u32) -> f64 {
        LiteralEval.terminal_value(outcome, player, ply)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-100.0, 100.0))
    }
}

/// An evaluator that returns NaN.
#[derive(Clone, Copy, Debug)]
struct NanEval;

impl Evaluator<LiteralTree> for NanEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, _: &LiteralTree) -> f64 {
        f64::NAN
    }
}

/// A coin toss at the root with the given probabilities, then a payoff.
#[derive(Clone, Copy, Debug)]
struct Coin {
    probs: [f64; 2],
    tossed: Option<u8>,
}

impl Game for Coin {
    type Move = u8;

    fn turn(&self) -> Turn {
        if self.tossed.is_none() { Turn::Chance } else { Turn::Player(Player::First) }
    }

    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        match self.tossed {
            None => {
                moves.extend([0, 1]);
                Status::Ongoing
            }
            Some(side) => Status::Over(search_core::Outcome::Payoff(f64::from(side))),
        }
    }

    fn play(&mut self, side: u8) {
        self.tossed = Some(side);
    }

    fn chance_probabilities(&self, _: &[u8], probs: &mut Vec<f64>) {
        probs.extend(self.probs);
    }
}

// ---------------------------------------------------------------------------
// Helpers.

/// The error `Search::new` gives for `rule`, `eval` and `options` on game
/// `G`; panics if the search is accepted.
fn refused<G: Game, R: Backup, E: Evaluator<G>>(rule: R, eval: E, options: Options) -> ParamError {
    match Search::<G, R, E>::new(rule, eval, options) {
        Ok(_) => panic!("accepted"),
        Err(e) => e,
    }
}

/// Whether `Search::new` accepts `rule`, `eval` and `options` on game `G`.
fn accepted<G: Game, R: Backup, E: Evaluator<G>>(rule: R, eval: E, options: Options) -> bool {
    Search::<G, R, E>::new(rule, eval, options).is_ok()
}

/// The name of the parameter a search error names, if it is a parameter
/// error.
fn param_name<T>(result: Result<T, GameError>) -> Option<&'static str> {
    match result {
        Err(GameError::Param(p)) => Some(p.name),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Transposition tables.

#[test]
fn a_table_on_a_game_without_hash_keys_is_refused() {
    const { assert!(!Counter::HASHED) };
    let e = refused::<Counter, _, _>(Minimax, CounterEval, Options::plain_alpha_beta().with_table_mib(1));
    assert_eq!(e.name, "table_mib");
    let e = refused::<Counter, _, _>(Minimax, CounterEval, Options::default());
    assert_eq!(e.name, "table_mib", "the default table too");
    assert!(accepted::<Counter, _, _>(Minimax, CounterEval, Options::default().with_table_mib(0)));
}

#[test]
fn a_table_size_that_overflows_is_refused() {
    let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, Options::default().with_table_mib(usize::MAX));
    assert_eq!(e.name, "table_mib");
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::default().with_table_mib(1)));
}

#[test]
fn a_table_above_max_table_mib_is_refused() {
    let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, Options::default().with_table_mib(MAX_TABLE_MIB + 1));
    assert_eq!(e.name, "table_mib");
    // The largest size passes validation (not allocated here: 1 TiB).
    let largest = Options::default().with_table_mib(MAX_TABLE_MIB);
    assert!(largest.validate::<LiteralTree, Minimax, _>(&LiteralEval).is_ok());
}

#[test]
fn a_failed_set_table_mib_keeps_the_old_table() {
    let t = RandomTree::new(3, 3, 5, LeafModel::Uniform { min: -9, max: 9 }).unwrap();
    let eval = RandomTreeEval::default();
    let limits = Limits::depth(5);
    let counters = |r: &SearchResult<u8>| (r.value, r.stats.nodes, r.stats.leaves, r.stats.tt_cuts);
    // A control search: run, run again (the second run uses the table the
    // first filled).
    let mut control = Search::new(Minimax, eval, Options::default()).unwrap();
    let c1 = control.run(&t, &limits).unwrap();
    let c2 = control.run(&t, &limits).unwrap();
    assert!(c2.stats.tt_cuts > 0, "the table is used");
    // The same with failed resizes in between: the table, its contents and
    // the options are untouched.
    let mut s = Search::new(Minimax, eval, Options::default()).unwrap();
    let before = s.options().clone();
    let r1 = s.run(&t, &limits).unwrap();
    for mib in [usize::MAX, MAX_TABLE_MIB + 1] {
        assert_eq!(s.set_table_mib(mib).unwrap_err().name, "table_mib");
        assert_eq!(s.options(), &before);
    }
    let r2 = s.run(&t, &limits).unwrap();
    assert_eq!((counters(&r1), counters(&r2)), (counters(&c1), counters(&c2)));
    // A resize that would give a table to a game without keys, or to a
    // search that does not prune, fails and keeps "no table".
    let mut s = Search::new(Minimax, CounterEval, Options::default().with_table_mib(0)).unwrap();
    assert_eq!(s.set_table_mib(1).unwrap_err().name, "table_mib");
    assert_eq!(s.options().table_mib, 0);
    let mut s: Box<dyn DynSearch<LiteralTree>> =
        Box::new(Search::new(Minimax, LiteralEval, Options::full_width()).unwrap());
    assert_eq!(s.set_table_mib(1).unwrap_err().name, "table_mib");
    assert_eq!(s.options(), &Options::full_width());
    // A valid resize goes through.
    let mut s = Search::new(Minimax, LiteralEval, Options::default()).unwrap();
    s.set_table_mib(2).unwrap();
    assert_eq!(s.options().table_mib, 2);
    assert_eq!(s.run(&tree(), &Limits::full_tree()).unwrap().value, Some(3.0));
}

// ---------------------------------------------------------------------------
// Pruning options against the rule.

/// Alpha-beta is refused for `rule`, full width accepted.
fn assert_cannot_prune<R: Backup + Clone>(rule: R) {
    let name = rule.name();
    let e = refused::<LiteralTree, _, _>(rule.clone(), LiteralEval, Options::plain_alpha_beta());
    assert_eq!(e.name, "alpha_beta", "{name}");
    let e = refused::<LiteralTree, _, _>(rule.clone(), LiteralEval, Options::default());
    assert_eq!(e.name, "alpha_beta", "{name}: the default engine");
    assert!(accepted::<LiteralTree, _, _>(rule, LiteralEval, Options::full_width()), "{name}");
}

#[test]
fn alpha_beta_with_a_rule_that_cannot_prune_is_refused() {
    assert_cannot_prune(Rminimax::new(1.0).unwrap());
    assert_cannot_prune(Predictive::new(0.5).unwrap());
    assert_cannot_prune(Emm::new(ConstantError::new(0.1).unwrap()));
    assert_cannot_prune(Product::new(1.0).unwrap());
    assert_cannot_prune(MAndN::new(2, 2, LinearBonus::new(1.0, 4.0).unwrap()).unwrap());
    // Rules that prune accept it.
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta()));
    assert!(accepted::<LiteralTree, _, _>(Iom::new(), LiteralEval, Options::plain_alpha_beta()));
}

/// `options` (full width plus one alpha-beta option) is refused for
/// minimax without alpha-beta and for a rule that cannot prune, naming
/// `name`; the option is accepted with alpha-beta.
fn assert_needs_pruning(name: &str, with: fn(Options) -> Options) {
    let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, with(Options::full_width()));
    assert_eq!(e.name, name);
    let e = refused::<LiteralTree, _, _>(Rminimax::new(1.0).unwrap(), LiteralEval, with(Options::full_width()));
    assert_eq!(e.name, name);
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, with(Options::plain_alpha_beta())));
}

#[test]
fn pvs_without_pruning_is_refused() {
    assert_needs_pruning("pvs", |o| o.with_pvs(true));
}

#[test]
fn killers_without_pruning_are_refused() {
    assert_needs_pruning("killers", |o| o.with_killers(true));
}

#[test]
fn history_without_pruning_is_refused() {
    assert_needs_pruning("history", |o| o.with_history(true));
}

#[test]
fn a_table_without_pruning_is_refused() {
    assert_needs_pruning("table_mib", |o| o.with_table_mib(1));
}

/// Alpha-beta plus one negamax-only option is refused for IOM
/// (`Pruning::Windows`), naming `name`, and accepted for minimax.
fn assert_needs_negamax(name: &str, with: fn(Options) -> Options) {
    let e = refused::<LiteralTree, _, _>(Iom::new(), BoundedEval, with(Options::plain_alpha_beta()));
    assert_eq!(e.name, name);
    // Accepted with the full engine (deepening and a table: what aspiration
    // windows and `TtDepth::AtLeast` act on).
    assert!(accepted::<LiteralTree, _, _>(Minimax, BoundedEval, with(Options::default())), "{name}");
    // Without alpha-beta the option would do nothing for minimax either.
    let e = refused::<LiteralTree, _, _>(Minimax, BoundedEval, with(Options::full_width()));
    assert_eq!(e.name, name);
}

#[test]
fn aspiration_needs_a_negamax_rule() {
    assert_needs_negamax("aspiration", |o| o.with_aspiration(Some(1.0)));
}

#[test]
fn quiescence_needs_a_negamax_rule() {
    assert_needs_negamax("quiescence", |o| o.with_quiescence(true));
}

#[test]
fn null_move_needs_a_negamax_rule() {
    assert_needs_negamax("null_move", |o| o.with_null_move(Some(2)));
}

#[test]
fn lmr_and_check_extension_need_a_negamax_rule() {
    assert_needs_negamax("lmr", |o| o.with_lmr(Some(Lmr::default())));
    assert_needs_negamax("check_extension", |o| o.with_check_extension(true));
    assert_needs_negamax("futility", |o| o.with_futility(Some(1.0)));
    assert_needs_negamax("reverse_futility", |o| {
        o.with_reverse_futility(Some(ReverseFutility { max_depth: 3, margin: 1.0 }))
    });
    assert_needs_negamax("late_move_pruning", |o| {
        o.with_late_move_pruning(Some(LateMovePruning { max_depth: 3, base: 3 }))
    });
}

#[test]
fn history_malus_needs_history_and_a_negamax_rule() {
    assert_needs_negamax("history_malus", |o| o.with_history_malus(true));
    let without_history = Options::default().with_history(false).with_history_malus(true);
    assert_eq!(refused::<LiteralTree, _, _>(Minimax, BoundedEval, without_history).name, "history_malus");
}

#[test]
fn bad_pruning_depths_and_margins_are_refused() {
    let rf = |max_depth, margin| {
        Options::plain_alpha_beta().with_reverse_futility(Some(ReverseFutility { max_depth, margin }))
    };
    for (d, m) in [(0, 1.0), (3, 0.0), (3, -1.0), (3, f64::NAN), (3, f64::INFINITY)] {
        assert_eq!(refused::<LiteralTree, _, _>(Minimax, LiteralEval, rf(d, m)).name, "reverse_futility", "{d} {m}");
    }
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, rf(1, 0.5)));
    let lmp =
        |max_depth| Options::plain_alpha_beta().with_late_move_pruning(Some(LateMovePruning { max_depth, base: 0 }));
    assert_eq!(refused::<LiteralTree, _, _>(Minimax, LiteralEval, lmp(0)).name, "late_move_pruning");
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, lmp(1)));
}

/// Reverse futility pruning takes its guess exactly when the static value
/// less the margin reaches β: `B`'s static value (−0.5, good for `min`)
/// makes the null-window probe of `B` fail high for `min` at depth 1, so
/// with a small margin the root never sees `B`'s 0.8; with a margin that
/// keeps the bound below β it does. (Values stay inside the literal tree's
/// win of 1: no pruning is tried near a proven result.)
#[test]
fn reverse_futility_cuts_on_the_static_value_only_within_its_margin() {
    let t: LiteralTree = "max(A=min(0.3, 0.4), B=min[-0.5](0.8, 0.9))".parse().unwrap();
    let run = |margin: f64| {
        let o = Options::plain_alpha_beta()
            .with_pvs(true)
            .with_reverse_futility(Some(ReverseFutility { max_depth: 1, margin }));
        Search::new(Minimax, LiteralEval, o).unwrap().run(&t, &Limits::depth(2)).unwrap()
    };
    // From `min`'s side B's static value is 0.5 and β is −0.3: 0.5 − 0.1 ≥ −0.3.
    let cut = run(0.1);
    assert_eq!((cut.value, cut.stats.reverse_futile), (Some(0.3), 1));
    assert_eq!(cut.best, t.move_to("A"));
    // 0.5 − 2 < −0.3: B is searched and its 0.8 wins.
    let searched = run(2.0);
    assert_eq!((searched.value, searched.stats.reverse_futile), (Some(0.8), 0));
    assert_eq!(searched.best, t.move_to("B"));
}

#[test]
fn a_futility_margin_must_be_positive_and_finite() {
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let o = Options::plain_alpha_beta().with_futility(Some(bad));
        assert_eq!(refused::<LiteralTree, _, _>(Minimax, LiteralEval, o).name, "futility", "{bad}");
    }
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta().with_futility(Some(0.5))));
}

#[test]
fn bad_lmr_parameters_are_refused() {
    let lmr = |min_depth, min_index, divisor| {
        Options::plain_alpha_beta().with_lmr(Some(Lmr { min_depth, min_index, divisor }))
    };
    for (d, i, q) in [(1, 3, 2.0), (3, 0, 2.0), (3, 3, 0.0), (3, 3, f64::NAN), (3, 3, f64::INFINITY)] {
        assert_eq!(refused::<LiteralTree, _, _>(Minimax, LiteralEval, lmr(d, i, q)).name, "lmr", "{d} {i} {q}");
    }
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, lmr(2, 1, 0.5)));
}

#[test]
fn lmr_and_extensions_change_nothing_in_a_game_without_the_hooks() {
    // Random trees say no move is quiet and no node needs an extension.
    for seed in 0..20 {
        let t = RandomTree::new(seed, 4, 7, LeafModel::Uniform { min: -9, max: 9 }).unwrap();
        let run = |o: Options| {
            Search::new(Minimax, RandomTreeEval::for_tree(&t), o).unwrap().run(&t, &Limits::depth(7)).unwrap()
        };
        let plain = run(Options::plain_alpha_beta().with_pvs(true));
        let with = run(Options::plain_alpha_beta()
            .with_pvs(true)
            .with_lmr(Some(Lmr::default()))
            .with_check_extension(true)
            .with_futility(Some(1.0))
            .with_late_move_pruning(Some(LateMovePruning { max_depth: 7, base: 0 })));
        assert_eq!((plain.value, plain.best, plain.stats.nodes), (with.value, with.best, with.stats.nodes));
        assert_eq!((with.stats.reductions, with.stats.futile, with.stats.late_pruned), (0, 0, 0));
    }
}

#[test]
fn lmr_reductions_grow_with_depth_and_index_and_keep_a_ply() {
    let l = Lmr::default();
    for depth in 0..40 {
        for index in 0..80 {
            let r = l.reduction(depth, index);
            if depth < l.min_depth || index < l.min_index {
                assert_eq!(r, 0);
            } else {
                assert!(r >= 1 && r + 2 <= depth.max(3), "{depth} {index} {r}");
                assert!(l.reduction(depth + 1, index) >= r && l.reduction(depth, index + 1) >= r);
            }
        }
    }
}

#[test]
fn beam_needs_a_negamax_rule() {
    assert_needs_negamax("beam", |o| o.with_beam(Some(2)));
}

#[test]
fn probcut_needs_a_negamax_rule() {
    assert_needs_negamax("probcut", |o| o.with_probcut(Some(ProbCut { min_depth: 3, reduction: 1, margin: 1.0 })));
}

#[test]
fn star_needs_a_negamax_rule() {
    assert_needs_negamax("star", |o| o.with_star(Star::Star1));
    assert_needs_negamax("star", |o| o.with_star(Star::Star2));
}

#[test]
fn tt_depth_at_least_needs_a_negamax_rule() {
    assert_needs_negamax("tt_depth", |o| o.with_tt_depth(TtDepth::AtLeast));
}

#[test]
fn star_needs_evaluator_bounds() {
    assert_eq!(<LiteralEval as Evaluator<LiteralTree>>::bounds(&LiteralEval), None);
    for star in [Star::Star1, Star::Star2] {
        let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta().with_star(star));
        assert_eq!(e.name, "star", "{star:?}");
        assert!(accepted::<LiteralTree, _, _>(Minimax, BoundedEval, Options::plain_alpha_beta().with_star(star)));
    }
}

// ---------------------------------------------------------------------------
// Option values out of their domain.

#[test]
fn a_beam_of_zero_is_refused() {
    let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta().with_beam(Some(0)));
    assert_eq!(e.name, "beam");
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta().with_beam(Some(1))));
}

#[test]
fn zero_chance_samples_are_refused() {
    let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, Options::full_width().with_chance_samples(Some(0)));
    assert_eq!(e.name, "chance_samples");
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::full_width().with_chance_samples(Some(1))));
}

#[test]
fn a_null_move_reduction_of_zero_is_refused() {
    let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta().with_null_move(Some(0)));
    assert_eq!(e.name, "null_move");
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::plain_alpha_beta().with_null_move(Some(1))));
}

#[test]
fn bad_probcut_parameters_are_refused() {
    let probcut = |min_depth, reduction, margin| {
        Options::plain_alpha_beta().with_probcut(Some(ProbCut { min_depth, reduction, margin }))
    };
    for (min_depth, reduction, margin) in [
        (3, 0, 1.0),           // no reduction
        (3, 3, 1.0),           // the shallow search would be at depth 0
        (3, 5, 1.0),           // ... or below
        (3, 1, f64::NAN),      // a margin that is not a number
        (3, 1, f64::INFINITY), // ... or infinite
        (3, 1, f64::NEG_INFINITY),
    ] {
        let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, probcut(min_depth, reduction, margin));
        assert_eq!(e.name, "probcut", "{min_depth} {reduction} {margin}");
    }
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, probcut(3, 2, -0.5)));
}

#[test]
fn an_aspiration_window_that_is_nan_or_not_positive_is_refused() {
    for width in [f64::NAN, 0.0, -0.0, -1.0, f64::NEG_INFINITY, f64::INFINITY] {
        let options = Options::plain_alpha_beta().with_aspiration(Some(width));
        let e = refused::<LiteralTree, _, _>(Minimax, LiteralEval, options);
        assert_eq!(e.name, "aspiration", "{width}");
    }
    let options = Options::plain_alpha_beta().with_iterative_deepening(true).with_aspiration(Some(1e-9));
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, options));
}

#[test]
fn options_that_would_do_nothing_are_refused() {
    // Aspiration windows centre on the previous iteration's value.
    let options = Options::plain_alpha_beta().with_aspiration(Some(1.0));
    assert_eq!(refused::<LiteralTree, _, _>(Minimax, LiteralEval, options).name, "aspiration");
    // TtDepth::AtLeast says how table entries are used: without a table.
    let options = Options::default().with_table_mib(0).with_tt_depth(TtDepth::AtLeast);
    assert_eq!(refused::<LiteralTree, _, _>(Minimax, LiteralEval, options).name, "tt_depth");
    let options = Options::default().with_tt_depth(TtDepth::AtLeast);
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, options));
}

// ---------------------------------------------------------------------------
// Limits.

#[test]
fn a_depth_limit_of_zero_is_refused() {
    assert_eq!(Limits::depth(0).validate().unwrap_err().name, "depth");
    let mut s = Search::new(Minimax, LiteralEval, Options::default()).unwrap();
    assert_eq!(param_name(s.run(&tree(), &Limits::depth(0))), Some("depth"));
    assert_eq!(param_name(s.run(&tree(), &Limits::nodes(100).with_depth(0))), Some("depth"));
    assert_eq!(s.run(&tree(), &Limits::depth(1)).unwrap().stats.depth, 1);
}

#[test]
fn a_node_limit_of_zero_is_refused() {
    assert_eq!(Limits::nodes(0).validate().unwrap_err().name, "nodes");
    let mut s = Search::new(Minimax, LiteralEval, Options::default()).unwrap();
    assert_eq!(param_name(s.run(&tree(), &Limits::nodes(0))), Some("nodes"));
    assert_eq!(param_name(s.run(&tree(), &Limits::depth(2).with_nodes(0))), Some("nodes"));
    assert!(s.run(&tree(), &Limits::nodes(1)).is_ok());
}

// ---------------------------------------------------------------------------
// Temperatures and distributions.

/// θ values that are refused: NaN, zero, negative, subnormal.
const BAD_THETAS: [f64; 7] = [f64::NAN, 0.0, -0.0, -1.0, f64::NEG_INFINITY, 1e-310, -1e-310];

#[test]
fn a_bad_theta_is_refused_by_rminimax() {
    assert!(1e-310 > 0.0 && !1e-310f64.is_normal(), "1e-310 is subnormal");
    for theta in BAD_THETAS {
        assert_eq!(Rminimax::new(theta).unwrap_err().name, "theta", "{theta}");
    }
    for theta in [f64::MIN_POSITIVE, 1e-6, 1.0, f64::INFINITY] {
        assert!(Rminimax::new(theta).is_ok(), "{theta}");
    }
}

#[test]
fn a_bad_theta_is_refused_by_softmax() {
    for theta in BAD_THETAS {
        assert_eq!(Softmax::new(theta).unwrap_err().name, "theta", "{theta}");
    }
    for theta in [f64::MIN_POSITIVE, 1e-6, 1.0, f64::INFINITY] {
        assert!(Softmax::new(theta).is_ok(), "{theta}");
    }
}

#[test]
fn distributions_refuse_infinite_and_nan_scores() {
    let dists: [(&str, Box<dyn MoveDistribution>); 4] = [
        ("greedy", Box::new(Greedy)),
        ("softmax", Box::new(Softmax::new(1.0).unwrap())),
        ("softmax θ = ∞", Box::new(Softmax::new(f64::INFINITY).unwrap())),
        ("epsilon-greedy", Box::new(EpsilonGreedy::new(0.5).unwrap())),
    ];
    for (name, dist) in &dists {
        for scores in [[1.0, f64::INFINITY], [f64::NEG_INFINITY, 0.0], [f64::NAN, 0.0], [2.0, f64::NAN]] {
            let mut out = vec![0.25; 3];
            let e = dist.distribution(&scores, &mut out).unwrap_err();
            assert_eq!(e.name, "scores", "{name} {scores:?}");
            assert!(out.is_empty(), "{name} {scores:?}: out is left empty");
        }
        let mut out = Vec::new();
        dist.distribution(&[1.0, 2.0], &mut out).unwrap();
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{name}");
    }
}

// ---------------------------------------------------------------------------
// Run-time errors.

#[test]
fn a_root_window_on_a_search_that_does_not_prune_is_refused() {
    let t = tree();
    let limits = Limits::full_tree();
    let mut full = Search::new(Minimax, LiteralEval, Options::full_width()).unwrap();
    assert_eq!(param_name(full.run_with_window(&t, &limits, Window::null_above(2.5))), Some("window"));
    let mut soft = Search::new(Rminimax::new(1.0).unwrap(), LiteralEval, Options::full_width()).unwrap();
    assert_eq!(param_name(soft.run_with_window(&t, &limits, Window::new(0.0, 1.0))), Some("window"));
    // The full window is no window: accepted.
    assert_eq!(full.run_with_window(&t, &limits, Window::FULL).unwrap().value, Some(3.0));
    // A search that prunes takes the window.
    let mut ab = Search::new(Minimax, LiteralEval, Options::plain_alpha_beta()).unwrap();
    assert!(ab.run_with_window(&t, &limits, Window::null_above(2.5)).unwrap().value.unwrap() > 2.5);
}

#[test]
fn an_evaluator_returning_nan_stops_the_search_with_invalid_value() {
    let t = tree();
    for options in [Options::full_width(), Options::plain_alpha_beta(), Options::default()] {
        let mut s = Search::new(Minimax, NanEval, options.clone()).unwrap();
        let r = s.run(&t, &Limits::depth(1));
        assert!(matches!(&r, Err(GameError::InvalidValue { what: "static evaluation", .. })), "{options:?}: {r:?}");
    }
    // IOM values every interior node statically: NaN there too.
    let mut s = Search::new(Iom::new(), NanEval, Options::full_width()).unwrap();
    assert!(matches!(s.run(&t, &Limits::full_tree()), Err(GameError::InvalidValue { .. })));
    // Searched to the end, minimax never calls the evaluator.
    let mut s = Search::new(Minimax, NanEval, Options::full_width()).unwrap();
    assert_eq!(s.run(&t, &Limits::full_tree()).unwrap().value, Some(3.0));
}

#[test]
fn chance_probabilities_that_are_not_a_distribution_are_invalid_chance() {
    for probs in [[0.9, 0.9], [f64::NAN, 0.5], [1.5, -0.5]] {
        let coin = Coin { probs, tossed: None };
        for options in [Options::full_width(), Options::plain_alpha_beta()] {
            let mut s = Search::new(Minimax, OutcomeEval, options).unwrap();
            let r = s.run(&coin, &Limits::full_tree());
            assert!(matches!(&r, Err(GameError::InvalidChance { .. })), "{probs:?}: {r:?}");
        }
    }
    let fair = Coin { probs: [0.5, 0.5], tossed: None };
    let mut s = Search::new(Minimax, OutcomeEval, Options::full_width()).unwrap();
    assert_eq!(s.run(&fair, &Limits::full_tree()).unwrap().value, Some(0.5));
}

/// Payoffs as they are.
#[derive(Clone, Copy, Debug)]
struct OutcomeEval;

impl Evaluator<Coin> for OutcomeEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, _: &Coin) -> f64 {
        0.0
    }
}

#[test]
fn an_agent_asked_to_move_at_a_chance_node_is_refused() {
    let t: LiteralTree = "chance(1, min(2, 3))".parse().unwrap();
    let mut agent = SearchAgent::new(Search::recommended(Minimax, LiteralEval).unwrap(), Limits::full_tree());
    assert_eq!(agent.choose(&t, &mut rng::seeded(1)), Err(GameError::ChanceNode));
    let mut policy =
        rminimax_agent(1.0, search_core::backup::rminimax::UtilityCosts::default(), LiteralEval, Limits::full_tree())
            .unwrap();
    assert_eq!(policy.choose(&t, &mut rng::seeded(1)), Err(GameError::ChanceNode));
    // At a player node it moves.
    let mut below = t.clone();
    below.play(1);
    assert_eq!(agent.choose(&below, &mut rng::seeded(1)), Ok(0));
}

#[test]
fn a_tree_deeper_than_max_ply_is_incomplete() {
    for options in [Options::full_width(), Options::default().with_table_mib(0)] {
        let mut s = Search::new(Minimax, CounterEval, options.clone()).unwrap();
        let r = s.run(&Counter(0), &Limits::full_tree()).unwrap();
        assert!(!r.complete, "{options:?}");
        assert_eq!(r.incomplete, Some(Incomplete::MaxPly), "{options:?}");
        // Cut at MAX_PLY: the node there is valued statically.
        assert_eq!(r.value, Some(CounterEval.evaluate(&Counter(MAX_PLY))), "{options:?}");
        assert_eq!(r.pv.len(), MAX_PLY as usize);
    }
    // A depth limit within MAX_PLY answers the question asked.
    let mut s = Search::new(Minimax, CounterEval, Options::full_width()).unwrap();
    let r = s.run(&Counter(0), &Limits::depth(10)).unwrap();
    assert!(r.complete);
    assert_eq!(r.incomplete, None);
}

#[test]
fn a_search_cut_at_max_ply_by_a_clamped_or_absent_depth_limit_is_incomplete() {
    // `Limits` documents: "A depth above MAX_PLY is clamped to it, and a
    // search cut there reports itself incomplete." The node at MAX_PLY then
    // has depth 0 left, so it is not flagged (core.rs flags only
    // `ply >= MAX_PLY && depth > 0`).
    for limits in [Limits::depth(MAX_PLY + 1), Limits::depth(5000), Limits::nodes(10_000_000)] {
        for options in [Options::full_width(), Options::default().with_table_mib(0)] {
            let mut s = Search::new(Minimax, CounterEval, options.clone()).unwrap();
            let r = s.run(&Counter(0), &limits).unwrap();
            assert_eq!((r.complete, r.incomplete), (false, Some(Incomplete::MaxPly)), "{limits:?} {options:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Observers.

#[test]
fn an_observer_that_removes_every_root_move_is_an_error() {
    struct Drop;
    impl Observer<LiteralTree> for Drop {
        fn root_moves(&mut self, _: &LiteralTree, _: u32, moves: &mut Vec<u32>) {
            moves.clear();
        }
    }
    for options in [Options::full_width(), Options::default()] {
        let mut s = Search::new(Minimax, LiteralEval, options).unwrap();
        assert_eq!(param_name(s.run_observed(&tree(), &Limits::full_tree(), &mut Drop)), Some("observer"));
    }
    // Below the root too.
    struct DropBelow;
    impl Observer<LiteralTree> for DropBelow {
        fn traces_nodes(&self) -> bool {
            true
        }
        fn node_moves(&mut self, _: &[u32], _: &LiteralTree, moves: &mut Vec<u32>) {
            moves.clear();
        }
    }
    let mut s = Search::new(Minimax, LiteralEval, Options::full_width()).unwrap();
    assert_eq!(param_name(s.run_observed(&tree(), &Limits::full_tree(), &mut DropBelow)), Some("observer"));
}

/// A random tree deep enough for several iterations.
fn deep_tree() -> RandomTree {
    RandomTree::new(17, 3, 7, LeafModel::Uniform { min: -20, max: 20 }).unwrap()
}

#[test]
fn the_iteration_hook_sees_every_depth_and_can_stop() {
    let t = deep_tree();
    let mut s = Search::new(Minimax, RandomTreeEval::default(), Options::default()).unwrap();
    let mut seen: Vec<(u32, f64, Option<u8>)> = Vec::new();
    let mut watch = |it: &Iteration<'_, u8>| {
        assert!(it.stats.nodes > 0 && it.pv.first() == it.best.as_ref());
        seen.push((it.depth, it.value, it.best));
        Control::Continue
    };
    let r = s.run_observed(&t, &Limits::depth(5), &mut watch).unwrap();
    let depths: Vec<u32> = seen.iter().map(|s| s.0).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "once per depth, increasing");
    let last = seen.last().unwrap();
    assert_eq!((r.value, r.best), (Some(last.1), last.2));

    // Stop after the first iteration: its result, still complete.
    let mut calls = 0;
    let mut first = None;
    let mut stop = |it: &Iteration<'_, u8>| {
        calls += 1;
        first = Some((it.value, it.best));
        Control::Stop
    };
    s.clear();
    let r = s.run_observed(&t, &Limits::depth(5), &mut stop).unwrap();
    assert_eq!(calls, 1);
    assert_eq!(r.stats.depth, 1);
    assert!(r.complete);
    assert_eq!(first, Some((r.value.unwrap(), r.best)));
    assert_eq!((r.value, r.best), (Some(seen[0].1), seen[0].2));
    // A single iteration (no deepening) calls it once.
    let mut calls = 0;
    let mut count = |_: &Iteration<'_, u8>| {
        calls += 1;
        Control::Continue
    };
    let mut plain = Search::new(Minimax, RandomTreeEval::default(), Options::full_width()).unwrap();
    plain.run_observed(&t, &Limits::depth(4), &mut count).unwrap();
    assert_eq!(calls, 1);
}

#[test]
fn reordering_the_root_moves_reorders_the_result() {
    /// Reverses the root moves, recording the depths it is called at.
    struct Reverse(Vec<u32>);
    impl Observer<LiteralTree> for Reverse {
        fn root_moves(&mut self, _: &LiteralTree, depth: u32, moves: &mut Vec<u32>) {
            self.0.push(depth);
            moves.reverse();
        }
    }
    let t = tree();
    let order = |r: &SearchResult<u32>| r.root_moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    // Full width, and alpha-beta in the game's order (the game's hints tie,
    // so the observer's order stands).
    for options in [Options::full_width(), Options::plain_alpha_beta().with_game_ordering(true)] {
        let mut s = Search::new(Minimax, LiteralEval, options.clone()).unwrap();
        let plain = s.run(&t, &Limits::full_tree()).unwrap();
        assert_eq!(order(&plain), [0, 1, 2], "{options:?}");
        let mut reverse = Reverse(Vec::new());
        let r = s.run_observed(&t, &Limits::full_tree(), &mut reverse).unwrap();
        assert_eq!(order(&r), [2, 1, 0], "{options:?}");
        assert_eq!(reverse.0.len(), 1, "called once per iteration");
        assert_eq!((r.value, r.best), (Some(3.0), Some(0)), "{options:?}");
    }
    // Full width: the same scores, in the observer's order.
    let mut s = Search::new(Minimax, LiteralEval, Options::full_width()).unwrap();
    let plain = s.run(&t, &Limits::full_tree()).unwrap();
    let r = s.run_observed(&t, &Limits::full_tree(), &mut Reverse(Vec::new())).unwrap();
    let mut scores = r.scores();
    scores.reverse();
    assert_eq!(scores, plain.scores());
    // Dropping a move leaves it out of the result.
    struct KeepLast;
    impl Observer<LiteralTree> for KeepLast {
        fn root_moves(&mut self, _: &LiteralTree, _: u32, moves: &mut Vec<u32>) {
            moves.drain(..moves.len() - 1);
        }
    }
    let r = s.run_observed(&t, &Limits::full_tree(), &mut KeepLast).unwrap();
    assert_eq!((order(&r), r.value), (vec![2], Some(2.0)));
}

#[test]
fn tracing_sees_exactly_the_nodes_counted() {
    /// Counts the nodes it is shown and checks each path leads to the node.
    struct Trace {
        root: RandomTree,
        nodes: u64,
        deepest: usize,
    }
    impl Observer<RandomTree> for Trace {
        fn traces_nodes(&self) -> bool {
            true
        }
        fn node(&mut self, path: &[u8], state: &RandomTree) {
            let mut s = self.root;
            for &mv in path {
                s.play(mv);
            }
            assert_eq!(s.node_id(), state.node_id(), "the path leads to the node");
            self.nodes += 1;
            self.deepest = self.deepest.max(path.len());
        }
    }
    let t = deep_tree();
    let options = Options::plain_alpha_beta();
    assert!(!options.quiescence);
    let mut s = Search::new(Minimax, RandomTreeEval::default(), options).unwrap();
    let mut trace = Trace { root: t, nodes: 0, deepest: 0 };
    let r = s.run_observed(&t, &Limits::depth(5), &mut trace).unwrap();
    assert_eq!(trace.nodes, r.stats.nodes);
    assert_eq!(trace.deepest, 5);
    assert_eq!(r.value, s.run(&t, &Limits::depth(5)).unwrap().value, "tracing changes nothing");

    // Without `traces_nodes`, `node` is never called.
    struct Silent(u64);
    impl Observer<RandomTree> for Silent {
        fn node(&mut self, _: &[u8], _: &RandomTree) {
            self.0 += 1;
        }
    }
    let mut silent = Silent(0);
    s.run_observed(&t, &Limits::depth(5), &mut silent).unwrap();
    assert_eq!(silent.0, 0);
}

/// A value type without a conversion from numbers.
#[derive(Debug, Clone, Copy)]
struct Opaque(f64);

impl search_core::backup::BackupValue for Opaque {
    fn scalar(&self) -> f64 {
        self.0
    }
}

/// A max rule that claims to prune but whose values cannot be made from
/// numbers (table hits and bounds could not be turned into values).
struct OpaqueMax;

impl Backup for OpaqueMax {
    type Value = Opaque;
    type Acc = f64;
    const PRUNING: search_core::backup::Pruning = search_core::backup::Pruning::Negamax;
    fn leaf(&self, _: &search_core::backup::NodeInfo, leaf: search_core::backup::Leaf) -> Opaque {
        Opaque(leaf.value())
    }
    fn open(&self, _: &search_core::backup::NodeInfo) -> f64 {
        f64::NEG_INFINITY
    }
    fn add(&self, _: &search_core::backup::NodeInfo, acc: &mut f64, c: &search_core::backup::ChildInfo, v: Opaque) {
        *acc = acc.max(c.to_parent(v.0));
    }
    fn close(&self, _: &search_core::backup::NodeInfo, acc: f64) -> Opaque {
        Opaque(acc)
    }
}

#[test]
fn a_pruning_rule_whose_values_cannot_be_made_from_numbers_is_refused() {
    // Refused even at full width: the capability itself is inconsistent.
    let e = refused::<LiteralTree, _, _>(OpaqueMax, LiteralEval, Options::full_width());
    assert_eq!(e.name, "rule");
    assert!(accepted::<LiteralTree, _, _>(Minimax, LiteralEval, Options::full_width()));
}
