//! Topology-timed closed forms of the registry's ring and hierarchical
//! all-reduces, and `flat`: the ring all-reduce over all ranks in rank order, on whatever
//! topology it runs. The ring crosses a node boundary wherever consecutive
//! ranks sit on different nodes (once per node per round) and the rack
//! core wherever they sit in different racks.

use super::pieces::Split;
use crate::core::schedule::{Phase, Schedule, ScheduleError};
use crate::core::topology::{LinkClass, Topology};

/// Level text of the reduce-scatter rounds.
pub const RS: &str = "reduce-scatter around the ring over all ranks (rank order)";
/// Level text of the all-gather rounds.
pub const AG: &str = "all-gather around the ring over all ranks (rank order)";

/// The registry's ring all-reduce ([`super::Algorithm::RING`]) over the
/// `topo.p()` ranks in rank order, its rounds noted with the level texts [`RS`] and [`AG`].
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn flat_ring_schedule(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    let mut s = super::Algorithm::RING.generate_on(&super::flat(topo.p()), n, elem_bytes)?;
    for r in &mut s.rounds {
        r.note = match r.phase {
            Phase::ReduceScatter => RS.into(),
            _ => AG.into(),
        };
    }
    Ok(s)
}

/// Closed form of [`flat_ring_schedule`] on `topo`, seconds (exact when `p` divides `n`):
///
/// `T = 2(p − 1) · max(α_intra + c·β_intra, α_inter + c·max(β_inter, β_core))`,
/// `c = n·elem_bytes / p`,
///
/// the intra term present when a node holds ≥ 2 ranks, the inter term when
/// there are ≥ 2 nodes, `β_core` when there are ≥ 2 racks. Every round each
/// rank sends one chunk; each node sends exactly one chunk out of one NIC and
/// receives one, and each rack sends one over the core (Thakur,
/// Rabenseifner & Gropp 2005 for the ring; the topology terms follow the
/// project's timing model). Flat topology: `2(p − 1)(α + cβ)`.
///
/// With [`Split::EXACT`] this is the closed form; with [`Split::FLOOR`]
/// (every piece rounded down) a lower bound on the executed time.
pub fn topo_time(topo: &Topology, n: u64, elem_bytes: u64, s: Split) -> Option<f64> {
    let p = topo.p();
    if p < 2 || n == 0 || elem_bytes == 0 {
        return None;
    }
    let c = s.div(n as f64, p) * elem_bytes as f64;
    let round = ring_round(topo, c);
    Some(2.0 * (p as f64 - 1.0) * round)
}

/// Time of one round in which every rank of the rank-order ring sends `c` bytes.
pub(crate) fn ring_round(topo: &Topology, c: f64) -> f64 {
    let intra = topo.link(LinkClass::Intra);
    let inter = topo.link(LinkClass::Nic);
    if let Topology::Flat { .. } = topo {
        return intra.alpha + c * intra.beta;
    }
    let mut t: f64 = 0.0;
    if topo.node_sizes().iter().any(|&g| g >= 2) {
        t = t.max(intra.alpha + c * intra.beta);
    }
    if topo.nodes() >= 2 {
        let mut b = inter.beta;
        if topo.racks() >= 2 {
            b = b.max(topo.core_beta());
        }
        t = t.max(inter.alpha + c * b);
    }
    t
}

/// `⌈log₂ g⌉` of the largest node: the binomial levels of `hier`'s
/// intra-node reduce and broadcast.
fn depth(topo: &Topology) -> u32 {
    topo.node_sizes()
        .into_iter()
        .map(crate::core::cost::formulas::ceil_log2)
        .max()
        .unwrap_or(0)
}

/// Closed form of the hierarchical all-reduce with a ring among node leaders
/// (`hier`, [`crate::core::collectives::Algorithm::HIER`]) on `topo`, seconds:
///
/// `T = 2⌈log₂g⌉(α_intra + n·β_intra) + 2(N − 1)(α_inter + (n/N)·max(β_inter, β_core))`
///
/// (binomial reduce and broadcast of whole tensors inside the nodes, one
/// message per port and round; the leaders' ring sends one chunk per NIC
/// direction and one per rack over the core, `β_core` with ≥ 2 racks).
/// Exact when `N` divides `n`. Flat topology: the ring over all `p`.
/// With [`Split::FLOOR`] the leaders' chunks are rounded down: a lower bound.
pub fn hier_topo_time(topo: &Topology, n: u64, elem_bytes: u64, s: Split) -> Option<f64> {
    if topo.p() < 2 || n == 0 || elem_bytes == 0 {
        return None;
    }
    let eb = elem_bytes as f64;
    let intra = topo.link(LinkClass::Intra);
    let inter = topo.link(LinkClass::Nic);
    let nodes = topo.nodes();
    let mut t = 2.0 * f64::from(depth(topo)) * (intra.alpha + n as f64 * eb * intra.beta);
    if nodes >= 2 {
        let c = s.div(n as f64, nodes) * eb;
        let b = if topo.racks() >= 2 {
            inter.beta.max(topo.core_beta())
        } else {
            inter.beta
        };
        t += 2.0 * (nodes as f64 - 1.0) * (inter.alpha + c * b);
    }
    Some(t)
}

/// A lower bound on `hier_rd` (recursive doubling among node leaders) on
/// `topo`, seconds: the binomial reduce and broadcast inside the nodes plus
/// `⌊log₂N⌋` whole-tensor exchanges between leaders through one NIC each
/// (the fold-in/out rounds of a non-power-of-two `N` only add time).
/// `None` with [`Split::EXACT`]: no closed form is claimed.
pub fn hier_rd_topo_time(topo: &Topology, n: u64, elem_bytes: u64, s: Split) -> Option<f64> {
    if s.exact || topo.p() < 2 || n == 0 || elem_bytes == 0 {
        return None;
    }
    let bytes = n as f64 * elem_bytes as f64;
    let intra = topo.link(LinkClass::Intra);
    let inter = topo.link(LinkClass::Nic);
    let levels = f64::from(topo.nodes().max(1).ilog2());
    Some(
        2.0 * f64::from(depth(topo)) * (intra.alpha + bytes * intra.beta)
            + levels * (inter.alpha + bytes * inter.beta),
    )
}
