//! Pipelined binary-tree all-reduce (`ptree`): a reduce up a complete binary
//! tree to root 0, then a broadcast down it, every message carrying the
//! whole tensor `0..n`.
//!
//! The tree is heap-numbered: rank `i` has children `2i + 1` (left) and
//! `2i + 2` (right) and parent `⌊(i − 1)/2⌋`, and sits at depth
//! `⌊log₂(i + 1)⌋`; the deepest rank, `p − 1`, is at depth
//! `D = ⌊log₂p⌋`.
//!
//! Each tree level is split into a "left child" round and a "right child"
//! round, so that in every round a rank sends at most one message and
//! receives at most one (a parent never hears from both children at once),
//! and the flat timing rule (a round costs the max over its messages) is
//! exact. Reduce: depth `D` first, left then right, up to depth 1;
//! broadcast: the reverse, root first, right then left. Empty rounds are not
//! generated: every depth `d < D` is full and has both rounds, and the
//! deepest one has a right child (rank `2^D`) only when `p > 2^D`. So each
//! phase has
//! `R = 2D − [p = 2^D] = ⌊log₂p⌋ + ⌈log₂p⌉ − 1` rounds (1 at p = 2, 2 at
//! p = 3, 3 at p = 4, 5 at p = 8).
//!
//! Closed form of this (unsegmented) schedule under the flat rule:
//! `T = 2R(α + nβ) + R·nγ` with `R = ⌊log₂p⌋ + ⌈log₂p⌉ − 1` (every round
//! is one whole-tensor message per busy rank; the reduce rounds add γ).
//! Unsegmented it is never faster than the binomial tree
//! (`2⌈log₂p⌉(α + nβ)`), which it ties at p = 2 and 3.
//!
//! # Pipelined asymptotics (not computed here)
//! Pipelining is not the generator's job: a separate timing engine splits
//! every message into `k` segments. With `k` segments and per-rank
//! full-duplex ports, as `k` grows:
//! - the pipelined binary tree tends to `3nβ`: an inner rank receives `2n`
//!   and sends `n` in the reduce, then the reverse in the broadcast, so with
//!   both phases overlapped each of its two ports moves `3n` bytes;
//! - the double binary tree (`dbtree`, Sanders, Speck & Träff 2009) tends to
//!   `2nβ`: every rank is inner in at most one of its two trees, each of
//!   which carries half of the tensor;
//! - the ring tends to (and is) `2(p − 1)/p·nβ`;
//! - the basic, unpipelined binomial tree costs `2⌈log₂p⌉(α + nβ)`.
//!
//! Sources: Sanders, Speck & Träff 2009, "Two-tree algorithms for full
//! bandwidth broadcast, reduction and scan", Parallel Computing 35(12), §2
//! (pipelined binary trees and their `3nβ` bottleneck); Thakur, Rabenseifner
//! & Gropp 2005, §2 (binomial trees).

use super::pieces::Split;
use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::{ceil_log2, floor_log2, Formula};
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{
    check_args, Computation, Op, Phase, Round, Schedule, ScheduleError, Transfer,
};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// Which child of its parent a heap-numbered rank is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Odd rank `2i + 1`.
    Left,
    /// Even rank `2i + 2`.
    Right,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Rounds of each phase of the heap-numbered binary tree over `p` ranks:
/// `R = ⌊log₂p⌋ + ⌈log₂p⌉ − 1` for `p ≥ 2` (depth `D = ⌊log₂p⌋`, two
/// rounds per depth, one fewer when `p = 2^D`); 0 for `p ≤ 1`.
pub fn binary_tree_rounds_per_phase(p: usize) -> u32 {
    (floor_log2(p) + ceil_log2(p)).saturating_sub(1)
}

/// One reduce round of the heap tree: the `side` children at `depth` and
/// their parents.
struct Level {
    depth: u32,
    side: Side,
    /// `(child, parent)` rank pairs.
    pairs: Vec<(usize, usize)>,
}

