//! What a timed step is made of: the options it runs with (bucket caps,
//! overlap, a straggler, the sharding mode) and the spans of its two
//! streams, compute and communication. Shared by DDP ([`super::run`]) and
//! the sharded modes ([`super::sharded`]), which both build a [`StepRun`].

use super::model::{Collective, StepError, StepModel};

/// How the data-parallel step keeps and communicates the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Sharding {
    /// PyTorch DDP: every rank holds everything; each bucket is all-reduced.
    #[default]
    Ddp,
    /// ZeRO-2: optimizer state and gradients sharded; each bucket is
    /// reduce-scattered, then the updated parameters are all-gathered.
    Zero2,
    /// FSDP (ZeRO-3): parameters sharded too; each layer is all-gathered
    /// before its forward and its backward, and its gradients
    /// reduce-scattered.
    Fsdp,
}

impl Sharding {
    /// Every mode, in menu order.
    pub const ALL: [Sharding; 3] = [Sharding::Ddp, Sharding::Zero2, Sharding::Fsdp];

    /// The step view's `mode` value: `allreduce`, `zero2`, `fsdp`.
    pub fn key(self) -> &'static str {
        match self {
            Sharding::Ddp => "allreduce",
            Sharding::Zero2 => "zero2",
            Sharding::Fsdp => "fsdp",
        }
    }

    /// Its name, e.g. "FSDP (ZeRO-3)".
    pub fn label(self) -> &'static str {
        match self {
            Sharding::Ddp => "DDP",
            Sharding::Zero2 => "ZeRO-2",
            Sharding::Fsdp => "FSDP (ZeRO-3)",
        }
    }

    /// What each gradient bucket runs: DDP's all-reduce, ZeRO-2's
    /// reduce-scatter; `None` for FSDP, which communicates layer by layer,
    /// not bucket by bucket.
    pub fn bucket_kind(self) -> Option<CommKind> {
        match self {
            Sharding::Ddp => Some(CommKind::AllReduce),
            Sharding::Zero2 => Some(CommKind::ReduceScatter),
            Sharding::Fsdp => None,
        }
    }

    /// Parses a `mode` value (case-insensitive): `ddp`, `zero2`
    /// (`zero-2`), `fsdp` (`zero3`, `zero-3`); `None` otherwise (DDP is
    /// also the strategies' `allreduce`).
    pub fn parse(s: &str) -> Option<Sharding> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ddp" => Some(Sharding::Ddp),
            "zero2" | "zero-2" => Some(Sharding::Zero2),
            "fsdp" | "zero3" | "zero-3" => Some(Sharding::Fsdp),
            _ => None,
        }
    }
}

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
