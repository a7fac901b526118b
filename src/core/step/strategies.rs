//! The three strategies with the same compute, each timed per step, and
//! the bucket tuner.
//!
//! - all-reduce SGD with buckets ([`super::run::time_step`]);
//! - D-PSGD (`gossip`, Lian et al. 2017, the course's §3 update
//!   w_k ← Σ_j A_kj w_j − η g_k(w_k)): the gradient is taken at the old
//!   model, so the neighbour exchange of the models starts with the step and
//!   runs beside the compute; a step takes max(compute, exchange);
//! - local SGD: `h` local steps, then one all-reduce of the model; per step
//!   on average (h · compute + all-reduce(model)) / h.

use super::buckets::{DEFAULT_BUCKET_BYTES, DEFAULT_FIRST_BUCKET_BYTES};
use super::model::{Network, StepError, StepModel};
use super::run::time_step;
use super::spans::StepOptions;
use crate::core::consensus::Graph;

/// The caps the tuner tries: 1, 2, 4, …, 1024 MiB and DDP's 25 MiB, in
/// increasing order, bytes.
pub fn tuner_caps() -> Vec<u64> {
    // 25 MiB goes between 16 and 32 (built in order: no sort is linked in)
    let mut v = Vec::with_capacity(12);
    for k in 0..=10 {
        let cap = (1u64 << k) << 20;
        if cap > DEFAULT_BUCKET_BYTES && v.last().is_some_and(|&l| l < DEFAULT_BUCKET_BYTES) {
            v.push(DEFAULT_BUCKET_BYTES);
        }
        v.push(cap);
    }
    v
}

/// One point of the tuner's curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TunerPoint {
    /// The cap of every bucket after the first, bytes.
    pub cap: u64,
    /// The step time at that cap, seconds.
    pub step_time: f64,
    /// Number of buckets.
    pub buckets: usize,
}

/// The tuner's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuner {
    /// One point per cap of [`tuner_caps`].
    pub points: Vec<TunerPoint>,
    /// Index of the fastest (DDP's default when it ties, else the
    /// smallest cap among equals).
    pub best: usize,
    /// Index of DDP's default, 25 MiB.
    pub default: usize,
}

impl Tuner {
    /// Seconds the best cap saves per step against the default.
    pub fn saving(&self) -> f64 {
        self.points[self.default].step_time - self.points[self.best].step_time
    }
}

/// Step time for one cap (the tuner's inner loop): `opts` with its cap
/// replaced; the first bucket keeps `opts.first`.
///
/// # Errors
/// As [`time_step`].
pub fn tuner_point(
    model: &StepModel,
    net: &mut Network,
    opts: &StepOptions,
    cap: u64,
) -> Result<TunerPoint, StepError> {
    let run = time_step(model, net, &StepOptions { cap, ..*opts })?;
    Ok(TunerPoint {
        cap,
        step_time: run.step_time,
        buckets: run.buckets.len(),
    })
}

/// Picks the best and the default from points at [`tuner_caps`]; `None`
/// when the list is empty.
pub fn tuner_from(points: Vec<TunerPoint>) -> Option<Tuner> {
    let mut best = 0;
    for (i, p) in points.iter().enumerate() {
        if p.step_time < points[best].step_time - 1e-15 {
            best = i;
        }
    }
    let default = points.iter().position(|p| p.cap == DEFAULT_BUCKET_BYTES)?;
    // a tie with the default is the default: nothing to gain by changing it
    if points[default].step_time <= points[best].step_time + 1e-15 {
        best = default;
    }
    Some(Tuner {
        points,
        best,
        default,
    })
}

/// The whole tuner at once.
///
/// # Errors
/// As [`time_step`].
pub fn tune(model: &StepModel, net: &mut Network, opts: &StepOptions) -> Result<Tuner, StepError> {
    let points = tuner_caps()
        .into_iter()
        .map(|c| tuner_point(model, net, opts, c))
        .collect::<Result<Vec<_>, _>>()?;
    tuner_from(points).ok_or_else(|| StepError::Model("no caps".into()))
}

/// The first-bucket default of [`StepOptions`].
pub fn default_options() -> StepOptions {
    StepOptions {
        first: DEFAULT_FIRST_BUCKET_BYTES,
        cap: DEFAULT_BUCKET_BYTES,
        overlap: true,
        straggler: None,
        sharding: super::spans::Sharding::Ddp,
    }
}

