//! Property tests (proptest) of the small games' parsers and rules:
//! tic-tac-toe, connect-4 (7 × 6, 4 × 4 and random sizes) and gobang (15 × 15,
//! and random variants).
//!
//! - Arbitrary strings, token soups and mutated game records given to
//!   `parse_move`, `play_str`, the from-moves constructors and Pons-style
//!   solver lines: no panic, no hang; a typed error (a parse error's position
//!   lies within the input, at a character boundary), or a position whose
//!   move list round-trips (written out and read back, it is the same
//!   position).
//! - Random legal games (seeded): after every move the incremental hash
//!   equals that of the position rebuilt from scratch (by replaying the
//!   moves, by reading the written record, and from the stones where the
//!   game can recompute it); every legal move writes and parses back to
//!   itself; copy-make leaves the position before the move unchanged; refused
//!   moves change nothing.
//! - The connect-4 solver on small boards agrees with a one-move lookahead of
//!   itself (its scores are consistent) and with its own bounds.
//!
//! Each property runs 256 cases, or `PROPTEST_CASES` if it is set:
//!
//! ```text
//! PROPTEST_CASES=20000 cargo test -p games-small --test fuzz_games
//! ```

use std::collections::HashSet;
use std::fmt::Debug;

use games_small::connect4::Connect4;
use games_small::gobang::{FiveRule, Gobang, GobangOptions, Opening};
use games_small::solver::{Solver, SolverView};
use games_small::tictactoe::TicTacToe;
use proptest::prelude::*;
use proptest::sample::Index;
use rand::Rng as _;
use search_core::{Game, GameError, Player, Status, Turn, rng};

/// Proptest's configuration: `PROPTEST_CASES` from the environment (read by
/// `ProptestConfig::default()`), else 256 cases; no regression files (a
/// failure prints its minimal input).
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 256;
    }
    config.failure_persistence = None;
    config
}

// ---------------------------------------------------------------------------
// The games under test, behind one interface.

/// The answer of [`Subject::move_list`].
#[derive(Debug)]
enum Found {
    /// A legal game from the empty board reaching the position.
    Moves(Vec<u8>),
    /// The search for one ran out of its budget (placement games only).
    GaveUp,
    /// No legal game reaches the position.
    NoGame,
}

/// What the tests need of a game beyond [`Game`].
trait Subject: Game<Move = u8> + Copy + PartialEq + Debug {
    /// The empty board of this position's variant.
    fn start(&self) -> Self;
    /// The position after the record `text` on the empty board of this
    /// variant (the game's own from-moves constructor).
    fn read_record(&self, text: &str) -> Result<Self, GameError>;
    /// The hash recomputed from the board, where the game offers it.
    fn scratch_hash(&self) -> Option<u64>;
    /// Every move value `try_play` may be given, legal or not.
    fn all_moves(&self) -> Vec<u8> {
        (0..=u8::MAX).collect()
    }
    /// A legal game from the empty board that reaches this position.
    fn move_list(&self) -> Found;
    /// Separators a record may put between two moves.
    fn separators(&self) -> &'static [&'static str];
    /// The side to move.
    fn mover(&self) -> Player {
        match self.turn() {
            Turn::Player(p) => p,
            Turn::Chance => unreachable!("no chance in these games"),
        }
    }
}

impl Subject for TicTacToe {
    fn start(&self) -> Self {
        TicTacToe::new()
    }
    fn read_record(&self, text: &str) -> Result<Self, GameError> {
        TicTacToe::from_moves(text)
    }
    fn scratch_hash(&self) -> Option<u64> {
        Some(self.hash_from_scratch())
    }
    fn move_list(&self) -> Found {
        let stones = (0..9u8).filter_map(|c| self.at(c).map(|p| (c, p))).collect::<Vec<_>>();
        placement_order(self, &stones)
    }
    fn separators(&self) -> &'static [&'static str] {
        &["", " ", ",", ", ", "\t", "\n"]
    }
}

