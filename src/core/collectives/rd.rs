//! Recursive doubling all-reduce (`rd`): full-buffer exchange-and-add with
//! partner `rank XOR 2^k`.
//!
//! Closed form: `log₂p(α + nβ + nγ)` for `p` a power of two; otherwise the
//! labelled MPICH adaptation `(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ` with
//! `p′ = 2^⌊log₂p⌋` (Thakur, Rabenseifner & Gropp 2005, §4.4).

use super::narrate::fold_text;
use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts};
use crate::core::cost::formulas::{adaptation_note, Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{floor_log2, pow2_split, CostParams, Formula};
use crate::core::schedule::{recursive, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Recursive-doubling all-reduce (full-buffer exchange with `rank XOR 2^k`):
/// `T = log₂p(α + nβ + nγ)` for `p` a power of two; otherwise the labelled
/// adaptation `(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ` with `p′ = 2^⌊log₂p⌋`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.4 (recursive doubling and
/// its non-power-of-two handling).
pub fn recursive_doubling_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
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
        recursive::recursive_doubling(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        recursive_doubling_allreduce(topo.p(), n_bytes, c)
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
    fn equal_parts(&self, _topo: &Topology) -> usize {
        1
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        fold_text(round).unwrap_or_else(|| {
            "partners swap their whole buffers and each adds what it receives, so partial sums double in size"
                .into()
        })
    }
}
