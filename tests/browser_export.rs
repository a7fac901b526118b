//! In-browser tests of the teacher exports (issue 14): the files the download
//! buttons build (SVG, PNG drawn on a canvas, CSV), the "Data" tables under
//! the charts, and "Copy link to this step". The files are Blobs (issue 37);
//! the tests read them back, and one test catches a download the page starts
//! (the temporary link's click) and reads the file behind its object URL.
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::app::components::downloads::{csv_blob, png_blob, svg_blob};
use collective_lab::core::consensus::GossipRun;
use collective_lab::export::series::gossip::gossip_rounds;
use collective_lab::plot::gossip::draw_disagreement;
use common::Mounted;
use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{Blob, DomParser, SupportedType};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
let saved = null, click = null;
export function catch_downloads() {
  saved = [];
  click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (this.download && this.href.startsWith('blob:')) {
      saved.push([this.download, this.href]);
      return;
    }
    return click.call(this);
  };
}
export function release_downloads() {
  if (click) HTMLAnchorElement.prototype.click = click;
  click = null;
}
export function downloads() { return saved || []; }
export async function read_url(href) { return await (await fetch(href)).text(); }
"#)]
extern "C" {
    /// From now on, a click on a link to a `blob:` URL with a `download`
    /// name is recorded (name, URL) instead of saving a file.
    fn catch_downloads();
    /// Clicks on links save files again.
    fn release_downloads();
    /// The recorded downloads, `[name, href]` each.
    fn downloads() -> Array;
    /// The text behind a URL (a Promise).
    fn read_url(href: &str) -> js_sys::Promise;
}

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

/// The text a Blob holds.
async fn text_of(blob: &Blob) -> String {
    JsFuture::from(blob.text())
        .await
        .expect("readable")
        .as_string()
        .expect("text")
}

#[wasm_bindgen_test]
async fn svg_download_parses_as_svg() {
    let run = course_run();
    let svg = draw_disagreement(&run.rounds, 2, true, run.factor).expect("chart");
    let blob = svg_blob(&svg).expect("a blob");
    assert_eq!(blob.type_(), "image/svg+xml");
    let text = text_of(&blob).await;
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
    let csv = text_of(&csv_blob(&table).expect("a blob")).await;
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
    let png = png_blob(&svg).await.expect("drawn on a canvas");
    assert_eq!(png.type_(), "image/png");
    let bytes =
        js_sys::Uint8Array::new(&JsFuture::from(png.array_buffer()).await.expect("readable"))
            .to_vec();
    // A PNG signature and more than a blank canvas' worth of data.
    assert_eq!(bytes[..4], [0x89, b'P', b'N', b'G'], "PNG signature");
    assert!(bytes.len() > 2_000, "{} bytes", bytes.len());
}

/// `ph` of each event of a parsed trace, counted: (metadata, complete,
/// flow starts, flow ends).
fn phases(events: &Array) -> (u32, u32, u32, u32) {
    let mut n = (0, 0, 0, 0);
    let ph = JsValue::from_str("ph");
    for e in events.iter() {
        match Reflect::get(&e, &ph)
            .ok()
            .and_then(|v| v.as_string())
            .as_deref()
        {
            Some("M") => n.0 += 1,
            Some("X") => n.1 += 1,
            Some("s") => n.2 += 1,
            Some("f") => n.3 += 1,
            _ => {}
        }
    }
    n
}

#[wasm_bindgen_test]
async fn the_timeline_saves_a_256_rank_ring_trace_through_the_page() {
    // p = 256, k = 1 segment, dataflow only: 2(p − 1) rounds of p messages
    // = 130 560 messages, each a send and a recv event (no reduce events
    // at γ = 0) joined by a flow: tens of MB, which no data: URL carries.
    let app = Mounted::new(
        "view=timeline&alg=ring&p=256&segments=1&size=64MiB&bw=12.5GB/s&alpha=0us&mode=dataflow",
    )
    .await;
    app.until_idle().await;
    catch_downloads();
    app.click("button[aria-label='Dataflow Chrome trace (timeline-dataflow-trace.json)']")
        .await;
    let saved = downloads();
    release_downloads();
    assert_eq!(saved.length(), 1, "one download");
    let entry = Array::from(&saved.get(0));
    assert_eq!(
        entry.get(0).as_string().as_deref(),
        Some("timeline-dataflow-trace.json")
    );
    let href = entry.get(1).as_string().expect("href");
    assert!(href.starts_with("blob:"), "{href}");
    let text = JsFuture::from(read_url(&href))
        .await
        .expect("the Blob is still there")
        .as_string()
        .expect("text");
    assert!(text.len() > 30_000_000, "{} bytes", text.len());
    let v = JSON::parse(&text).expect("the file parses as JSON");
    let events = Array::from(&Reflect::get(&v, &"traceEvents".into()).expect("traceEvents"));
    let (meta, complete, starts, ends) = phases(&events);
    // per rank: process name and order, send and recv rows named and ordered
    assert_eq!(meta, 256 * 6);
    assert_eq!(complete, 2 * 130_560);
    assert_eq!((starts, ends), (130_560, 130_560));
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
