//! Cost-model benchmarks (criterion): a 1000-size × 5-algorithm sweep (as
//! lines, and as full `Formula`s with the written-out calculation), the exact
//! crossover solver, and drawing the three charts of the cost view at the
//! course's example (p = 16, α = 5 µs, β = 0.08 ns/B, 8 KiB).

use std::hint::black_box;

use collective_lab::core::collectives::compare::{
    all_allreduce, best_intervals, log_sizes, sweep_sizes,
};
use collective_lab::core::collectives::Algorithm;
use collective_lab::core::cost::CostParams;
use collective_lab::plot::cost::{draw_time_vs_p, draw_time_vs_size, draw_winner_map};
use criterion::{criterion_group, criterion_main, Criterion};

fn sweep(c: &mut Criterion) {
    let params = CostParams::course_example();
    let sizes = log_sizes(1.0, 4.0 * 1_073_741_824.0, 1000);
    c.bench_function("cost sweep 1000 sizes × 5 algorithms (times)", |b| {
        b.iter(|| black_box(sweep_sizes(black_box(16), &sizes, params)))
    });
    c.bench_function(
        "cost sweep 1000 sizes × 5 algorithms (Formula + calculation)",
        |b| {
            b.iter(|| {
                let mut total = 0.0;
                for &n in &sizes {
                    for &a in Algorithm::compared() {
                        total += a.cost(black_box(16), n, params).time;
                    }
                }
                black_box(total)
            })
        },
    );
    c.bench_function("cost crossovers + intervals (p = 16)", |b| {
        b.iter(|| black_box(best_intervals(black_box(16), params)))
    });
    c.bench_function("cost table at one size (5 formulas)", |b| {
        b.iter(|| black_box(all_allreduce(black_box(16), 8192.0, params)))
    });
}

fn charts(c: &mut Criterion) {
    let params = CostParams::course_example();
    c.bench_function("cost chart: time vs size", |b| {
        b.iter(|| black_box(draw_time_vs_size(16, params, black_box(8192.0))))
    });
    c.bench_function("cost chart: time vs p", |b| {
        b.iter(|| black_box(draw_time_vs_p(black_box(8192.0), params, 16)))
    });
    c.bench_function("cost chart: winner map", |b| {
        b.iter(|| black_box(draw_winner_map(params, black_box(8192.0), 16)))
    });
}

criterion_group!(benches, sweep, charts);
criterion_main!(benches);
