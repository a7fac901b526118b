//! Physical topology: which link each transfer crosses.
//!
//! A [`Topology`] is either **flat** (every pair of ranks joined by one kind
//! of link with one α and one bandwidth, the model of every flat collective)
//! or **hierarchical**: racks ⊃ nodes ⊃ ranks.
//!
//! # Numbering
//! Ranks are numbered node by node. With equal nodes of `gpus` ranks, rank
//! `r` sits on node `⌊r / gpus⌋` with local index `r mod gpus`; unequal nodes
//! (FlexReduce's groups) number their ranks consecutively in node order.
//! Racks group consecutive nodes, `nodes / racks` per rack.
//!
//! # Link classes
//! - [`LinkClass::Flat`]: the one link of a flat topology.
//! - [`LinkClass::Intra`]: between two ranks of one node (NVLink-class).
//! - [`LinkClass::Nic`]: between nodes of one rack, through the sender's
//!   and the receiver's NICs. Local rank `g` uses NIC `g mod lanes`.
//! - [`LinkClass::Core`]: between racks: through both NICs and the shared
//!   rack core.
//!
//! The timing rules over these links live in [`crate::core::timing`]
//! (resources, lock-step and dataflow); the runs, the comparison and the
//! picture's geometry that the topology view shows live in
//! [`crate::core::topology_view`], a layer above the registry.
//!
//! # Entry points
//! - [`crate::core::timing::lockstep::round_times`] / [`crate::core::timing::lockstep::executed_time_on`]: a schedule's
//!   time on a topology (on a flat topology bit-identical to
//!   [`crate::core::timing::executed_time_with`]);
//!   [`crate::core::timing::traffic::round_traffic`] / [`crate::core::timing::traffic::cumulative_traffic`]: bytes per
//!   link class, per NIC lane and direction, per rack core direction and per
//!   rank; [`crate::core::timing::traffic::transfer_classes`]: the class of every transfer.
//!
//! Physical links are not simulated beyond that rule: no pipelining inside a
//! message, no protocol switches, no failures, no traffic from other jobs.

use std::fmt;
use std::ops::Range;

/// One kind of link: start-up latency and the time per byte.
///
/// β is stored as given (not recomputed from a bandwidth), so a flat
/// topology built from α and β times a schedule bit-for-bit like
/// [`crate::core::timing::executed_time`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Start-up latency per message, seconds.
    pub alpha: f64,
    /// Transfer time per byte, seconds per byte (1 / bandwidth; 0 = infinitely fast).
    pub beta: f64,
}

impl Link {
    /// A link with α seconds and `bw` bytes per second (β = 1/bw; a
    /// bandwidth ≤ 0 or not finite gives β = ∞ or 0 and is rejected by the
    /// topology constructors).
    pub fn new(alpha: f64, bw: f64) -> Self {
        Link {
            alpha,
            beta: if bw.is_finite() && bw > 0.0 {
                1.0 / bw
            } else if bw == f64::INFINITY {
                0.0
            } else {
                f64::INFINITY
            },
        }
    }

    /// A link from α (s) and β (s/B), both kept exactly.
    pub fn from_beta(alpha: f64, beta: f64) -> Self {
        Link { alpha, beta }
    }

    /// β, seconds per byte.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Bandwidth 1/β, bytes per second (∞ when β = 0).
    pub fn bw(&self) -> f64 {
        if self.beta > 0.0 {
            1.0 / self.beta
        } else {
            f64::INFINITY
        }
    }
}

/// The class of link a transfer crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkClass {
    /// The single link kind of a flat topology.
    Flat,
    /// Inside one node.
    Intra,
    /// Between two nodes of one rack, through their NICs.
    Nic,
    /// Between racks, through both NICs and the rack core.
    Core,
}

impl LinkClass {
    /// Label for tables and legends.
    pub fn label(self) -> &'static str {
        match self {
            LinkClass::Flat => "link",
            LinkClass::Intra => "intra-node",
            LinkClass::Nic => "NIC (inter-node)",
            LinkClass::Core => "rack core",
        }
    }
}

