//! Criterion benchmarks of the timing engine at the sizes the timeline
//! issue names:
//! - the ring at p = 1024, k = 1 (2 095 104 messages), numbers only (no
//!   event list), dataflow and lock-step;
//! - the ring at p = 64 with k = 64 segments (516 096 pieces), with the
//!   event list a drawn timeline needs.

use std::hint::black_box;

use collective_lab::core::collectives::Algorithm;
use collective_lab::core::timing::clock::{run, ClockOptions, Mode};
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
    let o = ClockOptions {
        segments: 64,
        ..ClockOptions::new(Mode::Dataflow)
    };
    group.bench_function("ring p=64 k=64 dataflow with events", |b| {
        b.iter(|| black_box(run(&ring64, &t64, &o).expect("runs")))
    });
    group.finish();
}

criterion_group!(benches, timing);
criterion_main!(benches);
