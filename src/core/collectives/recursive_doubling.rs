//! Recursive doubling all-reduce (`rd`): full-buffer exchange-and-add with
//! partner `rank XOR 2^k`.
//!
//! Closed form: `log₂p(α + nβ + nγ)` for `p` a power of two; otherwise the
//! labelled MPICH adaptation `(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ` with
//! `p′ = 2^⌊log₂p⌋` (Thakur, Rabenseifner & Gropp 2005, §4.4).

use super::narrate::fold_text;
use super::pieces::Split;
use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::{adaptation_note, Coeff, Terms};
use crate::core::cost::formulas::{floor_log2, pow2_split, Formula};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::recursive::{doubling_rounds, with_whole_buffer_fold, Fold};
use crate::core::schedule::{check_args, Computation, Op, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;
use crate::core::cost::protocol::{uniform_rounds, Rounds};

/// Recursive doubling all-reduce: partner `rank XOR 2^k`, whole buffers,
/// [`Phase::Exchange`] rounds. `log₂p` rounds for a power of two; otherwise
/// `⌊log₂p⌋ + 2` with the fold-in and unfold rounds.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn recursive_doubling_schedule(
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let fold = Fold::new(p);
    let core = doubling_rounds(&fold, Phase::Exchange, |_, _| (0..n, Op::Reduce, None));
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds: with_whole_buffer_fold(&fold, n, core),
    })
}

/// Recursive-doubling all-reduce (full-buffer exchange with `rank XOR 2^k`):
/// `T = log₂p(α + nβ + nγ)` for `p` a power of two; otherwise the labelled
/// adaptation `(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ` with `p′ = 2^⌊log₂p⌋`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.4 (recursive doubling and
/// its non-power-of-two handling).
pub fn recursive_doubling_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    Terms::pow2_or_adapted(
        "recursive doubling all-reduce",
        p,
        ("log₂p(α + nβ + nγ)", |pp| {
            [Coeff::log2(pp), Coeff::log2(pp), Coeff::log2(pp)]
        }),
        |pp, _| {
            let k = || Coeff::log2(pp);
            (
                "(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ",
                [k().plus(2), k().plus(2), k().plus(1)],
                vec![adaptation_note(p, "+2(α + nβ) + nγ")],
            )
        },
    )
    .formula(p, n_bytes, c)
}

/// Recursive doubling all-reduce.
pub struct RecursiveDoubling;

impl CollectiveAlgorithm for RecursiveDoubling {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "rd",
            label: "recursive doubling all-reduce",
            short_label: "recursive doubling",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Folded,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        if matches!(phase, Phase::FoldIn | Phase::FoldOut) {
            ""
        } else {
            "by recursive doubling"
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        recursive_doubling_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        recursive_doubling_all_reduce_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (pp, r) = pow2_split(topo.p());
        let k = f64::from(floor_log2(pp));
        if r != 0 {
            [k + 2.0, k + 2.0, k + 1.0]
        } else {
            [k, k, k]
        }
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
        fold_text(round).unwrap_or_else(|| {
            "partners swap their whole buffers and each adds what it receives, so partial sums double in size"
                .into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schedule::recursive::pairs;
    use crate::core::schedule::Op;

    #[test]
    fn recursive_doubling_p6_fold_phases() {
        let s = recursive_doubling_schedule(6, 12, 4).expect("valid");
        // fold-in, 2 exchanges on 4 ranks, unfold.
        let phases: Vec<_> = s.rounds.iter().map(|r| r.phase).collect();
        assert_eq!(
            phases,
            vec![
                Phase::FoldIn,
                Phase::Exchange,
                Phase::Exchange,
                Phase::FoldOut
            ]
        );
        assert_eq!(pairs(&s.rounds[0]), vec![(0, 1, 0..12), (2, 3, 0..12)]);
        // Core round 1 (XOR 1 on core ranks): 1↔3, 4↔5.
        let p = s.rounds[1].pairs();
        assert_eq!(p, vec![(1, 3), (3, 1), (4, 5), (5, 4)]);
        // Core round 2 (XOR 2): 1↔4, 3↔5.
        let p = s.rounds[2].pairs();
        assert_eq!(p, vec![(1, 4), (3, 5), (4, 1), (5, 3)]);
        assert_eq!(pairs(&s.rounds[3]), vec![(1, 0, 0..12), (3, 2, 0..12)]);
        assert!(s.rounds[3].transfers.iter().all(|t| t.op == Op::Copy));
    }
}
