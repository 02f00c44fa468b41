//! `cargo xtask demo`: connect-4 between two alpha-beta players of different
//! depths, printing what each search found.

use std::time::Instant;

use games_small::{Connect4, Connect4Eval};
use search_core::arena::play_match;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::{Game, Player};

use crate::TaskResult;

/// Arguments of `cargo xtask demo`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Seed of the game (tie-breaks between equally good moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search depth of the first (stronger) player.
    #[arg(long, default_value_t = 9)]
    pub strong: u32,
    /// Search depth of the second player.
    #[arg(long, default_value_t = 5)]
    pub weak: u32,
}

pub fn run(args: Args) -> TaskResult {
    let start = Connect4::standard();
    let options = Options::default();
    let mut analysis = Search::new(Minimax, Connect4Eval::default(), options.clone())?;
    let t = Instant::now();
    let r = analysis.run(&start, &Limits::depth(args.strong))?;
    println!(
        "Connect-4 7x6, alpha-beta depth {} from the empty board ({:.0} ms):",
        args.strong,
        t.elapsed().as_secs_f64() * 1e3
    );
    for m in &r.root_moves {
        println!("  column {}  value {:>8.1}  ({:?})", start.move_string(m.mv), m.score, m.bound);
    }
    let pv: Vec<String> = {
        let mut s = start;
        r.pv.iter()
            .map(|&m| {
                let text = s.move_string(m);
                s.play(m);
                text
            })
            .collect()
    };
    println!(
        "  best {}, value {}, pv {}",
        r.best.map_or("-".into(), |m| start.move_string(m)),
        r.value.map_or("-".into(), |v| format!("{v:.1}")),
        pv.join(" ")
    );
    println!(
        "  nodes {}, leaves {}, cutoffs {}, table cuts {}\n",
        r.stats.nodes, r.stats.leaves, r.stats.cutoffs, r.stats.tt_cuts
    );

    let mut strong =
        SearchAgent::new(Search::new(Minimax, Connect4Eval::default(), options.clone())?, Limits::depth(args.strong));
    let mut weak = SearchAgent::new(Search::new(Minimax, Connect4Eval::default(), options)?, Limits::depth(args.weak));
    let t = Instant::now();
    let record = play_match(&start, &mut strong, &mut weak, args.seed, None)?;
    let mut board = start;
    let mut moves = String::new();
    for &m in &record.moves {
        moves.push_str(&board.move_string(m));
        board.play(m);
    }
    println!(
        "Game: depth {} (X) vs depth {} (O), seed {}: {} ({:.1} s)",
        args.strong,
        args.weak,
        args.seed,
        moves,
        t.elapsed().as_secs_f64()
    );
    println!("{board}");
    let result = match record.winner() {
        Some(Player::First) => format!("X (depth {}) wins", args.strong),
        Some(Player::Second) => format!("O (depth {}) wins", args.weak),
        None => "draw".into(),
    };
    println!("Result: {result}");
    Ok(())
}
