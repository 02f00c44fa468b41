//! The brain driven as a Gomocup manager drives it: in-process through
//! `Brain::handle` and `run`, and the real binary over pipes.
//!
//! No test asserts on timing: with limits of a few milliseconds the brain
//! must answer, and its move must be legal.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use gomocup::brain::run;
use gomocup::protocol::{Coord, Reply};
use gomocup::{Brain, BrainConfig, Strategy};

/// A quiet brain (no MESSAGE lines) with a fixed seed.
fn brain_with(strategy: Strategy) -> Brain {
    Brain::new(BrainConfig { strategy, seed: 7, messages: false, table_mib: 16 }).unwrap()
}

fn brain() -> Brain {
    brain_with(Strategy::Auto)
}

fn send(b: &mut Brain, line: &str) -> Vec<Reply> {
    b.handle(line).replies
}

/// The move of a reply list that must be exactly one move.
fn the_move(replies: &[Reply]) -> Coord {
    match replies {
        [Reply::Move(c)] => *c,
        other => panic!("expected one move, got {other:?}"),
    }
}

fn is_error(replies: &[Reply]) -> bool {
    matches!(replies, [Reply::Error(_)])
}

/// A manager's view of the board: the stones, and who made five.
struct Board {
    size: u64,
    stones: Vec<Option<u8>>,
}

impl Board {
    fn new(size: u64) -> Board {
        Board { size, stones: vec![None; (size * size) as usize] }
    }

    fn at(&self, x: i64, y: i64) -> Option<u8> {
        let n = self.size as i64;
        if (0..n).contains(&x) && (0..n).contains(&y) { self.stones[(y * n + x) as usize] } else { None }
    }

    /// Places `who`'s stone; panics if the move is illegal. Returns true if
    /// it makes five or more in a row.
    fn place(&mut self, c: Coord, who: u8) -> bool {
        assert!(c.x < self.size && c.y < self.size, "{c} is off the board");
        let i = (c.y * self.size + c.x) as usize;
        assert!(self.stones[i].is_none(), "{c} is occupied");
        self.stones[i] = Some(who);
        let (x, y) = (c.x as i64, c.y as i64);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let run = |s: i64| (1..5).take_while(|k| self.at(x + s * k * dx, y + s * k * dy) == Some(who)).count();
            1 + run(1) + run(-1) >= 5
        })
    }

    fn empty(&self) -> Vec<Coord> {
        (0..self.size * self.size)
            .filter(|&i| self.stones[i as usize].is_none())
            .map(|i| Coord { x: i % self.size, y: i / self.size })
            .collect()
    }
}

/// A small deterministic generator for the tests' random choices.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn start_begin_turn() {
    let mut b = brain();
    assert_eq!(send(&mut b, "START 15"), vec![Reply::Ok]);
    assert!(send(&mut b, "INFO timeout_turn 100").is_empty());
    let mut board = Board::new(15);
    let first = the_move(&send(&mut b, "BEGIN"));
    assert_eq!(first, Coord { x: 7, y: 7 }, "the default player opens in the centre");
    board.place(first, 1);
    board.place(Coord { x: 8, y: 8 }, 2);
    let reply = the_move(&send(&mut b, "TURN 8,8"));
    board.place(reply, 1);
}

#[test]
fn unsupported_sizes_are_refused() {
    let mut b = brain();
    for line in ["START 20", "START 4", "START 0", "START 99999999999", "RECTSTART 15,10"] {
        assert!(is_error(&send(&mut b, line)), "{line}");
        // No board after a failed START.
        assert!(is_error(&send(&mut b, "BEGIN")), "{line}");
    }
    assert_eq!(send(&mut b, "RECTSTART 15,15"), vec![Reply::Ok]);
    assert_eq!(send(&mut b, "START 9"), vec![Reply::Ok]);
    let c = the_move(&send(&mut b, "BEGIN"));
    assert!(c.x < 9 && c.y < 9);
}

#[test]
fn commands_before_start_are_errors() {
    let mut b = brain();
    assert!(is_error(&send(&mut b, "TURN 7,7")));
    assert!(is_error(&send(&mut b, "BEGIN")));
    assert!(is_error(&send(&mut b, "RESTART")));
    assert!(is_error(&send(&mut b, "PLAY 1,1")));
    assert!(is_error(&send(&mut b, "TAKEBACK 1,1")));
    assert!(send(&mut b, "BOARD").is_empty());
    assert!(send(&mut b, "7,7,1").is_empty());
    assert!(is_error(&send(&mut b, "DONE")));
    // Then a normal game.
    assert_eq!(send(&mut b, "START 15"), vec![Reply::Ok]);
    the_move(&send(&mut b, "TURN 7,7"));
}

