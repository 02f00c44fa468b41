//! Mean nodes per move (and mean depth reached) of two agents playing each
//! other (colours alternating, four random opening plies per game from the
//! seed), from the counters their searches report: how node budgets for
//! equal-budget matches are set.
//!
//! ```sh
//! cargo run --release -p strength --example nodes_per_move -- connect4 A B [games] [seed]
//! ```

use games_small::{Connect4, Connect4Eval, Gobang, GobangEval};
use rand::Rng;
use search_core::{Agent, Game, Status, Turn, rng};
use strength::agents::{BoxedAgent, Roster, StandardAgents};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: nodes_per_move connect4|gobang A B [games] [seed]";
    let (game, a, b) = match &args[..] {
        [g, a, b, ..] => (g.as_str(), a.as_str(), b.as_str()),
        _ => return Err(usage.into()),
    };
    let games: u64 = args.get(3).map_or(Ok(20), |s| s.parse())?;
    let seed: u64 = args.get(4).map_or(Ok(1), |s| s.parse())?;
    let (na, nb) = match game {
        "connect4" => {
            let roster = Roster::new().with(StandardAgents::new(Connect4Eval::default()).with_table_mib(4));
            count(Connect4::standard(), roster.build(a)?, roster.build(b)?, games, seed)?
        }
        "gobang" => {
            let roster = Roster::new().with(StandardAgents::new(GobangEval::default()).with_table_mib(4));
            count(Gobang::default(), roster.build(a)?, roster.build(b)?, games, seed)?
        }
        _ => return Err(usage.into()),
    };
    for (spec, [moves, nodes, depth]) in [(a, na), (b, nb)] {
        let per = |x: u64| if moves > 0 { x as f64 / moves as f64 } else { f64::NAN };
        println!("{spec}: {moves} moves, {:.0} nodes per move, mean depth {:.1}", per(nodes), per(depth));
    }
    Ok(())
}

/// `[moves, nodes, depths]` summed over what each agent reported in
/// `games` games.
fn count<G: Game>(
    start: G,
    mut a: BoxedAgent<G>,
    mut b: BoxedAgent<G>,
    games: u64,
    seed: u64,
) -> Result<([u64; 3], [u64; 3]), Box<dyn std::error::Error>> {
    let mut r = rng::seeded(seed);
    let mut totals = [[0u64; 3]; 2];
    let mut moves = Vec::new();
    for g in 0..games {
        let mut state = start.clone();
        for _ in 0..4 {
            moves.clear();
            if state.generate(&mut moves) != Status::Ongoing {
                break;
            }
            state.play(moves[r.random_range(0..moves.len())]);
        }
        a.reset();
        b.reset();
        let a_first = g % 2 == 0;
        for _ply in 0..400 {
            moves.clear();
            if state.generate(&mut moves) != Status::Ongoing {
                break;
            }
            let Turn::Player(p) = state.turn() else { break };
            let a_moves = (p.index() == 0) == a_first;
            let (agent, slot) = if a_moves { (&mut a, 0) } else { (&mut b, 1) };
            let choice = agent.choose_explained(&state, &mut r)?;
            if let Some(t) = &choice.thought {
                totals[slot][0] += 1;
                totals[slot][1] += t.stats.nodes;
                totals[slot][2] += u64::from(t.stats.depth);
            }
            state.play(choice.mv);
        }
    }
    Ok((totals[0], totals[1]))
}
