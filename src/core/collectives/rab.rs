//! Rabenseifner all-reduce (`rab`): recursive-halving reduce-scatter, then
//! recursive-doubling all-gather, over `p′` equal blocks.
//!
//! Closed form: `2log₂p·α + 2(p−1)/p·nβ + (p−1)/p·nγ` for `p` a power of two;
//! otherwise the labelled adaptation
//! `(2log₂p′ + 2)α + (2(p′−1)/p′ + 2)·nβ + ((p′−1)/p′ + 1)·nγ`
//! (Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005, §4.4).

use super::narrate::fold_text;
use super::rh::RecursiveHalving;
use super::{CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{floor_log2, formulas, pow2_split, CostParams, Formula};
use crate::core::schedule::recursive::{rabenseifner, Fold};
use crate::core::schedule::{Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Rabenseifner's all-reduce.
pub struct Rabenseifner;

impl CollectiveAlgorithm for Rabenseifner {
    fn key(&self) -> &'static str {
        "rab"
    }
    fn label(&self) -> &'static str {
        "Rabenseifner all-reduce"
    }
    fn short_label(&self) -> &'static str {
        "Rabenseifner"
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
        match phase {
            Phase::ReduceScatter => "by recursive halving",
            Phase::AllGather => "by recursive doubling",
            _ => "",
        }
    }
    fn generate(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        rabenseifner(topo.p(), n, elem_bytes)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::rabenseifner_allreduce(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let (pp, r) = pow2_split(topo.p());
        let k = f64::from(floor_log2(pp));
        let f = (pp - 1) as f64 / pp as f64;
        if r != 0 {
            [2.0 * k + 2.0, 2.0 * f + 2.0, f + 1.0]
        } else {
            [2.0 * k, 2.0 * f, f]
        }
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        Fold::new(topo.p()).core
    }
    fn describe(&self, round: &RoundFacts<'_>) -> String {
        if round.phase == Phase::ReduceScatter {
            return RecursiveHalving.describe(round);
        }
        fold_text(round).unwrap_or_else(|| {
            "each rank copies every finished piece it holds to its partner, which stores it without adding; \
             the finished window doubles"
                .into()
        })
    }
}
