//! Double binary tree all-reduce (`dbtree`): two binary trees over the same
//! `p` ranks, tree A reducing and broadcasting the first half of the tensor
//! (elements `0..⌈n/2⌉`) and tree B the second half (`⌈n/2⌉..n`), so that
//! each rank does inner-node work in at most one of them (Sanders, Speck &
//! Träff 2009, "Two-tree algorithms for full bandwidth broadcast, reduction
//! and scan", Parallel Computing 35(12); NCCL 2.4's tree all-reduce).
//!
//! # The two trees (NCCL's `ncclGetBtree` / `ncclGetDtree`)
//! Tree A is an in-order binary tree rooted at rank 0. For a rank `r > 0`
//! let `b` be its lowest set bit (`r mod 2b = b`), its *level*:
//! - parent: `(r − b) | 2b` when that is `< p`, otherwise `r − b`;
//! - children: none when `b = 1` (every odd rank is a leaf); otherwise a
//!   first child `r − b/2` and a second child `r + c`, `c` the largest power
//!   of two `≤ b/2` with `r + c < p` (none if there is no such `c`);
//! - root 0 has one child, `2^(⌈log₂p⌉−1)`, the largest power of two `< p`.
//!
//! So the inner ranks of A are exactly the even ranks. Tree B is tree A
//! relabelled: mirrored, `r → p − 1 − r`, when `p` is even, shifted,
//! `r → (r + 1) mod p`, when `p` is odd. Both maps send the even ranks to
//! odd ones, except the shift's `p − 1 → 0`. Hence (tested for
//! p = 2..=64):
//! - `p` even: exact complementarity, every rank is inner in exactly one
//!   tree and a leaf in the other;
//! - `p` odd: the same for every rank but 0, which is A's root and B's
//!   image of A's rank `p − 1`, and has exactly one child in each tree.
//!
//! (Mirroring for odd `p` would map every even rank to an even rank, and
//! all of A's inner ranks would be inner in B too; shifting works for even
//! `p` as well, NCCL mirrors there.)
//!
//! # Rounds
//! A reduce "round slot" of tree A is `(level k, first or second child)`:
//! the ranks of level `2^k` that are first (second) children send their
//! partial sums to their parents. Slots run `k = 0, 1, …, K` with
//! `K = ⌈log₂p⌉ − 1`, first children before second children; the slot
//! `(K, first)` is always empty (the only rank of level `2^K` is the root's
//! child, a second child) and is skipped; `(k, second)` for `k < K` is
//! non-empty exactly when `3·2^k < p`. So each phase has
//! `R = ⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉` rounds (1 at p = 2, 2 at p = 3, 3 at p = 4,
//! 5 at p = 7 and 8, 7 at p = 16).
//!
//! Tree B's slots are the images of tree A's, so the two trees share every
//! round and no round had to be split. In a reduce round the receivers are
//! inner ranks, even in A and odd in B, except B's rank 0 for odd `p`: it
//! receives only in a first-child slot, A's rank 0 (the root) only in the
//! second-child slot `(K, second)`. The senders of one level are of one
//! parity in A and of the other in B (A's root never sends up). So every
//! rank sends at most one and receives at most one message per round
//! (tested for p = 2..=64). The broadcast runs the same rounds in reverse,
//! parents copying to children, so the same holds with sends and receives
//! swapped.
//!
//! Closed form of this (unsegmented) schedule under the flat rule, with
//! every message half the tensor:
//! `T = 2Rα + R·nβ + (R/2)·nγ` (that is `2R(α + (n/2)β) + R(n/2)γ`),
//! `R = ⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉`, exact when `n` is even. With `k` segments
//! (split later by the timing engine, not here) the time tends to `2nβ`;
//! see `binary_tree.rs` for the pipelined asymptotics of all the trees.

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

