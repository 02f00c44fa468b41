//! Property tests (proptest) of search-core's parsers: the `LiteralTree`
//! text syntax, and the move notations of `LiteralTree` and `RandomTree`.
//!
//! The property everywhere: no panic, no hang, and either a typed error (a
//! [`GameError::Parse`] whose position lies within the input, with a message
//! of bounded length) or a value that round-trips (a tree printed and parsed
//! back is the same tree; a move written and parsed back is the same move).
//!
//! Each property runs 256 cases, or `PROPTEST_CASES` if it is set, for a
//! longer fuzz run of the same tests:
//!
//! ```text
//! PROPTEST_CASES=100000 cargo test -p search-core --test fuzz_parsers
//! ```
//!
//! Deep trees (issue item 13) are checked on a thread with a 256 KiB stack:
//! nothing in parsing, printing or dropping a tree recurses per level.

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::sample::Index;
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::tree::{ChanceWeights, LeafModel, LiteralEval, LiteralTree, NodeKind, RandomTree};
use search_core::{Game, GameError, MAX_PLY, Outcome, Player, Status, Turn};

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

/// The longest error message accepted: inputs are quoted shortened.
const MAX_MESSAGE: usize = 1000;

/// Checks that `err` is a parse error of `what` at a char boundary of
/// `input`, and that its message does not echo a long input.
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
    let message = err.to_string();
    prop_assert!(message.len() <= MAX_MESSAGE, "message of {} bytes", message.len());
    Ok(())
}

// ---------------------------------------------------------------------------
// Trees as specifications, rendered in varied styles.

/// A tree as the generator means it; rendered to text, parsed, and compared.
#[derive(Debug, Clone)]
enum Spec {
    Leaf { label: Option<String>, value: f64 },
    Node { kind: NodeKind, label: Option<String>, value: Option<f64>, children: Vec<Spec>, probs: Option<Vec<f64>> },
}

impl Spec {
    fn label_mut(&mut self) -> &mut Option<String> {
        match self {
            Spec::Leaf { label, .. } | Spec::Node { label, .. } => label,
        }
    }
}

fn label() -> impl Strategy<Value = Option<String>> {
    prop::option::weighted(0.3, "[A-Za-z][A-Za-z0-9_.+-]{0,3}|é[a-z0-9]{0,2}|max|min|chance|inf|e5")
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-20i32..=20).prop_map(f64::from),
        1 => Just(-0.0),
        2 => any::<f64>().prop_filter("finite", |v| v.is_finite()),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    let leaf = (label(), number()).prop_map(|(label, value)| Spec::Leaf { label, value });
    leaf.prop_recursive(6, 64, 5, |inner| {
        let kind = prop_oneof![Just(NodeKind::Max), Just(NodeKind::Min), Just(NodeKind::Chance)];
        (
            kind,
            label(),
            prop::option::weighted(0.3, number()),
            prop::collection::vec((inner, 1u32..10), 1..6),
            any::<bool>(),
        )
            .prop_map(|(kind, label, value, kids, with_probs)| {
                let total: u32 = kids.iter().map(|k| k.1).sum();
                let probs = (kind == NodeKind::Chance && with_probs)
                    .then(|| kids.iter().map(|k| f64::from(k.1) / f64::from(total)).collect());
                // Sibling labels must differ (they name moves).
                let mut seen = HashSet::new();
                let children = kids
                    .into_iter()
                    .map(|(mut child, _)| {
                        if let Some(l) = child.label_mut().clone()
                            && !seen.insert(l)
                        {
                            *child.label_mut() = None;
                        }
                        child
                    })
                    .collect();
                Spec::Node { kind, label, value, children, probs }
            })
    })
}

/// Formatting choices drawn from a seed: whitespace (free in the grammar)
/// and the many ways of writing a number.
struct Style(u64);

