//! `UCI_LimitStrength` and `UCI_Elo`: the options as a GUI sees them, and
//! the moves the engine plays under them, checked against the `strength`
//! crate's own agents for the dial's settings.

use std::io::Write;
use std::sync::{Arc, Mutex};

use games_chess::kibitz::{KibitzAgent, KibitzAgents};
use games_chess::shakmaty::{CastlingMode, Move};
use games_chess::uci::{Engine, StrengthSetting, elo_range, move_seed, setting_at};
use games_chess::{ChessEval, ChessGame};
use search_core::{Agent, Game, RngExt, Status, rng};
use strength::agents::{Roster, StandardAgents};
use strength::dial::{Calibration, Dial};

/// An output buffer shared with the engine.
#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An engine with its output.
struct Kibitz {
    engine: Engine<Buf>,
    out: Buf,
}

impl Kibitz {
    fn new(setup: &[&str]) -> Kibitz {
        let out = Buf::default();
        let mut k = Kibitz { engine: Engine::new(out.clone()), out };
        for line in setup {
            let replies = k.send(&[line]);
            assert!(replies.iter().all(|l| !l.contains("error")), "{line}: {replies:?}");
        }
        k
    }

    /// An engine limited to `elo` with `Seed` `seed`.
    fn limited(elo: i64, seed: u64) -> Kibitz {
        Kibitz::new(&[
            "setoption name UCI_LimitStrength value true",
            &format!("setoption name UCI_Elo value {elo}"),
            &format!("setoption name Seed value {seed}"),
        ])
    }

    /// Sends `lines`, waits for any search, and returns the replies.
    fn send(&mut self, lines: &[&str]) -> Vec<String> {
        for l in lines {
            self.engine.handle_line(l);
        }
        self.engine.wait();
        let bytes = std::mem::take(&mut *self.out.0.lock().unwrap());
        String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
    }

