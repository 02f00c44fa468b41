//! Connect-4 alpha-beta side by side with the `minimax` crate (minimax-rs).
//!
//! Both libraries search the same game (our `games_small::Connect4` 7 × 6
//! bitboard, moves in its centre-first order) with the same evaluator (our
//! `Connect4Eval`, wrapped for minimax-rs) and the same transposition-table
//! byte budget. Two pairs of drivers are compared:
//!
//! - `negamax`: our `Options::plain_alpha_beta()` (fail-soft alpha-beta in the
//!   game's order, nothing else) against `minimax::Negamax`;
//! - `iterative`: our iterative deepening with a table, PVS and the game's
//!   generation order (centre-first; killers, history, quiescence and
//!   aspiration off: minimax-rs's defaults have none of them) against `minimax::IterativeSearch` with its
//!   default options (table, PVS) and the same table size.
//!
//! The runs are interleaved (ours, theirs, ours, theirs, …), each run with a
//! fresh search whose construction (table allocation) is outside the timing.
//! Same work is checked, not assumed: the root values must agree (see
//! [`their_value`] for the terminal-score conventions) and the node counts
//! are printed next to the times.
//!
//! # Making minimax-rs deterministic
//!
//! minimax-rs shuffles the root moves with an unseeded thread RNG, so its node
//! counts would vary from run to run. The adapter therefore starts it one ply
//! above the position, at a synthetic node ([`Node::pre_root`]) whose only move
//! leads to the position, and asks for one ply more. The position is then
//! searched by minimax-rs's ordinary interior-node alpha-beta, in our move
//! order, with the full window; the synthetic node costs one move generation.
//!
//! # Output
//!
//! Machine-readable, tab-separated lines on standard output (parsed by
//! `cargo xtask bench`), a human summary on standard error:
//!
//! ```text
//! case   ID  DESCRIPTION
//! work   ID  OUR_NODES  THEIR_NODES  EQUAL_VALUES  POSITIONS
//! sample ID  PAIR  OUR_NANOS  THEIR_NANOS
//! ```
//!
//! Usage: `cargo run --release -p benches --example side_by_side -- [--depths 8,10]
//! [--pairs 5] [--positions 20] [--seed 1] [--tt-mib 16] [--drivers negamax,iterative]
//! [--only ours|theirs]` (`--only` runs one side, for profiling).

use std::cell::Cell;
use std::process::ExitCode;
use std::time::Instant;

use games_small::{Connect4, Connect4Eval};
use minimax::{Evaluation, IterativeOptions, IterativeSearch, Negamax, Strategy, Winner};
use search_core::backup::Minimax;
use search_core::rng::derive_seed;
use search_core::search::{Limits, Options, Search, TtDepth};
use search_core::{Evaluator, Game, MAX_PLY, Outcome, Status, WIN_SCORE};

/// The move of the synthetic pre-root node (no column has this index).
const ENTER: u8 = u8::MAX;

/// Mixed into the pre-root's hash so that it differs from the position's.
const PRE_ROOT_HASH: u64 = 0x9e37_79b9_7f4a_7c15;

/// A minimax-rs state: our board, or the synthetic node one ply above it.
#[derive(Debug, Clone, Copy)]
struct Node {
    board: Connect4,
    /// The synthetic node whose only move ([`ENTER`]) leads to `board`.
    pre_root: bool,
}

thread_local! {
    /// Moves applied by [`C4<true>`]: the node count of a `Negamax` run
    /// (minimax-rs exposes none for it).
    static APPLIED: Cell<u64> = const { Cell::new(0) };
}

/// Our connect-4 as a minimax-rs game. `COUNT` counts applied moves; the
/// timed runs use `C4<false>`, which counts nothing.
#[derive(Debug)]
struct C4<const COUNT: bool>;

impl<const COUNT: bool> minimax::Game for C4<COUNT> {
    type S = Node;
    type M = u8;

    fn generate_moves(s: &Node, moves: &mut Vec<u8>) -> Option<Winner> {
        if s.pre_root {
            moves.push(ENTER);
            return None;
        }
        match s.board.generate(moves) {
            Status::Ongoing => None,
            Status::Over(outcome) => Some(winner(outcome)),
        }
    }

