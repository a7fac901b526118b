//! In-browser tests of `?view=sgd`: mount the app with the documented
//! URL, read the calculator and the training numbers back from the DOM, step
//! with the shared controls, and check the inline messages for bad input.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const ISSUE_URL: &str =
    "view=sgd&shards=600,300,100&losses=0.2,0.5,0.9&mode=allreduce&iid=0&steps=200";

#[wasm_bindgen_test]
async fn issue_url_shows_the_course_numbers_and_the_plots() {
    let app = Mounted::new(ISSUE_URL).await;
    assert_eq!(app.text("#global-mean"), "0.36");
    assert_eq!(app.text("#plain-mean"), "≈ 0.5333");
    assert_eq!(app.text("#weight-2"), "0.1");
    assert!(app
        .text("#over-weighting")
        .starts_with("Shard 3 holds 10% of the samples"));
    assert!(app.text("#grad-unequal").contains("give 0.36"));
    // (0.2 + 0.5 + 0.9) / 3 = 0.5333…: approximate, so "≈" and not "= ≈"
    assert!(app
        .text("#grad-equal")
        .ends_with("weights every worker 1/3: Σ g_k / 3 ≈ 0.5333."));
    // sample-weight bars + loss, consensus, loss-vs-bytes, trajectories;
    // the three charts against the step carry the step's marks in a second
    // SVG over the first
    assert_eq!(app.count(".view-sgd .chart-box"), 5);
    assert_eq!(app.count(".view-sgd .chart-box svg"), 8);
    assert_eq!(app.count(".view-sgd .chart-stack > svg + svg"), 3);
    assert_eq!(app.text("#identical-allreduce"), "yes (bit-identical)");
    assert_eq!(app.text("#consensus-allreduce"), "0");
    assert_eq!(app.text("#identical-gossip"), "no");
    assert_ne!(app.text("#consensus-gossip"), "0");
    assert!(app.text("#trap").contains("doubly stochastic"));
    assert!(app
        .text("#consensus-note")
        .contains("says nothing about which objective"));
}

#[wasm_bindgen_test]
async fn steps_with_the_shared_controls() {
    let app = Mounted::new(&format!("{ISSUE_URL}&step=0")).await;
    assert!(app.text("#narration").starts_with("Step 0: all 3 workers"));
    app.key("ArrowRight").await;
    let n = app.text("#narration");
    assert!(n.starts_with("Step 1:"), "{n}");
    assert!(n.contains("bit-identical"), "{n}");
    // d = 2 over 3 workers: chunks of 1, 1, 0 values; the busiest sends 3 × 4 B.
    assert!(n.contains("12 B sent by the busiest worker"), "{n}");
    app.key("End").await;
    assert!(app.text("#narration").starts_with("Step 200:"));
}

#[wasm_bindgen_test]
async fn exact_weighted_loss_is_shown_unrounded() {
    // Issue 14: (5·1.2 + 3·1.3) / 8 = 9.9 / 8 = 1.2375 exactly; the page showed 1.238.
    let app = Mounted::new("view=sgd&shards=5,3&losses=1.2,1.3").await;
    assert_eq!(app.text("#global-mean"), "1.2375");
    // the plain average (1.2 + 1.3) / 2 = 1.25 is exact too
    assert_eq!(app.text("#plain-mean"), "1.25");
    assert_eq!(app.text("#weight-0"), "0.625");
}

#[wasm_bindgen_test]
async fn bad_tables_show_an_inline_message_and_keep_the_result() {
    // unequal list lengths in the URL
    let app = Mounted::new("view=sgd&shards=600,300&losses=0.2,0.5,0.9").await;
    assert!(app.text("#table-error").contains("2 counts but 3 values"));
    assert_eq!(app.text("#global-mean"), "0.36");
    drop(app);
    // a zero total in the URL
    let app = Mounted::new("view=sgd&shards=0,0,0&losses=0.2,0.5,0.9").await;
    assert!(app.text("#table-error").contains("0 samples in total"));
    drop(app);
    // a negative count typed into the table
    let app = Mounted::new(ISSUE_URL).await;
    set_field(&app, "n-1", "-5").await;
    assert!(app.text("#table-error").contains("negative"));
    assert_eq!(app.text("#global-mean"), "0.36", "last valid table kept");
    set_field(&app, "n-1", "600").await;
    assert_eq!(app.text("#table-error"), "");
    // 600, 600, 100 with 0.2, 0.5, 0.9: (120 + 300 + 90) / 1300
    assert_eq!(app.text("#global-mean"), "≈ 0.3923");
}

#[wasm_bindgen_test]
async fn bad_training_parameters_show_a_message() {
    let app = Mounted::new(ISSUE_URL).await;
    set_field(&app, "lr", "0").await;
    assert!(app
        .text(".field-error")
        .contains("lr must be a number above 0"));
    assert_eq!(app.text("#identical-allreduce"), "yes (bit-identical)");
}
