//! One registry of collective algorithms: every algorithm the app can
//! generate, execute, cost and narrate is one file in this folder and one line
//! in the `registry!` list below, which declares the module, puts its entry
//! into [`REGISTRY`] and names it `Algorithm::CONST`.
//!
//! Each file defines a unit struct implementing [`CollectiveAlgorithm`]. The
//! trait has no default methods and its [`Descriptor`] has no default
//! fields, so a new algorithm has to answer every question the app asks: its
//! URL key and labels, the collective it computes (and so its nccl-tests
//! busbw factor), whether it follows nodes or folds to a power of two
//! ([`Layout`]), how each of its phases proceeds ("by recursive halving"),
//! its schedule generator, its closed-form α–β–γ time with the source of the
//! formula, the size of its equal chunks, and the sentence that narrates
//! each of its rounds.
//!
//! Everything else iterates over the registry through the one public handle,
//! [`Algorithm`]: the collectives view's menu and summary table, the cost
//! view's comparison ([`Algorithm::compared`]), the URL parsers. The
//! topology view reads [`topology_entries`] instead, which the macro
//! builds from each entry's [`CollectiveAlgorithm::on_topology`]. No count of
//! algorithms is written down anywhere, and no list of keys: the parsers'
//! messages, the docs of the URL parameters and the tests' key lists all
//! read the registry.
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
//!      ([`CollectiveAlgorithm::describe`]) and its topology-view entry
//!      ([`CollectiveAlgorithm::on_topology`], `None` unless the topology
//!      view offers it). The compiler lists every method and field to write.
//! 2. Add one line `<name> { /** My all-reduce. */ MY = MyAllReduce }` to
//!    the `registry!` list below. Its position is its place in menus and
//!    tables; `Algorithm::MY` is its handle.
//! 3. Add a test in the new file: the schedule verifies under
//!    [`crate::core::execute::execute`], and the closed form equals
//!    [`crate::core::timing::executed_time`] where chunks are equal (see
//!    `hierarchical.rs` for an example). The registry-wide tests in this
//!    module and in `tests/generators.rs` then cover the new entry too.
//!
//! The hierarchical all-reduce (`hierarchical.rs`, keys `hier` and
//! `hier_rd`) was added exactly this way.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::CostParams;
use crate::core::execute::{default_init, execute, ExecOptions};
use crate::core::schedule::{round_heading, Phase, Schedule, ScheduleError};
use crate::core::timing::executed_time;
use crate::core::topology::{Link, Topology, TopologyError};
use crate::core::units::{format_signed_time, format_time, format_time_sig, group_thousands};

pub mod compare;
pub mod narrate;
/// Building blocks of the topology-aware collectives (rings inside groups of ranks).
pub mod pieces;
pub mod pipelining;

pub use binomial_tree::{binomial_levels, binomial_tree_all_reduce_time, binomial_tree_schedule};
pub use hierarchical::{Hierarchical, LeaderAlgorithm};
pub use naive_root::{naive_root_all_reduce_time, naive_root_schedule};
pub use rabenseifner::{rabenseifner_all_reduce_time, rabenseifner_schedule};
pub use recursive_doubling::{recursive_doubling_all_reduce_time, recursive_doubling_schedule};
pub use recursive_halving::recursive_halving_reduce_scatter_time;
pub use ring_all_gather::ring_all_gather_time;
pub use ring_all_reduce::ring_all_reduce_time;
pub use ring_reduce_scatter::ring_reduce_scatter_time;