    /// Copy-make, as our search core does.
    fn apply(s: &mut Node, m: u8) -> Option<Node> {
        if COUNT {
            APPLIED.with(|n| n.set(n.get() + 1));
        }
        let mut board = s.board;
        if !s.pre_root {
            board.play(m);
        }
        Some(Node { board, pre_root: false })
    }

    fn get_winner(s: &Node) -> Option<Winner> {
        if s.pre_root {
            None
        } else if s.board.winner().is_some() {
            Some(Winner::PlayerJustMoved)
        } else if s.board.is_full() {
            Some(Winner::Draw)
        } else {
            None
        }
    }

    fn zobrist_hash(s: &Node) -> u64 {
        let h = s.board.hash_key().expect("connect-4 has a hash");
        if s.pre_root { h ^ PRE_ROOT_HASH } else { h }
    }
}

/// A finished connect-4 game as minimax-rs sees it (the player to move never
/// wins: the last disc made the four).
fn winner(outcome: Outcome) -> Winner {
    match outcome {
        Outcome::Win(_) => Winner::PlayerJustMoved,
        Outcome::Draw | Outcome::Payoff(_) => Winner::Draw,
    }
}

/// Our `Connect4Eval` as a minimax-rs evaluator: the same values, from the
/// side to move's point of view, as minimax-rs's `i16` (they are integers
/// well inside its range).
#[derive(Debug, Clone, Copy)]
struct Wrapped<const COUNT: bool>(Connect4Eval);

impl<const COUNT: bool> minimax::Evaluator for Wrapped<COUNT> {
    type G = C4<COUNT>;

    fn evaluate(&self, s: &Node) -> Evaluation {
        let v = self.0.evaluate_for(&s.board, s.board.to_move());
        debug_assert!(v.fract() == 0.0 && v.abs() < 1000.0, "{v}");
        v as Evaluation
    }
}

/// Our root value in minimax-rs's convention, for comparison.
///
/// minimax-rs scores a lost terminal `WORST_EVAL = −i16::MAX` and moves values
/// near ±`i16::MAX` one step towards 0 per ply (so quicker wins score higher);
/// its `root_value` undoes that and reports any win as `BEST_EVAL`. We score
/// a win `WIN_SCORE − ply`. Both are monotone in the distance to the end, so
/// they order every pair of values alike and the searches visit the same
/// nodes; only the printed numbers differ. Heuristic values are the same
/// integers on both sides.
fn their_value(ours: f64) -> Evaluation {
    if ours.abs() >= WIN_SCORE - f64::from(MAX_PLY) {
        if ours > 0.0 { minimax::BEST_EVAL } else { minimax::WORST_EVAL }
    } else {
        ours as Evaluation
    }
}

/// `count` positions reached by 10–16 random legal plies from the empty board
/// (a SplitMix64 stream from `seed`), skipping finished games and positions
/// whose depth-`filter_depth` value is a proven win or loss (minimax-rs's
/// iterative deepening stops at a proven win and ours does not, which would
/// compare different work).
fn mid_game_positions(count: usize, seed: u64, filter_depth: u32) -> Vec<Connect4> {
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let mut stream = 0u64;
    let mut next = || {
        stream += 1;
        derive_seed(seed, stream)
    };
    let mut filter = Search::new(Minimax, Connect4Eval::default(), iterative_options(16)).expect("valid options");
    let filter_limits = Limits::depth(filter_depth);
    while out.len() < count {
        let plies = 10 + next() % 7;
        let mut board = Connect4::standard();
        let mut finished = false;
        for _ in 0..plies {
            moves.clear();
            if let Status::Over(_) = board.generate(&mut moves) {
                finished = true;
                break;
            }
            board.play(moves[(next() % moves.len() as u64) as usize]);
        }
        if finished || board.status() != Status::Ongoing {
            continue;
        }
        filter.clear();
        let value = filter.run(&board, &filter_limits).expect("the game goes on").value.expect("complete");
        if value.abs() < WIN_SCORE - f64::from(MAX_PLY) {
            out.push(board);
        }
    }
    out
}

