//! Reading the page URL and writing view state back with
//! `history.replaceState`, a moment after the last change.

use std::cell::RefCell;

use gloo::timers::callback::Timeout;

use super::route::UrlCtx;
use crate::params::{encode, Query};

/// The current `location.search`, parsed.
pub fn current_query() -> Query {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    Query::parse(&search)
}

/// Milliseconds a URL write waits for the next change. Chrome fetches and
/// decodes the page's icon again after every `replaceState`: about 6 ms of
/// each step of the ring view at p = 64 (measured in a trace), a third of a
/// frame. Writing once the steps pause keeps that out of the step.
pub const URL_WRITE_DELAY_MS: u32 = 150;

thread_local! {
    /// The URL waiting to be written.
    static PENDING: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Its timer (replacing it cancels the previous one).
    static TIMER: RefCell<Option<Timeout>> = const { RefCell::new(None) };
}

/// Writes `view`, the view's pairs, `embed`, `show` and `autoheight` back into the URL without
/// reloading or adding a history entry, [`URL_WRITE_DELAY_MS`] after the
/// last call (a newer call replaces a waiting one). Failures are ignored
/// (the page still works; only the URL is stale).
pub fn replace(ctx: &UrlCtx, pairs: &[(&str, String)]) {
    let mut all: Vec<(&str, String)> = vec![("view", ctx.view.key().to_string())];
    all.extend(pairs.iter().cloned());
    if ctx.embed {
        all.push(("embed", "1".into()));
    }
    all.extend(ctx.frame.to_pairs());
    PENDING.with(|p| *p.borrow_mut() = Some(format!("?{}", encode(&all))));
    let timer = Timeout::new(URL_WRITE_DELAY_MS, write_pending);
    TIMER.with(|t| *t.borrow_mut() = Some(timer));
}

/// Writes the waiting URL now, if there is one (before reading
/// `location.href`, e.g. to copy the link).
pub fn flush() {
    TIMER.with(|t| t.borrow_mut().take());
    write_pending();
}

fn write_pending() {
    let Some(url) = PENDING.with(|p| p.borrow_mut().take()) else {
        return;
    };
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}
