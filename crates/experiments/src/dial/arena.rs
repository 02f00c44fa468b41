//! The games `match` and `calibrate` play: for each, its start position,
//! its agent kinds (the standard ones, the dial, and the game's own), its
//! openings and how a pair of games is played.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use games_chess::{ChessEval, ChessGame};
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use search_core::backup::Minimax;
use search_core::rng::{self, derive_seed};
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, RngExt, Status};
use strength::agents::{Roster, StandardAgents};
use strength::dial::{Calibration, Dial};
use strength::pairing::{PairOutcome, play_pair};

/// A game as `match` and `calibrate` see it (object-safe, so that the
/// commands pick one at run time).
pub(crate) trait Arena: Send + Sync {
    /// The name on the command line: `tictactoe`, `connect4`, `gobang`, `chess`.
    fn name(&self) -> &'static str;
    /// The agent kinds, for help texts.
    fn kinds(&self) -> Vec<(String, String)>;
    /// Checks that `spec` builds an agent (before any game is played).
    fn check_spec(&self, spec: &str) -> Result<(), String>;
    /// `count` balanced openings drawn from `seed`, as text.
    fn random_openings(&self, count: usize, seed: u64) -> Result<Vec<String>, String>;
    /// Checks an opening's text.
    fn check_opening(&self, text: &str) -> Result<(), String>;
    /// Plays one pair per `(opening, seed)` between `a` and `b` (agents
    /// built once, reset before each game).
    fn play_pairs(&self, a: &str, b: &str, pairs: &[(String, u64)]) -> Result<Vec<PairOutcome>, String>;
    /// The ply limit after which a game is scored a draw.
    fn max_plies(&self) -> usize;
}

/// A game `G`, its agents, and its openings.
struct GameArena<G: Game> {
    name: &'static str,
    start: G,
    roster: RosterMaker<G>,
    /// Parses an opening: a FEN where the game has one, else moves.
    parse: fn(&G, &str) -> Result<G, String>,
    /// Random plies of an opening, and the balance test of the result.
    opening_plies: usize,
    balanced: Box<dyn Fn(&G) -> bool + Send + Sync>,
    max_plies: usize,
}

/// Draws in a row that found only openings already in the list, after which
/// [`Arena::random_openings`] accepts a repeat.
const DISTINCT_TRIES: usize = 1000;

/// Plays a space-separated move line from `start`, in the game's notation.
fn parse_moves<G: Game>(start: &G, text: &str) -> Result<G, String> {
    let mut g = start.clone();
    let mut legal = Vec::new();
    for word in text.split_whitespace() {
        let mv = g.parse_move(word).map_err(|e| format!("opening {text:?}: {e}"))?;
        legal.clear();
        if g.generate(&mut legal) != Status::Ongoing || !legal.contains(&mv) {
            return Err(format!("opening {text:?}: {word} is not legal there"));
        }
        g.play(mv);
    }
    Ok(g)
}

impl<G> Arena for GameArena<G>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn kinds(&self) -> Vec<(String, String)> {
        (self.roster)().kinds()
    }

    fn check_spec(&self, spec: &str) -> Result<(), String> {
        (self.roster)().build(spec).map(drop).map_err(|e| e.to_string())
    }

    fn random_openings(&self, count: usize, seed: u64) -> Result<Vec<String>, String> {
        let mut out = Vec::with_capacity(count);
        let mut rng = rng::seeded(seed);
        let mut moves = Vec::new();
        let mut tries = 0usize;
        let mut repeats = 0usize;
        while out.len() < count {
            tries += 1;
            if tries > count * 1000 + 1000 {
                return Err(format!("{}: found only {} balanced openings", self.name, out.len()));
            }
            let mut g = self.start.clone();
            let mut line = Vec::new();
            for _ in 0..self.opening_plies {
                moves.clear();
                if g.generate(&mut moves) != Status::Ongoing {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                line.push(g.move_string(mv));
                g.play(mv);
            }
            moves.clear();
            if line.len() < self.opening_plies || g.generate(&mut moves) != Status::Ongoing || !(self.balanced)(&g) {
                continue;
            }
            // Distinct openings while they last; a game with few (tic-tac-
            // toe has nine) repeats them once a thousand draws in a row were
            // repeats. The rule does not depend on `count`, so a longer list
            // starts with the shorter one: a match or calibration that asks
            // for more games keeps the openings of the games already played.
            let text = line.join(" ");
            if !out.contains(&text) || repeats >= DISTINCT_TRIES {
                out.push(text);
                repeats = 0;
            } else {
                repeats += 1;
            }
        }
        Ok(out)
    }

    fn check_opening(&self, text: &str) -> Result<(), String> {
        let g = (self.parse)(&self.start, text)?;
        let mut moves = Vec::new();
        match g.generate(&mut moves) {
            Status::Ongoing => Ok(()),
            Status::Over(_) => Err(format!("opening {text:?}: the game is already over")),
        }
    }

    fn play_pairs(&self, a: &str, b: &str, pairs: &[(String, u64)]) -> Result<Vec<PairOutcome>, String> {
        let roster = (self.roster)();
        let mut agent_a = roster.build(a).map_err(|e| e.to_string())?;
        let mut agent_b = roster.build(b).map_err(|e| e.to_string())?;
        pairs
            .iter()
            .map(|(opening, seed)| {
                let start = (self.parse)(&self.start, opening)?;
                play_pair(&start, &mut agent_a, &mut agent_b, *seed, Some(self.max_plies))
                    .map_err(|e| format!("{a} vs {b}, opening {opening:?}: {e}"))
            })
            .collect()
    }

    fn max_plies(&self) -> usize {
        self.max_plies
    }
}