impl Subject for Connect4 {
    fn start(&self) -> Self {
        Connect4::new(self.width(), self.height()).expect("a valid size")
    }
    fn read_record(&self, text: &str) -> Result<Self, GameError> {
        Connect4::from_moves(self.width(), self.height(), text)
    }
    fn scratch_hash(&self) -> Option<u64> {
        // The hash is a pure function of the perfect key.
        Some(search_core::rng::splitmix64(self.key()))
    }
    fn move_list(&self) -> Found {
        let Some(line) = self.moves_string() else {
            return Found::NoGame;
        };
        match line.chars().map(|c| self.parse_move(c.encode_utf8(&mut [0; 4])).ok()).collect() {
            Some(moves) => Found::Moves(moves),
            None => Found::NoGame,
        }
    }
    fn separators(&self) -> &'static [&'static str] {
        &["", "", " ", "\t", "\u{3000}"]
    }
}

impl Subject for Gobang {
    fn start(&self) -> Self {
        Gobang::with_options(self.options()).expect("valid options")
    }
    fn read_record(&self, text: &str) -> Result<Self, GameError> {
        Gobang::from_moves(self.options(), text)
    }
    fn scratch_hash(&self) -> Option<u64> {
        Some(self.hash_from_scratch())
    }
    fn move_list(&self) -> Found {
        let n = self.size();
        let stones = (0..n)
            .flat_map(|r| (0..n).map(move |c| (c, r)))
            .filter_map(|(c, r)| {
                let p = self.point(c, r)?;
                self.at(p).map(|who| (p, who))
            })
            .collect::<Vec<_>>();
        placement_order(self, &stones)
    }
    fn separators(&self) -> &'static [&'static str] {
        &["", " ", ",", " , ", "\n"]
    }
}

/// An order in which the `stones` (each with its owner) can be played from
/// the empty board to reach `target`, without the game ending before the
/// last stone: a depth-first search with the dead positions remembered and
/// a node budget.
fn placement_order<G: Subject>(target: &G, stones: &[(u8, Player)]) -> Found {
    let mut sides: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    for &(p, who) in stones {
        sides[who.index()].push(p);
    }
    let (x, o) = (sides[0].len(), sides[1].len());
    if x != o && x != o + 1 {
        return Found::NoGame;
    }
    let mut out = Vec::new();
    let mut dead = HashSet::new();
    let mut budget = 200_000u32;
    if place(target.start(), &mut sides, &mut out, &mut dead, &mut budget) {
        Found::Moves(out)
    } else if budget == 0 {
        Found::GaveUp
    } else {
        Found::NoGame
    }
}

fn place<G: Subject>(
    state: G,
    sides: &mut [Vec<u8>; 2],
    out: &mut Vec<u8>,
    dead: &mut HashSet<u64>,
    budget: &mut u32,
) -> bool {
    let left = sides[0].len() + sides[1].len();
    if left == 0 {
        return true;
    }
    if *budget == 0 || dead.contains(&state.hash_key().expect("hashed")) {
        return false;
    }
    *budget -= 1;
    let side = state.mover().index();
    for i in 0..sides[side].len() {
        let p = sides[side][i];
        let mut next = state;
        next.play(p);
        if left > 1 && matches!(next.status(), Status::Over(_)) {
            continue; // the game must not end before the last stone
        }
        sides[side].swap_remove(i);
        out.push(p);
        if place(next, sides, out, dead, budget) {
            return true;
        }
        out.pop();
        sides[side].push(p);
        let last = sides[side].len() - 1;
        sides[side].swap(i, last);
    }
    dead.insert(state.hash_key().expect("hashed"));
    false
}

