//! Loss profiles through the library, on a game small enough to solve by
//! brute force: the exact judge against a naive minimax, the search judge
//! against the exact one, profiles reproducible, the same on one thread and
//! two, resumed and sharded without replaying, and bad input refused.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use search_core::{Evaluator, Game, GameError, Outcome, Perspective, Player, Status, Turn};
use strength::dial::{Calibration, LossProfile, Rung};
use tournament::Setup;
use tournament::losses::{
    ExactJudge, ExactTruth, GroundTruth, JudgeError, JudgeInfo, LossConfig, LossError, LossLevel, MoveJudge,
    ReferenceLevels, SearchJudge, SearchTruth, Verdict, dial_levels, loss_profiles, losses_table, profile,
};
use tournament::runner::{RunObserver, Shard};

/// The items on the table.
const ITEMS: [u8; 6] = [1, 2, 3, 4, 5, 7];

/// Pick: the players take turns taking one item off the table until none
/// is left; the larger sum wins, equal sums draw (22 in all, so 11 each
/// is a draw). Taking the largest item is always a best move; the first
/// player wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pick {
    /// Bit `i`: item `i` is still there.
    left: u8,
    /// Each player's sum (first, second).
    sums: [u8; 2],
    to_move: Player,
}

impl Pick {
    fn new() -> Self {
        Pick { left: (1 << ITEMS.len()) - 1, sums: [0, 0], to_move: Player::First }
    }

