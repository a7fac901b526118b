//! The resources that messages share, read by both timing modes
//! ([`super::lockstep`] and [`super::dataflow`]), so the two can only differ
//! in *when* messages move, never in *what* they cross.
//!
//! # Which resources a message uses (the project's timing model, `../shared/design.md`)
//! - **Ports everywhere.** On the flat topology every rank has one
//!   full-duplex port: its egress carries all it sends and its ingress all it
//!   receives, each at the link's bandwidth. Inside a node the same holds at
//!   `intra` bandwidth (NVLink-class switch).
//! - **NICs.** An inter-node message ([`LinkClass::Nic`], [`LinkClass::Core`])
//!   uses the sender's NIC *out* direction and the receiver's NIC *in*
//!   direction, each at `inter` bandwidth; local rank `g` uses NIC
//!   `g mod lanes`.
//! - **Rack core.** A message between racks also uses the source rack's core
//!   uplink and the destination rack's downlink, each at `core_bw`.
//! - **A slow rank** (`slow=RANK:FACTOR`) runs its ports at `FACTOR ×` their
//!   bandwidth; its inter-node messages are capped at `FACTOR ×` the NIC
//!   bandwidth (its NIC is shared with other ranks, so the NIC itself keeps
//!   its speed).
//!
//! [`Resource`] and [`resources`] are the named view of the same resources
//! for the byte counters of the topology view (which count NIC and core
//! bytes; ports are not listed there).

use crate::core::cost::protocol::Rendezvous;
use crate::core::topology::{LinkClass, Topology};

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

/// How one message crosses the network: its start-up latency, its link,
/// the dense ids of the resources it uses ([`Network`]) and a cap on its
/// rate from a slow end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Route {
    /// The link class crossed.
    pub class: LinkClass,
    /// Start-up latency α of that class, seconds.
    pub alpha: f64,
    /// β of that class, seconds per byte.
    pub beta: f64,
    /// Dense resource ids (first `len` are used).
    pub ids: [u32; 4],
    /// How many of `ids` are used (2 or 4; 0 for a rank outside the network).
    pub len: u8,
    /// A lower bound on the message's seconds per byte from a slow end's cap
    /// on an inter-node message, seconds per byte (0 = no cap).
    pub cap_beta: f64,
}

impl Route {
    /// The resource ids used.
    pub fn ids(&self) -> &[u32] {
        &self.ids[..usize::from(self.len)]
    }
}

/// Every resource of a topology, numbered densely, with its β (a slow
/// rank's ports already slowed): the table both timing modes read.
///
/// Ids: rank `r`'s egress port is `r`, its ingress `p + r`; then the NIC
/// out directions (`node·lanes + lane`), the NIC in directions, the rack
/// core uplinks and the downlinks.
#[derive(Clone, Debug)]
pub struct Network<'a> {
    topo: &'a Topology,
    p: usize,
    lanes: usize,
    nodes: usize,
    racks: usize,
    /// Port factor per rank (1 = full speed).
    factor: Vec<f64>,
    /// β per resource id, seconds per byte.
    beta: Vec<f64>,
    /// MPI's eager/rendezvous rule, if any ([`Network::with_protocol`]).
    protocol: Option<Rendezvous>,
}

impl<'a> Network<'a> {
    /// The resources of `topo`. `factor[r]` (missing entries are 1) runs
    /// rank `r`'s ports at that fraction of their bandwidth; factors are
    /// validated by the caller ([`super::clock::Faults::check`]).
    pub fn new(topo: &'a Topology, factor: &[f64]) -> Self {
        let p = topo.p();
        let hier = matches!(topo, Topology::Hierarchical(_));
        let (nodes, lanes, racks) = if hier {
            (topo.nodes(), topo.lanes(), topo.racks())
        } else {
            (0, 0, 0)
        };
        let factor: Vec<f64> = (0..p)
            .map(|r| factor.get(r).copied().unwrap_or(1.0))
            .collect();
        let port_beta = if hier {
            topo.link(LinkClass::Intra).beta
        } else {
            topo.link(LinkClass::Flat).beta
        };
        let mut beta = Vec::with_capacity(2 * p + 2 * nodes * lanes + 2 * racks);
        for _ in 0..2 {
            beta.extend(factor.iter().map(|&f| slowed(port_beta, f)));
        }
        let nic = if hier {
            topo.link(LinkClass::Nic).beta
        } else {
            0.0
        };
        beta.extend(std::iter::repeat_n(nic, 2 * nodes * lanes));
        let core = if hier { topo.core_beta() } else { 0.0 };
        beta.extend(std::iter::repeat_n(core, 2 * racks));
        Network {
            topo,
            p,
            lanes,
            nodes,
            racks,
            factor,
            beta,
            protocol: None,
        }
    }

