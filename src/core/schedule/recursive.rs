//! The building blocks of the recursive algorithms (Thakur, Rabenseifner &
//! Gropp 2005, "Optimization of Collective Communication Operations in
//! MPICH", §4; Rabenseifner 2004): the power-of-two [`Fold`], the block
//! layouts, the halving and doubling rounds, and the two halves of
//! Rabenseifner's all-reduce on their own (recursive halving reduce-scatter,
//! recursive doubling all-gather). The recursive doubling all-reduce and
//! Rabenseifner's all-reduce are built from them in
//! `crate::core::collectives` (`recursive_doubling.rs`, `rabenseifner.rs`).
//!
//! For `p` a power of two:
//! - **recursive doubling** (all-reduce): in round `k = 0..log₂p` rank `r`
//!   exchanges its *whole* buffer with `r XOR 2^k` and adds. `log₂p` rounds,
//!   `n·log₂p` elements sent per rank (3n at p = 8).
//! - **recursive halving** (reduce-scatter): in round `k` the partner is
//!   `r XOR p/2^(k+1)`; each rank sends the half of its current window that the
//!   partner keeps and adds the half it keeps. The window halves every round,
//!   so a rank sends `n/2 + n/4 + … = (p − 1)/p · n` (7n/8 at p = 8).
//! - **recursive doubling all-gather**: the mirror image, partner `r XOR 2^k`
//!   with windows that double (`n/p, 2n/p, …`), *copying*, never adding.
//! - **Rabenseifner**: recursive halving reduce-scatter, then recursive
//!   doubling all-gather: `2 log₂p` rounds and `2(p − 1)/p · n` elements per
//!   rank, the ring's bytes in far fewer rounds (112 MB in 6 rounds at p = 8,
//!   64 MB, against the ring's 14 rounds).
//!
//! For other `p` the MPICH adaptation (§4 of the paper) is used. With
//! `p' = 2^⌊log₂p⌋` and `r = p − p'`:
//! 1. **fold-in**: the first `2r` ranks pair up; even rank `2i` sends to odd
//!    rank `2i + 1` (the whole buffer for all-reduce and reduce-scatter, which
//!    the odd rank adds; its own chunk for all-gather, which it copies);
//! 2. the `p'` survivors (the odd ranks below `2r` and every rank from `2r`
//!    on) are renumbered `0..p'` ([`Fold::old_rank`]) and run the
//!    power-of-two algorithm;
//! 3. **unfold**: each odd rank `2i + 1` copies the result back to `2i`.
//!
//! Those two extra phases are rounds of their own ([`Phase::FoldIn`],
//! [`Phase::FoldOut`]), so the counters and the animation show their cost:
//! two extra rounds, in which each paired odd rank receives up to `n` extra
//! elements and sends up to `n` more (for all-reduce: exactly `n` each way).

use std::ops::Range;

use super::{
    check_args, chunk_range, Computation, Op, Phase, Round, Schedule, ScheduleError, Transfer,
};

/// The MPICH-style fold of `p` ranks onto the largest power-of-two subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    /// Number of ranks.
    pub p: usize,
    /// `p' = 2^⌊log₂p⌋`: ranks that run the power-of-two core.
    pub core: usize,
    /// `r = p − p'`: ranks that sit out the core (ranks `0, 2, …, 2r − 2`).
    pub extra: usize,
}

impl Fold {
    /// The fold for `p ≥ 1` ranks (`p = 0` is treated as 1).
    pub fn new(p: usize) -> Self {
        let p = p.max(1);
        let core = 1usize << (usize::BITS - 1 - p.leading_zeros());
        Fold {
            p,
            core,
            extra: p - core,
        }
    }

    /// True when `p` is a power of two (no fold phases).
    pub fn is_power_of_two(&self) -> bool {
        self.extra == 0
    }

    /// The original rank of core rank `nr` (`0..p'`): `2nr + 1` for `nr < r`,
    /// else `nr + r`.
    pub fn old_rank(&self, nr: usize) -> usize {
        if nr < self.extra {
            2 * nr + 1
        } else {
            nr + self.extra
        }
    }

