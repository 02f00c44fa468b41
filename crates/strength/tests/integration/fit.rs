//! Fitting a player's model: synthetic players recovered, perfect and
//! random players at the ends of the domain, uninformative decisions,
//! errors, the coverage of the profile-likelihood intervals, model choice
//! by AIC, the slip's likelihood-ratio test, and the dial mapping.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use strength::dial::{Calibration, Dial, Rung};
use strength::fit::{Decision, Fit, FitError, FitOptions, Model, compare, fit, map_to_dial};

/// Value levels of the simulated positions: ties are common.
const LEVELS: [f64; 7] = [-100.0, -50.0, -20.0, -10.0, 0.0, 10.0, 40.0];

/// 3 to 7 moves, values drawn from [`LEVELS`].
fn position(rng: &mut Pcg64) -> Vec<f64> {
    let n = rng.random_range(3..=7);
    (0..n).map(|_| LEVELS[rng.random_range(0..LEVELS.len())]).collect()
}

fn sample(rng: &mut Pcg64, p: &[f64]) -> usize {
    let mut u: f64 = rng.random();
    for (i, &x) in p.iter().enumerate() {
        if u < x {
            return i;
        }
        u -= x;
    }
    p.iter().rposition(|&x| x > 0.0).unwrap()
}

fn normal(rng: &mut Pcg64) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A simulated player: a model and its parameter, and a slip rate.
#[derive(Clone, Copy, Debug)]
struct Player {
    model: Model,
    param: f64,
    slip: f64,
}

fn player(model: Model, param: f64) -> Player {
    Player { model, param, slip: 0.0 }
}

impl Player {
    fn play(&self, rng: &mut Pcg64, values: &[f64]) -> usize {
        if self.slip > 0.0 && rng.random::<f64>() < self.slip {
            return rng.random_range(0..values.len());
        }
        match self.model {
            // The noise model played as it is defined: noisy values, argmax.
            Model::Noise if self.param > 0.0 => {
                let noisy: Vec<f64> = values.iter().map(|&v| v + self.param * normal(rng)).collect();
                (0..values.len()).fold(0, |b, i| if noisy[i] > noisy[b] { i } else { b })
            }
            _ => sample(rng, &self.model.probabilities(values, self.param).unwrap()),
        }
    }

    fn decisions(&self, rng: &mut Pcg64, n: usize) -> Vec<Decision> {
        (0..n)
            .map(|_| {
                let values = position(rng);
                let chosen = self.play(rng, &values);
                Decision::new(values, chosen)
            })
            .collect()
    }
}

fn plain() -> FitOptions {
    FitOptions::default()
}

/// The log-likelihood of the informative decisions, recomputed from
/// [`Fit::probabilities`].
fn loglik(f: &Fit, decisions: &[Decision]) -> f64 {
    decisions
        .iter()
        .filter(|d| d.values.iter().any(|&v| v != d.values[0]))
        .map(|d| f.probabilities(&d.values).unwrap()[d.chosen].ln())
        .sum()
}

#[test]
fn boltzmann_is_recovered() {
    let mut rng = Pcg64::seed_from_u64(1);
    let d = player(Model::Boltzmann, 0.05).decisions(&mut rng, 300);
    let f = fit(&d, Model::Boltzmann, plain()).unwrap();
    let (lo, hi) = (f.ci95.0.unwrap(), f.ci95.1.unwrap());
    assert!(lo < 0.05 && 0.05 < hi && lo < f.param && f.param < hi, "{f:?}");
    assert!(hi / lo < 2.0, "{f:?}");
    assert_eq!(f.moves + f.uninformative, 300);
    assert!(f.uninformative > 0, "ties make some positions uninformative");
    assert!((f.loglik - loglik(&f, &d)).abs() < 1e-9);
    assert_eq!(f.aic, 2.0 - 2.0 * f.loglik);
    // The interval's ends are where the log-likelihood has dropped by
    // χ²₁(95%)/2 = 1.92.
    for end in [lo, hi] {
        let at = Fit { param: end, ..f.clone() };
        assert!((f.loglik - loglik(&at, &d) - 1.920_729_410_347_062).abs() < 1e-6);
    }
}

