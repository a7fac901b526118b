//! In-browser tests of embedding (issue 25): `show=` renders the chosen
//! panels only, an unknown panel names the valid ones, the height message
//! and `autoheight=0`, and `show=` surviving the URL rewrite.
#![cfg(target_arch = "wasm32")]

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use collective_lab::app::embed::{watch_height, HeightWatch};
use collective_lab::params::Query;
use common::{sleep, url_written, Mounted};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The `data-panel` names on the page, in document order.
fn panels(app: &Mounted) -> Vec<String> {
    let list = app.root.query_selector_all("[data-panel]").expect("list");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .filter_map(|e| e.get_attribute("data-panel"))
        .collect()
}

#[wasm_bindgen_test]
async fn show_renders_only_the_chosen_panels_after_steps_too() {
    let app = Mounted::new("view=ring&p=4&embed=1&show=picture,steps").await;
    assert_eq!(panels(&app), ["steps", "picture"], "the page's order");
    assert_eq!(app.count(".rank-ring g.rank"), 4);
    assert_eq!(app.count("h1"), 0);
    assert_eq!(app.count("#f-p"), 0, "no controls");
    assert_eq!(app.count("#total"), 0, "no counters");
    assert_eq!(app.count(".field-error"), 0);
    for _ in 0..3 {
        app.key("ArrowRight").await;
    }
    assert!(
        app.text(".scrub span").contains("Step 3 of"),
        "{}",
        app.text(".scrub span")
    );
    assert_eq!(panels(&app), ["steps", "picture"]);
    assert_eq!(app.count(".log"), 0);
}

#[wasm_bindgen_test]
async fn an_unknown_panel_names_the_valid_ones_and_shows_everything() {
    let app = Mounted::new("view=ring&p=4&embed=1&show=nosuch").await;
    let msg = app.text("#show-error");
    assert!(msg.contains("“nosuch”"), "{msg}");
    assert!(
        msg.contains("title, controls, steps, picture, counters, log, check, comparison"),
        "{msg}"
    );
    assert_eq!(panels(&app).len(), 8);
    let cost = Mounted::new("view=cost&embed=1&show=picture").await;
    assert!(cost.text("#show-error").contains("crossovers"));
}

#[wasm_bindgen_test]
async fn an_error_of_a_hidden_panel_is_at_the_top() {
    let app = Mounted::new("view=ring&p=abc&embed=1&show=picture,steps").await;
    let first = app
        .root
        .query_selector(".view > *")
        .ok()
        .flatten()
        .expect("first element");
    assert_eq!(first.class_name(), "field-error");
    assert!(first.text_content().unwrap_or_default().contains("abc"));
    // With the controls shown, the message is the field's own.
    let shown = Mounted::new("view=ring&p=abc&embed=1").await;
    assert_eq!(shown.count(".view > .field-error"), 0);
    assert!(shown.text(".field.invalid .field-error").contains("abc"));
}

#[wasm_bindgen_test]
async fn show_and_autoheight_survive_the_url_rewrite() {
    let app = Mounted::new("view=ring&p=4&embed=1&show=picture,steps&autoheight=0").await;
    app.key("ArrowRight").await;
    url_written().await;
    let search = gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default();
    assert!(search.contains("step=1"), "{search}");
    assert!(search.contains("embed=1"), "{search}");
    assert!(search.contains("show=steps%2Cpicture"), "{search}");
    assert!(search.contains("autoheight=0"), "{search}");
}

/// Counts the `collective-lab` messages this window receives (in the test
/// page the parent of the window is the window itself).
struct Listener {
    seen: Rc<RefCell<Vec<JsValue>>>,
    _listener: gloo::events::EventListener,
}

impl Listener {
    fn new() -> Self {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let into = seen.clone();
        let listener =
            gloo::events::EventListener::new(&gloo::utils::window(), "message", move |e| {
                let data = js_sys::Reflect::get(e, &"data".into()).unwrap_or(JsValue::NULL);
                let source = js_sys::Reflect::get(&data, &"source".into()).ok();
                if source.and_then(|s| s.as_string()).as_deref() == Some("collective-lab") {
                    into.borrow_mut().push(data);
                }
            });
        Listener {
            seen,
            _listener: listener,
        }
    }
}

/// The app mounted with `query` and its height watched as
/// `collective_lab::app::start` does on the page.
async fn watched(query: &str) -> (Mounted, Option<HeightWatch>) {
    let app = Mounted::new(query).await;
    let watch = watch_height(&Query::parse(query), &app.root);
    (app, watch)
}

#[wasm_bindgen_test]
async fn the_height_is_posted_and_autoheight_0_posts_nothing() {
    let off = Listener::new();
    let (app, watch) = watched("view=ring&p=4&embed=1&autoheight=0").await;
    assert!(watch.is_none());
    app.key("ArrowRight").await;
    sleep(300).await;
    assert_eq!(off.seen.borrow().len(), 0, "autoheight=0 posts nothing");
    drop(app);

    let on = Listener::new();
    let (app, watch) = watched("view=ring&p=4&embed=1&show=picture,steps").await;
    sleep(300).await;
    let seen = on.seen.borrow().clone();
    assert!(!seen.is_empty(), "the height is posted at load");
    let msg = seen.last().expect("a message");
    let keys: Vec<String> = js_sys::Object::keys(msg.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    assert_eq!(keys, ["source", "type", "height", "view"]);
    let get = |k: &str| js_sys::Reflect::get(msg, &k.into()).unwrap_or(JsValue::NULL);
    assert_eq!(get("type").as_string().as_deref(), Some("height"));
    assert_eq!(get("view").as_string().as_deref(), Some("ring"));
    assert!(get("height").as_f64().unwrap_or(0.0) > 0.0);
    // A layout change posts again.
    let before = on.seen.borrow().len();
    app.key("End").await;
    sleep(300).await;
    assert!(on.seen.borrow().len() >= before);
    drop(watch);
    drop(app);

    let plain = Listener::new();
    let (_app, watch) = watched("view=ring&p=4").await;
    assert!(watch.is_none());
    sleep(300).await;
    assert_eq!(plain.seen.borrow().len(), 0, "not embedded: nothing posted");
}