impl Style {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        search_core::rng::splitmix64(self.0)
    }

    fn ws(&mut self) -> &'static str {
        match self.next() % 12 {
            0 => " ",
            1 => "  ",
            2 => "\n\t",
            3 => "\u{3000}",
            4 => "\r\n",
            _ => "",
        }
    }

    fn num(&mut self, v: f64) -> String {
        match self.next() % 4 {
            0 => format!("{v}"),
            1 => format!("{v:?}"),
            2 => format!("{v:e}"),
            _ if v.is_sign_positive() => format!("+{v}"),
            _ => format!("{v}"),
        }
    }
}

fn render(spec: &Spec, style: &mut Style, out: &mut String) {
    out.push_str(style.ws());
    let label = match spec {
        Spec::Leaf { label, .. } | Spec::Node { label, .. } => label,
    };
    if let Some(l) = label {
        out.push_str(l);
        out.push_str(style.ws());
        out.push('=');
        out.push_str(style.ws());
    }
    match spec {
        Spec::Leaf { value, .. } => out.push_str(&style.num(*value)),
        Spec::Node { kind, value, children, probs, .. } => {
            out.push_str(match kind {
                NodeKind::Max => "max",
                NodeKind::Min => "min",
                NodeKind::Chance => "chance",
                NodeKind::Leaf => unreachable!(),
            });
            if let Some(v) = value {
                out.push_str(style.ws());
                out.push('[');
                out.push_str(style.ws());
                out.push_str(&style.num(*v));
                out.push_str(style.ws());
                out.push(']');
            }
            out.push_str(style.ws());
            out.push('(');
            for (i, child) in children.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Some(p) = probs {
                    out.push_str(style.ws());
                    out.push_str(&style.num(p[i]));
                    out.push_str(style.ws());
                    out.push(':');
                }
                render(child, style, out);
            }
            out.push(')');
        }
    }
    out.push_str(style.ws());
}

/// The probabilities of a chance node's outcomes, in move order.
fn chance_probs(t: &LiteralTree) -> Vec<f64> {
    let outcomes = t.children();
    let mut probs = Vec::new();
    t.chance_probabilities(&outcomes, &mut probs);
    probs
}

