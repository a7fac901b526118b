//! Collective schedules: a collective is a list of rounds, each a set of
//! simultaneous point-to-point transfers over element ranges.
//!
//! A [`Schedule`] is pure data. [`crate::core::execute::execute`] runs it on
//! real per-rank buffers and produces a [`crate::core::execute::Trace`].
//!
//! Element ranges are half-open `[lo, hi)` indices into a tensor of
//! `n` elements of `elem_bytes` bytes each, so a transfer moves
//! `(hi - lo) * elem_bytes` bytes. Chunks need not be equal: when `n` does not
//! divide by `p`, [`chunk_range`] gives the first `n % p` chunks one extra
//! element, and every byte counter shows the difference.

use std::fmt;
use std::ops::Range;

pub mod recursive;
pub mod ring;

/// What a transfer does at the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `dst[range] += src[range]` (element-wise sum).
    Reduce,
    /// `dst[range] = src[range]` (overwrite; never adds).
    Copy,
}

impl Op {
    /// Lower-case name used in labels: "reduce" or "copy".
    pub fn label(self) -> &'static str {
        match self {
            Op::Reduce => "reduce",
            Op::Copy => "copy",
        }
    }
}

/// One point-to-point message inside a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// Sending rank, `0..p`.
    pub src: usize,
    /// Receiving rank, `0..p`.
    pub dst: usize,
    /// Element range `[lo, hi)` of the tensor that travels.
    pub range: Range<u64>,
    /// What the receiver does with it.
    pub op: Op,
    /// Chunk index for display, when the range is one of the `p` ring chunks.
    pub chunk: Option<usize>,
}

impl Transfer {
    /// Number of elements moved.
    pub fn len(&self) -> u64 {
        self.range.end - self.range.start
    }

    /// Bytes moved: the number of elements × `elem_bytes` (bytes per
    /// element). Every byte counter and α–β time uses this product.
    pub fn bytes(&self, elem_bytes: u64) -> u64 {
        self.len() * elem_bytes
    }

    /// True when the range is empty (possible when `n < p`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The phase a round belongs to. Labels use the field's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Ring or recursive-halving reduce-scatter.
    ReduceScatter,
    /// Ring or recursive-doubling all-gather.
    AllGather,
    /// Full-buffer exchange-and-add (recursive doubling all-reduce).
    Exchange,
    /// Reduce towards a root (tree or naive root).
    Reduce,
    /// Broadcast from a root (tree or naive root).
    Broadcast,
    /// Non-power-of-two adaptation: extra ranks hand their data to a partner
    /// inside the largest power-of-two subset.
    FoldIn,
    /// Non-power-of-two adaptation: the result goes back to the extra ranks.
    FoldOut,
    /// Hierarchical, level 1: reduce inside each node to its leader.
    NodeReduce,
    /// Hierarchical, level 2: reduce-scatter among the node leaders.
    LeaderReduceScatter,
    /// Hierarchical, level 2: all-gather among the node leaders.
    LeaderAllGather,
    /// Hierarchical, level 2: full-buffer exchange among the node leaders.
    LeaderExchange,
    /// Hierarchical, level 1: broadcast inside each node from its leader.
    NodeBroadcast,
    /// All-to-all: blocks travel towards the ranks they are addressed to.
    AllToAll,
}

impl Phase {
    /// Human label, e.g. "reduce-scatter".
    pub fn label(self) -> &'static str {
        match self {
            Phase::ReduceScatter => "reduce-scatter",
            Phase::AllGather => "all-gather",
            Phase::Exchange => "exchange",
            Phase::Reduce => "reduce",
            Phase::Broadcast => "broadcast",
            Phase::FoldIn => "fold-in (extra ranks → power-of-two subset)",
            Phase::FoldOut => "unfold (result → extra ranks)",
            Phase::NodeReduce => "reduce inside each node",
            Phase::LeaderReduceScatter => "reduce-scatter among node leaders",
            Phase::LeaderAllGather => "all-gather among node leaders",
            Phase::LeaderExchange => "exchange among node leaders",
            Phase::NodeBroadcast => "broadcast inside each node",
            Phase::AllToAll => "all-to-all",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One round: transfers that happen at the same time. Every transfer reads the
/// state from *before* the round.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// The phase of the algorithm this round belongs to.
    pub phase: Phase,
    /// Extra description for the label, e.g. "partner = rank XOR 2". May be empty.
    pub note: String,
    /// The simultaneous transfers.
    pub transfers: Vec<Transfer>,
}

impl Round {
    /// `(src, dst)` of every transfer, in order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        self.transfers.iter().map(|t| (t.src, t.dst)).collect()
    }

    /// Bytes of the round's largest message at `elem_bytes` bytes per
    /// element (0 for a round without transfers).
    pub fn largest_bytes(&self, elem_bytes: u64) -> u64 {
        self.transfers
            .iter()
            .map(|t| t.bytes(elem_bytes))
            .max()
            .unwrap_or(0)
    }
}

