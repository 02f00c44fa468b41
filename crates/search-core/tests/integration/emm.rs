//! EMM (error-minimizing minimax) as reconstructed in [docs/paper-readings.md](https://github.com/game-search/backup-rules/blob/main/docs/paper-readings.md): the
//! seed's Fig. 5 decisions, the node-type error formulas, terminals, the
//! sigmoid error model, and an independent naive EMM on random trees.

use crate::common_rules::{Decisive, DecisiveEval};
use search_core::backup::{ConstantError, Emm, EmmValue, ErrorModel, SigmoidError};
use search_core::search::{Limits, Options, Search, SearchAgent};
use search_core::tree::{LeafModel, LiteralEval, LiteralTree, RandomTree, RandomTreeEval};
use search_core::{Agent, Evaluator, Game, Player, Status, Turn, rng};

/// The (verdict, error) pair of a root value `P(win) − P(loss)`, for errors
/// up to ½.
fn pair(x: f64) -> (bool, f64) {
    (x > 0.0, (1.0 - x.abs()) / 2.0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12
}

/// Searches `tree` one ply deep (its children are horizon nodes) with EMM
/// and returns the root's pair.
fn emm_root(tree: &str, model: impl ErrorModel) -> (bool, f64) {
    let t: LiteralTree = tree.parse().unwrap();
    let r =
        Search::new(Emm::new(model), LiteralEval, Options::full_width()).unwrap().run(&t, &Limits::depth(1)).unwrap();
    pair(r.value.unwrap())
}

// Static values in brackets are from max's view: `min[1]` is a loss for min
// (a winning move for max), `min[-1]` a win for min.

#[test]
fn figure_5_decisions_with_ten_percent_leaf_error() {
    let ten = ConstantError::new(0.1).unwrap();
    // A, type I: both moves win. Static: a loss (10%); backup: a win with
    // 10%·10% = 1%: the backup is kept.
    let (win, err) = emm_root("max[-1](min[1](0), min[1](0))", ten);
    assert!(win && close(err, 0.01), "{win} {err}");
    // D, type II: one move wins, one loses. Backup: a win with 10%·90% =
    // 9% < 10%: kept.
    let (win, err) = emm_root("max[-1](min[1](0), min[-1](0))", ten);
    assert!(win && close(err, 0.09), "{win} {err}");
    // G, type III: both moves lose. Backup: a loss with 1 − 90%² = 19% >
    // 10%: the static value (here a win) is used.
    let (win, err) = emm_root("max[1](min[-1](0), min[-1](0))", ten);
    assert!(win && close(err, 0.1), "{win} {err}");
    let (win, err) = emm_root("max[-1](min[-1](0), min[-1](0))", ten);
    assert!(!win && close(err, 0.1), "{win} {err}");
}

#[test]
fn node_type_error_formulas() {
    for e in [0.01, 0.05, 0.1, 0.2, 0.25] {
        // The root's static value 0 is given error 1, so the backup is
        // always kept and can be read off.
        let model = move |h: f64| EmmValue { win: h > 0.0, error: if h == 0.0 { 1.0 } else { e } };
        let (w1, e1) = emm_root("max[0](min[1](0), min[1](0))", model);
        let (w2, e2) = emm_root("max[0](min[1](0), min[-1](0))", model);
        let (w3, e3) = emm_root("max[0](min[-1](0), min[-1](0))", model);
        assert!(w1 && close(e1, e * e), "type I at e = {e}: {e1}");
        assert!(w2 && close(e2, e * (1.0 - e)), "type II at e = {e}: {e2}");
        assert!(!w3 && close(e3, 1.0 - (1.0 - e) * (1.0 - e)), "type III at e = {e}: {e3}");
        // Only type III is pathological.
        assert!(e1 < e && e2 < e && e3 > e);
        // Three moves: two winning, one losing; and all three losing.
        let (w, err) = emm_root("max[0](min[1](0), min[-1](0), min[1](0))", model);
        assert!(w && close(err, e * e * (1.0 - e)));
        // (`pair` reads errors up to ½ only.)
        if 1.0 - (1.0 - e).powi(3) <= 0.5 {
            let (w, err) = emm_root("max[0](min[-1](0), min[-1](0), min[-1](0))", model);
            assert!(!w && close(err, 1.0 - (1.0 - e).powi(3)));
        }
    }
}

#[test]
fn terminals_are_exact() {
    let eval = DecisiveEval { win: 1.0 };
    let emm = || Emm::new(ConstantError::new(0.1).unwrap());
    // A move to a won terminal: a certain win, whatever else.
    let t = Decisive::parse("max[-5](min[-1](0), 1000)");
    let r = Search::new(emm(), eval, Options::full_width()).unwrap().run(&t, &Limits::depth(3)).unwrap();
    assert_eq!((r.value, r.best), (Some(1.0), Some(1)));
    // Only lost terminals: a certain loss (the static value's 10% error is
    // worse than 0).
    let t = Decisive::parse("max[5](-1000, -1000)");
    let r = Search::new(emm(), eval, Options::full_width()).unwrap().run(&t, &Limits::depth(3)).unwrap();
    assert_eq!(r.value, Some(-1.0));
    // A draw is a coin flip.
    let t = Decisive::parse("max[5](500)");
    let r = Search::new(Emm::new(|_h: f64| EmmValue::win(0.6)), eval, Options::full_width())
        .unwrap()
        .run(&t, &Limits::full_tree())
        .unwrap();
    assert_eq!(pair(r.value.unwrap()), (false, 0.5));
}

#[test]
fn sigmoid_error_model() {
    let t = 4.0;
    let m = SigmoidError::new(t).unwrap();
    for h in [-12.0, -1.0, 0.5, 3.0, 40.0] {
        let v = m.judge(h);
        assert_eq!(v.win, h > 0.0);
        assert!(close(v.error, 1.0 / (1.0 + (h.abs() / t).exp())), "{h}");
    }
    // At the horizon EMM uses the model on the static value (side to move's
    // view): min's node with max-view static −8 is a win for min.
    let tree: LiteralTree = "max[0](min[-8](0))".parse().unwrap();
    let r = Search::new(Emm::with_temperature(t).unwrap(), LiteralEval, Options::full_width())
        .unwrap()
        .run(&tree, &Limits::depth(1))
        .unwrap();
    let min_error = 1.0 / (1.0 + 2f64.exp());
    // Max's backup: a loss with error 1 − (1 − err) = err; its static value
    // 0 has error ½, so the backup is kept.
    assert!(!pair(r.value.unwrap()).0);
    assert!(close(pair(r.value.unwrap()).1, min_error));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(SigmoidError::new(bad).is_err());
        assert!(Emm::with_temperature(bad).is_err());
    }
    assert!(ConstantError::new(-0.1).is_err());
    assert!(ConstantError::new(f64::NAN).is_err());
}