    fn index(p: Player) -> usize {
        match p {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

impl Game for Pick {
    /// The index of the item taken.
    type Move = u8;
    const HASHED: bool = true;

    fn turn(&self) -> Turn {
        Turn::Player(self.to_move)
    }

    fn generate(&self, moves: &mut Vec<u8>) -> Status {
        if self.left == 0 {
            return Status::Over(match self.sums[0].cmp(&self.sums[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::First),
                std::cmp::Ordering::Less => Outcome::Win(Player::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
        moves.extend((0..ITEMS.len() as u8).filter(|&i| self.left >> i & 1 == 1));
        Status::Ongoing
    }

    fn play(&mut self, i: u8) {
        self.left &= !(1 << i);
        self.sums[Self::index(self.to_move)] += ITEMS[usize::from(i)];
        self.to_move = self.to_move.opponent();
    }

    fn hash_key(&self) -> Option<u64> {
        let key = u64::from(self.left)
            | u64::from(self.sums[0]) << 8
            | u64::from(self.sums[1]) << 16
            | (Self::index(self.to_move) as u64) << 24;
        Some(search_core::rng::splitmix64(key))
    }

    fn write_move(&self, mv: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", char::from(b'a' + mv))
    }

    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        match text.as_bytes() {
            [c @ b'a'..=b'f'] => Ok(c - b'a'),
            _ => Err(GameError::parse("move", text, 0, "an item a to f")),
        }
    }
}

/// The mover's sum less the opponent's.
#[derive(Clone, Copy, Debug)]
struct PickEval;

impl Evaluator<Pick> for PickEval {
    const PERSPECTIVE: Perspective = Perspective::SideToMove;

    fn evaluate(&self, g: &Pick) -> f64 {
        let me = Pick::index(g.to_move);
        f64::from(g.sums[me]) - f64::from(g.sums[1 - me])
    }
}

fn setup() -> Setup<Pick> {
    Setup::standard("pick", Pick::new(), PickEval).with_opening_plies(1).with_max_plies(6)
}

/// A calibration of Pick's dial: one depth-2 curve from random play (0)
/// to its greedy top (300).
fn calibration() -> Calibration {
    let rung = |spec: &str, theta: f64, rating: f64| Rung {
        spec: spec.into(),
        curve: Some("boltzmann:depth=2,cap=10".into()),
        theta: Some(theta),
        rating,
        low: rating - 20.0,
        high: rating + 20.0,
        games: 100,
    };
    Calibration {
        game: "pick".into(),
        rungs: vec![
            rung("random", 0.0, 0.0),
            rung("boltzmann:depth=2,cap=10,theta=0.3", 0.3, 100.0),
            rung("boltzmann:depth=2,cap=10,theta=1", 1.0, 200.0),
            rung("alphabeta:depth=2", f64::INFINITY, 300.0),
        ],
        ..Calibration::default()
    }
}

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tournament-losses-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn config(seed: u64, out: &Path) -> LossConfig {
    LossConfig { games_per_cell: 2, ..LossConfig::new(seed, 6, out) }
}

/// Every position of Pick where a player is to move.
fn positions() -> Vec<Pick> {
    let mut seen = HashSet::new();
    let mut stack = vec![Pick::new()];
    let mut out = Vec::new();
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        let mut moves = Vec::new();
        if g.generate(&mut moves) == Status::Ongoing {
            out.push(g);
            for m in moves {
                let mut c = g;
                c.play(m);
                stack.push(c);
            }
        }
    }
    out
}

/// The outcome class of `g` for its side to move, by plain minimax over the
/// whole tree (no memo).
fn naive(g: &Pick) -> i32 {
    let mut moves = Vec::new();
    match g.generate(&mut moves) {
        Status::Over(Outcome::Win(p)) => {
            if p == g.to_move {
                1
            } else {
                -1
            }
        }
        Status::Over(_) => 0,
        Status::Ongoing => moves
            .iter()
            .map(|&m| {
                let mut c = *g;
                c.play(m);
                -naive(&c)
            })
            .max()
            .unwrap(),
    }
}

fn legal(g: &Pick) -> Vec<u8> {
    let mut moves = Vec::new();
    g.generate(&mut moves);
    moves
}

fn after(g: &Pick, m: u8) -> Pick {
    let mut c = *g;
    c.play(m);
    c
}

#[test]
fn the_exact_judge_agrees_with_brute_force() {
    let mut exact = ExactJudge::new();
    assert_eq!(exact.value(&Pick::new()), 1.0, "the first player wins");
    let all = positions();
    assert!(all.len() > 200, "{}", all.len());
    let (mut losses, mut blunders) = (0, 0);
    for g in &all {
        assert_eq!(exact.value(g), f64::from(naive(g)), "{g:?}");
        let values: Vec<(u8, i32)> = legal(g).into_iter().map(|m| (m, -naive(&after(g, m)))).collect();
        let best = values.iter().map(|v| v.1).max().unwrap();
        for &(m, v) in &values {
            let verdict = exact.score_move(g, m).unwrap().unwrap();
            let expected = Verdict { loss: f64::from(best - v), changed_outcome: v < best, blunder: v < best };
            assert_eq!(verdict, expected, "{g:?}, move {m}");
            losses += usize::from(v < best);
            blunders += usize::from(verdict.blunder);
        }
    }
    assert!(losses > 100 && blunders == losses, "{losses} {blunders}");
    // Taking the largest item is always a best move.
    for g in &all {
        let largest = *legal(g).iter().max_by_key(|&&m| ITEMS[usize::from(m)]).unwrap();
        assert_eq!(exact.score_move(g, largest).unwrap().unwrap().loss, 0.0, "{g:?}");
    }
    // A whole game: one verdict per move, in order, the same as move by move.
    let start = Pick::new();
    let moves = [0, 5, 1, 4, 2, 3];
    let scored = exact.score_game(&start, &moves).unwrap();
    let mut g = start;
    for (ply, (s, &m)) in scored.iter().zip(&moves).enumerate() {
        assert_eq!((s.ply, s.verdict), (ply, exact.score_move(&g, m).unwrap().unwrap()));
        g.play(m);
    }
    assert_eq!(scored.len(), 6);
    // Moves that cannot be scored.
    let taken = after(&start, 0);
    assert!(matches!(exact.score_move(&taken, 0), Err(JudgeError::Illegal { mv }) if mv == "a"));
    let over = moves.iter().fold(start, |g, &m| after(&g, m));
    assert!(matches!(exact.score_move(&over, 0), Err(JudgeError::GameOver)));
    let err = exact.score_game(&start, &[0, 0]).unwrap_err();
    assert!(matches!(err, JudgeError::AtPly { ply: 1, .. }), "{err}");
    assert_eq!(err.to_string(), "ply 1: a is not a legal move there");
}

#[test]
fn a_search_judge_that_sees_the_end_judges_as_the_exact_one() {
    let mut exact = ExactJudge::new();
    let mut search = SearchJudge::new(PickEval, 7, 1.0, f64::INFINITY, 1).unwrap();
    for g in positions() {
        assert_eq!(search.value(&g, 7).unwrap(), exact.value(&g), "{g:?}");
        for m in legal(&g) {
            assert_eq!(search.score_move(&g, m).unwrap(), exact.score_move(&g, m).unwrap(), "{g:?}, move {m}");
        }
    }
    // Scaled by the win value, with a blunder threshold below a draw lost.
    let mut scaled = SearchJudge::new(PickEval, 7, 100.0, 150.0, 1).unwrap();
    let start = Pick::new();
    let throw = scaled.score_move(&start, 0).unwrap().unwrap();
    let exact_throw = exact.score_move(&start, 0).unwrap().unwrap();
    assert_eq!(throw.loss, 100.0 * exact_throw.loss);
    assert_eq!(throw.blunder, exact_throw.changed_outcome || throw.loss >= 150.0);
}

#[test]
fn a_shallow_search_judge_finds_a_move_that_loses_nothing_everywhere() {
    for depth in 2..=4 {
        let mut judge = SearchJudge::new(PickEval, depth, 10.0, 5.0, 0).unwrap();
        for g in positions() {
            let verdicts: Vec<Verdict> =
                legal(&g).into_iter().map(|m| judge.score_move(&g, m).unwrap().unwrap()).collect();
            assert!(verdicts.iter().all(|v| v.loss >= 0.0), "{g:?}");
            let least = verdicts.iter().map(|v| v.loss).fold(f64::INFINITY, f64::min);
            assert_eq!(least, 0.0, "depth {depth}, {g:?}: {verdicts:?}");
            assert!(verdicts.iter().all(|v| v.blunder == (v.changed_outcome || v.loss >= 5.0)));
        }
    }
}

#[test]
fn bad_judge_parameters_are_refused() {
    let bad = |r: Result<SearchJudge<Pick, PickEval>, JudgeError>, name: &str| match r {
        Err(JudgeError::Parameter { name: n, .. }) => assert_eq!(n, name),
        other => panic!("{other:?}"),
    };
    bad(SearchJudge::new(PickEval, 0, 1.0, 1.0, 0), "depth");
    bad(SearchJudge::new(PickEval, 1, 1.0, 1.0, 0), "depth");
    bad(SearchJudge::new(PickEval, 2, 0.0, 1.0, 0), "win value");
    bad(SearchJudge::new(PickEval, 2, f64::INFINITY, 1.0, 0), "win value");
    bad(SearchJudge::new(PickEval, 2, 1.0, f64::NAN, 0), "blunder threshold");
    bad(SearchJudge::new(PickEval, 2, 1.0, -1.0, 0), "blunder threshold");
    assert!(SearchTruth::new(PickEval, 0, 1.0, 1.0).is_err());
    let truth = SearchTruth::new(PickEval, 4, 100.0, 10.0).unwrap();
    let level = LossLevel { setting: "x".into(), elo: 0.0, spec: "random".into() };
    let info = GroundTruth::<Pick>::info(&truth, &level);
    assert_eq!(info.buckets, vec![0.0, 0.1, 1.0, 10.0, 200.0]);
    assert_eq!(info.description, "alphabeta:depth=4, clamped to ±100");
}

/// Counts the cells each run plans and plays.
#[derive(Default)]
struct Count {
    planned: AtomicUsize,
    played: AtomicUsize,
}

impl RunObserver for Count {
    fn planned(&self, to_run: usize, _total: usize) {
        self.planned.store(to_run, Ordering::Relaxed);
    }
    fn cell_finished(&self, _job: &str, _cell: &str, _summary: Option<&str>) {
        self.played.fetch_add(1, Ordering::Relaxed);
    }
}

fn on_threads(threads: usize, run: impl FnOnce() -> Vec<LossProfile> + Send) -> Vec<LossProfile> {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(run)
}

#[test]
fn profiles_are_reproducible_and_the_same_on_one_thread_and_two() {
    let (setup, calibration) = (setup(), calibration());
    let truth = ExactTruth::new();
    let run = |seed: u64, dir: &Path| loss_profiles(&setup, &calibration, &truth, &config(seed, dir), &()).unwrap();
    let (one, two, other) = (fresh("one"), fresh("two"), fresh("other"));
    let a = on_threads(1, || run(5, &one));
    let b = on_threads(2, || run(5, &two));
    assert_eq!(a, b);
    assert_ne!(a, run(6, &other), "another seed plays other games");
    // The default levels, spread over the range, the top the greedy one.
    assert_eq!(a.len(), 8);
    assert!(a.windows(2).all(|w| w[0].elo < w[1].elo));
    assert_eq!((a[0].setting.as_str(), a[7].setting.as_str()), ("elo:15", "elo:300"));
    assert_eq!(a[7].spec, "alphabeta:depth=2");
    for p in &a {
        assert!(p.moves > 0 && p.moves <= 6 * 5, "{p:?}");
        assert_eq!(p.histogram.iter().map(|h| h.1).sum::<u64>(), p.moves);
        assert_eq!(p.unit, "outcome classes");
        assert!(
            p.note.ends_with("Both sides of 6 self-play games from balanced random openings (the calibration's kind).")
        );
    }
    assert!(a[0].mean_loss > 0.0, "random play throws games: {:?}", a[0]);
    // Greedy at depth 2 takes the largest item: it never loses anything.
    assert_eq!((a[7].mean_loss, a[7].blunder_rate), (0.0, 0.0));
    let mut with = calibration.clone();
    with.losses = a.clone();
    let table = losses_table(&with);
    assert!(table.contains("| `elo:300` | 300 | `alphabeta:depth=2` |"), "{table}");
    assert_eq!(table.matches("Unit: outcome classes.").count(), 1, "{table}");
    assert_eq!(losses_table(&calibration), "");
    for dir in [one, two, other] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_resumed_run_replays_no_finished_cell() {
    let (setup, calibration) = (setup(), calibration());
    let truth = ExactTruth::new();
    let dir = fresh("resume");
    let run = |config: &LossConfig, count: &Count| loss_profiles(&setup, &calibration, &truth, config, count).unwrap();
    let first_count = Count::default();
    let first = run(&config(3, &dir), &first_count);
    // 8 levels of 6 games, 2 a cell.
    assert_eq!(first_count.played.load(Ordering::Relaxed), 24);
    let again = Count::default();
    assert_eq!(run(&config(3, &dir), &again), first);
    assert_eq!((again.planned.load(Ordering::Relaxed), again.played.load(Ordering::Relaxed)), (0, 0));
    // A lost cell is played again, and only it.
    std::fs::remove_file(dir.join("cells/pick-loss03/games-000002-000004.json")).unwrap();
    let repair = Count::default();
    assert_eq!(run(&config(3, &dir), &repair), first);
    assert_eq!(repair.played.load(Ordering::Relaxed), 1);
    // More games per level play only the new cells.
    let grown = Count::default();
    let more = run(&LossConfig { games: 8, ..config(3, &dir) }, &grown);
    assert_eq!(grown.played.load(Ordering::Relaxed), 8);
    assert!(more.iter().zip(&first).all(|(m, f)| m.moves >= f.moves));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn shards_together_give_the_whole_run() {
    let (setup, calibration) = (setup(), calibration());
    let truth = ExactTruth::new();
    let whole = fresh("whole");
    let expected = loss_profiles(&setup, &calibration, &truth, &config(9, &whole), &()).unwrap();
    let sharded = fresh("sharded");
    let share = |i: usize| LossConfig { shard: Some(Shard::new(i, 2).unwrap()), ..config(9, &sharded) };
    match loss_profiles(&setup, &calibration, &truth, &share(0), &()) {
        Err(LossError::Incomplete { missing, .. }) => assert_eq!(missing, 12),
        other => panic!("{other:?}"),
    }
    assert_eq!(loss_profiles(&setup, &calibration, &truth, &share(1), &()).unwrap(), expected);
    for dir in [whole, sharded] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Exact values, but only for moves with at most three items left (as a
/// solver too slow for the opening would).
struct LateExact;

impl MoveJudge<Pick> for Late {
    fn score_move(&mut self, position: &Pick, mv: u8) -> Result<Option<Verdict>, JudgeError> {
        if position.left.count_ones() > 3 {
            return Ok(None);
        }
        self.0.score_move(position, mv)
    }
}

struct Late(ExactJudge<Pick>);

impl GroundTruth<Pick> for LateExact {
    fn info(&self, _level: &LossLevel) -> JudgeInfo {
        JudgeInfo {
            description: "late exact values".into(),
            note: "Late moves only.".into(),
            unit: "outcome classes".into(),
            buckets: vec![0.0, 1.0, 2.0],
        }
    }
    fn judge(&self, _level: &LossLevel) -> Result<Box<dyn MoveJudge<Pick>>, JudgeError> {
        Ok(Box::new(Late(ExactJudge::new())))
    }
}

/// A judge that fails on the third move of every game.
struct Failing;

impl GroundTruth<Pick> for Failing {
    fn info(&self, _level: &LossLevel) -> JudgeInfo {
        JudgeInfo { description: "failing".into(), note: String::new(), unit: String::new(), buckets: vec![0.0] }
    }
    fn judge(&self, _level: &LossLevel) -> Result<Box<dyn MoveJudge<Pick>>, JudgeError> {
        struct Judge;
        impl MoveJudge<Pick> for Judge {
            fn score_move(&mut self, position: &Pick, _mv: u8) -> Result<Option<Verdict>, JudgeError> {
                if position.left.count_ones() == 4 {
                    return Err(JudgeError::failed("the engine died"));
                }
                Ok(Some(Verdict { loss: 0.0, changed_outcome: false, blunder: false }))
            }
        }
        Ok(Box::new(Judge))
    }
}

#[test]
fn a_callers_judge_scores_through_the_trait_and_its_failures_are_reported() {
    let (setup, calibration) = (setup(), calibration());
    let dir = fresh("late");
    let config = LossConfig { levels: vec![0.0, 1.0], ..config(4, &dir) };
    let late = loss_profiles(&setup, &calibration, &LateExact, &config, &()).unwrap();
    // The opening took one item: of the five moves left, the last three are scored.
    assert_eq!(late.iter().map(|p| p.moves).collect::<Vec<_>>(), vec![18, 18]);
    assert!(late[0].note.starts_with("Late moves only. Both sides of 6"), "{}", late[0].note);
    let dir2 = fresh("failing");
    let err = loss_profiles(&setup, &calibration, &Failing, &LossConfig { out: dir2.clone(), ..config }, &())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("pick-loss00/games-000000-000002: game 0, opening ") && err.contains("the engine died"),
        "{err}"
    );
    for d in [dir, dir2] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn reference_players_are_profiled_after_the_dial() {
    let (setup, calibration) = (setup(), calibration());
    let dir = fresh("references");
    let perfect = LossLevel { setting: "perfect".into(), elo: 400.0, spec: "alphabeta:depth=6".into() };
    let config = LossConfig {
        levels: vec![0.5],
        references: Some(ReferenceLevels {
            levels: vec![perfect],
            prefix: "refloss".into(),
            note: "A reference.".into(),
        }),
        ..config(2, &dir)
    };
    let profiles = loss_profiles(&setup, &calibration, &ExactTruth::new(), &config, &()).unwrap();
    assert_eq!(profiles.iter().map(|p| p.setting.as_str()).collect::<Vec<_>>(), vec!["elo:150", "perfect"]);
    assert_eq!((profiles[1].mean_loss, profiles[1].spec.as_str()), (0.0, "alphabeta:depth=6"));
    assert!(profiles[1].note.ends_with("(the calibration's kind). A reference."), "{}", profiles[1].note);
    assert!(!profiles[0].note.contains("A reference."));
    assert!(dir.join("cells/pick-loss00").is_dir() && dir.join("cells/pick-refloss00").is_dir());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_is_refused_before_anything_is_played() {
    let (setup, calibration) = (setup(), calibration());
    let dir = fresh("bad");
    let truth = ExactTruth::new();
    let run = |config: LossConfig| loss_profiles(&setup, &calibration, &truth, &config, &());
    assert!(matches!(run(LossConfig { levels: vec![], ..config(1, &dir) }), Err(LossError::NoLevels)));
    for bad in [1.5, -0.1] {
        match run(LossConfig { levels: vec![0.5, bad], ..config(1, &dir) }) {
            Err(LossError::BadLevel(l)) => assert_eq!(l, bad),
            other => panic!("{other:?}"),
        }
    }
    let nan = run(LossConfig { levels: vec![f64::NAN], ..config(1, &dir) });
    assert!(matches!(nan, Err(LossError::BadLevel(l)) if l.is_nan()), "{nan:?}");
    assert!(matches!(run(LossConfig { games: 0, ..config(1, &dir) }), Err(LossError::NoGames("level"))));
    assert!(matches!(run(LossConfig { games_per_cell: 0, ..config(1, &dir) }), Err(LossError::NoGames("cell"))));
    let err = run(LossConfig {
        references: Some(ReferenceLevels {
            levels: vec![LossLevel { setting: "x".into(), elo: 0.0, spec: "nosuchagent".into() }],
            prefix: "r".into(),
            note: String::new(),
        }),
        ..config(1, &dir)
    });
    assert!(matches!(err, Err(LossError::Setup(_))), "{err:?}");
    let other = Calibration { game: "nim".into(), ..calibration.clone() };
    assert!(matches!(
        loss_profiles(&setup, &other, &truth, &config(1, &dir), &()),
        Err(LossError::WrongGame { setup, calibration }) if setup == "pick" && calibration == "nim"
    ));
    let empty = Calibration { game: "pick".into(), ..Calibration::default() };
    assert!(matches!(loss_profiles(&setup, &empty, &truth, &config(1, &dir), &()), Err(LossError::Dial(_))));
    assert!(!dir.exists(), "nothing was written");
    let dial = strength::dial::Dial::new(calibration.clone()).unwrap();
    assert!(matches!(dial_levels(&dial, &[]), Err(LossError::NoLevels)));
    // Levels that round to the same Elo are one level.
    let levels = dial_levels(&dial, &[0.5, 0.501, 1.0]).unwrap();
    assert_eq!(levels.iter().map(|l| l.setting.as_str()).collect::<Vec<_>>(), vec!["elo:150", "elo:300"]);
}

#[test]
fn profile_statistics() {
    let level = LossLevel { setting: "elo:1".into(), elo: 1.0, spec: "random".into() };
    let verdicts: Vec<Verdict> = [0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 7.0, 0.0, 0.0, 20.0]
        .iter()
        .map(|&loss| Verdict { loss, changed_outcome: loss > 5.0, blunder: loss > 5.0 })
        .collect();
    let p = profile(&level, &verdicts, "solver score", &[0.0, 2.0, 6.0, 12.0, 42.0], "n");
    assert_eq!(p.moves, 10);
    assert!((p.mean_loss - 3.3).abs() < 1e-12);
    assert_eq!((p.median_loss, p.p90_loss, p.max_loss), (0.0, 7.0, 20.0));
    assert_eq!((p.blunder_rate, p.outcome_change_rate), (0.2, 0.2));
    assert_eq!(p.histogram, vec![(0.0, 5), (2.0, 2), (6.0, 1), (12.0, 1), (42.0, 1)]);
    let empty = profile(&level, &[], "solver score", &[0.0, 2.0], "");
    assert_eq!((empty.moves, empty.mean_loss, empty.blunder_rate), (0, 0.0, 0.0));
    assert!(profile(&level, &verdicts, "", &[], "").histogram.is_empty());
}
