//! Execute a [`Schedule`] on real per-rank buffers and record a [`Trace`].
//!
//! The tensor axis is compressed into *segments*: the maximal element ranges
//! that every transfer moves as a whole (the cut points are all transfer range
//! ends). Each rank keeps one `f64` per segment, so executing is exact for any
//! element count, including `n` = 25 million (100 MB of f32), while the state
//! stays small enough to keep one snapshot per round.
//!
//! Every transfer of a round reads the state from before that round. `Reduce`
//! adds values and unites the sets of contributing ranks; `Copy` overwrites
//! both. A `Reduce` whose contributor sets overlap is a double count and is
//! reported; it is exactly the "all-gather re-adds" mistake.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use super::schedule::{Collective, Op, Phase, Round, Schedule};
use super::timing::lockstep::{rounds_breakdown, rounds_time};
use super::units::format_decimal;

/// A set of ranks, as a bitset over `0..p`. Ranks 0–63 live inline, so for
/// p ≤ 64 a set never allocates (cheap per-round snapshots).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RankSet {
    lo: u64,
    hi: Vec<u64>,
}

impl RankSet {
    /// The empty set sized for `p` ranks.
    pub fn empty(p: usize) -> Self {
        RankSet {
            lo: 0,
            hi: vec![0; p.div_ceil(64).saturating_sub(1)],
        }
    }

    /// The set `{r}`.
    pub fn single(p: usize, r: usize) -> Self {
        let mut s = Self::empty(p);
        s.insert(r);
        s
    }

    fn word(&self, i: usize) -> u64 {
        if i == 0 {
            self.lo
        } else {
            self.hi.get(i - 1).copied().unwrap_or(0)
        }
    }

    fn words(&self) -> impl Iterator<Item = u64> + '_ {
        std::iter::once(self.lo).chain(self.hi.iter().copied())
    }

    /// Adds rank `r` (ignored when `r` is beyond the set's size).
    pub fn insert(&mut self, r: usize) {
        let bit = 1u64 << (r % 64);
        if r < 64 {
            self.lo |= bit;
        } else if let Some(w) = self.hi.get_mut(r / 64 - 1) {
            *w |= bit;
        }
    }

    /// True when `r` is in the set.
    pub fn contains(&self, r: usize) -> bool {
        self.word(r / 64) & (1 << (r % 64)) != 0
    }

    /// Number of ranks in the set.
    pub fn len(&self) -> usize {
        self.words().map(|w| w.count_ones() as usize).sum()
    }

    /// True when no rank is in the set.
    pub fn is_empty(&self) -> bool {
        self.words().all(|w| w == 0)
    }

    /// True when the sets share a rank.
    pub fn intersects(&self, other: &RankSet) -> bool {
        self.words().zip(other.words()).any(|(a, b)| a & b != 0)
    }

    /// `self ∪= other`.
    pub fn union_with(&mut self, other: &RankSet) {
        self.lo |= other.lo;
        for (a, b) in self.hi.iter_mut().zip(&other.hi) {
            *a |= b;
        }
    }

    /// The ranks in increasing order.
    pub fn ranks(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.len());
        for (i, mut w) in self.words().enumerate() {
            // visit the set bits only, lowest first
            while w != 0 {
                out.push(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        out
    }

    /// Compact label: "all", "0–3", "0,2,5" or "∅".
    pub fn label(&self, p: usize) -> String {
        let rs = self.ranks();
        if rs.is_empty() {
            return "∅".into();
        }
        if rs.len() == p {
            return "all".into();
        }
        let contiguous = rs.windows(2).all(|w| w[1] == w[0] + 1);
        if contiguous && rs.len() > 2 {
            return format!("{}–{}", rs[0], rs[rs.len() - 1]);
        }
        let mut out = String::with_capacity(4 * rs.len());
        for (i, r) in rs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&r.to_string());
        }
        out
    }
}

/// The buffers of all ranks at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// `values[rank][segment]`.
    pub values: Vec<Vec<f64>>,
    /// `contributors[rank][segment]`: ranks whose input is summed in.
    pub contributors: Vec<Vec<RankSet>>,
}

/// A final value that differs from the expected reduction.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Rank holding the wrong value.
    pub rank: usize,
    /// Element range of the segment.
    pub range: Range<u64>,
    /// Value the collective should have produced.
    pub expected: f64,
    /// Value actually held.
    pub got: f64,
}

/// A `Reduce` that added a contribution already present: double counting.
#[derive(Clone, Debug, PartialEq)]
pub struct DoubleCount {
    /// 0-based round index.
    pub round: usize,
    /// Receiving rank.
    pub rank: usize,
    /// Element range affected.
    pub range: Range<u64>,
}

/// The outcome of checking the final buffers.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Verification {
    /// Final values that differ from the element-wise reduction.
    pub mismatches: Vec<Mismatch>,
    /// Reductions that added a contribution twice.
    pub double_counts: Vec<DoubleCount>,
}

impl Verification {
    /// True when every checked value is right and nothing was added twice.
    pub fn ok(&self) -> bool {
        self.mismatches.is_empty() && self.double_counts.is_empty()
    }
}

/// Initial data: `f(rank, element_index) -> value`. Within a segment the value
/// of the segment's first element is used for the whole segment.
pub type InitFn<'a> = &'a dyn Fn(usize, u64) -> f64;

/// The readable default: rank `r` holds the value `r + 1` everywhere, so the
/// sum is `p(p + 1)/2` (1 + 2 + 3 = 6 for p = 3).
pub fn default_init(rank: usize, _element: u64) -> f64 {
    rank as f64 + 1.0
}

/// Options for [`execute`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecOptions {
    /// Keep the state after every round (needed for animation). Without it only
    /// the initial and final states are kept and contributor sets are skipped,
    /// which keeps p = 1024 cheap.
    pub keep_states: bool,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions { keep_states: true }
    }
}

/// Everything that happened while a schedule ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The schedule that ran.
    pub schedule: Schedule,
    /// Element range of each segment.
    pub segments: Vec<Range<u64>>,
    /// `states[i]` is the state after `i` rounds (`states[0]` is the input).
    /// With `keep_states = false` it holds only the input and the final state
    /// (values only); [`execute_checkpointed`] keeps every `every`-th. In
    /// general `states[i]` is the state after `kept[i]` rounds.
    pub states: Vec<State>,
    /// `kept[i]`: after how many rounds `states[i]` was taken (ascending,
    /// starting at 0 and ending at the number of rounds).
    pub kept: Vec<usize>,
    /// `sent[round][rank]`: bytes sent in that round.
    pub sent: Vec<Vec<u64>>,
    /// `recv[round][rank]`: bytes received in that round.
    pub recv: Vec<Vec<u64>>,
    /// Element-wise sum of the inputs, per segment.
    pub expected: Vec<f64>,
    /// The check of the final buffers.
    pub verification: Verification,
}

/// Error when a schedule refers to ranks or elements that do not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedSchedule(pub String);

impl fmt::Display for MalformedSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed schedule: {}", self.0)
    }
}

impl std::error::Error for MalformedSchedule {}

/// Checks that every transfer names ranks `< p` and a range inside `0..n`.
fn validate(schedule: &Schedule) -> Result<(), MalformedSchedule> {
    let p = schedule.p;
    for (i, round) in schedule.rounds.iter().enumerate() {
        for t in &round.transfers {
            if t.src >= p || t.dst >= p {
                return Err(MalformedSchedule(format!(
                    "round {i}: rank out of range ({} → {}, p = {p})",
                    t.src, t.dst
                )));
            }
            if t.range.start > t.range.end || t.range.end > schedule.n {
                return Err(MalformedSchedule(format!(
                    "round {i}: range {:?} outside 0..{}",
                    t.range, schedule.n
                )));
            }
        }
    }
    Ok(())
}

/// What a schedule moves, counted from its transfers alone: no buffer values
/// are executed and nothing is verified. This is the numbers-only mode for
/// large p (a ring at p = 1024 has 2 046 rounds and about 2 million
/// transfers): the byte counters are the same sums [`execute`] records in
/// [`Trace::sent`] and [`Trace::recv`] (tested equal), without the per-segment
/// values, the contributor sets or the verification.
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
    /// [`Trace::sent_after`]).
    pub fn sent_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.sent, rounds, self.p)
    }

    /// Bytes each rank has received after the first `rounds` rounds (as
    /// [`Trace::recv_after`]).
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
    /// [`Trace::max_sent_per_rank`]).
    pub fn max_sent_per_rank(&self) -> u64 {
        self.sent_after(self.num_rounds())
            .into_iter()
            .max()
            .unwrap_or(0)
    }
}

/// Counts the bytes of `schedule` per rank and round without executing it:
/// O(transfers) additions, no buffers (see [`Counts`]). Call it instead of
/// [`execute`] when nothing is drawn; the result is marked "not executed" by
/// its type (there is no verification to show).
///
/// # Errors
/// [`MalformedSchedule`] as for [`execute`].
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

