//! Sharded data parallelism: ZeRO-2 and FSDP (ZeRO-3) on the step's clock,
//! and the memory each rank holds under DDP and ZeRO stages 1–3.
//!
//! The rules (stated once in `../shared/design.md`, "Sharded data
//! parallel"):
//! - ZeRO-2 reduce-scatters each DDP bucket in the backward pass (DDP's
//!   buckets and order), then all-gathers the updated parameters in one
//!   collective, not overlapped ([`super::run::time_step`]);
//! - FSDP all-gathers each layer's parameters before its forward and again
//!   before its backward, prefetching one layer, and reduce-scatters each
//!   layer's gradients when its backward ends, on one first-in-first-out
//!   communication stream ([`time_fsdp`]);
//! - every collective is the registry's schedule executed on the same
//!   network ([`super::model::Network::run`], [`super::model::Halves`]);
//! - memory per rank with mixed-precision Adam ([`memory`]).

use super::model::{Network, StepError, StepModel};
use super::spans::{check_model, BucketSpan, CommKind, ComputeSpan, StepOptions, StepRun};

/// The communication stream: one collective at a time, first in first
/// out; a collective issued at `at` starts when the previous one has ended.
struct Stream<'a> {
    net: &'a mut Network,
    elem: u64,
    free: f64,
    spans: Vec<BucketSpan>,
    busy: f64,
    sent: u64,
}

impl Stream<'_> {
    /// Issues `kind` for layer `i` (`bytes` bytes) at `at`; returns its end.
    fn issue(&mut self, kind: CommKind, i: usize, bytes: u64, at: f64) -> Result<f64, StepError> {
        let t = self.net.run(kind.collective(), bytes, self.elem)?;
        let start = self.free.max(at);
        self.free = start + t.time;
        self.busy += t.time;
        self.sent += t.sent;
        self.spans.push(BucketSpan {
            kind,
            layers: vec![i],
            bytes,
            ready: at,
            start,
            end: self.free,
        });
        Ok(self.free)
    }
}

/// Times one FSDP (ZeRO-3) step on `net`, as PyTorch FSDP runs it with
/// one unit per layer, `reshard_after_forward` and backward prefetch
/// (`BACKWARD_PRE`), forward prefetch on:
///
/// - the forward time is split evenly over the layers (fwd / L each);
/// - layer l computes (forward or backward) once its parameters are
///   all-gathered and the compute stream is free;
/// - layer 1's all-gather is issued at the step's start; layer l + 1's
///   when layer l's forward starts; the last layer's backward all-gather
///   when the forward ends; layer l − 1's when layer l's backward starts;
/// - layer l's gradients are reduce-scattered when its backward ends; at
///   one instant that reduce-scatter is issued before the next prefetch;
/// - one communication stream, first in first out.
///
/// Without overlap (`opts.overlap` false) nothing is prefetched: each
/// all-gather is issued when its layer is next, and the reduce-scatters
/// after the backward pass. With a straggler, every collective waits for it
/// (each needs every rank), and the other ranks compute each layer once its
/// all-gather has ended.
///
/// # Errors
/// As [`super::run::time_step`].
pub fn time_fsdp(
    model: &StepModel,
    net: &mut Network,
    opts: &StepOptions,
) -> Result<StepRun, StepError> {
    check_model(model)?;
    let l = model.layers();
    let speed = opts.straggler.map_or(1.0, |s| s.factor);
    let fwd = model.fwd / l as f64;
    let eb = model.dtype.bytes();
    let bytes = |i: usize| model.grad_bytes(i);
    let prefetch = opts.overlap;
    let mut s = Stream {
        net,
        elem: eb,
        free: 0.0,
        spans: Vec::with_capacity(3 * l),
        busy: 0.0,
        sent: 0,
    };
    // (layer, forward, nominal duration, all-gather end) of each compute span
    let mut plan: Vec<(usize, bool, f64, f64)> = Vec::with_capacity(2 * l);
    let mut compute = Vec::with_capacity(2 * l);
    let mut t = 0.0f64;
    let mut gathered = s.issue(CommKind::GatherForward, 0, bytes(0), 0.0)?;
    for i in 0..l {
        let start = t.max(gathered);
        let next = if prefetch && i + 1 < l {
            Some(s.issue(CommKind::GatherForward, i + 1, bytes(i + 1), start)?)
        } else {
            None
        };
        t = start + fwd / speed;
        compute.push(ComputeSpan {
            layer: Some(i),
            forward: true,
            start,
            end: t,
        });
        plan.push((i, true, fwd, gathered));
        gathered = match next {
            Some(e) => e,
            None if i + 1 < l => s.issue(CommKind::GatherForward, i + 1, bytes(i + 1), t)?,
            None => 0.0,
        };
    }
    // the forward has ended: the last layer's backward all-gather
    gathered = s.issue(CommKind::GatherBackward, l - 1, bytes(l - 1), t)?;
    for i in (0..l).rev() {
        let start = t.max(gathered);
        let next = if prefetch && i > 0 {
            Some(s.issue(CommKind::GatherBackward, i - 1, bytes(i - 1), start)?)
        } else {
            None
        };
        t = start + model.bwd[i] / speed;
        compute.push(ComputeSpan {
            layer: Some(i),
            forward: false,
            start,
            end: t,
        });
        plan.push((i, false, model.bwd[i], gathered));
        if prefetch {
            s.issue(CommKind::ReduceScatter, i, bytes(i), t)?;
        }
        gathered = match next {
            Some(e) => e,
            None if i > 0 => s.issue(CommKind::GatherBackward, i - 1, bytes(i - 1), t)?,
            None => 0.0,
        };
    }
    if !prefetch {
        for i in (0..l).rev() {
            s.issue(CommKind::ReduceScatter, i, bytes(i), t)?;
        }
    }
    let others = opts.straggler.map(|_| {
        let mut t = 0.0f64;
        plan.iter()
            .map(|&(i, forward, d, gate)| {
                let start = t.max(gate);
                t = start + d;
                ComputeSpan {
                    layer: Some(i),
                    forward,
                    start,
                    end: t,
                }
            })
            .collect()
    });
    let compute_time = model.compute_time(speed);
    Ok(StepRun {
        compute,
        others,
        step_time: t.max(s.free),
        buckets: s.spans,
        compute_time,
        comm_time: s.busy,
        bytes_sent: s.sent,
    })
}

