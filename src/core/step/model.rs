//! The model of one data-parallel step: layers, gradient type, compute
//! times, and the network the gradients' all-reduces run on.

use std::fmt;

use crate::core::collectives::Algorithm;
use crate::core::schedule::Op;
use crate::core::schedule::{Computation, Phase, Round, Schedule, ScheduleError, Transfer};
use crate::core::timing::lockstep::executed_time_on;
use crate::core::topology::Topology;

/// The gradient type: bytes per element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dtype {
    /// 32-bit float, 4 bytes.
    #[default]
    Fp32,
    /// bfloat16, 2 bytes.
    Bf16,
    /// IEEE half, 2 bytes.
    Fp16,
}

impl Dtype {
    /// Every type, in menu order.
    pub const ALL: [Dtype; 3] = [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16];

    /// Bytes per element: 4, 2, 2.
    pub fn bytes(self) -> u64 {
        match self {
            Dtype::Fp32 => 4,
            Dtype::Bf16 | Dtype::Fp16 => 2,
        }
    }

    /// URL value: `fp32`, `bf16`, `fp16`.
    pub fn key(self) -> &'static str {
        match self {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
        }
    }

    /// Parses a URL value (case-insensitive; `float32`, `half` also).
    pub fn parse(s: &str) -> Option<Dtype> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fp32" | "float32" | "f32" => Some(Dtype::Fp32),
            "bf16" | "bfloat16" => Some(Dtype::Bf16),
            "fp16" | "float16" | "f16" | "half" => Some(Dtype::Fp16),
            _ => None,
        }
    }
}

/// Layers in forward order with their parameter counts, the gradient type,
/// the forward time and each layer's backward time.
#[derive(Clone, Debug, PartialEq)]
pub struct StepModel {
    /// Parameters per layer, forward order (layer 1 first).
    pub params: Vec<u64>,
    /// Gradient type.
    pub dtype: Dtype,
    /// Forward time of the whole model, seconds.
    pub fwd: f64,
    /// Backward time of each layer, seconds, forward order (same length as
    /// `params`).
    pub bwd: Vec<f64>,
}

impl StepModel {
    /// Number of layers L.
    pub fn layers(&self) -> usize {
        self.params.len()
    }

    /// Gradient bytes of layer `i` (0-based, forward order): parameters ×
    /// dtype bytes.
    pub fn grad_bytes(&self, i: usize) -> u64 {
        self.params.get(i).copied().unwrap_or(0) * self.dtype.bytes()
    }

    /// Bytes of the whole model's gradients (= the model's bytes in this dtype).
    pub fn model_bytes(&self) -> u64 {
        self.params.iter().sum::<u64>() * self.dtype.bytes()
    }

    /// Total parameters.
    pub fn total_params(&self) -> u64 {
        self.params.iter().sum()
    }

    /// Compute time of one step at `speed` × speed (1 = nominal; 0.5 takes
    /// twice as long): (fwd + Σ bwd) / speed, seconds.
    pub fn compute_time(&self, speed: f64) -> f64 {
        (self.fwd + self.bwd.iter().sum::<f64>()) / speed
    }

    /// When each layer's gradient is ready, seconds from the step's start,
    /// indexed in forward order: the backward pass runs from layer L down to
    /// layer 1, so layer L is ready at (fwd + bwd_L)/speed, layer L − 1 at
    /// (fwd + bwd_L + bwd_{L−1})/speed, and so on.
    pub fn ready_times(&self, speed: f64) -> Vec<f64> {
        let mut out = vec![0.0; self.layers()];
        let mut t = self.fwd;
        for i in (0..self.layers()).rev() {
            t += self.bwd[i];
            out[i] = t / speed;
        }
        out
    }
}

/// Why a step cannot be timed.
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    /// The schedule generator refused (e.g. p < 2).
    Schedule(ScheduleError),
    /// The model has no layers, or `bwd` does not have one time per layer.
    Model(String),
    /// ZeRO-2 or FSDP asked of an all-reduce (its `alg` key) that is not a
    /// reduce-scatter followed by an all-gather ([`Halves::of`]).
    NoHalves(&'static str),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Schedule(e) => e.fmt(f),
            StepError::Model(m) => f.write_str(m),
            StepError::NoHalves(k) => write!(
                f,
                "alg={k} is not a reduce-scatter followed by an all-gather, so ZeRO-2 and FSDP \
                 cannot run on it: choose alg=ring (ring reduce-scatter and all-gather) or alg=rab \
                 (recursive halving reduce-scatter and recursive doubling all-gather)"
            ),
        }
    }
}

