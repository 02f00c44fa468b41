//! Property tests on random small games: the LP's value is the value of
//! every equilibrium support enumeration finds in a zero-sum game; every
//! equilibrium any method returns passes the check; Lemke–Howson lands on
//! one of support enumeration's equilibria when the game is nondegenerate
//! (which then has an odd number of them); `.nfg` text round-trips and
//! arbitrary text never panics the reader. `cargo xtask fuzz` runs these
//! with many cases.

use equilibria::lemke_howson::lemke_howson;
use equilibria::nfg::{NfgVersion, parse};
use equilibria::verify::verify_rounded;
use equilibria::{Bimatrix, Method, Options, Rational, frac, int, solve, solve_zero_sum, support_enumeration, verify};
use proptest::prelude::*;

/// An `m × n` integer matrix (`1..=max` rows and columns), entries in `-range..=range`.
fn matrix(max: usize, range: i64) -> impl Strategy<Value = Vec<Vec<i64>>> {
    (1..=max, 1..=max).prop_flat_map(move |(m, n)| prop::collection::vec(prop::collection::vec(-range..=range, n), m))
}

/// A bimatrix game with both matrices of the same shape.
fn bimatrix(max: usize, range: i64) -> impl Strategy<Value = Bimatrix> {
    (1..=max, 1..=max).prop_flat_map(move |(m, n)| {
        let mat = move || prop::collection::vec(prop::collection::vec(-range..=range, n), m);
        (mat(), mat()).prop_map(|(a, b)| Bimatrix::from_integers(&a, &b).unwrap())
    })
}

/// The game written as a `.nfg` file of the given version.
fn to_nfg(g: &Bimatrix, version: NfgVersion) -> String {
    let (m, n) = (g.rows(), g.cols());
    let mut s = format!("NFG 1 R \"random \\\"game\\\"\" {{ \"P1\" \"P2\" }} {{ {m} {n} }}\n");
    match version {
        NfgVersion::Payoff => {
            for j in 0..n {
                for i in 0..m {
                    s += &format!("{} {}\n", g.a(i, j), g.b(i, j));
                }
            }
        }
        NfgVersion::Outcome => {
            s += "{\n";
            for j in 0..n {
                for i in 0..m {
                    s += &format!("{{ \"o{i}{j}\" {}, {} }}\n", g.a(i, j), g.b(i, j));
                }
            }
            s += "}\n";
            for k in 0..m * n {
                s += &format!("{} ", k + 1);
            }
        }
    }
    s
}

/// 256 cases, or `PROPTEST_CASES`; no regression files (a failure prints
/// its minimal input).
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 256;
    }
    config.failure_persistence = None;
    config
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fuzz_lp_value_is_every_equilibrium_value(a in matrix(4, 5)) {
        let g = Bimatrix::zero_sum_integers(&a).unwrap();
        let lp = solve_zero_sum(&g).unwrap();
        let found = support_enumeration(&g).unwrap();
        prop_assert!(!found.equilibria.is_empty());
        for e in &found.equilibria {
            prop_assert_eq!(&e.payoffs[0], &lp.value);
            verify(&g, e).unwrap();
        }
        // The LP's own profile is an equilibrium with that value.
        let (u, _) = g.payoffs(&lp.row, &lp.col).unwrap();
        prop_assert_eq!(u, lp.value);
        let auto = solve(&g, &Options::default()).unwrap();
        prop_assert_eq!(auto.method, "lp+support");
    }

    #[test]
    fn fuzz_support_enumeration_returns_equilibria(g in bimatrix(4, 3)) {
        let found = support_enumeration(&g).unwrap();
        prop_assert!(!found.equilibria.is_empty(), "every game has an equilibrium");
        for e in &found.equilibria {
            verify(&g, e).unwrap();
            verify_rounded(&g, e).unwrap();
            if !found.degenerate {
                let [k, l] = e.support_sizes();
                prop_assert_eq!(k, l);
            }
        }
        if !found.degenerate {
            prop_assert_eq!(found.equilibria.len() % 2, 1, "a nondegenerate game has an odd number");
        }
    }

    #[test]
    fn fuzz_lemke_howson_finds_one_of_them(g in bimatrix(4, 50)) {
        let found = support_enumeration(&g).unwrap();
        for label in 0..g.rows() + g.cols() {
            let lh = lemke_howson(&g, label).unwrap();
            verify(&g, &lh.equilibrium).unwrap();
            if !found.degenerate {
                prop_assert!(found.equilibria.contains(&lh.equilibrium), "label {}: {}", label, lh.equilibrium);
                prop_assert!(!lh.degenerate);
            }
        }
        let all = solve(&g, &Options { method: Method::LemkeHowson, ..Options::default() }).unwrap();
        prop_assert!(!all.equilibria.is_empty());
    }

    #[test]
    fn fuzz_equilibria_survive_affine_payoffs(g in bimatrix(3, 4), p in 1i64..1000, q in 1i64..1000, c in -50i64..50, big in any::<bool>()) {
        // Each player's payoffs times p/q (or times 10¹⁷, beyond the integer
        // fast path), plus a constant: the same equilibria.
        let factor = if big { int(100_000_000_000_000_000) } else { frac(p, q) };
        let map = |m: Vec<Vec<Rational>>| m.into_iter().map(|r| r.into_iter().map(|v| v * &factor + int(c)).collect()).collect();
        let h = Bimatrix::new(map(g.a_rows()), map(g.b_rows())).unwrap();
        let (e, f) = (support_enumeration(&g).unwrap(), support_enumeration(&h).unwrap());
        let profiles = |x: &equilibria::Enumeration| x.equilibria.iter().map(|e| (e.row.clone(), e.col.clone())).collect::<Vec<_>>();
        prop_assert_eq!(profiles(&e), profiles(&f));
        prop_assert_eq!(e.degenerate, f.degenerate);
    }

    #[test]
    fn fuzz_lemke_howson_on_degenerate_games(g in bimatrix(5, 1)) {
        // Payoffs in {-1, 0, 1}: ties everywhere, yet every path ends at an equilibrium.
        for label in 0..g.rows() + g.cols() {
            let lh = lemke_howson(&g, label).unwrap();
            verify(&g, &lh.equilibrium).unwrap();
        }
    }

    #[test]
    fn fuzz_nfg_round_trips(g in bimatrix(4, 20), outcome in any::<bool>()) {
        let version = if outcome { NfgVersion::Outcome } else { NfgVersion::Payoff };
        let parsed = parse(&to_nfg(&g, version)).unwrap();
        prop_assert_eq!(parsed.version, version);
        prop_assert_eq!(&parsed.title, "random \"game\"");
        prop_assert_eq!(parsed.to_bimatrix().unwrap(), g);
    }

    #[test]
    fn fuzz_nfg_never_panics(text in "(NFG 1 R )?[\"{} ,0-9a-zR/.e\\\\-]{0,80}") {
        let _ = parse(&text);
    }

    #[test]
    fn fuzz_nfg_truncated_files_are_errors(g in bimatrix(3, 9), cut in 0usize..200) {
        let text = to_nfg(&g, NfgVersion::Outcome);
        let cut = cut.min(text.len());
        if cut < text.trim_end().len() {
            // Every prefix that drops a token is an error with a position inside the text.
            if let Err(e) = parse(&text[..cut]) {
                prop_assert!(e.at.line >= 1 && e.at.line <= text[..cut].lines().count().max(1) + 1);
            }
        }
    }
}
