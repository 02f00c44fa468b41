//! Agents that model their opponent (`aware`, `online`, `adaptive`): the
//! θ posterior against synthetic Boltzmann players, the move watcher, the
//! specs, and a small tic-tac-toe match showing the opponent-aware gain.

use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use rand::Rng;
use search_core::backup::predicting::PredictingAgent;
use search_core::backup::{Modelled, OpponentModel};
use search_core::policy::ScoreCap;
use search_core::{Agent, Game, RandomAgent, arena::play_match, rng};
use strength::agents::{AdaptiveAgent, MoveWatcher, OnlineAgent, Roster, StandardAgents, ThetaPosterior};
use strength::dial::{Calibration, Dial};
use strength::pairing::play_pair;

/// A Boltzmann player's move over `values` (clamped to ±cap).
fn boltzmann_move(values: &[f64], theta: f64, cap: f64, rng: &mut impl Rng) -> usize {
    let best = values.iter().map(|v| v.clamp(-cap, cap)).fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = values.iter().map(|v| (theta * (v.clamp(-cap, cap) - best)).exp()).collect();
    let mut x = rng.random::<f64>() * w.iter().sum::<f64>();
    for (i, wi) in w.iter().enumerate() {
        x -= wi;
        if x <= 0.0 {
            return i;
        }
    }
    w.len() - 1
}

/// Plays `games` games from `start`, colours alternating (`me` first in the
/// even ones), both agents reset before each, the games' seeds drawn from
/// `seed`.
fn alternate<G, A, B>(start: &G, me: &mut A, them: &mut B, games: u64, seed: u64, max_plies: Option<usize>)
where
    G: Game,
    A: Agent<G> + ?Sized,
    B: Agent<G> + ?Sized,
{
    let mut seeds = rng::seeded(seed);
    for game in 0..games {
        me.reset();
        them.reset();
        if game % 2 == 0 {
            play_match(start, me, them, seeds.random(), max_plies).unwrap();
        } else {
            play_match(start, them, me, seeds.random(), max_plies).unwrap();
        }
    }
}

#[test]
fn posterior_moves_towards_the_players_theta() {
    let cap = 100.0;
    let mut r = rng::seeded(16);
    for theta in [0.001, 0.01, 0.1] {
        let mut post = ThetaPosterior::new(cap).unwrap();
        let prior = post.mean();
        let mut means = Vec::new();
        for k in 0..300 {
            let n = r.random_range(2..8);
            let values: Vec<f64> = (0..n).map(|_| f64::from(r.random_range(-150..=150))).collect();
            let chosen = boltzmann_move(&values, theta, cap, &mut r);
            post.update(&values, chosen).unwrap();
            if k == 29 || k == 299 {
                means.push(post.mean());
            }
        }
        let near = |p: &ThetaPosterior| -> f64 {
            p.probabilities()
                .iter()
                .zip(p.thetas())
                .filter(|(_, t)| **t >= theta / 3.0 && **t <= theta * 3.0)
                .map(|(q, _)| q)
                .sum()
        };
        eprintln!(
            "θ = {theta}: prior mean {prior:.4}, after 30 {:.4}, after 300 {:.4}; mass within ×3: {:.3}",
            means[0],
            means[1],
            near(&post)
        );
        // Consistency: after 300 moves the mean is within a factor of 2.5
        // of the truth (the prior's is 10 to 1000 times off), and the mass
        // within a factor of three of it at least twice the prior's (a
        // near-random player, θ·cap = 0.1, is the least identifiable).
        let prior_near = near(&ThetaPosterior::new(cap).unwrap());
        assert!(near(&post) > 2.0 * prior_near, "θ = {theta}");
        assert!((means[1] / theta).ln().abs() < 2.5f64.ln(), "θ = {theta}: {means:?}");
    }
}

