//! Pentanomial and trinomial statistics: hand-computed values, edge cases,
//! and interval coverage on simulated game pairs.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use strength::elo::GameResult::{self, Draw, Loss, Win};
use strength::elo::{elo_to_score, score_to_elo};
use strength::pentanomial::{Pentanomial, Trinomial};
use strength::rating::davidson;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn pairs_land_in_their_cells() {
    let cases = [
        (Loss, Loss, 0),
        (Loss, Draw, 1),
        (Draw, Loss, 1),
        (Draw, Draw, 2),
        (Win, Loss, 2),
        (Loss, Win, 2),
        (Win, Draw, 3),
        (Draw, Win, 3),
        (Win, Win, 4),
    ];
    for (a, b, k) in cases {
        let p = Pentanomial::from_pair(a, b);
        let mut want = [0; 5];
        want[k] = 1;
        assert_eq!(p.counts, want, "{a:?} {b:?}");
        assert_eq!(p.points(), a.score() + b.score());
    }
    let mut p = Pentanomial::new([1, 2, 3, 4, 5]);
    p.merge(&Pentanomial::new([1, 1, 1, 1, 1]));
    assert_eq!(p.counts, [2, 3, 4, 5, 6]);
    assert_eq!(p.pairs(), 20);
    assert_eq!(p.games(), 40);
    assert_eq!(p.reversed().counts, [6, 5, 4, 3, 2]);
}

#[test]
fn worked_example() {
    // 10 pairs: LL 0, LD 2, DD/WL 4, WD 3, WW 1. Per-game pair scores
    // x = 0, ¼, ½, ¾, 1:
    //   μ  = (2·¼ + 4·½ + 3·¾ + 1)/10 = 5.75/10 = 0.575
    //   σ² = (2·0.325² + 4·0.075² + 3·0.175² + 0.425²)/10
    //      = (0.21125 + 0.0225 + 0.091875 + 0.180625)/10 = 0.050625, σ = 0.225
    //   SE = σ/√10 = 0.071151
    //   Elo  = 400·log10(0.575/0.425) = 52.51
    //   95%: score 0.575 ± 1.96·0.071151 = [0.43555, 0.71445]
    //        → Elo [400·log10(0.43555/0.56445), 400·log10(0.71445/0.28555)]
    //        = [−45.04, 159.32]
    //   nElo = (0.575 − 0.5)/(√2·0.225) · 800/ln 10 = 0.235702 · 347.4356 = 81.89
    //   LOS  = Φ(0.075/0.071151) = Φ(1.05409) = 0.8541
    let p = Pentanomial::new([0, 2, 4, 3, 1]);
    let (mean, var) = p.mean_and_variance().unwrap();
    assert!(close(mean, 0.575, 1e-15) && close(var, 0.050625, 1e-15));
    let e = p.elo().unwrap();
    assert!(close(e.value, 52.51, 0.01), "{e:?}");
    assert!(close(e.low, -45.04, 0.01) && close(e.high, 159.32, 0.01), "{e:?}");
    let s = p.score().unwrap();
    assert!(close(s.low, 0.43555, 1e-5) && close(s.high, 0.71445, 1e-5));
    let n = p.normalized_elo().unwrap();
    assert!(close(n.value, 81.89, 0.01), "{n:?}");
    // nElo's interval is the score interval on the nElo scale.
    assert!(close(n.low, (s.low - 0.5) / (2.0 * var).sqrt() * 347.435_585_522_601_5, 1e-9));
    assert!(close(p.los().unwrap(), 0.8541, 1e-4));
}

