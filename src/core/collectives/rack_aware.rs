//! `rat`: rack-aware all-reduce (the course's §10 "RAT: reduce before
//! crossing the core").
//!
//! On `K` racks of `R` ranks each:
//! 1. **reduce-scatter inside each rack** (a ring over the rack's ranks in
//!    rank order): rank `j` of every rack ends with its rack's sum on slice
//!    `j` (`n/R` elements). Together the rack's ranks hold the rack
//!    aggregate, `n` elements.
//! 2. **the rack aggregates cross the core**: rank `j` of every rack `k ≥ 1`
//!    sends slice `j` to rank `j` of rack 0, which adds it. `(K − 1)·n`
//!    elements cross the core, all in one round.
//! 3. **the result comes back across the core**: rank `j` of rack 0 copies
//!    the finished slice `j` to rank `j` of every other rack: `(K − 1)·n`.
//! 4. **all-gather inside each rack** (ring).
//!
//! With two racks, `n` crosses the core in each direction, against
//! `2(p − 1) · n/p` per direction for the flat ring over all `p` ranks
//! (which crosses the rack boundary twice in every one of its rounds).

use super::pieces::flat_formula;
use super::pieces::{
    all_reduce, ceil_div, equal_nodes, ring_all_gather, ring_reduce_scatter, rounds, side_by_side,
    sub_range, Split,
};
use super::{factors_of, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo};
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{check_args, Op, Phase, Schedule, ScheduleError, Transfer};
use crate::core::topology::{LinkClass, Topology};
use crate::core::cost::protocol::Rounds;

/// Level text of the in-rack reduce-scatter.
pub const RACK_RS: &str = "reduce-scatter inside each rack";
/// Level text of the core crossing towards rack 0.
pub const CROSS_UP: &str = "cross-rack exchange: each rack aggregate crosses the core to rack 0";
/// Level text of the result coming back.
pub const CROSS_BACK: &str = "cross-rack exchange: the result comes back across the core";
/// Level text of the in-rack all-gather.
pub const RACK_AG: &str = "all-gather inside each rack";

/// The groups RAT reduces inside: the racks, or, without racks (one
/// rack), the nodes, so that "one aggregate per group crosses to group 0".
pub fn groups(topo: &Topology) -> Vec<Vec<usize>> {
    if topo.racks() >= 2 {
        (0..topo.racks())
            .map(|k| topo.rack_ranks(k).collect())
            .collect()
    } else {
        (0..topo.nodes())
            .map(|k| topo.node_ranks(k).collect())
            .collect()
    }
}

/// The rack-aware all-reduce on `topo`. Without racks, each node plays a
/// rack (its aggregate crosses the NICs to node 0 and the result comes back).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0`, `elem_bytes == 0`;
/// [`ScheduleError::Shape`] when the racks (or nodes) differ in size.
pub fn rack_aware_schedule(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    let p = topo.p();
    check_args(p, n, elem_bytes)?;
    let members = groups(topo);
    let r = members.first().map_or(0, Vec::len);
    if members.iter().any(|m| m.len() != r) {
        return Err(ScheduleError::Shape(
            "the rack-aware all-reduce needs the same number of ranks in every rack".into(),
        ));
    }
    let whole = 0..n;
    let slices: Vec<Vec<_>> = (0..r).map(|j| vec![sub_range(&whole, r, j)]).collect();
    let rs = side_by_side(
        members
            .iter()
            .map(|m| ring_reduce_scatter(m, &slices))
            .collect(),
    );
    let ag = side_by_side(
        members
            .iter()
            .map(|m| ring_all_gather(m, &slices))
            .collect(),
    );
    let cross = |op: Op| -> Vec<Transfer> {
        let mut v = Vec::new();
        for m in &members[1..] {
            for j in 0..r {
                let (a, b) = (m[j], members[0][j]);
                let (src, dst) = if op == Op::Reduce { (a, b) } else { (b, a) };
                v.push(Transfer {
                    src,
                    dst,
                    range: sub_range(&whole, r, j),
                    op,
                    chunk: None,
                });
            }
        }
        v
    };
    let mut all = rounds(rs, Phase::ReduceScatter, RACK_RS);
    if members.len() >= 2 {
        all.extend(rounds(vec![cross(Op::Reduce)], Phase::Reduce, CROSS_UP));
        all.extend(rounds(vec![cross(Op::Copy)], Phase::Broadcast, CROSS_BACK));
    }
    all.extend(rounds(ag, Phase::AllGather, RACK_AG));
    Ok(all_reduce(p, n, elem_bytes, all))
}

