//! In-browser tests of the trace view's profiler panel: the real traces of
//! `tests/fixtures/profiler/gloo-2rank-slow1` (2 gloo ranks, rank 1 slept
//! 30 ms before each backward), rank 0 as JSON and rank 1 gzipped, opened
//! together through the file input; then a truncated gzip and a foreign
//! file, which must leave the result standing.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{choose_files, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const RANK_0: &[u8] = include_bytes!("fixtures/profiler/gloo-2rank-slow1/rank_0.json");
const RANK_1_GZ: &[u8] = include_bytes!("fixtures/profiler/rank_1.json.gz");

#[wasm_bindgen_test]
async fn two_real_traces_name_the_late_rank_and_bad_files_keep_the_result() {
    let app = Mounted::new("view=trace").await;
    assert_eq!(app.count("#profile-answer"), 0);
    choose_files(
        &app,
        "#profile-files",
        &[("rank_0.json", RANK_0), ("rank_1.json.gz", RANK_1_GZ)],
    )
    .await;
    let said = app.text("#profile-answer");
    // Rank 1 starts every collective last: 2 start-up broadcasts and 6
    // all-reduces. The widest spread is step 2's second all-reduce:
    // …859,522.890 − …813,888.056 µs = 45.63 ms.
    assert!(
        said.starts_with(
            "Rank 1 arrived last at 8 of 8 matched collectives; the widest spread of start times is 45.63 ms (group 0 #6, all-reduce, rank 1 last)."
        ),
        "{said}"
    );
    assert!(
        said.contains("Rank 0: 149.3 ms of communication in 3 steps"),
        "{said}"
    );
    // 3 steps per rank; 8 matched; one communication table per rank; one
    // bar per operation on the shared axis.
    assert_eq!(app.count("#profile-steps tbody tr"), 6);
    assert_eq!(app.count("#profile-matched tbody tr"), 8);
    assert_eq!(app.count("#profile-comms-1 tbody tr"), 8);
    assert_eq!(app.count(".profile-chart rect:not(.wait)"), 16);
    assert_eq!(app.count("#profile .field-error"), 0);

    let cut = &RANK_1_GZ[..1000];
    choose_files(
        &app,
        "#profile-files",
        &[("cut.json.gz", cut), ("notes.json", b"hello")],
    )
    .await;
    let errs = app.text("#profile .field-error");
    assert!(
        errs.contains("cut.json.gz: it ends in .gz but does not decompress"),
        "{errs}"
    );
    assert_eq!(app.count("#profile .field-error"), 2);
    assert!(
        app.text("#profile-answer")
            .starts_with("Rank 1 arrived last"),
        "the last good result stays"
    );
}

#[wasm_bindgen_test]
async fn the_step_link_opens_the_traces_buckets_in_the_step_view() {
    let app = Mounted::new("view=trace").await;
    choose_files(&app, "#profile-files", &[("rank_0.json", RANK_0)]).await;
    let href = app.attr("#profile-step-0 a", "href");
    // oracle.py's numbers for rank 0's ProfilerStep#3.
    assert_eq!(
        href,
        "?view=step&p=2&layers=2&params=131584%2C295488&dtype=fp32&bucket=1B&first=1B&fwd=1.347108ms&bwd=0.546735ms%2C5.085696ms&alpha=0us&measured=52.238879ms%2C44.18333ms&bw=26.164MB%2Fs"
    );
    drop(app);
    let step = Mounted::new(href.trim_start_matches('?')).await;
    step.until_computed().await;
    assert_eq!(
        step.count(".field-error"),
        0,
        "{}",
        step.text(".field-error")
    );
    // oracle.py: ProfilerStep#3 spans 52 238.879 µs, 44 183.330 µs of it
    // exposed communication (rank 0 waits for the slow rank 1).
    let m = step.text("#step-measured");
    assert!(
        m.starts_with(
            "Measured (the trace's step): 52.24 ms with 44.18 ms of exposed communication."
        ),
        "{m}"
    );
}