#[test]
fn trinomial_textbook_values() {
    // 30 W, 20 D, 10 L: μ = 40/60 = 2/3, σ² = (30·(1/3)² + 20·(1/6)² + 10·(2/3)²)/60
    // = (3.3333 + 0.5556 + 4.4444)/60 = 0.138889 = 5/36.
    let t = Trinomial::from_wdl(30, 20, 10);
    let (mean, var) = t.mean_and_variance().unwrap();
    assert!(close(mean, 2.0 / 3.0, 1e-15) && close(var, 5.0 / 36.0, 1e-15));
    assert!(close(t.elo().unwrap().value, 400.0 * 2f64.log10(), 1e-9));
    // nElo = (2/3 − ½)/√(5/36) · 800/ln 10 = 0.447214 · 347.4356 = 155.38
    assert!(close(t.normalized_elo().unwrap().value, 155.38, 0.01));
    assert_eq!((t.wins(), t.draws(), t.losses(), t.games()), (30, 20, 10, 60));
    let mut u = Trinomial::default();
    u.add_pair(Win, Draw);
    u.add_game(Loss);
    assert_eq!(u.counts, [1, 1, 1]);
    assert!(close(u.los().unwrap(), 0.5, 1e-15));
}

#[test]
fn edge_cases_are_defined() {
    // No pairs.
    let empty = Pentanomial::default();
    assert!(empty.score().is_none() && empty.elo().is_none());
    assert!(empty.normalized_elo().is_none() && empty.los().is_none());
    assert!(Trinomial::default().elo().is_none());
    // Every pair the same: zero variance, no spread information; at the
    // ends, the exact one-sided bound of "every pair at the top (bottom)".
    let top = 0.025f64.powf(1.0 / 12.0);
    for k in 0..5 {
        let mut counts = [0; 5];
        counts[k] = 12;
        let p = Pentanomial::new(counts);
        let e = p.elo().unwrap();
        assert_eq!(e.value, score_to_elo(k as f64 / 4.0));
        assert!(p.normalized_elo().is_none() && p.los().is_none());
        let s = p.score().unwrap();
        let expected = match k {
            0 => (0.0, 1.0 - top),
            4 => (top, 1.0),
            _ => (0.0, 1.0),
        };
        assert_eq!((s.low, s.high), expected, "{counts:?}");
        assert_eq!((e.low, e.high), (score_to_elo(expected.0), score_to_elo(expected.1)), "{counts:?}");
    }
    // One pair of each extreme: intervals reach past 0/1 and map to ±∞.
    let p = Pentanomial::new([1, 0, 0, 0, 1]);
    let e = p.elo().unwrap();
    assert_eq!(e.value, 0.0);
    assert!(e.low == f64::NEG_INFINITY && e.high == f64::INFINITY);
    assert!(close(p.los().unwrap(), 0.5, 1e-15));
    // Nothing is NaN anywhere.
    for counts in [[0, 0, 0, 0, 1], [3, 0, 0, 0, 0], [0, 1, 0, 1, 0], [9, 0, 1, 0, 0]] {
        let p = Pentanomial::new(counts);
        let e = p.elo().unwrap();
        assert!(!e.value.is_nan() && !e.low.is_nan() && !e.high.is_nan(), "{counts:?}");
        if let Some(n) = p.normalized_elo() {
            assert!(n.value.is_finite() && n.low.is_finite() && n.high.is_finite());
        }
        if let Some(l) = p.los() {
            assert!((0.0..=1.0).contains(&l));
        }
    }
}

// ---------------------------------------------------------------------------
// Simulation: pairs from openings of unequal balance.