/// Checks that the parsed tree `t` is the tree `spec` describes.
fn matches_spec(t: &LiteralTree, spec: &Spec) -> Result<(), TestCaseError> {
    match spec {
        Spec::Leaf { label, value } => {
            prop_assert_eq!(t.kind(), NodeKind::Leaf);
            prop_assert_eq!(t.label(), label.as_deref());
            prop_assert_eq!(t.static_value().map(f64::to_bits), Some(value.to_bits()));
            prop_assert_eq!(t.status(), Status::Over(Outcome::Payoff(*value)));
        }
        Spec::Node { kind, label, value, children, probs } => {
            prop_assert_eq!(t.kind(), *kind);
            prop_assert_eq!(t.label(), label.as_deref());
            prop_assert_eq!(t.static_value().map(f64::to_bits), value.map(f64::to_bits));
            prop_assert_eq!(t.children().len(), children.len());
            let turn = match kind {
                NodeKind::Max => Turn::Player(Player::First),
                NodeKind::Min => Turn::Player(Player::Second),
                _ => Turn::Chance,
            };
            prop_assert_eq!(t.turn(), turn);
            if *kind == NodeKind::Chance {
                let uniform = vec![1.0 / children.len() as f64; children.len()];
                let want = probs.as_ref().unwrap_or(&uniform);
                let got = chance_probs(t);
                prop_assert_eq!(
                    got.iter().map(|p| p.to_bits()).collect::<Vec<_>>(),
                    want.iter().map(|p| p.to_bits()).collect::<Vec<_>>()
                );
            }
            for (i, child) in children.iter().enumerate() {
                let mut c = t.clone();
                c.play(i as u32);
                matches_spec(&c, child)?;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Whole-tree checks, iterative (they also run on the deepest trees).

/// Checks that the subtrees below `a` and `b` are the same tree: kinds,
/// labels, values (bit for bit), children, chance probabilities.
fn same_tree(a: &LiteralTree, b: &LiteralTree) -> Result<(), TestCaseError> {
    let mut stack = vec![(a.clone(), b.clone(), 0usize)];
    while let Some((x, y, depth)) = stack.pop() {
        let at = format!("at depth {depth}");
        prop_assert_eq!(x.kind(), y.kind(), "{}", at);
        prop_assert_eq!(x.label(), y.label(), "{}", at);
        prop_assert_eq!(x.static_value().map(f64::to_bits), y.static_value().map(f64::to_bits), "{}", at);
        prop_assert_eq!(x.children(), y.children(), "{}", at);
        if x.kind() == NodeKind::Chance {
            prop_assert_eq!(chance_probs(&x), chance_probs(&y), "{}", at);
        }
        for mv in x.children() {
            let (mut cx, mut cy) = (x.clone(), y.clone());
            cx.play(mv);
            cy.play(mv);
            stack.push((cx, cy, depth + 1));
        }
    }
    Ok(())
}

/// The depth of the subtree below `t`, in plies (0 for a leaf), without
/// recursion.
fn depth(t: &LiteralTree) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(t.clone(), 0)];
    while let Some((s, d)) = stack.pop() {
        deepest = deepest.max(d);
        for mv in s.children() {
            let mut c = s.clone();
            c.play(mv);
            stack.push((c, d + 1));
        }
    }
    deepest
}

/// At every node below `t`: every move written and parsed back is the same
/// move (with surrounding whitespace too) and is playable; the index just
/// past the last child, and any move at a leaf, is refused with a typed
/// error.
fn moves_round_trip(t: &LiteralTree) -> Result<(), TestCaseError> {
    let mut stack = vec![t.clone()];
    let mut moves = Vec::new();
    while let Some(s) = stack.pop() {
        moves.clear();
        match s.generate(&mut moves) {
            Status::Over(_) => {
                prop_assert_eq!(s.clone().try_play(0), Err(GameError::GameOver));
                prop_assert_eq!(s.clone().play_str("0"), Err(GameError::GameOver));
                continue;
            }
            Status::Ongoing => {}
        }
        prop_assert_eq!(&moves, &s.children());
        for &mv in &moves {
            let text = s.move_string(mv);
            prop_assert_eq!(s.parse_move(&text), Ok(mv), "{:?} at {:?}", text, s);
            prop_assert_eq!(s.parse_move(&format!(" {text}\t")), Ok(mv));
            let mut c = s.clone();
            prop_assert_eq!(c.play_str(&text), Ok(mv));
            stack.push(c);
        }
        let past = moves.len() as u32;
        let r = s.clone().try_play(past);
        prop_assert!(matches!(r, Err(GameError::IllegalMove { .. })), "{:?}", r);
        let r = s.clone().play_str(&past.to_string());
        prop_assert!(matches!(r, Err(GameError::IllegalMove { .. })), "{:?}", r);
    }
    Ok(())
}

/// The property of the tree parser on any input: a typed error, or a tree
/// within the depth bound that prints, parses back to the same tree, prints
/// the same again, and whose moves round-trip.
fn check_tree_text(input: &str) -> Result<Option<LiteralTree>, TestCaseError> {
    match input.parse::<LiteralTree>() {
        Err(e) => {
            check_parse_error(input, "tree", &e)?;
            Ok(None)
        }
        Ok(t) => {
            let printed = t.to_string();
            let back = match printed.parse::<LiteralTree>() {
                Ok(back) => back,
                Err(e) => {
                    return Err(TestCaseError::fail(format!("{input:?} printed as {printed:?}, which fails: {e}")));
                }
            };
            same_tree(&t, &back)?;
            prop_assert_eq!(back.to_string(), printed.clone());
            prop_assert_eq!(format!("{t:?}"), format!("LiteralTree({printed})"));
            prop_assert!(depth(&t) <= LiteralTree::MAX_DEPTH);
            prop_assert!(!t.is_empty());
            moves_round_trip(&t)?;
            Ok(Some(t))
        }
    }
}

// ---------------------------------------------------------------------------
// Mutations of valid trees.

/// Pieces of the grammar (and of near misses) to insert.
const TOKENS: &[&str] = &[
    "max(", "min(", "chance(", "max[", "]", "(", ")", ",", ":", "=", "[", "0.5:", "0.25", "1", "-2.5", "+3", "1e400",
    "NaN", "inf", "-inf", "1e-320", "A=", "b_1=", "é=", " ", "\t", "é", "∞", "\u{0}", "\u{3000}", ".", "e", "x", "0:",
    "1:", "max", "min", "chance", "1,", "2)", "9", "-", "+", "_",
];

#[derive(Debug, Clone)]
enum Edit {
    Delete(Index, usize),
    Insert(Index, &'static str),
    Duplicate(Index, Index),
    Replace(Index, char),
    Truncate(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), 1usize..6).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<Index>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Duplicate(a, b)),
        (
            any::<Index>(),
            prop::sample::select(vec!['(', ')', ',', ':', '=', '[', ']', '0', '7', 'x', ' ', '.', '-', 'é'])
        )
            .prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<Index>().prop_map(Edit::Truncate),
    ]
}

