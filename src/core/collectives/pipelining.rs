//! Pipelining: the dataflow time of one case against the number of
//! segments k = 1, 2, 4, … 256, the best k, and the comparison of the
//! basic tree's closed form with the pipelined tree, the double tree and
//! the ring, each at its own best k. Every time is a dataflow clock
//! ([`crate::core::timing::clock::run`] with `keep_events` off) or a registry closed form.

use super::Algorithm;
use crate::core::cost::CostParams;
use crate::core::timing::clock::{run, ClockOptions, Faults, Mode};
use crate::core::topology::Topology;

/// The segment counts swept.
pub const KS: [usize; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// Most message pieces one point of the sweep simulates; larger k are
/// skipped (and said so) to keep the page responsive.
pub const SWEEP_PIECES: u64 = 100_000;

/// One point of the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Segments.
    pub k: usize,
    /// Dataflow time, seconds; `None` when skipped (too many pieces) or
    /// when the run does not complete.
    pub time: Option<f64>,
}

/// The sweep of one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The algorithm.
    pub alg: Algorithm,
    /// One point per k of [`KS`].
    pub points: Vec<Point>,
    /// `(k, time)` with the smallest time (the smallest k within 1e-9 of it).
    pub best: Option<(usize, f64)>,
}

/// The case swept: where, how big, γ and the faults.
#[derive(Clone, Debug, PartialEq)]
pub struct Case<'a> {
    /// The topology.
    pub topo: &'a Topology,
    /// Elements.
    pub n: u64,
    /// Bytes per element.
    pub elem_bytes: u64,
    /// γ, seconds per byte.
    pub gamma: f64,
    /// Late, slow and failed ranks.
    pub faults: &'a Faults,
}

/// Message pieces of `alg` at `k` segments, without running the clock:
/// `None` when the schedule cannot be built.
pub fn pieces(alg: Algorithm, case: &Case<'_>, k: usize) -> Option<u64> {
    let s = alg.generate_on(case.topo, case.n, case.elem_bytes).ok()?;
    let m: usize = s.rounds.iter().map(|r| r.transfers.len()).sum();
    Some(m as u64 * k as u64)
}

/// The dataflow time of `alg` against k (see the module doc).
pub fn sweep(alg: Algorithm, case: &Case<'_>) -> Sweep {
    let schedule = alg.generate_on(case.topo, case.n, case.elem_bytes).ok();
    let messages = schedule.as_ref().map_or(0, |s| {
        s.rounds.iter().map(|r| r.transfers.len() as u64).sum()
    });
    let points: Vec<Point> = KS
        .iter()
        .map(|&k| {
            let time = schedule.as_ref().and_then(|s| {
                if messages * k as u64 > SWEEP_PIECES {
                    return None;
                }
                let opts = ClockOptions {
                    segments: k,
                    gamma: case.gamma,
                    faults: case.faults.clone(),
                    keep_events: false,
                    ..ClockOptions::new(Mode::Dataflow)
                };
                run(s, case.topo, &opts)
                    .ok()
                    .filter(|c| c.completes())
                    .map(|c| c.end)
            });
            Point { k, time }
        })
        .collect();
    // The smallest k within rounding (1e-9) of the fastest time.
    let fastest = points.iter().filter_map(|p| p.time).min_by(f64::total_cmp);
    let best = fastest.and_then(|m| {
        points
            .iter()
            .filter_map(|p| p.time.map(|t| (p.k, t)))
            .find(|&(_, t)| t <= m * (1.0 + 1e-9))
    });
    Sweep { alg, points, best }
}

/// The basic tree's closed form and the pipelined tree, double tree and
/// ring at their best k.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The registry `tree` closed form, 2⌈log₂p⌉(α + nβ) on the flat link, seconds.
    pub tree_formula: f64,
    /// The sweeps of `ptree`, `dbtree` and `ring`, those in the registry.
    pub sweeps: Vec<Sweep>,
    /// Keys asked for but not in this build's registry.
    pub missing: Vec<&'static str>,
}

/// The keys compared with the basic tree.
pub const COMPARED: [&str; 3] = ["ptree", "dbtree", "ring"];

/// See [`Comparison`]; `c` holds the α, β and γ of the flat closed form.
pub fn compare(case: &Case<'_>, c: CostParams) -> Comparison {
    let bytes = (case.n * case.elem_bytes) as f64;
    let tree_formula = Algorithm::TREE.closed_form_on(case.topo, bytes, c).time;
    let mut sweeps = Vec::new();
    let mut missing = Vec::new();
    for key in COMPARED {
        match Algorithm::all().find(|a| a.key() == key) {
            Some(a) => sweeps.push(sweep(a, case)),
            None => missing.push(key),
        }
    }
    Comparison {
        tree_formula,
        sweeps,
        missing,
    }
}

