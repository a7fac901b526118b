//! Streamed execution: a schedule run round by round without holding every
//! state ([`execute_streamed`]), for the ring's values at large p, and the
//! counters of a streamed run ([`StreamCounts`], [`count_streamed`]).

use std::ops::Range;

use super::{InitFn, MalformedSchedule, Mismatch, Verification};
use crate::core::schedule::{Op, Round};
use crate::core::timing::lockstep::{rounds_breakdown, rounds_time};

/// The error of round `i`'s transfer `t` outside `p` ranks × `n` elements.
pub(super) fn malformed(
    i: usize,
    t: &crate::core::schedule::Transfer,
    p: usize,
    n: u64,
) -> MalformedSchedule {
    MalformedSchedule(format!(
        "round {i}: transfer {} → {} of {:?} outside {p} ranks × {n} elements",
        t.src, t.dst, t.range
    ))
}

/// Adds transfer `t`'s bytes (`elem_bytes` each element) to its sender's
/// total in `sent`, its receiver's in `recv`, and to the largest message
/// `max`. Adds nothing and returns false when a rank is outside the totals.
#[inline]
pub(super) fn add_transfer(
    sent: &mut [u64],
    recv: &mut [u64],
    max: &mut u64,
    t: &crate::core::schedule::Transfer,
    elem_bytes: u64,
) -> bool {
    let (Some(s), Some(r)) = (sent.get_mut(t.src), recv.get_mut(t.dst)) else {
        return false;
    };
    let bytes = t.bytes(elem_bytes);
    *s += bytes;
    *r += bytes;
    *max = (*max).max(bytes);
    true
}

/// The counters of rounds run one at a time ([`count_streamed`],
/// [`execute_streamed`]): running totals per rank, copied into
/// [`StreamCounts`] every [`CHECKPOINT_ROUNDS`] rounds, and each round's
/// largest message.
pub(super) struct Tally {
    counts: StreamCounts,
    sent: Vec<u64>,
    recv: Vec<u64>,
    max: u64,
}

impl Tally {
    pub(super) fn new(p: usize, n: u64, elem_bytes: u64) -> Self {
        Tally {
            counts: StreamCounts {
                p,
                n,
                elem_bytes,
                sent_at: vec![vec![0; p]],
                recv_at: vec![vec![0; p]],
                round_max_bytes: Vec::new(),
                transfers: Vec::new(),
            },
            sent: vec![0; p],
            recv: vec![0; p],
            max: 0,
        }
    }

    /// Validates and counts round `i`, and closes it. Not inlined, on
    /// purpose: the browser first runs WebAssembly from a quick baseline
    /// compile and swaps in optimised code only for later calls of a
    /// function, so a counting loop of 2 046 calls speeds up after the first
    /// few, where one long inlined loop would not.
    ///
    /// # Errors
    /// [`MalformedSchedule`] when a transfer names a rank `≥ p` or a range
    /// outside `0..n`.
    #[inline(never)]
    pub(super) fn count_round(&mut self, i: usize, round: &Round) -> Result<(), MalformedSchedule> {
        let (p, n, eb) = (self.counts.p, self.counts.n, self.counts.elem_bytes);
        // the totals as local slices and the round's largest message as a
        // local: the loop then keeps them in registers (2 million
        // transfers at p = 1024)
        let (sent, recv) = (&mut self.sent[..], &mut self.recv[..]);
        let mut max = self.max;
        for t in &round.transfers {
            let in_range = t.range.start <= t.range.end && t.range.end <= n;
            if !(in_range && add_transfer(sent, recv, &mut max, t, eb)) {
                return Err(malformed(i, t, p, n));
            }
        }
        self.max = max;
        self.end_round(round.transfers.len());
        Ok(())
    }

    /// Counts one validated transfer of this round.
    #[inline]
    pub(super) fn add(&mut self, t: &crate::core::schedule::Transfer) {
        let eb = self.counts.elem_bytes;
        add_transfer(&mut self.sent, &mut self.recv, &mut self.max, t, eb);
    }

    /// Closes the round of `transfers` messages and starts the next.
    pub(super) fn end_round(&mut self, transfers: usize) {
        self.counts.round_max_bytes.push(self.max);
        self.counts.transfers.push(transfers);
        self.max = 0;
        if self.counts.num_rounds().is_multiple_of(CHECKPOINT_ROUNDS) {
            self.counts.sent_at.push(self.sent.clone());
            self.counts.recv_at.push(self.recv.clone());
        }
    }

    /// The counters, with the totals after the last round as the last
    /// checkpoint.
    pub(super) fn finish(mut self) -> StreamCounts {
        if !self.counts.num_rounds().is_multiple_of(CHECKPOINT_ROUNDS) {
            self.counts.sent_at.push(self.sent);
            self.counts.recv_at.push(self.recv);
        }
        self.counts
    }
}

