//! Embedding in a course page: the panels `show=` chose, and the content
//! height posted to the parent page (`embed=1`, unless `autoheight=0`).
//!
//! The message is `{ source: "collective-lab", type: "height", height, view }`,
//! posted to `window.parent` with target `"*"` whenever the app's root
//! element changes size (a `ResizeObserver`: at load, on a step that changes
//! the layout, when a panel opens, when the frame is resized). `height` is
//! the document's height in CSS pixels, rounded up, so a frame set to it has
//! no inner scrollbar. The host snippet is in the README.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::route::{UrlCtx, View};
use crate::params::embed::Embed;
use crate::params::Query;

impl UrlCtx {
    /// Whether the page shows `panel` (every panel without `show=`).
    pub fn shows(&self, panel: &str) -> bool {
        debug_assert!(self.frame.panels.contains(&panel), "unlisted panel {panel}");
        self.frame.shows(panel)
    }

    /// `body` as the panel `name`, or nothing when `show=` left it out. The
    /// wrapper has `display: contents`, so the layout is the panel's own.
    /// (Not inlined: the views call it about sixty times.)
    #[inline(never)]
    pub fn panel(&self, name: &'static str, body: Html) -> Html {
        if self.shows(name) {
            html! { <div class="slot" data-panel={name}>{body}</div> }
        } else {
            Html::default()
        }
    }

    /// The fields that have an input on screen: `fields` when `panel` (the
    /// view's controls) is shown, else none, so every field error becomes an
    /// orphan message.
    pub fn on_screen<'a>(&self, panel: &str, fields: &'a [&'a str]) -> &'a [&'a str] {
        if self.shows(panel) {
            fields
        } else {
            &[]
        }
    }

    /// `(top, below)`: the orphan `errors` go below the controls `panel`
    /// when it is shown, else at the top of the frame.
    pub fn place_errors(&self, panel: &str, errors: Html) -> (Html, Html) {
        if self.shows(panel) {
            (Html::default(), errors)
        } else {
            (errors, Html::default())
        }
    }
}

/// True inside a frame (the window has a parent other than itself).
pub fn in_frame() -> bool {
    let Some(w) = web_sys::window() else {
        return false;
    };
    match w.parent() {
        Ok(Some(parent)) => !js_sys::Object::is(&parent, &w),
        _ => false,
    }
}

/// Posts the document's height to the parent window.
fn post_height(view: &str) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let Some(html) = w.document().and_then(|d| d.document_element()) else {
        return;
    };
    let Ok(Some(parent)) = w.parent() else {
        return;
    };
    let height = html.get_bounding_client_rect().height().ceil();
    let msg = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&msg, &JsValue::from_str(k), &v).is_ok();
    let ok = set("source", "collective-lab".into())
        && set("type", "height".into())
        && set("height", height.into())
        && set("view", view.into());
    if ok {
        let _ = parent.post_message(&msg, "*");
    }
}

/// With `embed=1` and without `autoheight=0` in `query`: posts the content
/// height to the parent page whenever `root` (the app's root element)
/// changes size, for as long as the returned observer lives (it is
/// disconnected and dropped together with its callback). `None` otherwise.
pub fn watch_height(query: &Query, root: &web_sys::Element) -> Option<HeightWatch> {
    let on = query.flag("embed") && Embed::from_query(query, &[]).0.autoheight;
    if !on {
        return None;
    }
    let view = query
        .get("view")
        .and_then(View::from_key)
        .unwrap_or(View::DEFAULT)
        .key();
    let tell = Closure::<dyn FnMut()>::new(move || post_height(view));
    let observer = web_sys::ResizeObserver::new(tell.as_ref().unchecked_ref()).ok()?;
    observer.observe(root);
    Some(HeightWatch {
        observer,
        _tell: tell,
    })
}

/// A running [`watch_height`]; dropping it stops the messages.
pub struct HeightWatch {
    observer: web_sys::ResizeObserver,
    _tell: Closure<dyn FnMut()>,
}

impl Drop for HeightWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}
