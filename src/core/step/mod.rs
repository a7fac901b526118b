//! The training-step model: one data-parallel step on the clock, with
//! DDP's gradient buckets overlapping the backward pass.
//!
//! The model (stated once in `../shared/design.md`, "Data-parallel step
//! model"):
//! - layers in forward order, each with a parameter count ([`count`]); a
//!   gradient type (bytes per element); one forward time and a backward
//!   time per layer ([`model::StepModel`]). Gradients become ready in
//!   reverse layer order;
//! - buckets as PyTorch DDP forms them after its first-iteration rebuild
//!   ([`buckets`]);
//! - one communication stream: a bucket's all-reduce starts when the
//!   bucket is ready and the previous one has ended; its time is the
//!   registry schedule's executed time on the chosen network
//!   ([`model::Network`]);
//! - the step ends when compute and communication have both ended;
//!   exposed communication is the step time minus compute ([`run`]);
//! - D-PSGD's neighbour exchange starts with the step and runs beside the
//!   compute; local SGD runs `h` compute steps, then one all-reduce of the
//!   model ([`strategies`]);
//! - a failed rank, checkpoints and restart ([`failure`]);
//! - sharded data parallelism: ZeRO-2 and FSDP (ZeRO-3) on the same
//!   clock, and the memory per rank under DDP and ZeRO stages 1–3
//!   ([`sharded`]).

pub mod buckets;
pub mod count;
pub mod failure;
pub mod model;
pub mod quality;
pub mod report;
pub mod run;
pub mod sharded;
pub mod spans;
pub mod strategies;
pub mod trace;

pub use buckets::{assign, DEFAULT_BUCKET_BYTES, DEFAULT_FIRST_BUCKET_BYTES};
pub use count::{format_count, parse_count, CountError};
pub use model::{Collective, Dtype, Halves, Network, StepError, StepModel, Timed};
pub use run::time_step;
pub use sharded::{memory, Memory};
pub use spans::{BucketSpan, CommKind, ComputeSpan, Sharding, StepOptions, StepRun, Straggler};

#[cfg(test)]
mod tests;