/// Parent of rank `r` in tree A over `p` ranks, `None` for root 0 (and for
/// `r ≥ p`).
pub fn tree_a_parent(p: usize, r: usize) -> Option<usize> {
    if r == 0 || r >= p {
        return None;
    }
    let b = 1usize << r.trailing_zeros();
    let up = (r ^ b) | (b << 1);
    Some(if up < p { up } else { r ^ b })
}

/// Children of rank `r` in tree A over `p` ranks, `(first, second)`:
/// `r − b/2` and `r + c` as in the module doc; root 0 has only a second
/// child, `2^(⌈log₂p⌉−1)`; odd ranks have none.
pub fn tree_a_children(p: usize, r: usize) -> (Option<usize>, Option<usize>) {
    if r >= p || p < 2 {
        return (None, None);
    }
    if r == 0 {
        return (None, Some(1usize << (ceil_log2(p) - 1)));
    }
    let b = 1usize << r.trailing_zeros();
    if b == 1 {
        return (None, None);
    }
    let mut c = b / 2;
    while c > 0 && r + c >= p {
        c /= 2;
    }
    (Some(r - b / 2), (c > 0).then_some(r + c))
}

/// The relabelling that makes tree B from tree A: `p − 1 − r` for even
/// `p`, `(r + 1) mod p` for odd `p` (rank `r` of A plays the part of rank
/// `tree_b_rank(p, r)` in B).
pub fn tree_b_rank(p: usize, r: usize) -> usize {
    if p.is_multiple_of(2) {
        p - 1 - r
    } else {
        (r + 1) % p
    }
}

/// Reduce rounds per phase of the double binary tree over `p` ranks:
/// `R = ⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉` (0 for `p ≤ 1`).
pub fn double_tree_rounds_per_phase(p: usize) -> u32 {
    ceil_log2(p) + ceil_log2(p.div_ceil(3))
}

/// One reduce slot of tree A: its first (or second) children of level
/// `2^k` and their parents.
struct Slot {
    k: u32,
    second: bool,
    /// `(child, parent)` rank pairs of tree A.
    pairs: Vec<(usize, usize)>,
}

/// Tree A's reduce slots over `p` ranks in order, empty ones left out.
fn reduce_slots(p: usize) -> Vec<Slot> {
    let mut out = Vec::new();
    for k in 0..ceil_log2(p) {
        for second in [false, true] {
            let pairs: Vec<(usize, usize)> = (1..p)
                .filter(|r| r.trailing_zeros() == k)
                .filter_map(|r| tree_a_parent(p, r).map(|up| (r, up)))
                .filter(|&(r, up)| (r > up) == second)
                .collect();
            if !pairs.is_empty() {
                out.push(Slot { k, second, pairs });
            }
        }
    }
    out
}

/// Double binary tree all-reduce over `p ≥ 2` ranks (unsegmented): tree A
/// reduces elements `0..⌈n/2⌉` to rank 0 and tree B elements `⌈n/2⌉..n` to
/// its root (rank `p − 1` for even `p`, 1 for odd), both in the same rounds,
/// then both broadcast back in the reverse order.
/// `2(⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉)` rounds; every rank sends at most one and
/// receives at most one message per round. For `n = 1` tree B's messages
/// are empty (they still pay α).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn double_binary_tree_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let half = n.div_ceil(2);
    let slots = reduce_slots(p);
    let b = |r: usize| tree_b_rank(p, r);
    let both = |pairs: &[(usize, usize)], up: bool| -> Vec<Transfer> {
        let op = if up { Op::Reduce } else { Op::Copy };
        let t = |src: usize, dst: usize, range| Transfer {
            src,
            dst,
            range,
            op,
            chunk: None,
        };
        let a = pairs.iter().map(|&(c, par)| {
            let (s, d) = if up { (c, par) } else { (par, c) };
            t(s, d, 0..half)
        });
        let bb = pairs.iter().map(|&(c, par)| {
            let (s, d) = if up { (b(c), b(par)) } else { (b(par), b(c)) };
            t(s, d, half..n)
        });
        a.chain(bb).collect()
    };
    let which = |second: bool| if second { "second" } else { "first" };
    let mut rounds: Vec<Round> = slots
        .iter()
        .map(|sl| Round {
            phase: Phase::Reduce,
            note: format!(
                "{} children of level {} → their parents, in both trees",
                which(sl.second),
                1usize << sl.k
            ),
            transfers: both(&sl.pairs, true),
        })
        .collect();
    rounds.extend(slots.iter().rev().map(|sl| Round {
        phase: Phase::Broadcast,
        note: format!(
            "parents → their {} children of level {}, in both trees",
            which(sl.second),
            1usize << sl.k
        ),
        transfers: both(&sl.pairs, false),
    }));
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds,
    })
}

