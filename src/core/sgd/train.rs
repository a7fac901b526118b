//! Three training strategies run side by side on one [`Problem`].
//!
//! All start from the same model w⁰ and draw the same mini-batches: worker k's
//! sampler is seeded by (seed, k) only, so a given step uses the same sample
//! indices whatever the strategy. Per step t, with mini-batch gradients g_k
//! evaluated at worker k's current model:
//!
//! - **all-reduce SGD** (synchronous centralised SGD): every worker contributes
//!   (n_k/N)·g_k to a sum all-reduce, run here as a genuine ring reduce-scatter
//!   followed by a ring all-gather over the d gradient entries (Patarasuk &
//!   Yuan 2009; Thakur, Rabenseifner & Gropp 2005). Each worker then applies the
//!   update it received to its own copy: w_k ← w_k − η Σ_j (n_j/N) g_j. The
//!   all-gather copies finished chunks, so every worker holds the same bits and
//!   the models stay bit-identical (checked every step).
//! - **D-PSGD** (decentralised parallel SGD, Lian et al. 2017, "Can decentralized
//!   algorithms outperform centralized algorithms?", NeurIPS; the course's §3
//!   convention): gradient at the local model, then mix the models with the
//!   mixing matrix A, then subtract the gradient computed before mixing:
//!   w_k ← Σ_j A_kj w_j − η g_k(w_k).
//! - **local SGD** (baseline): w_k ← w_k − η g_k(w_k), with no
//!   communication; with `average_every = h > 0`, every h-th step ends with
//!   a sample-weighted model average w_k ← Σ_j (n_j/N) w_j, run as the same
//!   ring sum all-reduce (periodic averaging, "local SGD" of Stich 2019 and
//!   Lin et al. 2020, weighted as the all-reduce SGD gradient is).
//!
//! Recorded per step: the models, their average w̄ = (1/m)Σ w_k, the global
//! sample-weighted loss F at w̄ and at each w_k, the consensus distance
//! (1/m)Σ‖w_k − w̄‖², and bytes sent per worker (cumulative) under these
//! accountings, with `e` bytes per element (4 for f32):
//! ring all-reduce 2(p−1)/p · d · e per step (each worker's share of the
//! reduce-scatter plus the all-gather); gossip deg_k · d · e per step (one model
//! copy to each neighbour); local 0.

use std::fmt;

use nalgebra::DMatrix;

use super::problem::{Problem, ProblemError};
use super::rng::SplitMix64;
use super::Strategy;
use crate::core::consensus;
use crate::core::execute::run_on_buffers;
use crate::core::schedule::ring::ring_all_reduce_schedule;
use crate::core::units::decimal;

/// Tolerance on the row sums of a mixing matrix.
pub const ROW_SUM_TOL: f64 = 1e-9;
/// Largest number of training steps.
pub const MAX_STEPS: usize = 5000;

/// Hyper-parameters shared by the three strategies.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Number of steps T (1..=[`MAX_STEPS`]).
    pub steps: usize,
    /// Learning rate η₀ (> 0, finite).
    pub lr: f64,
    /// Learning-rate decay: step t = 1, 2, … uses η_t = η₀ / (1 + decay · (t − 1))
    /// (≥ 0; 0 = constant η).
    pub decay: f64,
    /// Local mini-batch size b per worker, samples drawn uniformly with
    /// replacement from the worker's shard. 0, or b ≥ n_k, uses the whole shard
    /// (a deterministic full-batch gradient).
    pub batch: usize,
    /// Mini-batch sampling seed.
    pub seed: u64,
    /// Bytes per communicated element (4 for f32).
    pub bytes_per_element: u64,
    /// Local SGD averages the models every this many steps (0 = never, the
    /// lab's baseline without communication).
    pub average_every: usize,
}

