//! The gossip page's run and words against a hand-computed round.

use super::{base_run, extended, narrate, without_round};
use crate::core::units::format_exact_or_approx;
use crate::params::gossip::GossipParams;

#[test]
fn one_round_of_the_course_ring_by_hand() {
    // Ring of 4, uniform weights 1/3 (self and both neighbours), values
    // 0, 3, 6, 9: round 1 gives (9 + 0 + 3)/3 = 4, (0 + 3 + 6)/3 = 3,
    // (3 + 6 + 9)/3 = 6, (6 + 9 + 0)/3 = 5. The mean stays 4.5; the
    // deviations −0.5, −1.5, 1.5, 0.5 give a disagreement of √5.
    let run = base_run(&GossipParams::default()).expect("runs");
    assert_eq!(run.rounds[0].values, vec![0.0, 3.0, 6.0, 9.0]);
    let r1 = &run.rounds[1].values;
    for (got, want) in r1.iter().zip([4.0, 3.0, 6.0, 5.0]) {
        assert!((got - want).abs() < 1e-12, "{r1:?}");
    }
    let text = narrate(&run, 1, 0);
    assert!(text.starts_with("Round 1: "), "{text}");
    assert!(
        text.contains("Every node used the round-0 values at once; the mean is 4.5"),
        "{text}"
    );
    assert!(
        text.contains(&format_exact_or_approx(5f64.sqrt())),
        "{text}"
    );
    assert!(narrate(&run, 0, 2)
        .starts_with("Round 0: the initial values. In round 1 every node averages"));
    assert_eq!(narrate(&run, run.rounds.len(), 0), "");
}

#[test]
fn stepping_past_the_horizon_extends_a_copy() {
    let run = base_run(&GossipParams::default()).expect("runs");
    let have = run.rounds.len();
    assert!(extended(&run, have - 1).is_none());
    let longer = extended(&run, have + 3).expect("longer");
    assert_eq!(longer.rounds.len(), have + 4);
    assert_eq!(run.rounds.len(), have, "the base run is unchanged");
    let moved = GossipParams {
        round: 7,
        ..GossipParams::default()
    };
    assert_eq!(without_round(&moved), GossipParams::default());
}
