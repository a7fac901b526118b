//! In-browser tests (wasm-bindgen-test in headless Chromium): mount the app
//! with URL parameters into a fresh element, drive it with clicks and keys,
//! wait for Yew's scheduler to flush, and read the DOM.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn ring_p4_runs_to_150_mb_and_verifies() {
    let app = Mounted::new("view=ring&p=4&size=100MB").await;
    assert_eq!(app.count(".rank-ring g.rank"), 4, "4 ranks drawn");
    assert!(app.text("#phase").contains("Initial"));
    assert_eq!(app.text("#sent-0"), "0 B");
    assert!(app.text("#total").ends_with(" sent. Nothing sent yet."));
    app.click("button[aria-label='Last step']").await;
    assert_eq!(app.text("#phase"), "all-gather, round 3 of 3");
    for r in 0..4 {
        assert_eq!(app.text(&format!("#sent-{r}")), "150 MB");
    }
    assert!(app
        .text("#check")
        .contains("Verified: all 4 ranks hold the element-wise sum 1 + 2 + 3 + 4 = 10"));
    assert!(app.text("#total").contains("2 × 3/4 × 100 MB = 150 MB"));
}

#[wasm_bindgen_test]
async fn ring_keyboard_steps() {
    let app = Mounted::new("view=ring&p=4&size=100MB").await;
    app.key("ArrowRight").await;
    assert_eq!(app.text("#phase"), "reduce-scatter, round 1 of 3");
    assert_eq!(app.text("#sent-0"), "25 MB");
    // rank 3 → rank 0 adds chunk 3: 4 + 1 = 5.
    assert!(app
        .text(".log")
        .contains("rank 3 → rank 0: chunk 3, 25 MB, 4 + 1 = 5"));
    app.key("End").await;
    assert_eq!(app.text("#sent-0"), "150 MB");
    app.key("ArrowLeft").await;
    assert_eq!(app.text("#phase"), "all-gather, round 2 of 3");
    app.key("Home").await;
    assert!(app.text("#phase").contains("Initial"));
}

#[wasm_bindgen_test]
async fn ring_comparison_matches_the_seed() {
    let app = Mounted::new("view=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us").await;
    assert_eq!(app.text("#ring-time"), "12.00 ms");
    assert_eq!(app.text("#naive-time"), "48.00 ms");
}

#[wasm_bindgen_test]
async fn ring_mean_step_divides_by_p() {
    let app = Mounted::new("view=ring&p=3&size=12B&mean=1&step=5").await;
    assert!(app.text("#phase").contains("Mean"));
    assert!(app.text("#check").contains("6 / 3 = 2"));
}

#[wasm_bindgen_test]
async fn bad_parameters_show_messages_and_keep_a_valid_view() {
    for bad in ["p=abc", "p=1", "p=100000", "size=-3MB", "size=12parsecs"] {
        let app = Mounted::new(&format!("view=ring&{bad}")).await;
        assert!(app.count(".field-error") >= 1, "{bad}: inline message");
        assert_eq!(
            app.count(".rank-ring g.rank"),
            4,
            "{bad}: default ring still drawn"
        );
    }
}

#[wasm_bindgen_test]
async fn typing_a_bad_size_keeps_the_last_good_state() {
    let app = Mounted::new("view=ring&p=4&size=100MB&step=6").await;
    set_field(&app, "size", "12parsecs").await;
    assert!(app.text(".field.invalid .field-error").contains("parsecs"));
    assert_eq!(app.text("#sent-0"), "150 MB", "last good state stays");
    set_field(&app, "size", "64MB").await;
    assert_eq!(app.count(".field.invalid"), 0);
    assert_eq!(app.text("#sent-0"), "96 MB");
    set_field(&app, "p", "8").await;
    assert_eq!(app.count(".rank-ring g.rank"), 8);
}

#[wasm_bindgen_test]
async fn large_p_is_numbers_only() {
    let app = Mounted::new("view=ring&p=128&size=1MB&step=254").await;
    assert_eq!(app.count(".rank-ring"), 0);
    assert!(app.text(".notice").contains("not drawn"));
    assert!(app.text("#check").contains("Verified: all 128 ranks"));
}

