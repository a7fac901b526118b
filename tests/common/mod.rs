//! Shared helpers for the in-browser tests: mount the app into a fresh
//! element, drive it, and read the DOM after Yew's scheduler has flushed.
#![cfg(target_arch = "wasm32")]
#![allow(dead_code)]

use collective_lab::app::{App, AppProps};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

/// An app mounted with a query string; unmounted and removed on drop.
pub struct Mounted {
    /// The element the app is mounted in.
    pub root: Element,
    handle: Option<yew::AppHandle<App>>,
}

impl Mounted {
    /// True while the view shows its "Computing …" placeholder: work the
    /// core estimated as heavy (`core::work`) waits for the first paint.
    pub fn busy(&self) -> bool {
        self.count(r#"#computing[aria-busy="true"]"#) == 1
    }

    /// Waits (in 20 ms slices, at most 60 s) until the placeholder is gone.
    pub async fn until_computed(&self) {
        for _ in 0..3000 {
            if !self.busy() {
                return;
            }
            sleep(20).await;
        }
        panic!("still computing after 60 s");
    }

    /// Waits (in 20 ms slices, at most 60 s) until nothing on the page is
    /// marked `aria-busy` (the placeholder, or a panel's deferred check).
    pub async fn until_idle(&self) {
        for _ in 0..3000 {
            if self.count(r#"[aria-busy="true"]"#) == 0 {
                return;
            }
            sleep(20).await;
        }
        panic!("still busy after 60 s");
    }

    /// Mounts the app with `query` (no leading `?`).
    pub async fn new(query: &str) -> Self {
        install_modules();
        let doc = gloo::utils::document();
        let root = doc.create_element("div").expect("div");
        doc.body()
            .expect("body")
            .append_child(&root)
            .expect("append");
        let handle = yew::Renderer::<App>::with_root_and_props(
            root.clone(),
            AppProps {
                query: Some(query.to_string()),
                ..AppProps::default()
            },
        )
        .render();
        yew::scheduler::flush().await;
        Mounted {
            root,
            handle: Some(handle),
        }
    }

    /// Text content of the first match of `selector`, or "".
    pub fn text(&self, selector: &str) -> String {
        self.root
            .query_selector(selector)
            .ok()
            .flatten()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    }

    /// Attribute `name` of the first match of `selector`, or "".
    pub fn attr(&self, selector: &str, name: &str) -> String {
        self.root
            .query_selector(selector)
            .ok()
            .flatten()
            .and_then(|e| e.get_attribute(name))
            .unwrap_or_default()
    }

    /// Sets the textarea `selector` to `text` and fires a bubbling `input`
    /// event, as typing or pasting does, then flushes.
    pub async fn paste(&self, selector: &str, text: &str) {
        let ta: web_sys::HtmlTextAreaElement = self
            .root
            .query_selector(selector)
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("no textarea {selector}"))
            .dyn_into()
            .expect("textarea");
        ta.set_value(text);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let ev = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
        ta.dispatch_event(&ev).expect("dispatch");
        yew::scheduler::flush().await;
    }

    /// Text content of every match of `selector`, in document order.
    pub fn texts(&self, selector: &str) -> Vec<String> {
        let Ok(list) = self.root.query_selector_all(selector) else {
            return Vec::new();
        };
        (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|n| n.text_content().unwrap_or_default())
            .collect()
    }

    /// Number of matches of `selector`.
    pub fn count(&self, selector: &str) -> u32 {
        self.root
            .query_selector_all(selector)
            .map(|l| l.length())
            .unwrap_or(0)
    }

    /// Clicks the first match of `selector` and flushes.
    pub async fn click(&self, selector: &str) {
        let el: HtmlElement = self
            .root
            .query_selector(selector)
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("no element {selector}"))
            .dyn_into()
            .expect("html element");
        el.click();
        yew::scheduler::flush().await;
    }

    /// Dispatches a keydown of `key` on the element `selector` (it bubbles
    /// to the document) and flushes.
    pub async fn key_on(&self, selector: &str, key: &str) {
        let init = KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
        self.root
            .query_selector(selector)
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("no element {selector}"))
            .dispatch_event(&ev)
            .expect("dispatch");
        yew::scheduler::flush().await;
    }

    /// Dispatches a keydown of `key` on the document and flushes.
    pub async fn key(&self, key: &str) {
        let init = KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
        gloo::utils::document()
            .dispatch_event(&ev)
            .expect("dispatch");
        yew::scheduler::flush().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
    }
}