/// The moves written in the game's notation, joined by separators drawn
/// from the game's list with `r`.
fn record<G: Subject>(start: &G, moves: &[u8], r: &mut rng::Rng) -> String {
    let seps = start.separators();
    let mut g = *start;
    let mut text = String::new();
    for (i, &mv) in moves.iter().enumerate() {
        if i > 0 {
            text.push_str(seps[r.random_range(0..seps.len())]);
        }
        text.push_str(&g.move_string(mv));
        g.play(mv);
    }
    text
}

// ---------------------------------------------------------------------------
// Checks.

/// `err` is a parse error of `what` at a char boundary of `input`.
fn check_parse_error(input: &str, what: &str, err: &GameError) -> Result<(), TestCaseError> {
    match err {
        GameError::Parse { what: w, position, .. } => {
            prop_assert_eq!(*w, what, "{}", err);
            prop_assert!(
                *position <= input.len(),
                "position {} past the input ({} bytes): {}",
                position,
                input.len(),
                err
            );
            prop_assert!(input.is_char_boundary(*position), "position {} inside a character: {}", position, err);
        }
        other => prop_assert!(false, "not a parse error: {other:?}"),
    }
    Ok(())
}

/// The position rebuilt from the empty board: by replaying `moves` with
/// `play`, with `play_str` of each written move, and by reading the written
/// record; each must equal `g`, hash included.
fn check_rebuilt<G: Subject>(g: &G, moves: &[u8], r: &mut rng::Rng) -> Result<(), TestCaseError> {
    let start = g.start();
    let mut replay = start;
    let mut typed = start;
    for &mv in moves {
        replay.play(mv);
        let text = typed.move_string(mv);
        prop_assert_eq!(typed.play_str(&text), Ok(mv));
    }
    prop_assert_eq!(replay, *g);
    prop_assert_eq!(typed, *g);
    prop_assert_eq!(replay.hash_key(), g.hash_key());
    if let Some(h) = g.scratch_hash() {
        prop_assert_eq!(g.hash_key(), Some(h), "incremental hash against the board's");
    }
    let text = record(&start, moves, r);
    match start.read_record(&text) {
        Ok(read) => {
            prop_assert_eq!(read, *g, "{:?}", text);
            prop_assert_eq!(read.hash_key(), g.hash_key());
        }
        Err(e) => prop_assert!(false, "the record {text:?} of a legal game fails: {e}"),
    }
    Ok(())
}

/// A position read from some text: its move list (found from the board)
/// written out and read back gives the same position and hash.
fn check_round_trip<G: Subject>(g: &G, r: &mut rng::Rng) -> Result<(), TestCaseError> {
    if let Some(h) = g.scratch_hash() {
        prop_assert_eq!(g.hash_key(), Some(h));
    }
    match g.move_list() {
        Found::Moves(moves) => check_rebuilt(g, &moves, r),
        // The placement search ran out of budget: nothing to conclude.
        Found::GaveUp => Ok(()),
        Found::NoGame => Err(TestCaseError::fail(format!("no legal game reaches {g:?}, which was read from a record"))),
    }
}

/// Parsing and playing `text` in `state`: typed errors, or a move that
/// writes and parses back to itself and plays as `play` does; refused moves
/// change nothing.
fn check_move_text<G: Subject>(state: &G, text: &str) -> Result<(), TestCaseError> {
    let mut legal = Vec::new();
    let ongoing = state.generate(&mut legal) == Status::Ongoing;
    match state.parse_move(text) {
        Err(e) => check_parse_error(text, "move", &e)?,
        Ok(mv) => {
            let written = state.move_string(mv);
            prop_assert_eq!(state.parse_move(&written), Ok(mv), "{:?} → {} → {:?}", text, mv, written);
        }
    }
    let mut played = *state;
    match played.play_str(text) {
        Ok(mv) => {
            prop_assert!(ongoing);
            let mut want = *state;
            want.play(mv);
            prop_assert_eq!(played, want);
            prop_assert_eq!(played.hash_key(), want.hash_key());
        }
        Err(GameError::Parse { .. } | GameError::IllegalMove { .. } | GameError::GameOver) => {
            prop_assert_eq!(played, *state, "a refused move changed the position");
        }
        Err(other) => prop_assert!(false, "unexpected error {other:?}"),
    }
    Ok(())
}