/// Which collective a schedule implements; decides how the result is verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Computation {
    /// Every rank ends with the element-wise sum of all inputs.
    AllReduce,
    /// Rank `r` ends with the element-wise sum on `owned[r]` only.
    ReduceScatter {
        /// Element range each rank owns at the end, indexed by rank.
        owned: Vec<Range<u64>>,
    },
    /// Rank `r` starts with valid data on `owned[r]` only; every rank ends with
    /// all ranks' pieces, copied and never added.
    AllGather {
        /// Element range each rank contributes, indexed by rank.
        owned: Vec<Range<u64>>,
    },
    /// The tensor is a p × p block matrix ([`block_range`]): block (o, d)
    /// is what rank o sends to rank d. Rank `r` starts with valid data on
    /// its row only (the blocks it sends, [`all_to_all_row`]) and ends
    /// holding its column, every block (o, r) with rank o's values, copied
    /// and never added: the transpose.
    AllToAll,
}

/// Element range of block (`origin`, `dest`) of an all-to-all over `p`
/// ranks and `n` elements: chunk `origin·p + dest` of `n` in `p²` nearly
/// equal chunks ([`chunk_range`]), so rank `origin`'s row is contiguous.
pub fn block_range(n: u64, p: usize, origin: usize, dest: usize) -> Range<u64> {
    chunk_range(n, p * p, origin * p + dest)
}

/// Element range of rank `r`'s row of the all-to-all block matrix: the
/// blocks (r, 0) … (r, p − 1) it sends, n/p elements when `p²` divides `n`.
pub fn all_to_all_row(n: u64, p: usize, r: usize) -> Range<u64> {
    block_range(n, p, r, 0).start..block_range(n, p, r, p.saturating_sub(1)).end
}

/// The one shape of every round title: `"{head}, round {k} of {of}"`, then
/// `": {detail}"` unless `detail` is empty, e.g. "reduce-scatter, round 2
/// of 3: partner = rank XOR 2".
pub fn round_heading(head: &str, k: usize, of: usize, detail: &str) -> String {
    if detail.is_empty() {
        format!("{head}, round {k} of {of}")
    } else {
        format!("{head}, round {k} of {of}: {detail}")
    }
}

/// A complete collective schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Number of ranks.
    pub p: usize,
    /// Tensor length in elements.
    pub n: u64,
    /// Bytes per element (4 for f32 gradients).
    pub elem_bytes: u64,
    /// What is being computed.
    pub collective: Computation,
    /// Rounds in execution order.
    pub rounds: Vec<Round>,
}

/// Errors from schedule generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// `p` must be at least 2.
    TooFewRanks(usize),
    /// The tensor must have at least one element.
    EmptyTensor,
    /// Bytes per element must be at least 1.
    ZeroElementSize,
    /// The topology does not have the shape this algorithm needs (e.g.
    /// multi-lane needs equal nodes); the text says what is missing.
    Shape(String),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::TooFewRanks(p) => {
                write!(f, "a collective needs at least 2 ranks (got p = {p})")
            }
            ScheduleError::EmptyTensor => f.write_str("the tensor needs at least one element"),
            ScheduleError::ZeroElementSize => f.write_str("an element needs at least 1 byte"),
            ScheduleError::Shape(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ScheduleError {}

/// Checks the arguments shared by every generator.
pub(crate) fn check_args(p: usize, n: u64, elem_bytes: u64) -> Result<(), ScheduleError> {
    if p < 2 {
        return Err(ScheduleError::TooFewRanks(p));
    }
    if n == 0 {
        return Err(ScheduleError::EmptyTensor);
    }
    if elem_bytes == 0 {
        return Err(ScheduleError::ZeroElementSize);
    }
    Ok(())
}

/// Element range of chunk `c` when `n` elements are split into `parts` nearly
/// equal chunks: the first `n % parts` chunks hold one extra element.
///
/// Panics never; `parts` of 0 is treated as 1.
pub fn chunk_range(n: u64, parts: usize, c: usize) -> Range<u64> {
    Chunks::new(n, parts).range(c)
}

/// The split of `n` elements into `parts` nearly equal chunks of
/// [`chunk_range`], with its two divisions done once: a generator that
/// needs the ranges of many chunks (a ring round at p = 1024 names 1 024)
/// asks [`Chunks::range`], which only multiplies and adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// ⌊n / parts⌋: elements in a short chunk.
    base: u64,
    /// n mod parts: how many chunks (the first ones) hold one more.
    extra: u64,
}

impl Chunks {
    /// `n` elements in `parts` chunks (`parts` of 0 is treated as 1).
    pub fn new(n: u64, parts: usize) -> Chunks {
        let parts = parts.max(1) as u64;
        Chunks {
            base: n / parts,
            extra: n % parts,
        }
    }

