//! Pipelining: the dataflow time of one case against the number of
//! segments k = 1, 2, 4, … 256, the best k, and the comparison of the
//! basic tree's closed form with the pipelined tree, the double tree and
//! the ring, each at its own best k. Every time is a dataflow clock
//! ([`crate::core::timing::run`] with `keep_events` off) or a registry closed form.

use super::Algorithm;
use crate::core::cost::CostParams;
use crate::core::schedule::Schedule;
use crate::core::timing::clock::{ClockOptions, DataflowRun, Faults, Mode};
use crate::core::timing::start_dataflow;
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
    let mut job = SweepJob::new(case, &[alg]);
    job.advance(usize::MAX);
    job.sweeps().into_iter().next().unwrap_or(Sweep {
        alg,
        points: Vec::new(),
        best: None,
    })
}

/// One algorithm of a [`SweepJob`]: its schedule (none when it cannot be
/// built here), its message count and its times so far.
#[derive(Debug)]
struct Lane {
    alg: Algorithm,
    schedule: Option<Schedule>,
    messages: u64,
    /// One per k of [`KS`]; `None` until run, and for points skipped.
    times: Vec<Option<f64>>,
}

/// The sweeps of several algorithms as a job run a bounded number of clock
/// events at a time ([`SweepJob::advance`]), so that a page can spread it
/// over frames and stay responsive. Its [`SweepJob::sweeps`] are those of
/// [`sweep`], bit for bit, however the events were split.
#[derive(Debug)]
pub struct SweepJob {
    topo: Topology,
    gamma: f64,
    faults: Faults,
    lanes: Vec<Lane>,
    /// The next point to start: lane × [`KS`] index.
    next: usize,
    /// The point running and its clock.
    running: Option<(usize, DataflowRun)>,
    /// Pieces of the points finished or skipped, and of all points run.
    pieces_done: u64,
    pieces_total: u64,
}

impl SweepJob {
    /// The job for `algs` on `case` (the schedules are built now; no clock
    /// has run yet).
    pub fn new(case: &Case<'_>, algs: &[Algorithm]) -> Self {
        let lanes: Vec<Lane> = algs
            .iter()
            .map(|&alg| {
                let schedule = alg.generate_on(case.topo, case.n, case.elem_bytes).ok();
                let messages = schedule.as_ref().map_or(0, |s| {
                    s.rounds.iter().map(|r| r.transfers.len() as u64).sum()
                });
                Lane {
                    alg,
                    schedule,
                    messages,
                    times: vec![None; KS.len()],
                }
            })
            .collect();
        let pieces_total = lanes
            .iter()
            .filter(|l| l.schedule.is_some())
            .flat_map(|l| KS.iter().map(move |&k| l.messages * k as u64))
            .filter(|&n| n <= SWEEP_PIECES)
            .sum();
        SweepJob {
            topo: case.topo.clone(),
            gamma: case.gamma,
            faults: case.faults.clone(),
            lanes,
            next: 0,
            running: None,
            pieces_done: 0,
            pieces_total,
        }
    }

    /// Runs at most `events` clock events (a point that crosses the budget
    /// stops there and goes on at the next call); true once every point is
    /// done. Building a point's clock is not counted.
    pub fn advance(&mut self, events: usize) -> bool {
        let mut left = events;
        loop {
            if let Some((at, run)) = &mut self.running {
                left -= run.advance(left);
                if !run.is_done() {
                    return false;
                }
                let at = *at;
                if let Some((_, run)) = self.running.take() {
                    let clock = run.finish();
                    let lane = &mut self.lanes[at / KS.len()];
                    lane.times[at % KS.len()] = clock.completes().then_some(clock.end);
                    self.pieces_done += lane.messages * KS[at % KS.len()] as u64;
                }
                if left == 0 {
                    return self.is_done();
                }
            }
            if self.next >= self.lanes.len() * KS.len() {
                return true;
            }
            let at = self.next;
            self.next += 1;
            let lane = &self.lanes[at / KS.len()];
            let k = KS[at % KS.len()];
            let Some(s) = lane.schedule.as_ref() else {
                continue;
            };
            if lane.messages * k as u64 > SWEEP_PIECES {
                continue;
            }
            let opts = ClockOptions {
                segments: k,
                gamma: self.gamma,
                faults: self.faults.clone(),
                keep_events: false,
                ..ClockOptions::new(Mode::Dataflow)
            };
            match start_dataflow(s, &self.topo, &opts) {
                Ok(run) => self.running = Some((at, run)),
                Err(_) => self.pieces_done += lane.messages * k as u64,
            }
        }
    }

    /// True once every point is done.
    pub fn is_done(&self) -> bool {
        self.running.is_none() && self.next >= self.lanes.len() * KS.len()
    }

    /// `(pieces done, pieces in all)` of the points that run: a progress
    /// measure (a piece is one segment of one message).
    pub fn progress(&self) -> (u64, u64) {
        (self.pieces_done, self.pieces_total)
    }

