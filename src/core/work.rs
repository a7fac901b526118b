//! Cheap estimates of how much work a view's computation is, so the page can
//! paint its shell, its controls and a placeholder first and run the work
//! after that paint when it is large ([`Work::defer`]).
//!
//! A [`Work`] is an estimate in *nanoseconds of the shipped WebAssembly*
//! (`opt-level = "z"`, headless Chromium on a 2-core machine): a closed form
//! of the parameters that counts the computation's inner-loop steps (one
//! transfer applied to one contributor-set word, one multiply-add of a
//! training step, one entry of a dense eigen-decomposition) times a weight
//! per step measured with `tests/bench_browser.rs` (`view_work`). No schedule
//! is generated to count it. The estimates are monotone in every size and
//! deliberately rough: all they must do is tell work that fits in a couple
//! of frames from work that does not. [`DEFER_ABOVE`] is the line.

use std::fmt;

use super::consensus::DENSE_LIST_MAX_P;

/// An estimated cost in nanoseconds (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Work(pub u64);

/// Work estimated above 30 ms runs after the first paint, behind a
/// "Computing …" placeholder; work at or below it runs before the first
/// paint, as it always did.
///
/// Below the line a placeholder would flash for a frame or two and cost an
/// extra render; the margin to the ~50 ms at which a page feels stuck
/// covers the roughness of the estimates.
pub const DEFER_ABOVE: Work = Work(30_000_000);

impl Work {
    /// True when the work should run after the first paint.
    pub fn defer(self) -> bool {
        self > DEFER_ABOVE
    }
}

impl fmt::Display for Work {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "≈ {} ns", self.0)
    }
}

/// `a · b` saturating at `u64::MAX` (estimates never overflow).
fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}

/// Contributor-set words per segment for `p` ranks: a set of ranks is a
/// bitset of ⌈p / 64⌉ words ([`crate::core::execute::RankSet`]).
fn set_words(p: u64) -> u64 {
    p.div_ceil(64).max(1)
}

/// Nanoseconds per transfer of the ring view's run (measured in the release
/// wasm with `bash scripts/bench-browser.sh view_work`: p = 512 in 4.7 ms,
/// p = 1024 in 14.8 ms, about 7 ns a transfer once the browser has
/// optimised the counting loop; 10 ns leaves room for the first run, which
/// starts in baseline-compiled code). Above 64 ranks the view counts bytes
/// from the rounds without executing values
/// (`core::execute::count_streamed`); up to 64 it executes values and
/// keeps every state (p = 64: 8 ms, well under [`DEFER_ABOVE`] however it
/// is counted).
const RING_NS: u64 = 10;

/// The ring all-reduce on `p` ranks: 2(p − 1) rounds of p transfers
/// (Thakur, Rabenseifner & Gropp 2005), at 10 ns each.
/// E.g. p = 512: 523,264 transfers × 10 ns ≈ 5.2 ms;
/// p = 1024: 2,095,104 × 10 ns ≈ 21 ms. Neither is deferred: the ring's
/// largest p ([`crate::params::ring::MAX_P`]) paints with its numbers.
pub fn ring_all_reduce(p: u64) -> Work {
    Work(mul(ring_transfers(p), RING_NS))
}

/// Transfers of the ring all-reduce on `p` ranks: 2(p − 1) rounds of p.
fn ring_transfers(p: u64) -> u64 {
    mul(mul(2, p.saturating_sub(1)), p)
}

/// Nanoseconds per transfer of the ring's run on real values above the
/// drawn size (`core::execute::execute_streamed`: every transfer reads and
/// writes a segment of p × p values that no cache holds, and the buffers,
/// their copy and the sums are written first). Measured in the release wasm
/// when the last step first shows the check: p = 1024 in 150–200 ms, about
/// 80 ns a transfer.
const RING_VALUES_NS: u64 = 80;

/// The ring all-reduce on `p` ranks executed on real values (the numbers-
/// only run's check, sum and mean, [`ring_all_reduce`]'s transfers at
/// 80 ns each). E.g. p = 256: 130,560 transfers ≈ 10.4 ms, at once;
/// p = 1024: 2,095,104 ≈ 168 ms, after a paint behind a note.
pub fn ring_values(p: u64) -> Work {
    Work(mul(ring_transfers(p), RING_VALUES_NS))
}

/// Nanoseconds per transfer of the ring view's clock panel above the
/// drawn size: the dataflow and the lock-step clock of every transfer,
/// without an event list (`core::timing::ring_clock`). Measured in the
/// release wasm at p = 1024 (2 095 104 transfers per mode).
const RING_CLOCK_NS: u64 = 400;