impl Default for TrainConfig {
    /// 200 steps, η = 0.1 constant, b = 16, seed 1, 4-byte elements, local
    /// SGD never averaging.
    fn default() -> Self {
        TrainConfig {
            steps: 200,
            lr: 0.1,
            decay: 0.0,
            batch: 16,
            seed: 1,
            bytes_per_element: 4,
            average_every: 0,
        }
    }
}

/// Why a mixing matrix or a training configuration was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainError {
    /// The mixing matrix is not m × m.
    MixingShape {
        /// Workers m.
        m: usize,
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// A mixing weight is negative or not finite.
    MixingEntry {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// A row of the mixing matrix does not sum to 1, so the mixed value is not
    /// a weighted average.
    MixingRowSum {
        /// Row.
        row: usize,
        /// Its sum.
        sum: f64,
    },
    /// Learning rate not positive and finite, or decay negative.
    LearningRate,
    /// Steps outside 1..=[`MAX_STEPS`].
    Steps {
        /// Steps requested.
        steps: usize,
    },
    /// Bytes per element of 0.
    ElementBytes,
    /// The problem itself failed (e.g. a singular optimum).
    Problem(ProblemError),
    /// The graph or weight rule could not be built (message from the
    /// consensus core).
    Graph(String),
    /// Buffers handed to an update have inconsistent shapes.
    Shape(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::MixingShape { m, rows, cols } => write!(
                f,
                "the mixing matrix must be {m} × {m} for {m} workers (got {rows} × {cols})"
            ),
            TrainError::MixingEntry { row, col } => write!(
                f,
                "mixing weight ({}, {}) must be a finite number ≥ 0",
                row + 1,
                col + 1
            ),
            TrainError::MixingRowSum { row, sum } => write!(
                f,
                "row {} of the mixing matrix sums to {}, not 1",
                row + 1,
                decimal::fixed(*sum, 6)
            ),
            TrainError::LearningRate => write!(
                f,
                "the learning rate must be a positive finite number and the decay ≥ 0"
            ),
            TrainError::Steps { steps } => {
                write!(f, "steps must be from 1 to {MAX_STEPS} (got {steps})")
            }
            TrainError::ElementBytes => write!(f, "bytes per element must be at least 1"),
            TrainError::Problem(e) => e.fmt(f),
            TrainError::Graph(m) => f.write_str(m),
            TrainError::Shape(m) => write!(f, "inconsistent shapes: {m}"),
        }
    }
}

impl std::error::Error for TrainError {}

impl From<ProblemError> for TrainError {
    fn from(e: ProblemError) -> Self {
        TrainError::Problem(e)
    }
}

/// The state after one step (step 0 = the common start, before any update).
#[derive(Clone, Debug, PartialEq)]
pub struct StepRecord {
    /// Step index t (0 = initial state).
    pub step: usize,
    /// Learning rate used to reach this state (0 at step 0).
    pub lr: f64,
    /// m models w_k, each of length d.
    pub models: Vec<Vec<f64>>,
    /// w̄ = (1/m) Σ w_k, length d.
    pub average: Vec<f64>,
    /// F(w̄): global sample-weighted mean loss at the average model.
    pub loss_at_average: f64,
    /// F(w_k) per worker: global sample-weighted loss at each local model.
    pub loss_at_local: Vec<f64>,
    /// (1/m) Σ ‖w_k − w̄‖² (squared parameter units).
    pub consensus_distance: f64,
    /// ‖w̄ − w★_sample‖: distance of the average to the sample-weighted optimum.
    pub dist_to_sample_optimum: f64,
    /// ‖w̄ − w★_equal‖: distance of the average to the equal-worker optimum.
    pub dist_to_equal_optimum: f64,
    /// Cumulative bytes sent by each worker up to this step.
    pub bytes_sent: Vec<f64>,
    /// True when every worker's model has exactly the same bits as worker 0's.
    pub models_identical: bool,
}

