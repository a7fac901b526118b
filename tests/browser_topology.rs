//! In-browser tests of `?view=topology` (issue 10): mount the app with URL
//! parameters, step through the executed schedule, and read the DOM.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, sleep, url_written, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn multilane_course_numbers_250_mb_per_lane_20_ms_vs_80_ms() {
    let app = Mounted::new(
        "view=topology&alg=multilane&nodes=2&gpus=4&lanes=4&size=1GB&inter_bw=12.5GB/s&inter_alpha=0us",
    )
    .await;
    let c = app.text("#course-multilane");
    assert!(
        c.contains("1 GB over 4 lanes of 12.5 GB/s: 250 MB per lane"),
        "{c}"
    );
    assert!(c.contains("= 20.00 ms"), "{c}");
    assert!(
        c.contains("Single lane: 1 GB ÷ 12.5 GB/s = 80.00 ms"),
        "{c}"
    );
    assert!(
        c.contains("sustain their bandwidth at the same time"),
        "{c}"
    );
    // 2 nodes × 4 ranks drawn, 4 NICs per node.
    assert_eq!(app.count(".topo-full g.rank"), 8);
    assert_eq!(app.count(".topo-full g.nic"), 8);
    assert!(app.text("#phase").contains("initial buffers"));
    // Round 4 is the inter-node reduce-scatter: 8 transfers, one per NIC
    // direction, 125 MB each; every NIC has moved 125 MB out and 125 MB in.
    for _ in 0..4 {
        app.key("ArrowRight").await;
    }
    assert!(app.text("#phase").starts_with("inter-node reduce-scatter"));
    assert_eq!(app.count(".topo-full g.arrow.nic"), 8);
    assert_eq!(app.text("#nic-1-3 td:nth-child(2)"), "125 MB");
    assert_eq!(app.text("#nic-1-3 td:nth-child(4)"), "125 MB");
    assert!(app.text("#topo-full-nic-0-2").contains("Σ 250 MB"));
}

#[wasm_bindgen_test]
async fn flex_steps_through_phases_with_per_worker_counts() {
    let app = Mounted::new("view=topology&alg=flex&groups=2,3&n=12").await;
    assert_eq!(app.count(".topo-full g.rank"), 5);
    assert!(app.text("#phase").contains("initial buffers"));
    app.key("ArrowRight").await;
    assert_eq!(
        app.text("#phase"),
        "reduce-scatter inside each subtree, round 1 of 2"
    );
    app.click("button[aria-label='Step forward']").await;
    app.click("button[aria-label='Step forward']").await;
    assert!(app
        .text("#phase")
        .starts_with("cross-subtree exchange: fetch the other subtree's partial sums"));
    // 6 partial-sum entries of 4 B cross each way over the NICs in this round.
    assert_eq!(app.count(".topo-full g.arrow.nic"), 8);
    // Per-worker counts (from the executed schedule).
    assert_eq!(app.text("#flex-0 td:nth-child(2)"), "6");
    assert_eq!(app.text("#flex-1 td:nth-child(2)"), "6");
    assert_eq!(app.text("#flex-2 td:nth-child(2)"), "4");
    assert_eq!(app.text("#flex-0 td:nth-child(3)"), "3");
    assert_eq!(app.text("#flex-4 td:nth-child(3)"), "2");
    let f = app.text("#flex-counts");
    assert!(
        f.contains("6 per worker in the 2-worker subtree, 4 per worker in the 3-worker subtree"),
        "{f}"
    );
    assert!(
        f.contains("3 per worker in the 2-worker subtree, 2 per worker in the 3-worker subtree"),
        "{f}"
    );
    assert!(f.contains("6 entries in each direction"), "{f}");
    app.key("End").await;
    assert_eq!(
        app.text("#phase"),
        "all-gather inside each subtree, round 2 of 2"
    );
    assert!(app
        .text("#check")
        .contains("Verified: all 5 ranks hold the element-wise sum 15"));
    app.key("Home").await;
    assert!(app.text("#phase").contains("initial buffers"));
}