#[test]
fn epsilon_greedy_is_recovered() {
    // (Seed 2 draws an ε̂ 2.1 standard errors out: the 5% the interval
    // misses; the coverage tests below count those.)
    let mut rng = Pcg64::seed_from_u64(12);
    let d = player(Model::EpsilonGreedy, 0.6).decisions(&mut rng, 300);
    let f = fit(&d, Model::EpsilonGreedy, plain()).unwrap();
    assert!(f.contains(0.6) && f.ci95.0.is_some() && f.ci95.1.is_some(), "{f:?}");
    // ε̂ is the fraction of informative decisions where an optimal move
    // was played.
    let informative: Vec<&Decision> = d.iter().filter(|d| d.values.iter().any(|&v| v != d.values[0])).collect();
    let best = |d: &Decision| d.values[d.chosen] == d.values.iter().copied().fold(f64::MIN, f64::max);
    let k = informative.iter().filter(|d| best(d)).count();
    // (To the precision of a golden-section search: about 1e-8.)
    assert!((f.param - k as f64 / informative.len() as f64).abs() < 1e-7, "{f:?}");
    assert!((f.loglik - loglik(&f, &d)).abs() < 1e-7);
}

#[test]
fn noise_is_recovered() {
    let mut rng = Pcg64::seed_from_u64(3);
    let d = player(Model::Noise, 20.0).decisions(&mut rng, 300);
    let f = fit(&d, Model::Noise, plain()).unwrap();
    assert!(f.contains(20.0) && f.ci95.0.is_some() && f.ci95.1.is_some(), "{f:?}");
    assert!((f.loglik - loglik(&f, &d)).abs() < 1e-9);
}

#[test]
fn a_perfect_player_has_only_a_bound() {
    let mut rng = Pcg64::seed_from_u64(4);
    // Always an optimal move (ties broken at random).
    let d = player(Model::Boltzmann, f64::INFINITY).decisions(&mut rng, 100);
    let b = fit(&d, Model::Boltzmann, plain()).unwrap();
    assert_eq!(b.param, f64::INFINITY);
    assert!(b.ci95.0.unwrap() > 0.0 && b.ci95.0.unwrap().is_finite() && b.ci95.1.is_none(), "{b:?}");
    assert!(b.loglik <= 0.0 && b.contains(1e9) && !b.contains(0.0));
    let e = fit(&d, Model::EpsilonGreedy, plain()).unwrap();
    assert_eq!(e.param, 1.0);
    assert!(e.ci95.0.unwrap() > 0.9 && e.ci95.1.is_none(), "{e:?}");
    let n = fit(&d, Model::Noise, plain()).unwrap();
    assert_eq!(n.param, 0.0);
    assert!(n.ci95.0.is_none() && n.ci95.1.unwrap() > 0.0, "{n:?}");
    // The three agree on the likelihood: ties shared, nothing else played.
    assert!((b.loglik - e.loglik).abs() < 1e-9 && (b.loglik - n.loglik).abs() < 1e-9);
    // With a slip: none.
    let s = fit(&d, Model::Boltzmann, plain().with_slip()).unwrap();
    assert_eq!((s.param, s.slip, s.ci95.1), (f64::INFINITY, Some(0.0), None));
}

#[test]
fn a_random_player_is_near_zero() {
    let mut rng = Pcg64::seed_from_u64(5);
    let d = player(Model::Boltzmann, 0.0).decisions(&mut rng, 200);
    let b = fit(&d, Model::Boltzmann, plain()).unwrap();
    assert!(b.ci95.0.is_none() && b.contains(0.0), "{b:?}");
    assert!(b.ci95.1.unwrap() < 0.01, "{b:?}");
    let n = fit(&d, Model::Noise, plain()).unwrap();
    assert!(n.ci95.1.is_none() && n.ci95.0.unwrap() > 50.0, "{n:?}");
}

#[test]
fn uninformative_decisions_are_counted_not_used() {
    let mut rng = Pcg64::seed_from_u64(6);
    let d = player(Model::Boltzmann, 0.05).decisions(&mut rng, 100);
    let base = fit(&d, Model::Boltzmann, plain()).unwrap();
    let mut padded = Vec::new();
    for (i, x) in d.iter().enumerate() {
        padded.push(x.clone());
        if i % 10 == 0 {
            padded.push(Decision::new(vec![3.0, 3.0, 3.0], 2));
            padded.push(Decision::new(vec![-7.0], 0));
        }
    }
    let f = fit(&padded, Model::Boltzmann, plain()).unwrap();
    assert_eq!(f.uninformative, base.uninformative + 20);
    assert_eq!(f.moves, base.moves);
    assert_eq!((f.param, f.ci95, f.loglik), (base.param, base.ci95, base.loglik));
    // Only ties: nothing to fit.
    let ties = vec![Decision::new(vec![1.0, 1.0], 0), Decision::new(vec![2.0], 0)];
    assert_eq!(fit(&ties, Model::Noise, plain()), Err(FitError::NoInformation { uninformative: 2 }));
    // Ties after capping are ties.
    let capped = vec![Decision::new(vec![500.0, 200.0], 1)];
    assert!(matches!(
        fit(&capped, Model::Boltzmann, plain().with_cap(100.0)),
        Err(FitError::NoInformation { uninformative: 1 })
    ));
}

