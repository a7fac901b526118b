//! In-browser tests of `?view=gossip`: mount the app with the
//! documented URL, step rounds with the shared controls, and read the numbers
//! back from the DOM.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn course_ring_p4_steps_through_the_rounds() {
    let app = Mounted::new("view=gossip&graph=ring&p=4&weights=uniform&init=0,3,6,9&round=0").await;
    assert_eq!(app.count(".gossip-graph g.node"), 4, "4 nodes drawn");
    assert_eq!(app.text("#values"), "0, 3, 6, 9");
    assert_eq!(app.text("#round-disagreement"), "≈ 6.708");
    assert_eq!(app.text("#rho"), "≈ 0.3333 = 1/3");
    assert_eq!(app.text("#predicted"), "5");
    assert_eq!(app.text("#measured"), "5");
    assert!(app.text("#narration").contains("x0 ← (9 + 0 + 3)/3 = 4"));
    app.key("ArrowRight").await;
    assert_eq!(app.text("#values"), "4, 3, 6, 5");
    assert_eq!(app.text("#round-mean"), "4.5");
    assert_eq!(app.text("#round-disagreement"), "≈ 2.236");
    assert!(app
        .text("#narration")
        .starts_with("Round 1: x0 ← (9 + 0 + 3)/3 = 4"));
    app.key("ArrowRight").await;
    assert_eq!(app.text("#round-disagreement"), "≈ 0.7454");
    assert_eq!(app.text("#round-mean"), "4.5");
    app.key("ArrowLeft").await;
    assert_eq!(app.text("#values"), "4, 3, 6, 5");
    // the D-SGD panel and the contrast with all-reduce
    assert_eq!(app.text("#dsgd-mix"), "mix ← (3 + 6 + 12)/3 = 7");
    assert_eq!(app.text("#dsgd-next"), "x1 ← 7 − 0.5 × 2 = 6");
    assert_eq!(app.text("#dsgd-local"), "x1 ← 6 − 0.5 × 2 = 5");
    assert!(app.text("#contrast").contains("2(p − 1) = 6 rounds"));
    assert!(app.text("#contrast").contains("exact mean 4.5"));
}

#[wasm_bindgen_test]
async fn round_history_shows_the_course_norms_as_text() {
    // Issue 14: the worked sequence 6.708 → 2.236 → 0.745 as text, one row per round.
    let app = Mounted::new("view=gossip&graph=ring&p=4&init=0,3,6,9&round=2").await;
    assert_eq!(
        app.count("#round-history-table tbody tr"),
        3,
        "rounds 0, 1, 2"
    );
    let cells = |row: u32| -> Vec<String> {
        let tr = app
            .root
            .query_selector(&format!("#round-history-table tbody tr:nth-child({row})"))
            .ok()
            .flatten()
            .expect("row");
        let tds = tr.query_selector_all("td").expect("cells");
        (0..tds.length())
            .filter_map(|i| tds.item(i).and_then(|n| n.text_content()))
            .collect()
    };
    // round, x0..x3, mean, disagreement, ρ^r bound (ρ = 1/3: the bound is tight here)
    assert_eq!(
        cells(1),
        ["0", "0", "3", "6", "9", "4.5", "≈ 6.708", "≈ 6.708"]
    );
    assert_eq!(
        cells(2),
        ["1", "4", "3", "6", "5", "4.5", "≈ 2.236", "≈ 2.236"]
    );
    assert_eq!(cells(3)[6], "≈ 0.7454");
    // What a student reads contains the course's rounded figures.
    let text = app.text("#round-history-table");
    for shown in ["6.708", "2.236", "0.745"] {
        assert!(text.contains(shown), "{shown} in {text}");
    }
    // The history grows as the student steps.
    app.key("ArrowRight").await;
    assert_eq!(app.count("#round-history-table tbody tr"), 4);
    app.key("Home").await;
    assert_eq!(app.count("#round-history-table tbody tr"), 1);
}

