//! Reibman and Ballard's experiments (moved from
//! `reproduce::experiments::reibman`).

use experiments::reproduce::experiments::reibman::{
    FIG1_TREE, FIG2_TREE, Strategy, Variant, decode, encode, fig1_choices, fig1_exact, run_batch,
};
use taskkit::stats::mean_se;

#[test]
fn fig1_exact_expectations() {
    let choices = fig1_choices(FIG1_TREE).unwrap();
    let (_, mm, v) = &choices[0];
    assert_eq!(mm.len(), 2, "minimax sees a tie");
    assert_eq!(*v, 0.0);
    assert!((fig1_exact(FIG1_TREE, mm).unwrap() - 0.05).abs() < 1e-12);
    let (_, pr, _) = &choices[1];
    assert_eq!(pr, &vec![1]);
    assert!((fig1_exact(FIG1_TREE, pr).unwrap() - 0.1).abs() < 1e-12);
    // Fig. 2: 2.1 and 2.9.
    let choices = fig1_choices(FIG2_TREE).unwrap();
    assert_eq!(choices[0].1, vec![0]);
    assert!((fig1_exact(FIG2_TREE, &choices[0].1).unwrap() - 2.1).abs() < 1e-12);
    assert_eq!(choices[1].1, vec![1]);
    assert!((fig1_exact(FIG2_TREE, &choices[1].1).unwrap() - 2.9).abs() < 1e-12);
}

#[test]
fn noise_free_deeper_search_pays_more() {
    let strategies = vec![Strategy::Minimax(1), Strategy::Minimax(2), Strategy::Minimax(3)];
    let p = run_batch(11, 300, &[(Variant::Main, strategies)]).unwrap();
    let means: Vec<f64> = p.iter().map(|(_, per_noise)| mean_se(&per_noise[0]).0).collect();
    assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
    // Every payoff is a leaf of the arc-sum tree.
    assert!(p.iter().all(|(_, n)| n.iter().flatten().all(|&x| (0.0..=50.0).contains(&x) && x.fract() == 0.0)));
}

#[test]
fn common_random_numbers_and_encoding() {
    let s = vec![Strategy::Minimax(2)];
    let a = run_batch(5, 20, &[(Variant::Main, s.clone())]).unwrap();
    let b = run_batch(5, 20, &[(Variant::Main, s), (Variant::Divisor50, vec![Strategy::Minimax(3)])]).unwrap();
    assert_eq!(a[0].1, b[0].1, "adding strategies does not change another's games");
    assert_eq!(decode(&encode(&a[0].1[3])).unwrap(), a[0].1[3]);
}
