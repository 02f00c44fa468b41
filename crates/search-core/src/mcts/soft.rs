//! The soft (Boltzmann, entropy-regularised) backup of maximum-entropy
//! tree search.

use crate::error::ParamError;
use crate::mcts::backup::{ChildStats, MctsBackup, NodeKind, NodeStats, chance_expectation};

/// The soft backup of maximum-entropy tree search (MENTS, Xiao, Mei and
/// Müller, 2019): at a decision node the value is the log-sum-exp
/// `τ · ln Σ exp(Q_a / τ)` of the visited children's values `Q_a`, the
/// optimal value of the entropy-regularised game with temperature τ; at a
/// chance node, the probability-weighted mean of the visited children.
/// Its [soft policy](MctsBackup::soft_policy) is the Boltzmann policy
/// `π(a) ∝ exp(Q_a / τ)`, which [Boltzmann
/// selection](crate::mcts::Selection::Boltzmann) samples (MENTS's E2W) and
/// [`FinalMove::Sample`](crate::mcts::FinalMove::Sample) plays.
///
/// As τ → 0 the soft value tends to the max (the Bellman backup of BTS and
/// DENTS, Painter et al.); a large τ rewards keeping options open: the soft
/// value of a node with `k` equal children is `Q + τ ln k`. Unvisited
/// children are left out of the sum (MENTS initialises them at 0; here
/// every child is visited once before any is revisited, so they are left
/// out only until then).
///
/// ```
/// use search_core::mcts::{ChildStats, MctsBackup, NodeKind, NodeStats, Soft};
/// let soft = Soft::new(0.5)?;
/// let node = NodeStats { kind: NodeKind::Decision, visits: 2, mean: 0.0 };
/// let kids = [ChildStats { visits: 1, value: 0.0, probability: 1.0 },
///             ChildStats { visits: 1, value: 0.0, probability: 1.0 }];
/// assert!((soft.value(&node, &kids) - 0.5 * 2f64.ln()).abs() < 1e-12);
/// assert!(Soft::new(0.0).is_err() && Soft::new(f64::NAN).is_err());
/// # Ok::<(), search_core::ParamError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Soft {
    tau: f64,
}

impl Soft {
    /// The soft backup with temperature `tau` (on the `[-1, 1]` value
    /// scale; 0.05 to 0.5 are sensible).
    ///
    /// Errors: τ not finite and positive.
    pub fn new(tau: f64) -> Result<Self, ParamError> {
        Ok(Soft { tau: ParamError::positive("tau", tau)? })
    }

    /// The temperature τ.
    pub fn tau(&self) -> f64 {
        self.tau
    }
}

impl MctsBackup for Soft {
    fn name(&self) -> String {
        format!("soft τ={}", self.tau)
    }

    fn value(&self, node: &NodeStats, children: &[ChildStats]) -> f64 {
        match node.kind {
            NodeKind::Chance => chance_expectation(children).unwrap_or(node.mean),
            NodeKind::Decision => {
                let max = children.iter().filter(|c| c.visits > 0).map(|c| c.value).fold(f64::NEG_INFINITY, f64::max);
                if max == f64::NEG_INFINITY {
                    return node.mean;
                }
                let sum: f64 =
                    children.iter().filter(|c| c.visits > 0).map(|c| ((c.value - max) / self.tau).exp()).sum();
                max + self.tau * sum.ln()
            }
        }
    }

    fn soft_policy(&self, children: &[ChildStats], out: &mut Vec<f64>) -> bool {
        let max = children.iter().filter(|c| c.visits > 0).map(|c| c.value).fold(f64::NEG_INFINITY, f64::max);
        if max == f64::NEG_INFINITY {
            out.extend(children.iter().map(|_| 1.0 / children.len() as f64));
            return true;
        }
        // An unvisited child counts as worth 0, as MENTS initialises it.
        let q = |c: &ChildStats| if c.visits > 0 { c.value } else { 0.0 };
        let max = max.max(if children.iter().any(|c| c.visits == 0) { 0.0 } else { f64::NEG_INFINITY });
        out.extend(children.iter().map(|c| ((q(c) - max) / self.tau).exp()));
        let total: f64 = out.iter().sum();
        out.iter_mut().for_each(|p| *p /= total);
        true
    }

    fn has_soft_policy(&self) -> bool {
        true
    }
}
