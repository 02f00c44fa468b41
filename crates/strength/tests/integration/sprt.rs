//! The generalized SPRT: parameters, the LLR's properties, and error rates
//! on simulated streams of game pairs.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::f64::consts::LN_10;
use strength::elo::elo_to_score;
use strength::pentanomial::{Pentanomial, Trinomial};
use strength::rating::davidson;
use strength::sprt::{EloModel, Sprt, SprtError, SprtStatus};

#[test]
fn parameters_are_checked() {
    let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    let (lo, hi) = s.bounds();
    assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-15);
    assert!((hi - (0.95f64 / 0.05).ln()).abs() < 1e-15);
    let s = Sprt::new(-3.0, 1.0, 0.01, 0.2).unwrap();
    let (lo, hi) = s.bounds();
    assert!((lo - (0.2f64 / 0.99).ln()).abs() < 1e-15 && (hi - (0.8f64 / 0.01).ln()).abs() < 1e-15);
    assert_eq!((s.elo0(), s.elo1(), s.alpha(), s.beta()), (-3.0, 1.0, 0.01, 0.2));
    assert_eq!(s.model(), EloModel::Logistic);

    assert_eq!(Sprt::new(5.0, 0.0, 0.05, 0.05), Err(SprtError::Hypotheses { elo0: 5.0, elo1: 0.0 }));
    assert!(matches!(Sprt::new(1.0, 1.0, 0.05, 0.05), Err(SprtError::Hypotheses { .. })));
    assert!(matches!(Sprt::new(f64::NAN, 1.0, 0.05, 0.05), Err(SprtError::Hypotheses { .. })));
    assert!(matches!(Sprt::new(0.0, f64::INFINITY, 0.05, 0.05), Err(SprtError::Hypotheses { .. })));
    // Logistic Elo so large that the expected score rounds to 1.
    assert!(matches!(Sprt::new(0.0, 1e6, 0.05, 0.05), Err(SprtError::Hypotheses { .. })));
    assert!(Sprt::with_model(EloModel::Normalized, 0.0, 1e6, 0.05, 0.05).is_ok());
    assert_eq!(Sprt::new(0.0, 5.0, 0.0, 0.05), Err(SprtError::Alpha(0.0)));
    assert_eq!(Sprt::new(0.0, 5.0, 0.5, 0.05), Err(SprtError::Alpha(0.5)));
    assert!(matches!(Sprt::new(0.0, 5.0, f64::NAN, 0.05), Err(SprtError::Alpha(_))));
    assert_eq!(Sprt::new(0.0, 5.0, 0.05, 0.7), Err(SprtError::Beta(0.7)));
    assert_eq!(Sprt::new(0.0, 5.0, 0.05, -0.1), Err(SprtError::Beta(-0.1)));
}

