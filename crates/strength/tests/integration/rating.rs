//! Ratings: closed forms, symmetry, anchors, errors, and the coverage of the
//! intervals over simulated tournaments.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use strength::elo::GameResult::{self, Draw, Loss, Win};
use strength::elo::LOGISTIC_SCALE;
use strength::rating::{Direction, FitOptions, PairResult, RatingError, Results, davidson, fit};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn two_players_match_the_closed_form() {
    // 30 wins, 20 draws, 10 losses. Davidson's model has two free
    // probabilities for two players, so it reproduces the observed
    // frequencies exactly:
    //   P(win)/P(loss) = πa/πb = 30/10  → r_a − r_b = 400·log10 3 = 190.848…
    //   P(draw)/P(loss) = ν·√(πa/πb)    → ν = (20/10)/√3 = 20/√(30·10) = 1.1547…
    // The rating difference is ln(p̂W/p̂L) in natural units, whose variance
    // (multinomial delta method) is 1/W + 1/L:
    //   SE = (400/ln 10)·√(1/30 + 1/10) = 173.72·0.36515 = 63.43 Elo.
    let pairs = [PairResult::new(0, 1, 30.0, 20.0, 10.0)];
    let r = fit(2, &pairs, &FitOptions::new()).unwrap();
    assert_eq!(r.rating(0), 0.0);
    assert!(close(r.rating(1), -400.0 * 3f64.log10(), 1e-7), "{}", r.rating(1));
    assert!(close(r.draw_nu(), 20.0 / 300f64.sqrt(), 1e-9));
    let se = LOGISTIC_SCALE * (1.0 / 30.0 + 1.0 / 10.0f64).sqrt();
    assert!(close(r.player(1).std_error, se, 1e-6), "{}", r.player(1).std_error);
    assert!(close(se, 63.43, 0.01));
    let (lo, hi) = r.player(1).interval;
    assert!(close(hi - lo, 2.0 * 1.959_963_984_540_054 * se, 1e-6));
    // The prediction reproduces the observed frequencies.
    let p = r.predict(0, 1);
    assert!(close(p.win, 0.5, 1e-9) && close(p.draw, 1.0 / 3.0, 1e-9) && close(p.loss, 1.0 / 6.0, 1e-9));
    assert!(close(p.score, 40.0 / 60.0, 1e-9));
    // … whose logistic Elo (the score-based number) is smaller than the
    // Davidson rating gap, as the module documentation warns.
    assert!(close(p.score_elo(), 400.0 * 2f64.log10(), 1e-6));
}

#[test]
fn worked_example_chain_without_draws() {
    // A(0) beat B(1) 3–1, B drew nothing and split 1–1 with C(2); A and C
    // never met; C is anchored at 1500. Without draws ν = 0 (Bradley–Terry)
    // and, the comparison graph being a path, each edge is fitted on its own:
    //   r_B − r_C = 400·log10(1/1) = 0            → r_B = 1500
    //   r_A − r_B = 400·log10(3/1) = 190.8485     → r_A = 1690.8485
    // Variances add along the path (natural units, 1/W + 1/L per edge):
    //   Var(r_B) = 173.72²·(1/1 + 1/1) = 173.72²·2        → SE 245.68
    //   Var(r_A) = 173.72²·(2 + 1/3 + 1/1) = 173.72²·3.333 → SE 317.16
    //   Cov(r_A, r_B) = Var(r_B)
    let pairs = [PairResult::new(0, 1, 3.0, 0.0, 1.0), PairResult::new(1, 2, 1.0, 0.0, 1.0)];
    let r = fit(3, &pairs, &FitOptions::new().anchor(2, 1500.0)).unwrap();
    assert_eq!(r.draw_nu(), 0.0);
    assert!(close(r.rating(2), 1500.0, 0.0));
    assert!(close(r.rating(1), 1500.0, 1e-7));
    assert!(close(r.rating(0), 1690.8485, 1e-3));
    assert!(close(r.player(1).std_error, 245.68, 0.01));
    assert!(close(r.player(0).std_error, 317.16, 0.01));
    assert!(close(r.covariance(0, 1), r.covariance(1, 1), 1e-6));
    // The difference A − B has the A–B edge's variance only: 173.72²·(4/3).
    let (d, se) = r.difference(0, 1);
    assert!(close(d, 190.8485, 1e-3) && close(se, LOGISTIC_SCALE * (4.0f64 / 3.0).sqrt(), 1e-6));
}