impl StepRecord {
    /// The largest cumulative bytes sent by any one worker.
    pub fn max_bytes_sent(&self) -> f64 {
        self.bytes_sent.iter().copied().fold(0.0, f64::max)
    }
}

/// One strategy's run.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyTrace {
    /// Which strategy.
    pub strategy: Strategy,
    /// States 0..=T (T + 1 records), or fewer if the run diverged.
    pub steps: Vec<StepRecord>,
    /// Bytes each worker sends per step (length m).
    pub bytes_per_step: Vec<f64>,
    /// First step at which the run diverged: a model was not finite (that
    /// step is not recorded) or a model's global loss exceeded 10¹⁰ × max(1,
    /// F(w⁰)) (recorded). The run stops there.
    pub diverged_at: Option<usize>,
}

impl StrategyTrace {
    /// The last recorded state.
    pub fn last(&self) -> Option<&StepRecord> {
        self.steps.last()
    }

    /// True when the models were bit-identical at every recorded step.
    pub fn always_identical(&self) -> bool {
        self.steps.iter().all(|s| s.models_identical)
    }
}

/// Everything the `sgd` view shows about a run of the three strategies.
#[derive(Clone, Debug, PartialEq)]
pub struct Lab {
    /// argmin Σ (n_k/N) L_k (length d).
    pub sample_weighted_optimum: Vec<f64>,
    /// argmin (1/m) Σ L_k (length d).
    pub equal_worker_optimum: Vec<f64>,
    /// The stationary distribution π of the mixing matrix (πᵀA = πᵀ, Σπ = 1),
    /// when unique; uniform exactly when A is doubly stochastic.
    pub mixing_stationary: Option<Vec<f64>>,
    /// argmin Σ π_k L_k: where D-PSGD's average settles for small η (equals
    /// the equal-worker optimum when A is doubly stochastic).
    pub mixing_weighted_optimum: Option<Vec<f64>>,
    /// argmin L_k per worker (`None` when shard k alone is singular).
    pub local_optima: Vec<Option<Vec<f64>>>,
    /// F at the sample-weighted optimum: the lowest global loss reachable.
    pub optimal_loss: f64,
    /// F at the equal-worker optimum (≥ `optimal_loss`).
    pub equal_worker_loss: f64,
    /// True when every column of A also sums to 1 (within [`ROW_SUM_TOL`]).
    pub doubly_stochastic: bool,
    /// Traces in the order all-reduce, D-PSGD, local.
    pub traces: Vec<StrategyTrace>,
}

impl Lab {
    /// The trace of one strategy.
    pub fn trace(&self, s: Strategy) -> Option<&StrategyTrace> {
        self.traces.iter().find(|t| t.strategy == s)
    }