/// A soft-capped player (`cap·tanh(v/cap)`, the chess and gobang dials'
/// curves) is recovered by a posterior with the same soft cap, which also
/// explains its moves better than a hard cap at the same bound does
/// (θ·cap from 3 up: a near-random player, θ·cap ≈ 1, looks alike under
/// either cap).
#[test]
fn a_soft_capped_posterior_recovers_a_soft_capped_player() {
    let cap = 100.0;
    let soft = ScoreCap::soft(cap).unwrap();
    let mut r = rng::seeded(61);
    for theta in [0.03, 0.1, 0.3] {
        let mut with_soft = ThetaPosterior::with_score_cap(soft);
        let mut with_hard = ThetaPosterior::new(cap).unwrap();
        for _ in 0..300 {
            let n = r.random_range(2..8);
            // Values up to three caps: where the two caps differ.
            let values: Vec<f64> = (0..n).map(|_| f64::from(r.random_range(-300..=300))).collect();
            let seen: Vec<f64> = values.iter().map(|&v| soft.apply(v)).collect();
            let chosen = boltzmann_move(&seen, theta, f64::INFINITY, &mut r);
            with_soft.update(&values, chosen).unwrap();
            with_hard.update(&values, chosen).unwrap();
        }
        let (m, h) = (with_soft.mean(), with_hard.mean());
        eprintln!(
            "θ = {theta}: soft mean {m:.4} (log evidence {:.1}), hard mean {h:.4} ({:.1})",
            with_soft.log_evidence(),
            with_hard.log_evidence()
        );
        assert!((m / theta).ln().abs() < 2.5f64.ln(), "θ = {theta}: {m}");
        assert!(with_soft.log_evidence() > with_hard.log_evidence(), "θ = {theta}");
        assert_eq!(with_soft.score_cap(), soft);
    }
}

#[test]
fn posterior_errors_leave_it_unchanged() {
    let mut post = ThetaPosterior::new(1.0).unwrap();
    let before = post.clone();
    assert!(post.update(&[0.0, 1.0], 2).is_err());
    assert!(post.update(&[0.0, f64::NAN], 0).is_err());
    assert!(post.update(&[], 0).is_err());
    assert_eq!(post, before);
    for cap in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(ThetaPosterior::new(cap).is_err());
    }
    // A position whose moves are all equal says nothing.
    post.update(&[0.5, 0.5, 0.5], 1).unwrap();
    assert_eq!(post.probabilities(), before.probabilities());
}

#[test]
fn watcher_skips_what_it_cannot_tell() {
    let mut w = MoveWatcher::default();
    let mut g = TicTacToe::default();
    // Nothing recorded (we did not move yet).
    assert!(w.observe(&g).is_none());
    g.play(4);
    w.played(&g);
    // Two plies later it is the opponent's turn again: not one opponent
    // move.
    let mut two = g;
    two.play(0);
    two.play(8);
    assert!(w.observe(&two).is_none());
    // A different game (the state cannot be reached by one move).
    w.played(&g);
    let mut other = TicTacToe::default();
    other.play(0);
    assert!(w.observe(&other).is_none());
    // After clear, nothing.
    w.played(&g);
    w.clear();
    let mut next = g;
    next.play(1);
    assert!(w.observe(&next).is_none());
}

/// `spec`'s total score and lost games against `opponent` in tic-tac-toe:
/// paired games (colours swapped) from each of the nine first moves,
/// `seeds` pairs each.
fn paired_score(spec: &str, opponent: &str, seeds: u64) -> (f64, usize) {
    let r = roster();
    let mut me = r.build(spec).unwrap();
    let mut them = r.build(opponent).unwrap();
    let (mut score, mut losses) = (0.0, 0);
    for first in 0..9u8 {
        let mut start = TicTacToe::default();
        start.play(first);
        for seed in 0..seeds {
            let pair = play_pair(&start, &mut me, &mut them, 100 * u64::from(first) + seed, None).unwrap();
            score += pair.score();
            losses += [pair.a_first.score, pair.b_first.score].iter().filter(|&&s| s == 0.0).count();
        }
    }
    (score, losses)
}

