//! Rabenseifner all-reduce (`rab`): recursive-halving reduce-scatter, then
//! recursive-doubling all-gather, over `p′` equal blocks.
//!
//! Closed form: `2log₂p·α + 2(p−1)/p·nβ + (p−1)/p·nγ` for `p` a power of two;
//! otherwise the labelled adaptation
//! `(2log₂p′ + 2)α + (2(p′−1)/p′ + 2)·nβ + ((p′−1)/p′ + 1)·nγ`
//! (Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005, §4.4).

use super::narrate::fold_text;
use super::recursive_halving::RecursiveHalving;
use super::pieces::Split;
use super::{CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo, not_on_topology};
use crate::core::cost::formulas::{adaptation_note, Coeff, Terms};
use crate::core::cost::formulas::{floor_log2, pow2_split, Formula};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::schedule::recursive::{
    doubling_gather_rounds, halving_rounds, with_whole_buffer_fold, Blocks, Fold,
};
use crate::core::schedule::{check_args, Computation, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;
use crate::core::cost::protocol::Rounds;

/// Rabenseifner's all-reduce: recursive halving reduce-scatter followed by
/// recursive doubling all-gather over `p'` equal blocks, wrapped in the
/// whole-buffer fold when `p` is not a power of two. For a power of two:
/// `2 log₂p` rounds and `2(p − 1)/p · n` elements sent per rank.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn rabenseifner_schedule(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let fold = Fold::new(p);
    let blocks = Blocks::equal(n, &fold);
    let mut core = halving_rounds(&fold, &blocks);
    core.extend(doubling_gather_rounds(&fold, &blocks));
    Ok(Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllReduce,
        rounds: with_whole_buffer_fold(&fold, n, core),
    })
}

/// Rabenseifner all-reduce (recursive-halving reduce-scatter, then
/// recursive-doubling all-gather):
/// `T = 2log₂p·α + 2(p−1)/p·nβ + (p−1)/p·nγ` for `p` a power of two;
/// otherwise the labelled adaptation
/// `(2log₂p′ + 2)α + (2(p′−1)/p′ + 2)·nβ + ((p′−1)/p′ + 1)·nγ`.
///
/// Source: Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005, §4.4.
pub fn rabenseifner_all_reduce_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    Terms::pow2_or_adapted(
        "Rabenseifner all-reduce",
        p,
        ("2log₂p·α + 2(p−1)/p·nβ + (p−1)/p·nγ", |pp| {
            [
                Coeff::log2(pp).twice(),
                Coeff::share(pp).twice(),
                Coeff::share(pp),
            ]
        }),
        |pp, _| {
            (
                "(2log₂p′ + 2)α + (2(p′−1)/p′ + 2)·nβ + ((p′−1)/p′ + 1)·nγ",
                [
                    Coeff::log2(pp).twice().plus(2),
                    Coeff::share(pp).twice().plus(2),
                    Coeff::share(pp).plus(1),
                ],
                vec![adaptation_note(p, "+2(α + nβ) + nγ")],
            )
        },
    )
    .formula(p, n_bytes, c)
}

/// The critical path of [`rabenseifner_schedule`] as rounds `(count,
/// share of n)`: for `p` a power of two, one halving round per message of
/// `n/2, n/4, …, n/p` and one doubling round per message again (`2log₂p`
/// rounds, `2(p−1)/p·n` bytes); otherwise a whole-tensor fold-in, the same
/// rounds over `p′ = 2^⌊log₂p⌋` equal blocks, and a whole-tensor unfold.
/// `Σ count` and `Σ count·share` are the closed form's start-up and byte
/// factors.
pub fn rabenseifner_rounds(p: usize) -> Rounds {
    let (pp, r) = pow2_split(p);
    let mut out = Vec::new();
    let mut d = pp / 2;
    while d >= 1 {
        out.push((2.0, d as f64 / pp as f64));
        d /= 2;
    }
    if r != 0 {
        out.push((2.0, 1.0));
    }
    out
}

/// Rabenseifner's all-reduce.
pub struct Rabenseifner;

impl CollectiveAlgorithm for Rabenseifner {
    fn descriptor(&self) -> Descriptor {
        Descriptor {
            key: "rab",
            label: "Rabenseifner all-reduce",
            short_label: "Rabenseifner",
            collective: CollectiveKind::AllReduce,
            layout: Layout::Folded,
        }
    }
    fn method(&self, phase: Phase) -> &'static str {
        match phase {
            Phase::ReduceScatter => "by recursive halving",
            Phase::AllGather => "by recursive doubling",
            _ => "",
        }
    }
    fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
        rabenseifner_schedule(topo.p(), n, elem)
    }
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        rabenseifner_all_reduce_time(topo.p(), n_bytes, c)
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
    fn flat_rounds(&self, p: usize) -> Rounds {
        rabenseifner_rounds(p)
    }
    fn equal_parts(&self, topo: &Topology) -> usize {
        Fold::new(topo.p()).core
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schedule::recursive::pairs;
    use crate::core::schedule::Op;

    #[test]
    fn rabenseifner_p8_windows_grow_back() {
        let s = rabenseifner_schedule(8, 80, 4).expect("valid");
        assert_eq!(s.num_rounds(), 6);
        // All-gather round 1: rank 5 copies its chunk 50..60 to rank 4.
        assert_eq!(pairs(&s.rounds[3])[5], (5, 4, 50..60));
        // All-gather round 3: rank 5 copies 40..80 to rank 1.
        assert_eq!(pairs(&s.rounds[5])[5], (5, 1, 40..80));
        assert!(s.rounds[3..]
            .iter()
            .flat_map(|r| &r.transfers)
            .all(|t| t.op == Op::Copy));
    }
}
