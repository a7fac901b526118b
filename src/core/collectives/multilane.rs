//! `multilane`: multi-lane hierarchical all-reduce (the course's §10
//! "multi-lane version": reduce-scatter locally, exchange separate slices
//! across nodes, all-gather locally).
//!
//! On `N` equal nodes of `G` ranks:
//! 1. **intra-node reduce-scatter**: a ring inside every node; local rank
//!    `g` ends with the node's sum on slice `g` (`n/G` elements);
//! 2. **inter-node all-reduce of each slice**: the `N` ranks with local
//!    index `g` (one per node) run a ring all-reduce of slice `g`, over NIC
//!    `g mod lanes`; all `G` rings run at the same time;
//! 3. **intra-node all-gather**: a ring inside every node.

use super::pieces::flat_formula;
use super::pieces::{
    all_reduce, ceil_div, equal_nodes, ring_all_gather, ring_reduce_scatter, rounds, side_by_side,
    sub_range, Split,
};
use super::{factors_of, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo};
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{check_args, Phase, Schedule, ScheduleError};
use crate::core::topology::{LinkClass, Topology};
use crate::core::cost::protocol::Rounds;

/// Level text of the intra-node reduce-scatter rounds.
pub const INTRA_RS: &str = "intra-node reduce-scatter";
/// Level text of the inter-node reduce-scatter rounds.
pub const INTER_RS: &str = "inter-node reduce-scatter of each GPU's slice, every NIC lane at once";
/// Level text of the inter-node all-gather rounds.
pub const INTER_AG: &str = "inter-node all-gather of each GPU's slice, every NIC lane at once";
/// Level text of the intra-node all-gather rounds.
pub const INTRA_AG: &str = "intra-node all-gather";

/// The multi-lane all-reduce on `topo` (a flat topology counts as `p`
/// nodes of one rank, where this is the ring all-reduce).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0`, `elem_bytes == 0`, or
/// [`ScheduleError::Shape`] when the nodes are not all the same size.
pub fn multilane_schedule(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    let p = topo.p();
    check_args(p, n, elem_bytes)?;
    if !topo.equal_nodes() {
        return Err(ScheduleError::Shape(
            "multi-lane all-reduce needs nodes of equal size (one slice per local rank)".into(),
        ));
    }
    let nodes = topo.nodes();
    let g = p / nodes.max(1);
    let whole = 0..n;
    let slice = |i: usize| sub_range(&whole, g, i);
    let node_members = |j: usize| -> Vec<usize> { topo.node_ranks(j).collect() };
    let slices: Vec<Vec<_>> = (0..g).map(|i| vec![slice(i)]).collect();
    let intra_rs = side_by_side(
        (0..nodes)
            .map(|j| ring_reduce_scatter(&node_members(j), &slices))
            .collect(),
    );
    let intra_ag = side_by_side(
        (0..nodes)
            .map(|j| ring_all_gather(&node_members(j), &slices))
            .collect(),
    );
    let lane_members = |i: usize| -> Vec<usize> { (0..nodes).map(|j| j * g + i).collect() };
    let sub = |i: usize| -> Vec<Vec<_>> {
        (0..nodes)
            .map(|j| vec![sub_range(&slice(i), nodes, j)])
            .collect()
    };
    let inter_rs = side_by_side(
        (0..g)
            .map(|i| ring_reduce_scatter(&lane_members(i), &sub(i)))
            .collect(),
    );
    let inter_ag = side_by_side(
        (0..g)
            .map(|i| ring_all_gather(&lane_members(i), &sub(i)))
            .collect(),
    );
    let mut all = rounds(intra_rs, Phase::ReduceScatter, INTRA_RS);
    all.extend(rounds(inter_rs, Phase::ReduceScatter, INTER_RS));
    all.extend(rounds(inter_ag, Phase::AllGather, INTER_AG));
    all.extend(rounds(intra_ag, Phase::AllGather, INTRA_AG));
    Ok(all_reduce(p, n, elem_bytes, all))
}