/// The reduce rounds of the heap tree over `p` ranks, deepest level first,
/// empty rounds left out.
fn reduce_levels(p: usize) -> Vec<Level> {
    let depth = floor_log2(p);
    let mut out = Vec::new();
    for d in (1..=depth).rev() {
        // Depth d holds ranks 2^d − 1 ..= 2^(d+1) − 2; left children are odd.
        let first = (1usize << d) - 1;
        let last = ((1usize << (d + 1)) - 2).min(p - 1);
        for side in [Side::Left, Side::Right] {
            let pairs: Vec<(usize, usize)> = (first..=last)
                .filter(|i| (i % 2 == 1) == (side == Side::Left))
                .map(|i| (i, (i - 1) / 2))
                .collect();
            if !pairs.is_empty() {
                out.push(Level {
                    depth: d,
                    side,
                    pairs,
                });
            }
        }
    }
    out
}

/// Pipelined binary-tree all-reduce over `p ≥ 2` ranks (unsegmented): a
/// reduce up the heap-numbered binary tree to root 0 (depth
/// `⌊log₂p⌋` first, left children then right children), then the reverse
/// broadcast, whole tensor of `n` elements per message.
/// `2(⌊log₂p⌋ + ⌈log₂p⌉ − 1)` rounds; every rank sends at most one and
/// receives at most one message per round.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn binary_tree_schedule(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let levels = reduce_levels(p);
    let transfer = |src: usize, dst: usize, op: Op| Transfer {
        src,
        dst,
        range: 0..n,
        op,
        chunk: None,
    };
    let mut rounds: Vec<Round> = levels
        .iter()
        .map(|l| Round {
            phase: Phase::Reduce,
            note: format!(
                "{} children at depth {} → their parents",
                l.side.name(),
                l.depth
            ),
            transfers: l
                .pairs
                .iter()
                .map(|&(c, par)| transfer(c, par, Op::Reduce))
                .collect(),
        })
        .collect();
    rounds.extend(levels.iter().rev().map(|l| {
        Round {
            phase: Phase::Broadcast,
            note: format!(
                "parents → their {} children at depth {}",
                l.side.name(),
                l.depth
            ),
            transfers: l
                .pairs
                .iter()
                .map(|&(c, par)| transfer(par, c, Op::Copy))
                .collect(),
        }
    }));
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds,
    })
}

/// The unsegmented pipelined binary-tree all-reduce under the flat rule
/// (each round costs the max over its messages of `α + bytes·β`, plus
/// `bytes·γ` in a reduce round), seconds:
/// `T = 2R(α + nβ) + R·nγ` with `R = ⌊log₂p⌋ + ⌈log₂p⌉ − 1` rounds per
/// phase (tree depth `D = ⌊log₂p⌋`, a left-child and a right-child round
/// per depth, the deepest right-child round missing when `p = 2^D`), any
/// `p ≥ 2`; `n_bytes` is the tensor size in bytes. With `k` segments the
/// pipelined time tends to `3nβ` (see the module doc).
///
/// Source: this module's schedule (derived from the tree depth); Sanders,
/// Speck & Träff 2009, §2, for the pipelined binary tree.
pub fn binary_tree_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let r = || {
        Coeff::new(
            f64::from(binary_tree_rounds_per_phase(p)),
            format!("(⌊log₂{p}⌋ + ⌈log₂{p}⌉ − 1)"),
        )
    };
    let expression = "2(⌊log₂p⌋ + ⌈log₂p⌉ − 1)(α + nβ) + (⌊log₂p⌋ + ⌈log₂p⌉ − 1)·nγ";
    Terms::any_p(
        "pipelined binary tree all-reduce (unsegmented)",
        expression,
        [r().twice(), r().twice(), r()],
    )
    .formula(p, n_bytes, c)
}

/// Pipelined binary-tree reduce + broadcast.
pub struct PipelinedBinaryTree;

