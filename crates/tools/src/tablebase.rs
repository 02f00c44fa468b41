//! `cargo xtask tablebase MATERIAL... [--out DIR] [--json]`: generates
//! endgame tablebases by retrograde analysis (see
//! [`games_chess::tablebase`]), writes each to `DIR/<material>.brtb`, and
//! reports its counts, generation time and file size.

use std::path::PathBuf;
use std::time::Instant;

use games_chess::tablebase::{Generator, Material, SideCounts, Table};
use indicatif::{ProgressBar, ProgressStyle};

use crate::TaskResult;

/// The tables `all` stands for.
pub const STANDARD: [&str; 5] = ["KQK", "KRK", "KPK", "KBNK", "KQKR"];

/// Arguments of `cargo xtask tablebase`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Materials: white's king and pieces, then black's (`KBNK`, `KQKR`), at most four pieces; `all` for
    /// KQK, KRK, KPK, KBNK and KQKR.
    #[arg(required = true)]
    pub materials: Vec<String>,
    /// The directory the tables are written to (`<material>.brtb`).
    #[arg(long, default_value = "tablebases")]
    pub out: PathBuf,
    /// Print one JSON object per table (positions, wins, draws, losses, longest_mate, white_to_move,
    /// black_to_move, seconds, bytes).
    #[arg(long)]
    pub json: bool,
}

/// Generates and writes the tables.
pub fn run(args: Args) -> TaskResult {
    let mut materials = Vec::new();
    for m in &args.materials {
        if m.eq_ignore_ascii_case("all") {
            materials.extend(STANDARD.iter().map(|s| s.parse::<Material>()));
        } else {
            materials.push(m.parse::<Material>());
        }
    }
    let materials = materials.into_iter().collect::<Result<Vec<_>, _>>()?;
    if materials.is_empty() {
        return Err("name at least one material (e.g. KBNK) or `all`".into());
    }
    let mut generator = Generator::new();
    for material in &materials {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
                .expect("static template")
                .progress_chars("=> "),
        );
        let start = Instant::now();
        let table = generator.generate(material, &mut |p| {
            if p.total > 0 {
                bar.set_length(p.total);
                bar.set_position(p.done);
                bar.set_message(format!("{}: positions", p.material));
            } else {
                bar.set_message(format!("{}: retrograde, ply {}", p.material, p.done));
            }
        })?;
        let seconds = start.elapsed().as_secs_f64();
        bar.finish_and_clear();
        let path = table.save(&args.out)?;
        let bytes = std::fs::metadata(&path)?.len();
        report(&table, seconds, &path, bytes, args.json);
    }
    Ok(())
}

fn report(table: &Table, seconds: f64, path: &std::path::Path, bytes: u64, json: bool) {
    let s = table.stats();
    let material = table.material().to_string();
    let side = |c: SideCounts| serde_json::json!({"positions": c.positions, "wins": c.wins, "draws": c.draws, "losses": c.losses});
    if json {
        let v = serde_json::json!({
            "material": material,
            "positions": s.positions,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
            "longest_mate": s.longest_mate,
            "longest_plies": s.longest_plies,
            "white_to_move": side(s.white_to_move),
            "black_to_move": side(s.black_to_move),
            "entries": table.entries(),
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "bytes": bytes,
            "file": path.display().to_string(),
        });
        println!("{v}");
    } else {
        let w = s.white_to_move;
        println!(
            "{material}: {} positions (side to move: {} wins, {} draws, {} losses; white to move: {} wins, {} \
             draws, {} losses); longest mate {} moves (white to move); {seconds:.2} s; {} ({:.1} MB)",
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            w.wins,
            w.draws,
            w.losses,
            s.longest_mate,
            path.display(),
            bytes as f64 / 1e6
        );
    }
}
