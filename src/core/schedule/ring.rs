//! Ring reduce-scatter, ring all-gather and ring all-reduce.
//!
//! Ranks form a logical ring; in every round rank `r` sends one chunk to its
//! successor `(r + 1) mod p` and receives one from its predecessor. The tensor
//! of `n` elements is split into `p` chunks with [`chunk_range`].
//!
//! Reduce-scatter takes `p − 1` rounds and leaves rank `r` with the fully
//! reduced chunk `(r + 1) mod p`; all-gather takes `p − 1` more rounds that
//! *copy* the finished chunks around. Each rank sends `2(p − 1)/p · n`
//! elements in all when chunks are equal (Patarasuk & Yuan 2009; Thakur,
//! Rabenseifner & Gropp 2005, §4).

use super::{
    check_args, chunk_range, Chunks, Computation, Op, Phase, Round, Schedule, ScheduleError,
    Transfer,
};

/// Chunk that rank `r` sends in round `k` of a ring pass whose rank `r`
/// starts from chunk `(r + offset) mod p`.
fn ring_chunk(r: usize, k: usize, offset: usize, p: usize) -> usize {
    (r + offset + p * 2 - k % p) % p
}

/// Round `k` of a ring pass (see [`ring_chunk`]). Rank `r` sends chunk
/// `ring_chunk(r, ..)`, which is rank 0's chunk plus `r` (mod p), so the
/// chunk and the successor advance by one per rank instead of being
/// divided out: at p = 1024 the numbers-only view generates 2 million of
/// these transfers before its first paint.
fn ring_round(p: usize, n: u64, k: usize, offset: usize, op: Op, phase: Phase) -> Round {
    let chunks = Chunks::new(n, p);
    let next = |i: usize| if i + 1 == p { 0 } else { i + 1 };
    let mut c = ring_chunk(0, k, offset, p);
    Round {
        phase,
        note: String::new(),
        transfers: (0..p)
            .map(|r| {
                let t = Transfer {
                    src: r,
                    dst: next(r),
                    range: chunks.range(c),
                    op,
                    chunk: Some(c),
                };
                c = next(c);
                t
            })
            .collect(),
    }
}

fn ring_pass(p: usize, n: u64, offset: usize, op: Op, phase: Phase) -> Vec<Round> {
    (0..p - 1)
        .map(|k| ring_round(p, n, k, offset, op, phase))
        .collect()
}

/// The rounds of [`ring_all_reduce_schedule`], produced one at a time, so a caller
/// that only counts them (numbers-only mode at p = 1024: 2 046 rounds of
/// 1 024 transfers) never holds the whole schedule. Yields nothing when
/// `p < 2`.
pub fn ring_all_reduce_rounds(p: usize, n: u64) -> impl Iterator<Item = Round> {
    let k = p.saturating_sub(1);
    (0..k)
        .map(move |i| ring_round(p, n, i, 0, Op::Reduce, Phase::ReduceScatter))
        .chain((0..k).map(move |i| ring_round(p, n, i, 1, Op::Copy, Phase::AllGather)))
}

/// Where round `i` (0-based) of [`ring_all_reduce_schedule`] sits in its
/// phase: `(k, of)`, round `k` (1-based) of the `of = p − 1` rounds of the
/// reduce-scatter or the all-gather, as [`Schedule::position_in_phase`]
/// gives it. `None` when `i ≥ 2(p − 1)`.
pub fn ring_all_reduce_position(p: usize, i: usize) -> Option<(usize, usize)> {
    let k = p.saturating_sub(1);
    if i < 2 * k {
        Some((i % k + 1, k))
    } else {
        None
    }
}

/// Round `i` (0-based) of [`ring_all_reduce_schedule`] alone, with its label as
/// [`Schedule::round_label`] gives it (`"reduce-scatter, round 3 of 1023"`),
/// without generating the other rounds. `None` when `i ≥ 2(p − 1)`.
pub fn ring_all_reduce_round(p: usize, n: u64, i: usize) -> Option<(Round, String)> {
    let k = p.saturating_sub(1);
    let (round, pos) = if i < k {
        (ring_round(p, n, i, 0, Op::Reduce, Phase::ReduceScatter), i)
    } else if i < 2 * k {
        (
            ring_round(p, n, i - k, 1, Op::Copy, Phase::AllGather),
            i - k,
        )
    } else {
        return None;
    };
    let label = format!("{}, round {} of {k}", round.phase, pos + 1);
    Some((round, label))
}

