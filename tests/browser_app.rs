//! In-browser tests of the app shell and of what the components share:
//! routing by `enum View`, the transfer log's one operand order, and the
//! one way a field is committed (the view state's reducer).
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::app::View;
use common::{set_field, Mounted};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn bench_is_not_a_view() {
    let app = Mounted::new("view=bench").await;
    let msg = app.text(".field-error");
    assert!(msg.contains("Unknown view “bench”"), "{msg}");
    assert!(
        msg.contains("ring, collectives, cost, gossip, sgd"),
        "{msg}"
    );
    assert_eq!(app.count(".rank-ring g.rank"), 4, "the ring view instead");
}

#[wasm_bindgen_test]
async fn navigation_lists_every_view_in_order() {
    let app = Mounted::new("view=cost").await;
    let links = app.root.query_selector_all("nav a").expect("links");
    let hrefs: Vec<String> = (0..links.length())
        .filter_map(|i| links.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .filter_map(|a| a.get_attribute("href"))
        .collect();
    let want: Vec<String> = View::ALL
        .iter()
        .map(|v| format!("?view={}", v.key()))
        .collect();
    assert_eq!(hrefs, want);
    assert_eq!(app.text("nav a[aria-current='page']"), "α–β cost model");
    assert_eq!(View::from_key("SGD"), Some(View::Sgd));
    assert_eq!(View::from_key("bench"), None);
}

#[wasm_bindgen_test]
async fn both_logs_print_the_value_sent_first() {
    // Ring, round 1: rank 3 sends 4 to rank 0, which held 1.
    let ring = Mounted::new("view=ring&p=4&size=100MB&step=1").await;
    assert!(ring.text(".log").contains("4 + 1 = 5"));
    let coll = Mounted::new("view=collectives&alg=ring&p=4&size=100MB&step=1").await;
    assert!(
        coll.text(".log").contains("rank 3 → rank 0: c3"),
        "{}",
        coll.text(".log")
    );
    assert!(coll.text(".log").contains("reduce: 4 + 1 = 5"));
}

#[wasm_bindgen_test]
async fn a_good_link_value_leaves_the_preset_and_a_bad_one_keeps_it() {
    let app = Mounted::new("view=cost&preset=100gbe&size=8KiB").await;
    assert!(app.text("#preset-note").contains("Preset"));
    set_field(&app, "p", "many").await;
    assert!(app.text(".field.invalid .field-error").contains("many"));
    assert!(
        app.text("#preset-note").contains("Preset"),
        "bad p: preset kept"
    );
    set_field(&app, "p", "32").await;
    assert_eq!(
        app.count(".field.invalid"),
        0,
        "the good value clears the message"
    );
    assert_eq!(app.count("#preset-note"), 0, "custom values now");
    assert!(app.text("#units-line").starts_with("p = 32;"));
}

#[wasm_bindgen_test]
async fn an_empty_field_says_so_and_keeps_the_value() {
    let app = Mounted::new("view=ring&p=4&size=100MB&step=6").await;
    set_field(&app, "size", "").await;
    assert!(app
        .text(".field.invalid .field-error")
        .contains("enter a value"));
    assert_eq!(app.text("#sent-0"), "150 MB");
}

#[wasm_bindgen_test]
async fn a_rejected_value_names_the_value_still_in_use() {
    // Typed: the message says which α the view still computes with.
    let app = Mounted::new("view=timeline&alg=ring&p=4&size=100MB&alpha=5us").await;
    set_field(&app, "alpha", "-2us").await;
    let msg = app.text("#f-alpha-err");
    assert!(msg.contains("must not be negative"), "{msg}");
    assert!(
        msg.ends_with("The last good value, 5us, is still in use."),
        "{msg}"
    );
    // From the URL: a bare zero size is told it is zero, and the default
    // size is the one in use.
    let url = Mounted::new("view=ring&p=4&size=0").await;
    let msg = url.text(".field.invalid .field-error");
    assert!(msg.starts_with("size must be greater than zero"), "{msg}");
    assert!(msg.contains("The last good value, "), "{msg}");
    // A field at its default is left out of the URL: the message still
    // says that the last good value stays.
    set_field(&app, "segments", "0").await;
    let msg = app.text("#f-segments-err");
    assert!(
        msg.ends_with(". The last good value is still in use."),
        "{msg}"
    );
    // An empty field already says so, once.
    set_field(&url, "size", "").await;
    let msg = url.text(".field.invalid .field-error");
    assert_eq!(msg.matches("still in use").count(), 1, "{msg}");
}

#[wasm_bindgen_test]
async fn unticking_the_mean_step_clamps_the_step() {
    let app = Mounted::new("view=ring&p=3&size=12B&mean=1&step=5").await;
    assert!(app.text("#phase").contains("Mean"));
    let cb: web_sys::HtmlInputElement = app
        .root
        .query_selector("input[type=checkbox]")
        .ok()
        .flatten()
        .expect("checkbox")
        .dyn_into()
        .expect("input");
    cb.set_checked(false);
    cb.dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatch");
    yew::scheduler::flush().await;
    assert_eq!(app.text("#phase"), "all-gather, round 2 of 2");
}
