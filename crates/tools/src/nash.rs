//! `cargo xtask nash FILE [--json] [--method auto|lp|support|lemke-howson] [--label K]`:
//! the Nash equilibria of a two-player game in Gambit's `.nfg` format.
//!
//! Reads the file (payoff or outcome version; see [`equilibria::nfg`]),
//! solves it with [`equilibria::solve()`] and prints every equilibrium found:
//! each player's probabilities as exact fractions (with decimals beside the
//! non-integers) and the payoffs. With `--json`, one object:
//! `{"equilibria": [{"strategies": [[p…], [q…]], "payoffs": [u₁, u₂], "exact": {…}}, …],
//! "degenerate": bool, "method": "…", "complete": bool, "value": "…", "game": {…}}`
//! with floats in `strategies` and `payoffs` (in the file's strategy order),
//! their exact fractions as strings under `exact`, and `value` only when
//! the LP ran. A malformed file is an error with its line and column.

use std::fmt::Write as _;
use std::path::PathBuf;

/// The methods (`auto`, `lp`, `support`, `lemke-howson`), for the command line.
pub use equilibria::Method;
use equilibria::nfg::{NfgGame, parse};
use equilibria::{Equilibrium, Options, Rational, Solution, solve, to_f64};
use serde_json::{Value, json};

use crate::TaskResult;

/// Arguments of `cargo xtask nash`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The game: a two-player strategic game in Gambit's .nfg format (payoff or outcome version).
    pub file: PathBuf,
    /// Print one JSON object: {"equilibria": [{"strategies", "payoffs", "exact"}], "degenerate", "method", ...}.
    #[arg(long)]
    pub json: bool,
    /// auto (zero-sum: LP, plus support enumeration when small; else support enumeration when small, else
    /// Lemke–Howson), lp, support or lemke-howson.
    #[arg(long, default_value = "auto")]
    pub method: Method,
    /// Lemke–Howson's initially dropped label: 0..m-1 the first player's strategies, m..m+n-1 the second's
    /// (default: every label in turn, keeping the distinct equilibria).
    #[arg(long)]
    pub label: Option<usize>,
}

pub fn run(args: Args) -> TaskResult {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", args.file.display());
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let nfg = parse(&text).map_err(|e| at(&e))?;
    let game = nfg.to_bimatrix().map_err(|e| at(&e))?;
    let options = Options { method: args.method, label: args.label, ..Options::default() };
    let solution = solve(&game, &options).map_err(|e| at(&e))?;
    if args.json {
        println!("{}", report_json(&nfg, &solution));
    } else {
        print!("{}", report_text(&nfg, &solution));
    }
    Ok(())
}

/// The JSON report (see the module's documentation).
pub fn report_json(nfg: &NfgGame, s: &Solution) -> Value {
    let floats = |v: &[Rational]| v.iter().map(to_f64).collect::<Vec<_>>();
    let exact = |v: &[Rational]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
    let equilibria: Vec<Value> = s
        .equilibria
        .iter()
        .map(|e| {
            json!({
                "strategies": [floats(&e.row), floats(&e.col)],
                "payoffs": floats(&e.payoffs),
                "exact": {"strategies": [exact(&e.row), exact(&e.col)], "payoffs": exact(&e.payoffs)},
            })
        })
        .collect();
    let mut doc = json!({
        "equilibria": equilibria,
        "degenerate": s.degenerate,
        "method": s.method,
        "complete": s.complete,
        "game": {"title": nfg.title, "players": nfg.players, "strategies": nfg.strategies},
    });
    if let (Some(value), Some(map)) = (&s.value, doc.as_object_mut()) {
        map.insert("value".into(), json!(value.to_string()));
    }
    doc
}

/// A probability or payoff: the fraction, and its decimal when not an integer.
fn number(q: &Rational) -> String {
    if q.is_integer() { q.to_string() } else { format!("{q} ({:.6})", to_f64(q)) }
}

/// The text report.
pub fn report_text(nfg: &NfgGame, s: &Solution) -> String {
    let mut out = String::new();
    let title = if nfg.title.is_empty() { "(untitled game)" } else { &nfg.title };
    let [p1, p2] = [&nfg.players[0], &nfg.players[1]];
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{p1}: {} strategies; {p2}: {} strategies", nfg.strategies[0].len(), nfg.strategies[1].len());
    let how = match s.method {
        "lp" => "linear programming (one optimal profile)",
        "lp+support" => "linear programming, then support enumeration",
        "support" => "support enumeration",
        _ => "Lemke–Howson",
    };
    let _ = writeln!(out, "method: {how}");
    if let Some(v) = &s.value {
        let _ = writeln!(out, "value of the game to {p1}: {}", number(v));
    }
    let count = s.equilibria.len();
    let plural = if count == 1 { "equilibrium" } else { "equilibria" };
    let note = if s.degenerate {
        " (the game is degenerate: the list holds extreme equilibria; a set of equilibria between them may hold infinitely many more)"
    } else if s.complete {
        " (all of them: the game is nondegenerate)"
    } else {
        ""
    };
    let _ = writeln!(out, "{count} {plural} found{note}");
    for (k, e) in s.equilibria.iter().enumerate() {
        let _ = writeln!(out, "\nequilibrium {}", k + 1);
        write_equilibrium(&mut out, nfg, e);
    }
    out
}

fn write_equilibrium(out: &mut String, nfg: &NfgGame, e: &Equilibrium) {
    for (p, probs) in [&e.row, &e.col].into_iter().enumerate() {
        let parts: Vec<String> =
            nfg.strategies[p].iter().zip(probs).map(|(name, q)| format!("{name} with {}", number(q))).collect();
        let _ = writeln!(out, "  {}: {}", nfg.players[p], parts.join(", "));
    }
    let _ = writeln!(
        out,
        "  payoffs: {} {}, {} {}",
        nfg.players[0],
        number(&e.payoffs[0]),
        nfg.players[1],
        number(&e.payoffs[1])
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOS: &str =
        "NFG 1 R \"BoS\" { \"Alice\" \"Bob\" } { { \"Opera\" \"Football\" } { \"O\" \"F\" } } 2 1 0 0 0 0 1 2";

    #[test]
    fn the_reports_list_every_equilibrium() {
        let nfg = parse(BOS).unwrap();
        let s = solve(&nfg.to_bimatrix().unwrap(), &Options::default()).unwrap();
        let text = report_text(&nfg, &s);
        assert!(text.contains("3 equilibria found (all of them"), "{text}");
        assert!(text.contains("  Alice: Opera with 2/3 (0.666667), Football with 1/3 (0.333333)\n"), "{text}");
        let doc = report_json(&nfg, &s);
        assert_eq!(doc["method"], "support");
        assert_eq!(doc["degenerate"], false);
        assert_eq!(doc["equilibria"][0]["strategies"], json!([[1.0, 0.0], [1.0, 0.0]]));
        assert_eq!(doc["equilibria"][2]["exact"]["payoffs"], json!(["2/3", "2/3"]));
        assert!(doc.get("value").is_none());
    }
}
