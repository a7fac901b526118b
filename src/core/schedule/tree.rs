//! Binomial-tree all-reduce: a binomial reduce to root 0 followed by a
//! binomial broadcast from root 0 (Thakur, Rabenseifner & Gropp 2005, §2 and
//! §4; the unpipelined "reduce + broadcast" decomposition of all-reduce).
//!
//! Every message carries the whole tensor of `n` elements. With
//! `L = ⌈log₂ p⌉` levels:
//! - reduce, level `k = 0..L`: every rank `r` with `r mod 2^(k+1) = 2^k` sends
//!   its partial sum to `r − 2^k`, which adds it;
//! - broadcast, level `j = 0..L` with distance `d = 2^(L−1−j)`: every rank `r`
//!   with `r mod 2d = 0` and `r + d < p` copies the result to `r + d`.
//!
//! So the schedule has `2⌈log₂ p⌉` rounds for any `p ≥ 2` (20 at p = 1024,
//! against the ring's `2(p − 1)` = 2046), and its α–β time is
//! `2⌈log₂ p⌉(α + nβ)`: few rounds, but every round moves the full tensor.

use super::{check_args, Collective, Op, Phase, Round, Schedule, ScheduleError, Transfer};

/// `⌈log₂ p⌉` for `p ≥ 1` (0 for `p ≤ 1`).
pub fn ceil_log2(p: usize) -> u32 {
    if p <= 1 {
        0
    } else {
        usize::BITS - (p - 1).leading_zeros()
    }
}

/// Binomial-tree reduce to root 0, then binomial broadcast from root 0, for
/// any `p ≥ 2`: `⌈log₂ p⌉` reduce rounds + `⌈log₂ p⌉` broadcast rounds, whole
/// tensor per message.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn binomial_tree(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let levels = ceil_log2(p);
    let whole = |src: usize, dst: usize, op: Op| Transfer {
        src,
        dst,
        range: 0..n,
        op,
        chunk: None,
    };
    let mut rounds = Vec::with_capacity(2 * levels as usize);
    for k in 0..levels {
        let d = 1usize << k;
        rounds.push(Round {
            phase: Phase::Reduce,
            note: format!("rank r + {d} → r for r a multiple of {}", 2 * d),
            transfers: (0..p)
                .filter(|r| r % (2 * d) == d)
                .map(|r| whole(r, r - d, Op::Reduce))
                .collect(),
        });
    }
    for j in 0..levels {
        let d = 1usize << (levels - 1 - j);
        rounds.push(Round {
            phase: Phase::Broadcast,
            note: format!("rank r → r + {d} for r a multiple of {}", 2 * d),
            transfers: (0..p)
                .filter(|r| r.is_multiple_of(2 * d) && r + d < p)
                .map(|r| whole(r, r + d, Op::Copy))
                .collect(),
        });
    }
    Ok(Schedule {
        algorithm: "tree",
        p,
        n,
        elem_bytes,
        collective: Collective::AllReduce,
        rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_log2_values() {
        assert_eq!(
            [1, 2, 3, 4, 5, 8, 9, 1024, 1025].map(ceil_log2),
            [0, 1, 2, 2, 3, 3, 4, 10, 11]
        );
    }

    #[test]
    fn p8_structure() {
        let s = binomial_tree(8, 10, 4).expect("valid");
        assert_eq!(s.num_rounds(), 6);
        // Level 0: 1→0, 3→2, 5→4, 7→6.
        let pairs = s.rounds[0].pairs();
        assert_eq!(pairs, vec![(1, 0), (3, 2), (5, 4), (7, 6)]);
        // Level 2: 4→0 only.
        let pairs = s.rounds[2].pairs();
        assert_eq!(pairs, vec![(4, 0)]);
        // First broadcast: 0→4; last: 0→1, 2→3, 4→5, 6→7.
        let pairs = s.rounds[3].pairs();
        assert_eq!(pairs, vec![(0, 4)]);
        let pairs = s.rounds[5].pairs();
        assert_eq!(pairs, vec![(0, 1), (2, 3), (4, 5), (6, 7)]);
        assert!(s.rounds[3..]
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.op == Op::Copy));
    }

    #[test]
    fn p6_skips_missing_ranks() {
        let s = binomial_tree(6, 10, 4).expect("valid");
        // ⌈log₂ 6⌉ = 3 levels each way.
        assert_eq!(s.num_rounds(), 6);
        // Level 2 reduce: 4→0; broadcast distance 4: 0→4 (no 0+4... 4+4 ≥ 6).
        let pairs = s.rounds[2].pairs();
        assert_eq!(pairs, vec![(4, 0)]);
        // Last broadcast (distance 1): 0→1, 2→3, 4→5.
        let pairs = s.rounds[5].pairs();
        assert_eq!(pairs, vec![(0, 1), (2, 3), (4, 5)]);
    }

    #[test]
    fn p1024_has_20_levels() {
        let s = binomial_tree(1024, 1, 4).expect("valid");
        assert_eq!(s.num_rounds(), 20);
    }
}