/// Sets the `value` of the first match of `selector` (a text input or a
/// menu), fires `event` (`change` or `input`) on it, and flushes Yew.
pub async fn set_value(app: &Mounted, selector: &str, value: &str, event: &str) {
    let el = app
        .root
        .query_selector(selector)
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no {selector}"));
    js_sys::Reflect::set(&el, &"value".into(), &value.into()).expect("a value");
    let ev = web_sys::Event::new(event).expect("event");
    el.dispatch_event(&ev).expect("dispatch");
    yew::scheduler::flush().await;
}

/// Sets the field `#f-{name}` (a text input or a menu) to `value` and fires
/// `change`, as leaving a typed field or picking from a menu does.
pub async fn set_field(app: &Mounted, name: &str, value: &str) {
    set_value(app, &format!("#f-{name}"), value, "change").await;
}

/// Waits `ms` milliseconds (a later task), then flushes Yew.
/// Waits until the app's URL write has happened (views write the URL
/// `URL_WRITE_DELAY_MS` after their last change).
pub async fn url_written() {
    sleep(collective_lab::app::url::URL_WRITE_DELAY_MS as i32 + 50).await;
}

pub async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let _ = gloo::utils::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    yew::scheduler::flush().await;
}

/// Puts the app's stylesheet (`static/style.css`) into the test page once,
/// for tests that measure layout.
pub fn load_stylesheet() {
    let doc = gloo::utils::document();
    if doc.get_element_by_id("app-css").is_some() {
        return;
    }
    let style = doc.create_element("style").expect("style");
    style.set_id("app-css");
    style.set_text_content(Some(include_str!("../../static/style.css")));
    doc.head()
        .expect("head")
        .append_child(&style)
        .expect("append");
}

/// Puts `files` (name, bytes) into the file input at `selector` and fires `change`, as
/// choosing them in the file dialog does. A `DataTransfer` is the one way a
/// page can build a `FileList`; its `items.add` is called through
/// `Reflect` (web-sys would need another feature for it).
pub async fn choose_files(app: &Mounted, selector: &str, files: &[(&str, &[u8])]) {
    let dt = web_sys::DataTransfer::new().expect("DataTransfer");
    let items =
        js_sys::Reflect::get(&dt, &wasm_bindgen::JsValue::from_str("items")).expect("items");
    let add: js_sys::Function =
        js_sys::Reflect::get(&items, &wasm_bindgen::JsValue::from_str("add"))
            .expect("add")
            .dyn_into()
            .expect("function");
    for (name, bytes) in files {
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(*bytes));
        let file = web_sys::File::new_with_u8_array_sequence(&parts, name).expect("file");
        add.call1(&items, &file).expect("items.add");
    }
    let input: web_sys::HtmlInputElement = app
        .root
        .query_selector(selector)
        .ok()
        .flatten()
        .expect(selector)
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

/// The page's loader of on-demand modules (`labModule` in `index.html`)
/// for a test page, which has no `index.html`: `quality` resolves to an
/// object whose `time_to_quality` is the very function `modules/quality`
/// exports ([`collective_lab::pages::step::quality::run_wire`]), so the
/// step view's panel runs its real wire here. Other modules are refused,
/// as a page whose module does not load. Installed once per test binary.
fn install_modules() {
    use js_sys::{Float64Array, Object, Promise, Reflect};
    use wasm_bindgen::prelude::*;
    let global = js_sys::global();
    if Reflect::has(&global, &"labModule".into()).unwrap_or(false) {
        return;
    }
    let run = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
        |query: JsValue, nums: JsValue| {
            let query = query.as_string().unwrap_or_default();
            let nums = Float64Array::new(&nums).to_vec();
            collective_lab::pages::step::quality::run_wire(&query, &nums)
                .map(|v| Float64Array::from(v.as_slice()).into())
                .map_err(|e| JsValue::from(js_sys::Error::new(&e)))
        },
    );
    let quality = Object::new();
    Reflect::set(&quality, &"time_to_quality".into(), run.as_ref()).expect("set");
    run.forget();
    let load = Closure::<dyn Fn(JsValue) -> Promise>::new(move |name: JsValue| {
        if name.as_string().as_deref() == Some("quality") {
            Promise::resolve(&JsValue::from(quality.clone()))
        } else {
            Promise::reject(&js_sys::Error::new("not in the test page's loader").into())
        }
    });
    Reflect::set(&global, &"labModule".into(), load.as_ref()).expect("set");
    load.forget();
}
