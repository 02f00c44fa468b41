//! The built-in games' dial ladders. The θ ranges are chosen so that each
//! curve runs from near random play to near its top; the caps are a
//! decisive advantage in the evaluator's units. Each ladder's pairs per
//! matchup are its default scale; `quick_pairs` in [`crate::GAMES`] is the
//! small scale of `calibrate --quick`.

use std::path::PathBuf;

use tournament::ladder::{Curve, HeldOutDesign, Ladder, Reference};

/// Stockfish, where the Debian package or `PATH` has it.
pub fn stockfish() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/games/stockfish");
    if debian.is_file() {
        return Some(debian);
    }
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join("stockfish")).find(|f| f.is_file()))
}

/// Stockfish's node budget a move in the chess ladder and the loss
/// profiles. A node limit fixes the size of its search on any machine and
/// under any load (a clock does not: Stockfish with a third of a core
/// played about 50 Elo weaker at `movetime=50`, docs/strength.md); on a
/// quiet machine Stockfish 15.1 searches 18,000 to 36,000 nodes in 50 ms at
/// the levels the ladder uses, so 30,000 is about the clock the ladder had
/// before.
pub const STOCKFISH_NODES: u32 = 30_000;

/// The spec of Stockfish (at `path`) weakened to `UCI_Elo` `elo`, searching
/// [`STOCKFISH_NODES`] nodes a move.
///
/// ```
/// let spec = registry::ladders::stockfish_at(std::path::Path::new("/sf"), 1500);
/// assert_eq!(spec, "uci:/sf,UCI_LimitStrength=true,UCI_Elo=1500,nodes=30000");
/// ```
pub fn stockfish_at(path: &std::path::Path, elo: u32) -> String {
    format!("uci:{},UCI_LimitStrength=true,UCI_Elo={elo},nodes={STOCKFISH_NODES}", path.display())
}

/// θ of the chess curves' rungs. A first ladder had 0.003, 0.01 and 0.03
/// only: at depth 3 its top finite rung (θ = 0.03, Elo 780) sat 777 Elo
/// below the greedy top, and the dial interpolated across that gap blind
/// (θ = 0.03 scores 2.5% against θ = 0.1 at depth 3, θ = 0.05 about 29%
/// against 0.03 and 22% against 0.1: 40-game probes). The rungs at 0.02,
/// 0.05 and 0.1 fill it; at depth 1, θ = 0.1 is already about the greedy
/// top's strength.
const CHESS_THETAS: [f64; 6] = [0.003, 0.01, 0.02, 0.03, 0.05, 0.1];

/// The node budgets of the chess ladder's top curve: the `kibitz` engine
/// at full strength (`kibitz:nodes=N`, [`games_chess::kibitz`]). 1000
/// nodes is about as strong as `alphabeta:depth=3`, the depth-3 curve's top
/// (50% in a 40-game probe), so the curve starts at 500, below it: the two
/// curves overlap and the dial has no gap between them. Each doubling gains
/// about 170 Elo in self-play (32,000 nodes scored 95% against 4,000), so
/// neighbouring rungs score about 70% against each other. 128,000 nodes is
/// about what the engine searches in 100 ms a move on one core (1.4 to 2.2
/// million nodes a second, docs/benchmarks.md).
pub const KIBITZ_NODES: [f64; 9] = [500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0, 128000.0];

