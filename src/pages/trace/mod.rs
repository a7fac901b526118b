//! `?view=trace`: what the measured-trace page says of a trace from the MPI
//! runner (read by [`crate::core::timing::measured`]) beside the model: the
//! trace's case as URL fields and in words, the model's case with its link
//! to the timeline, and the ratios of the per-rank table. Its clocks are
//! [`crate::pages::common::clocks`], shared with the timeline page.

#[cfg(test)]
mod tests;

pub mod profile;

use crate::core::timing::measured::Measured;
use crate::core::units::{decimal, format_binary, format_exact, format_time, Prefix};
use crate::params::encode;
use crate::params::trace::TraceParams;

/// The fields that give the page the trace's case.
pub fn case_of(m: &Measured) -> Vec<(&'static str, String)> {
    let mut v = vec![("p", m.p.to_string())];
    v.extend(m.alg.clone().map(|a| ("alg", a)));
    v.extend(m.bytes.map(|b| ("size", format_exact(b, Prefix::Binary))));
    v.extend(m.segments.map(|k| ("segments", k.to_string())));
    v
}

/// What the trace is, as markup (the algorithm key is checked by the core:
/// letters, digits, `-` and `_`).
pub fn describe(m: &Measured) -> String {
    let rounds = m.rounds.iter().map(Vec::len).max().unwrap_or(0);
    let size = m.bytes.map(|b| format_binary(b as f64));
    format!(
        "<p id=\"trace-case\">Trace: {}, p = {}, {}; {} events, {rounds} rounds per rank.</p>",
        m.alg.as_deref().unwrap_or("algorithm not named"),
        m.p,
        size.as_deref().unwrap_or("size not given"),
        m.events,
    )
}

/// The model's case in words, with a link to it on the timeline.
pub fn case_line(p: &TraceParams) -> String {
    let c = &p.0;
    let mut pairs = vec![("view", "timeline".to_string())];
    pairs.extend(p.to_pairs());
    format!(
        "<p class=\"muted\" id=\"model-case\">Model: {} ({}), p = {}, {}, {} segment{}, dataflow clock. \
         <a href=\"?{}\">Open this case on the timeline</a></p>",
        c.alg.label(),
        c.alg.key(),
        c.p,
        format_binary(c.size.value as f64),
        c.segments,
        if c.segments == 1 { "" } else { "s" },
        encode(&pairs).replace('&', "&amp;")
    )
}

/// A ratio to two decimals, "1.25×", or "—".
pub fn ratio(q: Option<f64>) -> String {
    q.map_or_else(|| "—".into(), |q| format!("{}×", decimal::fixed(q, 2)))
}

/// A finishing time, or "does not finish".
pub fn finish(v: Option<f64>) -> String {
    v.map_or_else(|| "does not finish".into(), format_time)
}