    /// The core rank of original rank `old`, or `None` for an extra rank
    /// (even rank below `2r`) that sits out the core.
    pub fn new_rank(&self, old: usize) -> Option<usize> {
        if old < 2 * self.extra {
            (old % 2 == 1).then_some(old / 2)
        } else if old < self.p {
            Some(old - self.extra)
        } else {
            None
        }
    }

    /// Number of core rounds, `log₂ p'`.
    pub fn levels(&self) -> u32 {
        self.core.trailing_zeros()
    }

    fn fold_round(&self, phase: Phase, note: String, f: impl Fn(usize) -> Transfer) -> Round {
        Round {
            phase,
            note,
            transfers: (0..self.extra).map(f).collect(),
        }
    }

    /// Fold-in round: even rank `2i` → odd rank `2i + 1` for `i < r`, moving
    /// `range(i)` with `op`.
    fn fold_in(&self, op: Op, range: impl Fn(usize) -> Range<u64>) -> Round {
        let note = format!(
            "{} extra rank{} hand{} data to an odd neighbour; {} ranks remain",
            self.extra,
            if self.extra == 1 { "" } else { "s" },
            if self.extra == 1 { "s" } else { "" },
            self.core
        );
        self.fold_round(Phase::FoldIn, note, |i| Transfer {
            src: 2 * i,
            dst: 2 * i + 1,
            range: range(i),
            op,
            chunk: None,
        })
    }

    /// Unfold round: odd rank `2i + 1` copies `range(i)` to `2i`.
    fn fold_out(&self, range: impl Fn(usize) -> Range<u64>) -> Round {
        let note = format!(
            "rank 2i + 1 copies the result back to extra rank 2i for i < {}",
            self.extra
        );
        self.fold_round(Phase::FoldOut, note, |i| Transfer {
            src: 2 * i + 1,
            dst: 2 * i,
            range: range(i),
            op: Op::Copy,
            chunk: None,
        })
    }

    /// The note of a core round at distance `d`, e.g. "partner = rank XOR 2".
    pub fn partner_note(&self, d: usize) -> String {
        if self.is_power_of_two() {
            format!("partner = rank XOR {d}")
        } else {
            format!(
                "partner = core rank XOR {d} (the {} remaining ranks renumbered 0–{})",
                self.core,
                self.core - 1
            )
        }
    }
}

/// Block layout for the power-of-two core: `blocks[nr]` is the element range
/// core rank `nr` ends up responsible for. Blocks are contiguous and in order.
pub struct Blocks {
    ranges: Vec<Range<u64>>,
    /// When blocks are exactly the `p` ring chunks, `chunk` labels are set.
    are_chunks: bool,
}

impl Blocks {
    /// Range covered by the aligned window of core ranks `[base, base + len)`.
    pub fn window(&self, base: usize, len: usize) -> Range<u64> {
        let lo = self.ranges.get(base).map_or(0, |r| r.start);
        let hi = self
            .ranges
            .get(base + len - 1)
            .map_or(lo, |r| r.end)
            .max(lo);
        lo..hi
    }

    /// The ring-chunk label of a one-block window, when blocks are chunks.
    pub fn chunk(&self, base: usize, len: usize) -> Option<usize> {
        (self.are_chunks && len == 1).then_some(base)
    }

    /// Equal split of `n` over the `p'` core ranks (all-reduce).
    pub fn equal(n: u64, fold: &Fold) -> Self {
        Blocks {
            ranges: (0..fold.core)
                .map(|i| chunk_range(n, fold.core, i))
                .collect(),
            are_chunks: fold.is_power_of_two(),
        }
    }

    /// Core rank `nr` covers the ring chunks of the original ranks it stands
    /// for: chunks `2nr, 2nr + 1` when `nr < r`, else chunk `nr + r`
    /// (reduce-scatter and all-gather, whose result is per original rank).
    pub fn per_original_rank(n: u64, fold: &Fold) -> Self {
        let p = fold.p;
        Blocks {
            ranges: (0..fold.core)
                .map(|nr| {
                    if nr < fold.extra {
                        chunk_range(n, p, 2 * nr).start..chunk_range(n, p, 2 * nr + 1).end
                    } else {
                        chunk_range(n, p, nr + fold.extra)
                    }
                })
                .collect(),
            are_chunks: fold.is_power_of_two(),
        }
    }
}

