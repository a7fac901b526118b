//! Layout test in the browser: every view, at its default and at a large
//! parameter set, laid out in a 375, 768 and 1440 px wide box with the real
//! stylesheet (`static/style.css`). Nothing may overflow its box: every
//! panel, table, chart box and text block has `scrollWidth ≤ clientWidth`,
//! unless it sits inside a deliberate horizontal scroller (a `.table-scroll`
//! region with `tabindex="0"` and an `aria-label`, whose edge shadows are the
//! visible cue). The box itself must not overflow either (no page scroll).
//!
//! The test browser's viewport is fixed, so the width is set on the element
//! the app is mounted in; the app's narrow-screen rules are container
//! queries on `.shell`, so they follow that width as they follow a phone's.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{load_stylesheet, Mounted};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The widths checked, in CSS pixels: a phone, a tablet, a desktop.
const WIDTHS: [u32; 3] = [375, 768, 1440];

/// What must not overflow (as `scripts/browser/audit.mjs --only layout`).
const CHECKED: &str = ".panel, .panels, .chart-box, .controls, .table-scroll, main table, main p, \
     main h2, main h3, .narration, .phase, main article, figure";

/// A deliberate horizontal scroller: focusable, named, styled with the cue.
const SCROLLER: &str = ".table-scroll[tabindex='0'][aria-label]";

/// A short name of `el` for the failure message.
fn describe(el: &Element) -> String {
    let heading = el
        .query_selector("h2, h3")
        .ok()
        .flatten()
        .and_then(|h| h.text_content())
        .map(|t| format!(" “{t}”"))
        .unwrap_or_default();
    let id = if el.id().is_empty() {
        String::new()
    } else {
        format!("#{}", el.id())
    };
    format!(
        "{}{id}.{}{heading}",
        el.tag_name().to_lowercase(),
        el.class_name()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(".")
    )
}

fn visible(el: &Element) -> bool {
    el.dyn_ref::<HtmlElement>()
        .is_none_or(|h| h.offset_parent().is_some())
}

/// Every box of `app` that overflows at its current width.
fn overflows(app: &Mounted) -> Vec<String> {
    let mut out = Vec::new();
    let root = &app.root;
    if root.scroll_width() > root.client_width() + 1 {
        out.push(format!(
            "the app: scrollWidth {} > clientWidth {}",
            root.scroll_width(),
            root.client_width()
        ));
    }
    let list = root.query_selector_all(CHECKED).expect("selector");
    for i in 0..list.length() {
        let Some(el) = list.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        if !visible(&el) || el.scroll_width() <= el.client_width() + 1 {
            continue;
        }
        if el.matches(SCROLLER).unwrap_or(false) {
            continue;
        }
        let inside_scroller = el
            .parent_element()
            .and_then(|p| p.closest(SCROLLER).ok().flatten())
            .is_some();
        if !inside_scroller {
            out.push(format!(
                "{}: scrollWidth {} > clientWidth {}",
                describe(&el),
                el.scroll_width(),
                el.client_width()
            ));
        }
    }
    out
}

/// Sets the width of the app's box (a forced layout follows on read).
fn set_width(app: &Mounted, width: u32) {
    app.root
        .set_attribute("style", &format!("width:{width}px"))
        .expect("style");
}

/// Mounts `query` and checks it at the three widths.
async fn check(query: &str) {
    load_stylesheet();
    let app = Mounted::new(query).await;
    assert!(
        app.count("main") == 1 && app.count(".panic-box") == 0,
        "?{query} mounted"
    );
    let mut failures = Vec::new();
    for w in WIDTHS {
        set_width(&app, w);
        for f in overflows(&app) {
            failures.push(format!("?{query} at {w} px: {f}"));
        }
    }
    assert!(failures.is_empty(), "overflow:\n{}", failures.join("\n"));
}

#[wasm_bindgen_test]
async fn ring_fits_at_three_widths() {
    check("view=ring").await;
    check("view=ring&p=64&size=64MB&step=40").await;
}

#[wasm_bindgen_test]
async fn collectives_fit_at_three_widths() {
    check("view=collectives").await;
    check("view=collectives&alg=rab&p=64&size=64MB&step=3").await;
}

