//! Ring all-reduce (`ring`): ring reduce-scatter, then ring all-gather.
//!
//! Closed form: `2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ`, any `p` (Thakur,
//! Rabenseifner & Gropp 2005, §4; Patarasuk & Yuan 2009). The course's
//! example: p = 16, α = 5 µs, β = 0.08 ns/B, 8 KiB gives ≈ 151.2 µs.

use super::ring_all_gather::RingAllGather;
use super::ring_reduce_scatter::RingReduceScatter;
use super::pieces::Split;
use super::{flat_p, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, flat_topo, TopologyInfo};
use crate::core::cost::formulas::Formula;
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{ring, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// Ring all-reduce (ring reduce-scatter + ring all-gather):
/// `T = 2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4 (ring / "reduce-scatter +
/// all-gather"); Patarasuk & Yuan 2009. Course §9: p = 16, α = 5 µs,
/// β = 0.08 ns/B, 8 KiB gives ≈ 151.2 µs.
pub fn ring_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let q = p.max(1);
    let coeffs = [
        Coeff::steps(q).twice(),
        Coeff::share(q).twice(),
        Coeff::share(q),
    ];
    let expression = "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ";
    Terms::any_p("ring all-reduce", expression, coeffs).formula(p, n_bytes, c)
}

/// Ring all-reduce.
pub struct RingAllReduce;

impl CollectiveAlgorithm for RingAllReduce {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "ring",
            label: "ring all-reduce",
            short_label: "ring",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "around the ring"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        ring::ring_all_reduce_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        ring_all_reduce_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, f) = flat_p(topo);
        [2.0 * (q - 1.0), 2.0 * f, f]
    }
    fn flat_rounds(&self, p: usize) -> Rounds {
        // Every message of the closed form is the same share of n.
        uniform_rounds(self.factors(&super::flat(p)))
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        // The ring over all ranks in rank order, crossing node boundaries
        // wherever it does: `flat` in the topology view.
        Some(TopologyInfo {
            key: "flat",
            label: "flat ring over all ranks",
            short_label: "flat ring",
            summary: "the ring all-reduce over all ranks in rank order, crossing node boundaries wherever it does",
            min_racks: 1,
        })
    }
    fn topology_schedule(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        flat_topo::flat_ring_schedule(topo, n, elem)
    }
    fn topology_time(&self, topo: &Topology, n: u64, elem: u64, split: Split) -> Option<f64> {
        flat_topo::topo_time(topo, n, elem, split)
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        if round.phase == Phase::AllGather {
            RingAllGather.describe(round)
        } else {
            RingReduceScatter.describe(round)
        }
    }
}