/// Stockfish's `UCI_Elo` levels the chess ladder is anchored to, each with
/// the rungs it plays: the dial's own settings nearest its strength (40-game
/// probes at `nodes=30000`: `kibitz:nodes=4000` scored 46% against 1700,
/// `kibitz:nodes=32000` 27.5% against 1900). Below 1500 they are the
/// depth-3 curve's settings the dial serves where its range meets
/// Stockfish's. An earlier ladder linked Stockfish to `alphabeta:depth=2`
/// instead of θ = 0.05. The dial never serves that setting (its rating is
/// reached on the depth-3 curve, the shallowest with a finite θ there),
/// and a shallower search scores better against Stockfish than its rating
/// says (a residual of +3 to +5 standard deviations at every level), so
/// its games pulled the mapped scale away from the settings the dial plays:
/// `elo:X` scored 42% against Stockfish at `UCI_Elo=X` (docs/strength.md).
/// Stockfish 1800 and 2000 tie the engine's upper node rungs to the scale
/// between 1700, 1900 and 2100: with those three levels alone, 16,000
/// nodes was about 120 Elo from the nearest, and most of the node curve's
/// ratings came from self-play. Stockfish 1600 (its depth-3 step, which
/// no other level plays) and the links of 1350 to 500 nodes and of 1500
/// to 2,000 tie the node curve's low end to the scale where the map is
/// steepest: with one link each there, `elo:X` scored 55% against
/// `UCI_Elo=X` from 1500 to 1700 and the rungs' intervals were ±68 to ±88.
pub const STOCKFISH_LINKS: [(u32, &[&str]); 8] = [
    (
        1350,
        &[
            "boltzmann:depth=3,softcap=1000,theta=0.05",
            "boltzmann:depth=3,softcap=1000,theta=0.1",
            "alphabeta:depth=3",
            "kibitz:nodes=500",
        ],
    ),
    (
        1500,
        &["boltzmann:depth=3,softcap=1000,theta=0.1", "alphabeta:depth=3", "kibitz:nodes=1000", "kibitz:nodes=2000"],
    ),
    (1600, &["kibitz:nodes=1000", "kibitz:nodes=2000", "kibitz:nodes=4000"]),
    (1700, &["kibitz:nodes=2000", "kibitz:nodes=4000", "kibitz:nodes=8000"]),
    (1800, &["kibitz:nodes=8000", "kibitz:nodes=16000", "kibitz:nodes=32000"]),
    (1900, &["kibitz:nodes=8000", "kibitz:nodes=16000", "kibitz:nodes=32000"]),
    (2000, &["kibitz:nodes=16000", "kibitz:nodes=32000", "kibitz:nodes=64000"]),
    (2100, &["kibitz:nodes=32000", "kibitz:nodes=64000", "kibitz:nodes=128000"]),
];

/// The chess ladder's links to Stockfish (its `UCI_Elo` level, the rung)
/// added since the committed calibration: their games are being played by
/// a rerun (`cargo xtask calibrate chess`, across sessions from the
/// committed cells), and the committed calibration has none of them.
/// Empty once the calibration that has them is committed (a test holds
/// the ladder and the calibration to this).
pub const CHESS_PENDING_LINKS: &[(u32, &str)] = &[
    (1350, "kibitz:nodes=500"),
    (1500, "kibitz:nodes=2000"),
    (1600, "kibitz:nodes=1000"),
    (1600, "kibitz:nodes=2000"),
    (1600, "kibitz:nodes=4000"),
];

/// How the chess ladder's held-out matches are set: the weaker side's
/// predicted score from 10% in the first match to 35% in the tenth. Chess's
/// range is long (about 1,900 Elo from random play to the engine at
/// 128,000 nodes), so the default design, B above A by 12% to 39% of the
/// range, made every match lopsided (predicted scores of 2% to 17%): it
/// tested only the logistic's tail, which is too generous to the weaker
/// side at gaps of 400 Elo and more (the three misses of the ladder of
/// 2026-12-02, each 0 to 3 points in 300 games where 6 to 10 were
/// predicted), and none of the gaps a user sets between two players.
pub const CHESS_HELD_OUT: HeldOutDesign = HeldOutDesign::PredictedScore { first: 0.1, last: 0.35 };

/// A ladder of Boltzmann curves at `depths` over `thetas` with the cap
/// `cap`, `pairs` per matchup and `held_out` for the held-out check.
fn boltzmann(depths: &[u32], thetas: &[f64], cap: &str, pairs: usize, held_out: usize) -> Ladder {
    Ladder::boltzmann(depths, thetas, cap).with_pairs(pairs).with_held_out_pairs(held_out)
}

/// Tic-tac-toe: values of the full game tree (win 1, draw 0, loss −1 after
/// the cap).
pub fn tictactoe() -> Ladder {
    boltzmann(&[9], &[0.5, 1.0, 2.0, 4.0, 8.0], "cap=1", 2000, 500)
}

