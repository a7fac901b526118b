//! In-browser tests of the measure view (`?view=measure`).
#![cfg(target_arch = "wasm32")]

mod common;

use collective_lab::core::measure::synthetic::{generate, Sizes, Spec};
use collective_lab::core::measure::Model;
use common::Mounted;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The number of a fitted α shown as "≈ 5.000 µs" or "2 µs", µs.
fn micros(text: &str) -> f64 {
    text.trim_start_matches("≈ ")
        .trim_end_matches(" µs")
        .parse()
        .expect("α in µs")
}

/// Sets "Paste a log" to `text` and fires `input`, as typing or pasting does.
async fn paste(app: &Mounted, text: &str) {
    app.paste("#log-text", text).await;
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
    let v = micros(&alpha);
    assert!((v - 5.0).abs() < 0.05, "{alpha}");
    let bw = app.text("#fit-bw");
    assert!(
        bw.starts_with("12.5 GB/s") || bw.starts_with("12.49 GB/s") || bw.starts_with("12.51 GB/s"),
        "{bw}"
    );
    assert!(bw.contains("Gb/s"), "{bw}");
    assert_eq!(app.count("#chart-time svg"), 1);
    assert_eq!(app.count("#chart-bw svg"), 1);
    let href = app.attr("#open-cost", "href");
    assert!(href.starts_with("?view=cost&p=16&alpha=5"), "{href}");
    let trace = app.attr("#open-trace", "href");
    assert_eq!(trace, href.replacen("view=cost", "view=trace&alg=ring", 1));
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
    // the formats are listed once, and no message is numbered "line 0"
    assert_eq!(app.text("#parse-report").matches("OSU").count(), 1);
    assert!(!app.text("#parse-report").contains("line 0"));
    app.click("#load-example").await;
    assert!(app.text("#log-source").contains("synthetic"));
    assert!(!app.text("#fit-alpha").is_empty());
    let app = Mounted::new("view=measure&example=rd").await;
    assert!(app.text("#rank-count").contains("p = 8"));
}

/// The decoded CSV behind the `data:text/csv` href of the link `selector`.
fn csv_of(app: &Mounted, selector: &str) -> String {
    let href = app.attr(selector, "href");
    let body = href
        .strip_prefix("data:text/csv;charset=utf-8,")
        .unwrap_or_else(|| panic!("{selector}: href is not a CSV data: URL: {href:.60}"));
    js_sys::decode_uri_component(body)
        .ok()
        .and_then(|s| s.as_string())
        .expect("percent-decoded CSV")
}

#[wasm_bindgen_test]
async fn the_csv_links_carry_the_fit_and_the_parsed_table() {
    let app = Mounted::new("view=measure&example=ring").await;
    let fit = csv_of(&app, "#fit-csv");
    assert!(
        fit.starts_with("key,value,unit\nmodel,ring,\n"),
        "{fit:.200}"
    );
    // Ring example: α = 5 µs, β = 0.08 ns/B (12.5 GB/s), 1 % noise.
    let alpha: f64 = fit
        .lines()
        .find_map(|l| l.strip_prefix("alpha,"))
        .and_then(|v| v.trim_end_matches(",s").parse().ok())
        .expect("alpha row");
    assert!((alpha - 5e-6).abs() < 0.25e-6, "{alpha}");
    assert!(fit.contains("\nsize_bytes,time_s,fitted_s,relative_residual\n8,"));
    let table = csv_of(&app, "#table-csv");
    assert!(table.starts_with("series,line,size_bytes,time_s,algbw_printed_Bps,"));
    // First row: 8 B; 28 sizes (8 B … 1 GiB) in two series (out-of-place, in-place).
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 56, "{table:.300}");
    assert_eq!(rows[0].split(',').nth(2), Some("8"));
}

#[wasm_bindgen_test]
async fn a_bad_example_shows_a_message_and_the_default_page() {
    let app = Mounted::new("view=measure&example=bogus").await;
    let msg = app.text("#example-error");
    assert_eq!(
        msg,
        "example must be one of ring, rd, outliers, tree (got “bogus”)"
    );
    assert!(app.text("label[for=log-text]").contains("Paste a log"));
    assert_eq!(app.count("#load-example"), 1);
    // Loading an example from the menu clears the message.
    app.click("#load-example").await;
    assert_eq!(app.count("#example-error"), 0);
    assert!(app.text("#log-source").contains("synthetic"));
}

#[wasm_bindgen_test]
async fn an_example_is_fitted_under_its_own_model() {
    // "Recursive doubling, p = 8, α = 2 µs, 50 GB/s": the fit recovers both.
    let app = Mounted::new("view=measure&example=rd").await;
    let alpha = app.text("#fit-alpha");
    let v = micros(&alpha);
    assert!((v - 2.0).abs() < 0.1, "{alpha}");
    let bw = app.text("#fit-bw");
    let g: f64 = bw
        .trim_start_matches("≈ ")
        .split(" GB/s")
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{bw}"));
    assert!((g - 50.0).abs() < 1.5, "{bw}");
}