#[test]
fn illegal_coordinates_and_occupied_points_change_nothing() {
    let mut b = brain();
    send(&mut b, "START 15");
    send(&mut b, "INFO timeout_turn 50");
    let mine = the_move(&send(&mut b, "BEGIN"));
    for line in [
        "TURN 15,0",
        "TURN 0,15",
        "TURN -1,3",
        "TURN 3",
        "TURN a,b",
        "TURN 3,4,5",
        "TURN 18446744073709551616,0",
        "TURN",
    ] {
        assert!(is_error(&send(&mut b, line)), "{line}");
    }
    let occupied = format!("TURN {},{}", mine.x, mine.y);
    assert!(is_error(&send(&mut b, &occupied)));
    assert_eq!(b.position().unwrap().stones(), 1, "errors leave the board as it was");
    let reply = the_move(&send(&mut b, "TURN 0,0"));
    assert_ne!(reply, mine);
    assert_ne!(reply, Coord { x: 0, y: 0 });
    assert_eq!(b.position().unwrap().stones(), 3);
}

#[test]
fn boards_that_are_not_legal_positions_are_refused() {
    let mut b = brain();
    send(&mut b, "START 15");
    send(&mut b, "INFO timeout_turn 50");
    let block = |b: &mut Brain, lines: &[&str]| -> Vec<Reply> {
        assert!(send(b, "BOARD").is_empty());
        for l in lines {
            assert!(send(b, l).is_empty(), "{l}");
        }
        send(b, "DONE")
    };
    let bad: [&[&str]; 9] = [
        // Three own stones against one: impossible stone counts.
        &["7,7,1", "8,8,1", "9,9,1", "1,1,2"],
        // Two more opponent stones than own.
        &["7,7,2", "8,8,2"],
        // A point listed twice.
        &["7,7,1", "7,7,2"],
        // A finished game: five in a row for the opponent.
        &["0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,5,1", "2,5,1", "4,5,1", "6,5,1"],
        // Off the board.
        &["15,3,1", "3,3,2"],
        // Field 3 (continuous game) and an unknown field.
        &["3,3,3"],
        &["3,3,7"],
        // Garbage inside the block.
        &["7,7,1", "seven,seven,one", "8,8,2"],
        &["7;7;1"],
    ];
    for lines in bad {
        let replies = block(&mut b, lines);
        assert!(is_error(&replies), "{lines:?} gave {replies:?}");
        assert_eq!(b.position().unwrap().stones(), 0, "a refused BOARD changes nothing");
    }
    // A legal board: the brain (second player) moves.
    let replies = block(&mut b, &["7,7,2", "8,7,1", "8,8,2"]);
    let c = the_move(&replies);
    assert!(![(7, 7), (8, 7), (8, 8)].contains(&(c.x, c.y)));
    assert_eq!(b.position().unwrap().stones(), 4);
    // The opponent has four in a row, closed on the left: the brain must
    // block it on the right.
    let replies = block(&mut b, &["3,7,2", "4,7,2", "5,7,2", "6,7,2", "2,7,1", "0,0,1", "0,2,1", "14,14,1"]);
    assert_eq!(the_move(&replies), Coord { x: 7, y: 7 }, "did not block the four");
    // A command before DONE ends the block with an error and is handled.
    assert!(send(&mut b, "BOARD").is_empty());
    assert!(send(&mut b, "7,7,1").is_empty());
    let replies = send(&mut b, "RESTART");
    assert!(matches!(&replies[..], [Reply::Error(_), Reply::Ok]), "{replies:?}");
    the_move(&send(&mut b, "BEGIN"));
}

