//! Ring all-gather (`ag`): `p − 1` rounds that copy finished chunks around the
//! ring, never adding.
//!
//! Closed form: `(p−1)α + (p−1)/p·nβ` (Thakur, Rabenseifner & Gropp 2005, §3).

use super::pieces::Split;
use super::{flat_p, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::Formula;
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{ring, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// Ring all-gather producing an `n`-byte tensor: `(p−1)α + (p−1)/p·nβ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (ring allgather).
pub fn ring_all_gather_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let q = p.max(1);
    let coeffs = [Coeff::steps(q), Coeff::share(q), Coeff::zero()];
    Terms::any_p("ring all-gather", "(p−1)α + (p−1)/p·nβ", coeffs).formula(p, n_bytes, c)
}

/// Ring all-gather on its own.
pub struct RingAllGather;

impl CollectiveAlgorithm for RingAllGather {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "ag",
            label: "ring all-gather",
            short_label: "ring all-gather",
            collective: CollectiveKind::AllGather,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "around the ring"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        ring::ring_all_gather_schedule(topo.p(), n, elem).map(|s| Schedule {
            ..s
        })
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        ring_all_gather_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, f) = flat_p(topo);
        [q - 1.0, f, 0.0]
    }
    fn flat_rounds(&self, p: usize) -> Rounds {
        // Every message of the closed form is the same share of n.
        uniform_rounds(self.factors(&super::flat(p)))
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
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
    fn describe(&self, _round: &RoundFacts<'_>) -> String {
        "each rank passes a finished chunk to its successor, which copies it over its stale copy (no addition)"
            .into()
    }
}
