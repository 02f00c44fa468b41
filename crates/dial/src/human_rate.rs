//! `cargo xtask human rate`: `human:X` rated on the chess dial's ladder.
//!
//! Each `human:X` (one per rating band's middle, with `pick=sample` and
//! `pick=mode`) is rated by [`rate`](crate::rate) against the
//! committed chess ladder; the result is the mapping from the Lichess rating
//! imitated to the dial's Elo (a measurement, not an assumption), with a
//! least-squares line through it.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::TaskResult;
use crate::rate::{RunSettings, rate_specs};
use taskkit::write_atomic;

/// Arguments of `cargo xtask human rate`.
#[derive(Debug, Clone, clap::Args)]
pub struct RateArgs {
    /// The ratings imitated (repeat or separate by commas; default the bands' middles, 900 to 2100).
    #[arg(long = "rating", value_delimiter = ',')]
    pub ratings: Vec<u32>,
    /// The picks rated: sample, mode (repeat or separate by commas; default both).
    #[arg(long = "pick", value_delimiter = ',')]
    pub picks: Vec<String>,
    /// The games and where they are kept (default `target/human-rate`).
    #[command(flatten)]
    pub run: RunSettings,
}

impl RateArgs {
    /// The ratings imitated: `--rating`, else [`DEFAULT_RATINGS`].
    pub fn ratings(&self) -> Vec<u32> {
        if self.ratings.is_empty() { DEFAULT_RATINGS.to_vec() } else { self.ratings.clone() }
    }

    /// The picks rated: `--pick`, else both `sample` and `mode`.
    pub fn picks(&self) -> Vec<String> {
        if self.picks.is_empty() { vec!["sample".into(), "mode".into()] } else { self.picks.clone() }
    }
}

/// The default ratings: the middles of the bands 800–999 … 2000–2199.
pub const DEFAULT_RATINGS: [u32; 7] = [900, 1100, 1300, 1500, 1700, 1900, 2100];

/// The spec of `human:rating` with `pick`.
fn human_spec(rating: u32, pick: &str) -> String {
    if pick == "sample" { format!("human:{rating}") } else { format!("human:{rating},pick={pick}") }
}

/// The least-squares line `dial = a + b·(rating − 1500)` through the points.
fn line(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| {
        let b = sxy / sxx;
        (my + b * (1500.0 - mx), b)
    })
}

/// Runs `cargo xtask human rate`.
pub fn rate(args: RateArgs) -> TaskResult {
    let (ratings, picks) = (args.ratings(), args.picks());
    for p in &picks {
        if p != "sample" && p != "mode" {
            return Err(format!("--pick {p:?}: expected sample or mode").into());
        }
    }
    let players: Vec<(u32, &str)> = picks.iter().flat_map(|p| ratings.iter().map(move |&x| (x, p.as_str()))).collect();
    let specs: Vec<String> = players.iter().map(|&(x, p)| human_spec(x, p)).collect();
    let out = args.run.out.clone().unwrap_or_else(|| PathBuf::from("target/human-rate"));
    let Some(rated) = rate_specs("chess", &specs, None, &args.run, &out)? else {
        return Ok(());
    };
    let mut mapping = Vec::new();
    for (&(x, pick), a) in players.iter().zip(&rated.agents) {
        mapping.push(json!({
            "rating": x,
            "pick": pick,
            "dial_elo": a.rating,
            "ci95": a.ci95,
            "std_error_games": a.std_error_games,
            "games": a.games,
        }));
    }
    let lines: Vec<Value> = picks
        .iter()
        .filter_map(|pick| {
            let pts: Vec<(f64, f64)> = mapping
                .iter()
                .filter(|m| m["pick"] == pick.as_str())
                .filter_map(|m| Some((m["rating"].as_f64()?, m["dial_elo"].as_f64()?)))
                .collect();
            line(&pts).map(|(a, b)| json!({"pick": pick, "dial_at_1500": a, "slope": b}))
        })
        .collect();
    let mut report = serde_json::to_value(&rated)?;
    report["mapping"] = Value::from(mapping);
    report["lines"] = Value::from(lines);
    write_atomic(&out.join("human-rate.json"), &serde_json::to_string_pretty(&report)?)?;
    if args.run.json {
        println!("{report}");
    } else {
        println!("{}\n{}", markdown_rate(&report), rated.scores_table());
    }
    Ok(())
}

/// The mapping of `human rate`: the Lichess rating imitated → the dial's Elo.
pub fn markdown_rate(report: &Value) -> String {
    let num = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let mut s = format!(
        "Lichess rating imitated → the chess dial's Elo ({}), {} games per pairing with every rung\n\n\
         | human:X | pick | dial Elo | 95% interval | ± its games only | games |\n| ---: | --- | ---: | --- | ---: | ---: |\n",
        report["anchor"].as_str().unwrap_or("?"),
        report["games_per_pairing"]
    );
    for m in report["mapping"].as_array().into_iter().flatten() {
        s += &format!(
            "| {} | {} | {:.0} | {:.0} … {:.0} | {:.0} | {} |\n",
            m["rating"],
            m["pick"].as_str().unwrap_or(""),
            num(&m["dial_elo"]),
            num(&m["ci95"][0]),
            num(&m["ci95"][1]),
            1.96 * num(&m["std_error_games"]),
            m["games"]
        );
    }
    for l in report["lines"].as_array().into_iter().flatten() {
        s += &format!(
            "\npick={}: dial Elo ≈ {:.0} + {:.3} × (Lichess rating − 1500)",
            l["pick"].as_str().unwrap_or(""),
            num(&l["dial_at_1500"]),
            num(&l["slope"])
        );
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_through_the_points() {
        let (a, b) = line(&[(900.0, 100.0), (2100.0, 400.0)]).unwrap();
        assert!((a - 250.0).abs() < 1e-9 && (b - 0.25).abs() < 1e-12);
        assert!(line(&[(900.0, 1.0)]).is_none());
    }

    #[test]
    fn specs_name_the_pick_only_when_it_is_not_the_default() {
        assert_eq!(human_spec(1500, "sample"), "human:1500");
        assert_eq!(human_spec(900, "mode"), "human:900,pick=mode");
    }
}
