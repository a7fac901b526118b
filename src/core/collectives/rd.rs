//! Recursive doubling all-reduce (`rd`): full-buffer exchange-and-add with
//! partner `rank XOR 2^k`.
//!
//! Closed form: `log₂p(α + nβ + nγ)` for `p` a power of two; otherwise the
//! labelled MPICH adaptation `(log₂p′ + 2)(α + nβ) + (log₂p′ + 1)·nγ` with
//! `p′ = 2^⌊log₂p⌋` (Thakur, Rabenseifner & Gropp 2005, §4.4).

use super::narrate::fold_text;
use super::{CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{floor_log2, formulas, pow2_split, CostParams, Formula};
use crate::core::schedule::{recursive, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Recursive doubling all-reduce.
pub struct RecursiveDoubling;

impl CollectiveAlgorithm for RecursiveDoubling {
    fn key(&self) -> &'static str {
        "rd"
    }
    fn label(&self) -> &'static str {
        "recursive doubling all-reduce"
    }
    fn short_label(&self) -> &'static str {
        "recursive doubling"
    }
    fn collective(&self) -> CollectiveKind {
        CollectiveKind::AllReduce
    }
    fn needs_nodes(&self) -> bool {
        false
    }
    fn folds(&self) -> bool {
        true
    }
    fn method(&self, phase: Phase) -> &'static str {
        if matches!(phase, Phase::FoldIn | Phase::FoldOut) {
            ""
        } else {
            "by recursive doubling"
        }
    }
    fn generate(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        recursive::recursive_doubling(topo.p(), n, elem_bytes)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::recursive_doubling_allreduce(topo.p(), n_bytes, c)
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
