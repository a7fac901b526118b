//! In-browser tests of the teacher exports (issue 14): the files the download
//! buttons build (SVG, PNG drawn on a canvas, CSV), the "Data" tables under
//! the charts, and "Copy link to this step". A real download cannot be
//! observed from a test, so these check the `data:` URLs the buttons hand to
//! the browser.
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::app::components::downloads::{csv_data_url, png_data_url, svg_data_url};
use collective_lab::core::consensus::GossipRun;
use collective_lab::export::series::gossip::gossip_rounds;
use collective_lab::plot::gossip::draw_disagreement;
use common::Mounted;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{DomParser, SupportedType};

wasm_bindgen_test_configure!(run_in_browser);

/// The course's ring of 4 (weights 1/3, initial 0, 3, 6, 9), rounds 0 to 2.
fn course_run() -> GossipRun {
    collective_lab::core::consensus::course_ring_run()
}

/// Waits `ms` milliseconds (the `toggle` of `<details>` and the clipboard
/// answer arrive as later tasks), then flushes Yew.
async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = gloo::utils::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
    yew::scheduler::flush().await;
}

/// The text a `data:` URL carries (percent-decoded).
fn payload(url: &str, prefix: &str) -> String {
    let body = url
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{url:.60} does not start with {prefix}"));
    js_sys::decode_uri_component(body)
        .expect("percent-encoded")
        .into()
}

#[wasm_bindgen_test]
async fn svg_download_parses_as_svg() {
    let run = course_run();
    let svg = draw_disagreement(&run.rounds, 2, true, run.factor).expect("chart");
    let text = payload(&svg_data_url(&svg), "data:image/svg+xml;charset=utf-8,");
    assert_eq!(text, svg, "the file is the chart on the page");
    let doc = DomParser::new()
        .expect("parser")
        .parse_from_string(&text, SupportedType::ImageSvgXml)
        .expect("parsed");
    let root = doc.document_element().expect("root");
    assert_eq!(root.tag_name(), "svg");
    assert_eq!(
        doc.get_elements_by_tag_name("parsererror").length(),
        0,
        "well-formed XML"
    );
    assert!(
        doc.get_elements_by_tag_name("path").length()
            + doc.get_elements_by_tag_name("polyline").length()
            > 0
    );
}

#[wasm_bindgen_test]
async fn csv_download_has_a_header_and_the_plotted_values() {
    let run = course_run();
    let table = gossip_rounds(&run.rounds[..3], run.spectrum.bound_guaranteed);
    let csv = payload(&csv_data_url(&table), "data:text/csv;charset=utf-8,");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "round,x0,x1,x2,x3,mean,disagreement,ρ^r bound");
    assert_eq!(lines.len(), 4, "{csv}");
    // √45, √5 and √5/3: the values the disagreement chart plots, in full precision.
    assert!(
        lines[1].starts_with("0,0,3,6,9,4.5,6.708203932499369,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("1,4,3,6,5,4.5,2.23606797749979"),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains(",0.745355992499929"), "{}", lines[3]);
}

#[wasm_bindgen_test]
async fn png_download_is_a_non_empty_png() {
    let run = course_run();
    let svg = draw_disagreement(&run.rounds, 2, true, run.factor).expect("chart");
    let url = png_data_url(&svg).await.expect("drawn on a canvas");
    let b64 = url
        .strip_prefix("data:image/png;base64,")
        .expect("a PNG data URL");
    let bytes = gloo::utils::window().atob(b64).expect("base64");
    // A PNG signature and more than a blank canvas' worth of data.
    assert!(bytes.starts_with("\u{89}PNG"), "PNG signature");
    assert!(bytes.len() > 2_000, "{} bytes", bytes.len());
}

#[wasm_bindgen_test]
async fn every_chart_of_the_gossip_and_sgd_views_has_data_and_downloads() {
    let app = Mounted::new("view=gossip&graph=ring&p=4&init=0,3,6,9&round=2").await;
    assert_eq!(app.count("#eig-data"), 1);
    assert_eq!(app.count("#dis-data"), 1);
    assert!(
        app.count(".downloads button") >= 6,
        "SVG, PNG, CSV under each chart"
    );
    // Opening the collapsed table shows the plotted values.
    app.click("#dis-data summary").await;
    sleep(50).await;
    let t = app.text("#dis-data-table");
    assert!(t.contains("≈ 6.708") && t.contains("≈ 0.7454"), "{t}");
    drop(app);
    let app = Mounted::new("view=sgd&shards=5,3&losses=1.2,1.3").await;
    for id in ["#weights-data", "#loss-data", "#cons-data", "#bytes-data"] {
        assert_eq!(app.count(id), 1, "{id}");
    }
    app.click("#weights-data summary").await;
    sleep(50).await;
    assert!(
        app.text("#weights-data-table").contains("0.625"),
        "n_k/N = 5/8"
    );
}

#[wasm_bindgen_test]
async fn ring_view_bytes_per_rank_table_has_a_csv_button_under_it() {
    let app = Mounted::new("view=ring&p=4").await;
    assert_eq!(app.count("#counters-h"), 1, "the bytes-per-rank panel");
    assert_eq!(
        app.count(
            "section[aria-labelledby='counters-h'] .table-scroll + .downloads button[aria-label$='as CSV']"
        ),
        1,
        "one CSV button right under the bytes-per-rank table"
    );
}

#[wasm_bindgen_test]
async fn copy_link_copies_or_shows_the_url_with_the_step() {
    let app = Mounted::new("view=gossip&graph=ring&p=4&init=0,3,6,9&round=2").await;
    app.click("#copy-link").await;
    // The clipboard answers asynchronously; give it a few turns.
    for _ in 0..50 {
        if !app.text("#copy-link-status").is_empty() {
            break;
        }
        sleep(20).await;
    }
    let status = app.text("#copy-link-status");
    if status.contains("copied") {
        assert!(status.contains("Link copied."));
    } else {
        let input: web_sys::HtmlInputElement = app
            .root
            .query_selector("#copy-link-status input")
            .ok()
            .flatten()
            .expect("fallback field")
            .dyn_into()
            .expect("input");
        assert!(input.value().contains("round=2"), "{}", input.value());
    }
    assert!(collective_lab::app::components::copy_link::current_href().contains("round=2"));
}
