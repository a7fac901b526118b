//! One data-parallel step on the clock: the compute stream (forward, then
//! the backward pass from the last layer down) and one communication
//! stream on which each bucket's all-reduce starts when the bucket is ready
//! and the previous all-reduce has ended.

use super::buckets::assign;
use super::model::{Network, StepError, StepModel};

/// A rank computing at a fraction of the nominal speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Straggler {
    /// The slow rank, `0..p`.
    pub rank: usize,
    /// Its compute speed, `0 < factor ≤ 1` (0.5 = half speed, twice the time).
    pub factor: f64,
}

/// How the buckets are formed and started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepOptions {
    /// The first bucket's cap, bytes (DDP's 1 MiB).
    pub first: u64,
    /// Every later bucket's cap, bytes (DDP's 25 MiB).
    pub cap: u64,
    /// Start all-reduces during the backward pass (`false`: after it).
    pub overlap: bool,
    /// A slow rank, if any.
    pub straggler: Option<Straggler>,
}

/// One span of the compute stream.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeSpan {
    /// `None` for the forward pass, `Some(i)` for layer i's backward (0-based).
    pub layer: Option<usize>,
    /// Start, seconds from the step's start.
    pub start: f64,
    /// End, seconds.
    pub end: f64,
}

/// One bucket's all-reduce on the communication stream.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketSpan {
    /// Its layers (0-based, forward order indices), in the order their
    /// gradients became ready (highest first).
    pub layers: Vec<usize>,
    /// Gradient bytes in the bucket.
    pub bytes: u64,
    /// When its last gradient was ready on every rank, seconds.
    pub ready: f64,
    /// When its all-reduce started, seconds.
    pub start: f64,
    /// When it ended, seconds.
    pub end: f64,
}

impl BucketSpan {
    /// Its layers as people number them (1-based), e.g. "layers 93–99" or "layer 100".
    pub fn label(&self) -> String {
        let lo = self.layers.iter().min().map_or(0, |i| i + 1);
        let hi = self.layers.iter().max().map_or(0, |i| i + 1);
        if lo == hi {
            format!("layer {lo}")
        } else {
            format!("layers {lo}–{hi}")
        }
    }
}

/// One step, timed.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRun {
    /// The slowest rank's compute stream (the straggler's, when there is one).
    pub compute: Vec<ComputeSpan>,
    /// The other ranks' compute stream when there is a straggler.
    pub others: Option<Vec<ComputeSpan>>,
    /// The communication stream.
    pub buckets: Vec<BucketSpan>,
    /// Compute of the slowest rank, seconds.
    pub compute_time: f64,
    /// When compute and communication have both ended, seconds.
    pub step_time: f64,
    /// Sum of the all-reduce times, seconds.
    pub comm_time: f64,
}

impl StepRun {
    /// Exposed communication: step time − compute time, seconds.
    pub fn exposed(&self) -> f64 {
        (self.step_time - self.compute_time).max(0.0)
    }

    /// Share of the communication hidden behind compute:
    /// (comm − exposed) / comm, in `[0, 1]` (1 when there is none). After
    /// compute ends every bucket is ready, so the stream runs without gaps
    /// and the exposed part is all communication.
    pub fn hidden_share(&self) -> f64 {
        if self.comm_time <= 0.0 {
            1.0
        } else {
            ((self.comm_time - self.exposed()) / self.comm_time).clamp(0.0, 1.0)
        }
    }
}

fn compute_spans(model: &StepModel, speed: f64) -> Vec<ComputeSpan> {
    let mut out = vec![ComputeSpan {
        layer: None,
        start: 0.0,
        end: model.fwd / speed,
    }];
    let mut t = model.fwd;
    for i in (0..model.layers()).rev() {
        let start = t / speed;
        t += model.bwd[i];
        out.push(ComputeSpan {
            layer: Some(i),
            start,
            end: t / speed,
        });
    }
    out
}

/// Times one step of all-reduce SGD with DDP buckets on `net`.
///
/// Buckets follow [`assign`] over the gradients in ready order (layer L
/// first). With a straggler, every bucket waits for the straggler's
/// gradients (all ranks take part in every all-reduce). Without overlap,
/// every all-reduce starts after the backward pass.
///
/// # Errors
/// [`StepError::Model`] for a model without layers or a `bwd` list of the
/// wrong length; [`StepError::Schedule`] from the generator.
pub fn time_step(
    model: &StepModel,
    net: &mut Network,
    opts: &StepOptions,
) -> Result<StepRun, StepError> {
    let l = model.layers();
    if l == 0 || model.bwd.len() != l {
        return Err(StepError::Model(format!(
            "the model needs at least one layer and one backward time per layer ({} layers, {} times)",
            l,
            model.bwd.len()
        )));
    }
    let speed = opts.straggler.map_or(1.0, |s| s.factor);
    let ready = model.ready_times(speed);
    let compute_time = model.compute_time(speed);
    let order: Vec<usize> = (0..l).rev().collect();
    let sizes: Vec<u64> = order.iter().map(|&i| model.grad_bytes(i)).collect();
    let mut buckets = Vec::new();
    let mut free = 0.0f64;
    let mut comm_time = 0.0;
    for a in assign(&sizes, opts.first, opts.cap) {
        let layers: Vec<usize> = a.members.iter().map(|&k| order[k]).collect();
        let r = if opts.overlap {
            layers.iter().map(|&i| ready[i]).fold(0.0, f64::max)
        } else {
            compute_time
        };
        let d = net.allreduce(a.bytes, model.dtype.bytes())?;
        let start = free.max(r);
        free = start + d;
        comm_time += d;
        buckets.push(BucketSpan {
            layers,
            bytes: a.bytes,
            ready: r,
            start,
            end: free,
        });
    }
    Ok(StepRun {
        compute: compute_spans(model, speed),
        others: opts.straggler.map(|_| compute_spans(model, 1.0)),
        buckets,
        compute_time,
        step_time: compute_time.max(free),
        comm_time,
    })
}
