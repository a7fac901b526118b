//! One registry of collective algorithms: every algorithm the app can
//! generate, execute, cost and narrate is one file in this folder and one line
//! in the `registry!` list below, which declares the module, gives it a
//! place in the registry's order and names it `Algorithm::CONST`.
//!
//! Each file defines a unit struct implementing [`CollectiveAlgorithm`]
//! (`entry.rs`: the contract). The trait has no default methods and its
//! [`Descriptor`] has no default fields, so a new algorithm has to answer
//! every question the app asks: its URL key and labels, the collective it
//! computes (and so its nccl-tests busbw factor), whether it follows nodes
//! or folds to a power of two ([`Layout`]), how each of its phases proceeds
//! ("by recursive halving"), its schedule generator, its closed-form α–β–γ
//! time with the source of the formula, the size of its equal chunks, the
//! sentence that narrates each of its rounds, and whether and how the
//! topology view offers it.
//!
//! Everything else holds the one handle, [`Algorithm`] (below): the
//! collectives view's menu and summary table, the cost view's comparison
//! ([`Algorithm::compared`]), the topology view ([`Algorithm::on_topologies`]),
//! the training step's all-reduces, the measure view's fits and the URL
//! parsers. Its methods reach each entry by static dispatch (a `match` the
//! macro writes), so a page links an entry's generator, closed form or
//! narration only where it calls the method that asks for it. No count of
//! algorithms is written down anywhere, and no list of keys: the parsers'
//! messages, the docs of the URL parameters and the tests' key lists all
//! read the registry.
//!
//! The other files: `shapes.rs` (the flat and node topologies the flat
//! questions run on, round titles), `summary.rs` (an executed schedule
//! beside its closed form), `narrate.rs` (the words of a round),
//! `compare.rs` (best algorithm and crossovers), `pieces.rs` and
//! `flat_topo.rs` (building blocks of the topology-aware algorithms),
//! `pipelining.rs` (segmented trees).
//!
//! # Adding a collective
//! 1. Create `src/core/collectives/<name>.rs`. It owns everything about the
//!    algorithm (see `naive_root.rs` or `binomial_tree.rs` for a small one):
//!    - its schedule generator, a `pub fn` returning a
//!      [`crate::core::schedule::Schedule`]. It receives the job's
//!      [`Topology`]: a flat algorithm uses `topo.p()`; an algorithm that
//!      follows nodes uses `topo.node_sizes()` and `topo.node_ranks(k)`.
//!      Shared building blocks: the ring and recursive halving / doubling
//!      rounds of [`crate::core::schedule::ring`] and
//!      [`crate::core::schedule::recursive`] (with its power-of-two
//!      [`crate::core::schedule::recursive::Fold`]), the binomial levels of
//!      [`binomial_levels`], and the group rings of [`pieces`];
//!    - its closed form, a `pub fn` with its source in the doc, built from
//!      the coefficients of [`crate::core::cost::formulas`] (`Coeff`,
//!      `Terms`, which write out the substitution) or
//!      [`pieces::flat_formula`]; other modules call it as
//!      `collectives::<name>::…` (the module is public);
//!    - a unit struct, e.g. `pub struct MyAllReduce;`, with
//!      `impl CollectiveAlgorithm for MyAllReduce`: its [`Descriptor`] (key,
//!      labels, collective, [`Layout`]), its phase names
//!      ([`CollectiveAlgorithm::method`]), its narration
//!      ([`CollectiveAlgorithm::describe`]) and its topology-view answers
//!      ([`CollectiveAlgorithm::on_topology`], `None` unless the topology
//!      view offers it). The compiler lists every method and field to write.
//! 2. Add one line `<name> { /** My all-reduce. */ MY = MyAllReduce }` to
//!    the `registry!` list below. Its position is its place in menus and
//!    tables; `Algorithm::MY` is its handle.
//! 3. Add a test in the new file: the schedule verifies under
//!    [`crate::core::execute::execute`], and the closed form equals
//!    [`crate::core::timing::executed_time`] where chunks are equal (see
//!    `hierarchical.rs` for an example). The registry-wide tests
//!    (`tests.rs`) and `tests/generators.rs` then cover the new entry too.
//!
//! The hierarchical all-reduce (`hierarchical.rs`, keys `hier` and
//! `hier_rd`) was added exactly this way.