/// Bytes of parameters per parameter held in training: 2 (fp16 or bf16),
/// as in mixed-precision training (Rajbhandari et al. 2020, §3).
pub const PARAM_BYTES: f64 = 2.0;
/// Bytes of gradients per parameter: 2 (fp16 or bf16).
pub const GRAD_BYTES: f64 = 2.0;
/// K, bytes of optimizer state per parameter with mixed-precision Adam:
/// an fp32 copy of the parameters, momentum and variance, 4 + 4 + 4 = 12
/// (Rajbhandari et al. 2020, §3.1).
pub const DEFAULT_OPTIM_BYTES: f64 = 12.0;

/// The model states each rank holds, bytes, under each mode (Rajbhandari
/// et al. 2020, §5 and Figure 1: Ψ parameters, N ranks, K bytes of optimizer
/// state per parameter).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    /// Ψ, the model's parameters.
    pub params: u64,
    /// DDP: (2 + 2 + K)Ψ.
    pub ddp: f64,
    /// ZeRO-1 (optimizer state sharded): 4Ψ + KΨ/N.
    pub zero1: f64,
    /// ZeRO-2 (gradients sharded too): 2Ψ + (2 + K)Ψ/N.
    pub zero2: f64,
    /// ZeRO-3 (parameters sharded too): (2 + 2 + K)Ψ/N.
    pub zero3: f64,
    /// What FSDP adds to ZeRO-3: the largest layer's parameters, gathered
    /// whole (2 bytes each) while it computes.
    pub gathered: f64,
}

impl Memory {
    /// FSDP: ZeRO-3 plus the largest gathered layer, bytes.
    pub fn fsdp(&self) -> f64 {
        self.zero3 + self.gathered
    }
}

/// Memory per rank for `psi` parameters (Ψ) on `n` ranks (N) with `k`
/// bytes of optimizer state per parameter (K), the largest layer holding
/// `largest` parameters; see [`Memory`] for each formula.
pub fn memory(psi: u64, largest: u64, n: usize, k: f64) -> Memory {
    let params = psi;
    let psi = psi as f64;
    let n = n.max(1) as f64;
    Memory {
        params,
        ddp: (PARAM_BYTES + GRAD_BYTES + k) * psi,
        zero1: (PARAM_BYTES + GRAD_BYTES) * psi + k * psi / n,
        zero2: PARAM_BYTES * psi + (GRAD_BYTES + k) * psi / n,
        zero3: (PARAM_BYTES + GRAD_BYTES + k) * psi / n,
        gathered: PARAM_BYTES * largest as f64,
    }
}
