//! The one door from practice mode into the rest of the core.
//!
//! Every number a practice question expects is computed here by the same
//! functions the other views use: rounds and byte counts from schedules that
//! are generated and **executed** on per-rank buffers
//! ([`crate::core::schedule`], [`crate::core::execute`]), α–β times and
//! crossovers from the closed forms of [`crate::core::cost`], ρ from
//! [`crate::core::consensus`], and the sample-weighted loss from
//! [`crate::core::sgd`]. Keeping all of these calls in one file keeps the
//! rest of `practice` independent of where those functions live.

use crate::core::collectives::compare;
use crate::core::collectives::{self, Algorithm};
use crate::core::consensus::{self, Graph};
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::{nccl_bandwidths, NcclBandwidths};
use crate::core::cost::CostParams;
use crate::core::execute::{default_init, execute_owned, ExecOptions};
use crate::core::schedule::Op;
use crate::core::sgd;
use crate::core::step::{self, Dtype, Network, Sharding, StepModel};
use crate::core::topology::Topology;
use crate::core::topology_view;

pub use crate::core::consensus::{GraphKind, WeightRule};
pub use crate::core::cost::formulas::{ceil_log2, floor_log2};
pub use crate::core::sgd::rng::SplitMix64;
pub use crate::core::step::{format_count, Memory};
pub use crate::core::topology_view::LaneService;

/// The all-reduce schedules practice questions count rounds and bytes of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PracticeAllReduce {
    /// Ring reduce-scatter + ring all-gather.
    Ring,
    /// Recursive doubling (full-buffer exchanges).
    RecursiveDoubling,
    /// Rabenseifner: recursive halving + recursive doubling all-gather.
    Rabenseifner,
}

impl PracticeAllReduce {
    fn schedule(self) -> Algorithm {
        match self {
            PracticeAllReduce::Ring => Algorithm::RING,
            PracticeAllReduce::RecursiveDoubling => Algorithm::RD,
            PracticeAllReduce::Rabenseifner => Algorithm::RAB,
        }
    }

    /// The `alg` value of the collectives view: `ring`, `rd`, `rab`.
    pub fn key(self) -> &'static str {
        self.schedule().key()
    }

    /// Display name, e.g. "Rabenseifner's algorithm".
    pub fn label(self) -> &'static str {
        match self {
            PracticeAllReduce::Ring => "ring all-reduce",
            PracticeAllReduce::RecursiveDoubling => "recursive doubling",
            PracticeAllReduce::Rabenseifner => "Rabenseifner's algorithm",
        }
    }
}

/// The all-reduce algorithms whose α–β times practice questions ask about:
/// the flat all-reduces of the cost model, named so that a question can
/// `match` on them. Each maps to its registry entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CostAlgorithm {
    /// Ring all-reduce.
    Ring,
    /// Binomial tree reduce + broadcast.
    Tree,
    /// Recursive doubling.
    RecursiveDoubling,
    /// Rabenseifner.
    Rabenseifner,
    /// Naive root.
    NaiveRoot,
}

impl CostAlgorithm {
    /// The registry entry.
    pub fn algorithm(self) -> Algorithm {
        match self {
            CostAlgorithm::Ring => Algorithm::RING,
            CostAlgorithm::Tree => Algorithm::TREE,
            CostAlgorithm::RecursiveDoubling => Algorithm::RD,
            CostAlgorithm::Rabenseifner => Algorithm::RAB,
            CostAlgorithm::NaiveRoot => Algorithm::NAIVE,
        }
    }

    /// Short name, e.g. "ring" (the cost model's label).
    pub fn short_label(self) -> &'static str {
        self.algorithm().short_label()
    }

    /// The `alg` URL value, e.g. "rab".
    pub fn key(self) -> &'static str {
        self.algorithm().key()
    }
}

/// What an executed all-reduce did, counted from its transfers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Executed {
    /// Sequential rounds.
    pub rounds: usize,
    /// Largest number of bytes one rank sent.
    pub sent: u64,
    /// Largest number of bytes one rank received.
    pub received: u64,
    /// Largest number of bytes one rank received *and added* (reduce transfers).
    pub reduced: u64,
    /// True when the final buffers matched the element-wise sum.
    pub verified: bool,
}