/// Closed form of [`rack_aware_schedule`] on equal nodes of `G` ranks, `M` nodes per rack
/// (`R = M·G` ranks per rack), `K` racks, `L` NICs per node, seconds
/// (exact when `R` divides `n`; bytes for `n`):
///
/// `T = 2(R − 1)·max(α_intra + (n/R)·β_intra, α_inter + (n/R)·β_inter)
///    + 2·(α_inter + (K − 1)·max(⌈G/L⌉·(n/R)·β_inter, n·β_core))`
///
/// (intra term when `G ≥ 2`, inter term of the ring when `M ≥ 2`). The
/// in-rack rings are ring reduce-scatter/all-gather (Patarasuk & Yuan
/// 2009); in the crossing rounds rack 0's downlink carries `(K − 1)·n` and
/// each NIC of rack 0 receives `K − 1` slices per rank on it.
/// Without racks each node plays a rack (`M = 1`, `K = N`, no core term).
/// On a flat topology every rank has one port, so each crossing round costs
/// `α + (K − 1)·(n/R)·β`. `None` for unequal nodes.
///
/// With [`Split::EXACT`] this is the closed form; with [`Split::FLOOR`]
/// (every piece rounded down) a lower bound on the executed time.
pub fn topo_time(topo: &Topology, n: u64, elem_bytes: u64, s: Split) -> Option<f64> {
    let (nodes, g) = equal_nodes(topo, n, elem_bytes)?;
    let with_core = topo.racks() >= 2;
    // K groups of M nodes (racks, or single nodes without racks).
    let (k, m) = if with_core {
        (topo.racks(), nodes / topo.racks())
    } else {
        (nodes, 1)
    };
    let r = m * g;
    let eb = elem_bytes as f64;
    let intra = topo.link(LinkClass::Intra);
    let inter = topo.link(LinkClass::Nic);
    let c = s.div(n as f64, r) * eb;
    let flat = matches!(topo, Topology::Flat { .. });
    let mut round: f64 = 0.0;
    if g >= 2 {
        round = round.max(intra.alpha + c * intra.beta);
    }
    if m >= 2 {
        round = round.max(inter.alpha + c * inter.beta);
    }
    let cross = if k < 2 {
        0.0
    } else if flat {
        // rank j of group 0 receives (then sends) K − 1 slices through its port
        inter.alpha + (k as f64 - 1.0) * c * inter.beta
    } else {
        let whole = r as f64 * c;
        let nic = ceil_div(g, topo.lanes()) as f64 * c * inter.beta;
        let core = if with_core {
            whole * topo.core_beta()
        } else {
            0.0
        };
        inter.alpha + (k as f64 - 1.0) * nic.max(core)
    };
    Some(2.0 * (r as f64 - 1.0) * round + 2.0 * cross)
}

/// Registry entry of [`rack_aware_schedule`].
pub struct RackAware;

impl CollectiveAlgorithm for RackAware {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "rat",
            label: "rack-aware all-reduce (RAT)",
            short_label: "rack-aware",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Nodes,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        match phase {
            Phase::ReduceScatter | Phase::AllGather => "around a ring inside each rack",
            Phase::Reduce => "towards rack 0",
            Phase::Broadcast => "from rack 0",
            _ => "",
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        rack_aware_schedule(topo, n, elem)
    }
    /// Flat model (every rank one full-duplex port; messages sharing a
    /// port add up): `R` ranks per rack, `K` racks:
    /// `2(R−1)(α + n/R·β) + 2(α + (K−1)·n/R·β)` (the crossing rounds only
    /// when `K ≥ 2`: rank j of rack 0 receives `K − 1` slices at once, then
    /// sends `K − 1` back) plus `((R−1)/R + 1/R)·nγ`; ring
    /// reduce-scatter/all-gather inside the rack (Patarasuk & Yuan 2009).
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        let gs = groups(topo);
        let k = gs.len();
        let r = gs.first().map_or(1, Vec::len).max(1) as f64;
        let cross = if k >= 2 { 1.0 } else { 0.0 };
        let gamma = (r - 1.0) / r + cross / r;
        let bytes = 2.0 * (r - 1.0) / r + 2.0 * cross * (k as f64 - 1.0) / r;
        flat_formula(
            self.descriptor().label,
            "2(R−1)(α + n/R·β) + 2(α + (K−1)·n/R·β) + ((R−1)/R + 1/R)·nγ",
            [2.0 * (r - 1.0) + 2.0 * cross, bytes, gamma],
            n_bytes,
            c,
            format!("R = {} ranks per rack, K = {k} racks", r as usize),
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
        groups(topo).first().map_or(1, Vec::len).max(1)
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        Some(TopologyInfo {
            key: "rat",
            label: "rack-aware all-reduce (RAT)",
            short_label: "rack-aware (RAT)",
            summary: "reduce inside the rack, one rack aggregate crosses the core and the result comes back, then all-gather inside the rack",
            min_racks: 2,
        })
    }
    fn topology_schedule(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        rack_aware_schedule(topo, n, elem)
    }
    fn topology_time(&self, topo: &Topology, n: u64, elem: u64, split: Split) -> Option<f64> {
        topo_time(topo, n, elem, split)
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        match round.phase {
            Phase::ReduceScatter => "inside every rack, each rank passes one slice to the next rank, which adds it".into(),
            Phase::Reduce => "rank j of every other rack sends its rack's partial sum of slice j across the core to rank j of rack 0, which adds it".into(),
            Phase::Broadcast => "rank j of rack 0 sends the finished slice j back across the core (no addition)".into(),
            Phase::AllGather => "inside every rack, each rank passes a finished slice to the next rank, which copies it (no addition)".into(),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn closed_form_equals_executed_time_for_nodes_and_gpus_up_to_8() {
        super::super::pieces::check_registry_entry(super::super::Algorithm::RAT);
    }
}