/// Executes the all-reduce whose rounds `rounds` yields one at a time (e.g.
/// [`crate::core::schedule::ring::ring_all_reduce_rounds`]) on `p` buffers of
/// `n` elements initialised by `init`, with the same semantics as
/// [`execute`](super::execute) (every transfer reads the state from before its
/// round) and the same per-segment values: `cuts` are the segment bounds, which
/// every transfer range must start and end on (for a ring: the chunk bounds
/// `chunk_range(n, p, c)`, and 0 and `n`). Each round is dropped once it ran,
/// so memory is O(p · segments + p · rounds) instead of O(transfers). The
/// counters, values and mismatches equal those of
/// `execute(.., keep_states: false)` on the whole schedule (tested).
///
/// # Errors
/// [`MalformedSchedule`] when a transfer names a rank `≥ p`, a range outside
/// `0..n`, or a range end that is not one of `cuts`.
pub fn execute_streamed(
    p: usize,
    n: u64,
    elem_bytes: u64,
    cuts: &[u64],
    rounds: impl IntoIterator<Item = Round>,
    init: InitFn<'_>,
) -> Result<Streamed, MalformedSchedule> {
    let mut bounds: Vec<u64> = cuts.iter().copied().chain([0, n]).collect();
    crate::core::order::sort_u64(&mut bounds);
    bounds.dedup();
    if bounds.last().is_some_and(|&b| b > n) {
        return Err(MalformedSchedule(format!("a cut lies beyond n = {n}")));
    }
    let segments: Vec<Range<u64>> = bounds.windows(2).map(|w| w[0]..w[1]).collect();
    let mut values: Vec<Vec<f64>> = (0..p)
        .map(|r| segments.iter().map(|g| init(r, g.start)).collect())
        .collect();
    let initial = values.clone();
    // Each segment's sum over the ranks in rank order, added row by row
    // (one pass over memory instead of a strided walk per segment); -0.0
    // is the start of `Iterator::sum` for f64, so the sums are the same
    // bit for bit.
    let mut expected = vec![-0.0; segments.len()];
    for row in &values {
        for (e, v) in expected.iter_mut().zip(row) {
            *e += v;
        }
    }
    let mut tally = Tally::new(p, n, elem_bytes);
    // (destination, segment, op, value), read before any is applied
    let mut incoming: Vec<(usize, usize, Op, f64)> = Vec::new();
    for (i, round) in rounds.into_iter().enumerate() {
        incoming.clear();
        // index of the previous range's end: consecutive transfers often
        // continue where the last one stopped (a ring's chunks r, r + 1, …)
        let mut hint = 0;
        for t in &round.transfers {
            // the cut index of `x`, trying the hint and the next cut first;
            // a range end that is not a cut fails the search: malformed
            let find = |x: u64, guess: usize| -> Result<usize, usize> {
                if bounds.get(guess) == Some(&x) {
                    Ok(guess)
                } else if bounds.get(guess + 1) == Some(&x) {
                    Ok(guess + 1)
                } else {
                    bounds.binary_search(&x)
                }
            };
            let lo = find(t.range.start, hint);
            let hi = lo.map_or(Err(0), |lo| find(t.range.end, lo));
            let span = match (lo, hi) {
                (Ok(lo), Ok(hi)) if t.src < p && t.dst < p && lo <= hi => lo..hi,
                _ => {
                    return Err(MalformedSchedule(format!(
                        "round {i}: transfer {} → {} of {:?} outside {p} ranks × {n} elements or off the cuts",
                        t.src, t.dst, t.range
                    )))
                }
            };
            hint = span.end;
            tally.add(t);
            for si in span {
                incoming.push((t.dst, si, t.op, values[t.src][si]));
            }
        }
        for &(dst, si, op, v) in &incoming {
            match op {
                Op::Reduce => values[dst][si] += v,
                Op::Copy => values[dst][si] = v,
            }
        }
        tally.end_round(round.transfers.len());
    }
    let tolerance = |x: f64| 1e-9 * x.abs().max(1.0);
    let mut mismatches = Vec::new();
    for (r, row) in values.iter().enumerate() {
        for (si, seg) in segments.iter().enumerate() {
            if seg.start < seg.end && (row[si] - expected[si]).abs() > tolerance(expected[si]) {
                mismatches.push(Mismatch {
                    rank: r,
                    range: seg.clone(),
                    expected: expected[si],
                    got: row[si],
                });
            }
        }
    }
    Ok(Streamed {
        counts: tally.finish(),
        segments,
        initial,
        last: values,
        expected,
        verification: Verification {
            mismatches,
            double_counts: Vec::new(),
        },
    })
}

/// `(sent[rank], recv[rank], largest message)` of one validated round, bytes.
pub(super) fn round_bytes(round: &Round, p: usize, elem_bytes: u64) -> (Vec<u64>, Vec<u64>, u64) {
    let mut s_row = vec![0u64; p];
    let mut r_row = vec![0u64; p];
    let mut max = 0;
    for t in &round.transfers {
        let bytes = t.bytes(elem_bytes);
        if let Some(s) = s_row.get_mut(t.src) {
            *s += bytes;
        }
        if let Some(r) = r_row.get_mut(t.dst) {
            *r += bytes;
        }
        max = max.max(bytes);
    }
    (s_row, r_row, max)
}

/// An all-reduce executed round by round on real per-rank values without ever
/// holding its whole schedule (see
/// [`execute_streamed`](super::execute_streamed)): the numbers-only mode of
/// large p, e.g. the ring at p = 1024, whose 2 million transfers take about
/// 110 MB as a [`Schedule`](crate::core::schedule::Schedule). Contributor sets are not tracked (as with
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

    /// Rounds grouped by their largest message, as [`Counts::breakdown`](crate::core::execute::count::Counts::breakdown).
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

    /// Total α–β time, seconds, as [`Counts::executed_time`](crate::core::execute::count::Counts::executed_time).
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