/// Generates and executes `alg` on `p` ranks for an `n_bytes`-byte tensor
/// (1-byte elements, so every count is in bytes). `None` when the schedule
/// cannot be built (`p < 2`, `n_bytes = 0`).
pub fn execute_collective(alg: PracticeAllReduce, p: usize, n_bytes: u64) -> Option<Executed> {
    let schedule = alg
        .schedule()
        .generate_flat_all_reduce(&collectives::flat(p), n_bytes, 1)
        .ok()?;
    let mut reduced = vec![0u64; p];
    for t in schedule.rounds.iter().flat_map(|r| &r.transfers) {
        if t.op == Op::Reduce {
            if let Some(r) = reduced.get_mut(t.dst) {
                *r += t.len();
            }
        }
    }
    let rounds = schedule.num_rounds();
    let trace = execute_owned(schedule, &default_init, ExecOptions { keep_states: false }).ok()?;
    let sent = trace.sent_after(rounds).into_iter().max().unwrap_or(0);
    let received = trace.recv_after(rounds).into_iter().max().unwrap_or(0);
    Some(Executed {
        rounds,
        sent,
        received,
        reduced: reduced.into_iter().max().unwrap_or(0),
        verified: trace.verification.ok(),
    })
}

/// The sample-weighted objective of a shard table (course §1).
pub use crate::core::sgd::Objective;

/// Rounds of the schedule `alg` generates for `p` ranks (a round count does
/// not depend on the tensor size, so a tiny tensor is scheduled). `None`
/// for `p < 2`.
pub fn schedule_rounds(alg: PracticeAllReduce, p: usize) -> Option<usize> {
    alg.schedule()
        .generate_flat_all_reduce(&collectives::flat(p), p as u64, 1)
        .ok()
        .map(|s| s.num_rounds())
}

/// The full-data mean loss Σ (n_k/N) L_k, the weights n_k/N, and the plain
/// mean (1/m) Σ L_k (course §1), from [`sgd::objective()`]. `None` for an
/// invalid table.
pub fn weighted_loss(counts: &[i64], losses: &[f64]) -> Option<Objective> {
    sgd::objective(counts, losses).ok()
}

/// One D-SGD step of node 0 whose neighbours hold `values[1..]`, all with
/// equal weights 1/len (a complete graph with uniform weights), gradient `g`
/// at node 0 only and learning rate `eta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DsgdNumbers {
    /// Σ_j W_0j x_j.
    pub mixed: f64,
    /// The course's convention: mix, then subtract η g.
    pub updated: f64,
    /// The other order: x_0 − η g first, then mix.
    pub step_then_mix: f64,
    /// No mixing: x_0 − η g.
    pub local_only: f64,
}

/// Computes [`DsgdNumbers`] with [`consensus::dsgd_step`] (D-PSGD, Lian et
/// al. 2017). `None` for fewer than 2 values or a non-finite η.
pub fn dsgd(values: &[f64], g: f64, eta: f64) -> Option<DsgdNumbers> {
    let graph = Graph::new(GraphKind::Complete, values.len(), 0).ok()?;
    let w = consensus::mixing_matrix(&graph, WeightRule::Uniform).ok()?;
    let mut grads = vec![0.0; values.len()];
    *grads.first_mut()? = g;
    let step = consensus::dsgd_step(&w, values, &grads, eta).ok()?;
    Some(DsgdNumbers {
        mixed: *step.mixed.first()?,
        updated: *step.mix_then_step.first()?,
        step_then_mix: *step.step_then_mix.first()?,
        local_only: *step.local_only.first()?,
    })
}

/// ρ of the mixing matrix of `kind` on `p` nodes with weight rule `rule`
/// (Xiao & Boyd 2004), from [`consensus::spectrum`].
pub fn rho(kind: GraphKind, p: usize, rule: WeightRule) -> Option<f64> {
    let graph = Graph::new(kind, p, 0).ok()?;
    let w = consensus::mixing_matrix(&graph, rule).ok()?;
    consensus::spectrum(&graph, &w).ok().map(|s| s.rho)
}