    /// The algorithm and k of the point running, if any.
    pub fn current(&self) -> Option<(Algorithm, usize)> {
        self.running
            .as_ref()
            .map(|(at, _)| (self.lanes[at / KS.len()].alg, KS[at % KS.len()]))
    }

    /// One [`Sweep`] per algorithm, in the order given; points not run yet
    /// have no time.
    pub fn sweeps(&self) -> Vec<Sweep> {
        self.lanes
            .iter()
            .map(|l| {
                let points: Vec<Point> = KS
                    .iter()
                    .zip(&l.times)
                    .map(|(&k, &time)| Point { k, time })
                    .collect();
                // The smallest k within rounding (1e-9) of the fastest time.
                let fastest = points.iter().filter_map(|p| p.time).min_by(f64::total_cmp);
                let best = fastest.and_then(|m| {
                    points
                        .iter()
                        .filter_map(|p| p.time.map(|t| (p.k, t)))
                        .find(|&(_, t)| t <= m * (1.0 + 1e-9))
                });
                Sweep {
                    alg: l.alg,
                    points,
                    best,
                }
            })
            .collect()
    }
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
    let mut job = ComparisonJob::new(case, c, None);
    job.advance(usize::MAX);
    job.comparison()
}

/// [`compare`] as a job run a bounded number of clock events at a time (a
/// [`SweepJob`] of the compared algorithms, and of the case's own algorithm
/// when it is not one of them), for a page that spreads it over frames.
#[derive(Debug)]
pub struct ComparisonJob {
    /// The sweeps.
    pub job: SweepJob,
    tree_formula: f64,
    compared: usize,
    missing: Vec<&'static str>,
    own: Option<Algorithm>,
}

impl ComparisonJob {
    /// The job of `case`; `own` is the algorithm whose sweep the page shows
    /// as a table ([`ComparisonJob::own`]).
    pub fn new(case: &Case<'_>, c: CostParams, own: Option<Algorithm>) -> Self {
        let bytes = (case.n * case.elem_bytes) as f64;
        let tree_formula = Algorithm::TREE.closed_form_on(case.topo, bytes, c).time;
        let mut algs = Vec::new();
        let mut missing = Vec::new();
        for key in COMPARED {
            match Algorithm::all().find(|a| a.key() == key) {
                Some(a) => algs.push(a),
                None => missing.push(key),
            }
        }
        let compared = algs.len();
        if let Some(a) = own.filter(|a| !algs.contains(a)) {
            algs.push(a);
        }
        ComparisonJob {
            job: SweepJob::new(case, &algs),
            tree_formula,
            compared,
            missing,
            own,
        }
    }

    /// See [`SweepJob::advance`].
    pub fn advance(&mut self, events: usize) -> bool {
        self.job.advance(events)
    }

    /// The comparison (its sweeps so far; complete once the job is done).
    pub fn comparison(&self) -> Comparison {
        let mut sweeps = self.job.sweeps();
        sweeps.truncate(self.compared);
        Comparison {
            tree_formula: self.tree_formula,
            sweeps,
            missing: self.missing.clone(),
        }
    }

    /// The sweep of the case's own algorithm (so far), when one was given.
    pub fn own(&self) -> Option<Sweep> {
        let own = self.own?;
        self.job.sweeps().into_iter().find(|s| s.alg == own)
    }
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

    #[test]
    fn a_job_run_in_slices_of_seven_events_gives_the_same_sweeps_bit_for_bit() {
        // p = 6 (not a power of two), α = 2 µs, γ = 0.1 ns/B, rank 2 at
        // half speed and rank 4 late by 30 µs: the comparison run whole
        // and the job run seven events at a time are the same clocks, so
        // every point is bit-identical. The progress ends at the pieces of
        // all points run: ptree and dbtree on 6 ranks are 10 and 20
        // messages (5 edges up and down, in one or two trees) and the ring
        // 60 (2 × 5 rounds × 6), all k up to 256 under the 100 000 cap:
        // (10 + 20 + 60) × 511 = 45 990 pieces.
        let topo = Topology::flat(6, 2e-6, 1.0 / 12.5e9);
        let faults = Faults {
            slow: vec![(2, 0.5)],
            late: vec![(4, 30e-6)],
            ..Faults::default()
        };
        let case = Case {
            topo: &topo,
            n: 300_001,
            elem_bytes: 4,
            gamma: 1e-10,
            faults: &faults,
        };
        let c = CostParams::new(2e-6, 1.0 / 12.5e9).with_gamma(1e-10);
        let whole = compare(&case, c);
        let mut job = ComparisonJob::new(&case, c, Some(Algorithm::RING));
        let mut calls = 0u32;
        while !job.advance(7) {
            calls += 1;
            assert!(calls < 1_000_000, "the job never ends");
        }
        assert!(calls > 1000, "{calls} slices: the job was not split");
        assert_eq!(job.comparison(), whole);
        assert_eq!(
            job.own(),
            whole
                .sweeps
                .iter()
                .find(|s| s.alg == Algorithm::RING)
                .cloned()
        );
        assert_eq!(job.job.progress(), (45_990, 45_990));
        assert!(job.job.current().is_none() && job.job.is_done());
    }
}
