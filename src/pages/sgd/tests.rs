//! The SGD page's calculator and run inputs against the course's numbers.

use super::{computing_text, objective_of, run_key, shard_rows};
use crate::core::sgd::Strategy;
use crate::params::sgd::SgdParams;

#[test]
fn the_course_table_weights_by_samples() {
    // 600, 300, 100 samples (N = 1000) with losses 0.2, 0.5, 0.9: the
    // global loss is 0.6 · 0.2 + 0.3 · 0.5 + 0.1 · 0.9 = 0.36; the plain
    // mean of the three is 1.6 / 3 ≈ 0.533.
    let p = SgdParams::default();
    assert_eq!(
        shard_rows(&p),
        vec![
            ("600".to_string(), "0.2".to_string()),
            ("300".to_string(), "0.5".to_string()),
            ("100".to_string(), "0.9".to_string()),
        ]
    );
    let o = objective_of(&p.shards, &p.losses).expect("the course table");
    assert_eq!(o.total, 1000);
    assert!((o.global_mean - 0.36).abs() < 1e-12, "{}", o.global_mean);
    assert!((o.plain_mean - 1.6 / 3.0).abs() < 1e-12);
    assert!(objective_of(&[600, 300], &[0.2]).is_err());
}

#[test]
fn the_run_ignores_the_step_the_mode_and_the_losses() {
    let p = SgdParams::default();
    let moved = SgdParams {
        step: 40,
        mode: Strategy::Local,
        losses: vec![1.0, 1.0, 1.0],
        ..p.clone()
    };
    assert_eq!(run_key(&moved), run_key(&p));
    assert_eq!(
        computing_text(&p),
        "200 training steps × 3 strategies (3 workers, 1000 samples, d = 2)"
    );
}