    /// The last step of the longest trace (0 when no trace has a step).
    pub fn last_step(&self) -> usize {
        self.traces
            .iter()
            .map(|t| t.steps.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
    }
}

/// Checks that `a` is an m × m row-stochastic matrix with non-negative finite
/// entries.
///
/// # Errors
/// [`TrainError::MixingShape`], [`TrainError::MixingEntry`] or
/// [`TrainError::MixingRowSum`].
pub fn check_mixing(a: &DMatrix<f64>, m: usize) -> Result<(), TrainError> {
    if a.nrows() != m || a.ncols() != m {
        return Err(TrainError::MixingShape {
            m,
            rows: a.nrows(),
            cols: a.ncols(),
        });
    }
    for row in 0..m {
        let mut sum = 0.0;
        for col in 0..m {
            let v = a[(row, col)];
            if !v.is_finite() || v < 0.0 {
                return Err(TrainError::MixingEntry { row, col });
            }
            sum += v;
        }
        if (sum - 1.0).abs() > ROW_SUM_TOL {
            return Err(TrainError::MixingRowSum { row, sum });
        }
    }
    Ok(())
}

/// The m × m mixing matrix of `graph` with weight `rule`, built by the
/// consensus core ([`consensus::Graph::new`], [`consensus::mixing_matrix`]).
/// A torus gets the shape [`consensus::torus_shape`]`(m)` whatever rows/cols `graph`
/// carries; m = 1 gives the 1 × 1 identity (nothing to mix).
///
/// # Errors
/// [`TrainError::Graph`] with the consensus core's message (hypercube needs a
/// power of two, a rule that does not fit the graph, …).
pub fn mixing_for(
    graph: consensus::GraphKind,
    rule: consensus::WeightRule,
    m: usize,
    seed: u64,
) -> Result<DMatrix<f64>, TrainError> {
    if m == 1 {
        return Ok(DMatrix::identity(1, 1));
    }
    let kind = match graph {
        consensus::GraphKind::Torus { .. } => {
            let (rows, cols) = consensus::torus_shape(m);
            consensus::GraphKind::Torus { rows, cols }
        }
        k => k,
    };
    let g = consensus::Graph::new(kind, m, seed).map_err(|e| TrainError::Graph(e.to_string()))?;
    let w = consensus::mixing_matrix(&g, rule).map_err(|e| TrainError::Graph(e.to_string()))?;
    Ok(w.dense().clone())
}

/// The uniform m × m mixing matrix of the complete graph (every entry 1/m).
pub fn complete_uniform_mixing(m: usize) -> DMatrix<f64> {
    DMatrix::from_element(m, m, 1.0 / m.max(1) as f64)
}

/// The stationary distribution π of a row-stochastic A (πᵀA = πᵀ, Σ π = 1),
/// solved directly: replace one equation of (Aᵀ − I)π = 0 by Σπ = 1 (LU,
/// [`consensus::solve_stationary`]).
/// `None` when π is not unique (e.g. a disconnected graph) or not
/// non-negative.
pub fn stationary_distribution(a: &DMatrix<f64>) -> Option<Vec<f64>> {
    let m = a.nrows();
    if m == 0 || a.ncols() != m {
        return None;
    }
    let pi = consensus::solve_stationary(a)?;
    if pi.iter().any(|v| !v.is_finite() || *v < -1e-9) {
        return None;
    }
    // check it is really stationary (the replaced equation is implied only
    // when π is unique)
    let back = a.transpose() * &pi;
    if back
        .iter()
        .zip(pi.iter())
        .any(|(x, y)| (x - y).abs() > 1e-8)
    {
        return None;
    }
    Some(pi.iter().map(|v| v.max(0.0)).collect())
}

/// Per-worker mini-batch samplers; identical across strategies.
struct Sampler {
    rngs: Vec<SplitMix64>,
    batch: usize,
    idx: Vec<Vec<usize>>,
}

impl Sampler {
    fn new(problem: &Problem, cfg: &TrainConfig) -> Self {
        let m = problem.m();
        Sampler {
            rngs: (0..m as u64)
                .map(|k| SplitMix64::derived(cfg.seed, k))
                .collect(),
            batch: cfg.batch,
            idx: vec![Vec::new(); m],
        }
    }