#[test]
fn errors() {
    let ok = Decision::new(vec![1.0, 0.0], 0);
    assert_eq!(fit(&[], Model::Boltzmann, plain()), Err(FitError::Empty));
    let bad = [ok.clone(), Decision::new(vec![1.0, 0.0], 2)];
    assert_eq!(
        fit(&bad, Model::Boltzmann, plain()),
        Err(FitError::ChosenOutOfRange { decision: 1, chosen: 2, moves: 2 })
    );
    assert!(matches!(
        fit(&[Decision::new(vec![], 0)], Model::Boltzmann, plain()),
        Err(FitError::ChosenOutOfRange { moves: 0, .. })
    ));
    let nan = [ok.clone(), Decision::new(vec![f64::NAN, 0.0], 1)];
    assert!(matches!(fit(&nan, Model::EpsilonGreedy, plain()), Err(FitError::BadValue { decision: 1, .. })));
    assert!(matches!(fit(&nan, Model::EpsilonGreedy, plain().with_cap(10.0)), Err(FitError::BadValue { .. })));
    let inf = [Decision::new(vec![f64::INFINITY, 0.0], 1)];
    assert!(matches!(fit(&inf, Model::Boltzmann, plain()), Err(FitError::BadValue { .. })));
    assert!(fit(&inf, Model::Boltzmann, plain().with_cap(10.0)).is_ok());
    for cap in [0.0, -1.0, f64::INFINITY, f64::NAN] {
        assert!(matches!(
            fit(std::slice::from_ref(&ok), Model::Boltzmann, plain().with_cap(cap)),
            Err(FitError::BadCap(_))
        ));
    }
    assert!(Model::EpsilonGreedy.probabilities(&[1.0, 0.0], 1.5).is_err());
    assert!(Model::Noise.probabilities(&[1.0, f64::NAN], 1.0).is_err());
    assert_eq!(Model::Noise.probabilities(&[], 1.0), Err(FitError::NoMoves));
    let overflow = [Decision::new(vec![f64::MAX, -f64::MAX], 0)];
    assert!(matches!(fit(&overflow, Model::Noise, plain()), Err(FitError::BadValue { .. })));
    assert_eq!(compare(&[]), Err(FitError::NoFits));
}

#[test]
fn the_cap_clamps_values() {
    let mut rng = Pcg64::seed_from_u64(7);
    let mut d = player(Model::Boltzmann, 0.05).decisions(&mut rng, 200);
    // A forced win and a forced loss, as infinite values.
    for x in d.iter_mut().step_by(7) {
        x.values[0] = f64::INFINITY;
        x.values[1] = f64::NEG_INFINITY;
    }
    let f = fit(&d, Model::Boltzmann, plain().with_cap(30.0)).unwrap();
    let clamped: Vec<Decision> =
        d.iter().map(|x| Decision::new(x.values.iter().map(|v| v.clamp(-30.0, 30.0)).collect(), x.chosen)).collect();
    let g = fit(&clamped, Model::Boltzmann, plain()).unwrap();
    assert_eq!((f.param, f.ci95, f.loglik, f.moves), (g.param, g.ci95, g.loglik, g.moves));
    assert_eq!(f.cap, Some(30.0));
    assert_ne!(f.data, g.data);
    let p = f.probabilities(&[f64::INFINITY, 1e9, 0.0]).unwrap();
    assert!(p[0] == p[1] && p[1] > p[2]);
}

