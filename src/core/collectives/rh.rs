//! Recursive halving reduce-scatter (`rh`): the window each rank is
//! responsible for halves every round; rank `r` ends with the sum of chunk `r`.
//!
//! Closed form: `log₂p·α + (p−1)/p·nβ + (p−1)/p·nγ` for `p` a power of two;
//! otherwise the labelled adaptation of
//! [`crate::core::cost::formulas::recursive_halving_reduce_scatter`]
//! (Thakur, Rabenseifner & Gropp 2005, §4.3).

use super::narrate::fold_text;
use super::{CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{formulas, CostParams, Formula};
use crate::core::schedule::{recursive, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Recursive halving reduce-scatter.
pub struct RecursiveHalving;

impl CollectiveAlgorithm for RecursiveHalving {
    fn key(&self) -> &'static str {
        "rh"
    }
    fn label(&self) -> &'static str {
        "recursive halving reduce-scatter"
    }
    fn short_label(&self) -> &'static str {
        "recursive halving"
    }
    fn collective(&self) -> CollectiveKind {
        CollectiveKind::ReduceScatter
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
            "by recursive halving"
        }
    }
    fn generate(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        recursive::recursive_halving_reduce_scatter(topo.p(), n, elem_bytes)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::recursive_halving_reduce_scatter(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let f = self.closed_form(topo, 1.0, CostParams::new(0.0, 0.0));
        [f.startups, f.byte_factor, f.gamma_factor]
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        fold_text(round).unwrap_or_else(|| {
            "each rank sends the half of its current window that its partner keeps, and adds the half it receives; \
             the window each rank is responsible for halves"
                .into()
        })
    }
}
