//! The trace import's inputs: a file (read in the page with `Blob.text()`,
//! nothing is uploaded) and a paste area, as markup ([`super::markup`]);
//! the panel's one `input` and one `change` listener pass their events to
//! [`take`], which emits the whole text, or a message when a file cannot
//! be read.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

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
        if e.type_() == "input" {
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
