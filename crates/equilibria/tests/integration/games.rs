//! The shipped example games (`examples/*.nfg`) and their known equilibria,
//! exactly; the reader's errors on malformed files, with their positions.

use equilibria::nfg::{NfgErrorKind, NfgGame, NfgVersion, Position, parse};
use equilibria::verify::verify_rounded;
use equilibria::{
    Bimatrix, Method, Options, Rational, Solution, frac, int, lemke_howson, solve, solve_zero_sum, verify,
};

fn example(name: &str) -> NfgGame {
    let path = format!("{}/examples/{name}.nfg", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Solves with `method` and checks every equilibrium, exactly and rounded.
fn solved(g: &Bimatrix, method: Method) -> Solution {
    let s = solve(g, &Options { method, ..Options::default() }).unwrap();
    for e in &s.equilibria {
        verify(g, e).unwrap();
        verify_rounded(g, e).unwrap();
    }
    s
}

type Profile = (Vec<Rational>, Vec<Rational>);

fn profiles(s: &Solution) -> Vec<Profile> {
    s.equilibria.iter().map(|e| (e.row.clone(), e.col.clone())).collect()
}

#[test]
fn prisoners_dilemma_both_confess() {
    let nfg = example("prisoners_dilemma");
    assert_eq!(nfg.version, NfgVersion::Payoff);
    assert_eq!(nfg.strategies[0], ["Deny", "Confess"]);
    assert!(nfg.comment.starts_with("Payoff version"));
    let g = nfg.to_bimatrix().unwrap();
    let s = solved(&g, Method::Auto);
    assert_eq!(s.method, "support");
    assert!(s.complete && !s.degenerate);
    assert_eq!(profiles(&s), vec![(vec![int(0), int(1)], vec![int(0), int(1)])]);
    assert_eq!(s.equilibria[0].payoffs, [int(-5), int(-5)]);
    let lh = solved(&g, Method::LemkeHowson);
    assert_eq!(profiles(&lh), profiles(&s));
    assert!(solve(&g, &Options { method: Method::Lp, ..Options::default() }).is_err());
}

#[test]
fn matching_pennies_value_zero() {
    let g = example("matching_pennies").to_bimatrix().unwrap();
    let half = vec![frac(1, 2), frac(1, 2)];
    for method in [Method::Auto, Method::Lp, Method::Support, Method::LemkeHowson] {
        let s = solved(&g, method);
        assert_eq!(profiles(&s), vec![(half.clone(), half.clone())], "{method}");
        assert_eq!(s.equilibria[0].payoffs, [int(0), int(0)]);
    }
    let s = solved(&g, Method::Auto);
    assert_eq!((s.method, s.value), ("lp+support", Some(int(0))));
}

#[test]
fn rock_paper_scissors_from_the_outcome_version() {
    let nfg = example("rock_paper_scissors");
    assert_eq!(nfg.version, NfgVersion::Outcome);
    assert_eq!(nfg.payoff(&[0, 0]), Some(&[int(0), int(0)][..])); // the null outcome
    assert_eq!(nfg.payoff(&[1, 0]), Some(&[int(1), int(-1)][..])); // paper beats rock
    let g = nfg.to_bimatrix().unwrap();
    assert_eq!(g, Bimatrix::zero_sum_integers(&[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]]).unwrap());
    let third = vec![frac(1, 3); 3];
    let lp = solve_zero_sum(&g).unwrap();
    assert_eq!((lp.value, lp.row, lp.col), (int(0), third.clone(), third.clone()));
    let s = solved(&g, Method::Auto);
    assert_eq!(profiles(&s), vec![(third.clone(), third.clone())]);
    assert!(!s.degenerate);
}

#[test]
fn battle_of_the_sexes_three_equilibria() {
    let g = example("battle_of_the_sexes").to_bimatrix().unwrap();
    let s = solved(&g, Method::Support);
    assert_eq!(
        profiles(&s),
        vec![
            (vec![int(1), int(0)], vec![int(1), int(0)]),
            (vec![int(0), int(1)], vec![int(0), int(1)]),
            (vec![frac(2, 3), frac(1, 3)], vec![frac(1, 3), frac(2, 3)]),
        ]
    );
    let payoffs: Vec<_> = s.equilibria.iter().map(|e| e.payoffs.clone()).collect();
    assert_eq!(payoffs, vec![[int(2), int(1)], [int(1), int(2)], [frac(2, 3), frac(2, 3)]]);
    // Lemke–Howson from every label reaches only the pure equilibria (the
    // mixed one is the other end of the path from the artificial start's
    // neighbours: it is never reached from (0, 0)).
    let lh = solved(&g, Method::LemkeHowson);
    assert_eq!(profiles(&lh), profiles(&s)[..2].to_vec());
    for label in 0..4 {
        assert!(s.equilibria.contains(&lemke_howson(&g, label).unwrap().equilibrium));
    }
}

#[test]
fn a_degenerate_game_is_reported() {
    let g = example("degenerate").to_bimatrix().unwrap();
    let s = solved(&g, Method::Auto);
    assert!(s.degenerate && !s.complete);
    let cols: Vec<_> = s.equilibria.iter().map(|e| e.col.clone()).collect();
    assert!(cols.contains(&vec![int(1), int(0)]) && cols.contains(&vec![int(0), int(1)]));
    let lh = solved(&g, Method::LemkeHowson);
    assert!(lh.degenerate);
}

/// Parses `text` expecting an error at (line, column) whose kind matches.
fn error_at(text: &str, line: usize, column: usize) -> NfgErrorKind {
    let err = parse(text).expect_err(text);
    assert_eq!(err.at, Position { line, column }, "{err}");
    assert!(err.to_string().starts_with(&format!("line {line}, column {column}: ")));
    err.kind
}

#[test]
fn malformed_files_are_errors_with_positions() {
    use NfgErrorKind::*;
    let head = "NFG 1 R \"t\" { \"A\" \"B\" }";
    assert!(matches!(error_at("", 1, 1), UnexpectedEnd { .. }));
    assert!(matches!(error_at("EFG 2 R", 1, 1), Unexpected { .. }));
    assert!(matches!(error_at("NFG 1 X", 1, 7), Unexpected { .. }));
    assert!(matches!(error_at("NFG 1 R title", 1, 9), Unexpected { .. }));
    assert_eq!(error_at("NFG 1 R \"unterminated\n{ }", 1, 9), UnterminatedString);
    assert_eq!(error_at("NFG 1 R \"ends in a backslash\\", 1, 9), UnterminatedString);
    assert_eq!(error_at("NFG 1 R \"\" { } { }", 1, 12), NoPlayers);
    assert_eq!(error_at(&format!("{head}\n{{ 2 }}"), 2, 1), StrategyLists { lists: 1, players: 2 });
    assert_eq!(error_at(&format!("{head}\n{{ 2 0 }}"), 2, 5), NoStrategies { player: 2 });
    assert_eq!(error_at(&format!("{head}\n{{ {{ \"a\" }} {{ }} }}"), 2, 11), NoStrategies { player: 2 });
    assert_eq!(error_at(&format!("{head}\n{{ 2 x }}"), 2, 5), BadNumber("x".into()));
    assert!(matches!(error_at(&format!("{head}\n{{ 4096 4096 }}"), 2, 1), TooLarge { .. }));
    // Payoff version: too few, a bad number, too many.
    assert!(matches!(error_at(&format!("{head} {{ 2 1 }}\n1 2\n3"), 3, 2), UnexpectedEnd { .. }));
    assert_eq!(error_at(&format!("{head} {{ 2 1 }}\n1 2\n3 4.5.6"), 3, 3), BadNumber("4.5.6".into()));
    assert_eq!(error_at(&format!("{head} {{ 1 1 }}\n1 2 3"), 2, 5), Trailing("\"3\"".into()));
    assert!(matches!(error_at(&format!("{head} {{ 1 1 }}\n1 {{"), 2, 3), Unexpected { .. }));
    // Outcome version: wrong arity, a missing name, an outcome that does not exist.
    let strategies = "{ { \"x\" } { \"y\" \"z\" } }";
    assert_eq!(
        error_at(&format!("{head} {strategies}\n{{ {{ \"o\" 1, 2, 3 }} }}\n1 1"), 2, 3),
        OutcomeArity { outcome: 1, found: 3, expected: 2 }
    );
    assert!(matches!(error_at(&format!("{head} {strategies}\n{{ {{ 1, 2 }} }}\n1 1"), 2, 5), Unexpected { .. }));
    assert_eq!(
        error_at(&format!("{head} {strategies}\n{{ {{ \"o\" 1, 2 }} }}\n1 2"), 3, 3),
        OutcomeIndex { index: "2".into(), outcomes: 1 }
    );
    assert!(matches!(error_at(&format!("{head} {strategies}\n{{ {{ \"o\" 1, 2 }} }}\n1"), 3, 2), UnexpectedEnd { .. }));
    assert_eq!(error_at(&format!("{head} {strategies}\n{{ {{ \"o\" 1 2 }} }} 1 1 1"), 2, 21), Trailing("\"1\"".into()));
}

#[test]
fn the_format_is_read_in_full() {
    // Strategy names with escapes and spaces, a comment, commas in the
    // outcome list (optional), decimals and fractions, the null outcome,
    // tabs and blank lines.
    let text = "NFG 1 R \"A \\\"quoted\\\" title\"\n\t{ \"Row\" \"Col\" }\n\n{ { \"Up \\\\ 1\" \"Down\" }\n  { \"L\" } }\n\"a comment\"\n{ { \"\" .5 1/3 } { \"two\" -2e1, 7 } }\n2 0";
    let g = parse(text).unwrap();
    assert_eq!(g.title, "A \"quoted\" title");
    assert_eq!(g.players, ["Row", "Col"]);
    assert_eq!(g.strategies, vec![vec!["Up \\ 1".to_string(), "Down".into()], vec!["L".into()]]);
    assert_eq!(g.comment, "a comment");
    assert_eq!(g.payoffs, vec![vec![int(-20), int(7)], vec![int(0), int(0)]]);
    // The payoff version with names and the obsolete type letter D.
    let g = parse("NFG 1 D \"\" { \"a\" \"b\" } { { \"x\" \"y\" } { \"z\" } } 0.25 1/4 3 -3").unwrap();
    let b = g.to_bimatrix().unwrap();
    assert_eq!((b.rows(), b.cols(), b.a(1, 0), b.b(1, 0)), (2, 1, &int(3), &int(-3)));
    assert_eq!(g.payoff(&[0, 0]), Some(&[frac(1, 4), frac(1, 4)][..]));
    // Three players parse, but are not a bimatrix game.
    let three = parse("NFG 1 R \"\" { \"1\" \"2\" \"3\" }\n{ 1 1 2 } 1 2 3 4 5 6").unwrap();
    assert_eq!(three.payoff(&[0, 0, 1]), Some(&[int(4), int(5), int(6)][..]));
    let err = three.to_bimatrix().unwrap_err();
    assert_eq!(err.kind, NfgErrorKind::NotTwoPlayers { players: 3 });
    assert_eq!(err.to_string(), "line 1, column 12: the game has 3 players; only two-player games are supported");
    let mut cut = parse("NFG 1 R \"\" { \"1\" \"2\" } { 2 1 } 1 2 3 4").unwrap();
    cut.payoffs.pop();
    assert_eq!(cut.to_bimatrix().unwrap_err().kind, NfgErrorKind::IncompleteTable);
    cut.strategies[0].clear();
    assert_eq!(cut.to_bimatrix().unwrap_err().kind, NfgErrorKind::IncompleteTable);
    let one = parse("NFG 1 R \"\" { \"solo\" } { 2 } 1 2").unwrap();
    assert_eq!(one.to_bimatrix().unwrap_err().kind, NfgErrorKind::NotTwoPlayers { players: 1 });
}