/// A soft cap fits the values `cap·tanh(v/cap)`, which is what a
/// `softcap` player weighs: its own Softmax gives the fit's probabilities.
#[test]
fn the_soft_cap_bounds_values_smoothly() {
    use search_core::policy::{MoveDistribution, Softmax};
    let mut rng = Pcg64::seed_from_u64(8);
    let mut d = player(Model::Boltzmann, 0.05).decisions(&mut rng, 200);
    for x in d.iter_mut().step_by(7) {
        x.values[0] = f64::INFINITY;
        x.values[1] = f64::NEG_INFINITY;
    }
    let f = fit(&d, Model::Boltzmann, plain().with_soft_cap(30.0)).unwrap();
    let bounded: Vec<Decision> = d
        .iter()
        .map(|x| Decision::new(x.values.iter().map(|v| 30.0 * (v / 30.0).tanh()).collect(), x.chosen))
        .collect();
    let g = fit(&bounded, Model::Boltzmann, plain()).unwrap();
    assert!((f.param - g.param).abs() < 1e-9 * g.param && (f.loglik - g.loglik).abs() < 1e-9, "{f:?} {g:?}");
    assert!((f.cap, f.soft) == (Some(30.0), true));
    // Not the hard cap's fit, nor its fingerprint.
    let h = fit(&d, Model::Boltzmann, plain().with_cap(30.0)).unwrap();
    assert_ne!(f.data, h.data);
    assert_ne!(f.loglik, h.loglik);
    // The fitted player's probabilities are the player's own.
    let values = [f64::INFINITY, 1e9, 40.0, 0.0, -25.0];
    let p = f.probabilities(&values).unwrap();
    let mut q = Vec::new();
    Softmax::new(f.param).unwrap().with_soft_cap(30.0).unwrap().distribution(&values[1..], &mut q).unwrap();
    let tail: f64 = p[1..].iter().sum();
    for (x, y) in p[1..].iter().zip(&q) {
        assert!((x / tail - y).abs() < 1e-12);
    }
    assert!(p[0] >= p[1] && p[1] > p[2] && p[2] > p[3]);
    assert!(matches!(fit(&d, Model::Boltzmann, plain().with_soft_cap(-1.0)), Err(FitError::BadCap(_))));
}

#[test]
fn noise_probabilities_match_simulation() {
    let mut rng = Pcg64::seed_from_u64(8);
    let values = [0.0, 10.0, 10.0, 25.0, -40.0];
    let p = Model::Noise.probabilities(&values, 15.0).unwrap();
    let noisy = player(Model::Noise, 15.0);
    let n = 200_000;
    let mut counts = [0usize; 5];
    for _ in 0..n {
        counts[noisy.play(&mut rng, &values)] += 1;
    }
    for i in 0..5 {
        let f = counts[i] as f64 / n as f64;
        let se = (p[i] * (1.0 - p[i]) / n as f64).sqrt().max(1e-6);
        assert!((f - p[i]).abs() < 4.5 * se, "move {i}: simulated {f}, computed {}", p[i]);
    }
    // Two moves: Φ(gap / (S√2)).
    let q = Model::Noise.probabilities(&[1.0, 0.0], 1.0 / std::f64::consts::SQRT_2).unwrap();
    assert!((q[0] - 0.841_344_746_068_542_9).abs() < 1e-6, "{q:?}");
}

/// The fraction of `players` simulated players (`decisions` each) whose
/// 95% interval contains the truth; `truths` cycle.
fn coverage(seed: u64, model: Model, truths: &[f64], players: usize, decisions: usize) -> f64 {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut inside = 0;
    for i in 0..players {
        let truth = truths[i % truths.len()];
        let d = player(model, truth).decisions(&mut rng, decisions);
        let f = fit(&d, model, plain()).unwrap();
        inside += usize::from(f.contains(truth));
    }
    inside as f64 / players as f64
}

#[test]
fn boltzmann_intervals_cover() {
    // 600 players of 100 decisions (10 games' worth), θ spanning a weak to
    // a nearly perfect player.
    let c = coverage(10, Model::Boltzmann, &[0.01, 0.03, 0.1], 600, 100);
    eprintln!("boltzmann coverage {c}");
    assert!((0.92..=0.98).contains(&c), "{c}");
}

#[test]
fn epsilon_greedy_intervals_cover() {
    let c = coverage(11, Model::EpsilonGreedy, &[0.3, 0.6, 0.85], 600, 100);
    eprintln!("epsilon-greedy coverage {c}");
    assert!((0.92..=0.98).contains(&c), "{c}");
}

