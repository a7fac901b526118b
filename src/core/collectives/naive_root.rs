//! Naive root all-reduce (`naive`): every rank sends its whole tensor to root
//! 0, one at a time; the root sends the sum back, one at a time.
//!
//! The root handles one full tensor at a time, so each of the `2(p − 1)`
//! messages is its own round.
//!
//! Closed form: `2(p−1)(α + nβ) + (p−1)·nγ`, any `p`. The course's example:
//! p = 4, 100 MB at 12.5 GB/s, α = 0 gives 6 × 8 ms = 48 ms (the ring: 12 ms).

use super::binomial_tree::BROADCAST_TEXT;
use super::pieces::Split;
use super::{flat_p, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::Formula;
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{
    check_args, Computation, Op, Phase, Round, Schedule, ScheduleError, Transfer,
};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// Naive root all-reduce at root 0, serialised at the root: `p − 1` reduce
/// rounds (rank `r` → 0) then `p − 1` broadcast rounds (0 → rank `r`).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn naive_root_schedule(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let one = |src: usize, dst: usize, op: Op, phase: Phase, note: String| Round {
        phase,
        note,
        transfers: vec![Transfer {
            src,
            dst,
            range: 0..n,
            op,
            chunk: None,
        }],
    };
    let mut rounds = Vec::with_capacity(2 * (p - 1));
    for r in 1..p {
        rounds.push(one(
            r,
            0,
            Op::Reduce,
            Phase::Reduce,
            format!("rank {r} → root 0"),
        ));
    }
    for r in 1..p {
        rounds.push(one(
            0,
            r,
            Op::Copy,
            Phase::Broadcast,
            format!("root 0 → rank {r}"),
        ));
    }
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds,
    })
}

/// Naive root all-reduce, serialised at the root: `p − 1` full tensors in,
/// one at a time, then `p − 1` full tensors out:
/// `T = 2(p−1)(α + nβ) + (p−1)·nγ`, any `p`.
///
/// Course §6: p = 4, 100 MB at 12.5 GB/s, α = 0 gives 48 ms (the ring: 12 ms).
pub fn naive_root_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let q = p.max(1);
    let coeffs = [
        Coeff::steps(q).twice(),
        Coeff::steps(q).twice(),
        Coeff::steps(q),
    ];
    let expression = "2(p−1)(α + nβ) + (p−1)·nγ";
    Terms::any_p("naive root all-reduce", expression, coeffs).formula(p, n_bytes, c)
}

/// Naive root all-reduce.
pub struct NaiveRoot;

impl CollectiveAlgorithm for NaiveRoot {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "naive",
            label: "naive root all-reduce",
            short_label: "naive root",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "through root 0"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        naive_root_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        naive_root_all_reduce_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, _) = flat_p(topo);
        [2.0 * (q - 1.0), 2.0 * (q - 1.0), q - 1.0]
    }
    fn flat_rounds(&self, p: usize) -> Rounds {
        // Every message of the closed form is the same share of n.
        uniform_rounds(self.factors(&super::flat(p)))
    }
    fn equal_parts(&self, _topo: &Topology) -> usize {
        1
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        None
    }
    fn topology_schedule(&self, _: &Topology, _: u64, _: u64) -> Result<Schedule, ScheduleError> {
        Err(not_on_topology(self.descriptor().key))
    }
    fn topology_time(&self, _: &Topology, _: u64, _: u64, _: Split) -> Option<f64> {
        None
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        if round.phase == Phase::Broadcast {
            BROADCAST_TEXT.into()
        } else {
            "one rank sends its whole tensor to root 0, which adds it; the root can take only one tensor at a time"
                .into()
        }
    }
}
