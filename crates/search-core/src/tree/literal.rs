//! Textbook trees written as one-line literals.
//!
//! Grammar (whitespace is free):
//!
//! ```text
//! node     := label? (number | kind static? '(' child (',' child)* ')')
//! label    := identifier '='             e.g.  B=min(...)
//! kind     := 'max' | 'min' | 'chance'
//! static   := '[' number ']'             the node's static (heuristic) value
//! child    := (number ':')? node         the probability prefix, under chance only
//! ```
//!
//! A number alone is a terminal leaf whose payoff is from `max`'s
//! ([`Player::First`]'s) point of view. `max` nodes are `First` to move, `min`
//! nodes `Second`. Under `chance` either every child has a probability (they
//! must sum to one) or none has (uniform). Labels name moves: the move into a
//! labelled child prints as its label, so the children of a node must have
//! different labels.
//!
//! A tree may be at most [`LiteralTree::MAX_DEPTH`] (1023) plies deep; a
//! deeper one is a [`GameError::Parse`] error. Parsing and printing use an
//! explicit stack, never deep recursion.
//!
//! ```
//! use search_core::tree::LiteralTree;
//! // The lecture notes' alpha-beta example.
//! let t: LiteralTree = "min(0.3, max(0.7, 0.2, 0.9))".parse().unwrap();
//! assert_eq!(t.to_string(), "min(0.3, max(0.7, 0.2, 0.9))");
//! let err = "max(1, ".parse::<LiteralTree>().unwrap_err();
//! assert!(err.to_string().contains("byte 7"));
//! ```

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, MAX_PLY, Perspective};
use crate::game::{Game, Outcome, Player, Status, Turn};

/// What kind of node a literal-tree node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// `max`: [`Player::First`] to move.
    Max,
    /// `min`: [`Player::Second`] to move.
    Min,
    /// `chance`: nature moves.
    Chance,
    /// A terminal leaf.
    Leaf,
}

#[derive(Debug, Clone)]
struct Node {
    kind: NodeKind,
    label: Option<String>,
    /// Leaf payoff, or the static value of an interior node if given.
    value: Option<f64>,
    children: Vec<u32>,
    probs: Vec<f64>,
}

/// A state in an explicit tree: the shared tree and the current node.
/// Cloning is cheap (a reference count and an index).
#[derive(Clone)]
pub struct LiteralTree {
    nodes: Arc<Vec<Node>>,
    at: u32,
}

impl fmt::Debug for LiteralTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LiteralTree({self})")
    }
}

impl LiteralTree {
    /// The deepest tree the parser accepts, in plies from the root to the
    /// deepest leaf: `MAX_PLY − 1` = 1023, so that every node lies above the
    /// ply where searches stop ([`MAX_PLY`]) and a full-tree search of any
    /// parsed tree reaches all its leaves.
    pub const MAX_DEPTH: usize = MAX_PLY as usize - 1;

    fn node(&self) -> &Node {
        &self.nodes[self.at as usize]
    }

    /// The kind of the current node.
    pub fn kind(&self) -> NodeKind {
        self.node().kind
    }

    /// The moves of the current node: indices of its children, `0..n`.
    pub fn children(&self) -> Vec<u32> {
        (0..self.node().children.len() as u32).collect()
    }

    /// The current node's label, if it has one.
    pub fn label(&self) -> Option<&str> {
        self.node().label.as_deref()
    }

    /// The static value written in brackets (interior nodes) or the payoff
    /// (leaves), from `max`'s point of view.
    pub fn static_value(&self) -> Option<f64> {
        self.node().value
    }

    /// The number of nodes in the whole tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has a root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The move that leads to the child labelled `label`, if any.
    ///
    /// ```
    /// use search_core::tree::LiteralTree;
    /// let t: LiteralTree = "max(A=1, B=2)".parse().unwrap();
    /// assert_eq!(t.move_to("B"), Some(1));
    /// ```
    pub fn move_to(&self, label: &str) -> Option<u32> {
        self.node()
            .children
            .iter()
            .position(|&c| self.nodes[c as usize].label.as_deref() == Some(label))
            .map(|i| i as u32)
    }

