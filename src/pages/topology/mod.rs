//! `?view=topology`: what the topology page shows of one step of an
//! all-reduce on nodes, NICs and racks, read from the core's
//! [`crate::core::topology_view::TopoRun`]: the arrows and labels of the
//! picture and the per-link and per-rank tables ([`step`]), the phase and
//! narration ([`narration`]), and the course's numbers with the FlexReduce
//! table ([`course`]), as the plain [`rows`] the app renders.

pub mod course;
pub mod narration;
pub mod rows;
pub mod step;

#[cfg(test)]
mod tests;

use crate::core::topology::Topology;
use crate::core::topology_view::{run, TopoRun};
use crate::params::ring::ELEM_BYTES;
use crate::params::topology::TopologyParams;

/// The parameters without the step: what the run depends on.
pub fn run_key(p: &TopologyParams) -> TopologyParams {
    TopologyParams {
        step: 0,
        ..p.clone()
    }
}

/// Runs the chosen algorithm: the topology and the run, or the message.
pub fn run_for(p: &TopologyParams) -> Result<(Topology, TopoRun), String> {
    let topo = p.topology().map_err(|e| e.to_string())?;
    let r = run(p.alg.topology_info().key, &topo, p.elements(), ELEM_BYTES)
        .map_err(|e| e.to_string())?;
    Ok((topo, r))
}
