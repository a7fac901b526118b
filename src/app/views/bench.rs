//! `?view=bench`: in-browser measurements (not linked from the navigation).
//!
//! Runs the real code in the page's own WebAssembly build and prints median
//! timings into the DOM, where `scripts/bench-browser.sh` reads them. Nothing
//! here asserts a time: it is a measurement page, not a test.

use std::time::Duration;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::ViewProps;
use crate::app::{App, AppProps};

/// One measured quantity: label and the median of the runs, milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    /// What was timed.
    pub label: String,
    /// Median time, ms.
    pub median_ms: f64,
    /// Number of runs.
    pub runs: usize,
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Times `f` `runs` times and returns the median in ms.
pub fn time_it(label: &str, runs: usize, f: impl FnMut()) -> Measure {
    time_batch(label, runs, 1, f)
}

/// Times `inner` back-to-back calls of `f`, `runs` times, and returns the
/// median time of ONE call in ms (for work shorter than the browser's timer
/// resolution, which is coarsened to 0.1 ms without cross-origin isolation).
pub fn time_batch(label: &str, runs: usize, inner: usize, mut f: impl FnMut()) -> Measure {
    let inner = inner.max(1);
    let samples: Vec<f64> = (0..runs)
        .map(|_| {
            let t0 = now();
            for _ in 0..inner {
                f();
            }
            (now() - t0) / inner as f64
        })
        .collect();
    Measure {
        label: label.to_string(),
        median_ms: median(samples),
        runs,
    }
}

/// Mounts the ring view at p = 64 off-screen and times one step (key press
/// to the DOM updated), over `steps` steps.
async fn ring_step_render(steps: usize) -> Measure {
    let doc = gloo::utils::document();
    let Ok(host) = doc.create_element("div") else {
        return Measure {
            label: "ring view: one step at p=64 (DOM)".into(),
            median_ms: f64::NAN,
            runs: 0,
        };
    };
    host.set_attribute("style", "position:absolute;left:-5000px;width:1200px")
        .ok();
    if let Some(body) = doc.body() {
        body.append_child(&host).ok();
    }
    let handle = yew::Renderer::<App>::with_root_and_props(
        host.clone(),
        AppProps {
            query: Some("view=ring&p=64&size=64MB&embed=1".into()),
        },
    )
    .render();
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    let mut samples = Vec::new();
    for _ in 0..steps {
        let t0 = now();
        if let Ok(ev) = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &{
            let init = web_sys::KeyboardEventInit::new();
            init.set_key("ArrowRight");
            init
        }) {
            doc.dispatch_event(ev.unchecked_ref()).ok();
        }
        // Let Yew's scheduler render, then read layout to include it.
        yew::platform::time::sleep(Duration::from_millis(0)).await;
        let _ = host.get_bounding_client_rect();
        samples.push(now() - t0);
    }
    handle.destroy();
    host.remove();
    Measure {
        label: "ring view: one step at p=64 (key press → DOM updated)".into(),
        median_ms: median(samples),
        runs: steps,
    }
}

/// Extra measurements contributed by the other views (pure functions timed
/// in the browser).
fn core_measures() -> Vec<Measure> {
    let mut out = vec![time_it(
        "ring p=64: build + execute schedule (64 MB)",
        5,
        || {
            let _ = super::ring::ring_trace(64, 64_000_000);
        },
    )];
    out.extend(super::extra_benchmarks());
    out
}

/// The measurement page.
#[component]
pub fn BenchView(_props: &ViewProps) -> Html {
    let results = use_state(Vec::<Measure>::new);
    let done = use_state(|| false);
    {
        let results = results.clone();
        let done = done.clone();
        use_effect_with((), move |_| {
            yew::platform::spawn_local(async move {
                yew::platform::time::sleep(Duration::from_millis(20)).await;
                let mut all = core_measures();
                all.push(ring_step_render(40).await);
                results.set(all);
                done.set(true);
            });
        });
    }
    html! {
        <div class="view">
            <h1>{"In-browser measurements"}</h1>
            <p class="muted">{"Median over the stated runs, in this browser, with this build."}</p>
            <table class="numbers" id="bench">
                <thead><tr><th>{"what"}</th><th>{"median (ms)"}</th><th>{"runs"}</th></tr></thead>
                <tbody>
                { for results.iter().map(|m| html! {
                    <tr class="bench-row"><td>{m.label.clone()}</td><td>{format!("{:.4}", m.median_ms)}</td><td>{m.runs}</td></tr>
                }) }
                </tbody>
            </table>
            <p id="bench-status">{if *done { "done" } else { "running…" }}</p>
        </div>
    }
}
