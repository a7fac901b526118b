//! In-browser tests of `?view=hang`: the real Flight Recorder dumps of
//! `tests/fixtures/flight/skip` (4 gloo ranks, rank 3 skipped one
//! all_reduce) opened through the file input, as a user opens them, then a
//! file whose name gives no rank, which must leave the answer standing.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{sleep, Mounted};
use js_sys::{Array, Function, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SKIP: [(&str, &[u8]); 4] = [
    ("rank_0", include_bytes!("fixtures/flight/skip/rank_0")),
    ("rank_1", include_bytes!("fixtures/flight/skip/rank_1")),
    ("rank_2", include_bytes!("fixtures/flight/skip/rank_2")),
    ("rank_3", include_bytes!("fixtures/flight/skip/rank_3")),
];

/// Puts `files` (name, bytes) into `#hang-files` and fires `change`, as
/// choosing them in the file dialog does. A `DataTransfer` is the one way a
/// page can build a `FileList`; its `items.add` is called through
/// `Reflect` (web-sys would need another feature for it).
async fn open(app: &Mounted, files: &[(&str, &[u8])]) {
    let dt = web_sys::DataTransfer::new().expect("DataTransfer");
    let items = Reflect::get(&dt, &JsValue::from_str("items")).expect("items");
    let add: Function = Reflect::get(&items, &JsValue::from_str("add"))
        .expect("add")
        .dyn_into()
        .expect("function");
    for (name, bytes) in files {
        let parts = Array::of1(&Uint8Array::from(*bytes));
        let file = web_sys::File::new_with_u8_array_sequence(&parts, name).expect("file");
        add.call1(&items, &file).expect("items.add");
    }
    let input: web_sys::HtmlInputElement = app
        .root
        .query_selector("#hang-files")
        .ok()
        .flatten()
        .expect("#hang-files")
        .dyn_into()
        .expect("input");
    input.set_files(dt.files().as_ref());
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("change", &init).expect("event");
    input.dispatch_event(&ev).expect("dispatch");
    // The files are read asynchronously (File.arrayBuffer).
    for _ in 0..100 {
        yew::scheduler::flush().await;
        sleep(20).await;
    }
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
