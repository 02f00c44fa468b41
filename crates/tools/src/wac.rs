//! `cargo xtask wac [--movetime MS] [--limit N] [--epd PATH] [--backup RULE]`:
//! the kibitz engine on the Win At Chess suite (or any EPD file with `bm`
//! operations), in-process, at a fixed time per position.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use games_chess::ChessGame;
use games_chess::shakmaty::Position;
use games_chess::shakmaty::san::San;
/// The largest table `cargo xtask wac` accepts, in MiB (the engine's UCI
/// `Hash` maximum).
pub use games_chess::uci::MAX_HASH_MIB;
use games_chess::uci::{BackupKind, Brain, GoParams, Plan, Settings, time_budget};

use crate::TaskResult;
use taskkit::parsers::table_mib;

/// Arguments of `cargo xtask wac`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Thinking time per position, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Only the first N positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The EPD file (one position per line, with a `bm` operation in SAN).
    /// Default: chess/wac.epd of the shared test data ($BACKUP_RULES_SHARED
    /// or ../shared beside the workspace).
    #[arg(long)]
    pub epd: Option<PathBuf>,
    /// The backup rule (as the engine's `Backup` option).
    #[arg(long, default_value = "alphabeta")]
    pub backup: String,
    /// Transposition table size in MiB, 1 to 1024 (the engine's UCI `Hash` range).
    #[arg(long, default_value_t = 16, value_parser = table_mib(MAX_HASH_MIB))]
    pub hash: usize,
    /// Print only the summary.
    #[arg(long)]
    pub quiet: bool,
}

/// One test position.
struct Entry {
    id: String,
    game: ChessGame,
    /// The best moves in SAN, without check marks.
    best: Vec<String>,
}

/// Parses an EPD line: four FEN fields, then `;`-terminated operations.
fn parse_epd(line: &str, number: usize) -> Result<Entry, String> {
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    if fields.len() < 5 {
        return Err(format!("line {number}: expected 4 FEN fields and operations"));
    }
    let fen = format!("{} 0 1", fields[..4].join(" "));
    let game = ChessGame::from_fen(&fen).map_err(|e| format!("line {number}: {e}"))?;
    let mut best = Vec::new();
    let mut id = format!("#{number}");
    for op in fields[4].split(';').map(str::trim).filter(|op| !op.is_empty()) {
        let (name, args) = op.split_once(' ').unwrap_or((op, ""));
        match name {
            "bm" => best.extend(args.split_whitespace().map(strip_marks)),
            "id" => id = args.trim_matches('"').to_string(),
            _ => {}
        }
    }
    if best.is_empty() {
        return Err(format!("line {number}: no `bm` operation"));
    }
    Ok(Entry { id, game, best })
}

/// SAN without check, mate and annotation marks (`Qxf7+` → `Qxf7`).
fn strip_marks(san: &str) -> String {
    san.trim_end_matches(['+', '#', '!', '?']).to_string()
}

pub fn run(args: Args) -> TaskResult {
    if !(1..=MAX_HASH_MIB).contains(&args.hash) {
        return Err(format!("hash table of {} MiB: give 1 to {MAX_HASH_MIB} MiB", args.hash).into());
    }
    let epd = args
        .epd
        .clone()
        .or_else(|| test_data::path("chess/wac.epd"))
        .ok_or("no --epd FILE given and the shared test data is switched off")?;
    let text = std::fs::read_to_string(&epd).map_err(|e| format!("{}: {e}", epd.display()))?;
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        entries.push(parse_epd(line.trim(), i + 1)?);
    }
    entries.truncate(args.limit.unwrap_or(entries.len()));
    let backup: BackupKind = args.backup.parse()?;
    let mut brain = Brain::new(Settings { backup, hash_mib: args.hash, ..Settings::default() })?;
    let go = GoParams { movetime: Some(args.movetime), ..GoParams::default() };
    let stop = Arc::new(AtomicBool::new(false));
    let (mut solved, mut nodes, mut depth_sum) = (0usize, 0u64, 0u64);
    let mut nps_sum = 0f64;
    let start = Instant::now();
    let mut searching = std::time::Duration::ZERO;
    for e in &entries {
        brain.new_game();
        let plan = Plan { budget: time_budget(&go, e.game.position().turn()), ..Plan::default() };
        let decision = brain.think(&e.game, &plan, &stop, false, |_| {});
        let san =
            decision.best.map_or_else(|| "(none)".to_string(), |mv| San::from_move(e.game.position(), mv).to_string());
        let ok = e.best.contains(&san);
        solved += usize::from(ok);
        nodes += decision.last.nodes;
        depth_sum += u64::from(decision.last.depth);
        nps_sum += decision.last.nps() as f64;
        searching += decision.last.time;
        if !args.quiet {
            println!(
                "{:<8} {} {:<7} bm {:<12} depth {:>2} nodes {:>9} nps {:>8}",
                e.id,
                if ok { "ok  " } else { "MISS" },
                san,
                e.best.join(" "),
                decision.last.depth,
                decision.last.nodes,
                decision.last.nps()
            );
        }
    }
    let n = entries.len().max(1);
    println!(
        "{backup} at {} ms/position: solved {solved}/{} ({:.1}%); mean depth {:.1}; mean nps {:.0} \
         (total {nodes} nodes in {:.1} s of search, {:.0} nps); wall time {:.1} s",
        args.movetime,
        entries.len(),
        100.0 * solved as f64 / n as f64,
        depth_sum as f64 / n as f64,
        nps_sum / n as f64,
        searching.as_secs_f64(),
        nodes as f64 / searching.as_secs_f64().max(1e-9),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_sizes_outside_the_engine_range_are_errors() {
        for hash in [0, MAX_HASH_MIB + 1, usize::MAX] {
            let args = Args {
                movetime: 1,
                limit: Some(0),
                epd: Some("/nonexistent".into()),
                backup: "alphabeta".into(),
                hash,
                quiet: true,
            };
            let e = run(args).unwrap_err().to_string();
            assert!(e.contains("give 1 to 1024 MiB"), "{hash}: {e}");
        }
    }

    #[test]
    fn epd_lines_parse() {
        let e = parse_epd(r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6 Rf7+; id "WAC.001";"#, 1)
            .unwrap();
        assert_eq!(e.id, "WAC.001");
        assert_eq!(e.best, ["Qg6", "Rf7"]);
        assert!(parse_epd("8/8/8 w - -", 2).is_err());
        assert!(parse_epd(r#"4k3/8/8/8/8/8/8/4K3 w - - id "x";"#, 3).is_err());
    }
}