    /// Writes worker k's gradient at `w` for this step into `out`.
    fn gradient(&mut self, problem: &Problem, k: usize, w: &[f64], out: &mut [f64]) {
        let n = problem.shards[k].len();
        if self.batch == 0 || self.batch >= n {
            problem.full_gradient_into(k, w, out);
        } else {
            let rng = &mut self.rngs[k];
            let idx = &mut self.idx[k];
            idx.clear();
            idx.extend((0..self.batch).map(|_| rng.below(n)));
            problem.minibatch_gradient_into(k, w, idx, out);
        }
    }
}

/// Checks that `vs` holds `m` vectors of length `d`.
/// Checks that `models` and `grads` are `m` vectors of one length `d`;
/// returns `m`.
fn check_models_and_grads(models: &[Vec<f64>], grads: &[Vec<f64>]) -> Result<usize, TrainError> {
    let m = models.len();
    let d = models.first().map_or(0, Vec::len);
    check_vectors("models", models, m, d)?;
    check_vectors("grads", grads, m, d)?;
    Ok(m)
}

fn check_vectors(name: &str, vs: &[Vec<f64>], m: usize, d: usize) -> Result<(), TrainError> {
    if vs.len() != m {
        return Err(TrainError::Shape(format!(
            "{name} has {} vectors, expected {m}",
            vs.len()
        )));
    }
    if let Some(k) = vs.iter().position(|v| v.len() != d) {
        return Err(TrainError::Shape(format!(
            "{name}[{k}] has length {}, expected {d}",
            vs[k].len()
        )));
    }
    Ok(())
}

/// Sum all-reduce of `bufs` (p buffers of length d) as a ring reduce-scatter
/// followed by a ring all-gather, each of p − 1 rounds. In reduce-scatter
/// round s, rank r sends chunk (r − s) mod p to rank r + 1, which adds it;
/// after it, rank r owns the fully reduced chunk (r + 1) mod p. In all-gather
/// round s, rank r sends chunk (r + 1 − s) mod p to rank r + 1, which copies
/// it. Every round reads the buffers as they were before the round.
///
/// # Errors
/// [`TrainError::Shape`] when the buffers differ in length.
pub fn ring_all_reduce_sum(bufs: &mut [Vec<f64>]) -> Result<(), TrainError> {
    let p = bufs.len();
    let d = bufs.first().map_or(0, Vec::len);
    check_vectors("bufs", bufs, p, d)?;
    if p < 2 || d == 0 {
        return Ok(());
    }
    let schedule =
        ring_all_reduce_schedule(p, d as u64, 4).map_err(|e| TrainError::Shape(e.to_string()))?;
    run_on_buffers(&schedule, bufs).map_err(|e| TrainError::Shape(e.to_string()))?;
    Ok(())
}

/// One all-reduce SGD update. Worker k scales its local mean gradient by its
/// objective weight c_k (n_k/N), a ring sum all-reduce
/// ([`ring_all_reduce_sum`]) leaves Σ_j c_j g_j in every worker's buffer
/// (`grads` is overwritten with it), and each worker applies
/// w_k ← w_k − η Σ_j c_j g_j to its own copy.
///
/// Shapes: `models` and `grads` are m vectors of length d; `weights` has length m.
///
/// # Errors
/// [`TrainError::Shape`] when the shapes disagree.
pub fn allreduce_update(
    models: &mut [Vec<f64>],
    grads: &mut [Vec<f64>],
    weights: &[f64],
    lr: f64,
) -> Result<(), TrainError> {
    let m = check_models_and_grads(models, grads)?;
    if weights.len() != m {
        return Err(TrainError::Shape(format!(
            "{} weights for {m} workers",
            weights.len()
        )));
    }
    for (g, c) in grads.iter_mut().zip(weights) {
        g.iter_mut().for_each(|v| *v *= c);
    }
    ring_all_reduce_sum(grads)?;
    for (w, g) in models.iter_mut().zip(grads.iter()) {
        for (wi, gi) in w.iter_mut().zip(g) {
            *wi -= lr * gi;
        }
    }
    Ok(())
}

/// One D-PSGD update (Lian et al. 2017, Algorithm 1; the course's §3
/// convention): `out[k] = Σ_j A_kj · models[j] − η · grads[k]`, where
/// `grads[k]` was evaluated at `models[k]` *before* mixing.
///
/// Shapes: `mixing` is m × m (row k holds worker k's weights, self included);
/// `models`, `grads` and `out` are m vectors of length d.
///
/// # Errors
/// [`TrainError::Shape`] or [`TrainError::MixingShape`] when the shapes disagree.
pub fn dpsgd_update(
    mixing: &DMatrix<f64>,
    models: &[Vec<f64>],
    grads: &[Vec<f64>],
    lr: f64,
    out: &mut [Vec<f64>],
) -> Result<(), TrainError> {
    let m = models.len();
    let d = models.first().map_or(0, Vec::len);
    check_vectors("models", models, m, d)?;
    check_vectors("grads", grads, m, d)?;
    check_vectors("out", out, m, d)?;
    if mixing.nrows() != m || mixing.ncols() != m {
        return Err(TrainError::MixingShape {
            m,
            rows: mixing.nrows(),
            cols: mixing.ncols(),
        });
    }
    for (k, o) in out.iter_mut().enumerate() {
        o.iter_mut().for_each(|v| *v = 0.0);
        for (j, w) in models.iter().enumerate() {
            let a = mixing[(k, j)];
            if a != 0.0 {
                for (oi, wi) in o.iter_mut().zip(w) {
                    *oi += a * wi;
                }
            }
        }
        for (oi, gi) in o.iter_mut().zip(&grads[k]) {
            *oi -= lr * gi;
        }
    }
    Ok(())
}

/// One local SGD update without communication: w_k ← w_k − η g_k.
///
/// # Errors
/// [`TrainError::Shape`] when the shapes disagree.
pub fn local_update(
    models: &mut [Vec<f64>],
    grads: &[Vec<f64>],
    lr: f64,
) -> Result<(), TrainError> {
    check_models_and_grads(models, grads)?;
    for (w, g) in models.iter_mut().zip(grads) {
        for (wi, gi) in w.iter_mut().zip(g) {
            *wi -= lr * gi;
        }
    }
    Ok(())
}

/// Local SGD's periodic averaging: every worker scales its model by its
/// sample weight c_k = n_k/N, and a ring sum all-reduce
/// ([`ring_all_reduce_sum`]) leaves Σ_j c_j w_j in every worker's buffer,
/// the same bits everywhere.
///
/// # Errors
/// [`TrainError::Shape`] when `weights` does not have one entry per model.
pub fn average_models(models: &mut [Vec<f64>], weights: &[f64]) -> Result<(), TrainError> {
    if weights.len() != models.len() {
        return Err(TrainError::Shape(format!(
            "{} weights for {} workers",
            weights.len(),
            models.len()
        )));
    }
    for (w, c) in models.iter_mut().zip(weights) {
        w.iter_mut().for_each(|v| *v *= c);
    }
    ring_all_reduce_sum(models)
}

fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

struct Recorder<'a> {
    problem: &'a Problem,
    w_sample: &'a [f64],
    w_equal: &'a [f64],
}

