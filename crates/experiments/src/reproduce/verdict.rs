//! The verdict rules of the report, as code (written out in
//! `docs/reproduction-rules.md`). Every verdict of `docs/reproduction.md`
//! is one of [`Verdict`]'s four words, produced by one of the functions
//! below from numbers the report prints beside it.
//!
//! - A **number** the paper prints ([`number`]): equivalence with a
//!   tolerance fixed in advance. Reproduced when our 95% interval lies
//!   inside paper ± tolerance; not reproduced when it lies entirely outside;
//!   inconclusive otherwise (our interval is too wide to tell).
//! - A **table** ([`combine`]): reproduced when every cell is; not
//!   reproduced when no cell is and some are not; partly reproduced when
//!   some cells are and some are not; inconclusive when no cell is not
//!   reproduced but some are inconclusive.
//! - A **claim** "x is above t" ([`above`]) with a smallest effect δ fixed in
//!   advance: reproduced when the interval lies above t; not reproduced when
//!   it lies below t + δ (an effect of δ or more is excluded: "no advantage
//!   found", or "contradicted" when the interval lies below t); inconclusive
//!   when the interval contains both t and t + δ.
//! - A **curve** claim (a trend) is a set of claims, one per step or end to
//!   end, combined by [`combine`].

use std::fmt;

/// The four verdict words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The paper's result holds.
    Reproduced,
    /// Some parts hold, some do not.
    Partly,
    /// The paper's result does not hold.
    NotReproduced,
    /// The data cannot tell.
    Inconclusive,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Partly => "partly reproduced",
            Verdict::NotReproduced => "not reproduced",
            Verdict::Inconclusive => "inconclusive",
        })
    }
}

/// An exact check as a report row: the quantity, our value and the
/// expected one (the paper's, or what its claim implies), both as printed,
/// and the verdict, reproduced when the two are equal (tolerance 0).
pub(crate) fn exact_row(quantity: &str, ours: &str, expected: &str) -> super::Row {
    let v = if ours == expected { Verdict::Reproduced } else { Verdict::NotReproduced };
    super::row!("quantity" => quantity, "ours" => ours, "paper" => expected, "verdict" => v.to_string())
}

/// The verdict an [`exact_row`] carries.
pub(crate) fn of_exact_row(row: &super::Row) -> Verdict {
    if row.get("verdict").and_then(|v| v.as_str()) == Some("reproduced") {
        Verdict::Reproduced
    } else {
        Verdict::NotReproduced
    }
}

/// The z of a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.96;

/// A number against the paper's: `ours ± 1.96·se` inside `paper ± tol`.
/// An exact computation has `se = 0`.
pub fn number(ours: f64, se: f64, paper: f64, tol: f64) -> Verdict {
    let (lo, hi) = (ours - Z95 * se, ours + Z95 * se);
    if lo >= paper - tol && hi <= paper + tol {
        Verdict::Reproduced
    } else if hi < paper - tol || lo > paper + tol {
        Verdict::NotReproduced
    } else {
        Verdict::Inconclusive
    }
}

/// [`number`] with its inputs, for the report.
pub(crate) fn number_text(ours: f64, se: f64, paper: f64, tol: f64, digits: usize) -> String {
    let v = number(ours, se, paper, tol);
    if se > 0.0 {
        format!(
            "ours {ours:.digits$} [{:.digits$}, {:.digits$}] vs paper {paper:.digits$} ± {tol:.digits$}: **{v}**",
            ours - Z95 * se,
            ours + Z95 * se
        )
    } else {
        format!("ours {ours:.digits$} (exact) vs paper {paper:.digits$} ± {tol:.digits$}: **{v}**")
    }
}

/// Counts of verdicts, for a table or a curve.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) reproduced: usize,
    pub(crate) not: usize,
    pub(crate) inconclusive: usize,
}

impl Tally {
    pub(crate) fn add(&mut self, v: Verdict) {
        match v {
            Verdict::Reproduced => self.reproduced += 1,
            Verdict::NotReproduced => self.not += 1,
            Verdict::Inconclusive => self.inconclusive += 1,
            // A part that is itself partly reproduced counts on both sides.
            Verdict::Partly => {
                self.reproduced += 1;
                self.not += 1;
            }
        }
    }

    pub(crate) fn of(vs: impl IntoIterator<Item = Verdict>) -> Tally {
        let mut t = Tally::default();
        for v in vs {
            t.add(v);
        }
        t
    }

    /// The table rule (module documentation).
    pub(crate) fn verdict(&self) -> Verdict {
        match (self.reproduced > 0, self.not > 0, self.inconclusive > 0) {
            (_, false, false) => Verdict::Reproduced,
            (true, true, _) => Verdict::Partly,
            (false, true, _) => Verdict::NotReproduced,
            (_, false, true) => Verdict::Inconclusive,
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "**{}** ({} reproduced, {} not reproduced, {} inconclusive)",
            self.verdict(),
            self.reproduced,
            self.not,
            self.inconclusive
        )
    }
}

/// The table rule applied to `vs`.
pub fn combine(vs: impl IntoIterator<Item = Verdict>) -> Verdict {
    Tally::of(vs).verdict()
}

/// The claim "the quantity is above `threshold`", from its 95% interval
/// `[lo, hi]` and the smallest effect `delta` that would count.
pub fn above(lo: f64, hi: f64, threshold: f64, delta: f64) -> Verdict {
    if lo > threshold {
        Verdict::Reproduced
    } else if hi < threshold + delta {
        Verdict::NotReproduced
    } else {
        Verdict::Inconclusive
    }
}

/// [`above`] with a word on why a claim failed.
pub fn above_text(lo: f64, hi: f64, threshold: f64, delta: f64) -> String {
    let v = above(lo, hi, threshold, delta);
    match v {
        Verdict::NotReproduced if hi < threshold => format!("**{v}** (contradicted: the interval lies below)"),
        Verdict::NotReproduced => {
            format!("**{v}** (no effect found: an effect of the smallest size or more is excluded)")
        }
        Verdict::Inconclusive => {
            format!("**{v}** (the interval holds both no effect and an effect of the smallest size)")
        }
        _ => format!("**{v}**"),
    }
}