/// A byte offset of `s` chosen by `i`, moved down to a char boundary.
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
        Edit::Replace(i, c) => {
            let a = boundary(s, i);
            if let Some(old) = s[a..].chars().next() {
                s.replace_range(a..a + old.len_utf8(), c.encode_utf8(&mut [0; 4]));
            }
        }
        Edit::Truncate(i) => {
            let a = boundary(s, i);
            s.truncate(a);
        }
    }
}

// ---------------------------------------------------------------------------
// Random trees.

fn random_tree() -> impl Strategy<Value = RandomTree> {
    (
        any::<u64>(),
        prop_oneof![4 => 1u8..=6, 1 => any::<u8>().prop_map(|b| b.max(1))],
        prop_oneof![4 => 1u8..=5, 1 => any::<u8>().prop_map(|d| d.max(1))],
        prop_oneof![
            (-5i32..5, 0i32..10).prop_map(|(min, w)| LeafModel::Uniform { min, max: min + w }),
            Just(LeafModel::Uniform { min: i32::MIN, max: i32::MAX }),
            any::<u32>().prop_map(|max_arc| LeafModel::ArcSum { max_arc: max_arc % 30 }),
            any::<u32>().prop_map(|max_arc| LeafModel::ArcSum { max_arc }),
        ],
        0u8..=6,
        0u8..=2,
        any::<bool>(),
    )
        .prop_map(|(seed, b_min, depth, model, extra, every, random_weights)| {
            let t = RandomTree::new(seed, b_min, depth, model).expect("valid parameters");
            let t = t.with_branching(b_min, b_min.saturating_add(extra)).expect("valid branching");
            if every == 0 {
                t
            } else {
                let weights = if random_weights { ChanceWeights::Random } else { ChanceWeights::Uniform };
                t.with_chance(every, weights).expect("valid chance levels")
            }
        })
}

/// Move strings as users type them, right or wrong.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9]{1,4}",
        "[ +\t-]{0,2}[0-9]{1,3}[ \t]{0,2}",
        "[A-Za-z][A-Za-z0-9_]{0,3}",
        prop::collection::vec(prop::sample::select(TOKENS), 0..4).prop_map(|v| v.concat()),
    ]
}

