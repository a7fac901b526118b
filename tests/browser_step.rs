//! In-browser tests of `?view=step`: cases A and B of issue 23, their
//! variants, and bad values (the numbers are derived in
//! `src/core/step/tests.rs`).
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const A: &str =
    "view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms";
const B: &str = "view=step&p=16&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms";

#[wasm_bindgen_test]
async fn case_a_numbers() {
    let app = Mounted::new(A).await;
    assert_eq!(app.text("#step-time"), "66.00 ms");
    assert_eq!(app.text("#compute-time"), "40.00 ms");
    assert_eq!(app.text("#exposed-time"), "26.00 ms");
    assert_eq!(app.text("#bucket-count"), "4");
    assert_eq!(app.text("#no-overlap"), "96.00 ms");
    assert_eq!(app.count("#step-chart .st-ar"), 4);
    // the first bucket is layer 4 alone (it becomes ready first)
    let t = app.text("#step-chart");
    assert!(t.contains("bucket 1 (layer 4, 100 MB)"), "{t}");
    assert!(app.text("#strategy-gossip").contains("64.00 ms"));
    assert!(app.text("#strategy-allreduce").contains("66.00 ms"));
}

#[wasm_bindgen_test]
async fn case_a_variants() {
    let app = Mounted::new(&format!("{A}&straggler=3:0.5")).await;
    assert_eq!(app.text("#step-time"), "94.00 ms");
    assert!(app.text("#straggler-allreduce").contains("94.00 ms"));
    assert_eq!(app.count("#gossip-steps tbody tr"), 16);
    let app = Mounted::new(&format!("{A}&mode=gossip&graph=ring")).await;
    assert!(app.text("#strategy-gossip").contains("64.00 ms"));
    let app = Mounted::new(&format!("{A}&mode=local&h=4")).await;
    assert!(
        app.text("#strategy-local").contains("54.00 ms"),
        "{}",
        app.text("#strategy-local")
    );
    let app = Mounted::new(&format!("{A}&overlap=0")).await;
    assert_eq!(app.text("#step-time"), "96.00 ms");
}

#[wasm_bindgen_test]
async fn case_b_numbers_and_tuner() {
    let app = Mounted::new(B).await;
    assert_eq!(app.text("#step-time"), "97.40 ms");
    assert_eq!(app.text("#exposed-time"), "22.40 ms");
    assert_eq!(app.text("#bucket-count"), "16");
    assert_eq!(app.text("#no-overlap"), "144.6 ms");
    app.until_idle().await;
    let best = app.text("#tuner-best");
    assert!(best.contains("Best cap 32 MiB: 96.00 ms"), "{best}");
    assert!(best.contains("1.400 ms less"), "{best}");
}

#[wasm_bindgen_test]
async fn bad_values_show_a_message_and_keep_the_last_good_state() {
    let app = Mounted::new(A).await;
    for (name, bad, says) in [
        ("params", "-1", "negative"),
        ("bucket", "0", "above 0"),
        ("straggler", "99:0.5", "rank 99"),
        ("fail", "3@-1", "step number"),
    ] {
        set_field(&app, name, bad).await;
        let msg = app.text(&format!("#f-{name}-err"));
        assert!(msg.contains(says), "{name}={bad}: {msg}");
        assert_eq!(app.text("#step-time"), "66.00 ms", "{name}");
    }
    let app = Mounted::new(&format!("{A}&params=25MB")).await;
    assert!(app.text("#f-params-err").contains("count of parameters"));
    assert_eq!(app.text("#step-time"), "66.00 ms");
    // the menus say so too when the URL names no option of theirs
    let app = Mounted::new(&format!("{A}&dtype=int8&overlap=2&mode=nope")).await;
    for (name, says) in [("dtype", "int8"), ("overlap", "2"), ("mode", "nope")] {
        let msg = app.text(&format!("#f-{name}-err"));
        assert!(msg.contains(says), "{name}: {msg}");
    }
    assert_eq!(app.text("#step-time"), "66.00 ms");
}

#[wasm_bindgen_test]
async fn a_failure_and_time_to_quality() {
    let app = Mounted::new(&format!("{A}&fail=3@25&ckpt=10&restart=30s")).await;
    let f = app.text("#failure-allreduce");
    assert!(f.contains("5 steps are lost"), "{f}");
    assert!(app.count("#survivors-connected") == 1);
    // the time-to-quality run comes after the first paint
    app.until_computed().await;
    assert_eq!(app.count("#quality-table tbody tr"), 3);
}
