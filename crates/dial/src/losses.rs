//! How the dial of the built-in games loses: each game's ground truth for
//! [`tournament::losses`], which plays the self-play games at levels spread
//! over a calibration's range, scores every move against the truth and
//! gives each setting's [`LossProfile`] (the distribution of its move
//! losses, its blunder rate). The weak settings should make mistakes whose
//! size grows smoothly as the dial goes down, not play perfectly and then
//! throw a piece; these figures show whether they do.
//!
//! | game | ground truth | unit | blunder |
//! | --- | --- | --- | --- |
//! | tictactoe | exact values ([`ExactTruth`]: minimax over the whole game tree) | outcome classes (win 1, draw 0, loss −1) | the exact outcome changes |
//! | connect4 | the solver's exact scores ([`Solver`]), moves in positions of at least 14 discs only (`CONNECT4_MIN_DISCS`) | solver score | the exact outcome changes |
//! | chess | Stockfish at 20,000 nodes (`JUDGE_NODES`; without Stockfish: our alpha-beta at the setting's depth + 3, `FALLBACK_EXTRA_DEPTH`) | centipawns | a loss of two pawns, or the judged outcome worsens |
//! | gobang | our alpha-beta at depth 4 (`GOBANG_JUDGE_DEPTH`, [`SearchTruth`]; a five found within it counts as won) | [`GobangEval`] units | a loss of an open four's weight, or the judged outcome worsens |
//!
//! A move's loss is the value of the best move minus the value of the move
//! played, from the mover's side. For chess, with the judge's score `e(p)`
//! of each position for its side to move, the loss of the move from `p` to
//! `q` is `e(p) + e(q)` (each position is evaluated once), counted as 0
//! when negative (the judge's own search noise). For chess the same
//! profile is also measured for Stockfish's own weakened play
//! (`UCI_LimitStrength`, `UCI_Elo`) at every level inside its `UCI_Elo`
//! range, as reference players.
//!
//! The games run on the cell store like the ladder's matches: one job per
//! level (`<game>-lossNN`, and `chess-sflossNN` for Stockfish), cells of a
//! few games each, one row per scored move; seeded and resumable.

use std::path::{Path, PathBuf};

use games_chess::external::{EngineLimit, UciEngineAgent};
use games_chess::{ChessEval, ChessGame};
use games_small::connect4::Column;
use games_small::solver::Solver;
use games_small::{Connect4, GobangEval};
use search_core::{Game, Player, Status};
use strength::dial::{Calibration, Dial, LossProfile};
use strength::spec::AgentSpec;
use taskkit::{RunConfig, Terminal};
use tournament::losses::{
    DEFAULT_LEVELS, ExactTruth, GroundTruth, JudgeError, JudgeInfo, LossConfig, LossLevel, MoveJudge, ReferenceLevels,
    ScoredMove, SearchJudge, SearchTruth, Verdict, dial_levels, loss_profiles,
};

/// Connect-4 moves are scored only in positions with at least this many
/// discs: the solver needs seconds to tens of seconds per child in the
/// first plies, and well under a second from here on.
pub(crate) const CONNECT4_MIN_DISCS: u32 = 14;

/// Stockfish's node budget for each position it judges (one thread, so
/// reproducible).
pub(crate) const JUDGE_NODES: u64 = 20_000;

/// Without Stockfish, chess is judged by our alpha-beta this many plies
/// deeper than the setting searches.
pub(crate) const FALLBACK_EXTRA_DEPTH: u32 = 3;

/// Chess evaluations are clamped to ±this many centipawns before losses are
/// taken (a mate counts as this much), as lichess does: beyond ten pawns a
/// position is won whatever the number says, and the judge's flips between
/// "mate in N" and "+9 pawns" in won positions would otherwise count as
/// huge losses.
const MATE_CP: i32 = 1_000;

/// Chess: a move losing at least this many centipawns is a blunder.
const CHESS_BLUNDER_CP: f64 = 200.0;

/// Chess: a position at least this good for a side is judged won for it
/// (and at least this bad, lost).
const CHESS_WON_CP: i32 = 300;

/// Gobang's judge: our alpha-beta ([`GobangEval`]) at this depth, two plies
/// deeper than the dial's deepest curve. A move from `p` to `q` is scored
/// by `p`'s value at this depth and `q`'s one ply shallower, so that the
/// best move's loss is 0 (both are the same minimax tree).
pub(crate) const GOBANG_JUDGE_DEPTH: u32 = 4;

/// Gobang values are clamped to ±this (a five's weight): a five found
/// within the judge's horizon counts as this much.
const GOBANG_WIN: f64 = 100_000.0;

/// Gobang: a move losing at least this much (an open four's weight: a
/// threat that wins by itself) is a blunder.
const GOBANG_BLUNDER: f64 = 10_000.0;

/// Chess games stop after this many plies from the opening (the moves
/// after are not scored): enough moves per game, and no 400-ply shuffles
/// between weak settings.
const CHESS_MAX_PLIES: usize = 100;

