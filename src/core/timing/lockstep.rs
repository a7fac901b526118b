//! Lock-step timing: every round starts when the last rank is ready (round
//! 0 included), as if all ranks met at a barrier after every round. This is
//! the rule behind every closed form of the course.
//!
//! # The round rule
//! A round lasts as long as its slowest message. A message costs
//!
//! `α(class) + max over the resources it uses of (bytes on that resource this round × β of the resource)`
//!
//! plus `bytes × γ` when it is a reduce ([`super::resources`] lists the
//! resources: ports on the flat topology and inside nodes, NIC directions
//! and the rack core between nodes). A zero-byte message still pays α; a
//! round without messages costs 0.
//!
//! On the flat topology a message alone on both its ports costs
//! `α + bytes·(β + γ)`, the floating-point expression of the first batch,
//! so every schedule whose rounds give a rank at most one send and one
//! receive (ring, tree, recursive doubling and halving, Rabenseifner,
//! naive root, the ring halves, the hierarchical and multi-lane
//! all-reduces) keeps its executed time bit for bit. Rack-aware and
//! FlexReduce rounds, where one rank sends or receives several messages,
//! pay for the bytes that share a port.

use super::clock::{Blocked, Clock, ClockError, Faults, Message, Mode, Outcome, RankClock};
use super::resources::Network;
use std::borrow::Borrow;

use crate::core::schedule::{Op, Round, Schedule, Transfer};
use crate::core::topology::{LinkClass, Topology};

/// Rounds grouped by their largest message: `count` rounds whose biggest
/// transfer moves `bytes` bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundGroup {
    /// How many rounds share this largest message size.
    pub count: usize,
    /// Largest message of each of those rounds, bytes.
    pub bytes: u64,
}

/// Per-round scratch: the bytes on every resource, and which ids to clear.
struct Loads {
    bytes: Vec<u64>,
    touched: Vec<u32>,
}

impl Loads {
    fn new(net: &Network<'_>) -> Self {
        Loads {
            bytes: vec![0; net.len()],
            touched: Vec::new(),
        }
    }

    fn fill(&mut self, net: &Network<'_>, round: &Round, eb: u64) {
        for &id in &self.touched {
            self.bytes[id as usize] = 0;
        }
        self.touched.clear();
        for t in &round.transfers {
            let b = t.bytes(eb);
            for &id in net.route(t.src, t.dst).ids() {
                let slot = &mut self.bytes[id as usize];
                if *slot == 0 {
                    self.touched.push(id);
                }
                *slot += b;
            }
        }
    }
}

/// The cost of every message of `round`, seconds, in transfer order (the
/// rule in the module doc), after `loads` has been filled for this round.
fn message_costs<'r>(
    net: &'r Network<'_>,
    round: &'r Round,
    eb: u64,
    gamma: f64,
    loads: &'r Loads,
) -> impl Iterator<Item = f64> + 'r {
    round.transfers.iter().map(move |t| {
        let bytes = t.bytes(eb);
        let b = bytes as f64;
        let g = if t.op == Op::Reduce { gamma } else { 0.0 };
        let route = net.route(t.src, t.dst);
        let ids = route.ids();
        let alone = ids.iter().all(|&id| loads.bytes[id as usize] == bytes);
        let cost = if route.class == LinkClass::Flat
            && alone
            && !net.is_slow(t.src)
            && !net.is_slow(t.dst)
        {
            // Exactly the first batch's expression (bit for bit).
            route.alpha + b * (route.beta + g)
        } else {
            let wire = ids
                .iter()
                .map(|&id| loads.bytes[id as usize] as f64 * net.beta(id))
                .fold(b * route.cap_beta, f64::max);
            route.alpha + wire + b * g
        };
        // Without a protocol nothing is added (every time stays bit for bit).
        match net.protocol_extra(bytes, route.alpha) {
            Some(h) => cost + h,
            None => cost,
        }
    })
}

