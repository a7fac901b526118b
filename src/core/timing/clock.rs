//! A schedule on the clock: per rank, per message, in continuous time.
//!
//! [`run`](super::run) times a [`Schedule`](crate::core::schedule::Schedule) on a
//! [`Topology`](crate::core::topology::Topology) in one of two modes of one
//! engine, both reading the same resources ([`super::resources`]):
//! - [`Mode::LockStep`] ([`super::lockstep`]): every round starts when the
//!   last rank is ready; the rule of every closed form;
//! - [`Mode::Dataflow`] ([`super::dataflow`]): no barrier; a message moves
//!   once both its ends have entered its round, messages crossing one
//!   resource share it equally, and with `segments = k` every message
//!   travels as k pieces, so a rank forwards a piece as soon as it holds it.
//!
//! Both take late, slow and failed ranks ([`Faults`]) and give a per-rank
//! [`RankClock`] (finish, busy and waiting time), the message list with the
//! critical path marked, and whether the collective completes ([`Outcome`]).
//! The model is stated once in `../shared/design.md`, "Dataflow timing model".

use std::fmt;

pub use super::dataflow::DataflowRun;
use crate::core::cost::protocol::Rendezvous;

use crate::core::topology::LinkClass;

/// Which rule starts the rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every round starts when the last rank is ready (a barrier per round).
    LockStep,
    /// Each rank runs its own rounds; a message moves once both ends are in its round.
    Dataflow,
}

impl Mode {
    /// URL value: `"lockstep"` or `"dataflow"`.
    pub fn key(self) -> &'static str {
        match self {
            Mode::LockStep => "lockstep",
            Mode::Dataflow => "dataflow",
        }
    }

    /// Label for headings: "Lock-step" or "Dataflow".
    pub fn label(self) -> &'static str {
        match self {
            Mode::LockStep => "Lock-step",
            Mode::Dataflow => "Dataflow",
        }
    }
}

/// Late, slow and failed ranks. Each list holds `(rank, value)` pairs, a
/// rank at most once per list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Faults {
    /// `(rank, seconds)`: the rank enters the collective that much later.
    pub late: Vec<(usize, f64)>,
    /// `(rank, factor)`: its ports run at `factor ×` the bandwidth, `0 < factor ≤ 1`.
    pub slow: Vec<(usize, f64)>,
    /// `(rank, seconds)`: the rank stops at that moment.
    pub fail: Vec<(usize, f64)>,
}

/// Why a clock cannot be run.
#[derive(Clone, Debug, PartialEq)]
pub enum ClockError {
    /// A fault names a rank that is not in `0..p`.
    Rank {
        /// Which list: "late", "slow" or "fail".
        list: &'static str,
        /// The rank given.
        rank: usize,
        /// Ranks there are.
        p: usize,
    },
    /// A rank appears twice in one list.
    Twice {
        /// Which list.
        list: &'static str,
        /// The rank.
        rank: usize,
    },
    /// A time that is negative or not finite, or a factor outside `(0, 1]`.
    Value {
        /// Which list.
        list: &'static str,
        /// The rank it belongs to.
        rank: usize,
    },
    /// `segments` is 0.
    Segments,
    /// More message pieces than the engine simulates at once.
    TooLarge {
        /// Pieces asked for (messages × segments).
        pieces: u64,
        /// The limit.
        limit: u64,
    },
    /// A transfer sends from a rank to itself or names a rank outside `0..p`.
    Malformed(String),
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::Rank { list, rank, p } => write!(
                f,
                "{list}= names rank {rank}, but the ranks are 0 … {} (p = {p})",
                p.saturating_sub(1)
            ),
            ClockError::Twice { list, rank } => {
                write!(f, "{list}= names rank {rank} twice; give each rank once")
            }
            ClockError::Value { list, rank } => match *list {
                "slow" => write!(
                    f,
                    "slow= needs a factor above 0 and at most 1 for rank {rank} (0.5 = half the bandwidth)"
                ),
                _ => write!(f, "{list}= needs a time ≥ 0 for rank {rank}"),
            },
            ClockError::Segments => f.write_str("segments must be at least 1"),
            ClockError::TooLarge { pieces, limit } => write!(
                f,
                "{pieces} message pieces are too many to put on the clock here (at most {limit}): use fewer ranks or segments"
            ),
            ClockError::Malformed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ClockError {}

/// The most message pieces (messages × segments) one run simulates: the
/// ring at p = 1024 (2 095 104 messages) fits, with room.
pub const MAX_PIECES: u64 = 4_194_304;

impl Faults {
    /// True when no rank is late, slow or failed.
    pub fn is_empty(&self) -> bool {
        self.late.is_empty() && self.slow.is_empty() && self.fail.is_empty()
    }