/// Attribute `name` of the first match of `selector`, or "".
fn attr(app: &Mounted, selector: &str, name: &str) -> String {
    app.root
        .query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.get_attribute(name))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn chunk_grid_canvas_from_33_to_256_ranks() {
    let app = Mounted::new("view=ring&p=128&size=1MB&step=3").await;
    assert_eq!(app.count(".chunk-grid canvas[role='img']"), 1);
    assert_eq!(
        attr(&app, ".chunk-grid canvas", "width"),
        "768",
        "6 px × 128"
    );
    let label = attr(&app, ".chunk-grid canvas", "aria-label");
    assert!(
        label.contains(
            "128 ranks × 128 chunks after 3 of 254 rounds (reduce-scatter, round 3 of 127)"
        ),
        "{label}"
    );
    let legend = app.text(".chunk-grid .legend");
    assert!(
        legend.contains("own data only") && legend.contains("complete sum"),
        "{legend}"
    );
    // own data has the lightest colour alone; partial sums of 2 … 127 ranks
    // take five bins: 1 + ⌊(c − 2)·5 / 126⌋ is 1 up to c = 27, 2 from c = 28
    assert!(
        legend.contains("1 rank: own data only")
            && legend.contains("2–27 ranks")
            && legend.contains("28–52 ranks"),
        "{legend}"
    );
    assert!(app.text("#check").contains("3 of 254"), "numbers stay");
    app.key("ArrowRight").await;
    let label = attr(&app, ".chunk-grid canvas", "aria-label");
    assert!(label.contains("after 4 of 254 rounds"), "{label}");
    drop(app);
    let app = Mounted::new("view=ring&p=257&size=1MB").await;
    assert_eq!(app.count("canvas"), 0, "numbers only above 256");
    assert!(app.text(".notice").contains("above 256"));
    assert!(app.text("#check").contains("0 of 512 rounds"));
}

// A step button just clicked keeps the focus; the arrows still step, and
// space stays the button's own key.
#[wasm_bindgen_test]
async fn arrow_keys_step_while_a_step_button_has_focus() {
    let app = Mounted::new("view=ring&p=4").await;
    app.click("button[aria-label='Step forward']").await;
    assert_eq!(app.text("#phase"), "reduce-scatter, round 1 of 3");
    app.key_on("button[aria-label='Step forward']", "ArrowRight")
        .await;
    assert_eq!(app.text("#phase"), "reduce-scatter, round 2 of 3");
    app.key_on("button[aria-label='Step forward']", "Home")
        .await;
    assert_eq!(app.text("#phase"), "Initial buffers (before round 1)");
    app.key_on("button[aria-label='Play']", " ").await;
    assert_eq!(
        attr(&app, "button[aria-label='Play']", "aria-pressed"),
        "false"
    );
}

// Above 8 ranks the ring's cells are colour only, so the colour must tell
// a partial sum from a rank's own data however large p is.
#[wasm_bindgen_test]
async fn partial_sums_never_share_the_own_data_colour() {
    let app = Mounted::new("view=ring&p=16&size=1MB&step=2").await;
    assert_eq!(app.text("#phase"), "reduce-scatter, round 2 of 15");
    // after 2 rounds each rank holds chunks of 1, 2 and 3 ranks' inputs:
    // own data #fde725, and 2 or 3 ranks 1 + ⌊(c − 2)·5 / 14⌋ = 1: #b5de2b
    assert_eq!(app.count(r##".rank-ring path[style^="fill:#fde725"]"##), 1);
    assert_eq!(app.count(r##".rank-ring path[style^="fill:#b5de2b"]"##), 1);
    assert_eq!(app.count(r##".rank-ring path[style^="fill:#6ece58"]"##), 0);
}

#[wasm_bindgen_test]
async fn ring_p1024_counts_first_and_verifies_at_the_last_step() {
    let app = Mounted::new("view=ring&p=1024&size=4MB").await;
    // p = 1024 is counted before the first paint (core::work: about 15 ms)
    assert!(!app.busy());
    assert_eq!(app.count("canvas"), 0, "numbers only");
    assert!(app.text("#check").contains("0 of 2046 rounds"));
    app.key("ArrowRight").await;
    // round 1: every rank sends one chunk of 1,000,000 / 1024 elements
    // (977 or 976 of them, 4 B each): rank 0 sends chunk 0, 3,908 B
    assert_eq!(app.text("#sent-0"), "3.908 kB");
    app.click("button[aria-label='Last step']").await;
    // the values run after a paint (core::work::ring_values: about 170 ms)
    assert!(app
        .text("#check")
        .starts_with("Checking: executing the values of 2046 rounds"));
    app.until_idle().await;
    assert!(
        app.text("#check").contains("Verified: all 1024 ranks"),
        "{}",
        app.text("#check")
    );
}
