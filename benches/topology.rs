//! Criterion benchmarks of the topology view's work at 8 nodes × 8 GPUs
//! (64 ranks, 8 NICs per node, 2 racks, 64 MB):
//! - the run of one algorithm with per-round states (on every change of
//!   shape, size or algorithm; stepping reuses it);
//! - the picture geometry (on every render of a step);
//! - the step-independent summary: comparison rows of every algorithm and
//!   both sweep charts (on every change of shape, size or links).

use std::hint::black_box;

use collective_lab::core::topology::{Link, Topology};
use collective_lab::core::topology_view::view_model::layout;
use collective_lab::core::topology_view::{compare, run, sweep_gpus, sweep_sizes};
use collective_lab::plot::topology::{draw_time_vs_gpus, Line};
use criterion::{criterion_group, criterion_main, Criterion};

const N: u64 = 64_000_000 / 4;

fn topo() -> Topology {
    Topology::unequal(
        vec![8; 8],
        2,
        8,
        Link::new(1e-6, 300e9),
        Link::new(5e-6, 50e9),
        200e9,
    )
    .expect("valid")
}

fn topology(c: &mut Criterion) {
    let t = topo();
    for alg in ["multilane", "rat", "flat"] {
        c.bench_function(
            &format!("8×8 {alg}: run (generate, execute with states, time, count)"),
            |b| b.iter(|| black_box(run(alg, &t, N, 4).expect("runs"))),
        );
    }
    let sizes = t.node_sizes();
    c.bench_function("8×8 picture geometry (one step's layout)", |b| {
        b.iter(|| black_box(layout(&sizes, 2, 8, false)))
    });
    let r = run("multilane", &t, N, 4).expect("runs");
    c.bench_function(
        "8×8 multilane one step's lookups (arrows' classes, NIC counters)",
        |b| {
            b.iter(|| {
                let step = black_box(5usize);
                let i = step - 1;
                let round = &r.schedule().rounds[i];
                let classes = &r.classes[i];
                let nic: u64 = r.traffic[i].nic_out.iter().flatten().sum::<u64>()
                    + r.cumulative[i].nic_in.iter().flatten().sum::<u64>();
                black_box((
                    round.transfers.len(),
                    classes.len(),
                    nic,
                    r.trace.complete_fraction(step),
                ))
            })
        },
    );
    c.bench_function("8×8 comparison rows (every algorithm)", |b| {
        b.iter(|| black_box(compare(&t, N, 4)))
    });
    let pts: Vec<u64> = (0..=10).map(|k| 1024u64 << (2 * k)).collect();
    c.bench_function("8×8 sweeps (GPUs 1–8, 11 sizes) and one chart", |b| {
        b.iter(|| {
            let g = sweep_gpus(&t, N, 4, 8, true).expect("hier");
            let s = sweep_sizes(&t, &pts, 4).expect("ok");
            let lines: Vec<Line> = g
                .iter()
                .map(|x| Line {
                    label: x.label.to_string(),
                    points: x.points.iter().map(|p| (p.x, p.time)).collect(),
                })
                .collect();
            black_box((
                s.len(),
                draw_time_vs_gpus(&lines, "t").expect("chart").len(),
            ))
        })
    });
}

criterion_group!(benches, topology);
criterion_main!(benches);
