//! Criterion benchmarks of the collectives view's core work: generating and
//! executing a schedule with per-round states (on every change of alg, p or
//! size), the summary table over all eight algorithms (on every change of p,
//! size, α or β), and one step's cell states for the rank ring.

use std::hint::black_box;

use collective_lab::core::collectives::narrate::{chunk_states, narrate};
use collective_lab::core::collectives::{generate, summary_table, Algorithm};
use collective_lab::core::cost::CostParams;
use collective_lab::core::execute::{default_init, execute, ExecOptions};
use criterion::{criterion_group, criterion_main, Criterion};

const N: u64 = 64_000_000 / 4;

fn collectives(c: &mut Criterion) {
    for (alg, p) in [
        (Algorithm::RAB, 64),
        (Algorithm::RAB, 48),
        (Algorithm::RING, 64),
    ] {
        c.bench_function(
            &format!("{} p={p} generate + execute (keep states)", alg.key()),
            |b| {
                b.iter(|| {
                    let s = generate(alg, p, N, 4).expect("valid");
                    black_box(execute(&s, &default_init, ExecOptions::default()).expect("runs"))
                })
            },
        );
    }
    c.bench_function("summary table p=64 (8 algorithms)", |b| {
        b.iter(|| black_box(summary_table(64, N, 4, CostParams::course_example()).expect("valid")))
    });
    let s = generate(Algorithm::RAB, 64, N, 4).expect("valid");
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    c.bench_function("rab p=64 one step's cells and narration", |b| {
        b.iter(|| {
            let step = black_box(7);
            let cells = chunk_states(&t, step).expect("kept");
            let k: usize = cells.iter().flatten().map(|cs| cs.count).sum();
            black_box((k, narrate(Algorithm::RAB, &t, step).len()))
        })
    });
}

criterion_group!(benches, collectives);
criterion_main!(benches);
