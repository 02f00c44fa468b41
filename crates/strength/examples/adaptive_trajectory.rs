//! The adaptive opponent's trajectory on connect-4 or gobang:
//! `adaptive:target=S` against a fixed dial level, game after game (colours
//! alternating, four random opening plies per game from the seed), printing
//! after each game the opponent's estimated rating, the rating the agent
//! plays at and the opponent's running score, the dial curve (search
//! depth) that best explains its moves with that curve's probability and
//! the setting the agent plays (on that curve where it reaches); at
//! the end the opponent's score with a 95% interval. Without `depth`, the
//! agent observes through every curve of the dial. The game is connect-4
//! unless the first argument names another.
//!
//! ```sh
//! cargo run --release -p strength --example adaptive_trajectory -- [gobang] elo:600 20 [target] [seed] [depth]
//! ```

use games_small::{Connect4, Connect4Eval, Gobang, GobangEval};
use rand::Rng;
use search_core::arena::play_match;
use search_core::{Agent, Evaluator, Game, Outcome, Player, Status, rng};
use strength::agents::{AdaptiveAgent, Roster, StandardAgents};
use strength::dial::{Calibration, Dial};
use strength::elo::GameResult;
use strength::pentanomial::Trinomial;

/// What one run needs: the opponent, the number of games, the target, the
/// seed and the observed depth.
struct Run {
    opponent: String,
    games: u64,
    target: f64,
    seed: u64,
    depth: Option<u32>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let game = match args.first().map(String::as_str) {
        Some(g @ ("connect4" | "gobang")) => {
            let g = g.to_string();
            args.remove(0);
            g
        }
        _ => "connect4".to_string(),
    };
    let run = Run {
        opponent: args.first().map_or("elo:600", String::as_str).to_string(),
        games: args.get(1).map_or(Ok(20), |s| s.parse())?,
        target: args.get(2).map_or(Ok(0.5), |s| s.parse())?,
        seed: args.get(3).map_or(Ok(1), |s| s.parse())?,
        depth: args.get(4).map(|s| s.parse()).transpose()?,
    };
    if game == "gobang" {
        trajectory(&run, "gobang", Gobang::default(), GobangEval::default())
    } else {
        trajectory(&run, "connect4", Connect4::standard(), Connect4Eval::default())
    }
}

/// Plays the run on the game `name` from `empty`, with the dial of
/// `calibration/NAME.json`.
fn trajectory<G, E>(run: &Run, name: &str, empty: G, eval: E) -> Result<(), Box<dyn std::error::Error>>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let Run { opponent, games, target, seed, depth } = run;
    let (games, seed) = (*games, *seed);
    let path = format!("{}/../../calibration/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let dial = Dial::new(Calibration::from_json(&std::fs::read_to_string(&path)?)?)?;
    let agents = StandardAgents::new(eval).with_table_mib(4).with_dial(dial.clone());
    let roster = Roster::new().with(agents.clone());
    let mut them = roster.build(opponent)?;
    let mut me: AdaptiveAgent<G, _> = AdaptiveAgent::new(agents, *target, *depth)?;
    println!("{} vs {opponent} on {name}, {games} games, seed {seed}", me.name());
    println!(
        "game  opp_colour  opp_result  opp_score  opp_elo_est  own_elo  theta_mean  moves_seen  likeliest_curve  playing"
    );
    println!("opponent plays {}", dial_setting(&dial, opponent));
    println!("   0           -           -          -  {:>11.0}  {:>7.0}", me.opponent_elo(), me.own_elo());
    let mut r = rng::seeded(seed);
    let mut score = Trinomial::default();
    for g in 0..games {
        // A few random plies, so that games differ.
        let mut start = empty.clone();
        let mut moves = Vec::new();
        for _ in 0..4 {
            moves.clear();
            if start.generate(&mut moves) != Status::Ongoing {
                break;
            }
            let mv = moves[r.random_range(0..moves.len())];
            start.play(mv);
        }
        me.reset();
        them.reset();
        let them_first = g % 2 == 0;
        let game_seed = r.random();
        let rec = if them_first {
            play_match(&start, &mut them, &mut me, game_seed, Some(400))?
        } else {
            play_match(&start, &mut me, &mut them, game_seed, Some(400))?
        };
        let their_colour =
            if them_first == (start.turn().player() == Some(Player::First)) { Player::First } else { Player::Second };
        let result = match rec.outcome {
            Some(Outcome::Win(p)) if p == their_colour => GameResult::Win,
            Some(Outcome::Win(_)) => GameResult::Loss,
            _ => GameResult::Draw,
        };
        score.add_game(result);
        let s = score.score().map_or(f64::NAN, |e| e.value);
        let curves = me.curve_probabilities();
        let (curve, p) = curves.iter().fold(("", 0.0), |b, (c, p)| if *p > b.1 { (c.as_str(), *p) } else { b });
        println!(
            "{:>4}  {:>10}  {:>10}  {:>9.3}  {:>11.0}  {:>7.0}  {:>10.4}  {:>10}  {curve} ({p:.2})  {}",
            g + 1,
            if their_colour == Player::First { "first" } else { "second" },
            format!("{result:?}"),
            s,
            me.opponent_elo(),
            me.own_elo(),
            me.posterior().mean(),
            me.posterior().observations(),
            me.playing()
        );
    }
    if let Some(e) = score.score() {
        println!(
            "opponent's score {:.3} (95% interval {:.3} .. {:.3}); W-D-L {}-{}-{}",
            e.value,
            e.low,
            e.high,
            score.wins(),
            score.draws(),
            score.losses()
        );
    }
    println!("name: {}", me.name());
    Ok(())
}

/// The dial setting an `elo:X` spec stands for (other specs as they are).
fn dial_setting(dial: &Dial, spec: &str) -> String {
    match spec.strip_prefix("elo:").and_then(|x| x.parse::<f64>().ok()) {
        Some(x) => dial.setting(x).map_or_else(|e| e.to_string(), |s| s.to_string()),
        None => spec.to_string(),
    }
}
