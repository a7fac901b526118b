//! One data-parallel step on the clock: the compute stream (forward, then
//! the backward pass from the last layer down) and one communication
//! stream on which each bucket's all-reduce starts when the bucket is ready
//! and the previous all-reduce has ended. The sharded modes (ZeRO-2, FSDP)
//! run on the same two streams ([`super::sharded`]).

use super::buckets::assign;
use super::model::{Collective, Network, StepError, StepModel};
use super::sharded::{time_fsdp, Sharding};

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
    /// DDP (every bucket all-reduced), ZeRO-2 or FSDP.
    pub sharding: Sharding,
}

/// One span of the compute stream.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeSpan {
    /// `None` for the whole forward pass, `Some(i)` for layer i (0-based):
    /// its backward, or its forward when `forward` (FSDP runs the forward
    /// layer by layer, each after its all-gather).
    pub layer: Option<usize>,
    /// A forward span (the whole pass, or one layer's).
    pub forward: bool,
    /// Start, seconds from the step's start.
    pub start: f64,
    /// End, seconds.
    pub end: f64,
}

/// What a span of the communication stream does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommKind {
    /// A bucket's all-reduce (DDP).
    AllReduce,
    /// A bucket's (ZeRO-2) or a layer's (FSDP) gradients reduce-scattered.
    ReduceScatter,
    /// A layer's parameters all-gathered before its forward (FSDP).
    GatherForward,
    /// A layer's parameters all-gathered again before its backward (FSDP).
    GatherBackward,
    /// The updated parameters all-gathered after the step's last
    /// reduce-scatter (ZeRO-2).
    GatherParams,
}

impl CommKind {
    /// Its name, e.g. "all-gather before backward".
    pub fn label(self) -> &'static str {
        match self {
            CommKind::AllReduce => "all-reduce",
            CommKind::ReduceScatter => "reduce-scatter",
            CommKind::GatherForward => "all-gather before forward",
            CommKind::GatherBackward => "all-gather before backward",
            CommKind::GatherParams => "all-gather of the updated parameters",
        }
    }

    /// The collective it runs.
    pub fn collective(self) -> Collective {
        match self {
            CommKind::AllReduce => Collective::AllReduce,
            CommKind::ReduceScatter => Collective::ReduceScatter,
            _ => Collective::AllGather,
        }
    }
}

/// One collective on the communication stream: a bucket's all-reduce
/// (DDP), or a reduce-scatter or all-gather of the sharded modes.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketSpan {
    /// What it does.
    pub kind: CommKind,
    /// Its layers (0-based, forward order indices), in the order their
    /// gradients became ready (highest first).
    pub layers: Vec<usize>,
    /// Gradient bytes in the bucket.
    pub bytes: u64,
    /// When it was issued, seconds: for a bucket, when its last gradient
    /// was ready on every rank.
    pub ready: f64,
    /// When it started, seconds.
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
    /// The communication stream: DDP's bucket all-reduces, or the sharded
    /// modes' reduce-scatters and all-gathers, in the order they ran.
    pub buckets: Vec<BucketSpan>,
    /// Compute of the slowest rank, seconds.
    pub compute_time: f64,
    /// When compute and communication have both ended, seconds.
    pub step_time: f64,
    /// Sum of the communication stream's times, seconds.
    pub comm_time: f64,
    /// Bytes a rank sends in the step: the busiest rank's bytes of each
    /// collective (counted on its executed schedule), summed.
    pub bytes_sent: u64,
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
            crate::core::units::clamp((self.comm_time - self.exposed()) / self.comm_time, 0.0, 1.0)
        }
    }
}

pub(super) fn compute_spans(model: &StepModel, speed: f64) -> Vec<ComputeSpan> {
    let mut out = vec![ComputeSpan {
        layer: None,
        forward: true,
        start: 0.0,
        end: model.fwd / speed,
    }];
    let mut t = model.fwd;
    for i in (0..model.layers()).rev() {
        let start = t / speed;
        t += model.bwd[i];
        out.push(ComputeSpan {
            layer: Some(i),
            forward: false,
            start,
            end: t / speed,
        });
    }
    out
}