/// Independent naive EMM, `(win, error)` for the node's mover.
fn naive_emm<G: Game>(s: &G, depth: u32, eval: &impl Evaluator<G>, model: &impl ErrorModel) -> (bool, f64) {
    let me = s.turn().player().unwrap_or(Player::First);
    let mut moves = Vec::new();
    if let Status::Over(o) = s.generate(&mut moves) {
        let v = eval.terminal_value(o, me, 0);
        return if v == 0.0 { (false, 0.5) } else { (v > 0.0, 0.0) };
    }
    let stat = model.judge(eval.evaluate_for(s, me));
    if depth == 0 {
        return (stat.win, stat.error);
    }
    assert!(matches!(s.turn(), Turn::Player(_)));
    let kids: Vec<(bool, f64)> = moves
        .iter()
        .map(|&m| {
            let mut c = s.clone();
            c.play(m);
            let (w, e) = naive_emm(&c, depth - 1, eval, model);
            (if c.turn().player() == Some(me) { w } else { !w }, e)
        })
        .collect();
    let backup = if kids.iter().any(|k| k.0) {
        let mut err = 1.0;
        for &(w, e) in &kids {
            err *= if w { e } else { 1.0 - e };
        }
        (true, err)
    } else {
        (false, 1.0 - kids.iter().map(|k| 1.0 - k.1).product::<f64>())
    };
    if stat.error < backup.1 { (stat.win, stat.error) } else { backup }
}

#[test]
fn emm_equals_a_naive_emm_on_random_trees() {
    for i in 0..300 {
        let seed = rng::derive_seed(0xE33, i);
        let b = 2 + (seed % 4) as u8;
        let d = 1 + ((seed >> 8) % 5) as u8;
        let t = RandomTree::new(seed, b, d, LeafModel::Uniform { min: -6, max: 6 }).unwrap();
        let limit = if (seed >> 16).is_multiple_of(2) { u32::from(d) } else { u32::from(d).max(2) - 1 };
        let eval = RandomTreeEval::default();
        let model = SigmoidError::new(2.0).unwrap();
        let r =
            Search::new(Emm::new(model), eval, Options::full_width()).unwrap().run(&t, &Limits::depth(limit)).unwrap();
        let (win, err) = naive_emm(&t, limit, &eval, &model);
        let p = if win { 1.0 - err } else { err };
        let v = r.value.unwrap();
        assert!(close(v, 2.0 * p - 1.0), "tree {i}: {v} vs {win} {err}");
        // Each root move's score is the child's win probability for the
        // root mover, as a difference P(win) − P(loss).
        for m in &r.root_moves {
            let mut c = t;
            c.play(m.mv);
            let (w, e) = naive_emm(&c, limit - 1, &eval, &model);
            let p_child = if w { 1.0 - e } else { e };
            assert!(close(m.score, -(2.0 * p_child - 1.0)), "tree {i}");
        }
    }
}

#[test]
fn emm_plays_the_move_most_likely_to_win() {
    // Move 0: a type II min node for max... min has one winning reply
    // (-1) and one losing (1): min wins with error 9%. Move 1: min's node
    // where every reply loses for min (type III for min): min's backup
    // is a loss with error 19%, worse than its static value (a win for
    // min, 10%). Max's winning chance: 9% after move 0, 10% after move 1.
    let t: LiteralTree = "max[0](min[-1](max[-1](0), max[1](0)), min[-1](max[1](0), max[1](0)))".parse().unwrap();
    let emm = Emm::new(ConstantError::new(0.1).unwrap());
    let mut agent = SearchAgent::new(Search::new(emm, LiteralEval, Options::full_width()).unwrap(), Limits::depth(2));
    assert_eq!(agent.choose(&t, &mut rng::seeded(1)).unwrap(), 1);
    let r = agent.search().run(&t, &Limits::depth(2)).unwrap();
    assert!(close(r.root_moves[0].score, 2.0 * 0.09 - 1.0));
    assert!(close(r.root_moves[1].score, 2.0 * 0.1 - 1.0));
    assert_eq!(agent.name(), "emm d2");
}