/// Gobang games stop after this many plies from the opening (as the fit's
/// validation does): weak settings can fill half the board.
const GOBANG_MAX_PLIES: usize = 120;

/// Stockfish's `UCI_Elo` range (Stockfish 15 and later).
const STOCKFISH_ELO: (f64, f64) = (1350.0, 2850.0);

/// Tic-tac-toe's ground truth, as the profiles' note says it.
const TICTACTOE_NOTE: &str = "Ground truth: exact game values (minimax over the whole game tree, as \
                              alphabeta:depth=9); loss in outcome classes (win 1, draw 0, loss −1: 1 is a win \
                              thrown to a draw or a draw to a loss, 2 a win to a loss); a blunder changes the \
                              exact outcome; every move after the opening scored.";

/// How a game's profiles are measured.
#[derive(Debug, Clone, Copy)]
struct Setup {
    /// Games per level at the default scale, and with `--quick`.
    games: usize,
    quick_games: usize,
    /// Games per cell.
    per_cell: usize,
    /// Plies after the opening before a game stops.
    max_plies: usize,
}

/// The loss profiles of `calibration`'s dial for `game` (see the [module
/// documentation](self)): self-play at [`DEFAULT_LEVELS`] of the dial's
/// range (and, for chess with Stockfish installed, Stockfish's own
/// `UCI_Elo` at the levels inside its range), on the cell store of `run`
/// (which must not be locked: the library locks it). `quick`: a couple of
/// games per level. No profiles for a game without a judge.
pub(crate) fn profiles(
    game: &str,
    calibration: &Calibration,
    run: &RunConfig,
    quick: bool,
) -> Result<Vec<LossProfile>, Box<dyn std::error::Error>> {
    let measure = Measure { calibration, run, quick };
    match game {
        "tictactoe" => measure.profiles(
            registry::tictactoe_setup()?,
            Setup { games: 100, quick_games: 4, per_cell: 50, max_plies: 9 },
            &tictactoe_truth(),
            None,
        ),
        "connect4" => measure.profiles(
            registry::connect4_setup()?,
            Setup { games: 40, quick_games: 2, per_cell: 5, max_plies: 42 },
            &Connect4Truth,
            None,
        ),
        "gobang" => measure.profiles(
            registry::gobang_setup()?,
            Setup { games: 20, quick_games: 2, per_cell: 2, max_plies: GOBANG_MAX_PLIES },
            &gobang_truth()?,
            None,
        ),
        "chess" => {
            let stockfish = registry::ladders::stockfish();
            let references = match &stockfish {
                Some(path) => {
                    let dial = Dial::new(calibration.clone())?;
                    Some(ReferenceLevels {
                        levels: stockfish_levels(&dial_levels(&dial, &DEFAULT_LEVELS)?, path),
                        prefix: "sfloss".into(),
                        note: "Stockfish weakened by UCI_LimitStrength picks its moves with a clock-seeded \
                               generator: these games are not reproducible."
                            .into(),
                    })
                }
                None => None,
            };
            measure.profiles(
                registry::chess_setup()?,
                Setup { games: 10, quick_games: 2, per_cell: 1, max_plies: CHESS_MAX_PLIES },
                &ChessTruth { stockfish },
                references,
            )
        }
        _ => Ok(Vec::new()),
    }
}

/// What [`profiles`] measures for every game alike.
struct Measure<'a> {
    calibration: &'a Calibration,
    run: &'a RunConfig,
    quick: bool,
}

impl Measure<'_> {
    fn profiles<G>(
        &self,
        setup: tournament::Setup<G>,
        s: Setup,
        truth: &dyn GroundTruth<G>,
        references: Option<ReferenceLevels>,
    ) -> Result<Vec<LossProfile>, Box<dyn std::error::Error>>
    where
        G: Game + Send + Sync + 'static,
        G::Move: Send,
    {
        let key = self.run.key;
        let games = if self.quick { s.quick_games } else { s.games };
        let config = LossConfig {
            scale: key.scale,
            shard: self.run.shard,
            games_per_cell: s.per_cell,
            max_plies: Some(s.max_plies),
            references,
            ..LossConfig::new(key.seed, games, &self.run.out)
        };
        Ok(loss_profiles(&setup, self.calibration, truth, &config, &Terminal::new(self.run))?)
    }
}

/// Tic-tac-toe's ground truth: exact values.
fn tictactoe_truth() -> ExactTruth {
    ExactTruth::new().with_note(TICTACTOE_NOTE)
}

/// Gobang's ground truth: our alpha-beta at [`GOBANG_JUDGE_DEPTH`].
fn gobang_truth() -> Result<SearchTruth<GobangEval>, JudgeError> {
    let d = GOBANG_JUDGE_DEPTH;
    Ok(SearchTruth::new(GobangEval::default(), d, GOBANG_WIN, GOBANG_BLUNDER)?
        .with_description(format!("alphabeta:depth={d} (GobangEval), clamped to ±{GOBANG_WIN}"))
        .with_unit("GobangEval units")
        .with_note(format!(
            "Ground truth: our alpha-beta (GobangEval) at depth {d}, two plies deeper than the dial's deepest \
             curve; values clamped to ±{GOBANG_WIN} (a five's weight; a five found within the horizon counts as \
             that); the loss of a move is the position's depth-{d} value less the move's in the same tree \
             (the value of the position after it at depth {}, from the mover's side): 0 for the best move; \
             a blunder loses ≥ {GOBANG_BLUNDER} (an open four's weight) or worsens the judged outcome (a five \
             forced within the horizon given up, or one allowed); games stopped after {GOBANG_MAX_PLIES} plies.",
            d - 1
        )))
}

