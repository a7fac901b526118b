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
//! Everything else holds the one handle, [`Algorithm`] (`handle.rs`): the
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
use crate::core::cost::protocol::Rounds;
use crate::core::cost::CostParams;
use crate::core::schedule::{Phase, Schedule, ScheduleError};
use crate::core::topology::Topology;

pub mod compare;
mod entry;
pub mod flat_topo;
mod handle;
pub mod narrate;
/// Building blocks of the topology-aware collectives (rings inside groups of ranks).
pub mod pieces;
pub mod pipelining;
mod shapes;
mod summary;

use pieces::Split;
use shapes::flat_p;

pub use entry::{
    factors_of, not_on_topology, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo,
};
pub use handle::Algorithm;
pub use shapes::{closed_form, flat, generate, nodes_of, round_title, round_title_of};
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
}

#[cfg(test)]
mod tests;
