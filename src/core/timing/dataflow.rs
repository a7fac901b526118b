//! Dataflow timing: per-rank clocks, no barrier (`../shared/design.md`,
//! "Dataflow timing model").
//!
//! - **Ranks run their own rounds in order.** A message of round r moves
//!   once both its sender and its receiver have entered round r (a
//!   rendezvous, as MPI's large messages and NCCL's steps behave). A rank
//!   enters round r + 1 when its round-r sends have left and its round-r
//!   receives have arrived, and γ has been paid for a reduce. A round in
//!   which a rank has no message is passed at once.
//! - **Resources** ([`super::resources`]): messages crossing a resource at
//!   the same time share it equally. A message's rate is the smallest of its
//!   shares (`bandwidth / messages on the resource`), recomputed whenever a
//!   message starts or ends on one of its resources. A message pays α before
//!   its bytes flow; α holds no bandwidth.
//! - **Segments.** With k segments every message travels as k pieces (the
//!   element range split as [`crate::core::schedule::chunk_range`] splits a
//!   tensor) and each rank runs its round sequence once per piece. Piece j
//!   of round r moves once both ends have finished piece j of their earlier
//!   rounds; on each rank, piece j of a round starts only after piece j − 1
//!   of that round has ended there. So a rank forwards a piece as soon as it
//!   holds it: pipelining follows from the rule.
//! - **Late, slow, failed.** A late rank enters at its delay. A slow rank's
//!   ports run at its factor ([`super::resources::Network`]). A failed rank
//!   stops at its time: the pieces it is sending or receiving are cut and
//!   never arrive, and it starts nothing more. Ranks that need it block;
//!   the run ends when nothing more can move
//!   ([`Outcome::Stalled`](super::clock::Outcome::Stalled)).
//!
//! # How it runs
//! An event-driven simulation: timed events (entries, failures, ends of α,
//! ends of flows, ends of reductions) ordered by time and then by
//! insertion, so the run is deterministic.
//! - **Pair groups.** Every piece from one sender to one receiver crosses
//!   the same resources with the same cap, so at every moment all of them
//!   move at the same rate. They form a group with one clock: `v`, the bytes
//!   each member has moved since the group last became busy. A member ends
//!   when `v` reaches its own mark (`v` at its start + its bytes), so a
//!   change of shares updates one clock per group, never each piece, and a
//!   group whose rate does not change is not touched at all.
//! - **Queues.** The ends of α come in the order they were started (one α
//!   per link class), so they wait in first-in-first-out queues; only the
//!   ends of groups and reductions need the binary heap.
//! - **Dense state.** The schedule is flattened once into per-rank rows of
//!   `(round, transfer)`; ranks, pieces and resources are vector indices.
//!
//! # Files
//! This file holds the entry points ([`clock`], [`clock_rounds`],
//! [`start_rounds`], [`DataflowRun`]); beside it:
//! - `plan`: the schedule flattened once (transfers, per-rank rows, pair
//!   groups);
//! - `queue`: the timed events, their heap and α queues, and the event loop;
//! - `sim`: the simulation's state and what each event does to it;
//! - `share`: fair sharing of resources (group rates and end events);
//! - `results`: the finished state as a [`Clock`], and who is blocked.

use std::borrow::Borrow;
use std::collections::{BinaryHeap, VecDeque};

use super::clock::{Clock, ClockError, ClockOptions, RankClock};
use super::resources::Network;
use crate::core::schedule::{Round, Schedule};

mod events;
mod plan;
mod queue;
mod results;
mod share;
mod sim;

use events::Kind;
use plan::{plan, IDLE, NONE};
use sim::Sim;

/// The dataflow clock of `schedule` on `net` (see the module doc).
///
/// # Errors
/// [`ClockError::TooLarge`] beyond [`MAX_PIECES`](super::clock::MAX_PIECES)
/// pieces; fault errors from [`super::clock::Faults::check`];
/// [`ClockError::Malformed`] for a transfer outside `0..p` or from a rank to
/// itself.
pub fn clock(
    schedule: &Schedule,
    net: &Network<'_>,
    opts: &ClockOptions,
) -> Result<Clock, ClockError> {
    clock_rounds(schedule.p, schedule.elem_bytes, &schedule.rounds, net, opts)
}

