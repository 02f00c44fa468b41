//! The adaptive opponent's trajectory on connect-4: `adaptive:target=S`
//! against a fixed dial level, game after game (colours alternating, four
//! random opening plies per game from the seed), printing after each game
//! the opponent's estimated rating, the rating the agent plays at and the
//! opponent's running score, and the dial curve (search depth) that best
//! explains its moves with that curve's probability; at the end the
//! opponent's score with a 95% interval. Without `depth`, the agent
//! observes through every curve of the dial.
//!
//! ```sh
//! cargo run --release -p strength --example adaptive_trajectory -- elo:600 20 [target] [seed] [depth]
//! ```

use games_small::{Connect4, Connect4Eval};
use rand::Rng;
use search_core::arena::play_match;
use search_core::{Agent, Game, Outcome, Player, Status, rng};
use strength::agents::{AdaptiveAgent, Roster, StandardAgents};
use strength::dial::{Calibration, Dial};
use strength::elo::GameResult;
use strength::pentanomial::Trinomial;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opponent = args.first().map_or("elo:600", String::as_str).to_string();
    let games: u64 = args.get(1).map_or(Ok(20), |s| s.parse())?;
    let target: f64 = args.get(2).map_or(Ok(0.5), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let depth: Option<u32> = args.get(4).map(|s| s.parse()).transpose()?;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../calibration/connect4.json");
    let dial = Dial::new(Calibration::from_json(&std::fs::read_to_string(path)?)?)?;
    let agents = StandardAgents::new(Connect4Eval::default()).with_table_mib(4).with_dial(dial);
    let roster = Roster::new().with(agents.clone());
    let mut them = roster.build(&opponent)?;
    let mut me: AdaptiveAgent<Connect4, _> = AdaptiveAgent::new(agents, target, depth)?;
    let mut r = rng::seeded(seed);
    let mut score = Trinomial::default();
    println!("{} vs {opponent}, {games} games, seed {seed}", me.name());
    println!("game  opp_colour  opp_result  opp_score  opp_elo_est  own_elo  theta_mean  moves_seen  likeliest_curve");
    println!("opponent plays {}", roster_setting(&opponent));
    println!("   0           -           -          -  {:>11.0}  {:>7.0}", me.opponent_elo(), me.own_elo());
    for g in 0..games {
        // A few random plies, so that games differ.
        let mut start = Connect4::standard();
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
            play_match(&start, &mut them, &mut me, game_seed, Some(200))?
        } else {
            play_match(&start, &mut me, &mut them, game_seed, Some(200))?
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
            "{:>4}  {:>10}  {:>10}  {:>9.3}  {:>11.0}  {:>7.0}  {:>10.4}  {:>10}  {curve} ({p:.2})",
            g + 1,
            if their_colour == Player::First { "first" } else { "second" },
            format!("{result:?}"),
            s,
            me.opponent_elo(),
            me.own_elo(),
            me.posterior().mean(),
            me.posterior().observations()
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
fn roster_setting(spec: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../calibration/connect4.json");
    let dial = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| Calibration::from_json(&t).ok())
        .and_then(|c| Dial::new(c).ok());
    match (spec.strip_prefix("elo:").and_then(|x| x.parse::<f64>().ok()), dial) {
        (Some(x), Some(d)) => d.setting(x).map_or_else(|e| e.to_string(), |s| s.to_string()),
        _ => spec.to_string(),
    }
}