#[wasm_bindgen_test]
async fn a_poor_fit_is_called_so_and_the_links_have_no_stray_separator() {
    let app = Mounted::new("view=measure").await;
    paste(
        &app,
        include_str!("fixtures/logs/torch-bench-allreduce-8rank-busbw-decimal-MB.txt"),
    )
    .await;
    assert_eq!(
        app.text("#log-rows"),
        "Rows: 10 (times from column tavg(usec))"
    );
    let w = app.text("#fit-warning");
    assert!(
        w.starts_with("The ring α–β model does not explain these data"),
        "{w}"
    );
    assert_eq!(app.count("#open-cost"), 0);
    assert_eq!(app.count("#open-trace"), 0);
    assert_eq!(app.text(".measure-links").trim(), "Download the fit (CSV)");
    // A good fit: no warning, and the three links are separated once each.
    let app = Mounted::new("view=measure&example=ring").await;
    assert_eq!(app.count("#fit-warning"), 0);
    assert_eq!(
        app.text(".measure-links"),
        "Open in the cost model · Open a runner trace at this fit · Download the fit (CSV)"
    );
}

#[wasm_bindgen_test]
async fn headerless_rows_and_an_undetermined_p_are_said_inline() {
    let app = Mounted::new("view=measure").await;
    // NVIDIA/nccl#527: rows only; p ∈ 27 … 33 fits (see core tests_real).
    paste(
        &app,
        include_str!("fixtures/logs/real-nccl-527-ec2-rows-only-error-col.txt"),
    )
    .await;
    assert!(app.text("#parse-report").contains("no column header"));
    let rc = app.text("#rank-count");
    assert!(rc.contains("every p from 27 to 33 fits"), "{rc}");
    assert_eq!(app.count("#rank-count.field-error"), 1);
    assert!(app.text("#fit-error").contains("no fit until p is set"));
    // A rejected paste keeps the last good log's table on the page.
    paste(&app, "size NCCL gloo\n1KB 0.16ms 0.039ms\n").await;
    assert!(app.text("#import-reasons").contains("look like data rows"));
    assert!(app.text("#kept-note").contains("last log"));
    assert!(app.count("#chart-time svg") <= 1);
}

/// A noise-free OSU-format runner log of `alg` at p = 2 (α = 5 µs,
/// β = 0.1 ns/B, γ = 1 ns/B), 8 B … 4 MiB, with its annotation line.
fn runner_log(key: &str, [a, b, g]: [f64; 3]) -> String {
    let mut t = format!(
        "# collective-lab-run alg={key} p=2\n# OSU-format MPI Allreduce Latency Test: collective-lab-run {key}, nranks 2\n# Size       Avg Latency(us)\n"
    );
    for k in 3..=22 {
        let n = f64::from(1u32 << k);
        let us = (a * 5e-6 + n * (b * 0.1e-9 + g * 1e-9)) * 1e6;
        t += &format!("{:<10} {us:>18.2}\n", n as u64);
    }
    t
}

#[wasm_bindgen_test]
async fn two_annotated_runner_logs_get_one_joint_fit() {
    let app = Mounted::new("view=measure").await;
    // Registry factors at p = 2: ring [2, 1, ½], recursive doubling [1, 1, 1].
    let text = runner_log("ring", [2.0, 1.0, 0.5]) + &runner_log("rd", [1.0, 1.0, 1.0]);
    paste(&app, &text).await;
    assert_eq!(app.count("#logs-panel .measure-log"), 2);
    assert!(
        app.text("#log-2 h3")
            .contains("recursive doubling all-reduce, p = 2"),
        "{}",
        app.text("#log-2 h3")
    );
    assert!(app.text("#log-1").contains("annotation wins"));
    // The fit panel fits the first log under its own algorithm: ring.
    assert!(app.text("#fit-h").contains("α–β"));
    // Times printed to 0.01 µs: α, β, γ back within 1 %.
    let alpha = micros(&app.text("#joint-0 .joint-alpha"));
    assert!((alpha - 5.0).abs() < 0.05, "{alpha}");
    let bw = app.text("#joint-0 .joint-bw");
    let gbs: f64 = bw.trim_end_matches(" GB/s").parse().expect("GB/s");
    assert!((gbs - 10.0).abs() < 0.1, "{bw}");
    let g = app.text("#joint-0 .joint-gamma");
    let ns: f64 = g.trim_end_matches(" ns/B").parse().expect("ns/B");
    assert!((ns - 1.0).abs() < 0.01, "{g}");
    // The crossover 2α/γ = 10,000 B: rd faster below, ring above.
    let x = app.text("#joint-0 .joint-predicted");
    let kb: f64 = x
        .split(" kB")
        .next()
        .and_then(|v| v.trim_start_matches("≈ ").parse().ok())
        .expect("kB");
    assert!((kb - 10.0).abs() < 0.2, "{x}");
    assert!(x.contains("recursive doubling faster below"), "{x}");
    assert!(!app.text("#joint-0 .joint-measured").contains("none"));
}

