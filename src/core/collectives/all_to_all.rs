//! All-to-all (`pairwise`, `bruck`, `linear`): every rank sends a distinct
//! block to every other rank.
//!
//! # The rule
//! The tensor of `n` elements is the p × p block matrix of
//! [`crate::core::schedule::block_range`]: block (o, d) is what rank o
//! sends to rank d, `m = n/p²` bytes when the blocks are equal. Rank r
//! starts with its row and must end with its column (the transpose). A
//! block keeps its place in the matrix wherever it travels, so a transfer
//! copies the same range from sender to receiver; the local rotations of
//! Bruck's algorithm are a memory layout, not a message, and appear in the
//! round notes only. Each rank sends `n/p` bytes of its own (nccl-tests'
//! `alltoall_perf` size), of which `(p−1)/p` leave it.
//!
//! # The three schedules and their closed forms
//! Thakur, Rabenseifner & Gropp 2005, §3 (MPICH's all-to-all), with the
//! lock-step clock's port rule (a rank's messages in one round share its
//! port, each paying α once at the same time):
//! - **pairwise exchange**: `p − 1` rounds; in round k rank r sends block
//!   (r, r + k) to r + k and receives from r − k (mod p), or exchanges
//!   with r XOR k when p is a power of two (MPICH's variant).
//!   `T = (p−1)α + (p−1)/p²·nβ`.
//! - **Bruck**: `⌈log₂p⌉` rounds; in round k every block whose distance
//!   `(d − o) mod p` has bit k set moves `2ᵏ` ranks on, to the rank it has
//!   reached plus `2ᵏ`. Round k moves `bₖ` blocks per rank, the number of
//!   distances `1 … p−1` with bit k set, so
//!   `T = ⌈log₂p⌉α + Σₖ bₖ/p²·nβ`, which is `log₂p·α + log₂p/(2p)·nβ` at a
//!   power of two (every round carries half of the rank's row).
//! - **linear** (every send posted at once, as NCCL's all-to-all and Open
//!   MPI's `coll_tuned_alltoall_algorithm 1` do): one round in which each
//!   rank's p − 1 blocks share its port: `T = α + (p−1)/p²·nβ`.
//!
//! Each block is its own transfer. A real Bruck packs a round's blocks
//! for one destination into one message; here they leave together, pay α
//! once at the same time and share the port, which gives the same α–β
//! time, but MPI's eager/rendezvous rule sees blocks, not the packed
//! message ([`CollectiveAlgorithm::flat_rounds`]).
//!
//! Bruck pays fewer start-ups and more bytes (each block may travel
//! several hops), so it wins small messages and loses large ones: at
//! p = 16 it breaks even with pairwise where 11α = 17/256·nβ.

use super::pieces::Split;
use super::{not_on_topology, CollectiveAlgorithm, Descriptor, Layout, RoundFacts, TopologyInfo};
use crate::core::cost::formulas::{ceil_log2, Coeff, Formula, Terms};
use crate::core::cost::nccl::CollectiveKind;
use crate::core::cost::protocol::Rounds;
use crate::core::cost::CostParams;
use crate::core::schedule::{
    block_range, check_args, Computation, Op, Phase, Round, Schedule, ScheduleError, Transfer,
};
use crate::core::topology::Topology;

/// The copy of block (`origin`, `dest`) from `src` to `dst`.
fn block(n: u64, p: usize, origin: usize, dest: usize, src: usize, dst: usize) -> Transfer {
    Transfer {
        src,
        dst,
        range: block_range(n, p, origin, dest),
        op: Op::Copy,
        chunk: None,
    }
}

fn schedule(p: usize, n: u64, elem_bytes: u64, rounds: Vec<Round>) -> Schedule {
    Schedule {
        p,
        n,
        elem_bytes,
        collective: Computation::AllToAll,
        rounds,
    }
}

/// Pairwise-exchange all-to-all: `p − 1` rounds of one block per rank.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn pairwise_schedule(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let xor = p.is_power_of_two();
    // "partner = rank XOR k", the recursive algorithms' own note
    let fold = crate::core::schedule::recursive::Fold::new(p);
    let rounds = (1..p)
        .map(|k| Round {
            phase: Phase::AllToAll,
            note: if xor {
                fold.partner_note(k)
            } else {
                format!("send to rank + {k}, receive from rank − {k}")
            },
            transfers: (0..p)
                .map(|r| {
                    let d = if xor { r ^ k } else { (r + k) % p };
                    block(n, p, r, d, r, d)
                })
                .collect(),
        })
        .collect();
    Ok(schedule(p, n, elem_bytes, rounds))
}

