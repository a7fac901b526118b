//! PyTorch profiler traces: the communication of one rank's training step.
//!
//! The rule, and where it comes from:
//! - A `torch.profiler` trace is Kineto's Chrome trace-event JSON: complete
//!   events (`ph` "X") with `ts` and `dur` in microseconds, GPU kernels under
//!   `cat` "kernel" (their stream in `args.stream`), CPU operators under
//!   "cpu_op", and the step markers `ProfilerStep#N` under
//!   "user_annotation" (PyTorch, `torch/autograd/profiler_util.py` and
//!   Kineto's `ChromeTraceLogger`). The top level may carry
//!   `distributedInfo` (backend, rank, world_size, nccl_version).
//! - NCCL kernels are named `ncclKernel_<Coll>_<ALGO>_<PROTO>_<op>_<type>`
//!   (NCCL ≤ 2.18), `ncclDevKernel_<Coll>_<op>_<type>_<ALGO>_<PROTO>` or
//!   `ncclDevKernel_<Coll>_<ALGO>_<PROTO>` (2.19 and later), SendRecv
//!   kernels, and RCCL's `ncclDevKernel_Generic` (the collective only in
//!   the args). PyTorch ≥ 2.1 records "Collective name", "In msg nelems",
//!   "Out msg nelems", "Group size", "dtype", "Process Group Name" and
//!   "Process Group Ranks" on them, copied from the `record_param_comms`
//!   CPU operator (`torch/csrc/profiler/util.h`, `kCommsName` and its
//!   neighbours; Kineto's `kCollectiveName`, "populated from CPU op to GPU
//!   kernel").
//! - A kernel's name does **not** reliably give the protocol or algorithm
//!   that ran: one kernel serves several protocols, chosen per call at run
//!   time. NVIDIA/nccl #502 (a Simple/Tree run shown as an LL kernel),
//!   #1595 ("using the kernel name is not a reliable indication of what
//!   ALGO/PROTO NCCL is actually using") and #2196 (RING_LL on every ring
//!   all-gather and reduce-scatter) say so. [`Comm::proto`] is the name's
//!   token, nothing more.
//! - On CPU-only traces (gloo), the collectives are CPU operators named
//!   `gloo:<collective>` (`cat` "user_annotation" in PyTorch 2.15) on
//!   gloo's worker threads, with the tensor's
//!   `Input Dims` and `Input type` when `record_shapes` was on.
//! - algbw = S / t and busbw = algbw × factor, nccl-tests' convention
//!   (`doc/PERFORMANCE.md`), with S the all-reduce's, broadcast's and
//!   reduce's tensor, all-gather's output and reduce-scatter's input. A
//!   kernel's time includes waiting for its peers, so this busbw is a lower
//!   bound on the link's, not the link.
//! - Hidden communication is the part of the communication's time during
//!   which compute ran on other streams (GPU) or threads (CPU); the rest is
//!   exposed (HTA's `get_comm_comp_overlap` measures the same overlap).

pub mod case;
pub mod intervals;
pub mod rank;
pub mod types;
pub mod wire;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

pub use case::{step_case, StepCase};
pub use rank::{match_ranks, Arrival, Matched};
pub use types::{Comm, ProfileError, RankProfile, Source, StepTime};
pub use wire::{CommArgs, DistInfo, ProfEvent, RawProfile};

use crate::core::cost::nccl::CollectiveKind;
use intervals::{merged, minus, overlap_len, union_len};

