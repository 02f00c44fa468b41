//! The verdict rules (moved from `reproduce::verdict`).

use experiments::reproduce::verdict::{Verdict, above, above_text, combine, number};

#[test]
fn numbers() {
    assert_eq!(number(1.0, 0.01, 1.05, 0.1), Verdict::Reproduced);
    assert_eq!(number(1.0, 0.01, 1.5, 0.1), Verdict::NotReproduced);
    assert_eq!(number(1.0, 0.2, 1.05, 0.1), Verdict::Inconclusive);
    assert_eq!(number(2.0, 0.0, 2.0, 0.0), Verdict::Reproduced);
}

#[test]
fn tables() {
    use Verdict::*;
    assert_eq!(combine([Reproduced, Reproduced]), Reproduced);
    assert_eq!(combine([Reproduced, Inconclusive]), Inconclusive);
    assert_eq!(combine([Reproduced, NotReproduced, Inconclusive]), Partly);
    assert_eq!(combine([NotReproduced, Inconclusive]), NotReproduced);
    assert_eq!(combine([Partly]), Partly);
}

#[test]
fn claims() {
    assert_eq!(above(0.52, 0.6, 0.5, 0.05), Verdict::Reproduced);
    assert_eq!(above(0.41, 0.523, 0.5, 0.05), Verdict::NotReproduced);
    assert_eq!(above(0.45, 0.58, 0.5, 0.05), Verdict::Inconclusive);
    assert!(above_text(0.3, 0.4, 0.5, 0.05).contains("contradicted"));
    assert!(above_text(0.41, 0.523, 0.5, 0.05).contains("no effect found"));
}