/// On any state: parsing `text` gives a typed error or a move that writes
/// and parses back to itself; playing it gives a typed error or plays the
/// parsed move.
fn check_move_text<G: Game>(state: &G, text: &str) -> Result<(), TestCaseError>
where
    G::Move: PartialEq,
{
    match state.parse_move(text) {
        Err(e) => check_parse_error(text, "move", &e)?,
        Ok(mv) => {
            let mut moves = Vec::new();
            if state.generate(&mut moves) == Status::Ongoing && moves.contains(&mv) {
                prop_assert_eq!(state.parse_move(&state.move_string(mv)), Ok(mv));
            }
        }
    }
    let mut played = state.clone();
    match played.play_str(text) {
        Ok(mv) => {
            let mut want = state.clone();
            want.play(mv);
            prop_assert_eq!(played.hash_key(), want.hash_key());
        }
        Err(GameError::Parse { .. }) => {}
        Err(GameError::IllegalMove { .. } | GameError::GameOver) => {
            prop_assert_eq!(played.hash_key(), state.hash_key(), "a refused move changed the state");
        }
        Err(other) => prop_assert!(false, "unexpected error {other:?}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// Valid trees, written in varied styles, parse to the tree meant.
    #[test]
    fn valid_trees_parse_as_meant(spec in spec(), style in any::<u64>()) {
        let mut text = String::new();
        render(&spec, &mut Style(style), &mut text);
        let t = match text.parse::<LiteralTree>() {
            Ok(t) => t,
            Err(e) => return Err(TestCaseError::fail(format!("{text:?}: {e}"))),
        };
        matches_spec(&t, &spec)?;
        check_tree_text(&text)?;
    }

    /// Valid trees with a few edits: typed errors or trees that round-trip.
    #[test]
    fn mutated_trees(spec in spec(), style in any::<u64>(), edits in prop::collection::vec(edit(), 1..5)) {
        let mut text = String::new();
        render(&spec, &mut Style(style), &mut text);
        for e in &edits {
            apply(&mut text, e);
        }
        check_tree_text(&text)?;
    }

    /// Arbitrary text.
    #[test]
    fn arbitrary_strings(text in any::<String>()) {
        check_tree_text(&text)?;
    }

    /// Arbitrary bytes made text.
    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_tree_text(&String::from_utf8_lossy(&bytes))?;
    }

    /// Strings of grammar tokens: often nearly a tree.
    #[test]
    fn token_soup(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..40)) {
        check_tree_text(&tokens.concat())?;
    }

    /// Move strings at the nodes of a literal tree: typed errors or moves
    /// that round-trip; a refused move leaves the state alone.
    #[test]
    fn literal_tree_move_strings(
        spec in spec(),
        path in prop::collection::vec(any::<Index>(), 0..6),
        text in move_text(),
    ) {
        let mut text_tree = String::new();
        render(&spec, &mut Style(0), &mut text_tree);
        let mut t: LiteralTree = text_tree.parse().expect("a valid tree");
        for i in &path {
            check_move_text(&t, &text)?;
            let n = t.children().len();
            if n == 0 {
                break;
            }
            t.play(i.index(n) as u32);
        }
        check_move_text(&t, &text)?;
    }

    /// Random trees: every move round-trips along a random path; arbitrary
    /// move strings give typed errors; hash keys are those of the path.
    #[test]
    fn random_tree_move_strings(
        tree in random_tree(),
        path in prop::collection::vec(any::<Index>(), 0..8),
        text in move_text(),
    ) {
        let mut s = tree;
        let mut played = Vec::new();
        let mut moves = Vec::new();
        loop {
            check_move_text(&s, &text)?;
            moves.clear();
            if let Status::Over(_) = s.generate(&mut moves) {
                prop_assert_eq!(s.clone().try_play(0), Err(GameError::GameOver));
                break;
            }
            prop_assert_eq!(&moves, &(0..s.branching()).collect::<Vec<u8>>());
            for &mv in &moves {
                let text = s.move_string(mv);
                prop_assert_eq!(s.parse_move(&text), Ok(mv));
                prop_assert_eq!(s.parse_move(&format!(" {text} ")), Ok(mv));
            }
            let r = s.clone().try_play(s.branching());
            prop_assert!(matches!(r, Err(GameError::IllegalMove { .. })), "{:?}", r);
            let Some(i) = path.get(played.len()) else { break };
            let mv = moves[i.index(moves.len())];
            s.play_str(&s.move_string(mv)).expect("a legal move");
            played.push(mv);
            // The same path from the root reaches the same node.
            let mut replay = tree;
            for &m in &played {
                replay.play(m);
            }
            prop_assert_eq!(replay.hash_key(), s.hash_key());
            prop_assert_eq!(replay, s);
        }
    }
}

