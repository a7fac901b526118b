//! The ring page's run against hand-derived numbers, and its fast
//! numbers-only run against the drawn one (the slow oracle: every state
//! kept, contributor sets tracked).

use super::run::RingRun;

#[test]
fn four_ranks_of_eight_elements_by_hand() {
    // p = 4, 8 f32 elements: chunks of 2 elements (8 B). Inputs are
    // rank + 1, so the sum is 10 and the mean 2.5. 2 (p − 1) = 6 rounds
    // of 4 transfers; each rank sends one 8 B chunk per round, 48 B in all.
    let run = RingRun::execute(4, 8).expect("runs");
    assert!(matches!(run, RingRun::Drawn(_)));
    assert_eq!(run.inputs(), vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(run.sum(), 10.0);
    assert_eq!(run.mean(), 2.5);
    assert_eq!(run.rounds(), 6);
    assert_eq!(
        (
            run.transfers_in(0),
            run.transfers_in(1),
            run.transfers_in(7)
        ),
        (0, 4, 0)
    );
    assert_eq!(run.sent_after(6), vec![48; 4]);
    assert_eq!(run.recv_after(3), vec![24; 4]);
    assert!(run.verification().ok());
    // α = 1 µs, β = 1 ns/B: 6 rounds of α + 8 B · β.
    let (t, _) = run.time(1e-6, 1e-9);
    assert!((t - (6e-6 + 48e-9)).abs() < 1e-15, "{t}");
}

#[test]
fn the_streamed_run_answers_as_the_drawn_one() {
    // Uneven chunks (23 elements on 5 ranks: 5, 5, 5, 4, 4) and p = 7.
    for (p, n) in [(5, 23), (7, 7), (2, 1)] {
        let slow = RingRun::drawn(p, n).expect("drawn");
        let fast = RingRun::numbers(p, n).expect("numbers");
        assert!(matches!(fast, RingRun::Numbers(_)));
        assert_eq!(fast.rounds(), slow.rounds(), "p = {p}");
        assert_eq!(fast.inputs(), slow.inputs());
        assert_eq!(fast.sum(), slow.sum());
        assert_eq!(fast.mean(), slow.mean());
        for k in 0..=slow.rounds() + 1 {
            assert_eq!(fast.sent_after(k), slow.sent_after(k), "p = {p}, after {k}");
            assert_eq!(fast.recv_after(k), slow.recv_after(k));
            assert_eq!(fast.transfers_in(k), slow.transfers_in(k));
        }
        for i in 0..slow.rounds() {
            assert_eq!(fast.round_label(i), slow.round_label(i));
        }
        assert_eq!(fast.time(2e-6, 1e-10), slow.time(2e-6, 1e-10));
        assert_eq!(fast.verification().ok(), slow.verification().ok());
    }
}

#[test]
fn no_run_without_two_ranks_or_an_element() {
    assert!(RingRun::numbers(1, 8).is_none());
    assert!(RingRun::numbers(4, 0).is_none());
    assert!(RingRun::execute(1, 8).is_none());
}

#[test]
fn the_check_and_the_mean_step_in_words() {
    use super::{check, status};
    use crate::pages::common::check::Check;
    // p = 4, inputs 1, 2, 3, 4: the sum 10 and the mean 2.5.
    let run = RingRun::execute(4, 8).expect("runs");
    assert_eq!(check(&run, 5, false), Check::Pending { done: 5, rounds: 6 });
    assert_eq!(
        check(&run, 6, true),
        Check::Verified(
            "all 4 ranks hold the element-wise sum 1 + 2 + 3 + 4 = 10 in every element. Mean step: 10 / 4 = 2.5 on every rank."
                .into()
        )
    );
    let (label, text) = status(&run, 7, true, false);
    assert_eq!(label, "Mean: divide by p (local, no transfer)");
    assert_eq!(
        text,
        "Each rank divides its sum by p = 4 on its own: 10 / 4 = 2.5. No bytes move in this step."
    );
    assert_eq!(
        status(&run, 0, false, false).0,
        "Initial buffers (before round 1)"
    );
    // Above 8 ranks the sum is shortened: 1 + 2 + … + 16 = 136.
    let big = RingRun::execute(16, 16).expect("runs");
    match check(&big, 30, false) {
        Check::Verified(t) => assert!(t.contains("1 + 2 + … + 16 = 136"), "{t}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_streamed_run_executes_its_values_only_at_the_last_round() {
    use super::check;
    let run = RingRun::numbers(100, 200).expect("numbers");
    let RingRun::Numbers(s) = &run else {
        panic!("a numbers-only run")
    };
    let _ = check(&run, 3, false);
    assert!(
        s.executed().is_none(),
        "the check ran the values before the last round"
    );
    let _ = check(&run, run.rounds(), false);
    assert!(s.executed().is_some());
}
