//! Ring reduce-scatter (`rs`): `p − 1` rounds; in round `k` rank `r` sends
//! chunk `(r − k) mod p` to its successor, which adds it.
//!
//! Closed form: `(p−1)α + (p−1)/p·nβ + (p−1)/p·nγ` (Thakur, Rabenseifner &
//! Gropp 2005, §4).

use super::pieces::Split;
use super::{flat_p, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::Formula;
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{ring, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// Ring reduce-scatter of an `n`-byte tensor: `(p−1)α + (p−1)/p·nβ + (p−1)/p·nγ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.
pub fn ring_reduce_scatter_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let q = p.max(1);
    let coeffs = [Coeff::steps(q), Coeff::share(q), Coeff::share(q)];
    let expression = "(p−1)α + (p−1)/p·nβ + (p−1)/p·nγ";
    Terms::any_p("ring reduce-scatter", expression, coeffs).formula(p, n_bytes, c)
}

/// Ring reduce-scatter on its own.
pub struct RingReduceScatter;

impl CollectiveAlgorithm for RingReduceScatter {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "rs",
            label: "ring reduce-scatter",
            short_label: "ring reduce-scatter",
            collective: CollectiveKind::ReduceScatter,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "around the ring"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        ring::ring_reduce_scatter_schedule(topo.p(), n, elem).map(|s| Schedule {
            ..s
        })
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        ring_reduce_scatter_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (q, f) = flat_p(topo);
        [q - 1.0, f, f]
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
        "each rank sends one chunk to its successor, which adds it to its own copy of that chunk"
            .into()
    }
}