fn roster() -> Roster<TicTacToe> {
    Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1))
}

#[test]
fn specs_are_checked() {
    let r = roster();
    assert!(r.build("aware:depth=9,theta=1,cap=1").is_ok());
    assert!(r.build("aware:depth=9,theta=inf").is_ok());
    assert!(r.build("aware:depth=9,theta=1,softcap=1,opp_depth=3").is_ok());
    for bad in [
        "aware:depth=9,theta=0",
        "aware:depth=9,theta=-1",
        "aware:depth=9,theta=nan",
        "aware:depth=9",
        "aware:depth=0,theta=1",
        "aware:depth=9,theta=1,cap=0",
        "aware:depth=9,theta=1,softcap=0",
        "aware:depth=9,theta=1,cap=1,softcap=1,opp_depth=3",
        "online:depth=3", // no calibration here: the value scale is needed
        "online:depth=3,cap=1,memory=sometimes",
        "online:depth=3,cap=1,softcap=1",
        "online:depth=3,softcap=0",
        "adaptive:target=0.5", // no dial
    ] {
        assert!(r.build(bad).is_err(), "{bad}");
    }
    assert!(r.build("online:depth=3,cap=1").is_ok());
    assert!(r.build("online:depth=3,softcap=1").is_ok());
    let kinds: Vec<String> = r.kinds().into_iter().map(|k| k.0).collect();
    assert!(kinds.iter().any(|k| k.starts_with("aware:")) && kinds.iter().any(|k| k.starts_with("online:")));
}

#[test]
fn online_keeps_its_posterior_across_games_unless_told() {
    for (forget, kept) in [(false, true), (true, false)] {
        let mut me = OnlineAgent::new(TicTacToeEval::default(), 4, 1.0, forget, 1).unwrap();
        play_match(&TicTacToe::default(), &mut me, &mut RandomAgent, 3, None).unwrap();
        let seen = me.posterior().observations();
        assert!(seen >= 2, "{seen}");
        me.reset();
        assert_eq!(me.posterior().observations() == seen, kept);
        me.forget();
        assert_eq!(me.posterior().observations(), 0);
    }
}

/// The opponent-aware gain on tic-tac-toe: against a Boltzmann opponent
/// (depth 9, values capped at ±1, θ = 2: about Elo 590 on the dial), the
/// agent that searches against that model maximises its expected score
/// (its utilities are ±1.0076 for a win or loss, 0 a draw), so over the
/// same openings and seeds it scores at least what the perfect minimax
/// player scores. Minimax settles for a draw whenever the opponent's best
/// reply draws; the aware agent steers towards positions where the
/// opponent's likely replies lose.
#[test]
fn aware_scores_at_least_minimax_against_a_boltzmann_opponent() {
    let total = |spec: &str| paired_score(spec, "boltzmann:depth=9,cap=1,theta=2", 4);
    let (aware, aware_losses) = total("aware:depth=9,theta=2,cap=1");
    let (minimax, minimax_losses) = total("alphabeta:depth=9");
    eprintln!("72 games: aware {aware} ({aware_losses} lost), alphabeta {minimax} ({minimax_losses} lost)");
    assert_eq!(minimax_losses, 0);
    assert!(aware >= minimax, "aware {aware} < alphabeta {minimax}");
}