impl Recorder<'_> {
    fn record(&self, step: usize, lr: f64, models: &[Vec<f64>], bytes_sent: &[f64]) -> StepRecord {
        let m = models.len();
        let d = self.problem.d();
        let first = &models[0];
        let models_identical = models
            .iter()
            .all(|w| w.iter().zip(first).all(|(a, b)| a.to_bits() == b.to_bits()));
        // Identical models: w̄ is that model and the distance is exactly 0
        // (summing m copies and dividing by m could round).
        let (average, consensus_distance) = if models_identical {
            (first.clone(), 0.0)
        } else {
            let mut average = vec![0.0; d];
            for w in models {
                for (a, v) in average.iter_mut().zip(w) {
                    *a += v;
                }
            }
            average.iter_mut().for_each(|a| *a /= m as f64);
            let cd = models.iter().map(|w| sq_dist(w, &average)).sum::<f64>() / m as f64;
            (average, cd)
        };
        StepRecord {
            step,
            lr,
            loss_at_average: self.problem.global_loss(&average),
            loss_at_local: models.iter().map(|w| self.problem.global_loss(w)).collect(),
            consensus_distance,
            dist_to_sample_optimum: sq_dist(&average, self.w_sample).sqrt(),
            dist_to_equal_optimum: sq_dist(&average, self.w_equal).sqrt(),
            bytes_sent: bytes_sent.to_vec(),
            models_identical,
            models: models.to_vec(),
            average,
        }
    }
}