/// Bytes per element of a dtype as the profiler writes it: PyTorch's
/// scalar-type names ("Float", "BFloat16"), C++ names ("float",
/// "c10::Half", "long int") and NCCL's ("float32", "bf16"). `None` if unknown.
pub fn dtype_bytes(t: &str) -> Option<u64> {
    let t = t.trim().trim_start_matches("c10::").to_ascii_lowercase();
    Some(match t.as_str() {
        "double"
        | "float64"
        | "f64"
        | "long"
        | "long int"
        | "int64"
        | "int64_t"
        | "long long"
        | "uint64"
        | "complexfloat"
        | "c10::complex<float>" => 8,
        "float" | "float32" | "f32" | "int" | "int32" | "int32_t" | "unsigned int" | "uint32" => 4,
        "half" | "float16" | "f16" | "bfloat16" | "bf16" | "short" | "int16" | "int16_t" => 2,
        "char" | "signed char" | "unsigned char" | "byte" | "int8" | "int8_t" | "uint8"
        | "uint8_t" | "bool" | "float8_e4m3fn" | "float8_e5m2" | "fp8_e4m3" | "fp8_e5m2" => 1,
        _ => return None,
    })
}

/// What an NCCL kernel's name says: the collective's token, the algorithm
/// and the protocol tokens. `None` if the name is not an NCCL kernel.
///
/// `ncclKernel_AllReduce_RING_LL_Sum_float` → ("AllReduce", RING, LL);
/// `ncclDevKernel_AllGather_RING_LL` → ("AllGather", RING, LL);
/// `ncclDevKernel_ReduceScatter_Sum_f32_RING_LL` → ("ReduceScatter", RING, LL);
/// `ncclDevKernel_SendRecv` → ("SendRecv", none, none);
/// `ncclDevKernel_Generic` (RCCL) → ("Generic", none, none).
pub fn nccl_kernel(name: &str) -> Option<(String, Option<String>, Option<String>)> {
    // Demangled names may carry "(ncclDevKernelArgs…)" or template args.
    let base = name.split(['(', '<', ' ']).next().unwrap_or(name);
    let rest = base
        .strip_prefix("ncclKernel_")
        .or_else(|| base.strip_prefix("ncclDevKernel_"))?;
    let mut tokens = rest.split('_');
    let coll = tokens.next().filter(|c| !c.is_empty())?.to_string();
    let (mut algo, mut proto) = (None, None);
    let all: Vec<&str> = tokens.collect();
    let mut i = 0;
    while i < all.len() {
        let t = all[i];
        // COLLNET_DIRECT, COLLNET_CHAIN and NVLS_TREE are two tokens.
        let two = all.get(i + 1).map(|n| format!("{t}_{n}"));
        if let Some(two) =
            two.filter(|s| matches!(s.as_str(), "COLLNET_DIRECT" | "COLLNET_CHAIN" | "NVLS_TREE"))
        {
            algo = Some(two);
            i += 2;
            continue;
        }
        match t {
            "RING" | "TREE" | "NVLS" | "PAT" | "COLLNET" => algo = Some(t.to_string()),
            "LL" | "LL128" | "SIMPLE" => proto = Some(t.to_string()),
            _ => {}
        }
        i += 1;
    }
    Some((coll, algo, proto))
}

/// The collective of a name as NCCL, PyTorch or gloo writes it
/// ("AllReduce", "allreduce", "all_reduce", "_allgather_base",
/// "reduce_scatter_tensor_coalesced", "alltoall_base").
fn kind_of(s: &str) -> Option<CollectiveKind> {
    let t = s
        .trim_start_matches('_')
        .trim_end_matches("_coalesced")
        .trim_end_matches("_base")
        .trim_end_matches("_into_tensor")
        .trim_end_matches("_tensor");
    CollectiveKind::from_name(t)
}

/// Reads `"[0, 1, 2, 3]"` or `"0,1"`: the process group's ranks.
fn ranks_of(s: &str) -> Option<Vec<usize>> {
    let v: Vec<usize> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (!v.is_empty()).then_some(v)
}

/// True for CPU operators that are communication or its bookkeeping, not
/// compute: `gloo:*`, `nccl:*`, `c10d::*`, `record_param_comms`.
fn is_comm_op(name: &str) -> bool {
    name.starts_with("gloo:")
        || name.starts_with("nccl:")
        || name.starts_with("c10d::")
        || name.starts_with("c10d:")
        || name == "record_param_comms"
}

