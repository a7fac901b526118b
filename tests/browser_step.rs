//! In-browser tests of `?view=step`: cases A and B of issue 23, their
//! variants, case S of issue 36 (ZeRO-2, FSDP and the memory per rank),
//! and bad values (the numbers are derived in `src/core/step/tests.rs`).
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const A: &str =
    "view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms";
const S: &str =
    "view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms";
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

#[wasm_bindgen_test]
async fn case_s_fsdp_zero2_and_memory() {
    let app = Mounted::new(&format!("{S}&mode=allreduce")).await;
    assert_eq!(app.text("#step-time"), "67.00 ms");
    assert_eq!(app.text("#bucket-count"), "4");
    let app = Mounted::new(&format!("{S}&mode=fsdp")).await;
    assert_eq!(app.text("#step-time"), "70.50 ms");
    assert_eq!(app.text("#compute-time"), "60.00 ms");
    assert_eq!(app.text("#exposed-time"), "10.50 ms");
    assert_eq!(app.text("#bucket-count"), "12");
    // every all-gather and reduce-scatter 3.500 ms, in its own colour
    for class in ["st-agf", "st-agb", "st-rs"] {
        assert_eq!(app.count(&format!("#step-chart .{class}")), 4, "{class}");
    }
    assert_eq!(app.count("#step-chart .st-ar"), 0);
    let chart = app.text("#step-chart");
    for (what, t) in [
        (
            "all-gather before forward, layer 1 (50 MB)",
            "0 s – 3.500 ms",
        ),
        (
            "all-gather before backward, layer 4 (50 MB)",
            "23.50 ms – 27.00 ms",
        ),
        ("reduce-scatter, layer 1 (50 MB)", "67.00 ms – 70.50 ms"),
    ] {
        assert!(
            chart.contains(&format!("{what}: issued")),
            "{what}: {chart}"
        );
        assert!(chart.contains(t), "{t}: {chart}");
    }
    let legend = app.text("#step-chart .st-legend");
    assert!(legend.contains("all-gather before backward"), "{legend}");
    assert!(app
        .text("#timeline")
        .contains("fwd= is split evenly over the layers: 5.000 ms each"));
    // the memory panel: the four side by side, with step time and bytes
    for (id, mem) in [
        ("ddp", "1.600 GB"),
        ("zero1", "550.0 MB"),
        ("zero2", "375.0 MB"),
        ("zero3", "200.0 MB"),
        ("fsdp", "FSDP: + 50.00 MB = 250.0 MB"),
    ] {
        assert_eq!(app.text(&format!("#mem-{id}")), mem, "{id}");
    }
    assert_eq!(app.text("#time-ddp"), "67.00 ms");
    assert_eq!(app.text("#time-zero2"), "77.50 ms");
    assert_eq!(app.text("#time-fsdp"), "70.50 ms");
    assert_eq!(app.text("#sent-ddp"), "350 MB");
    assert_eq!(app.text("#sent-fsdp"), "525 MB (1.5 × DDP)");
    assert_eq!(app.count("#sharding-zero3.winner"), 1);
    // FSDP's step does not depend on the bucket cap
    assert!(app.text("#tuner-best").contains("70.50 ms at every cap"));
    let app = Mounted::new(&format!("{S}&mode=zero2")).await;
    assert_eq!(app.text("#step-time"), "77.50 ms");
    assert_eq!(app.text("#exposed-time"), "17.50 ms");
    assert_eq!(app.count("#step-chart .st-rs"), 4);
    assert_eq!(app.count("#step-chart .st-agp"), 1);
    assert!(app
        .text("#step-chart")
        .contains("all-gather of the updated parameters, layers 1–4 (200 MB)"));
    // Ψ = 1B at p = 16
    let app = Mounted::new(&format!("{S}&p=16&layers=1&params=1B&mode=fsdp")).await;
    for (id, mem) in [
        ("ddp", "16.00 GB"),
        ("zero1", "4.750 GB"),
        ("zero2", "2.875 GB"),
    ] {
        assert_eq!(app.text(&format!("#mem-{id}")), mem, "{id}");
    }
    assert_eq!(app.text("#mem-zero3"), "1.000 GB");
}

#[wasm_bindgen_test]
async fn sharded_modes_say_what_they_cannot_do() {
    let app = Mounted::new(&format!("{S}&mode=fsdp")).await;
    set_field(&app, "optim", "-1").await;
    let msg = app.text("#f-optim-err");
    assert!(msg.contains("optimizer state"), "{msg}");
    assert_eq!(app.text("#step-time"), "70.50 ms");
    assert_eq!(app.text("#mem-ddp"), "1.600 GB");
    // K = 0 (plain SGD): DDP 4Ψ = 400 MB
    set_field(&app, "optim", "0").await;
    assert_eq!(app.text("#mem-ddp"), "400.0 MB");
    // a tree has no reduce-scatter and all-gather: a message, and DDP's step
    let app = Mounted::new(&format!("{S}&mode=fsdp&alg=tree")).await;
    assert!(
        app.text("#sharding-error").contains("alg=tree"),
        "{}",
        app.text("#sharding-error")
    );
    assert_eq!(app.count("#step-chart .st-ar"), 4);
    assert_eq!(app.text("#time-fsdp"), "—");
    // an unknown mode: the menu says so, and the step stays DDP's
    let app = Mounted::new(&format!("{S}&mode=zero9")).await;
    assert!(app.text("#f-mode-err").contains("zero9"));
    assert_eq!(app.text("#step-time"), "67.00 ms");
}