fn check_config(cfg: &TrainConfig) -> Result<(), TrainError> {
    if !cfg.lr.is_finite() || cfg.lr <= 0.0 || !cfg.decay.is_finite() || cfg.decay < 0.0 {
        return Err(TrainError::LearningRate);
    }
    if cfg.steps == 0 || cfg.steps > MAX_STEPS {
        return Err(TrainError::Steps { steps: cfg.steps });
    }
    if cfg.bytes_per_element == 0 {
        return Err(TrainError::ElementBytes);
    }
    Ok(())
}

/// Bytes each worker sends per step under `strategy` (length m).
///
/// Ring all-reduce: the bytes each rank sends in the executed ring schedule
/// over d elements of e bytes, 2(p−1)/p · d · e when p divides d (Patarasuk &
/// Yuan 2009), whole chunks otherwise. Gossip: the
/// number of other workers j with A_jk > 0 (the neighbours that read worker k's
/// model) times d · e. Local: 0.
pub fn bytes_per_step(strategy: Strategy, mixing: &DMatrix<f64>, d: usize, e: u64) -> Vec<f64> {
    let m = mixing.nrows();
    let model_bytes = (d as u64 * e) as f64;
    match strategy {
        // Counted from the ring schedule that the update executes: chunks
        // differ by one element when m does not divide d.
        Strategy::AllReduce => match ring_all_reduce_schedule(m, d as u64, e) {
            Ok(s) => s
                .bytes_sent_per_rank()
                .into_iter()
                .map(|b| b as f64)
                .collect(),
            Err(_) => vec![0.0; m],
        },
        Strategy::Gossip => (0..m)
            .map(|k| {
                let deg = (0..m).filter(|&j| j != k && mixing[(j, k)] > 0.0).count();
                deg as f64 * model_bytes
            })
            .collect(),
        Strategy::Local => vec![0.0; m],
    }
}

/// Runs one strategy for `cfg.steps` steps.
///
/// `mixing` is the m × m mixing matrix used by D-PSGD (ignored by the other
/// strategies, but still validated).
///
/// # Errors
/// Invalid mixing matrix or configuration ([`TrainError`]), or a singular
/// optimum ([`TrainError::Problem`]).
pub fn run_strategy(
    problem: &Problem,
    strategy: Strategy,
    mixing: &DMatrix<f64>,
    cfg: &TrainConfig,
) -> Result<StrategyTrace, TrainError> {
    let (w_sample, w_equal) = checked_optima(problem, mixing, cfg)?;
    run_checked(problem, strategy, mixing, cfg, &w_sample, &w_equal)
}

/// Validates the mixing matrix and the configuration, then returns the
/// sample-weighted and the equal-worker optima.
fn checked_optima(
    problem: &Problem,
    mixing: &DMatrix<f64>,
    cfg: &TrainConfig,
) -> Result<(Vec<f64>, Vec<f64>), TrainError> {
    check_mixing(mixing, problem.m())?;
    check_config(cfg)?;
    Ok((
        problem.sample_weighted_optimum()?,
        problem.equal_worker_optimum()?,
    ))
}