impl std::error::Error for StepError {}

impl From<ScheduleError> for StepError {
    fn from(e: ScheduleError) -> Self {
        StepError::Schedule(e)
    }
}

/// A collective the step runs: a bucket's all-reduce, or one of the two
/// halves of an all-reduce that the sharded modes run apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    /// The all-reduce of `alg`.
    AllReduce,
    /// The reduce-scatter half of `alg` ([`Halves`]).
    ReduceScatter,
    /// The all-gather half of `alg` ([`Halves`]).
    AllGather,
}

/// One collective on the network: its executed time and what the busiest
/// rank sends in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timed {
    /// The executed time, seconds.
    pub time: f64,
    /// Bytes the busiest rank sends (the executed schedule's count).
    pub sent: u64,
}

/// The reduce-scatter and the all-gather that make up an all-reduce, as
/// the sharded modes run them apart (ZeRO-2, FSDP: Rajbhandari et al.
/// 2020, §7.2; the seed's "reduce-scatter + all-gather = all-reduce").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halves {
    /// The ring all-reduce's two phases: the registry's ring reduce-scatter
    /// (`rs`) and ring all-gather (`ag`); (p − 1)/p · n bytes sent per rank
    /// in each (Thakur, Rabenseifner & Gropp 2005, §4).
    Ring,
    /// Rabenseifner's two halves: the registry's recursive halving
    /// reduce-scatter (`rh`) and the recursive doubling all-gather that
    /// Rabenseifner's schedule ends with
    /// ([`crate::core::schedule::recursive::recursive_doubling_all_gather_schedule`]);
    /// both fold when p is not a power of two (Thakur, Rabenseifner & Gropp
    /// 2005, §4.3–4.4).
    Recursive,
}

impl Halves {
    /// The halves of the all-reduce `alg`; `None` for an all-reduce that is
    /// not a reduce-scatter followed by an all-gather (trees, recursive
    /// doubling, naive root). The one place the step model reads the
    /// registry handle of `alg`.
    pub fn of(alg: Algorithm) -> Option<Halves> {
        if alg == Algorithm::RING {
            Some(Halves::Ring)
        } else if alg == Algorithm::RAB {
            Some(Halves::Recursive)
        } else {
            None
        }
    }

    /// The two collectives' names, e.g. "ring reduce-scatter (rs) and ring
    /// all-gather (ag)".
    pub fn names(self) -> &'static str {
        match self {
            Halves::Ring => "ring reduce-scatter (rs) and ring all-gather (ag)",
            Halves::Recursive => {
                "recursive halving reduce-scatter (rh) and recursive doubling all-gather"
            }
        }
    }

    /// The schedule of one half for `n` elements of `elem_bytes` bytes on
    /// `topo`: the schedule functions the registry's `rs`, `ag` and `rh`
    /// entries generate with, and the recursive doubling all-gather of
    /// Rabenseifner's schedule.
    fn generate(
        self,
        gather: bool,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        use crate::core::schedule::{recursive, ring};
        let p = topo.p();
        match (self, gather) {
            (Halves::Ring, false) => ring::ring_reduce_scatter_schedule(p, n, elem_bytes),
            (Halves::Ring, true) => ring::ring_all_gather_schedule(p, n, elem_bytes),
            (Halves::Recursive, false) => {
                recursive::recursive_halving_reduce_scatter_schedule(p, n, elem_bytes)
            }
            (Halves::Recursive, true) => {
                recursive::recursive_doubling_all_gather_schedule(p, n, elem_bytes)
            }
        }
    }
}

/// The network the all-reduces run on: a flat all-reduce of the registry
/// ([`Algorithm::is_flat_all_reduce`]; its schedules come from
/// [`Algorithm::generate_flat_all_reduce`], so the page links only those
/// entries' generators), a topology and γ (seconds per reduced
/// byte). Times are the registry schedule's executed time
/// ([`executed_time_on`]: each round lasts as long as its slowest message,
/// α + bytes sharing a port × β), memoised by bytes.
#[derive(Clone, Debug)]
pub struct Network {
    /// The all-reduce algorithm.
    pub alg: Algorithm,
    /// The ranks and their links.
    pub topo: Topology,
    /// Reduction cost, seconds per byte.
    pub gamma: f64,
    /// `((collective, bytes, elem_bytes), timed)` so far: a step has at
    /// most a few distinct sizes per collective, so a list is enough (and
    /// links no map).
    times: Vec<((Collective, u64, u64), Timed)>,
}