#[test]
fn symmetric_inputs_give_symmetric_ratings() {
    // A cycle: each player beats the next 6–3–4 (W–D–L). Every player is in
    // the same position, so all ratings are equal.
    let pairs = [
        PairResult::new(0, 1, 6.0, 3.0, 4.0),
        PairResult::new(1, 2, 6.0, 3.0, 4.0),
        PairResult::new(2, 0, 6.0, 3.0, 4.0),
    ];
    let r = fit(3, &pairs, &FitOptions::new()).unwrap();
    for i in 0..3 {
        assert!(close(r.rating(i), 0.0, 1e-8), "{}", r.rating(i));
    }
    assert!(close(r.player(1).std_error, r.player(2).std_error, 1e-8));

    // Reversing every result negates every rating (anchor at 0).
    let pairs = [
        PairResult::new(0, 1, 7.0, 4.0, 2.0),
        PairResult::new(1, 2, 3.0, 8.0, 5.0),
        PairResult::new(0, 2, 9.0, 1.0, 2.0),
        PairResult::new(2, 3, 4.0, 4.0, 4.0),
    ];
    let reversed: Vec<PairResult> =
        pairs.iter().map(|p| PairResult::new(p.a, p.b, p.wins_b, p.draws, p.wins_a)).collect();
    let r = fit(4, &pairs, &FitOptions::new()).unwrap();
    let s = fit(4, &reversed, &FitOptions::new()).unwrap();
    for i in 0..4 {
        assert!(close(r.rating(i), -s.rating(i), 1e-7));
        assert!(close(r.player(i).std_error, s.player(i).std_error, 1e-7));
    }
    assert!(close(r.draw_nu(), s.draw_nu(), 1e-10));
    // Listing the same games from the other side changes nothing.
    let flipped: Vec<PairResult> = pairs.iter().map(PairResult::reversed).collect();
    let f = fit(4, &flipped, &FitOptions::new()).unwrap();
    for i in 0..4 {
        assert!(close(r.rating(i), f.rating(i), 1e-9));
    }
}

#[test]
fn anchors_are_respected() {
    let pairs = [
        PairResult::new(0, 1, 5.0, 5.0, 5.0),
        PairResult::new(1, 2, 5.0, 5.0, 5.0),
        PairResult::new(0, 2, 1.0, 2.0, 1.0),
    ];
    // One anchor: a shift of the anchor shifts everybody.
    let a = fit(3, &pairs, &FitOptions::new().anchor(1, 0.0)).unwrap();
    let b = fit(3, &pairs, &FitOptions::new().anchor(1, 2000.0)).unwrap();
    for i in 0..3 {
        assert!(close(b.rating(i) - a.rating(i), 2000.0, 1e-7));
    }
    assert!(b.player(1).anchored && b.player(1).std_error == 0.0);
    // Two anchors: both fixed exactly, the free player between them.
    let r = fit(3, &pairs, &FitOptions::new().anchor(0, 0.0).anchor(2, -300.0)).unwrap();
    assert_eq!(r.rating(0), 0.0);
    assert!(close(r.rating(2), -300.0, 1e-9));
    assert!(r.rating(1) < 0.0 && r.rating(1) > -300.0);
    assert_eq!(r.player(2).interval, (r.rating(2), r.rating(2)));
    assert_eq!(r.covariance(0, 1), 0.0);
    // Symmetric data between the anchors put player 1 in the middle.
    assert!(close(r.rating(1), -150.0, 1e-6), "{}", r.rating(1));
}