    /// The move played at `fen` after `go infinite` and, once the
    /// setting's depth-`depth` iteration is reported, `stop`.
    fn play_infinite(&mut self, fen: &str, depth: u32) -> String {
        self.engine.handle_line(&format!("position fen {fen}"));
        self.engine.handle_line("go infinite");
        let done = format!("info depth {depth} ");
        let start = std::time::Instant::now();
        while depth > 0 && !String::from_utf8_lossy(&self.out.0.lock().unwrap()).lines().any(|l| l.starts_with(&done)) {
            assert!(start.elapsed().as_secs() < 60, "no depth {depth} iteration");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let replies = self.send(&["stop"]);
        let last = replies.last().expect("a reply");
        last.strip_prefix("bestmove ").unwrap().split(' ').next().unwrap().to_string()
    }

    /// The move played at `fen` after `go`, with every reply.
    fn play(&mut self, fen: &str, go: &str) -> (String, Vec<String>) {
        let replies = self.send(&[&format!("position fen {fen}"), go]);
        let last = replies.last().expect("a reply");
        let mv = last.strip_prefix("bestmove ").unwrap_or_else(|| panic!("no bestmove: {replies:?}"));
        (mv.split(' ').next().unwrap().to_string(), replies)
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

fn legal(g: &ChessGame) -> Vec<Move> {
    let mut moves = Vec::new();
    g.generate(&mut moves);
    moves
}

/// The `strength` crate's agents for every kind of setting the dial gives:
/// the standard ones with the calibration's 16 MiB tables, and the engine
/// at full strength (`kibitz:nodes=N`).
fn strength_roster() -> Roster<ChessGame> {
    Roster::new().with(StandardAgents::new(ChessEval).with_table_mib(16)).with(KibitzAgents)
}

/// `n` positions of random games (8 to 40 plies from the start), with
/// moves left to play, as FENs.
fn positions(n: usize, seed: u64) -> Vec<String> {
    let mut r = rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut g = ChessGame::startpos();
        let plies = r.random_range(8..40);
        for _ in 0..plies {
            let mut moves = Vec::new();
            if g.generate(&mut moves) != Status::Ongoing {
                break;
            }
            g.play(moves[r.random_range(0..moves.len())]);
        }
        let fen = g.fen();
        let g = ChessGame::from_fen(&fen).unwrap();
        if g.generate(&mut Vec::new()) == Status::Ongoing {
            out.push(fen);
        }
    }
    out
}

#[test]
fn options_are_advertised_with_the_calibrated_range() {
    let dial = Dial::new(Calibration::from_json(include_str!("../../calibration/chess.json")).unwrap()).unwrap();
    let (lo, hi) = dial.range();
    // No negative Elo is offered: the range is cut at 0.
    let (min, max) = ((lo.ceil() as i64).max(0), hi.floor() as i64);
    // 1500 clamped into the range: the dial's top when that is below 1500.
    let default = 1500.clamp(min, max);
    assert_eq!(elo_range().map(|r| (r.min, r.max, r.default)), Some((min, max, default)));
    let mut k = Kibitz::new(&[]);
    let replies = k.send(&["uci"]);
    let check = "option name UCI_LimitStrength type check default false".to_string();
    let spin = format!("option name UCI_Elo type spin default {default} min {min} max {max}");
    assert!(replies.contains(&check), "{replies:?}");
    assert!(replies.contains(&spin), "{replies:?}");
    assert_eq!(replies.last().unwrap(), "uciok");
}

/// The heart of it: for settings across the range, the engine's move is
/// exactly the move the `strength` crate's agent for the dial's setting
/// chooses with the generator [`move_seed`] describes, a fresh agent at
/// every position, whatever the `go` command says.
#[test]
fn every_setting_plays_as_the_strength_crates_agent() {
    let r = elo_range().unwrap();
    let roster = strength_roster();
    let gos = ["go wtime 60000 btime 60000", "go depth 9", "go movetime 2000", "go nodes 5", "go"];
    let span = r.max - r.min;
    let mut kinds = Vec::new();
    for (i, elo) in [r.min, r.min + span / 4, r.default, r.min + span * 3 / 4, r.max].into_iter().enumerate() {
        let (spec, setting) = setting_at(elo).unwrap();
        kinds.push(spec.kind().to_string());
        let seed = 100 + i as u64;
        let mut k = Kibitz::limited(elo, seed);
        let mut agent = roster.build_spec(&spec).unwrap();
        for (j, fen) in positions(8, 7 + i as u64).iter().enumerate() {
            let (mv, replies) = k.play(fen, gos[j % gos.len()]);
            let note = format!("info string strength: elo {elo} -> {spec}");
            assert!(replies.contains(&note), "{note:?} not in {replies:?}");
            let final_info = replies.iter().rev().find(|l| l.starts_with("info depth ")).unwrap();
            if let StrengthSetting::Kibitz { nodes } = setting {
                // A node budget, not a depth, ends the engine's search.
                let searched: u64 =
                    final_info.split(" nodes ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
                assert!(searched <= nodes, "{replies:?}");
            } else {
                assert!(final_info.starts_with(&format!("info depth {} ", setting.depth())), "{replies:?}");
            }
            let g = ChessGame::from_fen(fen).unwrap();
            agent.reset();
            let want = agent.choose(&g, &mut rng::seeded(move_seed(seed, &g))).unwrap();
            assert_eq!(mv, uci(want), "elo {elo} ({spec}) at {fen}: {replies:?}");
        }
    }
    // The ends of the range: the dial's bottom and top settings.
    let top = setting_at(r.max).unwrap().0;
    assert_eq!(kinds.last().map(String::as_str), Some(top.kind()));
}

#[test]
fn the_lowest_elo_plays_legal_moves_unlike_the_full_engine() {
    let r = elo_range().unwrap();
    let mut weak = Kibitz::limited(r.min, 1);
    let mut full = Kibitz::new(&[]);
    let fens = positions(30, 2024);
    let mut differ = 0;
    for fen in &fens {
        let g = ChessGame::from_fen(fen).unwrap();
        let (a, _) = weak.play(fen, "go wtime 60000 btime 60000 winc 1000 binc 1000");
        let (b, _) = full.play(fen, "go depth 4");
        assert!(legal(&g).iter().any(|&m| uci(m) == a), "{a} at {fen}");
        differ += usize::from(a != b);
    }
    assert!(differ >= fens.len() / 2, "only {differ} of {} moves differ from the full engine's", fens.len());
}

/// `UCI_Elo` at its maximum is the engine at full strength with the
/// largest node budget the calibration rated: the move its agent
/// (`kibitz:nodes=N`) plays, at every position.
#[test]
fn the_top_elo_is_the_engine_at_full_strength() {
    let r = elo_range().unwrap();
    let calibration = Calibration::from_json(include_str!("../../calibration/chess.json")).unwrap();
    let budgets = calibration.rungs.iter().filter_map(|rung| rung.spec.strip_prefix("kibitz:nodes="));
    let largest = budgets.map(|n| n.parse::<u64>().unwrap()).max().expect("a node curve");
    let (spec, setting) = setting_at(r.max).unwrap();
    assert_eq!(setting, StrengthSetting::Kibitz { nodes: largest }, "{spec}");
    let mut k = Kibitz::limited(r.max, 5);
    let mut agent = KibitzAgent::new(largest).unwrap();
    for fen in positions(6, 99) {
        let g = ChessGame::from_fen(&fen).unwrap();
        let (mv, replies) = k.play(&fen, "go");
        let want = agent.choose(&g, &mut rng::seeded(0)).unwrap();
        assert_eq!(mv, uci(want), "{fen}: {replies:?}");
    }
}

#[test]
fn the_same_seed_and_position_give_the_same_move() {
    let r = elo_range().unwrap();
    let fens = positions(10, 31);
    // A sampled setting on a search (the depth-3 curve) and the default
    // (the engine with a node budget).
    let sampled = (r.min..=r.max)
        .step_by(10)
        .find(|&e| matches!(setting_at(e).unwrap().1, StrengthSetting::Boltzmann { depth: 3, .. }))
        .expect("a depth-3 Boltzmann setting");
    for elo in [r.min, sampled, r.default] {
        let moves = |seed: u64| -> Vec<String> {
            let mut k = Kibitz::limited(elo, seed);
            fens.iter().map(|fen| k.play(fen, "go movetime 3000").0).collect()
        };
        let a = moves(42);
        assert_eq!(a, moves(42), "elo {elo}");
        // The same engine, the positions in another order and another
        // `go`: the same moves. A depth-limited setting is stopped under
        // `go infinite` once its last iteration is reported; a node budget
        // ends the search by itself.
        let setting = setting_at(elo).unwrap().1;
        let mut k = Kibitz::limited(elo, 42);
        for (fen, mv) in fens.iter().zip(&a).rev() {
            let played = match setting {
                StrengthSetting::Kibitz { .. } => k.play(fen, "go wtime 1000 btime 1000").0,
                _ => k.play_infinite(fen, setting.depth()),
            };
            assert_eq!(&played, mv, "elo {elo} at {fen}");
        }
    }
    // At the bottom of the range (random play) another seed plays differently.
    let a: Vec<String> = {
        let mut k = Kibitz::limited(r.min, 42);
        fens.iter().map(|fen| k.play(fen, "go").0).collect()
    };
    let mut k = Kibitz::limited(r.min, 43);
    let b: Vec<String> = fens.iter().map(|fen| k.play(fen, "go").0).collect();
    assert_ne!(a, b);
}

#[test]
fn bad_elo_values_are_clamped_or_refused_and_settings_switch_between_games() {
    let r = elo_range().unwrap();
    let mut k = Kibitz::new(&["setoption name UCI_LimitStrength value true"]);
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    for (value, used) in [(r.max + 1, r.max), (100_000, r.max), (r.min - 1, r.min), (-100_000, r.min)] {
        // The note comes with the next search's output, not after `setoption`.
        let replies = k.send(&[&format!("setoption name UCI_Elo value {value}")]);
        assert!(replies.is_empty(), "{replies:?}");
        assert_eq!(k.engine.settings().elo, used);
        let (_, replies) = k.play(fen, "go movetime 50");
        let note =
            format!("info string UCI_Elo {value} is outside the calibrated range {} to {}: using {used}", r.min, r.max);
        assert!(replies.contains(&note), "{replies:?}");
    }
    for bad in ["abc", "", "15OO", "1500.0", "NaN", "-", "1e4", "9223372036854775808", "１５００"] {
        let replies = k.send(&[&format!("setoption name UCI_Elo value {bad}")]);
        assert!(
            replies.len() == 1 && replies[0].starts_with("info string error: option \"UCI_Elo\""),
            "{bad:?}: {replies:?}"
        );
        assert_eq!(k.engine.settings().elo, r.min);
    }
    // Between games: a new strength, then full strength, then limited again.
    let (_, replies) = k.play(fen, "go movetime 1000");
    assert!(replies.iter().any(|l| l.starts_with(&format!("info string strength: elo {} -> ", r.min))), "{replies:?}");
    k.send(&["ucinewgame", &format!("setoption name UCI_Elo value {}", r.max)]);
    let (_, replies) = k.play(fen, "go movetime 1000");
    assert!(replies.iter().any(|l| l.starts_with(&format!("info string strength: elo {} -> ", r.max))), "{replies:?}");
    k.send(&["ucinewgame", "setoption name UCI_LimitStrength value false"]);
    let (_, replies) = k.play(fen, "go depth 3");
    assert!(!replies.iter().any(|l| l.contains("strength")), "{replies:?}");
    assert!(replies.iter().any(|l| l.starts_with("info depth 3 ")), "{replies:?}");
    k.send(&["ucinewgame", "setoption name UCI_LimitStrength value true"]);
    let (mv, _) = k.play(fen, "go depth 3");
    let (again, _) = Kibitz::limited(r.max, 0).play(fen, "go depth 3");
    assert_eq!(mv, again);
}

/// A setting is exactly one of the four kinds the dial gives, all of
/// which the engine plays.
#[test]
fn every_setting_of_the_range_is_playable() {
    let r = elo_range().unwrap();
    let step = ((r.max - r.min) / 40).max(1);
    let mut elo = r.min;
    while elo <= r.max {
        let (spec, setting) = setting_at(elo).unwrap_or_else(|e| panic!("{elo}: {e}"));
        assert_eq!(StrengthSetting::from_spec(&spec).unwrap(), setting);
        assert!(matches!(spec.kind(), "random" | "alphabeta" | "boltzmann" | "kibitz"), "{spec}");
        elo += step;
    }
}
