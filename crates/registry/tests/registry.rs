//! The built-in games' ladders and setups: every rung plays and is linked
//! to random play, the ladders are the ones the committed calibrations were
//! made with, and the setups' openings and perfect player behave.

use games_small::Connect4;
use registry::ladders::{
    CHESS_PENDING_LINKS, CONNECT4_ENDGAME_EMPTIES, KIBITZ_NODES, STOCKFISH_LINKS, chess, connect4, gobang,
};
use registry::{connect4_setup, tictactoe_setup};
use strength::dial::Dial;
use strength::spec::AgentSpec;
use tournament::ladder::Ladder;

fn ladder(game: &str) -> Ladder {
    registry::game(game).unwrap().ladder()
}

#[test]
fn every_rung_plays_and_the_schedule_is_connected() {
    for game in registry::names() {
        let s = ladder(game).schedule();
        let (rungs, games) = (s.rungs, s.matchups);
        let mut reached = vec![false; rungs.len()];
        reached[0] = true;
        for _ in 0..rungs.len() {
            for &(a, b) in &games {
                if reached[a] || reached[b] {
                    reached[a] = true;
                    reached[b] = true;
                }
            }
        }
        assert!(reached.iter().all(|&r| r), "{game}: a rung is not connected to random play");
        for &(a, b) in &games {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn curves_are_linked_at_equal_theta_and_top_to_top() {
    let s = gobang().schedule();
    let (rungs, games) = (s.rungs, s.matchups);
    let has = |a: &str, b: &str| {
        let (i, j) = (rungs.iter().position(|r| r == a).unwrap(), rungs.iter().position(|r| r == b).unwrap());
        games.contains(&(i, j))
    };
    let (d1, d2) = ("boltzmann:depth=1,softcap=10000,theta=", "boltzmann:depth=2,softcap=10000,theta=");
    for t in ["0.0003", "0.001", "0.003", "0.01"] {
        assert!(has(&format!("{d1}{t}"), &format!("{d2}{t}")), "θ = {t}");
    }
    // Depth 1's extra θ links to the nearest of depth 2.
    assert!(has(&format!("{d1}0.0001"), &format!("{d2}0.0003")));
    assert!(has("alphabeta:depth=1", "alphabeta:depth=2"));
}

/// A spec without a UCI engine's path: the committed chess calibration
/// names the Stockfish it was played with, which may be installed elsewhere.
fn without_engine_path(spec: &str) -> String {
    match spec.strip_prefix("uci:") {
        Some(rest) => format!("uci:…,{}", rest.split_once(',').map_or("", |(_, options)| options)),
        None => spec.to_string(),
    }
}

/// Whether `spec` is the chess ladder's Stockfish at `UCI_Elo` `elo`.
fn is_level(spec: &str, elo: u32) -> bool {
    spec.starts_with("uci:") && spec.contains(&format!(",UCI_Elo={elo},"))
}

/// Whether `a` against `b` is one of the chess ladder's links still being
/// played ([`CHESS_PENDING_LINKS`]).
fn pending(a: &str, b: &str) -> bool {
    CHESS_PENDING_LINKS.iter().any(|&(elo, rung)| (is_level(a, elo) && b == rung) || (is_level(b, elo) && a == rung))
}

/// A Stockfish level of the chess ladder all of whose links are still
/// being played.
fn pending_level(spec: &str) -> bool {
    STOCKFISH_LINKS
        .iter()
        .any(|&(elo, links)| is_level(spec, elo) && links.iter().all(|l| CHESS_PENDING_LINKS.contains(&(elo, l))))
}

/// The ladders built on the library are the ones the committed
/// calibrations were made with: the same rungs, and the same matchups
/// (each calibration's residuals list one per matchup), so that a rerun
/// with the same seed plays the same cells; chess's links still being
/// played ([`CHESS_PENDING_LINKS`]) are the only difference, and the
/// committed calibration has none of them. Chess's Stockfish levels are
/// compared only where Stockfish is installed (the ladder has them only
/// then).
#[test]
fn the_built_in_ladders_are_the_committed_calibrations_ladders() {
    for game in ["tictactoe", "connect4", "gobang", "chess"] {
        let c = registry::game(game).unwrap().calibration().unwrap();
        let l = ladder(game);
        let s = l.schedule();
        for r in &c.residuals {
            assert!(!pending(&r.a, &r.b), "{game}: {} against {} is committed: empty CHESS_PENDING_LINKS", r.a, r.b);
        }
        let external = |spec: &str| spec.starts_with("uci:");
        let compared = |spec: &str| (!l.references.is_empty() || !external(spec)) && !pending_level(spec);
        if !c.rungs.iter().all(|r| compared(&r.spec)) {
            eprintln!("{game}: Stockfish is not installed: its levels in the calibration are not compared");
        }
        let mut rungs: Vec<String> = s.rungs.iter().filter(|r| compared(r)).map(|r| without_engine_path(r)).collect();
        let mut committed: Vec<String> =
            c.rungs.iter().filter(|r| compared(&r.spec)).map(|r| without_engine_path(&r.spec)).collect();
        rungs.sort_unstable();
        committed.sort_unstable();
        assert_eq!(rungs, committed, "{game}: rungs");
        let mut matchups: Vec<(String, String)> = s
            .matchups
            .iter()
            .filter(|&&(a, b)| !pending(&s.rungs[a], &s.rungs[b]))
            .map(|&(a, b)| (without_engine_path(&s.rungs[a]), without_engine_path(&s.rungs[b])))
            .collect();
        let mut residuals: Vec<(String, String)> = c
            .residuals
            .iter()
            .filter(|r| compared(&r.a) && compared(&r.b))
            .map(|r| (without_engine_path(&r.a), without_engine_path(&r.b)))
            .collect();
        matchups.sort_unstable();
        residuals.sort_unstable();
        assert_eq!(matchups, residuals, "{game}: matchups");
        let games: u64 = c.residuals.iter().map(|r| r.games).sum();
        assert_eq!(c.games, games, "{game}: the residuals' games");
        for r in c.residuals.iter().filter(|r| compared(&r.a) && compared(&r.b)) {
            assert_eq!(r.games, 2 * l.pairs as u64, "{game}: pairs of {} against {}", r.a, r.b);
        }
        for r in c.rungs.iter().filter(|r| !external(&r.spec)) {
            let (curve, theta) = l.place_of(&r.spec);
            assert_eq!(r.curve, curve, "{game}: {}", r.spec);
            assert_eq!(r.theta, if r.spec == "random" { None } else { theta }, "{game}: {}", r.spec);
        }
    }
}

/// Stockfish plays the settings the dial itself serves where the ranges
/// meet: each link is a rung of the chess ladder, and the committed
/// calibration's dial, asked for a linked rung's rating, plays on the
/// link's curve: the depth-3 curve's θ, or the engine's node curve. The
/// one exception is `alphabeta:depth=3`, the depth-3 curve's greedy top:
/// the node curve, which overlaps it, serves its rating (the dial prefers a
/// curve with a finite knob to a greedy top), as the depth-3 curve serves
/// `alphabeta:depth=2`'s, a link an earlier ladder had.
#[test]
fn stockfish_plays_the_settings_the_chess_dial_serves() {
    let rungs = chess().schedule().rungs;
    let calibration = registry::game("chess").unwrap().calibration().unwrap();
    let dial = Dial::new(calibration.clone()).unwrap();
    let served =
        |spec: &str| calibration.rungs.iter().find(|r| r.spec == spec).map(|rung| dial.setting(rung.rating).unwrap());
    let mut checked = 0;
    for (_, links) in STOCKFISH_LINKS {
        for link in links {
            assert!(rungs.iter().any(|r| r == link), "{link} is not a rung");
            let setting = served(link).unwrap_or_else(|| panic!("{link} is not in the calibration"));
            let spec = link.parse::<AgentSpec>().unwrap();
            if *link == "alphabeta:depth=3" {
                assert_eq!(setting.kind(), "kibitz", "{link}: the dial serves {setting}");
            } else {
                assert_eq!(setting.kind(), spec.kind(), "{link}: the dial serves {setting}");
                assert_eq!(setting.get("depth"), spec.get("depth"), "{link}: the dial serves {setting}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, STOCKFISH_LINKS.iter().map(|(_, links)| links.len()).sum::<usize>());
    assert_eq!(served("alphabeta:depth=2").unwrap().get("depth"), Some("3"));
}

/// The chess ladder climbs from random play through the depth curves to
/// the engine's node budgets: every rung is connected to random play, the
/// node curve is met by the depth-3 top and by Stockfish's upper levels, and
/// no Stockfish level plays a rung far from its strength.
#[test]
fn the_chess_ladder_reaches_the_engine_at_full_strength() {
    let ladder = chess();
    let s = ladder.schedule();
    assert!(s.connected(), "a rung no matchup reaches");
    let top = format!("kibitz:nodes={}", KIBITZ_NODES[KIBITZ_NODES.len() - 1]);
    assert!(s.rungs.contains(&top));
    let named: Vec<(&str, &str)> =
        s.matchups.iter().map(|&(a, b)| (s.rungs[a].as_str(), s.rungs[b].as_str())).collect();
    assert!(named.contains(&("alphabeta:depth=3", "kibitz:nodes=500")));
    assert!(named.contains(&("alphabeta:depth=3", "kibitz:nodes=1000")));
    // Every rung is a spec the chess roster builds.
    let setup = registry::game("chess").unwrap().setup().unwrap();
    for rung in s.rungs.iter().filter(|r| !r.starts_with("uci:")) {
        setup.check_spec(rung).unwrap_or_else(|e| panic!("{rung}: {e}"));
    }
    // Stockfish's lowest level plays no node budget but the curve's first,
    // its highest none of the depth curves.
    let first = format!("kibitz:nodes={}", KIBITZ_NODES[0]);
    for (elo, links) in STOCKFISH_LINKS {
        if elo <= 1350 {
            assert!(links.iter().all(|l| !l.starts_with("kibitz") || *l == first));
        }
        if elo >= 1900 {
            assert!(links.iter().all(|l| l.starts_with("kibitz")));
        }
    }
}

/// The matchups of `ladder`, by spec.
fn matchups(ladder: &Ladder) -> Vec<(String, String)> {
    let s = ladder.schedule();
    s.matchups.iter().map(|&(a, b)| (s.rungs[a].clone(), s.rungs[b].clone())).collect()
}

/// `ladder`'s last curve (its rungs are those `on_top` accepts) meets the
/// curves below it in exactly the matchups `links`, plays `within`
/// matchups of its own, and leaves every matchup of the ladder without it
/// as it was, so that their games are reused.
fn check_top_curve(ladder: &Ladder, on_top: impl Fn(&str) -> bool, links: &[(String, String)], within: usize) {
    let pairs = matchups(ladder);
    let touching: Vec<&(String, String)> = pairs.iter().filter(|(a, b)| on_top(a) != on_top(b)).collect();
    assert_eq!(touching.len(), links.len(), "{touching:?}");
    for link in links {
        assert!(pairs.contains(link), "{link:?} missing");
    }
    let mut below = ladder.clone();
    below.curves.pop();
    let kept = matchups(&below);
    for p in &kept {
        assert!(pairs.contains(p), "{p:?} dropped");
    }
    assert_eq!(pairs.len(), kept.len() + links.len() + within);
}

/// Connect-4's depth-12 curve is linked to depth 8 at its two equal θ
/// and top to top, and to nothing further away (random play does not
/// meet it); adding it kept every matchup of the four curves below.
#[test]
fn connect4s_depth_12_curve_links_only_where_it_overlaps() {
    let mut ladder = connect4();
    ladder.curves.pop(); // the endgame curve above it: the next test
    let (d8, d12) = ("boltzmann:depth=8,cap=100,theta=", "boltzmann:depth=12,cap=100,theta=");
    let links = [
        (format!("{d8}0.1"), format!("{d12}0.1")),
        (format!("{d8}0.3"), format!("{d12}0.3")),
        ("alphabeta:depth=8".to_string(), "alphabeta:depth=12".to_string()),
    ];
    // Three rungs and a top: each against the next two up.
    check_top_curve(&ladder, |spec| spec.contains("depth=12"), &links, 5);
}

/// Connect-4's endgame curve (`solver:depth=8,empties=E`) is linked to
/// the curves below only by the depth-12 curve's top against its two
/// weakest rungs (random play does not meet it); adding it kept every
/// matchup of the five curves below.
#[test]
fn connect4s_endgame_curve_links_only_at_depth_12s_top() {
    let e = CONNECT4_ENDGAME_EMPTIES;
    let endgame = |e: f64| format!("solver:depth=8,empties={e}");
    let links = [("alphabeta:depth=12".to_string(), endgame(e[0])), ("alphabeta:depth=12".to_string(), endgame(e[1]))];
    // Each rung against the next two up the curve.
    check_top_curve(&connect4(), |spec| spec.starts_with("solver:"), &links, 2 * e.len() - 3);
}

#[test]
fn a_longer_opening_list_starts_with_the_shorter_one() {
    for game in ["tictactoe", "connect4"] {
        let arena = registry::game(game).unwrap().setup().unwrap();
        let short = arena.random_openings(30, 7).unwrap();
        let long = arena.random_openings(60, 7).unwrap();
        assert_eq!(&long[..30], &short[..], "{game}");
        for o in &long {
            arena.check_opening(o).unwrap();
        }
    }
    // Tic-tac-toe has nine one-ply openings: all used before a repeat.
    let nine = tictactoe_setup().unwrap().random_openings(9, 3).unwrap();
    let mut sorted = nine.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 9);
}

/// The perfect player (`solver`) never scores below an opening's solved
/// value for its side, with either colour, against a searching player.
#[test]
fn the_solver_spec_never_does_worse_than_the_solved_value() {
    use games_small::solver::Solver;
    let arena = connect4_setup().unwrap();
    arena.check_spec("solver").unwrap();
    assert!(arena.check_spec("solver:mib=0").is_err());
    assert!(arena.check_spec("solver:depth=3").is_err());
    let mut judge = Solver::with_table_mib(7, 6, 8).unwrap();
    for opening in ["444444333333", "3333334444445", "44444433333355"] {
        let pos = Connect4::from_moves(7, 6, opening).unwrap();
        let value = |score: i32| f64::from(score.signum() + 1) / 2.0;
        // The solved score for the first player (A's side in `a_first`).
        let to_move = judge.solve(&pos).unwrap().score;
        let s = if opening.len() % 2 == 0 { to_move } else { -to_move };
        let spaced: Vec<String> = opening.chars().map(String::from).collect();
        let pairs = arena.play_pairs("solver:mib=8", "alphabeta:depth=4", &[(spaced.join(" "), 5)]).unwrap();
        for p in pairs {
            // A (the solver) plays the first player, then the second.
            assert!(p.a_first.score >= value(s), "{opening}: {p:?}, solved {s}");
            assert!(p.b_first.score >= value(-s), "{opening}: {p:?}, solved {s}");
        }
    }
}

/// `solver:depth=D,empties=E` plays `alphabeta:depth=D`'s games while
/// more than E cells are empty (E = 0: every game the same) and the
/// solver's at 42 (the whole 7 × 6 board); a half-given pair is refused.
#[test]
fn the_endgame_solver_spec_switches_between_its_two_players() {
    let arena = connect4_setup().unwrap();
    for bad in ["solver:depth=4", "solver:empties=30", "solver:depth=4,empties=x", "solver:depth=4,empties=30,theta=1"]
    {
        assert!(arena.check_spec(bad).is_err(), "{bad} was accepted");
    }
    arena.check_spec("solver:depth=12,empties=30,mib=8").unwrap();
    let openings: Vec<(String, u64)> =
        ["4 3 5 4 3 5 2 6", "4 4 3 5 3 3 5 4"].iter().enumerate().map(|(i, o)| (o.to_string(), i as u64)).collect();
    let same = |a: &str, b: &str, opponent: &str| {
        let x = arena.play_pairs(a, opponent, &openings).unwrap();
        let y = arena.play_pairs(b, opponent, &openings).unwrap();
        assert_eq!(format!("{x:?}"), format!("{y:?}"), "{a} and {b} against {opponent}");
    };
    same("solver:depth=3,empties=0", "alphabeta:depth=3", "boltzmann:depth=2,cap=100,theta=0.1");
    same("solver:depth=3,empties=42,mib=8", "solver:mib=8", "alphabeta:depth=4");
    // In between, the perfect player takes over: against a weak opponent,
    // the game changes once it does (here, from the first move).
    let x = arena.play_pairs("solver:depth=1,empties=28,mib=8", "random", &openings).unwrap();
    let y = arena.play_pairs("alphabeta:depth=1", "random", &openings).unwrap();
    assert_ne!(format!("{x:?}"), format!("{y:?}"));
}
