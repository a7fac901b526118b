//! In-browser tests of `?view=collectives`: mount the app with URL
//! parameters, drive the step controls, and read the DOM.
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::core::collectives::Algorithm;
use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn rabenseifner_p8_64mb_ends_with_112_mb_in_6_rounds() {
    let app = Mounted::new("view=collectives&alg=rab&p=8&size=64MB").await;
    assert_eq!(app.count(".rank-ring g.rank"), 8, "8 ranks drawn");
    assert!(app.text("#phase").contains("initial buffers"));
    app.key("ArrowRight").await;
    app.key("ArrowRight").await;
    assert_eq!(
        app.text("#phase"),
        "reduce-scatter by recursive halving, round 2 of 3: partner = rank XOR 2"
    );
    // Round 2: rank 0 sends chunks 2–3 (16 MB) to rank 2, which adds them.
    assert!(app.text(".log").contains("rank 0 → rank 2: c2–3"));
    assert!(app.text(".log").contains("16 MB, reduce"));
    assert_eq!(app.text("#sent-0"), "48 MB");
    app.click("button[aria-label='Last step']").await;
    assert_eq!(
        app.text("#phase"),
        "all-gather by recursive doubling, round 3 of 3: partner = rank XOR 4"
    );
    for r in 0..8 {
        assert_eq!(app.text(&format!("#sent-{r}")), "112 MB");
    }
    assert!(app.text("#totals").contains("After 6 of 6 rounds"));
    assert!(app.text("#totals").contains("112 MB"));
    assert!(app
        .text("#check")
        .contains("Verified: all 8 ranks hold the element-wise sum 36"));
    // The summary table: Rabenseifner 6 rounds, the ring 14, both 112 MB.
    assert_eq!(app.text("#row-rab .rounds"), "6");
    assert_eq!(app.text("#row-rab .bytes"), "112 MB");
    assert_eq!(app.text("#row-ring .rounds"), "14");
    assert_eq!(app.text("#row-ring .bytes"), "112 MB");
    assert!(app.text("#agree").contains("agree"));
}

#[wasm_bindgen_test]
async fn recursive_doubling_p6_shows_fold_and_unfold() {
    let app = Mounted::new("view=collectives&alg=rd&p=6&size=64MB").await;
    assert_eq!(app.count(".rank-ring g.rank"), 6);
    let strip = app.text(".phase-strip");
    assert!(strip.contains("fold-in: 1 round"), "{strip}");
    assert!(
        strip.contains("exchange by recursive doubling: 2 rounds"),
        "{strip}"
    );
    assert!(strip.contains("unfold: 1 round"), "{strip}");
    assert!(app
        .text("#narration")
        .contains("ranks 0 and 2 first fold into ranks 1 and 3"));
    app.key("ArrowRight").await;
    assert!(app.text("#phase").starts_with("fold-in"));
    assert_eq!(app.count(".rank-ring g.arrow"), 2, "0 → 1 and 2 → 3");
    assert_eq!(app.text("#sent-0"), "64 MB");
    assert_eq!(app.text("#sent-1"), "0 B");
    app.key("End").await;
    assert!(app.text("#phase").starts_with("unfold"));
    assert_eq!(
        app.count(".rank-ring g.arrow.copy"),
        2,
        "1 → 0 and 3 → 2 copy"
    );
    // Rank 1: 2 exchanges + the unfold = 3 × 64 MB; rank 4: 2 × 64 MB.
    assert_eq!(app.text("#sent-1"), "192 MB");
    assert_eq!(app.text("#sent-4"), "128 MB");
    assert!(app
        .text("#check")
        .contains("Verified: all 6 ranks hold the element-wise sum 21"));
}

#[wasm_bindgen_test]
async fn summary_rows_switch_the_algorithm() {
    let app = Mounted::new("view=collectives&alg=ring&p=8&size=64MB&step=10").await;
    assert!(app.text("#phase").contains("all-gather around the ring"));
    app.click("#row-tree button").await;
    // The tree has 6 rounds, so step 10 is clamped to 6.
    assert!(app
        .text("#phase")
        .contains("broadcast along a binomial tree, round 3 of 3"));
    assert!(app.text("#check").contains("Verified"));
}

#[wasm_bindgen_test]
async fn bad_alg_keeps_the_default_and_says_why() {
    let app = Mounted::new("view=collectives&alg=bogus&p=8").await;
    // every registry key, in registry order
    let keys: Vec<_> = Algorithm::all().map(|a| a.key()).collect();
    assert!(app.text(".field-error").contains(&keys.join(", ")));
    assert_eq!(app.count(".rank-ring g.rank"), 8);
    assert!(app.text("#phase").contains("Rabenseifner"));
    set_field(&app, "p", "5").await;
    assert_eq!(app.count(".rank-ring g.rank"), 5);
}

#[wasm_bindgen_test]
async fn gossip_contrast_links_to_the_gossip_view() {
    let app = Mounted::new("view=collectives&alg=ring&p=4&size=16B").await;
    assert!(app.text("#gossip-contrast").contains("exactly 2.5"));
    let href = app.attr("#gossip-contrast a", "href");
    // Same size and the same inputs, so the gossip view opens on this example.
    assert_eq!(
        href,
        "?view=gossip&graph=ring&p=4&weights=uniform&init=1,2,3,4"
    );
}

