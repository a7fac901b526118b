//! Ring all-gather (`ag`): `p − 1` rounds that copy finished chunks around the
//! ring, never adding.
//!
//! Closed form: `(p−1)α + (p−1)/p·nβ` (Thakur, Rabenseifner & Gropp 2005, §3).

use super::{flat_p, CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{formulas, CostParams, Formula};
use crate::core::schedule::{ring, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Ring all-gather on its own.
pub struct RingAllGather;

impl CollectiveAlgorithm for RingAllGather {
    fn key(&self) -> &'static str {
        "ag"
    }
    fn label(&self) -> &'static str {
        "ring all-gather"
    }
    fn short_label(&self) -> &'static str {
        "ring all-gather"
    }
    fn collective(&self) -> CollectiveKind {
        CollectiveKind::AllGather
    }
    fn needs_nodes(&self) -> bool {
        false
    }
    fn folds(&self) -> bool {
        false
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "around the ring"
    }
    fn generate(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        ring::ring_all_gather(topo.p(), n, elem_bytes).map(|s| Schedule {
            algorithm: self.key(),
            ..s
        })
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::ring_all_gather(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, f) = flat_p(topo);
        [q - 1.0, f, 0.0]
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
    }
    fn describe(&self, _round: &RoundFacts<'_>) -> String {
        "each rank passes a finished chunk to its successor, which copies it over its stale copy (no addition)"
            .into()
    }
}