/// The exact pentanomial distribution of a player whose Davidson rating
/// advantage is `delta` (draw parameter 1), over openings that favour white
/// by 0, 150 or 300 Elo equally often; the player has white in the first
/// game of the pair. Within a pair the two results are correlated through
/// the opening.
fn pair_distribution(delta: f64) -> [f64; 5] {
    let mut pdf = [0.0; 5];
    for bias in [0.0, 150.0, 300.0] {
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

fn mean_sd(pdf: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = pdf.iter().enumerate().map(|(k, p)| p * k as f64 / 4.0).sum();
    let var: f64 = pdf.iter().enumerate().map(|(k, p)| p * (k as f64 / 4.0 - mean).powi(2)).sum();
    (mean, var.sqrt())
}

fn play(rng: &mut Pcg64, diff: f64) -> GameResult {
    let p = davidson(diff, 1.0);
    let u: f64 = rng.random();
    if u < p.win {
        Win
    } else if u < p.win + p.draw {
        Draw
    } else {
        Loss
    }
}

#[test]
fn elo_intervals_cover_the_truth() {
    // 600 runs of 150 pairs each for a player 60 Elo (Davidson) stronger,
    // with the games of each pair played from an opening that favours white
    // by 0, 150 or 300 Elo (the distribution `pair_distribution` computes).
    // Tolerance: 600 independent intervals at p = 0.95 have SD
    // √(0.95·0.05/600) = 0.89%; the band [92%, 98%] is ±3.4 SD. An interval
    // built from the wrong variance (say the trinomial one, or a factor 2)
    // falls outside it.
    let pdf = pair_distribution(60.0);
    let (mean, sd) = mean_sd(&pdf);
    let true_elo = score_to_elo(mean);
    let true_nelo = (mean - 0.5) / (2f64.sqrt() * sd) * 800.0 / std::f64::consts::LN_10;
    let mut rng = Pcg64::seed_from_u64(11);
    let runs = 600;
    let (mut elo_in, mut nelo_in, mut tri_in) = (0, 0, 0);
    let (mut penta_width, mut tri_width) = (0.0, 0.0);
    for _ in 0..runs {
        let mut p = Pentanomial::default();
        let mut t = Trinomial::default();
        for _ in 0..150 {
            // Play the two games of the pair, so that the trinomial counts of
            // the same games are exact (a pair score of 1 may be DD or WL).
            let bias = [0.0, 150.0, 300.0][rng.random_range(0..3)];
            let first = play(&mut rng, 60.0 + bias);
            let second = play(&mut rng, 60.0 - bias);
            p.add_pair(first, second);
            t.add_pair(first, second);
        }
        let e = p.elo().unwrap();
        elo_in += usize::from(e.contains(true_elo));
        penta_width += e.width();
        let n = p.normalized_elo().unwrap();
        nelo_in += usize::from(n.contains(true_nelo));
        let te = t.elo().unwrap();
        tri_in += usize::from(te.contains(true_elo));
        tri_width += te.width();
    }
    let elo_rate = elo_in as f64 / runs as f64;
    let nelo_rate = nelo_in as f64 / runs as f64;
    let tri_rate = tri_in as f64 / runs as f64;
    println!(
        "pentanomial Elo coverage {elo_rate:.4}, nElo {nelo_rate:.4}, trinomial {tri_rate:.4} \
         (true Elo {true_elo:.2}, nElo {true_nelo:.2}); mean widths {:.1} vs {:.1}",
        penta_width / runs as f64,
        tri_width / runs as f64
    );
    assert!((0.92..=0.98).contains(&elo_rate), "Elo coverage {elo_rate}");
    assert!((0.92..=0.98).contains(&nelo_rate), "nElo coverage {nelo_rate}");
    // Here the games of a pair are negatively correlated (the opening helps
    // one side in each game), so the trinomial variance is too large: its
    // intervals are wider and over-cover.
    assert!(tri_width > penta_width * 1.05);
    assert!(tri_rate >= elo_rate);
}

#[test]
fn logistic_and_normalized_elo_agree_in_sign() {
    for delta in [-200.0, -30.0, 0.0, 25.0, 300.0] {
        let pdf = pair_distribution(delta);
        let counts: [u64; 5] = std::array::from_fn(|k| (pdf[k] * 1e6).round() as u64);
        let p = Pentanomial::new(counts);
        let e = p.elo().unwrap().value;
        let n = p.normalized_elo().unwrap().value;
        assert!(e.signum() == n.signum() || e.abs() < 0.5, "{delta}: {e} {n}");
        assert!(close(elo_to_score(e), p.score().unwrap().value, 1e-12));
    }
}