#[test]
fn the_fit_maximises_the_likelihood() {
    // Anchoring every player at given ratings and fixing ν evaluates the
    // log-likelihood at an arbitrary point: it must not beat the MLE.
    let pairs = [
        PairResult::new(0, 1, 7.0, 4.0, 2.0),
        PairResult::new(1, 2, 3.0, 8.0, 5.0),
        PairResult::new(0, 2, 9.0, 1.0, 2.0),
    ];
    let best = fit(3, &pairs, &FitOptions::new()).unwrap();
    let at = |r1: f64, r2: f64, nu: f64| {
        fit(3, &pairs, &FitOptions::new().anchor(0, 0.0).anchor(1, r1).anchor(2, r2).fixed_draw_nu(nu))
            .unwrap()
            .log_likelihood()
    };
    let (r1, r2, nu) = (best.rating(1), best.rating(2), best.draw_nu());
    assert!(close(at(r1, r2, nu), best.log_likelihood(), 1e-9));
    for (d1, d2, dn) in [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 0.01), (-1.0, 1.0, -0.01)] {
        for sign in [1.0, -1.0] {
            let ll = at(r1 + sign * d1, r2 + sign * d2, nu + sign * dn);
            assert!(ll < best.log_likelihood(), "{d1} {d2} {dn}");
        }
    }
}

#[test]
fn results_accumulate_games_and_names() {
    let mut r = Results::with_names(["a", "b"]);
    let c = r.add_player("c");
    assert_eq!(c, 2);
    assert_eq!(r.index_of("b"), Some(1));
    for g in [Win, Win, Draw, Loss] {
        r.add(0, 1, g).unwrap();
    }
    r.add(2, 1, Win).unwrap();
    r.add(1, 2, Draw).unwrap();
    r.add(2, 0, Loss).unwrap();
    assert_eq!(r.pair(1, 0), PairResult::new(1, 0, 1.0, 1.0, 2.0));
    assert_eq!(r.pair(2, 1), PairResult::new(2, 1, 1.0, 1.0, 0.0));
    assert_eq!(r.games(), 7.0);
    assert_eq!(r.pairs().len(), 3);
    let fitted = r.fit(&FitOptions::new()).unwrap();
    assert_eq!(fitted.names()[2], "c");
    // JSON round trip of the input.
    let json = serde_json::to_string(&r).unwrap();
    let back: Results = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
}

