//! Counting without executing: the byte counters of a schedule from its
//! transfers alone ([`Counts`], [`count_only`], [`count_rounds`]).

use super::grid::cumulative;
use super::stream::{malformed, round_bytes};
use super::{validate, MalformedSchedule};
use crate::core::schedule::{Round, Schedule};
use crate::core::timing::lockstep::{rounds_breakdown, rounds_time};

/// What a schedule moves, counted from its transfers alone: no buffer values
/// are executed and nothing is verified. This is the numbers-only mode for
/// large p (a ring at p = 1024 has 2 046 rounds and about 2 million transfers):
/// the byte counters are the same sums [`execute`](super::execute) records in
/// [`Trace::sent`](super::Trace::sent) and [`Trace::recv`](super::Trace::recv)
/// (tested equal), without the per-segment values, the contributor sets or the
/// verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Number of ranks.
    pub p: usize,
    /// `sent[round][rank]`: bytes sent in that round.
    pub sent: Vec<Vec<u64>>,
    /// `recv[round][rank]`: bytes received in that round.
    pub recv: Vec<Vec<u64>>,
    /// `round_max_bytes[round]`: the largest single message of the round,
    /// bytes (0 for an empty round); the β term of that round's α–β time.
    pub round_max_bytes: Vec<u64>,
    /// `transfers[round]`: number of messages in the round.
    pub transfers: Vec<usize>,
}

impl Counts {
    /// Number of rounds counted.
    pub fn num_rounds(&self) -> usize {
        self.sent.len()
    }

    /// Bytes each rank has sent after the first `rounds` rounds (as
    /// [`Trace::sent_after`](super::Trace::sent_after)).
    pub fn sent_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.sent, rounds, self.p)
    }

    /// Bytes each rank has received after the first `rounds` rounds (as
    /// [`Trace::recv_after`](super::Trace::recv_after)).
    pub fn recv_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.recv, rounds, self.p)
    }

    /// Total α–β time (γ = 0), seconds: each round costs α + (its largest
    /// message) × β, an empty round nothing. Bit for bit equal to
    /// [`crate::core::timing::executed_time`] of the schedule counted (tested),
    /// for `beta ≥ 0`.
    pub fn executed_time(&self, alpha: f64, beta: f64) -> f64 {
        rounds_time(&self.round_max_bytes, &self.transfers, alpha, beta)
    }

    /// Rounds grouped by their largest message, as
    /// [`crate::core::timing::breakdown`] of the schedule counted.
    pub fn breakdown(&self) -> Vec<crate::core::timing::RoundGroup> {
        rounds_breakdown(&self.round_max_bytes)
    }

    /// Largest number of bytes any rank sends over the whole schedule (as
    /// [`Trace::max_sent_per_rank`](super::Trace::max_sent_per_rank)).
    pub fn max_sent_per_rank(&self) -> u64 {
        self.sent_after(self.num_rounds())
            .into_iter()
            .max()
            .unwrap_or(0)
    }
}

/// Counts the bytes of `schedule` per rank and round without executing it:
/// O(transfers) additions, no buffers (see [`Counts`]). Call it instead of
/// [`execute`](super::execute) when nothing is drawn; the result is marked "not
/// executed" by its type (there is no verification to show).
///
/// # Errors
/// [`MalformedSchedule`] as for [`execute`](super::execute).
pub fn count_only(schedule: &Schedule) -> Result<Counts, MalformedSchedule> {
    validate(schedule)?;
    let p = schedule.p;
    let rounds = schedule.rounds.len();
    let mut counts = Counts {
        p,
        sent: Vec::with_capacity(rounds),
        recv: Vec::with_capacity(rounds),
        round_max_bytes: Vec::with_capacity(rounds),
        transfers: Vec::with_capacity(rounds),
    };
    for round in &schedule.rounds {
        let (s_row, r_row, max) = round_bytes(round, p, schedule.elem_bytes);
        counts.sent.push(s_row);
        counts.recv.push(r_row);
        counts.round_max_bytes.push(max);
        counts.transfers.push(round.transfers.len());
    }
    Ok(counts)
}

/// As [`count_only`] for rounds produced one at a time (e.g.
/// [`crate::core::schedule::ring::ring_all_reduce_rounds`]), so the whole
/// schedule is never held: at p = 1024 the ring's 2 million transfers take
/// about 110 MB as a [`Schedule`].
///
/// # Errors
/// [`MalformedSchedule`] when a transfer names a rank `≥ p` or a range
/// outside `0..n`.
pub fn count_rounds(
    p: usize,
    n: u64,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = Round>,
) -> Result<Counts, MalformedSchedule> {
    let mut counts = Counts {
        p,
        sent: Vec::new(),
        recv: Vec::new(),
        round_max_bytes: Vec::new(),
        transfers: Vec::new(),
    };
    for (i, round) in rounds.into_iter().enumerate() {
        if let Some(t) = round
            .transfers
            .iter()
            .find(|t| t.src >= p || t.dst >= p || t.range.start > t.range.end || t.range.end > n)
        {
            return Err(malformed(i, t, p, n));
        }
        let (s_row, r_row, max) = round_bytes(&round, p, elem_bytes);
        counts.sent.push(s_row);
        counts.recv.push(r_row);
        counts.round_max_bytes.push(max);
        counts.transfers.push(round.transfers.len());
    }
    Ok(counts)
}
