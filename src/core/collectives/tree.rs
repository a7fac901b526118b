//! Binomial-tree all-reduce (`tree`): a binomial reduce to root 0, then a
//! binomial broadcast from root 0, whole tensor per message.
//!
//! Closed form: `2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p` (Thakur,
//! Rabenseifner & Gropp 2005, §2).

use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts};
use crate::core::cost::formulas::{Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::{ceil_log2, CostParams, Formula};
use crate::core::schedule::{tree, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// Basic binomial-tree all-reduce (unpipelined reduce to a root, then
/// broadcast, full tensor per message):
/// `T = 2⌈log₂p⌉(α + nβ) + ⌈log₂p⌉·nγ`, any `p`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §2 (binomial reduce and
/// broadcast); course §7.
pub fn binomial_tree_allreduce(p: usize, n_bytes: f64, c: CostParams) -> Formula {
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
        tree::binomial_tree(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        binomial_tree_allreduce(topo.p(), n_bytes, c)
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
