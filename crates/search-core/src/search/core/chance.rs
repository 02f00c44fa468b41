//! Chance nodes of the core: the expectation over outcomes, checked
//! probabilities, Star1/Star2 windows and cut-offs, and Monte Carlo sampling
//! of outcomes.

use std::mem::take;

use super::Core;
use crate::backup::{Backup, BackupValue, ChildInfo, NodeInfo};
use crate::error::GameError;
use crate::eval::Evaluator;
use crate::game::{Game, Player, Status, Turn};
use crate::rng::sample_index;
use crate::search::{Observer, RootMove, Star};
use crate::window::{Bound, Window};

/// How far chance probabilities may sum from one.
pub(crate) const PROBABILITY_TOLERANCE: f64 = 1e-9;

impl<G: Game, R: Backup, E: Evaluator<G>, O: Observer<G> + ?Sized, const FULL: bool> Core<'_, G, R, E, O, FULL> {
    /// A chance node: the rule takes the expectation; with Negamax rules and
    /// known bounds, Star1/Star2 windows and cutoffs.
    pub(super) fn chance_node(
        &mut self,
        state: &G,
        node: &NodeInfo,
        moves: &mut Vec<G::Move>,
        window: Window,
    ) -> Option<R::Value> {
        let p = node.ply as usize;
        let mut probs = take(&mut self.plies[p].probs);
        probs.clear();
        state.chance_probabilities(moves, &mut probs);
        if let Err(e) = check_distribution(&probs, moves.len()) {
            let state = GameError::shorten(&format!("{state:?}"));
            self.fail(GameError::InvalidChance { state, reason: e.to_string() });
            self.plies[p].probs = probs;
            return None;
        }
        if let Some(n) = self.opts.chance_samples {
            self.sample_outcomes(moves, &mut probs, n, p);
        }
        let star = match (self.negamax, self.bounds) {
            (true, Some(b)) if self.opts.star != Star::Off => Some(b),
            _ => None,
        };
        let mut child_bounds = take(&mut self.plies[p].child_bounds);
        child_bounds.clear();
        let mut result = None;
        let mut cut = None;
        if let Some((lo, hi)) = star {
            child_bounds.extend(moves.iter().map(|_| (lo, hi)));
            if self.opts.star == Star::Star2 {
                cut = self.probe(state, node, moves, &probs, window, &mut child_bounds);
            }
        }
        if !self.aborted {
            result = match cut {
                Some(bound) => self.value_of(bound),
                None => self.chance_children(state, node, moves, &probs, &child_bounds, window, star.is_some()),
            };
        }
        self.plies[p].probs = probs;
        self.plies[p].child_bounds = child_bounds;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn chance_children(
        &mut self,
        state: &G,
        node: &NodeInfo,
        moves: &[G::Move],
        probs: &[f64],
        child_bounds: &[(f64, f64)],
        window: Window,
        star: bool,
    ) -> Option<R::Value> {
        let depth = self.child_depth(Turn::Chance, node.depth);
        let ply = node.ply;
        let mut acc = self.s.rule.open(node);
        let mut sum = 0.0;
        let mut rest_lo: f64 = probs.iter().zip(child_bounds).map(|(p, b)| p * b.0).sum();
        let mut rest_hi: f64 = probs.iter().zip(child_bounds).map(|(p, b)| p * b.1).sum();
        for (index, (&mv, &prob)) in moves.iter().zip(probs).enumerate() {
            if prob == 0.0 {
                continue;
            }
            let mut child = state.clone();
            child.play(mv);
            let flip = Self::perspective(child.turn()) != node.perspective;
            let info = ChildInfo { index, probability: prob, flip };
            let w = if star {
                rest_lo -= prob * child_bounds[index].0;
                rest_hi -= prob * child_bounds[index].1;
                Window::new((window.alpha - sum - rest_hi) / prob, (window.beta - sum - rest_lo) / prob)
            } else {
                Window::FULL
            };
            let value = self.search_child(mv, &child, depth, ply + 1, w.for_child(flip))?;
            self.s.rule.add(node, &mut acc, &info, value);
            if ply == 0 {
                let score = self.s.rule.child_score(node, &info, &value);
                self.root_moves.push(RootMove { mv, score, bound: Bound::Exact });
            }
            if star {
                sum += prob * info.to_parent(value.scalar());
                let (upper, lower) = (sum + rest_hi, sum + rest_lo);
                if upper <= window.alpha || lower >= window.beta {
                    self.stats.cutoffs += 1;
                    let bound = if upper <= window.alpha { upper } else { lower };
                    return self.value_of(bound);
                }
            }
        }
        Some(self.s.rule.close(node, acc))
    }

    /// Star2's probing pass. For each outcome whose player moves next, one
    /// move is searched with a null window at the value that, with the
    /// other outcomes at their current bounds, would cut the chance node: a
    /// lower bound for the first player's nodes (towards a fail high), an
    /// upper bound for the second's (towards a fail low), in the chance
    /// node's view. Returns the cut-off bound if the probes alone prove one.
    /// `None` also when a limit stopped the search (`self.aborted`).
    fn probe(
        &mut self,
        state: &G,
        node: &NodeInfo,
        moves: &[G::Move],
        probs: &[f64],
        window: Window,
        bounds: &mut [(f64, f64)],
    ) -> Option<f64> {
        let child_depth = self.child_depth(Turn::Chance, node.depth);
        if child_depth < 1 {
            return None;
        }
        let ply = node.ply;
        let p = ply as usize + 1;
        self.ensure_ply(p);
        let mut grand = take(&mut self.plies[p].qmoves);
        let mut lo_sum: f64 = probs.iter().zip(bounds.iter()).map(|(p, b)| p * b.0).sum();
        let mut hi_sum: f64 = probs.iter().zip(bounds.iter()).map(|(p, b)| p * b.1).sum();
        let mut cut = None;
        for (i, &mv) in moves.iter().enumerate() {
            let prob = probs[i];
            if prob == 0.0 {
                continue;
            }
            let mut child = state.clone();
            child.play(mv);
            let Turn::Player(mover) = child.turn() else { continue };
            grand.clear();
            if let Status::Over(_) = child.generate(&mut grand) {
                continue;
            }
            let gc_depth = self.child_depth(child.turn(), child_depth);
            let mut gc = child.clone();
            gc.play(grand[0]);
            let flip = Self::perspective(gc.turn()) != mover;
            // The child's value, chance node's view, that would cut.
            let (threshold, first) = if mover == Player::First {
                ((window.beta - (lo_sum - prob * bounds[i].0)) / prob, true)
            } else {
                ((window.alpha - (hi_sum - prob * bounds[i].1)) / prob, false)
            };
            if !threshold.is_finite() || threshold > bounds[i].1 || threshold < bounds[i].0 {
                continue;
            }
            // In the mover's view: the first player wants >= threshold, the
            // second wants its own value >= -threshold.
            let target = if first { threshold } else { -threshold };
            let w = Window::new(target.next_down(), target).for_child(flip);
            if FULL && self.trace {
                self.path.push(mv);
            }
            let v = self.search_child(grand[0], &gc, gc_depth, ply + 2, w);
            if FULL && self.trace {
                self.path.pop();
            }
            let Some(v) = v else { break };
            let x = v.scalar();
            // The child's value (its mover's view) is at least the probe's.
            let at_least = if flip { -x } else { x };
            if at_least < target {
                continue; // failed low: no bound
            }
            if first {
                let old = bounds[i].0;
                bounds[i].0 = old.max(at_least);
                lo_sum += prob * (bounds[i].0 - old);
                if lo_sum >= window.beta {
                    cut = Some(lo_sum);
                    break;
                }
            } else {
                let old = bounds[i].1;
                bounds[i].1 = old.min(-at_least);
                hi_sum += prob * (bounds[i].1 - old);
                if hi_sum <= window.alpha {
                    cut = Some(hi_sum);
                    break;
                }
            }
        }
        self.plies[p].qmoves = grand;
        if cut.is_some() {
            self.stats.cutoffs += 1;
        }
        cut
    }

    /// Monte Carlo chance node: replaces the outcomes by `n` samples
    /// (grouped: each distinct outcome once, weighted by its count).
    fn sample_outcomes(&mut self, moves: &mut Vec<G::Move>, probs: &mut Vec<f64>, n: u32, p: usize) {
        let mut counts = take(&mut self.plies[p].keys);
        counts.clear();
        counts.extend((0..moves.len() as u32).map(|i| (0i64, i)));
        for _ in 0..n {
            counts[sample_index(probs, &mut self.rng)].0 += 1;
        }
        let mut ordered = take(&mut self.plies[p].ordered);
        ordered.clear();
        probs.clear();
        for &(c, i) in counts.iter().filter(|c| c.0 > 0) {
            ordered.push(moves[i as usize]);
            probs.push(c as f64 / f64::from(n));
        }
        std::mem::swap(moves, &mut ordered);
        self.plies[p].ordered = ordered;
        self.plies[p].keys = counts;
    }
}

