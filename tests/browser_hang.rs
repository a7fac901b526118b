//! In-browser tests of `?view=hang`: the real Flight Recorder dumps of
//! `tests/fixtures/flight/skip` (4 gloo ranks, rank 3 skipped one
//! all_reduce) opened through the file input, as a user opens them, then a
//! file whose name gives no rank, which must leave the answer standing.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{choose_files, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SKIP: [(&str, &[u8]); 4] = [
    ("rank_0", include_bytes!("fixtures/flight/skip/rank_0")),
    ("rank_1", include_bytes!("fixtures/flight/skip/rank_1")),
    ("rank_2", include_bytes!("fixtures/flight/skip/rank_2")),
    ("rank_3", include_bytes!("fixtures/flight/skip/rank_3")),
];

async fn open(app: &Mounted, files: &[(&str, &[u8])]) {
    choose_files(app, "#hang-files", files).await;
}

#[wasm_bindgen_test]
async fn four_real_dumps_name_rank_3_and_a_nameless_file_keeps_the_answer() {
    let app = Mounted::new("view=hang").await;
    assert!(app.text("#no-dumps").starts_with("No dumps loaded yet"));
    open(&app, &SKIP).await;
    let said = app.text("#hang-answer");
    assert!(
        said.starts_with(
            "Process group 0 (default_pg, ranks 0–3) is waiting for rank 3: it never enqueued \
             all_reduce #8 of 4,096 Float (16 KiB)."
        ),
        "{said}"
    );
    // One table per process group (0 and 1); rank 3 is the one row marked.
    assert_eq!(app.count(".hang-group"), 2);
    assert_eq!(app.count("tr.hang-missing"), 1);
    assert!(app.text("tr.hang-missing").starts_with("3 (waited for)"));
    assert_eq!(app.count(".field-error"), 0);

    open(&app, &[("notes.txt", b"hello")]).await;
    assert!(
        app.text(".field-error")
            .contains("notes.txt: the name does not end in the rank's digits"),
        "{}",
        app.text(".field-error")
    );
    assert!(
        app.text("#hang-answer").contains("waiting for rank 3"),
        "the last good answer stays"
    );
}
