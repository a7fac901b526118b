//! Ring reduce-scatter (`rs`): `p − 1` rounds; in round `k` rank `r` sends
//! chunk `(r − k) mod p` to its successor, which adds it.
//!
//! Closed form: `(p−1)α + (p−1)/p·nβ + (p−1)/p·nγ` (Thakur, Rabenseifner &
//! Gropp 2005, §4).

use super::{flat_p, CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{formulas, CostParams, Formula};
use crate::core::schedule::{ring, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Ring reduce-scatter on its own.
pub struct RingReduceScatter;

impl CollectiveAlgorithm for RingReduceScatter {
    fn key(&self) -> &'static str {
        "rs"
    }
    fn label(&self) -> &'static str {
        "ring reduce-scatter"
    }
    fn short_label(&self) -> &'static str {
        "ring reduce-scatter"
    }
    fn collective(&self) -> CollectiveKind {
        CollectiveKind::ReduceScatter
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
        ring::ring_reduce_scatter(topo.p(), n, elem_bytes).map(|s| Schedule {
            algorithm: self.key(),
            ..s
        })
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::ring_reduce_scatter(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, f) = flat_p(topo);
        [q - 1.0, f, f]
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
    }
    fn describe(&self, _round: &RoundFacts<'_>) -> String {
        "each rank sends one chunk to its successor, which adds it to its own copy of that chunk"
            .into()
    }
}
