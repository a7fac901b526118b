//! The training-step page's names and notes.

use super::failure::{failure, WEIGHT_ROWS};
use super::panels::{sharding, straggler, strategies, summary};
use super::quality::{quality_counts, quality_text, tuner_foot, tuner_progress};
use super::{label, name, names, sharded_note, step_report};
use crate::core::sgd::Strategy;
use crate::core::step::Sharding;
use crate::params::step::StepParams;
use crate::params::Query;

fn params(query: &str) -> StepParams {
    let (p, errors) = StepParams::from_query(&Query::parse(query), &StepParams::default());
    assert!(errors.is_empty(), "{errors:?}");
    p
}

#[test]
fn names_say_how_local_sgd_averages_and_how_all_reduce_shards() {
    assert_eq!(
        label(Strategy::Local, Some(4)),
        "local SGD (average every 4 steps)"
    );
    assert_eq!(label(Strategy::Local, None), "local SGD (no communication)");
    assert_eq!(
        name(Strategy::AllReduce, None, Sharding::Fsdp),
        format!("all-reduce SGD as {}", Sharding::Fsdp.label())
    );
    assert_eq!(
        name(Strategy::AllReduce, None, Sharding::Ddp),
        "all-reduce SGD"
    );
    assert_eq!(
        names(&[Strategy::AllReduce, Strategy::Gossip, Strategy::Local]),
        "all-reduce SGD, D-PSGD, local SGD"
    );
}

#[test]
fn the_sharded_note_names_the_halves_and_the_caps() {
    let p = params("mode=zero2");
    let r = step_report(&p).expect("the default case runs");
    assert_eq!(sharded_note(&r, &p, Sharding::Ddp), "");
    let note = sharded_note(&r, &p, Sharding::Zero2);
    assert!(note.starts_with("ZeRO-2: DDP's "), "{note}");
    assert!(note.contains(&p.caps_line()), "{note}");
    let halves = r
        .halves
        .map(|h| h.names())
        .expect("a sharded case has halves");
    assert!(note.contains(halves), "{note}");
    let fsdp = params("mode=fsdp");
    let rf = step_report(&fsdp).expect("runs");
    assert!(sharded_note(&rf, &fsdp, Sharding::Fsdp).starts_with("FSDP: each layer all-gathered"));
}

#[test]
fn sharding_rows_give_the_zero_papers_memory_per_rank() {
    // The defaults: 4 layers of 25M parameters, Ψ = 100M, N = 8, K = 12.
    // DDP 16Ψ = 1.6 GB, ZeRO-1 4Ψ + 12Ψ/8 = 550 MB, ZeRO-2 2Ψ + 14Ψ/8 =
    // 375 MB, ZeRO-3 16Ψ/8 = 200 MB; FSDP adds one layer gathered, 25M × 2 B.
    let p = params("");
    let r = step_report(&p).expect("the default case runs");
    let s = sharding(&r, &p);
    let mem: Vec<(&str, &str)> = s.rows.iter().map(|r| (r.id, r.memory.as_str())).collect();
    assert_eq!(
        mem,
        [
            ("ddp", "1.600 GB"),
            ("zero1", "550.0 MB"),
            ("zero2", "375.0 MB"),
            ("zero3", "200.0 MB")
        ]
    );
    assert_eq!(s.rows[3].key, "fsdp");
    assert_eq!(
        s.rows[3].fsdp.as_deref(),
        Some("FSDP: + 50.00 MB = 250.0 MB")
    );
    assert!(s.rows[0].winner && !s.rows[2].winner);
    assert_eq!(s.why, None);
    assert_eq!(
        s.legend,
        "Ψ = 100M parameters, N = 8 ranks, K = 12 (optim=). "
    );
}

