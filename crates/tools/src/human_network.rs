//! Trains the human model's [`Network`]: the conditional logit over a
//! decision's legal moves with a small network as the utility, fitted by
//! AdamW (candle) on minibatches of decisions.
//!
//! The loss of a decision is `log Σⱼ exp(uⱼ) − u_chosen` (its moves'
//! utilities `u` from the network); a minibatch's is the mean over its
//! decisions. Weights start from a seeded draw (He's normal for the hidden
//! layers, zeros for the output and the skip); the decisions are visited in
//! a seeded order; the learning rate halves after every epoch.

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use games_chess::human::{Decisions, Dense, INPUTS, K, Network, Standardisation, rating_z};
use rand::Rng;
use search_core::rng;

/// How the network is trained.
#[derive(Debug, Clone)]
pub(crate) struct NetworkSetup {
    /// The hidden layers' widths.
    pub(crate) hidden: Vec<usize>,
    /// Passes over the train decisions.
    pub(crate) epochs: usize,
    /// Decisions per minibatch.
    pub(crate) batch: usize,
    /// The first epoch's learning rate (halved after each epoch).
    pub(crate) learning_rate: f64,
    /// AdamW's decoupled weight decay.
    pub(crate) weight_decay: f64,
    /// Seeds the initial weights and the order of the minibatches.
    pub(crate) seed: u64,
}

impl Default for NetworkSetup {
    fn default() -> Self {
        NetworkSetup { hidden: vec![128, 64], epochs: 6, batch: 2048, learning_rate: 2e-3, weight_decay: 1e-5, seed: 1 }
    }
}

/// The features' means and standard deviations over every move of `d`.
fn standardisation(d: &Decisions) -> Standardisation {
    let rows = (d.x.len() / K).max(1) as f64;
    let mut mean = vec![0.0; K];
    for f in d.x.chunks_exact(K) {
        for k in 0..K {
            mean[k] += f[k];
        }
    }
    mean.iter_mut().for_each(|m| *m /= rows);
    let mut var = vec![0.0; K];
    for f in d.x.chunks_exact(K) {
        for k in 0..K {
            var[k] += (f[k] - mean[k]).powi(2);
        }
    }
    // A constant feature keeps scale 1: it standardises to 0 either way.
    let scale = var.iter().map(|v| (v / rows).sqrt()).map(|s| if s > 1e-9 { s } else { 1.0 }).collect();
    Standardisation { mean, scale }
}

/// A standard normal draw (Box–Muller).
fn normal(r: &mut impl Rng) -> f64 {
    let u: f64 = 1.0 - r.random::<f64>();
    let v: f64 = r.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The trainable tensors: per hidden layer its weights (`inputs × outputs`)
/// and bias, then the output weights (`last × 1`) and the skip (`INPUTS × 1`).
struct Params {
    hidden: Vec<(Var, Var)>,
    output: Var,
    skip: Var,
}

impl Params {
    fn new(setup: &NetworkSetup, dev: &Device) -> candle_core::Result<Params> {
        let mut r = rng::seeded(setup.seed);
        let mut hidden = Vec::new();
        let mut width = INPUTS;
        for &h in &setup.hidden {
            let sd = (2.0 / width as f64).sqrt();
            let w: Vec<f32> = (0..width * h).map(|_| (normal(&mut r) * sd) as f32).collect();
            hidden.push((Var::from_tensor(&Tensor::from_vec(w, (width, h), dev)?)?, Var::zeros(h, DType::F32, dev)?));
            width = h;
        }
        Ok(Params {
            hidden,
            output: Var::zeros((width, 1), DType::F32, dev)?,
            skip: Var::zeros((INPUTS, 1), DType::F32, dev)?,
        })
    }

    fn vars(&self) -> Vec<Var> {
        let mut v: Vec<Var> = self.hidden.iter().flat_map(|(w, b)| [w.clone(), b.clone()]).collect();
        v.push(self.output.clone());
        v.push(self.skip.clone());
        v
    }

    /// The utilities of the rows of `x` (`n × INPUTS`), as an `n`-vector.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let mut h = x.clone();
        for (w, b) in &self.hidden {
            h = h.matmul(w.as_tensor())?.broadcast_add(b.as_tensor())?.relu()?;
        }
        h.matmul(self.output.as_tensor())?.add(&x.matmul(self.skip.as_tensor())?)?.squeeze(1)
    }

    /// The trained network, in `f64`.
    fn network(&self, standard: Standardisation) -> candle_core::Result<Network> {
        let column = |v: &Var| -> candle_core::Result<Vec<f64>> {
            Ok(v.as_tensor().flatten_all()?.to_vec1::<f32>()?.into_iter().map(f64::from).collect())
        };
        let mut hidden = Vec::new();
        for (w, b) in &self.hidden {
            let (inputs, outputs) = w.as_tensor().dims2()?;
            // Stored by output: the transpose of the `inputs × outputs` matrix.
            let weights = w.as_tensor().t()?.contiguous()?.flatten_all()?.to_vec1::<f32>()?;
            hidden.push(Dense {
                inputs,
                outputs,
                weights: weights.into_iter().map(f64::from).collect(),
                bias: column(b)?,
            });
        }
        Ok(Network { standard, hidden, output: column(&self.output)?, output_bias: 0.0, skip: column(&self.skip)? })
    }
}