/// Why chance probabilities are not a distribution over a node's outcomes
/// (the reason of a [`GameError::InvalidChance`]).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
enum DistributionError {
    /// Not one probability per outcome.
    #[error("{probabilities} probabilities for {outcomes} outcomes")]
    Count {
        /// Probabilities given.
        probabilities: usize,
        /// Outcomes of the node.
        outcomes: usize,
    },
    /// A probability that is NaN or outside `[0, 1]`.
    #[error("probability {0} is not within [0, 1]")]
    OutOfRange(f64),
    /// Probabilities whose sum is not one (within the tolerance).
    #[error("probabilities sum to {0}, not 1")]
    Sum(f64),
}

/// Checks chance probabilities: one per outcome, each finite and within
/// `[0, 1]`, summing to one within [`PROBABILITY_TOLERANCE`].
fn check_distribution(probs: &[f64], outcomes: usize) -> Result<(), DistributionError> {
    if probs.len() != outcomes {
        return Err(DistributionError::Count { probabilities: probs.len(), outcomes });
    }
    let mut sum = 0.0;
    for &p in probs {
        if !(0.0..=1.0).contains(&p) {
            return Err(DistributionError::OutOfRange(p));
        }
        sum += p;
    }
    if (sum - 1.0).abs() > PROBABILITY_TOLERANCE * (outcomes.max(1) as f64) {
        return Err(DistributionError::Sum(sum));
    }
    Ok(())
}
