//! Counting without executing: the byte counters of a schedule from its
//! transfers alone ([`Counts`], [`count_only`], [`count_rounds`]), and the
//! counters of a streamed run ([`StreamCounts`], [`count_streamed`]).

use std::ops::Range;

use super::grid::cumulative;
use super::stream::{add_transfer, malformed, round_bytes, Tally};
use super::{validate, MalformedSchedule, Verification};
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

/// An all-reduce executed round by round on real per-rank values without ever
/// holding its whole schedule (see
/// [`execute_streamed`](super::execute_streamed)): the numbers-only mode of
/// large p, e.g. the ring at p = 1024, whose 2 million transfers take about
/// 110 MB as a [`Schedule`]. Contributor sets are not tracked (as with
/// `keep_states = false`), so only value mismatches are reported. The per-rank
/// byte counts are kept every [`CHECKPOINT_ROUNDS`] rounds ([`StreamCounts`]),
/// not as 2 046 rows of 1 024 ranks.
#[derive(Clone, Debug, PartialEq)]
pub struct Streamed {
    /// The bytes per rank and round, counted as the rounds ran (the same
    /// counters [`count_streamed`] gives without values).
    pub counts: StreamCounts,
    /// Element range of each segment.
    pub segments: Vec<Range<u64>>,
    /// `initial[rank][segment]`: the input (as `Trace::states[0].values`).
    pub initial: Vec<Vec<f64>>,
    /// `last[rank][segment]`: the buffers after the last round.
    pub last: Vec<Vec<f64>>,
    /// Element-wise sum of the inputs, per segment.
    pub expected: Vec<f64>,
    /// The check of the final buffers against `expected`.
    pub verification: Verification,
}

impl Streamed {
    /// The final buffers divided by `p`, as
    /// [`Trace::final_mean`](super::Trace::final_mean).
    pub fn final_mean(&self) -> Vec<Vec<f64>> {
        let p = self.counts.p as f64;
        self.last
            .iter()
            .map(|row| row.iter().map(|v| v / p).collect())
            .collect()
    }
}

/// Rounds between two checkpoints of [`StreamCounts`]: the bytes after any
/// round are a checkpoint plus at most this many rounds replayed.
pub const CHECKPOINT_ROUNDS: usize = 32;

/// The bytes of rounds produced one at a time, counted from their transfers
/// without executing any value ([`count_streamed`]): the counters of a
/// [`Streamed`] run (tested equal) for a page that does not yet show the
/// final values, e.g. the ring view at p = 1024 before its last step.
///
/// Per-rank totals are kept only every [`CHECKPOINT_ROUNDS`] rounds: a row
/// per round would take 2 046 rows of 1 024 ranks for the ring at p = 1024
/// (33 MB for both counters, and most of the counting time). The totals
/// after any other round add the rounds since the last checkpoint, which
/// the caller regenerates ([`StreamCounts::sent_after`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StreamCounts {
    /// Number of ranks.
    pub p: usize,
    /// Tensor length, elements.
    pub n: u64,
    /// Bytes per element.
    pub elem_bytes: u64,
    /// `sent_at[k][rank]`: bytes `rank` has sent after the first
    /// `k · CHECKPOINT_ROUNDS` rounds (`sent_at[0]` is all zero; the last
    /// entry is after every round, even when that is not a multiple).
    pub sent_at: Vec<Vec<u64>>,
    /// `recv_at[k][rank]`: bytes received, at the same checkpoints.
    pub recv_at: Vec<Vec<u64>>,
    /// `round_max_bytes[round]`: the round's largest message, bytes.
    pub round_max_bytes: Vec<u64>,
    /// `transfers[round]`: number of messages in the round.
    pub transfers: Vec<usize>,
}

impl StreamCounts {
    /// Number of rounds counted.
    pub fn num_rounds(&self) -> usize {
        self.transfers.len()
    }

    /// Rounds grouped by their largest message, as [`Counts::breakdown`].
    pub fn breakdown(&self) -> Vec<crate::core::timing::RoundGroup> {
        rounds_breakdown(&self.round_max_bytes)
    }

    /// Bytes each rank has sent after the first `rounds` rounds (clamped to
    /// the rounds counted): the checkpoint at or before `rounds`, plus the
    /// rounds after it, which `round_at(i)` must regenerate as the `i`-th
    /// (0-based) of the rounds that were counted. At most
    /// [`CHECKPOINT_ROUNDS`] − 1 rounds are regenerated. A round that
    /// `round_at` cannot give, or a transfer outside the `p` ranks, adds
    /// nothing.
    pub fn sent_after(&self, rounds: usize, round_at: impl Fn(usize) -> Option<Round>) -> Vec<u64> {
        self.after(rounds, round_at).0
    }

    /// Bytes each rank has received after the first `rounds` rounds, as
    /// [`StreamCounts::sent_after`].
    pub fn recv_after(&self, rounds: usize, round_at: impl Fn(usize) -> Option<Round>) -> Vec<u64> {
        self.after(rounds, round_at).1
    }

    /// `(sent, recv)` per rank after the first `rounds` rounds.
    fn after(
        &self,
        rounds: usize,
        round_at: impl Fn(usize) -> Option<Round>,
    ) -> (Vec<u64>, Vec<u64>) {
        let rounds = rounds.min(self.num_rounds());
        if rounds == self.num_rounds() {
            if let (Some(s), Some(r)) = (self.sent_at.last(), self.recv_at.last()) {
                return (s.clone(), r.clone());
            }
        }
        let k = (rounds / CHECKPOINT_ROUNDS).min(self.sent_at.len().saturating_sub(1));
        let zeros = || vec![0; self.p];
        let mut sent = self.sent_at.get(k).cloned().unwrap_or_else(zeros);
        let mut recv = self.recv_at.get(k).cloned().unwrap_or_else(zeros);
        let mut max = 0;
        for round in (k * CHECKPOINT_ROUNDS..rounds).filter_map(&round_at) {
            for t in &round.transfers {
                add_transfer(&mut sent, &mut recv, &mut max, t, self.elem_bytes);
            }
        }
        (sent, recv)
    }

    /// Total α–β time, seconds, as [`Counts::executed_time`].
    pub fn executed_time(&self, alpha: f64, beta: f64) -> f64 {
        rounds_time(&self.round_max_bytes, &self.transfers, alpha, beta)
    }
}

/// Counts the bytes per rank of the rounds `rounds` yields one at a time
/// (O(transfers) additions, no buffers, nothing verified): the counters of
/// [`execute_streamed`](super::execute_streamed) on the same rounds without its
/// values.
///
/// # Errors
/// [`MalformedSchedule`] when a transfer names a rank `≥ p` or a range
/// outside `0..n`.
pub fn count_streamed(
    p: usize,
    n: u64,
    elem_bytes: u64,
    rounds: impl IntoIterator<Item = Round>,
) -> Result<StreamCounts, MalformedSchedule> {
    let mut tally = Tally::new(p, n, elem_bytes);
    for (i, round) in rounds.into_iter().enumerate() {
        tally.count_round(i, &round)?;
    }
    Ok(tally.finish())
}