/// An all-reduce executed round by round on real per-rank values without
/// ever holding its whole schedule (see [`execute_streamed`]): the
/// numbers-only mode of large p, e.g. the ring at p = 1024, whose 2 million
/// transfers take about 110 MB as a [`Schedule`]. Contributor sets are not
/// tracked (as with `keep_states = false`), so only value mismatches are
/// reported. The per-rank byte counts are kept every [`CHECKPOINT_ROUNDS`]
/// rounds ([`StreamCounts`]), not as 2 046 rows of 1 024 ranks.
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
    /// The final buffers divided by `p`, as [`Trace::final_mean`].
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
/// [`execute_streamed`] on the same rounds without its values.
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

/// The error of round `i`'s transfer `t` outside `p` ranks × `n` elements.
fn malformed(i: usize, t: &crate::core::schedule::Transfer, p: usize, n: u64) -> MalformedSchedule {
    MalformedSchedule(format!(
        "round {i}: transfer {} → {} of {:?} outside {p} ranks × {n} elements",
        t.src, t.dst, t.range
    ))
}

/// Adds transfer `t`'s bytes (`elem_bytes` each element) to its sender's
/// total in `sent`, its receiver's in `recv`, and to the largest message
/// `max`. Adds nothing and returns false when a rank is outside the totals.
#[inline]
fn add_transfer(
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
struct Tally {
    counts: StreamCounts,
    sent: Vec<u64>,
    recv: Vec<u64>,
    max: u64,
}

impl Tally {
    fn new(p: usize, n: u64, elem_bytes: u64) -> Self {
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
    fn count_round(&mut self, i: usize, round: &Round) -> Result<(), MalformedSchedule> {
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
    fn add(&mut self, t: &crate::core::schedule::Transfer) {
        let eb = self.counts.elem_bytes;
        add_transfer(&mut self.sent, &mut self.recv, &mut self.max, t, eb);
    }

    /// Closes the round of `transfers` messages and starts the next.
    fn end_round(&mut self, transfers: usize) {
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
    fn finish(mut self) -> StreamCounts {
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
/// [`execute`] (every transfer reads the state from before its round) and
/// the same per-segment values: `cuts` are the segment bounds, which every
/// transfer range must start and end on (for a ring: the chunk bounds
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
    bounds.sort_unstable();
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
fn round_bytes(round: &Round, p: usize, elem_bytes: u64) -> (Vec<u64>, Vec<u64>, u64) {
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

fn segment_bounds(s: &Schedule) -> Vec<u64> {
    // Rounds repeat the same cut points (a ring at p = 1024: 1 025 distinct
    // cuts in 4 million range ends), so each cut is first looked up in the
    // sorted, deduplicated `cuts`; only unknown ones wait in `pending`, which
    // is merged in once it is large and at the end.
    let mut cuts: Vec<u64> = if s.n == 0 { vec![0] } else { vec![0, s.n] };
    let mut pending: Vec<u64> = Vec::new();
    for round in &s.rounds {
        for t in &round.transfers {
            for c in [t.range.start, t.range.end] {
                if cuts.binary_search(&c).is_err() {
                    pending.push(c);
                }
            }
        }
        if pending.len() > 1024 {
            cuts.append(&mut pending);
            cuts.sort_unstable();
            cuts.dedup();
        }
    }
    cuts.append(&mut pending);
    match &s.collective {
        Collective::AllReduce => {}
        Collective::ReduceScatter { owned } | Collective::AllGather { owned } => {
            for r in owned {
                cuts.push(r.start);
                cuts.push(r.end);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// Segment index range covering element range `r` (which must lie on cuts).
fn seg_span(bounds: &[u64], r: &Range<u64>) -> Range<usize> {
    let lo = bounds.partition_point(|&b| b < r.start);
    let hi = bounds.partition_point(|&b| b < r.end);
    lo..hi
}

/// Runs `schedule` on per-rank buffers initialised by `init` and verifies the
/// result against the element-wise sum.
///
/// For `AllGather`, rank `r` starts with `init` only on its owned range (zero
/// and no contributors elsewhere) and the expected final value of a segment is
/// its owner's input.
///
/// # Errors
/// [`MalformedSchedule`] if a transfer names a rank `≥ p` or an element range
/// outside `0..n`.
pub fn execute(
    schedule: &Schedule,
    init: InitFn<'_>,
    opts: ExecOptions,
) -> Result<Trace, MalformedSchedule> {
    execute_owned(schedule.clone(), init, opts)
}

/// As [`execute`], taking the schedule by value (no copy of a large
/// schedule, e.g. the 2 million transfers of a ring at p = 1024).
///
/// # Errors
/// [`MalformedSchedule`] as for [`execute`].
pub fn execute_owned(
    owned: Schedule,
    init: InitFn<'_>,
    opts: ExecOptions,
) -> Result<Trace, MalformedSchedule> {
    let every = usize::from(opts.keep_states);
    run(owned, init, opts.keep_states, every)
}

/// As [`execute_owned`] with contributor tracking, keeping the state only
/// after every `every`-th round (rounds 0, `every`, 2·`every`, …) and after
/// the last one: the memory and copying of per-round states shrink by a
/// factor `every`, and [`Trace::state_at`] rebuilds any other round by
/// replaying at most `every − 1` rounds from the nearest kept state. With
/// `every` = 1 the trace equals `execute_owned(.., keep_states: true)`;
/// `every` = 0 is taken as 1. A view that draws one step at a time can use
/// e.g. `every` = ⌈√rounds⌉ (11 states instead of 127 for a ring at p = 64).
///
/// # Errors
/// [`MalformedSchedule`] as for [`execute`].
pub fn execute_checkpointed(
    owned: Schedule,
    init: InitFn<'_>,
    every: usize,
) -> Result<Trace, MalformedSchedule> {
    run(owned, init, true, every.max(1))
}

/// The messages of one round, read before any is applied: `(destination,
/// segment, op, value, contributors)`; reused from round to round.
type Incoming = Vec<(usize, usize, Op, f64, Option<RankSet>)>;

/// Applies one validated round to `values` (and to `contributors` when it is
/// not empty): every message is read from the pre-round state, then all are
/// applied, since the transfers of one round are simultaneous. Returns the
/// `(rank, segment)` pairs where a `Reduce` met an overlapping contributor set.
fn apply_round(
    round: &Round,
    bounds: &[u64],
    values: &mut [Vec<f64>],
    contributors: &mut [Vec<RankSet>],
    incoming: &mut Incoming,
) -> Vec<(usize, usize)> {
    let track = !contributors.is_empty();
    incoming.clear();
    for t in &round.transfers {
        for si in seg_span(bounds, &t.range) {
            let c = track.then(|| contributors[t.src][si].clone());
            incoming.push((t.dst, si, t.op, values[t.src][si], c));
        }
    }
    let mut doubled: Vec<(usize, usize)> = Vec::new();
    for (dst, si, op, v, c) in incoming.drain(..) {
        match op {
            Op::Reduce => {
                values[dst][si] += v;
                if let Some(c) = c {
                    if contributors[dst][si].intersects(&c) {
                        doubled.push((dst, si));
                    }
                    contributors[dst][si].union_with(&c);
                }
            }
            Op::Copy => {
                values[dst][si] = v;
                if let Some(c) = c {
                    contributors[dst][si] = c;
                }
            }
        }
    }
    doubled
}

/// Every rank's starting values per segment, their contributor sets (when
/// tracked; empty otherwise) and the expected final value of every segment.
struct Start {
    values: Vec<Vec<f64>>,
    contributors: Vec<Vec<RankSet>>,
    expected: Vec<f64>,
}

/// The inputs of `schedule` on `segments`: every rank holds `init` on every
/// segment (for an all-gather, only on the segments it owns) and contributes
/// itself there; the expected value is the sum over ranks (for an
/// all-gather, the owner's input).
fn start(schedule: &Schedule, segments: &[Range<u64>], init: InitFn<'_>, track: bool) -> Start {
    let p = schedule.p;
    let nseg = segments.len();
    let owner_of = |seg: &Range<u64>| -> Option<usize> {
        match &schedule.collective {
            Collective::AllGather { owned } => owned
                .iter()
                .position(|o| o.start <= seg.start && seg.end <= o.end && o.start < o.end),
            _ => None,
        }
    };
    let is_all_gather = matches!(schedule.collective, Collective::AllGather { .. });

    let mut values = vec![vec![0.0; nseg]; p];
    let mut contributors = if track {
        vec![vec![RankSet::empty(p); nseg]; p]
    } else {
        Vec::new()
    };
    for (r, row) in values.iter_mut().enumerate() {
        for (si, seg) in segments.iter().enumerate() {
            let holds = !is_all_gather || owner_of(seg) == Some(r);
            if holds {
                row[si] = init(r, seg.start);
                if track {
                    contributors[r][si] = RankSet::single(p, r);
                }
            }
        }
    }
    let expected: Vec<f64> = segments
        .iter()
        .enumerate()
        .map(|(si, seg)| {
            if is_all_gather {
                owner_of(seg).map_or(0.0, |o| values[o][si])
            } else {
                (0..p).map(|r| values[r][si]).sum()
            }
        })
        .collect();
    Start {
        values,
        contributors,
        expected,
    }
}

/// The `Reduce` transfers of round `ri` that added into a segment already
/// counted at their destination (`doubled`, from [`apply_round`]).
fn double_counts(
    round: &Round,
    ri: usize,
    bounds: &[u64],
    doubled: &[(usize, usize)],
) -> Vec<DoubleCount> {
    if doubled.is_empty() {
        return Vec::new();
    }
    round
        .transfers
        .iter()
        .filter(|t| {
            let span = seg_span(bounds, &t.range);
            t.op == Op::Reduce
                && doubled
                    .iter()
                    .any(|&(d, si)| d == t.dst && span.contains(&si))
        })
        .map(|t| DoubleCount {
            round: ri,
            rank: t.dst,
            range: t.range.clone(),
        })
        .collect()
}

/// The (rank, segment) slots whose final value differs from the expected
/// one (relative 1e-9), among those the collective defines: every slot for
/// an all-reduce or all-gather, the owned range for a reduce-scatter.
fn mismatches(
    schedule: &Schedule,
    segments: &[Range<u64>],
    values: &[Vec<f64>],
    expected: &[f64],
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let tolerance = |x: f64| 1e-9 * x.abs().max(1.0);
    for (r, row) in values.iter().enumerate() {
        for (si, seg) in segments.iter().enumerate() {
            if seg.start == seg.end {
                continue;
            }
            let checked = match &schedule.collective {
                Collective::AllReduce | Collective::AllGather { .. } => true,
                Collective::ReduceScatter { owned } => {
                    owned[r].start <= seg.start && seg.end <= owned[r].end
                }
            };
            if checked && (row[si] - expected[si]).abs() > tolerance(expected[si]) {
                out.push(Mismatch {
                    rank: r,
                    range: seg.clone(),
                    expected: expected[si],
                    got: row[si],
                });
            }
        }
    }
    out
}

/// The executor behind [`execute_owned`] and [`execute_checkpointed`]:
/// `track` keeps contributor sets; with `track`, the state after round
/// counts that are multiples of `every` (and the final one) is kept.
fn run(
    owned: Schedule,
    init: InitFn<'_>,
    track: bool,
    every: usize,
) -> Result<Trace, MalformedSchedule> {
    let schedule = &owned;
    let p = schedule.p;
    validate(schedule)?;
    let bounds = segment_bounds(schedule);
    let segments: Vec<Range<u64>> = bounds.windows(2).map(|w| w[0]..w[1]).collect();
    let Start {
        mut values,
        mut contributors,
        expected,
    } = start(schedule, &segments, init, track);

    let mut states = vec![State {
        values: values.clone(),
        contributors: contributors.clone(),
    }];
    let mut kept = vec![0];
    let mut sent = Vec::with_capacity(schedule.rounds.len());
    let mut recv = Vec::with_capacity(schedule.rounds.len());
    let mut double_counted = Vec::new();
    let mut incoming = Incoming::new();

    for (ri, round) in schedule.rounds.iter().enumerate() {
        // Read every message from the pre-round state, then apply them all:
        // transfers of one round are simultaneous.
        let (s_row, r_row, _) = round_bytes(round, p, schedule.elem_bytes);
        let doubled = apply_round(
            round,
            &bounds,
            &mut values,
            &mut contributors,
            &mut incoming,
        );
        double_counted.extend(double_counts(round, ri, &bounds, &doubled));
        sent.push(s_row);
        recv.push(r_row);
        let done = ri + 1;
        if track && (done % every == 0 || done == schedule.rounds.len()) {
            states.push(State {
                values: values.clone(),
                contributors: contributors.clone(),
            });
            kept.push(done);
        }
    }
    if !track {
        states.push(State {
            values: values.clone(),
            contributors: Vec::new(),
        });
        kept.push(schedule.rounds.len());
    }

    let mismatches = mismatches(schedule, &segments, &values, &expected);
    Ok(Trace {
        schedule: owned,
        segments,
        states,
        kept,
        sent,
        recv,
        expected,
        verification: Verification {
            mismatches,
            double_counts: double_counted,
        },
    })
}

impl Trace {
    /// Number of rounds executed.
    pub fn num_rounds(&self) -> usize {
        self.schedule.rounds.len()
    }

    /// Bytes each rank has sent after the first `rounds` rounds.
    pub fn sent_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.sent, rounds, self.schedule.p)
    }

    /// Bytes each rank has received after the first `rounds` rounds.
    pub fn recv_after(&self, rounds: usize) -> Vec<u64> {
        cumulative(&self.recv, rounds, self.schedule.p)
    }

    /// Largest number of bytes any rank sends over the whole schedule.
    pub fn max_sent_per_rank(&self) -> u64 {
        self.sent_after(self.num_rounds())
            .into_iter()
            .max()
            .unwrap_or(0)
    }

    /// The state after `rounds` rounds, if it was kept.
    pub fn state_after(&self, rounds: usize) -> Option<&State> {
        let i = self.kept.binary_search(&rounds).ok()?;
        self.states.get(i)
    }

    /// The state after `rounds` rounds: the kept one, or else rebuilt by
    /// replaying the rounds after the nearest kept state before it (at most
    /// `every − 1` rounds for [`execute_checkpointed`]). Contributor sets are
    /// present when that kept state has them. `None` when `rounds` exceeds
    /// the number of rounds, and for a round not kept by
    /// `execute(.., keep_states: false)` (numbers only: never replayed).
    pub fn state_at(&self, rounds: usize) -> Option<Cow<'_, State>> {
        if rounds > self.num_rounds() {
            return None;
        }
        let i = match self.kept.binary_search(&rounds) {
            Ok(i) => return self.states.get(i).map(Cow::Borrowed),
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let (from, base) = (*self.kept.get(i)?, self.states.get(i)?);
        if base.contributors.is_empty() {
            // `keep_states = false`: numbers only, no replay
            return None;
        }
        let mut st = base.clone();
        let mut bounds: Vec<u64> = self.segments.iter().map(|g| g.start).collect();
        bounds.push(self.segments.last().map_or(0, |g| g.end));
        let mut incoming = Incoming::new();
        for round in self.schedule.rounds.get(from..rounds)? {
            apply_round(
                round,
                &bounds,
                &mut st.values,
                &mut st.contributors,
                &mut incoming,
            );
        }
        Some(Cow::Owned(st))
    }

    /// Segment indices that make up element range `r`.
    pub fn segments_in(&self, r: &Range<u64>) -> Range<usize> {
        let lo = self.segments.partition_point(|s| s.start < r.start);
        let hi = self.segments.partition_point(|s| s.start < r.end);
        lo..hi
    }

    /// The final buffers divided by `p`: the explicit "mean" step after a sum
    /// all-reduce (1 + 2 + 3 = 6, then 6 / 3 = 2).
    pub fn final_mean(&self) -> Vec<Vec<f64>> {
        let p = self.schedule.p as f64;
        self.states
            .last()
            .map(|s| {
                s.values
                    .iter()
                    .map(|row| row.iter().map(|v| v / p).collect())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// One line of a round's transfer log: who sends what to whom, and for a
/// reduce the values added (`4 + 1 = 5`). Values are those of the first
/// element of the range (every element of a chunk shares them under
/// [`default_init`]); `None` when the range is empty.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// Chunk index, when the range is a ring chunk.
    pub chunk: Option<usize>,
    /// Element range moved.
    pub range: Range<u64>,
    /// Bytes moved.
    pub bytes: u64,
    /// Reduce or copy.
    pub op: Op,
    /// The values of the first element, `None` when the range is empty.
    pub values: Option<LogValues>,
}

/// The values one transfer-log line shows: `before + sent = after` for a
/// reduce, `sent` replacing `before` for a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogValues {
    /// The value the sender sends.
    pub sent: f64,
    /// The receiver's value before the round.
    pub before: f64,
    /// The receiver's value after the round.
    pub after: f64,
}

impl Trace {
    /// The transfer log of round `round` (0-based); empty when out of range or
    /// when per-round states were not kept.
    pub fn round_log(&self, round: usize) -> Vec<LogLine> {
        let (Some(sr), Some(before), Some(after)) = (
            self.schedule.rounds.get(round),
            self.state_at(round),
            self.state_at(round + 1),
        ) else {
            return Vec::new();
        };
        sr.transfers
            .iter()
            .map(|t| {
                let seg = self.segments_in(&t.range).start;
                let values = (t.range.start < t.range.end).then(|| LogValues {
                    sent: before.values[t.src][seg],
                    before: before.values[t.dst][seg],
                    after: after.values[t.dst][seg],
                });
                LogLine {
                    src: t.src,
                    dst: t.dst,
                    chunk: t.chunk,
                    range: t.range.clone(),
                    bytes: t.bytes(self.schedule.elem_bytes),
                    op: t.op,
                    values,
                }
            })
            .collect()
    }

    /// Fraction of (rank, element) slots that hold the complete reduction
    /// after `rounds` rounds, weighted by element count; `None` when the state
    /// was not kept.
    pub fn complete_fraction(&self, rounds: usize) -> Option<f64> {
        let st = self.state_at(rounds)?;
        if st.contributors.is_empty() {
            return None;
        }
        let p = self.schedule.p;
        let mut full = 0u64;
        for row in &st.contributors {
            for (si, c) in row.iter().enumerate() {
                if c.len() == p {
                    full += self.segments[si].end - self.segments[si].start;
                }
            }
        }
        Some(full as f64 / (self.schedule.n as f64 * p as f64))
    }

    /// " After it, 75% of all rank-held elements hold the complete sum." after
    /// `rounds` rounds ([`Trace::complete_fraction`]), with a leading space;
    /// empty when the state was not kept.
    pub fn complete_sentence(&self, rounds: usize) -> String {
        complete_sentence(self.complete_fraction(rounds))
    }

    /// A sentence on what the schedule does at `step` (0 = before any round,
    /// `k` = the `k`-th round just ran), with the facts taken from the trace.
    pub fn narrate(&self, step: usize) -> String {
        let s = &self.schedule;
        if step == 0 {
            return narrate_round(s.p, None, "", s.elem_bytes, None, None);
        }
        let Some(round) = s.rounds.get(step - 1) else {
            return String::new();
        };
        let done = (step == s.rounds.len()).then(|| self.verification.ok());
        narrate_round(
            s.p,
            Some(round),
            &s.round_label(step - 1),
            s.elem_bytes,
            self.complete_fraction(step),
            done,
        )
    }
}

/// The sentence of [`Trace::narrate`] from its parts, so a run that never
/// holds its whole schedule ([`execute_streamed`]) narrates the same way:
/// `round` just ran (`None`: before round 1), labelled `label`;
/// `complete` is the fraction of rank-held elements holding the complete sum
/// after it, when known; `done` is `Some(verified)` after the last round.
pub fn narrate_round(
    p: usize,
    round: Option<&Round>,
    label: &str,
    elem_bytes: u64,
    complete: Option<f64>,
    done: Option<bool>,
) -> String {
    let Some(round) = round else {
        return format!(
            "Before any transfer each of the {p} ranks holds only its own tensor. \
             The goal: every rank ends with the element-wise sum of all {p}."
        );
    };
    let k = round.transfers.len();
    let max_bytes = round.largest_bytes(elem_bytes);
    let what = match (round.phase, round.transfers.first().map(|t| t.op)) {
        (Phase::ReduceScatter, _) => {
            "each rank sends one chunk to its partner, which adds it to its own copy of that chunk"
        }
        (Phase::AllGather, _) => {
            "each rank passes on a fully reduced chunk; the receiver copies it over its stale copy (no addition)"
        }
        (Phase::Exchange, _) => "partners swap buffers and each adds what it received",
        (Phase::Reduce, _) => "partial sums flow towards the root, which adds them",
        (Phase::Broadcast, _) => "the finished sum is copied outwards from the root",
        (Phase::FoldIn, _) => {
            "extra ranks hand their whole tensor to a partner inside the power-of-two subset"
        }
        (Phase::FoldOut, _) => "the result is copied back to the extra ranks",
        (Phase::NodeReduce, _) => "inside each node, partial sums flow towards the node's leader, which adds them",
        (Phase::LeaderReduceScatter | Phase::LeaderAllGather | Phase::LeaderExchange, _) => {
            "the node leaders all-reduce among themselves"
        }
        (Phase::NodeBroadcast, _) => "inside each node, the finished sum is copied outwards from the leader",
    };
    let progress = complete_sentence(complete);
    let done = match done {
        Some(true) => " Done: the result is verified on every rank.",
        Some(false) => " Done, but the result does NOT match the element-wise sum.",
        None => "",
    };
    format!(
        "{}: {what}. {k} transfer{} run at once, the largest {}.{progress}{done}",
        capitalise(label),
        if k == 1 { "" } else { "s" },
        format_decimal(max_bytes as f64)
    )
}

/// " After it, 75% of all rank-held elements hold the complete sum." for a
/// complete fraction of 0.75, with a leading space; empty when unknown. The
/// percentage is exact when it is ("12.5%" at 1/8) and marked "≈" when not
/// ("≈ 33.33%" at 1/3).
fn complete_sentence(complete: Option<f64>) -> String {
    complete
        .map(|f| format!(" After it, {}", complete_share(f)))
        .unwrap_or_default()
}

/// "12.5% of all rank-held elements hold the complete sum." for a complete
/// fraction `f` (0.125): the percentage exact, or marked "≈" when it is not.
pub(crate) fn complete_share(f: f64) -> String {
    format!(
        "{}% of all rank-held elements hold the complete sum.",
        crate::core::units::format_exact_or_approx(f * 100.0)
    )
}

/// `s` with its first letter in upper case. Every label starts with an
/// ASCII letter, so ASCII upper-casing is enough and keeps the Unicode case
/// tables out of the wasm binaries.
fn capitalise(s: &str) -> String {
    let mut out = s.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

/// Runs `schedule` element by element on the given per-rank buffers
/// (`bufs[rank]` has `schedule.n` values), with the same semantics as
/// [`execute`]: every transfer of a round reads the state from before the
/// round; `Reduce` adds, `Copy` overwrites. No trace is kept. This is the
/// executor for real per-element data such as SGD gradients, where every
/// element differs (the segment-compressed [`execute`] keeps one value per
/// segment).
///
/// Returns the bytes each rank sent.
///
/// # Errors
/// [`MalformedSchedule`] when `bufs` does not hold `p` buffers of `n` values,
/// or a transfer names a rank or range outside them.
pub fn run_on_buffers(
    schedule: &Schedule,
    bufs: &mut [Vec<f64>],
) -> Result<Vec<u64>, MalformedSchedule> {
    let p = schedule.p;
    let n = usize::try_from(schedule.n).map_err(|_| MalformedSchedule("tensor too long".into()))?;
    if bufs.len() != p || bufs.iter().any(|b| b.len() != n) {
        return Err(MalformedSchedule(format!(
            "expected {p} buffers of {n} values, got {} buffers",
            bufs.len()
        )));
    }
    let mut sent = vec![0u64; p];
    let mut incoming: Vec<(usize, Op, usize, Vec<f64>)> = Vec::new();
    for (i, round) in schedule.rounds.iter().enumerate() {
        incoming.clear();
        for t in &round.transfers {
            let (lo, hi) = (t.range.start as usize, t.range.end as usize);
            if t.src >= p || t.dst >= p || lo > hi || hi > n {
                return Err(MalformedSchedule(format!(
                    "round {i}: transfer {} → {} of {:?} outside {p} ranks × {n} values",
                    t.src, t.dst, t.range
                )));
            }
            sent[t.src] += t.bytes(schedule.elem_bytes);
            incoming.push((t.dst, t.op, lo, bufs[t.src][lo..hi].to_vec()));
        }
        for (dst, op, lo, vals) in incoming.drain(..) {
            let target = &mut bufs[dst][lo..lo + vals.len()];
            match op {
                Op::Reduce => target.iter_mut().zip(&vals).for_each(|(x, v)| *x += v),
                Op::Copy => target.copy_from_slice(&vals),
            }
        }
    }
    Ok(sent)
}

fn cumulative(per_round: &[Vec<u64>], rounds: usize, p: usize) -> Vec<u64> {
    let mut acc = vec![0u64; p];
    for row in per_round.iter().take(rounds) {
        for (a, b) in acc.iter_mut().zip(row) {
            *a += b;
        }
    }
    acc
}

/// One cell of the p × p chunk grid (row = rank, column = chunk) whose
/// contributor set a round changed, with the number of contributing ranks
/// before and after that round ([`ChunkGrid::changes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellChange {
    /// Rank (row), `0..p`.
    pub rank: u32,
    /// Chunk (column), `0..p`: the ring chunk `chunk_range(n, p, chunk)`.
    pub chunk: u32,
    /// Contributing ranks before the round, `0..=p`.
    pub before: u32,
    /// Contributing ranks after the round, `0..=p`.
    pub after: u32,
}

/// The contributor counts of every rank's chunks over an executed
/// all-reduce, kept as the input plus each round's changes: what a picture
/// that repaints only the cells a step changed needs (O(changes) per step
/// instead of O(p²)). A ring at p = 256 has 65 536 cells but each of its
/// 510 rounds changes only 256 of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkGrid {
    /// Number of ranks (rows) and of chunks (columns).
    pub p: usize,
    /// `initial[rank · p + chunk]`: contributing ranks before round 1
    /// (1 on every non-empty chunk of an all-reduce; 0 on an empty chunk,
    /// which exists only when n < p).
    pub initial: Vec<u32>,
    /// `changes[round]`: the cells round `round` (0-based) changed, in the
    /// order they were applied.
    pub changes: Vec<Vec<CellChange>>,
}

impl ChunkGrid {
    /// Number of rounds recorded.
    pub fn num_rounds(&self) -> usize {
        self.changes.len()
    }

    /// `counts[rank · p + chunk]` after the first `rounds` rounds (clamped
    /// to the number of rounds): O(p² + changes).
    pub fn counts_after(&self, rounds: usize) -> Vec<u32> {
        let mut counts = self.initial.clone();
        for ch in self.changes.iter().take(rounds).flatten() {
            if let Some(c) = counts.get_mut(ch.rank as usize * self.p + ch.chunk as usize) {
                *c = ch.after;
            }
        }
        counts
    }

    /// The grid of `steps[k]` = `counts[rank][chunk]` after `k` rounds
    /// (`steps[0]` is the input), keeping the first step and, per round, the
    /// cells that differ from the step before: e.g. the collectives view's
    /// per-chunk counts ([`crate::core::collectives::narrate::chunk_counts`],
    /// which also reads chunks that do not lie on segment cuts). Rows shorter
    /// than `p` count as 0. `None` when there is no step.
    pub fn from_steps(p: usize, steps: impl IntoIterator<Item = Vec<Vec<usize>>>) -> Option<Self> {
        let flat = |rows: Vec<Vec<usize>>| -> Vec<u32> {
            let mut out = vec![0u32; p * p];
            for (r, row) in rows.into_iter().take(p).enumerate() {
                for (c, v) in row.into_iter().take(p).enumerate() {
                    out[r * p + c] = v as u32;
                }
            }
            out
        };
        let mut steps = steps.into_iter().map(flat);
        let initial = steps.next()?;
        let mut last = initial.clone();
        let mut changes = Vec::new();
        for next in steps {
            let round: Vec<CellChange> = last
                .iter()
                .zip(&next)
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(i, (&before, &after))| CellChange {
                    rank: (i / p) as u32,
                    chunk: (i % p) as u32,
                    before,
                    after,
                })
                .collect();
            changes.push(round);
            last = next;
        }
        Some(ChunkGrid {
            p,
            initial,
            changes,
        })
    }

    /// The cells to redraw to turn a picture of the state after `from`
    /// rounds into the state after `to` rounds, as `(rank, chunk, count at
    /// to)`; drawn in order, later entries win. Forward it lists the changes
    /// of rounds `from..to` with their new counts, backward those of rounds
    /// `to..from` in reverse with their old counts: O(changes between), not
    /// O(p²). Rounds beyond the last are ignored.
    pub fn repaint(&self, from: usize, to: usize) -> Vec<(usize, usize, u32)> {
        let cell = |ch: &CellChange, count: u32| (ch.rank as usize, ch.chunk as usize, count);
        let n = self.changes.len();
        if from <= to {
            self.changes[from.min(n)..to.min(n)]
                .iter()
                .flatten()
                .map(|ch| cell(ch, ch.after))
                .collect()
        } else {
            self.changes[to.min(n)..from.min(n)]
                .iter()
                .rev()
                .flat_map(|round| round.iter().rev())
                .map(|ch| cell(ch, ch.before))
                .collect()
        }
    }
}

/// Runs the all-reduce whose rounds `rounds` yields on `p` ranks' buffers of
/// `n` elements, tracking only which ranks' inputs each ring chunk holds
/// (the contributor sets of [`execute`]: a `Reduce` unites them, a `Copy`
/// overwrites them, and every transfer of a round reads the state from
/// before the round), and records the [`ChunkGrid`]: the counts before
/// round 1 and the cells each round changed. No values are summed and no
/// state per round is kept, so a ring at p = 256 costs one pass over its
/// 130 560 transfers and 65 536 bitsets of 4 words. The final counts equal
/// the contributor counts of [`execute`] on the same schedule (tested).
///
/// # Errors
/// [`MalformedSchedule`] when a transfer names a rank `≥ p`, or its range
/// does not start and end on chunk bounds (`chunk_range(n, p, c)`) inside
/// `0..n`.
pub fn chunk_grid<R: std::borrow::Borrow<Round>>(
    p: usize,
    n: u64,
    rounds: impl IntoIterator<Item = R>,
) -> Result<ChunkGrid, MalformedSchedule> {
    use super::schedule::chunk_range;
    let words = p.div_ceil(64).max(1);
    let chunks: Vec<Range<u64>> = (0..p).map(|c| chunk_range(n, p, c)).collect();
    let starts: Vec<u64> = chunks.iter().map(|g| g.start).collect();
    // the columns a range covers: chunks starting in [a, b), when a and b are cuts
    let on_cut = |x: u64, c: usize| starts.get(c).map_or(x == n, |&s| s == x);
    let span = |r: &Range<u64>| -> Option<Range<usize>> {
        let lo = starts.partition_point(|&s| s < r.start);
        let hi = starts.partition_point(|&s| s < r.end);
        (r.start <= r.end && r.end <= n && on_cut(r.start, lo) && on_cut(r.end, hi))
            .then_some(lo..hi)
    };
    // sets[(rank · p + chunk) · words ..][..words]: a bitset over ranks
    let mut sets = vec![0u64; p * p * words];
    let mut initial = vec![0u32; p * p];
    for r in 0..p {
        for (c, g) in chunks.iter().enumerate() {
            if g.start < g.end {
                sets[(r * p + c) * words + r / 64] |= 1 << (r % 64);
                initial[r * p + c] = 1;
            }
        }
    }
    let count = |s: &[u64]| s.iter().map(|w| w.count_ones()).sum::<u32>();
    let mut changes = Vec::new();
    // (destination cell, op) and the sender's words, read before any is applied
    let mut incoming: Vec<(usize, Op)> = Vec::new();
    let mut scratch: Vec<u64> = Vec::new();
    for (i, round) in rounds.into_iter().enumerate() {
        incoming.clear();
        scratch.clear();
        for t in &round.borrow().transfers {
            let cols = span(&t.range).filter(|_| t.src < p && t.dst < p).ok_or_else(|| {
                MalformedSchedule(format!(
                    "round {i}: transfer {} → {} of {:?} outside {p} ranks × {n} elements or off the chunk bounds",
                    t.src, t.dst, t.range
                ))
            })?;
            for c in cols.filter(|&c| chunks[c].start < chunks[c].end) {
                let from = (t.src * p + c) * words;
                scratch.extend_from_slice(&sets[from..from + words]);
                incoming.push((t.dst * p + c, t.op));
            }
        }
        let mut changed = Vec::new();
        for (k, &(cell, op)) in incoming.iter().enumerate() {
            let msg = &scratch[k * words..(k + 1) * words];
            let dst = &mut sets[cell * words..(cell + 1) * words];
            let before = count(dst);
            let mut differs = false;
            for (d, m) in dst.iter_mut().zip(msg) {
                let w = match op {
                    Op::Reduce => *d | m,
                    Op::Copy => *m,
                };
                differs |= w != *d;
                *d = w;
            }
            if differs {
                changed.push(CellChange {
                    rank: (cell / p) as u32,
                    chunk: (cell % p) as u32,
                    before,
                    after: count(dst),
                });
            }
        }
        changes.push(changed);
    }
    Ok(ChunkGrid {
        p,
        initial,
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collectives::naive_root;
    use crate::core::schedule::ring::{ring_all_gather, ring_all_reduce, ring_reduce_scatter};
    use crate::core::schedule::{Round, Transfer};

    const MB: u64 = 1_000_000;

    #[test]
    fn the_complete_share_is_exact_or_marked() {
        assert_eq!(
            complete_sentence(Some(0.125)),
            " After it, 12.5% of all rank-held elements hold the complete sum."
        );
        assert_eq!(
            complete_sentence(Some(0.75)),
            " After it, 75% of all rank-held elements hold the complete sum."
        );
        assert_eq!(
            complete_sentence(Some(1.0 / 3.0)),
            " After it, ≈ 33.33% of all rank-held elements hold the complete sum."
        );
        assert_eq!(complete_sentence(None), "");
    }

    #[test]
    fn course_ring_p4_100mb() {
        // 100 MB of bytes (elem_bytes = 1): 25 MB chunks, 6 rounds, 150 MB sent.
        let s = ring_all_reduce(4, 100 * MB, 1).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert_eq!(t.num_rounds(), 6);
        assert!(t.sent[0].iter().all(|&b| b == 25 * MB));
        assert_eq!(t.sent_after(6), vec![150 * MB; 4]);
        assert_eq!(t.recv_after(6), vec![150 * MB; 4]);
        assert!(t.verification.ok());
        // 1 + 2 + 3 + 4 = 10 everywhere.
        assert!(t.states[6].values.iter().flatten().all(|&v| v == 10.0));
    }

    #[test]
    fn course_ring_p8_64mb() {
        let s = ring_all_reduce(8, 64 * MB, 1).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert_eq!(t.num_rounds(), 14);
        assert_eq!(t.max_sent_per_rank(), 112 * MB);
        assert!(t.verification.ok());
    }

    #[test]
    fn sum_and_mean_of_1_2_3() {
        let s = ring_all_reduce(3, 3, 1).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert!(t.verification.ok());
        assert!(t.states[4].values.iter().flatten().all(|&v| v == 6.0));
        assert!(t.final_mean().iter().flatten().all(|&v| v == 2.0));
    }

    #[test]
    fn contributors_after_reduce_scatter() {
        let s = ring_all_reduce(4, 4, 1).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        // After round 1 rank 0's chunk 3 holds ranks {0, 3}: 1 + 4 = 5.
        let st = &t.states[1];
        assert_eq!(st.contributors[0][3].ranks(), vec![0, 3]);
        assert_eq!(st.values[0][3], 5.0);
        // After reduce-scatter rank r holds the full chunk (r + 1) mod 4.
        let st = &t.states[3];
        for r in 0..4 {
            assert_eq!(st.contributors[r][(r + 1) % 4].len(), 4);
        }
    }

    #[test]
    fn unequal_chunks_are_counted_honestly() {
        // 10 elements of 4 bytes over 4 ranks: chunks 3,3,2,2 elements.
        let s = ring_all_reduce(4, 10, 4).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert!(t.verification.ok());
        // Round 1: rank r sends chunk r: 12, 12, 8, 8 bytes.
        assert_eq!(t.sent[0], vec![12, 12, 8, 8]);
        // Each rank sends every chunk except one per phase: 40 − own(rs) + 40 − own(ag).
        // Rank 0 skips chunk 1 (rs) and chunk 2 (ag): 2·40 − 12 − 8 = 60.
        assert_eq!(t.sent_after(6)[0], 60);
        let total: u64 = t.sent_after(6).iter().sum();
        assert_eq!(total, 2 * 3 * 40);
    }

    #[test]
    fn re_adding_in_all_gather_is_caught() {
        let mut s = ring_all_reduce(4, 8, 1).expect("valid");
        for round in s.rounds.iter_mut().filter(|r| r.phase == Phase::AllGather) {
            for t in &mut round.transfers {
                t.op = Op::Reduce;
            }
        }
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert!(!t.verification.ok());
        assert!(!t.verification.mismatches.is_empty());
        assert!(!t.verification.double_counts.is_empty());
        // Also caught by values alone when contributor tracking is off.
        let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
        assert!(!t.verification.mismatches.is_empty());
    }

    #[test]
    fn reduce_scatter_and_all_gather_alone_verify() {
        let rs = ring_reduce_scatter(5, 17, 2).expect("valid");
        let t = execute(
            &rs,
            &|r, e| (r * 31 + e as usize) as f64,
            ExecOptions::default(),
        )
        .expect("runs");
        assert!(t.verification.ok());
        assert_eq!(t.num_rounds(), 4);
        let ag = ring_all_gather(5, 17, 2).expect("valid");
        let t = execute(
            &ag,
            &|r, e| (r * 31 + e as usize) as f64,
            ExecOptions::default(),
        )
        .expect("runs");
        assert!(t.verification.ok());
        assert!(t.verification.double_counts.is_empty());
    }

    #[test]
    fn transfer_log_shows_the_addition() {
        let s = ring_all_reduce(4, 100 * MB, 1).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        let log = t.round_log(0);
        // rank 3 → rank 0: chunk 3, 25 MB, 4 + 1 = 5.
        let l = &log[3];
        assert_eq!((l.src, l.dst, l.chunk, l.bytes), (3, 0, Some(3), 25 * MB));
        assert_eq!(
            l.values,
            Some(LogValues {
                sent: 4.0,
                before: 1.0,
                after: 5.0
            })
        );
        // first all-gather round copies: rank 0 sends its full chunk 1 (sum 10) over
        // rank 1’s own, untouched value 2.
        let l = &t.round_log(3)[0];
        assert_eq!(
            (l.op, l.values),
            (
                Op::Copy,
                Some(LogValues {
                    sent: 10.0,
                    before: 2.0,
                    after: 10.0
                })
            )
        );
        assert_eq!(t.complete_fraction(3), Some(0.25));
        assert_eq!(t.complete_fraction(6), Some(1.0));
        assert!(t.narrate(1).starts_with("Reduce-scatter, round 1 of 3"));
        assert!(t.narrate(6).contains("verified on every rank"));
    }

    #[test]
    fn element_wise_run_matches_the_sum_and_the_trace_bytes() {
        // Every element differs: rank r, element e holds 10r + e.
        let s = ring_all_reduce(4, 10, 4).expect("valid");
        let mut bufs: Vec<Vec<f64>> = (0..4)
            .map(|r| (0..10).map(|e| (10 * r + e) as f64).collect())
            .collect();
        let sent = run_on_buffers(&s, &mut bufs).expect("runs");
        // Σ_r (10r + e) = 60 + 4e on every rank.
        for b in &bufs {
            for (e, v) in b.iter().enumerate() {
                assert_eq!(*v, 60.0 + 4.0 * e as f64);
            }
        }
        // Chunks of 3,3,2,2 elements: ranks skip chunk r+1 (reduce-scatter) and
        // r+2 (all-gather): 60, 64, 60, 56 bytes, as the trace counts them.
        assert_eq!(sent, vec![60, 64, 60, 56]);
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert_eq!(t.sent_after(6), sent);
        // Wrong shapes are errors, not panics.
        assert!(run_on_buffers(&s, &mut bufs[..3].to_vec()).is_err());
    }

    #[test]
    fn naive_root_p4() {
        let s = naive_root(4, 100 * MB, 1).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        assert_eq!(t.num_rounds(), 6);
        assert!(t.verification.ok());
        assert_eq!(
            t.sent_after(6),
            vec![300 * MB, 100 * MB, 100 * MB, 100 * MB]
        );
        assert_eq!(
            t.recv_after(6),
            vec![300 * MB, 100 * MB, 100 * MB, 100 * MB]
        );
    }

    #[test]
    fn count_only_equals_the_executed_counters() {
        use crate::core::collectives::{flat, nodes_of, Algorithm};
        let mut shapes: Vec<_> = (2..=24).map(flat).collect();
        shapes.extend([64, 48, 33].map(flat));
        for (nodes, gpus) in [(2, 2), (2, 4), (4, 2), (3, 4), (4, 8), (8, 8)] {
            shapes.push(nodes_of(nodes, gpus).expect("shape"));
        }
        for topo in &shapes {
            for alg in Algorithm::all() {
                let Ok(s) = alg.generate_on(topo, 1000, 4) else {
                    continue;
                };
                let c = count_only(&s).expect("counts");
                let t =
                    execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
                assert_eq!(c.sent, t.sent, "{} p={}", alg.key(), topo.p());
                assert_eq!(c.recv, t.recv, "{} p={}", alg.key(), topo.p());
                assert_eq!(c.num_rounds(), t.num_rounds());
                assert_eq!(c.max_sent_per_rank(), t.max_sent_per_rank());
                for (i, r) in s.rounds.iter().enumerate() {
                    let max = r.transfers.iter().map(|t| t.bytes(4)).max().unwrap_or(0);
                    assert_eq!(c.round_max_bytes[i], max);
                    assert_eq!(c.transfers[i], r.transfers.len());
                }
            }
        }
    }

    #[test]
    fn checkpointed_states_replay_to_the_full_trace() {
        use crate::core::collectives::narrate::chunk_states;
        use crate::core::collectives::{flat, nodes_of, Algorithm};
        let shapes = [flat(4), flat(7), flat(16), nodes_of(2, 4).expect("shape")];
        for topo in &shapes {
            for alg in Algorithm::all() {
                let Ok(s) = alg.generate_on(topo, 50, 4) else {
                    continue;
                };
                let full = execute(&s, &default_init, ExecOptions::default()).expect("runs");
                for every in [1, 3, 5] {
                    let cp = execute_checkpointed(s.clone(), &default_init, every).expect("runs");
                    assert_eq!(cp.sent, full.sent);
                    assert_eq!(cp.verification, full.verification);
                    let rounds = full.num_rounds();
                    // kept: 0, every, 2·every, …, and the last round
                    assert_eq!(cp.kept.first(), Some(&0));
                    assert_eq!(cp.kept.last(), Some(&rounds));
                    assert_eq!(cp.states.len(), cp.kept.len());
                    for k in 0..=rounds {
                        let want = full.state_after(k).expect("kept");
                        assert_eq!(cp.state_at(k).as_deref(), Some(want), "{} k={k}", alg.key());
                        assert_eq!(cp.state_after(k).is_some(), k % every == 0 || k == rounds);
                        assert_eq!(cp.complete_fraction(k), full.complete_fraction(k));
                        assert_eq!(cp.narrate(k), full.narrate(k));
                        assert_eq!(chunk_states(&cp, k), chunk_states(&full, k));
                        if k < rounds {
                            assert_eq!(cp.round_log(k), full.round_log(k));
                        }
                    }
                    assert!(cp.state_at(rounds + 1).is_none());
                }
            }
        }
        // ring p = 64 every 12 rounds: 0, 12, …, 120 and 126 = 12 states
        let s = ring_all_reduce(64, 64 * 10, 4).expect("valid");
        let cp = execute_checkpointed(s, &default_init, 12).expect("runs");
        assert_eq!(cp.states.len(), 12);
        // numbers-only traces are not replayed
        let s = ring_all_reduce(8, 80, 4).expect("valid");
        let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
        assert_eq!(t.kept, vec![0, 14]);
        assert!(t.state_at(3).is_none() && t.round_log(3).is_empty());
        assert!(t.state_at(14).is_some());
    }

    #[test]
    fn count_only_ring_p1024_matches_the_closed_form() {
        // 2(p − 1)/p · n with n = 1024 · 1000 elements of 4 bytes: every rank
        // sends 2 · 1023 chunks of 4000 bytes = 8 184 000 bytes.
        let s = ring_all_reduce(1024, 1024 * 1000, 4).expect("valid");
        let c = count_only(&s).expect("counts");
        assert_eq!(c.num_rounds(), 2046);
        assert_eq!(c.sent_after(2046), vec![8_184_000; 1024]);
        assert_eq!(c.recv_after(2046), vec![8_184_000; 1024]);
        assert_eq!(c.sent_after(1023), vec![4_092_000; 1024]);
        let (closed, _) = crate::core::timing::ring_bytes_per_rank(1024, (1024 * 1000 * 4) as f64);
        assert_eq!(c.max_sent_per_rank() as f64, closed);
        assert!(c.round_max_bytes.iter().all(|&b| b == 4000));
        assert!(c.transfers.iter().all(|&k| k == 1024));
    }

    #[test]
    fn streamed_ring_counts_equal_the_schedule_counts_and_times() {
        use crate::core::schedule::ring::ring_all_reduce_rounds;
        use crate::core::timing::{breakdown, executed_time};
        for (p, n) in [
            (2, 10),
            (3, 3),
            (4, 10),
            (7, 100),
            (16, 1000),
            (1024, 1024 * 1000),
        ] {
            let s = ring_all_reduce(p, n, 4).expect("valid");
            let whole = count_only(&s).expect("counts");
            let streamed = count_rounds(p, n, 4, ring_all_reduce_rounds(p, n)).expect("counts");
            assert_eq!(streamed, whole, "p={p}");
            for (a, b) in [(0.0, 1e-9), (5e-6, 8e-11), (1e-3, 0.0)] {
                assert_eq!(
                    streamed.executed_time(a, b).to_bits(),
                    executed_time(&s, a, b).to_bits(),
                    "p={p} α={a} β={b}"
                );
            }
            assert_eq!(streamed.breakdown(), breakdown(&s));
        }
        // an empty round costs nothing, as in executed_time
        let mut s = ring_all_reduce(3, 3, 1).expect("valid");
        s.rounds[1].transfers.clear();
        let c = count_only(&s).expect("counts");
        assert_eq!(c.executed_time(1.0, 0.0), executed_time(&s, 1.0, 0.0));
        assert_eq!(c.executed_time(1.0, 0.0), 3.0);
        // bad ranks are errors
        let bad = ring_all_reduce(4, 8, 1).expect("valid").rounds;
        assert!(count_rounds(3, 8, 1, bad).is_err());
    }

    #[test]
    fn streamed_ring_equals_the_executed_trace() {
        use crate::core::schedule::chunk_range;
        use crate::core::schedule::ring::ring_all_reduce_rounds;
        let cuts =
            |p: usize, n: u64| -> Vec<u64> { (0..p).map(|c| chunk_range(n, p, c).start).collect() };
        for (p, n) in [(2, 10), (3, 3), (4, 10), (8, 3), (7, 100), (65, 1000)] {
            let s = ring_all_reduce(p, n, 4).expect("valid");
            let t = execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs");
            let st = execute_streamed(
                p,
                n,
                4,
                &cuts(p, n),
                ring_all_reduce_rounds(p, n),
                &default_init,
            )
            .expect("runs");
            let c = count_only(&s).expect("counts");
            let round_at = |i: usize| s.rounds.get(i).cloned();
            // after every round (p = 65: 128 rounds, four checkpoints and a
            // replay of up to 31 rounds), and past the end
            for k in 0..=2 * p {
                assert_eq!(
                    st.counts.sent_after(k, round_at),
                    t.sent_after(k),
                    "p={p} n={n} after {k}"
                );
                assert_eq!(st.counts.recv_after(k, round_at), t.recv_after(k));
            }
            assert_eq!(st.counts.round_max_bytes, c.round_max_bytes);
            assert_eq!(st.counts.transfers, c.transfers);
            assert_eq!(st.counts.num_rounds(), t.num_rounds());
            assert_eq!(st.counts.breakdown(), c.breakdown());
            assert_eq!(
                st.counts.executed_time(5e-6, 8e-11).to_bits(),
                c.executed_time(5e-6, 8e-11).to_bits()
            );
            assert_eq!(st.segments, t.segments);
            assert_eq!(st.initial, t.states[0].values);
            assert_eq!(Some(&st.last), t.states.last().map(|x| &x.values));
            assert_eq!(st.expected, t.expected);
            assert_eq!(st.verification, t.verification);
            assert_eq!(st.final_mean(), t.final_mean());
        }
        // p = 4, n = 10: sums 1 + 2 + 3 + 4 = 10, mean 2.5; rank 0 sends 60 B
        let st = execute_streamed(
            4,
            10,
            4,
            &cuts(4, 10),
            ring_all_reduce_rounds(4, 10),
            &default_init,
        )
        .expect("runs");
        assert!(st.verification.ok());
        assert!(st.last.iter().flatten().all(|&v| v == 10.0));
        assert_eq!(st.final_mean()[3][0], 2.5);
        assert_eq!(st.counts.sent_after(6, |_| None)[0], 60);
        // equal chunks (p = 4 divides n = 8): every round sends the same, one run
        let st = execute_streamed(
            4,
            8,
            4,
            &cuts(4, 8),
            ring_all_reduce_rounds(4, 8),
            &default_init,
        )
        .expect("runs");
        // six rounds: the checkpoint before any round and the one after the last
        assert_eq!(st.counts.sent_at, vec![vec![0; 4], vec![48; 4]]);
        assert_eq!(st.counts.sent_after(6, |_| None), vec![48; 4]);
        // after 2 rounds: replayed from the first checkpoint, 8 B a round
        let round_at = |i| ring_all_reduce_rounds(4, 8).nth(i);
        assert_eq!(st.counts.sent_after(2, round_at), vec![16; 4]);
        // a round that cannot be regenerated adds nothing
        assert_eq!(st.counts.recv_after(2, |_| None), vec![0; 4]);
        // the all-gather re-adding is caught by the values
        let bad = ring_all_reduce_rounds(4, 8).map(|mut r| {
            for t in &mut r.transfers {
                t.op = Op::Reduce;
            }
            r
        });
        let st = execute_streamed(4, 8, 1, &cuts(4, 8), bad, &default_init).expect("runs");
        assert!(!st.verification.mismatches.is_empty());
        // off-cut ranges and bad ranks are errors
        assert!(execute_streamed(
            4,
            8,
            1,
            &[0, 4],
            ring_all_reduce_rounds(4, 8),
            &default_init
        )
        .is_err());
        assert!(execute_streamed(
            3,
            8,
            1,
            &cuts(4, 8),
            ring_all_reduce_rounds(4, 8),
            &default_init
        )
        .is_err());
    }

    #[test]
    fn rank_set_ranks_and_labels() {
        let mut s = RankSet::empty(200);
        for r in [0, 3, 63, 64, 130, 199] {
            s.insert(r);
        }
        assert_eq!(s.ranks(), vec![0, 3, 63, 64, 130, 199]);
        assert_eq!(s.label(200), "0,3,63,64,130,199");
        let mut c = RankSet::empty(8);
        for r in 2..6 {
            c.insert(r);
        }
        assert_eq!(c.label(8), "2–5");
        assert_eq!(RankSet::empty(8).label(8), "∅");
        assert_eq!(RankSet::single(8, 7).label(8), "7");
    }

    #[test]
    fn count_only_rejects_malformed_schedules() {
        let mut s = ring_all_reduce(3, 3, 1).expect("valid");
        s.rounds[0].transfers[0].range = 2..9;
        assert!(count_only(&s).is_err());
    }

    #[test]
    fn malformed_schedule_is_an_error() {
        let mut s = ring_all_reduce(3, 3, 1).expect("valid");
        s.rounds.push(Round {
            phase: Phase::AllGather,
            note: String::new(),
            transfers: vec![Transfer {
                src: 0,
                dst: 7,
                range: 0..1,
                op: Op::Copy,
                chunk: None,
            }],
        });
        assert!(execute(&s, &default_init, ExecOptions::default()).is_err());
    }

    fn change(rank: u32, chunk: u32, before: u32, after: u32) -> CellChange {
        CellChange {
            rank,
            chunk,
            before,
            after,
        }
    }

    #[test]
    fn chunk_grid_round_1_of_a_p4_ring_reduce_scatter() {
        // Round 1: rank r sends chunk r to rank r + 1, which adds it to its
        // own copy: cell (r + 1, r) goes from {r + 1} to {r, r + 1}.
        let s = ring_reduce_scatter(4, 4, 1).expect("valid");
        let g = chunk_grid(4, 4, &s.rounds).expect("runs");
        assert_eq!(g.num_rounds(), 3);
        assert_eq!(g.initial, vec![1; 16]);
        assert_eq!(
            g.changes[0],
            vec![
                change(1, 0, 1, 2),
                change(2, 1, 1, 2),
                change(3, 2, 1, 2),
                change(0, 3, 1, 2)
            ]
        );
        // after round 3 rank r holds the complete chunk r + 1 (mod 4)
        let after = g.counts_after(3);
        for r in 0..4 {
            assert_eq!(after[r * 4 + (r + 1) % 4], 4, "rank {r}");
        }
    }

    #[test]
    fn chunk_grid_first_all_gather_round_copies_complete_chunks() {
        // p = 4: after the reduce-scatter rank r holds chunk r + 1 complete;
        // all-gather round 1 copies it to rank r + 1, whose own chunk r + 1
        // held only itself (it sent it in round 1): 1 → 4 contributors.
        let s = ring_all_reduce(4, 8, 1).expect("valid");
        let g = chunk_grid(4, 8, &s.rounds).expect("runs");
        assert_eq!(
            g.changes[3],
            vec![
                change(1, 1, 1, 4),
                change(2, 2, 1, 4),
                change(3, 3, 1, 4),
                change(0, 0, 1, 4)
            ]
        );
        assert_eq!(g.counts_after(6), vec![4; 16]);
        assert_eq!(g.counts_after(99), vec![4; 16], "clamped");
        // stepping 1 → 0 repaints round 1's cells with their old count
        assert_eq!(
            g.repaint(1, 0),
            vec![(0, 3, 1), (3, 2, 1), (2, 1, 1), (1, 0, 1)]
        );
        assert_eq!(g.repaint(0, 1)[0], (1, 0, 2));
        assert_eq!(g.repaint(3, 4).len(), 4);
        assert!(g.repaint(2, 2).is_empty());
    }

    #[test]
    fn chunk_grid_counts_equal_the_executed_contributors() {
        use crate::core::schedule::chunk_range;
        // n = 3 < p = 5 leaves two empty chunks (count 0 throughout)
        for (p, n) in [(2, 2), (3, 7), (4, 100), (5, 3), (8, 64), (13, 1000)] {
            let s = ring_all_reduce(p, n, 4).expect("valid");
            let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
            let g = chunk_grid(p, n, &s.rounds).expect("runs");
            let mut painted = g.counts_after(0);
            for k in 0..=t.num_rounds() {
                let st = &t.states[k];
                let want: Vec<u32> = (0..p)
                    .flat_map(|r| (0..p).map(move |c| (r, c)))
                    .map(|(r, c)| {
                        let range = chunk_range(n, p, c);
                        if range.is_empty() {
                            0
                        } else {
                            st.contributors[r][t.segments_in(&range).start].len() as u32
                        }
                    })
                    .collect();
                assert_eq!(
                    g.counts_after(k),
                    want,
                    "p = {p}, n = {n}, after {k} rounds"
                );
                // repainting step by step gives the same picture
                if k > 0 {
                    for (r, c, v) in g.repaint(k - 1, k) {
                        painted[r * p + c] = v;
                    }
                }
                assert_eq!(painted, want, "p = {p}, n = {n}, painted after {k}");
            }
            for k in (0..t.num_rounds()).rev() {
                for (r, c, v) in g.repaint(k + 1, k) {
                    painted[r * p + c] = v;
                }
                assert_eq!(painted, g.counts_after(k), "p = {p}, back to {k}");
            }
        }
    }

    #[test]
    fn chunk_grid_at_p256_changes_256_cells_per_round() {
        use crate::core::schedule::ring::ring_all_reduce_rounds;
        let g = chunk_grid(256, 1024, ring_all_reduce_rounds(256, 1024)).expect("runs");
        assert_eq!(g.num_rounds(), 510);
        assert!(g.changes.iter().all(|c| c.len() == 256));
        // in reduce-scatter round k (1-based) the partial sum received holds
        // k ranks and the receiver's copy only itself: 1 → k + 1
        assert!(g.changes[9].iter().all(|c| (c.before, c.after) == (1, 11)));
        // all-gather round 1 overwrites a copy of 1 with the complete sum
        assert!(g.changes[255]
            .iter()
            .all(|c| (c.before, c.after) == (1, 256)));
        assert_eq!(g.counts_after(510), vec![256; 256 * 256]);
    }

    #[test]
    fn chunk_grid_from_steps_keeps_the_cells_that_differ() {
        // p = 2: [[1, 1], [1, 1]] → [[1, 2], [2, 1]] → [[2, 2], [2, 2]]
        let steps = vec![
            vec![vec![1, 1], vec![1, 1]],
            vec![vec![1, 2], vec![2, 1]],
            vec![vec![2, 2], vec![2, 2]],
        ];
        let g = ChunkGrid::from_steps(2, steps).expect("steps");
        assert_eq!(g.initial, vec![1, 1, 1, 1]);
        assert_eq!(g.changes[0], vec![change(0, 1, 1, 2), change(1, 0, 1, 2)]);
        assert_eq!(g.changes[1], vec![change(0, 0, 1, 2), change(1, 1, 1, 2)]);
        assert_eq!(g.counts_after(2), vec![2; 4]);
        assert!(ChunkGrid::from_steps(2, Vec::new()).is_none());
        // the same grid as the ring's own, from the executed trace's counts
        let s = ring_all_reduce(5, 20, 4).expect("valid");
        let direct = chunk_grid(5, 20, &s.rounds).expect("runs");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
        let counts = (0..=t.num_rounds())
            .map(|k| crate::core::collectives::narrate::chunk_counts(&t, k).expect("kept"));
        let g = ChunkGrid::from_steps(5, counts).expect("steps");
        for k in 0..=t.num_rounds() {
            assert_eq!(g.counts_after(k), direct.counts_after(k), "after {k}");
        }
        // the same cells change, listed row by row instead of by transfer
        let mut a = g.changes[0].clone();
        let mut b = direct.changes[0].clone();
        a.sort_by_key(|c| (c.rank, c.chunk));
        b.sort_by_key(|c| (c.rank, c.chunk));
        assert_eq!(a, b);
    }

    #[test]
    fn count_streamed_equals_the_counters_of_execute_streamed() {
        use crate::core::schedule::chunk_range;
        use crate::core::schedule::ring::ring_all_reduce_rounds;
        // p = 5, n = 13: chunks of 3, 3, 3, 2, 2 elements (4 B each)
        let (p, n) = (5, 13);
        let cuts: Vec<u64> = (0..p).map(|c| chunk_range(n, p, c).start).collect();
        let run = execute_streamed(p, n, 4, &cuts, ring_all_reduce_rounds(p, n), &default_init)
            .expect("runs");
        let c = count_streamed(p, n, 4, ring_all_reduce_rounds(p, n)).expect("counts");
        assert_eq!(c, run.counts);
        assert_eq!(c.num_rounds(), 8);
        // rank 0 sends chunks 0, 4, 3, 2 (reduce-scatter) then 1, 0, 4, 3:
        // 12 + 8 + 8 + 12 + 12 + 12 + 8 + 8 = 80 B
        let round_at = |i| ring_all_reduce_rounds(p, n).nth(i);
        assert_eq!(c.sent_after(8, round_at)[0], 80);
        // after 3 rounds: 12 + 8 + 8 = 28 B
        assert_eq!(c.sent_after(3, round_at)[0], 28);
        // rank 1 receives rank 0's chunks 0, 4, 3: the same 28 B
        assert_eq!(c.recv_after(3, round_at)[1], 28);
        assert_eq!(
            c.executed_time(1.0, 0.5),
            run.counts.executed_time(1.0, 0.5)
        );
        let bad = Round {
            phase: Phase::ReduceScatter,
            note: String::new(),
            transfers: vec![Transfer {
                src: 0,
                dst: 5,
                range: 0..1,
                op: Op::Reduce,
                chunk: None,
            }],
        };
        assert!(count_streamed(5, 13, 4, [bad]).is_err());
    }

    #[test]
    fn chunk_grid_rejects_a_range_off_the_chunk_bounds() {
        let round = Round {
            phase: Phase::ReduceScatter,
            note: String::new(),
            transfers: vec![Transfer {
                src: 0,
                dst: 1,
                range: 0..3,
                op: Op::Reduce,
                chunk: None,
            }],
        };
        // p = 2, n = 8: chunks [0, 4) and [4, 8); 3 is not a bound
        assert!(chunk_grid(2, 8, [&round]).is_err());
        let mut far = round.clone();
        far.transfers[0].dst = 2;
        far.transfers[0].range = 0..4;
        assert!(chunk_grid(2, 8, [&far]).is_err());
    }
}
