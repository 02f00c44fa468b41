//! Tests of the Rminimax paper's game experiments (moved from
//! `reproduce::experiments::rminimax`) and the alpha-beta subtree observer.

use std::collections::HashSet;

use games_small::{Connect4, Connect4Eval};
use rand::Rng as _;
use search_core::backup::rminimax::{OutcomeCosts, Rminimax, UtilityCosts};
use search_core::policy::rminimax_agent;
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, Status, WIN_SCORE, rng};

use experiments::reproduce::Experiment;
use experiments::reproduce::experiments::rminimax::Figure;
use experiments::reproduce::experiments::rminimax::figures::{
    HEURISTIC_BOUND, LOOKAHEAD, TreeSizes, board, connect4_cell, connect4_costs, pruned_distribution, tictactoe_cell,
    tictactoe_costs,
};
use experiments::reproduce::experiments::rminimax::pruned::{
    Subtree, alpha_beta_visited, child_code, kept_children, restricted_distribution,
};
use taskkit::{Row, Scale, row};

/// Positions of a seeded random playout of `plies` moves from the 4×4 board
/// (stopping early if the game ends), the start included.
fn playout(seed: u64, plies: usize) -> Vec<Connect4> {
    let mut r = rng::seeded(seed);
    let mut g = board().unwrap();
    let mut out = vec![g];
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        if let Status::Over(_) = g.generate(&mut moves) {
            break;
        }
        g.play(moves[r.random_range(0..moves.len())]);
        out.push(g);
    }
    out
}

/// Every path code of the restricted tree to the look-ahead depth, by a
/// depth-first walk of the game that keeps the recorded children of every
/// node (all of them if none is recorded), as the restricting observer does.
fn walk(g: &Connect4, code: u64, codes: &HashSet<u64>, depth: u32, out: &mut Vec<u64>) {
    out.push(code);
    let mut moves = Vec::new();
    if depth == 0 || g.generate(&mut moves) != Status::Ongoing {
        return;
    }
    let kept = kept_children(codes, code, &moves);
    let kept = if kept.is_empty() { moves.clone() } else { kept };
    for m in kept {
        let i = moves.iter().position(|&x| x == m).unwrap();
        let mut c = *g;
        c.play(m);
        walk(&c, child_code(code, i), codes, depth - 1, out);
    }
}

#[test]
fn fig2_cell_is_reproducible() {
    let costs = tictactoe_costs().unwrap();
    let a = tictactoe_cell(1.0, 5.0, 30, 11, costs).unwrap();
    let b = tictactoe_cell(1.0, 5.0, 30, 11, costs).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.wins1 + a.wins2 + a.draws, 30);
    assert!(a.positions[0] > 0 && a.positions[1] > 0);
}

#[test]
fn default_costs_prefer_a_quick_loss_to_a_late_draw() {
    // X in a corner: O draws only in the centre (cell 4). With win/draw/loss
    // 0/1/2 and a unit cost per play, a loss after 6 plies (7) is cheaper
    // than a draw after 9 (9), so a strong Rminimax O (θ = 10) puts most of
    // its probability on losing moves; with the experiment's 0/10/20 it
    // plays the centre.
    let g = games_small::TicTacToe::from_moves("a1").unwrap();
    let dist = |costs| {
        let mut a = rminimax_agent(10.0, costs, search_core::OutcomeOnly::default(), Limits::full_tree()).unwrap();
        a.distribution(&g).unwrap()
    };
    let centre = |d: &[(u8, f64)]| d.iter().find(|m| m.0 == 4).unwrap().1;
    let default = dist(OutcomeCosts::default());
    assert!(centre(&default) < 0.25, "{default:?}");
    assert!(default.iter().any(|m| m.1 > centre(&default)), "{default:?}");
    assert!(centre(&dist(tictactoe_costs().unwrap())) > 0.99);
}

#[test]
fn connect4_cells_are_reproducible_and_complete() {
    let a = connect4_cell(0.1, 10.0, 20, 5).unwrap();
    assert_eq!(a, connect4_cell(0.1, 10.0, 20, 5).unwrap());
    assert_eq!(a.wins1 + a.wins2 + a.draws, 20);
}

#[test]
fn heuristic_bound_holds_on_4x4() {
    let e = Connect4Eval::default();
    for seed in 0..200 {
        for g in playout(seed, 16) {
            let h = e.evaluate(&g);
            assert!(h.abs() <= HEURISTIC_BOUND, "{h} at {g:?}");
        }
    }
}