#[test]
fn summary_rows_count_the_buckets_and_the_throughput() {
    // 4 layers of 25M fp32 parameters, 100 MB of gradients each: caps of
    // 1 MiB then 25 MiB close a bucket after every layer, four buckets;
    // backward 4 × 10 ms, no forward.
    let p = params("samples=32");
    let r = step_report(&p).expect("runs");
    let s = summary(&r, &p);
    let ids: Vec<&str> = s.rows.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        [
            "step-time",
            "compute-time",
            "exposed-time",
            "comm-time",
            "hidden-share",
            "bucket-count",
            "no-overlap",
            "samples-rate"
        ]
    );
    assert_eq!(s.rows[5].value, "4");
    assert_eq!(s.rows[1].value, "40.00 ms");
    assert!(
        s.rows[7].value.contains("(32 per worker × 8 workers ÷ "),
        "{}",
        s.rows[7].value
    );
    assert!(s.foot.contains("all-reduces"));
}

#[test]
fn strategies_local_sgd_without_h_sends_nothing() {
    let p = params("");
    let r = step_report(&p).expect("runs");
    let rows = strategies(&r, &p);
    assert_eq!(
        rows.iter().map(|r| r.strategy).collect::<Vec<_>>(),
        [Strategy::AllReduce, Strategy::Gossip, Strategy::Local]
    );
    assert!(rows[0].winner && !rows[1].winner);
    assert_eq!(rows[2].bytes, "0 B");
    assert!(rows[2].why.starts_with("no h:"));
    // a ring all-reduce of 400 MB on 8 ranks: each sends 2 · 7/8 · 400 MB
    assert_eq!(rows[0].bytes, "700 MB");
    assert!(straggler(&r, &p).is_none());
}

#[test]
fn a_straggler_and_a_failure_are_worded_from_the_report() {
    let p = params("straggler=3:0.5&fail=2@5&ckpt=2&restart=1s");
    let r = step_report(&p).expect("runs");
    let s = straggler(&r, &p).expect("straggler= given");
    assert_eq!(s.heading, "A straggler: rank 3 at 0.5 × speed");
    assert!(
        s.allreduce.starts_with("All-reduce SGD: "),
        "{}",
        s.allreduce
    );
    let f = failure(&r, &p).expect("fail= given");
    assert_eq!(f.heading, "Rank 2 fails in step 5");
    // 4 steps done, the checkpoint of step 4 keeps them: only step 5 is lost
    assert!(
        f.allreduce.contains(
            "4 steps were done, 4 saved by the last checkpoint (every 2 steps); 1 steps are lost"
        ),
        "{}",
        f.allreduce
    );
    assert!(
        f.restart.starts_with("With a restart of 1s, "),
        "{}",
        f.restart
    );
    let g = f.gossip.expect("a ring fits 8 ranks");
    // a ring without one rank is a path: still connected
    assert!(g.connected);
    assert_eq!(g.weights.len(), WEIGHT_ROWS);
    assert_eq!(g.more.as_deref(), Some("… and 1 more rows."));
    assert!(
        g.objective.contains("(12.5 % of the samples)"),
        "{}",
        g.objective
    );
}

#[test]
fn the_tuner_and_quality_words() {
    assert_eq!(
        tuner_progress(3, 12),
        "Timing the step at 12 caps: 3 of 12 done …"
    );
    assert!(tuner_foot(Sharding::Zero2).contains("pay the reduce-scatter's start-ups"));
    assert!(tuner_foot(Sharding::Ddp).contains("leave the last all-reduce exposed"));
    let p = params("");
    assert_eq!(
        quality_counts(8, &p),
        "The lab's 8 workers are this view's p = 8 ranks."
    );
    assert!(quality_counts(4, &p).contains("m = 4 workers"));
    let q = quality_text(1.0, 1.05, &[], &p, Sharding::Ddp);
    assert_eq!(q.order, "No strategy reaches the target in this run.");
    assert_eq!(
        q.target,
        "Target loss 1.0500 (the lowest reachable is 1.0000; no target= given, so 5 % above it)."
    );
}