/// Time of every round of `schedule` on `net`, seconds (the rule in the
/// module doc). `gamma` is the reduction cost, seconds per byte (0 to ignore).
pub fn round_times_on(schedule: &Schedule, net: &Network<'_>, gamma: f64) -> Vec<f64> {
    let eb = schedule.elem_bytes;
    let mut loads = Loads::new(net);
    schedule
        .rounds
        .iter()
        .map(|round| {
            loads.fill(net, round, eb);
            message_costs(net, round, eb, gamma, &loads).fold(0.0, f64::max)
        })
        .collect()
}

/// Time of every round of `schedule` on `topo` at full speed, seconds
/// ([`round_times_on`]). On a flat topology built with
/// [`Topology::flat`]`(p, α, β)` it equals
/// [`crate::core::timing::executed_round_times`] with the same α, β, γ.
pub fn round_times(schedule: &Schedule, topo: &Topology, gamma: f64) -> Vec<f64> {
    round_times_on(schedule, &Network::new(topo, &[]), gamma)
}

/// Total lock-step time of `schedule` on `topo`, seconds: the sum of
/// [`round_times`].
pub fn executed_time_on(schedule: &Schedule, topo: &Topology, gamma: f64) -> f64 {
    round_times(schedule, topo, gamma).iter().sum()
}

/// Total α–β time of rounds known only by their largest message
/// (`round_max_bytes[i]`, bytes) and message count (`transfers[i]`): what
/// the ring view's numbers-only path keeps
/// ([`crate::core::execute::Counts`]). A round without messages costs 0.
/// Equal to [`crate::core::timing::executed_time`] of the schedule counted
/// when every rank sends and receives at most one message a round.
pub fn rounds_time(round_max_bytes: &[u64], transfers: &[usize], alpha: f64, beta: f64) -> f64 {
    round_max_bytes
        .iter()
        .zip(transfers)
        .map(|(&b, &k)| if k == 0 { 0.0 } else { alpha + b as f64 * beta })
        .sum()
}

/// Rounds grouped by their largest message, in first-seen order
/// ([`crate::core::execute::Counts::breakdown`]).
pub fn rounds_breakdown(round_max_bytes: &[u64]) -> Vec<RoundGroup> {
    let mut groups: Vec<RoundGroup> = Vec::new();
    for &bytes in round_max_bytes {
        match groups.iter_mut().find(|g| g.bytes == bytes) {
            Some(g) => g.count += 1,
            None => groups.push(RoundGroup { count: 1, bytes }),
        }
    }
    groups
}

/// The lock-step clock of `schedule` on `net`: round `r` starts when round
/// `r − 1` has ended everywhere (round 0 when the last rank has entered);
/// every message of a round starts at the round's start and takes its cost
/// under the round rule. A rank that fails before its last message has
/// ended stops the run at the end of the round in progress: its unfinished
/// messages are cut at the moment it fails, and the barrier after that
/// round never completes, so every other rank waits for it.
///
/// Without faults, [`Clock::end`] is [`executed_time_on`] bit for bit (the
/// round times added in round order).
///
/// # Errors
/// [`ClockError`] when a fault names a rank outside the schedule or has a
/// bad value ([`Faults::check`]).
pub fn clock(
    schedule: &Schedule,
    net: &Network<'_>,
    gamma: f64,
    faults: &Faults,
    keep_events: bool,
) -> Result<Clock, ClockError> {
    clock_rounds(
        schedule.p,
        schedule.elem_bytes,
        &schedule.rounds,
        net,
        gamma,
        faults,
        keep_events,
    )
}