    /// Writes a node's label and, for a leaf, its payoff; for an interior
    /// node, its kind, static value and `(`. Returns whether the node is
    /// interior (its children and `)` are still to write).
    fn fmt_head(&self, at: u32, f: &mut fmt::Formatter<'_>) -> Result<bool, fmt::Error> {
        let node = &self.nodes[at as usize];
        if let Some(label) = &node.label {
            write!(f, "{label}=")?;
        }
        let name = match node.kind {
            NodeKind::Leaf => {
                write!(f, "{}", node.value.unwrap_or(0.0))?;
                return Ok(false);
            }
            NodeKind::Max => "max",
            NodeKind::Min => "min",
            NodeKind::Chance => "chance",
        };
        f.write_str(name)?;
        if let Some(v) = node.value {
            write!(f, "[{v}]")?;
        }
        f.write_str("(")?;
        Ok(true)
    }
}

impl fmt::Display for LiteralTree {
    /// Prints the subtree below the current node in the literal syntax.
    ///
    /// Iterative (an explicit stack of the open nodes), so any tree the
    /// parser accepts prints without deep recursion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The open interior nodes, each with the index of its next child.
        let mut stack: Vec<(u32, usize)> = Vec::new();
        if self.fmt_head(self.at, f)? {
            stack.push((self.at, 0));
        }
        while let Some((at, next)) = stack.last_mut() {
            let node = &self.nodes[*at as usize];
            let i = *next;
            if i == node.children.len() {
                f.write_str(")")?;
                stack.pop();
                continue;
            }
            *next += 1;
            if i > 0 {
                f.write_str(", ")?;
            }
            if node.kind == NodeKind::Chance && !node.probs.is_empty() {
                write!(f, "{}: ", node.probs[i])?;
            }
            let child = node.children[i];
            if self.fmt_head(child, f)? {
                stack.push((child, 0));
            }
        }
        Ok(())
    }
}

impl Game for LiteralTree {
    type Move = u32;
    const HASHED: bool = true;

    fn turn(&self) -> Turn {
        match self.node().kind {
            NodeKind::Max | NodeKind::Leaf => Turn::Player(Player::First),
            NodeKind::Min => Turn::Player(Player::Second),
            NodeKind::Chance => Turn::Chance,
        }
    }

    fn generate(&self, moves: &mut Vec<u32>) -> Status {
        let node = self.node();
        if node.kind == NodeKind::Leaf {
            return Status::Over(Outcome::Payoff(node.value.unwrap_or(0.0)));
        }
        moves.extend(0..node.children.len() as u32);
        Status::Ongoing
    }

    fn play(&mut self, mv: u32) {
        self.at = self.node().children[mv as usize];
    }

    fn chance_probabilities(&self, outcomes: &[u32], probs: &mut Vec<f64>) {
        let node = self.node();
        if node.probs.is_empty() {
            let n = outcomes.len() as f64;
            probs.extend(outcomes.iter().map(|_| 1.0 / n));
        } else {
            probs.extend(outcomes.iter().map(|&i| node.probs[i as usize]));
        }
    }

    fn hash_key(&self) -> Option<u64> {
        Some(crate::rng::splitmix64(u64::from(self.at)))
    }

    fn write_move(&self, mv: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let child = self.node().children.get(mv as usize).map(|&c| &self.nodes[c as usize]);
        match child.and_then(|c| c.label.as_deref()) {
            Some(label) => f.write_str(label),
            None => write!(f, "{mv}"),
        }
    }

    /// A child's label, or its index (checked by [`try_play`](Game::try_play),
    /// not here); surrounding whitespace is ignored.
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        let trimmed = text.trim();
        if let Some(mv) = self.move_to(trimmed) {
            return Ok(mv);
        }
        trimmed.parse::<u32>().map_err(|_| {
            let position = text.len() - text.trim_start().len();
            GameError::parse("move", GameError::shorten(text), position, "not a child index or label")
        })
    }
}

/// Evaluates literal-tree nodes at their bracketed static value (leaves at
/// their payoff), from `max`'s point of view; 0 where none is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct LiteralEval;

impl Evaluator<LiteralTree> for LiteralEval {
    const PERSPECTIVE: Perspective = Perspective::First;

    fn evaluate(&self, state: &LiteralTree) -> f64 {
        state.static_value().unwrap_or(0.0)
    }

