//! Byte counters of a schedule on a [`Topology`]: bytes per link class, per
//! NIC lane and direction, per rack-core direction and per rank, round by
//! round and cumulated, and each resource's total load. The timing rules
//! that read the same resources are in [`super::lockstep`] and
//! [`super::dataflow`]; the resources themselves in [`super::resources`].

use super::resources::{resources, Resource};
use crate::core::schedule::Schedule;
use crate::core::topology::{LinkClass, Topology};

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

/// The busiest resource of the schedule: the one with the longest busy time
/// (bytes × β) over the whole schedule, with its bytes and that time in
/// seconds. Ties go to more bytes, then to the first resource in
/// [`Resource`]'s order. `None` on a flat topology (no resource is shared).
pub fn busiest_resource(schedule: &Schedule, topo: &Topology) -> Option<(Resource, u64, f64)> {
    // A topology has a handful of resources: a list, scanned (no map type).
    let mut load: Vec<(Resource, u64)> = Vec::new();
    for t in schedule.rounds.iter().flat_map(|r| &r.transfers) {
        for r in resources(topo, t.src, t.dst) {
            let bytes = t.bytes(schedule.elem_bytes);
            match load.iter_mut().find(|(x, _)| *x == r) {
                Some(e) => e.1 += bytes,
                None => load.push((r, bytes)),
            }
        }
    }
    // A linear scan, not a sort: only the first of the order is wanted (and
    // a sort would add a sort instance to every page that counts bytes).
    load.into_iter()
        .map(|(r, b)| (r, b, b as f64 * r.beta(topo)))
        .min_by(|a, b| b.2.total_cmp(&a.2).then(b.1.cmp(&a.1)).then(a.0.cmp(&b.0)))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
