//! Predictive play (Reibman and Ballard 1983) and the noise-based imperfect
//! player: Fig. 1, the weights, an independent naive implementation on
//! random trees, and the noise model's error rates.

use search_core::backup::{Minimax, Predictive, PsWeights};
use search_core::opponent::NoisyPlayer;
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::tree::{LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, Evaluator, Game, Player, Status, Turn, rng};

const FIG1: &str = "max(min(0, 0), min(0, 1))";

/// The expected payoff of a root move of a depth-2 tree against a min that
/// plays its best reply with probability `1 − err` and otherwise the other
/// one (two replies).
fn payoff_against_erring_min(t: &LiteralTree, mv: u32, err: f64) -> f64 {
    let mut c = t.clone();
    c.play(mv);
    let mut leaves: Vec<f64> = c
        .children()
        .iter()
        .map(|&m| {
            let mut l = c.clone();
            l.play(m);
            l.static_value().unwrap()
        })
        .collect();
    leaves.sort_by(f64::total_cmp);
    (1.0 - err) * leaves[0] + err * leaves[1]
}

#[test]
fn figure_1_forced_loss() {
    let t: LiteralTree = FIG1.parse().unwrap();
    // Minimax: both moves are worth 0; a random pick expects 0.05 against
    // a min that errs 10% of the time.
    let mm = Search::new(Minimax, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
    assert_eq!(mm.best_moves, vec![0, 1]);
    let minimax_expected: f64 =
        mm.best_moves.iter().map(|&m| payoff_against_erring_min(&t, m, 0.1)).sum::<f64>() / mm.best_moves.len() as f64;
    assert!((minimax_expected - 0.05).abs() < 1e-15);

    // Predictive play, PS = 0.9: the right branch. Normalised weights
    // 0.9, 0.09 (÷ 0.99) value it 0.09/0.99 = 1/11; unnormalised 0.09.
    for (weights, value) in [(PsWeights::Normalised, 0.09 / 0.99), (PsWeights::Unnormalised, 0.09)] {
        let rule = Predictive::new(0.9).unwrap().with_weights(weights);
        let r = Search::new(rule, LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::full_tree()).unwrap();
        assert_eq!(r.best_moves, vec![1]);
        assert_eq!(r.root_moves[0].score, 0.0);
        let v = r.value.unwrap();
        assert!((v - value).abs() < 1e-15, "{weights:?}: {v}");
        assert!((payoff_against_erring_min(&t, r.best.unwrap(), 0.1) - 0.1).abs() < 1e-15);
    }
    // The figure's 0.9·0 + 0.1·1 = 0.1 is "min errs 10% of the time": with
    // two replies and normalised weights that is PS/(PS + (1−PS)PS) = 0.9,
    // i.e. PS = 8/9.
    let r = Search::new(Predictive::new(8.0 / 9.0).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    assert!((r.value.unwrap() - 0.1).abs() < 1e-15);
}

#[test]
fn figure_1_played_out_against_an_erring_min() {
    // Min errs 10% of the time (a test agent). Over many seeded games
    // predictive play collects about 0.1 per game and minimax (random tie
    // breaking) about 0.05.
    struct ErringMin;
    impl Agent<LiteralTree> for ErringMin {
        fn name(&self) -> String {
            "erring min".into()
        }
        fn choose(&mut self, s: &LiteralTree, rng: &mut dyn rand::RngCore) -> Result<u32, search_core::GameError> {
            let mut best =
                Search::new(Minimax, LiteralEval, Options::full_width())?.run(s, &Limits::full_tree())?.best.unwrap();
            if rand::Rng::random::<f64>(rng) < 0.1 {
                best = 1 - best;
            }
            Ok(best)
        }
    }
    let t: LiteralTree = FIG1.parse().unwrap();
    let games = 20_000u64;
    let mean = |agent: &mut dyn Agent<LiteralTree>| {
        let mut total = 0.0;
        for g in 0..games {
            let rec = search_core::arena::play_match(&t, agent, &mut ErringMin, rng::derive_seed(11, g), None).unwrap();
            if let Some(search_core::Outcome::Payoff(v)) = rec.outcome {
                total += v;
            }
        }
        total / games as f64
    };
    let mut pp = SearchAgent::new(
        Search::new(Predictive::new(0.9).unwrap(), LiteralEval, Options::full_width()).unwrap(),
        Limits::full_tree(),
    );
    let mut mm =
        SearchAgent::new(Search::new(Minimax, LiteralEval, Options::full_width()).unwrap(), Limits::full_tree());
    let (p, m) = (mean(&mut pp), mean(&mut mm));
    // Standard errors: √(0.09/20000) ≈ 0.0021 and √(0.0475/20000) ≈ 0.0015.
    assert!((p - 0.1).abs() < 4.0 * 0.0021, "{p}");
    assert!((m - 0.05).abs() < 4.0 * 0.0016, "{m}");
}

#[test]
fn weights_on_hand_computed_trees() {
    // Max at the root; min's node valued with PS = ½: min's best first
    // (1, 2, 3), weights ½, ¼, ⅛ (÷ ⅞ when normalised).
    let t: LiteralTree = "max(min(3, 1, 2), 1.5)".parse().unwrap();
    let run = |w| {
        Search::new(Predictive::new(0.5).unwrap().with_weights(w), LiteralEval, Options::full_width())
            .unwrap()
            .run(&t, &Limits::full_tree())
            .unwrap()
    };
    let n = run(PsWeights::Normalised);
    assert!((n.root_moves[0].score - 1.375 / 0.875).abs() < 1e-15);
    assert_eq!((n.value, n.best), (Some(1.375 / 0.875), Some(0)));
    let u = run(PsWeights::Unnormalised);
    assert_eq!(u.root_moves[0].score, 1.375);
    assert_eq!((u.value, u.best), (Some(1.5), Some(1)));

    // Min at the root: max's nodes are now the opponent's, sorted from
    // max's best (3, 2, 1): (½·3 + ¼·2 + ⅛·1)/⅞ = 17/7 for max; min takes
    // the smaller of 17/7 and 5.
    let t: LiteralTree = "min(max(1, 3, 2), 5)".parse().unwrap();
    let r = Search::new(Predictive::new(0.5).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    let v = r.value.unwrap();
    assert!((v + 17.0 / 7.0).abs() < 1e-15, "{v}");
    assert_eq!(r.best, Some(0));

    // PS = 1 is minimax; chance nodes take the expectation.
    let t: LiteralTree = "max(min(3, 1, 2), chance(0.25: 4, 0.75: min(0, 8)))".parse().unwrap();
    let r = Search::new(Predictive::new(1.0).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    assert_eq!((r.value, r.best), (Some(1.0), Some(0)));
    let r = Search::new(Predictive::new(0.5).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    let chance = 0.25 * 4.0 + 0.75 * (0.5 * 0.0 + 0.25 * 8.0) / 0.75;
    assert!((r.root_moves[1].score - chance).abs() < 1e-15);

    for bad in [0.0, -0.5, 1.01, f64::NAN, f64::INFINITY] {
        assert!(Predictive::new(bad).is_err(), "{bad}");
    }
}

/// Independent naive predictive play from the root player's view.
fn naive<G: Game>(s: &G, depth: u32, eval: &impl Evaluator<G>, root: Player, ps: f64, normalise: bool) -> f64 {
    let mut moves = Vec::new();
    match s.generate(&mut moves) {
        Status::Over(o) => eval.terminal_value(o, root, 0),
        Status::Ongoing if depth == 0 => eval.evaluate_for(s, root),
        Status::Ongoing => {
            let mut kids: Vec<f64> = moves
                .iter()
                .map(|&m| {
                    let mut c = s.clone();
                    c.play(m);
                    naive(&c, depth - 1, eval, root, ps, normalise)
                })
                .collect();
            match s.turn() {
                Turn::Player(p) if p == root => kids.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                Turn::Player(_) => {
                    kids.sort_by(f64::total_cmp);
                    let w: Vec<f64> = (0..kids.len()).map(|j| ps * (1.0 - ps).powi(j as i32)).collect();
                    let total: f64 = if normalise { w.iter().sum() } else { 1.0 };
                    kids.iter().zip(&w).map(|(v, w)| v * w).sum::<f64>() / total
                }
                Turn::Chance => {
                    let mut probs = Vec::new();
                    s.chance_probabilities(&moves, &mut probs);
                    kids.iter().zip(&probs).map(|(v, p)| v * p).sum()
                }
            }
        }
    }
}

#[test]
fn predictive_equals_a_naive_implementation_on_random_trees() {
    for i in 0..400 {
        let seed = rng::derive_seed(0x9ED, i);
        let b = 2 + (seed % 4) as u8;
        let d = 1 + ((seed >> 8) % 5) as u8;
        let t = RandomTree::new(seed, b, d, LeafModel::ArcSum { max_arc: 10 }).unwrap();
        let t = if (seed >> 12).is_multiple_of(3) { t.with_branching(1, 5).unwrap() } else { t };
        let limit = if (seed >> 16).is_multiple_of(2) { u32::from(d) } else { u32::from(d).max(2) - 1 };
        let ps = [0.1, 0.5, 0.9, 1.0][((seed >> 20) % 4) as usize];
        let normalise = (seed >> 24).is_multiple_of(2);
        let weights = if normalise { PsWeights::Normalised } else { PsWeights::Unnormalised };
        let eval = RandomTreeEval::default();
        let rule = Predictive::new(ps).unwrap().with_weights(weights);
        let r = Search::new(rule, eval, Options::full_width()).unwrap().run(&t, &Limits::depth(limit)).unwrap();
        let expected = naive(&t, limit, &eval, Player::First, ps, normalise);
        let v = r.value.unwrap();
        assert!((v - expected).abs() <= 1e-9 * (1.0 + expected.abs()), "tree {i}: {v} vs {expected}");
        if ps == 1.0 {
            let mm = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&t, &Limits::depth(limit)).unwrap();
            assert_eq!((r.value, r.best), (mm.value, mm.best), "tree {i}");
        }
    }
}

/// The paper's Table 1 trees: Br = 4, D = 5, arcs 0..=10.
fn table1_tree(i: u64) -> RandomTree {
    RandomTree::new(rng::derive_seed(0x7AB1E, i), 4, 5, LeafModel::ArcSum { max_arc: 10 }).unwrap()
}

#[test]
fn noisy_player_values_children_by_the_best_reply() {
    for i in 0..50 {
        // Min's node after max's first move.
        let mut s = table1_tree(i);
        s.play((i % 4) as u8);
        let eval = RandomTreeEval::default();
        let mut min = NoisyPlayer::new(eval, 0.0).unwrap();
        let values = min.child_values(&s).unwrap();
        for (mv, v) in &values {
            let mut c = s;
            c.play(*mv);
            // The best (largest, first player's view) of max's replies, at
            // their static values (partial arc sums).
            let best_reply = c.children_values(&eval).into_iter().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(*v, -best_reply, "tree {i}");
        }
        // Noise-free, it plays 2-ply minimax (first best in move order).
        let mm = Search::new(Minimax, eval, Options::full_width()).unwrap().run(&s, &Limits::depth(2)).unwrap();
        assert_eq!(min.choose(&s, &mut rng::seeded(i)).unwrap(), mm.best.unwrap(), "tree {i}");
    }
}

/// The static values of a random-tree node's children (first player's
/// view).
trait ChildrenValues {
    fn children_values(&self, eval: &RandomTreeEval) -> Vec<f64>;
}

impl ChildrenValues for RandomTree {
    fn children_values(&self, eval: &RandomTreeEval) -> Vec<f64> {
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut c = *self;
                c.play(m);
                eval.evaluate_for(&c, Player::First)
            })
            .collect()
    }
}

#[test]
fn noise_error_rate_matches_the_uniform_model() {
    // Two moves whose values (min's view, after the divisor) differ by
    // g = 2/75: with noise S the worse one wins when u₀ − u₁ > g/S, which
    // has probability (1 − g/S)²/2 for g < S.
    let t: LiteralTree = "min(max(1, 4), max(6, 2))".parse().unwrap();
    let g = 2.0 / 75.0;
    let draws = 20_000;
    let mut rates = Vec::new();
    for s in [0.05, 0.25, 1.0, 6.0] {
        let mut min = NoisyPlayer::new(LiteralEval, s).unwrap();
        let mut r = rng::seeded(99);
        let errors = (0..draws).filter(|_| min.choose(&t, &mut r).unwrap() == 1).count();
        let p = errors as f64 / f64::from(draws);
        let expected = (1.0 - g / s).powi(2) / 2.0;
        let se = (expected * (1.0 - expected) / f64::from(draws)).sqrt();
        assert!((p - expected).abs() < 4.0 * se, "S = {s}: {p} vs {expected}");
        rates.push(p);
    }
    // Decision quality degrades monotonically with the noise.
    assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
    // The divisor scales the gap: dividing by 2 instead of 75 makes the
    // gap 1, beyond the noise S = 1: no errors at all.
    let mut sharp = NoisyPlayer::new(LiteralEval, 1.0).unwrap().with_divisor(2.0).unwrap();
    let mut r = rng::seeded(3);
    assert!((0..2000).all(|_| sharp.choose(&t, &mut r).unwrap() == 0));
}

#[test]
fn noisy_player_generalises_to_the_first_player_and_is_seeded() {
    // The mirror image of the min example: max to move.
    let t: LiteralTree = "max(min(-1, -4), min(-6, -2))".parse().unwrap();
    let mut max = NoisyPlayer::new(LiteralEval, 0.0).unwrap();
    assert_eq!(max.child_values(&t).unwrap(), vec![(0, -4.0), (1, -6.0)]);
    assert_eq!(max.choose(&t, &mut rng::seeded(0)).unwrap(), 0);
    // Same seed, same choices.
    let mut a = NoisyPlayer::new(LiteralEval, 0.5).unwrap();
    let picks = |p: &mut NoisyPlayer<LiteralTree, LiteralEval>, seed| {
        let mut r = rng::seeded(seed);
        (0..50).map(|_| p.choose(&t, &mut r).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(picks(&mut a, 7), picks(&mut a, 7));
    // One ply: children at their static values.
    let one = NoisyPlayer::new(LiteralEval, 0.0).unwrap().with_plies(1).unwrap();
    let t2: LiteralTree = "max(min[3](0), min[5](0))".parse().unwrap();
    let mut one = one;
    assert_eq!(one.child_values(&t2).unwrap(), vec![(0, 3.0), (1, 5.0)]);
    // Invalid parameters.
    assert!(NoisyPlayer::<LiteralTree, _>::new(LiteralEval, -1.0).is_err());
    assert!(NoisyPlayer::<LiteralTree, _>::new(LiteralEval, f64::NAN).is_err());
    assert!(NoisyPlayer::<LiteralTree, _>::new(LiteralEval, 1.0).unwrap().with_divisor(0.0).is_err());
    assert!(NoisyPlayer::<LiteralTree, _>::new(LiteralEval, 1.0).unwrap().with_plies(0).is_err());
    // A finished game is an error, not a panic.
    let leaf: LiteralTree = "max(1)".parse().unwrap();
    let mut done = leaf.clone();
    done.play(0);
    assert!(a.choose(&done, &mut rng::seeded(1)).is_err());
}
