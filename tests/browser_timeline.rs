//! In-browser tests of `?view=timeline`: the ring at p = 4 on the clock,
//! a late rank, a failed rank, bad values, and the segment sweep that
//! runs in slices after the first paint.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{set_field, sleep, Mounted};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const RING: &str = "view=timeline&alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us";

fn sends(app: &Mounted, mode: &str, rank: usize) -> Vec<String> {
    let list = app
        .root
        .query_selector_all(&format!("#gantt-{mode}-row-{rank} rect.g-send title"))
        .expect("selector");
    (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.text_content()))
        .collect()
}

#[wasm_bindgen_test]
async fn the_ring_takes_12_ms_in_both_modes_with_six_2_ms_sends_per_rank() {
    let app = Mounted::new(RING).await;
    assert_eq!(app.text("#total-dataflow"), "Dataflow: 12.00 ms");
    assert_eq!(app.text("#total-lockstep"), "Lock-step: 12.00 ms");
    for mode in ["dataflow", "lockstep"] {
        for r in 0..4 {
            let s = sends(&app, mode, r);
            assert_eq!(s.len(), 6, "{mode} rank {r}: {s:?}");
            assert!(s.iter().all(|t| t.contains("(2.000 ms)")), "{s:?}");
            assert_eq!(app.text(&format!("#wait-{mode}-{r}")), "0 s");
        }
    }
    assert!(app.text("#contrast").contains("the same finish"));
    assert_eq!(app.count("#failure"), 0);
    // the cursor steps through the event times and narrates them
    app.key("ArrowRight").await;
    assert!(
        app.text("#narration").contains("At t = 2.000 ms"),
        "{}",
        app.text("#narration")
    );
    assert!(app.text("#narration").contains("moving"));
}

#[wasm_bindgen_test]
async fn a_late_rank_finishes_at_17_ms_with_different_waits() {
    let app = Mounted::new(&format!("{RING}&late=2:5ms")).await;
    assert_eq!(app.text("#total-dataflow"), "Dataflow: 17.00 ms");
    assert_eq!(app.text("#total-lockstep"), "Lock-step: 17.00 ms");
    let waits = |mode: &str| {
        (0..4)
            .map(|r| app.text(&format!("#wait-{mode}-{r}")))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        waits("dataflow"),
        ["5.000 ms", "3.000 ms", "0 s", "3.000 ms"]
    );
    assert_eq!(
        waits("lockstep"),
        ["5.000 ms", "5.000 ms", "0 s", "5.000 ms"]
    );
    assert!(app.text("#totals-dataflow").contains("11.00 ms"));
    assert!(app.text("#totals-lockstep").contains("15.00 ms"));
    let why = app.text("#contrast");
    assert!(
        why.contains("lock-step's barrier makes every rank wait for the late rank 2 up front"),
        "{why}"
    );
    assert!(why.contains("passes through rank 2"), "{why}");
}

#[wasm_bindgen_test]
async fn a_failed_rank_stalls_the_collective_and_shows_no_result() {
    let app = Mounted::new(&format!("{RING}&fail=2@3ms")).await;
    let f = app.text("#failure");
    assert!(f.contains("The collective does not complete"), "{f}");
    assert!(f.contains("Rank 2 fails at 3.000 ms"), "{f}");
    assert!(f.contains("No rank holds the result."), "{f}");
    assert!(f.contains("NCCL"));
    assert!(app.text("#total-dataflow").contains("does not complete"));
    assert!(
        app.text("#totals-dataflow").contains("—"),
        "no time, no bandwidth"
    );
    assert!(app.count("#gantt-dataflow .g-fail") >= 1);
    assert!(app.count("#gantt-dataflow rect.cut") >= 1);
}

