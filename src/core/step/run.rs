//! One data-parallel step on the clock: the compute stream (forward, then
//! the backward pass from the last layer down) and one communication
//! stream on which each bucket's all-reduce starts when the bucket is ready
//! and the previous all-reduce has ended. The sharded modes (ZeRO-2, FSDP)
//! run on the same two streams ([`super::sharded`]).

use super::buckets::assign;
use super::model::{Collective, Network, StepError, StepModel};
use super::sharded::time_fsdp;
use super::spans::{
    check_model, compute_spans, BucketSpan, CommKind, Sharding, StepOptions, StepRun,
};

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