/// The unsegmented double binary tree all-reduce under the flat rule (each
/// round costs the max over its messages of `α + bytes·β`, plus `bytes·γ`
/// in a reduce round; every message is half the tensor), seconds:
/// `T = 2Rα + R·nβ + (R/2)·nγ` with `R = ⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉` rounds per
/// phase, any `p ≥ 2`; `n_bytes` is the tensor size in bytes, and the
/// schedule matches exactly when the tensor splits into two equal halves.
/// With `k` segments the pipelined time tends to `2nβ`.
///
/// Source: this module's schedule (the slot count of NCCL's tree, see the
/// module doc); Sanders, Speck & Träff 2009, Parallel Computing 35(12), for
/// the two-tree construction.
pub fn double_binary_tree_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let r = f64::from(double_tree_rounds_per_phase(p));
    let text = format!("(⌈log₂{p}⌉ + ⌈log₂⌈{p}/3⌉⌉)");
    let coeffs = [
        Coeff::new(2.0 * r, format!("2{text}")),
        Coeff::new(r, text.clone()),
        Coeff::new(r / 2.0, format!("{text}/2")),
    ];
    let expression =
        "2(⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉)α + (⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉)·nβ + (⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉)/2·nγ";
    Terms::any_p(
        "double binary tree all-reduce (unsegmented)",
        expression,
        coeffs,
    )
    .formula(p, n_bytes, c)
}

/// Double binary tree reduce + broadcast.
pub struct DoubleBinaryTree;

