//! The trace engine shared by the collectives and ring views: generate a
//! collective's schedule from the registry and execute it on real buffers.

use super::shared::Shared;
use crate::core::collectives::Algorithm;
use crate::core::execute::{default_init, execute_checkpointed, execute_owned, ExecOptions, Trace};
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

/// How often a drawn trace keeps a state: every [`CHECKPOINT_EVERY`]-th round;
/// [`Trace::state_at`] replays at most 7 rounds to rebuild any other.
pub const CHECKPOINT_EVERY: usize = 8;

/// Executes `alg` on `topo` on `elements` f32 elements with contributor sets,
/// keeping the state after every [`CHECKPOINT_EVERY`]-th round (and the last):
/// what a view that draws one step at a time needs (read with
/// [`Trace::state_at`]).
pub fn checkpointed_collective(
    alg: Algorithm,
    topo: &Topology,
    elements: u64,
) -> Option<SharedTrace> {
    let schedule = alg.generate_on(topo, elements, ELEM_BYTES).ok()?;
    execute_checkpointed(schedule, &default_init, CHECKPOINT_EVERY)
        .ok()
        .map(Shared::new)
}

/// Executes `alg` on `topo` on `bytes` bytes of f32 (at least one
/// element), checkpointed: what the collectives view shows.
pub fn collective_trace(alg: Algorithm, topo: &Topology, bytes: u64) -> Option<SharedTrace> {
    checkpointed_collective(alg, topo, (bytes / ELEM_BYTES).max(1))
}
