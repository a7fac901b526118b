//! The timeline page's words against hand-written expectations.

use super::{best_text, chart_notes, comparison_line, cursor_text, trace_link};
use crate::core::collectives::pipelining::{Comparison, Sweep};
use crate::core::collectives::Algorithm;
use crate::core::units::format_time;
use crate::pages::common::clocks::compute;
use crate::params::timeline::TimelineParams;

#[test]
fn the_cursor_is_written_as_the_url_takes_it() {
    assert_eq!(cursor_text(5e-3), "5ms");
    assert_eq!(cursor_text(12.5e-6), "12.5us");
}

#[test]
fn the_trace_link_carries_the_case() {
    let link = trace_link(&TimelineParams::default());
    assert!(link.starts_with("?view=trace&"), "{link}");
    assert!(link.contains("p=4"), "{link}");
}

#[test]
fn four_ranks_need_no_chart_note() {
    // p = 4: one row per rank, tooltips on, nothing merged.
    let runs = compute(&TimelineParams::default()).expect("runs");
    assert_eq!(chart_notes(&runs, 64), Vec::<String>::new());
    // With a tooltip limit below the rows, the note says so.
    assert_eq!(
        chart_notes(&runs, 2),
        vec!["Above 2 rows the bars have no tooltips; the per-rank table and the CSV downloads hold their times.".to_string()]
    );
}

#[test]
fn the_comparison_line_names_each_best_and_each_missing_key() {
    let ring = Sweep {
        alg: Algorithm::RING,
        points: Vec::new(),
        best: Some((4, 2e-3)),
    };
    let stalled = Sweep {
        best: None,
        ..ring.clone()
    };
    assert_eq!(
        best_text(&ring),
        format!(
            "{} {} (k = 4)",
            Algorithm::RING.short_label(),
            format_time(2e-3)
        )
    );
    assert_eq!(
        best_text(&stalled),
        format!("{} — (does not complete)", Algorithm::RING.short_label())
    );
    let c = Comparison {
        tree_formula: 3e-3,
        sweeps: vec![ring.clone()],
        missing: vec!["dbtree"],
    };
    assert_eq!(
        comparison_line(&c),
        format!(
            "basic tree formula 2⌈log₂p⌉(α + nβ): {}; {}; dbtree: not in this build's registry (dataflow, each at its best k).",
            format_time(3e-3),
            best_text(&ring)
        )
    );
}

#[test]
fn a_late_rank_s_headline_sets_the_healthy_ring_against_it() {
    use crate::params::Query;
    // The ring at p = 4, 100 MB, 12.5 GB/s: 2·3/4 · 100 MB / 12.5 GB/s =
    // 12 ms healthy; rank 2 enters 5 ms late and every rank waits for its
    // data, so 17 ms, 17/12 = 1.42 times as long.
    let q = Query::parse("alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us&late=2:5ms");
    let (p, errs) = TimelineParams::from_query(&q, &TimelineParams::default());
    assert!(errs.is_empty(), "{errs:?}");
    let runs = compute(&p).expect("runs");
    assert_eq!(
        super::fault_headline(&runs).as_deref(),
        Some("Every rank healthy: 12.00 ms. With rank 2 starting 5.000 ms late: 17.00 ms, 1.42× as long (dataflow clock).")
    );
    // A failed rank: the collective never completes.
    let q = Query::parse("alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us&fail=1@2ms&slow=3:0.5");
    let (p, _) = TimelineParams::from_query(&q, &TimelineParams::default());
    let runs = compute(&p).expect("runs");
    let h = super::fault_headline(&runs).expect("a headline");
    assert!(
        h.starts_with("Every rank healthy: 12.00 ms. With rank 3 at 0.5× the bandwidth and rank 1 failing at 2.000 ms: the collective never completes; it stops at "),
        "{h}"
    );
    assert!(super::trace_link_text(&p).is_some_and(
        |t| t.ends_with("(the trace page models it without the late, slow or failed ranks)")
    ));
    assert!(super::trace_link_text(&TimelineParams::default())
        .is_some_and(|t| t.ends_with("beside the model")));
    // The runner has no all-to-all, so no link to a trace it cannot make.
    let pairwise = TimelineParams {
        alg: crate::core::collectives::Algorithm::PAIRWISE,
        ..TimelineParams::default()
    };
    assert_eq!(super::trace_link_text(&pairwise), None);
    // No fault, no headline.
    assert_eq!(
        super::fault_headline(&compute(&TimelineParams::default()).expect("runs")),
        None
    );
}