impl fmt::Display for LinkClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Nodes, NICs and racks, with a link per class.
#[derive(Clone, Debug, PartialEq)]
pub struct Hierarchy {
    /// Ranks on each node, in node order (all ≥ 1). Equal for the usual
    /// `nodes × gpus` shape; unequal for FlexReduce groups.
    pub node_sizes: Vec<usize>,
    /// Number of racks (≥ 1; divides the node count). 1 means no core.
    pub racks: usize,
    /// NICs per node (≥ 1). Local rank `g` uses NIC `g mod lanes`.
    pub lanes: usize,
    /// Link inside a node: each rank has one egress and one ingress port of this bandwidth.
    pub intra: Link,
    /// Each NIC, per direction.
    pub inter: Link,
    /// The rack core, per direction in aggregate (its α is `inter.alpha`).
    pub core_bw: f64,
}

/// The topology a schedule runs on.
#[derive(Clone, Debug, PartialEq)]
pub enum Topology {
    /// `p` ranks, every pair joined by `link`; no resource is shared.
    Flat {
        /// Number of ranks.
        p: usize,
        /// The one link.
        link: Link,
    },
    /// Racks ⊃ nodes ⊃ ranks.
    Hierarchical(Hierarchy),
}

/// Why a topology cannot be built.
#[derive(Clone, Debug, PartialEq)]
pub enum TopologyError {
    /// No ranks, or a node with no ranks.
    Empty,
    /// `racks` is 0 or does not divide the node count.
    Racks {
        /// Racks asked for.
        racks: usize,
        /// Nodes there are.
        nodes: usize,
    },
    /// `lanes` is 0.
    Lanes,
    /// A bandwidth ≤ 0 or not finite, or an α < 0 or not finite.
    Link(&'static str),
}

impl fmt::Display for TopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TopologyError::Empty => f.write_str("every node needs at least one rank"),
            TopologyError::Racks { racks, nodes } => write!(
                f,
                "racks must be at least 1 and divide the {nodes} nodes evenly (got {racks})"
            ),
            TopologyError::Lanes => f.write_str("a node needs at least one NIC (lanes ≥ 1)"),
            TopologyError::Link(which) => write!(
                f,
                "the {which} link needs a finite α ≥ 0 and a finite bandwidth > 0"
            ),
        }
    }
}

impl std::error::Error for TopologyError {}

fn check_link(l: &Link, which: &'static str) -> Result<(), TopologyError> {
    if l.alpha.is_finite() && l.alpha >= 0.0 && l.beta.is_finite() && l.beta > 0.0 {
        Ok(())
    } else {
        Err(TopologyError::Link(which))
    }
}

impl Topology {
    /// A flat topology of `p` ranks with α (s) and β (s/B). β = 0 means an
    /// infinitely fast link.
    pub fn flat(p: usize, alpha: f64, beta: f64) -> Self {
        Topology::Flat {
            p,
            link: Link::from_beta(alpha, beta),
        }
    }

    /// Nodes of the given sizes (`vec![gpus; nodes]` for equal nodes;
    /// FlexReduce's unequal groups otherwise), grouped into `racks` racks,
    /// with `lanes` NICs per node.
    ///
    /// # Errors
    /// [`TopologyError`] when a count is 0, `racks` does not divide the node
    /// count, or a link has a bad α or bandwidth.
    pub fn unequal(
        node_sizes: Vec<usize>,
        racks: usize,
        lanes: usize,
        intra: Link,
        inter: Link,
        core_bw: f64,
    ) -> Result<Self, TopologyError> {
        if node_sizes.is_empty() || node_sizes.contains(&0) {
            return Err(TopologyError::Empty);
        }
        let nodes = node_sizes.len();
        if racks == 0 || !nodes.is_multiple_of(racks) {
            return Err(TopologyError::Racks { racks, nodes });
        }
        if lanes == 0 {
            return Err(TopologyError::Lanes);
        }
        check_link(&intra, "intra-node")?;
        check_link(&inter, "inter-node")?;
        if racks > 1 && !(core_bw.is_finite() && core_bw > 0.0) {
            return Err(TopologyError::Link("rack core"));
        }
        Ok(Topology::Hierarchical(Hierarchy {
            node_sizes,
            racks,
            lanes,
            intra,
            inter,
            core_bw,
        }))
    }