/// [`clock`] of the schedule on `p` ranks whose rounds are `rounds`, in
/// order (`elem_bytes` bytes per element), read once and never held
/// unless a rank fails (the rule for a failure after a rank's last
/// message needs the whole schedule first).
///
/// # Errors
/// As [`clock`], and [`ClockError::Malformed`] for a transfer outside
/// `0..p` or from a rank to itself.
pub fn clock_rounds<R: Borrow<Round>>(
    p: usize,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = R>,
    net: &Network<'_>,
    gamma: f64,
    faults: &Faults,
    keep_events: bool,
) -> Result<Clock, ClockError> {
    faults.check(p)?;
    let late = faults.late_of(p);
    let t0 = late.iter().copied().fold(0.0, f64::max);
    if faults.fail.is_empty() {
        return run_rounds(
            p,
            elem_bytes,
            rounds,
            net,
            gamma,
            faults,
            keep_events,
            vec![None; p],
        );
    }
    let held: Vec<Round> = rounds.into_iter().map(|r| r.borrow().clone()).collect();
    check_transfers(p, net, &held)?;
    let last_end = last_message_end(p, elem_bytes, &held, net, gamma, t0);
    // A failure after a rank's last message changes nothing.
    let fail: Vec<Option<f64>> = faults
        .fail_of(p)
        .iter()
        .zip(&last_end)
        .map(|(f, &last)| f.filter(|&t| t < last))
        .collect();
    run_rounds(p, elem_bytes, &held, net, gamma, faults, keep_events, fail)
}

fn malformed(p: usize, t: &Transfer) -> ClockError {
    ClockError::Malformed(format!(
        "the schedule sends from rank {} to rank {} on {} ranks",
        t.src, t.dst, p
    ))
}

fn bad(p: usize, net: &Network<'_>, t: &Transfer) -> bool {
    t.src >= p || t.dst >= p || t.src == t.dst || p > net.p()
}

fn check_transfers(p: usize, net: &Network<'_>, rounds: &[Round]) -> Result<(), ClockError> {
    match rounds
        .iter()
        .flat_map(|r| &r.transfers)
        .find(|t| bad(p, net, t))
    {
        Some(t) => Err(malformed(p, t)),
        None => Ok(()),
    }
}

