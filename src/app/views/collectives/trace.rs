//! The engine shared by the collectives and ring views: generate a
//! collective's schedule from the registry and execute it on real buffers.

use crate::app::shared::Shared;
use crate::core::execute::{default_init, execute_owned, ExecOptions, Trace};
use crate::core::schedule::registry::{generate, Algorithm};
use crate::params::ring::ELEM_BYTES;

/// An executed trace shared by a page and its panels (compared by identity).
pub type SharedTrace = Shared<Trace>;

/// Executes `alg` for `p` ranks on `elements` f32 elements. Per-round
/// states are kept when `keep_states` (needed to draw and to log values).
pub fn execute_collective(
    alg: Algorithm,
    p: usize,
    elements: u64,
    keep_states: bool,
) -> Option<SharedTrace> {
    let schedule = generate(alg, p, elements, ELEM_BYTES).ok()?;
    execute_owned(schedule, &default_init, ExecOptions { keep_states })
        .ok()
        .map(Shared::new)
}

/// Executes `alg` for `p` ranks on `bytes` bytes of f32 (at least one
/// element), keeping every state: what the collectives view shows.
pub fn collective_trace(alg: Algorithm, p: usize, bytes: u64) -> Option<SharedTrace> {
    execute_collective(alg, p, (bytes / ELEM_BYTES).max(1), true)
}