/// Recursive-halving rounds on the core: distance `d = p'/2, p'/4, …, 1`.
pub fn halving_rounds(fold: &Fold, blocks: &Blocks) -> Vec<Round> {
    (0..fold.levels())
        .map(|k| {
            let d = fold.core >> (k + 1);
            Round {
                phase: Phase::ReduceScatter,
                note: fold.partner_note(d),
                transfers: (0..fold.core)
                    .map(|nr| {
                        let partner = nr ^ d;
                        // The partner keeps the half of the 2d-window it lies in.
                        let base = partner & !(d - 1);
                        Transfer {
                            src: fold.old_rank(nr),
                            dst: fold.old_rank(partner),
                            range: blocks.window(base, d),
                            op: Op::Reduce,
                            chunk: blocks.chunk(base, d),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Doubling rounds on the core, distance `d = 1, 2, …, p'/2`: in each,
/// every core rank `nr` sends to `nr XOR d` what `send(nr, d)` gives as
/// `(range, op, chunk)`. The all-reduce exchanges whole buffers; the
/// all-gather copies its `d`-window ([`doubling_gather_rounds`]).
pub fn doubling_rounds(
    fold: &Fold,
    phase: Phase,
    send: impl Fn(usize, usize) -> (Range<u64>, Op, Option<usize>),
) -> Vec<Round> {
    (0..fold.levels())
        .map(|k| {
            let d = 1usize << k;
            Round {
                phase,
                note: fold.partner_note(d),
                transfers: (0..fold.core)
                    .map(|nr| {
                        let (range, op, chunk) = send(nr, d);
                        Transfer {
                            src: fold.old_rank(nr),
                            dst: fold.old_rank(nr ^ d),
                            range,
                            op,
                            chunk,
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Recursive-doubling all-gather rounds on the core: distance
/// `d = 1, 2, …, p'/2`; rank `nr` copies its `d`-window to `nr XOR d`.
pub fn doubling_gather_rounds(fold: &Fold, blocks: &Blocks) -> Vec<Round> {
    doubling_rounds(fold, Phase::AllGather, |nr, d| {
        let base = nr & !(d - 1);
        (blocks.window(base, d), Op::Copy, blocks.chunk(base, d))
    })
}

/// Wraps core rounds in whole-buffer fold-in (reduce) and unfold (copy)
/// rounds when `p` is not a power of two.
pub fn with_whole_buffer_fold(fold: &Fold, n: u64, core: Vec<Round>) -> Vec<Round> {
    if fold.is_power_of_two() {
        return core;
    }
    let mut rounds = Vec::with_capacity(core.len() + 2);
    rounds.push(fold.fold_in(Op::Reduce, |_| 0..n));
    rounds.extend(core);
    rounds.push(fold.fold_out(|_| 0..n));
    rounds
}

/// Element ranges owned at the end of [`recursive_halving_reduce_scatter_schedule`]
/// (and contributed at the start of [`recursive_doubling_all_gather_schedule`]): rank
/// `r` owns ring chunk `r`.
pub fn recursive_owned(p: usize, n: u64) -> Vec<Range<u64>> {
    (0..p).map(|r| chunk_range(n, p, r)).collect()
}

/// Recursive halving reduce-scatter: rank `r` ends with the sum over all
/// ranks of chunk `r`. `log₂p` rounds for a power of two, each rank sending
/// `(p − 1)/p · n` elements; otherwise whole-buffer fold-in, the core on
/// `p'` ranks (core rank `i < r` covers chunks `2i` and `2i + 1`), and an
/// unfold round in which rank `2i + 1` copies chunk `2i` to rank `2i`.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn recursive_halving_reduce_scatter_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    half_collective(p, n, elem_bytes, false)
}

/// Recursive doubling all-gather: rank `r` starts with chunk `r` and every
/// rank ends with all chunks, copied and never added. `log₂p` rounds for a
/// power of two with windows `n/p, 2n/p, …, n/2`; otherwise rank `2i` first
/// copies its chunk to `2i + 1`, the core runs on `p'` ranks, and rank
/// `2i + 1` copies the whole buffer back.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn recursive_doubling_all_gather_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    half_collective(p, n, elem_bytes, true)
}

/// The two halves of Rabenseifner's all-reduce on their own, over blocks of
/// the original ranks' chunks: recursive halving reduce-scatter (`gather`
/// false: the whole buffer folds in, chunk `2i` goes back to the extra rank)
/// or recursive doubling all-gather (`gather` true: chunk `2i` folds in, the
/// whole buffer goes back).
fn half_collective(
    p: usize,
    n: u64,
    elem_bytes: u64,
    gather: bool,
) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let fold = Fold::new(p);
    let blocks = Blocks::per_original_rank(n, &fold);
    let whole = |_| 0..n;
    let own = |i: usize| chunk_range(n, p, 2 * i);
    let mut rounds = Vec::new();
    if !fold.is_power_of_two() {
        rounds.push(if gather {
            fold.fold_in(Op::Copy, own)
        } else {
            fold.fold_in(Op::Reduce, whole)
        });
    }
    if gather {
        rounds.extend(doubling_gather_rounds(&fold, &blocks));
    } else {
        rounds.extend(halving_rounds(&fold, &blocks));
    }
    if !fold.is_power_of_two() {
        rounds.push(if gather {
            fold.fold_out(whole)
        } else {
            fold.fold_out(own)
        });
    }
    let owned = recursive_owned(p, n);
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: if gather {
            Computation::AllGather { owned }
        } else {
            Computation::ReduceScatter { owned }
        },
        rounds,
    })
}

/// `(src, dst, range)` of every transfer of `r` (for the tests of the
/// recursive schedules).
#[cfg(test)]
pub(crate) fn pairs(r: &Round) -> Vec<(usize, usize, Range<u64>)> {
    r.transfers
        .iter()
        .map(|t| (t.src, t.dst, t.range.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_renumbering_p6() {
        // p = 6: p' = 4, r = 2; ranks 0 and 2 sit out; survivors 1, 3, 4, 5.
        let f = Fold::new(6);
        assert_eq!((f.core, f.extra), (4, 2));
        assert_eq!(
            (0..4).map(|i| f.old_rank(i)).collect::<Vec<_>>(),
            vec![1, 3, 4, 5]
        );
        assert_eq!(
            (0..6).map(|o| f.new_rank(o)).collect::<Vec<_>>(),
            vec![None, Some(0), None, Some(1), Some(2), Some(3)]
        );
        let f = Fold::new(8);
        assert!(f.is_power_of_two());
        assert_eq!(f.levels(), 3);
    }

    #[test]
    fn halving_p8_partners_and_windows() {
        let s = recursive_halving_reduce_scatter_schedule(8, 80, 4).expect("valid");
        assert_eq!(s.num_rounds(), 3);
        // Round 1: partner XOR 4; rank 0 sends the upper half 40..80 to rank 4.
        assert_eq!(pairs(&s.rounds[0])[0], (0, 4, 40..80));
        assert_eq!(pairs(&s.rounds[0])[4], (4, 0, 0..40));
        // Round 2: partner XOR 2; rank 0 sends 20..40 to rank 2.
        assert_eq!(pairs(&s.rounds[1])[0], (0, 2, 20..40));
        assert_eq!(s.rounds[1].note, "partner = rank XOR 2");
        // Round 3: partner XOR 1; rank 0 sends chunk 1 (10..20) to rank 1.
        assert_eq!(pairs(&s.rounds[2])[0], (0, 1, 10..20));
        assert_eq!(s.rounds[2].transfers[0].chunk, Some(1));
    }

    #[test]
    fn halving_p6_owned_blocks() {
        // p = 6, n = 12: chunks of 2. Core rank 0 (rank 1) covers chunks 0,1 = 0..4.
        let s = recursive_halving_reduce_scatter_schedule(6, 12, 1).expect("valid");
        assert_eq!(s.num_rounds(), 4);
        // Core round XOR 2: rank 1 (core 0) sends core ranks 2,3 = chunks 4,5 = 8..12 to rank 4.
        assert_eq!(pairs(&s.rounds[1])[0], (1, 4, 8..12));
        // Unfold: rank 1 copies chunk 0 to rank 0; rank 3 copies chunk 2 to rank 2.
        assert_eq!(pairs(&s.rounds[3]), vec![(1, 0, 0..2), (3, 2, 4..6)]);
    }
}