#[wasm_bindgen_test]
async fn ring_p8_rho_and_star_weighted_mean() {
    let app = Mounted::new("view=gossip&graph=ring&p=8&weights=uniform&init=linear").await;
    assert_eq!(app.text("#rho"), "≈ 0.8047");
    assert_eq!(app.text("#predicted"), "22");
    drop(app);
    let app = Mounted::new("view=gossip&graph=star&p=4&weights=uniform&init=0,3,6,9").await;
    assert_eq!(app.text("#check-cols"), "no");
    assert_eq!(app.text("#check-doubly"), "no");
    assert_eq!(app.text("#limit"), "3.6");
    assert!(app.text("#pi").contains("0.4, 0.2, 0.2, 0.2"));
}

#[wasm_bindgen_test]
async fn bad_values_show_a_message_and_keep_the_state() {
    let app = Mounted::new("view=gossip&graph=ring&p=4&init=0,3,6,9&round=1").await;
    set_field(&app, "init", "1,two,3").await;
    assert!(app.text(".field-error").contains("is not a number"));
    assert_eq!(app.text("#values"), "4, 3, 6, 5", "last valid state kept");
    set_field(&app, "p", "6").await;
    assert_eq!(app.count(".gossip-graph g.node"), 6);
    drop(app);
    let app = Mounted::new("view=gossip&graph=hypercube&p=6").await;
    assert!(app.text(".field-error").contains("power of two"));
    assert_eq!(app.count(".gossip-graph g.node"), 4);
}

#[wasm_bindgen_test]
async fn the_complete_graph_at_p_1024_is_measured_and_mixes_to_one_value() {
    // lazy weights: W = (I + J/1024)/2, ρ = 1/2, so the disagreement halves
    // each round: 7 rounds for 100× (1/128 ≤ 1/100 < 1/64), predicted and
    // measured; a round costs 2p multiply-adds, so nothing stops early
    let app = Mounted::new("view=gossip&graph=complete&p=1024&weights=lazy").await;
    assert_eq!(app.text("#predicted"), "7");
    assert_eq!(app.text("#measured"), "7");
    let contrast = app.text("#contrast");
    assert!(contrast.contains("2(p − 1) = 2046 rounds"), "{contrast}");
    assert!(
        contrast.contains("every value is equal (spread 0, from 3069 at the start)"),
        "{contrast}"
    );
}

#[wasm_bindgen_test]
async fn a_value_another_field_made_invalid_returns_when_it_fits_again() {
    // a hypercube needs a power of two: p = 6 falls back to 4, with a message
    let app = Mounted::new("view=gossip&graph=ring&p=6").await;
    set_field(&app, "graph", "hypercube").await;
    assert!(
        app.text("#f-p-err").contains("power of two"),
        "{}",
        app.text("#f-p-err")
    );
    assert_eq!(app.count(".gossip-graph g.node"), 4);
    // back on a ring, p = 4 fits: the message goes
    set_field(&app, "graph", "ring").await;
    assert_eq!(app.count(".field-error"), 0, "{}", app.text(".field-error"));
    assert!(app.text("#phase").contains("ring, p = 4"));
    // exp weights need the exp graph: refused on the ring, used once it is exp
    set_field(&app, "weights", "exp").await;
    assert!(app.text("#f-weights-err").contains("need graph=exp"));
    assert!(app.text("#phase").contains("W: uniform"));
    set_field(&app, "graph", "exp").await;
    assert_eq!(app.count(".field-error"), 0, "{}", app.text(".field-error"));
    assert!(
        app.text("#phase").contains("W: exponential-graph weights"),
        "{}",
        app.text("#phase")
    );
    // a bad graph name is shown at its menu
    drop(app);
    let app = Mounted::new("view=gossip&graph=nosuch").await;
    assert!(
        app.text("#f-graph-err").contains("graph must be ring"),
        "{}",
        app.text("#f-graph-err")
    );
}