impl Network {
    /// A network for `alg` on `topo`.
    pub fn new(alg: Algorithm, topo: Topology, gamma: f64) -> Network {
        Network {
            alg,
            topo,
            gamma,
            times: Vec::new(),
        }
    }

    /// The ring all-reduce (and its halves, the ring reduce-scatter and
    /// all-gather) on `topo`, γ = 0.
    pub fn ring(topo: Topology) -> Network {
        Network::new(Algorithm::RING, topo, 0.0)
    }

    /// Ranks.
    pub fn p(&self) -> usize {
        self.topo.p()
    }

    /// Executed time of one all-reduce of `bytes` bytes of `elem_bytes`-byte
    /// elements, seconds: the registry's schedule for `bytes / elem_bytes`
    /// elements on this topology, timed lock-step.
    ///
    /// # Errors
    /// [`StepError::Schedule`] when the generator refuses.
    pub fn allreduce(&mut self, bytes: u64, elem_bytes: u64) -> Result<f64, StepError> {
        Ok(self.run(Collective::AllReduce, bytes, elem_bytes)?.time)
    }

    /// One collective `c` of `bytes` bytes of `elem_bytes`-byte elements:
    /// the registry's schedule for `bytes / elem_bytes` elements on this
    /// topology (for a half, [`Halves::of`] the algorithm), its executed
    /// time (lock-step) and the busiest rank's bytes sent.
    ///
    /// # Errors
    /// [`StepError::Schedule`] when the generator refuses;
    /// [`StepError::NoHalves`] for a half of an all-reduce that has none.
    pub fn run(&mut self, c: Collective, bytes: u64, elem_bytes: u64) -> Result<Timed, StepError> {
        let key = (c, bytes, elem_bytes);
        if let Some(&(_, t)) = self.times.iter().find(|(k, _)| *k == key) {
            return Ok(t);
        }
        let n = bytes / elem_bytes.max(1);
        let s = match c {
            Collective::AllReduce => self
                .alg
                .generate_flat_all_reduce(&self.topo, n, elem_bytes)?,
            _ => Halves::of(self.alg)
                .ok_or(StepError::NoHalves(self.alg.key()))?
                .generate(c == Collective::AllGather, &self.topo, n, elem_bytes)?,
        };
        let t = Timed {
            time: executed_time_on(&s, &self.topo, self.gamma),
            sent: s.bytes_sent_per_rank().into_iter().max().unwrap_or(0),
        };
        self.times.push((key, t));
        Ok(t)
    }

    /// The halves of this network's all-reduce ([`Halves::of`]).
    pub fn halves(&self) -> Option<Halves> {
        Halves::of(self.alg)
    }

    /// Executed time of one D-PSGD neighbour exchange: one round in which
    /// every rank sends its whole model (`bytes`) to each rank that reads it
    /// (`readers[k]` lists the ranks that receive rank k's model), timed on
    /// the same engine, so a rank's copies share its egress port.
    ///
    /// # Errors
    /// [`StepError::Schedule`] when `bytes` is 0 or there are fewer than 2 ranks.
    pub fn exchange(
        &self,
        readers: &[Vec<usize>],
        bytes: u64,
        elem_bytes: u64,
    ) -> Result<f64, StepError> {
        let s = exchange_schedule(readers, bytes / elem_bytes.max(1), elem_bytes)?;
        Ok(executed_time_on(&s, &self.topo, self.gamma))
    }
}

/// The neighbour exchange as a one-round [`Schedule`]: rank k copies its
/// `n` elements to every rank in `readers[k]`. Its `collective` field is a
/// placeholder (a gossip round is not verified as a collective; only its
/// time is read).
///
/// # Errors
/// [`ScheduleError`] when there are fewer than 2 ranks, `n == 0` or
/// `elem_bytes == 0`.
pub fn exchange_schedule(
    readers: &[Vec<usize>],
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    crate::core::schedule::check_args(readers.len(), n, elem_bytes)?;
    let transfers = readers
        .iter()
        .enumerate()
        .flat_map(|(k, rs)| {
            rs.iter().filter(move |&&j| j != k).map(move |&j| Transfer {
                src: k,
                dst: j,
                range: 0..n,
                op: Op::Copy,
                chunk: None,
            })
        })
        .collect();
    Ok(Schedule {
        p: readers.len(),
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds: vec![Round {
            phase: Phase::Exchange,
            note: "every rank sends its model to its neighbours".into(),
            transfers,
        }],
    })
}
