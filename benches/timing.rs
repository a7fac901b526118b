//! Criterion benchmarks of the timing engine at the sizes the timeline
//! issue names:
//! - the ring at p = 1024, k = 1 (2 095 104 messages), numbers only (no
//!   event list), dataflow and lock-step;
//! - the ring at p = 64, k = 1 (8 064 messages) with the event list and the
//!   Gantt bars the timeline view draws, both modes;
//! - the ring at p = 64 with k = 64 segments (516 096 pieces), with the
//!   event list a drawn timeline needs, and numbers only;
//! - the timeline view's segment sweep at p = 64 (ring, pipelined tree and
//!   double tree, k = 1 … 256 up to 100 000 pieces a point).

use std::hint::black_box;

use collective_lab::core::collectives::pipelining::{compare, Case};
use collective_lab::core::collectives::Algorithm;
use collective_lab::core::cost::CostParams;
use collective_lab::core::timing::clock::{ClockOptions, Faults, Mode};
use collective_lab::core::timing::gantt::gantt;
use collective_lab::core::timing::run;
use collective_lab::core::topology::Topology;
use criterion::{criterion_group, criterion_main, Criterion};

fn timing(c: &mut Criterion) {
    let beta = 1.0 / 12.5e9;
    let big = Topology::flat(1024, 5e-6, beta);
    let ring = Algorithm::RING
        .generate_on(&big, 1024 * 1000, 4)
        .expect("valid");
    let mut group = c.benchmark_group("timing");
    group.sample_size(10);
    for mode in [Mode::Dataflow, Mode::LockStep] {
        let o = ClockOptions {
            keep_events: false,
            ..ClockOptions::new(mode)
        };
        group.bench_function(
            format!("ring p=1024 k=1 {} numbers only", mode.key()),
            |b| b.iter(|| black_box(run(&ring, &big, &o).expect("runs"))),
        );
    }
    let t64 = Topology::flat(64, 5e-6, beta);
    let ring64 = Algorithm::RING
        .generate_on(&t64, 64 * 100_000, 4)
        .expect("valid");
    for mode in [Mode::Dataflow, Mode::LockStep] {
        let o = ClockOptions::new(mode);
        group.bench_function(
            format!("ring p=64 k=1 {} with events and gantt", mode.key()),
            |b| {
                b.iter(|| {
                    let c = run(&ring64, &t64, &o).expect("runs");
                    black_box(gantt(&c))
                })
            },
        );
    }
    for keep_events in [true, false] {
        let o = ClockOptions {
            segments: 64,
            keep_events,
            ..ClockOptions::new(Mode::Dataflow)
        };
        let what = if keep_events {
            "with events"
        } else {
            "numbers only"
        };
        group.bench_function(format!("ring p=64 k=64 dataflow {what}"), |b| {
            b.iter(|| black_box(run(&ring64, &t64, &o).expect("runs")))
        });
    }
    let faults = Faults::default();
    let case = Case {
        topo: &t64,
        n: 16_000_000,
        elem_bytes: 4,
        gamma: 0.0,
        faults: &faults,
    };
    group.bench_function("segment sweep p=64 (ptree, dbtree, ring)", |b| {
        b.iter(|| black_box(compare(&case, CostParams::new(5e-6, beta))))
    });
    group.finish();
}

criterion_group!(benches, timing);
criterion_main!(benches);
