//! The search tree: one arena (`Vec`) of nodes, each node's children in one
//! contiguous range; re-rooting copies the kept subtree to the front.

/// What acts at a node, once known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Actor {
    /// Not visited yet.
    Unknown,
    /// The first player (values as they are).
    First,
    /// The second player (values negated).
    Second,
    /// Chance.
    Chance,
}

impl Actor {
    /// The sign that turns a value from the first player's view into the
    /// actor's (chance: the first player's).
    #[inline]
    pub(crate) fn sign(self) -> f64 {
        if self == Actor::Second { -1.0 } else { 1.0 }
    }
}

/// A node. Values are kept from the first player's point of view, on the
/// `[-1, 1]` scale.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node<M> {
    /// The move from the parent (`None` at the root).
    pub(crate) mv: Option<M>,
    /// The first child's index (children are `first..first + len`).
    pub(crate) first: u32,
    /// The number of children (0: not expanded).
    pub(crate) len: u32,
    pub(crate) visits: u32,
    /// `1/√visits` (0 before the first visit), kept by the backup so that
    /// selection does no square root or division per child.
    pub(crate) inv_sqrt_visits: f64,
    /// The sum of the returns through the node.
    pub(crate) sum: f64,
    /// The backed-up value.
    pub(crate) value: f64,
    /// The probability of this child at a chance parent (1 otherwise).
    pub(crate) prob: f64,
    pub(crate) actor: Actor,
    /// A finished game: `value` is exact.
    pub(crate) terminal: bool,
}

impl<M> Node<M> {
    pub(crate) fn new(mv: Option<M>, prob: f64) -> Self {
        Node {
            mv,
            first: 0,
            len: 0,
            visits: 0,
            inv_sqrt_visits: 0.0,
            sum: 0.0,
            value: 0.0,
            prob,
            actor: Actor::Unknown,
            terminal: false,
        }
    }

    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.len) as usize
    }
}

/// The arena. Index 0 is the root.
#[derive(Debug)]
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<Node<M>>,
    /// The buffer re-rooting copies into (kept to avoid allocating).
    spare: Vec<Node<M>>,
}

impl<M: Copy + PartialEq> Tree<M> {
    pub(crate) fn new() -> Self {
        Tree { nodes: Vec::new(), spare: Vec::new() }
    }

    /// Empties the tree and puts a fresh root in.
    pub(crate) fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(None, 1.0));
    }

    /// True if the tree holds only an unvisited root (or nothing).
    pub(crate) fn is_fresh(&self) -> bool {
        self.nodes.first().is_none_or(|r| r.visits == 0)
    }

    /// The child of `node` reached by `mv`.
    pub(crate) fn child(&self, node: usize, mv: M) -> Option<usize> {
        self.nodes[node].children().find(|&c| self.nodes[c].mv == Some(mv))
    }

    /// Makes the node reached from the root by `path` the new root, keeping
    /// its subtree (and its statistics) and dropping the rest. Returns false
    /// (and resets the tree) if the path leaves the tree.
    pub(crate) fn reroot(&mut self, path: &[M]) -> bool {
        if self.nodes.is_empty() {
            self.reset();
            return path.is_empty();
        }
        let mut at = 0;
        for &mv in path {
            match self.child(at, mv) {
                Some(c) => at = c,
                None => {
                    self.reset();
                    return false;
                }
            }
        }
        if at == 0 {
            return true;
        }
        // Breadth-first copy: each copied node's children are appended in
        // one block, so ranges stay contiguous.
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        let mut root = self.nodes[at];
        root.mv = None;
        out.push(root);
        let mut i = 0;
        while i < out.len() {
            let range = out[i].children();
            if !range.is_empty() {
                out[i].first = out.len() as u32;
                out.extend_from_slice(&self.nodes[range]);
            }
            i += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reroot_keeps_the_subtree_contiguous() {
        let mut t = Tree::<u8>::new();
        t.reset();
        // root -> a(1), b(2); b -> c(3), d(4); d -> e(5)
        t.nodes[0].first = 1;
        t.nodes[0].len = 2;
        t.nodes.push(Node::new(Some(1), 1.0));
        t.nodes.push(Node::new(Some(2), 1.0));
        t.nodes[2].first = 3;
        t.nodes[2].len = 2;
        t.nodes[2].visits = 7;
        t.nodes.push(Node::new(Some(3), 1.0));
        t.nodes.push(Node::new(Some(4), 1.0));
        t.nodes[4].first = 5;
        t.nodes[4].len = 1;
        t.nodes.push(Node::new(Some(5), 1.0));
        assert!(t.reroot(&[2]));
        assert_eq!(t.nodes.len(), 4);
        assert_eq!(t.nodes[0].visits, 7);
        assert_eq!(t.nodes[0].mv, None);
        let d = t.child(0, 4).unwrap();
        let e = t.child(d, 5).unwrap();
        assert_eq!(t.nodes[e].mv, Some(5));
        assert!(!t.reroot(&[9]));
        assert_eq!(t.nodes.len(), 1);
    }
}