    fn terminal_value(&self, outcome: Outcome, player: Player, _ply: u32) -> f64 {
        outcome.value_for(player, 1.0)
    }
}

impl FromStr for LiteralTree {
    type Err = GameError;

    /// Parses a tree in the literal syntax (see [`LiteralTree`]).
    ///
    /// The parser keeps its own stack (no recursion), and refuses trees
    /// deeper than [`LiteralTree::MAX_DEPTH`] plies: a long chain of nested
    /// nodes is a [`GameError::Parse`] error, never a stack overflow.
    /// Errors name the byte offset in `s` where the text stops making sense
    /// (the input quoted in the error is shortened by [`GameError::shorten`]).
    ///
    /// ```
    /// use search_core::GameError;
    /// use search_core::tree::LiteralTree;
    /// let deep = format!("{}1{}", "max(".repeat(20_000), ")".repeat(20_000));
    /// let err = deep.parse::<LiteralTree>().unwrap_err();
    /// assert!(matches!(err, GameError::Parse { position: 4092, .. }));
    /// ```
    fn from_str(s: &str) -> Result<Self, GameError> {
        let mut p = Parser { src: s, pos: 0, nodes: Vec::new() };
        let root = p.tree()?;
        p.skip_ws();
        if p.pos != s.len() {
            return Err(p.err("unexpected text after the tree"));
        }
        // Children are pushed before their parents: the root is the last node.
        Ok(LiteralTree { nodes: Arc::new(p.nodes), at: root })
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    nodes: Vec<Node>,
}

/// An interior node whose children are being parsed.
struct Open {
    kind: NodeKind,
    label: Option<String>,
    value: Option<f64>,
    /// Byte offset where the node's text starts (for errors about the node
    /// as a whole).
    start: usize,
    children: Vec<u32>,
    probs: Vec<Option<f64>>,
    /// The probability prefix of the child being parsed.
    pending: Option<f64>,
    /// Where the child being parsed starts.
    child_start: usize,
    /// The children's labels so far (they must differ).
    labels: HashSet<String>,
}

/// What the text of a node begins with.
enum Head {
    /// A complete leaf (already pushed).
    Leaf(u32),
    /// An interior node; its `(` has been read.
    Open(Open),
}

impl<'a> Parser<'a> {
    fn err(&self, reason: impl Into<String>) -> GameError {
        self.err_at(self.pos, reason)
    }

    fn err_at(&self, position: usize, reason: impl Into<String>) -> GameError {
        GameError::parse("tree", GameError::shorten(self.src), position, reason)
    }

    fn skip_ws(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.src[self.pos..].chars().next()
    }

    fn expect(&mut self, c: char) -> Result<(), GameError> {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            Err(self.err(format!("expected `{c}`")))
        }
    }

