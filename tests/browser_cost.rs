//! In-browser tests of the cost view (`?view=cost`).
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn cost_view_shows_the_course_section9_numbers() {
    let app = Mounted::new("view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB").await;
    assert_eq!(app.text("#time-rd"), "22.62 µs");
    assert_eq!(app.text("#time-ring"), "151.2 µs");
    assert_eq!(app.text("#time-tree"), "45.24 µs");
    assert_eq!(app.text("#time-rab"), "41.23 µs");
    assert_eq!(app.text("#alpha-ring"), "150.0 µs");
    assert_eq!(app.text("#beta-ring"), "1.229 µs");
    assert_eq!(app.count("#row-rd.winner"), 1);
    assert!(app.text("#winner").contains("recursive doubling"));
    // Crossover rd → Rabenseifner at 117,647 B.
    assert!(app.text("#intervals").contains("117.6 kB (114.9 KiB)"));
    assert!(app.text(".view-cost").contains("≈ 117,647 B"));
    // 100 Gb/s = 12.5 GB/s → β = 0.08 ns/B.
    assert!(app
        .text("#units-line")
        .contains("100 Gb/s = 12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"));
    // The three charts render as SVG.
    for id in ["#chart-size svg", "#chart-p svg", "#chart-map svg"] {
        assert_eq!(app.count(id), 1, "{id}");
    }
    assert!(app.text("#calc-rd").contains("= 22.62 µs"));
}

#[wasm_bindgen_test]
async fn the_all_to_all_panel_gives_the_bruck_pairwise_break_even() {
    // p = 16, α = 5 µs, β = 0.08 ns/B, n = 8 KiB as the block matrix:
    // pairwise 15α + 480 B·β = 75.04 µs, Bruck 4α + 1,024 B·β = 20.08 µs,
    // linear α + 480 B·β = 5.038 µs; Bruck and pairwise break even where
    // 11α = 17/256·nβ, at 10,352,941 B.
    let app = Mounted::new("view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB").await;
    let times: Vec<String> = ["pairwise", "bruck", "linear"]
        .iter()
        .map(|k| app.text(&format!("#a2a-time-{k}")))
        .collect();
    assert_eq!(times, ["75.04 µs", "20.08 µs", "5.038 µs"]);
    assert_eq!(app.count("#a2a-linear.winner"), 1);
    assert!(app
        .text("#a2a-break-even")
        .contains("faster below 10.35 MB (9.873 MiB)"));
    assert!(app.text("#all-to-all").contains("≈ 10,352,941 B"));
}

#[wasm_bindgen_test]
async fn cost_view_large_messages_and_1024_ranks() {
    let app = Mounted::new("view=cost&p=16&alpha=5us&bw=100Gb/s&size=64MiB").await;
    assert_eq!(app.text("#time-rab"), "10.11 ms");
    assert_eq!(app.text("#time-ring"), "10.22 ms");
    assert_eq!(app.text("#time-rd"), "21.49 ms");
    assert_eq!(app.count("#row-rab.winner"), 1);
    let app = Mounted::new("view=cost&p=1024&alpha=5us&bw=100Gb/s&size=64MiB").await;
    assert_eq!(app.text("#time-ring"), "20.96 ms");
    assert_eq!(app.text("#time-rab"), "10.83 ms");
}

#[wasm_bindgen_test]
async fn cost_view_nccl_bandwidths_match_the_ring_seed() {
    // p = 4, 100 MB, 12.5 GB/s, α = 0: ring 12 ms, naive root 48 ms;
    // ring busbw = 12.5 GB/s.
    let app = Mounted::new("view=cost&p=4&alpha=0us&bw=12.5GB/s&size=100MB&alg=ring").await;
    assert_eq!(app.text("#time-ring"), "12.00 ms");
    assert_eq!(app.text("#time-naive"), "48.00 ms");
    assert!(app.text("#algbw").ends_with("8.333 GB/s"));
    assert!(app.text("#busbw").ends_with("12.5 GB/s"));
}

#[wasm_bindgen_test]
async fn cost_view_bad_input_keeps_the_last_good_chart() {
    for bad in ["p=abc", "size=12parsecs", "bw=-1GB/s"] {
        let app = Mounted::new(&format!("view=cost&{bad}")).await;
        assert!(app.count(".field-error") >= 1, "{bad}: inline message");
        assert_eq!(app.text("#time-rd"), "22.62 µs", "{bad}: defaults kept");
        assert_eq!(app.count("#chart-size svg"), 1);
    }
    let app = Mounted::new("view=cost&p=16&size=8KiB").await;
    set_field(&app, "size", "12parsecs").await;
    assert!(app.text(".field.invalid .field-error").contains("parsecs"));
    assert_eq!(app.text("#time-rd"), "22.62 µs");
    assert_eq!(app.count("#chart-size svg"), 1);
    set_field(&app, "size", "64MiB").await;
    assert_eq!(app.count(".field.invalid"), 0);
    assert_eq!(app.text("#time-rab"), "10.11 ms");
}

