//! The measure page's words and numbers.

use super::{bw_text, bytes, gbs, message_text, parse_range, percent, us};
use crate::core::measure::LineMessage;

#[test]
fn a_message_names_its_line_unless_it_is_about_the_whole_input() {
    let at = |line| LineMessage {
        line,
        reason: "no number in column 2".into(),
    };
    assert_eq!(message_text(&at(12)), "line 12: no number in column 2");
    assert_eq!(message_text(&at(0)), "no number in column 2");
}

#[test]
fn times_sizes_and_bandwidths_as_the_fit_panels_write_them() {
    // 12.34567 µs to 4 significant digits; β = 0.1 ns/B is 10 GB/s, to 4
    // significant digits 10.00 GB/s.
    assert_eq!(us(12.34567e-6), "12.35 µs");
    assert_eq!(bytes(4095.6), "4,096 B");
    assert_eq!(gbs(1e-10), "10.00 GB/s");
    assert!(
        bw_text(1e-10).starts_with("10 GB/s = "),
        "{}",
        bw_text(1e-10)
    );
    assert_eq!(
        bw_text(0.0),
        "unbounded (β = 0: these sizes are latency-bound)"
    );
    assert_eq!(percent((3, 4)), "3 of 4 (75.0 %)"); // 3 significant digits
    assert_eq!(percent((0, 0)), "none");
}

#[test]
fn a_range_field_is_a_size_or_empty() {
    assert_eq!(parse_range("  ", "from"), Ok(None));
    assert_eq!(parse_range("64KiB", "from"), Ok(Some(65_536.0)));
    let e = parse_range("lots", "to").expect_err("not a size");
    assert!(
        e.starts_with("to: ") && e.ends_with("(e.g. 64KiB or 1MB; empty = all sizes)"),
        "{e}"
    );
}