/// Bruck's all-to-all: `⌈log₂p⌉` rounds; round k moves every block whose
/// distance has bit k set `2ᵏ` ranks on.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn bruck_schedule(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let levels = ceil_log2(p) as usize;
    let rounds = (0..levels)
        .map(|k| {
            let (step, below) = (1usize << k, (1usize << k) - 1);
            let mut transfers = Vec::new();
            for src in 0..p {
                for i in (1..p).filter(|i| i & step != 0) {
                    // the block of distance i that has come i mod 2ᵏ ranks
                    let origin = (src + p - (i & below)) % p;
                    transfers.push(block(n, p, origin, (origin + i) % p, src, (src + step) % p));
                }
            }
            let note = format!("distance bit {step} → rank + {step}");
            Round {
                phase: Phase::AllToAll,
                note,
                transfers,
            }
        })
        .collect();
    Ok(schedule(p, n, elem_bytes, rounds))
}

/// Linear all-to-all: one round, every rank posts its `p − 1` sends at once.
///
/// # Errors
/// [`ScheduleError`] when `p < 2`, `n == 0` or `elem_bytes == 0`.
pub fn linear_schedule(p: usize, n: u64, elem_bytes: u64) -> Result<Schedule, ScheduleError> {
    check_args(p, n, elem_bytes)?;
    let transfers = (0..p)
        .flat_map(|r| (1..p).map(move |k| (r, (r + k) % p)))
        .map(|(r, d)| block(n, p, r, d, r, d))
        .collect();
    let round = Round {
        phase: Phase::AllToAll,
        note: "every send posted at once".into(),
        transfers,
    };
    Ok(schedule(p, n, elem_bytes, vec![round]))
}

/// `bₖ` for k = 0 … ⌈log₂p⌉ − 1: how many distances 1 … p − 1 have bit k
/// set (the blocks a rank sends in Bruck's round k).
pub fn bruck_blocks(p: usize) -> Vec<usize> {
    (0..ceil_log2(p))
        .map(|k| (1..p).filter(|i| i & (1 << k) != 0).count())
        .collect()
}

/// `[α, nβ]` multipliers of each all-to-all at `p ≥ 2` ranks: pairwise
/// `[p−1, (p−1)/p²]`, Bruck `[⌈log₂p⌉, Σₖbₖ/p²]`, linear `[1, (p−1)/p²]`
/// (all 0 below 2 ranks); the blocks on the critical path are the second
/// times p².
fn factors_at(which: Kind, p: usize) -> [f64; 2] {
    if p < 2 {
        return [0.0, 0.0];
    }
    let (startups, blocks) = match which {
        Kind::Pairwise => ((p - 1) as f64, p - 1),
        Kind::Bruck => (f64::from(ceil_log2(p)), bruck_blocks(p).iter().sum()),
        Kind::Linear => (1.0, p - 1),
    };
    [startups, blocks as f64 / (p * p) as f64]
}

/// Which all-to-all a closed form is for.
#[derive(Clone, Copy)]
enum Kind {
    Pairwise,
    Bruck,
    Linear,
}

/// The closed form of `which` at `p` ranks for an `n_bytes`-byte block
/// matrix, written out with the blocks on the critical path over p².
fn a2a_time(which: Kind, p: usize, n_bytes: f64, c: CostParams) -> Formula {
    let [a, b] = factors_at(which, p);
    let q = p.max(1);
    let (name, expression, startups) = match which {
        Kind::Pairwise => ("pairwise all-to-all", "(p−1)α + (p−1)/p²·nβ", Coeff::steps(q)),
        Kind::Bruck => ("Bruck all-to-all", "⌈log₂p⌉α + Σₖbₖ/p²·nβ", Coeff::levels(q)),
        Kind::Linear => ("linear all-to-all", "α + (p−1)/p²·nβ", Coeff::new(a, "1".into())),
    };
    // a whole number (integer text: f64's Display would link float printing)
    let blocks = (b * (q * q) as f64 + 0.5) as usize;
    let coeffs = [startups, Coeff::new(b, format!("{blocks}/{q}²")), Coeff::zero()];
    Terms::any_p(name, expression, coeffs).formula(p, n_bytes, c)
}