/// The estimated work of [`sweep`] of `messages` messages, and of the
/// [`compare`] sweeps too (`with_compare`): about 5 µs per piece
/// simulated in the shipped wasm (ring at p = 64 in headless Chromium).
pub fn work(messages: u64, with_compare: bool) -> crate::core::work::Work {
    let pieces: u64 = KS
        .iter()
        .map(|&k| messages * k as u64)
        .filter(|&n| n <= SWEEP_PIECES)
        .sum();
    let runs = if with_compare { 3 } else { 1 };
    crate::core::work::Work(pieces.saturating_mul(5000 * runs))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_two_rank_tree_pipelines_as_k_plus_1_pieces() {
        // p = 2: the tree is 1 → 0 (reduce) then 0 → 1 (broadcast), on
        // different ports. With k pieces of T/k each (T = 100 MB / 12.5 GB/s
        // = 8 ms) and α per piece, piece j of the broadcast follows piece j
        // of the reduce: (k + 1)(α + T/k). α = 100 µs: k = 1 → 16.2 ms,
        // k = 2 → 12.3 ms, k = 4 → 10.5 ms, k = 8 → 9.9 ms (best),
        // k = 16 → 10.2 ms.
        let topo = Topology::flat(2, 100e-6, 1.0 / 12.5e9);
        let faults = Faults::default();
        let case = Case {
            topo: &topo,
            n: 25_000_000,
            elem_bytes: 4,
            gamma: 0.0,
            faults: &faults,
        };
        let s = sweep(Algorithm::TREE, &case);
        let want = |k: f64| (k + 1.0) * (100e-6 + 8e-3 / k);
        for p in &s.points {
            let t = p.time.expect("runs");
            assert!((t - want(p.k as f64)).abs() < 1e-9, "k = {}: {t}", p.k);
        }
        assert_eq!(s.best.map(|b| b.0), Some(8));
        assert!((s.best.expect("best").1 - 9.9e-3).abs() < 1e-9);
    }

    #[test]
    fn the_ring_at_alpha_zero_gains_nothing_and_the_tree_formula_is_the_registrys() {
        // p = 4, 100 MB, 12.5 GB/s, α = 0: every port carries 150 MB busy
        // all the time: 12 ms at every k. The basic tree: 2⌈log₂4⌉ × 8 ms = 32 ms.
        let topo = Topology::flat(4, 0.0, 1.0 / 12.5e9);
        let faults = Faults::default();
        let case = Case {
            topo: &topo,
            n: 25_000_000,
            elem_bytes: 4,
            gamma: 0.0,
            faults: &faults,
        };
        let c = compare(&case, CostParams::new(0.0, 1.0 / 12.5e9));
        assert!((c.tree_formula - 32e-3).abs() < 1e-12);
        let ring = c
            .sweeps
            .iter()
            .find(|s| s.alg == Algorithm::RING)
            .expect("ring");
        for p in &ring.points {
            assert!((p.time.expect("runs") - 12e-3).abs() < 1e-9, "{p:?}");
        }
        assert_eq!(ring.best.map(|b| b.0), Some(1));
    }

    #[test]
    fn the_ring_never_beats_its_port_load_at_any_k() {
        let topo = Topology::flat(4, 0.0, 1.0 / 12.5e9);
        let faults = Faults::default();
        let case = Case {
            topo: &topo,
            n: 25_000_000,
            elem_bytes: 4,
            gamma: 0.0,
            faults: &faults,
        };
        for p in &sweep(Algorithm::RING, &case).points {
            assert!(p.time.expect("runs") >= 12e-3 - 1e-9, "{p:?}");
        }
    }

    #[test]
    fn too_many_pieces_are_skipped_and_a_stall_has_no_time() {
        let topo = Topology::flat(64, 0.0, 1e-9);
        let faults = Faults::default();
        let case = Case {
            topo: &topo,
            n: 64_000,
            elem_bytes: 4,
            gamma: 0.0,
            faults: &faults,
        };
        // 8064 ring messages: k = 16 is 129 024 pieces, over the limit.
        let s = sweep(Algorithm::RING, &case);
        assert!(s.points[3].time.is_some());
        assert!(s.points[4].time.is_none());
        assert_eq!(pieces(Algorithm::RING, &case, 2), Some(16_128));
        let fail = Faults {
            fail: vec![(1, 0.0)],
            ..Faults::default()
        };
        let topo = Topology::flat(4, 0.0, 1e-9);
        let case = Case {
            topo: &topo,
            n: 400,
            elem_bytes: 4,
            gamma: 0.0,
            faults: &fail,
        };
        assert!(sweep(Algorithm::RING, &case).best.is_none());
    }
}