/// The tic-tac-toe calibration committed with the workspace.
fn tictactoe_dial() -> Dial {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games-small/calibration/tictactoe.json");
    Dial::new(Calibration::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap()
}

#[test]
fn adaptive_follows_a_weak_opponent_down_without_swinging() {
    let dial = tictactoe_dial();
    let (lo, hi) = dial.range();
    let agents = StandardAgents::new(TicTacToeEval::default()).with_table_mib(1).with_dial(dial);
    let mut me: AdaptiveAgent<TicTacToe, _> = AdaptiveAgent::new(agents, 0.5, None).unwrap();
    let start = me.own_elo();
    let mut r = rng::seeded(5);
    for game in 0..6u64 {
        me.reset();
        let mut random = RandomAgent;
        if game % 2 == 0 {
            play_match(&TicTacToe::default(), &mut me, &mut random, r.random(), None).unwrap();
        } else {
            play_match(&TicTacToe::default(), &mut random, &mut me, r.random(), None).unwrap();
        }
    }
    let t = me.trajectory();
    assert!(t.len() >= 8, "{}", t.len());
    // Against random play (rating 0) the estimate and the setting fall.
    let last = t.last().unwrap();
    eprintln!("start {start:.0}, after {} moves: opponent {:.0}, own {:.0}", t.len(), last.opponent_elo, last.own_elo);
    assert!(last.opponent_elo < 0.5 * start && last.own_elo < start);
    // Damped: no step moves the setting by more than a fifth of the range.
    let mut prev = start;
    for s in t {
        assert!((s.own_elo - prev).abs() <= 0.2 * (hi - lo) + 1e-9);
        prev = s.own_elo;
    }
    assert!(me.name().starts_with("adaptive"));
}

/// Against a Boltzmann player whose values it predicts exactly (tic-tac-toe
/// searched to the end by both), the agent maximises its expected score, so
/// over paired games from every opening it scores at least what minimax
/// scores, and never loses (its utilities value a loss far below a draw).
#[test]
fn an_exact_prediction_scores_at_least_minimax() {
    let total = |spec: &str| paired_score(spec, "boltzmann:depth=9,cap=1,theta=2", 2);
    let (predicting, predicting_losses) = total("aware:depth=8,theta=2,cap=1,opp_depth=9");
    let (minimax, minimax_losses) = total("alphabeta:depth=9");
    eprintln!(
        "36 games: predicting {predicting} ({predicting_losses} lost), alphabeta {minimax} ({minimax_losses} lost)"
    );
    assert_eq!((predicting_losses, minimax_losses), (0, 0));
    assert!(predicting >= minimax, "predicting {predicting} < alphabeta {minimax}");
}

/// The spec: `opp_depth` must be a depth; the agent is named by its spec.
#[test]
fn opp_depth_is_checked() {
    let r = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
    assert!(r.build("aware:depth=2,theta=1,cap=1,opp_depth=0").is_err());
    assert!(r.build("aware:depth=2,theta=1,cap=1,opp_depth=x").is_err());
    let a = r.build("aware:depth=2,theta=1,cap=1,opp_depth=3").unwrap();
    assert_eq!(a.name(), "aware:depth=2,theta=1,cap=1,opp_depth=3");
    // Safety blends the predicted replies: it needs opp_depth, and κ ∈ [0, 1).
    for bad in ["safety=0.3", "opp_depth=3,safety=1", "opp_depth=3,safety=-0.1", "opp_depth=3,safety=nan"] {
        assert!(r.build(&format!("aware:depth=2,theta=1,cap=1,{bad}")).is_err(), "{bad}");
        assert!(r.build(&format!("online:depth=2,cap=1,{bad}")).is_err(), "{bad}");
    }
    assert!(r.build("aware:depth=2,theta=1,cap=1,opp_depth=3,safety=0.3").is_ok());
    assert!(r.build("online:depth=2,cap=1,opp_depth=3,safety=0.3").is_ok());
    // model_plies and nodes configure the predicting search: they need
    // opp_depth, and neither may be zero.
    for bad in ["model_plies=1", "nodes=100", "opp_depth=3,model_plies=0", "opp_depth=3,nodes=0"] {
        assert!(r.build(&format!("aware:depth=2,theta=1,cap=1,{bad}")).is_err(), "{bad}");
        assert!(r.build(&format!("online:depth=2,cap=1,{bad}")).is_err(), "{bad}");
    }
    let spec = "aware:depth=9,theta=1,cap=1,opp_depth=3,model_plies=1,nodes=500";
    let mut a = r.build(spec).unwrap();
    assert_eq!(a.name(), spec);
    let c = a.choose_explained(&TicTacToe::default(), &mut rng::seeded(1)).unwrap().thought.unwrap();
    assert!(c.stats.depth >= 1 && c.stats.depth < 9, "depth {}", c.stats.depth);
    assert!(r.build("online:depth=9,cap=1,opp_depth=3,model_plies=1,nodes=500").is_ok());
    // when=lost|drawn|near play the engine below the modelled plies: they
    // need them (and opp_depth); when takes always, lost, drawn or near
    // only; delta is near's positive margin, and only near's.
    for bad in [
        "when=lost",
        "opp_depth=3,when=lost",
        "opp_depth=3,when=drawn",
        "opp_depth=3,when=near",
        "opp_depth=3,model_plies=1,when=sometimes",
        "opp_depth=3,model_plies=1,when=near,delta=0",
        "opp_depth=3,model_plies=1,when=near,delta=-1",
        "opp_depth=3,model_plies=1,when=near,delta=inf",
        "opp_depth=3,model_plies=1,when=lost,delta=2",
        "opp_depth=3,model_plies=1,delta=2",
    ] {
        assert!(r.build(&format!("aware:depth=2,theta=1,cap=1,{bad}")).is_err(), "{bad}");
        assert!(r.build(&format!("online:depth=2,cap=1,{bad}")).is_err(), "{bad}");
    }
    for good in [
        "opp_depth=3,model_plies=1,when=lost",
        "opp_depth=3,model_plies=1,when=drawn",
        "opp_depth=3,model_plies=1,when=always",
        "opp_depth=3,model_plies=1,when=near",
        "opp_depth=3,model_plies=1,nodes=500,when=near,delta=0.5",
    ] {
        assert!(r.build(&format!("aware:depth=2,theta=1,cap=1,{good}")).is_ok(), "{good}");
        assert!(r.build(&format!("online:depth=2,cap=1,{good}")).is_ok(), "{good}");
    }
    assert!(
        PredictingAgent::new(Modelled::new(OpponentModel::boltzmann(1.0).unwrap()), TicTacToeEval::default(), 0, 1)
            .is_err()
    );
}

/// `online:...,opp_depth=K` (θ learnt as `online` learns it, the opponent
/// predicted from its own values) checks its spec, keeps its name, and
/// never loses a tic-tac-toe game to random play.
#[test]
fn online_with_opp_depth_learns_and_plays() {
    let r = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
    assert!(r.build("online:depth=4,cap=1,opp_depth=0").is_err());
    let mut me = r.build("online:depth=9,cap=1,opp_depth=9").unwrap();
    assert_eq!(me.name(), "online:depth=9,cap=1,opp_depth=9");
    let mut random = RandomAgent;
    let start = TicTacToe::default();
    let mut lost = 0;
    for seed in 0..6u64 {
        let pair = play_pair(&start, &mut me, &mut random, seed, None).unwrap();
        lost += [pair.a_first.score, pair.b_first.score].iter().filter(|&&s| s == 0.0).count();
    }
    assert_eq!(lost, 0);
}

/// Every opponent move is learnt from, the one that ends the game included
/// (`Agent::game_over`): leaving out the game-ending moves, an opponent's
/// winning moves would never be seen and its θ would be underestimated
/// (on connect-4, a Boltzmann player at θ = 0.0097 came out at 0.0018).
#[test]
fn online_learns_from_the_move_that_ends_the_game() {
    let r = roster();
    let mut them = r.build("boltzmann:depth=9,cap=1,theta=2").unwrap();
    let mut me = OnlineAgent::new(TicTacToeEval::default(), 9, 1.0, false, 1).unwrap();
    let mut theirs = 0;
    let mut ended_by_them = 0;
    for seed in 0..12u64 {
        me.reset();
        them.reset();
        let me_first = seed % 2 == 0;
        let rec = if me_first {
            play_match(&TicTacToe::default(), &mut me, &mut them, seed, None).unwrap()
        } else {
            play_match(&TicTacToe::default(), &mut them, &mut me, seed, None).unwrap()
        };
        // Their moves are the odd plies when we start, the even ones when
        // they do; a first move of theirs is never seen (no state of ours
        // precedes it), and is not selected by the outcome.
        let parity = usize::from(me_first);
        theirs += (0..rec.moves.len()).filter(|&i| i % 2 == parity && i > 0).count();
        ended_by_them += usize::from((rec.moves.len() - 1) % 2 == parity);
    }
    assert!(ended_by_them > 0);
    assert_eq!(me.posterior().observations(), theirs as u64);
}

/// Observed through every curve of the connect-4 dial (depths 2, 4, 6, 8
/// and 12), the adaptive agent finds the depth the opponent searches: a
/// depth-4 Boltzmann player's moves are explained best by the depth-4
/// curve, a depth-2 player's by the depth-2 curve, a depth-12 player's by
/// the depth-12 curve (partial: its prior starts at its weakest rung), and
/// the estimated rating lands near the true one (a search of the wrong
/// depth biased it by hundreds of Elo; without the depth-12 curve a 1400
/// player looked like 1240 through depth-8 values). A curve that cannot
/// explain the moves is dropped. One test per opponent, so that they run
/// in parallel.
fn adaptive_finds_the_opponents_depth(rating: f64, curve: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games-small/calibration/connect4.json");
    let dial = Dial::new(Calibration::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap();
    let agents = StandardAgents::new(Connect4Eval::default()).with_table_mib(2).with_dial(dial.clone());
    let r = Roster::new().with(agents.clone());
    let setting = dial.setting(rating).unwrap().to_string();
    assert!(setting.starts_with(curve), "{setting}");
    let mut them = r.build(&setting).unwrap();
    let mut me: AdaptiveAgent<Connect4, _> = AdaptiveAgent::new(agents.clone(), 0.5, None).unwrap();
    let curves: Vec<String> = me.curve_probabilities().into_iter().map(|c| c.0).collect();
    assert_eq!(curves.len(), 5);
    assert_eq!(curves[4], "boltzmann:depth=12,cap=100");
    alternate(&Connect4::standard(), &mut me, them.as_mut(), 10, 3, None);
    let probs = me.curve_probabilities();
    let p = probs.iter().find(|c| c.0 == curve).unwrap().1;
    eprintln!("{setting}: {probs:?}, estimate {:.0}", me.opponent_elo());
    assert!(p > 0.9, "{probs:?}");
    assert!((me.opponent_elo() - rating).abs() < 150.0, "{}", me.opponent_elo());
    if rating < 1100.0 {
        // Below the depth-12 curve's reach, its evidence falls far
        // behind: it is dropped (no longer searched) and counts for 0.
        assert_eq!(probs[4].1, 0.0, "{probs:?}");
    }
}

#[test]
fn adaptive_finds_a_depth_4_opponent_on_the_dial() {
    // Above the depth-2 curve's strongest finite θ (1025), below the
    // depth-12 curve's weakest rung (1164): the dial plays it at depth 4.
    adaptive_finds_the_opponents_depth(1080.0, "boltzmann:depth=4,cap=100");
}

#[test]
fn adaptive_finds_a_depth_2_opponent_on_the_dial() {
    adaptive_finds_the_opponents_depth(600.0, "boltzmann:depth=2,cap=100");
}

#[test]
fn adaptive_finds_a_depth_12_opponent_on_the_dial() {
    adaptive_finds_the_opponents_depth(1400.0, "boltzmann:depth=12,cap=100");
}

/// Gobang's dial curves are soft-capped: the adaptive agent observes
/// through both (each posterior with the soft cap), `online` takes the
/// dial's soft cap by default, and the adaptive agent plays a game.
#[test]
fn adaptive_and_online_read_a_soft_capped_dial() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games-small/calibration/gobang.json");
    let dial = Dial::new(Calibration::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap();
    let setting = dial.setting(800.0).unwrap().to_string();
    assert!(setting.contains("softcap=10000"), "{setting}");
    let agents = StandardAgents::new(GobangEval::default()).with_table_mib(1).with_dial(dial);
    let mut me: AdaptiveAgent<Gobang, _> = AdaptiveAgent::new(agents.clone(), 0.5, None).unwrap();
    let curves: Vec<String> = me.curve_probabilities().into_iter().map(|c| c.0).collect();
    assert_eq!(curves, ["boltzmann:depth=1,softcap=10000", "boltzmann:depth=2,softcap=10000"]);
    let online =
        OnlineAgent::<Gobang, _>::with_score_cap(GobangEval::default(), 1, ScoreCap::soft(10000.0).unwrap(), false, 1)
            .unwrap();
    assert_eq!(online.posterior().score_cap(), ScoreCap::soft(10000.0).unwrap());
    let r = Roster::new().with(agents);
    assert!(r.build("online:depth=1").is_ok(), "online takes the dial's soft cap");
    let mut them = r.build(&setting).unwrap();
    let record = play_match(&Gobang::default(), &mut me, &mut them, 5, Some(60)).unwrap();
    assert!(!record.moves.is_empty());
    assert!(me.opponent_elo().is_finite());
}

/// The adaptive agent plays on the curve that best explains its opponent
/// wherever that curve reaches its rating. On gobang, a depth-1 player near
/// the top of the depth-1 curve, and a target of 0.4, put the agent's aim
/// above that curve's largest finite θ (1202), where the dial's own choice
/// is a depth-2 player; the agent stays on the depth-1 curve, which reaches
/// up to its greedy top (1300), and plays the same rating there.
#[test]
fn adaptive_plays_on_the_opponents_curve() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games-small/calibration/gobang.json");
    let dial = Dial::new(Calibration::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap();
    let agents = StandardAgents::new(GobangEval::default()).with_table_mib(1).with_dial(dial.clone());
    let opponent = dial.setting(1180.0).unwrap().to_string();
    assert!(opponent.starts_with("boltzmann:depth=1,"), "{opponent}");
    let mut them = Roster::new().with(agents.clone()).build(&opponent).unwrap();
    let mut me: AdaptiveAgent<Gobang, _> = AdaptiveAgent::new(agents, 0.4, None).unwrap();
    alternate(&Gobang::default(), &mut me, them.as_mut(), 12, 11, Some(225));
    let probs = me.curve_probabilities();
    assert!(probs[0].0.starts_with("boltzmann:depth=1,") && probs[0].1 > 0.9, "{probs:?}");
    let own = me.own_elo();
    assert!(own > 1210.0 && own < 1300.0, "own rating {own}, estimate {}", me.opponent_elo());
    let dials_choice = dial.setting(own).unwrap().to_string();
    assert!(dials_choice.starts_with("boltzmann:depth=2,"), "{dials_choice}");
    let playing = me.playing().to_string();
    assert!(playing.starts_with("boltzmann:depth=1,softcap=10000,theta="), "{playing}");
}

/// The explained choice of `aware` and `online`, with and without
/// `opp_depth`, `model_plies` and `nodes`, reports the search's counters for
/// that move (as the web app shows them): its nodes (with `opp_depth`, the
/// opponent's predictions included) and the depth reached (with `nodes=N`,
/// the last completed iteration's, below the cap once the budget ran out),
/// its value and a principal variation starting with the move; the move is
/// the one `choose` plays with the same RNG.
#[test]
fn modelling_agents_explain_their_nodes_and_depth() {
    let r = Roster::new().with(StandardAgents::new(Connect4Eval::default()).with_table_mib(1));
    // (spec, the depth reported: `None` for a budget that stops short of
    // the cap of 20).
    let specs: [(&str, Option<u32>); 10] = [
        ("aware:depth=3,theta=0.1,cap=100", Some(3)),
        ("aware:depth=3,theta=0.1,cap=100,opp_depth=2", Some(3)),
        ("aware:depth=3,theta=0.1,cap=100,opp_depth=2,safety=0.3,model_plies=1", Some(3)),
        ("aware:depth=20,theta=0.1,cap=100,opp_depth=2,nodes=3000", None),
        ("aware:depth=20,theta=0.1,cap=100,opp_depth=2,model_plies=1,nodes=3000", None),
        ("online:depth=3,cap=100", Some(3)),
        ("online:depth=3,cap=100,opp_depth=2", Some(3)),
        ("online:depth=3,cap=100,memory=game,opp_depth=2,model_plies=1", Some(3)),
        ("online:depth=20,cap=100,opp_depth=2,nodes=3000", None),
        ("online:depth=20,cap=100,opp_depth=2,model_plies=1,nodes=3000", None),
    ];
    for (spec, depth) in specs {
        let mut explained = r.build(spec).unwrap();
        let mut plain = r.build(spec).unwrap();
        let mut state = Connect4::standard();
        let mut other = rng::seeded(7);
        // Three of its moves, each after a random reply it learns from.
        for turn in 0..3u64 {
            let choice = explained.choose_explained(&state, &mut rng::seeded(turn)).unwrap();
            assert_eq!(choice.mv, plain.choose(&state, &mut rng::seeded(turn)).unwrap(), "{spec}, move {turn}");
            let t = choice.thought.unwrap_or_else(|| panic!("{spec}: no thought"));
            let s = t.stats;
            assert!(s.nodes > 0, "{spec}, move {turn}: no nodes");
            match depth {
                Some(d) => assert_eq!(s.depth, d, "{spec}, move {turn}"),
                // The budget counts the nodes reported: it ran out.
                None => assert!(s.depth >= 1 && s.depth < 20 && s.nodes >= 3000, "{spec}, move {turn}: {s:?}"),
            }
            assert!(t.value.is_some_and(f64::is_finite), "{spec}");
            assert_eq!(t.pv.first(), Some(&choice.mv), "{spec}");
            assert!((t.distribution.iter().map(|d| d.1).sum::<f64>() - 1.0).abs() < 1e-12, "{spec}");
            assert!(t.probability(&choice.mv) > 0.0, "{spec}");
            state.play(choice.mv);
            state.play(RandomAgent.choose(&state, &mut other).unwrap());
        }
    }
    // With opp_depth the opponent's predictions are counted: a deeper
    // prediction of the same search costs more nodes.
    let nodes = |spec: &str| {
        let mut a = r.build(spec).unwrap();
        a.choose_explained(&Connect4::standard(), &mut rng::seeded(1)).unwrap().thought.unwrap().stats.nodes
    };
    let (shallow, deep) =
        (nodes("aware:depth=3,theta=0.1,cap=100,opp_depth=1"), nodes("aware:depth=3,theta=0.1,cap=100,opp_depth=4"));
    assert!(deep > shallow, "opp_depth 4: {deep} nodes, opp_depth 1: {shallow}");
}

/// The adaptive agent explains its move as the dial's agent it plays with
/// (a search: nodes and depth), and still learns from the replies.
#[test]
fn adaptive_explains_its_dial_agents_move() {
    let agents = StandardAgents::new(TicTacToeEval::default()).with_table_mib(1).with_dial(tictactoe_dial());
    let mut me: AdaptiveAgent<TicTacToe, _> = AdaptiveAgent::new(agents, 0.5, None).unwrap();
    let mut state = TicTacToe::default();
    for turn in 0..3u64 {
        let choice = me.choose_explained(&state, &mut rng::seeded(turn)).unwrap();
        let t = choice.thought.expect("the dial's agent explains");
        assert!(t.stats.nodes > 0 && t.stats.depth >= 1, "{:?}", t.stats);
        assert!(t.probability(&choice.mv) > 0.0);
        assert_eq!(me.trajectory().len() as u64, turn);
        state.play(choice.mv);
        state.play(RandomAgent.choose(&state, &mut rng::seeded(10 + turn)).unwrap());
    }
}
