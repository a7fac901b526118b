//! [`Algorithm`], the one handle on a registry entry: what every view, the
//! cost model, the fits and the tests hold.
//!
//! An `Algorithm` is a `Copy` index into the registry. Each of its
//! questions is answered by the entry's own [`super::CollectiveAlgorithm`]
//! implementation through a `match` that the `registry!` macro writes
//! (static dispatch, no trait object), so a page links an answer only
//! where it asks that question: a page that never narrates a round links
//! no entry's narration, a page that never generates a schedule links no
//! generator. Some questions come in a narrower form for the same reason:
//! [`Algorithm::flat_factors`] and [`Algorithm::generate_flat_all_reduce`]
//! leave out the entries that follow nodes, and the `topology_*` methods
//! the entries the topology view does not offer.

use std::fmt;
use std::sync::OnceLock;

use super::pieces::Split;
use super::shapes::flat;
use super::{Entry, Layout, RoundFacts, TopologyInfo, ENTRIES};
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::protocol::{ProtocolTime, Rendezvous, Rounds};
use crate::core::cost::CostParams;
use crate::core::schedule::{Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

/// The one public handle on a registered algorithm: a `Copy` index into
/// the registry (`Algorithm::RING`, `Algorithm::RAB`, …). Equality,
/// hashing and ordering go by the registry position, which is one-to-one
/// with the URL key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Algorithm(pub(super) Entry);

impl Algorithm {
    /// Every registered algorithm, in registry order (the order of menus
    /// and tables).
    pub fn all() -> impl Iterator<Item = Algorithm> + Clone {
        ENTRIES.iter().map(|&e| Algorithm(e))
    }

    /// The all-reduce algorithms compared by the cost view: every flat
    /// (topology-independent) all-reduce, in registry order.
    pub fn compared() -> &'static [Algorithm] {
        static COMPARED: OnceLock<Vec<Algorithm>> = OnceLock::new();
        COMPARED.get_or_init(|| {
            Algorithm::all()
                .filter(|a| a.is_flat_all_reduce())
                .collect()
        })
    }

    /// Position in [`Algorithm::compared`] (for palettes), or `None` when
    /// the algorithm is not compared.
    pub fn compared_index(self) -> Option<usize> {
        Algorithm::compared().iter().position(|&a| a == self)
    }

    /// Parses an `alg` URL value (case-insensitive, surrounding blanks ignored).
    pub fn from_key(s: &str) -> Option<Algorithm> {
        let s = s.trim().to_ascii_lowercase();
        Algorithm::all().find(|a| a.key() == s)
    }

    /// The registered algorithm with URL key `key`; an unknown key falls back
    /// to the first entry (ring all-reduce). Use [`Algorithm::from_key`] for input.
    pub fn named(key: &str) -> Algorithm {
        Algorithm::from_key(key).unwrap_or(Algorithm::RING)
    }

    /// The `alg` URL value, e.g. `"rab"`.
    pub fn key(self) -> &'static str {
        self.0.descriptor().key
    }
    /// Full human name, e.g. `"Rabenseifner all-reduce"`.
    pub fn label(self) -> &'static str {
        self.0.descriptor().label
    }
    /// Short name, e.g. `"Rabenseifner"`.
    pub fn short_label(self) -> &'static str {
        self.0.descriptor().short_label
    }
    /// The collective computed.
    pub fn collective(self) -> CollectiveKind {
        self.0.descriptor().collective
    }
    /// True for the algorithms that compute a full all-reduce.
    pub fn is_all_reduce(self) -> bool {
        self.collective() == CollectiveKind::AllReduce
    }
    /// True for an entry of [`Algorithm::compared`]: an all-reduce computed
    /// from `topo.p()` alone ([`super::Descriptor::is_flat_all_reduce`]).
    pub fn is_flat_all_reduce(self) -> bool {
        self.0.descriptor().is_flat_all_reduce()
    }
    /// True when the generator follows the topology's nodes ([`Layout::Nodes`];
    /// otherwise it uses `topo.p()` only and the algorithm takes part in the
    /// cost view's flat comparison when it is an all-reduce).
    pub fn needs_nodes(self) -> bool {
        self.0.descriptor().layout == Layout::Nodes
    }
    /// True when the algorithm uses the power-of-two fold ([`Layout::Folded`]).
    pub fn folds(self) -> bool {
        self.0.descriptor().layout == Layout::Folded
    }
    /// How a phase of this algorithm proceeds, e.g. "by recursive halving"
    /// ([`super::CollectiveAlgorithm::method`]).
    pub fn method(self, phase: Phase) -> &'static str {
        self.0.method(phase)
    }
    /// nccl-tests' busbw factor of this algorithm's collective at `p` ranks
    /// ([`crate::core::cost::nccl::busbw_factor`]).
    pub fn busbw_factor(self, p: usize) -> f64 {
        crate::core::cost::nccl::busbw_factor(self.collective(), p)
    }
    /// The schedule on `topo` for `n` elements of `elem_bytes` bytes
    /// ([`super::CollectiveAlgorithm::generate`]; links every entry's generator).
    ///
    /// # Errors
    /// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
    pub fn generate_on(
        self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        self.0.generate(topo, n, elem_bytes)
    }
    /// [`Algorithm::generate_on`] for a flat all-reduce
    /// ([`Algorithm::is_flat_all_reduce`]); links only those entries'
    /// generators (the training-step view's all-reduces).
    ///
    /// # Errors
    /// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`,
    /// and [`ScheduleError::Shape`] for an entry that is not a flat all-reduce.
    pub fn generate_flat_all_reduce(
        self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        self.0.generate_flat_all_reduce(topo, n, elem_bytes)
    }
    /// The closed form on `topo` for an `n_bytes`-byte tensor
    /// ([`super::CollectiveAlgorithm::closed_form`]).
    pub fn closed_form_on(self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        self.0.closed_form(topo, n_bytes, c)
    }
    /// The closed form on the flat topology of `p` ranks.
    pub fn cost(self, p: usize, n_bytes: f64, c: CostParams) -> Formula {
        self.closed_form_on(&flat(p), n_bytes, c)
    }
    /// `[startups, byte_factor, gamma_factor]` at `p` ranks (flat topology):
    /// the multipliers of α, n·β and n·γ.
    pub fn factors(self, p: usize) -> [f64; 3] {
        self.0.factors(&flat(p))
    }
    /// [`Algorithm::factors`] for an entry that does not follow nodes;
    /// `None` for one that does ([`Layout::Nodes`]: its closed form needs the
    /// node shape, which `p` alone does not give). Links only the flat
    /// entries' factors (the measure view's fits).
    pub fn flat_factors(self, p: usize) -> Option<[f64; 3]> {
        self.0.flat_factors(p)
    }
    /// The critical path at `p` ranks (flat topology) as rounds `(count,
    /// share of n)` ([`crate::core::cost::protocol::Rounds`]); `None` for
    /// an entry that follows nodes (as [`Algorithm::flat_factors`]).
    pub fn flat_rounds(self, p: usize) -> Option<Rounds> {
        self.0.flat_rounds(p)
    }
    /// The flat closed form of an `n_bytes`-byte tensor at `p` ranks under
    /// MPI's eager/rendezvous rule `proto`
    /// ([`crate::core::cost::protocol`]): the closed-form time plus one
    /// handshake for every round whose message is at or above the limit.
    /// `None` for an entry that follows nodes.
    pub fn rendezvous_cost(
        self,
        p: usize,
        n_bytes: f64,
        c: CostParams,
        proto: &Rendezvous,
    ) -> Option<ProtocolTime> {
        let rounds = self.flat_rounds(p)?;
        let base = self.cost(p, n_bytes, c).time;
        Some(ProtocolTime::of(&rounds, n_bytes, base, c.alpha, proto))
    }
    /// The flat cost as a line in `n`: `(intercept, slope)` with
    /// `T(n) = intercept + slope·n` (seconds, seconds per byte).
    pub fn line(self, p: usize, c: CostParams) -> (f64, f64) {
        let [a, b, g] = self.factors(p);
        (a * c.alpha, b * c.beta + g * c.gamma)
    }
    /// Number of rounds of the schedule on `topo`, i.e. the last step of its
    /// animation, without generating the schedule: the closed form's
    /// start-up count (one α per round, the first factor), which equals
    /// `generate_on(topo, n, _).num_rounds()` for every `n ≥ 1` (tested for
    /// p = 2 … 64 and the hierarchical shapes).
    pub fn rounds_on(self, topo: &Topology) -> usize {
        let startups = self.0.factors(topo)[0];
        if startups.is_finite() && startups >= 0.0 {
            startups.round() as usize
        } else {
            0
        }
    }
    /// Into how many equal pieces the tensor must divide for the executed
    /// schedule to match the closed form exactly
    /// ([`super::CollectiveAlgorithm::equal_parts`]).
    pub fn equal_parts(self, topo: &Topology) -> usize {
        self.0.equal_parts(topo)
    }
    /// What happens in a round, as a sentence fragment
    /// ([`super::CollectiveAlgorithm::describe`]).
    pub fn describe(self, round: &RoundFacts<'_>) -> String {
        self.0.describe(round)
    }

    /// How the topology view names this algorithm, or `None` when the view
    /// does not offer it ([`super::CollectiveAlgorithm::on_topology`]).
    pub fn on_topology(self) -> Option<TopologyInfo> {
        self.0.on_topology()
    }
    /// [`Algorithm::on_topology`], or for an entry the view does not offer
    /// its registry key and labels (no summary, one rack).
    pub fn topology_info(self) -> TopologyInfo {
        self.on_topology().unwrap_or_else(|| {
            let d = self.0.descriptor();
            TopologyInfo {
                key: d.key,
                label: d.label,
                short_label: d.short_label,
                summary: "",
                min_racks: 1,
            }
        })
    }
    /// The algorithms the topology view offers, in registry order.
    pub fn on_topologies() -> impl Iterator<Item = Algorithm> + Clone {
        Algorithm::all().filter(|a| a.on_topology().is_some())
    }
    /// The algorithm the topology view calls `key` (`flat` is the ring over
    /// all ranks; case-insensitive, blanks ignored); `None` for a key the
    /// view does not offer.
    pub fn from_topology_key(key: &str) -> Option<Algorithm> {
        let k = key.trim().to_ascii_lowercase();
        Algorithm::on_topologies().find(|a| a.on_topology().is_some_and(|t| t.key == k))
    }
    /// The schedule the topology view draws
    /// ([`super::CollectiveAlgorithm::topology_schedule`]).
    ///
    /// # Errors
    /// As [`Algorithm::generate_on`]; [`ScheduleError::Shape`] for an entry
    /// the topology view does not offer or a topology without the shape it needs.
    pub fn topology_schedule(
        self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        self.0.topology_schedule(topo, n, elem_bytes)
    }
    /// The topology-timed closed form or lower bound of
    /// [`Algorithm::topology_schedule`], seconds
    /// ([`super::CollectiveAlgorithm::topology_time`]).
    pub fn topology_time(
        self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
        split: Split,
    ) -> Option<f64> {
        self.0.topology_time(topo, n, elem_bytes, split)
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Algorithm({})", self.key())
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
