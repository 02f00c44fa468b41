//! Decisions from game records: tic-tac-toe's depth-9 values against an
//! independent brute-force solve, the move played, bad input named by its
//! line, the side selected, the values a dial player sees, and a Boltzmann
//! player's θ recovered by the fit.

use std::collections::HashMap;

use games_small::{Connect4, Connect4Eval, TicTacToe, TicTacToeEval};
use search_core::{Agent, Game, GameError, Status, rng};
use strength::agents::{Roster, StandardAgents};
use strength::fit::{FitOptions, Model, fit};
use tournament::decisions::{
    DecisionsError, DepthValuer, GameRecord, MoveTokens, MoveValues, Side, Valued, decisions, decisions_at_depth,
    parse_games,
};

// ---------------------------------------------------------------------------
// An independent tic-tac-toe: cells 0..9 row by row from a1 (`b2` = 4),
// solved by plain minimax over the whole tree.

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A board: 0 empty, 1 the first player's mark, 2 the second's.
type Board = [u8; 9];

fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 3 + (b[0] - b'a') as usize
}

fn winner(b: &Board) -> Option<u8> {
    LINES.iter().find(|l| b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]).map(|l| b[l[0]])
}

fn to_move(b: &Board) -> u8 {
    if b.iter().filter(|&&c| c != 0).count() % 2 == 0 { 1 } else { 2 }
}

/// The game's value for the side to move: +1 win, 0 draw, −1 loss.
fn solve(b: &Board) -> i32 {
    let me = to_move(b);
    if let Some(w) = winner(b) {
        return if w == me { 1 } else { -1 };
    }
    let mut best = None;
    for c in 0..9 {
        if b[c] == 0 {
            let v = -after(b, c);
            best = Some(best.map_or(v, |x: i32| x.max(v)));
        }
    }
    best.unwrap_or(0)
}

/// The value of playing `c` for the side to move, from the opponent's side
/// (negated by the caller): the position after the move, solved.
fn after(b: &Board, c: usize) -> i32 {
    let mut n = *b;
    n[c] = to_move(b);
    solve(&n)
}

/// Every empty cell's outcome class for the mover of `b`.
fn classes(b: &Board) -> HashMap<usize, i32> {
    (0..9).filter(|&c| b[c] == 0).map(|c| (c, -after(b, c))).collect()
}

fn sign(v: f64) -> i32 {
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

/// Played-out games of tic-tac-toe (some won, some drawn).
const GAMES: &str = "\
# tic-tac-toe games, one a line
b2 a1 c3 a3 a2 c2 b1 b3 c1
a1 b2 c3 b1 b3 a3 c1

b2 a1 c1 a3 a2 c2 b3 b1 c3
c1 b2 a1 b1 b3 a2 c2 c3 a3
a1 a2 b2 b1 c3
b2 c1 a1 c3 c2 a2 b3 b1 a3
";

fn boards(line: &str) -> Vec<(Board, usize)> {
    let mut b = [0u8; 9];
    let mut out = Vec::new();
    for name in line.split_whitespace() {
        let c = cell(name);
        out.push((b, c));
        b[c] = to_move(&b);
    }
    out
}

fn game_lines() -> Vec<&'static str> {
    GAMES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

#[test]
fn depth_nine_values_are_the_solved_outcome_classes() {
    let games = parse_games(&TicTacToe::default(), GAMES, MoveTokens::Words).unwrap();
    assert_eq!(games.len(), 6);
    assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [2, 3, 5, 6, 7, 8]);
    let d = decisions_at_depth(&games, Side::Both, TicTacToeEval::default(), 9, 1).unwrap();
    assert_eq!(d.skipped(), 0);
    let expected: Vec<(Board, usize)> = game_lines().iter().flat_map(|l| boards(l)).collect();
    assert_eq!(d.decisions.len(), expected.len());
    let mut informative = 0;
    for (k, (dec, (board, played))) in d.decisions.iter().zip(&expected).enumerate() {
        let truth = classes(board);
        let mut got: Vec<i32> = dec.values.iter().map(|&v| sign(v)).collect();
        let mut want: Vec<i32> = truth.values().copied().collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "decision {k}: the classes of the moves");
        assert_eq!(sign(dec.values[dec.chosen]), truth[played], "decision {k}: the class of the move played");
        informative += usize::from(want.first() != want.last());
    }
    // Not a trivial check: many positions mix wins, draws and losses.
    assert!(informative >= 10, "{informative} informative decisions");

    // Move by move, through the valuer itself.
    let mut valuer = DepthValuer::new(TicTacToeEval::default(), 9, 1).unwrap();
    assert_eq!(valuer.depth(), 9);
    for moves in ["", "b2", "b2 a1", "b2 a2", "a1 b2 c3", "b2 a1 c1", "a1 a2 b2 b1"] {
        let g = TicTacToe::from_moves(moves).unwrap();
        let mut board = [0u8; 9];
        for name in moves.split_whitespace() {
            let c = cell(name);
            board[c] = to_move(&board);
        }
        let truth = classes(&board);
        let values = valuer.values(&g).unwrap();
        assert_eq!(values.len(), truth.len(), "{moves:?}");
        for (mv, v) in values {
            assert_eq!(sign(v), truth[&usize::from(mv)], "{moves:?}: {}", g.move_string(mv));
        }
    }
    // Centre then corner is a draw; centre then edge a win for the first
    // player, with some moves only.
    let v = valuer.values(&TicTacToe::from_moves("b2 a1").unwrap()).unwrap();
    assert!(v.iter().all(|&(_, x)| x <= 0.0) && v.iter().any(|&(_, x)| x == 0.0));
    let v = valuer.values(&TicTacToe::from_moves("b2 a2").unwrap()).unwrap();
    assert!(v.iter().any(|&(_, x)| x > 0.0) && v.iter().any(|&(_, x)| x == 0.0));
}

