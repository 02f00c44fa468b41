//! Mean nodes per move (and mean depth reached) of two agents playing each
//! other (colours alternating, four random opening plies per game from the
//! seed), from the counters their searches report: how node budgets for
//! equal-budget matches are set. It also reports A's results and how often B
//! passed up a win it could take at once (the games, the moves, and how many
//! of those games A went on to win): how docs/opponent-model.md traces where
//! a swindle's gain comes from.
//!
//! ```sh
//! cargo run --release -p strength --example nodes_per_move -- connect4 A B [games] [seed]
//! ```

use games_small::{Connect4, Connect4Eval, Gobang, GobangEval};
use rand::Rng;
use search_core::{Agent, Game, Outcome, Status, Turn, rng};
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
    let tally = match game {
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
    for (spec, [moves, nodes, depth]) in [(a, tally.searched[0]), (b, tally.searched[1])] {
        let per = |x: u64| if moves > 0 { x as f64 / moves as f64 } else { f64::NAN };
        println!("{spec}: {moves} moves, {:.0} nodes per move, mean depth {:.1}", per(nodes), per(depth));
    }
    let Tally { won, drawn, lost, passed_up_games, passed_up_moves, won_after_passed_up, .. } = tally;
    println!(
        "A won {won}, drew {drawn}, lost {lost}; B passed up a win in {passed_up_games} games ({passed_up_moves} moves), {won_after_passed_up} of them won by A"
    );
    Ok(())
}

/// What [`count`] adds up over the games.
#[derive(Default)]
struct Tally {
    /// `[moves, nodes, depths]` summed over what each agent reported.
    searched: [[u64; 3]; 2],
    /// A's wins.
    won: u64,
    /// Draws (a game still going after 400 moves counts as one).
    drawn: u64,
    /// A's losses.
    lost: u64,
    /// Games in which B passed up a win it could take at once.
    passed_up_games: u64,
    /// B's moves that passed up such a win.
    passed_up_moves: u64,
    /// Games of `passed_up_games` that A won.
    won_after_passed_up: u64,
}

/// True when `mv` ends the game at once with a win for the player making it.
fn wins_at_once<G: Game>(state: &G, mv: G::Move, scratch: &mut Vec<G::Move>) -> bool {
    let mut next = state.clone();
    next.play(mv);
    scratch.clear();
    matches!(next.generate(scratch), Status::Over(Outcome::Win(_)))
}

fn count<G: Game>(
    start: G,
    mut a: BoxedAgent<G>,
    mut b: BoxedAgent<G>,
    games: u64,
    seed: u64,
) -> Result<Tally, Box<dyn std::error::Error>> {
    let mut r = rng::seeded(seed);
    let mut tally = Tally::default();
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
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
        let mut declined = false;
        let mut outcome = None;
        for _ply in 0..400 {
            moves.clear();
            if let Status::Over(o) = state.generate(&mut moves) {
                outcome = Some(o);
                break;
            }
            let Turn::Player(p) = state.turn() else { break };
            let a_moves = (p.index() == 0) == a_first;
            let (agent, slot) = if a_moves { (&mut a, 0) } else { (&mut b, 1) };
            let choice = agent.choose_explained(&state, &mut r)?;
            if let Some(t) = &choice.thought {
                tally.searched[slot][0] += 1;
                tally.searched[slot][1] += t.stats.nodes;
                tally.searched[slot][2] += u64::from(t.stats.depth);
            }
            if !a_moves
                && !wins_at_once(&state, choice.mv, &mut scratch)
                && moves.iter().any(|&m| wins_at_once(&state, m, &mut scratch))
            {
                declined = true;
                tally.passed_up_moves += 1;
            }
            state.play(choice.mv);
        }
        let a_index = usize::from(!a_first);
        let a_won = matches!(outcome, Some(Outcome::Win(p)) if p.index() == a_index);
        match outcome {
            Some(Outcome::Win(_)) if a_won => tally.won += 1,
            Some(Outcome::Win(_)) => tally.lost += 1,
            _ => tally.drawn += 1,
        }
        if declined {
            tally.passed_up_games += 1;
            tally.won_after_passed_up += u64::from(a_won);
        }
    }
    Ok(tally)
}