/// One minibatch as tensors: the inputs of its moves, the decision of each
/// move, each decision's chosen row, and where each decision's rows start.
struct Batch {
    x: Tensor,
    decision_of_row: Tensor,
    chosen_rows: Tensor,
    starts: Vec<usize>,
}

fn batch(d: &Decisions, ids: &[usize], standard: &Standardisation, dev: &Device) -> candle_core::Result<Batch> {
    let rows: usize = ids.iter().map(|&i| d.starts[i + 1] - d.starts[i]).sum();
    let mut x = Vec::with_capacity(rows * INPUTS);
    let mut decision_of_row = Vec::with_capacity(rows);
    let mut chosen_rows = Vec::with_capacity(ids.len());
    let mut starts = Vec::with_capacity(ids.len() + 1);
    let mut input = Vec::with_capacity(INPUTS);
    for (b, &i) in ids.iter().enumerate() {
        starts.push(decision_of_row.len());
        chosen_rows.push((decision_of_row.len() + d.chosen[i]) as u32);
        let z = rating_z(d.ratings[i]);
        for f in d.rows(i).chunks_exact(K) {
            standard.inputs(f, z, &mut input);
            x.extend(input.iter().map(|&v| v as f32));
            decision_of_row.push(b as u32);
        }
    }
    starts.push(decision_of_row.len());
    Ok(Batch {
        x: Tensor::from_vec(x, (rows, INPUTS), dev)?,
        decision_of_row: Tensor::from_vec(decision_of_row, rows, dev)?,
        chosen_rows: Tensor::from_vec(chosen_rows, ids.len(), dev)?,
        starts,
    })
}

/// The mean loss of a batch (a scalar tensor). Each decision's largest
/// utility is taken outside the graph: a constant shift of its
/// log-sum-exp, which keeps the exponentials finite and changes no gradient.
fn loss(p: &Params, b: &Batch, dev: &Device) -> candle_core::Result<Tensor> {
    let u = p.forward(&b.x)?;
    let values = u.to_vec1::<f32>()?;
    let n = b.starts.len() - 1;
    let mut shift = Vec::with_capacity(values.len());
    let mut max = Vec::with_capacity(n);
    for w in b.starts.windows(2) {
        let m = values[w[0]..w[1]].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        max.push(m);
        shift.extend(std::iter::repeat_n(m, w[1] - w[0]));
    }
    let shift = Tensor::from_vec(shift, values.len(), dev)?;
    let max = Tensor::from_vec(max, n, dev)?;
    let e = u.sub(&shift)?.exp()?;
    let sums = Tensor::zeros(n, DType::F32, dev)?.index_add(&b.decision_of_row, &e, 0)?;
    let lse = sums.log()?.add(&max)?;
    let chosen = u.index_select(&b.chosen_rows, 0)?;
    lse.sub(&chosen)?.mean_all()
}