#[test]
fn errors_are_typed() {
    let opts = FitOptions::new();
    assert_eq!(
        fit(2, &[PairResult::new(0, 2, 1.0, 0.0, 1.0)], &opts).unwrap_err(),
        RatingError::PlayerOutOfRange { player: 2, players: 2 }
    );
    assert_eq!(
        fit(2, &[PairResult::new(1, 1, 1.0, 0.0, 1.0)], &opts).unwrap_err(),
        RatingError::SelfPlay { player: 1 }
    );
    assert!(matches!(
        fit(2, &[PairResult::new(0, 1, -1.0, 0.0, 1.0)], &opts),
        Err(RatingError::InvalidCount { a: 0, b: 1, .. })
    ));
    assert!(matches!(
        fit(2, &[PairResult::new(0, 1, 1.0, f64::NAN, 1.0)], &opts),
        Err(RatingError::InvalidCount { .. })
    ));
    // Player 2 never played.
    assert_eq!(
        fit(3, &[PairResult::new(0, 1, 1.0, 1.0, 1.0)], &opts).unwrap_err(),
        RatingError::Disconnected { player: 2 }
    );
    // Players 2 and 3 only played each other.
    let islands = [PairResult::new(0, 1, 1.0, 1.0, 1.0), PairResult::new(2, 3, 1.0, 1.0, 1.0)];
    assert!(matches!(fit(4, &islands, &opts), Err(RatingError::Disconnected { player: 2 })));
    // …unless each island has an anchor.
    assert!(fit(4, &islands, &FitOptions::new().anchor(0, 0.0).anchor(2, 100.0)).is_ok());
    // Player 1 won every game.
    let perfect = [PairResult::new(0, 1, 0.0, 0.0, 5.0), PairResult::new(1, 2, 3.0, 0.0, 0.0)];
    assert_eq!(fit(3, &perfect, &opts).unwrap_err(), RatingError::Unbounded { player: 1, direction: Direction::Up });
    // Player 2 lost every game (player 1 is fine: it drew with 0).
    let hopeless = [PairResult::new(0, 1, 2.0, 2.0, 2.0), PairResult::new(1, 2, 3.0, 0.0, 0.0)];
    assert_eq!(fit(3, &hopeless, &opts).unwrap_err(), RatingError::Unbounded { player: 2, direction: Direction::Down });
    // A group {1, 2} that won every game against the anchor's group.
    let group = [
        PairResult::new(0, 1, 0.0, 0.0, 2.0),
        PairResult::new(1, 2, 1.0, 1.0, 1.0),
        PairResult::new(0, 2, 0.0, 0.0, 1.0),
    ];
    assert!(matches!(fit(3, &group, &opts), Err(RatingError::Unbounded { direction: Direction::Up, .. })));
    // The documented remedy: virtual draws.
    let r = fit(3, &perfect, &FitOptions::new().virtual_draws(1.0)).unwrap();
    assert!(r.rating(1).is_finite() && r.rating(1) > r.rating(0) && r.rating(1) > r.rating(2));
    assert!(fit(3, &group, &FitOptions::new().virtual_draws(0.5)).is_ok());
    // Every game drawn: ν is unbounded; fixing it is the remedy.
    let draws = [PairResult::new(0, 1, 0.0, 4.0, 0.0)];
    assert_eq!(fit(2, &draws, &opts).unwrap_err(), RatingError::NoDecisiveGames);
    let r = fit(2, &draws, &FitOptions::new().fixed_draw_nu(2.0)).unwrap();
    assert!(close(r.rating(1), 0.0, 1e-9));
    // Bad options and anchors.
    let ok = [PairResult::new(0, 1, 1.0, 1.0, 1.0)];
    assert!(matches!(fit(2, &ok, &FitOptions::new().virtual_draws(-1.0)), Err(RatingError::InvalidOption(_))));
    assert!(matches!(fit(2, &ok, &FitOptions::new().fixed_draw_nu(0.0)), Err(RatingError::InvalidOption(_))));
    assert!(matches!(fit(2, &ok, &FitOptions::new().confidence(1.0)), Err(RatingError::InvalidOption(_))));
    assert!(matches!(fit(2, &ok, &FitOptions::new().bootstrap(1, 0)), Err(RatingError::InvalidOption(_))));
    assert!(matches!(
        fit(2, &[PairResult::new(0, 1, 1.5, 1.0, 1.0)], &FitOptions::new().bootstrap(10, 0)),
        Err(RatingError::InvalidOption(_))
    ));
    assert_eq!(
        fit(2, &ok, &FitOptions::new().anchor(5, 0.0)).unwrap_err(),
        RatingError::InvalidAnchor { player: 5, rating: 0.0 }
    );
    assert!(matches!(
        fit(2, &ok, &FitOptions::new().anchor(0, 0.0).anchor(0, 1.0)),
        Err(RatingError::InvalidAnchor { player: 0, .. })
    ));
    assert!(matches!(
        fit(2, &ok, &FitOptions::new().anchor(1, f64::INFINITY)),
        Err(RatingError::InvalidAnchor { player: 1, .. })
    ));
    let mut results = Results::new(2);
    assert!(matches!(results.add(0, 3, Win), Err(RatingError::PlayerOutOfRange { player: 3, .. })));
    // Errors print a message that names the remedy.
    let msg = RatingError::Unbounded { player: 1, direction: Direction::Up }.to_string();
    assert!(msg.contains("virtual_draws"), "{msg}");
}

