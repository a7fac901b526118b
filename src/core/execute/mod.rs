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

use std::fmt;
use std::ops::Range;

use super::schedule::Schedule;

mod count;
mod grid;
mod narrate;
mod run;
mod stream;

pub use count::{count_only, count_rounds, Counts};
pub use grid::{chunk_grid, CellChange, ChunkGrid};
pub(crate) use narrate::complete_share;
pub use narrate::{LogLine, LogValues};
pub use run::{execute, execute_checkpointed, execute_owned, run_on_buffers};
pub use stream::{count_streamed, execute_streamed, StreamCounts, Streamed, CHECKPOINT_ROUNDS};

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
pub(super) fn validate(schedule: &Schedule) -> Result<(), MalformedSchedule> {
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

#[cfg(test)]
mod tests;
