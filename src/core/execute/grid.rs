//! The chunk-grid display model: which chunk of which rank changed in a
//! round ([`ChunkGrid`], [`chunk_grid`]).

use std::ops::Range;

use super::MalformedSchedule;
use crate::core::schedule::{Op, Round};

pub(super) fn cumulative(per_round: &[Vec<u64>], rounds: usize, p: usize) -> Vec<u64> {
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
/// `n` elements, tracking only which ranks' inputs each ring chunk holds (the
/// contributor sets of [`execute`](super::execute): a `Reduce` unites them, a
/// `Copy` overwrites them, and every transfer of a round reads the state from
/// before the round), and records the [`ChunkGrid`]: the counts before round 1
/// and the cells each round changed. No values are summed and no state per
/// round is kept, so a ring at p = 256 costs one pass over its 130 560
/// transfers and 65 536 bitsets of 4 words. The final counts equal the
/// contributor counts of [`execute`](super::execute) on the same schedule
/// (tested).
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
    use crate::core::schedule::chunk_range;
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