#[test]
fn predictions_and_match_intervals() {
    let pairs = [PairResult::new(0, 1, 40.0, 30.0, 30.0)];
    let r = fit(2, &pairs, &FitOptions::new()).unwrap();
    let p = r.predict(0, 1);
    assert!(close(p.win + p.draw + p.loss, 1.0, 1e-12));
    let q = r.predict(1, 0);
    assert!(close(p.win, q.loss, 1e-12) && close(p.score + q.score, 1.0, 1e-12));
    let m = r.predict_match(0, 1, 100);
    assert!(m.low < m.score && m.score < m.high);
    assert!(close(m.std_error, m.rating_sd.hypot(m.sampling_sd), 1e-15));
    assert!(close(m.sampling_sd, (p.game_variance() / 100.0).sqrt(), 1e-15));
    // More games: narrower, but never narrower than the rating uncertainty.
    let big = r.predict_match(0, 1, 1_000_000);
    assert!(big.high - big.low < m.high - m.low);
    assert!(big.std_error >= big.rating_sd);
    // Zero games: the whole range, no NaN.
    let none = r.predict_match(0, 1, 0);
    assert_eq!((none.low, none.high), (0.0, 1.0));
    // The rating part, checked by a closed form: with two players the model
    // is saturated, so the predicted score is the observed mean score of the
    // 100 fitted games, whose variance is σ²_game/100. The delta method on
    // the covariance of (r1, ln ν) must reproduce it.
    assert!(close(m.rating_sd, (p.game_variance() / 100.0).sqrt(), 1e-9), "{}", m.rating_sd);
}

#[test]
fn extreme_but_finite_results_converge() {
    // One loss in 1000 games: r_1 − r_0 = 400·log10(999) = 1199.57.
    let r = fit(2, &[PairResult::new(0, 1, 1.0, 0.0, 999.0)], &FitOptions::new()).unwrap();
    assert!(close(r.rating(1), 400.0 * 999f64.log10(), 1e-6), "{}", r.rating(1));
    // Millions of games and a long chain of strong players.
    let mut pairs = Vec::new();
    for i in 0..7 {
        pairs.push(PairResult::new(i, i + 1, 1.0e6, 2.0e6, 3.0e5));
    }
    let r = fit(8, &pairs, &FitOptions::new()).unwrap();
    // Each edge alone would give 400·log10(1e6/3e5) = 209.15 per step; the
    // shared ν couples them but by symmetry of the chain every step is equal.
    for i in 0..7 {
        assert!(close(r.rating(i) - r.rating(i + 1), 209.15, 0.01), "{i}: {}", r.rating(i) - r.rating(i + 1));
    }
    // Anchors far apart and far from 0.
    let pairs = [PairResult::new(0, 1, 3.0, 1.0, 3.0), PairResult::new(1, 2, 3.0, 1.0, 3.0)];
    let r = fit(3, &pairs, &FitOptions::new().anchor(0, 25_000.0).anchor(2, 24_000.0)).unwrap();
    assert!(close(r.rating(1), 24_500.0, 1e-6));
}

// ---------------------------------------------------------------------------
// Coverage over simulated tournaments.

fn play(rng: &mut Pcg64, diff: f64, nu: f64) -> GameResult {
    let p = davidson(diff, nu);
    let u: f64 = rng.random();
    if u < p.win {
        Win
    } else if u < p.win + p.draw {
        Draw
    } else {
        Loss
    }
}

/// A round robin among players with these true ratings, `games` games per
/// pair, results drawn from Davidson's model with draw parameter `nu`.
fn tournament(rng: &mut Pcg64, truth: &[f64], nu: f64, games: usize) -> Results {
    let mut results = Results::new(truth.len());
    for a in 0..truth.len() {
        for b in a + 1..truth.len() {
            for _ in 0..games {
                results.add(a, b, play(rng, truth[a] - truth[b], nu)).unwrap();
            }
        }
    }
    results
}

