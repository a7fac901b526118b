//! The reading of one rank's trace: its communication operations and its
//! steps' times (made by `read_profile`, in `mod.rs`), and what can go wrong.

use crate::core::cost::nccl::{busbw_factor, CollectiveKind};

/// A trace the page cannot use, in words a user can act on.
#[derive(Clone, Debug, PartialEq)]
pub enum ProfileError {
    /// The file was empty.
    Empty,
    /// Not JSON: the parser's message.
    NotJson(String),
    /// JSON without a `traceEvents` list.
    NotATrace,
    /// Events, but no GPU kernel and no gloo collective among them.
    NoCommunication {
        /// Complete (`ph` "X") events read.
        events: usize,
        /// GPU kernels among them.
        kernels: usize,
    },
}

impl std::fmt::Display for ProfileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProfileError::Empty => write!(f, "the file is empty"),
            ProfileError::NotJson(m) => write!(f, "it is not JSON ({m})"),
            ProfileError::NotATrace => {
                write!(
                    f,
                    "it is JSON but has no traceEvents list, so it is not a profiler trace"
                )
            }
            ProfileError::NoCommunication { events, kernels: 0 } => write!(
                f,
                "none of its {events} events is a GPU kernel or a gloo collective \
                 (was the profiler run with ProfilerActivity.CUDA, or record_shapes for gloo?)"
            ),
            ProfileError::NoCommunication { events, kernels } => write!(
                f,
                "its {events} events hold {kernels} GPU kernels but no NCCL kernel"
            ),
        }
    }
}

/// Where a communication event was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A GPU kernel named `ncclKernel_…` or `ncclDevKernel_…`.
    NcclKernel,
    /// A CPU operator named `gloo:…`.
    Gloo,
}

/// One communication operation of one rank.
#[derive(Clone, Debug, PartialEq)]
pub struct Comm {
    /// The event's name as written.
    pub name: String,
    /// The collective, where it is one nccl-tests measures.
    pub kind: Option<CollectiveKind>,
    /// What it is in words: "all-reduce", "SendRecv", "gloo:barrier".
    pub label: String,
    /// Where it was read from.
    pub source: Source,
    /// The name's algorithm token (RING, TREE, NVLS, …), if any.
    pub algo: Option<String>,
    /// The name's protocol token (LL, LL128, SIMPLE), if any: not
    /// reliably the protocol that ran (see the module's rule).
    pub proto: Option<String>,
    /// Start, µs on the trace's clock.
    pub start: f64,
    /// Duration, µs (waiting for peers included).
    pub dur: f64,
    /// The stream (GPU) or thread (CPU) it ran on.
    pub lane: String,
    /// Elements of S (see [`Comm::bytes`]), where recorded.
    pub nelems: Option<u64>,
    /// Bytes per element, where the dtype is known.
    pub elem_bytes: Option<u64>,
    /// The dtype as recorded ("Float", "float", "c10::BFloat16").
    pub dtype: Option<String>,
    /// Ranks in the process group, where recorded.
    pub group_size: Option<usize>,
    /// The process group's name ("0" when none was recorded: the default).
    pub pg: String,
    /// The process group's ranks, where recorded.
    pub pg_ranks: Option<Vec<usize>>,
    /// The profiled step it started in (index into [`RankProfile::steps`]).
    pub step: Option<usize>,
}

impl Comm {
    /// S in bytes (nccl-tests' size: all-gather's output, reduce-scatter's
    /// input, the tensor otherwise), where elements and dtype are known.
    pub fn bytes(&self) -> Option<u64> {
        Some(self.nelems? * self.elem_bytes?)
    }

    /// algbw = S / t, B/s (nccl-tests' `doc/PERFORMANCE.md`).
    pub fn algbw(&self) -> Option<f64> {
        (self.dur > 0.0).then(|| self.bytes().map(|b| b as f64 / (self.dur * 1e-6)))?
    }

    /// busbw = algbw × nccl-tests' factor for the kind at the group's size.
    pub fn busbw(&self) -> Option<f64> {
        Some(self.algbw()? * busbw_factor(self.kind?, self.group_size?))
    }
}

/// One profiled step's time, seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTime {
    /// The step's name ("ProfilerStep#2", or "whole trace").
    pub name: String,
    /// Its start, µs on the trace's clock.
    pub start: f64,
    /// The step's span, s.
    pub span: f64,
    /// Communication operations that started in it.
    pub count: usize,
    /// Communication time (the union of their intervals), s.
    pub comm: f64,
    /// The part of `comm` during which compute ran elsewhere, s.
    pub hidden: f64,
    /// `comm − hidden`, s.
    pub exposed: f64,
    /// Compute busy time in the step (a union), s.
    pub compute: f64,
    /// Where backward began: the step's first CPU operator named
    /// `autograd::engine::evaluate_function…`, µs; `None` if none.
    pub backward: Option<f64>,
}

/// What one rank's trace says of its communication.
#[derive(Clone, Debug, PartialEq)]
pub struct RankProfile {
    /// The rank, from `distributedInfo`.
    pub rank: Option<usize>,
    /// The world size, from `distributedInfo`.
    pub world: Option<usize>,
    /// The backend ("nccl", "gloo"), from `distributedInfo`.
    pub backend: Option<String>,
    /// NCCL's version, from `distributedInfo`.
    pub nccl_version: Option<String>,
    /// GPU kernels read (0 on a CPU-only trace).
    pub kernels: usize,
    /// Compute events read (kernels, or CPU operators on other threads).
    pub compute_events: usize,
    /// The communication, in start order.
    pub comms: Vec<Comm>,
    /// The profiled steps (one "whole trace" row when none is marked).
    pub steps: Vec<StepTime>,
    /// Compute intervals, µs, disjoint and sorted.
    pub compute: Vec<(f64, f64)>,
}
