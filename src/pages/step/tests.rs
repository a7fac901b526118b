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

mod wire {
    use super::params;
    use crate::core::sgd::Strategy;
    use crate::core::step::quality::QualityRow;
    use crate::pages::step::compute;
    use crate::pages::step::quality::{
        computed_from_wire, computed_to_wire, key_from_wire, key_to_wire, quality_key, run_wire,
    };
    use crate::pages::step::step_report;

    #[test]
    fn the_key_crosses_the_wire_unchanged() {
        // local SGD averaging every 5 steps, a target, a non-default lab
        let p = params("h=5&target=0.3&shards=5,3&losses=1.2,1.3&lr=0.07&seed=42");
        let r = step_report(&p).expect("the step");
        let key = quality_key(&r, &p);
        let (q, nums) = key_to_wire(&key);
        assert!(q.contains("shards=5%2C3"), "{q}");
        assert_eq!(nums.len(), 10);
        // local SGD's clock: h = 5 and its model all-reduce's seconds
        assert_eq!(nums[7], 5.0);
        assert_eq!(nums[9], 0.3);
        assert_eq!(key_from_wire(&q, &nums), Ok(key.clone()));
        // without h and target: NaN on the wire, None back
        let p = params("");
        let key = quality_key(&step_report(&p).expect("the step"), &p);
        let (q, nums) = key_to_wire(&key);
        assert!(nums[1].is_nan() && nums[9].is_nan());
        assert_eq!(key_from_wire(&q, &nums), Ok(key));
    }

    #[test]
    fn a_bad_key_is_a_sentence() {
        let nums = [1.0; 10];
        let e = key_from_wire("steps=0", &nums).expect_err("steps=0");
        assert!(
            e.starts_with("The lab's parameters did not parse: steps:"),
            "{e}"
        );
        assert_eq!(
            key_from_wire("", &nums[..9]),
            Err("Expected 10 numbers (3 clocks and a target), got 9.".into())
        );
        let mut half = nums;
        half[4] = 2.5;
        assert_eq!(
            key_from_wire("", &half),
            Err("h must be a whole number of steps, got 2.5.".into())
        );
    }

    #[test]
    fn rows_cross_the_wire_as_laid_out() {
        let rows = vec![
            QualityRow {
                strategy: Strategy::AllReduce,
                points: vec![(0.0, 0.9), (0.25, 0.5)],
                steps_to_target: Some(1),
                seconds_to_target: Some(0.25),
            },
            QualityRow {
                strategy: Strategy::Local,
                points: vec![(0.0, 0.9)],
                steps_to_target: None,
                seconds_to_target: None,
            },
        ];
        let c = (0.4, 0.42, rows);
        let v = computed_to_wire(&c);
        let want = [
            0.4, 0.42, 0.0, 1.0, 0.25, 2.0, 0.0, 0.9, 0.25, 0.5, 2.0, -1.0,
        ];
        assert_eq!(&v[..12], &want);
        assert!(v[12].is_nan());
        assert_eq!(&v[13..], &[1.0, 0.0, 0.9]);
        assert_eq!(computed_from_wire(&v), Some(c));
        // cut short, or a strategy index that is not one: no rows at all
        assert_eq!(computed_from_wire(&v[..v.len() - 1]), None);
        let mut bad = v.clone();
        bad[2] = 3.0;
        assert_eq!(computed_from_wire(&bad), None);
        assert_eq!(computed_from_wire(&[]), None);
    }

    #[test]
    fn the_module_returns_the_run_of_the_key() {
        let p = params("steps=50");
        let key = quality_key(&step_report(&p).expect("the step"), &p);
        let (q, nums) = key_to_wire(&key);
        let got = computed_from_wire(&run_wire(&q, &nums).expect("the run")).expect("rows");
        let want = compute(&key).expect("the run");
        assert_eq!(got, want);
        assert_eq!(got.2.len(), 3);
        // 50 steps: 51 points (step 0 at 0 s) per strategy
        assert!(got.2.iter().all(|r| r.points.len() == 51));
    }
}

#[test]
fn a_measured_step_stands_beside_the_model() {
    use super::measured_line;
    // Case A: a 66 ms step, 40 ms of backward, so 26 ms exposed; measured
    // twice the step and half the exposed time.
    let p = params("measured=132ms,52ms");
    let r = step_report(&p).expect("the step");
    assert_eq!(
        measured_line(&r, &p).expect("a line"),
        "Measured (the trace's step): 132.0 ms with 52.00 ms of exposed communication. This model: 66.00 ms with 26.00 ms exposed. \
         Model ÷ measured: step 0.5×, exposed communication 0.5×. The measured step also holds what the model leaves out \
         (the optimizer, data loading, the profiler's own cost), and a collective's measured time includes waiting for the other ranks."
    );
    let p = params("measured=10ms,0ms");
    let line = measured_line(&step_report(&p).expect("the step"), &p).expect("a line");
    assert!(
        line.contains("step 6.6×, exposed communication – (none measured)."),
        "{line}"
    );
    assert_eq!(measured_line(&r, &params("")), None);
}