#[test]
fn restricted_tree_is_alpha_betas_visited_subtree() {
    let eval = Connect4Eval::default();
    let mut pruned_somewhere = false;
    for seed in 0..12 {
        for g in playout(seed, 8) {
            if g.status() != Status::Ongoing {
                continue;
            }
            let v = alpha_beta_visited(&g, eval, LOOKAHEAD).unwrap();
            let full = Search::new(search_core::backup::Minimax, eval, Options::full_width())
                .unwrap()
                .run(&g, &Limits::depth(LOOKAHEAD))
                .unwrap();
            // Walking the restricted tree gives exactly the recorded nodes,
            // each once; and no more than the full tree has.
            let mut codes = Vec::new();
            walk(&g, 0, &v.codes, LOOKAHEAD, &mut codes);
            let set: HashSet<u64> = codes.iter().copied().collect();
            assert_eq!(set.len(), codes.len());
            assert_eq!(set, v.codes);
            assert!(v.nodes <= full.stats.nodes);
            pruned_somewhere |= v.nodes < full.stats.nodes;
            // The restricted tree is a subtree of the full one: every recorded
            // path is a legal path of the full tree (the walk above used the
            // game's moves only), and the root keeps every move.
            let mut all = Vec::new();
            g.generate(&mut all);
            assert_eq!(all, kept_children(&v.codes, 0, &all), "alpha-beta searches every root move");

            // Rminimax at θ = ∞ with costs monotone in the evaluator's values
            // (cost = WIN_SCORE − value, no per-play cost) is minimax on the
            // restricted tree: alpha-beta's value and move. Restricted by the
            // observer, it enters exactly the recorded nodes.
            let rule = Rminimax::with_costs(f64::INFINITY, UtilityCosts::new(0.0, WIN_SCORE).unwrap()).unwrap();
            let mut restrict = Subtree::restrict(v.codes.clone());
            let r = Search::new(rule, eval, Options::full_width())
                .unwrap()
                .run_observed(&g, &Limits::depth(LOOKAHEAD), &mut restrict)
                .unwrap();
            assert_eq!(r.stats.nodes, v.nodes, "Rminimax enters the recorded nodes only");
            let value = r.value.unwrap();
            assert!((value - (v.value - WIN_SCORE)).abs() < 1e-6, "{value} vs {}", v.value);
            let best = v.best.unwrap();
            assert!(r.best_moves.contains(&best), "alpha-beta's {best} not among {:?}", r.best_moves);
        }
    }
    assert!(pruned_somewhere, "alpha-beta pruned nothing: the test would not notice a broken wrapper");
}

#[test]
fn pruned_distribution_is_a_distribution_over_root_moves() {
    let g = playout(3, 4).pop().unwrap();
    let mut sizes = TreeSizes::default();
    let d = pruned_distribution(&g, 0.5, &mut sizes).unwrap();
    let mut moves = Vec::new();
    g.generate(&mut moves);
    assert_eq!(d.len(), moves.len());
    assert!((d.iter().map(|m| m.1).sum::<f64>() - 1.0).abs() < 1e-9);
    assert!(sizes.restricted < sizes.full && sizes.positions == 1);
}

#[test]
fn restricted_distribution_on_the_whole_tree_is_the_agents() {
    // Recording a full-width search gives every node of the tree: the
    // restricted distribution is then the Rminimax agent's own.
    let eval = Connect4Eval::default();
    let costs = connect4_costs().unwrap();
    for g in playout(9, 5) {
        if g.status() != Status::Ongoing {
            continue;
        }
        let mut record = Subtree::record();
        let full = Search::new(search_core::backup::Minimax, eval, Options::full_width())
            .unwrap()
            .run_observed(&g, &Limits::depth(3), &mut record)
            .unwrap();
        let codes = record.into_codes();
        assert_eq!(codes.len() as u64, full.stats.nodes);
        let d = restricted_distribution(&g, codes, 0.3, costs, eval, 3).unwrap();
        let mut agent = rminimax_agent(0.3, costs, eval, Limits::depth(3)).unwrap();
        assert_eq!(d, agent.distribution(&g).unwrap());
    }
}

fn synthetic(fig: Figure, r: impl Fn(f64, f64) -> (u32, u32, u32)) -> Vec<(String, Vec<Row>)> {
    fig.cells(Scale::Quick)
        .into_iter()
        .filter(|cell| cell.starts_with("theta1="))
        .map(|cell| {
            let (a, b) = parse(&cell);
            let (w1, w2, d) = r(a, b);
            (cell, vec![row!("theta1" => a, "theta2" => b, "wins1" => w1, "wins2" => w2, "draws" => d)])
        })
        .collect()
}

fn parse(cell: &str) -> (f64, f64) {
    let (a, b) = cell.split_once('_').unwrap();
    (a["theta1=".len()..].parse().unwrap(), b["theta2=".len()..].parse().unwrap())
}

#[test]
fn verdicts_follow_the_data() {
    // r rises with θ₁ and falls with θ₂: the trend claims hold.
    let good = synthetic(Figure::TicTacToe, |a, b| {
        let w1 = (50.0 + 10.0 * (a.ln() - b.ln())).round() as u32;
        (w1, 100 - w1, 0)
    });
    let md = Figure::TicTacToe.finish(Scale::Quick, &good).unwrap().markdown;
    assert!(md.contains("\"r increases with θ₁\" (each curve rises): **reproduced**"), "{md}");
    assert!(md.contains("\"r decreases with θ₂\" (higher curves for weaker π₂): **reproduced**"), "{md}");
    // The reverse trend: the same claims fail.
    let bad = synthetic(Figure::TicTacToe, |a, b| {
        let w1 = (50.0 - 10.0 * (a.ln() - b.ln())).round() as u32;
        (w1, 100 - w1, 0)
    });
    let md = Figure::TicTacToe.finish(Scale::Quick, &bad).unwrap().markdown;
    assert!(md.contains("\"r increases with θ₁\" (each curve rises): **not reproduced**"), "{md}");
    let line = md.lines().find(|l| l.contains("\"θ₁ ≫ θ₂: π₁ wins\"")).unwrap();
    assert!(line.contains("= -92 [") && line.ends_with("**not reproduced**."), "{line}");
}

#[test]
fn cells_parse_back() {
    for fig in [Figure::TicTacToe, Figure::Connect4, Figure::Connect4Ab] {
        let cells = fig.cells(Scale::Default);
        let unique: HashSet<&String> = cells.iter().collect();
        assert_eq!(unique.len(), cells.len());
        assert!(fig.run_cell(Scale::Quick, "theta1=3_theta2=3", 0).is_err());
    }
    assert_eq!(Figure::TicTacToe.cells(Scale::Quick).len(), 26);
    assert_eq!(Figure::Connect4.cells(Scale::Quick).len(), 28);
    // 35 grid cells and 3 replaying Fig. 3 for the contrasts.
    assert_eq!(Figure::Connect4Ab.cells(Scale::Quick).len(), 38);
}