#[wasm_bindgen_test]
async fn cost_fits_at_three_widths() {
    check("view=cost").await;
    check("view=cost&p=1024&size=64MiB").await;
    check("view=cost&p=8&size=64KiB&proto=nccl").await;
    check("view=cost&p=2&size=4KiB&proto=mpi").await;
}

#[wasm_bindgen_test]
async fn gossip_fits_at_three_widths() {
    check("view=gossip").await;
    check("view=gossip&graph=random&p=64&round=3").await;
}

#[wasm_bindgen_test]
async fn sgd_fits_at_three_widths() {
    check("view=sgd").await;
    check(
        "view=sgd&shards=900,800,700,600,500,400,300,200,100,90,80,70&\
         losses=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2&steps=1000",
    )
    .await;
}

#[wasm_bindgen_test]
async fn topology_fits_at_three_widths() {
    check("view=topology").await;
    check("view=topology&nodes=8&gpus=8").await;
}

#[wasm_bindgen_test]
async fn practice_fits_at_three_widths() {
    check("view=practice").await;
    check("view=practice&set=drill&seed=7&reveal=1").await;
}

#[wasm_bindgen_test]
async fn timeline_fits_at_three_widths() {
    check("view=timeline").await;
    check("view=timeline&p=64&late=3:1ms&fail=9@2ms").await;
    check("view=timeline&p=128&segments=4").await;
}

#[wasm_bindgen_test]
async fn step_fits_at_three_widths() {
    check("view=step").await;
    check("view=step&p=16&alpha=20us&layers=100&params=1M&fwd=25ms&bwd=0.5ms&straggler=3:0.5&fail=3@25&ckpt=10&restart=30s").await;
    check(
        "view=step&p=8&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms&mode=fsdp&straggler=3:0.5",
    )
    .await;
}

#[wasm_bindgen_test]
async fn measure_fits_at_three_widths() {
    check("view=measure").await;
    check("view=measure&example=outliers").await;
}

#[wasm_bindgen_test]
async fn trace_fits_at_three_widths() {
    check("view=trace").await;
    check("view=trace&alg=ring&p=64&size=64MB").await;
}

/// Height in CSS pixels of the first `selector` match (0 when hidden).
fn height(app: &Mounted, selector: &str) -> i32 {
    app.root
        .query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        .map_or(0, |h| h.offset_height())
}

/// At 375 px the collectives picture at p = 8 is the rank grid, whose
/// values are set in ≥ 13 px type (the ring would draw them at about 4 px);
/// at 1440 px it is the ring, and the grid is hidden. The grid has one row
/// per rank and one cell per chunk (p = 8 chunks) with the same values as
/// the ring, and lists the round's transfers.
#[wasm_bindgen_test]
async fn collectives_picture_is_a_readable_grid_on_a_phone() {
    load_stylesheet();
    let app = Mounted::new("view=collectives&alg=rab&p=8&size=64MB&step=2").await;
    set_width(&app, 375);
    assert_eq!(height(&app, ".rank-ring"), 0, "ring hidden at 375 px");
    assert!(height(&app, ".rank-grid") > 0, "grid shown at 375 px");
    assert_eq!(app.count(".rank-grid tbody tr"), 8, "one row per rank");
    assert_eq!(
        app.count(".rank-grid tbody tr:first-child td"),
        8,
        "8 chunks"
    );
    let line = height(&app, ".rank-grid td .v");
    assert!(line >= 16, "value line {line} px: type too small");
    assert!(overflows(&app).is_empty(), "{}", overflows(&app).join("\n"));
    // Round 1 pairs rank r with r XOR 4 and round 2 with r XOR 2, so after
    // round 2 rank 0's first chunk sums ranks 0, 2, 4, 6: 1 + 3 + 5 + 7.
    assert_eq!(
        app.text(".rank-grid tbody tr:first-child td:first-of-type .v"),
        "16"
    );
    assert_eq!(
        app.text(".rank-grid tbody tr:first-child td:first-of-type .w"),
        "4/8"
    );
    assert_eq!(
        app.count(".grid-transfers li"),
        8,
        "round 2's 8 transfers listed"
    );
    assert_eq!(
        app.text(".grid-transfers li:first-child"),
        "rank 0 → rank 2: c2–3 reduce"
    );
    set_width(&app, 1440);
    assert!(height(&app, ".rank-ring") > 300, "ring shown at 1440 px");
    assert_eq!(height(&app, ".rank-grid"), 0, "grid hidden at 1440 px");
}
