//! The clock's one entry point: [`run`] checks the faults and the segment
//! count, builds the [`Network`] and hands the rounds to the mode asked
//! for: [`super::lockstep`] (every round waits for the last rank) or
//! [`super::dataflow`] (no barrier). The types both modes fill are in
//! [`super::clock`]; the model is stated in `../shared/design.md`,
//! "Dataflow timing model".

use std::borrow::Borrow;

use super::clock::{Clock, ClockError, ClockOptions, DataflowRun, Mode};
use super::resources::Network;
use crate::core::schedule::{Round, Schedule};
use crate::core::topology::Topology;

/// Times `schedule` on `topo` (see the module doc).
///
/// # Errors
/// [`ClockError`] for a bad fault, `segments = 0`, a malformed schedule, or
/// more than [`MAX_PIECES`](super::clock::MAX_PIECES) message pieces.
pub fn run(schedule: &Schedule, topo: &Topology, opts: &ClockOptions) -> Result<Clock, ClockError> {
    run_rounds(
        schedule.p,
        schedule.elem_bytes,
        &schedule.rounds,
        topo,
        opts,
    )
}

/// [`run`] of the schedule on `p` ranks whose rounds are `rounds`, in
/// order, with `elem_bytes` bytes per element. The rounds are read once
/// and not held (except in lock-step with a failed rank), so a caller that
/// generates them one at a time, as the ring view's numbers-only path does
/// ([`crate::core::schedule::ring::ring_all_reduce_rounds`]), never builds
/// the whole [`Schedule`]: at p = 1024 that is 2 095 104 transfers. The
/// clock is the one [`run`] gives for the schedule of these rounds.
///
/// # Errors
/// As [`run`].
pub fn run_rounds<R: Borrow<Round>>(
    p: usize,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = R>,
    topo: &Topology,
    opts: &ClockOptions,
) -> Result<Clock, ClockError> {
    opts.faults.check(p)?;
    if opts.segments == 0 {
        return Err(ClockError::Segments);
    }
    let net = Network::new(topo, &opts.faults.factor_of(p)).with_protocol(opts.protocol);
    match opts.mode {
        Mode::LockStep => super::lockstep::clock_rounds(
            p,
            elem_bytes,
            rounds,
            &net,
            opts.gamma,
            &opts.faults,
            opts.keep_events,
        ),
        Mode::Dataflow => super::dataflow::clock_rounds(p, elem_bytes, rounds, &net, opts),
    }
}

/// The dataflow clock of [`run`] as a [`DataflowRun`] that a caller
/// advances a bounded number of events at a time (the timeline's segment
/// sweep spreads its runs over frames this way); `opts.mode` is ignored.
/// Its [`DataflowRun::finish`] is [`run`]'s dataflow clock, bit for bit.
///
/// # Errors
/// As [`run`].
pub fn start_dataflow(
    schedule: &Schedule,
    topo: &Topology,
    opts: &ClockOptions,
) -> Result<DataflowRun, ClockError> {
    opts.faults.check(schedule.p)?;
    if opts.segments == 0 {
        return Err(ClockError::Segments);
    }
    let net = Network::new(topo, &opts.faults.factor_of(schedule.p)).with_protocol(opts.protocol);
    super::dataflow::start_rounds(
        schedule.p,
        schedule.elem_bytes,
        &schedule.rounds,
        &net,
        opts,
    )
}