fn comm_of(e: &ProfEvent, world: Option<usize>) -> Option<Comm> {
    let a = &e.args;
    let (label, kind, source, algo, proto) = if e.cat == "kernel" {
        let (coll, algo, proto) = nccl_kernel(&e.name)?;
        let named = a.collective.as_deref().and_then(kind_of);
        let kind = named.or_else(|| kind_of(&coll));
        let label = match kind {
            Some(k) => k.label().to_string(),
            None => a.collective.clone().unwrap_or(coll),
        };
        (label, kind, Source::NcclKernel, algo, proto)
    } else if e.cat == "cpu_op" || e.cat == "user_annotation" {
        let coll = e.name.strip_prefix("gloo:")?;
        let kind = kind_of(coll);
        let label = kind.map_or_else(|| e.name.clone(), |k| k.label().to_string());
        (label, kind, Source::Gloo, None, None)
    } else {
        return None;
    };
    let group_size = a
        .group_size
        .filter(|g| *g >= 1.0 && g.fract() == 0.0)
        .map(|g| g as usize)
        .or(if source == Source::Gloo { world } else { None });
    let dtype = a.dtype.clone().or_else(|| a.input_type.clone());
    let elem_bytes = dtype.as_deref().and_then(dtype_bytes);
    let count = |x: f64| (x >= 0.0 && x.fract() == 0.0 && x < 1e18).then_some(x as u64);
    let nelems = match source {
        Source::NcclKernel => match kind {
            Some(CollectiveKind::AllGather) => a.out_nelems.or(a.in_nelems),
            _ => a.in_nelems,
        }
        .and_then(count),
        Source::Gloo => a.input_dims.as_ref().and_then(|d| {
            let n = d
                .iter()
                .try_fold(1.0_f64, |p, &x| count(x).map(|x| p * x as f64))?;
            // gloo's all-gather input is one rank's part: S is p times it.
            let n = if kind == Some(CollectiveKind::AllGather) {
                n * group_size? as f64
            } else {
                n
            };
            count(n)
        }),
    };
    Some(Comm {
        name: e.name.clone(),
        kind,
        label,
        source,
        algo,
        proto,
        start: e.ts,
        dur: e.dur,
        lane: e.tid.clone(),
        nelems,
        elem_bytes,
        dtype,
        group_size,
        pg: a.pg_name.clone().unwrap_or_else(|| "0".into()),
        pg_ranks: a.pg_ranks.as_deref().and_then(ranks_of),
        step: None,
    })
}

