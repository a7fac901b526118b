//! The shared page computations against hand-derived numbers.

use super::clocks::{case_key, compute, compute_runner_case};
use super::trace::collective_trace;
use crate::core::collectives::Algorithm;
use crate::core::timing::clock::Mode;
use crate::core::topology::Topology;
use crate::params::timeline::TimelineParams;
use crate::params::Query;

fn timeline(query: &str) -> TimelineParams {
    let (p, errors) = TimelineParams::from_query(&Query::parse(query), &TimelineParams::default());
    assert!(errors.is_empty(), "{errors:?}");
    p
}

#[test]
fn the_course_ring_takes_twelve_milliseconds_on_both_clocks() {
    // Ring all-reduce, p = 4, n = 100 MB, 12.5 GB/s, α = 0:
    // 2 (p − 1)/p · n · β = 1.5 · 10⁸ B / 12.5 · 10⁹ B/s = 12 ms on either
    // clock (equal chunks, no faults, so dataflow cannot gain).
    let runs = compute(&TimelineParams::default()).expect("the default case runs");
    let modes: Vec<Mode> = runs.runs.iter().map(|r| r.mode).collect();
    assert_eq!(modes, [Mode::Dataflow, Mode::LockStep]);
    for r in &runs.runs {
        assert!(
            (r.clock.end - 12e-3).abs() < 1e-12,
            "{:?}: {}",
            r.mode,
            r.clock.end
        );
    }
    assert!((runs.end - 12e-3).abs() < 1e-12);
    // `bytes` is the tensor's size (what algbw divides by), not the traffic.
    assert_eq!(runs.bytes, 100_000_000);
    assert!(runs.faults.is_empty());
    // The event times are sorted, distinct, and end at the clock's end.
    assert!(runs.times.windows(2).all(|w| w[0] < w[1]));
    assert!((runs.times.last().copied().unwrap_or(0.0) - 12e-3).abs() < 1e-12);
}

#[test]
fn a_late_rank_delays_the_lock_step_clock_by_its_lateness() {
    // Rank 1 starts 5 ms late: lock-step's first round waits for it, so
    // every round moves 5 ms: 12 + 5 = 17 ms. Dataflow is never slower.
    let runs = compute(&timeline("late=1:5ms")).expect("runs");
    let end = |m: Mode| {
        runs.runs
            .iter()
            .find(|r| r.mode == m)
            .map(|r| r.clock.end)
            .expect("mode shown")
    };
    assert!(
        (end(Mode::LockStep) - 17e-3).abs() < 1e-12,
        "{}",
        end(Mode::LockStep)
    );
    assert!(end(Mode::Dataflow) <= end(Mode::LockStep) + 1e-15);
    assert!(!runs.faults.is_empty());
}

#[test]
fn one_clock_only_when_the_mode_says_so_and_the_cursor_is_not_part_of_the_case() {
    let runs = compute(&timeline("mode=lockstep")).expect("runs");
    assert_eq!(runs.runs.len(), 1);
    assert_eq!(runs.runs[0].mode, Mode::LockStep);
    // Moving the cursor does not change the case the runs are keyed on.
    assert_eq!(case_key(&timeline("t=3ms")), case_key(&timeline("t=9ms")));
    assert_ne!(case_key(&timeline("p=8")), case_key(&timeline("p=4")));
}

#[test]
fn the_collectives_trace_is_the_ring_on_real_buffers() {
    // 128 B of f32 = 32 elements on 4 ranks: chunks of 8 elements, so every
    // rank sends 32 B in each of the 2 (p − 1) = 6 rounds; checkpointed
    // every 8 rounds, the input and the last state are kept.
    let topo = Topology::flat(4, 0.0, 1e-9);
    let trace = collective_trace(Algorithm::RING, &topo, 128).expect("the ring runs");
    assert_eq!(trace.sent.len(), 6);
    assert!(trace.sent.iter().all(|round| round == &vec![32; 4]));
    assert_eq!(trace.kept, vec![0, 6]);
    assert!(trace.verification.ok());
}

#[test]
fn the_check_waits_without_asking_and_says_one_failure_sentence() {
    use super::check::Check;
    use crate::core::execute::{Mismatch, Verification};
    let pending = Check::after(2, 6, || panic!("asked before the last round"), String::new);
    assert_eq!(pending, Check::Pending { done: 2, rounds: 6 });
    let wrong = Verification {
        mismatches: vec![Mismatch {
            rank: 1,
            range: 0..4,
            expected: 10.0,
            got: 9.0,
        }],
        double_counts: Vec::new(),
    };
    assert_eq!(
        Check::after(6, 6, || &wrong, || "never".into()),
        Check::Failed("Not verified: 1 wrong rank-segments, 0 double counts.".into())
    );
}

#[test]
fn the_trace_view_builds_the_runner_cases_and_refuses_an_all_to_all() {
    // The runner's ring case runs exactly as the timeline's: 12 ms.
    let runs = compute_runner_case(&TimelineParams::default()).expect("ring runs");
    assert!((runs.end - 12e-3).abs() < 1e-12, "{}", runs.end);
    // Pairwise all-to-all, p = 4, 100 MB, 12.5 GB/s, α = 0: three rounds
    // of one 6.25 MB block each (size/p² = 100/16 MB): 3 · 0.5 ms = 1.5 ms
    // on the timeline, and no case of the runner's.
    let case = timeline("alg=pairwise");
    let all = compute(&case).expect("the timeline runs pairwise");
    assert!((all.end - 1.5e-3).abs() < 1e-12, "{}", all.end);
    // nccl-tests' alltoall size is one rank's row, 25 MB: algbw =
    // 25 MB / 1.5 ms = 16.67 GB/s, busbw = algbw · 3/4 = 12.5 GB/s, the
    // link (pairwise sends one block per round on each link, never idle).
    let t = &all.runs[0].totals;
    let algbw = t.algbw.expect("completes");
    assert!((algbw - 25e6 / 1.5e-3).abs() < 1e-3, "{algbw}");
    assert!((t.busbw.expect("completes") - 12.5e9).abs() < 1e-3);
    let err = compute_runner_case(&case).expect_err("the runner has no all-to-all");
    assert!(err.contains("the runner does not run pairwise"), "{err}");
}