/// Trains a network on `train`; `progress` is called after each minibatch
/// with the minibatches done and their total.
pub(crate) fn train_network(
    train: &Decisions,
    setup: &NetworkSetup,
    mut progress: impl FnMut(usize, usize),
) -> Result<Network, String> {
    let mut go = || -> candle_core::Result<Network> {
        let dev = Device::Cpu;
        let standard = standardisation(train);
        let params = Params::new(setup, &dev)?;
        let mut opt = AdamW::new(
            params.vars(),
            ParamsAdamW { lr: setup.learning_rate, weight_decay: setup.weight_decay, ..ParamsAdamW::default() },
        )?;
        let batches = train.len().div_ceil(setup.batch.max(1));
        let mut r = rng::seeded(setup.seed ^ 0x6261_7463_6865_7321);
        let mut done = 0;
        for epoch in 0..setup.epochs {
            opt.set_learning_rate(setup.learning_rate * 0.5f64.powi(epoch as i32));
            let mut order: Vec<usize> = (0..batches).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, r.random_range(0..=i));
            }
            for &bi in &order {
                let ids: Vec<usize> = (bi * setup.batch..((bi + 1) * setup.batch).min(train.len())).collect();
                let b = batch(train, &ids, &standard, &dev)?;
                let l = loss(&params, &b, &dev)?;
                opt.backward_step(&l)?;
                done += 1;
                progress(done, batches * setup.epochs);
            }
        }
        params.network(standard)
    };
    let net = go().map_err(|e| format!("training the network: {e}"))?;
    net.check().map_err(|e| e.to_string())?;
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games_chess::human::softmax;

    /// Decisions of a synthetic player whose utility is nonlinear in the
    /// features (it likes feature 3 only when feature 5 is on), drawn with a
    /// seed: the trained network finds the planted preference, which a
    /// linear utility cannot express.
    #[test]
    fn training_recovers_a_planted_nonlinear_preference() {
        let mut r = rng::seeded(11);
        let planted = |f: &[f64]| if f[5] > 0.5 { 3.0 * f[3] } else { -3.0 * f[3] };
        let mut make = |n: usize| {
            let mut d = Decisions::new();
            for _ in 0..n {
                let moves = 3 + r.random_range(0..5);
                let mut rows = Vec::new();
                for _ in 0..moves {
                    let mut f = vec![0.0; K];
                    f[3] = r.random::<f64>();
                    f[5] = f64::from(u8::from(r.random::<bool>()));
                    f[7] = r.random::<f64>(); // noise the player ignores
                    rows.extend(f);
                }
                let u: Vec<f64> = rows.chunks_exact(K).map(planted).collect();
                let chosen = search_core::rng::sample_index(&softmax(&u), &mut r);
                d.push(&rows, chosen, 1200.0 + 600.0 * r.random::<f64>());
            }
            d
        };
        let train = make(6000);
        let test = make(1000);
        let setup =
            NetworkSetup { hidden: vec![16, 8], epochs: 8, batch: 128, learning_rate: 1e-2, ..Default::default() };
        let net = train_network(&train, &setup, |_, _| {}).unwrap();
        // Mean log-likelihood per decision: the planted utility's, the
        // network's and uniform play's on held-out decisions.
        let ll = |u: &dyn Fn(&[f64], f64) -> Vec<f64>| {
            (0..test.len()).map(|i| softmax(&u(test.rows(i), test.ratings[i]))[test.chosen[i]].ln()).sum::<f64>()
                / test.len() as f64
        };
        let truth = ll(&|rows, _| rows.chunks_exact(K).map(planted).collect());
        let learned = ll(&|rows, rating| net.utilities(rows, rating_z(rating)));
        let uniform = ll(&|rows, _| vec![0.0; rows.len() / K]);
        assert!(truth - uniform > 0.2, "the planted preference is informative");
        assert!(truth - learned < 0.1 * (truth - uniform), "network {learned}, planted {truth}, uniform {uniform}");
        // The same seed gives the same network.
        let again = train_network(&train, &setup, |_, _| {}).unwrap();
        assert_eq!(again, net);
    }
}