use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::protocol::{ProtocolTime, Rendezvous, Rounds};
use crate::core::cost::CostParams;
use crate::core::schedule::{round_heading, Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

pub mod compare;
mod entry;
pub mod flat_topo;
pub mod narrate;
/// Building blocks of the topology-aware collectives (rings inside groups of ranks).
pub mod pieces;
pub mod pipelining;
mod shapes;
mod summary;

use std::fmt;
use std::sync::OnceLock;

use pieces::Split;
use shapes::flat_p;

pub use entry::{
    factors_of, not_on_topology, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo,
};
pub use shapes::{flat, nodes_of};
pub use summary::{
    expected_difference, expected_difference_on, summarize, summarize_on, summary_table,
    summary_table_on, times_agree, AlgorithmSummary, ShownTimes, TimeAgreement, SHOWN_AGREEMENT,
};

pub use binomial_tree::{binomial_levels, binomial_tree_all_reduce_time, binomial_tree_schedule};
pub use hierarchical::{Hierarchical, LeaderAlgorithm};
pub use naive_root::{naive_root_all_reduce_time, naive_root_schedule};
pub use rabenseifner::{rabenseifner_all_reduce_time, rabenseifner_schedule};
pub use recursive_doubling::{recursive_doubling_all_reduce_time, recursive_doubling_schedule};
pub use recursive_halving::recursive_halving_reduce_scatter_time;
pub use ring_all_gather::ring_all_gather_time;
pub use ring_all_reduce::ring_all_reduce_time;
pub use ring_reduce_scatter::ring_reduce_scatter_time;

// The handle.
// [`Algorithm`], the one handle on a registry entry: what every view, the
// cost model, the fits and the tests hold.
//
// An `Algorithm` is a `Copy` index into the registry. Each of its
// questions is answered by the entry's own [`super::CollectiveAlgorithm`]
// implementation through a `match` that the `registry!` macro writes
// (static dispatch, no trait object), so a page links an answer only
// where it asks that question: a page that never narrates a round links
// no entry's narration, a page that never generates a schedule links no
// generator. Some questions come in a narrower form for the same reason:
// [`Algorithm::flat_factors`] and [`Algorithm::generate_flat_all_reduce`]
// leave out the entries that follow nodes, and the `topology_*` methods
// the entries the topology view does not offer.

/// The one public handle on a registered algorithm: a `Copy` index into
/// the registry (`Algorithm::RING`, `Algorithm::RAB`, …). Equality,
/// hashing and ordering go by the registry position, which is one-to-one
/// with the URL key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Algorithm(Entry);

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
    /// from `topo.p()` alone ([`crate::core::collectives::entry::Descriptor::is_flat_all_reduce`]).
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
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::method`]).
    pub fn method(self, phase: Phase) -> &'static str {
        self.0.method(phase)
    }
    /// nccl-tests' busbw factor of this algorithm's collective at `p` ranks
    /// ([`crate::core::cost::nccl::busbw_factor`]).
    pub fn busbw_factor(self, p: usize) -> f64 {
        crate::core::cost::nccl::busbw_factor(self.collective(), p)
    }
    /// The schedule on `topo` for `n` elements of `elem_bytes` bytes
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::generate`]; links every entry's generator).
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
    /// True for an algorithm the MPI runner runs and traces
    /// ([`crate::core::collectives::entry::Descriptor::runner_runs`]).
    pub fn runner_runs(self) -> bool {
        self.0.descriptor().runner_runs()
    }
    /// [`Algorithm::generate_on`] for an algorithm the runner runs
    /// ([`Algorithm::runner_runs`]); links only those entries' generators
    /// (the trace view, which reads the runner's traces).
    ///
    /// # Errors
    /// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`,
    /// and [`ScheduleError::Shape`] for an entry the runner does not run.
    pub fn generate_runner_case(
        self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        self.0.generate_runner_case(topo, n, elem_bytes)
    }
    /// The closed form on `topo` for an `n_bytes`-byte tensor
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::closed_form`]).
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
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::equal_parts`]).
    pub fn equal_parts(self, topo: &Topology) -> usize {
        self.0.equal_parts(topo)
    }
    /// What happens in a round, as a sentence fragment
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::describe`]).
    pub fn describe(self, round: &RoundFacts<'_>) -> String {
        self.0.describe(round)
    }

    /// How the topology view names this algorithm, or `None` when the view
    /// does not offer it ([`crate::core::collectives::entry::CollectiveAlgorithm::on_topology`]).
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
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::topology_schedule`]).
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
    /// ([`crate::core::collectives::entry::CollectiveAlgorithm::topology_time`]).
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

/// Generates the schedule of `alg` for `p` ranks on the flat topology and `n`
/// elements of `elem_bytes` bytes. Any `p ≥ 2` works (non-powers of two fold
/// as in MPICH, Thakur, Rabenseifner & Gropp 2005 §4) and any `n ≥ 1`,
/// including `n < p` (some chunks are then empty). On the flat topology every
/// rank is its own node, so `hier` runs its leaders' all-reduce over all `p`.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn generate(
    alg: Algorithm,
    p: usize,
    n: u64,
    elem_bytes: u64,
) -> Result<Schedule, ScheduleError> {
    alg.generate_on(&flat(p), n, elem_bytes)
}