    /// Number of ranks.
    pub fn p(&self) -> usize {
        match self {
            Topology::Flat { p, .. } => *p,
            Topology::Hierarchical(h) => h.node_sizes.iter().sum(),
        }
    }

    /// Number of nodes (a flat topology counts each rank as its own node).
    pub fn nodes(&self) -> usize {
        match self {
            Topology::Flat { p, .. } => *p,
            Topology::Hierarchical(h) => h.node_sizes.len(),
        }
    }

    /// Ranks on each node, in node order.
    pub fn node_sizes(&self) -> Vec<usize> {
        match self {
            Topology::Flat { p, .. } => vec![1; *p],
            Topology::Hierarchical(h) => h.node_sizes.clone(),
        }
    }

    /// The ranks of `node`, a consecutive range (empty when out of range).
    pub fn node_ranks(&self, node: usize) -> Range<usize> {
        match self {
            Topology::Flat { p, .. } => {
                if node < *p {
                    node..node + 1
                } else {
                    0..0
                }
            }
            Topology::Hierarchical(h) => {
                if node >= h.node_sizes.len() {
                    return 0..0;
                }
                let lo: usize = h.node_sizes[..node].iter().sum();
                lo..lo + h.node_sizes[node]
            }
        }
    }

    /// The node of rank `r` (the last node for `r ≥ p`).
    pub fn node_of(&self, r: usize) -> usize {
        match self {
            Topology::Flat { .. } => r,
            Topology::Hierarchical(h) => {
                let mut acc = 0;
                for (i, s) in h.node_sizes.iter().enumerate() {
                    acc += s;
                    if r < acc {
                        return i;
                    }
                }
                h.node_sizes.len().saturating_sub(1)
            }
        }
    }

    /// The index of rank `r` inside its node.
    pub fn local_index(&self, r: usize) -> usize {
        r - self.node_ranks(self.node_of(r)).start.min(r)
    }

    /// Number of racks (1 for flat).
    pub fn racks(&self) -> usize {
        match self {
            Topology::Flat { .. } => 1,
            Topology::Hierarchical(h) => h.racks,
        }
    }

    /// The rack of `node`.
    pub fn rack_of_node(&self, node: usize) -> usize {
        match self {
            Topology::Flat { .. } => 0,
            Topology::Hierarchical(h) => {
                let per = (h.node_sizes.len() / h.racks.max(1)).max(1);
                (node / per).min(h.racks.saturating_sub(1))
            }
        }
    }

    /// NICs per node (1 for flat).
    pub fn lanes(&self) -> usize {
        match self {
            Topology::Flat { .. } => 1,
            Topology::Hierarchical(h) => h.lanes,
        }
    }

    /// The NIC (lane) rank `r` uses: its local index mod `lanes`.
    pub fn lane_of(&self, r: usize) -> usize {
        self.local_index(r) % self.lanes().max(1)
    }

    /// The class of link a message from `src` to `dst` crosses.
    pub fn class_between(&self, src: usize, dst: usize) -> LinkClass {
        match self {
            Topology::Flat { .. } => LinkClass::Flat,
            Topology::Hierarchical(_) => {
                let (a, b) = (self.node_of(src), self.node_of(dst));
                if a == b {
                    LinkClass::Intra
                } else if self.rack_of_node(a) == self.rack_of_node(b) {
                    LinkClass::Nic
                } else {
                    LinkClass::Core
                }
            }
        }
    }

    /// The ranks of `rack`, a consecutive range (empty when out of range).
    pub fn rack_ranks(&self, rack: usize) -> Range<usize> {
        let nodes = self.nodes();
        let per = (nodes / self.racks().max(1)).max(1);
        let first = rack * per;
        if rack >= self.racks() || first >= nodes {
            return 0..0;
        }
        let last = (first + per).min(nodes) - 1;
        self.node_ranks(first).start..self.node_ranks(last).end
    }

    /// The rack of rank `r`.
    pub fn rack_of(&self, r: usize) -> usize {
        self.rack_of_node(self.node_of(r))
    }

    /// True when every node has the same number of ranks.
    pub fn equal_nodes(&self) -> bool {
        let sizes = self.node_sizes();
        sizes.windows(2).all(|w| w[0] == w[1])
    }