    fn word(&mut self) -> &'a str {
        self.skip_ws();
        let start = self.pos;
        let src = self.src;
        let rest = &src[start..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '-' || c == '+'))
            .unwrap_or(rest.len());
        self.pos += len;
        &src[start..start + len]
    }

    /// A word for an error message: quoted, and shortened if long.
    fn quote(w: &str) -> String {
        format!("{:?}", GameError::shorten(w))
    }

    fn number(&mut self) -> Result<f64, GameError> {
        let start = self.pos;
        let w = self.word();
        match w.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => {
                let found = Self::quote(w);
                self.pos = start;
                self.skip_ws();
                Err(self.err(format!("expected a number, found {found}")))
            }
        }
    }

    /// Parses a whole tree with an explicit stack of the open interior
    /// nodes, and returns the root's index.
    fn tree(&mut self) -> Result<u32, GameError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            self.skip_ws();
            let child_start = self.pos;
            // A probability prefix `p:` under chance nodes.
            let prob = match stack.last() {
                Some(parent) if parent.kind == NodeKind::Chance => self.probability()?,
                _ => None,
            };
            if let Some(parent) = stack.last_mut() {
                parent.pending = prob;
                parent.child_start = child_start;
            }
            let mut done = match self.head(stack.len())? {
                Head::Open(open) => {
                    stack.push(open);
                    continue;
                }
                Head::Leaf(leaf) => leaf,
            };
            // `done` is complete: add it to its parent, and close every
            // parent that ends here.
            loop {
                let Some(parent) = stack.last_mut() else {
                    return Ok(done);
                };
                let chance = parent.kind == NodeKind::Chance;
                let prob = parent.pending.take();
                if let Some(label) = &self.nodes[done as usize].label
                    && !parent.labels.insert(label.clone())
                {
                    let reason =
                        format!("two children of one node are labelled {}: labels name moves", Self::quote(label));
                    return Err(self.err_at(parent.child_start, reason));
                }
                parent.children.push(done);
                parent.probs.push(prob);
                if !chance && self.peek() == Some(':') {
                    return Err(self.err("probabilities are allowed under `chance` only"));
                }
                match self.peek() {
                    Some(',') => {
                        self.pos += 1;
                        break;
                    }
                    Some(')') => {
                        self.pos += 1;
                        let open = stack.pop().expect("a parent is open");
                        done = self.close(open)?;
                    }
                    _ => return Err(self.err("expected `,` or `)`")),
                }
            }
        }
    }

    /// Reads an optional `p:` prefix (under a chance node).
    fn probability(&mut self) -> Result<Option<f64>, GameError> {
        let save = self.pos;
        let w = self.word();
        if self.peek() != Some(':') {
            self.pos = save;
            return Ok(None);
        }
        match w.parse::<f64>() {
            Ok(p) => {
                self.pos += 1;
                Ok(Some(p))
            }
            Err(_) => {
                self.pos = save;
                self.skip_ws();
                Err(self.err("expected a probability before `:`"))
            }
        }
    }

    /// Reads the beginning of a node at `ply` (the number of open interior
    /// nodes above it): a whole leaf, or an interior node up to its `(`.
    fn head(&mut self, ply: usize) -> Result<Head, GameError> {
        self.skip_ws();
        let start = self.pos;
        let mut word_start = start;
        let mut word = self.word();
        let mut label = None;
        if self.peek() == Some('=') {
            if !word.starts_with(char::is_alphabetic) {
                self.pos = start;
                return Err(self.err("a label must start with a letter"));
            }
            label = Some(word.to_string());
            self.pos += 1;
            self.skip_ws();
            word_start = self.pos;
            word = self.word();
        }
        let kind = match word {
            "max" => NodeKind::Max,
            "min" => NodeKind::Min,
            "chance" => NodeKind::Chance,
            "" => return Err(self.err("expected a node")),
            w => match w.parse::<f64>() {
                Ok(v) if v.is_finite() => {
                    self.nodes.push(Node {
                        kind: NodeKind::Leaf,
                        label,
                        value: Some(v),
                        children: vec![],
                        probs: vec![],
                    });
                    return Ok(Head::Leaf(self.nodes.len() as u32 - 1));
                }
                _ => {
                    let found = Self::quote(w);
                    self.pos = word_start;
                    return Err(self.err(format!("expected `max`, `min`, `chance` or a number, found {found}")));
                }
            },
        };
        if ply >= LiteralTree::MAX_DEPTH {
            return Err(self.err_at(
                start,
                format!(
                    "the tree is deeper than {} plies (searches stop at ply MAX_PLY = {MAX_PLY})",
                    LiteralTree::MAX_DEPTH
                ),
            ));
        }
        let mut value = None;
        if self.peek() == Some('[') {
            self.pos += 1;
            value = Some(self.number()?);
            self.expect(']')?;
        }
        self.expect('(')?;
        Ok(Head::Open(Open {
            kind,
            label,
            value,
            start,
            children: Vec::new(),
            probs: Vec::new(),
            pending: None,
            child_start: start,
            labels: HashSet::new(),
        }))
    }

    /// Checks a chance node's probabilities and pushes the finished node.
    fn close(&mut self, open: Open) -> Result<u32, GameError> {
        let Open { kind, label, value, start, children, probs, .. } = open;
        let probs: Vec<f64> = if probs.iter().all(Option::is_none) {
            Vec::new()
        } else if let Some(given) = probs.iter().copied().collect::<Option<Vec<f64>>>() {
            ParamError::distribution("chance probabilities", &given).map_err(|e| self.err_at(start, e.to_string()))?;
            given
        } else {
            return Err(self.err_at(start, "give a probability for every chance child or for none"));
        };
        self.nodes.push(Node { kind, label, value, children, probs });
        Ok(self.nodes.len() as u32 - 1)
    }
}