/// Closed form of [`multilane_schedule`], seconds (exact when `G·N` divides `n`):
///
/// `T = 2(G − 1)(α_intra + (n/G)·β_intra) + 2(N − 1)(α_inter + (n/(G·N))·max(⌈G/L⌉·β_inter, G·β_core))`
///
/// with bytes for `n` (`n·elem_bytes`), `L` NICs per node, and `β_core`
/// only with ≥ 2 racks (every local rank's ring crosses the rack boundary
/// at the same place, so `G` messages share a rack's core uplink). The
/// inter-node rings are ring all-reduces (Patarasuk & Yuan 2009) of `n/G`
/// each, `⌈G/L⌉` of them through the busiest NIC. `None` for unequal nodes.
///
/// With [`Split::EXACT`] this is the closed form; with [`Split::FLOOR`]
/// (every piece rounded down) a lower bound on the executed time.
pub fn topo_time(topo: &Topology, n: u64, elem_bytes: u64, s: Split) -> Option<f64> {
    let (nodes, g) = equal_nodes(topo, n, elem_bytes)?;
    let eb = elem_bytes as f64;
    let intra = topo.link(LinkClass::Intra);
    let inter = topo.link(LinkClass::Nic);
    let slice = s.div(n as f64, g);
    let mut t = 0.0;
    if g >= 2 {
        t += 2.0 * (g as f64 - 1.0) * (intra.alpha + slice * eb * intra.beta);
    }
    if nodes >= 2 {
        let c = s.div(slice, nodes) * eb;
        let b = if let Topology::Flat { .. } = topo {
            inter.beta
        } else {
            let nic = ceil_div(g, topo.lanes()) as f64 * inter.beta;
            if topo.racks() >= 2 {
                nic.max(g as f64 * topo.core_beta())
            } else {
                nic
            }
        };
        t += 2.0 * (nodes as f64 - 1.0) * (inter.alpha + c * b);
    }
    Some(t)
}

/// Registry entry of [`multilane_schedule`].
pub struct MultiLane;

impl CollectiveAlgorithm for MultiLane {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "multilane",
            label: "multi-lane hierarchical all-reduce",
            short_label: "multi-lane",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Nodes,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        match phase {
            Phase::ReduceScatter | Phase::AllGather => {
                "around rings inside nodes, then across nodes"
            }
            _ => "",
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        multilane_schedule(topo, n, elem)
    }
    /// Flat model (every message `α + m·β`): with `G` ranks per node and `N` nodes,
    /// `2(G−1)(α + n/G·β) + 2(N−1)(α + n/(GN)·β)` plus `((G−1)/G + (N−1)/(GN))·nγ`
    /// (ring reduce-scatter and all-gather, Patarasuk & Yuan 2009, at two levels).
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        let nodes = topo.nodes().max(1);
        let g = (topo.p() / nodes).max(1) as f64;
        let nf = nodes as f64;
        let startups = 2.0 * (g - 1.0) + 2.0 * (nf - 1.0);
        let gamma = (g - 1.0) / g + (nf - 1.0) / (g * nf);
        flat_formula(
            self.descriptor().label,
            "2(G−1)(α + n/G·β) + 2(N−1)(α + n/(GN)·β) + ((G−1)/G + (N−1)/(GN))·nγ",
            [startups, 2.0 * gamma, gamma],
            n_bytes,
            c,
            format!("G = {} ranks per node, N = {nodes} nodes", g as usize),
        )
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        factors_of(self, topo)
    }
    fn flat_rounds(&self, _p: usize) -> Rounds {
        // Follows nodes: no critical path from p alone.
        Vec::new()
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        Some(TopologyInfo {
            key: "multilane",
            label: "multi-lane hierarchical all-reduce",
            short_label: "multi-lane",
            summary: "reduce-scatter inside each node, each local rank all-reduces its slice across nodes over its own NIC, all-gather inside the node",
            min_racks: 1,
        })
    }
    fn topology_schedule(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        multilane_schedule(topo, n, elem)
    }
    fn topology_time(&self, topo: &Topology, n: u64, elem: u64, split: Split) -> Option<f64> {
        topo_time(topo, n, elem, split)
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        match round.phase {
            Phase::ReduceScatter => "every rank passes one slice to the next rank of its ring (inside its node, \
                 or across nodes among the ranks with the same local index, over their own NIC), which adds it"
                .into(),
            Phase::AllGather => "every rank passes a finished slice to the next rank of its ring, which copies it (no addition)"
                .into(),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn closed_form_equals_executed_time_for_nodes_and_gpus_up_to_8() {
        super::super::pieces::check_registry_entry(super::super::Algorithm::MULTILANE);
    }
}