impl CollectiveAlgorithm for PipelinedBinaryTree {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "ptree",
            label: "pipelined binary tree all-reduce",
            short_label: "pipelined tree",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Flat,
        }
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "along a binary tree"
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        binary_tree_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        binary_tree_all_reduce_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let r = f64::from(binary_tree_rounds_per_phase(topo.p()));
        [2.0 * r, 2.0 * r, r]
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
            "parents copy the finished sum (whole tensor) to one child each, one level further from root 0"
                .into()
        } else {
            "children send their partial sums (whole tensors) one level up the binary tree and each parent adds one child's"
                .into()
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::core::execute::{default_init, execute, ExecOptions};
    use crate::core::timing::executed_time_with;

    /// Every rank sends at most one and receives at most one message in
    /// every round of `s`; the offending round otherwise.
    pub(crate) fn one_send_one_receive(s: &Schedule) -> Result<(), String> {
        for (i, round) in s.rounds.iter().enumerate() {
            let (mut sends, mut recvs) = (vec![0u32; s.p], vec![0u32; s.p]);
            for t in &round.transfers {
                sends[t.src] += 1;
                recvs[t.dst] += 1;
            }
            if sends.iter().chain(&recvs).any(|&k| k > 1) {
                return Err(format!(
                    "p={} round {i}: {:?}",
                    s.p,
                    round.pairs()
                ));
            }
        }
        Ok(())
    }

    #[test]
    fn p4_by_hand() {
        // Heap tree at p = 4: 0 → {1, 2}, 1 → {3}; depth D = 2 and p = 2^D,
        // so depth 2 has no right child (rank 4 would be it). Reduce: 3 → 1
        // (depth 2 left), 1 → 0 (depth 1 left), 2 → 0 (depth 1 right);
        // broadcast the reverse: 0 → 2, 0 → 1, 1 → 3.
        let s = binary_tree_schedule(4, 10, 4).expect("valid");
        let pairs: Vec<_> = s.rounds.iter().map(Round::pairs).collect();
        assert_eq!(
            pairs,
            vec![
                vec![(3, 1)],
                vec![(1, 0)],
                vec![(2, 0)],
                vec![(0, 2)],
                vec![(0, 1)],
                vec![(1, 3)]
            ]
        );
        let phases: Vec<_> = s.rounds.iter().map(|r| r.phase).collect();
        assert_eq!(phases, [[Phase::Reduce; 3], [Phase::Broadcast; 3]].concat());
        assert!(s.rounds[..3]
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.op == Op::Reduce && t.range == (0..10)));
        assert!(s.rounds[3..]
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.op == Op::Copy && t.range == (0..10)));
        assert_eq!(s.rounds[0].note, "left children at depth 2 → their parents");
        assert_eq!(
            s.rounds[3].note,
            "parents → their right children at depth 1"
        );
    }

    #[test]
    fn p7_levels_split_left_and_right() {
        // p = 7: a full tree of depth 2. Depth 2: left 3, 5 → 1, 2; right
        // 4, 6 → 1, 2; depth 1: left 1 → 0, right 2 → 0. R = 2 + 3 − 1 = 4.
        let s = binary_tree_schedule(7, 5, 1).expect("valid");
        assert_eq!(s.num_rounds(), 8);
        assert_eq!(s.rounds[0].pairs(), vec![(3, 1), (5, 2)]);
        assert_eq!(s.rounds[1].pairs(), vec![(4, 1), (6, 2)]);
        assert_eq!(s.rounds[2].pairs(), vec![(1, 0)]);
        assert_eq!(s.rounds[3].pairs(), vec![(2, 0)]);
        assert_eq!(s.rounds[4].pairs(), vec![(0, 2)]);
        assert_eq!(s.rounds[7].pairs(), vec![(1, 3), (2, 5)]);
    }

    #[test]
    fn rounds_per_phase_follow_the_depth() {
        // R = 2⌊log₂p⌋ − [p a power of two]: p = 2 → 1, 3 → 2, 4 → 3,
        // 5 → 4, 8 → 5, 9 → 6, 1024 → 19, 1025 → 20.
        let r: Vec<u32> = [2, 3, 4, 5, 8, 9, 1024, 1025]
            .map(binary_tree_rounds_per_phase)
            .to_vec();
        assert_eq!(r, vec![1, 2, 3, 4, 5, 6, 19, 20]);
        assert_eq!(binary_tree_rounds_per_phase(1), 0);
        for p in 2..=64 {
            let s = binary_tree_schedule(p, 3, 4).expect("valid");
            let r = binary_tree_rounds_per_phase(p) as usize;
            assert_eq!(s.num_rounds(), 2 * r, "p={p}");
            assert!(s.rounds.iter().all(|r| !r.transfers.is_empty()), "p={p}");
            // Every non-root rank sends once in the reduce, receives once in
            // the broadcast: p − 1 messages per phase.
            let reduce: usize = s.rounds[..r].iter().map(|r| r.transfers.len()).sum();
            assert_eq!(reduce, p - 1, "p={p}");
        }
    }

    #[test]
    fn verifies_with_one_send_and_one_receive_per_round() {
        // n = 10 does not divide by most p: the tree sends whole tensors, so
        // every p verifies anyway.
        for p in 2..=33 {
            let s = binary_tree_schedule(p, 10, 4).expect("valid");
            let t = execute(&s, &default_init, ExecOptions { keep_states: false })
                .expect("well formed");
            assert!(t.verification.ok(), "p={p}");
            // 1 + … + p on every rank.
            let sum = (p * (p + 1) / 2) as f64;
            let last = t.states.last().expect("final state");
            assert!(last.values.iter().flatten().all(|&v| v == sum), "p={p}");
            assert_eq!(one_send_one_receive(&s), Ok(()));
        }
    }

    #[test]
    fn closed_form_equals_the_executed_time() {
        // α = 2 µs, β = 1 ns/B, γ = 0.1 ns/B, n = 1000 f32 = 4000 B: a reduce
        // round costs 2 µs + 4000 × 1.1 ns = 6.4 µs, a broadcast round 6 µs,
        // 12.4 µs per pair. R = 1, 2, 4, 5, 7 at p = 2, 3, 7, 8, 16.
        let c = CostParams::new(2e-6, 1e-9).with_gamma(1e-10);
        for (p, r, time) in [
            (2, 1.0, 12.4e-6),
            (3, 2.0, 24.8e-6),
            (7, 4.0, 49.6e-6),
            (8, 5.0, 62.0e-6),
            (16, 7.0, 86.8e-6),
        ] {
            let s = binary_tree_schedule(p, 1000, 4).expect("valid");
            let f = binary_tree_all_reduce_time(p, 4000.0, c);
            assert_eq!(
                [f.startups, f.byte_factor, f.gamma_factor],
                [2.0 * r, 2.0 * r, r]
            );
            assert!((f.time - time).abs() < 1e-15, "p={p}: {}", f.time);
            let executed = executed_time_with(&s, c);
            assert!((executed - time).abs() < 1e-15, "p={p}: {executed}");
        }
        let f = binary_tree_all_reduce_time(7, 4000.0, c);
        assert_eq!(
            f.expression,
            "2(⌊log₂p⌋ + ⌈log₂p⌉ − 1)(α + nβ) + (⌊log₂p⌋ + ⌈log₂p⌉ − 1)·nγ"
        );
        assert!(f.substituted[2].starts_with("  = 2(⌊log₂7⌋ + ⌈log₂7⌉ − 1) × "));
        // γ = 0 drops the γ term from the written expression.
        let f = binary_tree_all_reduce_time(7, 4000.0, CostParams::new(2e-6, 1e-9));
        assert_eq!(f.expression, "2(⌊log₂p⌋ + ⌈log₂p⌉ − 1)(α + nβ)");
        assert!((f.time - 8.0 * 6e-6).abs() < 1e-15);
    }
}
