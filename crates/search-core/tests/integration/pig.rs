//! Expectiminimax on a real game with dice: a small Pig, written here, with
//! an independent brute-force reference. Full width, alpha-beta with Star1
//! and with Star2 must all give the reference's value at every depth, in
//! both depth conventions (only decisions count, OpenSpiel's; or every
//! ply, chance nodes included), and the Star searches must never visit
//! more nodes than full width.

use search_core::backup::Minimax;
use search_core::search::{DepthUnit, Limits, Options, Search, Star};
use search_core::{Evaluator, Game, Outcome, Perspective, Player, Status, Turn};

/// A move of Pig: roll the die or bank the turn total; at a chance node,
/// the face that came up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum PigMove {
    Roll,
    Hold,
    Face(u8),
}

/// Pig with a die of `sides` faces and a target of `target` points. On
/// their turn a player rolls as long as they like: a 1 loses the turn total
/// and ends the turn, any other face adds to it; holding banks it and ends
/// the turn. A turn starts with a roll (holding nothing is not a move).
/// Whoever reaches the target (banked score plus turn total) wins at once.
#[derive(Clone, Copy, Debug)]
struct Pig {
    sides: u8,
    target: u8,
    scores: [u8; 2],
    turn_total: u8,
    to_move: Player,
    /// The die is rolling: a chance node.
    rolling: bool,
}

impl Pig {
    fn new(sides: u8, target: u8) -> Pig {
        Pig { sides, target, scores: [0, 0], turn_total: 0, to_move: Player::First, rolling: false }
    }

    /// A position in the middle of a game: `to_move` has banked
    /// `scores[to_move]` and holds `turn_total` this turn.
    fn at(sides: u8, target: u8, scores: [u8; 2], turn_total: u8, to_move: Player) -> Pig {
        Pig { scores, turn_total, to_move, ..Pig::new(sides, target) }
    }

    /// `player`'s points, the turn total included if it is their turn.
    fn points(&self, player: Player) -> u8 {
        let pending = if self.to_move == player { self.turn_total } else { 0 };
        self.scores[player.index()] + pending
    }
}

impl Game for Pig {
    type Move = PigMove;

    fn turn(&self) -> Turn {
        if self.rolling { Turn::Chance } else { Turn::Player(self.to_move) }
    }

    fn generate(&self, moves: &mut Vec<PigMove>) -> Status {
        for p in [Player::First, Player::Second] {
            if self.scores[p.index()] >= self.target {
                return Status::Over(Outcome::Win(p));
            }
        }
        if self.rolling {
            moves.extend((1..=self.sides).map(PigMove::Face));
        } else {
            moves.push(PigMove::Roll);
            if self.turn_total > 0 {
                moves.push(PigMove::Hold);
            }
        }
        Status::Ongoing
    }

    fn play(&mut self, mv: PigMove) {
        let me = self.to_move.index();
        match mv {
            PigMove::Roll => self.rolling = true,
            PigMove::Hold => {
                self.scores[me] += self.turn_total;
                self.turn_total = 0;
                self.to_move = self.to_move.opponent();
            }
            PigMove::Face(1) => {
                self.rolling = false;
                self.turn_total = 0;
                self.to_move = self.to_move.opponent();
            }
            PigMove::Face(face) => {
                self.rolling = false;
                self.turn_total += face;
                if self.scores[me] + self.turn_total >= self.target {
                    // Reaching the target wins: bank it at once.
                    self.scores[me] += self.turn_total;
                    self.turn_total = 0;
                }
            }
        }
    }

    fn chance_probabilities(&self, outcomes: &[PigMove], probs: &mut Vec<f64>) {
        probs.extend(outcomes.iter().map(|_| 1.0 / f64::from(self.sides)));
    }
}

/// The difference of the players' points (turn total included), scaled
/// into `(−0.9, 0.9)`; a win is worth 1. Every value lies within `[−1, 1]`,
/// which Star1 and Star2 need to know.
#[derive(Clone, Copy, Debug)]
struct PigEval;

impl Evaluator<Pig> for PigEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, s: &Pig) -> f64 {
        let diff = f64::from(s.points(Player::First)) - f64::from(s.points(Player::Second));
        0.9 * diff / f64::from(s.target)
    }

    fn terminal_value(&self, outcome: Outcome, player: Player, _ply: u32) -> f64 {
        outcome.value_for(player, 1.0)
    }

    fn bounds(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }
}