/// The bucket stream as DDP runs it: buckets from [`assign`] in ready
/// order, each collective `kind` starting when its bucket is ready (after
/// the backward pass without overlap) and the previous one has ended.
/// Returns the spans, the stream's end, its busy time and the bytes sent.
fn bucket_stream(
    model: &StepModel,
    net: &mut Network,
    opts: &StepOptions,
    kind: CommKind,
    speed: f64,
) -> Result<(Vec<BucketSpan>, f64, f64, u64), StepError> {
    let l = model.layers();
    let ready = model.ready_times(speed);
    let compute_time = model.compute_time(speed);
    let order: Vec<usize> = (0..l).rev().collect();
    let sizes: Vec<u64> = order.iter().map(|&i| model.grad_bytes(i)).collect();
    let mut buckets = Vec::new();
    let mut free = 0.0f64;
    let mut comm_time = 0.0;
    let mut sent = 0;
    for a in assign(&sizes, opts.first, opts.cap) {
        let layers: Vec<usize> = a.members.iter().map(|&k| order[k]).collect();
        let r = if opts.overlap {
            layers.iter().map(|&i| ready[i]).fold(0.0, f64::max)
        } else {
            compute_time
        };
        let t = net.run(kind.collective(), a.bytes, model.dtype.bytes())?;
        let start = free.max(r);
        free = start + t.time;
        comm_time += t.time;
        sent += t.sent;
        buckets.push(BucketSpan {
            kind,
            layers,
            bytes: a.bytes,
            ready: r,
            start,
            end: free,
        });
    }
    Ok((buckets, free, comm_time, sent))
}

/// Checks that the model has layers and one backward time per layer.
///
/// # Errors
/// [`StepError::Model`] otherwise.
pub(super) fn check_model(model: &StepModel) -> Result<(), StepError> {
    let l = model.layers();
    if l == 0 || model.bwd.len() != l {
        return Err(StepError::Model(format!(
            "the model needs at least one layer and one backward time per layer ({} layers, {} times)",
            l,
            model.bwd.len()
        )));
    }
    Ok(())
}

/// Times one step on `net`: all-reduce SGD with DDP buckets, or the
/// sharded mode of `opts.sharding`.
///
/// DDP: buckets follow [`assign`] over the gradients in ready order (layer
/// L first). With a straggler, every bucket waits for the straggler's
/// gradients (all ranks take part in every all-reduce). Without overlap,
/// every all-reduce starts after the backward pass.
///
/// ZeRO-2: the same buckets, each reduce-scattered instead; after the last
/// one, one all-gather of the updated parameters (the whole model), not
/// overlapped. FSDP: [`time_fsdp`].
///
/// # Errors
/// [`StepError::Model`] for a model without layers or a `bwd` list of the
/// wrong length; [`StepError::Schedule`] from the generator;
/// [`StepError::NoHalves`] for a sharded mode on an all-reduce without a
/// reduce-scatter and an all-gather.
pub fn time_step(
    model: &StepModel,
    net: &mut Network,
    opts: &StepOptions,
) -> Result<StepRun, StepError> {
    check_model(model)?;
    let speed = opts.straggler.map_or(1.0, |s| s.factor);
    let compute_time = model.compute_time(speed);
    let (mut buckets, mut free, mut comm_time, mut bytes_sent) = match opts.sharding.bucket_kind() {
        Some(kind) => bucket_stream(model, net, opts, kind, speed)?,
        None => return time_fsdp(model, net, opts),
    };
    if opts.sharding == Sharding::Zero2 {
        let bytes = model.model_bytes();
        let t = net.run(Collective::AllGather, bytes, model.dtype.bytes())?;
        let start = free;
        free = start + t.time;
        comm_time += t.time;
        bytes_sent += t.sent;
        buckets.push(BucketSpan {
            kind: CommKind::GatherParams,
            layers: (0..model.layers()).collect(),
            bytes,
            ready: start,
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
        bytes_sent,
    })
}