    /// Checks every entry against `p` ranks.
    ///
    /// # Errors
    /// [`ClockError::Rank`], [`ClockError::Twice`] or [`ClockError::Value`].
    pub fn check(&self, p: usize) -> Result<(), ClockError> {
        for (list, items) in [
            ("late", &self.late),
            ("slow", &self.slow),
            ("fail", &self.fail),
        ] {
            for (i, &(rank, v)) in items.iter().enumerate() {
                if rank >= p {
                    return Err(ClockError::Rank { list, rank, p });
                }
                if items[..i].iter().any(|&(r, _)| r == rank) {
                    return Err(ClockError::Twice { list, rank });
                }
                let ok = if list == "slow" {
                    v > 0.0 && v <= 1.0
                } else {
                    v.is_finite() && v >= 0.0
                };
                if !ok {
                    return Err(ClockError::Value { list, rank });
                }
            }
        }
        Ok(())
    }

    /// Entry time of every rank, seconds (0 unless late).
    pub fn late_of(&self, p: usize) -> Vec<f64> {
        let mut v = vec![0.0; p];
        for &(r, t) in &self.late {
            if let Some(x) = v.get_mut(r) {
                *x = t;
            }
        }
        v
    }

    /// Port factor of every rank (1 unless slow).
    pub fn factor_of(&self, p: usize) -> Vec<f64> {
        let mut v = vec![1.0; p];
        for &(r, f) in &self.slow {
            if let Some(x) = v.get_mut(r) {
                *x = f;
            }
        }
        v
    }

    /// Failure time of every rank, seconds (`None` when it does not fail).
    pub fn fail_of(&self, p: usize) -> Vec<Option<f64>> {
        let mut v = vec![None; p];
        for &(r, t) in &self.fail {
            if let Some(x) = v.get_mut(r) {
                *x = Some(t);
            }
        }
        v
    }
}

/// How to run the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockOptions {
    /// The rule that starts rounds.
    pub mode: Mode,
    /// Pieces per message, ≥ 1 (dataflow only; lock-step always runs whole messages).
    pub segments: usize,
    /// Reduction cost γ, seconds per byte.
    pub gamma: f64,
    /// Late, slow and failed ranks.
    pub faults: Faults,
    /// Keep every message in [`Clock::messages`] (off: numbers only).
    pub keep_events: bool,
    /// MPI's eager/rendezvous rule per message
    /// ([`crate::core::cost::protocol::Rendezvous`]); `None`, the default,
    /// times every message as `α + bytes·β`.
    pub protocol: Option<Rendezvous>,
}

impl ClockOptions {
    /// Whole messages, no faults, γ = 0, events kept.
    pub fn new(mode: Mode) -> Self {
        ClockOptions {
            mode,
            segments: 1,
            gamma: 0.0,
            faults: Faults::default(),
            keep_events: true,
            protocol: None,
        }
    }
}

/// One message (or one piece of one) on the clock. Times in seconds from
/// the collective's start (the earliest entry, 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Round of the schedule.
    pub round: usize,
    /// Piece index, `0..segments`.
    pub piece: usize,
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// Bytes of this piece.
    pub bytes: u64,
    /// True when the receiver adds (pays γ per byte after arrival).
    pub reduce: bool,
    /// Link class crossed.
    pub class: LinkClass,
    /// When both ends were in the round (the rendezvous), seconds.
    pub start: f64,
    /// When its bytes began to flow (after α), seconds.
    pub flow_start: f64,
    /// When its last byte arrived (or when it was cut), seconds.
    pub arrival: f64,
    /// When the receiver finished with it (after γ for a reduce), seconds.
    pub done: f64,
    /// False when a failed end cut it: it never arrived.
    pub delivered: bool,
    /// True on the critical path.
    pub critical: bool,
    /// The message whose end let this one start (an index into
    /// [`Clock::messages`]); `None` when it started at a rank's entry.
    pub pred: Option<usize>,
}