/// Independent brute-force expectiminimax, first player's view, by plain
/// recursion. A finished game is worth ±1; at depth 0 any other node
/// (chance nodes included) takes its static value. Player nodes use one
/// unit of depth; chance nodes use one too only if `plies` (else they are
/// free: OpenSpiel's convention). The die is fair: each face 1/sides.
fn reference(s: &Pig, depth: u32, plies: bool) -> f64 {
    let mut moves = Vec::new();
    match s.generate(&mut moves) {
        Status::Over(Outcome::Win(p)) => p.sign(),
        Status::Over(other) => panic!("Pig ends with a win, not {other:?}"),
        Status::Ongoing if depth == 0 => PigEval.evaluate(s),
        Status::Ongoing => {
            let child = |mv: PigMove| {
                let mut c = *s;
                c.play(mv);
                c
            };
            match s.turn() {
                Turn::Player(p) => {
                    let values = moves.iter().map(|&mv| reference(&child(mv), depth - 1, plies));
                    match p {
                        Player::First => values.fold(f64::NEG_INFINITY, f64::max),
                        Player::Second => values.fold(f64::INFINITY, f64::min),
                    }
                }
                Turn::Chance => {
                    let below = if plies { depth - 1 } else { depth };
                    let p = 1.0 / f64::from(s.sides);
                    moves.iter().map(|&mv| p * reference(&child(mv), below, plies)).sum()
                }
            }
        }
    }
}

/// The value of `start` from its mover's point of view.
fn reference_for_mover(start: &Pig, depth: u32, plies: bool) -> f64 {
    start.to_move.sign() * reference(start, depth, plies)
}

