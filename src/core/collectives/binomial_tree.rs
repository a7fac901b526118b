//! Binomial-tree all-reduce (`tree`): a binomial reduce to root 0, then a
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
//! The hierarchical all-reduce runs the same levels inside every node
//! ([`binomial_levels`]).
//!
//! Closed form: `2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p` (Thakur,
//! Rabenseifner & Gropp 2005, §2).

use super::pieces::Split;
use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::{ceil_log2, Formula};
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{
    check_args, Computation, Op, Phase, Round, Schedule, ScheduleError, Transfer,
};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// The levels of a binomial reduce to (`reduce`) or broadcast from local
/// rank 0 among the `g` ranks `base..base + g`, whole tensor of `n`
/// elements per message: `⌈log₂ g⌉` transfer lists. Reduce level `k`: local
/// rank `r` with `r mod 2^(k+1) = 2^k` sends to `r − 2^k`, which adds;
/// broadcast level `j`, distance `d = 2^(L−1−j)`: local rank `r` with
/// `r mod 2d = 0` and `r + d < g` copies to `r + d`.
pub fn binomial_levels(base: usize, g: usize, n: u64, reduce: bool) -> Vec<Vec<Transfer>> {
    let levels = ceil_log2(g);
    (0..levels)
        .map(|j| {
            let d = if reduce {
                1usize << j
            } else {
                1usize << (levels - 1 - j)
            };
            let op = if reduce { Op::Reduce } else { Op::Copy };
            (0..g)
                .filter(|r| {
                    if reduce {
                        r % (2 * d) == d
                    } else {
                        r.is_multiple_of(2 * d) && r + d < g
                    }
                })
                .map(|r| {
                    let (src, dst) = if reduce { (r, r - d) } else { (r, r + d) };
                    Transfer {
                        src: base + src,
                        dst: base + dst,
                        range: 0..n,
                        op,
                        chunk: None,
                    }
                })
                .collect()
        })
        .collect()
}

/// The note of binomial level `level` of `levels` (distance `d` as in
/// [`binomial_levels`]), e.g. "rank r + 2 → r for r a multiple of 4", with
/// `who` ("rank" or "local rank") naming the ranks.
pub fn level_note(who: &str, levels: usize, level: usize, reduce: bool) -> String {
    if reduce {
        let d = 1usize << level;
        format!("{who} r + {d} → r for r a multiple of {}", 2 * d)
    } else {
        let d = 1usize << (levels - 1 - level);
        format!("{who} r → r + {d} for r a multiple of {}", 2 * d)
    }
}

/// Binomial-tree reduce to root 0, then binomial broadcast from root 0, for
/// any `p ≥ 2`: `⌈log₂ p⌉` reduce rounds + `⌈log₂ p⌉` broadcast rounds, whole
/// tensor per message.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn binomial_tree_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let mut rounds = Vec::new();
    for (phase, reduce) in [(Phase::Reduce, true), (Phase::Broadcast, false)] {
        let levels = binomial_levels(0, p, n, reduce);
        let count = levels.len();
        rounds.extend(levels.into_iter().enumerate().map(|(j, transfers)| Round {
            phase,
            note: level_note("rank", count, j, reduce),
            transfers,
        }));
    }
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds,
    })
}

/// Basic binomial-tree all-reduce (unpipelined reduce to a root, then
/// broadcast, full tensor per message):
/// `T = 2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §2 (binomial reduce and
/// broadcast); course §7.
pub fn binomial_tree_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let coeffs = [
        Coeff::levels(p).twice(),
        Coeff::levels(p).twice(),
        Coeff::levels(p),
    ];
    let expression = "2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ";
    let terms = Terms::any_p("binomial tree all-reduce", expression, coeffs);
    let terms = if p.is_power_of_two() || p <= 1 {
        terms
    } else {
        terms.labelled(format!("any p (⌈log₂{p}⌉ = {} levels)", ceil_log2(p)))
    };
    terms.formula(p, n_bytes, c)
}

/// Binomial-tree reduce + broadcast.
pub struct BinomialTree;

/// Narration of a broadcast round from root 0 (shared with the naive root).
pub(super) const BROADCAST_TEXT: &str =
    "the finished sum is copied one level further from root 0 (no addition)";

impl CollectiveAlgorithm for BinomialTree {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "tree",
            label: "binomial tree reduce + broadcast",
            short_label: "binomial tree",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "along a binomial tree"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        binomial_tree_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        binomial_tree_all_reduce_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let l = f64::from(ceil_log2(topo.p()));
        [2.0 * l, 2.0 * l, l]
    }
    fn flat_rounds(&self, p: usize) -> Rounds {
        // Every message of the closed form is the same share of n.
        uniform_rounds(self.factors(&super::flat(p)))
    }
    fn equal_parts(&self, _topo: &Topology) -> usize {
        1
    }
    fn on_topology(&self) -> Option<TopologyInfo> {
        None
    }
    fn topology_schedule(&self, _: &Topology, _: u64, _: u64) -> Result<Schedule, ScheduleError> {
        Err(not_on_topology(self.descriptor().key))
    }
    fn topology_time(&self, _: &Topology, _: u64, _: u64, _: Split) -> Option<f64> {
        None
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        if round.phase == Phase::Broadcast {
            BROADCAST_TEXT.into()
        } else {
            "partial sums (whole tensors) move one level down the binomial tree and are added"
                .into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schedule::Op;

    #[test]
    fn ceil_log2_values() {
        assert_eq!(
            [1, 2, 3, 4, 5, 8, 9, 1024, 1025].map(ceil_log2),
            [0, 1, 2, 2, 3, 3, 4, 10, 11]
        );
    }

    #[test]
    fn p8_structure() {
        let s = binomial_tree_schedule(8, 10, 4).expect("valid");
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
        let s = binomial_tree_schedule(6, 10, 4).expect("valid");
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
        let s = binomial_tree_schedule(1024, 1, 4).expect("valid");
        assert_eq!(s.num_rounds(), 20);
    }
}