/// Our side of the `iterative` comparison (see the module documentation).
/// Table entries of at least the remaining depth give values, as in
/// minimax-rs.
fn iterative_options(tt_mib: usize) -> Options {
    // The generator already emits the centre-first order that the hints
    // describe; minimax-rs searches in that order too (no game ordering).
    Options::full_width()
        .with_alpha_beta(true)
        .with_iterative_deepening(true)
        .with_table_mib(tt_mib)
        .with_tt_depth(TtDepth::AtLeast)
        .with_pvs(true)
        .with_game_ordering(false)
}

/// Which drivers are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Driver {
    Negamax,
    Iterative,
}

impl Driver {
    fn name(self) -> &'static str {
        match self {
            Driver::Negamax => "negamax",
            Driver::Iterative => "iterative",
        }
    }
}

/// One search by each side on one position: value, nodes, time.
#[derive(Debug, Clone, Copy)]
struct Run {
    value: Evaluation,
    nodes: u64,
    nanos: u64,
}

fn ours(driver: Driver, board: &Connect4, depth: u32, tt_mib: usize) -> Run {
    let options = match driver {
        Driver::Negamax => Options::plain_alpha_beta(),
        Driver::Iterative => iterative_options(tt_mib),
    };
    let mut search = Search::new(Minimax, Connect4Eval::default(), options).expect("valid options");
    let limits = Limits::depth(depth);
    let start = Instant::now();
    let r = search.run(board, &limits).expect("the game goes on");
    let nanos = start.elapsed().as_nanos() as u64;
    Run { value: their_value(r.value.expect("complete")), nodes: r.stats.nodes, nanos }
}

/// minimax-rs's run; `count` also counts a `Negamax` run's nodes (an extra,
/// untimed run), otherwise its node count is reported as 0.
fn theirs(driver: Driver, board: &Connect4, depth: u32, tt_mib: usize, count: bool) -> Run {
    let node = Node { board: *board, pre_root: true };
    // One ply more: the synthetic pre-root is above the position.
    let plies = depth as u8 + 1;
    let eval = Wrapped::<false>(Connect4Eval::default());
    match driver {
        Driver::Negamax => {
            let mut s = Negamax::new(eval, plies);
            let start = Instant::now();
            s.choose_move(&node).expect("the game goes on");
            let nanos = start.elapsed().as_nanos() as u64;
            // Its value is the pre-root's: the negation of the position's.
            let nodes = if count { count_negamax(board, depth) } else { 0 };
            Run { value: -s.root_value(), nodes, nanos }
        }
        Driver::Iterative => {
            let opts = IterativeOptions::new().with_table_byte_size(tt_mib << 20);
            let mut s = IterativeSearch::new(eval, opts);
            s.set_max_depth(plies);
            let start = Instant::now();
            s.choose_move(&node).expect("the game goes on");
            let nanos = start.elapsed().as_nanos() as u64;
            let nodes = explored_nodes(&s.stats(&mut node.clone()));
            Run { value: -s.root_value(), nodes, nanos }
        }
    }
}

/// The nodes of a `Negamax` search of `board` (the position and every node
/// below it), counted by an untimed run of the counting adapter.
fn count_negamax(board: &Connect4, depth: u32) -> u64 {
    let node = Node { board: *board, pre_root: true };
    let mut s = Negamax::new(Wrapped::<true>(Connect4Eval::default()), depth as u8 + 1);
    APPLIED.with(|n| n.set(0));
    s.choose_move(&node);
    // The first applied move enters the position: it is the position's node.
    APPLIED.with(Cell::get)
}

/// The node count in `IterativeSearch::stats`'s summary ("Explored N nodes to
/// depth D."): every node below the pre-root, every iteration.
fn explored_nodes(summary: &str) -> u64 {
    summary
        .split_once("Explored ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("IterativeSearch::stats reports the nodes explored")
}

/// Command-line settings.
#[derive(Debug)]
struct Settings {
    depths: Vec<u32>,
    pairs: usize,
    positions: usize,
    seed: u64,
    tt_mib: usize,
    drivers: Vec<Driver>,
    /// Run only one side (for profiling one library with `perf`); the
    /// other side's samples are then 0.
    only: Option<Side>,
}

/// One of the two libraries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Ours,
    Theirs,
}

