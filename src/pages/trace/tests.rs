//! The trace page's words.

use super::{case_line, finish, ratio};
use crate::core::units::format_binary;
use crate::params::timeline::TimelineParams;
use crate::params::trace::TraceParams;

#[test]
fn the_model_case_line_links_to_the_timeline() {
    let line = case_line(&TraceParams(TimelineParams::default()));
    assert!(line.contains(", p = 4, "), "{line}");
    assert!(
        line.contains(&format!(
            "{}, 1 segment, dataflow clock.",
            format_binary(100e6)
        )),
        "{line}"
    );
    assert!(line.contains("<a href=\"?view=timeline&amp;"), "{line}");
}

#[test]
fn ratios_and_finishing_times() {
    assert_eq!(ratio(Some(1.25)), "1.25×");
    assert_eq!(ratio(None), "—");
    assert_eq!(finish(None), "does not finish");
}
