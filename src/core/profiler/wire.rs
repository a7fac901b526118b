//! What the page reads of a profiler trace: the fields of each event that
//! the analysis needs, nothing else (a 200 MB trace keeps only these).
//! The browser's `JSON.parse` fills them in the app; the native tests fill
//! them with `serde_json`.

/// The parts of an event's `args` that describe communication.
///
/// Keys as PyTorch writes them (`torch/csrc/profiler/util.h`): "Collective
/// name", "In msg nelems", "Out msg nelems", "Group size", "dtype",
/// "Process Group Name", "Process Group Ranks"; for CPU operators recorded
/// with `record_shapes`, "Input Dims" (the first input's) and "Input type".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommArgs {
    /// "Collective name" ("allreduce", "_allgather_base").
    pub collective: Option<String>,
    /// "In msg nelems": elements of the input.
    pub in_nelems: Option<f64>,
    /// "Out msg nelems": elements of the output.
    pub out_nelems: Option<f64>,
    /// "Group size": ranks in the process group.
    pub group_size: Option<f64>,
    /// "dtype" ("Float", "BFloat16").
    pub dtype: Option<String>,
    /// "Process Group Name" ("0", "1", a hash).
    pub pg_name: Option<String>,
    /// "Process Group Ranks" as written ("[0, 1, 2, 3]").
    pub pg_ranks: Option<String>,
    /// The first input's dims (the first entry of "Input Dims").
    pub input_dims: Option<Vec<f64>>,
    /// The first input's type (the first entry of "Input type": "float", "c10::BFloat16").
    pub input_type: Option<String>,
}

/// One trace event, reduced to what the analysis reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfEvent {
    /// `ph`: "X" for a complete event.
    pub ph: String,
    /// `name`.
    pub name: String,
    /// `cat`: "kernel", "cpu_op", "user_annotation", ….
    pub cat: String,
    /// `ts`, µs.
    pub ts: f64,
    /// `dur`, µs.
    pub dur: f64,
    /// The lane: `args.stream` for kernels, else `tid`, as text.
    pub tid: String,
    /// The communication args.
    pub args: CommArgs,
}

/// The trace's `distributedInfo`, where present.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistInfo {
    /// "backend": "nccl", "gloo".
    pub backend: Option<String>,
    /// "rank".
    pub rank: Option<usize>,
    /// "world_size".
    pub world_size: Option<usize>,
    /// "nccl_version" ("2.21.5").
    pub nccl_version: Option<String>,
}

/// One file's events and its `distributedInfo`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawProfile {
    /// The events, in file order.
    pub events: Vec<ProfEvent>,
    /// `distributedInfo` (all `None` when absent).
    pub dist: DistInfo,
}
