//! The topologies the registry's flat questions run on ([`flat`],
//! [`nodes_of`]), and the shared helpers of the algorithm files: schedule
//! generation on the flat topology, round titles and closed forms by name.

use super::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::CostParams;
use crate::core::schedule::{round_heading, Phase, Schedule, ScheduleError};
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

/// Generates the schedule of `alg` for `p` ranks on the flat topology and `n`
/// elements of `elem_bytes` bytes. Any `p ≥ 2` works (non-powers of two fold
/// as in MPICH, Thakur, Rabenseifner & Gropp 2005 §4) and any `n ≥ 1`,
/// including `n < p` (some chunks are then empty). On the flat topology every
/// rank is its own node, so `hier` runs its leaders' all-reduce over all `p`.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn generate(
    alg: Algorithm,
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    alg.generate_on(&flat(p), n, elem_bytes)
}

/// Full label of round `i` of a schedule made by `alg`, e.g.
/// "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2".
/// Empty when `i` is out of range.
pub fn round_title(alg: Algorithm, schedule: &Schedule, i: usize) -> String {
    let (Some(round), Some((k, of))) = (schedule.rounds.get(i), schedule.position_in_phase(i))
    else {
        return String::new();
    };
    round_title_of(alg, round.phase, (k, of), &round.note)
}

/// [`round_title`] from its parts: round `k` of the `of` rounds of phase
/// `phase`, with the round's note (empty for none), for a run that does
/// not hold its whole schedule.
pub fn round_title_of(alg: Algorithm, phase: Phase, (k, of): (usize, usize), note: &str) -> String {
    let method = alg.method(phase);
    let head = if method.is_empty() {
        phase.label().to_string()
    } else {
        format!("{} {method}", phase.label())
    };
    round_heading(&head, k, of, note)
}

/// The closed form of `alg` at `p` ranks (flat topology) and `n_bytes` bytes
/// (see [`crate::core::cost::formulas`] for each formula and its source). For
/// non-powers of two the recursive algorithms use the labelled adaptation
/// ([`Formula::pow2_adapted`]).
pub fn closed_form(alg: Algorithm, p: usize, n_bytes: f64, c: CostParams) -> Formula {
    alg.cost(p, n_bytes, c)
}