#[wasm_bindgen_test]
async fn hierarchical_all_reduce_runs_on_nodes_of_gpus_ranks() {
    // p = 8 as 4 nodes of 2: 1 reduce round inside the nodes, the leaders'
    // ring over 4 leaders (2 × 3 rounds), 1 broadcast round: 8 rounds.
    let app = Mounted::new("view=collectives&alg=hier&p=8&gpus=2&size=64MB").await;
    assert_eq!(app.count(".rank-ring g.rank"), 8);
    app.key("ArrowRight").await;
    assert_eq!(
        app.text("#phase"),
        "reduce inside each node along a binomial tree, round 1 of 1: local rank r + 1 → r for r a multiple of 2"
    );
    app.click("button[aria-label='Last step']").await;
    assert!(app
        .text("#phase")
        .starts_with("broadcast inside each node along a binomial tree, round 1 of 1"));
    assert!(app.text("#check").contains("Verified"));
    assert_eq!(app.text("#row-hier .rounds"), "8");
    assert!(app.text("#agree").contains("agree"));
    set_field(&app, "gpus", "3").await;
    assert!(app
        .text(".field-error")
        .contains("gpus (ranks per node) must divide p = 8 (got 3)"));
    assert_eq!(app.text("#row-hier .rounds"), "8");
}

#[wasm_bindgen_test]
async fn refused_gpus_shows_one_error_and_names_the_last_valid_shape() {
    // 5 ranks per node does not divide p = 12: the error appears once, under
    // the field, and the hint names the shape still shown.
    let app = Mounted::new("view=collectives&alg=hier&p=12&gpus=5").await;
    assert_eq!(
        app.count(".field-error"),
        1,
        "one error: {}",
        app.text(".field-error")
    );
    let hint = app.text(".field.invalid .hint");
    assert!(
        hint.starts_with("showing ") && hint.ends_with("the last valid setting"),
        "{hint}"
    );
}

#[wasm_bindgen_test]
async fn one_element_chunk_gap_reads_as_agreement_to_4_digits() {
    // p = 6, 64 MB: chunks of 2,666,667 and 2,666,666 f32; the ring's
    // executed time exceeds the closed form by 1.067 ns, both show 8.583 ms.
    let app = Mounted::new("view=collectives&alg=ring&p=6&size=64MB").await;
    let agree = app.text("#agree");
    assert!(
        agree.contains("they agree to 4 significant digits"),
        "{agree}"
    );
    assert!(agree.contains("+1.067 ns"), "{agree}");
    assert!(!agree.contains("differ:"), "{agree}");
    assert_eq!(app.text("#row-ring .agree"), "✓ to 4 digits (+1.067 ns)");
}

#[wasm_bindgen_test]
async fn rabenseifner_p64_is_a_chunk_grid_canvas() {
    let app = Mounted::new("view=collectives&alg=rab&p=64&size=64MB&step=3").await;
    assert_eq!(app.count(".rank-ring"), 0, "no ring above 32 ranks");
    assert_eq!(app.count(".chunk-grid canvas[role='img']"), 1);
    let label = app
        .root
        .query_selector(".chunk-grid canvas")
        .ok()
        .flatten()
        .and_then(|e| e.get_attribute("aria-label"))
        .unwrap_or_default();
    // Rabenseifner at p = 64: 6 halving rounds, then 6 doubling rounds
    assert!(
        label.contains("on 64 ranks × 64 chunks after 3 of 12 rounds"),
        "{label}"
    );
    assert!(app.text(".chunk-grid .legend").contains("complete sum"));
}

/// How many cells of the rank picture hold their block (value not 0).
fn held(app: &Mounted) -> usize {
    app.texts(".rank-ring g.cell .cell-value")
        .iter()
        .filter(|v| v.as_str() != "0")
        .count()
}

#[wasm_bindgen_test]
async fn all_to_all_fills_in_the_transpose_round_by_round() {
    // Pairwise at p = 4 (XOR partners): 16 cells, cell (r, c) is block
    // c → r. Before: the diagonal; each round adds one block per rank.
    let app = Mounted::new("view=collectives&alg=pairwise&p=4&size=1KiB").await;
    assert_eq!(app.count(".rank-ring g.cell"), 16);
    assert_eq!(held(&app), 4);
    app.key("ArrowRight").await;
    assert_eq!(
        app.text("#phase"),
        "all-to-all by pairwise exchange, round 1 of 3: partner = rank XOR 1"
    );
    assert_eq!(held(&app), 8);
    // rank 1 now holds rank 0's block for it (value 1, from rank 0)
    let titles = app.texts(".rank-ring g.cell title");
    assert!(
        titles[4].starts_with("rank 1, block 0 → 1"),
        "{}",
        titles[4]
    );
    assert!(titles[4].contains("value 1 from ranks 0"), "{}", titles[4]);
    assert!(app.text(".log").contains("rank 0 → rank 1: b0→1"));
    app.key("ArrowRight").await;
    assert_eq!(held(&app), 12);
    app.key("ArrowRight").await;
    assert_eq!(held(&app), 16);
    assert!(app
        .text("#check")
        .contains("each of the 4 ranks holds the block every rank addressed to it"));

    // Bruck at p = 5: round 1 delivers distance 1 (+5), round 2 distances
    // 2 and 3 (+10; distance 3 went 1 then 2), round 3 distance 4 (+5).
    let app = Mounted::new("view=collectives&alg=bruck&p=5&size=1KiB").await;
    let mut seen = vec![held(&app)];
    for _ in 0..3 {
        app.key("ArrowRight").await;
        seen.push(held(&app));
    }
    assert_eq!(seen, vec![5, 10, 20, 25]);
}