    /// β of the rack core per direction, seconds per byte (0 without racks
    /// or on a flat topology).
    pub fn core_beta(&self) -> f64 {
        match self {
            Topology::Hierarchical(h) if h.racks > 1 && h.core_bw > 0.0 => 1.0 / h.core_bw,
            _ => 0.0,
        }
    }

    /// The link of a class: α and β (the core uses the NIC's α and the
    /// core's β).
    pub fn link(&self, class: LinkClass) -> Link {
        match self {
            Topology::Flat { link, .. } => *link,
            Topology::Hierarchical(h) => match class {
                LinkClass::Intra => h.intra,
                LinkClass::Core => Link::from_beta(h.inter.alpha, self.core_beta()),
                LinkClass::Flat | LinkClass::Nic => h.inter,
            },
        }
    }

    /// α of a link class, seconds (the core's α is the NIC's).
    pub fn alpha(&self, class: LinkClass) -> f64 {
        match self {
            Topology::Flat { link, .. } => link.alpha,
            Topology::Hierarchical(h) => match class {
                LinkClass::Intra => h.intra.alpha,
                _ => h.inter.alpha,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> (Link, Link) {
        (Link::new(1e-6, 300e9), Link::new(5e-6, 25e9))
    }

    /// `t` has `p` ranks, and each `(rank, node, local index)` holds.
    fn assert_ranks(t: &Topology, p: usize, expected: &[(usize, usize, usize)]) {
        assert_eq!(t.p(), p);
        for &(r, node, local) in expected {
            assert_eq!((t.node_of(r), t.local_index(r)), (node, local), "rank {r}");
        }
    }

    /// The link class between each pair `(a, b)` is the one given.
    fn assert_classes(t: &Topology, expected: &[(usize, usize, LinkClass)]) {
        for &(a, b, class) in expected {
            assert_eq!(t.class_between(a, b), class, "{a} → {b}");
        }
    }

    #[test]
    fn numbers_ranks_node_by_node() {
        let (i, e) = links();
        let t = Topology::unequal(vec![4; 2], 1, 4, i, e, 0.0).expect("valid");
        assert_ranks(&t, 8, &[(5, 1, 1)]);
        assert_eq!(t.node_ranks(1), 4..8);
        assert_classes(&t, &[(0, 3, LinkClass::Intra), (3, 4, LinkClass::Nic)]);
    }

    #[test]
    fn unequal_groups_and_racks() {
        let (i, e) = links();
        let t = Topology::unequal(vec![2, 3], 1, 1, i, e, 0.0).expect("valid");
        // nodes of 2 and 3: rank 1 is local 1 of node 0, ranks 2 and 4
        // are locals 0 and 2 of node 1.
        assert_ranks(&t, 5, &[(1, 0, 1), (2, 1, 0), (4, 1, 2)]);
        let t = Topology::unequal(vec![2; 4], 2, 1, i, e, 50e9).expect("valid");
        assert_eq!(t.rack_of_node(1), 0);
        assert_eq!(t.rack_of_node(2), 1);
        assert_classes(&t, &[(0, 2, LinkClass::Nic), (0, 4, LinkClass::Core)]);
    }

    #[test]
    fn rejects_bad_shapes() {
        let (i, e) = links();
        assert_eq!(
            Topology::unequal(vec![2; 3], 2, 1, i, e, 1e9),
            Err(TopologyError::Racks { racks: 2, nodes: 3 })
        );
        assert_eq!(
            Topology::unequal(vec![2; 0], 1, 1, i, e, 1e9),
            Err(TopologyError::Empty)
        );
        assert_eq!(
            Topology::unequal(vec![2; 2], 1, 0, i, e, 1e9),
            Err(TopologyError::Lanes)
        );
        assert_eq!(
            Topology::unequal(vec![2; 2], 1, 1, Link::new(0.0, 0.0), e, 1e9),
            Err(TopologyError::Link("intra-node"))
        );
    }

    #[test]
    fn flat_is_one_class() {
        let t = Topology::flat(4, 0.0, 0.08e-9);
        assert_eq!(t.p(), 4);
        assert_eq!(t.class_between(0, 3), LinkClass::Flat);
        assert!((t.alpha(LinkClass::Flat)).abs() < 1e-30);
    }
}
