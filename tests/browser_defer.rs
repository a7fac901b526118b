//! In-browser tests of first paint before computation
//! (`app::hooks::use_deferred`): a large case first shows the controls and
//! a "Computing …" placeholder marked `aria-busy`, then, after the browser
//! painted, the same content as a page that computed at once; a small case
//! shows its content in the first render.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{load_stylesheet, set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// True while the placeholder is on the page.
fn busy(app: &Mounted) -> bool {
    app.busy()
}

async fn until_ready(app: &Mounted) {
    app.until_computed().await;
}

// The large cases are the smallest the core defers (`core::work`): this
// suite runs the unoptimised debug build, tens of times slower than the
// release, and the test driver gives up on a page blocked for 30 s.

// The ring is never deferred any more (`core::work`: counting p = 1024
// takes about 15 ms in the release build), so its largest p paints with
// its numbers, like p = 64.
#[wasm_bindgen_test]
async fn ring_at_p_1024_shows_its_numbers_in_the_first_render() {
    let app = Mounted::new("view=ring&p=1024&size=64MB").await;
    assert!(!busy(&app));
    assert_eq!(app.count("#computing"), 0);
    assert_eq!(app.text("#phase"), "Initial buffers (before round 1)");
    let total = app.text("#total");
    assert!(total.contains("2 × 1023/1024 × 64 MB"), "{total}");
}

