//! Modules a page loads on demand: a second WebAssembly binary with numbers
//! that only some cases show, so the page itself stays small (the page
//! budget, `scripts/size.sh`). `index.html`'s loader names them in its
//! `mods` table and defines `labModule(name)`, which fetches, instantiates
//! and caches the module's JS glue and binary and resolves to its exports.
//! Today there are two: `ringclock` (`modules/ringclock`), the ring view's
//! "On the clock" numbers above the drawn size, and `quality`
//! (`modules/quality`), the step view's time-to-quality run.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The message of a JavaScript error value, or its text.
fn message(e: &JsValue) -> String {
    Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "an unknown error".into())
}

/// Calls `export` of the module `module` with numbers `args` and returns
/// what it returned, once the module has loaded (the first call fetches
/// it; later ones reuse it).
///
/// # Errors
/// A sentence for the user when the page has no loader (`labModule`), the
/// module does not load (offline, a missing file) or does not export
/// `export`, or the call throws (its message).
pub async fn call(module: &str, export: &str, args: &[f64]) -> Result<JsValue, String> {
    let argv: Vec<JsValue> = args.iter().map(|x| JsValue::from_f64(*x)).collect();
    call_with(module, export, &argv).await
}

/// Calls `export` of the module `module` with the JavaScript values `args`
/// (a string, a `Float64Array`, …), as [`call`] does with numbers.
///
/// # Errors
/// As [`call`].
pub async fn call_with(module: &str, export: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let global = js_sys::global();
    let load = Reflect::get(&global, &"labModule".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("This page has no loader for the {module} module."))?;
    let exports = async {
        let promise: Promise = load.call1(&JsValue::NULL, &module.into())?.dyn_into()?;
        JsFuture::from(promise).await
    }
    .await
    .map_err(|e| {
        format!(
            "The {module} module did not load ({}). Reload the page to try again.",
            message(&e)
        )
    })?;
    let f: Function = Reflect::get(&exports, &export.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("The {module} module has no {export}."))?;
    let argv: Array = args.iter().collect();
    f.apply(&JsValue::NULL, &argv).map_err(|e| message(&e))
}
