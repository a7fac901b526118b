//! Binomial-tree all-reduce (`tree`): a binomial reduce to root 0, then a
//! binomial broadcast from root 0, whole tensor per message.
//!
//! Closed form: `2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p` (Thakur,
//! Rabenseifner & Gropp 2005, §2).

use super::{CollectiveAlgorithm, RoundFacts};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{ceil_log2, formulas, CostParams, Formula};
use crate::core::schedule::{tree, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Binomial-tree reduce + broadcast.
pub struct BinomialTree;

/// Narration of a broadcast round from root 0 (shared with the naive root).
pub(super) const BROADCAST_TEXT: &str =
    "the finished sum is copied one level further from root 0 (no addition)";

impl CollectiveAlgorithm for BinomialTree {
    fn key(&self) -> &'static str {
        "tree"
    }
    fn label(&self) -> &'static str {
        "binomial tree reduce + broadcast"
    }
    fn short_label(&self) -> &'static str {
        "binomial tree"
    }
    fn collective(&self) -> CollectiveKind {
        CollectiveKind::AllReduce
    }
    fn needs_nodes(&self) -> bool {
        false
    }
    fn folds(&self) -> bool {
        false
    }
    fn method(&self, _phase: Phase) -> &'static str {
        "along a binomial tree"
    }
    fn generate(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        tree::binomial_tree(topo.p(), n, elem_bytes)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        formulas::binomial_tree_allreduce(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        let l = f64::from(ceil_log2(topo.p()));
        [2.0 * l, 2.0 * l, l]
    }
    fn equal_parts(&self, _topo: &Topology) -> usize {
        1
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