/// The lock-step run itself; `fail[r]` is rank `r`'s failure when it
/// counts (before its last message ends).
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
fn run_rounds<R: Borrow<Round>>(
    p: usize,
    eb: u64,
    rounds: impl IntoIterator<Item = R>,
    net: &Network<'_>,
    gamma: f64,
    faults: &Faults,
    keep_events: bool,
    fail: Vec<Option<f64>>,
) -> Result<Clock, ClockError> {
    let late = faults.late_of(p);
    let t0 = late.iter().copied().fold(0.0, f64::max);
    let stop = fail.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let mut ranks: Vec<RankClock> = late.iter().map(|&e| RankClock::entered_at(e)).collect();
    let mut messages = Vec::new();
    let mut loads = Loads::new(net);
    let mut start = t0;
    let mut stalled_in: Option<usize> = None;
    let mut prev_critical: Option<usize> = None;
    let mut last_done = t0;
    let mut message_count = 0usize;
    let mut rounds = rounds.into_iter().enumerate();
    let mut costs: Vec<f64> = Vec::new();
    for (r, round) in rounds.by_ref() {
        let round = round.borrow();
        if let Some(t) = round.transfers.iter().find(|t| bad(p, net, t)) {
            return Err(malformed(p, t));
        }
        message_count += round.transfers.len();
        if stop < start {
            stalled_in = Some(r);
            break;
        }
        loads.fill(net, round, eb);
        costs.clear();
        costs.extend(message_costs(net, round, eb, gamma, &loads));
        let round_time = costs.iter().copied().fold(0.0, f64::max);
        let mut longest: Option<(usize, f64)> = None;
        for (t, &cost) in round.transfers.iter().zip(&costs) {
            let dies = [t.src, t.dst]
                .iter()
                .filter_map(|&x| fail.get(x).copied().flatten())
                .fold(f64::INFINITY, f64::min);
            if dies <= start {
                continue; // an end is already dead: the message never starts
            }
            let delivered = dies >= start + cost;
            let done = if delivered { start + cost } else { dies };
            last_done = last_done.max(done);
            for x in [t.src, t.dst] {
                if let Some(rc) = ranks.get_mut(x) {
                    rc.note_busy(start, done);
                }
            }
            if delivered {
                if let Some(rc) = ranks.get_mut(t.src) {
                    rc.sent += t.bytes(eb);
                }
                if let Some(rc) = ranks.get_mut(t.dst) {
                    rc.received += t.bytes(eb);
                }
                if longest.is_none_or(|(_, c)| cost > c) {
                    longest = Some((messages.len(), cost));
                }
            }
            if keep_events {
                let g = if t.op == Op::Reduce { gamma } else { 0.0 };
                let route = net.route(t.src, t.dst);
                let arrival = if delivered {
                    done - t.bytes(eb) as f64 * g
                } else {
                    done
                };
                messages.push(Message {
                    round: r,
                    piece: 0,
                    src: t.src,
                    dst: t.dst,
                    bytes: t.bytes(eb),
                    reduce: t.op == Op::Reduce,
                    class: route.class,
                    start,
                    flow_start: (start
                        + route.alpha
                        + net.protocol_extra(t.bytes(eb), route.alpha).unwrap_or(0.0))
                    .min(done),
                    arrival,
                    done,
                    delivered,
                    critical: false,
                    pred: prev_critical,
                });
            }
        }
        if keep_events {
            // the message that set the round's length gates the next round
            prev_critical = longest.map(|(i, _)| i).or(prev_critical);
        }
        if stop < start + round_time {
            stalled_in = Some(r);
            break;
        }
        start += round_time;
    }
    // the rounds after a stall are only counted (and checked)
    for (_, round) in rounds {
        let round = round.borrow();
        if let Some(t) = round.transfers.iter().find(|t| bad(p, net, t)) {
            return Err(malformed(p, t));
        }
        message_count += round.transfers.len();
    }
    let (outcome, end) = match stalled_in {
        None => (Outcome::Complete, start),
        Some(round) => {
            let failed: Vec<usize> = (0..p).filter(|&r| fail[r].is_some()).collect();
            let blocked = (0..p)
                .filter(|r| fail[*r].is_none())
                .map(|rank| Blocked {
                    rank,
                    round,
                    piece: 0,
                    waits_for: failed.clone(),
                })
                .collect();
            let at = last_done.max(stop);
            (Outcome::Stalled { at, blocked }, at)
        }
    };
    let failed_at = faults.fail_of(p);
    for (r, rc) in ranks.iter_mut().enumerate() {
        rc.failed_at = failed_at[r];
        rc.finish = match outcome {
            Outcome::Complete => Some(rc.busy_end().max(rc.entered)),
            Outcome::Stalled { .. } => None,
        };
        let until = rc.finish.or(fail[r]).unwrap_or(end);
        rc.close(until);
    }
    let mut clock = Clock {
        mode: Mode::LockStep,
        p,
        segments: 1,
        messages,
        ranks,
        outcome,
        end,
        message_count,
    };
    clock.mark_critical();
    Ok(clock)
}

/// When each rank's last message ends in the fault-free lock-step run
/// starting at `t0` (`t0` for a rank without messages), seconds.
fn last_message_end(
    p: usize,
    eb: u64,
    rounds: &[Round],
    net: &Network<'_>,
    gamma: f64,
    t0: f64,
) -> Vec<f64> {
    let mut loads = Loads::new(net);
    let mut last = vec![t0; p];
    let mut start = t0;
    for round in rounds {
        loads.fill(net, round, eb);
        let mut longest = 0.0f64;
        for (t, cost) in round
            .transfers
            .iter()
            .zip(message_costs(net, round, eb, gamma, &loads))
        {
            for x in [t.src, t.dst] {
                if let Some(l) = last.get_mut(x) {
                    *l = l.max(start + cost);
                }
            }
            longest = longest.max(cost);
        }
        start += longest;
    }
    last
}
