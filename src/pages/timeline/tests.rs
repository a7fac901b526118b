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