/// ⌈ln F / ln(1/ρ)⌉ rounds for an F-fold reduction of the disagreement.
pub fn rounds_to(rho: f64, factor: f64) -> Option<usize> {
    consensus::predicted_rounds(rho, factor)
}

/// The closed-form α–β all-reduce time of `alg` (Thakur, Rabenseifner &
/// Gropp 2005), with the substitution written out.
pub fn time(alg: CostAlgorithm, p: usize, n_bytes: f64, alpha: f64, beta: f64) -> Formula {
    alg.algorithm()
        .cost(p, n_bytes, CostParams::new(alpha, beta))
}

/// The break-even size (bytes) of `a` and `b` and its written-out
/// calculation, or `None` when they never cross.
pub fn crossover(
    a: CostAlgorithm,
    b: CostAlgorithm,
    p: usize,
    alpha: f64,
    beta: f64,
) -> Option<(f64, Vec<String>)> {
    let c = CostParams::new(alpha, beta);
    let (a, b) = (a.algorithm(), b.algorithm());
    let x = compare::crossover(a, b, p, c)?;
    let lines = compare::crossover_calculation(a, b, p, c)?;
    Some((x.n_bytes, lines))
}

/// `[startups, byte_factor]` of `alg` at `p` ranks.
pub fn factors(alg: CostAlgorithm, p: usize) -> (f64, f64) {
    let [a, b, _] = alg.algorithm().flat_factors(p).unwrap_or_default();
    (a, b)
}

/// algbw and busbw (bytes per second) of an all-reduce of `size` bytes in
/// `t` seconds on `p` ranks (nccl-tests, doc/PERFORMANCE.md), with the lines.
pub fn nccl(size: f64, t: f64, p: usize) -> NcclBandwidths {
    nccl_bandwidths(size, t, p)
}

/// The ideal multi-lane inter-node service time (the course's §10): a
/// `payload_bytes`-byte payload split over `lanes` lanes of `lane_bw`
/// bytes/s each, from [`multilane_service_time`](crate::core::topology_view::multilane_service_time). `None` for
/// `lanes = 0`, a negative payload or a bandwidth ≤ 0.
pub fn multilane(payload_bytes: f64, lanes: usize, lane_bw: f64) -> Option<LaneService> {
    topology_view::multilane_service_time(payload_bytes, lanes, lane_bw).ok()
}

/// Memory per rank for model states under DDP and ZeRO-1, -2, -3 with
/// mixed-precision Adam ([`step::memory`]; Rajbhandari et al. 2020, §3):
/// `psi` parameters on `n` ranks, `k` bytes of optimizer state each.
pub fn zero_memory(psi: u64, n: usize, k: f64) -> Memory {
    step::memory(psi, psi, n, k)
}

/// Bytes the busiest rank sends in one step, per mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traffic {
    /// DDP: the gradients' all-reduce.
    pub ddp: u64,
    /// ZeRO-2: their reduce-scatter and the parameters' all-gather.
    pub zero2: u64,
    /// FSDP: two all-gathers and a reduce-scatter.
    pub fsdp: u64,
}

/// [`Traffic`] of a model of `psi` bf16 parameters (one layer, one FSDP
/// unit) on `p` ranks with the ring collectives: the training step's own
/// clock ([`step::time_step`]) counting its executed schedules. `None` when
/// a schedule cannot be built (`p < 2`, `psi = 0`).
pub fn sharded_traffic(p: usize, psi: u64) -> Option<Traffic> {
    let model = StepModel {
        params: vec![psi],
        dtype: Dtype::Bf16,
        fwd: 0.0,
        bwd: vec![0.0],
    };
    // (only bytes are read; the link is a placeholder)
    let mut net = Network::ring(Topology::flat(p, 0.0, 1e-9));
    let mut sent = |sharding| {
        let opts = step::StepOptions {
            sharding,
            ..step::strategies::default_options()
        };
        step::time_step(&model, &mut net, &opts)
            .ok()
            .map(|r| r.bytes_sent)
    };
    Some(Traffic {
        ddp: sent(Sharding::Ddp)?,
        zero2: sent(Sharding::Zero2)?,
        fsdp: sent(Sharding::Fsdp)?,
    })
}