/// A record given to the game's from-moves constructor: a typed error, or a
/// position that round-trips.
fn check_record_text<G: Subject>(start: &G, text: &str, r: &mut rng::Rng) -> Result<(), TestCaseError> {
    match start.read_record(text) {
        Ok(g) => check_round_trip(&g, r)?,
        Err(e @ GameError::Parse { .. }) => check_parse_error(text, "position", &e)?,
        Err(GameError::IllegalMove { .. } | GameError::GameOver) => {}
        Err(other) => prop_assert!(false, "unexpected error {other:?} for {text:?}"),
    }
    Ok(())
}

/// A random legal game from `start` (seeded), at most `max_moves` long,
/// checked after every move. With `anywhere`, some moves are drawn among
/// every point `try_play` accepts, not only the generated ones (gobang's
/// generator offers the points near the stones only).
fn random_game<G: Subject>(start: G, seed: u64, max_moves: usize, anywhere: bool) -> Result<Vec<u8>, TestCaseError> {
    let mut r = rng::seeded(seed);
    let mut g = start;
    let mut played = Vec::new();
    let mut moves = Vec::new();
    let all = start.all_moves();
    loop {
        check_rebuilt(&g, &played, &mut r)?;
        moves.clear();
        if let Status::Over(_) = g.generate(&mut moves) {
            prop_assert!(moves.is_empty());
            for &mv in &all {
                let mut t = g;
                let e = t.try_play(mv);
                prop_assert!(matches!(e, Err(GameError::GameOver | GameError::IllegalMove { .. })), "{:?}", e);
                prop_assert_eq!(t, g);
            }
            break;
        }
        prop_assert!(!moves.is_empty());
        let distinct: HashSet<u8> = moves.iter().copied().collect();
        prop_assert_eq!(distinct.len(), moves.len(), "duplicate moves {:?}", moves);
        for &mv in &moves {
            let text = g.move_string(mv);
            prop_assert_eq!(g.parse_move(&text), Ok(mv), "{:?}", text);
            prop_assert_eq!(g.parse_move(&text.to_uppercase()), Ok(mv), "{:?}", text);
            // Copy-make: the copy moves, the original stays.
            let before = g;
            let mut child = g;
            child.play(mv);
            prop_assert_eq!(g, before);
            prop_assert_eq!(g.hash_key(), before.hash_key());
            prop_assert!(child != g);
            prop_assert!(child.hash_key() != g.hash_key(), "a move left the hash unchanged");
            let mut tried = g;
            prop_assert_eq!(tried.try_play(mv), Ok(()));
            prop_assert_eq!(tried, child);
        }
        // Every refused move leaves the position alone, with a typed error.
        let mut accepted = Vec::new();
        for &mv in &all {
            let mut t = g;
            match t.try_play(mv) {
                Ok(()) => accepted.push(mv),
                Err(GameError::IllegalMove { .. }) => prop_assert_eq!(t, g),
                Err(e) => prop_assert!(false, "try_play({}) in an ongoing game: {:?}", mv, e),
            }
        }
        prop_assert!(moves.iter().all(|mv| accepted.contains(mv)), "a generated move is refused");
        let mv = if anywhere && r.random_bool(0.3) {
            accepted[r.random_range(0..accepted.len())]
        } else {
            moves[r.random_range(0..moves.len())]
        };
        g.play(mv);
        played.push(mv);
        if played.len() >= max_moves {
            check_rebuilt(&g, &played, &mut r)?;
            break;
        }
    }
    Ok(played)
}