#[test]
fn intervals_cover_the_true_ratings() {
    // 300 round robins of 6 players spanning 600 Elo, 30 games per pair (450
    // games each), ν = 0.8 (29% draws between equals). Player 0 is anchored at
    // its true rating, so each tournament gives 5 rating intervals, 15
    // difference intervals and 3 match predictions.
    //
    // Tolerance: with p = 0.95 and n = 1500 independent intervals the SD of
    // the coverage rate is √(0.95·0.05/1500) = 0.56%; intervals of one
    // tournament share data and are positively correlated, at worst as if
    // only the 300 tournaments were independent: SD 1.26%. The band
    // [92%, 98%] is ±3 points: ≥ 2.4 SD in the worst case, 5 SD if
    // independent. A wrong variance (e.g. a factor 2) gives 83% or 99.4%.
    let truth = [0.0, 120.0, 240.0, 360.0, 480.0, 600.0];
    let nu = 0.8;
    let mut rng = Pcg64::seed_from_u64(20_240_601);
    let (mut covered, mut total) = (0usize, 0usize);
    let (mut diff_covered, mut diff_total) = (0usize, 0usize);
    let (mut match_covered, mut match_total) = (0usize, 0usize);
    let (mut nu_covered, mut nu_total) = (0usize, 0usize);
    for _ in 0..300 {
        let results = tournament(&mut rng, &truth, nu, 30);
        let r = results.fit(&FitOptions::new().anchor(0, 0.0)).unwrap();
        for i in 1..truth.len() {
            let (lo, hi) = r.player(i).interval;
            covered += usize::from(lo <= truth[i] && truth[i] <= hi);
            total += 1;
        }
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let (_, lo, hi) = r.difference_interval(a, b);
                let d = truth[a] - truth[b];
                diff_covered += usize::from(lo <= d && d <= hi);
                diff_total += 1;
            }
        }
        let (nlo, nhi) = r.draw_nu_interval();
        nu_covered += usize::from(nlo <= nu && nu <= nhi);
        nu_total += 1;
        // A future match of 100 games, played with the true ratings.
        for (a, b) in [(1, 4), (2, 3), (5, 0)] {
            let m = r.predict_match(a, b, 100);
            let mut points = 0.0;
            for _ in 0..100 {
                points += play(&mut rng, truth[a] - truth[b], nu).score();
            }
            match_covered += usize::from(m.contains(points / 100.0));
            match_total += 1;
        }
    }
    let rate = covered as f64 / total as f64;
    let diff_rate = diff_covered as f64 / diff_total as f64;
    let match_rate = match_covered as f64 / match_total as f64;
    let nu_rate = nu_covered as f64 / nu_total as f64;
    println!(
        "rating coverage {rate:.4} ({total}), difference {diff_rate:.4} ({diff_total}), \
         match {match_rate:.4} ({match_total}), nu {nu_rate:.4} ({nu_total})"
    );
    assert!((0.92..=0.98).contains(&rate), "rating coverage {rate}");
    assert!((0.92..=0.98).contains(&diff_rate), "difference coverage {diff_rate}");
    // 900 match predictions from 300 tournaments (3 each): same band.
    assert!((0.92..=0.98).contains(&match_rate), "match coverage {match_rate}");
    // 300 independent ν intervals: SD 1.26%, band ±4 points (3.2 SD).
    assert!((0.91..=0.99).contains(&nu_rate), "nu coverage {nu_rate}");
}

#[test]
fn bootstrap_intervals_cover_the_true_ratings() {
    // 100 smaller tournaments (5 players, 24 games per pair), 200 bootstrap
    // replicates each: 400 intervals, at worst 100 independent (SD 2.2%).
    // Percentile intervals from 200 replicates are themselves noisy and a
    // little short for small samples, so the band is wider: [88%, 99%].
    let truth = [0.0, 150.0, 300.0, 450.0, 600.0];
    let nu = 1.0;
    let mut rng = Pcg64::seed_from_u64(77);
    let (mut covered, mut total, mut failures) = (0usize, 0usize, 0usize);
    let mut width_ratio = 0.0;
    for t in 0..100 {
        let results = tournament(&mut rng, &truth, nu, 24);
        let r = results.fit(&FitOptions::new().bootstrap(200, 1000 + t)).unwrap();
        failures += r.bootstrap_failures().unwrap();
        for i in 1..truth.len() {
            let (lo, hi) = r.player(i).bootstrap.unwrap();
            covered += usize::from(lo <= truth[i] && truth[i] <= hi);
            total += 1;
            let (clo, chi) = r.player(i).interval;
            width_ratio += (hi - lo) / (chi - clo);
        }
    }
    let rate = covered as f64 / total as f64;
    width_ratio /= total as f64;
    println!(
        "bootstrap coverage {rate:.4} ({total}), failed replicates {failures}, \
         mean width bootstrap/curvature {width_ratio:.3}"
    );
    assert!((0.88..=0.99).contains(&rate), "bootstrap coverage {rate}");
    // The two methods estimate the same spread.
    assert!((0.85..=1.15).contains(&width_ratio), "width ratio {width_ratio}");
}

