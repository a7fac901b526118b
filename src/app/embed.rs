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

use super::url::UrlCtx;

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

/// Posts the content height to the parent page whenever the element of
/// `root` changes size, while `on`.
#[hook]
pub fn use_auto_height(root: NodeRef, view: &'static str, on: bool) {
    use_effect_with(on, move |on| {
        let watch = on
            .then(|| {
                let el = root.cast::<web_sys::Element>()?;
                let tell = Closure::<dyn FnMut()>::new(move || post_height(view));
                let observer = web_sys::ResizeObserver::new(tell.as_ref().unchecked_ref()).ok()?;
                observer.observe(&el);
                Some((observer, tell))
            })
            .flatten();
        move || {
            if let Some((observer, _tell)) = watch {
                observer.disconnect();
            }
        }
    });
}
