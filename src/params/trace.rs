//! URL parameters of the `trace` view (a measured run beside the model):
//! `?view=trace&alg=ring&p=4&size=16MiB&bw=12.5GB/s&alpha=5us&gamma=0.1ns/B&segments=1`.
//!
//! The case (`alg`, `p`, `size`, `segments`, and the topology view's
//! shape keys for an algorithm that follows nodes) and the link (`alpha`,
//! `bw`, `gamma`) are the timeline view's, read by
//! [`TimelineParams::from_query`] with the same checks and messages. A
//! loaded trace sets the case to its own; the page models it with the
//! dataflow clock, without faults, so the timeline's `late`, `slow`,
//! `fail`, `mode` and `t` are not written back (they are still read and
//! checked, and ignored).

use super::timeline::{ModeChoice, TimelineParams};
use super::{FieldError, Query};
use crate::core::timing::clock::Mode;

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &["title", "controls", "input", "charts", "ranks", "profile"];

/// Parameters of the trace view: the timeline's case on the dataflow
/// clock, without faults.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TraceParams(pub TimelineParams);

impl TraceParams {
    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` and yields a [`FieldError`] (as the timeline's).
    pub fn from_query(q: &Query, base: &TraceParams) -> (TraceParams, Vec<FieldError>) {
        let (p, errs) = TimelineParams::from_query(q, &base.0);
        (TraceParams(p), errs)
    }

    /// The canonical query pairs (without `view`): the timeline's, less
    /// the faults, the mode and the cursor.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = self.0.to_pairs();
        v.retain(|(k, _)| !matches!(*k, "late" | "slow" | "fail" | "mode" | "t"));
        v
    }

    /// What the model runs: the case on the dataflow clock, no faults, the
    /// cursor at 0.
    pub fn model_case(&self) -> TimelineParams {
        let d = TimelineParams::default();
        TimelineParams {
            mode: ModeChoice::One(Mode::Dataflow),
            late: d.late,
            slow: d.slow,
            fail: d.fail,
            t: d.t,
            ..self.0.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_case_is_read_as_the_timeline_reads_it_and_faults_are_dropped() {
        let q =
            Query::parse("alg=rd&p=8&size=16MiB&alpha=5us&bw=10GB/s&late=2:5ms&mode=both&t=3ms");
        let (p, errs) = TraceParams::from_query(&q, &TraceParams::default());
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(p.0.alg.key(), "rd");
        assert_eq!(p.0.p, 8);
        assert_eq!(p.0.size.value, 16 * 1024 * 1024);
        let keys: Vec<&str> = p.to_pairs().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["alg", "p", "size", "bw", "alpha"]);
        let m = p.model_case();
        assert_eq!(m.mode, ModeChoice::One(Mode::Dataflow));
        assert!(m.faults().is_empty());
        assert_eq!(m.t.value, 0.0);
        assert_eq!(m.alpha.value, 5e-6);
    }

    #[test]
    fn a_bad_field_keeps_the_last_good_value_with_the_timelines_message() {
        let q = Query::parse("p=1&alg=nope");
        let (p, errs) = TraceParams::from_query(&q, &TraceParams::default());
        assert_eq!(p.0.p, 4);
        assert_eq!(p.0.alg.key(), "ring");
        let fields: Vec<&str> = errs.iter().map(|e| e.field).collect();
        assert!(
            fields.contains(&"p") && fields.contains(&"alg"),
            "{fields:?}"
        );
    }
}
