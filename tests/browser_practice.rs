//! In-browser tests of the practice view (`?view=practice`).
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_value, url_written, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Types `text` into the answer box `#ans-{q}-{part}` (fires `input`).
async fn type_answer(app: &Mounted, q: usize, part: usize, text: &str) {
    set_value(app, &format!("#ans-{q}-{part}"), text, "input").await;
}

/// Submits the form of question `q`, as Enter in one of its boxes does.
async fn press_enter(app: &Mounted, q: usize) {
    let form = app
        .root
        .query_selector(&format!("#q-{q} form"))
        .ok()
        .flatten()
        .expect("form");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::Event::new_with_event_init_dict("submit", &init).expect("event");
    form.dispatch_event(&ev).expect("dispatch");
    yew::scheduler::flush().await;
}

fn search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn question_1_names_the_plain_average_then_accepts_0_36() {
    let app = Mounted::new("view=practice&set=course").await;
    app.click("#score-reset").await;
    assert!(app.text("#score").contains("0 right first time"));
    assert_eq!(app.count("article.question"), 8);
    assert_eq!(app.count("#q-0 [role=status]"), 1);
    assert!(app.text("#q-0 label").contains("Your answer"));
    type_answer(&app, 0, 0, "0.5333").await;
    app.click("#check-0").await;
    let fb = app.text("#fb-0");
    assert!(fb.contains("plain average"), "{fb}");
    assert_eq!(app.count("#fb-0 [data-verdict=mistake]"), 1);
    // A readable wrong answer gets the question's hint.
    assert_eq!(app.count("#fb-0 .hint-line"), 1);
    assert_eq!(
        app.count("#sol-0"),
        0,
        "solution stays hidden after a wrong answer"
    );
    type_answer(&app, 0, 0, "0.36").await;
    press_enter(&app, 0).await;
    let fb = app.text("#fb-0");
    assert!(fb.to_lowercase().contains("correct"), "{fb}");
    assert_eq!(app.count("#fb-0 [data-verdict=correct]"), 1);
    // The worked calculation and the link appear.
    assert!(app
        .text("#sol-0")
        .contains("0.6 × 0.2 + 0.3 × 0.5 + 0.1 × 0.9"));
    assert_eq!(app.count("#sol-0 a[href^='?view=sgd']"), 1);
    assert!(app.text("#score").contains("1 right after a hint"));
    app.click("#score-reset").await;
    assert!(app.text("#score").contains("0 right after a hint"));
}

#[wasm_bindgen_test]
async fn answers_with_units_and_wrong_kinds() {
    let app = Mounted::new("view=practice&set=course&q=5").await;
    assert_eq!(app.count("article.question"), 1);
    type_answer(&app, 0, 0, "106.8 MiB").await;
    type_answer(&app, 0, 1, "5 ms").await;
    app.click("#check-0").await;
    assert_eq!(app.count("#fb-0 [data-verdict=correct]"), 1);
    assert_eq!(app.count("#fb-0 [data-verdict=wrong-kind]"), 1);
    type_answer(&app, 0, 1, "0.112 GB").await;
    app.click("#check-0").await;
    assert_eq!(app.count("#fb-0 [data-verdict=correct]"), 2);
    assert!(app.text("#sol-0 a").contains("ring view at p = 8, 64 MB"));
    assert_eq!(app.count("#sol-0 a[href='?view=ring&p=8&size=64MB']"), 1);
}

