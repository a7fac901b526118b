//! The trace import's inputs: a file (read in the page with `Blob.text()`,
//! nothing is uploaded) and a paste area, as markup ([`markup`](mod@super::markup));
//! the panel's one `input` and one `change` listener pass their events to
//! [`take`], which emits the whole text, or a message when a file cannot
//! be read. [`example`] fetches the example trace that the build copies
//! next to the page ([`EXAMPLE`]).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// The example trace, relative to the page: `tests/fixtures/traces/ring-p4-16MiB.json`,
/// a real run of the runner, copied into `dist/` by `index.html`'s
/// `copy-file` link.
pub const EXAMPLE: &str = "ring-p4-16MiB.json";

/// The link the example is modelled at: what the measure view fits to the
/// same machine's OSU log of the ring at p = 4
/// (`tests/fixtures/logs/runner-osu-ring-p4.txt`; a native test in
/// `core::measure::annotate` pins the fit).
pub const EXAMPLE_LINK: [(&str, &str); 2] = [("alpha", "5.429us"), ("bw", "1.085GB/s")];

/// Fetches [`EXAMPLE`] and emits its text, or a message when it cannot be
/// fetched (the page opened from a file, or a host that lacks it).
pub fn example(on_text: &Callback<Result<String, String>>) {
    let cb = on_text.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let failed =
            || format!("Could not fetch the example trace ({EXAMPLE}) from this page's folder.");
        let Some(w) = web_sys::window() else {
            return cb.emit(Err(failed()));
        };
        let resp = JsFuture::from(w.fetch_with_str(EXAMPLE))
            .await
            .ok()
            .and_then(|r| r.dyn_into::<web_sys::Response>().ok())
            .filter(web_sys::Response::ok);
        let text = match resp.map(|r| r.text()) {
            Some(Ok(p)) => JsFuture::from(p).await.ok().and_then(|v| v.as_string()),
            _ => None,
        };
        cb.emit(text.ok_or_else(failed));
    });
}

/// Largest file read, bytes.
const MAX_FILE: f64 = 32.0 * 1024.0 * 1024.0;

/// The file input (`#trace-file`) and the paste area (`#trace-text`).
pub const INPUTS: &str = "<div class=\"trace-input\"><label for=\"trace-file\">Open a trace (.json): </label>\
    <input id=\"trace-file\" type=\"file\" accept=\".json,application/json\">\
    <label for=\"trace-text\">…or paste it:</label>\
    <textarea id=\"trace-text\" rows=\"3\" spellcheck=\"false\" \
    placeholder=\"{&quot;traceEvents&quot;: [{&quot;name&quot;: &quot;send → 1&quot;, &quot;ph&quot;: &quot;X&quot;, …}]}\"></textarea></div>";

/// Handles an `input` or `change` event that bubbled up from [`INPUTS`]:
/// the paste area's text, or the chosen file's (read asynchronously).
pub fn take(e: &Event, on_text: &Callback<Result<String, String>>) {
    let Some(target) = e.target() else { return };
    if let Some(t) = target.dyn_ref::<HtmlTextAreaElement>() {
        // An emptied paste area is not a bad trace: the last one stays.
        if e.type_() == "input" && !t.value().trim().is_empty() {
            on_text.emit(Ok(t.value()));
        }
        return;
    }
    let Some(f) = target
        .dyn_ref::<HtmlInputElement>()
        .and_then(HtmlInputElement::files)
        .and_then(|l| l.get(0))
    else {
        return;
    };
    if f.size() > MAX_FILE {
        on_text.emit(Err(format!("{} is larger than 32 MB; not read.", f.name())));
        return;
    }
    let cb = on_text.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let text = JsFuture::from(f.text())
            .await
            .ok()
            .and_then(|v| v.as_string());
        cb.emit(text.ok_or_else(|| format!("Could not read {}.", f.name())));
    });
}
