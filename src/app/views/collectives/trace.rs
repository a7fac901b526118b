//! The engine shared by the collectives and ring views: generate a
//! collective's schedule from the registry and execute it on real buffers.

use crate::app::shared::Shared;
use crate::core::collectives::Algorithm;
use crate::core::execute::{default_init, execute_owned, ExecOptions, Trace};
use crate::core::topology::Topology;
use crate::params::ring::ELEM_BYTES;

/// An executed trace shared by a page and its panels (compared by identity).
pub type SharedTrace = Shared<Trace>;

/// Executes `alg` on the job shape `topo` (p ranks; the hierarchical
/// algorithms also read its nodes) on `elements` f32 elements. Per-round
/// states are kept when `keep_states` (needed to draw and to log values).
pub fn execute_collective(
    alg: Algorithm,
    topo: &Topology,
    elements: u64,
    keep_states: bool,
) -> Option<SharedTrace> {
    let schedule = alg.generate_on(topo, elements, ELEM_BYTES).ok()?;
    execute_owned(schedule, &default_init, ExecOptions { keep_states })
        .ok()
        .map(Shared::new)
}

/// Executes `alg` on `topo` on `bytes` bytes of f32 (at least one
/// element), keeping every state: what the collectives view shows.
pub fn collective_trace(alg: Algorithm, topo: &Topology, bytes: u64) -> Option<SharedTrace> {
    execute_collective(alg, topo, (bytes / ELEM_BYTES).max(1), true)
}
