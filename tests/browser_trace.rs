//! In-browser tests of `?view=trace`: the MPI runner's trace of a ring at
//! p = 4 pasted beside the model, a trace of another case setting the
//! page's case, bad traces, the timeline's link to this page, and the same
//! run written as the runner writes traces since issue 37 (a process per
//! rank).
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::core::timing::trace::{mpi_trace, MpiEvent, MpiKind, MpiRun};
use common::{set_field, url_written, Mounted};
use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The runner's trace of a ring at p = 4 on 16 MiB (tests/fixtures/traces/).
const TRACE: &str = include_str!("fixtures/traces/ring-p4-16MiB.json");

/// Pastes `text` into the trace's paste area (an `input` event that bubbles, as typing does).
async fn paste(app: &Mounted, text: &str) {
    app.paste("#trace-text", text).await;
}

/// The rounds (1-based, as the tooltips say) of the sends on one row of a chart.
fn send_rounds(app: &Mounted, chart: &str, row: usize) -> Vec<usize> {
    let list = app
        .root
        .query_selector_all(&format!("#{chart}-row-{row} rect.g-send title"))
        .expect("selector");
    (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
        .filter_map(|t| {
            let after = t.split(", round ").nth(1)?;
            after.split(':').next()?.parse().ok()
        })
        .collect()
}

#[wasm_bindgen_test]
async fn a_runner_trace_of_4_ranks_shows_4_rows_of_6_rounds_in_order_beside_the_model() {
    let app = Mounted::new("view=trace&alg=ring&p=4&size=16MiB&bw=12.5GB/s&alpha=0us").await;
    assert_eq!(
        app.count("#gantt-measured"),
        0,
        "nothing measured before a trace"
    );
    assert_eq!(app.count("#gantt-model .g-row"), 4, "the model alone");
    assert!(app.text("#no-trace").starts_with("No trace loaded yet"));
    paste(&app, TRACE).await;
    assert_eq!(app.text("#trace-error"), "");
    assert_eq!(
        app.text("#trace-case"),
        "Trace: ring, p = 4, 16 MiB; 96 events, 6 rounds per rank."
    );
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
    assert_eq!(app.count("#gantt-model .g-row"), 4);
    for r in 0..4 {
        assert_eq!(
            send_rounds(&app, "gantt-measured", r),
            [1, 2, 3, 4, 5, 6],
            "rank {r}"
        );
    }
    // the model: 6 rounds of 4 MiB at 12.5 GB/s, 6 × 335.5 µs = 2.013 ms
    let sum = app.text("#trace-summary");
    assert!(
        sum.contains("model (dataflow, the page's α, bw and γ) 2.013 ms"),
        "{sum}"
    );
    // rank 0's last event ends at 26 425.942 µs, rank 3's at 26 393.450 µs,
    // both after the first event's start at 2.394 µs: 26.42 ms and 26.39 ms
    // measured; 26.4235 / 2.01327 = 13.12×
    assert_eq!(app.text("#trace-finish-0"), "26.42 ms");
    assert_eq!(app.text("#trace-finish-3"), "26.39 ms");
    assert!(sum.starts_with("Measured 26.42 ms"), "{sum}");
    assert!(sum.contains("measured / model = 13.12×"), "{sum}");
    assert_eq!(app.count("#trace-ranks tbody tr"), 4);
    // no time cursor on this page
    assert_eq!(app.count(".g-cursor"), 0);
}

/// The fixture's events (`pid` 0, `tid` = rank) written again by the core's
/// trace writer: a process per rank (`pid` = rank + 1), rows per kind,
/// flows.
fn fixture_in_the_new_layout() -> String {
    let v = JSON::parse(TRACE).expect("JSON");
    let get = |o: &JsValue, k: &str| Reflect::get(o, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let mut ranks: Vec<Vec<MpiEvent>> = vec![Vec::new(); 4];
    for e in Array::from(&get(&v, "traceEvents")).iter() {
        let args = get(&e, "args");
        let num = |o: &JsValue, k: &str| get(o, k).as_f64();
        let kind = match get(&e, "cat").as_string().as_deref() {
            Some("send") => MpiKind::Send,
            Some("recv") => MpiKind::Recv,
            Some("wait") => MpiKind::Wait,
            _ => MpiKind::Reduce,
        };
        let rank = num(&e, "tid").expect("tid") as usize;
        ranks[rank].push(MpiEvent {
            round: num(&args, "round").expect("round") as usize,
            kind,
            peer: num(&args, "peer").map(|p| p as usize),
            bytes: num(&args, "bytes").expect("bytes") as u64,
            copy: get(&e, "name")
                .as_string()
                .is_some_and(|n| n.starts_with("copy")),
            start: num(&e, "ts").expect("ts") * 1e-6,
            dur: num(&e, "dur").expect("dur") * 1e-6,
        });
    }
    let hosts = vec!["vm".to_string(); 4];
    mpi_trace(
        &ranks,
        &MpiRun {
            alg: "ring",
            p: 4,
            bytes: 16 << 20,
            segments: 1,
            layout: "1 node of 4 ranks",
            hosts: &hosts,
        },
    )
}

#[wasm_bindgen_test]
async fn the_same_run_with_a_process_per_rank_draws_the_same_rows() {
    let app = Mounted::new("view=trace&alg=ring&p=4&size=16MiB&bw=12.5GB/s&alpha=0us").await;
    paste(&app, &fixture_in_the_new_layout()).await;
    assert_eq!(app.text("#trace-error"), "");
    assert_eq!(
        app.text("#trace-case"),
        "Trace: ring, p = 4, 16 MiB; 96 events, 6 rounds per rank."
    );
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
    for r in 0..4 {
        assert_eq!(
            send_rounds(&app, "gantt-measured", r),
            [1, 2, 3, 4, 5, 6],
            "rank {r}"
        );
    }
    assert_eq!(app.text("#trace-finish-0"), "26.42 ms");
    assert_eq!(app.text("#trace-finish-3"), "26.39 ms");
}

#[wasm_bindgen_test]
async fn a_trace_of_another_case_sets_the_page_to_its_case() {
    let app = Mounted::new("view=trace&alg=rd&p=8&size=100MB&bw=12.5GB/s&alpha=0us").await;
    assert_eq!(app.count("#gantt-model .g-row"), 8);
    paste(&app, TRACE).await;
    url_written().await;
    assert_eq!(app.text("#trace-mismatch"), "");
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
    assert_eq!(app.count("#gantt-model .g-row"), 4);
    assert!(
        app.text("#model-case")
            .starts_with("Model: ring all-reduce (ring), p = 4, 16 MiB, 1 segment"),
        "{}",
        app.text("#model-case")
    );
    assert!(app.text("#gantt-model-title").ends_with("2.013 ms"));
}

#[wasm_bindgen_test]
async fn alpha_and_bw_change_the_model_and_keep_the_trace() {
    let app = Mounted::new("view=trace&alg=ring&p=4&size=16MiB&bw=12.5GB/s&alpha=0us").await;
    paste(&app, TRACE).await;
    // 6 rounds of 4 MiB at 1 GB/s plus 6 × 100 µs: 6 × 4.194 ms + 0.6 ms = 25.77 ms
    set_field(&app, "bw", "1GB/s").await;
    set_field(&app, "alpha", "100us").await;
    assert!(
        app.text("#gantt-model-title").ends_with("25.77 ms"),
        "{}",
        app.text("#gantt-model-title")
    );
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
    set_field(&app, "bw", "fast").await;
    assert!(!app.text("#f-bw-err").is_empty(), "a bad bw says why");
    assert!(app.text("#gantt-model-title").ends_with("25.77 ms"));
}

#[wasm_bindgen_test]
async fn bad_traces_say_why_and_keep_the_last_good_one() {
    let app = Mounted::new("view=trace&alg=ring&p=4&size=16MiB").await;
    paste(&app, TRACE).await;
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
    let thousand = r#"{"traceEvents":[{"ph":"X","cat":"send","tid":999,"ts":0,"dur":1,"args":{"round":0,"peer":0}}]}"#;
    for (bad, says) in [
        ("random text", "This is not JSON"),
        ("{\"a\": 1}", "no traceEvents list"),
        (
            thousand,
            "The trace has 1000 ranks; this page draws at most 64.",
        ),
        (
            r#"{"traceEvents":[{"ph":"X","cat":"wait","tid":0,"ts":0,"dur":-1,"args":{"round":0}}]}"#,
            "negative duration",
        ),
    ] {
        paste(&app, bad).await;
        let e = app.text("#trace-error");
        assert!(e.contains(says), "{bad}: {e}");
        assert_eq!(
            app.count("#gantt-measured .g-row"),
            4,
            "{bad}: the last good trace stays"
        );
    }
    paste(&app, TRACE).await;
    assert_eq!(app.text("#trace-error"), "");
    // Emptying the paste area is not a bad trace.
    paste(&app, "").await;
    assert_eq!(app.text("#trace-error"), "");
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
}

#[wasm_bindgen_test]
async fn a_good_trace_clears_the_message_of_an_earlier_traces_unknown_algorithm() {
    let app = Mounted::new("view=trace&alg=ring&p=4&size=16MiB").await;
    paste(
        &app,
        &TRACE.replacen("\"alg\":\"ring\"", "\"alg\":\"foo\"", 1),
    )
    .await;
    url_written().await;
    let all = app.text(".view-trace");
    assert!(all.contains("(got “foo”)"), "{all}");
    paste(&app, TRACE).await;
    url_written().await;
    let all = app.text(".view-trace");
    assert!(!all.contains("(got “foo”)"), "{all}");
    assert_eq!(app.count("#gantt-measured .g-row"), 4);
}

#[wasm_bindgen_test]
async fn the_timeline_links_to_the_trace_view_of_its_case() {
    let app = Mounted::new("view=timeline&alg=rab&p=8&size=16MiB&bw=10GB/s&alpha=5us").await;
    let href = app.attr("#trace-link", "href");
    assert_eq!(
        href,
        "?view=trace&alg=rab&p=8&size=16MiB&bw=10GB%2Fs&alpha=5us"
    );
}
