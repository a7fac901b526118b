//! "Copy link to this step": copies the page URL, which the views keep in
//! step with their state (`replaceState`, including `step` / `round`), with
//! `navigator.clipboard.writeText`. Where the clipboard is unavailable (an
//! insecure context, a denied permission) the link is shown selected in a
//! read-only field instead.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// The current page URL (`location.href`, after any waiting URL write), or
/// "" outside a browser window.
pub fn current_href() -> String {
    crate::app::url::flush();
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Writes `text` to the clipboard.
///
/// # Errors
/// When `navigator.clipboard` is missing or refuses.
pub async fn write_clipboard(text: &str) -> Result<(), JsValue> {
    let nav = web_sys::window()
        .map(|w| w.navigator())
        .ok_or(JsValue::NULL)?;
    let clip = js_sys::Reflect::get(&nav, &"clipboard".into())?;
    let write: js_sys::Function = js_sys::Reflect::get(&clip, &"writeText".into())?.dyn_into()?;
    let promise: js_sys::Promise = write.call1(&clip, &text.into())?.dyn_into()?;
    JsFuture::from(promise).await.map(|_| ())
}

/// What the button last did.
#[derive(Clone, PartialEq)]
enum Outcome {
    Idle,
    Copied,
    Fallback(String),
}

/// The button and its message, as a hook of the step controls that show it
/// (a component of its own would cost each page that has one about 0.65 KB).
#[hook]
pub fn use_copy_link() -> Html {
    let outcome = use_state(|| Outcome::Idle);
    let onclick = {
        let outcome = outcome.clone();
        Callback::from(move |_: MouseEvent| {
            let outcome = outcome.clone();
            let href = current_href();
            wasm_bindgen_futures::spawn_local(async move {
                match write_clipboard(&href).await {
                    Ok(()) => outcome.set(Outcome::Copied),
                    Err(_) => outcome.set(Outcome::Fallback(href)),
                }
            });
        })
    };
    let on_focus = Callback::from(|e: FocusEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        input.select();
    });
    html! {
        <span class="copy-link">
            <button type="button" class="small" id="copy-link" {onclick}>{"Copy link to this step"}</button>
            <span role="status" id="copy-link-status">
                { match &*outcome {
                    Outcome::Idle => Html::default(),
                    Outcome::Copied => html! { {" Link copied."} },
                    Outcome::Fallback(href) => html! {
                        <label>{" The clipboard is not available here; copy this link: "}
                            <input type="text" readonly=true value={href.clone()} onfocus={on_focus} size="40" /></label>
                    },
                } }
            </span>
        </span>
    }
}