/// The registry's one list: `module { CONST = Entry, … }` declares
/// `pub mod module;` (the file `module.rs` of this folder), puts each
/// `module::Entry` into [`REGISTRY`] in the order written, and names it
/// `Algorithm::CONST`. A file with two entries (`hierarchical`) lists both
/// in its braces.
macro_rules! registry {
    ($($module:ident { $($(#[$doc:meta])* $name:ident = $entry:ident),+ $(,)? })*) => {
        $(pub mod $module;)*

        /// Every collective algorithm, in the order menus and tables list them.
        pub static REGISTRY: &[&dyn CollectiveAlgorithm] = &[$($(&$module::$entry,)+)*];

        impl Algorithm {
            $($($(#[$doc])* pub const $name: Algorithm = Algorithm(&$module::$entry);)+)*
        }

        /// The position of each entry in [`REGISTRY`], by its constant's name.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        enum EntryIndex {
            $($($name,)+)*
        }

        impl ClosedForm {
            $($($(#[$doc])* pub const $name: ClosedForm = ClosedForm(EntryIndex::$name as usize);)+)*
        }

        /// `[startups, byte_factor, gamma_factor]` of entry `i` of
        /// [`REGISTRY`] on the flat topology of `p` ranks, by static
        /// dispatch; `None` past the end and for an entry that follows nodes
        /// ([`Layout::Nodes`]: its closed form needs the node shape, which
        /// `p` alone does not give). The layout test folds at compile time,
        /// so the node-following entries' closed forms are not linked.
        #[allow(unused_assignments)]
        fn entry_flat_factors(i: usize, p: usize) -> Option<[f64; 3]> {
            let mut k = 0usize;
            $($(
                if i == k {
                    let entry = &$module::$entry;
                    if CollectiveAlgorithm::descriptor(entry).layout == Layout::Nodes {
                        return None;
                    }
                    return Some(CollectiveAlgorithm::factors(entry, &flat(p)));
                }
                k += 1;
            )+)*
            None
        }

        /// The algorithms the topology view offers, in registry order: every
        /// entry whose [`CollectiveAlgorithm::on_topology`] answers `Some`.
        ///
        /// Each answer is asked of its entry's own type, not through
        /// [`REGISTRY`]'s vtables, so a page that asks only these questions
        /// links these entries' topology generators and topology-timed
        /// closed forms, not every algorithm's closed form and narration.
        pub fn topology_entries() -> &'static [TopologyEntry] {
            static ENTRIES: OnceLock<Vec<TopologyEntry>> = OnceLock::new();
            ENTRIES.get_or_init(|| {
                [$($(CollectiveAlgorithm::on_topology(&$module::$entry),)+)*]
                    .into_iter()
                    .flatten()
                    .collect()
            })
        }

        /// The descriptor of entry `i` of [`REGISTRY`], by static dispatch
        /// (no trait object); `None` past the end.
        #[allow(unused_assignments)]
        fn entry_descriptor(i: usize) -> Option<Descriptor> {
            let mut k = 0usize;
            $($(
                if i == k {
                    return Some(CollectiveAlgorithm::descriptor(&$module::$entry));
                }
                k += 1;
            )+)*
            None
        }

        /// The schedule of entry `i` of [`REGISTRY`] when it is a flat
        /// all-reduce ([`is_flat_all_reduce`]), by static dispatch: the
        /// descriptor test folds at compile time, so the other entries'
        /// generators are not linked.
        #[allow(unused_assignments)]
        fn flat_all_reduce_generate(
            i: usize,
            topo: &Topology,
            n: u64,
            elem_bytes: u64,
        ) -> Result<Schedule, ScheduleError> {
            let mut k = 0usize;
            $($(
                if i == k {
                    let entry = &$module::$entry;
                    if is_flat_all_reduce(&CollectiveAlgorithm::descriptor(entry)) {
                        return CollectiveAlgorithm::generate(entry, topo, n, elem_bytes);
                    }
                }
                k += 1;
            )+)*
            Err(ScheduleError::Shape("not a flat all-reduce of the registry".into()))
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
}

pub mod flat_topo;

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

/// What the topology view asks of an algorithm it offers
/// ([`CollectiveAlgorithm::on_topology`]): its name there, when it applies,
/// its schedule on a topology and its topology-timed closed form.
#[derive(Clone, Copy, Debug)]
pub struct TopologyEntry {
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
    /// The schedule on a topology for `n` elements of `elem_bytes` bytes.
    ///
    /// # Errors
    /// As [`CollectiveAlgorithm::generate`], and
    /// [`ScheduleError::Shape`] when the topology lacks the shape the
    /// algorithm needs.
    pub generate: fn(&Topology, u64, u64) -> Result<Schedule, ScheduleError>,
    /// The topology-timed closed form ([`pieces::Split::EXACT`]) or lower
    /// bound ([`pieces::Split::FLOOR`]) for `n` elements of `elem_bytes`
    /// bytes, seconds; `None` where it is not derived.
    pub time: fn(&Topology, u64, u64, pieces::Split) -> Option<f64>,
}

/// One collective algorithm. Every method is required: a new algorithm must
/// decide each of them (see the module doc for the steps).
pub trait CollectiveAlgorithm: Sync {
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
    /// Into how many equal pieces the tensor must divide for the executed
    /// schedule to match the closed form exactly (1 for whole-tensor messages).
    fn equal_parts(&self, topo: &Topology) -> usize;
    /// Its entry in the topology view, or `None` when the view does not
    /// offer it. Asked of the type itself (`Self: Sized`, so it is not in
    /// the vtable), by [`topology_entries`] only: the pages that go through
    /// [`Algorithm`] do not link the topology view's generators.
    fn on_topology(&self) -> Option<TopologyEntry>
    where
        Self: Sized;
    /// What happens in a round of this algorithm, as a sentence fragment
    /// (no capital, no full stop).
    fn describe(&self, round: &RoundFacts<'_>) -> String;
}

/// The factors of `alg`'s closed form on `topo`, read off the written-out
/// formula at unit size.
pub fn factors_of(alg: &dyn CollectiveAlgorithm, topo: &Topology) -> [f64; 3] {
    let f = alg.closed_form(topo, 1.0, CostParams::new(0.0, 0.0));
    [f.startups, f.byte_factor, f.gamma_factor]
}

/// The one public handle on a registered algorithm: a `Copy` reference into
/// [`REGISTRY`]. Equality, hashing and ordering go by the URL key.
#[derive(Clone, Copy)]
pub struct Algorithm(&'static dyn CollectiveAlgorithm);

impl Algorithm {
    /// Every registered algorithm, in [`REGISTRY`] order.
    pub fn all() -> impl Iterator<Item = Algorithm> {
        REGISTRY.iter().map(|&a| Algorithm(a))
    }

    /// The all-reduce algorithms compared by the cost view: every flat
    /// (topology-independent) all-reduce, in registry order.
    pub fn compared() -> &'static [Algorithm] {
        static COMPARED: OnceLock<Vec<Algorithm>> = OnceLock::new();
        COMPARED.get_or_init(|| {
            Algorithm::all()
                .filter(|a| a.collective() == CollectiveKind::AllReduce && !a.needs_nodes())
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
        Algorithm::from_key(key).unwrap_or(Algorithm(REGISTRY[0]))
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
    /// See [`CollectiveAlgorithm::method`].
    pub fn method(self, phase: Phase) -> &'static str {
        self.0.method(phase)
    }
    /// nccl-tests' busbw factor of this algorithm's collective at `p` ranks
    /// ([`crate::core::cost::nccl::busbw_factor`]).
    pub fn busbw_factor(self, p: usize) -> f64 {
        crate::core::cost::nccl::busbw_factor(self.collective(), p)
    }
    /// See [`CollectiveAlgorithm::generate`].
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
    /// See [`CollectiveAlgorithm::closed_form`].
    pub fn closed_form_on(self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
        self.0.closed_form(topo, n_bytes, c)
    }
    /// The closed form on the flat topology of `p` ranks.
    pub fn cost(self, p: usize, n_bytes: f64, c: CostParams) -> Formula {
        self.0.closed_form(&flat(p), n_bytes, c)
    }
    /// `[startups, byte_factor, gamma_factor]` at `p` ranks (flat topology).
    pub fn factors(self, p: usize) -> [f64; 3] {
        self.0.factors(&flat(p))
    }
    /// The flat cost as a line in `n`: `(intercept, slope)` with
    /// `T(n) = intercept + slope·n` (seconds, seconds per byte).
    pub fn line(self, p: usize, c: CostParams) -> (f64, f64) {
        let [a, b, g] = self.factors(p);
        (a * c.alpha, b * c.beta + g * c.gamma)
    }
    /// Number of rounds of the schedule on `topo`, i.e. the last step of its
    /// animation, without generating the schedule: the closed form's
    /// start-up count (one α per round, the first entry of
    /// [`CollectiveAlgorithm::factors`]), which equals
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
    /// See [`CollectiveAlgorithm::equal_parts`].
    pub fn equal_parts(self, topo: &Topology) -> usize {
        self.0.equal_parts(topo)
    }
    /// See [`CollectiveAlgorithm::describe`].
    pub fn describe(self, round: &RoundFacts<'_>) -> String {
        self.0.describe(round)
    }
}

/// True for a registry entry that computes an all-reduce from `topo.p()`
/// alone: collective [`CollectiveKind::AllReduce`], layout [`Layout::Flat`]
/// or [`Layout::Folded`] (the entries of [`Algorithm::compared`]).
#[inline(always)]
fn is_flat_all_reduce(d: &Descriptor) -> bool {
    d.collective == CollectiveKind::AllReduce && d.layout != Layout::Nodes
}

/// A flat all-reduce of the registry (see `is_flat_all_reduce`: the
/// entries of [`Algorithm::compared`], in registry order), reached by
/// static dispatch rather than through [`REGISTRY`]'s trait objects.
///
/// Every use of an [`Algorithm`] links every entry's whole vtable (its
/// generator, closed form, narration and texts). A page that only needs the
/// flat all-reduces' names and schedules (the training-step view) holds a
/// `FlatAllReduce` instead and links only their descriptors and generators.
/// The entries come from the same `registry!` line, so a new flat
/// all-reduce appears here with no other change.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlatAllReduce(usize);

impl FlatAllReduce {
    /// Ring all-reduce (entry 0 of [`REGISTRY`], tested).
    pub const RING: FlatAllReduce = FlatAllReduce(0);

    /// Every flat all-reduce, in registry order.
    pub fn all() -> impl Iterator<Item = FlatAllReduce> {
        (0..)
            .map_while(|i| entry_descriptor(i).map(|d| (i, d)))
            .filter(|(_, d)| is_flat_all_reduce(d))
            .map(|(i, _)| FlatAllReduce(i))
    }

    /// Parses an `alg` URL value (case-insensitive, surrounding blanks
    /// ignored); `None` for an unknown key or an entry that is not a flat
    /// all-reduce.
    pub fn from_key(s: &str) -> Option<FlatAllReduce> {
        let s = s.trim().to_ascii_lowercase();
        FlatAllReduce::all().find(|a| a.key() == s)
    }

    /// The flat all-reduce `alg` is, if it is one.
    pub fn of(alg: Algorithm) -> Option<FlatAllReduce> {
        FlatAllReduce::from_key(alg.key())
    }

    /// The same entry as an [`Algorithm`] (links the registry's vtables).
    pub fn algorithm(self) -> Algorithm {
        Algorithm(REGISTRY[self.0])
    }

    fn descriptor(self) -> Descriptor {
        entry_descriptor(self.0).unwrap_or_else(|| ring_all_reduce::RingAllReduce.descriptor())
    }

    /// The `alg` URL value, e.g. `"rab"`.
    pub fn key(self) -> &'static str {
        self.descriptor().key
    }

    /// Full human name, e.g. `"Rabenseifner all-reduce"`.
    pub fn label(self) -> &'static str {
        self.descriptor().label
    }

    /// The entry's schedule ([`CollectiveAlgorithm::generate`]).
    ///
    /// # Errors
    /// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
    pub fn generate_on(
        self,
        topo: &Topology,
        n: u64,
        elem_bytes: u64,
    ) -> Result<Schedule, ScheduleError> {
        flat_all_reduce_generate(self.0, topo, n, elem_bytes)
    }
}

/// Any entry of the registry, reached by static dispatch, for the pages
/// that need only its names and its flat closed form's factors (the measure
/// view's fits): holding a `ClosedForm` links every entry's descriptor and
/// the flat entries' [`CollectiveAlgorithm::factors`], not the registry's
/// vtables (schedule generators, narration, written-out formulas) that any
/// use of an [`Algorithm`] links. Its list and constants come from the same
/// `registry!` line as [`Algorithm`]'s (`ClosedForm::RING` is
/// `Algorithm::RING`), so a new entry appears here with no other change.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClosedForm(usize);

impl ClosedForm {
    /// Every entry, in [`REGISTRY`] order.
    pub fn all() -> impl Iterator<Item = ClosedForm> {
        (0..)
            .take_while(|&i| entry_descriptor(i).is_some())
            .map(ClosedForm)
    }

    /// Parses an `alg` URL value (case-insensitive, surrounding blanks
    /// ignored); `None` for an unknown key.
    pub fn from_key(s: &str) -> Option<ClosedForm> {
        let s = s.trim().to_ascii_lowercase();
        ClosedForm::all().find(|a| a.key() == s)
    }

    /// The same entry as an [`Algorithm`] (links the registry's vtables).
    pub fn algorithm(self) -> Algorithm {
        Algorithm(REGISTRY[self.0])
    }

    fn descriptor(self) -> Descriptor {
        entry_descriptor(self.0).unwrap_or_else(|| ring_all_reduce::RingAllReduce.descriptor())
    }

    /// The `alg` URL value, e.g. `"rab"`.
    pub fn key(self) -> &'static str {
        self.descriptor().key
    }

    /// Full human name, e.g. `"Rabenseifner all-reduce"`.
    pub fn label(self) -> &'static str {
        self.descriptor().label
    }

    /// Short name, e.g. `"Rabenseifner"`.
    pub fn short_label(self) -> &'static str {
        self.descriptor().short_label
    }

    /// The collective computed.
    pub fn collective(self) -> CollectiveKind {
        self.descriptor().collective
    }

    /// True for an entry of [`Algorithm::compared`] (a flat all-reduce).
    pub fn is_compared(self) -> bool {
        is_flat_all_reduce(&self.descriptor())
    }

    /// `[startups, byte_factor, gamma_factor]` of the closed form at `p`
    /// ranks on the flat topology (the multipliers of α, n·β and n·γ:
    /// [`Algorithm::factors`]); `None` for an entry that follows nodes
    /// ([`Layout::Nodes`]), whose closed form needs the node shape.
    pub fn factors(self, p: usize) -> Option<[f64; 3]> {
        entry_flat_factors(self.0, p)
    }
}

impl fmt::Debug for ClosedForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ClosedForm({})", self.key())
    }
}

impl fmt::Debug for FlatAllReduce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FlatAllReduce({})", self.key())
    }
}

impl PartialEq for Algorithm {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Algorithm {}
impl Hash for Algorithm {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
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

/// `(q, (q − 1)/q)` with `q = max(p, 1)` ranks of `topo`, as `f64`: the
/// terms of the ring and naive closed forms.
fn flat_p(topo: &Topology) -> (f64, f64) {
    let q = topo.p().max(1) as f64;
    (q, (q - 1.0) / q)
}

/// The flat topology of `p` ranks used for topology-independent questions
/// (only `p` matters to a flat generator or closed form).
pub fn flat(p: usize) -> Topology {
    Topology::flat(p, 0.0, 0.0)
}

/// `nodes` equal nodes of `gpus` ranks each, for generating schedules that
/// follow nodes; the links are placeholders (generators never read them;
/// time them with [`crate::core::timing`]).
///
/// # Errors
/// [`TopologyError::Empty`] when `nodes` or `gpus` is 0.
pub fn nodes_of(nodes: usize, gpus: usize) -> Result<Topology, TopologyError> {
    let link = Link::new(0.0, 1.0);
    Topology::unequal(vec![gpus; nodes], 1, 1, link, link, 1.0)
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
    let method = alg.method(round.phase);
    let head = if method.is_empty() {
        round.phase.label().to_string()
    } else {
        format!("{} {method}", round.phase.label())
    };
    round_heading(&head, k, of, &round.note)
}

/// The closed form of `alg` at `p` ranks (flat topology) and `n_bytes` bytes
/// (see [`crate::core::cost::formulas`] for each formula and its source). For
/// non-powers of two the recursive algorithms use the labelled adaptation
/// ([`Formula::pow2_adapted`]).
pub fn closed_form(alg: Algorithm, p: usize, n_bytes: f64, c: CostParams) -> Formula {
    alg.cost(p, n_bytes, c)
}

/// One row of the comparison table: what an executed schedule costs, beside
/// the closed form.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgorithmSummary {
    /// The algorithm.
    pub alg: Algorithm,
    /// Number of rounds of the schedule.
    pub rounds: usize,
    /// Largest number of bytes any one rank sends.
    pub max_sent_bytes: u64,
    /// Largest number of bytes any one rank receives.
    pub max_recv_bytes: u64,
    /// α–β time of the executed schedule (each round costs the max over its
    /// transfers of α + bytes·β; [`crate::core::timing::executed_time`]), seconds.
    pub executed_time: f64,
    /// The cost model's closed form at the same topology and size.
    pub closed_form: Formula,
    /// True when the executed result equals the element-wise reduction.
    pub verified: bool,
    /// Why the executed time differs from the closed form, when it does.
    pub difference: Option<String>,
}

impl AlgorithmSummary {
    /// True when the executed time equals the closed form (relative 1e-9).
    pub fn agrees(&self) -> bool {
        times_agree(self.executed_time, self.closed_form.time)
    }

    /// True when the executed time and the closed form agree to the 4
    /// significant digits the views show: within the relative
    /// [`SHOWN_AGREEMENT`] (5·10⁻⁵), the rule of the ✓ in
    /// [`ShownTimes`]. Chunks that differ by one element add such a
    /// sub-nanosecond gap; [`Self::agrees`] implies this.
    pub fn agrees_to_shown_digits(&self) -> bool {
        times_within(self.executed_time, self.closed_form.time, SHOWN_AGREEMENT)
    }

    /// The executed time and the closed form as the views print them, with
    /// the verdict ([`ShownTimes::new`]).
    pub fn shown(&self) -> ShownTimes {
        ShownTimes::new(self.executed_time, self.closed_form.time)
    }

    /// The executed time minus the closed form, seconds.
    pub fn excess(&self) -> f64 {
        self.executed_time - self.closed_form.time
    }
}

/// True when two times in seconds agree to a relative 1e-9 (or both are 0).
pub fn times_agree(a: f64, b: f64) -> bool {
    times_within(a, b, 1e-9)
}

/// True when `|a − b| ≤ rel · max(|a|, |b|)` (or both are 0).
fn times_within(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-30)
}

/// The relative tolerance of the ✓ beside an executed time and its closed
/// form: 5·10⁻⁵, never more than half a unit in the 4th significant digit
/// (half a unit is 5·10⁻⁵ of a value whose digits are 9.999… and 5·10⁻⁴ of
/// one whose digits are 1.000…), so two times within it agree to the 4
/// digits [`crate::core::units::format_time`] shows.
pub const SHOWN_AGREEMENT: f64 = 5e-5;

/// How an executed time compares with its closed form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeAgreement {
    /// Equal up to floating-point error (relative 10⁻⁹, [`times_agree`]).
    Equal,
    /// Not equal, but within the relative [`SHOWN_AGREEMENT`]: the same to
    /// the 4 digits shown (e.g. chunks that differ by one element).
    ToShownDigits,
    /// Further apart than [`SHOWN_AGREEMENT`].
    Differ,
}

/// An executed time and its closed form as the views print them, with the
/// verdict, so that the numbers and the verdict never contradict each other.
///
/// The rule, one relative tolerance everywhere: the two agree (✓) when
/// `|executed − closed| ≤ 5·10⁻⁵ · max(executed, closed)`
/// ([`SHOWN_AGREEMENT`]); the ✓ says "to 4 digits" with the exact gap
/// unless they are also equal up to floating-point error (relative 10⁻⁹).
///
/// - Agreeing times print the same digits on both sides: both show
///   [`format_time`] of the larger of the two. Two times within the
///   tolerance that round differently lie on either side of a 4-digit
///   rounding boundary (e.g. 35.875 ms computed as 35.87499… and
///   35.87500…), and the larger one rounds that boundary half up:
///   both show 35.88 ms.
/// - Times that differ print with the fewest significant digits (at least
///   4) at which they print differently, and the verdict gives the gap.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownTimes {
    /// The verdict.
    pub agreement: TimeAgreement,
    /// The executed time as shown.
    pub executed: String,
    /// The closed form as shown.
    pub closed_form: String,
    /// The executed time minus the closed form, signed
    /// ([`format_signed_time`]): "+0.3200 ns".
    pub gap: String,
}

impl ShownTimes {
    /// Compares `executed` with `closed` (seconds) by the rule above.
    pub fn new(executed: f64, closed: f64) -> Self {
        let agreement = if times_agree(executed, closed) {
            TimeAgreement::Equal
        } else if times_within(executed, closed, SHOWN_AGREEMENT) {
            TimeAgreement::ToShownDigits
        } else {
            TimeAgreement::Differ
        };
        let (executed_shown, closed_shown) = if agreement == TimeAgreement::Differ {
            (4..=17)
                .map(|d| (format_time_sig(executed, d), format_time_sig(closed, d)))
                .find(|(e, c)| e != c)
                .unwrap_or_else(|| (format_time(executed), format_time(closed)))
        } else {
            let both = format_time(executed.max(closed));
            (both.clone(), both)
        };
        ShownTimes {
            agreement,
            executed: executed_shown,
            closed_form: closed_shown,
            gap: format_signed_time(executed - closed),
        }
    }

    /// True for the ✓: within the relative [`SHOWN_AGREEMENT`].
    pub fn agrees(&self) -> bool {
        self.agreement != TimeAgreement::Differ
    }

    /// The verdict in a table cell: "✓", "✓ to 4 digits (+1.067 ns)" or
    /// "differs by +4.000 s".
    pub fn cell(&self) -> String {
        match self.agreement {
            TimeAgreement::Equal => "✓".into(),
            TimeAgreement::ToShownDigits => format!("✓ to 4 digits ({})", self.gap),
            TimeAgreement::Differ => format!("differs by {}", self.gap),
        }
    }

    /// The verdict as a sentence, ending in "Why: {why}" unless `why` is
    /// empty (the reason of [`AlgorithmSummary::difference`]).
    pub fn sentence(&self, why: &str) -> String {
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" Why: {why}")
        };
        match self.agreement {
            TimeAgreement::Equal => "✓ The executed schedule and the closed form agree.".into(),
            TimeAgreement::ToShownDigits => format!(
                "✓ Executed and closed form both show {}: they agree to 4 significant digits; \
                 the exact difference is {}.{why}",
                self.executed, self.gap
            ),
            TimeAgreement::Differ => format!(
                "≠ They differ by {}: executed {} vs closed form {}.{why}",
                self.gap, self.executed, self.closed_form
            ),
        }
    }
}

