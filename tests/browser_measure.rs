//! In-browser tests of the measure view (`?view=measure`).
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::core::measure::synthetic::{generate, Sizes, Spec};
use collective_lab::core::measure::Model;
use common::Mounted;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlTextAreaElement;

wasm_bindgen_test_configure!(run_in_browser);

/// Sets "Paste a log" to `text` and fires `input`, as typing or pasting does.
async fn paste(app: &Mounted, text: &str) {
    let ta: HtmlTextAreaElement = app
        .root
        .query_selector("#log-text")
        .ok()
        .flatten()
        .expect("the Paste a log textarea")
        .dyn_into()
        .expect("textarea");
    ta.set_value(text);
    let ev = web_sys::Event::new_with_event_init_dict("input", &{
        let i = web_sys::EventInit::new();
        i.set_bubbles(true);
        i
    })
    .expect("event");
    ta.dispatch_event(&ev).expect("dispatch");
    yew::scheduler::flush().await;
}

#[wasm_bindgen_test]
async fn pasting_a_log_shows_the_fitted_alpha_and_bandwidth() {
    let app = Mounted::new("view=measure").await;
    assert!(app.text("label[for=log-text]").contains("Paste a log"));
    // Noise-free ring all-reduce, p = 16, α = 5 µs, β = 0.08 ns/B (12.5 GB/s).
    let text = generate(&Spec {
        model: Model::Ring,
        p: 16,
        alpha: 5e-6,
        beta: 0.08e-9,
        noise: 0.0,
        outliers: 0,
        seed: 1,
        sizes: Sizes::Doubling {
            min: 8,
            max: 1 << 30,
        },
    });
    paste(&app, &text).await;
    assert!(
        app.text("#rank-count").contains("p = 16"),
        "{}",
        app.text("#rank-count")
    );
    let alpha = app.text("#fit-alpha");
    // A fitted α is not a short decimal: shown as "≈ 5.000 µs" (4 significant digits).
    let v: f64 = alpha
        .trim_start_matches("≈ ")
        .trim_end_matches(" µs")
        .parse()
        .expect("α in µs");
    assert!((v - 5.0).abs() < 0.05, "{alpha}");
    let bw = app.text("#fit-bw");
    assert!(
        bw.starts_with("12.5 GB/s") || bw.starts_with("12.49 GB/s") || bw.starts_with("12.51 GB/s"),
        "{bw}"
    );
    assert!(bw.contains("Gb/s"), "{bw}");
    assert_eq!(app.count("#chart-time svg"), 1);
    assert_eq!(app.count("#chart-bw svg"), 1);
    let href = app
        .root
        .query_selector("#open-cost")
        .ok()
        .flatten()
        .and_then(|a| a.get_attribute("href"))
        .unwrap_or_default();
    assert!(href.starts_with("?view=cost&p=16&alpha=5"), "{href}");
}

#[wasm_bindgen_test]
async fn markup_in_a_log_never_reaches_the_dom() {
    let app = Mounted::new("view=measure").await;
    let evil = "# <img src=x onerror=alert(1)> <script>alert(2)</script> all_reduce_perf\n\
# nThread 1 nGpus 1\n\
#     <img src=x onerror=alert(3)>       <script>alert(4)</script>\n\
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n\
        4096          1024     float     sum      -1    84.36    0.05    0.08      0    85.20    0.05    0.08      0\n\
       16384          4096     float     sum      -1    85.43    0.19    0.34      0    86.29    0.19    0.33      0\n\
       65536         16384     float     sum      -1    89.72    0.73    1.28      0    90.62    0.72    1.27      0\n\
      262144         65536     float     sum      -1    106.9    2.45    4.29      0    108.0    2.43    4.25      0\n\
<img src=x onerror=alert(5)> not a row\n";
    paste(&app, evil).await;
    assert!(app
        .text("#log-title")
        .contains("<img src=x onerror=alert(1)>"));
    assert_eq!(app.count("img"), 0);
    assert_eq!(app.count("script"), 0);
    assert_eq!(app.count("#chart-time svg"), 1);
    assert!(app.text("#line-messages").contains("line 9"));
}

#[wasm_bindgen_test]
async fn an_unrecognised_paste_names_the_formats_and_an_example_loads() {
    let app = Mounted::new("view=measure").await;
    paste(&app, "hello\nworld").await;
    let msg = app.text("#import-error");
    assert!(msg.contains("nccl-tests") && msg.contains("OSU"), "{msg}");
    app.click("#load-example").await;
    assert!(app.text("#log-source").contains("synthetic"));
    assert!(!app.text("#fit-alpha").is_empty());
    let app = Mounted::new("view=measure&example=rd").await;
    assert!(app.text("#rank-count").contains("p = 8"));
}
