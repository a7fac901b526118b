//! Trace-event JSON read with the browser's own parser (`JSON.parse`,
//! `Reflect.get`) into the core's [`RawTrace`]: the wasm carries no JSON
//! library. The core checks what was read ([`measured`](crate::core::timing::measured::measured)).

use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::{JsCast, JsValue};

use crate::core::timing::measured::{RawTrace, TraceError, TraceEvent, TraceInfo};

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(v: &JsValue, key: &str) -> String {
    get(v, key).as_string().unwrap_or_default()
}

/// A number, or a string holding one (`otherData` values are often strings).
fn num(v: &JsValue, key: &str) -> Option<f64> {
    let x = get(v, key);
    x.as_f64()
        .or_else(|| crate::core::units::decimal::parse(x.as_string()?.trim()))
}

/// Reads `s` (the JSON Object Format with `traceEvents`, or the JSON
/// Array Format: a bare list of events).
///
/// # Errors
/// [`TraceError::Empty`], [`TraceError::NotJson`] with the browser's
/// message, or [`TraceError::NotATrace`] without an event list.
pub fn read_trace(s: &str) -> Result<RawTrace, TraceError> {
    if s.trim().is_empty() {
        return Err(TraceError::Empty);
    }
    let v = JSON::parse(s).map_err(|e| {
        TraceError::NotJson(
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_default(),
        )
    })?;
    let list = if Array::is_array(&v) {
        v.clone()
    } else {
        get(&v, "traceEvents")
    };
    if !Array::is_array(&list) {
        return Err(TraceError::NotATrace);
    }
    let events = Array::from(&list)
        .iter()
        .map(|e| {
            let args = get(&e, "args");
            TraceEvent {
                ph: text(&e, "ph"),
                name: text(&e, "name"),
                cat: text(&e, "cat"),
                pid: num(&e, "pid"),
                tid: num(&e, "tid"),
                ts: num(&e, "ts"),
                dur: num(&e, "dur"),
                round: num(&args, "round"),
                peer: num(&args, "peer"),
            }
        })
        .collect();
    let o = get(&v, "otherData");
    let info = TraceInfo {
        alg: get(&o, "alg").as_string(),
        p: num(&o, "p"),
        bytes: num(&o, "bytes"),
        segments: num(&o, "segments"),
    };
    Ok(RawTrace { events, info })
}