fn run_checked(
    problem: &Problem,
    strategy: Strategy,
    mixing: &DMatrix<f64>,
    cfg: &TrainConfig,
    w_sample: &[f64],
    w_equal: &[f64],
) -> Result<StrategyTrace, TrainError> {
    let m = problem.m();
    let d = problem.d();
    let rec = Recorder {
        problem,
        w_sample,
        w_equal,
    };
    let h = cfg.average_every;
    let averages = strategy == Strategy::Local && h > 0;
    // local SGD with averaging sends a ring all-reduce of the model every
    // h-th step; its per-step figure is that averaged over the h steps
    let ring = bytes_per_step(Strategy::AllReduce, mixing, d, cfg.bytes_per_element);
    let per_step = if averages {
        ring.iter().map(|b| b / h as f64).collect()
    } else {
        bytes_per_step(strategy, mixing, d, cfg.bytes_per_element)
    };
    let mut bytes = vec![0.0; m];
    let mut models = vec![problem.initial.clone(); m];
    let mut steps = Vec::with_capacity(cfg.steps + 1);
    steps.push(rec.record(0, 0.0, &models, &bytes));
    let mut sampler = Sampler::new(problem, cfg);
    let mut grads = vec![vec![0.0; d]; m];
    let mut mixed = vec![vec![0.0; d]; m];
    let mut diverged_at = None;
    // a run counts as diverged once a model's global loss exceeds 10¹⁰ times
    // the starting loss (or is not finite)
    let blow_up = 1e10 * problem.global_loss(&problem.initial).max(1.0);
    for t in 1..=cfg.steps {
        let lr = cfg.lr / (1.0 + cfg.decay * (t - 1) as f64);
        for k in 0..m {
            sampler.gradient(problem, k, &models[k], &mut grads[k]);
        }
        match strategy {
            Strategy::AllReduce => {
                allreduce_update(&mut models, &mut grads, &problem.sample_weights, lr)?;
            }
            Strategy::Gossip => {
                dpsgd_update(mixing, &models, &grads, lr, &mut mixed)?;
                std::mem::swap(&mut models, &mut mixed);
            }
            Strategy::Local => {
                local_update(&mut models, &grads, lr)?;
                if averages && t % h == 0 {
                    average_models(&mut models, &problem.sample_weights)?;
                }
            }
        }
        let sent = if averages { &ring } else { &per_step };
        if !averages || t % h == 0 {
            for (b, s) in bytes.iter_mut().zip(sent) {
                *b += s;
            }
        }
        if models.iter().flatten().any(|v| !v.is_finite()) {
            diverged_at = Some(t);
            break;
        }
        let r = rec.record(t, lr, &models, &bytes);
        let blown_up = r.loss_at_local.iter().any(|l| l.is_nan() || *l > blow_up);
        steps.push(r);
        if blown_up {
            diverged_at = Some(t);
            break;
        }
    }
    Ok(StrategyTrace {
        strategy,
        steps,
        bytes_per_step: per_step,
        diverged_at,
    })
}

/// Runs all three strategies from the same start with the same mini-batches
/// and computes the closed-form optima.
///
/// # Errors
/// As [`run_strategy`].
pub fn run_lab(
    problem: &Problem,
    mixing: &DMatrix<f64>,
    cfg: &TrainConfig,
) -> Result<Lab, TrainError> {
    let m = problem.m();
    let (w_sample, w_equal) = checked_optima(problem, mixing, cfg)?;
    let mixing_stationary = stationary_distribution(mixing);
    let mixing_weighted_optimum = mixing_stationary
        .as_ref()
        .and_then(|pi| problem.optimum(pi).ok());
    let doubly_stochastic = (0..m).all(|j| {
        let s: f64 = (0..m).map(|i| mixing[(i, j)]).sum();
        (s - 1.0).abs() <= ROW_SUM_TOL
    });
    let traces = Strategy::ALL
        .iter()
        .map(|&s| run_checked(problem, s, mixing, cfg, &w_sample, &w_equal))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Lab {
        optimal_loss: problem.global_loss(&w_sample),
        equal_worker_loss: problem.global_loss(&w_equal),
        local_optima: (0..m).map(|k| problem.local_optimum(k).ok()).collect(),
        sample_weighted_optimum: w_sample,
        equal_worker_optimum: w_equal,
        mixing_stationary,
        mixing_weighted_optimum,
        doubly_stochastic,
        traces,
    })
}