// ---------------------------------------------------------------------------
// Deep and wide trees (issue item 13).

/// Runs `f` on a thread with a `kib`-KiB stack: a recursion per tree level
/// would overflow it (and abort the test process) long before 1000 levels.
fn on_stack<T: Send + 'static>(kib: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(kib * 1024).spawn(f).expect("a thread").join().expect("no panic")
}

/// A chain of `levels` nested interior nodes (kinds, labels, static values
/// and probabilities varying with the level) around the leaf `7`, and the
/// byte offset where each node starts.
fn chain(levels: usize, closed: bool) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for i in 0..levels {
        if i > 0 && i.is_multiple_of(3) {
            text.push_str("1: "); // under the chance node of the level above
        }
        starts.push(text.len());
        match i % 3 {
            0 => text.push_str("max("),
            1 => text.push_str(&format!("L{i}=min[{i}]( ")),
            _ => text.push_str("chance("),
        }
    }
    if levels > 0 && levels.is_multiple_of(3) {
        text.push_str("1: ");
    }
    starts.push(text.len());
    text.push('7');
    if closed {
        text.push_str(&")".repeat(levels));
    }
    (text, starts)
}

#[test]
fn twenty_thousand_nested_levels_are_a_typed_error() {
    on_stack(256, || {
        for closed in [true, false] {
            let (text, starts) = chain(20_000, closed);
            let err = text.parse::<LiteralTree>().expect_err("too deep");
            match &err {
                // The first node one level too deep is the one named.
                GameError::Parse { what: "tree", position, reason, .. } => {
                    assert_eq!(*position, starts[LiteralTree::MAX_DEPTH], "{err}");
                    assert!(reason.contains("deeper than 1023"), "{err}");
                }
                other => panic!("not a parse error: {other:?}"),
            }
            assert!(err.to_string().len() < MAX_MESSAGE, "the 80 KB input is not echoed");
        }
        // Bare parentheses and bare kinds.
        let parens = "(".repeat(20_000) + &")".repeat(20_000);
        assert!(matches!(parens.parse::<LiteralTree>(), Err(GameError::Parse { position: 0, .. })));
        let open = "max(".repeat(20_000);
        assert!(matches!(open.parse::<LiteralTree>(), Err(GameError::Parse { position: 4092, .. })));
        let labelled = "A=min(".repeat(20_000) + "1" + &")".repeat(20_000);
        assert!(matches!(labelled.parse::<LiteralTree>(), Err(GameError::Parse { position: 6138, .. })));
    });
}

#[test]
fn the_deepest_tree_accepted_parses_prints_and_drops_on_a_small_stack() {
    on_stack(256, || {
        assert_eq!(LiteralTree::MAX_DEPTH, MAX_PLY as usize - 1);
        let (text, _) = chain(LiteralTree::MAX_DEPTH, true);
        let t: LiteralTree = text.parse().expect("MAX_DEPTH levels are accepted");
        assert_eq!(depth(&t), LiteralTree::MAX_DEPTH);
        assert_eq!(t.len(), LiteralTree::MAX_DEPTH + 1);
        let printed = t.to_string();
        let back: LiteralTree = printed.parse().expect("prints as a valid tree");
        same_tree(&t, &back).expect("round trip");
        assert_eq!(back.to_string(), printed);
        assert!(format!("{t:?}").len() > printed.len());
        // Walk down to the leaf through the move notation.
        let mut s = t.clone();
        while s.kind() != NodeKind::Leaf {
            let text = s.move_string(0);
            s.play_str(&text).expect("a legal move");
        }
        assert_eq!(s.static_value(), Some(7.0));
        drop((t, back, s));
        // One level more is refused.
        let (text, starts) = chain(LiteralTree::MAX_DEPTH + 1, true);
        let err = text.parse::<LiteralTree>().expect_err("too deep");
        assert!(matches!(err, GameError::Parse { position, .. } if position == starts[LiteralTree::MAX_DEPTH]));
    });
}