#[wasm_bindgen_test]
async fn rat_shows_core_bytes_of_rat_and_the_flat_ring() {
    let app = Mounted::new("view=topology&alg=rat&racks=2&gpus=4").await;
    assert_eq!(app.count(".topo-full g.rack"), 2);
    assert_eq!(app.count(".topo-full g.core"), 1);
    let c = app.text("#course-rat");
    // 64 MB: RAT sends each rack aggregate across and the result back
    // (2 × 64 MB); the flat ring crosses twice per round, 14 rounds × 2 × 8 MB.
    assert!(c.contains("RAT: 128 MB over the core in 8 messages"), "{c}");
    assert!(
        c.contains("Flat ring over all 8 ranks: 224 MB over the core in 28 messages"),
        "{c}"
    );
    assert_eq!(app.text("#row-rat .core"), "128 MB");
    assert_eq!(app.text("#row-flat .core"), "224 MB");
    assert!(!app.text("#bottleneck").is_empty());
}

#[wasm_bindgen_test]
async fn url_round_trip_and_row_switch() {
    let app = Mounted::new(
        "view=topology&alg=rat&nodes=4&gpus=2&racks=2&size=64MiB&inter_bw=100Gb/s&step=3",
    )
    .await;
    url_written().await;
    let s = search();
    for part in [
        "view=topology",
        "alg=rat",
        "nodes=4",
        "gpus=2",
        "racks=2",
        "size=64MiB",
        "inter_bw=100Gb%2Fs",
        "step=3",
    ] {
        assert!(s.contains(part), "{part} missing from {s}");
    }
    assert!(app
        .text("#phase")
        .starts_with("reduce-scatter inside each rack"));
    // Picking the flat ring row switches the algorithm and the URL.
    app.click("#row-flat button").await;
    url_written().await;
    assert!(search().contains("alg=flat"), "{}", search());
    assert!(app.text("#phase").contains("initial buffers"));
    // A preset fills the URL.
    app.click("#preset-course-flex").await;
    url_written().await;
    let s = search();
    assert!(
        s.contains("alg=flex") && s.contains("groups=2%2C3") && s.contains("n=12"),
        "{s}"
    );
}

