//! Naive root all-reduce: every rank sends its full tensor to rank 0, which
//! reduces; rank 0 then sends the full result back to every rank.
//!
//! The root handles one full tensor at a time, so each of the `2(p − 1)`
//! messages is its own round: `T = 2(p − 1)(α + nβ)` (course §6: p = 4,
//! 100 MB at 12.5 GB/s, α = 0 gives 6 × 8 ms = 48 ms).

use super::{check_args, Collective, Op, Phase, Round, Schedule, ScheduleError, Transfer};

/// Naive root all-reduce at root 0, serialised at the root: `p − 1` reduce
/// rounds (rank `r` → 0) then `p − 1` broadcast rounds (0 → rank `r`).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn naive_root(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let one = |src: usize, dst: usize, op: Op, phase: Phase, note: String| Round {
        phase,
        note,
        transfers: vec![Transfer {
            src,
            dst,
            range: 0..n,
            op,
            chunk: None,
        }],
    };
    let mut rounds = Vec::with_capacity(2 * (p - 1));
    for r in 1..p {
        rounds.push(one(
            r,
            0,
            Op::Reduce,
            Phase::Reduce,
            format!("rank {r} → root 0"),
        ));
    }
    for r in 1..p {
        rounds.push(one(
            0,
            r,
            Op::Copy,
            Phase::Broadcast,
            format!("root 0 → rank {r}"),
        ));
    }
    Ok(Schedule {
        algorithm: "naive",
        p,
        n,
        elem_bytes,
        collective: Collective::AllReduce,
        rounds,
    })
}
