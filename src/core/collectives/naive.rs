//! Naive root all-reduce (`naive`): every rank sends its whole tensor to root
//! 0, one at a time; the root sends the sum back, one at a time.
//!
//! Closed form: `2(p−1)(α + nβ) + (p−1)·nγ`, any `p`. The course's example:
//! p = 4, 100 MB at 12.5 GB/s, α = 0 gives 48 ms (the ring: 12 ms).

use super::tree::BROADCAST_TEXT;
use super::{flat_p, CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{formulas, CostParams, Formula};
use crate::core::schedule::{naive, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Naive root all-reduce.
pub struct NaiveRoot;

impl CollectiveAlgorithm for NaiveRoot {
    fn key(&self) -> &'static str {
        "naive"
    }
    fn label(&self) -> &'static str {
        "naive root all-reduce"
    }
    fn short_label(&self) -> &'static str {
        "naive root"
    }
    fn collective(&self) -> CollectiveKind {
        CollectiveKind::AllReduce
    }
    fn needs_nodes(&self) -> bool {
        false
    }
    fn folds(&self) -> bool {
        false
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "through root 0"
    }
    fn generate(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        naive::naive_root(topo.p(), n, elem_bytes)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::naive_root_allreduce(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, _) = flat_p(topo);
        [2.0 * (q - 1.0), 2.0 * (q - 1.0), q - 1.0]
    }
    fn equal_parts(&self, _topo: &Topology) -> usize {
        1
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
