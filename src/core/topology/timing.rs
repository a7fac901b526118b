//! Executed time and byte counters of a schedule on a [`Topology`].
//!
//! # The rule (the project's "Topology timing model")
//! A round lasts as long as its slowest transfer. A transfer costs
//!
//! `α(class) + max over the resources it uses of (bytes on that resource this round × β of the resource)`
//!
//! plus `bytes × γ` when it is a reduce. `class` is the link class the
//! transfer crosses ([`Topology::class_between`]); a zero-byte transfer still
//! pays α; a round without transfers costs 0.
//!
//! # Resources (bytes on one resource in one round add up)
//! - **Intra-node** transfers use the sender's egress port and the
//!   receiver's ingress port (each `intra` bandwidth).
//! - **Inter-node** transfers ([`LinkClass::Nic`] and [`LinkClass::Core`])
//!   use the sender's NIC *out* direction and the receiver's NIC *in*
//!   direction, each at `inter` bandwidth. Local rank `g` uses NIC
//!   `g mod lanes` of its node. NICs are full duplex.
//! - **Rack core** ([`LinkClass::Core`] only): "per direction in aggregate"
//!   is taken as one *uplink* per source rack (all bytes leaving rack `k`
//!   this round share it) and one *downlink* per destination rack (all bytes
//!   entering rack `k` share it), each at `core_bw`. With two racks this is
//!   exactly one shared pipe per direction. The core's α is the NIC's α.
//! - **Flat** topology: no shared resource; every transfer costs
//!   `α + bytes·(β + γ)`, the same floating-point expression as
//!   [`crate::core::timing::executed_round_times`], so the two agree bit for bit.
//!
//! Not modelled: pipelining inside a message, protocol switches, failures,
//! traffic from other jobs.

use std::collections::HashMap;

use super::{LinkClass, Topology};
use crate::core::schedule::{Op, Schedule};

/// A physical resource that transfers of one round share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// Egress port of a GPU (rank) inside its node.
    PortOut(usize),
    /// Ingress port of a GPU (rank) inside its node.
    PortIn(usize),
    /// NIC `lane` of `node`, outgoing direction.
    NicOut {
        /// Node index.
        node: usize,
        /// NIC index inside the node, `0..lanes`.
        lane: usize,
    },
    /// NIC `lane` of `node`, incoming direction.
    NicIn {
        /// Node index.
        node: usize,
        /// NIC index inside the node, `0..lanes`.
        lane: usize,
    },
    /// The core uplink of a rack: bytes leaving the rack.
    CoreOut(usize),
    /// The core downlink of a rack: bytes entering the rack.
    CoreIn(usize),
}

impl Resource {
    /// Label for tables, e.g. "node 1 NIC 0 out", "rack 0 core uplink",
    /// "rank 3 egress".
    pub fn label(&self) -> String {
        match self {
            Resource::PortOut(r) => format!("rank {r} egress port"),
            Resource::PortIn(r) => format!("rank {r} ingress port"),
            Resource::NicOut { node, lane } => format!("node {node} NIC {lane} out"),
            Resource::NicIn { node, lane } => format!("node {node} NIC {lane} in"),
            Resource::CoreOut(k) => format!("rack {k} core uplink"),
            Resource::CoreIn(k) => format!("rack {k} core downlink"),
        }
    }

    /// β of this resource on `topo`, seconds per byte.
    pub fn beta(&self, topo: &Topology) -> f64 {
        match self {
            Resource::PortOut(_) | Resource::PortIn(_) => topo.link(LinkClass::Intra).beta,
            Resource::NicOut { .. } | Resource::NicIn { .. } => topo.link(LinkClass::Nic).beta,
            Resource::CoreOut(_) | Resource::CoreIn(_) => topo.core_beta(),
        }
    }
}

/// The resources a transfer from `src` to `dst` uses (empty on a flat topology).
pub fn resources(topo: &Topology, src: usize, dst: usize) -> Vec<Resource> {
    match topo.class_between(src, dst) {
        LinkClass::Flat => Vec::new(),
        LinkClass::Intra => vec![Resource::PortOut(src), Resource::PortIn(dst)],
        class => {
            let mut v = vec![
                Resource::NicOut {
                    node: topo.node_of(src),
                    lane: topo.lane_of(src),
                },
                Resource::NicIn {
                    node: topo.node_of(dst),
                    lane: topo.lane_of(dst),
                },
            ];
            if class == LinkClass::Core {
                v.push(Resource::CoreOut(topo.rack_of(src)));
                v.push(Resource::CoreIn(topo.rack_of(dst)));
            }
            v
        }
    }
}