/// The searches compared: full width; alpha-beta with Star1 and with Star2
/// in one iteration to the depth (node counts comparable with full
/// width's); and the same with the whole engine (iterative deepening, whose
/// node counts include every iteration). PVS, killers and history are on
/// throughout; Pig has no hash keys, so no table.
fn searches(unit: DepthUnit) -> [(&'static str, Options); 5] {
    let engine = Options::default().with_table_mib(0).with_depth_unit(unit);
    let one_iteration = engine.clone().with_iterative_deepening(false);
    [
        ("full width", Options::full_width().with_depth_unit(unit)),
        ("alpha-beta + Star1", one_iteration.clone().with_star(Star::Star1)),
        ("alpha-beta + Star2", one_iteration.with_star(Star::Star2)),
        ("deepening alpha-beta + Star1", engine.clone().with_star(Star::Star1)),
        ("deepening alpha-beta + Star2", engine.with_star(Star::Star2)),
    ]
}

/// Searches `start` to each depth with every search of [`searches`];
/// checks the values against the reference and that Star1 and Star2 (one
/// iteration) visit no more nodes than full width; returns the node counts
/// `[full width, Star1, Star2]` per depth.
fn compare(start: &Pig, depths: std::ops::RangeInclusive<u32>, unit: DepthUnit) -> Vec<(u32, [u64; 3])> {
    let plies = unit == DepthUnit::Plies;
    let mut counts = Vec::new();
    for depth in depths {
        let expected = reference_for_mover(start, depth, plies);
        let mut nodes = [0u64; 5];
        for (k, (name, options)) in searches(unit).into_iter().enumerate() {
            let mut search = Search::new(Minimax, PigEval, options).unwrap();
            let r = search.run(start, &Limits::depth(depth)).unwrap();
            assert!(r.complete, "{name}, depth {depth}");
            let v = r.value.unwrap();
            assert!((v - expected).abs() < 1e-9, "{name}, {unit:?} depth {depth}: {v} vs {expected} at {start:?}");
            // The best move is a best move of the reference.
            let best = r.best.unwrap();
            let mut after = *start;
            after.play(best);
            let below = reference(&after, depth - 1, plies) * start.to_move.sign();
            assert!((below - expected).abs() < 1e-9, "{name}, depth {depth}: {best:?} is not a best move");
            if k == 0 {
                // Full width: every root move's score is its exact value.
                for m in &r.root_moves {
                    let mut c = *start;
                    c.play(m.mv);
                    let exact = reference(&c, depth - 1, plies) * start.to_move.sign();
                    assert!((m.score - exact).abs() < 1e-9, "depth {depth}, {:?}", m.mv);
                }
            }
            nodes[k] = r.stats.nodes;
        }
        assert!(nodes[1] <= nodes[0], "{unit:?} depth {depth}: Star1 visits more nodes than full width: {nodes:?}");
        assert!(nodes[2] <= nodes[0], "{unit:?} depth {depth}: Star2 visits more nodes than full width: {nodes:?}");
        counts.push((depth, [nodes[0], nodes[1], nodes[2]]));
    }
    counts
}

fn report(what: &str, counts: &[(u32, [u64; 3])]) {
    eprintln!("{what}");
    eprintln!("{:>5} {:>12} {:>12} {:>12}", "depth", "full width", "Star1", "Star2");
    for (depth, [full, star1, star2]) in counts {
        eprintln!("{depth:>5} {full:>12} {star1:>12} {star2:>12}");
    }
}

#[test]
fn the_game_is_pig() {
    let mut g = Pig::new(6, 10);
    let mut moves = Vec::new();
    assert_eq!(g.generate(&mut moves), Status::Ongoing);
    assert_eq!(moves, [PigMove::Roll], "a turn starts with a roll");
    g.play(PigMove::Roll);
    assert_eq!(g.turn(), Turn::Chance);
    moves.clear();
    g.generate(&mut moves);
    assert_eq!(moves.len(), 6);
    let mut probs = Vec::new();
    g.chance_probabilities(&moves, &mut probs);
    assert_eq!(probs, [1.0 / 6.0; 6]);
    g.play(PigMove::Face(5));
    assert_eq!((g.turn(), g.turn_total), (Turn::Player(Player::First), 5));
    g.play(PigMove::Hold);
    assert_eq!((g.scores, g.turn_total, g.to_move), ([5, 0], 0, Player::Second));
    g.play(PigMove::Roll);
    g.play(PigMove::Face(1));
    assert_eq!((g.scores, g.to_move), ([5, 0], Player::First), "a 1 ends the turn");
    g.play(PigMove::Roll);
    g.play(PigMove::Face(6));
    assert_eq!(g.status(), Status::Over(Outcome::Win(Player::First)), "11 points reach the target");
    assert!(PigEval.evaluate(&Pig::at(6, 10, [9, 0], 0, Player::First)) < 0.9);
}

#[test]
fn decision_depth_values_match_the_reference_and_star_prunes() {
    let start = Pig::new(6, 10);
    let counts = compare(&start, 1..=8, DepthUnit::Decisions);
    report("Pig (d6, target 10) from the start, depth in decisions (DepthUnit::Decisions): nodes", &counts);
    // Positions in the middle of a game, either player to move, where
    // wins and losses lie within the horizon.
    for start in [
        Pig::at(6, 10, [6, 8], 0, Player::First),
        Pig::at(6, 10, [7, 4], 2, Player::Second),
        Pig::at(4, 8, [5, 6], 1, Player::Second),
        Pig::at(3, 6, [2, 3], 0, Player::First),
    ] {
        let counts = compare(&start, 1..=6, DepthUnit::Decisions);
        report(&format!("{start:?}, DepthUnit::Decisions: nodes"), &counts);
    }
}

#[test]
fn ply_depth_values_match_the_reference_that_counts_chance_nodes() {
    let start = Pig::new(6, 10);
    let counts = compare(&start, 1..=12, DepthUnit::Plies);
    report("Pig (d6, target 10) from the start, depth in plies (DepthUnit::Plies): nodes", &counts);
    for start in [Pig::at(6, 10, [6, 8], 0, Player::First), Pig::at(4, 8, [5, 6], 1, Player::Second)] {
        compare(&start, 1..=9, DepthUnit::Plies);
    }
}

#[test]
fn the_two_depth_units_differ_on_pig() {
    // Depth 2 from the start: the first player must roll.
    let start = Pig::new(6, 10);
    let nodes = |unit| {
        Search::new(Minimax, PigEval, Options::full_width().with_depth_unit(unit))
            .unwrap()
            .run(&start, &Limits::depth(2))
            .unwrap()
            .stats
            .nodes
    };
    // Plies: the root, the roll's chance node, and its 6 faces at the
    // horizon.
    assert_eq!(nodes(DepthUnit::Plies), 8);
    // Decisions: the chance node is free, so the faces are decisions with
    // one unit left: after a 1 the opponent must roll (1 child), after any
    // other face the roller may roll again or hold (2 children).
    assert_eq!(nodes(DepthUnit::Decisions), 1 + 1 + 6 + 1 + 5 * 2);
}