#[test]
fn unknown_commands_and_garbage() {
    let mut b = brain();
    assert!(matches!(&send(&mut b, "SWAP2BOARD")[..], [Reply::Unknown(_)]));
    assert!(matches!(&send(&mut b, "FOO bar")[..], [Reply::Unknown(_)]));
    assert!(is_error(&send(&mut b, "%%% \u{1} \u{fffd}")));
    assert!(is_error(&send(&mut b, "12,12")));
    assert!(send(&mut b, "").is_empty());
    assert!(send(&mut b, "   ").is_empty());
    // Unknown INFO keys are ignored, malformed known values are errors.
    for line in [
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO folder C:\\tmp x",
        "INFO evaluate 3,3",
        "INFO whatever 1",
    ] {
        assert!(send(&mut b, line).is_empty(), "{line}");
    }
    assert!(is_error(&send(&mut b, "INFO timeout_turn soon")));
    assert!(is_error(&send(&mut b, "INFO")));
    let about = send(&mut b, "ABOUT");
    match &about[..] {
        [Reply::About(text)] => {
            for key in ["name=\"", "version=\"", "author=\"", "country=\""] {
                assert!(text.contains(key), "{text}");
            }
        }
        other => panic!("ABOUT gave {other:?}"),
    }
}

#[test]
fn a_seeded_stream_of_garbage_never_breaks_the_brain() {
    let mut b = brain();
    send(&mut b, "INFO timeout_turn 1");
    let mut rng = Lcg(42);
    let words =
        ["START", "TURN", "BEGIN", "BOARD", "DONE", "INFO", "RESTART", "TAKEBACK", "PLAY", "ABOUT", "xyz", "", "1,2,1"];
    for _ in 0..3000 {
        let w = words[rng.below(words.len() as u64) as usize];
        let arg = match rng.below(6) {
            0 => String::new(),
            1 => format!("{},{}", rng.below(20), rng.below(20)),
            2 => format!("{},{},{}", rng.below(17), rng.below(17), rng.below(4)),
            3 => format!("timeout_turn {}", rng.below(3)),
            4 => format!("{}", rng.below(30)),
            _ => "-1,\u{7f}\u{feff}".into(),
        };
        let line = format!("{w} {arg}");
        let r = b.handle(&line);
        assert!(!r.quit);
        assert!(r.replies.len() <= 2, "{line}: {:?}", r.replies);
    }
    // Still a working brain.
    send(&mut b, "DONE");
    assert_eq!(send(&mut b, "START 15"), vec![Reply::Ok]);
    send(&mut b, "INFO timeout_turn 20");
    the_move(&send(&mut b, "BEGIN"));
}

#[test]
fn time_limits_of_a_few_milliseconds_still_give_legal_moves() {
    for strategy in [Strategy::Auto, Strategy::Spec("alphabeta:depth=3".into()), Strategy::Spec("elo:1200".into())] {
        for info in [
            &["INFO timeout_turn 5"][..],
            &["INFO timeout_turn 1"],
            &["INFO timeout_turn 0"],
            &["INFO timeout_turn 30000", "INFO timeout_match 1000", "INFO time_left 3"],
            &["INFO timeout_turn 5000", "INFO timeout_match 180000", "INFO time_left 0"],
        ] {
            let mut b = brain_with(strategy.clone());
            send(&mut b, "START 15");
            for line in info {
                send(&mut b, line);
            }
            let mut board = Board::new(15);
            let mut rng = Lcg(3);
            let c = the_move(&send(&mut b, "BEGIN"));
            board.place(c, 1);
            for _ in 0..6 {
                let empty = board.empty();
                let theirs = empty[rng.below(empty.len() as u64) as usize];
                if board.place(theirs, 2) {
                    break;
                }
                let c = the_move(&send(&mut b, &format!("TURN {},{}", theirs.x, theirs.y)));
                if board.place(c, 1) {
                    break;
                }
            }
        }
    }
}

/// Plays a whole game between two brains through the protocol, as a
/// manager does (with a match clock if `clock` is given: `time_left` before
/// every move, counted down by a fixed amount); returns the winner (1 or 2)
/// or 0 for a draw.
fn play_game(a: &mut Brain, b: &mut Brain, info: &[&str], clock: Option<u64>) -> u8 {
    for brain in [&mut *a, &mut *b] {
        assert_eq!(send(brain, "START 15"), vec![Reply::Ok]);
        for line in info {
            assert!(send(brain, line).is_empty(), "{line}");
        }
    }
    let mut left = clock.map(|c| [c, c]);
    let mut board = Board::new(15);
    let mut last = the_move(&send(a, "BEGIN"));
    if board.place(last, 1) {
        return 1;
    }
    for ply in 1..225 {
        let (brain, who) = if ply % 2 == 1 { (&mut *b, 2) } else { (&mut *a, 1) };
        if let Some(left) = left.as_mut() {
            let l = &mut left[usize::from(who - 1)];
            *l = l.saturating_sub(40);
            assert!(send(brain, &format!("INFO time_left {l}")).is_empty());
        }
        last = the_move(&send(brain, &format!("TURN {},{}", last.x, last.y)));
        if board.place(last, who) {
            // The loser's brain refuses to move in a finished game.
            let loser = if who == 1 { &mut *b } else { &mut *a };
            assert!(is_error(&send(loser, &format!("TURN {},{}", last.x, last.y))));
            return who;
        }
    }
    0
}