/// Explains why an executed schedule's time can differ from the closed form,
/// or `None` when the two are expected to agree exactly: every chunk (of
/// [`CollectiveAlgorithm::equal_parts`]) equal and non-empty. The closed
/// forms include the labelled non-power-of-two adaptation, which the
/// generators follow exactly.
pub fn expected_difference(alg: Algorithm, p: usize, n: u64) -> Option<String> {
    expected_difference_on(alg, &flat(p), n)
}

/// [`expected_difference`] on any topology.
pub fn expected_difference_on(alg: Algorithm, topo: &Topology, n: u64) -> Option<String> {
    let parts = alg.equal_parts(topo);
    if n < parts as u64 {
        return Some(format!(
            "n = {} elements < {parts} chunks: some chunks are empty, their messages still pay α, \
             and the other chunks are larger than n/{parts}",
            group_thousands(n)
        ));
    }
    if !n.is_multiple_of(parts as u64) {
        return Some(format!(
            "n = {} elements does not divide into {parts} equal chunks: the larger chunks set each round's time",
            group_thousands(n)
        ));
    }
    None
}

/// Generates, executes and costs `alg` at `p` ranks (flat topology) and `n`
/// elements of `elem_bytes` bytes, with α and β from `c` (γ is ignored, as in
/// [`executed_time`]).
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summarize(
    alg: Algorithm,
    p: usize,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<AlgorithmSummary, ScheduleError> {
    summarize_on(alg, &flat(p), n, elem_bytes, c)
}

/// [`summarize`] on any topology (the time is still the flat model's).
///
/// # Errors
/// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summarize_on(
    alg: Algorithm,
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<AlgorithmSummary, ScheduleError> {
    let s = alg.generate_on(topo, n, elem_bytes)?;
    let p = s.p;
    let mut sent = vec![0u64; p];
    let mut recv = vec![0u64; p];
    for t in s.rounds.iter().flat_map(|r| &r.transfers) {
        sent[t.src] += t.bytes(elem_bytes);
        recv[t.dst] += t.bytes(elem_bytes);
    }
    let verified = execute(&s, &default_init, ExecOptions { keep_states: false })
        .is_ok_and(|t| t.verification.ok());
    let executed = executed_time(&s, c.alpha, c.beta);
    let closed = alg.closed_form_on(
        topo,
        s.total_bytes() as f64,
        CostParams::new(c.alpha, c.beta),
    );
    let difference = if times_agree(executed, closed.time) {
        None
    } else {
        Some(expected_difference_on(alg, topo, n).unwrap_or_else(|| {
            "unexpected: the executed schedule and the closed form disagree".into()
        }))
    };
    Ok(AlgorithmSummary {
        alg,
        rounds: s.num_rounds(),
        max_sent_bytes: sent.iter().copied().max().unwrap_or(0),
        max_recv_bytes: recv.iter().copied().max().unwrap_or(0),
        executed_time: executed,
        closed_form: closed,
        verified,
        difference,
    })
}

/// [`summarize`] for every flat algorithm (those that do not follow nodes),
/// in registry order.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summary_table(
    p: usize,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<Vec<AlgorithmSummary>, ScheduleError> {
    Algorithm::all()
        .filter(|a| !a.needs_nodes())
        .map(|a| summarize(a, p, n, elem_bytes, c))
        .collect()
}

/// [`summarize_on`] for every registered algorithm on `topo`, in registry order.
///
/// # Errors
/// [`ScheduleError`] when `topo.p() < 2`, `n == 0` or `elem_bytes == 0`.
pub fn summary_table_on(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
    c: CostParams,
) -> Result<Vec<AlgorithmSummary>, ScheduleError> {
    Algorithm::all()
        .map(|a| summarize_on(a, topo, n, elem_bytes, c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_all_reduces_are_the_compared_entries_with_the_same_schedules() {
        // The static-dispatch handle lists exactly the cost view's compared
        // entries (flat all-reduces), in registry order, and each generates
        // the registry's own schedule: p = 6, 1000 f32 elements.
        let keys: Vec<&str> = FlatAllReduce::all().map(FlatAllReduce::key).collect();
        let compared: Vec<&str> = Algorithm::compared().iter().map(|a| a.key()).collect();
        assert_eq!(keys, compared);
        assert_eq!(FlatAllReduce::RING.key(), "ring");
        assert_eq!(FlatAllReduce::RING.algorithm(), Algorithm::RING);
        for a in FlatAllReduce::all() {
            assert_eq!(a.label(), a.algorithm().label());
            assert_eq!(FlatAllReduce::of(a.algorithm()), Some(a));
            assert_eq!(FlatAllReduce::from_key(&a.key().to_uppercase()), Some(a));
            let topo = flat(6);
            assert_eq!(
                a.generate_on(&topo, 1000, 4),
                a.algorithm().generate_on(&topo, 1000, 4)
            );
        }
        // not flat all-reduces: a reduce-scatter, an entry that follows nodes
        assert_eq!(FlatAllReduce::of(Algorithm::RS), None);
        assert_eq!(FlatAllReduce::of(Algorithm::HIER), None);
        assert_eq!(FlatAllReduce::from_key("bogus"), None);
    }

    #[test]
    fn closed_forms_are_the_registry_with_the_same_factors() {
        // The static-dispatch list is the registry, in order, with the same
        // names; its factors are the trait objects' on the flat topology for
        // every entry that does not follow nodes, at p = 2 … 17 (powers of
        // two and not), and `None` for the node-following ones.
        let keys: Vec<&str> = ClosedForm::all().map(ClosedForm::key).collect();
        let registry: Vec<&str> = Algorithm::all().map(Algorithm::key).collect();
        assert_eq!(keys, registry);
        assert_eq!(ClosedForm::RING.algorithm(), Algorithm::RING);
        assert_eq!(ClosedForm::HIER_RD.algorithm(), Algorithm::HIER_RD);
        assert_eq!(ClosedForm::FLEX.algorithm(), Algorithm::FLEX);
        let compared: Vec<&str> = ClosedForm::all()
            .filter(|a| a.is_compared())
            .map(ClosedForm::key)
            .collect();
        let want: Vec<&str> = Algorithm::compared().iter().map(|a| a.key()).collect();
        assert_eq!(compared, want);
        for a in ClosedForm::all() {
            let alg = a.algorithm();
            assert_eq!(a.key(), alg.key());
            assert_eq!(a.label(), alg.label());
            assert_eq!(a.short_label(), alg.short_label());
            assert_eq!(a.collective(), alg.collective());
            assert_eq!(
                ClosedForm::from_key(&format!(" {} ", a.key().to_uppercase())),
                Some(a)
            );
            for p in 2..=17 {
                let want = (!alg.needs_nodes()).then(|| alg.factors(p));
                assert_eq!(a.factors(p), want, "{} at p = {p}", a.key());
            }
        }
        // by hand: ring at p = 4 is 2(p−1) = 6 start-ups, 2(p−1)/p = 1.5 n·β,
        // (p−1)/p = 0.75 n·γ; recursive doubling log₂4 = 2 of each
        assert_eq!(ClosedForm::RING.factors(4), Some([6.0, 1.5, 0.75]));
        assert_eq!(ClosedForm::RD.factors(4), Some([2.0, 2.0, 2.0]));
        assert_eq!(ClosedForm::HIER.factors(4), None);
        assert_eq!(ClosedForm::from_key("bogus"), None);
    }

    #[test]
    fn one_element_chunk_gaps_agree_to_the_shown_digits() {
        // Ring all-reduce, p = 6, n = 16,000,000 f32 (64 MB), α = 5 µs,
        // β = 0.08 ns/B. Chunks of 2,666,667 and 2,666,666 elements: each of
        // the 2(p − 1) = 10 rounds costs α + 10,666,668 B × β, the closed form
        // α + (64 MB / 6) × β, so the executed time exceeds it by
        // 10 × (4/3 B) × 0.08 ns/B ≈ 1.067 ns; both print as 8.583 ms.
        let row = summarize(
            Algorithm::named("ring"),
            6,
            16_000_000,
            4,
            CostParams::new(5e-6, 8e-11),
        )
        .expect("valid");
        assert!(!row.agrees());
        assert!(row.agrees_to_shown_digits());
        assert!((row.excess() - 1.0667e-9).abs() < 1e-12, "{}", row.excess());
        assert_eq!(
            crate::core::units::format_time(row.executed_time),
            "8.583 ms"
        );
        assert_eq!(
            crate::core::units::format_signed_time(row.excess()),
            "+1.067 ns"
        );
        // Equal chunks: exact agreement.
        let row = summarize(
            Algorithm::named("ring"),
            4,
            16_000_000,
            4,
            CostParams::new(5e-6, 8e-11),
        )
        .expect("valid");
        assert!(row.agrees() && row.agrees_to_shown_digits());
    }

    /// The course's link: α = 5 µs, 12.5 GB/s (β = 0.08 ns/B).
    const COURSE: CostParams = CostParams {
        alpha: 5e-6,
        beta: 8e-11,
        gamma: 0.0,
    };

    #[test]
    fn exact_ties_print_the_same_on_both_sides() {
        // Recursive doubling, p = 40, 64 MB (16,000,000 f32): 8 ranks fold
        // in, log₂ 32 = 5 doubling rounds, 8 unfold, every message the whole
        // 64 MB: 7 × (5 µs + 64e6 B × 0.08 ns/B) = 7 × 5.125 ms = 35.875 ms
        // exactly, a tie at 4 digits, rounded half up on both sides.
        let row = summarize(Algorithm::named("rd"), 40, 16_000_000, 4, COURSE).expect("valid");
        assert!((row.closed_form.time - 0.035_875).abs() < 1e-15);
        assert!(row.agrees());
        let shown = row.shown();
        assert_eq!(shown.agreement, TimeAgreement::Equal);
        assert_eq!(shown.executed, "35.88 ms");
        assert_eq!(shown.closed_form, "35.88 ms");
        assert_eq!(shown.cell(), "✓");
        assert_eq!(
            shown.sentence(""),
            "✓ The executed schedule and the closed form agree."
        );
        let s = generate(Algorithm::named("rd"), 40, 16_000_000, 4).expect("valid");
        assert_eq!(
            crate::core::timing::explain_shown(&s, 5e-6, 8e-11, &shown.executed),
            "7 rounds × (5.000 µs + 64 MB × 0.08 ns/B) = 35.88 ms"
        );
        // Naive root, 2(p − 1) rounds of 5.125 ms: p = 12 gives 22 × 5.125 =
        // 112.75 ms, p = 24 gives 46 × 5.125 = 235.75 ms.
        for (p, both) in [(12, "112.8 ms"), (24, "235.8 ms")] {
            let shown = summarize(Algorithm::named("naive"), p, 16_000_000, 4, COURSE)
                .expect("valid")
                .shown();
            assert_eq!(shown.agreement, TimeAgreement::Equal, "p = {p}");
            assert_eq!(
                (shown.executed.as_str(), shown.closed_form.as_str()),
                (both, both)
            );
        }
        // Every row at the default size, p = 2..64: a ✓ prints one value.
        for p in 2..=64 {
            for row in summary_table(p, 16_000_000, 4, COURSE).expect("valid") {
                let shown = row.shown();
                assert!(shown.agrees(), "{} p = {p}", row.alg.key());
                assert_eq!(
                    shown.executed,
                    shown.closed_form,
                    "{} p = {p}",
                    row.alg.key()
                );
            }
        }
    }

    #[test]
    fn recursive_halving_p3_and_p6_get_the_same_rule() {
        // p = 3, 64 MB = 16,000,000 f32 in chunks of 5,333,334, 5,333,333 and
        // 5,333,333 elements; p′ = 2 with one extra rank. Closed form
        // (log₂p′ + 2)α + (1 + S/p + 1/p)·nβ with S = 2: 15 µs + 2 × 5.12 ms
        // = 10.255 ms. Executed: fold-in 64 MB, the halving round's largest
        // message chunks 0 + 1 = 42,666,668 B, the extra rank's chunk 0 =
        // 21,333,336 B: 15 µs + 128,000,004 B × 0.08 ns/B = 10.25500032 ms,
        // 4 B × 0.08 ns/B = 0.32 ns more (relative 3.1·10⁻⁸ ≤ 5·10⁻⁵).
        // The two straddle 10.255: both print the larger, 10.26 ms.
        let rh = Algorithm::named("rh");
        let row = summarize(rh, 3, 16_000_000, 4, COURSE).expect("valid");
        assert!((row.closed_form.time - 0.010_255).abs() < 1e-15);
        assert!((row.excess() - 0.32e-9).abs() < 1e-15, "{}", row.excess());
        let shown = row.shown();
        assert_eq!(shown.agreement, TimeAgreement::ToShownDigits);
        assert!(row.agrees_to_shown_digits() && !row.agrees());
        assert_eq!(
            (shown.executed.as_str(), shown.closed_form.as_str()),
            ("10.26 ms", "10.26 ms")
        );
        assert_eq!(shown.cell(), "✓ to 4 digits (+0.3200 ns)");
        // p = 6: chunks of 2,666,667 (four) and 2,666,666 (two); p′ = 4 with
        // two extra ranks, S = (2 + 2) + (1 + 1) = 6 chunks. Closed form
        // 4α + (1 + 6/6 + 1/6)·nβ = 20 µs + 13/6 × 5.12 ms = 11.113333… ms.
        // Executed: the largest messages are 4, 2 and 1 chunks of 2,666,667
        // elements, 16/3 + 8/3 + 4/3 = 28/3 B more than 4n/6, 2n/6 and n/6:
        // 28/3 B × 0.08 ns/B ≈ 0.7467 ns (relative 6.7·10⁻⁸). Same rule, same
        // verdict; both print 11.11 ms.
        let row = summarize(rh, 6, 16_000_000, 4, COURSE).expect("valid");
        assert!((row.closed_form.time - (20e-6 + 13.0 / 6.0 * 5.12e-3)).abs() < 1e-15);
        assert!(
            (row.excess() - 28.0 / 3.0 * 8e-11).abs() < 1e-15,
            "{}",
            row.excess()
        );
        let shown = row.shown();
        assert_eq!(shown.agreement, TimeAgreement::ToShownDigits);
        assert_eq!(
            (shown.executed.as_str(), shown.closed_form.as_str()),
            ("11.11 ms", "11.11 ms")
        );
        assert_eq!(shown.cell(), "✓ to 4 digits (+0.7467 ns)");
        assert_eq!(
            shown.sentence("why"),
            "✓ Executed and closed form both show 11.11 ms: they agree to 4 significant \
             digits; the exact difference is +0.7467 ns. Why: why"
        );
        // p = 3 with n = 4 f32 (16 B), α = 0, β = 1 s/B: chunks 2, 1, 1.
        // Closed form 2nβ = 32 s; executed 16 + 12 (chunks 0 + 1) + 8 (chunk
        // 0) = 36 s: 4 s more, relative 0.11 > 5·10⁻⁵, so they differ.
        let row = summarize(rh, 3, 4, 4, CostParams::new(0.0, 1.0)).expect("valid");
        let shown = row.shown();
        assert_eq!(shown.agreement, TimeAgreement::Differ);
        assert!(!row.agrees_to_shown_digits());
        assert_eq!(
            (shown.executed.as_str(), shown.closed_form.as_str()),
            ("36.00 s", "32.00 s")
        );
        assert_eq!(shown.cell(), "differs by +4.000 s");
        assert_eq!(
            shown.sentence(""),
            "≠ They differ by +4.000 s: executed 36.00 s vs closed form 32.00 s."
        );
    }

    #[test]
    fn the_tolerance_is_relative_and_differing_times_print_differently() {
        // 5·10⁻⁵ of the larger value: 1 ms and 1.000049 ms agree (both show
        // the larger, 1.000 ms); 1 ms and 1.0001 ms (relative ≈ 10⁻⁴) differ
        // and are shown with 5 digits, 1.0000 ms vs 1.0001 ms.
        let near = ShownTimes::new(1.000_049e-3, 1e-3);
        assert_eq!(near.agreement, TimeAgreement::ToShownDigits);
        assert_eq!(
            (near.executed.as_str(), near.closed_form.as_str()),
            ("1.000 ms", "1.000 ms")
        );
        let apart = ShownTimes::new(1.0001e-3, 1e-3);
        assert_eq!(apart.agreement, TimeAgreement::Differ);
        assert_eq!(
            (apart.executed.as_str(), apart.closed_form.as_str()),
            ("1.0001 ms", "1.0000 ms")
        );
        assert_eq!(apart.cell(), "differs by +100.0 ns");
        // The same relative gap at another magnitude gets the same verdict.
        assert_eq!(
            ShownTimes::new(1.000_049e3, 1e3).agreement,
            TimeAgreement::ToShownDigits
        );
        assert_eq!(
            ShownTimes::new(1.0001e3, 1e3).agreement,
            TimeAgreement::Differ
        );
        assert_eq!(ShownTimes::new(0.0, 0.0).cell(), "✓");
    }

    #[test]
    fn rounds_on_equals_the_generated_round_count() {
        let mut shapes: Vec<Topology> = (2..=64).map(flat).collect();
        for (nodes, gpus) in [
            (2, 2),
            (2, 4),
            (4, 2),
            (3, 4),
            (4, 8),
            (8, 8),
            (2, 32),
            (5, 3),
        ] {
            shapes.push(nodes_of(nodes, gpus).expect("shape"));
        }
        let mut bad = Vec::new();
        let mut checked = 0;
        for topo in &shapes {
            for alg in Algorithm::all() {
                for n in [1000, 7] {
                    let Ok(s) = alg.generate_on(topo, n, 4) else {
                        continue;
                    };
                    checked += 1;
                    if alg.rounds_on(topo) != s.num_rounds() {
                        bad.push(format!(
                            "{} p={} nodes={} n={n}: {} vs {}",
                            alg.key(),
                            topo.p(),
                            topo.nodes(),
                            alg.rounds_on(topo),
                            s.num_rounds()
                        ));
                    }
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
        assert!(checked > 1500, "{checked}");
        // by hand: ring 2(p − 1) = 126 at p = 64; Rabenseifner 2·log₂ 32 + 2
        // (fold) = 12 at p = 48
        assert_eq!(Algorithm::RING.rounds_on(&flat(64)), 126);
        assert_eq!(Algorithm::RAB.rounds_on(&flat(48)), 12);
    }

    #[test]
    fn keys_round_trip() {
        let keys: Vec<_> = Algorithm::all().map(|a| a.key()).collect();
        assert_eq!(
            keys,
            [
                "ring",
                "tree",
                "ptree",
                "dbtree",
                "rd",
                "rh",
                "rab",
                "naive",
                "rs",
                "ag",
                "hier",
                "hier_rd",
                "multilane",
                "rat",
                "flex"
            ]
        );
        for a in Algorithm::all() {
            assert_eq!(Algorithm::from_key(a.key()), Some(a));
        }
        assert_eq!(Algorithm::from_key(" RAB "), Some(Algorithm::named("rab")));
        assert_eq!(Algorithm::from_key("bogus"), None);
        let compared: Vec<_> = Algorithm::compared().iter().map(|a| a.key()).collect();
        assert_eq!(
            compared,
            ["ring", "tree", "ptree", "dbtree", "rd", "rab", "naive"]
        );
    }

    #[test]
    fn titles_name_the_method_and_partner() {
        let rab = Algorithm::named("rab");
        let s = generate(rab, 8, 64, 4).expect("valid");
        assert_eq!(
            round_title(rab, &s, 1),
            "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2"
        );
        assert_eq!(
            round_title(rab, &s, 3),
            "all-gather by recursive doubling, round 1 of 3: partner = rank XOR 1"
        );
        assert_eq!(round_title(rab, &s, 6), "");
        let rd = Algorithm::named("rd");
        let s = generate(rd, 6, 64, 4).expect("valid");
        assert!(round_title(rd, &s, 0).starts_with("fold-in"));
        assert!(round_title(rd, &s, 3).starts_with("unfold"));
    }

    #[test]
    fn every_algorithm_rejects_one_rank() {
        for a in Algorithm::all() {
            assert_eq!(generate(a, 1, 8, 4), Err(ScheduleError::TooFewRanks(1)));
        }
    }

    #[test]
    fn fast_factors_match_the_written_out_formula() {
        for a in Algorithm::all() {
            for p in 2..=33 {
                let f = a.cost(p, 1e6, CostParams::new(1.0, 1.0).with_gamma(1.0));
                assert_eq!(
                    a.factors(p),
                    [f.startups, f.byte_factor, f.gamma_factor],
                    "{a} p={p}"
                );
            }
        }
    }

    #[test]
    fn every_entry_verifies_and_matches_its_closed_form() {
        // 27,720 = lcm(1..=12): every chunk count of p ≤ 12 divides it, so
        // every executed time equals its closed form exactly, on the flat
        // topology and on nodes of 2 ranks.
        let c = CostParams::new(2e-6, 0.1e-9);
        for a in Algorithm::all() {
            for p in 2..=12 {
                let mut topos = vec![flat(p)];
                if p % 2 == 0 {
                    topos.push(nodes_of(p / 2, 2).expect("valid"));
                }
                for topo in &topos {
                    let row = summarize_on(a, topo, 27_720, 4, c).expect("valid");
                    assert!(row.verified, "{a} p={p}");
                    assert!(row.agrees(), "{a} p={p}: {:?}", row.difference);
                    assert_eq!(expected_difference_on(a, topo, 27_720), None);
                }
            }
        }
    }

    #[test]
    fn busbw_factor_follows_the_collective() {
        // nccl-tests PERFORMANCE.md at p = 8: all-reduce 2·7/8 = 1.75,
        // reduce-scatter and all-gather 7/8 = 0.875.
        assert_eq!(Algorithm::named("ring").busbw_factor(8), 1.75);
        assert_eq!(Algorithm::named("hier").busbw_factor(8), 1.75);
        assert_eq!(Algorithm::named("rs").busbw_factor(8), 0.875);
        assert_eq!(Algorithm::named("rh").busbw_factor(8), 0.875);
        assert_eq!(Algorithm::named("ag").busbw_factor(8), 0.875);
    }
}
