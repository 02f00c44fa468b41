//! The setups of the built-in games: for each, its start position, its
//! agent kinds (the standard ones, the dial, and the game's own), its
//! openings and how a pair of games is played.

use std::sync::Arc;

use games_chess::{ChessEval, ChessGame};
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use search_core::{Evaluator, Game};
use strength::agents::{Roster, StandardAgents};
use strength::dial::Dial;

use crate::RegistryError;
use tournament::{RosterMaker, Setup};

/// The standard kinds with `eval`, plus `elo:X` on `game`'s committed
/// calibration.
fn standard<G, E>(game: &str, eval: E, table_mib: usize) -> Result<StandardAgents<E>, RegistryError>
where
    E: Evaluator<G>,
    G: Game,
{
    let calibration = crate::game(game)?.calibration()?;
    let dial = Dial::new(calibration).map_err(|source| RegistryError::Dial { game: game.to_string(), source })?;
    Ok(StandardAgents::new(eval).with_table_mib(table_mib).with_dial(dial))
}

fn roster_maker<G, E, F>(name: &str, eval: E, table_mib: usize, extra: F) -> Result<RosterMaker<G>, RegistryError>
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
pub fn tictactoe_roster() -> Result<RosterMaker<TicTacToe>, RegistryError> {
    roster_maker("tictactoe", TicTacToeEval::default(), 1, |r| r)
}

/// The search agents' table in connect-4, in MiB.
const CONNECT4_TABLE_MIB: usize = 4;

/// The roster of connect-4 (4 MiB tables), with the perfect player
/// (`solver`; its first table is for 7 × 6, other boards get their own).
/// Every roster it makes shares one memo of the perfect players' costly
/// moves.
pub fn connect4_roster() -> Result<RosterMaker<Connect4>, RegistryError> {
    let eval = Connect4Eval::default();
    let perfect = crate::perfect::PerfectAgents {
        width: 7,
        height: 6,
        searchers: StandardAgents::new(eval).with_table_mib(CONNECT4_TABLE_MIB),
        memo: games_small::solver::MoveMemo::default(),
    };
    roster_maker("connect4", eval, CONNECT4_TABLE_MIB, move |r: Roster<Connect4>| r.with(perfect.clone()))
}

/// The roster of gobang (8 MiB tables).
pub fn gobang_roster() -> Result<RosterMaker<Gobang>, RegistryError> {
    roster_maker("gobang", GobangEval::default(), 8, |r| r)
}

/// The roster of chess (16 MiB tables), with external engines (`uci:PATH`),
/// the human-like player (`human:X`) and the engine at full strength
/// (`kibitz:nodes=N`).
pub fn chess_roster() -> Result<RosterMaker<ChessGame>, RegistryError> {
    roster_maker("chess", ChessEval, 16, |r: Roster<ChessGame>| {
        r.with(crate::uci::UciAgents)
            .with(games_chess::human::HumanAgents::default())
            .with(games_chess::kibitz::KibitzAgents)
    })
}

/// The setup of a game for `match` and `calibrate`: its roster, random
/// openings of `opening_plies` plies, kept when level within `margin` at
/// `depth` (`balance`), and its ply limit.
fn arena<G, E>(
    setup: Setup<G>,
    roster: Result<RosterMaker<G>, RegistryError>,
    eval: E,
    opening_plies: usize,
    balance: Option<(u32, f64)>,
    max_plies: usize,
    pairs_per_cell: usize,
) -> Result<Setup<G>, RegistryError>
where
    G: Game + Send + Sync + 'static,
    G::Move: Send,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let mut setup = setup
        .with_roster(roster?)
        .with_opening_plies(opening_plies)
        .with_max_plies(max_plies)
        .with_pairs_per_cell(pairs_per_cell);
    if let Some((depth, margin)) = balance {
        setup = setup.with_balance(eval, depth, margin);
    }
    Ok(setup)
}

/// Tic-tac-toe's setup: one random ply (every first move is a draw with
/// perfect play), 50 pairs per cell of a match.
pub fn tictactoe_setup() -> Result<Setup<TicTacToe>, RegistryError> {
    let eval = TicTacToeEval::default();
    arena(Setup::standard("tictactoe", TicTacToe::default(), eval), tictactoe_roster(), eval, 1, None, 9, 50)
}

/// Connect-4's setup: four random plies, kept if a depth-6 search finds
/// them within a third of a three-in-a-row of level; 10 pairs per cell.
pub fn connect4_setup() -> Result<Setup<Connect4>, RegistryError> {
    let eval = Connect4Eval::default();
    arena(Setup::standard("connect4", Connect4::standard(), eval), connect4_roster(), eval, 4, Some((6, 60.0)), 42, 10)
}

/// Gobang's setup: two stones each near the centre, kept if level at
/// depth 2 within an open three's weight; 2 pairs per cell.
pub fn gobang_setup() -> Result<Setup<Gobang>, RegistryError> {
    let eval = GobangEval::default();
    arena(Setup::standard("gobang", Gobang::default(), eval), gobang_roster(), eval, 4, Some((2, 1000.0)), 225, 2)
}

/// Chess's setup: six random plies (UCI moves; a FEN line is accepted
/// too), kept if a depth-4 search finds them within 0.6 pawns of level;
/// 2 pairs per cell.
pub fn chess_setup() -> Result<Setup<ChessGame>, RegistryError> {
    arena(
        Setup::standard("chess", ChessGame::startpos(), ChessEval).with_position_parser(parse_fen),
        chess_roster(),
        ChessEval,
        6,
        Some((4, 60.0)),
        400,
        2,
    )
}

/// A chess opening given as a FEN (it has a `/`); UCI moves otherwise.
fn parse_fen(text: &str) -> Option<Result<ChessGame, String>> {
    text.contains('/').then(|| ChessGame::from_fen(text).map_err(|e| e.to_string()))
}
