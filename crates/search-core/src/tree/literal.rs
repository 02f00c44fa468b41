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
//! labelled child prints as its label.
//!
//! ```
//! use search_core::tree::LiteralTree;
//! // The lecture notes' alpha-beta example.
//! let t: LiteralTree = "min(0.3, max(0.7, 0.2, 0.9))".parse().unwrap();
//! assert_eq!(t.to_string(), "min(0.3, max(0.7, 0.2, 0.9))");
//! let err = "max(1, ".parse::<LiteralTree>().unwrap_err();
//! assert!(err.to_string().contains("byte 7"));
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::error::{GameError, ParamError};
use crate::eval::{Evaluator, Perspective};
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

    fn fmt_node(&self, at: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let node = &self.nodes[at as usize];
        if let Some(label) = &node.label {
            write!(f, "{label}=")?;
        }
        let name = match node.kind {
            NodeKind::Leaf => return write!(f, "{}", node.value.unwrap_or(0.0)),
            NodeKind::Max => "max",
            NodeKind::Min => "min",
            NodeKind::Chance => "chance",
        };
        f.write_str(name)?;
        if let Some(v) = node.value {
            write!(f, "[{v}]")?;
        }
        f.write_str("(")?;
        for (i, &c) in node.children.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if node.kind == NodeKind::Chance && !node.probs.is_empty() {
                write!(f, "{}: ", node.probs[i])?;
            }
            self.fmt_node(c, f)?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for LiteralTree {
    /// Prints the subtree below the current node in the literal syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_node(self.at, f)
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

    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        let text = text.trim();
        if let Some(mv) = self.move_to(text) {
            return Ok(mv);
        }
        text.parse::<u32>().map_err(|_| GameError::parse("move", text, 0, "not a child index or label"))
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

    fn from_str(s: &str) -> Result<Self, GameError> {
        let mut p = Parser { src: s, pos: 0, nodes: Vec::new() };
        let root = p.node()?;
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

impl Parser<'_> {
    fn err(&self, reason: impl Into<String>) -> GameError {
        GameError::parse("tree", self.src, self.pos, reason)
    }

    fn skip_ws(&mut self) {
        while self.src[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.src[self.pos..].chars().next().map_or(1, char::len_utf8);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.src[self.pos..].chars().next()
    }

    fn expect(&mut self, c: char) -> Result<(), GameError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(format!("expected `{c}`")))
        }
    }

    fn word(&mut self) -> &str {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.src[start..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '-' || c == '+'))
            .unwrap_or(rest.len());
        self.pos += len;
        &self.src[start..start + len]
    }

    fn number(&mut self) -> Result<f64, GameError> {
        let start = self.pos;
        let w = self.word().to_string();
        match w.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => {
                self.pos = start;
                self.skip_ws();
                Err(self.err(format!("expected a number, found {w:?}")))
            }
        }
    }

    fn node(&mut self) -> Result<u32, GameError> {
        self.skip_ws();
        let start = self.pos;
        let mut word = self.word().to_string();
        let mut label = None;
        if self.peek() == Some('=') {
            if word.is_empty() || !word.starts_with(|c: char| c.is_alphabetic()) {
                self.pos = start;
                return Err(self.err("a label must start with a letter"));
            }
            self.pos += 1;
            label = Some(word);
            self.skip_ws();
            word = self.word().to_string();
        }
        let kind = match word.as_str() {
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
                    return Ok(self.nodes.len() as u32 - 1);
                }
                _ => {
                    self.pos -= w.len();
                    return Err(self.err(format!("expected `max`, `min`, `chance` or a number, found {w:?}")));
                }
            },
        };
        let mut value = None;
        if self.peek() == Some('[') {
            self.pos += 1;
            value = Some(self.number()?);
            self.expect(']')?;
        }
        self.expect('(')?;
        let mut children = Vec::new();
        let mut probs: Vec<Option<f64>> = Vec::new();
        loop {
            // A probability prefix `p:` under chance nodes.
            let save = self.pos;
            let mut prob = None;
            if kind == NodeKind::Chance {
                let w = self.word().to_string();
                if self.peek() == Some(':') {
                    prob = Some(w.parse::<f64>().map_err(|_| {
                        self.pos = save;
                        self.skip_ws();
                        self.err("expected a probability before `:`")
                    })?);
                    self.pos += 1;
                } else {
                    self.pos = save;
                }
            }
            let child = self.node()?;
            if kind != NodeKind::Chance && self.peek() == Some(':') {
                return Err(self.err("probabilities are allowed under `chance` only"));
            }
            probs.push(prob);
            children.push(child);
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(')') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.err("expected `,` or `)`")),
            }
        }
        let probs: Vec<f64> = if probs.iter().all(Option::is_none) {
            Vec::new()
        } else if let Some(given) = probs.iter().copied().collect::<Option<Vec<f64>>>() {
            ParamError::distribution("chance probabilities", &given)
                .map_err(|e| GameError::parse("tree", self.src, start, e.to_string()))?;
            given
        } else {
            return Err(GameError::parse(
                "tree",
                self.src,
                start,
                "give a probability for every chance child or for none",
            ));
        };
        self.nodes.push(Node { kind, label, value, children, probs });
        Ok(self.nodes.len() as u32 - 1)
    }
}
