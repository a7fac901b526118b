//! Reading the page URL and writing view state back with
//! `history.replaceState`.

use super::views::View;
use crate::params::{encode, Query};

/// Where a view lives: its key and whether the page is embedded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlCtx {
    /// The view (its key is the `view` parameter).
    pub view: View,
    /// `embed=1`: navigation hidden.
    pub embed: bool,
}

/// The current `location.search`, parsed.
pub fn current_query() -> Query {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    Query::parse(&search)
}

/// Writes `view`, the view's pairs and `embed` back into the URL without
/// reloading or adding a history entry. Failures are ignored (the page still
/// works; only the URL is stale).
pub fn replace(ctx: &UrlCtx, pairs: &[(&str, String)]) {
    let mut all: Vec<(&str, String)> = vec![("view", ctx.view.key().to_string())];
    all.extend(pairs.iter().cloned());
    if ctx.embed {
        all.push(("embed", "1".into()));
    }
    let url = format!("?{}", encode(&all));
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}
