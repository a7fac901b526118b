//! Benchmarks of the SGD lab core (criterion): 200 steps with m = 16 workers
//! and d = 10 parameters for each strategy and for all three together, plus
//! the view's charts for the default d = 2 run.
//!
//! Add to Cargo.toml:
//! ```toml
//! [[bench]]
//! name = "sgd"
//! harness = false
//! ```

use std::hint::black_box;

use collective_lab::core::consensus::{GraphKind, WeightRule};
use collective_lab::core::sgd::train::mixing_for;
use collective_lab::core::sgd::{
    run_lab, run_strategy, Problem, ProblemConfig, Strategy, TrainConfig,
};
use collective_lab::params::sgd::SgdParams;
use collective_lab::plot::sgd::{draw_consensus, draw_loss, draw_loss_vs_bytes, draw_trajectories};
use criterion::{criterion_group, criterion_main, Criterion};

fn m16_d10() -> Problem {
    // unequal shards 50, 100, …, 800 (N = 6800), non-IID
    Problem::generate(&ProblemConfig {
        shard_sizes: (1..=16).map(|k| 50 * k).collect(),
        d: 10,
        iid: false,
        seed: 1,
        noise: 0.1,
    })
    .expect("valid problem")
}

fn bench_training(c: &mut Criterion) {
    let problem = m16_d10();
    let mixing = mixing_for(GraphKind::Ring, WeightRule::Uniform, 16, 1).expect("ring on 16");
    for (name, batch) in [("b16", 16), ("full", 0)] {
        let cfg = TrainConfig {
            steps: 200,
            batch,
            lr: 0.05,
            ..TrainConfig::default()
        };
        for s in Strategy::ALL {
            c.bench_function(&format!("sgd m16 d10 200 steps {name} {}", s.key()), |b| {
                b.iter(|| run_strategy(black_box(&problem), s, &mixing, &cfg).expect("runs"))
            });
        }
        c.bench_function(
            &format!("sgd m16 d10 200 steps {name} run_lab (all three)"),
            |b| b.iter(|| run_lab(black_box(&problem), &mixing, &cfg).expect("runs")),
        );
    }
    c.bench_function("sgd generate m16 d10 problem", |b| b.iter(m16_d10));
}

fn bench_view(c: &mut Criterion) {
    let params = SgdParams::default();
    c.bench_function("sgd default view run (m3 d2 200 steps)", |b| {
        b.iter(|| black_box(&params).lab_setup().run().expect("runs"))
    });
    let (_, _, lab) = params.lab_setup().run().expect("runs");
    c.bench_function("sgd charts at one step (4 SVGs)", |b| {
        b.iter(|| {
            let l = black_box(&lab);
            (
                draw_loss(l, 100).expect("svg"),
                draw_consensus(l, 100).expect("svg"),
                draw_loss_vs_bytes(l, 100).expect("svg"),
                draw_trajectories(l, 100).expect("svg"),
            )
        })
    });
}

criterion_group!(benches, bench_training, bench_view);
criterion_main!(benches);