/// Full label of round `i` of a schedule made by `alg`, e.g.
/// "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2".
/// Empty when `i` is out of range.
pub fn round_title(alg: Algorithm, schedule: &Schedule, i: usize) -> String {
    let (Some(round), Some((k, of))) = (schedule.rounds.get(i), schedule.position_in_phase(i))
    else {
        return String::new();
    };
    round_title_of(alg, round.phase, (k, of), &round.note)
}

/// [`round_title`] from its parts: round `k` of the `of` rounds of phase
/// `phase`, with the round's note (empty for none), for a run that does
/// not hold its whole schedule.
pub fn round_title_of(alg: Algorithm, phase: Phase, (k, of): (usize, usize), note: &str) -> String {
    let method = alg.method(phase);
    let head = if method.is_empty() {
        phase.label().to_string()
    } else {
        format!("{} {method}", phase.label())
    };
    round_heading(&head, k, of, note)
}

/// The closed form of `alg` at `p` ranks (flat topology) and `n_bytes` bytes
/// (see [`crate::core::cost::formulas`] for each formula and its source). For
/// non-powers of two the recursive algorithms use the labelled adaptation
/// ([`Formula::pow2_adapted`]).
pub fn closed_form(alg: Algorithm, p: usize, n_bytes: f64, c: CostParams) -> Formula {
    alg.cost(p, n_bytes, c)
}

