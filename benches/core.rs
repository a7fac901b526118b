//! Criterion benchmarks of the ring core: executing the schedule with
//! per-round states (what the ring view does when p changes) and preparing
//! one step's data (state, transfer log, narration, counters).

use collective_lab::core::execute::{
    count_only, count_rounds, default_init, execute, execute_checkpointed, ExecOptions,
};
use collective_lab::core::schedule::ring::ring_all_reduce_rounds;
use collective_lab::core::schedule::ring::ring_all_reduce_schedule;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn ring(c: &mut Criterion) {
    let n = 64_000_000 / 4;
    c.bench_function("ring p=64 execute (keep states)", |b| {
        b.iter(|| {
            let s = ring_all_reduce_schedule(64, n, 4).expect("valid");
            black_box(execute(&s, &default_init, ExecOptions::default()).expect("runs"))
        })
    });
    c.bench_function("ring p=1024 execute (numbers only)", |b| {
        b.iter(|| {
            let s = ring_all_reduce_schedule(1024, n, 4).expect("valid");
            black_box(execute(&s, &default_init, ExecOptions { keep_states: false }).expect("runs"))
        })
    });
    c.bench_function("ring p=1024 generate only", |b| {
        b.iter(|| {
            black_box(
                ring_all_reduce_schedule(1024, n, 4)
                    .expect("valid")
                    .rounds
                    .len(),
            )
        })
    });
    c.bench_function("ring p=1024 generate + count_only (numbers only)", |b| {
        b.iter(|| {
            let s = ring_all_reduce_schedule(1024, n, 4).expect("valid");
            black_box(count_only(&s).expect("counts").max_sent_per_rank())
        })
    });
    c.bench_function("ring p=1024 streamed count_rounds (numbers only)", |b| {
        b.iter(|| {
            let c = count_rounds(1024, n, 4, ring_all_reduce_rounds(1024, n)).expect("counts");
            black_box(c.max_sent_per_rank())
        })
    });
    c.bench_function("ring p=64 execute_checkpointed every 12 rounds", |b| {
        b.iter(|| {
            let s = ring_all_reduce_schedule(64, n, 4).expect("valid");
            black_box(execute_checkpointed(s, &default_init, 12).expect("runs"))
        })
    });
    let s = ring_all_reduce_schedule(64, n, 4).expect("valid");
    let cp = execute_checkpointed(s.clone(), &default_init, 12).expect("runs");
    c.bench_function("ring p=64 one step's data, checkpointed every 12", |b| {
        b.iter(|| {
            let step = black_box(70);
            let st = cp.state_at(step).expect("replayed");
            let log = cp.round_log(step - 1);
            let text = collective_lab::core::collectives::narrate::narrate(
                collective_lab::core::collectives::Algorithm::RING,
                &cp,
                step,
            );
            black_box((st.values.len(), log.len(), text.len()))
        })
    });
    let t = execute(&s, &default_init, ExecOptions::default()).expect("runs");
    c.bench_function("ring p=64 one step's data", |b| {
        b.iter(|| {
            let step = black_box(70);
            let st = t.state_after(step).expect("kept");
            let log = t.round_log(step - 1);
            let text = collective_lab::core::collectives::narrate::narrate(
                collective_lab::core::collectives::Algorithm::RING,
                &t,
                step,
            );
            let sent = t.sent_after(step);
            black_box((st.values.len(), log.len(), text.len(), sent.len()))
        })
    });
}

criterion_group!(benches, ring);
criterion_main!(benches);