/// The ring all-reduce on `p` ranks on both clocks
/// ([`crate::core::timing::ring_clock::ring_clock`]), [`ring_all_reduce`]'s
/// transfers at 400 ns each. E.g. p = 65: 8 320 transfers ≈ 3.3 ms, at
/// once; p = 1024: 2 095 104 ≈ 838 ms, after a paint behind a note.
pub fn ring_clock(p: u64) -> Work {
    Work(mul(ring_transfers(p), RING_CLOCK_NS))
}

/// Nanoseconds per kept state word of a topology run (measured: the flat
/// ring on 16 × 16 ranks, with its per-round states, in 4.1 s).
const TOPOLOGY_NS: u64 = 30;

/// The topology view on `p` ranks: the chosen algorithm executed keeping
/// the state after every round (up to 2(p − 1) rounds, the flat ring's, of
/// p ranks × p segments × ⌈p / 64⌉ words), then the comparison table and
/// the sweeps, which run every algorithm again. The flat ring bounds them:
/// 2p · p · p · ⌈p / 64⌉ words at 30 ns.
/// E.g. p = 64 (8 nodes × 8): 524,288 × 30 ns ≈ 15.7 ms (not deferred);
/// p = 256: 134,217,728 × 30 ns ≈ 4.0 s.
pub fn topology_run(p: u64) -> Work {
    let words = mul(mul(mul(mul(2, p), p), p), set_words(p));
    Work(mul(words, TOPOLOGY_NS))
}

/// Nanoseconds per p³ entry of a dense eigen-decomposition (measured in the
/// release wasm: a random graph at p = 256 with its whole spectrum and the
/// rounds to the horizon in 14.0 ms).
const DENSE_NS: u64 = 1;

/// Nanoseconds per p² entry of the gossip view above [`DENSE_LIST_MAX_P`],
/// where ρ alone comes from Lanczos (measured in the release wasm: a random
/// graph at p = 1024 in 16.9 ms, the ring in 12.4 ms).
const SPARSE_NS: u64 = 16;

/// The gossip view on `p` nodes: the mixing matrix, its spectrum and the
/// rounds to the horizon. Up to [`DENSE_LIST_MAX_P`] the whole spectrum is
/// listed: a dense symmetric eigen-decomposition, about p³ multiply-adds
/// (Golub & Van Loan, tridiagonal reduction and QR) at 1 ns. Above it ρ
/// alone: p² at 16 ns.
/// E.g. p = 256: ≈ 16.8 ms; p = 1024: ≈ 16.8 ms. No gossip view the
/// parameters allow (p ≤ 1024) is deferred since the structured and
/// Lanczos spectra (`core::consensus`) made them fast.
pub fn gossip_view(p: u64) -> Work {
    if p <= DENSE_LIST_MAX_P as u64 {
        Work(mul(mul(mul(p, p), p), DENSE_NS))
    } else {
        Work(mul(mul(p, p), SPARSE_NS))
    }
}

/// Shape of a distributed SGD run (the sgd view): `workers` shards,
/// dimension `d`, `steps` steps, local mini-batches of `batch` samples
/// (0 = the whole shard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgdShape {
    /// Workers m (one shard each).
    pub workers: u64,
    /// Model dimension d.
    pub d: u64,
    /// Training steps T.
    pub steps: u64,
    /// Local mini-batch size b (0: the whole shard's precomputed gradient).
    pub batch: u64,
}

/// Nanoseconds per step and worker of what the sgd view builds from a run
/// besides the arithmetic: the step record, its points in the four step
/// charts and the rows of their data tables (measured: the whole page of
/// 1,000 steps is ready about 150 ms later with 3 workers, 400 ms with 12
/// and 850 ms with 32 than the default 200 steps of 3 workers).
const SGD_POINT_NS: u64 = 25_000;