#[test]
fn a_full_search_of_the_deepest_tree_is_complete() {
    // The search recurses once per ply (bounded by MAX_PLY): a big stack.
    on_stack(256 * 1024, || {
        let text = "max(".repeat(LiteralTree::MAX_DEPTH) + "3" + &")".repeat(LiteralTree::MAX_DEPTH);
        let t: LiteralTree = text.parse().expect("accepted");
        let r = Search::new(Minimax, LiteralEval, Options::full_width())
            .expect("a search")
            .run(&t, &Limits::full_tree())
            .expect("a result");
        assert_eq!(r.value, Some(3.0));
        assert!(r.complete, "{:?}", r.incomplete);
    });
}

#[test]
fn error_positions_point_at_the_offending_text() {
    let cases: &[(&str, usize)] = &[
        ("max(1, ", 7),
        // A bad word followed by whitespace: the word's start (this was a
        // byte inside `é`, past the word, before the fix).
        ("é [", 0),
        ("+\u{2000}", 0),
        ("max(1, x )", 7),
        ("max(A= x )", 7),
        ("max(A=\u{3000}ü\t)", 9),
        ("max(1 : 2)", 6),
        ("chance(x: 1)", 7),
        ("chance(0.5: 1, 2)", 0),
        ("chance(0.5: 1, 0.6: 2)", 0),
        ("max(1) 2", 7),
        ("max[inf](1)", 4),
        ("1=2", 0),
        ("", 0),
    ];
    for &(text, position) in cases {
        match text.parse::<LiteralTree>() {
            Err(GameError::Parse { what: "tree", position: p, .. }) => assert_eq!(p, position, "{text:?}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn wide_trees_and_long_words() {
    on_stack(256, || {
        let n = 200_000;
        let text = format!("max({})", (0..n).map(|i| format!("A{i}={}", i % 7)).collect::<Vec<_>>().join(", "));
        let t: LiteralTree = text.parse().expect("wide");
        assert_eq!(t.children().len(), n);
        assert_eq!(t.to_string(), text);
        assert_eq!(t.parse_move("A199999"), Ok(199_999));
        assert_eq!(t.move_string(12_345), "A12345");
        // Duplicate labels among siblings would make move names ambiguous.
        let dup = "max(A=1, B=2, A=3)";
        assert!(
            matches!(dup.parse::<LiteralTree>(), Err(GameError::Parse { position: 14, .. })),
            "{:?}",
            dup.parse::<LiteralTree>()
        );
        assert!("max(A=min(A=1), A=2)".parse::<LiteralTree>().is_err());
        assert!("max(A=min(A=1, B=2), B=2)".parse::<LiteralTree>().is_ok());
        // A megabyte-long word is quoted shortened.
        let long = format!("max({})", "x".repeat(1 << 20));
        let err = long.parse::<LiteralTree>().expect_err("not a node");
        assert!(matches!(err, GameError::Parse { position: 4, .. }));
        assert!(err.to_string().len() < MAX_MESSAGE);
        let err = t.parse_move(&"y".repeat(1 << 20)).expect_err("no such label");
        assert!(err.to_string().len() < MAX_MESSAGE);
    });
}

/// `RandomTree::parse_move` quotes its whole input in the error: a
/// megabyte-long move string comes back in the message
/// (`GameError::shorten` exists for this).
#[test]
fn random_tree_move_errors_do_not_echo_long_inputs() {
    let t = RandomTree::new(1, 3, 3, LeafModel::Uniform { min: 0, max: 9 }).unwrap();
    let err = t.parse_move(&"9".repeat(1 << 20)).expect_err("not a u8");
    assert!(err.to_string().len() < MAX_MESSAGE, "{} bytes", err.to_string().len());
}
