//! The training-step page's names and notes.

use super::quality::{quality_counts, tuner_foot, tuner_progress};
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
}