#[wasm_bindgen_test]
async fn an_unknown_alg_in_the_annotation_names_the_valid_keys() {
    let app = Mounted::new("view=measure").await;
    paste(&app, &runner_log("warp", [2.0, 1.0, 0.5])).await;
    let t = app.text("#log-1");
    assert!(t.contains("valid keys") && t.contains("dbtree"), "{t}");
    assert_eq!(app.count("#joint-panel"), 0);
}

/// A size as `format_decimal` prints it ("4.096 kB"), bytes.
fn decimal_bytes(text: &str) -> f64 {
    let (v, unit) = text.trim().split_once(' ').expect("number and unit");
    let scale = match unit {
        "B" => 1.0,
        "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        _ => panic!("unit of {text}"),
    };
    v.parse::<f64>().expect("a number") * scale
}

#[wasm_bindgen_test]
async fn the_regime_fit_shows_both_crossovers_of_the_open_mpi_logs() {
    // Open MPI at p = 2, ring and recursive doubling, 4 B – 16 MiB: the
    // runner's schedules (left, regime-0) and MPI_Allreduce with the tuned
    // component forced (right, regime-1). For each, the first predicted
    // crossover lies within a factor of 2 of the first measured one.
    let app = Mounted::new("view=measure").await;
    let text = [
        include_str!("fixtures/logs/ompi-tuned-ring-p2.txt"),
        include_str!("fixtures/logs/ompi-tuned-rd-p2.txt"),
    ]
    .concat();
    paste(&app, &text).await;
    for k in 0..2 {
        let id = format!("#regime-{k}");
        let predicted = decimal_bytes(&app.text(&format!("{id} .regime-predicted")));
        let measured = decimal_bytes(&app.text(&format!("{id} .regime-measured")));
        assert_eq!(predicted, 4096.0, "{id}");
        let ratio = predicted / measured;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{id}: {predicted} / {measured}"
        );
        let shown: f64 = app
            .text(&format!("{id} .regime-ratio"))
            .parse()
            .expect("a ratio");
        assert!(
            (shown - ratio).abs() < 0.01 * ratio,
            "{id}: {shown} vs {ratio}"
        );
        assert!(
            app.text(&format!("{id} .regime-name"))
                .starts_with("eager → rendezvous"),
            "{}",
            app.text(&id)
        );
        assert!(app
            .text(&format!("{id} .regime-break"))
            .contains("between 2,048 B and 4,096 B"));
    }
}

#[wasm_bindgen_test]
async fn an_nccl_proto_line_is_shown_and_the_picks_compared() {
    let app = Mounted::new("view=measure").await;
    paste(
        &app,
        include_str!("fixtures/logs/nccl-synthetic-2.30-8xa100-proto-ll128.txt"),
    )
    .await;
    assert!(app
        .text("#nccl-env")
        .starts_with("NCCL_PROTO set by environment to LL128 (line 11)"));
    assert!(app
        .attr("#nccl-cost-link", "href")
        .contains("proto=nccl&nccl_ver=2.30&ch=12"));
    assert!(app.text("#nccl-picks").contains("28 of 28 (100 %)"));
}

#[wasm_bindgen_test]
async fn a_busbw_step_at_nccl_s_protocol_switch_is_named() {
    // SYNTHETIC fixture: all_reduce_perf times from NCCL v2.30's own model
    // for 8 A100s, with its GRAPH lines.
    let app = Mounted::new("view=measure").await;
    paste(
        &app,
        include_str!("fixtures/logs/nccl-synthetic-2.30-8xa100-ll-ll128-switch.txt"),
    )
    .await;
    let steps = app.text("#fit-steps");
    assert!(
        steps.contains("protocol switch Ring/LL → Ring/LL128"),
        "{steps}"
    );
    assert!(app.text("#nccl-picks").contains("28 of 28 (100 %)"));
}

/// A paste of NCCL_DEBUG lines alone (no benchmark table): the import says
/// no table was found, and a note sends the reader to NCCL's panel, which
/// reads the lines (the fixture's GRAPH lines and its NCCL_PROTO line).
#[wasm_bindgen_test]
async fn an_nccl_debug_paste_without_a_table_points_to_nccl_s_panel() {
    let app = Mounted::new("view=measure").await;
    paste(
        &app,
        include_str!("fixtures/logs/nccl-debug-gnosia93-2.27.3-p4d-a100-graph-proto-env.txt"),
    )
    .await;
    assert!(app
        .text("#import-error")
        .starts_with("No table of a known format was found."));
    assert!(app.text("#nccl-only-note").contains("NCCL's own choices"));
    assert_eq!(app.count("#nccl-panel"), 1);
}