/// Ranks that read each rank's model in one gossip round: `out[k]` lists
/// every j ≠ k with k among j's in-neighbours.
pub fn readers(graph: &Graph) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); graph.p];
    for (j, ins) in graph.in_neighbours().iter().enumerate() {
        for &k in ins {
            if k != j {
                out[k].push(j);
            }
        }
    }
    out
}

/// D-PSGD's step: the exchange (every rank's model to its readers, one
/// round on the engine) beside the compute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GossipStep {
    /// The exchange, seconds.
    pub exchange: f64,
    /// Compute, seconds.
    pub compute: f64,
    /// Bytes the busiest rank sends per step.
    pub bytes_sent: u64,
}

impl GossipStep {
    /// max(compute, exchange), seconds.
    pub fn step_time(&self) -> f64 {
        self.compute.max(self.exchange)
    }
}

/// Times D-PSGD's step on `graph`.
///
/// # Errors
/// [`StepError::Schedule`] when the exchange cannot be built.
pub fn gossip_step(
    model: &StepModel,
    net: &Network,
    graph: &Graph,
) -> Result<GossipStep, StepError> {
    let r = readers(graph);
    let bytes = model.model_bytes();
    let exchange = net.exchange(&r, bytes, model.dtype.bytes())?;
    let deg = r.iter().map(Vec::len).max().unwrap_or(0) as u64;
    Ok(GossipStep {
        exchange,
        compute: model.compute_time(1.0),
        bytes_sent: deg * bytes,
    })
}

/// Local SGD's step on average: `h` compute steps, then one all-reduce of
/// the whole model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalStep {
    /// Local steps between averagings.
    pub h: usize,
    /// Compute per step (the slowest rank's), seconds.
    pub compute: f64,
    /// The model's all-reduce, seconds.
    pub allreduce: f64,
}

impl LocalStep {
    /// (h · compute + all-reduce) / h, seconds.
    pub fn step_time(&self) -> f64 {
        (self.h as f64 * self.compute + self.allreduce) / self.h.max(1) as f64
    }
}

/// Times local SGD with averaging every `h` steps at compute speed `speed`.
///
/// # Errors
/// As [`Network::allreduce`].
pub fn local_step(
    model: &StepModel,
    net: &mut Network,
    h: usize,
    speed: f64,
) -> Result<LocalStep, StepError> {
    Ok(LocalStep {
        h: h.max(1),
        compute: model.compute_time(speed),
        allreduce: net.allreduce(model.model_bytes(), model.dtype.bytes())?,
    })
}

/// Synchronous D-PSGD over `steps` steps with rank compute times
/// `compute[k]` and exchange time `x`: rank k's step t begins when its
/// step t − 1 has ended, and ends when its own compute is done and the
/// exchange with each neighbour (which can start once both have begun the
/// step) has ended. Returns each step's end per rank: `out[t][k]`, seconds.
/// In steady state every rank falls to the slowest one's pace, a hop per
/// step further from it.
pub fn gossip_clock(graph: &Graph, compute: &[f64], x: f64, steps: usize) -> Vec<Vec<f64>> {
    let p = graph.p;
    let ins = graph.in_neighbours();
    let r = readers(graph);
    let mut start = vec![0.0; p];
    let mut out = Vec::with_capacity(steps);
    for _ in 0..steps {
        let end: Vec<f64> = (0..p)
            .map(|k| {
                let mut e = start[k] + compute.get(k).copied().unwrap_or(0.0);
                for &j in ins[k].iter().chain(&r[k]) {
                    if j != k {
                        e = e.max(start[k].max(start[j]) + x);
                    }
                }
                e
            })
            .collect();
        start.clone_from(&end);
        out.push(end);
    }
    out
}

/// For each step of [`gossip_clock`]'s `ends`, how many ranks took at
/// least `pace` seconds for it (within 1 ns): the ranks the straggler's pace
/// has reached.
pub fn paced(ends: &[Vec<f64>], pace: f64) -> Vec<usize> {
    let mut prev: Vec<f64> = ends.first().map_or_else(Vec::new, |e| vec![0.0; e.len()]);
    ends.iter()
        .map(|e| {
            let n = e
                .iter()
                .zip(&prev)
                .filter(|(a, b)| *a - *b >= pace - 1e-9)
                .count();
            prev.clone_from(e);
            n
        })
        .collect()
}