fn parse_args() -> Result<Settings, String> {
    let mut s = Settings {
        depths: vec![8, 10],
        pairs: 5,
        positions: 20,
        seed: 1,
        tt_mib: 16,
        drivers: vec![Driver::Negamax, Driver::Iterative],
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: std::num::ParseIntError| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--depths" => {
                s.depths = value.split(',').map(str::parse).collect::<Result<_, _>>().map_err(bad)?;
            }
            "--pairs" => s.pairs = value.parse().map_err(bad)?,
            "--positions" => s.positions = value.parse().map_err(bad)?,
            "--seed" => s.seed = value.parse().map_err(bad)?,
            "--tt-mib" => s.tt_mib = value.parse().map_err(bad)?,
            "--drivers" => {
                s.drivers = value
                    .split(',')
                    .map(|d| match d {
                        "negamax" => Ok(Driver::Negamax),
                        "iterative" => Ok(Driver::Iterative),
                        other => Err(format!("unknown driver {other:?}")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--only" => {
                s.only = Some(match value.as_str() {
                    "ours" => Side::Ours,
                    "theirs" => Side::Theirs,
                    other => return Err(format!("--only {other:?}: expected ours or theirs")),
                });
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if s.depths.iter().any(|&d| d == 0 || d >= 250) || s.pairs == 0 {
        return Err("depths must be in 1..250 and pairs at least 1".into());
    }
    Ok(s)
}

fn main() -> ExitCode {
    let settings = match parse_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("side_by_side: {e}");
            return ExitCode::FAILURE;
        }
    };
    let max_depth = settings.depths.iter().copied().max().unwrap_or(1);
    let mid = mid_game_positions(settings.positions, settings.seed, max_depth);
    let sets: [(&str, Vec<Connect4>); 2] = [("start", vec![Connect4::standard()]), ("mid", mid)];
    let mut all_equal = true;
    for &depth in &settings.depths {
        for &driver in &settings.drivers {
            for (set, boards) in &sets {
                if boards.is_empty() {
                    continue;
                }
                let id = format!("{}/{set}/d{depth}", driver.name());
                println!("case\t{id}\tconnect-4 7x6, {} position(s), depth {depth}", boards.len());
                let mut work = None;
                for pair in 0..settings.pairs {
                    let (mut a, mut b) = (0, 0);
                    let (mut na, mut nb, mut equal) = (0, 0, 0);
                    for board in boards {
                        let skipped = Run { value: 0, nodes: 0, nanos: 0 };
                        let x = match settings.only {
                            Some(Side::Theirs) => skipped,
                            _ => ours(driver, board, depth, settings.tt_mib),
                        };
                        let y = match settings.only {
                            Some(Side::Ours) => skipped,
                            _ => theirs(driver, board, depth, settings.tt_mib, pair == 0),
                        };
                        a += x.nanos;
                        b += y.nanos;
                        na += x.nodes;
                        nb += y.nodes;
                        equal += usize::from(x.value == y.value);
                        if x.value != y.value && pair == 0 {
                            eprintln!(
                                "{id}: root values differ on {}: ours {}, theirs {}",
                                board.moves_string().unwrap_or_default(),
                                x.value,
                                y.value
                            );
                        }
                    }
                    println!("sample\t{id}\t{pair}\t{a}\t{b}");
                    if work.is_none() {
                        work = Some((na, nb, equal));
                    }
                }
                let (na, nb, equal) = work.expect("at least one pair");
                all_equal &= equal == boards.len();
                println!("work\t{id}\t{na}\t{nb}\t{equal}\t{}", boards.len());
                eprintln!("{id}: nodes ours {na}, theirs {nb}; equal root values {equal}/{}", boards.len());
            }
        }
    }
    if all_equal { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
