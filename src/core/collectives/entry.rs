//! The contract every algorithm file of the registry fulfils: the trait
//! [`CollectiveAlgorithm`] and the data it answers with ([`Descriptor`],
//! [`Layout`], [`TopologyInfo`], [`RoundFacts`]).
//!
//! Nothing outside this folder implements or calls the trait: the rest of
//! the app holds an [`super::Algorithm`], whose methods reach each entry's
//! implementation by static dispatch.

use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::protocol::Rounds;
use crate::core::cost::CostParams;
use crate::core::schedule::{Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

use super::pieces::Split;

/// The facts about one round that a narration sentence needs.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundFacts<'a> {
    /// The round's phase.
    pub phase: Phase,
    /// True when the round's transfers add at the destination.
    pub reduce: bool,
    /// Sending ranks, in transfer order.
    pub senders: &'a [usize],
    /// Receiving ranks, in transfer order.
    pub receivers: &'a [usize],
}

/// How an algorithm's generator uses the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Any `p`, from `topo.p()` alone.
    Flat,
    /// Any `p`, from `topo.p()` alone, with the power-of-two fold over all
    /// `p` ranks (MPICH's adaptation, Thakur, Rabenseifner & Gropp 2005, §4)
    /// when `p` is not a power of two.
    Folded,
    /// Follows the topology's nodes (`topo.node_sizes()`, `topo.node_ranks(k)`).
    Nodes,
}

/// What a registry entry is called and what it computes: the data half of
/// [`CollectiveAlgorithm`]. Every field is required.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// The `alg` URL value, lower case and unique, e.g. `"rab"`.
    pub key: &'static str,
    /// Full human name, e.g. `"Rabenseifner all-reduce"`.
    pub label: &'static str,
    /// Short name for legends and the cost view's menu, e.g. `"Rabenseifner"`.
    pub short_label: &'static str,
    /// The collective computed (decides the busbw factor).
    pub collective: CollectiveKind,
    /// How the generator uses the ranks.
    pub layout: Layout,
}

impl Descriptor {
    /// True for an entry that computes an all-reduce from `topo.p()` alone:
    /// collective [`CollectiveKind::AllReduce`], layout [`Layout::Flat`] or
    /// [`Layout::Folded`] (the entries the cost view compares).
    #[inline(always)]
    pub fn is_flat_all_reduce(&self) -> bool {
        self.collective == CollectiveKind::AllReduce && self.layout != Layout::Nodes
    }
    /// True for an entry the MPI runner (`runner/`) runs and traces: every
    /// one but the all-to-alls, which it cannot check yet (no
    /// `MPI_Alltoall` reference, and its segments would split the block
    /// matrix). The trace view builds only these schedules.
    #[inline(always)]
    pub fn runner_runs(&self) -> bool {
        self.collective != CollectiveKind::AllToAll
    }
}

/// How the topology view names an algorithm it offers
/// ([`CollectiveAlgorithm::on_topology`]): its key and labels there, one
/// sentence on what it does, and the fewest racks it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopologyInfo {
    /// The topology view's `alg` value: the registry key, except `flat`
    /// for the ring over all ranks.
    pub key: &'static str,
    /// Name in the view's tables, e.g. "multi-lane hierarchical all-reduce".
    pub label: &'static str,
    /// Name in the view's menu, e.g. "multi-lane".
    pub short_label: &'static str,
    /// One sentence on what it does.
    pub summary: &'static str,
    /// The fewest racks on which the comparison lists it (2 for the
    /// rack-aware all-reduce, whose cross-rack phase needs two racks; 1
    /// for the rest).
    pub min_racks: usize,
}

/// One collective algorithm. Every method is required: a new algorithm must
/// decide each of them (see the module doc of [`super`] for the steps).
pub trait CollectiveAlgorithm {
    /// Its key, labels, collective and [`Layout`].
    fn descriptor(&self) -> Descriptor;
    /// How a phase of this algorithm proceeds, e.g. "by recursive halving",
    /// for labels such as "reduce-scatter by recursive halving, round 2 of 3".
    /// Empty when the phase name says it all.
    fn method(&self, phase: Phase) -> &'static str;
    /// The schedule on `topo` for `n` elements of `elem_bytes` bytes.
    ///
    /// # Errors
    /// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
    fn generate(&self, topo: &Topology, n: u64, elem_bytes: u64)
        -> Result<Schedule, ScheduleError>;
    /// The closed-form time on `topo` for an `n_bytes`-byte tensor, with α,
    /// β and γ from `c` (the flat model: every message costs α + m·β), and
    /// the formula's source in its docs.
    fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula;
    /// `[startups, byte_factor, gamma_factor]` of the closed form (the
    /// multipliers of α, nβ and nγ) without building its written-out text
    /// ([`factors_of`] when the text is cheap).
    fn factors(&self, topo: &Topology) -> [f64; 3];
    /// The critical path on the flat topology of `p` ranks as rounds
    /// `(count, share of n)` ([`crate::core::cost::protocol::Rounds`]):
    /// what a protocol that times each message by its size reads. Its
    /// `Σ count` is [`Self::factors`]' first; its `Σ count·share` is the
    /// second where a rank sends one message per round (the linear and
    /// Bruck all-to-alls put several on a port at once, so theirs is less).
    /// Empty for an entry that follows nodes.
    fn flat_rounds(&self, p: usize) -> Rounds;
    /// Into how many equal pieces the tensor must divide for the executed
    /// schedule to match the closed form exactly (1 for whole-tensor messages).
    fn equal_parts(&self, topo: &Topology) -> usize;
    /// How the topology view names it, or `None` when the view does not
    /// offer it.
    fn on_topology(&self) -> Option<TopologyInfo>;
    /// The schedule the topology view draws on `topo` for `n` elements of
    /// `elem_bytes` bytes: [`Self::generate`], with rounds noted by level
    /// where the algorithm's own schedule does not say which level it
    /// crosses (the ring over all ranks).
    ///
    /// # Errors
    /// As [`Self::generate`]; [`ScheduleError::Shape`] when
    /// [`Self::on_topology`] is `None` or the topology lacks the shape the
    /// algorithm needs.
    fn topology_schedule(
        &self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError>;
    /// The topology-timed closed form ([`Split::EXACT`]) or lower bound
    /// ([`Split::FLOOR`]) of [`Self::topology_schedule`] for `n` elements of
    /// `elem_bytes` bytes, seconds; `None` where it is not derived (and for
    /// every entry the topology view does not offer).
    fn topology_time(&self, topo: &Topology, n: u64, elem_bytes: u64, split: Split) -> Option<f64>;
    /// What happens in a round of this algorithm, as a sentence fragment
    /// (no capital, no full stop).
    fn describe(&self, round: &RoundFacts<'_>) -> String;
}

/// The factors of `alg`'s closed form on `topo`, read off the written-out
/// formula at unit size.
pub fn factors_of<A: CollectiveAlgorithm>(alg: &A, topo: &Topology) -> [f64; 3] {
    let f = alg.closed_form(topo, 1.0, CostParams::new(0.0, 0.0));
    [f.startups, f.byte_factor, f.gamma_factor]
}

/// The error of [`CollectiveAlgorithm::topology_schedule`] for an entry the
/// topology view does not offer.
pub fn not_on_topology(key: &str) -> ScheduleError {
    ScheduleError::Shape(format!("{key} is not offered on a topology"))
}