/// A position after a seeded random number of random legal moves, and the
/// moves.
fn random_position<G: Subject>(start: G, seed: u64) -> (G, Vec<u8>) {
    let mut r = rng::seeded(seed);
    let mut g = start;
    let stop = r.random_range(0..40);
    let mut moves = Vec::new();
    let mut played = Vec::new();
    for _ in 0..stop {
        moves.clear();
        if let Status::Over(_) = g.generate(&mut moves) {
            break;
        }
        let mv = moves[r.random_range(0..moves.len())];
        g.play(mv);
        played.push(mv);
    }
    (g, played)
}

// ---------------------------------------------------------------------------
// Inputs.

#[derive(Debug, Clone)]
enum Edit {
    Delete(Index, usize),
    Insert(Index, &'static str),
    Duplicate(Index, Index),
    Truncate(Index),
}

fn edit(tokens: &'static [&'static str]) -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), 1usize..4).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<Index>(), prop::sample::select(tokens)).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Duplicate(a, b)),
        any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn boundary(s: &str, i: &Index) -> usize {
    let mut at = i.index(s.len() + 1);
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(s: &mut String, e: &Edit) {
    match e {
        Edit::Delete(i, n) => {
            let a = boundary(s, i);
            let mut b = (a + n).min(s.len());
            while !s.is_char_boundary(b) {
                b += 1;
            }
            s.replace_range(a..b, "");
        }
        Edit::Insert(i, t) => {
            let a = boundary(s, i);
            s.insert_str(a, t);
        }
        Edit::Duplicate(i, j) => {
            let (a, b) = (boundary(s, i), boundary(s, j));
            let piece = s[a.min(b)..a.max(b)].to_string();
            s.insert_str(a.max(b), &piece);
        }
        Edit::Truncate(i) => {
            let a = boundary(s, i);
            s.truncate(a);
        }
    }
}

const TTT_TOKENS: &[&str] = &[
    "a1", "b2", "c3", "a3", "c1", "b1", "A2", "C2", "b3", "d1", "a4", "a0", "a", "1", "2", " ", ",", ", ", "\t", "é",
    "∞", "\u{0}", "bb", "22", "-", "\u{3000}",
];

const C4_TOKENS: &[&str] = &[
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "a", "A", "g", "w", "x", "z", " ", "\t", ",", "é", "∞",
    "\u{3000}", "44", "4444", "-", "+", "\u{0}", "١",
];

const GOBANG_TOKENS: &[&str] = &[
    "h8", "a1", "o15", "p16", "a0", "a16", "h08", "h008", "H8", "i9", "g7", "j10", "k11", "z1", "8", "h", "15", " ",
    ",", "\t", "é", "é8", "∞", "\u{0}", "-", "h-1", "h+8", "\u{3000}", "h٨",
];

/// Text for a game: arbitrary, a soup of its tokens, or a random record of
/// its moves with edits (built in the test from `seed` and `edits`).
fn soup(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(tokens), 0..24).prop_map(|v| v.concat())
}

fn any_text(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        2 => any::<String>(),
        // One or two tokens: often a single move.
        2 => prop::collection::vec(prop::sample::select(tokens), 1..3).prop_map(|v| v.concat()),
        3 => soup(tokens),
    ]
}

/// A random legal record from `start`, edited.
fn mutated_record<G: Subject>(start: &G, seed: u64, edits: &[Edit]) -> String {
    let mut r = rng::seeded(seed);
    let (_, moves) = random_position(*start, seed);
    let mut text = record(start, &moves, &mut r);
    for e in edits {
        apply(&mut text, e);
    }
    text
}

/// All checks of one text against one game variant.
fn check_text<G: Subject>(start: G, text: &str, seed: u64) -> Result<(), TestCaseError> {
    let mut r = rng::seeded(seed);
    check_move_text(&start, text)?;
    check_move_text(&random_position(start, seed).0, text)?;
    check_record_text(&start, text, &mut r)
}