#[wasm_bindgen_test]
async fn bad_values_show_a_message_and_keep_the_last_good_state() {
    let app = Mounted::new(RING).await;
    for (name, bad, says) in [
        ("late", "9:1ms", "rank 9"),
        ("slow", "1:2", "at most 1"),
        ("segments", "0", "segments"),
    ] {
        set_field(&app, name, bad).await;
        let msg = app.text(&format!("#f-{name}-err"));
        assert!(msg.contains(says), "{name}={bad}: {msg}");
        assert_eq!(app.text("#total-dataflow"), "Dataflow: 12.00 ms", "{name}");
        set_field(&app, name, if name == "segments" { "1" } else { "-" }).await;
    }
    let app = Mounted::new(&format!("{RING}&late=9:1ms")).await;
    assert!(app.text("#f-late-err").contains("rank 9"));
    assert_eq!(app.text("#total-dataflow"), "Dataflow: 12.00 ms");
    // the two menus say so too when the URL names no option of theirs
    let app = Mounted::new(&format!("{RING}&alg=dbtre&mode=fast")).await;
    assert!(
        app.text("#f-alg-err").contains("dbtre"),
        "{}",
        app.text("#f-alg-err")
    );
    assert!(
        app.text("#f-mode-err").contains("fast"),
        "{}",
        app.text("#f-mode-err")
    );
    assert_eq!(app.text("#total-dataflow"), "Dataflow: 12.00 ms");
}

/// Waits (in 50 ms slices, at most 30 s) until the sweep's table is there.
async fn until_sweep(app: &Mounted) {
    for _ in 0..600 {
        if app.count("#sweep") == 1 {
            return;
        }
        sleep(50).await;
    }
    panic!("the sweep never finished: {}", app.text("#pipelining"));
}

#[wasm_bindgen_test]
async fn the_sweep_finds_the_ring_flat_at_alpha_zero_and_the_basic_tree_at_32_ms() {
    // p = 4, 100 MB, 12.5 GB/s, α = 0: each port carries 150 MB, busy all
    // the time, at every k: 12 ms for k = 1 … 256, so the best k is 1.
    // The basic tree formula: 2⌈log₂4⌉ × 100 MB / 12.5 GB/s = 32 ms.
    let app = Mounted::new(RING).await;
    until_sweep(&app).await;
    assert_eq!(app.count("#sweep tbody tr"), 9);
    let cells = app.text("#sweep tbody");
    assert_eq!(cells.matches("12.00 ms").count(), 9, "{cells}");
    assert!(app.text("#sweep tr.winner th").starts_with('1'));
    let line = app.text("#tree-compare");
    assert!(
        line.contains("basic tree formula 2⌈log₂p⌉(α + nβ): 32.00 ms"),
        "{line}"
    );
    assert!(line.contains("ring 12.00 ms (k = 1)"), "{line}");
}

#[wasm_bindgen_test]
async fn at_64_ranks_the_charts_come_first_and_the_cursor_steps_while_the_sweep_runs() {
    // The sweep at p = 64 simulates 314 118 message pieces (ring 8 064 × 15
    // for k ≤ 8, ptree 126 × 511, dbtree 252 × 511): far more than one
    // slice, so it is still running when the charts are up.
    let app = Mounted::new("view=timeline&alg=ring&p=64&size=64MB").await;
    assert!(app.text("#total-dataflow").starts_with("Dataflow: "));
    assert_eq!(
        app.count("#pipelining progress"),
        1,
        "{}",
        app.text("#pipelining")
    );
    assert!(
        app.text("#pipelining")
            .contains("of 314,118 message pieces"),
        "{}",
        app.text("#pipelining")
    );
    let before = app.text("#narration");
    app.key("ArrowRight").await;
    assert_ne!(app.text("#narration"), before);
    // Above 16 ranks the per-rank table is built when it is first opened.
    assert_eq!(app.count("#per-rank"), 0);
    app.click(".per-rank-box summary").await;
    for _ in 0..40 {
        if app.count("#per-rank") == 1 {
            break;
        }
        sleep(25).await;
    }
    assert_eq!(app.count("#per-rank tbody tr"), 64);
    until_sweep(&app).await;
    assert_eq!(app.count("#pipelining progress"), 0);
    assert!(
        app.text("#tree-compare").contains("double tree "),
        "{}",
        app.text("#tree-compare")
    );
}

#[wasm_bindgen_test]
async fn a_late_rank_s_headline_sets_the_healthy_ring_against_it() {
    // 12 ms with every rank on time; rank 2 enters 5 ms late: 17 ms.
    let app = Mounted::new(&format!("{RING}&late=2:5ms")).await;
    assert_eq!(
        app.text("#fault-headline"),
        "Every rank healthy: 12.00 ms. With rank 2 starting 5.000 ms late: 17.00 ms, 1.42× as long (dataflow clock)."
    );
    assert!(app
        .text("#trace-link")
        .ends_with("without the late, slow or failed ranks)"));
    let healthy = Mounted::new(RING).await;
    assert_eq!(healthy.count("#fault-headline"), 0);
}