/// Values each legal move by its cell number, in reverse generation order.
struct CellNumbers;

impl MoveValues<TicTacToe> for CellNumbers {
    type Error = String;

    fn move_values(&mut self, g: &TicTacToe) -> Result<Valued<u8>, String> {
        let mut moves = Vec::new();
        g.generate(&mut moves);
        Ok(Some(moves.into_iter().rev().map(|m| (m, f64::from(m))).collect()))
    }
}

#[test]
fn chosen_indexes_the_move_played() {
    let games = parse_games(&TicTacToe::default(), GAMES, MoveTokens::Words).unwrap();
    let d = decisions(&games, Side::Both, &mut CellNumbers).unwrap();
    let played: Vec<usize> = game_lines().iter().flat_map(|l| boards(l)).map(|(_, c)| c).collect();
    assert_eq!(d.decisions.len(), played.len());
    for (dec, &c) in d.decisions.iter().zip(&played) {
        assert_eq!(dec.values[dec.chosen], c as f64);
    }
}

#[test]
fn a_side_takes_only_its_moves() {
    let games = parse_games(&TicTacToe::default(), GAMES, MoveTokens::Words).unwrap();
    let all: Vec<(Board, usize)> = game_lines().iter().flat_map(|l| boards(l)).collect();
    for (side, mover) in [(Side::First, 1u8), (Side::Second, 2)] {
        let d = decisions(&games, side, &mut CellNumbers).unwrap();
        let want: Vec<usize> = all.iter().filter(|(b, _)| to_move(b) == mover).map(|&(_, c)| c).collect();
        let got: Vec<usize> = d.decisions.iter().map(|dec| dec.values[dec.chosen] as usize).collect();
        assert_eq!(got, want, "{side}");
        // The positions valued are the side's: as many values as empty cells.
        let sizes: Vec<usize> = d.decisions.iter().map(|dec| dec.values.len()).collect();
        let empty: Vec<usize> = all
            .iter()
            .filter(|(b, _)| to_move(b) == mover)
            .map(|(b, _)| b.iter().filter(|&&c| c == 0).count())
            .collect();
        assert_eq!(sizes, empty, "{side}");
    }
    let both = decisions(&games, Side::Both, &mut CellNumbers).unwrap().decisions.len();
    let first = decisions(&games, Side::First, &mut CellNumbers).unwrap().decisions.len();
    let second = decisions(&games, Side::Second, &mut CellNumbers).unwrap().decisions.len();
    assert_eq!((first + second, both), (both, all.len()));
    assert_eq!("first".parse::<Side>().unwrap(), Side::First);
    assert!(matches!("black".parse::<Side>(), Err(DecisionsError::UnknownSide(s)) if s == "black"));
}