/// Slow (about a minute): run with `--ignored`.
#[test]
#[ignore]
fn noise_intervals_cover() {
    let start = std::time::Instant::now();
    let by_truth: Vec<f64> = [5.0, 20.0, 60.0].iter().map(|&s| coverage(12, Model::Noise, &[s], 200, 100)).collect();
    let c = by_truth.iter().sum::<f64>() / 3.0;
    eprintln!("noise coverage {c} (S = 5, 20, 60: {by_truth:?}) in {:?}", start.elapsed());
    assert!((0.92..=0.98).contains(&c), "{c}");
}

/// Out of 100 simulated players of `truth` (300 decisions each), how many
/// AIC assigns to each of `candidates`.
fn choices(seed: u64, truth: Player, candidates: &[Model]) -> Vec<usize> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut picked = vec![0; candidates.len()];
    for _ in 0..100 {
        let d = truth.decisions(&mut rng, 300);
        let fits: Vec<Fit> = candidates.iter().map(|&m| fit(&d, m, plain()).unwrap()).collect();
        picked[compare(&fits).unwrap().best] += 1;
    }
    picked
}

#[test]
fn aic_tells_epsilon_greedy_from_boltzmann() {
    let both = [Model::EpsilonGreedy, Model::Boltzmann];
    let e = choices(20, player(Model::EpsilonGreedy, 0.6), &both);
    let b = choices(21, player(Model::Boltzmann, 0.03), &both);
    eprintln!("epsilon-greedy players: {e:?}; boltzmann players: {b:?}");
    assert!(e[0] >= 90, "{e:?}");
    assert!(b[1] >= 90, "{b:?}");
}

/// Slow: run with `--ignored`. Boltzmann against noise: both favour better
/// moves smoothly, so they are much harder to tell apart.
#[test]
#[ignore]
fn aic_among_all_three() {
    let e = choices(22, player(Model::EpsilonGreedy, 0.6), &Model::ALL);
    let b = choices(23, player(Model::Boltzmann, 0.03), &Model::ALL);
    let n = choices(24, player(Model::Noise, 20.0), &Model::ALL);
    eprintln!("of {:?}: epsilon-greedy players {e:?}, boltzmann players {b:?}, noise players {n:?}", Model::ALL);
}

#[test]
fn the_slip_is_tested() {
    let mut rng = Pcg64::seed_from_u64(30);
    let slipping = Player { slip: 0.15, ..player(Model::Boltzmann, 0.1) };
    let d = slipping.decisions(&mut rng, 400);
    let fits = [fit(&d, Model::Boltzmann, plain()).unwrap(), fit(&d, Model::Boltzmann, plain().with_slip()).unwrap()];
    let slip = fits[1].slip.unwrap();
    assert!((0.05..0.3).contains(&slip), "{:?}", fits[1]);
    assert!(fits[1].contains(0.1), "{:?}", fits[1]);
    assert!(!fits[0].contains(0.1), "without the slip θ is biased down: {:?}", fits[0]);
    let c = compare(&fits).unwrap();
    assert_eq!(c.best, 1);
    assert!(c.nested.len() == 1 && c.nested[0].p_value < 1e-3, "{c:?}");
    // A player who does not slip.
    let d = player(Model::Boltzmann, 0.1).decisions(&mut rng, 400);
    let fits = [fit(&d, Model::Boltzmann, plain()).unwrap(), fit(&d, Model::Boltzmann, plain().with_slip()).unwrap()];
    let c = compare(&fits).unwrap();
    assert!(c.nested[0].p_value > 0.05, "{c:?}");
    assert!(fits[1].loglik >= fits[0].loglik - 1e-9);
    // A slip is fitted for every family.
    for m in Model::ALL {
        let f = fit(&d, m, plain().with_slip()).unwrap();
        assert!(f.slip.is_some_and(|s| (0.0..=1.0).contains(&s)) && f.params() == 2, "{f:?}");
        assert_eq!(f.aic, 4.0 - 2.0 * f.loglik);
    }
}

#[test]
fn fits_of_different_data_are_not_compared() {
    let mut rng = Pcg64::seed_from_u64(31);
    let p = player(Model::Boltzmann, 0.05);
    let (a, b) = (p.decisions(&mut rng, 50), p.decisions(&mut rng, 50));
    let fa = fit(&a, Model::Boltzmann, plain()).unwrap();
    let fb = fit(&b, Model::Boltzmann, plain()).unwrap();
    assert_eq!(compare(&[fa.clone(), fb]), Err(FitError::DifferentData));
    let capped = fit(&a, Model::Boltzmann, plain().with_cap(30.0)).unwrap();
    assert_eq!(compare(&[fa, capped]), Err(FitError::DifferentData));
}