/// The cell counts at which the connect-4 ladder's top curve starts
/// playing perfectly (`solver:depth=8,empties=E`: alpha-beta at depth 8
/// before, [`games_small::solver::EndgamePlayer`]). Perfect play over the
/// last 24 cells scores about 67% against `alphabeta:depth=8` alone, and
/// each further step of three or four cells about 65% against the one
/// below (100-game probes), so neighbouring rungs are 100 to 130 Elo apart.
/// The curve starts at 16, about as strong as `alphabeta:depth=12` (a
/// depth-8 search already sees most of the last 16 cells' play), so that
/// it overlaps the depth-12 curve's top. It stops at 34 (perfect play from
/// the eighth disc): a game costs about 0.9 CPU-seconds there, and each
/// further pair of cells multiplies that by about four (a solve takes
/// seconds six discs from the start), so perfect play from the opening on
/// (`solver`, about 13 CPU-seconds a game) is rated above the ladder with
/// `rate` instead.
pub const CONNECT4_ENDGAME_EMPTIES: [f64; 6] = [16.0, 20.0, 24.0, 28.0, 31.0, 34.0];

/// Connect-4 values are small (a window of three own discs is worth 4): a
/// cap of 100 is a decisive advantage, and θ from 0.003 (near random) to
/// 0.3 (near the greedy top) spans each curve.
///
/// Depth 12 extends the top (alpha-beta at depth 12 scores about 67%
/// against depth 8): its rungs start at θ = 0.1, where it overlaps depth
/// 8's top, and random play does not meet them. A game at depth 12 costs
/// about 0.5 CPU-seconds (15 times depth 8), so the curve has three rungs.
/// Deeper searches cost more for less: perfect play once few cells are
/// empty ([`CONNECT4_ENDGAME_EMPTIES`]) takes the dial from there towards
/// perfect play (over the last 28 cells, with depth 8 before, it scores
/// about 76% against depth 8 alone, for a fifteenth of a depth-12 game's
/// cost). The depth-12 curve stays below it: it is a Boltzmann curve, which
/// the `adaptive` agent can observe a strong opponent through.
pub fn connect4() -> Ladder {
    let mut l = boltzmann(&[2, 4, 6, 8], &[0.003, 0.01, 0.03, 0.1, 0.3], "cap=100", 600, 200);
    l.curves.push(Curve::new("boltzmann:depth=12,cap=100", &[0.1, 0.3, 1.0], "alphabeta:depth=12").above_random());
    l.curves.push(Curve::over("solver:depth=8", "empties", &CONNECT4_ENDGAME_EMPTIES));
    l
}

/// Gobang values are pattern weights (an open four 10 000). Depth 1 starts
/// nearer random play (θ = 0.0001) so that the low end has a rung between
/// random and Elo 300; depth 2 does not, because near-random depth-2
/// players play long games at a depth-2 search a move (such a matchup
/// costs more than the rest of the ladder).
///
/// 900 pairs left the two alpha-beta tops at ±31.5 and ±32 Elo: a rung's
/// interval carries the whole chain of matchups down to random play, so
/// more games at the top alone (1200 pairs in its matchups) narrowed them
/// only to ±30.5 and ±31.
pub fn gobang() -> Ladder {
    let mut l = boltzmann(&[1, 2], &[0.0003, 0.001, 0.003, 0.01], "softcap=10000", 1100, 250);
    l.curves[0].thetas.insert(0, 0.0001);
    l
}

/// Chess values are centipawns; a soft cap of ten pawns
/// (`1000·tanh(v/1000)`): a weak player misjudges large advantages, but a
/// mate still looks better than a few pawns up, so a player far ahead
/// converts instead of drifting into a draw (with a hard cap, games won on
/// material were drawn and the strong rungs underperformed their
/// predictions). Above the depth-3 curve, the engine at full strength with
/// node budgets ([`KIBITZ_NODES`]) takes the dial to the engine's own
/// strength. Stockfish's levels are the references where it is installed
/// ([`stockfish`], [`STOCKFISH_LINKS`]).
///
/// The held-out matches are set by predicted score ([`CHESS_HELD_OUT`]).
pub fn chess() -> Ladder {
    let mut l = boltzmann(&[1, 2, 3], &CHESS_THETAS, "softcap=1000", 100, 150).with_held_out_design(CHESS_HELD_OUT);
    l.curves.push(Curve::over("kibitz", "nodes", &KIBITZ_NODES).self_play());
    if let Some(path) = stockfish() {
        l.references = STOCKFISH_LINKS
            .iter()
            .map(|&(elo, links)| Reference {
                spec: stockfish_at(&path, elo),
                elo: f64::from(elo),
                links: links.iter().map(|s| s.to_string()).collect(),
            })
            .collect();
        l.reference_scale = Some("Stockfish UCI_Elo".into());
    }
    l
}
