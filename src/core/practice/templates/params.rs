//! The parameters of one generated question ([`Params`]), one variant per
//! template.

use super::values::*;
use crate::core::practice::compute::{CostAlgorithm, PracticeAllReduce};

/// The parameters of one question.
#[derive(Clone, Debug, PartialEq)]
pub enum Params {
    /// Memory per rank under ZeRO (mixed-precision Adam, K = 12).
    ZeroMemory {
        /// Ψ, parameters.
        psi: u64,
        /// N, ranks.
        n: usize,
        /// The ZeRO stage, 1 to 3.
        stage: u8,
    },
    /// Bytes a rank sends per step, DDP and FSDP (bf16, ring).
    FsdpTraffic {
        /// Ψ, parameters.
        psi: u64,
        /// N, ranks.
        n: usize,
    },
    /// Shard sizes n_k and mean losses L_k.
    Loss {
        /// Samples per shard.
        counts: Vec<i64>,
        /// Mean loss per shard.
        losses: Vec<f64>,
    },
    /// Worker 0's value first, then its neighbours'; gradient and η.
    Dsgd {
        /// Model values, worker 0 first.
        values: Vec<f64>,
        /// Worker 0's gradient.
        g: f64,
        /// Learning rate.
        eta: f64,
    },
    /// Ring ranks.
    RingRounds {
        /// Ranks.
        p: usize,
    },
    /// Ring ranks and tensor size.
    RingBytes {
        /// Ranks.
        p: usize,
        /// Tensor size.
        n: Size,
        /// Also ask how many bytes are added.
        added: bool,
    },
    /// Recursive doubling or Rabenseifner.
    Recursive {
        /// The algorithm.
        alg: PracticeAllReduce,
        /// Ranks (a power of two).
        p: usize,
        /// Tensor size.
        n: Size,
    },
    /// α–β time of one algorithm.
    Time {
        /// The algorithm.
        alg: CostAlgorithm,
        /// Ranks (a power of two).
        p: usize,
        /// Start-up latency.
        alpha: Alpha,
        /// Per-byte cost.
        link: Link,
        /// Message size.
        n: Size,
    },
    /// Crossover of recursive doubling with Rabenseifner (or the ring).
    Crossover {
        /// Against the ring instead of Rabenseifner.
        ring: bool,
        /// Ranks (a power of two).
        p: usize,
        /// Start-up latency.
        alpha: Alpha,
        /// Per-byte cost.
        link: Link,
    },
    /// ρ and rounds to a factor-F reduction.
    Rho {
        /// Graph and weights.
        graph: RhoGraph,
        /// Nodes.
        p: usize,
        /// Reduction factor F.
        factor: u32,
    },
    /// busbw from a measurement.
    Busbw {
        /// Ranks.
        p: usize,
        /// Tensor size.
        n: Size,
        /// Measured time in microseconds.
        t_us: u64,
    },
    /// Ideal multi-lane inter-node time.
    Multilane {
        /// Payload crossing between the nodes.
        payload: Size,
        /// Lanes (NICs), each with bandwidth `link`.
        lanes: usize,
        /// Bandwidth of one lane ([`Link::Bytes`] or [`Link::Bits`]).
        link: Link,
    },
}