/// [`clock`] of the schedule on `p` ranks whose rounds are `rounds`, in
/// order (`elem_bytes` bytes per element), read once and never held: a
/// caller that generates rounds one at a time (the ring's numbers-only
/// path) times two million messages without a [`Schedule`] of them.
///
/// # Errors
/// As [`clock`].
pub fn clock_rounds<R: Borrow<Round>>(
    p: usize,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = R>,
    net: &Network<'_>,
    opts: &ClockOptions,
) -> Result<Clock, ClockError> {
    let run = start_rounds(p, elem_bytes, rounds, net, opts)?;
    Ok(run.finish())
}

/// A dataflow clock that runs a bounded number of events at a time, so a
/// page can spread a long run over many frames ([`DataflowRun::advance`]);
/// [`DataflowRun::finish`] gives the [`Clock`] that [`clock`] gives for the
/// same schedule, bit for bit, however the events were split.
pub struct DataflowRun {
    sim: Sim,
    fail: Vec<Option<f64>>,
    done: bool,
}

impl DataflowRun {
    /// Processes at most `events` events (an α end, a flow end, a reduce, a
    /// rank entering or failing) and returns how many it processed; fewer
    /// than `events` only when none is left ([`DataflowRun::is_done`]).
    pub fn advance(&mut self, events: usize) -> usize {
        if self.done {
            return 0;
        }
        let (used, done) = self.sim.run(events);
        self.done = done;
        used
    }

    /// True once no event is left.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The clock. Runs what is left first.
    pub fn finish(mut self) -> Clock {
        self.advance(usize::MAX);
        self.sim.finish(self.fail)
    }
}

impl std::fmt::Debug for DataflowRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataflowRun")
            .field("now", &self.sim.now)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// A [`DataflowRun`] of the rounds, before its first event (the arguments
/// and errors are those of [`clock_rounds`]).
///
/// # Errors
/// As [`clock`].
pub fn start_rounds<R: Borrow<Round>>(
    p: usize,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = R>,
    net: &Network<'_>,
    opts: &ClockOptions,
) -> Result<DataflowRun, ClockError> {
    opts.faults.check(p)?;
    let k = opts.segments.max(1);
    let plan = plan(p, rounds, net, k)?;
    let late = opts.faults.late_of(p);
    let n_inst = plan.tx.len() * k;
    let keep = opts.keep_events;
    let mut sim = Sim {
        beta: (0..net.len()).map(|id| net.beta(id as u32)).collect(),
        gamma: opts.gamma,
        k,
        eb: elem_bytes,
        keep,
        pos: (0..p * k).map(|s| plan.first[s / k]).collect(),
        tx: plan.tx,
        groups: plan.groups,
        ent: plan.ent,
        first: plan.first,
        cur: vec![IDLE; p * k],
        span: vec![0; p * k],
        outstanding: vec![0; p * k],
        cause: if keep { vec![NONE; p * k] } else { Vec::new() },
        entered: vec![false; p],
        failed: vec![false; p],
        ranks: late.iter().map(|&t| RankClock::entered_at(t)).collect(),
        act_cnt: vec![0; p],
        since: vec![0.0; p],
        flags: vec![0; n_inst],
        pred: if keep { vec![NONE; n_inst] } else { Vec::new() },
        rec_of: if keep {
            vec![u32::MAX; n_inst]
        } else {
            Vec::new()
        },
        flows: Vec::new(),
        free: Vec::new(),
        load: vec![0; net.len()],
        on_res: vec![Vec::new(); net.len()],
        mark: Vec::new(),
        gen: 0,
        scratch: Vec::new(),
        heap: BinaryHeap::new(),
        queues: vec![VecDeque::new(); plan.alphas.len()],
        alphas: plan.alphas,
        protocol: net.protocol(),
        seq: 0,
        now: 0.0,
        records: Vec::new(),
    };
    sim.mark = vec![0; sim.groups.len()];
    for (r, &t) in late.iter().enumerate() {
        sim.push(t, Kind::Enter(r as u32));
    }
    for (r, t) in opts.faults.fail_of(p).iter().enumerate() {
        if let Some(t) = t {
            sim.push(*t, Kind::Fail(r as u32));
        }
    }
    Ok(DataflowRun {
        sim,
        fail: opts.faults.fail_of(p),
        done: false,
    })
}