/// One rank's clock. Times in seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankClock {
    /// When it entered the collective (its `late` delay, else 0).
    pub entered: f64,
    /// When it finished its last round (`None` when the run stalled before).
    pub finish: Option<f64>,
    /// Time with at least one message (sending, receiving, or reducing) under way.
    pub busy: f64,
    /// Time between entering and finishing (or the stall, or its failure)
    /// with nothing under way.
    pub wait: f64,
    /// Bytes it sent that arrived.
    pub sent: u64,
    /// Bytes it received.
    pub received: u64,
    /// When it failed, if it did.
    pub failed_at: Option<f64>,
    lo: f64,
    hi: f64,
}

impl RankClock {
    /// A rank that entered at `t`, with nothing done yet.
    pub(crate) fn entered_at(t: f64) -> Self {
        RankClock {
            entered: t,
            lo: t,
            hi: t,
            ..RankClock::default()
        }
    }

    /// Adds the interval `[start, end)` to the busy time; intervals come in
    /// order of their starts.
    pub(crate) fn note_busy(&mut self, start: f64, end: f64) {
        if start > self.hi {
            self.busy += self.hi - self.lo;
            self.lo = start;
            self.hi = end;
        } else {
            self.hi = self.hi.max(end);
        }
    }

    /// The end of the last busy interval.
    pub(crate) fn busy_end(&self) -> f64 {
        self.hi
    }

    /// Closes the busy time and sets the waiting time up to `until`.
    pub(crate) fn close(&mut self, until: f64) {
        self.busy += self.hi.min(until) - self.lo.min(until);
        self.lo = self.hi;
        self.wait = (until - self.entered - self.busy).max(0.0);
    }
}

/// A rank that cannot go on.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocked {
    /// The blocked rank.
    pub rank: usize,
    /// The round it is stuck in.
    pub round: usize,
    /// The piece it is stuck on.
    pub piece: usize,
    /// The ranks it waits for (their message never arrives or never starts).
    pub waits_for: Vec<usize>,
}

/// Whether the collective completed.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every rank finished every round.
    Complete,
    /// Some rank never finishes: a failed rank's messages never arrive.
    Stalled {
        /// When the last message that could move ended, seconds.
        at: f64,
        /// Every rank that is neither finished nor failed, with whom it waits for.
        blocked: Vec<Blocked>,
    },
}

/// A schedule on the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// The rule that ran it.
    pub mode: Mode,
    /// Ranks.
    pub p: usize,
    /// Pieces per message.
    pub segments: usize,
    /// Every message piece, in order of arrival (empty without `keep_events`).
    pub messages: Vec<Message>,
    /// Per-rank clocks, indexed by rank.
    pub ranks: Vec<RankClock>,
    /// Completed, or stalled.
    pub outcome: Outcome,
    /// When the last rank finished (complete) or the run stopped (stalled), seconds.
    pub end: f64,
    /// Message pieces in the schedule (messages × segments).
    pub message_count: usize,
}

impl Clock {
    /// True when every rank finished.
    pub fn completes(&self) -> bool {
        self.outcome == Outcome::Complete
    }

    /// Waiting summed over ranks, rank-seconds.
    pub fn total_wait(&self) -> f64 {
        self.ranks.iter().map(|r| r.wait).sum()
    }

    /// Busy time summed over ranks, rank-seconds.
    pub fn total_busy(&self) -> f64 {
        self.ranks.iter().map(|r| r.busy).sum()
    }

    /// The straggler's cost: rank-seconds of waiting beyond `baseline`'s
    /// (the same case without late, slow or failed ranks).
    pub fn extra_wait(&self, baseline: &Clock) -> f64 {
        self.total_wait() - baseline.total_wait()
    }

    /// The failed ranks with their failure times, in rank order.
    pub fn failed(&self) -> Vec<(usize, f64)> {
        self.ranks
            .iter()
            .enumerate()
            .filter_map(|(r, c)| c.failed_at.map(|t| (r, t)))
            .collect()
    }

    /// Marks the critical path: from the message that ended last, back
    /// through the messages whose ends let each one start.
    pub(crate) fn mark_critical(&mut self) {
        let last = self
            .messages
            .iter()
            .enumerate()
            .filter(|(_, m)| m.delivered)
            .max_by(|a, b| a.1.done.total_cmp(&b.1.done))
            .map(|(i, _)| i);
        let mut at = last;
        let mut steps = 0;
        while let Some(i) = at {
            if steps > self.messages.len() {
                break; // a cycle would be a bug; never loop forever
            }
            steps += 1;
            let Some(m) = self.messages.get_mut(i) else {
                break;
            };
            m.critical = true;
            at = m.pred;
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