/// Element ranges owned at the end of [`ring_reduce_scatter_schedule`]: rank `r` owns
/// chunk `(r + 1) mod p`.
pub fn ring_reduce_scatter_owned(p: usize, n: u64) -> Vec<std::ops::Range<u64>> {
    (0..p).map(|r| chunk_range(n, p, (r + 1) % p)).collect()
}

/// Ring reduce-scatter: `p − 1` rounds; in round `k` rank `r` sends chunk
/// `(r − k) mod p` to rank `r + 1`, which adds it to its own copy.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn ring_reduce_scatter_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::ReduceScatter {
            owned: ring_reduce_scatter_owned(p, n),
        },
        rounds: ring_pass(p, n, 0, Op::Reduce, Phase::ReduceScatter),
    })
}

/// Ring all-gather where rank `r` starts owning chunk `r`: `p − 1` rounds; in
/// round `k` rank `r` copies chunk `(r − k) mod p` to rank `r + 1`.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn ring_all_gather_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllGather {
            owned: (0..p).map(|r| chunk_range(n, p, r)).collect(),
        },
        rounds: ring_pass(p, n, 0, Op::Copy, Phase::AllGather),
    })
}

/// Ring all-reduce = ring reduce-scatter followed by ring all-gather:
/// `2(p − 1)` rounds.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn ring_all_reduce_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    let rs = ring_reduce_scatter_schedule(p, n, elem_bytes)?;
    // built field by field: `..rs.clone()` would copy every reduce-scatter
    // round (a million transfers at p = 1024) only to drop them
    let ag = Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds: ring_pass(p, n, 1, Op::Copy, Phase::AllGather),
    };
    Ok(rs.then(ag, Computation::AllReduce))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_all_reduce_p4_round_structure() {
        let s = ring_all_reduce_schedule(4, 100, 1).expect("valid");
        assert_eq!(s.num_rounds(), 6);
        // round 1: rank 3 sends chunk 3 to rank 0 and reduces.
        let t = &s.rounds[0].transfers[3];
        assert_eq!((t.src, t.dst, t.chunk, t.op), (3, 0, Some(3), Op::Reduce));
        // first all-gather round: rank r copies its finished chunk r+1.
        let t = &s.rounds[3].transfers[0];
        assert_eq!((t.src, t.dst, t.chunk, t.op), (0, 1, Some(1), Op::Copy));
        assert_eq!(s.round_label(1), "reduce-scatter, round 2 of 3");
        assert_eq!(s.round_label(5), "all-gather, round 3 of 3");
    }

    #[test]
    fn every_transfer_carries_the_chunk_the_ring_rule_names() {
        // the rule written out with divisions: in round k of a pass that
        // starts from chunk r + offset, rank r sends chunk (r + offset − k)
        // mod p to (r + 1) mod p
        for p in [2, 3, 5, 8, 13] {
            for n in [1, 7, 64, 1000] {
                for (offset, op) in [(0, Op::Reduce), (1, Op::Copy)] {
                    for k in 0..p - 1 {
                        let round = ring_round(p, n, k, offset, op, Phase::ReduceScatter);
                        assert_eq!(round.transfers.len(), p);
                        for (r, t) in round.transfers.iter().enumerate() {
                            let c = (r + offset + p - k) % p;
                            assert_eq!(t.src, r);
                            assert_eq!(t.dst, (r + 1) % p, "p={p} k={k} r={r}");
                            assert_eq!(t.chunk, Some(c), "p={p} k={k} r={r}");
                            assert_eq!(t.range, chunk_range(n, p, c), "p={p} n={n} c={c}");
                            assert_eq!(t.op, op);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn one_round_alone_equals_the_schedule_round_and_label() {
        for p in [2, 3, 4, 7] {
            let s = ring_all_reduce_schedule(p, 37, 4).expect("valid");
            for (i, r) in s.rounds.iter().enumerate() {
                let (round, label) = ring_all_reduce_round(p, 37, i).expect("in range");
                assert_eq!(&round, r);
                assert_eq!(label, s.round_label(i));
            }
            assert!(ring_all_reduce_round(p, 37, s.rounds.len()).is_none());
        }
        let (_, label) = ring_all_reduce_round(1024, 1024, 1023).expect("in range");
        assert_eq!(label, "all-gather, round 1 of 1023");
    }

    #[test]
    fn lazy_rounds_equal_the_schedule() {
        for p in 2..=12 {
            let s = ring_all_reduce_schedule(p, 37, 4).expect("valid");
            let lazy: Vec<Round> = ring_all_reduce_rounds(p, 37).collect();
            assert_eq!(lazy, s.rounds, "p={p}");
        }
        assert_eq!(ring_all_reduce_rounds(1, 10).count(), 0);
    }
}