#[test]
fn bad_moves_name_their_line() {
    let start = TicTacToe::default();
    let text = "# header\nb2 a1\n\nb2 a1 zz c3\n";
    match parse_games(&start, text, MoveTokens::Words) {
        Err(e @ DecisionsError::BadMove { .. }) => {
            assert_eq!(e.location(), Some((4, 3)));
            assert!(e.to_string().starts_with("line 4: move 3 (\"zz\"): "), "{e}");
        }
        other => panic!("{other:?}"),
    }
    match parse_games(&start, "a1\n a2 b2 a2\n", MoveTokens::Words) {
        Err(e @ DecisionsError::IllegalMove { .. }) => {
            assert_eq!(e.location(), Some((2, 3)));
            let DecisionsError::IllegalMove { source, .. } = &e else { unreachable!() };
            assert!(matches!(source, GameError::IllegalMove { reason, .. } if reason == "cell occupied"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // Won by the first player at move 5: a sixth move is after the end.
    match parse_games(&start, "a1 a2 b2 b1 c3 c1\n", MoveTokens::Words) {
        Err(e @ DecisionsError::GameOver { .. }) => assert_eq!(e.location(), Some((1, 6))),
        other => panic!("{other:?}"),
    }
    // Records built in code are checked too, naming their line.
    let bad = GameRecord::new(start, vec![4, 4]).with_line(7);
    match decisions(&[bad], Side::Second, &mut CellNumbers) {
        Err(e @ DecisionsError::IllegalMove { .. }) => assert_eq!(e.location(), Some((7, 2))),
        other => panic!("{other:?}"),
    }
    // A valuer's error is named too.
    struct Failing;
    impl MoveValues<TicTacToe> for Failing {
        type Error = String;
        fn move_values(&mut self, _: &TicTacToe) -> Result<Valued<u8>, String> {
            Err("no values today".into())
        }
    }
    let games = parse_games(&start, "\nb2 a1", MoveTokens::Words).unwrap();
    let e = decisions(&games, Side::Second, &mut Failing).unwrap_err();
    assert_eq!(e.to_string(), "line 2: move 2 (a1): no values today");
    // A depth out of range is refused when the valuer is built.
    assert!(matches!(DepthValuer::new(TicTacToeEval::default(), 0, 1), Err(DecisionsError::Param(_))));
}

#[test]
fn connect4_digit_strings_and_unvalued_positions() {
    let start = Connect4::standard();
    let games = parse_games(&start, "4453\n4 4 5\n", MoveTokens::Chars).unwrap();
    assert_eq!(games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(), [4, 3]);
    let e = parse_games(&start, "4444444\n", MoveTokens::Chars).unwrap_err();
    assert_eq!(e.location(), Some((1, 7)), "{e}");

    /// Values only boards with at least two discs.
    struct Late;
    impl MoveValues<Connect4> for Late {
        type Error = String;
        fn move_values(&mut self, g: &Connect4) -> Result<Valued<u8>, String> {
            if g.moves_played() < 2 {
                return Ok(None);
            }
            let mut moves = Vec::new();
            g.generate(&mut moves);
            Ok(Some(moves.into_iter().map(|m| (m, 0.0)).collect()))
        }
    }
    let d = decisions(&games, Side::Both, &mut Late).unwrap();
    assert_eq!((d.decisions.len(), d.unvalued, d.finished, d.skipped()), (3, 4, 0, 4));
}

/// Plays `games` games of `player` (first) against `opponent` (second;
/// `None`: the player against itself), recording the moves and, at each of
/// the player's moves, the root scores it saw.
#[allow(clippy::type_complexity)]
fn play<G: Game>(
    start: &G,
    player: &mut dyn Agent<G>,
    mut opponent: Option<&mut dyn Agent<G>>,
    games: usize,
    seed: u64,
) -> (Vec<GameRecord<G>>, Vec<Vec<(G::Move, f64)>>) {
    let mut r = rng::seeded(seed);
    let mut records = Vec::new();
    let mut seen = Vec::new();
    for _ in 0..games {
        player.reset();
        if let Some(o) = opponent.as_deref_mut() {
            o.reset();
        }
        let mut g = start.clone();
        let mut moves = Vec::new();
        let mut ply = 0;
        while g.status() == Status::Ongoing {
            let mv = match opponent.as_deref_mut() {
                Some(o) if ply % 2 == 1 => o.choose(&g, &mut r).unwrap(),
                _ => {
                    let c = player.choose_explained(&g, &mut r).unwrap();
                    seen.push(c.thought.expect("a policy agent says what it saw").scores);
                    c.mv
                }
            };
            g.play(mv);
            moves.push(mv);
            ply += 1;
        }
        records.push(GameRecord::new(start.clone(), moves));
    }
    (records, seen)
}

fn same_values<M: Copy + Eq + std::hash::Hash + std::fmt::Debug>(d: &[(M, f64)], seen: &[(M, f64)]) {
    let a: HashMap<M, u64> = d.iter().map(|&(m, v)| (m, v.to_bits())).collect();
    let b: HashMap<M, u64> = seen.iter().map(|&(m, v)| (m, v.to_bits())).collect();
    assert_eq!(a, b);
}

/// Records the values [`DepthValuer`] gives, position by position.
struct Recording(DepthValuer<Connect4, Connect4Eval>, Vec<Vec<(u8, f64)>>);

impl MoveValues<Connect4> for Recording {
    type Error = DecisionsError;
    fn new_game(&mut self) {
        self.0.new_game();
    }
    fn move_values(&mut self, g: &Connect4) -> Result<Valued<u8>, DecisionsError> {
        let v = self.0.values(g)?;
        self.1.push(v.clone());
        Ok(Some(v))
    }
}

#[test]
fn depth_values_are_what_the_dial_player_saw() {
    // Connect-4 at depth 4 with a 4 MiB table: the player against itself
    // (both sides), then as the first player against a random one.
    let roster = Roster::new().with(StandardAgents::new(Connect4Eval::default()).with_table_mib(4));
    let mut player = roster.build("boltzmann:depth=4,theta=0.05,cap=200").unwrap();
    let (records, seen) = play(&Connect4::standard(), &mut player, None, 6, 11);
    let mut rec = Recording(DepthValuer::new(Connect4Eval::default(), 4, 4).unwrap(), Vec::new());
    let d = decisions(&records, Side::Both, &mut rec).unwrap();
    assert_eq!(d.decisions.len(), seen.len());
    assert_eq!(rec.1.len(), seen.len());
    for (mine, theirs) in rec.1.iter().zip(&seen) {
        same_values(mine, theirs);
    }

    let mut random = roster.build("random").unwrap();
    let (records, seen) = play(&Connect4::standard(), &mut player, Some(&mut random), 6, 12);
    let mut rec = Recording(DepthValuer::new(Connect4Eval::default(), 4, 4).unwrap(), Vec::new());
    let d = decisions(&records, Side::First, &mut rec).unwrap();
    assert_eq!(d.decisions.len(), seen.len());
    for (mine, theirs) in rec.1.iter().zip(&seen) {
        same_values(mine, theirs);
    }
}

#[test]
fn a_boltzmann_players_theta_is_recovered() {
    let theta = 0.3;
    let roster = Roster::new().with(StandardAgents::new(TicTacToeEval::default()).with_table_mib(1));
    let mut player = roster.build(&format!("boltzmann:depth=2,theta={theta},cap=20")).unwrap();
    let (records, _) = play(&TicTacToe::default(), &mut player, None, 300, 2024);
    let d = decisions_at_depth(&records, Side::Both, TicTacToeEval::default(), 2, 1).unwrap();
    assert_eq!(d.skipped(), 0);
    let f = fit(&d.decisions, Model::Boltzmann, FitOptions::default().with_cap(20.0)).unwrap();
    assert!(f.contains(theta), "θ̂ = {}, interval {:?}", f.param, f.ci95);
    let (lo, hi) = (f.ci95.0.unwrap(), f.ci95.1.unwrap());
    assert!(hi / lo < 2.0, "a loose interval [{lo}, {hi}]");
    // The same games read as a text give the same decisions.
    let text: String = records
        .iter()
        .map(|r| {
            let mut g = r.start;
            let words: Vec<String> = r
                .moves
                .iter()
                .map(|&m| {
                    let s = g.move_string(m);
                    g.play(m);
                    s
                })
                .collect();
            words.join(" ") + "\n"
        })
        .collect();
    let parsed = parse_games(&TicTacToe::default(), &text, MoveTokens::Words).unwrap();
    let again = decisions_at_depth(&parsed, Side::Both, TicTacToeEval::default(), 2, 1).unwrap();
    assert_eq!(again, d);
}