    /// The same network with messages timed under `protocol`
    /// ([`crate::core::cost::protocol`]): a message of `m` bytes at or
    /// above the eager limit pays the handshake on top of its route's α.
    /// `None` (the default) leaves every time as it was.
    pub fn with_protocol(mut self, protocol: Option<Rendezvous>) -> Self {
        self.protocol = protocol;
        self
    }

    /// The protocol messages are timed under, if any.
    pub fn protocol(&self) -> Option<Rendezvous> {
        self.protocol
    }

    /// What the protocol adds to a message of `bytes` bytes on a route of
    /// start-up `alpha` (s): the handshake when it goes by rendezvous, else
    /// 0; `None` without a protocol.
    pub fn protocol_extra(&self, bytes: u64, alpha: f64) -> Option<f64> {
        self.protocol.map(|p| p.extra(bytes as f64, alpha))
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        self.topo
    }

    /// Number of ranks.
    pub fn p(&self) -> usize {
        self.p
    }

    /// Number of resource ids.
    pub fn len(&self) -> usize {
        self.beta.len()
    }

    /// True when there is no resource (p = 0).
    pub fn is_empty(&self) -> bool {
        self.beta.is_empty()
    }

    /// β of resource `id`, seconds per byte.
    pub fn beta(&self, id: u32) -> f64 {
        self.beta.get(id as usize).copied().unwrap_or(0.0)
    }

    /// True when rank `r` runs slower than its link.
    pub fn is_slow(&self, r: usize) -> bool {
        self.factor.get(r).is_some_and(|&f| f < 1.0)
    }

    /// The route of a message from `src` to `dst`. A rank outside the
    /// network gets a route with no resource, at the flat link's α and β.
    pub fn route(&self, src: usize, dst: usize) -> Route {
        if src >= self.p || dst >= self.p {
            let link = self.topo.link(LinkClass::Flat);
            return Route {
                class: LinkClass::Flat,
                alpha: link.alpha,
                beta: link.beta,
                ids: [0; 4],
                len: 0,
                cap_beta: 0.0,
            };
        }
        let class = self.topo.class_between(src, dst);
        let link = self.topo.link(class);
        let port = |r: usize, ingress: bool| (r + if ingress { self.p } else { 0 }) as u32;
        let (ids, len, cap_beta) = match class {
            LinkClass::Flat | LinkClass::Intra => {
                ([port(src, false), port(dst, true), 0, 0], 2, 0.0)
            }
            LinkClass::Nic | LinkClass::Core => {
                let base = 2 * self.p;
                let nic = |r: usize| self.topo.node_of(r) * self.lanes + self.topo.lane_of(r);
                let out = (base + nic(src)) as u32;
                let inn = (base + self.nodes * self.lanes + nic(dst)) as u32;
                let f = self.factor[src].min(self.factor[dst]);
                let cap = if f < 1.0 { link.beta / f } else { 0.0 };
                if class == LinkClass::Core {
                    let cb = base + 2 * self.nodes * self.lanes;
                    let up = (cb + self.topo.rack_of(src)) as u32;
                    let down = (cb + self.racks + self.topo.rack_of(dst)) as u32;
                    ([out, inn, up, down], 4, cap)
                } else {
                    ([out, inn, 0, 0], 2, cap)
                }
            }
        };
        Route {
            class,
            alpha: link.alpha,
            beta: link.beta,
            ids,
            len,
            cap_beta,
        }
    }
}

/// β at `factor` × the bandwidth (β itself at factor 1, exactly).
fn slowed(beta: f64, factor: f64) -> f64 {
    if factor < 1.0 {
        beta / factor
    } else {
        beta
    }
}
