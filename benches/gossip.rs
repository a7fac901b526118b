//! Gossip consensus benchmarks (criterion): the spectrum of W for a general
//! graph at p = 256 (dense symmetric eigen-decomposition) and for the ring and
//! the torus at p = 1024 (closed-form circulant spectrum), plus building W
//! and the whole `GossipRun` the view computes. Target: ≤ 50 ms each in the
//! browser.

use std::hint::black_box;
use std::time::Duration;

use collective_lab::core::consensus::{
    mixing_matrix, rho_lanczos, spectrum, GossipRun, Graph, GraphKind, InitPattern, WeightRule,
    DENSE_LIST_MAX_P,
};
use criterion::{criterion_group, criterion_main, Criterion};

fn built(
    kind: GraphKind,
    p: usize,
    rule: WeightRule,
) -> (Graph, collective_lab::core::consensus::MixingMatrix) {
    let g = Graph::new(kind, p, 1).expect("valid graph");
    let w = mixing_matrix(&g, rule).expect("rule fits");
    (g, w)
}

fn spectra(c: &mut Criterion) {
    let mut group = c.benchmark_group("gossip_spectrum");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    let cases = [
        (
            "random_metropolis_p256_dense",
            GraphKind::Random,
            256,
            WeightRule::Metropolis,
        ),
        (
            "path_uniform_p256_symmetrised",
            GraphKind::Path,
            256,
            WeightRule::Uniform,
        ),
        (
            "ring_uniform_p1024_circulant",
            GraphKind::Ring,
            1024,
            WeightRule::Uniform,
        ),
        (
            "torus_32x32_uniform_p1024_circulant",
            GraphKind::Torus { rows: 32, cols: 32 },
            1024,
            WeightRule::Uniform,
        ),
        (
            "exp_p1024_circulant",
            GraphKind::Exponential,
            1024,
            WeightRule::Exponential,
        ),
    ];
    for (name, kind, p, rule) in cases {
        let (g, w) = built(kind, p, rule);
        group.bench_function(name, |b| {
            b.iter(|| spectrum(black_box(&g), black_box(&w)).expect("spectrum"))
        });
    }
    group.finish();
}

fn whole_view(c: &mut Criterion) {
    let mut group = c.benchmark_group("gossip_run");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("build_w_ring_p1024", |b| {
        b.iter(|| built(black_box(GraphKind::Ring), 1024, WeightRule::Uniform))
    });
    group.bench_function("gossip_run_ring_p1024_100_rounds", |b| {
        b.iter(|| {
            GossipRun::new(
                GraphKind::Ring,
                black_box(1024),
                1,
                WeightRule::Uniform,
                &InitPattern::Random(7),
                100,
                100.0,
            )
            .expect("run")
        })
    });
    for (name, kind) in [
        ("gossip_run_fast_random_p1024_100_rounds", GraphKind::Random),
        (
            "gossip_run_fast_complete_p1024_100_rounds",
            GraphKind::Complete,
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                GossipRun::with_dense_limit(
                    kind,
                    black_box(1024),
                    1,
                    WeightRule::Metropolis,
                    &InitPattern::Random(7),
                    (100, 100.0),
                    DENSE_LIST_MAX_P,
                )
                .expect("run")
            })
        });
    }
    group.bench_function("gossip_run_random_p256_100_rounds", |b| {
        b.iter(|| {
            GossipRun::new(
                GraphKind::Random,
                black_box(256),
                1,
                WeightRule::Metropolis,
                &InitPattern::Random(7),
                100,
                100.0,
            )
            .expect("run")
        })
    });
    group.finish();
}

/// The spectrum of every graph at p = 1024 (issue 12's target: the gossip
/// view ready in ≤ 300 ms in the browser for every graph at p = 1024).
fn spectra_p1024(c: &mut Criterion) {
    let mut group = c.benchmark_group("gossip_spectrum_p1024");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let cases = [
        ("ring_metropolis", GraphKind::Ring, WeightRule::Metropolis),
        ("path_metropolis", GraphKind::Path, WeightRule::Metropolis),
        ("path_uniform", GraphKind::Path, WeightRule::Uniform),
        ("star_uniform", GraphKind::Star, WeightRule::Uniform),
        ("star_metropolis", GraphKind::Star, WeightRule::Metropolis),
        (
            "torus_32x32_metropolis",
            GraphKind::Torus { rows: 32, cols: 32 },
            WeightRule::Metropolis,
        ),
        (
            "complete_metropolis",
            GraphKind::Complete,
            WeightRule::Metropolis,
        ),
        ("complete_lazy", GraphKind::Complete, WeightRule::Lazy),
        (
            "hypercube_metropolis",
            GraphKind::Hypercube,
            WeightRule::Metropolis,
        ),
        (
            "random_metropolis",
            GraphKind::Random,
            WeightRule::Metropolis,
        ),
    ];
    for (name, kind, rule) in cases {
        let (g, w) = built(kind, 1024, rule);
        group.bench_function(name, |b| {
            b.iter(|| spectrum(black_box(&g), black_box(&w)).expect("spectrum"))
        });
    }
    for (name, rule) in [
        ("random_metropolis_rho_lanczos", WeightRule::Metropolis),
        ("random_uniform_rho_lanczos", WeightRule::Uniform),
    ] {
        let (_, w) = built(GraphKind::Random, 1024, rule);
        group.bench_function(name, |b| {
            b.iter(|| rho_lanczos(black_box(&w)).expect("lanczos"))
        });
    }
    group.finish();
}

/// What the gossip view computes at p = 1024 for every graph it offers: the
/// run (W, checks, spectrum or ρ, rounds to the target) and the rounds to the
/// suggested horizon, as `GossipParams::run_fast` does for the page.
fn view_p1024(c: &mut Criterion) {
    let mut group = c.benchmark_group("gossip_view_p1024");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    let cases = [
        ("ring_uniform", GraphKind::Ring, WeightRule::Uniform),
        ("path_uniform", GraphKind::Path, WeightRule::Uniform),
        ("path_metropolis", GraphKind::Path, WeightRule::Metropolis),
        ("star_metropolis", GraphKind::Star, WeightRule::Metropolis),
        ("complete_uniform", GraphKind::Complete, WeightRule::Uniform),
        ("complete_lazy", GraphKind::Complete, WeightRule::Lazy),
        (
            "torus_32x32_uniform",
            GraphKind::Torus { rows: 32, cols: 32 },
            WeightRule::Uniform,
        ),
        (
            "hypercube_uniform",
            GraphKind::Hypercube,
            WeightRule::Uniform,
        ),
        ("exp_exp", GraphKind::Exponential, WeightRule::Exponential),
        ("random_uniform", GraphKind::Random, WeightRule::Uniform),
        (
            "random_metropolis",
            GraphKind::Random,
            WeightRule::Metropolis,
        ),
    ];
    for (name, kind, rule) in cases {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut r = GossipRun::with_dense_limit(
                    kind,
                    black_box(1024),
                    1,
                    rule,
                    &InitPattern::Random(2),
                    (0, 100.0),
                    DENSE_LIST_MAX_P,
                )
                .expect("run");
                let h = r.suggested_horizon();
                r.extend_to(h);
                r
            })
        });
    }
    group.finish();
}

criterion_group!(benches, spectra, whole_view, spectra_p1024, view_p1024);
criterion_main!(benches);