/// The registry's one list: `module { CONST = Entry, … }` declares
/// `pub mod module;` (the file `module.rs` of this folder), gives each
/// `module::Entry` its place in the order written, and names it
/// `Algorithm::CONST`. A file with two entries (`hierarchical`) lists both
/// in its braces.
///
/// It writes the private enum `Entry` (one variant per entry, in order),
/// [`ENTRIES`], and one dispatching method per question of
/// [`CollectiveAlgorithm`]: a `match` that calls the entry's own
/// implementation, so nothing is linked that a page does not ask for. The
/// dispatchers are `#[inline]`, so a call with a known entry
/// (`Algorithm::RING.describe(…)`) can link that entry's answer alone.
macro_rules! registry {
    ($($module:ident { $($(#[$doc:meta])* $name:ident = $entry:ident),+ $(,)? })*) => {
        $(pub mod $module;)*

        /// One variant per registry entry, in registry order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        enum Entry {
            $($($name,)+)*
        }

        /// Every entry, in registry order.
        const ENTRIES: &[Entry] = &[$($(Entry::$name,)+)*];

        impl Algorithm {
            $($($(#[$doc])* pub const $name: Algorithm = Algorithm(Entry::$name);)+)*
        }

        #[allow(clippy::too_many_lines)]
        impl Entry {
            #[inline(always)]
            fn descriptor(self) -> Descriptor {
                match self { $($(Entry::$name => CollectiveAlgorithm::descriptor(&$module::$entry),)+)* }
            }
            #[inline]
            fn method(self, phase: Phase) -> &'static str {
                match self { $($(Entry::$name => CollectiveAlgorithm::method(&$module::$entry, phase),)+)* }
            }
            #[inline]
            fn generate(self, topo: &Topology, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
                match self { $($(Entry::$name => CollectiveAlgorithm::generate(&$module::$entry, topo, n, elem_bytes),)+)* }
            }
            /// [`Entry::generate`] where the descriptor says flat
            /// all-reduce; the test folds at compile time, so the other
            /// entries' generators are not linked.
            #[inline]
            fn generate_flat_all_reduce(self, topo: &Topology, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
                match self { $($(Entry::$name => {
                    let entry = &$module::$entry;
                    if CollectiveAlgorithm::descriptor(entry).is_flat_all_reduce() {
                        CollectiveAlgorithm::generate(entry, topo, n, elem_bytes)
                    } else {
                        Err(ScheduleError::Shape(format!("{} is not a flat all-reduce", CollectiveAlgorithm::descriptor(entry).key)))
                    }
                })+)* }
            }
            /// [`Entry::generate`] where the descriptor says the runner
            /// runs it; folded at compile time as above.
            #[inline]
            fn generate_runner_case(self, topo: &Topology, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
                match self { $($(Entry::$name => {
                    let entry = &$module::$entry;
                    if CollectiveAlgorithm::descriptor(entry).runner_runs() {
                        CollectiveAlgorithm::generate(entry, topo, n, elem_bytes)
                    } else {
                        Err(ScheduleError::Shape(format!("the runner does not run {}", CollectiveAlgorithm::descriptor(entry).key)))
                    }
                })+)* }
            }
            #[inline]
            fn closed_form(self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
                match self { $($(Entry::$name => CollectiveAlgorithm::closed_form(&$module::$entry, topo, n_bytes, c),)+)* }
            }
            #[inline]
            fn factors(self, topo: &Topology) -> [f64; 3] {
                match self { $($(Entry::$name => CollectiveAlgorithm::factors(&$module::$entry, topo),)+)* }
            }
            /// [`Entry::factors`] on the flat topology of `p` ranks, `None`
            /// for an entry that follows nodes; the layout test folds at
            /// compile time, so those entries' closed forms are not linked.
            #[inline]
            fn flat_factors(self, p: usize) -> Option<[f64; 3]> {
                match self { $($(Entry::$name => {
                    let entry = &$module::$entry;
                    if CollectiveAlgorithm::descriptor(entry).layout == Layout::Nodes {
                        None
                    } else {
                        Some(CollectiveAlgorithm::factors(entry, &flat(p)))
                    }
                })+)* }
            }
            /// The entry's rounds on the flat topology of `p` ranks, `None`
            /// for an entry that follows nodes (as [`Entry::flat_factors`]).
            fn flat_rounds(self, p: usize) -> Option<Rounds> {
                match self { $($(Entry::$name => {
                    let entry = &$module::$entry;
                    if CollectiveAlgorithm::descriptor(entry).layout == Layout::Nodes {
                        None
                    } else {
                        Some(CollectiveAlgorithm::flat_rounds(entry, p))
                    }
                })+)* }
            }
            #[inline]
            fn equal_parts(self, topo: &Topology) -> usize {
                match self { $($(Entry::$name => CollectiveAlgorithm::equal_parts(&$module::$entry, topo),)+)* }
            }
            #[inline]
            fn describe(self, round: &RoundFacts<'_>) -> String {
                match self { $($(Entry::$name => CollectiveAlgorithm::describe(&$module::$entry, round),)+)* }
            }
            #[inline]
            fn on_topology(self) -> Option<TopologyInfo> {
                match self { $($(Entry::$name => CollectiveAlgorithm::on_topology(&$module::$entry),)+)* }
            }
            #[inline]
            fn topology_schedule(self, topo: &Topology, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
                match self { $($(Entry::$name => CollectiveAlgorithm::topology_schedule(&$module::$entry, topo, n, elem_bytes),)+)* }
            }
            #[inline]
            fn topology_time(self, topo: &Topology, n: u64, elem_bytes: u64, split: Split) -> Option<f64> {
                match self { $($(Entry::$name => CollectiveAlgorithm::topology_time(&$module::$entry, topo, n, elem_bytes, split),)+)* }
            }
        }
    };
}

// One line per algorithm file; its position is its place in menus and tables.
registry! {
    ring_all_reduce { /** Ring all-reduce. */ RING = RingAllReduce }
    binomial_tree { /** Binomial-tree reduce + broadcast. */ TREE = BinomialTree }
    binary_tree { /** Pipelined binary-tree reduce + broadcast (unsegmented schedule). */ PTREE = PipelinedBinaryTree }
    double_binary_tree { /** Double binary tree all-reduce (two trees, half the tensor each). */ DBTREE = DoubleBinaryTree }
    recursive_doubling { /** Recursive doubling all-reduce. */ RD = RecursiveDoubling }
    recursive_halving { /** Recursive halving reduce-scatter. */ RH = RecursiveHalving }
    rabenseifner { /** Rabenseifner all-reduce. */ RAB = Rabenseifner }
    naive_root { /** Naive root all-reduce. */ NAIVE = NaiveRoot }
    ring_reduce_scatter { /** Ring reduce-scatter. */ RS = RingReduceScatter }
    ring_all_gather { /** Ring all-gather. */ AG = RingAllGather }
    hierarchical { /** Hierarchical all-reduce, ring among the node leaders. */ HIER = HIER_RING, /** Hierarchical all-reduce, recursive doubling among the node leaders. */ HIER_RD = HIER_RD }
    multilane { /** Multi-lane hierarchical all-reduce. */ MULTILANE = MultiLane }
    rack_aware { /** Rack-aware all-reduce. */ RAT = RackAware }
    flex_reduce { /** FlexReduce over unequal groups. */ FLEX = FlexReduce }
    all_to_all { /** Pairwise-exchange all-to-all. */ PAIRWISE = Pairwise, /** Bruck's all-to-all. */ BRUCK = Bruck, /** Linear all-to-all (every send at once). */ LINEAR = Linear }
}

#[cfg(test)]
mod tests;