#[test]
fn llr_basic_properties() {
    for model in [EloModel::Logistic, EloModel::Normalized] {
        let s = Sprt::with_model(model, -5.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
        assert_eq!(s.status(&Pentanomial::default()), SprtStatus::Continue);
        // Symmetric data and hypotheses symmetric about 0: the fits under H0
        // and H1 mirror each other, so the LLR is 0.
        let sym = Pentanomial::new([30, 200, 500, 200, 30]);
        assert!(s.llr(&sym).abs() < 1e-9, "{model:?}: {}", s.llr(&sym));
        assert!(s.llr_trinomial(&Trinomial::from_wdl(40, 100, 40)).abs() < 1e-9);
        // Better results, higher LLR; every LLR finite, even for one pair.
        let mut p = Pentanomial::new([20, 200, 500, 200, 20]);
        let mut last = s.llr(&p);
        for _ in 0..5 {
            p.counts[4] += 10;
            let now = s.llr(&p);
            assert!(now > last, "{model:?}");
            last = now;
        }
        for k in 0..5 {
            let mut counts = [0; 5];
            counts[k] = 1;
            assert!(s.llr(&Pentanomial::new(counts)).is_finite());
        }
        // Swapping the players and the hypotheses negates the LLR.
        let p = Pentanomial::new([11, 90, 240, 120, 17]);
        let mirror = Sprt::with_model(model, -5.0, 5.0, 0.05, 0.05).unwrap();
        assert!((s.llr(&p) + mirror.llr(&p.reversed())).abs() < 1e-9);
        // Decisions follow the bounds.
        let (lo, hi) = s.bounds();
        assert_eq!(s.decide(hi), SprtStatus::AcceptH1);
        assert_eq!(s.decide(lo), SprtStatus::AcceptH0);
        assert_eq!(s.decide(0.0), SprtStatus::Continue);
    }
}

#[test]
fn llr_matches_the_normal_approximation_for_many_pairs() {
    // With N large and hypotheses close to the data, the GSPRT LLR approaches
    // N (s1 − s0)(2x̄ − s0 − s1) / (2σ²) (logistic), resp. the same with the
    // scores s_h = ½ + t_h·σ (normalized).
    let pdf = pair_distribution(15.0);
    let counts: [u64; 5] = std::array::from_fn(|k| (pdf[k] * 200_000.0).round() as u64);
    let p = Pentanomial::new(counts);
    let n = p.pairs() as f64;
    let (mean, var) = p.mean_and_variance().unwrap();
    let (s0, s1) = (elo_to_score(0.0), elo_to_score(10.0));
    let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
    let llr = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap().llr(&p);
    println!("logistic: GSPRT {llr:.3}, normal approximation {approx:.3}");
    assert!(((llr - approx) / approx).abs() < 0.01, "{llr} vs {approx}");

    let sd = var.sqrt();
    let t = |nelo: f64| 2f64.sqrt() * nelo * LN_10 / 800.0;
    let (s0, s1) = (0.5 + t(0.0) * sd, 0.5 + t(15.0) * sd);
    let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
    let llr = Sprt::with_model(EloModel::Normalized, 0.0, 15.0, 0.05, 0.05).unwrap().llr(&p);
    println!("normalized: GSPRT {llr:.3}, normal approximation {approx:.3}");
    assert!(((llr - approx) / approx).abs() < 0.03, "{llr} vs {approx}");
}

// ---------------------------------------------------------------------------
// Simulated tests.

/// The exact pentanomial distribution for a player `delta` Davidson-Elo
/// stronger (ν = 1), over openings favouring white by 0, 100 or 200 Elo.
fn pair_distribution(delta: f64) -> [f64; 5] {
    let mut pdf = [0.0; 5];
    for bias in [0.0, 100.0, 200.0] {
        let first = davidson(delta + bias, 1.0);
        let second = davidson(delta - bias, 1.0);
        let g1 = [first.loss, first.draw, first.win];
        let g2 = [second.loss, second.draw, second.win];
        for i in 0..3 {
            for j in 0..3 {
                pdf[i + j] += g1[i] * g2[j] / 3.0;
            }
        }
    }
    pdf
}

fn mean_sd(pdf: &[f64]) -> (f64, f64) {
    let last = (pdf.len() - 1) as f64;
    let mean: f64 = pdf.iter().enumerate().map(|(k, p)| p * k as f64 / last).sum();
    let var: f64 = pdf.iter().enumerate().map(|(k, p)| p * (k as f64 / last - mean).powi(2)).sum();
    (mean, var.sqrt())
}

/// The statistic a hypothesis fixes: the mean score per game (logistic) or
/// normalized Elo.
fn statistic(model: EloModel, pdf: &[f64]) -> f64 {
    let (mean, sd) = mean_sd(pdf);
    let games_per_unit = if pdf.len() == 5 { 2.0 } else { 1.0 };
    match model {
        EloModel::Logistic => mean,
        EloModel::Normalized => (mean - 0.5) / (games_per_unit * sd * sd).sqrt() * 800.0 / LN_10,
    }
}

/// The `delta` at which `f(delta)` (increasing) equals `target`.
fn solve(f: impl Fn(f64) -> f64, target: f64) -> f64 {
    let (mut lo, mut hi) = (-2000.0, 2000.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// A pentanomial distribution whose true Elo (in `model`) is `elo`.
fn pairs_with_elo(model: EloModel, elo: f64) -> [f64; 5] {
    let target = match model {
        EloModel::Logistic => elo_to_score(elo),
        EloModel::Normalized => elo,
    };
    let delta = solve(|d| statistic(model, &pair_distribution(d)), target);
    let pdf = pair_distribution(delta);
    let got = statistic(model, &pdf);
    assert!((got - target).abs() < 1e-9, "calibration {got} vs {target}");
    pdf
}

/// A trinomial distribution (independent games, ν = 1) with true Elo `elo`.
fn games_with_elo(model: EloModel, elo: f64) -> [f64; 3] {
    let pdf = |d: f64| {
        let p = davidson(d, 1.0);
        [p.loss, p.draw, p.win]
    };
    let target = match model {
        EloModel::Logistic => elo_to_score(elo),
        EloModel::Normalized => elo,
    };
    pdf(solve(|d| statistic(model, &pdf(d)), target))
}

fn draw(rng: &mut Pcg64, pdf: &[f64]) -> usize {
    let u: f64 = rng.random();
    let mut acc = 0.0;
    for (k, p) in pdf.iter().enumerate() {
        acc += p;
        if u < acc {
            return k;
        }
    }
    pdf.len() - 1
}

/// Runs the test on pairs drawn from `pdf` until it decides (or `cap` pairs).
fn run_pairs(rng: &mut Pcg64, sprt: &Sprt, pdf: &[f64; 5], cap: usize) -> (SprtStatus, usize) {
    let mut p = Pentanomial::default();
    for n in 1..=cap {
        p.counts[draw(rng, pdf)] += 1;
        let status = sprt.status(&p);
        if status != SprtStatus::Continue {
            return (status, n);
        }
    }
    (SprtStatus::Continue, cap)
}

fn run_games(rng: &mut Pcg64, sprt: &Sprt, pdf: &[f64; 3], cap: usize) -> (SprtStatus, usize) {
    let mut t = Trinomial::default();
    for n in 1..=cap {
        t.counts[draw(rng, pdf)] += 1;
        let status = sprt.status_trinomial(&t);
        if status != SprtStatus::Continue {
            return (status, n);
        }
    }
    (SprtStatus::Continue, cap)
}

/// Error-rate tolerance: the number of wrong decisions in `runs` runs with
/// nominal rate `rate` must not exceed the expectation by more than 3
/// binomial SDs. (Wald's bounds give realised rates at or below nominal,
/// α/(1−β) at most, because the LLR overshoots the bound.) It must also not
/// fall below a quarter of the expectation: an LLR that is, say, half what
/// it should be acts like squared bounds and errs about 20 times less, and
/// one that is twice too large errs far more often.
fn check_rate(label: &str, errors: usize, runs: usize, rate: f64) {
    let expected = rate * runs as f64;
    let sd = (runs as f64 * rate * (1.0 - rate)).sqrt();
    println!("{label}: {errors} wrong of {runs} ({:.4}; nominal {rate})", errors as f64 / runs as f64);
    assert!(
        (errors as f64) <= expected + 3.0 * sd,
        "{label}: {errors} errors, expected at most {expected:.1} + 3·{sd:.2}"
    );
    assert!(errors as f64 >= expected / 4.0, "{label}: {errors} errors, far fewer than the nominal {expected:.1}");
}

fn error_rates(label: &str, model: EloModel, elo0: f64, elo1: f64, runs: usize, seed: u64, paired: bool) {
    let (alpha, beta) = (0.05, 0.05);
    let sprt = Sprt::with_model(model, elo0, elo1, alpha, beta).unwrap();
    let mut rng = Pcg64::seed_from_u64(seed);
    let cap = 100_000;
    let mut results = [(0usize, 0usize, 0usize); 2]; // (accept H0, accept H1, undecided)
    for (h, elo) in [elo0, elo1].into_iter().enumerate() {
        let pairs = pairs_with_elo(model, elo);
        let games = games_with_elo(model, elo);
        let mut total_len = 0;
        for _ in 0..runs {
            let (status, len) =
                if paired { run_pairs(&mut rng, &sprt, &pairs, cap) } else { run_games(&mut rng, &sprt, &games, cap) };
            total_len += len;
            match status {
                SprtStatus::AcceptH0 => results[h].0 += 1,
                SprtStatus::AcceptH1 => results[h].1 += 1,
                SprtStatus::Continue => results[h].2 += 1,
            }
        }
        println!("{label}: truth {elo}: mean length {:.0}", total_len as f64 / runs as f64);
    }
    assert_eq!(results[0].2 + results[1].2, 0, "{label}: runs hit the cap");
    check_rate(&format!("{label} false positives"), results[0].1, runs, alpha);
    check_rate(&format!("{label} false negatives"), results[1].0, runs, beta);
}

#[test]
fn logistic_error_rates_on_pairs() {
    // 1000 runs under each hypothesis, α = β = 0.05: expected ≤ 50 errors,
    // SD 6.9, so at most 70.
    error_rates("logistic pairs [0, 20]", EloModel::Logistic, 0.0, 20.0, 1000, 1, true);
}

#[test]
fn normalized_error_rates_on_pairs() {
    // 600 runs each: expected ≤ 30 errors, SD 5.3, so at most 46.
    error_rates("normalized pairs [0, 30]", EloModel::Normalized, 0.0, 30.0, 600, 2, true);
}

#[test]
fn trinomial_error_rates_on_games() {
    // Independent games, the trinomial test. 600 runs each.
    error_rates("logistic games [-15, 15]", EloModel::Logistic, -15.0, 15.0, 600, 3, false);
    error_rates("normalized games [0, 35]", EloModel::Normalized, 0.0, 35.0, 600, 4, false);
}
