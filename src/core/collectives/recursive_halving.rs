//! Recursive halving reduce-scatter (`rh`): the window each rank is
//! responsible for halves every round; rank `r` ends with the sum of chunk `r`.
//!
//! Closed form: `log₂p·α + (p−1)/p·nβ + (p−1)/p·nγ` for `p` a power of two;
//! otherwise the labelled adaptation of [`recursive_halving_reduce_scatter_time`]
//! (Thakur, Rabenseifner & Gropp 2005, §4.3).

use super::narrate::fold_text;
use super::pieces::Split;
use super::{factors_of, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::Formula;
use crate::core::cost::formulas::{adaptation_note, halving_note, Coeff, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::{recursive, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;
use crate::core::cost::formulas::pow2_split;
use crate::core::cost::protocol::Rounds;

/// Recursive-halving reduce-scatter: `log₂p·α + (p−1)/p·nβ + (p−1)/p·nγ` for
/// `p` a power of two. Otherwise (labelled), as the schedule generator
/// `schedule::recursive::recursive_halving_reduce_scatter_schedule` runs it: a
/// whole-tensor fold-in `α + nβ + nγ`; halving over `p′ = 2^⌊log₂p⌋` ranks of
/// which the first `r` hold two chunks of `n/p`, so the round at distance `d`
/// moves `d + min(d, r)` chunks (`S` chunks in all); and a final `α + nβ/p`
/// handing each extra rank its chunk:
/// `(log₂p′ + 2)α + (1 + S/p + 1/p)·nβ + (1 + S/p)·nγ`.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §4.3 (recursive halving).
pub fn recursive_halving_reduce_scatter_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    Terms::pow2_or_adapted(
        "recursive-halving reduce-scatter",
        p,
        ("log₂p·α + (p−1)/p·nβ + (p−1)/p·nγ", |pp| {
            [Coeff::log2(pp), Coeff::share(pp), Coeff::share(pp)]
        }),
        |pp, r| {
            let (sum, note) = halving_note(pp, r, p);
            let pf = p as f64;
            let bytes = Coeff::new(
                1.0 + (sum + 1) as f64 / pf,
                format!("(1 + {sum}/{p} + 1/{p})"),
            );
            let gamma = Coeff::new(1.0 + sum as f64 / pf, format!("(1 + {sum}/{p})"));
            let fold =
                "+(α + nβ + nγ) for the fold-in and +(α + nβ/p) to hand each extra rank its chunk";
            (
                "(log₂p′ + 2)α + (1 + S/p + 1/p)·nβ + (1 + S/p)·nγ",
                [Coeff::log2(pp).plus(2), bytes, gamma],
                vec![adaptation_note(p, fold), note],
            )
        },
    )
    .formula(p, n_bytes, c)
}

/// The critical path of the recursive-halving reduce-scatter as rounds
/// `(count, share of n)`: for `p` a power of two one round at each
/// distance `d = p/2, …, 1` moving `d` chunks of `n/p`; otherwise a
/// whole-tensor fold-in, the rounds over `p′` in which the first `r` ranks
/// carry two chunks (`d + min(d, r)` chunks of `n/p` at distance `d`), and
/// one chunk handed to each extra rank (the terms of
/// [`recursive_halving_reduce_scatter_time`]).
pub fn recursive_halving_rounds(p: usize) -> Rounds {
    let (pp, r) = pow2_split(p);
    let pf = p.max(1) as f64;
    let mut out = Vec::new();
    let mut d = pp / 2;
    while d >= 1 {
        out.push((1.0, (d + d.min(r)) as f64 / pf));
        d /= 2;
    }
    if r != 0 {
        out.push((1.0, 1.0));
        out.push((1.0, 1.0 / pf));
    }
    out
}

/// Recursive halving reduce-scatter.
pub struct RecursiveHalving;

impl CollectiveAlgorithm for RecursiveHalving {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "rh",
            label: "recursive halving reduce-scatter",
            short_label: "recursive halving",
            collective: CollectiveKind::ReduceScatter,
            layout: Layout::Folded,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        if matches!(phase, Phase::FoldIn | Phase::FoldOut) {
            ""
        } else {
            "by recursive halving"
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        recursive::recursive_halving_reduce_scatter_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        recursive_halving_reduce_scatter_time(topo.p(), n_bytes, c)
    }
    fn factors(&self, topo: &Topology) -> [f64; 3] {
        factors_of(self, topo)
    }
    fn flat_rounds(&self, p: usize) -> Rounds {
        recursive_halving_rounds(p)
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        topo.p()
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
            "each rank sends the half of its current window that its partner keeps, and adds the half it receives; \
             the window each rank is responsible for halves"
                .into()
        })
    }
}