#[test]
fn full_games_to_a_finish() {
    // Alpha-beta at depth 2 (it sees every five and every threat of one)
    // against random play, with all the time it needs: it wins.
    let mut strong = brain_with(Strategy::Spec("alphabeta:depth=2".into()));
    let mut weak = brain_with(Strategy::Spec("random".into()));
    assert_eq!(play_game(&mut strong, &mut weak, &["INFO timeout_turn 60000"], None), 1);
    // The default player against a dial setting, to the end, under a match
    // clock.
    let mut a = brain();
    let mut b = brain_with(Strategy::Spec("elo:1400".into()));
    let info = ["INFO timeout_turn 1000", "INFO timeout_match 4000", "INFO rule 0", "INFO max_memory 83886080"];
    let result = play_game(&mut a, &mut b, &info, Some(4000));
    assert!(result <= 2);
    // RESTART, then a new game on the same brains.
    for brain in [&mut a, &mut b] {
        assert_eq!(send(brain, "RESTART"), vec![Reply::Ok]);
    }
    the_move(&send(&mut a, "BEGIN"));
}

#[test]
fn restart_takeback_and_play() {
    let mut b = brain();
    send(&mut b, "START 15");
    send(&mut b, "INFO timeout_turn 20");
    let first = the_move(&send(&mut b, "BEGIN"));
    let reply = the_move(&send(&mut b, "TURN 0,0"));
    assert!(is_error(&send(&mut b, "TAKEBACK 0,0")), "only the last stone");
    assert_eq!(send(&mut b, &format!("TAKEBACK {},{}", reply.x, reply.y)), vec![Reply::Ok]);
    assert_eq!(send(&mut b, "TAKEBACK 0,0"), vec![Reply::Ok]);
    assert_eq!(b.position().unwrap().stones(), 1);
    assert_eq!(send(&mut b, "PLAY 3,3"), vec![Reply::Move(Coord { x: 3, y: 3 })]);
    assert!(is_error(&send(&mut b, &format!("PLAY {},{}", first.x, first.y))));
    assert!(is_error(&send(&mut b, "BEGIN")), "BEGIN needs an empty board");
    assert_eq!(send(&mut b, "RESTART"), vec![Reply::Ok]);
    assert_eq!(b.position().unwrap().stones(), 0);
    the_move(&send(&mut b, "BEGIN"));
}

#[test]
fn rules_exact_five_and_unsupported_rules() {
    let mut b = brain();
    send(&mut b, "START 15");
    send(&mut b, "INFO timeout_turn 20");
    assert!(send(&mut b, "INFO rule 1").is_empty());
    // Six in a row is no win under the exact-five rule: a legal position.
    send(&mut b, "BOARD");
    for l in ["0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "5,0,2", "0,5,1", "3,5,1", "6,5,1", "9,5,1", "12,5,1"] {
        send(&mut b, l);
    }
    the_move(&send(&mut b, "DONE"));
    // Renju, continuous and caro are not played: a MESSAGE says so.
    for rule in ["4", "2", "8", "5"] {
        let r = send(&mut b, &format!("INFO rule {rule}"));
        assert!(matches!(&r[..], [Reply::Message(_), ..]), "rule {rule}: {r:?}");
    }
}

#[test]
fn messages_describe_the_moves() {
    let mut b = Brain::new(BrainConfig { seed: 1, ..BrainConfig::default() }).unwrap();
    send(&mut b, "START 15");
    send(&mut b, "INFO timeout_turn 50");
    let r = send(&mut b, "TURN 7,7");
    assert!(matches!(&r[..], [Reply::Message(_), Reply::Move(_)]), "{r:?}");
}

#[test]
fn bad_agent_specs_are_refused_at_startup() {
    for spec in ["alphabeta", "alphabeta:depth=0", "elo:99999", "nonsense:x=1", "alphabeta:depth=3,colour=red"] {
        assert!(
            Brain::new(BrainConfig { strategy: Strategy::Spec(spec.into()), ..BrainConfig::default() }).is_err(),
            "{spec}"
        );
    }
}

