//! The human model's nonlinear utility: a small network over a move's
//! features and the player's rating.
//!
//! Each move's inputs are its [`K`] features standardised (`(f − mean) /
//! scale`, the train split's), the rating's `z` ([`rating_z`](super::rating_z))
//! and the standardised features times `z` ([`INPUTS`] in all). Hidden layers
//! with ReLU, then one output, plus a linear skip from the inputs: the
//! utility `u`, turned into move probabilities by a softmax over the legal
//! moves as the linear model's. Inference is plain `f64` arithmetic in a
//! fixed order, so the same inputs give the same utilities on every machine.

use serde::{Deserialize, Serialize};

use super::features::K;

/// The inputs of the network for one move: the standardised features, `z`,
/// and their products with `z`.
pub const INPUTS: usize = 2 * K + 1;

/// A fully connected layer: `outputs × inputs` weights (row-major by output)
/// and one bias per output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dense {
    /// How many inputs.
    pub inputs: usize,
    /// How many outputs.
    pub outputs: usize,
    /// Output `o`'s weights are `weights[o * inputs..(o + 1) * inputs]`.
    pub weights: Vec<f64>,
    /// One per output.
    pub bias: Vec<f64>,
}

impl Dense {
    /// `out[o] = max(0, bias[o] + weights[o] · x)`.
    fn relu(&self, x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.weights.chunks_exact(self.inputs).zip(&self.bias).map(|(w, b)| {
            let s = w.iter().zip(x).fold(*b, |acc, (w, x)| acc + w * x);
            s.max(0.0)
        }));
    }
}

/// How a move's features become the network's inputs: standardised by the
/// train split's means and standard deviations, then `z` and their products
/// with `z`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standardisation {
    /// The features' means ([`K`]).
    pub mean: Vec<f64>,
    /// The features' standard deviations ([`K`], positive).
    pub scale: Vec<f64>,
}

impl Standardisation {
    /// A move's [`INPUTS`] inputs from its features `f` ([`K`]) and the
    /// rating's `z`, written to `out`.
    pub fn inputs(&self, f: &[f64], z: f64, out: &mut Vec<f64>) {
        out.clear();
        out.extend(f.iter().zip(&self.mean).zip(&self.scale).map(|((f, m), s)| (f - m) / s));
        out.push(z);
        for k in 0..K {
            out.push(out[k] * z);
        }
    }
}

/// The network: standardisation, hidden layers, output and skip weights.
///
/// ```
/// use games_chess::human::{Dense, INPUTS, K, Network, Standardisation};
/// // One hidden unit that passes the first standardised feature through.
/// let mut first = vec![0.0; INPUTS];
/// first[0] = 1.0;
/// let net = Network {
///     standard: Standardisation { mean: vec![0.0; K], scale: vec![1.0; K] },
///     hidden: vec![Dense { inputs: INPUTS, outputs: 1, weights: first, bias: vec![0.0] }],
///     output: vec![2.0],
///     output_bias: 0.0,
///     skip: vec![0.0; INPUTS],
/// };
/// net.check()?;
/// let mut rows = vec![0.0; 2 * K];
/// rows[0] = 1.5; // the first move's first feature
/// rows[K] = -1.0; // the second move's: ReLU gives 0
/// assert_eq!(net.utilities(&rows, 0.0), vec![3.0, 0.0]);
/// # Ok::<(), games_chess::human::ModelError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// How features become inputs.
    pub standard: Standardisation,
    /// The hidden layers (ReLU), the first taking [`INPUTS`].
    pub hidden: Vec<Dense>,
    /// The output weights, one per unit of the last hidden layer.
    pub output: Vec<f64>,
    /// The output's bias (the same for every move, so it changes no
    /// probability; kept for a faithful copy of the trained network).
    pub output_bias: f64,
    /// The linear skip from the inputs to the output ([`INPUTS`]).
    pub skip: Vec<f64>,
}

impl Network {
    /// Checks the shapes and that every number is finite (scales positive).
    pub fn check(&self) -> Result<(), super::ModelError> {
        let bad = |what: String| Err(super::ModelError(format!("network: {what}")));
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        let standard = &self.standard;
        if standard.mean.len() != K || standard.scale.len() != K || !finite(&standard.mean) {
            return bad(format!("expected {K} finite means and scales"));
        }
        if standard.scale.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
            return bad("a scale is not finite and positive".into());
        }
        let mut width = INPUTS;
        for (i, layer) in self.hidden.iter().enumerate() {
            let shaped = layer.inputs == width
                && layer.outputs > 0
                && layer.weights.len() == layer.inputs * layer.outputs
                && layer.bias.len() == layer.outputs;
            if !shaped || !finite(&layer.weights) || !finite(&layer.bias) {
                return bad(format!("hidden layer {i} is not {width} inputs to its outputs, all finite"));
            }
            width = layer.outputs;
        }
        if self.hidden.is_empty() {
            return bad("no hidden layer".into());
        }
        if self.output.len() != width || !finite(&self.output) || !self.output_bias.is_finite() {
            return bad(format!("expected {width} finite output weights"));
        }
        if self.skip.len() != INPUTS || !finite(&self.skip) {
            return bad(format!("expected {INPUTS} finite skip weights"));
        }
        Ok(())
    }

    /// The utilities of a decision's moves (`rows`: [`K`] features each)
    /// for a player whose rating has `z`.
    pub fn utilities(&self, rows: &[f64], z: f64) -> Vec<f64> {
        let mut x = Vec::with_capacity(INPUTS);
        let (mut h, mut next) = (Vec::new(), Vec::new());
        rows.chunks_exact(K)
            .map(|f| {
                self.standard.inputs(f, z, &mut x);
                let linear = self.skip.iter().zip(&x).fold(self.output_bias, |acc, (w, x)| acc + w * x);
                h.clear();
                h.extend_from_slice(&x);
                for layer in &self.hidden {
                    layer.relu(&h, &mut next);
                    std::mem::swap(&mut h, &mut next);
                }
                self.output.iter().zip(&h).fold(linear, |acc, (w, h)| acc + w * h)
            })
            .collect()
    }
}