// Above the drawn size the ring runs its values only when a step shows
// them; from p = 434 (`core::work::ring_values`) that waits for a paint,
// behind a busy line in the check panel, and then checks the same sum.
#[wasm_bindgen_test]
async fn ring_at_p_434_executes_its_values_after_the_last_step_paints() {
    let app = Mounted::new("view=ring&p=434&size=1MB").await;
    assert!(!busy(&app));
    app.click("button[aria-label='Last step']").await;
    assert_eq!(app.count(r#"#check[aria-busy="true"]"#), 1);
    assert_eq!(
        app.text("#check"),
        "Checking: executing the values of 866 rounds on p = 434 ranks …"
    );
    assert_eq!(app.text("#phase"), "all-gather, round 433 of 433");
    app.until_idle().await;
    // 1 + 2 + … + 434 = 434 · 435 / 2 = 94,395
    assert_eq!(
        app.text("#check"),
        "✓ Verified: all 434 ranks hold the element-wise sum 1 + 2 + … + 434 = 94395 in every element."
    );
    assert!(app
        .text("#narration")
        .ends_with("Done: the result is verified on every rank."));
    // One step back shows counters only; the values stay executed.
    app.click("button[aria-label='Step back']").await;
    assert_eq!(app.text("#check"), "Not finished: 865 of 866 rounds run.");
    app.click("button[aria-label='Step forward']").await;
    assert_eq!(app.count(r#"[aria-busy="true"]"#), 0);
}

#[wasm_bindgen_test]
async fn ring_at_p_64_shows_its_content_in_the_first_render() {
    let app = Mounted::new("view=ring&p=64&size=64MB").await;
    assert!(!busy(&app));
    assert_eq!(app.count("#computing"), 0);
    assert_eq!(app.text("#phase"), "Initial buffers (before round 1)");
    assert!(app.text("#total").contains("2 × 63/64 × 64 MB"));
}

#[wasm_bindgen_test]
async fn the_newest_parameters_win_while_work_waits() {
    let app = Mounted::new("view=topology&nodes=9&gpus=8").await;
    assert!(busy(&app));
    // Changed before the first computation ran: 10 nodes are computed instead.
    set_field(&app, "nodes", "10").await;
    assert!(busy(&app));
    let line = app.text("#computing");
    assert!(line.contains("on p = 80 ranks (10 nodes)"), "{line}");
    until_ready(&app).await;
    let caption = app.text("figcaption");
    assert!(caption.contains("on 10 nodes (80 ranks"), "{caption}");
    // Back to a small case: computed at once.
    set_field(&app, "nodes", "2").await;
    assert!(!busy(&app));
    let caption = app.text("figcaption");
    assert!(caption.contains("on 2 nodes (16 ranks"), "{caption}");
}

#[wasm_bindgen_test]
async fn topology_of_72_ranks_paints_the_placeholder_then_the_rounds() {
    let app = Mounted::new("view=topology&nodes=9&gpus=8&step=2").await;
    assert!(busy(&app));
    let line = app.text("#computing");
    assert!(
        line.starts_with("Computing the hierarchical (ring among leaders) all-reduce of"),
        "{line}"
    );
    assert!(line.contains("on p = 72 ranks (9 nodes)"), "{line}");
    until_ready(&app).await;
    // The step from the URL survives the wait (it is not clamped to 0).
    let phase = app.text("#phase");
    assert!(
        !phase.is_empty() && !phase.contains("initial buffers"),
        "{phase}"
    );
    assert_eq!(app.count(r#"[aria-busy="true"]"#), 0);
}

#[wasm_bindgen_test]
async fn sgd_defaults_show_the_training_at_once() {
    let app = Mounted::new("view=sgd").await;
    assert!(!busy(&app));
    assert_eq!(
        app.text("#phase"),
        "Step 200 of 200 · narrating all-reduce SGD"
    );
}

#[wasm_bindgen_test]
async fn sgd_with_32_workers_paints_the_placeholder_then_the_training() {
    let shards: Vec<String> = (1..=32).map(|k| (100 * k).to_string()).collect();
    let losses = vec!["0.5"; 32].join(",");
    let app = Mounted::new(&format!(
        "view=sgd&shards={}&losses={losses}&d=10&steps=1000",
        shards.join(",")
    ))
    .await;
    assert!(busy(&app));
    // 100 + 200 + … + 3200 = 52,800 samples
    assert_eq!(
        app.text("#computing .computing-line"),
        "Computing 1000 training steps × 3 strategies (32 workers, 52800 samples, d = 10) …"
    );
    // The shard calculator and the controls are there at once.
    assert_eq!(app.count("#f-steps"), 1);
    until_ready(&app).await;
    assert_eq!(
        app.text("#phase"),
        "Step 1000 of 1000 · narrating all-reduce SGD"
    );
    // sample-weight bars + loss, consensus, loss-vs-bytes (trajectories
    // are drawn for d = 2 only); the last three with the step's marks in a
    // second SVG
    assert_eq!(app.count(".view-sgd .chart-box"), 4);
    assert_eq!(app.count(".view-sgd .chart-box svg"), 7);
}

/// The large SGD case of `browser_layout.rs`, which now paints the
/// placeholder first: once ready, the page still fits a 375 px phone.
#[wasm_bindgen_test]
async fn sgd_with_12_workers_fits_a_phone_once_ready() {
    load_stylesheet();
    let app = Mounted::new(
        "view=sgd&shards=900,800,700,600,500,400,300,200,100,90,80,70&\
         losses=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2&steps=1000",
    )
    .await;
    assert!(busy(&app));
    until_ready(&app).await;
    assert_eq!(
        app.text("#phase"),
        "Step 1000 of 1000 · narrating all-reduce SGD"
    );
    app.root
        .set_attribute("style", "width:375px")
        .expect("style");
    let (scroll, client) = (app.root.scroll_width(), app.root.client_width());
    assert!(
        scroll <= client + 1,
        "scrollWidth {scroll} > clientWidth {client}"
    );
}

// No gossip view the parameters allow is deferred any more (`core::work`:
// the structured and Lanczos spectra made p = 1024 take about 17 ms).
#[wasm_bindgen_test]
async fn gossip_on_1024_nodes_shows_its_rounds_at_once() {
    let app = Mounted::new("view=gossip&graph=random&p=1024").await;
    assert!(!busy(&app));
    assert_eq!(app.count("#computing"), 0);
    assert!(app.text("#phase").contains("p = 1024"));
}

#[wasm_bindgen_test]
async fn gossip_on_64_nodes_shows_its_rounds_at_once() {
    let app = Mounted::new("view=gossip&graph=random&p=64").await;
    assert!(!busy(&app));
    assert!(app.text("#phase").contains("p = 64"));
}