/// The sgd view's run and what is drawn from it: T steps × m workers, each
/// with 25 µs of records, chart points and table rows, plus, for each of the
/// three strategies, a gradient (b · d, or d² for the whole shard), its loss
/// (d²) and the mixing with its neighbours (m · d) at 1 ns each.
/// E.g. the defaults (m = 3, d = 2, T = 200, b = 16):
/// 200 × 3 × (25,000 + 3 × (32 + 4 + 6)) = 15,075,600 ns (not deferred).
pub fn sgd_run(s: SgdShape) -> Work {
    let d = s.d.max(1);
    let grad = if s.batch == 0 {
        mul(d, d)
    } else {
        mul(s.batch, d)
    };
    let arithmetic = mul(3, grad + mul(d, d) + mul(s.workers, d));
    let per_worker = SGD_POINT_NS.saturating_add(arithmetic);
    Work(mul(mul(s.steps, s.workers), per_worker))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_counts_two_p_minus_one_rounds_of_p_transfers() {
        // p = 4: 2 · 3 · 4 = 24 transfers × 10 ns.
        assert_eq!(ring_all_reduce(4), Work(240));
        // p = 64: 8,064 transfers × 10.
        assert_eq!(ring_all_reduce(64), Work(80_640));
        // p = 1024: 2,095,104 transfers × 10.
        assert_eq!(ring_all_reduce(1024), Work(20_951_040));
    }

    #[test]
    fn the_ring_is_never_deferred() {
        // the largest p the ring view accepts: 20,951,040 ≤ 30,000,000
        assert_eq!(crate::params::ring::MAX_P, 1024);
        assert!(!ring_all_reduce(1024).defer());
        // the line would fall at p = 1226: 2 · 1224 · 1225 × 10 = 29,988,000
        assert!(!ring_all_reduce(1225).defer());
        // 2 · 1225 · 1226 × 10 = 30,037,000
        assert!(ring_all_reduce(1226).defer());
    }

    #[test]
    fn the_ring_values_wait_for_a_paint_from_p_434() {
        // p = 256: 2 · 255 · 256 = 130,560 transfers × 80 ns
        assert_eq!(ring_values(256), Work(10_444_800));
        assert!(!ring_values(256).defer());
        // p = 1024: 2,095,104 × 80
        assert_eq!(ring_values(1024), Work(167_608_320));
        // 2 · 432 · 433 × 80 = 29,928,960; 2 · 433 · 434 × 80 = 30,067,520
        assert!(!ring_values(433).defer());
        assert!(ring_values(434).defer());
    }

    #[test]
    fn topology_grows_as_p_cubed() {
        // 2 · 4³ · 1 word × 30 ns
        assert_eq!(topology_run(4), Work(3_840));
        assert_eq!(topology_run(64), Work(15_728_640));
        // 2 · 256³ · 4 words × 30 ns
        assert_eq!(topology_run(256), Work(4_026_531_840));
        assert!(!topology_run(64).defer());
        // 2 · 65³ · 2 × 30 = 32,955,000
        assert!(topology_run(65).defer());
        // 16 nodes × 8: 2 · 128³ · 2 × 30 = 251,658,240
        assert!(topology_run(128).defer());
    }

    #[test]
    fn gossip_lists_the_spectrum_up_to_256_and_uses_rho_alone_above() {
        // 64³ × 1 ns
        assert_eq!(gossip_view(64), Work(262_144));
        // 256³ = 16,777,216
        assert_eq!(gossip_view(256), Work(16_777_216));
        // above the dense list: 16 · 257² = 1,056,784, cheaper than p = 256
        assert_eq!(gossip_view(257), Work(1_056_784));
        // 16 · 1024² = 16,777,216: no allowed size is deferred
        assert_eq!(gossip_view(1024), Work(16_777_216));
        assert!((2..=1024).all(|p| !gossip_view(p).defer()));
        // beyond what the view allows it would be
        assert!(gossip_view(1370).defer());
    }

    #[test]
    fn sgd_defaults_are_light_and_a_thousand_steps_are_heavy() {
        let defaults = SgdShape {
            workers: 3,
            d: 2,
            steps: 200,
            batch: 16,
        };
        assert_eq!(sgd_run(defaults), Work(15_075_600));
        assert!(!sgd_run(defaults).defer());
        // 300 steps: 22,613,400 (not deferred); 400 steps: 30,151,200.
        assert!(!sgd_run(SgdShape {
            steps: 300,
            ..defaults
        })
        .defer());
        assert!(sgd_run(SgdShape {
            steps: 400,
            ..defaults
        })
        .defer());
        // 12 workers, 1,000 steps: 12,000 × (25,000 + 3 × (32 + 4 + 24))
        let twelve = SgdShape {
            workers: 12,
            steps: 1_000,
            ..defaults
        };
        assert_eq!(sgd_run(twelve), Work(302_160_000));
        assert!(sgd_run(twelve).defer());
        // 32 workers, d = 10, 1,000 steps, b = 16:
        // 32,000 × (25,000 + 3 × (160 + 100 + 320)) = 855,680,000
        let largest = SgdShape {
            workers: 32,
            d: 10,
            steps: 1_000,
            batch: 16,
        };
        assert_eq!(sgd_run(largest), Work(855_680_000));
    }

    #[test]
    fn whole_shard_gradients_cost_d_squared() {
        let s = SgdShape {
            workers: 2,
            d: 3,
            steps: 1,
            batch: 0,
        };
        // 2 × (25,000 + 3 × (9 + 9 + 6))
        assert_eq!(sgd_run(s), Work(50_144));
    }

    #[test]
    fn estimates_saturate_instead_of_overflowing() {
        assert_eq!(topology_run(u64::MAX), Work(u64::MAX));
        assert_eq!(ring_all_reduce(u64::MAX), Work(u64::MAX));
        assert!(Work(u64::MAX).defer());
    }

    #[test]
    fn the_line_itself_is_not_deferred() {
        assert!(!DEFER_ABOVE.defer());
        assert!(Work(DEFER_ABOVE.0 + 1).defer());
        assert_eq!(Work(7).to_string(), "≈ 7 ns");
    }
}