#[test]
fn bootstrap_is_reproducible() {
    let mut rng = Pcg64::seed_from_u64(5);
    let results = tournament(&mut rng, &[0.0, 100.0, 200.0], 1.0, 20);
    let a = results.fit(&FitOptions::new().bootstrap(50, 9)).unwrap();
    let b = results.fit(&FitOptions::new().bootstrap(50, 9)).unwrap();
    let c = results.fit(&FitOptions::new().bootstrap(50, 10)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.player(1).bootstrap, c.player(1).bootstrap);
}

/// Expected counts of `games` games at rating difference `diff` (scaled as
/// the games see it) with draw parameter `nu`: data that the model with the
/// planted ratings explains exactly.
fn expected(a: usize, b: usize, diff: f64, nu: f64, games: f64) -> PairResult {
    let p = davidson(diff, nu);
    PairResult::new(a, b, games * p.win, games * p.draw, games * p.loss)
}

/// Five players: 0 and 1 another program's, 2 to 4 one engine at three
/// budgets; the engine's games among themselves see `k` times the
/// difference.
fn self_play_pool(k: f64) -> (Vec<f64>, Vec<PairResult>, Vec<Option<u32>>) {
    let truth = vec![0.0, 150.0, 120.0, 260.0, 380.0];
    let group = vec![None, None, Some(7), Some(7), Some(7)];
    let mut pairs = Vec::new();
    for a in 0..5 {
        for b in a + 1..5 {
            let scale = if group[a].is_some() && group[b].is_some() { k } else { 1.0 };
            pairs.push(expected(a, b, scale * (truth[a] - truth[b]), 0.3, 400.0));
        }
    }
    (truth, pairs, group)
}

#[test]
fn a_self_play_scale_is_recovered_with_the_ratings() {
    for k in [0.7, 1.0, 2.0, 3.0] {
        let (truth, pairs, group) = self_play_pool(k);
        let r = fit(5, &pairs, &FitOptions::new().self_play_groups(group.clone())).unwrap();
        let s = r.self_play_scale().unwrap();
        assert!(close(s.scale, k, 1e-4) && s.fitted, "{k}: {s:?}");
        assert!(s.interval.0 < k && k < s.interval.1, "{s:?}");
        for (i, &t) in truth.iter().enumerate() {
            assert!(close(r.rating(i), t, 0.05), "{k}: player {i} at {} for {t}", r.rating(i));
        }
        // Predictions reproduce every pairing, and the fit leaves no misfit.
        for p in &pairs {
            assert!(close(r.predict(p.a, p.b).score, p.points_a() / p.games(), 1e-5));
        }
        let m = strength::misfit::misfit(&r, &pairs).unwrap();
        assert!(m.chi2 < 1e-6 && m.dof == 10 - 4 - 1, "{m:?}");
        // The plain fit misses the self-play games whenever k ≠ 1.
        let plain = strength::misfit::misfit(&fit(5, &pairs, &FitOptions::new()).unwrap(), &pairs).unwrap();
        assert_eq!(plain.chi2 > 1.0, k != 1.0, "{k}: {plain:?}");
    }
}