impl CollectiveAlgorithm for DoubleBinaryTree {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "dbtree",
            label: "double binary tree all-reduce",
            short_label: "double tree",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "along two binary trees"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        double_binary_tree_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        double_binary_tree_all_reduce_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let r = f64::from(double_tree_rounds_per_phase(topo.p()));
        [2.0 * r, r, r / 2.0]
    }
    fn flat_rounds(&self, p: usize) -> Rounds {
        // Every message of the closed form is the same share of n.
        uniform_rounds(self.factors(&super::flat(p)))
    }
    fn equal_parts(&self, _topo: &Topology) -> usize {
        2
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
            "parents copy the finished sum of their tree's half to one child each".into()
        } else {
            "children send the partial sums of their tree's half (tree A the first half, tree B the second) one level up, and each parent adds one child's"
                .into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::binary_tree::tests::one_send_one_receive;
    use super::*;
    use crate::core::execute::{default_init, execute, ExecOptions};
    use crate::core::timing::executed_time_with;

    /// Children of `r` in tree B: the images of A's children of the rank
    /// that plays `r`'s part.
    fn tree_b_children(p: usize, r: usize) -> Vec<usize> {
        (0..p)
            .filter_map(|a| {
                let up = tree_a_parent(p, a)?;
                (tree_b_rank(p, up) == r).then_some(tree_b_rank(p, a))
            })
            .collect()
    }

    fn tree_a_child_list(p: usize, r: usize) -> Vec<usize> {
        let (a, b) = tree_a_children(p, r);
        a.into_iter().chain(b).collect()
    }

    #[test]
    fn tree_a_is_a_spanning_tree_with_even_inner_ranks() {
        for p in 2..=64 {
            for r in 0..p {
                // Parent and children agree.
                for c in tree_a_child_list(p, r) {
                    assert_eq!(tree_a_parent(p, c), Some(r), "p={p} r={r} c={c}");
                }
                if let Some(up) = tree_a_parent(p, r) {
                    assert!(tree_a_child_list(p, up).contains(&r), "p={p} r={r}");
                }
                // Every rank reaches root 0 within ⌈log₂p⌉ steps.
                let (mut at, mut steps) = (r, 0);
                while let Some(up) = tree_a_parent(p, at) {
                    at = up;
                    steps += 1;
                }
                assert_eq!(at, 0, "p={p} r={r}");
                assert!(steps <= ceil_log2(p), "p={p} r={r}: depth {steps}");
                // Inner ⇔ even.
                assert_eq!(
                    tree_a_child_list(p, r).is_empty(),
                    r % 2 == 1,
                    "p={p} r={r}"
                );
            }
            assert_eq!(tree_a_child_list(p, 0).len(), 1, "p={p}");
        }
        // p = 7 by hand: 0 → 4; 4 → 2, 6; 2 → 1, 3; 6 → 5 (6 + 1 = 7 ≥ p).
        assert_eq!(tree_a_children(7, 0), (None, Some(4)));
        assert_eq!(tree_a_children(7, 4), (Some(2), Some(6)));
        assert_eq!(tree_a_children(7, 2), (Some(1), Some(3)));
        assert_eq!(tree_a_children(7, 6), (Some(5), None));
        // p = 6: 0 → 4; 4 → 2, 5 (4 + 2 ≥ 6, so c = 1); 2 → 1, 3.
        assert_eq!(tree_a_children(6, 4), (Some(2), Some(5)));
        assert_eq!(tree_a_parent(6, 5), Some(4));
    }

    #[test]
    fn inner_in_one_tree_means_leaf_in_the_other() {
        for p in 2..=64 {
            for r in 0..p {
                let (a, b) = (tree_a_child_list(p, r), tree_b_children(p, r));
                if p % 2 == 1 && r == 0 {
                    // The one exception: A's root and B's image of A's rank
                    // p − 1 (even, its only child p − 1 − b/2): one child each.
                    assert_eq!((a.len(), b.len()), (1, 1), "p={p}");
                } else {
                    assert!(a.is_empty() != b.is_empty(), "p={p} r={r}: {a:?} {b:?}");
                }
            }
            // Tree B is a tree with p − 1 edges rooted at p − 1 (even p) or 1.
            let edges: usize = (0..p).map(|r| tree_b_children(p, r).len()).sum();
            assert_eq!(edges, p - 1, "p={p}");
            let root = if p % 2 == 0 { p - 1 } else { 1 };
            assert!(
                (0..p).all(|r| !tree_b_children(p, r).contains(&root)),
                "p={p}"
            );
        }
        // p = 5 by hand: A: 0 → 4 → 2 → {1, 3}; B (shift): 1 → 0 → 3 → {2, 4}.
        assert_eq!(tree_b_children(5, 1), vec![0]);
        assert_eq!(tree_b_children(5, 0), vec![3]);
        let mut c = tree_b_children(5, 3);
        c.sort_unstable();
        assert_eq!(c, vec![2, 4]);
        // Mirroring instead at odd p keeps the even ranks even: all (p + 1)/2
        // inner ranks of A (0, 2, …, p − 1) would be inner in the mirrored
        // tree too, so the shift is needed there.
        for p in (3..=63).step_by(2) {
            let both = (0..p)
                .filter(|&r| {
                    !tree_a_child_list(p, r).is_empty()
                        && !tree_a_child_list(p, p - 1 - r).is_empty()
                })
                .count();
            assert_eq!(both, p.div_ceil(2), "p={p}");
        }
    }

    #[test]
    fn p4_by_hand() {
        // A: 0 → 2 → {1, 3}. B = A mirrored (r → 3 − r): 3 → 1 → {2, 0}.
        // Slots: (level 1, first) 1 → 2 with B's 2 → 1; (level 1, second)
        // 3 → 2 with 0 → 1; (level 2, second) 2 → 0 with 1 → 3. The slot
        // (level 2, first) is empty. n = 10: A carries 0..5, B 5..10.
        let s = double_binary_tree_schedule(4, 10, 4).expect("valid");
        let got: Vec<Vec<(usize, usize, u64)>> = s
            .rounds
            .iter()
            .map(|r| {
                r.transfers
                    .iter()
                    .map(|t| (t.src, t.dst, t.range.start))
                    .collect()
            })
            .collect();
        assert_eq!(
            got,
            vec![
                vec![(1, 2, 0), (2, 1, 5)],
                vec![(3, 2, 0), (0, 1, 5)],
                vec![(2, 0, 0), (1, 3, 5)],
                vec![(0, 2, 0), (3, 1, 5)],
                vec![(2, 3, 0), (1, 0, 5)],
                vec![(2, 1, 0), (1, 2, 5)],
            ]
        );
        assert!(s
            .rounds
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.len() == 5));
        let phases: Vec<_> = s.rounds.iter().map(|r| r.phase).collect();
        assert_eq!(phases, [[Phase::Reduce; 3], [Phase::Broadcast; 3]].concat());
        assert!(s.rounds[..3]
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.op == Op::Reduce));
        assert!(s.rounds[3..]
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.op == Op::Copy));
        assert_eq!(
            s.rounds[0].note,
            "first children of level 1 → their parents, in both trees"
        );
        assert_eq!(
            s.rounds[3].note,
            "parents → their second children of level 2, in both trees"
        );
    }

    #[test]
    fn p3_shifts_tree_b() {
        // A: 0 → 2 → 1. B (shift r → r + 1 mod 3): 1 → 0 → 2. n = 7: A
        // carries 0..4, B 4..7. Rank 0 receives A's half in round 2 while
        // sending B's half.
        let s = double_binary_tree_schedule(3, 7, 1).expect("valid");
        assert_eq!(s.rounds[0].pairs(), vec![(1, 2), (2, 0)]);
        assert_eq!(s.rounds[1].pairs(), vec![(2, 0), (0, 1)]);
        assert_eq!(s.rounds[2].pairs(), vec![(0, 2), (1, 0)]);
        assert_eq!(s.rounds[3].pairs(), vec![(2, 1), (0, 2)]);
        assert_eq!(s.rounds[0].transfers[0].range, 0..4);
        assert_eq!(s.rounds[0].transfers[1].range, 4..7);
    }

    #[test]
    fn rounds_per_phase_count_the_slots() {
        // ⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉: p = 2 → 1 + 0, 3 → 2 + 0, 4 → 2 + 1,
        // 7 → 3 + 2, 8 → 3 + 2, 13 → 4 + 3, 16 → 4 + 3, 64 → 6 + 5.
        let r = [2, 3, 4, 7, 8, 13, 16, 64].map(double_tree_rounds_per_phase);
        assert_eq!(r, [1, 2, 3, 5, 5, 7, 7, 11]);
        assert_eq!(double_tree_rounds_per_phase(1), 0);
        for p in 2..=64 {
            let s = double_binary_tree_schedule(p, 4, 4).expect("valid");
            assert_eq!(
                s.num_rounds(),
                2 * double_tree_rounds_per_phase(p) as usize,
                "p={p}"
            );
            // Each tree has p − 1 edges, used once per phase.
            let r = s.num_rounds() / 2;
            let reduce: usize = s.rounds[..r].iter().map(|r| r.transfers.len()).sum();
            assert_eq!(reduce, 2 * (p - 1), "p={p}");
        }
    }

    #[test]
    fn verifies_with_one_send_and_one_receive_per_round() {
        // n = 11: halves of 6 and 5 elements; n = 1: tree B's messages are
        // empty.
        for p in 2..=33 {
            for n in [11, 1] {
                let s = double_binary_tree_schedule(p, n, 4).expect("valid");
                let t = execute(&s, &default_init, ExecOptions { keep_states: false })
                    .expect("well formed");
                assert!(t.verification.ok(), "p={p} n={n}");
                let sum = (p * (p + 1) / 2) as f64;
                let last = t.states.last().expect("final state");
                assert!(last.values.iter().flatten().all(|&v| v == sum), "p={p}");
            }
        }
        for p in 2..=64 {
            let s = double_binary_tree_schedule(p, 11, 4).expect("valid");
            assert_eq!(one_send_one_receive(&s), Ok(()));
        }
    }

    #[test]
    fn closed_form_equals_the_executed_time() {
        // α = 2 µs, β = 1 ns/B, γ = 0.1 ns/B, n = 1000 f32: halves of 500
        // f32 = 2000 B. A reduce round costs 2 µs + 2000 × 1.1 ns = 4.2 µs, a
        // broadcast round 2 µs + 2 µs = 4 µs, 8.2 µs per pair. R = 1, 2, 5,
        // 5, 7 at p = 2, 3, 7, 8, 16.
        let c = CostParams::new(2e-6, 1e-9).with_gamma(1e-10);
        for (p, r, time) in [
            (2, 1.0, 8.2e-6),
            (3, 2.0, 16.4e-6),
            (7, 5.0, 41.0e-6),
            (8, 5.0, 41.0e-6),
            (16, 7.0, 57.4e-6),
        ] {
            let s = double_binary_tree_schedule(p, 1000, 4).expect("valid");
            let f = double_binary_tree_all_reduce_time(p, 4000.0, c);
            assert_eq!(
                [f.startups, f.byte_factor, f.gamma_factor],
                [2.0 * r, r, r / 2.0]
            );
            assert!((f.time - time).abs() < 1e-15, "p={p}: {}", f.time);
            let executed = executed_time_with(&s, c);
            assert!((executed - time).abs() < 1e-15, "p={p}: {executed}");
        }
        let f = double_binary_tree_all_reduce_time(16, 4000.0, CostParams::new(2e-6, 1e-9));
        assert_eq!(
            f.expression,
            "2(⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉)α + (⌈log₂p⌉ + ⌈log₂⌈p/3⌉⌉)·nβ"
        );
        assert!(f.substituted[2].starts_with("  = 2(⌈log₂16⌉ + ⌈log₂⌈16/3⌉⌉) × "));
        // An odd n: the first half, 501 elements, sets every round's time.
        let s = double_binary_tree_schedule(7, 1001, 4).expect("valid");
        let t = executed_time_with(&s, c);
        assert!(
            (t - 5.0 * (2.0 * 2e-6 + 2004.0 * 2.1e-9)).abs() < 1e-15,
            "{t}"
        );
    }

    #[test]
    fn narration_of_p4() {
        // p = 4, n = 8 f32: halves of 4 f32 = 16 B. After round 3 rank 0
        // holds the complete first half and rank 3 the complete second half:
        // 8 of the 4 × 8 = 32 rank-held elements, 25 %.
        use crate::core::collectives::{narrate::narrate, Algorithm};
        let s = double_binary_tree_schedule(4, 8, 4).expect("valid");
        let t = execute(&s, &default_init, ExecOptions::default()).expect("well formed");
        let alg = Algorithm::DBTREE;
        assert_eq!(
            narrate(alg, &t, 1),
            "Reduce along two binary trees, round 1 of 3: first children of level 1 → their \
             parents, in both trees: children send the partial sums of their tree's half (tree A \
             the first half, tree B the second) one level up, and each parent adds one child's. \
             2 transfers at once, the largest 16 B. Now 0% of all rank-held elements hold the \
             complete sum."
        );
        assert!(narrate(alg, &t, 3)
            .ends_with("Now 25% of all rank-held elements hold the complete sum."));
        assert!(narrate(alg, &t, 4).starts_with(
            "Broadcast along two binary trees, round 1 of 3: parents → their second children of \
             level 2, in both trees: parents copy the finished sum of their tree's half to one \
             child each."
        ));
    }
}