#[test]
fn fits_round_trip_through_json() {
    let d: Vec<Decision> = (0..10).map(|_| Decision::new(vec![1.0, 0.0], 0)).collect();
    let f = fit(&d, Model::Boltzmann, plain()).unwrap();
    assert_eq!(f.param, f64::INFINITY);
    let json = serde_json::to_string(&f).unwrap();
    assert!(json.contains("\"inf\"") && json.contains("\"boltzmann\""), "{json}");
    assert_eq!(serde_json::from_str::<Fit>(&json).unwrap(), f);
}

fn rung(spec: &str, curve: &str, theta: f64, rating: f64) -> Rung {
    Rung {
        spec: spec.into(),
        curve: Some(curve.into()),
        theta: Some(theta),
        rating,
        low: rating - 25.0,
        high: rating + 25.0,
        games: 800,
    }
}

#[test]
fn dial_mapping() {
    let (c2, c4) = ("boltzmann:depth=2,cap=100", "boltzmann:depth=4,cap=100");
    let dial = Dial::new(Calibration {
        game: "test".into(),
        rungs: vec![
            Rung { curve: None, theta: None, ..rung("random", c2, 0.0, 0.0) },
            rung("boltzmann:depth=2,cap=100,theta=0.01", c2, 0.01, 200.0),
            rung("boltzmann:depth=2,cap=100,theta=0.1", c2, 0.1, 600.0),
            rung("alphabeta:depth=2", c2, f64::INFINITY, 800.0),
            // No greedy top on this curve.
            rung("boltzmann:depth=4,cap=100,theta=0.01", c4, 0.01, 300.0),
            rung("boltzmann:depth=4,cap=100,theta=0.1", c4, 0.1, 900.0),
        ],
        ..Calibration::default()
    })
    .unwrap();
    let mut rng = Pcg64::seed_from_u64(40);
    let d = player(Model::Boltzmann, 0.03).decisions(&mut rng, 300);
    let f = fit(&d, Model::Boltzmann, plain().with_cap(100.0)).unwrap();
    let (elo, (lo, hi)) = map_to_dial(&dial, c2, &f).unwrap();
    assert_eq!(elo, dial.rating_of(c2, f.param).unwrap());
    assert_eq!(lo, dial.rating_of(c2, f.ci95.0.unwrap()));
    assert_eq!(hi, dial.rating_of(c2, f.ci95.1.unwrap()));
    assert!(200.0 < lo.unwrap() && lo.unwrap() < elo && elo < hi.unwrap() && hi.unwrap() < 600.0);
    // The curve name is read as a spec.
    assert_eq!(map_to_dial(&dial, "boltzmann:depth=2, cap=100", &f).map(|m| m.0), Some(elo));
    // Unknown curve, other cap, other family: nothing.
    assert!(map_to_dial(&dial, "boltzmann:depth=6,cap=100", &f).is_none());
    assert!(map_to_dial(&dial, "boltzmann:depth=2,cap=400", &f).is_none());
    let e = fit(&d, Model::EpsilonGreedy, plain().with_cap(100.0)).unwrap();
    assert!(map_to_dial(&dial, c2, &e).is_none());
    // A perfect player: the top of the curve, no upper bound.
    let perfect = player(Model::Boltzmann, f64::INFINITY).decisions(&mut rng, 100);
    let p = fit(&perfect, Model::Boltzmann, plain().with_cap(100.0)).unwrap();
    let (elo, (lo, hi)) = map_to_dial(&dial, c2, &p).unwrap();
    assert_eq!((elo, hi), (800.0, None));
    assert!(lo.unwrap() > 600.0, "{lo:?}");
    // On a curve without a top: its largest-θ rung; the lower end beyond it
    // maps there too.
    let (elo, (lo, hi)) = map_to_dial(&dial, c4, &p).unwrap();
    assert_eq!((elo, lo, hi), (900.0, Some(900.0), None));
    // A random player: the lower end is open.
    let random = player(Model::Boltzmann, 0.0).decisions(&mut rng, 100);
    let r = fit(&random, Model::Boltzmann, plain().with_cap(100.0)).unwrap();
    let (elo, (lo, hi)) = map_to_dial(&dial, c2, &r).unwrap();
    assert!(lo.is_none() && elo < 100.0 && hi.unwrap() < 200.0, "{elo} {lo:?} {hi:?}");
}
