//! The topologies the registry's flat questions run on ([`flat`],
//! [`nodes_of`]) and the flat terms the algorithm files share.

use crate::core::topology::{Link, Topology, TopologyError};

/// `(q, (q − 1)/q)` with `q = max(p, 1)` ranks of `topo`, as `f64`: the
/// terms of the ring and naive closed forms.
pub(super) fn flat_p(topo: &Topology) -> (f64, f64) {
    let q = topo.p().max(1) as f64;
    (q, (q - 1.0) / q)
}

/// The flat topology of `p` ranks used for topology-independent questions
/// (only `p` matters to a flat generator or closed form).
pub fn flat(p: usize) -> Topology {
    Topology::flat(p, 0.0, 0.0)
}

/// `nodes` equal nodes of `gpus` ranks each, for generating schedules that
/// follow nodes; the links are placeholders (generators never read them;
/// time them with [`crate::core::timing`]).
///
/// # Errors
/// [`TopologyError::Empty`] when `nodes` or `gpus` is 0.
pub fn nodes_of(nodes: usize, gpus: usize) -> Result<Topology, TopologyError> {
    let link = Link::new(0.0, 1.0);
    Topology::unequal(vec![gpus; nodes], 1, 1, link, link, 1.0)
}