/// Pairwise-exchange all-to-all of an n-byte block matrix:
/// `(p−1)α + (p−1)/p²·nβ`, any p.
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (pairwise exchange).
pub fn pairwise_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    a2a_time(Kind::Pairwise, p, n_bytes, c)
}

/// Bruck's all-to-all of an n-byte block matrix: `⌈log₂p⌉α + Σₖ bₖ/p²·nβ`
/// ([`bruck_blocks`]), `log₂p·α + log₂p/(2p)·nβ` at a power of two.
///
/// Source: Bruck et al. 1997; Thakur, Rabenseifner & Gropp 2005, §3.
pub fn bruck_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    a2a_time(Kind::Bruck, p, n_bytes, c)
}

/// Linear all-to-all of an n-byte block matrix: `α + (p−1)/p²·nβ`, any p
/// (one start-up; the rank's port carries its p − 1 blocks).
///
/// Source: Thakur, Rabenseifner & Gropp 2005, §3 (the isend/irecv
/// algorithm), timed by the lock-step port rule.
pub fn linear_time(p: usize, n_bytes: f64, c: CostParams) -> Formula {
    a2a_time(Kind::Linear, p, n_bytes, c)
}

macro_rules! flat_entry {
    ($name:ident, $kind:expr, $key:literal, $label:literal, $short:literal, $method:literal,
     $gen:ident, $time:ident, $text:literal) => {
        impl CollectiveAlgorithm for $name {
            fn descriptor(&self) -> Descriptor {
                Descriptor {
                    key: $key,
                    label: $label,
                    short_label: $short,
                    collective: CollectiveKind::AllToAll,
                    layout: Layout::Flat,
                }
            }
            fn method(&self, _phase: Phase) -> &'static str {
                $method
            }
            fn generate(&self, topo: &Topology, n: u64, elem: u64) -> Result<Schedule, ScheduleError> {
                $gen(topo.p(), n, elem)
            }
            fn closed_form(&self, topo: &Topology, n_bytes: f64, c: CostParams) -> Formula {
                $time(topo.p(), n_bytes, c)
            }
            fn factors(&self, topo: &Topology) -> [f64; 3] {
                let [a, b] = factors_at($kind, topo.p());
                [a, b, 0.0]
            }
            fn flat_rounds(&self, p: usize) -> Rounds {
                self.rounds_of(p)
            }
            fn equal_parts(&self, topo: &Topology) -> usize {
                topo.p() * topo.p()
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
            fn describe(&self, _round: &RoundFacts<'_>) -> String {
                $text.into()
            }
        }
    };
}

/// Pairwise-exchange all-to-all.
pub struct Pairwise;
/// Bruck's all-to-all.
pub struct Bruck;
/// Linear all-to-all (every send at once).
pub struct Linear;

/// The rounds as the clock meets them: `rounds` rounds whose messages
/// are each one block, `1/p²` of n (none below 2 ranks). Linear and Bruck
/// put several such messages on a rank's port in one round, so their
/// `Σ count·share` is less than their byte factor.
fn block_rounds(p: usize, rounds: f64) -> Rounds {
    if p < 2 {
        return Vec::new();
    }
    vec![(rounds, 1.0 / (p * p) as f64)]
}

impl Pairwise {
    fn rounds_of(&self, p: usize) -> Rounds {
        block_rounds(p, factors_at(Kind::Pairwise, p)[0])
    }
}

impl Bruck {
    fn rounds_of(&self, p: usize) -> Rounds {
        block_rounds(p, factors_at(Kind::Bruck, p)[0])
    }
}

impl Linear {
    fn rounds_of(&self, p: usize) -> Rounds {
        block_rounds(p, factors_at(Kind::Linear, p)[0])
    }
}

flat_entry!(
    Pairwise,
    Kind::Pairwise,
    "pairwise",
    "pairwise all-to-all",
    "pairwise",
    "by pairwise exchange",
    pairwise_schedule,
    pairwise_time,
    "each rank sends its partner the block addressed to it"
);
flat_entry!(
    Bruck,
    Kind::Bruck,
    "bruck",
    "Bruck all-to-all",
    "Bruck",
    "by Bruck's algorithm",
    bruck_schedule,
    bruck_time,
    "each rank forwards every block whose remaining distance has this round's bit set"
);
flat_entry!(
    Linear,
    Kind::Linear,
    "linear",
    "linear all-to-all",
    "linear",
    "all at once",
    linear_schedule,
    linear_time,
    "every rank posts all its sends at once; they share its port"
);

#[cfg(test)]
mod tests;