#[wasm_bindgen_test]
async fn cost_view_refuses_a_bandwidth_outside_1_kbps_to_100_pbps() {
    let app = Mounted::new("view=cost&bw=1e-300B/s").await;
    let err = app.text(".field-error");
    assert!(err.contains("between 1 kB/s and 100 PB/s"), "{err}");
    assert!(
        !app.text("body").contains("000000000000"),
        "no long digit runs"
    );
}

#[wasm_bindgen_test]
async fn proto_nccl_marks_nccl_s_pick_for_ring_at_p8_on_one_node() {
    // NCCL v2.30.7's model for 8 A100s on one NVSwitch node (12 channels of
    // 20 GB/s): Ring/LL at 64 KiB (16.31 µs), Ring/LL128 at 16 MiB
    // (173.6 µs), Ring/Simple at 256 MiB (2.013 ms); switches at 2.128 MB
    // and 24.29 MB.
    let app = Mounted::new(
        "view=cost&p=8&alpha=1us&bw=450GB/s&size=64KiB&proto=nccl&nccl_ver=2.30&ch=12&intra=20GB/s&inter=20GB/s&nodes=1&cc=80&link=nvl",
    )
    .await;
    let row = |n: u64| app.text(&format!("#nccl-row-{n}"));
    assert!(row(65_536).ends_with("Ring/LL"), "{}", row(65_536));
    assert!(row(65_536).contains("16.31 µs ◀"), "{}", row(65_536));
    assert!(row(16 << 20).ends_with("Ring/LL128"), "{}", row(16 << 20));
    assert!(row(16 << 20).contains("173.6 µs ◀"), "{}", row(16 << 20));
    assert!(
        row(256 << 20).ends_with("Ring/Simple"),
        "{}",
        row(256 << 20)
    );
    assert!(row(256 << 20).contains("2.013 ms ◀"), "{}", row(256 << 20));
    let sw = app.text("#nccl-switches");
    assert!(sw.contains("Ring/LL → Ring/LL128 at 2.128 MB"), "{sw}");
    assert!(sw.contains("Ring/LL128 → Ring/Simple at 24.29 MB"), "{sw}");
    assert!(sw.contains("LL's half-width lines"), "{sw}");
    assert_eq!(app.count("#chart-nccl svg"), 1);
    assert!(app.text("#nccl-not-modelled").contains("NVLS"));
    // The plain α–β table is still there, unchanged by the protocol layer.
    assert_eq!(app.count("#row-rd"), 1);
    // A bad protocol field keeps the last good state with a message.
    set_field(&app, "ch", "0").await;
    assert!(app.text(".field.invalid .field-error").contains("ch"));
    assert!(row(65_536).ends_with("Ring/LL"));
}

#[wasm_bindgen_test]
async fn proto_nccl_gives_one_answer_nccl_s_and_labels_the_alpha_beta_table_as_the_textbook_model()
{
    // 8 A100s on one NVSwitch node, 12 channels of 20 GB/s (NCCL v2.30.7):
    // Ring/LL at 64 KiB in 16.31 µs, as the row test above reads.
    let app = Mounted::new(
        "view=cost&p=8&alpha=1us&bw=450GB/s&size=64KiB&proto=nccl&nccl_ver=2.30&ch=12&intra=20GB/s&inter=20GB/s&nodes=1&cc=80&link=nvl",
    )
    .await;
    assert_eq!(
        app.text("#nccl-answer"),
        "NCCL's pick at 65.54 kB (64 KiB): Ring/LL, 16.31 µs."
    );
    assert!(app.text("#nccl-reads").starts_with("From the NCCL fields"));
    assert!(app
        .text("#textbook-note")
        .starts_with("The textbook α–β model, from the α–β fields"));
    assert!(app
        .text("#winner")
        .starts_with("Fastest in the textbook model at "));
    // NCCL's answer comes first on the page: its panel precedes the table.
    let html = app.root.inner_html();
    let (answer, table) = (html.find("id=\"nccl-answer\""), html.find("id=\"table-h\""));
    assert!(
        answer.is_some() && table.is_some() && answer < table,
        "{answer:?} {table:?}"
    );
    // Without a protocol the table is the page's answer, unlabelled.
    let plain = Mounted::new("view=cost&p=8&size=64KiB").await;
    assert_eq!(plain.count("#textbook-note"), 0);
    assert!(plain.text("#winner").starts_with("Fastest at "));
}