/// Where the committed calibration of `game` lives: `calibration/<game>.json`
/// at the workspace root, except chess's, which the chess engine embeds and
/// so lives inside its crate (`crates/games-chess/calibration/chess.json`).
pub(crate) fn calibration_path(game: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match game {
        "chess" => root.join("crates/games-chess/calibration/chess.json"),
        _ => root.join("calibration").join(format!("{game}.json")),
    }
}

/// The committed calibration of `game`, if there is one.
pub fn load_calibration(game: &str) -> Result<Option<Calibration>, String> {
    let path = calibration_path(game);
    match std::fs::read_to_string(&path) {
        Ok(text) => Calibration::from_json(&text).map(Some).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The standard kinds with `eval`, plus `elo:X` when `game` is calibrated.
fn standard<G, E>(game: &str, eval: E, table_mib: usize) -> Result<StandardAgents<E>, String>
where
    E: Evaluator<G>,
    G: Game,
{
    let agents = StandardAgents::new(eval).with_table_mib(table_mib);
    Ok(match load_calibration(game)? {
        Some(c) => agents.with_dial(Dial::new(c).map_err(|e| format!("calibration/{game}.json: {e}"))?),
        None => agents,
    })
}

/// Whether a depth-`depth` alpha-beta search from `g` finds the side to
/// move within `margin` of level.
fn level_within<G: Game, E: Evaluator<G>>(g: &G, eval: E, depth: u32, margin: f64) -> bool {
    let opts = Options::recommended::<G, Minimax, E>(&eval).with_table_mib(if G::HASHED { 1 } else { 0 });
    let Ok(mut search) = Search::new(Minimax, eval, opts) else { return false };
    search.run(g, &Limits::depth(depth)).ok().and_then(|r| r.value).is_some_and(|v| v.abs() <= margin)
}

/// Makes a game's roster of agent kinds: the standard kinds with the game's
/// evaluator, `elo:X` when the game is calibrated, and the game's own kinds
/// (chess: `uci:`). One per game, shared by `match`, `calibrate` and the
/// web app (`crates/play`); the calibration is read once, when the maker
/// is built.
pub type RosterMaker<G> = Arc<dyn Fn() -> Roster<G> + Send + Sync>;

fn roster_maker<G, E, F>(name: &str, eval: E, table_mib: usize, extra: F) -> Result<RosterMaker<G>, String>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
    F: Fn(Roster<G>) -> Roster<G> + Send + Sync + 'static,
{
    let agents = standard::<G, E>(name, eval, table_mib)?;
    Ok(Arc::new(move || extra(Roster::new().with(agents.clone()))))
}

/// The roster of tic-tac-toe (1 MiB tables).
pub fn tictactoe_roster() -> Result<RosterMaker<TicTacToe>, String> {
    roster_maker("tictactoe", TicTacToeEval::default(), 1, |r| r)
}

/// The roster of connect-4 (4 MiB tables), with the perfect player
/// (`solver`; its first table is for 7 × 6, other boards get their own).
pub fn connect4_roster() -> Result<RosterMaker<Connect4>, String> {
    roster_maker("connect4", Connect4Eval::default(), 4, |r: Roster<Connect4>| {
        r.with(super::perfect::PerfectAgents { width: 7, height: 6 })
    })
}

/// The roster of gobang (8 MiB tables).
pub fn gobang_roster() -> Result<RosterMaker<Gobang>, String> {
    roster_maker("gobang", GobangEval::default(), 8, |r| r)
}

/// The roster of chess (16 MiB tables), with external engines (`uci:PATH`).
pub fn chess_roster() -> Result<RosterMaker<ChessGame>, String> {
    roster_maker("chess", ChessEval, 16, |r: Roster<ChessGame>| {
        r.with(super::uci::UciAgents).with(games_chess::human::HumanAgents)
    })
}

#[allow(clippy::too_many_arguments)]
fn arena<G, E>(
    name: &'static str,
    start: G,
    parse: fn(&G, &str) -> Result<G, String>,
    roster: Result<RosterMaker<G>, String>,
    eval: E,
    opening_plies: usize,
    balance: Option<(u32, f64)>,
    max_plies: usize,
) -> Result<Box<dyn Arena>, String>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let roster = roster?;
    let balanced: Box<dyn Fn(&G) -> bool + Send + Sync> = match balance {
        Some((depth, margin)) => Box::new(move |g: &G| level_within(g, eval.clone(), depth, margin)),
        None => Box::new(|_: &G| true),
    };
    Ok(Box::new(GameArena { name, start, roster, parse, opening_plies, balanced, max_plies }))
}

/// The names of the games.
pub(crate) const GAMES: [&str; 4] = ["tictactoe", "connect4", "gobang", "chess"];

/// The arena of `game` (one of [`GAMES`]).
pub(crate) fn arena_of(game: &str) -> Result<Box<dyn Arena>, String> {
    match game {
        // One random ply: every first move of tic-tac-toe is a draw with
        // perfect play.
        "tictactoe" => arena(
            "tictactoe",
            TicTacToe::default(),
            parse_moves,
            tictactoe_roster(),
            TicTacToeEval::default(),
            1,
            None,
            9,
        ),
        // Four random plies, kept if a depth-6 search finds them within a
        // third of a three-in-a-row of level.
        "connect4" => arena(
            "connect4",
            Connect4::standard(),
            parse_moves,
            connect4_roster(),
            Connect4Eval::default(),
            4,
            Some((6, 60.0)),
            42,
        ),
        // Two stones each near the centre, kept if level at depth 2 within
        // an open three's weight.
        "gobang" => arena(
            "gobang",
            Gobang::default(),
            parse_moves,
            gobang_roster(),
            GobangEval::default(),
            4,
            Some((2, 1000.0)),
            225,
        ),
        // Six random plies (UCI moves; a FEN line is accepted too), kept if
        // a depth-4 search finds them within 0.6 pawns of level.
        "chess" => {
            arena("chess", ChessGame::startpos(), parse_chess, chess_roster(), ChessEval, 6, Some((4, 60.0)), 400)
        }
        _ => Err(format!("unknown game {game:?}: one of {}", GAMES.join(", "))),
    }
}

/// A chess opening: a FEN (it has a `/`), or UCI moves from the start.
fn parse_chess(start: &ChessGame, text: &str) -> Result<ChessGame, String> {
    if text.contains('/') {
        ChessGame::from_fen(text.trim()).map_err(|e| format!("opening {text:?}: {e}"))
    } else {
        parse_moves(start, text)
    }
}

/// Derives the seed of pair `index` of a cell.
pub(crate) fn pair_seed(cell_seed: u64, index: u64) -> u64 {
    derive_seed(cell_seed, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_longer_opening_list_starts_with_the_shorter_one() {
        for game in ["tictactoe", "connect4"] {
            let arena = arena_of(game).unwrap();
            let short = arena.random_openings(30, 7).unwrap();
            let long = arena.random_openings(60, 7).unwrap();
            assert_eq!(&long[..30], &short[..], "{game}");
            for o in &long {
                arena.check_opening(o).unwrap();
            }
        }
        // Tic-tac-toe has nine one-ply openings: all used before a repeat.
        let nine = arena_of("tictactoe").unwrap().random_openings(9, 3).unwrap();
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
        let arena = arena_of("connect4").unwrap();
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
}