#[test]
fn a_fixed_self_play_scale_is_a_point_and_scale_one_is_the_plain_fit() {
    let (_, pairs, group) = self_play_pool(2.0);
    let fixed = fit(5, &pairs, &FitOptions::new().self_play_groups(group.clone()).fixed_self_play_scale(2.0)).unwrap();
    let s = fixed.self_play_scale().unwrap();
    assert_eq!((s.scale, s.interval, s.fitted), (2.0, (2.0, 2.0), false));
    assert!(close(fixed.rating(4), 380.0, 0.05));
    // The order of the two calls does not matter.
    let other = fit(5, &pairs, &FitOptions::new().fixed_self_play_scale(2.0).self_play_groups(group.clone())).unwrap();
    assert_eq!(other.rating(4), fixed.rating(4));
    let one = fit(5, &pairs, &FitOptions::new().self_play_groups(group).fixed_self_play_scale(1.0)).unwrap();
    let plain = fit(5, &pairs, &FitOptions::new()).unwrap();
    for i in 0..5 {
        assert!(close(one.rating(i), plain.rating(i), 1e-9));
        assert!(close(one.player(i).std_error, plain.player(i).std_error, 1e-9));
    }
    assert_eq!(plain.self_play_scale(), None);
    assert_eq!(plain.pair_scale(2, 3), 1.0);
}

#[test]
fn the_self_play_fit_maximises_the_likelihood() {
    // Noisy counts: the fitted scale and ratings beat every nearby point.
    let pairs = [
        PairResult::new(0, 1, 30.0, 12.0, 18.0),
        PairResult::new(1, 2, 11.0, 9.0, 20.0),
        PairResult::new(0, 2, 17.0, 10.0, 23.0),
        PairResult::new(2, 3, 6.0, 8.0, 36.0),
        PairResult::new(1, 3, 14.0, 11.0, 25.0),
        PairResult::new(0, 3, 12.0, 9.0, 19.0),
    ];
    let group = vec![None, None, Some(0), Some(0)];
    let best = fit(4, &pairs, &FitOptions::new().self_play_groups(group.clone())).unwrap();
    let k = best.self_play_scale().unwrap().scale;
    let at = |r: [f64; 3], k: f64| {
        let options = FitOptions::new()
            .anchor(0, 0.0)
            .anchor(1, r[0])
            .anchor(2, r[1])
            .anchor(3, r[2])
            .fixed_draw_nu(best.draw_nu())
            .self_play_groups(group.clone())
            .fixed_self_play_scale(k);
        fit(4, &pairs, &options).unwrap().log_likelihood()
    };
    let r = [best.rating(1), best.rating(2), best.rating(3)];
    assert!(close(at(r, k), best.log_likelihood(), 1e-6));
    for (d, dk) in [([1.0, 0.0, 0.0], 0.0), ([0.0, 1.0, 0.0], 0.0), ([0.0, 0.0, 1.0], 0.0), ([0.0; 3], 0.01)] {
        for sign in [1.0, -1.0] {
            let moved = [r[0] + sign * d[0], r[1] + sign * d[1], r[2] + sign * d[2]];
            assert!(at(moved, k + sign * dk) < best.log_likelihood(), "{d:?} {dk}");
        }
    }
}

#[test]
fn self_play_groups_that_cannot_be_fitted_are_refused() {
    let pairs = [PairResult::new(0, 1, 5.0, 2.0, 3.0), PairResult::new(0, 2, 4.0, 2.0, 4.0)];
    // 1 and 2 never met: the scale has no games to be fitted from.
    let apart = fit(3, &pairs, &FitOptions::new().self_play_groups(vec![None, Some(0), Some(0)]));
    assert!(matches!(apart, Err(RatingError::InvalidOption(_))), "{apart:?}");
    // A group per player of the results, no more, no fewer.
    let short = fit(3, &pairs, &FitOptions::new().self_play_groups(vec![None, Some(0)]));
    assert!(matches!(short, Err(RatingError::InvalidOption(_))), "{short:?}");
    for k in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let bad =
            fit(3, &pairs, &FitOptions::new().self_play_groups(vec![None, Some(0), Some(0)]).fixed_self_play_scale(k));
        assert!(matches!(bad, Err(RatingError::InvalidOption(_))), "{k}: {bad:?}");
    }
}
