//! The step model's case from a measured step: what the training-step view
//! needs to model the same step (PyTorch DDP's buckets, `core::step`).
//!
//! The rule: DDP launches one all-reduce per gradient bucket, in the order
//! the buckets became ready in backward (`torch/csrc/distributed/c10d/
//! reducer.cpp`), so a step's all-reduces in start order are its buckets in
//! launch order, each of `In msg nelems` (NCCL) or `Input Dims` (gloo)
//! elements. The model takes layers in forward order and walks them
//! backwards, so the buckets become its layers in reverse launch order,
//! each a bucket of its own. Compute before backward's first autograd
//! operator is the forward time; backward's compute between one launch and
//! the next is the backward time of the bucket launched at the end of it.
//! Compute after the last launch (the tail of backward, the optimizer) is
//! not part of the case.

use super::intervals::overlap_len;
use super::types::RankProfile;
use crate::core::cost::nccl::CollectiveKind;

/// A measured step as the step model's case.
#[derive(Clone, Debug, PartialEq)]
pub struct StepCase {
    /// The step's name ("ProfilerStep#3").
    pub step: String,
    /// Ranks in the all-reduces' group.
    pub world: usize,
    /// The dtype as recorded.
    pub dtype: String,
    /// Bytes per element.
    pub elem_bytes: u64,
    /// Elements per bucket, in launch order.
    pub buckets: Vec<u64>,
    /// Forward compute, s.
    pub fwd: f64,
    /// Backward compute before each bucket's launch, s, in launch order.
    pub bwd: Vec<f64>,
    /// The largest bucket's busbw, B/s (a lower bound on the link's: its
    /// time includes waiting).
    pub busbw: Option<f64>,
    /// Measured exposed communication in the step, s.
    pub exposed: f64,
    /// The step's measured span, s (its `ProfilerStep#` annotation).
    pub span: f64,
}

/// The case of step `step` of `p`: `None` when the step holds no
/// all-reduce, or one without its size, dtype or group size, or
/// all-reduces of different dtypes or groups.
pub fn step_case(p: &RankProfile, step: usize) -> Option<StepCase> {
    let s = p.steps.get(step)?;
    let ars: Vec<_> = p
        .comms
        .iter()
        .filter(|c| c.step == Some(step) && c.kind == Some(CollectiveKind::AllReduce))
        .collect();
    let first = ars.first()?;
    let (dtype, elem_bytes, world) = (first.dtype.clone()?, first.elem_bytes?, first.group_size?);
    if ars
        .iter()
        .any(|c| c.dtype.as_deref() != Some(&dtype) || c.group_size != Some(world))
    {
        return None;
    }
    let buckets = ars.iter().map(|c| c.nelems).collect::<Option<Vec<u64>>>()?;
    let start = s.start;
    let bwd_start = s.backward.unwrap_or(start).max(start);
    let busy = |a: f64, b: f64| overlap_len(&p.compute, &[(a, b)]) * 1e-6;
    let mut bwd = Vec::with_capacity(ars.len());
    let mut from = bwd_start;
    for c in &ars {
        let to = c.start.max(from);
        bwd.push(busy(from, to));
        from = to;
    }
    let largest = ars.iter().max_by_key(|c| c.nelems.unwrap_or(0))?;
    Some(StepCase {
        step: s.name.clone(),
        world,
        dtype,
        elem_bytes,
        buckets,
        fwd: busy(start, bwd_start),
        bwd,
        busbw: largest.busbw(),
        exposed: s.exposed,
        span: s.span,
    })
}