    /// Element range of chunk `c`, equal to `chunk_range(n, parts, c)`.
    pub fn range(self, c: usize) -> Range<u64> {
        let c = c as u64;
        let lo = c * self.base + c.min(self.extra);
        let len = self.base + u64::from(c < self.extra);
        lo..lo + len
    }
}

impl Chunks {
    /// The chunk that holds element `x`, for `x < n`.
    pub fn index_of(self, x: u64) -> usize {
        let long = self.extra * (self.base + 1);
        let c = if x < long || self.base == 0 {
            x / (self.base + 1)
        } else {
            self.extra + (x - long) / self.base
        };
        c as usize
    }
}

impl Schedule {
    /// Number of rounds (sequential steps).
    pub fn num_rounds(&self) -> usize {
        self.rounds.len()
    }

    /// Bytes each rank sends over the whole schedule, counted from its
    /// transfers (indexed by rank).
    pub fn bytes_sent_per_rank(&self) -> Vec<u64> {
        let mut sent = vec![0u64; self.p];
        for t in self.rounds.iter().flat_map(|r| &r.transfers) {
            if let Some(s) = sent.get_mut(t.src) {
                *s += t.bytes(self.elem_bytes);
            }
        }
        sent
    }

    /// Tensor size in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.n * self.elem_bytes
    }

    /// For round `i`, its 1-based position within the run of consecutive rounds
    /// of the same phase and that run's length: "round 2 of 3".
    pub fn position_in_phase(&self, i: usize) -> Option<(usize, usize)> {
        let phase = self.rounds.get(i)?.phase;
        let mut start = i;
        while start > 0 && self.rounds[start - 1].phase == phase {
            start -= 1;
        }
        let mut end = i + 1;
        while end < self.rounds.len() && self.rounds[end].phase == phase {
            end += 1;
        }
        Some((i - start + 1, end - start))
    }

    /// Label such as "reduce-scatter, round 2 of 3" (plus the round's note).
    pub fn round_label(&self, i: usize) -> String {
        match (self.rounds.get(i), self.position_in_phase(i)) {
            (Some(round), Some((k, of))) => round_heading(round.phase.label(), k, of, &round.note),
            _ => String::new(),
        }
    }

    /// Concatenates two schedules over the same tensor (e.g. reduce-scatter
    /// then all-gather). The collective of the result is `collective`.
    pub fn then(mut self, other: Schedule, collective: Computation) -> Self {
        self.rounds.extend(other.rounds);
        self.collective = collective;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transfer_moves_its_elements_times_their_size() {
        // elements 3..10 (7 of them) of 4-byte floats: 28 B
        let t = Transfer {
            src: 0,
            dst: 1,
            range: 3..10,
            op: Op::Copy,
            chunk: None,
        };
        assert_eq!((t.len(), t.bytes(4), t.bytes(1)), (7, 28, 7));
    }

    #[test]
    fn chunks_cover_the_tensor_with_unequal_sizes() {
        // 10 elements over 4 chunks: 3, 3, 2, 2.
        let r: Vec<_> = (0..4).map(|c| chunk_range(10, 4, c)).collect();
        assert_eq!(r, vec![0..3, 3..6, 6..8, 8..10]);
        // fewer elements than chunks: 2 over 4 gives 1, 1, 0, 0.
        let r: Vec<_> = (0..4).map(|c| chunk_range(2, 4, c)).collect();
        assert_eq!(r, vec![0..1, 1..2, 2..2, 2..2]);
    }

    #[test]
    fn every_element_finds_its_chunk_and_rows_are_contiguous() {
        // 10 elements over 4 chunks (3, 3, 2, 2): element 5 is in chunk 1,
        // element 6 in chunk 2, element 9 in chunk 3.
        let c = Chunks::new(10, 4);
        let idx: Vec<_> = (0..10).map(|x| c.index_of(x)).collect();
        assert_eq!(idx, vec![0, 0, 0, 1, 1, 1, 2, 2, 3, 3]);
        // 2 elements over 4 chunks: element 1 is chunk 1.
        assert_eq!(Chunks::new(2, 4).index_of(1), 1);
        // p = 3, 18 elements: 9 blocks of 2; block (1, 2) is chunk 5 =
        // 10..12, and rank 1's row is blocks 3..6 = 6..12.
        assert_eq!(block_range(18, 3, 1, 2), 10..12);
        assert_eq!(all_to_all_row(18, 3, 1), 6..12);
    }

    #[test]
    fn rejects_bad_arguments() {
        assert_eq!(check_args(1, 10, 4), Err(ScheduleError::TooFewRanks(1)));
        assert_eq!(check_args(4, 0, 4), Err(ScheduleError::EmptyTensor));
        assert_eq!(check_args(4, 10, 0), Err(ScheduleError::ZeroElementSize));
    }
}