#[wasm_bindgen_test]
async fn reveal_shows_all_eight_answers_and_calculations() {
    let app = Mounted::new("view=practice&set=course&reveal=1").await;
    assert_eq!(app.count("article.question"), 8);
    assert_eq!(app.count(".solution"), 8);
    assert!(app.count(".solution ol.steps li") >= 16);
    let key: Vec<String> = (0..8)
        .map(|i| app.text(&format!("#sol-{i} .answer-value")))
        .collect();
    assert_eq!(key[0], "0.36");
    assert_eq!(key[2], "mixed value: 7; new value: 6");
    assert_eq!(key[3], "14");
    assert_eq!(
        key[4],
        "bytes sent per rank: 112 MB; bytes received per rank: 112 MB"
    );
    assert!(key[5].contains("Rabenseifner rounds: 6; ring rounds: 14"));
    assert_eq!(key[6], "recursive doubling exchanges: 4; ring rounds: 30");
    assert!(key[1].contains("global gradient"));
    assert!(key[7].starts_with("No"));
}

#[wasm_bindgen_test]
async fn drill_seed_round_trips_through_the_url() {
    let app = Mounted::new("view=practice&set=drill&q=ring-bytes&seed=42").await;
    assert_eq!(app.count("article.question"), 5);
    let first = app.text("#q-0 .question-text");
    url_written().await;
    assert!(
        search().contains("set=drill&q=ring-bytes&seed=42"),
        "{}",
        search()
    );
    let again = Mounted::new("view=practice&set=drill&q=ring-bytes&seed=42").await;
    assert_eq!(again.text("#q-0 .question-text"), first);
    drop(again);
    app.click("#next-seed").await;
    url_written().await;
    assert!(search().contains("seed=43"), "{}", search());
    assert_ne!(app.text("#q-0 .question-text"), first);
    let other = Mounted::new("view=practice&set=drill&q=ring-bytes&seed=43").await;
    assert_eq!(
        other.text("#q-0 .question-text"),
        app.text("#q-0 .question-text")
    );
}

#[wasm_bindgen_test]
async fn embed_shows_one_question_and_bad_values_keep_defaults() {
    let app = Mounted::new("view=practice&set=course&q=3&embed=1").await;
    assert_eq!(app.count("article.question"), 1);
    assert!(app.text("#q-0 h2").starts_with("Question 3"));
    assert_eq!(app.count("header.site-header"), 0);
    let app = Mounted::new("view=practice&set=quiz&q=x&seed=abc").await;
    assert!(app.count(".field-error") >= 2);
    assert_eq!(app.count("article.question"), 8);
    type_answer(&app, 3, 0, "what").await;
    app.click("#check-3").await;
    assert_eq!(app.count("#fb-3 [data-verdict=unparseable]"), 1);
    // An answer that cannot be read is not a wrong try: no hint yet.
    assert_eq!(app.count("#fb-3 .hint-line"), 0);
}

#[wasm_bindgen_test]
async fn the_drill_s_ring_crossover_link_opens_the_cost_view_on_that_crossover() {
    // The crossover drill draws the ring or Rabenseifner against recursive
    // doubling at p = 8..64, a power of two: find a seed that asks about
    // the ring (half of them do).
    let mut href = None;
    for seed in 1..=40 {
        let app = Mounted::new(&format!(
            "view=practice&set=drill&q=crossover&seed={seed}&reveal=1"
        ))
        .await;
        let label = app.text(".view-link a");
        if label.starts_with("see the ring–recursive-doubling crossover") {
            href = Some(app.attr(".view-link a", "href"));
            break;
        }
    }
    let href = href.expect("a seed in 1..=40 asks about the ring");
    assert!(href.contains("&cross=rd,ring"), "{href}");
    let cost = Mounted::new(href.trim_start_matches('?')).await;
    let pair = cost.text("#pair-crossover");
    assert!(
        pair.starts_with("Recursive doubling and ring break even at "),
        "{pair}"
    );
    assert!(
        pair.contains("recursive doubling is faster below, ring above"),
        "{pair}"
    );
    // At a power-of-two p Rabenseifner has the ring's bytes with fewer
    // start-ups, so the page says the ring never wins overall.
    assert!(
        cost.text("#pair-never")
            .starts_with("In this model ring is never the fastest of all"),
        "{}",
        cost.text("#pair-never")
    );
}
