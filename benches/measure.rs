//! Measured-log benchmarks (criterion): parsing, checking and fitting a
//! 10,000-row synthetic nccl-tests log (the budget: < 100 ms in the
//! browser), the same with two breakpoints, and the two charts.

use std::hint::black_box;

use collective_lab::core::measure::analysis::{analyse, Settings};
use collective_lab::core::measure::synthetic::{generate, Spec};
use collective_lab::core::measure::Model;
use collective_lab::plot::measure::{draw_bandwidths, draw_time};
use criterion::{criterion_group, criterion_main, Criterion};

fn big_log() -> String {
    generate(&Spec::benchmark_log())
}

fn parse_and_fit(c: &mut Criterion) {
    let text = big_log();
    let s = Settings::default();
    c.bench_function("measure: parse + check + fit a 10,000-row log", |b| {
        b.iter(|| black_box(analyse(black_box(&text), &s)))
    });
    let opts = collective_lab::core::measure::ImportOptions::default();
    c.bench_function("measure part: import only, 10,000 rows", |b| {
        b.iter(|| {
            black_box(collective_lab::core::measure::import(
                black_box(&text),
                &opts,
            ))
        })
    });
    if let Ok(imp) = collective_lab::core::measure::import(&text, &opts) {
        let l = &imp.logs[0];
        c.bench_function("measure part: resolve + check, 10,000 rows", |b| {
            b.iter(|| {
                let r = collective_lab::core::measure::checks::resolve(l, None);
                black_box(collective_lab::core::measure::checks::check(
                    l,
                    r.p.p,
                    r.unknown_bw,
                    None,
                ))
            })
        });
        let pts: Vec<(f64, f64)> = l.series[0]
            .rows
            .iter()
            .map(|r| (r.size.value, r.time.value))
            .collect();
        let o = collective_lab::core::measure::fit::FitOptions {
            model: Model::Ring,
            collective: l.collective,
            p: 16,
            min_size: 0.0,
            max_size: f64::INFINITY,
            breaks: 0,
        };
        c.bench_function("measure part: fit only, 10,000 points", |b| {
            b.iter(|| black_box(collective_lab::core::measure::fit::fit(&pts, o)))
        });
    }
    let s2 = Settings {
        breaks: 2,
        ..Settings::default()
    };
    c.bench_function(
        "measure: parse + check + piecewise fit (2 breaks), 10,000 rows",
        |b| b.iter(|| black_box(analyse(black_box(&text), &s2))),
    );
    let a = analyse(&text, &s);
    let (Ok(imp), Some(la)) = (&a.import, &a.log) else {
        return;
    };
    let log = &imp.logs[0];
    let times = log.time_points();
    c.bench_function("measure: chart time vs size (20,000 points)", |b| {
        b.iter(|| black_box(draw_time(&times, la.curves.as_ref())))
    });
    let bw = log.check_points(&la.checks, |c| c.busbw);
    c.bench_function("measure: chart bandwidths (20,000 points)", |b| {
        b.iter(|| black_box(draw_bandwidths(&bw, &bw, None)))
    });
}

criterion_group!(benches, parse_and_fit);
criterion_main!(benches);