#[wasm_bindgen_test]
async fn bad_values_keep_the_last_good_state() {
    let app = Mounted::new("view=topology&nodes=2&gpus=4&lanes=9").await;
    assert!(app.text(".field-error").contains("lanes"));
    assert_eq!(app.count(".topo-full g.rank"), 8);
    set_field(&app, "gpus", "abc").await;
    assert!(app
        .text("#f-gpus-err")
        .contains("whole number from 1 to 16"));
    assert_eq!(app.count(".topo-full g.rank"), 8, "last good shape stays");
    set_field(&app, "racks", "3").await;
    assert!(app.text("#f-racks-err").contains("divide the 2 nodes"));
    set_field(&app, "gpus", "2").await;
    assert_eq!(app.count(".topo-full g.rank"), 4);
    url_written().await;
    assert!(search().contains("gpus=2"));
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// 8 nodes × 8 GPUs: the compact picture (nodes and NICs, no rank circles),
/// and a measurement (logged, not asserted) of the time to open the view
/// and to render one step.
#[wasm_bindgen_test]
async fn eight_by_eight_is_compact_and_steps() {
    let t0 = now_ms();
    let app = Mounted::new(
        "view=topology&alg=multilane&nodes=8&gpus=8&lanes=8&racks=2&size=64MB&inter_bw=50GB/s",
    )
    .await;
    let opened = now_ms() - t0;
    assert_eq!(app.count(".topo-full"), 0, "64 ranks: compact only");
    assert_eq!(app.count(".topo-small g.node"), 8);
    assert_eq!(app.count(".topo-small g.nic"), 64);
    assert_eq!(app.count(".topo-small g.rank"), 0);
    assert_eq!(app.count("#ranks tbody tr"), 32, "numbers stay in tables");
    let t1 = now_ms();
    let steps = 10;
    for _ in 0..steps {
        app.key("ArrowRight").await;
    }
    let per_step = (now_ms() - t1) / f64::from(steps);
    assert!(app.text("#phase").contains("round"));
    assert!(app.count(".topo-small g.arrow") > 0);
    wasm_bindgen_test::console_log!(
        "topology 8×8: open {opened:.1} ms, one step {per_step:.2} ms (this build profile)"
    );
}

#[wasm_bindgen_test]
async fn an_algorithm_that_does_not_fit_says_why_and_the_page_stays() {
    // Multi-lane needs equal nodes; on subtrees of 2 and 3 it cannot run.
    let app = Mounted::new("view=topology&alg=multilane&groups=2,3&n=12").await;
    let err = app.text("#run-error");
    assert!(err.contains("cannot run on this topology"), "{err}");
    assert!(err.contains("nodes of equal size"), "{err}");
    assert!(app
        .text("#row-multilane .time")
        .starts_with("does not apply"));
    // Other rows still run, and picking one brings the picture back.
    assert!(app.text("#row-flex .time").ends_with("µs"));
    app.click("#row-flex button").await;
    assert_eq!(app.count("#run-error"), 0);
    assert_eq!(app.count(".topo-full g.rank"), 5);
    assert!(app.text("#phase").contains("initial buffers"));
}

/// The reducer alone: one way of committing a field, bad text kept as a
/// draft with its message, the step reset by new schedules. (The page
/// clamps a step to the schedule's last before it commits it: the reducer
/// does not know the schedule.)
#[wasm_bindgen_test]
fn reducer_commits_rejects_and_clamps() {
    use collective_lab::app::state::{Action, ViewState};
    use collective_lab::params::topology::{named, TopologyParams, PRESETS};
    use collective_lab::params::Query;
    use std::rc::Rc;
    use yew::Reducible;

    type TopoState = ViewState<TopologyParams>;
    let s = Rc::new(TopoState::from_query(&Query::parse("gpus=4&step=2")));
    assert_eq!(s.params.step, 2);
    let s = s.reduce(Action::field("gpus", "x"));
    assert_eq!(s.params.gpus, 4, "last good value stays");
    assert!(s.drafts.error("gpus").is_some());
    assert_eq!(s.drafts.text_or("gpus", "4"), "x");
    let s = s.reduce(Action::field("inter_bw", "100Gb/s"));
    assert_eq!(s.params.step, 2, "link figures keep the step");
    let s = s.reduce(Action::field("gpus", "8"));
    assert_eq!(
        (s.params.gpus, s.params.step),
        (8, 0),
        "a new shape restarts"
    );
    assert!(s.drafts.error("gpus").is_none());
    let s = s.reduce(Action::field("step", "6"));
    assert_eq!(s.params.step, 6);
    let s = s.reduce(Action::field("alg", named("flat").topology_info().key));
    assert_eq!((s.params.alg, s.params.step), (named("flat"), 0));
    let s = s.reduce(Action::field("racks", "3"));
    assert!(s.drafts.error("racks").is_some());
    let s = s.reduce(Action::field("preset", PRESETS[1].id));
    assert_eq!(s.params.node_sizes(), vec![2, 3]);
    assert!(
        s.drafts.error("racks").is_none(),
        "a preset clears the drafts"
    );
}

/// The keys follow the current schedule: flat ring on 2 × 2 GPUs has
/// 2(p − 1) = 6 rounds; on 8 × 2 (p = 16) it has 2 · 15 = 30, and End and →
/// reach them (the keyboard handler once kept the first callback, which
/// clamped every step to the first schedule's 6 rounds).
#[wasm_bindgen_test]
async fn end_and_arrow_keys_follow_a_new_schedule() {
    let app = Mounted::new("view=topology&alg=flat&nodes=2&gpus=2").await;
    app.key("End").await;
    assert!(app.text(".step-controls .scrub span").contains("6 of 6"));
    set_field(&app, "nodes", "8").await;
    app.until_computed().await;
    // The new schedule may still be running in a later task: wait for it.
    for _ in 0..3000 {
        if app.text(".step-controls .scrub span").ends_with("of 30") {
            break;
        }
        sleep(20).await;
    }
    app.key("End").await;
    assert!(
        app.text(".step-controls .scrub span").contains("30 of 30"),
        "{}",
        app.text(".step-controls .scrub span")
    );
    app.key("Home").await;
    app.key("ArrowRight").await;
    assert!(app.text(".step-controls .scrub span").contains("1 of 30"));
}