/// The link class of every transfer: `classes[round][transfer]`, same shape
/// as `schedule.rounds[round].transfers`.
pub fn transfer_classes(schedule: &Schedule, topo: &Topology) -> Vec<Vec<LinkClass>> {
    schedule
        .rounds
        .iter()
        .map(|r| {
            r.transfers
                .iter()
                .map(|t| topo.class_between(t.src, t.dst))
                .collect()
        })
        .collect()
}

/// Time of every round of `schedule` on `topo`, seconds (the rule in the
/// module doc). `gamma` is the reduction cost, seconds per byte (0 to ignore).
pub fn round_times(schedule: &Schedule, topo: &Topology, gamma: f64) -> Vec<f64> {
    let eb = schedule.elem_bytes;
    // one map for all rounds: cleared, it keeps its capacity (no rehashing
    // as it grows again every round)
    let mut load: HashMap<Resource, u64> = HashMap::new();
    schedule
        .rounds
        .iter()
        .map(|round| {
            load.clear();
            let res: Vec<Vec<Resource>> = round
                .transfers
                .iter()
                .map(|t| resources(topo, t.src, t.dst))
                .collect();
            for (t, rs) in round.transfers.iter().zip(&res) {
                for r in rs {
                    *load.entry(*r).or_insert(0) += t.bytes(eb);
                }
            }
            round
                .transfers
                .iter()
                .zip(&res)
                .map(|(t, rs)| {
                    let bytes = t.bytes(eb) as f64;
                    let g = if t.op == Op::Reduce { gamma } else { 0.0 };
                    let link = topo.link(topo.class_between(t.src, t.dst));
                    if let Topology::Flat { .. } = topo {
                        // Exactly today's expression (crate::core::timing).
                        link.alpha + bytes * (link.beta + g)
                    } else {
                        let wire = rs
                            .iter()
                            .map(|r| load.get(r).copied().unwrap_or(0) as f64 * r.beta(topo))
                            .fold(0.0, f64::max);
                        link.alpha + wire + bytes * g
                    }
                })
                .fold(0.0, f64::max)
        })
        .collect()
}

/// Total executed time of `schedule` on `topo`, seconds: the sum of
/// [`round_times`]. On a flat topology built with
/// [`Topology::flat`]`(p, α, β)` it equals
/// [`crate::core::timing::executed_time_with`] with the same α, β, γ.
pub fn executed_time_on(schedule: &Schedule, topo: &Topology, gamma: f64) -> f64 {
    round_times(schedule, topo, gamma).iter().sum()
}

/// Bytes per link class, one counter per [`LinkClass`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassBytes {
    /// Over the single link of a flat topology.
    pub flat: u64,
    /// Inside nodes.
    pub intra: u64,
    /// Between nodes of one rack.
    pub nic: u64,
    /// Between racks (these bytes also cross both NICs).
    pub core: u64,
}

impl ClassBytes {
    /// The counter of `class`.
    pub fn get(&self, class: LinkClass) -> u64 {
        match class {
            LinkClass::Flat => self.flat,
            LinkClass::Intra => self.intra,
            LinkClass::Nic => self.nic,
            LinkClass::Core => self.core,
        }
    }

    fn add(&mut self, class: LinkClass, bytes: u64) {
        match class {
            LinkClass::Flat => self.flat += bytes,
            LinkClass::Intra => self.intra += bytes,
            LinkClass::Nic => self.nic += bytes,
            LinkClass::Core => self.core += bytes,
        }
    }

    /// Sum over all classes, bytes.
    pub fn total(&self) -> u64 {
        self.flat + self.intra + self.nic + self.core
    }
}

/// Bytes moved in one round (or, in a cumulative series, up to and
/// including that round), counted from the transfers of the schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Per link class.
    pub by_class: ClassBytes,
    /// `nic_out[node][lane]`: bytes leaving through that NIC (empty on flat).
    pub nic_out: Vec<Vec<u64>>,
    /// `nic_in[node][lane]`: bytes entering through that NIC (empty on flat).
    pub nic_in: Vec<Vec<u64>>,
    /// `core_out[rack]`: bytes leaving the rack over the core.
    pub core_out: Vec<u64>,
    /// `core_in[rack]`: bytes entering the rack over the core.
    pub core_in: Vec<u64>,
    /// `sent[rank]`: bytes sent by the rank.
    pub sent: Vec<u64>,
    /// `recv[rank]`: bytes received by the rank.
    pub recv: Vec<u64>,
    /// Transfers crossing a NIC (classes Nic and Core) in this round/so far.
    pub inter_messages: usize,
    /// Transfers crossing the core in this round/so far.
    pub core_messages: usize,
}