/// Reads one rank's trace: its communication, and per profiled step the
/// communication time, its hidden and exposed parts and the compute time.
///
/// Compute is every GPU kernel that is not NCCL's on a trace with kernels;
/// on a CPU-only trace it is the time of the CPU operators on threads that
/// run no gloo collective, less the time of communication bookkeeping
/// (`c10d::*`, `record_param_comms`) on them: autograd's AccumulateGrad
/// wraps DDP's `c10d::allreduce_` enqueue, which can block for tens of
/// milliseconds. Waiting inside any other operator still counts as compute.
///
/// # Errors
/// [`ProfileError::NoCommunication`] when nothing in it is communication.
pub fn read_profile(raw: &RawProfile) -> Result<RankProfile, ProfileError> {
    let complete: Vec<&ProfEvent> = raw
        .events
        .iter()
        .filter(|e| e.ph == "X" && e.ts.is_finite() && e.dur.is_finite() && e.dur >= 0.0)
        .collect();
    let kernels = complete.iter().filter(|e| e.cat == "kernel").count();
    let mut comms: Vec<Comm> = complete
        .iter()
        .filter(|e| kernels == 0 || e.cat == "kernel")
        .filter_map(|e| comm_of(e, raw.dist.world_size))
        .collect();
    if comms.is_empty() {
        return Err(ProfileError::NoCommunication {
            events: complete.len(),
            kernels,
        });
    }
    comms.sort_by(|a, b| a.start.total_cmp(&b.start));
    let mut comm_lanes: Vec<&str> = comms.iter().map(|c| c.lane.as_str()).collect();
    comm_lanes.sort_unstable();
    comm_lanes.dedup();
    let lane_ops = |comm: bool| -> Vec<(f64, f64)> {
        complete
            .iter()
            .filter(|e| {
                if kernels > 0 {
                    !comm && e.cat == "kernel" && nccl_kernel(&e.name).is_none()
                } else {
                    e.cat == "cpu_op"
                        && is_comm_op(&e.name) == comm
                        && !comm_lanes.contains(&e.tid.as_str())
                }
            })
            .map(|e| (e.ts, e.ts + e.dur))
            .collect()
    };
    let compute_ops = lane_ops(false);
    // On CPU, an operator that wraps an enqueue (autograd's AccumulateGrad
    // around c10d::allreduce_) is compute only outside the enqueue.
    let compute = minus(&merged(&compute_ops), &merged(&lane_ops(true)));
    let mut windows: Vec<(String, f64, f64)> = complete
        .iter()
        .filter(|e| e.name.starts_with("ProfilerStep#"))
        .map(|e| (e.name.clone(), e.ts, e.ts + e.dur))
        .collect();
    windows.sort_by(|a, b| a.1.total_cmp(&b.1));
    if windows.is_empty() {
        let lo = complete.iter().map(|e| e.ts).fold(f64::INFINITY, f64::min);
        let hi = complete
            .iter()
            .map(|e| e.ts + e.dur)
            .fold(f64::NEG_INFINITY, f64::max);
        windows.push(("whole trace".into(), lo, hi));
    }
    for c in &mut comms {
        c.step = windows.iter().position(|w| c.start >= w.1 && c.start < w.2);
    }
    // One pass each, so a trace of thousands of steps stays linear.
    let mut per_step: Vec<Vec<(f64, f64)>> = vec![Vec::new(); windows.len()];
    for c in &comms {
        if let Some(i) = c.step {
            per_step[i].push((c.start, c.start + c.dur));
        }
    }
    let mut backward_starts: Vec<f64> = complete
        .iter()
        .filter(|e| e.name.starts_with("autograd::engine::evaluate_function"))
        .map(|e| e.ts)
        .collect();
    backward_starts.sort_by(f64::total_cmp);
    let steps = windows
        .iter()
        .zip(per_step)
        .map(|((name, lo, hi), mine)| {
            // `compute` is sorted and disjoint: the intervals that reach
            // into [lo, hi) are one run of it.
            let from = compute.partition_point(|&(_, b)| b <= *lo);
            let k: Vec<(f64, f64)> = compute[from..]
                .iter()
                .take_while(|&&(a, _)| a < *hi)
                .map(|&(a, b)| (a.max(*lo), b.min(*hi)))
                .collect();
            let comm = union_len(&mine) * 1e-6;
            let hidden = overlap_len(&mine, &k) * 1e-6;
            let backward = backward_starts
                .get(backward_starts.partition_point(|&t| t < *lo))
                .copied()
                .filter(|t| t < hi);
            StepTime {
                backward,
                name: name.clone(),
                start: *lo,
                span: (hi - lo) * 1e-6,
                count: mine.len(),
                comm,
                hidden,
                exposed: comm - hidden,
                compute: union_len(&k) * 1e-6,
            }
        })
        .collect();
    Ok(RankProfile {
        rank: raw.dist.rank,
        world: raw.dist.world_size,
        backend: raw.dist.backend.clone(),
        nccl_version: raw.dist.nccl_version.clone(),
        kernels,
        compute_events: compute_ops.len(),
        comms,
        steps,
        compute,
    })
}