/// Stockfish's weakened play at the dial levels inside its `UCI_Elo` range.
fn stockfish_levels(levels: &[LossLevel], path: &Path) -> Vec<LossLevel> {
    let mut out: Vec<LossLevel> = Vec::new();
    for l in levels {
        if l.elo < STOCKFISH_ELO.0 || l.elo > STOCKFISH_ELO.1 {
            continue;
        }
        let x = l.elo.round() as i64;
        let setting = format!("stockfish UCI_Elo={x}");
        if out.iter().all(|o| o.setting != setting) {
            out.push(LossLevel {
                setting,
                elo: x as f64,
                // As in the ladder: a node budget, not a clock.
                spec: registry::ladders::stockfish_at(path, x as u32),
            });
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Connect-4

/// Connect-4 through the solver: exact scores of every child, for the
/// moves made in positions of at least [`CONNECT4_MIN_DISCS`] discs.
#[derive(Debug)]
struct Connect4Judge {
    solver: Solver,
}

impl Connect4Judge {
    fn new() -> Result<Self, JudgeError> {
        Ok(Connect4Judge { solver: Solver::new(7, 6).map_err(|e| JudgeError::failed(e.to_string()))? })
    }

    /// The exact score of playing `col` in `pos` for the mover, in the
    /// solver's convention (`cargo xtask solve`): winning with the disc
    /// that makes `n + 1` discs scores `⌊(W·H + 1 − n)/2⌋`.
    fn child_score(&mut self, pos: &Connect4, col: Column) -> Result<i32, JudgeError> {
        let mut c = *pos;
        c.play(col);
        if c.winner().is_some() {
            let cells = (pos.width() * pos.height()) as i32;
            return Ok((cells + 1 - pos.moves_played() as i32) / 2);
        }
        if c.is_full() {
            return Ok(0);
        }
        Ok(-self.solver.solve(&c).map_err(|e| JudgeError::failed(e.to_string()))?.score)
    }

    /// The score of every legal move of `pos`, in generation order.
    fn child_scores(&mut self, pos: &Connect4) -> Result<Vec<(Column, i32)>, JudgeError> {
        let mut legal = Vec::new();
        if pos.generate(&mut legal) != Status::Ongoing {
            return Err(JudgeError::GameOver);
        }
        legal.iter().map(|&m| Ok((m, self.child_score(pos, m)?))).collect()
    }
}

impl MoveJudge<Connect4> for Connect4Judge {
    fn score_move(&mut self, position: &Connect4, mv: Column) -> Result<Option<Verdict>, JudgeError> {
        if position.moves_played() < CONNECT4_MIN_DISCS {
            return Ok(None);
        }
        let scores = self.child_scores(position)?;
        let best = scores.iter().map(|s| s.1).max().unwrap_or(0);
        let chosen =
            scores.iter().find(|s| s.0 == mv).ok_or_else(|| JudgeError::Illegal { mv: position.move_string(mv) })?.1;
        let changed = chosen.signum() < best.signum();
        Ok(Some(Verdict { loss: f64::from(best - chosen), changed_outcome: changed, blunder: changed }))
    }
}

/// Connect-4's ground truth: the solver ([`Connect4Judge`]).
struct Connect4Truth;

impl GroundTruth<Connect4> for Connect4Truth {
    fn info(&self, _level: &LossLevel) -> JudgeInfo {
        JudgeInfo {
            description: format!("connect-4 solver, positions of {CONNECT4_MIN_DISCS}+ discs"),
            note: format!(
                "Ground truth: the connect-4 solver's exact scores of every child (as `cargo xtask solve` prints them, \
                 from the mover's side); only moves in positions of at least {CONNECT4_MIN_DISCS} discs are scored \
                 (the solver is too slow earlier); a blunder changes the exact outcome (won to drawn or lost, drawn \
                 to lost)."
            ),
            unit: "solver score".into(),
            buckets: vec![0.0, 2.0, 6.0, 12.0, 42.0],
        }
    }

    fn judge(&self, _level: &LossLevel) -> Result<Box<dyn MoveJudge<Connect4>>, JudgeError> {
        Ok(Box::new(Connect4Judge::new()?))
    }
}

// ---------------------------------------------------------------------------
// Chess

/// What judges a level's chess games (its description is part of the
/// cells' parameters).
#[derive(Debug, Clone, PartialEq)]
enum ChessGround {
    Stockfish(PathBuf),
    /// Our alpha-beta at this depth.
    Search(u32),
}

impl ChessGround {
    /// Stockfish where it is installed, otherwise our alpha-beta
    /// [`FALLBACK_EXTRA_DEPTH`] plies deeper than `spec` searches.
    fn for_spec(stockfish: Option<&Path>, spec: &str) -> ChessGround {
        match stockfish {
            Some(path) => ChessGround::Stockfish(path.to_path_buf()),
            None => {
                let depth = spec.parse::<AgentSpec>().ok().and_then(|s| s.get("depth")?.parse::<u32>().ok());
                ChessGround::Search(depth.unwrap_or(0) + FALLBACK_EXTRA_DEPTH)
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            ChessGround::Stockfish(path) => format!("{} nodes={JUDGE_NODES}", path.display()),
            ChessGround::Search(d) => format!("alphabeta:depth={d}"),
        }
    }

    fn note(&self) -> String {
        match self {
            ChessGround::Stockfish(path) => format!(
                "Ground truth: Stockfish ({}) at {JUDGE_NODES} nodes per position (its FEN, one thread), evaluations \
                 clamped to ±{MATE_CP} cp (mates count as that); loss = eval(before) − (−eval(after)), negative values (the judge's noise) counted \
                 as 0; a blunder loses ≥ {CHESS_BLUNDER_CP} cp or worsens the judged outcome (won ≥ +{CHESS_WON_CP}, \
                 lost ≤ −{CHESS_WON_CP}); games stopped after {CHESS_MAX_PLIES} plies.",
                path.display()
            ),
            ChessGround::Search(d) => format!(
                "Ground truth: Stockfish is not installed, so our alpha-beta (ChessEval) at depth {d} (the setting's \
                 depth + {FALLBACK_EXTRA_DEPTH}), evaluations clamped to ±{MATE_CP} cp; loss = eval(before) − (−eval(after)), negative \
                 values counted as 0; a blunder loses ≥ {CHESS_BLUNDER_CP} cp or worsens the judged outcome \
                 (won ≥ +{CHESS_WON_CP}, lost ≤ −{CHESS_WON_CP}); games stopped after {CHESS_MAX_PLIES} plies."
            ),
        }
    }
}

/// Chess's ground truth: Stockfish when it is installed, our alpha-beta
/// otherwise ([`ChessGround::for_spec`]).
struct ChessTruth {
    stockfish: Option<PathBuf>,
}

impl ChessTruth {
    fn ground(&self, level: &LossLevel) -> ChessGround {
        ChessGround::for_spec(self.stockfish.as_deref(), &level.spec)
    }
}

impl GroundTruth<ChessGame> for ChessTruth {
    fn info(&self, level: &LossLevel) -> JudgeInfo {
        let ground = self.ground(level);
        JudgeInfo {
            description: ground.describe(),
            note: ground.note(),
            unit: "centipawns".into(),
            buckets: vec![0.0, 50.0, 200.0, 500.0, 2.0 * f64::from(MATE_CP)],
        }
    }

    fn judge(&self, level: &LossLevel) -> Result<Box<dyn MoveJudge<ChessGame>>, JudgeError> {
        Ok(Box::new(ChessJudge::new(&self.ground(level))?))
    }
}

/// Chess: Stockfish at [`JUDGE_NODES`], or our alpha-beta at a depth.
enum ChessJudge {
    Stockfish(Box<UciEngineAgent>),
    Search(Box<SearchJudge<ChessGame, ChessEval>>, u32),
}

impl ChessJudge {
    fn new(ground: &ChessGround) -> Result<Self, JudgeError> {
        match ground {
            ChessGround::Stockfish(path) => {
                let agent =
                    UciEngineAgent::spawn(path, &[], EngineLimit::Nodes(JUDGE_NODES)).map_err(JudgeError::failed)?;
                Ok(ChessJudge::Stockfish(Box::new(agent)))
            }
            &ChessGround::Search(d) => {
                let search = SearchJudge::new(ChessEval, d, f64::from(MATE_CP), f64::INFINITY, 16)?;
                Ok(ChessJudge::Search(Box::new(search), d))
            }
        }
    }

    /// The judged value of `g` for its side to move, in centipawns (mates
    /// ±[`MATE_CP`]; a finished game by its outcome).
    fn value(&mut self, g: &ChessGame) -> Result<i32, JudgeError> {
        if let Some(v) = finished_value(g) {
            return Ok(v);
        }
        match self {
            ChessJudge::Stockfish(sf) => Ok(sf
                .evaluate(g, EngineLimit::Nodes(JUDGE_NODES))
                .map_err(JudgeError::failed)?
                .centipawns(MATE_CP)
                .clamp(-MATE_CP, MATE_CP)),
            ChessJudge::Search(search, depth) => Ok(search.value(g, *depth)?.round() as i32),
        }
    }
}

impl MoveJudge<ChessGame> for ChessJudge {
    fn score_move(
        &mut self,
        position: &ChessGame,
        mv: <ChessGame as Game>::Move,
    ) -> Result<Option<Verdict>, JudgeError> {
        Ok(self.score_game(position, &[mv])?.first().map(|s| s.verdict))
    }

    /// Each position evaluated once: the loss of a move is the value before
    /// it plus the opponent's value after it.
    fn score_game(
        &mut self,
        start: &ChessGame,
        moves: &[<ChessGame as Game>::Move],
    ) -> Result<Vec<ScoredMove>, JudgeError> {
        let mut g = start.clone();
        let mut before = self.value(&g).map_err(|e| e.at_ply(0))?;
        let mut out = Vec::new();
        for (ply, &mv) in moves.iter().enumerate() {
            g.play(mv);
            // The opponent's view of the position after the move.
            let after = self.value(&g).map_err(|e| e.at_ply(ply))?;
            let loss = f64::from(before + after).max(0.0);
            let won = f64::from(CHESS_WON_CP);
            let changed = judged_class(f64::from(-after), won) < judged_class(f64::from(before), won);
            let verdict = Verdict { loss, changed_outcome: changed, blunder: loss >= CHESS_BLUNDER_CP || changed };
            out.push(ScoredMove { ply, verdict });
            before = after;
        }
        Ok(out)
    }
}

/// A finished chess game's value for the side to move: ±[`MATE_CP`] or 0
/// (`None` if the game goes on).
fn finished_value(g: &ChessGame) -> Option<i32> {
    let mut moves = Vec::new();
    match g.generate(&mut moves) {
        Status::Over(o) => {
            let v = o.value_for(g.turn().player().unwrap_or(Player::First), 1.0);
            Some(if v > 0.0 {
                MATE_CP
            } else if v < 0.0 {
                -MATE_CP
            } else {
                0
            })
        }
        Status::Ongoing => None,
    }
}

/// Won (1), lost (−1) or neither (0) by a judge's value: at least `won`,
/// at most `−won`, or between.
fn judged_class(v: f64, won: f64) -> i8 {
    if v >= won {
        1
    } else if v <= -won {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games_small::{Gobang, TicTacToe};
    use search_core::arena::play_match;
    use search_core::backup::Minimax;
    use search_core::search::{Limits, Search};
    use taskkit::{RunKey, Scale};
    use tournament::losses::{ExactJudge, losses_table, profile};

    /// A level of `spec`, for a truth's `info` and `judge`.
    fn level(spec: &str) -> LossLevel {
        LossLevel { setting: spec.into(), elo: 0.0, spec: spec.into() }
    }

    /// `spec` against itself from `opening` (seed `seed`, at most
    /// `max_plies` plies), on `setup`'s roster: the start and the moves.
    fn self_play<G: Game>(
        setup: &tournament::Setup<G>,
        spec: &str,
        opening: &str,
        seed: u64,
        max_plies: usize,
    ) -> (G, Vec<G::Move>) {
        let roster = setup.roster();
        let (mut first, mut second) = (roster.build(spec).unwrap(), roster.build(spec).unwrap());
        let from = setup.parse_opening(opening).unwrap();
        let record = play_match(&from, &mut first, &mut second, seed, Some(max_plies)).unwrap();
        (from, record.moves)
    }

    fn tictactoe_profile(spec: &str, games: usize) -> LossProfile {
        let setup = registry::tictactoe_setup().unwrap();
        let openings = setup.random_openings(games, 11).unwrap();
        let truth = tictactoe_truth();
        let level = level(spec);
        let info = GroundTruth::<TicTacToe>::info(&truth, &level);
        let mut judge = GroundTruth::<TicTacToe>::judge(&truth, &level).unwrap();
        let mut verdicts = Vec::new();
        for (i, opening) in openings.iter().enumerate() {
            let (from, moves) = self_play(&setup, spec, opening, 100 + i as u64, 9);
            verdicts.extend(judge.score_game(&from, &moves).unwrap().iter().map(|s| s.verdict));
        }
        profile(&level, &verdicts, &info.unit, &info.buckets, &info.note)
    }

    #[test]
    fn tictactoe_perfect_play_loses_nothing_and_random_play_blunders() {
        let perfect = tictactoe_profile("alphabeta:depth=9", 6);
        assert!(perfect.moves >= 6 * 7, "{perfect:?}");
        assert_eq!((perfect.mean_loss, perfect.max_loss, perfect.blunder_rate), (0.0, 0.0, 0.0), "{perfect:?}");
        assert_eq!(perfect.histogram, vec![(0.0, perfect.moves), (1.0, 0), (2.0, 0)]);
        assert_eq!((perfect.unit.as_str(), perfect.note.as_str()), ("outcome classes", TICTACTOE_NOTE));
        let random = tictactoe_profile("random", 6);
        assert!(random.blunder_rate > 0.0 && random.mean_loss > 0.0, "{random:?}");
        assert_eq!(random.blunder_rate, random.outcome_change_rate);
        assert_eq!(random.histogram.iter().map(|h| h.1).sum::<u64>(), random.moves);
    }

    #[test]
    fn tictactoe_exact_values() {
        let mut exact = ExactJudge::new();
        assert_eq!(exact.value(&TicTacToe::default()), 0.0);
        // X has a1 and a2, O b1 and b2, X to move: a3 wins, anything else
        // lets O complete the middle column.
        let g = TicTacToe::from_moves("a1 b1 a2 b2").unwrap();
        assert_eq!(exact.value(&g), 1.0);
        let win = g.parse_move("a3").unwrap();
        let throw = g.parse_move("c3").unwrap();
        let verdict = |loss, thrown| Verdict { loss, changed_outcome: thrown, blunder: thrown };
        let s = exact.score_game(&g, &[win]).unwrap();
        assert_eq!(s, vec![ScoredMove { ply: 0, verdict: verdict(0.0, false) }]);
        let s = exact.score_game(&g, &[throw]).unwrap();
        assert_eq!(s, vec![ScoredMove { ply: 0, verdict: verdict(2.0, true) }]);
    }

    /// Positions of at least [`CONNECT4_MIN_DISCS`] discs with their exact
    /// scores: the solver's doc example, and some of the shared test set
    /// when it is there.
    fn connect4_positions() -> Vec<(String, i32)> {
        let mut out = vec![("2252576253462244111563365343671351441".to_string(), -1)];
        if let Some(text) =
            test_data::read("connect4/middle-easy", "three of its positions (the built-in one is checked)")
        {
            out.extend(
                text.lines()
                    .filter_map(|l| {
                        let (moves, score) = l.split_once(' ')?;
                        Some((moves.to_string(), score.trim().parse().ok()?))
                    })
                    .filter(|(m, _)| m.len() >= CONNECT4_MIN_DISCS as usize)
                    .take(3),
            );
        }
        out
    }

    #[test]
    fn connect4_losses_against_the_solver() {
        let mut judge = Connect4Judge::new().unwrap();
        for (moves, expected) in connect4_positions() {
            let pos = Connect4::from_moves(7, 6, &moves).unwrap();
            let scores = judge.child_scores(&pos).unwrap();
            let best = scores.iter().map(|s| s.1).max().unwrap();
            assert_eq!(best, expected, "{moves}: the best child is the position's score");
            for &(col, score) in &scores {
                let v = judge.score_move(&pos, col).unwrap().unwrap();
                assert_eq!(v.loss, f64::from(best - score), "{moves} {col}");
                assert_eq!(v.blunder, score.signum() < best.signum(), "{moves} {col}");
                assert_eq!(v.changed_outcome, v.blunder, "{moves} {col}");
            }
            let (best_col, _) = scores.iter().find(|s| s.1 == best).unwrap();
            let s = judge.score_game(&pos, &[*best_col]).unwrap();
            assert_eq!((s.len(), s[0].ply, s[0].verdict.loss), (1, 0, 0.0));
        }
        // Before the threshold nothing is scored.
        let early = Connect4::from_moves(7, 6, "4455").unwrap();
        assert_eq!(judge.score_move(&early, 3).unwrap(), None);
        assert!(judge.score_game(&early, &[3]).unwrap().is_empty());
        // The truth describes the judge.
        let info = Connect4Truth.info(&level("random"));
        assert_eq!((info.unit.as_str(), info.buckets.len()), ("solver score", 5));
        assert!(Connect4Truth.judge(&level("random")).is_ok());
    }

    /// Scores `moves` (UCI) from the position after `line` (UCI moves from
    /// the start) with a fresh judge on `ground`, and checks that a second
    /// fresh judge scores the first move alone the same (a Stockfish judge
    /// keeps its hash table from one call to the next, so the two must not
    /// share a process).
    fn chess_scores(ground: &ChessGround, line: &str, moves: &str) -> Vec<ScoredMove> {
        let mut start = ChessGame::startpos();
        for m in line.split_whitespace() {
            start.play_str(m).unwrap();
        }
        let mut g = start.clone();
        let moves: Vec<_> = moves.split_whitespace().map(|m| g.play_str(m).unwrap()).collect();
        let scored = ChessJudge::new(ground).unwrap().score_game(&start, &moves).unwrap();
        let alone = ChessJudge::new(ground).unwrap().score_move(&start, moves[0]).unwrap();
        assert_eq!(alone, Some(scored[0].verdict));
        scored
    }

    #[test]
    fn chess_judges_see_a_blunder() {
        // 1.e4 e5 2.Qh5 Nc6 3.Bc4: 3…Nf6?? allows 4.Qxf7#; 3…g6 defends.
        let line = "e2e4 e7e5 d1h5 b8c6 f1c4";
        let mut grounds = vec![ChessGround::Search(3)];
        match registry::ladders::stockfish() {
            Some(path) => grounds.push(ChessGround::Stockfish(path)),
            None => eprintln!("note: Stockfish is not installed: only the alpha-beta judge is checked"),
        }
        for ground in &grounds {
            let blunder = chess_scores(ground, line, "g8f6")[0].verdict;
            assert!(blunder.loss >= f64::from(MATE_CP) && blunder.blunder && blunder.changed_outcome, "{blunder:?}");
            let defence = chess_scores(ground, line, "g7g6")[0].verdict;
            assert!(defence.loss < CHESS_BLUNDER_CP && !defence.blunder, "{defence:?}");
            // The mate itself loses nothing; the game is over after it.
            let mate = chess_scores(ground, &format!("{line} g8f6"), "h5f7")[0].verdict;
            assert_eq!(mate.loss, 0.0, "{mate:?}");
        }
    }

    #[test]
    fn chess_truth_without_stockfish_searches_deeper_than_the_setting() {
        let truth = ChessTruth { stockfish: None };
        let info = truth.info(&level("boltzmann:depth=2,cap=1,theta=3"));
        assert_eq!(info.description, "alphabeta:depth=5");
        assert_eq!(info.unit, "centipawns");
        assert_eq!(info.buckets, vec![0.0, 50.0, 200.0, 500.0, 2000.0]);
        assert_eq!(truth.info(&level("random")).description, "alphabeta:depth=3");
        let with = ChessTruth { stockfish: Some("/sf".into()) };
        assert_eq!(with.info(&level("random")).description, format!("/sf nodes={JUDGE_NODES}"));
    }

    /// X has an open four (h8–k8), O a four on the a-file that a5 would
    /// complete; X to move.
    #[test]
    fn gobang_judge_sees_a_passed_up_five_and_an_allowed_one() {
        let start: Gobang = "h8 a1 i8 a2 j8 a3 k8 a4".parse().unwrap();
        let truth = gobang_truth().unwrap();
        let mut judge = GroundTruth::<Gobang>::judge(&truth, &level("random")).unwrap();
        let mut score = |mv: &str| {
            let m = start.parse_move(mv).unwrap();
            judge.score_move(&start, m).unwrap().unwrap()
        };
        // The five, and the block that keeps the open four: both still win.
        for good in ["g8", "l8", "a5"] {
            assert_eq!(score(good), Verdict { loss: 0.0, changed_outcome: false, blunder: false }, "{good}");
        }
        // Anything else lets O make five: won turned lost.
        let thrown = score("h9");
        assert_eq!(thrown, Verdict { loss: 2.0 * GOBANG_WIN, changed_outcome: true, blunder: true });
        let info = GroundTruth::<Gobang>::info(&truth, &level("random"));
        assert_eq!(info.buckets, vec![0.0, 100.0, 1_000.0, GOBANG_BLUNDER, 2.0 * GOBANG_WIN]);
        assert_eq!(info.description, "alphabeta:depth=4 (GobangEval), clamped to ±100000");
        assert_eq!(info.unit, "GobangEval units");
        assert!(SearchTruth::new(GobangEval::default(), 0, GOBANG_WIN, GOBANG_BLUNDER).is_err());
        assert!(SearchJudge::<Gobang, _>::new(GobangEval::default(), 1, GOBANG_WIN, GOBANG_BLUNDER, 1).is_err());
    }

    /// Every move of a short random game is scored, no loss is negative,
    /// and at every position the move a search to the judge's depth
    /// chooses loses nothing.
    #[test]
    fn gobang_self_play_is_scored_and_the_judges_move_loses_nothing() {
        let depth = 2;
        let setup = registry::gobang_setup().unwrap();
        let (from, moves) = self_play(&setup, "random", "h8 h9", 1, 16);
        let mut judge = SearchJudge::new(GobangEval::default(), depth, GOBANG_WIN, GOBANG_BLUNDER, 16).unwrap();
        let scored = judge.score_game(&from, &moves).unwrap();
        assert_eq!(scored.len(), 16);
        assert!(scored.iter().all(|s| s.verdict.loss >= 0.0), "{scored:?}");
        assert!(scored.iter().any(|s| s.verdict.loss > 0.0), "random play lost nothing: {scored:?}");
        let mut g: Gobang = "h8 h9".parse().unwrap();
        let mut best = Search::recommended(Minimax, GobangEval::default()).unwrap();
        let mut rng = search_core::rng::seeded(7);
        let mut legal = Vec::new();
        for ply in 0..12 {
            let mv = best.run(&g, &Limits::depth(depth)).unwrap().best.unwrap();
            assert_eq!(judge.score_move(&g, mv).unwrap().unwrap().loss, 0.0, "ply {ply}: {}", g.move_string(mv));
            legal.clear();
            g.generate(&mut legal);
            g.play(legal[search_core::rng::RngExt::random_range(&mut rng, 0..legal.len())]);
        }
    }

    #[test]
    fn stockfish_self_play_is_scored() {
        let Some(path) = registry::ladders::stockfish() else {
            eprintln!("note: stockfish_self_play_is_scored skipped: Stockfish is not installed");
            return;
        };
        let level =
            &stockfish_levels(&[LossLevel { setting: String::new(), elo: 1500.0, spec: String::new() }], &path)[0];
        let setup = registry::chess_setup().unwrap();
        let (from, moves) = self_play(&setup, &level.spec, "e2e4 e7e5", 1, 6);
        let mut judge = ChessTruth { stockfish: Some(path) }.judge(level).unwrap();
        let scored = judge.score_game(&from, &moves).unwrap();
        assert_eq!(scored.len(), 6);
        assert!(scored.iter().all(|s| s.verdict.loss >= 0.0), "{scored:?}");
    }

    /// A run of `seed` at `scale` into `out`.
    fn run_config(out: &Path, seed: u64, scale: Scale) -> RunConfig {
        RunConfig { label: "test", key: RunKey { seed, scale }, out: out.to_path_buf(), shard: None }
    }

    /// The loss table of `game`'s committed calibration, played into a
    /// temporary directory.
    fn print_profiles(game: &str, seed: u64, quick: bool) {
        let c = registry::game(game).unwrap().calibration().unwrap();
        let out = std::env::temp_dir().join(format!("dial-losses-{game}-{}", std::process::id()));
        let scale = if quick { Scale::Quick } else { Scale::Default };
        let mut with = c.clone();
        with.losses = profiles(game, &c, &run_config(&out, seed, scale), quick).unwrap();
        println!("{}", losses_table(&with));
        let _ = std::fs::remove_dir_all(&out);
    }

    /// Not a check: the chess figures of a quick run on the committed
    /// calibration. `cargo test -p dial --release losses -- --ignored --nocapture`.
    #[test]
    #[ignore = "minutes: chess self-play judged by Stockfish or a deeper search"]
    fn chess_profiles_quick() {
        print_profiles("chess", 5, true);
    }

    /// Not a check: the gobang figures of the committed calibration at the
    /// default scale, with the seed `calibrate` uses (the same games a
    /// calibration of the same ladder profiles).
    #[test]
    #[ignore = "minutes: gobang self-play judged by a depth-4 search"]
    fn gobang_profiles() {
        print_profiles("gobang", crate::calibrate::DEFAULT_SEED, false);
    }

    #[test]
    fn levels_spread_over_the_dial() {
        let c = registry::game("tictactoe").unwrap().calibration().unwrap();
        let dial = Dial::new(c.clone()).unwrap();
        let levels = dial_levels(&dial, &DEFAULT_LEVELS).unwrap();
        let (lo, hi) = dial.range();
        assert!(levels.len() >= 6);
        assert!(levels.windows(2).all(|w| w[0].elo < w[1].elo));
        assert_eq!(levels.last().unwrap().elo, hi);
        assert!(levels[0].elo <= lo + 0.1 * (hi - lo));
        assert_eq!(levels.last().unwrap().spec, dial.setting(hi).unwrap().to_string());
        let sf = stockfish_levels(
            &[LossLevel { setting: "elo:1500".into(), elo: 1500.4, spec: String::new() }],
            Path::new("/sf"),
        );
        assert_eq!(sf[0].spec, "uci:/sf,UCI_LimitStrength=true,UCI_Elo=1500,nodes=30000");
        assert_eq!((sf[0].setting.as_str(), sf[0].elo), ("stockfish UCI_Elo=1500", 1500.0));
        assert!(stockfish_levels(&levels, Path::new("/sf")).iter().all(|l| l.elo >= 1350.0));
    }

    #[test]
    fn tictactoe_profiles_on_the_cell_store() {
        let c = registry::game("tictactoe").unwrap().calibration().unwrap();
        let out = std::env::temp_dir().join(format!("dial-losses-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let config = run_config(&out, 3, Scale::Quick);
        let first = profiles("tictactoe", &c, &config, true).unwrap();
        assert_eq!(first.len(), DEFAULT_LEVELS.len());
        let top = first.last().unwrap();
        assert_eq!((top.spec.as_str(), top.mean_loss, top.blunder_rate), ("alphabeta:depth=9", 0.0, 0.0));
        assert!(first.iter().all(|p| p.moves > 0 && p.unit == "outcome classes"));
        // Resumed from the saved cells: the same profiles.
        let again = profiles("tictactoe", &c, &config, true).unwrap();
        assert_eq!(first, again);
        let mut with = c.clone();
        with.losses = first;
        assert_eq!(Calibration::from_json(&with.to_json()).unwrap(), with);
        let table = losses_table(&with);
        assert!(table.contains("| `elo:") && table.contains("alphabeta:depth=9"), "{table}");
        let _ = std::fs::remove_dir_all(&out);
    }

    /// The committed tic-tac-toe calibration's profiles, played again with
    /// the seed and scale `calibrate` used: the same to the last bit.
    #[test]
    fn tictactoe_profiles_are_the_committed_ones() {
        let c = registry::game("tictactoe").unwrap().calibration().unwrap();
        assert!(!c.losses.is_empty());
        let out = std::env::temp_dir().join(format!("dial-losses-committed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let config = run_config(&out, crate::calibrate::DEFAULT_SEED, Scale::Default);
        let played = profiles("tictactoe", &c, &config, false).unwrap();
        let _ = std::fs::remove_dir_all(&out);
        assert_eq!(played, c.losses);
    }

    #[test]
    fn a_game_without_a_judge_has_no_profiles() {
        let c = registry::game("tictactoe").unwrap().calibration().unwrap();
        let out = std::env::temp_dir().join(format!("dial-losses-none-{}", std::process::id()));
        assert!(profiles("othello", &c, &run_config(&out, 1, Scale::Quick), true).unwrap().is_empty());
        assert!(!out.exists());
    }
}