impl Traffic {
    /// All-zero counters sized for `topo`.
    pub fn zero(topo: &Topology) -> Self {
        let hier = matches!(topo, Topology::Hierarchical(_));
        let (nodes, lanes, racks) = if hier {
            (topo.nodes(), topo.lanes(), topo.racks())
        } else {
            (0, 0, 0)
        };
        Traffic {
            by_class: ClassBytes::default(),
            nic_out: vec![vec![0; lanes]; nodes],
            nic_in: vec![vec![0; lanes]; nodes],
            core_out: vec![0; if racks > 1 { racks } else { 0 }],
            core_in: vec![0; if racks > 1 { racks } else { 0 }],
            sent: vec![0; topo.p()],
            recv: vec![0; topo.p()],
            inter_messages: 0,
            core_messages: 0,
        }
    }

    /// Bytes over the core, both directions together.
    pub fn core_total(&self) -> u64 {
        self.core_out.iter().sum()
    }

    /// Largest byte count on one NIC direction.
    pub fn max_nic(&self) -> u64 {
        self.nic_out
            .iter()
            .chain(&self.nic_in)
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
    }

    fn accumulate(&mut self, other: &Traffic) {
        fn add(a: &mut [u64], b: &[u64]) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.by_class.flat += other.by_class.flat;
        self.by_class.intra += other.by_class.intra;
        self.by_class.nic += other.by_class.nic;
        self.by_class.core += other.by_class.core;
        for (a, b) in self.nic_out.iter_mut().zip(&other.nic_out) {
            add(a, b);
        }
        for (a, b) in self.nic_in.iter_mut().zip(&other.nic_in) {
            add(a, b);
        }
        add(&mut self.core_out, &other.core_out);
        add(&mut self.core_in, &other.core_in);
        add(&mut self.sent, &other.sent);
        add(&mut self.recv, &other.recv);
        self.inter_messages += other.inter_messages;
        self.core_messages += other.core_messages;
    }
}

/// Per-round byte counters of `schedule` on `topo`: `traffic[round]`.
/// Transfers naming a rank outside the topology are skipped.
pub fn round_traffic(schedule: &Schedule, topo: &Topology) -> Vec<Traffic> {
    let eb = schedule.elem_bytes;
    let p = topo.p();
    schedule
        .rounds
        .iter()
        .map(|round| {
            let mut tr = Traffic::zero(topo);
            for t in &round.transfers {
                if t.src >= p || t.dst >= p {
                    continue;
                }
                let bytes = t.bytes(eb);
                let class = topo.class_between(t.src, t.dst);
                tr.by_class.add(class, bytes);
                tr.sent[t.src] += bytes;
                tr.recv[t.dst] += bytes;
                for r in resources(topo, t.src, t.dst) {
                    let slot = match r {
                        Resource::NicOut { node, lane } => {
                            tr.nic_out.get_mut(node).and_then(|v| v.get_mut(lane))
                        }
                        Resource::NicIn { node, lane } => {
                            tr.nic_in.get_mut(node).and_then(|v| v.get_mut(lane))
                        }
                        Resource::CoreOut(k) => tr.core_out.get_mut(k),
                        Resource::CoreIn(k) => tr.core_in.get_mut(k),
                        Resource::PortOut(_) | Resource::PortIn(_) => None,
                    };
                    if let Some(s) = slot {
                        *s += bytes;
                    }
                }
                if matches!(class, LinkClass::Nic | LinkClass::Core) {
                    tr.inter_messages += 1;
                }
                if class == LinkClass::Core {
                    tr.core_messages += 1;
                }
            }
            tr
        })
        .collect()
}

/// Running totals of [`round_traffic`]: `cumulative[i]` counts rounds `0..=i`.
pub fn cumulative_traffic(per_round: &[Traffic], topo: &Topology) -> Vec<Traffic> {
    let mut acc = Traffic::zero(topo);
    per_round
        .iter()
        .map(|t| {
            acc.accumulate(t);
            acc.clone()
        })
        .collect()
}

/// Bytes each resource carries over the whole schedule, with its busy time
/// (bytes × β), sorted by busy time, largest first. Empty on a flat topology.
pub fn resource_totals(schedule: &Schedule, topo: &Topology) -> Vec<(Resource, u64, f64)> {
    let mut load: HashMap<Resource, u64> = HashMap::new();
    for t in schedule.rounds.iter().flat_map(|r| &r.transfers) {
        for r in resources(topo, t.src, t.dst) {
            *load.entry(r).or_insert(0) += t.bytes(schedule.elem_bytes);
        }
    }
    let mut v: Vec<(Resource, u64, f64)> = load
        .into_iter()
        .map(|(r, b)| (r, b, b as f64 * r.beta(topo)))
        .collect();
    v.sort_by(|a, b| b.2.total_cmp(&a.2).then(b.1.cmp(&a.1)).then(a.0.cmp(&b.0)));
    v
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