#[test]
fn run_stops_at_end_and_at_the_end_of_input() {
    let mut b = brain();
    let mut out = Vec::new();
    run(&mut b, "START 15\r\nINFO timeout_turn 20\r\nBEGIN\r\nEND\r\nABOUT\r\n".as_bytes(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "OK\n7,7\n", "nothing is read after END");
    let mut b = brain();
    let mut out = Vec::new();
    run(&mut b, "START 15\nBOARD\n7,7,1".as_bytes(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "OK\n");
}

/// The real binary over pipes.
struct Child {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Child {
    fn spawn(args: &[&str]) -> Child {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-backup-rules"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Child { child, stdin, stdout }
    }

    fn send(&mut self, line: &str) {
        // The manager ends its lines with CR LF.
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE or DEBUG line.
    fn answer(&mut self) -> String {
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the brain closed its output");
            let line = line.trim_end().to_string();
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    fn coord(&mut self) -> (u64, u64) {
        let a = self.answer();
        let (x, y) = a.split_once(',').unwrap_or_else(|| panic!("not a move: {a:?}"));
        (x.parse().unwrap(), y.parse().unwrap())
    }
}

#[test]
fn the_binary_plays_over_pipes() {
    let mut c = Child::spawn(&["--seed", "3"]);
    c.send("START 20");
    assert!(c.answer().starts_with("ERROR"));
    c.send("START 15");
    assert_eq!(c.answer(), "OK");
    c.send("INFO timeout_turn 5");
    c.send("INFO timeout_match 100000");
    c.send("INFO time_left 100000");
    c.send("INFO max_memory 83886080");
    c.send("INFO game_type 1");
    c.send("INFO rule 0");
    c.send("INFO folder /tmp");
    c.send("ABOUT");
    assert!(c.answer().starts_with("name=\""));
    let mut seen = HashSet::new();
    c.send("BEGIN");
    seen.insert(c.coord());
    for (x, y) in [(0, 0), (14, 14), (0, 14)] {
        c.send(&format!("TURN {x},{y}"));
        seen.insert((x, y));
        let m = c.coord();
        assert!(m.0 < 15 && m.1 < 15 && seen.insert(m), "illegal move {m:?}");
    }
    c.send("TURN 0,0");
    assert!(c.answer().starts_with("ERROR"), "occupied");
    c.send("TURN 15,15");
    assert!(c.answer().starts_with("ERROR"), "off the board");
    c.send("HELLO");
    assert!(c.answer().starts_with("UNKNOWN"));
    c.send("BOARD");
    c.send("7,7,1");
    c.send("7,8,1");
    c.send("7,9,2");
    c.send("DONE");
    assert!(c.answer().starts_with("ERROR"), "two own stones against one");
    c.send("RESTART");
    assert_eq!(c.answer(), "OK");
    c.send("BOARD");
    c.send("7,7,2");
    c.send("DONE");
    let m = c.coord();
    assert_ne!(m, (7, 7));
    c.send("END");
    assert!(c.child.wait().unwrap().success());
}

#[test]
fn the_binary_plays_an_agent_spec_and_exits_at_eof() {
    let mut c = Child::spawn(&["--agent", "elo:1000", "--quiet"]);
    c.send("START 15");
    assert_eq!(c.answer(), "OK");
    c.send("INFO timeout_turn 200");
    c.send("TURN 7,7");
    let m = c.coord();
    assert_ne!(m, (7, 7));
    drop(c.stdin);
    assert!(c.child.wait().unwrap().success(), "end of input ends the brain cleanly");
}

#[test]
fn the_binary_refuses_bad_arguments() {
    let exe = env!("CARGO_BIN_EXE_pbrain-backup-rules");
    let status = |args: &[&str]| Command::new(exe).args(args).stdin(Stdio::null()).output().unwrap();
    assert_eq!(status(&["--agent", "elo:99999"]).status.code(), Some(2));
    assert_eq!(status(&["--frobnicate"]).status.code(), Some(2));
    assert_eq!(status(&["--seed"]).status.code(), Some(2));
    let list = status(&["--list"]);
    assert!(list.status.success());
    assert!(String::from_utf8_lossy(&list.stdout).contains("elo:X"));
}