/// A random connect-4 size: `(height + 1) × width ≤ 64`.
fn any_c4_size() -> impl Strategy<Value = (usize, usize)> {
    (1usize..=32).prop_flat_map(|w| (Just(w), 1usize..=(64 / w - 1)))
}

fn c4_size() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![Just((7, 6)), Just((4, 4)), any_c4_size()]
}

fn gobang_options() -> impl Strategy<Value = GobangOptions> {
    prop_oneof![
        3 => Just(GobangOptions::default()),
        1 => (
            5usize..=15,
            prop_oneof![Just(FiveRule::Freestyle), Just(FiveRule::Exact)],
            1u8..=4,
            prop_oneof![Just(Opening::Centre), Just(Opening::Anywhere)],
        )
            .prop_map(|(size, rule, radius, opening)| GobangOptions { size, rule, radius, opening }),
    ]
}

// ---------------------------------------------------------------------------
// Pons' lines.

/// A line of a connect-4 position file as the solver tool reads it:
/// `MOVES [SCORE]`, the moves (column digits from the empty board) up to
/// the first whitespace, then optionally the expected score. An empty
/// move field (a line that starts with whitespace) is the empty board.
fn read_pons_line(line: &str, width: usize, height: usize) -> Result<(Connect4, Option<i32>), GameError> {
    let (moves, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let mut fields = rest.split_whitespace();
    let score = match fields.next() {
        None => None,
        Some(s) => Some(s.parse::<i32>().map_err(|_| {
            GameError::parse(
                "line",
                line,
                line.len() - rest.len() + rest.find(s).unwrap_or(0),
                "the score is not an integer",
            )
        })?),
    };
    if let Some(extra) = fields.next() {
        let at = line.len() - rest.len() + rest.rfind(extra).unwrap_or(0);
        return Err(GameError::parse("line", line, at, "unexpected text after the score"));
    }
    Ok((Connect4::from_moves(width, height, moves)?, score))
}

fn pons_line() -> impl Strategy<Value = (u64, String, Option<String>)> {
    (
        any::<u64>(),
        prop_oneof![Just(" "), Just("  "), Just("\t"), Just("\u{3000}")].prop_map(String::from),
        prop::option::of(prop_oneof![
            (-30i32..=30).prop_map(|s| s.to_string()),
            "[+-]?[0-9]{1,12}",
            any::<String>(),
            soup(C4_TOKENS),
        ]),
    )
}

proptest! {
    #![proptest_config(config())]

    // Random legal games.

    #[test]
    fn tictactoe_random_games(seed in any::<u64>()) {
        random_game(TicTacToe::new(), seed, usize::MAX, false)?;
    }

    #[test]
    fn connect4_standard_random_games(seed in any::<u64>()) {
        random_game(Connect4::standard(), seed, usize::MAX, false)?;
    }

    #[test]
    fn connect4_4x4_random_games(seed in any::<u64>()) {
        random_game(Connect4::new(4, 4).unwrap(), seed, usize::MAX, false)?;
    }

    #[test]
    fn connect4_any_size_random_games((w, h) in any_c4_size(), seed in any::<u64>()) {
        random_game(Connect4::new(w, h).unwrap(), seed, usize::MAX, false)?;
    }

    #[test]
    fn gobang_random_games(options in gobang_options(), seed in any::<u64>()) {
        random_game(Gobang::with_options(options).unwrap(), seed, 120, true)?;
    }

    // Text.

    #[test]
    fn tictactoe_text(text in any_text(TTT_TOKENS), seed in any::<u64>()) {
        check_text(TicTacToe::new(), &text, seed)?;
        let parsed: Result<TicTacToe, GameError> = text.parse();
        prop_assert_eq!(parsed, TicTacToe::from_moves(&text));
    }

    #[test]
    fn tictactoe_mutated_records(seed in any::<u64>(), edits in prop::collection::vec(edit(TTT_TOKENS), 0..4)) {
        let text = mutated_record(&TicTacToe::new(), seed, &edits);
        check_text(TicTacToe::new(), &text, seed)?;
    }

    #[test]
    fn connect4_text((w, h) in c4_size(), text in any_text(C4_TOKENS), seed in any::<u64>()) {
        check_text(Connect4::new(w, h).unwrap(), &text, seed)?;
    }

    #[test]
    fn connect4_mutated_records(
        (w, h) in c4_size(),
        seed in any::<u64>(),
        edits in prop::collection::vec(edit(C4_TOKENS), 0..4),
    ) {
        let start = Connect4::new(w, h).unwrap();
        let text = mutated_record(&start, seed, &edits);
        check_text(start, &text, seed)?;
    }

    #[test]
    fn gobang_text(options in gobang_options(), text in any_text(GOBANG_TOKENS), seed in any::<u64>()) {
        let start = Gobang::with_options(options).unwrap();
        check_text(start, &text, seed)?;
        if options == GobangOptions::default() {
            let parsed: Result<Gobang, GameError> = text.parse();
            prop_assert_eq!(parsed, start.read_record(&text));
        }
    }

    #[test]
    fn gobang_mutated_records(
        options in gobang_options(),
        seed in any::<u64>(),
        edits in prop::collection::vec(edit(GOBANG_TOKENS), 0..4),
    ) {
        let start = Gobang::with_options(options).unwrap();
        let text = mutated_record(&start, seed, &edits);
        check_text(start, &text, seed)?;
    }

    /// Solver lines: the record of a random position (possibly edited), a
    /// separator and an optional score. A line reads as a typed error or as
    /// the position with its score, whose record round-trips.
    #[test]
    fn connect4_pons_lines(
        (w, h) in c4_size(),
        (seed, sep, score) in pons_line(),
        edits in prop::collection::vec(edit(C4_TOKENS), 0..2),
        empty in prop::bool::weighted(0.2),
    ) {
        let start = Connect4::new(w, h).unwrap();
        let moves = if empty {
            String::new()
        } else {
            mutated_record(&start, seed, &edits).replace(char::is_whitespace, "")
        };
        let line = match &score {
            Some(s) => format!("{moves}{sep}{s}"),
            None => moves.clone(),
        };
        match read_pons_line(&line, w, h) {
            Ok((pos, read_score)) => {
                prop_assert_eq!(pos, Connect4::from_moves(w, h, &moves).unwrap());
                prop_assert_eq!(pos.moves_played() as usize, moves.chars().count());
                if moves.is_empty() {
                    prop_assert_eq!(pos, start, "an empty move field is the empty board");
                }
                if let Some(s) = &score {
                    prop_assert_eq!(read_score, s.trim().parse::<i32>().ok());
                }
                let mut r = rng::seeded(seed);
                check_round_trip(&pos, &mut r)?;
                let back = pos.moves_string().expect("a legal position has a record");
                let (again, _) = read_pons_line(&format!("{back} 0"), w, h).expect("its own record reads");
                prop_assert_eq!(again, pos);
            }
            Err(GameError::Parse { what: "line", position, .. }) => {
                prop_assert!(line.is_char_boundary(position) && position <= line.len());
            }
            Err(e @ GameError::Parse { .. }) => check_parse_error(&moves, "position", &e)?,
            Err(GameError::IllegalMove { .. } | GameError::GameOver) => {}
            Err(other) => prop_assert!(false, "unexpected error {other:?}"),
        }
    }

    /// The solver on small boards: its score is within its bounds and equals
    /// the best score over the moves (a finished child scored as the rules
    /// say), and the weak solve has its sign.
    #[test]
    fn solver_scores_are_consistent(
        (w, h) in prop_oneof![Just((4usize, 4usize)), Just((5, 4)), Just((4, 5)), Just((3, 3))],
        seed in any::<u64>(),
    ) {
        let (pos, _) = random_position(Connect4::new(w, h).unwrap(), seed);
        let mut solver = Solver::with_table_mib(w, h, 1).unwrap();
        if pos.winner().is_some() || pos.is_full() {
            prop_assert_eq!(solver.solve(&pos), Err(GameError::GameOver));
            return Ok(());
        }
        let score = solver.solve(&pos).unwrap().score;
        let (lo, hi) = SolverView::new(pos).score_bounds();
        prop_assert!(lo <= score && score <= hi, "{} outside [{}, {}]", score, lo, hi);
        prop_assert_eq!(solver.weak_solve(&pos).unwrap().score, score.signum());
        let cells = (w * h) as i32;
        let n = pos.moves_played() as i32;
        let mut best = i32::MIN;
        let mut moves = Vec::new();
        pos.generate(&mut moves);
        for &mv in &moves {
            let mut child = pos;
            child.play(mv);
            let value = if child.winner().is_some() {
                (cells + 1 - n) / 2
            } else if child.is_full() {
                0
            } else {
                -solver.solve(&child).unwrap().score
            };
            best = best.max(value);
        }
        prop_assert_eq!(score, best, "{:?}", pos.moves_string());
    }
}

// ---------------------------------------------------------------------------
// Fixed cases.

#[test]
fn pons_lines_with_an_empty_move_field_are_the_empty_board() {
    let empty = Connect4::standard();
    assert_eq!(read_pons_line("", 7, 6), Ok((empty, None)));
    assert_eq!(read_pons_line(" 1", 7, 6), Ok((empty, Some(1))));
    assert_eq!(read_pons_line("\t-2", 7, 6), Ok((empty, Some(-2))));
    assert_eq!(read_pons_line("4 -2", 7, 6), Ok((Connect4::from_moves(7, 6, "4").unwrap(), Some(-2))));
    assert_eq!(read_pons_line("4", 7, 6), Ok((Connect4::from_moves(7, 6, "4").unwrap(), None)));
    assert!(read_pons_line("4 x", 7, 6).is_err());
    assert!(read_pons_line("4 1 2", 7, 6).is_err());
    assert_eq!(Connect4::from_moves(4, 4, ""), Ok(Connect4::new(4, 4).unwrap()));
}

#[test]
fn every_legal_move_of_every_board_round_trips() {
    for w in 1..=32usize {
        for h in 1..=(64 / w - 1) {
            let g = Connect4::new(w, h).unwrap();
            for col in 0..w as u8 {
                let text = g.move_string(col);
                assert_eq!(g.parse_move(&text), Ok(col), "{w}×{h}: {text}");
            }
            assert!(g.parse_move(&Connect4::column_char(w as u8).map_or("?".into(), String::from)).is_err());
        }
    }
    for size in 5..=15 {
        let g = Gobang::new(size).unwrap();
        for r in 0..size {
            for c in 0..size {
                let p = g.point(c, r).unwrap();
                assert_eq!(g.parse_move(&g.move_string(p)), Ok(p));
            }
        }
    }
}

/// Inputs are quoted whole in parse errors: a megabyte-long record comes
/// back in the message. `GameError::shorten` exists for this (see the 0.2
/// migration notes), but these parsers do not use it yet.
#[test]
fn long_inputs_are_not_echoed_in_errors() {
    let long = "4".repeat(1 << 20) + "x";
    let errors = [
        Connect4::from_moves(7, 6, &("x".to_string() + &long)).unwrap_err(),
        Connect4::standard().parse_move(&long).unwrap_err(),
        TicTacToe::from_moves(&("zz".to_string() + &long)).unwrap_err(),
        TicTacToe::new().parse_move(&long).unwrap_err(),
        Gobang::from_moves(GobangOptions::default(), &("z".to_string() + &long)).unwrap_err(),
        Gobang::default().parse_move(&long).unwrap_err(),
    ];
    for e in errors {
        assert!(e.to_string().len() < 1000, "{} bytes", e.to_string().len());
    }
}
